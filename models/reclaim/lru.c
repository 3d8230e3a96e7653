/*
 * lru.c - exact least recently used: evict the page referenced longest ago.
 *
 * Design: a circular doubly linked list of frames, most recently used at the head,
 * threaded through two uint32 arrays indexed by frame (next[], prev[]) with a
 * sentinel at index nframes.  add() and access() move the frame to the head,
 * evict() takes the tail, remove() unlinks; all O(1), 8 bytes per frame, no
 * allocation after init().
 */
#include "models/reclaim/reclaim.h"

#include <stdlib.h>

struct lru {
	uint32_t *next, *prev;  /* nframes + 1 entries; [nframes] is the sentinel */
	uint32_t s;             /* sentinel index (== nframes) */
};

static int lru_init(struct reclaim *r, struct mm_err *e)
{
	struct lru *l = r->priv;
	uint32_t n = r->nframes;
	l->next = malloc(((size_t)n + 1) * sizeof *l->next);
	l->prev = malloc(((size_t)n + 1) * sizeof *l->prev);
	if (!l->next || !l->prev) {
		free(l->next);
		free(l->prev);
		return mm_errf(e, NULL, NULL, "lru: out of memory for %u frames", n);
	}
	l->s = n;
	l->next[n] = l->prev[n] = n;
	return 0;
}

static void lru_fini(struct reclaim *r)
{
	struct lru *l = r->priv;
	free(l->next);
	free(l->prev);
}

static inline void lru_unlink(struct lru *l, uint32_t fr)
{
	uint32_t p = l->prev[fr], n = l->next[fr];
	l->next[p] = n;
	l->prev[n] = p;
}

static inline void lru_push_head(struct lru *l, uint32_t fr)
{
	uint32_t s = l->s, h = l->next[s];
	l->next[fr] = h;
	l->prev[fr] = s;
	l->prev[h] = fr;
	l->next[s] = fr;
}

static void lru_add(struct reclaim *r, uint32_t fr)
{
	lru_push_head(r->priv, fr);
}

static void lru_access(struct reclaim *r, uint32_t fr)
{
	struct lru *l = r->priv;
	if (l->next[l->s] == fr)
		return;
	lru_unlink(l, fr);
	lru_push_head(l, fr);
}

static void lru_remove(struct reclaim *r, uint32_t fr)
{
	lru_unlink(r->priv, fr);
}

static uint32_t lru_evict(struct reclaim *r)
{
	struct lru *l = r->priv;
	uint32_t v = l->prev[l->s];
	if (v == l->s)
		return RECLAIM_NO_FRAME;
	lru_unlink(l, v);
	return v;
}

const struct reclaim_ops reclaim_lru = {
	.version = 1,
	.name = "lru",
	.desc = "exact least recently used: evict the page referenced longest ago",
	.params = NULL,
	.cfg_size = 0,
	.priv_size = sizeof(struct lru),
	.init = lru_init,
	.fini = lru_fini,
	.add = lru_add,
	.access = lru_access,
	.remove = lru_remove,
	.evict = lru_evict,
};
