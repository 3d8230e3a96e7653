/*
 * kernbench.c - the `kernbench` workload of seed 001: a synthetic `make -j N` of
 * a kernel tree on the mm core and the SMP scheduler model (models/sched/sched.h).
 *
 * Design.  A `make` actor (no CPU of its own: it only waits) starts `files`
 * compile jobs, keeping at most `jobs` running (a SimGrid semaphore of `jobs`
 * slots; 0 = unlimited, kernbench's "maximal" `make -j`; with the process model
 * as many as fit in free memory, kb_fit_jobs), waits for all of them,
 * then runs one link job.  Each job is an actor with an mm_task scheduled by
 * k->sched: it joins a CPU (sched_start; the CPU is chosen as 2.6's exec
 * balancing would, the least loaded one, ties to the lowest index), reads its
 * source file and `headers_per_job` shared header files through the page cache
 * (mm_file_read: hot shared pages, mark_page_accessed on referenced pages), burns
 * `cc_cycles` of user CPU (mm_user -> sched_run, preemptible by time slices),
 * writes its object file (mm_file_write) and exits.  The link job reads every
 * object and writes the output.  Disk waits give the CPU up (sleeps = voluntary
 * switches), time slices expiring while others wait give involuntary switches.
 *
 * With asm_size > 0 a compile job is gcc -pipe's cc1 | as: cc1 writes its
 * assembly a page at a time into a one-page pipe (models/fs/pipe.h) to an `as`
 * actor, which writes the object; the driver (folded into cc1's task) waits in
 * wait4 for as, make in wait4 for its jobs, so sleeps and wake-ups come from the
 * pipeline too.
 *
 * Jobs differ (src_sigma > 0): the C files' sizes are drawn once per scenario
 * seed (the same tree for every kernel and run) from a lognormal of median
 * src_size x exp(-src_sigma^2 / 2), rescaled so that they add up to files x
 * src_size exactly; a job's cc1 cycles, assembly and as cycles are their means
 * times (1 - cc_size_share) + cc_size_share x size / src_size, so the build's
 * user time does not change and jobs no longer run in lockstep.
 *
 * The tree lives on disk 0 as four page-cache files (MM_MAX_FILES is small):
 * `src` holds the C files back to back (job i reads its own extent),
 * `include` the header files, `obj` the object files, `vmlinux` the link output.
 * Readahead state is per file, hence shared by concurrent jobs (a simplification).
 * With fs ext3 or dcache each C file, header, object, .cmd and depfile also has
 * a dentry and an inode in the kernel's caches (models/fs/dcache.h; kb_open).
 *
 * Metrics: elapsed (primary, lower is better), user_s, system_s (cycles charged
 * by the mm core + spinlock spinning, of the jobs and of make), cpu_percent = (user+system)/elapsed x 100,
 * context_switches (involuntary), sleeps (voluntary), lru_lock counters.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#include "emu/core/rng.h"
#include "emu/core/sim.h"
#include "models/hw/disk.h"
#include "models/fs/dcache.h"
#include "models/fs/ext3.h"
#include "models/mm/fmap.h"
#include "models/mm/kernel.h"
#include "models/fs/pipe.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/sched/sched.h"
#include "workloads/kbuild.h"
#include "workloads/smp.h"
#include "workloads/workload.h"

struct kb_job {
	struct mm_task task;       /* first: the actor's data is &task */
	struct sched_task st;
	struct sim *s;
	int idx;                   /* 0..files-1, files = the link */
	int runs;                  /* times the job body ran (must be 1) */
	char name[24];
	/* the compiler pipeline (asm_size > 0): cc1's output to as, as's exit */
	struct mm_pipe out, exited;
};

enum { KB_SH, KB_GCC, KB_AS, KB_FIXDEP, KB_RM, KB_MV, KB_CC1, KB_NPROG };

struct kb_cfg {
	int64_t jobs;
	int64_t files;
	uint64_t src_size;
	int64_t headers;
	uint64_t header_size;
	int64_t headers_per_job;
	uint64_t obj_size;
	double cc_cycles;
	double link_cycles;
	double cs_cycles;
	double src_sigma;          /* 0: every C file src_size bytes */
	double cc_size_share;      /* share of a compile's cycles that grows with its file */
	int64_t cc_text_pages;     /* 0: no process model (fork/exec/faults) */
	int64_t max_jobs;          /* maximal make -j with processes: what fits (kb_fit_jobs) */
	uint64_t cc_heap;
	uint64_t make_heap;
	uint64_t asm_size;         /* 0: no pipeline; else bytes cc1 writes to as through a pipe */
	double as_cycles;
	int fs;                    /* enum mm_fs */
	bool wake_preempt;
	bool wake_affine;
	bool dcache;               /* the files' dentries and inodes (always with ext3) */
	/* every process of a rule (rule_procs): sh -c, gcc's driver, as, fixdep, rm,
	 * mv, each with its own exec, mm, faults and exit, and ld.so and libc */
	bool rule_procs;
	int64_t sh_text, sh_data, gcc_text, gcc_data, as_text, as_data;
	int64_t fixdep_text, fixdep_data, util_text, util_data, ldso_text, libc_text;
	double sh_cycles, gcc_cycles, fixdep_cycles, util_cycles;
	bool check;
	/* run-time state */
	struct wl_smp w;           /* kernel + scheduler */
	struct kb_job *job;        /* [files + 1] */
	int njob_init;             /* jobs whose sched_task was initialised */
	struct kb_job *asj;        /* [files]: the assemblers (asm_size > 0) */
	uint64_t *src_off;         /* [files + 1]: C file i is [src_off[i], src_off[i + 1]) */
	double *work;              /* [files]: job i's share of cc/as cycles and assembly, mean 1 */
	uint64_t make_sleeps;      /* make's waits in wait4 (asm_size > 0) */
	struct mm_file *src, *inc, *obj, *out, *cc1;
	struct kb_libs libs;
	struct kb_prog prog[KB_NPROG];   /* rule_procs: sh, gcc, as, fixdep, rm, mv, cc1 */
	struct mm_task make_task;  /* make's own kernel work (process model) */
	bool make_asleep;          /* make waits in wait4 (make_wait) */
	struct mm_as *make_as;
	uint64_t ooms;
	sg_sem_t slots, done;
	int running, max_running;
	double t0, t_end;
	bool complete;
	struct mm_read_stats rst;
	/* ext3: the kernel's dentries and inodes (dcache.c), the build's files' ids
	 * (MM_DENT_NONE until first looked up or made): [KB_E_*] blocks of files
	 * entries, then the headers, then vmlinux */
	struct mm_dcache *dc;
	uint32_t *ent;
	uint64_t dcache_ops;       /* lookups and creates through the dcache */
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

enum { KB_E_SRC, KB_E_OBJ, KB_E_CMD, KB_E_NBLK };

static const struct mm_param kb_params[] = {
	MM_PARAM(struct kb_cfg, jobs, "jobs", MM_P_INT, 0, 100000, "4",
		 "make -j N: compile jobs running at once; 0 = kernbench's maximal `make -j`: unlimited, or with the process model as many as fit in free memory"),
	MM_PARAM(struct kb_cfg, files, "files", MM_P_INT, 1, 100000, "64",
		 "compile jobs (C files); calibration: 2.6.10 builds ~1,600 with a typical config, scaled down"),
	MM_PARAM(struct kb_cfg, src_size, "src_size", MM_P_SIZE, 1, 1 << 26, "\"16KiB\"",
		 "bytes of one C file (calibration)"),
	MM_PARAM(struct kb_cfg, src_sigma, "src_sigma", MM_P_DOUBLE, 0, 3, "0",
		 "spread of the C files' sizes: sigma of a lognormal of mean src_size (a 2.6.11 i386 tree's 988 .c files: 1.18, docs/kernbench.md); 0 = every file src_size"),
	MM_PARAM(struct kb_cfg, cc_size_share, "cc_size_share", MM_P_DOUBLE, 0, 1, "1",
		 "with src_sigma > 0: share of a compile's cycles (cc1 and as) and assembly that grows with its C file's size, the rest being the same for every file (judgement: the headers every file parses)"),
	MM_PARAM(struct kb_cfg, headers, "headers", MM_P_INT, 1, 100000, "256",
		 "header files in the shared include tree (calibration)"),
	MM_PARAM(struct kb_cfg, header_size, "header_size", MM_P_SIZE, 1, 1 << 24, "\"8KiB\"",
		 "bytes of one header file (calibration)"),
	MM_PARAM(struct kb_cfg, headers_per_job, "headers_per_job", MM_P_INT, 0, 100000, "64",
		 "headers read by each compile job (calibration)"),
	MM_PARAM(struct kb_cfg, obj_size, "obj_size", MM_P_SIZE, 1, 1 << 26, "\"8KiB\"",
		 "bytes of one object file written by a job (calibration)"),
	MM_PARAM(struct kb_cfg, cc_cycles, "cc_cycles", MM_P_DOUBLE, 0, 1e15, "2e8",
		 "user-mode CPU cycles of one compile (calibration)"),
	MM_PARAM(struct kb_cfg, link_cycles, "link_cycles", MM_P_DOUBLE, 0, 1e15, "2e8",
		 "user-mode CPU cycles of the final link (calibration)"),
	MM_PARAM(struct kb_cfg, cs_cycles, "cs_cycles", MM_P_DOUBLE, 0, 1e9, "1000",
		 "cost of a task-to-task context switch (docs/sched.md, calibration)"),
	MM_PARAM(struct kb_cfg, cc_text_pages, "cc_text_pages", MM_P_INT, 0, 1 << 20, "0",
		 "process model: pages of the compiler's text each job faults in from the page cache (mmap of the `cc1` binary through filemap_nopage); 0 = no process model (no fork, exec, heap or exit), as before"),
	MM_PARAM(struct kb_cfg, cc_heap, "cc_heap", MM_P_SIZE, 0, 1 << 30, "\"8MiB\"",
		 "process model: anonymous memory each compile dirties (calibration: cc1's heap for one kernel C file)"),
	MM_PARAM(struct kb_cfg, make_heap, "make_heap", MM_P_SIZE, 0, 1 << 30, "\"1MiB\"",
		 "process model: make's heap, inherited copy-on-write by every forked job"),
	MM_PARAM(struct kb_cfg, asm_size, "asm_size", MM_P_SIZE, 0, 1 << 30, "0",
		 "the compiler pipeline (gcc -pipe): bytes of assembly cc1 writes to as through a pipe of one page, in write(2) calls of a page (stdio); 0 = no pipeline (cc1 writes the object itself, make does not sleep)"),
	MM_PARAM(struct kb_cfg, as_cycles, "as_cycles", MM_P_DOUBLE, 0, 1e15, "0",
		 "the compiler pipeline: user-mode CPU cycles of one as (assembler) run, spent as its input arrives (calibration)"),
	MM_PARAM_ENUM(struct kb_cfg, fs, "fs", mm_fs_names, "\"none\"", MM_FS_HELP),
	MM_PARAM(struct kb_cfg, dcache, "dcache", MM_P_BOOL, 1, 0, "false",
		 "the files' dentries and inodes in the kernel's caches (each open of a C file or header, each .o, .cmd and depfile: docs/kernbench.md); always on with fs ext3"),
	MM_PARAM(struct kb_cfg, wake_preempt, "wake_preempt", MM_P_BOOL, 1, 0, "false",
		 "wake-up preemption (2.6.10 try_to_wake_up / TASK_PREEMPTS_CURR: a woken task with the sleep_avg bonus preempts a running task of lower dynamic priority; models/sched/sched.c); false: a woken task waits for a time slice or an idle CPU, as before"),
	MM_PARAM(struct kb_cfg, wake_affine, "wake_affine", MM_P_BOOL, 1, 0, "false",
		 "2.6.10 try_to_wake_up's wake_affine and passive balancing of sync wake-ups toward the waker's CPU, and no wake_idle (an SMT-domain flag): a woken task goes to its previous CPU or the waker's (models/sched/sched.c); false: the previous CPU if idle, else any idle CPU, as before"),
	MM_PARAM(struct kb_cfg, rule_procs, "rule_procs", MM_P_BOOL, 1, 0, "false",
		 "every process of a Kbuild rule (rule_cc_o_c): make vfork()s sh -c, which forks gcc's driver, fixdep, rm and mv; the driver vforks cc1 and as; each with its own exec, address space, faults and exit, dynamically linked against ld.so and libc (docs/kernbench.md); needs cc_text_pages and asm_size"),
#define KB_PROG_PARAMS(f, what) \
	MM_PARAM(struct kb_cfg, f##_text, #f "_text", MM_P_INT, 0, 1 << 20, "0", \
		 "rule_procs: text pages of " what " a run faults in (judgement)"), \
	MM_PARAM(struct kb_cfg, f##_data, #f "_data", MM_P_INT, 0, 1 << 20, "0", \
		 "rule_procs: anonymous pages (data, bss, heap, stack) a run of " what " dirties (judgement)")
	KB_PROG_PARAMS(sh, "sh -c (the rule's shell)"),
	KB_PROG_PARAMS(gcc, "gcc's driver"),
	KB_PROG_PARAMS(as, "as"),
	KB_PROG_PARAMS(fixdep, "scripts/basic/fixdep"),
	KB_PROG_PARAMS(util, "rm and of mv (each)"),
	MM_PARAM(struct kb_cfg, ldso_text, "ldso_text", MM_P_INT, 0, 1 << 20, "0",
		 "rule_procs: text pages of ld.so each dynamically linked run faults in (judgement)"),
	MM_PARAM(struct kb_cfg, libc_text, "libc_text", MM_P_INT, 0, 1 << 20, "0",
		 "rule_procs: text pages of libc each dynamically linked run faults in (judgement)"),
	MM_PARAM(struct kb_cfg, sh_cycles, "sh_cycles", MM_P_DOUBLE, 0, 1e12, "0",
		 "rule_procs: user cycles of sh -c (judgement)"),
	MM_PARAM(struct kb_cfg, gcc_cycles, "gcc_cycles", MM_P_DOUBLE, 0, 1e12, "0",
		 "rule_procs: user cycles of gcc's driver (judgement)"),
	MM_PARAM(struct kb_cfg, fixdep_cycles, "fixdep_cycles", MM_P_DOUBLE, 0, 1e12, "0",
		 "rule_procs: user cycles of fixdep, which reads the rule's headers for CONFIG_ symbols (judgement)"),
	MM_PARAM(struct kb_cfg, util_cycles, "util_cycles", MM_P_DOUBLE, 0, 1e12, "0",
		 "rule_procs: user cycles of rm and of mv (each; judgement)"),
	MM_PARAM(struct kb_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker at the end (tests)"),
	MM_PARAM_END
};

#define MIB (UINT64_C(1) << 20)

static uint64_t mib_round(uint64_t b)
{
	return (b + MIB - 1) & ~(MIB - 1);
}

/* Bytes of the four files: src, include, obj, vmlinux (= all objects). */
static void kb_sizes(const struct kb_cfg *c, uint64_t sz[5])
{
	sz[0] = (uint64_t)c->files * c->src_size;
	sz[1] = (uint64_t)c->headers * c->header_size;
	sz[2] = (uint64_t)c->files * c->obj_size;
	sz[3] = sz[2];
	sz[4] = (uint64_t)c->cc_text_pages * 4096;   /* the cc1 binary (4 KiB pages: x86) */
}

static int kb_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct kb_cfg *c = cfgp;
	char sub[256];
	uint64_t sz[5], total = MIB;
	kb_sizes(c, sz);
	for (int i = 0; i < 5; i++)
		total += mib_round(sz[i]);
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the kernbench workload needs a disk");
	if (total > m->disks[0].size)
		return mm_errf(e, file, "machine.disks[0].size",
			       "expected room for the tree (%llu bytes)", (unsigned long long)total);
	for (int i = 0; i < 5; i++)
		if (sz[i] / 4096 >= UINT32_MAX) {
			snprintf(sub, sizeof sub, "%s.files", path);
			return mm_errf(e, file, sub, "tree too large");
		}
	if (m->cpus > MACHINE_MAX_CPUS)
		return mm_errf(e, file, "machine.cpus", "too many CPUs");
	if (c->rule_procs && (c->cc_text_pages == 0 || c->asm_size == 0)) {
		snprintf(sub, sizeof sub, "%s.rule_procs", path);
		return mm_errf(e, file, sub, "expected cc_text_pages and asm_size with rule_procs");
	}
	return 0;
}

/* make waits in wait4 for a job to end (@sem: a free job slot, or one job
 * done).  With the pipeline and @count it counts a sleep when no child has exited yet (make
 * is not a scheduled task: it takes no CPU to wake).  While it sleeps it cannot
 * act (its wake slot is +inf until an ending job sets it to now: job_done). */
static void make_wait(struct kb_cfg *c, sg_sem_t sem, bool count)
{
	if (sg_sem_would_block(sem)) {
		if (count && c->asm_size > 0)
			c->make_sleeps++;
		c->make_asleep = true;
		c->make_task.tm.wake = INFINITY;
	}
	sg_sem_acquire(sem);
	c->make_asleep = false;
}

/* A job ends: it gives its slot back (@slot) and wakes make's wait4. */
static void job_done(struct kb_cfg *c, bool slot)
{
	if (c->make_asleep)
		tm_woken(&c->make_task.tm.wake);
	if (slot)
		sg_sem_release(c->slots);
	sg_sem_release(c->done);
}

static void job_main(int argc, char **argv);
static void as_main(int argc, char **argv);

/* The tree's C files (src_sigma > 0): lognormal sizes from stream
 * "kernbench-tree" of the scenario's seed and run 0 (one tree for every kernel
 * and run), rescaled to add up to files x src_size, the last file taking the
 * rounding; each at least one byte.  Returns: 0, or -1 if memory ran out. */
static int kb_tree(struct kb_cfg *c, uint64_t seed)
{
	int64_t n = c->files;
	c->src_off = calloc((size_t)n + 1, sizeof *c->src_off);
	c->work = calloc((size_t)n, sizeof *c->work);
	double *w = calloc((size_t)n, sizeof *w);
	if (!c->src_off || !c->work || !w) {
		free(w);
		return -1;
	}
	struct mm_rng r;
	mm_rng_seed(&r, seed, 0, "kernbench-tree");
	double sum = 0;
	for (int64_t i = 0; i < n; i++) {
		/* Box-Muller; 1 - u is in (0, 1] */
		double u1 = 1.0 - mm_rng_double(&r), u2 = mm_rng_double(&r);
		double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
		w[i] = c->src_sigma > 0 ? exp(c->src_sigma * z) : 1.0;
		sum += w[i];
	}
	uint64_t total = (uint64_t)n * c->src_size, off = 0;
	for (int64_t i = 0; i < n; i++) {
		uint64_t left = total - off, keep = (uint64_t)(n - 1 - i);   /* a byte for each later file */
		uint64_t b = i == n - 1 ? left : (uint64_t)((double)total * w[i] / sum);
		if (b < 1)
			b = 1;
		if (i < n - 1 && b > left - keep)
			b = left - keep;
		c->src_off[i] = off;
		off += b;
		c->work[i] = (1.0 - c->cc_size_share) +
			     c->cc_size_share * (double)b / (double)c->src_size;
	}
	c->src_off[n] = off;
	free(w);
	return 0;
}

/* Job @i's bytes of assembly (asm_size scaled by its work, at least 1). */
static uint64_t kb_asm(const struct kb_cfg *c, int i)
{
	double a = (double)c->asm_size * c->work[i];
	return a < 1 ? 1 : (uint64_t)a;
}

/* gcc's driver starts as at the start of the compile, reading cc1's output
 * through a pipe (gcc -pipe); exec balancing places it (wl_smp_spawn). */
static void start_as(struct kb_cfg *c, struct kb_job *j)
{
	struct kb_job *a = &c->asj[j->idx];
	mm_pipe_init(&j->out, (uint32_t)c->w.k->phys.page_size);
	mm_pipe_init(&j->exited, 0);
	a->s = j->s;
	a->idx = j->idx;
	snprintf(a->name, sizeof a->name, "as%d", j->idx);
	wl_smp_spawn(&c->w, &j->task, &a->task, &a->st, a->name, a, as_main);
	sched_fork(&a->st, &j->st);   /* forked by gcc's driver */
}

static void start_job(struct sim *s, struct kb_cfg *c, int i)
{
	struct kb_job *j = &c->job[i];
	j->s = s;
	j->idx = i;
	if (i == c->files)
		snprintf(j->name, sizeof j->name, "ld");
	else
		snprintf(j->name, sizeof j->name, "cc%d", i);
	c->njob_init++;
	wl_smp_spawn(&c->w, &c->make_task, &j->task, &j->st, j->name, j, job_main);
	sched_fork(&j->st, NULL);   /* forked by make, which sleeps in wait4 */
}

static uint32_t pages_of(struct mm_kernel *k, uint64_t bytes)
{
	return (uint32_t)((bytes + k->phys.page_size - 1) / k->phys.page_size);
}

/* fork from make (copy-on-write of make's heap), exec of cc1: the copy goes, a
 * fresh address space maps the cc1 binary and faults its text in (filemap_nopage:
 * page-cache hits once the first job has read it).  Returns: 0, or -1 (OOM). */
static int job_exec(struct kb_cfg *c, struct mm_task *t, struct mm_as **as, struct mm_fmap **text)
{
	struct mm_kernel *k = c->w.k;
	struct mm_as *child = mm_as_fork(k, t, c->make_as);
	if (!child)
		return -1;
	mm_as_exit(k, t, child);
	*as = mm_as_new(k, t);
	*text = mm_fmap_create(k, t, c->cc1, (uint32_t)c->cc_text_pages, 0);
	if (!*as || !*text)
		return -1;
	return mm_fmap_touch(k, t, *text, 0, (uint32_t)c->cc_text_pages, false) < 0 ? -1 : 0;
}

/* cc1 compiles and writes its assembly into the pipe a page at a time as it
 * goes (its user time spread evenly over the pages), closes the pipe, and the
 * driver waits in wait4 until as has exited.  gcc 3's cc1 preprocesses itself
 * (cpp is integrated since gcc 3.0), so the pipeline is cc1 | as; the driver's
 * own process is folded into cc1's (its fork, exec and wait are cc1's task's). */
static void job_pipeline(struct kb_cfg *c, struct kb_job *j)
{
	struct mm_task *t = &j->task;
	uint32_t page = (uint32_t)t->k->phys.page_size;
	uint64_t size = kb_asm(c, j->idx), left = size;
	double cycles = c->cc_cycles * c->work[j->idx];
	while (left > 0) {
		uint64_t n = left < page ? left : page;
		mm_user(t, cycles * (double)n / (double)size);
		mm_pipe_write(t, &j->out, n, page);
		left -= n;
	}
	mm_pipe_close(t, &j->out);
	if (!c->rule_procs) {
		mm_pipe_read(t, &j->exited, 1);   /* wait4: as's exit closes it */
		mm_sync(t);
	}
}

/* as: reads cc1's output (read(2) of up to its 32 KiB input buffer, gas's
 * input-file.c), assembles each piece as it arrives, writes the object file and
 * exits, waking the driver's wait4.  Its own fork, exec and memory are not
 * modelled. */
/* The dcache side of an open that reads or writes file *@id (with c->dc: fs
 * ext3 or dcache): found or made, its inode dirtied (atime, mtime, or a new
 * inode: 2.6.10 has no relatime; mm_dentry_use). */
static void kb_open(struct kb_cfg *c, struct mm_task *t, uint32_t *id)
{
	if (!c->dc)
		return;
	c->dcache_ops++;
	if (mm_dentry_use(c->w.k, t, c->dc, id, MM_DENT_NONE))
		c->ooms++;
}

static uint32_t *kb_ent(struct kb_cfg *c, int blk, uint64_t i)
{
	return &c->ent[(uint64_t)blk * (uint64_t)c->files + i];
}

/* cc1 reads its C file and its headers (fixdep reads the same headers):
 * a deterministic spread of the shared headers over the jobs. */
static void job_read(struct kb_cfg *c, struct mm_task *t, int idx)
{
	struct mm_kernel *k = c->w.k;
	uint64_t i = (uint64_t)idx;
	kb_open(c, t, kb_ent(c, KB_E_SRC, i));
	mm_file_read(k, t, c->src, c->src_off[i], c->src_off[i + 1] - c->src_off[i], &c->rst);
	uint64_t h0 = (i * 37) % (uint64_t)c->headers;
	for (int64_t n = 0; n < c->headers_per_job; n++) {
		uint64_t h = (h0 + (uint64_t)n) % (uint64_t)c->headers;
		kb_open(c, t, kb_ent(c, KB_E_NBLK, h));
		mm_file_read(k, t, c->inc, h * c->header_size, c->header_size, &c->rst);
	}
}

/* The object file @i is written: creat and write (its mtime). */
static void obj_write(struct kb_cfg *c, struct mm_task *t, uint64_t i)
{
	kb_open(c, t, kb_ent(c, KB_E_OBJ, i));
	mm_file_extend(c->w.k, t, c->obj, i * c->obj_size, c->obj_size, &c->rst);
}

/* The rule's small files (with c->dc): gcc -Wp,-MD writes the depfile, fixdep
 * reads it and writes .cmd.tmp, `rm -f` unlinks the depfile and `mv -f`
 * renames .cmd.tmp to .cmd (d_move: one entry stays). */
static void rule_files(struct kb_cfg *c, struct mm_task *t, uint64_t i)
{
	if (!c->dc)
		return;
	uint32_t dep = MM_DENT_NONE;
	kb_open(c, t, &dep);
	kb_open(c, t, kb_ent(c, KB_E_CMD, i));
	if (dep != MM_DENT_NONE)
		mm_dentry_delete(c->w.k, t, c->dc, dep);
}

/* rule_procs: rule_cc_o_c as 2.6.10's Makefile.build runs it.  make vfork()s
 * `sh -c`; the shell forks gcc's driver, which vforks as and cc1 (pexecute),
 * waits for both; then the shell forks fixdep (which reads the depfile's
 * headers for CONFIG_ symbols: here through read(2), the real one mmaps them),
 * rm -f of the depfile and mv -f of the .cmd file, and exits.  One actor plays
 * the chain (kbuild.c); as is an actor of its own. */
static void job_rule(struct kb_cfg *c, struct kb_job *j)
{
	struct mm_task *t = &j->task;
	struct mm_kernel *k = c->w.k;
	const struct kb_libs *l = &c->libs;
	struct kb_proc sh, gcc, cc1, fd;
	if (kb_fork_exec(k, t, l, NULL, &c->make_sleeps, &c->prog[KB_SH], &sh))   /* make's vfork */
		goto oom_sh;
	mm_user(t, c->sh_cycles);
	if (kb_fork_exec(k, t, l, &sh, NULL, &c->prog[KB_GCC], &gcc))
		goto oom_gcc;
	mm_user(t, c->gcc_cycles);
	start_as(c, j);
	t->st->nvcsw++;     /* the driver's vfork of as */
	if (kb_fork_exec(k, t, l, NULL, &t->st->nvcsw, &c->prog[KB_CC1], &cc1))
		goto oom_cc1;
	job_read(c, t, j->idx);
	if (mm_brk(k, t, cc1.as, pages_of(k, c->cc_heap)) ||
	    mm_touch(k, t, cc1.as, 0, cc1.as->npages, true) < 0)
		c->ooms++;
	job_pipeline(c, j);
	kb_reap(k, t, &cc1);                  /* the driver's wait4 for cc1 */
	mm_pipe_read(t, &j->exited, 1);       /* and for as */
	mm_sync(t);
	kb_reap(k, t, &gcc);                  /* the shell's wait4 */
	if (kb_fork_exec(k, t, l, &sh, NULL, &c->prog[KB_FIXDEP], &fd) == 0) {
		job_read(c, t, j->idx);
		mm_user(t, c->fixdep_cycles);
	} else {
		c->ooms++;
	}
	kb_reap(k, t, &fd);
	if (kb_run(k, t, l, &sh, &c->prog[KB_RM]) || kb_run(k, t, l, &sh, &c->prog[KB_MV]))
		c->ooms++;
	rule_files(c, t, (uint64_t)j->idx);
	kb_exit(k, t, &sh);
	return;
oom_cc1:
	kb_exit(k, t, &cc1);
	mm_pipe_close(t, &j->out);
	mm_pipe_read(t, &j->exited, 1);
oom_gcc:
	kb_exit(k, t, &gcc);
oom_sh:
	kb_exit(k, t, &sh);
	c->ooms++;
}

static void as_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct kb_job *a = t->wl;
	struct kb_cfg *c = a->s->wl_cfg;
	struct kb_job *j = &c->job[a->idx];
	wl_smp_enter(&c->w, t);
	struct kb_proc pr = { 0 };
	if (c->rule_procs && kb_exec(c->w.k, t, &c->libs, &c->prog[KB_AS], &pr))
		c->ooms++;
	uint32_t n;
	double size = (double)kb_asm(c, a->idx), cycles = c->as_cycles * c->work[a->idx];
	while ((n = mm_pipe_read(t, &j->out, 32768)) > 0)
		mm_user(t, cycles * (double)n / size);
	obj_write(c, t, (uint64_t)a->idx);
	kb_exit(c->w.k, t, &pr);
	a->runs++;
	/* exit_notify wakes the driver's wait4 (a sync wake-up) before the last
	 * schedule() */
	mm_pipe_close(t, &j->exited);
	mm_sync(t);
	sched_exit(&c->w.sched, &a->st);
}

static void job_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct kb_job *j = t->wl;
	struct kb_cfg *c = j->s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	wl_smp_enter(&c->w, t);
	if (++c->running > c->max_running)
		c->max_running = c->running;
	struct mm_as *as = NULL;
	struct mm_fmap *text = NULL;
	if (c->rule_procs && j->idx < c->files) {
		job_rule(c, j);
		goto out;
	}
	if (c->cc_text_pages > 0 && job_exec(c, t, &as, &text)) {
		c->ooms++;
		goto out;
	}
	if (j->idx < c->files) {
		uint64_t i = (uint64_t)j->idx;
		if (c->asm_size > 0)
			start_as(c, j);
		job_read(c, t, j->idx);
		/* cc1 builds its trees in its heap while it compiles */
		if (as && (mm_brk(k, t, as, pages_of(k, c->cc_heap)) ||
			   mm_touch(k, t, as, 0, as->npages, true) < 0))
			c->ooms++;
		if (c->asm_size > 0)
			job_pipeline(c, j);
		else {
			mm_user(t, c->cc_cycles * c->work[i]);
			obj_write(c, t, i);
		}
	} else {
		for (uint64_t i = 0; c->dc && i < (uint64_t)c->files; i++)
			kb_open(c, t, kb_ent(c, KB_E_OBJ, i));
		mm_file_read(k, t, c->obj, 0, c->obj->size, &c->rst);
		mm_user(t, c->link_cycles);
		kb_open(c, t, kb_ent(c, KB_E_NBLK, (uint64_t)c->headers));
		mm_file_extend(k, t, c->out, 0, c->out->size, &c->rst);
	}
out:
	/* exit: munmap of the text, exit_mmap of the heap */
	if (text)
		mm_fmap_destroy(k, t, text);
	if (as)
		mm_as_exit(k, t, as);
	mm_sync(t);
	j->runs++;
	c->running--;
	sched_exit(&c->w.sched, &j->st);
	job_done(c, c->slots && j->idx < c->files);
}

static void make_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct sim *s = sg_actor_self_get_data();
	struct kb_cfg *c = s->wl_cfg;
	c->t0 = simgrid_get_clock();
	if (c->make_task.tm.w)   /* make's exit is watched: a chain's next step may look ahead */
		tm_world_hook(c->make_task.tm.w, c->make_task.tm.slot);
	if (c->cc_text_pages > 0) {
		/* make's process: its heap, which every job inherits */
		struct mm_kernel *k = c->w.k;
		c->make_as = mm_as_new(k, &c->make_task);
		if (c->make_as && !mm_brk(k, &c->make_task, c->make_as, pages_of(k, c->make_heap)))
			mm_touch(k, &c->make_task, c->make_as, 0, c->make_as->npages, true);
	}
	for (int i = 0; i < c->files; i++) {
		if (c->slots)
			make_wait(c, c->slots, true);
		start_job(s, c, i);
	}
	for (int i = 0; i < c->files; i++)
		make_wait(c, c->done, true);
	start_job(s, c, (int)c->files);
	make_wait(c, c->done, false);
	if (c->make_as) {
		mm_as_exit(c->w.k, &c->make_task, c->make_as);
		c->make_as = NULL;
		mm_sync(&c->make_task);
	}
	c->t_end = simgrid_get_clock();
	c->complete = true;
	if (c->check) {
		struct mm_err e = { "" };
		if (mm_kernel_check(c->w.k, &e) || mm_proc_check(c->w.k, &e) ||
		    mm_fmap_check(c->w.k, &e)) {
			c->check_failed = 1;
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
		}
	}
}

/* Maximal `make -j` with the process model: GNU make sets no limit ("If the -j
 * option is given without an argument, make will not limit the number of jobs"),
 * so the limit is the machine's: as many compile jobs as fit in the memory that is
 * free when the build starts, less the build's page cache (sources, headers,
 * objects, output, cc1), each job's heap (cc_heap) and two pages of page table and
 * stack being its own: the published maximal runs took no longer than -j 32, so
 * they did not swap.  Free memory is counted as a GFP_HIGHUSER allocation (the
 * heaps, the files' page cache) can take it: per zone, the free pages above the
 * zone's high watermark (what kswapd keeps free) and above its lowmem_reserve for
 * HighMem-class allocations, which __alloc_pages never gives them
 * (setup_per_zone_lowmem_reserve: on the 4 GiB i386 STP, Normal keeps HighMem/32
 * = 100 MiB and DMA all of its 16 MiB back; before this was counted the cap
 * overshot by 14 jobs' heaps and the build ended in direct reclaim with nothing
 * to reclaim but the page cache it runs from).
 * Returns: that count, at least 1 and at most files. */
static int64_t kb_fit_jobs(const struct kb_cfg *c)
{
	const struct mm_phys *ph = &c->w.k->phys;
	uint64_t ps = ph->page_size, sz[5], need = 0, fr = 0;
	kb_sizes(c, sz);
	for (int i = 0; i < 5; i++)
		need += (sz[i] + ps - 1) / ps;
	for (int z = 0; z < MM_NR_ZONES; z++) {
		const struct zone *zz = &ph->zones[z];
		uint64_t keep = (uint64_t)zz->pages_high + zz->lowmem_reserve[MM_ZONE_HIGHMEM];
		if (zz->free_pages > keep)
			fr += zz->free_pages - keep;
	}
	uint64_t per = (c->cc_heap + ps - 1) / ps + 2;
	if (c->rule_procs)   /* the shell, the driver and as live as long as cc1 */
		per += (uint64_t)(c->sh_data + c->gcc_data + c->as_data) + 6;
	uint64_t n = fr > need ? (fr - need) / per : 1;
	if (n < 1)
		n = 1;
	return n < (uint64_t)c->files ? (int64_t)n : c->files;
}

/* rule_procs: the programs' binaries and the two libraries, page-cache files
 * on disk 0 from byte @off on (each as long as the text a run faults in).
 * Returns: 0, or -1 if the page cache could not take one. */
static int kb_programs(struct kb_cfg *c, uint64_t off)
{
	struct mm_kernel *k = c->w.k;
	static const char *const names[KB_NPROG - 1] = { "sh", "gcc", "as", "fixdep", "rm", "mv" };
	const int64_t text[KB_NPROG - 1] = { c->sh_text, c->gcc_text, c->as_text, c->fixdep_text,
					     c->util_text, c->util_text };
	const int64_t data[KB_NPROG - 1] = { c->sh_data, c->gcc_data, c->as_data, c->fixdep_data,
					     c->util_data, c->util_data };
	const double cyc[KB_NPROG - 1] = { c->sh_cycles, c->gcc_cycles, 0, c->fixdep_cycles,
					   c->util_cycles, c->util_cycles };
	for (int i = 0; i < KB_NPROG - 1; i++) {
		uint64_t sz = (uint64_t)(text[i] > 0 ? text[i] : 1) * 4096;
		c->prog[i] = (struct kb_prog){ .text = (uint32_t)text[i], .data = (uint32_t)data[i],
					       .cycles = i == KB_AS ? 0 : cyc[i], .dynamic = true };
		c->prog[i].bin = mm_file_create(k, names[i], sz, 0, off);
		if (!c->prog[i].bin)
			return -1;
		off += mib_round(sz);
	}
	c->prog[KB_CC1] = (struct kb_prog){ .bin = c->cc1, .text = (uint32_t)c->cc_text_pages,
					    .dynamic = true };
	/* ld.so and libc share one file (MM_MAX_FILES): one mapping of both */
	c->libs.text = (uint32_t)(c->ldso_text + c->libc_text);
	c->libs.lib = mm_file_create(k, "ld.so+libc", (uint64_t)(c->libs.text + 1) * 4096, 0, off);
	return c->libs.lib ? 0 : -1;
}

static int kb_start(struct sim *s, struct mm_err *e)
{
	struct kb_cfg *c = s->wl_cfg;
	if (wl_smp_start(&c->w, s, c->cs_cycles, e))
		return -1;
	/* the tasks look ahead (emu/core/timemodel.h): a fault or a charge that no
	 * other actor can see before it ends costs no SimGrid call */
	sched_join(&c->w.sched, &s->world);
	c->w.sched.cfg.wake_preempt = c->wake_preempt;
	if (c->wake_affine) {
		c->w.sched.cfg.wake_affine = true;
		c->w.sched.cfg.wake_idle = false;   /* SD_WAKE_IDLE: SMT domains only */
	}
	c->job = calloc((size_t)c->files + 1, sizeof *c->job);
	if (c->asm_size > 0)
		c->asj = calloc((size_t)c->files, sizeof *c->asj);
	if (!c->job || (c->asm_size > 0 && !c->asj) || kb_tree(c, s->seed))
		return mm_errf(e, s->file, "workload", "out of memory");
	static const char *const names[5] = { "src", "include", "obj", "vmlinux", "cc1" };
	struct mm_file **fp[5] = { &c->src, &c->inc, &c->obj, &c->out, &c->cc1 };
	uint64_t sz[5], off = MIB;
	kb_sizes(c, sz);
	mm_task_init(&c->make_task, c->w.k, 0, "make");
	for (int i = 0; i < (c->cc_text_pages > 0 ? 5 : 4); i++) {
		*fp[i] = mm_file_create(c->w.k, names[i], sz[i], 0, off);
		if (!*fp[i])
			return mm_errf(e, s->file, "workload", "out of memory for the page cache of %s",
				       names[i]);
		off += mib_round(sz[i]);
	}
	if (c->rule_procs && kb_programs(c, off))
		return mm_errf(e, s->file, "workload", "out of memory for the page cache of the programs");
	/* ext3: the sources, headers and objects are files of their own */
	if (c->fs == MM_FS_EXT3 &&
	    (mm_ext3_enable(c->w.k, s->file, "workload.fs", e) ||
	     mm_ext3_members(c->w.k, c->src, c->src_size) ||
	     mm_ext3_members(c->w.k, c->inc, c->header_size) ||
	     mm_ext3_members(c->w.k, c->obj, c->obj_size)))
		return e->msg[0] ? -1 : mm_errf(e, s->file, "workload.fs", "out of memory");
	if (c->fs == MM_FS_EXT3 || c->dcache) {   /* the files' dentries and inodes */
		char why[MM_ERR_MAX];
		size_t n = (size_t)c->files * KB_E_NBLK + (size_t)c->headers + 1;
		if (!(c->dc = mm_dcache_of(c->w.k, &mm_dgeom_ext3_26, why, sizeof why)))
			return mm_errf(e, s->file, c->dcache ? "workload.dcache" : "workload.fs",
				       "%s", why);
		if (!(c->ent = malloc(n * sizeof *c->ent)))
			return mm_errf(e, s->file, "workload", "out of memory");
		for (size_t i = 0; i < n; i++)
			c->ent[i] = MM_DENT_NONE;
	}
	if (c->jobs > 0)
		c->slots = sg_sem_init((unsigned)c->jobs);
	else if (c->cc_text_pages > 0)
		c->slots = sg_sem_init((unsigned)(c->max_jobs = kb_fit_jobs(c)));
	c->done = sg_sem_init(0);
	sg_actor_t a = sg_actor_init("make", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, s);
	sg_actor_start(a, make_main, 0, NULL);
	return 0;
}

static void kb_finish(struct sim *s)
{
	if (((struct kb_cfg *)s->wl_cfg)->max_jobs > 0)
		sim_metric(s, "maximal_jobs", (double)((struct kb_cfg *)s->wl_cfg)->max_jobs);
	struct kb_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	double end = c->complete ? c->t_end : simgrid_get_clock();
	double elapsed = end - c->t0;
	double user = 0, sys = 0, io = 0, nap = 0;
	uint64_t nivcsw = 0, nvcsw = 0, runs = 0, once = 0, minflt = 0, majflt = 0;
	uint64_t psl[4] = { 0 }, as_once = 0;   /* pipe reader, writer sleeps, wait4 sleeps, wake-ups */
	double pays = 0, deferred = 0;
	int nas = c->asj ? (int)c->files : 0;
	for (int i = 0; i < c->njob_init + nas; i++) {
		/* the jobs, then the assemblers (of the jobs that started one) */
		const struct kb_job *j = i < c->njob_init ? &c->job[i] : &c->asj[i - c->njob_init];
		if (i >= c->njob_init && !c->job[i - c->njob_init].out.up)
			continue;
		if (i < c->njob_init && j->out.up) {
			psl[0] += j->out.reader_sleeps;
			psl[1] += j->out.writer_sleeps;
			psl[2] += j->exited.reader_sleeps;
			psl[3] += j->out.wakeups + j->exited.wakeups;
		}
		user += j->task.user_cycles / k->clock;
		sys += j->task.tm.paid / k->clock + j->task.spin_s;
		pays += (double)j->task.tm.executes;
		deferred += (double)j->task.tm.deferred;
		io += j->task.io_wait_s;
		nap += j->task.retry_nap_s + j->task.congestion_s;
		nivcsw += j->st.nivcsw;
		nvcsw += j->st.nvcsw;
		if (i < c->njob_init) {
			runs += (uint64_t)j->runs;
			once += j->runs == 1;
		} else {
			as_once += j->runs == 1;
		}
		minflt += j->task.minflt;
		majflt += j->task.majflt;
	}
	/* make's own kernel work (its heap and exit; each fork is the child's) */
	double jobs_sys = sys;
	sys += c->make_task.tm.paid / k->clock + c->make_task.spin_s;
	s->primary = elapsed;
	sim_metric(s, "elapsed", elapsed);
	if (c->src_sigma > 0) {
		uint64_t big = 0;
		for (int64_t i = 0; i < c->files; i++)
			if (c->src_off[i + 1] - c->src_off[i] > big)
				big = c->src_off[i + 1] - c->src_off[i];
		sim_metric(s, "src_largest", (double)big);
	}
	sim_metric(s, "complete", c->complete ? 1 : 0);
	sim_metric(s, "user_s", user);
	sim_metric(s, "system_s", sys);
	sim_metric(s, "cpu_percent", elapsed > 0 ? (user + sys) / elapsed * 100.0 : 0);
	/* the engine's cost (deterministic): the tasks' payments of pending system
	 * cycles and the observation points they passed without one (lookahead) */
	sim_metric(s, "tm_payments", pays);
	sim_metric(s, "tm_deferred", deferred);
	sim_metric(s, "context_switches", (double)nivcsw);
	sim_metric(s, "sleeps", (double)(nvcsw + c->make_sleeps));
	if (c->asm_size > 0) {
		sim_metric(s, "pipe_reader_sleeps", (double)psl[0]);
		sim_metric(s, "pipe_writer_sleeps", (double)psl[1]);
		sim_metric(s, "wait4_sleeps", (double)psl[2]);
		sim_metric(s, "make_sleeps", (double)c->make_sleeps);
		sim_metric(s, "pipe_wakeups", (double)psl[3]);
		sim_metric(s, "as_run_once", (double)as_once);
	}
	sim_metric(s, "sched_switches", (double)c->w.sched.switches);
	if (c->wake_preempt)
		sim_metric(s, "preempt_wakeups", (double)c->w.sched.preempt_wakeups);
	sim_metric(s, "sched_migrations", (double)c->w.sched.migrations);
	if (c->wake_affine)
		sim_metric(s, "affine_wakeups", (double)c->w.sched.affine_wakeups);
	if (c->rule_procs) {
		sim_metric(s, "fork_preempts", (double)c->w.sched.fork_preempts);
		sim_metric(s, "exec_moves", (double)c->w.sched.exec_moves);
	}
	sim_metric(s, "jobs_run", (double)runs);
	sim_metric(s, "jobs_run_once", (double)once);
	sim_metric(s, "max_running", (double)c->max_running);
	sim_metric(s, "io_wait_s", io);
	sim_metric(s, "nap_s", nap);
	sim_metric(s, "pages_read_or_written", (double)c->rst.pages);
	sim_metric(s, "page_cache_hit_ratio",
		   c->rst.pages ? (double)c->rst.hits / (double)c->rst.pages : 0);
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
	mm_dcache_metrics(c->dc, s);
	if (c->dc)
		sim_metric(s, "dcache_opens", (double)c->dcache_ops);
	if (c->cc_text_pages > 0) {
		sim_metric(s, "minor_faults", (double)minflt);
		sim_metric(s, "major_faults", (double)majflt);
		sim_metric(s, "oom_kills", (double)c->ooms);
		sim_metric(s, "make_system_s", c->make_task.tm.paid / k->clock + c->make_task.spin_s);
		sim_metric(s, "jobs_system_s", jobs_sys);
		mm_proc_metrics(k, s);
	}
	wl_smp_metrics(&c->w, s, end);
}

static void kb_fini(void *cfgp)
{
	struct kb_cfg *c = cfgp;
	for (int i = 0; i < c->njob_init; i++)
		sched_task_destroy(&c->job[i].st);
	for (int i = 0; c->asj && i < c->files; i++) {
		if (!c->job[i].out.up)
			continue;
		sched_task_destroy(&c->asj[i].st);
		mm_pipe_destroy(&c->job[i].out);
		mm_pipe_destroy(&c->job[i].exited);
	}
	c->njob_init = 0;
	if (c->slots)
		sg_sem_destroy(c->slots);
	if (c->done)
		sg_sem_destroy(c->done);
	c->slots = c->done = NULL;
	wl_smp_fini(&c->w);
	free(c->job);
	free(c->asj);
	free(c->src_off);
	free(c->work);
	free(c->ent);
	c->ent = NULL;
	c->dc = NULL;
	c->job = c->asj = NULL;
	c->src_off = NULL;
	c->work = NULL;
}

const struct workload_ops workload_kernbench = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "kernbench",
	.desc = "seed 001: synthetic make -j N of a kernel tree on the scheduler model; elapsed",
	.params = kb_params,
	.cfg_size = sizeof(struct kb_cfg),
	.primary = "elapsed",
	.unit = "s",
	.higher_is_better = 0,
	.kernel = 1,
	.chainable = 1,
	.check = kb_check,
	.start = kb_start,
	.finish = kb_finish,
	.fini = kb_fini,
};
