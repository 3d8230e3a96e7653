/*
 * tworead.c - the `2read` workload of seed 000 (IWAMOTO Toshihiro's 2read.c).
 *
 * One process reads alternately from two files, `zero` (1 GiB) and `zero2`
 * (1.5 GiB), within the first range_mb[0] and range_mb[1] MiB of each, for
 * `duration` simulated seconds, and reports reads/2 every 5 seconds (the program
 * printed the number of read operations / 2).  The access pattern inside a range
 * and the read size are not in the seed: `pattern` is "random" (uniform
 * page-aligned offsets; 2.6.15 turns readahead off) or "sequential" (each file's
 * cursor loops over its range, through the readahead window), `read_size` is a
 * parameter.  The initial cache state: cold, or warmed by `warmup_passes` passes
 * of the same workload over both ranges, run through the same mm core in
 * functional (untimed) mode before the measured run starts.  Everything below read() is the mm core: page cache,
 * reclaim module, kswapd, disk.  `access` "mmap" maps both ranges instead and
 * touches each read's pages (the page-fault path, models/mm/fmap.c); metrics
 * then count major and minor faults per file.  `mlock_zero` maps zero's range
 * VM_LOCKED before the run and faults it in (the seed's observation 1: "the
 * accessed region of zero is mmap+mlocked"); 2.6.15 keeps such pages on the LRU
 * and reclaim fails to unmap them (fmap.c).
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
#include "models/mm/fmap.h"
#include "models/mm/kernel.h"
#include "models/mm/vmscan.h"
#include "workloads/workload.h"

static const char *const pattern_names[] = { "random", "sequential", NULL };
enum { PAT_RANDOM, PAT_SEQUENTIAL };
static const char *const access_names[] = { "read", "mmap", "mmap_random", NULL };
enum { ACC_READ, ACC_MMAP, ACC_MMAP_RANDOM };

struct tworead_cfg {
	uint64_t file_size[2];
	struct mm_intlist range_mb;
	uint64_t read_size;
	int pattern;
	int access;
	double duration;
	double warmup_passes;
	double report;
	bool check;
	bool mlock_zero;
	/* run-time state */
	struct mm_kernel *k;       /* the booted kernel (mm_kernel_boot), shared by a chain's steps */
	struct mm_task task;
	struct mm_file *f[2];
	struct mm_fmap *map[2];    /* access "mmap": the ranges, mapped */
	struct mm_fmap *lock;      /* mlock_zero: zero's range, mapped VM_LOCKED */
	uint64_t lock_rss, lock_refused;   /* saved at the end */
	uint64_t map_majflt[2], map_minflt[2], map_rss[2];   /* saved at the end */
	struct mm_read_stats st[2];
	uint64_t reads;
	double t0, t_end;
	uint32_t range_pages[2];
	uint32_t cached_at_start[2];   /* pages of each file cached when the run started */
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

static const struct mm_param tworead_params[] = {
	MM_PARAM(struct tworead_cfg, file_size[0], "zero_size", MM_P_SIZE, 4096, 1e13,
		 "1073741824", "size of the first file, `zero` (seed: 1,073,741,824 bytes)"),
	MM_PARAM(struct tworead_cfg, file_size[1], "zero2_size", MM_P_SIZE, 4096, 1e13,
		 "1572864000", "size of the second file, `zero2` (seed: 1,572,864,000 bytes)"),
	MM_PARAM(struct tworead_cfg, range_mb, "range_mb", MM_P_INTLIST, 1, 1e7, "[100, 1000]",
		 "MiB read of each file: [n, 1100-n] in the seed"),
	MM_PARAM(struct tworead_cfg, read_size, "read_size", MM_P_SIZE, 1, 1 << 26, "\"4KiB\"",
		 "bytes per read() (not stated in the seed)"),
	MM_PARAM_ENUM(struct tworead_cfg, pattern, "pattern", pattern_names, "\"random\"",
		      "offsets inside a range: uniformly random page-aligned, or a looping sequential cursor"),
	MM_PARAM_ENUM(struct tworead_cfg, access, "access", access_names, "\"read\"",
		      "read: read() into a buffer (2read.c); mmap: the ranges mapped MAP_SHARED and each read's pages touched (filemap_nopage with read-around); mmap_random: the same after madvise(MADV_RANDOM)"),
	MM_PARAM(struct tworead_cfg, duration, "duration", MM_P_TIME, 1e-3, 1e6, "\"300s\"",
		 "measured run time (seed: 5 minutes)"),
	MM_PARAM(struct tworead_cfg, warmup_passes, "warmup_passes", MM_P_DOUBLE, 0, 1000, "0",
		 "untimed passes of the same workload over both ranges before measuring (0: cold cache)"),
	MM_PARAM(struct tworead_cfg, report, "report", MM_P_TIME, 1e-3, 1e6, "\"5s\"",
		 "interval of the reads/2 series (seed: 5 s)"),
	MM_PARAM(struct tworead_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker at every report (tests)"),
	MM_PARAM(struct tworead_cfg, mlock_zero, "mlock_zero", MM_P_BOOL, 1, 0, "false",
		 "zero's range mmap()ed and mlock()ed before the run and for all of it (the seed's observation 1)"),
	MM_PARAM_END
};

static int tworead_check(void *cfgp, const struct machine_cfg *m, const char *file,
			 const char *path, struct mm_err *e)
{
	struct tworead_cfg *c = cfgp;
	char sub[256];
	snprintf(sub, sizeof sub, "%s.range_mb", path);
	if (c->range_mb.n != 2)
		return mm_errf(e, file, sub, "expected two ranges, [n, 1100-n]");
	for (int i = 0; i < 2; i++) {
		uint64_t r = (uint64_t)c->range_mb.v[i] << 20;
		if (r > c->file_size[i])
			return mm_errf(e, file, sub, "range %d (%lld MiB) exceeds the file size",
				       i, (long long)c->range_mb.v[i]);
		if (c->read_size > r) {
			snprintf(sub, sizeof sub, "%s.read_size", path);
			return mm_errf(e, file, sub, "expected at most the smaller range");
		}
	}
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the 2read workload needs a disk");
	uint64_t disk = m->disks[0].size;
	if (c->file_size[0] + c->file_size[1] + (2 << 20) > disk)
		return mm_errf(e, file, "machine.disks[0].size", "expected room for both files");
	return 0;
}

static void report(struct sim *s, struct tworead_cfg *c, double t)
{
	double rel = t - c->t0;
	sim_series_add(s, "reads_per_2", rel, (double)(c->reads / 2));
	if (c->k->kops->sample)
		c->k->kops->sample(c->k->rc, c->k, s, rel);
	if (c->check && !c->check_failed) {
		struct mm_err e = { "" };
		if (mm_kernel_check(c->k, &e)) {
			c->check_failed = 1;
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
		}
	}
}

/* The reader's offset source.  Random offsets are drawn RAND_AHEAD reads ahead per
 * file: reads alternate between the files, so the draws happen in the same order
 * and each read gets the same offset as when drawn at the read.  The early draw
 * lets the reader prefetch the page-cache slot when it draws an offset and, half
 * way to its use, the struct page the slot names: both are random accesses over
 * the whole of memory, the reader's main cost.  The last 2 x RAND_AHEAD draws of
 * a run go unused.  A sequential read prefetches the struct page of the same
 * file's read SEQ_AHEAD reads on. */
enum { SEQ_AHEAD = 4, RAND_AHEAD = 8 };
struct offsets {
	struct mm_rng rng;
	uint64_t cursor[2];
	uint64_t ring[2][RAND_AHEAD];   /* the next offsets of each file, oldest at head */
	unsigned head[2];
	bool primed;
};

static uint64_t draw_offset(struct tworead_cfg *c, struct offsets *o, int i)
{
	uint64_t ps = c->k->phys.page_size;
	uint64_t range = (uint64_t)c->range_mb.v[i] << 20;
	uint64_t slots = (range - c->read_size) / ps + 1;
	uint64_t off = mm_rng_below(&o->rng, slots) * ps;
	__builtin_prefetch(&c->f[i]->pfn[off >> c->k->phys.page_shift]);
	return off;
}

/* One read of file @i at the pattern's next offset. */
static void one_read(struct tworead_cfg *c, struct mm_task *t, struct offsets *o, int i,
		     struct mm_read_stats *st)
{
	uint64_t ps = c->k->phys.page_size;
	uint64_t range = (uint64_t)c->range_mb.v[i] << 20;
	uint64_t off;
	if (c->pattern == PAT_RANDOM) {
		if (!o->primed) {
			for (unsigned d = 0; d < RAND_AHEAD; d++)
				for (int j = 0; j < 2; j++)
					o->ring[j][d] = draw_offset(c, o, j);
			o->primed = true;
		}
		unsigned h = o->head[i];
		off = o->ring[i][h];
		o->ring[i][h] = draw_offset(c, o, i);
		o->head[i] = (h + 1) % RAND_AHEAD;
		/* the read RAND_AHEAD / 2 on: its slot was prefetched as long ago */
		uint64_t mid = o->ring[i][(h + RAND_AHEAD / 2) % RAND_AHEAD];
		uint32_t mpfn = c->f[i]->pfn[mid >> c->k->phys.page_shift];
		if (mpfn != PFN_NONE)
			__builtin_prefetch(&c->k->phys.pages[mpfn]);
	} else {
		if (o->cursor[i] + c->read_size > range)
			o->cursor[i] = 0;
		off = o->cursor[i];
		o->cursor[i] += c->read_size;
		/* the struct page of this file's read SEQ_AHEAD reads from now */
		uint64_t ahead = o->cursor[i] + (SEQ_AHEAD - 1) * c->read_size;
		if (ahead + c->read_size <= range) {
			uint32_t apfn = c->f[i]->pfn[ahead >> c->k->phys.page_shift];
			if (apfn != PFN_NONE)
				__builtin_prefetch(&c->k->phys.pages[apfn]);
		}
	}
	if (c->access == ACC_READ) {
		mm_file_read(c->k, t, c->f[i], off, c->read_size, st);
		return;
	}
	/* mapped: touch the pages; a page needing a disk read is a miss */
	struct mm_fmap *m = c->map[i];
	uint32_t first = (uint32_t)(off / ps), n = (uint32_t)((off + c->read_size - 1) / ps) - first + 1;
	uint64_t maj = m->majflt;
	mm_fmap_touch(c->k, t, m, first, n, false);
	st->pages += n;
	st->misses += m->majflt - maj;
	st->hits += n - (m->majflt - maj);
}

static void reader(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	struct sim *s = t->wl;
	struct tworead_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->k;
	struct offsets o = { .primed = false };
	char stream[32];   /* each step of a chain draws its own offsets */
	snprintf(stream, sizeof stream, s->step ? "2read-step%d" : "2read", s->step);
	mm_rng_seed(&o.rng, s->seed, (uint64_t)s->run, stream);
	for (int i = 0; i < 2 && c->access != ACC_READ; i++) {
		c->map[i] = mm_fmap_create(k, t, c->f[i], c->range_pages[i],
					   c->access == ACC_MMAP_RANDOM ? MM_FMAP_RANDOM : 0);
		if (!c->map[i])
			return;   /* out of memory: no reads, the run reports 0 */
	}

	if (c->mlock_zero) {
		/* mmap + mlock of zero's range before the run (make_pages_present:
		 * every page faulted in), untimed like the warm-up */
		mm_set_untimed(k, true);
		c->lock = mm_fmap_create(k, t, c->f[0], c->range_pages[0], MM_FMAP_LOCKED);
		int64_t r = c->lock ? mm_fmap_touch(k, t, c->lock, 0, c->range_pages[0], false) : -1;
		mm_set_untimed(k, false);
		if (r < 0)
			return;   /* out of memory: no reads, the run reports 0 */
	}
	if (c->warmup_passes > 0) {
		struct mm_read_stats dummy = { 0 };
		uint64_t bytes = ((uint64_t)c->range_mb.v[0] + (uint64_t)c->range_mb.v[1]) << 20;
		uint64_t pairs = (uint64_t)(c->warmup_passes * (double)bytes / (double)c->read_size / 2);
		mm_set_untimed(k, true);
		for (uint64_t n = 0; n < pairs; n++)
			for (int i = 0; i < 2; i++)
				one_read(c, t, &o, i, &dummy);
		mm_set_untimed(k, false);
		memset(s->vs, 0, sizeof *s->vs);   /* events count the measured run only */
	}
	c->t0 = simgrid_get_clock();
	c->t_end = c->t0 + c->duration;
	double next_report = c->t0 + c->report;
	for (;;) {
		for (int i = 0; i < 2; i++) {
			one_read(c, t, &o, i, &c->st[i]);
			c->reads++;
		}
		double now = tm_now(&t->tm);   /* the reader's own time */
		while (now >= next_report && next_report <= c->t_end + 1e-9) {
			report(s, c, next_report);
			next_report += c->report;
		}
		if (now >= c->t_end)
			break;
	}
	mm_sync(t);
	/* munmap at exit (the counters are kept for the metrics) */
	for (int i = 0; i < 2; i++) {
		if (!c->map[i])
			continue;
		c->map_majflt[i] = c->map[i]->majflt;
		c->map_minflt[i] = c->map[i]->minflt;
		c->map_rss[i] = c->map[i]->rss;
		mm_fmap_destroy(k, t, c->map[i]);
		c->map[i] = NULL;
	}
	if (c->lock) {
		c->lock_rss = c->lock->rss;
		c->lock_refused = c->lock->reclaim_locked;
		mm_fmap_destroy(k, t, c->lock);
		c->lock = NULL;
	}
	mm_sync(t);   /* exit: the munmap's cycles are paid */
}

static int tworead_start(struct sim *s, struct mm_err *e)
{
	struct tworead_cfg *c = s->wl_cfg;
	c->k = mm_kernel_boot(s, e);
	if (!c->k)
		return -1;
	uint64_t off = 1 << 20;
	static const char *const names[2] = { "zero", "zero2" };
	for (int i = 0; i < 2; i++) {
		c->f[i] = mm_file_open(c->k, names[i], c->file_size[i], 0, off);
		if (!c->f[i])
			return mm_errf(e, s->file, "workload",
				       "cannot open %s: out of memory, or an earlier step made it with another size",
				       names[i]);
		c->cached_at_start[i] = c->f[i]->nr_cached;
		off += (c->file_size[i] + (1 << 20) - 1) & ~((uint64_t)(1 << 20) - 1);
		c->range_pages[i] = (uint32_t)(((uint64_t)c->range_mb.v[i] << 20) / c->k->phys.page_size);
	}
	mm_task_init(&c->task, c->k, 0, "2read");
	c->task.wl = s;
	sg_actor_t a = sg_actor_init("2read", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, &c->task);
	sg_actor_start(a, reader, 0, NULL);
	return 0;
}

static void tworead_finish(struct sim *s)
{
	struct tworead_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->k;
	static const char *const names[2] = { "zero", "zero2" };
	char key[64];
	s->primary = (double)(c->reads / 2);
	sim_metric(s, "reads", (double)c->reads);
	for (int i = 0; i < 2; i++) {
		const struct mm_read_stats *st = &c->st[i];
		snprintf(key, sizeof key, "%s_hit_ratio", names[i]);
		sim_metric(s, key, st->pages ? (double)st->hits / (double)st->pages : 0);
		snprintf(key, sizeof key, "%s_resident_fraction", names[i]);
		sim_metric(s, key, (double)mm_file_resident(c->f[i], 0, c->range_pages[i]) /
					   (double)c->range_pages[i]);
		snprintf(key, sizeof key, "%s_refetched_pages", names[i]);
		sim_metric(s, key, (double)st->refetched);
		snprintf(key, sizeof key, "%s_cached_pages", names[i]);
		sim_metric(s, key, (double)c->f[i]->nr_cached);
		snprintf(key, sizeof key, "%s_cached_pages_at_start", names[i]);
		sim_metric(s, key, (double)c->cached_at_start[i]);
		snprintf(key, sizeof key, "%s_ra_sync_windows", names[i]);
		sim_metric(s, key, (double)st->ra_sync);
		snprintf(key, sizeof key, "%s_ra_async_windows", names[i]);
		sim_metric(s, key, (double)st->ra_async);
		snprintf(key, sizeof key, "%s_ra_pages", names[i]);
		sim_metric(s, key, (double)(st->ra_sync_pages + st->ra_async_pages));
		snprintf(key, sizeof key, "%s_page_waits", names[i]);
		sim_metric(s, key, (double)st->page_waits);
	}
	const struct disk_stats *ds = disk_get_stats(sim_disk(s, 0));
	sim_metric(s, "disk_reads", (double)ds->reads);
	sim_metric(s, "disk_busy_s", ds->busy);
	sim_metric(s, "disk_seek_s", ds->seek);
	sim_metric(s, "disk_rot_s", ds->rot);
	sim_metric(s, "disk_xfer_s", ds->xfer);
	/* engine cost, not a result: requests served without the driver (disk_io) */
	sim_metric(s, "engine_disk_direct", (double)ds->direct);
	sim_metric(s, "reader_io_wait_s", c->task.io_wait_s);
	sim_metric(s, "reader_congestion_wait_s", c->task.congestion_s);
	sim_metric(s, "reader_retry_nap_s", c->task.retry_nap_s);
	sim_metric(s, "reader_direct_reclaims", (double)c->task.direct_reclaims);
	sim_metric(s, "kswapd_congestion_wait_s", k->kswapd.congestion_s);
	sim_metric(s, "kswapd_cpu_s", k->kswapd.tm.paid / k->clock);
	sim_metric(s, "reader_cpu_s", c->task.tm.paid / k->clock);
	sim_metric(s, "reader_cpu_payments", (double)c->task.tm.executes);
	sim_metric(s, "kswapd_cpu_payments", (double)k->kswapd.tm.executes);
	mm_kernel_lock_metrics(k, s);
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct zone *z = &k->phys.zones[i];
		if (mm_zone_empty(z))
			continue;
		snprintf(key, sizeof key, "zone_%s_pagecache_pages", z->name);
		sim_metric(s, key, (double)(z->nr_active + z->nr_inactive));
	}
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
	if (c->mlock_zero) {
		sim_metric(s, "zero_locked_pages_at_end", (double)c->lock_rss);
		sim_metric(s, "zero_locked_unmap_refused", (double)c->lock_refused);
	}
	for (int i = 0; i < 2 && c->access != ACC_READ; i++) {
		snprintf(key, sizeof key, "%s_major_faults", names[i]);
		sim_metric(s, key, (double)c->map_majflt[i]);
		snprintf(key, sizeof key, "%s_minor_faults", names[i]);
		sim_metric(s, key, (double)c->map_minflt[i]);
		snprintf(key, sizeof key, "%s_mapped_pages_at_end", names[i]);
		sim_metric(s, key, (double)c->map_rss[i]);
	}
	if (k->kops->finish)
		k->kops->finish(k->rc, k, s);
	if (s->metrics) {
		json_object_set_new(s->metrics, "zoneinfo", mm_phys_zoneinfo(&k->phys));
		json_object_set_new(s->metrics, "buddyinfo", alloc_buddyinfo(&k->phys));
	}
}


const struct workload_ops workload_tworead = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "2read",
	.desc = "seed 000: alternate reads of two files over ranges n and 1100-n MiB; reads/2",
	.params = tworead_params,
	.cfg_size = sizeof(struct tworead_cfg),
	.primary = "reads_per_2",
	.unit = "reads/2",
	.higher_is_better = 1,
	.kernel = 1,
	.check = tworead_check,
	.start = tworead_start,
	.finish = tworead_finish,
	.chainable = 1,
};
