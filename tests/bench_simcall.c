/*
 * bench_simcall.c - the host cost of one SimGrid call of the kinds mmemu's time
 * model makes (emu/core/timemodel.c, models/mm/spinlock.c): a payment (a sleep
 * of the pending cycles, sg_actor_sleep_for) and a spinlock hand-off (a waiter
 * blocked on its own semaphore, released by another actor).  64 actors on 8
 * hosts, as seed 002's 64 dbench clients on the 8-way, each sleeping a
 * pseudo-random 1-100 us per call.  It gives the floor under any change that
 * keeps the number of SimGrid calls: docs/performance.md, "Seed 002", uses it to say
 * why a cheaper primitive cannot reach the seed's 3-minute budget.  Not a test:
 * prints ns of host CPU per call (docs/performance.md).
 *
 * usage: bench_simcall   (no options; --help prints this, any other argument is
 *                         refused with exit 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#include "emu/engine/engine.h"

#define ACTORS 64
#define HOSTS 8
#define CALLS 1280000L   /* per kind, over all actors */

static long per_actor;
static int live;               /* actors of the phase still running */
static double t0, ns_pay, ns_pass;
static sg_sem_t token[HOSTS];  /* the passers' semaphores, one per actor */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void passer(int argc, char **argv);

/* Start @n actors running @fn, actor i on host cpu(i % HOSTS) with argument i. */
static void spawn(int n, void (*fn)(int, char **))
{
	for (int i = 0; i < n; i++) {
		char id[16], host[16];
		snprintf(id, sizeof id, "%d", i);
		snprintf(host, sizeof host, "cpu%d", i % HOSTS);
		char *args[] = { "a", id, NULL };
		sg_actor_create("a", sg_host_by_name(host), fn, 2, args);
	}
}

/* Payments: sleeps of 1-100 us, a different sequence per actor.  The last payer
 * to finish times the phase and starts the hand-off phase. */
static void payer(int argc, char **argv)
{
	unsigned s = (unsigned)atoi(argv[argc - 1]) * 7919u + 1u;
	for (long i = 0; i < per_actor; i++) {
		s = s * 1103515245u + 12345u;
		sg_actor_sleep_for(1e-6 * (1 + (s >> 16) % 100));
	}
	if (--live)
		return;
	ns_pay = (now() - t0) / (double)(per_actor * ACTORS) * 1e9;
	live = HOSTS;
	for (int i = 0; i < HOSTS; i++)
		token[i] = sg_sem_init(i % 2 == 0 ? 1 : 0);
	t0 = now();
	spawn(HOSTS, passer);
}

/* Hand-offs: pairs of actors pass a token through each other's semaphore, with a
 * 1 us sleep (the line transfer) after each acquire, as a contended spinlock's
 * waiter does: per hand-off one acquire, one sleep, one release. */
static void passer(int argc, char **argv)
{
	int id = atoi(argv[argc - 1]);
	long n = CALLS / HOSTS;
	for (long i = 0; i < n; i++) {
		sg_sem_acquire(token[id]);
		sg_actor_sleep_for(1e-6);
		sg_sem_release(token[id ^ 1]);
	}
	if (--live == 0)
		ns_pass = (now() - t0) / (double)(n * HOSTS) * 1e9;
}

int main(int argc, char **argv)
{
	static const char usage[] = "usage: bench_simcall   (no options: ns of host CPU per SimGrid "
				    "payment, per spinlock hand-off)\n";
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "bench_simcall: bad option %s\n%s", argv[1], usage);
		return 2;
	}
	struct machine_cfg m;   /* the platform mmemu writes: hosts cpu0..cpu7 at 700 MHz */
	memset(&m, 0, sizeof m);
	m.cpus = HOSTS;
	m.clock = 700e6;
	char platform[512];
	if (sim_write_platform(&m, platform, sizeof platform)) {
		perror("bench_simcall: platform");
		return 1;
	}
	sim_simgrid_init();
	simgrid_load_platform(platform);
	unlink(platform);
	per_actor = CALLS / ACTORS;
	live = ACTORS;
	spawn(ACTORS, payer);
	t0 = now();
	simgrid_run();
	printf("payment (sg_actor_sleep_for), %d actors on %d hosts: %.0f ns per call\n", ACTORS, HOSTS,
	       ns_pay);
	printf("spinlock hand-off (acquire + 1 us sleep + release), %d actors: %.0f ns per hand-off\n",
	       HOSTS, ns_pass);
	return 0;
}
