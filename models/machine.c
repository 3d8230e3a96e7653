/*
 * machine.c - loading and echoing the machine section (see machine.h).
 */
#include "models/machine.h"

#include <stdio.h>
#include <string.h>

static const char *const arch_names[] = { "i386", "x86_64", "alpha", NULL };

const struct mm_param machine_params[] = {
	MM_PARAM_ENUM(struct machine_cfg, arch, "arch", arch_names, "\"x86_64\"",
		      "architecture: zone layout and page size (kernel-mechanisms.md 0.1)"),
	MM_PARAM(struct machine_cfg, cpus, "cpus", MM_P_INT, 1, MACHINE_MAX_CPUS, "1",
		 "number of CPUs, each a SimGrid host"),
	MM_PARAM(struct machine_cfg, clock, "clock", MM_P_FREQ, 1e6, 1e11, "\"1GHz\"",
		 "CPU clock; one SimGrid flop is one cycle"),
	MM_PARAM(struct machine_cfg, memory, "memory", MM_P_SIZE, 1 << 20, 1ULL << 40, NULL,
		 "memory the kernel uses (mem=)"),
	MM_PARAM(struct machine_cfg, page_size, "page_size", MM_P_SIZE, 0, 65536, "0",
		 "page size; 0 = the architecture's (4KiB; alpha 8KiB)"),
	MM_PARAM(struct machine_cfg, kernel_reserved, "kernel_reserved", MM_P_SIZE, 0, 1ULL << 40,
		 "\"0\"", "memory held by the kernel image, mem_map and boot allocations"),
	MM_PARAM(struct machine_cfg, copy_bw, "copy_bw", MM_P_RATE, 1e6, 1e12, "\"1GB/s\"",
		 "memcpy bandwidth of one CPU, for copy-to-user (calibration)"),
	MM_PARAM_END
};

static const char *const machine_skip[] = { "disks", NULL };

int machine_load(struct machine_cfg *m, json_t *obj, const char *file, const char *path,
		 struct mm_err *e)
{
	char sub[256];

	memset(m, 0, sizeof *m);
	if (!json_is_object(obj))
		return mm_errf(e, file, path, "expected an object");
	if (mm_params_load(machine_params, m, obj, file, path, machine_skip, e))
		return -1;
	uint64_t ps = machine_page_size(m);
	if (ps & (ps - 1) || ps < 512) {
		snprintf(sub, sizeof sub, "%s.page_size", path);
		return mm_errf(e, file, sub, "expected a power of two of at least 512 bytes");
	}
	if (m->memory % ps) {
		snprintf(sub, sizeof sub, "%s.memory", path);
		return mm_errf(e, file, sub, "expected a multiple of the page size (%llu bytes)",
			       (unsigned long long)ps);
	}
	if (m->kernel_reserved >= m->memory) {
		snprintf(sub, sizeof sub, "%s.kernel_reserved", path);
		return mm_errf(e, file, sub, "expected less than machine.memory");
	}
	json_t *disks = json_object_get(obj, "disks");
	if (!disks)
		return 0;
	snprintf(sub, sizeof sub, "%s.disks", path);
	if (!json_is_array(disks))
		return mm_errf(e, file, sub, "expected an array of disk objects");
	if (json_array_size(disks) > MACHINE_MAX_DISKS)
		return mm_errf(e, file, sub, "expected at most %d disks", MACHINE_MAX_DISKS);
	size_t i;
	json_t *d;
	json_array_foreach(disks, i, d) {
		snprintf(sub, sizeof sub, "%s.disks[%zu]", path, i);
		if (disk_load(&m->disks[i], d, file, sub, e))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(m->disks[j].name, m->disks[i].name) == 0)
				return mm_errf(e, file, sub, "duplicate disk name \"%s\"", m->disks[i].name);
		m->ndisks++;
	}
	return 0;
}

json_t *machine_dump(const struct machine_cfg *m)
{
	json_t *o = mm_params_dump(machine_params, m);
	json_t *a = json_array();
	for (int i = 0; i < m->ndisks; i++)
		json_array_append_new(a, mm_params_dump(disk_params, &m->disks[i]));
	json_object_set_new(o, "disks", a);
	return o;
}

uint64_t machine_page_size(const struct machine_cfg *m)
{
	if (m->page_size)
		return m->page_size;
	return m->arch == ARCH_ALPHA ? 8192 : 4096;
}
