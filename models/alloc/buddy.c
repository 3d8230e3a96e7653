/*
 * buddy.c - the stock binary buddy allocator of Linux 2.6.14 (and 2.4 with options).
 *
 * Per zone, one LIFO free list per order 0..MAX_ORDER-1 (max_order: 11 in 2.6,
 * 10 in 2.4 [K2614/K2417 mmzone.h]).  Allocation (__rmqueue) takes the head of the
 * first non-empty list of order >= the request and splits it (expand): the upper
 * half of each split goes to the head of the next lower list, the lower half is
 * kept.  Freeing (__free_pages_bulk) merges with the buddy at pfn ^ (1 << order)
 * while that buddy is a free block head of the same order inside the same zone,
 * then adds the result at the list head.
 *
 * Order-0 pages go through the per-CPU hot/cold lists of the zone (2.6.14
 * buffered_rmqueue / free_hot_cold_page): allocation pops the list head, refilling
 * `batch` pages from the buddy lists under zone->lock when count <= low (= 0);
 * freeing pushes to the head and, once count >= high, returns `batch` pages from the
 * tail to the buddy lists under zone->lock.  The lists are skipped when the module's
 * pcp parameter is false or the machine has none (2.4 watermark style).
 *
 * Every zone->lock acquisition (refill, drain, high-order op) is counted in a->st
 * for the lock model.  Costs: alloc/free O(MAX_ORDER); refill/drain O(batch x
 * MAX_ORDER).
 */
#include <stdlib.h>
#include <string.h>

#include "models/alloc/alloc.h"

struct buddy_cfg {
	int64_t max_order;
	bool pcp;
};

struct buddy_priv {
	struct plist free[MM_NR_ZONES][MM_MAX_ORDER];
};

static const struct mm_param buddy_params[] = {
	MM_PARAM(struct buddy_cfg, max_order, "max_order", MM_P_INT, 1, MM_MAX_ORDER, "11",
		 "MAX_ORDER: block orders 0..max_order-1 (11 in 2.6, 10 in 2.4) [K2614, K2417]"),
	MM_PARAM(struct buddy_cfg, pcp, "pcp", MM_P_BOOL, 1, 0, "true",
		 "per-CPU hot/cold order-0 lists (2.6; 2.4 has none) [K2614]"),
	MM_PARAM_END
};

static inline struct buddy_priv *priv(const struct alloc *a)
{
	return a->priv;
}

/* __free_pages_bulk(): merge and add at the head. Caller holds zone->lock. */
static void free_one(struct alloc *a, struct zone *z, uint32_t pfn, unsigned order)
{
	struct page *pages = a->phys->pages;
	struct buddy_priv *bp = priv(a);
	uint32_t zend = z->start_pfn + z->spanned;

	z->free_pages += 1u << order;
	while (order < a->max_order - 1) {
		uint32_t buddy = pfn ^ (1u << order);
		if (buddy < z->start_pfn || buddy >= zend)
			break;
		struct page *b = &pages[buddy];
		if (!page_test(b, PG_buddy) || b->order != order)
			break;
		plist_del(pages, &bp->free[z->idx][order], buddy);
		alloc_watch(a, buddy, order, false);
		z->nr_free[order]--;
		page_clear(b, PG_buddy);
		b->order = 0;
		pfn &= ~(1u << order);
		order++;
		a->st.merges++;
	}
	struct page *p = &pages[pfn];
	page_set(p, PG_buddy);
	p->order = (uint8_t)order;
	plist_add_head(pages, &bp->free[z->idx][order], pfn);
	alloc_watch(a, pfn, order, true);
	z->nr_free[order]++;
}

/* __rmqueue() + expand(). Caller holds zone->lock. Returns: pfn or PFN_NONE. */
static uint32_t rmqueue(struct alloc *a, struct zone *z, unsigned order)
{
	struct page *pages = a->phys->pages;
	struct buddy_priv *bp = priv(a);

	for (unsigned cur = order; cur < a->max_order; cur++) {
		struct plist *l = &bp->free[z->idx][cur];
		if (plist_empty(l))
			continue;
		uint32_t pfn = plist_pop_head(pages, l);
		alloc_watch(a, pfn, cur, false);
		z->nr_free[cur]--;
		page_clear(&pages[pfn], PG_buddy);
		pages[pfn].order = 0;
		z->free_pages -= 1u << order;
		uint32_t size = 1u << cur;
		while (cur > order) {
			cur--;
			size >>= 1;
			struct page *h = &pages[pfn + size];
			page_set(h, PG_buddy);
			h->order = (uint8_t)cur;
			plist_add_head(pages, &bp->free[z->idx][cur], pfn + size);
			alloc_watch(a, pfn + size, cur, true);
			z->nr_free[cur]++;
			a->st.splits++;
		}
		return pfn;
	}
	return PFN_NONE;
}

static bool use_pcp(const struct alloc *a, const struct zone *z, int cpu)
{
	const struct buddy_cfg *c = a->cfg;
	return c->pcp && z->pageset && z->pageset[cpu].pcp[0].high > 0;
}

static void lock_zone(struct alloc *a, struct zone *z, uint64_t pages)
{
	a->st.zone_lock[z->idx]++;
	a->st.locked_pages += pages;
}

static void pcp_drain_n(struct alloc *a, struct zone *z, struct mm_pcp *pcp, uint32_t n)
{
	struct page *pages = a->phys->pages;
	/* free_pages_bulk(): clears the "all pinned" state of the zone */
	z->all_unreclaimable = 0;
	z->pages_scanned = 0;
	while (n-- && pcp->count) {
		uint32_t pfn = plist_pop_tail(pages, &pcp->list);
		page_clear(&pages[pfn], PG_pcp);
		pages[pfn].list_id = 0;
		pcp->count--;
		z->nr_pcp--;
		free_one(a, z, pfn, 0);
		a->st.locked_pages++;
	}
}

static uint32_t buddy_alloc(struct alloc *a, struct zone *z, unsigned order, int type, int cpu,
			    bool cold)
{
	struct page *pages = a->phys->pages;
	uint32_t pfn = PFN_NONE;

	if (z->present == 0)
		return PFN_NONE;
	if (order == 0 && use_pcp(a, z, cpu)) {
		struct mm_pcp *pcp = &z->pageset[cpu].pcp[cold ? 1 : 0];
		if (pcp->count <= pcp->low) {
			/* rmqueue_bulk(): batch pages, added at the tail, one lock hold */
			a->st.zone_lock[z->idx]++;
			a->st.pcp_refill++;
			for (uint32_t i = 0; i < pcp->batch; i++) {
				uint32_t p = rmqueue(a, z, 0);
				if (p == PFN_NONE)
					break;
				page_set(&pages[p], PG_pcp);
				pages[p].list_id = cold ? 1 : 0;
				plist_add_tail(pages, &pcp->list, p);
				pcp->count++;
				z->nr_pcp++;
				a->st.locked_pages++;
			}
		}
		if (pcp->count) {
			pfn = plist_pop_head(pages, &pcp->list);
			page_clear(&pages[pfn], PG_pcp);
			pcp->count--;
			z->nr_pcp--;
			a->st.pcp_alloc++;
		}
	}
	if (pfn == PFN_NONE) {
		lock_zone(a, z, 1ull << order);
		pfn = rmqueue(a, z, order);
	}
	if (pfn != PFN_NONE)
		alloc_prep_block(a, pfn, order, type);
	return pfn;
}

/* Take free page @pfn: find the free block holding it (its head carries PG_buddy
 * and the order), unlink it and split it down, filing each half without @pfn at
 * the head of its list, as expand() does.  Caller holds zone->lock (counted). */
static int buddy_take(struct alloc *a, uint32_t pfn, int type)
{
	struct page *pages = a->phys->pages;
	struct buddy_priv *bp = priv(a);
	if (pfn >= a->phys->nr_pages)
		return -1;
	struct zone *z = &a->phys->zones[pages[pfn].zone];
	for (unsigned o = 0; o < a->max_order; o++) {
		uint32_t head = pfn & ~((1u << o) - 1);
		if (head < z->start_pfn)
			break;
		struct page *h = &pages[head];
		if (!page_test(h, PG_buddy) || h->order != o)
			continue;
		lock_zone(a, z, 1);
		plist_del(pages, &bp->free[z->idx][o], head);
		alloc_watch(a, head, o, false);
		z->nr_free[o]--;
		page_clear(h, PG_buddy);
		h->order = 0;
		z->free_pages -= 1;
		while (o > 0) {
			o--;
			uint32_t half = 1u << o;
			uint32_t other = (pfn & half) ? head : head + half;
			if (pfn & half)
				head += half;
			struct page *q = &pages[other];
			page_set(q, PG_buddy);
			q->order = (uint8_t)o;
			plist_add_head(pages, &bp->free[z->idx][o], other);
			alloc_watch(a, other, o, true);
			z->nr_free[o]++;
			a->st.splits++;
		}
		alloc_prep_block(a, pfn, 0, type);
		return 0;
	}
	return -1;
}

static void buddy_free(struct alloc *a, uint32_t pfn, unsigned order, int cpu, bool cold)
{
	if (!alloc_free_check(a, pfn, order, cpu))
		return;
	struct zone *z = &a->phys->zones[a->phys->pages[pfn].zone];
	alloc_clear_block(a, pfn, order);

	if (order == 0 && use_pcp(a, z, cpu)) {
		struct mm_pcp *pcp = alloc_pcp_add(a, z, pfn, cpu, cold);
		if (pcp)
			pcp_drain_n(a, z, pcp, pcp->batch);
		return;
	}
	lock_zone(a, z, 1ull << order);
	z->all_unreclaimable = 0;
	z->pages_scanned = 0;
	free_one(a, z, pfn, order);
}

static void drain_all(struct alloc *a, struct zone *z, struct mm_pcp *pcp, void *arg)
{
	(void)arg;
	pcp_drain_n(a, z, pcp, pcp->count);
}

static void buddy_drain(struct alloc *a, int cpu)
{
	alloc_for_each_pcp(a, cpu, drain_all, NULL);
}

static int buddy_init(struct alloc *a, struct mm_err *e)
{
	const struct buddy_cfg *c = a->cfg;
	struct buddy_priv *bp = priv(a);
	struct mm_phys *phys = a->phys;

	a->max_order = (unsigned)c->max_order;
	for (int j = 0; j < MM_NR_ZONES; j++)
		for (unsigned o = 0; o < MM_MAX_ORDER; o++)
			plist_init(&bp->free[j][o]);

	/* free_all_bootmem(): every unreserved page, ascending, in the largest aligned
	 * blocks that fit; with LIFO lists the highest block ends up at the head. */
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		uint32_t end = z->start_pfn + z->spanned;
		uint32_t p = z->start_pfn;
		while (p < end) {
			if (page_test(&phys->pages[p], PG_reserved) || phys->pages[p].count) {
				p++;
				continue;
			}
			uint32_t q = p;
			while (q < end && !page_test(&phys->pages[q], PG_reserved) &&
			       phys->pages[q].count == 0 &&
			       !(phys->pages[q].flags & ((1u << PG_buddy) | (1u << PG_pcp))))
				q++;
			while (p < q) {
				unsigned o = a->max_order - 1;
				while (o > 0 && ((p & ((1u << o) - 1)) || p + (1u << o) > q))
					o--;
				free_one(a, z, p, o);
				p += 1u << o;
			}
			if (q == p && p < end && !page_test(&phys->pages[p], PG_reserved) &&
			    phys->pages[p].count == 0)
				p++; /* a page already on a list: skip it */
		}
	}
	memset(&a->st, 0, sizeof a->st); /* boot work is not charged */
	(void)e;
	return 0;
}

static int buddy_check(const struct alloc *a, struct mm_err *e)
{
	const struct buddy_priv *bp = priv(a);
	const struct mm_phys *phys = a->phys;
	const struct page *pages = phys->pages;

	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &phys->zones[j];
		uint64_t free_pages = 0;
		for (unsigned o = 0; o < MM_MAX_ORDER; o++) {
			const struct plist *l = &bp->free[j][o];
			uint32_t n = 0, prev = PFN_NONE;
			if (o >= a->max_order && !plist_empty(l))
				return mm_errf(e, NULL, NULL, "buddy: zone %s has a block of order "
					       "%u >= max_order", z->name, o);
			for (uint32_t pfn = l->head; pfn != PFN_NONE; pfn = pages[pfn].lru_next) {
				const struct page *p = &pages[pfn];
				if (pfn >= phys->nr_pages || ++n > z->spanned)
					return mm_errf(e, NULL, NULL,
						       "buddy: zone %s order %u list is corrupt at pfn %u",
						       z->name, o, pfn);
				if (p->lru_prev != prev)
					return mm_errf(e, NULL, NULL,
						       "buddy: pfn %u: bad back link on zone %s order %u",
						       pfn, z->name, o);
				if (!page_test(p, PG_buddy) || p->order != o || p->zone != j)
					return mm_errf(e, NULL, NULL,
						       "buddy: pfn %u on zone %s order-%u free list but "
						       "flags/order/zone say otherwise", pfn, z->name, o);
				prev = pfn;
			}
			if (l->tail != prev)
				return mm_errf(e, NULL, NULL, "buddy: zone %s order %u: bad tail",
					       z->name, o);
			if (n != l->nr || n != z->nr_free[o])
				return mm_errf(e, NULL, NULL,
					       "buddy: zone %s order %u: %u blocks listed, nr %u, "
					       "zone nr_free %u", z->name, o, n, l->nr, z->nr_free[o]);
			free_pages += (uint64_t)n << o;
		}
		if (free_pages != z->free_pages)
			return mm_errf(e, NULL, NULL,
				       "buddy: zone %s: free lists hold %llu pages, free_pages %u",
				       z->name, (unsigned long long)free_pages, z->free_pages);
	}
	return 0;
}

const struct alloc_ops buddy_alloc_ops = {
	.version = ALLOC_OPS_VERSION,
	.name = "buddy",
	.desc = "stock binary buddy allocator with LIFO free lists and per-CPU hot/cold lists",
	.params = buddy_params,
	.cfg_size = sizeof(struct buddy_cfg),
	.priv_size = sizeof(struct buddy_priv),
	.init = buddy_init,
	.alloc = buddy_alloc,
	.free = buddy_free,
	.drain = buddy_drain,
	.check = buddy_check,
	.take = buddy_take,
};

/*
 * zbuddy: the zone-based anti-fragmentation series (zbuddy-v3, 2006-01-19
 * "[PATCH 0/5] Reducing fragmentation using zones" [A3], kernel-mechanisms.md 4.3).
 * The free lists are the stock buddy's: what changes is where an allocation goes.
 * Memory above kernelcore= (the machine parameter `kernelcore`, zone.c) forms
 * ZONE_EASYRCLM; __GFP_EASYRCLM is a zone modifier, so an easily reclaimable
 * request of the HighMem class (GFP_RCLMUSER = GFP_HIGHUSER | __GFP_EASYRCLM: user
 * pages and page cache) walks EasyRclm -> HighMem -> Normal -> DMA, and every other
 * request keeps its zonelist, which never contains EasyRclm.  With kernelcore 0
 * there is no EasyRclm zone and zbuddy is the stock buddy.
 */
static int zbuddy_zone_class(const struct alloc *a, int cls, int alloc_type)
{
	(void)a;
	return alloc_type == MM_RCLM_EASY && cls == MM_ZONE_HIGHMEM ? MM_ZONE_EASYRCLM : cls;
}

const struct alloc_ops zbuddy_alloc_ops = {
	.version = ALLOC_OPS_VERSION,
	.name = "zbuddy",
	.desc = "zone-based anti-fragmentation (ZONE_EASYRCLM above kernelcore=; user pages there, "
		"kernel allocations never)",
	.params = buddy_params,
	.cfg_size = sizeof(struct buddy_cfg),
	.priv_size = sizeof(struct buddy_priv),
	.init = buddy_init,
	.alloc = buddy_alloc,
	.free = buddy_free,
	.drain = buddy_drain,
	.check = buddy_check,
	.zone_class = zbuddy_zone_class,
};
