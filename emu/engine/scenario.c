/*
 * scenario.c - loading, validating and expanding scenario files (see scenario.h).
 */
#include "emu/engine/scenario.h"
#include "emu/engine/judgement.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu/core/output.h"
#include "emu/core/rng.h"
#include "emu/core/readfile.h"
#include "emu/engine/chain.h"
#include "emu/engine/engine.h"
#include "emu/plugin/plugin.h"

/* The most simulations (kernels x sweep points x runs) a scenario expands to. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MAX_SIMS 100000
#else
#define MAX_SIMS 1000   /* fuzz builds (docs/fuzzing.md): 100000 points take a minute under ASan */
#endif

static const char *const top_keys[] = { "name", "description", "machine", "kernels", "workload",
					"sweep", "runs", "seed", "engine", "judgement", "plugins", "steps", NULL };

/* The canonical JSON the hash is taken of: sorted, compact, without the
 * "judgement" declarations (they qualify constants, they are not the model). */
static char *canon_json(json_t *root)
{
	json_t *copy = json_copy(root);
	json_object_del(copy, "judgement");
	char *canon = copy ? json_dumps(copy, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	json_decref(copy);
	return canon;
}

static int check_keys(json_t *o, const char *const *keys, const char *file, const char *path,
		      struct mm_err *e)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		int ok = 0;
		for (int i = 0; keys[i]; i++)
			ok |= strcmp(keys[i], key) == 0;
		if (!ok) {
			char sub[256], list[256] = "";
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
			for (int i = 0; keys[i]; i++) {
				size_t n = strlen(list);
				snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", keys[i]);
			}
			return mm_errf(e, file, sub, "unknown key (expected one of: %s)", list);
		}
	}
	return 0;
}

/*
 * Set dotted @path (relative to @root) to @val, creating objects on the way.
 * Returns: 0, or -1 when a value on the way is not an object; then @where receives
 * the leading part of @path that names that value.
 */
static int set_path(json_t *root, const char *path, json_t *val, char *where, size_t wlen)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	json_t *o = root;
	char *save, *tok = strtok_r(buf, ".", &save);
	while (tok) {
		char *next = strtok_r(NULL, ".", &save);
		if (!next)
			return json_object_set(o, tok, val);
		json_t *c = json_object_get(o, tok);
		if (!c) {
			c = json_object();
			json_object_set_new(o, tok, c);
		} else if (!json_is_object(c)) {
			snprintf(where, wlen, "%.*s", (int)(tok - buf + strlen(tok)), path);
			return -1;
		}
		o = c;
		tok = next;
	}
	snprintf(where, wlen, "%s", path);
	return -1;
}

/* Merge object @over into @base recursively (objects merge, anything else replaces). */
static void merge(json_t *base, json_t *over)
{
	const char *key;
	json_t *v;
	json_object_foreach(over, key, v) {
		json_t *b = json_object_get(base, key);
		if (json_is_object(b) && json_is_object(v))
			merge(b, v);
		else
			json_object_set(base, key, v);
	}
}

/* jansson's verdict on a scenario's text as one of our errors: "line N" for a
 * syntax error (a duplicate key included), "(top)" when it is not an object. */
static int json_verdict(json_t *root, const json_error_t *je, const char *file, json_t **out,
			struct mm_err *e)
{
	if (!root) {
		if (je->line < 1)
			return mm_errf(e, file, NULL, "%s", je->text);
		char where[64];
		snprintf(where, sizeof where, "line %d", je->line);
		return mm_errf(e, file, where, "%s", je->text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return mm_errf(e, file, "(top)", "expected a JSON object");
	}
	*out = root;
	return 0;
}

static int load_json(const char *file, json_t **out, struct mm_err *e)
{
	json_error_t je;
	struct stat st;
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode))
		return mm_errf(e, file, NULL, "expected a scenario file, got a directory");
	return json_verdict(json_load_file(file, JSON_REJECT_DUPLICATES, &je), &je, file, out, e);
}

/* For a sweep key "kernels.NAME.PARAM", find the kernel NAME (which may itself
 * contain dots: the longest kernel name that fits wins).
 * Returns: the PARAM part, or NULL if no kernel matches; *kn gets the name. */
static const char *sweep_kernel(json_t *root, const char *key, const char **kn)
{
	const char *best = NULL, *name;
	size_t bestlen = 0;
	json_t *v;
	json_object_foreach(json_object_get(root, "kernels"), name, v) {
		size_t n = strlen(name);
		if (strncmp(key + 8, name, n) == 0 && key[8 + n] == '.' && key[9 + n] && n >= bestlen) {
			best = name;
			bestlen = n;
		}
	}
	*kn = best;
	return best ? key + 9 + bestlen : NULL;
}

/* Validate the sweep section. Returns: number of points, or -1. */
static int check_sweep(json_t *sweep, json_t *root, const char *file, struct mm_err *e)
{
	int points = 1;
	if (!sweep)
		return 1;
	if (!json_is_object(sweep))
		return mm_errf(e, file, "sweep", "expected an object mapping parameter paths to arrays");
	const char *key;
	json_t *v;
	json_object_foreach(sweep, key, v) {
		char sub[300];
		snprintf(sub, sizeof sub, "sweep.%s", key);
		int ok = strncmp(key, "machine.", 8) == 0 || strncmp(key, "workload.", 9) == 0 ||
			 strncmp(key, "engine.", 7) == 0 || strncmp(key, "kernels.", 8) == 0;
		if (!ok || key[strlen(key) - 1] == '.' || strstr(key, ".."))
			return mm_errf(e, file, sub,
				       "expected a parameter path starting with machine., workload., engine. or kernels.NAME.");
		if (strcmp(key, "workload.type") == 0)
			return mm_errf(e, file, sub, "the workload type cannot be swept");
		if (strncmp(key, "kernels.", 8) == 0) {
			const char *kn;
			if (!sweep_kernel(root, key, &kn))
				return mm_errf(e, file, sub, "expected kernels.NAME.PARAM with NAME a kernel of this scenario");
		}
		if (!json_is_array(v) || json_array_size(v) == 0)
			return mm_errf(e, file, sub, "expected a non-empty array of values");
		if (json_array_size(v) > 10000 || points > MAX_SIMS / (int)json_array_size(v))
			return mm_errf(e, file, sub, "the sweep has too many points (limit %d)", MAX_SIMS);
		points *= (int)json_array_size(v);
	}
	return points;
}

/* Validate the steps of a chained run: a non-empty array of objects, each a
 * workload section ("type") or overrides of the workload section (their values are
 * checked with each (kernel, point), by chain_load()).  Returns: 0, or -1. */
static int check_steps(json_t *steps, const char *file, struct mm_err *e)
{
	if (!steps)
		return 0;
	if (!json_is_array(steps) || json_array_size(steps) == 0)
		return mm_errf(e, file, "steps",
			       "expected a non-empty array of steps (workload sections, or overrides of the workload section)");
	if (json_array_size(steps) > CHAIN_MAX_STEPS)
		return mm_errf(e, file, "steps", "expected at most %d steps, found %zu", CHAIN_MAX_STEPS,
			       json_array_size(steps));
	size_t i;
	json_t *st;
	json_array_foreach(steps, i, st) {
		char sub[64];
		snprintf(sub, sizeof sub, "steps[%zu]", i);
		if (!json_is_object(st))
			return mm_errf(e, file, sub,
				       "expected an object (a workload section with \"type\", or overrides of the workload section)");
	}
	return 0;
}
/* Does the workload section of @spec ask for the invariant checker (run
 * --check) while the typed step @w, whose workload has that parameter, does not
 * say?  Returns: 1 or 0. */
static int check_wanted(json_t *spec, json_t *w)
{
	if (!json_is_true(json_object_get(json_object_get(spec, "workload"), "check")) ||
	    json_object_get(w, "check"))
		return 0;
	const struct workload_ops *ops = workload_find(json_string_value(json_object_get(w, "type")) ?: "");
	for (const struct mm_param *p = ops ? ops->params : NULL; p && p->key; p++)
		if (!strcmp(p->key, "check"))
			return 1;
	return 0;
}


/*
 * Build the spec of (kernel @kname, point @pi, run @run).  Order of application:
 * the point's kernels.NAME.* values go into the kernel section first, then the
 * kernel's machine overrides are merged into the machine section, then the point's
 * machine.*, workload.* and engine.* values are set.
 * Returns: the spec, or NULL with @e naming the sweep key that cannot be applied.
 */
static json_t *make_spec(json_t *root, const char *kname, json_t *kobj, int pi, int run,
			 int64_t seed, json_t **point_out, const char *file, struct mm_err *e)
{
	json_t *spec = json_object();
	json_t *machine = json_deep_copy(json_object_get(root, "machine"));
	json_t *kcfg = json_deep_copy(kobj);
	json_t *point = json_object();
	json_t *sweep = json_object_get(root, "sweep");
	char where[256], sub[300];
	int bad = 0;
	size_t bk = 0;   /* the sweep key that cannot be applied */

	json_object_set_new(spec, "kernel", json_string(kname));
	json_object_set_new(spec, "seed", json_integer(seed));
	json_object_set_new(spec, "run", json_integer(run));
	json_object_set_new(spec, "machine", machine);
	json_object_set_new(spec, "kernel_cfg", kcfg);
	json_object_set_new(spec, "workload", json_deep_copy(json_object_get(root, "workload")));
	json_t *eng = json_object_get(root, "engine");
	json_object_set_new(spec, "engine", eng ? json_deep_copy(eng) : json_object());

	/* cartesian product, last key fastest: compute the per-key index from the back */
	size_t nkeys = sweep ? json_object_size(sweep) : 0;
	const char **keys = calloc(nkeys + 1, sizeof *keys);
	json_t **vals = calloc(nkeys + 1, sizeof *vals);
	int *idx = calloc(nkeys + 1, sizeof *idx);
	if (!keys || !vals || !idx) {
		mm_errf(e, file, NULL, "out of memory");
		bad = 1;
		goto out;
	}
	size_t k = 0;
	const char *key;
	json_t *v;
	if (sweep)
		json_object_foreach(sweep, key, v) {
			keys[k] = key;
			vals[k++] = v;
		}
	int rest = pi;
	for (size_t i = nkeys; i-- > 0;) {
		int n = (int)json_array_size(vals[i]);
		idx[i] = rest % n;
		rest /= n;
	}
	for (size_t i = 0; i < nkeys; i++)
		json_object_set(point, keys[i], json_array_get(vals[i], (size_t)idx[i]));
	/* 1. this kernel's own sweep keys */
	for (size_t i = 0; i < nkeys && !bad; i++) {
		json_t *val = json_array_get(vals[i], (size_t)idx[i]);
		if (strncmp(keys[i], "kernels.", 8) != 0)
			continue;
		const char *kn;
		const char *param = sweep_kernel(root, keys[i], &kn);
		if (param && strcmp(kn, kname) == 0 &&
		    set_path(kcfg, param, val, where, sizeof where)) {
			bad = 1;
			bk = i;
		}
	}
	if (bad) {
		snprintf(sub, sizeof sub, "kernels.%s.%s", kname, where);
		goto notobj;
	}
	/* 2. the kernel's machine overrides */
	json_t *kmach = json_object_get(kcfg, "machine");
	if (kmach && !json_is_object(kmach)) {
		snprintf(sub, sizeof sub, "kernels.%s.machine", kname);
		bad = 1;
		for (size_t i = 0; i < nkeys; i++)
			if (strncmp(keys[i], sub, strlen(sub)) == 0)
				bk = i;
		goto notobj;
	}
	if (kmach && json_is_object(machine))
		merge(machine, kmach);
	json_object_del(kcfg, "machine");
	/* 3. machine, workload and engine sweep keys */
	for (size_t i = 0; i < nkeys && !bad; i++) {
		json_t *val = json_array_get(vals[i], (size_t)idx[i]);
		if (strncmp(keys[i], "kernels.", 8) == 0)
			continue;
		if (set_path(spec, keys[i], val, where, sizeof where)) {
			bad = 1;
			bk = i;
		}
	}
	if (bad) {
		snprintf(sub, sizeof sub, "%s", where);
		goto notobj;
	}
	/* 4. the steps of a chained run: a section with "type" as it is, overrides
	 * merged into the workload section after the sweep point */
	json_t *steps = json_object_get(root, "steps");
	if (steps) {
		json_t *ms = json_array();
		size_t i;
		json_t *st;
		json_array_foreach(steps, i, st) {
			json_t *w = json_object_get(st, "type") ? json_deep_copy(st)
							      : json_deep_copy(json_object_get(spec, "workload"));
			if (!json_object_get(st, "type"))
				merge(w, st);
			else if (check_wanted(spec, w))   /* run --check: every step checks */
				json_object_set_new(w, "check", json_true());
			json_array_append_new(ms, w);
		}
		json_object_set_new(spec, "step_points", chain_step_points(steps, ms));
		json_object_set_new(spec, "steps", ms);
	}
	goto out;
notobj: {
		char *lbl = results_point_label(point);
		char spath[300];
		size_t wl = strlen(sub);
		int hint = wl >= 8 && strcmp(sub + wl - 8, ".reclaim") == 0;
		snprintf(spath, sizeof spath, "sweep.%s", keys[bk] ? keys[bk] : "");
		mm_errf(e, file, spath, "cannot apply sweep point %d (%s): %s is not an object%s", pi,
			lbl ? lbl : "", sub,
			hint ? " (write the module as {\"module\": NAME} to sweep its parameters)" : "");
		free(lbl);
	}
out:
	free(keys);
	free(vals);
	free(idx);
	if (bad) {
		json_decref(spec);
		json_decref(point);
		return NULL;
	}
	*point_out = point;
	return spec;
}

/*
 * After a failed sim_prepare of kernel @kname: when the error names machine.KEY and
 * KEY came from the kernel's machine overrides (and not from the sweep point),
 * rewrite the path to kernels.NAME.machine.KEY, where the user wrote the value.
 */
static void blame_override(struct mm_err *e, const char *file, const char *kname,
			   json_t *kobj, json_t *point)
{
	json_t *kmach = json_object_get(kobj, "machine");
	char prefix[MM_ERR_MAX], key[128], swept[160];
	snprintf(prefix, sizeof prefix, "%s: machine.", file);
	size_t pl = strlen(prefix);
	if (!json_is_object(kmach) || strncmp(e->msg, prefix, pl) != 0)
		return;
	size_t kl = strcspn(e->msg + pl, ".[: ");
	if (kl == 0 || kl >= sizeof key)
		return;
	memcpy(key, e->msg + pl, kl);
	key[kl] = '\0';
	snprintf(swept, sizeof swept, "machine.%s", key);
	const char *pk;
	json_t *pv;
	json_object_foreach(point, pk, pv)
		if (strcmp(pk, swept) == 0 ||
		    (strncmp(pk, swept, strlen(swept)) == 0 && pk[strlen(swept)] == '.'))
			return;
	if (!json_object_get(kmach, key))
		return;
	/* "KEY...: what" -> path kernels.KNAME.machine.KEY..., quoted like any path */
	char rest[MM_ERR_MAX], path[3 * MM_ERR_MAX];
	snprintf(rest, sizeof rest, "%s", e->msg + pl);
	char *what = strstr(rest, ": ");
	if (!what)
		return;
	*what = '\0';
	snprintf(path, sizeof path, "kernels.%s.machine.%s", kname, rest);
	mm_errf(e, file, path, "%s", what + 2);
}

/* Apply the command line's overrides {"a.b.c": value} to @root: each dotted path
 * names objects down to the key it sets (created when absent). Returns: 0 or -1. */
static int apply_set(json_t *root, json_t *set, struct mm_err *e)
{
	const char *key;
	json_t *v;
	json_object_foreach(set, key, v) {
		char buf[512];
		if (snprintf(buf, sizeof buf, "%s", key) >= (int)sizeof buf || !*key)
			return mm_errf(e, "--set", key, "expected a dotted path of at most 511 characters");
		json_t *o = root;
		char *part = buf, *dot;
		while ((dot = strchr(part, '.'))) {
			*dot = '\0';
			json_t *next = json_object_get(o, part);
			if (!next) {
				next = json_object();
				json_object_set_new(o, part, next);
			}
			if (!json_is_object(next) || !*part)
				return mm_errf(e, "--set", key, "expected a path through objects (%s is not one)",
					       *part ? part : "an empty name");
			o = next;
			part = dot + 1;
		}
		if (!*part)
			return mm_errf(e, "--set", key, "expected a key after the last dot");
		json_object_set(o, part, v);
	}
	return 0;
}

int scenario_load(struct scenario *sc, const char *file, struct mm_err *e)
{
	return scenario_load_set(sc, file, NULL, e);
}

static int expand(struct scenario *sc, json_t *set, struct mm_err *e);

/* Load the plugins of @root's "plugins" array (shared object files, relative to
 * the scenario file's directory). Returns: 0 or -1 with @e set. */
static int load_plugins(json_t *root, const char *file, struct mm_err *e)
{
	json_t *list = json_object_get(root, "plugins"), *v;
	size_t i;
	if (!list)
		return 0;
	if (!json_is_array(list) || json_array_size(list) > 32)
		return mm_errf(e, file, "plugins", "expected an array of at most 32 shared object files");
	char dir[1024], *paths[32];
	const char *ptrs[32];
	int rc = 0;
	snprintf(dir, sizeof dir, "%s", file ? file : ".");
	const char *base = dirname(dir);
	json_array_foreach(list, i, v) {
		char sub[32];
		snprintf(sub, sizeof sub, "plugins[%zu]", i);
		const char *f = json_string_value(v);
		paths[i] = NULL;
		if (!f || !*f) {
			rc = mm_errf(e, file, sub, "expected a shared object file name");
		} else if (f[0] == '/' || !file) {
			paths[i] = strdup(f);
		} else if (asprintf(&paths[i], "%s/%s", base, f) < 0) {
			paths[i] = NULL;
		}
		if (!rc && !paths[i])
			rc = mm_errf(e, file, sub, "out of memory");
		ptrs[i] = paths[i];
		if (rc) {
			i++;
			break;
		}
	}
	size_t n = i;
	if (!rc)
		rc = plugin_load_all(ptrs, (int)n, file, "plugins", e);
	for (i = 0; i < n; i++)
		free(paths[i]);
	return rc;
}

/* The start of every load: @sc empty, a new digest of input files, the name kept. */
static int begin(struct scenario *sc, const char *file, struct mm_err *e)
{
	memset(sc, 0, sizeof *sc);
	mm_inputs_reset();
	sc->file = strdup(file);
	return sc->file ? 0 : mm_errf(e, file, NULL, "out of memory");
}

int scenario_load_set(struct scenario *sc, const char *file, json_t *set, struct mm_err *e)
{
	if (begin(sc, file, e))
		return -1;
	if (load_json(file, &sc->root, e)) {
		scenario_free(sc);
		return -1;
	}
	return expand(sc, set, e);
}

int scenario_parse(struct scenario *sc, const char *buf, size_t len, const char *file,
		   struct mm_err *e)
{
	return scenario_parse_set(sc, buf, len, file, NULL, e);
}

int scenario_parse_set(struct scenario *sc, const char *buf, size_t len, const char *file,
		       json_t *set, struct mm_err *e)
{
	json_error_t je;
	if (begin(sc, file, e))
		return -1;
	if (json_verdict(json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je), &je, file, &sc->root, e)) {
		scenario_free(sc);
		return -1;
	}
	return expand(sc, set, e);
}

/* Validate and expand the JSON in sc->root (after the command line's @set). */
static int expand(struct scenario *sc, json_t *set, struct mm_err *e)
{
	const char *file = sc->file;
	json_t *root = sc->root;
	if (set && apply_set(root, set, e))
		goto fail;
	if (check_keys(root, top_keys, file, "", e) || load_plugins(root, file, e))
		goto fail;

	json_t *name = json_object_get(root, "name");
	if (!name) {
		mm_errf(e, file, "name", "missing (expected a string)");
		goto fail;
	}
	if (!json_is_string(name) || !*json_string_value(name)) {
		mm_errf(e, file, "name", "expected a non-empty string");
		goto fail;
	}
	sc->name = json_string_value(name);
	json_t *desc = json_object_get(root, "description");
	if (desc && !json_is_string(desc)) {
		mm_errf(e, file, "description", "expected a string");
		goto fail;
	}
	static const char *const req[] = { "machine", "kernels", "workload", NULL };
	for (int i = 0; req[i]; i++) {
		json_t *o = json_object_get(root, req[i]);
		if (!o) {
			mm_errf(e, file, req[i], "missing (expected an object)");
			goto fail;
		}
		if (!json_is_object(o)) {
			mm_errf(e, file, req[i], "expected an object");
			goto fail;
		}
	}
	json_t *runs = json_object_get(root, "runs");
	sc->runs = 1;
	if (runs) {
		if (!json_is_integer(runs) || json_integer_value(runs) < 1 ||
		    json_integer_value(runs) > 1000) {
			mm_errf(e, file, "runs", "expected an integer in [1, 1000]");
			goto fail;
		}
		sc->runs = json_integer_value(runs);
	}
	json_t *seed = json_object_get(root, "seed");
	sc->seed = 1;
	if (seed) {
		if (!json_is_integer(seed) || json_integer_value(seed) < 0) {
			mm_errf(e, file, "seed", "expected a non-negative integer");
			goto fail;
		}
		sc->seed = json_integer_value(seed);
	}
	json_t *kernels = json_object_get(root, "kernels");
	sc->nkernels = (int)json_object_size(kernels);
	if (sc->nkernels == 0) {
		mm_errf(e, file, "kernels", "expected at least one kernel");
		goto fail;
	}
	const char *kname;
	json_t *kobj;
	json_object_foreach(kernels, kname, kobj) {
		char sub[256];
		snprintf(sub, sizeof sub, "kernels.%s", kname);
		if (!*kname || kname[strlen(kname) - 1] == '.') {
			mm_errf(e, file, sub, "expected a non-empty kernel name not ending in a dot");
			goto fail;
		}
		if (!json_is_object(kobj)) {
			mm_errf(e, file, sub, "expected an object");
			goto fail;
		}
		json_t *km = json_object_get(kobj, "machine");
		if (km && !json_is_object(km)) {
			snprintf(sub, sizeof sub, "kernels.%s.machine", kname);
			mm_errf(e, file, sub, "expected an object of machine overrides");
			goto fail;
		}
	}
	sc->npoints = check_sweep(json_object_get(root, "sweep"), root, file, e);
	if (sc->npoints < 0)
		goto fail;
	if (check_steps(json_object_get(root, "steps"), file, e))
		goto fail;

	if (judgement_check(root, file, e))
		goto fail;
	char *canon = canon_json(root);
	snprintf(sc->hash, sizeof sc->hash, "%016llx", (unsigned long long)mm_hash64(canon));
	free(canon);

	/* in 64 bits: 46 kernels x 93744 points x 996 runs wrapped to 7808 in an int,
	 * and expansion wrote past the 7808 simulations allocated
	 * (tests/bad/runs-sims-overflow.json) */
	int64_t nsims = (int64_t)sc->nkernels * sc->npoints * sc->runs;
	if (nsims > MAX_SIMS) {
		mm_errf(e, file, "runs", "too many simulations (%lld; limit %d)", (long long)nsims,
			MAX_SIMS);
		goto fail;
	}
	sc->nsims = (int)nsims;
	sc->sims = calloc((size_t)sc->nsims, sizeof *sc->sims);
	if (!sc->sims) {
		mm_errf(e, file, NULL, "out of memory");
		goto fail;
	}
	int n = 0;
	json_object_foreach(kernels, kname, kobj) {
		for (int p = 0; p < sc->npoints; p++) {
			for (int r = 0; r < sc->runs; r++) {
				struct scenario_sim *ss = &sc->sims[n++];
				ss->kernel = kname;
				ss->point_index = p;
				ss->run = r;
				ss->spec = make_spec(root, kname, kobj, p, r, sc->seed, &ss->point, file, e);
				if (!ss->spec) {
					ss->point = NULL;
					goto fail;
				}
				if (r > 0)
					continue;   /* runs differ only in their index */
				struct sim_state s;
				if (sim_prepare(&s, ss->spec, file, e)) {
					sim_release(&s);
					blame_override(e, file, kname, kobj, ss->point);
					if (json_object_size(ss->point)) {
						/* the values as JSON, cleaned like the rest of the
						 * line (JSON leaves DEL, 0x7f, unescaped) */
						char *lbl = results_point_label(ss->point);
						char what[MM_ERR_MAX];
						snprintf(what, sizeof what, " (sweep point %d: %s)", p,
							 lbl ? lbl : "");
						size_t len = strlen(e->msg);
						mm_err_clean(e->msg + len, sizeof e->msg - len, what,
							     sizeof e->msg - len - 1);
						free(lbl);
					}
					goto fail;
				}
				sim_release(&s);
			}
		}
	}
	mm_inputs_digest(sc->inputs, sizeof sc->inputs);
	return 0;
fail:
	mm_inputs_digest(sc->inputs, sizeof sc->inputs);   /* stops hashing */
	scenario_free(sc);
	return -1;
}

int scenario_reseed(struct scenario *sc, int64_t seed)
{
	if (seed < 0)
		return -1;
	sc->seed = seed;
	json_object_set_new(sc->root, "seed", json_integer(seed));
	char *canon = canon_json(sc->root);
	if (!canon)
		return -1;
	snprintf(sc->hash, sizeof sc->hash, "%016llx", (unsigned long long)mm_hash64(canon));
	free(canon);
	for (int i = 0; i < sc->nsims; i++)
		json_object_set_new(sc->sims[i].spec, "seed", json_integer(seed));
	return 0;
}

void scenario_free(struct scenario *sc)
{
	for (int i = 0; sc->sims && i < sc->nsims; i++) {
		json_decref(sc->sims[i].spec);
		json_decref(sc->sims[i].point);
	}
	free(sc->sims);
	json_decref(sc->root);
	free(sc->file);
	memset(sc, 0, sizeof *sc);
}
