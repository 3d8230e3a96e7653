/*
 * engine.h - one simulation: a (kernel, sweep point, run) of a scenario.
 *
 * A simulation runs in its own process (SimGrid's engine is a process-wide
 * singleton), from a "spec": the materialised JSON of the machine, the kernel and
 * the workload after the sweep point was applied.  The spec is re-validated with
 * the same loaders as `mmemu validate`, so there is one parsing path.
 * Models and workloads see the simulation through struct sim (emu/core/sim.h);
 * struct sim_state here holds the storage its pointers refer to, and the engine
 * builds the kernel's policy modules through the factory it installs there.
 */
#ifndef MMEMU_ENGINE_H
#define MMEMU_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/sim.h"
#include "models/hw/machine.h"
#include "models/mm/vmstat.h"
#include "workloads/workload.h"

extern const struct mm_param engine_params[];

/* A simulation and the storage behind its context's pointers. */
struct sim_state {
	struct sim s;
	struct machine_cfg machine;
	struct mm_vmstat vs;
	struct disk *disks[MACHINE_MAX_DISKS];
	int cpu_actors[MACHINE_MAX_CPUS];
	struct chain *chain;          /* the scenario's steps (chain.h); NULL: one workload */
};

/** sim_modules - the engine's module factory (kernel section -> registries). */
extern const struct sim_factory sim_modules;

/**
 * sim_state_bind() - zero @st and point its context at its own storage, with the
 * engine's module factory.  Returns: &@st->s.
 */
struct sim *sim_state_bind(struct sim_state *st);

/**
 * sim_prepare() - load a spec into @st (machine, engine, kernel, workload).
 * Used by validation (no SimGrid) and by sim_run.
 * Returns: 0, or -1 with @e naming the file and JSON path.
 */
int sim_prepare(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e);

/** sim_release() - free what sim_prepare and a run allocated. Returns: nothing. */
void sim_release(struct sim_state *st);

/**
 * sim_run() - run one simulation in the calling process (which must not have run
 * SimGrid before).
 * Returns: a new JSON object with the run's results (primary, metrics, vmstat,
 * series, sim_time, params), or NULL with @e set.
 */
json_t *sim_run(json_t *spec, const char *file, struct mm_err *e);

/**
 * sim_start() - the first half of sim_run(): load @spec into @st, load the SimGrid
 * platform, create the disks and start the workload (which builds its kernel:
 * zones, allocator, reclaim module, kswapd, and its actors).  Split from sim_run()
 * for callers that time or measure the two halves (tests/bench_bigmem.c).
 * Returns: 0, or -1 with @e set and @st released.
 */
int sim_start(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e);

/**
 * sim_complete() - the second half of sim_run(): run the simulation started by
 * sim_start() to its end and finish the workload (or each step of a chain, whose
 * results go in "steps"); sim_release(@st) then frees it.
 * Returns: a new JSON object with the run's results, as sim_run(), or NULL with
 * @e set when a step of a chain failed to start.
 */
json_t *sim_complete(struct sim_state *st, struct mm_err *e);

/** sim_simgrid_init() - start SimGrid silently (once per process). Returns: nothing. */
void sim_simgrid_init(void);

/**
 * sim_write_platform() - write the SimGrid platform XML of machine @m to a new
 * temporary file (hosts cpu0..cpuN-1 at the clock rate, host "io" with the disks).
 * @path: receives the file name (the caller loads and unlinks it)
 * Returns: 0, or -1 if the file cannot be written.
 */
int sim_write_platform(const struct machine_cfg *m, char *path, size_t len);

#endif
