/*
 * sched.c - CPU scheduler model (see sched.h, docs/sched.md).
 *
 * Design.  Each CPU has an owner (curr) and a FIFO run queue.  Only the owner of
 * a CPU executes on it, so a task's work is paid with sg_actor_sleep_for (exact
 * and cheaper, as timemodel.c) when its run queue is empty or when at most one
 * unscheduled actor is bound to the CPU (that one pays with sleeps too), and with
 * sg_actor_execute only when two or more bound actors may execute beside it.  A task that does not own its CPU waits on its own sg_cond until some
 * other actor makes it the owner: state changes (curr, queues, counters) are made
 * between simcalls, where SimGrid actors run one at a time, and the waiter re-checks
 * its flag under s->mx, which is held only around the condition wait.
 *
 * Rules (2.6.10 O(1) scheduler, simplified; docs/sched.md lists what is not
 * modelled):
 * - time slice: a running task that has used cfg.slice_s of CPU while another task
 *   waits on its CPU goes to the tail of the queue and the head runs (involuntary
 *   switch; scheduler_tick + schedule).  Expiry is acted on when the task next asks
 *   to run; with nobody waiting the slice is refilled and no switch is counted
 *   (schedule() counts a switch only when prev != next).  Without
 *   cfg.wake_preempt there is no wake-up preemption: all tasks have the same
 *   priority.
 * - wake-up preemption (cfg.wake_preempt; 2.6.10 try_to_wake_up,
 *   TASK_PREEMPTS_CURR, recalc_task_prio): each task has a sleep_avg, credited
 *   with the time it slept (at wake-up) and debited with the time it runs, within
 *   0 .. MAX_SLEEP_AVG = DEF_TIMESLICE x MAX_BONUS = 1 s; its dynamic priority is
 *   120 - (CURRENT_BONUS - MAX_BONUS/2), CURRENT_BONUS = sleep_avg x 10 / 1 s
 *   (nice 0 for all).  A woken task placed on a CPU whose running task has a
 *   numerically higher priority goes to the head of that run queue and the
 *   running task is rescheduled: at once if it is running user code (its
 *   payment is interrupted: a reschedule IPI / return to user), else at the
 *   end of its kernel work (no CONFIG_PREEMPT); it then waits right behind the
 *   woken task with the rest of its slice, an involuntary switch.  A sync
 *   wake-up (sched_wake_sync) onto the waker's own CPU does not preempt.
 *   Simplified: sleeps of every kind are credited in full (2.6.10 limits the
 *   credit of uninterruptible sleeps and of long sleeps), a new task starts with
 *   sleep_avg 0 (fork gives the child 95% of its parent's), the priority arrays
 *   are not modelled (the run queue stays FIFO apart from the preempting task).
 * - wake_affine (cfg.wake_affine; 2.6.10 try_to_wake_up): a task woken by a
 *   sync waker on another CPU goes to the waker's CPU unless that would pull it
 *   off an idle CPU onto a busy one, if it is cache cold (slept at least
 *   cfg.cache_hot_s) or the waker's CPU, less the waker, is not busier than
 *   its own by half the imbalance margin (SD_WAKE_BALANCE); else to its
 *   previous CPU.  No SMT domain, so no wake_idle: a busy previous CPU queues
 *   it (the idle balancer may pull it).  Loads are run-queue lengths (cpu_load's
 *   smoothing over ticks is not modelled).
 * - fork and exec (sched_fork_child_first, sched_exec, sched_exit_to_parent):
 *   a fork() that does not share the mm runs the child first (the parent's
 *   involuntary switch), exec moves the task to the idlest CPU
 *   (find_idlest_cpu), and a child's exit wakes the parent on the child's CPU.
 * - context switch: whenever a CPU passes from one task to another (slice expiry,
 *   block, exit) the incoming task first pays cfg.cs_cycles; idle -> task is free.
 * - wake-up placement without cfg.wake_affine (try_to_wake_up / wake_idle,
 *   approximated): the previous CPU if idle; else, with cfg.wake_idle, the
 *   lowest-numbered idle CPU; else the shortest run queue, ties to the previous
 *   CPU, then the lowest index.
 * - load balancing: every cfg.balance_s (the first tick (1 - cfg.tick_phase) x
 *   balance_s after sched_init: where the periodic tick happens to be when the
 *   workload starts, a source of run-to-run variance), each idle CPU (ascending) pulls the tail
 *   (least recently run) task of the longest run queue (ties: lowest index), as
 *   the idle rebalance_tick's load_balance/move_tasks.  Busy CPUs do not balance.
 * - a task moved while waiting calls sg_actor_set_host on itself when it resumes.
 */
#include "models/sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/engine.h>
#include <simgrid/semaphore.h>

#include "emu/core/tmworld.h"

void sched_cfg_default(struct sched_cfg *c, int ncpu, double clock)
{
	c->ncpu = ncpu;
	c->clock = clock;
	c->slice_s = 100e-3;    /* DEF_TIMESLICE, nice 0 (kernel/sched.c 2.6.10) */
	c->cs_cycles = 1000;    /* calibration: lmbench lat_ctx 2p/0K ~ 1 us class */
	c->balance_s = 1e-3;    /* IDLE_REBALANCE_TICK = HZ/1000 */
	c->wake_idle = true;
	c->tick_phase = 0;
	c->wake_preempt = false;
	c->wake_affine = false;
	c->cache_hot_s = 2.5e-3;   /* SD_CPU_INIT .cache_hot_time = 5 ms / 2 (2.6.10) */
	c->imbalance_pct = 125;    /* SD_CPU_INIT .imbalance_pct */
}

static double now(void)
{
	return simgrid_get_clock();
}

/* Make @t (or nobody) the owner of CPU @c, keeping the busy-time account. */
static void set_curr(struct sched_cpu *c, struct sched_task *t)
{
	if (!c->curr && t)
		c->busy_since = now();
	else if (c->curr && !t)
		c->busy_s += now() - c->busy_since;
	c->curr = t;
}

static void rq_append(struct sched_cpu *c, struct sched_task *t)
{
	t->next = NULL;
	if (c->tail)
		c->tail->next = t;
	else
		c->head = t;
	c->tail = t;
	c->nr_queued++;
}

static struct sched_task *rq_pop_head(struct sched_cpu *c)
{
	struct sched_task *t = c->head;
	if (!t)
		return NULL;
	c->head = t->next;
	if (!c->head)
		c->tail = NULL;
	t->next = NULL;
	c->nr_queued--;
	return t;
}

static void rq_push_head(struct sched_cpu *c, struct sched_task *t)
{
	t->next = c->head;
	c->head = t;
	if (!c->tail)
		c->tail = t;
	c->nr_queued++;
}

/* Queue @t right behind the head (a preempted task behind its preemptor). */
static void rq_insert_second(struct sched_cpu *c, struct sched_task *t)
{
	if (!c->head) {
		rq_append(c, t);
		return;
	}
	t->next = c->head->next;
	c->head->next = t;
	if (c->tail == c->head)
		c->tail = t;
	c->nr_queued++;
}

static struct sched_task *rq_pop_tail(struct sched_cpu *c)
{
	struct sched_task *t = c->tail, *p = c->head;
	if (!t)
		return NULL;
	if (p == t) {
		c->head = c->tail = NULL;
	} else {
		while (p->next != t)
			p = p->next;
		p->next = NULL;
		c->tail = p;
	}
	c->nr_queued--;
	return t;
}

static void notify(struct sched *s, struct sched_task *t)
{
	if (t->wake)
		tm_woken(t->wake);   /* it can act from now on */
	sg_mutex_lock(s->mx);
	sg_cond_notify_one(t->cv);
	sg_mutex_unlock(s->mx);
}

/* Pay @cycles on @t's CPU (which @t owns). */
static void pay(struct sched *s, struct sched_task *t, double cycles)
{
	if (cycles <= 0)
		return;
	if (t->wake) {
		/* only the owner executes on the CPU (kswapd, the other actor that may
		 * be placed there, pays with sleeps: it never shares it), so the end is
		 * exact: sleep, and publish it */
		double d = cycles / s->cfg.clock;
		*t->wake = now() + d;
		sg_actor_sleep_for(d);
		return;
	}
	/* Nothing else executes on the CPU's host when the run queue is empty, nor
	 * while at most one unscheduled actor is bound to it (kswapd, pdflush, make
	 * or the reaim driver: alone, it pays with sleeps; tm_bind): the owner's
	 * execution would end exactly cycles/clock later, so it sleeps, at about
	 * half the host cost.  With two or more bound actors executing beside it,
	 * the CPU is shared and the owner executes. */
	if (s->cpu[t->cpu].nr_queued == 0 || (s->bound && s->bound[t->cpu] < 2))
		sg_actor_sleep_for(cycles / s->cfg.clock);
	else
		sg_actor_execute(cycles);
}

/* MAX_SLEEP_AVG (DEF_TIMESLICE x MAX_BONUS, 2.6.10) in seconds. */
#define MAX_SLEEP_AVG_S 1.0

/* @t's sleep_avg now (the payment in progress already counts, user or system:
 * how many cycles one payment joins, which lookahead decides, must not change
 * what another task sees). */
static double sleep_avg_now(const struct sched_task *t)
{
	double a = t->sleep_avg - (t->paying ? now() - t->pay_t0 :
				   t->kpaying ? now() - t->kpay_t0 : 0);
	return a > 0 ? a : 0;
}

/* Dynamic priority of a nice-0 task (effective_prio): lower runs first. */
static int dyn_prio(const struct sched_task *t)
{
	int bonus = (int)(sleep_avg_now(t) * 10 / MAX_SLEEP_AVG_S);   /* CURRENT_BONUS */
	if (bonus > 10)
		bonus = 10;
	return 120 - (bonus - 5);
}

/* Debit @t's sleep_avg with @sec of running. */
static void ran(struct sched_task *t, double sec)
{
	t->sleep_avg = t->sleep_avg > sec ? t->sleep_avg - sec : 0;
}

/* Pay @cycles of user work on @t's CPU; with wake-up preemption the payment ends
 * early when a woken task preempts @t (resched IPI).
 * Returns: the cycles left unpaid (0 unless preempted). */
static double pay_user(struct sched *s, struct sched_task *t, double cycles)
{
	if (!s->cfg.wake_preempt || cycles <= 0) {
		pay(s, t, cycles);
		return 0;
	}
	if (t->need_resched)
		return cycles;
	double t0 = now(), d = cycles / s->cfg.clock;
	if (t->wake)
		*t->wake = t0 + d;
	t->paying = true;
	t->pay_t0 = t0;
	int timed_out = sg_sem_acquire_timeout(t->psem, d);
	if (timed_out && !t->paying)
		sg_sem_acquire(t->psem);   /* a preemptor released it as the time ran out */
	t->paying = false;
	if (timed_out)
		return 0;
	double left = cycles - (now() - t0) * s->cfg.clock;
	return left > 0 ? left : 0;
}

/* A woken task preempts @cur (resched_task): interrupt its user payment. */
static void preempt(struct sched *s, struct sched_task *cur)
{
	cur->need_resched = true;
	s->preempt_wakeups++;
	if (!cur->paying)
		return;   /* kernel work or between payments: at its next sched_run() */
	cur->paying = false;   /* one release per payment */
	if (cur->wake)
		tm_woken(cur->wake);
	sg_sem_release(cur->psem);
}

/* Block until @t owns its CPU, move the actor there, pay a pending switch. */
static void wait_cpu(struct sched *s, struct sched_task *t)
{
	double t0 = now();
	if (s->cpu[t->cpu].curr != t) {
		if (t->wake)
			*t->wake = INFINITY;   /* until notify() gives it the CPU */
		sg_mutex_lock(s->mx);
		while (s->cpu[t->cpu].curr != t)
			sg_cond_wait(t->cv, s->mx);
		sg_mutex_unlock(s->mx);
	}
	t->wait_s += now() - t0;
	sg_host_t h = s->cpu[t->cpu].host;
	if (sg_actor_get_host(sg_actor_self()) != h)
		sg_actor_set_host(sg_actor_self(), h);
	if (t->pay_cs) {
		t->pay_cs = false;
		double t1 = now();
		pay(s, t, s->cfg.cs_cycles);
		t->cs_s += now() - t1;
	}
}

/* Give CPU @c (owned by the caller) to its queue head, or leave it idle. */
static void hand_over(struct sched *s, struct sched_cpu *c)
{
	struct sched_task *n = rq_pop_head(c);
	if (!n) {
		set_curr(c, NULL);
		return;
	}
	n->pay_cs = s->cfg.cs_cycles > 0;
	set_curr(c, n);
	c->switches++;
	s->switches++;
	notify(s, n);
}

/* Put @t on CPU @i: owner if idle, else at the tail of its queue. */
static void enqueue(struct sched *s, struct sched_task *t, int i)
{
	struct sched_cpu *c = &s->cpu[i];
	t->cpu = i;
	if (!c->curr)
		set_curr(c, t);
	else
		rq_append(c, t);
}

static void balance(struct sched *s)
{
	for (int i = 0; i < s->cfg.ncpu; i++) {
		if (s->cpu[i].curr)
			continue;
		int busiest = -1;
		for (int j = 0; j < s->cfg.ncpu; j++)
			if (s->cpu[j].nr_queued > 0 &&
			    (busiest < 0 || s->cpu[j].nr_queued > s->cpu[busiest].nr_queued))
				busiest = j;
		if (busiest < 0)
			return;
		struct sched_task *t = rq_pop_tail(&s->cpu[busiest]);
		t->cpu = i;
		t->migrations++;
		s->migrations++;
		s->balance_moves++;
		set_curr(&s->cpu[i], t);   /* idle -> task: no switch cost */
		notify(s, t);
	}
}

/* Seconds from sched_init() to the balancer's first tick. */
static double first_tick(const struct sched *s)
{
	double ph = s->cfg.tick_phase;
	if (!(ph >= 0 && ph < 1))   /* also NaN: the fixed tick */
		ph = 0;
	return (1.0 - ph) * s->cfg.balance_s;
}

static void balancer(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct sched *s = sg_actor_self_get_data();
	double d = first_tick(s);
	for (;;) {
		/* watched once it is a peer: sched_join() may come after this actor
		 * started (a chain's step starts its workload inside the chain actor,
		 * whose sg_actor_start lets the balancer run first) */
		if (s->world)
			tm_world_hook(s->world, s->bal_slot);
		s->bal_wake = now() + d;
		sg_actor_sleep_for(d);
		if (s->world)
			tm_world_hook(s->world, s->bal_slot);
		if (s->retired) {
			s->bal_wake = INFINITY;
			return;
		}
		balance(s);
		d = s->cfg.balance_s;
	}
}

int sched_init(struct sched *s, const struct sched_cfg *c)
{
	s->cfg = *c;
	s->switches = s->migrations = s->balance_moves = s->preempt_wakeups = 0;
	s->affine_wakeups = s->fork_preempts = s->exec_moves = 0;
	s->balancer = NULL;
	s->retired = 0;
	s->world = NULL;
	s->reserved = NULL;
	s->bal_slot = -1;
	s->bal_wake = 0;
	s->cpu = calloc((size_t)c->ncpu, sizeof *s->cpu);
	if (!s->cpu)
		return -1;
	for (int i = 0; i < c->ncpu; i++) {
		char name[16];
		snprintf(name, sizeof name, "cpu%d", i);
		s->cpu[i].host = sg_host_by_name(name);
		if (!s->cpu[i].host) {
			free(s->cpu);
			s->cpu = NULL;
			return -1;
		}
	}
	s->mx = sg_mutex_init();
	s->t0 = now();
	if (c->balance_s > 0) {
		s->balancer = sg_actor_init("sched-balance", s->cpu[0].host);
		sg_actor_set_data(s->balancer, s);
		sg_actor_start(s->balancer, balancer, 0, NULL);
		sg_actor_daemonize(s->balancer);
	}
	return 0;
}

int sched_join(struct sched *s, struct tm_world *w)
{
	if (!s->balancer) {
		s->world = w;
		return 0;
	}
	s->bal_wake = now() + first_tick(s);
	s->bal_slot = tm_world_add(w, &s->bal_wake);
	if (s->bal_slot < 0)
		return -1;
	s->world = w;
	return 0;
}

void sched_retire(struct sched *s)
{
	s->retired = 1;
}

void sched_destroy(struct sched *s)
{
	if (s->mx)
		sg_mutex_destroy(s->mx);
	s->mx = NULL;
	free(s->cpu);
	s->cpu = NULL;
}

void sched_task_init(struct sched *s, struct sched_task *t, int cpu, const char *name)
{
	*t = (struct sched_task){0};
	t->cv = sg_cond_init();
	t->psem = sg_sem_init(0);
	t->name = name;
	t->cpu = cpu;
	t->slice_left = s->cfg.slice_s * s->cfg.clock;
	t->sync_cpu = -1;
}

void sched_task_destroy(struct sched_task *t)
{
	if (t->cv)
		sg_cond_destroy(t->cv);
	t->cv = NULL;
	if (t->psem)
		sg_sem_destroy(t->psem);
	t->psem = NULL;
}

void sched_start(struct sched *s, struct sched_task *t)
{
	t->actor = sg_actor_self();
	enqueue(s, t, t->cpu);
	wait_cpu(s, t);
}

void sched_run_both(struct sched *s, struct sched_task *t, double kcycles, double cycles)
{
	if (kcycles > 0 && t->slice_left - kcycles > 0 && cycles > 0 &&
	    cycles <= t->slice_left - kcycles && !s->cfg.wake_preempt) {
		/* no slice expiry to act on between or within: one payment */
		double t0 = now();
		pay(s, t, kcycles + cycles);
		t->run_s += now() - t0;
		t->slice_left -= kcycles + cycles;
		return;
	}
	sched_run_kernel(s, t, kcycles);
	sched_run(s, t, cycles);
}

void sched_run(struct sched *s, struct sched_task *t, double cycles)
{
	double slice = s->cfg.slice_s * s->cfg.clock;
	while (cycles > 0) {
		if (t->slice_left <= 0) {
			t->slice_left = slice;
			struct sched_cpu *c = &s->cpu[t->cpu];
			if (c->nr_queued > 0) {
				t->nivcsw++;
				rq_append(c, t);
				hand_over(s, c);
				wait_cpu(s, t);
			}
		}
		if (t->need_resched) {
			/* preempted on wake-up: the woken task is at the head */
			t->need_resched = false;
			struct sched_cpu *c = &s->cpu[t->cpu];
			if (c->nr_queued > 0) {
				t->nivcsw++;
				rq_insert_second(c, t);
				hand_over(s, c);
				wait_cpu(s, t);
			}
		}
		double chunk = cycles < t->slice_left ? cycles : t->slice_left;
		double t0 = now();
		double paid = chunk - pay_user(s, t, chunk);
		t->run_s += now() - t0;
		ran(t, now() - t0);
		t->slice_left -= paid;
		cycles -= paid;
	}
}

void sched_run_kernel(struct sched *s, struct sched_task *t, double cycles)
{
	double t0 = now();
	t->kpaying = true;
	t->kpay_t0 = t0;
	pay(s, t, cycles);
	t->kpaying = false;
	t->run_s += now() - t0;
	ran(t, now() - t0);
	t->slice_left -= cycles;
}

void sched_block(struct sched *s, struct sched_task *t)
{
	t->nvcsw++;
	t->slept_at = now();
	t->need_resched = false;
	hand_over(s, &s->cpu[t->cpu]);
}

/* Run-queue length of CPU @i (its owner counted, and the new tasks placed there
 * whose actors have not run yet: which of two actors at the same simulated time
 * SimGrid runs first must not decide a placement): nr_running. */
static int nr_running(const struct sched *s, int i)
{
	return (s->cpu[i].curr ? 1 : 0) + s->cpu[i].nr_queued + (s->reserved ? s->reserved[i] : 0);
}

/* try_to_wake_up's affine wake-up and passive balancing (2.6.10): @t, last on
 * @prev, is woken by a task running on @this (a sync wake-up: the waker is about
 * to sleep, so its own load is taken off).  Loads are run-queue lengths (the
 * kernel's cpu_load history, which smooths them over ticks, is not modelled).
 * Returns: the CPU to wake @t on. */
static int wake_affine(struct sched *s, struct sched_task *t, int prev, int this)
{
	if (prev == this)
		return prev;
	long load = nr_running(s, prev), this_load = nr_running(s, this) - 1;
	/* don't pull the task off an idle CPU to a busy one (2 x: SCHED_LOAD_SCALE / 2) */
	if (2 * load < 1 && 2 * this_load > 1)
		return prev;
	bool hot = now() - t->slept_at < s->cfg.cache_hot_s;   /* task_hot */
	long imb = s->cfg.imbalance_pct + (s->cfg.imbalance_pct - 100) / 2;
	if (!hot || imb * this_load <= 100 * load) {
		s->affine_wakeups++;
		return this;
	}
	return prev;
}

int sched_wake(struct sched *s, struct sched_task *t)
{
	int prev = t->cpu, n = s->cfg.ncpu, best = -1;
	if (s->cfg.wake_affine) {
		/* 2.6.10: wake_idle only in SMT sibling domains (SD_WAKE_IDLE), so a
		 * woken task goes to its previous CPU or the waker's */
		best = t->sync_cpu >= 0 ? wake_affine(s, t, prev, t->sync_cpu) : prev;
		if (s->cfg.wake_idle && s->cpu[best].curr)
			for (int i = 0; i < n; i++)
				if (!s->cpu[i].curr) {
					best = i;
					break;
				}
	} else if (!s->cpu[prev].curr) {
		best = prev;
	} else if (s->cfg.wake_idle) {
		for (int i = 0; i < n && best < 0; i++)
			if (!s->cpu[i].curr)
				best = i;
	}
	if (best < 0) {
		best = prev;
		for (int i = 0; i < n; i++)
			if (s->cpu[i].nr_queued < s->cpu[best].nr_queued)
				best = i;
	}
	if (best != prev) {
		t->migrations++;
		s->migrations++;
	}
	bool sync = t->sync_cpu == best;
	t->sync_cpu = -1;
	struct sched_task *cur = s->cpu[best].curr;
	if (s->cfg.wake_preempt) {
		double a = t->sleep_avg + (now() - t->slept_at);   /* recalc_task_prio */
		t->sleep_avg = a < MAX_SLEEP_AVG_S ? a : MAX_SLEEP_AVG_S;
	}
	if (s->cfg.wake_preempt && cur && !sync && !cur->need_resched &&
	    dyn_prio(t) < dyn_prio(cur)) {
		t->cpu = best;
		rq_push_head(&s->cpu[best], t);
		preempt(s, cur);
	} else {
		enqueue(s, t, best);
	}
	wait_cpu(s, t);
	return t->cpu;   /* the balancer may have moved it while it waited */
}

void sched_fork(struct sched_task *child, const struct sched_task *parent)
{
	double pa = parent ? sleep_avg_now(parent) : MAX_SLEEP_AVG_S;
	int bonus = (int)(pa * 10 / MAX_SLEEP_AVG_S);   /* CURRENT_BONUS */
	if (bonus > 10)
		bonus = 10;
	child->sleep_avg = bonus * 95 / 100 * MAX_SLEEP_AVG_S / 10;
}

void sched_wake_sync(struct sched_task *t, int cpu)
{
	t->sync_cpu = cpu;
}

void sched_fork_child_first(struct sched *s, struct sched_task *t)
{
	struct sched_cpu *c = &s->cpu[t->cpu];
	t->nivcsw++;   /* the parent, switched out by its child */
	s->fork_preempts++;
	c->switches++;
	s->switches++;
	double t0 = now();
	pay(s, t, s->cfg.cs_cycles);
	t->cs_s += now() - t0;
}

int sched_exec(struct sched *s, struct sched_task *t, bool parent_runnable)
{
	int cur = t->cpu, best = -1;
	long min = -1;
	for (int i = 0; i < s->cfg.ncpu; i++) {
		long l = nr_running(s, i) + (i == cur && parent_runnable);
		if (min < 0 || l < min) {
			min = l;
			best = i;
			if (l == 0)
				break;   /* break out early on an idle CPU */
		}
	}
	long nr = nr_running(s, cur) + parent_runnable;
	long imb = 100 + (s->cfg.imbalance_pct - 100) / 2;
	/* only this task here: stay; else "+1 to account for the new task" */
	if (nr <= 1 || best == cur || min * imb >= (nr + 1) * 100)
		return cur;
	hand_over(s, &s->cpu[cur]);
	t->migrations++;
	s->migrations++;
	s->exec_moves++;
	enqueue(s, t, best);
	wait_cpu(s, t);
	return t->cpu;
}

void sched_exit_to_parent(struct sched *s, struct sched_task *t)
{
	struct sched_cpu *c = &s->cpu[t->cpu];
	t->need_resched = false;
	if (c->nr_queued > 0) {
		rq_append(c, t);
		hand_over(s, c);
		wait_cpu(s, t);
		return;
	}
	c->switches++;
	s->switches++;
	double t0 = now();
	pay(s, t, s->cfg.cs_cycles);
	t->cs_s += now() - t0;
}

void sched_exit(struct sched *s, struct sched_task *t)
{
	t->finish_s = now();
	t->need_resched = false;
	hand_over(s, &s->cpu[t->cpu]);
}

double sched_elapsed_s(const struct sched *s)
{
	return now() - s->t0;
}

double sched_cpu_busy_s(const struct sched *s, int i)
{
	const struct sched_cpu *c = &s->cpu[i];
	return c->busy_s + (c->curr ? now() - c->busy_since : 0);
}

double sched_cpu_idle_s(const struct sched *s, int i)
{
	return sched_elapsed_s(s) - sched_cpu_busy_s(s, i);
}

double sched_idle_s(const struct sched *s)
{
	double busy = 0;
	for (int i = 0; i < s->cfg.ncpu; i++)
		busy += sched_cpu_busy_s(s, i);
	return s->cfg.ncpu * sched_elapsed_s(s) - busy;
}

double sched_cpu_pct(const struct sched *s, struct sched_task *const *t, int n)
{
	double run = 0, el = sched_elapsed_s(s);
	for (int i = 0; i < n; i++)
		run += t[i]->run_s;
	return el > 0 ? run / el * 100.0 : 0;
}
