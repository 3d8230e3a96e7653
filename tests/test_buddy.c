/*
 * test_buddy.c - the buddy allocator: exact split/merge, LIFO order, per-CPU list
 * batch/high behaviour, fragmentation and watermarks, zonelist fallback through
 * mm_alloc_pages(), random stress with mm_check() after every step, registry errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emu/core/rng.h"
#include "models/alloc/alloc.h"
#include "models/mm/mm_check.h"
#include "models/mm/zone.h"

static void must_check(const struct mm_phys *ph)
{
	struct mm_err e = { "" };
	int rc = mm_check(ph, &e);
	if (rc)
		print_error("mm_check: %s\n", e.msg);
	assert_int_equal(rc, 0);
}

/* Memory from machine JSON + the buddy allocator with @params JSON. */
static struct alloc *setup(struct mm_phys *ph, const char *machine, const char *params,
			   struct mm_vmstat *vs)
{
	struct mm_phys_cfg cfg;
	struct mm_err e = { "" };
	json_t *o = json_loads(machine, 0, NULL);
	assert_non_null(o);
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, o, NULL, "machine", NULL, &e), 0);
	json_decref(o);
	assert_int_equal(mm_phys_init(ph, &cfg, &e), 0);
	ph->vs = vs;
	json_t *p = params ? json_loads(params, 0, NULL) : NULL;
	struct alloc *a = alloc_create("buddy", p, ph, vs, NULL, "kernels.k.alloc", &e);
	json_decref(p);
	if (!a)
		print_error("%s\n", e.msg);
	assert_non_null(a);
	must_check(ph);
	return a;
}

static void teardown(struct mm_phys *ph)
{
	alloc_destroy(ph->alloc);
	mm_phys_fini(ph);
}

#define FLAT4M "{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0}"

static void test_split_merge_exact(void **state)
{
	struct mm_phys ph;
	struct mm_vmstat vs = { { 0 } };
	struct alloc *a = setup(&ph, FLAT4M, "{\"pcp\":false}", &vs);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	/* fresh 1024-page zone: one order-10 block */
	assert_int_equal(z->present, 1024);
	assert_int_equal(z->free_pages, 1024);
	for (unsigned o = 0; o < 10; o++)
		assert_int_equal(z->nr_free[o], 0);
	assert_int_equal(z->nr_free[10], 1);
	/* order 0: split 1024 -> keep pfn 0; upper halves 512@9, 256@8, ..., 1@0 */
	uint32_t pfn = alloc_rmqueue(a, z, 0, MM_RCLM_EASY, 0, false);
	assert_int_equal(pfn, 0);
	for (unsigned o = 0; o < 10; o++)
		assert_int_equal(z->nr_free[o], 1);
	assert_int_equal(z->nr_free[10], 0);
	assert_int_equal(z->free_pages, 1023);
	assert_true(page_test(&ph.pages[1], PG_buddy));
	assert_true(page_test(&ph.pages[512], PG_buddy));
	assert_int_equal(ph.pages[512].order, 9);
	assert_int_equal(ph.pages[0].count, 1);
	assert_int_equal(ph.pages[0].alloc_type, MM_RCLM_EASY);
	assert_int_equal(a->st.splits, 10);
	must_check(&ph);
	/* free: merges all the way back */
	alloc_free(a, 0, 0, 0, false);
	for (unsigned o = 0; o < 10; o++)
		assert_int_equal(z->nr_free[o], 0);
	assert_int_equal(z->nr_free[10], 1);
	assert_int_equal(z->free_pages, 1024);
	assert_int_equal(a->st.merges, 10);
	assert_int_equal(vs.ev[MM_ALLOC_CALLS], 1);
	assert_int_equal(vs.ev[MM_FREE_CALLS], 1);
	must_check(&ph);
	/* an order-3 block, then order 10 fails while it is out */
	pfn = alloc_rmqueue(a, z, 3, MM_RCLM_NORCLM, 0, false);
	assert_int_equal(pfn, 0);
	assert_int_equal(ph.pages[0].order, 3);
	assert_int_equal(alloc_rmqueue(a, z, 10, 0, 0, false), PFN_NONE);
	assert_int_equal(alloc_rmqueue(a, z, 11, 0, 0, false), PFN_NONE); /* >= MAX_ORDER */
	/* double free is refused and counted */
	alloc_free(a, 0, 3, 0, false);
	alloc_free(a, 0, 3, 0, false);
	assert_int_equal(a->st.bad_free, 1);
	assert_int_equal(z->nr_free[10], 1);
	must_check(&ph);
	json_t *bi = alloc_buddyinfo(&ph);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(bi, "Normal"), 10)), 1);
	json_decref(bi);
	teardown(&ph);
}

static void test_lifo(void **state)
{
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT4M, "{\"pcp\":false}", NULL);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	/* successive order-0 allocations from one block come out in ascending order */
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), i);
	/* free 0, 2, 4 (buddies allocated: no merging) -> list head 4, 2, 0 */
	alloc_free(a, 0, 0, 0, false);
	alloc_free(a, 2, 0, 0, false);
	alloc_free(a, 4, 0, 0, false);
	assert_int_equal(z->nr_free[0], 3);
	must_check(&ph);
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 4);
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 2);
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 0);
	/* init leaves the highest block at the head of the order-10 list */
	teardown(&ph);
	a = setup(&ph, "{\"arch\":\"flat\",\"memory\":\"16MiB\",\"kernel_reserved\":0}",
		  "{\"pcp\":false}", NULL);
	z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(z->nr_free[10], 4);
	assert_int_equal(alloc_rmqueue(a, z, 10, 0, 0, false), 3072);
	teardown(&ph);
}

static void test_pcp_batch_high(void **state)
{
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT4M, NULL, NULL);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	struct mm_pcp *hot = &z->pageset[0].pcp[0], *cold = &z->pageset[0].pcp[1];
	/* 1024 pages: batch 1024/1024 = 1, /4 = 0 -> 1, 1 << fls(1) = 2 */
	assert_int_equal(hot->batch, 2);
	assert_int_equal(hot->high, 12);
	assert_int_equal(cold->batch, 1);
	assert_int_equal(cold->high, 4);
	/* first order-0: refill 2 (pfns 0, 1) under one lock, hand out the head */
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 0);
	assert_int_equal(hot->count, 1);
	assert_int_equal(z->nr_pcp, 1);
	assert_int_equal(z->free_pages, 1022);
	assert_int_equal(a->st.zone_lock[MM_ZONE_NORMAL], 1);
	assert_int_equal(a->st.pcp_refill, 1);
	must_check(&ph);
	/* second: from the list, no lock */
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 1);
	assert_int_equal(hot->count, 0);
	assert_int_equal(a->st.zone_lock[MM_ZONE_NORMAL], 1);
	/* ten more: pfns 2..11, five refills */
	for (uint32_t i = 2; i < 12; i++)
		assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), i);
	assert_int_equal(a->st.zone_lock[MM_ZONE_NORMAL], 6);
	assert_int_equal(z->free_pages, 1012);
	/* free 0..11 hot: the 12th free reaches high = 12 and drains batch = 2 pages
	 * from the tail (pfns 0 and 1, freed first), which merge into an order-1 block */
	for (uint32_t i = 0; i < 11; i++)
		alloc_free(a, i, 0, 0, false);
	assert_int_equal(hot->count, 11);
	assert_int_equal(z->free_pages, 1012);
	assert_int_equal(a->st.zone_lock[MM_ZONE_NORMAL], 6);
	alloc_free(a, 11, 0, 0, false);
	assert_int_equal(hot->count, 10);
	assert_int_equal(z->nr_pcp, 10);
	assert_int_equal(z->free_pages, 1014);
	assert_int_equal(a->st.zone_lock[MM_ZONE_NORMAL], 7);
	assert_int_equal(a->st.pcp_drain, 1);
	assert_true(page_test(&ph.pages[0], PG_buddy));
	assert_int_equal(ph.pages[0].order, 1);
	assert_int_equal(hot->list.head, 11); /* LIFO: the last freed is handed out next */
	must_check(&ph);
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 11);
	alloc_free(a, 11, 0, 0, false);
	/* cold: refill 1, high 4 */
	uint32_t c = alloc_rmqueue(a, z, 0, 0, 0, true);
	assert_int_not_equal(c, PFN_NONE);
	assert_int_equal(cold->count, 0);
	alloc_free(a, c, 0, 0, true);
	assert_int_equal(cold->count, 1);
	must_check(&ph);
	/* drain everything: one order-10 block again */
	alloc_drain(a, -1);
	assert_int_equal(z->nr_pcp, 0);
	assert_int_equal(z->free_pages, 1024);
	assert_int_equal(z->nr_free[10], 1);
	must_check(&ph);
	json_t *st = alloc_stats_json(a);
	assert_non_null(json_object_get(st, "zone_lock"));
	json_decref(st);
	teardown(&ph);
}

static void test_fragmentation(void **state)
{
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT4M, "{\"pcp\":false}", NULL);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	for (uint32_t i = 0; i < 1024; i++)
		assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), i);
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), PFN_NONE);
	assert_true(alloc_frag_index(a, z, 0) == 0.0); /* no free memory */
	for (uint32_t i = 0; i < 1024; i += 2)
		alloc_free(a, i, 0, 0, false);
	assert_int_equal(z->free_pages, 512);
	assert_int_equal(z->nr_free[0], 512);
	must_check(&ph);
	/* 512 free pages, none of order 1 */
	assert_true(zone_watermark_ok(z, 0, 10, MM_ZONE_NORMAL, false, false));
	assert_false(zone_watermark_ok(z, 1, 10, MM_ZONE_NORMAL, false, false));
	assert_int_equal(alloc_rmqueue(a, z, 1, 0, 0, false), PFN_NONE);
	/* fragmentation index for order 1: 1 - (1 + 512/2)/512 = 0.498046875 */
	assert_true(alloc_frag_index(a, z, 1) == 1.0 - 257.0 / 512.0);
	assert_true(alloc_frag_index(a, z, 0) == -1.0);
	/* free 1, 3, ..., 63: pfns 0..63 merge into one order-6 block */
	for (uint32_t i = 1; i < 64; i += 2)
		alloc_free(a, i, 0, 0, false);
	assert_int_equal(z->nr_free[0], 480);
	assert_int_equal(z->nr_free[6], 1);
	assert_int_equal(z->free_pages, 544);
	must_check(&ph);
	/* order 3: 537; -480 -> 57 > 5; 57 > 2; 57 > 1 -> ok */
	assert_true(zone_watermark_ok(z, 3, 10, MM_ZONE_NORMAL, false, false));
	/* order 7: ... at o = 6, 57 - 64 < 0 -> fail */
	assert_false(zone_watermark_ok(z, 7, 10, MM_ZONE_NORMAL, false, false));
	assert_int_equal(alloc_rmqueue(a, z, 6, 0, 0, false), 0);
	teardown(&ph);
}

static void test_zonelist_fallback(void **state)
{
	struct mm_phys ph;
	struct mm_vmstat vs = { { 0 } };
	/* i386 32 MiB: DMA 4096 pages (1024 reserved), Normal 4096 (mem_map 32 x 8192 B =
	 * 64 pages reserved): lowmem 32768 kB, sqrt(524288) = 724 kB -> 181 pages;
	 * DMA and Normal min 181 x 4096 / 8192 = 90, low 112; DMA reserve[Normal] 16 */
	struct alloc *a = setup(&ph, "{\"arch\":\"i386\",\"memory\":\"32MiB\"}", NULL, &vs);
	(void)a;
	struct zone *dma = &ph.zones[MM_ZONE_DMA], *nor = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(nor->pages_low, 112);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_NORMAL], 16);
	assert_int_equal(nor->free_pages, 4032);
	struct mm_alloc_result r;
	/* pcp batch 2: allocation n (odd) sees free = 4032 - (n - 1); pass 1 needs
	 * free > 112, so 3919 allocations come from Normal and the 3920th (free = 112,
	 * one page still on the pcp list) falls back to DMA (3072 > 112 + 16) */
	for (int n = 1; n <= 3919; n++) {
		assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_KERNEL, &r),
				 MM_ALLOC_OK);
		assert_ptr_equal(r.zone, nor);
	}
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_ptr_equal(r.zone, dma);
	assert_int_equal(r.classzone_idx, MM_ZONE_NORMAL);
	assert_int_equal(r.wake_kswapd, 0);
	must_check(&ph);
	/* keep going until the allocator asks for reclaim */
	int n = 0;
	while (mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_KERNEL, &r) == MM_ALLOC_OK)
		n++;
	assert_int_equal(r.status, MM_ALLOC_NEED_RECLAIM);
	assert_true(r.should_retry);
	assert_int_equal(r.wake_kswapd, (1u << MM_ZONE_DMA) | (1u << MM_ZONE_NORMAL));
	/* nothing below pages_min for a normal allocation (pcp pages excluded) */
	assert_true(nor->free_pages <= nor->pages_min + 1);
	assert_true(dma->free_pages >= dma->pages_min);
	/* an atomic allocation may go deeper, then fails rather than reclaiming */
	enum mm_alloc_status s;
	while ((s = mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_ATOMIC, &r)) == MM_ALLOC_OK)
		;
	assert_int_equal(s, MM_ALLOC_FAIL);
	/* PF_MEMALLOC ignores the watermarks */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0,
					MM_GFP_KERNEL | MM_ALLOC_MEMALLOC, &r), MM_ALLOC_OK);
	/* after reclaim / last try */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0,
					MM_GFP_KERNEL | MM_ALLOC_AFTER_RECLAIM, &r),
			 MM_ALLOC_NEED_RECLAIM);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0,
					MM_GFP_KERNEL | MM_ALLOC_LAST_TRY, &r),
			 MM_ALLOC_NEED_OOM);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 4, 0, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_NEED_RECLAIM);
	assert_false(r.should_retry); /* order > 3 */
	assert_true(vs.ev[MM_PGALLOC] > 3920);
	must_check(&ph);
	teardown(&ph);

	/* x86_64 GFP_HIGHUSER without highmem starts at DMA32 */
	a = setup(&ph, "{\"arch\":\"x86_64\",\"memory\":\"64MiB\"}", NULL, NULL);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, 0, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_ptr_equal(r.zone, &ph.zones[MM_ZONE_DMA32]);
	assert_int_equal(r.classzone_idx, MM_ZONE_DMA32);
	mm_free_pages(&ph, r.pfn, 0, 0, false);
	/* GFP_DMA stays in DMA */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_DMA, 2, 0, 0, MM_GFP_KERNEL, &r), MM_ALLOC_OK);
	assert_ptr_equal(r.zone, &ph.zones[MM_ZONE_DMA]);
	mm_free_pages(&ph, r.pfn, 2, 0, false);
	must_check(&ph);
	teardown(&ph);
}

static void test_24_incremental_min(void **state)
{
	struct mm_phys ph;
	/* alpha 2.4.17: 16 MiB = 2048 8 KiB pages, one DMA zone, min 20 low 40 high 60,
	 * kernel 512 pages + mem_map 56 x 2048 B = 14 pages reserved: 1522 free */
	struct alloc *a = setup(&ph, "{\"arch\":\"alpha\",\"memory\":\"16MiB\","
				     "\"watermark_style\":\"2.4\"}", "{\"max_order\":10}", NULL);
	struct zone *z = &ph.zones[MM_ZONE_DMA];
	assert_int_equal(a->max_order, 10);
	assert_int_equal(z->pages_low, 40);
	assert_int_equal(z->free_pages, 2048 - 512 - 14);
	struct mm_alloc_result r;
	/* pass 1 takes while free > 1 + 40 (no pcp: every allocation locks the zone) */
	int n = 0;
	while (mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_KERNEL, &r) == MM_ALLOC_OK &&
	       r.wake_kswapd == 0 && z->free_pages > 41)
		n++;
	assert_int_equal(z->nr_pcp, 0);
	assert_int_equal(a->st.pcp_refill, 0);
	/* then pass 2 while free > 1 + 20 */
	while (mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, 0, 0, MM_GFP_KERNEL, &r) == MM_ALLOC_OK)
		;
	assert_int_equal(r.status, MM_ALLOC_NEED_RECLAIM);
	assert_int_equal(z->free_pages, 21);
	assert_int_equal(r.wake_kswapd, 1u << MM_ZONE_DMA);
	/* order 10 does not exist with max_order 10 */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 10, 0, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_FAIL);
	must_check(&ph);
	teardown(&ph);
}

struct blk {
	uint32_t pfn;
	unsigned order;
};

static void stress(const char *machine, int steps, uint64_t seed)
{
	struct mm_phys ph;
	struct alloc *a = setup(&ph, machine, NULL, NULL);
	static struct blk live[8192];
	int nlive = 0;
	struct mm_rng rng;
	mm_rng_seed(&rng, seed, 0, "stress");
	uint64_t total_free = mm_phys_free_pages(&ph);
	int nfail = 0, nhigh = 0;

	for (int s = 0; s < steps; s++) {
		bool do_alloc = nlive == 0 || (nlive < 8192 && mm_rng_below(&rng, 100) < 55);
		int cpu = (int)mm_rng_below(&rng, ph.ncpus);
		bool cold = mm_rng_below(&rng, 4) == 0;
		if (do_alloc) {
			static const unsigned ord[] = { 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 6, 10 };
			unsigned o = ord[mm_rng_below(&rng, sizeof ord / sizeof ord[0])];
			int cls = (int)mm_rng_below(&rng, MM_NR_ZONES - 1);
			struct mm_alloc_result r;
			unsigned fl = (mm_rng_below(&rng, 2) ? MM_GFP_KERNEL : MM_GFP_ATOMIC) |
				      (cold ? MM_GFP_COLD : 0);
			if (mm_alloc_pages(&ph, cls, o, MM_RCLM_EASY, cpu, fl, &r) == MM_ALLOC_OK) {
				assert_true(r.zone->idx <= cls);
				assert_int_equal(r.pfn & ((1u << o) - 1), 0);
				live[nlive++] = (struct blk){ r.pfn, o };
				nhigh += o >= 4;
			} else {
				nfail++;
			}
		} else {
			int i = (int)mm_rng_below(&rng, (uint64_t)nlive);
			mm_free_pages(&ph, live[i].pfn, live[i].order, cpu, cold);
			live[i] = live[--nlive];
		}
		must_check(&ph);
	}
	while (nlive) {
		nlive--;
		mm_free_pages(&ph, live[nlive].pfn, live[nlive].order, 0, false);
	}
	assert_true(nfail > 0);
	assert_true(nhigh > 0);
	assert_true(a->st.pcp_drain > 0 && a->st.pcp_refill > 0 && a->st.merges > 0);
	alloc_drain(a, -1);
	must_check(&ph);
	assert_int_equal(mm_phys_free_pages(&ph), total_free);
	assert_int_equal(a->st.bad_free, 0);
	teardown(&ph);
}

static void test_stress_flat(void **state)
{
	stress("{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,\"cpus\":2}", 3000, 1);
	/* everything merges back: 2048 pages = two order-10 blocks (checked via free total) */
}

static void test_stress_i386(void **state)
{
	stress("{\"arch\":\"i386\",\"memory\":\"40MiB\",\"cpus\":4}", 1500, 7);
}

static void test_check_catches(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	struct alloc *a = setup(&ph, FLAT4M, "{\"pcp\":false}", NULL);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(alloc_rmqueue(a, z, 0, 0, 0, false), 0);
	/* an allocated page claiming to be a free block head */
	page_set(&ph.pages[0], PG_buddy);
	assert_int_equal(mm_check(&ph, &e), -1);
	assert_non_null(strstr(e.msg, "pfn 0"));
	page_clear(&ph.pages[0], PG_buddy);
	/* a page on the LRU that the zone does not count */
	page_set(&ph.pages[0], PG_lru);
	assert_int_equal(mm_check(&ph, &e), -1);
	assert_non_null(strstr(e.msg, "PG_lru"));
	z->nr_inactive = 1;
	must_check(&ph);
	page_clear(&ph.pages[0], PG_lru);
	z->nr_inactive = 0;
	/* a wrong free counter */
	z->free_pages++;
	assert_int_equal(mm_check(&ph, &e), -1);
	assert_non_null(strstr(e.msg, "free_pages"));
	z->free_pages--;
	/* a tail page of a free block marked as on a list */
	page_set(&ph.pages[513], PG_pcp);
	assert_int_equal(mm_check(&ph, &e), -1);
	assert_non_null(strstr(e.msg, "pfn 513"));
	page_clear(&ph.pages[513], PG_pcp);
	must_check(&ph);
	teardown(&ph);
}

static void test_registry(void **state)
{
	struct mm_phys ph;
	struct mm_phys_cfg cfg;
	struct mm_err e = { "" };
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, NULL, NULL, "machine", NULL, &e), 0);
	cfg.memory = 64 << 20;
	assert_int_equal(mm_phys_init(&ph, &cfg, &e), 0);
	assert_null(alloc_create("nosuch", NULL, &ph, NULL, "s.json", "kernels.k.alloc", &e));
	assert_non_null(strstr(e.msg, "buddy"));
	assert_non_null(strstr(e.msg, "kernels.k.alloc"));
	json_t *p = json_loads("{\"module\":\"buddy\",\"max_order\":12}", 0, NULL);
	assert_null(alloc_create("buddy", p, &ph, NULL, "s.json", "kernels.k.alloc", &e));
	assert_non_null(strstr(e.msg, "kernels.k.alloc.max_order"));
	json_decref(p);
	assert_null(ph.alloc);
	assert_ptr_equal(alloc_find("buddy"), alloc_modules()[0]);
	struct alloc *a = alloc_create("buddy", NULL, &ph, NULL, NULL, NULL, &e);
	assert_non_null(a);
	json_t *pj = alloc_params_json(a);
	assert_string_equal(json_string_value(json_object_get(pj, "module")), "buddy");
	assert_int_equal(json_integer_value(json_object_get(pj, "max_order")), 11);
	json_decref(pj);
	teardown(&ph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_merge_exact), cmocka_unit_test(test_lifo),
		cmocka_unit_test(test_pcp_batch_high),    cmocka_unit_test(test_fragmentation),
		cmocka_unit_test(test_zonelist_fallback), cmocka_unit_test(test_24_incremental_min),
		cmocka_unit_test(test_stress_flat),       cmocka_unit_test(test_stress_i386),
		cmocka_unit_test(test_check_catches),     cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
