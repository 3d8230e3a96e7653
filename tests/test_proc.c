/*
 * test_proc.c - processes' anonymous memory (models/mm/proc.c) on a small
 * simulated kernel: exact fault, copy-on-write and free counts of fork / brk /
 * exit on hand-checked cases, then swap-out and swap-in under memory pressure
 * with the invariants (mm_check, mm_proc_check: page tables, mapcounts, swap_map)
 * checked after every step, and the OOM path without swap.
 *
 * Harness: tests/kharness.h (a forked child runs SimGrid and the body as an actor).
 */
#include "models/mm/proc.h"

#define KH_NAME "test_proc"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "models/mm/kernel.h"
#include "models/mm/vmscan.h"

#define MSG 1000

#include "tests/kharness.h"

/* 4 MiB of 4 KiB pages, one Normal zone, 2 CPUs */
static const char *const MACHINE =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"min_free_kbytes\":16,"
	"\"disks\":[{\"name\":\"d0\",\"size\":\"64MiB\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";
static const char *const K_NOSWAP = "{\"reclaim\":\"lru2q\"}";
static const char *const K_SWAP = "{\"reclaim\":\"lru2q\",\"vm\":{\"swap\":\"8MiB\"}}";
static const char *const K_SWAP_CP = "{\"reclaim\":\"clockpro\",\"vm\":{\"swap\":\"8MiB\"}}";

static int inv(struct tctx *x)
{
	struct mm_err e = { "" };
	if (mm_kernel_check(&x->k, &e) || mm_proc_check(&x->k, &e)) {
		snprintf(x->msg, MSG, "invariant: %s", e.msg);
		return -1;
	}
	return 0;
}

/* the pfn entry @i of @as maps (test helper: present entries only) */
static uint32_t pfn_at(struct mm_as *as, uint32_t i)
{
	return (as->pte[i] & 0x3fffffffu) - 1;
}

static int body_fork_cow(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	struct mm_procs *pr = k->proc;
	kh_drain_all(x);
	uint64_t free0 = kh_free_pages(x);

	struct mm_as *par = mm_as_new(k, t);
	CHECK(par);
	CHECK_EQ(mm_brk(k, t, par, 8), 0);
	CHECK_EQ(par->npages, 8);
	CHECK_EQ(par->rss, 0);                     /* brk reserves, no pages yet */
	CHECK_EQ(mm_touch(k, t, par, 0, 8, true), 8);
	CHECK_EQ(pr->zero_fills, 8);
	CHECK_EQ(par->rss, 8);
	CHECK_EQ(k->nr_mapped, 8);
	CHECK_EQ(t->minflt, 8);
	CHECK_EQ(mm_touch(k, t, par, 0, 8, true), 0);   /* resident, writable: no fault */
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0 - 8);
	for (uint32_t i = 0; i < 8; i++) {
		CHECK_EQ(kh_page(x, pfn_at(par, i))->count, 1);
		CHECK_EQ(kh_page(x, pfn_at(par, i))->mapcount, 1);
		CHECK(page_test(kh_page(x, pfn_at(par, i)), PG_active));   /* anon: active list */
	}

	struct mm_as *ch = mm_as_fork(k, t, par);
	CHECK(ch);
	INV();
	CHECK_EQ(pr->forks, 1);
	CHECK_EQ(ch->rss, 8);
	CHECK_EQ(k->nr_mapped, 8);                  /* shared pages count once */
	for (uint32_t i = 0; i < 8; i++) {
		CHECK_EQ(pfn_at(ch, i), pfn_at(par, i));
		CHECK_EQ(kh_page(x, pfn_at(par, i))->count, 2);
		CHECK_EQ(kh_page(x, pfn_at(par, i))->mapcount, 2);
	}
	CHECK_EQ(kh_free_pages(x), free0 - 8);               /* fork copies no page */

	/* the child writes 0..3: four copies */
	CHECK_EQ(mm_touch(k, t, ch, 0, 4, true), 4);
	CHECK_EQ(pr->cow_copies, 4);
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0 - 12);
	CHECK_EQ(k->nr_mapped, 12);
	/* the parent writes 0..3: now the only mapper, it reuses its pages */
	CHECK_EQ(mm_touch(k, t, par, 0, 4, true), 4);
	CHECK_EQ(pr->cow_reuses, 4);
	CHECK_EQ(pr->cow_copies, 4);
	/* reads of 4..7 share; writes copy */
	CHECK_EQ(mm_touch(k, t, par, 4, 4, false), 0);
	CHECK_EQ(mm_touch(k, t, par, 4, 4, true), 4);
	CHECK_EQ(pr->cow_copies, 8);
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0 - 16);

	/* the child exits: its 8 pages (4 copies + 4 it still shared, now alone) go */
	mm_as_exit(k, t, ch);
	kh_drain_all(x);
	INV();
	CHECK_EQ(pr->exits, 1);
	CHECK_EQ(kh_free_pages(x), free0 - 8);
	CHECK_EQ(k->nr_mapped, 8);

	/* brk down to 2 pages frees 6; up to 5 frees nothing and touches 3 new */
	CHECK_EQ(mm_brk(k, t, par, 2), 0);
	kh_drain_all(x);
	CHECK_EQ(kh_free_pages(x), free0 - 2);
	CHECK_EQ(mm_brk(k, t, par, 5), 0);
	CHECK_EQ(mm_touch(k, t, par, 0, 100, false), 3);   /* clipped to the region */
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0 - 5);
	mm_as_exit(k, t, par);
	kh_drain_all(x);
	INV();
	CHECK_EQ(kh_free_pages(x), free0);
	CHECK_EQ(k->nr_mapped, 0);
	return 0;
}

/* Touch 1.5 x memory of anonymous pages in one process, then read the first
 * quarter again: reclaim swaps out, the re-read swaps in. */
static int body_swap(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	struct mm_procs *pr = k->proc;
	CHECK(mm_swap_enabled(k));
	CHECK_EQ(pr->swap.nslots, 2048);
	kh_drain_all(x);
	uint64_t free0 = kh_free_pages(x);
	uint32_t n = k->phys.nr_pages * 3 / 2;
	struct mm_as *as = mm_as_new(k, t);
	CHECK(as);
	CHECK_EQ(mm_brk(k, t, as, n), 0);
	for (uint32_t i = 0; i < n; i += 64) {
		if (mm_touch(k, t, as, i, 64, true) < 0) {
			snprintf(x->msg, MSG, "OOM at %u of %u: rss %u swap %u outs %llu wb %u dirty %llu free %llu pswpout %llu steal %llu scan %llu",
				 i, n, as->rss, as->nswap, (unsigned long long)pr->swap_outs,
				 k->writeback_inflight, (unsigned long long)k->nr_dirty,
				 (unsigned long long)kh_free_pages(x), (unsigned long long)x->s.vs.ev[MM_PSWPOUT],
				 (unsigned long long)x->s.vs.ev[MM_PGSTEAL],
				 (unsigned long long)x->s.vs.ev[MM_PGSCAN_DIRECT]);
			return -1;
		}
		INV();
	}
	CHECK(pr->swap_outs > 0);
	CHECK(x->s.vs.ev[MM_PSWPOUT] > 0);
	CHECK(as->nswap > 0);
	CHECK_EQ(as->rss + as->nswap, n);            /* every page is somewhere */
	uint64_t majors = t->majflt;
	CHECK_EQ(majors, 0);
	CHECK(mm_touch(k, t, as, 0, n / 4, false) > 0);
	INV();
	CHECK(t->majflt > 0);
	CHECK_EQ(pr->swap_ins, t->majflt);
	CHECK_EQ(x->s.vs.ev[MM_PSWPIN], pr->swap_ins);
	CHECK_EQ(as->rss + as->nswap, n);
	x->out[0] = (double)pr->swap_outs;
	x->out[1] = (double)pr->swap_ins;
	mm_as_exit(k, t, as);
	kh_drain_all(x);
	INV();
	CHECK_EQ(k->nr_mapped, 0);
	/* what is left in swap are unmapped swap-cache pages (written when the
	 * process exited), which reclaim frees later */
	uint32_t cached = 0, mapped = 0;
	for (uint32_t pfn = 0; pfn < k->phys.nr_pages; pfn++)
		if (page_test(kh_page(x, pfn), PG_swapcache)) {
			cached++;
			mapped += kh_page(x, pfn)->mapcount > 0;
		}
	CHECK_EQ(pr->swap.nslots - pr->swap.nr_free, cached);
	CHECK_EQ(mapped, 0);
	if (kh_free_pages(x) + cached < free0 - 2 * PAGEVEC_SIZE) {
		uint32_t q = 0;
		while (q < k->phys.nr_pages && !page_test(kh_page(x, q), PG_lru))
			q++;
		snprintf(x->msg, MSG, "free %llu cached %u free0 %llu lru %u+%u: pfn %u count %d map %d flags %x mapping %x", (unsigned long long)kh_free_pages(x), cached, (unsigned long long)free0, k->phys.zones[MM_ZONE_NORMAL].nr_active, k->phys.zones[MM_ZONE_NORMAL].nr_inactive, q, kh_page(x,q)->count, kh_page(x,q)->mapcount, kh_page(x,q)->flags, kh_page(x,q)->mapping);
		return -1;
	}
	return 0;
}

/* Without swap, anonymous memory beyond RAM ends in an OOM failure, cleanly. */
static int body_oom(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	CHECK(!mm_swap_enabled(k));
	uint32_t n = k->phys.nr_pages * 2;
	struct mm_as *as = mm_as_new(k, t);
	CHECK(as);
	CHECK_EQ(mm_brk(k, t, as, n), 0);
	uint64_t retry0 = x->s.vs.ev[MM_OOM_RETRY];
	CHECK_EQ(mm_touch(k, t, as, 0, n, true), -1);
	/* 2.6.10's out_of_memory() counts failures only from one second after
	 * the first (here: boot, its static first is 0) and kills at the tenth of
	 * those; the retry loop turns at most once per jiffy (page_alloc.c,
	 * oom_spin), so the failure comes 10 jiffies after 1 s, after at most
	 * 1,010 turns (the loop turning as fast as the CPU went: ~2 million) */
	double when = tm_now(&t->tm);
	uint64_t turns = x->s.vs.ev[MM_OOM_RETRY] - retry0;
	if (!(when >= 1.0 + MM_HZ_S(9) && when < 1.0 + MM_HZ_S(11) && turns >= 10 && turns <= 1010)) {
		snprintf(x->msg, MSG, "OOM failure at %.6f s after %llu turns of the retry loop", when,
			 (unsigned long long)turns);
		return -1;
	}
	CHECK(as->rss > 0 && as->rss < k->phys.nr_pages);
	CHECK_EQ(as->nswap, 0);
	INV();
	mm_as_exit(k, t, as);
	kh_drain_all(x);
	INV();
	CHECK_EQ(k->nr_mapped, 0);
	return 0;
}

/* Swapped-out entries survive fork: both processes fault the page back in,
 * the second one from the swap cache (a minor fault). */
static int body_swap_fork(struct tctx *x)
{
	struct mm_kernel *k = &x->k;
	struct mm_task *t = &x->task;
	struct mm_procs *pr = k->proc;
	uint32_t n = k->phys.nr_pages * 3 / 2;
	struct mm_as *a = mm_as_new(k, t);
	CHECK(a);
	CHECK_EQ(mm_brk(k, t, a, n), 0);
	CHECK(mm_touch(k, t, a, 0, n, true) >= 0);
	uint32_t sw = UINT32_MAX;
	for (uint32_t i = 0; i < n && sw == UINT32_MAX; i++)
		if (a->pte[i] & 0x80000000u)
			sw = i;
	CHECK(sw != UINT32_MAX);
	struct mm_as *b = mm_as_fork(k, t, a);
	CHECK(b);
	INV();
	uint32_t slot = a->pte[sw] & ~0x80000000u;
	CHECK_EQ(b->pte[sw], a->pte[sw]);
	CHECK_EQ(pr->swap.map[slot], 2);
	uint64_t maj = t->majflt;
	CHECK_EQ(mm_touch(k, t, a, sw, 1, false), 1);
	CHECK_EQ(t->majflt, maj + 1);
	CHECK_EQ(mm_touch(k, t, b, sw, 1, false), 1);   /* from the swap cache */
	CHECK_EQ(t->majflt, maj + 1);
	CHECK_EQ(pfn_at(a, sw), pfn_at(b, sw));
	CHECK_EQ(kh_page(x, pfn_at(a, sw))->mapcount, 2);
	INV();
	/* a store by b: shared with a, so it copies */
	uint64_t copies = pr->cow_copies;
	CHECK_EQ(mm_touch(k, t, b, sw, 1, true), 1);
	CHECK_EQ(pr->cow_copies, copies + 1);
	CHECK(pfn_at(a, sw) != pfn_at(b, sw));
	INV();
	mm_as_exit(k, t, b);
	mm_as_exit(k, t, a);
	kh_drain_all(x);
	INV();
	CHECK_EQ(k->nr_mapped, 0);
	return 0;
}

static void test_fork_cow(void **st)
{
	(void)st;
	run(MACHINE, K_NOSWAP, body_fork_cow, NULL);
}

static void test_swap_lru2q(void **st)
{
	(void)st;
	double out[16];
	run(MACHINE, K_SWAP, body_swap, out);
	assert_true(out[0] > 0 && out[1] > 0);
}

static void test_swap_clockpro(void **st)
{
	(void)st;
	run(MACHINE, K_SWAP_CP, body_swap, NULL);
}

static void test_oom(void **st)
{
	(void)st;
	run(MACHINE, K_NOSWAP, body_oom, NULL);
}

static void test_swap_fork(void **st)
{
	(void)st;
	run(MACHINE, K_SWAP, body_swap_fork, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_cow),
		cmocka_unit_test(test_swap_lru2q),
		cmocka_unit_test(test_swap_clockpro),
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_swap_fork),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
