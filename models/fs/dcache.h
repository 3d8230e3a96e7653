/*
 * dcache.h - the dentry and inode caches with their unused lists and their
 * shrinkers (2.6.16 fs/dcache.c prune_dcache, fs/inode.c prune_icache), on the
 * slab caches of models/mm/kobj.h.  See dcache.c.
 */
#ifndef MMEMU_DCACHE_H
#define MMEMU_DCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/mm/kobj.h"

#define MM_DENT_NONE UINT32_MAX

/* One file's (or directory's) name and inode: a dentry and an inode object
 * while cached. */
enum { MM_DL_UNUSED, MM_DL_DIRTY };   /* the two lists an entry may be on */
struct mm_dent {
	uint32_t dent, ino;        /* slab pfns, PFN_NONE when not allocated */
	/* links (ids): [MM_DL_UNUSED] on dentry_unused or inode_unused (and the
	 * free ids' list), [MM_DL_DIRTY] on the superblock's s_dirty */
	uint32_t prev[2], next[2];
	uint32_t parent;           /* the directory's id, MM_DENT_NONE: none modelled */
	uint32_t owner;            /* the creator's name for its data (mm_dentry_set_owner) */
	uint32_t children;         /* child dentries alive: each holds a reference */
	uint32_t users;            /* other references: open files (mm_dentry_get) */
	double dirtied_when;       /* when the inode became dirty */
	uint8_t state;             /* enum in dcache.c */
	bool referenced;           /* DCACHE_REFERENCED */
	bool lru;                  /* on dentry_unused (d_lru not empty) */
	bool dirty;                /* I_DIRTY: on s_dirty; off inode_unused once unused */
	bool negative;             /* a name that does not exist: a dentry, no inode */
};

struct mm_dlist {
	uint32_t head, tail;       /* head: most recently added */
	uint64_t n;
};

struct mm_dcache {
	struct mm_kcache dentry, inode;
	struct mm_dent *e;
	uint32_t n, cap, free;     /* entries, room, first free id */
	struct mm_dlist dunused, iunused, sdirty;
	uint64_t held;             /* unused inodes kept off inode_unused: dirty */
	uint64_t pruned_dentries, pruned_inodes, recreated;
	uint64_t dirtied, cleaned; /* inodes made dirty, cleaned by writeback */
	uint64_t held_max;         /* the most unused dirty inodes held at once */
	uint64_t negatives;        /* negative dentries made (again after a prune too) */
	uint64_t kept_for_pages;   /* prune_icache passes that left an inode for its pages */
	/* the inodes' page cache (mm_dcache_set_pages): invalidate the clean pages
	 * of @owner's data and return how many stay cached */
	uint32_t (*pages)(void *arg, struct mm_kernel *k, struct mm_task *t, uint32_t owner);
	void *pages_arg;
};

/* The geometry of a kernel's dentry and inode caches: objects per slab page
 * and the inode cache's name (the file system's). */
struct mm_dgeom {
	uint32_t dent_per_slab, ino_per_slab;
	const char *ino_cache;
};
/* i386 2.6.16 with ext3: 136-byte struct dentry (29 a page), ext3_inode_info of
 * about 560 bytes (7 a page); /proc/slabinfo of the era (workloads.md, HighAlloc). */
extern const struct mm_dgeom mm_dgeom_ext3_26;
/* i386 with ext2, for 2.5.25: 128-byte dentries (30 a page with the slab's
 * own descriptor) and 480-byte inodes (8 a page), from the slabinfo(5)
 * example (dentry_cache 5880 objects in 196 pages, inode_cache 14792 in 1849).
 * That example is a 2.4 kernel's generic inode_cache, whose struct inode held
 * every file system's part in a union; 2.5.25's own ext2_inode_cache size is
 * not measured.  An approximation, not a judgement constant: in seed 002
 * nothing is pruned and the figure only sets how many slab pages the objects
 * take (at most 1,247 of the 4 GiB's pages), so no verdict can turn on it. */
extern const struct mm_dgeom mm_dgeom_ext2_25;

/** mm_dcache_init() - empty dentry ("dentry_cache") and inode (@g->ino_cache)
 * caches of @g's objects a page (both __GFP_KERNRCLM); with @shrink, their
 * shrinkers are registered with @k (shrink_dcache_memory, shrink_icache_memory:
 * DEFAULT_SEEKS), and, when @k has vm.dirty_writeback, the dirty-inode writer
 * (mm_register_inode_sb).
 * Returns: 0, or -1 when host memory ran out or @k has no room for a shrinker. */
int mm_dcache_init(struct mm_dcache *d, struct mm_kernel *k, const struct mm_dgeom *g,
		   bool shrink);

/** mm_dcache_of() - the kernel's dentry and inode caches (k->dcache): one per
 * booted kernel, shared by every workload that creates or looks up files and
 * by every step of a chained run, so what one step leaves cached the next
 * step's reclaim prunes.  The first call makes them (mm_dcache_init with the
 * shrinkers, then enable_cpucache: mm_kcache_tune and mm_kcache_arrays on the
 * kernel's CPUs); a later call must ask for the same geometry.
 * Returns: the caches, or NULL with a one-line reason in @why (@n bytes: out
 * of memory, or which geometry the kernel's caches already have). */
struct mm_dcache *mm_dcache_of(struct mm_kernel *k, const struct mm_dgeom *g, char *why,
			       size_t n);

/** mm_dcache_fini() - free the bookkeeping (the slab pages stay allocated). */
void mm_dcache_fini(struct mm_dcache *d);

/** mm_dcache_set_pages() - how prune_icache reaches an inode's page cache:
 * @pages(@arg, k, t, owner) invalidates the clean pages of the data of the file
 * whose owner tag is @owner (invalidate_inode_pages) and returns the pages left.
 * Without it, or for an entry with no owner tag, an inode has no pages.  With
 * @pages NULL (the creator is done: a chain step ends) every owner tag is
 * cleared too, so a later creator's hook never sees them.
 * Returns: nothing. */
void mm_dcache_set_pages(struct mm_dcache *d,
			 uint32_t (*pages)(void *arg, struct mm_kernel *k, struct mm_task *t,
					   uint32_t owner),
			 void *arg);

/** mm_dentry_set_owner() - tag file @id with @owner, the creator's name for
 * its data (MM_DENT_NONE: none, the default).  Returns: nothing. */
void mm_dentry_set_owner(struct mm_dcache *d, uint32_t id, uint32_t owner);

/** mm_dentry_new() - a new file or directory in directory @parent (an id, or
 * MM_DENT_NONE: no directory modelled) (d_alloc + new_inode): dentry and inode;
 * the dentry holds a reference on its parent's while it lives, and goes on the
 * unused list once its creator is done with it (dput).  A pruned @parent is
 * made again first.
 * Returns: the file's id, or MM_DENT_NONE when an object could not be had. */
uint32_t mm_dentry_new(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d,
		       uint32_t parent);

/** mm_dentry_use() - an open of file *@id that reads or writes it: with *@id
 * MM_DENT_NONE the file is not cached yet, so its dentry and inode are made
 * in directory @parent (mm_dentry_new: d_alloc and iget of a file on disk, or
 * a creat) and *@id set to it; else it is looked up (mm_dentry_lookup: made
 * again once pruned).  Then its inode is dirtied (the read's atime, the
 * write's mtime, a new inode: mm_inode_dirty).
 * Returns: 0, or -1 when an object could not be had (*@id is left unchanged
 * if it was not cached). */
int mm_dentry_use(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t *id,
		  uint32_t parent);

/** mm_dentry_negative() - a lookup of a name that does not exist in directory
 * @parent (an id, or MM_DENT_NONE): d_alloc and d_add(dentry, NULL), a negative
 * dentry with no inode, which holds its parent and goes on dentry_unused like
 * any other; a later lookup of the name (mm_dentry_lookup) finds it, or makes
 * it again once prune_dcache has freed it.  mm_inode_dirty() ignores it.
 * Returns: the name's id, or MM_DENT_NONE when the dentry could not be had. */
uint32_t mm_dentry_negative(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d,
			    uint32_t parent);

/** mm_dentry_lookup() - path lookup of file @id: a cached dentry is left as it
 * is (2.6.16's lookup does not move it on the unused list); a pruned one is
 * made again (d_alloc, and iget of a pruned inode), its parents first.
 * Returns: 0, or -1 when an object could not be had. */
int mm_dentry_lookup(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id);

/** mm_inode_dirty() - __mark_inode_dirty of file @id's inode (an atime, mtime
 * or ctime update, a new inode): a clean cached inode becomes dirty at @t's
 * time and goes on s_dirty; while dirty, an unused inode is kept off
 * inode_unused (generic_forget_inode), so prune_icache cannot free it, until
 * writeback cleans it (__sync_single_inode puts it at inode_unused's head).
 * Nothing without vm.dirty_writeback (no writeback would clean it) or for an
 * entry that is not cached.  Returns: nothing. */
void mm_inode_dirty(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id);

/** mm_dentry_get() - path lookup of file @id (mm_dentry_lookup) and a
 * reference on its dentry (an open file's f_dentry): while referenced, a
 * dentry is in use, and prune_dcache takes it off dentry_unused instead of
 * freeing it.  Returns: 0, or -1 when the lookup failed (no reference taken). */
int mm_dentry_get(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id);

/** mm_dentry_put() - drop a reference mm_dentry_get() took (fput's dput): the
 * last one puts the dentry back at the head of dentry_unused, referenced, if
 * prune_dcache took it off.  Returns: nothing. */
void mm_dentry_put(struct mm_dcache *d, uint32_t id);

/** mm_dentry_delete() - unlink (rmdir) of file @id: its dentry and inode are
 * freed and @id may be reused.  A directory that still has child dentries, or
 * a file still referenced, is left alone (rm -rf removes the children first;
 * callers close before they unlink).  Returns: nothing. */
void mm_dentry_delete(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id);

struct sim;
/** mm_dcache_metrics() - the kernel's caches at the end of a run, when @d is
 * not NULL: dentries, inodes, dcache_slab_pages (their slab pages), and what
 * the shrinkers pruned since boot.  Returns: nothing. */
void mm_dcache_metrics(const struct mm_dcache *d, struct sim *s);

#endif
