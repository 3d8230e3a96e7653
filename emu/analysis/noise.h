/*
 * noise.h - run-to-run noise of two-kernel comparisons (docs/compare.md,
 * "Noise"): the emulated runs of both kernels, whether they differ
 * significantly, and whether a published difference lies inside the emulated
 * noise.  Reported beside a claim's verdict.
 */
#ifndef MMEMU_NOISE_H
#define MMEMU_NOISE_H

#include <stddef.h>

#include <jansson.h>

#include "emu/analysis/emulated.h"

/** struct noise - one claim's noise account: per-comparison text and counts. */
struct noise {
	char *text;
	size_t len;
	int sig, notsig, sig_cj;          /* emulated kernels differ significantly / not / cannot judge */
	int inside, outside, cj;          /* published difference inside / outside noise / cannot judge */
	json_t *inside_at, *outside_at;   /* labels of the comparisons */
};

/** noise_init() - an empty account. Returns: nothing. */
void noise_init(struct noise *nz);

/**
 * noise_compare() - one two-kernel comparison at @pt, labelled @label: the runs of
 * baseline @b and kernel @k, the paired t-test (runs paired by base seed and run
 * index) or Welch's test (unpaired), and the noise rule for published
 * difference @pd (NAN when there is none), a ratio k/b - 1 when @relative, else
 * k - b.  Appends to @nz (text and counts).
 * Returns: the comparison as a JSON object, or JSON null when the runs are missing.
 */
json_t *noise_compare(const struct claim_ctx *c, struct noise *nz, const char *label, const char *b,
		      const char *k, json_t *pt, const char *metric, int relative, double pd);

/**
 * noise_attach() - move @nz into claim object @o ("noise" text and
 * "noise_summary", when it has comparisons; @o NULL: drop it) and free it.
 * Returns: nothing.
 */
void noise_attach(json_t *o, struct noise *nz);

/**
 * noise_seed() - the seed object @o's "noise": which published differences of
 * its claims (in "claims" and in each of "tables") lie inside the emulated noise,
 * @m the published runs behind each number.  Returns: a new JSON object.
 */
json_t *noise_seed(json_t *o, double m);

#endif
