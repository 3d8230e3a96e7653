/*
 * spinlock.h - the spinlocks of the mm core (zone->lru_lock, zone->lock), modelled
 * on Linux 2.6.15's spinlock_t with spin_lock_irq() (include/linux/spinlock.h);
 * see spinlock.c.  Included by kernel.h.
 */
#ifndef MMEMU_SPINLOCK_H
#define MMEMU_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include <simgrid/forward.h>

#include "emu/core/timeline.h"
#include "models/hw/coherence.h"

struct mm_kernel;
struct mm_task;
struct sim;
struct zone;

/*
 * A spinlock (zone->lru_lock, later zone->lock and kmap_lock).  Uncontended, it
 * costs one locked RMW and no SimGrid call beyond paying the holder's pending
 * cycles (the lock and unlock are observation points of the time model: with
 * lookahead, not even that when no other actor could come meanwhile).
 * Contended, the waiter blocks on its own SimGrid semaphore until the holder
 * releases; the release wakes the oldest waiter, which must then win the lock again (test-and-set:
 * no fairness, as a 2.6 spinlock).
 */
#define MM_SPIN_GUARD_MAX 4   /* lines of guarded data per lock */

struct mm_spinlock {
	bool held;
	uint32_t waiters;
	int last_cpu;              /* CPU of the last holder (cache-line bounces) */
	int prev_cpu;              /* CPU of the holder before the current one (-1: none):
				      where the lines it guards were last written */
	struct mm_task *wq_head, *wq_tail;   /* contended acquirers waiting for a release,
						oldest first (mm_task.wq_next, wq_sem) */
	uint32_t spinners;         /* waiters spinning on the line at the last release */
	uint64_t acquisitions, contended, bounces;
	double wait_s;             /* simulated seconds spent waiting */
	double hold_s;             /* simulated seconds held (acquire to release) */
	double t_acq;              /* when the current holder got it */
	bool holder_waited;        /* the current holder's acquisition was contended */
	bool sleeps;               /* a semaphore used as a lock (lock_super): a contended
				      scheduled acquirer gives up its CPU while it waits */
	struct timeline tl;        /* hold intervals, with engine.slack > 0 only */
	/* the data the holder writes beside the lock word (list heads, counters) on
	 * lines of their own: written at each acquisition when the kernel models data
	 * lines (k->page_line), so they move with the lock between CPUs, inside the
	 * hold.  The owner of the lock sets guard[] and nguard after mm_spin_init(). */
	uint8_t nguard;
	struct coh_line *guard[MM_SPIN_GUARD_MAX];   /* owned by the lock's owner; two
						       locks may guard one line */
};

/** mm_spin_init() - set up a spinlock (inside a simulation). */
void mm_spin_init(struct mm_spinlock *l);
/**
 * mm_spin_destroy() - release @l once the simulation has ended with no actor left
 * (a zeroed, never initialised lock is fine).
 * Returns: nothing.
 */
void mm_spin_destroy(struct mm_spinlock *l);
/** mm_spin_lock() - acquire @l as task @t (pays pending cycles first). */
void mm_spin_lock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l);
/** mm_spin_unlock() - release @l (pays the hold time first). */
void mm_spin_unlock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l);

/* zone->lru_lock: pays pending cycles (a synchronisation point), then the lock. */
void mm_lru_lock(struct mm_kernel *k, struct mm_task *t, struct zone *z);
void mm_lru_unlock(struct mm_kernel *k, struct mm_task *t, struct zone *z);

/**
 * mm_kernel_lock_metrics() - add the spinlock counters to @s's metrics, summed over
 * zones: lru_lock_ and zone_lock_ acquisitions, contended, wait_s, hold_s, bounces.
 */
void mm_kernel_lock_metrics(struct mm_kernel *k, struct sim *s);

#endif
