/*
 * twoq.c - 2Q, the full version (Johnson and Shasha, "2Q: A Low Overhead High
 * Performance Buffer Management Replacement Algorithm", VLDB 1994, section 2.2).
 *
 * Three queues: A1in, a FIFO of pages seen once recently (resident); A1out, a
 * FIFO of the ids of pages evicted from A1in (not resident: a "ghost" list); Am,
 * an LRU list of pages referenced again after leaving A1in (resident).
 *   hit in Am          move to the head of Am
 *   hit in A1in        nothing (correlated references stay in the FIFO)
 *   fault, id in A1out the page goes to the head of Am (its id leaves A1out)
 *   other fault        the page goes to the head of A1in
 *   reclaim            if |A1in| > Kin: A1in's tail goes out and its id to the
 *                      head of A1out (whose tail is dropped beyond Kout ids);
 *                      otherwise Am's tail goes out (and is forgotten).
 * "X in A1out" is decided before reclaimfor(X), as in the paper's pseudocode, so
 * the core passes the faulting page in r->fault_page before evict().  When the
 * chosen queue is empty the other one gives the victim (the paper leaves this
 * case open: with Kin = 0 and an empty Am, or before Am has pages).
 * Parameters (the paper's recommendation, section 3.1): kin = 25% and kout = 50%
 * of the page slots; Kin = floor(kin * frames), Kout = floor(kout * frames).
 *
 * Design: resident pages are qlist nodes 0..nframes-1 (lists A1in and Am); A1out
 * is a ghostfifo (qlist.h).  9 bytes per frame, 12 per A1out id, 4 per page id.
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>

enum { TQ_A1IN, TQ_AM, TQ_NLISTS };

struct twoq_cfg {
	double kin, kout;
};

struct twoq {
	struct qlist q;
	uint8_t *inam;          /* per frame: 1 if on Am, 0 if on A1in */
	struct ghostfifo a1out;
	uint32_t kin, n_a1in;
	uint32_t to_am;         /* faulting page found in A1out by evict(), or QL_NONE */
};

static const struct mm_param twoq_params[] = {
	MM_PARAM(struct twoq_cfg, kin, "kin", MM_P_DOUBLE, 0, 1, "0.25",
		 "A1in's share of the frames (Kin); the paper recommends 25%"),
	MM_PARAM(struct twoq_cfg, kout, "kout", MM_P_DOUBLE, 0, 4, "0.5",
		 "A1out's size in page ids, as a share of the frames (Kout); the paper recommends 50%"),
	MM_PARAM_END,
};

static int twoq_init(struct reclaim *r, struct mm_err *e)
{
	struct twoq *t = r->priv;
	const struct twoq_cfg *c = r->cfg;
	uint32_t n = r->nframes;
	t->kin = (uint32_t)(c->kin * n);
	t->to_am = QL_NONE;
	if (ql_alloc(&t->q, n, TQ_NLISTS, "2q", e) < 0)
		return -1;
	if (gf_alloc(&t->a1out, (uint32_t)(c->kout * n), "2q", e) < 0) {
		ql_free(&t->q);
		return -1;
	}
	t->inam = calloc(n, 1);
	if (!t->inam) {
		ql_free(&t->q);
		gf_free(&t->a1out);
		return mm_errf(e, NULL, NULL, "2q: out of memory for %u frames", n);
	}
	return 0;
}

static void twoq_fini(struct reclaim *r)
{
	struct twoq *t = r->priv;
	ql_free(&t->q);
	free(t->inam);
	gf_free(&t->a1out);
}

static int twoq_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	struct twoq *t = r->priv;
	return reclaim_pagetab_prepare(&t->a1out.dir, refs, nrefs, "2q", e);
}

static void twoq_add(struct reclaim *r, uint32_t fr)
{
	struct twoq *t = r->priv;
	uint32_t page = reclaim_page(r, fr);
	int am = page == t->to_am || gf_take(&t->a1out, page);
	t->to_am = QL_NONE;
	t->inam[fr] = (uint8_t)am;
	ql_push_head(&t->q, am ? TQ_AM : TQ_A1IN, fr);
	t->n_a1in += !am;
}

static void twoq_access(struct reclaim *r, uint32_t fr)
{
	struct twoq *t = r->priv;
	if (t->inam[fr]) {
		ql_unlink(&t->q, fr);
		ql_push_head(&t->q, TQ_AM, fr);
	}
}

static void twoq_remove(struct reclaim *r, uint32_t fr)
{
	struct twoq *t = r->priv;
	ql_unlink(&t->q, fr);
	if (!t->inam[fr])
		t->n_a1in--;
}

static uint32_t twoq_evict(struct reclaim *r)
{
	struct twoq *t = r->priv;
	if (r->fault_page != RECLAIM_NO_FRAME && gf_take(&t->a1out, r->fault_page))
		t->to_am = r->fault_page;
	uint32_t am = ql_tail(&t->q, TQ_AM);
	if (t->n_a1in > t->kin || (am == QL_NONE && t->n_a1in)) {
		uint32_t v = ql_tail(&t->q, TQ_A1IN);
		ql_unlink(&t->q, v);
		t->n_a1in--;
		gf_push(&t->a1out, reclaim_page(r, v));
		return v;
	}
	if (am == QL_NONE)
		return RECLAIM_NO_FRAME;
	ql_unlink(&t->q, am);
	return am;
}

const struct reclaim_ops reclaim_twoq = {
	.version = 1,
	.name = "2q",
	.desc = "2Q (Johnson & Shasha 1994), full version: FIFO A1in, ghost A1out, LRU Am",
	.params = twoq_params,
	.cfg_size = sizeof(struct twoq_cfg),
	.priv_size = sizeof(struct twoq),
	.init = twoq_init,
	.fini = twoq_fini,
	.prepare = twoq_prepare,
	.add = twoq_add,
	.access = twoq_access,
	.remove = twoq_remove,
	.evict = twoq_evict,
};
