/*
 * mm_check.c - debug invariant checker (see mm_check.h).
 *
 * One linear scan of the page array per zone classifies each page; free buddy
 * blocks are recognised by their head (PG_buddy + order) and skipped as a unit,
 * so overlapping or misaligned blocks show up as a flagged page inside a block.
 * The per-CPU lists are walked from the zone; the allocator's private free lists
 * are checked by its own check method.  Meant for tests and debug builds: O(pages).
 */
#include "models/mm/mm_check.h"

#include "models/alloc/alloc.h"

#define LIST_FLAGS ((1u << PG_buddy) | (1u << PG_pcp) | (1u << PG_lru))

static int check_pcp(const struct mm_phys *phys, const struct zone *z, struct mm_err *e)
{
	const struct page *pages = phys->pages;
	uint64_t total = 0;
	if (!z->pageset)
		return z->nr_pcp ? mm_errf(e, NULL, NULL, "zone %s: nr_pcp %u without lists",
					   z->name, z->nr_pcp) : 0;
	for (uint32_t c = 0; c < phys->ncpus; c++)
		for (int k = 0; k < 2; k++) {
			const struct mm_pcp *pcp = &z->pageset[c].pcp[k];
			uint32_t n = 0, prev = PFN_NONE;
			for (uint32_t pfn = pcp->list.head; pfn != PFN_NONE;
			     pfn = pages[pfn].lru_next) {
				if (pfn < z->start_pfn || pfn >= z->start_pfn + z->spanned ||
				    ++n > z->spanned)
					return mm_errf(e, NULL, NULL,
						       "zone %s cpu %u %s list: pfn %u outside the zone "
						       "or list cycles", z->name, c, k ? "cold" : "hot", pfn);
				const struct page *p = &pages[pfn];
				if (p->lru_prev != prev)
					return mm_errf(e, NULL, NULL, "pfn %u: bad back link on a pcp list",
						       pfn);
				if (!page_test(p, PG_pcp) || (p->flags & ((1u << PG_buddy) | (1u << PG_lru))) ||
				    p->count != 0)
					return mm_errf(e, NULL, NULL,
						       "pfn %u on zone %s cpu %u pcp list but flags 0x%x "
						       "count %d", pfn, z->name, c, p->flags, p->count);
				prev = pfn;
			}
			if (prev != pcp->list.tail || n != pcp->list.nr || n != pcp->count)
				return mm_errf(e, NULL, NULL,
					       "zone %s cpu %u %s list: %u pages walked, nr %u, "
					       "count %u", z->name, c, k ? "cold" : "hot", n,
					       pcp->list.nr, pcp->count);
			total += n;
		}
	if (total != z->nr_pcp)
		return mm_errf(e, NULL, NULL, "zone %s: %llu pages on pcp lists, nr_pcp %u",
			       z->name, (unsigned long long)total, z->nr_pcp);
	return 0;
}

int mm_check(const struct mm_phys *phys, struct mm_err *e)
{
	const struct page *pages = phys->pages;
	uint64_t covered = 0;

	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &phys->zones[j];
		uint32_t end = z->start_pfn + z->spanned;
		uint64_t nfree = 0, npcp = 0, nlru = 0, nres = 0, nalloc = 0;
		uint64_t blocks[MM_MAX_ORDER] = { 0 };

		if (z->start_pfn != covered)
			return mm_errf(e, NULL, NULL, "zone %s starts at pfn %u, expected %llu",
				       z->name, z->start_pfn, (unsigned long long)covered);
		covered = end;
		for (uint32_t pfn = z->start_pfn; pfn < end;) {
			const struct page *p = &pages[pfn];
			if (p->zone != j)
				return mm_errf(e, NULL, NULL, "pfn %u: zone %u, expected %s", pfn,
					       p->zone, z->name);
			unsigned lf = __builtin_popcount(p->flags & LIST_FLAGS);
			if (lf > 1)
				return mm_errf(e, NULL, NULL, "pfn %u: on more than one list (flags 0x%x)",
					       pfn, p->flags);
			if (page_test(p, PG_reserved)) {
				if (lf || p->count < 1)
					return mm_errf(e, NULL, NULL,
						       "pfn %u: reserved but listed or count %d", pfn,
						       p->count);
				nres++;
				pfn++;
				continue;
			}
			if (page_test(p, PG_buddy)) {
				unsigned o = p->order;
				if (o >= MM_MAX_ORDER)
					return mm_errf(e, NULL, NULL, "pfn %u: free block order %u", pfn, o);
				if (pfn & ((1u << o) - 1))
					return mm_errf(e, NULL, NULL,
						       "pfn %u: free block of order %u not aligned", pfn, o);
				if (pfn + (1u << o) > end)
					return mm_errf(e, NULL, NULL,
						       "pfn %u: free block of order %u crosses the end "
						       "of zone %s", pfn, o, z->name);
				if (p->count != 0)
					return mm_errf(e, NULL, NULL, "pfn %u: free block head count %d",
						       pfn, p->count);
				for (uint32_t i = 1; i < (1u << o); i++) {
					const struct page *t = &pages[pfn + i];
					if ((t->flags & (LIST_FLAGS | (1u << PG_reserved))) || t->count)
						return mm_errf(e, NULL, NULL,
							       "pfn %u: inside the free block at pfn %u "
							       "(order %u) but flags 0x%x count %d",
							       pfn + i, pfn, o, t->flags, t->count);
				}
				blocks[o]++;
				nfree += 1u << o;
				pfn += 1u << o;
				continue;
			}
			if (page_test(p, PG_pcp)) {
				npcp++;
			} else if (page_test(p, PG_lru)) {
				nlru++;
			} else {
				nalloc++;
			}
			pfn++;
		}
		if (nfree != z->free_pages)
			return mm_errf(e, NULL, NULL,
				       "zone %s: %llu pages in free blocks, free_pages %u", z->name,
				       (unsigned long long)nfree, z->free_pages);
		for (unsigned o = 0; o < MM_MAX_ORDER; o++)
			if (blocks[o] != z->nr_free[o])
				return mm_errf(e, NULL, NULL,
					       "zone %s: %llu free blocks of order %u, nr_free %u",
					       z->name, (unsigned long long)blocks[o], o, z->nr_free[o]);
		if (npcp != z->nr_pcp)
			return mm_errf(e, NULL, NULL, "zone %s: %llu PG_pcp pages, nr_pcp %u",
				       z->name, (unsigned long long)npcp, z->nr_pcp);
		if (nlru != (uint64_t)z->nr_active + z->nr_inactive)
			return mm_errf(e, NULL, NULL,
				       "zone %s: %llu PG_lru pages, nr_active + nr_inactive %u",
				       z->name, (unsigned long long)nlru, z->nr_active + z->nr_inactive);
		if (nres != z->reserved)
			return mm_errf(e, NULL, NULL, "zone %s: %llu reserved pages, expected %u",
				       z->name, (unsigned long long)nres, z->reserved);
		if (nfree + npcp + nlru + nalloc + nres != z->present)
			return mm_errf(e, NULL, NULL, "zone %s: page states sum to %llu, present %u",
				       z->name,
				       (unsigned long long)(nfree + npcp + nlru + nalloc + nres),
				       z->present);
		if (check_pcp(phys, z, e))
			return -1;
	}
	if (covered != phys->nr_pages)
		return mm_errf(e, NULL, NULL, "zones cover %llu pfns of %u",
			       (unsigned long long)covered, phys->nr_pages);
	if (phys->alloc && alloc_check(phys->alloc, e))
		return -1;
	return 0;
}
