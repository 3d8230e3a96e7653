/*
 * bufhead.c - buffer heads (2.6.16 fs/buffer.c) and radix-tree nodes (2.6.16
 * lib/radix-tree.c) of the page cache, as slab objects that live as long as the
 * pages they describe (see bufhead.h; kernel-mechanisms.md 4.1, 4.3a).
 *
 * Both are kernel allocations from ZONE_NORMAL whatever zone the page came from
 * (kmem_cache_alloc with the mapping's gfp mask less __GFP_HIGHMEM), so a
 * HighMem page cache of 1.5 GB keeps tens of MB of them in lowmem, scattered
 * over slab pages in the order the pages were cached and freed one by one in the
 * order reclaim (LRU order) takes the pages: long-lived objects pinning Normal's
 * blocks.  Their caches are __GFP_KERNRCLM ("dcache, icache, buffer heads,
 * radix-tree nodes", 4.1): mbuddy groups them in KERN blocks, zbuddy keeps them
 * out of ZONE_EASYRCLM.
 *  - Buffer heads: 4 KiB blocks, one buffer head per page.  ext3's prepare_write
 *    (block_prepare_write -> create_empty_buffers) attaches them to every page a
 *    write() fills, and __getblk (grow_buffers) to every block-device page; pages
 *    only read go through mpage_readpages, which maps contiguous blocks without
 *    buffers.  They are freed with the page (try_to_free_buffers in shrink_list
 *    and truncate_complete_page).
 *  - Radix-tree nodes: RADIX_TREE_MAP_SHIFT 6 (64 slots); a node exists while a
 *    page below it is cached (radix_tree_insert after radix_tree_preload,
 *    radix_tree_delete frees an emptied node).  Simplification: a file's tree
 *    has the height its size needs from the start (the kernel grows it with the
 *    largest index cached and 2.6.16 never shrinks it); the root is a node too.
 * Costs: kmem_cache_alloc/free's, charged in kobj.c (one page_op per object).
 */
#include "models/fs/bufhead.h"

#include <stdlib.h>
#include <string.h>

int mm_pcobj_enable(struct mm_kernel *k)
{
	if (k->pcobj)
		return 0;
	struct mm_pcobj *o = calloc(1, sizeof *o);
	if (!o)
		return -1;
	k->pcobj = o;
	if (mm_kcache_init(&o->bh, k, "buffer_head", MM_BH_PER_SLAB,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM) ||
	    mm_kcache_init(&o->radix, k, "radix_tree_node", MM_RADIX_PER_SLAB,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM))
		return -1;
	o->bh_of = malloc(k->phys.nr_pages * sizeof *o->bh_of);
	if (!o->bh_of)
		return -1;
	for (uint32_t i = 0; i < k->phys.nr_pages; i++)
		o->bh_of[i] = PFN_NONE;
	return 0;
}

void mm_pcobj_free_all(struct mm_kernel *k)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o)
		return;
	for (int f = 0; f < MM_MAX_FILES; f++)
		for (int l = 0; l < MM_RADIX_MAXLVL; l++) {
			free(o->tree[f].node[l]);
			free(o->tree[f].count[l]);
		}
	mm_kcache_fini(&o->bh);
	mm_kcache_fini(&o->radix);
	free(o->bh_of);
	free(o);
	k->pcobj = NULL;
}

/* @f's radix tree, its levels set up on first use.  Returns: NULL if host
 * memory ran out. */
static struct mm_radix *tree_of(struct mm_pcobj *o, const struct mm_file *f)
{
	struct mm_radix *r = &o->tree[f->id - 1];
	if (r->levels)
		return r;
	uint64_t span = 1;
	int levels = 0;
	do {
		span <<= MM_RADIX_SHIFT;
		uint32_t n = (uint32_t)((f->npages + span - 1) / span);
		if (n == 0)
			n = 1;
		r->node[levels] = malloc(n * sizeof *r->node[levels]);
		r->count[levels] = calloc(n, sizeof *r->count[levels]);
		if (!r->node[levels] || !r->count[levels])
			return NULL;
		for (uint32_t i = 0; i < n; i++)
			r->node[levels][i] = PFN_NONE;
		levels++;
	} while (span < f->npages && levels < MM_RADIX_MAXLVL);
	r->levels = levels;
	return r;
}

/* Free the object of slab page @pfn of @c (PFN_NONE: nothing). */
static void obj_free(struct mm_kernel *k, struct mm_task *t, struct mm_kcache *c, uint32_t pfn,
		     uint64_t *live)
{
	if (pfn == PFN_NONE || pfn == MM_PCOBJ_BUSY)
		return;
	mm_kobj_free(k, t, c, pfn);
	(*live)--;
}

/* The node of level @l above index @idx. */
static uint32_t node_idx(uint32_t idx, int l)
{
	return (uint32_t)((uint64_t)idx >> (MM_RADIX_SHIFT * (l + 1)));
}

void mm_pcobj_preload(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o)
		return;
	struct mm_radix *r = tree_of(o, f);
	if (!r) {
		o->failed++;
		return;
	}
	for (int l = r->levels - 1; l >= 0; l--) {   /* the root first, as the path is built */
		uint32_t n = node_idx(idx, l);
		if (r->node[l][n] != PFN_NONE)
			continue;   /* there, or being allocated by another task */
		r->node[l][n] = MM_PCOBJ_BUSY;
		uint32_t pfn = mm_kobj_alloc(k, t, &o->radix);   /* may sleep */
		if (pfn == PFN_NONE) {
			o->failed++;
			r->node[l][n] = PFN_NONE;
			continue;
		}
		o->nodes_live++;
		r->node[l][n] = pfn;
	}
}

void mm_pcobj_insert(struct mm_kernel *k, struct mm_file *f, uint32_t idx)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o || !o->tree[f->id - 1].levels)
		return;
	struct mm_radix *r = &o->tree[f->id - 1];
	for (int l = 0; l < r->levels; l++)
		r->count[l][node_idx(idx, l)]++;
}

void mm_pcobj_trim(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o)
		return;
	struct mm_radix *r = &o->tree[f->id - 1];
	uint32_t gone[MM_RADIX_MAXLVL];
	int ngone = 0;
	for (int l = 0; l < r->levels; l++) {   /* leaves first, as radix_tree_delete */
		uint32_t n = node_idx(idx, l);
		uint32_t node = r->node[l][n];
		if (r->count[l][n] > 0 || node == PFN_NONE || node == MM_PCOBJ_BUSY)
			continue;
		r->node[l][n] = PFN_NONE;
		gone[ngone++] = node;
	}
	for (int i = 0; i < ngone; i++)   /* the frees may sleep: the tree is consistent */
		obj_free(k, t, &o->radix, gone[i], &o->nodes_live);
}

void mm_pcobj_bh(struct mm_kernel *k, struct mm_task *t, uint32_t pfn)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o || o->bh_of[pfn] != PFN_NONE)
		return;
	struct page *p = &k->phys.pages[pfn];
	uint32_t mapping = p->mapping, index = p->index;
	o->bh_of[pfn] = MM_PCOBJ_BUSY;
	uint32_t bh = mm_kobj_alloc(k, t, &o->bh);   /* may sleep */
	if (bh == PFN_NONE) {
		o->failed++;
		o->bh_of[pfn] = PFN_NONE;
		return;
	}
	o->bh_live++;
	if (o->bh_of[pfn] != MM_PCOBJ_BUSY || p->mapping != mapping || p->index != index ||
	    mapping == 0) {
		/* the page left the page cache while we slept */
		if (o->bh_of[pfn] == MM_PCOBJ_BUSY)
			o->bh_of[pfn] = PFN_NONE;
		obj_free(k, t, &o->bh, bh, &o->bh_live);
		return;
	}
	o->bh_of[pfn] = bh;
}

void mm_pcobj_remove(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		     uint32_t pfn)
{
	struct mm_pcobj *o = k->pcobj;
	if (!o)
		return;
	uint32_t bh = o->bh_of[pfn];
	o->bh_of[pfn] = PFN_NONE;
	struct mm_radix *r = &o->tree[f->id - 1];
	for (int l = 0; l < r->levels; l++) {
		uint32_t n = node_idx(idx, l);
		if (r->count[l][n] > 0)
			r->count[l][n]--;
	}
	obj_free(k, t, &o->bh, bh, &o->bh_live);
	mm_pcobj_trim(k, t, f, idx);
}
