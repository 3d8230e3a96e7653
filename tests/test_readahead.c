/*
 * test_readahead.c - 2.6.15 readahead in read() (models/mm/filemap.c,
 * page_cache_readahead of mm/readahead.c) on a small simulated kernel, with exact
 * counts: which pages each window brings in, which windows the reader waits for
 * at once (sync) and which are submitted ahead of it (async), the page states
 * between reads, the ahead window's state, RA_FLAG_INCACHE after 256 cached
 * pages and handle_ra_miss; and that a read running out of memory partway
 * leaves no page of it locked.
 *
 * Harness: tests/kharness.h (a forked child runs SimGrid and the body as an
 * actor on cpu0).  The machine: 4 MiB of 4 KiB pages, a 50 MB/s disk; ra_pages
 * 32 (VM_MAX_READAHEAD 128 KiB), so get_init_ra_size(1 page) = 8 and the windows
 * grow 8 -> 16 -> 32 (x2 from ra_pages/16 up), VM_MIN_READAHEAD 4 pages.
 */
#define KH_NAME "test_readahead"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "models/hw/disk.h"
#include "models/mm/kernel.h"

#define MSG 1000

#include "tests/kharness.h"

static const char *const MACHINE =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"64MiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_LRU = "{\"reclaim\":\"lru2q\",\"vm\":{\"ra_pages\":32}}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

/* Pages [a, b) of @f: 1 if all present and uptodate (not locked), 2 if all
 * present and locked (being read), 0 if all missing, -1 mixed. */
static int state(struct tctx *x, struct mm_file *f, uint32_t a, uint32_t b)
{
	int s = -2;
	for (uint32_t i = a; i < b; i++) {
		int si = f->pfn[i] == PFN_NONE ? 0 :
			 page_test(kh_page(x, f->pfn[i]), PG_locked) ? 2 :
			 page_test(kh_page(x, f->pfn[i]), PG_uptodate) ? 1 : -1;
		if (s != -2 && si != s)
			return -1;
		s = si;
	}
	return s;
}

static uint64_t disk_reads(struct tctx *x)
{
	return disk_get_stats(x->s.disks[0])->reads;
}

/* Read page @i of @f (one 4 KiB read). */
static int rd(struct tctx *x, struct mm_file *f, uint32_t i, struct mm_read_stats *st)
{
	uint64_t ps = x->k.phys.page_size;
	return mm_file_read(&x->k, &x->task, f, (uint64_t)i * ps, ps, st) == ps ? 0 : -1;
}

/* A 64-page file read page by page: windows [0,8) sync, then [8,24), [24,56),
 * [56,64) async, each submitted when the reader enters the window before it. */
static int b_windows(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 64 * k->phys.page_size, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	CHECK(rd(x, f, 0, &st) == 0);
	/* the initial window, waited for; nothing ahead yet */
	CHECK_EQ(state(x, f, 0, 8), 1);
	CHECK_EQ(state(x, f, 8, 64), 0);
	CHECK_EQ(st.ra_sync, 1);
	CHECK_EQ(st.ra_sync_pages, 8);
	CHECK_EQ(st.page_waits, 1);
	CHECK_EQ(disk_reads(x), 1);
	CHECK_EQ(f->ra.start, 0);
	CHECK_EQ(f->ra.size, 8);
	CHECK(rd(x, f, 1, &st) == 0);
	/* the ahead window [8, 24) is submitted and not waited for */
	CHECK_EQ(state(x, f, 8, 24), 2);
	CHECK_EQ(state(x, f, 24, 64), 0);
	CHECK_EQ(st.ra_async, 1);
	CHECK_EQ(st.ra_async_pages, 16);
	CHECK_EQ(st.page_waits, 1);
	CHECK_EQ(f->ra.ahead_start, 8);
	CHECK_EQ(f->ra.ahead_size, 16);
	for (uint32_t i = 2; i < 8; i++)
		CHECK(rd(x, f, i, &st) == 0);
	CHECK_EQ(st.ra_async, 1);
	CHECK_EQ(st.hits, 7);
	/* entering the ahead window: it becomes current, [24, 56) goes out, the
	 * reader waits for page 8 */
	CHECK(rd(x, f, 8, &st) == 0);
	CHECK_EQ(state(x, f, 8, 24), 1);
	CHECK_EQ(state(x, f, 24, 56), 2);
	CHECK_EQ(state(x, f, 56, 64), 0);
	CHECK_EQ(f->ra.start, 8);
	CHECK_EQ(f->ra.size, 16);
	CHECK_EQ(f->ra.ahead_start, 24);
	CHECK_EQ(f->ra.ahead_size, 32);
	CHECK_EQ(st.page_waits, 2);
	for (uint32_t i = 9; i < 64; i++)
		CHECK(rd(x, f, i, &st) == 0);
	/* [56, 64) was the last window; the next ([88, 120)) is beyond the end */
	CHECK_EQ(st.ra_sync, 1);
	CHECK_EQ(st.ra_async, 3);
	CHECK_EQ(st.ra_async_pages, 16 + 32 + 8);
	CHECK_EQ(st.page_waits, 4);   /* pages 0, 8, 24, 56 */
	CHECK_EQ(st.hits, 60);
	CHECK_EQ(st.misses, 4);
	CHECK_EQ(st.refetched, 0);
	CHECK_EQ(disk_reads(x), 4);
	CHECK_EQ(disk_get_stats(x->s.disks[0])->bytes_read, 64 * k->phys.page_size);
	CHECK_EQ(f->ra.start, 56);
	CHECK_EQ(f->ra.size, 32);
	CHECK_EQ(f->ra.ahead_start, 88);
	CHECK_EQ(f->ra.cache_hit, 32);
	CHECK_EQ(state(x, f, 0, 64), 1);
	return 0;
}

/* A 512-page file: the first pass reads 8 + 16 + 15 x 32 + 8 pages in 18
 * requests; the second finds every window cached and turns readahead off
 * (RA_FLAG_INCACHE) when cache_hit reaches 256, at page 185; a page taken out
 * of the cache is then read by itself (handle_ra_miss) and readahead resumes
 * with an 8-page window at the next page. */
static int b_incache(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 512 * k->phys.page_size, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	for (uint32_t i = 0; i < 512; i++)
		CHECK(rd(x, f, i, &st) == 0);
	CHECK_EQ(st.ra_sync, 1);
	CHECK_EQ(st.ra_sync_pages, 8);
	CHECK_EQ(st.ra_async, 17);
	CHECK_EQ(st.ra_async_pages, 504);
	CHECK_EQ(disk_reads(x), 18);
	CHECK_EQ(f->ra.cache_hit, 32);
	/* pass 2: 33 (page 0, not sequential: ra_off) + 8 + 16 + 6 x 32 = 249 at
	 * page 153, 281 at page 185 */
	for (uint32_t i = 0; i < 185; i++)
		CHECK(rd(x, f, i, &st) == 0);
	CHECK_EQ(f->ra.cache_hit, 249);
	CHECK_EQ(f->ra.flags & MM_RA_FLAG_INCACHE, 0);
	CHECK(rd(x, f, 185, &st) == 0);
	CHECK_EQ(f->ra.flags, MM_RA_FLAG_INCACHE);
	CHECK_EQ(f->ra.size, 0);
	CHECK_EQ(f->ra.ahead_start, 0);
	for (uint32_t i = 186; i < 300; i++)
		CHECK(rd(x, f, i, &st) == 0);
	CHECK_EQ(disk_reads(x), 18);
	mm_file_truncate(k, &x->task, f, 300, 1);
	CHECK(f->pfn[300] == PFN_NONE);
	uint64_t miss0 = st.misses, sync0 = st.ra_sync;
	CHECK(rd(x, f, 300, &st) == 0);
	CHECK_EQ(f->ra.flags, MM_RA_FLAG_MISS);
	CHECK_EQ(st.misses, miss0 + 1);
	CHECK_EQ(st.ra_sync, sync0);   /* no_cached_page's readpage, not a window */
	CHECK_EQ(disk_reads(x), 19);
	CHECK(rd(x, f, 301, &st) == 0);
	CHECK_EQ(f->ra.start, 301);
	CHECK_EQ(f->ra.size, 8);
	CHECK_EQ(f->ra.cache_hit, 8);
	/* the miss shrinks the next window: max(8 - 2, VM_MIN_READAHEAD) = 6 */
	CHECK(rd(x, f, 302, &st) == 0);
	CHECK_EQ(f->ra.ahead_start, 309);
	CHECK_EQ(f->ra.ahead_size, 6);
	CHECK_EQ(f->ra.flags, 0);
	CHECK_EQ(disk_reads(x), 19);
	CHECK_EQ(st.refetched, 0);
	return 0;
}

/* Random reads turn readahead off: each reads its own page, waited for. */
static int b_random(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 256 * k->phys.page_size, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	static const uint32_t pages[] = { 100, 7, 200, 50, 51 };
	for (unsigned i = 0; i < 5; i++)
		CHECK(rd(x, f, pages[i], &st) == 0);
	/* 100, 7, 200, 50 are not sequential: one page each (sync); 51 follows 50
	 * with readahead off: the initial window [51, 59) */
	CHECK_EQ(st.ra_sync, 5);
	CHECK_EQ(st.ra_sync_pages, 4 + 8);
	CHECK_EQ(st.ra_async, 0);
	CHECK_EQ(disk_reads(x), 5);
	CHECK_EQ(state(x, f, 51, 59), 1);
	CHECK_EQ(state(x, f, 59, 64), 0);
	return 0;
}

/* A page read ahead and reclaimed before the reader gets to it is counted as
 * readahead thrashing and read again by itself. */
static int b_thrash(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 64 * k->phys.page_size, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	CHECK(rd(x, f, 0, &st) == 0);
	CHECK(rd(x, f, 1, &st) == 0);   /* [8, 24) ahead */
	/* wait for the ahead window, then drop page 10 as reclaim would */
	for (uint32_t i = 2; i <= 8; i++)
		CHECK(rd(x, f, i, &st) == 0);
	CHECK(f->ra_unused[1] & 4);
	mm_file_truncate(k, &x->task, f, 10, 1);
	CHECK(f->pfn[10] == PFN_NONE);
	CHECK(rd(x, f, 9, &st) == 0);
	CHECK(f->pfn[10] == PFN_NONE);
	CHECK_EQ(st.refetched, 0);
	CHECK(rd(x, f, 10, &st) == 0);
	CHECK_EQ(st.refetched, 1);
	/* [0,8), [8,24), [24,56) (submitted at page 8), then page 10 behind it */
	CHECK_EQ(disk_reads(x), 4);
	CHECK_EQ(state(x, f, 10, 11), 1);
	CHECK_EQ(f->ra.flags & MM_RA_FLAG_MISS, MM_RA_FLAG_MISS);
	return 0;
}

/* Memory runs out in the middle of a read (readahead off: one request for
 * the run of missing pages): the pages already put in the page cache for it
 * are read, as read_pages() submits what it allocated, so none is left
 * locked; the read itself fails.  Untimed, so that the allocator fails at
 * once instead of waiting for the OOM killer's rate limit. */
static int b_oom_partway(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 64 * k->phys.page_size, 0, 0);
	CHECK(f);
	mm_set_untimed(k, true);
	static uint32_t held[2048];
	uint32_t n = 0, pfn;
	while (n < 2048 && (pfn = mm_page_alloc(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL)) != PFN_NONE)
		held[n++] = pfn;
	CHECK(n > 16 && n < 2048);
	for (int i = 0; i < 16; i++)
		mm_page_free(k, &x->task, held[--n]);
	struct mm_read_stats st = { 0 };
	uint64_t ps = k->phys.page_size;
	CHECK(mm_file_read(k, &x->task, f, 0, 64 * ps, &st) < 64 * ps);
	x->out[0] = f->nr_cached;
	/* the sixteen freed pages went into the page cache, the seventeenth
	 * allocation failed */
	CHECK_EQ(f->nr_cached, 16);
	for (uint32_t i = 0; i < 64; i++)
		CHECK(f->pfn[i] == PFN_NONE || (!page_test(kh_page(x, f->pfn[i]), PG_locked) &&
						 page_test(kh_page(x, f->pfn[i]), PG_uptodate)));
	CHECK_EQ(k->read_pending, 0);
	while (n)
		mm_page_free(k, &x->task, held[--n]);
	mm_set_untimed(k, false);
	return 0;
}

static void test_windows(void **state)
{
	run(MACHINE, K_LRU, b_windows, NULL);
}
static void test_incache(void **state)
{
	run(MACHINE, K_LRU, b_incache, NULL);
}
static void test_random(void **state)
{
	run(MACHINE, K_LRU, b_random, NULL);
}
static void test_thrash(void **state)
{
	run(MACHINE, K_LRU, b_thrash, NULL);
}

static void test_oom_partway(void **state)
{
	double out[16];
	run(MACHINE, "{\"reclaim\":\"lru2q\",\"vm\":{\"ra_pages\":0}}", b_oom_partway, out);
	assert_int_equal((int)out[0], 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_incache),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_thrash),
		cmocka_unit_test(test_oom_partway),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
