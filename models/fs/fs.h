/*
 * fs.h - what the mm core asks of the file system: the one narrow link from
 * models/mm to models/fs.
 *
 * Linux's mm/filemap.c reaches a file system only through the address_space
 * operations (readpage, prepare_write, commit_write, ...) and the buffer-head
 * helpers of fs/buffer.c; here the page cache (filemap.c) and the kernel's
 * set-up and teardown (kernel.c, spinlock.c's metrics) call these functions and
 * include nothing else of models/fs.  Each is a no-op when the kernel has no such
 * file-system state (ext3 off, no page-cache objects).  Implemented in ext3.c
 * (ext3 metadata) and bufhead.c (buffer heads and radix-tree nodes).
 */
#ifndef MMEMU_FS_H
#define MMEMU_FS_H

#include <stdbool.h>
#include <stdint.h>

struct mm_kernel;
struct mm_task;
struct mm_file;
struct sim;

/* ---- ext3 (ext3.c) ---- */

/** mm_ext3_free_all() - free @k's ext3 state (its files are the kernel's). */
void mm_ext3_free_all(struct mm_kernel *k);

/** mm_ext3_metrics() - touch counts per buffer kind and commits. Returns: nothing. */
void mm_ext3_metrics(struct mm_kernel *k, struct sim *s);

/* no-ops when ext3 is off or @f is a block device: */
/** mm_ext3_map() - ext3_get_block of page @idx of @f: the indirect blocks on its
 * path (@alloc: ext3_new_block's bitmap and ext3_splice_branch's inode too). */
void mm_ext3_map(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx, bool alloc);
/** mm_ext3_size() - ext3_commit_write of page @idx past i_disksize: the inode block. */
void mm_ext3_size(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx);
/** mm_ext3_time() - update_atime (@write false) or inode_update_time (@write
 * true) of the file holding page @idx: its inode block, once per second per
 * file (1 s granularity). */
void mm_ext3_time(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		  bool write);
/** mm_ext3_truncate() - ext3_truncate freeing [@first, @first+@n) of @f. */
void mm_ext3_truncate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      uint32_t n);
/** mm_ext3_fsync() - ext3_sync_file: commit the running transaction of @f's disk. */
void mm_ext3_fsync(struct mm_kernel *k, struct mm_task *t, struct mm_file *f);

/* ---- dentries and inodes (dcache.c) ---- */

/** mm_dcache_free_all() - free k->dcache (called by mm_kernel_fini). */
void mm_dcache_free_all(struct mm_kernel *k);

/* ---- buffer heads and radix-tree nodes (bufhead.c) ---- */

/** mm_pcobj_free_all() - free @k's bookkeeping (called by mm_kernel_fini). */
void mm_pcobj_free_all(struct mm_kernel *k);

/* no-ops when k->pcobj is NULL: */
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
