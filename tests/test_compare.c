/*
 * test_compare.c - `mmemu compare` on crafted results files (black box).
 *
 * Design: results files with known run values are written with jansson into a
 * private temporary directory; the binary ($MMEMU) is run through the shell with
 * stdout and stderr in files; --format json is parsed back and its statistics
 * compared with hand-computed values.  The text, markdown and csv printers are
 * checked for mmtests' marks (a starred mean when the t-test is significant,
 * parentheses otherwise); kernels of one file with the same runs are compared by
 * the paired t-test, columns of different files by Welch's.  `mmemu plot` is checked on the same files (SVG
 * structure, escaping, determinism).  Every usage error of both commands exits 2
 * with one line on stderr and nothing on stdout.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/clitest.h"

static int lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A results file: one kernel, one point {"workload.x": 1}, one run per value. */
static void write_results(const char *name, const char *kernel, const char *metric, const char *better,
			  const double *v, int n, double fault_base)
{
	json_t *runs = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},"
						      "s:{s:f},s:{s:i,s:i},s:f}",
						      "kernel", kernel, "point", "workload.x", 1, "point_index", 0,
						      "run", i, "seed", 1, "primary", "name", metric, "value", v[i],
						      "unit", "u", "better", better, "metrics", "side", 2.0 * v[i],
						      "vmstat", "pgfault", (int)(fault_base + i), "zero", 0, "sim_time",
						      10.0));
	size_t k;
	json_t *r;
	json_array_foreach(runs, k, r)
		json_object_set_new(r, "series", json_pack("{s:{s:[f,f,f],s:[f,f,f]}}", "s", "t", 0.0, 1.0, 2.0, "v",
							   v[k], v[k] + 1, v[k]));
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name",
			      name, "file", name, "hash", "0", "runs", n, "seed", 1, "sweep", "workload.x", 1,
			      "runs", runs, "host", "wall_seconds", 0.0, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static json_t *compare_json(const char *files)
{
	assert_int_equal(sh("compare --format json %s", files), 0);
	char *out = slurp("out");
	json_error_t je;
	json_t *d = json_loads(out, 0, &je);
	free(out);
	assert_non_null(d);
	return d;
}

static json_t *metric(json_t *d, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(d, "metrics"), i, m) if (!strcmp(json_string_value(json_object_get(m, "name")), name)) return m;
	return NULL;
}

static json_t *cellof(json_t *m, int col)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(m, "points"), 0), "columns"), (size_t)col);
}

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void higher_better_significant(void **state)
{
	const double a[] = { 100, 110, 90 }, b[] = { 120, 130, 125 };
	write_results("a.json", "base", "thr", "higher", a, 3, 10);
	write_results("b.json", "new", "thr", "higher", b, 3, 20);
	char files[600];
	snprintf(files, sizeof files, "%s/a.json %s/b.json", dir, dir);
	json_t *d = compare_json(files);
	json_t *m = metric(d, "thr");
	assert_non_null(m);
	assert_string_equal(json_string_value(json_object_get(m, "better")), "higher");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(m, "points"), 0), "mean_stat")), "hmean");
	json_t *c0 = cellof(m, 0), *c1 = cellof(m, 1);
	double h0 = 3 / (1 / 100.0 + 1 / 110.0 + 1 / 90.0), h1 = 3 / (1 / 120.0 + 1 / 130.0 + 1 / 125.0);
	NEAR(num(c0, "min"), 90, 1e-9);
	NEAR(num(c0, "max"), 110, 1e-9);
	NEAR(num(c0, "amean"), 100, 1e-9);
	NEAR(num(c0, "hmean"), h0, 1e-9);
	NEAR(num(c0, "mean"), h0, 1e-9);
	NEAR(num(c0, "stddev"), 10, 1e-9);          /* sum sq dev 200, n-1 = 2 */
	NEAR(num(c0, "coeffvar"), 10, 1e-9);        /* 100 * 10 / 100 */
	NEAR(num(c1, "stddev"), 5, 1e-9);
	json_t *p1 = json_object_get(c1, "pct");
	NEAR(num(p1, "mean"), 100 * (h1 / h0 - 1), 1e-9);   /* positive: better */
	NEAR(num(p1, "min"), 100 * (120.0 / 90 - 1), 1e-9);
	NEAR(num(p1, "stddev"), 100 * (1 - 5.0 / 10), 1e-9); /* lower spread is better */
	assert_true(num(p1, "mean") > 0);
	assert_true(json_is_true(json_object_get(c1, "significant")));
	assert_true(json_is_null(json_object_get(c0, "significant")));
	/* t = -25 / sqrt(100/3 + 25/3), p < 0.05 */
	assert_true(num(c1, "p") < 0.05);
	/* secondary metric: direction unknown, plain change */
	json_t *side = metric(d, "side");
	assert_non_null(side);
	assert_string_equal(json_string_value(json_object_get(side, "better")), "unknown");
	NEAR(num(json_object_get(cellof(side, 1), "pct"), "mean"), 25, 1e-9);
	/* monitors: non-zero counters only */
	assert_non_null(metric(d, "pgfault"));
	assert_null(metric(d, "zero"));
	NEAR(num(cellof(metric(d, "pgfault"), 1), "amean"), 21, 1e-9);
	json_decref(d);

	/* text: the starred mean, mmtests style */
	assert_int_equal(sh("compare %s", files), 0);
	char *out = slurp("out");
	char want[64];
	snprintf(want, sizeof want, "*%7.2f%%*", 100 * (h1 / h0 - 1));
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "Hmean"));
	assert_non_null(strstr(out, "(   0.00%)"));
	assert_non_null(strstr(out, "Monitors"));
	free(out);
	assert_int_equal(sh("compare --format markdown %s", files), 0);
	out = slurp("out");
	assert_non_null(strstr(out, "| Stat"));
	assert_non_null(strstr(out, "\\*"));
	free(out);
	assert_int_equal(sh("compare --format csv %s", files), 0);
	out = slurp("out");
	assert_true(strncmp(out, "metric,kind,better,point,stat,column,runs,value,pct,significant,p\n", 60) == 0);
	assert_non_null(strstr(out, "thr,primary,higher,\"x=1\",Hmean,\"new\",3,"));
	free(out);
}

static void lower_better_not_significant(void **state)
{
	const double a[] = { 10, 11, 12 }, b[] = { 12, 13, 14 };
	write_results("c.json", "base", "runtime", "lower", a, 3, 10);
	write_results("d.json", "base", "runtime", "lower", b, 3, 10);
	char files[600];
	snprintf(files, sizeof files, "%s/c.json %s/d.json", dir, dir);
	json_t *d = compare_json(files);
	json_t *m = metric(d, "runtime");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(m, "points"), 0), "mean_stat")), "amean");
	/* the same kernel name in two files: columns are FILE/KERNEL */
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(d, "columns"), 0), "label")), "c/base");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(d, "columns"), 1), "label")), "d/base");
	json_t *c1 = cellof(m, 1);
	NEAR(num(json_object_get(c1, "pct"), "mean"), 100 * (1 - 13.0 / 11), 1e-9);  /* slower: negative */
	/* t = -2/sqrt(2/3), df = 4: p = 0.0704 */
	NEAR(num(c1, "p"), 0.07048399691021993, 1e-6);
	assert_true(json_is_false(json_object_get(c1, "significant")));
	json_decref(d);
	assert_int_equal(sh("compare %s", files), 0);
	char *out = slurp("out");
	char want[64];
	snprintf(want, sizeof want, "(%7.2f%%)", 100 * (1 - 13.0 / 11));
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "%*"));
	free(out);
}

/* Two kernels in one results file, runs 0..3 of base seed 1 each: paired.  The
 * samples of test_stats.c's paired_vs_welch: the paired t-test gives p = 1 -
 * (2/pi)(0.3 + atan 3) = 0.013846 (significant), Welch's would give 0.876.  The
 * same values in two files are not paired (Welch, not significant). */
static void paired_in_one_file(void **state)
{
	(void)state;
	const double v[2][4] = { { 10, 20, 30, 40 }, { 11, 22, 31, 42 } };
	json_t *runs = json_array();
	for (int k = 0; k < 2; k++)
		for (int r = 0; r < 4; r++)
			json_array_append_new(runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{},s:{},s:f}",
							      "kernel", k ? "new" : "base", "point", "workload.x", 1,
							      "point_index", 0, "run", r, "seed", 1, "primary", "name",
							      "thr", "value", v[k][r], "unit", "u", "better", "higher",
							      "metrics", "vmstat", "sim_time", 1.0));
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name", "pair",
			      "file", "pair.json", "hash", "0", "runs", 4, "seed", 1, "sweep", "workload.x", 1, "runs",
			      runs, "host", "wall_seconds", 0.0, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/pair.json", dir);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
	json_t *o = compare_json(path);
	json_t *c1 = cellof(metric(o, "thr"), 1);
	assert_string_equal(json_string_value(json_object_get(c1, "test")), "paired");
	NEAR(num(c1, "p"), 1 - 2 / M_PI * (0.3 + atan(3.0)), 1e-9);
	assert_true(json_is_true(json_object_get(c1, "significant")));
	json_decref(o);
	assert_int_equal(sh("compare %s", path), 0);
	char *out = slurp("out");
	assert_non_null(strstr(out, "significance (starred mean, 95%): 1 paired t-test (kernels of one results file"));
	assert_non_null(strstr(out, "0 Welch's t-tests (unpaired samples)"));
	free(out);
	/* the same numbers in two files: unpaired */
	write_results("pa.json", "base", "thr", "higher", v[0], 4, 1);
	write_results("pb.json", "new", "thr", "higher", v[1], 4, 1);
	char files[600];
	snprintf(files, sizeof files, "%s/pa.json %s/pb.json", dir, dir);
	o = compare_json(files);
	c1 = cellof(metric(o, "thr"), 1);
	assert_string_equal(json_string_value(json_object_get(c1, "test")), "welch");
	assert_true(num(c1, "p") > 0.87 && num(c1, "p") < 0.88);
	assert_true(json_is_false(json_object_get(c1, "significant")));
	json_decref(o);
	assert_int_equal(sh("compare --format csv %s", path), 0);
	out = slurp("out");
	assert_non_null(strstr(out, ",significant,p,test\n"));
	assert_non_null(strstr(out, ",yes,0.0138"));
	assert_non_null(strstr(out, ",paired\n"));
	free(out);
}

static void single_run_no_mark(void **state)
{
	const double a[] = { 10 }, b[] = { 20 };
	write_results("e.json", "k1", "runtime", "lower", a, 1, 1);
	write_results("f.json", "k2", "runtime", "lower", b, 1, 1);
	char files[600];
	snprintf(files, sizeof files, "%s/e.json %s/f.json", dir, dir);
	json_t *d = compare_json(files);
	json_t *c1 = cellof(metric(d, "runtime"), 1);
	assert_true(json_is_null(json_object_get(c1, "significant")));
	NEAR(num(json_object_get(c1, "pct"), "mean"), -100, 1e-9);
	json_decref(d);
}

static void usage_errors(void **state)
{
	const double a[] = { 1, 2 };
	write_results("g.json", "k", "m", "lower", a, 2, 0);
	FILE *f = fopen("/dev/null", "r");
	fclose(f);
	char cmds[][600] = { "compare", "compare --format xml %s/g.json", "compare --bogus %s/g.json",
			     "compare %s/missing.json", "compare %s/notresults.json", "compare --metric nope %s/g.json",
			     "compare --format" };
	char path[512];
	snprintf(path, sizeof path, "%s/notresults.json", dir);
	f = fopen(path, "w");
	fputs("{\"format\": \"other\"}\n", f);
	fclose(f);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char c[800];
		snprintf(c, sizeof c, cmds[i], dir);
		assert_int_equal(sh("%s", c), 2);
		char *out = slurp("out"), *err = slurp("err");
		if (*out || lines(err) != 1)
			fail_msg("%s: stdout \"%s\" stderr \"%s\"", c, out, err);
		free(out);
		free(err);
	}
}

static void plot_svg(void **state)
{
	const double a[] = { 100, 110, 90 };
	write_results("p.json", "base", "thr", "higher", a, 3, 10);
	assert_int_equal(sh("plot %s/p.json --x workload.x --y thr -o %s/p.svg --title \"A <b> & c\"", dir, dir), 0);
	char *svg = slurp("p.svg");
	assert_true(strncmp(svg, "<?xml", 5) == 0);
	assert_non_null(strstr(svg, "<polyline"));
	assert_non_null(strstr(svg, ">base</text>"));                  /* legend */
	assert_non_null(strstr(svg, "A &lt;b&gt; &amp; c"));          /* escaped title */
	assert_non_null(strstr(svg, "thr (u, higher is better)"));     /* y label */
	assert_non_null(strstr(svg, ">workload.x</text>"));            /* x label */
	assert_non_null(strstr(svg, "M"));                              /* the min/max bar */
	assert_non_null(strstr(svg, "<title>base at 1: 100</title>"));   /* a point's value */
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	/* deterministic: the same input gives the same bytes */
	assert_int_equal(sh("plot %s/p.json --x workload.x --y thr -o %s/p2.svg --title \"A <b> & c\"", dir, dir), 0);
	char *x = slurp("p.svg"), *y = slurp("p2.svg");
	assert_string_equal(x, y);
	free(x);
	free(y);
	assert_int_equal(sh("plot %s/p.json --series s --point 0 --run 1 -o %s/s.svg", dir, dir), 0);
	svg = slurp("s.svg");
	assert_non_null(strstr(svg, "simulated time (s)"));
	assert_non_null(strstr(svg, "<polyline"));
	free(svg);
	char cmds[][600] = { "plot", "plot %s/p.json --x workload.x --y thr", "plot %s/p.json --x nope --y thr -o %s/e.svg",
			     "plot %s/p.json --x workload.x --y nope -o %s/e.svg", "plot %s/p.json --series s --x workload.x -o %s/e.svg",
			     "plot %s/p.json --series nope -o %s/e.svg", "plot %s/p.json --series s --point 9 -o %s/e.svg",
			     "plot %s/p.json --series s --point x -o %s/e.svg", "plot %s/missing.json --x a --y b -o %s/e.svg",
			     "plot %s/p.json --y thr -o %s/e.svg", "plot --bogus" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char c[900];
		snprintf(c, sizeof c, cmds[i], dir, dir);
		assert_int_equal(sh("%s", c), 2);
		char *out = slurp("out"), *err = slurp("err");
		if (*out || lines(err) != 1)
			fail_msg("%s: stdout \"%s\" stderr \"%s\"", c, out, err);
		free(out);
		free(err);
	}
	/* a chained run's steps are points of their own: a series only the second
	 * step has is named with its point */
	assert_int_equal(put("chain.json",
			     "{\"format\": \"mmemu-results/1\", \"runs\": ["
			     "{\"kernel\": \"k\", \"point\": {\"workload.type\": \"untar\"}, \"point_index\": 0, \"run\": 0,"
			     " \"primary\": {\"value\": 1}, \"series\": {}},"
			     "{\"kernel\": \"k\", \"point\": {\"workload.type\": \"highalloc\"}, \"point_index\": 1, \"run\": 0,"
			     " \"primary\": {\"value\": 2}, \"series\": {\"ok\": {\"t\": [1, 2], \"v\": [3, 4]}}}]}\n"),
			 0);
	assert_int_equal(sh("plot %s/chain.json --series ok -o %s/c.svg", dir, dir), 2);
	char *err = slurp("err");
	assert_non_null(strstr(err, "no series \"ok\" at --point 0"));
	assert_non_null(strstr(err, "(it is at --point 1)"));
	free(err);
	assert_int_equal(sh("plot %s/chain.json --series ok --point 1 -o %s/c.svg", dir, dir), 0);
}

/* 40 kernels in one results file: 42 columns, more than the 32 bits of the
 * table's left-alignment mask (issue 27, item 12: shifting it by 32 or more was
 * undefined, and on x86 made columns 32 and 33 left-aligned).  Only Stat and
 * Metric are left-aligned; every kernel column is right-aligned. */
static void forty_kernels(void **state)
{
	(void)state;
	enum { NK = 40 };
	json_t *runs = json_array();
	for (int k = 0; k < NK; k++)
		for (int r = 0; r < 2; r++) {
			char name[16];
			snprintf(name, sizeof name, "k%02d", k);
			json_array_append_new(runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f,s:s,s:s},s:{},s:{},s:f}",
							      "kernel", name, "point", "workload.x", 1, "point_index", 0,
							      "run", r, "seed", 1, "primary", "name", "thr", "value",
							      100.0 + k + r, "unit", "u", "better", "higher", "metrics",
							      "vmstat", "sim_time", 1.0));
		}
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name", "forty",
			      "file", "forty.json", "hash", "0", "runs", 2, "seed", 1, "sweep", "workload.x", 1, "runs",
			      runs, "host", "wall_seconds", 0.0, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/forty.json", dir);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
	assert_int_equal(sh("compare --format markdown %s", path), 0);
	char *out = slurp("out");
	char *sep = strstr(out, "\n| --- | --- |");
	assert_non_null(sep);
	sep++;
	int left = 0, right = 0;
	for (const char *p = sep; *p && *p != '\n'; p++) {
		left += !strncmp(p, "| --- |", 7);
		right += !strncmp(p, "| ---: |", 8);
	}
	assert_int_equal(left, 2);
	assert_int_equal(right, NK);
	free(out);
	assert_int_equal(sh("compare %s", path), 0);
	out = slurp("out");
	assert_non_null(strstr(out, "k39"));
	free(out);
}

static int setup(void **state)
{
	return scratch_dir("compare");
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_compare: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(higher_better_significant),
		cmocka_unit_test(lower_better_not_significant),
		cmocka_unit_test(paired_in_one_file),
		cmocka_unit_test(single_run_no_mark),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(plot_svg),
		cmocka_unit_test(forty_kernels),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
