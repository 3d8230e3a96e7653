/*
 * emulated.c - selecting emulated runs and reading their numbers (emulated.h).
 *
 * Design: one selection, emulated_samples(), serves both published forms; the
 * mean, the run statistics and the noise comparisons (noise.c) are all computed
 * from it, so a claim's value and its spread always come from the same runs.  In
 * the several-tables form the metric "elapsed_s" falls back to the run's primary
 * metric (kernbench's primary is "elapsed").
 */
#include "emu/analysis/emulated.h"

#include <stdlib.h>
#include <string.h>

#include "emu/analysis/report.h"

static const char *map_kernel(const struct claim_ctx *c, const char *k)
{
	const char *m = json_string_value(json_object_get(json_object_get(c->pub, "kernel_map"), k));
	return m ? m : k;
}

int emulated_run_in(const struct claim_ctx *c, json_t *r, const char *kernel, json_t *pt)
{
	if (strcmp(json_string_value(json_object_get(r, "kernel")), map_kernel(c, kernel)))
		return 0;
	json_t *point = json_object_get(r, "point");
	if (pt && !json_equal(json_object_get(point, c->point_key), pt))
		return 0;
	const char *k;
	json_t *v;
	json_object_foreach(c->group, k, v) if (!json_equal(json_object_get(point, k), v)) return 0;
	return 1;
}

/* Does run @r have every key: value of @pt in its point? */
static int run_at(json_t *r, json_t *pt)
{
	json_t *point = json_object_get(r, "point");
	const char *k;
	json_t *v;
	json_object_foreach(pt, k, v) if (!json_equal(json_object_get(point, k), v)) return 0;
	return 1;
}

/* A run's @metric; "elapsed_s" is the primary metric when the run has no metric
 * of that name.  Returns: 0 with *@v set, or -1. */
static int tables_run_value(json_t *r, const char *metric, double *v)
{
	if (report_run_value(r, metric, v) == 0)
		return 0;
	json_t *x = json_object_get(json_object_get(r, "primary"), "value");
	if (!strcmp(metric, "elapsed_s") && json_is_number(x)) {
		*v = json_number_value(x);
		return 0;
	}
	return -1;
}

size_t emulated_samples(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			double **out)
{
	size_t i, n = 0;
	json_t *r;
	double *x = malloc((json_array_size(c->runs) + 1) * sizeof *x);
	*out = NULL;
	if (!x)
		return 0;
	json_array_foreach(c->runs, i, r) {
		double v;
		if (c->point_key) {
			if (!emulated_run_in(c, r, kernel, pt))
				continue;
			if (report_run_value(r, metric, &v))
				goto missing;
		} else {
			if (strcmp(json_string_value(json_object_get(r, "kernel")) ?: "", map_kernel(c, kernel)) ||
			    !run_at(r, pt))
				continue;
			if (tables_run_value(r, metric, &v))
				goto missing;
		}
		x[n++] = v;
	}
	if (!n)
		goto missing;
	*out = x;
	return n;
missing:
	free(x);
	return 0;
}

int emulated_mean(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric, double *out)
{
	double *x;
	size_t n = emulated_samples(c, kernel, pt, metric, &x);
	if (!n)
		return -1;
	*out = stats_amean(x, n);
	free(x);
	return 0;
}

int emulated_diff_ci(const struct claim_ctx *c, const char *b, const char *k, json_t *pt, const char *metric,
		     int relative, double level, struct stats_ci *ci)
{
	double *xb, *xk;
	size_t nb = emulated_samples(c, b, pt, metric, &xb), nk = emulated_samples(c, k, pt, metric, &xk);
	int rc = nb && nk ? stats_diff_ci(xb, nb, xk, nk, relative, 0, level, ci) : -1;
	free(xb);
	free(xk);
	return rc;
}

json_t *emulated_ci_json(const struct stats_ci *ci, double level)
{
	return json_pack("{s:f,s:o,s:o,s:o,s:o,s:o,s:s}", "level", level, "estimate", report_num(ci->est), "lo",
			 report_num(ci->lo), "hi", report_num(ci->hi), "se", report_num(ci->se), "df",
			 report_num(ci->df), "test", ci->paired ? "paired" : "welch");
}

json_t *emulated_summary_json(const struct stats_summary *s)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o}", "n", (json_int_t)s->n, "mean", report_num(s->mean), "stddev",
			 s->n >= 2 ? report_num(s->sd) : json_null(), "min", report_num(s->min), "max",
			 report_num(s->max));
}

json_t *emulated_runs_json(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric)
{
	double *x;
	size_t n = emulated_samples(c, kernel, pt, metric, &x);
	struct stats_summary st;
	json_t *o = n && stats_summarize(x, n, &st) == 0 ? emulated_summary_json(&st) : json_null();
	free(x);
	return o;
}
