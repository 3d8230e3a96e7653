/*
 * coherence.h - who owns each modelled cache line of shared kernel data (coherence.c).
 *
 * A write-invalidate protocol as the P6 bus runs it (MESI, with E folded into M:
 * a line one CPU holds alone is written without a bus transaction either way).
 * Each modelled line (a lock word, a list head, a counter, the struct page line a
 * path touches, pkmap_count[] and the pkmap PTEs) has a set of CPUs holding a
 * valid copy and, when one CPU has written it since, that CPU as its owner:
 *
 *   read by a holder                   free
 *   read by another CPU                one transfer from the owner (or a sharer;
 *                                      from memory, mem_latency, when nobody has it);
 *                                      the owner keeps a shared copy
 *   write by the owner                 free
 *   write by a sharer (upgrade)        one transfer time: the invalidation must be
 *                                      seen by every other sharer before the write
 *   write by another CPU               one transfer (read for ownership)
 *   any write                          invalidates every other copy (counted)
 *
 * The transfer takes machine_line_transfer(): costs.line_transfer on one bus,
 * costs.cross_bus_transfer across the Profusion link (kernel-mechanisms.md 0.2,
 * 6.1: 0.3-1 us on a PIII 8-way, a judgement constant of the seeds that use it).
 * The functions only say what an access costs and keep the counts; the mm core
 * charges the cost to the task and books the bytes on its front-side bus with
 * the copy of the path (mm_line_read()/mm_line_write(), models/mm/kernel.h), so
 * a line costs no simcall of its own.
 */
#ifndef MMEMU_COHERENCE_H
#define MMEMU_COHERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/machine.h"

#define COH_LINE_BYTES 64   /* a transfer moves one line (P6: 32 bytes; 64 counted on the bus) */

/* One modelled line.  Zero-initialised: in memory, no copy anywhere. */
struct coh_line {
	uint64_t sharers;   /* bit c: CPU c holds a valid copy (MM_MAX_CPUS <= 64) */
	uint8_t owner1;     /* 1 + the CPU that wrote it last and holds it alone; 0 none */
};

/* Counts of one set of lines (one per lock, per structure, per kernel). */
struct coh_stats {
	uint64_t reads, writes;     /* accesses */
	uint64_t transfers;         /* accesses that moved the line between caches */
	uint64_t fills;             /* ... that read it from memory (nobody had it) */
	uint64_t upgrades;          /* writes by a sharer (invalidation only) */
	uint64_t invalidations;     /* other copies invalidated by writes */
	double transfer_s;          /* seconds of transfers, fills and upgrades */
	bool cold_free;             /* set by the owner of the lines: a fill from memory
				       costs nothing here, because the path's flat cost
				       (page_op) already has that miss; only moves between
				       caches and upgrades are charged (the struct page
				       lines and the data locks guard, models/mm) */
};

/**
 * coh_read() - CPU @cpu reads line @l.  Returns: what it costs, seconds (0 when
 * @cpu holds a copy).
 */
double coh_read(struct coh_line *l, int cpu, const struct machine_costs *c, struct coh_stats *st);

/**
 * coh_write() - CPU @cpu writes line @l (the others' copies are invalidated).
 * Returns: what it costs, seconds (0 when @cpu owns it).
 */
double coh_write(struct coh_line *l, int cpu, const struct machine_costs *c, struct coh_stats *st);

/** coh_holders() - Returns: how many CPUs hold a valid copy of @l. */
int coh_holders(const struct coh_line *l);

#endif
