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

#include "models/fs/fs.h"
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

#endif
