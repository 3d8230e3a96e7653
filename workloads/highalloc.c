/*
 * highalloc.c - the `highalloc` workload of seed 003: Mel Gorman's vmregress
 * bench-stresshighalloc.sh (driven by bench-hugepagecapability.sh, SEQ=6,
 * HIGHALLOC_COUNT=275; docs/workloads.md "HighAlloc stress").
 *
 * Procedure.  Build 0 extracts a kernel tree (writes it: page cache, one dentry
 * and inode per file and per directory, `tree_dirs` directories under the
 * tree's top one); builds 1..6 `cp -r` it (read tree 0, write their own).
 * Each then runs `make -j1`: a make process for the whole build and one compile
 * job after another.  A job is a process (kernel stack, page tables, task and
 * vm_area_struct slab objects, a heap of anonymous pages) that looks up system
 * headers (/usr/include, gcc: their dentries and inodes are created on first use
 * and stay), reads its C file and the tree's headers through the page cache,
 * computes, writes its object file, creates a temporary file (deleted at once) and
 * the .o and .cmd files (dentry + inode kept until `rm -rf`), then exits.  When
 * every copy is done the test waits `settle` (5 minutes), then pass 1: `attempts`
 * order-`order` allocations of class HighMem (GFP_HIGHUSER | __GFP_EASYRCLM, so
 * mbuddy files it as easily reclaimable and zbuddy sends it to ZONE_EASYRCLM)
 * `interval` apart, each success kept until the pass ends; pass 2 `pass_gap`
 * later; `kill_after` later the builds are killed and their trees removed (page
 * cache truncated, tree dentries and inodes freed); a MemTotal-sized file is
 * written and read back and deleted, the page cache is dropped; then the at-rest
 * pass.  Every allocation goes through mm_pages_alloc(): watermarks, kswapd woken
 * with the order, one round of direct reclaim, no OOM kill.
 *
 * What is recorded: per pass attempts, successes and their zones (metrics), per
 * attempt the cumulative successes and the time the attempt took (series), and
 * every `sample` seconds the free order->=order blocks, the unusable-free index
 * and the fragmentation index of each zone; /proc/buddyinfo when pass 1 starts
 * and when the at-rest pass starts; when each pass starts, the census of every
 * zone's order-`order` blocks (models/mm/census.c: what pins each block).
 *
 * Kernel objects: models/mm/kobj.c (slab pages of a type, kernel stacks,
 * page-table pages), models/fs/dcache.c (every file's dentry and inode, on the
 * unused lists that shrink_slab prunes under pressure; a pruned file looked up
 * again is made again), models/fs/bufhead.c (the page cache's buffer heads and
 * radix-tree nodes, living as long as their pages), and the block device's
 * metadata pages (ext3 inode tables and directory blocks, below).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "emu/core/sim.h"
#include "models/mm/census.h"
#include "models/mm/fmap.h"
#include "models/mm/kernel.h"
#include "models/fs/bufhead.h"
#include "models/fs/dcache.h"
#include "models/fs/jbd.h"
#include "models/mm/kobj.h"
#include "models/mm/proc.h"
#include "models/mm/vmscan.h"
#include "models/sched/sched.h"
#include "workloads/smp.h"
#include "workloads/workload.h"

#define HA_MAX_BUILDS 12
#define HA_PASSES 3
#define MIB (UINT64_C(1) << 20)

/* The caches a fork, an exec and an open allocate from, beside task_struct
 * and vm_area_struct, with their objects per slab page on i386: /proc/slabinfo
 * of a 4-way PIII with 4 GB running dbench on 2.6.11-rc2 (Andrew Tridgell,
 * linux-kernel, 2005-01-25, "memory leak in 2.6.11-rc2"; the same box class
 * and era as the seed's 2.6.16): files_cache 416 bytes (9 a page), fs_cache 64
 * (61), sighand_cache 1,312 (3), signal_cache 256 (15), mm_struct 608 (6),
 * anon_vma 12 (290), filp 160 (25), names_cache 4,096 (1).  None is
 * __GFP_KERNRCLM (the series types only the shrinkable dentry and inode
 * caches so).  An exec also kmallocs, and frees before it returns (2.6.16
 * fs/exec.c do_execve, fs/binfmt_elf.c load_elf_binary): the linux_binprm
 * (about 320 bytes: size-512), the binary's and the interpreter's program
 * headers (8 and 5 of 32 bytes: size-256 each) and the interpreter's name
 * (size-32); objects per page from 2.6.16 mm/slab.c cache_estimate (the slab
 * descriptor and its bufctls on the page below 512 bytes, off the page from
 * 512): size-32 113, size-256 15, size-512 8. */
enum { HA_OC_FILES, HA_OC_FS, HA_OC_SIGHAND, HA_OC_SIGNAL, HA_OC_MM, HA_OC_ANON_VMA, HA_OC_FILP,
       HA_OC_NAMES, HA_OC_K32, HA_OC_K256, HA_OC_K512, HA_NOC };
static const struct {
	const char *name;
	uint32_t per_slab;
} ha_oc[HA_NOC] = {
	{ "files_cache", 9 }, { "fs_cache", 61 },     { "sighand_cache", 3 }, { "signal_cache", 15 },
	{ "mm_struct", 6 },   { "anon_vma", 290 },    { "filp", 25 },         { "names_cache", 1 },
	{ "size-32", 113 },   { "size-256", 15 },     { "size-512", 8 },
};

/* The programs whose text a compile maps: cc1 and as (gcc -pipe runs them
 * side by side), each with ld.so and libc, one page-cache file per binary
 * (mm_fmap_create maps a file from its start). */
enum { HA_BIN_CC1, HA_BIN_AS, HA_BIN_LIBS, HA_NBIN };
static const char *const bin_names[HA_NBIN] = { "cc1", "as", "libc" };

static const char *const pass_names[HA_PASSES] = { "pass1", "pass2", "rest" };

struct ha_build {
	struct mm_task task;       /* first: the actor's data is &task */
	struct sched_task st;
	struct sim *s;
	int idx;
	char name[16];
	struct mm_file *tree;
	uint32_t *ent;             /* tree files, then .o/.cmd files (dcache ids) */
	uint32_t *dir, root;       /* the tree's directories and its top directory */
	uint32_t *neg;             /* negative dentries of include/ (dcache ids) */
	uint32_t nobj, capobj;
	uint64_t jobs;
	bool copied, done;
};

struct ha_cfg {
	int64_t builds;
	uint64_t tree_size;
	int64_t tree_files;
	int64_t tree_dirs;
	uint64_t include_size;
	uint64_t src_size;
	int64_t headers_per_job;
	uint64_t header_size;
	uint64_t obj_size;
	int64_t obj_slots;
	double cc_cycles;
	uint64_t cc_heap;
	uint64_t make_heap;
	int64_t cc_text_pages, as_text, as_data, lib_text;
	int64_t vmas_per_proc;
	int64_t sys_files;
	int64_t sys_per_job;
	int64_t neg_per_tree;
	int64_t dentry_per_slab, inode_per_slab, vma_per_slab, task_per_slab;
	double settle;
	int64_t attempts;
	int64_t order;
	double interval;
	double pass_gap;
	double kill_after;
	uint64_t flush_size;
	double sample;
	double cs_cycles;
	bool check;
	bool journal;
	/* run-time state */
	struct wl_smp w;
	struct ha_build b[HA_MAX_BUILDS];
	int nb_init;
	struct ha_build tester;    /* the HighAlloc test itself (idx -1) */
	bool tester_init, reaper_init;
	bool dc_init;
	struct ha_build reaper;    /* events/0: cache_reap */
	uint64_t reaped;           /* slab pages cache_reap freed */
	uint64_t drained;          /* objects cache_reap took from the object arrays */
	struct mm_file *sys, *flush;
	struct mm_file *bin[HA_NBIN];   /* cc1, as, ld.so + libc in the page cache */
	struct mm_file *meta;      /* the block device's metadata pages (lowmem) */
	uint64_t meta_at[2];       /* its cached pages [load, rest] */
	uint64_t text_at[2];       /* the binaries' cached pages [load, rest] */
	uint64_t text_faults, text_major;   /* faults on the binaries' mappings */
	uint64_t exec_kmallocs;    /* exec's kmalloc objects (allocated and freed) */
	uint32_t *sys_ent;         /* dcache ids, MM_DENT_NONE until first looked up */
	struct mm_dcache *dc;      /* the kernel's dentries and inodes (dcache.c mm_dcache_of) */
	struct mm_dcache dc0;      /* its counters when this run started (a chain's
				    * earlier steps share the caches) */
	struct mm_kcache vma, taskc;
	struct mm_kcache oc[HA_NOC];   /* fork/exec and open's caches (ha_oc) */
	struct mm_jbd jbd;         /* ext3's journal over meta (jbd.c) */
	bool kill;
	int copies_done, builds_done;
	double t0, t_load, t_end;
	uint64_t success[HA_PASSES], zone_success[HA_PASSES][MM_NR_ZONES];
	double attempt_s[HA_PASSES];
	uint64_t slabs_at[2][3];   /* [load, rest][dentry+inode, process and file, bh+radix] */
	uint64_t ooms;
	struct mm_read_stats rst;
	int check_failed;
	char check_msg[MM_ERR_MAX];
};

static const struct mm_param ha_params[] = {
	MM_PARAM(struct ha_cfg, builds, "builds", MM_P_INT, 1, HA_MAX_BUILDS, "7",
		 "kernel trees built at once with make -j1 (vmregress: the tree + 6 copies)"),
	MM_PARAM(struct ha_cfg, tree_size, "tree_size", MM_P_SIZE, MIB, 1ull << 34, "\"230MiB\"",
		 "bytes of one kernel tree (2.6.16 unpacked: about 230 MB)"),
	MM_PARAM(struct ha_cfg, tree_files, "tree_files", MM_P_INT, 1, 1000000, "19000",
		 "files of one tree: one dentry and one inode each (2.6.16: about 19,000)"),
	MM_PARAM(struct ha_cfg, tree_dirs, "tree_dirs", MM_P_INT, 1, 100000, "1200",
		 "directories of one tree, each holding its share of the files (2.6.16: about "
		 "1,200, as untar): a directory's dentry lives while a child's does"),
	MM_PARAM(struct ha_cfg, include_size, "include_size", MM_P_SIZE, 4096, 1ull << 32,
		 "\"24MiB\"", "bytes of the tree's include/ read by the jobs (calibration)"),
	MM_PARAM(struct ha_cfg, src_size, "src_size", MM_P_SIZE, 1, 1 << 26, "\"16KiB\"",
		 "bytes of one C file (calibration)"),
	MM_PARAM(struct ha_cfg, headers_per_job, "headers_per_job", MM_P_INT, 0, 100000, "64",
		 "tree headers read by each compile (calibration)"),
	MM_PARAM(struct ha_cfg, header_size, "header_size", MM_P_SIZE, 1, 1 << 24, "\"8KiB\"",
		 "bytes of one header (calibration)"),
	MM_PARAM(struct ha_cfg, obj_size, "obj_size", MM_P_SIZE, 1, 1 << 26, "\"16KiB\"",
		 "bytes of one object file (calibration)"),
	MM_PARAM(struct ha_cfg, obj_slots, "obj_slots", MM_P_INT, 1, 100000, "1600",
		 "object files of a build (2.6.16 with a typical config: about 1,600); a longer "
		 "build rewrites them"),
	MM_PARAM(struct ha_cfg, cc_cycles, "cc_cycles", MM_P_DOUBLE, 0, 1e15, "6e8",
		 "user-mode CPU cycles of one compile (calibration)"),
	MM_PARAM(struct ha_cfg, cc_heap, "cc_heap", MM_P_SIZE, 0, 1 << 30, "\"4MiB\"",
		 "anonymous memory each compile dirties (calibration)"),
	MM_PARAM(struct ha_cfg, make_heap, "make_heap", MM_P_SIZE, 0, 1 << 30, "\"1MiB\"",
		 "make's own heap, kept for the whole build"),
	MM_PARAM(struct ha_cfg, cc_text_pages, "cc_text_pages", MM_P_INT, 0, 1 << 20, "0",
		 "text pages of cc1 a compile faults in from its binary in the page cache "
		 "(filemap_nopage: shared by every job that runs it); 0: cc1, as and the "
		 "libraries' text and as's process are not modelled"),
	MM_PARAM(struct ha_cfg, as_text, "as_text", MM_P_INT, 0, 1 << 20, "80",
		 "text pages of as a compile faults in (with cc_text_pages)"),
	MM_PARAM(struct ha_cfg, as_data, "as_data", MM_P_INT, 0, 1 << 20, "150",
		 "anonymous pages as dirties beside cc1 (with cc_text_pages)"),
	MM_PARAM(struct ha_cfg, lib_text, "lib_text", MM_P_INT, 0, 1 << 20, "55",
		 "text pages of ld.so and libc that cc1 and as each fault in (with cc_text_pages)"),
	MM_PARAM(struct ha_cfg, vmas_per_proc, "vmas_per_proc", MM_P_INT, 0, 1000, "24",
		 "vm_area_structs of a process (text, data, libraries, stack)"),
	MM_PARAM(struct ha_cfg, sys_files, "sys_files", MM_P_INT, 1, 1000000, "3000",
		 "system headers and compiler files the builds look up (their dentries and "
		 "inodes are created on first use and stay cached)"),
	MM_PARAM(struct ha_cfg, sys_per_job, "sys_per_job", MM_P_INT, 0, 100000, "40",
		 "system files one compile looks up"),
	MM_PARAM(struct ha_cfg, neg_per_tree, "neg_per_tree", MM_P_INT, 0, 10000, "0",
		 "names every compile's include search misses in the tree's include/ directory, "
		 "each a negative dentry made at the first miss (2.6.16 i386: the 21 headers of "
		 "include/asm-i386/mach-default, included with <>, are looked for in include/ "
		 "first, as -Iinclude precedes -Iinclude/asm-i386/mach-default); 0: none"),
	MM_PARAM(struct ha_cfg, dentry_per_slab, "dentry_per_slab", MM_P_INT, 1, 4096, "29",
		 "dentries per slab page (i386 2.6.16: 136-byte struct dentry)"),
	MM_PARAM(struct ha_cfg, inode_per_slab, "inode_per_slab", MM_P_INT, 1, 4096, "7",
		 "ext3 inodes per slab page (about 560 bytes each)"),
	MM_PARAM(struct ha_cfg, vma_per_slab, "vma_per_slab", MM_P_INT, 1, 4096, "44",
		 "vm_area_structs per slab page (88 bytes)"),
	MM_PARAM(struct ha_cfg, task_per_slab, "task_per_slab", MM_P_INT, 1, 4096, "3",
		 "task_structs per slab page (about 1.3 KB)"),
	MM_PARAM(struct ha_cfg, settle, "settle", MM_P_TIME, 0, 1e6, "\"300s\"",
		 "load time before pass 1 (vmregress: sleep 5 minutes)"),
	MM_PARAM(struct ha_cfg, attempts, "attempts", MM_P_INT, 1, 100000, "275",
		 "allocation attempts per pass (HIGHALLOC_COUNT)"),
	MM_PARAM(struct ha_cfg, order, "order", MM_P_INT, 1, MM_MAX_ORDER - 1, "10",
		 "order of each attempt (10: a 4 MB huge page on i386)"),
	MM_PARAM(struct ha_cfg, interval, "interval", MM_P_TIME, 0, 1e6, "\"100ms\"",
		 "time between attempts"),
	MM_PARAM(struct ha_cfg, pass_gap, "pass_gap", MM_P_TIME, 0, 1e6, "\"5s\"",
		 "time between pass 1 and pass 2"),
	MM_PARAM(struct ha_cfg, kill_after, "kill_after", MM_P_TIME, 0, 1e6, "\"30s\"",
		 "time after pass 2 when the builds are killed"),
	MM_PARAM(struct ha_cfg, flush_size, "flush_size", MM_P_SIZE, 0, 1ull << 40, "\"1536MiB\"",
		 "file written, read back and deleted before the at-rest pass (MemTotal); 0 = none"),
	MM_PARAM(struct ha_cfg, sample, "sample", MM_P_TIME, 1e-3, 1e6, "\"10s\"",
		 "interval of the fragmentation series"),
	MM_PARAM(struct ha_cfg, cs_cycles, "cs_cycles", MM_P_DOUBLE, 0, 1e9, "1000",
		 "cost of a context switch (docs/sched.md)"),
	MM_PARAM(struct ha_cfg, journal, "journal", MM_P_BOOL, 1, 0, "true",
		 "ext3's journal on the metadata: journal_heads pin changed blocks until "
		 "commit (5 s) and write-back (models/fs/jbd.c)"),
	MM_PARAM(struct ha_cfg, check, "check", MM_P_BOOL, 1, 0, "false",
		 "run the mm invariant checker after each pass (tests)"),
	MM_PARAM_END
};

static uint64_t mib_round(uint64_t b)
{
	return (b + MIB - 1) & ~(MIB - 1);
}

static uint64_t tree_bytes(const struct ha_cfg *c)
{
	return c->tree_size + (uint64_t)c->obj_slots * c->obj_size;
}

static uint64_t meta_bytes(const struct ha_cfg *c);

/* Pages of binary @i's file (0: not modelled). */
static uint64_t bin_pages(const struct ha_cfg *c, int i)
{
	if (c->cc_text_pages == 0)
		return 0;
	return (uint64_t)(i == HA_BIN_CC1 ? c->cc_text_pages : i == HA_BIN_AS ? c->as_text : c->lib_text);
}

static uint64_t bins_bytes(const struct ha_cfg *c)
{
	uint64_t b = 0;
	for (int i = 0; i < HA_NBIN; i++)
		b += mib_round(bin_pages(c, i) * 4096);
	return b;
}

static int ha_check(void *cfgp, const struct machine_cfg *m, const char *file, const char *path,
		    struct mm_err *e)
{
	struct ha_cfg *c = cfgp;
	char sub[256];
	uint64_t total = MIB + (uint64_t)c->builds * mib_round(tree_bytes(c)) +
			 mib_round((uint64_t)c->sys_files * c->header_size) + mib_round(c->flush_size) +
			 mib_round(meta_bytes(c)) + bins_bytes(c);
	if (m->ndisks < 1)
		return mm_errf(e, file, "machine.disks", "the highalloc workload needs a disk");
	if (total > m->disks[0].size)
		return mm_errf(e, file, "machine.disks[0].size",
			       "expected room for the trees and files (%llu bytes)",
			       (unsigned long long)total);
	if (c->include_size + c->src_size > c->tree_size) {
		snprintf(sub, sizeof sub, "%s.include_size", path);
		return mm_errf(e, file, sub, "expected include_size + src_size <= tree_size");
	}
	if (c->header_size > c->include_size) {
		snprintf(sub, sizeof sub, "%s.header_size", path);
		return mm_errf(e, file, sub, "expected at most include_size");
	}
	if (tree_bytes(c) / 4096 >= UINT32_MAX || c->flush_size / 4096 >= UINT32_MAX) {
		snprintf(sub, sizeof sub, "%s.tree_size", path);
		return mm_errf(e, file, sub, "file too large");
	}
	return 0;
}

static uint32_t pages_of(struct mm_kernel *k, uint64_t bytes)
{
	return (uint32_t)((bytes + k->phys.page_size - 1) / k->phys.page_size);
}

/* ---- processes: fork/exec and exit with their kernel objects ---- */

#define HA_KPROC_CACHES(c)                                                                    \
	{ &(c)->taskc, &(c)->vma, &(c)->oc[HA_OC_FILES], &(c)->oc[HA_OC_FS],                  \
	  &(c)->oc[HA_OC_SIGHAND], &(c)->oc[HA_OC_SIGNAL], &(c)->oc[HA_OC_MM],                \
	  &(c)->oc[HA_OC_ANON_VMA] }

/* A new process made by fork and exec: its objects, then exec's kmallocs,
 * freed before the exec returns (the per-CPU arrays keep them). */
static void proc_start(struct ha_cfg *c, struct mm_task *t, struct mm_kproc *p, uint64_t heap)
{
	const struct mm_kproc_caches kc = HA_KPROC_CACHES(c);
	if (mm_kproc_start(c->w.k, t, p, &kc, (uint32_t)c->vmas_per_proc, pages_of(c->w.k, heap), NULL))
		c->ooms++;
	static const int km[4] = { HA_OC_K512, HA_OC_K256, HA_OC_K32, HA_OC_K256 };   /* bprm, phdrs, interp */
	uint32_t obj[4];
	for (int i = 0; i < 4; i++)
		obj[i] = mm_kobj_alloc(c->w.k, t, &c->oc[km[i]]);
	c->exec_kmallocs += 4;
	for (int i = 3; i >= 0; i--)
		mm_kobj_free(c->w.k, t, &c->oc[km[i]], obj[i]);
}

static void proc_exit(struct ha_cfg *c, struct mm_task *t, struct mm_kproc *p)
{
	const struct mm_kproc_caches kc = HA_KPROC_CACHES(c);
	mm_kproc_exit(c->w.k, t, p, &kc);
}

/* exec's mmap of binary @i and its text faulted in through filemap_nopage
 * (page-cache hits once a first run has read it); nothing when the binaries
 * are not modelled. */
static void text_map(struct ha_cfg *c, struct mm_task *t, struct mm_fmap **m, int i)
{
	uint32_t n = (uint32_t)bin_pages(c, i);
	*m = NULL;
	if (!c->bin[i] || n == 0)
		return;
	*m = mm_fmap_create(c->w.k, t, c->bin[i], n, 0);
	int64_t faults = *m ? mm_fmap_touch(c->w.k, t, *m, 0, n, false) : -1;
	if (faults < 0)
		c->ooms++;
	else
		c->text_faults += (uint64_t)faults;
}

/* munmap at exit of a mapping text_map() made (NULL: none). */
static void text_unmap(struct ha_cfg *c, struct mm_task *t, struct mm_fmap *m)
{
	if (!m)
		return;
	c->text_major += m->majflt;
	mm_fmap_destroy(c->w.k, t, m);
}

/* ---- the block device's metadata: ext3 inode tables and directory blocks ----
 * One lowmem block-device mapping (GFP_USER, filemap.c) laid out per tree: its
 * inode table blocks (32 inodes of 128 bytes a block: files, directories, the
 * top directory, the .o/.cmd files), then one block per directory and the top
 * one; then the system files' inode blocks and their directory block; then
 * /tmp's inode block and directory block.  Each create, unlink, and each lookup
 * that makes a pruned dentry again reads (__bread) the inode's table block and
 * its directory's block; a new directory's block is only got (__getblk).  The
 * pages carry buffer heads (bufhead.c) and stay on the LRU; a change goes
 * through ext3's journal (jbd.c: pinned until the commit after the block is
 * written back by pdflush, wb_kupdate or reclaim), and the VFS inode of a file
 * read or written is made dirty (dcache.c mm_inode_dirty: held off
 * inode_unused until writeback cleans it). */
#define HA_INODES_PER_BLOCK 32

static uint64_t meta_inode_blocks(const struct ha_cfg *c)
{
	return ((uint64_t)c->tree_files + (uint64_t)c->tree_dirs + 1 + 2 * (uint64_t)c->obj_slots +
		HA_INODES_PER_BLOCK - 1) / HA_INODES_PER_BLOCK;
}

/* Blocks of one tree's region. */
static uint64_t meta_tree_blocks(const struct ha_cfg *c)
{
	return meta_inode_blocks(c) + (uint64_t)c->tree_dirs + 1;
}

/* First block of the system files' region. */
static uint64_t meta_sys(const struct ha_cfg *c)
{
	return (uint64_t)c->builds * meta_tree_blocks(c);
}

static uint64_t meta_sys_inode_blocks(const struct ha_cfg *c)
{
	return ((uint64_t)c->sys_files + HA_INODES_PER_BLOCK - 1) / HA_INODES_PER_BLOCK;
}

/* ---- block groups: bitmaps and group descriptors ----
 * ext3 with 4 KiB blocks (2.6.16 fs/ext3/balloc.c, ialloc.c): a block group
 * is 32,768 blocks (128 MiB) with one block bitmap and one inode bitmap block;
 * mke2fs's default inode_ratio of 8,192 bytes gives 16,384 inodes a group; 32-
 * byte group descriptors, 128 to a block.  Each tree's data (its sources and
 * .o files), the MemTotal file and /tmp are groups of their own: each tree has
 * its data groups' block bitmaps and its inodes' inode bitmaps; the MemTotal
 * file its block bitmaps; /tmp one inode bitmap (its files hold no data here).
 * ext3_new_block and ext3_free_blocks read (read_block_bitmap) and change the
 * group's block bitmap and its descriptor; ext3_new_inode and ext3_free_inode
 * the inode bitmap and the descriptor; every change goes through the journal.
 * Not modelled: the descriptor blocks' lifetime reference (ext3_fill_super
 * keeps them until umount), indirect blocks, the superblock's own block. */
#define HA_GROUP_BYTES (UINT64_C(128) << 20)
#define HA_INODES_PER_GROUP 16384
#define HA_DESC_PER_BLOCK 128

static uint64_t groups_of(uint64_t bytes)
{
	return (bytes + HA_GROUP_BYTES - 1) / HA_GROUP_BYTES;
}

/* Bitmap blocks of one tree: its data groups', then its inodes'. */
static uint64_t meta_tree_bitmaps(const struct ha_cfg *c)
{
	return groups_of(tree_bytes(c)) +
	       (meta_inode_blocks(c) * HA_INODES_PER_BLOCK + HA_INODES_PER_GROUP - 1) / HA_INODES_PER_GROUP;
}

/* First group-descriptor block: after the system files' region and /tmp's. */
static uint64_t meta_gdt(const struct ha_cfg *c)
{
	return meta_sys(c) + meta_sys_inode_blocks(c) + 1 + 2;
}

/* First bitmap block: after the descriptors of every tree's data groups, the
 * MemTotal file's and /tmp's. */
static uint64_t meta_bitmaps(const struct ha_cfg *c)
{
	uint64_t groups = (uint64_t)c->builds * groups_of(tree_bytes(c)) + groups_of(c->flush_size) + 1;
	return meta_gdt(c) + (groups + HA_DESC_PER_BLOCK - 1) / HA_DESC_PER_BLOCK;
}

/* Bytes of the whole mapping: the trees, the system files, /tmp, the group
 * descriptors and the bitmaps. */
static uint64_t meta_bytes(const struct ha_cfg *c)
{
	return (meta_bitmaps(c) + (uint64_t)c->builds * meta_tree_bitmaps(c) +
		groups_of(c->flush_size) + 1) * 4096;
}

/* __bread (@read) or __getblk of metadata block @blk, then (@dirty) changed
 * through the journal. */
static void meta(struct ha_cfg *c, struct mm_task *t, uint64_t blk, bool read, bool dirty)
{
	if (c->meta && blk < c->meta->npages &&
	    mm_file_getblk(c->w.k, t, c->meta, (uint32_t)blk, read) != PFN_NONE && dirty &&
	    c->journal)
		mm_jbd_dirty(c->w.k, t, &c->jbd, (uint32_t)blk);   /* ext3_journal_dirty_metadata */
}

/* Group @g's descriptor, changed. */
static void meta_desc(struct ha_cfg *c, struct mm_task *t, uint64_t g)
{
	meta(c, t, meta_gdt(c) + g / HA_DESC_PER_BLOCK, true, true);
}

/* ext3_new_block / ext3_free_blocks for bytes [@pos, @pos+@len) of build
 * @idx's tree data (@idx == builds: the MemTotal file): each group's block
 * bitmap and descriptor.  Returns: nothing. */
static void meta_balloc(struct ha_cfg *c, struct mm_task *t, int64_t idx, uint64_t pos, uint64_t len)
{
	if (!len)
		return;
	uint64_t gt = groups_of(tree_bytes(c)), base = meta_bitmaps(c) + (uint64_t)idx * meta_tree_bitmaps(c);
	for (uint64_t g = pos / HA_GROUP_BYTES; g <= (pos + len - 1) / HA_GROUP_BYTES; g++) {
		meta(c, t, base + g, true, true);
		meta_desc(c, t, (uint64_t)idx * gt + g);
	}
}

/* ext3_new_inode / ext3_free_inode of inode @ino of build @idx's tree (@idx <
 * 0: a file in /tmp): its inode bitmap and its group's descriptor. */
static void meta_ialloc(struct ha_cfg *c, struct mm_task *t, int64_t idx, uint64_t ino)
{
	uint64_t gt = groups_of(tree_bytes(c)), gf = groups_of(c->flush_size);
	if (idx < 0) {
		uint64_t blk = meta_bitmaps(c) + (uint64_t)c->builds * meta_tree_bitmaps(c) + gf;
		meta(c, t, blk, true, true);
		meta_desc(c, t, (uint64_t)c->builds * gt + gf);
		return;
	}
	uint64_t g = ino / HA_INODES_PER_GROUP;
	meta(c, t, meta_bitmaps(c) + (uint64_t)idx * meta_tree_bitmaps(c) + gt + g, true, true);
	meta_desc(c, t, (uint64_t)idx * gt + (g < gt || !gt ? g : gt - 1));
}

/* Inode @ino of build @b's tree and the block of its directory @d (tree_dirs:
 * the top directory; -1: none): both read, and changed when @dirty. */
static void meta_tree(struct ha_cfg *c, struct mm_task *t, const struct ha_build *b, uint64_t ino,
		      int64_t d, bool dirty)
{
	uint64_t base = (uint64_t)b->idx * meta_tree_blocks(c);
	meta(c, t, base + ino / HA_INODES_PER_BLOCK, true, dirty);
	if (d >= 0)
		meta(c, t, base + meta_inode_blocks(c) + (uint64_t)d, true, dirty);
}

/* Entry @i of build @b's list: its inode number and its directory. */
static void entry_ino(const struct ha_cfg *c, uint64_t i, uint64_t *ino, int64_t *d)
{
	uint64_t nf = (uint64_t)c->tree_files, nd = (uint64_t)c->tree_dirs;
	if (i < nf) {
		*ino = i;
		*d = (int64_t)(i * nd / nf);
	} else {   /* the .o and .cmd files of slot (i - nf) / 2 */
		*ino = i + nd + 1;
		*d = (int64_t)((i - nf) / 2 * nd / (uint64_t)c->obj_slots);
	}
}

/* Entry @i of tree @b read or written: update_atime / inode_update_time ->
 * ext3_dirty_inode journals its inode block (2.6.16: no relatime). */
static void meta_atime(struct ha_cfg *c, struct mm_task *t, const struct ha_build *b, uint64_t i)
{
	uint64_t ino;
	int64_t d;
	entry_ino(c, i, &ino, &d);
	meta(c, t, (uint64_t)b->idx * meta_tree_blocks(c) + ino / HA_INODES_PER_BLOCK, true, true);
	if (i < b->nobj)   /* __mark_inode_dirty: the VFS inode too */
		mm_inode_dirty(c->w.k, t, c->dc, b->ent[i]);
}

/* The system file @i's inode and directory blocks, read. */
static void meta_sysfile(struct ha_cfg *c, struct mm_task *t, uint64_t i)
{
	meta(c, t, meta_sys(c) + i / HA_INODES_PER_BLOCK, true, false);
	meta(c, t, meta_sys(c) + meta_sys_inode_blocks(c), true, false);
}

/* A temporary file in /tmp created or unlinked: its inode and /tmp's blocks. */
static void meta_tmp(struct ha_cfg *c, struct mm_task *t)
{
	uint64_t tb = meta_sys(c) + meta_sys_inode_blocks(c) + 1;
	meta(c, t, tb, true, true);
	meta(c, t, tb + 1, true, true);
	meta_ialloc(c, t, -1, 0);
}

/* The directory of build @b's tree holding its file @i of @n (made on first use). */
static uint32_t dir_of(struct ha_cfg *c, struct ha_build *b, uint64_t i, uint64_t n)
{
	uint64_t d = n ? i * (uint64_t)c->tree_dirs / n : 0;
	if (!b->dir || d >= (uint64_t)c->tree_dirs)
		return b->root;
	if (b->dir[d] == MM_DENT_NONE) {   /* mkdir */
		b->dir[d] = MM_DENT_NONE - 1;
		uint32_t id = mm_dentry_new(c->w.k, &b->task, c->dc, b->root);
		b->dir[d] = id;
		mm_inode_dirty(c->w.k, &b->task, c->dc, id);   /* a new inode is dirty */
		/* its inode, the top directory's block, its own new block */
		meta_tree(c, &b->task, b, (uint64_t)c->tree_files + d, c->tree_dirs, true);
		meta_ialloc(c, &b->task, b->idx, (uint64_t)c->tree_files + d);
		meta(c, &b->task, (uint64_t)b->idx * meta_tree_blocks(c) + meta_inode_blocks(c) + d, false,
		     true);
	}
	return b->dir[d] == MM_DENT_NONE - 1 ? b->root : b->dir[d];
}

/* The owner tag of a file's dcache entry (dcache.c mm_dentry_set_owner):
 * entry @i of build @idx's list, or (@idx HA_SYS_OWNER) system file @i; the
 * build index is stored plus one, so no tag is 0. */
#define HA_OWNER_SHIFT 22
#define HA_SYS_OWNER HA_MAX_BUILDS
static uint32_t owner_of(int64_t idx, uint64_t i)
{
	return ((uint32_t)(idx + 1) << HA_OWNER_SHIFT) | (uint32_t)i;
}

/* prune_icache's invalidate_inode_pages of the file tagged @owner: the pages
 * that start inside its bytes (a tree's files lie end to end in one page-cache
 * file here).  Returns: the pages that stay cached (dirty, under I/O, busy). */
static uint32_t ha_inode_pages(void *arg, struct mm_kernel *k, struct mm_task *t, uint32_t owner)
{
	struct ha_cfg *c = arg;
	int64_t idx = (int64_t)(owner >> HA_OWNER_SHIFT) - 1;   /* owner_of()'s inverse */
	uint64_t i = owner & ((1u << HA_OWNER_SHIFT) - 1), off, len;
	struct mm_file *f;
	if (idx == HA_SYS_OWNER) {
		f = c->sys;
		off = i * c->header_size;
		len = c->header_size;
	} else if (idx >= 0 && idx < c->builds) {
		f = c->b[idx].tree;
		uint64_t nf = (uint64_t)c->tree_files;
		if (i < nf) {
			off = i * c->tree_size / nf;
			len = (i + 1) * c->tree_size / nf - off;
		} else if ((i - nf) % 2 == 0) {   /* a .o; its .cmd has no data here */
			off = c->tree_size + (i - nf) / 2 * c->obj_size;
			len = c->obj_size;
		} else {
			return 0;
		}
	} else {
		return 0;
	}
	uint64_t ps = k->phys.page_size, first = (off + ps - 1) / ps, end = (off + len + ps - 1) / ps;
	return f && end > first ? mm_file_invalidate(k, t, f, (uint32_t)first, (uint32_t)(end - first)) : 0;
}

/* A new file of build @b in directory @parent: dentry and inode, kept in the
 * build's list. */
static void file_create(struct ha_cfg *c, struct ha_build *b, uint32_t parent)
{
	if (b->nobj == b->capobj) {
		uint32_t cap = b->capobj ? 2 * b->capobj : 1024;
		uint32_t *d = realloc(b->ent, cap * sizeof *d);
		if (!d) {
			c->ooms++;
			return;
		}
		b->ent = d;
		b->capobj = cap;
	}
	uint32_t n = b->nobj++;
	uint32_t id = mm_dentry_new(c->w.k, &b->task, c->dc, parent);   /* may sleep */
	b->ent[n] = id;
	mm_dentry_set_owner(c->dc, id, owner_of(b->idx, n));
	mm_inode_dirty(c->w.k, &b->task, c->dc, id);   /* a new inode is dirty */
	uint64_t ino;
	int64_t d;
	entry_ino(c, n, &ino, &d);
	meta_tree(c, &b->task, b, ino, d, true);   /* ext3_new_inode, ext3_add_entry */
	meta_ialloc(c, &b->task, b->idx, ino);
}

/* Path lookup of the file of tree @tb holding byte @off of its sources (a
 * pruned dentry or inode is made again: dcache.c), and its atime: it is read.
 * Returns: its dcache id, MM_DENT_NONE when it has none. */
static uint32_t tree_lookup(struct ha_cfg *c, struct mm_task *t, struct ha_build *tb, uint64_t off)
{
	uint64_t i = off * (uint64_t)c->tree_files / c->tree_size;
	if (off >= c->tree_size || i >= tb->nobj || tb->ent[i] == MM_DENT_NONE)
		return MM_DENT_NONE;
	uint64_t made = c->dc->recreated;
	mm_dentry_lookup(c->w.k, t, c->dc, tb->ent[i]);
	if (c->dc->recreated != made) {   /* ext3_lookup: the directory block, iget */
		uint64_t ino;
		int64_t d;
		entry_ino(c, i, &ino, &d);
		meta_tree(c, t, tb, ino, d, false);
	}
	meta_atime(c, t, tb, i);
	return tb->ent[i];
}

/* do_sys_open around a path lookup: getname's names_cache buffer for the
 * lookup (name_get), then the struct file (get_empty_filp) and putname
 * (filp_open); close frees the struct file (filp_close).  Returns: the
 * objects' pfns. */
static uint32_t name_get(struct ha_cfg *c, struct mm_task *t)
{
	return mm_kobj_alloc(c->w.k, t, &c->oc[HA_OC_NAMES]);
}

static uint32_t filp_open(struct ha_cfg *c, struct mm_task *t, uint32_t name)
{
	uint32_t f = mm_kobj_alloc(c->w.k, t, &c->oc[HA_OC_FILP]);
	mm_kobj_free(c->w.k, t, &c->oc[HA_OC_NAMES], name);
	return f;
}

static void filp_close(struct ha_cfg *c, struct mm_task *t, uint32_t f)
{
	mm_kobj_free(c->w.k, t, &c->oc[HA_OC_FILP], f);
}

/* ---- the builds ---- */

/* Write [@pos, @pos+@len) of @f, build @idx's tree (builds: the MemTotal
 * file), appending when @pos is at its end (a rewritten .o is truncated first
 * by gcc: its blocks are freed and allocated again).  The dirty
 * pages are written back by pdflush and by the writer itself when it is throttled
 * (balance_dirty_pages, models/mm/writeback.c, with the scenario's
 * vm.dirty_writeback), and by reclaim's pageout() for those it meets first. */
static void write_back(struct ha_cfg *c, struct mm_task *t, struct mm_file *f, int64_t idx,
		       uint64_t pos, uint64_t len)
{
	mm_file_extend(c->w.k, t, f, pos, len, &c->rst);
	meta_balloc(c, t, idx, pos, len);   /* ext3_get_block: the blocks allocated */
}

static void make_tree(struct ha_cfg *c, struct ha_build *b)
{
	struct mm_kernel *k = c->w.k;
	struct mm_task *t = &b->task;
	uint64_t chunks = (c->tree_size + MIB - 1) / MIB;
	b->root = mm_dentry_new(k, t, c->dc, MM_DENT_NONE);   /* linux-2.6.16/ */
	mm_inode_dirty(k, t, c->dc, b->root);
	meta_tree(c, t, b, (uint64_t)c->tree_files + (uint64_t)c->tree_dirs, -1, true);
	meta_ialloc(c, t, b->idx, (uint64_t)c->tree_files + (uint64_t)c->tree_dirs);
	meta(c, t, (uint64_t)b->idx * meta_tree_blocks(c) + meta_inode_blocks(c) + (uint64_t)c->tree_dirs,
	     false, true);
	b->dir = malloc((size_t)c->tree_dirs * sizeof *b->dir);
	if (!b->dir)
		c->ooms++;
	for (int64_t d = 0; b->dir && d < c->tree_dirs; d++)
		b->dir[d] = MM_DENT_NONE;
	if (c->neg_per_tree) {
		b->neg = malloc((size_t)c->neg_per_tree * sizeof *b->neg);
		if (!b->neg)
			c->ooms++;
		for (int64_t n = 0; b->neg && n < c->neg_per_tree; n++)
			b->neg[n] = MM_DENT_NONE;
	}
	uint64_t made = 0;
	for (uint64_t i = 0; i < chunks; i++) {
		uint64_t pos = i * MIB, len = c->tree_size - pos < MIB ? c->tree_size - pos : MIB;
		if (b->idx > 0) {   /* cp -r reads the original */
			uint64_t from = (uint64_t)c->tree_files * i / chunks;
			uint64_t to = (uint64_t)c->tree_files * (i + 1) / chunks;
			for (uint64_t f = from; f < to; f++) {   /* open, read, close */
				uint32_t nm = name_get(c, t);
				tree_lookup(c, t, &c->b[0], f * c->tree_size / (uint64_t)c->tree_files);
				filp_close(c, t, filp_open(c, t, nm));
			}
			mm_file_read(k, t, c->b[0].tree, pos, len, &c->rst);
		}
		write_back(c, t, b->tree, b->idx, pos, len);
		uint64_t upto = (uint64_t)c->tree_files * (i + 1) / chunks;
		for (; made < upto; made++)
			file_create(c, b, dir_of(c, b, made, (uint64_t)c->tree_files));
	}
}

/* Look up system file @i: its dentry and inode stay once created. */
static void sys_lookup(struct ha_cfg *c, struct mm_task *t, uint64_t i)
{
	struct mm_kernel *k = c->w.k;
	uint32_t nm = name_get(c, t);
	if (c->sys_ent[i] == MM_DENT_NONE) {
		c->sys_ent[i] = MM_DENT_NONE - 1;   /* being made: another lookup waits for it */
		uint32_t id = mm_dentry_new(k, t, c->dc, MM_DENT_NONE);   /* may sleep */
		c->sys_ent[i] = id;
		mm_dentry_set_owner(c->dc, id, owner_of(HA_SYS_OWNER, i));
		meta_sysfile(c, t, i);
	} else if (c->sys_ent[i] != MM_DENT_NONE - 1) {
		uint64_t made = c->dc->recreated;
		mm_dentry_lookup(k, t, c->dc, c->sys_ent[i]);
		if (c->dc->recreated != made)
			meta_sysfile(c, t, i);
	}
	uint32_t fp = filp_open(c, t, nm);
	mm_file_read(k, t, c->sys, i * c->header_size, c->header_size, &c->rst);
	filp_close(c, t, fp);
	meta(c, t, meta_sys(c) + i / HA_INODES_PER_BLOCK, true, true);   /* atime */
	if (c->sys_ent[i] < MM_DENT_NONE - 1)
		mm_inode_dirty(k, t, c->dc, c->sys_ent[i]);
}

/* cc1's include search for the names tree @b's include/ does not have: a
 * cached negative dentry is a hit; a missing one (first search, or pruned
 * since) is ext3_lookup reading the directory's block and d_add(NULL). */
static void neg_lookups(struct ha_cfg *c, struct mm_task *t, struct ha_build *b)
{
	struct mm_kernel *k = c->w.k;
	if (!b->neg)
		return;
	uint64_t dblk = (uint64_t)b->idx * meta_tree_blocks(c) + meta_inode_blocks(c);
	for (int64_t n = 0; n < c->neg_per_tree; n++) {
		uint64_t made = c->dc->negatives;
		if (b->neg[n] == MM_DENT_NONE) {
			b->neg[n] = MM_DENT_NONE - 1;   /* being made: another lookup waits for it */
			b->neg[n] = mm_dentry_negative(k, t, c->dc, dir_of(c, b, 0, 1));   /* may sleep */
		} else if (b->neg[n] != MM_DENT_NONE - 1) {
			mm_dentry_lookup(k, t, c->dc, b->neg[n]);
		}
		if (c->dc->negatives != made)
			meta(c, t, dblk, true, false);
	}
}

static void compile(struct ha_cfg *c, struct ha_build *b)
{
	struct mm_kernel *k = c->w.k;
	struct mm_task *t = &b->task;
	uint64_t j = b->jobs++;
	struct mm_kproc p, asp;
	struct mm_fmap *map[4] = { NULL };   /* cc1's text and libraries, as's */
	proc_start(c, t, &p, c->cc_heap);
	text_map(c, t, &map[0], HA_BIN_CC1);
	text_map(c, t, &map[1], HA_BIN_LIBS);
	/* a deterministic spread of system files and tree headers over the jobs */
	uint64_t seed = j * 7919 + (uint64_t)b->idx * 104729;
	for (int64_t n = 0; n < c->sys_per_job; n++)
		sys_lookup(c, t, (seed + (uint64_t)n * 31) % (uint64_t)c->sys_files);
	neg_lookups(c, t, b);
	uint64_t srcs = (c->tree_size - c->include_size) / c->src_size;
	uint64_t src = c->include_size + (j % srcs) * c->src_size;
	/* the source stays open (its dentry in use) while cc1 runs */
	uint32_t nm = name_get(c, t);
	uint32_t src_ent = tree_lookup(c, t, b, src);
	uint32_t src_fp = filp_open(c, t, nm);
	if (src_ent != MM_DENT_NONE && mm_dentry_get(k, t, c->dc, src_ent))
		src_ent = MM_DENT_NONE;
	mm_file_read(k, t, b->tree, src, c->src_size, &c->rst);
	uint64_t hdrs = c->include_size / c->header_size;
	for (int64_t n = 0; n < c->headers_per_job; n++) {   /* each header: open, read, close */
		uint64_t h = ((seed + (uint64_t)n * 13) % hdrs) * c->header_size;
		nm = name_get(c, t);
		tree_lookup(c, t, b, h);
		uint32_t fp = filp_open(c, t, nm);
		mm_file_read(k, t, b->tree, h, c->header_size, &c->rst);
		filp_close(c, t, fp);
	}
	/* the temporary file (-Wp,-MD deps) is open while the compile runs */
	nm = name_get(c, t);
	uint32_t tmp = mm_dentry_new(k, t, c->dc, MM_DENT_NONE);   /* in /tmp */
	uint32_t tmp_fp = filp_open(c, t, nm);
	if (tmp != MM_DENT_NONE && mm_dentry_get(k, t, c->dc, tmp))
		tmp = MM_DENT_NONE;
	mm_inode_dirty(k, t, c->dc, tmp);
	meta_tmp(c, t);
	if (c->cc_text_pages) {   /* gcc -pipe: as runs beside cc1, reading its output */
		proc_start(c, t, &asp, (uint64_t)c->as_data * c->w.k->phys.page_size);
		text_map(c, t, &map[2], HA_BIN_AS);
		text_map(c, t, &map[3], HA_BIN_LIBS);
	}
	mm_user(t, c->cc_cycles);
	uint64_t slot = j % (uint64_t)c->obj_slots;
	nm = name_get(c, t);   /* as opens the .o (O_TRUNC), writes it, closes it */
	uint32_t obj_fp = filp_open(c, t, nm);
	write_back(c, t, b->tree, b->idx, c->tree_size + slot * c->obj_size, c->obj_size);
	if (j >= (uint64_t)c->obj_slots)   /* the .o's mtime and ctime */
		meta_atime(c, t, b, (uint64_t)c->tree_files + 2 * slot);
	filp_close(c, t, obj_fp);
	if (c->cc_text_pages) {   /* as exits, then cc1 (the driver waits for both) */
		text_unmap(c, t, map[2]);
		text_unmap(c, t, map[3]);
		proc_exit(c, t, &asp);
	}
	filp_close(c, t, tmp_fp);
	filp_close(c, t, src_fp);
	if (src_ent != MM_DENT_NONE)
		mm_dentry_put(c->dc, src_ent);
	if (tmp != MM_DENT_NONE) {
		mm_dentry_put(c->dc, tmp);
		mm_dentry_delete(k, t, c->dc, tmp);
	}
	meta_tmp(c, t);
	if (j < (uint64_t)c->obj_slots) {   /* the .o and .cmd files, first build of the slot */
		uint32_t dir = dir_of(c, b, slot, (uint64_t)c->obj_slots);
		file_create(c, b, dir);
		file_create(c, b, dir);
	}
	text_unmap(c, t, map[0]);
	text_unmap(c, t, map[1]);
	proc_exit(c, t, &p);
}

/* rm -rf of the tree: page cache, dentries, inodes. */
static void remove_tree(struct ha_cfg *c, struct ha_build *b)
{
	struct mm_kernel *k = c->w.k;
	mm_file_truncate(k, &b->task, b->tree, 0, b->tree->npages);
	meta_balloc(c, &b->task, b->idx, 0, tree_bytes(c));   /* ext3_free_blocks */
	/* ext3_unlink / ext3_rmdir: the directory block, the inode, its bitmap */
	for (uint32_t i = 0; i < b->nobj; i++) {
		if (b->ent[i] != MM_DENT_NONE)
			mm_dentry_delete(k, &b->task, c->dc, b->ent[i]);
		uint64_t ino;
		int64_t d;
		entry_ino(c, i, &ino, &d);
		meta_tree(c, &b->task, b, ino, d, true);
		meta_ialloc(c, &b->task, b->idx, ino);
	}
	b->nobj = 0;
	/* the negative dentries go with their directory (shrink_dcache_parent) */
	for (int64_t n = 0; b->neg && n < c->neg_per_tree; n++)
		if (b->neg[n] < MM_DENT_NONE - 1) {
			mm_dentry_delete(k, &b->task, c->dc, b->neg[n]);
			b->neg[n] = MM_DENT_NONE;
		}
	for (int64_t d = 0; b->dir && d < c->tree_dirs; d++)
		if (b->dir[d] < MM_DENT_NONE - 1) {
			mm_dentry_delete(k, &b->task, c->dc, b->dir[d]);
			meta_tree(c, &b->task, b, (uint64_t)c->tree_files + (uint64_t)d, c->tree_dirs, true);
			meta_ialloc(c, &b->task, b->idx, (uint64_t)c->tree_files + (uint64_t)d);
		}
	if (b->root != MM_DENT_NONE)
		mm_dentry_delete(k, &b->task, c->dc, b->root);
	meta_tree(c, &b->task, b, (uint64_t)c->tree_files + (uint64_t)c->tree_dirs, -1, true);
	meta_ialloc(c, &b->task, b->idx, (uint64_t)c->tree_files + (uint64_t)c->tree_dirs);
}

static void build_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ha_build *b = t->wl;
	struct ha_cfg *c = b->s->wl_cfg;
	wl_smp_enter(&c->w, t);
	while (b->idx > 0 && !c->b[0].copied)
		mm_sleep(t, 1.0, NULL);
	make_tree(c, b);
	b->copied = true;
	c->copies_done++;
	struct mm_kproc make;
	proc_start(c, t, &make, c->make_heap);
	while (!c->kill) {
		compile(c, b);
	}
	proc_exit(c, t, &make);
	remove_tree(c, b);
	mm_sync(t);
	b->done = true;
	c->builds_done++;
	sched_exit(&c->w.sched, &b->st);
}

/* ---- the test ---- */

/* The fragmentation series of every zone at @now (census.c). */
static void sample_frag(struct sim *s, struct ha_cfg *c, double now)
{
	mm_frag_series(c->w.k, s, now - c->t0, (unsigned)c->order);
}

/* Sleep @sec, sampling the fragmentation series on the way. */
static void nap(struct sim *s, struct ha_cfg *c, struct mm_task *t, double sec)
{
	double until = simgrid_get_clock() + sec;
	for (;;) {
		double now = simgrid_get_clock();
		double next = c->t_load + c->sample * ceil((now - c->t_load) / c->sample + 1e-9);
		if (next >= until) {
			if (until > now)
				mm_sleep(t, until - now, NULL);
			return;
		}
		mm_sleep(t, next - now, NULL);
		sample_frag(s, c, simgrid_get_clock());
	}
}

static void check_now(struct ha_cfg *c)
{
	if (!c->check || c->check_failed)
		return;
	struct mm_err e = { "" };
	if (mm_kernel_check(c->w.k, &e)) {
		c->check_failed = 1;
		snprintf(c->check_msg, sizeof c->check_msg, "%s", e.msg);
	}
}

static void pass(struct sim *s, struct ha_cfg *c, struct mm_task *t, int p)
{
	struct mm_kernel *k = c->w.k;
	uint32_t *got = calloc((size_t)c->attempts, sizeof *got);
	unsigned order = (unsigned)c->order;
	char key[64];
	uint64_t n = 0;
	mm_census_metrics(k, s, pass_names[p], order);   /* what pins each block now */
	for (int64_t i = 0; i < c->attempts; i++) {
		mm_sync(t);
		double t0 = simgrid_get_clock();
		int zone = -1;
		uint32_t pfn = mm_pages_alloc(k, t, MM_ZONE_HIGHMEM, order,
					      MM_GFP_KERNEL | MM_GFP_EASYRCLM, &zone);
		mm_sync(t);
		double took = simgrid_get_clock() - t0;
		c->attempt_s[p] += took;
		if (pfn != PFN_NONE) {
			if (got)
				got[n] = pfn;
			n++;
			c->zone_success[p][zone]++;
		}
		snprintf(key, sizeof key, "successes_%s", pass_names[p]);
		sim_series_add(s, key, (double)(i + 1), (double)n);
		snprintf(key, sizeof key, "attempt_ms_%s", pass_names[p]);
		sim_series_add(s, key, (double)(i + 1), took * 1000.0);
		if (c->interval > 0)
			mm_sleep(t, c->interval, NULL);
	}
	c->success[p] = n;
	for (uint64_t i = 0; got && i < n; i++)
		mm_pages_free(k, t, got[i], order);
	free(got);
	check_now(c);
}

static void slab_counts(struct ha_cfg *c, int when)
{
	c->slabs_at[when][0] = c->dc->dentry.slabs + c->dc->inode.slabs;
	c->slabs_at[when][1] = c->vma.slabs + c->taskc.slabs;
	for (int i = 0; i < HA_NOC; i++)
		c->slabs_at[when][1] += c->oc[i].slabs;
	c->slabs_at[when][2] = c->w.k->pcobj ? c->w.k->pcobj->bh.slabs + c->w.k->pcobj->radix.slabs : 0;
	c->meta_at[when] = c->meta ? c->meta->nr_cached : 0;
	c->text_at[when] = 0;
	for (int i = 0; i < HA_NBIN; i++)
		c->text_at[when] += c->bin[i] ? c->bin[i]->nr_cached : 0;
}

static void tester_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ha_build *me = t->wl;
	struct sim *s = me->s;
	struct ha_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	wl_smp_enter(&c->w, t);
	while (c->copies_done < c->builds)
		mm_sleep(t, 1.0, NULL);
	c->t_load = simgrid_get_clock();
	sample_frag(s, c, c->t_load);
	nap(s, c, t, c->settle);
	mm_buddyinfo_series(c->w.k, s, "load");
	slab_counts(c, 0);
	pass(s, c, t, 0);
	nap(s, c, t, c->pass_gap);
	pass(s, c, t, 1);
	nap(s, c, t, c->kill_after);
	c->kill = true;
	while (c->builds_done < c->builds)
		nap(s, c, t, 1.0);
	if (c->flush) {   /* dd of a MemTotal-sized file, cat it back, rm it */
		for (uint64_t pos = 0; pos < c->flush_size; pos += MIB)
			write_back(c, t, c->flush, c->builds, pos,
				   c->flush_size - pos < MIB ? c->flush_size - pos : MIB);
		mm_file_read(k, t, c->flush, 0, c->flush_size, &c->rst);
		mm_file_truncate(k, t, c->flush, 0, c->flush->npages);
		meta_balloc(c, t, c->builds, 0, c->flush_size);   /* ext3_free_blocks */
	}
	/* drop the page cache (the system files' dentries and inodes stay) */
	mm_file_truncate(k, t, c->sys, 0, c->sys->npages);
	sample_frag(s, c, simgrid_get_clock());
	mm_buddyinfo_series(c->w.k, s, "rest");
	slab_counts(c, 1);
	pass(s, c, t, 2);
	sample_frag(s, c, simgrid_get_clock());
	c->t_end = simgrid_get_clock();
	mm_sync(t);
	sched_exit(&c->w.sched, &me->st);
}

/* Every slab cache of the run, in @cc.  Returns: their number. */
#define HA_NCACHES (7 + HA_NOC)
static int ha_caches(struct ha_cfg *c, struct mm_kcache *cc[HA_NCACHES])
{
	struct mm_kernel *k = c->w.k;
	int n = 0;
	cc[n++] = &c->dc->dentry;
	cc[n++] = &c->dc->inode;
	cc[n++] = &c->vma;
	cc[n++] = &c->taskc;
	cc[n++] = &k->pcobj->bh;
	cc[n++] = &k->pcobj->radix;
	cc[n++] = &c->jbd.jh;
	for (int i = 0; i < HA_NOC; i++)
		cc[n++] = &c->oc[i];
	return n;
}

/* cache_reap (2.6.16 mm/slab.c, the events/N work): it runs every 2 s
 * (REAPTIMEOUT_CPUC) on each CPU and drains that CPU's object arrays, and
 * visits each cache's shared array and lists every 4 s (REAPTIMEOUT_LIST3),
 * here every CPU's and every cache's at the same ticks, by one actor; and
 * kjournald's commit every 5 s (jbd.c), by the same actor; until the tester is
 * done. */
static void reaper_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct ha_build *me = t->wl;
	struct ha_cfg *c = me->s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	wl_smp_enter(&c->w, t);
	struct mm_kcache *cc[HA_NCACHES];
	int n = ha_caches(c, cc);
	for (int tick = 1; c->t_end <= 0; tick++) {
		mm_sleep(t, 1.0, NULL);
		for (int i = 0; tick % 2 == 0 && i < n; i++) {
			for (uint32_t cpu = 0; cpu < k->phys.ncpus; cpu++)   /* every 2 s */
				c->drained += mm_kcache_drain(k, t, cc[i], (int)cpu);
			if (tick % 4 == 0) {   /* the lists, every 4 s */
				c->drained += mm_kcache_drain(k, t, cc[i], -1);
				c->reaped += mm_kcache_reap(k, t, cc[i]);
			}
		}
		if (tick % (int)MM_JBD_COMMIT_S == 0)
			mm_jbd_commit(k, t, &c->jbd);
	}
	sched_exit(&c->w.sched, &me->st);
}

/* Objects the fork/exec and open caches could not have. */
static uint64_t oc_failed(const struct ha_cfg *c)
{
	uint64_t n = 0;
	for (int i = 0; i < HA_NOC; i++)
		n += c->oc[i].failed;
	return n;
}

static int ha_start(struct sim *s, struct mm_err *e)
{
	struct ha_cfg *c = s->wl_cfg;
	if (wl_smp_start(&c->w, s, c->cs_cycles, e))
		return -1;
	struct mm_kernel *k = c->w.k;
	const struct mm_dgeom g = { (uint32_t)c->dentry_per_slab, (uint32_t)c->inode_per_slab,
				    mm_dgeom_ext3_26.ino_cache };
	char why[MM_ERR_MAX];
	if (!(c->dc = mm_dcache_of(k, &g, why, sizeof why)))
		return mm_errf(e, s->file, "workload.dentry_per_slab", "%s", why);
	c->dc0 = *c->dc;
	c->dc_init = true;
	if (mm_kcache_init(&c->vma, k, "vm_area_struct", (uint32_t)c->vma_per_slab, MM_GFP_KERNEL) ||
	    mm_kcache_init(&c->taskc, k, "task_struct", (uint32_t)c->task_per_slab, MM_GFP_KERNEL))
		return mm_errf(e, s->file, "workload", "out of memory for the slab caches");
	mm_dcache_set_pages(c->dc, ha_inode_pages, c);   /* prune_icache's invalidate_inode_pages */
	for (int i = 0; i < HA_NOC; i++)
		if (mm_kcache_init(&c->oc[i], k, ha_oc[i].name, ha_oc[i].per_slab, MM_GFP_KERNEL))
			return mm_errf(e, s->file, "workload", "out of memory for the slab caches");
	uint64_t off = MIB;
	char name[32];
	for (int i = 0; i < c->builds; i++) {
		snprintf(name, sizeof name, "tree%d", i);
		c->b[i].tree = mm_file_create(k, name, tree_bytes(c), 0, off);
		if (!c->b[i].tree)
			return mm_errf(e, s->file, "workload", "out of memory for the page cache of %s",
				       name);
		off += mib_round(tree_bytes(c));
	}
	uint64_t sys_bytes = (uint64_t)c->sys_files * c->header_size;
	c->sys = mm_file_create(k, "sysfiles", sys_bytes, 0, off);
	off += mib_round(sys_bytes);
	if (c->flush_size)
		c->flush = mm_file_create(k, "flush", c->flush_size, 0, off);
	off += mib_round(c->flush_size);
	c->meta = mm_file_create(k, "bdev", meta_bytes(c), 0, off);
	if (c->meta)
		c->meta->bdev = true;   /* GFP_USER: lowmem, not easily reclaimable */
	off += mib_round(meta_bytes(c));
	for (int i = 0; i < HA_NBIN; i++) {   /* the binaries: on disk, not yet cached */
		uint64_t bytes = bin_pages(c, i) * 4096;
		if (bytes && !(c->bin[i] = mm_file_create(k, bin_names[i], bytes, 0, off)))
			return mm_errf(e, s->file, "workload", "out of memory for the page cache of %s",
				       bin_names[i]);
		off += mib_round(bytes);
	}
	c->sys_ent = malloc((size_t)c->sys_files * sizeof *c->sys_ent);
	if (!c->sys || (c->flush_size && !c->flush) || !c->meta || !c->sys_ent || mm_pcobj_enable(k) ||
	    mm_jbd_init(&c->jbd, k, c->meta))
		return mm_errf(e, s->file, "workload", "out of memory for the files");
	for (int64_t i = 0; i < c->sys_files; i++)
		c->sys_ent[i] = MM_DENT_NONE;
	struct mm_kcache *cc[HA_NCACHES];
	int n = ha_caches(c, cc);
	for (int i = 0; i < n; i++) {   /* enable_cpucache */
		mm_kcache_tune(cc[i], k->phys.ncpus);
		if (mm_kcache_arrays(cc[i], k->phys.ncpus))
			return mm_errf(e, s->file, "workload", "out of memory for the slab caches");
	}
	c->t0 = simgrid_get_clock();
	for (int i = 0; i < c->builds; i++) {
		struct ha_build *b = &c->b[i];
		b->s = s;
		b->idx = i;
		b->root = MM_DENT_NONE;
		snprintf(b->name, sizeof b->name, "make%d", i);
		c->nb_init++;
		wl_smp_spawn(&c->w, NULL, &b->task, &b->st, b->name, b, build_main);
	}
	c->tester.s = s;
	c->tester.idx = -1;
	c->tester_init = true;
	wl_smp_spawn(&c->w, NULL, &c->tester.task, &c->tester.st, "highalloc", &c->tester, tester_main);
	c->reaper.s = s;
	c->reaper.idx = -1;
	c->reaper_init = true;
	wl_smp_spawn(&c->w, NULL, &c->reaper.task, &c->reaper.st, "events/0", &c->reaper, reaper_main);
	return 0;
}

static void ha_finish(struct sim *s)
{
	struct ha_cfg *c = s->wl_cfg;
	struct mm_kernel *k = c->w.k;
	char key[64];
	double end = c->t_end > 0 ? c->t_end : simgrid_get_clock();
	for (int p = 0; p < HA_PASSES; p++) {
		snprintf(key, sizeof key, "%s_success", pass_names[p]);
		sim_metric(s, key, (double)c->success[p]);
		snprintf(key, sizeof key, "%s_pct", pass_names[p]);
		sim_metric(s, key, 100.0 * (double)c->success[p] / (double)c->attempts);
		snprintf(key, sizeof key, "%s_attempt_s", pass_names[p]);
		sim_metric(s, key, c->attempt_s[p]);
		for (int j = 0; j < MM_NR_ZONES; j++) {
			if (j == MM_ZONE_DMA32)
				continue;
			char zn[16];
			snprintf(zn, sizeof zn, "%s", k->phys.zones[j].name);
			for (char *q = zn; *q; q++)
				*q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
			snprintf(key, sizeof key, "%s_%s", pass_names[p], zn);
			sim_metric(s, key, (double)c->zone_success[p][j]);
		}
	}
	s->primary = (double)c->success[0];
	uint64_t jobs = 0;
	for (int i = 0; i < c->nb_init; i++)
		jobs += c->b[i].jobs;
	sim_metric(s, "attempts", (double)c->attempts);
	sim_metric(s, "compile_jobs", (double)jobs);
	sim_metric(s, "load_start_s", c->t_load - c->t0);
	sim_metric(s, "slab_pages_reclaimable_load", (double)c->slabs_at[0][0]);
	sim_metric(s, "slab_pages_unreclaimable_load", (double)c->slabs_at[0][1]);
	sim_metric(s, "slab_pages_reclaimable_rest", (double)c->slabs_at[1][0]);
	sim_metric(s, "slab_pages_unreclaimable_rest", (double)c->slabs_at[1][1]);
	sim_metric(s, "slab_pages_pagecache_load", (double)c->slabs_at[0][2]);
	sim_metric(s, "slab_pages_pagecache_rest", (double)c->slabs_at[1][2]);
	sim_metric(s, "metadata_pages_load", (double)c->meta_at[0]);
	sim_metric(s, "metadata_pages_rest", (double)c->meta_at[1]);
	if (c->cc_text_pages) {
		sim_metric(s, "text_pages_load", (double)c->text_at[0]);
		sim_metric(s, "text_pages_rest", (double)c->text_at[1]);
		sim_metric(s, "text_faults", (double)c->text_faults);
		sim_metric(s, "text_major_faults", (double)c->text_major);
	}
	const struct mm_pcobj *pc = k->pcobj;
	sim_metric(s, "kernel_object_failures",
		   (double)(c->dc->dentry.failed - c->dc0.dentry.failed + c->dc->inode.failed -
			    c->dc0.inode.failed + c->vma.failed +
			    c->taskc.failed + (pc ? pc->bh.failed + pc->radix.failed + pc->failed : 0) +
			    oc_failed(c)));
	sim_metric(s, "dentries_pruned", (double)(c->dc->pruned_dentries - c->dc0.pruned_dentries));
	sim_metric(s, "inodes_pruned", (double)(c->dc->pruned_inodes - c->dc0.pruned_inodes));
	sim_metric(s, "dentries_remade", (double)(c->dc->recreated - c->dc0.recreated));
	sim_metric(s, "negative_dentries_made", (double)(c->dc->negatives - c->dc0.negatives));
	sim_metric(s, "inodes_kept_for_pages", (double)(c->dc->kept_for_pages - c->dc0.kept_for_pages));
	sim_metric(s, "exec_kmallocs", (double)c->exec_kmallocs);
	sim_metric(s, "exec_kmalloc_objects_end",
		   (double)(c->oc[HA_OC_K32].objs + c->oc[HA_OC_K256].objs + c->oc[HA_OC_K512].objs));
	sim_metric(s, "inodes_dirtied", (double)(c->dc->dirtied - c->dc0.dirtied));
	sim_metric(s, "inodes_cleaned", (double)(c->dc->cleaned - c->dc0.cleaned));
	sim_metric(s, "dirty_inodes_held_max", (double)c->dc->held_max);
	sim_metric(s, "kupdate_runs", (double)k->kupdate_runs);
	sim_metric(s, "kupdate_pages", (double)k->kupdate_pages);
	sim_metric(s, "slabs_scanned", (double)k->slabs_scanned);
	sim_metric(s, "slab_pages_reaped", (double)c->reaped);
	sim_metric(s, "slab_objects_drained", (double)c->drained);
	sim_metric(s, "journal_buffers_dirtied", (double)c->jbd.dirtied);
	sim_metric(s, "journal_buffers_released", (double)c->jbd.released);
	sim_metric(s, "journal_commits", (double)c->jbd.commits);
	sim_metric(s, "oom_failures", (double)c->ooms);
	sim_metric(s, "writeback_requests", (double)k->wb_requests);
	sim_metric(s, "writer_throttled", (double)k->wb_throttled);
	sim_metric(s, "pcp_pages_end", (double)(k->phys.zones[MM_ZONE_NORMAL].nr_pcp +
						 k->phys.zones[MM_ZONE_HIGHMEM].nr_pcp +
						 k->phys.zones[MM_ZONE_EASYRCLM].nr_pcp));
	if (c->check)
		sim_invariants(s, c->check_failed ? c->check_msg : NULL);
	mm_proc_metrics(k, s);
	wl_smp_metrics(&c->w, s, end);
}

static void ha_fini(void *cfgp)
{
	struct ha_cfg *c = cfgp;
	for (int i = 0; i < c->nb_init; i++) {
		sched_task_destroy(&c->b[i].st);
		free(c->b[i].ent);
		free(c->b[i].dir);
		free(c->b[i].neg);
		c->b[i].ent = c->b[i].dir = c->b[i].neg = NULL;
	}
	c->nb_init = 0;
	if (c->tester_init)
		sched_task_destroy(&c->tester.st);
	c->tester_init = false;
	if (c->reaper_init)
		sched_task_destroy(&c->reaper.st);
	c->reaper_init = false;
	free(c->sys_ent);
	c->sys_ent = NULL;
	if (c->dc_init)   /* the caches are the kernel's; its owner tags are ours */
		mm_dcache_set_pages(c->dc, NULL, NULL);
	c->dc_init = false;
	mm_kcache_fini(&c->vma);
	mm_kcache_fini(&c->taskc);
	for (int i = 0; i < HA_NOC; i++)
		mm_kcache_fini(&c->oc[i]);
	mm_jbd_fini(&c->jbd);
	wl_smp_fini(&c->w);
}

const struct workload_ops workload_highalloc = {
	.version = WORKLOAD_OPS_VERSION,
	.name = "highalloc",
	.desc = "seed 003: vmregress HighAlloc stress (7 make -j1 builds, 275 order-10 attempts "
		"under load, again, and at rest); successes",
	.params = ha_params,
	.cfg_size = sizeof(struct ha_cfg),
	.primary = "pass1_success",
	.unit = "allocations",
	.higher_is_better = 1,
	.kernel = 1,
	.chainable = 1,
	.check = ha_check,
	.start = ha_start,
	.finish = ha_finish,
	.fini = ha_fini,
};
