/*
 * lmbench.c - seed 004's memory benchmarks on the cache hierarchy (models/hw/cache.h):
 * lmbench's lat_mem_rd and bw_mem, and an in-place radix-2 FFT (the `lmbench`
 * workload runs all three, the `fft` workload the FFT alone), each run as a new
 * process whose anonymous pages come from the kernel's allocator and colouring
 * module (models/mm/proc.c, models/coloring), after an optional aging phase.
 *
 * lmbench 2 (src/lat_mem_rd.c, src/bw_mem.c; ../shared/docs/workloads.md):
 *   lat_mem_rd SIZE STRIDE: a pointer chain that steps one stride backwards through
 *   the array and wraps at its start; one warm-up pass, then at least `min_refs`
 *   dependent loads; ns per load.
 *   bw_mem SIZE rd|wr|cp|bcopy: rd/wr touch one word every 32 bytes; cp reads one
 *   word every 32 bytes of a source and writes it to a destination of the same
 *   size; bcopy (libc) moves every 8-byte word; MB/s with MB = 10^6 bytes of SIZE.
 *   wr's words and the copies' destination are stores: their dirty lines cost a
 *   write to memory when the last level evicts them (cache.h).
 *   Independent references: the hierarchy charges each line fill at its level's
 *   bandwidth (models/hw/cache.c).
 * fft: an in-place iterative radix-2 complex FFT (16-byte elements, N = SIZE / 16):
 *   the bit-reversal swaps, then log2 N stages of N/2 butterflies, each loading and
 *   storing its two elements; `butterfly_cycles` of arithmetic each (twiddles are
 *   computed, not loaded).  The reference stream is generated, not traced.  One
 *   warm-up transform, then one measured; milliseconds and MFLOPS (5 N log2 N).
 *
 * Aging (kernel-mechanisms.md 5.4a): right after boot the buddy lists hand out long
 * contiguous runs, so pages are coloured by accident.  With `aging` the workload
 * first runs, untimed (mm_set_untimed), `age_turnovers` x memory of random 64 KiB
 * reads of a file twice the size of memory, interleaved with process churn (up
 * to `age_procs` processes of 1..`age_proc_max` pages created, touched and exited
 * in random order).  Reclaim then frees page-cache pages in LRU order and the
 * LIFO free lists mix; the draws come from the stream (seed, run, "lmbench-aging"),
 * so each run index ages differently and the run-to-run variance is that of the
 * free lists, not of a colour drawn at random.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/rng.h"
#include "emu/core/sim.h"
#include "models/hw/cache.h"
#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "workloads/lmbench.h"
#include "workloads/workload.h"

/* The keys the lmbench and fft workloads share. */
#define LMB_SHARED_PARAMS \
	MM_PARAM(struct lmb_cfg, size, "size", MM_P_SIZE, 512, 1ull << 32, "\"1MiB\"", \
		 "working set of every benchmark: lat_mem_rd's array, bw_mem's buffer, the FFT's data"), \
	MM_PARAM(struct lmb_cfg, butterfly_cycles, "butterfly_cycles", MM_P_DOUBLE, 0, 1e6, "10", \
		 "CPU cycles of one radix-2 butterfly's arithmetic (10 flops; calibration)"), \
	MM_PARAM(struct lmb_cfg, aging, "aging", MM_P_BOOL, 1, 0, "true", \
		 "age memory first: file reading and process churn (kernel-mechanisms.md 5.4a)"), \
	MM_PARAM(struct lmb_cfg, age_turnovers, "age_turnovers", MM_P_DOUBLE, 0, 100, "3", \
		 "memory sizes of random file reads during aging"), \
	MM_PARAM(struct lmb_cfg, age_procs, "age_procs", MM_P_INT, 0, 64, "4", \
		 "processes alive at most during aging"), \
	MM_PARAM(struct lmb_cfg, age_proc_max, "age_proc_max", MM_P_INT, 1, 1 << 20, "1024", \
		 "largest aging process, pages"), \
	MM_PARAM(struct lmb_cfg, check, "check", MM_P_BOOL, 1, 0, "false", \
		 "run the mm, process and colour-list invariant checkers at the end (tests)")

static const struct mm_param lmb_params[] = {
	LMB_SHARED_PARAMS,
	MM_PARAM(struct lmb_cfg, stride, "stride", MM_P_SIZE, 8, 1 << 20, "128",
		 "lat_mem_rd stride (lmbench's summary reads the 128-byte curve)"),
	MM_PARAM(struct lmb_cfg, min_refs, "min_refs", MM_P_INT, 1, 1000000000, "262144",
		 "measured references of lat_mem_rd and each bw_mem test, at least one whole pass"),
	MM_PARAM(struct lmb_cfg, lat, "lat_mem_rd", MM_P_BOOL, 1, 0, "true", "run lat_mem_rd"),
	MM_PARAM(struct lmb_cfg, bw, "bw_mem", MM_P_BOOL, 1, 0, "true", "run bw_mem rd, wr, cp, bcopy"),
	MM_PARAM(struct lmb_cfg, fft, "fft", MM_P_BOOL, 1, 0, "true", "run the FFT"),
	MM_PARAM(struct lmb_cfg, comm, "comm", MM_P_BOOL, 1, 0, "false",
		 "run bw_unix, bw_pipe, bw_file_rd and bw_mmap_rd first, their copies and reads through the caches"),
	MM_PARAM(struct lmb_cfg, comm_bytes, "comm_bytes", MM_P_SIZE, 65536, 1ull << 32, "\"4MiB\"",
		 "bytes bw_unix and bw_pipe measure (after as many again of warm-up), bw_file_rd and bw_mmap_rd at least"),
	MM_PARAM(struct lmb_cfg, file_size, "file_size", MM_P_SIZE, 65536, 1ull << 32, "\"8MiB\"",
		 "size of bw_file_rd's and bw_mmap_rd's file (written first, as lmbench's lmdd does)"),
	MM_PARAM_END
};

static const struct mm_param fft_params[] = {
	LMB_SHARED_PARAMS,
	MM_PARAM_END
};

enum { BW_RD, BW_WR, BW_CP, BW_BCOPY };
static const char *const bw_names[] = { "bw_rd_MBps", "bw_wr_MBps", "bw_cp_MBps", "bw_bcopy_MBps" };

static int lmb_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		     struct mm_err *e)
{
	struct lmb_cfg *c = cfgp;
	char sub[256];
	if (!m->caches.nlevels) {
		snprintf(sub, sizeof sub, "machine.caches");
		return mm_errf(e, file, sub, "the lmbench workload needs a cache hierarchy (machine.caches)");
	}
	if (c->comm && m->ndisks == 0)
		return mm_errf(e, file, "machine.disks", "bw_file_rd (comm) writes a file: expected a disk");
	if (c->aging && m->ndisks == 0)
		return mm_errf(e, file, "machine.disks", "aging reads a file: expected a disk");
	uint64_t ps = machine_page_size(m);
	if (c->size / ps >= (1u << 24)) {
		snprintf(sub, sizeof sub, "%s.size", path);
		return mm_errf(e, file, sub, "expected less than 2^24 pages (%llu bytes each)",
			       (unsigned long long)ps);
	}
	if (c->stride & (c->stride - 1) || c->stride > c->size) {
		snprintf(sub, sizeof sub, "%s.stride", path);
		return mm_errf(e, file, sub, "expected a power of two no larger than size");
	}
	if (c->fft && (c->size & (c->size - 1) || c->size < 64)) {
		snprintf(sub, sizeof sub, "%s.size", path);
		return mm_errf(e, file, sub, "the FFT needs a power of two (or \"fft\": false)");
	}
	return 0;
}

/* ---------------------------------------------------------------- one process */

/* The page-table walk of a TLB refill: the heap page's frame (faulted in when
 * absent, as the hardware's miss would). */
uint32_t lmb_xlate(void *ctx, uint64_t vpn)
{
	struct proc_ctx *p = ctx;
	if (vpn >= p->as->npages)
		return CACHE_NO_PFN;
	uint32_t pfn = mm_as_pfn(p->as, (uint32_t)vpn);
	if (pfn == PFN_NONE) {
		if (mm_touch(p->k, p->t, p->as, (uint32_t)vpn, 1, false) < 0)
			return CACHE_NO_PFN;
		pfn = mm_as_pfn(p->as, (uint32_t)vpn);
	}
	return pfn == PFN_NONE ? CACHE_NO_PFN : pfn;
}

int lmb_proc_start(struct lmb_cfg *c, struct proc_ctx *p, struct mm_task *t, uint64_t bytes)
{
	p->k = c->k;
	p->t = t;
	p->as = mm_as_new(p->k, p->t);
	if (!p->as)
		return -1;
	uint32_t n = (uint32_t)((bytes + c->k->phys.page_size - 1) / c->k->phys.page_size);
	if (mm_brk(p->k, p->t, p->as, n) || mm_touch(p->k, p->t, p->as, 0, n, true) < 0) {
		mm_as_exit(p->k, p->t, p->as);
		return -1;
	}
	return 0;
}

void lmb_proc_end(struct proc_ctx *p)
{
	mm_as_exit(p->k, p->t, p->as);
	p->as = NULL;
}

/* Run @n generated references through the hierarchy and charge their time.
 * Returns: simulated seconds charged. */
struct gen {
	uint64_t *va;
	size_t n;
};

static void flush(struct lmb_cfg *c, struct proc_ctx *p, struct gen *g, unsigned flags)
{
	if (!g->n)
		return;
	double s = cache_run(&c->cs, g->va, g->n, flags, lmb_xlate, p);
	mm_charge(p->t, s * c->k->clock);
	c->charged += s;
	g->n = 0;
}

static inline void emit(struct lmb_cfg *c, struct proc_ctx *p, struct gen *g, uint64_t a,
			unsigned flags)
{
	g->va[g->n++] = a;
	if (g->n == BATCH)
		flush(c, p, g, flags);
}

/* Pages of the heap whose L2 colour another page of the heap shares. */
static void colour_conflicts(struct lmb_cfg *c, struct proc_ctx *p)
{
	uint32_t ncol = c->k->coloring->ncolors, n = p->as->npages;
	uint32_t *cnt = calloc(ncol, sizeof *cnt);
	if (!cnt)
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t pfn = mm_as_pfn(p->as, i);
		if (pfn != PFN_NONE)
			cnt[pfn % ncol]++;
	}
	uint32_t conf = 0;
	for (uint32_t i = 0; i < ncol; i++)
		conf += cnt[i] > 1 ? cnt[i] : 0;
	free(cnt);
	c->conflict_pages = conf;
	c->pages = n;
}

/* The benchmark's clock: the time charged since meter_start().  The task's simulated clock
 * advances by exactly this (the heap is faulted in before each measurement), but
 * differences of large clock values would add rounding noise of ~1e-15 relative,
 * which the paired tests of `reproduce` would read as a difference. */
static double now(struct lmb_cfg *c, struct mm_task *t)
{
	mm_sync(t);
	return c->charged;
}

/* Start measuring: the charged time restarts from 0, so that the same references
 * give bit-identical times whatever ran before.  Returns: 0, the start time. */
static double meter_start(struct lmb_cfg *c, struct mm_task *t)
{
	mm_sync(t);
	c->charged = 0;
	return 0;
}

/* One pass of the lat_mem_rd chain: one stride backwards from the end, to 0. */
static void lat_pass(struct lmb_cfg *c, struct proc_ctx *p, struct gen *g)
{
	for (uint64_t a = c->size - c->stride;; a -= c->stride) {
		emit(c, p, g, a, CACHE_DEPENDENT);
		if (a == 0)
			break;
	}
}

static void run_lat(struct lmb_cfg *c, struct gen *g)
{
	struct proc_ctx p;
	if (lmb_proc_start(c, &p, &c->task, c->size)) {
		c->failed = true;
		return;
	}
	colour_conflicts(c, &p);
	uint64_t per_pass = c->size / c->stride;
	uint64_t passes = ((uint64_t)c->min_refs + per_pass - 1) / per_pass;
	lat_pass(c, &p, g);   /* warm-up */
	flush(c, &p, g, CACHE_DEPENDENT);
	uint64_t mem0 = c->cs.st.mem;
	double t0 = meter_start(c, p.t);
	for (uint64_t i = 0; i < passes; i++)
		lat_pass(c, &p, g);
	flush(c, &p, g, CACHE_DEPENDENT);
	c->lat_ns = (now(c, p.t) - t0) / (double)(passes * per_pass) * 1e9;
	c->l2_misses_lat = c->cs.st.mem - mem0;
	lmb_proc_end(&p);
}

/* One pass of bw_mem test @w over the buffers at 0 (source) and @size (copy). */
static void bw_pass(struct lmb_cfg *c, struct proc_ctx *p, struct gen *g, int w)
{
	uint64_t step = w == BW_BCOPY ? 8 : 32;
	for (uint64_t a = 0; a < c->size; a += step) {
		emit(c, p, g, w == BW_WR ? a | CACHE_WRITE : a, 0);
		if (w == BW_CP || w == BW_BCOPY)
			emit(c, p, g, (c->size + a) | CACHE_WRITE, 0);
	}
}

static void run_bw(struct lmb_cfg *c, struct gen *g, int w)
{
	struct proc_ctx p;
	bool two = w == BW_CP || w == BW_BCOPY;
	if (lmb_proc_start(c, &p, &c->task, two ? 2 * c->size : c->size)) {
		c->failed = true;
		return;
	}
	uint64_t per_pass = c->size / (w == BW_BCOPY ? 8 : 32) * (two ? 2 : 1);
	uint64_t passes = ((uint64_t)c->min_refs + per_pass - 1) / per_pass;
	bw_pass(c, &p, g, w);   /* warm-up */
	flush(c, &p, g, 0);
	double t0 = meter_start(c, p.t);
	for (uint64_t i = 0; i < passes; i++)
		bw_pass(c, &p, g, w);
	flush(c, &p, g, 0);
	double dt = now(c, p.t) - t0;
	c->mbps[w] = dt > 0 ? (double)c->size * (double)passes / dt / 1e6 : 0;
	lmb_proc_end(&p);
}

static uint64_t bitrev(uint64_t x, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i++, x >>= 1)
		r = (r << 1) | (x & 1);
	return r;
}

/* One in-place radix-2 FFT over N = size / 16 elements. */
static void fft_once(struct lmb_cfg *c, struct proc_ctx *p, struct gen *g)
{
	uint64_t n = c->size / 16;
	unsigned bits = 0;
	while ((1ull << bits) < n)
		bits++;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t j = bitrev(i, bits);
		if (i < j) {
			emit(c, p, g, i * 16, 0);
			emit(c, p, g, j * 16, 0);
			emit(c, p, g, i * 16, 0);
			emit(c, p, g, j * 16, 0);
		}
	}
	for (uint64_t h = 1; h < n; h <<= 1) {
		for (uint64_t b = 0; b < n; b += 2 * h)
			for (uint64_t j = 0; j < h; j++) {
				uint64_t a = (b + j) * 16, d = (b + j + h) * 16;
				emit(c, p, g, a, 0);
				emit(c, p, g, d, 0);
				emit(c, p, g, a, 0);
				emit(c, p, g, d, 0);
			}
		flush(c, p, g, 0);
		mm_charge(p->t, (double)(n / 2) * c->butterfly_cycles);
		c->charged += (double)(n / 2) * c->butterfly_cycles / c->k->clock;
	}
	flush(c, p, g, 0);
}

static void run_fft(struct lmb_cfg *c, struct gen *g)
{
	struct proc_ctx p;
	if (lmb_proc_start(c, &p, &c->task, c->size)) {
		c->failed = true;
		return;
	}
	fft_once(c, &p, g);
	double t0 = meter_start(c, p.t);
	fft_once(c, &p, g);
	c->fft_s = now(c, p.t) - t0;
	lmb_proc_end(&p);
}

/* ---------------------------------------------------------------- aging */

static void age(struct lmb_cfg *c, struct sim *s)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	struct mm_rng r;
	mm_rng_seed(&r, s->seed, (uint64_t)s->run, "lmbench-aging");
	const uint64_t chunk = 64 << 10;
	uint64_t reads = (uint64_t)(c->age_turnovers * (double)k->phys.cfg.memory / (double)chunk);
	uint64_t nchunks = c->age_file->size / chunk;
	struct proc_ctx live[64];
	int nlive = 0;
	struct mm_read_stats st = { 0 };
	mm_set_untimed(k, true);
	for (uint64_t i = 0; i < reads; i++) {
		mm_file_read(k, t, c->age_file, mm_rng_below(&r, nchunks) * chunk, chunk, &st);
		c->age_reads++;
		if (c->age_procs == 0 || i % 8)
			continue;
		/* process churn: start one while there is room (and on a coin toss),
		 * else end a random one */
		if (nlive < c->age_procs && (nlive == 0 || mm_rng_below(&r, 2))) {
			uint64_t pages = 1 + mm_rng_below(&r, (uint64_t)c->age_proc_max);
			if (lmb_proc_start(c, &live[nlive], &c->task, pages * k->phys.page_size) == 0) {
				nlive++;
				c->age_procs_run++;
			}
		} else if (nlive) {
			int v = (int)mm_rng_below(&r, (uint64_t)nlive);
			lmb_proc_end(&live[v]);
			live[v] = live[--nlive];
		}
	}
	while (nlive)
		lmb_proc_end(&live[--nlive]);
	mm_set_untimed(k, false);
}

/* ---------------------------------------------------------------- actor */

static void bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct sim *s = t->wl;
	struct lmb_cfg *c = s->wl_cfg;
	struct gen g = { .va = malloc(BATCH * sizeof(uint64_t)) };
	if (!g.va) {
		c->failed = true;
		return;
	}
	if (c->aging)
		age(c, s);
	if (c->comm)
		lmb_comm_run(c);
	if (c->lat)
		run_lat(c, &g);
	if (c->bw)
		for (int w = 0; w < 4; w++)
			run_bw(c, &g, w);
	if (c->fft)
		run_fft(c, &g);
	free(g.va);
	mm_sync(t);
	if (c->check) {
		struct mm_err e = { "" };
		c->check_failed = mm_kernel_check(c->k, &e) || mm_proc_check(c->k, &e) ||
				  coloring_check(c->k->coloring, &e);
		if (c->check_failed)
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
	}
}

static int lmb_start(struct sim *s, struct mm_err *e)
{
	struct lmb_cfg *c = s->wl_cfg;
	c->k = mm_kernel_boot(s, e);   /* a chain's later steps: the kernel the first booted */
	if (!c->k)
		return -1;
	if (cache_sim_init(&c->cs, &s->machine->caches, c->k->clock, c->k->phys.page_size, e))
		return -1;
	c->cs_up = true;
	if (c->aging) {
		c->age_file = mm_file_create(c->k, "aging", 2 * c->k->phys.cfg.memory, 0, 1 << 20);
		if (!c->age_file)
			return mm_errf(e, s->file, "workload", "out of memory for the aging file");
	}
	mm_task_init(&c->task, c->k, 0, "lmbench");
	c->task.wl = s;
	if (c->comm && lmb_comm_start(c, e))
		return -1;
	sg_actor_t a = sg_actor_init("lmbench", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, &c->task);
	sg_actor_start(a, bench, 0, NULL);
	return 0;
}

static void lmb_finish(struct sim *s)
{
	struct lmb_cfg *c = s->wl_cfg;
	struct coloring *co = c->k->coloring;
	uint64_t npts = c->size / 16;
	double mflops = c->fft_s > 0 ? 5.0 * (double)npts * log2((double)npts) / c->fft_s / 1e6 : 0;
	s->primary = c->lat ? c->lat_ns : mflops;
	sim_metric(s, "failed", c->failed ? 1 : 0);
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
	if (c->lat) {
		sim_metric(s, "lat_ns", c->lat_ns);
		sim_metric(s, "lat_memory_loads", (double)c->l2_misses_lat);
		sim_metric(s, "colour_conflict_pages", c->conflict_pages);
		sim_metric(s, "colour_conflict_fraction", c->pages ? c->conflict_pages / c->pages : 0);
	}
	if (c->bw)
		for (int w = 0; w < 4; w++)
			sim_metric(s, bw_names[w], c->mbps[w]);
	if (c->comm) {
		static const char *const names[] = { "bw_unix_MBps", "bw_pipe_MBps", "bw_file_rd_MBps",
						     "bw_mmap_rd_MBps" };
		for (int i = 0; i < 4; i++)
			sim_metric(s, names[i], c->comm_mbps[i]);
		sim_metric(s, "copied_bytes", (double)c->copied);
		sim_metric(s, "mmap_rd_faults", (double)c->mmap_faults);
	}
	if (c->fft) {
		sim_metric(s, "fft_ms", c->fft_s * 1e3);
		sim_metric(s, "fft_mflops", mflops);
	}
	sim_metric(s, "colours", co->ncolors);
	sim_metric(s, "page_color_hits", (double)co->hits);
	sim_metric(s, "page_color_misses", (double)co->misses);
	sim_metric(s, "page_color_placed", (double)co->placed);
	sim_metric(s, "age_reads", (double)c->age_reads);
	sim_metric(s, "age_procs", (double)c->age_procs_run);
	if (s->metrics) {
		json_object_set_new(s->metrics, "cache", cache_stats_json(&c->cs));
		json_object_set_new(s->metrics, "buddyinfo", alloc_buddyinfo(&c->k->phys));
	}
}

static void lmb_fini(void *cfgp)
{
	struct lmb_cfg *c = cfgp;
	if (c->cs_up)
		cache_sim_fini(&c->cs);
	c->cs_up = false;
}

/* The fft workload: the FFT alone (no lat_mem_rd, no bw_mem). */
static int fft_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		     struct mm_err *e)
{
	struct lmb_cfg *c = cfgp;
	c->fft = true;
	c->stride = 128;
	return lmb_check(cfgp, m, file, path, e);
}

const struct workload_ops workload_fft = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "fft",
	.desc = "seed 004: an in-place radix-2 FFT over a working set, on the cache hierarchy after aging",
	.params = fft_params,
	.cfg_size = sizeof(struct lmb_cfg),
	.primary = "fft_mflops",
	.unit = "MFLOPS",
	.higher_is_better = 1,
	.kernel = 1,
	.check = fft_check,
	.start = lmb_start,
	.finish = lmb_finish,
	.fini = lmb_fini,
	.chainable = 1,
};

const struct workload_ops workload_lmbench = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "lmbench",
	.desc = "seed 004: lmbench lat_mem_rd and bw_mem, and an FFT, on the cache hierarchy after aging",
	.params = lmb_params,
	.cfg_size = sizeof(struct lmb_cfg),
	.primary = "lat_ns",
	.unit = "ns",
	.higher_is_better = 0,
	.kernel = 1,
	.check = lmb_check,
	.start = lmb_start,
	.finish = lmb_finish,
	.fini = lmb_fini,
	.chainable = 1,
};
