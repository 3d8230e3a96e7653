/*
 * fmap.c - shared file mappings: the page-fault path of the page cache, reverse
 * mapping of file pages, munmap (2.6.15 mm/filemap.c filemap_nopage, mm/memory.c
 * do_no_page / zap_pte_range, mm/rmap.c page_add_file_rmap / try_to_unmap_file);
 * see fmap.h and docs/memory.md, "File mappings".
 *
 * Page-table entry (uint32_t):
 *   0                          empty (never touched, or unmapped)
 *   (pfn + 1) [| FPTE_DIRTY]   present; FPTE_DIRTY is the hardware dirty bit
 * The young (accessed) bit is the page's PG_referenced, as in proc.c.
 *
 * References and mappings follow 2.6 (as proc.c): the page cache holds one
 * reference; every present entry holds one more and one mapping (mapcount,
 * k->nr_mapped counts pages with mapcount > 0).  All mappings are MAP_SHARED.
 * 2.6.15 does not track dirtying through shared mappings (page_mkwrite and the
 * write-protect trick came with 2.6.19): a store sets the entry's dirty bit only,
 * and the bit moves to the page (set_page_dirty) when the entry is cleared, by
 * reclaim (try_to_unmap) or munmap (zap_pte_range).  Until then the page is not
 * in nr_dirty, exactly the 2.6.15 blind spot.
 *
 * A fault (filemap_nopage, then do_no_page installing the entry):
 *   1. the trap and page-table walk (mm_charge_fault, kernel.h); PGFAULT;
 *   2. find_get_page: a radix-tree lookup (pc_lookup) and a reference (atomic);
 *   3. a miss reads the page: when the mapping is not MM_FMAP_RANDOM and its
 *      misses do not exceed its hits by MMAP_LOTSAMISS, mmap_miss++ and
 *      do_page_cache_readahead() of max_sane_readahead(ra_pages) pages from
 *      index - ra_pages/2 (clipped at 0 and at end of file): 2.6.15's
 *      "read-around", which ignores the read() readahead state; otherwise one
 *      page (page_cache_read).  Either is a major fault (PGMAJFAULT) and the
 *      lookup is retried; a page reclaimed between its read and the lookup is
 *      read again (up to 64 tries, as mm_file_read);
 *   4. a page found while another task still reads it (PG_locked, not uptodate)
 *      is waited for (lock_page: a sleep on the page lock until the read's
 *      completion wakes it, mm_wait_on_page_locked) and makes the fault major; a page found without read-around counts in
 *      mmap_hit;
 *   5. mark_page_accessed(), then the entry: page_add_file_rmap (atomic), the
 *      set_pte (a struct-page-class line); the found page's reference is the
 *      entry's.  If the entry was filled meanwhile (another thread of the same
 *      mapping), the reference is dropped (page_cache_release).
 * max_sane_readahead() is min(ra_pages, (inactive + free) / 2) over all zones
 * (the kernel's node counts; free excludes per-CPU pages, as zone->free_pages).
 * MADV_SEQUENTIAL (the read() readahead state machine for faults) and private
 * (copy-on-write) file mappings are not modelled.
 *
 * Reclaim: mm_shrink_list() calls mm_fmap_unmap_page() for a mapped page-cache
 * page it decided to evict: i_mmap_lock (atomic), one line per mapper walked
 * (vma_address + the page-table walk), two atomics and a line per entry cleared;
 * the entry's page reference is dropped (the page cache still holds one, so the
 * page is not freed here).  TLB shoot-down IPIs are not modelled (as proc.c).
 * munmap (mm_fmap_destroy) clears every entry, moving dirty bits to the pages,
 * and releases the references in batches through release_pages (mmu_gather).
 * zap_pte_range's mark_page_accessed of young file pages is not modelled (the
 * young bit is PG_referenced itself here).  Truncating a mapped range of a file
 * (mm_file_truncate) does not unmap it: callers destroy mappings first.
 */
#include "models/mm/fmap.h"

#include <stdlib.h>

#include "emu/core/sim.h"
#include "models/mm/page.h"

#define FPTE_DIRTY 0x40000000u
#define FPTE_PFN_MASK 0x3fffffffu
/* pfn + 1 of the largest machine's last page (4 KiB pages, zone.h) fits an entry */
static_assert((MM_MAX_MEMORY >> 12) < FPTE_PFN_MASK, "page-table entries too small for 2 TiB");

static inline uint32_t fpte_pfn(uint32_t e)
{
	return (e & FPTE_PFN_MASK) - 1;
}

/* set_page_dirty() of a page whose entry was dirty. */
static void dirty_to_page(struct mm_kernel *k, struct mm_task *t, struct page *p)
{
	if (!page_test_set(p, PG_dirty)) {
		mm_file_dirty_inc(k, t, p->mapping && p->mapping <= (uint32_t)k->nfiles
					       ? k->files[p->mapping - 1] : NULL);
		mm_charge(t, k->costs->atomic);
	}
}

/* max_sane_readahead(): Returns: min(@nr, (inactive + free) / 2). */
static uint32_t max_sane_readahead(const struct mm_kernel *k, uint32_t nr)
{
	uint64_t avail = 0;
	for (int i = 0; i < MM_NR_ZONES; i++)
		avail += (uint64_t)k->phys.zones[i].nr_inactive + k->phys.zones[i].free_pages;
	return avail / 2 < nr ? (uint32_t)(avail / 2) : nr;
}

struct mm_fmap *mm_fmap_create(struct mm_kernel *k, struct mm_task *t, struct mm_file *f,
			       uint32_t npages, unsigned flags)
{
	if (!f)
		return NULL;
	if (npages > f->npages)
		npages = f->npages;
	if (npages == 0)
		return NULL;
	struct mm_fmap *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->pte = calloc(npages, sizeof *m->pte);
	if (!m->pte) {
		free(m);
		return NULL;
	}
	m->file = f;
	m->npages = npages;
	m->flags = flags;
	/* vma_link: __vma_link_file under i_mmap_lock */
	m->i_mmap_next = f->i_mmap;
	f->i_mmap = m;
	/* sys_mmap2, the VMA (slab), i_mmap_lock and the prio-tree insert */
	mm_charge(t, k->costs->syscall + 4 * k->costs->page_op + 2 * k->costs->atomic);
	return m;
}

/* filemap_nopage() + do_no_page() for empty entry @i of @m.
 * Returns: 1 (major), 0 (minor), -1 (the page could not be brought in). */
static int fmap_fault(struct mm_kernel *k, struct mm_task *t, struct mm_fmap *m, uint32_t i,
		      bool write)
{
	struct mm_file *f = m->file;
	uint32_t ra = k->cfg.ra_enabled && k->cfg.ra_pages > 0 ? (uint32_t)k->cfg.ra_pages : 0;
	bool random = (m->flags & MM_FMAP_RANDOM) != 0;
	bool major = false, did_readaround = false;
	uint32_t pfn;
	struct page *p;
	for (int tries = 0;; tries++) {
		if (tries >= 64)
			return -1;
		/* find_get_page: lookup and reference with no simcall in between */
		mm_charge(t, k->costs->pc_lookup);
		pfn = f->pfn[i];
		if (pfn == PFN_NONE) {
			int r;
			if (!major) {
				major = true;
				mm_count(k->s->vs, MM_PGMAJFAULT, 1);
			}
			uint32_t win = 0;
			if (!random && !did_readaround) {
				m->mmap_miss++;
				if (m->mmap_miss <= m->mmap_hit + MM_MMAP_LOTSAMISS)
					win = max_sane_readahead(k, ra);
			}
			if (win) {
				/* read-around: a window centred on the fault */
				uint32_t start = i > win / 2 ? i - win / 2 : 0;
				did_readaround = true;
				m->readarounds++;
				r = mm_file_read_pages(k, t, f, start, win);
			} else {
				/* no_cached_page: page_cache_read of this page */
				r = mm_file_read_pages(k, t, f, i, 1);
			}
			if (r < 0)
				return -1;
			m->pages_read += (uint64_t)r;
			continue;   /* retry_find */
		}
		p = &k->phys.pages[pfn];
		p->count++;
		mm_charge(t, k->costs->atomic);
		if (!page_test(p, PG_uptodate)) {
			/* page_not_uptodate: another task is reading it; lock_page waits */
			if (!major) {
				major = true;
				mm_count(k->s->vs, MM_PGMAJFAULT, 1);
			}
			mm_wait_on_page_locked(k, t, pfn);
			if (f->pfn[i] != pfn || !page_test(p, PG_uptodate)) {
				/* truncated or the read failed meanwhile: start over */
				mm_release_pages(k, t, &pfn, 1);
				continue;
			}
		}
		break;
	}
	if (!did_readaround && !random)
		m->mmap_hit++;
	/* success: mark_page_accessed() (may take lru_lock; our reference keeps the page) */
	mm_mark_page_accessed(k, t, pfn);
	if (m->pte[i] != 0) {
		/* do_no_page: somebody mapped it meanwhile; page_cache_release ours */
		mm_release_pages(k, t, &pfn, 1);
		return major;
	}
	/* page_add_file_rmap + set_pte_at: the reference taken above is the entry's */
	mm_page_map(k, p);
	page_set(p, PG_referenced);   /* the young bit of the access that faulted */
	m->pte[i] = (pfn + 1) | (write ? FPTE_DIRTY : 0);
	m->rss++;
	mm_charge(t, k->costs->atomic + k->costs->page_op);
	return major;
}

int64_t mm_fmap_touch(struct mm_kernel *k, struct mm_task *t, struct mm_fmap *map, uint32_t first,
		      uint32_t n, bool write)
{
	if (!map)
		return -1;
	int64_t faults = 0;
	uint32_t end = first + n < first || first + n > map->npages ? map->npages : first + n;
	for (uint32_t i = first; i < end; i++) {
		uint32_t e = map->pte[i];
		if (e) {
			page_set(&k->phys.pages[fpte_pfn(e)], PG_referenced);   /* young bit */
			if (write)
				map->pte[i] = e | FPTE_DIRTY;
			continue;
		}
		faults++;
		mm_charge_fault(t);
		mm_count(k->s->vs, MM_PGFAULT, 1);
		int r = fmap_fault(k, t, map, i, write);
		if (r < 0)
			return -1;
		if (r) {
			map->majflt++;
			t->majflt++;
		} else {
			map->minflt++;
			t->minflt++;
		}
	}
	return faults;
}

uint32_t mm_fmap_pfn(const struct mm_fmap *map, uint32_t i)
{
	if (!map || i >= map->npages || !map->pte[i])
		return PFN_NONE;
	return fpte_pfn(map->pte[i]);
}

bool mm_fmap_unmap_page(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	if (pfn >= k->phys.nr_pages)
		return false;
	struct page *p = &k->phys.pages[pfn];
	if (page_test(p, PG_anon) || p->mapping == 0 || p->mapping > (uint32_t)k->nfiles)
		return false;
	if (p->mapcount == 0)
		return true;
	struct mm_file *f = k->files[p->mapping - 1];
	uint32_t idx = p->index;
	mm_charge(t, k->costs->atomic);   /* i_mmap_lock */
	for (struct mm_fmap *m = f->i_mmap; m && p->mapcount > 0; m = m->i_mmap_next) {
		mm_charge(t, k->costs->page_op);   /* vma_address + page-table walk */
		if (idx >= m->npages)
			continue;
		uint32_t e = m->pte[idx];
		if (!e || fpte_pfn(e) != pfn)
			continue;
		if (m->flags & MM_FMAP_LOCKED) {
			m->reclaim_locked++;
			return false;   /* VM_LOCKED: SWAP_FAIL */
		}
		/* try_to_unmap_one: ptep_clear_flush, dirty bit to the page,
		 * page_remove_rmap, page_cache_release */
		m->pte[idx] = 0;
		m->rss--;
		if (e & FPTE_DIRTY)
			dirty_to_page(k, t, p);
		mm_page_unmap(k, p);
		if (p->count > 0)
			p->count--;
		m->reclaim_unmaps++;
		mm_charge(t, 2 * k->costs->atomic + k->costs->page_op);
	}
	return p->mapcount == 0;
}

void mm_fmap_destroy(struct mm_kernel *k, struct mm_task *t, struct mm_fmap *map)
{
	if (!map)
		return;
	struct mm_relvec rv = { 0 };
	/* sys_munmap: unmap_vmas, then zap_pte_range per entry */
	mm_charge(t, k->costs->syscall + 2 * k->costs->page_op);
	for (uint32_t i = 0; i < map->npages; i++) {
		uint32_t e = map->pte[i];
		if (!e)
			continue;
		uint32_t pfn = fpte_pfn(e);
		struct page *p = &k->phys.pages[pfn];
		map->pte[i] = 0;
		map->rss--;
		if (e & FPTE_DIRTY)
			dirty_to_page(k, t, p);
		mm_page_unmap(k, p);
		mm_charge(t, k->costs->page_op + k->costs->atomic);   /* entry + page_remove_rmap */
		mm_relvec_add(k, t, &rv, pfn);
	}
	mm_relvec_flush(k, t, &rv);
	/* unlink_file_vma under i_mmap_lock, free the VMA */
	mm_charge(t, 2 * k->costs->page_op + k->costs->atomic);
	struct mm_file *f = map->file;
	for (struct mm_fmap **pp = &f->i_mmap; *pp; pp = &(*pp)->i_mmap_next)
		if (*pp == map) {
			*pp = map->i_mmap_next;
			break;
		}
	free(map->pte);
	free(map);
}

void mm_fmap_free_all(struct mm_file *f)
{
	while (f->i_mmap) {
		struct mm_fmap *m = f->i_mmap;
		f->i_mmap = m->i_mmap_next;
		free(m->pte);
		free(m);
	}
}

void mm_fmap_count_maps(const struct mm_kernel *k, int32_t *maps)
{
	for (int fi = 0; fi < k->nfiles; fi++)
		for (const struct mm_fmap *m = k->files[fi]->i_mmap; m; m = m->i_mmap_next)
			for (uint32_t i = 0; i < m->npages; i++)
				if (m->pte[i] && fpte_pfn(m->pte[i]) < k->phys.nr_pages)
					maps[fpte_pfn(m->pte[i])]++;
}

int mm_fmap_check(struct mm_kernel *k, struct mm_err *e)
{
	uint32_t npages = k->phys.nr_pages;
	int32_t *maps = calloc(npages ? npages : 1, sizeof *maps);
	if (!maps)
		return mm_errf(e, NULL, NULL, "out of memory");
	int rc = 0;
	for (int fi = 0; fi < k->nfiles && !rc; fi++) {
		const struct mm_file *f = k->files[fi];
		for (const struct mm_fmap *m = f->i_mmap; m && !rc; m = m->i_mmap_next) {
			uint32_t rss = 0;
			if (m->file != f || m->npages > f->npages) {
				rc = mm_errf(e, NULL, NULL, "file %s: a mapper of another file or too large",
					     f->name);
				break;
			}
			for (uint32_t i = 0; i < m->npages; i++) {
				uint32_t v = m->pte[i];
				if (!v)
					continue;
				uint32_t pfn = fpte_pfn(v);
				const struct page *p = pfn < npages ? &k->phys.pages[pfn] : NULL;
				if (!p || page_test(p, PG_anon) || p->mapping != f->id || p->index != i ||
				    f->pfn[i] != pfn) {
					rc = mm_errf(e, NULL, NULL,
						     "file %s: entry %u maps pfn %u, which is not its page",
						     f->name, i, pfn);
					break;
				}
				maps[pfn]++;
				rss++;
			}
			if (!rc && rss != m->rss)
				rc = mm_errf(e, NULL, NULL, "file %s: a mapping's rss %u, %u entries",
					     f->name, m->rss, rss);
		}
	}
	uint64_t mapped = 0;
	for (uint32_t pfn = 0; pfn < npages && !rc; pfn++) {
		const struct page *p = &k->phys.pages[pfn];
		if (p->mapcount < 0)
			rc = mm_errf(e, NULL, NULL, "pfn %u: mapcount %d", pfn, p->mapcount);
		mapped += p->mapcount > 0;
		if (rc || page_test(p, PG_anon))
			continue;
		if (p->mapcount != maps[pfn])
			rc = mm_errf(e, NULL, NULL, "pfn %u: mapcount %d, %d file entries map it", pfn,
				     p->mapcount, maps[pfn]);
		else if (maps[pfn] && p->count < maps[pfn] + 1)
			rc = mm_errf(e, NULL, NULL, "pfn %u: count %d for %d entries and the cache",
				     pfn, p->count, maps[pfn]);
	}
	if (!rc && mapped != k->nr_mapped)
		rc = mm_errf(e, NULL, NULL, "nr_mapped %llu, %llu pages mapped",
			     (unsigned long long)k->nr_mapped, (unsigned long long)mapped);
	free(maps);
	return rc;
}
