/*
 * sched.h - CPU scheduler model: per-CPU run queues, time slices, wake-up placement,
 * periodic idle load balancing, context-switch cost, idle time and the voluntary /
 * involuntary switch counts of getrusage (see sched.c and docs/sched.md).
 *
 * A task must own its CPU to run.  Tasks are SimGrid actors running on hosts
 * "cpu0".."cpuN-1"; a task that waits for its CPU blocks on its own condition
 * (flag + sg_cond, as mm_spin_lock), so a run queue is a real wait.
 */
#ifndef MMEMU_SCHED_H
#define MMEMU_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>

struct tm_world;

struct sched_cfg {
	int ncpu;              /* CPUs, SimGrid hosts cpu0..cpuN-1 */
	double clock;          /* Hz (1 cycle = 1 flop) */
	double slice_s;        /* time slice; 2.6 DEF_TIMESLICE, nice 0: 100 ms */
	double cs_cycles;      /* cost of a task-to-task switch (calibration) */
	double balance_s;      /* idle rebalance period; 2.6 IDLE tick 1 ms; <= 0: off */
	bool wake_idle;        /* wake-up may go to another idle CPU (else prev CPU only) */
	double tick_phase;     /* phase of the balancer tick at sched_init(), turns in [0, 1):
				  ticks at t0 + (k - tick_phase) x balance_s, k = 1, 2, ...
				  (run-to-run variance; 0: first tick one period after t0) */
	bool wake_preempt;     /* try_to_wake_up preempts a running task of lower dynamic
				  priority (TASK_PREEMPTS_CURR; sleep_avg bonus); false: a
				  woken task waits for a slice or a free CPU (as before) */
	bool wake_affine;      /* 2.6.10 try_to_wake_up's affine wake-up and passive
				  balancing (SD_WAKE_AFFINE, SD_WAKE_BALANCE) toward the
				  waker's CPU, for wake-ups whose waker is known (sync) */
	double cache_hot_s;    /* task_hot(): a task that last ran less than this ago
				  is cache hot (SD_CPU_INIT cache_hot_time) */
	int imbalance_pct;     /* SD_CPU_INIT imbalance_pct (125) */
};

struct sched_task {
	sg_actor_t actor;
	sg_cond_t cv;          /* signalled when this task is given a CPU */
	const char *name;
	int cpu;               /* CPU it runs on, or is queued on, or last ran on */
	bool pay_cs;           /* pay a context switch before running again */
	double slice_left;     /* cycles left in the current time slice */
	struct sched_task *next;   /* run-queue link */
	double *wake;          /* the task's published wake time (lookahead), or NULL:
				  sched_join() tasks only */
	/* counters */
	uint64_t nvcsw;        /* voluntary switches (blocked) */
	uint64_t nivcsw;       /* involuntary switches (slice expired, others waited) */
	uint64_t migrations;   /* times placed on a CPU other than the previous one */
	double run_s;          /* seconds running its own work */
	double cs_s;           /* seconds of context-switch cost paid on its behalf */
	double wait_s;         /* seconds runnable in a run queue */
	double finish_s;       /* time of sched_exit() */
	/* wake-up preemption (cfg.wake_preempt) */
	double sleep_avg;      /* seconds, 0 .. 1 (MAX_SLEEP_AVG): the priority bonus */
	double slept_at;       /* time of its last sched_block() */
	double pay_t0;         /* start of the user payment in progress (paying) */
	bool paying;           /* in an interruptible user payment */
	double kpay_t0;        /* start of the system-time payment in progress (kpaying) */
	bool kpaying;          /* in a payment of system cycles (sched_run_kernel) */
	sg_sem_t psem;         /* released to interrupt that payment (wake_preempt) */
	bool need_resched;     /* a woken task of higher priority waits for its CPU */
	int sync_cpu;          /* CPU of a sync waker (wake_up_*_sync), -1: none */
};

struct sched_cpu {
	sg_host_t host;
	struct sched_task *curr;   /* owner, NULL = idle */
	struct sched_task *head, *tail;   /* run queue (FIFO) */
	int nr_queued;
	double busy_s;         /* closed busy intervals */
	double busy_since;     /* start of the open busy interval (curr != NULL) */
	uint64_t switches;     /* task-to-task switches on this CPU */
};

struct sched {
	struct sched_cfg cfg;
	struct sched_cpu *cpu;
	sg_mutex_t mx;         /* only for condition waits; never held across work */
	double t0;             /* simulated time of sched_init() */
	uint64_t switches;     /* task-to-task context switches (all CPUs) */
	uint64_t migrations;   /* by wake-up placement and balancing */
	uint64_t balance_moves;
	uint64_t preempt_wakeups;   /* wake-ups that preempted the running task */
	uint64_t affine_wakeups;    /* wake-ups moved to the waker's CPU (wake_affine) */
	uint64_t fork_preempts;     /* forks whose child ran first (sched_fork_child_first) */
	uint64_t exec_moves;        /* execs moved to an idler CPU (sched_exec) */
	sg_actor_t balancer;
	struct tm_world *world;   /* lookahead world the balancer is registered in, or NULL */
	int bal_slot;             /* the balancer's index in world */
	double bal_wake;          /* the balancer's next tick (its published wake) */
	int retired;              /* sched_retire(): the balancer ends at its next tick */
	const int *bound;         /* [ncpu]: the unscheduled actors bound to each CPU
				     (struct sim's cpu_actors), or NULL: unknown */
	const int *reserved;      /* [ncpu]: tasks placed on each CPU whose actors have
				     not started yet (wake_up_new_task has queued them:
				     they count in nr_running), or NULL: none */
};

/**
 * sched_cfg_default() - 2.6.10 defaults (slice 100 ms, balance 1 ms, cs 1000 cycles,
 * tick phase 0).
 * Returns: nothing.
 */
void sched_cfg_default(struct sched_cfg *c, int ncpu, double clock);

/**
 * sched_init() - set up @s for @c->ncpu CPUs (the platform must be loaded) and
 * start the balancer daemon actor when @c->balance_s > 0.
 * Returns: 0, or -1 if a host is missing or memory runs out.
 */
int sched_init(struct sched *s, const struct sched_cfg *c);

/**
 * sched_join() - register the balancer in lookahead world @w (emu/core/tmworld.h),
 * publishing its next tick, so that tasks whose wake slots the scheduler keeps
 * (sched_task.wake: +inf while waiting for a CPU, now when given one, the end of
 * each payment) may look ahead.  Call before the simulation runs.
 * Returns: 0, or -1 if the world is full (lookahead then stays off).
 */
int sched_join(struct sched *s, struct tm_world *w);

/**
 * sched_retire() - the workload whose tasks @s schedules has ended: the
 * balancer ends at its next tick instead of balancing (a chained run's next
 * step brings a scheduler of its own, and a balancer ticking every
 * millisecond over nothing would cut every other actor's lookahead short).
 * Returns: nothing.
 */
void sched_retire(struct sched *s);

/** sched_destroy() - free @s and its mutex (no actor left). Returns: nothing. */
void sched_destroy(struct sched *s);

/** sched_task_init() - set up @t, to start on CPU @cpu. */
void sched_task_init(struct sched *s, struct sched_task *t, int cpu, const char *name);

/** sched_task_destroy() - free @t's condition (no actor left). Returns: nothing. */
void sched_task_destroy(struct sched_task *t);

/**
 * sched_start() - called by @t's own actor first: join CPU @t->cpu (run at once if
 * it is idle, else wait at the tail of its run queue).  Moves the actor to the host.
 */
void sched_start(struct sched *s, struct sched_task *t);

/**
 * sched_run() - @t (owning its CPU) executes @cycles, with involuntary switches at
 * the end of each time slice while another task waits on that CPU.
 */
void sched_run(struct sched *s, struct sched_task *t, double cycles);

/**
 * sched_run_both() - sched_run_kernel(@kcycles) then sched_run(@cycles), in one
 * payment when no slice expiry falls between or within them (the same timeline).
 * Returns: nothing.
 */
void sched_run_both(struct sched *s, struct sched_task *t, double kcycles, double cycles);

/**
 * sched_run_kernel() - execute @cycles of kernel work on the CPU @t owns, without
 * preemption (a 2.6 kernel without CONFIG_PREEMPT): they count as run time and use
 * up the time slice, whose expiry is acted on at the next sched_run().
 */
void sched_run_kernel(struct sched *s, struct sched_task *t, double cycles);

/** sched_block() - @t gives up its CPU before sleeping (a voluntary switch). */
void sched_block(struct sched *s, struct sched_task *t);

/**
 * sched_wake() - called by @t's actor after its sleep: place it (wake-up rules in
 * sched.c) and wait until it owns its CPU.
 * Returns: the CPU it now owns.
 */
int sched_wake(struct sched *s, struct sched_task *t);

/**
 * sched_wake_sync() - the task waking @t runs on CPU @cpu and is about to sleep
 * (wake_up_interruptible_sync: pipes, wait4): if @t is placed on @cpu it does
 * not preempt (try_to_wake_up's "!sync || cpu != this_cpu").  Returns: nothing.
 */
void sched_wake_sync(struct sched_task *t, int cpu);

/**
 * sched_fork() - sched_fork()'s sleep_avg for @child: CURRENT_BONUS of @parent x
 * CHILD_PENALTY (95%), in whole bonus steps; @parent NULL: a parent that has
 * only slept (make, reaim's driver: the full bonus).  Returns: nothing.
 */
void sched_fork(struct sched_task *child, const struct sched_task *parent);

/**
 * sched_fork_child_first() - @t, running, fork()s a child that does not share
 * its mm: 2.6.10 wake_up_new_task queues the child right behind the parent and
 * reschedules, so the parent is switched out involuntarily and the child runs
 * first, on the parent's CPU.  The caller's actor goes on as the child (one
 * actor plays a chain of processes): @t counts the parent's involuntary switch
 * and pays the switch.  Returns: nothing.
 */
void sched_fork_child_first(struct sched *s, struct sched_task *t);

/**
 * sched_exec() - execve()'s sched_exec for @t (find_idlest_cpu, 2.6.10): when
 * its CPU runs more than @t (@parent_runnable: the parent is still on it, as
 * after sched_fork_child_first), the idlest CPU (lowest load, the first idle one
 * ends the search) is taken if its load x (100 + (imbalance_pct - 100) / 2) is
 * below 100 x (this CPU's load + one task); loads are run-queue lengths.
 * Returns: the CPU @t then owns.
 */
int sched_exec(struct sched *s, struct sched_task *t, bool parent_runnable);

/**
 * sched_exit_to_parent() - the process @t played exits and wakes its parent
 * from wait4 (a sync wake-up onto this CPU, which does not preempt): the actor
 * goes on as the parent, at once if no task waits for the CPU (a task-to-task
 * switch, paid), else behind the waiting tasks.  Returns: nothing.
 */
void sched_exit_to_parent(struct sched *s, struct sched_task *t);

/** sched_exit() - @t is done: give up the CPU (not counted as a switch of @t). */
void sched_exit(struct sched *s, struct sched_task *t);

/** sched_elapsed_s() - Returns: simulated seconds since sched_init(). */
double sched_elapsed_s(const struct sched *s);

/** sched_cpu_busy_s() - Returns: seconds CPU @i had an owner (work + switches). */
double sched_cpu_busy_s(const struct sched *s, int i);

/** sched_cpu_idle_s() - Returns: elapsed - busy of CPU @i. */
double sched_cpu_idle_s(const struct sched *s, int i);

/** sched_idle_s() - Returns: N x elapsed - total busy. */
double sched_idle_s(const struct sched *s);

/** sched_cpu_pct() - Returns: %CPU of @n tasks: their run_s / elapsed x 100. */
double sched_cpu_pct(const struct sched *s, struct sched_task *const *t, int n);

#endif
