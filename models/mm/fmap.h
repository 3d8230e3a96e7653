/*
 * fmap.h - shared file mappings: mmap() of a page-cache file into a process,
 * the page-fault path of the page cache (2.6.15 filemap_nopage + do_no_page),
 * reverse mapping of file pages for reclaim (try_to_unmap_file over the file's
 * i_mmap) and munmap (see fmap.c and docs/memory.md, "File mappings").
 *
 * A mapping (struct mm_fmap, one VMA of one process) maps pages [0, npages) of
 * an mm_file with MAP_SHARED semantics through its own flat page table: one
 * 32-bit entry per page, empty or a present page (its pfn) with a dirty bit.
 * Every mapping of a file is on the file's list of mappers (mm_file.i_mmap), so
 * reclaim finds each entry mapping a page from page->mapping and page->index.
 */
#ifndef MMEMU_FMAP_H
#define MMEMU_FMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm/kernel.h"

/* mm_fmap_create() flags */
#define MM_FMAP_RANDOM 0x1u   /* madvise(MADV_RANDOM): VM_RandomReadHint, no read-around */
#define MM_FMAP_LOCKED 0x2u   /* mlock(): VM_LOCKED, try_to_unmap fails (SWAP_FAIL) */

/* 2.6.15 filemap.c: stop read-around when misses exceed hits by this much */
#define MM_MMAP_LOTSAMISS 100

struct mm_fmap {
	struct mm_file *file;
	struct mm_fmap *i_mmap_next;  /* next mapper of the same file */
	uint32_t *pte;                /* [npages]: 0 empty, else (pfn + 1) | dirty bit */
	uint32_t npages;
	uint32_t rss;                 /* present entries */
	unsigned flags;               /* MM_FMAP_* */
	/* file_ra_state's mmap fields (per struct file in 2.6.15, per mapping here) */
	uint32_t mmap_hit, mmap_miss;
	/* counters */
	uint64_t minflt, majflt;      /* faults served from the cache / needing a read */
	uint64_t readarounds;         /* read-around windows issued */
	uint64_t pages_read;          /* pages this mapping's faults read from disk */
	uint64_t reclaim_unmaps;      /* entries cleared by reclaim (try_to_unmap) */
	uint64_t reclaim_locked;      /* try_to_unmap refused: VM_LOCKED (SWAP_FAIL) */
};

/**
 * mm_fmap_create() - mmap(MAP_SHARED) of pages [0, @npages) of @f by task @t
 * (clipped to the file's size), with MM_FMAP_* @flags.  No page is mapped yet:
 * pages come at the first touch.  Charges the system call and the VMA set-up.
 * Returns: the mapping, or NULL if @f is NULL, @npages (after clipping) is 0,
 * or memory ran out.
 */
struct mm_fmap *mm_fmap_create(struct mm_kernel *k, struct mm_task *t, struct mm_file *f,
			       uint32_t npages, unsigned flags);

/**
 * mm_fmap_touch() - user accesses of pages [@first, @first+@n) of @map by @t
 * (each page once, in order; @write for stores).  A present entry costs nothing
 * and sets the page's young bit (PG_referenced), a store also the entry's dirty
 * bit.  An empty entry is a page fault served by filemap_nopage(): a page found
 * in the page cache is a minor fault; a missing one is read (a major fault),
 * with a read-around window of ra_pages centred on it unless the mapping is
 * MM_FMAP_RANDOM or misses exceed hits by MM_MMAP_LOTSAMISS; then
 * mark_page_accessed() and page_add_file_rmap().  Pages beyond the mapping are
 * not touched.
 * Returns: the number of faults taken, or -1 if @map is NULL or a page could not
 * be brought in (allocation failure / OOM).
 */
int64_t mm_fmap_touch(struct mm_kernel *k, struct mm_task *t, struct mm_fmap *map, uint32_t first,
		      uint32_t n, bool write);

/**
 * mm_fmap_pfn() - what entry @i of @map maps (a walk of its page table, no fault).
 * Returns: the page's pfn, or PFN_NONE when the entry is empty or beyond the mapping.
 */
uint32_t mm_fmap_pfn(const struct mm_fmap *map, uint32_t i);

/**
 * mm_fmap_unmap_page() - try_to_unmap_file() for page-cache page @pfn: walk the
 * file's mappers (i_mmap) and clear every entry mapping @pfn; a dirty entry's
 * dirty bit moves to the page (set_page_dirty).  Called by mm_shrink_list() for
 * a mapped file page chosen for eviction.
 * A VM_LOCKED mapping (MM_FMAP_LOCKED) is never unmapped: the walk stops there
 * (try_to_unmap_one returns SWAP_FAIL) and the page stays mapped, so shrink_list
 * activates it; mappers before it on the list are unmapped, as in 2.6.15.
 * Returns: true if the page is no longer mapped, false if it is still mapped or
 * is not a mapped page-cache page of a file (anonymous, bad pfn).
 */
bool mm_fmap_unmap_page(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_fmap_destroy() - munmap() / exit of @map: unmap every entry (dirty bits move
 * to the pages), drop the entries' references through release_pages, leave the
 * file's i_mmap and free @map.  Nothing if @map is NULL.
 */
void mm_fmap_destroy(struct mm_kernel *k, struct mm_task *t, struct mm_fmap *map);

/**
 * mm_fmap_free_all() - free the mappings still on @f's list of mappers, without
 * unmapping anything: for the kernel's teardown, when a run stopped at
 * engine.max_time ended their processes before their munmap.
 * Returns: nothing.
 */
void mm_fmap_free_all(struct mm_file *f);

/**
 * mm_fmap_count_maps() - add to @maps[pfn] one per file-mapping entry mapping
 * pfn (for mm_proc_check(), which compares page mapcounts with page tables).
 */
void mm_fmap_count_maps(const struct mm_kernel *k, int32_t *maps);

/**
 * mm_fmap_check() - invariants of every file mapping: each present entry maps
 * the cached page of its file at its index, the page holds a reference per
 * entry besides the page cache's, rss counts the entries, every page-cache
 * page's mapcount equals its file entries, and nr_mapped equals the pages with
 * a mapcount (anonymous included).
 * Returns: 0, or -1 with @e naming the first broken invariant.
 */
int mm_fmap_check(struct mm_kernel *k, struct mm_err *e);

#endif
