/*
 * published.c - reading results/published/NNN.json (published.h).
 *
 * Design: a published file is checked once, when loaded, so that everything
 * after it (the claim evaluators, the printers) may take its shape for granted:
 * "seed", "scenario", "published_runs" and, in the single-table form, "metric",
 * "table" (point_key, columns, rows of one value per column) and claims with a
 * "kind".  The several-tables form is checked lazily: a claim about a table, row
 * or metric that is not there is "not checked", never an error.
 */
#include "emu/analysis/published.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/report.h"

int published_scenarios(json_t *pub, const char **out)
{
	json_t *v = json_object_get(pub, "scenario");
	if (json_is_string(v)) {
		out[0] = json_string_value(v);
		return 1;
	}
	size_t n = json_array_size(v);
	if (!json_is_array(v) || n < 1 || n > PUBLISHED_MAX_PARTS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!json_is_string(json_array_get(v, i)))
			return -1;
		out[i] = json_string_value(json_array_get(v, i));
	}
	return (int)n;
}

/* A non-empty string at @key of @o, when present.  Returns: 0, or -1 with @e set (@w: @o's path). */
static int opt_text(const char *path, json_t *o, const char *w, const char *key, struct mm_err *e)
{
	json_t *v = json_object_get(o, key);
	char k[96];
	snprintf(k, sizeof k, "%s.%s", w, key);
	if (v && (!json_is_string(v) || !*json_string_value(v)))
		return mm_errf(e, path, k, "expected a non-empty string");
	return 0;
}

/* A claim's "basis" (mechanism, by construction or calibrated) with its
 * "basis_reason", its "evidence", "withdrawn" and "not_modelled" texts.  Returns: 0, or -1 with @e set. */
static int check_claim_basis(const char *path, json_t *cl, const char *w, struct mm_err *e)
{
	json_t *b = json_object_get(cl, "basis");
	char k[96];
	snprintf(k, sizeof k, "%s.basis", w);
	if (b && (!json_is_string(b) || (strcmp(json_string_value(b), "mechanism") &&
					 strcmp(json_string_value(b), "by construction") &&
					 strcmp(json_string_value(b), "calibrated"))))
		return mm_errf(e, path, k, "expected \"mechanism\", \"by construction\" or \"calibrated\"");
	snprintf(k, sizeof k, "%s.basis_reason", w);
	if (b && !json_object_get(cl, "basis_reason"))
		return mm_errf(e, path, k, "missing: a declared basis needs a reason naming the code path or constant");
	return opt_text(path, cl, w, "basis_reason", e) || opt_text(path, cl, w, "evidence", e) ||
	       opt_text(path, cl, w, "withdrawn", e) || opt_text(path, cl, w, "not_modelled", e);
}

/* The file's "inputs" ({metric: reason}) and "stock" (a column or an array of
 * columns).  Returns: 0, or -1 with @e set. */
static int check_inputs(const char *path, json_t *p, struct mm_err *e)
{
	json_t *in = json_object_get(p, "inputs"), *st = json_object_get(p, "stock"), *v;
	const char *k;
	size_t i;
	if (in && !json_is_object(in))
		return mm_errf(e, path, "inputs", "expected an object {metric: the constant it is}");
	json_object_foreach(in, k, v) if (!json_is_string(v) || !*json_string_value(v)) {
		char w[128];
		snprintf(w, sizeof w, "inputs.%s", k);
		return mm_errf(e, path, w, "expected a non-empty string naming the constant");
	}
	if (st && !json_is_string(st) && !json_is_array(st))
		return mm_errf(e, path, "stock", "expected a column name or an array of column names");
	json_array_foreach(json_is_array(st) ? st : NULL, i, v) if (!json_is_string(v))
		return mm_errf(e, path, "stock", "expected a column name or an array of column names");
	return 0;
}

/* Is @p a well-formed published file?  Returns: 0, or -1 with @e set. */
static int check(const char *path, json_t *p, struct mm_err *e)
{
	if (!json_is_object(p))
		return mm_errf(e, path, "(top)", "expected a JSON object");
	if (!json_is_string(json_object_get(p, "seed")))
		return mm_errf(e, path, "seed", "expected a string");
	const char *parts[PUBLISHED_MAX_PARTS];
	if (published_scenarios(p, parts) < 0)
		return mm_errf(e, path, "scenario",
			       "expected a scenario path or an array of 1 to %d paths", PUBLISHED_MAX_PARTS);
	json_t *ia = json_object_get(p, "in_all");
	if (ia && !json_is_boolean(ia))
		return mm_errf(e, path, "in_all", "expected true or false");
	json_t *ir = json_object_get(p, "in_all_reason");
	if (ia && !json_is_true(ia) && !json_is_string(ir))
		return mm_errf(e, path, "in_all_reason",
			       "expected a string: why `reproduce all` leaves the seed out");
	json_t *pr = json_object_get(p, "published_runs");
	if (pr && (!json_is_integer(pr) || json_integer_value(pr) < 1 || json_integer_value(pr) > 1000000))
		return mm_errf(e, path, "published_runs", "expected an integer in [1, 1000000]");
	json_t *t = json_object_get(p, "table"), *ts = json_object_get(p, "tables");
	if (!t && json_is_array(ts)) {
		size_t i;
		json_t *tb;
		json_array_foreach(ts, i, tb) {
			json_t *tr = json_object_get(tb, "published_runs");
			if (tr && (!json_is_integer(tr) || json_integer_value(tr) < 1 || json_integer_value(tr) > 1000000)) {
				char w[64];
				snprintf(w, sizeof w, "tables[%zu].published_runs", i);
				return mm_errf(e, path, w, "expected an integer in [1, 1000000]");
			}
			json_t *rm = json_object_get(tb, "report_metrics");
			size_t j;
			json_t *m;
			char w[80];
			snprintf(w, sizeof w, "tables[%zu].report_metrics", i);
			if (rm && !json_is_array(rm))
				return mm_errf(e, path, w, "expected an array of metric names");
			json_array_foreach(rm, j, m) if (!json_is_string(m)) {
				snprintf(w, sizeof w, "tables[%zu].report_metrics[%zu]", i, j);
				return mm_errf(e, path, w, "expected a metric name (a string)");
			}
		}
		json_array_foreach(json_object_get(p, "claims"), i, tb) {
			json_t *wi = json_object_get(tb, "what_if");
			char w[64];
			snprintf(w, sizeof w, "claims[%zu]", i);
			if (wi && !json_is_string(wi)) {
				snprintf(w, sizeof w, "claims[%zu].what_if", i);
				return mm_errf(e, path, w, "expected a string: the configuration the claim is judged on");
			}
			if (check_claim_basis(path, tb, w, e))
				return -1;
		}
		return check_inputs(path, p, e);   /* several tables: the rest is checked claim by claim (claims_tables.c) */
	}
	if (!json_is_object(t))
		return mm_errf(e, path, "table", "expected an object (or \"tables\": an array)");
	if (!json_is_string(json_object_get(p, "metric")))
		return mm_errf(e, path, "metric", "expected a string");
	if (!json_is_string(json_object_get(t, "point_key")))
		return mm_errf(e, path, "table.point_key", "expected a string");
	json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
	if (!json_is_array(cols) || json_array_size(cols) == 0)
		return mm_errf(e, path, "table.columns", "expected a non-empty array of kernel names");
	size_t i;
	json_t *v;
	json_array_foreach(cols, i, v) if (!json_is_string(v)) {
		char w[64];
		snprintf(w, sizeof w, "table.columns[%zu]", i);
		return mm_errf(e, path, w, "expected a string");
	}
	if (!json_is_array(rows))
		return mm_errf(e, path, "table.rows", "expected an array");
	json_array_foreach(rows, i, v) {
		char w[64];
		snprintf(w, sizeof w, "table.rows[%zu]", i);
		json_t *vals = json_object_get(v, "values");
		if (!json_object_get(v, "point") || !json_is_array(vals) ||
		    json_array_size(vals) != json_array_size(cols))
			return mm_errf(e, path, w, "expected {\"point\": ..., \"values\": [one per column]}");
	}
	json_t *claims = json_object_get(p, "claims");
	if (claims && !json_is_array(claims))
		return mm_errf(e, path, "claims", "expected an array");
	json_array_foreach(claims, i, v) {
		char w[64];
		snprintf(w, sizeof w, "claims[%zu]", i);
		if (!json_is_object(v) || !json_is_string(json_object_get(v, "kind")))
			return mm_errf(e, path, w, "expected an object with a string \"kind\"");
		if (check_claim_basis(path, v, w, e))
			return -1;
	}
	return check_inputs(path, p, e);
}

json_t *published_load(const char *path, struct mm_err *e)
{
	json_error_t je;
	json_t *p = json_load_file(path, 0, &je);
	if (!p) {
		char w[32];
		snprintf(w, sizeof w, "line %d", je.line);
		mm_errf(e, path, w, "%s", je.text);
		return NULL;
	}
	if (check(path, p, e)) {
		json_decref(p);
		return NULL;
	}
	return p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int published_list(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	*names = NULL;
	if (!d)
		return -1;
	char **v = NULL;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			v = realloc(v, (size_t)(n + 1) * sizeof *v);
			v[n++] = strdup(de->d_name);
		}
	}
	closedir(d);
	qsort(v, (size_t)n, sizeof *v, cmp_str);
	*names = v;
	return n;
}

void published_list_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int published_seed_matches(const char *want, const char *id)
{
	if (strcmp(want, id) == 0)
		return 1;
	long a, b;
	return report_parse_long(want, 0, 1000000, &a) == 0 && report_parse_long(id, 0, 1000000, &b) == 0 &&
	       a == b;
}

double published_runs(json_t *pub)
{
	json_t *pr = json_object_get(pub, "published_runs");
	return json_is_integer(pr) && json_integer_value(pr) >= 1 ? (double)json_integer_value(pr) : 1;
}

double published_table_runs(json_t *pub, json_t *table)
{
	json_t *tr = json_object_get(table, "published_runs");
	return json_is_integer(tr) && json_integer_value(tr) >= 1 ? (double)json_integer_value(tr) : published_runs(pub);
}

int published_row_spread(json_t *row, const char *kernel, const char *metric, double *lo, double *hi)
{
	json_t *v = json_object_get(json_object_get(row, "spread"), kernel);
	if (json_is_object(v))
		v = json_object_get(v, metric);
	if (json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) || !json_is_number(json_array_get(v, 1)))
		return -1;
	*lo = json_number_value(json_array_get(v, 0));
	*hi = json_number_value(json_array_get(v, 1));
	return 0;
}

/* "mean of 3 runs" / "one run" (or "runs not stated") and whether @rows have spreads. */
static void noise_of(char **s, size_t *len, const char *name, json_t *runs, json_t *rows)
{
	int spreads = 0;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
		spreads |= json_object_get(row, "spread") != NULL;
	report_str_append(s, len, "%s%s%s", *len ? "; " : "", name ? name : "", name ? ": " : "");
	if (json_is_integer(runs))
		report_str_append(s, len, "mean of %lld run%s", (long long)json_integer_value(runs),
				  json_integer_value(runs) == 1 ? "" : "s");
	else
		report_str_append(s, len, "runs per number not stated (taken as one)");
	report_str_append(s, len, ", %s", spreads ? "spreads (lo, hi) given" : "no spread given");
}

char *published_noise_text(json_t *pub)
{
	char *s = NULL;
	size_t len = 0;
	json_t *t = json_object_get(pub, "table");
	if (t) {
		noise_of(&s, &len, NULL, json_object_get(pub, "published_runs"), json_object_get(t, "rows"));
	} else {
		size_t i;
		json_t *tb;
		json_array_foreach(json_object_get(pub, "tables"), i, tb) {
			json_t *runs = json_object_get(tb, "published_runs");
			noise_of(&s, &len, json_string_value(json_object_get(tb, "id")), runs ? runs : json_object_get(pub, "published_runs"),
				 json_object_get(tb, "rows"));
		}
	}
	return s ? s : strdup("");
}

int published_cell(json_t *pub, const char *kernel, json_t *pt, double *out)
{
	json_t *t = json_object_get(pub, "table");
	size_t ci, ri;
	json_t *col, *row;
	json_array_foreach(json_object_get(t, "columns"), ci, col) {
		if (strcmp(json_string_value(col), kernel))
			continue;
		json_array_foreach(json_object_get(t, "rows"), ri, row) {
			if (!json_equal(json_object_get(row, "point"), pt))
				continue;
			json_t *v = json_array_get(json_object_get(row, "values"), ci);
			if (!json_is_number(v))
				return -1;
			*out = json_number_value(v);
			return 0;
		}
	}
	return -1;
}

json_t *published_table(json_t *pub, const char *id)
{
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(pub, "tables"), i, t) {
		const char *tid = json_string_value(json_object_get(t, "id"));
		if (tid && id && !strcmp(tid, id))
			return t;
	}
	return NULL;
}

/* What published_row_value() looks a name up in. */
struct row_ref {
	json_t *table, *row;
	const char *kernel;
};

/* published_row_value() without derived names. */
static int row_value_plain(const void *ctx, const char *metric, double *out)
{
	const struct row_ref *r = ctx;
	json_t *v = json_object_get(json_object_get(r->row, "values"), r->kernel);
	const char *tm = json_string_value(json_object_get(r->table, "metric"));
	if (json_is_object(v))
		v = json_object_get(v, metric);
	else if (tm && strcmp(tm, metric))
		v = NULL;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

int published_row_value(json_t *table, json_t *row, const char *kernel, const char *metric, double *out)
{
	struct row_ref r = { table, row, kernel };
	return report_derived(metric, row_value_plain, &r, out);
}
