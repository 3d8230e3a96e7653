/*
 * membus.c - the front-side buses as a shared resource (machine.bus).
 *
 * The machine of seed 002 (kernel-mechanisms.md 6.1) has eight Pentium III CPUs
 * on two P6 system buses of four, joined by the Profusion chipset: a bus
 * delivers about 420 MB/s (800 MB/s peak, 100 MHz x 64 bits), and every byte a
 * CPU copies (copy_to_user in file_read_actor, copy_from_user in
 * generic_file_write, clear_page for a new anonymous page) crosses its bus
 * copy_bytes times (clear_bytes for clearing).  One CPU alone copies at copy_bw
 * when its bus keeps up; CPUs of one bus share its bandwidth; CPUs of different
 * buses do not interfere (the memory behind the chipset is interleaved and not
 * modelled as a limit).
 *
 * Each bus is a work-conserving server of bus time, booked in simulated-time
 * order: a batch of copies (one file read or write call, one cleared page)
 * arrives when its copying began, is served after everything booked before it,
 * for bytes x factor / bandwidth, and the CPU, which spent its own copy cycles
 * meanwhile, stalls until the bus has served it.  The booking is an observation
 * point (tm_observe), so no other CPU can book earlier in simulated time after
 * it; one booking per batch, not per cache line or page.  With one CPU per bus,
 * or a bus that keeps up (bytes x factor / bandwidth <= the copy time), nothing
 * is ever charged.
 *
 * Not modelled: cache-line transfers of locks queueing behind copies on a busy
 * bus (machine_line_transfer() stays a constant), the other traffic of a CPU
 * (instruction and struct page misses), the memory controller's own limit.
 */
#include "models/machine.h"
#include "models/mm/kernel.h"

#include "emu/core/sim.h"

double mm_bus_transfer(struct mm_kernel *k, struct mm_task *t, uint64_t bytes, double factor,
		       double cpu_cycles)
{
	const struct machine_cfg *m = k->s ? k->s->machine : NULL;
	if (!m || m->bus.bandwidth <= 0 || k->untimed || bytes == 0 || factor <= 0)
		return 0;
	mm_observe(t);   /* the bus is seen by every CPU on it */
	int per = m->costs.cpus_per_bus > 0 ? (int)m->costs.cpus_per_bus : MM_MAX_CPUS;
	int cpu = t->cpu >= 0 ? t->cpu : 0;
	int bus = cpu / per;
	if (bus >= MM_MAX_CPUS)
		bus = MM_MAX_CPUS - 1;
	double now = tm_now(&t->tm);
	double need = (double)bytes * factor / m->bus.bandwidth;
	double start = now - cpu_cycles / t->tm.clock;   /* when the copying began */
	if (start < k->bus_free[bus])
		start = k->bus_free[bus];
	double end = start + need;
	k->bus_free[bus] = end;
	k->bus_busy_s[bus] += need;
	k->bus_transfers++;
	if (end <= now)
		return 0;
	double stall = end - now;
	k->bus_stall_s += stall;
	mm_charge(t, stall * t->tm.clock);
	return stall;
}
