/*
 * kmap.h - how the kernel maps a page to copy it (the kmap policy interface).
 *
 * On i386 with highmem, a page above 896 MiB has no permanent kernel address: a
 * copy_to_user from the page cache must map it first (kernel-mechanisms.md 3).  The
 * core calls kmap_map()/kmap_unmap() around every copy of a highmem page; a module
 * charges what its mechanism costs (locks, TLB flushes).  Versioned like the other
 * policy kinds: methods are only appended; the core calls modules only through the
 * wrappers below, which count calls (KMAP_CALLS).
 */
#ifndef MMEMU_KMAP_H
#define MMEMU_KMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "models/mm/vmstat.h"

#define KMAP_OPS_VERSION 2

struct kmap;
struct mm_kernel;
struct mm_task;
struct sim;

struct kmap_ops {
	int version;
	const char *name;
	const char *desc;
	const struct mm_param *params;
	size_t cfg_size;
	size_t priv_size;
	/* ---- version 1 ---- */
	int (*init)(struct kmap *m, struct mm_kernel *k, struct mm_err *e);   /* optional */
	void (*fini)(struct kmap *m);                                          /* optional */
	/* map highmem page @pfn for task @t, charging the cost to @t */
	void (*map)(struct kmap *m, struct mm_task *t, uint32_t pfn);
	void (*unmap)(struct kmap *m, struct mm_task *t, uint32_t pfn);
	/* ---- version 2 ---- */
	/* file_read_actor(): copy @bytes of highmem page @pfn to a user buffer costing
	 * @copy_cycles, mapping the page as the kernel does (optional; NULL = map,
	 * copy, unmap).  @fault: the user buffer is not resident when the copy runs
	 * (the atomic copy fails and falls back). */
	void (*read_copy)(struct kmap *m, struct mm_task *t, uint32_t pfn, uint64_t bytes,
			  double copy_cycles, bool fault);
	/* after the run: add the module's metrics to @s (optional) */
	void (*finish)(struct kmap *m, struct sim *s);
};

struct kmap {
	const struct kmap_ops *ops;
	void *cfg, *priv;
	struct mm_kernel *k;
	struct mm_vmstat *vs;
};

/** kmap_modules() - Returns: the NULL-terminated registry. */
const struct kmap_ops *const *kmap_modules(void);

/**
 * kmap_register() - add a plugin's module @ops to the registry (emu/plugin).
 * Returns: 0, or -1 with @e set (unsupported version, missing method, name taken).
 */
int kmap_register(const struct kmap_ops *ops, struct mm_err *e);

/**
 * kmap_create() - instantiate module @name with @params (key "module" ignored).
 * @k: the kernel, or NULL to validate the parameters only
 * Returns: the instance, or NULL with @e naming @path (an unknown name lists the valid ones).
 */
struct kmap *kmap_create(const char *name, json_t *params, struct mm_kernel *k,
			 struct mm_vmstat *vs, const char *file, const char *path, struct mm_err *e);

/** kmap_destroy() - free an instance (NULL is fine). */
void kmap_destroy(struct kmap *m);

/** kmap_params_json() - Returns: new JSON object of effective parameters (with "module"). */
json_t *kmap_params_json(const struct kmap *m);

static inline void kmap_map(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	mm_count(m->vs, MM_KMAP_CALLS, 1);
	m->ops->map(m, t, pfn);
}

static inline void kmap_unmap(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	m->ops->unmap(m, t, pfn);
}

/**
 * kmap_read_copy() - file_read_actor's copy of @bytes from highmem page @pfn to a
 * user buffer (@copy_cycles of copying) through the module's read_copy method.
 * Returns: 0, or -1 (nothing done) for a module without one (version 1, direct):
 * the caller then does kmap_map, the copy, kmap_unmap.
 */
int kmap_read_copy(struct kmap *m, struct mm_task *t, uint32_t pfn, uint64_t bytes,
		    double copy_cycles, bool fault);

/** kmap_finish() - add the module's metrics to @s (nothing for a module without). */
void kmap_finish(struct kmap *m, struct sim *s);

#endif
