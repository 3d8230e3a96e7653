/*
 * atomic.c - the `atomic` kmap module: Andrew Morton's 2002 atomic-kmap copy
 * patch against 2.5.25 in the fault-and-retry form it was merged in (2.5.33+,
 * 2.6 mm/filemap.c file_read_actor; kernel-mechanisms.md 3.2, 3.3).
 *
 * Only file reads change: file_read_actor prefaults the user buffer
 * (fault_in_pages_writeable: a write to its first and last byte, page_op cycles
 * each), maps the page with kmap_atomic into this CPU's KM_USER0 fixmap slot (a
 * PTE write, page_op, and one local invlpg with the TLB miss after it, invlpg
 * cycles: no lock, no IPI, no shared line), copies in atomic context and unmaps
 * (a preempt-count decrement: free).  If the copy faults (the buffer was unmapped
 * between the prefault and the copy: the caller says so) it falls back to kmap()
 * and copies again.  Every other kmap (writes: generic_file_write's
 * prepare_write/commit_write, ext2 directory pages) keeps the pkmap path with its
 * kmap_lock, exactly as in the `pkmap` module (pkmap.c), which this module shares.
 */
#include "models/kmap/pkmap.h"

#include "models/mm/kernel.h"

static void atomic_read_copy(struct kmap *m, struct mm_task *t, uint32_t pfn, uint64_t bytes,
			     double copy_cycles, bool fault)
{
	struct pkmap *p = m->priv;
	const struct machine_costs *c = m->k->costs;
	p->read_copies++;
	pkmap_pay_debt(m, t);
	/* fault_in_pages_writeable(): first and last byte of the user buffer */
	mm_charge(t, (bytes > 1 ? 2 : 1) * c->page_op);
	/* kmap_atomic(page, KM_USER0): slot PTE + local invlpg */
	p->atomic_maps++;
	mm_charge(t, c->page_op + c->invlpg);
	if (!fault) {
		mm_charge(t, copy_cycles);   /* __copy_to_user_inatomic */
		return;                      /* kunmap_atomic: preempt count only */
	}
	/* the atomic copy faulted at once: kunmap_atomic, then the kmap() path */
	p->atomic_fallbacks++;
	pkmap_kmap(m, t, pfn);
	mm_charge(t, copy_cycles);
	pkmap_kunmap(m, t, pfn);
}

const struct kmap_ops kmap_atomic = {
	.version = KMAP_OPS_VERSION,
	.name = "atomic",
	.desc = "i386 highmem with Morton's 2002 patch: file reads copy through kmap_atomic (per-CPU slot, local invlpg), everything else through kmap_high",
	.params = pkmap_params,
	.cfg_size = sizeof(struct pkmap_cfg),
	.priv_size = sizeof(struct pkmap),
	.init = pkmap_init,
	.fini = pkmap_fini,
	.map = pkmap_kmap,
	.unmap = pkmap_kunmap,
	.read_copy = atomic_read_copy,
	.finish = pkmap_finish,
};
