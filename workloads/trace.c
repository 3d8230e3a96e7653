/*
 * trace.c - the `trace` workload: replay a page-reference trace through the timed
 * engine.
 *
 * One actor on cpu0 walks the trace through the kernel's reclaim module with the
 * same replay loop as `mmemu replay` (workloads/replay.c), so fault counts agree
 * exactly with the untimed replay.  Every reference costs ref_cycles of CPU, charged
 * as pending cycles (emu/core/timemodel.h); a fault additionally costs fault_cycles of
 * kernel time and a synchronous disk read of one page at the page's own offset
 * (page id x page size), so the disk model's seek and rotation see the trace's
 * locality.  Primary metric: simulated run time (lower is better).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/sim.h"
#include "emu/core/timemodel.h"
#include "models/hw/disk.h"
#include "models/hw/machine.h"
#include "models/reclaim/reclaim.h"
#include "workloads/replay.h"
#include "workloads/tracefile.h"
#include "workloads/workload.h"

static const char *const fmt_names[] = { "auto", "plain", "txt", "csv", "bin", NULL };

struct trace_cfg {
	char file[MM_PSTR];
	int format;            /* enum trace_format, same order as fmt_names */
	int64_t obj_id_col;
	int64_t frames;        /* 0: all of the machine's memory minus kernel_reserved */
	int64_t loops;
	double ref_cycles;
	double fault_cycles;
	double sample;         /* seconds between series samples */
	/* run-time state */
	const struct trace *tr;  /* trace_load_shared(): one parse for every sweep point */
	uint32_t nframes;
	struct replay rp;
	struct reclaim *rc;
	double disk_wait;
	double end;
	struct tm tm;          /* the replaying actor's time (outlives it: tm_bind) */
};

static const struct mm_param trace_params[] = {
	MM_PARAM(struct trace_cfg, file, "file", MM_P_STRING, 1, 0, NULL,
		 "trace file, relative to the scenario file's directory"),
	MM_PARAM_ENUM(struct trace_cfg, format, "format", fmt_names, "\"auto\"",
		      "plain (one page per line), libCacheSim txt or csv, mmemu bin, or auto"),
	MM_PARAM(struct trace_cfg, obj_id_col, "obj_id_col", MM_P_INT, 0, 64, "0",
		 "csv: 1-based object-id column (0: by header name)"),
	MM_PARAM(struct trace_cfg, frames, "frames", MM_P_INT, 0, 1 << 30, "0",
		 "page frames for the trace (0: machine memory minus kernel_reserved)"),
	MM_PARAM(struct trace_cfg, loops, "loops", MM_P_INT, 1, 1000000, "1",
		 "times the trace is replayed"),
	MM_PARAM(struct trace_cfg, ref_cycles, "ref_cycles", MM_P_DOUBLE, 0, 1e9, "10",
		 "CPU cycles per reference (calibration)"),
	MM_PARAM(struct trace_cfg, fault_cycles, "fault_cycles", MM_P_DOUBLE, 0, 1e9, "5000",
		 "kernel CPU cycles per fault, besides the disk read (calibration)"),
	MM_PARAM(struct trace_cfg, sample, "sample", MM_P_TIME, 1e-6, 1e6, "1",
		 "simulated seconds between samples of the fault-rate series"),
	MM_PARAM_END
};

static int trace_check(void *cfgp, const struct machine_cfg *m, const char *file,
		       const char *path, struct mm_err *e)
{
	struct trace_cfg *c = cfgp;
	char tpath[1024], sub[256], dir[1024];
	snprintf(dir, sizeof dir, "%s", file ? file : ".");
	if (c->file[0] == '/')
		snprintf(tpath, sizeof tpath, "%s", c->file);
	else
		snprintf(tpath, sizeof tpath, "%s/%s", dirname(dir), c->file);
	trace_release(c->tr);
	c->tr = NULL;
	if (trace_load_shared(&c->tr, tpath, (enum trace_format)c->format, (int)c->obj_id_col, e)) {
		/* "TRACE: line N: ..." becomes "SCENARIO: workload.file: TRACE: line N: ..." */
		struct mm_err inner = *e;
		snprintf(sub, sizeof sub, "%s.file", path);
		return mm_errf(e, file, sub, "%s", inner.msg);
	}
	if (c->tr->nrefs == 0) {
		snprintf(sub, sizeof sub, "%s.file", path);
		return mm_errf(e, file, sub, "the trace %s holds no references", tpath);
	}
	uint64_t ps = machine_page_size(m);
	uint64_t avail = (m->mem.memory - m->mem.kernel_reserved) / ps;
	c->nframes = c->frames ? (uint32_t)c->frames : (uint32_t)avail;
	if (c->frames && (uint64_t)c->frames > avail) {
		snprintf(sub, sizeof sub, "%s.frames", path);
		return mm_errf(e, file, sub, "expected at most %llu frames (the machine's memory)",
			       (unsigned long long)avail);
	}
	if (c->nframes == 0) {
		snprintf(sub, sizeof sub, "%s.frames", path);
		return mm_errf(e, file, sub, "expected at least one frame");
	}
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the trace workload needs a disk for faults");
	return 0;
}

static void trace_actor(int argc, char **argv)
{
	struct sim *s = sg_actor_self_get_data();
	struct trace_cfg *c = s->wl_cfg;
	struct tm *t = &c->tm;
	uint64_t ps = machine_page_size(s->machine);
	struct disk *dk = sim_disk(s, 0);
	double next_sample = c->sample;
	uint64_t faults_at_sample = 0;

	tm_init(t, s->engine.quantum, s->machine->clock);
	s->cpu_actors[0]++;
	tm_bind(t, &s->cpu_actors[0]);
	for (int64_t l = 0; l < c->loops; l++) {
		for (size_t i = 0; i < c->tr->nrefs; i++) {
			uint32_t page = c->tr->refs[i];
			tm_charge(t, c->ref_cycles);
			if (replay_ref(&c->rp, page) == 1) {
				tm_charge(t, c->fault_cycles);
				tm_sync(t);
				c->disk_wait += disk_io(dk, t, 0, (uint64_t)page * ps, ps);
				mm_count(s->vs, MM_PGMAJFAULT, 1);
				mm_count(s->vs, MM_PGPGIN, ps / 1024);
			}
			double now = simgrid_get_clock();
			if (now >= next_sample) {
				sim_series_add(s, "faults_per_s", now,
					       (double)(c->rp.faults - faults_at_sample) / c->sample);
				faults_at_sample = c->rp.faults;
				next_sample += c->sample;
			}
		}
	}
	tm_sync(t);
	c->end = simgrid_get_clock();
}

static int trace_start(struct sim *s, struct mm_err *e)
{
	struct trace_cfg *c = s->wl_cfg;
	c->rc = s->make->reclaim(s, c->nframes, e);
	if (!c->rc)
		return -1;
	if (replay_init(&c->rp, c->rc, c->tr->npages, s->vs, e))
		return -1;
	if (c->loops == 1 && replay_prepare(&c->rp, c->tr->refs, c->tr->nrefs, e))
		return -1;
	if (c->loops > 1 && c->rc->ops->needs_trace)
		return mm_errf(e, s->file, "workload.loops",
			       "offline module %s needs loops = 1", c->rc->ops->name);
	sg_actor_t a = sg_actor_init("trace", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, s);
	sg_actor_start(a, trace_actor, 0, NULL);
	return 0;
}

static void trace_finish(struct sim *s)
{
	struct trace_cfg *c = s->wl_cfg;
	s->primary = c->end;
	sim_metric(s, "refs", (double)c->rp.refs);
	sim_metric(s, "faults", (double)c->rp.faults);
	sim_metric(s, "hits", (double)c->rp.hits);
	sim_metric(s, "miss_ratio", c->rp.refs ? (double)c->rp.faults / (double)c->rp.refs : 0);
	sim_metric(s, "frames", (double)c->nframes);
	sim_metric(s, "distinct_pages", (double)c->tr->npages);
	sim_metric(s, "disk_wait_s", c->disk_wait);
	const struct disk_stats *ds = disk_get_stats(sim_disk(s, 0));
	sim_metric(s, "disk_reads", (double)ds->reads);
	sim_metric(s, "disk_seek_s", ds->seek);
	sim_metric(s, "disk_rot_s", ds->rot);
	sim_metric(s, "disk_xfer_s", ds->xfer);
}

static void trace_fini(void *cfgp)
{
	struct trace_cfg *c = cfgp;
	replay_fini(&c->rp);
	reclaim_destroy(c->rc);
	trace_release(c->tr);
}

const struct workload_ops workload_trace = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "trace",
	.desc = "replay a page-reference trace; a fault costs a disk read",
	.params = trace_params,
	.cfg_size = sizeof(struct trace_cfg),
	.primary = "runtime",
	.unit = "s",
	.higher_is_better = 0,
	.check = trace_check,
	.start = trace_start,
	.finish = trace_finish,
	.fini = trace_fini,
};
