/*
 * chain.c - a chained run: a scenario's "steps" run one after the other on one
 * simulated boot (see chain.h).
 *
 * Design: the thread of seed 000 runs `for n in 100 ... 500; do ./a.out ...; done`
 * on one booted kernel, and seed 003 runs extract, build, aim9 and HighAlloc on
 * one boot: what one step leaves (page cache, the reclaim module's state, slab,
 * fragmentation) is where the next one starts.  So a run with steps boots one
 * kernel (the first step's start() calls mm_kernel_boot(); the next steps get the
 * same kernel from it) and a chain actor drives the steps inside one SimGrid run:
 * it calls the step's start(), which creates the step's actors, waits until every
 * actor that is not a daemon (kswapd, pdflush, the disk drivers are) has ended,
 * calls the step's finish() and records its results, then starts the next step at
 * that simulated time.  The chain actor is not a daemon, so the kernel's daemons
 * live until the last step ends.  A daemon makes itself one as the first thing it
 * does, so the chain yields once after start() before it looks at the actors.
 *
 * Each step's event counters are its own (they are zeroed when it starts; the
 * run's vmstat is their sum); metrics of models that live across steps (the disk's
 * statistics, kswapd's CPU time) count from the boot.  The steps' points: the
 * sweep point plus "workload.KEY" for every key that every step sets, so a chain
 * of 2read steps over range_mb is tabled by range_mb like a sweep over it.
 */
#include "emu/engine/chain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/engine/engine.h"
#include "models/mm/vmstat.h"

struct chain {
	int n;
	const struct workload_ops **wl;
	void **cfg;
	const struct workload_ops *base_wl;   /* the scenario's workload section, a template */
	void *base_cfg;
	json_t *eff;          /* each step's effective workload parameters */
	json_t *points;       /* each step's part of its point (chain_step_points) */
	json_t *results;      /* each finished step's results */
	int started;          /* steps whose start() ran */
	double t0;            /* when the running step started */
	struct mm_vmstat total;
	char *error;          /* a step's start() failed: its message */
	/* the chain actor in the lookahead world (emu/core/timemodel.h): +inf while
	 * it waits for a step's actor to end, lowered to now by that actor's exit */
	double wake;
	int slot;
	aid_t target;         /* the actor it joins, or -1 */
};

int chain_load(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e)
{
	struct sim *s = &st->s;
	json_t *steps = json_object_get(spec, "steps");
	if (!steps)
		return 0;
	struct chain *c = calloc(1, sizeof *c);
	size_t n = json_array_size(steps);
	if (!c || !(c->wl = calloc(n + 1, sizeof *c->wl)) || !(c->cfg = calloc(n + 1, sizeof *c->cfg))) {
		if (c)
			free(c->wl);
		free(c);
		return mm_errf(e, file, "steps", "out of memory");
	}
	st->chain = c;
	c->base_wl = s->wl;
	c->base_cfg = s->wl_cfg;
	c->points = json_incref(json_object_get(spec, "step_points"));
	c->eff = json_array();
	c->results = json_array();
	for (size_t i = 0; i < n; i++) {
		char path[64];
		snprintf(path, sizeof path, "steps[%zu]", i);
		json_t *step = json_array_get(steps, i);
		const char *type = json_string_value(json_object_get(step, "type"));
		const struct workload_ops *ops = workload_find(type ? type : "");
		if (ops && !ops->chainable) {
			char tpath[80];
			snprintf(tpath, sizeof tpath, "%s.type", path);
			return mm_errf(e, file, tpath,
				       "the %s workload cannot run as a step yet (a step must share the booted kernel: 2read, lmbench, fft, untar, kernbench, aim9 and highalloc do)",
				       ops->name);
		}
		c->wl[i] = workload_load(step, s->machine, &c->cfg[i], file, path, e);
		if (!c->wl[i])
			return -1;
		c->n = (int)i + 1;
		json_t *w = mm_params_dump(c->wl[i]->params, c->cfg[i]);
		json_object_set_new(w, "type", json_string(c->wl[i]->name));
		json_array_append_new(c->eff, w);
	}
	return 0;
}

/* Is an actor other than the caller, and not a daemon, still alive?  Returns: 1
 * with *@out set to it, or 0. */
static int step_actor_left(sg_actor_t *out)
{
	aid_t self = sg_actor_self_get_pid();
	size_t n = sg_actor_count();
	sg_actor_t *all = sg_actor_list();
	int found = 0;
	for (size_t i = 0; all && i < n && !found; i++)
		if (sg_actor_get_pid(all[i]) != self && !sg_actor_is_daemon(all[i])) {
			*out = all[i];
			found = 1;
		}
	free(all);
	return found;
}

/* Finish the running step: its results go to c->results. */
static void step_finish(struct sim_state *st)
{
	struct sim *s = &st->s;
	struct chain *c = st->chain;
	int i = (int)json_array_size(c->results);
	double t1 = simgrid_get_clock();
	s->primary = 0;
	if (s->wl->finish)
		s->wl->finish(s);
	json_t *vm = json_object();
	for (int k = 0; k < MM_NR_VM_EVENTS; k++) {
		json_object_set_new(vm, mm_vm_event_names[k], json_integer((json_int_t)s->vs->ev[k]));
		c->total.ev[k] += s->vs->ev[k];
	}
	json_t *r = json_object();
	json_object_set_new(r, "step", json_integer(i));
	json_object_set_new(r, "primary",
			    json_pack("{s:s,s:f,s:s,s:s}", "name", s->wl->primary, "value", s->primary,
				      "unit", s->wl->unit, "better", s->wl->higher_is_better ? "higher" : "lower"));
	json_object_set_new(r, "metrics", s->metrics ? s->metrics : json_object());
	json_object_set_new(r, "vmstat", vm);
	json_object_set_new(r, "series", s->series ? s->series : json_object());
	json_object_set_new(r, "sim_time", json_pack("[f,f]", c->t0, t1));
	json_object_set(r, "workload", json_array_get(c->eff, (size_t)i));
	json_t *pt = json_array_get(c->points, (size_t)i);
	json_object_set_new(r, "point", pt ? json_deep_copy(pt) : json_object());
	json_array_append_new(c->results, r);
	s->metrics = s->series = NULL;
}

/* The world's on_death hook, inside an exiting actor: when it is the one the
 * chain actor joins, the chain can act from now on. */
static void chain_peer_died(void *arg)
{
	struct chain *c = arg;
	if (c->target >= 0 && sg_actor_self_get_pid() == c->target)
		tm_woken(&c->wake);
}

/* The chain actor: each step in turn, on the one kernel the first step boots.
 * It is a peer of the lookahead world, so the steps' actors may look ahead: it
 * acts only when the actor it joins has ended, and publishes that. */
static void chain_actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct sim_state *st = sg_actor_self_get_data();
	struct sim *s = &st->s;
	struct chain *c = st->chain;
	if (c->slot >= 0) {
		tm_world_hook(&s->world, c->slot);
		s->world.on_death = chain_peer_died;
		s->world.death_arg = c;
	}
	for (int i = 0; i < c->n; i++) {
		struct mm_err e = { "" };
		s->step = i;
		s->wl = c->wl[i];
		s->wl_cfg = c->cfg[i];
		memset(s->vs, 0, sizeof *s->vs);
		c->t0 = simgrid_get_clock();
		c->started = i + 1;
		if (s->wl->start(s, &e)) {
			c->error = strdup(e.msg[0] ? e.msg : "a step failed to start");
			return;
		}
		sg_actor_yield();   /* the new daemons daemonize themselves */
		sg_actor_t a;
		while (step_actor_left(&a)) {
			c->target = sg_actor_get_pid(a);
			c->wake = INFINITY;   /* until a ends (chain_peer_died) */
			sg_actor_join(a, -1);
			c->target = -1;
			c->wake = simgrid_get_clock();
		}
		step_finish(st);
	}
}

int chain_start(struct sim_state *st, struct mm_err *e)
{
	(void)e;
	struct chain *c = st->chain;
	c->wake = simgrid_get_clock();
	c->target = -1;
	c->slot = tm_world_add(&st->s.world, &c->wake);   /* -1: full, lookahead stays off */
	sg_actor_t a = sg_actor_init("chain", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, st);
	sg_actor_start(a, chain_actor, 0, NULL);
	return 0;
}

int chain_complete(struct sim_state *st, json_t *res, struct mm_err *e)
{
	struct sim *s = &st->s;
	struct chain *c = st->chain;
	if (c->error) {
		snprintf(e->msg, sizeof e->msg, "%s", c->error);
		return -1;
	}
	/* stopped at engine.max_time: the running step ends there, as a run does */
	if (c->started > (int)json_array_size(c->results))
		step_finish(st);
	*s->vs = c->total;
	json_t *vm = json_object();
	for (int k = 0; k < MM_NR_VM_EVENTS; k++)
		json_object_set_new(vm, mm_vm_event_names[k], json_integer((json_int_t)c->total.ev[k]));
	json_object_set_new(res, "vmstat", vm);
	/* the run's own primary and metrics: its last step's */
	json_t *last = json_array_get(c->results, json_array_size(c->results) - 1);
	if (last) {
		json_object_set(res, "primary", json_object_get(last, "primary"));
		json_object_set(res, "metrics", json_object_get(last, "metrics"));
		json_object_set(res, "series", json_object_get(last, "series"));
	}
	json_object_set(res, "steps", c->results);
	json_object_set_new(res, "chain_steps", json_integer(c->n));   /* engine.max_time may stop it early */
	return 0;
}

void chain_free(struct sim_state *st)
{
	struct chain *c = st->chain;
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		workload_free(c->wl[i], c->cfg[i]);
	st->s.wl = c->base_wl;   /* sim_release frees the template's cfg */
	st->s.wl_cfg = c->base_cfg;
	json_decref(c->points);
	free(c->wl);
	free(c->cfg);
	json_decref(c->eff);
	json_decref(c->results);
	free(c->error);
	free(c);
	st->chain = NULL;
}

/* The type of merged step @st ("" when it has none). */
static const char *step_type(json_t *st)
{
	return json_string_value(json_object_get(st, "type")) ?: "";
}

/* Steps of different workloads: each point names its step's type, and the
 * keys whose values differ between the steps of one type (seed 003's eight
 * aim9 steps differ by "test"). */
static void typed_points(json_t *points, json_t *merged)
{
	size_t i, j;
	json_t *st, *o;
	int mixed = 0;
	json_array_foreach(merged, i, st) mixed |= strcmp(step_type(st), step_type(json_array_get(merged, 0))) != 0;
	if (!mixed)
		return;
	json_array_foreach(merged, i, st) {
		json_t *pt = json_array_get(points, i);
		json_object_set_new(pt, "workload.type", json_string(step_type(st)));
		const char *k;
		json_t *v;
		json_object_foreach(st, k, v) {
			int same_type = 0, differs = 0, all = 1;
			json_array_foreach(merged, j, o) {
				if (strcmp(step_type(o), step_type(st)))
					continue;
				same_type++;
				json_t *ov = json_object_get(o, k);
				all &= ov != NULL;
				differs |= ov && !json_equal(ov, v);
			}
			char key[300];
			snprintf(key, sizeof key, "workload.%s", k);
			if (strcmp(k, "type") && same_type > 1 && all && differs)
				json_object_set(pt, key, v);
		}
	}
}

json_t *chain_step_points(json_t *steps, json_t *merged)
{
	json_t *points = json_array();
	json_t *first = json_array_get(steps, 0);
	size_t i;
	json_t *st;
	json_array_foreach(steps, i, st) json_array_append_new(points, json_object());
	const char *k;
	json_t *v;
	json_object_foreach(first, k, v) {
		int all = strcmp(k, "type") != 0;
		json_array_foreach(steps, i, st) all &= json_object_get(st, k) != NULL;
		if (!all)
			continue;
		char key[300];
		snprintf(key, sizeof key, "workload.%s", k);
		json_array_foreach(steps, i, st)
			json_object_set(json_array_get(points, i), key, json_object_get(st, k));
	}
	typed_points(points, merged);
	return points;
}
