/*
 * filemap.c - the page cache and the read() path (2.6.15 mm/filemap.c,
 * mm/readahead.c), see kernel.h.
 *
 * A file is a mapping: an array from page index to pfn stands in for the radix
 * tree (the tree's cost is charged as pc_lookup per lookup).  read() is
 * do_generic_mapping_read(): for each page of the request it calls
 * page_cache_readahead() when the page is the next one readahead expects, looks
 * the page up, and copies it to user space (mark_page_accessed once per page,
 * then copy_to_user at the machine's copy bandwidth).
 *
 * Readahead is 2.6.15's mm/readahead.c: a current window (start, size) and an
 * ahead window (ahead_start, ahead_size).  The first sequential read opens a
 * window of get_init_ra_size() pages; the next read submits the ahead window
 * (get_next_ra_size(): x4 below ra_pages/16, x2 above, up to ra_pages, and
 * max(size - 2, VM_MIN_READAHEAD) after a miss); when the reader reaches the
 * ahead window it becomes the current one and the next ahead window is
 * submitted.  A read that is not sequential turns readahead off (ra_off) and
 * reads only its own pages; windows that find every page cached count
 * cache_hit, and after VM_MAX_CACHE_HIT pages readahead stays off
 * (RA_FLAG_INCACHE) until a page is missing (handle_ra_miss).
 * __do_page_cache_readahead allocates the missing pages of a window, puts them
 * in the page cache locked and on the LRU, and submits one read per contiguous
 * run without waiting (disk_submit); the completion (end_io, in the disk
 * driver) marks them uptodate, unlocks them and wakes the tasks in lock_page().
 * The reader waits only when it reaches a page still locked; a page not found
 * at all (never read, or reclaimed after readahead brought it in: readahead
 * thrashing, counted) is read by itself (no_cached_page + readpage) and waited
 * for.  Read congestion (bdi_read_congested) is not modelled: no workload here
 * queues 113 reads.  With readahead off (vm.readahead false or ra_pages 0) the
 * missing pages of a request are read in one request and waited for.
 *
 * References across sleeps: a task that sleeps holds a reference to the page
 * it will touch afterwards.  mm_file_getblk() once looked a buffer page up,
 * slept (grow_buffers, wait_on_buffer) without one, and called touch_buffer on
 * the pfn after: reclaim had freed the page meanwhile, so a free page went on
 * a pagevec, and the drain dropped a reference of the page's next owner (an
 * anonymous page freed while mapped: "nr_mapped 2, 0 pages mapped" in the
 * batched kernel under reaim at 12-20 MiB, issue 27).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>
#include "models/hw/disk.h"
#include "models/kmap/kmap.h"
#include "models/fs/fs.h"
#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"

struct mm_file *mm_file_create(struct mm_kernel *k, const char *name, uint64_t size, int disk,
			       uint64_t off)
{
	if (k->nfiles >= MM_MAX_FILES)
		return NULL;
	struct mm_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	uint64_t ps = k->phys.page_size;
	f->id = (uint32_t)k->nfiles + 1;
	snprintf(f->name, sizeof f->name, "%s", name);
	f->size = size;
	f->npages = (uint32_t)((size + ps - 1) / ps);
	f->pfn = malloc((size_t)f->npages * sizeof *f->pfn);
	if (!f->pfn) {
		free(f);
		return NULL;
	}
	for (uint32_t i = 0; i < f->npages; i++)
		f->pfn[i] = PFN_NONE;
	f->ra_unused = calloc((size_t)f->npages / 8 + 1, 1);
	if (!f->ra_unused) {
		free(f->pfn);
		free(f);
		return NULL;
	}
	f->disk = disk;
	f->disk_off = off;
	f->ra.prev_index = UINT32_MAX;
	k->files[k->nfiles++] = f;
	return f;
}

struct mm_file *mm_file_open(struct mm_kernel *k, const char *name, uint64_t size, int disk,
			     uint64_t off)
{
	for (int i = 0; i < k->nfiles; i++) {
		struct mm_file *f = k->files[i];
		if (strcmp(f->name, name) != 0)
			continue;
		if (f->size != size || f->disk != disk || f->disk_off != off)
			return NULL;
		/* a new open(): file_ra_state_init(), the cached pages stay */
		memset(&f->ra, 0, sizeof f->ra);
		f->ra.prev_index = UINT32_MAX;
		return f;
	}
	return mm_file_create(k, name, size, disk, off);
}

/* get_init_ra_size(): the first window for a request of @req pages: rounded up
 * to a power of two, squared when tiny, max/4 up to there, else max. */
static uint32_t init_ra_size(uint32_t req, uint32_t max)
{
	uint32_t n = 1;
	while (n < req)
		n <<= 1;
	if (n <= max / 64)
		n = n * n;
	else if (n <= max / 4)
		n = max / 4;
	else
		n = max;
	return n;
}

/* get_next_ra_size(): the next window after one of ra->size pages. */
static uint32_t next_ra_size(struct mm_ra *ra, uint32_t max, uint32_t min)
{
	uint32_t cur = ra->size, n;
	if (ra->flags & MM_RA_FLAG_MISS) {
		ra->flags &= ~MM_RA_FLAG_MISS;
		n = cur > min + 2 ? cur - 2 : min;
	} else if (cur < max / 16) {
		n = 4 * cur;
	} else {
		n = 2 * cur;
	}
	return n < max ? n : max;
}

static void ra_off(struct mm_ra *ra)
{
	ra->start = ra->size = ra->ahead_start = ra->ahead_size = 0;
	ra->flags = 0;
}

/* page_cache_alloc + add_to_page_cache_lru for index @idx of @f: a new page,
 * PG_locked when it is to be read, in the radix tree and queued on this CPU's LRU
 * pagevec.  *@raced is set when the allocation slept and somebody else inserted
 * the page meanwhile (the new page is freed).
 * Returns: the page's pfn, or PFN_NONE if the allocation failed. */
static uint32_t add_page(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
			 bool locked, bool *raced)
{
	*raced = false;
	/* a block device's mapping is GFP_USER (lowmem), a file's GFP_HIGHUSER */
	uint32_t pfn = mm_page_alloc(k, t, f->bdev ? MM_ZONE_NORMAL : k->pagecache_cls,
				     MM_GFP_KERNEL | (f->bdev ? 0 : MM_GFP_EASYRCLM) |
					     (k->pagecache_dma ? 0 : MM_GFP_NODMA));
	if (pfn == PFN_NONE)
		return PFN_NONE;
	mm_pcobj_preload(k, t, f, idx);   /* radix_tree_preload (bufhead.c): may sleep */
	if (f->pfn[idx] != PFN_NONE) {
		mm_page_free(k, t, pfn);
		mm_pcobj_trim(k, t, f, idx);
		*raced = true;
		return f->pfn[idx];
	}
	struct page *p = &k->phys.pages[pfn];
	p->mapping = f->id;
	p->index = idx;
	page_set(p, locked ? PG_locked : PG_uptodate);
	f->pfn[idx] = pfn;
	mm_pcobj_insert(k, f, idx);
	f->nr_cached++;
	k->pagecache_pages++;
	/* add_to_page_cache: tree_lock + radix insert; then the LRU pagevec */
	mm_charge(t, k->costs->atomic + k->costs->pc_lookup);
	mm_lru_cache_add(k, t, pfn, MM_LRU_USE_ONCE);
	return pfn;
}

/* Is @pfn one of the @n pages @pfns? */
static bool pfn_in(uint32_t pfn, const uint32_t *pfns, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (pfns[j] == pfn)
			return true;
	return false;
}

/* wake_up_page(PG_locked) of the @n pages @pfns just read: wake the tasks waiting
 * for one of them.  @pfns NULL (an asynchronous read's completion): every
 * waiter, each looking at its page again (the model's older rule, kept so that
 * the seeds whose readers wait only for readahead stay as they were; a waiter
 * whose page no read will unlock stops waiting when no submitted read is left).  @waker (NULL: the disk driver) pays its pending
 * cycles first.  Returns: nothing. */
static void wake_page_waiters(struct mm_kernel *k, struct mm_task *waker, const uint32_t *pfns,
			      uint32_t n)
{
	/* take the waiters to wake off the queue first: a released waiter may run
	 * at once and queue itself again, or read and wake others */
	struct mm_page_waiter **pp = &k->page_waiters, *w, *wake = NULL, **tail = &wake;
	bool all = !pfns;
	while ((w = *pp)) {
		if (!all && !pfn_in(w->pfn, pfns, n)) {
			pp = &w->next;
			continue;
		}
		*pp = w->next;
		*tail = w;
		tail = &w->next;
	}
	*tail = NULL;
	if (wake && waker)
		tm_sync(&waker->tm);
	for (struct mm_page_waiter *next; wake; wake = next) {
		next = wake->next;   /* a released waiter may run and leave before we go on */
		k->page_lock_wakeups++;
		if (wake->wake)
			tm_woken(wake->wake);
		sg_sem_release(wake->sem);
	}
}

/* The @n pages @pfns are read: uptodate and unlocked. */
static void read_done(struct mm_kernel *k, const uint32_t *pfns, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		struct page *p = &k->phys.pages[pfns[j]];
		page_clear(p, PG_locked);
		page_set(p, PG_uptodate);
	}
}

/* Completion of an asynchronous read (driver context: no blocking). */
struct rd_io {
	struct mm_kernel *k;
	uint32_t n;
	uint32_t pfn[];
};

static void read_end_io(void *arg)
{
	struct rd_io *io = arg;
	struct mm_kernel *k = io->k;
	read_done(k, io->pfn, io->n);
	k->read_inflight--;
	wake_page_waiters(k, NULL, NULL, 0);
	free(io);
}

/* Start the read of the locked pages [@start, @start+@n) of @f: submitted to the
 * disk (@wait false) or read with the caller waiting (@wait true).  Untimed, the
 * read completes at once; if memory runs out the caller waits for it.
 * Returns: nothing. */
static void start_read(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t start,
		       uint32_t n, bool wait)
{
	uint64_t ps = k->phys.page_size;
	uint64_t off = f->disk_off + (uint64_t)start * ps;
	mm_count(k->s->vs, MM_PGPGIN, n * ps / 1024);
	struct rd_io *io = NULL;
	if (!wait && !k->untimed)
		io = malloc(sizeof *io + (size_t)n * sizeof io->pfn[0]);
	if (io) {
		io->k = k;
		io->n = n;
		for (uint32_t j = 0; j < n; j++)
			io->pfn[j] = f->pfn[start + j];
		k->read_inflight++;
		if (disk_submit(sim_disk(k->s, f->disk), &t->tm, 0, off, (uint64_t)n * ps,
				read_end_io, io) == 0)
			return;
		k->read_inflight--;
		free(io);
	}
	/* the reader sleeps in lock_page until the read completes; a task that
	 * finds one of the pages locked meanwhile waits for this completion */
	k->read_sync_inflight++;
	mm_disk_wait(k, t, sim_disk(k->s, f->disk), 0, off, (uint64_t)n * ps);
	read_done(k, &f->pfn[start], n);
	k->read_sync_inflight--;
	if (k->page_waiters)
		wake_page_waiters(k, t, &f->pfn[start], n);
}

/* Allocate, insert and read pages [@idx, @idx+@n) of @f that are missing: one
 * read per contiguous run, waited for (@wait) or submitted (__do_page_cache_readahead).
 * Returns: pages read, or -1 if an allocation failed (OOM). */
static int read_pages_run(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
			  uint32_t n, bool wait)
{
	uint32_t run_start = 0, run_len = 0, done = 0;
	if (idx >= f->npages)
		return 0;
	if (n > f->npages - idx)
		n = f->npages - idx;
	/* ext3: readpage's ext3_get_block of each missing page, before any of them
	 * is inserted locked (it may read an indirect block and sleep) */
	for (uint32_t i = idx; k->ext3 && i < idx + n; i++)
		if (f->pfn[i] == PFN_NONE)
			mm_ext3_map(k, t, f, i, false);
	for (uint32_t i = idx; i <= idx + n; i++) {
		bool need = i < idx + n && f->pfn[i] == PFN_NONE;
		bool raced = false;
		if (need && add_page(k, t, f, i, true, &raced) == PFN_NONE) {
			/* out of memory partway: the pages already inserted locked
			 * for this run are read all the same (read_pages submits what
			 * __do_page_cache_readahead allocated), else they would stay
			 * locked and never become uptodate */
			if (run_len)
				start_read(k, t, f, run_start, run_len, wait);
			return -1;
		}
		if (need && !raced) {
			if (run_len == 0)
				run_start = i;
			run_len++;
			if (!wait)   /* readahead: not used yet */
				f->ra_unused[i >> 3] |= (uint8_t)(1u << (i & 7));
			continue;
		}
		if (run_len) {
			start_read(k, t, f, run_start, run_len, wait);
			done += run_len;
			run_len = 0;
		}
	}
	return (int)done;
}

/* read_pages_run() with the reads counted pending from the moment its pages go
 * into the page cache locked until they are submitted or read: a task finding
 * one of them locked meanwhile waits for its read (mm_wait_on_page_locked). */
static int read_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		      uint32_t n, bool wait)
{
	k->read_pending++;
	int r = read_pages_run(k, t, f, idx, n, wait);
	k->read_pending--;
	return r;
}

/* lock_page() + unlock_page() of locked page @pfn: sleep until the read of it
 * completes and wakes us.  @sync: also a read its reader waits for (start_read
 * with @wait); false: only a submitted one.  Returns: nothing. */
static void page_lock_wait(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, bool sync)
{
	struct page *p = &k->phys.pages[pfn];
	while (page_test(p, PG_locked) && !k->untimed &&
	       (k->read_inflight || (sync && (k->read_sync_inflight || k->read_pending)))) {
		double t0;
		if (k->sched && t->st)
			mm_block(t);
		tm_sync(&t->tm);
		t0 = simgrid_get_clock();
		struct mm_page_waiter w = { .sem = sg_sem_init(0), .wake = &t->tm.wake, .pfn = pfn,
					    .next = k->page_waiters };
		k->page_waiters = &w;
		k->page_lock_sleeps++;
		t->tm.wake = INFINITY;   /* until a completion wakes us */
		sg_sem_acquire(w.sem);
		sg_sem_destroy(w.sem);
		t->io_wait_s += simgrid_get_clock() - t0;
		mm_unblock(t);
	}
}

void mm_wait_on_page_locked(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	page_lock_wait(k, t, pfn, true);
}

/* Submit readahead of [@start, @start+@n) (blockable_page_cache_readahead +
 * check_ra_success); @cur is the page the reader is at, so a window holding it
 * is counted synchronous.  Returns: 1 while readahead is worth it, 0 when the
 * window found everything cached often enough to turn readahead off, -1 on OOM. */
static int ra_window(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t start,
		     uint32_t n, uint32_t cur, struct mm_read_stats *st)
{
	int got = start < f->npages ? read_pages(k, t, f, start, n, false) : 0;
	if (got < 0)
		return -1;
	if (got > 0) {
		bool sync = cur >= start && cur - start < n;
		*(sync ? &st->ra_sync : &st->ra_async) += 1;
		*(sync ? &st->ra_sync_pages : &st->ra_async_pages) += (uint64_t)got;
		f->ra.cache_hit = 0;
		return 1;
	}
	f->ra.cache_hit += n;
	if (f->ra.cache_hit >= 256) {   /* VM_MAX_CACHE_HIT */
		ra_off(&f->ra);
		f->ra.flags |= MM_RA_FLAG_INCACHE;
		return 0;
	}
	return 1;
}

/* make_ahead_window().  Returns: as ra_window(). */
static int make_ahead_window(struct mm_kernel *k, struct mm_task *t, struct mm_file *f,
			     uint32_t cur, bool force, struct mm_read_stats *st)
{
	struct mm_ra *ra = &f->ra;
	uint32_t max = (uint32_t)k->cfg.ra_pages;
	/* VM_MIN_READAHEAD: 16 KiB */
	uint32_t min = (uint32_t)(16384 >> k->phys.page_shift);
	ra->ahead_size = next_ra_size(ra, max, min ? min : 1);
	ra->ahead_start = ra->start + ra->size;
	int ret = ra_window(k, t, f, ra->ahead_start, ra->ahead_size, cur, st);
	if (ret == 0 && !force)
		ra->ahead_start = ra->ahead_size = 0;
	return ret;
}

/* page_cache_readahead() for page @offset of a read with @req pages left.
 * Returns: the next page index at which to call it again, or UINT32_MAX on OOM. */
static uint32_t page_cache_readahead(struct mm_kernel *k, struct mm_task *t, struct mm_file *f,
				     uint32_t offset, uint32_t req, struct mm_read_stats *st)
{
	struct mm_ra *ra = &f->ra;
	uint32_t max = (uint32_t)k->cfg.ra_pages;
	if (offset == ra->prev_index && --req)
		++offset;
	/* prev_page is -1 before the first read: page 0 then counts as sequential */
	bool sequential = offset == ra->prev_index + 1;
	ra->prev_index = offset;
	uint32_t newsize = req < max ? req : max;
	int r = 1;
	if (newsize == 0 || (ra->flags & MM_RA_FLAG_INCACHE))
		goto out;
	ra->prev_index += newsize - 1;
	if (sequential && ra->size == 0) {
		ra->size = init_ra_size(newsize, max);
		ra->start = offset;
		r = ra_window(k, t, f, offset, ra->size, offset, st);
		if (r > 0 && req >= max)
			r = make_ahead_window(k, t, f, offset, true, st);
		goto out;
	}
	if (!sequential) {
		ra_off(ra);
		r = ra_window(k, t, f, offset, newsize, offset, st);
		goto out;
	}
	if (ra->ahead_start == 0 && (r = make_ahead_window(k, t, f, offset, false, st)) <= 0)
		goto out;
	if (ra->prev_index >= ra->ahead_start) {
		ra->start = ra->ahead_start;
		ra->size = ra->ahead_size;
		r = make_ahead_window(k, t, f, offset, false, st);
	}
out:
	return r < 0 ? UINT32_MAX : ra->prev_index + 1;
}

/* The old path, with readahead off: the missing pages of the request are read
 * in one request per run and waited for.  Returns: as read_pages(). */
static int read_no_ra(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		      uint32_t n, struct mm_read_stats *st)
{
	/* A page read here may be reclaimed before we get to it: allocating the
	 * later pages can enter reclaim after an earlier run's I/O completed. */
	int tries = 0, r = 0;
	while (f->pfn[idx] == PFN_NONE && tries++ < 64)
		if ((r = read_pages(k, t, f, idx, tries == 1 ? n : 1, true)) < 0)
			break;
	if (tries > 1)
		st->refetched += (uint64_t)(tries - 1);
	return r;
}

uint64_t mm_file_read(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
		      uint64_t len, struct mm_read_stats *st)
{
	uint64_t ps = k->phys.page_size;
	unsigned shift = k->phys.page_shift;   /* ps is a power of two (mm_phys_init) */
	if (len == 0 || pos >= f->size)
		return 0;
	if (pos + len > f->size)
		len = f->size - pos;
	uint32_t first = (uint32_t)(pos >> shift), last = (uint32_t)((pos + len - 1) >> shift);
	bool ra_on = k->cfg.ra_enabled && k->cfg.ra_pages > 0;
	uint32_t next = first;   /* next_index */

	mm_charge(t, k->costs->syscall);
	mm_ext3_time(k, t, f, first, false);   /* update_atime */
	uint64_t done = 0;
	double copy_cycles = 0;   /* the batch's copies, booked on the bus at the end */
	for (uint32_t idx = first; idx <= last; idx++) {
		if (ra_on && idx == next &&
		    (next = page_cache_readahead(k, t, f, idx, last + 1 - idx, st)) == UINT32_MAX)
			break;
		mm_charge(t, k->costs->pc_lookup);
		st->pages++;
		uint8_t bit = (uint8_t)(1u << (idx & 7));
		/* a read in flight completes in the disk driver: look at a locked
		 * page at our own time (an observation point; only the driver unlocks) */
		if (f->pfn[idx] != PFN_NONE && page_test(&k->phys.pages[f->pfn[idx]], PG_locked))
			mm_observe(t);
		if (f->pfn[idx] == PFN_NONE) {
			/* no_cached_page: read this page by itself and wait (with
			 * readahead on, handle_ra_miss first); a page readahead brought
			 * in and reclaim took before we got here is read again */
			st->misses++;
			if (!ra_on) {
				if (read_no_ra(k, t, f, idx, last - idx + 1, st) < 0)
					break;
			} else {
				f->ra.flags = (f->ra.flags | MM_RA_FLAG_MISS) & ~MM_RA_FLAG_INCACHE;
				f->ra.cache_hit = 0;
				if (f->ra_unused[idx >> 3] & bit)
					st->refetched++;
				int tries = 0;
				while (f->pfn[idx] == PFN_NONE && tries++ < 64)
					if (read_pages(k, t, f, idx, 1, true) < 0)
						break;
			}
		} else if (page_test(&k->phys.pages[f->pfn[idx]], PG_locked)) {
			/* page_not_up_to_date: lock_page waits for the read */
			st->misses++;
			st->page_waits++;
			/* (only for a submitted read, as before: truncate does not
			 * take the page lock here, so a reader waiting for another's
			 * synchronous read could see the page truncated under it) */
			page_lock_wait(k, t, f->pfn[idx], false);
			if (f->pfn[idx] == PFN_NONE) {
				idx--;   /* gone meanwhile: look again */
				continue;
			}
		} else {
			st->hits++;
		}
		/* find_get_page(): hold a reference while copying, so reclaim running
		 * meanwhile (kswapd, when this task's cycles are paid) keeps the page.
		 * No simcall separates the lookup above from this get. */
		uint32_t pfn = f->pfn[idx];
		if (pfn == PFN_NONE)
			break;
		f->ra_unused[idx >> 3] &= (uint8_t)~bit;
		struct page *p = &k->phys.pages[pfn];
		p->count++;
		mm_charge(t, k->costs->atomic);
		uint64_t start = idx == first ? pos & (ps - 1) : 0;
		uint64_t end = idx == last ? ((pos + len - 1) & (ps - 1)) + 1 : ps;
		/* mark_page_accessed() once per page, then copy_to_user (through a
		 * kmap when the page has no permanent kernel address) */
		mm_mark_page_accessed(k, t, pfn);
		double copy = mm_copy_user(k, t, pfn, (uint32_t)start, (uint32_t)(end - start), true);
		bool high = page_test(p, PG_highmem);
		/* file_read_actor: the module's read path, or kmap() around the copy */
		if (!high || kmap_read_copy(k->kmap, t, pfn, end - start, copy, false)) {
			if (high)
				kmap_map(k->kmap, t, pfn);
			mm_charge(t, copy);
			if (high)
				kmap_unmap(k->kmap, t, pfn);
		}
		done += end - start;
		copy_cycles += copy;
		if (!ra_on)
			f->ra.prev_index = idx;
		p->count--;   /* page_cache_release() */
		mm_charge(t, k->costs->atomic);
	}
	mm_bus_transfer(k, t, done, k->s ? k->s->machine->bus.copy_bytes : 0, copy_cycles);
	return done;
}

/* Completion of an asynchronous page write (driver context: no blocking). */
struct wb_io {
	struct mm_kernel *k;
	uint32_t pfn;
};

void mm_end_page_writeback(struct mm_kernel *k, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	page_clear(p, PG_writeback);
	p->count--;                        /* the I/O's reference */
	if (page_test_clear(p, PG_reclaim) && k->kops->rotate) {
		k->kops->rotate(k->rc, k, mm_zone_of(&k->phys, pfn), pfn);
		mm_count(k->s->vs, MM_PGROTATED, 1);
	}
}

static void writeback_end_io(void *arg)
{
	struct wb_io *io = arg;
	struct mm_kernel *k = io->k;
	mm_end_page_writeback(k, io->pfn);
	k->writeback_inflight--;
	k->nr_writeback--;
	mm_congestion_wake(k);
	free(io);
}

void mm_congestion_wake(struct mm_kernel *k)
{
	/* wake every blk_congestion_wait() sleeper; each removes itself */
	for (unsigned i = 0; i < k->congestion_nwait; i++) {
		tm_woken(k->congestion_wake[i]);
		sg_sem_release(k->congestion_waiter[i]);
	}
	k->congestion_nwait = 0;
}

int mm_writepage(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	int disk;
	uint64_t ps = k->phys.page_size, off;
	struct mm_file *f = NULL;
	bool swap = mm_swap_where(k, pfn, &disk, &off);
	if (!swap) {
		if (p->mapping == 0 || p->mapping > (uint32_t)k->nfiles)
			return -1;
		f = k->files[p->mapping - 1];
		disk = f->disk;
		off = f->disk_off + (uint64_t)p->index * ps;
	}
	struct wb_io *io = malloc(sizeof *io);
	if (!io)
		return -1;
	io->k = k;
	io->pfn = pfn;
	/* clear_page_dirty_for_io + set_page_writeback + SetPageReclaim: three atomics */
	mm_charge(t, 3 * k->costs->atomic);
	if (!page_test(p, PG_dirty) || page_test(p, PG_writeback)) {
		/* the charge let another task run, and pdflush or a throttled writer
		 * (writeback.c) started writeback of the page meanwhile: the kernel's
		 * page lock orders the two; the second finds the page clean */
		free(io);
		return 0;
	}
	page_clear(p, PG_dirty);
	page_set(p, PG_writeback);
	page_set(p, PG_reclaim);
	p->count++;                        /* held by the I/O until it completes */
	k->nr_dirty--;
	if (f)
		f->nr_dirty--;
	mm_count(k->s->vs, MM_PGPGOUT, ps / 1024);
	if (swap)
		mm_count(k->s->vs, MM_PSWPOUT, 1);
	k->nr_writeback++;
	if (k->untimed) {
		/* functional mode: the write completes at once */
		k->writeback_inflight++;
		writeback_end_io(io);
		return 0;
	}
	k->writeback_inflight++;
	if (disk_submit(sim_disk(k->s, disk), &t->tm, 1, off, ps, writeback_end_io, io)) {
		k->writeback_inflight--;
		k->nr_writeback--;
		page_clear(p, PG_writeback);
		page_clear(p, PG_reclaim);
		page_set(p, PG_dirty);
		p->count--;
		mm_file_dirty_inc(k, t, f);
		free(io);
		return -1;
	}
	return 0;
}

static uint64_t file_write(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
			   uint64_t len, struct mm_read_stats *st, bool extend);

uint64_t mm_file_write(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
		       uint64_t len, struct mm_read_stats *st)
{
	return file_write(k, t, f, pos, len, st, false);
}

uint64_t mm_file_extend(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
			uint64_t len, struct mm_read_stats *st)
{
	return file_write(k, t, f, pos, len, st, true);
}

static uint64_t file_write(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
			   uint64_t len, struct mm_read_stats *st, bool extend)
{
	uint64_t ps = k->phys.page_size;
	unsigned shift = k->phys.page_shift;   /* ps is a power of two (mm_phys_init) */
	if (len == 0 || pos >= f->size)
		return 0;
	if (pos + len > f->size)
		len = f->size - pos;
	uint32_t first = (uint32_t)(pos >> shift), last = (uint32_t)((pos + len - 1) >> shift);
	uint64_t done = 0;
	double copy_cycles = 0;   /* the batch's copies, booked on the bus at the end */
	mm_charge(t, k->costs->syscall);
	mm_ext3_time(k, t, f, first, true);   /* inode_update_time */
	for (uint32_t idx = first; idx <= last; idx++) {
		uint64_t start = idx == first ? pos & (ps - 1) : 0;
		uint64_t end = idx == last ? ((pos + len - 1) & (ps - 1)) + 1 : ps;
		bool whole = start == 0 && end == ps;
		mm_charge(t, k->costs->pc_lookup);
		st->pages++;
		if (f->pfn[idx] == PFN_NONE) {
			st->misses++;
			if (!whole && !extend) {
				/* prepare_write of a partial page: read it first */
				if (read_pages(k, t, f, idx, 1, true) < 0)
					break;
			} else {
				/* a whole page is overwritten, or the page lies beyond
				 * the end of the file: no read (grab_cache_page);
				 * prepare_write maps (or, extending, allocates) its block */
				mm_ext3_map(k, t, f, idx, extend);
				bool raced;
				if (add_page(k, t, f, idx, false, &raced) == PFN_NONE)
					break;
			}
		} else {
			st->hits++;
		}
		uint32_t pfn = f->pfn[idx];
		if (pfn == PFN_NONE)
			break;
		struct page *p = &k->phys.pages[pfn];
		p->count++;
		mm_charge(t, k->costs->atomic);
		mm_pcobj_bh(k, t, pfn);   /* prepare_write: create_empty_buffers (bufhead.c) */
		bool high = page_test(p, PG_highmem);
		if (high)
			kmap_map(k->kmap, t, pfn);
		double copy = mm_copy_user(k, t, pfn, (uint32_t)start, (uint32_t)(end - start), false);
		mm_charge(t, copy);
		copy_cycles += copy;
		if (high)
			kmap_unmap(k->kmap, t, pfn);
		/* set_page_dirty: one atomic when the page was clean */
		if (!page_test_set(p, PG_dirty)) {
			mm_file_dirty_inc(k, t, f);
			mm_charge(t, k->costs->atomic);
		}
		mm_mark_page_accessed(k, t, pfn);
		if (extend)
			mm_ext3_size(k, t, f, idx);   /* ext3_commit_write: i_disksize */
		done += end - start;
		p->count--;
		mm_charge(t, k->costs->atomic);
		mm_balance_dirty_pages_ratelimited(k, t, f);
	}
	mm_bus_transfer(k, t, done, k->s ? k->s->machine->bus.copy_bytes : 0, copy_cycles);
	return done;
}

uint32_t mm_file_resident(const struct mm_file *f, uint32_t first, uint32_t n)
{
	uint32_t c = 0;
	for (uint32_t i = first; i < first + n && i < f->npages; i++)
		c += f->pfn[i] != PFN_NONE;
	return c;
}

void mm_pagecache_remove(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (p->mapping == 0 || p->mapping > (uint32_t)k->nfiles)
		return;
	struct mm_file *f = k->files[p->mapping - 1];
	bool cached = p->index < f->npages && f->pfn[p->index] == pfn;
	uint32_t idx = p->index;
	if (cached) {
		f->pfn[p->index] = PFN_NONE;
		f->nr_cached--;
		k->pagecache_pages--;
	}
	p->mapping = 0;
	/* try_to_free_buffers and radix_tree_delete's frees (bufhead.c; may sleep:
	 * the page is out of the cache by then) */
	if (cached)
		mm_pcobj_remove(k, t, f, idx, pfn);
}

void mm_file_sync(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		  uint32_t n)
{
	uint64_t ps = k->phys.page_size;
	uint32_t end = first + n > f->npages || first + n < first ? f->npages : first + n;
	uint32_t run_start = 0, run_len = 0;
	mm_charge(t, k->costs->syscall);
	mm_ext3_fsync(k, t, f);
	for (uint32_t i = first; i <= end; i++) {
		uint32_t pfn = i < end ? f->pfn[i] : PFN_NONE;
		struct page *p = pfn != PFN_NONE ? &k->phys.pages[pfn] : NULL;
		bool dirty = p && page_test(p, PG_dirty) && !page_test(p, PG_writeback);
		if (dirty) {
			/* clear_page_dirty_for_io + set/end_page_writeback */
			page_clear(p, PG_dirty);
			k->nr_dirty--;
			f->nr_dirty--;
			mm_charge(t, 3 * k->costs->atomic + k->costs->pc_lookup);
			if (run_len == 0)
				run_start = i;
			run_len++;
			continue;
		}
		if (run_len == 0)
			continue;
		mm_count(k->s->vs, MM_PGPGOUT, run_len * ps / 1024);
		/* the writer waits for its pages (wait_on_page_writeback) */
		mm_disk_wait(k, t, sim_disk(k->s, f->disk), 1,
			     f->disk_off + (uint64_t)run_start * ps, (uint64_t)run_len * ps);
		run_len = 0;
	}
}

/* The page cache lets go of @pfn: out of the radix tree (may sleep), its
 * reference queued on @rel for release_pages, which runs when PAGEVEC_SIZE are
 * queued (the caller releases the rest). */
static void cache_release(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, uint32_t *rel,
			  unsigned *nrel)
{
	mm_pagecache_remove(k, t, pfn);
	rel[(*nrel)++] = pfn;
	if (*nrel == PAGEVEC_SIZE) {
		mm_release_pages(k, t, rel, *nrel);
		*nrel = 0;
	}
}

uint32_t mm_file_invalidate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
			    uint32_t n)
{
	uint32_t end = first + n > f->npages || first + n < first ? f->npages : first + n;
	uint32_t rel[PAGEVEC_SIZE], left = 0;
	unsigned nrel = 0;
	for (uint32_t i = first; i < end; i++) {
		uint32_t pfn = f->pfn[i];
		if (pfn == PFN_NONE)
			continue;
		struct page *p = &k->phys.pages[pfn];
		mm_charge(t, k->costs->atomic + k->costs->pc_lookup);   /* TestSetPageLocked */
		/* a page on a pagevec or isolated by reclaim has another reference
		 * in the kernel (invalidate_complete_page: page_count != 2) */
		if (page_test(p, PG_locked) || page_test(p, PG_dirty) || page_test(p, PG_writeback) ||
		    p->mapcount > 0 || p->count != 1 || !page_test(p, PG_lru)) {
			left++;
			continue;
		}
		cache_release(k, t, pfn, rel, &nrel);
	}
	if (nrel)
		mm_release_pages(k, t, rel, nrel);
	return left;
}

void mm_file_truncate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      uint32_t n)
{
	uint32_t end = first + n > f->npages || first + n < first ? f->npages : first + n;
	uint32_t rel[PAGEVEC_SIZE];
	unsigned nrel = 0;
	mm_charge(t, k->costs->syscall);
	mm_ext3_truncate(k, t, f, first, end > first ? end - first : 0);
	for (uint32_t i = first; i < end; i++) {
		uint32_t pfn = f->pfn[i];
		if (pfn == PFN_NONE)
			continue;
		struct page *p = &k->phys.pages[pfn];
		/* truncate_inode_pages: wait_on_page_writeback, then take it out */
		while (page_test(p, PG_writeback) && !k->untimed)
			mm_sleep(t, MM_HZ_S(1), &t->io_wait_s);
		/* lock_page: a page another task is reading is waited for, not
		 * taken out under its read */
		page_lock_wait(k, t, pfn, true);
		if (f->pfn[i] != pfn)
			continue;   /* reclaimed while we slept */
		if (page_test_clear(p, PG_dirty)) {   /* cancel_dirty_page */
			k->nr_dirty--;
			f->nr_dirty--;
		}
		mm_charge(t, 2 * k->costs->atomic + k->costs->pc_lookup);
		/* the page cache's reference goes through release_pages: the page
		 * leaves the LRU under lru_lock and is freed */
		cache_release(k, t, pfn, rel, &nrel);
	}
	if (nrel)
		mm_release_pages(k, t, rel, nrel);
}

uint32_t mm_file_getblk(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
			bool read)
{
	mm_charge(t, k->costs->pc_lookup);   /* __find_get_block */
	if (idx >= f->npages)
		return PFN_NONE;
	if (f->pfn[idx] == PFN_NONE) {
		bool raced;
		if (read ? read_pages(k, t, f, idx, 1, true) < 0
			 : add_page(k, t, f, idx, false, &raced) == PFN_NONE)
			return PFN_NONE;
	}
	uint32_t pfn = f->pfn[idx];
	if (pfn == PFN_NONE)
		return PFN_NONE;
	/* __find_get_block's reference (get_bh), held until brelse: the sleeps
	 * below (grow_buffers, wait_on_buffer) let reclaim run, and without it
	 * reclaim freed the page meanwhile; touch_buffer then put a free page on
	 * a pagevec, whose drain later dropped a reference of the page's next
	 * owner (issue 27: "nr_mapped 2, 0 pages mapped" in the batched kernel,
	 * "free block head count -1" at 12-20 MiB) */
	struct page *p = &k->phys.pages[pfn];
	p->count++;
	if (k->pcobj)
		mm_pcobj_bh(k, t, pfn);   /* grow_buffers (bufhead.c) */
	/* wait_on_buffer: another task's read of it is in flight; sleep until its
	 * completion (end_buffer_read_sync -> unlock_buffer -> wake_up_buffer) */
	mm_wait_on_page_locked(k, t, pfn);
	bool cached = f->pfn[idx] == pfn;   /* not truncated meanwhile */
	if (cached)
		mm_mark_page_accessed(k, t, pfn);   /* touch_buffer */
	/* brelse: the last reference (truncated meanwhile) frees the page */
	if (p->count > 1)
		p->count--;
	else
		mm_release_pages(k, t, &pfn, 1);
	return cached ? pfn : PFN_NONE;
}

/* The page-fault path (fmap.c) reads through the same code as read(). */
int mm_file_read_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		       uint32_t n)
{
	if (!f || idx >= f->npages)
		return 0;
	return read_pages(k, t, f, idx, n, true);
}
