/*
 * test_untar.c - the untar workload (workloads/untar.c): a tiny tree extracted
 * with the counts worked out by hand, determinism, and the bad-parameter error
 * paths.  Same scaffolding as test_aim9.c: a one-run scenario on a small i386
 * box (1 GHz, so cycles = ns; 4 CPUs: bzip2 and tar on CPUs of their own), the
 * built `mmemu run` ($MMEMU), the invariant checker on.
 */
#include <fcntl.h>
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

static char scn[128];

/* Write the scenario: @mem of memory, @cpus CPUs, workload keys @wl (JSON
 * members), and @steps (a JSON array, or NULL: one run of the workload). */
static void write_scn_on(const char *mem, int cpus, const char *wl, const char *steps)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-untar-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"untar test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": %d, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"%s\", \"copy_bw\": \"1GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"50MB/s\",\n"
		"      \"write\": \"50MB/s\", \"seek_avg\": \"5ms\", \"track_to_track\": \"0.5ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"fifo\" } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"alloc\": \"mbuddy\", \"vm\": { \"dirty_writeback\": true } } },\n"
		"  \"workload\": { \"type\": \"untar\", \"check\": true, %s },%s%s\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		cpus, mem, wl, steps ? "\n  \"steps\": " : "", steps ? steps : "");
	fclose(f);
}

static void write_scn(int cpus, const char *wl)
{
	write_scn_on("128MiB", cpus, wl, NULL);
}

#define TINY "\"tarball_size\": \"64KiB\", \"tree_size\": \"1MiB\", \"tree_files\": 100, " \
	     "\"tree_dirs\": 10, \"depth\": 3, \"bunzip2_cycles\": 10"

/* 1 MiB in 100 files in 10 directories: 110 dentries and inodes, 110 path
 * walks (100 of 3 components, 10 mkdirs of 2), 100 directory entries, 210
 * inode operations (each file's new inode and its directory's mtime, each
 * mkdir's inode), 266 blocks (256 of data, one per directory); bzip2's user
 * time is exactly 10 cycles per output byte; every byte reaches the tree. */
static void test_tiny_tree(void **state)
{
	(void)state;
	write_scn(4, TINY);
	json_t *r = run_results(scn, 1);
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "complete"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	near(metric(r, "files"), 100, 0);
	near(metric(r, "dirs"), 10, 0);
	near(metric(r, "bytes"), 1048576, 0);
	near(metric(r, "dentries"), 110, 0);
	near(metric(r, "inodes"), 110, 0);
	near(metric(r, "fs_path_walks"), 110, 0);
	near(metric(r, "dcache_lock_acquisitions"), 100 * 3 + 10 * 2, 0);
	near(metric(r, "fs_dir_writes"), 100, 0);
	near(metric(r, "fs_inode_ops"), 210, 0);
	near(metric(r, "fs_blocks"), 266, 0);
	near(metric(r, "bzip2_user_s"), 10 * 1048576 / 1e9, 1e-15);
	if (!(metric(r, "extract_s") >= metric(r, "bzip2_user_s")))
		fail_msg("the extract cannot end before bzip2 has decompressed everything");
	json_decref(r);
}

/* One boot, two extracts on a 32 MiB box: the first leaves 2,020 dentries
 * and inodes in the kernel's caches; the second (48 MiB through 32) reclaims,
 * and shrink_slab prunes what the first step left (a fresh boot's second
 * extract would find the caches empty). */
static void test_chain_prunes(void **state)
{
	(void)state;
	write_scn_on("32MiB", 4,
		     "\"depth\": 3, \"bunzip2_cycles\": 10, \"tarball_size\": \"64KiB\"",
		     "[ { \"tree_size\": \"1MiB\", \"tree_files\": 2000, \"tree_dirs\": 20 },\n"
		     "    { \"tree_size\": \"48MiB\", \"tree_files\": 10, \"tree_dirs\": 1 } ],");
	json_t *r = run_results(scn, 2);
	json_t *runs = json_object_get(r, "runs");
	json_t *a = json_object_get(json_array_get(runs, 0), "metrics");
	json_t *b = json_object_get(json_array_get(runs, 1), "metrics");
	near(json_number_value(json_object_get(a, "dentries")), 2020, 0);
	near(json_number_value(json_object_get(a, "dentries_pruned")), 0, 0);
	near(json_number_value(json_object_get(b, "invariants_ok")), 1, 0);
	near(json_number_value(json_object_get(b, "files")), 10, 0);
	assert_true(json_number_value(json_object_get(b, "dentries_pruned")) > 11);
	assert_true(json_number_value(json_object_get(b, "inodes_pruned")) > 0);
	/* fewer cached now than the two steps made */
	assert_true(json_number_value(json_object_get(b, "dentries")) < 11);
	json_decref(r);
	unlink(scn);
}

/* Two runs of the same scenario are identical apart from the host section. */
static void test_determinism(void **state)
{
	(void)state;
	json_t *a, *b;
	write_scn(4, TINY);
	a = run_results(scn, 1);
	write_scn(4, TINY);
	b = run_results(scn, 1);
	assert_same_results(a, b);
}

/* Bad parameters: exit 2, nothing on stdout, one line on stderr naming the
 * file and the JSON path. */
static void bad(int cpus, const char *wl, const char *want)
{
	write_scn(cpus, wl);
	assert_bad_scenario(scn, want);
}

static void test_bad_params(void **state)
{
	(void)state;
	bad(4, "\"tree_size\": \"1MiB\", \"tree_files\": 100, \"depth\": 0", "workload.depth");
	bad(4, "\"tree_size\": \"1MiB\", \"tree_files\": 5000", "workload.tree_files");
	bad(4, "\"tree_size\": \"300MiB\"", "machine.disks[0].size");
	bad(1, TINY, "machine.cpus");
	bad(4, TINY ", \"bunzip2\": 1", "workload.bunzip2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny_tree),
		cmocka_unit_test(test_chain_prunes),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
