/*
 * timemodel.h - pending cycles: native code everywhere, SimGrid at contention points.
 *
 * Cheap work that needs no other actor (a page-cache hit, a copy, a list walk) is
 * charged to the running actor as pending cycles with tm_charge().  Pending cycles
 * are paid with one SimGrid call when they pass the quantum, and at every
 * synchronisation point.  The error of an actor's timeline is bounded by one
 * quantum; the host cost is one simcall per quantum instead of one per operation.
 * Quantum 0 pays every charge at once (the reference mode the tests compare
 * against).
 *
 * Two kinds of synchronisation point:
 *  - tm_sync(): the actor is about to block, wake another actor or start an I/O.
 *    Its pending cycles are always paid first, so the SimGrid clock is its own.
 *  - tm_observe(): the actor touches state another actor could be using at the
 *    same moment (an uncontended spinlock).  It pays only if another actor could
 *    act before the end of its pending cycles.
 *
 * Lookahead (struct tm_world): every actor of a simulation publishes the earliest
 * simulated time at which it can next act ("wake": the end of its sleep, +inf
 * while it waits for somebody to wake it; a waker lowers it to now).  While the
 * running actor's own time (clock + pending) stays before every other actor's
 * wake, nothing it does can be seen out of order, so neither the quantum nor an
 * observation point needs a payment: the cycles are paid at the next tm_sync()
 * in one simcall, at the same simulated time.  Lookahead applies only when every
 * SimGrid actor of the simulation is registered in the world (otherwise an
 * unregistered actor might act unseen) and the actor is alone on its CPU and pays
 * with sleeps (or through a pay hook that says so: pay_wake, a scheduled task on
 * the CPU it owns); otherwise tm_observe() is tm_sync() and the quantum rule holds.
 *
 * Slack (world->slack > 0, engine.slack): the horizon is pushed back by the slack,
 * so an actor may run that far past the others before it pays, and a spinlock
 * holder (holding > 0) does not pay until its release.  What it observes then
 * may be out of time order: the spinlocks and buses that observation points
 * guard book out of order (docs/architecture.md, "Slack").  At 0, exact as above.
 */
#ifndef MMEMU_TIMEMODEL_H
#define MMEMU_TIMEMODEL_H

#include <stdint.h>

#include "emu/core/tmworld.h"

struct tm {
	double pending;       /* cycles charged and not yet paid */
	double wait;          /* seconds of waiting not yet slept (lookahead only) */
	double quantum;       /* cycles; 0 = pay at once */
	double clock;         /* Hz of the actor's CPU */
	double paid;          /* cycles paid so far (for metrics) */
	uint64_t executes;    /* payments made */
	uint64_t deferred;    /* observation points passed without a payment (lookahead) */
	int *sharers;         /* actors bound to this CPU, or NULL (unknown) */
	int unbind_hooked;    /* the actor's exit gives its place on the CPU back */
	/* optional payment hook (a scheduled task pays through its CPU scheduler,
	 * models/sched/task.c); NULL: the built-in sleep/execute rule below */
	void (*pay)(struct tm *t, double cycles);
	int pay_wake;         /* the pay hook spends exactly cycles/clock on a CPU the
			       * actor alone uses and publishes its end as wake (a
			       * scheduled task that owns its CPU): lookahead applies */
	struct tm_world *w;   /* lookahead world, or NULL (no lookahead) */
	int slot;             /* this actor's index in w */
	double wake;          /* published: when this actor can next act */
	double ahead;         /* pending may grow to this before anyone can act (0: unknown) */
	double check;         /* tm_charge() looks again at this many pending cycles */
	int holding;          /* spinlocks held (with slack, no payment in between) */
	int limiter;          /* the peer whose wake bounded the last horizon (-1: none):
			       * tm_look() checks it first */
	uint64_t epoch;       /* tm_wake_epoch when ahead and check were computed */
};

/* Bumped whenever an actor's wake slot is lowered (tm_woken) or a peer joins
 * (tm_world_add): an ahead or check computed before may rest on a wake that no
 * longer holds (the actor itself may have woken the peer, or a simcall let others
 * run), so it is not trusted across a change. */
extern uint64_t tm_wake_epoch;

/** tm_init() - set up a per-actor time account; @quantum_s seconds at @clock_hz. */
void tm_init(struct tm *t, double quantum_s, double clock_hz);

/**
 * tm_bind() - declare that the actor runs on a CPU whose bound actors are counted
 * in *@sharers (the caller increments it).  While it is the only one, a payment is
 * a sleep of cycles/clock: the same simulated time as an execution on an unshared
 * host, without SimGrid's CPU-sharing model (about half the host cost).  With
 * sharers, or unbound, payments are sg_actor_execute() so CPUs are shared.  The
 * count is decremented when the actor exits, provided it paid at least once (the
 * exit is watched from its first payment, the first moment the time model runs
 * inside the actor); one that never paid stays counted, so the others on its CPU
 * execute: exact, only dearer.
 */
static inline void tm_bind(struct tm *t, int *sharers)
{
	t->sharers = sharers;
}

/** tm_join() - register @t's wake slot in @w so that @t may look ahead. Returns: as tm_world_add. */
int tm_join(struct tm *t, struct tm_world *w);

/** tm_now() - Returns: the actor's own simulated time (SimGrid clock + deferred waits + pending cycles). */
double tm_now(const struct tm *t);

/**
 * tm_pay() - spend @cycles on the actor's CPU now, without touching the account:
 * through the pay hook when set, else a sleep (sole sharer) or sg_actor_execute().
 */
void tm_pay(struct tm *t, double cycles);

/** tm_pay_pending() - the payment of tm_sync() when cycles are pending. */
void tm_pay_pending(struct tm *t);

/** tm_sync() - pay all pending cycles now (call before blocking or waking anyone). */
static inline void tm_sync(struct tm *t)
{
	if (t->w)   /* a registered actor's exit is watched from its first sync */
		tm_world_hook(t->w, t->slot);
	t->ahead = 0;
	t->check = t->quantum;
	if (!(t->pending <= 0) || t->wait > 0)   /* the old test, NaN included, or waits */
		tm_pay_pending(t);
}

/**
 * tm_horizon() - Returns: the earliest simulated time at which another actor of
 * @t's world can act, or -inf when lookahead does not apply (an unregistered actor
 * exists, lookahead is off, or @t does not pay with sleeps).
 */
double tm_horizon(const struct tm *t);

/**
 * tm_defer_wait() - add @s seconds of waiting (not CPU time) to the actor's own
 * time without sleeping now: for a wait whose length is known and whose end no
 * other actor can see (the caller checked it against tm_horizon()).  The wait is
 * slept with the pending cycles at the next payment.
 */
void tm_defer_wait(struct tm *t, double s);

/** tm_look() - the lookahead decision of tm_observe() and the quantum (timemodel.c). */
void tm_look(struct tm *t);

/**
 * tm_observe() - an observation point: pay pending cycles unless lookahead shows
 * that no other actor can act before they are spent.
 */
static inline void tm_observe(struct tm *t)
{
	if (t->ahead > 0 && t->pending < t->ahead && t->epoch == tm_wake_epoch)
		t->deferred++;
	else
		tm_look(t);
}

/** tm_charge() - add @cycles of local work; pays when the quantum is passed. */
static inline void tm_charge(struct tm *t, double cycles)
{
	t->pending += cycles;
	if (t->pending >= t->check || (t->ahead > 0 && t->epoch != tm_wake_epoch))
		tm_look(t);
}

#endif
