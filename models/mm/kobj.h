/*
 * kobj.h - kernel objects: slab caches and the pages they live in (the part of
 * 2.6.16 mm/slab.c that decides which pages kernel objects pin), plus kernel
 * stacks and page-table pages.  See kobj.c.
 */
#ifndef MMEMU_KOBJ_H
#define MMEMU_KOBJ_H

#include <stdint.h>

#include "models/mm/kernel.h"

/* One slab cache (struct kmem_cache, one page per slab). */
struct mm_kcache {
	const char *name;
	uint32_t objs_per_slab;    /* objects per page (PAGE_SIZE / object size) */
	unsigned gfp;              /* MM_GFP_KERNEL, | MM_GFP_KERNRCLM for dcache/icache */
	uint32_t *partial;         /* slab pages with free objects, most recent last */
	uint32_t npartial, cappartial;
	uint32_t *pos;             /* [nr_pages] index in partial + 1, 0 = not partial */
	uint64_t objs, slabs;      /* live objects and slab pages */
	uint64_t failed;           /* allocations that found no page (OOM) */
};

/** mm_kcache_init() - an empty cache of @objs_per_slab objects per page of @k,
 * whose pages are allocated with @gfp from the Normal zonelist.
 * Returns: 0, or -1 when host memory ran out. */
int mm_kcache_init(struct mm_kcache *c, struct mm_kernel *k, const char *name,
		   uint32_t objs_per_slab, unsigned gfp);

/** mm_kcache_fini() - free the cache's bookkeeping (its pages stay allocated). */
void mm_kcache_fini(struct mm_kcache *c);

/**
 * mm_kobj_alloc() - kmem_cache_alloc(): a free object of the most recently used
 * partial slab, else a new slab page (cache_grow).
 * Returns: the slab page's pfn (the object's handle for mm_kobj_free), or
 * PFN_NONE if no page could be allocated.
 */
uint32_t mm_kobj_alloc(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c);

/** mm_kobj_free() - kmem_cache_free() of an object of slab page @pfn: the page goes
 * back to the page allocator when its last object is freed. */
void mm_kobj_free(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, uint32_t pfn);

/**
 * mm_kpages_alloc() - a kernel allocation of 2^@order pages that is not slab: a
 * kernel stack (order 1 on i386 with 8 KB stacks) or a page-table page (order 0;
 * GFP_KERNEL, no CONFIG_HIGHPTE), not reclaimable (MM_RCLM_NORCLM).
 * Returns: the pfn, or PFN_NONE.
 */
uint32_t mm_kpages_alloc(struct mm_kernel *k, struct mm_task *t, unsigned order);

#endif
