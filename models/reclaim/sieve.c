/*
 * sieve.c - SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE is Simpler than
 * LRU", NSDI 2024).
 *
 * One FIFO queue; a new page enters at the head with its visited bit clear, a hit
 * only sets the bit (no list move).  A hand starts at the tail and walks towards
 * the head: a visited page has its bit cleared and stays where it is, the first
 * unvisited page is evicted and the hand stops at the next page towards the head;
 * past the head it wraps to the tail.  Unlike CLOCK, survivors are not moved to
 * the head, so new pages sit between the hand and the head and are examined
 * before old survivors (the "lazy promotion, quick demotion" of the paper).  The
 * paper has no parameters.
 *
 * Design: the queue is a qlist (qlist.h) over frames, head = newest; the hand is a
 * frame (QL_NONE: start at the tail).  9 bytes per frame, O(1) amortised.
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>

struct sieve {
	struct qlist q;         /* one list (0) over the frames */
	uint8_t *visited;
	uint32_t hand;          /* next frame to examine, or QL_NONE (tail) */
};

static int sieve_init(struct reclaim *r, struct mm_err *e)
{
	struct sieve *s = r->priv;
	if (ql_alloc(&s->q, r->nframes, 1, "sieve", e) < 0)
		return -1;
	s->visited = calloc(r->nframes, 1);
	if (!s->visited) {
		ql_free(&s->q);
		return mm_errf(e, NULL, NULL, "sieve: out of memory for %u frames", r->nframes);
	}
	s->hand = QL_NONE;
	return 0;
}

static void sieve_fini(struct reclaim *r)
{
	struct sieve *s = r->priv;
	ql_free(&s->q);
	free(s->visited);
}

static void sieve_add(struct reclaim *r, uint32_t fr)
{
	struct sieve *s = r->priv;
	s->visited[fr] = 0;
	ql_push_head(&s->q, 0, fr);
}

static void sieve_access(struct reclaim *r, uint32_t fr)
{
	struct sieve *s = r->priv;
	s->visited[fr] = 1;
}

static void sieve_remove(struct reclaim *r, uint32_t fr)
{
	struct sieve *s = r->priv;
	if (s->hand == fr)
		s->hand = ql_towards_head(&s->q, fr);
	ql_unlink(&s->q, fr);
}

static uint32_t sieve_evict(struct reclaim *r)
{
	struct sieve *s = r->priv;
	uint32_t h = s->hand != QL_NONE ? s->hand : ql_tail(&s->q, 0);
	if (h == QL_NONE)
		return RECLAIM_NO_FRAME;
	/* at most one full pass clears every bit, so this ends within nframes + 1 steps */
	while (s->visited[h]) {
		s->visited[h] = 0;
		h = ql_towards_head(&s->q, h);
		if (h == QL_NONE)
			h = ql_tail(&s->q, 0);
	}
	s->hand = ql_towards_head(&s->q, h);
	ql_unlink(&s->q, h);
	return h;
}

const struct reclaim_ops reclaim_sieve = {
	.version = 1,
	.name = "sieve",
	.desc = "SIEVE (Zhang et al. 2024): FIFO with a visited bit and a hand that never moves pages",
	.params = NULL,
	.cfg_size = 0,
	.priv_size = sizeof(struct sieve),
	.init = sieve_init,
	.fini = sieve_fini,
	.add = sieve_add,
	.access = sieve_access,
	.remove = sieve_remove,
	.evict = sieve_evict,
};
