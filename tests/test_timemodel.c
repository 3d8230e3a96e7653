/*
 * test_timemodel.c - the pending-cycle time model against quantum 0.
 *
 * N actors on N CPUs contend for one lock: each loop charges many small pieces of
 * local work, takes the lock (a synchronisation point: pending cycles are paid
 * first), holds it for some cycles and releases it.  With a quantum of 10 us every
 * actor must finish within one quantum of the reference run (quantum 0, where every
 * charge is paid at once).  Each SimGrid run happens in its own child process.
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
#include <simgrid/mutex.h>

#include "emu/sim.h"
#include "emu/timemodel.h"

#define NACT 6
#define LOOPS 200
#define CLOCK 1e9

static sg_mutex_t lock;
static double quantum_s;
static double finish[NACT];
static uint64_t executes[NACT];

static void worker(int argc, char **argv)
{
	int id = atoi(argv[1]);
	struct tm t;
	tm_init(&t, quantum_s, CLOCK);
	for (int i = 0; i < LOOPS; i++) {
		/* 37 pieces of local work of uneven size, 100..2000 cycles each */
		for (int k = 0; k < 37; k++)
			tm_charge(&t, 100.0 + (double)((k * 7919 + i * 31 + id * 17) % 1900));
		tm_sync(&t);
		sg_mutex_lock(lock);
		tm_charge(&t, 500.0 + 100.0 * id);
		tm_sync(&t);
		sg_mutex_unlock(lock);
	}
	tm_sync(&t);
	finish[id] = simgrid_get_clock();
	executes[id] = t.executes;
}

/* Run the contention experiment with @q seconds of quantum in a child. */
static void run_child(double q, double *out, uint64_t *ex)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		struct machine_cfg m;
		memset(&m, 0, sizeof m);
		m.cpus = NACT;
		m.clock = CLOCK;
		char plat[512];
		if (sim_write_platform(&m, plat, sizeof plat))
			_exit(3);
		sim_simgrid_init();
		simgrid_load_platform(plat);
		unlink(plat);
		quantum_s = q;
		lock = sg_mutex_init();
		for (int i = 0; i < NACT; i++) {
			char host[16], idx[16];
			snprintf(host, sizeof host, "cpu%d", i);
			snprintf(idx, sizeof idx, "%d", i);
			char *av[] = { "w", idx, NULL };
			sg_actor_create("w", sg_host_by_name(host), worker, 2, av);
		}
		simgrid_run();
		if (write(p[1], finish, sizeof finish) != sizeof finish ||
		    write(p[1], executes, sizeof executes) != sizeof executes)
			_exit(4);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], out, sizeof finish), (ssize_t)sizeof finish);
	assert_int_equal(read(p[0], ex, sizeof executes), (ssize_t)sizeof executes);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_lock_contention_within_quantum(void **state)
{
	double ref[NACT], q[NACT];
	uint64_t ex_ref[NACT], ex_q[NACT];
	run_child(0, ref, ex_ref);
	run_child(10e-6, q, ex_q);
	for (int i = 0; i < NACT; i++) {
		assert_true(ref[i] > 0);
		double err = q[i] > ref[i] ? q[i] - ref[i] : ref[i] - q[i];
		if (err > 10e-6)
			fail_msg("actor %d: %.9f s vs reference %.9f s (error %.3g s > 10 us)", i, q[i],
				 ref[i], err);
		/* and the quantum really batches: far fewer executes than the reference */
		assert_true(ex_q[i] * 5 < ex_ref[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_contention_within_quantum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
