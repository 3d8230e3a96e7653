/*
 * swap.h - the LRU pagevecs of the mm core: lru_cache_add(), release_pages(),
 * lru_add_drain(), mark_page_accessed() (Linux 2.6.15 mm/swap.c, declared there in
 * include/linux/swap.h and include/linux/pagevec.h); see swap.c.  Included by
 * kernel.h.
 */
#ifndef MMEMU_SWAP_H
#define MMEMU_SWAP_H

#include <stdint.h>

struct mm_kernel;
struct mm_task;

#define PAGEVEC_SIZE 14          /* 2.6.10-2.6.15 [K2614 pagevec.h] */

struct pagevec {
	unsigned nr;
	uint32_t pfn[PAGEVEC_SIZE];
	uint8_t hint[PAGEVEC_SIZE];
};

/* lru_cache_add hints */
enum { MM_LRU_INACTIVE = 0, MM_LRU_ACTIVE = 1, MM_LRU_USE_ONCE = 2 };

/** mm_lru_cache_add() - lru_cache_add(): queue @pfn on this CPU's pagevec. */
void mm_lru_cache_add(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, int hint);

/**
 * mm_release_pages() - release_pages(): drop one reference to each of @n pages; a
 * page whose count reaches zero is unlinked from its LRU list under its zone's
 * lru_lock (taken once per run of pages of one zone) and freed.  A page that
 * reclaim holds isolated is left for the isolating task to free (see
 * mm_lru_putback()).
 */
void mm_release_pages(struct mm_kernel *k, struct mm_task *t, const uint32_t *pfns, unsigned n);

/* A batch of pages to release (the pagevec of release_pages callers: zap,
 * truncate, munmap): full batches go through mm_release_pages(). */
struct mm_relvec {
	unsigned nr;
	uint32_t pfn[PAGEVEC_SIZE];
};

/** mm_relvec_add() - queue @pfn's reference in @rv, releasing the batch when full. */
static inline void mm_relvec_add(struct mm_kernel *k, struct mm_task *t, struct mm_relvec *rv,
				 uint32_t pfn)
{
	rv->pfn[rv->nr++] = pfn;
	if (rv->nr == PAGEVEC_SIZE) {
		mm_release_pages(k, t, rv->pfn, rv->nr);
		rv->nr = 0;
	}
}

/** mm_relvec_flush() - release what @rv still holds. */
static inline void mm_relvec_flush(struct mm_kernel *k, struct mm_task *t, struct mm_relvec *rv)
{
	if (rv->nr)
		mm_release_pages(k, t, rv->pfn, rv->nr);
	rv->nr = 0;
}

/** mm_lru_add_drain() - lru_add_drain(): drain the calling CPU's pagevec. */
void mm_lru_add_drain(struct mm_kernel *k, struct mm_task *t);

/** mm_mark_page_accessed() - mark_page_accessed() through the reclaim module. */
void mm_mark_page_accessed(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

#endif
