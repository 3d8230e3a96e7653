/*
 * timemodel.c - paying pending cycles on the simulated CPU (see timemodel.h).
 */
#include "emu/timemodel.h"

#include <simgrid/actor.h>

void tm_init(struct tm *t, double quantum_s, double clock_hz)
{
	t->pending = 0;
	t->quantum = quantum_s * clock_hz;
	t->clock = clock_hz;
	t->paid = 0;
	t->executes = 0;
	t->sharers = NULL;
	t->pay = NULL;
}

void tm_pay(struct tm *t, double c)
{
	if (t->pay)
		t->pay(t, c);
	else if (t->sharers && *t->sharers <= 1)
		sg_actor_sleep_for(c / t->clock);
	else
		sg_actor_execute(c);
}

void tm_pay_pending(struct tm *t)
{
	double c = t->pending;
	t->pending = 0;
	t->paid += c;
	t->executes++;
	tm_pay(t, c);
}
