/*
 * bench_replay.c - replay throughput benchmark.
 *
 * Generates a seeded trace in memory (default: 10 M references, zipf alpha 0.9
 * over 1 M pages), writes it to /tmp and times loading it back with the trace
 * loader, then replays it with 250 000 frames through every policy (the textbook
 * five and 2q, arc, lirs, s3fifo, sieve), timing the
 * replay loop alone with clock_gettime (opt's prepare() is timed separately) and
 * measuring the host memory each policy and the replay loop allocate (glibc
 * mallinfo2, so the figures are what malloc actually handed out).
 *
 * With --load FILE it only times trace_load() of an existing file (any layout),
 * --repeat N times, and prints the wall and CPU (user + system) time per
 * reference of each load and the best of them: the figure docs/performance.md
 * quotes for large traces (50-100 M references, too big to generate each run).
 *
 * usage: bench_replay [--refs N] [--pages P] [--frames F] [--kind zipf|tworegion|loop]
 *                     [--alpha A] [--policy NAME]...
 *        bench_replay --load FILE [--repeat N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "models/reclaim/reclaim.h"
#include "tests/benchutil.h"
#include "workloads/replay.h"
#include "workloads/tracefile.h"
#include "workloads/tracegen.h"

/* (b - a) / n, or -1 when the allocator does not report (e.g. under ASan) */
static double per(size_t a, size_t b, double n)
{
	return b >= a && b - a < ((size_t)1 << 40) ? (double)(b - a) / n : -1;
}

/* --load: time trace_load() of @path @repeat times. Returns: the exit status. */
static int load_only(const char *path, int repeat)
{
	double best_w = 0, best_c = 0;
	for (int i = 0; i < repeat; i++) {
		struct trace t;
		struct mm_err e = { { 0 } };
		double w0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
		if (trace_load(&t, path, TRACE_AUTO, 0, &e) < 0) {
			fprintf(stderr, "%s\n", e.msg);
			return 2;
		}
		double w = bench_now(CLOCK_MONOTONIC) - w0, c = bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
		double n = (double)t.nrefs;
		printf("load %d: %zu refs, %u pages: %.3f s wall (%.2f ns/ref), %.3f s CPU (%.2f ns/ref)\n",
		       i + 1, t.nrefs, t.npages, w, w * 1e9 / n, c, c * 1e9 / n);
		if (!i || w * 1e9 / n < best_w)
			best_w = w * 1e9 / n;
		if (!i || c * 1e9 / n < best_c)
			best_c = c * 1e9 / n;
		trace_free(&t);
	}
	printf("best of %d: %.2f ns/ref wall, %.2f ns/ref CPU\n", repeat, best_w, best_c);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracegen_cfg c = tracegen_defaults();
	c.kind = TRACEGEN_ZIPF;
	c.refs = 10000000;
	c.pages = 1000000;
	c.alpha = 0.9;
	uint32_t frames = 250000;
	const char *pol[16];
	int npol = 0;
	struct mm_err e = { { 0 } };
	static const char usage[] =
		"usage: bench_replay [--refs N] [--pages P] [--frames F] [--kind zipf|tworegion|loop]\n"
		"                    [--alpha A] [--policy NAME]...\n"
		"       bench_replay --load FILE [--repeat N]\n";
	const char *load = NULL;
	int repeat = 1;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	if (argc % 2 == 0) {   /* every option takes a value */
		fprintf(stderr, "bench_replay: %s needs a value\n%s", argv[argc - 1], usage);
		return 2;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--refs"))
			c.refs = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--pages"))
			c.pages = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--frames"))
			frames = (uint32_t)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--alpha"))
			c.alpha = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--kind") && tracegen_kind_parse(argv[i + 1], &c.kind) == 0)
			;
		else if (!strcmp(argv[i], "--policy") && npol < 16)
			pol[npol++] = argv[i + 1];
		else if (!strcmp(argv[i], "--load"))
			load = argv[i + 1];
		else if (!strcmp(argv[i], "--repeat") && atoi(argv[i + 1]) >= 1)
			repeat = atoi(argv[i + 1]);
		else {
			fprintf(stderr, "bench_replay: bad option %s\n%s", argv[i], usage);
			return 2;
		}
	}
	if (load)
		return load_only(load, repeat);
	if (!npol) {
		static const char *const def[] = { "fifo", "lru", "clock", "opt", "random",
						   "2q", "arc", "lirs", "s3fifo", "sieve" };
		for (int i = 0; i < 10; i++)
			pol[npol++] = def[i];
	}

	uint32_t *gen = malloc(c.refs * sizeof *gen);
	double t0 = bench_now(CLOCK_MONOTONIC);
	if (!gen || tracegen_fill(&c, gen, &e) < 0) {
		fprintf(stderr, "bench_replay: %s\n", e.msg);
		return 1;
	}
	double t1 = bench_now(CLOCK_MONOTONIC);

	char path[] = "/tmp/mmemu_bench_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || tracegen_write(&c, f, path, &e) < 0) {
		fprintf(stderr, "bench_replay: cannot write %s %s\n", path, e.msg);
		return 1;
	}
	fclose(f);
	double t2 = bench_now(CLOCK_MONOTONIC);
	struct trace t;
	if (trace_load(&t, path, TRACE_AUTO, 0, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	double t3 = bench_now(CLOCK_MONOTONIC);
	/* the same trace in the binary layout (tracegen --format bin), loaded back */
	f = fopen(path, "w");
	if (!f || trace_write_bin(&t, f, path, &e) < 0) {
		fprintf(stderr, "bench_replay: cannot write %s %s\n", path, e.msg);
		return 1;
	}
	fclose(f);
	struct trace tb;
	double t4 = bench_now(CLOCK_MONOTONIC);
	if (trace_load(&tb, path, TRACE_AUTO, 0, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	double t5 = bench_now(CLOCK_MONOTONIC);
	if (tb.nrefs != t.nrefs || memcmp(tb.refs, t.refs, t.nrefs * sizeof *t.refs)) {
		fprintf(stderr, "bench_replay: the binary trace differs from the text one\n");
		return 1;
	}
	trace_free(&tb);
	unlink(path);
	for (size_t i = 0; i < t.nrefs; i++)
		if (t.orig[t.refs[i]] != gen[i]) {
			fprintf(stderr, "bench_replay: loaded trace differs at %zu\n", i);
			return 1;
		}
	free(gen);

	printf("trace: %s, %llu refs over %llu pages (%u distinct), alpha %.2f, seed %llu\n",
	       c.kind == TRACEGEN_ZIPF ? "zipf" : c.kind == TRACEGEN_TWOREGION ? "tworegion" : "loop",
	       (unsigned long long)c.refs, (unsigned long long)c.pages, t.npages, c.alpha,
	       (unsigned long long)c.seed);
	printf("generate %.3f s (%.1f Mrefs/s); write file %.3f s; load file %.3f s "
	       "(%.1f ns/ref); load binary %.3f s (%.1f ns/ref)\n", t1 - t0,
	       (double)c.refs / (t1 - t0) / 1e6, t2 - t1, t3 - t2, (t3 - t2) * 1e9 / (double)c.refs,
	       t5 - t4, (t5 - t4) * 1e9 / (double)c.refs);
	printf("frames: %u\n\n", frames);
	printf("%-7s %10s %8s %11s %10s %9s %14s %19s\n", "policy", "faults", "miss",
	       "prepare_ms", "replay_ms", "Mrefs/s", "policy_B/frame", "loop_B/(frame+page)");
	int rc = 0;
	for (int p = 0; p < npol; p++) {
		size_t h0 = bench_heap_bytes();
		struct reclaim *r = reclaim_create(pol[p], NULL, frames, NULL, NULL, NULL, &e);
		if (!r) {
			fprintf(stderr, "%s\n", e.msg);
			rc = 1;
			continue;
		}
		size_t h1 = bench_heap_bytes();
		struct replay rp;
		if (replay_init(&rp, r, t.npages, NULL, &e) < 0) {
			fprintf(stderr, "%s\n", e.msg);
			return 1;
		}
		size_t h2 = bench_heap_bytes();
		double a = bench_now(CLOCK_MONOTONIC);
		if (replay_prepare(&rp, t.refs, t.nrefs, &e) < 0) {
			fprintf(stderr, "%s\n", e.msg);
			return 1;
		}
		double b = bench_now(CLOCK_MONOTONIC);
		size_t h3 = bench_heap_bytes();
		if (replay_run(&rp, t.refs, t.nrefs, NULL, NULL, &e) < 0) {
			fprintf(stderr, "%s\n", e.msg);
			return 1;
		}
		double d = bench_now(CLOCK_MONOTONIC);
		size_t h4 = bench_heap_bytes();
		/* policy memory: per-frame state from create(); the loop's two arrays
		 * (page_of per frame, frame_of per page) are 4 bytes per entry: shown as
		 * bytes per (frame + page); prepare's per-reference table is below */
		printf("%-7s %10llu %8.4f %11.1f %10.1f %9.2f %14.1f %19.1f\n", pol[p],
		       (unsigned long long)rp.faults, (double)rp.faults / (double)rp.refs,
		       (b - a) * 1e3, (d - b) * 1e3, (double)rp.refs / (d - b) / 1e6,
		       per(h0, h1, frames), per(h1, h2, frames + (double)t.npages));
		if (h3 > h2)
			printf("        prepare() allocated %.1f MiB (%.1f bytes/reference, %.1f bytes/page)\n",
			       per(h2, h3, 1048576.0), per(h2, h3, (double)t.nrefs),
			       per(h2, h3, (double)t.npages));
		if (h4 > h3)
			printf("        replay allocated %zu bytes\n", h4 - h3);
		replay_fini(&rp);
		reclaim_destroy(r);
	}
	trace_free(&t);
	return rc;
}
