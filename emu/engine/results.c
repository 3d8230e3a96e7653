/*
 * results.c - building and atomically writing results files (see results.h).
 */
#include "emu/engine/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/core/output.h"
#include "emu/core/version.h"

json_t *results_new(const struct scenario *sc)
{
	json_t *r = json_object();
	json_object_set_new(r, "format", json_string(RESULTS_FORMAT));
	json_object_set_new(r, "tool", json_pack("{s:s,s:s}", "name", "mmemu", "version", MMEMU_VERSION));
	const char *base = strrchr(sc->file, '/');
	json_object_set_new(r, "scenario",
			    json_pack("{s:s,s:s,s:s,s:I,s:I}", "name", sc->name, "file",
				      base ? base + 1 : sc->file, "hash", sc->hash, "runs",
				      (json_int_t)sc->runs, "seed", (json_int_t)sc->seed));
	json_t *sweep = json_object_get(sc->root, "sweep");
	json_object_set_new(r, "sweep", sweep ? json_deep_copy(sweep) : json_object());
	json_object_set_new(r, "runs", json_array());
	json_object_set_new(r, "host", json_pack("{s:f,s:[]}", "wall_seconds", 0.0, "runs"));
	return r;
}

/* One entry of the runs array: the run @ss with the results @simres (taken). */
static void add_entry(json_t *res, const struct scenario_sim *ss, json_t *point, int point_index,
		      json_t *simres)
{
	json_t *run = json_object();
	json_object_set_new(run, "kernel", json_string(ss->kernel));
	json_object_set_new(run, "point", point);
	json_object_set_new(run, "point_index", json_integer(point_index));
	json_object_set_new(run, "run", json_integer(ss->run));
	json_object_set(run, "seed", json_object_get(ss->spec, "seed"));
	json_object_update(run, simres);
	json_decref(simres);
	json_array_append_new(json_object_get(res, "runs"), run);
}

void results_add_run(json_t *res, const struct scenario_sim *ss, json_t *simres, double wall)
{
	json_t *steps = json_object_get(simres, "steps");
	if (json_is_array(steps) && json_array_size(steps) > 0) {
		/* a chained run: one entry per step, its point the sweep point and the
		 * keys every step sets, "chain" naming its place on the one boot */
		json_t *total = json_object_get(simres, "chain_steps");
		size_t n = json_is_integer(total) ? (size_t)json_integer_value(total) : json_array_size(steps), i;
		json_t *st;
		json_array_foreach(steps, i, st) {
			json_t *point = json_deep_copy(ss->point);
			json_object_update(point, json_object_get(st, "point"));
			json_t *e = json_deep_copy(simres);
			json_object_del(e, "steps");
			json_object_del(e, "chain_steps");
			json_t *one = json_deep_copy(st);
			json_t *params = json_object_get(e, "params");
			if (json_is_object(params))
				json_object_set(params, "workload", json_object_get(one, "workload"));
			json_object_set_new(e, "chain",
					    json_pack("{s:I,s:I,s:O}", "step", (json_int_t)i, "steps",
						      (json_int_t)n, "sim_time", json_object_get(one, "sim_time")));
			static const char *const keys[] = { "primary", "metrics", "vmstat", "series", NULL };
			for (int k = 0; keys[k]; k++)
				json_object_set(e, keys[k], json_object_get(one, keys[k]));
			json_decref(one);
			add_entry(res, ss, point, ss->point_index * (int)n + (int)i, e);
		}
		json_decref(simres);
	} else {
		add_entry(res, ss, json_deep_copy(ss->point), ss->point_index, simres);
	}

	json_t *host = json_object_get(res, "host");
	double total = json_real_value(json_object_get(host, "wall_seconds")) + wall;
	json_object_set_new(host, "wall_seconds", json_real(total));
	json_array_append_new(json_object_get(host, "runs"), json_real(wall));
}

int results_write(json_t *res, const char *path, struct mm_err *e)
{
	char *text = json_dumps(res, results_dump_flags());
	if (!text)
		return mm_errf(e, path, NULL, "cannot write results: out of memory");
	size_t n = strlen(text);
	char *nl = realloc(text, n + 2);
	if (!nl) {
		free(text);
		return mm_errf(e, path, NULL, "cannot write results: out of memory");
	}
	nl[n] = '\n';
	nl[n + 1] = '\0';
	int rc = out_write_text(path, nl, e);
	free(nl);
	return rc;
}
