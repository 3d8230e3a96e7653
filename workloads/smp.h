/*
 * smp.h - what the workloads that run tasks on the SMP scheduler share (kernbench,
 * reaim): the kernel and scheduler set-up, placing a new task on the least loaded
 * CPU, starting its actor, and the end-of-run metrics of the scheduler and locks.
 */
#ifndef MMEMU_WL_SMP_H
#define MMEMU_WL_SMP_H

#include <stdbool.h>

#include "emu/core/err.h"
#include "models/hw/machine.h"
#include "models/mm/kernel.h"
#include "models/sched/sched.h"

struct sim;

/* The kernel and scheduler of one simulation, and the tasks placed on a CPU but
 * not started yet (they count as load when the next one is placed). */
struct wl_smp {
	struct mm_kernel k;
	bool k_up;
	struct sched sched;
	bool sched_up;
	int reserved[MACHINE_MAX_CPUS];
};

/**
 * wl_smp_start() - mm_kernel_init() and a scheduler on every CPU of @s, with
 * @cs_cycles per context switch and this run's tick phase (machine.variation);
 * tasks of @w->k are then scheduled by @w->sched.
 * Returns: 0, or -1 with @e set.
 */
int wl_smp_start(struct wl_smp *w, struct sim *s, double cs_cycles, struct mm_err *e);

/**
 * wl_smp_spawn() - place a new task on the least loaded CPU (owner + run queue +
 * placed-not-started; ties to the lowest index: 2.6's exec balancing, roughly),
 * set @t up as a scheduled mm task of entity @st called @name with workload data
 * @wl, and start actor @fn on that CPU.  @fn must call wl_smp_enter() first.
 */
void wl_smp_spawn(struct wl_smp *w, struct mm_task *t, struct sched_task *st, const char *name,
		  void *wl, void (*fn)(int, char **));

/** wl_smp_enter() - the first call of a spawned task's actor: join its CPU. */
void wl_smp_enter(struct wl_smp *w, struct mm_task *t);

/**
 * wl_smp_metrics() - the metrics every SMP workload reports: idle_s over
 * [sched start, @end], disk reads (and writes), kswapd CPU, lock counters, and the
 * reclaim module's own.
 */
void wl_smp_metrics(struct wl_smp *w, struct sim *s, double end);

/**
 * wl_smp_fini() - free the kernel and the scheduler, their SimGrid objects
 * included (after the simulation, no actor left; the tasks' sched entities are
 * the workload's to destroy).  Returns: nothing.
 */
void wl_smp_fini(struct wl_smp *w);

#endif
