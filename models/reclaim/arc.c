/*
 * arc.c - ARC, Adaptive Replacement Cache (Megiddo and Modha, "ARC: A
 * Self-Tuning, Low Overhead Replacement Cache", FAST 2003, Figure 4).
 *
 * Four LRU lists over c frames: T1 (resident pages seen once recently), T2
 * (resident pages seen at least twice), B1 and B2 (ghosts: ids of pages evicted
 * from T1 and T2).  A target p for |T1| adapts: a fault on a B1 ghost says T1 was
 * too small (p grows by max(1, |B2|/|B1|)), a fault on a B2 ghost the opposite
 * (p shrinks by max(1, |B1|/|B2|)); the division is integer, so p stays a whole
 * number of pages.  REPLACE evicts T1's LRU page to B1 if |T1| > p (or |T1| = p
 * and the faulting page is a B2 ghost), else T2's LRU page to B2.
 *   hit             move to T2's MRU end
 *   fault, ghost    adapt p, REPLACE, the page enters T2's MRU end
 *   other fault     if |T1| + |B1| = c: drop B1's LRU ghost and REPLACE, or, when
 *                   B1 is empty, evict T1's LRU page without a ghost; otherwise
 *                   drop B2's LRU ghost if the four lists hold 2c, and REPLACE;
 *                   the page enters T1's MRU end
 * Which case applies depends on the faulting page, which the core passes in
 * r->fault_page before evict().  ARC has no parameters (p starts at 0).
 *
 * Design: resident pages are qlist nodes 0..c-1 (T1, T2), ghosts nodes c..2c
 * (B1, B2; a fault on a ghost can briefly make c + 1 of them), with their page
 * ids and a page table from page id to ghost node.  When a fault did not need an
 * eviction (memory not yet full, or after remove()), add() does the list upkeep
 * evict() would have done.
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>

enum { ARC_T1, ARC_T2, ARC_B1, ARC_B2, ARC_NLISTS };

struct arc {
	struct qlist q;
	uint8_t *in_t2;         /* per frame */
	uint8_t *in_b2;         /* per ghost slot */
	uint32_t *gpage, *gfree, ngfree;
	struct pagetab dir;     /* page id -> ghost node */
	uint32_t c, p, n[ARC_NLISTS];
	int evicted;            /* evict() ran for the fault add() completes */
};

static int arc_init(struct reclaim *r, struct mm_err *e)
{
	struct arc *a = r->priv;
	uint32_t c = r->nframes, ng = c + 1;
	a->c = c;
	if (ql_alloc(&a->q, c + ng, ARC_NLISTS, "arc", e) < 0)
		return -1;
	a->in_t2 = calloc(c, 1);
	a->in_b2 = calloc(ng, 1);
	a->gpage = malloc((size_t)ng * sizeof *a->gpage);
	a->gfree = malloc((size_t)ng * sizeof *a->gfree);
	if (!a->in_t2 || !a->in_b2 || !a->gpage || !a->gfree) {
		ql_free(&a->q);
		free(a->in_t2);
		free(a->in_b2);
		free(a->gpage);
		free(a->gfree);
		return mm_errf(e, NULL, NULL, "arc: out of memory for %u frames", c);
	}
	for (uint32_t i = 0; i < ng; i++)
		a->gfree[i] = c + ng - 1 - i;
	a->ngfree = ng;
	return 0;
}

static void arc_fini(struct reclaim *r)
{
	struct arc *a = r->priv;
	ql_free(&a->q);
	free(a->in_t2);
	free(a->in_b2);
	free(a->gpage);
	free(a->gfree);
	pagetab_free(&a->dir);
}

static int arc_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	struct arc *a = r->priv;
	return reclaim_pagetab_prepare(&a->dir, refs, nrefs, "arc", e);
}

static void ghost_drop(struct arc *a, uint32_t g)
{
	ql_unlink(&a->q, g);
	pagetab_set(&a->dir, a->gpage[g - a->c], QL_NONE);
	a->gfree[a->ngfree++] = g;
	a->n[a->in_b2[g - a->c] ? ARC_B2 : ARC_B1]--;
}

static void drop_lru(struct arc *a, int list)
{
	uint32_t g = ql_tail(&a->q, (uint32_t)list);
	if (g != QL_NONE)
		ghost_drop(a, g);
}

static void ghost_push(struct arc *a, int list, uint32_t page)
{
	if (!a->ngfree)   /* cannot happen with the invariants kept; stay safe */
		drop_lru(a, a->n[ARC_B1] ? ARC_B1 : ARC_B2);
	uint32_t g = a->gfree[--a->ngfree];
	if (pagetab_set(&a->dir, page, g) < 0) {   /* out of memory: the ghost is not kept */
		a->ngfree++;
		return;
	}
	a->gpage[g - a->c] = page;
	a->in_b2[g - a->c] = list == ARC_B2;
	ql_push_head(&a->q, (uint32_t)list, g);
	a->n[list]++;
}

/* ghost list (ARC_B1 / ARC_B2) holding @page, or -1 */
static int ghost_of(const struct arc *a, uint32_t page, uint32_t *g)
{
	*g = pagetab_get(&a->dir, page);
	if (*g == QL_NONE)
		return -1;
	return a->in_b2[*g - a->c] ? ARC_B2 : ARC_B1;
}

static void adapt(struct arc *a, int list)
{
	uint32_t b1 = a->n[ARC_B1], b2 = a->n[ARC_B2];
	if (list == ARC_B1) {
		uint32_t d = b1 >= b2 ? 1 : b2 / b1;
		a->p = a->p + d > a->c ? a->c : a->p + d;
	} else {
		uint32_t d = b2 >= b1 ? 1 : b1 / b2;
		a->p = a->p > d ? a->p - d : 0;
	}
}

/* Returns: the evicted frame (its id now a ghost), or RECLAIM_NO_FRAME. */
static uint32_t replace(struct reclaim *r, struct arc *a, int x_in_b2)
{
	uint32_t t1 = a->n[ARC_T1];
	int from = (t1 && (t1 > a->p || (x_in_b2 && t1 == a->p))) || !a->n[ARC_T2] ? ARC_T1 : ARC_T2;
	uint32_t v = ql_tail(&a->q, (uint32_t)from);
	if (v == QL_NONE)
		return RECLAIM_NO_FRAME;
	ql_unlink(&a->q, v);
	a->n[from]--;
	ghost_push(a, from == ARC_T1 ? ARC_B1 : ARC_B2, reclaim_page(r, v));
	return v;
}

static uint32_t arc_evict(struct reclaim *r)
{
	struct arc *a = r->priv;
	uint32_t g;
	int gl = r->fault_page == RECLAIM_NO_FRAME ? -1 : ghost_of(a, r->fault_page, &g);
	a->evicted = 1;
	if (gl >= 0) {
		adapt(a, gl);
		return replace(r, a, gl == ARC_B2);
	}
	uint32_t *n = a->n;
	if (n[ARC_T1] + n[ARC_B1] >= a->c) {
		if (n[ARC_B1]) {
			drop_lru(a, ARC_B1);
			return replace(r, a, 0);
		}
		uint32_t v = ql_tail(&a->q, ARC_T1);   /* |T1| = c: no ghost */
		ql_unlink(&a->q, v);
		n[ARC_T1]--;
		return v;
	}
	if (n[ARC_T1] + n[ARC_T2] + n[ARC_B1] + n[ARC_B2] >= 2 * a->c)
		drop_lru(a, ARC_B2);
	return replace(r, a, 0);
}

static void arc_add(struct reclaim *r, uint32_t fr)
{
	struct arc *a = r->priv;
	uint32_t g, *n = a->n;
	int gl = ghost_of(a, reclaim_page(r, fr), &g);
	if (gl >= 0) {
		if (!a->evicted)
			adapt(a, gl);
		ghost_drop(a, g);
		a->in_t2[fr] = 1;
		ql_push_head(&a->q, ARC_T2, fr);
		n[ARC_T2]++;
	} else {
		if (!a->evicted) {   /* keep |L1| <= c and |L1| + |L2| <= 2c */
			if (n[ARC_T1] + n[ARC_B1] >= a->c)
				drop_lru(a, ARC_B1);
			if (n[ARC_T1] + n[ARC_T2] + n[ARC_B1] + n[ARC_B2] >= 2 * a->c)
				drop_lru(a, ARC_B2);
		}
		a->in_t2[fr] = 0;
		ql_push_head(&a->q, ARC_T1, fr);
		n[ARC_T1]++;
	}
	a->evicted = 0;
}

static void arc_access(struct reclaim *r, uint32_t fr)
{
	struct arc *a = r->priv;
	ql_unlink(&a->q, fr);
	if (!a->in_t2[fr]) {
		a->in_t2[fr] = 1;
		a->n[ARC_T1]--;
		a->n[ARC_T2]++;
	}
	ql_push_head(&a->q, ARC_T2, fr);
}

static void arc_remove(struct reclaim *r, uint32_t fr)
{
	struct arc *a = r->priv;
	ql_unlink(&a->q, fr);
	a->n[a->in_t2[fr] ? ARC_T2 : ARC_T1]--;
}

const struct reclaim_ops reclaim_arc = {
	.version = 1,
	.name = "arc",
	.desc = "ARC (Megiddo & Modha 2003): recency T1 and frequency T2 lists, ghost-driven target",
	.params = NULL,
	.cfg_size = 0,
	.priv_size = sizeof(struct arc),
	.init = arc_init,
	.fini = arc_fini,
	.prepare = arc_prepare,
	.add = arc_add,
	.access = arc_access,
	.remove = arc_remove,
	.evict = arc_evict,
};
