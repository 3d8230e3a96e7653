/*
 * swap.c - the per-CPU pagevecs of the LRU lists: lru_cache_add(),
 * mark_page_accessed() (plain and batched), release_pages() and the pagevec
 * drains (see swap.h).
 *
 * Models Linux 2.6.15 mm/swap.c (kernel-mechanisms.md 1.2, 2.1): a page joins the
 * LRU through this CPU's lru_add pagevec (PAGEVEC_SIZE 14), drained under
 * lru_lock, re-taken only when the zone changes, after which release_pages()
 * drops the pagevec's references; lru_add_drain() drains only the calling CPU's
 * pagevec.  mark_page_accessed() goes straight to the reclaim module or, with
 * vm.batch_mark_accessed, through Nikita Danilov's per-CPU page_accessed pagevec
 * (2004-11), drained under lru_lock the same way.
 *
 * With vm.lru_locking "per-page" the kernel is 2.5.25's (before the pagevecs of
 * 2.5.29-2.5.32 and the per-zone lru_lock): lru_cache_add() takes the one global
 * pagemap_lru_lock for each page it links, and a page whose last reference goes
 * is unlinked under a lock hold of its own (__free_pages_ok -> lru_cache_del), so
 * every page added or freed is one acquisition (kernel-mechanisms.md 3.4; the
 * lock is mm_lru_lock()'s, spinlock.c).
 *
 * Line ownership (issue 30; only when the machine declares costs.line_transfer):
 * every write to a struct page's line here (the pagevec's page_cache_get, the
 * drain's flag and list writes, put_page_testzero, the neighbours' links) goes
 * through mm_page_line_write(), so a deferred drain pays for the lines other
 * CPUs took while the page sat in the pagevec.
 */
#include "models/mm/swap.h"
#include "models/mm/kernel.h"

#include "emu/core/sim.h"
#include "models/mm/vmscan.h"

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

/* A page's list links, read before and after a reclaim module's list operation. */
struct links {
	uint32_t prev, next;
	bool on;   /* PG_lru: the links are a reclaim list's */
};

static struct links links_of(const struct mm_kernel *k, uint32_t pfn)
{
	const struct page *p = &k->phys.pages[pfn];
	return (struct links){ p->lru_prev, p->lru_next, page_test(p, PG_lru) };
}

/* The struct page lines a list operation on @pfn wrote (line ownership,
 * mm_page_line_write): the page's own (flags, _count, its links) and, when its
 * links changed, the neighbours it was unlinked from (@b, before) and linked
 * between (after), whose lru links it rewrote.  The modules thread their lists
 * through struct page (lru2q, clockpro, mglru: plist), so the links tell the
 * neighbours whatever the module; the list heads are struct zone's (on lru_lock's
 * line, or a guarded line of pagemap_lru_lock's: spinlock.c).  Nothing unless the
 * kernel models data lines. */
static void list_lines(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, struct links b)
{
	if (!k->page_line)
		return;
	mm_page_line_write(t, pfn);
	struct links a = links_of(k, pfn);
	if (a.on == b.on && (!a.on || (a.prev == b.prev && a.next == b.next)))
		return;
	if (b.on) {
		mm_page_line_write(t, b.prev);   /* PFN_NONE (a list end) is skipped */
		mm_page_line_write(t, b.next);
	}
	if (a.on) {
		mm_page_line_write(t, a.prev);
		mm_page_line_write(t, a.next);
	}
}

/* Which per-CPU pagevec a drain empties. */
enum pv_kind { PV_LRU_ADD, PV_ACCESSED };

/* Drain the per-CPU pagevec @cpv under lru_lock, re-taken whenever the zone changes
 * from one page to the next, then drop the pagevec's references (release_pages):
 * PV_LRU_ADD links each page into the module's lists (__pagevec_lru_add),
 * PV_ACCESSED applies the batched mark_page_accessed (Nikita's patch).
 *
 * The drain works on its own copy and leaves @cpv empty first.  The kernel drains
 * a per-CPU pagevec with preemption disabled and spins for lru_lock, so no other
 * task on that CPU can touch it mid-drain; here waiting for lru_lock is a simcall
 * during which another task of the same CPU runs: it finds an empty pagevec, never
 * the pages being drained (draining them twice dropped their references twice and
 * freed pages still in use). */
static void pagevec_drain(struct mm_kernel *k, struct mm_task *t, struct pagevec *cpv,
			  enum pv_kind kind)
{
	uint8_t site = mm_lru_site_set(t, kind == PV_LRU_ADD ? MM_LRU_SITE_ADD : MM_LRU_SITE_ACCESSED);
	struct zone *locked = NULL;
	struct pagevec pv = *cpv;
	cpv->nr = 0;
	for (unsigned i = 0; i < pv.nr; i++) {
		struct zone *z = mm_zone_of(&k->phys, pv.pfn[i]);
		lru_relock(k, t, &locked, z);
		struct links b = links_of(k, pv.pfn[i]);
		if (kind == PV_LRU_ADD) {
			/* TestSetPageLRU (+ PG_active) and the list link: page + neighbour lines */
			mm_charge(t, k->costs->atomic + 2 * k->costs->page_op);
			mm_count(k->s->vs, MM_POLICY_ADD, 1);
			k->kops->lru_add(k->rc, k, z, pv.pfn[i], pv.hint[i]);
		} else {
			mm_charge(t, k->costs->page_op);
			k->kops->mark_accessed_locked(k->rc, k, t, z, pv.pfn[i]);
		}
		/* the lines come from whichever CPU took them since the pagevec_add */
		list_lines(k, t, pv.pfn[i], b);
	}
	if (locked)
		mm_lru_unlock(k, t, locked);
	t->lru_site = site;
	mm_release_pages(k, t, pv.pfn, pv.nr);
}

void mm_release_pages(struct mm_kernel *k, struct mm_task *t, const uint32_t *pfns, unsigned n)
{
	uint8_t site = mm_lru_site_set(t, MM_LRU_SITE_RELEASE);
	struct zone *locked = NULL;
	uint32_t dead[PAGEVEC_SIZE];
	unsigned ndead = 0;
	for (unsigned i = 0; i < n; i++) {
		struct page *p = &k->phys.pages[pfns[i]];
		mm_charge(t, k->costs->atomic);   /* put_page_testzero */
		mm_page_line_write(t, pfns[i]);
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
		struct links b = links_of(k, pfns[i]);
		k->kops->lru_del(k->rc, k, z, pfns[i]);
		mm_charge(t, 2 * k->costs->page_op);
		list_lines(k, t, pfns[i], b);
		dead[ndead++] = pfns[i];
		/* 2.5.25 (no pagevecs): __free_pages_ok's lru_cache_del took and
		 * dropped the lock for this page alone */
		if (ndead == PAGEVEC_SIZE || k->cfg.lru_locking == MM_LRU_PER_PAGE) {
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
	t->lru_site = site;
	for (unsigned j = 0; j < ndead; j++)
		mm_page_free(k, t, dead[j]);
}

/* page_cache_get (an atomic) and append @pfn to the per-CPU pagevec @pv, draining
 * it when full (pagevec_add). */
static void pagevec_add(struct mm_kernel *k, struct mm_task *t, struct pagevec *pv, uint32_t pfn,
			int hint, enum pv_kind kind)
{
	k->phys.pages[pfn].count++;
	mm_charge(t, k->costs->atomic);
	mm_page_line_write(t, pfn);
	pv->pfn[pv->nr] = pfn;
	pv->hint[pv->nr] = (uint8_t)hint;
	if (++pv->nr == PAGEVEC_SIZE)
		pagevec_drain(k, t, pv, kind);
}

/* 2.5.25's lru_cache_add(): the page linked at once, under lru_lock of its own
 * (no pagevec, so no reference taken and none dropped). */
static void lru_add_one(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, int hint)
{
	struct zone *z = mm_zone_of(&k->phys, pfn);
	uint8_t site = mm_lru_site_set(t, MM_LRU_SITE_ADD);
	mm_lru_lock(k, t, z);
	t->lru_site = site;
	mm_charge(t, k->costs->atomic + 2 * k->costs->page_op);
	mm_count(k->s->vs, MM_POLICY_ADD, 1);
	struct links b = links_of(k, pfn);
	k->kops->lru_add(k->rc, k, z, pfn, hint);
	list_lines(k, t, pfn, b);
	mm_lru_unlock(k, t, z);
}

void mm_lru_cache_add(struct mm_kernel *k, struct mm_task *t, uint32_t pfn, int hint)
{
	if (k->cfg.lru_locking == MM_LRU_PER_PAGE) {
		lru_add_one(k, t, pfn, hint);
		return;
	}
	pagevec_add(k, t, &k->lru_add_pvec[t->cpu], pfn, hint, PV_LRU_ADD);
}

void mm_lru_add_drain(struct mm_kernel *k, struct mm_task *t)
{
	struct pagevec *pv = &k->lru_add_pvec[t->cpu];
	if (pv->nr)
		pagevec_drain(k, t, pv, PV_LRU_ADD);
}

void mm_mark_page_accessed(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	mm_count(k->s->vs, MM_POLICY_ACCESS, 1);
	if (!k->cfg.batch_mark_accessed) {
		/* the caller's find_get_page and page_cache_release write _count on the
		 * page's line; an activation also rewrites its neighbours' links */
		struct links b = links_of(k, pfn);
		uint8_t site = mm_lru_site_set(t, MM_LRU_SITE_ACTIVATE);
		k->kops->mark_accessed(k->rc, k, t, pfn);
		t->lru_site = site;
		list_lines(k, t, pfn, b);
		return;
	}
	/* the patch: page_cache_get, append to this CPU's pagevec, drain when full */
	pagevec_add(k, t, &k->accessed_pvec[t->cpu], pfn, 0, PV_ACCESSED);
}
