/*
 * test_ext3.c - ext3's metadata buffers (models/fs/ext3.c) on a small i386 kernel
 * with highmem (1 GiB: ZONE_NORMAL holds the block device's buffer pages,
 * ZONE_HIGHMEM the file data).  Harness: tests/kharness.h (a forked child runs
 * the body as an actor).
 *
 * Exact counts worked out by hand:
 *  - what each operation touches (ext3.c's header): an extending write of 14
 *    pages, fsync, an empty fsync, truncate, a read with readahead off;
 *  - lru_lock acquisitions of N touches of one inode block (stock: the
 *    2.6.10 state machine takes the lock once, to activate; batched: one round
 *    per 14 calls), and of the same calls interleaved with touches of a highmem
 *    data page (stock: one activation per page; batched: the drain re-takes
 *    lru_lock at every zone change, 14 times per pagevec);
 *  - wait_on_buffer: a task waiting for a buffer another task reads sleeps
 *    once and is woken once, at the read's completion (no polling).
 */
#define KH_NAME "test_ext3"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "models/fs/ext3.h"
#include "tests/kharness.h"

static const char *const MACHINE =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_STOCK = "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}";
static const char *const K_BATCH =
	"{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false,\"batch_mark_accessed\":true}}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

static uint64_t acq(struct tctx *x, int zone)
{
	return x->k.lru_lock[zone].acquisitions;
}

static uint64_t tc(struct tctx *x, enum ext3_buf b)
{
	return x->k.ext3->touches[b];
}

/* Per operation (stock kernel): the touches of ext3.c's header. */
static int b_ops(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 16 * 4096, 0, 1 << 20);
	CHECK(f);
	struct mm_err e = { "" };
	CHECK(mm_ext3_enable(k, "t", "workload.fs", &e) == 0);
	CHECK(k->ext3->meta[0] && k->ext3->meta[0]->bdev);
	struct mm_read_stats st = { 0 };
	/* 14 new pages: each allocates its block (bitmap + inode), blocks 12 and 13
	 * go through the indirect block; i_disksize per page; mtime once */
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 14 * 4096, &st), 14 * 4096);
	CHECK_EQ(tc(x, EXT3_BITMAP), 14);
	CHECK_EQ(tc(x, EXT3_INODE), 14 + 14 + 1);
	CHECK_EQ(tc(x, EXT3_INDIRECT), 2);
	CHECK_EQ(tc(x, EXT3_JOURNAL), 0);
	/* the buffers are lowmem page cache: bitmap 0, inode table, indirect slot */
	struct mm_file *m = k->ext3->meta[0];
	CHECK_EQ(m->nr_cached, 3);
	for (uint32_t i = 0; i < m->npages; i++)
		if (m->pfn[i] != PFN_NONE)
			CHECK(!page_test(kh_page(x, m->pfn[i]), PG_highmem));
	CHECK(page_test(kh_page(x, f->pfn[0]), PG_highmem));
	/* fsync commits: descriptor + commit block; again: nothing logged */
	mm_file_sync(k, &x->task, f, 0, 14);
	CHECK_EQ(tc(x, EXT3_JOURNAL), 2);
	CHECK_EQ(k->ext3->commits, 1);
	mm_file_sync(k, &x->task, f, 0, 14);
	CHECK_EQ(tc(x, EXT3_JOURNAL), 2);
	CHECK_EQ(k->ext3->commits, 1);
	/* truncate: orphan add + final inode, the last block's indirect, one bitmap */
	mm_file_truncate(k, &x->task, f, 0, 14);
	CHECK_EQ(tc(x, EXT3_INODE), 31);
	CHECK_EQ(tc(x, EXT3_INDIRECT), 3);
	CHECK_EQ(tc(x, EXT3_BITMAP), 15);
	/* read of 14 uncached pages (readahead off): get_block of each, two indirect;
	 * atime once; the same read again in the same second: cached, no atime */
	CHECK_EQ(mm_file_read(k, &x->task, f, 0, 14 * 4096, &st), 14 * 4096);
	CHECK_EQ(tc(x, EXT3_INDIRECT), 5);
	CHECK_EQ(tc(x, EXT3_INODE), 32);
	CHECK_EQ(mm_file_read(k, &x->task, f, 0, 14 * 4096, &st), 14 * 4096);
	CHECK_EQ(tc(x, EXT3_INDIRECT), 5);
	CHECK_EQ(tc(x, EXT3_INODE), 32);
	kh_drain_all(x);
	return 0;
}

/* A file standing for 8 files of 16 KiB (mm_ext3_members): no block is past
 * the 12 direct ones, each member has its own mtime. */
static int b_members(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 32 * 4096, 0, 1 << 20);
	CHECK(f);
	struct mm_err e = { "" };
	CHECK(mm_ext3_enable(k, "t", "workload.fs", &e) == 0);
	CHECK(mm_ext3_members(k, f, 16384) == 0);
	struct mm_read_stats st = { 0 };
	for (int m = 0; m < 8; m++)
		CHECK_EQ(mm_file_extend(k, &x->task, f, (uint64_t)m * 16384, 16384, &st), 16384);
	CHECK_EQ(tc(x, EXT3_BITMAP), 32);
	CHECK_EQ(tc(x, EXT3_INODE), 32 + 32 + 8);
	CHECK_EQ(tc(x, EXT3_INDIRECT), 0);
	/* bitmap of group 0 and one inode table block (inodes 0..7) */
	CHECK_EQ(k->ext3->meta[0]->nr_cached, 2);
	kh_drain_all(x);
	return 0;
}

/* One inode block touched, made resident and on the LRU (first touch + drain).
 * Returns: its pfn. */
static uint32_t inode_page(struct tctx *x, struct mm_file *f)
{
	mm_ext3_size(&x->k, &x->task, f, 0);
	kh_drain_all(x);
	struct mm_file *m = x->k.ext3->meta[0];
	for (uint32_t i = 0; i < m->npages; i++)
		if (m->pfn[i] != PFN_NONE)
			return m->pfn[i];
	return PFN_NONE;
}

/* A highmem data page read before the files go on ext3 (one mark_page_accessed),
 * the inode block made resident (one touch); 26 more touches of it (out[0], out[1]:
 * NORMAL and HIGHMEM acquisitions), then 14 pairs (inode touch, data page touch)
 * (out[2], out[3]).  In the batched kernel the 28 calls of each phase are two
 * full pagevecs. */
static int b_locks(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 16 * 4096, 0, 1 << 20);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	CHECK_EQ(mm_file_read(k, &x->task, f, 0, 4096, &st), 4096);
	struct mm_err e = { "" };
	CHECK(mm_ext3_enable(k, "t", "workload.fs", &e) == 0);
	uint32_t meta = inode_page(x, f);
	CHECK(meta != PFN_NONE);
	CHECK(!page_test(kh_page(x, meta), PG_highmem));
	uint32_t data = f->pfn[0];
	CHECK(page_test(kh_page(x, data), PG_highmem));
	CHECK(page_test(kh_page(x, data), PG_lru) && page_test(kh_page(x, meta), PG_lru));
	CHECK_EQ(tc(x, EXT3_INODE), 1);
	uint64_t n0 = acq(x, MM_ZONE_NORMAL), h0 = acq(x, MM_ZONE_HIGHMEM);
	for (int i = 0; i < 26; i++)
		mm_ext3_size(k, &x->task, f, 0);
	x->out[0] = (double)(acq(x, MM_ZONE_NORMAL) - n0);
	x->out[1] = (double)(acq(x, MM_ZONE_HIGHMEM) - h0);
	n0 = acq(x, MM_ZONE_NORMAL);
	h0 = acq(x, MM_ZONE_HIGHMEM);
	for (int i = 0; i < 14; i++) {
		mm_ext3_size(k, &x->task, f, 0);
		mm_mark_page_accessed(k, &x->task, data);
	}
	x->out[2] = (double)(acq(x, MM_ZONE_NORMAL) - n0);
	x->out[3] = (double)(acq(x, MM_ZONE_HIGHMEM) - h0);
	CHECK_EQ(tc(x, EXT3_INODE), 1 + 26 + 14);
	CHECK(page_test(kh_page(x, meta), PG_active) && page_test(kh_page(x, data), PG_active));
	return 0;
}

/* wait_on_buffer (mm_file_getblk): a task that finds a metadata buffer another
 * task is reading sleeps once, on the page lock, and the read's completion wakes
 * it once: no polling.  The reader (an actor on CPU 1) reads block 3 of a
 * cold file from disk; the body asks for the same block while the read is in
 * flight.  Both return at the read's completion (within their own few
 * microseconds of CPU, far below a 1 ms poll), the disk read the block once. */
static struct mm_file *wb_file;
static double wb_reader_done;
static uint32_t wb_reader_pfn;

static void wb_reader(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	static struct mm_task t;
	mm_task_init(&t, &ctx->k, 1, "reader");
	sg_actor_set_data(sg_actor_self(), &t);
	wb_reader_pfn = mm_file_getblk(&ctx->k, &t, wb_file, 3, true);
	mm_sync(&t);
	wb_reader_done = simgrid_get_clock();
}

static int b_wait_on_buffer(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	wb_file = mm_file_create(k, "meta", 16 * 4096, 0, 1 << 20);
	CHECK(wb_file);
	sg_actor_create("reader", sg_host_by_name("cpu0"), wb_reader, 0, NULL);
	mm_sleep(&x->task, 100e-6, NULL);   /* the reader's disk read is in flight */
	CHECK(wb_file->pfn[3] != PFN_NONE);
	CHECK(page_test(kh_page(x, wb_file->pfn[3]), PG_locked));
	CHECK_EQ(k->read_sync_inflight, 1);
	uint32_t pfn = mm_file_getblk(k, &x->task, wb_file, 3, true);
	mm_sync(&x->task);
	double now = simgrid_get_clock();
	CHECK_EQ(k->page_lock_sleeps, 1);
	CHECK_EQ(k->page_lock_wakeups, 1);
	CHECK(k->page_waiters == NULL);
	CHECK_EQ(pfn, wb_reader_pfn);
	CHECK(page_test(kh_page(x, pfn), PG_uptodate) && !page_test(kh_page(x, pfn), PG_locked));
	CHECK_EQ(disk_get_stats(sim_disk(&x->s.s, 0))->reads, 1);
	CHECK(wb_reader_done > 1e-3);   /* a disk read: milliseconds */
	CHECK(now - wb_reader_done < 20e-6 && wb_reader_done - now < 20e-6);
	return 0;
}

static void test_wait_on_buffer(void **state)
{
	(void)state;
	run(MACHINE, K_STOCK, b_wait_on_buffer, NULL);
}

static void test_ops(void **state)
{
	(void)state;
	run(MACHINE, K_STOCK, b_ops, NULL);
}

static void test_members(void **state)
{
	(void)state;
	run(MACHINE, K_STOCK, b_members, NULL);
}

static void test_locks_stock(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_STOCK, b_locks, o);
	/* the first touch set PG_referenced, the next activates (the one lock
	 * round), the rest find the page active */
	assert_int_equal((int)o[0], 1);
	assert_int_equal((int)o[1], 0);
	/* the inode block is active already; the data page (referenced by its
	 * read) is activated by its first touch */
	assert_int_equal((int)o[2], 0);
	assert_int_equal((int)o[3], 1);
}

static void test_locks_batched(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_BATCH, b_locks, o);
	/* pagevec 1: data, inode x 13 (two zone runs); pagevec 2: inode x 14 */
	assert_int_equal((int)o[0], 2);
	assert_int_equal((int)o[1], 1);
	/* 28 calls alternating zones: each drain re-takes lru_lock at every page,
	 * 7 times per zone per pagevec */
	assert_int_equal((int)o[2], 14);
	assert_int_equal((int)o[3], 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_locks_stock),
		cmocka_unit_test(test_locks_batched),
		cmocka_unit_test(test_wait_on_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
