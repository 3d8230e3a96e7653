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

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "models/vmstat.h"

#define COLORING_OPS_VERSION 1

struct coloring;
struct mm_task;

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
};

struct coloring {
	const struct coloring_ops *ops;
	void *cfg, *priv;
	uint32_t ncolors;
	struct mm_vmstat *vs;
	uint64_t preferred, honoured;   /* hints given / hints the allocator could meet */
};

/** coloring_modules() - Returns: the NULL-terminated registry. */
const struct coloring_ops *const *coloring_modules(void);

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

static inline int coloring_pick(struct coloring *c, struct mm_task *t)
{
	mm_count(c->vs, MM_COLOR_CALLS, 1);
	int col = c->ops->pick(c, t);
	if (col >= 0)
		c->preferred++;
	return col;
}

#endif
