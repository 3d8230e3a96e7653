/*
 * cache.h - the CPU cache hierarchy and data TLB of a machine (machine.caches),
 * simulated exactly per set, outside SimGrid (kernel-mechanisms.md 5.1, 5.5).
 *
 * A workload hands a batch of virtual addresses to cache_run(); the hierarchy
 * translates each page through the task's page table (a callback, called only when
 * the page changes), looks the line up level by level (each level virtually or
 * physically indexed, tags always physical), fills it on a miss (LRU within a set,
 * inclusive fill of every level on the way) and returns the time the batch took.
 * Time of one reference: a dependent load (pointer chase) waits the load-to-use
 * latency of the level that served it; independent references (streams) issue at
 * one per cycle and each line fill costs line / bandwidth of the level it came from.
 * A TLB miss adds the refill time in both cases.  A store (an address tagged
 * CACHE_WRITE) is write-allocate and marks its line dirty in the last level (the
 * inner levels write back into it, overlapped); when the last level evicts a dirty
 * line, that line is written to memory: its own path, one line at the memory
 * bandwidth per write-back, counted apart from the reads (st.writebacks).
 */
#ifndef MMEMU_CACHE_H
#define MMEMU_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/params.h"

#define CACHE_MAX_LEVELS 4
#define CACHE_NO_PFN UINT32_MAX

enum cache_indexing { CACHE_PHYSICAL, CACHE_VIRTUAL };

struct cache_level_cfg {
	char name[MM_PSTR];
	uint64_t size;            /* bytes */
	uint64_t line;            /* bytes */
	int64_t assoc;            /* ways; 0 = fully associative */
	int indexing;             /* enum cache_indexing */
	double latency;           /* s: load-to-use of a load served by this level */
	double bandwidth;         /* bytes/s of a stream of line fills from this level */
};

struct cache_cfg {
	int nlevels;              /* 0: the machine declares no caches */
	struct cache_level_cfg lv[CACHE_MAX_LEVELS];
	double mem_latency;       /* s: load-to-use from memory (machine.costs.mem_latency) */
	double mem_bandwidth;     /* bytes/s of a stream from memory */
	int64_t tlb_entries;      /* 0 = no TLB modelled */
	int64_t tlb_assoc;        /* 0 = fully associative */
	uint64_t tlb_page;        /* bytes; 0 = the machine's page size */
	double tlb_refill;        /* s per TLB miss */
};

extern const struct mm_param cache_level_params[];
extern const struct mm_param cache_params[];

/**
 * cache_cfg_load() - machine.caches: {"levels": [{...}, ...], "memory_bandwidth":
 * ..., "tlb": {...}}.  Levels in order from L1; sizes, lines and page sizes must
 * be powers of two, and size / (line x ways) sets at least one.
 * Returns: 0, or -1 with @e naming the JSON path under @path.
 */
int cache_cfg_load(struct cache_cfg *c, json_t *obj, const char *file, const char *path,
		   struct mm_err *e);

/** cache_cfg_dump() - Returns: new JSON object of the effective parameters. */
json_t *cache_cfg_dump(const struct cache_cfg *c);

/** cache_params_doc() - print the keys of machine.caches as Markdown tables. */
void cache_params_doc(FILE *out);

/**
 * cache_colors() - Returns: the number of page colours of the largest physically
 * indexed level (size / (ways x @page_size)), 1 when there is none or it is
 * smaller than a page per way.
 */
uint32_t cache_colors(const struct cache_cfg *c, uint64_t page_size);

struct cache_stats {
	uint64_t refs;
	uint64_t hits[CACHE_MAX_LEVELS];    /* served by level i */
	uint64_t mem;                       /* served by memory */
	uint64_t tlb_misses;
	uint64_t writebacks;                /* dirty lines the last level wrote to memory */
};

struct cache_level {
	uint64_t *tag;            /* [sets * ways], MRU first within a set; 0 = invalid */
	uint32_t sets, ways;
	uint32_t ways_shift;      /* log2(ways): ways are a power of two */
	uint32_t line_shift;
	uint64_t set_mask;
	bool virt;
	double lat, fill;         /* seconds */
};

/* Translate virtual page @vpn.  Returns: its pfn, or CACHE_NO_PFN (the reference
 * is then dropped: the caller could not map it). */
typedef uint32_t (*cache_xlate_fn)(void *ctx, uint64_t vpn);

/* A fully associative set with many ways (a TLB of 128 entries): exact LRU as a
 * doubly linked list, found through an open-addressing hash of the keys. */
struct cache_fa {
	uint32_t n, used, head, tail;
	uint64_t *key;            /* [n] */
	uint32_t *prev, *next;    /* [n] */
	int32_t *slot;            /* [hmask + 1]: entry index or -1 */
	uint32_t hmask;
};

struct cache_sim {
	int n;
	struct cache_level lv[CACHE_MAX_LEVELS];
	double mem_lat, mem_fill, issue, tlb_refill;
	uint32_t page_shift;
	/* TLB: [tsets * tways] vpn + 1, MRU first */
	uint64_t *tlb;
	uint32_t tsets, tways;
	struct cache_fa *tlb_fa;  /* instead of tlb when fully associative with > 8 ways */
	/* the last translation (a page change re-walks the TLB) */
	uint64_t last_vpn;
	uint64_t last_base;       /* pfn << page_shift */
	uint64_t prev_vpn, prev_base;   /* the one before (butterflies alternate two pages) */
	struct cache_stats st;
};

/**
 * cache_sim_init() - an empty (cold) hierarchy for one CPU of @clock Hz with pages
 * of @page_size bytes.  Returns: 0, or -1 if memory ran out (@e set).
 */
int cache_sim_init(struct cache_sim *s, const struct cache_cfg *c, double clock,
		   uint64_t page_size, struct mm_err *e);

/** cache_sim_fini() - free the arrays. */
void cache_sim_fini(struct cache_sim *s);

/** cache_flush() - invalidate every line and TLB entry (a cold cache). */
void cache_flush(struct cache_sim *s);

/* Tag a virtual address passed to cache_run() as a store (bit 63: never a user address). */
#define CACHE_WRITE (1ull << 63)
/* Tag an address as physical (bit 62): a kernel reference through the direct map
 * (the Alpha's KSEG, x86's lowmem map), so no TLB look-up and no translation; a
 * virtually indexed level indexes it with the same bits (the direct map keeps the
 * offset within the cache's way). */
#define CACHE_PHYS (1ull << 62)

enum cache_run_flags {
	CACHE_DEPENDENT = 1u << 0,   /* each load waits for the previous one (pointer chase) */
};

/**
 * cache_run() - simulate references to virtual addresses @va[0..n), each a load,
 * or a store when tagged CACHE_WRITE.
 * Returns: the seconds they take (see the file comment).
 */
double cache_run(struct cache_sim *s, const uint64_t *va, size_t n, unsigned flags,
		 cache_xlate_fn xlate, void *ctx);

/**
 * cache_copy() - a copy of @n bytes from @src to @dst (each a virtual address of
 * the translated space, or a physical one tagged CACHE_PHYS) as a loop of 8-byte
 * loads and stores, the way copy_to_user / copy_from_user and memcpy move data:
 * per line of the first level one load of the source and one store of the
 * destination go through the hierarchy (cache_run, independent references); the
 * line's other words hit the first level and cost their issue cycle each.  The
 * per-line walk steps both addresses together from their starts, so buffers whose
 * offsets differ within a line are approximated by the source's lines.
 * Returns: the seconds the copy takes.
 */
double cache_copy(struct cache_sim *s, uint64_t dst, uint64_t src, uint64_t n,
		  cache_xlate_fn xlate, void *ctx);

/**
 * cache_read() - a read of every 8-byte word of @n bytes at @src (lmbench's
 * bread(), a loop summing longs): per first-level line one load through the
 * hierarchy, the line's other words first-level hits at their issue cycle, as
 * cache_copy() without the stores.
 * Returns: the seconds the read takes.
 */
double cache_read(struct cache_sim *s, uint64_t src, uint64_t n, cache_xlate_fn xlate, void *ctx);

/** cache_stats_json() - Returns: new JSON object of the counters of @s. */
json_t *cache_stats_json(const struct cache_sim *s);

#endif
