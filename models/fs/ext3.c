/*
 * ext3.c - the metadata buffers of 2.6.10's ext3 (fs/ext3/inode.c, balloc.c,
 * ialloc.c, fs/jbd/commit.c, fs/buffer.c) as page-cache pages touched through
 * touch_buffer() (see ext3.h).
 *
 * Every sb_bread / sb_getblk / __getblk of a buffer goes through
 * __find_get_block(), which calls touch_buffer() -> mark_page_accessed() on the
 * buffer's page (kernel-mechanisms.md 1.2 lists touch_buffer among
 * mark_page_accessed's callers; 2.1: the batched kernel queues every call on its
 * per-CPU pagevec).  The pages are the block device's page cache, allocated
 * GFP_USER (bdget sets the mapping's gfp mask), so they are lowmem (ZONE_NORMAL
 * on i386) while file data is highmem: a pagevec mixing both re-takes lru_lock
 * at each zone change.  What each operation touches (2.6.10, ordered mode):
 *  - ext3_get_block of data block n (readpage, prepare_write of an unmapped
 *    page): ext3_get_branch reads the indirect blocks on the path: none for
 *    n < 12, the indirect block for n < 12 + 1024, the double-indirect and one
 *    indirect block above (4 KiB blocks, 1024 addresses each);
 *  - allocating it (ext3_new_block): the block bitmap of the block's group
 *    (read_block_bitmap, groups of 32768 blocks = 128 MiB) and the inode block
 *    (ext3_splice_branch -> ext3_mark_inode_dirty -> ext3_get_inode_loc);
 *  - ext3_commit_write past i_disksize, update_atime and inode_update_time (at
 *    the file system's 1 s time granularity: once per second per file): the
 *    inode block (128-byte inodes, 32 per block);
 *  - ext3_truncate: the inode block twice (ext3_orphan_add and the final
 *    ext3_mark_inode_dirty), the bitmap of the first freed block's group, the
 *    indirect blocks on the path of the last freed block;
 *  - fsync (ext3_sync_file -> journal commit) of a non-empty transaction: the
 *    descriptor block and the commit block, new journal blocks taken with
 *    __getblk (journal_get_descriptor_buffer; the logged copies reuse the
 *    metadata's own pages).  The journal is 32 MiB (8192 blocks), circular.
 * Not modelled: the metadata's writeback and the journal's I/O (the pages are
 * never dirtied; fsync writes the file's data only), kjournald's 5 s commits,
 * directory blocks (the workloads' files exist from the start), group
 * descriptors and the superblock (pinned buffers: no touch).  The layout of a
 * disk's mapping: bitmaps, the inode table block, 64 indirect slots per file,
 * the journal.
 */
#include "models/fs/ext3.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/engine.h>

#include "emu/core/sim.h"

#define EXT3_GROUP_BYTES (UINT64_C(32768) * 4096)   /* blocks per group x block size */
#define EXT3_INODES_PER_BLOCK 32                     /* 4096 / 128-byte inodes */
#define EXT3_NDIR 12                                 /* direct block pointers */
#define EXT3_ADDR_PER_BLOCK 1024                     /* 4096 / 4-byte block numbers */
#define EXT3_IND_SLOTS 64                            /* indirect blocks per mm_file */
#define EXT3_INODES_PER_FILE 2048                    /* inodes per mm_file (members) */
#define EXT3_JOURNAL_BLOCKS 8192                     /* 32 MiB journal */

const char *const mm_fs_names[] = { "none", "ext3", NULL };

/* First pages of each region of a disk's mapping. */
static uint32_t inode_base(const struct mm_ext3 *x, int d)
{
	return x->groups[d];
}
static uint32_t ind_base(const struct mm_ext3 *x, int d)
{
	return inode_base(x, d) + MM_MAX_FILES * EXT3_INODES_PER_FILE / EXT3_INODES_PER_BLOCK;
}
static uint32_t journal_base(const struct mm_ext3 *x, int d)
{
	return ind_base(x, d) + MM_MAX_FILES * EXT3_IND_SLOTS;
}

int mm_ext3_enable(struct mm_kernel *k, const char *file, const char *path, struct mm_err *e)
{
	if (k->ext3)
		return 0;
	struct mm_ext3 *x = calloc(1, sizeof *x);
	if (!x)
		return mm_errf(e, file, path, "out of memory");
	k->ext3 = x;
	const struct machine_cfg *m = k->s->machine;
	for (int d = 0; d < m->ndisks; d++) {
		uint64_t g = (m->disks[d].size + EXT3_GROUP_BYTES - 1) / EXT3_GROUP_BYTES;
		x->groups[d] = (uint32_t)(g ? g : 1);
		uint32_t n = journal_base(x, d) + EXT3_JOURNAL_BLOCKS;
		char name[32];
		snprintf(name, sizeof name, "bdev-%d", d);
		x->meta[d] = mm_file_create(k, name, (uint64_t)n * k->phys.page_size, d, 0);
		x->in_trans[d] = calloc(n, sizeof *x->in_trans[d]);
		if (!x->meta[d] || !x->in_trans[d])
			return mm_errf(e, file, path,
				       "no room for disk %d's ext3 metadata mapping (at most %d files per kernel)",
				       d, MM_MAX_FILES);
		x->meta[d]->bdev = true;
		x->trans[d] = 1;
	}
	for (int i = 0; i < k->nfiles; i++)
		if (!k->files[i]->bdev && mm_ext3_members(k, k->files[i], 0))
			return mm_errf(e, file, path, "out of memory");
	return 0;
}

int mm_ext3_members(struct mm_kernel *k, struct mm_file *f, uint64_t bytes)
{
	struct mm_ext3 *x = k->ext3;
	if (!x)
		return 0;
	uint64_t ps = k->phys.page_size;
	uint32_t mp = bytes ? (uint32_t)((bytes + ps - 1) / ps) : 0;
	uint32_t n = mp ? (f->npages + mp - 1) / mp : 1;
	if (n == 0)
		n = 1;
	int64_t *a = malloc(n * sizeof *a), *m = malloc(n * sizeof *m);
	if (!a || !m) {
		free(a);
		free(m);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		a[i] = m[i] = -1;
	free(x->atime[f->id]);
	free(x->mtime[f->id]);
	x->atime[f->id] = a;
	x->mtime[f->id] = m;
	x->member_pages[f->id] = mp;
	x->nmembers[f->id] = n;
	return 0;
}

void mm_ext3_free_all(struct mm_kernel *k)
{
	if (!k->ext3)
		return;
	for (int d = 0; d < MACHINE_MAX_DISKS; d++)
		free(k->ext3->in_trans[d]);
	for (int i = 0; i <= MM_MAX_FILES; i++) {
		free(k->ext3->atime[i]);
		free(k->ext3->mtime[i]);
	}
	free(k->ext3);
	k->ext3 = NULL;
}

void mm_ext3_metrics(struct mm_kernel *k, struct sim *s)
{
	static const char *const names[EXT3_NBUF] = { "ext3_bitmap_touches", "ext3_inode_touches",
						      "ext3_indirect_touches", "ext3_journal_touches" };
	if (!k->ext3)
		return;
	for (int i = 0; i < EXT3_NBUF; i++)
		sim_metric(s, names[i], (double)k->ext3->touches[i]);
	sim_metric(s, "ext3_commits", (double)k->ext3->commits);
}

/* The ext3 state if @f is a data file on ext3, else NULL. */
static struct mm_ext3 *on_ext3(struct mm_kernel *k, const struct mm_file *f)
{
	return k->ext3 && !f->bdev && f->disk >= 0 && f->disk < k->s->machine->ndisks &&
			       k->ext3->atime[f->id]
		       ? k->ext3
		       : NULL;
}

/* Which of @f's member files holds page @idx (0: @f is one file). */
static uint32_t member(const struct mm_ext3 *x, const struct mm_file *f, uint32_t idx)
{
	uint32_t mp = x->member_pages[f->id];
	uint32_t m = mp ? idx / mp : 0;
	return m < x->nmembers[f->id] ? m : x->nmembers[f->id] - 1;
}

/* touch_buffer() on metadata page @blk of @f's disk; @dirty: the buffer is
 * modified (journal_dirty_metadata: it joins the running transaction). */
static void touch(struct mm_kernel *k, struct mm_task *t, const struct mm_file *f, uint32_t blk,
		  enum ext3_buf kind, bool dirty)
{
	struct mm_ext3 *x = k->ext3;
	int d = f->disk;
	x->touches[kind]++;
	mm_file_getblk(k, t, x->meta[d], blk, kind != EXT3_JOURNAL);
	if (dirty && x->in_trans[d][blk] != x->trans[d]) {
		x->in_trans[d][blk] = x->trans[d];
		x->trans_blocks[d]++;
	}
}

static void touch_inode(struct mm_kernel *k, struct mm_task *t, const struct mm_file *f,
			uint32_t idx)
{
	uint32_t m = member(k->ext3, f, idx);
	uint32_t ino = (f->id - 1) * EXT3_INODES_PER_FILE +
		       (m < EXT3_INODES_PER_FILE ? m : EXT3_INODES_PER_FILE - 1);
	uint32_t b = inode_base(k->ext3, f->disk) + ino / EXT3_INODES_PER_BLOCK;
	touch(k, t, f, b, EXT3_INODE, true);
}

/* The indirect blocks on the path of page @idx (ext3_block_to_path of its
 * block in its member file).  A member file has three slots: its indirect
 * block, its double-indirect block and one indirect block under that (members
 * beyond 21 share slots, blocks beyond 4 MiB + 48 KiB share the last). */
static void touch_path(struct mm_kernel *k, struct mm_task *t, const struct mm_file *f,
		       uint32_t idx, bool dirty)
{
	struct mm_ext3 *x = k->ext3;
	uint32_t mp = x->member_pages[f->id], blk = mp ? idx % mp : idx;
	if (blk < EXT3_NDIR)
		return;
	uint32_t b = ind_base(x, f->disk) + (f->id - 1) * EXT3_IND_SLOTS +
		     member(x, f, idx) % (EXT3_IND_SLOTS / 3) * 3;
	if (blk < EXT3_NDIR + EXT3_ADDR_PER_BLOCK) {
		touch(k, t, f, b, EXT3_INDIRECT, dirty);
		return;
	}
	touch(k, t, f, b + 1, EXT3_INDIRECT, dirty);   /* the double-indirect block */
	touch(k, t, f, b + 2, EXT3_INDIRECT, dirty);
}

/* The block bitmap of the group holding page @idx of @f. */
static void touch_bitmap(struct mm_kernel *k, struct mm_task *t, const struct mm_file *f,
			 uint32_t idx)
{
	uint64_t g = (f->disk_off + (uint64_t)idx * k->phys.page_size) / EXT3_GROUP_BYTES;
	uint32_t ng = k->ext3->groups[f->disk];
	touch(k, t, f, g < ng ? (uint32_t)g : ng - 1, EXT3_BITMAP, true);
}

void mm_ext3_map(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx, bool alloc)
{
	if (!on_ext3(k, f))
		return;
	touch_path(k, t, f, idx, alloc);
	if (!alloc)
		return;
	touch_bitmap(k, t, f, idx);
	touch_inode(k, t, f, idx);
}

void mm_ext3_size(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx)
{
	if (on_ext3(k, f))
		touch_inode(k, t, f, idx);
}

void mm_ext3_time(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t idx,
		  bool write)
{
	struct mm_ext3 *x = on_ext3(k, f);
	if (!x)
		return;
	/* the task's own time: a task that looks ahead is past the clock */
	int64_t sec = (int64_t)floor(t ? tm_now(&t->tm) : simgrid_get_clock());
	int64_t *last = &(write ? x->mtime : x->atime)[f->id][member(x, f, idx)];
	if (*last == sec)
		return;
	*last = sec;
	touch_inode(k, t, f, idx);
}

void mm_ext3_truncate(struct mm_kernel *k, struct mm_task *t, struct mm_file *f, uint32_t first,
		      uint32_t n)
{
	if (!on_ext3(k, f) || n == 0)
		return;
	touch_inode(k, t, f, first);   /* ext3_orphan_add */
	touch_path(k, t, f, first + n - 1, true);
	touch_bitmap(k, t, f, first);
	touch_inode(k, t, f, first);   /* the final ext3_mark_inode_dirty */
}

void mm_ext3_fsync(struct mm_kernel *k, struct mm_task *t, struct mm_file *f)
{
	struct mm_ext3 *x = on_ext3(k, f);
	if (!x)
		return;
	int d = f->disk;
	if (x->trans_blocks[d] == 0)
		return;   /* nothing logged: no commit */
	uint32_t jb = journal_base(x, d);
	touch(k, t, f, jb + x->jhead[d], EXT3_JOURNAL, false);   /* descriptor */
	x->jhead[d] = (x->jhead[d] + 1 + x->trans_blocks[d]) % EXT3_JOURNAL_BLOCKS;
	touch(k, t, f, jb + x->jhead[d], EXT3_JOURNAL, false);   /* commit block */
	x->jhead[d] = (x->jhead[d] + 1) % EXT3_JOURNAL_BLOCKS;
	x->trans_blocks[d] = 0;
	x->trans[d]++;
	x->commits++;
}
