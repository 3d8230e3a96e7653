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

static void write_scn(const char *alloc)
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
		"    \"kill_after\": \"10ms\", \"flush_size\": 0 },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		alloc);
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
	write_scn(alloc);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_buddy),
		cmocka_unit_test(test_objects_mbuddy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
