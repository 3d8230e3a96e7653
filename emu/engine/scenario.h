/*
 * scenario.h - scenario files: load, validate, expand the sweep.
 *
 * A scenario is {name, description?, machine, kernels, workload, sweep?, runs?,
 * seed?, engine?}.  Expansion yields one spec per (kernel, sweep point, run), in
 * that nesting order (kernels in file order, sweep points as the cartesian
 * product with the first sweep key varying slowest, then runs).  Every spec is
 * validated with the same loaders a run uses, so `validate` and `run` agree.
 */
#ifndef MMEMU_SCENARIO_H
#define MMEMU_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"

struct scenario_sim {
	const char *kernel;   /* points into root */
	json_t *point;        /* {"sweep.key": value, ...} */
	int point_index;
	int run;
	json_t *spec;         /* materialised: kernel, seed, run, machine, kernel_cfg, workload, engine */
};

struct scenario {
	char *file;
	json_t *root;
	const char *name;
	char hash[17];        /* FNV-1a 64 of the canonical (sorted, compact) JSON */
	char inputs[17];      /* digest of every input file validation read (traces, workfiles) */
	int64_t runs;
	int64_t seed;
	int nkernels, npoints;
	int nsims;
	struct scenario_sim *sims;
};

/**
 * scenario_load() - read, validate and expand @file.
 * Returns: 0, or -1 with @e holding one line "FILE: PATH: what was expected".
 */
int scenario_load(struct scenario *sc, const char *file, struct mm_err *e);

/**
 * scenario_load_set() - scenario_load() with the command line's overrides @set
 * ({"workload.duration": "20s", "runs": 1}; NULL: none) applied to the file's
 * JSON before it is validated, so they are checked like the file's own values
 * and enter the scenario's hash (a resumed sweep never mixes them up).
 * Returns: 0, or -1 with @e set ("--set: PATH: ..." for a path that is not one).
 */
int scenario_load_set(struct scenario *sc, const char *file, json_t *set, struct mm_err *e);

/**
 * scenario_reseed() - give every simulation of @sc the base seed @seed (as if the
 * file said "seed": @seed; the hash changes with it).  The runs of two base seeds
 * differ in every random draw.  Returns: 0, or -1 (negative seed, out of memory).
 */
int scenario_reseed(struct scenario *sc, int64_t seed);

/**
 * scenario_parse() - scenario_load() of a scenario already in memory (the fuzz
 * target's entry point; validate and run read files).
 * @buf: the JSON text; only its @len bytes are read (it need not be NUL-terminated)
 * @file: the name used in messages, and the file whose directory the scenario's
 *        relative input files (workload.file, workload.workfile) are found in
 * Returns: 0, or -1 with @e set, exactly as scenario_load() of a file holding @buf.
 */
int scenario_parse(struct scenario *sc, const char *buf, size_t len, const char *file,
		   struct mm_err *e);

/** scenario_parse_set() - scenario_parse() with overrides @set applied as
 * scenario_load_set() applies them (NULL: none). Returns: as scenario_parse(). */
int scenario_parse_set(struct scenario *sc, const char *buf, size_t len, const char *file,
		       json_t *set, struct mm_err *e);

/** scenario_free() - release everything scenario_load() allocated. */
void scenario_free(struct scenario *sc);


#endif
