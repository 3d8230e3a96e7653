/*
 * test_fmap.c - shared file mappings (models/mm/fmap.c) on a small simulated
 * kernel: exact minor/major fault counts, the references and mapcounts of
 * mapped pages, dirty bits moving to pages at munmap; 2.6.15's read-around
 * window (centred on the fault) on a single fault and a sequential touch, the
 * single-page reads of an MADV_RANDOM mapping, the MMAP_LOTSAMISS cut-off; a
 * mapping larger than memory, which reclaim must unmap (try_to_unmap_file) and
 * evict, and which faults back in; destroy releasing everything.  The
 * invariants (mm_check, mm_fmap_check, mm_proc_check) are checked after every
 * step.
 *
 * Harness: tests/kharness.h (a forked child runs SimGrid and the body as an actor).
 */
#include "models/mm/fmap.h"

#define KH_NAME "test_fmap"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"

#define MSG 1000

#include "tests/kharness.h"

/* 4 MiB of 4 KiB pages (1024), one Normal zone, 2 CPUs */
static const char *const MACHINE =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"64MiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_LRU = "{\"reclaim\":\"lru2q\",\"vm\":{\"ra_pages\":32}}";
static const char *const K_RA4 = "{\"reclaim\":\"lru2q\",\"vm\":{\"ra_pages\":4}}";
static const char *const K_CP = "{\"reclaim\":\"clockpro\",\"vm\":{\"ra_pages\":32}}";

#define MiB (1024ull * 1024)

static int inv(struct tctx *x)
{
	struct mm_err e = { "" };
	if (mm_kernel_check(&x->k, &e) || mm_fmap_check(&x->k, &e) || mm_proc_check(&x->k, &e)) {
		snprintf(x->msg, MSG, "invariant: %s", e.msg);
		return -1;
	}
	return 0;
}

/* the pfn entry @i of @m maps (present entries only) */
static uint32_t pfn_at(const struct mm_fmap *m, uint32_t i)
{
	return (m->pte[i] & 0x3fffffffu) - 1;
}

static int body_faults(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	kh_drain_all(x);
	uint64_t free0 = kh_free_pages(x);
	struct mm_file *f = mm_file_create(k, "f", 16 * 4096, 0, 0);
	CHECK(f);

	/* bad input: refused, nothing happens */
	CHECK(!mm_fmap_create(k, t, NULL, 4, 0));
	CHECK(!mm_fmap_create(k, t, f, 0, 0));
	CHECK_EQ(mm_fmap_touch(k, t, NULL, 0, 1, false), -1);
	CHECK(!mm_fmap_unmap_page(k, t, k->phys.nr_pages + 5));
	mm_fmap_destroy(k, t, NULL);

	struct mm_fmap *m1 = mm_fmap_create(k, t, f, 100, 0);   /* clipped to 16 */
	CHECK(m1);
	CHECK_EQ(m1->npages, 16);
	CHECK_EQ(f->i_mmap, m1);
	CHECK_EQ(mm_fmap_touch(k, t, m1, 0, 1, false), 1);
	/* one major fault; read-around of 32 from 0, clipped to the file */
	CHECK_EQ(t->majflt, 1);
	CHECK_EQ(t->minflt, 0);
	CHECK_EQ(m1->readarounds, 1);
	CHECK_EQ(m1->pages_read, 16);
	CHECK_EQ(f->nr_cached, 16);
	CHECK_EQ(x->s.vs.ev[MM_PGMAJFAULT], 1);
	/* the rest is in the cache: minor faults */
	CHECK_EQ(mm_fmap_touch(k, t, m1, 1, 15, false), 15);
	CHECK_EQ(t->majflt, 1);
	CHECK_EQ(t->minflt, 15);
	CHECK_EQ(m1->minflt, 15);
	CHECK_EQ(m1->mmap_hit, 15);
	CHECK_EQ(m1->mmap_miss, 1);
	CHECK_EQ(x->s.vs.ev[MM_PGFAULT], 16);
	CHECK_EQ(mm_fmap_touch(k, t, m1, 0, 16, false), 0);   /* present: no fault */
	CHECK_EQ(m1->rss, 16);
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0 - 16);
	CHECK_EQ(k->nr_mapped, 16);
	for (uint32_t i = 0; i < 16; i++) {
		CHECK_EQ(pfn_at(m1, i), f->pfn[i]);
		CHECK_EQ(kh_page(x, pfn_at(m1, i))->mapcount, 1);
		CHECK_EQ(kh_page(x, pfn_at(m1, i))->count, 2);   /* page cache + entry */
		CHECK(page_test(kh_page(x, pfn_at(m1, i)), PG_referenced));
	}

	/* a second process maps the first 8 pages and writes them: 8 minor faults */
	struct mm_fmap *m2 = mm_fmap_create(k, t, f, 8, 0);
	CHECK(m2);
	CHECK_EQ(mm_fmap_touch(k, t, m2, 0, 100, true), 8);   /* clipped to the mapping */
	CHECK_EQ(m2->minflt, 8);
	CHECK_EQ(m2->majflt, 0);
	CHECK_EQ(t->majflt, 1);
	CHECK_EQ(k->nr_mapped, 16);                 /* shared pages count once */
	for (uint32_t i = 0; i < 8; i++) {
		CHECK_EQ(pfn_at(m2, i), pfn_at(m1, i));
		CHECK_EQ(kh_page(x, pfn_at(m2, i))->mapcount, 2);
		CHECK_EQ(kh_page(x, pfn_at(m2, i))->count, 3);
	}
	/* 2.6.15: a store through a shared mapping dirties the entry, not the page */
	CHECK_EQ(k->nr_dirty, 0);
	INV();
	/* m1 writes 12..15 of its present pages: entry dirty bits only */
	CHECK_EQ(mm_fmap_touch(k, t, m1, 12, 4, true), 0);
	CHECK_EQ(k->nr_dirty, 0);

	/* munmap of m2: its dirty bits move to pages 0..7 */
	mm_fmap_destroy(k, t, m2);
	kh_drain_all(x);
	INV();
	CHECK_EQ(f->i_mmap, m1);
	CHECK_EQ(k->nr_dirty, 8);
	for (uint32_t i = 0; i < 16; i++) {
		CHECK_EQ(kh_page(x, f->pfn[i])->mapcount, 1);
		CHECK_EQ(kh_page(x, f->pfn[i])->count, 2);
		CHECK_EQ(page_test(kh_page(x, f->pfn[i]), PG_dirty), i < 8);
	}
	mm_fmap_destroy(k, t, m1);
	kh_drain_all(x);
	INV();
	CHECK(!f->i_mmap);
	CHECK_EQ(k->nr_mapped, 0);
	CHECK_EQ(k->nr_dirty, 12);                  /* 0..7 and 12..15 */
	for (uint32_t i = 0; i < 16; i++) {
		CHECK_EQ(kh_page(x, f->pfn[i])->mapcount, 0);
		CHECK_EQ(kh_page(x, f->pfn[i])->count, 1);   /* the page cache's */
	}
	CHECK_EQ(kh_free_pages(x), free0 - 16);             /* unmapping frees no cached page */
	mm_file_truncate(k, t, f, 0, 16);
	kh_drain_all(x);
	INV();
	CHECK_EQ(f->nr_cached, 0);
	CHECK_EQ(k->nr_dirty, 0);
	CHECK_EQ(kh_free_pages(x), free0);
	return 0;
}

static int body_readaround(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	struct mm_file *f = mm_file_create(k, "f", 256 * 4096, 0, 0);
	struct mm_file *g = mm_file_create(k, "g", 256 * 4096, 0, 1 * MiB);
	struct mm_file *h = mm_file_create(k, "h", 256 * 4096, 0, 2 * MiB);
	CHECK(f && g && h);

	/* one fault at 100: the window [100 - 16, 100 + 16) */
	struct mm_fmap *mf = mm_fmap_create(k, t, f, 256, 0);
	CHECK(mf);
	CHECK_EQ(mm_fmap_touch(k, t, mf, 100, 1, false), 1);
	CHECK_EQ(mf->majflt, 1);
	CHECK_EQ(f->nr_cached, 32);
	CHECK_EQ(mm_file_resident(f, 84, 32), 32);
	CHECK_EQ(mf->rss, 1);
	INV();

	/* a sequential touch: the first fault reads [0, 32); each later miss at i
	 * reads [i - 16, i + 16), of which 16 pages are new: misses at 0, 32, 48,
	 * ..., 240 */
	struct mm_fmap *mg = mm_fmap_create(k, t, g, 256, 0);
	CHECK(mg);
	CHECK_EQ(mm_fmap_touch(k, t, mg, 0, 256, false), 256);
	CHECK_EQ(mg->majflt, 15);
	CHECK_EQ(mg->minflt, 241);
	CHECK_EQ(mg->readarounds, 15);
	CHECK_EQ(mg->pages_read, 256);
	CHECK_EQ(g->nr_cached, 256);
	INV();

	/* MADV_RANDOM: no read-around, one page per fault */
	struct mm_fmap *mh = mm_fmap_create(k, t, h, 256, MM_FMAP_RANDOM);
	CHECK(mh);
	CHECK_EQ(mm_fmap_touch(k, t, mh, 100, 1, false), 1);
	CHECK_EQ(h->nr_cached, 1);
	CHECK_EQ(mm_fmap_touch(k, t, mh, 0, 256, false), 255);
	CHECK_EQ(mh->majflt, 256);
	CHECK_EQ(mh->minflt, 0);
	CHECK_EQ(mh->readarounds, 0);
	CHECK_EQ(mh->pages_read, 256);
	INV();

	/* a second mapping of g finds every page cached: minor faults only */
	struct mm_fmap *mg2 = mm_fmap_create(k, t, g, 256, 0);
	CHECK(mg2);
	uint64_t maj = t->majflt;
	CHECK_EQ(mm_fmap_touch(k, t, mg2, 0, 256, false), 256);
	CHECK_EQ(t->majflt, maj);
	CHECK_EQ(mg2->minflt, 256);
	kh_drain_all(x);
	INV();
	for (uint32_t i = 0; i < 256; i++)
		CHECK_EQ(kh_page(x, g->pfn[i])->mapcount, 2);
	mm_fmap_destroy(k, t, mf);
	mm_fmap_destroy(k, t, mg);
	mm_fmap_destroy(k, t, mg2);
	mm_fmap_destroy(k, t, mh);
	kh_drain_all(x);
	INV();
	CHECK_EQ(k->nr_mapped, 0);
	return 0;
}

/* MMAP_LOTSAMISS: with ra_pages 4, a stride-4 touch misses every time; after
 * 100 misses more than hits, faults read single pages */
static int body_lotsamiss(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	struct mm_file *f = mm_file_create(k, "f", 512 * 4096, 0, 0);
	CHECK(f);
	struct mm_fmap *m = mm_fmap_create(k, t, f, 512, 0);
	CHECK(m);
	for (uint32_t i = 0; i < 512; i += 4)
		CHECK_EQ(mm_fmap_touch(k, t, m, i, 1, false), 1);
	CHECK_EQ(m->majflt, 128);
	CHECK_EQ(m->minflt, 0);
	CHECK_EQ(m->mmap_miss, 128);
	CHECK_EQ(m->readarounds, 100);
	/* windows: [0, 4), then [i - 2, i + 2): 2 new pages at i = 4, 4 after;
	 * then 28 single pages */
	CHECK_EQ(m->pages_read, 4 + 2 + 98 * 4 + 28);
	CHECK_EQ(f->nr_cached, 4 + 2 + 98 * 4 + 28);
	INV();
	mm_fmap_destroy(k, t, m);
	INV();
	return 0;
}

/* A mapping twice the size of memory: reclaim must unmap mapped pages to evict
 * them; touching them again faults them back; stores reach the disk through the
 * dirty bits moved at unmap (pageout). */
static int body_reclaim(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	const uint32_t N = 2048;
	struct mm_file *f = mm_file_create(k, "big", (uint64_t)N * 4096, 0, 0);
	CHECK(f);
	struct mm_fmap *m = mm_fmap_create(k, t, f, N, 0);
	CHECK(m);
	for (uint32_t i = 0; i < N; i += 256) {
		CHECK_EQ(mm_fmap_touch(k, t, m, i, 256, false), 256);
		INV();
	}
	CHECK(m->reclaim_unmaps > 0);
	CHECK(m->rss < N);
	CHECK(f->nr_cached < 1024);
	CHECK_EQ(m->rss + m->reclaim_unmaps, N);
	CHECK(m->majflt > 0);
	/* the first pages went first: touching them again faults them back */
	uint32_t absent = 0;
	for (uint32_t i = 0; i < 64; i++)
		absent += m->pte[i] == 0;
	CHECK(absent > 0);
	uint64_t maj = m->majflt;
	CHECK_EQ(mm_fmap_touch(k, t, m, 0, 64, false), absent);
	CHECK(m->majflt > maj);
	for (uint32_t i = 0; i < 64; i++)
		CHECK(m->pte[i] != 0);
	INV();

	/* stores over the whole file: the dirty bits reach the pages when reclaim
	 * unmaps them, and pageout writes them */
	uint64_t out0 = x->s.vs.ev[MM_PGPGOUT];
	for (uint32_t i = 0; i < N; i += 256) {
		CHECK(mm_fmap_touch(k, t, m, i, 256, true) >= 0);
		INV();
	}
	CHECK(x->s.vs.ev[MM_PGPGOUT] > out0);
	x->out[0] = (double)m->reclaim_unmaps;
	x->out[1] = (double)(x->s.vs.ev[MM_PGPGOUT] - out0);

	mm_fmap_destroy(k, t, m);
	kh_drain_all(x);
	INV();
	CHECK_EQ(k->nr_mapped, 0);
	CHECK(!f->i_mmap);
	mm_file_truncate(k, t, f, 0, N);
	kh_drain_all(x);
	INV();
	CHECK_EQ(f->nr_cached, 0);
	CHECK_EQ(k->nr_dirty, 0);
	return 0;
}

/* mlock: 256 pages of a file mapped VM_LOCKED and faulted in, then a file twice
 * the size of memory read in a loop: reclaim scans the locked pages (they are on
 * the LRU), fails to unmap every one it picks (SWAP_FAIL) and never evicts one;
 * the other file's pages go.  out[0] = unmaps refused, out[1] = pages stolen. */
static int body_mlock(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	const uint32_t L = 256, N = 2048;
	struct mm_file *lf = mm_file_create(k, "locked", (uint64_t)L * 4096, 0, 0);
	struct mm_file *f = mm_file_create(k, "big", (uint64_t)N * 4096, 0, 1 << 24);
	CHECK(lf && f);
	struct mm_fmap *m = mm_fmap_create(k, t, lf, L, MM_FMAP_LOCKED);
	CHECK(m);
	CHECK_EQ(mm_fmap_touch(k, t, m, 0, L, false), L);
	uint32_t pfn0[256];
	for (uint32_t i = 0; i < L; i++)
		pfn0[i] = lf->pfn[i];
	struct mm_read_stats rs = { 0 };
	uint64_t steal0 = x->s.vs.ev[MM_PGSTEAL];
	for (int pass = 0; pass < 3; pass++) {
		for (uint32_t i = 0; i < N; i += 8)
			CHECK(mm_file_read(k, t, f, (uint64_t)i * 4096, 8 * 4096, &rs) > 0);
		INV();
	}
	CHECK(x->s.vs.ev[MM_PGSTEAL] - steal0 > 2 * N);   /* reclaim ran, a lot */
	CHECK(f->nr_cached < N);
	CHECK_EQ(m->rss, L);
	CHECK_EQ(m->reclaim_unmaps, 0);
	CHECK_EQ(lf->nr_cached, L);
	for (uint32_t i = 0; i < L; i++) {
		CHECK_EQ(lf->pfn[i], pfn0[i]);   /* never evicted, never read again */
		CHECK(m->pte[i] != 0);
	}
	x->out[0] = (double)m->reclaim_locked;
	x->out[1] = (double)(x->s.vs.ev[MM_PGSTEAL] - steal0);
	mm_fmap_destroy(k, t, m);
	kh_drain_all(x);
	INV();
	return 0;
}

static void test_faults(void **st)
{
	(void)st;
	run(MACHINE, K_LRU, body_faults, NULL);
}

static void test_readaround(void **st)
{
	(void)st;
	run(MACHINE, K_LRU, body_readaround, NULL);
}

static void test_lotsamiss(void **st)
{
	(void)st;
	run(MACHINE, K_RA4, body_lotsamiss, NULL);
}

static void test_reclaim_lru2q(void **st)
{
	(void)st;
	double out[16];
	run(MACHINE, K_LRU, body_reclaim, out);
	assert_true(out[0] > 0 && out[1] > 0);
}

static void test_reclaim_clockpro(void **st)
{
	(void)st;
	run(MACHINE, K_CP, body_reclaim, NULL);
}

static void test_mlock(void **st)
{
	(void)st;
	double lru[16], cp[16];
	run(MACHINE, K_LRU, body_mlock, lru);
	run(MACHINE, K_CP, body_mlock, cp);
	print_message("mlock: unmaps refused %.0f (lru2q), %.0f (clockpro)\n", lru[0], cp[0]);
	/* the LRU deactivates mapped pages once reclaim_mapped is on; either way
	 * no locked page was reclaimed (checked in the body) */
	assert_true(lru[1] > 0 && cp[1] > 0);
	/* CLOCK-Pro picks locked pages for eviction and is refused */
	assert_true(cp[0] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_readaround),
		cmocka_unit_test(test_lotsamiss),
		cmocka_unit_test(test_reclaim_lru2q),
		cmocka_unit_test(test_reclaim_clockpro),
		cmocka_unit_test(test_mlock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
