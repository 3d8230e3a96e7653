/*
 * qlist.h - helpers shared by the queue-based reclaim policies (2q, arc, lirs,
 * s3fifo, sieve): doubly linked lists threaded through two uint32 index arrays,
 * and a table from page id to a uint32 (the "ghost" directories those policies
 * keep for pages no longer resident).
 *
 * Lists: nodes are indices 0..nnodes-1; list k (0..nlists-1) has its sentinel at
 * index nnodes + k, so one pair of arrays holds several lists and a node knows
 * nothing about which list it is on (the policy does).  All operations are O(1).
 *
 * Page table: a flat array indexed by page id, grown by doubling (page ids in
 * replay are dense, 0..pages-1, so this is 4 bytes per distinct page and one load
 * per lookup, no hashing); entries default to QL_NONE.
 */
#ifndef MMEMU_RECLAIM_QLIST_H
#define MMEMU_RECLAIM_QLIST_H

#include <stddef.h>
#include <stdint.h>

#include "emu/core/err.h"
#include "models/reclaim/reclaim.h"

#define QL_NONE RECLAIM_NO_FRAME

struct qlist {
	uint32_t *next, *prev;
	uint32_t nnodes;        /* sentinel of list k is nnodes + k */
};

/**
 * ql_alloc() - lists over @nnodes nodes, @nlists of them, all empty.
 * Returns: 0, or -1 with @e set (message names @who).
 */
int ql_alloc(struct qlist *q, uint32_t nnodes, uint32_t nlists, const char *who,
	     struct mm_err *e);

/** ql_free() - free what ql_alloc() allocated (a zeroed struct is fine). */
void ql_free(struct qlist *q);

static inline uint32_t ql_sent(const struct qlist *q, uint32_t k)
{
	return q->nnodes + k;
}

static inline void ql_unlink(struct qlist *q, uint32_t x)
{
	uint32_t p = q->prev[x], n = q->next[x];
	q->next[p] = n;
	q->prev[n] = p;
}

/* insert @x after node (or sentinel) @at */
static inline void ql_insert_after(struct qlist *q, uint32_t at, uint32_t x)
{
	uint32_t n = q->next[at];
	q->next[x] = n;
	q->prev[x] = at;
	q->prev[n] = x;
	q->next[at] = x;
}

static inline void ql_push_head(struct qlist *q, uint32_t k, uint32_t x)
{
	ql_insert_after(q, ql_sent(q, k), x);
}

static inline void ql_push_tail(struct qlist *q, uint32_t k, uint32_t x)
{
	ql_insert_after(q, q->prev[ql_sent(q, k)], x);
}

/** ql_tail() - Returns: the last node of list @k, or QL_NONE if it is empty. */
static inline uint32_t ql_tail(const struct qlist *q, uint32_t k)
{
	uint32_t t = q->prev[ql_sent(q, k)];
	return t >= q->nnodes ? QL_NONE : t;
}

/** ql_head() - Returns: the first node of list @k, or QL_NONE if it is empty. */
static inline uint32_t ql_head(const struct qlist *q, uint32_t k)
{
	uint32_t h = q->next[ql_sent(q, k)];
	return h >= q->nnodes ? QL_NONE : h;
}

/** ql_towards_head() - Returns: the node before @x (nearer the head), or QL_NONE. */
static inline uint32_t ql_towards_head(const struct qlist *q, uint32_t x)
{
	uint32_t p = q->prev[x];
	return p >= q->nnodes ? QL_NONE : p;
}

/** ql_towards_tail() - Returns: the node after @x (nearer the tail), or QL_NONE. */
static inline uint32_t ql_towards_tail(const struct qlist *q, uint32_t x)
{
	uint32_t n = q->next[x];
	return n >= q->nnodes ? QL_NONE : n;
}

struct pagetab {
	uint32_t *v;
	uint32_t n;             /* entries allocated */
};

/** pagetab_get() - Returns: the value stored for @page, or QL_NONE. */
static inline uint32_t pagetab_get(const struct pagetab *t, uint32_t page)
{
	return page < t->n ? t->v[page] : QL_NONE;
}

/**
 * pagetab_set() - store @val for @page, growing the table if needed.
 * Returns: 0, or -1 if memory ran out (nothing stored).
 */
int pagetab_set(struct pagetab *t, uint32_t page, uint32_t val);

/**
 * pagetab_reserve() - make room for pages 0..@npages-1 (prepare() calls it with
 * the trace's largest id, so the replay loop never grows the table).
 * Returns: 0, or -1 with @e set.
 */
int pagetab_reserve(struct pagetab *t, uint32_t npages, const char *who, struct mm_err *e);

/** pagetab_free() - free the table. */
void pagetab_free(struct pagetab *t);

/**
 * reclaim_page() - Returns: the page id in frame @fr (the frame number itself when
 * the core keeps no page ids, as in unit tests that drive a module directly).
 */
static inline uint32_t reclaim_page(const struct reclaim *r, uint32_t fr)
{
	return r->page_of ? r->page_of[fr] : fr;
}

/**
 * reclaim_pagetab_prepare() - the prepare() of the policies with a page table:
 * reserve @t for the largest page id of @refs.  Returns: 0, or -1 with @e set.
 */
int reclaim_pagetab_prepare(struct pagetab *t, const uint32_t *refs, size_t nrefs,
			    const char *who, struct mm_err *e);

/*
 * A ghost FIFO: at most @cap page ids, oldest dropped first, any id removable
 * (2Q's A1out, S3-FIFO's G).  Nodes 0..cap-1 of its own qlist; a page table maps
 * page id -> node.
 */
struct ghostfifo {
	struct qlist q;
	uint32_t *page;         /* per node */
	uint32_t *free;         /* stack of free nodes */
	uint32_t nfree, cap, n;
	struct pagetab dir;
};

/** gf_alloc() - an empty ghost FIFO of @cap ids. Returns: 0, or -1 with @e set. */
int gf_alloc(struct ghostfifo *g, uint32_t cap, const char *who, struct mm_err *e);

/** gf_free() - free it (a zeroed struct is fine). */
void gf_free(struct ghostfifo *g);

/** gf_take() - remove @page's id if present. Returns: 1 if it was there, else 0. */
int gf_take(struct ghostfifo *g, uint32_t page);

/** gf_push() - remember @page as the newest id (dropping the oldest when full). */
void gf_push(struct ghostfifo *g, uint32_t page);

#endif
