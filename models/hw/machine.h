/*
 * machine.h - the hardware description of a scenario's machine section.
 *
 * Scalars come from one params table (machine_params); disks are an array of
 * objects, each loaded with disk_params (models/hw/disk.h).  Everything here is a
 * hardware constant with a source or a declared calibration parameter; the same
 * values apply to every kernel of a comparison unless a kernel overrides the
 * machine section explicitly (as seed 000's mem=1024m kernel does).
 *
 * "variation" declares per-host differences (run-to-run variance): the clock of
 * the whole machine and the speed of each disk are scaled per run by factors drawn
 * from the run's random streams (machine_apply_variation); 0 (the default) means
 * none, and then nothing in the results changes.
 */
#ifndef MMEMU_MACHINE_H
#define MMEMU_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "emu/core/params.h"
#include "models/hw/cache.h"
#include "models/hw/disk.h"
#include "models/mm/zone.h"

#define MACHINE_MAX_DISKS 8
#define MACHINE_MAX_CPUS 64

/* Cycle costs of the kernel's cost points (kernel-mechanisms.md 0.2, 1.3, 6). */
struct machine_costs {
	double atomic;            /* a locked read-modify-write, cycles */
	double mem_latency;       /* a cache line from memory, seconds */
	double syscall;           /* system-call entry and exit, cycles */
	double pc_lookup;         /* page-cache radix-tree lookup, cycles */
	double page_op;           /* touching one struct page / list neighbour line, cycles */
	/* SMP cost points (kernel-mechanisms.md 0.2, 3.4, 6.1); see machine_line_transfer() */
	double line_transfer;     /* a cache line from another CPU's cache, seconds; 0 = mem_latency */
	int64_t cpus_per_bus;     /* CPUs on one front-side bus; 0 = all on one bus */
	double cross_bus_transfer; /* ... from a CPU on the other bus, seconds; 0 = as line_transfer */
	double ipi;               /* one inter-processor interrupt message exchange, seconds */
	double tlb_flush;         /* a remote __flush_tlb_all (CR3/CR4 reload), cycles */
	double tlb_refill;        /* refilling the TLB after a full flush, cycles */
	double invlpg;            /* a local invlpg and the TLB miss after it, cycles */
};

/**
 * machine_line_transfer() - the time a cache line takes to come to CPU @to from
 * the cache of CPU @from (a contended lock's line): line_transfer (mem_latency when
 * 0), or cross_bus_transfer when the two CPUs sit on different buses of
 * cpus_per_bus CPUs each.  A negative @from (no previous holder) counts as the
 * same bus.
 * Returns: seconds.
 */
static inline double machine_line_transfer(const struct machine_costs *c, int from, int to)
{
	double t = c->line_transfer > 0 ? c->line_transfer : c->mem_latency;
	if (c->cpus_per_bus > 0 && from >= 0 && to >= 0 && c->cross_bus_transfer > 0 &&
	    from / c->cpus_per_bus != to / c->cpus_per_bus)
		t = c->cross_bus_transfer;
	return t;
}

/*
 * Per-host differences (docs/scenario.md, machine.variation).  The declared
 * half-widths are fractions (the scenario writes "0.5%"); a run's factor is drawn
 * uniformly in [1 - w, 1 + w].  The drawn values are filled in by
 * machine_apply_variation() and echoed in the run's effective parameters.
 */
struct machine_variation {
	double clock;             /* half-width of the machine's clock factor, [0, 0.5] */
	double disk;              /* half-width of each disk's speed factor, [0, 0.5] */
	bool sched;               /* draw the scheduler's balancer-tick phase per run */
	bool per_kernel;          /* hosts "per_kernel": each kernel's runs on hosts of its own */
	/* per run (machine_apply_variation) */
	bool applied;
	double clock_factor;      /* 1 when clock == 0 */
	double disk_factor[MACHINE_MAX_DISKS];
	double tick_phase;        /* [0, 1); 0 when !sched (sched_cfg.tick_phase) */
};

/*
 * machine.bus: the front-side buses as a shared resource (models/hw/membus.c).
 * The CPUs are grouped cpus_per_bus to a bus (costs.cpus_per_bus; 0 = one bus).
 * Copies and page clearing take bus time in proportion to the bytes they move;
 * a bandwidth of 0 (the default) means no bus model, and then nothing changes.
 */
struct machine_bus {
	double bandwidth;         /* bytes/s one bus delivers; 0 = no bus model */
	double copy_bytes;        /* bus bytes per byte copied (source read + destination write) */
	double clear_bytes;       /* bus bytes per byte cleared (destination write) */
};

struct machine_cfg {
	int64_t cpus;
	double clock;             /* Hz; 1 SimGrid flop = 1 cycle */
	double copy_bw;           /* memcpy bandwidth per CPU, bytes/s (calibration) */
	struct machine_costs costs;
	struct mm_phys_cfg mem;   /* arch, memory, page size, zones (models/mm/zone.h) */
	int ndisks;
	struct disk_cfg disks[MACHINE_MAX_DISKS];
	struct machine_variation var;
	struct cache_cfg caches;  /* machine.caches (models/hw/cache.h); nlevels 0: none */
	struct machine_bus bus;   /* machine.bus (models/hw/membus.c); bandwidth 0: none */
};

extern const struct mm_param machine_params[];
extern const struct mm_param machine_cost_params[];
extern const struct mm_param machine_bus_params[];

/**
 * machine_load() - fill @m from a scenario's machine object.
 * Returns: 0, or -1 with @e naming the JSON path under @path.
 */
int machine_load(struct machine_cfg *m, json_t *obj, const char *file, const char *path,
		 struct mm_err *e);

/**
 * machine_parse_percent() - a percentage for machine.variation: a string such as
 * "0.5%" (a non-negative decimal number and "%"), or the number 0.
 * @out: the value as a fraction (0.005)
 * Returns: 0, or -1 if @v is neither.
 */
int machine_parse_percent(json_t *v, double *out);

/**
 * machine_variation_doc() - print the keys of machine.variation as a Markdown
 * table in the format of mm_params_doc() (they are read by hand, without a
 * params table).  Returns: nothing.
 */
void machine_variation_doc(FILE *out);

/**
 * machine_variation_any() - Returns: true if @m declares any per-host variation
 * (then its effective parameters carry a "variation" object).
 */
bool machine_variation_any(const struct machine_cfg *m);

/**
 * machine_apply_variation() - draw the run's per-host factors from the streams
 * (@seed, @run, "variation-clock" / "variation-disk-NAME" / "variation-sched") and
 * apply them; with hosts "per_kernel" the seed is @seed mixed with the hash of
 * @kernel (NULL: not mixed), so each kernel draws its own hosts; else every
 * kernel of a run shares the run's host (paired).  Then apply them to @m: clock x clock_factor; each disk's read and write rates x its
 * factor, seek_avg and track_to_track / its factor (rpm unchanged).  Without a
 * declared variation nothing changes (factors 1, phase 0).  Idempotent: a second
 * call does nothing.
 * Returns: 0 (the factors always exist: a half-width <= 50% keeps them in [0.5, 1.5]).
 */
int machine_apply_variation(struct machine_cfg *m, uint64_t seed, uint64_t run,
			    const char *kernel);

/** machine_dump() - Returns: a new JSON object of the effective machine parameters. */
json_t *machine_dump(const struct machine_cfg *m);

/** machine_page_size() - Returns: the page size in bytes (arch default when 0). */
uint64_t machine_page_size(const struct machine_cfg *m);

#endif
