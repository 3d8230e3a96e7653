/*
 * module.h - what every policy registry (alloc, reclaim, kmap, coloring) shares:
 * the "unknown module" message that lists the valid names, and loading a module's
 * configuration from its parameter table (defaults, then the scenario's object,
 * whose "module" key names the module and is not a parameter), and the list of
 * modules of one kind: the built-in static array followed by the modules plugins
 * added at start (emu/plugin/plugin.c; never removed, so pointers stay valid).
 */
#ifndef MMEMU_MODULE_H
#define MMEMU_MODULE_H

#include <stddef.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"

#define MODULE_MAX 64   /* modules of one kind, built-in and plugged in together */

/* The modules of one kind: a registry file defines one of these statically with
 * the first three fields set; the rest is built on first use. */
struct module_registry {
	const char *kind;                 /* "reclaim", "alloc", "kmap", "coloring" */
	const void *const *builtin;       /* the static NULL-terminated ops array */
	size_t name_offset;               /* offsetof(struct X_ops, name) */
	const void *all[MODULE_MAX + 1];  /* builtin, then added; NULL-terminated */
	int n;                            /* entries of all[]; 0 until first use */
	int nbuiltin;                     /* the first nbuiltin of all[] are built in */
};

/** module_all() - Returns: @r's modules, built-in then added, NULL-terminated. */
const void *const *module_all(struct module_registry *r);

/**
 * module_add() - append @ops (a plugin's module) to @r.
 * Returns: 0, or -1 with @e set if its name is empty, already taken or @r is full.
 */
int module_add(struct module_registry *r, const void *ops, struct mm_err *e);

/**
 * module_unknown() - report that @kind module @name does not exist.
 * @names: the registry's names, NULL-terminated
 * Returns: -1 with @e set to 'unknown KIND module "NAME" (expected one of: a, b, c)'.
 */
int module_unknown(struct mm_err *e, const char *file, const char *path, const char *kind,
		   const char *name, const char *const *names);

/**
 * module_find() - look @name up in a NULL-terminated registry of ops structs whose
 * name field sits at @name_offset (offsetof(struct X_ops, name)).
 * Returns: the index of the module, or -1 with @e set by module_unknown().
 */
int module_find(const void *const *registry, size_t name_offset, const char *name,
		const char *kind, const char *file, const char *path, struct mm_err *e);

/**
 * module_cfg_load() - allocate a zeroed config of @cfg_size and fill it from @spec
 * with @params (an object or NULL; key "module" skipped).
 * Returns: the config (free() it), or NULL with @e naming the offending path.
 */
void *module_cfg_load(const struct mm_param *spec, size_t cfg_size, json_t *params,
		      const char *file, const char *path, struct mm_err *e);

/**
 * module_state() - allocate a module instance's config (filled from @spec and
 * @params, as module_cfg_load()) and its zeroed private state of @priv_size.
 * Returns: 0 with *@cfg and *@priv set, or -1 with @e set and nothing allocated.
 */
int module_state(const struct mm_param *spec, size_t cfg_size, size_t priv_size, json_t *params,
		 void **cfg, void **priv, const char *file, const char *path, struct mm_err *e);

/** module_params_json() - Returns: new object of @cfg's values plus "module": @name. */
json_t *module_params_json(const char *name, const struct mm_param *spec, const void *cfg);

#endif
