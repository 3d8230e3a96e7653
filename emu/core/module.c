/*
 * module.c - helpers shared by the policy registries (see module.h).
 */
#include "emu/core/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int module_unknown(struct mm_err *e, const char *file, const char *path, const char *kind,
		   const char *name, const char *const *names)
{
	char list[256] = "";
	size_t n = 0;
	for (int i = 0; names[i] && n < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", names[i]);
	return mm_errf(e, file, path, "unknown %s module \"%s\" (expected one of: %s)", kind,
		       name ? name : "", list);
}

static const char *module_name(const struct module_registry *r, const void *ops)
{
	return *(const char *const *)((const char *)ops + r->name_offset);
}

const void *const *module_all(struct module_registry *r)
{
	if (r->n == 0)
		while (r->builtin[r->n] && r->n < MODULE_MAX) {
			r->all[r->n] = r->builtin[r->n];
			r->nbuiltin = ++r->n;
		}
	return r->all;
}

int module_add(struct module_registry *r, const void *ops, struct mm_err *e)
{
	const void *const *all = module_all(r);
	const char *name = module_name(r, ops);
	if (!name || !*name)
		return mm_errf(e, NULL, NULL, "a %s module without a name", r->kind);
	for (int i = 0; all[i]; i++)
		if (strcmp(module_name(r, all[i]), name) == 0)
			return mm_errf(e, NULL, NULL, "duplicate %s module name \"%s\" (%s)", r->kind,
				       name, i < r->nbuiltin ?
				       "a built-in module has it" : "another plugin registered it");
	if (r->n >= MODULE_MAX)
		return mm_errf(e, NULL, NULL, "too many %s modules (limit %d)", r->kind, MODULE_MAX);
	r->all[r->n++] = ops;
	return 0;
}

int module_find(const void *const *registry, size_t name_offset, const char *name,
		const char *kind, const char *file, const char *path, struct mm_err *e)
{
	const char *names[MODULE_MAX + 1];
	int n = 0, found = -1;
	for (int i = 0; registry[i] && n < MODULE_MAX; i++) {
		names[n] = *(const char *const *)((const char *)registry[i] + name_offset);
		if (name && strcmp(names[n], name) == 0)
			found = i;
		n++;
	}
	names[n] = NULL;
	if (found < 0)
		module_unknown(e, file, path, kind, name, names);
	return found;
}

void *module_cfg_load(const struct mm_param *spec, size_t cfg_size, json_t *params,
		      const char *file, const char *path, struct mm_err *e)
{
	static const char *const skip[] = { "module", NULL };
	if (params && !json_is_object(params)) {
		mm_errf(e, file, path, "expected an object of module parameters");
		return NULL;
	}
	void *cfg = calloc(1, cfg_size ? cfg_size : 1);
	if (!cfg) {
		mm_errf(e, file, path, "out of memory");
		return NULL;
	}
	if (mm_params_load(spec, cfg, params, file, path, skip, e)) {
		free(cfg);
		return NULL;
	}
	return cfg;
}

int module_state(const struct mm_param *spec, size_t cfg_size, size_t priv_size, json_t *params,
		 void **cfg, void **priv, const char *file, const char *path, struct mm_err *e)
{
	*cfg = module_cfg_load(spec, cfg_size, params, file, path, e);
	if (!*cfg)
		return -1;
	*priv = calloc(1, priv_size ? priv_size : 1);
	if (!*priv) {
		free(*cfg);
		*cfg = NULL;
		return mm_errf(e, file, path, "out of memory");
	}
	return 0;
}

json_t *module_params_json(const char *name, const struct mm_param *spec, const void *cfg)
{
	json_t *o = mm_params_dump(spec, cfg);
	json_object_set_new(o, "module", json_string(name));
	return o;
}
