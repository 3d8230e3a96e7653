/*
 * reclaim.c - the reclaim module registry and the out-of-line wrappers.
 *
 * The registry is one static, NULL-terminated array of ops pointers, in listing
 * order; adding a module means writing its file, declaring its ops below and adding
 * one line to the array.  reclaim_create() allocates the instance, the module's
 * config and private state (zeroed), fills the config through the generic parameter
 * loader (modules never read JSON themselves) and calls init().  The core never
 * calls a module directly: see the inline wrappers in reclaim.h.
 */
#include "models/reclaim/reclaim.h"

#include "emu/core/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct reclaim_ops reclaim_fifo;
extern const struct reclaim_ops reclaim_lru;
extern const struct reclaim_ops reclaim_clock;
extern const struct reclaim_ops reclaim_opt;
extern const struct reclaim_ops reclaim_random;
extern const struct reclaim_ops reclaim_lru2q;
extern const struct reclaim_ops reclaim_clockpro;
extern const struct reclaim_ops reclaim_mglru;
extern const struct reclaim_ops reclaim_twoq;
extern const struct reclaim_ops reclaim_arc;
extern const struct reclaim_ops reclaim_lirs;
extern const struct reclaim_ops reclaim_s3fifo;
extern const struct reclaim_ops reclaim_sieve;

static const struct reclaim_ops *const registry[] = {
	&reclaim_fifo,
	&reclaim_lru,
	&reclaim_clock,
	&reclaim_opt,
	&reclaim_random,
	&reclaim_twoq,
	&reclaim_arc,
	&reclaim_lirs,
	&reclaim_s3fifo,
	&reclaim_sieve,
	&reclaim_lru2q,
	&reclaim_clockpro,
	&reclaim_mglru,
	NULL,
};

/* the built-in modules above, then those plugins registered (emu/plugin) */
static struct module_registry modules = { .kind = "reclaim",
					  .builtin = (const void *const *)registry,
					  .name_offset = offsetof(struct reclaim_ops, name) };

const struct reclaim_ops *const *reclaim_modules(void)
{
	return (const struct reclaim_ops *const *)module_all(&modules);
}

const struct reclaim_ops *reclaim_find(const char *name)
{
	const struct reclaim_ops *const *all = reclaim_modules();
	if (!name)
		return NULL;
	for (size_t i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

/* Returns: 0 if @ops has a version this build calls and the methods it needs,
 * else -1 with @e set. */
static int reclaim_check_ops(const struct reclaim_ops *ops, const char *file, const char *path,
			     struct mm_err *e)
{
	if (ops->version < 1 || ops->version > RECLAIM_OPS_VERSION)
		return mm_errf(e, file, path, "reclaim module \"%s\" implements interface version "
			       "%d (this build supports 1..%d)", ops->name, ops->version,
			       RECLAIM_OPS_VERSION);
	if (!reclaim_has_frames(ops) && !ops->kops)
		return mm_errf(e, file, path, "reclaim module \"%s\" lacks a required method",
			       ops->name);
	return 0;
}

int reclaim_register(const struct reclaim_ops *ops, struct mm_err *e)
{
	if (!ops->name || reclaim_check_ops(ops, NULL, NULL, e))
		return ops->name ? -1 : mm_errf(e, NULL, NULL, "a reclaim module without a name");
	return module_add(&modules, ops, e);
}

/* "fifo, lru, clock, opt" into @buf. */
static void module_list(char *buf, size_t len)
{
	const struct reclaim_ops *const *all = reclaim_modules();
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; all[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", all[i]->name);
}

struct reclaim *reclaim_create(const char *name, json_t *params, uint32_t nframes,
			       struct mm_vmstat *vs, const char *file, const char *path,
			       struct mm_err *e)
{
	static const char *const skip[] = { "module", NULL };
	const struct reclaim_ops *ops = reclaim_find(name);
	if (!ops) {
		char names[256];
		module_list(names, sizeof names);
		mm_errf(e, file, path, "unknown reclaim module \"%s\" (expected one of: %s)",
			name ? name : "(null)", names);
		return NULL;
	}
	if (reclaim_check_ops(ops, file, path, e))
		return NULL;
	if (nframes == 0 || nframes == RECLAIM_NO_FRAME) {
		mm_errf(e, file, path, "expected a number of frames in 1..%u", RECLAIM_NO_FRAME - 1);
		return NULL;
	}
	if (params && !json_is_object(params)) {
		mm_errf(e, file, path, "expected an object of reclaim parameters");
		return NULL;
	}
	struct reclaim *r = calloc(1, sizeof *r);
	if (!r) {
		mm_errf(e, file, path, "out of memory");
		return NULL;
	}
	r->ops = ops;
	r->nframes = nframes;
	r->vs = vs;
	r->fault_page = RECLAIM_NO_FRAME;
	r->cfg = calloc(1, ops->cfg_size ? ops->cfg_size : 1);
	r->priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
	if (!r->cfg || !r->priv) {
		mm_errf(e, file, path, "out of memory");
		goto fail;
	}
	if (ops->params) {
		if (mm_params_load(ops->params, r->cfg, params, file, path, skip, e) < 0)
			goto fail;
	} else if (params) {
		const char *key;
		json_t *v;
		json_object_foreach(params, key, v) {
			if (strcmp(key, "module") == 0)
				continue;
			char p[MM_ERR_MAX / 2];
			snprintf(p, sizeof p, "%s%s%s", path ? path : "", path && *path ? "." : "", key);
			mm_errf(e, file, p, "unknown parameter (reclaim module \"%s\" has none)",
				ops->name);
			goto fail;
		}
	}
	if (ops->init && ops->init(r, e) < 0) {
		free(r->priv);
		free(r->cfg);
		free(r);
		return NULL;
	}
	return r;
fail:
	free(r->priv);
	free(r->cfg);
	free(r);
	return NULL;
}

void reclaim_destroy(struct reclaim *r)
{
	if (!r)
		return;
	if (r->ops->fini)
		r->ops->fini(r);
	free(r->priv);
	free(r->cfg);
	free(r);
}

json_t *reclaim_params_json(const struct reclaim *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "module", json_string(r->ops->name));
	if (r->ops->params) {
		json_t *p = mm_params_dump(r->ops->params, r->cfg);
		if (p) {
			json_object_update(o, p);
			json_decref(p);
		}
	}
	return o;
}

int reclaim_prepare(struct reclaim *r, const uint32_t *refs, size_t nrefs, struct mm_err *e)
{
	if (!refs && r->ops->needs_trace)
		return mm_errf(e, NULL, NULL, "reclaim module \"%s\" is offline: it needs the whole "
			       "reference string (a trace), and none was given", r->ops->name);
	if (!r->ops->prepare || !refs)
		return 0;
	return r->ops->prepare(r, refs, nrefs, e);
}
