/*
 * replay.h - the untimed replay loop: feed a page reference string to a reclaim
 * module over a fixed number of frames and count faults.
 *
 * The loop owns the frame <-> page mapping: frame_of[page] (RECLAIM_NO_FRAME when
 * not resident) and page_of[frame].  A reference to a resident page is a hit
 * (reclaim_access); otherwise a fault: the next free frame (0, 1, 2, ... in order)
 * or, when memory is full, the frame reclaim_evict() returns receives the page
 * (reclaim_add).  Before each call into the module r->now is set to the index of
 * the reference, counted from 0 over all replay_ref() calls, which is what an
 * offline module prepared with the same string expects.
 */
#ifndef MMEMU_REPLAY_H
#define MMEMU_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "emu/core/err.h"
#include "models/reclaim/reclaim.h"
#include "models/mm/vmstat.h"

struct replay {
	struct reclaim *r;
	uint32_t nframes;
	uint32_t npages;
	uint32_t nused;        /* frames handed out so far (free frames are nused..nframes-1) */
	uint32_t *frame_of;    /* npages entries */
	uint32_t *page_of;     /* nframes entries (RECLAIM_NO_FRAME: free) */
	uint32_t last_victim;  /* page evicted by the last fault, or RECLAIM_NO_FRAME */
	uint64_t refs, faults, hits;
	struct mm_vmstat *vs;  /* REF_HIT, REF_MISS, PGFAULT (may be NULL) */
	int prepared;          /* replay_prepare() done */
};

/**
 * replay_init() - set up a replay of pages 0..@npages-1 over @r (r->nframes frames).
 * @vs: where to count REF_HIT / REF_MISS / PGFAULT (may be NULL)
 * Sets r->page_of to the loop's page_of[].
 * Returns: 0, or -1 with @e set (out of memory).
 */
int replay_init(struct replay *rp, struct reclaim *r, uint32_t npages, struct mm_vmstat *vs,
		struct mm_err *e);

/** replay_fini() - free what replay_init() allocated. */
void replay_fini(struct replay *rp);

/**
 * replay_ref() - one reference to @page (< npages).
 * Returns: 1 on a fault, 0 on a hit, -1 if @page is out of range or the module
 * returned no valid victim (nothing is changed then).
 */
int replay_ref(struct replay *rp, uint32_t page);

/**
 * replay_prepare() - hand the whole reference string to the module
 * (reclaim_prepare()); needed before replay_ref() for offline modules (opt), done
 * by replay_run() if not done already.
 * Returns: 0, or -1 with @e set.
 */
int replay_prepare(struct replay *rp, const uint32_t *refs, size_t nrefs, struct mm_err *e);

/*
 * Step callback for replay_run(): called after reference @i (to @page) with the
 * frame contents (page_of[], RECLAIM_NO_FRAME for a free frame).
 */
typedef void (*replay_step_fn)(void *arg, uint64_t i, uint32_t page, int fault,
			       const uint32_t *page_of, uint32_t nframes);

/**
 * replay_run() - replay @nrefs references (calls replay_prepare() first if needed).
 * @step: called after each reference, or NULL
 * Returns: 0 (counts in rp->refs/faults/hits), or -1 with @e set.
 */
int replay_run(struct replay *rp, const uint32_t *refs, size_t nrefs, replay_step_fn step,
	       void *arg, struct mm_err *e);

#endif
