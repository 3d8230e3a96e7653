/*
 * reclaim.h - the reclaim policy interface (which resident page to give up).
 *
 * A reclaim module sees memory as frames 0..nframes-1, each holding at most one
 * page.  The core (the replay loop, or the memory-management core of a timed run)
 * owns the frame <-> page mapping and tells the module what happens:
 *   add(frame)     a page was just loaded into @frame (after a fault)
 *   access(frame)  the page in @frame was referenced again (a hit)
 *   remove(frame)  the page in @frame went away for another reason (truncate, exit)
 *   evict()        memory is full: choose a victim frame, drop it from the module's
 *                  structures and return it; the core then reuses the frame
 * Offline modules (opt) additionally get the whole reference string in prepare()
 * and read the current reference index from r->now.  Online modules may take
 * prepare() too, to size a table of page ids before the first reference.
 *
 * Versioning follows SQLite's VFS: methods are only ever appended; a module
 * declares the version it implements and the core never calls a method the module's
 * version does not have.  Modules are called only through the reclaim_*() wrappers
 * below, which count every call into vm events and supply defaults for optional
 * methods.
 */
#ifndef MMEMU_RECLAIM_H
#define MMEMU_RECLAIM_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"
#include "models/mm/vmstat.h"

#define RECLAIM_OPS_VERSION 2
#define RECLAIM_NO_FRAME UINT32_MAX

struct reclaim;
struct reclaim_kops;

struct reclaim_ops {
	int version;                  /* RECLAIM_OPS_VERSION the module implements */
	const char *name;             /* registry key, unique */
	const char *desc;             /* one line for `mmemu list` */
	const struct mm_param *params;/* parameter table (MM_PARAM_END-terminated) or NULL */
	size_t cfg_size;              /* size of the module's config struct */
	size_t priv_size;             /* size of the module's private state (core allocates, zeroed) */

	/* ---- version 1 ---- */
	/* allocate per-frame state for r->nframes frames. Returns: 0 or -1 with @e set. */
	int (*init)(struct reclaim *r, struct mm_err *e);
	/* free what init allocated (optional). */
	void (*fini)(struct reclaim *r);
	/* whole reference string of page ids, before the first reference (optional;
	 * required for offline modules, which set needs_trace). Returns: 0 or -1. */
	int (*prepare)(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e);
	void (*add)(struct reclaim *r, uint32_t frame);
	void (*access)(struct reclaim *r, uint32_t frame);
	/* optional: default is "not supported", the core then never removes pages early */
	void (*remove)(struct reclaim *r, uint32_t frame);
	/* Returns: the victim frame (already dropped from the module's structures). */
	uint32_t (*evict)(struct reclaim *r);
	/* modules that cannot run without the whole trace (opt) */
	int needs_trace;
	/* kernel-level methods (zones, scan_control; models/mm/vmscan.h), or NULL for
	 * modules that only run on frames (replay and the trace workload) */
	const struct reclaim_kops *kops;

	/* ---- version 2 ---- */
	/* optional, for teaching tables (replay --steps --json): add the module's
	 * per-frame state after the current reference to @out, e.g. CLOCK's
	 * "ref_bits" and "hand", OPT's "next_use" distances. */
	void (*describe)(const struct reclaim *r, json_t *out);
};

/* One reclaim policy instance. */
struct reclaim {
	const struct reclaim_ops *ops;
	void *cfg;                    /* module config (cfg_size bytes), filled from params */
	void *priv;                   /* module private state (priv_size bytes) */
	uint32_t nframes;
	uint64_t now;                 /* index of the current reference (set by the caller) */
	const uint32_t *page_of;      /* frame -> page id, owned by the core (may be NULL) */
	struct mm_vmstat *vs;         /* call counters (may be NULL) */
	/* the page id the core is about to load, set before evict() (RECLAIM_NO_FRAME
	 * when unknown): ARC's replacement depends on which ghost list it is on */
	uint32_t fault_page;
};

/** reclaim_has_frames() - Returns: true if @ops runs on plain frames (replay, trace). */
static inline int reclaim_has_frames(const struct reclaim_ops *ops)
{
	return ops->add && ops->access && ops->evict;
}

/** reclaim_find() - Returns: the module called @name, or NULL. */
const struct reclaim_ops *reclaim_find(const char *name);

/** reclaim_modules() - Returns: the NULL-terminated registry, in listing order. */
const struct reclaim_ops *const *reclaim_modules(void);

/**
 * reclaim_register() - add a plugin's module @ops to the registry (emu/plugin).
 * Returns: 0, or -1 with @e set (unsupported version, missing method, name taken).
 */
int reclaim_register(const struct reclaim_ops *ops, struct mm_err *e);

/**
 * reclaim_create() - instantiate module @name for @nframes frames.
 * @params: JSON object of module parameters (may be NULL); key "module" is ignored
 * @file, @path: where @params came from, for messages
 * Returns: a new instance, or NULL with @e set (unknown module: the message lists
 * the valid names; bad parameter: the message names its path).
 */
struct reclaim *reclaim_create(const char *name, json_t *params, uint32_t nframes,
			       struct mm_vmstat *vs, const char *file, const char *path,
			       struct mm_err *e);

/** reclaim_destroy() - free an instance (NULL is fine). */
void reclaim_destroy(struct reclaim *r);

/** reclaim_params_json() - Returns: new JSON object of effective parameters (with "module"). */
json_t *reclaim_params_json(const struct reclaim *r);

/* Wrappers: the only way the core calls a module. */
int reclaim_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e);

static inline void reclaim_add(struct reclaim *r, uint32_t frame)
{
	mm_count(r->vs, MM_POLICY_ADD, 1);
	r->ops->add(r, frame);
}

static inline void reclaim_access(struct reclaim *r, uint32_t frame)
{
	mm_count(r->vs, MM_POLICY_ACCESS, 1);
	r->ops->access(r, frame);
}

/** reclaim_remove() - Returns: 0, or -1 if the module cannot remove pages early. */
static inline int reclaim_remove(struct reclaim *r, uint32_t frame)
{
	if (!r->ops->remove)
		return -1;
	mm_count(r->vs, MM_POLICY_REMOVE, 1);
	r->ops->remove(r, frame);
	return 0;
}

/** reclaim_describe() - add the module's state to @out (nothing if it has no
 * describe method). Returns: nothing. */
static inline void reclaim_describe(const struct reclaim *r, json_t *out)
{
	if (r->ops->version >= 2 && r->ops->describe)
		r->ops->describe(r, out);
}

static inline uint32_t reclaim_evict(struct reclaim *r)
{
	mm_count(r->vs, MM_POLICY_EVICT, 1);
	return r->ops->evict(r);
}

#endif
