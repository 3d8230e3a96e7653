/*
 * sim.h - the simulation context: what models and workloads see of one
 * simulation (a kernel, sweep point and run of a scenario).
 *
 * This is the narrow interface between the engine (emu/engine, which builds and
 * runs a simulation) and the models: the run's identity (file, kernel, seed, run
 * index), the machine and kernel sections, the disks, the event counters, the
 * actors' wake times, a factory for the kernel's policy modules, and the sinks for
 * metrics and series.  Model types appear only as incomplete types, so emu/core
 * includes nothing from models/ or workloads/ and the folders stay acyclic; the
 * engine owns the storage the pointers refer to (emu/engine/engine.h).
 */
#ifndef MMEMU_SIM_H
#define MMEMU_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/tmworld.h"

struct machine_cfg;
struct workload_ops;
struct disk;
struct mm_vmstat;
struct alloc;
struct reclaim;
struct kmap;
struct coloring;
struct mm_kernel;
struct mm_phys;

/* engine.* parameters of a scenario (the table is emu/engine/engine.c's). */
struct engine_cfg {
	double quantum;       /* seconds of simulated time between forced payments */
	double max_time;      /* simulated seconds after which the run is stopped (0 = none) */
	bool lookahead;       /* timemodel.h lookahead on (else every observation pays) */
	double slack;         /* seconds an actor may run ahead of the others (0: exact) */
};

struct sim;

/*
 * The kernel's policy modules, built by the engine from the kernel section
 * ("reclaim", "alloc", "kmap", "coloring") when the kernel asks for them: the
 * kernel knows when (after its frames exist), the engine knows which.  Each
 * returns the module instance, or NULL with @e naming the file and JSON path.
 */
struct sim_factory {
	struct alloc *(*alloc)(struct sim *s, struct mm_phys *phys, struct mm_err *e);
	struct reclaim *(*reclaim)(struct sim *s, uint32_t nframes, struct mm_err *e);
	struct kmap *(*kmap)(struct sim *s, struct mm_kernel *k, struct mm_err *e);
	struct coloring *(*coloring)(struct sim *s, uint32_t ncolors, struct mm_err *e);
};

struct sim {
	const char *file;             /* scenario file, for messages */
	json_t *spec;                 /* {"kernel": name, "machine", "kernel_cfg", "workload", ...} */
	const char *kernel_name;
	uint64_t seed;
	int run;
	struct machine_cfg *machine;  /* effective machine (variation applied) */
	struct engine_cfg engine;
	json_t *kernel;               /* the kernel's section (module choices and params) */
	const struct sim_factory *make;
	const struct workload_ops *wl;
	void *wl_cfg;
	struct mm_kernel *boot;       /* the kernel booted for this run, shared by a chain's steps (mm_kernel_boot) */
	int step;                     /* the running step of a chained run (0: the first, or no chain) */
	void *wl_state;               /* the workload's run-time state (owned by the workload) */
	struct disk **disks;          /* ndisks running disks (sim_disk) */
	int ndisks;
	int *cpu_actors;              /* actors bound to each CPU (emu/core/timemodel.h) */
	struct tm_world world;        /* the actors' wake times (lookahead, emu/core/timemodel.h) */
	struct mm_vmstat *vs;         /* the run's event counters */
	/* outputs */
	double primary;
	json_t *metrics;              /* object: name -> number */
	json_t *series;               /* object: name -> {"t": [...], "v": [...]} */
	json_t *effective;            /* effective parameters (machine, kernel, workload) */
	double sim_time;
	char *invariant_error;        /* the invariant checker's first violation, or NULL */
};

/** sim_metric() - set metric @name to @v in the run's results. Returns: nothing. */
void sim_metric(struct sim *s, const char *name, double v);

/**
 * sim_invariants() - record the invariant checker's verdict of a run that asked for
 * it (workload `check`): metric invariants_ok (1 or 0) and, when @violation is not
 * NULL, its one-line message as the run's "invariant_error", which `mmemu run
 * --check` prints.  Returns: nothing.
 */
void sim_invariants(struct sim *s, const char *violation);

/** sim_series_add() - append the point (@t, @v) to series @name. Returns: nothing. */
void sim_series_add(struct sim *s, const char *name, double t, double v);

/** sim_disk() - Returns: the running disk @i of the machine, or NULL. */
struct disk *sim_disk(struct sim *s, int i);

#endif
