/*
 * clockpro.c - CLOCK-Pro as Peter Zijlstra's Linux approximation of it, the
 * 2005-12-30 series that seed 000 tested ("[PATCH] vm: page-replace and clockpro",
 * 1/9 clockpro-nonresident, 4/9 clockpro-use-once, 6/9 clockpro-clockpro), with
 * the differences of the 2006-07 code as the `series` parameter
 * (kernel-mechanisms.md 1.4, 1.5, 1.5a, 1.6; docs/clockpro.md).
 *
 * Design.
 *  - Per zone (z->reclaim_priv): the resident clock as two plists laid head to
 *    tail.  list_hand[HOT] / list_hand[COLD] name which physical list each hand
 *    works on (lists[hand_list[h]]); page->list_id records the physical list a
 *    page is on, so a swap of the hands' lists (__select_list_hand: the list a
 *    hand needs is empty) is O(1) and lru_del() still finds the page.  A hand
 *    advances by taking pages from the tail of its own list and putting them at
 *    the head of the other one.  Counters nr_resident, nr_cold, nr_cold_target,
 *    nr_nonresident_scale; z->nr_active = nr_resident - nr_cold (hot pages) and
 *    z->nr_inactive = nr_cold are kept in step so mm_check() holds.
 *  - Page flags: PG_hot, PG_test, PG_referenced (mark_accessed only sets it; the
 *    hands clear it), PG_lru.
 *  - Insertion (lru_add, under lru_lock from the pagevec drain): look the page up
 *    in the non-resident table.  Use-once (MM_LRU_USE_ONCE, the PG_test hint the
 *    series' add_to_page_cache() presets): the hint is consumed; the page goes in
 *    "one state lower": (cold,test) if found, else (cold), at the head of the
 *    COLD list (right behind the hot hand).  Otherwise (anon, MM_LRU_ACTIVE is
 *    ignored as the series does): found -> (hot), nr_cold_target += 1;
 *    not found -> (cold,test); at the head of the HOT list (behind the cold
 *    hand; 2006-07 puts found pages at the COLD list head).
 *  - Cold hand = reclaim (shrink_zone): ((nr_resident >> priority) + 32) & ~31
 *    pages in 32-page batches: isolate from the tail of list_hand[COLD], run the
 *    core's shrink_list(), whose verdicts come from reclaimable(): hot -> KEEP
 *    (try_pageout's PageActive test comes before page_referenced() in the series,
 *    so the reference bit the core cleared is put back); cold referenced without
 *    test -> set test, KEEP; cold referenced in test -> PG_hot (PG_test left as
 *    the marker), ACTIVATE; cold unreferenced -> FREE (page_mapping_inuse() is
 *    not consulted: 4/9 removed it).  evicted(): a page with PG_test is
 *    remembered; overwriting a remembered entry lowers nr_cold_target by 1.
 *    Survivors go back under lru_lock to the head of list_hand[HOT]; promoted
 *    ones clear PG_test and raise nr_cold_target (2006-07: they go to the head
 *    of list_hand[COLD]).  Then the hot hand.
 *  - Hot hand (rotate_hot): while nr_cold < nr_cold_target, up to a limit of
 *    32-page batches (2005-12: nr_resident/32, a full revolution; 2006-07 as
 *    written: 1 + (nr_resident/2)*32; half_revolution: 1 + nr_resident/64):
 *    isolate from the tail of list_hand[HOT]; hot referenced -> clear ref, stays
 *    hot; hot unreferenced -> cold (PGDEACTIVATE); cold -> its test period ends
 *    (nr_cold_target -= 1 each).  All go to the head of list_hand[COLD].  The
 *    non-resident hand moves with it (__nonres_term): cycles = (scale + taken x
 *    estimate) / (resident pages of all zones + 1); the global cycle counter
 *    advances by cycles and nr_cold_target -= cycles.
 *  - nr_cold_target: starts at and is floored at floor x pages_high
 *    (cold_target_floor: 1 in 2005-12, 2 in 2006-07), ceiling nr_resident;
 *    fixed_cold_target holds it constant.
 *  - Non-resident table (1/9): sized from the number of pages as the series
 *    sizes it, roundup_pow2(nr_pages / 64) buckets (4096 for 1 GiB, 2^22 for
 *    1 TiB) of 61 slots (a 256-byte struct nr_bucket minus lock, hands and
 *    cycle), each bucket a FIFO of 24-bit cookies; rotated lazily: a bucket
 *    whose cycle lags the global counter (rounded down to a multiple of the
 *    bucket count) drops one oldest entry per bucket-count step when it is next
 *    touched.  The estimate of remembered entries is count - (cycle - delay).
 *    Host layout: the series' bucket is one struct; here its cycle and hands
 *    are an 8-byte header in an array of their own and its slots a 244-byte
 *    block in another, so that a lookup in an empty bucket (every lookup until
 *    pages have been evicted) reads a header and not the slots.  Both arrays
 *    are allocated zeroed once in kinit(); the headers are backed at once (on
 *    huge host pages), the slots only where entries are written (reading a
 *    whole 256-byte bucket per lookup would fault in a host page of the 1 GiB
 *    table per page-cache insertion on a 1 TiB machine).  Host memory: 252
 *    bytes per 64 pages, 3.9 bytes per simulated page, of which the headers
 *    (0.125 bytes per page) are resident from the start and the slots as pages
 *    are remembered.
 *
 * Everything lives in the instance (r->priv) and the zones: no global mutable
 * state; no allocation after kinit().  Costs follow kernel-mechanisms.md 1.6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/hostmem.h"
#include "emu/core/sim.h"
#include "models/mm/vmscan.h"
#include "models/reclaim/reclaim.h"

enum { HAND_HOT = 0, HAND_COLD = 1 };
enum { SERIES_2005_12, SERIES_2006_07 };
enum { HHL_AS_WRITTEN, HHL_HALF_REVOLUTION };

#define NR_SLOTS 61           /* (256 - 4 lock - 4 hands - 4 cycle) / 4 [1/9] */
#define NR_BUCKET_PAGES 64    /* sizeof(struct nr_bucket) / sizeof(u32) */
#define NR_COOKIE_BITS 24     /* 32 - 2 listid bits - 6 index bits */
#define NR_MAX_SHIFT 24       /* a cap; 2 TiB of 4 KiB pages (MM_MAX_MEMORY) needs 2^23 */

struct clockpro_cfg {
	int64_t cold_target_floor;   /* x pages_high; 0 = series default */
	int64_t fixed_cold_target;   /* pages; 0 = adaptive */
	bool dma_pagecache;
	int hot_hand_limit;          /* HHL_* */
	int series;                  /* SERIES_* */
};

static const char *const hhl_names[] = { "as_written", "half_revolution", NULL };
static const char *const series_names[] = { "2005-12", "2006-07", NULL };

static const struct mm_param clockpro_params[] = {
	MM_PARAM(struct clockpro_cfg, cold_target_floor, "cold_target_floor", MM_P_INT, 0, 64, "0",
		 "nr_cold_target start and floor in units of pages_high; 0 = the series' value "
		 "(1 in 2005-12 [1.5a], 2 in 2006-07 [1.5])"),
	MM_PARAM(struct clockpro_cfg, fixed_cold_target, "fixed_cold_target", MM_P_INT, 0, 1 << 30,
		 "0", "pages: hold every zone's nr_cold_target at this value (capped at the zone's "
		 "present pages); 0 = adaptive (seed 000, observation 2)"),
	MM_PARAM(struct clockpro_cfg, dma_pagecache, "dma_pagecache", MM_P_BOOL, 1, 0, "true",
		 "page cache may come from ZONE_DMA; false = seed 000's kernel 3"),
	MM_PARAM_ENUM(struct clockpro_cfg, hot_hand_limit, "hot_hand_limit", hhl_names,
		      "\"as_written\"",
		      "hot-hand batches per pass: as_written = nr_resident/32 (2005-12) or "
		      "1 + (nr_resident/2)*32 (2006-07 precedence bug); half_revolution = "
		      "1 + nr_resident/64 [1.5 NOTE]"),
	MM_PARAM_ENUM(struct clockpro_cfg, series, "series", series_names, "\"2005-12\"",
		      "2005-12: the series seed 000 tested [1.5a]; 2006-07: floor 2 x pages_high, "
		      "promoted and refaulted-hot pages to the COLD list head, hot-hand limit [1.5]"),
	MM_PARAM_END,
};

/* Per-zone CLOCK-Pro state (zone->policy in the series). */
struct cp_zone {
	struct plist lists[2];       /* physical lists; page->list_id says which */
	uint8_t hand_list[2];        /* list_hand[h] == lists[hand_list[h]] */
	uint64_t nr_resident;
	uint64_t nr_cold;
	uint64_t nr_cold_target;
	uint64_t nr_nonresident_scale;
	uint64_t floor_mult;
};

/* The cycle and hands of a non-resident bucket (its slots are in struct clockpro). */
struct nr_head {
	uint32_t cycle;              /* bucket->cycle */
	uint8_t head;                /* oldest entry */
	uint8_t n;                   /* entries (list NR_b1) */
};

/* The non-resident table and run statistics (r->priv). */
struct clockpro {
	struct nr_head *bucket;      /* [nbuckets] */
	uint32_t *slot;              /* [nbuckets * NR_SLOTS] cookies, FIFO per bucket */
	uint32_t nbuckets;           /* 1 << shift */
	unsigned shift;
	uint32_t cycle;              /* nonres_cycle (summed over CPUs) */
	uint32_t delay;              /* nonres_delay */
	uint32_t count;              /* nonres_count[NR_b1] */
	/* statistics */
	uint64_t lookups, hits, remembered, overwritten, expired;
	uint64_t promotions, demotions, hot_hand_pages, hot_hand_runs, test_ends;
	uint64_t insert_hot, insert_cold_test, insert_cold;
};

static inline struct cp_zone *zstate(struct zone *z)
{
	return z->reclaim_priv;
}

static inline const struct clockpro_cfg *cfg_of(const struct reclaim *r)
{
	return r->cfg;
}

static inline void charge(struct mm_task *t, double c)
{
	if (t)
		mm_charge(t, c);
}

/* Cycles of a cache-line miss. */
static inline double miss(const struct mm_kernel *k)
{
	return k->costs->mem_latency * k->clock;
}

/* ---------------------------------------------------------------- non-resident */

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* nr_hash(): bucket of (mapping, index). */
static inline uint32_t nr_bucket_of(const struct clockpro *cp, uint32_t mapping, uint32_t index)
{
	uint64_t h = mix64((uint64_t)mapping * 0x9e3779b97f4a7c15ull + 37ull * index);
	return (uint32_t)(h >> (64 - cp->shift)) & (cp->nbuckets - 1);
}

/* nr_cookie(): a different 24-bit hash of (mapping, index). */
static inline uint32_t nr_cookie(uint32_t mapping, uint32_t index)
{
	uint64_t h = mix64(37ull * mapping + ((uint64_t)index << 32) + 0x5bd1e995u);
	return (uint32_t)(h >> (64 - NR_COOKIE_BITS));
}

static int nonres_init(struct clockpro *cp, uint32_t nr_pages, struct mm_err *e)
{
	uint32_t target = nr_pages / NR_BUCKET_PAGES;
	unsigned shift = 0;
	while (shift < NR_MAX_SHIFT && (1u << shift) < target)
		shift++;                 /* alloc_large_system_hash rounds up */
	cp->shift = shift;
	cp->nbuckets = 1u << shift;
	/* Every lookup reads a header at random: the headers are zeroed and backed
	 * now, as the kernel zeroes the table at boot, on huge host pages (32 MiB,
	 * 16 of them, at 1 TiB).  The slots are read only in buckets that hold
	 * entries: zeroed (calloc) and backed by the host where they are written. */
	cp->bucket = mm_calloc_huge(cp->nbuckets, sizeof *cp->bucket);
	cp->slot = calloc((size_t)cp->nbuckets * NR_SLOTS, sizeof *cp->slot);
	if (!cp->bucket || !cp->slot)
		return mm_errf(e, NULL, NULL, "clockpro: out of memory for %u non-resident buckets",
			       cp->nbuckets);
	mm_prefault(cp->bucket, (size_t)cp->nbuckets * sizeof *cp->bucket);
	return 0;
}

static void nonres_fini(struct clockpro *cp)
{
	free(cp->bucket);
	free(cp->slot);
	cp->bucket = NULL;
	cp->slot = NULL;
}

/* Drop the oldest entry of bucket @bk. */
static inline void bucket_pop(struct clockpro *cp, struct nr_head *bk)
{
	if (bk->n == 0)
		return;
	bk->head = (uint8_t)((bk->head + 1) % NR_SLOTS);
	bk->n--;
	cp->count--;
}

/* __nonresident_rotate(): catch bucket @bk up with the global cycle counter. */
static void nonres_rotate(struct clockpro *cp, struct nr_head *bk)
{
	uint32_t target = cp->cycle & ~(cp->nbuckets - 1);
	uint32_t steps = (target - bk->cycle) >> cp->shift;   /* u32 wrap as the kernel */
	if (steps == 0)
		return;
	cp->delay += steps;
	uint32_t drop = steps < bk->n ? steps : bk->n;
	cp->expired += drop;
	for (uint32_t i = 0; i < drop; i++)
		bucket_pop(cp, bk);
	bk->cycle = target;
}

/* __sum_cpu_var() of the per-CPU counters: one line per CPU, remote ones miss. */
static void charge_sum_cpu(struct mm_kernel *k, struct mm_task *t)
{
	charge(t, k->costs->page_op + (double)(k->phys.ncpus - 1) * miss(k));
}

/* nonresident_get(): Returns: true if (mapping, index) was remembered (and forgets it). */
static bool nonres_get(struct clockpro *cp, struct mm_kernel *k, struct mm_task *t,
		       uint32_t mapping, uint32_t index)
{
	uint32_t b = nr_bucket_of(cp, mapping, index);
	struct nr_head *bk = &cp->bucket[b];
	uint32_t want = nr_cookie(mapping, index);
	/* hash + the bucket's line(s) from memory + spin_lock_irqsave + cycle sum */
	charge(t, k->costs->pc_lookup + miss(k) + k->costs->atomic);
	charge_sum_cpu(k, t);
	cp->lookups++;
	nonres_rotate(cp, bk);
	uint32_t *s = &cp->slot[(size_t)b * NR_SLOTS];
	unsigned n = bk->n, h = bk->head;
	charge(t, (double)n);   /* one compare per entry */
	for (unsigned i = 0; i < n; i++) {
		unsigned pos = (h + i) % NR_SLOTS;
		if (s[pos] != want)
			continue;
		/* unlink: close the gap towards the head (the kernel swaps list links) */
		for (unsigned j = i; j > 0; j--)
			s[(h + j) % NR_SLOTS] = s[(h + j - 1) % NR_SLOTS];
		bk->head = (uint8_t)((h + 1) % NR_SLOTS);
		bk->n--;
		cp->count--;
		cp->hits++;
		return true;
	}
	return false;
}

/* nonresident_put(): remember (mapping, index).
 * Returns: true if an old entry had to be overwritten (no free slot). */
static bool nonres_put(struct clockpro *cp, struct mm_kernel *k, struct mm_task *t,
		       uint32_t mapping, uint32_t index)
{
	uint32_t b = nr_bucket_of(cp, mapping, index);
	struct nr_head *bk = &cp->bucket[b];
	/* hash + bucket miss + spin_lock_irqsave + xchg, + the cycle sum */
	charge(t, k->costs->pc_lookup + miss(k) + 2 * k->costs->atomic);
	charge_sum_cpu(k, t);
	nonres_rotate(cp, bk);
	bool over = false;
	if (bk->n == NR_SLOTS) {
		bucket_pop(cp, bk);
		over = true;
		cp->overwritten++;
	}
	cp->slot[(size_t)b * NR_SLOTS + (bk->head + bk->n) % NR_SLOTS] = nr_cookie(mapping, index);
	bk->n++;
	cp->count++;
	cp->remembered++;
	return over;
}

/* nonresident_estimate(): remembered entries the lazy rotation has not dropped yet. */
static uint32_t nonres_estimate(const struct clockpro *cp)
{
	uint32_t diff = cp->cycle - cp->delay;
	return diff > cp->count ? 0 : cp->count - diff;
}

/* ---------------------------------------------------------------- zone state */

static void sync_counts(struct zone *z)
{
	struct cp_zone *zs = zstate(z);
	z->nr_inactive = (uint32_t)zs->nr_cold;
	z->nr_active = (uint32_t)(zs->nr_resident - zs->nr_cold);
}

static inline uint64_t cold_floor(const struct zone *z, const struct cp_zone *zs)
{
	return zs->floor_mult * z->pages_high;
}

/* __cold_target_inc(): limited to nr_resident (unsigned arithmetic as the series). */
static void cold_target_inc(const struct reclaim *r, struct zone *z, uint64_t dct)
{
	struct cp_zone *zs = zstate(z);
	if (cfg_of(r)->fixed_cold_target)
		return;
	if (zs->nr_cold_target < zs->nr_resident - dct)
		zs->nr_cold_target += dct;
	else
		zs->nr_cold_target = zs->nr_resident;
}

/* __cold_target_dec(): floored at floor_mult x pages_high. */
static void cold_target_dec(const struct reclaim *r, struct zone *z, uint64_t dct)
{
	struct cp_zone *zs = zstate(z);
	uint64_t fl = cold_floor(z, zs);
	if (cfg_of(r)->fixed_cold_target)
		return;
	if (zs->nr_cold_target > fl + dct)
		zs->nr_cold_target -= dct;
	else
		zs->nr_cold_target = fl;
}

/* __select_list_hand(): swap the lists if the one hand @h needs is empty. */
static inline void select_list_hand(struct cp_zone *zs, int h)
{
	if (plist_empty(&zs->lists[zs->hand_list[h]])) {
		zs->hand_list[0] ^= 1;
		zs->hand_list[1] ^= 1;
	}
}

/* Link @pfn at the head of list_hand[@h] and count it resident (lru_lock held). */
static void link_head(struct mm_kernel *k, struct zone *z, uint32_t pfn, int h)
{
	struct cp_zone *zs = zstate(z);
	struct page *p = &k->phys.pages[pfn];
	uint8_t l = zs->hand_list[h];
	plist_add_head(k->phys.pages, &zs->lists[l], pfn);
	p->list_id = l;
	page_set(p, PG_lru);
	zs->nr_resident++;
	if (!page_test(p, PG_hot))
		zs->nr_cold++;
	sync_counts(z);
}

/* isolate_lru_pages(): up to @nr from the tail of list_hand[@h] (lru_lock held).
 * Returns: pages taken (all pages looked at are taken: none is being freed). */
static unsigned isolate(struct mm_kernel *k, struct mm_task *t, struct zone *z, int h,
			unsigned nr, uint32_t *out)
{
	struct cp_zone *zs = zstate(z);
	select_list_hand(zs, h);
	struct plist *l = &zs->lists[zs->hand_list[h]];
	unsigned n = 0;
	while (n < nr && !plist_empty(l)) {
		uint32_t pfn = l->tail;
		struct page *p = &k->phys.pages[pfn];
		plist_del(k->phys.pages, l, pfn);
		page_clear(p, PG_lru);
		if (!page_test(p, PG_hot))
			zs->nr_cold--;
		zs->nr_resident--;
		/* TestClearPageLRU + get_page_testone: two atomics, one page line */
		charge(t, 2 * k->costs->atomic + k->costs->page_op);
		out[n++] = pfn;
	}
	z->pages_scanned += n;
	sync_counts(z);
	return n;
}

/* ---------------------------------------------------------------- kops */

static int clockpro_kinit(struct reclaim *r, struct mm_kernel *k, struct mm_err *e)
{
	const struct clockpro_cfg *c = cfg_of(r);
	struct clockpro *cp = r->priv;
	uint64_t fm = c->cold_target_floor ? (uint64_t)c->cold_target_floor
					   : (c->series == SERIES_2006_07 ? 2 : 1);
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct zone *z = &k->phys.zones[i];
		struct cp_zone *zs = calloc(1, sizeof *zs);
		if (!zs)
			return mm_errf(e, NULL, NULL, "out of memory");
		plist_init(&zs->lists[0]);
		plist_init(&zs->lists[1]);
		zs->hand_list[HAND_HOT] = 0;
		zs->hand_list[HAND_COLD] = 1;
		zs->floor_mult = fm;
		if (c->fixed_cold_target)
			zs->nr_cold_target = (uint64_t)c->fixed_cold_target < z->present
						     ? (uint64_t)c->fixed_cold_target : z->present;
		else
			zs->nr_cold_target = fm * z->pages_high;
		z->reclaim_priv = zs;
	}
	return nonres_init(cp, k->phys.nr_pages, e);
}

static void clockpro_kfini(struct reclaim *r, struct mm_kernel *k)
{
	for (int i = 0; i < MM_NR_ZONES; i++) {
		free(k->phys.zones[i].reclaim_priv);
		k->phys.zones[i].reclaim_priv = NULL;
	}
	nonres_fini(r->priv);
}

static void clockpro_fini(struct reclaim *r)
{
	nonres_fini(r->priv);
}

/* __page_replace_insert() of the series (lru_lock held). */
static void insert_page(struct reclaim *r, struct mm_kernel *k, struct mm_task *t, struct zone *z,
			uint32_t pfn, int hint)
{
	struct clockpro *cp = r->priv;
	struct page *p = &k->phys.pages[pfn];
	bool s2006 = cfg_of(r)->series == SERIES_2006_07;
	bool found = p->mapping && nonres_get(cp, k, t, p->mapping, p->index);
	int h;

	page_clear(p, PG_hot);     /* ignore the active hint */
	page_clear(p, PG_test);
	if (hint == MM_LRU_USE_ONCE) {
		/* use-once: one state lower, behind the hot hand */
		if (found) {
			page_set(p, PG_test);
			cp->insert_cold_test++;
		} else {
			cp->insert_cold++;
		}
		h = HAND_COLD;
	} else if (found) {
		page_set(p, PG_hot);
		cold_target_inc(r, z, 1);
		cp->insert_hot++;
		h = s2006 ? HAND_COLD : HAND_HOT;
	} else {
		page_set(p, PG_test);
		cp->insert_cold_test++;
		h = HAND_HOT;
	}
	select_list_hand(zstate(z), h);
	link_head(k, z, pfn, h);
}

static void clockpro_lru_add(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn,
			     int hint)
{
	insert_page(r, k, mm_current(), z, pfn, hint);
}

static void clockpro_lru_del(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	struct cp_zone *zs = zstate(z);
	if (!page_test_clear(p, PG_lru))
		return;
	plist_del(k->phys.pages, &zs->lists[p->list_id], pfn);
	zs->nr_resident--;
	if (!page_test_clear(p, PG_hot))
		zs->nr_cold--;
	sync_counts(z);
}

/* mark_page_accessed() of 4/9: only sets PG_referenced. */
static void clockpro_mark_accessed(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				   uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test_set(p, PG_referenced))
		charge(t, k->costs->atomic);
}

/* Batched mark_page_accessed (vm.batch_mark_accessed): the same bit, set in the
 * drain under lru_lock. */
static void clockpro_mark_accessed_locked(struct reclaim *r, struct mm_kernel *k,
					  struct mm_task *t, struct zone *z, uint32_t pfn)
{
	clockpro_mark_accessed(r, k, t, pfn);
}

/* try_pageout() + page_replace_activate() of the series. */
static enum reclaim_verdict clockpro_reclaimable(struct reclaim *r, struct mm_kernel *k,
						 uint32_t pfn, bool referenced, bool inuse)
{
	struct clockpro *cp = r->priv;
	struct page *p = &k->phys.pages[pfn];
	if (!referenced)
		return RECLAIM_FREE;
	if (page_test(p, PG_test)) {
		page_set(p, PG_hot);   /* PG_test stays as the marker for reinsert */
		cp->promotions++;
		mm_count(k->s->vs, MM_PGACTIVATE, 1);
		return RECLAIM_ACTIVATE;
	}
	page_set(p, PG_test);
	return RECLAIM_KEEP;
}

/* A hot page on the cold hand's path is kept before it is locked, counted or
 * has its reference bit read (PageActive test at the top of the series' loop). */
static bool clockpro_skip(struct reclaim *r, struct mm_kernel *k, uint32_t pfn)
{
	return page_test(&k->phys.pages[pfn], PG_hot);
}

/* page_replace_remember(): called by shrink_list just before the page is freed. */
static void clockpro_evicted(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test_clear(p, PG_test))
		return;
	if (nonres_put(r->priv, k, mm_current(), p->mapping, p->index))
		cold_target_dec(r, z, 1);
}

/* __nonres_term(): advance the non-resident hand with the hot hand. */
static void nonres_term(struct reclaim *r, struct mm_kernel *k, struct mm_task *t, struct zone *z,
			uint64_t dh)
{
	struct clockpro *cp = r->priv;
	struct cp_zone *zs = zstate(z);
	uint64_t total = 0;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct cp_zone *o = k->phys.zones[i].reclaim_priv;
		total += o->nr_resident;
	}
	/* estimate_pageable_memory() walks the zones; nonresident_estimate() sums
	 * three per-CPU counters; one 64-bit division */
	charge(t, MM_NR_ZONES * k->costs->page_op + 40);
	charge_sum_cpu(k, t);
	uint64_t cycles = zs->nr_nonresident_scale + dh * nonres_estimate(cp);
	zs->nr_nonresident_scale = cycles % (total + 1);
	cycles /= total + 1;
	cp->cycle += (uint32_t)cycles;
	cold_target_dec(r, z, cycles);
}

/* rotate_hot(): one batch of the hot hand. Returns: pages taken. */
static unsigned rotate_hot(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
			   struct zone *z, unsigned nr_to_scan)
{
	struct clockpro *cp = r->priv;
	uint32_t pfns[MM_SWAP_CLUSTER_MAX];
	unsigned dct = 0, deact = 0;

	mm_lru_lock(k, t, z);
	unsigned n = isolate(k, t, z, HAND_HOT, nr_to_scan, pfns);
	mm_lru_unlock(k, t, z);
	mm_count(k->s->vs, MM_PGREFILL, n);

	for (unsigned i = 0; i < n; i++) {
		struct page *p = &k->phys.pages[pfns[i]];
		if (page_test(p, PG_hot)) {
			/* page_referenced(): TestClearPageReferenced (+ rmap walk if mapped) */
			charge(t, k->costs->atomic);
			if (p->mapcount > 0)
				charge(t, k->costs->atomic + 3 * miss(k));
			if (!page_test_clear(p, PG_referenced)) {
				page_clear(p, PG_hot);
				deact++;
			}
		} else if (page_test_clear(p, PG_test)) {
			dct++;
		}
	}

	unsigned back = 0;
	mm_lru_lock(k, t, z);
	for (unsigned i = 0; i < n; i++) {
		if (mm_lru_orphan(k, t, pfns[i]))
			continue;
		link_head(k, z, pfns[i], HAND_COLD);
		charge(t, 2 * k->costs->page_op);
		mm_lru_putback(k, t, z, &back);
	}
	nonres_term(r, k, t, z, n);
	cold_target_dec(r, z, dct);
	mm_lru_unlock(k, t, z);

	cp->hot_hand_pages += n;
	cp->demotions += deact;
	cp->test_ends += dct;
	mm_count(k->s->vs, MM_PGDEACTIVATE, deact);
	return n;
}

/* The hot-hand loop after a cold-hand batch (tail of page_replace_reinsert()). */
static void run_hot_hand(struct reclaim *r, struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	struct cp_zone *zs = zstate(z);
	const struct clockpro_cfg *c = cfg_of(r);
	if (zs->nr_cold >= zs->nr_cold_target)
		return;
	uint64_t nr;
	if (c->hot_hand_limit == HHL_HALF_REVOLUTION)
		nr = 1 + zs->nr_resident / (2 * MM_SWAP_CLUSTER_MAX);
	else if (c->series == SERIES_2006_07)
		nr = 1 + zs->nr_resident / 2 * MM_SWAP_CLUSTER_MAX;   /* as written */
	else
		nr = zs->nr_resident / MM_SWAP_CLUSTER_MAX;
	((struct clockpro *)r->priv)->hot_hand_runs++;
	for (uint64_t i = 0; zs->nr_cold < zs->nr_cold_target && i < nr; i++)
		if (rotate_hot(r, k, t, z, MM_SWAP_CLUSTER_MAX) == 0)
			break;   /* empty zone: nothing more to turn */
}

/* One cold-hand batch: page_replace_candidates + shrink_list + reinsert.
 * Returns: pages isolated (0: the zone's clock is empty). */
static unsigned cold_hand_batch(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				struct zone *z, struct scan_control *sc, unsigned nr)
{
	uint32_t pfns[MM_SWAP_CLUSTER_MAX];
	uint8_t verdict[MM_SWAP_CLUSTER_MAX];
	bool s2006 = cfg_of(r)->series == SERIES_2006_07;

	mm_lru_add_drain(k, t);
	mm_lru_lock(k, t, z);
	unsigned n = isolate(k, t, z, HAND_COLD, nr, pfns);
	mm_lru_unlock(k, t, z);
	if (n == 0)
		return 0;
	sc->nr_pgscan += n;
	unsigned freed = mm_shrink_list(k, t, z, pfns, n, sc, verdict);
	sc->nr_to_reclaim -= freed;

	uint64_t dct = 0;
	unsigned back = 0;
	mm_lru_lock(k, t, z);
	select_list_hand(zstate(z), HAND_HOT);
	for (unsigned i = 0; i < n; i++) {
		if (verdict[i] == RECLAIM_FREE)
			continue;
		struct page *p = &k->phys.pages[pfns[i]];
		int h = HAND_HOT;
		if (page_test(p, PG_hot) && page_test(p, PG_test)) {
			page_clear(p, PG_test);
			dct++;
			if (s2006)
				h = HAND_COLD;
		}
		if (mm_lru_orphan(k, t, pfns[i]))
			continue;
		link_head(k, z, pfns[i], h);
		charge(t, 2 * k->costs->page_op);
		mm_lru_putback(k, t, z, &back);
	}
	cold_target_inc(r, z, dct);
	mm_lru_unlock(k, t, z);
	return n;
}

/* shrink_zone() of the series: the cold hand, each batch followed by the hot hand. */
static void clockpro_shrink_zone(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				 struct zone *z, struct scan_control *sc)
{
	struct cp_zone *zs = zstate(z);
	uint64_t nr = ((zs->nr_resident >> sc->priority) + MM_SWAP_CLUSTER_MAX) &
		      ~(uint64_t)(MM_SWAP_CLUSTER_MAX - 1);
	while (nr) {
		unsigned batch = (unsigned)(nr < sc->swap_cluster_max ? nr : sc->swap_cluster_max);
		nr -= batch;
		if (cold_hand_batch(r, k, t, z, sc, batch) == 0)
			break;
		run_hot_hand(r, k, t, z);
		if (sc->nr_to_reclaim <= 0)
			break;
	}
}

static void clockpro_sample(struct reclaim *r, struct mm_kernel *k, struct sim *s, double t)
{
	uint64_t target = 0, cold = 0, hot = 0;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		const struct cp_zone *zs = k->phys.zones[i].reclaim_priv;
		if (!zs || mm_zone_empty(&k->phys.zones[i]))
			continue;
		target += zs->nr_cold_target;
		cold += zs->nr_cold;
		hot += zs->nr_resident - zs->nr_cold;
	}
	sim_series_add(s, "nr_cold_target", t, (double)target);
	sim_series_add(s, "nr_cold", t, (double)cold);
	sim_series_add(s, "nr_hot", t, (double)hot);
}

static void clockpro_finish(struct reclaim *r, struct mm_kernel *k, struct sim *s)
{
	const struct clockpro *cp = r->priv;
	sim_metric(s, "nonresident_lookups", (double)cp->lookups);
	sim_metric(s, "nonresident_hits", (double)cp->hits);
	sim_metric(s, "nonresident_remembered", (double)cp->remembered);
	sim_metric(s, "nonresident_overwritten", (double)cp->overwritten);
	sim_metric(s, "nonresident_expired", (double)cp->expired);
	sim_metric(s, "nonresident_buckets", (double)cp->nbuckets);
	sim_metric(s, "promotions", (double)cp->promotions);
	sim_metric(s, "demotions", (double)cp->demotions);
	sim_metric(s, "test_periods_ended", (double)cp->test_ends);
	sim_metric(s, "hot_hand_pages", (double)cp->hot_hand_pages);
	sim_metric(s, "hot_hand_runs", (double)cp->hot_hand_runs);
	sim_metric(s, "insert_hot", (double)cp->insert_hot);
	sim_metric(s, "insert_cold_test", (double)cp->insert_cold_test);
	sim_metric(s, "insert_cold", (double)cp->insert_cold);
}

static bool clockpro_pagecache_dma(const struct reclaim *r)
{
	return cfg_of(r)->dma_pagecache;
}

/* `mmemu replay --steps`: the list the cold hand takes from, then the hot hand's,
 * each head to tail (the hand's next page last); H hot, T in its test period, R
 * referenced; then nr_cold_target and the remembered non-resident pages. */
static void clockpro_describe(struct reclaim *r, struct mm_kernel *k, struct zone *z,
			      void (*emit)(void *arg, const char *list, uint32_t pfn, const char *mark),
			      void *arg)
{
	struct cp_zone *zs = zstate(z);
	static const char *const name[2] = { "hot hand", "cold hand" };
	for (int h = HAND_COLD; h >= HAND_HOT; h--) {
		const struct plist *l = &zs->lists[zs->hand_list[h]];
		emit(arg, name[h], PFN_NONE, NULL);
		for (uint32_t pfn = l->head; pfn != PFN_NONE; pfn = k->phys.pages[pfn].lru_next) {
			const struct page *p = &k->phys.pages[pfn];
			char m[4];
			int n = 0;
			if (page_test(p, PG_hot))
				m[n++] = 'H';
			if (page_test(p, PG_test))
				m[n++] = 'T';
			if (page_test(p, PG_referenced))
				m[n++] = 'R';
			m[n] = '\0';
			emit(arg, name[h], pfn, m);
		}
	}
	char v[32];
	snprintf(v, sizeof v, "%llu", (unsigned long long)zs->nr_cold_target);
	emit(arg, "cold_target", PFN_NONE, v);
	snprintf(v, sizeof v, "%u", nonres_estimate(r->priv));
	emit(arg, "nonresident", PFN_NONE, v);
}

static const struct reclaim_kops clockpro_kops = {
	.kinit = clockpro_kinit,
	.kfini = clockpro_kfini,
	.lru_add = clockpro_lru_add,
	.mark_accessed = clockpro_mark_accessed,
	.mark_accessed_locked = clockpro_mark_accessed_locked,
	.lru_del = clockpro_lru_del,
	.shrink_zone = clockpro_shrink_zone,
	.reclaimable = clockpro_reclaimable,
	.skip = clockpro_skip,
	.evicted = clockpro_evicted,
	.sample = clockpro_sample,
	.finish = clockpro_finish,
	.pagecache_dma = clockpro_pagecache_dma,
	.describe = clockpro_describe,
};

const struct reclaim_ops reclaim_clockpro = {
	.version = RECLAIM_OPS_VERSION,
	.name = "clockpro",
	.desc = "CLOCK-Pro, Zijlstra's 2005-12-30 Linux series (2006-07 as a parameter)",
	.params = clockpro_params,
	.cfg_size = sizeof(struct clockpro_cfg),
	.priv_size = sizeof(struct clockpro),
	.fini = clockpro_fini,
	.kops = &clockpro_kops,
};
