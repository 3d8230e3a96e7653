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
 * (mm and process invariant checkers, no anonymous page left); a peak-load run has
 * one JPM point per step, its max_jpm is the best of them and it stops after the
 * first step that fell.
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
static json_t *run_ru(int cpus, const char *wf, const char *wl)
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
		"      \"write\": \"60MB/s\" } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"vm\": { \"swap\": \"64MiB\" } } },\n"
		"  \"workload\": { \"type\": \"reaim\", \"check\": true, \"workfile\": \"%s\", %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		cpus, wfp, wl);
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
			   "\"mode\": \"fixed\", \"users\": 4, \"tasks_per_job\": 10, "
			   "\"cpu_cycles\": 1e7, \"heap\": 0");
	invariants(r);
	near(metric(r, "tests"), 40, 0);
	near(metric(r, "user_s"), 4 * 10 * 0.01, 1e-9);
	double el = 4 * 60.0 / metric(r, "max_jpm");
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
			   "\"mode\": \"fixed\", \"users\": 1, \"tasks_per_job\": 1, \"heap\": 0");
	invariants(r);
	near(metric(r, "anon_zero_fills"), 256 + 100 * 16, 0);
	near(metric(r, "cow_copies"), 0, 0);
	json_decref(r);
}

/* A test named twice takes the later hit count (it was refused): add_int and
 * page_test alternate 1:1, so two consecutive tests run page_test exactly once. */
static void test_repeated_test(void **state)
{
	(void)state;
	json_t *r = run_ru(1, "3 add_int\n1 page_test\n1 add_int\n",
			   "\"mode\": \"fixed\", \"users\": 1, \"tasks_per_job\": 2, \"heap\": 0");
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
			   "\"mode\": \"fixed\", \"users\": 3, \"tasks_per_job\": 1, "
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
			   "\"mode\": \"fixed\", \"users\": 6, \"tasks_per_job\": 12, "
			   "\"filesize\": \"80KiB\"");
	invariants(r);
	near(metric(r, "tests"), 72, 0);
	if (metric(r, "disk_writes") <= 0 || metric(r, "lru_lock_acquisitions") <= 0)
		fail_msg("no disk writes or no lru_lock traffic");
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
				   "\"tasks_per_job\": 1, \"heap\": 0, \"filesize\": \"16KiB\"");
		invariants(r);
		near(metric(r, "disk_writes"), i == 0 ? 2 : 1, 0);
		near(metric(r, "disk_reads"), 0, 0);   /* the shared file is still cached */
		json_decref(r);
	}
}

/* Peak load: one point per step, max_jpm the best, stop after the first fall. */
static void test_peak(void **state)
{
	(void)state;
	json_t *r = run_ru(2, "10 add_int\n5 disk_rd\n",
			   "\"mode\": \"peak\", \"users_start\": 1, \"users_step\": 1, "
			   "\"users_max\": 12, \"tasks_per_job\": 4, \"filesize\": \"16KiB\"");
	invariants(r);
	json_t *s = json_object_get(json_object_get(json_array_get(json_object_get(r, "runs"), 0),
						    "series"), "jpm");
	json_t *v = json_object_get(s, "v");
	size_t steps = json_array_size(v);
	near(metric(r, "steps"), (double)steps, 0);
	assert_true(steps >= 2);
	double best = 0;
	for (size_t i = 0; i < steps; i++) {
		double j = json_number_value(json_array_get(v, i));
		if (i + 1 < steps && j < best)
			fail_msg("step %zu fell (%g < %g) but the run went on", i, j, best);
		if (j > best)
			best = j;
	}
	near(metric(r, "max_jpm"), best, 1e-9);
	json_decref(r);
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
		cmocka_unit_test(test_peak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
