/*
 * lirs.c - LIRS, Low Inter-reference Recency Set (Jiang and Zhang, "LIRS: An
 * Efficient Low Inter-reference Recency Set Replacement Policy to Improve Buffer
 * Cache Performance", SIGMETRICS 2002, section 3).
 *
 * Pages are LIR (low inter-reference recency: kept) or HIR.  Of c frames, Lhirs
 * hold resident HIR pages and Llirs = c - Lhirs hold LIR pages.  Stack S orders
 * pages by recency (LIR pages, and HIR pages resident or not that are more recent
 * than the least recent LIR page: S's bottom is always LIR, "stack pruning" drops
 * HIR entries from the bottom); list Q holds the resident HIR pages, evicted from
 * its front.
 *   hit, LIR            move to S's top (prune if it was the bottom)
 *   hit, HIR in S       move to S's top, become LIR (leave Q); S's bottom LIR page
 *                       becomes HIR and goes to Q's end; prune
 *   hit, HIR not in S   push on S's top, move to Q's end
 *   fault               (after eviction of Q's front, which stays in S as a
 *                       non-resident HIR entry if it was there) while fewer than
 *                       Llirs pages are LIR the page becomes LIR; if it was a
 *                       non-resident entry of S it becomes LIR and the bottom LIR
 *                       page is demoted as above; else it is HIR, pushed on S and
 *                       put at Q's end
 * Parameters: hir_ratio, Lhirs as a share of the frames (the paper: 1%), at least
 * one frame.  The paper's stack is unbounded; here the non-resident entries are
 * capped at nonresident_ratio x frames (a judgement: 2 by default, range 0..16;
 * beyond it the entry that left memory first is dropped from S).
 *
 * Design: resident pages are nodes 0..c-1 (one per frame), non-resident entries
 * nodes c.. with their page ids and a page table from page id to node.  Two qlists
 * over the same nodes: S, and Q plus NR (the non-resident entries in the order
 * they left memory).  About 20 bytes per frame and 20 per non-resident entry.
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>

enum { LQ_Q, LQ_NR };
enum { LIRS_LIR = 1, LIRS_HIR = 2, LIRS_NONRES = 3 };

struct lirs_cfg {
	double hir_ratio, nonresident_ratio;
};

struct lirs {
	struct qlist s, q;      /* s: stack S (head = top); q: Q (head = end) and NR */
	uint8_t *state;         /* per node: LIRS_* */
	uint8_t *in_s;          /* per node */
	uint32_t *gpage, *gfree, ngfree, gcap;
	struct pagetab dir;     /* page id -> non-resident node */
	uint32_t c, llirs, nlir;
};

static const struct mm_param lirs_params[] = {
	MM_PARAM(struct lirs_cfg, hir_ratio, "hir_ratio", MM_P_DOUBLE, 0, 1, "0.01",
		 "share of the frames for resident HIR pages (Lhirs); the paper: 1%, at least 1 frame"),
	MM_PARAM(struct lirs_cfg, nonresident_ratio, "nonresident_ratio", MM_P_DOUBLE, 0, 16, "2",
		 "cap on non-resident HIR entries in S, x frames (judgement; the paper: unbounded)"),
	MM_PARAM_END,
};

static int lirs_init(struct reclaim *r, struct mm_err *e)
{
	struct lirs *l = r->priv;
	const struct lirs_cfg *cf = r->cfg;
	uint32_t c = r->nframes;
	uint32_t lh = (uint32_t)(cf->hir_ratio * c);
	if (lh < 1)
		lh = 1;
	if (lh > c)
		lh = c;
	l->c = c;
	l->llirs = c - lh;
	l->gcap = (uint32_t)(cf->nonresident_ratio * c);
	uint32_t nn = c + l->gcap;
	if (ql_alloc(&l->s, nn, 1, "lirs", e) < 0)
		return -1;
	if (ql_alloc(&l->q, nn, 2, "lirs", e) < 0) {
		ql_free(&l->s);
		return -1;
	}
	l->state = calloc(nn, 1);
	l->in_s = calloc(nn, 1);
	l->gpage = malloc(((size_t)l->gcap + 1) * sizeof *l->gpage);
	l->gfree = malloc(((size_t)l->gcap + 1) * sizeof *l->gfree);
	if (!l->state || !l->in_s || !l->gpage || !l->gfree) {
		ql_free(&l->s);
		ql_free(&l->q);
		free(l->state);
		free(l->in_s);
		free(l->gpage);
		free(l->gfree);
		return mm_errf(e, NULL, NULL, "lirs: out of memory for %u frames", c);
	}
	for (uint32_t i = 0; i < l->gcap; i++)
		l->gfree[i] = nn - 1 - i;
	l->ngfree = l->gcap;
	return 0;
}

static void lirs_fini(struct reclaim *r)
{
	struct lirs *l = r->priv;
	ql_free(&l->s);
	ql_free(&l->q);
	free(l->state);
	free(l->in_s);
	free(l->gpage);
	free(l->gfree);
	pagetab_free(&l->dir);
}

static int lirs_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	struct lirs *l = r->priv;
	return reclaim_pagetab_prepare(&l->dir, refs, nrefs, "lirs", e);
}

static void s_out(struct lirs *l, uint32_t x)
{
	ql_unlink(&l->s, x);
	l->in_s[x] = 0;
}

static void s_top(struct lirs *l, uint32_t x)
{
	if (l->in_s[x])
		ql_unlink(&l->s, x);
	ql_push_head(&l->s, 0, x);
	l->in_s[x] = 1;
}

/* forget non-resident entry @g (in S and on NR) */
static void nr_free(struct lirs *l, uint32_t g)
{
	if (l->in_s[g])
		s_out(l, g);
	ql_unlink(&l->q, g);
	pagetab_set(&l->dir, l->gpage[g - l->c], QL_NONE);
	l->state[g] = 0;
	l->gfree[l->ngfree++] = g;
}

/* drop HIR entries from S's bottom until it is LIR (or S is empty) */
static void prune(struct lirs *l)
{
	uint32_t b;
	while ((b = ql_tail(&l->s, 0)) != QL_NONE && l->state[b] != LIRS_LIR) {
		if (l->state[b] == LIRS_NONRES)
			nr_free(l, b);
		else
			s_out(l, b);
	}
}

/* S's bottom LIR page becomes a resident HIR page at Q's end; prune */
static void demote_bottom(struct lirs *l)
{
	uint32_t b = ql_tail(&l->s, 0);
	if (b == QL_NONE)
		return;
	s_out(l, b);
	l->state[b] = LIRS_HIR;
	l->nlir--;
	ql_push_head(&l->q, LQ_Q, b);
	prune(l);
}

static void make_lir(struct lirs *l, uint32_t x)
{
	l->state[x] = LIRS_LIR;
	l->nlir++;
	if (l->nlir > l->llirs)
		demote_bottom(l);
	else
		prune(l);
}

static void lirs_access(struct reclaim *r, uint32_t x)
{
	struct lirs *l = r->priv;
	if (l->state[x] == LIRS_LIR) {
		int bottom = ql_tail(&l->s, 0) == x;
		s_top(l, x);
		if (bottom)
			prune(l);
	} else if (l->in_s[x]) {
		s_top(l, x);
		ql_unlink(&l->q, x);
		make_lir(l, x);
	} else {
		s_top(l, x);
		ql_unlink(&l->q, x);
		ql_push_head(&l->q, LQ_Q, x);
	}
}

static void lirs_add(struct reclaim *r, uint32_t x)
{
	struct lirs *l = r->priv;
	uint32_t g = pagetab_get(&l->dir, reclaim_page(r, x));
	l->in_s[x] = 0;
	if (g != QL_NONE) {
		nr_free(l, g);
		s_top(l, x);
		make_lir(l, x);
	} else if (l->nlir < l->llirs) {
		s_top(l, x);
		l->state[x] = LIRS_LIR;
		l->nlir++;
	} else {
		s_top(l, x);
		l->state[x] = LIRS_HIR;
		ql_push_head(&l->q, LQ_Q, x);
		prune(l);
	}
}

static void lirs_remove(struct reclaim *r, uint32_t x)
{
	struct lirs *l = r->priv;
	if (l->state[x] == LIRS_LIR)
		l->nlir--;
	else
		ql_unlink(&l->q, x);
	if (l->in_s[x])
		s_out(l, x);
	l->state[x] = 0;
	prune(l);
}

static uint32_t lirs_evict(struct reclaim *r)
{
	struct lirs *l = r->priv;
	uint32_t v = ql_tail(&l->q, LQ_Q);
	if (v == QL_NONE) {   /* no resident HIR page (degenerate sizes): the bottom LIR */
		v = ql_tail(&l->s, 0);
		if (v == QL_NONE)
			return RECLAIM_NO_FRAME;
		s_out(l, v);
		l->nlir--;
		l->state[v] = 0;
		prune(l);
		return v;
	}
	ql_unlink(&l->q, v);
	if (l->in_s[v] && l->gcap) {
		/* stays in S as a non-resident entry, in v's place */
		if (!l->ngfree) {
			/* drop the oldest entry, but never the faulting page's own */
			uint32_t o = ql_tail(&l->q, LQ_NR);
			if (r->fault_page != RECLAIM_NO_FRAME && o == pagetab_get(&l->dir, r->fault_page))
				o = ql_towards_head(&l->q, o);
			if (o != QL_NONE)
				nr_free(l, o);
		}
	}
	if (l->in_s[v] && l->ngfree) {
		uint32_t g = l->gfree[--l->ngfree];
		uint32_t page = reclaim_page(r, v);
		if (pagetab_set(&l->dir, page, g) == 0) {
			l->gpage[g - l->c] = page;
			l->state[g] = LIRS_NONRES;
			ql_insert_after(&l->s, l->s.prev[v], g);
			l->in_s[g] = 1;
			ql_push_head(&l->q, LQ_NR, g);
		} else {
			l->gfree[l->ngfree++] = g;   /* out of memory: the entry is not kept */
		}
	}
	if (l->in_s[v])
		s_out(l, v);
	l->state[v] = 0;
	return v;
}

const struct reclaim_ops reclaim_lirs = {
	.version = 1,
	.name = "lirs",
	.desc = "LIRS (Jiang & Zhang 2002): keep pages of low inter-reference recency (stack S, list Q)",
	.params = lirs_params,
	.cfg_size = sizeof(struct lirs_cfg),
	.priv_size = sizeof(struct lirs),
	.init = lirs_init,
	.fini = lirs_fini,
	.prepare = lirs_prepare,
	.add = lirs_add,
	.access = lirs_access,
	.remove = lirs_remove,
	.evict = lirs_evict,
};
