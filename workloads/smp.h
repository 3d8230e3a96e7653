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
	struct mm_kernel *k;       /* the booted kernel (mm_kernel_boot): a chain's steps share it */
	struct sched sched;
	bool sched_up;
	int reserved[MACHINE_MAX_CPUS];
};

/**
 * wl_smp_start() - the booted kernel of @s (mm_kernel_boot(): in a chain, the
 * one the first step booted) and a scheduler of this workload's own on every
 * CPU, with @cs_cycles per context switch and this run's tick phase
 * (machine.variation); tasks of @w->k are then scheduled by @w->sched (a later
 * step's scheduler takes over once this one's tasks have all exited).
 * Returns: 0, or -1 with @e set.
 */
int wl_smp_start(struct wl_smp *w, struct sim *s, double cs_cycles, struct mm_err *e);

/**
 * wl_smp_spawn() - place a new task on the least loaded CPU (owner + run queue +
 * placed-not-started; ties to the lowest index: 2.6's exec balancing, roughly),
 * set @t up as a scheduled mm task of entity @st called @name with workload data
 * @wl, and start actor @fn on that CPU.  @fn must call wl_smp_enter() first.
 * @parent, the task that forks it (NULL: none, the workload's start), pays its
 * pending cycles first: starting an actor is a wake-up, so the child starts at
 * the parent's own time.  Returns: nothing.
 */
void wl_smp_spawn(struct wl_smp *w, struct mm_task *parent, struct mm_task *t,
		  struct sched_task *st, const char *name, void *wl, void (*fn)(int, char **));

/** wl_smp_enter() - the first call of a spawned task's actor: join its CPU. */
void wl_smp_enter(struct wl_smp *w, struct mm_task *t);

/**
 * wl_smp_metrics() - the metrics every SMP workload reports: idle_s over
 * [sched start, @end], disk reads (and writes), kswapd CPU, lock counters, and the
 * reclaim module's own; then retires the scheduler (sched_retire: in a chained
 * run this step is over; after a plain run nothing is left to tick).
 */
void wl_smp_metrics(struct wl_smp *w, struct sim *s, double end);

/**
 * wl_smp_fini() - free the scheduler, its SimGrid objects included (after the
 * simulation, no actor left; the tasks' sched entities are the workload's to
 * destroy; the kernel is the boot's: mm_kernel_shutdown).  Returns: nothing.
 */
void wl_smp_fini(struct wl_smp *w);

#endif
