/*
 * machine.h - the hardware description of a scenario's machine section.
 *
 * Scalars come from one params table (machine_params); disks are an array of
 * objects, each loaded with disk_params (models/disk.h).  Everything here is a
 * hardware constant with a source or a declared calibration parameter; the same
 * values apply to every kernel of a comparison unless a kernel overrides the
 * machine section explicitly (as seed 000's mem=1024m kernel does).
 */
#ifndef MMEMU_MACHINE_H
#define MMEMU_MACHINE_H

#include <stdint.h>

#include <jansson.h>

#include "emu/params.h"
#include "models/disk.h"
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
};

struct machine_cfg {
	int64_t cpus;
	double clock;             /* Hz; 1 SimGrid flop = 1 cycle */
	double copy_bw;           /* memcpy bandwidth per CPU, bytes/s (calibration) */
	struct machine_costs costs;
	struct mm_phys_cfg mem;   /* arch, memory, page size, zones (models/mm/zone.h) */
	int ndisks;
	struct disk_cfg disks[MACHINE_MAX_DISKS];
};

extern const struct mm_param machine_params[];
extern const struct mm_param machine_cost_params[];

/**
 * machine_load() - fill @m from a scenario's machine object.
 * Returns: 0, or -1 with @e naming the JSON path under @path.
 */
int machine_load(struct machine_cfg *m, json_t *obj, const char *file, const char *path,
		 struct mm_err *e);

/** machine_dump() - Returns: a new JSON object of the effective machine parameters. */
json_t *machine_dump(const struct machine_cfg *m);

/** machine_page_size() - Returns: the page size in bytes (arch default when 0). */
uint64_t machine_page_size(const struct machine_cfg *m);

#endif
