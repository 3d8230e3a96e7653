/*
 * test_lru2q.c - the 2.6.15 two-list LRU (models/reclaim/lru2q.c): pagevecs,
 * mark_page_accessed (stock and batched), the double free and writeback of a
 * page on the lists, each with exact list contents (harness: lru2q_harness.h;
 * reclaim's scanning is in test_lru2q_scan.c); the workingset option (3.15
 * refault distance): its shadow table, and a hand-traced replay string.
 */
#define KH_NAME "test_lru2q"
#include "tests/lru2q_harness.h"

#include "emu/engine/kreplay.h"

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

/* The shadow table alone: 3000 evictions from zone 1 (ages 1..3000, the table
 * grows from 1024 slots), two activations, then every page refaults, last
 * evicted first: distance = 3002 - its age; each shadow is consumed once. */
static void test_workingset_table(void **state)
{
	struct workingset w;
	struct mm_err e = { "" };
	assert_int_equal(ws_init(&w, &e), 0);
	for (uint32_t i = 0; i < 3000; i++)
		ws_eviction(&w, 1, 7 + i % 3, i);
	ws_activation(&w, 1);
	ws_activation(&w, 1);
	assert_int_equal(w.inactive_age[1], 3002);
	assert_int_equal(w.inactive_age[0], 0);
	assert_int_equal(w.n, 3000);
	assert_int_equal(w.max_shadows, 3000);
	assert_true(w.cap >= 6000);
	int zone;
	uint64_t dist;
	assert_false(ws_refault(&w, 7, 1, &zone, &dist));   /* index 1 was mapping 8's */
	for (uint32_t i = 3000; i-- > 0;) {
		assert_true(ws_refault(&w, 7 + i % 3, i, &zone, &dist));
		assert_int_equal(zone, 1);
		assert_int_equal(dist, 3002 - (i + 1));
		assert_false(ws_refault(&w, 7 + i % 3, i, &zone, &dist));
	}
	assert_int_equal(w.n, 0);
	assert_int_equal(w.refault, 3000);
	assert_int_equal(w.evictions, 3000);
	/* an entry evicted twice keeps the later age */
	ws_eviction(&w, 0, 1, 1);
	ws_eviction(&w, 0, 1, 1);
	assert_int_equal(w.n, 1);
	assert_true(ws_refault(&w, 1, 1, &zone, &dist));
	assert_int_equal(zone, 0);
	assert_int_equal(dist, 0);
	ws_fini(&w);
}

/* Replay (5 frames, swap_cluster_max 1: each fault with 5 pages cached refills one
 * active page and frees the inactive tail) of 1,1,2,2,3,3,4,5,6,4,5,6,4,5,6.
 * inactive_age: the second touches of 1, 2, 3 activate (ages 1, 2, 3).  At 6,
 * 1 is deactivated and 4 evicted (age 4, its shadow).  At the second 4, 2 is
 * deactivated and 5 evicted (age 5); 4's refault distance is 5 - 4 = 1, the active
 * list holds 1 page (3): 4 is inserted active (age 6), with R from the read.  At
 * the second 5, 3 is deactivated and 1 evicted (age 7); 5's distance 7 - 5 = 2 >
 * 1 active page: inactive.  Without the option 4 goes inactive, and the later hit
 * on it activates it instead of setting R.  The same 8 faults either way. */
static void test_workingset_replay(void **state)
{
	static const uint32_t refs[] = { 0, 0, 1, 1, 2, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5 };
	static const uint64_t orig[] = { 1, 2, 3, 4, 5, 6 };
	static const char *const tail[2] = {
		"  4 F   active: 3  inactive: 4R 2 6R 1\n"
		"  5 F   active:  inactive: 5R 3 4R 2 6R\n"
		"  6     active: 6  inactive: 5R 3 4R 2\n"
		"  4     active: 4 6  inactive: 5R 3 2\n"
		"  5     active: 5 4 6  inactive: 3 2\n"
		"  6     active: 5 4 6R  inactive: 3 2\n",
		"  4 F   active: 4R 3  inactive: 2 6R 1\n"
		"  5 F   active: 4R  inactive: 5R 3 2 6R\n"
		"  6     active: 6 4R  inactive: 5R 3 2\n"
		"  4     active: 6 4R  inactive: 5R 3 2\n"
		"  5     active: 5 6 4R  inactive: 3 2\n"
		"  6     active: 5 6R 4R  inactive: 3 2\n",
	};
	for (int on = 0; on < 2; on++) {
		struct kreplay_result res = { 0 };
		struct mm_err e = { "" };
		json_t *params = json_pack("{s:b}", "workingset", on);
		assert_int_equal(kreplay_run("lru2q", params, 5, refs, 15, 6, orig, 1, &res, &e), 0);
		json_decref(params);
		assert_int_equal(res.faults, 8);
		assert_int_equal(res.hits, 7);
		assert_int_equal(res.freed, 3);
		assert_non_null(res.steps);
		const char *at = strstr(res.steps, "  6 F   active: ");   /* then the second 4 */
		assert_non_null(at);
		at = strchr(at, '\n');
		assert_non_null(at);
		at++;
		if (strcmp(at, tail[on]) != 0)
			fail_msg("workingset=%d: steps from the second 4:\n%s\nexpected:\n%s", on, at,
				 tail[on]);
		kreplay_free(&res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pagevec_add),
		cmocka_unit_test(test_pagevec_shared_cpu),
		cmocka_unit_test(test_double_free),
		cmocka_unit_test(test_mark_page_accessed),
		cmocka_unit_test(test_batched_mark_accessed),
		cmocka_unit_test(test_writeback),
		cmocka_unit_test(test_workingset_table),
		cmocka_unit_test(test_workingset_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
