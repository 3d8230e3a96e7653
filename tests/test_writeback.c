/*
 * test_writeback.c - 2.6.16 dirty-page writeback (models/mm/writeback.c):
 * get_dirty_limits() with exact thresholds (the unmapped-ratio cap), the
 * clustering of contiguous dirty pages into requests of at most 128 pages, pdflush
 * bringing the dirty pages below the background threshold, a writer throttled in
 * balance_dirty_pages() above the dirty threshold, the per-file dirty counts,
 * wb_kupdate writing a file once its dirtied_when is 30 s old, and
 * vm.dirty_writeback false leaving everything to reclaim.
 *
 * Harness: tests/kharness.h.  The machine: 8 MiB of 4 KiB pages (2,048), 2 CPUs,
 * a 50 MB/s disk.  ratelimit_pages = total / (2 x 32), clamped to 16.
 */
#define KH_NAME "test_writeback"

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
	"{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":64,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"64MiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_WB = "{\"reclaim\":\"lru2q\",\"vm\":{\"dirty_writeback\":true}}";
static const char *const K_OFF = "{\"reclaim\":\"lru2q\"}";

static int inv(struct tctx *x)
{
	return kh_kernel_ok(x);
}

/* total_pages of page-writeback.c, computed from the zones. */
static uint64_t total(struct tctx *x)
{
	uint64_t n = 0;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		const struct zone *z = &x->k.phys.zones[i];
		if (z->present > z->pages_high)
			n += z->present - z->pages_high;
	}
	return n;
}

/* Dirty pages of @f counted from its pages, and the file's count agree. */
static int dirty_agrees(struct tctx *x, struct mm_file *f)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->npages; i++)
		n += f->pfn[i] != PFN_NONE && page_test(kh_page(x, f->pfn[i]), PG_dirty);
	return n == f->nr_dirty;
}

static int b_limits(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t bg, dirty, tot = total(x);
	CHECK(tot > 1900);
	mm_dirty_limits(k, &bg, &dirty);
	CHECK_EQ(bg, 10 * tot / 100);
	CHECK_EQ(dirty, 40 * tot / 100);
	/* 60% mapped: unmapped_ratio 40 caps dirty_ratio at 20; background stays 10 */
	k->nr_mapped = tot * 60 / 100;
	mm_dirty_limits(k, &bg, &dirty);
	CHECK_EQ(bg, 10 * tot / 100);
	CHECK_EQ(dirty, 20 * tot / 100);
	/* 95% mapped: dirty_ratio 2 -> the floor of 5; background 10 >= 5 -> 5 / 2 = 2 */
	k->nr_mapped = tot * 95 / 100;
	mm_dirty_limits(k, &bg, &dirty);
	CHECK_EQ(bg, 2 * tot / 100);
	CHECK_EQ(dirty, 5 * tot / 100);
	k->nr_mapped = 0;
	return 0;
}

/* 300 pages written in one call: below the dirty threshold (40%: ~800 pages) the
 * writer is never throttled; above the background threshold (~200 pages) pdflush
 * writes the contiguous dirty pages in requests of at most 128 pages, until the
 * dirty pages are below the background threshold. */
static int b_background(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t ps = k->phys.page_size, bg, dirty;
	mm_dirty_limits(k, &bg, &dirty);
	struct mm_file *f = mm_file_create(k, "f", 1024 * ps, 0, 0);
	struct mm_read_stats st = { 0 };
	CHECK(f);
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 300 * ps, &st), 300 * ps);
	CHECK_EQ(k->wb_throttled, 0);
	CHECK(dirty_agrees(x, f));
	mm_sleep(&x->task, 2.0, NULL);   /* 300 pages at 50 MB/s: 25 ms */
	CHECK(k->nr_dirty < bg);
	CHECK_EQ(k->nr_writeback, 0);
	CHECK_EQ(k->writeback_inflight, 0);
	CHECK(dirty_agrees(x, f));
	const struct disk_stats *ds = disk_get_stats(x->s.disks[0]);
	uint64_t written = 300 - k->nr_dirty;
	CHECK_EQ(ds->bytes_written, written * ps);
	/* contiguous pages: one request per 128 pages or fewer, and no more */
	CHECK(ds->writes >= (written + 127) / 128);
	CHECK_EQ(ds->writes, k->wb_requests);
	CHECK(ds->writes <= written / 16 + 1);
	/* the remaining dirty pages are the last ones written: pdflush went in order */
	for (uint32_t i = 0; i < 300; i++)
		CHECK_EQ(page_test(kh_page(x, f->pfn[i]), PG_dirty), i >= written);
	INV();
	return 0;
}

/* 1,500 pages (more than the dirty threshold) written at once: the writer is
 * throttled and writes chunks itself; dirty + writeback stay near the threshold. */
static int b_throttle(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t ps = k->phys.page_size, bg, dirty;
	mm_dirty_limits(k, &bg, &dirty);
	struct mm_file *f = mm_file_create(k, "f", 2048 * ps, 0, 0);
	struct mm_read_stats st = { 0 };
	CHECK(f);
	uint64_t peak = 0;
	for (int i = 0; i < 1500; i += 10) {
		CHECK_EQ(mm_file_extend(k, &x->task, f, (uint64_t)i * ps, 10 * ps, &st), 10 * ps);
		if (k->nr_dirty > peak)
			peak = k->nr_dirty;
	}
	CHECK(k->wb_throttled > 0);
	/* checked every ratelimit (16) pages, at most 10 pages past it between
	 * checks; once over, every 8 pages dirtied cost a chunk of 24 written (the
	 * pages under writeback are not bounded: a writer that wrote its chunk goes
	 * on, as in 2.6.16) */
	CHECK(peak <= dirty + 16 + 10);
	CHECK(dirty_agrees(x, f));
	mm_sleep(&x->task, 5.0, NULL);
	CHECK(k->nr_dirty < bg);
	CHECK_EQ(k->nr_writeback, 0);
	CHECK(dirty_agrees(x, f));
	INV();
	return 0;
}

/* wb_kupdate: 100 pages (below the background threshold, ~200) written just
 * after boot are left alone by the passes at 5..30 s (at 30 s the oldest it
 * takes was dirtied at 0 s, the file at a few microseconds) and written, in one
 * request, by the pass at 35 s.  Ten pages dirtied at 36 s (the file was clean:
 * its dirtied_when is 36 s) are written by the pass at 70 s, not the one at
 * 65 s.  Every pass is 5 s after the last one started. */
static int b_kupdate(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "f", 1024 * ps, 0, 0);
	struct mm_read_stats st = { 0 };
	CHECK(f);
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 100 * ps, &st), 100 * ps);
	double t0 = f->dirtied_when;
	CHECK(t0 > 0 && t0 < 0.01);
	mm_sleep(&x->task, 34.9 - mm_now(k, &x->task), NULL);
	CHECK_EQ(k->kupdate_runs, 6);   /* 5, 10, .., 30 s */
	CHECK_EQ(k->nr_dirty, 100);
	CHECK_EQ(k->kupdate_pages, 0);
	mm_sleep(&x->task, 36.0 - mm_now(k, &x->task), NULL);
	CHECK_EQ(k->kupdate_runs, 7);
	CHECK_EQ(k->kupdate_pages, 100);
	CHECK_EQ(k->nr_dirty, 0);
	CHECK_EQ(k->nr_writeback, 0);
	CHECK_EQ(k->wb_requests, 1);
	CHECK(dirty_agrees(x, f));
	CHECK_EQ(mm_file_extend(k, &x->task, f, 100 * ps, 10 * ps, &st), 10 * ps);
	CHECK(f->dirtied_when >= 36.0 && f->dirtied_when < 36.01);
	mm_sleep(&x->task, 69.9 - mm_now(k, &x->task), NULL);
	CHECK_EQ(k->kupdate_runs, 13);
	CHECK_EQ(f->nr_dirty, 10);
	mm_sleep(&x->task, 71.0 - mm_now(k, &x->task), NULL);
	CHECK_EQ(k->kupdate_runs, 14);
	CHECK_EQ(f->nr_dirty, 0);
	CHECK_EQ(k->kupdate_pages, 110);
	CHECK_EQ(k->wb_requests, 2);
	INV();
	return 0;
}

/* vm.dirty_writeback false: nothing is written until reclaim or sync. */
static int b_off(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "f", 1024 * ps, 0, 0);
	struct mm_read_stats st = { 0 };
	CHECK(f);
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 600 * ps, &st), 600 * ps);
	mm_sleep(&x->task, 2.0, NULL);
	CHECK_EQ(k->nr_dirty, 600);
	CHECK_EQ(f->nr_dirty, 600);
	CHECK_EQ(k->wb_requests, 0);
	CHECK_EQ(disk_get_stats(x->s.disks[0])->writes, 0);
	mm_file_sync(k, &x->task, f, 0, f->npages);
	CHECK_EQ(k->nr_dirty, 0);
	CHECK_EQ(f->nr_dirty, 0);
	CHECK(dirty_agrees(x, f));
	/* truncating dirty pages cancels them */
	CHECK_EQ(mm_file_extend(k, &x->task, f, 0, 50 * ps, &st), 50 * ps);
	CHECK_EQ(f->nr_dirty, 50);
	mm_file_truncate(k, &x->task, f, 0, f->npages);
	CHECK_EQ(f->nr_dirty, 0);
	CHECK_EQ(k->nr_dirty, 0);
	INV();
	return 0;
}

static void test_limits(void **state)
{
	run(MACHINE, K_WB, b_limits, NULL);
}
static void test_background(void **state)
{
	run(MACHINE, K_WB, b_background, NULL);
}
static void test_throttle(void **state)
{
	run(MACHINE, K_WB, b_throttle, NULL);
}
static void test_kupdate(void **state)
{
	run(MACHINE, K_WB, b_kupdate, NULL);
}
static void test_off(void **state)
{
	run(MACHINE, K_OFF, b_off, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_background),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_kupdate),
		cmocka_unit_test(test_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
