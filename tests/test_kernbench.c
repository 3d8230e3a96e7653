/*
 * test_kernbench.c - the kernbench workload (workloads/kernbench.c) on tiny trees:
 * exact and invariant checks of the scheduler wiring (models/sched/task.c).
 *
 * Each case writes a one-run scenario (1 GHz CPUs, so cycles = ns), runs the
 * built `mmemu run` on it ($MMEMU, set by meson test) and reads the metrics:
 * every job runs exactly once and at most `jobs` at a time; -j1 cannot use more
 * than one CPU; CPU-bound -j N >= CPUs keeps every CPU busy; user time is exactly
 * files x cc_cycles / clock (+ the link); no involuntary switch while there are
 * no more tasks than CPUs, some when there are more; two runs are identical
 * apart from the host section; with the process model (cc_text_pages), exact
 * fault, fork, exec and exit counts and no page left behind.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/runmmemu.h"

#define X86_64_64M "\"arch\": \"x86_64\", \"memory\": \"64MiB\""

/*
 * Run kernbench on @cpus CPUs of a machine with @mem (JSON members: arch, memory
 * and so on) and the workload keys @wl (JSON members, no braces), and return the
 * whole result document (caller decrefs).
 */
static json_t *run_kb_on(const char *mem, int cpus, const char *wl)
{
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-kb-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
		"{ \"name\": \"kernbench test\",\n"
		"  \"machine\": { %s, \"cpus\": %d, \"clock\": \"1GHz\",\n"
		"    \"copy_bw\": \"2GB/s\",\n"
		"    \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"60MB/s\",\n"
		"      \"write\": \"60MB/s\", \"seek_avg\": \"4.9ms\", \"track_to_track\": \"0.3ms\",\n"
		"      \"rpm\": 10000, \"queue\": \"elevator\" } ] },\n"
		"  \"kernels\": { \"lru2q\": { \"reclaim\": \"lru2q\" } },\n"
		"  \"workload\": { \"type\": \"kernbench\", \"check\": true, %s },\n"
		"  \"runs\": 1, \"seed\": 1 }\n",
		mem, cpus, wl);
	fclose(f);
	return run_results(scn, 1);
}

/* The same on the tests' usual machine: x86_64, 64 MiB. */
static json_t *run_kb(int cpus, const char *wl)
{
	return run_kb_on(X86_64_64M, cpus, wl);
}

#define SMALL_TREE "\"src_size\": \"8KiB\", \"headers\": 16, \"header_size\": \"4KiB\", " \
	      "\"headers_per_job\": 4, \"obj_size\": \"4KiB\""
#define SMALL "\"files\": 12, " SMALL_TREE

/* Every job (and the link) runs exactly once, never more than -j at a time. */
static void test_jobs_once(void **state)
{
	(void)state;
	static const int jobs[] = { 1, 3, 0 };
	for (int i = 0; i < 3; i++) {
		char wl[512];
		snprintf(wl, sizeof wl, SMALL ", \"jobs\": %d, \"cc_cycles\": 1e7, \"link_cycles\": 1e7",
			 jobs[i]);
		json_t *r = run_kb(4, wl);
		assert_true(metric(r, "complete") == 1);
		assert_true(metric(r, "jobs_run") == 13);
		assert_true(metric(r, "jobs_run_once") == 13);
		assert_true(metric(r, "max_running") <= (jobs[i] ? jobs[i] : 13));
		if (jobs[i] == 0)
			assert_true(metric(r, "max_running") > 4);
		assert_true(metric(r, "invariants_ok") == 1);
		json_decref(r);
	}
}

/* -j1 on 4 CPUs: one task at a time, so at most one CPU's worth; no preemption. */
static void test_j1(void **state)
{
	(void)state;
	json_t *r = run_kb(4, SMALL ", \"jobs\": 1, \"cc_cycles\": 5e7, \"link_cycles\": 5e7");
	assert_true(metric(r, "cpu_percent") <= 100.0 + 1e-9);
	assert_true(metric(r, "cpu_percent") > 50.0);
	assert_true(metric(r, "context_switches") == 0);
	assert_true(metric(r, "sleeps") > 0);   /* cold cache: disk reads */
	/* user time is exact: (12 x 5e7 + 5e7) cycles at 1 GHz */
	near(metric(r, "user_s"), 0.65, 1e-12);
	json_decref(r);
}

/* CPU-bound, -j4 and -j8 on 4 CPUs: all CPUs busy; preemption only above 4. */
static void test_cpu_bound(void **state)
{
	(void)state;
	json_t *r = run_kb(4, SMALL ", \"jobs\": 4, \"cc_cycles\": 1e9, \"link_cycles\": 0");
	double pct = metric(r, "cpu_percent");
	assert_true(pct > 390.0);
	assert_true(pct <= 400.0 + 1e-9);
	assert_true(metric(r, "context_switches") == 0);
	near(metric(r, "user_s"), 12.0, 1e-12);
	/* 12 one-second jobs on 4 CPUs: 3 s of CPU plus little I/O */
	assert_true(metric(r, "elapsed") >= 3.0 && metric(r, "elapsed") < 3.2);
	json_decref(r);

	r = run_kb(4, SMALL ", \"jobs\": 8, \"cc_cycles\": 1e9, \"link_cycles\": 0");
	assert_true(metric(r, "cpu_percent") > 390.0);
	assert_true(metric(r, "cpu_percent") <= 400.0 + 1e-9);
	assert_true(metric(r, "context_switches") > 0);   /* 100 ms slices, others waiting */
	near(metric(r, "user_s"), 12.0, 1e-12);
	json_decref(r);
}

/* Two runs of the same scenario are identical apart from the host section. */
static void test_determinism(void **state)
{
	(void)state;
	const char *wl = SMALL ", \"jobs\": 0, \"cc_cycles\": 2e8, \"link_cycles\": 1e7";
	json_t *a = run_kb(4, wl), *b = run_kb(4, wl);
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

/* The process model: every job forks from make, execs cc1 (its 8 text pages
 * faulted in through the page cache), dirties its 64 KiB heap and exits. */
static void test_process_model(void **state)
{
	(void)state;
	json_t *r = run_kb(2, SMALL ", \"jobs\": 3, \"cc_cycles\": 1e7, \"link_cycles\": 1e7, "
			      "\"cc_text_pages\": 8, \"cc_heap\": \"64KiB\", \"make_heap\": \"32KiB\"");
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	/* 13 execs x 8 text pages + 12 compiles x 16 heap pages */
	near(metric(r, "minor_faults") + metric(r, "major_faults"), 13 * 8 + 12 * 16, 0);
	if (metric(r, "major_faults") < 1)
		fail_msg("the first exec must read cc1 from disk");
	near(metric(r, "forks"), 13, 0);
	near(metric(r, "execs"), 1 + 13, 0);            /* make, and one per job */
	near(metric(r, "exits"), 13 + 13 + 1, 0);       /* exec'd copies, jobs, make */
	near(metric(r, "anon_zero_fills"), 8 + 12 * 16, 0);   /* make's heap + compiles */
	near(metric(r, "anon_pages"), 0, 0);
	/* make's own kernel time (its heap's 8 zero-fills and exit) is in system_s */
	if (metric(r, "make_system_s") <= 0)
		fail_msg("make zero-fills 8 heap pages: its system time cannot be 0");
	near(metric(r, "system_s"), metric(r, "jobs_system_s") + metric(r, "make_system_s"), 1e-12);
	json_decref(r);
}

/* Jobs that differ: the C files' sizes drawn from a lognormal (src_sigma) add up
 * to files x src_size, so user time is still exactly files x cc_cycles (+ as,
 * + the link) whatever cc_size_share is; the largest file is larger than the
 * mean and smaller than the tree.  With sigma 0 no draw (no src_largest).  (The
 * pipe's sleeps are not compared with equal files': the files' reads differ in
 * length, so the pipeline's timing does; they matched by chance until payments
 * ended at the canonical cycles/clock, docs/architecture.md "Payment by sleep".) */
static void test_src_sigma(void **state)
{
	(void)state;
	const char *base = "\"files\": 12, \"src_size\": \"16KiB\", \"headers\": 16, "
			   "\"header_size\": \"4KiB\", \"headers_per_job\": 4, \"obj_size\": \"4KiB\", "
			   "\"cc_cycles\": 1e7, \"link_cycles\": 1e7, \"as_cycles\": 1e6, "
			   "\"asm_size\": \"16KiB\", \"jobs\": 4";
	char buf[640];
	json_t *flat = run_kb(2, base);
	assert_null(json_object_get(json_object_get(json_array_get(json_object_get(flat, "runs"), 0),
						    "metrics"), "src_largest"));
	for (int share = 0; share < 3; share++) {
		snprintf(buf, sizeof buf, "%s, \"src_sigma\": 1.18, \"cc_size_share\": %g", base,
			 share * 0.5);
		json_t *r = run_kb(2, buf);
		near(metric(r, "invariants_ok"), 1, 0);
		near(metric(r, "jobs_run_once"), 13, 0);
		near(metric(r, "user_s"), (12 * 1.1e7 + 1e7) / 1e9, 1e-9);
		double big = metric(r, "src_largest");
		if (big <= 16384 || big >= 12 * 16384)
			fail_msg("largest C file %g bytes: expected above the mean, below the tree", big);
		json_decref(r);
	}
	json_decref(flat);
}

/* Maximal make -j with processes: as many jobs as fit in the free memory less
 * the build's page cache and the watermarks.  64 MiB with 8 MiB heaps (2050 pages
 * a job with its page table and stack): 7 at most (15 of 16 K pages free at
 * best), at least 5; never more running; nobody killed.  With 64 KiB heaps every
 * one of the 12 files fits. */
static void test_maximal_fits(void **state)
{
	(void)state;
	json_t *r = run_kb(2, SMALL ", \"jobs\": 0, \"cc_cycles\": 1e7, \"link_cycles\": 1e7, "
			      "\"cc_text_pages\": 8, \"cc_heap\": \"8MiB\", \"make_heap\": \"32KiB\"");
	near(metric(r, "invariants_ok"), 1, 0);
	near(metric(r, "oom_kills"), 0, 0);
	double n = metric(r, "maximal_jobs");
	if (n < 5 || n > 7)
		fail_msg("%g jobs fit in 64 MiB with 8 MiB heaps", n);
	if (metric(r, "max_running") > n)
		fail_msg("%g running, %g fit", metric(r, "max_running"), n);
	json_decref(r);
	r = run_kb(2, SMALL ", \"jobs\": 0, \"cc_cycles\": 1e7, \"link_cycles\": 1e7, "
		   "\"cc_text_pages\": 8, \"cc_heap\": \"64KiB\", \"make_heap\": \"32KiB\"");
	near(metric(r, "maximal_jobs"), 12, 0);
	json_decref(r);
}

/* Maximal make -j on an i386 machine with highmem: the heaps are GFP_HIGHUSER
 * and never get the lowmem_reserve that DMA and Normal keep back from
 * HighMem-class allocations (here Normal keeps HighMem/4 = 8,192 pages, 4 jobs'
 * heaps, and DMA 1/256 of the zones above it), so the cap counts only the free
 * pages above each zone's high watermark and reserve.  Then every job fits:
 * as many run as the cap, not one allocation stalls in direct reclaim, nothing
 * is scanned or killed.  Each compile takes 1 s, so every heap is touched
 * before the first job exits.  (Counting the reserves as free, as before, let
 * 125 jobs start instead of 120: 478,555 allocation stalls and 5 OOM kills.) */
static void test_maximal_lowmem_reserve(void **state)
{
	(void)state;
	json_t *r = run_kb_on("\"arch\": \"i386\", \"memory\": \"1GiB\", "
			      "\"lowmem_reserve_ratio\": [256, 256, 4, 32]",
			      2, SMALL_TREE ", \"files\": 160, \"jobs\": 0, \"cc_cycles\": 1e9, "
			      "\"link_cycles\": 1e7, \"cc_text_pages\": 8, \"cc_heap\": \"8MiB\", "
			      "\"make_heap\": \"32KiB\"");
	near(metric(r, "invariants_ok"), 1, 0);
	double n = metric(r, "maximal_jobs");
	if (n < 100 || n >= 160)
		fail_msg("%g jobs of 8 MiB fit in 1 GiB", n);
	near(metric(r, "max_running"), n, 0);
	near(vmstat(r, "allocstall"), 0, 0);
	near(vmstat(r, "pgscan_direct"), 0, 0);
	near(metric(r, "oom_kills"), 0, 0);
	json_decref(r);
}

/* The compiler pipeline (asm_size > 0) on a two-job build (-j2, 4 CPUs, 1 GHz):
 * cc1 writes 3 pages of assembly into a one-page pipe to as, then waits in wait4
 * for as; make waits in wait4 for the jobs and the link.  Hand-counted per job:
 * (a) as fast (3 ms against cc1's 300 ms): as sleeps on the empty pipe before
 * each page (3), cc1 never finds it full, the driver sleeps once (as still
 * assembles the last page), 4 wake-ups; (b) as slow (300 ms against 3 ms): as
 * sleeps once before the first page, cc1 sleeps once on the full pipe (page 3
 * while as is busy with page 1 and page 2 fills the pipe), the driver once, 3
 * wake-ups.  make sleeps twice (the first exit, the link; the second job has
 * exited by the time make waits for it).  The totals add to the same build's
 * sleeps without the pipeline (disk waits: 11), and the user time is cc1's and
 * as's. */
static void test_pipeline(void **state)
{
	(void)state;
	static const char *const wl[2] = {
		"\"cc_cycles\": 3e8, \"as_cycles\": 3e6",
		"\"cc_cycles\": 3e6, \"as_cycles\": 3e8",
	};
	static const double rs[2] = { 6, 2 }, ws[2] = { 0, 2 }, wk[2] = { 8, 6 };
	const char *tree = "\"files\": 2, \"src_size\": \"8KiB\", \"headers\": 16, "
			   "\"header_size\": \"4KiB\", \"headers_per_job\": 4, \"obj_size\": \"4KiB\", "
			   "\"jobs\": 2, \"link_cycles\": 1e7";
	char buf[512];
	snprintf(buf, sizeof buf, "%s, \"cc_cycles\": 3e8", tree);
	json_t *r = run_kb(4, buf);
	double disk_sleeps = metric(r, "sleeps");
	near(disk_sleeps, 11, 0);
	assert_null(json_object_get(json_object_get(json_array_get(json_object_get(r, "runs"), 0),
						    "metrics"), "pipe_reader_sleeps"));
	json_decref(r);
	for (int i = 0; i < 2; i++) {
		snprintf(buf, sizeof buf, "%s, %s, \"asm_size\": \"12KiB\"", tree, wl[i]);
		r = run_kb(4, buf);
		assert_true(metric(r, "invariants_ok") == 1);
		assert_true(metric(r, "jobs_run_once") == 3);
		near(metric(r, "as_run_once"), 2, 0);
		near(metric(r, "pipe_reader_sleeps"), rs[i], 0);
		near(metric(r, "pipe_writer_sleeps"), ws[i], 0);
		near(metric(r, "wait4_sleeps"), 2, 0);
		near(metric(r, "make_sleeps"), 2, 0);
		near(metric(r, "pipe_wakeups"), wk[i], 0);
		near(metric(r, "sleeps"), disk_sleeps + rs[i] + ws[i] + 2 + 2, 0);
		near(metric(r, "user_s"), 2 * 0.303 + 0.01, 1e-12);
		near(metric(r, "context_switches"), 0, 0);   /* 4 tasks, 4 CPUs */
		json_decref(r);
	}
}

/* Every process of a rule (rule_procs; workloads/kbuild.c): one file, one job.
 * Execs: make, sh, gcc, cc1, as, fixdep, rm, mv and the link = 9; forks
 * (copies of a parent's mm): sh forks gcc, fixdep, rm, mv, make the link = 5
 * (make's vfork of sh and the driver's of cc1 and as copy nothing); exits:
 * the 5 copies, the 7 rule processes, the link, make = 14; zero-filled pages:
 * make 8, sh 5, gcc 3, cc1 16, as 9, fixdep 2, rm 1, mv 1 = 45; text faults:
 * each dynamic run its own text + 7 library pages (sh 6, gcc 4, cc1 8, as 7,
 * fixdep 2, rm 3, mv 3) + the link's 8 = 90; faults 90 + 37 (make's 8 are
 * make's); each of the shell's 4 forks runs the child first (an involuntary
 * switch) and its exec moves it to an idle CPU; every pipe and wait4 wake-up
 * of the pipeline is pulled to the waker's CPU (wake_affine: the sleeper is
 * cache cold and its own CPU idle).  Two files: the per-file counts twice. */
static void test_rule_procs(void **state)
{
	(void)state;
	static const int files[2] = { 1, 2 };   /* [i % 2] */
	static const char *const fs[4] = { "", "", "\"fs\": \"ext3\", ", "\"dcache\": true, " };
	for (int i = 0; i < 4; i++) {
		char buf[1024];
		/* the third run: two files again, on ext3, with the dcache; the
		 * fourth: the dcache alone (no ext3 metadata), the same entries */
		snprintf(buf, sizeof buf,
			 "\"files\": %d, \"jobs\": %d, %s" SMALL_TREE ", \"cc_cycles\": 1e7, "
			 "\"link_cycles\": 1e7, \"cc_text_pages\": 8, \"cc_heap\": \"64KiB\", "
			 "\"make_heap\": \"32KiB\", \"asm_size\": \"12KiB\", \"as_cycles\": 3e6, "
			 "\"rule_procs\": true, \"sh_text\": 6, \"sh_data\": 5, \"gcc_text\": 4, "
			 "\"gcc_data\": 3, \"as_text\": 7, \"as_data\": 9, \"fixdep_text\": 2, "
			 "\"fixdep_data\": 2, \"util_text\": 3, \"util_data\": 1, \"ldso_text\": 2, "
			 "\"libc_text\": 5, \"sh_cycles\": 1e6, \"gcc_cycles\": 1e6, "
			 "\"fixdep_cycles\": 1e6, \"util_cycles\": 1e5, \"wake_affine\": true",
			 files[i % 2], files[i % 2], fs[i]);
		json_t *r = run_kb(4, buf);
		int n = files[i % 2];
		if (i < 2) {
			assert_true(metric_or(r, "dentries", -1) == -1);   /* no file system: none */
		} else {
			/* per file: its C file, its 4 headers (file 0 reads headers 0-3,
			 * file 1 headers 5-8: h0 = 37 i mod 16), its .o and its .cmd
			 * (the depfile is made and unlinked); vmlinux: 7 n + 1, every one
			 * with its inode.  Opens: cc1 and fixdep each open the C file
			 * and 4 headers (10), the .o, the depfile and .cmd.tmp (3); the
			 * link opens every .o and vmlinux: 13 n + n + 1 */
			near(metric(r, "dentries"), 7 * n + 1, 0);
			near(metric(r, "inodes"), 7 * n + 1, 0);
			near(metric(r, "dcache_opens"), 14 * n + 1, 0);
			near(metric(r, "dentries_pruned"), 0, 0);
		}
		near(metric(r, "invariants_ok"), 1, 0);
		near(metric(r, "oom_kills"), 0, 0);
		near(metric(r, "execs"), 2 + 7 * n, 0);
		near(metric(r, "forks"), 1 + 4 * n, 0);
		near(metric(r, "exits"), 3 + 11 * n, 0);
		near(metric(r, "anon_zero_fills"), 8 + 37 * n, 0);
		near(metric(r, "minor_faults") + metric(r, "major_faults"), 8 + (82 + 37) * n, 0);
		near(metric(r, "anon_pages"), 0, 0);
		near(metric(r, "fork_preempts"), 4 * n, 0);
		if (n == 1) {
			near(metric(r, "context_switches"), 4, 0);
			near(metric(r, "exec_moves"), 4, 0);
			near(metric(r, "affine_wakeups"), metric(r, "pipe_wakeups"), 0);
		}
		/* user time: cc1, as, the link, sh, gcc, fixdep, rm, mv */
		near(metric(r, "user_s"), n * (0.01 + 0.003 + 0.001 + 0.001 + 0.001 + 0.0002) + 0.01,
		     1e-9);
		json_decref(r);
	}
	/* rule_procs without the pipeline: refused (exit 2, one line, the path) */
	char scn[128];
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-kb-bad-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f, "{ \"name\": \"bad\", \"machine\": { " X86_64_64M ", \"cpus\": 2,\n"
		   "  \"disks\": [ { \"name\": \"sda\", \"size\": \"256MB\", \"read\": \"60MB/s\",\n"
		   "    \"write\": \"60MB/s\", \"seek_avg\": \"4.9ms\", \"rpm\": 10000 } ] },\n"
		   "  \"kernels\": { \"lru2q\": { \"reclaim\": \"lru2q\" } },\n"
		   "  \"workload\": { \"type\": \"kernbench\", \"cc_text_pages\": 8, "
		   "\"rule_procs\": true } }\n");
	fclose(f);
	assert_bad_scenario(scn, "workload.rule_procs");
}

/* Wake-up preemption (wake_preempt; models/sched/sched.c, 2.6.10 TASK_PREEMPTS_CURR).
 * One CPU, the two-job pipeline: every wake-up is a sync one onto the waker's
 * CPU (pipe, wait4: wake_up_interruptible_sync) or of a job with the same
 * sleep_avg as the running one (both forked by make with 0.9 s: CURRENT_BONUS
 * 10 x 95% = 9 steps of 100 ms), so nothing preempts and every count is the
 * same as without.  Two CPUs, three jobs: an as woken onto the other CPU, whose
 * cc1 has run down its sleep_avg, preempts it (measured: 1), and each
 * preemption is one more involuntary switch; the work does not change. */
static void test_wake_preempt(void **state)
{
	(void)state;
	const char *tree = "\"src_size\": \"8KiB\", \"headers\": 16, \"header_size\": \"4KiB\", "
			   "\"headers_per_job\": 4, \"obj_size\": \"4KiB\", \"link_cycles\": 1e7, "
			   "\"cc_cycles\": 3e8, \"as_cycles\": 3e6, \"asm_size\": \"12KiB\"";
	static const int cpus[2] = { 1, 2 }, files[2] = { 2, 3 }, npre[2] = { 0, 1 };
	static const char *const keys[] = { "sleeps", "pipe_reader_sleeps", "pipe_writer_sleeps",
					    "wait4_sleeps", "pipe_wakeups", "user_s" };
	for (int i = 0; i < 2; i++) {
		char buf[640];
		json_t *r[2];
		for (int on = 0; on < 2; on++) {
			snprintf(buf, sizeof buf, "%s, \"files\": %d, \"jobs\": %d, \"wake_preempt\": %s",
				 tree, files[i], files[i], on ? "true" : "false");
			r[on] = run_kb(cpus[i], buf);
			assert_true(metric(r[on], "invariants_ok") == 1);
			assert_true(metric(r[on], "jobs_run_once") == files[i] + 1);
		}
		near(metric(r[1], "preempt_wakeups"), npre[i], 0);
		near(metric(r[1], "context_switches"),
		     metric(r[0], "context_switches") + npre[i], 0);
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			near(metric(r[1], keys[k]), metric(r[0], keys[k]), 1e-12);
		if (i == 0)
			near(metric(r[1], "sched_switches"), metric(r[0], "sched_switches"), 0);
		json_decref(r[0]);
		json_decref(r[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process_model),
		cmocka_unit_test(test_pipeline),
		cmocka_unit_test(test_rule_procs),
		cmocka_unit_test(test_src_sigma),
		cmocka_unit_test(test_wake_preempt),
		cmocka_unit_test(test_maximal_fits),
		cmocka_unit_test(test_maximal_lowmem_reserve),
		cmocka_unit_test(test_jobs_once),
		cmocka_unit_test(test_j1),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
