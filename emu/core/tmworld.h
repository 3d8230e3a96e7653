/*
 * tmworld.h - the actors of one simulation and when each can next act: the
 * lookahead of the time model (emu/core/timemodel.h).  Kept apart from timemodel.h
 * because struct tm there clashes with <time.h> in files that only need this.
 */
#ifndef MMEMU_TMWORLD_H
#define MMEMU_TMWORLD_H

/* every actor of a simulation: dbench's 1,024 clients as processes (each a
 * scheduled task that looks ahead), the balancer, kswapd, the disks */
#define TM_MAX_PEERS 1100

struct tm_world;

/* One registered actor. */
struct tm_peer {
	double *wake;                 /* its wake time (simulated s), kept up to date */
	struct tm_world *w;
	int hooked;                   /* its exit is watched (tm_world_hook) */
	int dead;                     /* it has exited: ignored from then on */
};

/* The actors of one simulation and when each can next act. */
struct tm_world {
	struct tm_peer peer[TM_MAX_PEERS];
	unsigned n, ndead;
	double end;                   /* the run's time limit (+inf: none) */
	int off;                      /* lookahead switched off (engine.lookahead) */
	double slack;                 /* seconds an actor may run ahead of the others
				       * (engine.slack; 0: exact, docs/architecture.md) */
	/* called inside each hooked actor as it exits, after it is marked dead
	 * (a chained run's driver lowers its own wake when the actor it joins
	 * ends: emu/engine/chain.c); NULL: none */
	void (*on_death)(void *arg);
	void *death_arg;
};

/** tm_world_init() - an empty world; @end: the run's time limit (0 = none). */
void tm_world_init(struct tm_world *w, double end);

/**
 * tm_world_add() - register an actor's wake slot (*@wake, kept up to date by the
 * actor and its wakers; it must outlive the actor).
 * The slot of an actor that has exited is reused (the lowest first), so only
 * the actors alive at once count against TM_MAX_PEERS.
 * Returns: the actor's index in @w, or -1 if the world is full (lookahead then
 * stays off, because that actor is not seen).
 */
int tm_world_add(struct tm_world *w, double *wake);

/**
 * tm_world_hook() - called by actor @i itself (inside its SimGrid actor): watch
 * its exit, after which it is no longer counted.  Until then a registered actor
 * counts as alive.  Returns: nothing.
 */
void tm_world_hook(struct tm_world *w, int i);

/** tm_woken() - a waker sets the wake slot @wake of the actor it releases to now. */
void tm_woken(double *wake);

#endif
