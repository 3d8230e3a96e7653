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

#define MACHINE_MAX_DISKS 8
#define MACHINE_MAX_CPUS 64

enum machine_arch { ARCH_I386, ARCH_X86_64, ARCH_ALPHA };

struct machine_cfg {
	int arch;                 /* enum machine_arch */
	int64_t cpus;
	double clock;             /* Hz; 1 SimGrid flop = 1 cycle */
	uint64_t memory;          /* bytes usable (the kernel's mem=) */
	uint64_t page_size;       /* bytes; 0 = the architecture's (4 KiB, alpha 8 KiB) */
	uint64_t kernel_reserved; /* bytes never given to the page allocator */
	double copy_bw;           /* memcpy bandwidth per CPU, bytes/s (calibration) */
	int ndisks;
	struct disk_cfg disks[MACHINE_MAX_DISKS];
};

extern const struct mm_param machine_params[];

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
