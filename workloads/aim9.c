/*
 * aim9.c - the `aim9` workload of seed 003: eight tests of the AIM Independent
 * Resource Benchmark, Suite IX (docs/workloads.md "aim9", docs/aim9.md) as system
 * calls on the mm core, each test run for a fixed simulated duration and reported
 * as operations per second.
 *
 * One single-threaded process (the aim9 driver: its task_struct, kernel stack,
 * vm_area_structs, page tables and a touched heap, models/mm/kobj.c
 * mm_kproc_start, with stdin/stdout/stderr open) repeats one test's function,
 * counting the operations each call reports, until `duration` has passed; the
 * rate is operations / elapsed.  What each call does (the 2.6.16 paths it takes):
 *
 *   creat-clo   1000 x (creat + close) of one file, then unlink: the first creat
 *               allocates the dentry (dentry_cache), each creat after an unlink
 *               allocates the inode (ext3_inode_cache) and adds the directory
 *               entry (ext2 model: models/fs/ext2.c, fs/namei.c), the others find
 *               it and truncate (inode update); every creat takes a struct file
 *               (filp slab), every close frees it.  The unlinked dentry stays in
 *               the dcache as a negative dentry and is reused (d_instantiate).
 *   page_test   sbrk(+1 MB), then 100 x (brk down 64 KB: zap_page_range frees
 *               the pages; 16 x sbrk(+4 KB) and a store every 128 bytes of the new
 *               page: a zero-fill fault, i.e. a page from the page allocator
 *               module), then brk back: 1700 brk calls, 1600 faults.
 *   brk_test    the same brk pattern 1000 times without touching: 17000 calls.
 *   jmp_test    1000 setjmp/longjmp pairs: user mode only (jmp_cycles).
 *   signal_test 1000 x kill(getpid(), SIGUSR2) with a handler: send_signal's
 *               struct sigqueue (slab), setup_frame's copy of a struct sigframe
 *               to the user stack, the handler, sys_sigreturn's copy back.
 *   exec_test   5 x (fork, exec of `true`: a new address space mapping the
 *               binary and its libraries through the page cache (filemap_nopage,
 *               models/mm/fmap.c), exit, wait).
 *   fork_test   100 x (fork: copy_mm copy-on-write of the parent; the child
 *               writes its stack page (a COW copy) and exits; the parent waits).
 *   link_test   a file with 7 hard links: 9 x 7 (unlink, link) pairs round
 *               robin: path walks, directory entry removed and added, inode
 *               updated; the negative dentry is reused.
 *
 * Costs: system-call entry and exit (machine costs.syscall), the context switches
 * of fork/wait (cs_cycles, as kernbench), the ext2 model's lookup, directory and
 * inode cycles (the dbench calibration), copies at the machine's copy bandwidth,
 * and everything models/mm charges (faults, page allocation and freeing through
 * the kernel's allocator module, copy_page_range, exit_mmap, slab pages).  These
 * are the same for every kernel; only the allocator module (buddy, mbuddy,
 * zbuddy) and what it does with the zones differ.  Not modelled: ext3's journal,
 * the VFS work of open/close beyond the path walk, the scheduler's own work,
 * libc; hence the absolute rates are not the published ones (docs/aim9.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/sim.h"
#include "models/fs/ext2.h"
#include "models/mm/fmap.h"
#include "models/mm/kernel.h"
#include "models/mm/kobj.h"
#include "models/mm/proc.h"
#include "workloads/workload.h"

enum { T_CREAT, T_PAGE, T_BRK, T_JMP, T_SIGNAL, T_EXEC, T_FORK, T_LINK, T_NTESTS };

static const char *const test_names[] = { "creat-clo", "page_test", "brk_test", "jmp_test",
					  "signal_test", "exec_test", "fork_test", "link_test", NULL };

/* operations one call of each test counts (the aim9 suite's per-call counts) */
static const uint64_t ops_per_call[T_NTESTS] = { 1000, 1700, 17000, 1000, 1000, 5, 100, 63 };

/* i386 2.6.16: struct sigframe = pretcode, sig, struct sigcontext (88 bytes),
 * struct _fpstate (624 bytes), extramask, retcode[8] (arch/i386/kernel/signal.c) */
#define SIGFRAME_BYTES 732
#define LINKS 7
#define BRK_GROW_PAGES 256      /* page_test / brk_test: sbrk(1 MB) */
#define BRK_STEP_PAGES 16       /* ... shrink by 64 KB, grow back 4 KB at a time */

struct a9_cfg {
	int test;
	double duration;
	double jmp_cycles;
	double cs_cycles;
	uint64_t proc_heap;
	int64_t vmas_per_proc;
	int64_t exec_pages;
	struct ext2_costs fsc;
	bool check;
	/* run-time state */
	struct mm_kernel *k;        /* the booted kernel (mm_kernel_boot): a chain's steps share it */
	bool fs_up, caches_up;
	struct ext2_fs fs;
	struct mm_task task;
	struct mm_kcache dentry, inode, filp, vma, taskc, sigq;
	struct mm_kproc_caches kc;  /* taskc and vma */
	struct mm_file *dir, *bin;
	struct mm_kproc self;
	uint32_t std_filp[3];       /* stdin, stdout, stderr */
	uint32_t sig_keep;          /* a sigqueue object kept (see a9_start) */
	uint32_t file_dent, file_ino;    /* creat-clo's file: dentry (kept), inode (while it exists) */
	uint32_t link_dent[LINKS + 1], link_ino;
	struct mm_read_stats rst;
	uint64_t calls, ops;
	uint64_t dentry_allocs, inode_allocs, inode_frees, filp_allocs, sigq_allocs;
	uint64_t brks, signals, links, unlinks;
	uint64_t ooms;
	double t0, t_end;
	double user0, sys0;        /* the task's user and system cycles at t0 ... */
	double user_c, sys_c;      /* ... and spent from t0 to t_end */
	bool done;
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

static const struct mm_param a9_params[] = {
	MM_PARAM_ENUM(struct a9_cfg, test, "test", test_names, "\"page_test\"",
		      "the aim9 test: creat-clo, page_test, brk_test, jmp_test, signal_test, exec_test, fork_test or link_test"),
	MM_PARAM(struct a9_cfg, duration, "duration", MM_P_TIME, 1e-9, 3600, "\"60s\"",
		 "simulated time the test runs for (aim9's default is 60 s); calls are whole, so the last one ends after it"),
	MM_PARAM(struct a9_cfg, jmp_cycles, "jmp_cycles", MM_P_DOUBLE, 0, 1e9, "366",
		 "user-mode cycles of one setjmp/longjmp pair with aim9's loop (calibration: the clean kernel's 4,375,520/s at the assumed 1.6 GHz; no kernel work)"),
	MM_PARAM(struct a9_cfg, cs_cycles, "cs_cycles", MM_P_DOUBLE, 0, 1e9, "1000",
		 "cost of a task-to-task context switch (docs/sched.md, calibration; as kernbench): fork_test and exec_test switch to the child and back"),
	MM_PARAM(struct a9_cfg, proc_heap, "proc_heap", MM_P_SIZE, 0, 1 << 30, "\"256KiB\"",
		 "the aim9 process's touched anonymous memory (data, heap, stack), inherited copy-on-write by every fork (assumption)"),
	MM_PARAM(struct a9_cfg, vmas_per_proc, "vmas_per_proc", MM_P_INT, 0, 1000, "12",
		 "vm_area_structs of the aim9 process, copied by every fork (text, data, heap, stack, ld.so and libc; assumption)"),
	MM_PARAM(struct a9_cfg, exec_pages, "exec_pages", MM_P_INT, 1, 1 << 20, "32",
		 "pages of `true`, ld.so and libc that one exec faults in through the page cache (assumption)"),
	EXT2_COST_PARAMS(struct a9_cfg, fsc),
	MM_PARAM(struct a9_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker at the end (tests)"),
	MM_PARAM_END
};

#define MIB (UINT64_C(1) << 20)

static int a9_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct a9_cfg *c = cfgp;
	char sub[256];
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the aim9 workload needs a disk (its directory and `true`)");
	if (2 * MIB + (uint64_t)c->exec_pages * 4096 > m->disks[0].size) {
		snprintf(sub, sizeof sub, "%s.exec_pages", path);
		return mm_errf(e, file, sub, "larger than disk 0");
	}
	return 0;
}

static uint32_t pages_of(struct mm_kernel *k, uint64_t bytes)
{
	return (uint32_t)((bytes + k->phys.page_size - 1) / k->phys.page_size);
}

static uint32_t kobj(struct a9_cfg *c, struct mm_kcache *kc, uint64_t *count)
{
	uint32_t pfn = mm_kobj_alloc(c->k, &c->task, kc);
	if (pfn == PFN_NONE)
		c->ooms++;
	(*count)++;
	return pfn;
}

static void syscall_entry(struct a9_cfg *c)
{
	mm_charge(&c->task, c->k->costs->syscall);
}

/* ---- the tests: one call each; Returns: nothing ---- */

/* creat(): path walk, directory search; a new inode (and, the first time, a
 * dentry) and directory entry when the file does not exist, else O_TRUNC of an
 * empty file (an inode update); a struct file. */
static void do_creat(struct a9_cfg *c, uint32_t *filp)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	syscall_entry(c);
	ext2_walk(k, t, &c->fs, 2);
	ext2_dir_search(k, t, &c->fs, c->dir, 0);
	if (c->file_ino == PFN_NONE) {
		if (c->file_dent == PFN_NONE)
			c->file_dent = kobj(c, &c->dentry, &c->dentry_allocs);
		c->file_ino = kobj(c, &c->inode, &c->inode_allocs);
		ext2_inode_new(k, t, &c->fs);
		ext2_dir_change(k, t, &c->fs, c->dir, 0, &c->rst);  /* ext2_add_link */
	} else {
		ext2_inode_op(k, t, &c->fs);                       /* truncate: mark_inode_dirty */
	}
	*filp = kobj(c, &c->filp, &c->filp_allocs);
}

static void do_close(struct a9_cfg *c, uint32_t filp)
{
	syscall_entry(c);
	mm_kobj_free(c->k, &c->task, &c->filp, filp);
}

/* unlink(): the entry goes, the inode is freed when its last link goes; the
 * dentry stays negative. */
static void do_unlink(struct a9_cfg *c, uint32_t *ino)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	syscall_entry(c);
	ext2_walk(k, t, &c->fs, 2);
	ext2_dir_change(k, t, &c->fs, c->dir, 0, &c->rst);   /* ext2_delete_entry */
	ext2_inode_op(k, t, &c->fs);                         /* i_nlink--, ctime */
	c->unlinks++;
	if (ino && *ino != PFN_NONE) {
		ext2_inode_free(k, t, &c->fs);
		mm_kobj_free(k, t, &c->inode, *ino);
		c->inode_frees++;
		*ino = PFN_NONE;
	}
}

static void test_creat(struct a9_cfg *c)
{
	for (int i = 0; i < 1000; i++) {
		uint32_t f;
		do_creat(c, &f);
		do_close(c, f);
	}
	do_unlink(c, &c->file_ino);
}

/* brk calls of page_test (@touch) and brk_test: @iters x (down 64 KB, 16 x up 4 KB). */
static void brk_pattern(struct a9_cfg *c, int iters, bool touch)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	struct mm_as *as = c->self.as;
	uint32_t base = as->npages;
	if (mm_brk(k, t, as, base + BRK_GROW_PAGES))
		c->ooms++;
	double user = 0;
	for (int i = 0; i < iters; i++) {
		if (mm_brk(k, t, as, as->npages - BRK_STEP_PAGES))
			c->ooms++;
		c->brks++;
		for (int j = 0; j < BRK_STEP_PAGES; j++) {
			if (mm_brk(k, t, as, as->npages + 1))
				c->ooms++;
			c->brks++;
			if (touch) {
				if (mm_touch(k, t, as, as->npages - 1, 1, true) < 0)
					c->ooms++;
				user += 4096 / 128;   /* one store every 128 bytes */
			}
		}
	}
	if (mm_brk(k, t, as, base))
		c->ooms++;
	if (user > 0)
		mm_user(t, user);
}

static void test_jmp(struct a9_cfg *c)
{
	mm_user(&c->task, 1000 * c->jmp_cycles);
}

/* kill(getpid(), SIGUSR2): send_signal's sigqueue; on the way out do_signal's
 * setup_frame writes the frame to the user stack; the handler returns through
 * sys_sigreturn, which reads it back. */
static void test_signal(struct a9_cfg *c)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	double frame = SIGFRAME_BYTES * k->copy_cycles_per_byte;
	for (int i = 0; i < 1000; i++) {
		syscall_entry(c);
		uint32_t q = kobj(c, &c->sigq, &c->sigq_allocs);
		mm_charge(t, 2 * k->costs->atomic);   /* siglock, signal_wake_up */
		mm_kobj_free(k, t, &c->sigq, q);        /* collect_signal */
		mm_charge(t, frame);                    /* setup_frame */
		syscall_entry(c);                       /* sys_sigreturn */
		mm_charge(t, frame);                    /* restore_sigcontext */
		c->signals++;
	}
}

/* fork, then @child_exec (exec `true`) or the child's stack write, exit, wait. */
static void fork_one(struct a9_cfg *c, bool child_exec)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	struct mm_kproc ch;
	syscall_entry(c);                                       /* fork */
	if (mm_kproc_start(k, t, &ch, &c->kc, (uint32_t)c->vmas_per_proc, 0, c->self.as))
		c->ooms++;
	mm_charge(t, c->cs_cycles);                             /* to the child */
	if (ch.as && child_exec) {
		syscall_entry(c);                               /* execve: flush_old_exec */
		mm_as_exit(k, t, ch.as);
		ch.as = mm_as_new(k, t);
		struct mm_fmap *text = mm_fmap_create(k, t, c->bin, (uint32_t)c->exec_pages, 0);
		if (!ch.as || !text || mm_fmap_touch(k, t, text, 0, (uint32_t)c->exec_pages, false) < 0)
			c->ooms++;
		mm_fmap_destroy(k, t, text);
	} else if (ch.as && ch.as->npages > 0 &&
		   mm_touch(k, t, ch.as, ch.as->npages - 1, 1, true) < 0) {   /* its stack */
		c->ooms++;
	}
	syscall_entry(c);                                       /* exit */
	mm_kproc_exit(k, t, &ch, &c->kc);
	mm_charge(t, c->cs_cycles);                             /* back to the parent */
	syscall_entry(c);                                       /* wait4 */
	if (c->self.as->npages > 0 &&
	    mm_touch(k, t, c->self.as, c->self.as->npages - 1, 1, true) < 0)
		c->ooms++;
}

/* link(): both paths walked, the new entry added, the inode's link count
 * updated; the name's negative dentry is reused. */
static void do_link(struct a9_cfg *c)
{
	struct mm_kernel *k = c->k;
	struct mm_task *t = &c->task;
	syscall_entry(c);
	ext2_walk(k, t, &c->fs, 2);
	ext2_walk(k, t, &c->fs, 2);
	ext2_dir_change(k, t, &c->fs, c->dir, 0, &c->rst);   /* ext2_add_link */
	ext2_inode_op(k, t, &c->fs);                         /* i_nlink++, ctime */
	c->links++;
}

static void test_link(struct a9_cfg *c)
{
	for (int r = 0; r < 9; r++)
		for (int i = 0; i < LINKS; i++) {
			do_unlink(c, NULL);
			do_link(c);
		}
}

static void run_call(struct a9_cfg *c)
{
	switch (c->test) {
	case T_CREAT:
		test_creat(c);
		break;
	case T_PAGE:
		brk_pattern(c, 100, true);
		break;
	case T_BRK:
		brk_pattern(c, 1000, false);
		break;
	case T_JMP:
		test_jmp(c);
		break;
	case T_SIGNAL:
		test_signal(c);
		break;
	case T_EXEC:
		for (int i = 0; i < 5; i++)
			fork_one(c, true);
		break;
	case T_FORK:
		for (int i = 0; i < 100; i++)
			fork_one(c, false);
		break;
	default:
		test_link(c);
		break;
	}
	c->calls++;
	c->ops += ops_per_call[c->test];
}

/* link_test's file and its 7 links (made before the clock starts). */
static void make_links(struct a9_cfg *c)
{
	for (int i = 0; i <= LINKS; i++)
		c->link_dent[i] = kobj(c, &c->dentry, &c->dentry_allocs);
	c->link_ino = kobj(c, &c->inode, &c->inode_allocs);
}

static void aim9_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct a9_cfg *c = t->wl;
	struct mm_kernel *k = c->k;
	/* the aim9 process, its standard files; a sigqueue object stands in for the
	 * slab's per-CPU array of free objects, which keeps the sigqueue slab page
	 * between signals (kmem_cache_free does not give the page back at once) */
	if (mm_kproc_start(k, t, &c->self, &c->kc, (uint32_t)c->vmas_per_proc,
			   pages_of(k, c->proc_heap), NULL) || !c->self.as)
		c->ooms++;
	for (int i = 0; i < 3; i++)
		c->std_filp[i] = kobj(c, &c->filp, &c->filp_allocs);
	c->sig_keep = kobj(c, &c->sigq, &c->sigq_allocs);
	if (c->test == T_LINK)
		make_links(c);
	mm_sync(t);
	c->t0 = simgrid_get_clock();
	c->user0 = t->user_cycles;
	c->sys0 = t->tm.paid;
	if (c->self.as)
		do
			run_call(c);
		while (tm_now(&t->tm) - c->t0 < c->duration);
	mm_sync(t);
	c->t_end = simgrid_get_clock();
	c->user_c = t->user_cycles - c->user0;
	c->sys_c = t->tm.paid - c->sys0;
	c->done = true;
	/* tear down: the process and every object it holds */
	for (int i = 0; i <= LINKS; i++)
		mm_kobj_free(k, t, &c->dentry, c->link_dent[i]);
	mm_kobj_free(k, t, &c->inode, c->link_ino);
	mm_kobj_free(k, t, &c->inode, c->file_ino);
	mm_kobj_free(k, t, &c->dentry, c->file_dent);
	mm_kobj_free(k, t, &c->sigq, c->sig_keep);
	for (int i = 0; i < 3; i++)
		mm_kobj_free(k, t, &c->filp, c->std_filp[i]);
	mm_kproc_exit(k, t, &c->self, &c->kc);
	mm_sync(t);
	if (c->check) {
		struct mm_err e = { "" };
		c->check_failed = mm_kernel_check(k, &e) || mm_proc_check(k, &e) || mm_fmap_check(k, &e);
		if (!c->check_failed && c->dentry.objs + c->inode.objs + c->filp.objs + c->sigq.objs +
						c->vma.objs + c->taskc.objs != 0) {
			c->check_failed = 1;
			snprintf(e.msg, sizeof e.msg, "aim9: kernel objects left after exit");
		}
		if (c->check_failed)
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
	}
}

static int a9_start(struct sim *s, struct mm_err *e)
{
	struct a9_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->k;
	if (!(k = c->k = mm_kernel_boot(s, e)))
		return -1;
	if (k->phys.page_size != 4096)
		return mm_errf(e, s->file, "machine.page_size", "the aim9 workload expects 4 KiB pages");
	ext2_init(&c->fs, &c->fsc);
	c->fs_up = true;
	c->file_dent = c->file_ino = c->link_ino = PFN_NONE;
	for (int i = 0; i <= LINKS; i++)
		c->link_dent[i] = PFN_NONE;
	/* objects per slab page, i386 2.6.16: dentry 136 bytes, ext3 inode about 560,
	 * struct file 132, vm_area_struct 88, task_struct about 1.3 KB, sigqueue 144 */
	if (mm_kcache_init(&c->dentry, k, "dentry_cache", 29, MM_GFP_KERNEL | MM_GFP_KERNRCLM) ||
	    mm_kcache_init(&c->inode, k, "ext3_inode_cache", 7, MM_GFP_KERNEL | MM_GFP_KERNRCLM) ||
	    mm_kcache_init(&c->filp, k, "filp", 31, MM_GFP_KERNEL) ||
	    mm_kcache_init(&c->vma, k, "vm_area_struct", 44, MM_GFP_KERNEL) ||
	    mm_kcache_init(&c->taskc, k, "task_struct", 3, MM_GFP_KERNEL) ||
	    mm_kcache_init(&c->sigq, k, "sigqueue", 28, MM_GFP_ATOMIC))
		return mm_errf(e, s->file, "workload", "out of memory");
	c->caches_up = true;
	c->kc.task = &c->taskc;
	c->kc.vma = &c->vma;
	c->dir = mm_file_create(k, "tmpdir", 4096, 0, MIB);
	c->bin = mm_file_create(k, "true", (uint64_t)c->exec_pages * 4096, 0, 2 * MIB);
	if (!c->dir || !c->bin)
		return mm_errf(e, s->file, "workload", "out of memory for the page cache");
	/* a CPU of its own when there is one: pdflush runs on CPU 0 and kswapd on
	 * the last, and a task alone on its CPU may look ahead (timemodel.h) */
	int cpu = s->machine->cpus >= 3 ? 1 : 0;
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	mm_task_init(&c->task, k, cpu, "aim9");
	c->task.wl = c;
	sg_actor_t a = sg_actor_init("aim9", sg_host_by_name(host));
	sg_actor_set_data(a, &c->task);
	sg_actor_start(a, aim9_main, 0, NULL);
	return 0;
}

static void a9_finish(struct sim *s)
{
	struct a9_cfg *c = s->wl_cfg;
	double el = (c->done ? c->t_end : simgrid_get_clock()) - c->t0;
	double rate = el > 0 ? (double)c->ops / el : 0;
	s->primary = rate;
	sim_metric(s, "ops_per_s", rate);
	sim_metric(s, "complete", c->done ? 1 : 0);
	sim_metric(s, "elapsed", el);
	sim_metric(s, "calls", (double)c->calls);
	sim_metric(s, "ops", (double)c->ops);
	sim_metric(s, "user_s", c->user_c / c->k->clock);
	sim_metric(s, "system_s", c->sys_c / c->k->clock);
	sim_metric(s, "minor_faults", (double)c->task.minflt);
	sim_metric(s, "major_faults", (double)c->task.majflt);
	sim_metric(s, "brk_calls", (double)c->brks);
	sim_metric(s, "signals", (double)c->signals);
	sim_metric(s, "links", (double)c->links);
	sim_metric(s, "unlinks", (double)c->unlinks);
	sim_metric(s, "dentry_allocs", (double)c->dentry_allocs);
	sim_metric(s, "inode_allocs", (double)c->inode_allocs);
	sim_metric(s, "inode_frees", (double)c->inode_frees);
	sim_metric(s, "filp_allocs", (double)c->filp_allocs);
	sim_metric(s, "sigqueue_allocs", (double)c->sigq_allocs);
	sim_metric(s, "oom_kills", (double)c->ooms);
	sim_metric(s, "cpu_payments", (double)c->task.tm.executes);   /* SimGrid payments (timemodel.h) */
	mm_proc_metrics(c->k, s);
	ext2_metrics(&c->fs, s);
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
}

static void a9_fini(void *cfgp)
{
	struct a9_cfg *c = cfgp;
	if (c->caches_up) {
		mm_kcache_fini(&c->dentry);
		mm_kcache_fini(&c->inode);
		mm_kcache_fini(&c->filp);
		mm_kcache_fini(&c->vma);
		mm_kcache_fini(&c->taskc);
		mm_kcache_fini(&c->sigq);
	}
	c->caches_up = false;
	if (c->fs_up)
		ext2_fini(&c->fs);
	c->fs_up = false;
}

const struct workload_ops workload_aim9 = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "aim9",
	.desc = "seed 003: one of eight AIM9 tests (creat-clo .. link_test) as system calls on the mm core for a fixed time; ops/s",
	.params = a9_params,
	.cfg_size = sizeof(struct a9_cfg),
	.primary = "ops_per_s",
	.unit = "ops/s",
	.higher_is_better = 1,
	.kernel = 1,
	.chainable = 1,
	.check = a9_check,
	.start = a9_start,
	.finish = a9_finish,
	.fini = a9_fini,
};
