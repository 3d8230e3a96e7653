/*
 * jbd.c - ext3's journal as it pins lowmem (2.6.16 fs/jbd/transaction.c,
 * commit.c, checkpoint.c; ordered mode).
 *
 * Every metadata change ext3 makes (a new inode, a directory entry, an unlink,
 * mtime/ctime of a written file, atime of a read one: 2.6.16 has no relatime)
 * goes through journal_get_write_access() and journal_dirty_metadata(): the
 * buffer gets a journal_head (journal_add_journal_head, a slab object of the
 * "journal_head" cache, created without SLAB_RECLAIM_ACCOUNT: not reclaimable)
 * which holds a reference on the buffer (and so on its page:
 * try_to_free_buffers fails on a busy buffer, so shrink_list keeps the page),
 * and joins the running transaction.  kjournald commits every 5 s
 * (JBD_DEFAULT_MAX_COMMIT_AGE): the buffers are written to the log and then
 * marked dirty in place and filed on the transaction's checkpoint list; only
 * when they have been written back to their home location (pdflush, pageout)
 * does __journal_clean_checkpoint_list, run at the next commit, drop the
 * journal_head and the reference.  So a metadata page changed now stays pinned
 * at least until the commit after its write-back.
 * journal_head: 13 words on i386 (52 bytes) plus a 4-byte kmem_bufctl_t in an
 * on-slab page: 72 a page.
 * Not modelled: the log's own I/O and blocks, ordered mode's data flush at
 * commit, log_do_checkpoint when the log fills (the 32 MiB log of a 2.6.16
 * mke2fs holds far more than 5 s of this workload's metadata).
 * Costs: O(1) per change; a commit is linear in its buffers.
 */
#include "models/fs/jbd.h"

#include <stdlib.h>
#include <string.h>

int mm_jbd_init(struct mm_jbd *j, struct mm_kernel *k, struct mm_file *dev)
{
	memset(j, 0, sizeof *j);
	j->dev = dev;
	j->state = calloc(dev->npages ? dev->npages : 1, 1);
	j->jh_pfn = calloc(dev->npages ? dev->npages : 1, sizeof *j->jh_pfn);
	j->cp_pos = calloc(dev->npages ? dev->npages : 1, sizeof *j->cp_pos);
	if (!j->state || !j->jh_pfn || !j->cp_pos ||
	    mm_kcache_init(&j->jh, k, "journal_head", MM_JBD_JH_PER_SLAB, MM_GFP_KERNEL))
		return -1;
	return 0;
}

void mm_jbd_fini(struct mm_jbd *j)
{
	free(j->state);
	free(j->jh_pfn);
	free(j->cp_pos);
	free(j->run);
	free(j->cp);
	mm_kcache_fini(&j->jh);
	memset(j, 0, sizeof *j);
}

static void cp_del(struct mm_jbd *j, uint32_t blk)
{
	uint32_t i = j->cp_pos[blk] - 1, last = j->cp[--j->ncp];
	j->cp[i] = last;
	j->cp_pos[last] = i + 1;
	j->cp_pos[blk] = 0;
}

/* journal_remove_journal_head + __brelse: block @blk leaves the journal. */
static void release(struct mm_kernel *k, struct mm_task *t, struct mm_jbd *j, uint32_t blk)
{
	uint32_t pfn = j->dev->pfn[blk];
	j->state[blk] = MM_JBD_NONE;
	mm_kobj_free(k, t, &j->jh, j->jh_pfn[blk]);
	if (pfn == PFN_NONE)
		return;
	struct page *p = &k->phys.pages[pfn];
	page_clear(p, PG_journal);
	if (p->count > 1)
		p->count--;   /* the page cache keeps its own reference */
}

void mm_jbd_dirty(struct mm_kernel *k, struct mm_task *t, struct mm_jbd *j, uint32_t blk)
{
	if (!j->dev || blk >= j->dev->npages || j->state[blk] == MM_JBD_RUNNING)
		return;
	mm_charge(t, k->costs->atomic + k->costs->page_op);   /* jbd_lock_bh_state, lists */
	if (j->state[blk] == MM_JBD_CHECKPOINT) {   /* changed again: back in a transaction */
		cp_del(j, blk);
	} else {
		if (j->dev->pfn[blk] == PFN_NONE)
			return;
		uint32_t jh = mm_kobj_alloc(k, t, &j->jh);   /* may sleep */
		uint32_t pfn = j->dev->pfn[blk];
		if (jh == PFN_NONE || pfn == PFN_NONE || j->state[blk] != MM_JBD_NONE) {
			mm_kobj_free(k, t, &j->jh, jh);   /* reclaimed or joined meanwhile */
			j->failed += jh == PFN_NONE;
			return;
		}
		j->jh_pfn[blk] = jh;
		k->phys.pages[pfn].count++;   /* the journal_head's get_bh */
		page_set(&k->phys.pages[pfn], PG_journal);
	}
	if (mm_u32_push(&j->run, &j->nrun, &j->caprun, blk)) {
		j->failed++;   /* out of host memory: left out of the transaction */
		release(k, t, j, blk);
		return;
	}
	j->state[blk] = MM_JBD_RUNNING;
	j->dirtied++;
}

uint32_t mm_jbd_commit(struct mm_kernel *k, struct mm_task *t, struct mm_jbd *j)
{
	struct mm_file *f = j->dev;
	uint32_t released = 0;
	for (uint32_t i = 0; i < j->ncp;) {   /* __journal_clean_checkpoint_list */
		uint32_t blk = j->cp[i], pfn = f->pfn[blk];
		struct page *p = pfn != PFN_NONE ? &k->phys.pages[pfn] : NULL;
		if (p && (page_test(p, PG_dirty) || page_test(p, PG_writeback))) {
			i++;
			continue;
		}
		cp_del(j, blk);   /* moves the last entry to i */
		release(k, t, j, blk);
		mm_charge(t, k->costs->atomic + k->costs->page_op);
		released++;
	}
	for (uint32_t i = 0; i < j->nrun; i++) {   /* logged, then dirty in place */
		uint32_t blk = j->run[i], pfn = f->pfn[blk];
		if (pfn != PFN_NONE) {
			struct page *p = &k->phys.pages[pfn];
			if (!page_test(p, PG_dirty) && !page_test(p, PG_writeback)) {
				page_set(p, PG_dirty);
				mm_file_dirty_inc(k, t, f);
			}
		}
		mm_charge(t, k->costs->atomic + k->costs->page_op);
		if (mm_u32_push(&j->cp, &j->ncp, &j->capcp, blk)) {
			j->failed++;
			release(k, t, j, blk);
			continue;
		}
		j->cp_pos[blk] = j->ncp;
		j->state[blk] = MM_JBD_CHECKPOINT;
	}
	j->nrun = 0;
	j->commits++;
	j->released += released;
	return released;
}
