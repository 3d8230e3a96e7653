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
 * of them: asynchronous readahead always goes through the driver).  The
 * unit tests of the mechanism itself are in test_timemodel.c.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_results_fewer_payments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
