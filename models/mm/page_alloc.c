/*
 * page_alloc.c - the page allocator's entry points with reclaim (see kernel.h),
 * beside zone.c, which does the boot-time half of mm/page_alloc.c.
 *
 * Models Linux 2.6.15 mm/page_alloc.c.  Allocation follows __alloc_pages() around
 * mm_alloc_pages() (which does the watermark walks): on failure wake kswapd, then
 * direct reclaim in the allocating task (PF_MEMALLOC while it runs), then retry at
 * pages_min; when direct reclaim made no progress, one last try at pages_high;
 * when the kernel would loop (order <= 3), blk_congestion_wait(WRITE, HZ/50) and
 * start over.  Without progress, the rate limit of 2.6.10's out_of_memory()
 * (mm/oom_kill.c) decides when the allocation finally fails.  Freeing is
 * free_hot_page() to the per-CPU list.  What the allocator module did under
 * zone->lock is replayed on the zone_lock spinlocks.
 */
#include "models/mm/kernel.h"

#include <string.h>

#include "emu/core/sim.h"
#include "models/coloring/coloring.h"
#include "models/mm/vmscan.h"

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

/* The anti-fragmentation bookkeeping (usemap reads and bit operations, extra
 * free-list probes) an allocator module counted since @before, charged to @t
 * (kernel-mechanisms.md 4.4: only mbuddy counts any). */
struct af_ops {
	uint64_t reads, bitops, probes;
};
static struct af_ops af_now(const struct alloc *a)
{
	return (struct af_ops){ a->st.usemap_reads, a->st.usemap_bitops, a->st.list_probes };
}
static void af_charge(struct mm_kernel *k, struct mm_task *t, struct af_ops before)
{
	struct af_ops now = af_now(k->alloc);
	uint64_t lines = (now.reads - before.reads) + (now.probes - before.probes);
	uint64_t bitops = now.bitops - before.bitops;
	if (lines || bitops)
		mm_charge(t, (double)lines * k->costs->page_op + (double)bitops * k->costs->atomic);
}

/* mm_alloc_pages() with zone->lock replayed on the spinlock model. */
static void alloc_locked(struct mm_kernel *k, struct mm_task *t, int cls, unsigned order,
			 int type, unsigned flags, struct mm_alloc_result *res)
{
	uint64_t before[MM_NR_ZONES];
	memcpy(before, k->alloc->st.zone_lock, sizeof before);
	uint64_t pages = k->alloc->st.locked_pages;
	struct af_ops af = af_now(k->alloc);
	mm_alloc_pages(&k->phys, cls, order, type, t->cpu, flags, res);
	zone_lock_replay(k, t, before, pages);
	af_charge(k, t, af);
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

/* A fruitless turn of the OOM retry loop, padded to one jiffy of busy CPU from
 * @turn, when its direct reclaim began.
 * 2.6.10 restarts __alloc_pages at once: with every zone all_unreclaimable,
 * try_to_free_pages scans only at DEF_PRIORITY and takes no congestion nap, so a
 * turn is a few microseconds and the loop spins until out_of_memory()'s
 * one-second rule lets it kill (about 10^5 turns per task and second, each
 * with a kswapd wake-up: minutes of host time per simulated second).
 * out_of_memory() reads only jiffies and a count that reaches 10 in the first 10
 * turns, so one turn per jiffy takes the same decision at the same jiffy; the
 * rest of the jiffy is charged as the spinning it stands for (system time, the
 * CPU stays busy).  What differs: a page another task frees is seen up to one
 * jiffy later, and the per-turn counters (oom_retry, allocstall, the
 * DEF_PRIORITY scans, kswapd wake-ups) count jiffies, not turns. */
static void oom_spin(struct mm_task *t, double turn)
{
	double rest = turn + MM_HZ_S(1) - tm_now(&t->tm);
	if (rest > 0)
		mm_charge(t, rest * t->tm.clock);
}

uint32_t mm_page_alloc(struct mm_kernel *k, struct mm_task *t, int cls, unsigned gfp)
{
	return mm_pages_alloc(k, t, cls, 0, gfp, NULL);
}

uint32_t mm_pages_alloc(struct mm_kernel *k, struct mm_task *t, int cls, unsigned order,
			unsigned gfp, int *zone_out)
{
	struct mm_alloc_result res;
	unsigned flags = gfp | (t->memalloc ? MM_ALLOC_MEMALLOC : 0);
	int type = mm_gfp_type(gfp);
	if (type < 0)
		return PFN_NONE;   /* __GFP_EASYRCLM | __GFP_KERNRCLM: refused [KM 4.1] */
	/* the zonelist the allocator really walks (zbuddy: EasyRclm first) is also
	 * the one direct reclaim shrinks */
	int rcls = alloc_zone_class(k->alloc, cls, type);

	/* the colouring policy's preference (-1: any page, the allocator's LIFO
	 * order); a colour is met by coloring_place() below, which swaps single
	 * pages: a higher-order block (a kernel stack, an skb's data) takes the
	 * allocator's choice (the patch's per-order colour lists are not modelled;
	 * swapping one page of a block freed it twice) */
	int color = order == 0 ? coloring_pick(k->coloring, t, &t->color) : -1;
	for (;;) {
		alloc_locked(k, t, cls, order, type, flags, &res);
		mm_charge(t, 100 + 20.0 * res.wmark_checks);
		if (res.wake_kswapd)
			mm_wakeup_kswapd(k, t, res.kswapd_order);
		if (res.status == MM_ALLOC_OK)
			break;
		if (res.status != MM_ALLOC_NEED_RECLAIM)
			return PFN_NONE;
		/* direct reclaim, as the allocating task (its start times the turn
		 * for oom_spin; the allocation fast path reads no clock) */
		double turn = tm_now(&t->tm);
		mm_count(k->s->vs, MM_ALLOCSTALL, 1);
		t->direct_reclaims++;
		t->memalloc = true;
		bool progress = mm_try_to_free_pages(k, t, rcls, gfp);
		t->memalloc = false;
		alloc_locked(k, t, cls, order, type,
			     flags | (progress ? MM_ALLOC_AFTER_RECLAIM : MM_ALLOC_LAST_TRY), &res);
		if (res.status == MM_ALLOC_OK)
			break;
		/* order > 3 without __GFP_REPEAT gives up after one reclaim round
		 * (should_retry); a high-order allocation never OOM-kills (Mel's
		 * "Prevent OOM killer firing for high-order allocations", applied to
		 * every kernel of seed 003) [KM 4.3a, 4.4] */
		if (order > 0 && (res.status == MM_ALLOC_NEED_OOM || !res.should_retry))
			return PFN_NONE;
		if (!progress && res.status == MM_ALLOC_NEED_OOM) {
			/* out_of_memory(): 2.6.10 kills only after failures for a while;
			 * until then __alloc_pages starts over */
			if (k->untimed || oom_ready(k, t))
				return PFN_NONE;
			mm_count(k->s->vs, MM_OOM_RETRY, 1);
			oom_spin(t, turn);
			continue;
		}
		/* do_retry: blk_congestion_wait(WRITE, HZ/50) then rebalance */
		mm_sleep(t, MM_HZ_S(20), &t->retry_nap_s);
	}
	if (color >= 0) {
		/* alloc_pages_by_color() of the round-robin patch, after the watermark
		 * walk chose the zone: one probe of the colour lists per colour tried,
		 * under zone->lock */
		uint64_t before[MM_NR_ZONES];
		memcpy(before, k->alloc->st.zone_lock, sizeof before);
		uint64_t pages = k->alloc->st.locked_pages;
		unsigned probes;
		res.pfn = coloring_place(k->coloring, k->alloc, &t->color, res.pfn, color, t->cpu, &probes);
		mm_charge(t, probes * k->costs->page_op);
		zone_lock_replay(k, t, before, pages);
	}
	struct page *p = &k->phys.pages[res.pfn];
	if (color >= 0 && k->coloring->ncolors && res.pfn % k->coloring->ncolors == (uint32_t)color)
		k->coloring->honoured++;
	p->count = 1;   /* PGALLOC is counted by the allocator */
	mm_page_line_write(t, res.pfn);   /* set_page_refs: from the CPU that freed it */
	/* __alloc_pages read the serving zone's free_pages against its watermark
	 * (every allocation, per-CPU list or not): a move when a buddy operation
	 * of another CPU wrote the line since (kernel.c, mm_data_lines_init) */
	if (k->page_line)
		mm_line_read(t, &k->zone_line[res.zone->idx][0], &k->guard_coh);
	if (zone_out)
		*zone_out = res.zone->idx;
	return res.pfn;
}

void mm_page_free(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	mm_pages_free(k, t, pfn, 0);
}

void mm_pages_free(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, unsigned order)
{
	struct page *p = &k->phys.pages[pfn];
	p->count = 0;
	p->mapping = 0;
	/* the list flags stay, so the allocator's bad_page() check sees a page
	 * freed twice or still on a list and refuses it (counted in bad_free,
	 * reported by the invariant check) instead of linking it a second time */
	p->flags &= (1u << PG_reserved) | (1u << PG_highmem) | (1u << PG_buddy) | (1u << PG_pcp) |
		    (1u << PG_lru);
	mm_charge(t, 100);
	/* the allocator's free_pages_bulk() clears the zone's scan state when pages
	 * reach the buddy lists (not while they sit on a per-CPU list) */
	uint64_t before[MM_NR_ZONES];
	memcpy(before, k->alloc->st.zone_lock, sizeof before);
	uint64_t pages = k->alloc->st.locked_pages;
	struct af_ops af = af_now(k->alloc);
	mm_page_line_write(t, pfn);
	mm_free_pages(&k->phys, pfn, order, t->cpu, false);   /* counts PGFREE */
	/* linked at a free list's head (per-CPU or buddy): the page it went in front
	 * of has its link rewritten (a merged block's head is elsewhere: not charged) */
	if (k->page_line && (page_test(p, PG_pcp) || page_test(p, PG_buddy)))
		mm_page_line_write(t, p->lru_next);
	zone_lock_replay(k, t, before, pages);
	af_charge(k, t, af);
}
