/*
 * pkmap.h - the persistent kmap pool shared by the `pkmap` and `atomic` kmap
 * modules (pkmap.c; atomic.c keeps kmap() for everything but file reads, as the
 * 2002 patch did).  Internal to models/kmap.
 */
#ifndef MMEMU_PKMAP_H
#define MMEMU_PKMAP_H

#include <stdint.h>

#include <simgrid/forward.h>

#include "models/kmap/kmap.h"
#include "models/hw/coherence.h"
#include "models/hw/machine.h"
#include "models/mm/spinlock.h"

struct pkmap_cfg {
	int64_t last_pkmap;        /* LAST_PKMAP: entries of the pool (power of two) */
};

/* The state of mm/highmem.c (2.4.17 / 2.5.25) plus the counters of a run. */
/* 32-bit counts and non-PAE PTEs: 16 to a 64-byte line */
#define PKMAP_PER_LINE 16u

struct pkmap {
	struct mm_spinlock lock;   /* kmap_lock */
	uint32_t n;                /* LAST_PKMAP */
	uint32_t *count;           /* pkmap_count[n] */
	uint32_t *slot_pfn;        /* pfn mapped at each slot, PFN_NONE */
	uint16_t *vaddr;           /* page->virtual: slot + 1 per pfn, 0 = none */
	uint32_t nr_pfn;
	uint32_t rotor;            /* last_pkmap_nr */
	sg_mutex_t wmx;            /* pkmap_map_wait (only for the condition) */
	sg_cond_t wcv;
	uint32_t nwait;            /* wake-up generation */
	uint32_t sleepers;         /* tasks sleeping on pkmap_map_wait */
	double debt[MACHINE_MAX_CPUS];   /* cycles a remote TLB flush took from a CPU,
					    paid by the next task there that maps */
	/* counters */
	uint64_t kmaps, hits, new_maps, unmaps, flushes, ipis, cleared, pool_waits;
	uint64_t atomic_maps, atomic_fallbacks, read_copies;
	double flush_s;            /* initiator seconds in flush_all_zero_pkmaps */
	/* the shared lines under kmap_lock (models/hw/coherence.h) */
	struct coh_line rotor_line;   /* last_pkmap_nr */
	struct coh_line wait_line;    /* pkmap_map_wait's list head */
	struct coh_line *count_line;  /* pkmap_count[]: PKMAP_PER_LINE counts per line */
	struct coh_line *pte_line;    /* pkmap_page_table[]: PKMAP_PER_LINE PTEs per line */
	struct coh_line *page_line;   /* the struct page line of each pfn (page->virtual) */
	struct coh_stats coh;
};

extern const struct mm_param pkmap_params[];

/** pkmap_init() - set up the pool of @m (cfg in m->cfg, state in m->priv).
 * Returns: 0, or -1 with @e set. */
int pkmap_init(struct kmap *m, struct mm_kernel *k, struct mm_err *e);
/** pkmap_fini() - free the pool. Returns: nothing. */
void pkmap_fini(struct kmap *m);
/** pkmap_kmap() - kmap_high(): map @pfn for @t under kmap_lock. Returns: nothing. */
void pkmap_kmap(struct kmap *m, struct mm_task *t, uint32_t pfn);
/** pkmap_kunmap() - kunmap_high(). Returns: nothing. */
void pkmap_kunmap(struct kmap *m, struct mm_task *t, uint32_t pfn);
/** pkmap_pay_debt() - charge @t the remote-flush cycles its CPU owes. Returns: nothing. */
void pkmap_pay_debt(struct kmap *m, struct mm_task *t);
/** pkmap_finish() - the pool's metrics. Returns: nothing. */
void pkmap_finish(struct kmap *m, struct sim *s);

#endif
