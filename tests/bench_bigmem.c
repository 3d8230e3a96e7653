/*
 * bench_bigmem.c - host cost of big simulated machines: start-up, host memory per
 * simulated page, and host time per operation from 1 GiB to 1 TiB (issue 17, item 6).
 *
 * The workloads are the scenarios scenarios/bench/bigmem-2read.json and
 * bigmem-reaim.json: the same simulated work at every memory size (no reclaim is
 * needed at any of them), so any growth of the cost per operation with memory is
 * an engine cost that grows with memory.  For each memory size (machine.memory
 * overridden; default 1, 16, 256, 1024 and 2048 GiB) and workload, one simulation runs
 * in a forked child (SimGrid runs once per process), which measures
 *
 *  - start-up: host seconds of sim_start(), i.e. the spec, the SimGrid platform,
 *    the disks and the workload's start: mm_kernel_init() (zones and the page
 *    array, the allocator freeing every page, the reclaim module with its
 *    non-resident table, the swap map, kswapd) plus the workload's files and actors;
 *  - host bytes per simulated page over sim_start(), two ways: the growth of the
 *    resident set (/proc/self/statm: what the host had to back), and what malloc
 *    handed out (mallinfo2, in use + mmapped: also memory allocated but not yet
 *    touched, such as clockpro's non-resident table or the swap map);
 *  - per operation: host ns of sim_complete() (the simulation and the workload's
 *    finish; the tear-down is not counted) per read (2read), per job and per test
 *    (reaim), in CPU time (user + system of the process, the figure the spread is
 *    computed on: least disturbed by other jobs on a shared host) and wall time;
 *  - start-up and run times are both wall and CPU: on a virtual machine the
 *    difference is mostly the hypervisor backing memory touched for the first time;
 *  - the child's peak resident set (getrusage).
 *
 * A size whose page array (32 bytes per page) plus a tenth and 1 GiB would not fit
 * in the host's MemAvailable is skipped (2 TiB needs about 18.6 GiB free).  With --perf-ctl, each child switches a
 * `perf record -D -1 --control fifo:FIFO` on for its run and off after, so a
 * profile shows the runs without the start-ups.  usage: see usage[] below.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "emu/engine/engine.h"
#include "emu/engine/scenario.h"
#include "models/mm/page.h"
#include "tests/benchutil.h"

#define MAX_SIZES 16
#define GIB (1ull << 30)

static const char usage[] =
	"usage: bench_bigmem [--sizes GIB,GIB,...] [--workload 2read|reaim]... [--repeat N]\n"
	"                    [--dir DIR] [--perf-ctl FIFO]\n"
	"  --sizes     machine.memory values in GiB (default 1,16,256,1024,2048; at most\n"
	"              2048; a size that does not fit in MemAvailable is skipped)\n"
	"  --workload  run only this workload (repeatable; default 2read and reaim)\n"
	"  --repeat    simulations per cell; times are the minimum, memory the maximum\n"
	"              (default 1)\n"
	"  --dir       where bigmem-2read.json and bigmem-reaim.json are\n"
	"              (default scenarios/bench, from the source root)\n"
	"  --perf-ctl FIFO  write \"enable\" / \"disable\" to FIFO around each run, for\n"
	"              perf record -D -1 --control fifo:FIFO (profile the runs only)\n";

/* A benchmark workload: its scenario and what one operation is. */
struct bench {
	const char *name;
	const char *file;           /* under --dir */
	const char *op, *op_metric; /* per-op column: a metric of the results, or NULL */
	const char *op2_metric;     /* a second per-op column (reaim: tests), or NULL */
};

static const struct bench benches[] = {
	{ "2read", "bigmem-2read.json", "read", "reads", NULL },
	{ "reaim", "bigmem-reaim.json", "job", NULL, "tests" },
};
#define NBENCH (sizeof benches / sizeof benches[0])

/* One simulation's measurements (sent from the child through a pipe). */
struct sample {
	double startup_s, run_s;        /* wall */
	double startup_cpu, run_cpu;    /* CPU */
	double rss_bytes, malloc_bytes; /* growth over sim_start() */
	double ops, ops2;
	double pages;
	double maxrss_bytes;
	int ok;
};

/* Returns: this process's resident set in bytes (/proc/self/statm), 0 if unknown. */
static double rss_now(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (double)res * (double)sysconf(_SC_PAGESIZE);
}

/* Returns: the host's MemAvailable in bytes, or 0 if unknown. */
static double mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

/* --perf-ctl: the FIFO of `perf record --control`, or NULL */
static const char *perf_ctl;

/* Send @cmd ("enable", "disable") to perf's control FIFO, if there is one. */
static void perf_control(const char *cmd)
{
	FILE *f = perf_ctl ? fopen(perf_ctl, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "%s\n", cmd);
	fclose(f);
}

/* The child: run @spec, measure, write a struct sample to @fd. */
static void child(json_t *spec, const char *file, const struct bench *b, int fd)
{
	struct sample sm = { 0 };
	struct mm_err e = { "" };
	struct sim_state st;
	double r0 = rss_now(), h0 = (double)bench_heap_bytes();
	double t0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	if (sim_start(&st, spec, file, &e)) {
		fprintf(stderr, "bench_bigmem: %s\n", e.msg);
		_exit(1);
	}
	double t1 = bench_now(CLOCK_MONOTONIC), c1 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	double r1 = rss_now(), h1 = (double)bench_heap_bytes();
	sm.pages = (double)(st.s.machine->mem.memory / machine_page_size(st.s.machine));
	perf_control("enable");
	json_t *res = sim_complete(&st, &e);
	double t2 = bench_now(CLOCK_MONOTONIC), c2 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	perf_control("disable");
	json_t *m = json_object_get(res, "metrics");
	sm.startup_s = t1 - t0;
	sm.run_s = t2 - t1;
	sm.startup_cpu = c1 - c0;
	sm.run_cpu = c2 - c1;
	sm.rss_bytes = r1 - r0;
	sm.malloc_bytes = h1 - h0;
	if (b->op_metric)
		sm.ops = json_number_value(json_object_get(m, b->op_metric));
	else   /* reaim, fixed mode: one job per user */
		sm.ops = (double)json_integer_value(
			json_object_get(json_object_get(spec, "workload"), "users"));
	if (b->op2_metric)
		sm.ops2 = json_number_value(json_object_get(m, b->op2_metric));
	json_decref(res);
	sim_release(&st);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	sm.maxrss_bytes = (double)ru.ru_maxrss * 1024;
	sm.ok = 1;
	if (write(fd, &sm, sizeof sm) != (ssize_t)sizeof sm)
		_exit(1);
	_exit(0);
}

/* Run @spec with @gib GiB of memory in a child.  Returns: its sample (ok 0 on failure). */
static struct sample run_one(json_t *spec, const char *file, const struct bench *b,
			     unsigned long long gib)
{
	struct sample sm = { 0 };
	json_t *sp = json_deep_copy(spec);
	json_object_set_new(json_object_get(sp, "machine"), "memory", json_integer((json_int_t)(gib * GIB)));
	int p[2];
	if (pipe(p)) {
		json_decref(sp);
		return sm;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(sp, file, b, p[1]);
	}
	close(p[1]);
	json_decref(sp);
	if (pid < 0) {
		close(p[0]);
		return sm;
	}
	ssize_t n;
	do
		n = read(p[0], &sm, sizeof sm);
	while (n < 0 && errno == EINTR);
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	if (n != (ssize_t)sizeof sm || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "bench_bigmem: %s at %llu GiB: killed by signal %d\n", b->name,
				gib, WTERMSIG(status));
		memset(&sm, 0, sizeof sm);
	}
	return sm;
}

/* Keep the best of two samples: minimum times, maximum memory. */
static void merge(struct sample *best, const struct sample *s)
{
	if (!s->ok)
		return;
	if (!best->ok) {
		*best = *s;
		return;
	}
	if (s->startup_s < best->startup_s)
		best->startup_s = s->startup_s;
	if (s->run_s < best->run_s)
		best->run_s = s->run_s;
	if (s->startup_cpu < best->startup_cpu)
		best->startup_cpu = s->startup_cpu;
	if (s->run_cpu < best->run_cpu)
		best->run_cpu = s->run_cpu;
	if (s->rss_bytes > best->rss_bytes)
		best->rss_bytes = s->rss_bytes;
	if (s->malloc_bytes > best->malloc_bytes)
		best->malloc_bytes = s->malloc_bytes;
	if (s->maxrss_bytes > best->maxrss_bytes)
		best->maxrss_bytes = s->maxrss_bytes;
}

/* Parse "1,16,256" into @sizes.  Returns: how many, or -1 if malformed. */
static int parse_sizes(const char *arg, unsigned long long *sizes)
{
	int n = 0;
	const char *p = arg;
	while (*p) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p || errno || v < 1 || v > 2048 || n == MAX_SIZES || (*end && *end != ','))
			return -1;
		sizes[n++] = v;
		p = *end ? end + 1 : end;
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned long long sizes[MAX_SIZES] = { 1, 16, 256, 1024, 2048 };
	int nsizes = 5, repeat = 1;
	bool want[NBENCH] = { false };
	bool any = false;
	const char *dir = MMEMU_SRCDIR "/scenarios/bench";

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v) {
			fprintf(stderr, "bench_bigmem: %s needs a value\n%s", argv[i], usage);
			return 2;
		}
		if (!strcmp(argv[i], "--sizes")) {
			nsizes = parse_sizes(v, sizes);
			if (nsizes < 1) {
				fprintf(stderr, "bench_bigmem: --sizes expects GiB from 1 to 2048, "
						"comma-separated, got %s\n", v);
				return 2;
			}
		} else if (!strcmp(argv[i], "--repeat")) {
			repeat = atoi(v);
			if (repeat < 1 || repeat > 100) {
				fprintf(stderr, "bench_bigmem: --repeat expects 1..100, got %s\n", v);
				return 2;
			}
		} else if (!strcmp(argv[i], "--workload")) {
			size_t w = 0;
			while (w < NBENCH && strcmp(benches[w].name, v))
				w++;
			if (w == NBENCH) {
				fprintf(stderr, "bench_bigmem: unknown workload %s (expected 2read or reaim)\n", v);
				return 2;
			}
			want[w] = any = true;
		} else if (!strcmp(argv[i], "--dir")) {
			dir = v;
		} else if (!strcmp(argv[i], "--perf-ctl")) {
			perf_ctl = v;
		} else {
			fprintf(stderr, "bench_bigmem: bad option %s\n%s", argv[i], usage);
			return 2;
		}
		i++;
	}

	printf("start-up: wall and CPU seconds of sim_start (spec, platform, kernel init, "
	       "workload start)\n");
	printf("B/page: host bytes per simulated page over start-up; RSS = resident-set "
	       "growth, malloc = mallinfo2 growth\n");
	printf("per op: host ns of the simulation run (start-up and tear-down excluded), "
	       "CPU and wall; ops: 2read reads, reaim jobs and tests; best of %d\n\n", repeat);
	printf("%-6s %5s %10s %7s %7s %7s %7s %8s %8s %8s %7s\n", "work", "GiB", "pages",
	       "start_s", "st_cpu", "RSS_B", "mall_B", "cpu_ns", "wall_ns", "test_ns", "maxRSS");
	printf("%-6s %5s %10s %7s %7s %7s %7s %8s %8s %8s %7s\n", "", "", "", "wall", "s",
	       "/page", "/page", "/op", "/op", "cpu", "MiB");
	int rc = 0;
	for (size_t w = 0; w < NBENCH; w++) {
		if (any && !want[w])
			continue;
		const struct bench *b = &benches[w];
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, b->file);
		struct scenario sc;
		struct mm_err e = { "" };
		if (scenario_load(&sc, path, &e)) {
			fprintf(stderr, "bench_bigmem: %s\n", e.msg);
			return 1;
		}
		double base = 0, lo = 0, hi = 0;
		struct sample first = { 0 }, last = { 0 };
		for (int i = 0; i < nsizes; i++) {
			double need = (double)(sizes[i] * GIB / 4096) * sizeof(struct page);
			double avail = mem_available();
			if (avail > 0 && need * 1.1 + GIB > avail) {
				printf("%-6s %6llu   skipped: the page array alone needs %.1f GiB, "
				       "MemAvailable is %.1f GiB\n", b->name, sizes[i], need / GIB,
				       avail / GIB);
				continue;
			}
			struct sample best = { 0 };
			for (int r = 0; r < repeat; r++) {
				struct sample s = run_one(sc.sims[0].spec, sc.file, b, sizes[i]);
				merge(&best, &s);
			}
			if (!best.ok) {
				printf("%-6s %6llu   failed\n", b->name, sizes[i]);
				rc = 1;
				continue;
			}
			double per = best.ops > 0 ? best.run_cpu / best.ops * 1e9 : 0;
			double perw = best.ops > 0 ? best.run_s / best.ops * 1e9 : 0;
			char per2[32] = "-";
			if (b->op2_metric && best.ops2 > 0)
				snprintf(per2, sizeof per2, "%.0f", best.run_cpu / best.ops2 * 1e9);
			printf("%-6s %5llu %10.0f %7.2f %7.2f %7.2f %7.2f %8.0f %8.0f %8s %7.0f\n",
			       b->name, sizes[i], best.pages, best.startup_s, best.startup_cpu,
			       best.rss_bytes / best.pages, best.malloc_bytes / best.pages, per, perw,
			       per2, best.maxrss_bytes / (1 << 20));
			fflush(stdout);
			if (!first.ok)
				first = best;
			last = best;
			if (base == 0)
				base = lo = hi = per;
			lo = per < lo ? per : lo;
			hi = per > hi ? per : hi;
		}
		if (base > 0)
			printf("%-6s CPU ns/%s: %.0f at the smallest size; spread over the sizes "
			       "(max/min - 1): %.0f%%\n", b->name, b->op, base, (hi / lo - 1) * 100);
		if (last.pages > first.pages)   /* the fixed start-up memory cancels out */
			printf("%-6s RSS growth per added simulated page, smallest to largest size: "
			       "%.2f bytes\n", b->name,
			       (last.rss_bytes - first.rss_bytes) / (last.pages - first.pages));
		if (base > 0)
			printf("\n");
		scenario_free(&sc);
	}
	return rc;
}
