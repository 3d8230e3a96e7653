/*
 * random.c - random replacement: evict a resident page chosen uniformly at random.
 *
 * The textbook baseline that needs no hardware support at all (Belady 1966 compared
 * it with FIFO and OPT): it keeps no recency, so it is immune to LRU's worst case
 * (a loop one page larger than memory faults on every reference under LRU and
 * FIFO, on about 1/frames of them under random) and never better than OPT.  Written
 * as the worked example of docs/hacking.md ("add a reclaim policy").
 *
 * Design: the resident frames in a dense array res[0..n) and each frame's slot
 * in pos[]; add() appends, remove() moves the last entry into the hole, evict()
 * draws a slot with the module's own random stream (emu/core/rng.h, seeded by the
 * "seed" parameter), so a run is reproducible.  8 bytes per frame, O(1) per call.
 */
#include "models/reclaim/reclaim.h"

#include <stdlib.h>

#include "emu/core/rng.h"

struct random_cfg {
	int64_t seed;
};

struct random_policy {
	uint32_t *res;          /* resident frames, dense */
	uint32_t *pos;          /* frame -> its index in res[] */
	uint32_t n;             /* number of resident frames */
	struct mm_rng rng;
};

static const struct mm_param random_params[] = {
	MM_PARAM(struct random_cfg, seed, "seed", MM_P_INT, 0, INT64_C(1) << 53, "1",
		 "seed of the victim choice (the same seed gives the same evictions)"),
	MM_PARAM_END,
};

static int random_init(struct reclaim *r, struct mm_err *e)
{
	struct random_policy *p = r->priv;
	const struct random_cfg *c = r->cfg;
	p->res = malloc(((size_t)r->nframes + 1) * sizeof *p->res);
	p->pos = malloc(((size_t)r->nframes + 1) * sizeof *p->pos);
	if (!p->res || !p->pos) {
		free(p->res);
		free(p->pos);
		return mm_errf(e, NULL, NULL, "random: out of memory for %u frames", r->nframes);
	}
	mm_rng_seed(&p->rng, (uint64_t)c->seed, 0, "reclaim-random");
	return 0;
}

static void random_fini(struct reclaim *r)
{
	struct random_policy *p = r->priv;
	free(p->res);
	free(p->pos);
}

static void random_add(struct reclaim *r, uint32_t fr)
{
	struct random_policy *p = r->priv;
	p->pos[fr] = p->n;
	p->res[p->n++] = fr;
}

static void random_access(struct reclaim *r, uint32_t fr)
{
	(void)r;
	(void)fr;
}

static void random_remove(struct reclaim *r, uint32_t fr)
{
	struct random_policy *p = r->priv;
	uint32_t i = p->pos[fr], last = p->res[--p->n];
	p->res[i] = last;
	p->pos[last] = i;
}

static uint32_t random_evict(struct reclaim *r)
{
	struct random_policy *p = r->priv;
	if (!p->n)
		return RECLAIM_NO_FRAME;
	uint32_t v = p->res[mm_rng_below(&p->rng, p->n)];
	random_remove(r, v);
	return v;
}

const struct reclaim_ops reclaim_random = {
	.version = 1,
	.name = "random",
	.desc = "random replacement: evict a resident page chosen uniformly (seeded)",
	.params = random_params,
	.cfg_size = sizeof(struct random_cfg),
	.priv_size = sizeof(struct random_policy),
	.init = random_init,
	.fini = random_fini,
	.add = random_add,
	.access = random_access,
	.remove = random_remove,
	.evict = random_evict,
};
