/*
 * writeback.c - dirty-page writeback of 2.6.16: mm/page-writeback.c
 * (get_dirty_limits, balance_dirty_pages, balance_dirty_pages_ratelimited,
 * background_writeout), mm/pdflush.c (one pdflush thread) and the clustering of
 * fs/mpage.c mpage_writepages(), see kernel.h.
 *
 * Enabled by the kernel knob vm.dirty_writeback (off by default: then dirty page
 * cache is written back by reclaim's pageout() only, one page per request, which
 * is what every seed before 003 modelled and what their results are made of).
 *
 * A writer calls mm_balance_dirty_pages_ratelimited() for each page it dirties: a
 * per-CPU count; every ratelimit_pages (8 while the dirty limit is exceeded) it
 * runs balance_dirty_pages(): while dirty + under-writeback pages exceed the
 * dirty threshold it writes a chunk of 1.5 x ratelimit_pages itself (its own file
 * first, then the others: writeback_inodes() on the disk's superblock) and naps in
 * blk_congestion_wait(WRITE, HZ/10) until it has written its chunk; then, if the
 * dirty pages exceed the background threshold, it wakes pdflush, whose
 * background_writeout() writes MAX_WRITEBACK_PAGES (1,024) at a time without
 * blocking (it stops when the request queue is congested and naps) until the
 * dirty pages fall below the background threshold.
 *
 * A file is written from its writeback_index onwards (range_cyclic), dirty pages
 * of contiguous indices forming one request of at most MM_WB_MAX_PAGES pages
 * (mpage_writepage's bio, or the elevator's merge of ext3's block writes into
 * requests of the queue's max_sectors: 1,024 sectors = 512 KiB for SCSI,
 * SCSI_DEFAULT_MAX_SECTORS).  Each request is asynchronous; its completion ends
 * writeback on all its pages (end_page_writeback) and wakes the
 * blk_congestion_wait() sleepers.  The queue counts as congested from 113
 * asynchronous requests in flight (BLKDEV_MAX_RQ 128:
 * queue_congestion_on_threshold() = 128 - 128/8 + 1).
 *
 * wb_kupdate (the second of 2.6.16's two pdflush threads, MIN_PDFLUSH_THREADS;
 * 2.5.25 has it too): wb_timer fires dirty_writeback_centisecs (5 s) after
 * boot and after each pass's start (at least 1 s after its end); a pass writes,
 * 1,024 pages at a time without blocking (a congested queue naps HZ/10), every
 * file whose dirtied_when is dirty_expire_centisecs (30 s) old or older, and
 * cleans the dirty inodes that old (sync_sb_inodes with older_than_this).  A
 * file's dirtied_when is set when its first page is dirtied after it was clean
 * (__mark_inode_dirty), and again when a writeback pass leaves it with dirty
 * pages (__sync_single_inode redirties it: pages dirtied during the pass, or,
 * for a pass other than wb_kupdate's, pages it did not reach), so a file
 * written without pause is written as a whole by wb_kupdate about every 30 s.
 * Every writeback_inodes() pass (pdflush's, a throttled writer's) cleans every
 * dirty inode (older_than_this NULL).
 * Approximations: each file here stands for one inode (a highalloc tree's
 * 19,000 files are one mm_file, so its .o written a second ago goes with the
 * rest once the tree's dirtied_when has expired: the block device's metadata is
 * one inode in the kernel too); kupdate walks the expired files in file order,
 * not dirtied_when order (the order matters only when a pass meets congestion).
 * Not modelled: laptop mode, pdflush threads beyond two, sync_supers (ext3's
 * write_super only clears s_dirt).
 */
#include <math.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#include "emu/core/sim.h"
#include "models/hw/disk.h"
#include "models/mm/kernel.h"
#include "models/mm/vmscan.h"

#define MM_WB_MAX_PAGES 128          /* 512 KiB requests: SCSI max_sectors 1,024 */
#define MM_WB_MAX_WRITEBACK 1024     /* MAX_WRITEBACK_PAGES */
#define MM_WB_CONGESTED 113          /* queue_congestion_on_threshold(), nr_requests 128 */
#define MM_WB_INTERVAL_S 5.0         /* dirty_writeback_centisecs 500 */
#define MM_WB_EXPIRE_S 30.0          /* dirty_expire_centisecs 3000 */

double mm_now(const struct mm_kernel *k, const struct mm_task *t)
{
	return k->untimed || !t ? 0.0 : tm_now(&t->tm);
}

void mm_file_dirty_inc(struct mm_kernel *k, struct mm_task *t, struct mm_file *f)
{
	k->nr_dirty++;
	if (f && f->nr_dirty++ == 0)
		f->dirtied_when = mm_now(k, t);
}

int mm_register_inode_sb(struct mm_kernel *k, mm_write_inodes_fn write, void *arg)
{
	if (k->ninode_sbs >= MM_MAX_INODE_SBS)
		return -1;
	k->inode_sbs[k->ninode_sbs++] = (struct mm_inode_sb){ write, arg };
	return 0;
}

/* total_pages of page-writeback.c: nr_free_pagecache_pages(), the pages of the
 * page cache's zonelist above their high watermarks. */
static uint64_t wb_total_pages(const struct mm_kernel *k)
{
	uint64_t n = 0;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		const struct zone *z = &k->phys.zones[i];
		if (z->present > z->pages_high)
			n += z->present - z->pages_high;
	}
	return n;
}

/* ratelimit_pages (set_ratelimit()): total_pages / (cpus x 32), 16 .. 4 MiB. */
static uint64_t wb_ratelimit(const struct mm_kernel *k)
{
	uint64_t r = wb_total_pages(k) / ((uint64_t)k->phys.ncpus * 32);
	uint64_t max = (4u << 20) / k->phys.page_size;
	return r < 16 ? 16 : r > max ? max : r;
}

void mm_dirty_limits(const struct mm_kernel *k, uint64_t *background, uint64_t *dirty)
{
	uint64_t total = wb_total_pages(k);
	int64_t unmapped = total ? 100 - (int64_t)(k->nr_mapped * 100 / total) : 100;
	int64_t dr = k->cfg.dirty_ratio, br = k->cfg.dirty_background_ratio;
	if (dr > unmapped / 2)
		dr = unmapped / 2;
	if (dr < 5)
		dr = 5;
	if (br >= dr)
		br = dr / 2;
	*background = (uint64_t)br * total / 100;
	*dirty = (uint64_t)dr * total / 100;
}

/* A request of contiguous pages under writeback. */
struct wb_req {
	struct mm_kernel *k;
	uint32_t n;
	uint32_t pfn[MM_WB_MAX_PAGES];
};

static void wb_end_io(void *arg)
{
	struct wb_req *r = arg;
	struct mm_kernel *k = r->k;
	for (uint32_t i = 0; i < r->n; i++)
		mm_end_page_writeback(k, r->pfn[i]);
	k->nr_writeback -= r->n;
	k->writeback_inflight--;
	mm_congestion_wake(k);
	free(r);
}

static bool wb_congested(struct mm_kernel *k, const struct mm_file *f)
{
	return !k->untimed &&
	       disk_inflight_async(sim_disk(k->s, f->disk)) >= MM_WB_CONGESTED;
}

/* Submit @r (pages [@first, @first + r->n) of @f, already under writeback). */
static void wb_submit(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      struct wb_req *r)
{
	uint64_t ps = k->phys.page_size;
	mm_count(k->s->vs, MM_PGPGOUT, r->n * ps / 1024);
	k->nr_writeback += r->n;
	k->writeback_inflight++;
	k->wb_requests++;
	if (k->untimed ||
	    disk_submit(sim_disk(k->s, f->disk), &t->tm, 1, f->disk_off + (uint64_t)first * ps,
			(uint64_t)r->n * ps, wb_end_io, r))
		wb_end_io(r);   /* functional mode, or out of memory: done at once */
}

/* mpage_writepages(): write up to @nr dirty pages of @f from its writeback_index,
 * cyclically; @nonblocking stops at a congested queue (*@congested set).
 * Returns: pages written. */
static uint64_t wb_file(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t nr,
			bool nonblocking, bool *congested)
{
	uint64_t written = 0;
	uint32_t idx = f->wb_index < f->npages ? f->wb_index : 0;
	struct wb_req *r = NULL;
	uint32_t first = 0, seen = 0, ndirty = f->nr_dirty;
	/* the dirty tag of the radix tree: the walk ends at the last dirty page */
	for (uint32_t scanned = 0; scanned < f->npages && written < nr && seen < ndirty;
	     scanned++) {
		uint32_t pfn = f->pfn[idx];
		struct page *p = pfn != PFN_NONE ? &k->phys.pages[pfn] : NULL;
		bool dirty = p && page_test(p, PG_dirty);
		seen += dirty;
		dirty = dirty && !page_test(p, PG_writeback);
		if (r && (!dirty || idx != first + r->n || r->n == MM_WB_MAX_PAGES)) {
			wb_submit(k, t, f, first, r);
			r = NULL;
			if (nonblocking && wb_congested(k, f)) {
				*congested = true;
				break;
			}
		}
		if (dirty) {
			if (!r) {
				r = malloc(sizeof *r);
				if (!r)
					break;
				r->k = k;
				r->n = 0;
				first = idx;
			}
			page_clear(p, PG_dirty);
			page_set(p, PG_writeback);
			p->count++;   /* held by the I/O until it completes */
			k->nr_dirty--;
			f->nr_dirty--;
			r->pfn[r->n++] = pfn;
			written++;
			/* lock_page, clear_page_dirty_for_io, set_page_writeback, unlock:
			 * charged after the page changed state (the charge may let
			 * another task run, and nothing stands for the page lock) */
			mm_charge(t, 4 * k->costs->atomic + k->costs->pc_lookup);
		}
		if (++idx == f->npages)
			idx = 0;
	}
	if (r)
		wb_submit(k, t, f, first, r);
	f->wb_index = idx;
	return written;
}

/* writeback_inodes(): the files of the (one) superblock dirtied at or before
 * @older (INFINITY: any), @start's first; then the superblocks' dirty inodes
 * that old.  Returns: pages written. */
static uint64_t wb_inodes(struct mm_kernel *k, struct mm_task *t, struct mm_file *start,
			  uint64_t nr, bool nonblocking, bool *congested, double older)
{
	uint64_t written = 0;
	int first = start ? (int)start->id - 1 : 0;
	for (int n = 0; n < k->nfiles && written < nr && !*congested; n++) {
		struct mm_file *f = k->files[(first + n) % k->nfiles];
		if (!f->nr_dirty || f->dirtied_when > older)
			continue;
		if (nonblocking && wb_congested(k, f)) {
			*congested = true;
			break;
		}
		uint64_t w = wb_file(k, t, f, nr - written, nonblocking, congested);
		/* __sync_single_inode: pages still dirty after the pass make the
		 * inode dirty again now, except for wb_kupdate's pages it had no
		 * room or time for (they stay expired, at the tail of s_dirty) */
		if (f->nr_dirty && (isinf(older) || (w < nr - written && !*congested)))
			f->dirtied_when = mm_now(k, t);
		written += w;
	}
	/* sync_sb_inodes stops at congestion or when nr_to_write is spent */
	for (int i = 0; i < k->ninode_sbs && written < nr && !*congested; i++)
		k->inode_sbs[i].write(k, t, k->inode_sbs[i].arg, older);
	return written;
}

/* background_writeout(): write until the dirty pages are below the background
 * threshold; a congested queue or a short write naps HZ/10. */
static void background_writeout(struct mm_kernel *k, struct mm_task *t)
{
	for (;;) {
		uint64_t bg, dirty;
		mm_dirty_limits(k, &bg, &dirty);
		if (k->nr_dirty < bg)
			break;
		bool congested = false;
		uint64_t w = wb_inodes(k, t, NULL, MM_WB_MAX_WRITEBACK, true, &congested, INFINITY);
		if (w < MM_WB_MAX_WRITEBACK) {
			if (k->untimed)
				break;
			mm_congestion_wait(k, t, MM_HZ_S(10));
			if (!congested)
				break;
		}
	}
}

static void pdflush_actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct mm_kernel *k = t->k;
	sg_actor_daemonize(sg_actor_self());
	for (;;) {
		mm_sync(t);
		k->pdflush_busy = false;
		t->tm.wake = INFINITY;   /* until pdflush_operation() */
		sg_sem_acquire(k->pdflush_sem);
		background_writeout(k, t);
	}
}

/* wb_kupdate(): write what was dirtied 30 s ago or earlier. */
static void wb_kupdate(struct mm_kernel *k, struct mm_task *t)
{
	double oldest = mm_now(k, t) - MM_WB_EXPIRE_S;
	uint64_t nr = k->nr_dirty;   /* nr_dirty + unstable + inodes in use */
	k->kupdate_runs++;
	for (;;) {
		bool congested = false;
		uint64_t w = wb_inodes(k, t, NULL, MM_WB_MAX_WRITEBACK, true, &congested, oldest);
		k->kupdate_pages += w;
		if (w < MM_WB_MAX_WRITEBACK) {
			if (!congested)
				break;   /* all the old data is written */
			mm_congestion_wait(k, t, MM_HZ_S(100));
		}
		if (nr <= w)
			break;
		nr -= w;
	}
}

static void kupdate_actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct mm_kernel *k = t->k;
	sg_actor_daemonize(sg_actor_self());
	double next = simgrid_get_clock() + MM_WB_INTERVAL_S;   /* page_writeback_init */
	for (;;) {
		mm_sleep(t, next - simgrid_get_clock(), NULL);
		double start = simgrid_get_clock();
		wb_kupdate(k, t);
		mm_sync(t);
		next = start + MM_WB_INTERVAL_S;
		if (next < simgrid_get_clock() + 1.0)
			next = simgrid_get_clock() + 1.0;
	}
}

void mm_pdflush_start(struct mm_kernel *k, int cpu)
{
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	k->pdflush_sem = sg_sem_init(0);
	k->pdflush_busy = true;   /* until the actor first sleeps */
	mm_task_init(&k->pdflush, k, cpu, "pdflush");
	sg_actor_t a = sg_actor_init("pdflush", sg_host_by_name(host));
	sg_actor_set_data(a, &k->pdflush);
	sg_actor_start(a, pdflush_actor, 0, NULL);
	if (k->untimed)
		return;
	mm_task_init(&k->kupdate, k, cpu, "kupdate");
	a = sg_actor_init("kupdate", sg_host_by_name(host));
	sg_actor_set_data(a, &k->kupdate);
	sg_actor_start(a, kupdate_actor, 0, NULL);
}

/* pdflush_operation(background_writeout): ignored while pdflush works. */
static void pdflush_wake(struct mm_kernel *k, struct mm_task *t)
{
	if (k->untimed) {
		background_writeout(k, t);
		return;
	}
	if (k->pdflush_busy)
		return;
	k->pdflush_busy = true;
	mm_sync(t);
	tm_woken(&k->pdflush.tm.wake);
	sg_sem_release(k->pdflush_sem);
}

/* balance_dirty_pages(). */
static void balance_dirty_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f)
{
	uint64_t chunk = wb_ratelimit(k) + wb_ratelimit(k) / 2, written = 0;
	uint64_t bg, dirty;
	for (;;) {
		mm_dirty_limits(k, &bg, &dirty);
		if (k->nr_dirty + k->nr_writeback <= dirty)
			break;
		k->dirty_exceeded = true;
		if (k->nr_dirty) {
			bool congested = false;
			written += wb_inodes(k, t, f, chunk - written, false, &congested, INFINITY);
			k->wb_throttled++;
			mm_dirty_limits(k, &bg, &dirty);
			if (k->nr_dirty + k->nr_writeback <= dirty || written >= chunk)
				break;
		}
		if (k->untimed)
			break;
		mm_congestion_wait(k, t, MM_HZ_S(10));
	}
	if (k->nr_dirty + k->nr_writeback <= dirty)
		k->dirty_exceeded = false;
	if (k->nr_dirty > bg)
		pdflush_wake(k, t);
}

void mm_balance_dirty_pages_ratelimited(struct mm_kernel *k, struct mm_task *t, struct mm_file *f)
{
	if (!k->cfg.dirty_writeback)
		return;
	unsigned cpu = t->cpu >= 0 && t->cpu < MM_MAX_CPUS ? (unsigned)t->cpu : 0;
	uint64_t limit = k->dirty_exceeded ? 8 : wb_ratelimit(k);
	if (++k->dirty_ratelimits[cpu] < limit)
		return;
	k->dirty_ratelimits[cpu] = 0;
	balance_dirty_pages(k, t, f);
}
