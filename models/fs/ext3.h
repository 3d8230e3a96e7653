/*
 * ext3.h - ext3's metadata buffers as page-cache pages (ext3.c): the block
 * bitmaps, inode table blocks, indirect blocks and journal blocks that 2.6.10's
 * ext3 reaches through sb_bread / sb_getblk / __getblk, each of which calls
 * touch_buffer() -> mark_page_accessed() on the buffer's page.  Those pages
 * belong to the block device's mapping, which is GFP_USER (lowmem on i386), so
 * with highmem page cache the stock kernel's and the batched kernel's
 * mark_page_accessed see pages of two zones.  Enabled by a workload whose files
 * live on ext3 (reaim's and kernbench's `fs` parameter); off, nothing changes.
 */
#ifndef MMEMU_EXT3_H
#define MMEMU_EXT3_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/core/err.h"
#include "models/fs/fs.h"
#include "models/mm/kernel.h"

/** A workload's `fs` parameter: where its files live (MM_PARAM_ENUM choices). */
enum mm_fs { MM_FS_NONE, MM_FS_EXT3 };
extern const char *const mm_fs_names[];
#define MM_FS_HELP                                                                              \
	"file system of the workload's files: none (data pages only, as before) or ext3 "       \
	"(2.6.10 ext3's bitmap, inode table, indirect and journal buffers in each disk's "      \
	"lowmem block-device page cache, touched through touch_buffer -> "                     \
	"mark_page_accessed; models/fs/ext3.c)"

/** Which buffer a touch is for (counters only). */
enum ext3_buf { EXT3_BITMAP, EXT3_INODE, EXT3_INDIRECT, EXT3_JOURNAL, EXT3_NBUF };

struct mm_ext3 {
	struct mm_file *meta[MACHINE_MAX_DISKS];   /* each disk's block-device mapping */
	uint32_t groups[MACHINE_MAX_DISKS];        /* block groups of 128 MiB on that disk */
	uint32_t jhead[MACHINE_MAX_DISKS];         /* next journal block (circular) */
	uint32_t trans_blocks[MACHINE_MAX_DISKS];  /* metadata blocks in the running transaction */
	uint32_t trans[MACHINE_MAX_DISKS];         /* running transaction's id (from 1) */
	uint32_t *in_trans[MACHINE_MAX_DISKS];     /* per metadata page: the transaction that logged it */
	/* per file id: pages of each of the files it stands for (0: one file), and
	 * per member the last second its atime and mtime were set */
	uint32_t member_pages[MM_MAX_FILES + 1], nmembers[MM_MAX_FILES + 1];
	int64_t *atime[MM_MAX_FILES + 1], *mtime[MM_MAX_FILES + 1];
	uint64_t touches[EXT3_NBUF];               /* touch_buffer calls per kind */
	uint64_t commits;
};

/**
 * mm_ext3_enable() - put @k's files on ext3: one block-device mapping per disk
 * of the machine (lowmem page-cache files).  Call once, after the workload's own
 * files are created (the mappings take MM_MAX_FILES slots).
 * Returns: 0, or -1 with @e set if @k has no room for the mappings.
 */
int mm_ext3_enable(struct mm_kernel *k, const char *file, const char *path, struct mm_err *e);

/**
 * mm_ext3_members() - @f stands for many files of @bytes each laid end to end
 * (kernbench's sources, headers and objects; reaim's per-user files): each has
 * its own inode, times and indirect blocks.  @bytes 0: one file.  Nothing when
 * ext3 is off.  Returns: 0, or -1 if memory ran out.
 */
int mm_ext3_members(struct mm_kernel *k, struct mm_file *f, uint64_t bytes);

#endif
