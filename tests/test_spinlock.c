/*
 * test_spinlock.c - the spinlock model of the mm core (mm_spin_lock, models/mm/spinlock.c).
 *
 * Each case runs SimGrid in a forked child (SimGrid runs once per process) on a
 * machine with a 1 GHz clock, so one cycle is one nanosecond.  Cases: the
 * uncontended cost (one locked RMW, no wait), the cache-line bounce when the
 * holder's CPU changes, a contended acquire shaped by its spinners, and the
 * unfair hand-off of a test-and-set lock (a releasing CPU that asks again at once
 * wins over the waiter, which is still waiting for the line).
 *
 * The contended hand-off (models/mm/spinlock.c, the rules of
 * models/hw/coherence.h on the lock word), with W the CPUs spinning at the
 * release and T one line transfer (mem_latency, 200 ns, or line_transfer):
 *   - the releaser's store invalidates the W spinners' copies: one invalidation
 *     round, T, charged to the releaser (pending after its unlock);
 *   - each of the W spinners re-reads the line: W transfers, one at a time on
 *     the bus, and the winner's locked RMW (a read for ownership) comes after
 *     them: one more.  The winner gets the lock (W + 1) T after the release;
 *   - 2W lines (W re-reads, the RMW, the W - 1 losers' reads after it) of 64
 *     bytes go onto the winner's bus with its next copy (task line_bytes).
 * So one waiter (W = 1) gets the lock 2T after the release, not T; the
 * three-CPU case (W = 2, then W = 1) checks that each spinner adds one transfer.
 *
 * With engine.slack (10 us here) A runs ahead of B and takes and releases the
 * lock at 3-4 us before B, at 0, has run at all; B then asks at an earlier time in
 * host order.  B asking inside A's hold waits for its end and the line, without a
 * SimGrid call; B asking before A's hold, but holding into it, finds the conflict
 * at its release and takes the wait itself (after A's hold and the line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/engine/engine.h"
#include "models/mm/kernel.h"

#define NOUT 16

struct ctx {
	struct sim_state s;
	struct mm_kernel k;
	struct machine_costs costs;
	struct mm_spinlock l;
	struct mm_task t[3];
	double out[NOUT];
};

static struct ctx X;   /* one per child process */

/* A machine of @ncpu CPUs at 1 GHz and tasks a and b; with @slack > 0 their
 * world looks ahead (it has no end) and lets them run @slack apart. */
static void setup_slack(int ncpu, double slack)
{
	memset(&X, 0, sizeof X);
	X.costs.atomic = 100;
	X.costs.mem_latency = 200e-9;   /* 200 cycles at 1 GHz */
	X.k.s = sim_state_bind(&X.s);
	X.k.costs = &X.costs;
	X.k.clock = 1e9;
	X.s.s.engine.quantum = 10e-6;
	if (slack > 0) {
		tm_world_init(&X.s.s.world, 0);
		X.s.s.world.slack = slack;
	}
	struct machine_cfg m;
	memset(&m, 0, sizeof m);
	m.cpus = ncpu;
	m.clock = 1e9;
	char plat[512];
	if (sim_write_platform(&m, plat, sizeof plat))
		_exit(3);
	sim_simgrid_init();
	simgrid_load_platform(plat);
	unlink(plat);
	mm_spin_init(&X.l);
	static const char *const names[] = { "a", "b", "c" };
	for (int i = 0; i < 3; i++)
		mm_task_init(&X.t[i], &X.k, i % ncpu, names[i]);
}

static void setup(int ncpu)
{
	setup_slack(ncpu, 0);
}

static void start(int i, void (*fn)(int, char **))
{
	char host[16];
	snprintf(host, sizeof host, "cpu%d", X.t[i].cpu);
	sg_actor_t a = sg_actor_init(X.t[i].name, sg_host_by_name(host));
	sg_actor_set_data(a, &X.t[i]);
	sg_actor_start(a, fn, 0, NULL);
}

/* Run @body in a child; it fills X.out. Returns the child's X.out in @out. */
static void run(void (*body)(void), double *out)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		body();
		if (write(p[1], X.out, sizeof X.out) != sizeof X.out)
			_exit(4);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], out, sizeof X.out), (ssize_t)sizeof X.out);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- uncontended, and the bounce when the holder's CPU changes ---- */

static void a_uncontended(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	mm_spin_lock(&X.k, t, &X.l);
	X.out[0] = t->tm.pending;            /* one locked RMW, no bounce (first holder) */
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[1] = simgrid_get_clock();      /* 100 ns paid at the unlock */
	mm_spin_lock(&X.k, t, &X.l);         /* same CPU again: no bounce */
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[2] = simgrid_get_clock();
}

static void b_after(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	sg_actor_sleep_for(1e-6);
	mm_spin_lock(&X.k, t, &X.l);         /* other CPU: RMW + line transfer */
	X.out[3] = t->tm.pending;
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[4] = (double)X.l.acquisitions;
	X.out[5] = (double)X.l.contended;
	X.out[6] = (double)X.l.bounces;
}

static void body_uncontended(void)
{
	setup(2);
	start(0, a_uncontended);
	start(1, b_after);
	simgrid_run();
}

static void test_uncontended_and_bounce(void **state)
{
	double o[NOUT];
	run(body_uncontended, o);
	assert_true(o[0] == 100.0);
	assert_true(o[1] > 99e-9 && o[1] < 101e-9);
	assert_true(o[2] > 199e-9 && o[2] < 201e-9);
	assert_true(o[3] == 300.0);          /* 100 cycles RMW + 200 cycles line transfer */
	assert_int_equal((int)o[4], 3);
	assert_int_equal((int)o[5], 0);
	assert_int_equal((int)o[6], 1);
}

/* ---- contended: B waits exactly until A releases ---- */

static void a_hold(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	mm_spin_lock(&X.k, t, &X.l);         /* at 0 */
	mm_charge(t, 900);                   /* hold: 100 + 900 = 1000 cycles */
	mm_spin_unlock(&X.k, t, &X.l);       /* released at 1 us */
	X.out[0] = simgrid_get_clock();
	X.out[8] = t->tm.pending;            /* the invalidation round, not yet paid */
}

static void b_wait(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	sg_actor_sleep_for(0.4e-6);          /* asks while A holds it */
	mm_spin_lock(&X.k, t, &X.l);
	X.out[1] = simgrid_get_clock();      /* when B got it */
	X.out[2] = X.l.wait_s;
	X.out[7] = (double)t->line_bytes;    /* hand-off traffic for B's next copy */
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[3] = (double)X.l.contended;
}

static void body_contended(void)
{
	setup(2);
	start(0, a_hold);
	start(1, b_wait);
	simgrid_run();
}

static void test_contended_waits_for_release(void **state)
{
	double o[NOUT];
	run(body_contended, o);
	assert_true(o[0] > 999e-9 && o[0] < 1001e-9);
	/* W = 1 (B spins): B's re-read of the lock line (200 ns) and its RMW's read
	 * for ownership (200 ns): B has it 400 ns after the release, at 1.4 us */
	assert_true(o[1] > o[0] + 399e-9 && o[1] < o[0] + 401e-9);
	assert_true(o[2] > 0.999e-6 && o[2] < 1.001e-6);           /* asked at 0.4 us */
	assert_int_equal((int)o[3], 1);
	assert_int_equal((int)o[7], 2 * 64);   /* 2W lines: the re-read and the RMW */
	assert_true(o[8] == 200.0);            /* A's store invalidated B's copy: 200 cycles */
}

/* machine.costs.line_transfer (500 ns) replaces mem_latency for the line */
static void body_uncontended_lt(void)
{
	setup(2);
	X.costs.line_transfer = 500e-9;
	start(0, a_uncontended);
	start(1, b_after);
	simgrid_run();
}

static void body_contended_lt(void)
{
	setup(2);
	X.costs.line_transfer = 500e-9;
	start(0, a_hold);
	start(1, b_wait);
	simgrid_run();
}

static void test_line_transfer(void **state)
{
	double o[NOUT];
	run(body_uncontended_lt, o);
	assert_true(o[3] == 600.0);          /* 100 cycles RMW + 500 cycles line transfer */
	assert_int_equal((int)o[6], 1);
	run(body_contended_lt, o);
	/* W = 1: B's re-read (500 ns) and its RMW (500 ns): 1 us after the release */
	assert_true(o[1] > o[0] + 999e-9 && o[1] < o[0] + 1001e-9);
	assert_true(o[2] > 1.599e-6 && o[2] < 1.601e-6);           /* asked at 0.4 us */
	assert_int_equal((int)o[7], 2 * 64);
	assert_true(o[8] == 500.0);            /* the invalidation round: 500 cycles */
}

/* ---- unfair hand-off: the releasing CPU asks again at once and wins ---- */

static void a_twice(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	mm_spin_lock(&X.k, t, &X.l);
	mm_charge(t, 900);
	mm_spin_unlock(&X.k, t, &X.l);       /* B is waiting and is woken ... */
	mm_spin_lock(&X.k, t, &X.l);         /* ... but A takes the lock first */
	X.out[5] = simgrid_get_clock();
	mm_charge(t, 900);
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[6] = simgrid_get_clock();
}

static void body_unfair(void)
{
	setup(2);
	start(0, a_twice);
	start(1, b_wait);
	simgrid_run();
	X.out[4] = (double)X.l.acquisitions;
}

static void test_unfair_handoff(void **state)
{
	double o[NOUT];
	run(body_unfair, o);
	print_message("A re-took at %.9g, released at %.9g; B got it at %.9g after %.9g s\n",
		      o[5], o[6], o[1], o[2]);
	/* A releases at 1 us and pays its invalidation round of B's copy (200 ns)
	 * when it asks again: it re-takes the lock at 1.2 us, before B, whose re-read
	 * and RMW (W = 1: 400 ns) end at 1.4 us, finds it held and spins again */
	assert_true(o[5] > 1.199e-6 && o[5] < 1.201e-6);
	assert_true(o[6] > 2.199e-6 && o[6] < 2.201e-6);   /* + 100 RMW + 900: 2.2 us */
	/* the second release: W = 1 again, B has it 400 ns later, at 2.6 us */
	assert_true(o[1] > o[6] + 399e-9 && o[1] < o[6] + 401e-9);
	assert_true(o[2] > 2.199e-6 && o[2] < 2.201e-6);   /* B waited 2.2 us from 0.4 */
	assert_int_equal((int)o[3], 1);
	assert_int_equal((int)o[4], 3);
	assert_int_equal((int)o[7], 2 * 2 * 64);   /* two hand-offs of W = 1: 2 lines each */
}

/* ---- three CPUs: each spinner's re-read is one more transfer ---- */

static void c_wait(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	sg_actor_sleep_for(0.6e-6);          /* asks after B, while A holds it */
	mm_spin_lock(&X.k, t, &X.l);
	X.out[9] = simgrid_get_clock();
	X.out[10] = (double)t->line_bytes;
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[11] = (double)X.l.contended;
}

static void b_wait_hold(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	sg_actor_sleep_for(0.4e-6);
	mm_spin_lock(&X.k, t, &X.l);
	X.out[1] = simgrid_get_clock();
	X.out[7] = (double)t->line_bytes;
	mm_charge(t, 900);                   /* hold: 100 + 900 = 1000 cycles */
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[3] = simgrid_get_clock();
	X.out[4] = t->tm.pending;
}

static void body_three(void)
{
	setup(3);
	start(0, a_hold);
	start(1, b_wait_hold);
	start(2, c_wait);
	simgrid_run();
	X.out[12] = X.l.wait_s;
	X.out[13] = (double)X.l.bounces;
}

static void test_spinners_shape_handoff(void **state)
{
	double o[NOUT];
	run(body_three, o);
	/* A releases at 1 us with B and C spinning (W = 2): the invalidation round
	 * of their two copies is one transfer for A (200 cycles) */
	assert_true(o[0] > 999e-9 && o[0] < 1001e-9);
	assert_true(o[8] == 200.0);
	/* B's and C's re-reads (2 x 200 ns) and B's RMW (200 ns): B has it at 1.6 us;
	 * 2W = 4 lines of traffic */
	assert_true(o[1] > 1.599e-6 && o[1] < 1.601e-6);
	assert_int_equal((int)o[7], 4 * 64);
	/* B holds 1000 cycles: releases at 2.6 us with C alone spinning (W = 1) and
	 * pays one invalidation round */
	assert_true(o[3] > 2.599e-6 && o[3] < 2.601e-6);
	assert_true(o[4] == 200.0);
	/* C: its re-read and RMW, 400 ns: 3.0 us; 2 lines */
	assert_true(o[9] > 2.999e-6 && o[9] < 3.001e-6);
	assert_int_equal((int)o[10], 2 * 64);
	assert_int_equal((int)o[11], 2);
	/* waits: B 1.6 - 0.4 = 1.2 us, C 3.0 - 0.6 = 2.4 us */
	assert_true(o[12] > 3.599e-6 && o[12] < 3.601e-6);
	assert_int_equal((int)o[13], 2);   /* the line came over at each hand-off */
}

/* ---- slack: bookings out of host order ---- */

static void a_ahead(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	mm_charge(t, 3000);                  /* 3 us of work: no payment (slack) */
	mm_spin_lock(&X.k, t, &X.l);         /* at 3 us */
	mm_charge(t, 900);
	mm_spin_unlock(&X.k, t, &X.l);       /* hold [3 us, 4 us) booked */
	X.out[0] = simgrid_get_clock();      /* 0: nothing paid yet */
	X.out[1] = (double)t->tm.executes;
	mm_sync(t);
}

static double b_start;   /* B's work before it asks, cycles */

static void b_behind(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	X.out[2] = (double)X.l.acquisitions;   /* A has been and gone */
	mm_charge(t, b_start);
	mm_spin_lock(&X.k, t, &X.l);
	X.out[3] = tm_now(&t->tm);           /* when B holds it */
	mm_charge(t, 900);
	mm_spin_unlock(&X.k, t, &X.l);
	X.out[4] = tm_now(&t->tm);           /* when B's hold is over */
	X.out[5] = (double)X.l.contended;
	X.out[6] = X.l.wait_s;
	X.out[7] = (double)X.l.bounces;
	X.out[8] = X.l.hold_s;
	X.out[9] = (double)t->line_bytes;    /* the hand-off's lines for the bus */
	mm_sync(t);
}

static void body_slack(void)
{
	setup_slack(2, 10e-6);
	start(0, a_ahead);
	start(1, b_behind);
	simgrid_run();
}

static void test_slack_out_of_order(void **state)
{
	double o[NOUT];
	/* B asks at 3.5 us, inside A's hold: it waits until 4 us and the
	 * hand-off with one spinner (its re-read and its RMW: 2 x 200 ns), 0.9 us
	 * in all, two lines for the bus; after its RMW (100 ns) it is at 4.5 us,
	 * and it holds 1000 cycles in all */
	b_start = 3500;
	run(body_slack, o);
	assert_true(o[0] == 0);
	assert_int_equal((int)o[1], 0);
	assert_int_equal((int)o[2], 1);
	assert_true(o[3] > 4.499e-6 && o[3] < 4.501e-6);
	assert_true(o[4] > 5.399e-6 && o[4] < 5.401e-6);
	assert_int_equal((int)o[5], 1);
	assert_true(o[6] > 0.899e-6 && o[6] < 0.901e-6);
	assert_int_equal((int)o[9], 2 * 64);
	assert_int_equal((int)o[7], 1);                    /* the line came over once */
	assert_true(o[8] > 1.999e-6 && o[8] < 2.001e-6);   /* 1 us each */

	/* B asks at 2.5 us, before A's hold, and gets it at once: RMW and the line
	 * from A's CPU (the last holder B knows of) take it to 2.8 us, and its
	 * 1,200 cycles of hold to 3.7 us, into
	 * A's hold.  At its release B takes the wait: after A's hold (4 us) and the
	 * hand-off (2 x 200 ns), B's hold is [4.4, 5.6) us: 1.9 us of waiting */
	b_start = 2500;
	run(body_slack, o);
	assert_true(o[3] > 2.799e-6 && o[3] < 2.801e-6);
	assert_true(o[4] > 5.599e-6 && o[4] < 5.601e-6);
	assert_int_equal((int)o[5], 1);
	assert_true(o[6] > 1.899e-6 && o[6] < 1.901e-6);
	assert_int_equal((int)o[7], 1);
	assert_int_equal((int)o[9], 2 * 64);

	/* B asks at 4.5 us, after A's hold: no wait, only the RMW and the line */
	b_start = 4500;
	run(body_slack, o);
	assert_true(o[3] > 4.799e-6 && o[3] < 4.801e-6);
	assert_true(o[4] > 5.699e-6 && o[4] < 5.701e-6);
	assert_int_equal((int)o[5], 0);
	assert_true(o[6] == 0);
	assert_int_equal((int)o[7], 1);
	assert_int_equal((int)o[9], 0);   /* no hand-off traffic */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uncontended_and_bounce),
		cmocka_unit_test(test_contended_waits_for_release),
		cmocka_unit_test(test_unfair_handoff),
		cmocka_unit_test(test_line_transfer),
		cmocka_unit_test(test_spinners_shape_handoff),
		cmocka_unit_test(test_slack_out_of_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
