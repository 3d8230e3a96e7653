/*
 * test_lru2q_scan.c - the 2.6.15 two-list LRU's reclaim (models/reclaim/lru2q.c):
 * refill_inactive_zone (unmapped and mapped pages), shrink_zone's accumulators,
 * shrink_list, direct reclaim, kswapd and a loop larger than memory, each with
 * exact list contents (harness: lru2q_harness.h).
 */
#define KH_NAME "test_lru2q_scan"
#include "tests/lru2q_harness.h"

/* refill_inactive_zone: up to N pages from the active tail; unmapped page cache
 * goes to the inactive head whatever its PG_referenced (which it keeps), in the
 * order it was on the active list. */
static int b_refill(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t a[40], exp[40];
	for (uint32_t i = 0; i < 40; i++)
		CHECK((a[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
	for (int i = 0; i < 10; i++)
		touch(x, a[i]);   /* active: sets PG_referenced */
	INV();
	for (int i = 0; i < 40; i++)
		exp[i] = a[39 - i];
	LIST_ARR(ACTIVE, exp, 40);
	for (int i = 0; i < 10; i++)
		CHECK(flag(x, a[i], PG_referenced));
	CHECK_EQ(zn(x)->pages_scanned, 0);
	uint64_t acq = lock(x)->acquisitions;

	struct scan_control sc = sc0();
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_ARR(ACTIVE, exp, 8);           /* a39 .. a32 */
	LIST_ARR(INACTIVE, exp + 8, 32);    /* a31 .. a0 */
	for (int i = 0; i < 32; i++) {
		CHECK(!flag(x, a[i], PG_active) && flag(x, a[i], PG_lru));
		CHECK_EQ(flag(x, a[i], PG_referenced), i < 10);
	}
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 32);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
	CHECK_EQ(zn(x)->pages_scanned, 32);
	CHECK_EQ(lock(x)->acquisitions, acq + 4);   /* isolate; put back, dropping the lock after 14 and 28 pages */
	CHECK_EQ(sc.nr_scanned, 0);                 /* only shrink_list counts scans */

	/* asking for more than the list holds takes what there is */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_EMPTY(ACTIVE);
	LIST_ARR(INACTIVE, exp, 40);
	CHECK_EQ(ev(x, MM_PGREFILL), 40);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 40);
	CHECK_EQ(zn(x)->pages_scanned, 40);

	/* an empty active list: nothing */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_ARR(INACTIVE, exp, 40);
	CHECK_EQ(ev(x, MM_PGREFILL), 40);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 40);
	return 0;
}

/* refill_inactive_zone with mapped pages: they stay active unless reclaim_mapped
 * (swap_tendency = mapped_ratio/2 + (100 >> prev_priority) + swappiness >= 100), and
 * then only if page_referenced() finds no reference.  page_referenced() is not
 * called when !reclaim_mapped, so PG_referenced survives. */
static int b_refill_mapped(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t m[4];
	for (uint32_t i = 0; i < 4; i++) {
		CHECK((m[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
		kh_page(x, m[i])->mapcount = 1;
	}
	touch(x, m[1]);
	touch(x, m[3]);
	INV();
	CHECK_EQ(k->cfg.swappiness, 60);
	CHECK_EQ(zn(x)->prev_priority, MM_DEF_PRIORITY);
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);

	/* distress 0: 0 + 0 + 60 < 100 */
	struct scan_control sc = sc0();
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);
	LIST_EMPTY(INACTIVE);
	CHECK(flag(x, m[1], PG_referenced) && flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 4);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);

	/* prev_priority 2: distress 25, 85 < 100: still kept */
	zn(x)->prev_priority = 2;
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);
	CHECK(flag(x, m[1], PG_referenced) && flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 8);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);

	/* prev_priority 1: distress 50, 110 >= 100: unreferenced mapped pages go */
	zn(x)->prev_priority = 1;
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[1]);
	LIST_IS(INACTIVE, m[2], m[0]);
	CHECK(!flag(x, m[1], PG_referenced) && !flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 12);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 2);

	/* the next pass: m1, m3 were referenced once and it was consumed */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_EMPTY(ACTIVE);
	LIST_IS(INACTIVE, m[3], m[1], m[2], m[0]);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 4);
	for (int i = 0; i < 4; i++)
		kh_page(x, m[i])->mapcount = 0;
	zn(x)->prev_priority = MM_DEF_PRIORITY;
	return 0;
}

/* shrink_zone's nr_scan accumulators: each call adds (size >> priority) + 1 and a
 * list is scanned only once its accumulator reaches SWAP_CLUSTER_MAX (32).  On a
 * 40 + 40 page zone at priority 12 the first 31 calls only accumulate; the 32nd
 * refills exactly 32 and shrinks exactly 32.  At priority 0 the inactive budget of
 * 41 stops after the first 32 reclaimed (nr_to_reclaim), the rest is dropped. */
static int b_accumulate(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t a[40], in[40], ea[40], ei[40], e2[80];
	for (uint32_t i = 0; i < 40; i++)
		CHECK((a[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
	for (uint32_t i = 0; i < 40; i++)
		CHECK((in[i] = add_page(x, f, 100 + i, MM_LRU_USE_ONCE)) != PFN_NONE);
	for (int i = 0; i < 10; i++)
		touch(x, a[i]);
	INV();
	for (int i = 0; i < 40; i++) {
		ea[i] = a[39 - i];
		ei[i] = in[39 - i];
	}
	LIST_ARR(ACTIVE, ea, 40);
	LIST_ARR(INACTIVE, ei, 40);
	CHECK_EQ(zn(x)->nr_scan_active, 0);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	uint64_t acq = lock(x)->acquisitions;

	for (int call = 1; call <= 31; call++) {
		struct scan_control sc = sc0();
		lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
		CHECK_EQ(zn(x)->nr_scan_active, call);
		CHECK_EQ(zn(x)->nr_scan_inactive, call);
		CHECK_EQ(sc.nr_scanned, 0);
		CHECK_EQ(sc.nr_reclaimed, 0);
	}
	INV();
	LIST_ARR(ACTIVE, ea, 40);
	LIST_ARR(INACTIVE, ei, 40);
	CHECK_EQ(lock(x)->acquisitions, acq);
	CHECK_EQ(ev(x, MM_PGREFILL), 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 0);

	struct scan_control sc = sc0();
	lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
	INV();
	CHECK_EQ(zn(x)->nr_scan_active, 0);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 32);
	CHECK_EQ(sc.nr_scanned, 32);
	CHECK_EQ(sc.nr_reclaimed, 32);
	CHECK_EQ(sc.nr_to_reclaim, 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 32);
	/* active a39..a32; inactive: the deactivated a31..a0 before the old i39..i32 */
	LIST_ARR(ACTIVE, ea, 8);
	memcpy(e2, ea + 8, 32 * sizeof *e2);
	memcpy(e2 + 32, ei, 8 * sizeof *e2);
	LIST_ARR(INACTIVE, e2, 40);
	for (uint32_t i = 0; i < 40; i++)
		CHECK_EQ(f->pfn[100 + i] == PFN_NONE, i < 32);   /* the oldest 32 went */
	CHECK_EQ(f->nr_cached, 48);
	CHECK_EQ(zn(x)->pages_scanned, 0);   /* freeing pages resets it */
	/* refill (isolate, put back 32: +2 pagevec releases) + shrink_cache (isolate, put back none) */
	CHECK_EQ(lock(x)->acquisitions, acq + 6);

	/* priority 0: active 0 + 8 + 1 = 9 < 32 waits; inactive 0 + 40 + 1 = 41 */
	sc = sc0();
	sc.priority = 0;
	lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
	INV();
	CHECK_EQ(zn(x)->nr_scan_active, 9);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(sc.nr_scanned, 32);
	CHECK_EQ(sc.nr_reclaimed, 32);
	CHECK_EQ(ev(x, MM_PGSTEAL), 64);
	LIST_ARR(ACTIVE, ea, 8);
	LIST_ARR(INACTIVE, e2, 8);   /* a31..a24: the referenced a0..a9 went too */
	for (uint32_t i = 0; i < 40; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < 24);
	CHECK_EQ(f->nr_cached, 16);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
	return 0;
}

/* shrink_cache + shrink_list on a hand-made inactive list: a referenced unmapped
 * page is reclaimed (page_mapping_inuse() is false), a referenced mapped page is
 * activated, pages held by a reader (count 2), locked (not counted as scanned) or
 * dirty are kept and go back to the inactive head; freed pages leave the page
 * cache. */
static int b_shrink_list(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[10];
	for (uint32_t i = 0; i < 10; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	touch(x, p[0]);                      /* referenced, unmapped */
	kh_page(x, p[1])->count++;                /* a reader holds it */
	page_set(kh_page(x, p[2]), PG_locked);    /* under I/O */
	kh_page(x, p[3])->mapcount = 1;           /* mapped and referenced */
	touch(x, p[3]);
	page_set(kh_page(x, p[4]), PG_dirty);
	INV();
	LIST_IS(INACTIVE, p[9], p[8], p[7], p[6], p[5], p[4], p[3], p[2], p[1], p[0]);
	CHECK_EQ(k->pagecache_pages, 10);
	uint64_t acq = lock(x)->acquisitions;
	uint64_t pgfree = ev(x, MM_PGFREE);

	struct scan_control sc = sc0();
	sc.may_writepage = false;            /* the dirty page stays dirty (b_writeback) */
	shrink_cache(k, &x->task, zn(x), &sc, 10);
	INV();
	CHECK_EQ(sc.nr_scanned, 9);          /* all but the locked page */
	CHECK_EQ(sc.nr_reclaimed, 6);        /* p0, p5..p9 */
	CHECK_EQ(sc.nr_to_reclaim, 32 - 6);
	CHECK_EQ(ev(x, MM_PGSTEAL), 6);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 1);
	CHECK_EQ(ev(x, MM_PGFREE) - pgfree, 6);
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	/* survivors go back in isolation order (tail first), each to its list head */
	LIST_IS(INACTIVE, p[4], p[2], p[1]);
	LIST_IS(ACTIVE, p[3]);
	CHECK(flag(x, p[3], PG_active) && !flag(x, p[3], PG_referenced));
	CHECK_EQ(kh_page(x, p[1])->count, 2);
	CHECK(flag(x, p[2], PG_locked) && flag(x, p[4], PG_dirty));
	for (uint32_t i = 0; i < 10; i++) {
		bool freed = i == 0 || i >= 5;
		CHECK_EQ(f->pfn[i] == PFN_NONE, freed);
		if (freed) {
			CHECK_EQ(kh_page(x, p[i])->count, 0);
			CHECK_EQ(kh_page(x, p[i])->mapping, 0);
			CHECK(!flag(x, p[i], PG_lru) && !flag(x, p[i], PG_referenced));
		} else {
			CHECK_EQ(f->pfn[i], p[i]);
		}
	}
	CHECK_EQ(f->nr_cached, 4);
	CHECK_EQ(k->pagecache_pages, 4);

	/* released: all three go on the next scan (max_scan 3) */
	kh_page(x, p[1])->count--;
	page_clear(kh_page(x, p[2]), PG_locked);
	page_clear(kh_page(x, p[4]), PG_dirty);
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 3);
	INV();
	CHECK_EQ(sc.nr_scanned, 3);
	CHECK_EQ(sc.nr_reclaimed, 3);
	LIST_EMPTY(INACTIVE);
	LIST_IS(ACTIVE, p[3]);
	CHECK_EQ(f->nr_cached, 1);
	kh_page(x, p[3])->mapcount = 0;

	/* 40 pages, max_scan 40: two batches (32 + 8), two lock rounds each */
	struct mm_file *g = mm_file_create(k, "g", 1 << 20, 0, 0);
	CHECK(g);
	for (uint32_t i = 0; i < 40; i++)
		CHECK(add_page(x, g, i, MM_LRU_USE_ONCE) != PFN_NONE);
	INV();
	acq = lock(x)->acquisitions;
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 40);
	INV();
	CHECK_EQ(sc.nr_scanned, 40);
	CHECK_EQ(sc.nr_reclaimed, 40);
	CHECK_EQ(sc.nr_to_reclaim, 32 - 40);
	CHECK_EQ(lock(x)->acquisitions, acq + 4);
	CHECK_EQ(g->nr_cached, 0);
	LIST_EMPTY(INACTIVE);
	CHECK_EQ(ev(x, MM_PGSTEAL), 49);
	/* only the core's priority loops count pgscan */
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT) + ev(x, MM_PGSCAN_KSWAPD), 0);
	return 0;
}

/* try_to_free_pages on 100 inactive pages: the inactive accumulator reaches 32 at
 * priority 3 (1+1+1+1+1+1 + 2 + 4 + 7 + 13), which reclaims the oldest 32; no nap
 * (nothing was scanned below priority 10 before that); PGSCAN_DIRECT == 32. */
static int b_direct(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[100], e[100];
	for (uint32_t i = 0; i < 100; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	INV();
	for (int i = 0; i < 68; i++)
		e[i] = p[99 - i];
	CHECK(mm_try_to_free_pages(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL));
	INV();
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT), 32);
	CHECK_EQ(ev(x, MM_PGSCAN_KSWAPD), 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 32);
	CHECK_EQ(ev(x, MM_PGREFILL), 0);
	CHECK_EQ(ev(x, MM_POLICY_SHRINK), 10);   /* priorities 12 .. 3 */
	LIST_ARR(INACTIVE, e, 68);
	LIST_EMPTY(ACTIVE);
	for (uint32_t i = 0; i < 100; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < 32);
	CHECK_EQ(zn(x)->nr_scan_active, 10);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(zn(x)->prev_priority, 3);
	CHECK_EQ(zn(x)->temp_priority, 3);
	CHECK(x->task.congestion_s == 0);
	return 0;
}

/* kswapd: fill memory with page cache through the pagevec until the allocator
 * wakes kswapd; balance_pgdat() scans at priorities 12 .. 6 (accumulating) and
 * reclaims 32 pages from the inactive tail: exactly the oldest ones, each scanned
 * page freed (PGSCAN_KSWAPD == PGSTEAL == 32); the zone ends above pages_high. */
static int b_kswapd(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 8 << 20, 0, 0);
	CHECK(f);
	uint32_t n = 0;
	while (ev(x, MM_KSWAPD_WAKEUP) == 0) {
		CHECK(n < f->npages);
		CHECK(new_page(x, f, n) != PFN_NONE);
		mm_lru_cache_add(k, &x->task, f->pfn[n], MM_LRU_USE_ONCE);
		n++;
	}
	INV();
	/* between 896 and 1023 inactive pages, the accumulator reaches 32 at
	 * priority 6: 1 + 1 + 1 + (1+1) + (3+1) + (7+1) + (14 or 15, +1) */
	uint32_t nr_inactive = n - k->lru_add_pvec[0].nr;
	CHECK(nr_inactive >= 896 && nr_inactive <= 1023);
	mm_sleep(&x->task, 2.0, NULL);   /* let kswapd run */
	INV();
	uint64_t stolen = ev(x, MM_PGSTEAL);
	CHECK_EQ(stolen, MM_SWAP_CLUSTER_MAX);
	CHECK_EQ(ev(x, MM_POLICY_SHRINK), 7);    /* priorities 12 .. 6 */
	/* the pass stops at 32 reclaimed, after one HZ/10 nap (priority 6 < 10); the
	 * second pass finds the zone above pages_high */
	CHECK_EQ(ev(x, MM_PAGEOUTRUN), 2);
	CHECK(k->kswapd.congestion_s == MM_HZ_S(100));
	CHECK_EQ(ev(x, MM_PGSCAN_KSWAPD), stolen);
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT), 0);
	CHECK_EQ(ev(x, MM_ALLOCSTALL), 0);
	CHECK_EQ(ev(x, MM_PGACTIVATE) + ev(x, MM_PGDEACTIVATE) + ev(x, MM_PGREFILL), 0);
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < stolen);
	CHECK_EQ(f->nr_cached, n - stolen);
	CHECK(zone_watermark_ok(zn(x), 0, zn(x)->pages_high, 0, false, false));
	CHECK(k->kswapd_sleeping);
	CHECK(x->task.direct_reclaims == 0);
	/* the inactive list is still in insertion order from its tail */
	uint32_t idx = (uint32_t)stolen;
	for (uint32_t pfn = zsn(x)->inactive.tail; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_prev)
		CHECK_EQ(kh_page(x, pfn)->index, idx++);
	CHECK_EQ(idx + k->lru_add_pvec[0].nr, n);
	x->out[0] = (double)n;
	x->out[1] = (double)stolen;
	return 0;
}

/* kswapd's balance_pgdat, 2.6.15 against the series' incmin (vm.kswapd_incmin,
 * kernel-mechanisms.md 1.5a), on a two-zone x86_64 box (DMA 4096 pages, DMA32
 * 2048; out[] per zone).  Page cache fills DMA32, then falls back to DMA until DMA
 * is down to pages_low + lowmem_reserve: only then is kswapd woken, with DMA
 * above its own pages_high and DMA32 below.  2.6.15 scans every zone up to the
 * highest low one, so DMA too; incmin scans DMA32 only.  out[0]: shrink_zone
 * calls, out[1]/out[2]: page-cache pages reclaimed from DMA / DMA32, out[3]:
 * passes (PAGEOUTRUN), out[4]/[5]: inactive pages of DMA / DMA32 at the wake-up. */
static int b_kswapd_zones(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct zone *dma = &k->phys.zones[MM_ZONE_DMA], *d32 = &k->phys.zones[MM_ZONE_DMA32];
	struct mm_file *f = mm_file_create(k, "f", 32 << 20, 0, 0);
	CHECK(f);
	uint32_t n = 0;
	while (ev(x, MM_KSWAPD_WAKEUP) == 0) {
		CHECK(n < f->npages);
		CHECK(new_page(x, f, n) != PFN_NONE);
		mm_lru_cache_add(k, &x->task, f->pfn[n], MM_LRU_USE_ONCE);
		n++;
	}
	INV();
	uint32_t zone_of[8192], ndma = 0, nd32 = 0;
	CHECK(n <= 8192);
	for (uint32_t i = 0; i < n; i++)
		zone_of[i] = kh_page(x, f->pfn[i])->zone;
	x->out[4] = dma->nr_inactive;
	x->out[5] = d32->nr_inactive;
	CHECK(zone_watermark_ok(dma, 0, dma->pages_high, 0, false, false));
	CHECK(!zone_watermark_ok(d32, 0, d32->pages_high, 0, false, false));
	mm_sleep(&x->task, 2.0, NULL);   /* let kswapd run */
	INV();
	for (uint32_t i = 0; i < n; i++)
		if (f->pfn[i] == PFN_NONE) {
			ndma += zone_of[i] == MM_ZONE_DMA;
			nd32 += zone_of[i] == MM_ZONE_DMA32;
		}
	CHECK_EQ(ndma + nd32, ev(x, MM_PGSTEAL));
	CHECK_EQ(ev(x, MM_PGSCAN_KSWAPD), ev(x, MM_PGSTEAL));
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT), 0);
	CHECK(zone_watermark_ok(d32, 0, d32->pages_high, 0, false, false));
	CHECK(k->kswapd_sleeping);
	x->out[0] = (double)ev(x, MM_POLICY_SHRINK);
	x->out[1] = ndma;
	x->out[2] = nd32;
	x->out[3] = (double)ev(x, MM_PAGEOUTRUN);
	return 0;
}

/* Looping sequential read (4-page reads, no readahead) of a file of 1.1 x memory,
 * 5 passes: the LRU evicts in FIFO order, so every read misses and reads its 4
 * pages from disk, in every pass; a page is touched once per pass and is never
 * activated; after each pass the cache holds exactly the last pages read, on the
 * inactive list in file order.  out[0..4] = disk pages per pass, out[5] = cache. */
static int b_loop(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t npages = (uint32_t)(k->phys.nr_pages + k->phys.nr_pages / 10);
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "loop", (uint64_t)npages * ps, 0, 0);
	CHECK(f);
	CHECK_EQ(npages % 4, 0);
	struct mm_read_stats st = { 0 };
	uint64_t reads = 0;
	for (int pass = 0; pass < 5; pass++) {
		uint64_t in0 = ev(x, MM_PGPGIN), miss0 = st.misses;
		for (uint64_t pos = 0; pos < f->size; pos += 4 * ps) {
			CHECK_EQ(mm_file_read(k, &x->task, f, pos, 4 * ps, &st), 4 * ps);
			reads++;
		}
		INV();
		uint64_t disk_pages = (ev(x, MM_PGPGIN) - in0) * 1024 / ps;
		x->out[pass] = (double)disk_pages;
		CHECK_EQ(disk_pages, npages);            /* every page from disk */
		CHECK_EQ(st.misses - miss0, npages / 4); /* every read() missed */
		CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
		CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);
		CHECK_EQ(ev(x, MM_PGREFILL), 0);
		CHECK_EQ(zn(x)->nr_active, 0);
		/* conservation: read in == cached + reclaimed */
		CHECK_EQ(ev(x, MM_PGPGIN) * 1024 / ps, f->nr_cached + ev(x, MM_PGSTEAL));
		/* the cache is the last nr_cached pages of the file, in file order from the
		 * inactive tail, then the pagevec */
		uint32_t first = npages - f->nr_cached;
		for (uint32_t i = 0; i < npages; i++)
			CHECK_EQ(f->pfn[i] != PFN_NONE, i >= first);
		uint32_t idx = first;
		for (uint32_t pfn = zsn(x)->inactive.tail; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_prev)
			CHECK_EQ(kh_page(x, pfn)->index, idx++);
		for (unsigned i = 0; i < k->lru_add_pvec[0].nr; i++)
			CHECK_EQ(kh_page(x, k->lru_add_pvec[0].pfn[i])->index, idx++);
		CHECK_EQ(idx, npages);
		/* each cached page was touched once since it was read: PG_referenced */
		for (uint32_t i = first; i < npages; i++)
			CHECK(flag(x, f->pfn[i], PG_referenced));
	}
	CHECK_EQ(st.pages, 5ull * npages);
	CHECK_EQ(st.misses, reads);
	CHECK_EQ(st.hits, 3 * reads);
	CHECK(f->nr_cached < npages - 4);
	x->out[5] = (double)f->nr_cached;
	return 0;
}

/* ------------------------------------------------------------------ tests */

static void test_refill_unmapped(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_refill, NULL);
}
static void test_refill_mapped(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_refill_mapped, NULL);
}
static void test_shrink_zone_accumulators(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_accumulate, NULL);
}
static void test_shrink_list(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_shrink_list, NULL);
}
static void test_direct_reclaim(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_direct, NULL);
}
static void test_kswapd(void **state)
{
	/* min_free_kbytes 256: pages_min 64, low 80, high 96, so that the allocation
	 * that wakes kswapd (below low) still succeeds at min without direct reclaim
	 * (with 16 kB, one per-CPU list refill jumps from above low to below min) */
	static const char *const machine =
		"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
		"\"min_free_kbytes\":256,"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
	double o[16];
	run(machine, K_LRU2Q, b_kswapd, o);
	print_message("kswapd woken after %.0f page-cache pages, reclaimed the oldest %.0f\n", o[0],
		      o[1]);
}
static void test_kswapd_incmin(void **state)
{
	/* min_free_kbytes 1024 (min 170 / 85 pages); lowmem_reserve_ratio 16: DMA
	 * keeps 2048 / 16 = 128 pages from DMA32's allocations */
	static const char *const machine =
		"{\"arch\":\"x86_64\",\"memory\":\"24MiB\",\"kernel_reserved\":0,"
		"\"struct_page_bytes\":0,\"cpus\":2,\"min_free_kbytes\":1024,"
		"\"lowmem_reserve_ratio\":[16,16,32,32],"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
	double a[16], b[16];
	run(machine, K_LRU2Q, b_kswapd_zones, a);
	run(machine, "{\"reclaim\":\"lru2q\",\"vm\":{\"kswapd_incmin\":true}}", b_kswapd_zones, b);
	/* 1941 inactive in DMA32: the accumulator gets 1, 1, 2, 4, 8, 16 at priorities
	 * 12 .. 7 and reaches 32 at 7; 3743 in DMA: 1, 2, 4, 8, 15, 30, past 32 at 7.
	 * Both reclaim the 32 oldest pages of the zone they scan at 7; the pass ends
	 * there (32 reclaimed), the second finds every zone above pages_high. */
	assert_int_equal(a[4], 3743);
	assert_int_equal(a[5], 1941);
	assert_int_equal(b[4], 3743);
	assert_int_equal(b[5], 1941);
	assert_int_equal(a[0], 12);   /* 2.6.15: DMA and DMA32 at each of 12 .. 7 */
	assert_int_equal(a[1], 32);   /* DMA over-scanned: 32 of its pages reclaimed */
	assert_int_equal(a[2], 32);
	assert_int_equal(a[3], 2);
	assert_int_equal(b[0], 6);    /* incmin: DMA32 only */
	assert_int_equal(b[1], 0);
	assert_int_equal(b[2], 32);
	assert_int_equal(b[3], 2);
	print_message("2.6.15: %.0f shrink_zone, %.0f DMA + %.0f DMA32 reclaimed, %.0f passes (inactive %.0f/%.0f)\n",
		      a[0], a[1], a[2], a[3], a[4], a[5]);
	print_message("incmin: %.0f shrink_zone, %.0f DMA + %.0f DMA32 reclaimed, %.0f passes (inactive %.0f/%.0f)\n",
		      b[0], b[1], b[2], b[3], b[4], b[5]);
}
static void test_loop_larger_than_memory(void **state)
{
	static const char *const machine =
		"{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,\"cpus\":2,"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"200MB/s\",\"write\":\"200MB/s\"}]}";
	double o[16];
	run(machine, "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}", b_loop, o);
	print_message("loop of 1.1 x memory: disk pages per pass %.0f %.0f %.0f %.0f %.0f, "
		      "%.0f pages cached at the end\n", o[0], o[1], o[2], o[3], o[4], o[5]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refill_unmapped),
		cmocka_unit_test(test_refill_mapped),
		cmocka_unit_test(test_shrink_zone_accumulators),
		cmocka_unit_test(test_shrink_list),
		cmocka_unit_test(test_direct_reclaim),
		cmocka_unit_test(test_kswapd),
		cmocka_unit_test(test_kswapd_incmin),
		cmocka_unit_test(test_loop_larger_than_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
