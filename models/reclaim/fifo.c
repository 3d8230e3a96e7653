/*
 * fifo.c - first in, first out: evict the page that was loaded longest ago.
 *
 * Design: a circular doubly linked list threaded through two uint32 arrays indexed
 * by frame (next[], prev[]), with a sentinel at index nframes.  add() links the
 * frame at the tail, evict() unlinks the head, remove() unlinks anywhere in O(1);
 * access() does nothing (FIFO ignores hits).  8 bytes per frame, no allocation
 * after init().
 */
#include "models/reclaim/reclaim.h"

#include <stdlib.h>

struct fifo {
	uint32_t *next, *prev;  /* nframes + 1 entries; [nframes] is the sentinel */
	uint32_t head;          /* == nframes (sentinel index) */
};

static int fifo_init(struct reclaim *r, struct mm_err *e)
{
	struct fifo *f = r->priv;
	uint32_t n = r->nframes;
	f->next = malloc(((size_t)n + 1) * sizeof *f->next);
	f->prev = malloc(((size_t)n + 1) * sizeof *f->prev);
	if (!f->next || !f->prev) {
		free(f->next);
		free(f->prev);
		return mm_errf(e, NULL, NULL, "fifo: out of memory for %u frames", n);
	}
	f->head = n;
	f->next[n] = f->prev[n] = n;
	return 0;
}

static void fifo_fini(struct reclaim *r)
{
	struct fifo *f = r->priv;
	free(f->next);
	free(f->prev);
}

static void fifo_unlink(struct fifo *f, uint32_t fr)
{
	uint32_t p = f->prev[fr], n = f->next[fr];
	f->next[p] = n;
	f->prev[n] = p;
}

static void fifo_add(struct reclaim *r, uint32_t fr)
{
	struct fifo *f = r->priv;
	uint32_t s = f->head, t = f->prev[s];
	f->next[t] = fr;
	f->prev[fr] = t;
	f->next[fr] = s;
	f->prev[s] = fr;
}

static void fifo_access(struct reclaim *r, uint32_t fr)
{
	(void)r;
	(void)fr;
}

static void fifo_remove(struct reclaim *r, uint32_t fr)
{
	fifo_unlink(r->priv, fr);
}

static uint32_t fifo_evict(struct reclaim *r)
{
	struct fifo *f = r->priv;
	uint32_t v = f->next[f->head];
	if (v == f->head)
		return RECLAIM_NO_FRAME;
	fifo_unlink(f, v);
	return v;
}

const struct reclaim_ops reclaim_fifo = {
	.version = 1,
	.name = "fifo",
	.desc = "first in, first out: evict the page loaded longest ago",
	.params = NULL,
	.cfg_size = 0,
	.priv_size = sizeof(struct fifo),
	.init = fifo_init,
	.fini = fifo_fini,
	.add = fifo_add,
	.access = fifo_access,
	.remove = fifo_remove,
	.evict = fifo_evict,
};
