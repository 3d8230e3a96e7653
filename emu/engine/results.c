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

void results_add_run(json_t *res, const struct scenario_sim *ss, json_t *simres, double wall)
{
	json_t *run = json_object();
	json_object_set_new(run, "kernel", json_string(ss->kernel));
	json_object_set_new(run, "point", json_deep_copy(ss->point));
	json_object_set_new(run, "point_index", json_integer(ss->point_index));
	json_object_set_new(run, "run", json_integer(ss->run));
	json_object_set(run, "seed", json_object_get(ss->spec, "seed"));
	json_object_update(run, simres);
	json_decref(simres);
	json_array_append_new(json_object_get(res, "runs"), run);

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
