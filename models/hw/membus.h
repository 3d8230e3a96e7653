/*
 * membus.h - the front-side buses as servers of copy traffic (membus.c).
 *
 * The hardware half of machine.bus: a bus serves bytes x factor / bandwidth of
 * bus time per booking, in simulated-time order, and says how long the booking
 * CPU stalls.  Who books, and when, is the kernel's (mm_bus_transfer() in
 * models/mm/kernel.c charges the stall to the copying task).
 */
#ifndef MMEMU_MEMBUS_H
#define MMEMU_MEMBUS_H

#include <stdbool.h>
#include <stddef.h>

/* One booking of a front-side bus, with slack . */
struct mm_busb {
	double bt;      /* booking time: when the copy ended */
	double begin;   /* when the copy began */
	double need;    /* bus time it needs */
	double end;     /* end of its service */
};

/* A bus's bookings made since the simulated clock, in booking-time order; base:
 * the latest end of service of older ones. */
struct mm_busq {
	struct mm_busb *b;
	size_t n, cap;
	double base;
};

/**
 * membus_serve() - serve @need seconds of bus time for a copy that began at
 * @start and was booked at @now, after what the bus owes (*@free: when it has
 * served everything booked before; @q: the bookings in time order, used when
 * @slack, out-of-order booking, with @clock the simulated clock).  Advances *@free.
 * Returns: the stall of the booking CPU, seconds (0 when the bus kept up).
 */
double membus_serve(double *free, struct mm_busq *q, bool slack, double clock, double now,
		    double start, double need);

/**
 * mm_busq_book() - book @need seconds of bus for a copy that began at @begin and
 * ended at @bt, served in booking-time order although bookings come out of it
 * (membus.c); *@end: when its service ends.  Returns: the stall to charge to the
 * booking CPU, seconds: its own and the one it adds to later bookings.
 */
double mm_busq_book(struct mm_busq *q, double clock, double bt, double begin, double need,
		    double *end);

/** mm_busq_destroy() - free a bus's booking list (membus.c).  Returns: nothing. */
void mm_busq_destroy(struct mm_busq *q);

#endif
