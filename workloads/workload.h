/*
 * workload.h - the workload interface and registry.
 *
 * A workload is a parameter table (its scenario section), a check run at
 * validation time (cross-field rules, input files), and a start() that creates its
 * actors inside a prepared simulation.  When the simulation ends, finish() fills the
 * run's metrics.  Workloads read the machine and kernel through struct sim
 * (emu/core/sim.h) and never parse JSON themselves.
 */
#ifndef MMEMU_WORKLOAD_H
#define MMEMU_WORKLOAD_H

#include <stddef.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"

#define WORKLOAD_OPS_VERSION 1

struct sim;
struct machine_cfg;

struct workload_ops {
	int version;
	const char *name;
	const char *desc;                 /* one line for `mmemu list` */
	const struct mm_param *params;    /* the workload section, minus "type" */
	size_t cfg_size;
	const char *primary;              /* primary metric name */
	const char *unit;                 /* its unit */
	int higher_is_better;
	int kernel;                       /* runs on the mm core (needs kernel-level reclaim) */

	/* ---- version 1 ---- */
	/* cross-field and input checks after params are loaded (optional).
	 * Returns: 0 or -1 with @e naming @path or a line of an input file. */
	int (*check)(void *cfg, const struct machine_cfg *m, const char *file, const char *path,
		     struct mm_err *e);
	/* create the workload's actors in s. Returns: 0 or -1 with @e set. */
	int (*start)(struct sim *s, struct mm_err *e);
	/* after the run: add metrics and series to s (optional). */
	void (*finish)(struct sim *s);
	/* free what check/start allocated in cfg (optional). */
	void (*fini)(void *cfg);
	/* start() takes its kernel from mm_kernel_boot(), so the workload can be one
	 * step of a chained run (scenario "steps", emu/engine/chain.c) */
	int chainable;
};

/** workload_find() - Returns: the workload called @name, or NULL. */
const struct workload_ops *workload_find(const char *name);

/** workload_modules() - Returns: the NULL-terminated registry. */
const struct workload_ops *const *workload_modules(void);

/**
 * workload_load() - load a scenario's workload section ("type" plus parameters).
 * @cfg_out: receives a calloc'ed config of the workload's cfg_size
 * Returns: the workload, or NULL with @e set (unknown type lists the valid ones).
 */
const struct workload_ops *workload_load(json_t *obj, const struct machine_cfg *m,
					 void **cfg_out, const char *file, const char *path,
					 struct mm_err *e);

/** workload_free() - release a config from workload_load(). */
void workload_free(const struct workload_ops *w, void *cfg);

#endif
