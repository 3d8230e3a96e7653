/*
 * verdict.h - one seed's published-vs-emulated report: the model every printer
 * (text, markdown) and results/reproduce.json are made from.
 */
#ifndef MMEMU_VERDICT_H
#define MMEMU_VERDICT_H

#include <stdio.h>

#include <jansson.h>

/**
 * struct verdict_seed_in - what is known of one seed.
 * @pub:          the published file (published_load())
 * @id:           its "seed"
 * @status:       how the emulated side was obtained ("ran 30 simulations", ...)
 * @note:         a remark to show ("" for none)
 * @res:          the emulated results (the runs of every part), or NULL
 * @results_path: where @res lives
 * @run_failed:   @res holds the partial runs of a failed sweep
 * @model_noise:  the run-to-run noise sources the scenarios model (an array of
 *                strings, from their machine.variation), or NULL
 */
struct verdict_seed_in {
	json_t *pub;
	const char *id;
	const char *status;
	const char *note;
	json_t *res;
	const char *results_path;
	int run_failed;
	json_t *model_noise;
};

/**
 * verdict_seed() - judge every claim of a seed.  The single-table form gets one
 * emulated table and one set of verdicts per group of runs (the values of the
 * sweep axes the publication lacks); the several-tables form one set of verdicts.
 * Returns: the seed's JSON object (seed, status, the published fields, tables,
 * claims, noise, summary).
 */
json_t *verdict_seed(const struct verdict_seed_in *in);

/**
 * verdict_print_header() - the title and legend of results/reproduce.md.
 * Returns: nothing.
 */
void verdict_print_header(FILE *f);

/**
 * verdict_print() - print seed object @o (verdict_seed() of published file @pub)
 * to @f as text (@md 0) or as a markdown section (@md 1): the stock kernel's
 * level, one line per claim (verdict, basis, emulated value with its interval,
 * published value, robustness), the sensitivity table, then (@verbose, and
 * always in markdown) the tables, each claim's detail and noise, and the counts.
 * Returns: nothing.
 */
void verdict_print(json_t *pub, json_t *o, FILE *f, int md, int verbose);

/**
 * verdict_totals() - the cross-seed table of the seed objects @objs (their
 * summaries after sens_mark()) and the command's @elapsed seconds.
 * Returns: {"seeds": [one row per seed: claims, mechanism_reproduced,
 * by_construction, calibrated, not_reproduced, inconclusive, not_checked,
 * fragile, untested, host_seconds], "all": the sums, with wall_seconds}.
 */
json_t *verdict_totals(json_t *objs, double elapsed);

/** verdict_print_totals() - print verdict_totals() @totals as text or markdown. Returns: nothing. */
void verdict_print_totals(json_t *totals, FILE *f, int md);

#endif
