/*
 * spinlock.c - spinlocks (zone->lru_lock, zone->lock) with their cache-line
 * bounces, and the lock metrics of a run (see spinlock.h).
 *
 * Models Linux 2.6.15's spin_lock_irq()/spin_unlock_irq() on i386
 * (kernel/spinlock.c, include/asm-i386/spinlock.h; kernel-mechanisms.md 0.2): no
 * fairness, one locked RMW per acquire, and a transfer of the lock's cache line
 * when another CPU held it last.  SimGrid actors run one at a time, so the lock is
 * a flag; a contended acquire queues (FIFO) and waits on a SimGrid semaphore of
 * its own, which the release gives to the head of the queue, and keeps its CPU
 * (docs/architecture.md, "Spinlocks are not sg_mutexes").  (A mutex and condition
 * did the same with about twice the SimGrid calls.)
 *
 * The spinners shape the hand-off (the line-ownership rules of
 * models/hw/coherence.h applied to the lock word): a waiter spins reading its
 * shared copy; the release's store invalidates the W spinners' copies (one
 * invalidation round, charged to the releaser), all W read the line again one
 * at a time on the bus, and the winner's locked RMW comes after those re-reads:
 * the hand-off costs W + 1 transfers, and its 2W lines of traffic go onto the
 * winner's bus with its next copy.  With engine.slack > 0 a wait the timeline
 * path below finds (an overlap out of host order) knows only its own acquirer
 * spinning: it is charged as W = 1, two transfers and two lines of traffic; the
 * releaser's invalidation round is charged only for waiters queued in host order.
 *
 * With engine.slack > 0 a lock also keeps its holds in a timeline (slack_acquire,
 * slack_release): acquirers come out of time order, a free lock may have been
 * held at the acquirer's own time, and overlaps are settled at the release.
 *
 * A lock with `sleeps` set stands for a kernel semaphore taken as a lock
 * (lock_super's sb->s_lock): a contended scheduled acquirer gives up its CPU
 * (mm_block) until a release wakes it, then waits for a CPU (mm_unblock) and
 * only then tries again, as 2.4/2.5's __down() does: up() hands nothing over, so
 * a task running meanwhile may take it first, and the woken one sleeps again.
 * Sleepers do not spin on the line: the woken task's RMW brings it over once.
 * The waits the slack timeline settles (overlaps of at most engine.slack found
 * out of host order) keep the CPU as a spinlock's do: within the slack, a sleep
 * is charged as a spin.
 */
#include "models/mm/spinlock.h"
#include "models/mm/kernel.h"
#include "models/fs/fs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>

#include "emu/core/sim.h"

void mm_spin_init(struct mm_spinlock *l)
{
	memset(l, 0, sizeof *l);
	l->last_cpu = -1;
	l->prev_cpu = -1;
}

void mm_spin_destroy(struct mm_spinlock *l)
{
	/* a waiter's semaphore lives only while it waits: only the timeline is left */
	tl_destroy(&l->tl);
}

/*
 * With slack (engine.slack > 0), a free lock may still be held at our own time:
 * an actor up to slack ahead of us took and released it at later simulated
 * times, or one behind us did so at earlier ones.  The lock's timeline has every
 * hold since the simulated clock; a free acquirer waits until the hold it falls
 * into ends and the line comes over, without a SimGrid call.  Returns: true if it
 * waited.
 */
static bool slack_acquire(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	double now = tm_now(&t->tm);
	tl_prune(&l->tl, simgrid_get_clock());
	double free = tl_free_at(&l->tl, now);
	/* the line is where the lock was last held in simulated time, not in
	 * host order (an actor ahead takes it many times in a row) */
	l->last_cpu = tl_tag_before(&l->tl, now, l->last_cpu);
	if (!(free > now))
		return false;
	/* the hand-off with one spinner (W = 1): its re-read and its RMW */
	double wait = free - now + 2 * machine_line_transfer(k->costs, l->last_cpu, t->cpu);
	t->line_bytes += 2 * COH_LINE_BYTES;
	tm_defer_wait(&t->tm, wait);
	l->contended++;
	l->wait_s += wait;
	t->spin_s += wait;
	l->bounces++;
	return true;
}

/*
 * With slack, at the release: the hold [t_acq, now) is booked in the timeline.
 * If it overlaps a hold booked out of order (by an actor ahead of us, at a later
 * time), one of the two should have waited for the other: the holder that comes
 * second in host order takes the wait, shifted to the first gap wide enough.
 * Returns: the hold time.
 */
static double slack_release(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	double held = tm_now(&t->tm) - l->t_acq;
	tl_prune(&l->tl, simgrid_get_clock());
	double s = tl_fit(&l->tl, l->t_acq, held);
	if (s > l->t_acq) {
		/* after the hold we wait for, the line comes over, as in time order
		 * (the hand-off with one spinner, W = 1: its re-read and its RMW) */
		double x = 2 * machine_line_transfer(k->costs, tl_tag_before(&l->tl, s, t->cpu),
						     t->cpu);
		t->line_bytes += 2 * COH_LINE_BYTES;
		if (x > 0)
			s = tl_fit(&l->tl, s + x, held);
		double wait = s - l->t_acq;
		tm_defer_wait(&t->tm, wait);
		if (!l->holder_waited)
			l->contended++;
		l->wait_s += wait;
		t->spin_s += wait;
	}
	/* the hold booked after ours in simulated time found the line on the CPU
	 * before ours; it should have found it on ours: the transfer it missed
	 * is ours to pay (the holder that comes second in host order pays) */
	const struct tl_iv *next = tl_next(&l->tl, s + held);
	if (next && next->tag != t->cpu && next->tag == tl_tag_before(&l->tl, s, next->tag)) {
		l->bounces++;
		double x = machine_line_transfer(k->costs, t->cpu, next->tag);
		mm_charge(t, x * k->clock);
		held += x;   /* inside our hold, as an acquirer's transfer is */
	}
	tl_book(&l->tl, s, s + held, t->cpu);
	return held;
}

void mm_spin_lock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	bool waited = false;
	if (l->held)
		mm_sync(t);      /* the holder is another actor, blocked: wait in time */
	else if (mm_slack(t) > 0)
		waited = slack_acquire(k, t, l);   /* free now, maybe not at our time */
	else
		mm_observe(t);   /* free: pay only if somebody could come meanwhile */
	if (l->held && !k->untimed) {
		/* SimGrid actors run one at a time: the flag needs no lock of its own.
		 * A waiter spins on the lock's cache line: it sees a release only after
		 * the line has come over from the releasing CPU, so a releaser that asks
		 * again at once wins (test-and-set: no fairness). */
		double t0 = simgrid_get_clock();
		l->contended++;
		/* a semaphore (down()): the waiter sleeps, its CPU runs another task */
		bool asleep = l->sleeps && k->sched && t->st;
		if (asleep)
			mm_block(t);
		for (;;) {
			while (l->held) {
				/* queued in order; the release wakes the head through its own
				 * semaphore (a waiter whose wake slot the scheduler keeps is
				 * not expected before then) */
				t->wq_next = NULL;
				t->wq_sem = sg_sem_init(0);
				if (l->wq_tail)
					l->wq_tail->wq_next = t;
				else
					l->wq_head = t;
				l->wq_tail = t;
				l->waiters++;
				if (t->tm.pay_wake)
					t->tm.wake = INFINITY;
				sg_sem_acquire(t->wq_sem);
				sg_sem_destroy(t->wq_sem);
				t->wq_sem = NULL;
			}
			if (asleep) {
				/* up() hands nothing over: the woken task must get a CPU and
				 * run before it tries again, and a running task may take the
				 * semaphore meanwhile (2.4/2.5 __down's retry loop) */
				mm_unblock(t);
				if (l->held) {
					mm_block(t);
					continue;
				}
			}
			/* the line comes from the releaser's cache (machine topology), behind
			 * the other spinners' re-reads: the release's store invalidated the
			 * copy of each of the W CPUs spinning on it, all W read it again,
			 * one at a time on the bus, and the winner's locked RMW (a read for
			 * ownership) comes after them: W + 1 transfers (W = 1: the winner's
			 * re-read and its RMW).  The losers read it again after the RMW.
			 * A semaphore's sleepers do not spin: its count's line comes over
			 * once, for the woken task's RMW. */
			double w = asleep ? 0 : (double)l->spinners;
			double transfer = machine_line_transfer(k->costs, l->last_cpu, t->cpu) * (1 + w);
			t->line_bytes += 2 * (uint64_t)w * COH_LINE_BYTES;
			if (t->tm.pay_wake)
				t->tm.wake = simgrid_get_clock() + (transfer > 0 ? transfer : 0);
			if (transfer > 0)
				sg_actor_sleep_for(transfer);
			if (!l->held)
				break;
			if (asleep)
				mm_block(t);   /* taken while the line came over: sleep again */
		}
		l->held = true;   /* claimed before the next simcall lets anyone else run */
		l->wait_s += simgrid_get_clock() - t0;
		if (!asleep)
			t->spin_s += simgrid_get_clock() - t0;   /* spinning: the CPU is kept */
		l->bounces++;     /* the line came over during the wait */
		waited = true;
	}
	l->held = true;
	l->holder_waited = waited;
	t->tm.holding++;
	l->t_acq = k->untimed ? 0 : tm_now(&t->tm);   /* the hold includes the RMW below */
	l->acquisitions++;
	/* spin_lock_irq: one locked RMW on the lock word; the line moves if another
	 * CPU held the lock last */
	mm_charge(t, k->costs->atomic);
	if (!waited && l->last_cpu >= 0 && l->last_cpu != t->cpu) {
		l->bounces++;
		mm_charge(t, machine_line_transfer(k->costs, l->last_cpu, t->cpu) * k->clock);
	}
	l->prev_cpu = l->last_cpu;
	l->last_cpu = t->cpu;
	/* the guarded lists and counters: moved inside the hold from the CPU that
	 * wrote them last (the previous holder's) */
	if (k->page_line)
		for (unsigned i = 0; i < l->nguard; i++)
			mm_line_write(t, l->guard[i], &k->guard_coh);
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES) {
		t->lru_acq++;
		unsigned site = t->lru_site < MM_NR_LRU_SITES ? t->lru_site : MM_LRU_SITE_OTHER;
		k->lru_site_acq[site]++;
		if (waited)
			k->lru_site_cont[site]++;
	}
}

void mm_spin_unlock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	double held;
	if (mm_slack(t) > 0) {
		held = slack_release(k, t, l);
		if (l->waiters)
			mm_sync(t);
	} else {
		if (l->waiters)
			mm_sync(t);      /* a waiter is woken at the release: its time must be ours */
		else
			mm_observe(t);
		held = k->untimed ? 0 : tm_now(&t->tm) - l->t_acq;
	}
	t->tm.holding--;
	l->hold_s += held;
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES)
		t->lru_hold_s += held;
	l->held = false;
	l->spinners = l->waiters;
	bool spun = l->waiters && !k->untimed;
	struct mm_task *w = l->wq_head;   /* the longest waiting */
	if (w) {
		l->wq_head = w->wq_next;
		if (!l->wq_head)
			l->wq_tail = NULL;
		l->waiters--;
		if (w->tm.pay_wake)
			tm_woken(&w->tm.wake);
		sg_sem_release(w->wq_sem);
	}
	/* the store invalidates the spinners' copies (after the wake, which comes
	 * at the release: the waiter's own re-read is in its hand-off) */
	if (spun)
		mm_charge(t, machine_line_transfer(k->costs, t->cpu, t->cpu) * k->clock);
}

/* The LRU lock of zone @z: its own lru_lock, or with vm.lru_locking "per-page"
 * 2.5.25's one pagemap_lru_lock for every zone (kept in lru_lock[0]). */
static struct mm_spinlock *lru_lock_of(struct mm_kernel *k, const struct zone *z)
{
	return &k->lru_lock[k->cfg.lru_locking == MM_LRU_PER_PAGE ? 0 : z->idx];
}

void mm_lru_lock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_lock(k, t, lru_lock_of(k, z));
}

void mm_lru_unlock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_unlock(k, t, lru_lock_of(k, z));
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
	static const char *const sites[MM_NR_LRU_SITES] = { "other", "lru_add", "accessed",
							     "release", "activate", "reclaim" };
	for (int i = 0; i < MM_NR_LRU_SITES; i++) {
		if (!k->lru_site_acq[i])
			continue;
		char key[64];
		snprintf(key, sizeof key, "lru_lock_acquisitions_by_%s", sites[i]);
		sim_metric(s, key, (double)k->lru_site_acq[i]);
		snprintf(key, sizeof key, "lru_lock_contended_by_%s", sites[i]);
		sim_metric(s, key, (double)k->lru_site_cont[i]);
	}
	if (k->page_line) {   /* data lines modelled (costs.line_transfer declared) */
		sim_metric(s, "page_line_transfers", (double)(k->coh.transfers + k->coh.upgrades));
		sim_metric(s, "page_line_transfer_s", k->coh.transfer_s);
		sim_metric(s, "guarded_line_transfers",
			   (double)(k->guard_coh.transfers + k->guard_coh.upgrades));
		sim_metric(s, "guarded_line_transfer_s", k->guard_coh.transfer_s);
	}
	mm_ext3_metrics(k, s);   /* nothing unless the files are on ext3 */
}
