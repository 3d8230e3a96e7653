/*
 * pkmap.c - the `pkmap` kmap module: persistent kmaps of i386 highmem pages, as
 * 2.4.17 / 2.5.25 mm/highmem.c (kmap_high, map_new_virtual,
 * flush_all_zero_pkmaps, kunmap_high; kernel-mechanisms.md 3.1, 3.4).
 *
 * The pool has LAST_PKMAP slots (1024 on i386 without PAE), a rotor
 * (last_pkmap_nr) and one count per slot: 0 = free and no stale TLB entry
 * anywhere, 1 = unused but possibly cached in some TLB, n >= 2 = n - 1 users.
 * page->virtual is an array indexed by pfn (slot + 1, 0 = unmapped).  Everything
 * happens under kmap_lock, an mm_spinlock: its acquire costs a locked RMW and a
 * line transfer when another CPU held it last (machine_line_transfer(): within a
 * bus or across the Profusion link), a contended acquire spins (keeps its CPU).
 * Under the lock every shared line the 2.5.25 code touches goes through the
 * line-ownership model (models/hw/coherence.h: a transfer when another CPU
 * wrote it since, invalidations on a write), on top of page_op cycles for the
 * work itself:
 *   kmap_high hit:   read page->virtual (the page's struct page line), write
 *                    pkmap_count[slot] (its count line);
 *   kmap_high miss:  read page->virtual, write last_pkmap_nr (the rotor line),
 *                    read pkmap_count[] at each slot probed (count lines), write
 *                    the PTE (its pkmap_page_table line), write pkmap_count[slot]
 *                    = 1, write page->virtual, then pkmap_count[slot]++ (the same
 *                    count line, now local): five shared lines for one probe;
 *   kunmap_high:     read page->virtual, write pkmap_count[slot], read
 *                    pkmap_map_wait's list head (waitqueue_active);
 *   flush:           read every count line; for each count-1 slot, write its
 *                    count line, its PTE line and the struct page line of the page
 *                    it mapped (page->virtual = NULL: a miss per slot, the page was
 *                    last mapped by whichever CPU used it).
 *
 * When the rotor wraps to 0, flush_all_zero_pkmaps() frees every slot with count
 * 1 (one page_op each, plus one cycle per slot scanned) and flushes every TLB:
 * flush_tlb_all() = smp_call_function to the other CPUs, which the initiator waits
 * for while holding kmap_lock: (cpus - 1) IPI message exchanges on the serial
 * APIC bus (costs.ipi each, [S] 2-3 us; the 5-20 us round of 6.1) plus its own
 * flush and refill (tlb_flush + tlb_refill cycles).  Each other CPU loses
 * tlb_flush + tlb_refill cycles: they are owed by the CPU and paid by the next
 * task that maps a page there (a simplification: the model has no interrupt
 * actor per CPU).  When all LAST_PKMAP probes find no free slot, the mapper
 * sleeps on pkmap_map_wait (drops kmap_lock, gives up its CPU) until a kunmap
 * drops a count to 1, then starts over (or uses the mapping somebody else made
 * meanwhile).
 */
#include "models/kmap/pkmap.h"

#include <stdlib.h>
#include <string.h>

#include <simgrid/cond.h>
#include <simgrid/mutex.h>

#include "emu/core/sim.h"
#include "models/mm/kernel.h"

const struct mm_param pkmap_params[] = {
	MM_PARAM(struct pkmap_cfg, last_pkmap, "last_pkmap", MM_P_INT, 2, 16384, "1024",
		 "LAST_PKMAP: entries of the pkmap pool (i386: 1024, 512 with PAE; Bligh ran 4096; kernel-mechanisms.md 3.1)"),
	MM_PARAM_END
};

int pkmap_init(struct kmap *m, struct mm_kernel *k, struct mm_err *e)
{
	const struct pkmap_cfg *c = m->cfg;
	struct pkmap *p = m->priv;
	p->n = (uint32_t)c->last_pkmap;
	p->nr_pfn = k->phys.nr_pages;
	p->count = calloc(p->n, sizeof *p->count);
	p->slot_pfn = malloc(p->n * sizeof *p->slot_pfn);
	p->vaddr = calloc(p->nr_pfn ? p->nr_pfn : 1, sizeof *p->vaddr);
	uint32_t nl = (p->n + PKMAP_PER_LINE - 1) / PKMAP_PER_LINE;
	p->count_line = calloc(nl, sizeof *p->count_line);
	p->pte_line = calloc(nl, sizeof *p->pte_line);
	p->page_line = calloc(p->nr_pfn ? p->nr_pfn : 1, sizeof *p->page_line);
	if (!p->count || !p->slot_pfn || !p->vaddr || !p->count_line || !p->pte_line ||
	    !p->page_line) {
		pkmap_fini(m);
		return mm_errf(e, k->s->file, "kmap", "out of memory");
	}
	for (uint32_t i = 0; i < p->n; i++)
		p->slot_pfn[i] = PFN_NONE;
	mm_spin_init(&p->lock);
	p->wmx = sg_mutex_init();
	p->wcv = sg_cond_init();
	return 0;
}

void pkmap_fini(struct kmap *m)
{
	struct pkmap *p = m->priv;
	mm_spin_destroy(&p->lock);
	if (p->wcv)
		sg_cond_destroy(p->wcv);
	if (p->wmx)
		sg_mutex_destroy(p->wmx);
	p->wcv = NULL;
	p->wmx = NULL;
	free(p->count);
	free(p->slot_pfn);
	free(p->vaddr);
	free(p->count_line);
	free(p->pte_line);
	free(p->page_line);
	p->count = p->slot_pfn = NULL;
	p->vaddr = NULL;
	p->count_line = p->pte_line = p->page_line = NULL;
}

void pkmap_pay_debt(struct kmap *m, struct mm_task *t)
{
	struct pkmap *p = m->priv;
	if (t->cpu >= 0 && t->cpu < MACHINE_MAX_CPUS && p->debt[t->cpu] > 0) {
		mm_charge(t, p->debt[t->cpu]);
		p->debt[t->cpu] = 0;
	}
}

/* flush_all_zero_pkmaps(), kmap_lock held: free the count-1 slots, flush_tlb_all(). */
static void flush_all_zero(struct kmap *m, struct mm_task *t)
{
	struct pkmap *p = m->priv;
	struct mm_kernel *k = m->k;
	const struct machine_costs *c = k->costs;
	double t0 = k->untimed ? 0 : tm_now(&t->tm);
	mm_charge(t, (double)p->n);   /* scan the counters */
	for (uint32_t i = 0; i < p->n; i += PKMAP_PER_LINE)
		mm_line_read(t, &p->count_line[i / PKMAP_PER_LINE], &p->coh);
	for (uint32_t i = 0; i < p->n; i++) {
		if (p->count[i] != 1)
			continue;
		p->count[i] = 0;
		mm_line_write(t, &p->count_line[i / PKMAP_PER_LINE], &p->coh);
		mm_line_write(t, &p->pte_line[i / PKMAP_PER_LINE], &p->coh);   /* pte_clear */
		if (p->slot_pfn[i] != PFN_NONE) {
			p->vaddr[p->slot_pfn[i]] = 0;
			mm_line_write(t, &p->page_line[p->slot_pfn[i]], &p->coh);   /* page->virtual */
		}
		p->slot_pfn[i] = PFN_NONE;
		p->cleared++;
		mm_charge(t, c->page_op);   /* pte_clear + page->virtual = NULL */
	}
	int ncpu = (int)k->phys.ncpus;
	p->flushes++;
	if (ncpu > 1) {
		/* smp_call_function(do_flush_tlb_all, wait=1): IPI every other CPU and
		 * spin until each has flushed, holding call_lock and kmap_lock */
		p->ipis += (uint64_t)(ncpu - 1);
		mm_charge(t, (double)(ncpu - 1) * c->ipi * k->clock);
		for (int i = 0; i < ncpu && i < MACHINE_MAX_CPUS; i++)
			if (i != t->cpu)
				p->debt[i] += c->tlb_flush + c->tlb_refill;
	}
	mm_charge(t, c->tlb_flush + c->tlb_refill);   /* the local __flush_tlb_all */
	p->flush_s += k->untimed ? 0 : tm_now(&t->tm) - t0;
}

/* map_new_virtual(), kmap_lock held.  Returns: the slot now mapping @pfn. */
static uint32_t map_new_virtual(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	struct pkmap *p = m->priv;
	struct mm_kernel *k = m->k;
	for (;;) {
		uint32_t left = p->n;
		for (;;) {
			p->rotor = (p->rotor + 1) % p->n;
			mm_line_write(t, &p->rotor_line, &p->coh);   /* last_pkmap_nr */
			if (p->rotor == 0) {
				flush_all_zero(m, t);
				left = p->n;
			}
			mm_line_read(t, &p->count_line[p->rotor / PKMAP_PER_LINE], &p->coh);
			if (p->count[p->rotor] == 0) {
				uint32_t s = p->rotor;
				mm_charge(t, k->costs->page_op);   /* set_pte */
				mm_line_write(t, &p->pte_line[s / PKMAP_PER_LINE], &p->coh);
				mm_line_write(t, &p->count_line[s / PKMAP_PER_LINE], &p->coh);
				mm_line_write(t, &p->page_line[pfn], &p->coh);   /* page->virtual */
				p->count[s] = 1;
				p->slot_pfn[s] = pfn;
				p->vaddr[pfn] = (uint16_t)(s + 1);
				p->new_maps++;
				return s;
			}
			if (--left)
				continue;
			/* every slot in use: sleep on pkmap_map_wait */
			p->pool_waits++;
			uint32_t gen = p->nwait;
			p->sleepers++;
			mm_spin_unlock(k, t, &p->lock);
			mm_block(t);
			sg_mutex_lock(p->wmx);
			while (p->nwait == gen)
				sg_cond_wait(p->wcv, p->wmx);
			sg_mutex_unlock(p->wmx);
			p->sleepers--;
			mm_unblock(t);
			mm_spin_lock(k, t, &p->lock);
			if (p->vaddr[pfn])   /* somebody mapped it meanwhile */
				return p->vaddr[pfn] - 1u;
			break;   /* start over */
		}
	}
}

/* Under kmap_lock: the work on page->virtual and pkmap_count[] (the lines
 * themselves go through the coherence model at each access), after reading
 * page->virtual of @pfn. */
static void locked_data(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	struct pkmap *p = m->priv;
	mm_charge(t, m->k->costs->page_op);   /* page->virtual, pkmap_count[] */
	mm_line_read(t, &p->page_line[pfn], &p->coh);
}

void pkmap_kmap(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	struct pkmap *p = m->priv;
	struct mm_kernel *k = m->k;
	if (pfn >= p->nr_pfn)
		return;
	pkmap_pay_debt(m, t);
	mm_spin_lock(k, t, &p->lock);
	locked_data(m, t, pfn);
	p->kmaps++;
	uint32_t s;
	if (p->vaddr[pfn]) {
		s = p->vaddr[pfn] - 1u;
		p->hits++;
	} else {
		s = map_new_virtual(m, t, pfn);
	}
	p->count[s]++;
	mm_line_write(t, &p->count_line[s / PKMAP_PER_LINE], &p->coh);
	mm_spin_unlock(k, t, &p->lock);
}

void pkmap_kunmap(struct kmap *m, struct mm_task *t, uint32_t pfn)
{
	struct pkmap *p = m->priv;
	struct mm_kernel *k = m->k;
	if (pfn >= p->nr_pfn || !p->vaddr[pfn])
		return;
	mm_spin_lock(k, t, &p->lock);
	locked_data(m, t, pfn);
	uint32_t s = p->vaddr[pfn] - 1u;
	p->unmaps++;
	bool wake = false;
	mm_line_write(t, &p->count_line[s / PKMAP_PER_LINE], &p->coh);
	if (p->count[s] > 1 && --p->count[s] == 1)
		wake = true;   /* a slot may be freed by the next flush */
	mm_line_read(t, &p->wait_line, &p->coh);   /* waitqueue_active(&pkmap_map_wait) */
	mm_spin_unlock(k, t, &p->lock);
	if (wake && p->sleepers) {
		sg_mutex_lock(p->wmx);
		p->nwait++;   /* a new generation: every sleeper retries */
		sg_cond_notify_all(p->wcv);
		sg_mutex_unlock(p->wmx);
	}
}

void pkmap_finish(struct kmap *m, struct sim *s)
{
	struct pkmap *p = m->priv;
	sim_metric(s, "kmap_high", (double)p->kmaps);
	sim_metric(s, "kmap_hits", (double)p->hits);
	sim_metric(s, "kmap_new_mappings", (double)p->new_maps);
	sim_metric(s, "kmap_flushes", (double)p->flushes);
	sim_metric(s, "kmap_ipis", (double)p->ipis);
	sim_metric(s, "kmap_pool_waits", (double)p->pool_waits);
	sim_metric(s, "kmap_flush_s", p->flush_s);
	sim_metric(s, "kmap_lock_acquisitions", (double)p->lock.acquisitions);
	sim_metric(s, "kmap_lock_contended", (double)p->lock.contended);
	sim_metric(s, "kmap_lock_bounces", (double)p->lock.bounces);
	sim_metric(s, "kmap_lock_wait_s", p->lock.wait_s);
	sim_metric(s, "kmap_lock_hold_s", p->lock.hold_s);
	sim_metric(s, "kmap_atomic", (double)p->atomic_maps);
	sim_metric(s, "kmap_atomic_fallbacks", (double)p->atomic_fallbacks);
	sim_metric(s, "kmap_line_transfers", (double)(p->coh.transfers + p->coh.fills + p->coh.upgrades));
	sim_metric(s, "kmap_line_invalidations", (double)p->coh.invalidations);
	sim_metric(s, "kmap_line_transfer_s", p->coh.transfer_s);
}

static void pkmap_read_copy(struct kmap *m, struct mm_task *t, uint32_t pfn, uint64_t bytes,
			    double copy_cycles, bool fault)
{
	(void)bytes;
	(void)fault;
	struct pkmap *p = m->priv;
	p->read_copies++;
	pkmap_kmap(m, t, pfn);
	mm_charge(t, copy_cycles);
	pkmap_kunmap(m, t, pfn);
}

const struct kmap_ops kmap_pkmap = {
	.version = KMAP_OPS_VERSION,
	.name = "pkmap",
	.desc = "i386 highmem, 2.4/2.5.25: every copy maps through kmap_high (global kmap_lock, LAST_PKMAP pool, global TLB flush on wrap)",
	.params = pkmap_params,
	.cfg_size = sizeof(struct pkmap_cfg),
	.priv_size = sizeof(struct pkmap),
	.init = pkmap_init,
	.fini = pkmap_fini,
	.map = pkmap_kmap,
	.unmap = pkmap_kunmap,
	.read_copy = pkmap_read_copy,
	.finish = pkmap_finish,
};
