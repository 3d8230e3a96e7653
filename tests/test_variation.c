/*
 * test_variation.c - per-host differences (machine.variation) and run-to-run
 * variance.
 *
 * Design: the loader and machine_apply_variation() are tested directly: the factors
 * are a function of (seed, run) only (same inputs, same factors; another run index,
 * other factors), lie in [1 - w, 1 + w], scale the clock and each disk's rates and
 * seek times (not its rpm), and a zero variation leaves the configuration exactly as
 * it was and adds nothing to the effective parameters.  Then black box: a small
 * timed trace scenario with variation, run twice, gives identical runs; its runs
 * echo different factors per run index and the same factor for every kernel at one
 * run index; a scenario declaring zero variation gives the same runs as one
 * without the key.  Bad values are covered by tests/bad/variation-*.json
 * (test_cli.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "models/hw/machine.h"
#include "tests/clitest.h"

static const char machine_json[] =
	"{ \"cpus\": 2, \"clock\": \"1GHz\", \"memory\": \"64MiB\", %s"
	"  \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\","
	"                 \"seek_avg\": \"8ms\", \"track_to_track\": \"1ms\", \"rpm\": 7200 },"
	"               { \"name\": \"sdb\", \"read\": \"40MB/s\", \"write\": \"40MB/s\" } ] }";

/* Load a machine with @var inserted ("" or "\"variation\": {...},"). */
static int load(struct machine_cfg *m, const char *var, struct mm_err *e)
{
	char text[2048];
	snprintf(text, sizeof text, machine_json, var);
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	assert_non_null(o);
	int rc = machine_load(m, o, "t.json", "machine", e);
	json_decref(o);
	return rc;
}

static void percent_parsing(void **state)
{
	(void)state;
	struct { const char *json; int ok; double v; } c[] = {
		{ "\"0.5%\"", 1, 0.005 }, { "\"2%\"", 1, 0.02 }, { "\"50%\"", 1, 0.5 }, { "\"0%\"", 1, 0 },
		{ "\".5 %\"", 1, 0.005 }, { "0", 1, 0 },	      { "0.0", 1, 0 },
		{ "\"-1%\"", 0, 0 },	  { "\"2\"", 0, 0 },	      { "\"2ms\"", 0, 0 }, { "0.02", 0, 0 },
		{ "true", 0, 0 },	  { "\"%\"", 0, 0 },	      { "\"0x10%\"", 0, 0 }, { "\"nan%\"", 0, 0 },
		{ "\"1%%\"", 0, 0 },	  { "null", 0, 0 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		json_error_t je;
		json_t *v = json_loads(c[i].json, JSON_DECODE_ANY, &je);
		assert_non_null(v);
		double d = -1;
		int rc = machine_parse_percent(v, &d);
		if (c[i].ok != (rc == 0))
			fail_msg("%s: rc %d", c[i].json, rc);
		if (c[i].ok)
			assert_true(fabs(d - c[i].v) < 1e-15);
		json_decref(v);
	}
}

static void zero_is_no_variation(void **state)
{
	(void)state;
	struct mm_err e = { "" };
	struct machine_cfg a, b, z;
	assert_int_equal(load(&a, "", &e), 0);
	assert_int_equal(load(&b, "", &e), 0);
	assert_int_equal(load(&z, "\"variation\": {\"clock\": \"0%\", \"disk\": 0, \"sched\": false},", &e), 0);
	assert_false(machine_variation_any(&a));
	assert_false(machine_variation_any(&z));
	machine_apply_variation(&b, 1, 3, NULL);
	machine_apply_variation(&z, 1, 3, NULL);
	assert_true(b.clock == a.clock);
	assert_true(z.clock == a.clock);
	assert_true(b.var.clock_factor == 1.0 && b.var.tick_phase == 0);
	for (int i = 0; i < a.ndisks; i++) {
		assert_memory_equal(&b.disks[i], &a.disks[i], sizeof a.disks[i]);
		assert_memory_equal(&z.disks[i], &a.disks[i], sizeof a.disks[i]);
	}
	json_t *da = machine_dump(&a), *db = machine_dump(&b), *dz = machine_dump(&z);
	assert_true(json_equal(da, db));
	assert_true(json_equal(da, dz));
	assert_null(json_object_get(db, "variation"));
	json_decref(da);
	json_decref(db);
	json_decref(dz);
}

static void factors(void **state)
{
	(void)state;
	struct mm_err e = { "" };
	const char *var = "\"variation\": {\"clock\": \"1%\", \"disk\": \"5%\", \"sched\": true},";
	struct machine_cfg nom, r0, r0b, r1, other_seed;
	assert_int_equal(load(&nom, var, &e), 0);
	assert_int_equal(load(&r0, var, &e), 0);
	assert_int_equal(load(&r0b, var, &e), 0);
	assert_int_equal(load(&r1, var, &e), 0);
	assert_int_equal(load(&other_seed, var, &e), 0);
	assert_true(machine_variation_any(&nom));
	machine_apply_variation(&r0, 7, 0, NULL);
	machine_apply_variation(&r0b, 7, 0, NULL);
	machine_apply_variation(&r0b, 7, 0, NULL);   /* idempotent */
	machine_apply_variation(&r1, 7, 1, NULL);
	machine_apply_variation(&other_seed, 8, 0, NULL);
	/* deterministic per (seed, run) */
	assert_true(r0.clock == r0b.clock);
	assert_true(r0.var.clock_factor == r0b.var.clock_factor);
	assert_true(r0.var.tick_phase == r0b.var.tick_phase);
	assert_memory_equal(r0.disks, r0b.disks, sizeof r0.disks);
	/* different between runs and seeds */
	assert_true(r0.var.clock_factor != r1.var.clock_factor);
	assert_true(r0.var.disk_factor[0] != r1.var.disk_factor[0]);
	assert_true(r0.var.tick_phase != r1.var.tick_phase);
	assert_true(r0.var.clock_factor != other_seed.var.clock_factor);
	/* the two disks draw their own factors */
	assert_true(r0.var.disk_factor[0] != r0.var.disk_factor[1]);
	struct machine_cfg *runs[] = { &r0, &r1, &other_seed };
	for (int k = 0; k < 3; k++) {
		struct machine_cfg *m = runs[k];
		assert_true(m->var.clock_factor >= 0.99 && m->var.clock_factor <= 1.01);
		assert_true(fabs(m->clock - nom.clock * m->var.clock_factor) < 1e-3);
		assert_true(m->var.tick_phase >= 0 && m->var.tick_phase < 1);
		for (int i = 0; i < m->ndisks; i++) {
			double f = m->var.disk_factor[i];
			assert_true(f >= 0.95 && f <= 1.05);
			assert_true(fabs(m->disks[i].read_bw - nom.disks[i].read_bw * f) < 1e-3);
			assert_true(fabs(m->disks[i].write_bw - nom.disks[i].write_bw * f) < 1e-3);
			assert_true(fabs(m->disks[i].seek_avg - nom.disks[i].seek_avg / f) < 1e-15);
			assert_true(fabs(m->disks[i].track_to_track - nom.disks[i].track_to_track / f) < 1e-15);
			assert_int_equal(m->disks[i].rpm, nom.disks[i].rpm);
		}
	}
	/* the factors are echoed */
	json_t *d = machine_dump(&r1), *v = json_object_get(d, "variation");
	assert_non_null(v);
	assert_true(json_real_value(json_object_get(v, "clock")) == 0.01);
	assert_true(json_real_value(json_object_get(v, "clock_factor")) == r1.var.clock_factor);
	assert_true(json_real_value(json_object_get(json_object_get(v, "disk_factors"), "sdb")) ==
		    r1.var.disk_factor[1]);
	assert_true(json_real_value(json_object_get(v, "tick_phase")) == r1.var.tick_phase);
	json_decref(d);
	/* without "sched" the tick phase stays 0 */
	struct machine_cfg ns;
	assert_int_equal(load(&ns, "\"variation\": {\"clock\": \"1%\"},", &e), 0);
	machine_apply_variation(&ns, 7, 1, NULL);
	assert_true(ns.var.tick_phase == 0);
	assert_true(ns.var.clock_factor == r1.var.clock_factor);   /* streams are independent */
	assert_true(ns.var.disk_factor[0] == 1.0);
	/* hosts per_kernel: kernels draw apart, the same kernel again alike; shared
	 * (and per_kernel without a kernel name) ignore the name */
	const char *pk = "\"variation\": {\"clock\": \"1%\", \"hosts\": \"per_kernel\"},";
	struct machine_cfg ka, ka2, kb, kn, sa;
	assert_int_equal(load(&ka, pk, &e), 0);
	assert_int_equal(load(&ka2, pk, &e), 0);
	assert_int_equal(load(&kb, pk, &e), 0);
	assert_int_equal(load(&kn, pk, &e), 0);
	assert_int_equal(load(&sa, "\"variation\": {\"clock\": \"1%\", \"hosts\": \"shared\"},", &e), 0);
	machine_apply_variation(&ka, 7, 1, "a");
	machine_apply_variation(&ka2, 7, 1, "a");
	machine_apply_variation(&kb, 7, 1, "b");
	machine_apply_variation(&kn, 7, 1, NULL);
	machine_apply_variation(&sa, 7, 1, "a");
	assert_true(ka.var.clock_factor == ka2.var.clock_factor);
	assert_true(ka.var.clock_factor != kb.var.clock_factor);
	assert_true(kn.var.clock_factor == r1.var.clock_factor);
	assert_true(sa.var.clock_factor == r1.var.clock_factor);
	/* a bad "hosts" is an error naming its path */
	assert_int_equal(load(&ka, "\"variation\": {\"hosts\": \"each\"},", &e), -1);
	if (!strstr(e.msg, "machine.variation.hosts: expected \"shared\" or \"per_kernel\""))
		fail_msg("%s", e.msg);
	assert_int_equal(load(&ka, "\"variation\": {\"hosts\": 1},", &e), -1);
}

static void write_scenario(const char *name, const char *var, int runs)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"variation\", \"machine\": { \"cpus\": 1, \"clock\": \"1GHz\", \"memory\": \"64MiB\", %s\n"
		"    \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\", \"seek_avg\": \"8ms\",\n"
		"                   \"track_to_track\": \"1ms\", \"rpm\": 7200, \"size\": \"40GB\" } ] },\n"
		"  \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\" }, \"lru\": { \"reclaim\": \"lru\" } },\n"
		"  \"workload\": { \"type\": \"trace\", \"file\": \"%s/scenarios/teaching/zipf-20k.trace\", \"frames\": 500 },\n"
		"  \"runs\": %d, \"seed\": 3 }\n",
		var, MMEMU_SRCDIR, runs);
	fclose(f);
}

static json_t *run_file(const char *scen, const char *out)
{
	assert_int_equal(sh("run -q %s/%s -o %s/%s", dir, scen, dir, out), 0);
	char *err = slurp("err");
	assert_string_equal(err, "");
	free(err);
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, out);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	assert_non_null(d);
	return d;
}

static json_t *runs_without_host(json_t *d)
{
	return json_object_get(d, "runs");
}

static void black_box(void **state)
{
	(void)state;
	write_scenario("var.json", "\"variation\": { \"clock\": \"2%\", \"disk\": \"10%\" },", 3);
	json_t *a = run_file("var.json", "a.json"), *b = run_file("var.json", "b.json");
	assert_true(json_equal(runs_without_host(a), runs_without_host(b)));
	/* factors per run index: equal across kernels, different between runs */
	double cf[2][3];
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(a, "runs"), i, r) {
		int k = strcmp(json_string_value(json_object_get(r, "kernel")), "fifo") != 0;
		int run = (int)json_integer_value(json_object_get(r, "run"));
		json_t *v = json_object_get(json_object_get(json_object_get(r, "params"), "machine"), "variation");
		assert_non_null(v);
		cf[k][run] = json_real_value(json_object_get(v, "clock_factor"));
		assert_true(cf[k][run] >= 0.98 && cf[k][run] <= 1.02);
	}
	for (int run = 0; run < 3; run++)
		assert_true(cf[0][run] == cf[1][run]);
	assert_true(cf[0][0] != cf[0][1] && cf[0][1] != cf[0][2]);
	json_decref(a);
	json_decref(b);

	/* hosts per_kernel: each kernel's runs draw their own hosts */
	write_scenario("perk.json",
		       "\"variation\": { \"clock\": \"2%\", \"disk\": \"10%\", \"hosts\": \"per_kernel\" },", 3);
	json_t *p = run_file("perk.json", "p.json");
	json_array_foreach(json_object_get(p, "runs"), i, r) {
		int k = strcmp(json_string_value(json_object_get(r, "kernel")), "fifo") != 0;
		int run = (int)json_integer_value(json_object_get(r, "run"));
		json_t *v = json_object_get(json_object_get(json_object_get(r, "params"), "machine"), "variation");
		assert_string_equal(json_string_value(json_object_get(v, "hosts")), "per_kernel");
		cf[k][run] = json_real_value(json_object_get(v, "clock_factor"));
	}
	for (int run = 0; run < 3; run++)
		assert_true(cf[0][run] != cf[1][run]);
	json_decref(p);

	/* zero variation == no variation key */
	write_scenario("none.json", "", 2);
	write_scenario("zero.json", "\"variation\": { \"clock\": \"0%\", \"disk\": 0 },", 2);
	json_t *n = run_file("none.json", "n.json"), *z = run_file("zero.json", "z.json");
	assert_true(json_equal(runs_without_host(n), runs_without_host(z)));
	json_decref(n);
	json_decref(z);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir("variation");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(percent_parsing),
		cmocka_unit_test(zero_is_no_variation),
		cmocka_unit_test(factors),
		cmocka_unit_test_setup_teardown(black_box, setup, teardown),
	};
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_variation: set MMEMU to the mmemu binary\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
