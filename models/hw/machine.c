/*
 * machine.c - loading and echoing the machine section (see machine.h).
 *
 * machine.variation is read here by hand rather than through a params table: its
 * values are percentages ("0.5%"), a unit emu/core/params.c does not have, and a bare
 * number would be ambiguous (0.5 = 0.5% or 50%?), so only strings with "%" (and
 * the number 0) are accepted.  The per-run factors are drawn from named streams of
 * emu/core/rng.c, so they depend only on (scenario seed, run index): the same for every
 * kernel at one run index (the same "host" runs each kernel, as in an A/B test on
 * one box), different between run indexes.  One clock factor for the whole machine,
 * not one per CPU: the CPUs of an SMP box share one clock source and one memory
 * system, and the differences between boxes of one model (memory timing, firmware
 * settings, thermal limits) act on the box as a whole.  One factor per disk: each
 * is its own drive (zone layout, firmware, wear); it scales the media rate and the
 * seek times together and leaves the spindle speed, which is servo-controlled.
 */
#include "models/hw/machine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/rng.h"

#define VAR_MAX 0.5   /* largest declared half-width: factors stay in [0.5, 1.5] */

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
	MM_PARAM(struct machine_costs, line_transfer, "line_transfer", MM_P_TIME, 0, 1e-3, "0",
		 "a cache line from another CPU's cache (PIII 8-way: 0.3-1 us [EST], kernel-mechanisms.md 6.1); declared (> 0), it also turns on line ownership of the data the locks guard (struct pages, list heads, counters); 0 = lock words only, at mem_latency"),
	MM_PARAM(struct machine_costs, cpus_per_bus, "cpus_per_bus", MM_P_INT, 0, 64, "0",
		 "CPUs on one front-side bus (Profusion 8-way: 4, kernel-mechanisms.md 6.1); 0 = one bus"),
	MM_PARAM(struct machine_costs, cross_bus_transfer, "cross_bus_transfer", MM_P_TIME, 0, 1e-3, "0",
		 "a cache line from a CPU on the other bus (across the Profusion link); 0 = as line_transfer"),
	MM_PARAM(struct machine_costs, ipi, "ipi", MM_P_TIME, 0, 1e-3, "\"2.5us\"",
		 "one IPI message exchange on the APIC bus (P6: 2-3 us [S], kernel-mechanisms.md 6.1)"),
	MM_PARAM(struct machine_costs, tlb_flush, "tlb_flush", MM_P_DOUBLE, 0, 1e6, "200",
		 "cycles of a remote __flush_tlb_all (CR3/CR4 reload; 100-300 [EST], kernel-mechanisms.md 6.1)"),
	MM_PARAM(struct machine_costs, tlb_refill, "tlb_refill", MM_P_DOUBLE, 0, 1e7, "3000",
		 "cycles to refill the TLB after a full flush (PIII 64+32 entries: 2-4k [EST], kernel-mechanisms.md 6.1)"),
	MM_PARAM(struct machine_costs, invlpg, "invlpg", MM_P_DOUBLE, 0, 1e6, "65",
		 "cycles of a local invlpg plus the TLB miss after it (30-100 [EST], kernel-mechanisms.md 6.1)"),
	MM_PARAM_END
};

const struct mm_param machine_bus_params[] = {
	MM_PARAM(struct machine_bus, bandwidth, "bandwidth", MM_P_RATE, 0, 1e12, "0",
		 "data one front-side bus delivers, shared by its cpus_per_bus CPUs (P6 bus: 800 MB/s peak, about 420 MB/s achieved [S], kernel-mechanisms.md 6.1); 0 = no bus model"),
	MM_PARAM(struct machine_bus, copy_bytes, "copy_bytes", MM_P_DOUBLE, 0, 16, "2",
		 "bus bytes per byte copied: the source read and the destination written back (3 with a read for ownership) [EST]"),
	MM_PARAM(struct machine_bus, clear_bytes, "clear_bytes", MM_P_DOUBLE, 0, 16, "1",
		 "bus bytes per byte cleared (clear_page: the destination written back) [EST]"),
	MM_PARAM_END
};

/* Each table skips the keys the other tables own. */
static const char *const machine_skip[] = { "disks", "costs", "variation", "caches", "bus", "arch", "memory", "page_size",
					    "kernel_reserved", "struct_page_bytes", "idle_footprint",
					    "min_free_kbytes", "watermark_style",
					    "lowmem_reserve_ratio", "kernelcore", NULL };
static const char *const mem_skip[] = { "disks", "costs", "variation", "caches", "bus", "clock", "copy_bw", NULL };

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
		int ok = strcmp(key, "disks") == 0 || strcmp(key, "costs") == 0 ||
			 strcmp(key, "variation") == 0 || strcmp(key, "caches") == 0 ||
			 strcmp(key, "bus") == 0;
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
			snprintf(list + n, sizeof list - n, "disks, costs, variation, caches, bus");
		snprintf(sub, sizeof sub, "%s.%s", path, key);
		return mm_errf(e, file, sub, "unknown key (expected one of: %s)", list);
	}
	return 0;
}

int machine_parse_percent(json_t *v, double *out)
{
	if (json_is_number(v) && json_number_value(v) == 0) {
		*out = 0;
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	const char *s = json_string_value(v);
	/* a plain decimal number: no sign, no hex, no "inf"/"nan" (as emu/core/params.c) */
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (end == s || errno || !isfinite(d) || d < 0)
		return -1;
	while (*end == ' ')
		end++;
	if (strcmp(end, "%") != 0)
		return -1;
	*out = d / 100.0;
	return 0;
}

/* machine.variation: {"clock": "0.5%", "disk": "2%", "sched": true, "hosts":
 * "shared" | "per_kernel"}, all optional. */
static int load_variation(struct machine_variation *v, json_t *obj, const char *file,
			  const char *path, struct mm_err *e)
{
	char sub[256];
	memset(v, 0, sizeof *v);
	if (!obj)
		return 0;
	snprintf(sub, sizeof sub, "%s.variation", path);
	if (!json_is_object(obj))
		return mm_errf(e, file, sub,
			       "expected an object such as {\"clock\": \"0.5%%\", \"disk\": \"2%%\", \"sched\": true}");
	const char *key;
	json_t *x;
	json_object_foreach(obj, key, x) {
		snprintf(sub, sizeof sub, "%s.variation.%s", path, key);
		double *field = strcmp(key, "clock") == 0 ? &v->clock
			      : strcmp(key, "disk") == 0  ? &v->disk
							  : NULL;
		if (field) {
			double d;
			if (json_is_number(x) && json_number_value(x) < 0)
				return mm_errf(e, file, sub, "expected a percentage in [0%%, 50%%], not a negative number");
			if (json_is_string(x) && json_string_value(x)[0] == '-')
				return mm_errf(e, file, sub, "expected a percentage in [0%%, 50%%]");
			if (machine_parse_percent(x, &d))
				return mm_errf(e, file, sub,
					       "expected a percentage such as \"0.5%%\" (a string with %%, or 0)");
			if (d > VAR_MAX)
				return mm_errf(e, file, sub, "expected a percentage in [0%%, 50%%]");
			*field = d;
		} else if (strcmp(key, "sched") == 0) {
			if (!json_is_boolean(x))
				return mm_errf(e, file, sub, "expected true or false");
			v->sched = json_is_true(x);
		} else if (strcmp(key, "hosts") == 0) {
			const char *h = json_string_value(x);
			if (!h || (strcmp(h, "shared") && strcmp(h, "per_kernel")))
				return mm_errf(e, file, sub, "expected \"shared\" or \"per_kernel\"");
			v->per_kernel = strcmp(h, "per_kernel") == 0;
		} else {
			return mm_errf(e, file, sub, "unknown key (expected one of: clock, disk, sched, hosts)");
		}
	}
	return 0;
}

void machine_variation_doc(FILE *out)
{
	fprintf(out, "| key | kind | range | default | meaning |\n|---|---|---|---|---|\n");
	fprintf(out, "| `clock` | a percentage such as \"0.5%%\" | 0%% .. 50%% | 0 | "
		     "per-run CPU clock factor drawn in [1 - w, 1 + w] |\n");
	fprintf(out, "| `disk` | a percentage such as \"2%%\" | 0%% .. 50%% | 0 | "
		     "per-run, per-disk factor of the media rates and seek times |\n");
	fprintf(out, "| `sched` | a boolean |  | false | "
		     "per-run phase of the scheduler's balancing tick |\n");
	fprintf(out, "| `hosts` | \"shared\" or \"per_kernel\" |  | \"shared\" | "
		     "shared: every kernel of a run draws the same host (paired); per_kernel: "
		     "each kernel its own (the published kernels ran on different machines) |\n");
}

bool machine_variation_any(const struct machine_cfg *m)
{
	return m->var.clock > 0 || m->var.disk > 0 || m->var.sched;
}

/* A factor uniform in [1 - w, 1 + w] from stream @name of (@seed, @run). */
static double draw_factor(uint64_t seed, uint64_t run, const char *name, double w)
{
	struct mm_rng r;
	if (w <= 0)
		return 1.0;
	mm_rng_seed(&r, seed, run, name);
	return 1.0 + w * (2.0 * mm_rng_double(&r) - 1.0);
}

int machine_apply_variation(struct machine_cfg *m, uint64_t seed, uint64_t run,
			    const char *kernel)
{
	struct machine_variation *v = &m->var;
	if (v->applied)
		return 0;
	v->applied = true;
	if (v->per_kernel && kernel)
		seed ^= mm_hash64(kernel);
	v->clock_factor = draw_factor(seed, run, "variation-clock", v->clock);
	m->clock *= v->clock_factor;
	for (int i = 0; i < m->ndisks && i < MACHINE_MAX_DISKS; i++) {
		char name[MM_PSTR + 16];
		snprintf(name, sizeof name, "variation-disk-%s", m->disks[i].name);
		double f = draw_factor(seed, run, name, v->disk);
		v->disk_factor[i] = f;
		if (f == 1.0)
			continue;
		m->disks[i].read_bw *= f;
		m->disks[i].write_bw *= f;
		m->disks[i].seek_avg /= f;
		m->disks[i].track_to_track /= f;
	}
	v->tick_phase = 0;
	if (v->sched) {
		struct mm_rng r;
		mm_rng_seed(&r, seed, run, "variation-sched");
		v->tick_phase = mm_rng_double(&r);
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
	snprintf(sub, sizeof sub, "%s.bus", path);
	json_t *bus = json_object_get(obj, "bus");
	if (bus && !json_is_object(bus))
		return mm_errf(e, file, sub, "expected an object such as {\"bandwidth\": \"800MB/s\"}");
	if (mm_params_load(machine_bus_params, &m->bus, bus, file, sub, NULL, e))
		return -1;
	/* a bus of a few bytes a second stretches each copy into simulated hours of
	 * stalls, host time without bound (issue 27): 1 MB/s is far below any bus
	 * mmemu models (P6: 800 MB/s), so below it the value is a mistake */
	if (m->bus.bandwidth > 0 && m->bus.bandwidth < 1e6) {
		snprintf(sub, sizeof sub, "%s.bus.bandwidth", path);
		return mm_errf(e, file, sub, "expected 0 (no bus model) or at least \"1MB/s\"");
	}
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
	snprintf(sub, sizeof sub, "%s.memory", path);
	if (mm_phys_check_memory(&m->mem, file, sub, e))
		return -1;
	if (m->mem.kernel_reserved >= m->mem.memory) {
		snprintf(sub, sizeof sub, "%s.kernel_reserved", path);
		return mm_errf(e, file, sub, "expected less than machine.memory");
	}
	/* a reserve of all the memory left after the kernel leaves nothing to
	 * allocate: every allocation would retry for ever (issue 27) */
	if ((uint64_t)m->mem.min_free_kbytes * 1024 >= m->mem.memory - m->mem.kernel_reserved) {
		snprintf(sub, sizeof sub, "%s.min_free_kbytes", path);
		return mm_errf(e, file, sub,
			       "expected less than machine.memory minus kernel_reserved, in KiB");
	}
	if (load_variation(&m->var, json_object_get(obj, "variation"), file, path, e))
		return -1;
	snprintf(sub, sizeof sub, "%s.caches", path);
	m->caches.mem_latency = m->costs.mem_latency;
	if (cache_cfg_load(&m->caches, json_object_get(obj, "caches"), file, sub, e))
		return -1;
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
	if (m->caches.nlevels)
		json_object_set_new(o, "caches", cache_cfg_dump(&m->caches));
	if (m->bus.bandwidth > 0)   /* echoed only when declared: no bus, no key */
		json_object_set_new(o, "bus", mm_params_dump(machine_bus_params, &m->bus));
	if (machine_variation_any(m)) {
		/* declared half-widths (fractions) and, once drawn, this run's values */
		const struct machine_variation *v = &m->var;
		json_t *var = json_pack("{s:f,s:f,s:b}", "clock", v->clock, "disk", v->disk, "sched", v->sched);
		if (v->applied) {
			json_object_set_new(var, "clock_factor", json_real(v->clock_factor));
			json_t *df = json_object();
			for (int i = 0; i < m->ndisks; i++)
				json_object_set_new(df, m->disks[i].name, json_real(v->disk_factor[i]));
			json_object_set_new(var, "disk_factors", df);
			json_object_set_new(var, "tick_phase", json_real(v->tick_phase));
		}
		if (v->per_kernel)   /* echoed only when declared, as the bus */
			json_object_set_new(var, "hosts", json_string("per_kernel"));
		json_object_set_new(o, "variation", var);
	}
	return o;
}

uint64_t machine_page_size(const struct machine_cfg *m)
{
	if (m->mem.page_size)
		return m->mem.page_size;
	return m->mem.arch == MM_ARCH_ALPHA ? 8192 : 4096;
}
