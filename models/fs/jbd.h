/*
 * jbd.h - ext3's journal (2.6.16 fs/jbd) as far as it pins lowmem: journal_heads
 * and the metadata pages they hold until commit and checkpoint.  See jbd.c.
 */
#ifndef MMEMU_JBD_H
#define MMEMU_JBD_H

#include <stdint.h>

#include "models/mm/kernel.h"
#include "models/mm/kobj.h"

#define MM_JBD_JH_PER_SLAB 72          /* 52-byte journal_head + 4-byte bufctl (jbd.c) */
#define MM_JBD_COMMIT_S 5.0            /* JBD_DEFAULT_MAX_COMMIT_AGE */

/* A block's place in the journal. */
enum { MM_JBD_NONE, MM_JBD_RUNNING, MM_JBD_CHECKPOINT };

struct mm_jbd {
	struct mm_file *dev;               /* the block device's mapping */
	struct mm_kcache jh;               /* the journal_head cache */
	uint8_t *state;                    /* [dev->npages] MM_JBD_* */
	uint32_t *jh_pfn;                  /* [dev->npages] its journal_head's slab page */
	uint32_t *cp_pos;                  /* [dev->npages] index in cp + 1, 0 = not there */
	uint32_t *run, nrun, caprun;       /* the running transaction's blocks */
	uint32_t *cp, ncp, capcp;          /* the checkpoint list's blocks */
	uint64_t dirtied, commits, released, failed;
};

/** mm_jbd_init() - an empty journal over block device mapping @dev of @k.
 * Returns: 0, or -1 when host memory ran out. */
int mm_jbd_init(struct mm_jbd *j, struct mm_kernel *k, struct mm_file *dev);

/**
 * mm_jbd_dirty() - journal_get_write_access() + journal_dirty_metadata() of block
 * @blk of the device, whose page the caller has just read (mm_file_getblk): the
 * first time in a transaction the buffer gets a journal_head (slab) and a
 * reference on its page, and joins the running transaction; a block on the
 * checkpoint list moves back to it with its journal_head.
 * Returns: nothing.
 */
void mm_jbd_dirty(struct mm_kernel *k, struct mm_task *t, struct mm_jbd *j, uint32_t blk);

/**
 * mm_jbd_commit() - one kjournald commit (journal_commit_transaction): first
 * __journal_clean_checkpoint_list, which releases every checkpointed buffer
 * whose page has been written back (clean, not under writeback): journal_head
 * freed, page reference dropped; then the running transaction's buffers are
 * logged and marked dirty in place (mark_buffer_dirty: PG_dirty on the page, for
 * pdflush or pageout to write) and go on the checkpoint list.
 * Returns: the number of buffers released.
 */
uint32_t mm_jbd_commit(struct mm_kernel *k, struct mm_task *t, struct mm_jbd *j);

/** mm_jbd_fini() - free the journal's bookkeeping (pages and objects stay). */
void mm_jbd_fini(struct mm_jbd *j);

#endif
