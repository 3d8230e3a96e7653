/*
 * qlist.c - allocation for the index lists and page tables of qlist.h (the list
 * operations themselves are inline there).
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>
#include <string.h>

int ql_alloc(struct qlist *q, uint32_t nnodes, uint32_t nlists, const char *who,
	     struct mm_err *e)
{
	size_t n = (size_t)nnodes + nlists;
	q->nnodes = nnodes;
	q->next = malloc(n * sizeof *q->next);
	q->prev = malloc(n * sizeof *q->prev);
	if (!q->next || !q->prev) {
		ql_free(q);
		return mm_errf(e, NULL, NULL, "%s: out of memory for %u list nodes", who, nnodes);
	}
	for (uint32_t k = 0; k < nlists; k++)
		q->next[nnodes + k] = q->prev[nnodes + k] = nnodes + k;
	return 0;
}

void ql_free(struct qlist *q)
{
	free(q->next);
	free(q->prev);
	q->next = q->prev = NULL;
}

static int grow(struct pagetab *t, uint32_t want)
{
	if (want <= t->n)
		return 0;
	uint64_t n = t->n ? t->n : 1024;
	while (n < want)
		n *= 2;
	if (n > (uint64_t)QL_NONE)
		n = QL_NONE;
	uint32_t *v = realloc(t->v, (size_t)n * sizeof *v);
	if (!v)
		return -1;
	memset(v + t->n, 0xff, (size_t)(n - t->n) * sizeof *v);
	t->v = v;
	t->n = (uint32_t)n;
	return 0;
}

int pagetab_set(struct pagetab *t, uint32_t page, uint32_t val)
{
	if (page >= t->n && (page == QL_NONE || grow(t, page + 1) < 0))
		return -1;
	t->v[page] = val;
	return 0;
}

int pagetab_reserve(struct pagetab *t, uint32_t npages, const char *who, struct mm_err *e)
{
	if (grow(t, npages) < 0)
		return mm_errf(e, NULL, NULL, "%s: out of memory for a table of %u pages", who, npages);
	return 0;
}

void pagetab_free(struct pagetab *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

int reclaim_pagetab_prepare(struct pagetab *t, const uint32_t *refs, size_t nrefs,
			    const char *who, struct mm_err *e)
{
	uint32_t mx = 0;
	for (size_t i = 0; i < nrefs; i++)
		if (refs[i] >= mx)
			mx = refs[i] == QL_NONE ? QL_NONE : refs[i] + 1;
	return pagetab_reserve(t, mx, who, e);
}

int gf_alloc(struct ghostfifo *g, uint32_t cap, const char *who, struct mm_err *e)
{
	g->cap = cap;
	g->n = 0;
	if (ql_alloc(&g->q, cap, 1, who, e) < 0)
		return -1;
	g->page = malloc(((size_t)cap + 1) * sizeof *g->page);
	g->free = malloc(((size_t)cap + 1) * sizeof *g->free);
	if (!g->page || !g->free) {
		gf_free(g);
		return mm_errf(e, NULL, NULL, "%s: out of memory for %u ghost entries", who, cap);
	}
	for (uint32_t i = 0; i < cap; i++)
		g->free[i] = cap - 1 - i;
	g->nfree = cap;
	return 0;
}

void gf_free(struct ghostfifo *g)
{
	ql_free(&g->q);
	free(g->page);
	free(g->free);
	g->page = g->free = NULL;
	pagetab_free(&g->dir);
}

static void gf_drop(struct ghostfifo *g, uint32_t x)
{
	ql_unlink(&g->q, x);
	pagetab_set(&g->dir, g->page[x], QL_NONE);
	g->free[g->nfree++] = x;
	g->n--;
}

int gf_take(struct ghostfifo *g, uint32_t page)
{
	uint32_t x = pagetab_get(&g->dir, page);
	if (x == QL_NONE)
		return 0;
	gf_drop(g, x);
	return 1;
}

void gf_push(struct ghostfifo *g, uint32_t page)
{
	if (!g->cap)
		return;
	if (g->n == g->cap)
		gf_drop(g, ql_tail(&g->q, 0));
	uint32_t x = g->free[--g->nfree];
	if (pagetab_set(&g->dir, page, x) < 0) {   /* out of memory: the id is not kept */
		g->nfree++;
		return;
	}
	g->page[x] = page;
	ql_push_head(&g->q, 0, x);
	g->n++;
}
