/*
 * replay.c - the untimed replay loop (see replay.h).
 *
 * Design: two flat uint32 arrays (frame_of per page, page_of per frame) and a
 * counter of frames handed out; a reference costs one load of frame_of[page] and
 * one module call, no allocation.  replay_run() has a tight loop without the step
 * callback and a separate one with it, both built on the same inline step.
 */
#include "workloads/replay.h"

#include <stdlib.h>
#include <string.h>

int replay_init(struct replay *rp, struct reclaim *r, uint32_t npages, struct mm_vmstat *vs,
		struct mm_err *e)
{
	memset(rp, 0, sizeof *rp);
	if (!reclaim_has_frames(r->ops))
		return mm_errf(e, NULL, NULL,
			       "reclaim module %s needs zones and runs only in kernel workloads", r->ops->name);
	rp->r = r;
	rp->nframes = r->nframes;
	rp->npages = npages;
	rp->vs = vs;
	rp->last_victim = RECLAIM_NO_FRAME;
	rp->frame_of = malloc((npages ? npages : 1) * sizeof *rp->frame_of);
	rp->page_of = malloc((size_t)r->nframes * sizeof *rp->page_of);
	if (!rp->frame_of || !rp->page_of) {
		replay_fini(rp);
		return mm_errf(e, NULL, NULL, "replay: out of memory for %u pages and %u frames",
			       npages, r->nframes);
	}
	memset(rp->frame_of, 0xff, (size_t)npages * sizeof *rp->frame_of);
	memset(rp->page_of, 0xff, (size_t)r->nframes * sizeof *rp->page_of);
	r->page_of = rp->page_of;
	return 0;
}

void replay_fini(struct replay *rp)
{
	if (rp->r && rp->r->page_of == rp->page_of)
		rp->r->page_of = NULL;
	free(rp->frame_of);
	free(rp->page_of);
	rp->frame_of = rp->page_of = NULL;
}

static inline int step(struct replay *rp, uint32_t page)
{
	struct reclaim *r = rp->r;
	if (page >= rp->npages)
		return -1;
	r->now = rp->refs;
	uint32_t f = rp->frame_of[page];
	if (f != RECLAIM_NO_FRAME) {
		rp->refs++;
		rp->hits++;
		reclaim_access(r, f);
		return 0;
	}
	if (rp->nused < rp->nframes) {
		f = rp->nused++;
		rp->last_victim = RECLAIM_NO_FRAME;
	} else {
		r->fault_page = page;
		f = reclaim_evict(r);
		if (f >= rp->nframes)
			return -1;
		uint32_t old = rp->page_of[f];
		rp->frame_of[old] = RECLAIM_NO_FRAME;
		rp->last_victim = old;
	}
	rp->page_of[f] = page;
	rp->frame_of[page] = f;
	rp->refs++;
	rp->faults++;
	reclaim_add(r, f);
	return 1;
}

static void count(struct replay *rp, uint64_t hits0, uint64_t faults0)
{
	uint64_t h = rp->hits - hits0, f = rp->faults - faults0;
	mm_count(rp->vs, MM_REF_HIT, h);
	mm_count(rp->vs, MM_REF_MISS, f);
	mm_count(rp->vs, MM_PGFAULT, f);
}

int replay_ref(struct replay *rp, uint32_t page)
{
	int rc = step(rp, page);
	if (rc == 0) {
		mm_count(rp->vs, MM_REF_HIT, 1);
	} else if (rc == 1) {
		mm_count(rp->vs, MM_REF_MISS, 1);
		mm_count(rp->vs, MM_PGFAULT, 1);
	}
	return rc;
}

int replay_prepare(struct replay *rp, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	if (reclaim_prepare(rp->r, refs, nrefs, e) < 0)
		return -1;
	rp->prepared = 1;
	return 0;
}

int replay_run(struct replay *rp, const uint32_t *refs, size_t nrefs, replay_step_fn fn,
	       void *arg, struct mm_err *e)
{
	if (!rp->prepared && replay_prepare(rp, refs, nrefs, e) < 0)
		return -1;
	uint64_t h0 = rp->hits, f0 = rp->faults;
	size_t i;
	int rc = 0;
	if (!fn) {
		for (i = 0; i < nrefs; i++)
			if ((rc = step(rp, refs[i])) < 0)
				break;
	} else {
		for (i = 0; i < nrefs; i++) {
			if ((rc = step(rp, refs[i])) < 0)
				break;
			fn(arg, i, refs[i], rc, rp->page_of, rp->nframes);
		}
	}
	count(rp, h0, f0);
	if (rc < 0) {
		if (refs[i] >= rp->npages)
			return mm_errf(e, NULL, NULL, "replay: reference %zu: page id %u out of range "
				       "(%u pages)", i, refs[i], rp->npages);
		return mm_errf(e, NULL, NULL, "replay: reference %zu: reclaim module \"%s\" "
			       "returned no victim frame", i, rp->r->ops->name);
	}
	return 0;
}
