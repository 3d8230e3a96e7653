/*
 * workingset.c - refault-distance detection, Linux 3.15 mm/workingset.c (Johannes
 * Weiner, "mm: thrash detection-based file cache sizing", 2014), as an option of
 * the two-list LRU (lru2q.c, `workingset`).
 *
 * The kernel's reasoning: every zone counts in inactive_age the pages that left
 * its inactive list, evicted or activated.  When a page-cache page is evicted, the
 * counter's new value is stored in the page's slot of the page-cache radix tree
 * (a shadow entry).  When the page faults back in, the counter has advanced by
 * the refault distance: the number of inactive-list departures since.  Had the
 * inactive list been that many pages longer, the page would have stayed; the
 * inactive list can grow at most by the active list's size, so a refault distance
 * not above the zone's active-list size means the page belongs to the working set
 * and it is activated at once (PageActive before lru_cache_add), which counts as
 * an activation itself.
 *
 * Here the shadow entries live in one open-addressing table keyed by (mapping,
 * index), linear probing with backward-shift deletion, grown by doubling at 1/2
 * load: one entry per evicted page until it refaults.  Not modelled: the shadow
 * shrinker (3.15 bounds radix-tree nodes full of shadows; here an entry lives
 * until its page refaults) and the counter's truncation to the bits a radix-tree
 * slot leaves (the 64-bit counter never wraps in a run).
 */
#include "models/reclaim/workingset.h"

#include <stdlib.h>
#include <string.h>

#define WS_MIN_CAP 1024

static uint64_t ws_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

static uint64_t ws_key(uint32_t mapping, uint32_t index)
{
	return ((uint64_t)mapping << 32 | index) + 1;   /* never 0 */
}

int ws_init(struct workingset *w, struct mm_err *e)
{
	memset(w, 0, sizeof *w);
	w->key = calloc(WS_MIN_CAP, sizeof *w->key);
	w->val = calloc(WS_MIN_CAP, sizeof *w->val);
	if (!w->key || !w->val) {
		ws_fini(w);
		return mm_errf(e, NULL, NULL, "out of memory for the workingset shadow table");
	}
	w->cap = WS_MIN_CAP;
	return 0;
}

void ws_fini(struct workingset *w)
{
	free(w->key);
	free(w->val);
	w->key = w->val = NULL;
	w->cap = w->n = 0;
}

/* Slot of @key, or of the empty slot where it would go. */
static uint64_t ws_slot(const struct workingset *w, uint64_t key)
{
	uint64_t m = w->cap - 1, i = ws_hash(key) & m;
	while (w->key[i] && w->key[i] != key)
		i = (i + 1) & m;
	return i;
}

/* Double the table. Returns: 0, or -1 (out of host memory: the table stays). */
static int ws_grow(struct workingset *w)
{
	struct workingset g = *w;
	g.cap = w->cap * 2;
	g.key = calloc(g.cap, sizeof *g.key);
	g.val = calloc(g.cap, sizeof *g.val);
	if (!g.key || !g.val) {
		free(g.key);
		free(g.val);
		return -1;
	}
	for (uint64_t i = 0; i < w->cap; i++)
		if (w->key[i]) {
			uint64_t s = ws_slot(&g, w->key[i]);
			g.key[s] = w->key[i];
			g.val[s] = w->val[i];
		}
	free(w->key);
	free(w->val);
	*w = g;
	return 0;
}

void ws_eviction(struct workingset *w, int zone, uint32_t mapping, uint32_t index)
{
	uint64_t age = ++w->inactive_age[zone];
	if (2 * (w->n + 1) > w->cap && ws_grow(w))
		return;
	uint64_t key = ws_key(mapping, index), s = ws_slot(w, key);
	if (!w->key[s]) {
		w->key[s] = key;
		w->n++;
		if (w->n > w->max_shadows)
			w->max_shadows = w->n;
	}
	w->val[s] = age << 8 | (uint64_t)zone;
	w->evictions++;
}

void ws_activation(struct workingset *w, int zone)
{
	w->inactive_age[zone]++;
}

/* Empty slot @i, shifting back the entries of its probe run. */
static void ws_delete(struct workingset *w, uint64_t i)
{
	uint64_t m = w->cap - 1, j = i;
	for (;;) {
		j = (j + 1) & m;
		if (!w->key[j])
			break;
		uint64_t home = ws_hash(w->key[j]) & m;
		/* move j to i unless its home lies cyclically in (i, j] */
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (stays)
			continue;
		w->key[i] = w->key[j];
		w->val[i] = w->val[j];
		i = j;
	}
	w->key[i] = 0;
	w->val[i] = 0;
	w->n--;
}

bool ws_refault(struct workingset *w, uint32_t mapping, uint32_t index, int *zone,
		uint64_t *distance)
{
	uint64_t s = ws_slot(w, ws_key(mapping, index));
	if (!w->key[s])
		return false;
	uint64_t v = w->val[s];
	ws_delete(w, s);
	*zone = (int)(v & 0xff);
	*distance = w->inactive_age[*zone] - (v >> 8);
	w->refault++;
	return true;
}
