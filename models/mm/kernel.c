/*
 * kernel.c - the memory-management core: set-up, locks, pagevecs, page allocation
 * with reclaim (see kernel.h).
 *
 * Allocation follows 2.6.15's __alloc_pages() around mm_alloc_pages() (which does
 * the watermark walks): on failure wake kswapd, then direct reclaim in the
 * allocating task (PF_MEMALLOC while it runs), then retry at pages_min; when
 * direct reclaim made no progress, one last try at pages_high; when the kernel
 * would loop (order <= 3), blk_congestion_wait(WRITE, HZ/50) and start over.
 */
#include "models/mm/kernel.h"
#include "models/disk.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>

#include "emu/core/sim.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/mm/mm_check.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/sched.h"

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
	MM_PARAM_END
};

struct mm_task *mm_current(void)
{
	return sg_actor_self_get_data();
}

void mm_task_init(struct mm_task *t, struct mm_kernel *k, int cpu, const char *name)
{
	memset(t, 0, sizeof *t);
	t->k = k;
	t->cpu = cpu;
	t->name = name;
	tm_init(&t->tm, k->s->engine.quantum, k->clock);
	if (cpu >= 0 && cpu < MACHINE_MAX_CPUS) {
		k->s->cpu_actors[cpu]++;
		tm_bind(&t->tm, &k->s->cpu_actors[cpu]);
	}
	tm_join(&t->tm, &k->s->world);
}

/* tm pay hook of a scheduled task: system cycles on the CPU it owns, without
 * preemption (the slice is used up; sched_run acts on expiry at user level). */
static void sched_pay_system(struct tm *tm, double cycles)
{
	struct mm_task *t = (struct mm_task *)((char *)tm - offsetof(struct mm_task, tm));
	sched_run_kernel(t->k->sched, t->st, cycles);
}

void mm_task_init_sched(struct mm_task *t, struct mm_kernel *k, struct sched_task *st,
			const char *name)
{
	memset(t, 0, sizeof *t);
	t->k = k;
	t->cpu = st->cpu;
	t->name = name;
	t->st = st;
	tm_init(&t->tm, k->s->engine.quantum, k->clock);
	if (k->sched)
		t->tm.pay = sched_pay_system;
}

void mm_user(struct mm_task *t, double cycles)
{
	struct mm_kernel *k = t->k;
	if (k->untimed)
		return;
	tm_sync(&t->tm);
	t->user_cycles += cycles;
	if (k->sched && t->st) {
		sched_run(k->sched, t->st, cycles);
		t->cpu = t->st->cpu;
	} else {
		tm_pay(&t->tm, cycles);
	}
}

void mm_block(struct mm_task *t)
{
	tm_sync(&t->tm);
	if (t->k->sched && t->st)
		sched_block(t->k->sched, t->st);
}

void mm_unblock(struct mm_task *t)
{
	if (t->k->sched && t->st)
		t->cpu = sched_wake(t->k->sched, t->st);
}

void mm_disk_wait(struct mm_kernel *k, struct mm_task *t, struct disk *dk, int write,
		  uint64_t pos, uint64_t bytes)
{
	if (k->untimed)
		return;
	if (k->sched && t->st)
		mm_block(t);   /* the CPU goes to another task (an unscheduled task keeps its
				* cycles for disk_io, which may join them with the wait) */
	t->io_wait_s += disk_io(dk, &t->tm, write, pos, bytes);   /* pays t's cycles first */
	mm_unblock(t);
}

void mm_sleep(struct mm_task *t, double sec, double *acct)
{
	if (t->k->untimed)
		return;
	mm_block(t);
	if (sec > 0) {
		t->tm.wake = simgrid_get_clock() + sec;
		sg_actor_sleep_for(sec);
	}
	mm_unblock(t);
	if (acct)
		*acct += sec;
}

void mm_spin_init(struct mm_spinlock *l)
{
	memset(l, 0, sizeof *l);
	l->last_cpu = -1;
	l->mx = sg_mutex_init();
	l->cv = sg_cond_init();
}

void mm_spin_lock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	bool waited = false;
	if (l->held)
		mm_sync(t);      /* the holder is another actor, blocked: wait in time */
	else
		mm_observe(t);   /* free: pay only if somebody could come meanwhile */
	if (l->held && !k->untimed) {
		/* SimGrid actors run one at a time: the flag needs no lock of its own.
		 * A waiter spins on the lock's cache line: it sees a release only after
		 * the line has come over from the releasing CPU, so a releaser that asks
		 * again at once wins (test-and-set: no fairness). */
		double t0 = simgrid_get_clock();
		double transfer = k->costs->mem_latency;
		l->contended++;
		sg_mutex_lock(l->mx);
		for (;;) {
			while (l->held) {
				l->waiters++;
				sg_cond_wait(l->cv, l->mx);
				l->waiters--;
			}
			sg_mutex_unlock(l->mx);
			if (transfer > 0)
				sg_actor_sleep_for(transfer);
			sg_mutex_lock(l->mx);
			if (!l->held)
				break;
		}
		l->held = true;   /* claimed before the next simcall lets anyone else run */
		sg_mutex_unlock(l->mx);
		l->wait_s += simgrid_get_clock() - t0;
		t->spin_s += simgrid_get_clock() - t0;   /* spinning: the CPU is kept */
		l->bounces++;     /* the line came over during the wait */
		waited = true;
	}
	l->held = true;
	l->t_acq = k->untimed ? 0 : tm_now(&t->tm);   /* the hold includes the RMW below */
	l->acquisitions++;
	/* spin_lock_irq: one locked RMW on the lock word; the line moves if another
	 * CPU held the lock last */
	mm_charge(t, k->costs->atomic);
	if (!waited && l->last_cpu >= 0 && l->last_cpu != t->cpu) {
		l->bounces++;
		mm_charge(t, k->costs->mem_latency * k->clock);
	}
	l->last_cpu = t->cpu;
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES)
		t->lru_acq++;
}

void mm_spin_unlock(struct mm_kernel *k, struct mm_task *t, struct mm_spinlock *l)
{
	if (l->waiters)
		mm_sync(t);      /* a waiter is woken at the release: its time must be ours */
	else
		mm_observe(t);
	double held = k->untimed ? 0 : tm_now(&t->tm) - l->t_acq;
	l->hold_s += held;
	if (l >= k->lru_lock && l < k->lru_lock + MM_NR_ZONES)
		t->lru_hold_s += held;
	l->held = false;
	if (l->waiters) {
		sg_mutex_lock(l->mx);
		sg_cond_notify_one(l->cv);
		sg_mutex_unlock(l->mx);
	}
}

void mm_lru_lock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_lock(k, t, &k->lru_lock[z->idx]);
}

void mm_lru_unlock(struct mm_kernel *k, struct mm_task *t, struct zone *z)
{
	mm_spin_unlock(k, t, &k->lru_lock[z->idx]);
}

void mm_set_untimed(struct mm_kernel *k, bool on)
{
	k->untimed = on;
}

/* Hold @z's lru_lock, dropping *@locked's first when it is another zone's (the
 * batched walks of release_pages() and the pagevec drains). */
static void lru_relock(struct mm_kernel *k, struct mm_task *t, struct zone **locked, struct zone *z)
{
	if (*locked == z)
		return;
	if (*locked)
		mm_lru_unlock(k, t, *locked);
	mm_lru_lock(k, t, z);
	*locked = z;
}

/* Drain @pv into the module's lists, re-taking lru_lock whenever the zone changes,
 * then drop the pagevec's references (release_pages). */
static void pagevec_drain(struct mm_kernel *k, struct mm_task *t, struct pagevec *pv)
{
	struct zone *locked = NULL;
	for (unsigned i = 0; i < pv->nr; i++) {
		struct zone *z = mm_zone_of(&k->phys, pv->pfn[i]);
		lru_relock(k, t, &locked, z);
		/* TestSetPageLRU (+ PG_active) and the list link: page + neighbour lines */
		mm_charge(t, k->costs->atomic + 2 * k->costs->page_op);
		mm_count(k->s->vs, MM_POLICY_ADD, 1);
		k->kops->lru_add(k->rc, k, z, pv->pfn[i], pv->hint[i]);
	}
	if (locked)
		mm_lru_unlock(k, t, locked);
	mm_release_pages(k, t, pv->pfn, pv->nr);
	pv->nr = 0;
}

void mm_release_pages(struct mm_kernel *k, struct mm_task *t, const uint32_t *pfns, unsigned n)
{
	struct zone *locked = NULL;
	uint32_t dead[PAGEVEC_SIZE];
	unsigned ndead = 0;
	for (unsigned i = 0; i < n; i++) {
		struct page *p = &k->phys.pages[pfns[i]];
		mm_charge(t, k->costs->atomic);   /* put_page_testzero */
		if (--p->count > 0)
			continue;
		/* a page off the lists is isolated by reclaim, which frees it when
		 * it puts the batch back (mm_lru_orphan) */
		if (!page_test(p, PG_lru))
			continue;
		struct zone *z = mm_zone_of(&k->phys, pfns[i]);
		lru_relock(k, t, &locked, z);
		/* lru_lock may have been waited for: re-check (TestClearPageLRU) */
		if (!page_test(p, PG_lru))
			continue;
		mm_count(k->s->vs, MM_POLICY_REMOVE, 1);
		k->kops->lru_del(k->rc, k, z, pfns[i]);
		mm_charge(t, 2 * k->costs->page_op);
		dead[ndead++] = pfns[i];
		if (ndead == PAGEVEC_SIZE) {
			/* the free pagevec is full: free it outside the lock */
			if (locked)
				mm_lru_unlock(k, t, locked);
			locked = NULL;
			for (unsigned j = 0; j < ndead; j++)
				mm_page_free(k, t, dead[j]);
			ndead = 0;
		}
	}
	if (locked)
		mm_lru_unlock(k, t, locked);
	for (unsigned j = 0; j < ndead; j++)
		mm_page_free(k, t, dead[j]);
}

void mm_lru_cache_add(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, int hint)
{
	struct pagevec *pv = &k->lru_add_pvec[t->cpu];
	k->phys.pages[pfn].count++;      /* page_cache_get */
	mm_charge(t, k->costs->atomic);
	pv->pfn[pv->nr] = pfn;
	pv->hint[pv->nr] = (uint8_t)hint;
	if (++pv->nr == PAGEVEC_SIZE)
		pagevec_drain(k, t, pv);
}

void mm_lru_add_drain(struct mm_kernel *k, struct mm_task *t)
{
	struct pagevec *pv = &k->lru_add_pvec[t->cpu];
	if (pv->nr)
		pagevec_drain(k, t, pv);
}

/* Drain this CPU's page_accessed_pvec: the state changes under lru_lock, re-taken
 * whenever the zone changes from one page to the next, then release_pages(). */
static void accessed_drain(struct mm_kernel *k, struct mm_task *t, struct pagevec *pv)
{
	struct zone *locked = NULL;
	for (unsigned i = 0; i < pv->nr; i++) {
		struct zone *z = mm_zone_of(&k->phys, pv->pfn[i]);
		lru_relock(k, t, &locked, z);
		mm_charge(t, k->costs->page_op);
		k->kops->mark_accessed_locked(k->rc, k, t, z, pv->pfn[i]);
	}
	if (locked)
		mm_lru_unlock(k, t, locked);
	mm_release_pages(k, t, pv->pfn, pv->nr);
	pv->nr = 0;
}

void mm_mark_page_accessed(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	mm_count(k->s->vs, MM_POLICY_ACCESS, 1);
	if (!k->cfg.batch_mark_accessed) {
		k->kops->mark_accessed(k->rc, k, t, pfn);
		return;
	}
	/* the patch: page_cache_get (atomic), append to this CPU's pagevec, drain when full */
	struct pagevec *pv = &k->accessed_pvec[t->cpu];
	k->phys.pages[pfn].count++;
	mm_charge(t, k->costs->atomic);
	pv->pfn[pv->nr] = pfn;
	if (++pv->nr == PAGEVEC_SIZE)
		accessed_drain(k, t, pv);
}

void mm_wakeup_kswapd(struct mm_kernel *k, struct mm_task *t, unsigned order)
{
	if (k->untimed) {
		mm_count(k->s->vs, MM_KSWAPD_WAKEUP, 1);
		mm_kswapd_balance(k, order);
		return;
	}
	if (order > k->kswapd_order)
		k->kswapd_order = order;
	if (!k->kswapd_sleeping)
		return;
	mm_sync(t);
	sg_mutex_lock(k->kswapd_mx);
	if (k->kswapd_sleeping) {
		k->kswapd_sleeping = false;
		tm_woken(&k->kswapd.tm.wake);
		mm_count(k->s->vs, MM_KSWAPD_WAKEUP, 1);
		sg_cond_notify_one(k->kswapd_wait);
	}
	sg_mutex_unlock(k->kswapd_mx);
}

/* The allocator module works on its lists without a task; what it did under
 * zone->lock (pcp refills and drains, buddy operations) shows in its per-zone lock
 * counts.  Replay each new acquisition on the zone's spinlock with the pages it
 * moved as hold time, so zone->lock contends like lru_lock does. */
static void zone_lock_replay(struct mm_kernel *k, struct mm_task *t, const uint64_t *before,
			     uint64_t pages_before)
{
	const struct alloc_stats *st = &k->alloc->st;
	if (memcmp(before, st->zone_lock, sizeof st->zone_lock) == 0)
		return;   /* the common case: a per-CPU list served it, no zone->lock */
	uint64_t moved = st->locked_pages - pages_before;
	for (int z = 0; z < MM_NR_ZONES; z++) {
		uint64_t n = st->zone_lock[z] - before[z];
		for (uint64_t i = 0; i < n; i++) {
			mm_spin_lock(k, t, &k->zone_lock[z]);
			/* each page moved touches its struct page and a list neighbour */
			mm_charge(t, (double)(moved / (n ? n : 1)) * 2 * k->costs->page_op);
			mm_spin_unlock(k, t, &k->zone_lock[z]);
		}
	}
}

/* mm_alloc_pages() with zone->lock replayed on the spinlock model. */
static void alloc_locked(struct mm_kernel *k, struct mm_task *t, int cls, unsigned flags,
			 struct mm_alloc_result *res)
{
	uint64_t before[MM_NR_ZONES];
	memcpy(before, k->alloc->st.zone_lock, sizeof before);
	uint64_t pages = k->alloc->st.locked_pages;
	mm_alloc_pages(&k->phys, cls, 0, MM_RCLM_EASY, t->cpu, flags, res);
	zone_lock_replay(k, t, before, pages);
}

/* The rate limit of 2.6.10's out_of_memory() (mm/oom_kill.c): not OOM if the last
 * failure was more than 5 s ago, if failures started less than 1 s ago, if there
 * were fewer than 10 of them, or if the last kill was less than 5 s ago.
 * Returns: true when the kernel would kill a task (here: the allocation fails). */
static bool oom_ready(struct mm_kernel *k, struct mm_task *t)
{
	double now = tm_now(&t->tm);
	double since = now - k->oom_last;
	k->oom_last = now;
	if (since > 5.0)
		goto reset;
	if (now - k->oom_first < 1.0)
		return false;
	if (++k->oom_count < 10)
		return false;
	if (k->oom_kills && now - k->oom_lastkill < 5.0)
		return false;
	k->oom_lastkill = now;
	k->oom_kills++;
	k->oom_first = now;
	k->oom_count = 0;
	return true;
reset:
	k->oom_first = now;
	k->oom_count = 0;
	return false;
}

uint32_t mm_page_alloc(struct mm_kernel *k, struct mm_task *t, int cls, unsigned gfp)
{
	struct mm_alloc_result res;
	unsigned flags = gfp | (t->memalloc ? MM_ALLOC_MEMALLOC : 0);

	/* the colouring policy's preference (the buddy allocator's LIFO order meets
	 * only "any page", -1; colour-aware allocation comes with seed 004) */
	int color = coloring_pick(k->coloring, t);
	for (;;) {
		alloc_locked(k, t, cls, flags, &res);
		mm_charge(t, 100 + 20.0 * res.wmark_checks);
		if (res.wake_kswapd)
			mm_wakeup_kswapd(k, t, res.kswapd_order);
		if (res.status == MM_ALLOC_OK)
			break;
		if (res.status != MM_ALLOC_NEED_RECLAIM)
			return PFN_NONE;
		/* direct reclaim, as the allocating task */
		mm_count(k->s->vs, MM_ALLOCSTALL, 1);
		t->direct_reclaims++;
		t->memalloc = true;
		bool progress = mm_try_to_free_pages(k, t, cls, gfp);
		t->memalloc = false;
		alloc_locked(k, t, cls, flags | (progress ? MM_ALLOC_AFTER_RECLAIM : MM_ALLOC_LAST_TRY),
			     &res);
		if (res.status == MM_ALLOC_OK)
			break;
		if (!progress && res.status == MM_ALLOC_NEED_OOM) {
			/* out_of_memory(): 2.6.10 kills only after failures for a while;
			 * until then __alloc_pages starts over */
			if (k->untimed || oom_ready(k, t))
				return PFN_NONE;
			mm_count(k->s->vs, MM_OOM_RETRY, 1);
			continue;
		}
		/* do_retry: blk_congestion_wait(WRITE, HZ/50) then rebalance */
		mm_sleep(t, MM_HZ_S(20), &t->retry_nap_s);
	}
	struct page *p = &k->phys.pages[res.pfn];
	if (color >= 0 && k->coloring->ncolors && res.pfn % k->coloring->ncolors == (uint32_t)color)
		k->coloring->honoured++;
	p->count = 1;   /* PGALLOC is counted by the allocator */
	return res.pfn;
}

void mm_page_free(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	p->count = 0;
	p->mapping = 0;
	p->flags &= (1u << PG_reserved) | (1u << PG_highmem);
	mm_charge(t, 100);
	/* the allocator's free_pages_bulk() clears the zone's scan state when pages
	 * reach the buddy lists (not while they sit on a per-CPU list) */
	uint64_t before[MM_NR_ZONES];
	memcpy(before, k->alloc->st.zone_lock, sizeof before);
	uint64_t pages = k->alloc->st.locked_pages;
	mm_free_pages(&k->phys, pfn, 0, t->cpu, false);   /* counts PGFREE */
	zone_lock_replay(k, t, before, pages);
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

int mm_kernel_init(struct mm_kernel *k, struct sim *s, struct mm_err *e)
{
	char path[200];
	memset(k, 0, sizeof *k);
	k->s = s;
	k->costs = &s->machine->costs;
	k->clock = s->machine->clock;
	k->copy_cycles_per_byte = s->machine->clock / s->machine->copy_bw;
	snprintf(path, sizeof path, "kernels.%s", s->kernel_name ? s->kernel_name : "?");

	if (mm_kernel_load_cfg(&k->cfg, s->kernel, s->file, path, e))
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
	k->coloring = s->make->coloring(s, 1, e);
	if (!k->coloring)
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
	if (swc.size) {
		const struct disk_cfg *d = s->machine->ndisks ? &s->machine->disks[s->machine->ndisks - 1] : NULL;
		if (!d || swc.size > d->size / 2) {
			char sub[256];
			snprintf(sub, sizeof sub, "%s.vm.swap", path);
			return mm_errf(e, s->file, sub,
				       "expected at most half of the machine's last disk (the swap area lives at its end)");
		}
		swc.disk = s->machine->ndisks - 1;
		swc.off = (d->size - swc.size) & ~(k->phys.page_size - 1);
	}
	if (mm_proc_init(k, &swc, e))
		return -1;
	k->kswapd_mx = sg_mutex_init();
	k->kswapd_wait = sg_cond_init();
	mm_kswapd_start(k, (int)s->machine->cpus - 1);
	return 0;
}

void mm_kernel_fini(struct mm_kernel *k)
{
	if (k->kops && k->kops->kfini)
		k->kops->kfini(k->rc, k);
	for (int i = 0; i < k->nfiles; i++) {
		free(k->files[i]->pfn);
		free(k->files[i]);
	}
	mm_proc_fini(k);
	reclaim_destroy(k->rc);
	kmap_destroy(k->kmap);
	coloring_destroy(k->coloring);
	alloc_destroy(k->alloc);
	mm_phys_fini(&k->phys);
	free(k->lru_add_pvec);
	free(k->accessed_pvec);
	memset(k, 0, sizeof *k);
}

void mm_kernel_lock_metrics(struct mm_kernel *k, struct sim *s)
{
	static const char *const names[2] = { "lru_lock", "zone_lock" };
	for (int l = 0; l < 2; l++) {
		const struct mm_spinlock *locks = l ? k->zone_lock : k->lru_lock;
		uint64_t acq = 0, cont = 0, bounces = 0;
		double wait = 0, hold = 0;
		for (int i = 0; i < MM_NR_ZONES; i++) {
			acq += locks[i].acquisitions;
			cont += locks[i].contended;
			bounces += locks[i].bounces;
			wait += locks[i].wait_s;
			hold += locks[i].hold_s;
		}
		char key[64];
		snprintf(key, sizeof key, "%s_acquisitions", names[l]);
		sim_metric(s, key, (double)acq);
		snprintf(key, sizeof key, "%s_contended", names[l]);
		sim_metric(s, key, (double)cont);
		snprintf(key, sizeof key, "%s_wait_s", names[l]);
		sim_metric(s, key, wait);
		snprintf(key, sizeof key, "%s_hold_s", names[l]);
		sim_metric(s, key, hold);
		snprintf(key, sizeof key, "%s_bounces", names[l]);
		sim_metric(s, key, (double)bounces);
	}
}

int mm_kernel_check(struct mm_kernel *k, struct mm_err *e)
{
	return mm_check(&k->phys, e);
}
