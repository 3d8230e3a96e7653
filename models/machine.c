/*
 * machine.c - loading and echoing the machine section (see machine.h).
 */
#include "models/machine.h"

#include <stdio.h>
#include <string.h>

const struct mm_param machine_params[] = {
	MM_PARAM(struct machine_cfg, cpus, "cpus", MM_P_INT, 1, MACHINE_MAX_CPUS, "1",
		 "number of CPUs, each a SimGrid host"),
	MM_PARAM(struct machine_cfg, clock, "clock", MM_P_FREQ, 1e6, 1e11, "\"1GHz\"",
		 "CPU clock; one SimGrid flop is one cycle"),
	MM_PARAM(struct machine_cfg, copy_bw, "copy_bw", MM_P_RATE, 1e6, 1e12, "\"1GB/s\"",
		 "memcpy bandwidth of one CPU, for copy-to-user (calibration)"),
	MM_PARAM_END
};

const struct mm_param machine_cost_params[] = {
	MM_PARAM(struct machine_costs, atomic, "atomic", MM_P_DOUBLE, 0, 1e6, "100",
		 "cycles of a locked read-modify-write (P4: 104, kernel-mechanisms.md 6.3; PIII: 18)"),
	MM_PARAM(struct machine_costs, mem_latency, "mem_latency", MM_P_TIME, 0, 1e-3, "\"120ns\"",
		 "latency of a cache line from memory (kernel-mechanisms.md 6)"),
	MM_PARAM(struct machine_costs, syscall, "syscall", MM_P_DOUBLE, 0, 1e6, "500",
		 "cycles of system-call entry and exit (calibration)"),
	MM_PARAM(struct machine_costs, pc_lookup, "pc_lookup", MM_P_DOUBLE, 0, 1e6, "200",
		 "cycles of a page-cache radix-tree lookup (calibration)"),
	MM_PARAM(struct machine_costs, page_op, "page_op", MM_P_DOUBLE, 0, 1e6, "50",
		 "cycles to touch a struct page or list neighbour in cache (calibration)"),
	MM_PARAM_END
};

/* Each table skips the keys the other tables own. */
static const char *const machine_skip[] = { "disks", "costs", "arch", "memory", "page_size",
					    "kernel_reserved", "struct_page_bytes",
					    "min_free_kbytes", "watermark_style",
					    "lowmem_reserve_ratio", "kernelcore", NULL };
static const char *const mem_skip[] = { "disks", "costs", "clock", "copy_bw", NULL };

/*
 * Unknown keys are checked here, against every table of the section, so that the
 * message lists all valid keys (each mm_params_load() below skips the keys of the
 * other tables and would list only its own).
 */
static int check_keys(json_t *obj, const char *file, const char *path, struct mm_err *e)
{
	const struct mm_param *const tables[] = { machine_params, mm_phys_params, NULL };
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		int ok = strcmp(key, "disks") == 0 || strcmp(key, "costs") == 0;
		for (int t = 0; tables[t] && !ok; t++)
			for (const struct mm_param *p = tables[t]; p->key && !ok; p++)
				ok = strcmp(p->key, key) == 0;
		if (ok)
			continue;
		char sub[256], list[400] = "";
		size_t n = 0;
		for (int t = 0; tables[t]; t++)
			for (const struct mm_param *p = tables[t]; p->key; p++) {
				int dup = 0;   /* a key two tables share (cpus) is listed once */
				for (int u = 0; u < t; u++)
					for (const struct mm_param *q = tables[u]; q->key; q++)
						dup |= strcmp(p->key, q->key) == 0;
				if (!dup && n < sizeof list)
					n += (size_t)snprintf(list + n, sizeof list - n, "%s, ", p->key);
			}
		if (n < sizeof list)
			snprintf(list + n, sizeof list - n, "disks, costs");
		snprintf(sub, sizeof sub, "%s.%s", path, key);
		return mm_errf(e, file, sub, "unknown key (expected one of: %s)", list);
	}
	return 0;
}

int machine_load(struct machine_cfg *m, json_t *obj, const char *file, const char *path,
		 struct mm_err *e)
{
	char sub[256];

	memset(m, 0, sizeof *m);
	if (!json_is_object(obj))
		return mm_errf(e, file, path, "expected an object");
	if (check_keys(obj, file, path, e))
		return -1;
	if (mm_params_load(machine_params, m, obj, file, path, machine_skip, e) ||
	    mm_params_load(mm_phys_params, &m->mem, obj, file, path, mem_skip, e))
		return -1;
	snprintf(sub, sizeof sub, "%s.costs", path);
	if (mm_params_load(machine_cost_params, &m->costs, json_object_get(obj, "costs"), file, sub,
			   NULL, e))
		return -1;
	uint64_t ps = machine_page_size(m);
	if (ps & (ps - 1) || ps < 512) {
		snprintf(sub, sizeof sub, "%s.page_size", path);
		return mm_errf(e, file, sub, "expected a power of two of at least 512 bytes");
	}
	if (m->mem.memory % ps) {
		snprintf(sub, sizeof sub, "%s.memory", path);
		return mm_errf(e, file, sub, "expected a multiple of the page size (%llu bytes)",
			       (unsigned long long)ps);
	}
	if (m->mem.kernel_reserved >= m->mem.memory) {
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
	json_t *mem = mm_params_dump(mm_phys_params, &m->mem);
	json_object_update(o, mem);
	json_decref(mem);
	json_object_set_new(o, "costs", mm_params_dump(machine_cost_params, &m->costs));
	json_t *a = json_array();
	for (int i = 0; i < m->ndisks; i++)
		json_array_append_new(a, mm_params_dump(disk_params, &m->disks[i]));
	json_object_set_new(o, "disks", a);
	return o;
}

uint64_t machine_page_size(const struct machine_cfg *m)
{
	if (m->mem.page_size)
		return m->mem.page_size;
	return m->mem.arch == MM_ARCH_ALPHA ? 8192 : 4096;
}
