/*
 * test_malformed.c - the malformed-input corpus tests/malformed (docs/fuzzing.md)
 * through the command line, walked generically.
 *
 * tests/malformed/expect.json names every file of the corpus with the PATH its
 * one-line error must point to (a JSON path, "line N", or "" for an error about
 * the whole file) and a substring MSG of what the error says; a trace also has
 * its layout (format, obj_id_col).  The files and expect.json are written by
 * tests/fuzz/gen_malformed.py and committed; a file without an entry, or an entry
 * without a file, fails the test.  The contract checked for each (README.md,
 * docs/scenario.md "Errors"): exit 2, nothing on stdout, exactly one line on
 * stderr starting with the file and PATH, and no results file left behind:
 *
 *   scenario/  `mmemu run -o OUT FILE`: "mmemu: FILE: PATH: ...MSG..." (`validate`
 *              loads a scenario as `run` does; test_cli checks both on tests/bad)
 *   trace/     `mmemu replay --trace FILE --format F [--obj-id-col N]`:
 *              "FILE: PATH: ...MSG...", and `mmemu run -o OUT` of a scenario whose
 *              trace workload reads it: "mmemu: SCN: workload.file: FILE: PATH: ..."
 *   workfile/  `mmemu run -o OUT` of a scenario whose reaim workload reads it:
 *              "mmemu: SCN: workload.workfile: FILE: PATH: ...MSG..."
 *   loadfile/  `mmemu run -o OUT` of a scenario whose dbench workload reads it:
 *              "mmemu: SCN: workload.loadfile: FILE: PATH: ...MSG..."
 * The scenarios that read a trace, a workfile or a loadfile are written to the scratch
 * directory and name the file by its absolute path.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/clitest.h"

#define CORPUS "tests/malformed"

struct entry {
	char file[300];        /* under CORPUS, e.g. "trace/csv-letters.csv" */
	const char *path;      /* in the manifest, which lives as long as the test */
	const char *msg;
	const char *format;    /* traces */
	int obj_id_col;
};

static json_t *manifest;
static char srcdir[1024];

/* The command's result, checked against the contract: exit 2, empty stdout, one
 * line on stderr starting with @head and holding @msg after it. */
static void check(const char *what, int rc, const char *head, const char *msg)
{
	char *out = slurp("out"), *err = slurp("err");
	size_t n = strlen(err), hl = strlen(head);
	if (rc != 2 || out[0] || n == 0 || strchr(err, '\n') != err + n - 1 ||
	    strncmp(err, head, hl) != 0 || !strstr(err + hl, msg))
		fail_msg("%s: exit %d (want 2)\n  stdout: %s\n  stderr: %s  want:   %s...%s", what, rc,
			 out, err, head, msg);
	free(out);
	free(err);
}

/* "PREFIX: PATH: " (PATH may be empty: "PREFIX: "). */
static void head_of(char *buf, size_t len, const char *prefix, const char *path)
{
	snprintf(buf, len, "%s: %s%s", prefix, path, *path ? ": " : "");
}

/* `mmemu run -o` of scenario @scn: the contract, and no results file. */
static void run_refused(const char *scn, const char *head, const char *msg)
{
	char out[400];
	snprintf(out, sizeof out, "%s/results/r.json", dir);
	int rc = sh("run -o %s %s", out, scn);
	check(scn, rc, head, msg);
	struct stat st;
	snprintf(out, sizeof out, "%s/results", dir);
	if (stat(out, &st) == 0) {
		char rm[500];   /* remove it first, so that one failure does not fail the rest */
		snprintf(rm, sizeof rm, "rm -rf '%s'", out);
		if (system(rm) != 0)
			fail_msg("cannot remove %s", out);
		fail_msg("run %s: left %s behind", scn, out);
	}
}

/* Write a scenario whose workload (@type: trace, reaim or dbench) reads @abs;
 * Returns: its path. */
static const char *wrapper(const char *type, const char *abs, const struct entry *c)
{
	static char scn[300];
	json_t *w = strcmp(type, "trace") == 0
		? json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "trace", "file", abs, "format",
			    c->format, "obj_id_col", c->obj_id_col, "frames", 4)
		: strcmp(type, "reaim") == 0
		? json_pack("{s:s, s:s, s:s, s:i}", "type", "reaim", "workfile", abs, "mode", "fixed",
			    "users", 2)
		: json_pack("{s:s, s:s, s:i}", "type", "dbench", "loadfile", abs, "clients", 1);
	json_t *s = json_pack("{s:s, s:{s:s, s:i, s:s, s:[{s:s, s:s, s:s}]}, s:{s:{s:s}}, s:o}",
			      "name", "malformed",
			      "machine", "arch", "flat", "cpus", 1, "memory", "64MiB", "disks",
			      "name", "sda", "read", "60MB/s", "write", "50MB/s",
			      "kernels", "k", "reclaim", strcmp(type, "trace") == 0 ? "lru" : "lru2q",
			      "workload", w);
	assert_non_null(s);
	snprintf(scn, sizeof scn, "%s/%s.json", dir, type);
	assert_int_equal(json_dump_file(s, scn, JSON_INDENT(2)), 0);
	json_decref(s);
	return scn;
}

static void malformed(void **state)
{
	const struct entry *c = *state;
	char file[320], abs[1400], inner[1500], head[2000];
	snprintf(file, sizeof file, "%s/%s", CORPUS, c->file);
	struct stat st;
	if (stat(file, &st) != 0)
		fail_msg("%s is in expect.json but does not exist", file);

	if (strncmp(c->file, "scenario/", 9) == 0) {
		char prefix[340];
		snprintf(prefix, sizeof prefix, "mmemu: %s", file);
		head_of(head, sizeof head, prefix, c->path);
		run_refused(file, head, c->msg);   /* validate loads as run does (test_cli) */
		return;
	}
	const char *type = strncmp(c->file, "trace/", 6) == 0 ? "trace"
			 : strncmp(c->file, "loadfile/", 9) == 0 ? "dbench" : "reaim";
	if (strcmp(type, "trace") == 0) {
		char col[32] = "";
		if (c->obj_id_col)
			snprintf(col, sizeof col, " --obj-id-col %d", c->obj_id_col);
		head_of(head, sizeof head, file, c->path);
		check(file, sh("replay --policy lru --frames 4 --trace %s --format %s%s", file,
			       c->format, col), head, c->msg);
	}
	snprintf(abs, sizeof abs, "%s/%s", srcdir, file);
	const char *scn = wrapper(type, abs, c);
	head_of(inner, sizeof inner, abs, c->path);
	snprintf(head, sizeof head, "mmemu: %s: workload.%s: %s", scn,
		 strcmp(type, "trace") == 0 ? "file" : strcmp(type, "reaim") == 0 ? "workfile" : "loadfile",
		 inner);
	run_refused(scn, head, c->msg);
}

/* Every file of the corpus has an entry (the entries' files are checked by each test). */
static void manifest_covers_corpus(void **state)
{
	static const char *const sub[] = { "scenario", "trace", "workfile", "loadfile" };
	size_t files = 0;
	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char d[64], key[400];
		snprintf(d, sizeof d, "%s/%s", CORPUS, sub[i]);
		DIR *dp = opendir(d);
		assert_non_null(dp);
		struct dirent *de;
		while ((de = readdir(dp)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(key, sizeof key, "%s/%s", sub[i], de->d_name);
			if (!json_object_get(manifest, key))
				fail_msg("%s/%s has no entry in expect.json", CORPUS, key);
			files++;
		}
		closedir(dp);
	}
	assert_int_equal(files, json_object_size(manifest));
	assert_true(files >= 200);
}

int main(void)
{
	json_error_t je;
	manifest = json_load_file(CORPUS "/expect.json", JSON_REJECT_DUPLICATES, &je);
	if (!manifest || !getcwd(srcdir, sizeof srcdir) || scratch_dir("malformed")) {
		fprintf(stderr, "test_malformed: %s/expect.json: line %d: %s (run from the source root)\n",
			CORPUS, je.line, je.text);
		return 1;
	}
	size_t n = json_object_size(manifest), i = 0;
	struct entry *cases = calloc(n, sizeof *cases);
	struct CMUnitTest *tests = calloc(n, sizeof *tests);
	assert_true(cases && tests);
	const char *key;
	json_t *v;
	json_object_foreach(manifest, key, v) {
		struct entry *c = &cases[i];
		snprintf(c->file, sizeof c->file, "%s", key);
		c->path = json_string_value(json_object_get(v, "path"));
		c->msg = json_string_value(json_object_get(v, "msg"));
		c->format = json_string_value(json_object_get(v, "format"));
		c->obj_id_col = (int)json_integer_value(json_object_get(v, "obj_id_col"));
		if (!c->path || !c->msg || (strncmp(key, "trace/", 6) == 0 && !c->format)) {
			fprintf(stderr, "test_malformed: expect.json: %s: expected path, msg (and format)\n", key);
			return 1;
		}
		struct CMUnitTest t = cmocka_unit_test_prestate(malformed, c);
		t.name = c->file;
		tests[i++] = t;
	}
	const struct CMUnitTest other[] = { cmocka_unit_test(manifest_covers_corpus) };
	int failed = cmocka_run_group_tests_name("malformed corpus", other, NULL, NULL);
	failed += _cmocka_run_group_tests("malformed inputs", tests, n, NULL, teardown);
	free(tests);
	free(cases);
	json_decref(manifest);
	return failed ? 1 : 0;
}
