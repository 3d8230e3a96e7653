/*
 * test_timemodel.c - the pending-cycle time model against quantum 0.
 *
 * N actors on N CPUs contend for one lock: each loop charges many small pieces of
 * local work, takes the lock (a synchronisation point: pending cycles are paid
 * first), holds it for some cycles and releases it.  With a quantum of 10 us every
 * actor must finish within one quantum of the reference run (quantum 0, where every
 * charge is paid at once).  Each SimGrid run happens in its own child process.
 *
 * Lookahead: three actors in a tm_world (two that work and observe, one that sleeps
 * on a semaphore until the first wakes it) log every observation point with their
 * own time.  With lookahead the log, in the order things happened on the host, must
 * be in time order (nobody saw anything out of order), the finish times must be the
 * reference's, and far fewer payments must have been made; an actor outside the
 * world turns lookahead off.
 */
#include <setjmp.h>
#include <math.h>
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
#include <simgrid/semaphore.h>

#include "emu/engine/engine.h"
#include "emu/core/timemodel.h"

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

/* In a child: start SimGrid on a platform of @cpus CPUs at CLOCK. */
static void child_platform(int cpus)
{
	struct machine_cfg m;
	memset(&m, 0, sizeof m);
	m.cpus = cpus;
	m.clock = CLOCK;
	char plat[512];
	if (sim_write_platform(&m, plat, sizeof plat))
		_exit(3);
	sim_simgrid_init();
	simgrid_load_platform(plat);
	unlink(plat);
}

/* Run @body(@arg) in a child process (each SimGrid run needs its own), which
 * fills @len bytes at @out; the parent gets them back.  Returns: nothing (fails
 * the test if the child does not exit 0). */
static void in_child(void (*body)(void *arg, void *out), void *arg, void *out, size_t len)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		body(arg, out);
		if (write(p[1], out, len) != (ssize_t)len)
			_exit(4);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], out, len), (ssize_t)len);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

struct lc_out {
	double finish[NACT];
	uint64_t executes[NACT];
};

/* The contention experiment with *@arg seconds of quantum (in a child). */
static void lc_body(void *arg, void *out)
{
	struct lc_out *o = out;
	child_platform(NACT);
	quantum_s = *(double *)arg;
	lock = sg_mutex_init();
	for (int i = 0; i < NACT; i++) {
		char host[16], idx[16];
		snprintf(host, sizeof host, "cpu%d", i);
		snprintf(idx, sizeof idx, "%d", i);
		char *av[] = { "w", idx, NULL };
		sg_actor_create("w", sg_host_by_name(host), worker, 2, av);
	}
	simgrid_run();
	memcpy(o->finish, finish, sizeof finish);
	memcpy(o->executes, executes, sizeof executes);
}

/* Run the contention experiment with @q seconds of quantum in a child. */
static void run_child(double q, double *out, uint64_t *ex)
{
	struct lc_out o;
	in_child(lc_body, &q, &o, sizeof o);
	memcpy(out, o.finish, sizeof o.finish);
	memcpy(ex, o.executes, sizeof o.executes);
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

#define LOG_MAX 20000
static struct tm_world world;
static int lone[3] = { 1, 1, 1 };    /* each lookahead actor is alone on its CPU */
static sg_sem_t sleeper_sem;
static struct tm *sleeper_tm;
static double logt[LOG_MAX];
static int nlog, use_world, stray;
static uint64_t deferred[3];

static void note(struct tm *t)
{
	if (nlog < LOG_MAX)
		logt[nlog++] = tm_now(t);
}

static void la_worker(int argc, char **argv)
{
	int id = atoi(argv[1]);
	static struct tm tms[2];   /* outlives the actor: its exit unbinds it */
	struct tm *t = &tms[id];
	tm_init(t, quantum_s, CLOCK);
	tm_bind(t, &lone[id]);
	if (use_world)
		tm_join(t, &world);
	for (int i = 0; i < 300; i++) {
		tm_charge(t, 700.0 + (double)((i * 7919 + id * 104729) % 3000));
		tm_observe(t);
		note(t);
		if (i % 37 == 36) {          /* a pause: a sleep the other side sees coming */
			tm_sync(t);
			t->wake = simgrid_get_clock() + 1e-3 * (id + 1);
			sg_actor_sleep_for(1e-3 * (id + 1));
		}
		if (id == 0 && i == 150) {   /* wake the sleeper: a synchronisation point */
			tm_sync(t);
			tm_woken(&sleeper_tm->wake);
			sg_sem_release(sleeper_sem);
		}
	}
	tm_sync(t);
	finish[id] = simgrid_get_clock();
	executes[id] = t->executes;
	deferred[id] = t->deferred;
}

static void la_sleeper(int argc, char **argv)
{
	static struct tm t;
	tm_init(&t, quantum_s, CLOCK);
	tm_bind(&t, &lone[2]);
	if (use_world)
		tm_join(&t, &world);
	sleeper_tm = &t;
	t.wake = INFINITY;
	sg_sem_acquire(sleeper_sem);
	for (int i = 0; i < 50; i++) {
		tm_charge(&t, 1500);
		tm_observe(&t);
		note(&t);
	}
	tm_sync(&t);
	finish[2] = simgrid_get_clock();
	executes[2] = t.executes;
	deferred[2] = t.deferred;
}

static void la_stray(int argc, char **argv)
{
	sg_actor_sleep_for(1.0);   /* an actor outside the world */
}

struct la_out {
	double finish[3];
	uint64_t executes[3], deferred[3];
	int nlog, sorted;
};

struct la_args {
	double q;
	int in_world, with_stray;
};

/* The lookahead experiment (in a child). */
static void la_body(void *arg, void *out)
{
	const struct la_args *a = arg;
	child_platform(3);
	quantum_s = a->q;
	use_world = a->in_world;
	stray = a->with_stray;
	tm_world_init(&world, 0);
	sleeper_sem = sg_sem_init(0);
	for (int i = 0; i < 2; i++) {
		char host[16], idx[16];
		snprintf(host, sizeof host, "cpu%d", i);
		snprintf(idx, sizeof idx, "%d", i);
		char *av[] = { "w", idx, NULL };
		sg_actor_create("w", sg_host_by_name(host), la_worker, 2, av);
	}
	sg_actor_create("s", sg_host_by_name("cpu2"), la_sleeper, 0, NULL);
	if (stray)
		sg_actor_create("x", sg_host_by_name("cpu2"), la_stray, 0, NULL);
	simgrid_run();
	struct la_out r = { .nlog = nlog, .sorted = 1 };
	for (int i = 1; i < nlog; i++)
		if (logt[i] < logt[i - 1] - 1e-15)
			r.sorted = 0;
	for (int i = 0; i < 3; i++) {
		r.finish[i] = finish[i];
		r.executes[i] = executes[i];
		r.deferred[i] = deferred[i];
	}
	*(struct la_out *)out = r;
}

/* Run the lookahead experiment in a child: quantum @q, actors in a world or not,
 * with or without a stray actor. */
static void run_la(double q, int in_world, int with_stray, struct la_out *o)
{
	struct la_args a = { q, in_world, with_stray };
	in_child(la_body, &a, o, sizeof *o);
}

static void test_lookahead_exact(void **state)
{
	struct la_out ref, la, la0;
	run_la(0, 0, 0, &ref);       /* reference: every charge paid at once */
	run_la(10e-6, 1, 0, &la);    /* lookahead at the default quantum */
	run_la(0, 1, 0, &la0);       /* lookahead at quantum 0 */
	assert_int_equal(ref.nlog, 2 * 300 + 50);
	assert_int_equal(la.nlog, ref.nlog);
	assert_true(ref.sorted);
	assert_true(la.sorted);      /* nobody saw anything out of time order */
	assert_true(la0.sorted);
	for (int i = 0; i < 3; i++) {
		double tol = 1e-12 * ref.finish[i];
		if (la.finish[i] < ref.finish[i] - tol || la.finish[i] > ref.finish[i] + tol ||
		    la0.finish[i] < ref.finish[i] - tol || la0.finish[i] > ref.finish[i] + tol)
			fail_msg("actor %d: %.12f / %.12f s vs reference %.12f s", i, la.finish[i],
				 la0.finish[i], ref.finish[i]);
		assert_int_equal(ref.deferred[i], 0);
		assert_true(la.deferred[i] > 0);
		/* payments only where someone could look: far fewer than the reference
		 * for the workers, which pause long enough for the other to run ahead;
		 * fewer for the sleeper, which runs beside both */
		if (i < 2)
			assert_true(la0.executes[i] * 3 < ref.executes[i]);
		else
			assert_true(la0.executes[i] < ref.executes[i]);
	}
}

static void test_lookahead_off_with_stray_actor(void **state)
{
	struct la_out o;
	run_la(10e-6, 1, 1, &o);     /* an actor outside the world: no lookahead */
	for (int i = 0; i < 3; i++)
		assert_int_equal(o.deferred[i], 0);
}

/* tm_bind's count: an actor that paid gives its CPU back when it exits, so the
 * next one bound there pays alone; one that never paid stays counted. */
static int bound;
static int seen[3];
static struct tm btm[3];

static void bound_actor(int argc, char **argv)
{
	int id = atoi(argv[1]);
	sg_actor_sleep_for(id);   /* one after the other: 0 s, 1 s, 2 s */
	tm_init(&btm[id], 10e-6, CLOCK);
	bound++;
	tm_bind(&btm[id], &bound);
	seen[id] = bound;
	if (id < 2) {             /* actor 2 exits without paying */
		tm_charge(&btm[id], 1000);
		tm_sync(&btm[id]);
	}
}

/* The three bound actors (in a child): what each saw, then the count. */
static void bound_body(void *arg, void *out)
{
	(void)arg;
	child_platform(1);
	for (int i = 0; i < 3; i++) {
		char idx[16];
		snprintf(idx, sizeof idx, "%d", i);
		char *av[] = { "b", idx, NULL };
		sg_actor_create("b", sg_host_by_name("cpu0"), bound_actor, 2, av);
	}
	simgrid_run();
	int *r = out;
	r[0] = seen[0];
	r[1] = seen[1];
	r[2] = seen[2];
	r[3] = bound;
}

static void test_bound_count_returns_on_exit(void **state)
{
	int r[4];
	in_child(bound_body, NULL, r, sizeof r);
	assert_int_equal(r[0], 1);   /* alone */
	assert_int_equal(r[1], 1);   /* alone again: actor 0 gave its place back */
	assert_int_equal(r[2], 1);
	assert_int_equal(r[3], 1);   /* actor 2 never paid: still counted */
}

/* A waker's own lookahead after it wakes someone: actor A looks ahead while the
 * sleeper S waits (+inf), so its room reaches to the run's end; then A wakes S
 * without paying first (as a lock release does before charging the store that
 * invalidates the spinners' copies) and charges more.  S can act from A's clock
 * on, so A's next observation point must pay: a room taken before the wake does
 * not hold after it (tm_wake_epoch).  Out: A's pending cycles after its first
 * observation (deferred) and after its second (0: paid), and when S ran. */
static struct tm ew_tm[2];
static sg_sem_t ew_sem;
static double ew_out[4];

static void ew_waker(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct tm *t = &ew_tm[0];
	tm_init(t, 0, CLOCK);
	tm_bind(t, &lone[0]);
	tm_join(t, &world);
	sg_actor_sleep_for(1e-3);        /* S is asleep by now */
	tm_charge(t, 5000);
	tm_observe(t);
	ew_out[0] = t->pending;          /* deferred: S cannot act */
	tm_woken(&ew_tm[1].wake);
	sg_sem_release(ew_sem);
	tm_charge(t, 5000);
	tm_observe(t);
	ew_out[1] = t->pending;          /* paid: S may act from the wake on */
	tm_sync(t);
}

static void ew_sleeper(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct tm *t = &ew_tm[1];
	tm_init(t, 0, CLOCK);
	tm_bind(t, &lone[1]);
	tm_join(t, &world);
	t->wake = INFINITY;
	sg_sem_acquire(ew_sem);
	ew_out[2] = simgrid_get_clock();
	tm_sync(t);
}

static void ew_body(void *arg, void *out)
{
	(void)arg;
	child_platform(2);
	tm_world_init(&world, 0);
	ew_sem = sg_sem_init(0);
	sg_actor_create("a", sg_host_by_name("cpu0"), ew_waker, 0, NULL);
	sg_actor_create("s", sg_host_by_name("cpu1"), ew_sleeper, 0, NULL);
	simgrid_run();
	memcpy(out, ew_out, sizeof ew_out);
}

static void test_lookahead_not_past_own_wake(void **state)
{
	(void)state;
	double r[4];
	in_child(ew_body, NULL, r, sizeof r);
	assert_true(r[0] == 5000);   /* the first observation deferred its cycles */
	assert_true(r[1] == 0);      /* the second, after the wake, paid */
	/* S woke at A's clock (A had not paid the first 5000 cycles) */
	assert_true(fabs(r[2] - 1e-3) < 1e-12);
}

/* tm_world_add reuses the slot of a peer that has exited (the lowest), so a
 * workload that starts thousands of short-lived processes stays under the cap;
 * a full world with no dead peer refuses. */
static void test_world_reuses_dead_slots(void **state)
{
	(void)state;
	static struct tm_world w;
	double wake[TM_MAX_PEERS + 2];
	tm_world_init(&w, 0);
	for (int i = 0; i < TM_MAX_PEERS; i++)
		assert_int_equal(tm_world_add(&w, &wake[i]), i);
	assert_int_equal(tm_world_add(&w, &wake[TM_MAX_PEERS]), -1);
	w.peer[7].dead = w.peer[3].dead = 1;   /* as peer_exit marks them */
	w.ndead = 2;
	uint64_t e = tm_wake_epoch;
	assert_int_equal(tm_world_add(&w, &wake[TM_MAX_PEERS]), 3);
	assert_true(tm_wake_epoch > e);          /* a new peer: no room taken before holds */
	assert_int_equal(tm_world_add(&w, &wake[TM_MAX_PEERS + 1]), 7);
	assert_int_equal((int)w.n, TM_MAX_PEERS);
	assert_int_equal((int)w.ndead, 0);
	assert_false(w.peer[3].dead || w.peer[3].hooked);
	assert_ptr_equal(w.peer[7].wake, &wake[TM_MAX_PEERS + 1]);
	assert_int_equal(tm_world_add(&w, &wake[0]), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_contention_within_quantum),
		cmocka_unit_test(test_lookahead_exact),
		cmocka_unit_test(test_lookahead_off_with_stray_actor),
		cmocka_unit_test(test_bound_count_returns_on_exit),
		cmocka_unit_test(test_lookahead_not_past_own_wake),
		cmocka_unit_test(test_world_reuses_dead_slots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
