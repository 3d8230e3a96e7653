/*
 * opt.c - Belady's optimal (MIN) policy: evict the resident page whose next use
 * lies farthest in the future (a page never used again first).  Offline: it needs
 * the whole reference string.
 *
 * Design: prepare() computes next[i], the index of the next reference to the page
 * of reference i (or NEVER), in one backward pass with a temporary last-seen array
 * over the (dense) page ids: 4 bytes per reference, O(nrefs).  The resident pages
 * sit in a binary max-heap of (key, frame) pairs, key = next use of the page in that
 * frame, with pos[frame] giving each frame's heap slot, so add() (insert), access()
 * (key update) and remove() are O(log n) and evict() pops the maximum.  Ties among
 * pages never used again are broken towards the least recently used one: their key
 * is UINT32_MAX - (index of their last reference), above every real next use since
 * traces are limited to 2^31 references.  12 bytes per frame, no allocation after
 * init()/prepare().  On a hit the page's key grows from "now" (the smallest key in
 * the heap) to its next use, so access() sifts up; evict() leaves the last entry at
 * the root and sifts it down.
 *
 * The current reference index comes from r->now.  Without prepare() (or past the
 * end of the prepared trace) every key is "never again", i.e. the module degrades
 * to LRU instead of failing.
 */
#include "models/reclaim/reclaim.h"

#include <stdlib.h>
#include <string.h>

#define OPT_NEVER UINT32_MAX
#define OPT_MAX_REFS ((size_t)1 << 31)

struct opt_ent {
	uint32_t key;
	uint32_t frame;
};

struct opt {
	struct opt_ent *heap;  /* heap[0..n-1] */
	uint32_t *pos;         /* frame -> heap slot, or RECLAIM_NO_FRAME */
	uint32_t n;
	uint32_t *next;        /* per reference: index of the next use, or OPT_NEVER */
	size_t nrefs;
};

static int opt_init(struct reclaim *r, struct mm_err *e)
{
	struct opt *o = r->priv;
	o->heap = malloc((size_t)r->nframes * sizeof *o->heap);
	o->pos = malloc((size_t)r->nframes * sizeof *o->pos);
	if (!o->heap || !o->pos) {
		free(o->heap);
		free(o->pos);
		return mm_errf(e, NULL, NULL, "opt: out of memory for %u frames", r->nframes);
	}
	memset(o->pos, 0xff, (size_t)r->nframes * sizeof *o->pos);
	o->n = 0;
	return 0;
}

static void opt_fini(struct reclaim *r)
{
	struct opt *o = r->priv;
	free(o->heap);
	free(o->pos);
	free(o->next);
}

static int opt_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	struct opt *o = r->priv;
	if (nrefs >= OPT_MAX_REFS)
		return mm_errf(e, NULL, NULL, "opt: at most %zu references are supported, got %zu",
			       OPT_MAX_REFS - 1, nrefs);
	uint32_t maxid = 0;
	for (size_t i = 0; i < nrefs; i++)
		if (refs[i] > maxid)
			maxid = refs[i];
	uint32_t *next = malloc((nrefs ? nrefs : 1) * sizeof *next);
	uint32_t *last = malloc(((size_t)maxid + 1) * sizeof *last);
	if (!next || !last) {
		free(next);
		free(last);
		return mm_errf(e, NULL, NULL, "opt: out of memory for the next-use table of %zu "
			       "references over page ids up to %u", nrefs, maxid);
	}
	memset(last, 0xff, ((size_t)maxid + 1) * sizeof *last);
	for (size_t i = nrefs; i-- > 0;) {
		uint32_t p = refs[i];
		next[i] = last[p];
		last[p] = (uint32_t)i;
	}
	free(last);
	free(o->next);
	o->next = next;
	o->nrefs = nrefs;
	return 0;
}

/* Key of the page referenced at r->now. */
static inline uint32_t opt_key(const struct reclaim *r, const struct opt *o)
{
	uint64_t now = r->now;
	if (o->next && now < o->nrefs) {
		uint32_t nx = o->next[now];
		if (nx != OPT_NEVER)
			return nx;
		return OPT_NEVER - (uint32_t)now;
	}
	return (uint32_t)OPT_MAX_REFS;  /* unknown future: "never", all tied */
}

static inline void opt_sift_up(struct opt *o, uint32_t i, struct opt_ent x)
{
	struct opt_ent *h = o->heap;
	while (i > 0) {
		uint32_t p = (i - 1) >> 1;
		if (h[p].key >= x.key)
			break;
		h[i] = h[p];
		o->pos[h[i].frame] = i;
		i = p;
	}
	h[i] = x;
	o->pos[x.frame] = i;
}

static inline void opt_sift_down(struct opt *o, uint32_t i, struct opt_ent x)
{
	struct opt_ent *h = o->heap;
	uint32_t n = o->n;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].key > h[c].key)
			c++;
		if (h[c].key <= x.key)
			break;
		h[i] = h[c];
		o->pos[h[i].frame] = i;
		i = c;
	}
	h[i] = x;
	o->pos[x.frame] = i;
}

static void opt_add(struct reclaim *r, uint32_t fr)
{
	struct opt *o = r->priv;
	struct opt_ent x = { opt_key(r, o), fr };
	if (o->pos[fr] != RECLAIM_NO_FRAME)
		return; /* already resident: caller bug, keep the heap consistent */
	opt_sift_up(o, o->n++, x);
}

static void opt_delete_at(struct opt *o, uint32_t i)
{
	o->pos[o->heap[i].frame] = RECLAIM_NO_FRAME;
	struct opt_ent last = o->heap[--o->n];
	if (i == o->n)
		return;
	if (i > 0 && o->heap[(i - 1) >> 1].key < last.key)
		opt_sift_up(o, i, last);
	else
		opt_sift_down(o, i, last);
}

static void opt_access(struct reclaim *r, uint32_t fr)
{
	struct opt *o = r->priv;
	uint32_t i = o->pos[fr];
	if (i == RECLAIM_NO_FRAME)
		return;
	struct opt_ent x = { opt_key(r, o), fr };
	if (x.key >= o->heap[i].key)
		opt_sift_up(o, i, x);
	else
		opt_sift_down(o, i, x);
}

static void opt_remove(struct reclaim *r, uint32_t fr)
{
	struct opt *o = r->priv;
	uint32_t i = o->pos[fr];
	if (i != RECLAIM_NO_FRAME)
		opt_delete_at(o, i);
}

static uint32_t opt_evict(struct reclaim *r)
{
	struct opt *o = r->priv;
	if (o->n == 0)
		return RECLAIM_NO_FRAME;
	uint32_t v = o->heap[0].frame;
	opt_delete_at(o, 0);
	return v;
}

/* "next_use": per frame, how many references after the current one its page is
 * used again (null: a free frame or a page never used again), the key OPT
 * evicts by. */
static void opt_describe(const struct reclaim *r, json_t *out)
{
	const struct opt *o = r->priv;
	json_t *d = json_array();
	for (uint32_t f = 0; f < r->nframes; f++) {
		uint32_t i = o->pos[f];
		uint32_t key = i == RECLAIM_NO_FRAME ? OPT_NEVER : o->heap[i].key;
		json_array_append_new(d, key < o->nrefs && key > r->now
					 ? json_integer((json_int_t)(key - r->now)) : json_null());
	}
	json_object_set_new(out, "next_use", d);
}

const struct reclaim_ops reclaim_opt = {
	.version = 2,
	.name = "opt",
	.desc = "Belady's optimal (offline): evict the page whose next use is farthest",
	.params = NULL,
	.cfg_size = 0,
	.priv_size = sizeof(struct opt),
	.init = opt_init,
	.fini = opt_fini,
	.prepare = opt_prepare,
	.add = opt_add,
	.access = opt_access,
	.remove = opt_remove,
	.evict = opt_evict,
	.needs_trace = 1,
	.describe = opt_describe,
};
