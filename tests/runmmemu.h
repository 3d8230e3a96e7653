/*
 * runmmemu.h - shared by the tests that run a whole scenario through the built
 * binary and read one run's metrics back (test_kernbench.c, test_reaim.c):
 * `$MMEMU run`, its results, a metric of the first run, and a tolerance compare.
 */
#ifndef MMEMU_RUNMMEMU_H
#define MMEMU_RUNMMEMU_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

/* Run `$MMEMU run -q -o @out @scn`. Returns: the exit status, or -1. */
static int run_mmemu(const char *scn, const char *out)
{
	const char *mmemu = getenv("MMEMU");
	if (!mmemu || !*mmemu)
		fail_msg("MMEMU is not set (run through `meson test`)");
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			close(fd);
		}
		execl(mmemu, mmemu, "run", "-q", "-o", out, scn, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run the scenario file @scn (removed afterwards) and return its results document
 * (caller decrefs), checking that it made @nruns runs. */
static json_t *run_results(const char *scn, size_t nruns)
{
	char out[256];
	snprintf(out, sizeof out, "%s.out.json", scn);
	int rc = run_mmemu(scn, out);
	unlink(scn);
	assert_int_equal(rc, 0);
	json_error_t je;
	json_t *r = json_load_file(out, 0, &je);
	unlink(out);
	assert_non_null(r);
	assert_int_equal(json_array_size(json_object_get(r, "runs")), nruns);
	return r;
}

/* Returns: the number @name in the first run's @section ("metrics", "vmstat");
 * fails the test when it is missing. */
static inline double run0_number(json_t *r, const char *section, const char *name)
{
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), section);
	json_t *v = json_object_get(m, name);
	if (!json_is_number(v))
		fail_msg("%s %s missing", section, name);
	return json_number_value(v);
}

/* Returns: a metric of the first run. */
static inline double metric(json_t *r, const char *name)
{
	return run0_number(r, "metrics", name);
}

/* Returns: a metric of the first run, or @dflt when it has none. */
static inline double metric_or(json_t *r, const char *name, double dflt)
{
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	json_t *v = json_object_get(m, name);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* The sum of the first run's metrics whose names start with @prefix. */
static inline double metric_sum(json_t *r, const char *prefix)
{
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	const char *k;
	json_t *v;
	double sum = 0;
	json_object_foreach(m, k, v)
		if (strncmp(k, prefix, strlen(prefix)) == 0 && json_is_number(v))
			sum += json_number_value(v);
	return sum;
}

/* Returns: a vmstat counter of the first run. */
static inline double vmstat(json_t *r, const char *name)
{
	return run0_number(r, "vmstat", name);
}

/* |a - b| <= eps (older cmocka has no assert_double_equal) */
static void near(double a, double b, double eps)
{
	if (!(a - b <= eps && b - a <= eps))
		fail_msg("%.17g != %.17g (eps %g)", a, b, eps);
}

/* Assert that results @a and @b are identical apart from their host sections
 * (determinism); decrefs both. */
static inline void assert_same_results(json_t *a, json_t *b)
{
	json_object_del(a, "host");
	json_object_del(b, "host");
	char *da = json_dumps(a, JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	char *db = json_dumps(b, JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	assert_non_null(da);
	assert_non_null(db);
	assert_string_equal(da, db);
	free(da);
	free(db);
	json_decref(a);
	json_decref(b);
}

/* Run `$MMEMU run` on the bad scenario @scn (removed afterwards) and assert exit
 * 2, nothing on stdout, and one line on stderr naming @scn and @want (the JSON
 * path). */
static inline void assert_bad_scenario(const char *scn, const char *want)
{
	char out[256], err[256];
	snprintf(out, sizeof out, "%s.stdout", scn);
	snprintf(err, sizeof err, "%s.stderr", scn);
	const char *mmemu = getenv("MMEMU");
	assert_non_null(mmemu);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fo < 0 || fe < 0)
			_exit(127);
		dup2(fo, 1);
		dup2(fe, 2);
		execl(mmemu, mmemu, "run", "-q", "-o", "/dev/null", scn, (char *)NULL);
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	char buf[1024] = "";
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 0);
	fclose(f);
	f = fopen(err, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	unlink(scn);
	unlink(out);
	unlink(err);
	char *nl = strchr(buf, '\n');
	if (!nl || nl[1] != 0)
		fail_msg("expected one line on stderr, got: %s", buf);
	if (!strstr(buf, scn) || !strstr(buf, want))
		fail_msg("expected %s and %s in: %s", scn, want, buf);
}

#endif
