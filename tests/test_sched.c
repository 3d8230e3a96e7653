/*
 * test_sched.c - the CPU scheduler model (models/sched/sched.c).
 *
 * Each case runs SimGrid in a forked child (SimGrid runs once per process) on
 * hosts of 1 GHz, so one cycle is one nanosecond.  Work is given in ms (1e6
 * cycles); the context-switch cost is 1000 cycles = 1 us.  Cases: tasks <= CPUs
 * (no waits, exact idle time); 2 tasks per CPU in round robin (exact elapsed time
 * and switch counts); block/wake (voluntary switch, the CPU runs another task
 * meanwhile); wake-up placement (idle CPU vs previous CPU); a woken task pulled
 * by the balancer before it runs (sched_wake returns its new CPU); idle load balancing
 * (3 tasks on cpu0 of 2 CPUs); the balancer tick's phase (cfg.tick_phase, a
 * source of run-to-run variance: the same case with the ticks shifted by half a
 * period); determinism (two runs, identical counters).
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
#include "models/sched/sched.h"

#define NOUT 64
#define NT 8
#define MS 1e6            /* cycles per ms at 1 GHz */
#define EPS 1e-9          /* seconds */

struct ctx {
	struct sched s;
	struct sched_task t[NT];
	double work[NT];      /* cycles */
	double sleep_at[NT];  /* cycles of work before a block, 0 = never */
	double sleep_s[NT];
	char host_after[NT][16];
	int woke_cpu[NT];     /* what sched_wake returned */
	double out[NOUT];
};

static struct ctx X;   /* one per child process */
static int sync_to = -1;    /* task A's wake-up is a sync one from this CPU (-1: none) */
static bool affine;         /* cfg.wake_affine for setup() */
static double tick_phase;   /* cfg.tick_phase for setup() (set by a body before it) */

static void setup(int ncpu, double slice_s, double balance_s)
{
	memset(&X, 0, sizeof X);
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
	struct sched_cfg c;
	sched_cfg_default(&c, ncpu, 1e9);
	c.slice_s = slice_s;
	c.balance_s = balance_s;
	c.cs_cycles = 1000;
	c.tick_phase = tick_phase;
	if (affine) {
		c.wake_affine = true;
		c.wake_idle = false;
	}
	if (sched_init(&X.s, &c))
		_exit(5);
}

/* A task: start, run sleep_at cycles, block for sleep_s, wake, run the rest, exit. */
static void task_fn(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct sched_task *t = sg_actor_self_get_data();
	int i = (int)(t - X.t);
	sched_start(&X.s, t);
	double w = X.work[i];
	if (X.sleep_at[i] > 0) {
		sched_run(&X.s, t, X.sleep_at[i]);
		w -= X.sleep_at[i];
		sched_block(&X.s, t);
		sg_actor_sleep_for(X.sleep_s[i]);
		if (i == 0 && sync_to >= 0)
			sched_wake_sync(t, sync_to);
		X.woke_cpu[i] = sched_wake(&X.s, t);
	}
	sched_run(&X.s, t, w);
	snprintf(X.host_after[i], sizeof X.host_after[i], "%s",
		 sg_host_get_name(sg_actor_get_host(sg_actor_self())));
	sched_exit(&X.s, t);
}

static void start(int i, int cpu, double work_ms)
{
	static const char *names[NT] = {"A", "B", "C", "D", "E", "F", "G", "H"};
	sched_task_init(&X.s, &X.t[i], cpu, names[i]);
	X.work[i] = work_ms * MS;
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	sg_actor_t a = sg_actor_init(names[i], sg_host_by_name(host));
	sg_actor_set_data(a, &X.t[i]);
	sg_actor_start(a, task_fn, 0, NULL);
}

/* Per task i: out[6i..6i+5] = finish, nvcsw, nivcsw, migrations, run, wait;
 * out[60..63] = elapsed, idle, switches, migrations of the whole machine. */
static void collect(int n)
{
	for (int i = 0; i < n; i++) {
		struct sched_task *t = &X.t[i];
		X.out[6 * i] = t->finish_s;
		X.out[6 * i + 1] = (double)t->nvcsw;
		X.out[6 * i + 2] = (double)t->nivcsw;
		X.out[6 * i + 3] = (double)t->migrations;
		X.out[6 * i + 4] = t->run_s;
		X.out[6 * i + 5] = t->wait_s;
	}
	X.out[60] = sched_elapsed_s(&X.s);
	X.out[61] = sched_idle_s(&X.s);
	X.out[62] = (double)X.s.switches;
	X.out[63] = (double)X.s.migrations;
	for (int i = 0; i < n; i++)
		sched_task_destroy(&X.t[i]);
	sched_destroy(&X.s);
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

#define assert_near(a, b) do {                                          \
		double a_ = (a), b_ = (b);                              \
		if (!(a_ > b_ - EPS && a_ < b_ + EPS))                  \
			fail_msg("%s = %.12g, expected %.12g", #a, a_, b_); \
	} while (0)

#define FIN(i) o[6 * (i)]
#define NVCSW(i) o[6 * (i) + 1]
#define NIVCSW(i) o[6 * (i) + 2]
#define MIGR(i) o[6 * (i) + 3]
#define RUN(i) o[6 * (i) + 4]
#define WAIT(i) o[6 * (i) + 5]

/* ---- (1) N <= M: no waits, exact finish, idle = M x elapsed - work ---- */

static void body_underload(void)
{
	setup(3, 10e-3, 1e-3);
	start(0, 0, 5);
	start(1, 1, 7);
	simgrid_run();
	collect(2);
}

static void test_underload(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_underload, o);
	assert_near(FIN(0), 5e-3);
	assert_near(FIN(1), 7e-3);
	for (int i = 0; i < 2; i++) {
		assert_true(NIVCSW(i) == 0 && NVCSW(i) == 0 && MIGR(i) == 0);
		assert_near(WAIT(i), 0);
	}
	assert_near(o[60], 7e-3);
	assert_near(o[61], 3 * 7e-3 - 12e-3);
	assert_true(o[62] == 0);
}

/* ---- (2) N = 2M, round robin: X [0,10] Y [10.001,20.001] X [20.002,30.002]
 * Y [30.003,40.003] on each CPU; elapsed = 2 x work + 3 switches ---- */

static void body_rr(void)
{
	setup(2, 10e-3, 0);
	for (int i = 0; i < 4; i++)
		start(i, i % 2, 20);   /* A, C on cpu0; B, D on cpu1 */
	simgrid_run();
	collect(4);
}

static void test_round_robin(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_rr, o);
	assert_near(o[60], 2 * 20e-3 + 3e-6);
	assert_near(FIN(0), 30.002e-3);
	assert_near(FIN(1), 30.002e-3);
	assert_near(FIN(2), 40.003e-3);
	assert_near(FIN(3), 40.003e-3);
	for (int i = 0; i < 4; i++) {
		assert_true(NIVCSW(i) == 1);
		assert_true(NVCSW(i) == 0);
		assert_near(RUN(i), 20e-3);
	}
	assert_near(WAIT(0), 10.001e-3);   /* 10 .. 20.001 */
	assert_near(WAIT(2), 20.001e-3);   /* 0 .. 10, 20.001 .. 30.002 */
	assert_true(o[62] == 6);
	assert_near(o[61], 2 * 40.003e-3 - 80e-3 - 6e-6);   /* busy = work + switches */
}

/* ---- (3) block/wake: A runs 2 ms, sleeps 5 ms; B runs meanwhile on cpu0 ---- */

static void body_sleep(void)
{
	setup(1, 100e-3, 1e-3);
	start(0, 0, 3);
	X.sleep_at[0] = 2 * MS;
	X.sleep_s[0] = 5e-3;
	start(1, 0, 10);
	simgrid_run();
	collect(2);
}

static void test_block_wake(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_sleep, o);
	/* A [0,2]; B (switch) [2.001,12.001]; A woke at 7, waits, (switch) [12.002,13.002] */
	assert_near(FIN(1), 12.001e-3);
	assert_near(FIN(0), 13.002e-3);
	assert_true(NVCSW(0) == 1 && NIVCSW(0) == 0);
	assert_true(NVCSW(1) == 0 && NIVCSW(1) == 0);
	assert_near(WAIT(0), 5.001e-3);
	assert_near(WAIT(1), 2e-3);
	assert_near(o[61], 0);             /* the CPU never idled */
	assert_true(o[62] == 2);
}

/* ---- (4) wake-up placement ---- */

static void body_wake_idle(void)
{
	/* A on cpu0 runs 1 ms and sleeps 1 ms; B takes cpu0 for 10 ms; A wakes at 2 ms
	 * with cpu0 busy and cpu1 idle: it goes to cpu1 and ends at 3 ms */
	setup(2, 100e-3, 0);
	start(0, 0, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 1e-3;
	start(1, 0, 10);
	simgrid_run();
	collect(2);
	X.out[20] = strcmp(X.host_after[0], "cpu1") == 0;
}

static void test_wake_to_idle_cpu(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_wake_idle, o);
	assert_near(FIN(0), 3e-3);
	assert_true(MIGR(0) == 1);
	assert_true(o[20] == 1);
	assert_near(FIN(1), 11.001e-3);
	assert_near(WAIT(0), 0);
}

static void body_wake_prev(void)
{
	/* A alone on cpu1 sleeps and wakes while cpu0 is idle too: stays on cpu1 */
	setup(2, 100e-3, 0);
	start(0, 1, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 1e-3;
	simgrid_run();
	collect(1);
	X.out[20] = strcmp(X.host_after[0], "cpu1") == 0;
}

static void test_wake_to_prev_cpu(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_wake_prev, o);
	assert_near(FIN(0), 3e-3);
	assert_true(MIGR(0) == 0);
	assert_true(NVCSW(0) == 1);
	assert_true(o[20] == 1);
}

static void body_wake_shortest(void)
{
	/* no idle CPU: cpu0 runs B with C queued, cpu1 runs D alone; A (prev cpu0)
	 * wakes at 2 ms and joins cpu1's queue, behind D (ends 10 ms) */
	setup(2, 100e-3, 0);
	start(0, 0, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 1e-3;
	start(1, 0, 10);
	start(2, 0, 10);
	start(3, 1, 10);
	simgrid_run();
	collect(4);
	X.out[20] = strcmp(X.host_after[0], "cpu1") == 0;
}

static void test_wake_to_shortest_queue(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_wake_shortest, o);
	assert_true(MIGR(0) == 1);
	assert_true(o[20] == 1);
	assert_near(FIN(3), 10e-3);
	assert_near(FIN(0), 11.001e-3);    /* switch D -> A, then 1 ms */
}

/* ---- (4a) wake_affine (2.6.10 try_to_wake_up).  A on cpu0 runs 1 ms, sleeps
 * @sleep_ms, is woken sync by B running on cpu1 (10 ms) and has 1 ms left.
 * Cold (slept 5 ms >= cache_hot 2.5 ms): pulled to cpu1 behind B (B is not
 * preempted: sync), so A ends at 10 ms + switch + 1 ms; no balancer.  With C
 * queued on cpu1 too (cpu1 busier, A's cpu0 idle): not pulled off an idle
 * CPU onto a busy one, A ends at 7 ms on cpu0.  Without wake_affine: cpu0. */
static void body_affine_cold(void)
{
	setup(3, 100e-3, 0);
	start(0, 0, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 5e-3;
	start(1, 1, 10);
	simgrid_run();
	collect(2);
	X.out[20] = X.woke_cpu[0];
	X.out[22] = (double)X.s.affine_wakeups;
}

static void body_affine_busy(void)
{
	setup(3, 100e-3, 0);
	start(0, 0, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 5e-3;
	start(1, 1, 10);
	start(2, 1, 10);
	simgrid_run();
	collect(3);
	X.out[20] = X.woke_cpu[0];
	X.out[22] = (double)X.s.affine_wakeups;
}

static void test_wake_affine(void **state)
{
	(void)state;
	double o[NOUT];
	sync_to = 1;
	affine = true;
	run(body_affine_cold, o);
	assert_true(o[20] == 1);
	assert_true(o[22] == 1);
	assert_near(FIN(0), 11.001e-3);
	run(body_affine_busy, o);
	assert_true(o[20] == 0);
	assert_true(o[22] == 0);
	assert_near(FIN(0), 7e-3);
	affine = false;
	run(body_affine_cold, o);
	assert_true(o[20] == 0);
	assert_near(FIN(0), 7e-3);
	sync_to = -1;
}

/* ---- (4b) a woken task queued on its busy CPU is pulled by the balancer
 * before it runs: sched_wake must return the CPU it got, not the one it queued
 * on (a stale CPU made reaim tasks use another CPU's pagevec).  cpu0: A [0,1]
 * blocks for 0.5 ms, B [1,11]; cpu1: D [0,3.5].  A wakes at 1.5 ms: no idle CPU,
 * equal queues, so it queues on its previous cpu0 behind B.  The 4 ms tick
 * finds cpu1 idle and pulls A there: A runs [4,5] on cpu1. ---- */

static void body_wake_then_balanced(void)
{
	setup(2, 100e-3, 1e-3);
	start(0, 0, 2);
	X.sleep_at[0] = 1 * MS;
	X.sleep_s[0] = 0.5e-3;
	start(1, 0, 10);
	start(3, 1, 3.5);
	simgrid_run();
	collect(4);
	X.out[20] = X.woke_cpu[0];
	X.out[21] = strcmp(X.host_after[0], "cpu1") == 0;
}

static void test_wake_then_balanced(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_wake_then_balanced, o);
	assert_true(o[20] == 1);          /* the CPU it owns after waiting */
	assert_true(o[21] == 1);
	assert_true(MIGR(0) == 1);        /* the balancer's move */
	assert_near(FIN(0), 5e-3);
	assert_near(FIN(3), 3.5e-3);
}

/* ---- (5) idle balancing: A, B, C on cpu0 of 2 CPUs, slice 10 ms, tick 3 ms.
 * 3 ms: C (tail) pulled to cpu1, runs [3,23].  cpu0: A [0,10], B [10.001,20.001],
 * A [20.002,30.002].  24 ms: B (queued) pulled to cpu1, runs [24,34]. ---- */

static void body_balance(void)
{
	setup(2, 10e-3, 3e-3);
	for (int i = 0; i < 3; i++)
		start(i, 0, 20);
	simgrid_run();
	collect(3);
	X.out[20] = (double)X.s.balance_moves;
}

static void test_balance(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_balance, o);
	assert_near(FIN(2), 23e-3);
	assert_near(FIN(0), 30.002e-3);
	assert_near(FIN(1), 34e-3);
	assert_true(MIGR(2) == 1 && MIGR(1) == 1 && MIGR(0) == 0);
	assert_true(NIVCSW(0) == 1 && NIVCSW(1) == 1 && NIVCSW(2) == 0);
	assert_near(WAIT(2), 3e-3);
	assert_true(o[20] == 2);
	assert_near(o[60], 34e-3);
	assert_near(o[61], 2 * 34e-3 - 60e-3 - 2e-6);
}

/* ---- (5b) tick phase 0.5: the same, with ticks at 1.5, 4.5, ... 22.5 ms.
 * 1.5 ms: C pulled to cpu1, runs [1.5,21.5].  cpu0 as before.  22.5 ms: B
 * (queued since 20.001) pulled to the idle cpu1, runs [22.5,32.5]. ---- */

static void body_balance_phase(void)
{
	tick_phase = 0.5;
	body_balance();
}

static void test_balance_tick_phase(void **state)
{
	(void)state;
	double o[NOUT];
	run(body_balance_phase, o);
	assert_near(FIN(2), 21.5e-3);
	assert_near(FIN(0), 30.002e-3);
	assert_near(FIN(1), 32.5e-3);
	assert_near(WAIT(2), 1.5e-3);
	assert_true(MIGR(2) == 1 && MIGR(1) == 1 && MIGR(0) == 0);
	assert_true(o[20] == 2);
	/* default phase 0 keeps the fixed tick (test_balance), and the sched_cfg default is 0 */
	struct sched_cfg c;
	sched_cfg_default(&c, 2, 1e9);
	assert_true(c.tick_phase == 0);
}

/* ---- (6) determinism ---- */

static void test_determinism(void **state)
{
	(void)state;
	double a[NOUT], b[NOUT];
	run(body_balance, a);
	run(body_balance, b);
	assert_memory_equal(a, b, sizeof a);
	run(body_rr, a);
	run(body_rr, b);
	assert_memory_equal(a, b, sizeof a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_underload),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_block_wake),
		cmocka_unit_test(test_wake_to_idle_cpu),
		cmocka_unit_test(test_wake_to_prev_cpu),
		cmocka_unit_test(test_wake_to_shortest_queue),
		cmocka_unit_test(test_wake_affine),
		cmocka_unit_test(test_wake_then_balanced),
		cmocka_unit_test(test_balance),
		cmocka_unit_test(test_balance_tick_phase),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
