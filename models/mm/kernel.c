/*
 * kernel.c - set-up and tear-down of the memory-management core (see kernel.h):
 * the "vm" knobs and their checks, mm_kernel_init()/mm_kernel_fini(), the
 * functional (untimed) mode switch and the invariant check.
 *
 * The mechanisms live in the file named after the Linux source they follow:
 * task.c (task time, blocking, sleeps, disk waits), spinlock.c (spinlocks, lock
 * metrics), swap.c (mm/swap.c: pagevecs, mark_page_accessed, release_pages),
 * page_alloc.c (mm/page_alloc.c: allocation with reclaim, OOM rate limit),
 * vmscan.c (reclaim, kswapd and its wake-up), filemap.c, proc.c and fmap.c.
 */
#include "models/mm/kernel.h"
#include "models/hw/disk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>

#include "emu/core/sim.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/fs/fs.h"
#include "models/mm/fmap.h"
#include "models/mm/mm_check.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"

static const char *const lru_locking_names[] = { "pagevec", "per-page", NULL };
static const char *const fs_locking_names[] = { "2.6", "2.5.25", NULL };

const struct mm_param mm_kernel_params[] = {
	MM_PARAM(struct mm_kernel_cfg, ra_pages, "ra_pages", MM_P_INT, 0, 4096, "32",
		 "VM_MAX_READAHEAD in pages (128 KiB / 4 KiB = 32 in 2.6.15)"),
	MM_PARAM(struct mm_kernel_cfg, ra_enabled, "readahead", MM_P_BOOL, 1, 0, "true",
		 "sequential readahead (random reads never read ahead)"),
	MM_PARAM(struct mm_kernel_cfg, swappiness, "swappiness", MM_P_INT, 0, 100, "60",
		 "vm_swappiness (2.6 default 60)"),
	MM_PARAM(struct mm_kernel_cfg, swap_size, "swap", MM_P_SIZE, 0, UINT64_C(1) << 42, "0",
		 "swap area at the end of the machine's last disk (0: no swap); anonymous pages are swapped out through reclaim"),
	MM_PARAM(struct mm_kernel_cfg, batch_mark_accessed, "batch_mark_accessed", MM_P_BOOL, 1, 0,
		 "false", "mark_page_accessed through a per-CPU pagevec drained under lru_lock (Nikita Danilov, 2004-11; kernel-mechanisms.md 2.1)"),
	MM_PARAM_ENUM(struct mm_kernel_cfg, lru_locking, "lru_locking", lru_locking_names, "\"pagevec\"",
		      "pagevec: lru_cache_add and release_pages batched through per-CPU pagevecs under each zone's lru_lock (2.5.29 on); per-page: 2.5.25, one global pagemap_lru_lock taken for every page added to or freed from the LRU (kernel-mechanisms.md 3.4)"),
	MM_PARAM_ENUM(struct mm_kernel_cfg, fs_locking, "fs_locking", fs_locking_names, "\"2.6\"",
		      "the ext2 model's locks besides dcache_lock: 2.6, none (its per-group spinlocks are not modelled); 2.5.25, lock_super (the superblock's semaphore) around every block and inode allocation and free, the global inode_lock when an inode is created or freed, and the big kernel lock on ext2_readdir, an overwriting open's truncation and posix locks (models/fs/ext2.c, docs/dbench.md)"),
	MM_PARAM(struct mm_kernel_cfg, dirty_writeback, "dirty_writeback", MM_P_BOOL, 1, 0, "false",
		 "pdflush and balance_dirty_pages (2.6.16 mm/page-writeback.c; writes clustered in 512 KiB requests); false: dirty page cache is written by reclaim only, one page per request"),
	MM_PARAM(struct mm_kernel_cfg, dirty_ratio, "dirty_ratio", MM_P_INT, 5, 100, "40",
		 "vm_dirty_ratio: a writer is throttled above this percent of dirty + writeback pages (2.6.16 default 40; with dirty_writeback)"),
	MM_PARAM(struct mm_kernel_cfg, dirty_background_ratio, "dirty_background_ratio", MM_P_INT, 0, 100, "10",
		 "dirty_background_ratio: pdflush writes back above this percent of dirty pages (2.6.16 default 10; with dirty_writeback)"),
	MM_PARAM(struct mm_kernel_cfg, kswapd_incmin, "kswapd_incmin", MM_P_BOOL, 1, 0, "false",
		 "kswapd's balance_pgdat as page-replace-kswapd-incmin 14/14 of the 2005-12-30 CLOCK-Pro series has it (Nick Piggin): zones low-to-high, each scanned only while below its own pages_high; false: 2.6.15, every zone up to the highest low one (kernel-mechanisms.md 1.5a)"),
	MM_PARAM_END
};

void mm_set_untimed(struct mm_kernel *k, bool on)
{
	k->untimed = on;
}

int mm_kernel_cfg_check(const struct mm_kernel_cfg *c, const struct machine_cfg *m,
			const char *file, const char *path, struct mm_err *e)
{
	char sub[256];
	if (!c->swap_size)
		return 0;
	snprintf(sub, sizeof sub, "%s.vm.swap", path ? path : "kernels.?");
	if (m->ndisks < 1)
		return mm_errf(e, file, sub,
			       "expected 0: the machine has no disk for a swap area (it lives at the end of the last disk)");
	uint64_t ps = machine_page_size(m);
	if (c->swap_size / ps > MM_SWAP_MAX_SLOTS)
		return mm_errf(e, file, sub,
			       "expected at most %llu bytes (%u slots of %llu bytes: a swap entry's offset bits); got %llu bytes",
			       (unsigned long long)(MM_SWAP_MAX_SLOTS * ps), MM_SWAP_MAX_SLOTS,
			       (unsigned long long)ps, (unsigned long long)c->swap_size);
	const struct disk_cfg *d = &m->disks[m->ndisks - 1];
	if (c->swap_size > d->size / 2)
		return mm_errf(e, file, sub,
			       "expected at most half of the machine's last disk %s, %llu bytes (the swap area lives at its end); got %llu bytes",
			       d->name, (unsigned long long)(d->size / 2),
			       (unsigned long long)c->swap_size);
	return 0;
}

int mm_kernel_load_cfg(struct mm_kernel_cfg *c, json_t *k, const char *file, const char *path,
		       struct mm_err *e)
{
	char sub[256];
	snprintf(sub, sizeof sub, "%s.vm", path);
	return mm_params_load(mm_kernel_params, c, json_object_get(k, "vm"), file, sub, NULL, e);
}

/* Line ownership of the kernel's shared data (docs/architecture.md, "Cache-line
 * ownership"), on a machine that declares costs.line_transfer (the judgement
 * constant of seeds 001 and 002; without it only the lock words move): one line
 * per struct page (2.6.10's struct page is 32 bytes, one P6 line; 2.5.25's 40
 * straddles two, of which the one with count, flags and lru is modelled; pkmap
 * keeps page->virtual's), and the lines each zone and LRU lock guards beside its
 * own word (32-byte lines; kernel-mechanisms.md 0.2):
 *   2.6.10 struct zone: free_pages, written by __rmqueue and __free_pages_bulk
 *     under zone->lock, sits in the struct's first line with the watermarks,
 *     away from the lock (which follows the cacheline-aligned pageset[] with
 *     free_area[0] on its line); lru_lock starts a 128-byte aligned block with
 *     active_list, inactive_list, nr_scan_* and nr_active on its line, and
 *     nr_inactive, pages_scanned and all_unreclaimable on the next one, which
 *     free_pages_bulk also writes under zone->lock.  zone->lock guards lines
 *     0 (free_pages) and 1 (nr_inactive ...), lru_lock line 1.
 *   2.5.25 (vm.lru_locking "per-page"): zone_t is lock, free_pages, the
 *     watermarks, need_balance, then free_area[0], which straddles into the next
 *     line: zone->lock guards line 0 (that half); pagemap_lru_lock is
 *     cacheline-aligned alone and active_list, inactive_list are plain globals
 *     of mm/page_alloc.c (nr_active and nr_inactive moved to the per-CPU
 *     page_states in 2.5.18): pagemap_lru_lock guards line 1 (the list heads).
 * Returns: 0, or -1 with @e set (out of memory). */
static int mm_data_lines_init(struct mm_kernel *k, struct mm_err *e)
{
	k->page_line = calloc(k->phys.nr_pages ? k->phys.nr_pages : 1, sizeof *k->page_line);
	if (!k->page_line)
		return mm_errf(e, k->s->file, NULL, "out of memory");
	k->coh.cold_free = k->guard_coh.cold_free = true;
	bool v2525 = k->cfg.lru_locking == MM_LRU_PER_PAGE;
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct mm_spinlock *zl = &k->zone_lock[i], *ll = &k->lru_lock[i];
		zl->guard[zl->nguard++] = &k->zone_line[i][0];
		if (!v2525)
			zl->guard[zl->nguard++] = &k->zone_line[i][1];
		ll->guard[ll->nguard++] = &k->zone_line[i][1];
	}
	return 0;
}

int mm_kernel_init(struct mm_kernel *k, struct sim *s, struct mm_err *e)
{
	char path[200];
	memset(k, 0, sizeof *k);
	k->s = s;
	k->costs = &s->machine->costs;
	k->clock = s->machine->clock;
	k->copy_cycles_per_byte = s->machine->clock / s->machine->copy_bw;
	snprintf(path, sizeof path, "kernels.%s", s->kernel_name ? s->kernel_name : "?");

	if (mm_kernel_load_cfg(&k->cfg, s->kernel, s->file, path, e) ||
	    mm_kernel_cfg_check(&k->cfg, s->machine, s->file, path, e))
		return -1;
	struct mm_phys_cfg pc = s->machine->mem;
	pc.cpus = s->machine->cpus;
	if (mm_phys_init(&k->phys, &pc, e))
		return -1;
	k->phys.vs = s->vs;
	k->alloc = s->make->alloc(s, &k->phys, e);
	if (!k->alloc)
		return -1;
	k->rc = s->make->reclaim(s, k->phys.nr_pages, e);
	if (!k->rc)
		return -1;
	k->kops = k->rc->ops->kops;
	if (k->cfg.batch_mark_accessed && !k->kops->mark_accessed_locked) {
		char sub[256];
		snprintf(sub, sizeof sub, "%s.vm.batch_mark_accessed", path);
		return mm_errf(e, s->file, sub, "reclaim module %s has no batched mark_page_accessed",
			       k->rc->ops->name);
	}
	k->kmap = s->make->kmap(s, k, e);
	if (!k->kmap)
		return -1;
	k->coloring = s->make->coloring(s, cache_colors(&s->machine->caches,
							 machine_page_size(s->machine)), e);
	if (!k->coloring || coloring_attach(k->coloring, k->alloc, e))
		return -1;
	if (!k->kops) {
		char sub[256];
		snprintf(sub, sizeof sub, "%s.reclaim", path);
		return mm_errf(e, s->file, sub,
			       "module %s only runs on frames (replay, trace workload); a kernel workload needs a kernel-level module such as lru2q or clockpro",
			       k->rc->ops->name);
	}
	for (int i = 0; i < MM_NR_ZONES; i++) {
		mm_spin_init(&k->lru_lock[i]);
		mm_spin_init(&k->zone_lock[i]);
	}
	if (k->costs->line_transfer > 0 && mm_data_lines_init(k, e))
		return -1;
	k->lru_add_pvec = calloc((size_t)s->machine->cpus, sizeof *k->lru_add_pvec);
	k->accessed_pvec = calloc((size_t)s->machine->cpus, sizeof *k->accessed_pvec);
	if (!k->lru_add_pvec || !k->accessed_pvec)
		return mm_errf(e, s->file, NULL, "out of memory");
	if (k->kops->kinit(k->rc, k, e))
		return -1;
	/* page cache: GFP_HIGHUSER, the highest populated zone class */
	k->pagecache_cls = MM_ZONE_HIGHMEM;
	k->pagecache_dma = k->kops->pagecache_dma ? k->kops->pagecache_dma(k->rc) : true;
	struct mm_swap_cfg swc = { .size = k->cfg.swap_size };
	if (swc.size) {   /* fits: mm_kernel_cfg_check() above */
		const struct disk_cfg *d = &s->machine->disks[s->machine->ndisks - 1];
		swc.disk = s->machine->ndisks - 1;
		swc.off = (d->size - swc.size) & ~(k->phys.page_size - 1);
	}
	if (mm_proc_init(k, &swc, e))
		return -1;
	k->kswapd_mx = sg_mutex_init();
	k->kswapd_wait = sg_cond_init();
	mm_kswapd_start(k, (int)s->machine->cpus - 1);
	if (k->cfg.dirty_writeback)
		mm_pdflush_start(k, 0);
	return 0;
}

void mm_kernel_fini(struct mm_kernel *k)
{
	if (k->kops && k->kops->kfini)
		k->kops->kfini(k->rc, k);
	for (int i = 0; i < k->nfiles; i++) {
		mm_fmap_free_all(k->files[i]);
		free(k->files[i]->pfn);
		free(k->files[i]->ra_unused);
		free(k->files[i]);
	}
	mm_ext3_free_all(k);
	mm_pcobj_free_all(k);
	mm_dcache_free_all(k);
	mm_proc_fini(k);
	reclaim_destroy(k->rc);
	kmap_destroy(k->kmap);
	coloring_destroy(k->coloring);
	alloc_destroy(k->alloc);
	mm_phys_fini(&k->phys);
	free(k->lru_add_pvec);
	free(k->accessed_pvec);
	free(k->page_line);
	k->page_line = NULL;
	/* SimGrid objects: nobody waits on them any more (see kernel.h) */
	for (int i = 0; i < MM_NR_ZONES; i++) {
		mm_spin_destroy(&k->lru_lock[i]);
		mm_spin_destroy(&k->zone_lock[i]);
	}
	for (int i = 0; i < MM_MAX_CPUS; i++) {
		mm_busq_destroy(&k->bus_q[i]);
	}
	if (k->kswapd_wait)
		sg_cond_destroy(k->kswapd_wait);
	if (k->kswapd_mx)
		sg_mutex_destroy(k->kswapd_mx);
	if (k->pdflush_sem)
		sg_sem_destroy(k->pdflush_sem);
	for (unsigned i = 0; i < k->congestion_nwait; i++)   /* sleepers of a stopped run */
		sg_sem_destroy(k->congestion_waiter[i]);
	memset(k, 0, sizeof *k);
}

struct mm_kernel *mm_kernel_boot(struct sim *s, struct mm_err *e)
{
	if (s->boot)
		return s->boot;
	struct mm_kernel *k = calloc(1, sizeof *k);
	if (!k) {
		mm_errf(e, s->file, NULL, "out of memory");
		return NULL;
	}
	if (mm_kernel_init(k, s, e)) {
		free(k);   /* what a failed init built is not freed, as before chains */
		return NULL;
	}
	s->boot = k;
	return k;
}

void mm_kernel_shutdown(struct sim *s)
{
	if (!s->boot)
		return;
	mm_kernel_fini(s->boot);
	free(s->boot);
	s->boot = NULL;
}

int mm_kernel_check(struct mm_kernel *k, struct mm_err *e)
{
	if (k->alloc && k->alloc->st.bad_free)
		return mm_errf(e, NULL, NULL,
			       "%llu frees of a free, reserved or listed page (bad_page)",
			       (unsigned long long)k->alloc->st.bad_free);
	return mm_check(&k->phys, e);
}

double mm_copy_user(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, uint32_t off, uint32_t n,
		    bool to_user)
{
	if (k->copy && pfn != PFN_NONE && !k->untimed)
		return k->copy->copy(k->copy->ctx, t, pfn, off, n, to_user);
	return (double)n * k->copy_cycles_per_byte;
}

double mm_bus_transfer(struct mm_kernel *k, struct mm_task *t, uint64_t bytes, double factor,
		       double cpu_cycles)
{
	const struct machine_cfg *m = k->s ? k->s->machine : NULL;
	if (!m || m->bus.bandwidth <= 0 || k->untimed || bytes == 0 || factor <= 0)
		return 0;
	mm_observe(t);   /* the bus is seen by every CPU on it */
	int per = m->costs.cpus_per_bus > 0 ? (int)m->costs.cpus_per_bus : MM_MAX_CPUS;
	int cpu = t->cpu >= 0 ? t->cpu : 0;
	int bus = cpu / per;
	if (bus >= MM_MAX_CPUS)
		bus = MM_MAX_CPUS - 1;
	double now = tm_now(&t->tm);
	double need = ((double)bytes * factor + (double)t->line_bytes) / m->bus.bandwidth;
	k->bus_line_bytes += t->line_bytes;
	t->line_bytes = 0;   /* the shared lines it moved go with this copy */
	double start = now - cpu_cycles / t->tm.clock;   /* when the copying began */
	double stall = membus_serve(&k->bus_free[bus], &k->bus_q[bus], mm_slack(t) > 0,
				    simgrid_get_clock(), now, start, need);
	k->bus_busy_s[bus] += need;
	k->bus_transfers++;
	if (!(stall > 0))
		return 0;
	k->bus_stall_s += stall;
	mm_charge(t, stall * t->tm.clock);
	return stall;
}
