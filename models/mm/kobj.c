/*
 * kobj.c - kernel objects and the pages they pin (2.6.16 mm/slab.c, simplified;
 * kernel-mechanisms.md 4.1, 4.3a).
 *
 * Fragmentation of physical memory comes from long-lived pages the kernel cannot
 * move or reclaim at will scattered across MAX_ORDER blocks: slab pages (one live
 * object keeps the whole page), page-table pages and kernel stacks.  This file
 * gives workloads those allocations with the lifetimes the real objects have.
 *
 * A cache hands out objects from its most recent partial slab (the slab
 * allocator's "partial first" rule), growing by one page when none is partial; the
 * partial slabs are kept in a host-side array, not on the pages' list links.  A page records its
 * live objects in page->index and carries PG_slab; it is freed when its last object
 * goes (the real slab keeps a few empty slabs until cache_reap; not modelled).
 * Each slab page is an allocation of the cache's type: dentries and inodes are
 * __GFP_KERNRCLM (MM_RCLM_KERN), everything else MM_RCLM_NORCLM.  Per-CPU object
 * arrays are not modelled.  Objects live until their owner frees them; the
 * dentry and inode caches' owner (dcache.c) frees unused ones under memory
 * pressure (shrink_slab), and the page cache's buffer heads and radix-tree
 * nodes (bufhead.c) go with their pages.
 * Costs: O(1) per object; the page allocations are the allocator's.
 */
#include "models/mm/kobj.h"

#include <stdlib.h>
#include <string.h>

#include "models/mm/proc.h"

int mm_kcache_init(struct mm_kcache *c, struct mm_kernel *k, const char *name,
		   uint32_t objs_per_slab, unsigned gfp)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	c->objs_per_slab = objs_per_slab ? objs_per_slab : 1;
	c->gfp = gfp;
	c->pos = calloc(k->phys.nr_pages, sizeof *c->pos);
	return c->pos ? 0 : -1;
}

void mm_kcache_fini(struct mm_kcache *c)
{
	free(c->partial);
	free(c->pos);
	c->partial = c->pos = NULL;
	c->npartial = c->cappartial = 0;
}

/* Add @pfn to the partial slabs (most recent last).  Returns: 0, -1 out of memory. */
static int partial_add(struct mm_kcache *c, uint32_t pfn)
{
	if (c->npartial == c->cappartial) {
		uint32_t cap = c->cappartial ? 2 * c->cappartial : 64;
		uint32_t *n = realloc(c->partial, cap * sizeof *n);
		if (!n)
			return -1;
		c->partial = n;
		c->cappartial = cap;
	}
	c->partial[c->npartial++] = pfn;
	c->pos[pfn] = c->npartial;
	return 0;
}

static void partial_del(struct mm_kcache *c, uint32_t pfn)
{
	uint32_t i = c->pos[pfn] - 1, last = c->partial[--c->npartial];
	c->partial[i] = last;
	c->pos[last] = i + 1;
	c->pos[pfn] = 0;
}

uint32_t mm_kobj_alloc(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	struct page *pages = k->phys.pages;
	uint32_t pfn;
	if (c->npartial) {
		pfn = c->partial[c->npartial - 1];
	} else {
		pfn = mm_page_alloc(k, t, MM_ZONE_NORMAL, c->gfp | MM_GFP_NODMA); /* may sleep */
		if (pfn == PFN_NONE) {
			c->failed++;
			return PFN_NONE;
		}
		page_set(&pages[pfn], PG_slab);
		pages[pfn].index = 0;
		c->slabs++;
		if (partial_add(c, pfn)) {
			c->failed++;
			c->slabs--;
			page_clear(&pages[pfn], PG_slab);
			mm_page_free(k, t, pfn);
			return PFN_NONE;
		}
	}
	struct page *p = &pages[pfn];
	if (++p->index == c->objs_per_slab)
		partial_del(c, pfn);   /* full */
	c->objs++;
	mm_charge(t, k->costs->page_op);
	return pfn;
}

void mm_kobj_free(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, uint32_t pfn)
{
	struct page *pages = k->phys.pages;
	if (pfn == PFN_NONE || pfn >= k->phys.nr_pages || !page_test(&pages[pfn], PG_slab) ||
	    pages[pfn].index == 0)
		return;
	struct page *p = &pages[pfn];
	p->index--;
	c->objs--;
	mm_charge(t, k->costs->page_op);
	if (p->index == 0) {
		if (c->pos[pfn])
			partial_del(c, pfn);
		page_clear(p, PG_slab);
		c->slabs--;
		t->reclaimed_slab++;   /* reclaim_state: counted by reclaim (vmscan.c) */
		mm_page_free(k, t, pfn);
	} else if (!c->pos[pfn] && partial_add(c, pfn)) {
		c->failed++;   /* out of host memory: the slab is not reused */
	}
}

uint32_t mm_kpages_alloc(struct mm_kernel *k, struct mm_task *t, unsigned order)
{
	return mm_pages_alloc(k, t, MM_ZONE_NORMAL, order, MM_GFP_KERNEL | MM_GFP_NODMA, NULL);
}

int mm_kproc_start(struct mm_kernel *k, struct mm_task *t, struct mm_kproc *p,
		   const struct mm_kproc_caches *kc, uint32_t nvma, uint32_t heap_pages,
		   struct mm_as *parent)
{
	memset(p, 0, sizeof *p);
	p->task = mm_kobj_alloc(k, t, kc->task);
	p->stack = mm_kpages_alloc(k, t, 1);            /* 8 KB kernel stack */
	p->nvma = nvma;
	p->vma = calloc(p->nvma ? p->nvma : 1, sizeof *p->vma);
	if (parent)
		heap_pages = parent->npages;
	/* pgd, the text/library and stack page tables, one per 4 MB of heap */
	p->npte = 3 + (heap_pages + 1023) / 1024;
	p->pte = calloc(p->npte, sizeof *p->pte);
	if (!p->vma || !p->pte)
		return -1;
	for (uint32_t i = 0; i < p->nvma; i++)
		p->vma[i] = mm_kobj_alloc(k, t, kc->vma);
	for (uint32_t i = 0; i < p->npte; i++)
		p->pte[i] = mm_kpages_alloc(k, t, 0);
	if (parent) {
		p->as = mm_as_fork(k, t, parent);
		return p->as ? 0 : -1;
	}
	p->as = mm_as_new(k, t);
	if (p->as && heap_pages && (mm_brk(k, t, p->as, heap_pages) ||
				    mm_touch(k, t, p->as, 0, p->as->npages, true) < 0))
		return -1;
	return 0;
}

void mm_kproc_exit(struct mm_kernel *k, struct mm_task *t, struct mm_kproc *p,
		   const struct mm_kproc_caches *kc)
{
	if (p->as)
		mm_as_exit(k, t, p->as);
	for (uint32_t i = 0; p->pte && i < p->npte; i++)
		if (p->pte[i] != PFN_NONE)
			mm_page_free(k, t, p->pte[i]);
	for (uint32_t i = 0; p->vma && i < p->nvma; i++)
		mm_kobj_free(k, t, kc->vma, p->vma[i]);
	if (p->stack != PFN_NONE)
		mm_pages_free(k, t, p->stack, 1);
	mm_kobj_free(k, t, kc->task, p->task);
	free(p->pte);
	free(p->vma);
	memset(p, 0, sizeof *p);
}
