/*
 * filemap.c - the page cache and the read() path (2.6.15 mm/filemap.c,
 * mm/readahead.c), see kernel.h.
 *
 * A file is a mapping: an array from page index to pfn stands in for the radix
 * tree (the tree's cost is charged as pc_lookup per lookup).  read() walks the
 * pages of the request: a cached page is a hit (mark_page_accessed once per page,
 * then copy_to_user at the machine's copy bandwidth); missing pages are allocated
 * (which may wake kswapd or enter direct reclaim), added to the page cache and the
 * LRU through the per-CPU pagevec, and read from disk in one request per
 * contiguous run, which the reader waits for.
 *
 * Readahead: a read that continues the previous one (same or next page index) is
 * sequential; the window starts at get_init_ra_size() and doubles up to ra_pages.
 * A read elsewhere resets the window and reads only the pages it needs (2.6.15
 * turns readahead off for random reads).  Simplification: the ahead window is read
 * synchronously when the reader reaches a missing page, not asynchronously ahead
 * of it; for a disk-bound reader the difference is the CPU time per window.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include <simgrid/semaphore.h>
#include "models/disk.h"
#include "models/kmap/kmap.h"
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
	f->disk = disk;
	f->disk_off = off;
	f->ra.prev_index = UINT32_MAX;
	k->files[k->nfiles++] = f;
	return f;
}

/* get_init_ra_size(): the first window for a request of @req pages. */
static uint32_t init_ra_size(uint32_t req, uint32_t max)
{
	uint32_t n;
	if (req <= max / 32)
		n = req * 4;
	else if (req <= max / 4)
		n = req * 2;
	else
		n = max;
	return n < max ? n : max;
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
	uint32_t pfn = mm_page_alloc(k, t, k->pagecache_cls,
				     MM_GFP_KERNEL | MM_GFP_EASYRCLM |
					     (k->pagecache_dma ? 0 : MM_GFP_NODMA));
	if (pfn == PFN_NONE)
		return PFN_NONE;
	if (f->pfn[idx] != PFN_NONE) {
		mm_page_free(k, t, pfn);
		*raced = true;
		return f->pfn[idx];
	}
	struct page *p = &k->phys.pages[pfn];
	p->mapping = f->id;
	p->index = idx;
	page_set(p, locked ? PG_locked : PG_uptodate);
	f->pfn[idx] = pfn;
	f->nr_cached++;
	k->pagecache_pages++;
	/* add_to_page_cache: tree_lock + radix insert; then the LRU pagevec */
	mm_charge(t, k->costs->atomic + k->costs->pc_lookup);
	mm_lru_cache_add(k, t, pfn, MM_LRU_USE_ONCE);
	return pfn;
}

/* Allocate, insert and read pages [@idx, @idx+@n) of @f that are missing.
 * Returns: pages read, or -1 if an allocation failed (OOM). */
static int read_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		      uint32_t n)
{
	uint64_t ps = k->phys.page_size;
	uint32_t run_start = 0, run_len = 0, done = 0;
	if (idx + n > f->npages)
		n = f->npages - idx;
	for (uint32_t i = idx; i <= idx + n; i++) {
		bool need = i < idx + n && f->pfn[i] == PFN_NONE;
		bool raced = false;
		if (need && add_page(k, t, f, i, true, &raced) == PFN_NONE)
			return -1;
		if (need && !raced) {
			if (run_len == 0)
				run_start = i;
			run_len++;
			continue;
		}
		if (run_len) {
			/* the reader sleeps in lock_page */
			mm_disk_wait(k, t, sim_disk(k->s, f->disk), 0,
				     f->disk_off + (uint64_t)run_start * ps, (uint64_t)run_len * ps);
			mm_count(k->s->vs, MM_PGPGIN, run_len * ps / 1024);
			for (uint32_t j = run_start; j < run_start + run_len; j++) {
				struct page *p = &k->phys.pages[f->pfn[j]];
				page_clear(p, PG_locked);
				page_set(p, PG_uptodate);
			}
			done += run_len;
			run_len = 0;
		}
	}
	return (int)done;
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
	uint32_t req = last - first + 1;
	uint32_t max = (uint32_t)k->cfg.ra_pages;
	bool seq = f->ra.prev_index != UINT32_MAX &&
		   (first == f->ra.prev_index || first == f->ra.prev_index + 1);

	mm_charge(t, k->costs->syscall);
	if (!k->cfg.ra_enabled || max == 0 || !seq)
		f->ra.size = 0;
	uint64_t done = 0;
	for (uint32_t idx = first; idx <= last; idx++) {
		mm_charge(t, k->costs->pc_lookup);
		st->pages++;
		if (f->pfn[idx] == PFN_NONE) {
			uint32_t n = last - idx + 1;
			if (k->cfg.ra_enabled && max && seq) {
				f->ra.size = f->ra.size ? 2 * f->ra.size : init_ra_size(req, max);
				if (f->ra.size > max)
					f->ra.size = max;
				if (n < f->ra.size)
					n = f->ra.size;
			}
			/* A page read here may be reclaimed before we get to it: allocating
			 * the later pages of the window can enter reclaim after an earlier
			 * run's I/O completed (readahead thrashing). do_generic_mapping_read
			 * then reads it again, and so do we. */
			int tries = 0;
			while (f->pfn[idx] == PFN_NONE && tries++ < 64)
				if (read_pages(k, t, f, idx, tries == 1 ? n : 1) < 0)
					break;
			if (tries > 1)
				st->refetched += (uint64_t)(tries - 1);
			st->misses++;
		} else {
			st->hits++;
		}
		/* find_get_page(): hold a reference while copying, so reclaim running
		 * meanwhile (kswapd, when this task's cycles are paid) keeps the page.
		 * No simcall separates the lookup above from this get. */
		uint32_t pfn = f->pfn[idx];
		if (pfn == PFN_NONE)
			break;
		struct page *p = &k->phys.pages[pfn];
		p->count++;
		mm_charge(t, k->costs->atomic);
		uint64_t start = idx == first ? pos & (ps - 1) : 0;
		uint64_t end = idx == last ? ((pos + len - 1) & (ps - 1)) + 1 : ps;
		/* mark_page_accessed() once per page, then copy_to_user (through a
		 * kmap when the page has no permanent kernel address) */
		mm_mark_page_accessed(k, t, pfn);
		bool high = page_test(p, PG_highmem);
		if (high)
			kmap_map(k->kmap, t, pfn);
		mm_charge(t, (double)(end - start) * k->copy_cycles_per_byte);
		if (high)
			kmap_unmap(k->kmap, t, pfn);
		done += end - start;
		f->ra.prev_index = idx;
		p->count--;   /* page_cache_release() */
		mm_charge(t, k->costs->atomic);
	}
	return done;
}

/* Completion of an asynchronous page write (driver context: no blocking). */
struct wb_io {
	struct mm_kernel *k;
	uint32_t pfn;
};

static void writeback_end_io(void *arg)
{
	struct wb_io *io = arg;
	struct mm_kernel *k = io->k;
	struct page *p = &k->phys.pages[io->pfn];
	page_clear(p, PG_writeback);
	p->count--;                        /* the I/O's reference */
	if (page_test_clear(p, PG_reclaim) && k->kops->rotate) {
		k->kops->rotate(k->rc, k, mm_zone_of(&k->phys, io->pfn), io->pfn);
		mm_count(k->s->vs, MM_PGROTATED, 1);
	}
	k->writeback_inflight--;
	/* wake every blk_congestion_wait() sleeper; each removes itself */
	for (unsigned i = 0; i < k->congestion_nwait; i++) {
		tm_woken(k->congestion_wake[i]);
		sg_sem_release(k->congestion_waiter[i]);
	}
	k->congestion_nwait = 0;
	free(io);
}

int mm_writepage(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	int disk;
	uint64_t ps = k->phys.page_size, off;
	bool swap = mm_swap_where(k, pfn, &disk, &off);
	if (!swap) {
		if (p->mapping == 0 || p->mapping > (uint32_t)k->nfiles)
			return -1;
		struct mm_file *f = k->files[p->mapping - 1];
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
	page_clear(p, PG_dirty);
	page_set(p, PG_writeback);
	page_set(p, PG_reclaim);
	p->count++;                        /* held by the I/O until it completes */
	k->nr_dirty--;
	mm_count(k->s->vs, MM_PGPGOUT, ps / 1024);
	if (swap)
		mm_count(k->s->vs, MM_PSWPOUT, 1);
	if (k->untimed) {
		/* functional mode: the write completes at once */
		k->writeback_inflight++;
		writeback_end_io(io);
		return 0;
	}
	k->writeback_inflight++;
	if (disk_submit(sim_disk(k->s, disk), &t->tm, 1, off, ps, writeback_end_io, io)) {
		k->writeback_inflight--;
		page_clear(p, PG_writeback);
		page_clear(p, PG_reclaim);
		page_set(p, PG_dirty);
		p->count--;
		k->nr_dirty++;
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
	mm_charge(t, k->costs->syscall);
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
				if (read_pages(k, t, f, idx, 1) < 0)
					break;
			} else {
				/* a whole page is overwritten, or the page lies beyond
				 * the end of the file: no read (grab_cache_page) */
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
		bool high = page_test(p, PG_highmem);
		if (high)
			kmap_map(k->kmap, t, pfn);
		mm_charge(t, (double)(end - start) * k->copy_cycles_per_byte);
		if (high)
			kmap_unmap(k->kmap, t, pfn);
		/* set_page_dirty: one atomic when the page was clean */
		if (!page_test_set(p, PG_dirty)) {
			k->nr_dirty++;
			mm_charge(t, k->costs->atomic);
		}
		mm_mark_page_accessed(k, t, pfn);
		done += end - start;
		p->count--;
		mm_charge(t, k->costs->atomic);
	}
	return done;
}

uint32_t mm_file_resident(const struct mm_file *f, uint32_t first, uint32_t n)
{
	uint32_t c = 0;
	for (uint32_t i = first; i < first + n && i < f->npages; i++)
		c += f->pfn[i] != PFN_NONE;
	return c;
}

void mm_pagecache_remove(struct mm_kernel *k, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	if (p->mapping == 0 || p->mapping > (uint32_t)k->nfiles)
		return;
	struct mm_file *f = k->files[p->mapping - 1];
	if (p->index < f->npages && f->pfn[p->index] == pfn) {
		f->pfn[p->index] = PFN_NONE;
		f->nr_cached--;
		k->pagecache_pages--;
	}
	p->mapping = 0;
}

void mm_file_sync(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		  uint32_t n)
{
	uint64_t ps = k->phys.page_size;
	uint32_t end = first + n > f->npages || first + n < first ? f->npages : first + n;
	uint32_t run_start = 0, run_len = 0;
	mm_charge(t, k->costs->syscall);
	for (uint32_t i = first; i <= end; i++) {
		uint32_t pfn = i < end ? f->pfn[i] : PFN_NONE;
		struct page *p = pfn != PFN_NONE ? &k->phys.pages[pfn] : NULL;
		bool dirty = p && page_test(p, PG_dirty) && !page_test(p, PG_writeback);
		if (dirty) {
			/* clear_page_dirty_for_io + set/end_page_writeback */
			page_clear(p, PG_dirty);
			k->nr_dirty--;
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

void mm_file_truncate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      uint32_t n)
{
	uint32_t end = first + n > f->npages || first + n < first ? f->npages : first + n;
	uint32_t rel[PAGEVEC_SIZE];
	unsigned nrel = 0;
	mm_charge(t, k->costs->syscall);
	for (uint32_t i = first; i < end; i++) {
		uint32_t pfn = f->pfn[i];
		if (pfn == PFN_NONE)
			continue;
		struct page *p = &k->phys.pages[pfn];
		/* truncate_inode_pages: wait_on_page_writeback, then take it out */
		while (page_test(p, PG_writeback) && !k->untimed)
			mm_sleep(t, MM_HZ_S(1), &t->io_wait_s);
		if (f->pfn[i] != pfn)
			continue;   /* reclaimed while we slept */
		if (page_test_clear(p, PG_dirty))
			k->nr_dirty--;   /* cancel_dirty_page */
		mm_charge(t, 2 * k->costs->atomic + k->costs->pc_lookup);
		mm_pagecache_remove(k, pfn);
		/* the page cache's reference goes through release_pages: the page
		 * leaves the LRU under lru_lock and is freed */
		rel[nrel++] = pfn;
		if (nrel == PAGEVEC_SIZE) {
			mm_release_pages(k, t, rel, nrel);
			nrel = 0;
		}
	}
	if (nrel)
		mm_release_pages(k, t, rel, nrel);
}

/* The page-fault path (fmap.c) reads through the same code as read(). */
int mm_file_read_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		       uint32_t n)
{
	if (!f || idx >= f->npages)
		return 0;
	return read_pages(k, t, f, idx, n);
}
