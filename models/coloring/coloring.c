/*
 * coloring.c - the page-colouring registry, its modules and the colour-aware
 * placement of a page (see coloring.h; kernel-mechanisms.md 5).
 *
 * `none`: no preference, so an allocation gets whatever the allocator's LIFO free
 * lists give (the stock 2.4/2.6 behaviour, 5.2).
 *
 * `roundrobin`: Jason Papadopoulos' page_color patch for 2.2.20/2.4.17 (5.3,
 * mm/page_alloc.c's alloc_pages_by_color): a task's first allocation draws a
 * random start colour; each allocation asks for target_color and afterwards sets
 * target_color to the colour it got + 2^order (order 0 here: + 1).  An empty
 * colour is a miss and advances the colour (coloring_place).  Kessler and Hill's
 * "bin hopping", local (per process).
 *
 * `pagecolor`: Kessler and Hill's page colouring: the colour of a user page is its
 * virtual page number mod the number of colours, so virtually contiguous pages
 * never conflict in the physically indexed cache; other allocations (page cache,
 * kernel) take any page.  For teaching; no Linux kernel shipped it.
 *
 * The patch keeps one list per (order, colour >> order) beside the buddy lists so
 * that finding a block holding a colour costs one list head per order.  Here the
 * buddy lists belong to the allocator module (models/alloc), so the colour lists
 * are this layer's, kept in step through the allocator's watch hook
 * (coloring_attach): the same blocks, LIFO within a colour as in the patch.  The
 * chosen block is taken with alloc_take(), which splits it keeping the page of
 * the colour, as the patch's split does; the page the allocator had handed out is
 * freed again (the patch never takes it: the zone's free count is the same).
 */
#include "models/coloring/coloring.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/module.h"
#include "models/alloc/alloc.h"

static int none_pick(struct coloring *c, struct mm_task *t)
{
	(void)c;
	(void)t;
	return -1;
}

static const struct coloring_ops coloring_none = {
	.version = COLORING_OPS_VERSION,
	.name = "none",
	.desc = "no colouring: pages come in the allocator's LIFO order",
	.pick = none_pick,
};

static int rr_pick(struct coloring *c, struct coloring_task *ct)
{
	if (c->ncolors <= 1)
		return -1;
	if (!ct->init) {
		/* the patch: a multiply-with-carry generator; any uniform draw */
		ct->next = (uint32_t)mm_rng_below(&c->rng, c->ncolors);
		ct->init = true;
	}
	return (int)ct->next;
}

static void rr_placed(struct coloring *c, struct coloring_task *ct, uint32_t color)
{
	ct->next = (color + 1) % c->ncolors;
	ct->init = true;
}

static const struct coloring_ops coloring_roundrobin = {
	.version = COLORING_OPS_VERSION,
	.name = "roundrobin",
	.desc = "Jason Papadopoulos' page_color patch (2.4.17): per-task random start colour, "
		"then the next colour after each allocation",
	.pick = none_pick,
	.pick_task = rr_pick,
	.placed = rr_placed,
};

static int pc_pick(struct coloring *c, struct coloring_task *ct)
{
	if (c->ncolors <= 1 || !ct->vpn_valid)
		return -1;
	return (int)(ct->vpn % c->ncolors);
}

static const struct coloring_ops coloring_pagecolor = {
	.version = COLORING_OPS_VERSION,
	.name = "pagecolor",
	.desc = "Kessler-Hill page colouring: colour = virtual page number mod colours (user pages)",
	.pick = none_pick,
	.pick_task = pc_pick,
};

static const struct coloring_ops *const registry[] = { &coloring_none, &coloring_roundrobin,
						       &coloring_pagecolor, NULL };

/* the built-in modules above, then those plugins registered (emu/plugin) */
static struct module_registry modules = { .kind = "coloring",
					  .builtin = (const void *const *)registry,
					  .name_offset = offsetof(struct coloring_ops, name) };

const struct coloring_ops *const *coloring_modules(void)
{
	return (const struct coloring_ops *const *)module_all(&modules);
}

int coloring_register(const struct coloring_ops *ops, struct mm_err *e)
{
	if (!ops->name)
		return mm_errf(e, NULL, NULL, "a coloring module without a name");
	if (ops->version < 1 || ops->version > COLORING_OPS_VERSION)
		return mm_errf(e, NULL, NULL, "coloring module \"%s\" implements interface version %d "
			       "(this build supports 1..%d)", ops->name, ops->version, COLORING_OPS_VERSION);
	if (!ops->pick)
		return mm_errf(e, NULL, NULL, "coloring module \"%s\" lacks a required method (pick)",
			       ops->name);
	return module_add(&modules, ops, e);
}

/*
 * The patch's colour lists: per zone and order o, one list per (colour >> o) of
 * the free blocks of that order (orders whose blocks hold every colour: one list),
 * kept in step with the buddy lists through alloc->watch, LIFO like them.
 * Intrusive: next/prev per pfn.
 */
struct coloring_lists {
	struct alloc *a;
	uint32_t ncol;
	unsigned lg, max_order;
	uint32_t *next, *prev;    /* [nr_pages] */
	uint32_t *head;           /* [MM_NR_ZONES][max_order][ncol] */
};

static inline uint32_t *cl_head(struct coloring_lists *l, unsigned zone, unsigned o, uint32_t col)
{
	uint32_t idx = o < l->lg ? col >> o : 0;
	return &l->head[((size_t)zone * l->max_order + o) * l->ncol + idx];
}

static void cl_watch(void *ctx, uint32_t pfn, unsigned order, bool on)
{
	struct coloring_lists *l = ctx;
	const struct page *pg = &l->a->phys->pages[pfn];
	uint32_t *h = cl_head(l, pg->zone, order, pfn % l->ncol);
	if (on) {
		l->prev[pfn] = PFN_NONE;
		l->next[pfn] = *h;
		if (*h != PFN_NONE)
			l->prev[*h] = pfn;
		*h = pfn;
		return;
	}
	uint32_t n = l->next[pfn], p = l->prev[pfn];
	if (p != PFN_NONE)
		l->next[p] = n;
	else
		*h = n;
	if (n != PFN_NONE)
		l->prev[n] = p;
}

int coloring_attach(struct coloring *c, struct alloc *a, struct mm_err *e)
{
	if (c->ncolors <= 1 || c->ops->version < 2 || !c->ops->pick_task)
		return 0;
	struct coloring_lists *l = calloc(1, sizeof *l);
	struct mm_phys *phys = a->phys;
	if (!l)
		return mm_errf(e, NULL, NULL, "out of memory for the colour lists");
	l->a = a;
	l->ncol = c->ncolors;
	while ((1u << l->lg) < l->ncol)
		l->lg++;
	l->max_order = a->max_order;
	size_t nh = (size_t)MM_NR_ZONES * l->max_order * l->ncol;
	l->next = malloc(phys->nr_pages * sizeof *l->next);
	l->prev = malloc(phys->nr_pages * sizeof *l->prev);
	l->head = malloc(nh * sizeof *l->head);
	if (!l->next || !l->prev || !l->head) {
		free(l->next);
		free(l->prev);
		free(l->head);
		free(l);
		return mm_errf(e, NULL, NULL, "out of memory for the colour lists");
	}
	for (size_t i = 0; i < nh; i++)
		l->head[i] = PFN_NONE;
	/* the module's start: re-file every free block (5.3) */
	for (uint32_t p = 0; p < phys->nr_pages; p++)
		if (page_test(&phys->pages[p], PG_buddy))
			cl_watch(l, p, phys->pages[p].order, true);
	a->watch = cl_watch;
	a->watch_ctx = l;
	c->lists = l;
	return 0;
}

int coloring_check(const struct coloring *c, struct mm_err *e)
{
	struct coloring_lists *l = c->lists;
	if (!l)
		return 0;
	const struct mm_phys *phys = l->a->phys;
	uint64_t listed = 0, heads = 0;
	for (uint32_t p = 0; p < phys->nr_pages; p++)
		heads += page_test(&phys->pages[p], PG_buddy);
	for (unsigned z = 0; z < MM_NR_ZONES; z++)
		for (unsigned o = 0; o < l->max_order; o++)
			for (uint32_t i = 0; i < (o < l->lg ? l->ncol >> o : 1); i++) {
				uint32_t prev = PFN_NONE;
				for (uint32_t p = *cl_head(l, z, o, i << o); p != PFN_NONE; p = l->next[p]) {
					const struct page *pg = &phys->pages[p];
					if (++listed > heads || !page_test(pg, PG_buddy) || pg->order != o ||
					    pg->zone != z || (o < l->lg && (p % l->ncol) >> o != i) ||
					    l->prev[p] != prev)
						return mm_errf(e, NULL, NULL, "colour lists: pfn %u misfiled "
							       "(zone %u, order %u, list %u)", p, z, o, i);
					prev = p;
				}
			}
	if (listed != heads)
		return mm_errf(e, NULL, NULL, "colour lists: %llu blocks listed, %llu free blocks",
			       (unsigned long long)listed, (unsigned long long)heads);
	return 0;
}

/* A free page of colour @col in zone @z: the head of the first non-empty colour
 * list of order 0, 1, ... (the patch's loop).  Returns: its pfn or PFN_NONE. */
static uint32_t find_colour(struct coloring_lists *l, const struct zone *z, uint32_t col)
{
	for (unsigned o = 0; o < l->max_order; o++) {
		uint32_t h = *cl_head(l, (unsigned)z->idx, o, col);
		if (h != PFN_NONE)
			return h + (col + l->ncol - h % l->ncol) % l->ncol;
	}
	return PFN_NONE;
}

uint32_t coloring_place(struct coloring *c, struct alloc *a, struct coloring_task *ct,
			uint32_t pfn, int color, int cpu, unsigned *probes)
{
	uint32_t n = c->ncolors;
	*probes = 0;
	if (color < 0 || n <= 1 || !c->lists)
		return pfn;
	const struct zone *z = &a->phys->zones[a->phys->pages[pfn].zone];
	uint32_t got = pfn;
	for (uint32_t lap = 0; lap < n; lap++) {
		uint32_t col = ((uint32_t)color + lap) % n;
		++*probes;
		if (pfn % n == col)
			break;   /* the allocator's page has the colour */
		uint32_t q = find_colour(c->lists, z, col);
		if (q != PFN_NONE && alloc_take(a, q, a->phys->pages[pfn].alloc_type) == 0) {
			a->phys->pages[q].count = a->phys->pages[pfn].count;
			alloc_free(a, pfn, 0, cpu, false);
			got = q;
			break;
		}
		c->misses++;
	}
	if (*probes == 1)
		c->hits++;
	c->placed++;
	if (c->ops->version >= 2 && c->ops->placed)
		c->ops->placed(c, ct, got % n);
	return got;
}

struct coloring *coloring_create(const char *name, json_t *params, uint32_t ncolors,
				 struct mm_vmstat *vs, const char *file, const char *path,
				 struct mm_err *e)
{
	const struct coloring_ops *const *all = coloring_modules();
	int i = module_find((const void *const *)all, offsetof(struct coloring_ops, name), name,
			    "coloring", file, path, e);
	if (i < 0)
		return NULL;
	const struct coloring_ops *ops = all[i];
	struct coloring *c = calloc(1, sizeof *c);
	if (!c) {
		mm_errf(e, file, path, "out of memory");
		return NULL;
	}
	c->ops = ops;
	c->ncolors = ncolors;
	c->vs = vs;
	if (module_state(ops->params, ops->cfg_size, ops->priv_size, params, &c->cfg, &c->priv,
			 file, path, e)) {
		free(c);
		return NULL;
	}
	if (ops->init && ops->init(c, e)) {
		free(c->cfg);
		free(c->priv);
		free(c);
		return NULL;
	}
	return c;
}

void coloring_destroy(struct coloring *c)
{
	if (!c)
		return;
	if (c->ops->fini)
		c->ops->fini(c);
	if (c->lists) {
		c->lists->a->watch = NULL;
		free(c->lists->next);
		free(c->lists->prev);
		free(c->lists->head);
		free(c->lists);
	}
	free(c->cfg);
	free(c->priv);
	free(c);
}

json_t *coloring_params_json(const struct coloring *c)
{
	return module_params_json(c->ops->name, c->ops->params, c->cfg);
}
