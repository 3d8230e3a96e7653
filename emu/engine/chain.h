/*
 * chain.h - a chained run: the scenario's "steps" (workload sections, or
 * overrides of the workload section) run in order on one simulated boot, each
 * step's results reported on their own (emu/engine/chain.c).
 */
#ifndef MMEMU_CHAIN_H
#define MMEMU_CHAIN_H

#include <jansson.h>

#include "emu/core/err.h"

struct sim_state;

/* The most steps a chain may have. */
#define CHAIN_MAX_STEPS 100

/**
 * chain_load() - load the materialised steps of @spec ("steps": full workload
 * sections; "step_points") into @st, after sim_prepare() loaded the workload
 * section; a spec without steps is no chain.
 * Returns: 0, or -1 with @e naming steps[I].PATH (a bad parameter, or a workload
 * that cannot run as a step).
 */
int chain_load(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e);

/** chain_start() - create the chain actor that runs the steps. Returns: 0. */
int chain_start(struct sim_state *st, struct mm_err *e);

/**
 * chain_complete() - after the simulation: finish a step that engine.max_time
 * stopped, set the run's vmstat to the steps' sum and put "steps" (each step's
 * step, point, primary, metrics, vmstat, series, sim_time [start, end] and
 * workload) into @res.
 * Returns: 0, or -1 with @e set when a step failed to start.
 */
int chain_complete(struct sim_state *st, json_t *res, struct mm_err *e);

/** chain_free() - release what chain_load() and the run allocated. Returns: nothing. */
void chain_free(struct sim_state *st);

/**
 * chain_step_points() - each step's part of its point: "workload.KEY": value for
 * every KEY (but "type") that every step of @steps (the scenario's raw steps) sets;
 * when the steps run different workloads (@merged: each step's full section),
 * also "workload.type" and the keys whose values differ between the steps of
 * one type.
 * Returns: a new array of one object per step.
 */
json_t *chain_step_points(json_t *steps, json_t *merged);

#endif
