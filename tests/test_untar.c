/*
 * test_untar.c - the untar workload (workloads/untar.c): a tiny tree extracted
 * with the counts worked out by hand, determinism, and the bad-parameter error
 * paths.  Same scaffolding as test_aim9.c: a one-run scenario on a small i386
 * box (1 GHz, so cycles = ns; 4 CPUs: bzip2 and tar on CPUs of their own), the
 * built `mmemu run` ($MMEMU), the invariant checker on.
 */
#include <fcntl.h>
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

#include "tests/runmmemu.h"

static char scn[128];

/* Write the scenario: @cpus CPUs, workload keys @wl (JSON members). */
static void write_scn(int cpus, const char *wl)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-untar-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"untar test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": %d, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"128MiB\", \"copy_bw\": \"1GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"50MB/s\",\n"
		"      \"write\": \"50MB/s\", \"seek_avg\": \"5ms\", \"track_to_track\": \"0.5ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"fifo\" } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"alloc\": \"mbuddy\", \"vm\": { \"dirty_writeback\": true } } },\n"
		"  \"workload\": { \"type\": \"untar\", \"check\": true, %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		cpus, wl);
	fclose(f);
}

#define TINY "\"tarball_size\": \"64KiB\", \"tree_size\": \"1MiB\", \"tree_files\": 100, " \
	     "\"tree_dirs\": 10, \"depth\": 3, \"bunzip2_cycles\": 10"

/* 1 MiB in 100 files in 10 directories: 110 dentries and inodes, 110 path
 * walks (100 of 3 components, 10 mkdirs of 2), 100 directory entries, 210
 * inode operations (each file's new inode and its directory's mtime, each
 * mkdir's inode), 266 blocks (256 of data, one per directory); bzip2's user
 * time is exactly 10 cycles per output byte; every byte reaches the tree. */
static void test_tiny_tree(void **state)
{
	(void)state;
	write_scn(4, TINY);
	json_t *r = run_results(scn, 1);
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "complete"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	near(metric(r, "files"), 100, 0);
	near(metric(r, "dirs"), 10, 0);
	near(metric(r, "bytes"), 1048576, 0);
	near(metric(r, "dentries"), 110, 0);
	near(metric(r, "inodes"), 110, 0);
	near(metric(r, "fs_path_walks"), 110, 0);
	near(metric(r, "dcache_lock_acquisitions"), 100 * 3 + 10 * 2, 0);
	near(metric(r, "fs_dir_writes"), 100, 0);
	near(metric(r, "fs_inode_ops"), 210, 0);
	near(metric(r, "fs_blocks"), 266, 0);
	near(metric(r, "bzip2_user_s"), 10 * 1048576 / 1e9, 1e-15);
	if (!(metric(r, "extract_s") >= metric(r, "bzip2_user_s")))
		fail_msg("the extract cannot end before bzip2 has decompressed everything");
	json_decref(r);
}

/* Two runs of the same scenario are identical apart from the host section. */
static void test_determinism(void **state)
{
	(void)state;
	json_t *a, *b;
	write_scn(4, TINY);
	a = run_results(scn, 1);
	write_scn(4, TINY);
	b = run_results(scn, 1);
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

/* Bad parameters: exit 2, nothing on stdout, one line on stderr naming the
 * file and the JSON path. */
static void bad(int cpus, const char *wl, const char *want)
{
	write_scn(cpus, wl);
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

static void test_bad_params(void **state)
{
	(void)state;
	bad(4, "\"tree_size\": \"1MiB\", \"tree_files\": 100, \"depth\": 0", "workload.depth");
	bad(4, "\"tree_size\": \"1MiB\", \"tree_files\": 5000", "workload.tree_files");
	bad(4, "\"tree_size\": \"300MiB\"", "machine.disks[0].size");
	bad(1, TINY, "machine.cpus");
	bad(4, TINY ", \"bunzip2\": 1", "workload.bunzip2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny_tree),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
