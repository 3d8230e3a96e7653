/*
 * kbuild.c - the processes of a Kbuild rule around cc1 (see kbuild.h).
 *
 * Design.  2.6.10's scripts/Makefile.build runs every C file's rule_cc_o_c as
 * one `sh -c` (make vfork()s it, GNU make's job.c): gcc's driver, then
 * scripts/basic/fixdep, `rm -f` of the depfile and `mv -f` of the .cmd file,
 * each a fork() and exec of the shell; the driver vfork()s cc1 and as
 * (libiberty's pexecute).  Each process here has its own exec (a fresh
 * address space, its binary and shared libraries mapped and their text faulted
 * in through the page cache), its own anonymous pages, and its exit.  One actor
 * plays a chain of parent and child one at a time (a parent only sleeps in
 * wait4 while its child runs): the parent's switches are counted on the
 * actor's scheduler entity (the child-runs-first switch of fork, the vfork
 * and wait4 sleeps), and the scheduler moves the actor as the kernel would
 * move the child (sched_exec) and wakes the parent on the child's CPU
 * (sched_exit_to_parent).  What each program touches is a declared judgement
 * of the scenario (docs/kernbench.md, "Every process of a Kbuild").
 */
#include "workloads/kbuild.h"

#include <string.h>

#include "models/mm/fmap.h"
#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "models/sched/sched.h"

/* Map @n pages of @f (n > 0) into slot @slot of @pr and fault them in.
 * Returns: 0, or -1 (out of memory). */
static int map_text(struct mm_kernel *k, struct mm_task *t, struct kb_proc *pr, int slot,
		    struct mm_file *f, uint32_t n)
{
	if (!f || n == 0)
		return 0;
	pr->map[slot] = mm_fmap_create(k, t, f, n, 0);
	if (!pr->map[slot])
		return -1;
	return mm_fmap_touch(k, t, pr->map[slot], 0, n, false) < 0 ? -1 : 0;
}

int kb_exec(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
	    const struct kb_prog *p, struct kb_proc *pr)
{
	memset(pr, 0, sizeof *pr);
	pr->as = mm_as_new(k, t);
	if (!pr->as)
		return -1;
	if (map_text(k, t, pr, 0, p->bin, p->text))
		return -1;
	if (p->dynamic && l && map_text(k, t, pr, 1, l->lib, l->text))
		return -1;
	if (p->data > 0 && (mm_brk(k, t, pr->as, p->data) ||
			    mm_touch(k, t, pr->as, 0, p->data, true) < 0))
		return -1;
	return 0;
}

void kb_exit(struct mm_kernel *k, struct mm_task *t, struct kb_proc *pr)
{
	for (int i = 0; i < 2; i++) {
		if (pr->map[i])
			mm_fmap_destroy(k, t, pr->map[i]);
		pr->map[i] = NULL;
	}
	if (pr->as)
		mm_as_exit(k, t, pr->as);
	pr->as = NULL;
	mm_sync(t);
}

int kb_fork_exec(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
		 struct kb_proc *parent, uint64_t *vfork_sleeps, const struct kb_prog *p,
		 struct kb_proc *child)
{
	struct sched *s = k->sched;
	bool forked = parent && parent->as;
	memset(child, 0, sizeof *child);
	if (forked) {
		struct mm_as *copy = mm_as_fork(k, t, parent->as);
		if (!copy)
			return -1;
		mm_sync(t);
		if (s && t->st)
			sched_fork_child_first(s, t->st);
		mm_as_exit(k, t, copy);   /* exec: the copy goes (exec_mmap) */
	} else if (vfork_sleeps) {
		(*vfork_sleeps)++;   /* vfork: the parent sleeps until the exec */
	}
	mm_sync(t);
	if (s && t->st)
		t->cpu = sched_exec(s, t->st, forked);
	return kb_exec(k, t, l, p, child);
}

void kb_reap(struct mm_kernel *k, struct mm_task *t, struct kb_proc *child)
{
	kb_exit(k, t, child);
	if (t->st)
		t->st->nvcsw++;   /* the parent slept in wait4 */
	if (k->sched && t->st) {
		sched_exit_to_parent(k->sched, t->st);
		t->cpu = t->st->cpu;
	}
}

int kb_run(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
	   struct kb_proc *parent, const struct kb_prog *p)
{
	struct kb_proc c;
	int r = kb_fork_exec(k, t, l, parent, NULL, p, &c);
	if (r == 0 && p->cycles > 0)
		mm_user(t, p->cycles);
	kb_reap(k, t, &c);
	return r;
}
