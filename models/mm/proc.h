/*
 * proc.h - processes' anonymous memory: address spaces with copy-on-write after
 * fork, page faults, brk, exit, SysV shared memory segments, and swap
 * (2.6.10-2.6.15 mm/memory.c, mm/rmap.c, mm/swapfile.c, mm/swap_state.c; see
 * proc.c and docs/memory.md).
 *
 * An address space (struct mm_as, the mm_struct of one process) has one
 * anonymous region (the heap, grown and shrunk by brk) described by a flat
 * page table: one 32-bit entry per page, either empty, a present page (its pfn,
 * with a read-only bit set after fork for copy-on-write) or a swap entry (the
 * slot of the swap area holding the page).  Address spaces forked from one
 * another form a family (the anon_vma): an anonymous page records its family in
 * page->mapping and its heap index in page->index, so reclaim finds every page
 * table that maps it (try_to_unmap) by walking the family.
 *
 * A shared memory segment is an address space of its own without a process: its
 * pages are faulted in by whichever attached process touches them first.
 */
#ifndef MMEMU_PROC_H
#define MMEMU_PROC_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm/kernel.h"

/* page->mapping of an anonymous page: MM_ANON_BASE + family id */
#define MM_ANON_BASE 0x80000000u

struct mm_family;

/* An address space: one anonymous region of npages pages. */
struct mm_as {
	struct mm_family *fam;
	struct mm_as *fam_next;    /* members of the family (singly linked) */
	uint32_t *pte;             /* [cap] page-table entries (see proc.c) */
	uint32_t npages;           /* region size: the brk in pages */
	uint32_t cap;
	uint32_t rss;              /* present pages */
	uint32_t nswap;            /* entries that are swap entries */
};

/* The swap area (one swap partition; scan_swap_map's next-fit allocation). */
struct mm_swap {
	int disk;
	uint64_t off;              /* byte offset of slot 0 on the disk */
	uint32_t nslots;
	uint32_t nr_free;
	uint32_t next;             /* where the next slot search starts */
	uint16_t *map;             /* swap_map[slot]: page tables + swap cache using it */
	uint32_t *cache;           /* slot -> pfn in the swap cache, or PFN_NONE */
	uint32_t *slot_of;         /* pfn -> slot, set only while PG_swapcache (page->private) */
};

/* Everything proc.c keeps per kernel (k->proc). */
struct mm_procs {
	struct mm_family **fam;    /* family id -> family (NULL: free id) */
	uint32_t nfam, capfam;
	uint32_t free_fam;         /* lowest possibly free id */
	struct mm_swap swap;       /* nslots == 0: no swap configured */
	uint64_t forks, execs, exits, cow_copies, cow_reuses, zero_fills;
	uint64_t swap_outs, swap_ins, swap_full;
};

/* The most swap slots an area may have: a swapped-out page-table entry keeps its
 * slot in the 30 bits a present one keeps its pfn in (proc.c, PTE_PFN_MASK). */
#define MM_SWAP_MAX_SLOTS 0x3fffffffu

struct mm_swap_cfg {
	uint64_t size;             /* bytes; 0 = no swap */
	int disk;                  /* machine disk index */
	uint64_t off;              /* byte offset on that disk */
};

/**
 * mm_proc_init() - set up anonymous memory and the swap area for @k.
 * Returns: 0, or -1 with @e set (out of memory, swap larger than its disk).
 */
int mm_proc_init(struct mm_kernel *k, const struct mm_swap_cfg *c, struct mm_err *e);

/** mm_swap_enabled() - Returns: true if @k has a swap area. */
bool mm_swap_enabled(const struct mm_kernel *k);

/** mm_proc_fini() - free what mm_proc_init() set up (address spaces must be gone). */
void mm_proc_fini(struct mm_kernel *k);

/**
 * mm_as_new() - an empty address space in a new family (exec: a new mm).
 * Returns: the address space, or NULL if memory ran out.
 */
struct mm_as *mm_as_new(struct mm_kernel *k, struct mm_task *t);

/**
 * mm_as_fork() - copy_page_range() of @parent into a new member of its family:
 * present pages are shared read-only (copy-on-write) in both, swap entries gain a
 * user.  Charges per entry copied.
 * Returns: the child's address space, or NULL if memory ran out.
 */
struct mm_as *mm_as_fork(struct mm_kernel *k, struct mm_task *t, struct mm_as *parent);

/**
 * mm_as_exit() - exit_mmap(): unmap every entry (pages freed through
 * release_pages, swap slots released) and free @as.
 */
void mm_as_exit(struct mm_kernel *k, struct mm_task *t, struct mm_as *as);

/**
 * mm_brk() - set the region to @npages pages: growing only reserves page-table
 * room (pages come at the first touch), shrinking unmaps the tail
 * (zap_page_range).
 * Returns: 0, or -1 if memory ran out (the region is unchanged).
 */
int mm_brk(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t npages);

/**
 * mm_touch() - user accesses of pages [@first, @first+@n) of @as by @t (every page
 * once, in order; @write for stores).  A present page costs nothing and sets its
 * referenced (young) bit; an empty entry is a minor fault (zero-filled page,
 * lru_cache_add_active); a swap entry is a major fault unless the page is still
 * in the swap cache (do_swap_page); a store to a copy-on-write page copies it
 * unless this address space is the only mapper (do_wp_page).  Pages beyond the
 * region are not touched.
 * Returns: the number of faults taken, or -1 if an allocation failed (OOM).
 */
int64_t mm_touch(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t first,
		 uint32_t n, bool write);

/**
 * mm_as_pfn() - the page-table entry of heap page @idx of @as, as a TLB refill
 * reads it (models/hw/cache.h).
 * Returns: the frame of a present page, or PFN_NONE (empty, swapped, beyond).
 */
uint32_t mm_as_pfn(const struct mm_as *as, uint32_t idx);

/**
 * mm_anon_reclaim() - shrink_list()'s steps for an anonymous page @pfn that
 * reclaim chose to evict: add_to_swap() if it has no slot yet, then
 * try_to_unmap() over its family.  Called by mm_shrink_list().
 * Returns: true if the page is now unmapped and in the swap cache (dirty pages
 * are then written by pageout), false to keep it (no swap, swap full).
 */
bool mm_anon_reclaim(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_swapcache_remove() - __delete_from_swap_cache() of @pfn and swap_free() of
 * its slot; the page is about to be freed by reclaim.
 */
void mm_swapcache_remove(struct mm_kernel *k, uint32_t pfn);

/**
 * mm_swap_writepage() - the disk position of swap-cache page @pfn.
 * Returns: true and the disk and byte offset, or false if @pfn is not in the
 * swap cache.
 */
bool mm_swap_where(struct mm_kernel *k, uint32_t pfn, int *disk, uint64_t *off);

/** mm_proc_metrics() - add fork/fault/COW/swap counters to @s's metrics. */
void mm_proc_metrics(struct mm_kernel *k, struct sim *s);

/**
 * mm_proc_check() - invariants: every present entry maps a live anonymous page of
 * its family whose mapcount equals the number of entries mapping it; swap_map
 * counts equal the entries + swap-cache pages using each slot.
 * Returns: 0, or -1 with @e naming the first broken one.
 */
int mm_proc_check(struct mm_kernel *k, struct mm_err *e);

#endif
