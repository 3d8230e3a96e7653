/*
 * test_aim9.c - the aim9 workload (workloads/aim9.c): one call of each test with
 * the counts worked out by hand, the fixed-duration loop and its rate, the three
 * allocator modules, determinism, and the bad-parameter error path.
 *
 * Each case writes a one-run scenario on a small i386 box (1 GHz, so cycles =
 * ns; 4 CPUs so the aim9 task has a CPU of its own), runs the built `mmemu run`
 * ($MMEMU, set by meson test) with the invariant checker on and reads the
 * metrics.  The aim9 process has a 256 KiB heap (64 pages, all touched at exec:
 * 64 zero-fill faults before the clock starts) and 12 vm_area_structs.
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

/* Write the scenario: allocator @alloc, workload keys @wl (JSON members). */
static void write_scn(const char *alloc, const char *wl)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-aim9-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"aim9 test\",\n"
		"  \"machine\": { \"arch\": \"i386\", \"cpus\": 4, \"clock\": \"1GHz\",\n"
		"    \"memory\": \"128MiB\", \"copy_bw\": \"1GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"50MB/s\",\n"
		"      \"write\": \"50MB/s\", \"seek_avg\": \"5ms\", \"track_to_track\": \"0.5ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"fifo\" } ] },\n"
		"  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"alloc\": \"%s\"%s } },\n"
		"  \"workload\": { \"type\": \"aim9\", \"check\": true, %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		alloc, strcmp(alloc, "zbuddy") == 0 ? ", \"machine\": { \"kernelcore\": \"64MiB\" }" : "", wl);
	fclose(f);
}

static json_t *run_a9(const char *alloc, const char *wl)
{
	write_scn(alloc, wl);
	json_t *r = run_results(scn, 1);
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	near(metric(r, "complete"), 1, 0);
	return r;
}

/* One call (a duration shorter than any call) of test @name. */
static json_t *one_call(const char *alloc, const char *name, uint64_t ops)
{
	char wl[256];
	snprintf(wl, sizeof wl, "\"test\": \"%s\", \"duration\": \"1ns\"", name);
	json_t *r = run_a9(alloc, wl);
	near(metric(r, "calls"), 1, 0);
	near(metric(r, "ops"), (double)ops, 0);
	near(metric(r, "ops_per_s"), (double)ops / metric(r, "elapsed"), 1e-6 * (double)ops / metric(r, "elapsed"));
	return r;
}

#define HEAP 64   /* the aim9 process's heap pages, faulted in at exec */

/* page_test: 100 x (down 16 pages, 16 x up one page and write it): 1700 brk
 * calls, 1600 zero-fill faults, i.e. 1600 pages from the page allocator, in
 * every allocator module; brk_test: 17000 brk calls, no fault. */
static void test_page_brk(void **state)
{
	(void)state;
	static const char *const allocs[] = { "buddy", "mbuddy", "zbuddy" };
	for (int i = 0; i < 3; i++) {
		json_t *r = one_call(allocs[i], "page_test", 1700);
		near(metric(r, "brk_calls"), 1700, 0);
		near(metric(r, "anon_zero_fills"), HEAP + 1600, 0);
		near(metric(r, "minor_faults"), HEAP + 1600, 0);
		near(metric(r, "anon_pages"), 0, 0);
		/* a store every 128 bytes of 1600 pages, one cycle each */
		near(metric(r, "user_s"), 1600 * 32 / 1e9, 1e-15);
		json_decref(r);
	}
	json_t *r = one_call("buddy", "brk_test", 17000);
	near(metric(r, "brk_calls"), 17000, 0);
	near(metric(r, "minor_faults"), HEAP, 0);
	near(metric(r, "user_s"), 0, 0);
	json_decref(r);
}

/* fork_test: 100 forks, each child writes its stack page (a copy-on-write copy:
 * the parent still maps it) and exits; the parent's write after wait finds the
 * page its own again (reuse).  exec_test: 5 forks, each child execs `true`
 * (exit of the forked copy, a new address space, 32 text pages faulted in
 * through the page cache: the first read from disk) and exits. */
static void test_fork_exec(void **state)
{
	(void)state;
	json_t *r = one_call("buddy", "fork_test", 100);
	near(metric(r, "forks"), 100, 0);
	near(metric(r, "exits"), 100 + 1, 0);        /* the children, then aim9 */
	near(metric(r, "execs"), 1, 0);              /* aim9 itself */
	near(metric(r, "cow_copies"), 100, 0);
	near(metric(r, "cow_reuses"), 100, 0);
	near(metric(r, "minor_faults"), HEAP + 200, 0);
	near(metric(r, "anon_pages"), 0, 0);
	json_decref(r);
	r = one_call("mbuddy", "exec_test", 5);
	near(metric(r, "forks"), 5, 0);
	near(metric(r, "execs"), 1 + 5, 0);
	near(metric(r, "exits"), 5 + 5 + 1, 0);      /* forked copies, exec'd children, aim9 */
	near(metric(r, "major_faults"), 1, 0);
	near(metric(r, "minor_faults") + metric(r, "major_faults"), HEAP + 5 * 32 + 5, 0);
	json_decref(r);
}

/* creat-clo: 1000 creat + close and one unlink: the first creat makes the dentry
 * and inode, the other 999 truncate; every creat takes a struct file (3 more for
 * stdin, stdout, stderr); the unlink frees the inode.  link_test: 63 unlink +
 * link pairs on a file with 7 links (8 dentries, 1 inode made before), reusing
 * the negative dentries. */
static void test_files(void **state)
{
	(void)state;
	json_t *r = one_call("zbuddy", "creat-clo", 1000);
	near(metric(r, "dentry_allocs"), 1, 0);
	near(metric(r, "inode_allocs"), 1, 0);
	near(metric(r, "inode_frees"), 1, 0);
	near(metric(r, "filp_allocs"), 3 + 1000, 0);
	near(metric(r, "fs_path_walks"), 1000 + 1, 0);
	near(metric(r, "fs_dir_writes"), 2, 0);      /* add, delete */
	/* new inode, 999 truncates, the directory's mtime twice, unlink's link count and free */
	near(metric(r, "fs_inode_ops"), 1 + 999 + 2 + 2, 0);
	json_decref(r);
	r = one_call("buddy", "link_test", 63);
	near(metric(r, "links"), 63, 0);
	near(metric(r, "unlinks"), 63, 0);
	near(metric(r, "dentry_allocs"), 8, 0);
	near(metric(r, "inode_allocs"), 1, 0);
	near(metric(r, "fs_path_walks"), 3 * 63, 0);
	near(metric(r, "fs_dir_writes"), 2 * 63, 0);
	json_decref(r);
}

/* signal_test: 1000 signals, each a sigqueue object (one more kept from the
 * start); jmp_test: user time only, 1000 x jmp_cycles. */
static void test_signal_jmp(void **state)
{
	(void)state;
	json_t *r = one_call("buddy", "signal_test", 1000);
	near(metric(r, "signals"), 1000, 0);
	near(metric(r, "sigqueue_allocs"), 1 + 1000, 0);
	near(metric(r, "user_s"), 0, 0);
	json_decref(r);
	r = one_call("buddy", "jmp_test", 1000);
	near(metric(r, "user_s"), 1000 * 366 / 1e9, 1e-15);
	near(metric(r, "system_s"), 0, 0);
	near(metric(r, "elapsed"), 366e-6, 1e-15);
	json_decref(r);
}

/* The fixed duration: calls of exactly 1 ms (jmp_test, 1000 x 1000 cycles at
 * 1 GHz) until 2.5 ms have passed: 3 calls, 3000 gotos in 3 ms. */
static void test_duration(void **state)
{
	(void)state;
	json_t *r = run_a9("buddy", "\"test\": \"jmp_test\", \"jmp_cycles\": 1000, \"duration\": \"2.5ms\"");
	near(metric(r, "calls"), 3, 0);
	near(metric(r, "elapsed"), 3e-3, 1e-15);
	near(metric(r, "ops_per_s"), 1e6, 1e-6);
	json_decref(r);
}

/* Two runs of the same scenario are identical apart from the host section. */
static void test_determinism(void **state)
{
	(void)state;
	const char *wl = "\"test\": \"fork_test\", \"duration\": \"20ms\"";
	json_t *a = run_a9("mbuddy", wl), *b = run_a9("mbuddy", wl);
	assert_same_results(a, b);
}

/* Bad parameters: exit 2, nothing on stdout, one line on stderr naming the
 * file and the JSON path. */
static void bad(const char *wl, const char *want)
{
	write_scn("buddy", wl);
	assert_bad_scenario(scn, want);
}

static void test_bad_params(void **state)
{
	(void)state;
	bad("\"test\": \"fsync_test\"", "workload.test");
	bad("\"test\": 3", "workload.test");
	bad("\"duration\": \"0s\"", "workload.duration");
	bad("\"duration\": \"2h\"", "workload.duration");
	bad("\"exec_pages\": 0", "workload.exec_pages");
	bad("\"exec_pages\": 1000000", "workload.exec_pages");   /* larger than the disk */
	bad("\"tests\": \"page_test\"", "workload.tests");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_brk),
		cmocka_unit_test(test_fork_exec),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_signal_jmp),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
