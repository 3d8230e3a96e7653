/*
 * reproduce.h - what `mmemu reproduce` (cmd_reproduce.c) shares with its
 * sensitivity reruns (reproduce_sens.c): the seeds of one invocation and its
 * options.
 */
#ifndef MMEMU_REPRODUCE_H
#define MMEMU_REPRODUCE_H

#include <jansson.h>

#include "emu/engine/scenario.h"

/* The longest --published, --runs or --out folder: its names below must fit. */
#define REPRODUCE_DIR_MAX 800

/* One scenario of a seed (a seed of several scenarios has one per part). */
struct seed {
	char path[1100];
	json_t *pub;
	const char *id;
	const char *scenario;
	struct scenario sc;
	int loaded;
	json_t *res;          /* emulated results */
	char status[1024];
	char results_path[1400];
	char note[400];
	int part, nparts;     /* entry @part of the seed's @nparts (scenario parts x base seeds) */
	int rep;              /* the base seed is the scenario's + @rep (--seeds) */
	int merged;           /* a later part: its runs were merged into part 0 */
	json_t *own;          /* this part's own runs (before merging; an array) */
	double wall;          /* host seconds of its simulations (the results' host.wall_seconds) */
};

/* The options of one invocation. */
struct opts {
	const char *pubdir, *runsdir, *outdir, *want;
	int jobs, norun, quiet, nseeds, fresh, verbose, sensitivity;
	const char *sens_only;   /* --sensitivity-only PATH: rerun that constant only */
};

/**
 * sens_run() - `reproduce --sensitivity`: rerun each seed of @seeds (@ns
 * entries, parts merged) with each of its scenarios' judgement constants at
 * each end of its range, one at a time, judge the reruns, and record in
 * @o->runsdir/sensitivity.json (the other seeds' records kept) which verdicts
 * of @objs (the seed objects of the base runs, in seed order) flip.  With
 * @o->sens_only, only that constant is rerun and the record keeps the other
 * constants' earlier reruns (when they were made against the same verdicts).
 * Returns: 0, 1 when a rerun failed or the file could not be written, 2 on bad input.
 */
int sens_run(const struct opts *o, struct seed *seeds, int ns, json_t *objs);

/**
 * sens_mark() - mark every claim of the seed objects @objs "robust", "fragile"
 * (with the flips) or "untested", from @o->runsdir/sensitivity.json, or for a
 * seed it lacks, from the record shipped beside @o->pubdir (its parent
 * folder's sensitivity.json: results/sensitivity.json); attach
 * each seed's record ("sensitivity") and count the marks into its summary.
 * Returns: nothing (a missing or unreadable file leaves every claim untested).
 */
void sens_mark(const struct opts *o, json_t *objs);

#endif
