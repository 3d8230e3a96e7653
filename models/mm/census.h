/*
 * census.h - what holds each pageblock of a zone (census.c): per block, the page
 * kinds in it and the one that pins it.
 */
#ifndef MMEMU_CENSUS_H
#define MMEMU_CENSUS_H

#include <stdint.h>

#include "models/mm/kernel.h"

/* Page kinds, the hardest to give back first: a block is pinned by the first
 * kind it holds a page of. */
enum mm_census_kind {
	MM_CEN_RESERVED,    /* PG_reserved: kernel image, mem_map, bootmem */
	MM_CEN_STACK,       /* kernel stacks */
	MM_CEN_PTE,         /* page-table pages */
	MM_CEN_KERNEL,      /* other kernel pages (no slab, no mapping, on no list) */
	MM_CEN_SLAB,        /* slab pages of caches shrink_slab cannot shrink */
	MM_CEN_SLAB_RCLM,   /* slab pages of the dentry and inode caches */
	MM_CEN_JOURNAL,     /* metadata (block device) pages dirty, under writeback or journalled */
	MM_CEN_ANON,        /* anonymous user pages */
	MM_CEN_META,        /* clean metadata pages */
	MM_CEN_FILE_DIRTY,  /* dirty or under-writeback file pages */
	MM_CEN_FILE,        /* clean file pages */
	MM_CEN_FREE,        /* free (buddy lists, per-CPU lists) */
	MM_CEN_NR
};

extern const char *const mm_census_names[MM_CEN_NR];

/* One zone's census. */
struct mm_census {
	uint32_t blocks;                        /* whole blocks of the zone */
	uint32_t pin[MM_CEN_NR];                /* blocks pinned by each kind */
	uint32_t in[MM_CEN_NR];                 /* blocks holding a page of each kind */
	uint64_t pages[MM_CEN_NR];              /* pages of each kind (whole blocks only) */
	uint32_t slab_pin[MM_MAX_KCACHES];      /* blocks pinned by each slab cache */
	uint32_t slab_in[MM_MAX_KCACHES];
	uint64_t slab_pages[MM_MAX_KCACHES];
};

/**
 * mm_census_kind() - the kind of the allocated or free block headed by @pfn of @k
 * (a free buddy block's head, a per-CPU page, an allocated block's head page).
 * Returns: the kind; *@cache is the slab cache id for MM_CEN_SLAB and
 * MM_CEN_SLAB_RCLM.
 */
enum mm_census_kind mm_census_kind(const struct mm_kernel *k, uint32_t pfn, unsigned *cache);

/**
 * mm_census_zone() - count zone @zone of @k block by block, a block being
 * 2^@order pages aligned on the zone's start (a partial last block is left out).
 * The pinner of a block is the first kind (enum order) it holds; a slab block's
 * cache is the one with the most pages in it (the lowest id on a tie).
 * Returns: 0, or -1 if @zone or @order is out of range (@out is then zeroed).
 */
int mm_census_zone(const struct mm_kernel *k, int zone, unsigned order, struct mm_census *out);

/**
 * mm_census_metrics() - mm_census_zone() of every present zone of @k, recorded as
 * metrics of @s named census_@when_ZONE_blocks (whole blocks) and, for each kind
 * or slab cache with a non-zero count, census_@when_ZONE_pin_KIND (blocks it pins),
 * ..._in_KIND (blocks holding it) and ..._pages_KIND; ZONE lower-case, a slab
 * cache's KIND is cache_NAME (besides its kind, slab or slab_rclm).
 * Returns: nothing.
 */
void mm_census_metrics(const struct mm_kernel *k, struct sim *s, const char *when, unsigned order);

/**
 * mm_frag_series() - append to @s's series, at time @t, each present zone's free
 * order->=@order blocks (free_blocks_ZONE), its unusable-free index (the share of
 * free pages not in such blocks: unusable_index_ZONE) and the allocator's
 * fragmentation index at @order (frag_index_ZONE).  Returns: nothing.
 */
void mm_frag_series(const struct mm_kernel *k, struct sim *s, double t, unsigned order);

/** mm_buddyinfo_series() - /proc/buddyinfo of @k as series buddyinfo_@when_ZONE of
 * @s (x the order, y the free blocks).  Returns: nothing. */
void mm_buddyinfo_series(const struct mm_kernel *k, struct sim *s, const char *when);

#endif
