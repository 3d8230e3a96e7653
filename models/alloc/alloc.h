/*
 * alloc.h - the page-allocator policy interface and the zoned __alloc_pages() core.
 *
 * An allocator module owns the free lists of every zone of one struct mm_phys (its
 * layout is private: one list per order for buddy, per type and order for the
 * list-based anti-fragmentation series, ...).  It must keep the zone counters
 * exact: z->free_pages (pages in free blocks), z->nr_free[order] (free blocks of
 * each order, all types together) and z->nr_pcp, and mark pages: PG_buddy + order on
 * the head of each free block, PG_pcp on pages on per-CPU lists.
 *
 * Methods (version 1):
 *   init(a)          put every unreserved page of a->phys on the free lists
 *   alloc(a, z, order, type, cpu, cold)
 *                    take a 2^order block from zone z (buffered_rmqueue: order 0
 *                    through the per-CPU list of @cpu) - no watermark checks here
 *   free(a, pfn, order, cpu, cold)
 *                    give a block back (order 0 through the per-CPU list)
 *   free_count(a, z, order)   free blocks of an order (optional; default nr_free)
 *   frag_index(a, z, order)   fragmentation index (optional; default generic)
 *   drain(a, cpu)    return per-CPU pages to the buddy lists (optional)
 *   check(a, e)      verify the private lists against the page flags (optional)
 * Methods (version 2, appended for seed 003):
 *   zone_class(a, cls, type)  the GFP zone class an allocation of @type asked
 *                    as @cls really uses (optional; default @cls): zbuddy sends
 *                    easily reclaimable HighMem requests to ZONE_EASYRCLM
 *   alloc_failed(a, order, cpu)  a high-order request failed both watermark
 *                    passes; the module may free what it parks (mbuddy drains
 *                    per-CPU EASY pages) and return true to have pass 2 retried
 *
 * The core calls modules only through the alloc_*() wrappers, which count calls into
 * vm events (ALLOC_CALLS, FREE_CALLS) and supply defaults for optional methods.
 * Watermarks, lowmem_reserve and zonelist fallback are the core's job:
 * mm_alloc_pages() below is 2.6.14's __alloc_pages() up to the point where it would
 * reclaim, and returns MM_ALLOC_NEED_RECLAIM there; the reclaim core calls back with
 * MM_ALLOC_AFTER_RECLAIM or MM_ALLOC_LAST_TRY (kernel-mechanisms.md 0.1).
 */
#ifndef MMEMU_ALLOC_H
#define MMEMU_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "models/mm/zone.h"
#include "models/mm/vmstat.h"

#define ALLOC_OPS_VERSION 3

struct alloc;

struct alloc_ops {
	int version;                   /* ALLOC_OPS_VERSION the module implements */
	const char *name;              /* registry key, unique */
	const char *desc;              /* one line for `mmemu list` */
	const struct mm_param *params; /* parameter table or NULL */
	size_t cfg_size;               /* size of the config struct */
	size_t priv_size;              /* size of the private state (core allocates, zeroed) */

	/* ---- version 1 ---- */
	/* Set a->max_order if not MM_MAX_ORDER; free all unreserved pages.
	 * Returns: 0 or -1 with @e set. */
	int (*init)(struct alloc *a, struct mm_err *e);
	void (*fini)(struct alloc *a);                      /* optional */
	/* Returns: first pfn of a 2^order block from @z, or PFN_NONE. */
	uint32_t (*alloc)(struct alloc *a, struct zone *z, unsigned order, int alloc_type,
			  int cpu, bool cold);
	void (*free)(struct alloc *a, uint32_t pfn, unsigned order, int cpu, bool cold);
	/* optional; default z->nr_free[order] */
	uint32_t (*free_count)(const struct alloc *a, const struct zone *z, unsigned order);
	/* optional; default alloc_frag_index_generic() */
	double (*frag_index)(const struct alloc *a, const struct zone *z, unsigned order);
	/* optional: drain the per-CPU lists of @cpu (-1 = all CPUs) back to the free lists */
	void (*drain)(struct alloc *a, int cpu);
	/* optional: check private lists. Returns: 0 or -1 with @e naming the pfn. */
	int (*check)(const struct alloc *a, struct mm_err *e);
	/* ---- version 2 (seed 004, page colouring) ---- */
	/* optional: take the free page @pfn off the free lists, splitting the free
	 * block that holds it and filing the other halves on their lists (the split
	 * of Jason Papadopoulos' colour allocator, kernel-mechanisms.md 5.3), and
	 * prepare it as an allocated order-0 page of @alloc_type.
	 * Returns: 0, or -1 if @pfn is not in a free block of the buddy lists. */
	int (*take)(struct alloc *a, uint32_t pfn, int alloc_type);

	/* ---- version 3 (seed 003, anti-fragmentation) ---- */
	/* optional. Returns: the zone class to use for @type asked as @cls. */
	int (*zone_class)(const struct alloc *a, int cls, int alloc_type);
	/* optional. Returns: true if it freed parked pages (retry the pass). */
	bool (*alloc_failed)(struct alloc *a, unsigned order, int cpu);
};

/* Counters a lock / cost model reads (modules fill what applies). */
struct alloc_stats {
	uint64_t zone_lock[MM_NR_ZONES]; /* zone->lock acquisitions */
	uint64_t locked_pages;           /* pages moved under zone->lock */
	uint64_t pcp_refill;             /* per-CPU refills (rmqueue_bulk) */
	uint64_t pcp_drain;              /* per-CPU drains (free_pages_bulk) */
	uint64_t pcp_alloc;              /* order-0 allocations served from a per-CPU list */
	uint64_t pcp_free;               /* order-0 frees onto a per-CPU list */
	uint64_t splits;                 /* block halvings in expand() */
	uint64_t merges;                 /* buddy coalescings */
	uint64_t bad_free;               /* frees of free/reserved pages, ignored (bad_page) */
	/* anti-fragmentation bookkeeping the stock allocator does not do
	 * (kernel-mechanisms.md 4.4; mbuddy), charged by page_alloc.c to the task */
	uint64_t usemap_reads;           /* a block's type read from the usemap (page_op) */
	uint64_t usemap_bitops;          /* usemap bits set or cleared: set_bit/clear_bit (atomic) */
	uint64_t list_probes;            /* free lists probed beyond the own type's (page_op) */
};

struct alloc {
	const struct alloc_ops *ops;
	void *cfg;
	void *priv;
	struct mm_phys *phys;
	struct mm_vmstat *vs;
	unsigned max_order;              /* MAX_ORDER: orders 0..max_order-1 */
	struct alloc_stats st;
	/* optional observer of the buddy free lists (seed 004's colour lists,
	 * models/coloring): called after the block of @order at @pfn went on (@on)
	 * or came off a free list; modules call it through alloc_watch() */
	void (*watch)(void *ctx, uint32_t pfn, unsigned order, bool on);
	void *watch_ctx;
};

static inline void alloc_watch(struct alloc *a, uint32_t pfn, unsigned order, bool on)
{
	if (a->watch)
		a->watch(a->watch_ctx, pfn, order, on);
}

/** alloc_find() - Returns: the module called @name, or NULL. */
const struct alloc_ops *alloc_find(const char *name);

/** alloc_modules() - Returns: the NULL-terminated registry, in listing order. */
const struct alloc_ops *const *alloc_modules(void);

/**
 * alloc_register() - add a plugin's module @ops to the registry (emu/plugin).
 * Returns: 0, or -1 with @e set (unsupported version, missing method, name taken).
 */
int alloc_register(const struct alloc_ops *ops, struct mm_err *e);

/**
 * alloc_create() - instantiate allocator @name over @phys and attach it (phys->alloc).
 * @params: JSON object of module parameters (may be NULL); key "module" is ignored
 * @vs: event counters (may be NULL)
 * @file, @path: where @params came from, for messages ("kernels.clean.alloc")
 * Returns: the instance, or NULL with @e set (unknown module: lists the valid names).
 */
struct alloc *alloc_create(const char *name, json_t *params, struct mm_phys *phys,
			   struct mm_vmstat *vs, const char *file, const char *path,
			   struct mm_err *e);

/** alloc_destroy() - detach from phys and free (NULL is fine). */
void alloc_destroy(struct alloc *a);

/** alloc_params_json() - Returns: new JSON object of effective parameters (with "module"). */
json_t *alloc_params_json(const struct alloc *a);

/** alloc_stats_json() - Returns: new JSON object of a->st. */
json_t *alloc_stats_json(const struct alloc *a);

/* ---- wrappers: the only way the core calls a module ---- */

static inline uint32_t alloc_rmqueue(struct alloc *a, struct zone *z, unsigned order,
				     int alloc_type, int cpu, bool cold)
{
	mm_count(a->vs, MM_ALLOC_CALLS, 1);
	if (order >= a->max_order)
		return PFN_NONE;
	return a->ops->alloc(a, z, order, alloc_type, cpu, cold);
}

static inline void alloc_free(struct alloc *a, uint32_t pfn, unsigned order, int cpu, bool cold)
{
	mm_count(a->vs, MM_FREE_CALLS, 1);
	a->ops->free(a, pfn, order, cpu, cold);
}

static inline unsigned alloc_max_order(const struct alloc *a)
{
	return a->max_order;
}

/**
 * alloc_take() - take free page @pfn off the module's lists (ops->take).
 * Returns: 0, or -1 if the module cannot (no take method, or @pfn not free).
 */
static inline int alloc_take(struct alloc *a, uint32_t pfn, int alloc_type)
{
	if (a->ops->version < 2 || !a->ops->take)
		return -1;
	mm_count(a->vs, MM_ALLOC_CALLS, 1);
	return a->ops->take(a, pfn, alloc_type);
}

/** alloc_free_count() - Returns: free blocks of @order in @z. */
uint32_t alloc_free_count(const struct alloc *a, const struct zone *z, unsigned order);

/**
 * alloc_frag_index_generic() - fragmentation index of @z for an @order request
 * (Mel Gorman's definition, later mainline __fragmentation_index()).
 * Returns: -1.0 if a free block of order >= @order exists (no failure due to
 * fragmentation); 0.0 if there is no free memory at all; otherwise
 * 1 - (1 + free_pages / 2^order) / free_blocks in [0, 1): near 1 = the failure is
 * due to fragmentation, near 0 = due to lack of memory.
 */
double alloc_frag_index_generic(const struct alloc *a, const struct zone *z, unsigned order);

/** alloc_frag_index() - Returns: the module's fragmentation index, or the generic one. */
double alloc_frag_index(const struct alloc *a, const struct zone *z, unsigned order);

/** alloc_drain() - drain per-CPU lists of @cpu (-1 = all) if the module has them. */
void alloc_drain(struct alloc *a, int cpu);

/**
 * alloc_free_check() - free_pages_check() at a module's free entry: the block must
 * lie inside memory, be aligned to its order, come from a CPU that exists, and its
 * head be neither free (PG_buddy, PG_pcp), reserved nor on an LRU list (bad_page).
 * Returns: true when the free may go on; false after counting it in bad_free.
 */
bool alloc_free_check(struct alloc *a, uint32_t pfn, unsigned order, int cpu);

/**
 * alloc_pcp_add() - free_hot_cold_page(): file the order-0 page @pfn at the head of
 * @cpu's hot or cold list of @z.  Returns: that list when it has reached its high
 * mark (one zone->lock hold and one drain counted: the caller frees a batch from
 * its tail), else NULL.
 */
struct mm_pcp *alloc_pcp_add(struct alloc *a, struct zone *z, uint32_t pfn, int cpu, bool cold);

/**
 * alloc_for_each_pcp() - drain_pages(): for each non-empty per-CPU hot and cold
 * list of @cpu (-1 = every CPU) in every zone, count one zone->lock hold and one
 * drain and call @fn(@a, zone, list, @arg), which frees what it chooses from it.
 * Returns: nothing.
 */
void alloc_for_each_pcp(struct alloc *a, int cpu,
			void (*fn)(struct alloc *a, struct zone *z, struct mm_pcp *pcp, void *arg),
			void *arg);

/** alloc_prep_block() - prep_new_page(): reset the 2^@order pages at @pfn as a
 * fresh allocation of @type (head count 1, order recorded). */
void alloc_prep_block(struct alloc *a, uint32_t pfn, unsigned order, int type);

/** alloc_clear_block() - free_pages_check() + reset: the block becomes plain free
 * memory (flags but PG_highmem cleared; alloc_type kept, mbuddy reads it). */
void alloc_clear_block(struct alloc *a, uint32_t pfn, unsigned order);

/** alloc_zone_class() - Returns: the zone class an @alloc_type request for @cls uses. */
int alloc_zone_class(const struct alloc *a, int cls, int alloc_type);

/** alloc_check() - Returns: 0, or -1 with @e set if the module's lists are inconsistent. */
int alloc_check(const struct alloc *a, struct mm_err *e);

/* ---- __alloc_pages ---- */

/* GFP and task flags of an allocation (subset of 2.6.14 gfp.h + task state). */
enum mm_gfp_flags {
	MM_GFP_WAIT = 1u << 0,       /* __GFP_WAIT: may sleep, may enter direct reclaim */
	MM_GFP_HIGH = 1u << 1,       /* __GFP_HIGH: may use more of the reserves */
	MM_GFP_COLD = 1u << 2,       /* __GFP_COLD: from the cold per-CPU list */
	MM_GFP_FS = 1u << 3,         /* __GFP_FS: may OOM-kill */
	MM_GFP_NORETRY = 1u << 4,
	MM_GFP_REPEAT = 1u << 5,
	MM_GFP_NOFAIL = 1u << 6,
	MM_GFP_NOMEMALLOC = 1u << 7,
	MM_ALLOC_RT = 1u << 8,       /* caller is a real-time task (can_try_harder) */
	MM_ALLOC_MEMALLOC = 1u << 9, /* PF_MEMALLOC / TIF_MEMDIE: may ignore watermarks */
	MM_ALLOC_AFTER_RECLAIM = 1u << 10, /* retry after direct reclaim made progress */
	MM_ALLOC_LAST_TRY = 1u << 11,      /* no progress: last try at pages_high */
	MM_GFP_NODMA = 1u << 12,     /* skip ZONE_DMA (seed 000's kernel 3: no page cache there) */
	MM_GFP_EASYRCLM = 1u << 13,  /* __GFP_EASYRCLM: user pages, page cache [KM 4.1] */
	MM_GFP_KERNRCLM = 1u << 14,  /* __GFP_KERNRCLM: dcache, icache, buffer heads [KM 4.1] */
};
#define MM_GFP_KERNEL (MM_GFP_WAIT | MM_GFP_FS)
#define MM_GFP_ATOMIC (MM_GFP_HIGH)

/**
 * mm_gfp_type() - the allocation type of GFP @flags, as the anti-fragmentation
 * series derived it (kernel-mechanisms.md 4.1): __GFP_EASYRCLM -> MM_RCLM_EASY,
 * __GFP_KERNRCLM -> MM_RCLM_KERN, neither -> MM_RCLM_NORCLM.
 * Returns: the enum mm_alloc_type, or -1 when both flags are set (the series
 * refused such an allocation).
 */
static inline int mm_gfp_type(unsigned flags)
{
	bool easy = flags & MM_GFP_EASYRCLM, kern = flags & MM_GFP_KERNRCLM;
	if (easy && kern)
		return -1;
	return easy ? MM_RCLM_EASY : kern ? MM_RCLM_KERN : MM_RCLM_NORCLM;
}

enum mm_alloc_status {
	MM_ALLOC_OK,             /* pfn/zone are set */
	MM_ALLOC_NEED_RECLAIM,   /* caller may sleep: run direct reclaim, then call again
				    with MM_ALLOC_AFTER_RECLAIM (progress) or
				    MM_ALLOC_LAST_TRY (no progress, __GFP_FS, !NORETRY) */
	MM_ALLOC_NEED_OOM,       /* the last try failed: OOM-kill, then restart */
	MM_ALLOC_FAIL,           /* atomic or PF_MEMALLOC allocation failed: return NULL */
};

struct mm_alloc_result {
	enum mm_alloc_status status;
	uint32_t pfn;            /* PFN_NONE unless OK */
	struct zone *zone;       /* zone the block came from */
	int classzone_idx;       /* index of the first zone of the zonelist */
	uint32_t wake_kswapd;    /* bit per zone index: wakeup_kswapd() would wake it */
	unsigned kswapd_order;   /* order to pass to kswapd (kswapd_max_order) */
	bool should_retry;       /* NEED_RECLAIM: the kernel would loop (order <= 3 ...) */
	unsigned wmark_checks;   /* watermark checks made (cost accounting) */
};

/**
 * mm_alloc_pages() - 2.6.14 __alloc_pages() without the reclaim steps.
 * @phys: memory with an allocator attached
 * @cls: GFP zone class (highest zone allowed: MM_ZONE_NORMAL for GFP_KERNEL,
 *       MM_ZONE_HIGHMEM for GFP_HIGHUSER, MM_ZONE_DMA for GFP_DMA, ...)
 * @order: 0..max_order-1
 * @alloc_type: enum mm_alloc_type
 * @cpu: CPU doing the allocation (per-CPU list)
 * @flags: enum mm_gfp_flags
 * @res: result
 *
 * Pass 1 walks the zonelist with pages_low; on failure it records in
 * @res->wake_kswapd the zones wakeup_kswapd() would wake; pass 2 uses pages_min
 * (reduced for __GFP_HIGH / can_try_harder); PF_MEMALLOC ignores watermarks.  With
 * watermark_style 2.4, the incremental min of 2.4.17 is used instead.
 * Returns: @res->status (MM_ALLOC_OK or why not).
 */
enum mm_alloc_status mm_alloc_pages(struct mm_phys *phys, int cls, unsigned order,
				    int alloc_type, int cpu, unsigned flags,
				    struct mm_alloc_result *res);

/** mm_free_pages() - free a block from mm_alloc_pages() (order 0: hot per-CPU
 * list unless @cold). */
void mm_free_pages(struct mm_phys *phys, uint32_t pfn, unsigned order, int cpu, bool cold);

/**
 * alloc_buddyinfo() - the free lists as /proc/buddyinfo shows them: the allocator
 * owns them, so the view lives here (zone.c knows only the zones).
 * Returns: new JSON object {zone name: [free blocks per order]}, from the
 * attached allocator's free_count (the zones' nr_free when none is attached).
 */
json_t *alloc_buddyinfo(const struct mm_phys *phys);

#endif
