/*
 * test_reproduce.c - `mmemu reproduce`'s verdicts on crafted published/emulated
 * pairs (black box).
 *
 * Design: a crafted results file has two kernels over a published axis
 * (workload.n = 1, 2, 3) and an extra axis the publication lacks
 * (workload.pattern = "a", "b"), so reproduce must print two emulated tables and
 * judge every claim in each.  The values are chosen so that each claim kind
 * (direction, shape, value, relative, series-varies) is reproduced in one group
 * and not in the other (or in neither, where stated); unknown kinds and claims
 * about missing kernels or series are "not checked".  Then: a real run into a
 * private runs directory, seeds without a scenario, seed selection, and usage
 * errors (exit 2, one line on stderr).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

static char dir[256];

static int sh(const char *fmt, ...)
{
	char cmd[4096], full[5000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	snprintf(full, sizeof full, "\"$MMEMU\" %s >%s/out 2>%s/err", cmd, dir, dir);
	int st = system(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return strdup("");
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_text(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char published[] =
	"{ \"seed\": \"900\", \"title\": \"crafted\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"metric\": \"thr\", \"unit\": \"ops\", \"better\": \"higher\",\n"
	"  \"table\": { \"point_key\": \"workload.n\", \"columns\": [\"base\", \"new\"],\n"
	"    \"rows\": [ {\"point\": 1, \"values\": [100, 118]}, {\"point\": 2, \"values\": [100, 108]},\n"
	"              {\"point\": 3, \"values\": [48, 62]} ] },\n"
	"  \"claims\": [\n"
	"    {\"id\": \"dir-better\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect\": \"better\", \"points\": \"all\"},\n"
	"    {\"id\": \"dir-worse-2\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect\": \"worse\", \"points\": [2]},\n"
	"    {\"id\": \"shape-base\", \"kind\": \"shape\", \"kernel\": \"base\", \"flat_points\": [1, 2], \"flat_tolerance\": 0.05, \"drop_point\": 3, \"drop_at_least\": 0.4},\n"
	"    {\"id\": \"shape-new\", \"kind\": \"shape\", \"kernel\": \"new\", \"flat_points\": [1, 2], \"flat_tolerance\": 0.05, \"drop_point\": 3, \"drop_at_least\": 0.4},\n"
	"    {\"id\": \"value-base\", \"kind\": \"value\", \"metric\": \"frac\", \"expect\": {\"base\": [0.9, 1.0]}, \"points\": [2]},\n"
	"    {\"id\": \"value-new\", \"kind\": \"value\", \"metric\": \"frac\", \"expect\": {\"new\": [0.9, 1.0]}, \"points\": [2]},\n"
	"    {\"id\": \"relative\", \"kind\": \"relative\", \"metric\": \"pages\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.10, 0.15], \"points\": [1]},\n"
	"    {\"id\": \"series\", \"kind\": \"series-varies\", \"series\": \"s\", \"kernel\": \"new\"},\n"
	"    {\"id\": \"series-missing\", \"kind\": \"series-varies\", \"series\": \"nope\", \"kernel\": \"new\"},\n"
	"    {\"id\": \"ghost\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"ghost\", \"expect\": \"better\"},\n"
	"    {\"id\": \"banana\", \"kind\": \"banana\"}\n"
	"  ] }\n";

/* The emulated side: thr, frac, pages and series s per (kernel, pattern, n). */
static void write_emulated(void)
{
	const char *pat[] = { "a", "b" };
	/*                      base thr         new thr (a)       new thr (b) */
	const double base_thr[] = { 100, 100, 50 }, new_thr[2][3] = { { 120, 110, 60 }, { 120, 90, 60 } };
	json_t *runs = json_array();
	int pi = 0;
	for (int k = 0; k < 2; k++)
		for (int g = 0; g < 2; g++)
			for (int n = 1; n <= 3; n++) {
				double thr = k ? new_thr[g][n - 1] : base_thr[n - 1];
				double frac = k ? 0.5 : 0.95, pages = k ? (g ? 1300 : 1120) : 1000;
				json_t *sv = k && g == 0 ? json_pack("[i,i,i]", 1, 2, 3) : json_pack("[i,i,i]", 1, 1, 1);
				json_array_append_new(
					runs, json_pack("{s:s,s:{s:s,s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{s:f,s:f},"
							"s:{},s:{s:{s:[f,f,f],s:o}},s:f}",
							"kernel", k ? "new" : "base", "point", "workload.pattern", pat[g],
							"workload.n", n, "point_index", pi++ % 6, "run", 0, "seed", 1,
							"primary", "name", "thr", "value", thr, "unit", "ops", "better",
							"higher", "metrics", "frac", frac, "pages", pages, "vmstat",
							"series", "s", "t", 1.0, 2.0, 3.0, "v", sv, "sim_time", 3.0));
			}
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[s,s],s:[i,i,i]},s:o,s:{s:f,s:[]}}",
			      "format", "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario",
			      "name", "crafted", "file", "trace-policies.json", "hash", "0", "runs", 1, "seed", 1,
			      "sweep", "workload.pattern", "a", "b", "workload.n", 1, 2, 3, "runs", runs, "host",
			      "wall_seconds", 0.0, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/runs/trace-policies.json", dir);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static json_t *load_reproduce(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/reproduce.json", dir);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	return d;
}

static const char *verdict(json_t *table, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(table, "claims"), i, c) if (!strcmp(json_string_value(json_object_get(c, "id")), id)) return json_string_value(json_object_get(c, "verdict"));
	return "(missing)";
}

static void verdicts(void **state)
{
	write_text("pub/900.json", published);
	write_text("pub/901.json", "{ \"seed\": \"901\", \"title\": \"later\", \"scenario\": \"scenarios/seeds/not-there.json\","
				   " \"metric\": \"m\", \"table\": { \"point_key\": \"k\", \"columns\": [\"x\"], \"rows\": [] },"
				   " \"claims\": [] }\n");
	/* the several-tables form: shown, its claims not checked (not an error) */
	write_text("pub/902.json", "{ \"seed\": \"902\", \"title\": \"tables\", \"scenario\": \"scenarios/teaching/trace-policies.json\","
				   " \"tables\": [ { \"id\": \"t\", \"metric\": \"thr\", \"rows\": [ { \"test\": \"peak\","
				   " \"values\": { \"base\": 1.5, \"new\": 2 } } ] } ],"
				   " \"claims\": [ { \"id\": \"f\", \"kind\": \"flat\", \"table\": \"t\" } ] }\n");
	write_emulated();
	assert_int_equal(sh("reproduce --no-run --published %s/pub --runs %s/runs --out %s", dir, dir, dir), 0);
	json_t *d = load_reproduce();
	json_t *seeds = json_object_get(d, "seeds");
	assert_int_equal(json_array_size(seeds), 3);
	json_t *s2 = json_array_get(seeds, 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(s2, "claims"), 0), "verdict")),
			    "not checked");
	char *o2 = slurp("out");
	assert_non_null(strstr(o2, "\"peak\": {\"base\":1.5,\"new\":2}"));
	free(o2);
	json_t *s0 = json_array_get(seeds, 0), *s1 = json_array_get(seeds, 1);
	assert_string_equal(json_string_value(json_object_get(s1, "status")), "not yet modelled");
	assert_non_null(json_object_get(s0, "note"));   /* the results' hash is not the scenario's */
	json_t *tables = json_object_get(s0, "tables");
	assert_int_equal(json_array_size(tables), 2);
	json_t *a = json_array_get(tables, 0), *b = json_array_get(tables, 1);
	assert_string_equal(json_string_value(json_object_get(a, "label")), "pattern=\"a\"");
	assert_string_equal(json_string_value(json_object_get(b, "label")), "pattern=\"b\"");
	struct { const char *id, *a, *b; } want[] = {
		{ "dir-better", "reproduced", "not reproduced" },
		{ "dir-worse-2", "not reproduced", "reproduced" },
		{ "shape-base", "reproduced", "reproduced" },
		{ "shape-new", "not reproduced", "not reproduced" },
		{ "value-base", "reproduced", "reproduced" },
		{ "value-new", "not reproduced", "not reproduced" },
		{ "relative", "reproduced", "not reproduced" },
		{ "series", "reproduced", "not reproduced" },
		{ "series-missing", "not checked", "not checked" },
		{ "ghost", "not checked", "not checked" },
		{ "banana", "not checked", "not checked" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (strcmp(verdict(a, want[i].id), want[i].a) || strcmp(verdict(b, want[i].id), want[i].b))
			fail_msg("%s: got %s / %s, want %s / %s", want[i].id, verdict(a, want[i].id),
				 verdict(b, want[i].id), want[i].a, want[i].b);
	}
	/* relative errors per cell: base at n = 3 is 50 emulated vs 48 published */
	json_t *cell = json_array_get(json_object_get(json_array_get(json_object_get(a, "rows"), 2), "cells"), 0);
	assert_true(fabs(json_number_value(json_object_get(cell, "rel_err")) - (50.0 / 48 - 1)) < 1e-12);
	json_t *sm = json_object_get(s0, "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 8);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 8);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 6);
	json_decref(d);
	/* the text report and the markdown file */
	char *out = slurp("out"), *md = slurp("reproduce.md");
	assert_non_null(strstr(out, "[not reproduced] dir-better"));
	assert_non_null(strstr(out, "emulated with pattern=\"b\""));
	assert_non_null(strstr(out, "not yet modelled"));
	assert_non_null(strstr(md, "## Seed 900: crafted"));
	assert_non_null(strstr(md, "| workload.n |"));
	free(out);
	free(md);
	/* one seed only */
	assert_int_equal(sh("reproduce 901 --no-run --published %s/pub --runs %s/runs --out %s", dir, dir, dir), 0);
	d = load_reproduce();
	assert_int_equal(json_array_size(json_object_get(d, "seeds")), 1);
	json_decref(d);
}

static void real_run(void **state)
{
	write_text("pub2/000.json",
		   "{ \"seed\": \"000\", \"title\": \"teaching\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
		   "  \"metric\": \"runtime\", \"unit\": \"s\", \"better\": \"lower\",\n"
		   "  \"table\": { \"point_key\": \"workload.frames\", \"columns\": [\"fifo\", \"opt\"],\n"
		   "    \"rows\": [ {\"point\": 250, \"values\": [70, 45]}, {\"point\": 2000, \"values\": [33, 27]} ] },\n"
		   "  \"claims\": [ {\"id\": \"opt-faster\", \"kind\": \"direction\", \"baseline\": \"fifo\", \"kernel\": \"opt\","
		   " \"expect\": \"better\"} ] }\n");
	assert_int_equal(sh("reproduce 0 -j 2 -q --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	char *out = slurp("out");
	assert_string_equal(out, "");
	free(out);
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/runs2/trace-policies.json", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/o2/reproduce.json", dir);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	json_t *t = json_array_get(json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "tables"), 0);
	assert_string_equal(verdict(t, "opt-faster"), "reproduced");
	json_decref(d);
}

static void usage_errors(void **state)
{
	write_text("bad/000.json", "{ \"seed\": \"000\", \"scenario\": \"x.json\", \"metric\": \"m\" }\n");
	char cmds[][700] = { "reproduce 1 2", "reproduce -j 0", "reproduce --bogus", "reproduce --published %s/nodir",
			     "reproduce 777 --no-run --published %s/pub --out %s", "reproduce --no-run --published %s/bad --out %s",
			     "reproduce --published" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char c[900];
		snprintf(c, sizeof c, cmds[i], dir, dir);
		assert_int_equal(sh("%s", c), 2);
		char *out = slurp("out"), *err = slurp("err");
		int nl = 0;
		for (char *q = err; *q; q++)
			nl += *q == '\n';
		if (*out || nl != 1)
			fail_msg("%s: stdout \"%s\" stderr \"%s\"", c, out, err);
		free(out);
		free(err);
	}
}

static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/mmemu-test-reproduce-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	const char *sub[] = { "pub", "pub2", "runs", "bad" };
	for (int i = 0; i < 4; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		if (mkdir(p, 0777))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_reproduce: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdicts),
		cmocka_unit_test(real_run),
		cmocka_unit_test(usage_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
