/*
 * test_antifrag.c - the anti-fragmentation allocators of seed 003: mbuddy (which
 * block each request gets, when a pool block is stolen, when a block is re-typed,
 * the fallback reserve, per-type per-CPU lists and their drain on a high-order
 * failure) and zbuddy (which zone an easily reclaimable page comes from), the GFP
 * -> type rule, and a random stress of mbuddy with mm_check() after every step.
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

int mbuddy_block_type(const struct alloc *a, uint32_t pfn);
int mbuddy_counts(const struct alloc *a, uint64_t out[3]);

enum { T_NORCLM = MM_RCLM_NORCLM, T_KERN = MM_RCLM_KERN, T_EASY = MM_RCLM_EASY, T_FALLBACK };

static void must_check(const struct mm_phys *ph)
{
	struct mm_err e = { "" };
	int rc = mm_check(ph, &e);
	if (rc)
		print_error("mm_check: %s\n", e.msg);
	assert_int_equal(rc, 0);
}

static struct alloc *setup(struct mm_phys *ph, const char *machine, const char *mod,
			   const char *params)
{
	struct mm_phys_cfg cfg;
	struct mm_err e = { "" };
	json_t *o = json_loads(machine, 0, NULL);
	assert_non_null(o);
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, o, NULL, "machine", NULL, &e), 0);
	json_decref(o);
	assert_int_equal(mm_phys_init(ph, &cfg, &e), 0);
	json_t *p = params ? json_loads(params, 0, NULL) : NULL;
	struct alloc *a = alloc_create(mod, p, ph, NULL, NULL, "kernels.k.alloc", &e);
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

#define FLAT(mib) "{\"arch\":\"flat\",\"memory\":\"" #mib "MiB\",\"kernel_reserved\":0}"

static void counts(const struct alloc *a, uint64_t steals, uint64_t retypes, uint64_t fallbacks)
{
	uint64_t c[3];
	assert_int_equal(mbuddy_counts(a, c), 0);
	assert_int_equal(c[0], steals);
	assert_int_equal(c[1], retypes);
	assert_int_equal(c[2], fallbacks);
}

static void test_gfp_type(void **state)
{
	(void)state;
	assert_int_equal(mm_gfp_type(MM_GFP_KERNEL), MM_RCLM_NORCLM);
	assert_int_equal(mm_gfp_type(MM_GFP_KERNEL | MM_GFP_EASYRCLM), MM_RCLM_EASY);
	assert_int_equal(mm_gfp_type(MM_GFP_ATOMIC | MM_GFP_KERNRCLM), MM_RCLM_KERN);
	assert_int_equal(mm_gfp_type(MM_GFP_EASYRCLM | MM_GFP_KERNRCLM), -1);
}

/* Two 1024-page blocks, no reserve, no per-CPU lists: steal, fall back, re-type. */
static void test_steal_retype(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT(8), "mbuddy", "{\"pcp\":false,\"reserve_div\":0}");
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(z->nr_free[10], 2);
	/* EASY: its lists are empty -> the pool's head (the last block freed at boot) */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 0, false), 1024);
	assert_int_equal(mbuddy_block_type(a, 1024), T_EASY);
	counts(a, 1, 0, 0);
	/* NORCLM: the other pool block */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_NORCLM, 0, false), 0);
	assert_int_equal(mbuddy_block_type(a, 0), T_NORCLM);
	counts(a, 2, 0, 0);
	must_check(&ph);
	/* KERN: pool empty -> fallback NORCLM (before EASY), the largest block there is
	 * the order-9 half at 512: order >= 5, so block 0 becomes KERN */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_KERN, 0, false), 512);
	assert_int_equal(mbuddy_block_type(a, 0), T_KERN);
	assert_int_equal(mbuddy_block_type(a, 1024), T_EASY);
	counts(a, 2, 1, 1);
	must_check(&ph);
	/* NORCLM order 3: its lists are empty now -> fallback KERN: largest = order 8;
	 * two of them (256 moved in pfn order, 768 split off later at the head) -> 768,
	 * block 0 back to NORCLM */
	assert_int_equal(alloc_rmqueue(a, z, 3, T_NORCLM, 0, false), 768);
	assert_int_equal(mbuddy_block_type(a, 0), T_NORCLM);
	counts(a, 2, 2, 2);
	/* EASY order 4 is served from its own block without fallback */
	assert_int_equal(alloc_rmqueue(a, z, 4, T_EASY, 0, false), 1040);
	counts(a, 2, 2, 2);
	must_check(&ph);
	/* a small fallback (order < 5) does not re-type: use up NORCLM's and KERN's
	 * large blocks first is not needed - EASY order 9 from block 1 (1536) */
	assert_int_equal(alloc_rmqueue(a, z, 9, T_EASY, 0, false), 1536);
	/* freeing everything merges both blocks back into the pool */
	alloc_free(a, 1536, 9, 0, false);
	alloc_free(a, 1040, 4, 0, false);
	alloc_free(a, 768, 3, 0, false);
	alloc_free(a, 512, 0, 0, false);
	alloc_free(a, 0, 0, 0, false);
	alloc_free(a, 1024, 0, 0, false);
	assert_int_equal(z->nr_free[10], 2);
	assert_int_equal(z->free_pages, 2048);
	must_check(&ph);
	teardown(&ph);
}

/* Three blocks, reserve 1/8 (384 pages): the first block stolen becomes FALLBACK. */
static void test_fallback_reserve(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT(12), "mbuddy", "{\"pcp\":false}");
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 0, false), 2048);
	assert_int_equal(mbuddy_block_type(a, 2048), T_FALLBACK);
	/* the reserve now holds 1024 >= 384 pages: the next steal keeps its type */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_NORCLM, 0, false), 1024);
	assert_int_equal(mbuddy_block_type(a, 1024), T_NORCLM);
	/* EASY has no list of its own yet (block 2 is FALLBACK): steal block 0 */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 0, false), 0);
	assert_int_equal(mbuddy_block_type(a, 0), T_EASY);
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 0, false), 1);
	/* KERN: pool empty, FALLBACK first: the largest FALLBACK block, not re-typed */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_KERN, 0, false), 2560);
	assert_int_equal(mbuddy_block_type(a, 2560), T_FALLBACK);
	counts(a, 3, 0, 1);
	must_check(&ph);
	teardown(&ph);
}

/* Per-type per-CPU lists: a freed EASY page never serves a kernel allocation; a
 * high-order failure drains EASY pages of every CPU. */
static void test_pcp_types(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct alloc *a = setup(&ph, "{\"arch\":\"flat\",\"memory\":\"8MiB\",\"kernel_reserved\":0,"
				     "\"cpus\":2}", "mbuddy", "{\"reserve_div\":0}");
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(z->pageset[0].pcp[0].batch, 2);
	/* refill 2 EASY pages from the stolen block 1024, take the head */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 0, false), 1024);
	assert_int_equal(z->nr_pcp, 1);
	alloc_free(a, 1024, 0, 0, false);
	assert_int_equal(z->nr_pcp, 2);
	/* NORCLM on the same CPU: no NORCLM page on the list -> refill from block 0 */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_NORCLM, 0, false), 0);
	assert_int_equal(z->nr_pcp, 3);
	must_check(&ph);
	/* an EASY page parked on CPU 1 too */
	assert_int_equal(alloc_rmqueue(a, z, 0, T_EASY, 1, false), 1026);
	assert_int_equal(z->nr_pcp, 4);
	/* the drain returns the 3 EASY pages (1024, 1025 on cpu 0, 1027 on cpu 1) and
	 * leaves the NORCLM page (1) */
	assert_true(a->ops->alloc_failed(a, 10, 0));
	assert_int_equal(z->nr_pcp, 1);
	assert_true(page_test(&ph.pages[1], PG_pcp));
	assert_false(a->ops->alloc_failed(a, 10, 0));
	must_check(&ph);
	teardown(&ph);
}

/* The drain through mm_alloc_pages(): the order-10 failure (the watermark stops
 * the 8th block) makes mbuddy give its parked EASY pages back; buddy keeps them.
 * Returns: order-10 successes; *@parked: pages left on per-CPU lists. */
static unsigned order10_after_parking(const char *mod, uint32_t *parked)
{
	struct mm_phys ph;
	struct alloc *a = setup(&ph, FLAT(32), mod, NULL);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	uint32_t p[4];
	for (int i = 0; i < 4; i++)
		p[i] = alloc_rmqueue(a, z, 0, T_EASY, 0, false);
	for (int i = 0; i < 4; i++)
		alloc_free(a, p[i], 0, 0, false);
	assert_true(z->nr_pcp > 0);
	unsigned n = 0;
	struct mm_alloc_result r;
	while (mm_alloc_pages(&ph, MM_ZONE_NORMAL, 10, T_EASY, 0, MM_GFP_KERNEL, &r) == MM_ALLOC_OK)
		n++;
	assert_int_equal(r.status, MM_ALLOC_NEED_RECLAIM);
	*parked = z->nr_pcp;
	must_check(&ph);
	teardown(&ph);
	return n;
}

static void test_drain_on_failure(void **state)
{
	(void)state;
	uint32_t pb, pm;
	/* 8 blocks, one split by the per-CPU refill: 7 whole ones */
	assert_int_equal(order10_after_parking("buddy", &pb), 7);
	assert_int_equal(order10_after_parking("mbuddy", &pm), 7);
	assert_int_equal(pb, 4);
	assert_int_equal(pm, 0);
}

/* zbuddy: which zone an easily reclaimable page comes from. */
static void test_zbuddy_zones(void **state)
{
	(void)state;
	static const char *const box = "{\"arch\":\"i386\",\"memory\":\"1536MiB\","
				       "\"kernelcore\":\"512MiB\",\"cpus\":4}";
	struct mm_alloc_result r;
	struct mm_phys ph;
	setup(&ph, box, "zbuddy", NULL);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, T_EASY, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_EASYRCLM);
	assert_int_equal(r.classzone_idx, MM_ZONE_EASYRCLM);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 10, T_EASY, 1, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_EASYRCLM);
	/* kernel allocations never: a page table (GFP_HIGHUSER class, NORCLM) and a
	 * dentry (GFP_KERNEL, KERN) go to Normal */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, T_NORCLM, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_NORMAL);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_NORMAL, 0, T_KERN, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_NORMAL);
	/* an invalid type is refused */
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, MM_NR_RCLM, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_FAIL);
	must_check(&ph);
	teardown(&ph);
	/* the stock buddy on the same zones: the user page goes to Normal */
	setup(&ph, box, "buddy", NULL);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, T_EASY, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_NORMAL);
	teardown(&ph);
	/* kernelcore 1024MiB: HighMem 896..1024 MiB stays, EasyRclm first, then HighMem */
	setup(&ph, "{\"arch\":\"i386\",\"memory\":\"1536MiB\",\"kernelcore\":\"1024MiB\"}",
	      "zbuddy", NULL);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 32768);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, T_EASY, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_EASYRCLM);
	assert_int_equal(mm_alloc_pages(&ph, MM_ZONE_HIGHMEM, 0, T_NORCLM, 0, MM_GFP_KERNEL, &r),
			 MM_ALLOC_OK);
	assert_int_equal(r.zone->idx, MM_ZONE_HIGHMEM);
	teardown(&ph);
}

struct blk {
	uint32_t pfn;
	unsigned order;
};

/* Random types, orders, CPUs: every step keeps mm_check() and the usemap rules. */
static void test_stress(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct alloc *a = setup(&ph, "{\"arch\":\"i386\",\"memory\":\"64MiB\",\"cpus\":2}",
				"mbuddy", NULL);
	static struct blk live[4096];
	int nlive = 0, nok = 0;
	struct mm_rng rng;
	mm_rng_seed(&rng, 3, 0, "antifrag");
	uint64_t total = mm_phys_free_pages(&ph);
	for (int s = 0; s < 6000; s++) {
		int cpu = (int)mm_rng_below(&rng, 2);
		if (nlive == 0 || (nlive < 4096 && mm_rng_below(&rng, 100) < 55)) {
			static const unsigned ord[] = { 0, 0, 0, 0, 0, 1, 2, 3, 5, 10 };
			unsigned o = ord[mm_rng_below(&rng, sizeof ord / sizeof ord[0])];
			int type = (int)mm_rng_below(&rng, MM_NR_RCLM);
			struct mm_alloc_result r;
			if (mm_alloc_pages(&ph, MM_ZONE_NORMAL, o, type, cpu, MM_GFP_KERNEL, &r) ==
			    MM_ALLOC_OK) {
				assert_int_equal(ph.pages[r.pfn].alloc_type, type);
				live[nlive++] = (struct blk){ r.pfn, o };
				nok++;
			}
		} else {
			int i = (int)mm_rng_below(&rng, (uint64_t)nlive);
			mm_free_pages(&ph, live[i].pfn, live[i].order, cpu, false);
			live[i] = live[--nlive];
		}
		if (s % 16 == 0)
			must_check(&ph);
	}
	assert_true(nok > 1000);
	while (nlive) {
		nlive--;
		mm_free_pages(&ph, live[nlive].pfn, live[nlive].order, 0, false);
	}
	alloc_drain(a, -1);
	assert_int_equal(mm_phys_free_pages(&ph), total);
	must_check(&ph);
	teardown(&ph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gfp_type),         cmocka_unit_test(test_steal_retype),
		cmocka_unit_test(test_fallback_reserve), cmocka_unit_test(test_pcp_types),
		cmocka_unit_test(test_drain_on_failure), cmocka_unit_test(test_zbuddy_zones),
		cmocka_unit_test(test_stress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
