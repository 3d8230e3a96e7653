/*
 * test_slabobj.c - the lowmem kernel objects of seed 003 on small i386 kernels
 * with highmem (tests/kharness.h: a forked child runs the body as an actor):
 *  - buffer heads and radix-tree nodes (models/fs/bufhead.c): how many a write,
 *    a read and a truncate make and free, which slab page each lands in
 *    (78 buffer heads, 14 nodes a page), that their pages are lowmem while the
 *    file's are highmem;
 *  - which block their slab pages get: mbuddy files them in KERN blocks, zbuddy
 *    never places them in ZONE_EASYRCLM (where the file pages go);
 *  - shrink_slab (vmscan.c) with the dentry and inode shrinkers (dcache.c):
 *    exact scan counts, second chance of referenced dentries, LRU-order frees,
 *    slab pages freed, reclaimed_slab, deferred work, a pruned file made again;
 *    a directory kept while it has children, back on the list after the last;
 *  - the 2.6.16 slab free list (kobj.c): which empty slabs free_block keeps
 *    under free_limit, what each cache_reap visit frees, free_touched, a partly
 *    used slab pinned by one object;
 *  - mbuddy's own costs (usemap reads and bit operations, extra list probes):
 *    counted and charged for mbuddy only.
 */
#define KH_NAME "test_slabobj"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "models/alloc/alloc.h"
#include "models/fs/bufhead.h"
#include "models/fs/dcache.h"
#include "models/mm/vmscan.h"
#include "tests/kharness.h"

int mbuddy_block_type(const struct alloc *a, uint32_t pfn);

static const char *const MACHINE =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const MACHINE_KC =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,\"kernelcore\":\"512MiB\","
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_BUDDY = "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}";
static const char *const K_MBUDDY =
	"{\"reclaim\":\"lru2q\",\"alloc\":\"mbuddy\",\"vm\":{\"readahead\":false}}";
static const char *const K_ZBUDDY =
	"{\"reclaim\":\"lru2q\",\"alloc\":\"zbuddy\",\"vm\":{\"readahead\":false}}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

/* Every slab page of @c (found by PG_slab and the cache's partial/position
 * bookkeeping is not enough: walk the frames) is lowmem; count them. */
static uint64_t slab_pages_in_zone(struct tctx *x, int zone)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < x->k.phys.nr_pages; i++)
		if (page_test(kh_page(x, i), PG_slab) && kh_page(x, i)->zone == zone)
			n++;
	return n;
}

/* 200-page file: two radix levels (4 leaves under a root).  A write of 130
 * pages: 130 buffer heads (two slab pages: 78 + 52), leaves 0..2 and the root
 * (one slab page); a read-only file of 10 pages: one node, no buffer heads;
 * truncating pages 64..129 frees leaves 1 and 2 and the second buffer-head page. */
static int b_counts(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 200 * 4096, 0, 1 << 20);
	struct mm_file *g = mm_file_create(k, "g", 10 * 4096, 0, 8 << 20);
	CHECK(f && g);
	CHECK(mm_pcobj_enable(k) == 0);
	struct mm_pcobj *o = k->pcobj;
	struct mm_read_stats st = { 0 };
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 130 * 4096, &st), 130 * 4096);
	CHECK_EQ(o->bh_live, 130);
	CHECK_EQ(o->bh.objs, 130);
	CHECK_EQ(o->bh.slabs, 2);
	CHECK_EQ(o->nodes_live, 4);
	CHECK_EQ(o->radix.slabs, 1);
	CHECK(page_test(kh_page(x, f->pfn[0]), PG_highmem));
	CHECK_EQ(slab_pages_in_zone(x, MM_ZONE_NORMAL), 3);
	CHECK_EQ(slab_pages_in_zone(x, MM_ZONE_HIGHMEM), 0);
	CHECK_EQ(mm_file_read(k, &x->task, g, 0, 10 * 4096, &st), 10 * 4096);
	CHECK_EQ(o->bh_live, 130);
	CHECK_EQ(o->nodes_live, 5);
	CHECK_EQ(o->radix.slabs, 1);
	/* the same pages written again: no new object */
	CHECK_EQ(mm_file_write(k, &x->task, f, 0, 130 * 4096, &st), 130 * 4096);
	CHECK_EQ(o->bh_live, 130);
	CHECK_EQ(o->nodes_live, 5);
	mm_file_truncate(k, &x->task, f, 64, 66);
	CHECK_EQ(o->bh_live, 64);
	CHECK_EQ(o->bh.slabs, 1);
	CHECK_EQ(o->nodes_live, 3);
	mm_file_truncate(k, &x->task, f, 0, 200);
	mm_file_truncate(k, &x->task, g, 0, 10);
	CHECK_EQ(o->bh_live, 0);
	CHECK_EQ(o->nodes_live, 0);
	CHECK_EQ(o->bh.slabs + o->radix.slabs, 0);
	CHECK_EQ(slab_pages_in_zone(x, MM_ZONE_NORMAL), 0);
	kh_drain_all(x);
	return 0;
}

/* Write @pages pages of a new file; the file pages' zone and the slab pages'
 * blocks go to x->out: [0] slab pages, [1] in KERN or FALLBACK blocks (mbuddy),
 * [2] in EasyRclm, [3] file pages in EasyRclm, [4] file pages, [5] slab pages
 * in EASY blocks (mbuddy). */
static int b_placement(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t pages = 4000;
	struct mm_file *f = mm_file_create(k, "f", (uint64_t)pages * 4096, 0, 1 << 20);
	CHECK(f);
	CHECK(mm_pcobj_enable(k) == 0);
	struct mm_read_stats st = { 0 };
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, (uint64_t)pages * 4096, &st),
		 (uint64_t)pages * 4096);
	bool mb = strcmp(k->alloc->ops->name, "mbuddy") == 0;
	for (uint32_t i = 0; i < k->phys.nr_pages; i++) {
		struct page *p = kh_page(x, i);
		if (!page_test(p, PG_slab))
			continue;
		x->out[0]++;
		/* V19: a KERN steal is marked FALLBACK while the fallback reserve is
		 * short, KERN after; never an EASY (or NORCLM) block here */
		int bt = mb ? mbuddy_block_type(k->alloc, i) : -1;
		if (bt == MM_RCLM_KERN || bt == MM_RCLM_EASY + 1)
			x->out[1]++;
		if (bt == MM_RCLM_EASY)
			x->out[5]++;
		if (p->zone == MM_ZONE_EASYRCLM)
			x->out[2]++;
		CHECK_EQ(p->alloc_type, MM_RCLM_KERN);
	}
	for (uint32_t i = 0; i < pages; i++) {
		x->out[4] += f->pfn[i] != PFN_NONE;
		x->out[3] += f->pfn[i] != PFN_NONE && kh_page(x, f->pfn[i])->zone == MM_ZONE_EASYRCLM;
	}
	mm_file_truncate(k, &x->task, f, 0, pages);
	kh_drain_all(x);
	return 0;
}

/* 300 files in the dentry and inode caches (29 and 7 a page), no LRU page:
 * lru_pages 0, so each shrinker's scan is capped at twice its count.
 * dcache: max_pass 300 -> 600 to scan, 4 batches of 128: the first 300 dentries
 * looked at lose DCACHE_REFERENCED, the next 212 are freed (the oldest first),
 * 88 deferred.  icache: max_pass 200 -> 400, 3 batches: its 212 inodes freed,
 * 16 deferred.  Freed: dentries 0..211 (7 whole pages of 29), inodes 0..211 (30
 * whole pages of 7).  Returned: 0 + 0 + 100 + 200 (dcache) + 200 + 0 + 0. */
static int b_shrink(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, 29, 7, true) == 0);
	CHECK_EQ(k->nshrinkers, 2);
	uint32_t id[300];
	for (int i = 0; i < 300; i++) {
		id[i] = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
		CHECK(id[i] != MM_DENT_NONE);
	}
	CHECK_EQ(d.dentry.slabs, 11);
	CHECK_EQ(d.inode.slabs, 43);
	x->task.reclaimed_slab = 0;
	CHECK_EQ(mm_shrink_slab(k, &x->task, 32, 0), 500);
	CHECK_EQ(d.pruned_dentries, 212);
	CHECK_EQ(d.pruned_inodes, 212);
	CHECK_EQ(d.dentry.objs, 88);
	CHECK_EQ(d.inode.objs, 88);
	CHECK_EQ(d.dentry.slabs, 4);
	CHECK_EQ(d.inode.slabs, 13);
	CHECK_EQ(x->task.reclaimed_slab, 7 + 30);
	CHECK_EQ(k->shrinkers[0].nr, 88);
	CHECK_EQ(k->shrinkers[1].nr, 16);
	CHECK_EQ(k->slabs_scanned, 7 * 128);
	/* the survivors are the newest; a pruned file looked up is made again */
	CHECK_EQ(d.e[id[299]].state != 0 && d.e[id[299]].dent != PFN_NONE, 1);
	CHECK_EQ(d.e[id[0]].dent, PFN_NONE);
	CHECK(mm_dentry_lookup(k, &x->task, &d, id[0]) == 0);
	CHECK_EQ(d.recreated, 1);
	CHECK_EQ(d.dentry.objs, 89);
	CHECK_EQ(d.inode.objs, 89);
	/* nothing below one batch: the work is deferred, nothing freed */
	CHECK_EQ(mm_shrink_slab(k, &x->task, 0, UINT64_C(1) << 40), 0);
	for (int i = 0; i < 300; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	CHECK_EQ(d.dentry.objs + d.inode.objs, 0);
	CHECK_EQ(d.dentry.slabs + d.inode.slabs, 0);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	kh_drain_all(x);
	return 0;
}

/* One order-0 kernel page allocated and freed on a fresh kernel.  mbuddy's own
 * costs (kernel-mechanisms.md 4.4): the per-CPU refill takes batch (29) pages of
 * the type; while the zone's fallback reserve (896 MiB / 8 = 28 blocks) is
 * short, each stolen block is typed FALLBACK, so the type's own lists stay empty
 * and each of the 29 pages probes the pool (29 list probes) and steals and types
 * a block (2 bit operations each; the 29th block is typed NORCLM); the free reads
 * the page's block type for the per-type per-CPU list (1 usemap read).
 * x->out: [0] cycles charged, [1..3] reads, bit operations, probes. */
static int b_costs(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	double c0 = x->task.tm.pending + x->task.tm.paid;
	struct alloc_stats st0 = k->alloc->st;
	uint32_t pfn = mm_pages_alloc(k, &x->task, MM_ZONE_NORMAL, 0, MM_GFP_KERNEL | MM_GFP_NODMA,
				      NULL);
	CHECK(pfn != PFN_NONE);
	mm_page_free(k, &x->task, pfn);
	x->out[0] = x->task.tm.pending + x->task.tm.paid - c0;
	x->out[1] = (double)(k->alloc->st.usemap_reads - st0.usemap_reads);
	x->out[2] = (double)(k->alloc->st.usemap_bitops - st0.usemap_bitops);
	x->out[3] = (double)(k->alloc->st.list_probes - st0.list_probes);
	return 0;
}

static void test_mbuddy_costs(void **state)
{
	(void)state;
	double b[16], z[16], m[16];
	run(MACHINE, K_BUDDY, b_costs, b);
	run(MACHINE_KC, K_ZBUDDY, b_costs, z);
	run(MACHINE, K_MBUDDY, b_costs, m);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal((int)b[i], 0);
		assert_int_equal((int)z[i], 0);
	}
	assert_int_equal((int)m[1], 1);
	assert_int_equal((int)m[2], 58);
	assert_int_equal((int)m[3], 29);
	/* the same work otherwise: the difference is 30 page_op (50 cycles) + 58
	 * atomic (100 cycles) */
	assert_true(z[0] == b[0]);
	assert_true(m[0] - b[0] == 30 * 50 + 58 * 100);
}

/* A directory and 200 files in it, all on dentry_unused (the directory first,
 * at the tail).  lru_pages 0: the dcache shrinker scans 2 x 200 = 400, three
 * batches (384): the directory is in use (200 children) and leaves the list,
 * the 200 files lose DCACHE_REFERENCED, then the 183 oldest files are freed,
 * each releasing the directory.  The icache shrinker: max_pass 100, one batch:
 * 128 inodes.  Removing the other 17 files puts the directory back at the
 * head, referenced; a file looked up after its directory was pruned makes the
 * directory again first. */
static int b_dirs(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, 29, 7, true) == 0);
	uint32_t dir = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE), id[200];
	CHECK(dir != MM_DENT_NONE);
	for (int i = 0; i < 200; i++) {
		id[i] = mm_dentry_new(k, &x->task, &d, dir);
		CHECK(id[i] != MM_DENT_NONE);
	}
	CHECK_EQ(d.e[dir].children, 200);
	CHECK_EQ(d.dunused.n, 201);   /* lazy: the directory stays on the list */
	mm_shrink_slab(k, &x->task, 32, 0);
	CHECK_EQ(d.pruned_dentries, 183);
	CHECK_EQ(d.pruned_inodes, 128);
	CHECK_EQ(d.e[dir].children, 17);
	CHECK(!d.e[dir].lru);
	CHECK_EQ(d.dunused.n, 17);
	CHECK_EQ(k->shrinkers[0].nr, 16);
	CHECK_EQ(k->shrinkers[1].nr, 72);
	for (int i = 183; i < 200; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	CHECK_EQ(d.e[dir].children, 0);
	CHECK(d.e[dir].lru && d.e[dir].referenced);
	CHECK_EQ(d.dunused.n, 1);
	/* the directory pruned (twice through the list: referenced, then freed) */
	d.e[dir].referenced = false;
	mm_shrink_slab(k, &x->task, 32, 0);   /* 16 deferred + 0: below one batch */
	CHECK(d.e[dir].dent != PFN_NONE);
	uint64_t objs = d.dentry.objs;
	CHECK_EQ(objs, 1);
	/* a file under a pruned directory: prune the directory through the
	 * registered dcache shrinker (shrink_slab would not: max_pass rounds the
	 * one unused dentry down to 0) */
	CHECK_EQ(k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128), 0);
	CHECK_EQ(d.e[dir].dent, PFN_NONE);
	CHECK(mm_dentry_lookup(k, &x->task, &d, id[0]) == 0);
	CHECK(d.e[dir].dent != PFN_NONE);
	CHECK_EQ(d.e[dir].children, 1);
	CHECK_EQ(d.dentry.objs, 2);
	CHECK_EQ(d.recreated, 2);   /* the file and its directory */
	mm_dentry_delete(k, &x->task, &d, dir);   /* has a child: left alone */
	CHECK_EQ(d.dentry.objs, 2);
	for (int i = 0; i < 183; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	mm_dentry_delete(k, &x->task, &d, dir);
	CHECK_EQ(d.dentry.objs + d.inode.objs, 0);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	kh_drain_all(x);
	return 0;
}

/* A dentry-sized cache (29 a page, 141 bytes: limit 120, batchcount 60) on 2
 * CPUs: free_limit = 3 * 60 + 29 = 209.  580 objects (20 slabs) freed slab by
 * slab: the k-th slab to empty leaves 29k free objects; the first 7 (203) stay
 * on the free list, each later one finds 232 > 209 and is destroyed: 13 pages
 * freed at once, 7 kept.  cache_reap frees (209 + 145 - 1) / 145 = 2 a visit:
 * 2, then an allocation reuses an empty slab (free_touched) and the next visit
 * frees none, then 2, 2, 0 (4 left: 2 + 2; the reused slab is partial).  A
 * partly used slab: one object left pins its page through every visit. */
static int b_reap(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_kcache c;
	static uint32_t h[580];
	CHECK(mm_kcache_init(&c, k, "dentry_cache", 29, MM_GFP_KERNEL) == 0);
	CHECK_EQ(mm_kcache_tune(&c, 2), 209);
	for (int i = 0; i < 580; i++) {
		h[i] = mm_kobj_alloc(k, &x->task, &c);
		CHECK(h[i] != PFN_NONE);
	}
	CHECK_EQ(c.slabs, 20);
	x->task.reclaimed_slab = 0;
	uint64_t free0 = kh_free_pages(x);
	for (int i = 0; i < 580; i++)
		mm_kobj_free(k, &x->task, &c, h[i]);
	CHECK_EQ(c.objs, 0);
	CHECK_EQ(c.slabs, 7);
	CHECK_EQ(c.nempty, 7);
	CHECK_EQ(x->task.reclaimed_slab, 13);
	kh_drain_all(x);
	CHECK_EQ(kh_free_pages(x) - free0, 13);
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 2);
	uint32_t one = mm_kobj_alloc(k, &x->task, &c);   /* from the free list */
	CHECK_EQ(c.slabs, 5);
	CHECK_EQ(c.nempty, 4);
	CHECK(c.free_touched);
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 0);
	CHECK(!c.free_touched);
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 2);
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 2);
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 0);
	CHECK_EQ(c.slabs, 1);   /* the partly used slab: pinned by one object */
	CHECK_EQ(c.reaped, 6);
	CHECK_EQ(x->task.reclaimed_slab, 19);
	mm_kobj_free(k, &x->task, &c, one);
	CHECK_EQ(c.nempty, 1);   /* 29 free objects <= 209: kept */
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 1);
	CHECK_EQ(c.slabs, 0);
	/* untuned (free_limit 0): a slab is freed the moment it empties */
	c.free_limit = 0;
	one = mm_kobj_alloc(k, &x->task, &c);
	mm_kobj_free(k, &x->task, &c, one);
	CHECK_EQ(c.slabs + c.nempty, 0);
	/* the limits by object size: 1 KiB objects (4 a page: limit 54, batch 27),
	 * 2 KiB (24, 12), 8 KiB would be 8; 1 object a page is 4096 bytes: 24 */
	struct mm_kcache d = { .objs_per_slab = 4 };
	CHECK_EQ(mm_kcache_tune(&d, 2), 3 * 27 + 4);
	d.objs_per_slab = 2;
	CHECK_EQ(mm_kcache_tune(&d, 1), 2 * 12 + 2);
	mm_kcache_fini(&c);
	kh_drain_all(x);
	return 0;
}

static void test_reap(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_reap, NULL);
}

static void test_dirs(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_dirs, NULL);
}

static void test_counts(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_counts, NULL);
}

static void test_mbuddy_kern_blocks(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_MBUDDY, b_placement, o);
	/* 4000 buffer heads (52 pages) + 63 leaves and the root (5 pages) */
	assert_int_equal((int)o[0], 52 + 5);
	assert_int_equal((int)o[1], 52 + 5);
	assert_int_equal((int)o[5], 0);
	assert_int_equal((int)o[2], 0);
}

static void test_zbuddy_never_easyrclm(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE_KC, K_ZBUDDY, b_placement, o);
	assert_int_equal((int)o[0], 52 + 5);
	assert_int_equal((int)o[2], 0);
	assert_int_equal((int)o[3], (int)o[4]);   /* the file's pages: all EasyRclm */
	assert_int_equal((int)o[4], 4000);
}

static void test_shrink_slab(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_shrink, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_mbuddy_kern_blocks),
		cmocka_unit_test(test_zbuddy_never_easyrclm),
		cmocka_unit_test(test_shrink_slab),
		cmocka_unit_test(test_dirs),
		cmocka_unit_test(test_reap),
		cmocka_unit_test(test_mbuddy_costs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
