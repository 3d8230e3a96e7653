/*
 * test_highalloc.c - the highalloc workload's kernel objects (workloads/
 * highalloc.c): a tiny HighAlloc run with no memory pressure, where every
 * object the load makes is still there when pass 1 starts, counted by hand.
 * Same scaffolding as test_untar.c: a one-run scenario on a small i386 box, the
 * built `mmemu run` ($MMEMU), the invariant checker on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/runmmemu.h"

static char scn[128];

/* @extra: more workload members ("" or starting with a comma). */
static void write_scn(const char *alloc, const char *extra)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-highalloc-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"highalloc test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": 2, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"256MiB\", \"copy_bw\": \"1GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"50MB/s\",\n"
		"      \"write\": \"50MB/s\", \"seek_avg\": \"5ms\", \"track_to_track\": \"0.5ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"fifo\" } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"alloc\": \"%s\", \"vm\": { \"dirty_writeback\": true } } },\n"
		"  \"workload\": { \"type\": \"highalloc\", \"check\": true, \"builds\": 2,\n"
		"    \"tree_size\": \"2MiB\", \"tree_files\": 64, \"tree_dirs\": 4, \"obj_slots\": 8,\n"
		"    \"include_size\": \"1MiB\", \"headers_per_job\": 2, \"sys_files\": 32, \"sys_per_job\": 40,\n"
		"    \"cc_cycles\": 1e6, \"cc_heap\": \"64KiB\", \"make_heap\": \"64KiB\", \"settle\": \"5s\",\n"
		"    \"attempts\": 2, \"order\": 2, \"interval\": \"10ms\", \"pass_gap\": \"10ms\",\n"
		"    \"kill_after\": \"10ms\", \"flush_size\": 0%s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		alloc, extra);
	fclose(f);
}

/* Sum of the first run's metrics whose names start with @pre. */
static double sum_prefix(json_t *r, const char *pre)
{
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	const char *key;
	json_t *v;
	double sum = 0;
	json_object_foreach(m, key, v)
		if (!strncmp(key, pre, strlen(pre)))
			sum += json_number_value(v);
	return sum;
}

/* Returns: metric @name of the first run, 0 when absent (the census records
 * only non-zero counts). */
static double metric0(json_t *r, const char *name)
{
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	return json_number_value(json_object_get(m, name));
}

/* The census of ZONE_NORMAL (256 MiB: 240 MiB from 16 MiB, 15,360 blocks of
 * order 2) when pass 1 starts: each block has exactly one pinner, a slab block's
 * cache is counted once, the kinds' pages fill the blocks, and the 26 metadata
 * pages are all there, clean or held by the journal. */
static void check_census(json_t *r)
{
	near(metric(r, "census_pass1_normal_blocks"), 15360, 0);
	double slab = sum_prefix(r, "census_pass1_normal_pin_slab");   /* slab and slab_rclm */
	near(sum_prefix(r, "census_pass1_normal_pin_") - sum_prefix(r, "census_pass1_normal_pin_cache_"),
	     15360, 0);
	near(sum_prefix(r, "census_pass1_normal_pin_cache_"), slab, 0);
	near(sum_prefix(r, "census_pass1_normal_pages_") - sum_prefix(r, "census_pass1_normal_pages_cache_"),
	     15360 * 4, 0);
	near(metric0(r, "census_pass1_normal_pages_metadata") + metric0(r, "census_pass1_normal_pages_journal"),
	     26, 0);
	near(sum_prefix(r, "census_pass1_normal_pages_cache_buffer_head") +
	     sum_prefix(r, "census_pass1_normal_pages_cache_radix_tree_node"), 15 + 2, 0);
}

/* Per tree: 64 files, 4 directories, the top one and 16 .o/.cmd files are 85
 * inodes, 3 inode-table blocks, and 5 directory blocks; the 32 system files' one
 * inode block and their directory block; /tmp's two; the block groups' (one
 * group a tree, 96 inodes a tree: one block bitmap and one inode bitmap each;
 * /tmp's inode bitmap; the one group-descriptor block): 26 metadata pages, each
 * with a buffer head.  Written data pages: 2 x (512 + 8 x 4) = 1,088 buffer
 * heads, so 1,114 in 15 slab pages of 78; radix-tree nodes: 9 leaves and a root per tree,
 * one node for the system files, one for the metadata: 22 in 2 slab pages of 14.
 * No pressure: nothing pruned, every dentry and inode there. */
static void check(const char *alloc, double slack)
{
	write_scn(alloc, "");
	json_t *r = run_results(scn, 1);
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "metadata_pages_load"), 26, 0);
	near(metric(r, "slab_pages_pagecache_load"), 15 + 2, 0);
	near(metric(r, "dentries_pruned"), 0, 0);
	near(metric(r, "inodes_pruned"), 0, 0);
	near(metric(r, "kernel_object_failures"), 0, 0);
	check_census(r);
	/* the journal: kjournald committed, and released no more than was changed */
	assert_true(metric(r, "journal_commits") >= 1);
	assert_true(metric(r, "journal_buffers_dirtied") >= 26);
	assert_true(metric(r, "journal_buffers_released") <= metric(r, "journal_buffers_dirtied"));
	/* 2 x 85 tree dentries and 32 system files': 7 pages of 29, 29 of 7 (with
	 * @slack: how the two builds' creations and the compilers' temporary files
	 * interleave decides which partial slab each object lands in, and mbuddy's
	 * own costs change that interleaving), plus the empty slabs the compilers'
	 * temporary files leave on the two caches' free lists, which cache_reap has
	 * not yet freed: at most free_limit objects each (2 CPUs: 209 dentries = 7
	 * pages, 88 inodes = 12 pages; kobj.c mm_kcache_tune) */
	double sp = metric(r, "slab_pages_reclaimable_load");
	assert_true(sp >= 7 + 29 && sp <= 7 + 29 + slack + 7 + 12);
	assert_true(metric(r, "slab_pages_reaped") >= 1);   /* cache_reap ran */
	/* at rest: the trees are gone; the system files' 32 dentries and inodes
	 * (pages of objects freed by rm -rf are freed unless a survivor is in them) */
	assert_true(metric(r, "slab_pages_reclaimable_rest") >= 2 + 5);
	json_decref(r);
	unlink(scn);
}

static void test_objects_buddy(void **state)
{
	(void)state;
	check("buddy", 0);
}

static void test_objects_mbuddy(void **state)
{
	(void)state;
	check("mbuddy", 4);
}

/* cc1's, as's and the libraries' text mapped from the page cache: every job
 * faults cc1's 8 pages and the libraries' 2, and as's 4 and the libraries' 2
 * again (a fresh mapping each exec), so 16 faults a job; each binary is read
 * once, at its first fault (one read-around window covers the whole file), and
 * every later fault, in any job of either build, is a page-cache hit: 3 major
 * faults.  No pressure: the 14 pages are all cached when pass 1 starts.
 * With it, three names each compile's include search misses in its tree's
 * include/: the first compile of each build makes them, every later one hits
 * them (nothing is pruned), so 2 x 3 negative dentries are made in all.
 * Every exec (each build's make, each job's cc1 and as) kmallocs 4 objects
 * (linux_binprm, two program-header tables, the interpreter's name) and frees
 * them before it returns: none is left at the end. */
static void test_text(void **state)
{
	(void)state;
	write_scn("buddy", ", \"cc_text_pages\": 8, \"as_text\": 4, \"as_data\": 3, \"lib_text\": 2, "
		  "\"neg_per_tree\": 3");
	json_t *r = run_results(scn, 1);
	near(metric(r, "invariants_ok"), 1, 0);
	double jobs = metric(r, "compile_jobs");
	assert_true(jobs >= 2);
	near(metric(r, "text_faults"), 16 * jobs, 0);
	near(metric(r, "text_major_faults"), 3, 0);
	near(metric(r, "text_pages_load"), 14, 0);
	near(metric(r, "negative_dentries_made"), 6, 0);
	near(metric(r, "exec_kmallocs"), 4 * (2 * jobs + 2), 0);
	near(metric(r, "exec_kmalloc_objects_end"), 0, 0);
	near(metric(r, "dentries_pruned"), 0, 0);
	near(metric(r, "oom_failures"), 0, 0);
	json_decref(r);
	unlink(scn);
}

/* Builds beyond HA_MAX_BUILDS (12) are refused before anything runs, naming
 * the parameter. */
static void test_text_files(void **state)
{
	(void)state;
	write_scn("buddy", ", \"cc_text_pages\": 8");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s run -q --set workload.builds=13 %s -o /dev/null 2>&1",
		 getenv("MMEMU"), scn);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[512] = "";
	assert_non_null(fgets(line, sizeof line, p));
	assert_int_equal(WEXITSTATUS(pclose(p)), 2);
	assert_non_null(strstr(line, "workload.builds"));
	assert_non_null(strstr(line, "expected a value in [1, 12]"));
	unlink(scn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_buddy),
		cmocka_unit_test(test_objects_mbuddy),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
