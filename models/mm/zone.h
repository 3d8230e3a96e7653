/*
 * zone.h - the machine's physical memory: page array, zones, watermarks, zonelists.
 *
 * struct mm_phys is built from a machine description (struct mm_phys_cfg, loaded
 * through the mm_phys_params table) the way Linux 2.6.14/2.6.15 builds its zones at
 * boot: zone boundaries per architecture, pages reserved by the kernel, then
 * min_free_kbytes, pages_min/low/high, lowmem_reserve and the per-CPU page-list
 * sizes (kernel-mechanisms.md 0.1; docs/memory.md has the numbers for the seed
 * machines).  The zone layout is the 2.6.15 one on every architecture:
 * DMA, DMA32, Normal, HighMem (+ EasyRclm for the zone-based anti-fragmentation
 * series, empty unless kernelcore is set); empty zones have present == 0 and are
 * left out of the zonelists.
 *
 * The free-list layout belongs to the allocator module (models/alloc/alloc.h), but
 * the zone keeps the counters every policy reads: free_pages (pages in free buddy
 * blocks, NOT counting the per-CPU lists, as in 2.6.14), nr_free[order] (free
 * blocks per order, all allocation types together, read by zone_watermark_ok()),
 * and the per-CPU hot/cold lists.  An allocator module must keep free_pages and
 * nr_free[] exact.
 */
#ifndef MMEMU_ZONE_H
#define MMEMU_ZONE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "models/mm/page.h"
#include "models/mm/vmstat.h"

#define MM_MAX_ORDER 11         /* upper bound on any allocator's MAX_ORDER (2.6: 11) */
#define MM_MAX_CPUS 64
#define MM_DEF_PRIORITY 12      /* DEF_PRIORITY [K2614] */
#define MM_SWAP_CLUSTER_MAX 32  /* SWAP_CLUSTER_MAX [K2614] */

/*
 * Largest machine.memory.  64-bit machines (x86_64, alpha, flat): 2 TiB, which is
 * 2^29 pages of 4 KiB (2^28 of 8 KiB).  The bound is the model's, not a kernel's: a
 * pfn is 32 bits (PFN_NONE = UINT32_MAX) and the page-table entries of proc.c and
 * fmap.c keep pfn + 1 in 30 bits (both static_assert it), and the host needs 32 bytes
 * per page (struct page), 16 GiB at 2 TiB.  i386 stops at 64 GiB: PAE's 36-bit
 * physical addresses [KM 0.1].
 */
#define MM_MAX_MEMORY (2048ull << 30)
#define MM_MAX_MEMORY_I386 (64ull << 30)

enum mm_arch { MM_ARCH_I386, MM_ARCH_X86_64, MM_ARCH_ALPHA, MM_ARCH_FLAT, MM_NR_ARCH };

/* Zone indexes, as in 2.6.15 (+ ZONE_EASYRCLM of the zone-based series [A3]). */
enum mm_zone_idx {
	MM_ZONE_DMA,
	MM_ZONE_DMA32,
	MM_ZONE_NORMAL,
	MM_ZONE_HIGHMEM,
	MM_ZONE_EASYRCLM,
	MM_NR_ZONES
};

enum mm_wmark_style { MM_WMARK_26, MM_WMARK_24 };

/* Per-CPU page list (struct per_cpu_pages). */
struct mm_pcp {
	uint32_t count;      /* pages on the list */
	uint32_t low;        /* refill when count <= low (0 in 2.6.14) */
	uint32_t high;       /* drain batch pages when count >= high */
	uint32_t batch;      /* pages moved per refill / drain */
	struct plist list;   /* head = hot end (LIFO) */
};

/* pcp[0] hot, pcp[1] cold (struct per_cpu_pageset). */
struct mm_pageset {
	struct mm_pcp pcp[2];
};

struct mm_phys;

struct zone {
	const char *name;               /* "DMA", "DMA32", "Normal", "HighMem", "EasyRclm" */
	int idx;                        /* enum mm_zone_idx */
	struct mm_phys *phys;
	bool highmem;                   /* is_highmem(): HighMem, EasyRclm */

	uint32_t start_pfn;
	uint32_t spanned;               /* pfns from start_pfn to the end */
	uint32_t present;               /* pages that exist (no holes modelled: == spanned) */
	uint32_t reserved;              /* PG_reserved pages (kernel image, mem_map, bootmem) */

	/* ---- counters kept by the allocator module ---- */
	uint32_t free_pages;            /* pages in free buddy blocks (pcp pages excluded) */
	uint32_t nr_free[MM_MAX_ORDER]; /* free blocks per order, all types */
	uint32_t nr_pcp;                /* pages on all per-CPU lists of this zone */
	struct mm_pageset *pageset;     /* [phys->ncpus] */

	/* ---- watermarks ---- */
	uint32_t pages_min, pages_low, pages_high;
	uint32_t lowmem_reserve[MM_NR_ZONES]; /* kept back from allocations of class > idx */

	/* ---- reserved for reclaim (kept by the reclaim core / modules) ---- */
	uint32_t nr_active;             /* pages on reclaim lists: nr_active + nr_inactive */
	uint32_t nr_inactive;           /*   == pages with PG_lru in this zone (mm_check) */
	uint64_t pages_scanned;
	uint64_t nr_scan_active;
	uint64_t nr_scan_inactive;
	int all_unreclaimable;
	int prev_priority;
	int temp_priority;
	void *reclaim_priv;             /* reclaim module's per-zone state */
};

/* Machine description for physical memory (loaded through mm_phys_params). */
struct mm_phys_cfg {
	int arch;                       /* enum mm_arch */
	uint64_t memory;                /* usable memory in bytes (mem=) */
	uint64_t page_size;             /* 0 = architecture default */
	uint64_t kernel_reserved;       /* bytes reserved from pfn 0 up (image, bootmem) */
	int64_t struct_page_bytes;      /* sizeof(kernel struct page) for mem_map; -1 = arch */
	int64_t cpus;
	int64_t min_free_kbytes;        /* 0 = computed from lowmem */
	int watermark_style;            /* enum mm_wmark_style */
	struct mm_intlist lowmem_reserve_ratio; /* per zone index, DMA.. */
	uint64_t kernelcore;            /* 0 = no EasyRclm zone; else non-EasyRclm memory */
	uint64_t idle_footprint;        /* bytes a booted idle box holds outside the page cache */
};

extern const struct mm_param mm_phys_params[];
extern const char *const mm_arch_names[];

struct alloc;

struct mm_phys {
	struct mm_phys_cfg cfg;
	struct page *pages;             /* [nr_pages], pfn 0 = physical address 0 */
	uint32_t nr_pages;
	uint32_t page_size;
	unsigned page_shift;
	uint32_t ncpus;
	uint32_t min_free_kbytes;       /* effective value */
	uint32_t reserved_image;        /* pages reserved for kernel_reserved */
	uint32_t reserved_memmap;       /* pages reserved for mem_map */
	uint32_t reserved_idle;         /* pages of idle_footprint, right after mem_map */
	struct zone zones[MM_NR_ZONES];
	/* zonelists[c]: non-empty zones of index <= c, highest first, NULL-terminated */
	struct zone *zonelists[MM_NR_ZONES][MM_NR_ZONES + 1];
	struct alloc *alloc;            /* the allocator attached by alloc_create() */
	struct mm_vmstat *vs;           /* event counters (may be NULL) */
};

/**
 * mm_phys_check_memory() - the architecture's limit on @cfg->memory (2 TiB, 64 GiB
 * on i386), checked by mm_phys_layout() and when a scenario's machine is loaded.
 * @path: the JSON path named in the error ("machine.memory")
 * Returns: 0, or -1 with @e set to "FILE: PATH: expected at most ...".
 */
int mm_phys_check_memory(const struct mm_phys_cfg *cfg, const char *file, const char *path,
			 struct mm_err *e);

/**
 * mm_phys_layout() - the boot-time arithmetic of mm_phys_init() without the page
 * array: zone boundaries, reserved page counts, min_free_kbytes, watermarks,
 * lowmem_reserve, per-CPU list sizes and zonelists.  O(zones), so a 2 TiB machine is
 * laid out without 16 GiB of struct pages; phys->pages stays NULL.
 * @phys: zeroed or uninitialised storage; filled in (free with mm_phys_fini())
 * @cfg: machine description (normally filled by mm_params_load(mm_phys_params, ...))
 * @e: error out
 * Returns: 0, or -1 with @e naming the offending parameter (machine.memory, ...).
 */
int mm_phys_layout(struct mm_phys *phys, const struct mm_phys_cfg *cfg, struct mm_err *e);

/**
 * mm_phys_init() - mm_phys_layout(), then the page array.
 * @phys: zeroed or uninitialised storage; filled in
 * @cfg: machine description (normally filled by mm_params_load(mm_phys_params, ...))
 * @e: error out
 *
 * Every page starts either PG_reserved (count 1) or unowned (count 0, on no list):
 * attach an allocator with alloc_create() to put the unreserved pages on its free
 * lists.
 * Returns: 0, or -1 with @e naming the offending parameter (machine.memory, ...).
 */
int mm_phys_init(struct mm_phys *phys, const struct mm_phys_cfg *cfg, struct mm_err *e);

/** mm_phys_fini() - free what mm_phys_init() allocated (safe on a failed init). */
void mm_phys_fini(struct mm_phys *phys);

/**
 * mm_phys_setup_watermarks() - recompute min_free_kbytes, pages_min/low/high and
 * lowmem_reserve from phys->cfg (setup_per_zone_pages_min +
 * setup_per_zone_lowmem_reserve); called by mm_phys_init() and after a sysctl-style
 * change of cfg.min_free_kbytes or cfg.lowmem_reserve_ratio.
 */
void mm_phys_setup_watermarks(struct mm_phys *phys);

/**
 * zone_watermark_ok() - 2.6.14 zone_watermark_ok(), exactly.
 * @z: the zone
 * @order: allocation order
 * @mark: pages_low / pages_min / pages_high
 * @classzone_idx: index of the first zone of the allocation's zonelist
 * @can_try_harder: RT task or atomic allocation (min -= min/4)
 * @gfp_high: __GFP_HIGH (min -= min/2)
 * Returns: true if @z has enough free pages above @mark for an order-@order block.
 */
bool zone_watermark_ok(const struct zone *z, unsigned order, uint32_t mark, int classzone_idx,
		       bool can_try_harder, bool gfp_high);

/** mm_zone_of() - Returns: the zone of @pfn. */
static inline struct zone *mm_zone_of(struct mm_phys *phys, uint32_t pfn)
{
	return &phys->zones[phys->pages[pfn].zone];
}

/** mm_zone_empty() - Returns: true if @z has no pages. */
static inline bool mm_zone_empty(const struct zone *z)
{
	return z->present == 0;
}

/** mm_zonelist() - Returns: the NULL-terminated fallback list for GFP zone class @cls. */
static inline struct zone *const *mm_zonelist(const struct mm_phys *phys, int cls)
{
	return phys->zonelists[cls];
}

/** mm_phys_zoneinfo() - Returns: new JSON array, one object per non-empty zone
 * (name, start_pfn, spanned, present, managed, reserved, free, pcp, min, low, high,
 * lowmem_reserve[], pcp batch/high), like /proc/zoneinfo. */
json_t *mm_phys_zoneinfo(const struct mm_phys *phys);


/** mm_phys_free_pages() - Returns: free pages of all zones (buddy only, as nr_free_pages()). */
uint64_t mm_phys_free_pages(const struct mm_phys *phys);

#endif
