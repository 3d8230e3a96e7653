/*
 * smp.c - the shared part of the workloads whose tasks run on the SMP scheduler
 * (kernbench, reaim; see smp.h).  One place decides how a new task is placed (the
 * least loaded CPU, as 2.6's sched_exec roughly does), how its actor starts on that
 * CPU's host, and which scheduler and lock metrics a run reports.
 */
#include "workloads/smp.h"

#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/sim.h"
#include "models/hw/disk.h"
#include "models/mm/vmscan.h"

int wl_smp_start(struct wl_smp *w, struct sim *s, double cs_cycles, struct mm_err *e)
{
	if (!(w->k = mm_kernel_boot(s, e)))
		return -1;
	struct sched_cfg sc;
	sched_cfg_default(&sc, (int)s->machine->cpus, s->machine->clock);
	sc.cs_cycles = cs_cycles;
	sc.tick_phase = s->machine->var.tick_phase;   /* machine.variation.sched (0: fixed tick) */
	if (sched_init(&w->sched, &sc))
		return mm_errf(e, s->file, "machine.cpus", "cannot set up the CPU scheduler");
	w->sched_up = true;
	w->sched.bound = s->cpu_actors;
	w->sched.reserved = w->reserved;
	w->k->sched = &w->sched;
	return 0;
}

/* The least loaded CPU (owner + queue + placed-not-started), ties to the lowest. */
static int pick_cpu(const struct wl_smp *w)
{
	int best = 0, bl = -1;
	for (int i = 0; i < w->sched.cfg.ncpu; i++) {
		const struct sched_cpu *p = &w->sched.cpu[i];
		int l = (p->curr ? 1 : 0) + p->nr_queued + w->reserved[i];
		if (bl < 0 || l < bl) {
			best = i;
			bl = l;
		}
	}
	return best;
}

void wl_smp_spawn(struct wl_smp *w, struct mm_task *parent, struct mm_task *t,
		  struct sched_task *st, const char *name, void *wl, void (*fn)(int, char **))
{
	if (parent)
		mm_sync(parent);
	int cpu = pick_cpu(w);
	w->reserved[cpu]++;
	sched_task_init(&w->sched, st, cpu, name);
	mm_task_init_sched(t, w->k, st, name);
	t->wl = wl;
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	sg_actor_t a = sg_actor_init(name, sg_host_by_name(host));
	sg_actor_set_data(a, t);
	sg_actor_start(a, fn, 0, NULL);
}

void wl_smp_enter(struct wl_smp *w, struct mm_task *t)
{
	if (t->tm.w)
		tm_world_hook(t->tm.w, t->tm.slot);   /* counted until it exits */
	/* no simcall from here to the enqueue: the task counts as load throughout */
	w->reserved[t->st->cpu]--;
	sched_start(&w->sched, t->st);
	t->cpu = t->st->cpu;
}

void wl_smp_metrics(struct wl_smp *w, struct sim *s, double end)
{
	struct mm_kernel *k = w->k;
	double busy = 0;
	for (int i = 0; i < w->sched.cfg.ncpu; i++)
		busy += w->sched.cpu[i].busy_s;   /* closed once every task exited */
	sim_metric(s, "idle_s", w->sched.cfg.ncpu * (end - w->sched.t0) - busy);
	/* every disk of the machine (the drives' requests: a controller's destages
	 * count as writes) and, when any disk has one, its controller's counters */
	double rd = 0, wr = 0, cached = 0, through = 0;
	bool ctl = false;
	for (int i = 0; i < s->machine->ndisks; i++) {
		const struct disk_stats *ds = disk_get_stats(sim_disk(s, i));
		rd += (double)ds->reads;
		wr += (double)ds->writes;
		const struct ctl *c = disk_ctl(sim_disk(s, i));
		if (c) {
			ctl = true;
			cached += (double)ctl_get_stats(c)->cached_writes;
			through += (double)ctl_get_stats(c)->through_writes;
		}
	}
	sim_metric(s, "disk_reads", rd);
	sim_metric(s, "disk_writes", wr);
	if (ctl) {
		sim_metric(s, "ctl_cached_writes", cached);
		sim_metric(s, "ctl_through_writes", through);
	}
	sim_metric(s, "kswapd_cpu_s", k->kswapd.tm.paid / k->clock);
	mm_kernel_lock_metrics(k, s);
	double hold = 0;
	for (int i = 0; i < MM_NR_ZONES; i++)
		hold += k->lru_lock[i].hold_s;
	sim_metric(s, "lru_lock_cpu_share", busy > 0 ? hold / busy : 0);
	if (k->kops->finish)
		k->kops->finish(k->rc, k, s);
	sched_retire(&w->sched);   /* in a chain: this step is over */
}

void wl_smp_fini(struct wl_smp *w)
{
	if (w->sched_up)
		sched_destroy(&w->sched);
	w->sched_up = false;
}
