/*
 * dbench.c - the `dbench` workload of seed 002: N clients replay an NBench
 * loadfile (workloads/loadfile.c) against an ext2-like file system on the mm
 * core (models/fs/ext2.c for metadata, filemap.c for data), each client a process
 * on the SMP scheduler (workloads/smp.c) working in its own directory
 * (workloads.md, "dbench"; dbench 1.x's child.c and fileio.c).
 *
 * Modes: "1.x" (2002: each client replays the loadfile once; the run time is the
 * time until the last client finishes, throughput = clients x loadfile bytes / 1e6
 * / time, which is the program's 132 x N / t with the default 132 MB prefix) and
 * "4" (time-based: clients loop over the loadfile for `runtime`, bytes of ReadX
 * and WriteX completed after the warm-up, runtime / 5, are counted).
 *
 * File system.  Every path of the loadfile has a region in the client's part of
 * one page-cache file on disk 0: a directory one page (its directory block), a
 * file as many pages as the largest extent read or written through it (taken
 * over every path a Rename joins it with, so regions can be exchanged by
 * rename).  A client keeps, per path, whether it exists and which region it
 * names, and per region the file size.  Operations as the kernel pays them:
 * every call a system call (costs.syscall) and the client's own user-mode work
 * (op_cycles: dbench 1.x parses the line and calls libc; calibration); a path
 * argument a path walk (ext2_walk: dcache_lock per component); NTCreateX of a
 * new file a directory search and an entry added (kmap() of the directory page),
 * an inode; unlink and rename the same on both directories, the data truncated
 * (truncate_inode_pages); FIND_FIRST a directory search; ReadX mm_file_read
 * (file_read_actor: the kmap module's read path), WriteX mm_file_write or, past
 * the end of the file, mm_file_extend, with a block allocated per new page.
 * Dirty pages are written back, and the writer throttled, by the kernel's
 * writeback module (models/mm/writeback.c: balance_dirty_pages and pdflush,
 * enabled and parameterised by the kernel's vm knobs dirty_writeback,
 * dirty_ratio and dirty_background_ratio; seed 002 sets 2.5.25's 50 and 40).
 * Flush and the QUERY/SET_*_INFORMATION calls cost a system call (dbench
 * 1.x's fileio.c: Flush did nothing); LockX and UnlockX a system call and, with
 * vm.fs_locking "2.5.25", the big kernel lock (posix_lock_file), which 2.5.25
 * also took in FIND_FIRST's ext2_readdir and around an overwriting open's
 * truncation of the pages (models/fs/ext2.c, ext2_bkl_lock).
 *
 * Not modelled: the 30 s dirty expiry (a 1.x run of up to 35 s writes back
 * only above the thresholds), a shared /clients directory page (each client has
 * its own copy), the directory tree in the dcache (a dentry holds no parent).
 * The dentry cache: every path walk finds or makes the path's dentry in the
 * kernel's dentry and inode caches (models/fs/dcache.h; i386 2.4/2.5 sizes,
 * ext2_inode_cache): a name that does not exist leaves a negative dentry, a
 * create turns it positive with a new dirty inode, an unlink turns it
 * negative again, a rename moves it, a deltree frees the dentries below.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/sim.h"
#include "models/hw/disk.h"
#include "models/kmap/kmap.h"
#include "models/fs/dcache.h"
#include "models/fs/ext2.h"
#include "models/mm/kernel.h"
#include "models/mm/proc.h"
#include "models/sched/sched.h"
#include "workloads/loadfile.h"
#include "workloads/smp.h"
#include "workloads/workload.h"

enum { DB_MODE_1X, DB_MODE_4 };
static const char *const mode_names[] = { "1.x", "4", NULL };

struct db_client;

struct db_cfg {
	char loadfile[MM_PSTR];
	int mode;
	int64_t clients;
	uint64_t bytes;            /* loadfile prefix: ReadX + WriteX bytes */
	double runtime;            /* mode 4 */
	double op_cycles;
	double cs_cycles;
	uint64_t client_anon;
	struct ext2_costs fsc;
	bool check;
	/* parsed at check() */
	struct loadfile lf;
	bool lf_up;
	uint32_t *reg_off;         /* [npaths] page offset of each path's region */
	uint32_t *reg_pages;       /* [npaths] */
	int *comps;                /* [npaths] path components */
	uint32_t area;             /* pages per client */
	/* run */
	struct wl_smp w;
	struct ext2_fs fs;
	bool fs_up;
	struct mm_dcache *dc;      /* the kernel's dentries and inodes (dcache.c) */
	struct mm_file *f;
	struct db_client *cl;
	int ncl_init;
	struct mm_read_stats rst;
	double t0, t_end, warm_end;
	int running;
	uint64_t bytes_counted, ops_done, ooms;
	uint64_t dirty_peak, free_min;   /* pages, seen after each write */
	int check_failed;
};

struct db_client {
	struct mm_task task;       /* first: the actor's data is &task */
	struct sched_task st;
	struct sim *s;
	int idx;
	char name[24];
	uint8_t *exists;           /* [npaths] */
	uint32_t *dent;            /* [npaths] dcache id (MM_DENT_NONE: not cached) */
	int32_t *region;           /* [npaths] path -> region (a path index) */
	uint64_t *size;            /* [npaths] region -> file size */
	int32_t *handle;           /* [nhandles] -> region, -1 */
	uint64_t bytes, ops, passes;
	double finish;
	struct mm_as *as;
};

static const struct mm_param db_params[] = {
	MM_PARAM(struct db_cfg, loadfile, "loadfile", MM_P_STRING, 0, 0,
		 "\"/usr/share/dbench/client.txt\"",
		 "NBench loadfile (Debian's dbench package; workloads/dbench/client-small.txt ships with mmemu)"),
	MM_PARAM_ENUM(struct db_cfg, mode, "mode", mode_names, "\"1.x\"",
		      "1.x: each client replays the loadfile once (2002); 4: time-based with warm-up"),
	MM_PARAM(struct db_cfg, clients, "clients", MM_P_INT, 1, 1024, "1",
		 "client processes, each in its own directory"),
	MM_PARAM(struct db_cfg, bytes, "bytes", MM_P_SIZE, 0, 1e12, "\"132MB\"",
		 "replay the loadfile up to the line where ReadX+WriteX bytes reach this (1.x: 132 MB per client, workloads.md); 0 = all of it"),
	MM_PARAM(struct db_cfg, runtime, "runtime", MM_P_TIME, 1e-3, 1e5, "\"60s\"",
		 "mode 4: run time; bytes are counted after runtime/5 of warm-up"),
	MM_PARAM(struct db_cfg, op_cycles, "op_cycles", MM_P_DOUBLE, 0, 1e9, "20000",
		 "user-mode cycles of one loadfile operation in the client (calibration)"),
	MM_PARAM(struct db_cfg, cs_cycles, "cs_cycles", MM_P_DOUBLE, 0, 1e9, "1000",
		 "cost of a task-to-task context switch (docs/sched.md, calibration)"),
	MM_PARAM(struct db_cfg, client_anon, "client_anon", MM_P_SIZE, 0, 1ULL << 32, "0",
		 "anonymous memory each client process touches (its heap and buffers; 0 = no process model)"),
	EXT2_COST_PARAMS(struct db_cfg, fsc),
	EXT2_BLOCK_PARAM(struct db_cfg, fsc),
	MM_PARAM(struct db_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker at the end (tests)"),
	MM_PARAM_END
};

/* Union-find over renames: paths a Rename joins share one region size. */
static int32_t uf_find(int32_t *up, int32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

/* Free the parsed loadfile and the region tables (check() may run twice). */
static void free_loadfile(struct db_cfg *c)
{
	if (c->lf_up)
		loadfile_free(&c->lf);
	c->lf_up = false;
	free(c->reg_off);
	free(c->reg_pages);
	free(c->comps);
	c->reg_off = c->reg_pages = NULL;
	c->comps = NULL;
}

static int db_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct db_cfg *c = cfgp;
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the dbench workload needs a disk");
	free_loadfile(c);
	if (loadfile_load(&c->lf, c->loadfile, c->bytes, e)) {
		/* "LOADFILE: line N: ..." becomes "SCENARIO: workload.loadfile: LOADFILE: ..." */
		struct mm_err inner = *e;
		char sub[256];
		snprintf(sub, sizeof sub, "%s.loadfile", path ? path : "workload");
		return mm_errf(e, file, sub, "%s", inner.msg);
	}
	c->lf_up = true;
	const struct loadfile *lf = &c->lf;
	int32_t n = lf->npaths;
	int32_t *up = malloc((size_t)n * sizeof *up);
	uint64_t *ext = calloc((size_t)n, sizeof *ext);
	c->reg_off = malloc((size_t)n * sizeof *c->reg_off);
	c->reg_pages = malloc((size_t)n * sizeof *c->reg_pages);
	c->comps = malloc((size_t)n * sizeof *c->comps);
	if (!up || !ext || !c->reg_off || !c->reg_pages || !c->comps) {
		free(up);
		free(ext);
		return mm_errf(e, file, "workload.loadfile", "out of memory");
	}
	for (int32_t i = 0; i < n; i++)
		up[i] = i;
	for (uint32_t i = 0; i < lf->nops; i++)
		if (lf->ops[i].verb == LF_RENAME) {
			int32_t a = uf_find(up, lf->ops[i].path), b = uf_find(up, lf->ops[i].path2);
			if (a != b)
				up[a] = b;
		}
	for (int32_t i = 0; i < n; i++) {
		int32_t r = uf_find(up, i);
		if (lf->paths[i].extent > ext[r])
			ext[r] = lf->paths[i].extent;
	}
	uint64_t ps = 4096, area = 0;
	for (int32_t i = 0; i < n; i++) {
		uint64_t pages = lf->paths[i].dir ? 1 : (ext[uf_find(up, i)] + ps - 1) / ps;
		c->reg_off[i] = (uint32_t)area;
		c->reg_pages[i] = (uint32_t)pages;
		area += pages;
		int k = 0;
		for (const char *s = lf->paths[i].name; *s; s++)
			k += *s == '/';
		c->comps[i] = k;
	}
	free(up);
	free(ext);
	if (area == 0)
		area = 1;
	c->area = (uint32_t)area;
	uint64_t need = (1ULL << 20) + area * ps * (uint64_t)c->clients;
	if (area * (uint64_t)c->clients >= UINT32_MAX / 2 || need > m->disks[0].size)
		return mm_errf(e, file, "machine.disks[0].size",
			       "expected room for the clients' files (%llu bytes)", (unsigned long long)need);
	if (m->cpus > MACHINE_MAX_CPUS)
		return mm_errf(e, file, "machine.cpus", "too many CPUs");
	return 0;
}

/* ---- one client ---- */

static uint64_t page_base(const struct db_cfg *c, const struct db_client *cl, int32_t region)
{
	return ((uint64_t)cl->idx * c->area + c->reg_off[region]) * 4096;
}

/* The directory page of @path's parent, or -1 when it has none. */
/* Search the directory page of @path's parent: a lookup, or with @readdir
 * FIND_FIRST's ext2_readdir. */
static void dir_search_op(struct db_cfg *c, struct db_client *cl, int32_t path, bool readdir)
{
	int32_t par = c->lf.paths[path].parent;
	if (par < 0)
		return;
	struct mm_kernel *k = c->w.k;
	uint32_t idx = (uint32_t)(page_base(c, cl, cl->region[par]) / 4096);
	if (readdir)
		ext2_readdir(k, &cl->task, &c->fs, c->f, idx);
	else
		ext2_dir_search(k, &cl->task, &c->fs, c->f, idx);
}

static void dir_search(struct db_cfg *c, struct db_client *cl, int32_t path)
{
	dir_search_op(c, cl, path, false);
}

static void dir_change(struct db_cfg *c, struct db_client *cl, int32_t path)
{
	int32_t par = c->lf.paths[path].parent;
	if (par < 0)
		return;
	struct mm_kernel *k = c->w.k;
	uint32_t idx = (uint32_t)(page_base(c, cl, cl->region[par]) / 4096);
	ext2_dir_change(k, &cl->task, &c->fs, c->f, idx, &c->rst);
}

/* truncate_inode_pages of region @r's data.  Returns: the pages it held. */
static uint64_t drop_pages(struct db_cfg *c, struct db_client *cl, int32_t r)
{
	uint64_t pages = (cl->size[r] + 4095) / 4096;
	if (pages)
		mm_file_truncate(c->w.k, &cl->task, c->f, (uint32_t)(page_base(c, cl, r) / 4096),
				 (uint32_t)pages);
	return pages;
}

/* The @pages blocks of region @r freed after drop_pages(): the file is empty. */
static void drop_blocks(struct db_cfg *c, struct db_client *cl, int32_t r, uint64_t pages)
{
	if (pages)
		ext2_blocks_free(c->w.k, &cl->task, &c->fs, pages);
	cl->size[r] = 0;
}

/* Drop region @r's data (truncate_inode_pages + the blocks freed). */
static void drop_data(struct db_cfg *c, struct db_client *cl, int32_t r)
{
	drop_blocks(c, cl, r, drop_pages(c, cl, r));
}

/* The dcache side of a path walk to @p: a cached dentry is found (made again
 * if pruned); an uncached name is looked up on disk, which leaves a positive
 * dentry and inode (d_alloc, iget) for a file that exists and a negative
 * dentry for one that does not. */
static void dent_walk(struct db_cfg *c, struct db_client *cl, int32_t p)
{
	struct mm_kernel *k = c->w.k;
	uint32_t *id = &cl->dent[p];
	if (*id != MM_DENT_NONE && c->dc->e[*id].negative == !cl->exists[p]) {
		if (mm_dentry_lookup(k, &cl->task, c->dc, *id))
			c->ooms++;
		return;
	}
	mm_dentry_delete(k, &cl->task, c->dc, *id);
	*id = cl->exists[p] ? mm_dentry_new(k, &cl->task, c->dc, MM_DENT_NONE) :
			      mm_dentry_negative(k, &cl->task, c->dc, MM_DENT_NONE);
	if (*id == MM_DENT_NONE)
		c->ooms++;
}

/* @p was created (d_instantiate of its negative dentry: here the negative
 * entry goes and a positive one with a new, dirty inode comes) or unlinked
 * (d_delete: the inode goes, the dentry stays as a negative one). */
static void dent_set(struct db_cfg *c, struct db_client *cl, int32_t p, bool exists)
{
	struct mm_kernel *k = c->w.k;
	uint32_t *id = &cl->dent[p];
	mm_dentry_delete(k, &cl->task, c->dc, *id);
	*id = exists ? MM_DENT_NONE : mm_dentry_negative(k, &cl->task, c->dc, MM_DENT_NONE);
	if (exists ? mm_dentry_use(k, &cl->task, c->dc, id, MM_DENT_NONE) : *id == MM_DENT_NONE)
		c->ooms++;
}

static void new_object(struct db_cfg *c, struct db_client *cl, int32_t p, bool dir)
{
	struct mm_kernel *k = c->w.k;
	dir_search(c, cl, p);   /* the lookup that missed */
	dent_set(c, cl, p, true);
	dir_change(c, cl, p);   /* ext2_add_link */
	ext2_inode_new(k, &cl->task, &c->fs);
	cl->exists[p] = 1;
	int32_t r = cl->region[p];
	cl->size[r] = 0;
	if (dir && c->reg_pages[r]) {
		/* ext2_make_empty: the new directory's first block */
		mm_file_extend(k, &cl->task, c->f, page_base(c, cl, r), 4096, &c->rst);
		ext2_blocks_alloc(k, &cl->task, &c->fs, 1);
	}
}

static void write_data(struct db_cfg *c, struct db_client *cl, int32_t r, uint64_t off, uint64_t len)
{
	struct mm_kernel *k = c->w.k;
	uint64_t cap = (uint64_t)c->reg_pages[r] * 4096;
	if (off >= cap || len == 0)
		return;
	if (off + len > cap)
		len = cap - off;
	uint64_t base = page_base(c, cl, r);
	uint64_t old = cl->size[r];
	uint64_t old_pages = (old + 4095) / 4096;
	uint64_t in_end = old_pages * 4096;   /* pages that exist on disk */
	if (off < in_end) {
		uint64_t l = off + len < in_end ? len : in_end - off;
		mm_file_write(k, &cl->task, c->f, base + off, l, &c->rst);
	}
	if (off + len > in_end) {
		uint64_t s = off > in_end ? off : in_end;
		mm_file_extend(k, &cl->task, c->f, base + s, off + len - s, &c->rst);
	}
	uint64_t new_pages = (off + len + 4095) / 4096;
	if (new_pages > old_pages)
		ext2_blocks_alloc(k, &cl->task, &c->fs, new_pages - old_pages);
	if (off + len > old)
		cl->size[r] = off + len;
	/* how close the run comes to the dirty thresholds and to reclaim (the
	 * throttling itself is the writeback module's, called by the write) */
	if (k->nr_dirty + k->nr_writeback > c->dirty_peak)
		c->dirty_peak = k->nr_dirty + k->nr_writeback;
	uint64_t fr = mm_phys_free_pages(&k->phys);
	if (fr < c->free_min)
		c->free_min = fr;
}

static uint64_t read_data(struct db_cfg *c, struct db_client *cl, int32_t r, uint64_t off, uint64_t len)
{
	uint64_t sz = cl->size[r];
	if (off >= sz || len == 0)
		return 0;
	if (off + len > sz)
		len = sz - off;
	return mm_file_read(c->w.k, &cl->task, c->f, page_base(c, cl, r) + off, len, &c->rst);
}

static void do_op(struct db_cfg *c, struct db_client *cl, const struct lf_op *op)
{
	struct mm_kernel *k = c->w.k;
	struct mm_task *t = &cl->task;
	int32_t p = op->path, q = op->path2;
	int32_t h = op->handle;
	mm_user(t, c->op_cycles);
	if (op->verb != LF_READX && op->verb != LF_WRITEX)
		mm_charge(t, k->costs->syscall);   /* filemap.c charges its own */
	if (p >= 0) {
		ext2_walk(k, t, &c->fs, c->comps[p]);
		/* FIND_FIRST's pattern names no file: the walk ends at its directory */
		int32_t w = op->verb == LF_FINDFIRST ? c->lf.paths[p].parent : p;
		if (w >= 0)
			dent_walk(c, cl, w);
	}
	if (q >= 0) {
		ext2_walk(k, t, &c->fs, c->comps[q]);
		dent_walk(c, cl, q);
	}
	switch (op->verb) {
	case LF_NTCREATEX:
		if (!op->ok) {
			dir_search(c, cl, p);   /* a negative lookup */
			break;
		}
		if (!cl->exists[p]) {
			if (op->create || op->dir)
				new_object(c, cl, p, op->dir || c->lf.paths[p].dir);
			else {
				cl->exists[p] = 1;   /* opened as the loadfile says it exists */
				dent_walk(c, cl, p); /* (its dentry was negative) */
			}
		} else if ((op->disp == 4 || op->disp == 5) && !op->dir) {
			/* overwrite dispositions truncate an existing file: O_TRUNC's
			 * do_truncate -> inode_setattr took the big kernel lock around
			 * vmtruncate in 2.5.25; the blocks' free (lock_super, a
			 * semaphore whose sleep drops the BKL) is left outside it */
			ext2_bkl_lock(k, t, &c->fs);
			uint64_t pages = drop_pages(c, cl, cl->region[p]);
			ext2_bkl_unlock(k, t, &c->fs);
			drop_blocks(c, cl, cl->region[p], pages);
		}
		if (h >= 0)
			cl->handle[h] = cl->region[p];
		break;
	case LF_CLOSE:
		if (h >= 0)
			cl->handle[h] = -1;
		break;
	case LF_READX:
		if (h >= 0 && cl->handle[h] >= 0 && op->ok) {
			uint64_t got = read_data(c, cl, cl->handle[h], op->off, op->size);
			cl->bytes += got;
		} else {
			mm_charge(t, k->costs->syscall);
		}
		break;
	case LF_WRITEX:
		if (h >= 0 && cl->handle[h] >= 0 && op->ok) {
			write_data(c, cl, cl->handle[h], op->off, op->size);
			cl->bytes += op->size;
		} else {
			mm_charge(t, k->costs->syscall);
		}
		break;
	case LF_SFILEINFO:
		ext2_inode_op(k, t, &c->fs);
		break;
	case LF_FINDFIRST:
		dir_search_op(c, cl, p, true);   /* ext2_readdir: under the BKL in 2.5.25 */
		break;
	case LF_UNLINK:
		dir_search(c, cl, p);
		if (op->ok && cl->exists[p]) {
			dir_change(c, cl, p);
			drop_data(c, cl, cl->region[p]);
			ext2_inode_free(k, t, &c->fs);
			cl->exists[p] = 0;
			dent_set(c, cl, p, false);
		}
		break;
	case LF_RENAME:
		dir_search(c, cl, p);
		if (op->ok && cl->exists[p]) {
			dir_change(c, cl, q);   /* the new name */
			dir_change(c, cl, p);   /* the old one goes */
			if (cl->exists[q])
				drop_data(c, cl, cl->region[q]);   /* the target is replaced */
			int32_t r = cl->region[p];
			cl->region[p] = cl->region[q];
			cl->region[q] = r;
			cl->exists[q] = 1;
			cl->exists[p] = 0;
			/* d_move: the target's dentry goes, the source's takes its name */
			mm_dentry_delete(k, t, c->dc, cl->dent[q]);
			cl->dent[q] = cl->dent[p];
			cl->dent[p] = MM_DENT_NONE;
		}
		break;
	case LF_MKDIR:
		if (op->ok && !cl->exists[p])
			new_object(c, cl, p, true);
		break;
	case LF_RMDIR:
		if (op->ok && cl->exists[p]) {
			dir_change(c, cl, p);
			ext2_inode_free(k, t, &c->fs);
			cl->exists[p] = 0;
			dent_set(c, cl, p, false);
		}
		break;
	case LF_DELTREE:
		/* everything below @p goes: files' data, entries, inodes */
		for (int32_t i = 0; i < c->lf.npaths; i++) {
			if (!cl->exists[i] || i == p)
				continue;
			const char *a = c->lf.paths[i].name, *b = c->lf.paths[p].name;
			size_t lb = strlen(b);
			if (strncmp(a, b, lb) != 0 || a[lb] != '/')
				continue;
			dir_change(c, cl, i);
			drop_data(c, cl, cl->region[i]);
			ext2_inode_free(k, t, &c->fs);
			cl->exists[i] = 0;
			mm_dentry_delete(k, t, c->dc, cl->dent[i]);   /* rm -rf: its dentry goes */
			cl->dent[i] = MM_DENT_NONE;
		}
		break;
	case LF_LOCKX:
	case LF_UNLOCKX:
		/* fcntl(F_SETLK): posix_lock_file under the big kernel lock (2.4 to
		 * 2.6); its list work is not charged beyond the lock */
		ext2_bkl_lock(k, t, &c->fs);
		ext2_bkl_unlock(k, t, &c->fs);
		break;
	default:   /* Flush, QUERY_*: the system call alone */
		break;
	}
}

static void client_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct db_client *cl = t->wl;
	struct db_cfg *c = cl->s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	wl_smp_enter(&c->w, t);
	c->running++;
	if (c->client_anon) {
		uint32_t pages = (uint32_t)((c->client_anon + k->phys.page_size - 1) / k->phys.page_size);
		cl->as = mm_as_new(k, t);
		if (!cl->as || mm_brk(k, t, cl->as, pages) || mm_touch(k, t, cl->as, 0, pages, true) < 0)
			c->ooms++;
	}
	for (;;) {
		for (uint32_t i = 0; i < c->lf.nops; i++) {
			const struct lf_op *op = &c->lf.ops[i];
			uint64_t before = cl->bytes;
			do_op(c, cl, op);
			cl->ops++;
			if (c->mode == DB_MODE_4) {
				double now = tm_now(&t->tm);
				if (now >= c->t0 + c->runtime)
					goto done;
				if (now >= c->warm_end)
					c->bytes_counted += cl->bytes - before;
			}
		}
		cl->passes++;
		if (c->mode == DB_MODE_1X)
			break;
	}
done:
	if (cl->as)
		mm_as_exit(k, t, cl->as);
	mm_sync(t);
	cl->finish = simgrid_get_clock();
	c->ops_done += cl->ops;
	if (--c->running == 0)
		c->t_end = cl->finish;
	sched_exit(&c->w.sched, &cl->st);
}

static int db_start(struct sim *s, struct mm_err *e)
{
	struct db_cfg *c = s->wl_cfg;
	if (wl_smp_start(&c->w, s, c->cs_cycles, e))
		return -1;
	/* the clients look ahead (emu/core/timemodel.h): the scheduler keeps their
	 * wake times, so an uncontended lock or a charge that no other actor can see
	 * before it ends costs no SimGrid call (a full world leaves it off) */
	sched_join(&c->w.sched, &s->world);
	struct mm_kernel *k = c->w.k;
	if (k->phys.page_size != 4096)
		return mm_errf(e, s->file, "machine.page_size", "the dbench workload expects 4 KiB pages");
	ext2_init(&c->fs, &c->fsc);
	c->fs_up = true;
	char why[MM_ERR_MAX];
	if (!(c->dc = mm_dcache_of(k, &mm_dgeom_ext2_25, why, sizeof why)))
		return mm_errf(e, s->file, "workload", "%s", why);
	uint64_t size = (uint64_t)c->area * 4096 * (uint64_t)c->clients;
	c->f = mm_file_create(k, "dbench", size, 0, 1ULL << 20);
	if (!c->f)
		return mm_errf(e, s->file, "workload", "out of memory for the clients' files");
	c->cl = calloc((size_t)c->clients, sizeof *c->cl);
	if (!c->cl)
		return mm_errf(e, s->file, "workload", "out of memory");
	int32_t np = c->lf.npaths, nh = c->lf.nhandles;
	c->dirty_peak = 0;
	c->free_min = UINT64_MAX;
	c->t0 = simgrid_get_clock();
	c->warm_end = c->t0 + c->runtime / 5;
	for (int i = 0; i < c->clients; i++) {
		struct db_client *cl = &c->cl[i];
		cl->s = s;
		cl->idx = i;
		cl->exists = calloc((size_t)np, 1);
		cl->dent = malloc((size_t)(np ? np : 1) * sizeof *cl->dent);
		cl->region = malloc((size_t)np * sizeof *cl->region);
		cl->size = calloc((size_t)np, sizeof *cl->size);
		cl->handle = malloc((size_t)(nh ? nh : 1) * sizeof *cl->handle);
		if (!cl->exists || !cl->dent || !cl->region || !cl->size || !cl->handle)
			return mm_errf(e, s->file, "workload", "out of memory");
		for (int32_t j = 0; j < np; j++) {
			cl->region[j] = j;
			cl->dent[j] = MM_DENT_NONE;
		}
		for (int32_t j = 0; j < nh; j++)
			cl->handle[j] = -1;
		snprintf(cl->name, sizeof cl->name, "client%d", i + 1);
		c->ncl_init++;
		wl_smp_spawn(&c->w, NULL, &cl->task, &cl->st, cl->name, cl, client_main);
	}
	return 0;
}

static void db_finish(struct sim *s)
{
	struct db_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	bool complete = c->running == 0 && c->ncl_init == c->clients;
	double end = complete ? c->t_end : simgrid_get_clock();
	double elapsed = end - c->t0;
	uint64_t bytes = 0;
	double user = 0, sys = 0, spin = 0, pays = 0, deferred = 0;
	for (int i = 0; i < c->ncl_init; i++) {
		pays += (double)c->cl[i].task.tm.executes;
		deferred += (double)c->cl[i].task.tm.deferred;
		bytes += c->cl[i].bytes;
		user += c->cl[i].task.user_cycles / k->clock;
		sys += c->cl[i].task.tm.paid / k->clock;
		spin += c->cl[i].task.spin_s;
	}
	double lf_bytes = (double)(c->lf.read_bytes + c->lf.write_bytes);
	double tput;
	if (c->mode == DB_MODE_1X) {
		/* dbench 1.x: nominal bytes per client / time (132 x N / t) */
		tput = elapsed > 0 ? (double)c->clients * lf_bytes / 1e6 / elapsed : 0;
		/* the run time of a whole 132 MB pass, for a shortened loadfile */
		sim_metric(s, "run_time_132", lf_bytes > 0 ? elapsed * 132e6 / lf_bytes : 0);
	} else {
		double counted = c->runtime - c->runtime / 5;
		tput = counted > 0 ? (double)c->bytes_counted / 1e6 / counted : 0;
	}
	s->primary = tput;
	sim_metric(s, "throughput", tput);
	sim_metric(s, "elapsed", elapsed);
	sim_metric(s, "complete", complete ? 1 : 0);
	sim_metric(s, "clients", (double)c->clients);
	sim_metric(s, "bytes", (double)bytes);
	sim_metric(s, "loadfile_ops", (double)c->lf.nops);
	sim_metric(s, "ops", (double)c->ops_done);
	sim_metric(s, "user_s", user);
	sim_metric(s, "system_s", sys + spin);
	sim_metric(s, "spin_s", spin);
	/* the engine's cost (deterministic): the clients' payments of pending
	 * cycles (each a SimGrid call) and the observation points they passed
	 * without one (lookahead) */
	sim_metric(s, "tm_payments", pays);
	sim_metric(s, "tm_deferred", deferred);
	/* balance_dirty_pages() passes in which a writer wrote back (writeback.c) */
	sim_metric(s, "throttles", (double)k->wb_throttled);
	sim_metric(s, "wb_requests", (double)k->wb_requests);
	/* the most dirty + writeback pages and the fewest free pages seen after a
	 * write, as fractions of memory: the writer is throttled above vm
	 * dirty_ratio percent of the page-cache memory, reclaim starts near the
	 * zones' low watermarks */
	double np = (double)k->phys.nr_pages;
	sim_metric(s, "dirty_peak_frac", np > 0 ? (double)c->dirty_peak / np : 0);
	sim_metric(s, "free_min_frac",
		   np > 0 && c->free_min != UINT64_MAX ? (double)c->free_min / np : 1);
	sim_metric(s, "oom_kills", (double)c->ooms);
	mm_dcache_metrics(c->dc, s);
	sim_metric(s, "page_cache_hit_ratio",
		   c->rst.pages ? (double)c->rst.hits / (double)c->rst.pages : 0);
	sim_metric(s, "swap_outs", (double)s->vs->ev[MM_PSWPOUT]);
	/* the front-side buses (machine.bus, models/hw/membus.c) */
	sim_metric(s, "bus_stall_s", k->bus_stall_s);
	double busy = 0;
	for (int i = 0; i < MM_MAX_CPUS; i++)
		busy += k->bus_busy_s[i];
	sim_metric(s, "bus_busy_s", busy);
	sim_metric(s, "bus_line_bytes", (double)k->bus_line_bytes);   /* shared lines in it */
	/* each bus's share, when there are several (how evenly the clients sit) */
	int64_t per = s->machine->costs.cpus_per_bus;
	int nbus = per > 0 ? (int)((s->machine->cpus + per - 1) / per) : 1;
	for (int i = 0; nbus > 1 && i < nbus && i < MM_MAX_CPUS; i++) {
		char key[32];
		snprintf(key, sizeof key, "bus%d_busy_s", i);
		sim_metric(s, key, k->bus_busy_s[i]);
	}
	if (c->check) {
		struct mm_err e = { "" };
		c->check_failed = mm_kernel_check(k, &e) || mm_proc_check(k, &e);
		sim_invariants(s, c->check_failed ? e.msg : NULL);
	}
	if (c->fs_up)
		ext2_metrics(&c->fs, s);
	kmap_finish(k->kmap, s);
	wl_smp_metrics(&c->w, s, end);
}

static void db_fini(void *cfgp)
{
	struct db_cfg *c = cfgp;
	for (int i = 0; i < c->ncl_init; i++)
		sched_task_destroy(&c->cl[i].st);
	if (c->cl)
		for (int i = 0; i < c->clients; i++) {
			free(c->cl[i].exists);
			free(c->cl[i].dent);
			free(c->cl[i].region);
			free(c->cl[i].size);
			free(c->cl[i].handle);
		}
	free(c->cl);
	c->cl = NULL;
	c->ncl_init = 0;
	if (c->fs_up)
		ext2_fini(&c->fs);
	c->fs_up = false;
	wl_smp_fini(&c->w);
	free_loadfile(c);
}

const struct workload_ops workload_dbench = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "dbench",
	.desc = "seed 002: N clients replay an NBench loadfile on an ext2-like fs (1.x: once each; 4: time-based); MB/s",
	.params = db_params,
	.cfg_size = sizeof(struct db_cfg),
	.primary = "throughput",
	.unit = "MB/s",
	.higher_is_better = 1,
	.kernel = 1,
	.check = db_check,
	.start = db_start,
	.finish = db_finish,
	.fini = db_fini,
};
