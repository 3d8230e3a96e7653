/*
 * test_lookahead.c - the time model's lookahead (emu/core/timemodel.h) on a whole 2read
 * simulation, black box through the built binary.
 *
 * Design: a scaled-down seed 000 (64 MiB, both access patterns, both reclaim
 * modules, 10 simulated seconds) runs at quantum 0, where every charge is paid at
 * once unless lookahead shows nobody could see it, with engine.lookahead true and
 * false.  Everything that counts events must be identical (reads, disk reads, scans,
 * promotions, lock acquisitions, contended acquisitions...); simulated-time sums
 * may differ by rounding (one payment instead of many), at most 1 us; the reader
 * must make at least five times fewer payments with lookahead (a reader of
 * sequential data pays at least twice per readahead window: it wakes the idle disk
 * driver and it sleeps in lock_page); and disk requests
 * are served without the driver (engine_disk_direct) only with lookahead (some
 * of them: asynchronous readahead always goes through the driver).  Scheduled
 * tasks (kernbench with every process of a Kbuild rule at -j 1, reaim with one
 * user) are held to the same standard: every count equal, every time within
 * 1e-7.  The unit tests of the mechanism itself are in test_timemodel.c.
 */
#include <math.h>
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
#include <jansson.h>

#include "tests/runmmemu.h"

static json_t *run_2read(int lookahead)
{
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-la-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"lookahead test\",\n"
		"  \"machine\": { \"arch\": \"x86_64\", \"cpus\": 2, \"clock\": \"3.2GHz\",\n"
		"    \"memory\": \"64MiB\", \"copy_bw\": \"2GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"1GB\", \"read\": \"60MB/s\",\n"
		"      \"write\": \"60MB/s\", \"seek_avg\": \"4.9ms\", \"track_to_track\": \"0.3ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"elevator\" } ] },\n"
		"  \"kernels\": { \"lru2q\": { \"reclaim\": \"lru2q\" },\n"
		"    \"clockpro\": { \"reclaim\": { \"module\": \"clockpro\", \"series\": \"2005-12\" } } },\n"
		"  \"workload\": { \"type\": \"2read\", \"zero_size\": \"48MiB\", \"zero2_size\": \"64MiB\",\n"
		"    \"read_size\": \"4KiB\", \"duration\": \"10s\", \"report\": \"5s\",\n"
		"    \"warmup_passes\": 1, \"check\": true },\n"
		"  \"sweep\": { \"workload.pattern\": [ \"sequential\", \"random\" ],\n"
		"    \"workload.range_mb\": [ [ 32, 40 ] ] },\n"
		"  \"engine\": { \"quantum\": \"0\", \"lookahead\": %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		lookahead ? "true" : "false");
	fclose(f);
	return run_results(scn, 4);
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static void test_same_results_fewer_payments(void **state)
{
	(void)state;
	json_t *off = run_2read(0), *on = run_2read(1);
	double direct = 0;
	for (size_t i = 0; i < 4; i++) {
		json_t *ra = json_array_get(json_object_get(off, "runs"), i);
		json_t *rb = json_array_get(json_object_get(on, "runs"), i);
		json_t *ma = json_object_get(ra, "metrics"), *mb = json_object_get(rb, "metrics");
		const char *key;
		json_t *va;
		int counts = 0;
		json_object_foreach(ma, key, va) {
			json_t *vb = json_object_get(mb, key);
			if (!json_is_number(va))
				continue;
			assert_true(json_is_number(vb));
			double a = json_number_value(va), b = json_number_value(vb);
			if (strcmp(key, "engine_disk_direct") == 0) {
				/* asynchronous readahead always goes through the driver:
				 * some runs have no direct request at all */
				if (a != 0)
					fail_msg("run %zu: %s %.0f with lookahead, %.0f without", i, key, b, a);
				direct += b;
			} else if (ends_with(key, "_payments")) {
				if (strcmp(key, "reader_cpu_payments") == 0 && !(b * 5 < a))
					fail_msg("run %zu: %s %.0f with lookahead, %.0f without", i, key, b, a);
			} else if (ends_with(key, "_s")) {
				near(a, b, 1e-6);   /* rounding of simulated-time sums */
			} else if (a != b) {
				fail_msg("run %zu: %s %.17g with lookahead, %.17g without", i, key, b, a);
			} else {
				counts++;
			}
		}
		assert_true(counts >= 18);   /* reads, hits, disk reads, lock counts... */
		assert_true(json_equal(json_object_get(ra, "primary"), json_object_get(rb, "primary")));
		assert_true(metric(on, "reads") > 0);
	}
	assert_true(direct > 0);   /* random reads: one-page requests on an idle disk */
	json_decref(off);
	json_decref(on);
}

/* Scheduled tasks look ahead (sched_join): kernbench with every process of a
 * Kbuild rule (make, sh, gcc's driver, cc1 | as, fixdep, rm, mv on ext3 with the
 * dcache, wake-up preemption and wake_affine) at -j 1, and reaim with one user
 * (its driver, the forks, disk tests).  At quantum 0 with lookahead on and off
 * every count must match and every time must agree to a relative 1e-7 (one
 * payment instead of many rounds the sums differently).  One job: with two
 * identical ones starting together, ties at equal simulated times are taken in
 * another order, which is not an error of the time model (docs/architecture.md,
 * "Time model"). */
static json_t *run_sched(const char *workload, int lookahead)
{
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-las-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"lookahead sched test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": 4, \"clock\": \"700MHz\",\n"
		"    \"memory\": \"256MiB\", \"copy_bw\": \"350MB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"1GB\", \"read\": \"40MB/s\",\n"
		"      \"write\": \"40MB/s\", \"seek_avg\": \"4.9ms\", \"track_to_track\": \"0.3ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"elevator\" } ] },\n"
		"  \"kernels\": { \"batched\": { \"reclaim\": \"lru2q\",\n"
		"    \"vm\": { \"swap\": \"64MiB\", \"batch_mark_accessed\": true } } },\n"
		"  \"workload\": %s,\n"
		"  \"engine\": { \"quantum\": \"0\", \"lookahead\": %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		workload, lookahead ? "true" : "false");
	fclose(f);
	return run_results(scn, 1);
}

static void same_sched_results(const char *workload, const char *pay_key)
{
	json_t *off = run_sched(workload, 0), *on = run_sched(workload, 1);
	json_t *ma = json_object_get(json_array_get(json_object_get(off, "runs"), 0), "metrics");
	json_t *mb = json_object_get(json_array_get(json_object_get(on, "runs"), 0), "metrics");
	const char *key;
	json_t *va;
	int counts = 0;
	json_object_foreach(ma, key, va) {
		json_t *vb = json_object_get(mb, key);
		assert_true(json_is_number(vb));
		double a = json_number_value(va), b = json_number_value(vb);
		if (strcmp(key, "tm_payments") == 0 || strcmp(key, "tm_deferred") == 0)
			continue;
		if (a == floor(a) && b == floor(b) && fabs(a) < 1e12) {
			if (a != b)
				fail_msg("%s %.17g with lookahead, %.17g without", key, b, a);
			counts++;
		} else if (fabs(a - b) > 1e-7 * fabs(a) + 1e-12) {
			fail_msg("%s %.17g with lookahead, %.17g without", key, b, a);
		}
	}
	assert_true(counts >= 20);
	if (pay_key) {
		double pa = metric(off, pay_key), pb = metric(on, pay_key);
		if (!(pb * 5 < pa))
			fail_msg("%s %.0f with lookahead, %.0f without", pay_key, pb, pa);
	}
	json_decref(off);
	json_decref(on);
}

static void test_sched_kernbench_exact(void **state)
{
	(void)state;
	same_sched_results(
		"{ \"type\": \"kernbench\", \"fs\": \"ext3\", \"files\": 8, \"src_size\": \"16KiB\",\n"
		"    \"src_sigma\": 1.18, \"cc_size_share\": 0.5, \"headers\": 64, \"header_size\": \"8KiB\",\n"
		"    \"headers_per_job\": 16, \"obj_size\": \"8KiB\", \"cc_cycles\": 2e7, \"link_cycles\": 2e7,\n"
		"    \"cc_text_pages\": 128, \"cc_heap\": \"8MiB\", \"asm_size\": \"32KiB\",\n"
		"    \"as_cycles\": 2e6, \"wake_preempt\": true, \"wake_affine\": true,\n"
		"    \"rule_procs\": true, \"jobs\": 1 }",
		"tm_payments");
}

static void test_sched_reaim_exact(void **state)
{
	(void)state;
	same_sched_results(
		"{ \"type\": \"reaim\", \"workfile\": \"" MMEMU_SRCDIR
		"/workloads/reaim/workfile.new_dbase\",\n"
		"    \"filesize\": \"80KiB\", \"poolsize\": \"1MiB\", \"mode\": \"fixed\",\n"
		"    \"users\": 1, \"jobs\": 4, \"fs\": \"ext3\" }",
		NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_results_fewer_payments),
		cmocka_unit_test(test_sched_kernbench_exact),
		cmocka_unit_test(test_sched_reaim_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
