/*
 * timemodel.c - paying pending cycles on the simulated CPU, and the lookahead
 * that lets an actor skip payments nobody could observe (see timemodel.h).
 */
#include "emu/core/timemodel.h"

#include <math.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

uint64_t tm_wake_epoch;

void tm_init(struct tm *t, double quantum_s, double clock_hz)
{
	t->pending = 0;
	t->wait = 0;
	t->quantum = quantum_s * clock_hz;
	t->clock = clock_hz;
	t->paid = 0;
	t->executes = 0;
	t->deferred = 0;
	t->sharers = NULL;
	t->unbind_hooked = 0;
	t->pay = NULL;
	t->pay_wake = 0;
	t->w = NULL;
	t->slot = -1;
	t->wake = 0;
	t->ahead = 0;
	t->check = t->quantum;
	t->holding = 0;
	t->limiter = -1;
	t->epoch = 0;
}

void tm_world_init(struct tm_world *w, double end)
{
	w->n = 0;
	w->ndead = 0;
	w->off = 0;
	w->slack = 0;
	w->on_death = NULL;
	w->death_arg = NULL;
	w->end = end > 0 ? end : INFINITY;
}

int tm_world_add(struct tm_world *w, double *wake)
{
	unsigned i = w->n;
	if (w->ndead > 0) {
		/* reuse the slot of an actor that has exited (its exit hook has run:
		 * only peer_exit marks a slot dead), so that a workload that starts
		 * thousands of short-lived processes (kernbench's jobs) stays within
		 * the cap; the lowest such slot, for determinism */
		for (i = 0; i < w->n && !w->peer[i].dead; i++)
			;
		w->ndead--;
	} else if (w->n >= TM_MAX_PEERS) {
		return -1;
	} else {
		w->n++;
	}
	tm_wake_epoch++;   /* a new peer: its wake may be earlier than any horizon taken */
	struct tm_peer *p = &w->peer[i];
	p->wake = wake;
	p->w = w;
	p->hooked = 0;
	p->dead = 0;
	return (int)i;
}

static void peer_exit(int failed, void *data)
{
	struct tm_peer *p = data;
	(void)failed;
	p->dead = 1;
	p->w->ndead++;
	if (p->w->on_death)
		p->w->on_death(p->w->death_arg);
}

void tm_world_hook(struct tm_world *w, int i)
{
	if (i < 0 || w->peer[i].hooked)
		return;
	w->peer[i].hooked = 1;
	sg_actor_on_exit(peer_exit, &w->peer[i]);
}

int tm_join(struct tm *t, struct tm_world *w)
{
	int i = tm_world_add(w, &t->wake);
	if (i < 0)
		return -1;
	t->w = w;
	t->slot = i;
	return 0;
}

void tm_woken(double *wake)
{
	*wake = simgrid_get_clock();
	tm_wake_epoch++;
}

double tm_now(const struct tm *t)
{
	return simgrid_get_clock() + t->wait + t->pending / t->clock;
}

/* A bound actor has exited: it no longer shares its CPU (a chained run's next
 * step binds a new actor to the same CPU; counted twice, it would execute). */
static void unbind_exit(int failed, void *data)
{
	struct tm *t = data;
	(void)failed;
	if (t->sharers)
		(*t->sharers)--;
	t->sharers = NULL;
}

/* Spend @c cycles on the actor's CPU, then wait @w more seconds: through the pay
 * hook or an execution when the CPU is shared (then a separate sleep for @w), else
 * one sleep for both, whose end is published as the actor's wake time.  The first
 * payment also watches the actor's exit in its lookahead world: a registered actor
 * that never looked ahead (kernbench's make) would otherwise count as alive after
 * it ended, and lookahead would stay off for every actor after it (a chained
 * run's later steps). */
static void spend(struct tm *t, double c, double w)
{
	if (t->w)   /* a registered actor's death is seen from its first payment */
		tm_world_hook(t->w, t->slot);
	if (t->sharers && !t->unbind_hooked) {
		t->unbind_hooked = 1;
		sg_actor_on_exit(unbind_exit, t);
	}
	if (t->pay || !t->sharers || *t->sharers > 1) {
		if (t->pay)
			t->pay(t, c);
		else
			sg_actor_execute(c);
		if (!(w > 0))
			return;
		c = 0;   /* only waits are left (a looking-ahead actor is never here) */
	}
	double d = c / t->clock + w;
	t->wake = simgrid_get_clock() + d;   /* others may run until then */
	sg_actor_sleep_for(d);
}

void tm_pay(struct tm *t, double c)
{
	spend(t, c, 0);
}

void tm_pay_pending(struct tm *t)
{
	double c = t->pending, w = t->wait;
	t->pending = 0;
	t->wait = 0;
	t->paid += c;
	t->executes++;
	spend(t, c, w);
}

/* The horizon of @t (tm_horizon); the peer that bounds it goes to *@arg (-1:
 * none, the run's end). */
static double horizon(const struct tm *t, int *arg)
{
	*arg = -1;
	struct tm_world *w = t->w;
	if (!w || w->off)
		return -INFINITY;
	if (t->pay ? !t->pay_wake : (!t->sharers || *t->sharers > 1))
		return -INFINITY;
	tm_world_hook(w, t->slot);
	if (sg_actor_count() != w->n - w->ndead)
		return -INFINITY;
	double h = w->end;
	for (unsigned i = 0; i < w->n; i++)
		if ((int)i != t->slot && !w->peer[i].dead && *w->peer[i].wake < h) {
			h = *w->peer[i].wake;
			*arg = (int)i;
		}
	return h;
}

double tm_horizon(const struct tm *t)
{
	int arg;
	return horizon(t, &arg);
}

/* Does the peer that bounded @t's last horizon still act before the @pending
 * cycles (and the deferred wait) would end?  Then the full horizon, which is no
 * later, would say the same: pay.  Two CPUs in system time bound each other's
 * horizons payment after payment, so this check usually decides without the
 * scan over every peer. */
static int limiter_blocks(const struct tm *t, double now, double slack)
{
	struct tm_world *w = t->w;
	int i = t->limiter;
	if (i < 0 || (unsigned)i >= w->n || i == t->slot || w->peer[i].dead)
		return 0;
	return !(t->pending < (*w->peer[i].wake + slack - now - t->wait) * t->clock);
}

void tm_look(struct tm *t)
{
	if (t->pending != t->pending || (!(t->pending > 0) && !(t->wait > 0))) {
		tm_sync(t);   /* nothing to defer (or NaN: paid as it always was) */
		return;
	}
	double now = simgrid_get_clock();
	/* cycles that fit before anyone else can act */
	double slack = t->w ? t->w->slack : 0;
	if (t->w && !t->holding && limiter_blocks(t, now, slack)) {
		tm_sync(t);
		return;
	}
	t->epoch = tm_wake_epoch;
	double room = (horizon(t, &t->limiter) + slack - now - t->wait) * t->clock;
	if (t->holding && slack > 0 && room > -INFINITY) {
		/* slack: a spinlock holder runs its critical section to the end
		 * before it pays, so nobody finds the lock held meanwhile */
		t->ahead = 0;
		t->check = t->pending + t->quantum;
		t->deferred++;
		return;
	}
	if (t->pending < room) {
		t->ahead = room;
		t->check = room > t->quantum ? room : t->quantum;
		t->deferred++;
		return;
	}
	tm_sync(t);
}

void tm_defer_wait(struct tm *t, double s)
{
	t->wait += s;
	t->ahead = 0;          /* the room left before the horizon shrank: look again */
	t->check = t->quantum;
}
