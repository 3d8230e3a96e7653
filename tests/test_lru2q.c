/*
 * test_lru2q.c - the 2.6.15 two-list LRU (models/reclaim/lru2q.c) on a small
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
#include "models/reclaim/lru2q.c"

#define KH_NAME "test_lru2q"

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

#include "models/disk.h"
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

static const char *const MACHINE_SMALL =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_LRU2Q = "{\"reclaim\":\"lru2q\"}";

static struct zone *zn(struct tctx *x)
{
	return &x->k.phys.zones[MM_ZONE_NORMAL];
}
static struct lru2q_zone *zsn(struct tctx *x)
{
	return zstate(zn(x));
}
static struct mm_spinlock *lock(struct tctx *x)
{
	return &x->k.lru_lock[MM_ZONE_NORMAL];
}
static uint64_t ev(struct tctx *x, enum mm_vm_event e)
{
	return x->s.vs.ev[e];
}
static bool flag(struct tctx *x, uint32_t pfn, enum pg_flag f)
{
	return page_test(kh_page(x, pfn), f);
}

/* "[a b c]" of up to 48 pfns of @l (head first) into @buf. */
static void fmt_list(struct tctx *x, const struct plist *l, char *buf, size_t len)
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
static int list_is(struct tctx *x, int line, int which, const uint32_t *exp, unsigned n)
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
static int inv(struct tctx *x)
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
static uint32_t new_page(struct tctx *x, struct mm_file *f, uint32_t idx)
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
static uint32_t add_page(struct tctx *x, struct mm_file *f, uint32_t idx, int hint)
{
	uint32_t pfn = new_page(x, f, idx);
	if (pfn == PFN_NONE)
		return pfn;
	mm_lru_cache_add(&x->k, &x->task, pfn, hint);
	mm_lru_add_drain(&x->k, &x->task);
	return pfn;
}

static void touch(struct tctx *x, uint32_t pfn)
{
	mm_mark_page_accessed(&x->k, &x->task, pfn);
}

static struct scan_control sc0(void)
{
	struct scan_control sc = { .priority = MM_DEF_PRIORITY, .swap_cluster_max = MM_SWAP_CLUSTER_MAX,
				   .nr_to_reclaim = MM_SWAP_CLUSTER_MAX, .may_writepage = true,
				   .may_swap = true, .gfp = MM_GFP_KERNEL };
	return sc;
}

/* ------------------------------------------------------------------ child */


/* ------------------------------------------------------------------ bodies */

/* bad_page(): a page freed twice, or freed while still on an LRU list, is refused
 * (the allocator's bad_free), never linked a second time; the invariant check
 * reports it.  Before mm_pages_free() kept the list flags, the second free put the
 * page on the per-CPU list twice. */
static int b_double_free(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t pfn = mm_page_alloc(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL);
	CHECK(pfn != PFN_NONE);
	uint64_t free0 = kh_free_pages(x);
	mm_page_free(k, &x->task, pfn);
	CHECK_EQ(k->alloc->st.bad_free, 0);
	CHECK(flag(x, pfn, PG_pcp) || flag(x, pfn, PG_buddy));
	mm_page_free(k, &x->task, pfn);
	CHECK_EQ(k->alloc->st.bad_free, 1);
	CHECK_EQ(kh_free_pages(x), free0 + 1);
	struct mm_err e = { "" };
	CHECK(mm_kernel_check(k, &e) != 0);
	CHECK(strstr(e.msg, "bad_page") != NULL);
	k->alloc->st.bad_free = 0;   /* the rest of the state is sound */
	return 0;
}

/* Two tasks of one CPU fill its pagevec while lru_lock is held elsewhere: the first
 * task's drain waits for the lock (a simcall), and the second task, running on the
 * same CPU meanwhile, must find an empty pagevec, not the pages being drained.
 * Before drains took their own copy, the second task appended past the pagevec's
 * end and both drains linked and released the same pages (seed 001's crash in
 * pcp_drain_n).  All 28 pages end on the inactive list once, each with count 1. */
static struct mm_file *pv_file;
static void pv_adder(int argc, char **argv)
{
	struct tctx *x = ctx;
	struct mm_task t;
	uint32_t base = argc > 1 && argv[1][0] == '1' ? PAGEVEC_SIZE : 0;
	mm_task_init(&t, &x->k, 0, "adder");
	sg_actor_set_data(sg_actor_self(), &t);
	for (uint32_t i = 0; i < PAGEVEC_SIZE; i++)
		mm_lru_cache_add(&x->k, &t, pv_file->pfn[base + i], MM_LRU_INACTIVE);
	mm_sync(&t);
}

static int b_pagevec_shared_cpu(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	pv_file = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(pv_file);
	for (uint32_t i = 0; i < 2 * PAGEVEC_SIZE; i++)
		CHECK(new_page(x, pv_file, i) != PFN_NONE);
	struct mm_task holder;
	mm_task_init(&holder, k, 1, "holder");
	mm_lru_lock(k, &holder, zn(x));
	char *a0[] = { "adder", "0", NULL }, *a1[] = { "adder", "1", NULL };
	sg_actor_create("adder0", sg_host_by_name("cpu0"), pv_adder, 2, a0);
	sg_actor_create("adder1", sg_host_by_name("cpu0"), pv_adder, 2, a1);
	mm_sleep(&x->task, 0.001, NULL);   /* both drains wait for the lock */
	CHECK_EQ(zn(x)->nr_inactive, 0);
	CHECK_EQ(k->lru_add_pvec[0].nr, 0);   /* each drain took its own 14 */
	mm_lru_unlock(k, &holder, zn(x));
	mm_sync(&holder);
	mm_sleep(&x->task, 0.001, NULL);
	INV();
	CHECK_EQ(k->lru_add_pvec[0].nr, 0);
	CHECK_EQ(zn(x)->nr_inactive, 2 * PAGEVEC_SIZE);
	CHECK_EQ(ev(x, MM_POLICY_ADD), 2 * PAGEVEC_SIZE);
	for (uint32_t i = 0; i < 2 * PAGEVEC_SIZE; i++) {
		CHECK(flag(x, pv_file->pfn[i], PG_lru));
		CHECK_EQ(kh_page(x, pv_file->pfn[i])->count, 1);
	}
	return 0;
}

/* lru_cache_add: pages wait in the per-CPU pagevec (off the LRU, holding an extra
 * reference) until the 14th add drains it under one lru_lock acquisition; they then
 * sit at the inactive head in insertion order (the last added at the head).  The
 * active hint goes to the active list; a drain only empties the caller's pagevec. */
static int b_pagevec(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	struct pagevec *pv0 = &k->lru_add_pvec[0], *pv1 = &k->lru_add_pvec[1];
	uint32_t p[PAGEVEC_SIZE];
	for (uint32_t i = 0; i < PAGEVEC_SIZE; i++) {
		p[i] = new_page(x, f, i);
		CHECK(p[i] != PFN_NONE);
		CHECK_EQ(kh_page(x, p[i])->count, 1);
	}
	INV();
	uint64_t acq = lock(x)->acquisitions;
	for (uint32_t i = 0; i < PAGEVEC_SIZE - 1; i++) {
		mm_lru_cache_add(k, &x->task, p[i], MM_LRU_USE_ONCE);
		INV();
		CHECK_EQ(pv0->nr, i + 1);
		CHECK(!flag(x, p[i], PG_lru));
		CHECK_EQ(kh_page(x, p[i])->count, 2);   /* page_cache_get of the pagevec */
		CHECK_EQ(zn(x)->nr_inactive, 0);
		CHECK_EQ(zn(x)->nr_active, 0);
	}
	CHECK_EQ(lock(x)->acquisitions, acq);
	CHECK_EQ(ev(x, MM_POLICY_ADD), 0);
	/* the 14th add drains: one lock round for the one zone */
	mm_lru_cache_add(k, &x->task, p[13], MM_LRU_INACTIVE);
	INV();
	CHECK_EQ(pv0->nr, 0);
	CHECK_EQ(lock(x)->acquisitions, acq + 1);
	CHECK_EQ(ev(x, MM_POLICY_ADD), 14);
	LIST_IS(INACTIVE, p[13], p[12], p[11], p[10], p[9], p[8], p[7], p[6], p[5], p[4], p[3], p[2],
		p[1], p[0]);
	LIST_EMPTY(ACTIVE);
	for (int i = 0; i < PAGEVEC_SIZE; i++) {
		CHECK(flag(x, p[i], PG_lru) && !flag(x, p[i], PG_active));
		CHECK(!flag(x, p[i], PG_referenced));
		CHECK_EQ(kh_page(x, p[i])->count, 1);   /* release_pages dropped the extra ref */
	}
	/* an empty drain takes no lock */
	mm_lru_add_drain(k, &x->task);
	CHECK_EQ(lock(x)->acquisitions, acq + 1);

	/* the active hint (anonymous pages from a fault) goes to the active list */
	uint32_t a[3];
	for (uint32_t i = 0; i < 3; i++) {
		a[i] = new_page(x, f, 20 + i);
		CHECK(a[i] != PFN_NONE);
		mm_lru_cache_add(k, &x->task, a[i], MM_LRU_ACTIVE);
		INV();
		CHECK(!flag(x, a[i], PG_lru) && !flag(x, a[i], PG_active));
	}
	CHECK_EQ(zn(x)->nr_active, 0);
	mm_lru_add_drain(k, &x->task);
	INV();
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	LIST_IS(ACTIVE, a[2], a[1], a[0]);
	CHECK_EQ(zn(x)->nr_inactive, 14);
	for (int i = 0; i < 3; i++)
		CHECK(flag(x, a[i], PG_lru) && flag(x, a[i], PG_active));
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);   /* an insertion is not an activation */

	/* lru_add_drain() drains only the calling CPU's pagevec */
	struct mm_task t1;
	mm_task_init(&t1, k, 1, "cpu1");
	uint32_t b = new_page(x, f, 30), c = new_page(x, f, 31);
	CHECK(b != PFN_NONE && c != PFN_NONE);
	mm_lru_cache_add(k, &t1, b, MM_LRU_INACTIVE);
	mm_lru_cache_add(k, &x->task, c, MM_LRU_INACTIVE);
	INV();
	CHECK_EQ(pv1->nr, 1);
	CHECK_EQ(pv0->nr, 1);
	uint64_t bounces = lock(x)->bounces;
	mm_lru_add_drain(k, &x->task);   /* cpu0: c only */
	INV();
	CHECK(!flag(x, b, PG_lru) && flag(x, c, PG_lru));
	CHECK_EQ(pv1->nr, 1);
	CHECK_EQ(lock(x)->bounces, bounces);
	mm_lru_add_drain(k, &t1);        /* cpu1: b; the lock line comes from cpu0 */
	INV();
	CHECK_EQ(pv1->nr, 0);
	CHECK_EQ(lock(x)->acquisitions, acq + 4);
	CHECK_EQ(lock(x)->bounces, bounces + 1);
	LIST_IS(INACTIVE, b, c, p[13], p[12], p[11], p[10], p[9], p[8], p[7], p[6], p[5], p[4], p[3],
		p[2], p[1], p[0]);
	mm_sync(&t1);
	return 0;
}

/* mark_page_accessed: the first touch only sets PG_referenced; the second touch of
 * an inactive page on the LRU takes lru_lock once, moves it to the active head,
 * clears PG_referenced and counts PGACTIVATE; touching an active page sets
 * PG_referenced; a page still in the pagevec (no PG_lru) is not activated. */
static int b_mark(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[4];
	for (uint32_t i = 0; i < 4; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	INV();
	LIST_IS(INACTIVE, p[3], p[2], p[1], p[0]);
	uint64_t acq = lock(x)->acquisitions;

	touch(x, p[1]);   /* 1st: referenced */
	INV();
	CHECK(flag(x, p[1], PG_referenced) && !flag(x, p[1], PG_active) && flag(x, p[1], PG_lru));
	LIST_IS(INACTIVE, p[3], p[2], p[1], p[0]);
	LIST_EMPTY(ACTIVE);
	CHECK_EQ(lock(x)->acquisitions, acq);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);

	touch(x, p[1]);   /* 2nd: activate_page() */
	INV();
	CHECK(!flag(x, p[1], PG_referenced) && flag(x, p[1], PG_active) && flag(x, p[1], PG_lru));
	LIST_IS(INACTIVE, p[3], p[2], p[0]);
	LIST_IS(ACTIVE, p[1]);
	CHECK_EQ(lock(x)->acquisitions, acq + 1);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 1);

	touch(x, p[1]);   /* active, unreferenced: PG_referenced, no move, no lock */
	INV();
	CHECK(flag(x, p[1], PG_referenced) && flag(x, p[1], PG_active));
	LIST_IS(ACTIVE, p[1]);
	CHECK_EQ(lock(x)->acquisitions, acq + 1);

	touch(x, p[1]);   /* active, referenced: nothing */
	INV();
	CHECK(flag(x, p[1], PG_referenced) && flag(x, p[1], PG_active));
	LIST_IS(ACTIVE, p[1]);
	CHECK_EQ(lock(x)->acquisitions, acq + 1);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 1);

	touch(x, p[2]);
	touch(x, p[2]);   /* the newest activation is at the active head */
	INV();
	LIST_IS(ACTIVE, p[2], p[1]);
	LIST_IS(INACTIVE, p[3], p[0]);
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 2);

	/* a page in the pagevec: referenced, but activate needs PG_lru */
	uint32_t q = new_page(x, f, 10);
	CHECK(q != PFN_NONE);
	mm_lru_cache_add(k, &x->task, q, MM_LRU_USE_ONCE);
	touch(x, q);
	touch(x, q);
	INV();
	CHECK(flag(x, q, PG_referenced) && !flag(x, q, PG_lru) && !flag(x, q, PG_active));
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 2);
	mm_lru_add_drain(k, &x->task);   /* it keeps PG_referenced on the LRU */
	INV();
	CHECK_EQ(lock(x)->acquisitions, acq + 3);
	LIST_IS(INACTIVE, q, p[3], p[0]);
	CHECK(flag(x, q, PG_referenced));
	touch(x, q);      /* now referenced and on the LRU: one touch activates */
	INV();
	LIST_IS(ACTIVE, q, p[2], p[1]);
	LIST_IS(INACTIVE, p[3], p[0]);
	CHECK(!flag(x, q, PG_referenced) && flag(x, q, PG_active));
	CHECK_EQ(lock(x)->acquisitions, acq + 4);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 3);
	CHECK_EQ(ev(x, MM_POLICY_ACCESS), 9);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);
	return 0;
}

/* vm.batch_mark_accessed (kernel-mechanisms.md 2.1): every call takes a reference
 * and queues the page on this CPU's pagevec; the 14th call drains it under one
 * lru_lock acquisition, applying the 2.6.10 state machine to each page in order,
 * then drops the references. */
static int b_batched(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	CHECK(k->cfg.batch_mark_accessed);
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[20];
	for (uint32_t i = 0; i < 20; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	INV();
	uint64_t acq = lock(x)->acquisitions;

	for (int i = 0; i < 13; i++)
		touch(x, p[i]);
	/* deferred: nothing changed yet, but each queued page holds a reference */
	for (int i = 0; i < 13; i++) {
		CHECK(!flag(x, p[i], PG_referenced));
		CHECK_EQ(kh_page(x, p[i])->count, 2);
	}
	CHECK_EQ(lock(x)->acquisitions, acq);
	touch(x, p[13]);   /* 14th: the drain */
	INV();
	for (int i = 0; i < 14; i++) {
		CHECK(flag(x, p[i], PG_referenced) && !flag(x, p[i], PG_active));
		CHECK_EQ(kh_page(x, p[i])->count, 1);
	}
	CHECK(!flag(x, p[14], PG_referenced));
	CHECK_EQ(lock(x)->acquisitions, acq + 1);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);

	/* the same 14 again: all referenced and inactive, so all activated in one batch,
	 * each at the active head in turn */
	for (int i = 0; i < 14; i++)
		touch(x, p[i]);
	INV();
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 14);
	LIST_IS(ACTIVE, p[13], p[12], p[11], p[10], p[9], p[8], p[7], p[6], p[5], p[4], p[3], p[2],
		p[1], p[0]);
	LIST_IS(INACTIVE, p[19], p[18], p[17], p[16], p[15], p[14]);
	for (int i = 0; i < 14; i++)
		CHECK(!flag(x, p[i], PG_referenced));

	/* a page queued twice in one batch: the first entry sets the bit, the second
	 * activates, as two stock calls would (12 active pages fill the batch) */
	touch(x, p[14]);
	touch(x, p[14]);
	for (int i = 0; i < 12; i++)
		touch(x, p[i]);
	INV();
	CHECK_EQ(lock(x)->acquisitions, acq + 3);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 15);
	CHECK(flag(x, p[14], PG_active) && !flag(x, p[14], PG_referenced));
	for (int i = 0; i < 12; i++)
		CHECK(flag(x, p[i], PG_referenced) && flag(x, p[i], PG_active));
	CHECK_EQ(ev(x, MM_POLICY_ACCESS), 42);
	return 0;
}

/* The write path and writeback for reclaim: write() dirties pages (and marks them
 * accessed); shrink_list keeps a referenced dirty page, starts pageout() of an
 * unreferenced one (async write, PG_writeback + PG_reclaim, kept), and at the end
 * of the write the page is clean and rotated to the inactive tail, where the next
 * scan frees it.  A congestion wait ends at the write completion. */
static int b_writeback(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "w", 1 << 20, 0, 0);
	CHECK(f);
	struct mm_read_stats st = { 0 };
	CHECK_EQ(mm_file_write(k, &x->task, f, 0, 4 * ps, &st), 4 * ps);   /* whole pages */
	CHECK_EQ(st.misses, 4);
	mm_lru_add_drain(k, &x->task);
	INV();
	uint32_t p[4];
	for (int i = 0; i < 4; i++) {
		p[i] = f->pfn[i];
		CHECK(p[i] != PFN_NONE);
		CHECK(flag(x, p[i], PG_dirty) && flag(x, p[i], PG_referenced) && flag(x, p[i], PG_uptodate));
	}
	CHECK_EQ(k->nr_dirty, 4);
	CHECK_EQ(ev(x, MM_PGPGIN), 0);     /* whole pages are not read first */
	LIST_IS(INACTIVE, p[3], p[2], p[1], p[0]);

	/* 1st scan: referenced dirty pages stay (their reference is used up) */
	struct scan_control sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 4);
	INV();
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(ev(x, MM_PGPGOUT), 0);
	for (int i = 0; i < 4; i++)
		CHECK(flag(x, p[i], PG_dirty) && !flag(x, p[i], PG_referenced));

	/* 2nd scan: pageout of all four, kept under writeback */
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 4);
	INV();
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(ev(x, MM_PGPGOUT), 4 * ps / 1024);
	CHECK_EQ(k->nr_dirty, 0);
	CHECK_EQ(k->writeback_inflight, 4);
	for (int i = 0; i < 4; i++) {
		CHECK(!flag(x, p[i], PG_dirty) && flag(x, p[i], PG_writeback) && flag(x, p[i], PG_reclaim));
		CHECK_EQ(kh_page(x, p[i])->count, 2);   /* page cache + the I/O */
	}
	/* a scan meanwhile keeps pages under writeback */
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 4);
	CHECK_EQ(sc.nr_reclaimed, 0);

	/* a congestion wait returns at the first completion, long before HZ/10 */
	double t0 = simgrid_get_clock();
	mm_congestion_wait(k, &x->task, 0.1);
	double waited = simgrid_get_clock() - t0;
	CHECK(waited > 0 && waited < 0.05);
	sg_actor_sleep_for(1.0);            /* the rest complete */
	CHECK_EQ(k->writeback_inflight, 0);
	CHECK_EQ(ev(x, MM_PGROTATED), 4);
	const struct disk_stats *ds = disk_get_stats(sim_disk(&x->s.s, 0));
	CHECK_EQ(ds->writes, 4);
	for (int i = 0; i < 4; i++) {
		CHECK(!flag(x, p[i], PG_writeback) && !flag(x, p[i], PG_reclaim));
		CHECK_EQ(kh_page(x, p[i])->count, 1);
	}
	INV();
	/* clean pages at the inactive tail: the next scan frees them */
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 4);
	INV();
	CHECK_EQ(sc.nr_reclaimed, 4);
	CHECK_EQ(f->nr_cached, 0);

	/* a partial write of an uncached page reads it first */
	uint64_t in0 = ev(x, MM_PGPGIN);
	CHECK_EQ(mm_file_write(k, &x->task, f, 10 * ps + 100, 200, &st), 200);
	CHECK_EQ(ev(x, MM_PGPGIN) - in0, ps / 1024);
	CHECK(flag(x, f->pfn[10], PG_dirty));
	CHECK_EQ(k->nr_dirty, 1);
	return 0;
}

/* refill_inactive_zone: up to N pages from the active tail; unmapped page cache
 * goes to the inactive head whatever its PG_referenced (which it keeps), in the
 * order it was on the active list. */
static int b_refill(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t a[40], exp[40];
	for (uint32_t i = 0; i < 40; i++)
		CHECK((a[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
	for (int i = 0; i < 10; i++)
		touch(x, a[i]);   /* active: sets PG_referenced */
	INV();
	for (int i = 0; i < 40; i++)
		exp[i] = a[39 - i];
	LIST_ARR(ACTIVE, exp, 40);
	for (int i = 0; i < 10; i++)
		CHECK(flag(x, a[i], PG_referenced));
	CHECK_EQ(zn(x)->pages_scanned, 0);
	uint64_t acq = lock(x)->acquisitions;

	struct scan_control sc = sc0();
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_ARR(ACTIVE, exp, 8);           /* a39 .. a32 */
	LIST_ARR(INACTIVE, exp + 8, 32);    /* a31 .. a0 */
	for (int i = 0; i < 32; i++) {
		CHECK(!flag(x, a[i], PG_active) && flag(x, a[i], PG_lru));
		CHECK_EQ(flag(x, a[i], PG_referenced), i < 10);
	}
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 32);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
	CHECK_EQ(zn(x)->pages_scanned, 32);
	CHECK_EQ(lock(x)->acquisitions, acq + 4);   /* isolate; put back, dropping the lock after 14 and 28 pages */
	CHECK_EQ(sc.nr_scanned, 0);                 /* only shrink_list counts scans */

	/* asking for more than the list holds takes what there is */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_EMPTY(ACTIVE);
	LIST_ARR(INACTIVE, exp, 40);
	CHECK_EQ(ev(x, MM_PGREFILL), 40);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 40);
	CHECK_EQ(zn(x)->pages_scanned, 40);

	/* an empty active list: nothing */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_ARR(INACTIVE, exp, 40);
	CHECK_EQ(ev(x, MM_PGREFILL), 40);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 40);
	return 0;
}

/* refill_inactive_zone with mapped pages: they stay active unless reclaim_mapped
 * (swap_tendency = mapped_ratio/2 + (100 >> prev_priority) + swappiness >= 100), and
 * then only if page_referenced() finds no reference.  page_referenced() is not
 * called when !reclaim_mapped, so PG_referenced survives. */
static int b_refill_mapped(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t m[4];
	for (uint32_t i = 0; i < 4; i++) {
		CHECK((m[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
		kh_page(x, m[i])->mapcount = 1;
	}
	touch(x, m[1]);
	touch(x, m[3]);
	INV();
	CHECK_EQ(k->cfg.swappiness, 60);
	CHECK_EQ(zn(x)->prev_priority, MM_DEF_PRIORITY);
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);

	/* distress 0: 0 + 0 + 60 < 100 */
	struct scan_control sc = sc0();
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);
	LIST_EMPTY(INACTIVE);
	CHECK(flag(x, m[1], PG_referenced) && flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 4);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);

	/* prev_priority 2: distress 25, 85 < 100: still kept */
	zn(x)->prev_priority = 2;
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[2], m[1], m[0]);
	CHECK(flag(x, m[1], PG_referenced) && flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 8);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);

	/* prev_priority 1: distress 50, 110 >= 100: unreferenced mapped pages go */
	zn(x)->prev_priority = 1;
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_IS(ACTIVE, m[3], m[1]);
	LIST_IS(INACTIVE, m[2], m[0]);
	CHECK(!flag(x, m[1], PG_referenced) && !flag(x, m[3], PG_referenced));
	CHECK_EQ(ev(x, MM_PGREFILL), 12);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 2);

	/* the next pass: m1, m3 were referenced once and it was consumed */
	refill_inactive_zone(k, &x->task, zn(x), &sc, 32);
	INV();
	LIST_EMPTY(ACTIVE);
	LIST_IS(INACTIVE, m[3], m[1], m[2], m[0]);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 4);
	for (int i = 0; i < 4; i++)
		kh_page(x, m[i])->mapcount = 0;
	zn(x)->prev_priority = MM_DEF_PRIORITY;
	return 0;
}

/* shrink_zone's nr_scan accumulators: each call adds (size >> priority) + 1 and a
 * list is scanned only once its accumulator reaches SWAP_CLUSTER_MAX (32).  On a
 * 40 + 40 page zone at priority 12 the first 31 calls only accumulate; the 32nd
 * refills exactly 32 and shrinks exactly 32.  At priority 0 the inactive budget of
 * 41 stops after the first 32 reclaimed (nr_to_reclaim), the rest is dropped. */
static int b_accumulate(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t a[40], in[40], ea[40], ei[40], e2[80];
	for (uint32_t i = 0; i < 40; i++)
		CHECK((a[i] = add_page(x, f, i, MM_LRU_ACTIVE)) != PFN_NONE);
	for (uint32_t i = 0; i < 40; i++)
		CHECK((in[i] = add_page(x, f, 100 + i, MM_LRU_USE_ONCE)) != PFN_NONE);
	for (int i = 0; i < 10; i++)
		touch(x, a[i]);
	INV();
	for (int i = 0; i < 40; i++) {
		ea[i] = a[39 - i];
		ei[i] = in[39 - i];
	}
	LIST_ARR(ACTIVE, ea, 40);
	LIST_ARR(INACTIVE, ei, 40);
	CHECK_EQ(zn(x)->nr_scan_active, 0);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	uint64_t acq = lock(x)->acquisitions;

	for (int call = 1; call <= 31; call++) {
		struct scan_control sc = sc0();
		lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
		CHECK_EQ(zn(x)->nr_scan_active, call);
		CHECK_EQ(zn(x)->nr_scan_inactive, call);
		CHECK_EQ(sc.nr_scanned, 0);
		CHECK_EQ(sc.nr_reclaimed, 0);
	}
	INV();
	LIST_ARR(ACTIVE, ea, 40);
	LIST_ARR(INACTIVE, ei, 40);
	CHECK_EQ(lock(x)->acquisitions, acq);
	CHECK_EQ(ev(x, MM_PGREFILL), 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 0);

	struct scan_control sc = sc0();
	lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
	INV();
	CHECK_EQ(zn(x)->nr_scan_active, 0);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(ev(x, MM_PGDEACTIVATE), 32);
	CHECK_EQ(sc.nr_scanned, 32);
	CHECK_EQ(sc.nr_reclaimed, 32);
	CHECK_EQ(sc.nr_to_reclaim, 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 32);
	/* active a39..a32; inactive: the deactivated a31..a0 before the old i39..i32 */
	LIST_ARR(ACTIVE, ea, 8);
	memcpy(e2, ea + 8, 32 * sizeof *e2);
	memcpy(e2 + 32, ei, 8 * sizeof *e2);
	LIST_ARR(INACTIVE, e2, 40);
	for (uint32_t i = 0; i < 40; i++)
		CHECK_EQ(f->pfn[100 + i] == PFN_NONE, i < 32);   /* the oldest 32 went */
	CHECK_EQ(f->nr_cached, 48);
	CHECK_EQ(zn(x)->pages_scanned, 0);   /* freeing pages resets it */
	/* refill (isolate, put back 32: +2 pagevec releases) + shrink_cache (isolate, put back none) */
	CHECK_EQ(lock(x)->acquisitions, acq + 6);

	/* priority 0: active 0 + 8 + 1 = 9 < 32 waits; inactive 0 + 40 + 1 = 41 */
	sc = sc0();
	sc.priority = 0;
	lru2q_shrink_zone(k->rc, k, &x->task, zn(x), &sc);
	INV();
	CHECK_EQ(zn(x)->nr_scan_active, 9);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(ev(x, MM_PGREFILL), 32);
	CHECK_EQ(sc.nr_scanned, 32);
	CHECK_EQ(sc.nr_reclaimed, 32);
	CHECK_EQ(ev(x, MM_PGSTEAL), 64);
	LIST_ARR(ACTIVE, ea, 8);
	LIST_ARR(INACTIVE, e2, 8);   /* a31..a24: the referenced a0..a9 went too */
	for (uint32_t i = 0; i < 40; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < 24);
	CHECK_EQ(f->nr_cached, 16);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
	return 0;
}

/* shrink_cache + shrink_list on a hand-made inactive list: a referenced unmapped
 * page is reclaimed (page_mapping_inuse() is false), a referenced mapped page is
 * activated, pages held by a reader (count 2), locked (not counted as scanned) or
 * dirty are kept and go back to the inactive head; freed pages leave the page
 * cache. */
static int b_shrink_list(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[10];
	for (uint32_t i = 0; i < 10; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	touch(x, p[0]);                      /* referenced, unmapped */
	kh_page(x, p[1])->count++;                /* a reader holds it */
	page_set(kh_page(x, p[2]), PG_locked);    /* under I/O */
	kh_page(x, p[3])->mapcount = 1;           /* mapped and referenced */
	touch(x, p[3]);
	page_set(kh_page(x, p[4]), PG_dirty);
	INV();
	LIST_IS(INACTIVE, p[9], p[8], p[7], p[6], p[5], p[4], p[3], p[2], p[1], p[0]);
	CHECK_EQ(k->pagecache_pages, 10);
	uint64_t acq = lock(x)->acquisitions;
	uint64_t pgfree = ev(x, MM_PGFREE);

	struct scan_control sc = sc0();
	sc.may_writepage = false;            /* the dirty page stays dirty (b_writeback) */
	shrink_cache(k, &x->task, zn(x), &sc, 10);
	INV();
	CHECK_EQ(sc.nr_scanned, 9);          /* all but the locked page */
	CHECK_EQ(sc.nr_reclaimed, 6);        /* p0, p5..p9 */
	CHECK_EQ(sc.nr_to_reclaim, 32 - 6);
	CHECK_EQ(ev(x, MM_PGSTEAL), 6);
	CHECK_EQ(ev(x, MM_PGACTIVATE), 1);
	CHECK_EQ(ev(x, MM_PGFREE) - pgfree, 6);
	CHECK_EQ(lock(x)->acquisitions, acq + 2);
	/* survivors go back in isolation order (tail first), each to its list head */
	LIST_IS(INACTIVE, p[4], p[2], p[1]);
	LIST_IS(ACTIVE, p[3]);
	CHECK(flag(x, p[3], PG_active) && !flag(x, p[3], PG_referenced));
	CHECK_EQ(kh_page(x, p[1])->count, 2);
	CHECK(flag(x, p[2], PG_locked) && flag(x, p[4], PG_dirty));
	for (uint32_t i = 0; i < 10; i++) {
		bool freed = i == 0 || i >= 5;
		CHECK_EQ(f->pfn[i] == PFN_NONE, freed);
		if (freed) {
			CHECK_EQ(kh_page(x, p[i])->count, 0);
			CHECK_EQ(kh_page(x, p[i])->mapping, 0);
			CHECK(!flag(x, p[i], PG_lru) && !flag(x, p[i], PG_referenced));
		} else {
			CHECK_EQ(f->pfn[i], p[i]);
		}
	}
	CHECK_EQ(f->nr_cached, 4);
	CHECK_EQ(k->pagecache_pages, 4);

	/* released: all three go on the next scan (max_scan 3) */
	kh_page(x, p[1])->count--;
	page_clear(kh_page(x, p[2]), PG_locked);
	page_clear(kh_page(x, p[4]), PG_dirty);
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 3);
	INV();
	CHECK_EQ(sc.nr_scanned, 3);
	CHECK_EQ(sc.nr_reclaimed, 3);
	LIST_EMPTY(INACTIVE);
	LIST_IS(ACTIVE, p[3]);
	CHECK_EQ(f->nr_cached, 1);
	kh_page(x, p[3])->mapcount = 0;

	/* 40 pages, max_scan 40: two batches (32 + 8), two lock rounds each */
	struct mm_file *g = mm_file_create(k, "g", 1 << 20, 0, 0);
	CHECK(g);
	for (uint32_t i = 0; i < 40; i++)
		CHECK(add_page(x, g, i, MM_LRU_USE_ONCE) != PFN_NONE);
	INV();
	acq = lock(x)->acquisitions;
	sc = sc0();
	shrink_cache(k, &x->task, zn(x), &sc, 40);
	INV();
	CHECK_EQ(sc.nr_scanned, 40);
	CHECK_EQ(sc.nr_reclaimed, 40);
	CHECK_EQ(sc.nr_to_reclaim, 32 - 40);
	CHECK_EQ(lock(x)->acquisitions, acq + 4);
	CHECK_EQ(g->nr_cached, 0);
	LIST_EMPTY(INACTIVE);
	CHECK_EQ(ev(x, MM_PGSTEAL), 49);
	/* only the core's priority loops count pgscan */
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT) + ev(x, MM_PGSCAN_KSWAPD), 0);
	return 0;
}

/* try_to_free_pages on 100 inactive pages: the inactive accumulator reaches 32 at
 * priority 3 (1+1+1+1+1+1 + 2 + 4 + 7 + 13), which reclaims the oldest 32; no nap
 * (nothing was scanned below priority 10 before that); PGSCAN_DIRECT == 32. */
static int b_direct(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 1 << 20, 0, 0);
	CHECK(f);
	uint32_t p[100], e[100];
	for (uint32_t i = 0; i < 100; i++)
		CHECK((p[i] = add_page(x, f, i, MM_LRU_USE_ONCE)) != PFN_NONE);
	INV();
	for (int i = 0; i < 68; i++)
		e[i] = p[99 - i];
	CHECK(mm_try_to_free_pages(k, &x->task, k->pagecache_cls, MM_GFP_KERNEL));
	INV();
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT), 32);
	CHECK_EQ(ev(x, MM_PGSCAN_KSWAPD), 0);
	CHECK_EQ(ev(x, MM_PGSTEAL), 32);
	CHECK_EQ(ev(x, MM_PGREFILL), 0);
	CHECK_EQ(ev(x, MM_POLICY_SHRINK), 10);   /* priorities 12 .. 3 */
	LIST_ARR(INACTIVE, e, 68);
	LIST_EMPTY(ACTIVE);
	for (uint32_t i = 0; i < 100; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < 32);
	CHECK_EQ(zn(x)->nr_scan_active, 10);
	CHECK_EQ(zn(x)->nr_scan_inactive, 0);
	CHECK_EQ(zn(x)->prev_priority, 3);
	CHECK_EQ(zn(x)->temp_priority, 3);
	CHECK(x->task.congestion_s == 0);
	return 0;
}

/* kswapd: fill memory with page cache through the pagevec until the allocator
 * wakes kswapd; balance_pgdat() scans at priorities 12 .. 6 (accumulating) and
 * reclaims 32 pages from the inactive tail: exactly the oldest ones, each scanned
 * page freed (PGSCAN_KSWAPD == PGSTEAL == 32); the zone ends above pages_high. */
static int b_kswapd(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_file *f = mm_file_create(k, "f", 8 << 20, 0, 0);
	CHECK(f);
	uint32_t n = 0;
	while (ev(x, MM_KSWAPD_WAKEUP) == 0) {
		CHECK(n < f->npages);
		CHECK(new_page(x, f, n) != PFN_NONE);
		mm_lru_cache_add(k, &x->task, f->pfn[n], MM_LRU_USE_ONCE);
		n++;
	}
	INV();
	/* between 896 and 1023 inactive pages, the accumulator reaches 32 at
	 * priority 6: 1 + 1 + 1 + (1+1) + (3+1) + (7+1) + (14 or 15, +1) */
	uint32_t nr_inactive = n - k->lru_add_pvec[0].nr;
	CHECK(nr_inactive >= 896 && nr_inactive <= 1023);
	mm_sleep(&x->task, 2.0, NULL);   /* let kswapd run */
	INV();
	uint64_t stolen = ev(x, MM_PGSTEAL);
	CHECK_EQ(stolen, MM_SWAP_CLUSTER_MAX);
	CHECK_EQ(ev(x, MM_POLICY_SHRINK), 7);    /* priorities 12 .. 6 */
	/* the pass stops at 32 reclaimed, after one HZ/10 nap (priority 6 < 10); the
	 * second pass finds the zone above pages_high */
	CHECK_EQ(ev(x, MM_PAGEOUTRUN), 2);
	CHECK(k->kswapd.congestion_s == MM_HZ_S(100));
	CHECK_EQ(ev(x, MM_PGSCAN_KSWAPD), stolen);
	CHECK_EQ(ev(x, MM_PGSCAN_DIRECT), 0);
	CHECK_EQ(ev(x, MM_ALLOCSTALL), 0);
	CHECK_EQ(ev(x, MM_PGACTIVATE) + ev(x, MM_PGDEACTIVATE) + ev(x, MM_PGREFILL), 0);
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(f->pfn[i] == PFN_NONE, i < stolen);
	CHECK_EQ(f->nr_cached, n - stolen);
	CHECK(zone_watermark_ok(zn(x), 0, zn(x)->pages_high, 0, false, false));
	CHECK(k->kswapd_sleeping);
	CHECK(x->task.direct_reclaims == 0);
	/* the inactive list is still in insertion order from its tail */
	uint32_t idx = (uint32_t)stolen;
	for (uint32_t pfn = zsn(x)->inactive.tail; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_prev)
		CHECK_EQ(kh_page(x, pfn)->index, idx++);
	CHECK_EQ(idx + k->lru_add_pvec[0].nr, n);
	x->out[0] = (double)n;
	x->out[1] = (double)stolen;
	return 0;
}

/* Looping sequential read (4-page reads, no readahead) of a file of 1.1 x memory,
 * 5 passes: the LRU evicts in FIFO order, so every read misses and reads its 4
 * pages from disk, in every pass; a page is touched once per pass and is never
 * activated; after each pass the cache holds exactly the last pages read, on the
 * inactive list in file order.  out[0..4] = disk pages per pass, out[5] = cache. */
static int b_loop(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	uint32_t npages = (uint32_t)(k->phys.nr_pages + k->phys.nr_pages / 10);
	uint64_t ps = k->phys.page_size;
	struct mm_file *f = mm_file_create(k, "loop", (uint64_t)npages * ps, 0, 0);
	CHECK(f);
	CHECK_EQ(npages % 4, 0);
	struct mm_read_stats st = { 0 };
	uint64_t reads = 0;
	for (int pass = 0; pass < 5; pass++) {
		uint64_t in0 = ev(x, MM_PGPGIN), miss0 = st.misses;
		for (uint64_t pos = 0; pos < f->size; pos += 4 * ps) {
			CHECK_EQ(mm_file_read(k, &x->task, f, pos, 4 * ps, &st), 4 * ps);
			reads++;
		}
		INV();
		uint64_t disk_pages = (ev(x, MM_PGPGIN) - in0) * 1024 / ps;
		x->out[pass] = (double)disk_pages;
		CHECK_EQ(disk_pages, npages);            /* every page from disk */
		CHECK_EQ(st.misses - miss0, npages / 4); /* every read() missed */
		CHECK_EQ(ev(x, MM_PGACTIVATE), 0);
		CHECK_EQ(ev(x, MM_PGDEACTIVATE), 0);
		CHECK_EQ(ev(x, MM_PGREFILL), 0);
		CHECK_EQ(zn(x)->nr_active, 0);
		/* conservation: read in == cached + reclaimed */
		CHECK_EQ(ev(x, MM_PGPGIN) * 1024 / ps, f->nr_cached + ev(x, MM_PGSTEAL));
		/* the cache is the last nr_cached pages of the file, in file order from the
		 * inactive tail, then the pagevec */
		uint32_t first = npages - f->nr_cached;
		for (uint32_t i = 0; i < npages; i++)
			CHECK_EQ(f->pfn[i] != PFN_NONE, i >= first);
		uint32_t idx = first;
		for (uint32_t pfn = zsn(x)->inactive.tail; pfn != PFN_NONE; pfn = kh_page(x, pfn)->lru_prev)
			CHECK_EQ(kh_page(x, pfn)->index, idx++);
		for (unsigned i = 0; i < k->lru_add_pvec[0].nr; i++)
			CHECK_EQ(kh_page(x, k->lru_add_pvec[0].pfn[i])->index, idx++);
		CHECK_EQ(idx, npages);
		/* each cached page was touched once since it was read: PG_referenced */
		for (uint32_t i = first; i < npages; i++)
			CHECK(flag(x, f->pfn[i], PG_referenced));
	}
	CHECK_EQ(st.pages, 5ull * npages);
	CHECK_EQ(st.misses, reads);
	CHECK_EQ(st.hits, 3 * reads);
	CHECK(f->nr_cached < npages - 4);
	x->out[5] = (double)f->nr_cached;
	return 0;
}

/* ------------------------------------------------------------------ tests */

static void test_pagevec_add(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_pagevec, NULL);
}
static void test_pagevec_shared_cpu(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_pagevec_shared_cpu, NULL);
}
static void test_double_free(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_double_free, NULL);
}
static void test_mark_page_accessed(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_mark, NULL);
}
static void test_batched_mark_accessed(void **state)
{
	run(MACHINE_SMALL, "{\"reclaim\":\"lru2q\",\"vm\":{\"batch_mark_accessed\":true}}",
	    b_batched, NULL);
}
static void test_writeback(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_writeback, NULL);
}
static void test_refill_unmapped(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_refill, NULL);
}
static void test_refill_mapped(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_refill_mapped, NULL);
}
static void test_shrink_zone_accumulators(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_accumulate, NULL);
}
static void test_shrink_list(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_shrink_list, NULL);
}
static void test_direct_reclaim(void **state)
{
	run(MACHINE_SMALL, K_LRU2Q, b_direct, NULL);
}
static void test_kswapd(void **state)
{
	/* min_free_kbytes 256: pages_min 64, low 80, high 96, so that the allocation
	 * that wakes kswapd (below low) still succeeds at min without direct reclaim
	 * (with 16 kB, one per-CPU list refill jumps from above low to below min) */
	static const char *const machine =
		"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
		"\"min_free_kbytes\":256,"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
	double o[16];
	run(machine, K_LRU2Q, b_kswapd, o);
	print_message("kswapd woken after %.0f page-cache pages, reclaimed the oldest %.0f\n", o[0],
		      o[1]);
}
static void test_loop_larger_than_memory(void **state)
{
	static const char *const machine =
		"{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,\"cpus\":2,"
		"\"disks\":[{\"name\":\"d0\",\"read\":\"200MB/s\",\"write\":\"200MB/s\"}]}";
	double o[16];
	run(machine, "{\"reclaim\":\"lru2q\",\"vm\":{\"readahead\":false}}", b_loop, o);
	print_message("loop of 1.1 x memory: disk pages per pass %.0f %.0f %.0f %.0f %.0f, "
		      "%.0f pages cached at the end\n", o[0], o[1], o[2], o[3], o[4], o[5]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pagevec_add),
		cmocka_unit_test(test_pagevec_shared_cpu),
		cmocka_unit_test(test_double_free),
		cmocka_unit_test(test_mark_page_accessed),
		cmocka_unit_test(test_batched_mark_accessed),
		cmocka_unit_test(test_refill_unmapped),
		cmocka_unit_test(test_refill_mapped),
		cmocka_unit_test(test_shrink_zone_accumulators),
		cmocka_unit_test(test_shrink_list),
		cmocka_unit_test(test_writeback),
		cmocka_unit_test(test_direct_reclaim),
		cmocka_unit_test(test_kswapd),
		cmocka_unit_test(test_loop_larger_than_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
