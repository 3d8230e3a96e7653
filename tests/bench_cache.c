/*
 * bench_cache.c - simulated references per host CPU-second of the cache
 * hierarchy (models/hw/cache.c) with the DS10's two levels and TLB (64 KiB 2-way
 * virtually indexed L1, 2 MiB direct-mapped physically indexed L2, 128-entry
 * TLB, 8 KiB pages), on three reference streams of 4 MiB with scattered frames:
 * a sequential read every 32 bytes (bw_mem rd), a pointer chase every 128 bytes
 * (lat_mem_rd), and an FFT-like butterfly pattern.  Not a test: prints
 * M refs/s per stream (docs/performance.md).
 *
 * usage: bench_cache   (no options; --help prints this, any other argument is
 *                       refused with exit 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/hw/cache.h"

#define PAGES 512   /* 4 MiB of 8 KiB pages */
static uint32_t frames[PAGES];

static uint32_t xlate(void *ctx, uint64_t vpn)
{
	(void)ctx;
	return frames[vpn % PAGES];
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static const char usage[] = "usage: bench_cache   (no options: 100 M references per stream, "
				    "M refs/s per host CPU-second)\n";
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "bench_cache: bad option %s\n%s", argv[1], usage);
		return 2;
	}
	const char *cfg = "{\"levels\": [{\"name\": \"L1d\", \"size\": \"64KiB\", \"line\": 64, \"assoc\": 2,"
			  " \"indexing\": \"virtual\", \"latency\": \"6ns\"},"
			  " {\"name\": \"L2\", \"size\": \"2MiB\", \"line\": 64, \"assoc\": 1, \"latency\": \"32ns\"}],"
			  " \"memory_bandwidth\": \"400MB/s\", \"tlb\": {\"entries\": 128}}";
	json_error_t je;
	json_t *o = json_loads(cfg, 0, &je);
	struct cache_cfg c;
	struct mm_err e = { 0 };
	c.mem_latency = 199e-9;
	if (!o || cache_cfg_load(&c, o, "bench", "caches", &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	json_decref(o);
	uint64_t x = 88172645463325252ull;
	for (uint32_t i = 0; i < PAGES; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		frames[i] = (uint32_t)(x % 32768);
	}
	enum { BATCH = 4096 };
	static uint64_t va[BATCH];
	const char *names[] = { "stream rd/32B", "chase/128B", "fft butterflies" };
	const uint64_t total = 100000000ull;
	for (int kind = 0; kind < 3; kind++) {
		struct cache_sim s;
		if (cache_sim_init(&s, &c, 466e6, 8192, &e))
			return 1;
		uint64_t done = 0, pos = 0, span = 1, k = 0;
		double dt = 0, simt = 0;
		while (done < total) {
			for (int i = 0; i < BATCH; i++) {
				const uint64_t size = PAGES * 8192ull;
				if (kind == 0) {
					va[i] = pos;
					pos = (pos + 32) % size;
				} else if (kind == 1) {
					pos = pos >= 128 ? pos - 128 : size - 128;
					va[i] = pos;
				} else {
					/* butterflies of 16-byte elements: k and k + span */
					uint64_t n = size / 16;
					uint64_t a = (k / span) * 2 * span + k % span;
					va[i] = (i & 1) ? (a + span) * 16 : a * 16;
					if (i & 1 && ++k >= n / 2) {
						k = 0;
						span = span * 2 >= n ? 1 : span * 2;
					}
				}
			}
			double t0 = now();
			simt += cache_run(&s, va, BATCH, kind == 1 ? CACHE_DEPENDENT : 0, xlate, NULL);
			dt += now() - t0;
			done += BATCH;
		}
		printf("%-16s %6.1f M refs/s  (L1 %.3f, L2 %.3f, memory %.3f of refs; TLB misses %llu; %.3f s simulated)\n",
		       names[kind], done / dt / 1e6, (double)s.st.hits[0] / s.st.refs,
		       (double)s.st.hits[1] / s.st.refs, (double)s.st.mem / s.st.refs,
		       (unsigned long long)s.st.tlb_misses, simt);
		cache_sim_fini(&s);
	}
	return 0;
}
