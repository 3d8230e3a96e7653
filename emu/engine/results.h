/*
 * results.h - the results file (format "mmemu-results/1", docs/results.md).
 *
 * Everything but the "host" section is a function of the scenario and the tool
 * version, so two runs of one scenario give byte-identical files apart from "host".
 * Files are written to a temporary name beside the target and renamed.
 */
#ifndef MMEMU_RESULTS_H
#define MMEMU_RESULTS_H

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/output.h"
#include "emu/engine/scenario.h"

/** results_new() - Returns: a results document with the scenario header and no runs. */
json_t *results_new(const struct scenario *sc);

/**
 * results_add_run() - append simulation @ss's result @simres (reference stolen).
 * A chained run (simres "steps") becomes one entry per step: its point is the
 * sweep point with the step's keys (chain.h), its point_index the point's x steps
 * + the step, and "chain" holds {step, steps, sim_time}.  Returns: nothing.
 */
void results_add_run(json_t *res, const struct scenario_sim *ss, json_t *simres, double wall);

/** results_write() - write @res to @path atomically. Returns: 0 or -1 with @e set. */
int results_write(json_t *res, const char *path, struct mm_err *e);

#endif
