/*
 * mbuddy.c - the list-based anti-fragmentation allocator (Mel Gorman's "mbuddy"
 * series; kernel-mechanisms.md 4.2).
 *
 * Which version.  Seed 003 ran mbuddy-v22 (a rebase on 2.6.16-rc1-mm1), whose text
 * was not found.  The rules here are V19's (2.6.14-rc5-mm1) [A2]: the usemap, the
 * per-type free lists, the global pool of MAX_ORDER-1 blocks, the fallback reserve
 * and the fallback order; with V20's per-type per-CPU lists (004_percpu) and
 * V13's drain of per-CPU easily reclaimable pages when a high-order allocation
 * fails; and the re-typing rule of V20 / the late-2006 version [A1, A4]: a block of
 * order >= MAX_ORDER/2 taken by fallback re-types its whole 1024-page block to the
 * requester and moves the block's free pages to the requester's lists
 * (move_freepages_block).
 *
 * Data.  Per 2^(MAX_ORDER-1)-page block (1024 pages, 4 MB on i386) a 2-bit type
 * in the usemap: NORCLM, KERN, EASY or FALLBACK.  Per zone, free lists per type and
 * order 0..MAX_ORDER-2 (a free block sits on the list of its 1024-page block's
 * type), and the global pool of whole free MAX_ORDER-1 blocks, untyped.
 *
 * Allocation of @order for type T (__rmqueue):
 *   1. T's lists from @order up (LIFO heads, split as the buddy does);
 *   2. else steal a block from the pool (steal_maxorder_block) and mark it T, or
 *      FALLBACK while the zone's FALLBACK blocks hold less than present/8 pages
 *      (the reserve, "increased from 10% to 12.5%" in V8);
 *   3. else fall back: for T in NORCLM -> FALLBACK, KERN, EASY; EASY -> FALLBACK,
 *      NORCLM, KERN; KERN -> FALLBACK, NORCLM, EASY take the LARGEST free block
 *      (searching from MAX_ORDER-2 down); from a non-FALLBACK list, a block of
 *      order >= MAX_ORDER/2 re-types its 1024-page block (to T, or FALLBACK if the
 *      reserve is short) with all its free pages.
 * Freeing merges like the buddy; the result goes to the list of its block's type,
 * or to the pool when it is a whole MAX_ORDER-1 block.
 *
 * Per-CPU lists.  The zone's hot/cold lists (zone.h) hold pages of every type; each
 * page carries its type (page->alloc_type) and an order-0 allocation of type T
 * takes the first page of type T from the head, refilling `batch` pages of type T
 * when there is none (so a freed EASY page never serves a kernel allocation, as
 * with V20's one list per type).  high/batch count all types together (a
 * simplification of per-type counts).  alloc_failed() drains every CPU's EASY
 * pages back to the buddy lists.
 *
 * Costs (kernel-mechanisms.md 4.4), in alloc_stats and charged by page_alloc.c
 * to the allocating or freeing task: per order-0 free onto a per-CPU list and
 * per block freed to the buddy lists a usemap read (usemap_reads, one page_op);
 * per pool steal and per fallback step the lists probed beyond the own type's
 * (list_probes, one page_op each: the pool, then up to 3 x 10 lists); per block
 * typed or re-typed two set_bit/clear_bit (usemap_bitops, one atomic each); a
 * re-type walks the 1024 pages of the block under zone->lock (locked_pages,
 * replayed as zone->lock hold time).  Not charged: the gfp -> type computation
 * and the per-type list index (register arithmetic, no memory reference the
 * stock allocator does not make), and the host-side type search of the per-CPU
 * list (a stand-in for V20's one list per type, which needs no search).
 * Alloc/free O(MAX_ORDER); pcp type search O(high).
 */
#include <stdlib.h>
#include <string.h>

#include "models/alloc/alloc.h"

enum { MB_FALLBACK = MM_NR_RCLM, MB_TYPES };

struct mbuddy_cfg {
	int64_t reserve_div;
	bool pcp;
	bool drain_on_fail;
};

struct mbuddy_priv {
	struct plist free[MM_NR_ZONES][MB_TYPES][MM_MAX_ORDER]; /* orders 0..max-2 used */
	struct plist pool[MM_NR_ZONES];                         /* whole MAX_ORDER-1 blocks */
	uint8_t *usemap;                                        /* type per 1024-page block */
	uint32_t nblocks;
	uint32_t fallback_blocks[MM_NR_ZONES];                  /* blocks typed FALLBACK */
	uint64_t steals, retypes, fallbacks, drained;
};

static const struct mm_param mbuddy_params[] = {
	MM_PARAM(struct mbuddy_cfg, reserve_div, "reserve_div", MM_P_INT, 0, 1024, "8",
		 "fallback reserve: steal blocks as FALLBACK while they hold less than "
		 "present/reserve_div pages (V19: 8, i.e. 12.5%); 0 = no reserve (V20) [A2, A1]"),
	MM_PARAM(struct mbuddy_cfg, pcp, "pcp", MM_P_BOOL, 1, 0, "true",
		 "per-CPU hot/cold order-0 lists, per type (V20 004_percpu) [A2]"),
	MM_PARAM(struct mbuddy_cfg, drain_on_fail, "drain_on_fail", MM_P_BOOL, 1, 0, "true",
		 "drain per-CPU easily reclaimable pages when a high-order allocation fails "
		 "(since V13) [A2]"),
	MM_PARAM_END
};

/* Fallback order per requested type (fallback_allocs of V19). */
static const int fallback_order[MM_NR_RCLM][3] = {
	[MM_RCLM_NORCLM] = { MB_FALLBACK, MM_RCLM_KERN, MM_RCLM_EASY },
	[MM_RCLM_KERN] = { MB_FALLBACK, MM_RCLM_NORCLM, MM_RCLM_EASY },
	[MM_RCLM_EASY] = { MB_FALLBACK, MM_RCLM_NORCLM, MM_RCLM_KERN },
};

static inline struct mbuddy_priv *priv(const struct alloc *a)
{
	return a->priv;
}

static inline unsigned block_shift(const struct alloc *a)
{
	return a->max_order - 1;
}

static inline int block_type(const struct alloc *a, uint32_t pfn)
{
	return priv(a)->usemap[pfn >> block_shift(a)];
}

static void lock_zone(struct alloc *a, struct zone *z, uint64_t pages)
{
	a->st.zone_lock[z->idx]++;
	a->st.locked_pages += pages;
}

/* The list a free block of @order at @pfn belongs on. */
static struct plist *list_of(struct alloc *a, const struct zone *z, uint32_t pfn, unsigned order)
{
	struct mbuddy_priv *mp = priv(a);
	if (order == a->max_order - 1)
		return &mp->pool[z->idx];
	return &mp->free[z->idx][block_type(a, pfn)][order];
}

static void add_free(struct alloc *a, struct zone *z, uint32_t pfn, unsigned order)
{
	struct page *p = &a->phys->pages[pfn];
	page_set(p, PG_buddy);
	p->order = (uint8_t)order;
	plist_add_head(a->phys->pages, list_of(a, z, pfn, order), pfn);
	z->nr_free[order]++;
}

static void del_free(struct alloc *a, struct zone *z, uint32_t pfn, unsigned order)
{
	struct page *p = &a->phys->pages[pfn];
	plist_del(a->phys->pages, list_of(a, z, pfn, order), pfn);
	z->nr_free[order]--;
	page_clear(p, PG_buddy);
	p->order = 0;
}

/* __free_pages_bulk(): merge with free buddies, add at the head of the block's list. */
static void free_one(struct alloc *a, struct zone *z, uint32_t pfn, unsigned order)
{
	struct page *pages = a->phys->pages;
	uint32_t zend = z->start_pfn + z->spanned;

	z->free_pages += 1u << order;
	a->st.usemap_reads++;   /* the block's type: which lists the pages go to */
	while (order < a->max_order - 1) {
		uint32_t buddy = pfn ^ (1u << order);
		if (buddy < z->start_pfn || buddy >= zend)
			break;
		struct page *b = &pages[buddy];
		if (!page_test(b, PG_buddy) || b->order != order)
			break;
		del_free(a, z, buddy, order);
		pfn &= ~(1u << order);
		order++;
		a->st.merges++;
	}
	add_free(a, z, pfn, order);
}

/* Set the type of @pfn's block, keeping the FALLBACK count. */
static void set_block_type(struct alloc *a, struct zone *z, uint32_t pfn, int type)
{
	struct mbuddy_priv *mp = priv(a);
	uint8_t *u = &mp->usemap[pfn >> block_shift(a)];
	/* the 2-bit type is copied one bit at a time with set_bit/clear_bit */
	a->st.usemap_bitops += 2;
	if (*u == MB_FALLBACK)
		mp->fallback_blocks[z->idx]--;
	if (type == MB_FALLBACK)
		mp->fallback_blocks[z->idx]++;
	*u = (uint8_t)type;
}

/* The type a block taken for @type gets: FALLBACK while the reserve is short. */
static int steal_type(const struct alloc *a, const struct zone *z, int type)
{
	const struct mbuddy_cfg *c = a->cfg;
	if (c->reserve_div > 0 &&
	    ((uint64_t)priv(a)->fallback_blocks[z->idx] << block_shift(a)) <
		    z->present / (uint64_t)c->reserve_div)
		return MB_FALLBACK;
	return type;
}

/* move_freepages_block(): re-type @pfn's block and move its free blocks. */
static void retype_block(struct alloc *a, struct zone *z, uint32_t pfn, int type)
{
	struct page *pages = a->phys->pages;
	uint32_t bsz = 1u << block_shift(a);
	uint32_t start = pfn & ~(bsz - 1), end = start + bsz;
	uint32_t zend = z->start_pfn + z->spanned;
	if (start < z->start_pfn)
		start = z->start_pfn;
	if (end > zend)
		end = zend;
	/* the block's free blocks, in pfn order (at most half its pages) */
	uint32_t moved[1u << (MM_MAX_ORDER - 1)], n = 0;
	uint8_t ord[1u << (MM_MAX_ORDER - 1)];
	for (uint32_t q = start; q < end;) {
		struct page *p = &pages[q];
		if (page_test(p, PG_buddy) && p->order < a->max_order - 1 && n < sizeof ord) {
			unsigned o = p->order;
			del_free(a, z, q, o);
			moved[n] = q;
			ord[n++] = (uint8_t)o;
			q += 1u << o;
		} else {
			q++;
		}
	}
	set_block_type(a, z, start, type);
	for (uint32_t i = 0; i < n; i++)
		add_free(a, z, moved[i], ord[i]);
	a->st.locked_pages += end - start;
	priv(a)->retypes++;
}

/* Take the free block at @pfn (order @cur) and split it down to @order; the upper
 * halves go to the lists of the block's type.  Returns: pfn. */
static uint32_t take_split(struct alloc *a, struct zone *z, uint32_t pfn, unsigned cur,
			   unsigned order)
{
	del_free(a, z, pfn, cur);
	z->free_pages -= 1u << order;
	while (cur > order) {
		cur--;
		add_free(a, z, pfn + (1u << cur), cur);
		a->st.splits++;
	}
	return pfn;
}

/* __rmqueue() for @type. Caller holds zone->lock. Returns: pfn or PFN_NONE. */
static uint32_t rmqueue(struct alloc *a, struct zone *z, unsigned order, int type)
{
	struct mbuddy_priv *mp = priv(a);
	const unsigned top = a->max_order - 1;

	/* 1. the type's own lists */
	for (unsigned cur = order; cur < top; cur++)
		if (!plist_empty(&mp->free[z->idx][type][cur]))
			return take_split(a, z, mp->free[z->idx][type][cur].head, cur, order);
	/* 2. a whole block from the pool */
	a->st.list_probes++;
	if (!plist_empty(&mp->pool[z->idx])) {
		uint32_t pfn = mp->pool[z->idx].head;
		set_block_type(a, z, pfn, steal_type(a, z, type));
		mp->steals++;
		return take_split(a, z, pfn, top, order);
	}
	/* 3. fall back: the largest block of another type */
	for (int i = 0; i < 3; i++) {
		int ft = fallback_order[type][i];
		for (unsigned cur = top; cur-- > order;) {
			struct plist *l = &mp->free[z->idx][ft][cur];
			a->st.list_probes++;
			if (plist_empty(l))
				continue;
			uint32_t pfn = l->head;
			mp->fallbacks++;
			if (ft != MB_FALLBACK && cur >= a->max_order / 2)
				retype_block(a, z, pfn, steal_type(a, z, type));
			return take_split(a, z, pfn, cur, order);
		}
	}
	return PFN_NONE;
}

static bool use_pcp(const struct alloc *a, const struct zone *z, int cpu)
{
	const struct mbuddy_cfg *c = a->cfg;
	return c->pcp && z->pageset && z->pageset[cpu].pcp[0].high > 0;
}

/* Take @pfn off per-CPU list @pcp of @z. */
static void pcp_unlink(struct alloc *a, struct zone *z, struct mm_pcp *pcp, uint32_t pfn)
{
	struct page *pages = a->phys->pages;
	plist_del(pages, &pcp->list, pfn);
	page_clear(&pages[pfn], PG_pcp);
	pages[pfn].list_id = 0;
	pcp->count--;
	z->nr_pcp--;
}

/* Return per-CPU page @pfn to the buddy lists (free_pages_bulk). */
static void pcp_release(struct alloc *a, struct zone *z, struct mm_pcp *pcp, uint32_t pfn)
{
	pcp_unlink(a, z, pcp, pfn);
	z->all_unreclaimable = 0;
	z->pages_scanned = 0;
	free_one(a, z, pfn, 0);
	a->st.locked_pages++;
}

/* First page of @type from the head of @pcp, or PFN_NONE. */
static uint32_t pcp_find(const struct alloc *a, const struct mm_pcp *pcp, int type)
{
	const struct page *pages = a->phys->pages;
	for (uint32_t pfn = pcp->list.head; pfn != PFN_NONE; pfn = pages[pfn].lru_next)
		if (pages[pfn].alloc_type == type)
			return pfn;
	return PFN_NONE;
}

static uint32_t mbuddy_alloc(struct alloc *a, struct zone *z, unsigned order, int type, int cpu,
			     bool cold)
{
	struct page *pages = a->phys->pages;
	uint32_t pfn = PFN_NONE;

	if (z->present == 0 || type < 0 || type >= MM_NR_RCLM)
		return PFN_NONE;
	if (order == 0 && use_pcp(a, z, cpu)) {
		struct mm_pcp *pcp = &z->pageset[cpu].pcp[cold ? 1 : 0];
		pfn = pcp_find(a, pcp, type);
		if (pfn == PFN_NONE) {
			/* rmqueue_bulk() of this type */
			a->st.zone_lock[z->idx]++;
			a->st.pcp_refill++;
			for (uint32_t i = 0; i < pcp->batch; i++) {
				uint32_t p = rmqueue(a, z, 0, type);
				if (p == PFN_NONE)
					break;
				page_set(&pages[p], PG_pcp);
				pages[p].list_id = cold ? 1 : 0;
				pages[p].alloc_type = (uint8_t)type;
				plist_add_tail(pages, &pcp->list, p);
				pcp->count++;
				z->nr_pcp++;
				a->st.locked_pages++;
			}
			pfn = pcp_find(a, pcp, type);
		}
		if (pfn != PFN_NONE) {
			pcp_unlink(a, z, pcp, pfn);
			a->st.pcp_alloc++;
		}
	}
	if (pfn == PFN_NONE) {
		lock_zone(a, z, 1ull << order);
		pfn = rmqueue(a, z, order, type);
	}
	if (pfn != PFN_NONE)
		alloc_prep_block(a, pfn, order, type);
	return pfn;
}

static void mbuddy_free(struct alloc *a, uint32_t pfn, unsigned order, int cpu, bool cold)
{
	if (!alloc_free_check(a, pfn, order, cpu))
		return;
	struct zone *z = &a->phys->zones[a->phys->pages[pfn].zone];
	alloc_clear_block(a, pfn, order);   /* keeps alloc_type: the per-CPU list's type */

	if (order == 0 && use_pcp(a, z, cpu)) {
		a->st.usemap_reads++;   /* V20: the per-type per-CPU list of the page's block */
		struct mm_pcp *pcp = alloc_pcp_add(a, z, pfn, cpu, cold);
		if (pcp)
			for (uint32_t n = pcp->batch; n-- && pcp->count;)
				pcp_release(a, z, pcp, pcp->list.tail);
		return;
	}
	lock_zone(a, z, 1ull << order);
	z->all_unreclaimable = 0;
	z->pages_scanned = 0;
	free_one(a, z, pfn, order);
}

struct drain_arg {
	int type;      /* the type to drain, -1 any */
	uint64_t n;    /* pages drained */
};

static void drain_list(struct alloc *a, struct zone *z, struct mm_pcp *pcp, void *arg)
{
	struct drain_arg *d = arg;
	struct page *pages = a->phys->pages;
	for (uint32_t pfn = pcp->list.head; pfn != PFN_NONE;) {
		uint32_t next = pages[pfn].lru_next;
		if (d->type < 0 || pages[pfn].alloc_type == d->type) {
			pcp_release(a, z, pcp, pfn);
			d->n++;
		}
		pfn = next;
	}
}

/* Drain per-CPU pages of @cpu (-1 all) whose type is @type (-1 any). Returns: pages. */
static uint64_t drain_type(struct alloc *a, int cpu, int type)
{
	struct drain_arg d = { type, 0 };
	alloc_for_each_pcp(a, cpu, drain_list, &d);
	return d.n;
}

static void mbuddy_drain(struct alloc *a, int cpu)
{
	drain_type(a, cpu, -1);
}

static bool mbuddy_alloc_failed(struct alloc *a, unsigned order, int cpu)
{
	const struct mbuddy_cfg *c = a->cfg;
	(void)order;
	(void)cpu;
	if (!c->drain_on_fail)
		return false;
	uint64_t n = drain_type(a, -1, MM_RCLM_EASY);
	priv(a)->drained += n;
	return n > 0;
}

static int mbuddy_init(struct alloc *a, struct mm_err *e)
{
	struct mbuddy_priv *mp = priv(a);
	struct mm_phys *phys = a->phys;

	a->max_order = MM_MAX_ORDER;
	for (int j = 0; j < MM_NR_ZONES; j++) {
		plist_init(&mp->pool[j]);
		for (int t = 0; t < MB_TYPES; t++)
			for (unsigned o = 0; o < MM_MAX_ORDER; o++)
				plist_init(&mp->free[j][t][o]);
	}
	mp->nblocks = (phys->nr_pages >> block_shift(a)) + 1;
	mp->usemap = calloc(mp->nblocks, 1);
	if (!mp->usemap)
		return mm_errf(e, NULL, NULL, "mbuddy: out of host memory");
	/* a block holding reserved pages (kernel image, mem_map) starts NORCLM, every
	 * other block EASY; whole free blocks go to the pool untyped */
	for (uint32_t b = 0; b < mp->nblocks; b++)
		mp->usemap[b] = MM_RCLM_EASY;
	for (uint32_t pfn = 0; pfn < phys->nr_pages; pfn++)
		if (page_test(&phys->pages[pfn], PG_reserved))
			mp->usemap[pfn >> block_shift(a)] = MM_RCLM_NORCLM;

	/* free_all_bootmem(): ascending, largest aligned blocks (as buddy.c) */
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		uint32_t end = z->start_pfn + z->spanned;
		for (uint32_t p = z->start_pfn; p < end;) {
			if (page_test(&phys->pages[p], PG_reserved) || phys->pages[p].count) {
				p++;
				continue;
			}
			uint32_t q = p;
			while (q < end && !page_test(&phys->pages[q], PG_reserved) &&
			       phys->pages[q].count == 0)
				q++;
			while (p < q) {
				unsigned o = a->max_order - 1;
				while (o > 0 && ((p & ((1u << o) - 1)) || p + (1u << o) > q))
					o--;
				free_one(a, z, p, o);
				p += 1u << o;
			}
		}
	}
	memset(&a->st, 0, sizeof a->st);
	return 0;
}

static void mbuddy_fini(struct alloc *a)
{
	free(priv(a)->usemap);
	priv(a)->usemap = NULL;
}

/* Check one free list: links, flags, order, zone, and that it is the right list. */
static int check_list(const struct alloc *a, const struct zone *z, const struct plist *l,
		      unsigned o, int type, uint64_t *blocks, struct mm_err *e)
{
	const struct page *pages = a->phys->pages;
	uint32_t n = 0, prev = PFN_NONE;
	for (uint32_t pfn = l->head; pfn != PFN_NONE; pfn = pages[pfn].lru_next) {
		const struct page *p = &pages[pfn];
		if (pfn >= a->phys->nr_pages || ++n > z->spanned || p->lru_prev != prev)
			return mm_errf(e, NULL, NULL, "mbuddy: zone %s order %u list corrupt at pfn %u",
				       z->name, o, pfn);
		if (!page_test(p, PG_buddy) || p->order != o || p->zone != z->idx)
			return mm_errf(e, NULL, NULL,
				       "mbuddy: pfn %u on zone %s order-%u list but flags/order/zone "
				       "say otherwise", pfn, z->name, o);
		if (type >= 0 && block_type(a, pfn) != type)
			return mm_errf(e, NULL, NULL,
				       "mbuddy: pfn %u on the type-%d list of zone %s, its block is "
				       "type %d", pfn, type, z->name, block_type(a, pfn));
		prev = pfn;
	}
	if (l->tail != prev || n != l->nr)
		return mm_errf(e, NULL, NULL, "mbuddy: zone %s order %u: bad tail or count",
			       z->name, o);
	*blocks += n;
	return 0;
}

static int mbuddy_check(const struct alloc *a, struct mm_err *e)
{
	const struct mbuddy_priv *mp = priv(a);
	const unsigned top = a->max_order - 1;
	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &a->phys->zones[j];
		uint64_t pages = 0;
		for (unsigned o = 0; o <= top; o++) {
			uint64_t blocks = 0;
			if (o == top) {
				if (check_list(a, z, &mp->pool[j], o, -1, &blocks, e))
					return -1;
			} else {
				for (int t = 0; t < MB_TYPES; t++)
					if (check_list(a, z, &mp->free[j][t][o], o, t, &blocks, e))
						return -1;
			}
			if (blocks != z->nr_free[o])
				return mm_errf(e, NULL, NULL,
					       "mbuddy: zone %s order %u: %llu blocks listed, nr_free %u",
					       z->name, o, (unsigned long long)blocks, z->nr_free[o]);
			pages += blocks << o;
		}
		if (pages != z->free_pages)
			return mm_errf(e, NULL, NULL, "mbuddy: zone %s: lists hold %llu pages, "
				       "free_pages %u", z->name, (unsigned long long)pages,
				       z->free_pages);
		uint32_t fb = 0;
		for (uint32_t pfn = z->start_pfn; z->present && pfn < z->start_pfn + z->spanned;
		     pfn += 1u << top)
			fb += block_type(a, pfn) == MB_FALLBACK;
		if (fb != mp->fallback_blocks[j])
			return mm_errf(e, NULL, NULL, "mbuddy: zone %s: %u FALLBACK blocks, count %u",
				       z->name, fb, mp->fallback_blocks[j]);
	}
	return 0;
}

/**
 * mbuddy_block_type() - Returns: the usemap type of @pfn's 1024-page block
 * (0 NORCLM, 1 KERN, 2 EASY, 3 FALLBACK), or -1 if @a is not an mbuddy instance.
 */
int mbuddy_block_type(const struct alloc *a, uint32_t pfn);

int mbuddy_block_type(const struct alloc *a, uint32_t pfn)
{
	if (!a || strcmp(a->ops->name, "mbuddy") != 0 || pfn >= a->phys->nr_pages)
		return -1;
	return block_type(a, pfn);
}

/**
 * mbuddy_counts() - Returns: steals (pool blocks taken), retypes and fallbacks of
 * @a in @out[0..2], or -1 if @a is not an mbuddy instance (0 otherwise).
 */
int mbuddy_counts(const struct alloc *a, uint64_t out[3]);

int mbuddy_counts(const struct alloc *a, uint64_t out[3])
{
	if (!a || strcmp(a->ops->name, "mbuddy") != 0)
		return -1;
	out[0] = priv(a)->steals;
	out[1] = priv(a)->retypes;
	out[2] = priv(a)->fallbacks;
	return 0;
}

const struct alloc_ops mbuddy_alloc_ops = {
	.version = ALLOC_OPS_VERSION,
	.name = "mbuddy",
	.desc = "list-based anti-fragmentation (V19 rules: per-type lists, usemap, fallback "
		"reserve; V20 per-type per-CPU lists; drain on high-order failure)",
	.params = mbuddy_params,
	.cfg_size = sizeof(struct mbuddy_cfg),
	.priv_size = sizeof(struct mbuddy_priv),
	.init = mbuddy_init,
	.fini = mbuddy_fini,
	.alloc = mbuddy_alloc,
	.free = mbuddy_free,
	.drain = mbuddy_drain,
	.check = mbuddy_check,
	.alloc_failed = mbuddy_alloc_failed,
};
