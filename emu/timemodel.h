/*
 * timemodel.h - pending cycles: native code everywhere, SimGrid at contention points.
 *
 * Cheap work that needs no other actor (a page-cache hit, a copy, a list walk) is
 * charged to the running actor as pending cycles with tm_charge().  Pending cycles
 * are paid with one sg_actor_execute() when they pass the quantum, and at every
 * synchronisation point (lock, disk request, sleep, exit) through tm_sync().  The
 * error of an actor's timeline is bounded by one quantum; the host cost is one
 * simcall per quantum instead of one per operation.  Quantum 0 pays every charge
 * at once (the reference mode the tests compare against).
 */
#ifndef MMEMU_TIMEMODEL_H
#define MMEMU_TIMEMODEL_H

#include <stdint.h>

struct tm {
	double pending;       /* cycles charged and not yet paid */
	double quantum;       /* cycles; 0 = pay at once */
	double clock;         /* Hz of the actor's CPU */
	double paid;          /* cycles paid so far (for metrics) */
	uint64_t executes;    /* payments made */
	const int *sharers;   /* actors bound to this CPU, or NULL (unknown) */
	/* optional payment hook (a scheduled task pays through its CPU scheduler,
	 * models/mm/kernel.c); NULL: the built-in sleep/execute rule below */
	void (*pay)(struct tm *t, double cycles);
};

/** tm_init() - set up a per-actor time account; @quantum_s seconds at @clock_hz. */
void tm_init(struct tm *t, double quantum_s, double clock_hz);

/**
 * tm_bind() - declare that the actor runs on a CPU whose bound actors are counted
 * in *@sharers (the caller increments it).  While it is the only one, a payment is
 * a sleep of cycles/clock: the same simulated time as an execution on an unshared
 * host, without SimGrid's CPU-sharing model (about half the host cost).  With
 * sharers, or unbound, payments are sg_actor_execute() so CPUs are shared.
 */
static inline void tm_bind(struct tm *t, const int *sharers)
{
	t->sharers = sharers;
}

/**
 * tm_pay() - spend @cycles on the actor's CPU now, without touching the account:
 * through the pay hook when set, else a sleep (sole sharer) or sg_actor_execute().
 */
void tm_pay(struct tm *t, double cycles);

/** tm_pay_pending() - the payment of tm_sync() when cycles are pending. */
void tm_pay_pending(struct tm *t);

/** tm_sync() - pay all pending cycles now (call before any synchronisation). */
static inline void tm_sync(struct tm *t)
{
	if (!(t->pending <= 0))   /* exactly the old test, NaN included */
		tm_pay_pending(t);
}

/** tm_charge() - add @cycles of local work; pays when the quantum is passed. */
static inline void tm_charge(struct tm *t, double cycles)
{
	t->pending += cycles;
	if (t->pending >= t->quantum)
		tm_sync(t);
}

#endif
