/*
 * emulated.h - the emulated side of a seed as its claims see it: the runs of a
 * results file, selected by kernel (through the published "kernel_map"), sweep
 * point and group, and the numbers taken out of them.
 */
#ifndef MMEMU_EMULATED_H
#define MMEMU_EMULATED_H

#include <stddef.h>

#include <jansson.h>

#include "emu/analysis/report.h"
#include "emu/analysis/stats.h"

/**
 * struct claim_ctx - what a claim is judged against.
 * @pub:       the published file
 * @runs:      the emulated runs (the "runs" array of a results file)
 * @point_key: the single-table form's sweep key; NULL in the several-tables form,
 *             where a run matches a point when its point has every key of it
 * @metric:    the single-table form's metric (NULL in the several-tables form)
 * @higher:    1 when higher values of @metric are better
 * @group:     the values of the sweep axes the publication lacks ({} when none)
 * @pub_runs:  runs behind each published number ("published_runs", default 1)
 */
struct claim_ctx {
	json_t *pub;
	json_t *runs;
	const char *point_key;
	const char *metric;
	int higher;
	json_t *group;
	double pub_runs;
};

/**
 * emulated_run_in() - is run @r one of published kernel @kernel's in the current
 * group, at point_key = @pt (any point when @pt is NULL)?  Single-table form.
 * Returns: 1 or 0.
 */
int emulated_run_in(const struct claim_ctx *c, json_t *r, const char *kernel, json_t *pt);

/**
 * emulated_samples() - the values of @metric for published kernel @kernel at @pt,
 * one per run, in run order.
 * Returns: the number of values in *@out (malloc'ed, freed by the caller; NULL
 * when 0), or 0 when there is no run or a run lacks the metric.
 */
size_t emulated_samples(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			double **out);

/**
 * emulated_keyed_samples() - emulated_samples() with each run's base seed and
 * run index in *@keys (malloc'ed; NULL when a run lacks them).
 * Returns: the number of values, as emulated_samples().
 */
size_t emulated_keyed_samples(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric,
			      double **out, struct report_key **keys);

/**
 * emulated_pair_samples() - the samples of baseline @b (*@xb, *@nb) and kernel
 * @k (*@xk, *@nk) at @pt, as emulated_samples(); when every run of one has the
 * same base seed and run index as exactly one run of the other, *@xk is
 * reordered so that (*@xb)[i] and (*@xk)[i] are such partners.
 * Returns: 1 when paired, 0 otherwise.
 */
int emulated_pair_samples(const struct claim_ctx *c, const char *b, const char *k, json_t *pt, const char *metric,
			  double **xb, size_t *nb, double **xk, size_t *nk);

/**
 * emulated_mean() - the mean over runs of emulated_samples().
 * Returns: 0 with *@out set, or -1 when the values are missing.
 */
int emulated_mean(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric, double *out);

/**
 * emulated_diff_ci() - the confidence interval at @level of kernel @k's
 * difference from baseline @b at @pt (k - b, or k/b - 1 when @relative), from
 * their runs' values of @metric (stats_diff_ci(); paired when
 * emulated_pair_samples() pairs them, independent samples otherwise).
 * Returns: 0, or -1 when a side has fewer than two runs (or lacks the metric).
 */
int emulated_diff_ci(const struct claim_ctx *c, const char *b, const char *k, json_t *pt, const char *metric,
		     int relative, double level, struct stats_ci *ci);

/** emulated_ci_json() - Returns: {"level", "estimate", "lo", "hi", "se", "df", "test"} of @ci. */
json_t *emulated_ci_json(const struct stats_ci *ci, double level);

/** emulated_summary_json() - Returns: {"n", "mean", "stddev", "min", "max"} of @s (stddev null below two runs). */
json_t *emulated_summary_json(const struct stats_summary *s);

/** emulated_runs_json() - Returns: emulated_summary_json() of (@kernel, @pt, @metric), or JSON null. */
json_t *emulated_runs_json(const struct claim_ctx *c, const char *kernel, json_t *pt, const char *metric);

#endif
