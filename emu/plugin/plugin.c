/*
 * plugin.c - the plugin loader (see plugin.h and mmemu-plugin.h).
 *
 * Design: a plugin is dlopen()ed with RTLD_NOW (an undefined symbol - one mmemu
 * does not export - fails the load at once, not in the middle of a run) and
 * RTLD_LOCAL (plugins do not see each other), then its one entry point is called
 * with a struct mmemu_plugin that records what happens: whether the ABI was
 * checked, how many modules were registered, and the first error.  Modules go
 * into the registries of their kind (module_add(): names are unique across
 * built-in and plugged-in modules).  Handles are never dlclose()d: SimGrid and the
 * registries keep pointers into the plugin.  The loaded files' bytes are hashed so
 * that kept results (emu/engine/sweep.c) are reused only with the same plugins.
 */
#include "emu/plugin/plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/rng.h"
#include "emu/plugin/mmemu-plugin.h"

#define MAX_PLUGINS 32

struct mmemu_plugin {
	int abi_ok;          /* mmemu_plugin_abi() passed */
	int nreg;            /* modules registered */
	int failed;          /* an mmemu_plugin_*() call failed; err says why */
	struct mm_err err;
};

static struct {
	char *file;          /* real path */
	uint64_t hash;       /* FNV-1a 64 of the contents */
} loaded[MAX_PLUGINS];
static int nloaded;

int plugin_count(void)
{
	return nloaded;
}

const char *plugin_file(int i)
{
	return i >= 0 && i < nloaded ? loaded[i].file : NULL;
}

const char *plugin_digest(void)
{
	static char d[24];
	if (nloaded == 0)
		return "";
	uint64_t h = MM_HASH64_INIT;
	for (int i = 0; i < nloaded; i++)
		h = mm_hash64_mem(h, &loaded[i].hash, sizeof loaded[i].hash);
	snprintf(d, sizeof d, "%016llx", (unsigned long long)h);
	return d;
}

int mmemu_plugin_abi(struct mmemu_plugin *p, int abi)
{
	if (abi == MMEMU_PLUGIN_ABI) {
		p->abi_ok = 1;
		return 0;
	}
	p->failed = 1;
	return mm_errf(&p->err, NULL, NULL, "built for plugin ABI version %d, this mmemu loads "
		       "version %d (rebuild it against this mmemu's mmemu-plugin.pc)", abi,
		       MMEMU_PLUGIN_ABI);
}

/* The common part of the mmemu_plugin_*() registrations: @rc and @e are what
 * the registry said. Returns: @rc. */
static int registered(struct mmemu_plugin *p, int rc, const struct mm_err *e)
{
	if (rc == 0) {
		p->nreg++;
		return 0;
	}
	if (!p->failed)
		p->err = *e;
	p->failed = 1;
	return -1;
}

/* Returns: 0 if @p may register (the ABI was checked), else -1 with p->err set. */
static int may_register(struct mmemu_plugin *p)
{
	if (p->abi_ok)
		return 0;
	if (!p->failed)
		mm_errf(&p->err, NULL, NULL, "registered a module before its ABI version was "
			"checked (define the entry point with MMEMU_PLUGIN())");
	p->failed = 1;
	return -1;
}

int mmemu_plugin_reclaim(struct mmemu_plugin *p, const struct reclaim_ops *ops)
{
	struct mm_err e = { "" };
	return may_register(p) ? -1 : registered(p, ops ? reclaim_register(ops, &e) :
						 mm_errf(&e, NULL, NULL, "NULL ops"), &e);
}

int mmemu_plugin_alloc(struct mmemu_plugin *p, const struct alloc_ops *ops)
{
	struct mm_err e = { "" };
	return may_register(p) ? -1 : registered(p, ops ? alloc_register(ops, &e) :
						 mm_errf(&e, NULL, NULL, "NULL ops"), &e);
}

int mmemu_plugin_kmap(struct mmemu_plugin *p, const struct kmap_ops *ops)
{
	struct mm_err e = { "" };
	return may_register(p) ? -1 : registered(p, ops ? kmap_register(ops, &e) :
						 mm_errf(&e, NULL, NULL, "NULL ops"), &e);
}

int mmemu_plugin_coloring(struct mmemu_plugin *p, const struct coloring_ops *ops)
{
	struct mm_err e = { "" };
	return may_register(p) ? -1 : registered(p, ops ? coloring_register(ops, &e) :
						 mm_errf(&e, NULL, NULL, "NULL ops"), &e);
}

/* Report @what about plugin @so: "FILE: PATH: SO: what" for a scenario's list,
 * "SO: what" for the command line's. Returns: -1. */
static int fail(struct mm_err *e, const char *file, const char *path, const char *so,
		const char *what)
{
	if (file)
		return mm_errf(e, file, path, "plugin %s: %s", so, what);
	return mm_errf(e, so, NULL, "%s", what);
}

/* FNV-1a 64 of file @rp's contents into *@h. Returns: 0, or -1 with errno set. */
static int hash_file(const char *rp, uint64_t *h)
{
	FILE *f = fopen(rp, "rb");
	if (!f)
		return -1;
	unsigned char buf[65536];
	size_t n;
	*h = MM_HASH64_INIT;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		*h = mm_hash64_mem(*h, buf, n);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		errno = EIO;
	return bad ? -1 : 0;
}

/* Load one plugin. Returns: 0 or -1 with @e set. */
static int load_one(const char *so, const char *file, const char *path, struct mm_err *e)
{
	char rp[PATH_MAX], what[MM_ERR_MAX];
	uint64_t h;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	return fail(e, file, path, so, "plugins are not loaded in fuzzing builds");
#endif
	if (!realpath(so, rp) || hash_file(rp, &h)) {
		snprintf(what, sizeof what, "cannot read: %s", strerror(errno));
		return fail(e, file, path, so, what);
	}
	for (int i = 0; i < nloaded; i++)
		if (strcmp(loaded[i].file, rp) == 0)
			return 0;
	if (nloaded == MAX_PLUGINS) {
		snprintf(what, sizeof what, "too many plugins (limit %d)", MAX_PLUGINS);
		return fail(e, file, path, so, what);
	}
	void *dl = dlopen(rp, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *msg = dlerror();
		snprintf(what, sizeof what, "cannot load: %s", msg ? msg : "unknown error");
		return fail(e, file, path, so, what);
	}
	int (*entry)(struct mmemu_plugin *);
	*(void **)&entry = dlsym(dl, MMEMU_PLUGIN_ENTRY);
	if (!entry)
		return fail(e, file, path, so, "not an mmemu plugin: it does not export "
			    MMEMU_PLUGIN_ENTRY "() (define it with MMEMU_PLUGIN(), docs/plugins.md)");
	struct mmemu_plugin p = { 0 };
	int rc = entry(&p);
	if (p.failed)
		return fail(e, file, path, so, p.err.msg);
	if (!p.abi_ok)
		return fail(e, file, path, so, MMEMU_PLUGIN_ENTRY "() did not check the ABI "
			    "version (define it with MMEMU_PLUGIN())");
	if (rc != 0)
		return fail(e, file, path, so, MMEMU_PLUGIN_ENTRY "() failed");
	if (p.nreg == 0)
		return fail(e, file, path, so, "registered no module");
	loaded[nloaded].file = strdup(rp);
	if (!loaded[nloaded].file)
		return fail(e, file, path, so, "out of memory");
	loaded[nloaded++].hash = h;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int plugin_load_all(const char **paths, int n, const char *file, const char *path,
		    struct mm_err *e)
{
	qsort(paths, (size_t)n, sizeof *paths, by_name);
	for (int i = 0; i < n; i++)
		if (load_one(paths[i], file, path, e))
			return -1;
	return 0;
}
