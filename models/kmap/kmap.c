/*
 * kmap.c - the kmap registry and the `direct` module (see kmap.h).
 *
 * `direct`: every page has a permanent kernel address (x86_64, alpha, or i386
 * memory below 896 MiB), so mapping costs nothing.  It is the right module for
 * machines without a HighMem zone.  The i386 highmem modules of seed 002 are
 * pkmap.c (`pkmap`: kmap_high with the global kmap_lock) and atomic.c (`atomic`:
 * Morton's 2002 patch, kmap_atomic in file_read_actor).
 */
#include "models/kmap/kmap.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/module.h"

static void direct_map(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
}

static void direct_unmap(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
}

static const struct kmap_ops kmap_direct = {
	.version = KMAP_OPS_VERSION,
	.name = "direct",
	.desc = "no highmem mapping needed: every page is direct-mapped, kmap is free",
	.map = direct_map,
	.unmap = direct_unmap,
};

extern const struct kmap_ops kmap_pkmap;
extern const struct kmap_ops kmap_atomic;

static const struct kmap_ops *const registry[] = { &kmap_direct, &kmap_pkmap, &kmap_atomic, NULL };

int kmap_read_copy(struct kmap *m, struct mm_task *t, uint32_t pfn, uint64_t bytes,
		   double copy_cycles, bool fault)
{
	if (m->ops->version < 2 || !m->ops->read_copy)
		return -1;
	mm_count(m->vs, MM_KMAP_CALLS, 1);
	m->ops->read_copy(m, t, pfn, bytes, copy_cycles, fault);
	return 0;
}

void kmap_finish(struct kmap *m, struct sim *s)
{
	if (m && m->ops->version >= 2 && m->ops->finish)
		m->ops->finish(m, s);
}

/* the built-in modules above, then those plugins registered (emu/plugin) */
static struct module_registry modules = { .kind = "kmap",
					  .builtin = (const void *const *)registry,
					  .name_offset = offsetof(struct kmap_ops, name) };

const struct kmap_ops *const *kmap_modules(void)
{
	return (const struct kmap_ops *const *)module_all(&modules);
}

int kmap_register(const struct kmap_ops *ops, struct mm_err *e)
{
	if (!ops->name)
		return mm_errf(e, NULL, NULL, "a kmap module without a name");
	if (ops->version < 1 || ops->version > KMAP_OPS_VERSION)
		return mm_errf(e, NULL, NULL, "kmap module \"%s\" implements interface version %d "
			       "(this build supports 1..%d)", ops->name, ops->version, KMAP_OPS_VERSION);
	if (!ops->map || !ops->unmap)
		return mm_errf(e, NULL, NULL, "kmap module \"%s\" lacks a required method (map, unmap)",
			       ops->name);
	return module_add(&modules, ops, e);
}

struct kmap *kmap_create(const char *name, json_t *params, struct mm_kernel *k,
			 struct mm_vmstat *vs, const char *file, const char *path, struct mm_err *e)
{
	const struct kmap_ops *const *all = kmap_modules();
	int i = module_find((const void *const *)all, offsetof(struct kmap_ops, name), name,
			    "kmap", file, path, e);
	if (i < 0)
		return NULL;
	const struct kmap_ops *ops = all[i];
	struct kmap *m = calloc(1, sizeof *m);
	if (!m) {
		mm_errf(e, file, path, "out of memory");
		return NULL;
	}
	m->ops = ops;
	m->k = k;
	m->vs = vs;
	if (module_state(ops->params, ops->cfg_size, ops->priv_size, params, &m->cfg, &m->priv,
			 file, path, e)) {
		free(m);
		return NULL;
	}
	if (k && ops->init && ops->init(m, k, e)) {
		free(m->cfg);
		free(m->priv);
		free(m);
		return NULL;
	}
	return m;
}

void kmap_destroy(struct kmap *m)
{
	if (!m)
		return;
	if (m->k && m->ops->fini)
		m->ops->fini(m);
	free(m->cfg);
	free(m->priv);
	free(m);
}

json_t *kmap_params_json(const struct kmap *m)
{
	return module_params_json(m->ops->name, m->ops->params, m->cfg);
}
