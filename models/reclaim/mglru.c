/*
 * mglru.c - Linux 6.1's multi-generational LRU as a zone-level reclaim module
 * (learned from mm/vmscan.c and mm/workingset.c of 6.1; written here from scratch).
 *
 * Design.  Each zone keeps MAX_NR_GENS (4) generation lists indexed by
 * seq % 4 between min_seq (oldest) and max_seq (youngest); a page's generation
 * index is in page->list_id (gen + 1, 0 = none).  One page type: anon and file
 * pages share the generations (Linux keeps min_seq per type; a simplification,
 * see docs/reclaim.md).
 *  - Adding: an active page joins max_seq; a cold anon page not in swap cache
 *    joins min_seq + 1; every other (clean, cold) page joins min_seq.
 *  - Access through a file descriptor (mark_page_accessed) only counts: the page
 *    stays where it is and its access count N (page->aux, saturating at 8) grows;
 *    its tier is order_base_2(N), at most MAX_NR_TIERS - 1 (3).
 *  - Aging (inc_max_seq) runs when reclaim finds only MIN_NR_GENS (2) generations:
 *    it opens a new youngest generation.  The page-table walk that promotes young
 *    mapped pages is not modelled separately: a mapped page found referenced
 *    while being evicted is promoted to max_seq (the rmap/look-around path).
 *  - Eviction scans the oldest generation's tail in SWAP_CLUSTER_MAX batches.  A
 *    page whose tier is above the PID controller's tier_idx is protected: it
 *    moves to min_seq + 1 and counts in protected[tier].  Others go to the core's
 *    shrink_list; an unreferenced page isolated for eviction loses its count.
 *    When the oldest generation is empty min_seq advances, and the refault
 *    history is folded into its running average (hist = (avg + cur) / 2).
 *  - Refault feedback: an evicted page leaves a shadow (its mapping/index, the
 *    min_seq at eviction, its tier) in a direct-mapped table of 2 x zone pages
 *    entries (a colliding eviction overwrites: Linux's shadow nodes are also
 *    bounded).  A page added back while min_seq is unchanged is a refault of its
 *    tier.  The controller compares each tier's refault rate
 *    refaulted / (evicted + protected) with tier 0's (gains 1 and 2, MIN_LRU_BATCH
 *    64 refaults before a tier counts): the first tier whose rate is not above
 *    tier 0's x 2 ends the protected range.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/reclaim/reclaim.h"

#define MAX_NR_GENS 4u
#define MIN_NR_GENS 2u
#define MAX_NR_TIERS 4
#define MAX_REFS 8u
#define MIN_LRU_BATCH 64u   /* BITS_PER_LONG on 64-bit */

struct shadow {
	uint32_t mapping, index;
	uint64_t seq;    /* min_seq at eviction; 0 = empty slot (seqs start at 1) */
	uint8_t tier;
};

struct mglru_zone {
	struct plist gen[MAX_NR_GENS];
	uint64_t max_seq, min_seq;
	/* PID controller inputs, per tier: running averages and the current period */
	uint64_t avg_refaulted[MAX_NR_TIERS], avg_total[MAX_NR_TIERS];
	uint64_t refaulted[MAX_NR_TIERS], evicted[MAX_NR_TIERS], protected_[MAX_NR_TIERS];
	uint64_t nr_aging, nr_protected, nr_refaults;
	struct shadow *shadow;
	size_t nr_shadow;
};

static inline struct mglru_zone *zstate(struct zone *z)
{
	return z->reclaim_priv;
}

static int mglru_kinit(struct reclaim *r, struct mm_kernel *k, struct mm_err *e)
{
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct mglru_zone *zs = calloc(1, sizeof *zs);
		struct zone *z = &k->phys.zones[i];
		if (zs) {
			zs->nr_shadow = 2 * (size_t)z->present + 1;
			zs->shadow = calloc(zs->nr_shadow, sizeof *zs->shadow);
		}
		if (!zs || !zs->shadow) {
			free(zs);
			return mm_errf(e, NULL, NULL, "out of memory");
		}
		for (unsigned g = 0; g < MAX_NR_GENS; g++)
			plist_init(&zs->gen[g]);
		/* Linux starts with MIN_NR_GENS generations: min_seq 1, max_seq 2 */
		zs->min_seq = 1;
		zs->max_seq = MIN_NR_GENS;
		z->reclaim_priv = zs;
	}
	return 0;
}

static void mglru_kfini(struct reclaim *r, struct mm_kernel *k)
{
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct mglru_zone *zs = k->phys.zones[i].reclaim_priv;
		if (zs)
			free(zs->shadow);
		free(zs);
		k->phys.zones[i].reclaim_priv = NULL;
	}
}

/* Returns: the tier of a page accessed @n times through file descriptors. */
static int tier_of(unsigned n)
{
	int t = 0;
	while (t < MAX_NR_TIERS - 1 && (1u << t) < n)
		t++;
	return t;
}

static struct shadow *shadow_slot(struct mglru_zone *zs, const struct page *p)
{
	uint64_t h = ((uint64_t)p->mapping * 0x9E3779B97F4A7C15ull) ^ (p->index * 0xC2B2AE3D27D4EB4Full);
	return &zs->shadow[(h >> 17) % zs->nr_shadow];
}

/* Link @pfn at the head of generation @seq. */
static void link_gen(struct mm_kernel *k, struct zone *z, uint32_t pfn, uint64_t seq)
{
	struct page *p = &k->phys.pages[pfn];
	struct mglru_zone *zs = zstate(z);
	unsigned g = (unsigned)(seq % MAX_NR_GENS);
	page_set(p, PG_lru);
	p->list_id = (uint8_t)(g + 1);
	plist_add_head(k->phys.pages, &zs->gen[g], pfn);
	z->nr_inactive++;
}

static void unlink_gen(struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	plist_del(k->phys.pages, &zstate(z)->gen[p->list_id - 1], pfn);
	p->list_id = 0;
	z->nr_inactive--;
}

static void mglru_lru_add(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn,
			  int hint)
{
	struct page *p = &k->phys.pages[pfn];
	struct mglru_zone *zs = zstate(z);
	/* a read marks the page accessed before the pagevec adds it */
	p->aux = page_test(p, PG_referenced) ? 1 : 0;
	if (!page_test(p, PG_anon) && p->mapping) {
		struct shadow *sh = shadow_slot(zs, p);
		if (sh->seq && sh->mapping == p->mapping && sh->index == p->index) {
			/* lru_gen_refault(): counted only within the same oldest generation */
			if (sh->seq == zs->min_seq) {
				zs->refaulted[sh->tier]++;
				zs->nr_refaults++;
			}
			sh->seq = 0;
		}
	}
	uint64_t seq;
	if (hint == MM_LRU_ACTIVE)
		seq = zs->max_seq;
	else if (page_test(p, PG_anon) && !page_test(p, PG_swapcache))
		seq = zs->min_seq + 1;
	else
		seq = zs->min_seq;
	page_clear(p, PG_active);
	link_gen(k, z, pfn, seq);
}

static void mglru_lru_del(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	if (!page_test_clear(&k->phys.pages[pfn], PG_lru))
		return;
	unlink_gen(k, z, pfn);
}

/* folio_inc_refs(): count the access, move nothing. */
static void mglru_mark_accessed_locked(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				       struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	page_set(p, PG_referenced);
	if (p->aux < MAX_REFS)
		p->aux++;
	mm_charge(t, k->costs->atomic);
}

static void mglru_mark_accessed(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				uint32_t pfn)
{
	mglru_mark_accessed_locked(r, k, t, NULL, pfn);
}

/* get_tier_idx(): Returns: the highest tier not protected (pages in tiers above
 * it are kept at eviction). */
static int tier_idx(const struct mglru_zone *zs)
{
	uint64_t sp_ref = zs->avg_refaulted[0] + zs->refaulted[0];
	uint64_t sp_tot = zs->avg_total[0] + zs->evicted[0] + zs->protected_[0];
	int t;
	for (t = 1; t < MAX_NR_TIERS; t++) {
		uint64_t pv_ref = zs->avg_refaulted[t] + zs->refaulted[t];
		uint64_t pv_tot = zs->avg_total[t] + zs->evicted[t] + zs->protected_[t];
		/* positive_ctrl_err(): tier t refaults no more than tier 0 (gain 1 vs 2) */
		bool ok = pv_ref < MIN_LRU_BATCH ||
			  pv_ref * (sp_tot + MIN_LRU_BATCH) * 1 <= (sp_ref + 1) * pv_tot * 2;
		if (!ok)
			break;
	}
	return t - 1;
}

/* inc_min_seq(): the oldest generation is empty; fold the period into the averages. */
static void inc_min_seq(struct mglru_zone *zs)
{
	for (int t = 0; t < MAX_NR_TIERS; t++) {
		zs->avg_refaulted[t] = (zs->avg_refaulted[t] + zs->refaulted[t]) / 2;
		zs->avg_total[t] = (zs->avg_total[t] + zs->evicted[t] + zs->protected_[t]) / 2;
		zs->refaulted[t] = zs->evicted[t] = zs->protected_[t] = 0;
	}
	zs->min_seq++;
}

/* inc_max_seq(): aging opens a new youngest generation. */
static void inc_max_seq(struct mglru_zone *zs)
{
	zs->max_seq++;
	zs->nr_aging++;
}

/* One batch from the oldest generation: sort (protect) or isolate; shrink_list
 * the isolated; put back the survivors.  Returns: pages scanned. */
static unsigned evict_batch(struct mm_kernel *k, struct mm_task *t, struct zone *z,
			    struct scan_control *sc)
{
	struct mglru_zone *zs = zstate(z);
	struct plist *old = &zs->gen[zs->min_seq % MAX_NR_GENS];
	uint32_t pfns[MM_SWAP_CLUSTER_MAX];
	uint8_t verdict[MM_SWAP_CLUSTER_MAX];
	unsigned n = 0, scanned = 0;
	int tidx = tier_idx(zs);

	mm_lru_lock(k, t, z);
	while (scanned < sc->swap_cluster_max && !plist_empty(old)) {
		uint32_t pfn = old->tail;
		struct page *p = &k->phys.pages[pfn];
		int tier = tier_of(p->aux);
		scanned++;
		unlink_gen(k, z, pfn);
		mm_charge(t, 2 * k->costs->atomic + k->costs->page_op);
		if (tier > tidx) {
			/* sort_folio(): protected, to the next generation */
			zs->protected_[tier]++;
			zs->nr_protected++;
			page_clear(p, PG_referenced);
			link_gen(k, z, pfn, zs->min_seq + 1);
			continue;
		}
		page_clear(p, PG_lru);
		if (!page_test(p, PG_referenced))
			p->aux = 0;
		pfns[n++] = pfn;
	}
	z->pages_scanned += scanned;
	sc->nr_pgscan += scanned;
	mm_lru_unlock(k, t, z);
	if (n == 0)
		return scanned;

	unsigned freed = mm_shrink_list(k, t, z, pfns, n, sc, verdict);
	sc->nr_to_reclaim -= freed;
	unsigned back = 0;
	mm_lru_lock(k, t, z);
	for (unsigned i = 0; i < n; i++) {
		if (verdict[i] == RECLAIM_FREE || mm_lru_orphan(k, t, pfns[i]))
			continue;
		if (verdict[i] == RECLAIM_ACTIVATE)
			mm_count(k->s->vs, MM_PGACTIVATE, 1);
		link_gen(k, z, pfns[i], verdict[i] == RECLAIM_ACTIVATE ? zs->max_seq : zs->min_seq);
		mm_charge(t, 2 * k->costs->page_op);
		mm_lru_putback(k, t, z, &back);
	}
	mm_lru_unlock(k, t, z);
	return scanned;
}

/* lru_gen_shrink_lruvec(): age when only MIN_NR_GENS remain, then evict from the
 * oldest generation until the target is met or (nr_pages >> priority) + 1
 * pages were scanned. */
static void mglru_shrink_zone(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
			      struct zone *z, struct scan_control *sc)
{
	struct mglru_zone *zs = zstate(z);
	uint64_t budget = (z->nr_inactive >> sc->priority) + 1;
	mm_lru_add_drain(k, t);
	while (budget > 0 && sc->nr_to_reclaim > 0 && z->nr_inactive > 0) {
		while (plist_empty(&zs->gen[zs->min_seq % MAX_NR_GENS]) && zs->min_seq < zs->max_seq)
			inc_min_seq(zs);
		if (zs->max_seq - zs->min_seq + 1 <= MIN_NR_GENS)
			inc_max_seq(zs);
		if (plist_empty(&zs->gen[zs->min_seq % MAX_NR_GENS]))
			break;
		unsigned s = evict_batch(k, t, z, sc);
		budget = s >= budget ? 0 : budget - s;
	}
}

/* A young mapped page found at eviction is promoted (look-around); others go. */
static enum reclaim_verdict mglru_reclaimable(struct reclaim *r, struct mm_kernel *k, uint32_t pfn,
					      bool referenced, bool inuse)
{
	return referenced && inuse ? RECLAIM_ACTIVATE : RECLAIM_FREE;
}

/* lru_gen_eviction(): leave a shadow and count the eviction in the page's tier. */
static void mglru_evicted(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct mglru_zone *zs = zstate(z);
	struct page *p = &k->phys.pages[pfn];
	int tier = tier_of(p->aux);
	zs->evicted[tier]++;
	if (page_test(p, PG_anon) || !p->mapping)
		return;
	struct shadow *sh = shadow_slot(zs, p);
	sh->mapping = p->mapping;
	sh->index = p->index;
	sh->seq = zs->min_seq;
	sh->tier = (uint8_t)tier;
}

/* A page written back for reclaim goes to the oldest generation's tail. */
static void mglru_rotate(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test(p, PG_lru))
		return;
	struct mglru_zone *zs = zstate(z);
	unlink_gen(k, z, pfn);
	unsigned g = (unsigned)(zs->min_seq % MAX_NR_GENS);
	p->list_id = (uint8_t)(g + 1);
	plist_add_tail(k->phys.pages, &zs->gen[g], pfn);
	z->nr_inactive++;
}

static void mglru_sample(struct reclaim *r, struct mm_kernel *k, struct sim *s, double t)
{
	uint64_t a = 0, p = 0, f = 0;
	for (int zi = 0; zi < MM_NR_ZONES; zi++) {
		struct mglru_zone *zs = k->phys.zones[zi].reclaim_priv;
		a += zs->nr_aging;
		p += zs->nr_protected;
		f += zs->nr_refaults;
	}
	sim_series_add(s, "mglru_aging", t, (double)a);
	sim_series_add(s, "mglru_protected", t, (double)p);
	sim_series_add(s, "mglru_refaults", t, (double)f);
}

/* `mmemu replay --steps`: generations youngest to oldest, each head to tail;
 * the mark is the page's fd access count. */
static void mglru_describe(struct reclaim *r, struct mm_kernel *k, struct zone *z,
			   void (*emit)(void *arg, const char *list, uint32_t pfn, const char *mark),
			   void *arg)
{
	static const char *const name[MAX_NR_GENS] = { "gen0", "gen1", "gen2", "gen3" };
	static const char *const refs[MAX_REFS + 1] = { "", "1", "2", "3", "4", "5", "6", "7", "8" };
	struct mglru_zone *zs = zstate(z);
	for (uint64_t seq = zs->max_seq; seq >= zs->min_seq; seq--) {
		unsigned g = (unsigned)(seq % MAX_NR_GENS);
		emit(arg, name[g], PFN_NONE, NULL);
		for (uint32_t pfn = zs->gen[g].head; pfn != PFN_NONE; pfn = k->phys.pages[pfn].lru_next)
			emit(arg, name[g], pfn, refs[k->phys.pages[pfn].aux]);
	}
}

static const struct reclaim_kops mglru_kops = {
	.kinit = mglru_kinit,
	.kfini = mglru_kfini,
	.lru_add = mglru_lru_add,
	.mark_accessed = mglru_mark_accessed,
	.mark_accessed_locked = mglru_mark_accessed_locked,
	.lru_del = mglru_lru_del,
	.shrink_zone = mglru_shrink_zone,
	.reclaimable = mglru_reclaimable,
	.evicted = mglru_evicted,
	.rotate = mglru_rotate,
	.sample = mglru_sample,
	.describe = mglru_describe,
};

const struct reclaim_ops reclaim_mglru = {
	.version = RECLAIM_OPS_VERSION,
	.name = "mglru",
	.desc = "Linux 6.1 multi-generational LRU: 4 generations, aging, tiers, refault PID",
	.kops = &mglru_kops,
};
