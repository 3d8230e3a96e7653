/*
 * results.c - building and atomically writing results files (see results.h).
 */
#include "emu/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/version.h"

size_t results_dump_flags(void)
{
	return JSON_INDENT(1) | JSON_REAL_PRECISION(12);
}

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

int mkdir_p(const char *dir)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

int results_write(json_t *res, const char *path, struct mm_err *e)
{
	char dir[1024], tmp[1100];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		if (*dir && mkdir_p(dir))
			return mm_errf(e, path, NULL, "cannot create directory %s: %s", dir, strerror(errno));
	}
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	if (json_dump_file(res, tmp, results_dump_flags())) {
		unlink(tmp);
		return mm_errf(e, path, NULL, "cannot write results");
	}
	FILE *f = fopen(tmp, "a");
	if (f) {
		fputc('\n', f);
		fclose(f);
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		return mm_errf(e, path, NULL, "cannot rename results into place: %s", strerror(errno));
	}
	return 0;
}
