/*
 * kobj.h - kernel objects: slab caches and the pages they live in (the part of
 * 2.6.16 mm/slab.c that decides which pages kernel objects pin), plus kernel
 * stacks and page-table pages.  See kobj.c.
 */
#ifndef MMEMU_KOBJ_H
#define MMEMU_KOBJ_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm/kernel.h"

/* What a kernel page that is on no list holds, in page->aux (census.c reads it):
 * SET_PAGE_CACHE() of 2.6.16 mm/slab.c keeps a slab page's cache in page->lru;
 * here a slab page's aux is MM_KPAGE_SLAB + the cache's id (mm_kernel.kcache_name). */
enum mm_kpage_kind {
	MM_KPAGE_NONE,    /* not tagged */
	MM_KPAGE_PTE,     /* a page-table page (pgd or pte page) */
	MM_KPAGE_STACK,   /* a kernel stack */
	MM_KPAGE_SLAB     /* + cache id */
};

/* One slab cache (struct kmem_cache, one page per slab). */
struct mm_kcache {
	const char *name;
	unsigned id;               /* index in the kernel's kcache_name (same name, same id) */
	uint32_t objs_per_slab;    /* objects per page (PAGE_SIZE / object size) */
	unsigned gfp;              /* MM_GFP_KERNEL, | MM_GFP_KERNRCLM for dcache/icache */
	uint32_t *partial;         /* slab pages with free objects, most recent last */
	uint32_t npartial, cappartial;
	uint32_t *pos;             /* [nr_pages] index in partial + 1, 0 = not partial */
	uint64_t objs, slabs;      /* live objects and slab pages */
	uint64_t failed;           /* allocations that found no page (OOM) */
	/* 2.6.16 l3->slabs_free and its limits (mm_kcache_tune); free_limit 0 = not
	 * tuned: a slab is freed the moment it empties */
	uint32_t *empty;           /* wholly free slab pages, list head = last */
	uint32_t nempty, capempty;
	uint32_t free_limit;       /* l3->free_limit, objects */
	bool free_touched;         /* l3->free_touched: a free slab was reused */
	uint64_t reaped;           /* slab pages freed by mm_kcache_reap */
	/* 2.6.16's per-CPU object arrays and the node's shared array
	 * (mm_kcache_arrays; limit 0: none): objects freed are parked there, their
	 * slab pages still pinned, and handed out again last in, first out */
	struct mm_kcache_ac {
		uint32_t *entry;   /* slab pfns of the parked objects, oldest first */
		uint32_t avail, limit;
		bool touched;      /* used since the last cache_reap drain */
	} ac[MM_MAX_CPUS], shared;
	uint32_t batchcount, ncpus;
	uint64_t parked;           /* objects in the arrays */
};

/** mm_kcache_init() - an empty cache of @objs_per_slab objects per page of @k,
 * whose pages are allocated with @gfp from the Normal zonelist, registered under
 * @name in @k's cache table (a second cache of the same name shares its id).
 * Returns: 0, or -1 when host memory ran out or the table is full. */
int mm_kcache_init(struct mm_kcache *c, struct mm_kernel *k, const char *name,
		   uint32_t objs_per_slab, unsigned gfp);

/**
 * mm_kcache_tune() - enable_cpucache() and do_tune_cpucache() of 2.6.16 mm/slab.c for
 * a cache on @ncpus CPUs: the per-CPU array limit by object size (PAGE_SIZE /
 * objs_per_slab: 120 up to 256 bytes, 54 up to 1 KiB, 24 up to a page, 8 above),
 * batchcount (limit + 1) / 2 and l3->free_limit = (1 + ncpus) * batchcount + num.
 * From then on a slab that empties stays on the cache's free list while the
 * cache's free objects are within free_limit (free_block), and only
 * mm_kcache_reap() gives such pages back.
 * Returns: the free_limit set.
 */
uint32_t mm_kcache_tune(struct mm_kcache *c, uint32_t ncpus);

/**
 * mm_kcache_arrays() - the object arrays enable_cpucache() gives a cache on
 * @ncpus CPUs (2.6.16 mm/slab.c, do_tune_cpucache): a per-CPU array of the
 * limit mm_kcache_tune() computes and a shared array of 8 x batchcount (object
 * no larger than a page, SMP).  From then on a free parks the object in its
 * CPU's array (a full array first moves its batchcount oldest objects to the
 * shared array, or, when that is full, back to their slabs: cache_flusharray),
 * an allocation takes the newest object of its CPU's array, refilled from the
 * shared array or from the slabs (partial, then free, then a new page) up to
 * batchcount (16 while the array is untouched: cache_alloc_refill), and
 * mm_kcache_drain() returns parked objects.  Call after mm_kcache_tune().
 * A second call for the same @ncpus keeps the arrays the cache has.
 * Returns: 0, or -1 when host memory ran out (the cache keeps no arrays) or
 * the cache has arrays for another number of CPUs.
 */
int mm_kcache_arrays(struct mm_kcache *c, uint32_t ncpus);

/**
 * mm_kcache_drain() - cache_reap's drain_array_locked() of @cpu's array of @c
 * (every 2 s, REAPTIMEOUT_CPUC), or of the shared array with @cpu -1 (with the
 * lists, every 4 s): an array used since the last drain is only marked unused;
 * otherwise its (limit + 4) / 5 oldest objects (half, rounded up, when it
 * holds fewer) go back to their slabs (free_block: an emptied slab joins the
 * free list within free_limit, else is freed).
 * Returns: the objects returned.
 */
uint32_t mm_kcache_drain(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, int cpu);

/**
 * mm_kcache_reap() - one cache_reap() visit of @c (2.6.16 mm/slab.c; the kernel
 * runs it every 2 s, REAPTIMEOUT_CPUC, and visits a cache's lists every 4 s,
 * REAPTIMEOUT_LIST3; the caller keeps that time): if a free slab was reused since
 * the last visit (free_touched) only clear the flag, else free up to
 * (free_limit + 5 * num - 1) / (5 * num) wholly empty slabs, the most recently
 * emptied first.  Partly used slabs are never freed.
 * Returns: the number of slab pages freed.
 */
uint32_t mm_kcache_reap(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c);

/** mm_u32_push() - append @v to the growable array *@a of *@n entries (capacity
 * *@cap, doubled when full).  Returns: 0, or -1 when host memory ran out. */
int mm_u32_push(uint32_t **a, uint32_t *n, uint32_t *cap, uint32_t v);

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
 * GFP_KERNEL, no CONFIG_HIGHPTE), not reclaimable (MM_RCLM_NORCLM); its head
 * page's aux says @kind (enum mm_kpage_kind).
 * Returns: the pfn, or PFN_NONE.
 */
uint32_t mm_kpages_alloc(struct mm_kernel *k, struct mm_task *t, unsigned order, unsigned kind);

struct mm_as;

/* The per-process objects of the optional caches, in fork's order. */
enum { MM_KP_FILES, MM_KP_FS, MM_KP_SIGHAND, MM_KP_SIGNAL, MM_KP_MM, MM_KP_ANON_STACK,
       MM_KP_ANON_HEAP, MM_KP_NOBJ };

/* The kernel objects of one process, from fork or exec to exit (2.6.16
 * kernel/fork.c dup_task_struct, copy_files, copy_fs, copy_sighand,
 * copy_signal, copy_mm; mm/rmap.c anon_vma_prepare; kernel/exit.c): its
 * task_struct, its 8 KB kernel stack, its files_struct, fs_struct,
 * sighand_struct, signal_struct and mm_struct, its vm_area_structs, an anon_vma
 * for its stack and one for its heap (when it has one), its page-table pages
 * and its anonymous address space (models/mm/proc.h). */
struct mm_kproc {
	uint32_t task, stack, *vma, *pte;
	uint32_t obj[MM_KP_NOBJ];  /* PFN_NONE: its cache is not modelled */
	uint32_t nvma, npte;
	struct mm_as *as;
};

/* The slab caches a process's objects come from.  @task and @vma are needed;
 * the others may be NULL (the object is not modelled). */
struct mm_kproc_caches {
	struct mm_kcache *task, *vma;
	struct mm_kcache *files, *fs, *sighand, *signal, *mm, *anon_vma;
};

/**
 * mm_kproc_start() - a new process of @k made by @t: task_struct, kernel stack
 * (order 1), the objects of @kc's optional caches, @nvma vm_area_structs,
 * page-table pages (the pgd, the text/library and stack tables, one per 4 MB of
 * heap) and its address space.  With @parent
 * (fork): mm_as_fork() of @parent (copy-on-write), page tables for @parent's heap;
 * without (exec): a new address space whose heap of @heap_pages pages is grown
 * with brk and written once (zero-fill faults).
 * Returns: 0, or -1 if host memory ran out or the heap could not be set up (OOM);
 * @p is then still valid for mm_kproc_exit().
 */
int mm_kproc_start(struct mm_kernel *k, struct mm_task *t, struct mm_kproc *p,
		   const struct mm_kproc_caches *kc, uint32_t nvma, uint32_t heap_pages,
		   struct mm_as *parent);

/** mm_kproc_exit() - exit and reap of @p: exit_mmap, page tables, vm_area_structs,
 * anon_vmas, mm_struct, files, fs, sighand and signal, kernel stack and
 * task_struct back to their allocators.  Returns: nothing. */
void mm_kproc_exit(struct mm_kernel *k, struct mm_task *t, struct mm_kproc *p,
		   const struct mm_kproc_caches *kc);

#endif
