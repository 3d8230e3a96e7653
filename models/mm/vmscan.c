/*
 * vmscan.c - the reclaim core: shrink_list, direct reclaim, kswapd and its wake-up
 * (2.6.15 mm/vmscan.c; kernel-mechanisms.md 1.2), see vmscan.h.
 *
 * What a policy module does not decide lives here: the priority loops of
 * try_to_free_pages() and balance_pgdat(), the all_unreclaimable bookkeeping,
 * congestion naps (real sleeps: on a read-only load nothing ends them early, so
 * they last the full HZ/10), and the per-page work of shrink_list().
 */
#include "models/mm/vmscan.h"
#include "models/mm/proc.h"
#include "models/mm/fmap.h"

#include <math.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>

#include "emu/core/sim.h"

void mm_congestion_wait(struct mm_kernel *k, struct mm_task *t, double sec)
{
	if (k->untimed)
		return;
	if (!k->writeback_inflight) {
		/* nothing will complete: the nap lasts its whole time-out */
		mm_sleep(t, sec, &t->congestion_s);
		return;
	}
	/* woken by the next write completion, as a request queue leaving congestion
	 * wakes blk_congestion_wait() sleepers: the sleeper waits on its own
	 * semaphore, which a completion releases.  Registration and removal happen
	 * with no simcall in between, so a release never reaches a departed sleeper. */
	tm_sync(&t->tm);
	if (k->congestion_nwait >= MM_MAX_CPUS) {
		mm_sleep(t, sec, &t->congestion_s);
		return;
	}
	double t0 = simgrid_get_clock();
	sg_sem_t sem = sg_sem_init(0);
	k->congestion_waiter[k->congestion_nwait] = sem;
	k->congestion_wake[k->congestion_nwait++] = &t->tm.wake;
	t->tm.wake = t0 + sec;   /* the time-out, or earlier by a completion */
	sg_sem_acquire_timeout(sem, sec);
	for (unsigned i = 0; i < k->congestion_nwait; i++)
		if (k->congestion_waiter[i] == sem) {
			k->congestion_nwait--;
			k->congestion_waiter[i] = k->congestion_waiter[k->congestion_nwait];
			k->congestion_wake[i] = k->congestion_wake[k->congestion_nwait];
			break;
		}
	sg_sem_destroy(sem);
	t->congestion_s += simgrid_get_clock() - t0;
}

unsigned mm_shrink_list(struct mm_kernel *k, struct mm_task *t, struct zone *z,
			const uint32_t *pfns, unsigned n, struct scan_control *sc, uint8_t *verdict)
{
	const struct machine_costs *c = k->costs;
	unsigned freed = 0;
	for (unsigned i = 0; i < n; i++) {
		uint32_t pfn = pfns[i];
		struct page *p = &k->phys.pages[pfn];
		verdict[i] = RECLAIM_KEEP;
		if (k->kops->skip && k->kops->skip(k->rc, k, pfn))
			continue;
		/* its owner freed it while we held it isolated: the put-back frees it */
		if (p->count == 0)
			continue;
		/* TestSetPageLocked: a page under I/O is kept, not counted */
		mm_charge(t, c->atomic + c->page_op);
		if (page_test(p, PG_locked))
			continue;
		sc->nr_scanned++;
		if (page_test(p, PG_writeback))
			continue;
		/* page_referenced(): TestClearPageReferenced (+ PTE young bits of mappings) */
		mm_charge(t, c->atomic);
		if (p->mapcount > 0)   /* rmap walk: anon_vma lock, one entry per mapper */
			mm_charge(t, c->atomic + p->mapcount * (c->atomic + c->page_op));
		bool referenced = page_test_clear(p, PG_referenced);
		bool inuse = p->mapcount > 0 || page_test(p, PG_swapcache);
		enum reclaim_verdict v = k->kops->reclaimable(k->rc, k, pfn, referenced, inuse);
		if (v != RECLAIM_FREE) {
			verdict[i] = (uint8_t)v;
			continue;
		}
		/* anonymous: add_to_swap + try_to_unmap; no swap (or full): activate */
		if (page_test(p, PG_anon) && !mm_anon_reclaim(k, t, pfn)) {
			verdict[i] = RECLAIM_ACTIVATE;
			continue;
		}
		/* mapped page-cache page (file mapping, fmap.c): try_to_unmap_file over
		 * the file's i_mmap; a page that stays mapped is activated (SWAP_FAIL).
		 * Only fmap maps file pages: nothing changes for workloads without it. */
		if (!page_test(p, PG_anon) && p->mapcount > 0 && !mm_fmap_unmap_page(k, t, pfn)) {
			verdict[i] = RECLAIM_ACTIVATE;
			continue;
		}
		if (page_test(p, PG_dirty)) {
			/* 2.6.15: a referenced dirty page stays; else pageout() when the
			 * caller may write: the page is kept, under writeback */
			if (!referenced && sc->may_writepage)
				mm_writepage(k, t, pfn);
			continue;
		}
		/* truncated while somebody still held it (a reader, the batched
		 * mark_page_accessed pagevec): no mapping to remove it from; shrink_list
		 * keeps it ("if (!mapping || !remove_mapping(mapping, page)) goto
		 * keep_locked") and the holder's put frees it */
		if (!page_test(p, PG_anon) && !page_test(p, PG_swapcache) && p->mapping == 0)
			continue;
		if (p->count != 1)
			continue;   /* somebody holds it (a reader, a pagevec) */
		/* __remove_from_page_cache under mapping->tree_lock */
		mm_charge(t, 2 * c->atomic + c->pc_lookup);
		k->kops->evicted(k->rc, k, z, pfn);
		if (page_test(p, PG_swapcache)) {
			mm_swapcache_remove(k, pfn);
		} else {
			mm_pagecache_remove(k, t, pfn);
		}
		mm_page_free(k, t, pfn);
		verdict[i] = RECLAIM_FREE;
		freed++;
	}
	sc->nr_reclaimed += freed;
	mm_count(k->s->vs, MM_PGSTEAL, freed);
	return freed;
}

bool mm_lru_orphan(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	if (k->phys.pages[pfn].count > 0)
		return false;
	mm_page_free(k, t, pfn);
	return true;
}

void mm_lru_putback(struct mm_kernel *k, struct mm_task *t, struct zone *z, unsigned *n)
{
	mm_charge(t, k->costs->atomic);   /* the pagevec's put_page */
	if (++*n % PAGEVEC_SIZE == 0) {
		mm_lru_unlock(k, t, z);
		mm_lru_lock(k, t, z);
	}
}

/* Zones of class @cls (without DMA when page cache avoids it), highest first. */
static int reclaim_zones(struct mm_kernel *k, int cls, unsigned gfp, struct zone **out)
{
	struct zone *const *zl = mm_zonelist(&k->phys, cls);
	int n = 0;
	for (int i = 0; zl[i]; i++)
		if (!((gfp & MM_GFP_NODMA) && zl[i]->idx == MM_ZONE_DMA))
			out[n++] = zl[i];
	out[n] = NULL;
	return n;
}

static void shrink_zone(struct mm_kernel *k, struct mm_task *t, struct zone *z,
			struct scan_control *sc)
{
	mm_count(k->s->vs, MM_POLICY_SHRINK, 1);
	sc->nr_to_reclaim = sc->swap_cluster_max;
	uint8_t site = mm_lru_site_set(t, MM_LRU_SITE_RECLAIM);
	k->kops->shrink_zone(k->rc, k, t, z, sc);
	t->lru_site = site;
}

unsigned mm_reclaim_zone(struct mm_kernel *k, struct mm_task *t, struct zone *z, unsigned batch)
{
	struct scan_control sc = { .may_writepage = true, .may_swap = true };
	uint64_t freed = 0;
	for (int priority = MM_DEF_PRIORITY; priority >= 0 && !freed; priority--) {
		sc.nr_reclaimed = 0;
		sc.priority = priority;
		sc.swap_cluster_max = batch;
		shrink_zone(k, t, z, &sc);
		freed += sc.nr_reclaimed;
	}
	return (unsigned)freed;
}

int mm_register_shrinker(struct mm_kernel *k, int seeks, mm_shrinker_fn fn, void *arg)
{
	if (k->nshrinkers >= MM_MAX_SHRINKERS)
		return -1;
	k->shrinkers[k->nshrinkers++] = (struct mm_shrinker){ fn, arg, seeks > 0 ? seeks : 1, 0 };
	return 0;
}

unsigned long mm_shrink_slab(struct mm_kernel *k, struct mm_task *t, uint64_t scanned,
			     uint64_t lru_pages)
{
	unsigned long ret = 0;
	if (scanned == 0)
		scanned = MM_SWAP_CLUSTER_MAX;
	for (int i = 0; i < k->nshrinkers; i++) {
		struct mm_shrinker *sh = &k->shrinkers[i];
		long max_pass = sh->shrink(k, t, sh->arg, 0);
		unsigned long long delta = (4ull * scanned) / (unsigned)sh->seeks;
		delta *= (unsigned long long)max_pass;
		delta /= lru_pages + 1;
		sh->nr += (long)delta;
		if (sh->nr < 0)
			sh->nr = max_pass;
		/* avoid risking looping forever on a shrinker that frees nothing */
		if (sh->nr > max_pass * 2)
			sh->nr = max_pass * 2;
		long total_scan = sh->nr;
		sh->nr = 0;
		while (total_scan >= MM_SHRINK_BATCH) {
			long nr_before = sh->shrink(k, t, sh->arg, 0);
			long after = sh->shrink(k, t, sh->arg, MM_SHRINK_BATCH);
			if (after < nr_before)
				ret += (unsigned long)(nr_before - after);
			k->slabs_scanned += MM_SHRINK_BATCH;
			total_scan -= MM_SHRINK_BATCH;
		}
		sh->nr += total_scan;
	}
	return ret;
}

/* lru_pages of shrink_slab: the LRU pages of @zones (up to @end, or all). */
static uint64_t lru_pages_of(struct zone *const *zones, int n)
{
	uint64_t lru = 0;
	for (int i = 0; i < n; i++)
		if (zones[i])
			lru += zones[i]->nr_active + zones[i]->nr_inactive;
	return lru;
}

/* zone->temp_priority = @priority and prev_priority lowered to it. */
static void zone_set_priority(struct zone *z, int priority)
{
	z->temp_priority = priority;
	if (z->prev_priority > priority)
		z->prev_priority = priority;
}

bool mm_try_to_free_pages(struct mm_kernel *k, struct mm_task *t, int cls, unsigned gfp)
{
	struct zone *zones[MM_NR_ZONES + 1];
	int nz = reclaim_zones(k, cls, gfp, zones);
	uint64_t total_scanned = 0, total_reclaimed = 0;
	bool ret = false;
	struct scan_control sc = { .may_writepage = true, .may_swap = true, .gfp = gfp };

	for (int i = 0; i < nz; i++)
		zones[i]->temp_priority = MM_DEF_PRIORITY;
	uint64_t lru_pages = k->nshrinkers ? lru_pages_of(zones, nz) : 0;
	t->reclaimed_slab = 0;
	for (int priority = MM_DEF_PRIORITY; priority >= 0; priority--) {
		sc.nr_scanned = 0;
		sc.nr_pgscan = 0;
		sc.nr_reclaimed = 0;
		sc.priority = priority;
		sc.swap_cluster_max = MM_SWAP_CLUSTER_MAX;
		for (int i = 0; i < nz; i++) {
			struct zone *z = zones[i];
			zone_set_priority(z, priority);
			if (z->all_unreclaimable && priority != MM_DEF_PRIORITY)
				continue;
			shrink_zone(k, t, z, &sc);
		}
		mm_count(k->s->vs, MM_PGSCAN_DIRECT, sc.nr_pgscan);
		if (k->nshrinkers) {
			mm_shrink_slab(k, t, sc.nr_scanned, lru_pages);
			sc.nr_reclaimed += t->reclaimed_slab;
			t->reclaimed_slab = 0;
		}
		total_scanned += sc.nr_scanned;
		total_reclaimed += sc.nr_reclaimed;
		if (total_reclaimed >= MM_SWAP_CLUSTER_MAX) {
			ret = true;
			break;
		}
		if (total_scanned > MM_SWAP_CLUSTER_MAX + MM_SWAP_CLUSTER_MAX / 2)
			sc.may_writepage = true;
		/* take a nap, wait for some writeback to complete */
		if (sc.nr_scanned && priority < MM_DEF_PRIORITY - 2)
			mm_congestion_wait(k, t, MM_HZ_S(100));
	}
	for (int i = 0; i < nz; i++)
		zones[i]->prev_priority = zones[i]->temp_priority;
	return ret;
}

/* Totals of one balance_pgdat() pass. */
struct kswapd_pass {
	uint64_t scanned, reclaimed;
};

/* kswapd's shrink_slab() after @sc's scanning, its reclaimed_slab added to @sc.
 * Returns: what shrink_slab returned (0 without shrinkers). */
static unsigned long kswapd_shrink_slab(struct mm_kernel *k, struct mm_task *t,
					struct scan_control *sc, uint64_t lru_pages)
{
	if (!k->nshrinkers)
		return 0;
	t->reclaimed_slab = 0;
	unsigned long nr_slab = mm_shrink_slab(k, t, sc->nr_scanned, lru_pages);
	sc->nr_reclaimed += t->reclaimed_slab;
	t->reclaimed_slab = 0;
	return nr_slab;
}

/* "If we've done a decent amount of scanning and the reclaim ratio is low, start
 * doing writepage even in laptop mode" */
static void kswapd_may_writepage(struct scan_control *sc, const struct kswapd_pass *ps)
{
	if (ps->scanned > MM_SWAP_CLUSTER_MAX * 2 && ps->scanned > ps->reclaimed + ps->reclaimed / 2)
		sc->may_writepage = true;
}

static void reset_sc(struct scan_control *sc, int priority)
{
	sc->nr_scanned = 0;
	sc->nr_pgscan = 0;
	sc->nr_reclaimed = 0;
	sc->priority = priority;
	sc->swap_cluster_max = MM_SWAP_CLUSTER_MAX;
}

/* One priority of 2.6.15's balance_pgdat(): find the highest zone below pages_high
 * (end_zone), then scan every zone from DMA up to it, each with its own
 * scan_control counts and shrink_slab.  Returns: whether every zone was fine. */
static bool balance_prio_2615(struct mm_kernel *k, struct mm_task *t, unsigned order,
			      int priority, struct scan_control *sc, struct kswapd_pass *ps)
{
	struct mm_phys *ph = &k->phys;
	int end_zone = -1;
	for (int i = MM_NR_ZONES - 1; i >= 0; i--) {
		struct zone *z = &ph->zones[i];
		if (mm_zone_empty(z) || (z->all_unreclaimable && priority != MM_DEF_PRIORITY))
			continue;
		if (!zone_watermark_ok(z, order, z->pages_high, 0, false, false)) {
			end_zone = i;
			break;
		}
	}
	if (end_zone < 0)
		return true;   /* every zone is fine */
	bool all_zones_ok = true;
	uint64_t lru_pages = 0;
	if (k->nshrinkers) {
		struct zone *zs[MM_NR_ZONES];
		for (int i = 0; i <= end_zone; i++)
			zs[i] = &ph->zones[i];
		lru_pages = lru_pages_of(zs, end_zone + 1);
	}
	for (int i = 0; i <= end_zone; i++) {
		struct zone *z = &ph->zones[i];
		if (mm_zone_empty(z) || (z->all_unreclaimable && priority != MM_DEF_PRIORITY))
			continue;
		if (!zone_watermark_ok(z, order, z->pages_high, end_zone, false, false))
			all_zones_ok = false;
		zone_set_priority(z, priority);
		reset_sc(sc, priority);
		shrink_zone(k, t, z, sc);
		mm_count(k->s->vs, MM_PGSCAN_KSWAPD, sc->nr_pgscan);
		unsigned long nr_slab = kswapd_shrink_slab(k, t, sc, lru_pages);
		ps->reclaimed += sc->nr_reclaimed;
		ps->scanned += sc->nr_scanned;
		if (z->all_unreclaimable)
			continue;
		if (nr_slab == 0 && z->pages_scanned >= 4ull * (z->nr_active + z->nr_inactive))
			z->all_unreclaimable = 1;
		kswapd_may_writepage(sc, ps);
	}
	return all_zones_ok;
}

/* One priority of the series' "incmin" balance_pgdat() (page-replace-kswapd-incmin
 * 14/14, 2005-12-30, Nick Piggin's vm-kswapd-incmin; kernel-mechanisms.md 1.5a):
 * zones from DMA up, each scanned only while it is below its own pages_high
 * (classzone 0: no lowmem_reserve), so a zone that is fine is never scanned for
 * the sake of a higher one ("Without this patch reclaim is limited to ZONE_DMA").
 * One scan_control for the whole priority, one shrink_slab after the zones (with
 * scanned == 0 when no zone was low, which shrink_slab turns into
 * SWAP_CLUSTER_MAX, as the patch does), all_unreclaimable set whatever the slab
 * freed.  Returns: whether every zone was fine. */
static bool balance_prio_incmin(struct mm_kernel *k, struct mm_task *t, unsigned order,
				int priority, struct scan_control *sc, struct kswapd_pass *ps)
{
	struct mm_phys *ph = &k->phys;
	bool all_zones_ok = true;
	uint64_t lru_pages = 0;
	reset_sc(sc, priority);
	for (int i = 0; i < MM_NR_ZONES; i++) {
		struct zone *z = &ph->zones[i];
		if (mm_zone_empty(z))
			continue;
		if (zone_watermark_ok(z, order, z->pages_high, 0, false, false))
			continue;
		all_zones_ok = false;
		if (z->all_unreclaimable && priority != MM_DEF_PRIORITY)
			continue;
		zone_set_priority(z, priority);
		lru_pages += z->nr_active + z->nr_inactive;
		shrink_zone(k, t, z, sc);
		if (z->pages_scanned >= 4ull * (z->nr_active + z->nr_inactive))
			z->all_unreclaimable = 1;
	}
	mm_count(k->s->vs, MM_PGSCAN_KSWAPD, sc->nr_pgscan);
	kswapd_shrink_slab(k, t, sc, lru_pages);
	ps->reclaimed += sc->nr_reclaimed;
	ps->scanned += sc->nr_scanned;
	kswapd_may_writepage(sc, ps);
	return all_zones_ok;
}

/* balance_pgdat(): free pages until every zone is above pages_high. */
static void balance_pgdat(struct mm_kernel *k, struct mm_task *t, unsigned order)
{
	struct mm_phys *ph = &k->phys;
	bool incmin = k->cfg.kswapd_incmin;
	bool all_zones_ok;
	do {
		struct kswapd_pass ps = { 0, 0 };
		struct scan_control sc = { .may_writepage = true, .may_swap = true, .kswapd = true,
					   .gfp = MM_GFP_KERNEL };
		mm_count(k->s->vs, MM_PAGEOUTRUN, 1);
		all_zones_ok = true;
		for (int i = 0; i < MM_NR_ZONES; i++)
			ph->zones[i].temp_priority = MM_DEF_PRIORITY;
		for (int priority = MM_DEF_PRIORITY; priority >= 0; priority--) {
			all_zones_ok = incmin ? balance_prio_incmin(k, t, order, priority, &sc, &ps)
					      : balance_prio_2615(k, t, order, priority, &sc, &ps);
			if (all_zones_ok)
				break;
			if (ps.scanned && priority < MM_DEF_PRIORITY - 2)
				mm_congestion_wait(k, t, MM_HZ_S(100));
			if (ps.reclaimed >= MM_SWAP_CLUSTER_MAX)
				break;
		}
		for (int i = 0; i < MM_NR_ZONES; i++)
			ph->zones[i].prev_priority = ph->zones[i].temp_priority;
		/* !all_zones_ok: cond_resched() and loop again.  A high-order kswapd
		 * (seed 003) can find nothing to scan and loop; its cond_resched lets
		 * the others run: modelled as a one-jiffy yield so time advances.  The
		 * incmin loop can do the same at order 0 (a low zone that is
		 * all_unreclaimable is not scanned below DEF_PRIORITY). */
		if (!all_zones_ok && (order > 0 || incmin) && ps.scanned == 0)
			mm_sleep(t, MM_HZ_S(1), &t->congestion_s);
		mm_sync(t);
	} while (!all_zones_ok);
}

void mm_kswapd_balance(struct mm_kernel *k, unsigned order)
{
	balance_pgdat(k, &k->kswapd, order);
}

static void kswapd_actor(int argc, char **argv)
{
	struct mm_task *t = sg_actor_self_get_data();
	struct mm_kernel *k = t->k;
	sg_actor_daemonize(sg_actor_self());
	t->memalloc = true;   /* PF_MEMALLOC */
	for (;;) {
		mm_sync(t);   /* it blocks: its time must be paid */
		sg_mutex_lock(k->kswapd_mx);
		k->kswapd_sleeping = true;
		t->tm.wake = INFINITY;   /* until mm_wakeup_kswapd() */
		while (k->kswapd_sleeping)
			sg_cond_wait(k->kswapd_wait, k->kswapd_mx);
		unsigned order = k->kswapd_order;
		k->kswapd_order = 0;
		sg_mutex_unlock(k->kswapd_mx);
		balance_pgdat(k, t, order);
	}
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

void mm_kswapd_start(struct mm_kernel *k, int cpu)
{
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	mm_task_init(&k->kswapd, k, cpu, "kswapd0");
	sg_actor_t a = sg_actor_init("kswapd0", sg_host_by_name(host));
	sg_actor_set_data(a, &k->kswapd);
	sg_actor_start(a, kswapd_actor, 0, NULL);
}
