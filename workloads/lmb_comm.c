/*
 * lmb_comm.c - seed 004's lmbench communication bandwidths, their copies through
 * the cache hierarchy (models/hw/cache.h): bw_unix, bw_pipe, bw_file_rd io_only
 * and bw_mmap_rd mmap_only, in lmbench's order, each between new processes whose buffers are
 * faulted in page by page (their colours are the allocator's and the colouring
 * module's, as the benchmarks' heaps in lmbench.c).
 *
 * The copies: the kernel asks its copy model (k->copy, mm_copy_user) for every
 * copy_to_user / copy_from_user between a kernel frame and a user buffer (the
 * pipe's page in models/fs/pipe.c, the page cache in filemap.c's read and write);
 * here the model is cache_copy(): per line one load and one store through the L1,
 * L2 and TLB, the kernel side by physical address (the Alpha's KSEG: no TLB), the
 * user side by the process's virtual address.  Each process's user addresses lie
 * in a window of their own (bits 40 and up), as the 21264's address-space numbers
 * keep two processes' TLB entries apart.  Time is simulated time: the writer and
 * the reader run on the one CPU, so the transfer's elapsed time is their sum.
 *
 * lmbench 2 (src/bw_pipe.c, bw_unix.c, bw_file_rd.c): the writer write(2)s 64 KiB
 * at a time from one buffer, the reader read(2)s 64 KiB at a time into one buffer;
 * MB/s with MB = 10^6.
 *   bw_pipe: a 2.4 pipe, one page of buffer (PIPE_SIZE = PAGE_SIZE, 8 KiB on the
 *   Alpha): every read returns at most 8 KiB, into the start of the reader's buffer.
 *   bw_unix: a 2.4.17 AF_UNIX stream: unix_stream_sendmsg cuts a write into skbs of
 *   sk->sndbuf / 2 - 64 bytes (sndbuf 65535: 32703 bytes, modelled as 32 KiB) whose
 *   data are kmalloc'd from the size-65536 cache (an order-3 block on 8 KiB pages)
 *   and sleeps while two are queued (wmem_alloc >= sndbuf); recvmsg copies every
 *   queued skb into the buffer.  Modelled as a pipe of two 32 KiB slots, each the
 *   first half of an order-3 block the writer allocates once (the slab cache keeps
 *   the two slabs while the benchmark runs); the skb headers are not modelled.
 *   bw_file_rd io_only: a process writes the file through the page cache (lmdd's
 *   of=$FILE), exits; a new process reads it 64 KiB at a time once (warm-up), then
 *   at least `comm_bytes` more, timed.
 *   bw_mmap_rd mmap_only (src/bw_mmap_rd.c): a new process mmap()s the same file
 *   (now in the page cache) once and reads it with bread(), a loop summing every
 *   long (8 bytes on the Alpha): one pass to warm up (its first touches are the
 *   minor faults of filemap_nopage, models/mm/fmap.c), then at least `comm_bytes`
 *   more, timed.  The reads go through cache_read() at the mapping's virtual
 *   addresses, translated to the page-cache frames the kernel placed (so the L2,
 *   physically indexed, sees the frames' colours); no copy.
 */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#include "emu/core/sim.h"
#include "models/fs/pipe.h"
#include "models/mm/fmap.h"
#include "workloads/lmbench.h"

#define XFER (64u << 10)      /* lmbench 2's transfer size */
#define SKB_BYTES (32u << 10) /* one AF_UNIX skb's data (32703 bytes) */
#define SLOT_SHIFT 40         /* a process's user-address window */
#define MAP_BASE (1ull << 36) /* bw_mmap_rd's mapping, above the heap in window 0 */

enum { COMM_UNIX, COMM_PIPE, COMM_FILE, COMM_MMAP };

/* The TLB refill of a copy's user side: the process of the address's window. */
static uint32_t xlate_space(void *ctx, uint64_t vpn)
{
	struct lmb_cfg *c = ctx;
	uint64_t slot = vpn >> (SLOT_SHIFT - c->page_shift);
	if (slot >= 2 || !c->space[slot])
		return CACHE_NO_PFN;
	return lmb_xlate(c->space[slot], vpn & ((1ull << (SLOT_SHIFT - c->page_shift)) - 1));
}

/* The kernel's copy model (struct mm_copy_model): cache_copy() between frame @pfn
 * and @t's buffer.  Returns: CPU cycles. */
static double copy_cache(void *ctx, struct mm_task *t, uint32_t pfn, uint32_t off, uint32_t n,
			 bool to_user)
{
	struct lmb_cfg *c = ctx;
	uint64_t slot = c->space[1] && c->space[1]->t == t ? 1 : 0;
	uint64_t u = (slot << SLOT_SHIFT) + t->ubuf;
	uint64_t kp = (((uint64_t)pfn << c->page_shift) + off) | CACHE_PHYS;
	double s = to_user ? cache_copy(&c->cs, u, kp, n, xlate_space, c)
			   : cache_copy(&c->cs, kp, u, n, xlate_space, c);
	t->ubuf += n;
	c->copied += n;
	return s * c->k->clock;
}

int lmb_comm_start(struct lmb_cfg *c, struct mm_err *e)
{
	struct mm_kernel *k = c->k;
	(void)e;
	c->page_shift = 0;
	while ((1ull << c->page_shift) < k->phys.page_size)
		c->page_shift++;
	c->copy_model = (struct mm_copy_model){ .copy = copy_cache, .ctx = c };
	k->copy = &c->copy_model;
	mm_task_init(&c->rtask, k, 0, "lmbench-reader");
	uint64_t off = (1 << 20) + 2 * k->phys.cfg.memory;
	c->comm_file = mm_file_create(k, "lmbench-file", c->file_size, 0, off);
	if (!c->comm_file)
		return mm_errf(e, k->s->file, "workload", "out of memory for bw_file_rd's file");
	return 0;
}

/* ---------------------------------------------------------------- pipe, socket */

struct xfer {
	struct lmb_cfg *c;
	struct mm_pipe pipe;
	uint64_t warm;            /* bytes before the clock starts */
	uint64_t got0, got1;
	double t0, t1;
	bool failed;
	sg_sem_t done;
};

/* The reader: read(fd, buf, 64 KiB) until end of file, timing from @warm bytes on. */
static void reader_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct mm_task *t = sg_actor_self_get_data();
	struct xfer *x = t->wl;
	struct lmb_cfg *c = x->c;
	struct proc_ctx p;
	if (lmb_proc_start(c, &p, t, XFER))
		x->failed = true;   /* still drain the pipe, so that the writer ends */
	c->space[1] = x->failed ? NULL : &p;
	uint64_t got = 0;
	bool timing = false;
	for (;;) {
		t->ubuf = 0;
		uint32_t n = mm_pipe_read(t, &x->pipe, XFER);
		if (!n)
			break;
		got += n;
		if (!timing && got >= x->warm) {
			mm_sync(t);
			x->t0 = simgrid_get_clock();
			x->got0 = got;
			timing = true;
		}
	}
	mm_sync(t);
	x->t1 = simgrid_get_clock();
	x->got1 = got;
	c->space[1] = NULL;
	if (!x->failed)
		lmb_proc_end(&p);
	sg_sem_release(x->done);
}

/* Give process @p a heap of @bytes, every page touched.  Returns: 0, or -1. */
static int heap(struct proc_ctx *p, uint64_t bytes)
{
	uint32_t n = (uint32_t)((bytes + p->k->phys.page_size - 1) / p->k->phys.page_size);
	return mm_brk(p->k, p->t, p->as, n) || mm_touch(p->k, p->t, p->as, 0, n, true) < 0 ? -1 : 0;
}

/* The kernel buffers of one transfer: @nblk blocks of 2^@order pages, of which
 * the first @per pages each hold data. */
struct kbuf {
	unsigned order;
	uint32_t nblk, per;
	uint32_t blk[2];
	uint32_t pfns[2 * 64];
};

static int kbuf_alloc(struct lmb_cfg *c, struct kbuf *b)
{
	for (uint32_t i = 0; i < b->nblk; i++) {
		b->blk[i] = mm_pages_alloc(c->k, &c->task, MM_ZONE_NORMAL, b->order, MM_GFP_KERNEL, NULL);
		if (b->blk[i] == PFN_NONE) {
			while (i--)
				mm_pages_free(c->k, &c->task, b->blk[i], b->order);
			return -1;
		}
		for (uint32_t j = 0; j < b->per; j++)
			b->pfns[i * b->per + j] = b->blk[i] + j;
	}
	return 0;
}

static void kbuf_free(struct lmb_cfg *c, struct kbuf *b)
{
	for (uint32_t i = 0; i < b->nblk; i++)
		mm_pages_free(c->k, &c->task, b->blk[i], b->order);
}

/* Move 2 x comm_bytes from a writer process to a reader process through the
 * kernel buffers @b (a pipe of their data pages), written in atomic pieces of
 * @chunk.  The writer allocates them before its buffer (@first: pipe() before
 * the buffer's valloc) or after (the first sendmsg's skbs).
 * Returns: MB/s of the second half, 0 if it failed. */
static double transfer(struct lmb_cfg *c, struct kbuf *b, bool first, uint32_t chunk)
{
	struct mm_task *t = &c->task;
	struct proc_ctx w;
	if (lmb_proc_start(c, &w, t, 0))
		return 0;
	bool ok = first ? !kbuf_alloc(c, b) && !heap(&w, XFER) : !heap(&w, XFER) && !kbuf_alloc(c, b);
	if (!ok) {
		lmb_proc_end(&w);
		return 0;
	}
	struct xfer x = { .c = c, .warm = c->comm_bytes, .done = sg_sem_init(0) };
	mm_pipe_init(&x.pipe, b->nblk * b->per * (uint32_t)c->k->phys.page_size);
	x.pipe.pfns = b->pfns;
	c->space[0] = &w;
	c->rtask.wl = &x;
	sg_actor_t a = sg_actor_init("lmbench-reader", sg_host_by_name("cpu0"));
	sg_actor_set_data(a, &c->rtask);
	sg_actor_start(a, reader_main, 0, NULL);
	for (uint64_t sent = 0; sent < 2 * c->comm_bytes; sent += XFER) {
		t->ubuf = 0;
		mm_pipe_write(t, &x.pipe, XFER, chunk);
	}
	mm_pipe_close(t, &x.pipe);
	mm_sync(t);
	sg_sem_acquire(x.done);
	c->space[0] = NULL;
	kbuf_free(c, b);
	lmb_proc_end(&w);
	mm_pipe_destroy(&x.pipe);
	sg_sem_destroy(x.done);
	double dt = x.t1 - x.t0;
	return x.failed || !(dt > 0) ? 0 : (double)(x.got1 - x.got0) / dt / 1e6;
}

/* bw_pipe: pipe_new()'s one page, allocated by the writer before its buffer. */
static double bw_pipe(struct lmb_cfg *c)
{
	uint32_t ps = (uint32_t)c->k->phys.page_size;
	struct kbuf b = { .order = 0, .nblk = 1, .per = 1 };
	return transfer(c, &b, true, ps);
}

/* bw_unix: two skbs' data, each the first SKB_BYTES of a size-65536 kmalloc block,
 * allocated by the writer's first sendmsg calls (after its buffer). */
static double bw_unix(struct lmb_cfg *c)
{
	uint32_t ps = (uint32_t)c->k->phys.page_size;
	struct kbuf b = { .order = 0, .nblk = 2, .per = SKB_BYTES / ps ? SKB_BYTES / ps : 1 };
	while ((ps << b.order) < 2 * SKB_BYTES)
		b.order++;
	if (b.per > 64 || b.per * ps != SKB_BYTES)
		return 0;
	return transfer(c, &b, false, SKB_BYTES);
}

/* ---------------------------------------------------------------- file reread */

/* One pass over the file, 64 KiB per read(2) into the buffer's start.
 * Returns: bytes read. */
static uint64_t file_pass(struct lmb_cfg *c, struct mm_task *t, bool write)
{
	struct mm_read_stats st = { 0 };
	uint64_t done = 0;
	for (uint64_t pos = 0; pos < c->file_size; pos += XFER) {
		uint64_t n = c->file_size - pos < XFER ? c->file_size - pos : XFER;
		t->ubuf = 0;
		uint64_t got = write ? mm_file_write(c->k, t, c->comm_file, pos, n, &st)
				     : mm_file_read(c->k, t, c->comm_file, pos, n, &st);
		done += got;
		if (got < n)
			break;
	}
	return done;
}

/* A reread of the file by task @t: through read(2) (@map NULL) or through the
 * mapping @map (bw_mmap_rd). */
struct reread {
	struct lmb_cfg *c;
	struct mm_task *t;
	struct mm_fmap *map;
};

static uint64_t map_pass(struct reread *m);

/* One pass of @rr over the file.  Returns: the bytes read (the file's size when
 * the pass is whole). */
static uint64_t reread_pass(struct reread *rr)
{
	return rr->map ? map_pass(rr) : file_pass(rr->c, rr->t, false);
}

/* lmbench's timed part of a reread: whole passes over the file, at least
 * comm_bytes, in simulated time.  Returns: MB/s, or 0 when a pass fell short or
 * no time passed. */
static double timed_passes(struct reread *rr)
{
	struct lmb_cfg *c = rr->c;
	uint64_t passes = (c->comm_bytes + c->file_size - 1) / c->file_size, bytes = 0;
	mm_sync(rr->t);
	double t0 = simgrid_get_clock();
	for (uint64_t i = 0; i < passes; i++)
		bytes += reread_pass(rr);
	mm_sync(rr->t);
	double dt = simgrid_get_clock() - t0;
	return bytes == passes * c->file_size && dt > 0 ? (double)bytes / dt / 1e6 : 0;
}

static double bw_file_rd(struct lmb_cfg *c)
{
	struct mm_task *t = &c->task;
	struct proc_ctx p;
	/* lmdd writes the file */
	if (lmb_proc_start(c, &p, t, XFER))
		return 0;
	c->space[0] = &p;
	uint64_t w = file_pass(c, t, true);
	c->space[0] = NULL;
	lmb_proc_end(&p);
	if (w < c->file_size || lmb_proc_start(c, &p, t, XFER))
		return 0;
	c->space[0] = &p;
	struct reread rr = { c, t, NULL };
	double r = reread_pass(&rr) == c->file_size ? timed_passes(&rr) : 0;   /* after a warm-up */
	c->space[0] = NULL;
	lmb_proc_end(&p);
	return r;
}

/* ---------------------------------------------------------------- mmap reread */

/* The TLB refill of the mapping: its entry's frame, faulted in (filemap_nopage)
 * when empty.  Returns: the pfn, or CACHE_NO_PFN outside the mapping or on failure. */
static uint32_t xlate_map(void *ctx, uint64_t vpn)
{
	struct reread *m = ctx;
	uint64_t first = MAP_BASE >> m->c->page_shift;
	if (vpn < first || vpn - first >= m->map->npages)
		return CACHE_NO_PFN;
	uint32_t i = (uint32_t)(vpn - first), pfn = mm_fmap_pfn(m->map, i);
	if (pfn == PFN_NONE && mm_fmap_touch(m->c->k, m->t, m->map, i, 1, false) >= 0)
		pfn = mm_fmap_pfn(m->map, i);
	return pfn == PFN_NONE ? CACHE_NO_PFN : pfn;
}

/* One bread() over the mapping, its time charged to the task.  Returns: the
 * file's size when every page ended the pass mapped, else 0. */
static uint64_t map_pass(struct reread *m)
{
	double s = cache_read(&m->c->cs, MAP_BASE, m->c->file_size, xlate_map, m);
	mm_charge(m->t, s * m->c->k->clock);
	return m->map->rss == m->map->npages ? m->c->file_size : 0;
}

static double bw_mmap_rd(struct lmb_cfg *c)
{
	struct mm_task *t = &c->task;
	struct proc_ctx p;
	if (lmb_proc_start(c, &p, t, XFER))
		return 0;
	uint32_t npages = (uint32_t)((c->file_size + c->k->phys.page_size - 1) / c->k->phys.page_size);
	struct reread m = { c, t, mm_fmap_create(c->k, t, c->comm_file, npages, 0) };
	double r = 0;
	if (m.map) {
		if (map_pass(&m) == c->file_size)   /* warm-up: the minor faults */
			r = timed_passes(&m);
		c->mmap_faults = m.map->minflt + m.map->majflt;
		mm_fmap_destroy(c->k, t, m.map);
	}
	lmb_proc_end(&p);
	return r;
}

void lmb_comm_run(struct lmb_cfg *c)
{
	c->comm_mbps[COMM_UNIX] = bw_unix(c);
	c->comm_mbps[COMM_PIPE] = bw_pipe(c);
	c->comm_mbps[COMM_FILE] = bw_file_rd(c);
	c->comm_mbps[COMM_MMAP] = bw_mmap_rd(c);
	for (int i = 0; i < 4; i++)
		if (!(c->comm_mbps[i] > 0))
			c->failed = true;
}
