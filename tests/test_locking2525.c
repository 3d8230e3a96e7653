/*
 * test_locking2525.c - seed 002's kernel configuration of 2.5.25's locking
 * (vm.lru_locking "per-page", vm.fs_locking "2.5.25", the buddy allocator without
 * per-CPU lists) against 2.6's, on a small i386 kernel with highmem (1 GiB, two
 * CPUs).  Harness: tests/kharness.h (a forked child runs the body as an actor).
 *
 * Exact counts worked out by hand:
 *  - 20 pages written into a new file and then truncated: 2.5.25 takes the zone
 *    lock once per page allocated and once per page freed (40), the one global
 *    pagemap_lru_lock once per page linked and once per page unlinked (40);
 *    2.6 links them through the per-CPU pagevec (one drain of 14 under lru_lock,
 *    6 pages left in the pagevec until lru_add_drain), serves the pages from
 *    the per-CPU list (two refills under zone->lock) and frees them to it (no
 *    zone->lock), releasing them under lru_lock in two pagevecs (14 + 6);
 *  - the ext2 model: 5 blocks allocated take lock_super 5 times, a run of 5
 *    freed once, an inode created or freed lock_super and inode_lock once each,
 *    an inode dirtied neither; ext2_readdir takes the big kernel lock once, as
 *    a bare lock_kernel pair does; with 2.6's locking none of them.
 */
#define KH_NAME "test_locking2525"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "models/fs/ext2.h"
#include "tests/kharness.h"

static const char *const MACHINE =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_26 = "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}";
static const char *const K_2525 =
	"{\"reclaim\":\"lru2q\",\"alloc\":{\"module\":\"buddy\",\"pcp\":false},"
	"\"vm\":{\"readahead\":false,\"lru_locking\":\"per-page\",\"fs_locking\":\"2.5.25\"}}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

/* Sums of every zone's lock counts: lru_lock (out 0), zone->lock (out 1). */
static uint64_t lru_acq(struct tctx *x)
{
	uint64_t n = 0;
	for (int i = 0; i < MM_NR_ZONES; i++)
		n += x->k.lru_lock[i].acquisitions;
	return n;
}

static uint64_t zone_acq(struct tctx *x)
{
	uint64_t n = 0;
	for (int i = 0; i < MM_NR_ZONES; i++)
		n += x->k.zone_lock[i].acquisitions;
	return n;
}

/* Write 20 new pages, then truncate them: out 0/1 the lru/zone acquisitions of
 * the write, out 2/3 those of the truncate, out 4 the pages still in this CPU's
 * lru_add pagevec after the write, out 5 free pages lost (must be 0). */
static int b_pages(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 32 * 4096, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	uint64_t l0 = lru_acq(x), z0 = zone_acq(x), free0 = kh_free_pages(x);
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 20 * 4096, &st), 20 * 4096);
	x->out[0] = (double)(lru_acq(x) - l0);
	x->out[1] = (double)(zone_acq(x) - z0);
	x->out[4] = k->lru_add_pvec[0].nr;
	mm_lru_add_drain(k, &x->task);
	uint64_t l1 = lru_acq(x), z1 = zone_acq(x);
	mm_file_truncate(k, &x->task, f, 0, 20);
	x->out[2] = (double)(lru_acq(x) - l1);
	x->out[3] = (double)(zone_acq(x) - z1);
	x->out[5] = (double)free0 - (double)kh_free_pages(x);
	/* the same acquisitions by caller (metrics lru_lock_*_by_SITE) */
	x->out[6] = (double)k->lru_site_acq[MM_LRU_SITE_ADD];
	x->out[7] = (double)k->lru_site_acq[MM_LRU_SITE_RELEASE];
	x->out[8] = (double)(k->lru_site_acq[MM_LRU_SITE_OTHER] + k->lru_site_acq[MM_LRU_SITE_ACCESSED] +
			     k->lru_site_acq[MM_LRU_SITE_ACTIVATE] + k->lru_site_acq[MM_LRU_SITE_RECLAIM]);
	return 0;
}

static void test_pages_2525(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_2525, b_pages, o);
	/* every page: zone->lock to allocate, pagemap_lru_lock to link */
	assert_int_equal((int)o[0], 20);
	assert_int_equal((int)o[1], 20);
	assert_int_equal((int)o[4], 0);
	/* every page: pagemap_lru_lock to unlink, zone->lock to free */
	assert_int_equal((int)o[2], 20);
	assert_int_equal((int)o[3], 20);
	assert_int_equal((int)o[5], 0);
	assert_int_equal((int)o[6], 20);   /* by lru_cache_add */
	assert_int_equal((int)o[7], 20);   /* by release_pages */
	assert_int_equal((int)o[8], 0);
}

static void test_pages_26(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_26, b_pages, o);
	/* one pagevec drain (14 pages, one zone); 6 pages wait in the pagevec */
	assert_int_equal((int)o[0], 1);
	assert_int_equal((int)o[4], 6);
	/* the per-CPU list is refilled in batches under zone->lock: two refills
	 * of the zone's batch for 20 pages */
	assert_int_equal((int)o[1], 2);
	/* truncate releases in pagevecs of 14: two lru_lock holds (14 + 6); the
	 * 20 freed pages go to the per-CPU list, below its high mark: no zone->lock */
	assert_int_equal((int)o[2], 2);
	assert_int_equal((int)o[3], 0);
	assert_int_equal((int)o[5], 0);
	assert_int_equal((int)o[6], 2);   /* the full pagevec's drain and lru_add_drain's */
	assert_int_equal((int)o[7], 2);
	assert_int_equal((int)o[8], 0);
}

/* The ext2 model's locks: out 0 lock_super after 5 blocks allocated, out 1
 * after a run of 5 freed, out 2/3 lock_super/inode_lock after an inode created,
 * freed and dirtied. */
static int b_ext2(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct ext2_costs c = { .lookup = 300, .dir_scan = 1500, .inode = 3000, .block = 500 };
	struct ext2_fs fs;
	ext2_init(&fs, &c);
	ext2_blocks_alloc(k, &x->task, &fs, 5);
	x->out[0] = (double)fs.lock_super.acquisitions;
	ext2_blocks_free(k, &x->task, &fs, 5);
	x->out[1] = (double)fs.lock_super.acquisitions;
	ext2_inode_new(k, &x->task, &fs);
	ext2_inode_free(k, &x->task, &fs);
	ext2_inode_op(k, &x->task, &fs);
	x->out[2] = (double)fs.lock_super.acquisitions;
	x->out[3] = (double)fs.inode_lock.acquisitions;
	x->out[4] = (double)fs.blocks;
	x->out[5] = (double)fs.inodes;
	x->out[6] = fs.lock_super.sleeps;
	/* the big kernel lock: ext2_readdir of a directory page, and a bare
	 * lock_kernel/unlock_kernel pair */
	struct mm_file *d = mm_file_create(k, "dir", 4096, 0, 0);
	CHECK(d);
	CHECK_EQ(ext2_readdir(k, &x->task, &fs, d, 0), 0);
	CHECK_EQ(ext2_readdir(k, &x->task, &fs, d, 1), -1);   /* past the directory */
	ext2_bkl_lock(k, &x->task, &fs);
	ext2_bkl_unlock(k, &x->task, &fs);
	x->out[7] = (double)fs.bkl.acquisitions;
	x->out[8] = (double)fs.dir_kmaps;
	ext2_fini(&fs);
	return 0;
}

static void test_ext2_2525(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_2525, b_ext2, o);
	assert_int_equal((int)o[0], 5);
	assert_int_equal((int)o[1], 6);
	assert_int_equal((int)o[2], 8);
	assert_int_equal((int)o[3], 2);
	assert_int_equal((int)o[4], 10);
	assert_int_equal((int)o[5], 3);
	assert_int_equal((int)o[6], 1);   /* lock_super is a semaphore: its waiters sleep */
	assert_int_equal((int)o[7], 2);   /* one readdir, one lock_kernel pair */
	assert_int_equal((int)o[8], 1);
}

static void test_ext2_26(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_26, b_ext2, o);
	assert_int_equal((int)o[0], 0);
	assert_int_equal((int)o[1], 0);
	assert_int_equal((int)o[2], 0);
	assert_int_equal((int)o[3], 0);
	assert_int_equal((int)o[4], 10);
	assert_int_equal((int)o[5], 3);
	assert_int_equal((int)o[7], 0);   /* 2.6: no big kernel lock on these paths */
	assert_int_equal((int)o[8], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_2525),
		cmocka_unit_test(test_pages_26),
		cmocka_unit_test(test_ext2_2525),
		cmocka_unit_test(test_ext2_26),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
