/*
 * proc.c - anonymous memory of processes: page tables, faults, copy-on-write fork,
 * brk, exit, reverse mapping for reclaim, and the swap area (see proc.h).
 *
 * Page-table entry (uint32_t):
 *   0                      empty (never touched, or unmapped)
 *   PTE_SWAP | slot        swapped out: the page is in swap slot `slot`
 *   (pfn + 1) | PTE_RO     present, read-only (shared copy-on-write after fork,
 *                          or still in the swap cache after a swap-in)
 *   (pfn + 1)              present, writable
 *
 * References (page->count) and mappings (page->mapcount) follow 2.6: every present
 * entry holds one reference and one mapping; the swap cache holds one reference;
 * pagevecs and writeback hold theirs.  A page whose last reference goes is freed
 * through release_pages() (lru_lock to unlink it).  If reclaim has it isolated at
 * that moment (off its list, PG_lru clear), the isolating task frees it when it
 * puts the batch back (mm_lru_putback), which is what get_page_testone() achieves
 * in the kernel.
 *
 * Faults (do_anonymous_page, do_wp_page, do_swap_page) re-read the entry after
 * anything that may sleep (allocation with reclaim, disk reads) and start over if
 * reclaim changed it meanwhile.  A charge may sleep too (the time model pays
 * pending cycles there): the re-check comes after the last charge before the
 * entry changes, and an entry is set before a charge that follows its mapping.
 * do_wp_page once re-checked before charging the copy; try_to_unmap swapped the
 * entry out during that charge, the fault then unmapped the page a second time
 * for one entry, the walk stopped at mapcount 0 with one mapper's entry left,
 * and the page was freed under it ("pfn 1104: free block head count -1" in the
 * stock kernel under reaim at 12 MiB, issue 27).
 *
 * Costs: a fault pays the trap (costs->syscall) and the page-table walk (two
 * struct-page-class lines); a zero fill or a COW copy moves one page at the
 * machine's copy bandwidth; fork pays two atomics and a line per present entry;
 * rmap walks pay a line per family member and an atomic per entry changed.  TLB
 * shoot-down IPIs of try_to_unmap and fork are not modelled.
 */
#include "models/mm/proc.h"

#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include "models/hw/disk.h"
#include "models/mm/fmap.h"
#include "models/mm/vmscan.h"

#define PTE_SWAP 0x80000000u
#define PTE_RO 0x40000000u
#define PTE_PFN_MASK MM_SWAP_MAX_SLOTS
/* pfn + 1 of the largest machine's last page (4 KiB pages, zone.h) fits an entry */
static_assert((MM_MAX_MEMORY >> 12) < PTE_PFN_MASK, "page-table entries too small for 2 TiB");

struct mm_family {
	uint32_t id;
	struct mm_as *members;
};

static inline bool pte_present(uint32_t e)
{
	return e && !(e & PTE_SWAP);
}
static inline uint32_t pte_pfn(uint32_t e)
{
	return (e & PTE_PFN_MASK) - 1;
}
static inline uint32_t mk_pte(uint32_t pfn, bool ro)
{
	return (pfn + 1) | (ro ? PTE_RO : 0);
}

static inline struct mm_procs *P(struct mm_kernel *k)
{
	return k->proc;
}

static void charge_page_copy(struct mm_kernel *k, struct mm_task *t)
{
	double c = (double)k->phys.page_size * k->copy_cycles_per_byte;
	mm_charge(t, c);
	mm_bus_transfer(k, t, k->phys.page_size, k->s ? k->s->machine->bus.copy_bytes : 0, c);
}

int mm_proc_init(struct mm_kernel *k, const struct mm_swap_cfg *c, struct mm_err *e)
{
	struct mm_procs *pr = calloc(1, sizeof *pr);
	if (!pr)
		return mm_errf(e, NULL, NULL, "out of memory");
	k->proc = pr;
	struct mm_swap *sw = &pr->swap;
	uint64_t ps = k->phys.page_size;
	if (c && c->size >= ps) {
		uint64_t n = c->size / ps;
		if (n > PTE_PFN_MASK)
			return mm_errf(e, NULL, NULL, "swap area too large");
		sw->disk = c->disk;
		sw->off = c->off;
		sw->nslots = (uint32_t)n;
		sw->nr_free = sw->nslots;
		sw->map = calloc(n, sizeof *sw->map);
		sw->cache = malloc(n * sizeof *sw->cache);
		/* page->private of every page: read only while the page has PG_swapcache,
		 * so it is left zeroed and the host backs it only where swap-cache pages
		 * appear (no 4 bytes per simulated page at start-up) */
		sw->slot_of = calloc(k->phys.nr_pages, sizeof *sw->slot_of);
		if (!sw->map || !sw->cache || !sw->slot_of)
			return mm_errf(e, NULL, NULL, "out of memory for the swap map");
		for (uint64_t i = 0; i < n; i++)
			sw->cache[i] = PFN_NONE;
	}
	return 0;
}

void mm_proc_fini(struct mm_kernel *k)
{
	struct mm_procs *pr = P(k);
	if (!pr)
		return;
	for (uint32_t i = 0; i < pr->nfam; i++) {
		struct mm_family *f = pr->fam[i];
		if (!f)
			continue;
		for (struct mm_as *as = f->members, *n; as; as = n) {
			n = as->fam_next;
			free(as->pte);
			free(as);
		}
		free(f);
	}
	free(pr->fam);
	free(pr->swap.map);
	free(pr->swap.cache);
	free(pr->swap.slot_of);
	free(pr);
	k->proc = NULL;
}

bool mm_swap_enabled(const struct mm_kernel *k)
{
	return k->proc && k->proc->swap.nslots > 0;
}

/* ---------------------------------------------------------------- families */

static struct mm_family *family_get(struct mm_kernel *k, uint32_t mapping)
{
	struct mm_procs *pr = P(k);
	if (mapping < MM_ANON_BASE || mapping - MM_ANON_BASE >= pr->nfam)
		return NULL;
	return pr->fam[mapping - MM_ANON_BASE];
}

static struct mm_family *family_new(struct mm_kernel *k)
{
	struct mm_procs *pr = P(k);
	uint32_t id = pr->free_fam;
	while (id < pr->nfam && pr->fam[id])
		id++;
	if (id == pr->nfam) {
		if (pr->nfam == pr->capfam) {
			uint32_t cap = pr->capfam ? 2 * pr->capfam : 64;
			if (cap > MM_ANON_BASE - 1)
				return NULL;
			struct mm_family **nf = realloc(pr->fam, cap * sizeof *nf);
			if (!nf)
				return NULL;
			pr->fam = nf;
			pr->capfam = cap;
		}
		pr->fam[pr->nfam++] = NULL;
	}
	struct mm_family *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->id = id;
	pr->fam[id] = f;
	pr->free_fam = id + 1;
	return f;
}

static void family_leave(struct mm_kernel *k, struct mm_as *as)
{
	struct mm_procs *pr = P(k);
	struct mm_family *f = as->fam;
	for (struct mm_as **pp = &f->members; *pp; pp = &(*pp)->fam_next)
		if (*pp == as) {
			*pp = as->fam_next;
			break;
		}
	if (!f->members) {
		pr->fam[f->id] = NULL;
		if (f->id < pr->free_fam)
			pr->free_fam = f->id;
		free(f);
	}
}

static struct mm_as *as_alloc(struct mm_family *f)
{
	struct mm_as *as = calloc(1, sizeof *as);
	if (!as)
		return NULL;
	as->fam = f;
	as->fam_next = f->members;
	f->members = as;
	return as;
}

struct mm_as *mm_as_new(struct mm_kernel *k, struct mm_task *t)
{
	struct mm_family *f = family_new(k);
	if (!f)
		return NULL;
	struct mm_as *as = as_alloc(f);
	if (!as) {
		P(k)->fam[f->id] = NULL;
		free(f);
		return NULL;
	}
	/* mm_alloc + the first VMA: a few slab objects */
	mm_charge(t, 4 * k->costs->page_op + 2 * k->costs->atomic);
	P(k)->execs++;
	t->color.init = false;   /* a new process draws a new start colour */
	return as;
}

/* ---------------------------------------------------------------- swap */

/* get_swap_page(): next-fit from the last slot handed out.
 * Returns: a slot with swap_map 1, or UINT32_MAX if the area is full. */
static uint32_t swap_alloc(struct mm_kernel *k, struct mm_task *t)
{
	struct mm_swap *sw = &P(k)->swap;
	mm_charge(t, k->costs->atomic);   /* swap_list_lock / si->sdev_lock */
	if (sw->nr_free == 0)
		return UINT32_MAX;
	uint32_t s = sw->next;
	for (uint32_t n = 0; n < sw->nslots; n++, s = s + 1 == sw->nslots ? 0 : s + 1)
		if (sw->map[s] == 0) {
			sw->map[s] = 1;
			sw->nr_free--;
			sw->next = s + 1 == sw->nslots ? 0 : s + 1;
			mm_charge(t, k->costs->page_op * (1 + n / 64));
			return s;
		}
	return UINT32_MAX;
}

/* swap_free(): drop one user of @slot. */
static void swap_put(struct mm_kernel *k, struct mm_task *t, uint32_t slot)
{
	struct mm_swap *sw = &P(k)->swap;
	mm_charge(t, k->costs->atomic);
	if (sw->map[slot] && --sw->map[slot] == 0)
		sw->nr_free++;
}

void mm_swapcache_remove(struct mm_kernel *k, uint32_t pfn)
{
	struct mm_swap *sw = &P(k)->swap;
	struct page *p = &k->phys.pages[pfn];
	if (!page_test_clear(p, PG_swapcache))
		return;
	if (page_test(p, PG_anon) && p->mapcount == 0)
		k->nr_anon--;
	uint32_t slot = sw->slot_of[pfn];
	sw->cache[slot] = PFN_NONE;
	if (sw->map[slot] && --sw->map[slot] == 0)
		sw->nr_free++;
	/* the data now lives only in this page (or nowhere, when it is freed) */
	if (page_test_clear(p, PG_dirty))
		k->nr_dirty--;
	p->count--;   /* the swap cache's reference */
}

bool mm_swap_where(struct mm_kernel *k, uint32_t pfn, int *disk, uint64_t *off)
{
	if (!k->proc || !page_test(&k->phys.pages[pfn], PG_swapcache))
		return false;
	const struct mm_swap *sw = &P(k)->swap;
	*disk = sw->disk;
	*off = sw->off + (uint64_t)sw->slot_of[pfn] * k->phys.page_size;
	return true;
}

static void swapcache_add(struct mm_kernel *k, uint32_t pfn, uint32_t slot)
{
	struct mm_swap *sw = &P(k)->swap;
	struct page *p = &k->phys.pages[pfn];
	if (page_test(p, PG_anon) && p->mapcount == 0)
		k->nr_anon++;
	page_set(p, PG_swapcache);
	sw->slot_of[pfn] = slot;
	sw->cache[slot] = pfn;
	p->count++;
}

/* ---------------------------------------------------------------- map / unmap */

/* A new anonymous page @pfn at index @idx of @as: mapped, on the active list. */
static void anon_page_add(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t idx,
			  uint32_t pfn, bool ro)
{
	struct page *p = &k->phys.pages[pfn];
	page_set(p, PG_anon);
	page_set(p, PG_uptodate);
	page_set(p, PG_referenced);   /* the young bit of the new entry */
	p->mapping = MM_ANON_BASE + as->fam->id;
	p->index = idx;
	mm_page_map(k, p);
	as->pte[idx] = mk_pte(pfn, ro);
	as->rss++;
	mm_lru_cache_add(k, t, pfn, MM_LRU_ACTIVE);
}

/* Unmap entry @idx of @as (zap_pte_range for one entry); a page whose last
 * reference goes is collected in @rv for release_pages. */
static void zap_one(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t idx,
		    struct mm_relvec *rv)
{
	uint32_t e = as->pte[idx];
	if (!e)
		return;
	as->pte[idx] = 0;
	if (e & PTE_SWAP) {
		uint32_t slot = e & ~PTE_SWAP;
		as->nswap--;
		swap_put(k, t, slot);
		/* free_swap_and_cache(): a swap-cache page nobody else uses goes too */
		struct mm_swap *sw = &P(k)->swap;
		uint32_t pfn = sw->cache[slot];
		if (pfn != PFN_NONE && sw->map[slot] == 1) {
			struct page *p = &k->phys.pages[pfn];
			if (p->mapcount == 0 && !page_test(p, PG_writeback) && !page_test(p, PG_locked)) {
				mm_swapcache_remove(k, pfn);
				/* the swap cache's reference was dropped: if that was the
				 * last one, the page goes with the batch */
				p->count++;
				mm_relvec_add(k, t, rv, pfn);
			}
		}
		return;
	}
	uint32_t pfn = pte_pfn(e);
	struct page *p = &k->phys.pages[pfn];
	as->rss--;
	mm_charge(t, k->costs->page_op + k->costs->atomic);   /* entry + page_remove_rmap */
	mm_page_unmap(k, p);
	/* free_page_and_swap_cache(): the last user drops the swap copy too */
	if (p->mapcount == 0 && page_test(p, PG_swapcache) && !page_test(p, PG_writeback) &&
	    !page_test(p, PG_locked) && P(k)->swap.map[P(k)->swap.slot_of[pfn]] == 1) {
		mm_swapcache_remove(k, pfn);   /* the mapping's reference goes with the batch */
	}
	mm_relvec_add(k, t, rv, pfn);
}

/* Unmap [@from, @to) of @as, releasing pages in batches (the mmu_gather). */
static void zap_range(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t from,
		      uint32_t to)
{
	struct mm_relvec rv = { 0 };
	for (uint32_t i = from; i < to; i++)
		zap_one(k, t, as, i, &rv);
	mm_relvec_flush(k, t, &rv);
}

/* ---------------------------------------------------------------- fork, exit, brk */

static int as_reserve(struct mm_as *as, uint32_t npages)
{
	if (npages <= as->cap)
		return 0;
	uint32_t cap = as->cap ? as->cap : 16;
	while (cap < npages)
		cap = cap > UINT32_MAX / 2 ? npages : cap * 2;
	uint32_t *np = realloc(as->pte, (size_t)cap * sizeof *np);
	if (!np)
		return -1;
	memset(np + as->cap, 0, (size_t)(cap - as->cap) * sizeof *np);
	as->pte = np;
	as->cap = cap;
	return 0;
}

struct mm_as *mm_as_fork(struct mm_kernel *k, struct mm_task *t, struct mm_as *parent)
{
	struct mm_as *as = as_alloc(parent->fam);
	if (!as)
		return NULL;
	if (as_reserve(as, parent->npages)) {
		family_leave(k, as);
		free(as);
		return NULL;
	}
	as->npages = parent->npages;
	mm_charge(t, 8 * k->costs->page_op + 4 * k->costs->atomic);   /* dup_mm, dup_mmap */
	struct mm_swap *sw = &P(k)->swap;
	for (uint32_t i = 0; i < parent->npages; i++) {
		uint32_t e = parent->pte[i];
		if (i % 1024 == 0)
			mm_charge(t, k->costs->page_op);   /* one page-table page per 1024 */
		if (!e)
			continue;
		if (e & PTE_SWAP) {
			uint32_t slot = e & ~PTE_SWAP;
			sw->map[slot]++;                /* swap_duplicate */
			mm_charge(t, k->costs->atomic);
			as->pte[i] = e;
			as->nswap++;
			continue;
		}
		struct page *p = &k->phys.pages[pte_pfn(e)];
		/* copy_one_pte: write-protect both, get_page, page_dup_rmap */
		parent->pte[i] = e | PTE_RO;
		as->pte[i] = e | PTE_RO;
		p->count++;
		mm_page_map(k, p);
		as->rss++;
		mm_charge(t, 2 * k->costs->atomic + k->costs->page_op);
	}
	P(k)->forks++;
	return as;
}

void mm_as_exit(struct mm_kernel *k, struct mm_task *t, struct mm_as *as)
{
	if (!as)
		return;
	zap_range(k, t, as, 0, as->npages);
	mm_charge(t, 4 * k->costs->page_op + 2 * k->costs->atomic);   /* free page tables, mm */
	family_leave(k, as);
	free(as->pte);
	free(as);
	P(k)->exits++;
}

int mm_brk(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t npages)
{
	mm_charge(t, k->costs->syscall + 2 * k->costs->page_op);   /* sys_brk, VMA update */
	if (npages > PTE_PFN_MASK)
		return -1;
	if (npages > as->npages) {
		if (as_reserve(as, npages))
			return -1;
	} else if (npages < as->npages) {
		zap_range(k, t, as, npages, as->npages);
	}
	as->npages = npages;
	return 0;
}

uint32_t mm_as_pfn(const struct mm_as *as, uint32_t idx)
{
	if (idx >= as->npages || !pte_present(as->pte[idx]))
		return PFN_NONE;
	return pte_pfn(as->pte[idx]);
}

/* ---------------------------------------------------------------- faults */

/* Allocate an anonymous page (GFP_HIGHUSER, easily reclaimable).  Returns: pfn or PFN_NONE. */
static uint32_t anon_alloc(struct mm_kernel *k, struct mm_task *t)
{
	return mm_page_alloc(k, t, MM_ZONE_HIGHMEM, MM_GFP_KERNEL | MM_GFP_EASYRCLM);
}

/* do_swap_page() for entry @e at @idx.  Returns: 1 (major), 0 (minor), -1 OOM,
 * 2 the entry changed meanwhile (retry). */
static int swap_fault(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t idx,
		      uint32_t e, bool write)
{
	struct mm_procs *pr = P(k);
	struct mm_swap *sw = &pr->swap;
	uint32_t slot = e & ~PTE_SWAP;
	uint32_t pfn = sw->cache[slot];
	int major = 0;
	if (pfn == PFN_NONE) {
		/* read_swap_cache_async: a new page in the swap cache, read from disk */
		uint32_t np = anon_alloc(k, t);
		if (np == PFN_NONE)
			return -1;
		if (as->pte[idx] != e || sw->cache[slot] != PFN_NONE) {
			mm_page_free(k, t, np);
			return 2;
		}
		struct page *p = &k->phys.pages[np];
		page_set(p, PG_anon);
		page_set(p, PG_locked);
		p->mapping = MM_ANON_BASE + as->fam->id;
		p->index = idx;
		sw->map[slot]++;                /* the swap cache's use of the slot */
		swapcache_add(k, np, slot);
		p->count--;                     /* the allocation's reference is the cache's */
		mm_lru_cache_add(k, t, np, MM_LRU_ACTIVE);
		uint64_t ps = k->phys.page_size;
		mm_disk_wait(k, t, sim_disk(k->s, sw->disk), 0, sw->off + (uint64_t)slot * ps, ps);
		page_clear(p, PG_locked);
		page_set(p, PG_uptodate);
		mm_count(k->s->vs, MM_PGPGIN, ps / 1024);
		mm_count(k->s->vs, MM_PSWPIN, 1);
		mm_count(k->s->vs, MM_PGMAJFAULT, 1);
		pr->swap_ins++;
		t->majflt++;
		major = 1;
		if (as->pte[idx] != e) {
			/* unmapped meanwhile (exit of a sharer cannot touch our entry;
			 * only our own brk could, and we are here) */
			return 2;
		}
		pfn = np;
	}
	struct page *p = &k->phys.pages[pfn];
	/* map it: get_page, page_add_anon_rmap, swap_free.  The entry is set
	 * before anything that may let another task run (a charge, lru_lock):
	 * a mapping counted in mapcount but not yet in the entry is one that
	 * try_to_unmap cannot find.  Read-only first: shared with the swap copy,
	 * a store faults again (do_wp_page) */
	p->count++;
	mm_page_map(k, p);
	page_set(p, PG_referenced);
	as->nswap--;
	as->rss++;
	as->pte[idx] = mk_pte(pfn, true);
	swap_put(k, t, slot);
	mm_mark_page_accessed(k, t, pfn);
	bool exclusive = sw->map[slot] == 1 && p->mapcount == 1;
	if (write && exclusive && as->pte[idx] == mk_pte(pfn, true)) {
		/* remove_exclusive_swap_page: the copy on disk is stale from now on */
		mm_swapcache_remove(k, pfn);
		as->pte[idx] = mk_pte(pfn, false);
	}
	return major;
}

/* do_wp_page() for present read-only entry @e.  Returns: 0, -1 OOM, 2 retry. */
static int wp_fault(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t idx,
		    uint32_t e)
{
	struct mm_procs *pr = P(k);
	uint32_t pfn = pte_pfn(e);
	struct page *p = &k->phys.pages[pfn];
	bool swapc = page_test(p, PG_swapcache);
	bool exclusive = p->mapcount == 1 &&
			 (!swapc || pr->swap.map[pr->swap.slot_of[pfn]] == 1);
	if (exclusive && !page_test(p, PG_writeback)) {
		/* can_share_swap_page: reuse the page, drop its swap copy */
		if (swapc)
			mm_swapcache_remove(k, pfn);
		as->pte[idx] = mk_pte(pfn, false);
		page_set(p, PG_referenced);
		pr->cow_reuses++;
		return 0;
	}
	uint32_t np = anon_alloc(k, t);
	if (np == PFN_NONE)
		return -1;
	/* copy, then re-check the entry (pte_same under page_table_lock): the
	 * copy's charge may let reclaim run, and a re-check before it let
	 * try_to_unmap swap the entry out meanwhile; the page was then unmapped
	 * twice for one entry and its last mapper's entry was never walked
	 * (issue 27: "free block head count -1" at 12-20 MiB) */
	charge_page_copy(k, t);
	if (as->pte[idx] != e) {
		mm_page_free(k, t, np);
		return 2;
	}
	as->rss--;   /* anon_page_add counts it again */
	mm_page_unmap(k, p);
	anon_page_add(k, t, as, idx, np, false);
	pr->cow_copies++;
	uint32_t rel[1] = { pfn };
	mm_release_pages(k, t, rel, 1);
	return 0;
}

int64_t mm_touch(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t first,
		 uint32_t n, bool write)
{
	struct mm_procs *pr = P(k);
	int64_t faults = 0;
	uint32_t end = first + n < first || first + n > as->npages ? as->npages : first + n;
	for (uint32_t i = first; i < end; i++) {
		for (int tries = 0;; tries++) {
			uint32_t e = as->pte[i];
			if (pte_present(e) && (!write || !(e & PTE_RO))) {
				struct page *p = &k->phys.pages[pte_pfn(e)];
				page_set(p, PG_referenced);   /* the hardware's young bit */
				break;
			}
			if (tries == 0) {
				faults++;
				mm_charge_fault(t);
				mm_count(k->s->vs, MM_PGFAULT, 1);
			}
			int r;
			if (!e) {
				/* do_anonymous_page: a zeroed page */
				t->color.vpn = i;
				t->color.vpn_valid = true;
				uint32_t np = anon_alloc(k, t);
				t->color.vpn_valid = false;
				if (np == PFN_NONE)
					return -1;
				if (as->pte[i] != 0) {
					mm_page_free(k, t, np);
					continue;
				}
				double c = (double)k->phys.page_size * k->copy_cycles_per_byte;
				mm_charge(t, c);   /* clear_user_highpage */
				mm_bus_transfer(k, t, k->phys.page_size,
						k->s ? k->s->machine->bus.clear_bytes : 0, c);
				anon_page_add(k, t, as, i, np, false);
				pr->zero_fills++;
				t->minflt++;
				break;
			}
			if (e & PTE_SWAP) {
				r = swap_fault(k, t, as, i, e, write);
				if (r == 0)
					t->minflt++;
			} else {
				r = wp_fault(k, t, as, i, e);
				if (r == 0) {
					t->minflt++;
					break;
				}
			}
			if (r < 0)
				return -1;
			if (r == 2)
				continue;
			/* swapped in: a store to a page left shared goes round once more */
		}
	}
	return faults;
}

/* ---------------------------------------------------------------- reclaim side */

bool mm_anon_reclaim(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct mm_procs *pr = P(k);
	struct page *p = &k->phys.pages[pfn];
	if (!pr || pr->swap.nslots == 0)
		return false;
	if (!page_test(p, PG_swapcache)) {
		/* add_to_swap(): a slot, into the swap cache, dirty */
		uint32_t slot = swap_alloc(k, t);
		if (slot == UINT32_MAX) {
			pr->swap_full++;
			return false;
		}
		swapcache_add(k, pfn, slot);
		if (!page_test_set(p, PG_dirty))
			k->nr_dirty++;
		mm_charge(t, 2 * k->costs->atomic + k->costs->pc_lookup);
	}
	if (p->mapcount == 0)
		return true;
	/* try_to_unmap_anon(): walk the family, replace each mapping by the entry */
	struct mm_family *f = family_get(k, p->mapping);
	uint32_t slot = pr->swap.slot_of[pfn];
	mm_charge(t, k->costs->atomic);   /* anon_vma->lock */
	for (struct mm_as *as = f ? f->members : NULL; as && p->mapcount > 0; as = as->fam_next) {
		mm_charge(t, k->costs->page_op);
		if (p->index >= as->npages || !pte_present(as->pte[p->index]) ||
		    pte_pfn(as->pte[p->index]) != pfn)
			continue;
		/* the dirty bit moves to the page; the swap entry takes a slot user */
		if (!(as->pte[p->index] & PTE_RO) && !page_test_set(p, PG_dirty))
			k->nr_dirty++;
		as->pte[p->index] = PTE_SWAP | slot;
		as->rss--;
		as->nswap++;
		pr->swap.map[slot]++;
		mm_page_unmap(k, p);
		p->count--;
		mm_charge(t, 2 * k->costs->atomic + k->costs->page_op);
	}
	if (p->mapcount > 0)
		return false;   /* an entry outside the walked family: cannot happen */
	pr->swap_outs++;
	return true;
}

/* ---------------------------------------------------------------- reports */

void mm_proc_metrics(struct mm_kernel *k, struct sim *s)
{
	struct mm_procs *pr = P(k);
	if (!pr)
		return;
	sim_metric(s, "forks", (double)pr->forks);
	sim_metric(s, "execs", (double)pr->execs);
	sim_metric(s, "exits", (double)pr->exits);
	sim_metric(s, "anon_zero_fills", (double)pr->zero_fills);
	sim_metric(s, "cow_copies", (double)pr->cow_copies);
	sim_metric(s, "cow_reuses", (double)pr->cow_reuses);
	sim_metric(s, "swap_outs", (double)pr->swap_outs);
	sim_metric(s, "swap_ins", (double)pr->swap_ins);
	sim_metric(s, "swap_full", (double)pr->swap_full);
	sim_metric(s, "swap_used_pages", (double)(pr->swap.nslots - pr->swap.nr_free));
	/* mapped or in the swap cache (not pages a pagevec still holds): kept as the
	 * pages change (mm_page_map, swapcache_add, ...), no walk of the page array */
	sim_metric(s, "anon_pages", (double)k->nr_anon);
}

int mm_proc_check(struct mm_kernel *k, struct mm_err *e)
{
	struct mm_procs *pr = P(k);
	if (!pr)
		return 0;
	uint32_t npages = k->phys.nr_pages;
	int32_t *maps = calloc(npages, sizeof *maps);
	uint32_t *uses = pr->swap.nslots ? calloc(pr->swap.nslots, sizeof *uses) : NULL;
	int rc = 0;
	if (!maps || (pr->swap.nslots && !uses)) {
		free(maps);
		free(uses);
		return mm_errf(e, NULL, NULL, "out of memory");
	}
	uint64_t mapped = 0;
	for (uint32_t fi = 0; fi < pr->nfam && !rc; fi++) {
		struct mm_family *f = pr->fam[fi];
		for (struct mm_as *as = f ? f->members : NULL; as && !rc; as = as->fam_next) {
			uint32_t rss = 0, nsw = 0;
			for (uint32_t i = 0; i < as->npages; i++) {
				uint32_t v = as->pte[i];
				if (!v)
					continue;
				if (v & PTE_SWAP) {
					uint32_t slot = v & ~PTE_SWAP;
					if (slot >= pr->swap.nslots) {
						rc = mm_errf(e, NULL, NULL, "pte %u: bad swap slot", i);
						break;
					}
					uses[slot]++;
					nsw++;
					continue;
				}
				uint32_t pfn = pte_pfn(v);
				const struct page *p = &k->phys.pages[pfn];
				if (pfn >= npages || !page_test(p, PG_anon) || p->count <= 0 ||
				    p->mapping != MM_ANON_BASE + f->id || p->index != i) {
					rc = mm_errf(e, NULL, NULL,
						     "pte %u of family %u maps pfn %u, which is not its page",
						     i, f->id, pfn);
					break;
				}
				maps[pfn]++;
				rss++;
			}
			if (!rc && (rss != as->rss || nsw != as->nswap))
				rc = mm_errf(e, NULL, NULL, "family %u: rss %u/%u, swap %u/%u", f->id,
					     rss, as->rss, nsw, as->nswap);
		}
	}
	mm_fmap_count_maps(k, maps);   /* file mappings map pages too (fmap.c) */
	uint64_t anon = 0;
	for (uint32_t pfn = 0; pfn < npages && !rc; pfn++) {
		const struct page *p = &k->phys.pages[pfn];
		if (maps[pfn])
			mapped++;
		anon += mm_page_anon_counted(p);
		if (p->mapcount != maps[pfn])
			rc = mm_errf(e, NULL, NULL, "pfn %u: mapcount %d, %d entries map it", pfn,
				     p->mapcount, maps[pfn]);
		else if (page_test(p, PG_swapcache)) {
			uint32_t slot = pr->swap.slot_of[pfn];
			if (slot >= pr->swap.nslots || pr->swap.cache[slot] != pfn)
				rc = mm_errf(e, NULL, NULL, "pfn %u: swap cache slot broken", pfn);
			else
				uses[slot]++;
		}
	}
	if (!rc && mapped != k->nr_mapped)
		rc = mm_errf(e, NULL, NULL, "nr_mapped %llu, %llu pages mapped",
			     (unsigned long long)k->nr_mapped, (unsigned long long)mapped);
	if (!rc && anon != k->nr_anon)
		rc = mm_errf(e, NULL, NULL,
			     "nr_anon %llu, %llu anonymous pages mapped or in the swap cache",
			     (unsigned long long)k->nr_anon, (unsigned long long)anon);
	uint32_t nfree = 0;
	for (uint32_t s = 0; s < pr->swap.nslots && !rc; s++) {
		if (pr->swap.map[s] != uses[s])
			rc = mm_errf(e, NULL, NULL, "swap slot %u: swap_map %u, %u users", s,
				     pr->swap.map[s], uses[s]);
		nfree += pr->swap.map[s] == 0;
	}
	if (!rc && nfree != pr->swap.nr_free)
		rc = mm_errf(e, NULL, NULL, "swap: %u free slots counted, %u recorded", nfree,
			     pr->swap.nr_free);
	free(maps);
	free(uses);
	return rc;
}
