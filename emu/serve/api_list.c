/*
 * api_list.c - the read-only lists: GET /api/list (what `mmemu list --params`
 * prints, as JSON), GET /api/seeds (the last `mmemu reproduce`), GET
 * /api/exercises (scenarios/teaching/exercises/).
 *
 * Design: modules and workloads come from the registries with their parameter
 * tables (mm_params_json(), the rows `mmemu list --params` prints); the shipped
 * scenarios are the *.json files of the folders `mmemu list` names, each with
 * its kernels, its sweep and the parameters the what-if lab offers (its sweep
 * keys, machine.memory, machine.cpus, each kernel's reclaim module, the
 * workload's parameters).  serve_scenario_known() is the one gate by which runs.c
 * accepts a shipped scenario's name: exact membership of this list, so a client
 * cannot name any other file.
 */
#include "emu/serve/serve_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/readfile.h"
#include "emu/engine/engine.h"
#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/hw/machine.h"
#include "models/mm/kernel.h"
#include "models/reclaim/reclaim.h"
#include "workloads/workload.h"

static const char *const scenario_dirs[] = { "scenarios/teaching", "scenarios/seeds",
					     "scenarios/capacity", NULL };

static json_t *module(const char *name, const char *desc, const struct mm_param *params)
{
	return json_pack("{s:s, s:s, s:o}", "name", name, "desc", desc ? desc : "", "params",
			 mm_params_json(params));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns: a new array of "DIR/NAME.json", sorted, of the shipped scenarios. */
static json_t *scenario_files(void)
{
	json_t *a = json_array();
	for (const char *const *d = scenario_dirs; *d; d++) {
		DIR *dir = opendir(*d);
		if (!dir)
			continue;
		char *names[512];
		int n = 0;
		struct dirent *de;
		while ((de = readdir(dir)) && n < 512) {
			size_t l = strlen(de->d_name);
			if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0 && de->d_name[0] != '.')
				names[n++] = strdup(de->d_name);
		}
		closedir(dir);
		qsort(names, (size_t)n, sizeof *names, cmp_str);
		for (int i = 0; i < n; i++) {
			char path[600];
			snprintf(path, sizeof path, "%s/%s", *d, names[i]);
			json_array_append_new(a, json_string(path));
			free(names[i]);
		}
	}
	return a;
}

int serve_scenario_known(const char *file)
{
	json_t *a = scenario_files();
	size_t i;
	json_t *v;
	int ok = 0;
	json_array_foreach(a, i, v)
		ok |= strcmp(json_string_value(v), file) == 0;
	json_decref(a);
	return ok;
}

/* One shipped scenario for the what-if lab. Returns: a new object, or NULL when
 * the file is not a JSON object. */
static json_t *scenario_entry(const char *file)
{
	json_t *root = json_load_file(file, 0, NULL);
	if (!json_is_object(root)) {
		json_decref(root);
		return NULL;
	}
	json_t *kernels = json_array(), *params = json_array();
	json_t *sweep = json_object_get(root, "sweep");
	const char *k;
	json_t *v;
	json_object_foreach(sweep, k, v)
		json_array_append_new(params, json_string(k));
	static const char *const machine_keys[] = { "machine.memory", "machine.cpus", NULL };
	for (const char *const *m = machine_keys; *m; m++)
		if (!json_object_get(sweep, *m))
			json_array_append_new(params, json_string(*m));
	json_object_foreach(json_object_get(root, "kernels"), k, v) {
		char key[300];
		json_array_append_new(kernels, json_string(k));
		snprintf(key, sizeof key, "kernels.%s.reclaim", k);
		json_array_append_new(params, json_string(key));
	}
	json_t *w = json_object_get(root, "workload");
	const char *wt = json_string_value(json_object_get(w, "type"));
	const struct workload_ops *wo = wt ? workload_find(wt) : NULL;
	for (const struct mm_param *p = wo ? wo->params : NULL; p && p->key; p++) {
		char key[300];
		snprintf(key, sizeof key, "workload.%s", p->key);
		if (!json_object_get(sweep, key))
			json_array_append_new(params, json_string(key));
	}
	const char *name = json_string_value(json_object_get(root, "name"));
	const char *desc = json_string_value(json_object_get(root, "description"));
	json_t *runs = json_object_get(root, "runs");
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:O, s:I, s:o}", "file", file, "name",
			      name ? name : file, "description", desc ? desc : "", "workload", wt ? wt : "",
			      "kernels", kernels, "sweep", sweep ? sweep : json_null(), "runs",
			      json_is_integer(runs) ? json_integer_value(runs) : (json_int_t)1, "params", params);
	if (o && wo)
		json_object_set_new(o, "primary", json_pack("{s:s, s:s, s:b}", "name", wo->primary,
							     "unit", wo->unit, "higher_is_better",
							     wo->higher_is_better));
	json_decref(root);
	return o;
}

void api_list(struct serve *s, struct serve_reply *r)
{
	json_t *o = json_object(), *a;
	a = json_array();
	for (const struct alloc_ops *const *m = alloc_modules(); *m; m++)
		json_array_append_new(a, module((*m)->name, (*m)->desc, (*m)->params));
	json_object_set_new(o, "alloc", a);
	a = json_array();
	for (const struct reclaim_ops *const *m = reclaim_modules(); *m; m++) {
		json_t *x = module((*m)->name, (*m)->desc, (*m)->params);
		json_object_set_new(x, "replay", json_boolean(reclaim_has_frames(*m)));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "reclaim", a);
	a = json_array();
	for (const struct kmap_ops *const *m = kmap_modules(); *m; m++)
		json_array_append_new(a, module((*m)->name, (*m)->desc, (*m)->params));
	json_object_set_new(o, "kmap", a);
	a = json_array();
	for (const struct coloring_ops *const *m = coloring_modules(); *m; m++)
		json_array_append_new(a, module((*m)->name, (*m)->desc, (*m)->params));
	json_object_set_new(o, "coloring", a);
	a = json_array();
	for (const struct workload_ops *const *m = workload_modules(); *m; m++) {
		json_t *x = module((*m)->name, (*m)->desc, (*m)->params);
		json_object_set_new(x, "primary", json_string((*m)->primary));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "workloads", a);
	json_object_set_new(o, "machine", mm_params_json(machine_params));
	json_object_set_new(o, "kernel_vm", mm_params_json(mm_kernel_params));
	json_object_set_new(o, "engine", mm_params_json(engine_params));
	json_t *files = scenario_files(), *sc = json_array();
	size_t i;
	json_t *f;
	json_array_foreach(files, i, f) {
		json_t *e = scenario_entry(json_string_value(f));
		if (e)
			json_array_append_new(sc, e);
	}
	json_decref(files);
	json_object_set_new(o, "scenarios", sc);
	reply_json(r, 200, o);
	(void)s;
}

void api_seeds(struct serve *s, struct serve_reply *r)
{
	json_error_t je;
	json_t *d = json_load_file(s->cfg.reproduce, 0, &je);
	if (!d) {
		reply_error(r, 404, "%s: no reproduce results yet (run mmemu reproduce, or sh .ci/quickstart "
			    "main)", s->cfg.reproduce);
		return;
	}
	reply_json(r, 200, d);
}

#define EXERCISE_DIR "scenarios/teaching/exercises"

void api_exercises(struct serve *s, struct serve_reply *r)
{
	json_t *a = json_array();
	DIR *dir = opendir(EXERCISE_DIR);
	char *names[256];
	int n = 0;
	struct dirent *de;
	while (dir && (de = readdir(dir)) && n < 256) {
		size_t l = strlen(de->d_name);
		if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0 && de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	}
	if (dir)
		closedir(dir);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	for (int i = 0; i < n; i++) {
		char path[600];
		snprintf(path, sizeof path, "%s/%s", EXERCISE_DIR, names[i]);
		json_t *x = json_load_file(path, 0, NULL);
		if (json_is_object(x)) {
			json_object_set_new(x, "file", json_string(path));
			json_array_append(a, x);
		}
		json_decref(x);
		free(names[i]);
	}
	reply_json(r, 200, json_pack("{s:o}", "exercises", a));
	(void)s;
}
