/*
 * kreplay.h - `mmemu replay` for the zone-level reclaim modules (lru2q, clockpro, mglru):
 * a reference string replayed on a minimal one-zone kernel that replay builds
 * itself.
 *
 * The kernel is the real mm core (models/mm) on a "flat" machine (one Normal
 * zone, no reservations), untimed, one CPU, one task.  The trace's pages are the
 * pages of one file; a reference is __bread of that page (mm_file_getblk: a
 * page-cache lookup, on a miss a page allocated, inserted and read, then
 * mark_page_accessed), after which the lru_add pagevec is drained so the page is
 * on the module's lists.  The zone has memory to spare; replay itself holds the
 * page cache to N frames: a miss with N pages cached first reclaims through the
 * module (mm_reclaim_zone: shrink_zone from priority 12 down until a page is
 * freed, with scan_control.swap_cluster_max = 1, so lru2q frees about one page a
 * fault; clockpro's cold hand scans in its own batches of 32 and may free more).
 * SimGrid runs once per process, so the replay runs in a forked child.
 */
#ifndef MMEMU_KREPLAY_H
#define MMEMU_KREPLAY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"

struct kreplay_result {
	uint64_t refs, faults, hits;
	uint64_t reclaims;      /* mm_reclaim_zone() calls */
	uint64_t freed;         /* pages they freed */
	char *steps;            /* with @steps: one line per reference (malloc'd), else NULL */
};

/**
 * kreplay_run() - replay @nrefs references (dense page ids < @npages; @orig gives
 * each id's page number for the steps) on zone-level module @policy with
 * parameters @params over @frames page-cache frames.
 * @steps: record each reference's list state into res->steps
 * Returns: 0, or -1 with @e set (bad parameter: "--param: ..."; the kernel failed).
 */
int kreplay_run(const char *policy, json_t *params, uint32_t frames, const uint32_t *refs,
		size_t nrefs, uint32_t npages, const uint64_t *orig, int steps,
		struct kreplay_result *res, struct mm_err *e);

/** kreplay_free() - free res->steps. */
void kreplay_free(struct kreplay_result *res);

#endif
