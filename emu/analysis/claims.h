/*
 * claims.h - judging a published claim against emulated runs.
 *
 * Every claim kind is one evaluator in a registry (claims.c), keyed by the kind's
 * name and the published form it belongs to: the single-table form's kinds live
 * in claims_table.c, the several-tables form's in claims_tables.c.  Adding a kind
 * means writing one claim_judge_fn and adding one registry line.  Evaluators judge
 * only from the published file and the emulated runs: no running, no printing.
 */
#ifndef MMEMU_CLAIMS_H
#define MMEMU_CLAIMS_H

#include <stddef.h>

#include <jansson.h>

#include "emu/analysis/emulated.h"
#include "emu/analysis/noise.h"
#include "emu/analysis/report.h"

/**
 * struct verdict - an evaluator's outcome.
 * @v:      "reproduced", "not reproduced", "inconclusive" or "not checked"
 * @detail: the reason, one "; "-separated fragment per point or row (malloc'ed)
 * @cells:  the published and emulated values the verdict rests on (JSON array)
 * @nz:     the noise account of the claim's two-kernel comparisons
 */
struct verdict {
	const char *v;
	char *detail;
	size_t dlen;
	json_t *cells;
	struct noise nz;
};

/* Append printf output to a verdict's detail. */
#define VERDICT_DETAIL(vd, ...) report_str_append(&(vd)->detail, &(vd)->dlen, __VA_ARGS__)

/*
 * The outcome of a claim at one point, row or run, ordered so that a claim's
 * outcome is the smallest of its points': any "not reproduced" decides, then any
 * "inconclusive".
 */
enum claim_outcome { CLAIM_NO = -1, CLAIM_UNSURE = 0, CLAIM_YES = 1 };

/* The confidence level of every interval a verdict rests on. */
#define CLAIM_LEVEL 0.95

/** claim_outcome_name() - Returns: "reproduced", "not reproduced" or "inconclusive". */
const char *claim_outcome_name(int outcome);

/** claim_outcome_tag() - Returns: "" for CLAIM_YES, @no for CLAIM_NO (" [out of range]"), else " [inconclusive]". */
const char *claim_outcome_tag(int outcome, const char *no);

/**
 * claim_range_outcome() - an interval [@lo, @hi] against the claim's range
 * [@want_lo, @want_hi] (1e-9 slack).  Returns: CLAIM_YES when it lies inside,
 * CLAIM_NO when it lies outside, CLAIM_UNSURE when it overlaps an end.
 */
int claim_range_outcome(double lo, double hi, double want_lo, double want_hi);

/**
 * claim_support_outcome() - @yes of @n runs support a claim.  Returns: CLAIM_YES
 * when all do, CLAIM_NO when none does, CLAIM_UNSURE otherwise (or n == 0).
 */
int claim_support_outcome(size_t yes, size_t n);

/**
 * claim_ci_text() - "95% CI +1.2% .. +3.4%" (@pct: in percent) or "95% CI 0.1 ..
 * 0.3" into @b; an interval of zero width (the runs do not vary) is
 * "deterministic in the model".  Returns: @b.
 */
char *claim_ci_text(char *b, size_t n, const struct stats_ci *ci, double level, int pct);

/**
 * verdict_not_checked() - set @vd to "not checked" with @why as its only detail.
 * Returns: nothing.
 */
void verdict_not_checked(struct verdict *vd, const char *why);

/**
 * claim_judge_fn - one claim kind's evaluator: judge @claim against @c and fill
 * @vd (its verdict, detail, cells and noise).  @vd arrives "not checked" with an
 * empty detail.  Returns: nothing.
 */
typedef void claim_judge_fn(const struct claim_ctx *c, json_t *claim, struct verdict *vd);

/** struct claim_kind - a registry line: kind name, published form, evaluator. */
struct claim_kind {
	const char *name;
	int tables;            /* 0: the single-table form, 1: the several-tables form */
	claim_judge_fn *judge;
};

/* claims_table.c: the single-table form (c->point_key set) */
claim_judge_fn claim_direction, claim_shape, claim_value, claim_relative, claim_series_varies;
/* claims_tables.c: the several-tables form (rows with a "point") */
claim_judge_fn claim_rows_relative, claim_rows_flat, claim_rows_difference;
/* claims_rank.c: rank, within, value, spread and stays (seeds 003, 004) */
claim_judge_fn claim_rows_rank, claim_rows_within, claim_rows_value, claim_rows_spread, claim_rows_stays;

/**
 * claim_table_cell() - a cell of the single-table form's table: @kernel's
 * published and emulated (mean over runs) metric at @pt, the relative error
 * emulated/published - 1 and the run statistics.
 * Returns: a new JSON object (missing numbers are null).
 */
json_t *claim_table_cell(const struct claim_ctx *c, const char *kernel, json_t *pt);

/**
 * claim_points() - the single-table form's points of @claim named by @key: a list
 * as given, or "all"/absent: every published row's point.
 * Returns: a new reference to an array.
 */
json_t *claim_points(const struct claim_ctx *c, json_t *claim, const char *key);

/**
 * claim_table_rows() - the rows of @table a several-tables claim @cl names:
 * "row", "rows", or every row of the table.
 * Returns: a new array, or NULL with *@missing the name of a row @table lacks.
 */
json_t *claim_table_rows(json_t *table, json_t *cl, const char **missing);

/**
 * claim_rank_entry() - entry @e of a rank claim's order: a kernel name, or
 * {"kernel", "point"}; *@pt is its point (default @rowpt).
 * Returns: the kernel name, or NULL.
 */
const char *claim_rank_entry(json_t *e, json_t *rowpt, json_t **pt);

/**
 * claim_kind_find() - the registry line of kind @name in the single-table form
 * (@tables 0) or the several-tables form (@tables 1).  Returns: it, or NULL.
 */
const struct claim_kind *claim_kind_find(const char *name, int tables);

/**
 * claim_judge() - judge published claim @claim with its kind's evaluator (an
 * unknown kind is "not checked").  The form is the context's: several tables
 * when c->point_key is NULL.
 * Runs of several base seeds: the claim is also judged on each seed's runs
 * ("base_seeds": {seed: verdict}); reproduced with one and not reproduced with
 * another (or pooled) makes it "inconclusive" ("verdict flips between base seeds").
 * Returns: the claim's JSON object: id, kind, text, verdict, detail, cells,
 * base_seeds (several seeds), and noise and noise_summary when it has two-kernel
 * comparisons.
 */
json_t *claim_judge(const struct claim_ctx *c, json_t *claim);

#endif
