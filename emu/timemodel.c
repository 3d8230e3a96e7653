/*
 * timemodel.c - paying pending cycles on the simulated CPU (see timemodel.h).
 */
#include "emu/timemodel.h"

#include <simgrid/actor.h>

void tm_init(struct tm *t, double quantum_s, double clock_hz)
{
	t->pending = 0;
	t->quantum = quantum_s * clock_hz;
	t->paid = 0;
	t->executes = 0;
}

void tm_sync(struct tm *t)
{
	if (t->pending <= 0)
		return;
	double c = t->pending;
	t->pending = 0;
	t->paid += c;
	t->executes++;
	sg_actor_execute(c);
}
