/*
 * s3fifo.c - S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO queues are all you
 * need for cache eviction", SOSP 2023, Algorithm 1).
 *
 * Three FIFO queues: S, small (10% of the frames), M, main (the rest), and G, a
 * ghost FIFO of the ids of pages evicted from S (as many ids as M has frames).
 * Each resident page has a 2-bit frequency counter, incremented on a hit (to 3 at
 * most); no list moves on hits.
 *   fault        id in G: the page enters M's head (its id leaves G); else S's head
 *   evict        from S if |S| >= its share, else from M (from the other queue
 *                when the chosen one is empty)
 *   evict from S S's tail with freq >= move_to_main_threshold moves to M's head
 *                (freq reset to 0) and the next tail is examined; the first tail
 *                below the threshold goes out and its id enters G
 *   evict from M M's tail with freq > 0 is reinserted at M's head with freq - 1;
 *                the first tail with freq 0 goes out
 * G is looked up when the fault happens, before the eviction (as in the authors'
 * libCacheSim code; Algorithm 1 looks after EVICT, which may push the page's own
 * id out of a full G first).  One victim per call (the core asks once per fault): when moving a page from S
 * makes M exceed its share, M's victim is this call's victim.  Algorithm 1 moves a
 * page when freq > 1 (threshold 2, also libCacheSim's S3FIFOv0 default); the text
 * of the paper says "accessed at least once" (threshold 1): both are a parameter.
 * S's share is floor(small_ratio * frames), at least 1 and at most frames - 1.
 *
 * Design: resident pages are qlist nodes 0..nframes-1 (lists S and M); G is a
 * ghostfifo (qlist.h).  10 bytes per frame, 12 per G id, 4 per page id.
 */
#include "models/reclaim/qlist.h"

#include <stdlib.h>

enum { S3_S, S3_M, S3_NLISTS };

struct s3fifo_cfg {
	double small_ratio;
	int64_t move_to_main_threshold;
	double ghost_ratio;
};

struct s3fifo {
	struct qlist q;
	uint8_t *freq;          /* per frame: 0..3 */
	uint8_t *inm;           /* per frame: 1 if on M, 0 if on S */
	struct ghostfifo g;
	uint32_t scap, mcap, ns, nm;
	uint8_t thresh;
	uint32_t to_m;          /* faulting page found in G by evict(), or QL_NONE */
};

static const struct mm_param s3fifo_params[] = {
	MM_PARAM(struct s3fifo_cfg, small_ratio, "small_ratio", MM_P_DOUBLE, 0, 1, "0.1",
		 "S's share of the frames; the paper uses 10%"),
	MM_PARAM(struct s3fifo_cfg, move_to_main_threshold, "move_to_main_threshold", MM_P_INT, 1, 3,
		 "2", "frequency at which a page leaving S moves to M (Algorithm 1: freq > 1)"),
	MM_PARAM(struct s3fifo_cfg, ghost_ratio, "ghost_ratio", MM_P_DOUBLE, 0, 4, "0.9",
		 "G's size in page ids as a share of the frames; the paper: as many as M holds (90%)"),
	MM_PARAM_END,
};

static int s3fifo_init(struct reclaim *r, struct mm_err *e)
{
	struct s3fifo *s = r->priv;
	const struct s3fifo_cfg *c = r->cfg;
	uint32_t n = r->nframes;
	s->scap = (uint32_t)(c->small_ratio * n);
	if (s->scap < 1)
		s->scap = 1;
	if (n > 1 && s->scap > n - 1)
		s->scap = n - 1;
	s->mcap = n > s->scap ? n - s->scap : 1;
	s->thresh = (uint8_t)c->move_to_main_threshold;
	s->to_m = QL_NONE;
	if (ql_alloc(&s->q, n, S3_NLISTS, "s3fifo", e) < 0)
		return -1;
	if (gf_alloc(&s->g, (uint32_t)(c->ghost_ratio * n), "s3fifo", e) < 0) {
		ql_free(&s->q);
		return -1;
	}
	s->freq = calloc(n, 1);
	s->inm = calloc(n, 1);
	if (!s->freq || !s->inm) {
		ql_free(&s->q);
		gf_free(&s->g);
		free(s->freq);
		free(s->inm);
		return mm_errf(e, NULL, NULL, "s3fifo: out of memory for %u frames", n);
	}
	return 0;
}

static void s3fifo_fini(struct reclaim *r)
{
	struct s3fifo *s = r->priv;
	ql_free(&s->q);
	gf_free(&s->g);
	free(s->freq);
	free(s->inm);
}

static int s3fifo_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	struct s3fifo *s = r->priv;
	return reclaim_pagetab_prepare(&s->g.dir, refs, nrefs, "s3fifo", e);
}

static void s3fifo_add(struct reclaim *r, uint32_t fr)
{
	struct s3fifo *s = r->priv;
	uint32_t page = reclaim_page(r, fr);
	int tom = page == s->to_m || gf_take(&s->g, page);
	s->to_m = QL_NONE;
	s->freq[fr] = 0;
	if (tom) {
		s->inm[fr] = 1;
		ql_push_head(&s->q, S3_M, fr);
		s->nm++;
	} else {
		s->inm[fr] = 0;
		ql_push_head(&s->q, S3_S, fr);
		s->ns++;
	}
}

static void s3fifo_access(struct reclaim *r, uint32_t fr)
{
	struct s3fifo *s = r->priv;
	if (s->freq[fr] < 3)
		s->freq[fr]++;
}

static void s3fifo_remove(struct reclaim *r, uint32_t fr)
{
	struct s3fifo *s = r->priv;
	ql_unlink(&s->q, fr);
	if (s->inm[fr])
		s->nm--;
	else
		s->ns--;
}

/* Returns: M's victim (M not empty). Terminates: each pass lowers a counter. */
static uint32_t evict_m(struct s3fifo *s)
{
	for (;;) {
		uint32_t t = ql_tail(&s->q, S3_M);
		ql_unlink(&s->q, t);
		if (!s->freq[t]) {
			s->nm--;
			return t;
		}
		s->freq[t]--;
		ql_push_head(&s->q, S3_M, t);
	}
}

static uint32_t s3fifo_evict(struct reclaim *r)
{
	struct s3fifo *s = r->priv;
	/* G is looked up at the request, before the eviction may push its id out */
	if (r->fault_page != RECLAIM_NO_FRAME && gf_take(&s->g, r->fault_page))
		s->to_m = r->fault_page;
	if (!s->ns && !s->nm)
		return RECLAIM_NO_FRAME;
	if (!s->ns || (s->ns < s->scap && s->nm))
		return evict_m(s);
	while (s->ns) {
		uint32_t t = ql_tail(&s->q, S3_S);
		ql_unlink(&s->q, t);
		s->ns--;
		if (s->freq[t] < s->thresh) {
			gf_push(&s->g, reclaim_page(r, t));
			return t;
		}
		s->freq[t] = 0;
		s->inm[t] = 1;
		ql_push_head(&s->q, S3_M, t);
		s->nm++;
		if (s->nm > s->mcap)
			return evict_m(s);
	}
	return evict_m(s);
}

const struct reclaim_ops reclaim_s3fifo = {
	.version = 1,
	.name = "s3fifo",
	.desc = "S3-FIFO (Yang et al. 2023): small FIFO, main FIFO with 2-bit counters, ghost FIFO",
	.params = s3fifo_params,
	.cfg_size = sizeof(struct s3fifo_cfg),
	.priv_size = sizeof(struct s3fifo),
	.init = s3fifo_init,
	.fini = s3fifo_fini,
	.prepare = s3fifo_prepare,
	.add = s3fifo_add,
	.access = s3fifo_access,
	.remove = s3fifo_remove,
	.evict = s3fifo_evict,
};
