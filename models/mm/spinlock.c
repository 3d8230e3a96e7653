/*
 * spinlock.c - spinlocks (zone->lru_lock, zone->lock) with their cache-line
 * bounces, and the lock metrics of a run (see spinlock.h).
 *
 * Models Linux 2.6.15's spin_lock_irq()/spin_unlock_irq() on i386
 * (kernel/spinlock.c, include/asm-i386/spinlock.h; kernel-mechanisms.md 0.2): no
 * fairness, one locked RMW per acquire, and a transfer of the lock's cache line
 * when another CPU held it last.  SimGrid actors run one at a time, so the lock is
 * a flag; a contended acquire waits on a SimGrid condition and keeps its CPU
 * (docs/architecture.md, "Spinlocks are not sg_mutexes").
 */
#include "models/mm/spinlock.h"
#include "models/mm/kernel.h"

#include <stdio.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>

#include "emu/core/sim.h"

void mm_spin_init(struct mm_spinlock *l)
{
	memset(l, 0, sizeof *l);
	l->last_cpu = -1;
	l->mx = sg_mutex_init();
	l->cv = sg_cond_init();
}

void mm_spin_destroy(struct mm_spinlock *l)
{
	if (l->cv)
		sg_cond_destroy(l->cv);
	if (l->mx)
		sg_mutex_destroy(l->mx);
	l->cv = NULL;
	l->mx = NULL;
}

/* The time a lock's cache line takes to come over from another CPU: the
 * machine's line_transfer, or its memory latency when that is 0.
 * Returns: seconds. */
static double line_transfer(const struct mm_kernel *k)
{
	return k->costs->line_transfer > 0 ? k->costs->line_transfer : k->costs->mem_latency;
}

void mm_spin_lock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	bool waited = false;
	if (l->held)
		mm_sync(t);      /* the holder is another actor, blocked: wait in time */
	else
		mm_observe(t);   /* free: pay only if somebody could come meanwhile */
	if (l->held && !k->untimed) {
		/* SimGrid actors run one at a time: the flag needs no lock of its own.
		 * A waiter spins on the lock's cache line: it sees a release only after
		 * the line has come over from the releasing CPU, so a releaser that asks
		 * again at once wins (test-and-set: no fairness). */
		double t0 = simgrid_get_clock();
		double transfer = line_transfer(k);
		l->contended++;
		sg_mutex_lock(l->mx);
		for (;;) {
			while (l->held) {
				l->waiters++;
				sg_cond_wait(l->cv, l->mx);
				l->waiters--;
			}
			sg_mutex_unlock(l->mx);
			if (transfer > 0)
				sg_actor_sleep_for(transfer);
			sg_mutex_lock(l->mx);
			if (!l->held)
				break;
		}
		l->held = true;   /* claimed before the next simcall lets anyone else run */
		sg_mutex_unlock(l->mx);
		l->wait_s += simgrid_get_clock() - t0;
		t->spin_s += simgrid_get_clock() - t0;   /* spinning: the CPU is kept */
		l->bounces++;     /* the line came over during the wait */
		waited = true;
	}
	l->held = true;
	l->t_acq = k->untimed ? 0 : tm_now(&t->tm);   /* the hold includes the RMW below */
	l->acquisitions++;
	/* spin_lock_irq: one locked RMW on the lock word; the line moves if another
	 * CPU held the lock last */
	mm_charge(t, k->costs->atomic);
	if (!waited && l->last_cpu >= 0 && l->last_cpu != t->cpu) {
		l->bounces++;
		mm_charge(t, line_transfer(k) * k->clock);
	}
	l->last_cpu = t->cpu;
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES)
		t->lru_acq++;
}

void mm_spin_unlock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	if (l->waiters)
		mm_sync(t);      /* a waiter is woken at the release: its time must be ours */
	else
		mm_observe(t);
	double held = k->untimed ? 0 : tm_now(&t->tm) - l->t_acq;
	l->hold_s += held;
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES)
		t->lru_hold_s += held;
	l->held = false;
	if (l->waiters) {
		sg_mutex_lock(l->mx);
		sg_cond_notify_one(l->cv);
		sg_mutex_unlock(l->mx);
	}
}

void mm_lru_lock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_lock(k, t, &k->lru_lock[z->idx]);
}

void mm_lru_unlock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_unlock(k, t, &k->lru_lock[z->idx]);
}

void mm_kernel_lock_metrics(struct mm_kernel *k, struct sim *s)
{
	static const char *const names[2] = { "lru_lock", "zone_lock" };
	for (int l = 0; l < 2; l++) {
		const struct mm_spinlock *locks = l ? k->zone_lock : k->lru_lock;
		uint64_t acq = 0, cont = 0, bounces = 0;
		double wait = 0, hold = 0;
		for (int i = 0; i < MM_NR_ZONES; i++) {
			acq += locks[i].acquisitions;
			cont += locks[i].contended;
			bounces += locks[i].bounces;
			wait += locks[i].wait_s;
			hold += locks[i].hold_s;
		}
		char key[64];
		snprintf(key, sizeof key, "%s_acquisitions", names[l]);
		sim_metric(s, key, (double)acq);
		snprintf(key, sizeof key, "%s_contended", names[l]);
		sim_metric(s, key, (double)cont);
		snprintf(key, sizeof key, "%s_wait_s", names[l]);
		sim_metric(s, key, wait);
		snprintf(key, sizeof key, "%s_hold_s", names[l]);
		sim_metric(s, key, hold);
		snprintf(key, sizeof key, "%s_bounces", names[l]);
		sim_metric(s, key, (double)bounces);
	}
}
