/*
 * test_chain.c - chained runs (scenario "steps", emu/engine/chain.c) through the
 * built binary: the state one step leaves is where the next starts (page cache,
 * CLOCK-Pro's non-resident table), each step's results and point on their own,
 * the steps back to back in simulated time, a chain is deterministic, and bad
 * steps are refused with one line naming steps[I].
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "runmmemu.h"

/* A 24 MiB machine, files zero (1 MiB) and zero2 (32 MiB), sequential 4 KiB reads;
 * @kernels, @steps and the workload's range are spliced in. */
static void write_scenario(const char *path, const char *kernels, const char *range, const char *steps)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"chain\",\n"
		" \"machine\": {\"arch\": \"x86_64\", \"cpus\": 2, \"clock\": \"3.2GHz\", \"memory\": \"24MiB\",\n"
		"   \"copy_bw\": \"2GB/s\", \"disks\": [{\"name\": \"sda\", \"size\": \"1GB\", \"read\": \"60MB/s\",\n"
		"   \"write\": \"60MB/s\", \"seek_avg\": \"4.9ms\", \"track_to_track\": \"0.3ms\", \"rpm\": 10000,\n"
		"   \"queue\": \"elevator\"}]},\n"
		" \"kernels\": {%s},\n"
		" \"workload\": {\"type\": \"2read\", \"zero_size\": \"1MiB\", \"zero2_size\": \"32MiB\",\n"
		"   \"pattern\": \"sequential\", \"duration\": \"2s\", \"report\": \"1s\", \"check\": true,\n"
		"   \"range_mb\": %s}%s%s,\n"
		" \"runs\": 1, \"seed\": 1}\n",
		kernels, range, steps ? ",\n \"steps\": " : "", steps ? steps : "");
	fclose(f);
}

static const char *const CLOCKPRO = "\"clockpro\": {\"reclaim\": {\"module\": \"clockpro\", \"series\": \"2005-12\"}}";

static json_t *run_n(json_t *r, size_t i)
{
	return json_array_get(json_object_get(r, "runs"), i);
}

static double num(json_t *run, const char *section, const char *name)
{
	json_t *v = json_object_get(json_object_get(run, section), name);
	if (!json_is_number(v))
		fail_msg("%s %s missing", section, name);
	return json_number_value(v);
}

/* The whole 1 MiB files fit: step 1 caches 256 pages of each (the file ends the
 * readahead), step 2 starts with exactly those, reads nothing from the disk and
 * hits every page; the same step on a fresh boot starts from an empty cache. */
static void chain_carries_page_cache(void **state)
{
	(void)state;
	const char *scn = "test_chain_cache.json";
	write_scenario(scn, "\"lru2q\": {\"reclaim\": \"lru2q\"}", "[1, 1]",
		       "[{\"zero2_size\": \"1MiB\"}, {\"zero2_size\": \"1MiB\", \"duration\": \"1s\"}]");
	json_t *r = run_results(scn, 2);
	json_t *a = run_n(r, 0), *b = run_n(r, 1);
	assert_int_equal(num(a, "chain", "step"), 0);
	assert_int_equal(num(b, "chain", "step"), 1);
	assert_int_equal(num(b, "chain", "steps"), 2);
	assert_int_equal(num(a, "metrics", "zero_cached_pages_at_start"), 0);
	assert_int_equal(num(a, "metrics", "zero_cached_pages"), 256);
	assert_int_equal(num(a, "metrics", "zero2_cached_pages"), 256);
	assert_int_equal(num(a, "vmstat", "pgpgin"), 2 * 256 * 4);   /* KiB */
	assert_int_equal(num(b, "metrics", "zero_cached_pages_at_start"), 256);
	assert_int_equal(num(b, "metrics", "zero2_cached_pages_at_start"), 256);
	assert_int_equal(num(b, "vmstat", "pgpgin"), 0);
	near(num(b, "metrics", "zero_hit_ratio"), 1.0, 0);
	/* the run's vmstat is the steps' sum; the steps are back to back */
	json_t *ta = json_object_get(json_object_get(a, "chain"), "sim_time");
	json_t *tb = json_object_get(json_object_get(b, "chain"), "sim_time");
	near(json_real_value(json_array_get(ta, 1)), json_real_value(json_array_get(tb, 0)), 0);
	near(json_real_value(json_array_get(ta, 0)), 0, 0);
	assert_true(json_real_value(json_array_get(tb, 1)) >= json_real_value(json_array_get(tb, 0)) + 1.0);
	/* each entry's params name its own step's workload */
	json_t *wb = json_object_get(json_object_get(b, "params"), "workload");
	near(json_number_value(json_object_get(wb, "duration")), 1.0, 0);
	json_decref(r);

	/* the second step alone, on a fresh boot */
	write_scenario(scn, "\"lru2q\": {\"reclaim\": \"lru2q\"}", "[1, 1]",
		       "[{\"zero2_size\": \"1MiB\", \"duration\": \"1s\"}]");
	r = run_results(scn, 1);
	assert_int_equal(metric(r, "zero_cached_pages_at_start"), 0);
	assert_int_equal(vmstat(r, "pgpgin"), 2 * 256 * 4);
	json_decref(r);
}

/* CLOCK-Pro under pressure in step 1 (33 MiB read through 24 MiB): step 2 starts
 * with the pages and the non-resident entries step 1 left; on a fresh boot the
 * same step remembers nothing. */
static void chain_carries_clockpro(void **state)
{
	(void)state;
	const char *scn = "test_chain_cp.json";
	write_scenario(scn, CLOCKPRO, "[1, 1]", "[{\"range_mb\": [1, 32]}, {\"range_mb\": [1, 1]}]");
	json_t *r = run_results(scn, 2);
	json_t *a = run_n(r, 0), *b = run_n(r, 1);
	/* the steps' points: the key every step sets */
	json_t *pb = json_object_get(json_object_get(b, "point"), "workload.range_mb");
	assert_int_equal(json_integer_value(json_array_get(pb, 1)), 1);
	json_t *pa = json_object_get(json_object_get(a, "point"), "workload.range_mb");
	assert_int_equal(json_integer_value(json_array_get(pa, 1)), 32);
	assert_int_equal(json_integer_value(json_object_get(a, "point_index")), 0);
	assert_int_equal(json_integer_value(json_object_get(b, "point_index")), 1);
	assert_true(num(a, "vmstat", "pgsteal") > 0);
	assert_true(num(a, "metrics", "nonresident_remembered") > 0);
	assert_int_equal(num(b, "metrics", "zero_cached_pages_at_start"),
			 num(a, "metrics", "zero_cached_pages"));
	assert_int_equal(num(b, "metrics", "zero2_cached_pages_at_start"),
			 num(a, "metrics", "zero2_cached_pages"));
	assert_true(num(b, "metrics", "zero2_cached_pages_at_start") > 0);
	/* the module's counters live in the kernel: they count from the boot */
	assert_true(num(b, "metrics", "nonresident_remembered") >=
		    num(a, "metrics", "nonresident_remembered"));
	assert_int_equal(num(a, "metrics", "invariants_ok"), 1);
	assert_int_equal(num(b, "metrics", "invariants_ok"), 1);
	json_decref(r);

	write_scenario(scn, CLOCKPRO, "[1, 1]", "[{\"range_mb\": [1, 1]}]");
	r = run_results(scn, 1);
	assert_int_equal(metric(r, "zero2_cached_pages_at_start"), 0);
	assert_int_equal(metric(r, "nonresident_remembered"), 0);
	assert_int_equal(vmstat(r, "pgsteal"), 0);
	json_decref(r);
}

/* engine.max_time stops a chain inside its second step of three: that step ends
 * there, as a stopped run does, and the third never starts. */
static void chain_stopped(void **state)
{
	(void)state;
	const char *scn = "test_chain_stop.json";
	write_scenario(scn, "\"lru2q\": {\"reclaim\": \"lru2q\"}", "[1, 1]",
		       "[{\"zero2_size\": \"1MiB\"}, {\"zero2_size\": \"1MiB\"}, {\"zero2_size\": \"1MiB\"}],\n"
		       " \"engine\": {\"max_time\": \"2.5s\"}");
	json_t *r = run_results(scn, 2);
	json_t *b = run_n(r, 1);
	assert_int_equal(num(b, "chain", "step"), 1);
	assert_int_equal(num(b, "chain", "steps"), 3);
	json_t *tb = json_object_get(json_object_get(b, "chain"), "sim_time");
	near(json_real_value(json_array_get(tb, 1)), 2.5, 0);
	assert_int_equal(json_integer_value(json_object_get(b, "point_index")), 1);
	json_decref(r);
}

/* Same chain twice: byte-identical results. */
static void chain_deterministic(void **state)
{
	(void)state;
	const char *scn = "test_chain_det.json";
	const char *steps = "[{\"range_mb\": [1, 32], \"pattern\": \"random\"}, {\"range_mb\": [1, 8], \"pattern\": \"random\"}]";
	write_scenario(scn, CLOCKPRO, "[1, 1]", steps);
	json_t *a = run_results(scn, 2);
	write_scenario(scn, CLOCKPRO, "[1, 1]", steps);
	json_t *b = run_results(scn, 2);
	assert_same_results(a, b);
}

/* Bad steps: exit 2, one line naming the step's path. */
static void chain_bad_steps(void **state)
{
	(void)state;
	static const struct {
		const char *steps, *path;
	} bad[] = {
		{ "{}", "steps" },
		{ "[]", "steps" },
		{ "[{\"range_mb\": [1, 1]}, 3]", "steps[1]" },
		{ "[{\"range_mb\": [1, 1]}, {\"range_mb\": [1, 64]}]", "steps[1].range_mb" },
		{ "[{\"range_mb\": [1, 1]}, {\"duration\": \"-1s\"}]", "steps[1].duration" },
		{ "[{\"nosuch\": 1}]", "steps[0].nosuch" },
		{ "[{\"type\": \"trace\"}]", "steps[0].type" },
		{ "[{\"type\": \"nosuch\"}]", "steps[0].type" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *scn = "test_chain_bad.json";
		write_scenario(scn, CLOCKPRO, "[1, 1]", bad[i].steps);
		assert_bad_scenario(scn, bad[i].path);
	}
	/* more than 100 steps */
	char many[2048] = "[";
	for (int i = 0; i < 101; i++)
		strcat(many, i ? ",{}" : "{}");
	strcat(many, "]");
	write_scenario("test_chain_bad.json", CLOCKPRO, "[1, 1]", many);
	assert_bad_scenario("test_chain_bad.json", "steps");
}

/* Lookahead lives on past a step of another workload: the aim9 task, alone on
 * its CPU, pays 4 times in a chain of its own and 44 times after a kernbench
 * step (pdflush writing the build's pages back wakes beside it); before the
 * chain actor was a lookahead peer, make's exit was watched and the finished
 * step's balancer retired, it paid 20,069 times (every quantum).  Steps of
 * different workloads name their type in their points. */
static void chain_lookahead_mixed(void **state)
{
	(void)state;
	const char *scn = "test_chain_mixed.json";
	const char *steps[2] = {
		"[{}]",
		"[{\"type\": \"kernbench\", \"files\": 6, \"headers\": 32, \"headers_per_job\": 8, "
		"\"cc_cycles\": 2e7, \"link_cycles\": 2e7, \"jobs\": 2}, {}]",
	};
	double pay[2];
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(scn, "w");
		assert_non_null(f);
		fprintf(f,
			"{\"name\": \"mixed\",\n"
			" \"machine\": {\"arch\": \"i386\", \"cpus\": 4, \"clock\": \"1.6GHz\", \"memory\": \"256MiB\",\n"
			"   \"copy_bw\": \"1GB/s\", \"disks\": [{\"name\": \"sda\", \"size\": \"1GB\", \"read\": \"50MB/s\",\n"
			"   \"write\": \"50MB/s\", \"seek_avg\": \"5ms\", \"track_to_track\": \"0.5ms\", \"rpm\": 10000,\n"
			"   \"queue\": \"fifo\"}]},\n"
			" \"kernels\": {\"buddy\": {\"reclaim\": \"lru2q\", \"alloc\": \"buddy\"}},\n"
			" \"workload\": {\"type\": \"aim9\", \"test\": \"creat-clo\", \"duration\": \"20ms\"},\n"
			" \"steps\": %s, \"runs\": 1, \"seed\": 1}\n",
			steps[i]);
		fclose(f);
		json_t *r = run_results(scn, (size_t)i + 1);
		json_t *last = run_n(r, (size_t)i);
		pay[i] = num(last, "metrics", "cpu_payments");
		assert_true(num(last, "metrics", "ops") > 0);
		if (i == 1) {
			json_t *p0 = json_object_get(run_n(r, 0), "point");
			json_t *p1 = json_object_get(json_object_get(last, "point"), "workload.type");
			assert_string_equal(json_string_value(json_object_get(p0, "workload.type")), "kernbench");
			assert_string_equal(json_string_value(p1), "aim9");
		} else {
			assert_null(json_object_get(json_object_get(last, "point"), "workload.type"));
		}
		json_decref(r);
	}
	assert_true(pay[0] > 0);
	assert_true(pay[1] < 20 * pay[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain_carries_page_cache),
		cmocka_unit_test(chain_carries_clockpro),
		cmocka_unit_test(chain_stopped),
		cmocka_unit_test(chain_deterministic),
		cmocka_unit_test(chain_bad_steps),
		cmocka_unit_test(chain_lookahead_mixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
