/*
 * workingset.h - refault-distance detection (Linux 3.15 mm/workingset.c, Johannes
 * Weiner, 2014) for the two-list LRU (lru2q's `workingset` option), see
 * workingset.c.
 */
#ifndef MMEMU_RECLAIM_WORKINGSET_H
#define MMEMU_RECLAIM_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/core/err.h"
#include "models/mm/zone.h"

/* The shadow entries of evicted page-cache pages and each zone's inactive_age. */
struct workingset {
	uint64_t inactive_age[MM_NR_ZONES];   /* evictions + activations, per zone */
	uint64_t *key;                        /* (mapping << 32 | index) + 1; 0 = empty slot */
	uint64_t *val;                        /* eviction age << 8 | zone */
	uint64_t cap, n;                      /* slots (a power of two), entries */
	/* counters (the 3.15 vmstat names) */
	uint64_t refault;                     /* workingset_refault: a shadow was found */
	uint64_t activate;                    /* workingset_activate: ... and was close enough */
	uint64_t evictions;                   /* shadow entries stored */
	uint64_t max_shadows;                 /* most shadow entries held at once */
};

/** ws_init() - an empty table. Returns: 0, or -1 with @e set (out of memory). */
int ws_init(struct workingset *w, struct mm_err *e);

/** ws_fini() - free the table (a zeroed struct is fine). Returns: nothing. */
void ws_fini(struct workingset *w);

/**
 * ws_eviction() - workingset_eviction(): page (@mapping, @index) leaves zone @zone's
 * inactive list for good; the zone's inactive_age is incremented and its new value
 * kept as the page's shadow entry.  Returns: nothing (a full host is ignored: the
 * shadow is not kept, as the kernel's shadow shrinker may drop one).
 */
void ws_eviction(struct workingset *w, int zone, uint32_t mapping, uint32_t index);

/** ws_activation() - workingset_activation(): a page of @zone was activated. Returns: nothing. */
void ws_activation(struct workingset *w, int zone);

/**
 * ws_refault() - workingset_refault(): page (@mapping, @index) enters the page
 * cache again.  If it has a shadow entry, the entry is consumed, *zone gets the
 * zone it was evicted from and *distance its refault distance (that zone's
 * inactive_age now minus at eviction).
 * Returns: true if a shadow entry was found.
 */
bool ws_refault(struct workingset *w, uint32_t mapping, uint32_t index, int *zone,
		uint64_t *distance);

#endif
