/*
 * test_reaim.c - the reaim workload (workloads/reaim.c) on small machines: exact
 * counts where the model makes them exact, invariants where it does not.
 *
 * Each case writes a workfile and a one-run scenario (1 GHz CPUs, so cycles = ns),
 * runs the built `mmemu run` ($MMEMU, set by meson test) and reads the metrics:
 * CPU-only jobs give exactly users x tasks x cpu_cycles of user time and can use at
 * most every CPU; page_test takes exactly the faults aim9 describes (256 + 100 x 16
 * zero-filled pages per call); a test named twice runs with its later hit count;
 * the shipped database mix leaves no page behind
 * (mm and process invariant checkers, no anonymous page left); a job is reaim's
 * rounding of the mix (103 tests of new_dbase at -j 100); the disk files are
 * FILESIZE + POOLSIZE / users; JPM counts tests and the peak (-x) and quick (-q)
 * searches stop at JPM per user 10 and 60, with hand-computed steps.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/runmmemu.h"

/* Write workfile @wf and a scenario running reaim with the workload keys @wl on
 * @cpus CPUs; return the result document (caller decrefs). */
static json_t *run_ru_disk(int cpus, const char *wf, const char *wl, const char *disk);

static json_t *run_ru(int cpus, const char *wf, const char *wl)
{
	return run_ru_disk(cpus, wf, wl, "");
}

/* run_ru() with @disk appended to the disk object (e.g. a controller). */
static json_t *run_ru_disk(int cpus, const char *wf, const char *wl, const char *disk)
{
	char scn[128], wfp[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-ru-%d.json", (int)getpid());
	snprintf(wfp, sizeof wfp, "/tmp/mmemu-test-ru-%d.wf", (int)getpid());
	FILE *f = fopen(wfp, "w");
	assert_non_null(f);
	fputs(wf, f);
	fclose(f);
	f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"reaim test\",\n"
		"  \"machine\": { \"arch\": \"x86_64\", \"cpus\": %d, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"128MiB\", \"copy_bw\": \"2GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"1GB\", \"read\": \"60MB/s\",\n"
		"      \"write\": \"60MB/s\" %s } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"vm\": { \"swap\": \"64MiB\" } } },\n"
		"  \"workload\": { \"type\": \"reaim\", \"check\": true, \"workfile\": \"%s\", %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		cpus, disk, wfp, wl);
	fclose(f);
	json_t *r = run_results(scn, 1);
	unlink(wfp);
	return r;
}

static void invariants(json_t *r)
{
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "complete"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	near(metric(r, "anon_pages"), 0, 0);   /* every process exited */
}

/* CPU-only jobs: user time exact, JPM bounded by the CPUs. */
static void test_cpu_only(void **state)
{
	(void)state;
	json_t *r = run_ru(2, "10 add_int\n",
			   "\"mode\": \"fixed\", \"users\": 4, \"jobs\": 10, "
			   "\"cpu_cycles\": 1e7, \"heap\": 0");
	invariants(r);
	near(metric(r, "tests"), 40, 0);
	near(metric(r, "tests_per_job"), 10, 0);
	near(metric(r, "user_s"), 4 * 10 * 0.01, 1e-9);
	double el = 10 * 4 * 60.0 / metric(r, "max_jpm");   /* JPM counts tests */
	if (el < 0.2 - 1e-9 || el > 0.25)
		fail_msg("4 users x 0.1 s on 2 CPUs took %g s", el);
	near(metric(r, "forks"), 4, 0);
	json_decref(r);
}

/* page_test: 256 faults for the first MiB, then 100 x 16 regrown pages. */
static void test_page_test(void **state)
{
	(void)state;
	json_t *r = run_ru(1, "1 page_test\n",
			   "\"mode\": \"fixed\", \"users\": 1, \"jobs\": 1, \"heap\": 0");
	invariants(r);
	near(metric(r, "anon_zero_fills"), 256 + 100 * 16, 0);
	near(metric(r, "cow_copies"), 0, 0);
	json_decref(r);
}

/* A test named twice takes the later hit count (it was refused), total_hits
 * counts both lines (5): at -j 2 add_int's and page_test's shares are 0.4 each,
 * which reaim rounds up to 1 (every test runs at least once). */
static void test_repeated_test(void **state)
{
	(void)state;
	json_t *r = run_ru(1, "3 add_int\n1 page_test\n1 add_int\n",
			   "\"mode\": \"fixed\", \"users\": 1, \"jobs\": 2, \"heap\": 0");
	invariants(r);
	near(metric(r, "tests"), 2, 0);
	near(metric(r, "anon_zero_fills"), 256 + 100 * 16, 0);
	json_decref(r);
}

/* The inherited heap is copy-on-write: a user that writes it copies every page. */
static void test_cow_heap(void **state)
{
	(void)state;
	json_t *r = run_ru(2, "1 mem_rtns_2\n",
			   "\"mode\": \"fixed\", \"users\": 3, \"jobs\": 1, "
			   "\"heap\": \"64KiB\", \"poolsize\": \"1MiB\"");
	invariants(r);
	near(metric(r, "anon_zero_fills"), 16, 0);        /* the driver's heap */
	/* users 1 and 2 copy all 16 pages; the last one left alone reuses them only
	 * if the driver had exited, which it has not: 3 x 16 copies */
	near(metric(r, "cow_copies"), 3 * 16, 0);
	json_decref(r);
}

/* The shipped database mix on a small machine leaves nothing behind. */
static void test_database_mix(void **state)
{
	(void)state;
	char wf[4096] = "";
	FILE *f = fopen(MMEMU_SRCDIR "/workloads/reaim/workfile.new_dbase", "r");
	assert_non_null(f);
	size_t n = fread(wf, 1, sizeof wf - 1, f);
	fclose(f);
	wf[n] = 0;
	json_t *r = run_ru(4, wf,
			   "\"mode\": \"fixed\", \"users\": 6, \"jobs\": 12, "
			   "\"filesize\": \"80KiB\"");
	invariants(r);
	near(metric(r, "tests"), 6 * 25, 0);   /* -j 12: every one of the 25 tests once */
	if (metric(r, "disk_writes") <= 0 || metric(r, "lru_lock_acquisitions") <= 0)
		fail_msg("no disk writes or no lru_lock traffic");
	/* every acquisition and contended one is booked to one caller */
	near(metric_sum(r, "lru_lock_acquisitions_by_"), metric(r, "lru_lock_acquisitions"), 0);
	near(metric_sum(r, "lru_lock_contended_by_"), metric(r, "lru_lock_contended"), 0);
	if (metric_sum(r, "lru_lock_acquisitions_by_other") != 0)
		fail_msg("lru_lock taken from a path without a caller site");
	json_decref(r);
}

/* The buffer-cache variants skip sync(): disk_cp writes its copy back (one
 * request), disk_bcp leaves it dirty until the unlink drops it; both read the
 * shared file, which the driver wrote back once (one request). */
static void test_disk_variants(void **state)
{
	(void)state;
	static const char *const wf[2] = { "1 disk_cp\n", "1 disk_bcp\n" };
	for (int i = 0; i < 2; i++) {
		json_t *r = run_ru(1, wf[i], "\"mode\": \"fixed\", \"users\": 1, "
				   "\"jobs\": 1, \"heap\": 0, \"filesize\": \"16KiB\"");
		invariants(r);
		near(metric(r, "disk_writes"), i == 0 ? 2 : 1, 0);
		near(metric(r, "disk_reads"), 0, 0);   /* the shared file is still cached */
		assert_true(metric_or(r, "dentries", -1) == -1);   /* no file system: no dcache */
		json_decref(r);
	}
	/* on ext3, the dcache: the copy and the user's own file are made and
	 * unlinked, the shared file stays cached: one dentry, one inode, each in
	 * a slab page of its cache (the freed objects' pages stay: their objects
	 * are parked in the CPU's array) */
	json_t *r = run_ru(1, wf[0], "\"mode\": \"fixed\", \"users\": 1, \"fs\": \"ext3\", "
			   "\"jobs\": 1, \"heap\": 0, \"filesize\": \"16KiB\"");
	invariants(r);
	near(metric(r, "dentries"), 1, 0);
	near(metric(r, "inodes"), 1, 0);
	near(metric(r, "dcache_slab_pages"), 2, 0);
	json_decref(r);
}

/* reaim's job at -j 100 for new_dbase (570 hits): 20 hits -> 3.51 -> 4 runs,
 * 40 -> 7.02 -> 7, 10 -> 1.75 -> 2, 30 -> 5.26 -> 5: 4 x 4 + 6 x 7 + 10 x 2 + 5 x 5
 * = 103 tests.  The disk file of 3 users is 80 + 1024 / 3 = 421 KiB. */
static void test_job_mix(void **state)
{
	(void)state;
	char wf[4096] = "";
	FILE *f = fopen(MMEMU_SRCDIR "/workloads/reaim/workfile.new_dbase", "r");
	assert_non_null(f);
	size_t n = fread(wf, 1, sizeof wf - 1, f);
	fclose(f);
	wf[n] = 0;
	json_t *r = run_ru(4, wf, "\"mode\": \"fixed\", \"users\": 1, \"cpu_cycles\": 1e5, "
			   "\"filesize\": \"80KiB\", \"poolsize\": \"1MiB\"");
	invariants(r);
	near(metric(r, "tests_per_job"), 103, 0);
	near(metric(r, "tests"), 103, 0);
	near(metric(r, "test.add_int.calls"), 4, 0);
	near(metric(r, "test.disk_rd.calls"), 7, 0);
	near(metric(r, "test.sync_disk_rw.calls"), 2, 0);
	near(metric(r, "test.sieve.calls"), 5, 0);
	near(metric(r, "file_kib_last"), 80 + 1024, 0);
	json_decref(r);
	r = run_ru(1, "1 add_int\n", "\"mode\": \"fixed\", \"users\": 3, \"jobs\": 1, "
		   "\"cpu_cycles\": 1e5, \"heap\": 0, \"filesize\": \"80KiB\", \"poolsize\": \"1MiB\"");
	near(metric(r, "file_kib_last"), 80 + 341, 0);
	json_decref(r);
}

/* A write-back controller (models/hw/raid.h) takes the O_SYNC writes of
 * sync_disk_rw: none goes through to the drives, and the test ends sooner than
 * with the drive alone (each 1 KiB O_SYNC write then waits for a rotation). */
static void test_controller(void **state)
{
	(void)state;
	const char *wl = "\"mode\": \"fixed\", \"users\": 1, \"jobs\": 1, \"heap\": 0, "
			 "\"filesize\": \"16KiB\", \"poolsize\": \"16KiB\"";
	json_t *a = run_ru(1, "1 sync_disk_rw\n", wl);
	json_t *b = run_ru_disk(1, "1 sync_disk_rw\n", wl, ", \"controller\": { \"cache\": \"1MiB\" }");
	invariants(a);
	invariants(b);
	assert_null(json_object_get(json_object_get(json_array_get(json_object_get(a, "runs"), 0),
						    "metrics"), "ctl_cached_writes"));
	near(metric(b, "ctl_through_writes"), 0, 0);
	if (metric(b, "ctl_cached_writes") < 32)   /* 32 x 1 KiB O_SYNC, then the rest */
		fail_msg("%g writes cached", metric(b, "ctl_cached_writes"));
	if (!(metric(b, "elapsed") < metric(a, "elapsed") / 5))
		fail_msg("controller %g s, drive alone %g s", metric(b, "elapsed"), metric(a, "elapsed"));
	json_decref(a);
	json_decref(b);
}

/* The shipped pressure scenario, shortened to 48 users at its own memory per
 * user (its sweep's machine.memory / workload.users), one run per kernel with
 * the checker on: every kernel's run reclaims and keeps the invariants. */
static void reclaim_shipped_pressure(void)
{
	json_error_t je;
	json_t *sc = json_load_file(MMEMU_SRCDIR "/scenarios/seeds/001-pagevec-reaim-pressure.json", 0, &je);
	assert_non_null(sc);
	json_t *sw = json_object_get(sc, "sweep"), *wl = json_object_get(sc, "workload");
	double mib = 0;
	const char *mem = json_string_value(json_array_get(json_object_get(sw, "machine.memory"), 0));
	json_int_t users = json_integer_value(json_array_get(json_object_get(sw, "workload.users"), 0));
	assert_non_null(mem);
	assert_int_equal(sscanf(mem, "%lfMiB", &mib), 1);
	assert_true(users > 0 && mib > 0);
	char m48[32];
	snprintf(m48, sizeof m48, "%.0fMiB", mib * 48 / (double)users);   /* 48 MiB at 128: 18 MiB */
	json_object_set_new(sw, "machine.memory", json_pack("[s]", m48));
	json_object_set_new(sw, "workload.users", json_pack("[i]", 48));
	json_object_set_new(wl, "workfile", json_string(MMEMU_SRCDIR "/workloads/reaim/workfile.new_dbase"));
	json_object_set_new(wl, "jobs", json_integer(20));
	json_object_set_new(wl, "check", json_true());
	json_object_set_new(sc, "runs", json_integer(1));
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-ru-sp-%d.json", (int)getpid());
	assert_int_equal(json_dump_file(sc, scn, 0), 0);
	json_decref(sc);
	json_t *r = run_results(scn, 2);
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(r, "runs"), i, run) {
		json_t *one = json_pack("{s:[O]}", "runs", run);
		invariants(one);
		double scanned = vmstat(one, "pgscan_kswapd") + vmstat(one, "pgscan_direct");
		if (scanned <= 0 || vmstat(one, "pgsteal") <= 0)
			fail_msg("%s: %g scanned, %g stolen", json_string_value(json_object_get(run, "kernel")), scanned,
				 vmstat(one, "pgsteal"));
		json_decref(one);
	}
	json_decref(r);
}

/* Reclaim runs at the memory per user of the seed's pressure scenario
 * (001-pagevec-reaim-pressure.json: 128 users in 48 MiB, 0.375 MiB each): 48
 * users of the database mix in 18 MiB (i386, 2 CPUs, a write-back controller):
 * kswapd or direct reclaim scans and frees pages, nothing is killed and the
 * invariants hold.  (Before commit 5387b6f the checker reported "13 PG_lru pages,
 * nr_active + nr_inactive 14" in ZONE_DMA here: the pagevec drain race, in which
 * two drains of one CPU's pagevec linked the same pages.)
 * At 1.5 MiB per user (12 users) no page is scanned and the invariants hold.
 * With batched mark_page_accessed on 8 CPUs in 24 MiB the invariants hold while
 * reclaim runs: its pagevec holds references to pages that the disk tests' unlink
 * truncates, and reclaim must keep such a page (no mapping), not free it under the
 * pagevec (this case fails without that).
 * Then the shipped what-if scenario that `reproduce 001` runs
 * (001-pagevec-reaim-pressure.json, both kernels, its machine and ext3 files)
 * at its own memory per user, shortened to 48 users and 20-test jobs: both
 * kernels scan and steal pages, and the invariants hold. */
static void test_reclaim_runs(void **state)
{
	(void)state;
	static const int users[3] = { 48, 12, 48 };
	static const char *const mem[3] = { "18MiB", "18MiB", "24MiB" };
	static const char *const batch[3] = { "false", "false", "true" };
	static const int cpus[3] = { 2, 2, 8 };   /* 8: the seed's, where the fault showed */
	for (int i = 0; i < 3; i++) {
		char scn[128], wl[1024];
		snprintf(scn, sizeof scn, "/tmp/mmemu-test-ru-rc-%d.json", (int)getpid());
		snprintf(wl, sizeof wl,
			 "{ \"name\": \"reaim reclaim\",\n"
			 "  \"machine\": { \"arch\": \"i386\", \"cpus\": %d, \"clock\": \"700MHz\",\n"
			 "    \"memory\": \"%s\", \"copy_bw\": \"350MB/s\",\n"
			 "    \"disks\": [ { \"name\": \"sda\", \"size\": \"1GB\", \"read\": \"40MB/s\",\n"
			 "      \"write\": \"40MB/s\", \"controller\": { \"cache\": \"64MiB\" } } ] },\n"
			 "  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"vm\": { \"swap\": \"64MiB\",\n"
			 "    \"batch_mark_accessed\": %s } } },\n"
			 "  \"workload\": { \"type\": \"reaim\", \"check\": true, \"workfile\": \"%s\",\n"
			 "    \"mode\": \"fixed\", \"users\": %d, \"jobs\": 30, \"filesize\": \"80KiB\",\n"
			 "    \"poolsize\": \"1MiB\" },\n"
			 "  \"runs\": 1, \"seed\": 1 }\n",
			 cpus[i], mem[i], batch[i], MMEMU_SRCDIR "/workloads/reaim/workfile.new_dbase", users[i]);
		FILE *f = fopen(scn, "w");
		assert_non_null(f);
		fputs(wl, f);
		fclose(f);
		json_t *r = run_results(scn, 1);
		unlink(scn);
		invariants(r);   /* with no process left, no anonymous page either */
		double scanned = vmstat(r, "pgscan_kswapd") + vmstat(r, "pgscan_direct");
		if (i != 1 && (scanned <= 0 || vmstat(r, "pgsteal") <= 0))
			fail_msg("48 users: %g scanned, %g stolen", scanned, vmstat(r, "pgsteal"));
		if (i == 1)
			near(scanned, 0, 0);
		json_decref(r);
	}
	reclaim_shipped_pressure();
}

/* The JPM series of a run: its users (t) and JPM (v) of step @i. */
static double step_of(json_t *r, const char *k, size_t i)
{
	json_t *s = json_object_get(json_object_get(json_array_get(json_object_get(r, "runs"), 0),
						    "series"), "jpm");
	return json_number_value(json_array_get(json_object_get(s, k), i));
}

/* The crossover rules, hand-computed.  One CPU, a job of 3 x add_int (-j 3) of
 * 0.1 s each: n users take 0.3 n s (plus fork, exit and switch costs), so JPM =
 * 3 / 0.3n x 60 x n = 600 at every step and JPM per user = 600 / n.  Steps of 10
 * from 1: JPM per user 600, 54.5, 28.6, 19.4, 14.6, 11.8, 9.8.  -q stops at the
 * first step at or below 60 (11 users, 2 steps), -x at or below 10 (61 users, 7
 * steps); max_jpm is the best step, just under 600. */
static void test_crossover(void **state)
{
	(void)state;
	static const char *const mode[2] = { "quick", "peak" };
	static const double steps[2] = { 2, 7 }, last[2] = { 11, 61 };
	for (int m = 0; m < 2; m++) {
		char wl[256];
		snprintf(wl, sizeof wl, "\"mode\": \"%s\", \"users_start\": 1, \"users_step\": 10, "
			 "\"jobs\": 3, \"cpu_cycles\": 1e8, \"heap\": 0, \"filesize\": \"4KiB\", "
			 "\"poolsize\": \"4KiB\", \"users_max\": 100", mode[m]);
		json_t *r = run_ru(1, "1 add_int\n", wl);
		invariants(r);
		near(metric(r, "steps"), steps[m], 0);
		near(metric(r, "crossover"), 1, 0);
		near(step_of(r, "t", (size_t)steps[m] - 1), last[m], 0);
		double best = 0;
		for (size_t i = 0; i < (size_t)steps[m]; i++) {
			double j = step_of(r, "v", i);
			if (j > 600 || j < 594)
				fail_msg("%s step %zu: JPM %g, expected just under 600", mode[m], i, j);
			if (j > best)
				best = j;
		}
		near(metric(r, "max_jpm"), best, 1e-9);
		near(metric(r, "jpm_per_user_last"), step_of(r, "v", (size_t)steps[m] - 1) / last[m], 1e-9);
		json_decref(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_only),
		cmocka_unit_test(test_page_test),
		cmocka_unit_test(test_repeated_test),
		cmocka_unit_test(test_cow_heap),
		cmocka_unit_test(test_database_mix),
		cmocka_unit_test(test_disk_variants),
		cmocka_unit_test(test_job_mix),
		cmocka_unit_test(test_crossover),
		cmocka_unit_test(test_controller),
		cmocka_unit_test(test_reclaim_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
