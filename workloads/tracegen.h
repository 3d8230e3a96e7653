/*
 * tracegen.h - synthetic page reference traces (zipf, two-region, loop).
 */
#ifndef MMEMU_TRACEGEN_H
#define MMEMU_TRACEGEN_H

#include <stdint.h>
#include <stdio.h>

#include "emu/core/err.h"
#include "emu/core/rng.h"

enum tracegen_kind {
	TRACEGEN_ZIPF,       /* page k-1 with probability ~ 1/k^alpha (page 0 hottest) */
	TRACEGEN_TWOREGION,  /* hot_prob: uniform over the first hot_frac of pages, else the rest */
	TRACEGEN_LOOP,       /* 0, 1, ..., pages-1, 0, 1, ... */
};

struct tracegen_cfg {
	enum tracegen_kind kind;
	uint64_t refs;       /* references to generate */
	uint64_t pages;      /* page ids are 0..pages-1 (1..2^32-1) */
	double alpha;        /* zipf exponent (>= 0; 0 is uniform) */
	double hot_frac;     /* tworegion: fraction of pages that are hot, (0, 1] */
	double hot_prob;     /* tworegion: probability a reference goes to the hot region */
	uint64_t seed;
};

/* Generator state: call tracegen_init() then tracegen_next() refs times. */
struct tracegen {
	struct tracegen_cfg c;
	struct mm_rng rng;
	uint64_t i;
	uint64_t hot;                         /* tworegion: hot pages */
	double s, hx1, hxn, sdiv;             /* zipf rejection-inversion constants */
};

/** tracegen_defaults() - Returns: a config with the documented defaults (zipf, alpha 0.9, seed 1). */
struct tracegen_cfg tracegen_defaults(void);

/** tracegen_kind_parse() - Returns: 0 with *@out set for "zipf|tworegion|loop", else -1. */
int tracegen_kind_parse(const char *name, enum tracegen_kind *out);

/**
 * tracegen_init() - check @c and seed a generator (mm_rng_seed(seed, 0, "tracegen")).
 * Returns: 0, or -1 with @e set (out-of-range parameter, named as its option).
 */
int tracegen_init(struct tracegen *g, const struct tracegen_cfg *c, struct mm_err *e);

/** tracegen_next() - Returns: the next page id. */
uint32_t tracegen_next(struct tracegen *g);

/**
 * tracegen_fill() - generate c->refs references into @out (c->refs entries).
 * Returns: 0, or -1 with @e set.
 */
int tracegen_fill(const struct tracegen_cfg *c, uint32_t *out, struct mm_err *e);

/**
 * tracegen_write() - write c->refs references to @f, one decimal page per line.
 * @name: the output's name, for messages
 * Returns: 0, or -1 with @e set (bad config or write error).
 */
int tracegen_write(const struct tracegen_cfg *c, FILE *f, const char *name, struct mm_err *e);

#endif
