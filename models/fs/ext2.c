/*
 * ext2.c - the metadata side of an ext2 file system of 2002 (2.5.25 fs/ext2/dir.c,
 * ialloc.c, balloc.c, fs/namei.c, fs/dcache.c), as cost points on the mm core
 * (see ext2.h).
 *
 * What is modelled: path_walk() takes the global dcache_lock for every cached
 * component lookup (d_lookup; dput is an atomic_dec_and_lock that rarely takes
 * it), so every open, stat, create and unlink of every CPU goes through one lock
 * line; directory pages live in the page cache of the directory inode and
 * ext2_get_page() maps them with kmap() (the 2002 patch left this path alone), so
 * every directory search, create, unlink and rename maps a directory page through
 * the kernel's kmap module; entries are added and removed with
 * prepare_write/commit_write (a small mm_file_write: kmap, copy, dirty page).
 * With vm.fs_locking "2.5.25" the kernel's other ext2 and VFS locks of that
 * release: lock_super (sb->s_lock, a semaphore: a contended task sleeps) around
 * each ext2_new_block(), each ext2_free_blocks() run, ext2_new_inode() and
 * ext2_free_inode() (2.4 and 2.5 fs/ext2/balloc.c and ialloc.c, until the
 * per-group locks of 2.5.6x), the global inode_lock when new_inode() or the
 * last iput() links or unlinks the inode, and the big kernel lock where 2.5.25
 * still took it on a dbench path (ext2_bkl_lock: ext2_readdir, removed in
 * 2.5.66; inode_setattr around vmtruncate, removed in 2.5.66; posix_lock_file;
 * LKML, Tomas 2003-03 and the 2.5.65-mm4 changelog; a spinlock that schedule()
 * drops, so it is not held across a disk read).  With "2.6" those paths cost the same
 * cycles and take no lock (2.6's per-group spinlocks are not modelled).
 * What is not: inode tables, block bitmaps and buffer heads are lowmem buffers
 * whose work is charged (inode, block cycles) but whose pages are not allocated;
 * the big kernel lock on ext2's directory operations and ext2_delete_inode
 * (whether 2.5.25 still took it there is not established);
 * inode_lock on mark_inode_dirty (the model keeps no per-inode dirty state);
 * there is no journal (ext2).
 * Line ownership (on a machine that declares costs.line_transfer): lock_super
 * and inode_lock move the lines their holders write (ext2_init), and every walk
 * writes the start dentry's line; the other dentries a walk finds are not
 * modelled one by one (a client's own directories are its CPU's, but tasks
 * migrate).
 */
#include "models/fs/ext2.h"

#include <string.h>

#include "emu/core/sim.h"
#include "models/kmap/kmap.h"
#include "models/mm/page.h"

static bool locks_2525(const struct mm_kernel *k)
{
	return k->cfg.fs_locking == MM_FS_LOCKS_2525 && !k->untimed;
}

void ext2_init(struct ext2_fs *fs, const struct ext2_costs *c)
{
	memset(fs, 0, sizeof *fs);
	fs->c = *c;
	mm_spin_init(&fs->dcache_lock);
	mm_spin_init(&fs->lock_super);
	fs->lock_super.sleeps = true;
	mm_spin_init(&fs->inode_lock);
	mm_spin_init(&fs->bkl);
	/* with line ownership on (machine costs.line_transfer): what the holders
	 * write beside the lock word.  lock_super (2.5.25 balloc.c, ialloc.c): the
	 * superblock buffer's free counts (es->s_free_blocks_count and
	 * s_free_inodes_count, one line), sb->s_dirt, the group descriptor's counts,
	 * the bitmap's line (consecutive allocations stay on one).  inode_lock
	 * (fs/inode.c): the inode_in_use list head and inodes_stat, unaligned
	 * globals whose placement is not known: taken as two lines, a judgement
	 * (1 .. 2; seed 002's inode_lock is never contended, so its hand-offs
	 * are rare and the count moves no verdict).  dcache_lock is cacheline-aligned alone and
	 * d_lookup writes only the dentry it finds. */
	for (int i = 0; i < 4; i++)
		fs->lock_super.guard[fs->lock_super.nguard++] = &fs->sb_line[i];
	for (int i = 0; i < 2; i++)
		fs->inode_lock.guard[fs->inode_lock.nguard++] = &fs->inode_line[i];
}

void ext2_fini(struct ext2_fs *fs)
{
	mm_spin_destroy(&fs->dcache_lock);
	mm_spin_destroy(&fs->lock_super);
	mm_spin_destroy(&fs->inode_lock);
	mm_spin_destroy(&fs->bkl);
}

void ext2_walk(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, int components)
{
	fs->walks++;
	/* path_init's dget of the start dentry (the shared working directory of
	 * the workload's tasks) and path_release's dput: an atomic on its d_count
	 * line, from the CPU that walked last */
	if (k->page_line)
		mm_line_write(t, &fs->cwd_line, &k->guard_coh);
	for (int i = 0; i < components; i++) {
		mm_spin_lock(k, t, &fs->dcache_lock);
		mm_charge(t, fs->c.lookup);
		mm_spin_unlock(k, t, &fs->dcache_lock);
		mm_charge(t, k->costs->atomic);   /* dget / dput */
		fs->components++;
	}
}

/* Directory page @idx of @dir in the page cache, read in if it is not.
 * Returns: its pfn, or PFN_NONE past the directory or when it cannot be read. */
static uint32_t dir_page(struct mm_kernel *k, struct mm_task *t, struct mm_file *dir, uint32_t idx)
{
	if (idx >= dir->npages)
		return PFN_NONE;
	if (dir->pfn[idx] == PFN_NONE && mm_file_read_pages(k, t, dir, idx, 1) < 0)
		return PFN_NONE;
	return dir->pfn[idx];
}

/* ext2_find_entry's scan of the cached directory page @pfn: kmap(), search. */
static void dir_scan(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, uint32_t pfn)
{
	struct page *p = &k->phys.pages[pfn];
	bool high = page_test(p, PG_highmem);
	fs->dir_kmaps++;
	if (high)
		kmap_map(k->kmap, t, pfn);
	mm_charge(t, fs->c.dir_scan);
	if (high)
		kmap_unmap(k->kmap, t, pfn);
}

int ext2_dir_search(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs,
		    struct mm_file *dir, uint32_t idx)
{
	uint32_t pfn = dir_page(k, t, dir, idx);
	if (pfn == PFN_NONE)
		return -1;
	dir_scan(k, t, fs, pfn);
	return 0;
}

void ext2_bkl_lock(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	if (locks_2525(k))
		mm_spin_lock(k, t, &fs->bkl);
}

void ext2_bkl_unlock(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	if (locks_2525(k))
		mm_spin_unlock(k, t, &fs->bkl);
}

int ext2_readdir(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, struct mm_file *dir,
		 uint32_t idx)
{
	/* a read from disk sleeps, and schedule() drops the big kernel lock: the
	 * lock covers the search of the cached page */
	uint32_t pfn = dir_page(k, t, dir, idx);
	if (pfn == PFN_NONE)
		return -1;
	ext2_bkl_lock(k, t, fs);
	dir_scan(k, t, fs, pfn);
	ext2_bkl_unlock(k, t, fs);
	return 0;
}

void ext2_dir_change(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs,
		     struct mm_file *dir, uint32_t idx, struct mm_read_stats *st)
{
	fs->dir_writes++;
	if (ext2_dir_search(k, t, fs, dir, idx))
		return;
	/* one 32-byte entry (ext2_dir_entry_2 with a short name) */
	mm_file_write(k, t, dir, (uint64_t)idx * k->phys.page_size, 32, st);
	ext2_inode_op(k, t, fs);   /* the directory inode's mtime */
}

void ext2_inode_op(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	(void)k;
	fs->inodes++;
	mm_charge(t, fs->c.inode);
}

/* The inode bitmap's work (c.inode) under lock_super, then the inode hash and
 * list under inode_lock: new_inode()/iput() link or unlink the inode on
 * inode_in_use and its hash chain, two list neighbours' lines. */
static void inode_alloc_free(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	if (!locks_2525(k)) {
		ext2_inode_op(k, t, fs);
		return;
	}
	fs->inodes++;
	mm_spin_lock(k, t, &fs->lock_super);
	mm_charge(t, fs->c.inode);
	mm_spin_unlock(k, t, &fs->lock_super);
	mm_spin_lock(k, t, &fs->inode_lock);
	mm_charge(t, 2 * k->costs->page_op);
	mm_spin_unlock(k, t, &fs->inode_lock);
}

void ext2_inode_new(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	inode_alloc_free(k, t, fs);
}

void ext2_inode_free(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs)
{
	inode_alloc_free(k, t, fs);
}

void ext2_blocks_alloc(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, uint64_t n)
{
	fs->blocks += n;
	if (!locks_2525(k)) {
		mm_charge(t, (double)n * fs->c.block);
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		mm_spin_lock(k, t, &fs->lock_super);
		mm_charge(t, fs->c.block);
		mm_spin_unlock(k, t, &fs->lock_super);
	}
}

void ext2_blocks_free(struct mm_kernel *k, struct mm_task *t, struct ext2_fs *fs, uint64_t n)
{
	fs->blocks += n;
	if (!locks_2525(k)) {
		mm_charge(t, (double)n * fs->c.block);
		return;
	}
	mm_spin_lock(k, t, &fs->lock_super);
	mm_charge(t, (double)n * fs->c.block);
	mm_spin_unlock(k, t, &fs->lock_super);
}

void ext2_metrics(struct ext2_fs *fs, struct sim *s)
{
	sim_metric(s, "dcache_lock_acquisitions", (double)fs->dcache_lock.acquisitions);
	sim_metric(s, "dcache_lock_contended", (double)fs->dcache_lock.contended);
	sim_metric(s, "dcache_lock_wait_s", fs->dcache_lock.wait_s);
	sim_metric(s, "dcache_lock_hold_s", fs->dcache_lock.hold_s);
	if (fs->lock_super.acquisitions || fs->inode_lock.acquisitions || fs->bkl.acquisitions) {
		sim_metric(s, "bkl_acquisitions", (double)fs->bkl.acquisitions);
		sim_metric(s, "bkl_contended", (double)fs->bkl.contended);
		sim_metric(s, "bkl_wait_s", fs->bkl.wait_s);
		sim_metric(s, "bkl_hold_s", fs->bkl.hold_s);
		sim_metric(s, "lock_super_acquisitions", (double)fs->lock_super.acquisitions);
		sim_metric(s, "lock_super_contended", (double)fs->lock_super.contended);
		sim_metric(s, "lock_super_wait_s", fs->lock_super.wait_s);
		sim_metric(s, "inode_lock_acquisitions", (double)fs->inode_lock.acquisitions);
		sim_metric(s, "inode_lock_contended", (double)fs->inode_lock.contended);
		sim_metric(s, "inode_lock_wait_s", fs->inode_lock.wait_s);
	}
	sim_metric(s, "fs_path_walks", (double)fs->walks);
	sim_metric(s, "fs_dir_kmaps", (double)fs->dir_kmaps);
	sim_metric(s, "fs_dir_writes", (double)fs->dir_writes);
	sim_metric(s, "fs_inode_ops", (double)fs->inodes);
	sim_metric(s, "fs_blocks", (double)fs->blocks);
}
