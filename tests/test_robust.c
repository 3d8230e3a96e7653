/*
 * test_robust.c - regressions of the failures an attack found (issue 27), black box.
 *
 * Design: each test reproduces one failure through the mmemu binary ($MMEMU) on a
 * shipped scenario, shortened, and asserts the exit status, the one-line error and
 * the files left behind (what must exist, what must not have changed).  The
 * simulation bugs (the crash at engine.max_time, the invariant violations under
 * memory pressure) are run with --check so that the model's invariant checker
 * judges them, not only the exit status.
 */
#include <fcntl.h>
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

/* Returns: the number of times @needle occurs in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* engine.max_time ends a reaim run with disk requests queued and in service:
 * the children used to segfault in disk_destroy() (requests on killed actors'
 * stacks).  Every simulation must end, pass the checker and report its I/O. */
static void max_time_with_io_in_flight(void **state)
{
	(void)state;
	int rc = sh("run -q -j 2 --check --set runs=1 --set engine.max_time=0.2s "
		    "scenarios/teaching/reaim-small.json -o %s/r.json", dir);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("exit %d: %s", rc, e);
	assert_string_equal(e, "");
	char *r = slurp("r.json");
	assert_int_equal(count(r, "\"max_time\": 0.2"), 8);   /* 2 kernels x 4 points */
	assert_int_equal(count(r, "\"complete\": 0.0"), 8);   /* every run stopped early */
	assert_int_equal(count(r, "\"disk_writes\": 0.0"), 0);   /* ... with I/O done */
	free(r);
	free(e);
}

/* Returns: a folder under DIR whose name is about @len characters long (made of
 * 200-character components), created; the caller frees it. */
static char *long_folder(size_t len)
{
	char *p = malloc(len + 512);
	size_t n = (size_t)sprintf(p, "%s", dir);
	while (n + 201 < len) {
		p[n++] = '/';
		memset(p + n, 'd', 200);
		n += 200;
		p[n] = '\0';
		mkdir(p, 0777);
	}
	return p;
}

/* A results path of over 1,100 characters used to be cut in the temporary's
 * name (a 1,100-byte buffer): the rename then deleted the existing file and the
 * run exited 0.  Now the file is replaced by the new results. */
static __attribute__((unused)) void long_output_path_replaced(void **state)
{
	(void)state;
	char *d = long_folder(1300);
	char *path = malloc(strlen(d) + 16);
	sprintf(path, "%s/r.json", d);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	int rc = sh("run -q --set sweep={} --set runs=1 -o %s scenarios/teaching/trace-policies.json", path);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("exit %d: %s", rc, e);
	char *r = slurp_path(path);
	assert_non_null(r);
	assert_non_null(strstr(r, "mmemu-results/1"));
	free(r);
	free(e);
	free(path);
	free(d);
}

/* The temporary was OUT.tmp.PID opened with fopen("w"): a symlink planted under
 * that name redirected the write to any file.  Plant one for every pid the run
 * may get; the victim must keep its contents and no temporary may remain. */
static void planted_symlink_not_followed(void **state)
{
	(void)state;
	char victim[600], out[600], link[700];
	snprintf(victim, sizeof victim, "%s/victim", dir);
	snprintf(out, sizeof out, "%s/s.json", dir);
	FILE *f = fopen(victim, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	long me = (long)getpid();
	for (long pid = me; pid < me + 400; pid++) {
		snprintf(link, sizeof link, "%s.tmp.%ld", out, pid);
		assert_int_equal(symlink(victim, link), 0);
	}
	int rc = sh("run -q --set sweep={} --set runs=1 -o %s scenarios/teaching/trace-policies.json", out);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("exit %d: %s", rc, e);
	char *v = slurp_path(victim);
	assert_string_equal(v, "precious\n");
	struct stat st;
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	for (long pid = me; pid < me + 400; pid++) {   /* the planted links are untouched */
		snprintf(link, sizeof link, "%s.tmp.%ld", out, pid);
		assert_int_equal(lstat(link, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		unlink(link);
	}
	rc = sh("run -q --set sweep={} --set runs=1 -o %s scenarios/teaching/trace-policies.json; "
		"ls %s | grep -c tmp", out, dir);
	char *o = slurp("out");
	assert_string_equal(o, "0\n");   /* no temporary left behind */
	free(o);
	free(v);
	free(e);
}

/* reproduce --out with a 1,214-character folder wrote the markdown over the JSON
 * under one cut name and reported success: refused now, one line, exit 2. */
static void reproduce_long_out_refused(void **state)
{
	(void)state;
	char *d = long_folder(1214);
	int rc = sh("reproduce --no-run --out %s 000", d);
	char *e = slurp("err");
	assert_int_equal(rc, 2);
	assert_int_equal(count(e, "\n"), 1);
	assert_non_null(strstr(e, "--out: expected a folder name of at most 800 characters"));
	assert_int_equal(count(slurp("out"), "wrote"), 0);
	free(e);
	free(d);
}

/* Run `$MMEMU @args` with stdout on /dev/full, stderr in DIR/err.
 * Returns: its exit status. */
static int to_full(const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "\"$MMEMU\" %s >/dev/full 2>%s/err", args, dir);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Output lost on stdout (a full disk) exited 0: compare, list, replay --json,
 * validate, reproduce and run's table.  Each now exits 1 with one line. */
static void stdout_write_error_exit_1(void **state)
{
	(void)state;
	struct stat st;
	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode))
		skip();
	char res[600], args[1400];
	snprintf(res, sizeof res, "%s/full.json", dir);
	assert_int_equal(sh("run -q --set sweep={} --set runs=1 -o %s scenarios/teaching/trace-policies.json", res), 0);
	const char *fmts[] = {
		"compare %s",
		"list",
		"validate scenarios/teaching/trace-policies.json",
		"replay --json --policy lru --frames 3 --refs 1,2,3,4,1,2,5",
		"run --set sweep={} --set runs=1 -o %s.2 scenarios/teaching/trace-policies.json",
		"reproduce --no-run --runs /nonexistent-runs --out %s.d 000",
	};
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		snprintf(args, sizeof args, fmts[i], res);
		int rc = to_full(args);
		char *e = slurp("err");
		if (rc != 1 || !strstr(e, "mmemu: cannot write standard output: "))
			fail_msg("%s > /dev/full: exit %d: %s", args, rc, e);
		free(e);
	}
}

/* Two scenarios of one file name in different folders wrote the same OUT/NAME.json
 * (and NAME.d/): the first one's results were silently replaced and the run
 * exited 0.  run, sweep and collect refuse them now, before anything runs. */
static void same_name_refused(void **state)
{
	(void)state;
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/a %s/b && cp scenarios/teaching/trace-policies.json "
		 "scenarios/teaching/zipf-20k.trace %s/a && cp %s/a/* %s/b", dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	const char *fmts[] = {
		"run -q --set sweep={} -o %s/o %s/a/trace-policies.json %s/b/trace-policies.json",
		"sweep -q -j 1 -o %s/o %s/a/trace-policies.json %s/b/trace-policies.json",
		"collect -q -o %s/o %s/a/trace-policies.json %s/b/trace-policies.json",
		"run -q --set sweep={} -o %s/o %s/a/trace-policies.json %s/a/trace-policies.json",
	};
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		int rc = sh(fmts[i], dir, dir, dir);
		char *e = slurp("err");
		if (rc != 2 || count(e, "\n") != 1 || !strstr(e, "would both write ")
		    || !strstr(e, "/o/trace-policies.json: expected scenario files of "
				  "different names"))
			fail_msg("%s: exit %d: %s", fmts[i], rc, e);
		free(e);
		struct stat st;
		snprintf(cmd, sizeof cmd, "%s/o", dir);
		assert_int_equal(stat(cmd, &st), -1);   /* nothing written */
	}
	/* a shipped scenario of that name clashes too; two of different names run */
	assert_int_equal(sh("run -q --set sweep={} --set runs=1 -o %s/o %s/a/trace-policies.json "
			    "scenarios/teaching/trace-policies.json", dir, dir), 2);
	snprintf(cmd, sizeof cmd, "cp %s/a/trace-policies.json %s/a/other.json", dir, dir);
	assert_int_equal(system(cmd), 0);
	int rc = sh("run -q --set sweep={} --set runs=1 -o %s/o %s/a/trace-policies.json %s/a/other.json",
		    dir, dir, dir);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("exit %d: %s", rc, e);
	free(e);
	char *r1 = slurp("o/trace-policies.json"), *r2 = slurp("o/other.json");
	assert_non_null(strstr(r1, "mmemu-results/1"));
	assert_non_null(strstr(r2, "mmemu-results/1"));
	free(r1);
	free(r2);
}

/* A kept simulation whose "result" parsed but was empty ({}) was reused by the
 * resume, so the merged file then failed compare, plot and reproduce.  The resume
 * now applies the results files' own check (results_run_measured()) and reruns it. */
static void empty_kept_result_rerun(void **state)
{
	(void)state;
	assert_int_equal(sh("sweep -q -j 1 -o %s/k scenarios/teaching/trace-policies.json", dir), 0);
	char path[1200];
	snprintf(path, sizeof path, "%s/k/trace-policies.d/0003.json", dir);
	json_t *d = json_load_file(path, 0, NULL);
	assert_non_null(d);
	json_object_set_new(d, "result", json_object());
	assert_int_equal(json_dump_file(d, path, 0), 0);
	json_decref(d);
	assert_int_equal(sh("sweep -q -j 1 -o %s/k scenarios/teaching/trace-policies.json", dir), 0);
	d = json_load_file(path, 0, NULL);
	assert_non_null(d);
	assert_true(json_is_number(json_object_get(json_object_get(json_object_get(d, "result"),
								   "primary"), "value")));
	json_decref(d);
	int rc = sh("compare %s/k/trace-policies.json", dir);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("compare: exit %d: %s", rc, e);
	free(e);
}

/* The host out-of-memory message read "for 0 pages": mm_phys_fini() had cleared
 * the count before it was printed.  A 64 GiB machine under a 400 MB address-space
 * limit cannot get its mem_map (16777216 struct pages). */
static void host_oom_names_pages(void **state)
{
	(void)state;
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "ulimit -v 400000; \"$MMEMU\" run -q --set runs=1 --set machine.memory=64GiB "
		 "--set sweep={} -o %s/oom.json scenarios/teaching/aim9-small.json >%s/out 2>%s/err",
		 dir, dir, dir);
	int st = system(cmd);
	char *e = slurp("err");
	if (strstr(e, "AddressSanitizer")) {   /* a sanitizer build needs more address space */
		free(e);
		skip();
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || !strstr(e, "out of host memory for 16777216 pages")
	    || strstr(e, "for 0 pages"))
		fail_msg("status %d: %s", st, e);
	free(e);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir("robust");
}

/* tracegen on a full disk replaced a good trace with a truncated one (exit 2),
 * and replay accepted the truncated trace (issue 27 item 8).  The write limit
 * (ulimit -f, SIGXFSZ ignored) fails tracegen's writes as a full disk does: the
 * old trace must stay, byte for byte, with no temporary left beside it; and a
 * text trace whose last line has no newline is refused with its line. */
static void tracegen_atomic_replay_truncated(void **state)
{
	(void)state;
	assert_int_equal(sh("tracegen --kind zipf --refs 100 --pages 50 --seed 1 -o %s/g.trace", dir), 0);
	char *good = slurp("g.trace");
	assert_non_null(good);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "trap '' XFSZ; ulimit -f 8; \"$MMEMU\" tracegen --kind zipf --refs 1000000 "
		 "--pages 50000 --seed 2 -o %s/g.trace >%s/out 2>%s/err", dir, dir, dir);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 2);
	char *e = slurp("err");
	assert_non_null(strstr(e, "g.trace: cannot write"));
	assert_int_equal(count(e, "\n"), 1);
	char *now = slurp("g.trace");
	assert_string_equal(now, good);
	snprintf(cmd, sizeof cmd, "ls %s | grep -c 'g.trace.tmp' >%s/n", dir, dir);
	assert_true(system(cmd) != -1);
	char *n = slurp("n");
	assert_string_equal(n, "0\n");
	/* a trace cut after its last number: refused, its last line named */
	FILE *f = fopen(strcat(strcpy(cmd, dir), "/cut.trace"), "w");
	assert_non_null(f);
	fputs("1\n2\n3\n12", f);
	fclose(f);
	assert_int_equal(sh("replay --policy lru --frames 2 --trace %s/cut.trace", dir), 2);
	char *e2 = slurp("err");
	char want[600];
	snprintf(want, sizeof want, "%s/cut.trace: line 4: expected a newline at the end of the last line "
		 "(a truncated trace?), got end of file\n", dir);
	assert_string_equal(e2, want);
	char *o = slurp("out");
	assert_string_equal(o, "");
	free(good);
	free(e);
	free(now);
	free(n);
	free(e2);
	free(o);
}

/* Runs whose primary metric differs in name or unit were mixed into one table
 * (issue 27 item 13): compare refuses them, exit 2, one line naming the file and
 * the run, nothing on stdout. */
static void compare_mixed_primary_refused(void **state)
{
	(void)state;
	assert_int_equal(sh("compare results/golden/reaim-small.json results/golden/kernbench-small.json"), 2);
	char *o = slurp("out"), *e = slurp("err");
	assert_string_equal(o, "");
	assert_string_equal(e, "mmemu: results/golden/kernbench-small.json: runs[0].primary: expected the "
			       "primary metric of results/golden/reaim-small.json's runs, max_jpm (jobs/min), got "
			       "elapsed (s): runs of different primary metrics are not compared\n");
	free(o);
	free(e);
	/* the same file twice is one primary metric: compared */
	assert_int_equal(sh("compare results/golden/reaim-small.json results/golden/reaim-small.json"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(max_time_with_io_in_flight),
		cmocka_unit_test(planted_symlink_not_followed),
		cmocka_unit_test(reproduce_long_out_refused),
		cmocka_unit_test(stdout_write_error_exit_1),
		cmocka_unit_test(same_name_refused),
		cmocka_unit_test(empty_kept_result_rerun),
		cmocka_unit_test(host_oom_names_pages),
		cmocka_unit_test(tracegen_atomic_replay_truncated),
		cmocka_unit_test(compare_mixed_primary_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
