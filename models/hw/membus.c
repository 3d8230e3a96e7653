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
 * meanwhile, stalls until the bus has served it (membus_serve() says how long).
 * Who books, and when, is the kernel's: mm_bus_transfer() in models/mm/kernel.c
 * makes the booking an observation point (tm_observe), so no other CPU can book
 * earlier in simulated time after it, and charges the stall; one booking per
 * batch, not per cache line or page.  With one CPU per bus nothing is ever
 * charged; with a bus that keeps up (bytes x factor / bandwidth <= the copy
 * time), only a batch that arrives while another CPU's is in service waits,
 * at most for that batch's bus time (service is by batch).
 *
 * Not modelled: cache-line transfers of locks queueing behind copies on a busy
 * bus (machine_line_transfer() stays a constant), the other traffic of a CPU
 * (instruction and struct page misses), the memory controller's own limit.
 */
#include "models/hw/membus.h"

#include <stdlib.h>
#include <string.h>

/*
 * With slack (engine.slack > 0) a booking can come, in host order, after bookings
 * made at later simulated times by CPUs running ahead.  The bus is still served
 * in booking-time order: the bookings made since the simulated clock are kept in
 * that order (booking time, start of the copy, bus time needed, end of service;
 * older ones are folded into one end, since nobody can book before the clock).
 * A late booking takes its place in the order, the later ones are served after
 * it, and the stall that adds to them (already charged to their CPUs) is charged
 * to the late booking instead: the total stall is the one of time order, only
 * who pays part of it changes.  @clock: the simulated clock; @bt: the booking
 * time; @begin: when the copy began; @need: its bus time.  *@end: when its
 * service ends.  Returns: the stall to charge, seconds.
 */
double mm_busq_book(struct mm_busq *q, double clock, double bt, double begin, double need,
		    double *end)
{
	size_t drop = 0;
	while (drop < q->n && q->b[drop].bt < clock) {
		if (q->b[drop].end > q->base)
			q->base = q->b[drop].end;
		drop++;
	}
	if (drop) {
		memmove(q->b, q->b + drop, (q->n - drop) * sizeof *q->b);
		q->n -= drop;
	}
	size_t p = q->n;
	while (p > 0 && q->b[p - 1].bt > bt)
		p--;
	double prior = p > 0 ? q->b[p - 1].end : q->base;
	if (prior < q->base)
		prior = q->base;
	double start = begin > prior ? begin : prior;
	*end = start + need;
	double stall = *end > bt ? *end - bt : 0;
	/* the ones after us in time order move back by what we took */
	double prev = *end;
	for (size_t i = p; i < q->n; i++) {
		struct mm_busb *x = &q->b[i];
		double s = x->begin > prev ? x->begin : prev;
		double e = s + x->need;
		if (e <= x->end)
			break;   /* absorbed: nothing after it moves */
		double was = x->end > x->bt ? x->end - x->bt : 0;
		double now_ = e > x->bt ? e - x->bt : 0;
		stall += now_ - was;
		x->end = e;
		prev = e;
	}
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 16;
		struct mm_busb *b = realloc(q->b, cap * sizeof *b);
		if (!b) {   /* no memory: later bookings wait for ours all the same */
			if (*end > q->base)
				q->base = *end;
			return stall;
		}
		q->b = b;
		q->cap = cap;
	}
	memmove(q->b + p + 1, q->b + p, (q->n - p) * sizeof *q->b);
	q->b[p] = (struct mm_busb){ bt, begin, need, *end };
	q->n++;
	return stall;
}

void mm_busq_destroy(struct mm_busq *q)
{
	free(q->b);
	memset(q, 0, sizeof *q);
}

double membus_serve(double *free, struct mm_busq *q, bool slack, double clock, double now,
		    double start, double need)
{
	double end, stall;
	if (slack) {
		stall = mm_busq_book(q, clock, now, start, need, &end);
	} else {
		if (start < *free)
			start = *free;
		end = start + need;
		stall = end > now ? end - now : 0;
	}
	if (end > *free)
		*free = end;
	return stall;
}
