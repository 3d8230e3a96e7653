/*
 * report.c - shared helpers of the reading tools (see report.h).
 */
#include "emu/analysis/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/core/output.h"

int report_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int report_parse_double(const char *s, double lo, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < lo)
		return -1;
	*out = v;
	return 0;
}

int report_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)n;
}

json_t *report_load_results(const char *path, struct mm_err *e)
{
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	if (!d) {
		if (je.line > 0) {
			char where[32];
			snprintf(where, sizeof where, "line %d", je.line);
			mm_errf(e, path, where, "%s", je.text);
		} else {
			mm_errf(e, path, NULL, "%s", je.text);
		}
		return NULL;
	}
	const char *fmt = json_string_value(json_object_get(d, "format"));
	if (!fmt || strcmp(fmt, RESULTS_FORMAT) != 0) {
		mm_errf(e, path, "format", "expected \"%s\" (not an mmemu results file)", RESULTS_FORMAT);
		json_decref(d);
		return NULL;
	}
	json_t *runs = json_object_get(d, "runs");
	size_t i;
	json_t *r;
	if (!json_is_array(runs)) {
		mm_errf(e, path, "runs", "expected an array");
		json_decref(d);
		return NULL;
	}
	json_array_foreach(runs, i, r) {
		char where[64];
		snprintf(where, sizeof where, "runs[%zu]", i);
		if (!json_is_string(json_object_get(r, "kernel")) ||
		    !json_is_object(json_object_get(r, "point")) ||
		    !results_run_measured(r)) {
			mm_errf(e, path, where, "expected a run with kernel, point and primary.value");
			json_decref(d);
			return NULL;
		}
	}
	return d;
}

int report_derived(const char *name, report_value_fn *get, const void *ctx, double *out)
{
	if (get(ctx, name, out) == 0)
		return 0;
	size_t k = strcspn(name, "/-");
	char a[128];
	double x, y;
	if (!name[k] || k == 0 || k >= sizeof a || !name[k + 1])
		return -1;
	snprintf(a, sizeof a, "%.*s", (int)k, name);
	if (get(ctx, a, &x) || get(ctx, name + k + 1, &y) || (name[k] == '/' && y == 0))
		return -1;
	*out = name[k] == '/' ? x / y : x - y;
	return 0;
}

/* A run's number called @name (report_run_value() without derived names). */
static int run_value_plain(const void *ctx, const char *name, double *v)
{
	const json_t *run = ctx;
	json_t *p = json_object_get(run, "primary");
	const char *pn = json_string_value(json_object_get(p, "name"));
	json_t *x = NULL;
	if (pn && strcmp(pn, name) == 0)
		x = json_object_get(p, "value");
	if (!x)
		x = json_object_get(json_object_get(run, "metrics"), name);
	if (!x)
		x = json_object_get(json_object_get(run, "vmstat"), name);
	if (!x && strcmp(name, "sim_time") == 0)
		x = json_object_get(run, "sim_time");
	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return 0;
}

int report_run_value(const json_t *run, const char *name, double *v)
{
	return report_derived(name, run_value_plain, run, v);
}

void report_str_append(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	char *t = realloc(*s, *len + (size_t)n + 1);
	if (!t)
		return;
	va_start(ap, fmt);
	vsnprintf(t + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*s = t;
	*len += (size_t)n;
}

/* Returns: 1 if column @c of @t is left-aligned.  Only the first columns can be:
 * shifting the mask by its width or more is undefined (issue 27, item 12). */
static int rtable_left(const struct rtable *t, int c)
{
	return c < (int)(sizeof t->left * CHAR_BIT) && ((t->left >> c) & 1u);
}

void rtable_init(struct rtable *t, int ncols, int header, unsigned left)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
	t->header = header;
	t->left = left;
}

void rtable_add(struct rtable *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		int nc = t->cap ? t->cap * 2 : 16;
		char **c = realloc(t->cells, (size_t)nc * (size_t)t->ncols * sizeof *c);
		if (!c)
			return;
		t->cells = c;
		t->cap = nc;
	}
	for (int i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = strdup(cells && cells[i] ? cells[i] : "");
	t->nrows++;
}

void rtable_setf(struct rtable *t, int col, const char *fmt, ...)
{
	if (t->nrows == 0 || col < 0 || col >= t->ncols)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **c = &t->cells[(t->nrows - 1) * t->ncols + col];
	free(*c);
	*c = strdup(buf);
}

void rtable_print(const struct rtable *t, FILE *f, const char *indent, int markdown)
{
	int *w = calloc((size_t)t->ncols, sizeof *w);
	if (!w)
		return;
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			int l = (int)strlen(t->cells[r * t->ncols + c]);
			if (l > w[c])
				w[c] = l;
		}
	for (int r = 0; r < t->nrows; r++) {
		fputs(indent ? indent : "", f);
		if (markdown)
			fputs("|", f);
		for (int c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			int left = rtable_left(t, c);
			int width = w[c];
			if (!markdown && left && c == t->ncols - 1)
				width = 0; /* no trailing blanks */
			if (markdown)
				fprintf(f, " %*s |", left ? -width : width, s);
			else
				fprintf(f, "%s%*s", c ? "  " : "", left ? -width : width, s);
		}
		fputc('\n', f);
		if (markdown && r == 0 && t->header) {
			fputs(indent ? indent : "", f);
			fputs("|", f);
			for (int c = 0; c < t->ncols; c++)
				fprintf(f, "%s|", rtable_left(t, c) ? " --- " : " ---: ");
			fputc('\n', f);
		}
	}
	free(w);
}

void rtable_free(struct rtable *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
}

void report_add_unique(json_t *set, json_t *v)
{
	size_t i;
	json_t *h;
	json_array_foreach(set, i, h)
		if (json_equal(h, v))
			return;
	json_array_append(set, v);
}

json_t *report_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *report_json_text(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(12));
}

int report_run_key(const json_t *run, struct report_key *key)
{
	json_t *s = json_object_get(run, "seed"), *r = json_object_get(run, "run");
	if (!json_is_integer(s) || !json_is_integer(r))
		return -1;
	key->seed = (long long)json_integer_value(s);
	key->run = (long long)json_integer_value(r);
	return 0;
}

int report_pair(const struct report_key *bk, size_t nb, const struct report_key *kk, double *k, size_t nk)
{
	if (nb != nk || nb < 2 || !bk || !kk)
		return 0;
	size_t *at = malloc(nb * sizeof *at);
	char *used = calloc(nk, 1);
	int ok = at && used;
	for (size_t i = 0; ok && i < nb; i++) {
		size_t hits = 0;
		for (size_t j = 0; j < nk; j++)
			if (kk[j].seed == bk[i].seed && kk[j].run == bk[i].run) {
				at[i] = j;
				hits++;
			}
		ok = hits == 1 && !used[at[i]];
		if (ok)
			used[at[i]] = 1;
	}
	if (ok) {
		double *copy = malloc(nk * sizeof *copy);
		ok = copy != NULL;
		for (size_t i = 0; ok && i < nb; i++)
			copy[i] = k[at[i]];
		for (size_t i = 0; ok && i < nb; i++)
			k[i] = copy[i];
		free(copy);
	}
	free(at);
	free(used);
	return ok;
}
