/*
 * mm_check.h - debug invariant checker for physical memory.
 */
#ifndef MMEMU_MM_CHECK_H
#define MMEMU_MM_CHECK_H

#include "emu/core/err.h"
#include "models/mm/zone.h"

/**
 * mm_check() - verify that every page is in exactly one state.
 * @phys: memory (with or without an allocator attached)
 * @e: error out
 *
 * States: inside exactly one free buddy block (head has PG_buddy and its order,
 * block aligned and inside its zone, tails carry no list flag), on a per-CPU list
 * (PG_pcp, count 0), on a reclaim list (PG_lru), reserved (PG_reserved, count >= 1),
 * or allocated and on no list.  Per zone: free_pages == pages in free buddy blocks,
 * nr_free[o] == free blocks of order o, nr_pcp == pages on the per-CPU lists (each
 * list walked both ways, counts matching), PG_lru pages == nr_active + nr_inactive,
 * reserved == PG_reserved pages, and free + pcp + lru + allocated + reserved ==
 * present.  Then the allocator's own check (alloc_check()).  O(pages).
 * Returns: 0, or -1 with @e naming the first bad pfn or zone.
 */
int mm_check(const struct mm_phys *phys, struct mm_err *e);

#endif
