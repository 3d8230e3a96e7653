/*
 * coloring.c - the page-colouring registry and the `none` module (see coloring.h).
 *
 * `none`: no preference, so an allocation gets whatever the allocator's LIFO free
 * lists give (the stock 2.4/2.6 behaviour, kernel-mechanisms.md 5.2).  Seed 004's
 * round-robin module is added to this registry.
 */
#include "models/coloring/coloring.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/module.h"

static int none_pick(struct coloring *c, struct mm_task *t)
{
	return -1;
}

static const struct coloring_ops coloring_none = {
	.version = COLORING_OPS_VERSION,
	.name = "none",
	.desc = "no colouring: pages come in the allocator's LIFO order",
	.pick = none_pick,
};

static const struct coloring_ops *const registry[] = { &coloring_none, NULL };

const struct coloring_ops *const *coloring_modules(void)
{
	return registry;
}

struct coloring *coloring_create(const char *name, json_t *params, uint32_t ncolors,
				 struct mm_vmstat *vs, const char *file, const char *path,
				 struct mm_err *e)
{
	int i = module_find((const void *const *)registry, offsetof(struct coloring_ops, name), name,
			    "coloring", file, path, e);
	if (i < 0)
		return NULL;
	const struct coloring_ops *ops = registry[i];
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
	free(c->cfg);
	free(c->priv);
	free(c);
}

json_t *coloring_params_json(const struct coloring *c)
{
	return module_params_json(c->ops->name, c->ops->params, c->cfg);
}
