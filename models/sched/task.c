/*
 * task.c - tasks: an actor's view of the kernel (struct mm_task), its CPU time,
 * blocking, sleeps and disk waits (see kernel.h).
 *
 * Models what an mm path of Linux 2.6.15 gets from kernel/sched.c: system cycles
 * are paid on the task's CPU without preemption (no CONFIG_PREEMPT), user cycles
 * through the CPU scheduler (models/sched/sched.c) when the workload has one; a task
 * that blocks gives up its CPU (schedule()) and waits for one when woken
 * (mm_block/mm_unblock); timed naps are schedule_timeout()-style sleeps
 * (mm_sleep); and a disk request is waited for as lock_page() and
 * wait_on_page_writeback() of mm/filemap.c do, through io_schedule()
 * (mm_disk_wait).  Untimed (mm_set_untimed), naps and disk waits take no time.
 */
#include "models/mm/kernel.h"
#include "models/hw/disk.h"

#include <stddef.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "emu/core/sim.h"
#include "models/sched/sched.h"

struct mm_task *mm_current(void)
{
	return sg_actor_self_get_data();
}

void mm_task_init(struct mm_task *t, struct mm_kernel *k, int cpu, const char *name)
{
	memset(t, 0, sizeof *t);
	t->k = k;
	t->cpu = cpu;
	t->name = name;
	tm_init(&t->tm, k->s->engine.quantum, k->clock);
	if (cpu >= 0 && cpu < MACHINE_MAX_CPUS) {
		k->s->cpu_actors[cpu]++;
		tm_bind(&t->tm, &k->s->cpu_actors[cpu]);
	}
	tm_join(&t->tm, &k->s->world);
}

/* tm pay hook of a scheduled task: system cycles on the CPU it owns, without
 * preemption (the slice is used up; sched_run acts on expiry at user level). */
static void sched_pay_system(struct tm *tm, double cycles)
{
	struct mm_task *t = (struct mm_task *)((char *)tm - offsetof(struct mm_task, tm));
	sched_run_kernel(t->k->sched, t->st, cycles);
}

void mm_task_init_sched(struct mm_task *t, struct mm_kernel *k, struct sched_task *st,
			const char *name)
{
	memset(t, 0, sizeof *t);
	t->k = k;
	t->cpu = st->cpu;
	t->name = name;
	t->st = st;
	tm_init(&t->tm, k->s->engine.quantum, k->clock);
	if (k->sched)
		t->tm.pay = sched_pay_system;
	/* a scheduler registered in the lookahead world (sched_join) keeps the
	 * task's wake slot: the task may look ahead like an unscheduled actor */
	if (k->sched && k->sched->world && tm_join(&t->tm, k->sched->world) == 0) {
		st->wake = &t->tm.wake;
		t->tm.pay_wake = 1;
	}
}

void mm_user(struct mm_task *t, double cycles)
{
	struct mm_kernel *k = t->k;
	if (k->untimed)
		return;
	if (t->tm.pay_wake && k->sched && t->st && !(t->tm.wait > 0) && t->tm.pending > 0) {
		/* the pending system cycles and the user cycles in one payment when
		 * no slice expiry falls between them (sched_run_both) */
		double kc = t->tm.pending;
		t->tm.pending = 0;
		t->tm.ahead = 0;
		t->tm.check = t->tm.quantum;
		t->tm.paid += kc;
		t->tm.executes++;
		t->user_cycles += cycles;
		sched_run_both(k->sched, t->st, kc, cycles);
		t->cpu = t->st->cpu;
		return;
	}
	tm_sync(&t->tm);
	t->user_cycles += cycles;
	if (k->sched && t->st) {
		sched_run(k->sched, t->st, cycles);
		t->cpu = t->st->cpu;
	} else {
		tm_pay(&t->tm, cycles);
	}
}

void mm_block(struct mm_task *t)
{
	tm_sync(&t->tm);
	if (t->k->sched && t->st)
		sched_block(t->k->sched, t->st);
}

void mm_unblock(struct mm_task *t)
{
	if (t->k->sched && t->st)
		t->cpu = sched_wake(t->k->sched, t->st);
}

void mm_disk_wait(struct mm_kernel *k, struct mm_task *t, struct disk *dk, int write,
		  uint64_t pos, uint64_t bytes)
{
	if (k->untimed)
		return;
	if (k->sched && t->st)
		mm_block(t);   /* the CPU goes to another task (an unscheduled task keeps its
				* cycles for disk_io, which may join them with the wait) */
	t->io_wait_s += disk_io(dk, &t->tm, write, pos, bytes);   /* pays t's cycles first */
	if (t->st)
		tm_sync(&t->tm);   /* a wait disk_io deferred ends before the task asks for a CPU */
	mm_unblock(t);
}

void mm_sleep(struct mm_task *t, double sec, double *acct)
{
	if (t->k->untimed)
		return;
	mm_block(t);
	if (sec > 0) {
		t->tm.wake = simgrid_get_clock() + sec;
		sg_actor_sleep_for(sec);
	}
	mm_unblock(t);
	if (acct)
		*acct += sec;
}
