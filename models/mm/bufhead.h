/*
 * bufhead.h - the lowmem kernel objects the page cache brings with it in 2.6.16:
 * buffer heads (fs/buffer.c) and radix-tree nodes (lib/radix-tree.c), as slab
 * objects of their own caches (models/mm/kobj.h) that live exactly as long as the
 * page-cache pages they describe.  See bufhead.c.  Enabled by a workload that
 * calls mm_pcobj_enable() (seed 003's highalloc); NULL: nothing changes.
 */
#ifndef MMEMU_BUFHEAD_H
#define MMEMU_BUFHEAD_H

#include <stdint.h>

#include "models/mm/kobj.h"

/* i386 2.6.16: struct buffer_head is 48 bytes + the slab's 4-byte bufctl: 78 a
 * page; struct radix_tree_node (RADIX_TREE_MAP_SHIFT 6) is 4 + 64*4 + 2*2*4 =
 * 276 bytes + 4: 14 a page. */
#define MM_BH_PER_SLAB 78
#define MM_RADIX_PER_SLAB 14
#define MM_RADIX_SHIFT 6
#define MM_RADIX_MAXLVL 6      /* 2^32 indices */

/* The radix tree of one file: per level (0 = leaves) the node of each range of
 * 64^(level+1) indices and the cached pages below it. */
struct mm_radix {
	int levels;
	uint32_t *node[MM_RADIX_MAXLVL];   /* slab pfn, PFN_NONE, or MM_PCOBJ_BUSY */
	uint32_t *count[MM_RADIX_MAXLVL];
};

struct mm_pcobj {
	struct mm_kcache bh, radix;
	uint32_t *bh_of;            /* [nr_pages] slab pfn of the page's buffer head */
	struct mm_radix tree[MM_MAX_FILES];
	uint64_t bh_live, nodes_live, failed;
};

#define MM_PCOBJ_BUSY (PFN_NONE - 1)   /* being allocated by a sleeping task */

/** mm_pcobj_enable() - give @k's page cache its buffer heads and radix-tree
 * nodes (both __GFP_KERNRCLM slab: kernel-mechanisms.md 4.1).  Call after the
 * workload's files exist, before any page is cached.
 * Returns: 0, or -1 when host memory ran out. */
int mm_pcobj_enable(struct mm_kernel *k);

/** mm_pcobj_free_all() - free @k's bookkeeping (called by mm_kernel_fini). */
void mm_pcobj_free_all(struct mm_kernel *k);

/* ---- called by filemap.c (no-ops when k->pcobj is NULL) ---- */

/** mm_pcobj_preload() - radix_tree_preload for page @idx of @f: the nodes on
 * its path that do not exist yet are allocated (may sleep). */
void mm_pcobj_preload(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx);
/** mm_pcobj_insert() - radix_tree_insert of page @idx of @f (after a preload;
 * never sleeps). */
void mm_pcobj_insert(struct mm_kernel *k, struct mm_file *f, uint32_t idx);
/** mm_pcobj_trim() - free the nodes on @idx's path that hold no page (a
 * preload whose insert did not happen; radix_tree_delete's freeing). */
void mm_pcobj_trim(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx);
/** mm_pcobj_bh() - create_empty_buffers on page @pfn (prepare_write of a file
 * page, getblk of a block-device page): one buffer head per 4 KiB block. */
void mm_pcobj_bh(struct mm_kernel *k, struct mm_task *t, uint32_t pfn);
/** mm_pcobj_remove() - the page @pfn at @idx of @f leaves the page cache
 * (truncate, reclaim): try_to_free_buffers and radix_tree_delete. */
void mm_pcobj_remove(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		     uint32_t pfn);

#endif
