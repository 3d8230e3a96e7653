/*
 * untar.c - the `untar` workload of seed 003: `tar xjf` of a kernel tarball, the
 * extract whose time Mel Gorman reports beside the build (14-15 s for
 * linux-2.6.16 on the 4-way 1.5 GB box).
 *
 * Two processes joined by a pipe (2.6.16 fs/pipe.c: 16 pipe buffers of a page,
 * models/fs/pipe.h), each on a CPU of its own as on the 4-way box:
 *   bzip2 -d  reads the tarball through the page cache (cold: disk reads with
 *             readahead, mm_file_read), spends `bunzip2_cycles` of user CPU per
 *             byte it writes, and writes the tar stream into the pipe in
 *             4 KiB write(2) calls;
 *   tar       reads the pipe in 10 KiB records (tar's default blocking factor
 *             20 x 512), and for each file of the tree that starts in a record:
 *             open(O_CREAT) (path walk of `depth` components, ext2 model:
 *             models/fs/ext2.c; the directory page searched and its entry
 *             added; a new inode; a dentry and an inode in the kernel's
 *             dentry and inode caches, models/fs/dcache.h, __GFP_KERNRCLM:
 *             the tree stays cached, its new inodes dirty, and what a later
 *             step's reclaim prunes goes), then writes the record's
 *             data into the page cache (generic_file_write of new pages:
 *             mm_file_extend, pages from the kernel's allocator module, blocks
 *             allocated by the ext2 model) and closes the file.
 * Dirty data is written back by pdflush (vm.dirty_writeback) and by tar itself
 * when balance_dirty_pages throttles it.  `elapsed` is tar's exit, as `time tar
 * xjf` measures it (dirty pages may still be in memory).
 *
 * The tree is `tree_files` files totalling `tree_size` bytes in `tree_dirs`
 * directories (file i in directory i x dirs / files), stored as one page-cache
 * file (MM_MAX_FILES is small) and the directories as another.
 * Costs: bunzip2_cycles (calibration), the machine's syscall and copy costs, the
 * ext2 model's cycles (the dbench calibration) and what models/mm charges; the
 * same for every kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/core/sim.h"
#include "models/fs/ext2.h"
#include "models/mm/kernel.h"
#include "models/fs/dcache.h"
#include "models/fs/pipe.h"
#include "workloads/workload.h"

#define MIB (UINT64_C(1) << 20)
#define RECORD 10240u              /* tar's record: blocking factor 20 x 512 */
#define PIPE_BYTES (16u * 4096u)   /* PIPE_BUFFERS pages (2.6.11+) */

struct ut_cfg {
	uint64_t tarball_size;
	uint64_t tree_size;
	int64_t tree_files;
	int64_t tree_dirs;
	int64_t depth;
	double bunzip2_cycles;
	struct ext2_costs fsc;
	bool check;
	/* run-time state */
	struct mm_kernel *k;        /* the booted kernel (mm_kernel_boot): a chain's steps share it */
	bool fs_up, pipe_up;
	struct ext2_fs fs;
	struct mm_task bz, tar;
	struct mm_dcache *dc;       /* the kernel's dentries and inodes (dcache.c) */
	uint32_t dir;               /* the directory being filled, its dcache id */
	struct mm_dcache dc0;       /* the caches' counters when the run started
				     * (a chain's earlier steps share them) */
	struct mm_file *tarball, *tree, *dirs;
	struct mm_pipe pipe;
	struct mm_read_stats rst;
	uint64_t files_made, dirs_made, bytes_out;
	uint64_t ooms;
	double t0, t_end;
	bool done;
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

static const struct mm_param ut_params[] = {
	MM_PARAM(struct ut_cfg, tarball_size, "tarball_size", MM_P_SIZE, 4096, 1ull << 34, "\"40MiB\"",
		 "bytes of the compressed tarball (linux-2.6.16.tar.bz2: about 40 MB)"),
	MM_PARAM(struct ut_cfg, tree_size, "tree_size", MM_P_SIZE, MIB, 1ull << 34, "\"230MiB\"",
		 "bytes of the unpacked tree (2.6.16: about 230 MB, as highalloc)"),
	MM_PARAM(struct ut_cfg, tree_files, "tree_files", MM_P_INT, 1, 1000000, "19000",
		 "files of the tree: one dentry and one inode each (2.6.16: about 19,000, as highalloc)"),
	MM_PARAM(struct ut_cfg, tree_dirs, "tree_dirs", MM_P_INT, 1, 100000, "1200",
		 "directories of the tree, one directory page each (2.6.16: about 1,200)"),
	MM_PARAM(struct ut_cfg, depth, "depth", MM_P_INT, 1, 64, "4",
		 "path components tar's open(O_CREAT) walks (linux-2.6.16/dir/subdir/file)"),
	MM_PARAM(struct ut_cfg, bunzip2_cycles, "bunzip2_cycles", MM_P_DOUBLE, 0, 1e6, "77",
		 "user-mode cycles bzip2 -d spends per byte of output (calibration: the clean kernel's published 14 s at the assumed 1.6 GHz with the modelled reads and file-system work, i.e. about 21 MB/s of output; the same for every kernel)"),
	EXT2_COST_PARAMS(struct ut_cfg, fsc),
	EXT2_BLOCK_PARAM(struct ut_cfg, fsc),
	MM_PARAM(struct ut_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker at the end (tests)"),
	MM_PARAM_END
};

static uint64_t mib_round(uint64_t b)
{
	return (b + MIB - 1) & ~(MIB - 1);
}

static int ut_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct ut_cfg *c = cfgp;
	char sub[256];
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the untar workload needs a disk");
	if (m->cpus < 2)
		return mm_errf(e, file, "machine.cpus", "the untar workload needs 2 CPUs (bzip2 and tar)");
	uint64_t need = MIB + mib_round(c->tarball_size) + mib_round(c->tree_size) +
			mib_round((uint64_t)c->tree_dirs * 4096);
	if (need > m->disks[0].size)
		return mm_errf(e, file, "machine.disks[0].size",
			       "expected room for the tarball and the tree (%llu bytes)", (unsigned long long)need);
	if ((uint64_t)c->tree_files > c->tree_size / 512) {
		snprintf(sub, sizeof sub, "%s.tree_files", path);
		return mm_errf(e, file, sub, "more files than 512-byte blocks of tree_size");
	}
	return 0;
}

/* bzip2 -d: read the tarball a MiB at a time, decompress, write into the pipe. */
static void bz_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ut_cfg *c = t->wl;
	uint64_t chunks = (c->tree_size + MIB - 1) / MIB;
	for (uint64_t i = 0; i < chunks; i++) {
		uint64_t out = c->tree_size - i * MIB < MIB ? c->tree_size - i * MIB : MIB;
		uint64_t in0 = c->tarball_size * i / chunks, in1 = c->tarball_size * (i + 1) / chunks;
		if (in1 > in0)
			mm_file_read(c->k, t, c->tarball, in0, in1 - in0, &c->rst);
		mm_user(t, c->bunzip2_cycles * (double)out);
		mm_pipe_write(t, &c->pipe, out, 4096);
	}
	mm_pipe_close(t, &c->pipe);
	mm_sync(t);
}

/* tar's mkdir of directory @dir before its first file: a new inode, dentry and
 * entry in the parent (accounted as the directory's own page: the tree's
 * directories are created in order), and the directory's first block, a new
 * page-cache page (ext2_make_empty), never read from disk. */
static void make_dir(struct ut_cfg *c, struct mm_task *t, uint32_t dir)
{
	struct mm_kernel *k = c->k;
	mm_charge(t, k->costs->syscall);
	ext2_walk(k, t, &c->fs, (int)c->depth - 1);
	c->dir = MM_DENT_NONE;   /* a new file (dcache.c mm_dentry_use): its dentry
				  * goes on dentry_unused, where a later step's
				  * reclaim can prune it */
	if (mm_dentry_use(k, t, c->dc, &c->dir, MM_DENT_NONE))
		c->ooms++;
	ext2_inode_new(k, t, &c->fs);
	mm_file_extend(k, t, c->dirs, (uint64_t)dir * 4096, 4096, &c->rst);
	ext2_blocks_alloc(k, t, &c->fs, 1);
	c->dirs_made++;
}

/* tar: one open/create + close for each file starting in [@pos, @pos + @n). */
static void create_files(struct ut_cfg *c, struct mm_task *t, uint64_t pos, uint64_t n)
{
	struct mm_kernel *k = c->k;
	uint64_t upto = (uint64_t)c->tree_files * (pos + n) / c->tree_size;
	for (; c->files_made < upto && c->files_made < (uint64_t)c->tree_files; c->files_made++) {
		uint32_t dir = (uint32_t)(c->files_made * (uint64_t)c->tree_dirs / (uint64_t)c->tree_files);
		if (c->files_made == 0 ||
		    dir != (uint32_t)((c->files_made - 1) * (uint64_t)c->tree_dirs / (uint64_t)c->tree_files))
			make_dir(c, t, dir);
		mm_charge(t, 2 * k->costs->syscall);                 /* open, close */
		ext2_walk(k, t, &c->fs, (int)c->depth);
		uint32_t id = MM_DENT_NONE;
		if (mm_dentry_use(k, t, c->dc, &id, c->dir))
			c->ooms++;
		ext2_inode_new(k, t, &c->fs);
		ext2_dir_change(k, t, &c->fs, c->dirs, dir, &c->rst);  /* ext2_add_link */
	}
}

static void tar_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ut_cfg *c = t->wl;
	struct mm_kernel *k = c->k;
	uint32_t n;
	while ((n = mm_pipe_read(t, &c->pipe, RECORD)) > 0) {
		uint64_t pos = c->bytes_out;
		create_files(c, t, pos, n);
		mm_charge(t, k->costs->syscall);                      /* write(2) */
		mm_file_extend(k, t, c->tree, pos, n, &c->rst);
		ext2_blocks_alloc(k, t, &c->fs, (pos + n + 4095) / 4096 - (pos + 4095) / 4096);
		c->bytes_out += n;
	}
	mm_sync(t);
	c->t_end = simgrid_get_clock();
	c->done = true;
	if (c->check) {
		struct mm_err e = { "" };
		c->check_failed = mm_kernel_check(k, &e);
		if (!c->check_failed && (c->bytes_out != c->tree_size || c->files_made != (uint64_t)c->tree_files)) {
			c->check_failed = 1;
			snprintf(e.msg, sizeof e.msg, "untar: %llu of %llu bytes, %llu of %lld files",
				 (unsigned long long)c->bytes_out, (unsigned long long)c->tree_size,
				 (unsigned long long)c->files_made, (long long)c->tree_files);
		}
		if (c->check_failed)
			snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
	}
}

static void spawn(struct ut_cfg *c, struct mm_task *t, int cpu, const char *name, void (*fn)(int, char **))
{
	char host[16];
	snprintf(host, sizeof host, "cpu%d", cpu);
	mm_task_init(t, c->k, cpu, name);
	t->wl = c;
	sg_actor_t a = sg_actor_init(name, sg_host_by_name(host));
	sg_actor_set_data(a, t);
	sg_actor_start(a, fn, 0, NULL);
}

static int ut_start(struct sim *s, struct mm_err *e)
{
	struct ut_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->k;
	if (!(k = c->k = mm_kernel_boot(s, e)))
		return -1;
	if (k->phys.page_size != 4096)
		return mm_errf(e, s->file, "machine.page_size", "the untar workload expects 4 KiB pages");
	ext2_init(&c->fs, &c->fsc);
	c->fs_up = true;
	/* i386 2.6.16: 136-byte dentries, ext3 inodes of about 560 bytes (as highalloc) */
	char why[MM_ERR_MAX];
	if (!(c->dc = mm_dcache_of(k, &mm_dgeom_ext3_26, why, sizeof why)))
		return mm_errf(e, s->file, "workload", "%s", why);
	c->dir = MM_DENT_NONE;
	c->dc0 = *c->dc;
	uint64_t off = MIB;
	c->tarball = mm_file_create(k, "tarball", c->tarball_size, 0, off);
	off += mib_round(c->tarball_size);
	c->tree = mm_file_create(k, "tree", c->tree_size, 0, off);
	off += mib_round(c->tree_size);
	c->dirs = mm_file_create(k, "dirs", (uint64_t)c->tree_dirs * 4096, 0, off);
	if (!c->tarball || !c->tree || !c->dirs)
		return mm_errf(e, s->file, "workload", "out of memory for the page cache");
	mm_pipe_init(&c->pipe, PIPE_BYTES);
	c->pipe_up = true;
	/* CPUs of their own where there are: pdflush is on CPU 0, kswapd on the last */
	int ncpu = (int)s->machine->cpus;
	spawn(c, &c->bz, ncpu >= 4 ? 1 : 0, "bzip2", bz_main);
	spawn(c, &c->tar, ncpu >= 4 ? 2 : 1, "tar", tar_main);
	c->t0 = simgrid_get_clock();
	return 0;
}

static void ut_finish(struct sim *s)
{
	struct ut_cfg *c = s->wl_cfg;
	double el = (c->done ? c->t_end : simgrid_get_clock()) - c->t0;
	s->primary = el;
	sim_metric(s, "extract_s", el);
	sim_metric(s, "complete", c->done ? 1 : 0);
	sim_metric(s, "files", (double)c->files_made);
	sim_metric(s, "dirs", (double)c->dirs_made);
	sim_metric(s, "bytes", (double)c->bytes_out);
	sim_metric(s, "bzip2_user_s", c->bz.user_cycles / c->k->clock);
	sim_metric(s, "bzip2_system_s", c->bz.tm.paid / c->k->clock);
	sim_metric(s, "tar_system_s", c->tar.tm.paid / c->k->clock);
	sim_metric(s, "tar_io_wait_s", c->tar.io_wait_s);
	sim_metric(s, "bzip2_io_wait_s", c->bz.io_wait_s);
	sim_metric(s, "pipe_reader_sleeps", (double)c->pipe.reader_sleeps);
	sim_metric(s, "pipe_writer_sleeps", (double)c->pipe.writer_sleeps);
	/* what the extract added to the kernel's caches (pruning may take some back) */
	const struct mm_dcache *d = c->dc, *d0 = &c->dc0;
	sim_metric(s, "dentries", (double)d->dentry.objs - (double)d0->dentry.objs);
	sim_metric(s, "inodes", (double)d->inode.objs - (double)d0->inode.objs);
	sim_metric(s, "slab_pages", (double)(d->dentry.slabs + d->inode.slabs) -
				    (double)(d0->dentry.slabs + d0->inode.slabs));
	sim_metric(s, "dentries_pruned", (double)(d->pruned_dentries - d0->pruned_dentries));
	sim_metric(s, "inodes_pruned", (double)(d->pruned_inodes - d0->pruned_inodes));
	sim_metric(s, "oom_kills", (double)c->ooms);
	ext2_metrics(&c->fs, s);
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
}

static void ut_fini(void *cfgp)
{
	struct ut_cfg *c = cfgp;
	if (c->pipe_up)
		mm_pipe_destroy(&c->pipe);
	c->pipe_up = false;
	if (c->fs_up)
		ext2_fini(&c->fs);
	c->fs_up = false;
}

const struct workload_ops workload_untar = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "untar",
	.desc = "seed 003: tar xjf of a kernel tarball (bzip2 -d | tar through a pipe, files created and written into the page cache); elapsed",
	.params = ut_params,
	.cfg_size = sizeof(struct ut_cfg),
	.primary = "extract_s",
	.unit = "s",
	.higher_is_better = 0,
	.kernel = 1,
	.chainable = 1,
	.check = ut_check,
	.start = ut_start,
	.finish = ut_finish,
	.fini = ut_fini,
};
