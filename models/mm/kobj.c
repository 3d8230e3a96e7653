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
 * live objects in page->index and carries PG_slab.  An untuned cache frees a page
 * when its last object goes; a cache tuned as enable_cpucache() does
 * (mm_kcache_tune) keeps empty slabs on its free list while its free objects stay
 * within l3->free_limit (free_block), reuses them after its partial slabs
 * (cache_alloc_refill), and gives them back only in cache_reap (mm_kcache_reap):
 * a few a visit, never a partly used one.  With its object arrays
 * (mm_kcache_arrays: enable_cpucache's per-CPU arrays and the shared array) a
 * freed object is parked in its CPU's array, its page still pinned, and handed
 * out again last in, first out; a full array moves its oldest batch to the
 * shared array or back to the slabs (cache_flusharray), an empty one refills a
 * batch from the shared array or the slabs (cache_alloc_refill), and cache_reap
 * drains an untouched array a fifth of its limit at a time (drain_array_locked).
 * Each slab page is an allocation of the cache's type: dentries and inodes are
 * __GFP_KERNRCLM (MM_RCLM_KERN), everything else MM_RCLM_NORCLM.  Objects live
 * until their owner frees them; the dentry and inode caches' owner (dcache.c)
 * frees unused ones under memory pressure (shrink_slab), and the page cache's
 * buffer heads and radix-tree nodes (bufhead.c) go with their pages.  A free
 * may sleep (free_block's page free takes the zone lock): the arrays are left
 * consistent first, and a full array is checked again after.
 * Costs: O(1) per object (a flush or drain: O(batch)); the page allocations
 * are the allocator's; the arrays' own cycles are in the one page_op charged
 * per object.
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
	while (c->id < k->nkcaches && strcmp(k->kcache_name[c->id], name))
		c->id++;
	if (c->id == k->nkcaches) {
		if (k->nkcaches == MM_MAX_KCACHES)
			return -1;
		k->kcache_name[k->nkcaches] = name;
		k->kcache_rclm[k->nkcaches++] = (gfp & MM_GFP_KERNRCLM) != 0;
	}
	c->pos = calloc(k->phys.nr_pages, sizeof *c->pos);
	return c->pos ? 0 : -1;
}

/* enable_cpucache's per-CPU array limit by object size (PAGE_SIZE / objects
 * per slab). */
static uint32_t ac_limit(const struct mm_kcache *c)
{
	uint32_t size = 4096 / c->objs_per_slab;
	return size > 4096 ? 8 : size > 1024 ? 24 : size > 256 ? 54 : 120;
}

uint32_t mm_kcache_tune(struct mm_kcache *c, uint32_t ncpus)
{
	uint32_t limit = ac_limit(c);
	c->free_limit = (1 + ncpus) * ((limit + 1) / 2) + c->objs_per_slab;
	return c->free_limit;
}

void mm_kcache_fini(struct mm_kcache *c)
{
	for (uint32_t i = 0; i < MM_MAX_CPUS; i++)
		free(c->ac[i].entry);
	free(c->shared.entry);
	memset(c->ac, 0, sizeof c->ac);
	memset(&c->shared, 0, sizeof c->shared);
	c->ncpus = 0;
	free(c->partial);
	free(c->pos);
	free(c->empty);
	c->partial = c->pos = c->empty = NULL;
	c->npartial = c->cappartial = c->nempty = c->capempty = 0;
}

int mm_u32_push(uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t pfn)
{
	if (*n == *cap) {
		uint32_t c2 = *cap ? 2 * *cap : 64;
		uint32_t *nv = realloc(*v, c2 * sizeof *nv);
		if (!nv)
			return -1;
		*v = nv;
		*cap = c2;
	}
	(*v)[(*n)++] = pfn;
	return 0;
}

/* Add @pfn to the partial slabs (most recent last).  Returns: 0, -1 out of memory. */
static int partial_add(struct mm_kcache *c, uint32_t pfn)
{
	if (mm_u32_push(&c->partial, &c->npartial, &c->cappartial, pfn))
		return -1;
	c->pos[pfn] = c->npartial;
	return 0;
}

/* slab_destroy(): the empty slab page @pfn back to the page allocator. */
static void slab_destroy(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c,
			 uint32_t pfn)
{
	page_clear(&k->phys.pages[pfn], PG_slab);
	c->slabs--;
	t->reclaimed_slab++;   /* reclaim_state: counted by reclaim (vmscan.c) */
	mm_page_free(k, t, pfn);
}

uint32_t mm_kcache_reap(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	if (c->free_touched) {
		c->free_touched = false;
		return 0;
	}
	uint32_t num = c->objs_per_slab, tofree = (c->free_limit + 5 * num - 1) / (5 * num), n = 0;
	while (n < tofree && c->nempty) {
		slab_destroy(k, t, c, c->empty[--c->nempty]);
		n++;
	}
	c->reaped += n;
	return n;
}

static void partial_del(struct mm_kcache *c, uint32_t pfn)
{
	uint32_t i = c->pos[pfn] - 1, last = c->partial[--c->npartial];
	c->partial[i] = last;
	c->pos[last] = i + 1;
	c->pos[pfn] = 0;
}

/* cache_grow: a new slab page (may sleep), empty, on the partial list.
 * Returns: the page, or PFN_NONE. */
static uint32_t slab_grow(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	struct page *pages = k->phys.pages;
	uint32_t pfn = mm_page_alloc(k, t, MM_ZONE_NORMAL, c->gfp | MM_GFP_NODMA); /* may sleep */
	if (pfn == PFN_NONE) {
		c->failed++;
		return PFN_NONE;
	}
	page_set(&pages[pfn], PG_slab);
	pages[pfn].index = 0;
	pages[pfn].aux = (uint16_t)(MM_KPAGE_SLAB + c->id);
	c->slabs++;
	if (partial_add(c, pfn)) {
		c->failed++;
		c->slabs--;
		page_clear(&pages[pfn], PG_slab);
		mm_page_free(k, t, pfn);
		return PFN_NONE;
	}
	return pfn;
}

/* An object from the slabs (partial first, then free, then a new page, which
 * may sleep): its page's count goes up.  Returns: the page, or PFN_NONE. */
static uint32_t slab_get(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	uint32_t pfn;
	if (c->npartial) {
		pfn = c->partial[c->npartial - 1];
	} else if (c->nempty) {
		pfn = c->empty[--c->nempty];   /* slabs_free after slabs_partial */
		c->free_touched = true;
		if (partial_add(c, pfn)) {
			c->failed++;
			slab_destroy(k, t, c, pfn);
			return PFN_NONE;
		}
	} else if ((pfn = slab_grow(k, t, c)) == PFN_NONE) {
		return PFN_NONE;
	}
	struct page *p = &k->phys.pages[pfn];
	if (++p->index == c->objs_per_slab)
		partial_del(c, pfn);   /* full */
	return pfn;
}

/* free_block of one object back to its slab page @pfn: an emptied slab joins
 * the free list while the cache's free objects stay within free_limit, else it
 * is freed. */
static void slab_put(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	p->index--;
	if (p->index == 0) {
		if (c->pos[pfn])
			partial_del(c, pfn);
		/* l3->free_objects (free objects in the cache's slabs) against
		 * l3->free_limit */
		if (c->slabs * c->objs_per_slab - c->objs - c->parked > c->free_limit ||
		    mm_u32_push(&c->empty, &c->nempty, &c->capempty, pfn))
			slab_destroy(k, t, c, pfn);
	} else if (!c->pos[pfn] && partial_add(c, pfn)) {
		c->failed++;   /* out of host memory: the slab is not reused */
	}
}

/* @t's CPU's array of @c. */
static struct mm_kcache_ac *cpu_ac(struct mm_kcache *c, const struct mm_task *t)
{
	uint32_t cpu = t && t->cpu >= 0 ? (uint32_t)t->cpu : 0;
	return &c->ac[cpu < c->ncpus ? cpu : 0];
}

/* free_block of the @n oldest objects of @ac. */
static void ac_free_oldest(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c,
			   struct mm_kcache_ac *ac, uint32_t n)
{
	ac->avail -= n;
	c->parked -= n;
	uint32_t *old = malloc(n * sizeof *old);
	if (old)
		memcpy(old, ac->entry, n * sizeof *old);
	memmove(ac->entry, ac->entry + n, ac->avail * sizeof *ac->entry);
	for (uint32_t i = 0; old && i < n; i++)
		slab_put(k, t, c, old[i]);   /* may free a page: the arrays are consistent */
	if (!old)
		c->failed++;   /* out of host memory: the objects' pages stay pinned */
	free(old);
}

/* cache_alloc_refill: up to batchcount objects into @t's array, from the
 * shared array, else from the slabs (a new page only when none has a free
 * object).  Returns: 0, or -1 when no object could be had. */
static int ac_refill(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	struct mm_kcache_ac *ac = cpu_ac(c, t);
	uint32_t batch = c->batchcount;
	if (!ac->touched && batch > 16)
		batch = 16;   /* BATCHREFILL_LIMIT */
	if (batch > ac->limit - ac->avail)
		batch = ac->limit - ac->avail;
	uint32_t n = c->shared.avail < batch ? c->shared.avail : batch;
	if (n) {   /* transfer_objects: the shared array's newest */
		c->shared.avail -= n;
		memcpy(ac->entry + ac->avail, c->shared.entry + c->shared.avail, n * sizeof *ac->entry);
		ac->avail += n;
		c->shared.touched = true;
		return 0;
	}
	for (;;) {
		while (n < batch && ac->avail < ac->limit && (c->npartial || c->nempty)) {
			ac->entry[ac->avail++] = slab_get(k, t, c);
			c->parked++;
			n++;
		}
		if (ac->avail)
			return 0;
		/* cache_grow (may sleep), then the retry takes from the new slab
		 * (another task may have taken its objects meanwhile: grow again) */
		if (slab_grow(k, t, c) == PFN_NONE)
			return -1;
		ac = cpu_ac(c, t);   /* the task may run on another CPU now */
	}
}

uint32_t mm_kobj_alloc(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c)
{
	uint32_t pfn;
	if (c->ncpus) {
		struct mm_kcache_ac *ac = cpu_ac(c, t);
		if (!ac->avail && ac_refill(k, t, c))
			return PFN_NONE;
		ac = cpu_ac(c, t);
		ac->touched = true;
		pfn = ac->entry[--ac->avail];
		c->parked--;
	} else {
		pfn = slab_get(k, t, c);
		if (pfn == PFN_NONE)
			return PFN_NONE;
	}
	c->objs++;
	mm_charge(t, k->costs->page_op);
	return pfn;
}

void mm_kobj_free(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, uint32_t pfn)
{
	struct page *pages = k->phys.pages;
	if (pfn == PFN_NONE || pfn >= k->phys.nr_pages || !page_test(&pages[pfn], PG_slab) ||
	    pages[pfn].index == 0 || !c->objs)
		return;
	c->objs--;
	mm_charge(t, k->costs->page_op);
	if (!c->ncpus) {
		slab_put(k, t, c, pfn);
		return;
	}
	struct mm_kcache_ac *ac;
	/* cache_flusharray; freeing to the slabs may sleep (the zone lock), and
	 * another task on this CPU may fill the array again meanwhile */
	for (;;) {
		ac = cpu_ac(c, t);
		if (ac->avail < ac->limit)
			break;
		uint32_t n = c->batchcount, room = c->shared.limit - c->shared.avail;
		if (room) {
			if (n > room)
				n = room;
			memcpy(c->shared.entry + c->shared.avail, ac->entry, n * sizeof *ac->entry);
			c->shared.avail += n;
			ac->avail -= n;
			memmove(ac->entry, ac->entry + n, ac->avail * sizeof *ac->entry);
		} else {
			ac_free_oldest(k, t, c, ac, n);
		}
	}
	ac->entry[ac->avail++] = pfn;
	c->parked++;
}

int mm_kcache_arrays(struct mm_kcache *c, uint32_t ncpus)
{
	uint32_t limit = ac_limit(c);
	if (!ncpus || ncpus > MM_MAX_CPUS)
		return -1;
	if (c->ncpus == ncpus)
		return 0;   /* already enabled (a cache shared by a chain's steps) */
	if (c->ncpus)
		return -1;
	c->batchcount = (limit + 1) / 2;
	for (uint32_t i = 0; i < ncpus; i++) {
		c->ac[i].entry = calloc(limit, sizeof *c->ac[i].entry);
		c->ac[i].limit = limit;
		if (!c->ac[i].entry)
			return -1;
	}
	/* shared = 8 for objects up to a page on SMP */
	c->shared.limit = ncpus > 1 ? 8 * c->batchcount : 0;
	if (c->shared.limit && !(c->shared.entry = calloc(c->shared.limit, sizeof *c->shared.entry)))
		return -1;
	c->ncpus = ncpus;
	return 0;
}

uint32_t mm_kcache_drain(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, int cpu)
{
	if (!c->ncpus || cpu >= (int)c->ncpus)
		return 0;
	struct mm_kcache_ac *ac = cpu < 0 ? &c->shared : &c->ac[cpu];
	if (ac->touched) {
		ac->touched = false;
		return 0;
	}
	uint32_t n = (ac->limit + 4) / 5;
	if (n > ac->avail)
		n = (ac->avail + 1) / 2;
	if (n)
		ac_free_oldest(k, t, c, ac, n);
	return n;
}

uint32_t mm_kpages_alloc(struct mm_kernel *k, struct mm_task *t, unsigned order, unsigned kind)
{
	uint32_t pfn = mm_pages_alloc(k, t, MM_ZONE_NORMAL, order, MM_GFP_KERNEL | MM_GFP_NODMA, NULL);
	if (pfn != PFN_NONE)
		k->phys.pages[pfn].aux = (uint16_t)kind;
	return pfn;
}

/* @kc's optional caches in MM_KP_* order. */
static void kproc_obj_caches(const struct mm_kproc_caches *kc, struct mm_kcache *oc[MM_KP_NOBJ])
{
	oc[MM_KP_FILES] = kc->files;
	oc[MM_KP_FS] = kc->fs;
	oc[MM_KP_SIGHAND] = kc->sighand;
	oc[MM_KP_SIGNAL] = kc->signal;
	oc[MM_KP_MM] = kc->mm;
	oc[MM_KP_ANON_STACK] = oc[MM_KP_ANON_HEAP] = kc->anon_vma;
}

int mm_kproc_start(struct mm_kernel *k, struct mm_task *t, struct mm_kproc *p,
		   const struct mm_kproc_caches *kc, uint32_t nvma, uint32_t heap_pages,
		   struct mm_as *parent)
{
	memset(p, 0, sizeof *p);
	p->task = mm_kobj_alloc(k, t, kc->task);
	p->stack = mm_kpages_alloc(k, t, 1, MM_KPAGE_STACK);           /* 8 KB kernel stack */
	struct mm_kcache *oc[MM_KP_NOBJ];
	kproc_obj_caches(kc, oc);
	if (parent)
		heap_pages = parent->npages;
	for (int i = 0; i < MM_KP_NOBJ; i++)   /* anon_vma_prepare: a vma with pages */
		p->obj[i] = oc[i] && (i != MM_KP_ANON_HEAP || heap_pages) ? mm_kobj_alloc(k, t, oc[i])
									   : PFN_NONE;
	p->nvma = nvma;
	p->vma = calloc(p->nvma ? p->nvma : 1, sizeof *p->vma);
	/* pgd, the text/library and stack page tables, one per 4 MB of heap */
	p->npte = 3 + (heap_pages + 1023) / 1024;
	p->pte = calloc(p->npte, sizeof *p->pte);
	if (!p->vma || !p->pte)
		return -1;
	for (uint32_t i = 0; i < p->nvma; i++)
		p->vma[i] = mm_kobj_alloc(k, t, kc->vma);
	for (uint32_t i = 0; i < p->npte; i++)
		p->pte[i] = mm_kpages_alloc(k, t, 0, MM_KPAGE_PTE);
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
	struct mm_kcache *oc[MM_KP_NOBJ];
	kproc_obj_caches(kc, oc);
	for (int i = MM_KP_NOBJ - 1; i >= 0; i--)
		if (oc[i] && p->obj[i] != PFN_NONE)
			mm_kobj_free(k, t, oc[i], p->obj[i]);
	if (p->stack != PFN_NONE)
		mm_pages_free(k, t, p->stack, 1);
	mm_kobj_free(k, t, kc->task, p->task);
	free(p->pte);
	free(p->vma);
	memset(p, 0, sizeof *p);
}
