/*
 * ext2.h - an ext2-like file system's metadata costs on the mm core (ext2.c):
 * the dentry cache walk under the global dcache_lock, directory pages in the page
 * cache mapped with kmap() to be searched or changed, inode and block-bitmap work
 * in lowmem buffers.  File data is the caller's: page-cache files (filemap.c).
 */
#ifndef MMEMU_EXT2_H
#define MMEMU_EXT2_H

#include <stdint.h>

#include "emu/core/params.h"
#include "models/mm/kernel.h"

struct ext2_costs {
	double lookup;             /* d_lookup of one path component (hash chain), cycles */
	double dir_scan;           /* ext2_find_entry's scan of one directory page, cycles */
	double inode;              /* ext2_new_inode / ext2_free_inode / mark_inode_dirty, cycles */
	double block;              /* ext2_new_block / free of one block (bitmap buffer), cycles */
};

/* The cost parameters, one MM_PARAM block for every workload that uses the
 * model (dbench, aim9, untar): EXT2_COST_PARAMS(T, f) inside the workload's
 * table, where f is T's struct ext2_costs member; EXT2_BLOCK_PARAM(T, f) too
 * for a workload that allocates data blocks (ext2_blocks). */
#define EXT2_COST_PARAMS(T, f)                                                                  \
	MM_PARAM(T, f.lookup, "lookup_cycles", MM_P_DOUBLE, 0, 1e7, "300",                      \
		 "ext2 model: cycles of one cached path-component lookup under dcache_lock "    \
		 "(calibration on dbench)"),                                                    \
	MM_PARAM(T, f.dir_scan, "dir_scan_cycles", MM_P_DOUBLE, 0, 1e8, "1500",                 \
		 "ext2 model: cycles to scan one directory page (calibration on dbench)"),      \
	MM_PARAM(T, f.inode, "inode_cycles", MM_P_DOUBLE, 0, 1e8, "3000",                       \
		 "ext2 model: cycles of an inode allocation, free or update (calibration on "   \
		 "dbench)")
#define EXT2_BLOCK_PARAM(T, f)                                                                  \
	MM_PARAM(T, f.block, "block_cycles", MM_P_DOUBLE, 0, 1e8, "500",                        \
		 "ext2 model: cycles to allocate or free one data block (calibration on dbench)")

struct ext2_fs {
	struct ext2_costs c;
	struct mm_spinlock dcache_lock;   /* 2.5.25: one global spinlock for the dcache */
	struct mm_spinlock lock_super;    /* vm.fs_locking 2.5.25: sb->s_lock, a semaphore */
	struct mm_spinlock inode_lock;    /* vm.fs_locking 2.5.25: the global inode_lock */
	struct mm_spinlock bkl;           /* vm.fs_locking 2.5.25: the big kernel lock, on
					     the paths 2.5.25 still took it (ext2.c) */
	/* the shared lines the paths write, with the kernel's data lines on (ext2.c) */
	struct coh_line sb_line[4];       /* lock_super guards them */
	struct coh_line inode_line[2];    /* inode_lock guards them */
	struct coh_line cwd_line;         /* the start dentry's d_count */
	uint64_t walks, components, dir_kmaps, dir_writes, inodes, blocks;
};

/** ext2_init() - set up @fs with costs @c (inside a simulation). Returns: nothing. */
void ext2_init(struct ext2_fs *fs, const struct ext2_costs *c);
/** ext2_fini() - free @fs's SimGrid objects (no actor left). Returns: nothing. */
void ext2_fini(struct ext2_fs *fs);

/**
 * ext2_walk() - path_walk() of @components components by @t: one d_lookup each
 * under dcache_lock (2.5.25 took it per cached lookup), dput an atomic.
 * Returns: nothing.
 */
void ext2_walk(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, int components);

/**
 * ext2_bkl_lock() - lock_kernel() on a path 2.5.25 still took it (with
 * vm.fs_locking "2.5.25"; nothing otherwise).  Returns: nothing.
 */
void ext2_bkl_lock(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs);
/** ext2_bkl_unlock() - unlock_kernel() after ext2_bkl_lock().  Returns: nothing. */
void ext2_bkl_unlock(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs);

/**
 * ext2_readdir() - ext2_readdir() of directory page @idx of @dir: the page read
 * in if it is not cached, then searched as ext2_dir_search() under the big
 * kernel lock with vm.fs_locking "2.5.25".  Returns: 0, or -1 if @idx is past
 * the directory or the page cannot be read.
 */
int ext2_readdir(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, struct mm_file *dir,
		 uint32_t idx);

/**
 * ext2_dir_search() - ext2_find_entry() in directory page @idx of @dir (a
 * page-cache file): the page is read in if missing, mapped with kmap() (a highmem
 * page goes through the kmap module in every kernel of 2002) and scanned.
 * Returns: 0, or -1 if the page could not be read (OOM).
 */
int ext2_dir_search(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs,
		    struct mm_file *dir, uint32_t idx);

/**
 * ext2_dir_change() - ext2_add_link / ext2_delete_entry: a directory entry
 * written into page @idx of @dir through prepare_write/commit_write (kmap, the
 * write, the page dirtied: mm_file_write), after the search for the slot.
 * Returns: nothing.
 */
void ext2_dir_change(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs,
		     struct mm_file *dir, uint32_t idx, struct mm_read_stats *st);

/** ext2_inode_op() - an inode dirtied (mark_inode_dirty). Returns: nothing. */
void ext2_inode_op(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs);

/**
 * ext2_inode_new() - ext2_new_inode() + new_inode(): the inode bitmap's work
 * under lock_super and the inode list under inode_lock (vm.fs_locking 2.5.25;
 * with 2.6 the same cycles, no lock).  Returns: nothing.
 */
void ext2_inode_new(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs);

/** ext2_inode_free() - the last iput(): ext2_free_inode() as ext2_inode_new(). Returns: nothing. */
void ext2_inode_free(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs);

/**
 * ext2_blocks_alloc() - @n data blocks allocated, one ext2_new_block() each
 * (each under lock_super with vm.fs_locking 2.5.25).  Returns: nothing.
 */
void ext2_blocks_alloc(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, uint64_t n);

/**
 * ext2_blocks_free() - a run of @n contiguous blocks freed by one
 * ext2_free_blocks() (one lock_super hold with vm.fs_locking 2.5.25).
 * Returns: nothing.
 */
void ext2_blocks_free(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, uint64_t n);

/** ext2_metrics() - dcache_lock counters and the operation counts. Returns: nothing. */
void ext2_metrics(struct ext2_fs *fs, struct sim *s);

#endif
