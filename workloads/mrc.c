/*
 * mrc.c - miss-ratio curves (see mrc.h for the three methods).
 *
 * Stack distances: each reference takes the next time slot; a Fenwick tree over
 * slots holds 1 at every page's last-use slot.  A page's distance is 1 plus the
 * number of set slots after its previous one (the pages used since); then its
 * old slot is cleared and the new one set.  The tree has 2M + 1 slots for M pages:
 * when they run out, the at most M live slots are renumbered 0..M-1 in order and
 * the tree rebuilt in O(M), at most once every M references, so a reference costs
 * O(log M) amortised and the memory is O(M), not O(N).
 *
 * SHARDS: a page is sampled when mm_mix64(its original id + a constant, as splitmix64) < R * 2^64, so the
 * choice depends on the page, not on where it first appears, and a page is
 * either always or never sampled (the sampled references keep their reuse
 * pattern).  m of the trace's M pages are sampled; with R' = m / M, a sampled
 * distance d stands for d / R' and a size C for C * R' sampled frames.  The
 * estimate is a ratio estimator over pages with the known total M: misses per
 * sampled page times M / N, i.e. (sampled misses) / (N R'); its variance under
 * Bernoulli(R) sampling of pages is (1 - R) sum_p (y_p - ybar)^2 / (N R')^2, y_p
 * the misses of sampled page p.  That is the sampling error only: scaled
 * distances and scaled memory add a bias, which is why docs/mrc.md reports how
 * often the stated error held against full replays.  (SHARDS divides by N R and
 * scales by R; with M known, R' removes the error of the number of pages sampled:
 * at sizes of M frames and more the estimate is exact.)
 */
#include "workloads/mrc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/rng.h"
#include "models/reclaim/reclaim.h"
#include "workloads/replay.h"

const char *mrc_method_name(enum mrc_method m)
{
	return m == MRC_EXACT ? "exact" : m == MRC_SHARDS ? "shards" : "simulate";
}

struct fenwick {
	int32_t *t;       /* 1-based tree over slots 0..cap-1 */
	uint32_t cap;
};

static void fw_add(struct fenwick *f, uint32_t slot, int32_t v)
{
	for (uint32_t i = slot + 1; i <= f->cap; i += i & -i)
		f->t[i] += v;
}

/* Returns: the number of set slots in 0..slot. */
static uint32_t fw_prefix(const struct fenwick *f, uint32_t slot)
{
	int32_t s = 0;
	for (uint32_t i = slot + 1; i > 0; i -= i & -i)
		s += f->t[i];
	return (uint32_t)s;
}

int mrc_stack_distances(const uint32_t *refs, size_t nrefs, uint32_t npages, const uint8_t *keep,
			uint64_t *hist, uint32_t *dist, struct mm_err *e)
{
	if (npages > (UINT32_MAX - 1) / 2)
		return mm_errf(e, NULL, NULL, "%u pages: too many for stack distances", npages);
	struct fenwick f = { NULL, 2 * npages + 1 };
	uint32_t *last = calloc(npages, sizeof *last);       /* page -> slot + 1, 0: unseen */
	uint32_t *owner = malloc((size_t)f.cap * sizeof *owner);   /* slot -> page */
	f.t = calloc((size_t)f.cap + 1, sizeof *f.t);
	if (!last || !owner || !f.t) {
		free(last);
		free(owner);
		free(f.t);
		return mm_errf(e, NULL, NULL, "out of memory for the stack distances of %u pages",
			       npages);
	}
	uint32_t next = 0, live = 0;
	for (size_t i = 0; i < nrefs; i++) {
		uint32_t p = refs[i];
		if (keep && !keep[p]) {
			if (dist)
				dist[i] = UINT32_MAX;
			continue;
		}
		if (next == f.cap) {   /* renumber the live slots 0..live-1 and rebuild */
			uint32_t k = 0;
			for (uint32_t s = 0; s < f.cap; s++)
				if (last[owner[s]] == s + 1) {
					owner[k] = owner[s];
					last[owner[k]] = k + 1;
					k++;
				}
			next = k;
			memset(f.t, 0, ((size_t)f.cap + 1) * sizeof *f.t);
			for (uint32_t j = 1; j <= f.cap; j++) {
				f.t[j] += j <= k;
				uint32_t up = j + (j & -j);
				if (up <= f.cap)
					f.t[up] += f.t[j];
			}
		}
		uint32_t d = 0;
		if (last[p]) {
			uint32_t s0 = last[p] - 1;
			d = live - fw_prefix(&f, s0) + 1;
			fw_add(&f, s0, -1);
		} else {
			live++;
		}
		hist[d]++;
		if (dist)
			dist[i] = d;
		owner[next] = p;
		last[p] = next + 1;
		fw_add(&f, next++, 1);
	}
	free(last);
	free(owner);
	free(f.t);
	return 0;
}

void mrc_free(struct mrc *m)
{
	free(m->pts);
	m->pts = NULL;
	m->npoints = 0;
}

/* Replay @refs (pages 0..npages-1) through a new @policy instance with @frames
 * frames; if @y, add each page's misses to y[page].
 * Returns: the misses, or -1 with @e set. */
static int64_t simulate(const uint32_t *refs, size_t nrefs, uint32_t npages, const char *policy,
			json_t *params, uint32_t frames, uint64_t *y, struct mm_err *e)
{
	struct reclaim *r = reclaim_create(policy, params, frames, NULL, "--param", NULL, e);
	struct replay rp;
	int64_t misses = -1;
	if (!r)
		return -1;
	if (replay_init(&rp, r, npages, NULL, e) < 0) {
		reclaim_destroy(r);
		return -1;
	}
	if (replay_prepare(&rp, refs, nrefs, e) == 0) {
		size_t i;
		for (i = 0; i < nrefs; i++) {
			int f = replay_ref(&rp, refs[i]);
			if (f < 0)
				break;
			if (f && y)
				y[refs[i]]++;
		}
		if (i == nrefs)
			misses = (int64_t)rp.faults;
		else
			mm_errf(e, NULL, NULL, "reclaim module \"%s\" returned no valid victim at %u frames",
				policy, frames);
	}
	replay_fini(&rp);
	reclaim_destroy(r);
	return misses;
}

/* The LRU curve from a distance histogram: misses at C frames are the first
 * references and those at distance > C. */
static int exact_points(const uint64_t *hist, uint32_t npages, uint64_t nrefs,
			const uint32_t *sizes, struct mrc *out, struct mm_err *e)
{
	uint64_t *above = malloc(((size_t)npages + 1) * sizeof *above);   /* sum of hist[d > C] */
	if (!above)
		return mm_errf(e, NULL, NULL, "out of memory for %u pages", npages);
	above[npages] = 0;
	for (uint32_t c = npages; c-- > 0;)
		above[c] = above[c + 1] + hist[c + 1];
	for (size_t k = 0; k < out->npoints; k++) {
		uint32_t c = sizes ? sizes[k] : (uint32_t)(k + 1);
		uint64_t m = hist[0] + above[c < npages ? c : npages];
		out->pts[k] = (struct mrc_point){ c, m, nrefs ? (double)m / (double)nrefs : 0, 0 };
	}
	free(above);
	return 0;
}

/* One SHARDS point: @y[0..nsp-1] the sampled pages' misses, @eff the sampled
 * fraction of the trace's pages, @rate the sampling rate. */
static struct mrc_point shards_point(uint32_t frames, const uint64_t *y, uint32_t nsp,
				     uint64_t nrefs, double eff, double rate)
{
	double sum = 0, sq = 0, scale = (double)nrefs * eff;
	for (uint32_t p = 0; p < nsp; p++)
		sum += (double)y[p];
	double mean = nsp ? sum / nsp : 0;   /* misses per sampled page */
	for (uint32_t p = 0; p < nsp; p++)
		sq += ((double)y[p] - mean) * ((double)y[p] - mean);
	double m = scale > 0 ? sum / scale : 0;
	double se = scale > 0 ? sqrt((1 - rate) * sq) / scale : 0;
	if (m > 1)
		m = 1;
	return (struct mrc_point){ frames, (uint64_t)llround(m * (double)nrefs), m, 2 * se };
}

/* The SHARDS curve (see the top of the file). Returns: 0 or -1 with @e set. */
static int shards(const uint32_t *refs, size_t nrefs, uint32_t npages, const uint64_t *orig,
		  const char *policy, json_t *params, const uint32_t *sizes, struct mrc *out,
		  struct mm_err *e)
{
	double rate = out->rate;
	uint64_t cut = rate >= 1 ? UINT64_MAX : (uint64_t)ldexp(rate, 64);
	uint32_t *sp = malloc((size_t)npages * sizeof *sp);   /* page -> sampled page id */
	uint32_t *srefs = malloc((nrefs ? nrefs : 1) * sizeof *srefs);
	uint32_t *dist = NULL;
	uint64_t *y = NULL, *hist = NULL;
	int rc = -1;
	if (!sp || !srefs)
		goto oom;
	uint32_t nsp = 0;
	for (uint32_t p = 0; p < npages; p++)
		sp[p] = mm_mix64((orig ? orig[p] : p) + 0x9e3779b97f4a7c15ULL) < cut ? nsp++ : UINT32_MAX;
	size_t ns = 0;
	for (size_t i = 0; i < nrefs; i++)
		if (sp[refs[i]] != UINT32_MAX)
			srefs[ns++] = sp[refs[i]];
	out->sampled_refs = ns;
	out->sampled_pages = nsp;
	if (nsp == 0) {
		mm_errf(e, "--rate", NULL, "%g sampled none of the %u pages: use a higher rate", rate,
			npages);
		goto out;
	}
	double eff = (double)nsp / npages;   /* the sampled fraction of pages, ~rate */
	y = calloc((size_t)nsp + 1, sizeof *y);
	if (!y)
		goto oom;
	int lru = strcmp(policy, "lru") == 0;
	if (lru) {
		dist = malloc((ns ? ns : 1) * sizeof *dist);
		hist = calloc((size_t)nsp + 1, sizeof *hist);
		if (!dist || !hist)
			goto oom;
		if (mrc_stack_distances(srefs, ns, nsp, NULL, hist, dist, e))
			goto out;
	}
	for (size_t k = 0; k < out->npoints; k++) {
		memset(y, 0, ((size_t)nsp + 1) * sizeof *y);
		if (lru) {
			double scaled = sizes[k] * eff;   /* a sampled distance d stands for d / eff */
			for (size_t i = 0; i < ns; i++)
				y[srefs[i]] += dist[i] == 0 || dist[i] > scaled;
		} else {
			uint32_t f = (uint32_t)llround(sizes[k] * eff);
			if (simulate(srefs, ns, nsp, policy, params, f ? f : 1, y, e) < 0)
				goto out;
		}
		out->pts[k] = shards_point(sizes[k], y, nsp, nrefs, eff, rate);
	}
	rc = 0;
	goto out;
oom:
	mm_errf(e, NULL, NULL, "out of memory for sampling %zu references", nrefs);
out:
	free(sp);
	free(srefs);
	free(dist);
	free(y);
	free(hist);
	return rc;
}

int mrc_compute(const uint32_t *refs, size_t nrefs, uint32_t npages, const uint64_t *orig,
		const char *policy, json_t *params, enum mrc_method method, double rate,
		const uint32_t *sizes, size_t nsizes, struct mrc *out, struct mm_err *e)
{
	memset(out, 0, sizeof *out);
	const struct reclaim_ops *ops = reclaim_find(policy);
	if (!ops || !reclaim_has_frames(ops))
		return mm_errf(e, "--policy", NULL, "%s reclaim module \"%s\" (a curve needs a module "
			       "that runs on frames: see mmemu replay --help)",
			       ops ? "zone-level" : "unknown", policy ? policy : "");
	if (method == MRC_EXACT && strcmp(ops->name, "lru") != 0)
		return mm_errf(e, "--method", NULL, "exact: one pass gives every size only for lru "
			       "(use simulate or shards for %s)", ops->name);
	if (method == MRC_SHARDS && !(rate > 0 && rate < 1))
		return mm_errf(e, "--rate", NULL, "expected a sampling rate in (0, 1)");
	if (!sizes && method != MRC_EXACT)
		return mm_errf(e, "--sizes", NULL, "expected the sizes to estimate (every size is "
			       "for the exact LRU curve only)");
	for (size_t k = 0; sizes && k < nsizes; k++) {
		if (sizes[k] == 0 || sizes[k] == RECLAIM_NO_FRAME || (k && sizes[k] <= sizes[k - 1]))
			return mm_errf(e, "--sizes", NULL, "expected increasing frame counts in 1..%u",
				       RECLAIM_NO_FRAME - 1);
		if (method == MRC_SHARDS && sizes[k] * rate < 1)
			return mm_errf(e, "--sizes", NULL, "%u frames at rate %g samples less than one "
				       "frame: use sizes of at least %.0f frames or a higher --rate",
				       sizes[k], rate, ceil(1 / rate));
	}
	out->method = method;
	out->rate = method == MRC_SHARDS ? rate : 1;
	out->refs = nrefs;
	out->pages = npages;
	out->sampled_refs = nrefs;
	out->sampled_pages = npages;
	out->npoints = sizes ? nsizes : npages;
	out->pts = calloc(out->npoints ? out->npoints : 1, sizeof *out->pts);
	if (!out->pts)
		return mm_errf(e, NULL, NULL, "out of memory for %zu points", out->npoints);
	int rc = 0;
	if (method == MRC_EXACT) {
		uint64_t *hist = calloc((size_t)npages + 1, sizeof *hist);
		rc = hist ? mrc_stack_distances(refs, nrefs, npages, NULL, hist, NULL, e)
			  : mm_errf(e, NULL, NULL, "out of memory for %u pages", npages);
		if (rc == 0)
			rc = exact_points(hist, npages, nrefs, sizes, out, e);
		free(hist);
	} else if (method == MRC_SHARDS) {
		rc = shards(refs, nrefs, npages, orig, ops->name, params, sizes, out, e);
	} else {
		for (size_t k = 0; k < nsizes && rc == 0; k++) {
			int64_t m = simulate(refs, nrefs, npages, ops->name, params, sizes[k], NULL, e);
			if (m < 0)
				rc = -1;
			else
				out->pts[k] = (struct mrc_point){ sizes[k], (uint64_t)m,
					nrefs ? (double)m / (double)nrefs : 0, 0 };
		}
	}
	if (rc)
		mrc_free(out);
	return rc;
}
