/*
 * mru.c - most recently used replacement, as an mmemu plugin: on a fault with
 * memory full, evict the page referenced last.  It beats LRU on loops a little
 * larger than memory (LRU then misses every reference).
 *
 * Design: frames on a doubly linked recency list (two uint32 arrays indexed by
 * frame, sentinel at index nframes), most recent at the head; add() and access()
 * move a frame to the head, evict() takes the head, remove() unlinks.
 */
#include <stdlib.h>

#include <mmemu-plugin.h>

struct mru {
	uint32_t *next, *prev;   /* nframes + 1 entries; [nframes] is the sentinel */
};

static int mru_init(struct reclaim *r, struct mm_err *e)
{
	struct mru *m = r->priv;
	uint32_t n = r->nframes;
	m->next = malloc(((size_t)n + 1) * sizeof *m->next);
	m->prev = malloc(((size_t)n + 1) * sizeof *m->prev);
	if (!m->next || !m->prev) {
		free(m->next);
		free(m->prev);
		return mm_errf(e, NULL, NULL, "mru: out of memory for %u frames", n);
	}
	m->next[n] = m->prev[n] = n;
	return 0;
}

static void mru_fini(struct reclaim *r)
{
	struct mru *m = r->priv;
	free(m->next);
	free(m->prev);
}

static void unlink_frame(struct mru *m, uint32_t f)
{
	m->next[m->prev[f]] = m->next[f];
	m->prev[m->next[f]] = m->prev[f];
}

static void push_head(struct reclaim *r, uint32_t f)
{
	struct mru *m = r->priv;
	uint32_t s = r->nframes, h = m->next[s];
	m->next[f] = h;
	m->prev[f] = s;
	m->prev[h] = f;
	m->next[s] = f;
}

static void mru_add(struct reclaim *r, uint32_t f)
{
	push_head(r, f);
}

static void mru_access(struct reclaim *r, uint32_t f)
{
	unlink_frame(r->priv, f);
	push_head(r, f);
}

static void mru_remove(struct reclaim *r, uint32_t f)
{
	unlink_frame(r->priv, f);
}

/* Returns: the most recently used frame, or RECLAIM_NO_FRAME when none is resident. */
static uint32_t mru_evict(struct reclaim *r)
{
	struct mru *m = r->priv;
	uint32_t f = m->next[r->nframes];
	if (f == r->nframes)
		return RECLAIM_NO_FRAME;
	unlink_frame(m, f);
	return f;
}

static const struct reclaim_ops mru_ops = {
	.version = RECLAIM_OPS_VERSION,
	.name = "mru",
	.desc = "most recently used (plugin example): evict the page referenced last",
	.priv_size = sizeof(struct mru),
	.init = mru_init,
	.fini = mru_fini,
	.add = mru_add,
	.access = mru_access,
	.remove = mru_remove,
	.evict = mru_evict,
};

MMEMU_PLUGIN(mru_register)
{
	return mmemu_plugin_reclaim(p, &mru_ops);
}
