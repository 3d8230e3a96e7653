/*
 * test_clockpro.c - the CLOCK-Pro module (models/reclaim/clockpro.c) on a small
 * simulated kernel, white-box: the module's file is included so the tests can
 * drive one cold-hand batch or one hot-hand batch at a time and read its state.
 *
 * Each test runs in a forked child that starts SimGrid (the core takes lru_lock
 * as a SimGrid mutex and pays pending cycles through the actor), builds a kernel
 * on a "flat" machine (one Normal zone) with min_free_kbytes 16 (pages_high 6)
 * and runs its body as an actor.  The child reports the first failed check
 * through a pipe.  After every step the invariants are checked: mm_check()
 * (PG_lru pages == nr_active + nr_inactive), both lists walked (sizes,
 * list_id, PG_lru), nr_resident == hot + cold, nr_active == hot.
 */
#include "models/reclaim/clockpro.c"

#define KH_NAME "test_clockpro"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "models/hw/disk.h"
#include "models/mm/kernel.h"

#define MSG 600

#include "tests/kharness.h"

static const char *const MACHINE_SMALL =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";

static struct zone *zn(struct tctx *x)
{
	return &x->k.phys.zones[MM_ZONE_NORMAL];
}
static struct cp_zone *zsn(struct tctx *x)
{
	return zstate(zn(x));
}
static struct clockpro *cpn(struct tctx *x)
{
	return x->k.rc->priv;
}
static bool on_hand_list(struct tctx *x, uint32_t pfn, int h)
{
	return page_test(kh_page(x, pfn), PG_lru) && kh_page(x, pfn)->list_id == zsn(x)->hand_list[h];
}

/* The invariants.  Returns: 0, or -1 with x->msg set. */
static int inv(struct tctx *x)
{
	if (kh_kernel_ok(x))
		return -1;
	if (x->k.rc->ops != &reclaim_clockpro)
		return 0;
	for (int zi = 0; zi < MM_NR_ZONES; zi++) {
		struct zone *z = &x->k.phys.zones[zi];
		struct cp_zone *zs = zstate(z);
		uint64_t hot = 0, cold = 0;
		for (int l = 0; l < 2; l++) {
			uint32_t n = 0;
			for (uint32_t pfn = zs->lists[l].head; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_next) {
				struct page *p = kh_page(x, pfn);
				n++;
				if (!page_test(p, PG_lru) || p->list_id != l) {
					snprintf(x->msg, MSG, "pfn %u on list %d: lru %d list_id %d", pfn, l,
						 page_test(p, PG_lru), p->list_id);
					return -1;
				}
				if (page_test(p, PG_hot)) {
					hot++;
					if (page_test(p, PG_test)) {
						snprintf(x->msg, MSG, "pfn %u hot with PG_test on a list", pfn);
						return -1;
					}
				} else {
					cold++;
				}
			}
			if (n != zs->lists[l].nr) {
				snprintf(x->msg, MSG, "list %d: walked %u, nr %u", l, n, zs->lists[l].nr);
				return -1;
			}
		}
		if (hot + cold != zs->nr_resident || cold != zs->nr_cold || z->nr_active != hot ||
		    z->nr_inactive != cold) {
			snprintf(x->msg, MSG,
				 "zone %s: hot %llu cold %llu, nr_resident %llu nr_cold %llu "
				 "nr_active %u nr_inactive %u", z->name, (unsigned long long)hot,
				 (unsigned long long)cold, (unsigned long long)zs->nr_resident,
				 (unsigned long long)zs->nr_cold, z->nr_active, z->nr_inactive);
			return -1;
		}
	}
	return 0;
}

/* A page-cache page of @f at @idx, added to the LRU with @hint and drained. */
static uint32_t add_page(struct tctx *x, struct mm_file *f, uint32_t idx, int hint)
{
	struct mm_kernel *k = &x->k;
	uint32_t pfn = mm_page_alloc(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL);
	if (pfn == PFN_NONE)
		return pfn;
	struct page *p = kh_page(x, pfn);
	p->mapping = f->id;
	p->index = idx;
	page_set(p, PG_uptodate);
	f->pfn[idx] = pfn;
	f->nr_cached++;
	k->pagecache_pages++;
	mm_lru_cache_add(k, &x->task, pfn, hint);
	mm_lru_add_drain(k, &x->task);
	return pfn;
}

static struct scan_control sc0(void)
{
	struct scan_control sc = { .priority = MM_DEF_PRIORITY, .swap_cluster_max = MM_SWAP_CLUSTER_MAX,
				   .nr_to_reclaim = MM_SWAP_CLUSTER_MAX, .may_writepage = true,
				   .may_swap = true, .gfp = MM_GFP_KERNEL };
	return sc;
}

static unsigned cold_batch(struct tctx *x, unsigned nr)
{
	struct scan_control sc = sc0();
	return cold_hand_batch(x->k.rc, &x->k, &x->task, zn(x), &sc, nr);
}

/* ------------------------------------------------------------------ child */


static const char *const K_CLOCKPRO = "{\"reclaim\":{\"module\":\"clockpro\"}}";

/* ------------------------------------------------------------------ bodies */

/* Use-once inserts go cold (the PG_test hint is consumed) on the cold hand's list;
 * other inserts go (cold,test) on the hot hand's list. */
static int b_insert(struct tctx *x)
{
	struct mm_file *f = mm_file_create(&x->k, "f", 1 << 20, 0, 0);
	CHECK(f);
	CHECK_EQ(zn(x)->pages_high, 6);
	CHECK_EQ(zsn(x)->nr_cold_target, 6);   /* 1 x pages_high (2005-12) */
	uint32_t a[4], b[2];
	for (int i = 0; i < 4; i++) {
		a[i] = add_page(x, f, (uint32_t)i, MM_LRU_USE_ONCE);
		INV();
		CHECK(!page_test(kh_page(x, a[i]), PG_hot));
		CHECK(!page_test(kh_page(x, a[i]), PG_test));
		CHECK(on_hand_list(x, a[i], HAND_COLD));
	}
	/* the cold list head is the last one inserted */
	CHECK_EQ(zsn(x)->lists[zsn(x)->hand_list[HAND_COLD]].head, a[3]);
	/* (cold,test) inserts go to the hot hand's list; it is empty, so the lists
	 * swap first (__select_list_hand): the hot hand now has A's list */
	uint8_t cold_list = zsn(x)->hand_list[HAND_COLD];
	for (int i = 0; i < 2; i++) {
		b[i] = add_page(x, f, (uint32_t)(10 + i), MM_LRU_ACTIVE);
		INV();
		CHECK(!page_test(kh_page(x, b[i]), PG_hot));
		CHECK(page_test(kh_page(x, b[i]), PG_test));
		CHECK(on_hand_list(x, b[i], HAND_HOT));
	}
	CHECK_EQ(zsn(x)->hand_list[HAND_HOT], cold_list);
	CHECK_EQ(zsn(x)->lists[cold_list].head, b[1]);
	CHECK_EQ(zsn(x)->nr_resident, 6);
	CHECK_EQ(zsn(x)->nr_cold, 6);
	CHECK_EQ(zn(x)->nr_inactive, 6);
	CHECK_EQ(zn(x)->nr_active, 0);
	CHECK_EQ(cpn(x)->lookups, 6);
	CHECK_EQ(cpn(x)->hits, 0);
	/* mark_accessed only sets PG_referenced: no list move */
	mm_mark_page_accessed(&x->k, &x->task, a[0]);
	CHECK(page_test(kh_page(x, a[0]), PG_referenced));
	CHECK(on_hand_list(x, a[0], HAND_HOT));
	CHECK_EQ(zsn(x)->lists[cold_list].tail, a[0]);
	INV();
	return 0;
}

/* The cold hand: referenced cold -> test; referenced in test -> hot (target +1);
 * unreferenced cold in test -> evicted and remembered; a refault is found. */
static int b_cold_hand(struct tctx *x)
{
	struct mm_file *f = mm_file_create(&x->k, "f", 1 << 20, 0, 0);
	struct mm_file *g = mm_file_create(&x->k, "g", 1 << 20, 0, 0);
	CHECK(f && g);
	uint32_t A = add_page(x, f, 0, MM_LRU_USE_ONCE);
	uint32_t B = add_page(x, f, 1, MM_LRU_USE_ONCE);
	uint32_t C = add_page(x, f, 2, MM_LRU_USE_ONCE);
	uint32_t D = add_page(x, f, 3, MM_LRU_USE_ONCE);
	INV();
	mm_mark_page_accessed(&x->k, &x->task, A);
	mm_mark_page_accessed(&x->k, &x->task, B);
	/* one batch over A, B, C, D (the tail first) */
	CHECK_EQ(cold_batch(x, 4), 4);
	INV();
	CHECK(page_test(kh_page(x, A), PG_test) && !page_test(kh_page(x, A), PG_hot));
	CHECK(page_test(kh_page(x, B), PG_test) && !page_test(kh_page(x, B), PG_hot));
	CHECK(!page_test(kh_page(x, A), PG_referenced));
	CHECK(on_hand_list(x, A, HAND_HOT) && on_hand_list(x, B, HAND_HOT));
	CHECK_EQ(f->pfn[2], PFN_NONE);   /* C, D freed, not remembered (no test) */
	CHECK_EQ(f->pfn[3], PFN_NONE);
	(void)C;
	(void)D;
	CHECK_EQ(cpn(x)->remembered, 0);
	CHECK_EQ(zsn(x)->nr_resident, 2);
	/* __cold_target_inc(zone, 0) at reinsert clamps the target to nr_resident */
	CHECK_EQ(zsn(x)->nr_cold_target, 2);
	/* 100 more residents (cold,test) behind the cold hand */
	for (uint32_t i = 0; i < 100; i++)
		CHECK(add_page(x, g, i, MM_LRU_ACTIVE) != PFN_NONE);
	INV();
	CHECK_EQ(zsn(x)->nr_resident, 102);
	CHECK_EQ(zsn(x)->nr_cold_target, 2);
	/* A referenced again in its test period */
	mm_mark_page_accessed(&x->k, &x->task, A);
	uint8_t hot_before = zsn(x)->hand_list[HAND_HOT];
	/* the cold hand's list is empty: the lists swap, the hand takes A then B */
	CHECK_EQ(cold_batch(x, 2), 2);
	INV();
	(void)hot_before;
	CHECK(page_test(kh_page(x, A), PG_hot));
	CHECK(!page_test(kh_page(x, A), PG_test));   /* the marker is cleared at reinsert */
	CHECK_EQ(cpn(x)->promotions, 1);
	CHECK_EQ(x->s.vs.ev[MM_PGACTIVATE], 1);
	CHECK_EQ(zsn(x)->nr_cold_target, 3);     /* +1 for the promotion */
	CHECK_EQ(f->pfn[1], PFN_NONE);            /* B evicted ... */
	CHECK_EQ(cpn(x)->remembered, 1);          /* ... and remembered (it was in test) */
	CHECK_EQ(cpn(x)->count, 1);
	CHECK_EQ(zn(x)->nr_active, 1);
	CHECK_EQ(zsn(x)->nr_resident, 101);
	/* a hot page on the cold hand's path is skipped by shrink_list before its
	 * reference bit is read: it keeps the bit */
	page_set(kh_page(x, A), PG_referenced);
	CHECK(clockpro_skip(x->k.rc, &x->k, A));
	CHECK(page_test(kh_page(x, A), PG_referenced));
	/* refault of B as a use-once page: found -> (cold,test) on the cold list */
	uint32_t B2 = add_page(x, f, 1, MM_LRU_USE_ONCE);
	INV();
	CHECK_EQ(cpn(x)->hits, 1);
	CHECK(page_test(kh_page(x, B2), PG_test) && !page_test(kh_page(x, B2), PG_hot));
	CHECK(on_hand_list(x, B2, HAND_COLD));
	CHECK_EQ(zsn(x)->nr_cold_target, 3);
	/* a remembered page refaulting through the normal insert goes in hot, +1 */
	nonres_put(cpn(x), &x->k, &x->task, f->id, 20);
	uint32_t E = add_page(x, f, 20, MM_LRU_ACTIVE);
	INV();
	CHECK_EQ(cpn(x)->hits, 2);
	CHECK(page_test(kh_page(x, E), PG_hot) && !page_test(kh_page(x, E), PG_test));
	CHECK(on_hand_list(x, E, HAND_HOT));
	CHECK_EQ(zsn(x)->nr_cold_target, 4);
	CHECK_EQ(zn(x)->nr_active, 2);
	/* a decrement below the floor lands on the floor (1 x pages_high = 6) */
	cold_target_dec(x->k.rc, zn(x), 1);
	CHECK_EQ(zsn(x)->nr_cold_target, 6);
	return 0;
}

/* The hot hand: referenced hot stay, unreferenced hot are demoted, test periods of
 * cold pages end (target -1 each, floored at pages_high); empty list -> swap. */
static int b_hot_hand(struct tctx *x)
{
	struct mm_file *f = mm_file_create(&x->k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[20];
	for (uint32_t i = 0; i < 20; i++)
		p[i] = add_page(x, f, i, MM_LRU_ACTIVE);   /* (cold,test), hot hand's list */
	INV();
	struct cp_zone *zs = zsn(x);
	/* white-box: make 8 of them hot */
	for (int i = 0; i < 8; i++) {
		page_set(kh_page(x, p[i]), PG_hot);
		page_clear(kh_page(x, p[i]), PG_test);
		zs->nr_cold--;
	}
	sync_counts(zn(x));
	INV();
	for (int i = 0; i < 4; i++)
		mm_mark_page_accessed(&x->k, &x->task, p[i]);
	zs->nr_cold_target = 30;
	CHECK_EQ(rotate_hot(x->k.rc, &x->k, &x->task, zn(x), 32), 20);
	INV();
	for (int i = 0; i < 4; i++) {
		CHECK(page_test(kh_page(x, p[i]), PG_hot));
		CHECK(!page_test(kh_page(x, p[i]), PG_referenced));
	}
	for (int i = 4; i < 8; i++)
		CHECK(!page_test(kh_page(x, p[i]), PG_hot));
	for (int i = 0; i < 20; i++) {
		CHECK(!page_test(kh_page(x, p[i]), PG_test));
		CHECK(on_hand_list(x, p[i], HAND_COLD));
	}
	CHECK_EQ(cpn(x)->demotions, 4);
	CHECK_EQ(x->s.vs.ev[MM_PGDEACTIVATE], 4);
	CHECK_EQ(zs->nr_cold, 16);
	CHECK_EQ(zn(x)->nr_active, 4);
	CHECK_EQ(zs->nr_cold_target, 30 - 12);   /* 12 test periods ended, no non-resident */
	/* again: the hot hand's list is empty -> swap; 16 test periods end at the floor */
	for (int i = 4; i < 20; i++)
		page_set(kh_page(x, p[i]), PG_test);
	zs->nr_cold_target = 10;
	uint8_t hl = zs->hand_list[HAND_HOT];
	CHECK_EQ(rotate_hot(x->k.rc, &x->k, &x->task, zn(x), 32), 20);
	INV();
	CHECK(zs->hand_list[HAND_HOT] != hl);
	CHECK_EQ(zs->nr_cold_target, 6);   /* floor = 1 x pages_high */
	/* the hot pages were not referenced since: all demoted now */
	CHECK_EQ(zs->nr_cold, 20);
	/* the loop of run_hot_hand() stops once nr_cold >= nr_cold_target */
	uint64_t before = cpn(x)->hot_hand_pages;
	run_hot_hand(x->k.rc, &x->k, &x->task, zn(x));
	CHECK_EQ(cpn(x)->hot_hand_pages, before);
	return 0;
}

/* Keys (mapping @m, index) that hash to bucket @b; fills @idx[0..n). */
static void keys_in_bucket(struct clockpro *cp, uint32_t m, uint32_t b, uint32_t *idx, int n)
{
	int got = 0;
	for (uint32_t i = 0; got < n; i++)
		if (nr_bucket_of(cp, m, i) == b)
			idx[got++] = i;
}

/* Non-resident table: 61-slot FIFO buckets; overwrite lowers the target; lazy
 * expiry by the global cycle counter. */
static int b_nonres(struct tctx *x)
{
	struct mm_file *f = mm_file_create(&x->k, "f", 64 << 20, 0, 0);
	CHECK(f);
	struct clockpro *cp = cpn(x);
	/* 4 MiB = 1024 pages: 1024 / 64 = 16 buckets */
	CHECK_EQ(cp->nbuckets, 16);
	uint32_t idx[64];
	keys_in_bucket(cp, f->id, 3, idx, 64);
	for (int i = 0; i < NR_SLOTS; i++)
		CHECK(!nonres_put(cp, &x->k, &x->task, f->id, idx[i]));
	CHECK_EQ(cp->bucket[3].n, NR_SLOTS);
	/* the 62nd entry overwrites the oldest: through evicted(), target -1 */
	uint32_t P = add_page(x, f, idx[NR_SLOTS], MM_LRU_USE_ONCE);
	CHECK(P != PFN_NONE);
	INV();
	zsn(x)->nr_cold_target = 20;
	mm_lru_lock(&x->k, &x->task, zn(x));
	clockpro_lru_del(x->k.rc, &x->k, zn(x), P);
	mm_lru_unlock(&x->k, &x->task, zn(x));
	page_set(kh_page(x, P), PG_test);
	clockpro_evicted(x->k.rc, &x->k, zn(x), P);
	CHECK(!page_test(kh_page(x, P), PG_test));
	CHECK_EQ(cp->overwritten, 1);
	CHECK_EQ(zsn(x)->nr_cold_target, 19);
	/* evicted() of a page without test remembers nothing */
	clockpro_evicted(x->k.rc, &x->k, zn(x), P);
	CHECK_EQ(cp->remembered, NR_SLOTS + 1);
	/* the oldest is gone, the second oldest is still there (and is forgotten on a hit) */
	CHECK(!nonres_get(cp, &x->k, &x->task, f->id, idx[0]));
	CHECK(nonres_get(cp, &x->k, &x->task, f->id, idx[1]));
	CHECK(!nonres_get(cp, &x->k, &x->task, f->id, idx[1]));
	CHECK_EQ(cp->bucket[3].n, NR_SLOTS - 1);
	CHECK_EQ(cp->count, NR_SLOTS - 1);
	/* the global counter advances 3 bucket-counts: 3 oldest entries expire lazily */
	CHECK_EQ(nonres_estimate(cp), NR_SLOTS - 1);
	cp->cycle += 3 * cp->nbuckets;
	CHECK_EQ(nonres_estimate(cp), NR_SLOTS - 1 - 3 * 16);
	CHECK(!nonres_get(cp, &x->k, &x->task, f->id, idx[2]));   /* idx[2..4] expired */
	CHECK(!nonres_get(cp, &x->k, &x->task, f->id, idx[4]));
	CHECK(nonres_get(cp, &x->k, &x->task, f->id, idx[5]));
	CHECK_EQ(cp->expired, 3);
	mm_page_free(&x->k, &x->task, P);
	f->pfn[idx[NR_SLOTS]] = PFN_NONE;
	f->nr_cached--;
	x->k.pagecache_pages--;
	return 0;
}

/* fixed_cold_target holds nr_cold_target through promotions, hot-hand passes,
 * refaults and overwrites. */
static int b_fixed(struct tctx *x)
{
	struct mm_file *f = mm_file_create(&x->k, "f", 1 << 20, 0, 0);
	CHECK(f);
	CHECK_EQ(zsn(x)->nr_cold_target, 50);
	uint32_t p[40];
	for (uint32_t i = 0; i < 40; i++)
		p[i] = add_page(x, f, i, MM_LRU_ACTIVE);
	for (int i = 0; i < 40; i++)
		mm_mark_page_accessed(&x->k, &x->task, p[i]);
	/* the cold hand's list is empty: swap, take 32; all (cold,test,ref) -> hot */
	CHECK_EQ(cold_batch(x, 32), 32);
	INV();
	CHECK_EQ(cpn(x)->promotions, 32);
	CHECK_EQ(zsn(x)->nr_cold_target, 50);
	run_hot_hand(x->k.rc, &x->k, &x->task, zn(x));
	INV();
	CHECK(cpn(x)->hot_hand_pages > 0);
	CHECK_EQ(zsn(x)->nr_cold_target, 50);
	nonres_put(cpn(x), &x->k, &x->task, f->id, 100);
	add_page(x, f, 100, MM_LRU_ACTIVE);
	INV();
	CHECK_EQ(cpn(x)->hits, 1);
	CHECK_EQ(zsn(x)->nr_cold_target, 50);
	return 0;
}

/* dma_pagecache=false reaches the core; the 2006-07 series' floor is 2 x pages_high
 * and refaulted-hot pages go to the cold list head. */
static int b_params(struct tctx *x)
{
	CHECK(!x->k.pagecache_dma);
	CHECK_EQ(zsn(x)->nr_cold_target, 12);
	struct mm_file *f = mm_file_create(&x->k, "f", 1 << 20, 0, 0);
	CHECK(f);
	nonres_put(cpn(x), &x->k, &x->task, f->id, 5);
	uint32_t P = add_page(x, f, 5, MM_LRU_ACTIVE);
	INV();
	CHECK(page_test(kh_page(x, P), PG_hot));
	CHECK(on_hand_list(x, P, HAND_COLD));
	return 0;
}

/* Looping sequential read of memory + 10% pages, 10 passes of 4-page reads, no
 * readahead: out[0] = pages read from disk in the last 4 passes, out[1] = pages
 * read by the program in them, out[2] = hot (active) pages at the end,
 * out[3] = nr_cold_target at the end, out[4..13] = disk pages per pass. */
static int b_loop(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t npages = (uint32_t)(k->phys.nr_pages + k->phys.nr_pages / 10);
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "loop", (uint64_t)npages * ps, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	uint64_t in_warm = 0, pages_warm = 0;
	for (int pass = 0; pass < 10; pass++) {
		uint64_t in0 = x->s.vs.ev[MM_PGPGIN];
		if (pass == 6) {
			in_warm = in0;
			pages_warm = st.pages;
		}
		for (uint64_t pos = 0; pos < f->size; pos += 4 * ps)
			CHECK(mm_file_read(k, &x->task, f, pos, 4 * ps, &st) > 0);
		if (inv(x))
			return -1;
		x->out[4 + pass] = (double)(x->s.vs.ev[MM_PGPGIN] - in0) * 1024 / (double)ps;
	}
	x->out[0] = (double)(x->s.vs.ev[MM_PGPGIN] - in_warm) * 1024 / (double)ps;
	x->out[1] = (double)(st.pages - pages_warm);
	x->out[2] = zn(x)->nr_active;
	if (k->rc->ops == &reclaim_clockpro)
		x->out[3] = (double)zsn(x)->nr_cold_target;
	return 0;
}

/* ------------------------------------------------------------------ tests */

static void test_insert(void **state)
{
	run(MACHINE_SMALL, K_CLOCKPRO, b_insert, NULL);
}
static void test_cold_hand(void **state)
{
	run(MACHINE_SMALL, K_CLOCKPRO, b_cold_hand, NULL);
}
static void test_hot_hand(void **state)
{
	run(MACHINE_SMALL, K_CLOCKPRO, b_hot_hand, NULL);
}
static void test_nonresident(void **state)
{
	run(MACHINE_SMALL, K_CLOCKPRO, b_nonres, NULL);
}
static void test_fixed_cold_target(void **state)
{
	run(MACHINE_SMALL, "{\"reclaim\":{\"module\":\"clockpro\",\"fixed_cold_target\":50}}",
	    b_fixed, NULL);
}
static void test_params_2006(void **state)
{
	run(MACHINE_SMALL,
	    "{\"reclaim\":{\"module\":\"clockpro\",\"series\":\"2006-07\",\"dma_pagecache\":false}}",
	    b_params, NULL);
}

static void test_loop_larger_than_memory(void **state)
{
	static const char *const machine =
		"{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,\"cpus\":2,"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"200MB/s\",\"write\":\"200MB/s\"}]}";
	double lru[16], cp[16];
	run(machine, "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}", b_loop, lru);
	run(machine, "{\"reclaim\":\"clockpro\",\"vm\":{\"readahead\":false}}", b_loop, cp);
	print_message("loop of 1.1 x memory, passes 7-10: lru2q %.0f pages from disk / %.0f "
		      "read; clockpro %.0f from disk (%.0f hot pages, nr_cold_target %.0f)\n",
		      lru[0], lru[1], cp[0], cp[2], cp[3]);
	print_message("clockpro disk pages per pass:");
	for (int i = 0; i < 10; i++)
		print_message(" %.0f", cp[4 + i]);
	print_message("\n");
	/* LRU faults on every reference of a loop larger than memory */
	assert_true(lru[0] >= 0.99 * lru[1]);
	/* CLOCK-Pro keeps most of memory hot and faults far less */
	assert_true(cp[0] < 0.5 * lru[0]);
	assert_true(cp[2] > 0.5 * 2048);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert),
		cmocka_unit_test(test_cold_hand),
		cmocka_unit_test(test_hot_hand),
		cmocka_unit_test(test_nonresident),
		cmocka_unit_test(test_fixed_cold_target),
		cmocka_unit_test(test_params_2006),
		cmocka_unit_test(test_loop_larger_than_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
