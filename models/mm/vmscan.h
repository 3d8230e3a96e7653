/*
 * vmscan.h - the reclaim core (2.6.15 mm/vmscan.c) and the kernel-level reclaim
 * interface that lru2q and clockpro implement.
 *
 * The core owns what is common to every policy: kswapd and balance_pgdat(),
 * direct reclaim (try_to_free_pages()), the priority loop, congestion waits, and
 * shrink_list() (the per-page reclaim of an isolated batch: referenced check,
 * writeback, removal from the page cache, freeing).  A module owns its lists and
 * decides which pages to isolate, how referenced pages are treated, and where
 * survivors go (struct reclaim_kops).  Modules are called only through the
 * wrappers of this file, which count calls into vm events.
 */
#ifndef MMEMU_VMSCAN_H
#define MMEMU_VMSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm/kernel.h"

/* struct scan_control [K2614 mm/vmscan.c] */
struct scan_control {
	uint64_t nr_scanned;       /* pages scanned by shrink_list in this pass */
	uint64_t nr_pgscan;        /* pages taken off the inactive (cold) list: PGSCAN_* */
	uint64_t nr_reclaimed;     /* pages freed in this pass */
	int64_t nr_to_reclaim;     /* shrink_zone stops its loop when this reaches 0 */
	int priority;              /* DEF_PRIORITY (12) .. 0 */
	unsigned swap_cluster_max; /* SWAP_CLUSTER_MAX */
	bool may_writepage;
	bool may_swap;
	bool kswapd;               /* current_is_kswapd() */
	unsigned gfp;
	uint64_t nr_mapped;
};

/* shrink_list() verdicts a module returns for a page the core found unmapped. */
enum reclaim_verdict {
	RECLAIM_FREE,        /* go on and reclaim it */
	RECLAIM_KEEP,        /* put it back as it is */
	RECLAIM_ACTIVATE,    /* put it back promoted (PG_active / PG_hot) */
};

/* Kernel-level methods of a reclaim module (all called with the task @t running). */
struct reclaim_kops {
	/* set up per-zone state for @k (z->reclaim_priv). Returns: 0 or -1. */
	int (*kinit)(struct reclaim *r, struct mm_kernel *k, struct mm_err *e);
	void (*kfini)(struct reclaim *r, struct mm_kernel *k);
	/* a pagevec drain puts @pfn on the module's lists; called under z's lru_lock. */
	void (*lru_add)(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn, int hint);
	/* mark_page_accessed(); the module takes lru_lock itself if it moves the page. */
	void (*mark_accessed)(struct reclaim *r, struct mm_kernel *k, struct mm_task *t, uint32_t pfn);
	/* the state change of mark_page_accessed() with z's lru_lock already held, for
	 * the batched variant (vm.batch_mark_accessed) that drains a per-CPU pagevec. */
	void (*mark_accessed_locked)(struct reclaim *r, struct mm_kernel *k, struct mm_task *t,
				     struct zone *z, uint32_t pfn);
	/* the page leaves the LRU for another reason (truncate); under lru_lock. */
	void (*lru_del)(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn);
	/* shrink_zone(): scan @z at sc->priority, reclaiming through mm_shrink_list(). */
	void (*shrink_zone)(struct reclaim *r, struct mm_kernel *k, struct mm_task *t, struct zone *z,
			    struct scan_control *sc);
	/* shrink_list's decision for an isolated page (@referenced: PG_referenced or a
	 * young PTE was found and cleared; @inuse: page_mapping_inuse()). */
	enum reclaim_verdict (*reclaimable)(struct reclaim *r, struct mm_kernel *k, uint32_t pfn,
					    bool referenced, bool inuse);
	/* the page is about to be freed by reclaim (remember it if the policy does). */
	void (*evicted)(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn);
	/* optional: add time-series points (e.g. nr_cold_target) at simulated time @t. */
	void (*sample)(struct reclaim *r, struct mm_kernel *k, struct sim *s, double t);
	/* optional: add end-of-run metrics. */
	void (*finish)(struct reclaim *r, struct mm_kernel *k, struct sim *s);
	/* optional: may page-cache pages come from ZONE_DMA (seed 000's kernel 3) */
	bool (*pagecache_dma)(const struct reclaim *r);
	/* optional: rotate_reclaimable_page(): writeback of @pfn, started by reclaim,
	 * completed; move it where it is reclaimed next (2.6: the inactive tail).
	 * Runs in the disk driver's context: no lock taking, no blocking. */
	void (*rotate)(struct reclaim *r, struct mm_kernel *k, struct zone *z, uint32_t pfn);
	/* optional: shrink_list puts @pfn back untouched before locking it, counting it
	 * as scanned or reading its reference bit (CLOCK-Pro: a hot page on the cold
	 * hand's path).  Returns: true to skip. */
	bool (*skip)(struct reclaim *r, struct mm_kernel *k, uint32_t pfn);
	/* optional: show zone @z's lists for `mmemu replay --steps`: call @emit once
	 * per page, list by list, each from the end it is taken from last to the end
	 * reclaim takes from (@mark: the page's flags in letters, "" if none); with
	 * pfn == PFN_NONE and @mark NULL to open list @list (so an empty one shows),
	 * with pfn == PFN_NONE and a @mark for a named value (@mark: its text). */
	void (*describe)(struct reclaim *r, struct mm_kernel *k, struct zone *z,
			 void (*emit)(void *arg, const char *list, uint32_t pfn, const char *mark),
			 void *arg);
};

/**
 * mm_shrink_list() - shrink_list() over @n isolated pages of zone @z.
 * @verdict: out, per page: RECLAIM_FREE if the page was freed, else where it goes
 *           back (RECLAIM_KEEP or RECLAIM_ACTIVATE)
 * Counts scanned and reclaimed pages into @sc and vm events.
 * Returns: pages freed.
 */
unsigned mm_shrink_list(struct mm_kernel *k, struct mm_task *t, struct zone *z,
			const uint32_t *pfns, unsigned n, struct scan_control *sc, uint8_t *verdict);

/**
 * mm_reclaim_zone() - reclaim from zone @z for `mmemu replay`'s one-zone kernel:
 * shrink_zone() through the module at priority DEF_PRIORITY down to 0, with
 * scan_control.swap_cluster_max = @batch, until at least one page was freed.
 * Returns: pages freed (0: nothing could be).
 */
unsigned mm_reclaim_zone(struct mm_kernel *k, struct mm_task *t, struct zone *z, unsigned batch);

/**
 * mm_lru_putback() - account one page put back on a list under lru_lock: the kernel
 * collects them in a pagevec and, every PAGEVEC_SIZE pages, drops the lock to
 * release the pagevec's references (release_pages) and takes it again.
 * @n: the caller's count of pages put back in this critical section
 */
void mm_lru_putback(struct mm_kernel *k, struct mm_task *t, struct zone *z, unsigned *n);

/**
 * mm_lru_orphan() - before putting isolated page @pfn back: if its last reference
 * went while reclaim had it isolated (its owner unmapped it; in the kernel the
 * isolation's get_page_testone reference keeps it until the put-back), free it.
 * Returns: true if the page was freed (do not link it back).
 */
bool mm_lru_orphan(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_try_to_free_pages() - direct reclaim over zone class @cls's zonelist.
 * Returns: true if at least SWAP_CLUSTER_MAX pages were reclaimed (progress).
 */
bool mm_try_to_free_pages(struct mm_kernel *k, struct mm_task *t, int cls, unsigned gfp);

/**
 * mm_register_shrinker() - set_shrinker(@seeks, @fn) with @arg.
 * Returns: 0, or -1 if @k has MM_MAX_SHRINKERS already.
 */
int mm_register_shrinker(struct mm_kernel *k, int seeks, mm_shrinker_fn fn, void *arg);

/**
 * mm_shrink_slab() - 2.6.16 shrink_slab(): each shrinker scans its share of
 * (4 * @scanned / seeks) * its objects / (@lru_pages + 1), in batches of 128.
 * Returns: objects freed.
 */
unsigned long mm_shrink_slab(struct mm_kernel *k, struct mm_task *t, uint64_t scanned,
			     uint64_t lru_pages);

/** mm_kswapd_balance() - run kswapd's balance_pgdat() for @order as kswapd. */
void mm_kswapd_balance(struct mm_kernel *k, unsigned order);

/** mm_kswapd_start() - create the kswapd actor on CPU @cpu. */
void mm_kswapd_start(struct mm_kernel *k, int cpu);

/**
 * mm_wakeup_kswapd() - wake kswapd if it sleeps (wakeup_kswapd); the waker @t
 * pays its pending cycles first, so kswapd starts at the waker's time.
 */
void mm_wakeup_kswapd(struct mm_kernel *k, struct mm_task *t, unsigned order);

/** mm_congestion_wait() - blk_congestion_wait(WRITE, @sec): a real sleep of @t. */
void mm_congestion_wait(struct mm_kernel *k, struct mm_task *t, double sec);

#endif
