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
 * about missing kernels or series are "not checked".  The several-tables form
 * (seed 001's) gets its own crafted pair: relative, flat and difference claims on
 * rows with a sweep point, reproduced and not, and rows without one (not
 * checked); tables' "report_metrics" (emulated means per row and column) and
 * "what_if" claims (counted apart), and bad values of both.  Run-to-run noise: a crafted pair with four runs per kernel where
 * one published difference lies inside the emulated noise (and the emulated
 * kernels differ significantly), one outside (and they do not), and a point with
 * a single run that cannot be judged; verdicts are unchanged by it, and a bad
 * "published_runs" is a usage error.  Then: a real run into a
 * private runs directory; a seed whose "scenario" is an array of two small
 * scenarios written by the test (both run, their runs merged into one seed whose
 * claims on either part are judged) and bad "scenario" values; seeds without a
 * scenario, seed selection, and usage errors (exit 2, one line on stderr).
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

#include "tests/clitest.h"

static void write_text(const char *name, const char *text)
{
	char path[512];
	int n = snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_true(n > 0 && (size_t)n < sizeof path);
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
	"    {\"id\": \"rel-list-any\", \"kind\": \"relative\", \"metric\": \"pages\", \"baseline\": \"base\", \"kernel\": [\"base\", \"new\"], \"expect_range\": [0.10, 0.15], \"points\": [1], \"any\": true},\n"
	"    {\"id\": \"rel-list-every\", \"kind\": \"relative\", \"metric\": \"pages\", \"baseline\": \"base\", \"kernel\": [\"base\", \"new\"], \"expect_range\": [-0.01, 0.15], \"points\": [1]},\n"
	"    {\"id\": \"rel-list-bad\", \"kind\": \"relative\", \"metric\": \"pages\", \"baseline\": \"base\", \"kernel\": [\"new\", 3], \"expect_range\": [0.10, 0.15], \"points\": [1]},\n"
	"    {\"id\": \"series\", \"kind\": \"series-varies\", \"series\": \"s\", \"kernel\": \"new\"},\n"
	"    {\"id\": \"series-missing\", \"kind\": \"series-varies\", \"series\": \"nope\", \"kernel\": \"new\"},\n"
	"    {\"id\": \"ghost\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"ghost\", \"expect\": \"better\"},\n"
	"    {\"id\": \"banana\", \"kind\": \"banana\"}\n"
	"  ] }\n";

/* The emulated side: thr, frac, pages and series s per (kernel, pattern, n), two
 * identical runs each (no spread: every interval is a point, so the verdicts are
 * those of the means). */
static void write_emulated(void)
{
	const char *pat[] = { "a", "b" };
	/*                      base thr         new thr (a)       new thr (b) */
	const double base_thr[] = { 100, 100, 50 }, new_thr[2][3] = { { 120, 110, 60 }, { 120, 90, 60 } };
	json_t *runs = json_array();
	int pi = 0;
	for (int k = 0; k < 2; k++)
		for (int g = 0; g < 2; g++)
			for (int n = 1; n <= 3; n++)
				for (int run = 0; run < 2; run++) {
				double thr = k ? new_thr[g][n - 1] : base_thr[n - 1];
				double frac = k ? 0.5 : 0.95, pages = k ? (g ? 1300 : 1120) : 1000;
				json_t *sv = k && g == 0 ? json_pack("[i,i,i]", 1, 2, 3) : json_pack("[i,i,i]", 1, 1, 1);
				json_array_append_new(
					runs, json_pack("{s:s,s:{s:s,s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{s:f,s:f},"
							"s:{},s:{s:{s:[f,f,f],s:o}},s:f}",
							"kernel", k ? "new" : "base", "point", "workload.pattern", pat[g],
							"workload.n", n, "point_index", pi++ / 2 % 6, "run", run, "seed", 1,
							"primary", "name", "thr", "value", thr, "unit", "ops", "better",
							"higher", "metrics", "frac", frac, "pages", pages, "vmstat",
							"series", "s", "t", 1.0, 2.0, 3.0, "v", sv, "sim_time", 3.0));
				}
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[s,s],s:[i,i,i]},s:o,s:{s:f,s:[]}}",
			      "format", "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario",
			      "name", "crafted", "file", "trace-policies.json", "hash", "0", "runs", 2, "seed", 1,
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
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub --runs %s/runs --out %s", dir, dir, dir), 0);
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
		/* a list of kernels: with "any" one inside the range (new +12%, not base
		 * +0%) reproduces it; without, every one must be (new +30% in b is not) */
		{ "rel-list-any", "reproduced", "not reproduced" },
		{ "rel-list-every", "reproduced", "not reproduced" },
		{ "rel-list-bad", "not checked", "not checked" },
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
	/* each listed kernel is judged, named in the detail and in its cell */
	json_t *cl = NULL;
	size_t ci;
	json_array_foreach(json_object_get(a, "claims"), ci, cl) if (!strcmp(json_string_value(json_object_get(cl, "id")), "rel-list-any")) break;
	assert_non_null(cl);
	const char *dt = json_string_value(json_object_get(cl, "detail"));
	assert_non_null(strstr(dt, "1: base/base - 1 = +0.0%"));
	assert_non_null(strstr(dt, "; 1: new/base - 1 = +12.0%"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(cl, "cells"), 1), "kernel")), "new");
	/* relative errors per cell: base at n = 3 is 50 emulated vs 48 published */
	json_t *cell = json_array_get(json_object_get(json_array_get(json_object_get(a, "rows"), 2), "cells"), 0);
	assert_true(fabs(json_number_value(json_object_get(cell, "rel_err")) - (50.0 / 48 - 1)) < 1e-12);
	json_t *sm = json_object_get(s0, "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 10);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 10);
	assert_int_equal(json_integer_value(json_object_get(sm, "inconclusive")), 0);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 8);
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
	assert_int_equal(sh("reproduce 901 -v --no-run --published %s/pub --runs %s/runs --out %s", dir, dir, dir), 0);
	d = load_reproduce();
	assert_int_equal(json_array_size(json_object_get(d, "seeds")), 1);
	json_decref(d);
}

/* The several-tables form: rows that name a sweep point in "point" are judged
 * (relative, flat, difference), through kernel_map; a row without one is not
 * checked.  Emulated: kernels base-k and new-k, workload.n = 1, 2, 3, two runs
 * each; primary "elapsed" (published as elapsed_s), metric sys_s. */
static const char tables_published[] =
	"{ \"seed\": \"903\", \"title\": \"tables\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"kernel_map\": { \"base\": \"base-k\", \"new\": \"new-k\" },\n"
	"  \"tables\": [\n"
	"    { \"id\": \"kb\", \"rows\": [\n"
	"      { \"test\": \"one\", \"point\": { \"workload.n\": 1 }, \"values\": {\n"
	"          \"base\": { \"elapsed_s\": 100, \"sys_s\": 10 }, \"new\": { \"elapsed_s\": 112.5, \"sys_s\": 11 } } },\n"
	"      { \"test\": \"two\", \"point\": { \"workload.n\": 2 }, \"values\": {\n"
	"          \"base\": { \"elapsed_s\": 200, \"sys_s\": 10 }, \"new\": { \"elapsed_s\": 201, \"sys_s\": 10.25 } } },\n"
	"      { \"test\": \"three\", \"point\": { \"workload.n\": 3 }, \"values\": {\n"
	"          \"base\": { \"elapsed_s\": 300, \"sys_s\": 10 }, \"new\": { \"elapsed_s\": 330, \"sys_s\": 10.5 } } } ] },\n"
	"    { \"id\": \"scalar\", \"metric\": \"thr\", \"rows\": [\n"
	"      { \"test\": \"peak\", \"values\": { \"base\": 100, \"new\": 106 } } ] } ],\n"
	"  \"claims\": [\n"
	"    {\"id\": \"rel-ok\", \"kind\": \"relative\", \"table\": \"kb\", \"row\": \"one\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.11, 0.14]},\n"
	"    {\"id\": \"rel-bad\", \"kind\": \"relative\", \"table\": \"kb\", \"row\": \"three\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.11, 0.14]},\n"
	"    {\"id\": \"flat-ok\", \"kind\": \"flat\", \"table\": \"kb\", \"rows\": [\"two\"], \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.01},\n"
	"    {\"id\": \"flat-bad\", \"kind\": \"flat\", \"table\": \"kb\", \"rows\": [\"two\", \"three\"], \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.01},\n"
	"    {\"id\": \"flat-all-ok\", \"kind\": \"flat\", \"table\": \"kb\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.13},\n"
	"    {\"id\": \"flat-all-bad\", \"kind\": \"flat\", \"table\": \"kb\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.11},\n"
	"    {\"id\": \"diff-ok\", \"kind\": \"difference\", \"table\": \"kb\", \"metric\": \"sys_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.05, 2.5]},\n"
	"    {\"id\": \"diff-bad\", \"kind\": \"difference\", \"table\": \"kb\", \"row\": \"three\", \"metric\": \"sys_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.29, 1.64]},\n"
	"    {\"id\": \"nopoint\", \"kind\": \"relative\", \"table\": \"scalar\", \"row\": \"peak\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.05, 0.08]},\n"
	"    {\"id\": \"nopoint-flat\", \"kind\": \"flat\", \"table\": \"scalar\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.1},\n"
	"    {\"id\": \"no-row\", \"kind\": \"flat\", \"table\": \"kb\", \"row\": \"ghost\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.1},\n"
	"    {\"id\": \"no-metric\", \"kind\": \"difference\", \"table\": \"kb\", \"row\": \"one\", \"metric\": \"user_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0, 1]},\n"
	"    {\"id\": \"banana\", \"kind\": \"banana\", \"table\": \"kb\"}\n"
	"  ] }\n";

/* A crafted results file of @runs (stolen) from @nruns runs per cell of the
 * teaching trace scenario, swept over @sweep (stolen; NULL: none), as
 * DIR/@sub/trace-policies.json. */
static void write_crafted(const char *sub, json_t *runs, int nruns, json_t *sweep)
{
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name",
			      "crafted", "file", "trace-policies.json", "hash", "0", "runs", nruns, "seed", 1, "runs", runs,
			      "host", "wall_seconds", 0.0, "runs");
	if (sweep)
		json_object_set_new(d, "sweep", sweep);
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/%s/trace-policies.json", dir, sub);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static void write_tables_emulated(void)
{
	/* elapsed[kernel][n - 1][run], sys_s[kernel][n - 1] */
	const double el[2][3][2] = { { { 100, 100 }, { 200, 200 }, { 300, 300 } },
				     { { 112, 112 }, { 201, 201 }, { 330, 330 } } };
	const double sys[2][3] = { { 10, 10, 10 }, { 11, 10.5, 12 } };
	json_t *runs = json_array();
	for (int k = 0; k < 2; k++)
		for (int n = 1; n <= 3; n++)
			for (int r = 0; r < 2; r++)
				json_array_append_new(
					runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{s:f},s:{},s:f}",
							"kernel", k ? "new-k" : "base-k", "point", "workload.n", n,
							"point_index", n - 1, "run", r, "seed", 1, "primary", "name",
							"elapsed", "value", el[k][n - 1][r], "unit", "s", "better", "lower",
							"metrics", "sys_s", sys[k][n - 1], "vmstat", "sim_time",
							el[k][n - 1][r]));
	write_crafted("runs3", runs, 2, json_pack("{s:[i,i,i]}", "workload.n", 1, 2, 3));
}

static json_t *claim_by_id(json_t *seed, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(seed, "claims"), i, c) if (!strcmp(json_string_value(json_object_get(c, "id")), id)) return c;
	fail_msg("no claim %s", id);
	return NULL;
}

static const char *detail_of(json_t *seed, const char *id)
{
	return json_string_value(json_object_get(claim_by_id(seed, id), "detail"));
}

/* Write published file @text as PUB/NNN.json (@pub "pub3", @num "903"), the
 * crafted several-tables runs, and run `reproduce --no-run` into o@num's
 * last digit (o3, o5).  Returns: reproduce.json (caller decrefs). */
static json_t *tables_reproduce(const char *pub, const char *num, const char *text, json_t **seed)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, pub);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/%s.json", pub, num);
	write_text(path, text);
	write_tables_emulated();
	const char *o = num + strlen(num) - 1;
	assert_int_equal(sh("reproduce -v --no-run --published %s/%s --runs %s/runs3 --out %s/o%s", dir, pub, dir, dir, o), 0);
	snprintf(path, sizeof path, "%s/o%s/reproduce.json", dir, o);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	*seed = json_array_get(json_object_get(d, "seeds"), 0);
	return d;
}

static void tables_form(void **state)
{
	json_t *s, *d = tables_reproduce("pub3", "903", tables_published, &s);
	struct { const char *id, *v; } want[] = {
		{ "rel-ok", "reproduced" },     { "rel-bad", "not reproduced" },  { "flat-ok", "reproduced" },
		{ "flat-bad", "not reproduced" }, { "flat-all-ok", "reproduced" }, { "flat-all-bad", "not reproduced" },
		{ "diff-ok", "reproduced" },    { "diff-bad", "not reproduced" }, { "nopoint", "not checked" },
		{ "nopoint-flat", "not checked" }, { "no-row", "not checked" },   { "no-metric", "not checked" },
		{ "banana", "not checked" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *got = json_string_value(json_object_get(claim_by_id(s, want[i].id), "verdict"));
		if (strcmp(got, want[i].v))
			fail_msg("%s: got %s, want %s", want[i].id, got, want[i].v);
	}
	json_t *sm = json_object_get(s, "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 4);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 4);
	assert_int_equal(json_integer_value(json_object_get(sm, "inconclusive")), 0);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 5);
	/* no what-if claim, no report_metrics: neither key (what_if_metrics has both) */
	assert_null(json_object_get(sm, "what_if"));
	assert_null(json_object_get(s, "table_metrics"));
	/* the details: published and emulated values, the verdict's reason */
	assert_string_equal(detail_of(s, "rel-ok"),
			    "one {\"workload.n\":1}: elapsed_s new/base - 1: published +12.5% (112.5 vs 100), "
			    "emulated +12.0% (deterministic in the model: the same in every paired run) (112 vs 100) (need +11.0% .. +14.0%)");
	assert_string_equal(detail_of(s, "rel-bad"),
			    "three {\"workload.n\":3}: elapsed_s new/base - 1: published +10.0% (330 vs 300), "
			    "emulated +10.0% (deterministic in the model: the same in every paired run) (330 vs 300) (need +11.0% .. +14.0%) [out of range]");
	assert_string_equal(detail_of(s, "flat-bad"),
			    "two {\"workload.n\":2}: elapsed_s new/base - 1: published +0.5% (201 vs 200), "
			    "emulated +0.5% (deterministic in the model: the same in every paired run) (201 vs 200) (need |.| <= 1.0%); "
			    "three {\"workload.n\":3}: elapsed_s new/base - 1: published +10.0% (330 vs 300), "
			    "emulated +10.0% (deterministic in the model: the same in every paired run) (330 vs 300) (need |.| <= 1.0%) [not flat]");
	assert_string_equal(detail_of(s, "diff-bad"),
			    "three {\"workload.n\":3}: sys_s new - base: published +0.5 (10.5 vs 10), "
			    "emulated +2 (deterministic in the model: the same in every paired run) (12 vs 10) (need 0.29 .. 1.64) [out of range]");
	assert_string_equal(detail_of(s, "nopoint"), "no emulated sweep point for row \"peak\" of table \"scalar\"");
	assert_string_equal(detail_of(s, "nopoint-flat"), "no emulated sweep point for row \"peak\" of table \"scalar\"");
	assert_string_equal(detail_of(s, "no-row"), "no row \"ghost\" in published table \"kb\"");
	assert_string_equal(detail_of(s, "no-metric"), "no emulated user_s for base and new at {\"workload.n\":1}");
	assert_string_equal(detail_of(s, "banana"), "unknown claim kind \"banana\"");
	/* the cells: every row of the table when "row"/"rows" is absent; means over runs */
	json_t *cells = json_object_get(claim_by_id(s, "diff-ok"), "cells");
	assert_int_equal(json_array_size(cells), 3);
	json_t *c1 = json_array_get(cells, 1);
	assert_string_equal(json_string_value(json_object_get(c1, "row")), "two");
	assert_true(json_number_value(json_object_get(json_object_get(c1, "emulated"), "value")) == 10.5 - 10.0);
	assert_true(json_number_value(json_object_get(json_object_get(c1, "published"), "value")) == 10.25 - 10.0);
	json_t *c0 = json_array_get(json_object_get(claim_by_id(s, "rel-ok"), "cells"), 0);
	assert_true(json_number_value(json_object_get(json_object_get(c0, "emulated"), "kernel")) == 112.0);
	/* 112/100 - 1 as written with 12 significant digits (results_write) */
	assert_true(json_number_value(json_object_get(json_object_get(c0, "emulated"), "value")) == 0.12);
	json_decref(d);
	/* the text: rows with their points, verdicts, the summary */
	char *out = slurp("out");
	assert_non_null(strstr(out, "    \"one\" (point {\"workload.n\":1}): {\"base\":"));
	assert_non_null(strstr(out, "    \"peak\": {\"base\":100,\"new\":106}\n"));
	assert_non_null(strstr(out, "    [reproduced] rel-ok (relative): \n"));
	assert_non_null(strstr(out, "    [not reproduced] diff-bad (difference): \n"));
	assert_non_null(strstr(out, "    [not checked] nopoint (relative): \n"));
	assert_non_null(strstr(out, "  summary: 13 claims: 4 reproduced ("));
	assert_non_null(strstr(out, "), 4 not reproduced, 0 inconclusive, 5 not checked; "));
	assert_null(strstr(out, "what-if"));
	assert_null(strstr(out, "mean over runs"));
	free(out);
}

/* The several-tables form's "report_metrics" (each row's and column's emulated
 * means, "-" for a metric the runs lack) and "what_if" claims (judged, counted
 * apart from the summary); bad values of either are usage errors. */
static const char whatif_published[] =
	"{ \"seed\": \"905\", \"title\": \"what-if\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"kernel_map\": { \"base\": \"base-k\", \"new\": \"new-k\" },\n"
	"  \"tables\": [\n"
	"    { \"id\": \"kb\", \"report_metrics\": [\"sys_s\", \"elapsed_s\", \"ghost\"], \"rows\": [\n"
	"      { \"test\": \"one\", \"point\": { \"workload.n\": 1 }, \"values\": {\n"
	"          \"base\": { \"elapsed_s\": 100 }, \"new\": { \"elapsed_s\": 112.5 } } },\n"
	"      { \"test\": \"two\", \"point\": { \"workload.n\": 2 }, \"values\": {\n"
	"          \"base\": { \"elapsed_s\": 200 }, \"new\": { \"elapsed_s\": 201 } } },\n"
	"      { \"test\": \"nopoint\", \"values\": { \"base\": 1, \"new\": 2 } } ] } ],\n"
	"  \"claims\": [\n"
	"    {\"id\": \"wi-ok\", \"kind\": \"relative\", \"table\": \"kb\", \"row\": \"one\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.11, 0.14], \"what_if\": \"64 MiB\"},\n"
	"    {\"id\": \"plain-bad\", \"kind\": \"relative\", \"table\": \"kb\", \"row\": \"two\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.11, 0.14]}\n"
	"  ] }\n";

/* Replace the first @from of whatif_published by @to into @buf. */
static void whatif_variant(char *buf, size_t n, const char *from, const char *to)
{
	const char *at = strstr(whatif_published, from);
	assert_non_null(at);
	snprintf(buf, n, "%.*s%s%s", (int)(at - whatif_published), whatif_published, to, at + strlen(from));
}

static void what_if_metrics(void **state)
{
	(void)state;
	json_t *s, *d = tables_reproduce("pub5", "905", whatif_published, &s);
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "wi-ok"), "verdict")), "reproduced");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "wi-ok"), "what_if")), "64 MiB");
	assert_null(json_object_get(claim_by_id(s, "plain-bad"), "what_if"));
	json_t *sm = json_object_get(s, "summary"), *wi = json_object_get(sm, "what_if");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 0);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 1);
	assert_int_equal(json_integer_value(json_object_get(wi, "reproduced")), 1);
	assert_int_equal(json_integer_value(json_object_get(wi, "not_reproduced")), 0);
	/* table_metrics: rows with a point only; sys_s of new-k at n = 2 is 10.5 in both runs */
	json_t *tm = json_array_get(json_object_get(s, "table_metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(tm, "table")), "kb");
	json_t *rows = json_object_get(tm, "rows");
	assert_int_equal(json_array_size(rows), 2);
	json_t *two = json_array_get(rows, 1);
	assert_string_equal(json_string_value(json_object_get(two, "test")), "two");
	json_t *cnew = json_array_get(json_object_get(two, "columns"), 1);
	assert_string_equal(json_string_value(json_object_get(cnew, "column")), "new");
	json_t *sys = json_object_get(json_object_get(cnew, "metrics"), "sys_s");
	assert_true(json_number_value(json_object_get(sys, "mean")) == 10.5);
	assert_int_equal(json_integer_value(json_object_get(sys, "n")), 2);
	json_t *el = json_object_get(json_object_get(cnew, "metrics"), "elapsed_s");
	assert_true(json_number_value(json_object_get(el, "mean")) == 201);
	assert_true(json_is_null(json_object_get(json_object_get(cnew, "metrics"), "ghost")));
	json_decref(d);
	char *out = slurp("out");
	const char *want_tm = "  emulated kb (mean over runs):\n"
				    "    row  column  runs  sys_s  elapsed_s  ghost\n"
				    "    one  base       2     10        100      -\n"
				    "         new        2     11        112      -\n"
				    "    two  base       2     10        200      -\n"
				    "         new        2   10.5        201      -\n";
	if (!strstr(out, want_tm))
		fail_msg("no metrics table in:\n%s", out);
	assert_non_null(strstr(out, "    [reproduced] wi-ok (relative): \n      one {\"workload.n\":1}: "));
	assert_non_null(strstr(out, "      what-if (not counted in the summary): 64 MiB\n"));
	assert_non_null(strstr(out, "  summary: 1 claims: 0 reproduced (0 by mechanism, 0 by construction, 0 calibrated), "
				    "1 not reproduced, 0 inconclusive, 0 not checked; 0 fragile, 0 robust, 1 untested (no sensitivity record for this seed: reproduce --sensitivity)\n"
				    "  what-if claims (not counted above): 1 claims: 1 reproduced ("));
	free(out);
	/* the markdown says it too */
	out = slurp("o5/reproduce.md");
	assert_non_null(strstr(out, "What-if claims (not counted above): 1 claims: 1 reproduced"));
	free(out);

	/* bad values: usage errors naming the path */
	static const struct { const char *from, *to, *want; } bad[] = {
		{ "[\"sys_s\", \"elapsed_s\", \"ghost\"]", "\"sys_s\"",
		  "pub5/905.json: tables[0].report_metrics: expected an array of metric names" },
		{ "[\"sys_s\", \"elapsed_s\", \"ghost\"]", "[1]",
		  "pub5/905.json: tables[0].report_metrics[0]: expected a metric name (a string)" },
		{ "\"what_if\": \"64 MiB\"", "\"what_if\": true",
		  "pub5/905.json: claims[0].what_if: expected a string" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char buf[4096];
		whatif_variant(buf, sizeof buf, bad[i].from, bad[i].to);
		write_text("pub5/905.json", buf);
		assert_int_equal(sh("reproduce -v --no-run --published %s/pub5 --runs %s/runs3 --out %s/o5", dir, dir, dir), 2);
		char *err = slurp("err");
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: stderr \"%s\"", i, err);
		assert_true(strchr(err, '\n') && strchr(err, '\n')[1] == '\0');   /* one line */
		free(err);
		out = slurp("out");
		assert_string_equal(out, "");
		free(out);
	}
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
	/* the teaching scenario runs once per cell: no interval, so no verdict either way */
	assert_string_equal(verdict(t, "opt-faster"), "inconclusive");
	json_t *cl = json_array_get(json_object_get(t, "claims"), 0);
	assert_non_null(strstr(json_string_value(json_object_get(cl, "detail")), "fewer than two runs: no interval"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "status")),
			    "ran 16 simulations");
	json_decref(d);
	/* each simulation is kept beside the results file; the same command again
	 * (the same mmemu executable) reuses them all, --fresh reruns them */
	snprintf(path, sizeof path, "%s/runs2/trace-policies.d/0015.json", dir);
	assert_int_equal(stat(path, &st), 0);
	const char *const want[2] = { "ran 0 simulations, reused 16 kept", "ran 16 simulations" };
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(sh("reproduce 0 -j 2 -q %s--published %s/pub2 --runs %s/runs2 --out %s/o2",
				    pass ? "--fresh " : "", dir, dir, dir), 0);
		snprintf(path, sizeof path, "%s/o2/reproduce.json", dir);
		d = json_load_file(path, 0, &je);
		assert_non_null(d);
		assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(d, "seeds"), 0),
								      "status")), want[pass]);
		json_decref(d);
	}
	/* --seeds 2: base seeds 1 and 2, the second into STEM.seed2.json, pooled */
	assert_int_equal(sh("reproduce 0 -j 2 -q --seeds 2 --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	snprintf(path, sizeof path, "%s/runs2/trace-policies.seed2.json", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/runs2/trace-policies.seed2.d/0015.json", dir);   /* its own kept files */
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/o2/reproduce.json", dir);
	d = json_load_file(path, 0, &je);
	assert_non_null(d);
	json_t *sd = json_array_get(json_object_get(d, "seeds"), 0);
	assert_non_null(strstr(json_string_value(json_object_get(sd, "status")), "(base seed 2): ran "));
	t = json_array_get(json_object_get(sd, "tables"), 0);
	cl = json_array_get(json_object_get(t, "claims"), 0);
	json_t *bs = json_object_get(cl, "base_seeds");
	assert_int_equal(json_object_size(bs), 2);
	assert_non_null(json_object_get(bs, "2"));
	/* two runs per cell now (one per base seed), the same trace: an interval of zero width */
	assert_string_equal(json_string_value(json_object_get(cl, "verdict")), "reproduced");
	json_decref(d);
}

/* ---- run-to-run noise ---- */

static const char noise_published[] =
	"{ \"seed\": \"903\", \"title\": \"noise\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"metric\": \"thr\", \"unit\": \"ops\", \"better\": \"higher\",\n"
	"  \"table\": { \"point_key\": \"workload.n\", \"columns\": [\"base\", \"new\"],\n"
	"    \"rows\": [ {\"point\": 1, \"values\": [100, 103]}, {\"point\": 2, \"values\": [100, 120]},\n"
	"              {\"point\": 3, \"values\": [100, 110]} ] },\n"
	"  \"claims\": [ {\"id\": \"better\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"new\","
	" \"expect\": \"better\"} ] }\n";

/* thr per (kernel, n): four runs at n = 1 and 2, one at n = 3.
 * n=1: base mean 100 sd 1.633, new mean 105: Welch p ~ 0.005 (significant);
 *      sigma of new/base - 1 = sqrt(0.01633^2 + 0.01555^2) = 2.26%: published +3% inside.
 * n=2: base and new mean 100, sd ~0.4: not significant; published +20% outside.
 * n=3: one run each: cannot judge. */
static void write_noise_emulated(void)
{
	const double v[2][3][4] = { { { 98, 100, 102, 100 }, { 100, 100.5, 99.5, 100 }, { 100 } },
				    { { 103, 105, 107, 105 }, { 100.2, 99.8, 100.4, 99.6 }, { 111 } } };
	json_t *runs = json_array();
	for (int k = 0; k < 2; k++)
		for (int n = 1; n <= 3; n++)
			for (int r = 0; r < (n == 3 ? 1 : 4); r++)
				json_array_append_new(
					runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{},s:{},s:{},s:f}",
							"kernel", k ? "new" : "base", "point", "workload.n", n, "point_index",
							n - 1, "run", r, "seed", 1, "primary", "name", "thr", "value",
							v[k][n - 1][r], "unit", "ops", "better", "higher", "metrics", "vmstat",
							"series", "sim_time", 1.0));
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i,i,i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name", "noise",
			      "file", "trace-policies.json", "hash", "0", "runs", 4, "seed", 1, "sweep", "workload.n", 1,
			      2, 3, "runs", runs, "host", "wall_seconds", 0.0, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/runs3/trace-policies.json", dir);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static void noise(void **state)
{
	(void)state;
	write_text("pub3/903.json", noise_published);
	write_noise_emulated();
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir), 0);
	char path[512];
	snprintf(path, sizeof path, "%s/o3/reproduce.json", dir);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	json_t *seed = json_array_get(json_object_get(d, "seeds"), 0);
	json_t *t = json_array_get(json_object_get(seed, "tables"), 0);
	assert_string_equal(verdict(t, "better"), "inconclusive");   /* n=2: 100 vs 100 with spread; n=3: one run */
	json_t *cl = json_array_get(json_object_get(t, "claims"), 0);
	json_t *cells = json_object_get(cl, "cells");
	/* cells: base, new per point; the noise is on the kernel's cell */
	json_t *n1 = json_object_get(json_array_get(cells, 1), "noise");
	json_t *n2 = json_object_get(json_array_get(cells, 3), "noise");
	json_t *n3 = json_object_get(json_array_get(cells, 5), "noise");
	assert_true(json_is_true(json_object_get(n1, "significant")));
	assert_string_equal(json_string_value(json_object_get(n1, "test")), "paired");
	assert_true(json_is_true(json_object_get(n1, "published_inside_noise")));
	assert_true(fabs(json_real_value(json_object_get(n1, "sigma")) - sqrt(pow(sqrt(8.0 / 3) / 100, 2) + pow(sqrt(8.0 / 3) / 105, 2))) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(n1, "published")) - 0.03) < 1e-9);
	assert_true(json_is_false(json_object_get(n2, "significant")));
	assert_true(json_is_false(json_object_get(n2, "published_inside_noise")));
	assert_string_equal(json_string_value(json_object_get(n2, "noise_verdict")), "outside noise");
	assert_true(json_is_null(json_object_get(n3, "significant")));
	assert_true(json_is_null(json_object_get(n3, "published_inside_noise")));
	assert_string_equal(json_string_value(json_object_get(n3, "noise_verdict")), "cannot judge");
	/* per-kernel run statistics on the table's cells */
	json_t *c1 = json_array_get(json_object_get(json_array_get(json_object_get(t, "rows"), 0), "cells"), 0);
	json_t *ru = json_object_get(c1, "runs");
	assert_int_equal(json_integer_value(json_object_get(ru, "n")), 4);
	assert_true(json_real_value(json_object_get(ru, "min")) == 98 && json_real_value(json_object_get(ru, "max")) == 102);
	assert_true(fabs(json_real_value(json_object_get(ru, "stddev")) - sqrt(8.0 / 3)) < 1e-9);
	/* the claim's and the seed's summaries */
	json_t *ns = json_object_get(cl, "noise_summary");
	assert_int_equal(json_integer_value(json_object_get(ns, "significant")), 1);
	assert_int_equal(json_integer_value(json_object_get(ns, "not_significant")), 1);
	assert_int_equal(json_integer_value(json_object_get(ns, "significance_cannot_judge")), 1);
	assert_int_equal(json_integer_value(json_object_get(ns, "inside_noise")), 1);
	assert_int_equal(json_integer_value(json_object_get(ns, "outside_noise")), 1);
	assert_int_equal(json_integer_value(json_object_get(ns, "noise_cannot_judge")), 1);
	json_t *sn = json_object_get(seed, "noise");
	assert_string_equal(json_string_value(json_array_get(json_object_get(sn, "inside"), 0)), "better: 1");
	assert_string_equal(json_string_value(json_array_get(json_object_get(sn, "outside"), 0)), "better: 2");
	assert_int_equal(json_integer_value(json_object_get(sn, "cannot_judge")), 1);
	json_decref(d);
	char *out = slurp("out");
	assert_non_null(strstr(out, "published +3% inside noise"));
	assert_non_null(strstr(out, "published +20% outside noise"));
	assert_non_null(strstr(out, "published differences inside the emulated noise: better: 1"));
	/* no list of what the model lacks: never "outside the emulated noise" */
	assert_null(strstr(out, "outside the emulated noise"));
	assert_non_null(strstr(out, "noise sources the model lacks (the real runs had them): not listed for this seed"));
	assert_non_null(strstr(out, "published differences beyond the emulated spread (the sources the model lacks are not listed"));
	/* the kernels' runs share base seed and run index: paired (differences 5 5 5 5: p = 0) */
	assert_non_null(strstr(out, "differ significantly (paired t-test p=0)"));
	free(out);

	/* published means of 4 runs: sigma / 2, so +3% is now outside */
	char *pub4 = strdup(noise_published);
	char *at = strstr(pub4, "\"metric\"");
	assert_non_null(at);
	char buf[4096];
	snprintf(buf, sizeof buf, "%.*s\"published_runs\": 4, %s", (int)(at - pub4), pub4, at);
	write_text("pub3/903.json", buf);
	free(pub4);
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir), 0);
	d = json_load_file(path, 0, &je);
	assert_non_null(d);
	sn = json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "noise");
	assert_int_equal(json_array_size(json_object_get(sn, "inside")), 0);
	assert_int_equal(json_array_size(json_object_get(sn, "outside")), 2);
	json_decref(d);

	/* a bad published_runs: usage error naming the path */
	snprintf(buf, sizeof buf, "%.*s\"published_runs\": 0, %s", (int)(strstr(noise_published, "\"metric\"") - noise_published),
		 noise_published, strstr(noise_published, "\"metric\""));
	write_text("pub3/903.json", buf);
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir), 2);
	char *err = slurp("err");
	assert_non_null(strstr(err, "pub3/903.json: published_runs: expected an integer in [1, 1000000]"));
	free(err);

	/* "in_all": false leaves the seed out of `reproduce all` (saying so) and runs it
	 * when asked by number; without its reason the file is refused */
	const char *metric = strstr(noise_published, "\"metric\"");
	snprintf(buf, sizeof buf, "%.*s\"in_all\": false, \"in_all_reason\": \"too slow\", %s",
		 (int)(metric - noise_published), noise_published, metric);
	write_text("pub3/903.json", buf);
	sh("reproduce all --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir);
	out = slurp("out");
	assert_non_null(strstr(out, "seed 903: left out of `reproduce all` (too slow): run `mmemu reproduce 903`"));
	free(out);
	assert_int_equal(sh("reproduce 903 -v --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir), 0);
	out = slurp("out");
	assert_null(strstr(out, "left out"));
	free(out);
	snprintf(buf, sizeof buf, "%.*s\"in_all\": false, %s", (int)(metric - noise_published),
		 noise_published, metric);
	write_text("pub3/903.json", buf);
	assert_int_equal(sh("reproduce 903 -v --no-run --published %s/pub3 --runs %s/runs3 --out %s/o3", dir, dir, dir), 2);
	err = slurp("err");
	assert_non_null(strstr(err, "pub3/903.json: in_all_reason: expected a string"));
	free(err);
}

/* ---- three-valued verdicts ---- */

/* Four runs per kernel and point, base seed 1 (thr; elapsed = thr for "difference"):
 * n=1: base 100 x4, new 104 106 104 106: new/base - 1 = 0.05, sd(new) = 2/sqrt(3),
 *      se = sd / sqrt(4) / 100 = 0.005774, df = 3 (base has no spread), t(0.975, 3)
 *      = 3.1824: 95% CI 0.05 -+ 0.018375 = [0.031625, 0.068375];
 *      difference: 5 -+ 1.8375 = [3.1625, 6.8375].
 * n=2: base 100 x4, new 99 101 99 101: 0 -+ 0.018375; TOST against 5%:
 *      t = 0.05 / 0.005774 = 8.66, p = 0.0016 (equivalent); against 1%: t = 1.732,
 *      p = P(T3 > 1.732) = 0.0908 (not shown), and the 95% CI reaches past 1%
 *      only on one side of 0: inconclusive. */
static const char tv_published[] =
	"{ \"seed\": \"906\", \"title\": \"three\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"tables\": [ { \"id\": \"t\", \"metric\": \"thr\", \"rows\": [\n"
	"      { \"test\": \"one\", \"point\": { \"workload.n\": 1 }, \"values\": { \"base\": 100, \"new\": 105 },\n"
	"        \"spread\": { \"base\": [99, 101], \"new\": [103, 107] } },\n"
	"      { \"test\": \"two\", \"point\": { \"workload.n\": 2 }, \"values\": { \"base\": 100, \"new\": 100 },\n"
	"        \"spread\": { \"base\": [98, 102], \"new\": [99, 101] } } ], \"published_runs\": 3 } ],\n"
	"  \"noise_missing\": [\"another host\"],\n"
	"  \"claims\": [\n"
	"    {\"id\": \"rel-in\", \"kind\": \"relative\", \"table\": \"t\", \"row\": \"one\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.03, 0.07]},\n"
	"    {\"id\": \"rel-out\", \"kind\": \"relative\", \"table\": \"t\", \"row\": \"one\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.10, 0.20]},\n"
	"    {\"id\": \"rel-edge\", \"kind\": \"relative\", \"table\": \"t\", \"row\": \"one\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.06, 0.10]},\n"
	"    {\"id\": \"flat-eq\", \"kind\": \"flat\", \"table\": \"t\", \"row\": \"two\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.05},\n"
	"    {\"id\": \"flat-unsure\", \"kind\": \"flat\", \"table\": \"t\", \"row\": \"two\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.01},\n"
	"    {\"id\": \"flat-no\", \"kind\": \"flat\", \"table\": \"t\", \"row\": \"one\", \"baseline\": \"base\", \"kernel\": \"new\", \"tolerance\": 0.01},\n"
	"    {\"id\": \"diff-in\", \"kind\": \"difference\", \"table\": \"t\", \"row\": \"one\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [2, 8]},\n"
	"    {\"id\": \"diff-edge\", \"kind\": \"difference\", \"table\": \"t\", \"row\": \"one\", \"metric\": \"elapsed_s\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [6, 9]}\n"
	"  ] }\n";

/* Runs of kernels base and new at workload.n = 1, 2: @v[kernel][n - 1][run] for
 * base seed @seed[run] (run index run % 4), primary thr, metric elapsed_s = thr. */
static void write_runs(const char *path, int nruns, const double v[2][2][8], const int *seed)
{
	json_t *runs = json_array();
	for (int k = 0; k < 2; k++)
		for (int n = 1; n <= 2; n++)
			for (int r = 0; r < nruns; r++)
				json_array_append_new(
					runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{s:f},s:{},s:{},s:f}",
							"kernel", k ? "new" : "base", "point", "workload.n", n, "point_index",
							n - 1, "run", r % 4, "seed", seed[r], "primary", "name", "thr", "value",
							v[k][n - 1][r], "unit", "ops", "better", "higher", "metrics", "elapsed_s",
							v[k][n - 1][r], "vmstat", "series", "sim_time", 1.0));
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i,i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name", "crafted",
			      "file", "trace-policies.json", "hash", "0", "runs", 4, "seed", 1, "sweep", "workload.n", 1, 2,
			      "runs", runs, "host", "wall_seconds", 0.0, "runs");
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static json_t *run_tv(const char *sub)
{
	char path[512];
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub6 --runs %s/%s --out %s/o6", dir, dir, sub, dir), 0);
	snprintf(path, sizeof path, "%s/o6/reproduce.json", dir);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	return d;
}

static void three_valued(void **state)
{
	(void)state;
	const char *sub[] = { "pub6", "runs6", "o6" };
	for (size_t i = 0; i < 3; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		assert_int_equal(mkdir(p, 0777), 0);
	}
	write_text("pub6/906.json", tv_published);
	const double v[2][2][8] = { { { 100, 100, 100, 100 }, { 100, 100, 100, 100 } },
				    { { 104, 106, 104, 106 }, { 99, 101, 99, 101 } } };
	const int seed1[8] = { 1, 1, 1, 1 };
	char path[512];
	snprintf(path, sizeof path, "%s/runs6/trace-policies.json", dir);
	write_runs(path, 4, v, seed1);
	json_t *d = run_tv("runs6");
	json_t *s = json_array_get(json_object_get(d, "seeds"), 0);
	struct { const char *id, *v; } want[] = {
		{ "rel-in", "reproduced" },      { "rel-out", "not reproduced" }, { "rel-edge", "inconclusive" },
		{ "flat-eq", "reproduced" },     { "flat-unsure", "inconclusive" }, { "flat-no", "not reproduced" },
		{ "diff-in", "reproduced" },     { "diff-edge", "inconclusive" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *got = json_string_value(json_object_get(claim_by_id(s, want[i].id), "verdict"));
		if (strcmp(got, want[i].v))
			fail_msg("%s: got %s, want %s (%s)", want[i].id, got, want[i].v, detail_of(s, want[i].id));
	}
	json_t *sm = json_object_get(s, "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 3);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 2);
	assert_int_equal(json_integer_value(json_object_get(sm, "inconclusive")), 3);
	/* the interval and the equivalence test, as computed in the comment above */
	json_t *ci = json_object_get(json_array_get(json_object_get(claim_by_id(s, "rel-in"), "cells"), 0), "ci");
	assert_true(fabs(json_number_value(json_object_get(ci, "lo")) - 0.031625) < 2e-5);
	assert_true(fabs(json_number_value(json_object_get(ci, "hi")) - 0.068375) < 2e-5);
	assert_true(fabs(json_number_value(json_object_get(ci, "df")) - 3) < 1e-9);
	json_t *c2 = json_array_get(json_object_get(claim_by_id(s, "flat-eq"), "cells"), 0);
	assert_true(fabs(json_number_value(json_object_get(c2, "tost_p")) - 0.0016) < 2e-4);
	assert_non_null(strstr(detail_of(s, "flat-unsure"), "equivalence (TOST) p=0.0908"));
	assert_non_null(strstr(detail_of(s, "rel-edge"), "(95% CI +3.2% .. +6.8%)"));
	json_decref(d);
	char *out = slurp("out");
	assert_non_null(strstr(out, "  summary: 8 claims: 3 reproduced ("));
	assert_non_null(strstr(out, "), 2 not reproduced, 3 inconclusive, 0 not checked; "));
	/* published noise: runs per table, the published spreads; the noise sources */
	assert_non_null(strstr(out, "published numbers: t: mean of 3 runs, spreads (lo, hi) given\n"));
	assert_non_null(strstr(out, "published spread: base [99, 101], new [103, 107]: the published difference exceeds it"));
	assert_non_null(strstr(out, "published spread: base [98, 102], new [99, 101]: the published difference lies within it"));
	assert_non_null(strstr(out, "noise sources in the model: disk starting angle (per run); workload random streams (per run)\n"));
	assert_non_null(strstr(out, "noise sources the model lacks (the real runs had them): another host\n"));
	assert_non_null(strstr(out, "published differences outside the emulated noise (outside the noise of the sources above only"));
	free(out);
}

/*
 * Two base seeds: runs 0..3 of seed 1 and of seed 2, one claim "new is 1% to 10%
 * faster" on row one.  Seed 1 alone: base 99 100 101 100, new 103 104 105 104:
 * every paired difference is +4, so the interval is [+4%, +4%] and the paired
 * test says p = 0: reproduced and "significant".  Seed 2: new 95 96 97 96, -4
 * per run: not reproduced.  Pooled (8 pairs, by seed and run index): the mean
 * ratio is 1, the interval spans 0 and the paired test does not see a
 * difference; the verdict flips between seeds, so it is inconclusive.
 */
static const char bs_published[] =
	"{ \"seed\": \"906\", \"title\": \"seeds\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"tables\": [ { \"id\": \"t\", \"metric\": \"thr\", \"rows\": [\n"
	"      { \"test\": \"one\", \"point\": { \"workload.n\": 1 }, \"values\": { \"base\": 100, \"new\": 105 } } ] } ],\n"
	"  \"claims\": [\n"
	"    {\"id\": \"faster\", \"kind\": \"relative\", \"table\": \"t\", \"row\": \"one\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.01, 0.10]}\n"
	"  ] }\n";

static void base_seeds(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof p, "%s/runs7", dir);
	assert_int_equal(mkdir(p, 0777), 0);
	write_text("pub6/906.json", bs_published);
	const double v[2][2][8] = { { { 99, 100, 101, 100, 99, 100, 101, 100 }, { 100, 100, 100, 100, 100, 100, 100, 100 } },
				    { { 103, 104, 105, 104, 95, 96, 97, 96 }, { 100, 100, 100, 100, 100, 100, 100, 100 } } };
	const int seeds[8] = { 1, 1, 1, 1, 2, 2, 2, 2 };
	/* seed 1 alone: a false "significant" */
	snprintf(p, sizeof p, "%s/runs7/trace-policies.json", dir);
	write_runs(p, 4, v, seeds);
	json_t *d = run_tv("runs7");
	json_t *s = json_array_get(json_object_get(d, "seeds"), 0), *cl = claim_by_id(s, "faster");
	assert_string_equal(json_string_value(json_object_get(cl, "verdict")), "reproduced");
	json_t *nz = json_object_get(json_array_get(json_object_get(cl, "cells"), 0), "noise");
	assert_true(json_is_true(json_object_get(nz, "significant")));
	assert_null(json_object_get(cl, "base_seeds"));
	json_decref(d);
	/* both seeds pooled: the verdict flips between them */
	write_runs(p, 8, v, seeds);
	d = run_tv("runs7");
	s = json_array_get(json_object_get(d, "seeds"), 0);
	cl = claim_by_id(s, "faster");
	assert_string_equal(json_string_value(json_object_get(cl, "verdict")), "inconclusive");
	json_t *bs = json_object_get(cl, "base_seeds");
	assert_string_equal(json_string_value(json_object_get(bs, "1")), "reproduced");
	assert_string_equal(json_string_value(json_object_get(bs, "2")), "not reproduced");
	assert_non_null(strstr(detail_of(s, "faster"), "verdict flips between base seeds (1: reproduced, 2: not reproduced); pooled "));
	nz = json_object_get(json_array_get(json_object_get(cl, "cells"), 0), "noise");
	assert_true(json_is_false(json_object_get(nz, "significant")));
	assert_string_equal(json_string_value(json_object_get(nz, "test")), "paired");
	json_decref(d);
}

/* ---- a seed of several scenarios ---- */

/* Two tiny trace scenarios (Belady's string, kernels fifo and opt) with different
 * sweeps: part a over workload.frames, part b over workload.fault_cycles.  The
 * published seed names both in a "scenario" array and has a table and claims on
 * each; the runs of both parts are merged, so every claim is judged. */
static void write_part(const char *name, const char *sweep)
{
	char text[1024];
	snprintf(text, sizeof text,
		 "{ \"name\": \"%s\", \"machine\": { \"cpus\": 1, \"memory\": \"64MiB\",\n"
		 "    \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\" } ] },\n"
		 "  \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\" }, \"opt\": { \"reclaim\": \"opt\" } },\n"
		 "  \"workload\": { \"type\": \"trace\", \"file\": \"belady.trace\", \"frames\": 3 },\n"
		 "  \"runs\": 2, \"sweep\": { %s } }\n",
		 name, sweep);
	char file[64];
	snprintf(file, sizeof file, "p4/%s.json", name);
	write_text(file, text);
}

static void several_scenarios(void **state)
{
	(void)state;
	const char *sub[] = { "p4", "pub4", "runs4", "o4", "bad4" };
	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		assert_int_equal(mkdir(p, 0777), 0);
	}
	/* faults: frames 3: fifo 9, opt 7; frames 4: fifo 10, opt 6 (Belady's anomaly) */
	write_text("p4/belady.trace", "1\n2\n3\n4\n1\n2\n5\n1\n2\n3\n4\n5\n");
	write_part("part-a", "\"workload.frames\": [3, 4]");
	write_part("part-b", "\"workload.fault_cycles\": [5000, 20000]");
	char pub[4096];
	snprintf(pub, sizeof pub,
		 "{ \"seed\": \"904\", \"title\": \"two parts\", \"scenario\": [\"%s/p4/part-a.json\", \"%s/p4/part-b.json\"],\n"
		 "  \"tables\": [\n"
		 "    { \"id\": \"a\", \"metric\": \"faults\", \"rows\": [\n"
		 "      { \"test\": \"frames 3\", \"point\": { \"workload.frames\": 3 }, \"values\": { \"fifo\": 9, \"opt\": 7 } },\n"
		 "      { \"test\": \"frames 4\", \"point\": { \"workload.frames\": 4 }, \"values\": { \"fifo\": 10, \"opt\": 6 } } ] },\n"
		 "    { \"id\": \"b\", \"metric\": \"faults\", \"rows\": [\n"
		 "      { \"test\": \"cheap\", \"point\": { \"workload.fault_cycles\": 5000 }, \"values\": { \"fifo\": 9, \"opt\": 7 } },\n"
		 "      { \"test\": \"dear\", \"point\": { \"workload.fault_cycles\": 20000 }, \"values\": { \"fifo\": 9, \"opt\": 7 } } ] } ],\n"
		 "  \"claims\": [\n"
		 "    {\"id\": \"a-rel\", \"kind\": \"relative\", \"table\": \"a\", \"row\": \"frames 4\", \"metric\": \"faults\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [-0.45, -0.35]},\n"
		 "    {\"id\": \"a-bad\", \"kind\": \"relative\", \"table\": \"a\", \"row\": \"frames 3\", \"metric\": \"faults\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [0.1, 0.2]},\n"
		 "    {\"id\": \"b-rel\", \"kind\": \"relative\", \"table\": \"b\", \"row\": \"cheap\", \"metric\": \"faults\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [-0.25, -0.2]},\n"
		 "    {\"id\": \"b-diff\", \"kind\": \"difference\", \"table\": \"b\", \"metric\": \"faults\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [-2.5, -1.5]},\n"
		 "    {\"id\": \"b-bad\", \"kind\": \"difference\", \"table\": \"b\", \"row\": \"dear\", \"metric\": \"faults\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [0, 1]}\n"
		 "  ] }\n",
		 dir, dir);
	write_text("pub4/904.json", pub);
	assert_int_equal(sh("reproduce -q --published %s/pub4 --runs %s/runs4 --out %s/o4", dir, dir, dir), 0);
	/* each part's results under its own name */
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/runs4/part-a.json", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/runs4/part-b.json", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/o4/reproduce.json", dir);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	json_t *seeds = json_object_get(d, "seeds");
	assert_int_equal(json_array_size(seeds), 1);   /* one seed, not one per part */
	json_t *s = json_array_get(seeds, 0);
	assert_string_equal(json_string_value(json_object_get(s, "seed")), "904");
	struct { const char *id, *v; } want[] = {
		{ "a-rel", "reproduced" }, { "a-bad", "not reproduced" }, { "b-rel", "reproduced" },
		{ "b-diff", "reproduced" }, { "b-bad", "not reproduced" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *got = json_string_value(json_object_get(claim_by_id(s, want[i].id), "verdict"));
		if (strcmp(got, want[i].v))
			fail_msg("%s: got %s, want %s (%s)", want[i].id, got, want[i].v, detail_of(s, want[i].id));
	}
	json_t *sm = json_object_get(s, "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 3);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 2);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 0);
	/* the emulated cells come from each part: opt - fifo faults at both points of b */
	json_t *cells = json_object_get(claim_by_id(s, "b-diff"), "cells");
	assert_int_equal(json_array_size(cells), 2);
	for (size_t i = 0; i < 2; i++)
		assert_true(json_number_value(json_object_get(json_object_get(json_array_get(cells, i), "emulated"), "value")) == -2.0);
	json_decref(d);
	/* --no-run reads both parts' results back: the same verdicts */
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub4 --runs %s/runs4 --out %s/o4", dir, dir, dir), 0);
	d = json_load_file(path, 0, &je);
	assert_non_null(d);
	seeds = json_object_get(d, "seeds");
	assert_int_equal(json_array_size(seeds), 1);
	sm = json_object_get(json_array_get(seeds, 0), "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 3);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 0);
	json_decref(d);

	/* a bad "scenario": usage error (exit 2), one line naming the file and the path */
	const char *bad[] = {
		"42", "[]", "[\"a.json\", \"b.json\", \"c.json\", \"d.json\", \"e.json\", \"f.json\", \"g.json\", \"h.json\", \"i.json\"]", "[\"a.json\", 7]", "null",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[512];
		snprintf(text, sizeof text,
			 "{ \"seed\": \"905\", \"title\": \"bad\", \"scenario\": %s,\n"
			 "  \"tables\": [ { \"id\": \"t\", \"metric\": \"m\", \"rows\": [] } ], \"claims\": [] }\n",
			 bad[i]);
		write_text("bad4/905.json", text);
		assert_int_equal(sh("reproduce -v --no-run --published %s/bad4 --runs %s/runs4 --out %s/o4", dir, dir, dir), 2);
		char *out = slurp("out"), *err = slurp("err");
		int nl = 0;
		for (char *q = err; *q; q++)
			nl += *q == '\n';
		if (*out || nl != 1 ||
		    !strstr(err, "bad4/905.json: scenario: expected a scenario path or an array of 1 to 8 paths"))
			fail_msg("scenario %s: stdout \"%s\" stderr \"%s\"", bad[i], out, err);
		free(out);
		free(err);
	}
}

static void usage_errors(void **state)
{
	write_text("bad/000.json", "{ \"seed\": \"000\", \"scenario\": \"x.json\", \"metric\": \"m\" }\n");
	char cmds[][700] = { "reproduce 1 2", "reproduce -j 0", "reproduce --seeds 0", "reproduce --seeds x", "reproduce --bogus", "reproduce --published %s/nodir",
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
	if (scratch_dir("reproduce"))
		return -1;
	const char *sub[] = { "pub", "pub2", "runs", "bad", "pub3", "runs3" };
	for (int i = 0; i < 6; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		if (mkdir(p, 0777))
			return -1;
	}
	return 0;
}

/* The spread kind with "per_boot": each boot's back-to-back runs (a chain's
 * steps at one point share the boot's seed and run index) are judged apart.
 * Crafted at workload.n = 1, three boots of two steps each:
 *   a: [100, 102] [100, 104] [100, 120]: spreads 1.98%, 3.92%, 18.18%
 *   b: [100, 100] [100, 150]:             spreads 0%, 40%
 *   c: one value per boot:                 no boot to judge
 *   d: [101, 103] [106, 103] [130, 121]:  above a on average in every boot pair;
 *                                         run for run in boots 0 and 2, not in
 *                                         boot 1 (103 < 104) */
static const char per_boot_published[] =
	"{ \"seed\": \"907\", \"title\": \"per boot\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"tables\": [ { \"id\": \"rep\", \"metric\": \"lat_ns\", \"rows\": [\n"
	"      { \"test\": \"r1\", \"point\": { \"workload.n\": 1 }, \"values\": {} } ] } ],\n"
	"  \"claims\": [\n"
	"    {\"id\": \"boot-ok\", \"kind\": \"spread\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"kernels\": [\"a\"], \"tolerance\": 0.05, \"per_boot\": true},\n"
	"    {\"id\": \"boot-bad\", \"kind\": \"spread\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"kernels\": [\"a\"], \"tolerance\": 0.03, \"per_boot\": true},\n"
	"    {\"id\": \"boot-tie\", \"kind\": \"spread\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"kernels\": [\"b\"], \"tolerance\": 0.05, \"per_boot\": true},\n"
	"    {\"id\": \"boot-none\", \"kind\": \"spread\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"kernels\": [\"c\"], \"tolerance\": 0.05, \"per_boot\": true},\n"
	"    {\"id\": \"pooled\", \"kind\": \"spread\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"kernels\": [\"a\"], \"tolerance\": 0.05},\n"
	"    {\"id\": \"stays-up\", \"kind\": \"stays\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"baseline\": \"a\", \"kernel\": \"d\", \"expect\": \"higher\"},\n"
	"    {\"id\": \"stays-down\", \"kind\": \"stays\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"baseline\": \"a\", \"kernel\": \"d\", \"expect\": \"lower\"},\n"
	"    {\"id\": \"stays-single\", \"kind\": \"stays\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"baseline\": \"a\", \"kernel\": \"c\", \"expect\": \"higher\"},\n"
	"    {\"id\": \"stays-typo\", \"kind\": \"stays\", \"table\": \"rep\", \"row\": \"r1\", \"metric\": \"lat_ns\", \"baseline\": \"a\", \"kernel\": \"d\", \"expect\": \"better\"}\n"
	"  ] }\n";

static void per_boot_spread(void **state)
{
	(void)state;
	static const struct {
		const char *k;
		int run;
		double v;
	} rv[] = { { "a", 0, 100 }, { "a", 0, 102 }, { "a", 1, 100 }, { "a", 1, 104 }, { "a", 2, 100 },
		   { "a", 2, 120 }, { "b", 0, 100 }, { "b", 0, 100 }, { "b", 1, 100 }, { "b", 1, 150 },
		   { "c", 0, 100 }, { "c", 1, 130 }, { "d", 0, 101 }, { "d", 0, 103 }, { "d", 1, 106 },
		   { "d", 1, 103 }, { "d", 2, 130 }, { "d", 2, 121 } };
	json_t *runs = json_array();
	for (size_t i = 0; i < sizeof rv / sizeof rv[0]; i++)
		json_array_append_new(runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{s:f},s:{},s:f}",
						      "kernel", rv[i].k, "point", "workload.n", 1, "point_index",
						      (int)(i % 2), "run", rv[i].run, "seed", 1, "primary", "name",
						      "lat_ns", "value", rv[i].v, "unit", "ns", "better", "lower",
						      "metrics", "lat_ns", rv[i].v, "vmstat", "sim_time", 1.0));
	write_crafted("runs7", runs, 3, NULL);
	char path[512];
	snprintf(path, sizeof path, "%s/pub7", dir);
	mkdir(path, 0777);
	write_text("pub7/907.json", per_boot_published);
	assert_int_equal(sh("reproduce --no-run -q --published %s/pub7 --runs %s/runs7 --out %s/o7", dir, dir, dir), 0);
	snprintf(path, sizeof path, "%s/o7/reproduce.json", dir);
	json_error_t je;
	json_t *out = json_load_file(path, 0, &je);
	assert_non_null(out);
	json_t *s = json_array_get(json_object_get(out, "seeds"), 0);
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "boot-ok"), "verdict")), "reproduced");
	assert_string_equal(detail_of(s, "boot-ok"),
			    "r1 a lat_ns: 2 of 3 boots' back-to-back runs within 5% of their mean (worst 18.18%)");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "boot-bad"), "verdict")), "not reproduced");
	assert_string_equal(detail_of(s, "boot-bad"),
			    "r1 a lat_ns: 1 of 3 boots' back-to-back runs within 3% of their mean (worst 18.18%) [too spread]");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "boot-tie"), "verdict")), "inconclusive");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "boot-none"), "verdict")), "inconclusive");
	assert_non_null(strstr(detail_of(s, "boot-none"), "0 of 0 boots'"));
	/* pooled over the boots: 100 .. 120 around a mean of 104.33 */
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "pooled"), "verdict")), "not reproduced");
	assert_non_null(strstr(detail_of(s, "pooled"), "6 runs spread 19.17% of their mean"));
	/* stays: d above a on average in all 3 boot pairs (run for run in 2); below in none */
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "stays-up"), "verdict")), "reproduced");
	assert_string_equal(detail_of(s, "stays-up"),
			    "r1 d lat_ns vs a: higher on average over the back-to-back runs in 3 of 3 boot pairs; every "
			    "run higher than the baseline's at the same place in 2 (worst run -1.0%)");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "stays-down"), "verdict")), "not reproduced");
	assert_string_equal(detail_of(s, "stays-down"),
			    "r1 d lat_ns vs a: lower on average over the back-to-back runs in 0 of 3 boot pairs; every "
			    "run lower than the baseline's at the same place in 0 (worst run +30.0%) [not in most boot pairs]");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "stays-single"), "verdict")), "not checked");
	assert_string_equal(json_string_value(json_object_get(claim_by_id(s, "stays-typo"), "verdict")), "not checked");
	json_decref(out);
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_reproduce: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdicts),
		cmocka_unit_test(tables_form),
		cmocka_unit_test(what_if_metrics),
		cmocka_unit_test(noise),
		cmocka_unit_test(three_valued),
		cmocka_unit_test(base_seeds),
		cmocka_unit_test(real_run),
		cmocka_unit_test(several_scenarios),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(per_boot_spread),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
