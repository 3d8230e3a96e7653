/*
 * census.c - what holds each pageblock of a zone: the evidence behind a high-order
 * allocation's success or failure (seed 003, issue 29 item 7).
 *
 * An order-10 allocation succeeds in a block only when reclaim can empty all of
 * its 1,024 pages; 2.6.16 has no page migration, so one page that reclaim cannot
 * free (a slab page with one live object, a page table, a kernel stack, dirty
 * metadata held by the journal until commit and checkpoint, an anonymous page
 * with no swap) keeps the whole block.  The census walks a zone's frames block by
 * block and classifies each allocated or free block by its head page (the page
 * allocator keeps the order of an allocated block in its head; a free block's is
 * PG_buddy's order; a block of either kind may span several census blocks): reserved, kernel stack or page table (kobj.c tags their head
 * page's aux), other kernel page, slab page by cache (aux holds the cache id, as
 * SET_PAGE_CACHE does in 2.6.16 mm/slab.c), dirty or clean block-device metadata,
 * anonymous, dirty or clean file page, free.  Per block it records the kinds
 * present and the pinner: the first present kind in enum mm_census_kind's order,
 * the hardest to give back first.  A block-device page counts as journal when it
 * is dirty, under writeback or held by the journal (PG_journal, jbd.c).  Cost: one pass over the zone's
 * struct pages.  Also here, for the same evidence over time: the fragmentation
 * series and /proc/buddyinfo as series.
 */
#include "models/mm/census.h"

#include <stdio.h>
#include <string.h>

#include "emu/core/sim.h"
#include "models/alloc/alloc.h"
#include "models/mm/kobj.h"

const char *const mm_census_names[MM_CEN_NR] = {
	"reserved", "stack", "pagetable", "kernel", "slab", "slab_rclm", "journal",
	"anon", "metadata", "file_dirty", "file", "free",
};

enum mm_census_kind mm_census_kind(const struct mm_kernel *k, uint32_t pfn, unsigned *cache)
{
	const struct page *p = &k->phys.pages[pfn];
	*cache = 0;
	if (page_test(p, PG_buddy) || page_test(p, PG_pcp) || (p->count == 0 && !page_test(p, PG_reserved)))
		return MM_CEN_FREE;
	if (page_test(p, PG_reserved))
		return MM_CEN_RESERVED;
	if (page_test(p, PG_slab) && p->aux >= MM_KPAGE_SLAB &&
	    p->aux - MM_KPAGE_SLAB < (int)k->nkcaches) {
		*cache = p->aux - MM_KPAGE_SLAB;
		return k->kcache_rclm[*cache] ? MM_CEN_SLAB_RCLM : MM_CEN_SLAB;
	}
	if (page_test(p, PG_slab))
		return MM_CEN_SLAB;
	bool dirty = page_test(p, PG_dirty) || page_test(p, PG_writeback);
	if (page_test(p, PG_anon) || page_test(p, PG_swapcache))
		return MM_CEN_ANON;
	if (p->mapping && p->mapping <= (uint32_t)k->nfiles) {
		if (k->files[p->mapping - 1]->bdev)
			return dirty || page_test(p, PG_journal) ? MM_CEN_JOURNAL : MM_CEN_META;
		return dirty ? MM_CEN_FILE_DIRTY : MM_CEN_FILE;
	}
	if (p->aux == MM_KPAGE_STACK)
		return MM_CEN_STACK;
	if (p->aux == MM_KPAGE_PTE)
		return MM_CEN_PTE;
	return MM_CEN_KERNEL;
}

int mm_census_zone(const struct mm_kernel *k, int zone, unsigned order, struct mm_census *out)
{
	memset(out, 0, sizeof *out);
	if (zone < 0 || zone >= MM_NR_ZONES || order >= MM_MAX_ORDER)
		return -1;
	const struct zone *z = &k->phys.zones[zone];
	uint32_t bs = 1u << order, left = 0;
	unsigned cache = 0;
	enum mm_census_kind kind = MM_CEN_FREE;
	out->blocks = z->present ? z->spanned / bs : 0;
	uint32_t pfn = z->start_pfn, zend = z->start_pfn + out->blocks * bs;
	for (uint32_t b = 0; b < out->blocks; b++) {
		uint32_t end = pfn + bs;
		uint32_t n[MM_CEN_NR] = { 0 }, nc[MM_MAX_KCACHES] = { 0 };
		while (pfn < end) {
			if (!left) {   /* the next free or allocated block: its head says */
				const struct page *p = &k->phys.pages[pfn];
				kind = mm_census_kind(k, pfn, &cache);
				left = 1;
				if (page_test(p, PG_buddy) || (kind != MM_CEN_FREE && !page_test(p, PG_pcp)))
					left = 1u << p->order;
				if (left > zend - pfn)
					left = zend - pfn;
			}
			uint32_t take = left < end - pfn ? left : end - pfn;   /* it may span blocks */
			n[kind] += take;
			if (kind == MM_CEN_SLAB || kind == MM_CEN_SLAB_RCLM)
				nc[cache] += take;
			left -= take;
			pfn += take;
		}
		int pin = MM_CEN_FREE;
		for (int i = 0; i < MM_CEN_NR; i++) {
			out->pages[i] += n[i];
			if (n[i])
				out->in[i]++;
			if (n[i] && pin == MM_CEN_FREE)
				pin = i;
		}
		out->pin[pin]++;
		unsigned best = MM_MAX_KCACHES;
		for (unsigned c = 0; c < k->nkcaches; c++) {
			if (!nc[c])
				continue;
			out->slab_pages[c] += nc[c];
			out->slab_in[c]++;
			bool cls = k->kcache_rclm[c] == (pin == MM_CEN_SLAB_RCLM);
			if (cls && (best == MM_MAX_KCACHES || nc[c] > nc[best]))
				best = c;
		}
		if ((pin == MM_CEN_SLAB || pin == MM_CEN_SLAB_RCLM) && best < MM_MAX_KCACHES)
			out->slab_pin[best]++;
	}
	return 0;
}

/* Record census_@when_@zn_@what_@name = @v when @v is not 0. */
static void put(struct sim *s, const char *when, const char *zn, const char *what,
		const char *pre, const char *name, double v)
{
	char key[160];
	if (v == 0)
		return;
	snprintf(key, sizeof key, "census_%s_%s_%s_%s%s", when, zn, what, pre, name);
	sim_metric(s, key, v);
}

void mm_census_metrics(const struct mm_kernel *k, struct sim *s, const char *when, unsigned order)
{
	struct mm_census c;
	char zn[16], key[160];
	for (int j = 0; j < MM_NR_ZONES; j++) {
		if (!k->phys.zones[j].present || mm_census_zone(k, j, order, &c))
			continue;
		snprintf(zn, sizeof zn, "%s", k->phys.zones[j].name);
		for (char *q = zn; *q; q++)
			*q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
		snprintf(key, sizeof key, "census_%s_%s_blocks", when, zn);
		sim_metric(s, key, (double)c.blocks);
		for (int i = 0; i < MM_CEN_NR; i++) {
			put(s, when, zn, "pin", "", mm_census_names[i], (double)c.pin[i]);
			put(s, when, zn, "in", "", mm_census_names[i], (double)c.in[i]);
			put(s, when, zn, "pages", "", mm_census_names[i], (double)c.pages[i]);
		}
		for (unsigned i = 0; i < k->nkcaches; i++) {
			put(s, when, zn, "pin", "cache_", k->kcache_name[i], (double)c.slab_pin[i]);
			put(s, when, zn, "in", "cache_", k->kcache_name[i], (double)c.slab_in[i]);
			put(s, when, zn, "pages", "cache_", k->kcache_name[i], (double)c.slab_pages[i]);
		}
	}
}

void mm_frag_series(const struct mm_kernel *k, struct sim *s, double t, unsigned order)
{
	const struct mm_phys *ph = &k->phys;
	char key[64];
	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &ph->zones[j];
		if (!z->present)
			continue;
		uint64_t big = 0;
		for (unsigned o = order; o < alloc_max_order(ph->alloc); o++)
			big += (uint64_t)alloc_free_count(ph->alloc, z, o) << o;
		snprintf(key, sizeof key, "free_blocks_%s", z->name);
		sim_series_add(s, key, t, (double)(big >> order));
		snprintf(key, sizeof key, "unusable_index_%s", z->name);
		sim_series_add(s, key, t, z->free_pages ? 1.0 - (double)big / (double)z->free_pages : 0.0);
		snprintf(key, sizeof key, "frag_index_%s", z->name);
		sim_series_add(s, key, t, alloc_frag_index(ph->alloc, z, order));
	}
}

void mm_buddyinfo_series(const struct mm_kernel *k, struct sim *s, const char *when)
{
	json_t *bi = alloc_buddyinfo(&k->phys);
	const char *zn;
	json_t *arr;
	char key[64];
	json_object_foreach(bi, zn, arr) {
		snprintf(key, sizeof key, "buddyinfo_%s_%s", when, zn);
		for (size_t o = 0; o < json_array_size(arr); o++)
			sim_series_add(s, key, (double)o,
				       (double)json_integer_value(json_array_get(arr, o)));
	}
	json_decref(bi);
}
