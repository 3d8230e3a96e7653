/*
 * test_dbench.c - the dbench workload (workloads/dbench.c) and the ext2 model
 * (models/fs/ext2.c) on the shipped small loadfile: exact operation, byte and
 * kmap counts per kernel (pkmap: every copy through kmap_high; atomic: the 36
 * pages file reads copy go through kmap_atomic, the rest keep kmap_high), the
 * same counts per client for two clients, mode 4 looping over the loadfile, and
 * two runs identical apart from the host section.
 *
 * The 38-line loadfile's kmaps by hand (a 2 GiB i386 box: the page cache is in
 * HighMem): Mkdir of the first directory 1 (its block written), each of the
 * three directories created by NTCreateX 4 (search of the parent, search and
 * entry write of ext2_add_link, its block), each new file 3, the writes 16 + 16
 * + 1 + 2 pages, FIND_FIRST 1, Rename 5 (search, two entry changes of 2), each
 * Unlink 3, the failed NTCreateX 1: 67 kmap() calls; file reads 15 + 15 + 3 + 1
 * + 2 = 36 pages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/runmmemu.h"

/* One dbench run: kernel "k" is the JSON object @kernel. */
static json_t *run_db_kernel(const char *kernel, const char *wl, const char *engine,
			     const char *machine)
{
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-db-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"dbench test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": 2, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"2GiB\", \"copy_bw\": \"1GB/s\", %s\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"1GB\", \"read\": \"60MB/s\",\n"
		"      \"write\": \"60MB/s\", \"seek_avg\": \"4.9ms\", \"track_to_track\": \"0.3ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"elevator\" } ] },\n"
		"  \"kernels\": { \"k\": %s },\n"
		"  \"workload\": { \"type\": \"dbench\", \"check\": true,\n"
		"    \"loadfile\": \"workloads/dbench/client-small.txt\", %s },\n"
		"  \"engine\": { %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		machine, kernel, wl, engine);
	fclose(f);
	return run_results(scn, 1);
}

static json_t *run_db_full(const char *kmap, const char *wl, const char *engine, const char *machine)
{
	char kernel[128];
	snprintf(kernel, sizeof kernel, "{ \"reclaim\": \"lru2q\", \"kmap\": \"%s\" }", kmap);
	return run_db_kernel(kernel, wl, engine, machine);
}

static json_t *run_db_engine(const char *kmap, const char *wl, const char *engine)
{
	return run_db_full(kmap, wl, engine, "");
}

static json_t *run_db(const char *kmap, const char *wl)
{
	return run_db_engine(kmap, wl, "\"lookahead\": true");
}

static void test_counts(void **state)
{
	(void)state;
	json_t *d = run_db("pkmap", "\"clients\": 1");
	assert_int_equal((int)metric(d, "ops"), 38);
	assert_int_equal((int)metric(d, "bytes"), 147456 + 143360);
	assert_int_equal((int)metric(d, "kmap_high"), 67 + 36);
	assert_int_equal((int)metric(d, "kmap_atomic"), 0);
	assert_int_equal((int)metric(d, "kmap_flushes"), 0);
	assert_int_equal((int)metric(d, "complete"), 1);
	assert_int_equal((int)metric(d, "invariants_ok"), 1);
	/* the dcache at the end: \clients, client1, ~dmtmp and WORD positive
	 * (dentry and inode); CHAP1.DOC and CHAP2.DOC negative after their
	 * unlinks, GONE.DOC negative from the failed open; TMP.DOC's dentry moved
	 * to CHAP2.DOC by the rename; FIND_FIRST's pattern makes none */
	assert_int_equal((int)metric(d, "dentries"), 7);
	assert_int_equal((int)metric(d, "inodes"), 4);
	assert_int_equal((int)metric(d, "dentries_pruned"), 0);
	/* 1.x: clients x loadfile bytes / 1e6 / elapsed */
	double t = metric(d, "elapsed");
	assert_true(t > 0);
	near(metric(d, "throughput"), 290816 / 1e6 / t, 1e-6 * metric(d, "throughput"));
	json_decref(d);
	d = run_db("atomic", "\"clients\": 1");
	assert_int_equal((int)metric(d, "kmap_high"), 67);
	assert_int_equal((int)metric(d, "kmap_atomic"), 36);
	assert_int_equal((int)metric(d, "kmap_atomic_fallbacks"), 0);
	assert_int_equal((int)metric(d, "bytes"), 147456 + 143360);
	json_decref(d);
	d = run_db("atomic", "\"clients\": 2");
	assert_int_equal((int)metric(d, "ops"), 76);
	assert_int_equal((int)metric(d, "kmap_high"), 2 * 67);
	assert_int_equal((int)metric(d, "kmap_atomic"), 2 * 36);
	assert_int_equal((int)metric(d, "kmap_lock_acquisitions"), 4 * 67);
	assert_int_equal((int)metric(d, "invariants_ok"), 1);
	assert_int_equal((int)metric(d, "dentries"), 2 * 7);   /* each client's own tree */
	assert_int_equal((int)metric(d, "inodes"), 2 * 4);
	json_decref(d);
}

static void test_mode4(void **state)
{
	(void)state;
	json_t *d = run_db("pkmap", "\"clients\": 2, \"mode\": \"4\", \"runtime\": \"20ms\"");
	assert_true(metric(d, "ops") > 2 * 38);    /* the clients looped */
	assert_true(metric(d, "throughput") > 0);
	assert_int_equal((int)metric(d, "complete"), 1);
	assert_int_equal((int)metric(d, "invariants_ok"), 1);
	json_decref(d);
}

static void test_determinism(void **state)
{
	(void)state;
	json_t *a = run_db("pkmap", "\"clients\": 2");
	json_t *b = run_db("pkmap", "\"clients\": 2");
	json_object_del(a, "host");
	json_object_del(b, "host");
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
}

/*
 * Scheduled clients look ahead (sched_join): 6 clients on 2 CPUs, so that run
 * queues are never empty and kmap_lock is contended (waiters on semaphores).  With
 * and without lookahead the same work is done (operations, bytes, kmaps, lock
 * acquisitions); the simulated time agrees within 1% (events at equal times may be
 * taken in another order); lookahead passes observation points without paying and
 * pays less than half as often.
 */
static void test_lookahead(void **state)
{
	(void)state;
	const char *wl = "\"clients\": 6, \"op_cycles\": 200000";
	json_t *on = run_db_engine("pkmap", wl, "\"lookahead\": true, \"quantum\": 0");
	json_t *off = run_db_engine("pkmap", wl, "\"lookahead\": false, \"quantum\": 0");
	static const char *const same[] = { "ops", "bytes", "kmap_high", "kmap_lock_acquisitions",
					    "dcache_lock_acquisitions", "complete", "invariants_ok" };
	for (size_t i = 0; i < sizeof same / sizeof *same; i++)
		assert_int_equal((long)metric(on, same[i]), (long)metric(off, same[i]));
	assert_int_equal((int)metric(on, "ops"), 6 * 38);
	assert_int_equal((int)metric(on, "invariants_ok"), 1);
	assert_true(metric(on, "kmap_lock_contended") > 0);
	assert_true(metric(off, "kmap_lock_contended") > 0);
	near(metric(on, "elapsed"), metric(off, "elapsed"), 0.01 * metric(off, "elapsed"));
	assert_true(metric(off, "tm_deferred") == 0);
	assert_true(metric(on, "tm_deferred") > 0);
	assert_true(2 * metric(on, "tm_payments") < metric(off, "tm_payments"));
	json_decref(on);
	json_decref(off);
}

/*
 * engine.slack (docs/architecture.md, "Slack"): the same 6 clients on 2 CPUs that
 * share one slow bus, exact and with 50 us of slack.  The work is the same
 * (operations, bytes, kmaps, lock acquisitions, the copies' bus time); kmap_lock
 * is contended in both (19 and 17 times when this was written); the simulated
 * time agrees within 2% (0.024825 and 0.024820 s); slack makes under 60% of the
 * payments (233 against 435).  The shared lines' bus bytes differ (32,896 and
 * 22,400): line ownership follows the order the CPUs' accesses meet in, and
 * slack lets one CPU run up to 50 us ahead, taking the lines many times in a row.
 */
static void test_slack(void **state)
{
	(void)state;
	const char *wl = "\"clients\": 6, \"op_cycles\": 200000";
	const char *m = "\"costs\": { \"cpus_per_bus\": 2 }, \"bus\": { \"bandwidth\": \"2GB/s\" },";
	json_t *ex = run_db_full("pkmap", wl, "\"lookahead\": true", m);
	json_t *sl = run_db_full("pkmap", wl, "\"slack\": \"50us\"", m);
	static const char *const same[] = { "ops", "bytes", "kmap_high", "kmap_lock_acquisitions",
					    "dcache_lock_acquisitions", "complete", "invariants_ok" };
	for (size_t i = 0; i < sizeof same / sizeof *same; i++)
		assert_int_equal((long)metric(sl, same[i]), (long)metric(ex, same[i]));
	assert_int_equal((int)metric(sl, "invariants_ok"), 1);
	/* the copies book the same bus time; the shared lines (kmap_lock's hand-offs,
	 * pkmap's lines) follow the order the CPUs met in, which slack changes */
	near(metric(sl, "bus_busy_s") - metric(sl, "bus_line_bytes") / 2e9,
	     metric(ex, "bus_busy_s") - metric(ex, "bus_line_bytes") / 2e9, 1e-9);
	assert_true(metric(sl, "bus_line_bytes") > 0 && metric(ex, "bus_line_bytes") > 0);
	assert_true(metric(sl, "bus_stall_s") > 0);
	assert_true(metric(ex, "kmap_lock_contended") > 0);
	assert_true(metric(sl, "kmap_lock_contended") > 0);
	near(metric(sl, "elapsed"), metric(ex, "elapsed"), 0.02 * metric(ex, "elapsed"));
	assert_true(5 * metric(sl, "tm_payments") < 3 * metric(ex, "tm_payments"));
	json_decref(ex);
	json_decref(sl);
}

/*
 * The front-side buses (machine.bus, models/hw/membus.c).  The small loadfile
 * copies 290,816 bytes of ReadX and WriteX, 4 new directory blocks of 4,096
 * bytes (\clients, client1, ~dmtmp, WORD) and 9 directory-entry writes of 32
 * bytes through prepare_write/commit_write (5 entries added below \clients, the
 * rename's 2, the unlinks' 2; \clients itself sits in the root, which has no
 * page here): 307,488 bytes,
 * each 2 bus bytes, plus the shared lines the kmap paths move (64 bytes each,
 * metric bus_line_bytes).  At 1 MB/s per bus (and copies at 1 GB/s) the run is bound by
 * the bus: two clients on one bus take twice as long as one client alone, two
 * clients on two buses as long as one; a bus that keeps up charges a stall no longer than its bus time.
 */
static double bus0, bus1;   /* the last bus_run's per-bus bus time (-1: no such metric) */
static double lines, line_moves;   /* its shared-line bytes on the bus; pkmap's line moves */


static double bus_run(int clients, int per_bus, const char *bw, double *busy, double *stall)
{
	char wl[64], m[160];
	snprintf(wl, sizeof wl, "\"clients\": %d, \"op_cycles\": 0", clients);
	snprintf(m, sizeof m, "\"costs\": { \"cpus_per_bus\": %d }, \"bus\": { \"bandwidth\": \"%s\" },",
		 per_bus, bw);
	json_t *d = run_db_full("pkmap", wl, "\"lookahead\": true", m);
	assert_int_equal((int)metric(d, "ops"), clients * 38);
	assert_int_equal((int)metric(d, "invariants_ok"), 1);
	*busy = metric(d, "bus_busy_s");
	*stall = metric(d, "bus_stall_s");
	bus0 = metric_or(d, "bus0_busy_s", -1);
	bus1 = metric_or(d, "bus1_busy_s", -1);
	lines = metric(d, "bus_line_bytes");
	line_moves = metric(d, "kmap_line_transfers");
	double el = metric(d, "elapsed");
	json_decref(d);
	return el;
}

static void test_bus(void **state)
{
	(void)state;
	double busy1, stall1, busy, stall;
	const double copy1 = 307488.0 * 2;   /* one client's copy bytes on the bus */
	double one = bus_run(1, 1, "1MB/s", &busy1, &stall1);
	/* one CPU: pkmap's 47 lines are first reads from memory (fills), each a
	 * line on the bus; no lock changes hands */
	assert_int_equal((long)line_moves, 47);
	assert_int_equal((long)lines, 47 * 64);
	near(busy1, (copy1 + lines) / 1e6, 1e-9);
	assert_true(one >= busy1);                 /* bus-bound */
	assert_true(one < busy1 * 1.05);
	assert_true(stall1 > 0.9 * busy1);
	/* two CPUs on one bus: twice as long; the lines they pass between them
	 * (kmap_lock, pkmap's counts and PTEs) go on the bus too */
	double shared = bus_run(2, 2, "1MB/s", &busy, &stall);
	assert_true(lines > 47 * 64);
	near(busy, (2 * copy1 + lines) / 1e6, 1e-9);
	near(shared, 2 * one, 0.02 * one);
	assert_true(bus0 == -1 && bus1 == -1);     /* one bus: no per-bus metrics */
	/* two CPUs on two buses: no interference */
	double apart = bus_run(2, 1, "1MB/s", &busy, &stall);
	near(busy, (2 * copy1 + lines) / 1e6, 1e-9);
	near(apart, one, 0.02 * one);
	near(bus0 + bus1, busy, 1e-9);             /* one client's copies on each bus */
	assert_true(bus0 >= copy1 / 1e6 && bus0 <= (copy1 + lines) / 1e6);
	assert_true(bus1 >= copy1 / 1e6 && bus1 <= (copy1 + lines) / 1e6);
	/* a bus that keeps up (copy_bytes 2 x 1 GB/s < 100 GB/s): a batch waits
	 * only when it arrives while the other CPU's is in service, so the stall
	 * is at most the bus time itself (a slow bus above: 90% of it) */
	bus_run(2, 2, "100GB/s", &busy, &stall);
	near(busy, (2 * copy1 + lines) / 100e9, 1e-12);
	assert_true(stall <= busy);
	/* no bus declared: nothing booked */
	json_t *d = run_db("pkmap", "\"clients\": 2");
	assert_true(metric(d, "bus_busy_s") == 0 && metric(d, "bus_stall_s") == 0);
	assert_true(metric(d, "bus_line_bytes") == 0);
	json_decref(d);
}

/*
 * 2.5.25's locking (vm.fs_locking, vm.lru_locking, no per-CPU lists): 8 clients
 * on two CPUs.  lock_super is a semaphore: its contended waiters sleep, so their
 * waits are not spinning; every spinlock's wait is (spin_s is exactly the
 * spinlocks' waits).  The counts: one lock_super hold per block allocated and per
 * run freed, one per inode created or freed; one inode_lock per inode.
 */
static void test_locks_2525(void **state)
{
	(void)state;
	const char *k = "{ \"reclaim\": \"lru2q\", \"kmap\": \"pkmap\","
			" \"alloc\": { \"module\": \"buddy\", \"pcp\": false },"
			" \"vm\": { \"lru_locking\": \"per-page\", \"fs_locking\": \"2.5.25\" } }";
	json_t *d = run_db_kernel(k, "\"clients\": 8", "\"lookahead\": true", "");
	assert_int_equal((int)metric(d, "invariants_ok"), 1);
	assert_int_equal((int)metric(d, "complete"), 1);
	/* each inode created or freed: one inode_lock and one lock_super hold */
	assert_true(metric(d, "inode_lock_acquisitions") > 0);
	assert_true(metric(d, "lock_super_acquisitions") > metric(d, "inode_lock_acquisitions"));
	/* lock_super was contended, and its waiters slept: spin_s is exactly the
	 * spinlocks' waits */
	assert_true(metric(d, "lock_super_contended") > 0);
	assert_true(metric(d, "lock_super_wait_s") > 0);
	near(metric(d, "spin_s"),
	     metric(d, "kmap_lock_wait_s") + metric(d, "dcache_lock_wait_s") +
		     metric(d, "lru_lock_wait_s") + metric(d, "zone_lock_wait_s") +
		     metric(d, "inode_lock_wait_s") + metric(d, "bkl_wait_s"),
	     1e-12);
	/* FIND_FIRST (ext2_readdir), LockX/UnlockX and overwriting opens take the
	 * big kernel lock */
	assert_true(metric(d, "bkl_acquisitions") > 0);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_mode4),
		cmocka_unit_test(test_lookahead),
		cmocka_unit_test(test_slack),
		cmocka_unit_test(test_locks_2525),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
