/*
 * test_shard.c - `mmemu sweep --shard`, `mmemu collect`, the --slurm script
 * (--dry-run) and `mmemu reproduce --shard` (black box).
 *
 * Design: the shipped teaching scenario (16 short simulations) is cut into 3
 * shards of 6, 5 and 5 simulations (pool index modulo 3); each shard keeps
 * exactly its own files, no shard writes the merged file, and collect writes
 * the file a serial `mmemu run` writes (apart from "host").  Collect with a
 * deleted and a foreign-build kept file exits 1 naming 2 missing, 1 of them from
 * another build, and writes nothing; the shard holding them reruns exactly
 * those two.  The Slurm script is checked as printed by --dry-run: the array
 * lists only shards with a missing simulation, -j sets the CPUs per task.  The
 * real scheduler is tests/check_slurm.sh.  The pool's order, seen at -j 1 in
 * the progress lines: bigger simulations (CPUs) first, then the walls of the
 * previous results file, then those of stale kept files.  Every usage error
 * exits 2 with one line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/clitest.h"

static const char *scen = "scenarios/teaching/trace-policies.json";

static int exists(const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

/* Fail unless DIR/out contains @want. */
static void out_has(const char *want)
{
	char *out = slurp("out");
	if (!strstr(out, want))
		fail_msg("stdout lacks \"%s\": %s (stderr: %s)", want, out, slurp("err"));
	free(out);
}

/* Assert that two results files are byte-identical before their "host" section. */
static void same_but_host(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	char *hx = strstr(x, "\n \"host\": {"), *hy = strstr(y, "\n \"host\": {");
	assert_non_null(hx);
	assert_non_null(hy);
	*hx = *hy = '\0';
	if (strcmp(x, y))
		fail_msg("%s and %s differ before \"host\"", a, b);
	free(x);
	free(y);
}

static void shards_then_collect(void **state)
{
	const int size[4] = { 0, 6, 5, 5 };
	char want[700], f[64];
	for (int k = 1; k <= 3; k++) {
		assert_int_equal(sh("sweep -j 2 --shard %d/3 --out %s/sh %s", k, dir, scen), 0);
		snprintf(want, sizeof want, "%s: shard %d/3: %d simulations: %d ran, 0 reused, 0 failed", scen, k,
			 size[k], size[k]);
		out_has(want);
		for (int i = 0; i < 16; i++) {   /* shard k holds index k-1, k+2, ... */
			snprintf(f, sizeof f, "sh/trace-policies.d/%04d.json", i);
			assert_int_equal(exists(f), i % 3 < k);
		}
		assert_false(exists("sh/trace-policies.json"));
	}
	assert_int_equal(sh("sweep --shard 2/3 --out %s/sh %s", dir, scen), 0);
	out_has("shard 2/3: 5 simulations: 0 ran, 5 reused, 0 failed");
	assert_int_equal(sh("collect --out %s/sh %s", dir, scen), 0);
	snprintf(want, sizeof want, "%s: 16 simulations: 0 ran, 16 reused, 0 failed; results: %s/sh/trace-policies.json",
		 scen, dir);
	out_has(want);
	assert_int_equal(sh("run -q -o %s/serial.json %s", dir, scen), 0);
	same_but_host("serial.json", "sh/trace-policies.json");
	/* nothing runs in collect: the same file again, quietly */
	assert_int_equal(sh("collect -q --out %s/sh %s", dir, scen), 0);
	char *out = slurp("out");
	assert_string_equal(out, "");
	free(out);
}

static void collect_refuses_holes(void **state)
{
	char p[512];
	snprintf(p, sizeof p, "%s/sh/trace-policies.d/0004.json", dir);   /* shard 2 */
	assert_int_equal(unlink(p), 0);
	/* 0007 (shard 2) as computed by another build: same content, another digest */
	snprintf(p, sizeof p, "%s/sh/trace-policies.d/0007.json", dir);
	char *t = slurp_path(p), *b = t ? strstr(t, "\"build\":\"") : NULL;
	assert_non_null(b);
	memcpy(b + 9, "0123456789abcdef", 16);
	FILE *fp = fopen(p, "w");
	fputs(t, fp);
	fclose(fp);
	free(t);
	snprintf(p, sizeof p, "%s/sh/trace-policies.json", dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(sh("collect --out %s/sh %s", dir, scen), 1);
	out_has("16 simulations: 0 ran, 14 reused, 0 failed, 2 missing (1 kept by another mmemu build or "
		"scenario version); no merged results");
	assert_false(exists("sh/trace-policies.json"));
	/* the Slurm script would array shard 2 alone */
	assert_int_equal(sh("sweep --slurm --dry-run --max-tasks 3 --out %s/sh %s", dir, scen), 0);
	out_has("\n#SBATCH --array=2\n");
	assert_int_equal(sh("sweep --shard 1/3 --out %s/sh %s", dir, scen), 0);
	out_has("shard 1/3: 6 simulations: 0 ran, 6 reused, 0 failed");
	assert_int_equal(sh("sweep --shard 2/3 --out %s/sh %s", dir, scen), 0);
	out_has("shard 2/3: 5 simulations: 2 ran, 3 reused, 0 failed");
	assert_int_equal(sh("collect --out %s/sh %s", dir, scen), 0);
	same_but_host("serial.json", "sh/trace-policies.json");
}

static void slurm_script(void **state)
{
	/* everything kept: nothing to submit */
	assert_int_equal(sh("sweep --slurm --max-tasks 3 --out %s/sh %s", dir, scen), 0);
	out_has("trace-policies: all 16 simulations are kept");
	out_has("Then: mmemu collect --out ");
	/* a fresh directory: one task per simulation by default; nothing written */
	assert_int_equal(sh("sweep --slurm --dry-run --out %s/fresh %s", dir, scen), 0);
	out_has("\n#SBATCH --array=1-16\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
	out_has("' 'sweep' --shard \"$SLURM_ARRAY_TASK_ID/16\" '-j' '1' '--out' ");
	assert_false(exists("fresh"));
	/* -j per task, a partition, a time-out and --fresh pass through; quoting */
	char p[512];
	snprintf(p, sizeof p, "%s/sh/trace-policies.d/0009.json", dir);   /* shard 1 of 3 */
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof p, "%s/sh/trace-policies.d/0010.json", dir);   /* shard 2 of 3 */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(sh("sweep --slurm --dry-run -j 3 --partition big --timeout 60 --max-tasks 3 --out %s/sh %s",
			    dir, scen), 0);
	out_has("#SBATCH --job-name=mmemu-trace-policies\n#SBATCH --array=1-2\n#SBATCH --partition=big\n"
		"#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=3\n");
	out_has("--shard \"$SLURM_ARRAY_TASK_ID/3\" '-j' '3' '--out' ");
	out_has("'--timeout' '60' 'scenarios/teaching/trace-policies.json'\n");
	assert_int_equal(sh("sweep --slurm --dry-run --fresh --max-tasks 5 --out \"%s/it's\" %s", dir, scen), 0);
	out_has("\n#SBATCH --array=1-5\n");
	out_has("/it'\\''s' '--fresh' ");
	/* no sbatch: exit 1, one line */
	char *path = strdup(getenv("PATH"));
	setenv("PATH", "/nonexistent", 1);
	int rc = sh("sweep --slurm --max-tasks 3 --out %s/sh %s", dir, scen);
	setenv("PATH", path, 1);
	free(path);
	assert_int_equal(rc, 1);
	char *err = slurp("err");
	if (!strstr(err, "mmemu: cannot run sbatch: No such file or directory") || strchr(err, '\n')[1])
		fail_msg("stderr: %s", err);
	free(err);
	assert_true(exists("sh/trace-policies.sbatch"));
}

static void reproduce_shards(void **state)
{
	char p[512];
	snprintf(p, sizeof p, "%s/pub", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/pub/000.json", dir);
	FILE *f = fopen(p, "w");
	fputs("{ \"seed\": \"000\", \"title\": \"teaching\", \"scenario\": \"scenarios/teaching/trace-policies.json\",\n"
	      "  \"metric\": \"runtime\", \"unit\": \"s\", \"better\": \"lower\",\n"
	      "  \"table\": { \"point_key\": \"workload.frames\", \"columns\": [\"fifo\", \"opt\"],\n"
	      "    \"rows\": [ {\"point\": 250, \"values\": [70, 45]} ] }, \"claims\": [] }\n", f);
	fclose(f);
	assert_int_equal(sh("reproduce 0 --slurm --dry-run -j 2 --max-tasks 2 --published %s/pub --runs %s/rr --out %s/o",
			    dir, dir, dir), 0);
	out_has("\n#SBATCH --job-name=mmemu-reproduce-0\n#SBATCH --array=1-2\n");
	out_has("' 'reproduce' --shard \"$SLURM_ARRAY_TASK_ID/2\" '0' '-q' '-j' '2' '--seeds' '1' '--published' ");
	assert_int_equal(sh("reproduce 0 -q --shard 1/2 --published %s/pub --runs %s/rr --out %s/o", dir, dir, dir), 0);
	out_has(": shard 1/2: 8 simulations: 8 ran, 0 reused, 0 failed");
	assert_false(exists("o/reproduce.json"));
	assert_false(exists("rr/trace-policies.json"));
	assert_int_equal(sh("reproduce 0 -q --shard 2/2 --published %s/pub --runs %s/rr --out %s/o", dir, dir, dir), 0);
	out_has(": shard 2/2: 8 simulations: 8 ran, 0 reused, 0 failed");
	/* a plain run judges, running nothing */
	assert_int_equal(sh("reproduce 0 --published %s/pub --runs %s/rr --out %s/o", dir, dir, dir), 0);
	char *md = slurp("o/reproduce.md");
	assert_non_null(strstr(md, "ran 0 simulations, reused 16 kept"));
	free(md);
	same_but_host("serial.json", "rr/trace-policies.json");
}

/* Fail unless the progress lines of DIR/err name the simulations in order @want
 * ("cpus=2, run 0" ...). */
static void order_is(const char *const *want, int n)
{
	char *err = slurp("err"), *q = err;
	for (int i = 0; i < n; i++) {
		char pat[100];
		snprintf(pat, sizeof pat, "sweep: [%d/%d] ", i + 1, n);
		q = strstr(q, pat);
		char *eol = q ? strchr(q, '\n') : NULL;
		if (!q || !eol)
			fail_msg("no progress line %d: %s", i + 1, err);
		*eol = '\0';
		if (!strstr(q, want[i]))
			fail_msg("simulation %d started is \"%s\", expected %s", i + 1, q, want[i]);
		q = eol + 1;
	}
	free(err);
}

static void longest_first(void **state)
{
	assert_int_equal(sh("tracegen --kind zipf --refs 3000 --pages 900 --seed 1 -o %s/o.trace", dir), 0);
	put("o.json", "{ \"name\": \"order\", \"machine\": { \"arch\": \"x86_64\", \"cpus\": 1, \"clock\": \"1GHz\","
		      " \"memory\": \"64MiB\", \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\","
		      " \"seek_avg\": \"8ms\", \"track_to_track\": \"1ms\", \"rpm\": 7200, \"size\": \"40GB\" } ] },"
		      " \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\" } },"
		      " \"workload\": { \"type\": \"trace\", \"file\": \"o.trace\", \"frames\": 100 },"
		      " \"sweep\": { \"machine.cpus\": [1, 2] }, \"runs\": 2 }\n");
	/* nothing timed: 2 CPUs before 1, expansion order among equals */
	assert_int_equal(sh("sweep -j 1 --out %s/o %s/o.json", dir, dir), 0);
	const char *const by_size[] = { "cpus=2, run 0", "cpus=2, run 1", "cpus=1, run 0", "cpus=1, run 1" };
	order_is(by_size, 4);
	/* --fresh: the walls of the results file (index 0..3 = cpus 1 run 0, 1; cpus 2 run 0, 1) */
	char *r = slurp("o/o.json"), *h = strstr(r, "\"runs\": [");
	h = h ? strstr(h + 1, "\n \"host\": {") : NULL;
	assert_non_null(h);
	strcpy(h, "\n \"host\": { \"wall_seconds\": 18, \"runs\": [ 5, 1, 9, 3 ] }\n}\n");
	put("o/o.json", r);
	free(r);
	assert_int_equal(sh("sweep -j 1 --fresh --out %s/o %s/o.json", dir, dir), 0);
	const char *const by_wall[] = { "cpus=2, run 0", "cpus=1, run 0", "cpus=2, run 1", "cpus=1, run 1" };
	order_is(by_wall, 4);
	/* stale kept files (another build) rerun, longest recorded first */
	const char *stale[][2] = { { "o/o.d/0001.json", "100" }, { "o/o.d/0003.json", "200" } };
	for (int i = 0; i < 2; i++) {
		char *t = slurp(stale[i][0]), *b = strstr(t, "\"build\":\""), *w = strstr(t, "\"wall\":");
		assert_non_null(b);
		assert_non_null(w);
		memcpy(b + 9, "0123456789abcdef", 16);
		char *end = w + 7 + strspn(w + 7, "0123456789.e-");
		char buf[4096];
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(w + 7 - t), t, stale[i][1], end);
		put(stale[i][0], buf);
		free(t);
	}
	assert_int_equal(sh("sweep -j 1 --out %s/o %s/o.json", dir, dir), 0);
	out_has("4 simulations: 2 ran, 2 reused, 0 failed");
	const char *const by_kept[] = { "cpus=2, run 1", "cpus=1, run 1" };
	order_is(by_kept, 2);
}

static void usage_errors(void **state)
{
	const char *cmds[] = {
		"sweep --shard 0/3 %s", "sweep --shard 4/3 %s", "sweep --shard 1/0 %s", "sweep --shard x %s",
		"sweep --shard 1/3x %s", "sweep --shard 1/3 --slurm %s", "sweep --partition p %s",
		"sweep --dry-run %s", "sweep --max-tasks 3 %s", "sweep --slurm --max-tasks 0 %s",
		"sweep --slurm --max-tasks 1001 %s", "sweep --slurm --partition", "sweep --slurm",
		"collect", "collect -j 2 %s", "collect --timeout 3 %s", "collect --slurm %s", "collect -o",
		"collect tests/nonexistent.json", "reproduce --shard 1/2 --slurm", "reproduce --no-run --slurm",
		"reproduce --no-run --shard 1/2", "reproduce --max-tasks 2", "reproduce --shard 2/1",
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char c[600];
		snprintf(c, sizeof c, cmds[i], scen);
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
	return scratch_dir("shard");
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_shard: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shards_then_collect),
		cmocka_unit_test(collect_refuses_holes),
		cmocka_unit_test(slurm_script),
		cmocka_unit_test(reproduce_shards),
		cmocka_unit_test(longest_first),
		cmocka_unit_test(usage_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
