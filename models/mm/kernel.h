/*
 * kernel.h - the simulated kernel's memory-management core.
 *
 * struct mm_kernel ties together physical memory (zone.h), the allocator module
 * (alloc.h), the reclaim module (reclaim.h + vmscan.h), the page cache
 * (filemap.c), the per-CPU lru_add pagevecs, zone->lru_lock, and kswapd.  Tasks
 * (actors) reach it through their struct mm_task, which is the SimGrid actor's data
 * and carries the actor's pending-cycle account (emu/timemodel.h).
 *
 * Costs are charged where Linux 2.6.15 pays them (kernel-mechanisms.md 1.3, 1.6):
 * atomics, struct page lines, lock acquisitions, copies; sleeps (congestion waits,
 * allocation retry naps) are real simulated sleeps of the task that takes them.
 *
 * This is the header callers include.  It brings spinlock.h (spinlock.c) and
 * swap.h (swap.c: the LRU pagevecs) and declares, by the file that defines them,
 * the set-up (kernel.c), tasks (task.c), the page allocator (page_alloc.c) and the
 * page cache (filemap.c); reclaim and kswapd are in vmscan.h.
 */
#ifndef MMEMU_KERNEL_H
#define MMEMU_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include <simgrid/forward.h>

#include "emu/core/timemodel.h"
#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/hw/machine.h"
#include "models/hw/coherence.h"
#include "models/hw/membus.h"
#include "models/mm/spinlock.h"
#include "models/mm/swap.h"
#include "models/mm/zone.h"
#include "models/reclaim/reclaim.h"

#define MM_MAX_FILES 64   /* page-cache files of one boot: a chain's steps add theirs */
#define MM_MAX_KCACHES 32   /* slab caches named in page->aux (kobj.c, census.c) */
#define MM_HZ_S(x) ((double)(x) / 1000.0)   /* jiffies at HZ=1000 -> seconds */

struct sim;
struct mm_kernel;
struct sched;
struct mm_ext3;
struct sched_task;
struct mm_fmap;

/* A task: one actor's view of the kernel. */
/* Who takes lru_lock, for the per-caller lock counts (metrics
 * lru_lock_acquisitions_by_SITE, lru_lock_contended_by_SITE): set by the mm
 * core's entry points (swap.c, vmscan.c) around the lock holds they make or
 * the reclaim module makes for them. */
enum mm_lru_site {
	MM_LRU_SITE_OTHER,      /* none of those below */
	MM_LRU_SITE_ADD,        /* lru_cache_add: the lru_add pagevec's drain, or 2.5.25's per page */
	MM_LRU_SITE_ACCESSED,   /* the batched mark_page_accessed pagevec's drain */
	MM_LRU_SITE_RELEASE,    /* release_pages: the last reference of LRU pages */
	MM_LRU_SITE_ACTIVATE,   /* mark_page_accessed's activate_page (unbatched) */
	MM_LRU_SITE_RECLAIM,    /* shrink_zone: isolation, putback, refill_inactive */
	MM_NR_LRU_SITES
};

struct mm_task {
	struct tm tm;              /* pending cycles of this actor */
	struct mm_kernel *k;
	uint64_t ubuf;             /* the user buffer of the current read(2)/write(2):
				    * a copy through k->copy (mm_copy_user) starts there
				    * and advances it; unused without a copy model */
	int cpu;
	const char *name;
	bool memalloc;             /* PF_MEMALLOC: in reclaim, may dip below watermarks */
	double congestion_s;       /* simulated seconds slept in blk_congestion_wait */
	double retry_nap_s;        /* ... in allocation retry naps */
	double io_wait_s;          /* ... waiting for disk reads */
	uint64_t direct_reclaims;
	void *wl;                  /* the workload's per-task data */
	/* CPU scheduler (only when k->sched is set and the task was made with
	 * mm_task_init_sched; otherwise all NULL/0 and unused) */
	struct sched_task *st;     /* the task's scheduler entity */
	struct mm_task *wq_next;   /* link in a spinlock's waiter queue */
	sg_sem_t wq_sem;           /* ... and the semaphore the release wakes it with */
	double user_cycles;        /* user-mode cycles paid with mm_user() (tm.paid: system) */
	double spin_s;             /* simulated seconds spinning on contended spinlocks */
	uint64_t minflt, majflt;   /* page faults served from memory / from disk (proc.c) */
	uint64_t lru_acq;          /* lru_lock acquisitions by this task */
	uint8_t lru_site;          /* enum mm_lru_site of the lru_lock it takes next */
	double lru_hold_s;         /* ... and the simulated seconds it held it */
	/* page colouring (models/coloring/coloring.h): the task's next colour and the
	 * virtual page of the anonymous fault being served (set by proc.c) */
	struct coloring_task color;
	/* bytes of shared lines this task moved since its last bus booking: they go
	 * onto the bus with the next copy (mm_line_read/write, mm_bus_transfer) */
	uint64_t line_bytes;
	/* reclaim_state->reclaimed_slab: slab pages this task freed (kobj.c) */
	uint64_t reclaimed_slab;
};

/* Readahead state of one open file (2.6.15 struct file_ra_state; one per file
 * here, as 2read and the other workloads open each file once). */
#define MM_RA_FLAG_MISS    0x1u   /* a page readahead brought in was not found */
#define MM_RA_FLAG_INCACHE 0x2u   /* the file looks fully cached: readahead is off */
struct mm_ra {
	uint32_t prev_index;       /* prev_page: last page looked at (UINT32_MAX: none) */
	uint32_t start, size;      /* current window (size 0: readahead off) */
	uint32_t ahead_start, ahead_size;  /* ahead window (ahead_start 0: none) */
	uint32_t cache_hit;        /* pages found cached by consecutive windows */
	unsigned flags;            /* MM_RA_FLAG_* */
};

/* A task sleeping in lock_page() / wait_on_page_locked() / wait_on_buffer() until
 * the read of its page completes: the completion wakes the waiters of its own
 * pages only (wake_up_page: the kernel's hashed page wait queue, filtered by
 * wake_bit_function to the page and PG_locked). */
struct mm_page_waiter {
	sg_sem_t sem;
	double *wake;              /* the sleeper's wake slot (lookahead) */
	uint32_t pfn;              /* the page it waits for */
	struct mm_page_waiter *next;
};

struct mm_file {
	uint32_t id;               /* mapping id written in struct page (1-based) */
	char name[32];
	uint64_t size;
	uint32_t npages;
	uint32_t *pfn;             /* page index -> pfn, PFN_NONE if not cached */
	uint32_t nr_cached;
	uint32_t nr_dirty;          /* its pages with PG_dirty */
	int disk;
	uint64_t disk_off;         /* byte offset of the file's first block */
	struct mm_ra ra;
	uint32_t wb_index;          /* writeback_index: where the next writeback starts */
	double dirtied_when;       /* when nr_dirty last rose from 0 (inode->dirtied_when) */
	uint8_t *ra_unused;        /* [npages/8+1] bit set: read, not yet used by read() */
	struct mm_fmap *i_mmap;    /* its shared mappings (fmap.c); NULL: not mapped */
	bool bdev;                 /* a block device's mapping (ext3.c): GFP_USER, lowmem */
};

/* How pages join and leave the LRU lists (vm.lru_locking, swap.c). */
enum mm_lru_locking {
	MM_LRU_PAGEVEC,            /* 2.6: per-CPU pagevecs drained under per-zone lru_lock */
	MM_LRU_PER_PAGE,           /* 2.5.25: one global pagemap_lru_lock, taken per page */
};

/* Which locks the ext2 model takes besides dcache_lock (vm.fs_locking, ext2.c). */
enum mm_fs_locking {
	MM_FS_LOCKS_26,            /* 2.6: per-group spinlocks, not modelled */
	MM_FS_LOCKS_2525,          /* 2.5.25: lock_super and inode_lock */
};

struct mm_kernel_cfg {
	int64_t ra_pages;          /* VM_MAX_READAHEAD in pages */
	bool ra_enabled;
	int64_t swappiness;
	bool batch_mark_accessed;  /* Nikita Danilov's per-CPU mark_page_accessed pagevec */
	int lru_locking;           /* enum mm_lru_locking (swap.c) */
	int fs_locking;            /* enum mm_fs_locking (models/fs/ext2.c) */
	uint64_t swap_size;        /* bytes of swap at the end of the last disk; 0 = none */
	bool dirty_writeback;      /* pdflush and balance_dirty_pages (writeback.c) */
	int64_t dirty_ratio;       /* vm_dirty_ratio, percent */
	int64_t dirty_background_ratio;   /* dirty_background_ratio, percent */
	bool kswapd_incmin;        /* the series' balance_pgdat (vmscan.c, kernel-mechanisms.md 1.5a) */
};

/* A superblock's dirty inodes (2.6.16 sb->s_dirty, fs/fs-writeback.c
 * sync_sb_inodes): every writeback_inodes() pass calls @write with the
 * pass's older_than_this (wb_kupdate: 30 s ago; INFINITY: any), which cleans
 * the inodes dirtied at or before it, oldest first.  Returns: inodes cleaned. */
typedef uint64_t (*mm_write_inodes_fn)(struct mm_kernel *k, struct mm_task *t, void *arg,
				       double older_than);
struct mm_inode_sb {
	mm_write_inodes_fn write;
	void *arg;
};
#define MM_MAX_INODE_SBS 4

/* A registered shrinker (2.6.16 struct shrinker, mm/vmscan.c set_shrinker):
 * @shrink(k, t, arg, 0) returns the objects it could free, @shrink(.., nr)
 * frees up to nr first.  Run by shrink_slab (vmscan.c). */
#define MM_MAX_SHRINKERS 4
#define MM_DEFAULT_SEEKS 2
#define MM_SHRINK_BATCH 128
struct mm_kernel;
typedef long (*mm_shrinker_fn)(struct mm_kernel *k, struct mm_task *t, void *arg, long nr);
struct mm_shrinker {
	mm_shrinker_fn shrink;
	void *arg;
	int seeks;
	long nr;                   /* scan work deferred to the next call */
};
struct mm_pcobj;
struct mm_dcache;

/* A model of the kernel's data copies between a kernel page and user memory. */
struct mm_copy_model {
	/* Returns: the CPU cycles of copying @n bytes between frame @pfn at offset
	 * @off and @t's user buffer at t->ubuf (to user space when @to_user); the
	 * model advances t->ubuf by @n. */
	double (*copy)(void *ctx, struct mm_task *t, uint32_t pfn, uint32_t off, uint32_t n,
		       bool to_user);
	void *ctx;
};

struct mm_kernel {
	struct sim *s;
	struct mm_kernel_cfg cfg;
	struct mm_phys phys;
	struct alloc *alloc;
	struct reclaim *rc;
	const struct reclaim_kops *kops;
	struct kmap *kmap;
	struct coloring *coloring;
	const struct machine_costs *costs;
	double clock;
	double copy_cycles_per_byte;
	/* copy_to_user / copy_from_user through a CPU cache model (a workload with
	 * machine.caches sets it; NULL: copies cost copy_cycles_per_byte) */
	const struct mm_copy_model *copy;

	struct mm_spinlock lru_lock[MM_NR_ZONES];
	struct mm_spinlock zone_lock[MM_NR_ZONES];   /* zone->lock: buddy lists, pcp refill/drain */
	bool untimed;                      /* functional warm-up: no simulated time passes */
	struct pagevec *lru_add_pvec;      /* [ncpus] */
	struct pagevec *accessed_pvec;     /* [ncpus] page_accessed_pvec (batched variant) */

	/* kswapd */
	sg_mutex_t kswapd_mx;
	sg_cond_t kswapd_wait;
	bool kswapd_sleeping;
	unsigned kswapd_order;
	struct mm_task kswapd;

	/* writeback: async page writes in flight; blk_congestion_wait() sleeps on
	 * congestion_cv until one completes or the time-out passes */
	unsigned writeback_inflight;
	sg_sem_t congestion_waiter[MM_MAX_CPUS];   /* one semaphore per sleeping task */
	double *congestion_wake[MM_MAX_CPUS];      /* ... and its wake slot (lookahead) */
	unsigned congestion_nwait;
	uint64_t nr_dirty;
	uint64_t nr_writeback;             /* pages under writeback (PG_writeback) */
	/* dirty-page writeback (writeback.c; vm.dirty_writeback) */
	bool dirty_exceeded;
	uint32_t dirty_ratelimits[MM_MAX_CPUS];   /* per-CPU pages dirtied since the last balance */
	sg_sem_t pdflush_sem;
	bool pdflush_busy;
	struct mm_task pdflush;
	struct mm_task kupdate;            /* the second pdflush thread: wb_kupdate every 5 s */
	uint64_t kupdate_runs, kupdate_pages;   /* wb_kupdate passes, pages they wrote */
	/* superblocks whose dirty inodes writeback cleans (dcache.c) */
	struct mm_inode_sb inode_sbs[MM_MAX_INODE_SBS];
	int ninode_sbs;
	uint64_t wb_requests;              /* clustered write requests submitted */
	uint64_t wb_throttled;             /* balance_dirty_pages() writes by a writer */
	/* reads: page reads in flight (submitted, or waited for by their reader)
	 * and the tasks waiting for one of their pages */
	unsigned read_inflight;
	unsigned read_sync_inflight;       /* reads waited for by their reader (mm_disk_wait) */
	unsigned read_pending;             /* read_pages calls inserting locked pages */
	struct mm_page_waiter *page_waiters;
	uint64_t page_lock_sleeps;         /* sleeps in wait_on_page_locked (mm_wait_on_page_locked) */
	uint64_t page_lock_wakeups;        /* of them, wake-ups by a read's completion */

	/* page cache */
	struct mm_file *files[MM_MAX_FILES];
	int nfiles;
	int pagecache_cls;                 /* zone class of page-cache allocations */
	bool pagecache_dma;                /* may page cache come from ZONE_DMA */
	uint64_t pagecache_pages;

	/* optional CPU scheduler (models/sched/sched.h), set by a workload that creates one;
	 * NULL: tasks pay cycles with the time model alone (no wiring is active) */
	struct sched *sched;

	/* ext3 metadata buffers (ext3.h); NULL: the workload's files are not on ext3 */
	struct mm_ext3 *ext3;
	/* buffer heads and radix-tree nodes of the page cache (bufhead.h); NULL:
	 * not modelled (the workload did not enable them) */
	struct mm_pcobj *pcobj;
	/* the dentry and inode caches (models/fs/dcache.h mm_dcache_of); NULL
	 * until a workload creates or looks up a file */
	struct mm_dcache *dcache;
	/* slab shrinkers (dcache.c); none: shrink_slab does nothing */
	struct mm_shrinker shrinkers[MM_MAX_SHRINKERS];
	int nshrinkers;
	uint64_t slabs_scanned;            /* objects the shrinkers were asked to scan */
	/* the slab caches by id (kobj.c: a slab page's aux is MM_KPAGE_SLAB + id) */
	const char *kcache_name[MM_MAX_KCACHES];
	bool kcache_rclm[MM_MAX_KCACHES];  /* __GFP_KERNRCLM: shrinkable (dcache, icache) */
	unsigned nkcaches;

	/* anonymous memory, processes and swap (proc.h) */
	struct mm_procs *proc;
	uint64_t nr_mapped;                /* pages mapped by page tables (mapcount > 0) */
	uint64_t nr_anon;                  /* anonymous pages mapped or in the swap cache */
	/* out_of_memory()'s rate limit (page_alloc.c) */
	double oom_first, oom_last, oom_lastkill;
	unsigned oom_count;
	uint64_t oom_kills;
	/* front-side buses (membus.c; machine.bus): when each bus has served the
	 * transfers booked so far, and what they cost */
	double bus_free[MM_MAX_CPUS];
	double bus_busy_s[MM_MAX_CPUS];     /* bus time booked */
	struct mm_busq bus_q[MM_MAX_CPUS];   /* bookings, with engine.slack > 0 only */
	double bus_stall_s;                 /* CPU time stalled waiting for a bus */
	uint64_t bus_transfers;             /* bookings (copy batches) */
	uint64_t bus_line_bytes;            /* of which shared-line bytes (mm_line_*, hand-offs) */
	/* line ownership of the data the locks guard (docs/architecture.md, "Cache-line
	 * ownership"): on only when the machine declares costs.line_transfer */
	struct coh_line *page_line;         /* [nr pages]: the line of each struct page
					       (flags, _count, lru links), or NULL */
	struct coh_stats coh;               /* the struct page lines */
	struct coh_line zone_line[MM_NR_ZONES][2];   /* the lines of struct zone the
						       zone and LRU locks guard (kernel.c) */
	struct coh_stats guard_coh;         /* the lines locks guard (mm_spinlock.guard) */
	/* lru_lock acquisitions and contended ones by caller (mm_task.lru_site) */
	uint64_t lru_site_acq[MM_NR_LRU_SITES], lru_site_cont[MM_NR_LRU_SITES];
};

/* ---- set-up (kernel.c) ---- */

extern const struct mm_param mm_kernel_params[];

/** mm_kernel_load_cfg() - load kernel section @k's "vm" knobs. Returns: 0 or -1 with @e set. */
int mm_kernel_load_cfg(struct mm_kernel_cfg *c, json_t *k, const char *file, const char *path,
		       struct mm_err *e);

/**
 * mm_kernel_cfg_check() - validation-time checks of kernel knobs @c against machine
 * @m: a swap area (vm.swap > 0) needs a disk and at most half of the last disk.
 * Returns: 0, or -1 with @e naming @path.vm.swap in @file.
 */
int mm_kernel_cfg_check(const struct mm_kernel_cfg *c, const struct machine_cfg *m,
			const char *file, const char *path, struct mm_err *e);

/**
 * mm_kernel_init() - build the kernel of simulation @s: memory, allocator, reclaim
 * module, page cache, and the kswapd actor (on the last CPU).
 * Must run inside a SimGrid simulation (after the platform is loaded).
 * Returns: 0, or -1 with @e set.
 */
int mm_kernel_init(struct mm_kernel *k, struct sim *s, struct mm_err *e);

/**
 * mm_kernel_fini() - free everything mm_kernel_init() and the files allocated
 * (with the mappings left on them), SimGrid mutexes, conditions and semaphores
 * included: call it after the simulation, when no actor is left (SimGrid aborts
 * on destroying a condition or semaphore that an actor waits on; sim_run() ends
 * every actor first).
 * Returns: nothing.
 */
void mm_kernel_fini(struct mm_kernel *k);

/**
 * mm_kernel_boot() - the kernel booted for simulation @s: the first call builds it
 * (mm_kernel_init) and keeps it in @s->boot; later calls, by the next steps of a
 * chained run (emu/engine/chain.c), get the same kernel with its page cache,
 * reclaim state and daemons.  sim_release() frees it (mm_kernel_shutdown).
 * Returns: the kernel, or NULL with @e set.
 */
struct mm_kernel *mm_kernel_boot(struct sim *s, struct mm_err *e);

/** mm_kernel_shutdown() - free @s->boot, if any (as mm_kernel_fini). Returns: nothing. */
void mm_kernel_shutdown(struct sim *s);

/** mm_kernel_check() - Returns: 0, or -1 with @e naming the first broken invariant. */
int mm_kernel_check(struct mm_kernel *k, struct mm_err *e);

/**
 * mm_set_untimed() - switch functional mode on or off.  Untimed, the core runs the
 * same mechanisms without simulated time: no cycles are charged, disk reads
 * complete at once, naps are skipped, and a kswapd wake-up runs balance_pgdat()
 * inline in kswapd's name.  Used to warm the cache before measuring.
 */
void mm_set_untimed(struct mm_kernel *k, bool on);

/* ---- tasks (task.c) ---- */

/** mm_task_init() - set up @t for an actor on @cpu. */
void mm_task_init(struct mm_task *t, struct mm_kernel *k, int cpu, const char *name);

/**
 * mm_task_init_sched() - set up @t as a task scheduled by k->sched through its
 * entity @st (sched_task_init already done, CPU @st->cpu).  Its system cycles
 * (everything the mm core charges) are paid on its CPU without preemption (a
 * 2.6 kernel without CONFIG_PREEMPT: an expired slice is acted on at the next
 * user-mode run), counted in the scheduler's run time and slice; disk waits and
 * naps give up the CPU (sched_block/sched_wake); spinlock waits keep it.
 */
void mm_task_init_sched(struct mm_task *t, struct mm_kernel *k, struct sched_task *st,
			const char *name);

/**
 * mm_user() - pay @cycles of user-mode CPU as task @t (pending system cycles
 * first): through sched_run() for a scheduled task (preemptible: slice expiry
 * switches), else the time model; counted in @t->user_cycles, not in tm.paid.
 */
void mm_user(struct mm_task *t, double cycles);

/**
 * mm_block() - @t is about to sleep (disk wait, nap): pay pending cycles and, if
 * scheduled, give up its CPU (a voluntary switch).  Nothing else otherwise.
 */
void mm_block(struct mm_task *t);

/** mm_unblock() - after the sleep: if scheduled, wait for a CPU (sched_wake). */
void mm_unblock(struct mm_task *t);

struct disk;
/**
 * mm_disk_wait() - @t reads (@write 0) or writes @bytes at @pos of @dk and waits
 * for it (lock_page / wait_on_page_writeback): its pending cycles are paid, a
 * scheduled task gives up its CPU meanwhile, and the wait is added to
 * t->io_wait_s.  Nothing when untimed.  Returns: nothing.
 */
void mm_disk_wait(struct mm_kernel *k, struct mm_task *t, struct disk *dk, int write,
		  uint64_t pos, uint64_t bytes);

/* ---- dirty-page writeback (writeback.c, 2.6.16 mm/page-writeback.c) ---- */

/**
 * mm_balance_dirty_pages_ratelimited() - @t dirtied a page of @f: every
 * ratelimit_pages of its CPU, throttle it in balance_dirty_pages() (write a chunk
 * itself while the dirty limit is exceeded) and wake pdflush above the background
 * threshold.  Nothing unless vm.dirty_writeback.  Returns: nothing.
 */
void mm_balance_dirty_pages_ratelimited(struct mm_kernel *k, struct mm_task *t, struct mm_file *f);

/** mm_dirty_limits() - get_dirty_limits(): the background and dirty thresholds in
 * pages.  Returns: nothing (*@background, *@dirty set). */
void mm_dirty_limits(const struct mm_kernel *k, uint64_t *background, uint64_t *dirty);

/** mm_pdflush_start() - start the pdflush daemon and the wb_kupdate thread on
 * @cpu.  Returns: nothing. */
void mm_pdflush_start(struct mm_kernel *k, int cpu);

/** mm_now() - the time on @t's clock (jiffies).  Returns: seconds, 0 in
 * functional mode or without a task. */
double mm_now(const struct mm_kernel *k, const struct mm_task *t);

/** mm_file_dirty_inc() - a page of @f became dirty (set_page_dirty): counted in
 * @k and @f; the file's dirtied_when is @t's time when it was clean before
 * (__mark_inode_dirty).  Returns: nothing. */
void mm_file_dirty_inc(struct mm_kernel *k, struct mm_task *t, struct mm_file *f);

/** mm_register_inode_sb() - writeback cleans the dirty inodes @write keeps.
 * Returns: 0, or -1 when @k has no room. */
int mm_register_inode_sb(struct mm_kernel *k, mm_write_inodes_fn write, void *arg);

/** mm_end_page_writeback() - end_page_writeback() of @pfn (driver context): clear
 * PG_writeback, drop the I/O's reference, rotate a PG_reclaim page to the
 * inactive tail.  Returns: nothing. */
void mm_end_page_writeback(struct mm_kernel *k, uint32_t pfn);

/** mm_congestion_wake() - a write completed: wake every blk_congestion_wait()
 * sleeper (driver context).  Returns: nothing. */
void mm_congestion_wake(struct mm_kernel *k);

/** mm_current() - Returns: the task of the running actor. */
struct mm_task *mm_current(void);

static inline void mm_charge(struct mm_task *t, double cycles)
{
	if (!t->k->untimed)
		tm_charge(&t->tm, cycles);
}

/**
 * mm_slack() - Returns: how far (seconds) @t may run ahead of the other actors
 * (engine.slack), 0 when the time model is exact or @t is untimed.
 */
static inline double mm_slack(const struct mm_task *t)
{
	return t->tm.w && !t->k->untimed ? t->tm.w->slack : 0;
}

/** mm_sync() - pay @t's pending cycles (a synchronisation point); nothing when untimed. */
static inline void mm_sync(struct mm_task *t)
{
	if (!t->k->untimed)
		tm_sync(&t->tm);
}

/**
 * mm_copy_user() - the cycles of copy_to_user (@to_user) or copy_from_user of @n
 * bytes between frame @pfn at offset @off and @t's user buffer: the kernel's copy
 * model when there is one and @pfn is a frame, else @n x copy_cycles_per_byte.
 * Nothing is charged here.
 * Returns: CPU cycles.
 */
double mm_copy_user(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, uint32_t off, uint32_t n,
		    bool to_user);

/**
 * mm_bus_transfer() - @t has just spent @cpu_cycles (already charged) moving
 * @bytes bytes, @factor bus bytes each (machine.bus copy_bytes or clear_bytes),
 * over the front-side bus of its CPU: book them on that bus in time order and
 * charge the stall when the bus could not serve them within @cpu_cycles
 * (membus_serve() of models/hw/membus.c).  Nothing without machine.bus.bandwidth or when untimed.
 * Returns: the stall charged, seconds.
 */
double mm_bus_transfer(struct mm_kernel *k, struct mm_task *t, uint64_t bytes, double factor,
		       double cpu_cycles);

/** mm_observe() - an observation point of @t (tm_observe); nothing when untimed. */
static inline void mm_observe(struct mm_task *t)
{
	if (!t->k->untimed)
		tm_observe(&t->tm);
}

/** mm_sleep() - pay pending cycles, then sleep @sec simulated seconds; adds to *@acct. */
void mm_sleep(struct mm_task *t, double sec, double *acct);

/* ---- page-table helpers for proc.c and fmap.c ---- */

/* Does @p count in k->nr_anon: anonymous, and mapped or in the swap cache? */
static inline bool mm_page_anon_counted(const struct page *p)
{
	return page_test(p, PG_anon) && (p->mapcount > 0 || page_test(p, PG_swapcache));
}

/* A page-table entry now maps / no longer maps @p: mapcount, nr_mapped and (the
 * first or last mapping of an anonymous page outside the swap cache) nr_anon, as
 * page_add_anon_rmap() / page_remove_rmap() keep NR_ANON_PAGES in later kernels. */
static inline void mm_page_map(struct mm_kernel *k, struct page *p)
{
	if (p->mapcount++ == 0) {
		k->nr_mapped++;
		if (page_test(p, PG_anon) && !page_test(p, PG_swapcache))
			k->nr_anon++;
	}
}
static inline void mm_page_unmap(struct mm_kernel *k, struct page *p)
{
	if (--p->mapcount == 0) {
		k->nr_mapped--;
		if (page_test(p, PG_anon) && !page_test(p, PG_swapcache))
			k->nr_anon--;
	}
}

/* What an access to a shared line costs @t: the seconds as cycles; when the line
 * itself moved (a transfer or a fill: @moved), its bytes go onto the bus with
 * @t's next copy.  An upgrade's invalidation is an address-only transaction: time,
 * no data bytes. */
static inline double mm_line_cost(struct mm_task *t, double x, bool moved)
{
	if (t->k->untimed)
		return 0;
	if (x > 0)
		tm_charge(&t->tm, x * t->k->clock);
	if (moved)
		t->line_bytes += COH_LINE_BYTES;
	return x;
}

/**
 * mm_lru_site_set() - book @t's next lru_lock acquisitions to caller @site
 * (the per-caller counts).  Returns: the site it replaces, for the caller to
 * put back when its holds are done.
 */
static inline uint8_t mm_lru_site_set(struct mm_task *t, enum mm_lru_site site)
{
	uint8_t old = t->lru_site;
	t->lru_site = (uint8_t)site;
	return old;
}

/* The moves of @st that carried a line over the bus (a cold_free fill is in the
 * path's flat cost, its bytes too). */
static inline uint64_t coh_moves(const struct coh_stats *st)
{
	return st->transfers + (st->cold_free ? 0 : st->fills);
}

/**
 * mm_line_read() - @t's CPU reads shared line @l (models/hw/coherence.h): a
 * transfer when another CPU wrote it since @t's CPU last had it, charged to @t,
 * counted in @st (a structure's own counts, or the kernel's, k->coh).
 * Returns: the seconds charged (0 when untimed).
 */
static inline double mm_line_read(struct mm_task *t, struct coh_line *l, struct coh_stats *st)
{
	uint64_t n = coh_moves(st);
	double x = coh_read(l, t->cpu < 0 ? 0 : t->cpu, t->k->costs, st);
	return mm_line_cost(t, x, coh_moves(st) != n);
}

/** mm_line_write() - @t's CPU writes shared line @l, invalidating the other copies
 * (as mm_line_read()).  Returns: the seconds charged (0 when untimed). */
static inline double mm_line_write(struct mm_task *t, struct coh_line *l, struct coh_stats *st)
{
	uint64_t n = coh_moves(st);
	double x = coh_write(l, t->cpu < 0 ? 0 : t->cpu, t->k->costs, st);
	return mm_line_cost(t, x, coh_moves(st) != n);
}

/**
 * mm_page_line_write() - @t's CPU writes the struct page line of @pfn (flags,
 * _count or the lru links): a move between caches when another CPU wrote it
 * since; the first touch from memory is in the caller's flat cost.  Nothing when
 * the kernel does not model data lines (k->page_line NULL).
 * Returns: the seconds charged.
 */
static inline double mm_page_line_write(struct mm_task *t, uint32_t pfn)
{
	struct mm_kernel *k = t->k;
	if (!k->page_line || pfn >= k->phys.nr_pages)
		return 0;
	return mm_line_write(t, &k->page_line[pfn], &k->coh);
}

/* The trap and page-table walk of a page fault: entry (costs.syscall), two
 * page-table lines, page_table_lock. */
static inline void mm_charge_fault(struct mm_task *t)
{
	const struct machine_costs *c = t->k->costs;
	mm_charge(t, c->syscall + 2 * c->page_op + c->atomic);
}

/* ---- page allocator (page_alloc.c) ---- */

/**
 * mm_page_alloc() - __alloc_pages() of one page for zone class @cls with reclaim:
 * wakes kswapd, enters direct reclaim, naps and retries as 2.6.15 does.
 * Without progress in reclaim it starts over until 2.6.10's out_of_memory() rate
 * limit would kill a task (failures for >= 1 s, >= 10 of them, no kill in the last
 * 5 s); the kill is modelled as this allocation failing.
 * Returns: the pfn, or PFN_NONE if the allocation failed (OOM).
 */
uint32_t mm_page_alloc(struct mm_kernel *k, struct mm_task *t, int cls, unsigned gfp);

/** mm_page_free() - free one page (hot per-CPU list). */
void mm_page_free(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_pages_alloc() - mm_page_alloc() of a 2^@order block.  The allocation type is
 * derived from @gfp (mm_gfp_type: MM_GFP_EASYRCLM / MM_GFP_KERNRCLM / neither);
 * both flags refuse the request.  Above order 0 the request gives up after one
 * direct-reclaim round unless the kernel would retry (order <= 3 or
 * MM_GFP_REPEAT), and never waits for the OOM killer.
 * @zone_out: if not NULL, receives the zone index the block came from.
 * Returns: the first pfn, or PFN_NONE.
 */
uint32_t mm_pages_alloc(struct mm_kernel *k, struct mm_task *t, int cls, unsigned order,
			unsigned gfp, int *zone_out);

/** mm_pages_free() - free a 2^@order block from mm_pages_alloc(). */
void mm_pages_free(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, unsigned order);

/* ---- page cache (filemap.c) ---- */

/**
 * mm_file_create() - a file of @size bytes on disk @disk at byte offset @off.
 * Returns: the file, or NULL if MM_MAX_FILES are open or memory ran out.
 */
struct mm_file *mm_file_create(struct mm_kernel *k, const char *name, uint64_t size, int disk,
			       uint64_t off);

/**
 * mm_file_open() - open file @name: the file of that name this kernel already has
 * (an earlier step of a chained run created it; its page cache is kept and its
 * readahead state starts afresh, as a new open() does), else a new one as
 * mm_file_create().
 * Returns: the file, or NULL when a file of that name differs in size, disk or
 * offset, MM_MAX_FILES are open or memory ran out.
 */
struct mm_file *mm_file_open(struct mm_kernel *k, const char *name, uint64_t size, int disk,
			     uint64_t off);

struct mm_read_stats {
	uint64_t pages, hits, misses;
	uint64_t refetched;   /* pages reclaimed between their read and their use, read again */
	/* readahead (page_cache_readahead): windows submitted while the reader is in
	 * them or behind them ("sync": the reader waits for their first page at once)
	 * and ahead windows submitted before the reader gets there ("async"), with
	 * the pages each brought in; lock_page waits for pages still being read */
	uint64_t ra_sync, ra_sync_pages, ra_async, ra_async_pages;
	uint64_t page_waits;
};

/**
 * mm_file_read() - do_generic_mapping_read() of [@pos, @pos+@len) by task @t:
 * page-cache lookups, readahead and synchronous reads of missing pages, copy to
 * user, mark_page_accessed once per page.  @st accumulates page counts.
 * Returns: bytes read.
 */
uint64_t mm_file_read(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
		      uint64_t len, struct mm_read_stats *st);

/**
 * mm_file_write() - generic_file_write() of [@pos, @pos+@len) within the file's
 * size: each page is found or created (a partly written page that is not cached is
 * read first), copied into from user space and marked dirty.  Dirty pages are
 * written back by reclaim (pageout); pdflush and balance_dirty_pages() are not
 * modelled.
 * Returns: bytes written.
 */
uint64_t mm_file_write(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
		       uint64_t len, struct mm_read_stats *st);

/**
 * mm_file_extend() - mm_file_write() of data appended to a file that ends at @pos
 * (a new file being written): a missing page lies beyond end of file and is
 * zero-filled, never read first.
 * Returns: bytes written.
 */
uint64_t mm_file_extend(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint64_t pos,
			uint64_t len, struct mm_read_stats *st);

/**
 * mm_writepage() - pageout(): start an asynchronous write of dirty page @pfn
 * (PG_dirty -> PG_writeback, PG_reclaim set).  At completion PG_writeback is
 * cleared, the reclaim module may rotate the page (kops->rotate) and
 * blk_congestion_wait() sleepers are woken.
 * Returns: 0, or -1 if the page has no file or memory ran out.
 */
int mm_writepage(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_file_sync() - write the dirty pages of [@first, @first+@n) of @f and wait for
 * them (fsync / O_SYNC of a range): one disk request per run of adjacent dirty
 * pages, the writer blocked meanwhile.
 */
void mm_file_sync(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		  uint32_t n);

/**
 * mm_file_invalidate() - invalidate_mapping_pages() of [@first, @first+@n) of
 * @f (prune_icache's invalidate_inode_pages of an unused inode): every cached
 * page that is clean, not under writeback or read, not mapped and held by
 * nobody but the page cache leaves the cache and is released; the others stay.
 * Returns: the pages of the range still cached afterwards.
 */
uint32_t mm_file_invalidate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
			    uint32_t n);

/**
 * mm_file_truncate() - truncate_inode_pages() of [@first, @first+@n) of @f (unlink
 * of a file living there): each cached page waits for its writeback, loses its
 * dirty bit, leaves the page cache and is released (release_pages: lru_lock,
 * free).
 */
void mm_file_truncate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      uint32_t n);

/**
 * mm_file_read_pages() - allocate, insert into the page cache and read from disk
 * the missing pages of [@idx, @idx+@n) of @f (clipped to the file), one disk
 * request per contiguous run, the reader waiting (used by fmap.c's faults).
 * Returns: pages read, or -1 if an allocation failed (OOM).
 */
int mm_file_read_pages(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		       uint32_t n);

/**
 * mm_wait_on_page_locked() - wait_on_page_locked() / lock_page() of page @pfn
 * while another task reads it: @t sleeps (a voluntary switch) until that read's
 * completion wakes it, once per read, no polling; nothing if the page is not
 * locked, the kernel is untimed, or no read is in flight (a page left locked by
 * a failed read).  Returns: nothing.
 */
void mm_wait_on_page_locked(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

/**
 * mm_file_getblk() - __getblk (@read false: a block about to be overwritten) or
 * __bread (@read true: read from disk if not cached, the caller waiting) of page
 * @idx of @f, then touch_buffer(): mark_page_accessed on the page.
 * Returns: the page's pfn, or PFN_NONE if it could not be allocated (OOM).
 */
uint32_t mm_file_getblk(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
			bool read);

/** mm_file_resident() - Returns: pages of [@first, @first+@n) of @f in the page cache. */
uint32_t mm_file_resident(const struct mm_file *f, uint32_t first, uint32_t n);

/** mm_pagecache_remove() - drop page @pfn from its file (reclaim). */
void mm_pagecache_remove(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);

#endif
