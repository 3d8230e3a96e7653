/*
 * kbuild.h - the processes of a Kbuild rule around cc1 (workloads/kbuild.c):
 * programs with their own exec, address space, faults and exit on the mm core,
 * their shared libraries, and a chain of parent and child played by one actor.
 */
#ifndef MMEMU_KBUILD_H
#define MMEMU_KBUILD_H

#include <stdbool.h>
#include <stdint.h>

struct mm_kernel;
struct mm_task;
struct mm_file;
struct mm_as;
struct mm_fmap;

/* One program of the build and what one run of it touches. */
struct kb_prog {
	struct mm_file *bin;   /* its binary in the page cache */
	uint32_t text;         /* text pages a run faults in (from the binary's start) */
	uint32_t data;         /* anonymous pages a run dirties: data, bss, heap, stack */
	double cycles;         /* user cycles of a run */
	bool dynamic;          /* maps ld.so and libc (a dynamically linked program) */
};

/* The shared libraries every dynamically linked program maps: ld.so and libc,
 * one page-cache file (a simulation has at most MM_MAX_FILES), one mapping. */
struct kb_libs {
	struct mm_file *lib;
	uint32_t text;                   /* pages a run faults in of both */
};

/* A running process: its address space and its two file mappings. */
struct kb_proc {
	struct mm_as *as;
	struct mm_fmap *map[2];          /* its binary, the libraries */
};

/**
 * kb_exec() - execve() of @p by @t into @pr: a fresh address space, mmap of the
 * binary (and of the libraries when @p is dynamic), their text faulted in
 * through filemap_nopage (page-cache hits, mark_page_accessed, once a first run
 * has read them), and @p->data pages dirtied (zero-filled faults).
 * Returns: 0, or -1 if memory ran out (what was set up is in @pr for kb_exit).
 */
int kb_exec(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
	    const struct kb_prog *p, struct kb_proc *pr);

/** kb_exit() - exit of @pr: its mappings unmapped, its address space freed. */
void kb_exit(struct mm_kernel *k, struct mm_task *t, struct kb_proc *pr);

/**
 * kb_fork_exec() - a parent (@parent, NULL for a vfork() whose parent waits
 * until the exec) forks a child that execs @p: fork() copies the parent's
 * address space (copy-on-write) and runs the child first (the parent's
 * involuntary switch); vfork() shares it and the parent sleeps until the exec
 * (a voluntary switch, added to *@vfork_sleeps: the parent's counter).  The exec drops the copy and balances the child to the
 * idlest CPU (sched_exec).  The caller's actor then plays the child.
 * Returns: 0, or -1 if memory ran out.
 */
int kb_fork_exec(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
		 struct kb_proc *parent, uint64_t *vfork_sleeps, const struct kb_prog *p,
		 struct kb_proc *child);

/**
 * kb_reap() - the child @child exits and wakes its parent, which slept in
 * wait4 for it (a voluntary switch of the parent): the actor goes on as the
 * parent on this CPU.  Returns: nothing.
 */
void kb_reap(struct mm_kernel *k, struct mm_task *t, struct kb_proc *child);

/**
 * kb_run() - kb_fork_exec(), @p's user cycles, kb_reap(): a short-lived child
 * (fixdep, rm, mv) run to its end.  Returns: 0, or -1 if memory ran out.
 */
int kb_run(struct mm_kernel *k, struct mm_task *t, const struct kb_libs *l,
	   struct kb_proc *parent, const struct kb_prog *p);

#endif
