/*
 * lru2q_harness.h - the harness of test_lru2q.c and test_lru2q_scan.c: the
 * 2.6.15 two-list LRU (models/reclaim/lru2q.c) on a small
 * simulated kernel, white-box: the module's file is included so the tests can call
 * refill_inactive_zone(), shrink_cache() and shrink_zone() one at a time and read
 * the lists.
 *
 * Harness (as tests/test_clockpro.c): each test runs in a forked child that starts
 * SimGrid (the core takes lru_lock through SimGrid and pays pending cycles through
 * the actor), builds a kernel on a "flat" machine (one Normal zone, 4 MiB, 2 CPUs,
 * min_free_kbytes 16) and runs its body as an actor on cpu0; kswapd sleeps on cpu1
 * unless an allocation wakes it.  The child reports the first failed check through a
 * pipe.  After every step the invariants are checked: mm_check() (every page in one
 * state, PG_lru pages == nr_active + nr_inactive), both lists walked both ways
 * (PG_lru, PG_active matching the list, zone, sizes == nr and the zone counters),
 * pages in the per-CPU pagevecs off the LRU and holding the pagevec's reference.
 *
 * Each case is small enough to work out by hand from kernel-mechanisms.md 1.2 and
 * asserts exact list contents in order (head first), flags, zone counters, vm
 * events and lru_lock acquisitions.  The last case reads a file 1.1 x memory in a
 * loop and asserts the exact FIFO behaviour of the LRU on it.
 */
#ifndef MMEMU_LRU2Q_HARNESS_H
#define MMEMU_LRU2Q_HARNESS_H

#include "models/reclaim/lru2q.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "models/hw/disk.h"
#include "models/mm/kernel.h"

#define MSG 1000

#include "tests/kharness.h"

/* exact list contents, head first: LIST_IS(ACTIVE, a, b, c) */
enum { INACTIVE = 0, ACTIVE = 1 };
#define PFNS(...) ((const uint32_t[]){ __VA_ARGS__ })
#define NPFNS(...) (sizeof(PFNS(__VA_ARGS__)) / sizeof(uint32_t))
#define LIST_IS(which, ...)                                                               \
	do {                                                                              \
		if (list_is(x, __LINE__, which, PFNS(__VA_ARGS__), (unsigned)NPFNS(__VA_ARGS__))) \
			return -1;                                                        \
	} while (0)
#define LIST_ARR(which, arr, n)                                                           \
	do {                                                                              \
		if (list_is(x, __LINE__, which, arr, n))                                  \
			return -1;                                                        \
	} while (0)
#define LIST_EMPTY(which) LIST_ARR(which, NULL, 0)

static const char *const MACHINE_SMALL __attribute__((unused)) =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_LRU2Q __attribute__((unused)) = "{\"reclaim\":\"lru2q\"}";

static inline struct zone *zn(struct tctx *x)
{
	return &x->k.phys.zones[MM_ZONE_NORMAL];
}
static inline struct lru2q_zone *zsn(struct tctx *x)
{
	return zstate(zn(x));
}
static inline struct mm_spinlock *lock(struct tctx *x)
{
	return &x->k.lru_lock[MM_ZONE_NORMAL];
}
static inline uint64_t ev(struct tctx *x, enum mm_vm_event e)
{
	return x->s.vs.ev[e];
}
static inline bool flag(struct tctx *x, uint32_t pfn, enum pg_flag f)
{
	return page_test(kh_page(x, pfn), f);
}

/* "[a b c]" of up to 48 pfns of @l (head first) into @buf. */
static inline void fmt_list(struct tctx *x, const struct plist *l, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "[");
	unsigned i = 0;
	for (uint32_t pfn = l->head; pfn != PFN_NONE && o < len; pfn = kh_page(x, pfn)->lru_next, i++) {
		if (i == 48) {
			o += (size_t)snprintf(buf + o, len - o, " ...");
			break;
		}
		o += (size_t)snprintf(buf + o, len - o, i ? " %u" : "%u", pfn);
	}
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

/* Is the active (@which = ACTIVE) or inactive list exactly @exp[0..n), head first? */
static inline int list_is(struct tctx *x, int line, int which, const uint32_t *exp, unsigned n)
{
	struct lru2q_zone *zs = zsn(x);
	const struct plist *l = which == ACTIVE ? &zs->active : &zs->inactive;
	uint32_t zcount = which == ACTIVE ? zn(x)->nr_active : zn(x)->nr_inactive;
	unsigned i = 0;
	bool ok = l->nr == n && zcount == n;
	for (uint32_t pfn = l->head; ok && pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_next, i++)
		ok = i < n && pfn == exp[i];
	if (ok && i == n)
		return 0;
	char got[400], want[400];
	fmt_list(x, l, got, sizeof got);
	size_t o = (size_t)snprintf(want, sizeof want, "[");
	for (unsigned j = 0; j < n && o < sizeof want; j++)
		o += (size_t)snprintf(want + o, sizeof want - o, j ? " %u" : "%u", exp[j]);
	if (o < sizeof want)
		snprintf(want + o, sizeof want - o, "]");
	snprintf(x->msg, MSG, "%s:%d: %s list %s (nr %u, zone count %u), expected %s", __FILE__,
		 line, which == ACTIVE ? "active" : "inactive", got, l->nr, zcount, want);
	return -1;
}

/* The invariants.  Returns: 0, or -1 with x->msg set. */
static inline int inv(struct tctx *x)
{
	if (kh_kernel_ok(x))
		return -1;
	for (int zi = 0; zi < MM_NR_ZONES; zi++) {
		struct zone *z = &x->k.phys.zones[zi];
		struct lru2q_zone *zs = zstate(z);
		for (int a = 0; a < 2; a++) {
			const struct plist *l = a ? &zs->active : &zs->inactive;
			uint32_t n = 0, prev = PFN_NONE;
			for (uint32_t pfn = l->head; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_next) {
				struct page *p = kh_page(x, pfn);
				if (++n > z->spanned || p->lru_prev != prev || p->zone != zi ||
				    !page_test(p, PG_lru) || page_test(p, PG_active) != a ||
				    p->count < 1) {
					snprintf(x->msg, MSG,
						 "zone %s %s list: pfn %u flags 0x%x zone %u count %d "
						 "back link %u (expected %u)", z->name,
						 a ? "active" : "inactive", pfn, p->flags, p->zone, p->count,
						 p->lru_prev, prev);
					return -1;
				}
				prev = pfn;
			}
			uint32_t zc = a ? z->nr_active : z->nr_inactive;
			if (prev != l->tail || n != l->nr || n != zc) {
				snprintf(x->msg, MSG,
					 "zone %s %s list: walked %u, nr %u, zone counter %u, tail %u/%u",
					 z->name, a ? "active" : "inactive", n, l->nr, zc, prev, l->tail);
				return -1;
			}
		}
	}
	for (uint32_t c = 0; c < x->k.phys.ncpus; c++) {
		const struct pagevec *pv = &x->k.lru_add_pvec[c];
		if (pv->nr >= PAGEVEC_SIZE) {
			snprintf(x->msg, MSG, "cpu %u pagevec holds %u pages", c, pv->nr);
			return -1;
		}
		for (unsigned i = 0; i < pv->nr; i++) {
			struct page *p = kh_page(x, pv->pfn[i]);
			if (page_test(p, PG_lru) || p->count < 2) {
				snprintf(x->msg, MSG, "cpu %u pagevec[%u]: pfn %u flags 0x%x count %d", c,
					 i, pv->pfn[i], p->flags, p->count);
				return -1;
			}
		}
	}
	return 0;
}

/* A page-cache page of @f at @idx (count 1, PG_uptodate), not on the LRU yet. */
static inline uint32_t new_page(struct tctx *x, struct mm_file *f, uint32_t idx)
{
	struct mm_kernel *k = &x->k;
	uint32_t pfn = mm_page_alloc(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL);
	if (pfn == PFN_NONE)
		return pfn;
	struct page *p = kh_page(x, pfn);
	p->mapping = f->id;
	p->index = idx;
	page_set(p, PG_uptodate);
	f->pfn[idx] = pfn;
	f->nr_cached++;
	k->pagecache_pages++;
	return pfn;
}

/* new_page(), lru_cache_add with @hint, drained. */
static inline uint32_t add_page(struct tctx *x, struct mm_file *f, uint32_t idx, int hint)
{
	uint32_t pfn = new_page(x, f, idx);
	if (pfn == PFN_NONE)
		return pfn;
	mm_lru_cache_add(&x->k, &x->task, pfn, hint);
	mm_lru_add_drain(&x->k, &x->task);
	return pfn;
}

static inline void touch(struct tctx *x, uint32_t pfn)
{
	mm_mark_page_accessed(&x->k, &x->task, pfn);
}

static inline struct scan_control sc0(void)
{
	struct scan_control sc = { .priority = MM_DEF_PRIORITY, .swap_cluster_max = MM_SWAP_CLUSTER_MAX,
				   .nr_to_reclaim = MM_SWAP_CLUSTER_MAX, .may_writepage = true,
				   .may_swap = true, .gfp = MM_GFP_KERNEL };
	return sc;
}

/* ------------------------------------------------------------------ child */


/* ------------------------------------------------------------------ bodies */

#endif
