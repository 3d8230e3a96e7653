/*
 * emulated.c - selecting emulated runs and reading their numbers (emulated.h).
 *
 * Design: one selection, select_runs(), serves both published forms; the
 * mean, the run statistics and the noise comparisons (noise.c) are all computed
 * from it, so a claim's value and its spread always come from the same runs.  In
 * the several-tables form the metric "elapsed_s" falls back to the run's primary
 * metric (kernbench's primary is "elapsed").  Runs of two kernels are paired when
 * they have the same base seed and run index (report_pair()): the engine gives
 * such runs the same random draws, so their difference is measured run by run.
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

/* The values of @metric for @kernel at @pt, and (when @keys) each run's key. */
static size_t select_runs(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			  double **out, struct report_key **keys)
{
	size_t i, n = 0;
	json_t *r;
	double *x = malloc((json_array_size(c->runs) + 1) * sizeof *x);
	struct report_key *kv = keys ? malloc((json_array_size(c->runs) + 1) * sizeof *kv) : NULL;
	int have_keys = kv != NULL;
	*out = NULL;
	if (keys)
		*keys = NULL;
	if (!x)
		goto missing;
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
		if (kv && report_run_key(r, &kv[n]))
			have_keys = 0;
		x[n++] = v;
	}
	if (!n)
		goto missing;
	*out = x;
	if (keys && have_keys)
		*keys = kv;
	else
		free(kv);
	return n;
missing:
	free(x);
	free(kv);
	return 0;
}

size_t emulated_keyed_samples(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			      double **out, struct report_key **keys)
{
	return select_runs(c, kernel, pt, metric, out, keys);
}

size_t emulated_samples(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			double **out)
{
	return select_runs(c, kernel, pt, metric, out, NULL);
}

int emulated_pair_samples(const struct claim_ctx *c, const char *b, const char *k, json_t *pt, const char *metric,
			  double **xb, size_t *nb, double **xk, size_t *nk)
{
	struct report_key *kb, *kk;
	*nb = select_runs(c, b, pt, metric, xb, &kb);
	*nk = select_runs(c, k, pt, metric, xk, &kk);
	int paired = *nb && *nk && report_pair(kb, *nb, kk, *xk, *nk);
	free(kb);
	free(kk);
	return paired;
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
	size_t nb, nk;
	int paired = emulated_pair_samples(c, b, k, pt, metric, &xb, &nb, &xk, &nk);
	int rc = nb && nk ? stats_diff_ci(xb, nb, xk, nk, relative, paired, level, ci) : -1;
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
