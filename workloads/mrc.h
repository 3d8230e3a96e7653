/*
 * mrc.h - miss-ratio curves of a page reference trace: the miss ratio of a
 * reclaim policy at many memory sizes (frames) from one analysis.
 *
 * Three methods (docs/mrc.md):
 *   MRC_EXACT     LRU only.  Mattson's stack algorithm: a reference's LRU stack
 *                 distance (distinct pages since the page's last use) is counted
 *                 with a Fenwick tree over last-use times, O(log M) per reference
 *                 (M distinct pages; times are renumbered when the tree is full),
 *                 and LRU misses at C frames exactly the references whose
 *                 distance exceeds C.  One pass gives every size; error 0.
 *   MRC_SHARDS    spatially hashed sampling (Waldspurger et al., FAST 2015): only
 *                 references to pages whose hashed id falls below rate R are kept.
 *                 For LRU their stack distances among sampled pages, scaled up,
 *                 give the curve (one pass); for any other policy the sampled
 *                 trace is replayed with C*R' frames for each size C (miniature
 *                 simulation, Waldspurger et al., ATC 2017).  R' is the sampled
 *                 fraction of the trace's distinct pages (the whole trace is read,
 *                 so their number is known), used in place of R to scale sizes and
 *                 counts; the stated error is two standard errors of the estimate
 *                 over the random choice of pages (docs/mrc.md: how often it holds).
 *   MRC_SIMULATE  any policy: a full replay at each size.  Exact; error 0.
 */
#ifndef MMEMU_MRC_H
#define MMEMU_MRC_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"

enum mrc_method { MRC_EXACT, MRC_SHARDS, MRC_SIMULATE };

struct mrc_point {
	uint32_t frames;
	uint64_t misses;      /* exact methods: misses; SHARDS: estimated, rounded */
	double miss_ratio;
	double error;         /* 0 for exact methods; SHARDS: 2 standard errors */
};

struct mrc {
	enum mrc_method method;
	double rate;              /* SHARDS sampling rate (1 for exact methods) */
	uint64_t refs;            /* references of the trace */
	uint32_t pages;           /* distinct pages of the trace */
	uint64_t sampled_refs;    /* references the method looked at */
	uint32_t sampled_pages;
	size_t npoints;
	struct mrc_point *pts;    /* in increasing frames */
};

/** mrc_method_name() - Returns: "exact", "shards" or "simulate". */
const char *mrc_method_name(enum mrc_method m);

/**
 * mrc_stack_distances() - LRU stack distances of the references to pages whose
 * @keep flag is set (all when @keep is NULL), among those pages only.
 * @hist: npages + 1 counters, zeroed by the caller: hist[0] counts first
 *        references, hist[d] references at distance d (1 = the page used last)
 * @dist: nrefs entries or NULL: each reference's distance (0 first use,
 *        UINT32_MAX not kept)
 * Returns: 0, or -1 with @e set (out of memory).
 */
int mrc_stack_distances(const uint32_t *refs, size_t nrefs, uint32_t npages, const uint8_t *keep,
			uint64_t *hist, uint32_t *dist, struct mm_err *e);

/**
 * mrc_compute() - the curve of reclaim module @policy (with @params, a JSON object
 * or NULL) over the reference string @refs of pages 0..@npages-1 (@orig: their
 * original ids, hashed by SHARDS; NULL: the dense ids).
 * @method: MRC_EXACT needs policy "lru"; MRC_SHARDS needs 0 < @rate < 1
 * @sizes: increasing frame counts, or NULL for every size 1..npages (MRC_EXACT only)
 * Returns: 0 with @out filled (free with mrc_free()), or -1 with @e set.
 */
int mrc_compute(const uint32_t *refs, size_t nrefs, uint32_t npages, const uint64_t *orig,
		const char *policy, json_t *params, enum mrc_method method, double rate,
		const uint32_t *sizes, size_t nsizes, struct mrc *out, struct mm_err *e);

/** mrc_free() - free @m's points. */
void mrc_free(struct mrc *m);

#endif
