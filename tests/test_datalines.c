/*
 * test_datalines.c - line ownership of the data the locks guard (issue 30): the
 * struct page lines, the lines zone->lock, the LRU lock, lock_super and
 * inode_lock guard, and the start dentry of a path walk, on a small kernel of
 * two CPUs on one bus whose machine declares costs.line_transfer (500 ns).
 * Harness: tests/kharness.h; the body switches CPUs with x->task.cpu.
 *
 * Exact counts worked out by hand (a fill from memory is free: the paths' flat
 * page_op has it; only moves between the two caches count):
 *  - batched mark_page_accessed: CPU 0 puts 13 pages in its pagevec (its own
 *    lines: 0 moves), CPU 1 marks the same 13 (13 moves, into its pagevec), CPU
 *    0's 14th page drains its pagevec: the 13 lines come back (13 more, 26 in
 *    all).  Unbatched, CPU 1's marks are the second touch and activate each
 *    page at once: the inactive list runs p13 .. p0 from its head, so p0's
 *    activation moves p0's line and its neighbour p1's, each later one only the
 *    next neighbour's: 14 moves (p0 .. p13), and none comes back;
 *  - 2.5.25's per-page LRU add: CPU 0 links page A at the inactive head, CPU 1
 *    links page B in front of it, rewriting A's lru.prev: 1 page-line move, and
 *    pagemap_lru_lock's guarded line (the list heads) moves with the lock: 1;
 *  - lock_super guards 4 lines: two CPUs allocating one block in turn move 4
 *    lines per turn after the first, inode_lock's 2; a path walk writes the
 *    start dentry's line: 1 move per walk from the other CPU;
 *  - without costs.line_transfer no data line exists and nothing moves.
 */
#define KH_NAME "test_datalines"

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
	"\"costs\":{\"line_transfer\":\"500ns\"},"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const MACHINE_NOLINES =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"1GiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_BATCH =
	"{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false,\"batch_mark_accessed\":true}}";
static const char *const K_PLAIN = "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}";
static const char *const K_2525 =
	"{\"reclaim\":\"lru2q\",\"alloc\":{\"module\":\"buddy\",\"pcp\":false},"
	"\"vm\":{\"readahead\":false,\"lru_locking\":\"per-page\",\"fs_locking\":\"2.5.25\"}}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

/* 14 pages of a file written on CPU 0 and put on the LRU; their pfns in @pfn. */
static int file_pages(struct tctx *x, uint32_t *pfn)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 32 * 4096, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 14 * 4096, &st), 14 * 4096);
	kh_drain_all(x);
	for (int i = 0; i < 14; i++) {
		pfn[i] = f->pfn[i];
		CHECK(pfn[i] != PFN_NONE);
	}
	return 0;
}

/* out 0: struct page line moves of the marks (CPU 0 13, CPU 1 13, CPU 0 1);
 * out 1: lines held by two CPUs or more at the end (a write leaves one holder);
 * out 2: 1 if the kernel has data lines. */
static int b_marks(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t pfn[14];
	if (file_pages(x, pfn))
		return -1;
	x->out[2] = k->page_line != NULL;
	if (!k->page_line)
		return 0;
	uint64_t t0 = k->coh.transfers;
	x->task.cpu = 0;
	for (int i = 0; i < 13; i++)
		mm_mark_page_accessed(k, &x->task, pfn[i]);
	x->task.cpu = 1;
	for (int i = 0; i < 13; i++)
		mm_mark_page_accessed(k, &x->task, pfn[i]);
	x->task.cpu = 0;
	mm_mark_page_accessed(k, &x->task, pfn[13]);
	x->out[0] = (double)(k->coh.transfers - t0);
	int shared = 0;
	for (int i = 0; i < 14; i++)
		shared += coh_holders(&k->page_line[pfn[i]]) > 1;
	x->out[1] = shared;
	kh_drain_all(x);
	return 0;
}

static void test_batched_drain_refetches(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_BATCH, b_marks, o);
	assert_int_equal((int)o[2], 1);
	assert_int_equal((int)o[0], 26);
	assert_int_equal((int)o[1], 0);
}

static void test_plain_marks_move_once(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_PLAIN, b_marks, o);
	assert_int_equal((int)o[0], 14);
	assert_int_equal((int)o[1], 0);
}

static void test_no_lines_without_line_transfer(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE_NOLINES, K_BATCH, b_marks, o);
	assert_int_equal((int)o[2], 0);
}

/* 2.5.25: out 0 page-line moves and out 1 guarded-line moves of CPU 1's add of
 * page B in front of CPU 0's page A; out 2: B's next is A. */
static int b_add(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 32 * 4096, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	x->task.cpu = 0;
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 4096, &st), 4096);
	uint64_t p0 = k->coh.transfers, g0 = k->guard_coh.transfers;
	x->task.cpu = 1;
	CHECK_EQ(mm_file_extend(k, &x->task, f, 4096, 4096, &st), 4096);
	x->out[0] = (double)(k->coh.transfers - p0);
	x->out[1] = (double)(k->guard_coh.transfers - g0);
	x->out[2] = k->phys.pages[f->pfn[1]].lru_next == f->pfn[0];
	x->task.cpu = 0;
	return 0;
}

static void test_lru_add_neighbour_2525(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_2525, b_add, o);
	assert_int_equal((int)o[2], 1);
	assert_int_equal((int)o[0], 1);
	/* pagemap_lru_lock's list heads and zone->lock's free_area line */
	assert_int_equal((int)o[1], 2);
}

/* out 0: guarded-line moves of 4 one-block allocations alternating CPUs (0, 1,
 * 0, 1); out 1: of an inode created on CPU 0 then freed on CPU 1; out 2: of 3
 * walks (CPUs 0, 1, 0). */
static int b_fs(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct ext2_costs c = { .lookup = 300, .dir_scan = 1500, .inode = 3000, .block = 500 };
	struct ext2_fs fs;
	ext2_init(&fs, &c);
	uint64_t g = k->guard_coh.transfers;
	for (int i = 0; i < 4; i++) {
		x->task.cpu = i & 1;
		ext2_blocks_alloc(k, &x->task, &fs, 1);
	}
	x->out[0] = (double)(k->guard_coh.transfers - g);
	g = k->guard_coh.transfers;
	x->task.cpu = 0;
	ext2_inode_new(k, &x->task, &fs);
	x->task.cpu = 1;
	ext2_inode_free(k, &x->task, &fs);
	x->out[1] = (double)(k->guard_coh.transfers - g);
	g = k->guard_coh.transfers;
	for (int i = 0; i < 3; i++) {
		x->task.cpu = i & 1;
		ext2_walk(k, &x->task, &fs, 2);
	}
	x->out[2] = (double)(k->guard_coh.transfers - g);
	x->task.cpu = 0;
	ext2_fini(&fs);
	return 0;
}

static void test_fs_guarded_lines(void **state)
{
	(void)state;
	double o[16];
	run(MACHINE, K_2525, b_fs, o);
	/* the first allocation fills the 4 lines from memory: 3 turns x 4 */
	assert_int_equal((int)o[0], 12);
	/* lock_super's 4 lines (CPU 1 had them last: 4 to CPU 0, 4 back) and
	 * inode_lock's 2 (filled on CPU 0, 2 to CPU 1) */
	assert_int_equal((int)o[1], 10);
	/* the start dentry: filled on CPU 0, then 2 moves */
	assert_int_equal((int)o[2], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batched_drain_refetches),
		cmocka_unit_test(test_plain_marks_move_once),
		cmocka_unit_test(test_no_lines_without_line_transfer),
		cmocka_unit_test(test_lru_add_neighbour_2525),
		cmocka_unit_test(test_fs_guarded_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
