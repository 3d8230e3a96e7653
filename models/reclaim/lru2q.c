/*
 * lru2q.c - the 2.6.15 two-list LRU (active / inactive per zone), faithful to
 * mm/swap.c and mm/vmscan.c of 2.6.14/2.6.15 (kernel-mechanisms.md 1.1-1.3).
 *
 * Lists are queues: insertion at the head, scanning from the tail.  New page-cache
 * pages go inactive, anonymous pages active.  mark_page_accessed() needs two
 * touches to promote an inactive page (the second, with PG_referenced set, takes
 * lru_lock and moves it to the active head).  shrink_zone() scans both lists at the
 * same fraction per priority ((size >> priority) + 1, batched to 32 by the
 * nr_scan_* accumulators): refill_inactive_zone() deactivates unmapped page cache
 * unconditionally (PG_referenced is not looked at) and mapped pages when
 * reclaim_mapped; shrink_cache() isolates 32 pages at a time from the inactive tail
 * and hands them to the core's shrink_list(), which reclaims even referenced pages
 * unless page_mapping_inuse().
 *
 * Option `workingset` (off by default): Linux 3.15's refault-distance detection
 * (workingset.c): an evicted page-cache page leaves a shadow entry; a page that
 * faults back within the zone's active-list size of inactive-list departures is
 * inserted active.  Only the detection is added: the lists and their balance stay
 * 2.6.15's (3.15 also keeps anon and file pages on separate lists and compares
 * with the active file list; here the zone's one active list).
 *
 * Frame-level use (the trace workload) is not offered: this module needs zones;
 * `mmemu replay` runs it on a one-zone kernel of its own (emu/engine/kreplay.c).
 */
#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/reclaim/reclaim.h"
#include "models/reclaim/workingset.h"

struct lru2q_cfg {
	bool workingset;
};

struct lru2q_priv {
	bool ws_on;
	struct workingset ws;
};

static const struct mm_param lru2q_params[] = {
	MM_PARAM(struct lru2q_cfg, workingset, "workingset", MM_P_BOOL, 1, 0, "false",
		 "Linux 3.15 refault-distance detection (mm/workingset.c): shadow entries for "
		 "evicted page cache, a refault within the active list's size is inserted "
		 "active; false: 2.6.15"),
	MM_PARAM_END,
};

/* Returns: the workingset state, or NULL when the option is off. */
static struct workingset *ws_of(struct reclaim *r)
{
	struct lru2q_priv *pr = r->priv;
	return pr->ws_on ? &pr->ws : NULL;
}

struct lru2q_zone {
	struct plist active, inactive;
};

static inline struct lru2q_zone *zstate(struct zone *z)
{
	return z->reclaim_priv;
}

static int lru2q_kinit(struct reclaim *r, struct mm_kernel *k, struct mm_err *e)
{
	const struct lru2q_cfg *c = r->cfg;
	struct lru2q_priv *pr = r->priv;
	if (c->workingset) {
		if (ws_init(&pr->ws, e))
			return -1;
		pr->ws_on = true;
	}
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct lru2q_zone *zs = calloc(1, sizeof *zs);
		if (!zs)
			return mm_errf(e, NULL, NULL, "out of memory");
		plist_init(&zs->active);
		plist_init(&zs->inactive);
		k->phys.zones[i].reclaim_priv = zs;
	}
	return 0;
}

static void lru2q_kfini(struct reclaim *r, struct mm_kernel *k)
{
	struct lru2q_priv *pr = r->priv;
	ws_fini(&pr->ws);
	pr->ws_on = false;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		free(k->phys.zones[i].reclaim_priv);
		k->phys.zones[i].reclaim_priv = NULL;
	}
}

/* Link @pfn at the head of the list its PG_active says (lru_lock held). */
static void link_head(struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	struct lru2q_zone *zs = zstate(z);
	page_set(p, PG_lru);
	if (page_test(p, PG_active)) {
		plist_add_head(k->phys.pages, &zs->active, pfn);
		z->nr_active++;
	} else {
		plist_add_head(k->phys.pages, &zs->inactive, pfn);
		z->nr_inactive++;
	}
}

static void lru2q_lru_add(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn,
			  int hint)
{
	struct page *p = &k->phys.pages[pfn];
	struct workingset *ws = ws_of(r);
	/* add_to_page_cache_lru() of 3.15: a refault close enough is inserted active */
	if (ws && hint != MM_LRU_ACTIVE && p->mapping && !page_test(p, PG_anon) &&
	    !page_test(p, PG_swapcache)) {
		int zi;
		uint64_t dist;
		if (ws_refault(ws, p->mapping, p->index, &zi, &dist) &&
		    dist <= k->phys.zones[zi].nr_active) {
			ws->activate++;
			ws_activation(ws, z->idx);
			hint = MM_LRU_ACTIVE;
		}
	}
	if (hint == MM_LRU_ACTIVE)
		page_set(p, PG_active);
	else
		page_clear(p, PG_active);
	link_head(k, z, pfn);
}

static void lru2q_lru_del(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	struct lru2q_zone *zs = zstate(z);
	if (!page_test_clear(p, PG_lru))
		return;
	if (page_test(p, PG_active)) {
		plist_del(k->phys.pages, &zs->active, pfn);
		z->nr_active--;
	} else {
		plist_del(k->phys.pages, &zs->inactive, pfn);
		z->nr_inactive--;
	}
}

/* mark_page_accessed's inactive -> active head (lru_lock held); counts PGACTIVATE
 * and, with the workingset option, advances the zone's inactive_age. */
static void activate_locked(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
			    struct zone *z, uint32_t pfn)
{
	struct workingset *ws = ws_of(r);
	if (ws)
		ws_activation(ws, z->idx);
	struct page *p = &k->phys.pages[pfn];
	struct lru2q_zone *zs = zstate(z);
	plist_del(k->phys.pages, &zs->inactive, pfn);
	z->nr_inactive--;
	page_set(p, PG_active);
	plist_add_head(k->phys.pages, &zs->active, pfn);
	z->nr_active++;
	mm_count(k->s->vs, MM_PGACTIVATE, 1);
	/* unlink + link: the page, two neighbours, the list head */
	mm_charge(t, 4 * k->costs->page_op);
}

/* The batched variant's per-page step, under lru_lock (kernel-mechanisms.md 2.1). */
static void lru2q_mark_accessed_locked(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				       struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test(p, PG_active) && page_test(p, PG_referenced) && page_test(p, PG_lru)) {
		activate_locked(r, k, t, z, pfn);
		page_clear(p, PG_referenced);
	} else if (!page_test(p, PG_referenced)) {
		page_set(p, PG_referenced);
		mm_charge(t, k->costs->atomic);
	}
}

/* mark_page_accessed() of 2.6.10-2.6.15 */
static void lru2q_mark_accessed(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test(p, PG_active) && page_test(p, PG_referenced) && page_test(p, PG_lru)) {
		/* activate_page(): lru_lock, inactive -> active head */
		struct zone *z = mm_zone_of(&k->phys, pfn);
		mm_lru_lock(k, t, z);
		if (page_test(p, PG_lru) && !page_test(p, PG_active))
			activate_locked(r, k, t, z, pfn);
		mm_lru_unlock(k, t, z);
		page_clear(p, PG_referenced);
	} else if (!page_test(p, PG_referenced)) {
		page_set(p, PG_referenced);
		mm_charge(t, k->costs->atomic);
	}
}

/* isolate_lru_pages(): up to @nr from the tail of @l (lru_lock held).
 * Returns: pages taken; *scanned gets pages looked at. */
static unsigned isolate(struct mm_kernel *k, struct mm_task *t, struct plist *l, unsigned nr,
			uint32_t *out, unsigned *scanned)
{
	unsigned n = 0, s = 0;
	while (s < nr && !plist_empty(l)) {
		uint32_t pfn = l->tail;
		s++;
		plist_del(k->phys.pages, l, pfn);
		page_clear(&k->phys.pages[pfn], PG_lru);
		/* TestClearPageLRU + get_page_testone: two atomics, one page line */
		mm_charge(t, 2 * k->costs->atomic + k->costs->page_op);
		out[n++] = pfn;
	}
	*scanned = s;
	return n;
}

/* refill_inactive_zone(): move up to @nr pages from the active tail. */
static void refill_inactive_zone(struct mm_kernel *k, struct mm_task *t, struct zone *z,
				 struct scan_control *sc, unsigned nr)
{
	struct lru2q_zone *zs = zstate(z);
	uint32_t pfns[MM_SWAP_CLUSTER_MAX];
	unsigned scanned;

	mm_lru_add_drain(k, t);
	mm_lru_lock(k, t, z);
	unsigned n = isolate(k, t, &zs->active, nr, pfns, &scanned);
	z->pages_scanned += scanned;
	z->nr_active -= n;
	mm_lru_unlock(k, t, z);

	/* reclaim_mapped: swap_tendency = mapped_ratio/2 + distress + swappiness */
	int distress = 100 >> z->prev_priority;
	uint64_t mapped = k->nr_mapped;
	int mapped_ratio = (int)(mapped * 100 / (k->phys.nr_pages ? k->phys.nr_pages : 1));
	bool reclaim_mapped = mapped_ratio / 2 + distress + k->cfg.swappiness >= 100;

	unsigned deact = 0, back = 0;
	mm_lru_lock(k, t, z);
	for (unsigned i = 0; i < n; i++) {
		struct page *p = &k->phys.pages[pfns[i]];
		bool keep_active = false;
		/* page_referenced() (which clears the reference) only runs when mapped
		 * pages may go: `!reclaim_mapped || ... || page_referenced()` */
		if (p->mapcount > 0)
			keep_active = !reclaim_mapped ||
				      (page_test(p, PG_anon) && !mm_swap_enabled(k)) ||
				      page_test_clear(p, PG_referenced);
		if (mm_lru_orphan(k, t, pfns[i]))
			continue;
		if (!keep_active) {
			page_clear(p, PG_active);
			deact++;
		}
		link_head(k, z, pfns[i]);
		mm_charge(t, 2 * k->costs->page_op);
		mm_lru_putback(k, t, z, &back);
	}
	mm_lru_unlock(k, t, z);
	mm_count(k->s->vs, MM_PGREFILL, scanned);
	mm_count(k->s->vs, MM_PGDEACTIVATE, deact);
}

/* shrink_cache(): isolate from the inactive tail in 32-page batches, shrink_list. */
static void shrink_cache(struct mm_kernel *k, struct mm_task *t, struct zone *z,
			 struct scan_control *sc, unsigned max_scan)
{
	struct lru2q_zone *zs = zstate(z);
	uint32_t pfns[MM_SWAP_CLUSTER_MAX];
	uint8_t verdict[MM_SWAP_CLUSTER_MAX];

	mm_lru_add_drain(k, t);
	while (max_scan > 0) {
		unsigned scanned;
		mm_lru_lock(k, t, z);
		unsigned n = isolate(k, t, &zs->inactive, sc->swap_cluster_max, pfns, &scanned);
		z->nr_inactive -= n;
		z->pages_scanned += scanned;
		sc->nr_pgscan += scanned;
		mm_lru_unlock(k, t, z);
		if (n == 0)
			break;
		max_scan = scanned >= max_scan ? 0 : max_scan - scanned;
		unsigned freed = mm_shrink_list(k, t, z, pfns, n, sc, verdict);
		sc->nr_to_reclaim -= freed;
		unsigned back = 0;
		mm_lru_lock(k, t, z);
		for (unsigned i = 0; i < n; i++) {
			if (verdict[i] == RECLAIM_FREE)
				continue;
			struct page *p = &k->phys.pages[pfns[i]];
			if (mm_lru_orphan(k, t, pfns[i]))
				continue;
			if (verdict[i] == RECLAIM_ACTIVATE) {
				page_set(p, PG_active);
				mm_count(k->s->vs, MM_PGACTIVATE, 1);
			}
			link_head(k, z, pfns[i]);
			mm_charge(t, 2 * k->costs->page_op);
			mm_lru_putback(k, t, z, &back);
		}
		mm_lru_unlock(k, t, z);
	}
}

/* shrink_zone() of 2.6.15. */
static void lru2q_shrink_zone(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
			      struct zone *z, struct scan_control *sc)
{
	uint64_t nr_active, nr_inactive;
	z->nr_scan_active += (z->nr_active >> sc->priority) + 1;
	nr_active = z->nr_scan_active;
	if (nr_active >= sc->swap_cluster_max)
		z->nr_scan_active = 0;
	else
		nr_active = 0;
	z->nr_scan_inactive += (z->nr_inactive >> sc->priority) + 1;
	nr_inactive = z->nr_scan_inactive;
	if (nr_inactive >= sc->swap_cluster_max)
		z->nr_scan_inactive = 0;
	else
		nr_inactive = 0;

	while (nr_active || nr_inactive) {
		if (nr_active) {
			unsigned n = (unsigned)(nr_active < sc->swap_cluster_max ? nr_active : sc->swap_cluster_max);
			nr_active -= n;
			refill_inactive_zone(k, t, z, sc, n);
		}
		if (nr_inactive) {
			unsigned n = (unsigned)(nr_inactive < sc->swap_cluster_max ? nr_inactive : sc->swap_cluster_max);
			nr_inactive -= n;
			shrink_cache(k, t, z, sc, n);
			if (sc->nr_to_reclaim <= 0)
				break;
		}
	}
}

/* shrink_list(): referenced pages are activated only when the mapping is in use. */
static enum reclaim_verdict lru2q_reclaimable(struct reclaim *r, struct mm_kernel *k, uint32_t pfn,
					      bool referenced, bool inuse)
{
	return referenced && inuse ? RECLAIM_ACTIVATE : RECLAIM_FREE;
}

/* rotate_reclaimable_page(): a page written back for reclaim goes to the
 * inactive tail, to be reclaimed by the next scan (no-op if it left the inactive
 * list meanwhile).  Called at I/O completion, which takes no lru_lock here. */
static void lru2q_rotate(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (!page_test(p, PG_lru) || page_test(p, PG_active))
		return;
	struct lru2q_zone *zs = zstate(z);
	plist_del(k->phys.pages, &zs->inactive, pfn);
	plist_add_tail(k->phys.pages, &zs->inactive, pfn);
}

/* The two-list LRU keeps no memory of evicted pages; with the workingset option a
 * page-cache page leaves a shadow entry (3.15 __remove_mapping: file pages only). */
static void lru2q_evicted(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn)
{
	struct workingset *ws = ws_of(r);
	const struct page *p = &k->phys.pages[pfn];
	if (ws && p->mapping && !page_test(p, PG_anon) && !page_test(p, PG_swapcache))
		ws_eviction(ws, z->idx, p->mapping, p->index);
}

static void lru2q_finish(struct reclaim *r, struct mm_kernel *k, struct sim *s)
{
	const struct workingset *ws = ws_of(r);
	if (!ws)
		return;
	sim_metric(s, "workingset_refault", (double)ws->refault);
	sim_metric(s, "workingset_activate", (double)ws->activate);
	sim_metric(s, "workingset_evictions", (double)ws->evictions);
	sim_metric(s, "workingset_shadows_max", (double)ws->max_shadows);
}

static void lru2q_sample(struct reclaim *r, struct mm_kernel *k, struct sim *s, double t)
{
	uint64_t a = 0, i = 0;
	for (int zi = 0; zi < MM_NR_ZONES; zi++) {
		a += k->phys.zones[zi].nr_active;
		i += k->phys.zones[zi].nr_inactive;
	}
	sim_series_add(s, "nr_active", t, (double)a);
	sim_series_add(s, "nr_inactive", t, (double)i);
}

/* `mmemu replay --steps`: both lists head (newest) to tail (scanned next); R =
 * PG_referenced. */
static void lru2q_describe(struct reclaim *r, struct mm_kernel *k, struct zone *z,
			   void (*emit)(void *arg, const char *list, uint32_t pfn, const char *mark),
			   void *arg)
{
	struct lru2q_zone *zs = zstate(z);
	const struct plist *l[2] = { &zs->active, &zs->inactive };
	static const char *const name[2] = { "active", "inactive" };
	for (int i = 0; i < 2; i++) {
		emit(arg, name[i], PFN_NONE, NULL);
		for (uint32_t pfn = l[i]->head; pfn != PFN_NONE; pfn = k->phys.pages[pfn].lru_next)
			emit(arg, name[i], pfn, page_test(&k->phys.pages[pfn], PG_referenced) ? "R" : "");
	}
}

static const struct reclaim_kops lru2q_kops = {
	.kinit = lru2q_kinit,
	.kfini = lru2q_kfini,
	.lru_add = lru2q_lru_add,
	.mark_accessed = lru2q_mark_accessed,
	.mark_accessed_locked = lru2q_mark_accessed_locked,
	.lru_del = lru2q_lru_del,
	.shrink_zone = lru2q_shrink_zone,
	.reclaimable = lru2q_reclaimable,
	.evicted = lru2q_evicted,
	.rotate = lru2q_rotate,
	.sample = lru2q_sample,
	.finish = lru2q_finish,
	.describe = lru2q_describe,
};

const struct reclaim_ops reclaim_lru2q = {
	.version = RECLAIM_OPS_VERSION,
	.name = "lru2q",
	.desc = "Linux 2.6.15 two-list LRU: active/inactive per zone, use-twice promotion; option workingset: 3.15 refault-distance activation",
	.params = lru2q_params,
	.cfg_size = sizeof(struct lru2q_cfg),
	.priv_size = sizeof(struct lru2q_priv),
	.kops = &lru2q_kops,
};
