/*
 * lmbench.h - what workloads/lmbench.c (lat_mem_rd, bw_mem, the FFT) and
 * workloads/lmb_comm.c (bw_pipe, bw_unix, bw_file_rd, bw_mmap_rd) share: the workload's
 * configuration and state, and its processes.  Internal to the two files.
 */
#ifndef MMEMU_LMBENCH_H
#define MMEMU_LMBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/cache.h"
#include "models/mm/kernel.h"
#include "models/mm/proc.h"

struct proc_ctx {
	struct mm_kernel *k;
	struct mm_task *t;
	struct mm_as *as;
};


#define BATCH 4096

struct lmb_cfg {
	uint64_t size;
	uint64_t stride;
	int64_t min_refs;
	bool lat, bw, fft;
	double butterfly_cycles;
	bool aging;
	double age_turnovers;
	int64_t age_procs;
	int64_t age_proc_max;
	bool check;
	/* state */
	struct mm_kernel *k;      /* the booted kernel (mm_kernel_boot): a chain's steps share it */
	struct mm_task task;
	struct cache_sim cs;
	bool cs_up;
	struct mm_file *age_file;
	double charged;           /* seconds charged by the benchmarks so far */
	double lat_ns, mbps[4], fft_s;
	double conflict_pages, pages;
	uint64_t l2_misses_lat;
	uint64_t age_reads, age_procs_run;
	/* communication bandwidths (lmb_comm.c) */
	bool comm;
	uint64_t comm_bytes;
	uint64_t file_size;
	struct mm_task rtask;     /* the reader of bw_pipe and bw_unix */
	struct mm_copy_model copy_model;   /* k.copy: copies through cs */
	struct mm_file *comm_file;
	struct proc_ctx *space[2];   /* the processes whose user memory copies reach */
	uint32_t page_shift;
	double comm_mbps[4];      /* bw_unix, bw_pipe, bw_file_rd, bw_mmap_rd */
	uint64_t mmap_faults;     /* bw_mmap_rd's page faults (warm-up pass) */
	uint64_t copied;          /* bytes copied through the cache model */
	bool failed;
	int check_failed;
	char check_msg[MM_ERR_MAX];
};


/**
 * lmb_xlate() - the page-table walk of a TLB refill for process @ctx (a struct
 * proc_ctx): the heap page's frame, faulted in when absent.
 * Returns: the pfn, or CACHE_NO_PFN outside the heap or when memory ran out.
 */
uint32_t lmb_xlate(void *ctx, uint64_t vpn);

/**
 * lmb_proc_start() - a new process of task @t with a heap of @bytes, every page
 * touched (written) in order.
 * Returns: 0, or -1 if memory ran out.
 */
int lmb_proc_start(struct lmb_cfg *c, struct proc_ctx *p, struct mm_task *t, uint64_t bytes);

/** lmb_proc_end() - the process exits (its pages are freed). */
void lmb_proc_end(struct proc_ctx *p);

/** lmb_comm_start() - set up the communication benchmarks (the kernel's copy model,
 * the reader task, the file).  Returns: 0, or -1 with @e set. */
int lmb_comm_start(struct lmb_cfg *c, struct mm_err *e);

/** lmb_comm_run() - run bw_unix, bw_pipe, bw_file_rd and bw_mmap_rd (lmbench's order) as task
 * c->task's actor; sets c->comm_mbps (0 for one that failed) and c->failed. */
void lmb_comm_run(struct lmb_cfg *c);

#endif
