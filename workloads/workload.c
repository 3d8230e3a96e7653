/*
 * workload.c - the workload registry and section loader (see workload.h).
 */
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct workload_ops workload_trace;
extern const struct workload_ops workload_tworead;
extern const struct workload_ops workload_kernbench;
extern const struct workload_ops workload_dbench;
extern const struct workload_ops workload_reaim;
extern const struct workload_ops workload_lmbench;
extern const struct workload_ops workload_fft;
extern const struct workload_ops workload_highalloc;
extern const struct workload_ops workload_aim9;
extern const struct workload_ops workload_untar;

static const struct workload_ops *const registry[] = {
	&workload_trace,
	&workload_tworead,
	&workload_kernbench,
	&workload_reaim,
	&workload_lmbench,
	&workload_fft,
	&workload_dbench,
	&workload_highalloc,
	&workload_aim9,
	&workload_untar,
	NULL,
};

const struct workload_ops *const *workload_modules(void)
{
	return registry;
}

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

static const char *const skip_type[] = { "type", NULL };

const struct workload_ops *workload_load(json_t *obj, const struct machine_cfg *m,
					 void **cfg_out, const char *file, const char *path,
					 struct mm_err *e)
{
	char sub[256];
	*cfg_out = NULL;
	if (!json_is_object(obj)) {
		mm_errf(e, file, path, "expected an object");
		return NULL;
	}
	snprintf(sub, sizeof sub, "%s.type", path);
	json_t *t = json_object_get(obj, "type");
	if (!json_is_string(t)) {
		mm_errf(e, file, sub, t ? "expected a string naming a workload" : "missing (expected a workload name)");
		return NULL;
	}
	const struct workload_ops *w = workload_find(json_string_value(t));
	if (!w) {
		char list[256] = "";
		for (int i = 0; registry[i]; i++) {
			size_t n = strlen(list);
			snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", registry[i]->name);
		}
		mm_errf(e, file, sub, "unknown workload \"%s\" (expected one of: %s)",
			json_string_value(t), list);
		return NULL;
	}
	void *cfg = calloc(1, w->cfg_size ? w->cfg_size : 1);
	if (!cfg) {
		mm_errf(e, file, path, "out of memory");
		return NULL;
	}
	if (mm_params_load(w->params, cfg, obj, file, path, skip_type, e) ||
	    (w->check && w->check(cfg, m, file, path, e))) {
		workload_free(w, cfg);
		return NULL;
	}
	*cfg_out = cfg;
	return w;
}

void workload_free(const struct workload_ops *w, void *cfg)
{
	if (w && cfg && w->fini)
		w->fini(cfg);
	free(cfg);
}
