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
 *    a dirty inode held off inode_unused until wb_kupdate cleans it; an open
 *    file's dentry kept in use until its close;
 *  - a process's fork/exec objects (files, fs, sighand, signal, mm_struct,
 *    anon_vma) made and given back (kobj.c mm_kproc_start/exit);
 *  - the 2.6.16 slab free list (kobj.c): which empty slabs free_block keeps
 *    under free_limit, what each cache_reap visit frees, free_touched, a partly
 *    used slab pinned by one object; the per-CPU and shared object arrays
 *    (refill batches, flush to the shared array, cache_reap's drains);
 *  - the pageblock census (census.c): what each kind of page adds, at order 0
 *    (a page a block) and order 10 (which kind pins a block), slab pages by
 *    cache, the cache table, bad zone and order;
 *  - ext3's journal (jbd.c): what a change pins (a journal_head, a page
 *    reference), what a commit dirties and releases, a block changed again;
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
#include "models/fs/jbd.h"
#include "models/mm/census.h"
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
static const char *const K_WB =
	"{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false,\"dirty_writeback\":true}}";
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
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
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
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
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

/* Negative dentries: a directory and three names it does not have make four
 * dentries and one inode; each negative one holds the directory.  Dirtying one
 * does nothing (vm.dirty_writeback on).  One prune_dcache(128) frees all four
 * dentries (a pass clearing DCACHE_REFERENCED, then the frees; the directory
 * last, once its children are gone): only the directory's inode goes on
 * inode_unused, nothing is held.  A lookup makes the name again, its directory
 * first (dentries only: the directory's inode is taken off inode_unused), and
 * deleting everything leaves no object. */
static int b_negative(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
	uint32_t dir = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE), id[3];
	for (int i = 0; i < 3; i++) {
		id[i] = mm_dentry_negative(k, &x->task, &d, dir);
		CHECK(id[i] != MM_DENT_NONE);
		CHECK_EQ(d.e[id[i]].ino, PFN_NONE);
	}
	CHECK_EQ(d.dentry.objs, 4);
	CHECK_EQ(d.inode.objs, 1);
	CHECK_EQ(d.negatives, 3);
	CHECK_EQ(d.e[dir].children, 3);
	mm_inode_dirty(k, &x->task, &d, id[0]);
	CHECK_EQ(d.dirtied, 0);
	CHECK_EQ(d.sdirty.n, 0);
	CHECK_EQ(k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128), 0);
	CHECK_EQ(d.pruned_dentries, 4);
	CHECK_EQ(d.dentry.objs, 0);
	CHECK_EQ(d.inode.objs, 1);
	CHECK_EQ(d.iunused.n, 1);
	CHECK_EQ(d.iunused.head, dir);
	CHECK_EQ(d.held, 0);
	CHECK_EQ(d.e[dir].children, 0);
	CHECK(mm_dentry_lookup(k, &x->task, &d, id[1]) == 0);
	CHECK_EQ(d.negatives, 4);
	CHECK_EQ(d.recreated, 2);
	CHECK_EQ(d.dentry.objs, 2);
	CHECK_EQ(d.inode.objs, 1);
	CHECK_EQ(d.iunused.n, 0);
	CHECK_EQ(d.e[dir].children, 1);
	CHECK(mm_dentry_lookup(k, &x->task, &d, id[1]) == 0);   /* cached: a hit */
	CHECK_EQ(d.negatives, 4);
	for (int i = 0; i < 3; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	mm_dentry_delete(k, &x->task, &d, dir);
	CHECK_EQ(d.dentry.objs + d.inode.objs, 0);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	k->ninode_sbs = 0;
	kh_drain_all(x);
	return 0;
}

static int written_back(struct tctx *x, struct mm_file *f, uint32_t pfn);

/* The pages hook for b_inode_pages: file 0's inode is tagged owner 0 and
 * keeps pages 2 and 5 of the file (dirty, mapped); owner 1's has none. */
static struct mm_file *inv_file;
static uint32_t inv_pages(void *arg, struct mm_kernel *k, struct mm_task *t, uint32_t owner)
{
	(void)arg;
	return owner == 0 ? mm_file_invalidate(k, t, inv_file, 0, 8) : 0;
}

/* prune_icache with page cache: an 8-page file read in, page 2 dirtied and
 * page 5 mapped; mm_file_invalidate drops the 6 clean unmapped pages and
 * leaves 2.  Two unused inodes: the one whose file keeps pages goes back to
 * the head of inode_unused (kept_for_pages 1), the other is freed; a second
 * prune keeps it again; once its pages are clean and unmapped it is freed. */
static int b_inode_pages(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	struct mm_read_stats rst = { 0 };
	inv_file = mm_file_create(k, "inv", 8 * 4096, 0, 1 << 20);
	CHECK(inv_file);
	mm_file_read(k, &x->task, inv_file, 0, 8 * 4096, &rst);
	mm_lru_add_drain(k, &x->task);
	CHECK_EQ(inv_file->nr_cached, 8);
	uint32_t p2 = inv_file->pfn[2], p5 = inv_file->pfn[5];
	page_set(kh_page(x, p2), PG_dirty);
	k->nr_dirty++;
	inv_file->nr_dirty++;
	kh_page(x, p5)->mapcount = 1;
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
	mm_dcache_set_pages(&d, inv_pages, NULL);
	uint32_t a = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
	uint32_t b = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
	mm_dentry_set_owner(&d, a, 0);
	mm_dentry_set_owner(&d, b, 1);
	CHECK_EQ(k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128), 0);
	CHECK_EQ(d.iunused.n, 2);
	CHECK_EQ(d.iunused.tail, a);   /* freed first, so pruned first */
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 2);
	CHECK_EQ(inv_file->nr_cached, 2);
	CHECK(inv_file->pfn[2] == p2 && inv_file->pfn[5] == p5);
	CHECK_EQ(d.kept_for_pages, 1);
	CHECK_EQ(d.pruned_inodes, 1);
	CHECK_EQ(d.e[b].ino, PFN_NONE);
	CHECK(d.e[a].ino != PFN_NONE);
	CHECK_EQ(d.iunused.head, a);
	/* alone on the list, it is the tail again at every step: each looks at
	 * it (and invalidates again), as 2.6.16's loop does */
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 5);
	CHECK_EQ(d.kept_for_pages, 6);
	CHECK_EQ(d.pruned_inodes, 1);
	CHECK(written_back(x, inv_file, p2) == 0);
	kh_page(x, p5)->mapcount = 0;
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 128);
	CHECK_EQ(d.pruned_inodes, 2);
	CHECK_EQ(inv_file->nr_cached, 0);
	CHECK_EQ(d.inode.objs, 0);
	mm_dentry_delete(k, &x->task, &d, a);
	mm_dentry_delete(k, &x->task, &d, b);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	k->ninode_sbs = 0;
	kh_drain_all(x);
	return 0;
}

/* Page @pfn's objects out of the slab (in use or parked). */
static uint32_t inuse(struct tctx *x, uint32_t pfn)
{
	return (uint32_t)kh_page(x, pfn)->index;
}

/* The object arrays (kobj.c mm_kcache_arrays) of a dentry-sized cache (29 a
 * page, limit 120, batchcount 60, shared 480, free_limit 209) on 2 CPUs, the
 * task on CPU 0.  The first allocation refills 16 (BATCHREFILL_LIMIT: the
 * array is untouched) from a new page A; the 17th refills the 13 left in A
 * (touched: up to 60, but no new page while A has objects); the 30th grows page
 * B and takes all 29.  Thirty frees park 30 objects: with the 28 left, 58
 * parked, both pages pinned with no object in use.  Drains: the first only
 * clears touched; then 24 ((120 + 4) / 5), 24, 5 ((10 + 1) / 2), 3, 1, 1 of
 * the oldest, B's 28 first; the last two empty A then B onto the free list,
 * and cache_reap frees both.  Then 150 allocations take 6 new pages (16, 13,
 * then 29 a page: 174 objects, 24 left parked) and 150 frees fill the array to
 * 120 and flush its 60 oldest to the shared array (cache_flusharray): 114 and
 * 60 parked. */
static int b_arrays(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_kcache c;
	static uint32_t h[150];
	CHECK_EQ(x->task.cpu, 0);
	CHECK(mm_kcache_init(&c, k, "dentry_cache", 29, MM_GFP_KERNEL) == 0);
	CHECK_EQ(mm_kcache_tune(&c, 2), 209);
	CHECK(mm_kcache_arrays(&c, 2) == 0);
	CHECK_EQ(c.ac[0].limit, 120);
	CHECK_EQ(c.batchcount, 60);
	CHECK_EQ(c.shared.limit, 480);
	h[0] = mm_kobj_alloc(k, &x->task, &c);
	uint32_t a = h[0];
	CHECK_EQ(c.slabs, 1);
	CHECK_EQ(c.parked, 15);
	CHECK_EQ(inuse(x, a), 16);
	for (int i = 1; i < 17; i++)
		h[i] = mm_kobj_alloc(k, &x->task, &c);
	CHECK_EQ(c.slabs, 1);
	CHECK_EQ(c.parked, 12);
	CHECK_EQ(inuse(x, a), 29);
	for (int i = 17; i < 30; i++)
		h[i] = mm_kobj_alloc(k, &x->task, &c);
	uint32_t b = h[29];
	CHECK(b != a);
	CHECK_EQ(c.slabs, 2);
	CHECK_EQ(c.parked, 28);
	CHECK_EQ(c.objs, 30);
	for (int i = 0; i < 30; i++)
		mm_kobj_free(k, &x->task, &c, h[i]);
	CHECK_EQ(c.objs, 0);
	CHECK_EQ(c.parked, 58);
	CHECK_EQ(c.slabs, 2);   /* pinned by parked objects */
	CHECK_EQ(inuse(x, a) + inuse(x, b), 58);
	static const uint32_t drained[] = { 0, 24, 24, 5, 3, 1, 1, 0 };
	static const uint32_t in_a[] = { 29, 29, 9, 4, 1, 0, 0, 0 };
	static const uint32_t in_b[] = { 29, 5, 1, 1, 1, 1, 0, 0 };
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(mm_kcache_drain(k, &x->task, &c, 0), drained[i]);
		CHECK_EQ(inuse(x, a), in_a[i]);
		CHECK_EQ(inuse(x, b), in_b[i]);
	}
	CHECK_EQ(c.parked, 0);
	CHECK_EQ(c.nempty, 2);
	CHECK_EQ(mm_kcache_drain(k, &x->task, &c, -1), 0);   /* the shared array is empty */
	CHECK_EQ(mm_kcache_reap(k, &x->task, &c), 2);
	CHECK_EQ(c.slabs, 0);
	for (int i = 0; i < 150; i++)
		h[i] = mm_kobj_alloc(k, &x->task, &c);
	CHECK_EQ(c.slabs, 6);
	CHECK_EQ(c.parked, 24);
	for (int i = 0; i < 150; i++)
		mm_kobj_free(k, &x->task, &c, h[i]);
	CHECK_EQ(c.ac[0].avail, 114);
	CHECK_EQ(c.shared.avail, 60);
	CHECK_EQ(c.parked, 174);
	CHECK_EQ(c.slabs, 6);
	mm_kcache_fini(&c);
	return 0;
}

/* Dirty inodes (vm.dirty_writeback): ten files, 0..3 dirtied at boot, 4 and 5
 * at 10 s, 6..9 clean.  One prune_dcache(128) frees all ten dentries (a pass
 * clearing DCACHE_REFERENCED, then the frees): the six dirty inodes are held
 * off inode_unused, the four clean ones go on it, and prune_icache(128) frees
 * only those four although the shrinker counts ten.  wb_kupdate (a pass every
 * 5 s) cleans 0..3 at 30 s or 35 s (30 s old) and 4, 5 at 40 s or 45 s; each
 * cleaned unused inode goes on inode_unused, where prune_icache frees it.  A
 * held inode looked up again is in use, dirty, off the list; deleted, it
 * leaves s_dirty.  Without vm.dirty_writeback nothing is marked. */
static int b_dirty_inodes(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
	CHECK_EQ(k->ninode_sbs, 1);
	uint32_t id[11];
	for (int i = 0; i < 11; i++)
		id[i] = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
	for (int i = 0; i < 4; i++)
		mm_inode_dirty(k, &x->task, &d, id[i]);
	mm_inode_dirty(k, &x->task, &d, id[0]);   /* already dirty: no change */
	CHECK_EQ(d.dirtied, 4);
	mm_sleep(&x->task, 10.0 - mm_now(k, &x->task), NULL);
	mm_inode_dirty(k, &x->task, &d, id[4]);
	mm_inode_dirty(k, &x->task, &d, id[5]);
	mm_inode_dirty(k, &x->task, &d, id[10]);
	mm_dentry_delete(k, &x->task, &d, id[10]);   /* unlinked while dirty */
	CHECK_EQ(d.sdirty.n, 6);
	CHECK_EQ(k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128), 0);
	CHECK_EQ(d.pruned_dentries, 10);
	CHECK_EQ(d.held, 6);
	CHECK_EQ(d.held_max, 6);
	CHECK_EQ(d.iunused.n, 4);
	CHECK_EQ(k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 0), 0);   /* (4 + 6) / 100 */
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 128);
	CHECK_EQ(d.pruned_inodes, 4);
	CHECK_EQ(d.inode.objs, 6);
	for (int i = 6; i < 10; i++)
		CHECK_EQ(d.e[id[i]].ino, PFN_NONE);
	mm_sleep(&x->task, 36.0 - mm_now(k, &x->task), NULL);
	CHECK_EQ(d.cleaned, 4);
	CHECK_EQ(d.held, 2);
	CHECK_EQ(d.iunused.n, 4);
	CHECK_EQ(d.iunused.tail, id[0]);   /* cleaned oldest first, each to the head */
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 128);
	CHECK_EQ(d.pruned_inodes, 8);
	CHECK_EQ(d.inode.objs, 2);
	/* file 4 looked up: its inode is in use again, still dirty */
	CHECK(mm_dentry_lookup(k, &x->task, &d, id[4]) == 0);
	CHECK_EQ(d.held, 1);
	CHECK(d.e[id[4]].dirty && d.e[id[4]].dent != PFN_NONE);
	mm_sleep(&x->task, 46.0 - mm_now(k, &x->task), NULL);
	CHECK_EQ(d.cleaned, 6);
	CHECK_EQ(d.held, 0);
	CHECK_EQ(d.sdirty.n, 0);
	CHECK_EQ(d.iunused.n, 1);   /* file 5's; file 4's dentry is cached */
	CHECK(!d.e[id[4]].dirty);
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 128);
	CHECK_EQ(d.pruned_inodes, 9);
	for (int i = 0; i < 10; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	CHECK_EQ(d.dentry.objs + d.inode.objs, 0);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	k->ninode_sbs = 0;
	kh_drain_all(x);
	return 0;
}

/* An open file's dentry: ten files, file 3 held (mm_dentry_get).  One
 * prune_dcache(128): the nine others are freed, file 3 is taken off
 * dentry_unused and kept; its close puts it back at the head, referenced; the
 * next prune gives it its second chance and then frees it.  A held file is not
 * unlinked. */
static int b_open(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
	uint32_t id[10];
	for (int i = 0; i < 10; i++)
		id[i] = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
	CHECK(mm_dentry_get(k, &x->task, &d, id[3]) == 0);
	CHECK_EQ(d.e[id[3]].users, 1);
	k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128);
	CHECK_EQ(d.pruned_dentries, 9);
	CHECK(d.e[id[3]].dent != PFN_NONE);
	CHECK(!d.e[id[3]].lru);
	CHECK_EQ(d.dunused.n, 0);
	mm_dentry_delete(k, &x->task, &d, id[3]);   /* open: left alone */
	CHECK_EQ(d.dentry.objs, 1);
	mm_dentry_put(&d, id[3]);
	CHECK(d.e[id[3]].lru && d.e[id[3]].referenced);
	CHECK_EQ(d.dunused.n, 1);
	k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128);
	CHECK_EQ(d.pruned_dentries, 10);
	CHECK_EQ(d.dentry.objs, 0);
	for (int i = 0; i < 10; i++)
		mm_dentry_delete(k, &x->task, &d, id[i]);
	CHECK_EQ(d.dentry.objs + d.inode.objs, 0);
	mm_dcache_fini(&d);
	k->nshrinkers = 0;
	kh_drain_all(x);
	return 0;
}

/* A process's fork/exec objects (kobj.c mm_kproc_start with every optional
 * cache): one files_struct, fs_struct, sighand_struct, signal_struct and
 * mm_struct each, an anon_vma for the stack and one for a heap; none for a
 * heapless process; exit gives every object back. */
static int b_kproc_objs(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_kcache task, vma, files, fs, sighand, signal, mm, anon;
	CHECK(mm_kcache_init(&task, k, "task_struct", 3, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&vma, k, "vm_area_struct", 44, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&files, k, "files_cache", 9, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&fs, k, "fs_cache", 61, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&sighand, k, "sighand_cache", 3, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&signal, k, "signal_cache", 15, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&mm, k, "mm_struct", 6, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&anon, k, "anon_vma", 290, MM_GFP_KERNEL) == 0);
	const struct mm_kproc_caches kc = { &task, &vma, &files, &fs, &sighand, &signal, &mm, &anon };
	uint64_t free0 = kh_free_pages(x);
	struct mm_kproc p, q;
	CHECK(mm_kproc_start(k, &x->task, &p, &kc, 5, 16, NULL) == 0);
	CHECK(mm_kproc_start(k, &x->task, &q, &kc, 5, 0, NULL) == 0);
	CHECK_EQ(files.objs, 2);
	CHECK_EQ(fs.objs, 2);
	CHECK_EQ(sighand.objs, 2);
	CHECK_EQ(signal.objs, 2);
	CHECK_EQ(mm.objs, 2);
	CHECK_EQ(anon.objs, 3);   /* p: stack and heap; q: stack */
	CHECK_EQ(task.objs, 2);
	CHECK_EQ(vma.objs, 10);
	CHECK_EQ(q.obj[MM_KP_ANON_HEAP], PFN_NONE);
	/* one slab page each for the 8 caches */
	CHECK_EQ(files.slabs + fs.slabs + sighand.slabs + signal.slabs + mm.slabs + anon.slabs +
		 task.slabs + vma.slabs, 8);
	mm_kproc_exit(k, &x->task, &p, &kc);
	mm_kproc_exit(k, &x->task, &q, &kc);
	CHECK_EQ(files.objs + fs.objs + sighand.objs + signal.objs + mm.objs + anon.objs + task.objs +
		 vma.objs, 0);
	kh_drain_all(x);
	CHECK_EQ(kh_free_pages(x), free0);
	struct mm_kcache *all[] = { &task, &vma, &files, &fs, &sighand, &signal, &mm, &anon };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		mm_kcache_fini(all[i]);
	return 0;
}

/* The same without vm.dirty_writeback: nothing is marked, everything freed. */
static int b_dirty_off(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_dcache d;
	CHECK(mm_dcache_init(&d, k, &mm_dgeom_ext3_26, true) == 0);
	CHECK_EQ(k->ninode_sbs, 0);
	uint32_t id = mm_dentry_new(k, &x->task, &d, MM_DENT_NONE);
	mm_inode_dirty(k, &x->task, &d, id);
	CHECK_EQ(d.dirtied, 0);
	k->shrinkers[0].shrink(k, &x->task, k->shrinkers[0].arg, 128);
	k->shrinkers[1].shrink(k, &x->task, k->shrinkers[1].arg, 128);
	CHECK_EQ(d.pruned_inodes, 1);
	CHECK_EQ(d.held, 0);
	mm_dentry_delete(k, &x->task, &d, id);
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

/* Sum of the census of every zone at @order into @sum (pages and pins). */
static void census_all(struct tctx *x, unsigned order, struct mm_census *sum)
{
	struct mm_census c;
	memset(sum, 0, sizeof *sum);
	for (int j = 0; j < MM_NR_ZONES; j++) {
		if (mm_census_zone(&x->k, j, order, &c))
			continue;
		sum->blocks += c.blocks;
		for (int i = 0; i < MM_CEN_NR; i++) {
			sum->pin[i] += c.pin[i];
			sum->in[i] += c.in[i];
			sum->pages[i] += c.pages[i];
		}
		for (int i = 0; i < MM_MAX_KCACHES; i++) {
			sum->slab_pin[i] += c.slab_pin[i];
			sum->slab_pages[i] += c.slab_pages[i];
		}
	}
}

#define DELTA(b, a, f, i) ((int64_t)(b).f[i] - (int64_t)(a).f[i])

/* A process with 5 vm_area_structs and an 8 MiB heap (2,048 pages): a task slab
 * page and a vma slab page, a kernel stack (order 1: 2 pages), 3 + 2 page-table
 * pages, 2,048 anonymous pages.  At order 0 every page is its own block, so each
 * kind pins as many blocks as it has pages.  At order 10 an order-10 kernel block
 * taken from the free lists turns one wholly free block into one pinned by
 * "kernel".  A block-device page is metadata, dirty it is journal.  Everything
 * freed, the census is the one before. */
static int b_census(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_census a, b, a10, b10, c;
	static struct mm_kcache task, vma, task2;
	CHECK(mm_kcache_init(&task, k, "task_struct", 3, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&vma, k, "vm_area_struct", 44, MM_GFP_KERNEL) == 0);
	CHECK(mm_kcache_init(&task2, k, "task_struct", 3, MM_GFP_KERNEL) == 0);
	CHECK_EQ(task2.id, task.id);   /* same name, same id */
	CHECK(vma.id != task.id);
	kh_drain_all(x);
	census_all(x, 0, &a);
	census_all(x, 10, &a10);
	CHECK_EQ(a.pin[MM_CEN_FREE], a.pages[MM_CEN_FREE]);
	CHECK_EQ(a.pages[MM_CEN_FREE], kh_free_pages(x));
	struct mm_kproc p;
	const struct mm_kproc_caches kc = { .task = &task, .vma = &vma };
	CHECK(mm_kproc_start(k, &x->task, &p, &kc, 5, 2048, NULL) == 0);
	kh_drain_all(x);
	census_all(x, 0, &b);
	CHECK_EQ(DELTA(b, a, pages, MM_CEN_STACK), 2);
	CHECK_EQ(DELTA(b, a, pin, MM_CEN_STACK), 2);
	CHECK_EQ(DELTA(b, a, pages, MM_CEN_PTE), 5);
	CHECK_EQ(DELTA(b, a, pin, MM_CEN_PTE), 5);
	CHECK_EQ(DELTA(b, a, pages, MM_CEN_SLAB), 2);
	CHECK_EQ(DELTA(b, a, slab_pin, task.id), 1);
	CHECK_EQ(DELTA(b, a, slab_pages, vma.id), 1);
	CHECK_EQ(DELTA(b, a, pages, MM_CEN_ANON), 2048);
	CHECK_EQ(DELTA(b, a, pages, MM_CEN_FREE), -(2 + 5 + 2 + 2048));
	/* order 10: an order-10 kernel block */
	uint32_t big = mm_pages_alloc(k, &x->task, MM_ZONE_NORMAL, 10, MM_GFP_KERNEL | MM_GFP_NODMA, NULL);
	CHECK(big != PFN_NONE);
	census_all(x, 10, &b10);
	mm_pages_free(k, &x->task, big, 10);
	kh_drain_all(x);
	census_all(x, 10, &c);
	CHECK_EQ(DELTA(b10, c, pin, MM_CEN_KERNEL), 1);
	CHECK_EQ(DELTA(b10, c, pin, MM_CEN_FREE), -1);
	CHECK_EQ(DELTA(b10, c, pages, MM_CEN_KERNEL), 1024);
	CHECK_EQ(b10.blocks, a10.blocks);
	uint32_t sum = 0;
	for (int i = 0; i < MM_CEN_NR; i++)
		sum += b10.pin[i];
	CHECK_EQ(sum, b10.blocks);   /* each block has exactly one pinner */
	/* metadata: a block-device page, clean then dirty */
	struct mm_file *bd = mm_file_create(k, "bdev", 16 * 4096, 0, 1 << 20);
	CHECK(bd);
	bd->bdev = true;
	mm_file_getblk(k, &x->task, bd, 3, true);
	unsigned cache;
	uint32_t pfn = bd->pfn[3];
	CHECK(pfn != PFN_NONE);
	CHECK_EQ(mm_census_kind(k, pfn, &cache), MM_CEN_META);
	page_set(kh_page(x, pfn), PG_dirty);
	CHECK_EQ(mm_census_kind(k, pfn, &cache), MM_CEN_JOURNAL);
	page_clear(kh_page(x, pfn), PG_dirty);
	CHECK_EQ(mm_census_kind(k, p.task, &cache), MM_CEN_SLAB);
	CHECK_EQ(cache, task.id);
	mm_file_truncate(k, &x->task, bd, 0, 16);
	mm_kproc_exit(k, &x->task, &p, &kc);
	kh_drain_all(x);
	census_all(x, 0, &c);
	CHECK(memcmp(c.pages, a.pages, sizeof a.pages) == 0);
	CHECK(memcmp(c.pin, a.pin, sizeof a.pin) == 0);
	/* bad zone and order: -1, nothing counted */
	CHECK_EQ(mm_census_zone(k, -1, 10, &c), -1);
	CHECK_EQ(c.blocks, 0);
	CHECK_EQ(mm_census_zone(k, MM_NR_ZONES, 10, &c), -1);
	CHECK_EQ(mm_census_zone(k, MM_ZONE_NORMAL, MM_MAX_ORDER, &c), -1);
	/* the cache table is full at MM_MAX_KCACHES names */
	static const char *names[MM_MAX_KCACHES + 1];
	static char buf[MM_MAX_KCACHES + 1][16];
	static struct mm_kcache more;
	unsigned left = MM_MAX_KCACHES - k->nkcaches;
	for (unsigned i = 0; i < left; i++) {
		snprintf(buf[i], sizeof buf[i], "c%u", i);
		names[i] = buf[i];
		CHECK(mm_kcache_init(&more, k, names[i], 8, MM_GFP_KERNEL) == 0);
		mm_kcache_fini(&more);
	}
	CHECK_EQ(mm_kcache_init(&more, k, "one-too-many", 8, MM_GFP_KERNEL), -1);
	mm_kcache_fini(&more);
	mm_kcache_fini(&task);
	mm_kcache_fini(&task2);
	mm_kcache_fini(&vma);
	return 0;
}

static void test_census(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_census, NULL);
}

/* Clear the dirty bit of @pfn of @f as its write-back's completion would.
 * Returns: 0, or -1 if it was not dirty. */
static int written_back(struct tctx *x, struct mm_file *f, uint32_t pfn)
{
	CHECK(page_test_clear(kh_page(x, pfn), PG_dirty));
	x->k.nr_dirty--;
	f->nr_dirty--;
	return 0;
}

/* Blocks 0, 1, 2 of a 16-block device changed (1 twice): 3 journal_heads in one
 * slab page, each page one reference more and counted as journal by the census.
 * Commit 1: none released, the 3 pages dirty, on the checkpoint list.  Block 1
 * changed again: back in the running transaction with its journal_head.
 * Commit 2: none released (all dirty).  Block 0 written back: commit 3 releases
 * it (its reference and journal_head); the others written back: commit 4
 * releases 2, the journal_head slab page is freed. */
static int b_jbd(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	static struct mm_jbd j;
	struct mm_file *bd = mm_file_create(k, "bdev", 16 * 4096, 0, 1 << 20);
	CHECK(bd);
	bd->bdev = true;
	CHECK(mm_jbd_init(&j, k, bd) == 0);
	uint32_t pfn[3];
	int32_t c0[3];
	for (int i = 0; i < 3; i++) {
		pfn[i] = mm_file_getblk(k, &x->task, bd, (uint32_t)i, true);
		CHECK(pfn[i] != PFN_NONE);
		c0[i] = kh_page(x, pfn[i])->count;
		mm_jbd_dirty(k, &x->task, &j, (uint32_t)i);
	}
	mm_jbd_dirty(k, &x->task, &j, 1);
	unsigned cache;
	CHECK_EQ(j.dirtied, 3);
	CHECK_EQ(j.jh.objs, 3);
	CHECK_EQ(j.jh.slabs, 1);
	CHECK_EQ(j.nrun, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(kh_page(x, pfn[i])->count, c0[i] + 1);
		CHECK_EQ(mm_census_kind(k, pfn[i], &cache), MM_CEN_JOURNAL);
	}
	CHECK_EQ(mm_census_kind(k, j.jh_pfn[0], &cache), MM_CEN_SLAB);
	CHECK_EQ(cache, j.jh.id);
	uint64_t d0 = k->nr_dirty;
	CHECK_EQ(mm_jbd_commit(k, &x->task, &j), 0);
	CHECK_EQ(k->nr_dirty - d0, 3);
	CHECK_EQ(bd->nr_dirty, 3);
	CHECK_EQ(j.nrun, 0);
	CHECK_EQ(j.ncp, 3);
	mm_jbd_dirty(k, &x->task, &j, 1);
	CHECK_EQ(j.nrun, 1);
	CHECK_EQ(j.ncp, 2);
	CHECK_EQ(j.jh.objs, 3);
	CHECK_EQ(j.dirtied, 4);
	CHECK_EQ(mm_jbd_commit(k, &x->task, &j), 0);
	CHECK_EQ(j.ncp, 3);
	CHECK_EQ(k->nr_dirty - d0, 3);   /* block 1 was still dirty */
	CHECK(written_back(x, bd, pfn[0]) == 0);
	CHECK_EQ(mm_jbd_commit(k, &x->task, &j), 1);
	CHECK_EQ(kh_page(x, pfn[0])->count, c0[0]);
	CHECK_EQ(mm_census_kind(k, pfn[0], &cache), MM_CEN_META);
	CHECK_EQ(j.jh.objs, 2);
	CHECK_EQ(j.ncp, 2);
	CHECK(written_back(x, bd, pfn[1]) == 0);
	CHECK(written_back(x, bd, pfn[2]) == 0);
	CHECK_EQ(mm_jbd_commit(k, &x->task, &j), 2);
	CHECK_EQ(j.released, 3);
	CHECK_EQ(j.commits, 4);
	CHECK_EQ(j.jh.objs, 0);
	CHECK_EQ(j.jh.slabs, 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(kh_page(x, pfn[i])->count, c0[i]);
	/* a block not cached, or past the device: nothing */
	mm_jbd_dirty(k, &x->task, &j, 9);
	mm_jbd_dirty(k, &x->task, &j, 16);
	CHECK_EQ(j.dirtied, 4);
	CHECK_EQ(j.jh.objs, 0);
	mm_file_truncate(k, &x->task, bd, 0, 16);
	mm_jbd_fini(&j);
	kh_drain_all(x);
	return 0;
}

static void test_jbd(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_jbd, NULL);
}

static void test_reap(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_reap, NULL);
}

static void test_dirty_inodes(void **state)
{
	(void)state;
	run(MACHINE, K_WB, b_dirty_inodes, NULL);
	run(MACHINE, K_BUDDY, b_dirty_off, NULL);
	run(MACHINE, K_BUDDY, b_open, NULL);
	run(MACHINE, K_BUDDY, b_arrays, NULL);
	run(MACHINE, K_BUDDY, b_kproc_objs, NULL);
}

static void test_dirs(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_dirs, NULL);
	run(MACHINE, K_WB, b_negative, NULL);
	run(MACHINE, K_BUDDY, b_inode_pages, NULL);
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

/* The kernel's caches (mm_dcache_of): made once, with both shrinkers and the
 * per-CPU arrays; a second caller with the same geometry gets the same
 * caches, one with another geometry gets a message and nothing; what one
 * caller made, the kernel's shrink_slab prunes (mm_kernel_fini frees it: the
 * sanitizer build checks). */
static int b_kernel_dcache(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	char why[160] = "";
	struct mm_dcache *d = mm_dcache_of(k, &mm_dgeom_ext3_26, why, sizeof why);
	CHECK(d != NULL && k->dcache == d);
	CHECK_EQ(k->nshrinkers, 2);
	CHECK_EQ(d->dentry.ncpus, k->phys.ncpus);
	CHECK_EQ(d->inode.ncpus, k->phys.ncpus);
	CHECK(strcmp(d->inode.name, "ext3_inode_cache") == 0);
	CHECK(mm_dcache_of(k, &mm_dgeom_ext3_26, why, sizeof why) == d);
	CHECK_EQ(k->nshrinkers, 2);
	CHECK(mm_dcache_of(k, &mm_dgeom_ext2_25, why, sizeof why) == NULL);
	CHECK(strstr(why, "29 dentries and 7 ext3_inode_cache") != NULL);
	/* mm_dentry_use: a file not cached yet is made and its inode dirtied; a
	 * second open finds it (no new object) */
	uint32_t f = MM_DENT_NONE;
	uint64_t dirtied = d->dirtied, objs = d->dentry.objs;
	CHECK(mm_dentry_use(k, &x->task, d, &f, MM_DENT_NONE) == 0 && f != MM_DENT_NONE);
	CHECK_EQ(d->dentry.objs, objs + 1);
	CHECK_EQ(d->dirtied, dirtied + (k->cfg.dirty_writeback ? 1 : 0));
	uint32_t again = f;
	CHECK(mm_dentry_use(k, &x->task, d, &again, MM_DENT_NONE) == 0 && again == f);
	CHECK_EQ(d->dentry.objs, objs + 1);
	for (int i = 0; i < 300; i++)
		CHECK(mm_dentry_new(k, &x->task, d, MM_DENT_NONE) != MM_DENT_NONE);
	CHECK(mm_shrink_slab(k, &x->task, 32, 0) > 0);
	CHECK(d->pruned_dentries > 0 && d->pruned_inodes > 0);
	return 0;
}

static void test_shrink_slab(void **state)
{
	(void)state;
	run(MACHINE, K_BUDDY, b_shrink, NULL);
	run(MACHINE, K_BUDDY, b_kernel_dcache, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_mbuddy_kern_blocks),
		cmocka_unit_test(test_zbuddy_never_easyrclm),
		cmocka_unit_test(test_shrink_slab),
		cmocka_unit_test(test_dirs),
		cmocka_unit_test(test_dirty_inodes),
		cmocka_unit_test(test_reap),
		cmocka_unit_test(test_census),
		cmocka_unit_test(test_jbd),
		cmocka_unit_test(test_mbuddy_costs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
