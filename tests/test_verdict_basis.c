/*
 * test_verdict_basis.c - what `mmemu reproduce`'s verdicts rest on and how
 * fragile they are (black box; docs/compare.md, "Basis" and "Fragility").
 *
 * Design: a crafted results file with four kernels over workload.n = 1, 2 and
 * three paired runs each: "same" is bit-identical to "base" in every run,
 * "nearly" differs from it in one run by 1e-9, "new" by 10.  One claim per
 * basis rule (detected by construction, default mechanism, declared
 * calibrated, a declared mechanism overruled by the detection, a declared
 * input) with the exact summary counts, the one-line report and "deterministic
 * in the model"; bad declarations are usage errors.  Then a sensitivity flip on
 * a crafted pair: a tiny trace scenario written here (FIFO against OPT, two
 * runs) declares workload.frames and the disk's seek time as judgement
 * constants; at 4000 frames every page fits, OPT's advantage vanishes and the
 * direction claim flips, while a claim that OPT is never slower stays robust.
 * The marks are kept with the results and shown by a later `reproduce
 * --no-run`.  A `*` path (kernels.*.vm.swappiness) reruns with the value set
 * in every kernel.  Last, the retyped seed claims against the threads' own figures.
 */
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

static void write_text(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static json_t *load(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	if (!d)
		fail_msg("%s: %s", path, je.text);
	return d;
}

/* The claim @id of the first table (single-table form) of the first seed of @d. */
static json_t *claim(json_t *d, const char *id)
{
	json_t *sd = json_array_get(json_object_get(d, "seeds"), 0);
	json_t *t = json_array_get(json_object_get(sd, "tables"), 0);
	json_t *cls = t ? json_object_get(t, "claims") : json_object_get(sd, "claims"), *c;
	size_t i;
	json_array_foreach(cls, i, c) if (!strcmp(json_string_value(json_object_get(c, "id")), id)) return c;
	fail_msg("no claim %s", id);
	return NULL;
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "(none)";
}

static const char basis_published[] =
	"{ \"seed\": \"910\", \"title\": \"basis\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	"  \"metric\": \"thr\", \"unit\": \"ops\", \"better\": \"higher\",\n"
	"  \"inputs\": { \"cfg\": \"the scenario's workload.cfg\" },\n"
	"  \"table\": { \"point_key\": \"workload.n\", \"columns\": [\"base\", \"new\"],\n"
	"    \"rows\": [ {\"point\": 1, \"values\": [100, 110]}, {\"point\": 2, \"values\": [200, 210]} ] },\n"
	"  \"claims\": [\n"
	"    {\"id\": \"same-dir\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"same\", \"expect\": \"better\"},\n"
	"    {\"id\": \"new-dir\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect\": \"better\"},\n"
	"    {\"id\": \"nearly-rel\", \"kind\": \"relative\", \"baseline\": \"base\", \"kernel\": \"nearly\", \"expect_range\": [-0.01, 0.01]},\n"
	"    {\"id\": \"cal\", \"kind\": \"value\", \"expect\": {\"base\": [100, 202]}, \"points\": [1],\n"
	"     \"basis\": \"calibrated\", \"basis_reason\": \"workload.cycles fitted on base's level\"},\n"
	"    {\"id\": \"overruled\", \"kind\": \"relative\", \"baseline\": \"base\", \"kernel\": \"same\", \"expect_range\": [-0.01, 0.01],\n"
	"     \"basis\": \"mechanism\", \"basis_reason\": \"said to differ\"},\n"
	"    {\"id\": \"input\", \"kind\": \"relative\", \"metric\": \"cfg\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect_range\": [0.05, 0.15]},\n"
	"    {\"id\": \"absent\", \"kind\": \"direction\", \"baseline\": \"base\", \"kernel\": \"new\", \"expect\": \"better\",\n"
	"     \"not_modelled\": \"no such benchmark in the model\"}\n"
	"  ] }\n";

/* thr and cfg per (kernel, n, run): same = base bit for bit, nearly = base but
 * run 2 at n = 2 by 1e-9, new = base + 10 (cfg 5.5 against 5). */
static void write_basis_emulated(void)
{
	const char *kn[] = { "base", "same", "nearly", "new" };
	json_t *runs = json_array();
	for (int k = 0; k < 4; k++)
		for (int n = 1; n <= 2; n++)
			for (int run = 0; run < 3; run++) {
				double thr = 100.0 * n + run + (k == 3 ? 10 : 0) + (k == 2 && n == 2 && run == 2 ? 1e-9 : 0);
				json_array_append_new(runs, json_pack("{s:s,s:{s:i},s:i,s:i,s:i,s:{s:s,s:f},s:{s:f},s:{},s:{},s:f}",
								      "kernel", kn[k], "point", "workload.n", n, "point_index",
								      n - 1, "run", run, "seed", 1, "primary", "name", "thr",
								      "value", thr, "metrics", "cfg", k == 3 ? 5.5 : 5.0,
								      "vmstat", "series", "sim_time", 1.0));
			}
	json_t *d = json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:s,s:s,s:i,s:i},s:{s:[i,i]},s:o,s:{s:f,s:[]}}", "format",
			      "mmemu-results/1", "tool", "name", "mmemu", "version", "0", "scenario", "name", "basis",
			      "file", "trace-policies.json", "hash", "0", "runs", 3, "seed", 1, "sweep", "workload.n", 1, 2,
			      "runs", runs, "host", "wall_seconds", 12.5, "runs");
	char path[512];
	snprintf(path, sizeof path, "%s/runs/trace-policies.json", dir);
	assert_int_equal(json_dump_file(d, path, JSON_INDENT(1)), 0);
	json_decref(d);
}

static void basis_rules(void **state)
{
	(void)state;
	write_text("pub/910.json", basis_published);
	write_basis_emulated();
	assert_int_equal(sh("reproduce --no-run --published %s/pub --runs %s/runs --out %s/o", dir, dir, dir), 0);
	json_t *d = load("o/reproduce.json");
	json_t *c = claim(d, "same-dir");
	assert_string_equal(str(c, "verdict"), "not reproduced");
	assert_string_equal(str(c, "basis"), "by construction");
	assert_string_equal(str(c, "basis_source"), "detected");
	assert_non_null(strstr(str(c, "basis_reason"),
			       "thr is bit-identical for base and same in every paired run (6 runs, 2 comparisons)"));
	assert_string_equal(str(json_object_get(c, "headline"), "emulated"), "+0.0% (deterministic in the model)");
	c = claim(d, "new-dir");
	assert_string_equal(str(c, "verdict"), "reproduced");
	assert_string_equal(str(c, "basis"), "mechanism");
	assert_string_equal(str(c, "basis_source"), "default");
	c = claim(d, "nearly-rel");   /* one run 1e-9 away: not identical */
	assert_string_equal(str(c, "verdict"), "reproduced");
	assert_string_equal(str(c, "basis"), "mechanism");
	c = claim(d, "cal");
	assert_string_equal(str(c, "basis"), "calibrated");
	assert_string_equal(str(c, "basis_source"), "declared");
	assert_string_equal(str(c, "basis_reason"), "workload.cycles fitted on base's level");
	c = claim(d, "overruled");
	assert_string_equal(str(c, "basis"), "by construction");
	assert_string_equal(str(c, "basis_source"), "detected");
	assert_non_null(strstr(str(c, "basis_reason"), "; said to differ"));
	c = claim(d, "input");
	assert_string_equal(str(c, "verdict"), "reproduced");
	assert_string_equal(str(c, "basis"), "by construction");
	assert_string_equal(str(c, "basis_reason"), "cfg is an input of the model: the scenario's workload.cfg");
	json_t *sm = json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "summary");
	json_t *by = json_object_get(sm, "reproduced_by_basis");
	assert_int_equal(json_integer_value(json_object_get(sm, "reproduced")), 5);
	assert_int_equal(json_integer_value(json_object_get(sm, "not_reproduced")), 1);
	assert_int_equal(json_integer_value(json_object_get(by, "mechanism")), 2);
	assert_int_equal(json_integer_value(json_object_get(by, "by construction")), 2);
	assert_int_equal(json_integer_value(json_object_get(by, "calibrated")), 1);
	c = claim(d, "absent");   /* judged "better" by the runs, but said not to be modelled */
	assert_string_equal(str(c, "verdict"), "not checked");
	assert_string_equal(str(c, "detail"), "not modelled: no such benchmark in the model");
	assert_int_equal(json_integer_value(json_object_get(sm, "not_checked")), 1);
	assert_int_equal(json_integer_value(json_object_get(sm, "untested")), 7);
	json_decref(d);
	/* the short report: one line per claim, no noise lists; the counts by basis */
	char *out = slurp("out");
	assert_non_null(strstr(out, "    not reproduced  by construction  same-dir "));
	assert_non_null(strstr(out, "  summary: 7 claims: 5 reproduced (2 by mechanism, 2 by construction, 1 calibrated), "
				    "1 not reproduced, 0 inconclusive, 1 not checked; 0 fragile, 0 robust, 7 untested"));
	assert_null(strstr(out, "run-to-run noise"));
	assert_null(strstr(out, "p=0"));
	free(out);
	/* --verbose: each claim's basis and reason, the noise */
	assert_int_equal(sh("reproduce -v --no-run --published %s/pub --runs %s/runs --out %s/o", dir, dir, dir), 0);
	out = slurp("out");
	assert_non_null(strstr(out, "      basis: calibrated (declared: workload.cycles fitted on base's level)\n"));
	assert_non_null(strstr(out, "run-to-run noise"));
	assert_non_null(strstr(out, "deterministic in the model (no run differs from another)"));
	free(out);
}

static void basis_errors(void **state)
{
	(void)state;
	write_basis_emulated();
	static const struct {
		const char *edit, *want;
	} bad[] = {
		{ "\"basis\": \"magic\", \"basis_reason\": \"r\",", "claims[0].basis: expected \"mechanism\", \"by construction\" or \"calibrated\"" },
		{ "\"basis\": \"calibrated\",", "claims[0].basis_reason: missing: a declared basis needs a reason" },
		{ "\"basis\": \"calibrated\", \"basis_reason\": \"\",", "claims[0].basis_reason: expected a non-empty string" },
		{ "\"evidence\": 3,", "claims[0].evidence: expected a non-empty string" },
		{ "\"not_modelled\": \"\",", "claims[0].not_modelled: expected a non-empty string" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[4000];
		const char *at = strstr(basis_published, "{\"id\": \"same-dir\",");
		snprintf(text, sizeof text, "%.*s{%s%s", (int)(at - basis_published), basis_published, bad[i].edit, at + 1);
		write_text("bad/910.json", text);
		assert_int_equal(sh("reproduce --no-run --published %s/bad --runs %s/runs --out %s/o", dir, dir, dir), 2);
		char *err = slurp("err"), *out = slurp("out");
		if (!strstr(err, bad[i].want) || strchr(err, '\n') != err + strlen(err) - 1 || *out)
			fail_msg("case %zu: stderr \"%s\" stdout \"%s\"", i, err, out);
		free(err);
		free(out);
	}
	write_text("bad/910.json", "{ \"seed\": \"910\", \"scenario\": \"x.json\", \"metric\": \"m\", \"inputs\": {\"cfg\": 3},"
				   " \"table\": { \"point_key\": \"k\", \"columns\": [\"x\"], \"rows\": [] } }\n");
	assert_int_equal(sh("reproduce --no-run --published %s/bad --runs %s/runs --out %s/o", dir, dir, dir), 2);
	char *err = slurp("err");
	assert_non_null(strstr(err, "inputs.cfg: expected a non-empty string naming the constant"));
	free(err);
	write_text("bad/910.json", "{}\n");   /* leave nothing for the next test to trip on */
}

/* The crafted pair for sensitivity: FIFO and OPT on the teaching trace at one
 * frame count, two runs; the judgement constants; the published claims. */
static void write_sens(const char *judgement)
{
	char text[3000];
	snprintf(text, sizeof text,
		 "{ \"name\": \"sens\", \"machine\": { \"arch\": \"x86_64\", \"cpus\": 1, \"clock\": \"1GHz\", \"memory\": \"64MiB\",\n"
		 "    \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\", \"seek_avg\": \"8ms\",\n"
		 "                 \"track_to_track\": \"1ms\", \"rpm\": 7200, \"size\": \"40GB\" } ] },\n"
		 "  \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\", \"vm\": { \"swappiness\": 60 } },\n"
		 "               \"opt\": { \"reclaim\": \"opt\", \"vm\": { \"swappiness\": 60 } } },\n"
		 "  \"workload\": { \"type\": \"trace\", \"file\": \"%s/scenarios/teaching/zipf-20k.trace\", \"frames\": 250 },\n"
		 "  \"sweep\": { \"machine.clock\": [\"1GHz\"] },\n"
		 "  \"runs\": 2, \"seed\": 1,\n"
		 "  \"judgement\": %s }\n",
		 MMEMU_SRCDIR, judgement);
	write_text("sens.json", text);
	snprintf(text, sizeof text,
		 "{ \"seed\": \"920\", \"title\": \"sens\", \"scenario\": \"%s/sens.json\",\n"
		 "  \"metric\": \"runtime\", \"unit\": \"s\", \"better\": \"lower\",\n"
		 "  \"table\": { \"point_key\": \"machine.clock\", \"columns\": [\"fifo\", \"opt\"],\n"
		 "    \"rows\": [ {\"point\": \"1GHz\", \"values\": [70, 45]} ] },\n"
		 "  \"claims\": [ {\"id\": \"opt-faster\", \"kind\": \"direction\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect\": \"better\"},\n"
		 "    {\"id\": \"opt-never-slower\", \"kind\": \"relative\", \"baseline\": \"fifo\", \"kernel\": \"opt\", \"expect_range\": [-1, 0.0001]},\n"
		 "    {\"id\": \"ghost-faster\", \"kind\": \"direction\", \"baseline\": \"fifo\", \"kernel\": \"ghost\", \"expect\": \"better\"} ] }\n",
		 dir);
	write_text("pub2/920.json", text);
}

static void sensitivity_flip(void **state)
{
	(void)state;
	write_sens("[ {\"path\": \"workload.frames\", \"range\": [250, 4000], \"source\": \"crafted: every page fits at 4000\"},\n"
		   "    {\"path\": \"machine.disks.0.seek_avg\", \"range\": [\"4ms\", \"16ms\"], \"source\": \"crafted\"} ]");
	assert_int_equal(sh("reproduce 920 --sensitivity -j 2 -q --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	json_t *s = load("runs2/sensitivity.json");
	json_t *rec = json_object_get(json_object_get(s, "seeds"), "920"), *runs = json_object_get(rec, "runs");
	assert_int_equal(json_object_size(json_object_get(rec, "constants")), 2);
	assert_int_equal(json_array_size(runs), 3);   /* frames 4000 (250 is the scenario's), seek 4 and 16 ms */
	json_t *r0 = json_array_get(runs, 0), *f0 = json_array_get(json_object_get(r0, "flips"), 0);
	assert_string_equal(str(r0, "path"), "workload.frames");
	assert_int_equal(json_integer_value(json_object_get(r0, "value")), 4000);
	assert_int_equal(json_array_size(json_object_get(r0, "flips")), 1);
	assert_string_equal(str(f0, "claim"), "opt-faster");
	assert_string_equal(str(f0, "from"), "reproduced");
	assert_string_equal(str(f0, "to"), "not reproduced");
	assert_int_equal(json_array_size(json_object_get(json_array_get(runs, 1), "flips")), 0);
	assert_int_equal(json_array_size(json_object_get(json_array_get(runs, 2), "flips")), 0);
	json_decref(s);
	json_t *d = load("o2/reproduce.json");
	json_t *c = claim(d, "opt-faster");
	assert_string_equal(str(c, "robustness"), "fragile");
	assert_string_equal(str(c, "robustness_detail"), "flips to not reproduced when workload.frames = 4000");
	assert_string_equal(str(claim(d, "opt-never-slower"), "robustness"), "robust");
	/* a claim that is not checked has nothing to flip: untested, whatever the record */
	assert_string_equal(str(claim(d, "ghost-faster"), "verdict"), "not checked");
	assert_string_equal(str(claim(d, "ghost-faster"), "robustness"), "untested");
	assert_string_equal(str(claim(d, "ghost-faster"), "robustness_detail"), "not checked, so nothing for a rerun to flip");
	json_t *sm = json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "summary");
	assert_int_equal(json_integer_value(json_object_get(sm, "fragile")), 1);
	assert_int_equal(json_integer_value(json_object_get(sm, "robust")), 1);
	json_decref(d);
	/* the marks stay with the results: a plain reproduce shows them, and the table */
	assert_int_equal(sh("reproduce 920 --no-run --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	char *out = slurp("out");
	assert_non_null(strstr(out, "fragile: flips to not reproduced when workload.frames = 4000"));
	assert_non_null(strstr(out, "workload.frames = 250"));
	assert_non_null(strstr(out, "opt-faster: reproduced -> not reproduced"));
	free(out);
	/* one constant only: the other's reruns are kept, the marks unchanged */
	assert_int_equal(sh("reproduce 920 --no-run --sensitivity-only machine.disks.0.seek_avg -q --published %s/pub2 "
			    "--runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	d = load("o2/reproduce.json");
	assert_string_equal(str(claim(d, "opt-faster"), "robustness"), "fragile");
	assert_string_equal(str(claim(d, "opt-never-slower"), "robustness"), "robust");
	json_decref(d);
	s = load("runs2/sensitivity.json");
	assert_int_equal(json_array_size(json_object_get(json_object_get(json_object_get(s, "seeds"), "920"), "runs")), 3);
	json_decref(s);
	/* ... and on its own (a fresh record): no flip yet, but not every end rerun */
	assert_int_equal(sh("reproduce 920 --sensitivity-only machine.disks.0.seek_avg -q --published %s/pub2 "
			    "--runs %s/runs5 --out %s/o2", dir, dir, dir), 0);
	d = load("o2/reproduce.json");
	c = claim(d, "opt-faster");
	assert_string_equal(str(c, "robustness"), "untested");
	assert_string_equal(str(c, "robustness_detail"), "2 of 3 reruns made, none flips it");
	json_decref(d);
	/* --no-run judges kept reruns only: runs5 lacks the frames rerun */
	assert_int_equal(sh("reproduce 920 --no-run --sensitivity -q --published %s/pub2 --runs %s/runs5 --out %s/o5", dir,
			    dir, dir),
			 2);
	out = slurp("err");
	assert_non_null(strstr(out, "runs5/sensitivity/"));
	assert_non_null(strstr(out, "(--sensitivity --no-run judges kept reruns: run without --no-run first)\n"));
	free(out);
		assert_int_equal(sh("reproduce 920 --no-run --sensitivity-only nope --published %s/pub2 --runs %s/runs2 --out %s/o2",
			    dir, dir, dir), 2);
	out = slurp("out");
	assert_string_equal(out, "");
	free(out);
	out = slurp("err");
	assert_non_null(strstr(out, "--sensitivity-only: no selected seed declares the judgement constant nope\n"));
	free(out);
	/* no record in the runs directory: the one shipped beside the published
	 * directory (DIR/sensitivity.json for DIR/pub2) gives the marks */
	char from[512], to[512];
	snprintf(from, sizeof from, "%s/runs2/sensitivity.json", dir);
	snprintf(to, sizeof to, "%s/sensitivity.json", dir);
	assert_int_equal(rename(from, to), 0);
	assert_int_equal(sh("reproduce 920 --no-run -q --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	d = load("o2/reproduce.json");
	assert_string_equal(str(claim(d, "opt-faster"), "robustness"), "fragile");
	assert_string_equal(str(claim(d, "opt-never-slower"), "robustness"), "robust");
	assert_string_equal(str(json_object_get(json_array_get(json_object_get(d, "seeds"), 0), "sensitivity"), "from"), to);
	json_decref(d);
	/* a record in the runs directory wins over the shipped one */
	s = load("sensitivity.json");
	json_array_clear(json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(s, "seeds"), "920"), "runs"), 0), "flips"));
	assert_int_equal(json_dump_file(s, from, 0), 0);
	json_decref(s);
	assert_int_equal(sh("reproduce 920 --no-run -q --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	d = load("o2/reproduce.json");
	assert_string_equal(str(claim(d, "opt-faster"), "robustness"), "robust");
	json_decref(d);
	assert_int_equal(unlink(to), 0);
	assert_int_equal(sh("reproduce 920 --no-run --sensitivity-only workload.frames -q --published %s/pub2 "
			    "--runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	/* a verdict that changed since the sensitivity run is untested again */
	s = load("runs2/sensitivity.json");
	json_object_set_new(json_object_get(json_object_get(json_object_get(s, "seeds"), "920"), "base"), "opt-faster",
			    json_string("inconclusive"));
	char path[512];
	snprintf(path, sizeof path, "%s/runs2/sensitivity.json", dir);
	assert_int_equal(json_dump_file(s, path, 0), 0);
	json_decref(s);
	assert_int_equal(sh("reproduce 920 --no-run -q --published %s/pub2 --runs %s/runs2 --out %s/o2", dir, dir, dir), 0);
	d = load("o2/reproduce.json");
	c = claim(d, "opt-faster");
	assert_string_equal(str(c, "robustness"), "untested");
	assert_string_equal(str(c, "robustness_detail"), "the verdict changed since the sensitivity run");
	json_decref(d);
}

/* A constant every kernel shares (`*`): each rerun sets it in both kernels,
 * and the record names the path as declared. */
static void sensitivity_star(void **state)
{
	(void)state;
	write_sens("[ {\"path\": \"kernels.*.vm.swappiness\", \"range\": [10, 100], \"source\": \"crafted\"} ]");
	assert_int_equal(sh("reproduce 920 --sensitivity -j 2 -q --published %s/pub2 --runs %s/runs7 --out %s/o7", dir, dir, dir), 0);
	json_t *s = load("runs7/sensitivity.json");
	json_t *rec = json_object_get(json_object_get(s, "seeds"), "920"), *runs = json_object_get(rec, "runs");
	assert_non_null(json_object_get(json_object_get(rec, "constants"), "kernels.*.vm.swappiness"));
	assert_int_equal(json_array_size(runs), 2);   /* 10 and 100 (60 is the scenario's) */
	for (size_t i = 0; i < 2; i++) {
		json_t *r = json_array_get(runs, i);
		assert_string_equal(str(r, "path"), "kernels.*.vm.swappiness");
		assert_int_equal(json_array_size(json_object_get(r, "flips")), 0);   /* a trace has no anonymous pages */
	}
	json_decref(s);
	json_t *d = load("runs7/sensitivity/sens.kernels._.vm.swappiness=10.json"), *r;
	size_t i;
	assert_int_equal(json_array_size(json_object_get(d, "runs")), 4);   /* two kernels, two runs */
	json_array_foreach(json_object_get(d, "runs"), i, r) {
		json_t *vm = json_object_get(json_object_get(json_object_get(r, "params"), "kernel"), "vm");
		assert_int_equal(json_integer_value(json_object_get(vm, "swappiness")), 10);
	}
	json_decref(d);
}

static void sensitivity_errors(void **state)
{
	(void)state;
	assert_int_equal(sh("reproduce 920 --sensitivity --seeds 2 --published %s/pub2 --runs %s/runs2", dir, dir), 2);
	char *err = slurp("err");
	assert_non_null(strstr(err, "--sensitivity runs one base seed"));
	free(err);
	static const struct {
		const char *j, *want;
	} bad[] = {
		{ "3", "judgement: expected an array of {path, range, source}" },
		{ "[ {\"path\": \"workload.nope\", \"range\": [1, 2], \"source\": \"s\"} ]", "judgement.0.path: expected the dotted path" },
		{ "[ {\"path\": \"workload.frames\", \"range\": [300, 400], \"source\": \"s\"} ]", "judgement.0.range: expected lo <= the scenario's value <= hi" },
		{ "[ {\"path\": \"workload.frames\", \"range\": [\"1\", \"2\"], \"source\": \"s\"} ]", "judgement.0.range: expected [lo, hi] of the constant's type (numbers)" },
		{ "[ {\"path\": \"workload.frames\", \"range\": [1, 300], \"source\": \"\"} ]", "judgement.0.source: expected a non-empty string" },
		{ "[ {\"path\": \"workload.frames\", \"range\": [1, 300]} ]", "judgement.0: expected an object with exactly path, range and source" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_sens(bad[i].j);
		assert_int_equal(sh("reproduce 920 --sensitivity -q --published %s/pub2 --runs %s/runs9 --out %s/o9", dir, dir, dir), 2);
		char *e = slurp("err");
		if (!strstr(e, bad[i].want) || strchr(e, '\n') != e + strlen(e) - 1)
			fail_msg("case %zu: stderr \"%s\"", i, e);
		free(e);
	}
}

/* The published file of seed @id from the source tree. */
static json_t *seed_file(const char *id)
{
	char path[600];
	snprintf(path, sizeof path, "%s/results/published/%s.json", MMEMU_SRCDIR, id);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	return d;
}

static json_t *seed_claim(json_t *d, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(d, "claims"), i, c) if (!strcmp(str(c, "id"), id)) return c;
	fail_msg("no claim %s", id);
	return NULL;
}

static double row_num(json_t *d, const char *table, const char *row, const char *col, const char *metric)
{
	size_t i, j;
	json_t *t, *r;
	json_array_foreach(json_object_get(d, "tables"), i, t) if (!strcmp(str(t, "id"), table))
		json_array_foreach(json_object_get(t, "rows"), j, r) if (!strcmp(str(r, "test"), row)) {
			json_t *v = json_object_get(json_object_get(r, "values"), col);
			return json_number_value(json_is_object(v) ? json_object_get(v, metric) : v);
		}
	fail_msg("no row %s/%s", table, row);
	return 0;
}

/* The retyped claims, against the figures the threads print (quoted here). */
static void retyped_claims(void **state)
{
	(void)state;
	json_t *d = seed_file("000");
	/* "the slowdown can be as large as 42-54%": 213974/367691 - 1 = -41.8%, 169714/367691 - 1 = -53.8% */
	json_t *c = seed_claim(d, "slowdown-up-to-42-54");
	assert_true(json_is_true(json_object_get(c, "any")));
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) < 213974.0 / 367691 - 1);
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)) > 213974.0 / 367691 - 1);
	c = seed_claim(d, "nodma-slowdown-up-to-54");
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) < 169714.0 / 367691 - 1);
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)) > 169714.0 / 367691 - 1);
	/* the table is one run per kernel and n: 395818 vs 373600 is one run's +5.9% */
	assert_string_equal(str(seed_claim(d, "nodma-faster-at-100"), "evidence"), "single run");
	/* "-20% to +132%": the span's ends are claims of their own */
	assert_true(json_is_true(json_object_get(seed_claim(d, "mlock-nodma-span-low"), "any")));
	assert_true(json_is_true(json_object_get(seed_claim(d, "mlock-nodma-span-high"), "any")));
	assert_string_equal(str(seed_claim(d, "fixed-cold-target-up-to-50"), "evidence"), "sighting");
	/* "certain value of nr_cold_target": the thread names none, so both sightings
	 * are judged over several values, one kernel each, and hold for some */
	c = seed_claim(d, "fixed-cold-target-slower-at-100");
	assert_true(json_is_true(json_object_get(c, "any")));
	assert_true(json_array_size(json_object_get(c, "kernel")) >= 2);
	assert_true(json_equal(json_object_get(c, "kernel"), json_object_get(seed_claim(d, "fixed-cold-target-up-to-50"), "kernel")));
	/* "improves ... by up to 50%": a gain, so a change of exactly 0 is outside */
	c = seed_claim(d, "fixed-cold-target-up-to-50");
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) > 0);
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)) == 0.5);
	json_decref(d);
	d = seed_file("001");
	/* "reaim -w compute ... decreases performance": 9533.34 < 9591.82 and 9324.25 < 9359.76 */
	c = seed_claim(d, "reaim-compute-down");
	assert_true(row_num(d, "reaim-compute", "peak load", "batched", NULL) / 9591.82 - 1 < 0);
	assert_true(json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)) < 0);
	/* Percent CPU 335.8 against 373.6 at -j4: -10.1% */
	c = seed_claim(d, "kernbench-j4-cpu-down");
	double r = row_num(d, "kernbench", "half load -j 4", "batched", "cpu_percent") /
		   row_num(d, "kernbench", "half load -j 4", "stock", "cpu_percent") - 1;
	assert_true(r > json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) &&
		    r < json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)));
	assert_true(335.8 == row_num(d, "kernbench", "half load -j 4", "batched", "cpu_percent"));
	/* one band per row: system time +1.632 s at -j32, +0.294 s at -j4 (5x apart) */
	double j32 = 88.978 - 87.346, j4 = 73.704 - 73.41;
	c = seed_claim(d, "kernbench-sys-up-j32");
	assert_true(j32 > json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) &&
		    j32 < json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)));
	c = seed_claim(d, "kernbench-sys-up-j4");
	assert_true(j4 > json_number_value(json_array_get(json_object_get(c, "expect_range"), 0)) &&
		    j4 < json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)));
	assert_true(j32 > json_number_value(json_array_get(json_object_get(c, "expect_range"), 1)));
	assert_non_null(strstr(str(c, "evidence"), "different hosts"));
	json_decref(d);
	d = seed_file("002");
	/* clean 64: "avg run time 131" below "time ... lo is 309": not bounds, dropped */
	json_t *rows = json_object_get(json_object_get(d, "table"), "rows"), *row;
	size_t i;
	json_array_foreach(rows, i, row) {
		json_int_t pt = json_integer_value(json_object_get(row, "point"));
		json_t *sp = json_object_get(row, "spread");
		if (pt == 64)
			assert_null(json_object_get(json_object_get(sp, "2.5.25"), "run_time_132"));
		if (pt == 9 || pt == 52)
			assert_null(json_object_get(sp, "2.5.25"));
	}
	assert_null(strstr(str(d, "machine"), "ServeRAID 4H with"));
	json_decref(d);
	d = seed_file("003");
	/* "EasyRclm zone allocs 0 97" of "Success allocs 60 106": a share */
	c = seed_claim(d, "zone-mix-easyrclm-pass1");
	assert_string_equal(str(c, "metric"), "pass1_easyrclm/pass1_success");
	assert_true(row_num(d, "highalloc-load", "order 10", "zbuddy", "pass1_easyrclm") == 97);
	assert_true(row_num(d, "highalloc-load", "order 10", "zbuddy", "pass1_success") == 106);
	assert_string_equal(str(seed_claim(d, "kernelcore-1024-beats-clean"), "kind"), "rank");
	assert_string_equal(str(seed_claim(d, "kernelcore-1024-benchmarks-slower"), "kind"), "relative");
	assert_string_equal(str(seed_claim(d, "normal-at-most-8-pass1"), "kind"), "value");
	assert_string_equal(str(seed_claim(d, "pass2-gains"), "metric"), "pass2_success-pass1_success");
	assert_string_equal(str(seed_claim(d, "rest-highmem-mbuddy-over-clean"), "metric"), "rest_highmem");
	assert_true(row_num(d, "highalloc-rest", "order 10", "mbuddy", "rest_highmem") == 158);
	json_decref(d);
	d = seed_file("004");
	/* "I've seen 30% speedups in FFT benchmarks": a sighting at some size */
	c = seed_claim(d, "fft-30");
	assert_true(json_is_true(json_object_get(c, "any")));
	assert_string_equal(str(c, "evidence"), "sighting");
	assert_non_null(strstr(str(seed_claim(d, "tcp-up"), "withdrawn"), "damp out"));
	assert_true(row_num(d, "communication", "lmbench", "stock", "bw_mmap_rd_MBps") == 370);
	assert_string_equal(str(seed_claim(d, "bcopy-same"), "metric"), "bw_bcopy_MBps");
	assert_string_equal(str(seed_claim(d, "fairly-repeatable"), "kind"), "spread");
	/* "Kernel compiles also seem to go 1-2% faster": no table, not modelled on the DS10 */
	c = seed_claim(d, "kernel-compile");
	assert_null(json_object_get(c, "table"));
	assert_non_null(strstr(str(c, "not_modelled"), "no kernel compile"));
	json_decref(d);
}

static int setup(void **state)
{
	(void)state;
	if (scratch_dir("verdict-basis"))
		return -1;
	const char *sub[] = { "pub", "pub2", "runs", "bad", "o", "o2" };
	for (int i = 0; i < 6; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		if (mkdir(p, 0777))
			return -1;
	}
	return 0;
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_verdict_basis: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(basis_rules),
		cmocka_unit_test(basis_errors),
		cmocka_unit_test(sensitivity_flip),
		cmocka_unit_test(sensitivity_star),
		cmocka_unit_test(sensitivity_errors),
		cmocka_unit_test(retyped_claims),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
