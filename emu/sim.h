/*
 * sim.h - one simulation: a (kernel, sweep point, run) of a scenario.
 *
 * A simulation runs in its own process (SimGrid's engine is a process-wide
 * singleton), from a "spec": the materialised JSON of the machine, the kernel and
 * the workload after the sweep point was applied.  The spec is re-validated with
 * the same loaders as `mmemu validate`, so there is one parsing path.
 * Workloads and models reach everything through struct sim.
 */
#ifndef MMEMU_SIM_H
#define MMEMU_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/err.h"
#include "emu/tmworld.h"
#include "models/machine.h"
#include "models/vmstat.h"
#include "workloads/workload.h"

struct disk;

struct engine_cfg {
	double quantum;       /* seconds of simulated time between forced payments */
	double max_time;      /* simulated seconds after which the run is stopped (0 = none) */
	bool lookahead;       /* timemodel.h lookahead on (else every observation pays) */
};

extern const struct mm_param engine_params[];

struct sim {
	const char *file;             /* scenario file, for messages */
	json_t *spec;                 /* {"kernel": name, "machine", "kernel_cfg", "workload", ...} */
	const char *kernel_name;
	uint64_t seed;
	int run;

	struct machine_cfg machine;
	struct engine_cfg engine;
	json_t *kernel;               /* the kernel's section (module choices and params) */
	const struct workload_ops *wl;
	void *wl_cfg;
	void *wl_state;               /* the workload's run-time state (owned by the workload) */

	struct disk *disks[MACHINE_MAX_DISKS];
	int cpu_actors[MACHINE_MAX_CPUS];   /* actors bound to each CPU (emu/timemodel.h) */
	struct tm_world world;        /* the actors' wake times (lookahead, emu/timemodel.h) */
	struct mm_vmstat vs;

	/* outputs */
	double primary;
	json_t *metrics;              /* object: name -> number */
	json_t *series;               /* object: name -> {"t": [...], "v": [...]} */
	json_t *effective;            /* effective parameters (machine, kernel, workload) */
	double sim_time;
};

/** sim_metric() - set metric @name to @v in the run's results. */
void sim_metric(struct sim *s, const char *name, double v);

/** sim_series_add() - append the point (@t, @v) to series @name. */
void sim_series_add(struct sim *s, const char *name, double t, double v);

/**
 * sim_prepare() - load a spec into @s (machine, engine, kernel, workload).
 * Used by validation (no SimGrid) and by sim_run.
 * Returns: 0, or -1 with @e naming the file and JSON path.
 */
int sim_prepare(struct sim *s, json_t *spec, const char *file, struct mm_err *e);

/** sim_release() - free what sim_prepare and a run allocated. */
void sim_release(struct sim *s);

/**
 * sim_run() - run one simulation in the calling process (which must not have run
 * SimGrid before).
 * Returns: a new JSON object with the run's results (primary, metrics, vmstat,
 * series, sim_time, params), or NULL with @e set.
 */
json_t *sim_run(json_t *spec, const char *file, struct mm_err *e);

struct reclaim;
/**
 * sim_reclaim_create() - instantiate the kernel's reclaim module for @nframes frames,
 * counting its calls into s->vs.
 * Returns: the instance, or NULL with @e set.
 */
struct reclaim *sim_reclaim_create(struct sim *s, uint32_t nframes, struct mm_err *e);

struct alloc;
struct kmap;
struct coloring;
struct mm_kernel;
struct mm_phys;
/** sim_kmap_create() - Returns: the kernel's kmap module bound to @k, or NULL with @e set. */
struct kmap *sim_kmap_create(struct sim *s, struct mm_kernel *k, struct mm_err *e);
/** sim_coloring_create() - Returns: the kernel's colouring module, or NULL with @e set. */
struct coloring *sim_coloring_create(struct sim *s, uint32_t ncolors, struct mm_err *e);
struct mm_kernel_cfg;
/** sim_alloc_create() - Returns: the kernel's allocator attached to @phys, or NULL with @e set. */
struct alloc *sim_alloc_create(struct sim *s, struct mm_phys *phys, struct mm_err *e);

/** mm_kernel_load_cfg() - load kernel section @k's "vm" knobs. Returns: 0 or -1 with @e set. */
int mm_kernel_load_cfg(struct mm_kernel_cfg *c, json_t *k, const char *file, const char *path,
		       struct mm_err *e);

/** sim_simgrid_init() - start SimGrid silently (once per process). */
void sim_simgrid_init(void);

/**
 * sim_write_platform() - write the SimGrid platform XML of machine @m to a new
 * temporary file (hosts cpu0..cpuN-1 at the clock rate, host "io" with the disks).
 * @path: receives the file name (the caller loads and unlinks it)
 * Returns: 0, or -1 if the file cannot be written.
 */
int sim_write_platform(const struct machine_cfg *m, char *path, size_t len);

struct sched_cfg;
/**
 * sim_sched_variation() - set @c->tick_phase to this run's balancer-tick phase
 * (machine.variation.sched; 0 when not declared, which keeps the fixed tick).
 * Call after sched_cfg_default() and before sched_init().
 * Returns: nothing.
 */
void sim_sched_variation(const struct sim *s, struct sched_cfg *c);

/** sim_disk() - Returns: the running disk @i of the machine, or NULL. */
struct disk *sim_disk(struct sim *s, int i);

#endif
