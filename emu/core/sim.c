/*
 * sim.c - the output side of the simulation context (sim.h): metrics, series and
 * the disks, which every model reaches through these three calls only.
 */
#include "emu/core/sim.h"

#include <stdlib.h>
#include <string.h>

void sim_metric(struct sim *s, const char *name, double v)
{
	if (!s->metrics)
		s->metrics = json_object();
	json_object_set_new(s->metrics, name, json_real(v));
}

void sim_invariants(struct sim *s, const char *violation)
{
	sim_metric(s, "invariants_ok", violation ? 0 : 1);
	if (violation && !s->invariant_error)
		s->invariant_error = strdup(violation);
}

void sim_series_add(struct sim *s, const char *name, double t, double v)
{
	if (!s->series)
		s->series = json_object();
	json_t *o = json_object_get(s->series, name);
	if (!o) {
		o = json_pack("{s:[],s:[]}", "t", "v");
		json_object_set_new(s->series, name, o);
	}
	json_array_append_new(json_object_get(o, "t"), json_real(t));
	json_array_append_new(json_object_get(o, "v"), json_real(v));
}

struct disk *sim_disk(struct sim *s, int i)
{
	return i >= 0 && i < s->ndisks ? s->disks[i] : NULL;
}
