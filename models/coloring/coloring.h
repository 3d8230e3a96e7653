/*
 * coloring.h - page colouring: which free page an allocation should get, given a
 * physically indexed cache (kernel-mechanisms.md 5).
 *
 * Before each order-0 allocation of a task's page the core asks the module for a
 * preferred colour (a page's colour is pfn mod the number of colours of the
 * machine's largest physically indexed cache); -1 means "any page", which gives the
 * allocator's own LIFO order.  Versioned like the other policy kinds; called only
 * through coloring_pick(), which counts calls (COLOR_CALLS).
 */
#ifndef MMEMU_COLORING_H
#define MMEMU_COLORING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "emu/core/rng.h"
#include "models/mm/vmstat.h"

#define COLORING_OPS_VERSION 2

struct coloring;
struct mm_task;

/* A task's colouring state (embedded in struct mm_task as `color`; the core sets
 * the fault fields around an anonymous fault, exec clears `init`). */
struct coloring_task {
	bool init;                 /* next is valid (the patch's color_init) */
	uint32_t next;             /* the patch's target_color */
	bool vpn_valid;            /* a user fault is being served ... */
	uint64_t vpn;              /* ... at this virtual page of the heap */
};
struct alloc;

struct coloring_ops {
	int version;
	const char *name;
	const char *desc;
	const struct mm_param *params;
	size_t cfg_size;
	size_t priv_size;
	/* ---- version 1 ---- */
	int (*init)(struct coloring *c, struct mm_err *e);   /* optional */
	void (*fini)(struct coloring *c);                    /* optional */
	/* Returns: the preferred colour of task @t's next page, or -1 for any. */
	int (*pick)(struct coloring *c, struct mm_task *t);
	/* ---- version 2 ---- */
	/* the preferred colour from the task's colouring state (used instead of
	 * pick when set).  Returns: a colour, or -1 for any. */
	int (*pick_task)(struct coloring *c, struct coloring_task *ct);
	/* optional: the task got a page of colour @color (after a miss it differs
	 * from the pick; the round-robin patch continues from it) */
	void (*placed)(struct coloring *c, struct coloring_task *ct, uint32_t color);
};

struct coloring {
	const struct coloring_ops *ops;
	void *cfg, *priv;
	uint32_t ncolors;
	struct mm_vmstat *vs;
	uint64_t preferred, honoured;   /* hints given / hints the allocator could meet */
	/* /proc/page_color (kernel-mechanisms.md 5.3): allocations that found the
	 * wanted colour at once, colour advances after an empty colour, pages placed */
	uint64_t hits, misses, placed;
	struct mm_rng rng;              /* the patch's random start colours (engine seeds it) */
	struct coloring_lists *lists;   /* colour lists (coloring_attach), NULL: none */
};

/**
 * coloring_attach() - build the patch's colour lists over @a's free blocks and keep
 * them in step through a->watch; only for modules that pick colours, with more
 * than one colour.  coloring_destroy() detaches.
 * Returns: 0, or -1 with @e set (out of memory).
 */
int coloring_attach(struct coloring *c, struct alloc *a, struct mm_err *e);

/**
 * coloring_check() - every free block of the buddy lists is on the colour list of
 * its zone, order and colour, and nothing else is.
 * Returns: 0, or -1 with @e naming the first misfiled pfn.
 */
int coloring_check(const struct coloring *c, struct mm_err *e);

/** coloring_modules() - Returns: the NULL-terminated registry. */
const struct coloring_ops *const *coloring_modules(void);

/**
 * coloring_register() - add a plugin's module @ops to the registry (emu/plugin).
 * Returns: 0, or -1 with @e set (unsupported version, missing method, name taken).
 */
int coloring_register(const struct coloring_ops *ops, struct mm_err *e);

/**
 * coloring_create() - instantiate module @name for @ncolors colours.
 * Returns: the instance, or NULL with @e naming @path.
 */
struct coloring *coloring_create(const char *name, json_t *params, uint32_t ncolors,
				 struct mm_vmstat *vs, const char *file, const char *path,
				 struct mm_err *e);

/** coloring_destroy() - free an instance (NULL is fine). */
void coloring_destroy(struct coloring *c);

/** coloring_params_json() - Returns: new JSON object of effective parameters. */
json_t *coloring_params_json(const struct coloring *c);

/**
 * coloring_place() - give task @t a page of colour @color (or the next colour that
 * has a free page) in place of @pfn, which the allocator just handed out: find a
 * free page of the colour in @pfn's zone (order-0 blocks first, then the smallest
 * block holding one), take it with alloc_take() and free @pfn; an empty colour is
 * a miss and advances the colour by one, for at most one lap.  Counts hits and
 * misses, and tells the module the colour placed.
 * @probes: receives the colours tried (the lists the patch probes, for the cost)
 * Returns: the pfn the task gets (@pfn itself when it has the colour or nothing
 * else could be taken).
 */
uint32_t coloring_place(struct coloring *c, struct alloc *a, struct coloring_task *ct,
			uint32_t pfn, int color, int cpu, unsigned *probes);

/* Returns: the preferred colour of task @t's next page (@ct: its state), or -1. */
static inline int coloring_pick(struct coloring *c, struct mm_task *t, struct coloring_task *ct)
{
	mm_count(c->vs, MM_COLOR_CALLS, 1);
	int col = c->ops->version >= 2 && c->ops->pick_task ? c->ops->pick_task(c, ct)
							     : c->ops->pick(c, t);
	if (col >= 0)
		c->preferred++;
	return col;
}

#endif
