/*
 * test_sweep.c - `mmemu sweep` and `mmemu run -j N` (black box).
 *
 * Design: the shipped teaching scenario (16 short simulations) is run serially
 * and through the pool; the merged files must be byte-identical up to the "host"
 * section (the last key).  Resume is checked three ways: deleting and corrupting
 * kept per-simulation files, forcing every simulation to time out, and killing
 * one worker process (SIGKILL) of a sweep of slower simulations (a generated
 * 50,000-reference trace); each time the rerun must run exactly the missing
 * simulations and produce the serial file.  The slower scenario is used for the
 * time-out and kill cases so that the test stays quick under ASan, where every
 * fork() is expensive.  Usage errors exit 2 with one line.
 */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/clitest.h"
static const char *scen = "scenarios/teaching/trace-policies.json";

/* Assert that two results files are byte-identical before their "host" section. */
static void same_but_host(const char *a, const char *b)
{
	char pa[512], pb[512];
	snprintf(pa, sizeof pa, "%s/%s", dir, a);
	snprintf(pb, sizeof pb, "%s/%s", dir, b);
	char *x = slurp_path(pa), *y = slurp_path(pb);
	assert_non_null(x);
	assert_non_null(y);
	char *hx = strstr(x, "\n \"host\": {"), *hy = strstr(y, "\n \"host\": {");
	assert_non_null(hx);
	assert_non_null(hy);
	*hx = *hy = '\0';
	if (strcmp(x, y))
		fail_msg("%s and %s differ before \"host\"", a, b);
	free(x);
	free(y);
}

static int exists(const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

/* A scenario of 4 slower simulations (a 50,000-reference trace) and its serial run. */
static void make_slow(void)
{
	if (exists("slow-serial.json"))
		return;
	assert_int_equal(sh("tracegen --kind zipf --refs 50000 --pages 40000 --seed 3 -o %s/slow.trace", dir), 0);
	char p[512];
	snprintf(p, sizeof p, "%s/slow.json", dir);
	FILE *f = fopen(p, "w");
	fputs("{ \"name\": \"slow\", \"machine\": { \"arch\": \"x86_64\", \"cpus\": 1, \"clock\": \"1GHz\","
	      " \"memory\": \"64MiB\", \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\","
	      " \"seek_avg\": \"8ms\", \"track_to_track\": \"1ms\", \"rpm\": 7200, \"size\": \"40GB\" } ] },"
	      " \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\" }, \"lru\": { \"reclaim\": \"lru\" } },"
	      " \"workload\": { \"type\": \"trace\", \"file\": \"slow.trace\" },"
	      " \"sweep\": { \"workload.frames\": [ 1000, 2000 ] }, \"runs\": 1, \"seed\": 1 }\n", f);
	fclose(f);
	assert_int_equal(sh("run -q -o %s/slow-serial.json %s/slow.json", dir, dir), 0);
}

static void merged_equals_serial(void **state)
{
	assert_int_equal(sh("run -q -o %s/serial.json %s", dir, scen), 0);
	assert_int_equal(sh("sweep -j 2 -q --out %s/sw %s", dir, scen), 0);
	same_but_host("serial.json", "sw/trace-policies.json");
	assert_true(exists("sw/trace-policies.d/0000.json"));
	assert_true(exists("sw/trace-policies.d/0015.json"));
	/* run -j N: the same pool, the same file and summary as a serial run */
	make_slow();
	assert_int_equal(sh("run -j 2 -o %s/j2.json %s/slow.json", dir, dir), 0);
	char *out = slurp("out");
	assert_non_null(strstr(out, "results: "));
	free(out);
	same_but_host("slow-serial.json", "j2.json");
}

static void resume_after_lost_files(void **state)
{
	char p[512];
	const char *gone[] = { "0003", "0007", "0010" };
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/sw/trace-policies.d/%s.json", dir, gone[i]);
		assert_int_equal(unlink(p), 0);
	}
	snprintf(p, sizeof p, "%s/sw/trace-policies.d/0012.json", dir);
	FILE *f = fopen(p, "w");
	fputs("{\"format\": \"mmemu-sim/1\", \"trunc", f);   /* a half-written file */
	fclose(f);
	snprintf(p, sizeof p, "%s/sw/trace-policies.json", dir);
	unlink(p);
	assert_int_equal(sh("sweep -j 2 --out %s/sw %s", dir, scen), 0);
	char *out = slurp("out");
	if (!strstr(out, "16 simulations: 4 ran, 12 reused, 0 failed"))
		fail_msg("unexpected summary: %s", out);
	free(out);
	same_but_host("serial.json", "sw/trace-policies.json");
	/* nothing missing: nothing runs */
	assert_int_equal(sh("sweep -j 2 --out %s/sw %s", dir, scen), 0);
	out = slurp("out");
	assert_non_null(strstr(out, "0 ran, 16 reused"));
	free(out);
}

/* A kept result is keyed by the content of the files the scenario names, not only
 * by the scenario's JSON (issue 17: a regenerated trace reused every old result). */
static void resume_sees_changed_inputs(void **state)
{
	(void)state;
	assert_int_equal(sh("tracegen --kind zipf --refs 3000 --pages 900 --seed 1 -o %s/inp.trace", dir), 0);
	assert_int_equal(put("inp.json", "{ \"name\": \"inp\", \"machine\": { \"arch\": \"x86_64\", \"cpus\": 1, \"clock\": \"1GHz\","
	      " \"memory\": \"64MiB\", \"disks\": [ { \"name\": \"sda\", \"read\": \"60MB/s\", \"write\": \"50MB/s\","
	      " \"seek_avg\": \"8ms\", \"track_to_track\": \"1ms\", \"rpm\": 7200, \"size\": \"40GB\" } ] },"
	      " \"kernels\": { \"fifo\": { \"reclaim\": \"fifo\" }, \"lru\": { \"reclaim\": \"lru\" } },"
	      " \"workload\": { \"type\": \"trace\", \"file\": \"inp.trace\", \"frames\": 100 }, \"runs\": 1 }\n"), 0);
	assert_int_equal(sh("sweep -j 2 --out %s/inp %s/inp.json", dir, dir), 0);
	char *out = slurp("out");
	assert_non_null(strstr(out, "2 simulations: 2 ran, 0 reused"));
	free(out);
	/* the same trace again: reused */
	assert_int_equal(sh("sweep -j 2 --out %s/inp %s/inp.json", dir, dir), 0);
	out = slurp("out");
	assert_non_null(strstr(out, "2 simulations: 0 ran, 2 reused"));
	free(out);
	/* a regenerated trace: rerun, and the merged result is a fresh run's */
	assert_int_equal(sh("tracegen --kind zipf --refs 3000 --pages 900 --seed 2 -o %s/inp.trace", dir), 0);
	assert_int_equal(sh("sweep -j 2 --out %s/inp %s/inp.json", dir, dir), 0);
	out = slurp("out");
	if (!strstr(out, "2 simulations: 2 ran, 0 reused"))
		fail_msg("a changed trace reused kept results: %s", out);
	free(out);
	assert_int_equal(sh("run -q -o %s/inp-serial.json %s/inp.json", dir, dir), 0);
	same_but_host("inp-serial.json", "inp/inp.json");
}

static void timeouts_fail_then_resume(void **state)
{
	make_slow();
	assert_int_equal(sh("sweep -j 2 --timeout 0.001 --out %s/to %s/slow.json", dir, dir), 1);
	char *err = slurp("err"), *out = slurp("out");
	assert_non_null(strstr(err, "timed out after 0.001 s"));
	assert_non_null(strstr(out, "no merged results"));
	free(err);
	free(out);
	assert_false(exists("to/slow.json"));
	assert_int_equal(sh("sweep -j 2 --out %s/to %s/slow.json", dir, dir), 0);
	out = slurp("out");
	if (!strstr(out, "4 simulations: 4 ran, 0 reused, 0 failed"))   /* nothing finishes in 1 ms */
		fail_msg("unexpected summary: %s", out);
	free(out);
	same_but_host("slow-serial.json", "to/slow.json");
}

/* Returns: the pid of a child of @parent, or 0. */
static pid_t child_of(pid_t parent)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;
	while (d && !found && (de = readdir(d))) {
		char p[300], buf[512];
		snprintf(p, sizeof p, "/proc/%s/stat", de->d_name);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof buf, f)) {
			char *rp = strrchr(buf, ')');
			int ppid;
			char st;
			if (rp && sscanf(rp + 2, "%c %d", &st, &ppid) == 2 && ppid == parent && st != 'Z')
				found = (pid_t)atoi(de->d_name);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

static void killed_worker_resumes(void **state)
{
	make_slow();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char cmd[1500];
		snprintf(cmd, sizeof cmd, "exec \"$MMEMU\" sweep -j 2 --out %s/k %s/slow.json >%s/kout 2>%s/kerr", dir,
			 dir, dir, dir);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	pid_t victim = 0;
	struct timespec ts = { 0, 5000000 };
	for (int i = 0; i < 2000 && !victim; i++) {
		nanosleep(&ts, NULL);
		victim = child_of(pid);
	}
	assert_true(victim > 0);
	assert_int_equal(kill(victim, SIGKILL), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	char *err = slurp("kerr");
	if (!strstr(err, "killed by signal 9"))
		fail_msg("stderr: %s", err);
	free(err);
	assert_false(exists("k/slow.json"));
	/* the rerun runs exactly the killed simulation */
	assert_int_equal(sh("sweep -j 2 --out %s/k %s/slow.json", dir, dir), 0);
	char *out = slurp("out");
	if (!strstr(out, "4 simulations: 1 ran, 3 reused, 0 failed"))
		fail_msg("unexpected summary: %s", out);
	free(out);
	same_but_host("slow-serial.json", "k/slow.json");
}

static void usage_errors(void **state)
{
	const char *cmds[] = { "sweep", "sweep -j 0 %s", "sweep -j x %s", "sweep --timeout -1 %s",
			       "sweep --timeout abc %s", "sweep --bogus %s", "sweep -o", "sweep tests/nonexistent.json",
			       "run -j 0 %s", "run -j 1x %s" };
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
	return scratch_dir("sweep");
}

int main(void)
{
	if (!getenv("MMEMU")) {
		fprintf(stderr, "test_sweep: set MMEMU to the mmemu binary\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merged_equals_serial),
		cmocka_unit_test(resume_after_lost_files),
		cmocka_unit_test(resume_sees_changed_inputs),
		cmocka_unit_test(timeouts_fail_then_resume),
		cmocka_unit_test(killed_worker_resumes),
		cmocka_unit_test(usage_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
