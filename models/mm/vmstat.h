/*
 * vmstat.h - vm event counters, as /proc/vmstat names them.
 *
 * An X-macro list keeps the enum and the names table in sync.  Counters are plain
 * uint64_t arrays owned by a simulation (no atomics: one simulation is one host
 * thread); the results writer emits every non-module counter by name.
 */
#ifndef MMEMU_VMSTAT_H
#define MMEMU_VMSTAT_H

#include <stdint.h>

#define MM_VM_EVENTS(X)                                                               \
	X(PGPGIN, "pgpgin")                 /* KiB read from disk */                  \
	X(PGPGOUT, "pgpgout")               /* KiB written to disk */                 \
	X(PSWPIN, "pswpin")                 /* pages swapped in */                    \
	X(PSWPOUT, "pswpout")               /* pages swapped out */                   \
	X(PGALLOC, "pgalloc")               /* pages allocated (all orders, in pages) */ \
	X(PGFREE, "pgfree")                 /* pages freed */                         \
	X(PGACTIVATE, "pgactivate")         /* inactive -> active / cold -> hot */    \
	X(PGDEACTIVATE, "pgdeactivate")     /* active -> inactive / hot -> cold */    \
	X(PGFAULT, "pgfault")               /* page faults (or replay misses) */      \
	X(PGMAJFAULT, "pgmajfault")         /* faults that went to disk */            \
	X(PGREFILL, "pgrefill")             /* active-list pages scanned */           \
	X(PGSTEAL, "pgsteal")               /* pages reclaimed */                     \
	X(PGSCAN_KSWAPD, "pgscan_kswapd")   /* inactive pages scanned by kswapd */    \
	X(PGSCAN_DIRECT, "pgscan_direct")   /* inactive pages scanned by direct reclaim */ \
	X(PGINODESTEAL, "pginodesteal")                                               \
	X(PAGEOUTRUN, "pageoutrun")         /* kswapd balance_pgdat passes */         \
	X(ALLOCSTALL, "allocstall")         /* direct reclaim entries */              \
	X(PGROTATED, "pgrotated")                                                     \
	X(KSWAPD_WAKEUP, "kswapd_wakeup")                                             \
	X(OOM_RETRY, "oom_retry")           /* allocations restarted: not yet OOM */  \
	X(PGREFAULT, "pgrefault")           /* faults on a recently evicted page */   \
	X(REF_HIT, "ref_hit")               /* references that found their page resident */ \
	X(REF_MISS, "ref_miss")             /* references that did not */             \
	X(POLICY_ADD, "policy_add")         /* reclaim-module calls, counted by wrappers */ \
	X(POLICY_ACCESS, "policy_access")                                             \
	X(POLICY_REMOVE, "policy_remove")                                             \
	X(POLICY_EVICT, "policy_evict")                                               \
	X(POLICY_SHRINK, "policy_shrink")                                             \
	X(POLICY_REFAULT, "policy_refault")                                           \
	X(ALLOC_CALLS, "alloc_calls")       /* alloc-module calls */                  \
	X(FREE_CALLS, "free_calls")                                                   \
	X(KMAP_CALLS, "kmap_calls")                                                   \
	X(COLOR_CALLS, "color_calls")

enum mm_vm_event {
#define MM_X_ENUM(id, name) MM_##id,
	MM_VM_EVENTS(MM_X_ENUM)
#undef MM_X_ENUM
	MM_NR_VM_EVENTS
};

extern const char *const mm_vm_event_names[MM_NR_VM_EVENTS];

struct mm_vmstat {
	uint64_t ev[MM_NR_VM_EVENTS];
};

static inline void mm_count(struct mm_vmstat *vs, enum mm_vm_event e, uint64_t n)
{
	if (vs)
		vs->ev[e] += n;
}

#endif
