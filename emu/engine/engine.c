/*
 * engine.c - one simulation end to end: spec -> SimGrid platform -> actors -> JSON.
 *
 * The platform is generated from the machine section (a host "cpuN" per CPU whose
 * speed is its clock in cycles/s, and an "io" host holding the disks) as XML in a
 * temporary file that SimGrid loads and that is removed at once; users never see
 * it.  SimGrid logging is silenced: results are JSON, not log lines.
 *
 * Run-to-run variance: the platter phase of each disk, and (when the machine
 * declares "variation") the machine's clock factor, each disk's speed factor and
 * the scheduler's tick phase, all drawn from streams of (seed, run index).  The
 * factors are applied to the machine configuration in sim_prepare(), before
 * anything reads it, so the platform XML, the disks and every clock-based cost see
 * the same effective values, and the results echo them.
 *
 * Teardown: sim_release() frees everything the run allocated, the models'
 * SimGrid mutexes, conditions and semaphores included.  SimGrid aborts on
 * destroying a condition or semaphore that an actor waits on, so no actor may be
 * left by then.  A complete run leaves none (SimGrid kills the daemons, disk
 * drivers and kswapd, when the last other actor ends); a run stopped at
 * engine.max_time leaves blocked actors, which sim_run() kills after the results
 * are taken, letting the engine unwind them: no simulated time passes, and of
 * mmemu only the time model's exit callbacks run (they mark the actor gone in
 * the world, which outlives them).  With no actor left, nothing in SimGrid
 * refers to the destroyed objects any more, not even its clean-up at exit.
 */
#include "emu/core/rng.h"
#include "emu/engine/engine.h"
#include "emu/engine/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "models/hw/disk.h"
#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/mm/kernel.h"
#include "models/reclaim/reclaim.h"
#include "models/sched/sched.h"

const struct mm_param engine_params[] = {
	MM_PARAM(struct engine_cfg, quantum, "quantum", MM_P_TIME, 0, 1, "\"10us\"",
		 "pending cycles are paid at least this often (time model error bound)"),
	MM_PARAM(struct engine_cfg, max_time, "max_time", MM_P_TIME, 0, 1e7, "0",
		 "stop the simulation at this simulated time (0: when the workload ends)"),
	MM_PARAM(struct engine_cfg, lookahead, "lookahead", MM_P_BOOL, 1, 0, "true",
		 "skip payments no other actor could observe (same results, fewer simcalls; docs/architecture.md)"),
	MM_PARAM(struct engine_cfg, slack, "slack", MM_P_TIME, 0, 0.01, "0",
		 "let an actor run this far ahead of the others; shared resources book out of order (0: exact; docs/architecture.md, Slack)"),
	MM_PARAM_END
};

/* The module chosen by kernel section @k for @kind: a name, or an object with
 * "module" (then the object is also the module's parameters); @def if absent. */
static int module_choice(json_t *k, const char *kind, const char *def, const char **mod,
			 json_t **params, const char *file, const char *path, struct mm_err *e)
{
	char sub[256], msub[280];
	json_t *r = json_object_get(k, kind);
	snprintf(sub, sizeof sub, "%s.%s", path, kind);
	*mod = def;
	*params = NULL;
	if (json_is_string(r)) {
		*mod = json_string_value(r);
	} else if (json_is_object(r)) {
		json_t *m = json_object_get(r, "module");
		snprintf(msub, sizeof msub, "%s.module", sub);
		if (!json_is_string(m))
			return mm_errf(e, file, msub, "expected a string naming a %s module", kind);
		*mod = json_string_value(m);
		*params = r;
	} else if (r) {
		return mm_errf(e, file, sub, "expected a module name or an object with \"module\"");
	}
	return 0;
}

/* The kernel's choice for module @kind (default @def); @sub gets its JSON path.
 * Returns: 0, or -1 with @e set. */
static int sim_choice(struct sim *s, const char *kind, const char *def, const char **mod,
		      json_t **params, char *sub, size_t len, struct mm_err *e)
{
	char path[200];
	snprintf(path, sizeof path, "kernels.%s", s->kernel_name ? s->kernel_name : "?");
	snprintf(sub, len, "%s.%s", path, kind);
	return module_choice(s->kernel, kind, def, mod, params, s->file, path, e);
}

static struct reclaim *make_reclaim(struct sim *s, uint32_t nframes, struct mm_err *e)
{
	char sub[256];
	const char *mod;
	json_t *params;
	if (sim_choice(s, "reclaim", "lru", &mod, &params, sub, sizeof sub, e))
		return NULL;
	return reclaim_create(mod, params, nframes, s->vs, s->file, sub, e);
}

static struct kmap *make_kmap(struct sim *s, struct mm_kernel *k, struct mm_err *e)
{
	char sub[256];
	const char *mod;
	json_t *params;
	if (sim_choice(s, "kmap", "direct", &mod, &params, sub, sizeof sub, e))
		return NULL;
	return kmap_create(mod, params, k, s->vs, s->file, sub, e);
}

static struct coloring *make_coloring(struct sim *s, uint32_t ncolors, struct mm_err *e)
{
	char sub[256];
	const char *mod;
	json_t *params;
	if (sim_choice(s, "coloring", "none", &mod, &params, sub, sizeof sub, e))
		return NULL;
	struct coloring *c = coloring_create(mod, params, ncolors, s->vs, s->file, sub, e);
	if (c)
		mm_rng_seed(&c->rng, s->seed, s->run, "coloring");
	return c;
}

static struct alloc *make_alloc(struct sim *s, struct mm_phys *phys, struct mm_err *e)
{
	char sub[256];
	const char *mod;
	json_t *params;
	if (sim_choice(s, "alloc", "buddy", &mod, &params, sub, sizeof sub, e))
		return NULL;
	return alloc_create(mod, params, phys, s->vs, s->file, sub, e);
}

static const char *const kernel_keys[] = { "reclaim", "alloc", "vm", "kmap", "coloring",
					   "machine", "description", NULL };

/* Check a kernel section: known keys, module choices and their parameters. */
static int kernel_check(struct sim *s, json_t *k, const char *file, const char *path,
			struct mm_err *e)
{
	char sub[256];
	const char *key;
	json_t *v;
	if (!json_is_object(k))
		return mm_errf(e, file, path, "expected an object");
	json_object_foreach(k, key, v) {
		int ok = 0;
		for (int i = 0; kernel_keys[i]; i++)
			ok |= strcmp(key, kernel_keys[i]) == 0;
		snprintf(sub, sizeof sub, "%s.%s", path, key);
		if (!ok)
			return mm_errf(e, file, sub,
				       "unknown key (expected one of: reclaim, alloc, kmap, coloring, vm, machine, description)");
	}
	if (json_object_get(k, "description") && !json_is_string(json_object_get(k, "description"))) {
		snprintf(sub, sizeof sub, "%s.description", path);
		return mm_errf(e, file, sub, "expected a string");
	}
	struct reclaim *rc = make_reclaim(s, 1, e);
	if (!rc)
		return -1;
	json_t *eff = json_object();
	json_object_set_new(s->effective, "kernel", eff);
	json_object_set_new(eff, "reclaim", reclaim_params_json(rc));
	reclaim_destroy(rc);
	const char *amod;
	json_t *aparams;
	if (module_choice(k, "alloc", "buddy", &amod, &aparams, file, path, e))
		return -1;
	snprintf(sub, sizeof sub, "%s.alloc", path);
	const struct alloc_ops *ao = alloc_find(amod);
	if (!ao) {
		/* let alloc_create phrase the error (it lists the valid names) */
		struct alloc *a = alloc_create(amod, aparams, NULL, NULL, file, sub, e);
		alloc_destroy(a);
		return -1;
	}
	static const char *const skip_module[] = { "module", NULL };
	void *acfg = calloc(1, ao->cfg_size ? ao->cfg_size : 1);
	int arc = acfg ? mm_params_load(ao->params, acfg, aparams, file, sub, skip_module, e) : -1;
	if (!arc) {
		json_t *ad = mm_params_dump(ao->params, acfg);
		json_object_set_new(ad, "module", json_string(ao->name));
		json_object_set_new(eff, "alloc", ad);
	}
	free(acfg);
	if (arc)
		return -1;
	const char *kmod, *cmod;
	json_t *kparams, *cparams;
	if (module_choice(k, "kmap", "direct", &kmod, &kparams, file, path, e) ||
	    module_choice(k, "coloring", "none", &cmod, &cparams, file, path, e))
		return -1;
	snprintf(sub, sizeof sub, "%s.kmap", path);
	struct kmap *km = kmap_create(kmod, kparams, NULL, NULL, file, sub, e);
	if (!km)
		return -1;
	json_object_set_new(eff, "kmap", kmap_params_json(km));
	kmap_destroy(km);
	snprintf(sub, sizeof sub, "%s.coloring", path);
	struct coloring *co = coloring_create(cmod, cparams, 1, NULL, file, sub, e);
	if (!co)
		return -1;
	json_object_set_new(eff, "coloring", coloring_params_json(co));
	coloring_destroy(co);
	struct mm_kernel_cfg kc;
	if (mm_kernel_load_cfg(&kc, k, file, path, e) ||
	    mm_kernel_cfg_check(&kc, s->machine, file, path, e))
		return -1;
	json_object_set_new(eff, "vm", mm_params_dump(mm_kernel_params, &kc));
	return 0;
}

const struct sim_factory sim_modules = {
	.alloc = make_alloc,
	.reclaim = make_reclaim,
	.kmap = make_kmap,
	.coloring = make_coloring,
};

struct sim *sim_state_bind(struct sim_state *st)
{
	memset(st, 0, sizeof *st);
	struct sim *s = &st->s;
	s->machine = &st->machine;
	s->vs = &st->vs;
	s->disks = st->disks;
	s->cpu_actors = st->cpu_actors;
	s->make = &sim_modules;
	return s;
}

int sim_prepare(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e)
{
	struct sim *s = sim_state_bind(st);
	s->file = file;
	s->spec = spec;
	s->effective = json_object();
	s->kernel_name = json_string_value(json_object_get(spec, "kernel"));
	s->seed = (uint64_t)json_integer_value(json_object_get(spec, "seed"));
	s->run = (int)json_integer_value(json_object_get(spec, "run"));
	char kpath[200];
	snprintf(kpath, sizeof kpath, "kernels.%s", s->kernel_name ? s->kernel_name : "?");

	if (machine_load(s->machine, json_object_get(spec, "machine"), file, "machine", e))
		return -1;
	machine_apply_variation(s->machine, s->seed, (uint64_t)s->run, s->kernel_name);
	s->ndisks = s->machine->ndisks;
	if (mm_params_load(engine_params, &s->engine, json_object_get(spec, "engine"), file,
			   "engine", NULL, e))
		return -1;
	s->kernel = json_object_get(spec, "kernel_cfg");
	if (kernel_check(s, s->kernel, file, kpath, e))
		return -1;
	s->wl = workload_load(json_object_get(spec, "workload"), s->machine, &s->wl_cfg, file,
			      "workload", e);
	if (!s->wl)
		return -1;
	const char *mod;
	json_t *params;
	if (module_choice(s->kernel, "reclaim", "lru", &mod, &params, file, kpath, e))
		return -1;
	const struct reclaim_ops *ro = reclaim_find(mod);
	char rpath[256];
	snprintf(rpath, sizeof rpath, "%s.reclaim", kpath);
	if (ro && s->wl->kernel && !ro->kops)
		return mm_errf(e, file, rpath,
			       "module %s runs only on frames; the %s workload needs a kernel-level module (lru2q, clockpro, mglru)",
			       mod, s->wl->name);
	if (ro && !s->wl->kernel && !reclaim_has_frames(ro))
		return mm_errf(e, file, rpath,
			       "module %s needs zones; the %s workload runs frame-level modules (fifo, lru, clock, opt, random)",
			       mod, s->wl->name);
	json_object_set_new(s->effective, "machine", machine_dump(s->machine));
	json_object_set_new(s->effective, "engine", mm_params_dump(engine_params, &s->engine));
	json_t *w = mm_params_dump(s->wl->params, s->wl_cfg);
	json_object_set_new(w, "type", json_string(s->wl->name));
	json_object_set_new(s->effective, "workload", w);
	/* what the run would refuse, validation refuses first: an offline module (opt)
	 * knows the future of one pass over the trace, not of a loop over it */
	json_t *loops = json_object_get(w, "loops");
	if (ro && ro->needs_trace && json_integer_value(loops) > 1)
		return mm_errf(e, file, "workload.loops", "offline module %s needs loops = 1", mod);
	return chain_load(st, spec, file, e);
}

void sim_release(struct sim_state *st)
{
	struct sim *s = &st->s;
	chain_free(st);
	workload_free(s->wl, s->wl_cfg);
	s->wl_cfg = NULL;
	mm_kernel_shutdown(s);   /* after the workloads' own fini: nothing left refers to it */
	for (int i = 0; i < MACHINE_MAX_DISKS; i++) {
		disk_destroy(s->disks[i]);
		s->disks[i] = NULL;
	}
	json_decref(s->metrics);
	json_decref(s->series);
	json_decref(s->effective);
	s->metrics = s->series = s->effective = NULL;
	free(s->invariant_error);
	s->invariant_error = NULL;
}

/* Write the platform XML for @m into a temporary file. Returns: 0 or -1. */
void sim_simgrid_init(void)
{
	/* MMEMU_SIMGRID_CONTEXTS picks SimGrid's context factory (test golden-threads
	 * sets thread; ASan warns about, but runs, the default raw contexts).
	 * MMEMU_SIMGRID_STACK_KB sets each actor's stack (SimGrid's default 8 MiB):
	 * the tests run under meson's MALLOC_PERTURB_, where glibc writes every byte
	 * of every block it hands out, an actor's whole stack included. */
	char factory[64], stack[64];
	char *argv[4] = { "mmemu", "--log=root.thres:critical", NULL, NULL };
	int argc = 2;
	const char *ctx = getenv("MMEMU_SIMGRID_CONTEXTS");
	if (ctx && *ctx && strlen(ctx) < 32) {
		snprintf(factory, sizeof factory, "--cfg=contexts/factory:%s", ctx);
		argv[argc++] = factory;
	}
	const char *kb = getenv("MMEMU_SIMGRID_STACK_KB");
	if (kb && strspn(kb, "0123456789") == strlen(kb) && strlen(kb) >= 2 && strlen(kb) <= 6) {
		snprintf(stack, sizeof stack, "--cfg=contexts/stack-size:%s", kb);
		argv[argc++] = stack;
	}
	simgrid_init(&argc, argv);
}

int sim_write_platform(const struct machine_cfg *m, char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(path, len, "%s/mmemu-platform-XXXXXX.xml", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		return -1;
	}
	fprintf(f, "<?xml version='1.0'?>\n"
		   "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		   "<platform version=\"4.1\">\n<zone id=\"machine\" routing=\"Full\">\n");
	for (int i = 0; i < m->cpus; i++)
		fprintf(f, "  <host id=\"cpu%d\" speed=\"%.17gf\"/>\n", i, m->clock);
	fprintf(f, "  <host id=\"io\" speed=\"1f\">\n");
	for (int i = 0; i < m->ndisks; i++)
		fprintf(f, "    <disk id=\"%s\" read_bw=\"%.17gBps\" write_bw=\"%.17gBps\"/>\n",
			m->disks[i].name, m->disks[i].read_bw, m->disks[i].write_bw);
	fprintf(f, "  </host>\n</zone>\n</platform>\n");
	if (fclose(f)) {
		unlink(path);
		return -1;
	}
	return 0;
}

static json_t *vmstat_json(const struct mm_vmstat *vs)
{
	json_t *o = json_object();
	for (int i = 0; i < MM_NR_VM_EVENTS; i++)
		json_object_set_new(o, mm_vm_event_names[i], json_integer((json_int_t)vs->ev[i]));
	return o;
}

int sim_start(struct sim_state *st, json_t *spec, const char *file, struct mm_err *e)
{
	struct sim *s = &st->s;
	char plat[512];

	if (sim_prepare(st, spec, file, e))
		goto fail;
	if (sim_write_platform(s->machine, plat, sizeof plat)) {
		mm_errf(e, file, NULL, "cannot write the SimGrid platform to a temporary file");
		goto fail;
	}
	sim_simgrid_init();
	simgrid_load_platform(plat);
	unlink(plat);

	tm_world_init(&s->world, s->engine.max_time);
	s->world.off = !s->engine.lookahead;
	s->world.slack = s->engine.slack;
	for (int i = 0; i < s->machine->ndisks; i++) {
		/* run-to-run variance: where the platter is when the run starts */
		struct mm_rng rng;
		char stream[MM_PSTR + 8];
		snprintf(stream, sizeof stream, "disk-%s", s->machine->disks[i].name);
		mm_rng_seed(&rng, s->seed, (uint64_t)s->run, stream);
		s->disks[i] = disk_create(&s->machine->disks[i], mm_rng_double(&rng), &s->world);
		if (!s->disks[i]) {
			mm_errf(e, file, "machine.disks", "cannot create disk %s", s->machine->disks[i].name);
			goto fail;
		}
	}
	if (st->chain ? chain_start(st, e) : s->wl->start(s, e))
		goto fail;
	return 0;
fail:
	sim_release(st);
	return -1;
}

json_t *sim_complete(struct sim_state *st, struct mm_err *e)
{
	struct sim *s = &st->s;
	if (s->engine.max_time > 0)
		simgrid_run_until(s->engine.max_time);
	else
		simgrid_run();
	s->sim_time = simgrid_get_clock();
	if (!st->chain && s->wl->finish)
		s->wl->finish(s);

	json_t *res = json_object();
	json_object_set_new(res, "primary",
			    json_pack("{s:s,s:f,s:s,s:s}", "name", s->wl->primary, "value", s->primary,
				      "unit", s->wl->unit, "better",
				      s->wl->higher_is_better ? "higher" : "lower"));
	json_object_set_new(res, "metrics", s->metrics ? json_incref(s->metrics) : json_object());
	json_object_set_new(res, "vmstat", vmstat_json(s->vs));
	json_object_set_new(res, "series", s->series ? json_incref(s->series) : json_object());
	json_object_set_new(res, "sim_time", json_real(s->sim_time));
	json_object_set_new(res, "params", json_incref(s->effective));
	if (st->chain && chain_complete(st, res, e)) {
		json_decref(res);
		return NULL;
	}
	if (s->invariant_error)
		json_object_set_new(res, "invariant_error", json_string(s->invariant_error));
	return res;
}

json_t *sim_run(json_t *spec, const char *file, struct mm_err *e)
{
	struct sim_state st;
	if (sim_start(&st, spec, file, e))
		return NULL;
	json_t *res = sim_complete(&st, e);
	/* a run stopped at engine.max_time: end the actors left (see above) */
	if (sg_actor_count() > 0) {
		sg_actor_kill_all();
		simgrid_run();
	}
	sim_release(&st);
	return res;
}
