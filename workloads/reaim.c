/*
 * reaim.c - the `reaim` workload of seed 001 (re-aim 7 / AIM7 multiuser): user
 * processes running the tests of a real reaim workfile, on the mm core, the
 * process model (models/mm/proc.h) and the SMP scheduler (models/sched/sched.h).
 *
 * Design.  A driver actor (no CPU of its own) runs load steps.  A step with N
 * users forks N user processes from the driver's address space (mm_as_fork: the
 * parent's heap becomes copy-on-write); each is an actor scheduled by k->sched on
 * the least loaded CPU.  The users wait until all of them are forked (reaim's
 * umbilical pipe and SIGUSR1), then the step's clock starts.  A user runs one job
 * as reaim's runloop() builds it (osdl-aim-7 driver.c): test i runs
 * round(hits_i / total_hits x jobs) times (a fraction of .5 or more rounds up, any
 * other non-zero fraction of a count that would be 0 gives 1), in an order drawn
 * from the run's random stream; then the user exits (mm_as_exit).  A job of the
 * new_dbase mix is 103 tests with reaim's default -j 100 (the "101" is a
 * hand count; tests/test_reaim.c checks the rounding).  reaim's JPM counts tests:
 *   JPM = tests_per_job x 60 x users / elapsed,  JPM per user = JPM / users.
 *
 *   mode "fixed": one step of `users` users.
 *   mode "peak":  reaim -x -t: users = start, start + step, ... (a fixed increment:
 *                 -t turns the adaptive increment off) until a step's JPM per user
 *                 is 10 or less (the crossover), or users_max (reaim -e) is reached;
 *                 max_jpm is the best step.
 *   mode "quick": reaim -q -t: the same with the crossover threshold 60.
 * Before each step the disk files are made FILESIZE + POOLSIZE / users KiB (in
 * whole KiB, truncated: driver.c's disk_iteration_count), and the system is
 * synced (reaim's "sync;sync;sync").
 *
 * What a test does is decided by its name (the shipped mixes) or else its
 * category (workfile.h), with reaim's own loop counts where workfile.c gives them:
 *   cpu tests        `cpu_cycles` of user-mode CPU (calibration, the same for all)
 *   sieve            a 1,000,000-byte table: brk up, dirty it, cpu, brk down
 *   mem_rtns_1       POOLSIZE malloc'd: brk up, dirty it, brk down
 *   mem_rtns_2, ram_copy  block copies over POOLSIZE of the user's resident heap
 *   page_test        brk +1 MiB dirtied, then 100 x (brk -64 KiB, 16 x (brk +4 KiB,
 *                    dirty the page)): anonymous faults, zap, release_pages
 *   brk_test         the same brk pattern without touching pages
 *   disk_rd/rr/wrt/cp, disk_brw/bcp/brd/..., sync_disk_rw/update/...  FILESIZE
 *                    files of the user written / read in 1 KiB calls through the
 *                    page cache, sync() (here: of the user's own files) where reaim
 *                    calls it, O_SYNC writes waited for, unlink (truncate)
 *   fs tests         `fs_ops` system calls with page-cache lookups (metadata only)
 *   shared_memory    a 64 KiB SysV segment: created, attached, dirtied, removed
 *   ipc/net tests    `ipc_bytes` copied twice through the kernel, a system call per
 *                    4 KiB (no second actor: the partner's share is charged here)
 *   fork_test, exec_test, shell_rtns  fork (+ exec: a fresh address space that
 *                    faults in `exec_pages`) + exit
 *
 * Files: every user slot owns two FILESIZE regions of the file `tmp` (its test
 * file and its copy), all users read the shared file `shared`; unlink truncates
 * the region (the pages leave the LRU under lru_lock).  sync() is approximated by
 * an fsync of the user's own regions (the real one writes every dirty page in
 * the system).  With fs ext3 the files have dentries and inodes in the kernel's
 * caches (models/fs/dcache.h): a disk test makes its file (and the copy test
 * its copy) and unlinks it, the copy test looks the shared file up.
 *
 * Metrics: max_jpm (primary), jpm per step as a series (x = users), peak users,
 * user/system CPU seconds, lock counters, fault and swap counters.
 */
#include <libgen.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
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
#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/sched/sched.h"
#include "workloads/workfile.h"
#include "workloads/smp.h"
#include "workloads/workload.h"

#define MAX_STEPS 1024
#define KIB 1024u

static const char *const mode_names[] = { "fixed", "peak", "quick", NULL };
enum { MODE_FIXED, MODE_PEAK, MODE_QUICK };

struct ru_user {
	struct mm_task task;       /* first: the actor's data is &task */
	struct sched_task st;
	struct sim *s;
	struct mm_as *as;
	int slot;                  /* 0..users-1 in its step: its file regions */
	int tests_run;
	int *job;                  /* [tests_per_job] workfile test indices, in run order */
	int dj;                    /* its next disk test's directory (mod dirs) */
	char name[24];
};

struct ru_cfg {
	char workfile[MM_PSTR];
	int mode;
	int fs;                    /* enum mm_fs */
	bool wake_preempt;
	int64_t users, users_start, users_step, users_max;
	int64_t jobs;
	int64_t dirs;
	uint64_t filesize, poolsize;   /* 0: from the workfile (or reaim.config's) */
	double cpu_cycles;
	int64_t fs_ops;
	uint64_t ipc_bytes;
	int64_t exec_pages;
	uint64_t heap;             /* the driver's heap, shared copy-on-write by users */
	double cs_cycles;
	bool check;
	/* loaded */
	struct workfile wf;
	uint64_t fsz, psz;         /* effective FILESIZE, POOLSIZE */
	uint64_t dsz;              /* this step's disk file: FILESIZE + POOLSIZE / users */
	uint64_t page;             /* the machine's page size */
	int *mix;                  /* [wf.ntests] runs of each test per job (reaim's rounding) */
	int tests_per_job;         /* their sum: reaim's procs_per_user after runloop() */
	/* run-time state */
	struct wl_smp w;           /* kernel + scheduler */
	struct mm_task drv;        /* the driver's task (no CPU of its own) */
	struct mm_as *drv_as;
	struct mm_file *tmp[MACHINE_MAX_DISKS], *shared[MACHINE_MAX_DISKS];   /* per DISKDIR */
	/* ext3: the kernel's dentries and inodes (dcache.c); the shared files' ids */
	struct mm_dcache *dc;
	uint32_t shared_ent[MACHINE_MAX_DISKS];
	struct mm_rng rng;
	struct ru_user *user;      /* [users_max] (reused by every step) */
	int nuser_init;            /* sched tasks initialised over all steps */
	struct sched_task **all_st;
	int nall, capall;
	sg_sem_t done, go;
	int nsteps;
	double step_users[MAX_STEPS], step_jpm[MAX_STEPS], step_s[MAX_STEPS];
	bool crossover;            /* the last step's JPM per user reached the threshold */
	double user_s, sys_s;
	uint64_t tests, ooms, nvcsw, nivcsw;
	uint64_t min_free;             /* fewest free pages seen at a test's end */
	struct ru_test_stats {         /* per workfile test: the users' own costs */
		uint64_t calls, lru_acq;
		double lru_hold_s, sys_s;
	} *ts;                         /* [wf.ntests] */
	bool complete;
	double t0, t_end;
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

static const struct mm_param ru_params[] = {
	MM_PARAM(struct ru_cfg, workfile, "workfile", MM_P_STRING, 1, 0, NULL,
		 "reaim workfile, relative to the scenario file's directory"),
	MM_PARAM_ENUM(struct ru_cfg, mode, "mode", mode_names, "\"peak\"",
		      "fixed: one step of `users`; peak: reaim -x -t, users grow by users_step until JPM per user <= 10 (the crossover); quick: reaim -q -t, until JPM per user <= 60"),
	MM_PARAM(struct ru_cfg, users, "users", MM_P_INT, 1, 4096, "8", "users of a fixed run"),
	MM_PARAM(struct ru_cfg, users_start, "users_start", MM_P_INT, 1, 4096, "8",
		 "users of the first step (reaim -s; OSDL: the CPU count)"),
	MM_PARAM(struct ru_cfg, users_step, "users_step", MM_P_INT, 1, 4096, "8",
		 "users added per step (reaim -i; OSDL: the CPU count)"),
	MM_PARAM(struct ru_cfg, users_max, "users_max", MM_P_INT, 1, 4096, "4096",
		 "no step beyond this many users (reaim -e; with -x and -q reaim has none)"),
	MM_PARAM(struct ru_cfg, jobs, "jobs", MM_P_INT, 1, 100000, "100",
		 "reaim -j: tests per job before each test's share is rounded (reaim's default 100)"),
	MM_PARAM(struct ru_cfg, dirs, "dirs", MM_P_INT, 1, MACHINE_MAX_DISKS, "1",
		 "DISKDIR lines of reaim's config: directory d's files are on machine disk d; a user's disk tests take them in turn from a random one (OSDL STP: 4)"),
	MM_PARAM(struct ru_cfg, filesize, "filesize", MM_P_SIZE, 0, WORKFILE_MAX_SIZE, "0",
		 "FILESIZE: the disk tests' file is FILESIZE + POOLSIZE / users (0: the workfile's, else reaim.config's 10k)"),
	MM_PARAM(struct ru_cfg, poolsize, "poolsize", MM_P_SIZE, 0, WORKFILE_MAX_SIZE, "0",
		 "POOLSIZE: divided among the users for the disk files; the memory tests' pool (0: the workfile's, else reaim.config's 1m)"),
	MM_PARAM(struct ru_cfg, cpu_cycles, "cpu_cycles", MM_P_DOUBLE, 0, 1e13, "2e7",
		 "user-mode cycles of one arithmetic or library test (calibration)"),
	MM_PARAM(struct ru_cfg, fs_ops, "fs_ops", MM_P_INT, 0, 1000000, "100",
		 "metadata system calls of one file-system test (calibration)"),
	MM_PARAM(struct ru_cfg, ipc_bytes, "ipc_bytes", MM_P_SIZE, 0, 1 << 30, "\"256KiB\"",
		 "bytes passed by one pipe, socket or network test (calibration)"),
	MM_PARAM(struct ru_cfg, exec_pages, "exec_pages", MM_P_INT, 0, 1 << 20, "32",
		 "pages a freshly exec'd program faults in (calibration)"),
	MM_PARAM(struct ru_cfg, heap, "heap", MM_P_SIZE, 0, 1 << 30, "\"256KiB\"",
		 "the reaim driver's heap, inherited copy-on-write by every user"),
	MM_PARAM(struct ru_cfg, cs_cycles, "cs_cycles", MM_P_DOUBLE, 0, 1e9, "1000",
		 "cost of a task-to-task context switch (docs/sched.md, calibration)"),
	MM_PARAM(struct ru_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm and process invariant checkers at the end (tests)"),
	MM_PARAM_ENUM(struct ru_cfg, fs, "fs", mm_fs_names, "\"none\"", MM_FS_HELP),
	MM_PARAM(struct ru_cfg, wake_preempt, "wake_preempt", MM_P_BOOL, 1, 0, "false",
		 "wake-up preemption (2.6.10 try_to_wake_up / TASK_PREEMPTS_CURR: a woken task with the sleep_avg bonus preempts a running task of lower dynamic priority; models/sched/sched.c); false: a woken task waits for a time slice or an idle CPU, as before"),
	MM_PARAM_END
};

#define MIB (UINT64_C(1) << 20)

static uint64_t mib_round(uint64_t b)
{
	return (b + MIB - 1) & ~(MIB - 1);
}

static int ru_max_users(const struct ru_cfg *c)
{
	return (int)(c->mode == MODE_FIXED ? c->users : c->users_max);
}

/* The disk tests' file size at @users users: FILESIZE + POOLSIZE / users, both in
 * whole KiB, the quotient truncated (reaim's disk_iteration_count).
 * Returns: bytes. */
static uint64_t step_file_bytes(const struct ru_cfg *c, uint64_t users)
{
	return (c->fsz / KIB + (c->psz / KIB) / users) * KIB;
}

/* Bytes the users' regions of `tmp` can take at any step: two files per user,
 * users x (FILESIZE + POOLSIZE / users) <= users_max x FILESIZE + POOLSIZE, and a
 * page of rounding per file.
 * Returns: that, or UINT64_MAX if it does not fit in 64 bits. */
static uint64_t tmp_bytes(const struct ru_cfg *c)
{
	uint64_t users = (uint64_t)ru_max_users(c);
	if (c->fsz > (UINT64_MAX / 4 - c->psz) / users - c->page)
		return UINT64_MAX;
	return 2 * ((c->fsz + c->page) * users + c->psz);   /* each file page-rounded */
}

/* Bytes of disk 0 the users' files take: a MiB of slack, `tmp` and the shared file
 * (as large as the file of one user), each MiB-rounded (the layout ru_start()
 * creates).  Returns: that, or UINT64_MAX if it does not fit in 64 bits. */
static uint64_t files_bytes(const struct ru_cfg *c)
{
	uint64_t tmp = tmp_bytes(c);
	if (tmp == UINT64_MAX || c->fsz > UINT64_MAX / 8 || c->psz > UINT64_MAX / 8)
		return UINT64_MAX;
	return MIB + mib_round(tmp) + mib_round(step_file_bytes(c, 1));
}

static int ru_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct ru_cfg *c = cfgp;
	char wpath[1024], dir[1024], sub[256];
	snprintf(dir, sizeof dir, "%s", file ? file : ".");
	if (c->workfile[0] == '/')
		snprintf(wpath, sizeof wpath, "%s", c->workfile);
	else
		snprintf(wpath, sizeof wpath, "%s/%s", dirname(dir), c->workfile);
	workfile_free(&c->wf);
	if (workfile_load(&c->wf, wpath, e)) {
		struct mm_err inner = *e;
		snprintf(sub, sizeof sub, "%s.workfile", path);
		return mm_errf(e, file, sub, "%s", inner.msg);
	}
	c->fsz = c->filesize ? c->filesize : c->wf.filesize;
	c->psz = c->poolsize ? c->poolsize : c->wf.poolsize;
	c->page = machine_page_size(m);
	if (c->mode != MODE_FIXED && c->users_start > c->users_max) {
		snprintf(sub, sizeof sub, "%s.users_start", path);
		return mm_errf(e, file, sub, "expected at most users_max (%lld)",
			       (long long)c->users_max);
	}
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the reaim workload needs a disk");
	if (c->dirs > m->ndisks) {
		snprintf(sub, sizeof sub, "%s.dirs", path);
		return mm_errf(e, file, sub, "expected at most the machine's disks (%d)", m->ndisks);
	}
	if (m->cpus > MACHINE_MAX_CPUS)
		return mm_errf(e, file, "machine.cpus", "too many CPUs");
	uint64_t need = files_bytes(c), small = UINT64_MAX;
	for (int d = 0; d < c->dirs; d++)
		if (m->disks[d].size < small)
			small = m->disks[d].size;
	if (need > small / 2) {
		char amount[32] = "over 2^64";
		if (need < UINT64_MAX)
			snprintf(amount, sizeof amount, "%llu", (unsigned long long)need);
		snprintf(sub, sizeof sub, "%s.users_max", path);
		return mm_errf(e, file, sub, "the users' files (%s bytes) need more than half of a disk",
			       amount);
	}
	return 0;
}

/* ---------------------------------------------------------------- tests */

static uint32_t pages_of(struct mm_kernel *k, uint64_t bytes)
{
	return (uint32_t)((bytes + k->phys.page_size - 1) / k->phys.page_size);
}

/* Dirty @n new heap pages above the break: brk up, touch. Returns: 0 or -1 (OOM). */
static int heap_grow_touch(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, uint32_t n,
			   bool touch)
{
	uint32_t at = as->npages;
	if (mm_brk(k, t, as, at + n))
		return -1;
	if (touch && mm_touch(k, t, as, at, n, true) < 0)
		return -1;
	return 0;
}

/* page_test / brk_test: sbrk 1 MiB, then 100 x (shrink 64 KiB, regrow 4 KiB at a time). */
static int t_page(struct mm_kernel *k, struct mm_task *t, struct mm_as *as, bool touch)
{
	uint32_t base = as->npages, big = pages_of(k, MIB), chunk = pages_of(k, 64 * KIB);
	int rc = heap_grow_touch(k, t, as, big, touch);
	for (int i = 0; i < 100 && !rc; i++) {
		rc = mm_brk(k, t, as, as->npages - chunk);
		for (uint32_t j = 0; j < chunk && !rc; j++)
			rc = heap_grow_touch(k, t, as, 1, touch);
	}
	mm_brk(k, t, as, base);
	return rc;
}

/* A FILESIZE file of user @slot: region @which (0 its file, 1 its copy). */
static uint32_t region(struct ru_cfg *c, int slot, int which)
{
	return (uint32_t)(((uint64_t)slot * 2 + (uint64_t)which) * pages_of(c->w.k, c->dsz));
}

/* @n calls of 1 KiB read or write at offsets from @off (sequential or random). */
static void io_1k(struct ru_cfg *c, struct mm_task *t, struct mm_file *f, uint32_t first_page,
		  bool write, bool random, bool osync, struct mm_read_stats *rs)
{
	struct mm_kernel *k = c->w.k;
	uint64_t base = (uint64_t)first_page * k->phys.page_size;
	uint64_t nblk = c->dsz / KIB;
	for (uint64_t b = 0; b < nblk; b++) {
		uint64_t blk = random ? mm_rng_below(&c->rng, nblk) : b;
		uint64_t pos = base + blk * KIB;
		if (write && !random)
			mm_file_extend(k, t, f, pos, KIB, rs);   /* a new file grows */
		else if (write)
			mm_file_write(k, t, f, pos, KIB, rs);
		else
			mm_file_read(k, t, f, pos, KIB, rs);
		if (osync)
			mm_file_sync(k, t, f, (uint32_t)(pos / k->phys.page_size), 1);
	}
}

static void user_sync(struct ru_cfg *c, struct mm_task *t, struct mm_file *f, int slot)
{
	mm_file_sync(c->w.k, t, f, region(c, slot, 0), 2 * pages_of(c->w.k, c->dsz));
}

static void user_unlink(struct ru_cfg *c, struct mm_task *t, struct mm_file *f, int slot, int which)
{
	mm_file_truncate(c->w.k, t, f, region(c, slot, which), pages_of(c->w.k, c->dsz));
}

/* The dcache side of an open that reads or writes file *@id (ext3 only):
 * made (a creat, when *@id is MM_DENT_NONE) or found, its inode dirtied
 * (mm_dentry_use); no memory for the objects counts as an OOM. */
static void ru_open(struct ru_cfg *c, struct mm_task *t, uint32_t *id)
{
	if (c->dc && mm_dentry_use(c->w.k, t, c->dc, id, MM_DENT_NONE))
		c->ooms++;
}

/* Run test @id as user @u.  Returns: 0, or -1 if it was killed (OOM). */
static int run_test(struct ru_cfg *c, struct ru_user *u, int id)
{
	struct mm_kernel *k = c->w.k;
	struct mm_task *t = &u->task;
	const struct workfile_known *kt = workfile_known(id);
	const char *n = kt->name;
	struct mm_read_stats rs = { 0 };
	uint32_t mine = region(c, u->slot, 0), copy = region(c, u->slot, 1);
	double cpb = k->copy_cycles_per_byte;
	int rc = 0;

	if (!strcmp(n, "page_test") || !strcmp(n, "brk_test")) {
		rc = t_page(k, t, u->as, n[0] == 'p');
	} else if (!strcmp(n, "sieve") || !strcmp(n, "mem_rtns_1")) {
		uint32_t np = pages_of(k, n[0] == 's' ? 1000000 : c->psz), base = u->as->npages;
		rc = heap_grow_touch(k, t, u->as, np, true);
		mm_user(t, c->cpu_cycles);
		mm_brk(k, t, u->as, base);
	} else if (!strcmp(n, "mem_rtns_2") || !strcmp(n, "ram_copy")) {
		/* block copies over the resident heap */
		uint32_t np = pages_of(k, c->psz);
		if (np > u->as->npages)
			np = u->as->npages;
		if (mm_touch(k, t, u->as, 0, np, true) < 0)
			rc = -1;
		mm_user(t, c->cpu_cycles + (double)c->psz * cpb);
	} else if (!strcmp(n, "shared_memory")) {
		/* shmget + shmat: a 64 KiB segment of its own, dirtied, then removed */
		mm_charge(t, 4 * k->costs->syscall);
		struct mm_as *seg = mm_as_new(k, t);
		if (!seg || mm_brk(k, t, seg, pages_of(k, 64 * KIB)) ||
		    mm_touch(k, t, seg, 0, pages_of(k, 64 * KIB), true) < 0)
			rc = -1;
		mm_user(t, c->cpu_cycles / 4);
		mm_as_exit(k, t, seg);
	} else if (kt->cat == WF_CAT_DISK) {
		/* the operation: sync_disk_OP (O_SYNC), disk_bOP (buffer cache: no
		 * sync() calls), disk_dio_OP (O_DIRECT: not modelled, through the page
		 * cache like disk_OP), disk_OP */
		int d = (int)(u->dj++ % c->dirs);   /* reaim: dkarr[dj % numdir], dj++ */
		struct mm_file *tmp = c->tmp[d], *shared = c->shared[d];
		bool sync = strncmp(n, "sync_", 5) == 0;
		bool nosync = strncmp(n, "disk_b", 6) == 0;
		const char *op = n + (sync ? strlen("sync_disk_") : strlen("disk_")) + (nosync ? 1 : 0);
		if (strncmp(op, "dio_", 4) == 0)
			op += 4;
		uint32_t fmine = MM_DENT_NONE, fcopy = MM_DENT_NONE;
		ru_open(c, t, &fmine);
		if (!strcmp(op, "rd")) {              /* write, sync, read sequentially */
			io_1k(c, t, tmp, mine, true, false, false, &rs);
			if (!nosync)
				user_sync(c, t, tmp, u->slot);
			io_1k(c, t, tmp, mine, false, false, false, &rs);
		} else if (!strcmp(op, "rr")) {       /* write, sync, random reads */
			io_1k(c, t, tmp, mine, true, false, false, &rs);
			if (!nosync)
				user_sync(c, t, tmp, u->slot);
			io_1k(c, t, tmp, mine, false, true, false, &rs);
		} else if (!strcmp(op, "rw")) {       /* write, random (O_SYNC) writes */
			io_1k(c, t, tmp, mine, true, false, false, &rs);
			if (!nosync && !sync)
				user_sync(c, t, tmp, u->slot);
			io_1k(c, t, tmp, mine, true, true, sync, &rs);
		} else if (!strcmp(op, "cp")) {       /* copy the shared file */
			ru_open(c, t, &c->shared_ent[d]);
			ru_open(c, t, &fcopy);
			io_1k(c, t, shared, 0, false, false, false, &rs);
			io_1k(c, t, tmp, copy, true, false, sync, &rs);
			if (!nosync && !sync)
				user_sync(c, t, tmp, u->slot);
		} else if (!strcmp(op, "update")) {   /* database: read-modify-write, O_SYNC */
			io_1k(c, t, tmp, mine, true, false, false, &rs);
			user_sync(c, t, tmp, u->slot);
			uint64_t nblk = c->dsz / KIB, ps = k->phys.page_size;
			for (uint64_t i = 0; i < nblk; i++) {
				uint64_t pos = (uint64_t)mine * ps + mm_rng_below(&c->rng, nblk) * KIB;
				mm_file_read(k, t, tmp, pos, KIB, &rs);
				mm_file_write(k, t, tmp, pos, KIB, &rs);
				mm_file_sync(k, t, tmp, (uint32_t)(pos / ps), 1);
			}
		} else {                              /* wrt: sequential writes */
			io_1k(c, t, tmp, mine, true, false, sync, &rs);
			if (!nosync && !sync)
				user_sync(c, t, tmp, u->slot);
		}
		user_unlink(c, t, tmp, u->slot, 0);
		user_unlink(c, t, tmp, u->slot, 1);
		if (c->dc) {
			mm_dentry_delete(k, t, c->dc, fmine);
			mm_dentry_delete(k, t, c->dc, fcopy);
		}
	} else if (kt->cat == WF_CAT_FS) {
		for (int64_t i = 0; i < c->fs_ops; i++)
			mm_charge(t, k->costs->syscall + 2 * k->costs->pc_lookup);
		mm_user(t, c->cpu_cycles / 10);
	} else if (kt->cat == WF_CAT_IPC || kt->cat == WF_CAT_NETWORK) {
		uint64_t calls = (c->ipc_bytes + 4095) / 4096;
		mm_charge(t, 2.0 * (double)c->ipc_bytes * cpb + 2.0 * (double)calls * k->costs->syscall);
		mm_user(t, c->cpu_cycles / 10);
	} else if (kt->cat == WF_CAT_PROCESS) {
		int forks = !strcmp(n, "fork_test") ? 100 : !strcmp(n, "exec_test") ? 5 :
			    !strcmp(n, "signal_test") ? 0 : 3;
		bool exec = strcmp(n, "fork_test") != 0;
		if (!strcmp(n, "signal_test"))
			for (int i = 0; i < 1000; i++)
				mm_charge(t, 3 * k->costs->syscall);
		for (int i = 0; i < forks && !rc; i++) {
			struct mm_as *child = mm_as_fork(k, t, u->as);
			if (!child) {
				rc = -1;
				break;
			}
			if (exec) {
				/* the child execs: its copy goes, a new image faults in */
				mm_as_exit(k, t, child);
				child = mm_as_new(k, t);
				if (!child || mm_brk(k, t, child, (uint32_t)c->exec_pages) ||
				    mm_touch(k, t, child, 0, (uint32_t)c->exec_pages, true) < 0)
					rc = -1;
			}
			mm_as_exit(k, t, child);
		}
	} else {
		mm_user(t, c->cpu_cycles);
	}
	return rc;
}

/* ---------------------------------------------------------------- actors */

static void user_main(int argc, char **argv);

/* Fork user @i of this step and start its actor. Returns: 0 or -1 (OOM). */
static int start_user(struct sim *s, struct ru_cfg *c, int i)
{
	struct ru_user *u = &c->user[i];
	struct mm_as *as = mm_as_fork(c->w.k, &c->drv, c->drv_as);
	if (!as)
		return -1;
	int *job = u->job;
	memset(u, 0, sizeof *u);
	u->job = job;
	u->dj = (int)mm_rng_below(&c->rng, (uint64_t)c->dirs);
	/* this child's order of the job's tests (reaim: its own random stream) */
	int len = 0;
	for (int ti = 0; ti < c->wf.ntests; ti++)
		for (int r = 0; r < c->mix[ti]; r++)
			job[len++] = ti;
	for (int j = len - 1; j > 0; j--) {
		int r = (int)mm_rng_below(&c->rng, (uint64_t)j + 1), x = job[j];
		job[j] = job[r];
		job[r] = x;
	}
	u->s = s;
	u->as = as;
	u->slot = i;
	snprintf(u->name, sizeof u->name, "user%d", i);
	if (c->nall == c->capall) {
		int cap = c->capall ? 2 * c->capall : 256;
		struct sched_task **n = realloc(c->all_st, (size_t)cap * sizeof *n);
		if (!n)
			return -1;
		c->all_st = n;
		c->capall = cap;
	}
	/* each user has its own sched entity for this step; kept for the totals */
	struct sched_task *st = calloc(1, sizeof *st);
	if (!st)
		return -1;
	c->all_st[c->nall++] = st;
	wl_smp_spawn(&c->w, &c->drv, &u->task, st, u->name, u, user_main);
	sched_fork(st, NULL);   /* forked by the driver, which sleeps in wait */
	return 0;
}

static void user_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ru_user *u = t->wl;
	struct ru_cfg *c = u->s->wl_cfg;
	struct sched_task *st = t->st;
	if (t->tm.pay_wake)
		t->tm.wake = INFINITY;   /* until the driver's go (run_step) */
	sg_sem_acquire(c->go);   /* reaim: pause() until every child is forked */
	wl_smp_enter(&c->w, t);
	for (int i = 0; i < c->tests_per_job; i++) {
		int ti = u->job[i];
		int id = c->wf.tests[ti].id;
		c->tests++;
		uint64_t acq = t->lru_acq;
		double hold = t->lru_hold_s;
		mm_sync(t);
		double sys = t->tm.paid;
		int rc = run_test(c, u, id);
		mm_sync(t);
		struct ru_test_stats *ts = &c->ts[ti];
		ts->calls++;
		ts->lru_acq += t->lru_acq - acq;
		ts->lru_hold_s += t->lru_hold_s - hold;
		ts->sys_s += (t->tm.paid - sys) / c->w.k->clock;
		uint64_t fr = mm_phys_free_pages(&c->w.k->phys);
		if (fr < c->min_free)
			c->min_free = fr;
		if (rc) {
			c->ooms++;   /* killed by the OOM killer: the job ends */
			break;
		}
		u->tests_run++;
	}
	mm_as_exit(c->w.k, t, u->as);
	u->as = NULL;
	mm_sync(t);
	c->user_s += t->user_cycles / c->w.k->clock;
	c->sys_s += t->tm.paid / c->w.k->clock + t->spin_s;
	sched_exit(&c->w.sched, st);
	c->nvcsw += st->nvcsw;
	c->nivcsw += st->nivcsw;
	tm_woken(&c->drv.tm.wake);   /* the driver's wait (run_step) */
	sg_sem_release(c->done);
}

/* The disk files of a step of @n users: FILESIZE + POOLSIZE / n each; the shared
 * file the copy tests read is written at that size and everything is synced
 * (reaim's disk_create_all_files() and "sync;sync;sync" before the step). */
static void step_files(struct ru_cfg *c, int n)
{
	struct mm_kernel *k = c->w.k;
	uint64_t old = c->dsz;
	c->dsz = step_file_bytes(c, (uint64_t)n);
	for (int d = 0; d < c->dirs; d++) {
		/* ext3: each user's two files are their own inodes (on failure, out
		 * of memory, the previous step's file size stays) */
		(void)mm_ext3_members(k, c->tmp[d], (uint64_t)pages_of(k, c->dsz) * k->phys.page_size);
		struct mm_file *f = c->shared[d];
		if (old)
			mm_file_truncate(k, &c->drv, f, 0, pages_of(k, old));
		mm_file_extend(k, &c->drv, f, 0, c->dsz, &(struct mm_read_stats){ 0 });
		mm_file_sync(k, &c->drv, f, 0, pages_of(k, c->dsz));
	}
}

/* One step of @n users.  reaim's runloop(): the clock starts when every child is
 * forked and ends when the last one exits.
 * Returns: its JPM (tests_per_job x 60 x n / elapsed), or -1 if users could not be
 * started. */
static double run_step(struct sim *s, struct ru_cfg *c, int n)
{
	step_files(c, n);
	int started = 0;
	for (int i = 0; i < n; i++) {
		if (start_user(s, c, i))
			break;
		started++;
	}
	mm_sync(&c->drv);   /* the go comes at the driver's own time */
	double t0 = simgrid_get_clock();
	for (int i = 0; i < started; i++) {
		tm_woken(&c->user[i].task.tm.wake);
		sg_sem_release(c->go);
	}
	/* the driver cannot act until a child exits (its wake slot is +inf until
	 * the child's exit sets it to now); a child that exited already leaves it
	 * as it is, a time in the past: the driver runs on */
	for (int i = 0; i < started; i++) {
		if (sg_sem_would_block(c->done))
			c->drv.tm.wake = INFINITY;
		sg_sem_acquire(c->done);
	}
	double el = simgrid_get_clock() - t0;
	if (started < n || el <= 0)
		return -1;
	double jpm = reaim_jpm(c->tests_per_job, n, el);
	if (c->nsteps < MAX_STEPS) {
		c->step_users[c->nsteps] = n;
		c->step_jpm[c->nsteps] = jpm;
		c->step_s[c->nsteps] = el;
		c->nsteps++;
	}
	return jpm;
}

static void driver_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct sim *s = sg_actor_self_get_data();
	struct ru_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	c->t0 = simgrid_get_clock();
	/* the driver process: its heap, which every user inherits */
	c->drv_as = mm_as_new(k, &c->drv);
	if (c->drv_as && !mm_brk(k, &c->drv, c->drv_as, pages_of(k, c->heap)))
		mm_touch(k, &c->drv, c->drv_as, 0, c->drv_as->npages, true);
	if (c->mode == MODE_FIXED) {
		run_step(s, c, (int)c->users);
	} else {
		/* reaim -x / -q with -t: a fixed increment, up to the crossover */
		double thr = c->mode == MODE_QUICK ? REAIM_XOVER_QUICK : REAIM_XOVER;
		for (int64_t n = c->users_start; n <= c->users_max && c->nsteps < MAX_STEPS;
		     n += c->users_step) {
			double jpm = run_step(s, c, (int)n);
			if (jpm < 0)
				break;
			if (jpm / (double)n <= thr) {
				c->crossover = true;
				break;
			}
		}
	}
	mm_as_exit(k, &c->drv, c->drv_as);
	c->drv_as = NULL;
	mm_sync(&c->drv);
	c->t_end = simgrid_get_clock();
	c->complete = true;
	if (c->check) {
		struct mm_err e = { "" };
		if (mm_kernel_check(k, &e) || mm_proc_check(k, &e)) {
			c->check_failed = 1;
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
		}
	}
}

/* Each test's runs per job (reaim_test_runs over the workfile).
 * Returns: a malloc'ed array of wf.ntests counts with their sum in @total, or NULL. */
static int *build_mix(const struct workfile *w, int64_t jobs, int *total)
{
	int *mix = calloc((size_t)w->ntests, sizeof *mix);
	if (!mix)
		return NULL;
	*total = 0;
	for (int i = 0; i < w->ntests; i++) {
		mix[i] = reaim_test_runs(w->tests[i].hits, w->total_hits, jobs);
		*total += mix[i];
	}
	return mix;
}

static int ru_start(struct sim *s, struct mm_err *e)
{
	struct ru_cfg *c = s->wl_cfg;
	if (wl_smp_start(&c->w, s, c->cs_cycles, e))
		return -1;
	/* the users look ahead (emu/core/timemodel.h): a charge that no other
	 * actor can see before it ends costs no SimGrid call */
	sched_join(&c->w.sched, &s->world);
	c->w.sched.cfg.wake_preempt = c->wake_preempt;
	mm_task_init(&c->drv, c->w.k, 0, "reaim");
	mm_rng_seed(&c->rng, s->seed, (uint64_t)s->run, "reaim");
	c->user = calloc((size_t)ru_max_users(c), sizeof *c->user);
	c->mix = build_mix(&c->wf, c->jobs, &c->tests_per_job);
	c->ts = calloc((size_t)c->wf.ntests, sizeof *c->ts);
	if (!c->user || !c->mix || !c->ts)
		return mm_errf(e, s->file, "workload", "out of memory");
	for (int i = 0; i < ru_max_users(c); i++)
		if (!(c->user[i].job = calloc((size_t)c->tests_per_job, sizeof(int))))
			return mm_errf(e, s->file, "workload", "out of memory");
	uint64_t tsz = tmp_bytes(c);
	for (int d = 0; d < c->dirs; d++) {
		c->tmp[d] = mm_file_create(c->w.k, "tmp", tsz, d, MIB);
		c->shared[d] = mm_file_create(c->w.k, "shared", step_file_bytes(c, 1), d,
					      MIB + mib_round(tsz));
		if (!c->tmp[d] || !c->shared[d])
			return mm_errf(e, s->file, "workload", "out of memory for the page cache");
	}
	if (c->fs == MM_FS_EXT3 && mm_ext3_enable(c->w.k, s->file, "workload.fs", e))
		return -1;
	char why[MM_ERR_MAX];
	if (c->fs == MM_FS_EXT3 && !(c->dc = mm_dcache_of(c->w.k, &mm_dgeom_ext3_26, why, sizeof why)))
		return mm_errf(e, s->file, "workload.fs", "%s", why);
	for (int d = 0; d < MACHINE_MAX_DISKS; d++)
		c->shared_ent[d] = MM_DENT_NONE;
	c->done = sg_sem_init(0);
	c->go = sg_sem_init(0);
	c->min_free = UINT64_MAX;
	sg_actor_t a = sg_actor_init("reaim", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, s);
	sg_actor_start(a, driver_main, 0, NULL);
	return 0;
}

static void ru_finish(struct sim *s)
{
	struct ru_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	double best = 0, best_users = 0;
	for (int i = 0; i < c->nsteps; i++) {
		if (c->step_jpm[i] > best) {
			best = c->step_jpm[i];
			best_users = c->step_users[i];
		}
		sim_series_add(s, "jpm", c->step_users[i], c->step_jpm[i]);
	}
	s->primary = best;
	sim_metric(s, "max_jpm", best);
	sim_metric(s, "peak_users", best_users);
	sim_metric(s, "steps", c->nsteps);
	sim_metric(s, "tests_per_job", c->tests_per_job);
	sim_metric(s, "crossover", c->crossover ? 1 : 0);
	if (c->nsteps > 0)
		sim_metric(s, "jpm_per_user_last", c->step_jpm[c->nsteps - 1] / c->step_users[c->nsteps - 1]);
	sim_metric(s, "file_kib_last", (double)c->dsz / KIB);
	/* the footprint: memory in use at its highest, sampled at the tests' ends */
	if (c->min_free != UINT64_MAX)
		sim_metric(s, "min_free_mib", (double)c->min_free * (double)k->phys.page_size / MIB);
	sim_metric(s, "complete", c->complete ? 1 : 0);
	sim_metric(s, "elapsed", (c->complete ? c->t_end : simgrid_get_clock()) - c->t0);
	sim_metric(s, "user_s", c->user_s);
	sim_metric(s, "system_s", c->sys_s);
	sim_metric(s, "tests", (double)c->tests);
	sim_metric(s, "oom_kills", (double)c->ooms);
	mm_dcache_metrics(c->dc, s);
	sim_metric(s, "sleeps", (double)c->nvcsw);
	sim_metric(s, "context_switches", (double)c->nivcsw);
	if (c->wake_preempt)
		sim_metric(s, "preempt_wakeups", (double)c->w.sched.preempt_wakeups);
	wl_smp_metrics(&c->w, s, c->complete ? c->t_end : simgrid_get_clock());
	/* per test: calls, and per call the user's own lru_lock acquisitions, hold
	 * time and system time */
	for (int ti = 0; ti < c->wf.ntests; ti++) {
		const struct ru_test_stats *ts = &c->ts[ti];
		if (!ts->calls)
			continue;
		char key[96];
		const char *tn = c->wf.tests[ti].name;
		double n = (double)ts->calls;
		snprintf(key, sizeof key, "test.%s.calls", tn);
		sim_metric(s, key, n);
		snprintf(key, sizeof key, "test.%s.lru_lock_per_call", tn);
		sim_metric(s, key, (double)ts->lru_acq / n);
		snprintf(key, sizeof key, "test.%s.lru_hold_us_per_call", tn);
		sim_metric(s, key, ts->lru_hold_s / n * 1e6);
		snprintf(key, sizeof key, "test.%s.system_ms_per_call", tn);
		sim_metric(s, key, ts->sys_s / n * 1e3);
	}
	mm_proc_metrics(k, s);
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
}

static void ru_fini(void *cfgp)
{
	struct ru_cfg *c = cfgp;
	for (int i = 0; i < c->nall; i++) {
		sched_task_destroy(c->all_st[i]);
		free(c->all_st[i]);
	}
	if (c->done)
		sg_sem_destroy(c->done);
	c->done = NULL;
	if (c->go)
		sg_sem_destroy(c->go);
	c->go = NULL;
	wl_smp_fini(&c->w);
	free(c->all_st);
	c->all_st = NULL;
	c->nall = 0;
	for (int i = 0; c->user && i < ru_max_users(c); i++)
		free(c->user[i].job);
	free(c->user);
	c->user = NULL;
	free(c->mix);
	c->mix = NULL;
	free(c->ts);
	c->ts = NULL;
	workfile_free(&c->wf);
}

const struct workload_ops workload_reaim = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "reaim",
	.desc = "seed 001: re-aim 7 users running a workfile's tests as processes; max jobs/minute",
	.params = ru_params,
	.cfg_size = sizeof(struct ru_cfg),
	.primary = "max_jpm",
	.unit = "jobs/min",
	.higher_is_better = 1,
	.kernel = 1,
	.check = ru_check,
	.start = ru_start,
	.finish = ru_finish,
	.fini = ru_fini,
};
