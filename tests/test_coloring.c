/*
 * test_coloring.c - page colouring (models/coloring/coloring.c) on the buddy
 * allocator: alloc_take() splits exactly as the patch's colour allocator does,
 * round-robin hands out consecutive colours from its start colour, an empty
 * colour is a miss that advances the colour, page colouring follows the virtual
 * page, `none` never asks; the free lists stay consistent (mm_check).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/mm/mm_check.h"
#include "models/mm/zone.h"

static struct coloring *cur;   /* checked with the lists too, when set */

static void must_check(const struct mm_phys *ph)
{
	struct mm_err e = { "" };
	int rc = mm_check(ph, &e) || (cur && coloring_check(cur, &e));
	if (rc)
		print_error("mm_check: %s\n", e.msg);
	assert_int_equal(rc, 0);
}

/* 4 MiB flat memory (1024 pages), buddy without per-CPU lists. */
static struct alloc *setup(struct mm_phys *ph, struct mm_vmstat *vs)
{
	struct mm_phys_cfg cfg;
	struct mm_err e = { "" };
	json_t *o = json_loads("{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0}", 0, NULL);
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, o, NULL, "machine", NULL, &e), 0);
	json_decref(o);
	assert_int_equal(mm_phys_init(ph, &cfg, &e), 0);
	ph->vs = vs;
	json_t *p = json_loads("{\"pcp\":false}", 0, NULL);
	struct alloc *a = alloc_create("buddy", p, ph, vs, NULL, "kernels.k.alloc", &e);
	json_decref(p);
	assert_non_null(a);
	return a;
}

static struct coloring *make(const char *name, uint32_t ncolors, struct mm_vmstat *vs,
			     struct alloc *a)
{
	struct mm_err e = { "" };
	struct coloring *c = coloring_create(name, NULL, ncolors, vs, "t.json", "kernels.k.coloring", &e);
	assert_non_null(c);
	assert_int_equal(coloring_attach(c, a, &e), 0);
	cur = c;
	mm_rng_seed(&c->rng, 1, 0, "coloring");
	return c;
}

/* Taking pfn 5 of the fresh order-10 block keeps 5 and files one block of every
 * order 0..9: 4@0 (the buddy of 5), 6@1, 0@2, 8@3, 16@4, ..., 512@9. */
static void test_take_split(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct mm_vmstat vs = { { 0 } };
	struct alloc *a = setup(&ph, &vs);
	struct zone *z = &ph.zones[MM_ZONE_NORMAL];
	assert_int_equal(alloc_take(a, 5, MM_RCLM_EASY), 0);
	assert_int_equal(z->free_pages, 1023);
	for (unsigned o = 0; o < 10; o++)
		assert_int_equal(z->nr_free[o], 1);
	assert_true(page_test(&ph.pages[4], PG_buddy) && ph.pages[4].order == 0);
	assert_true(page_test(&ph.pages[6], PG_buddy) && ph.pages[6].order == 1);
	assert_true(page_test(&ph.pages[0], PG_buddy) && ph.pages[0].order == 2);
	assert_true(page_test(&ph.pages[8], PG_buddy) && ph.pages[8].order == 3);
	assert_true(page_test(&ph.pages[512], PG_buddy) && ph.pages[512].order == 9);
	assert_int_equal(ph.pages[5].count, 1);
	must_check(&ph);
	/* not free any more, out of range */
	assert_int_equal(alloc_take(a, 5, MM_RCLM_EASY), -1);
	assert_int_equal(alloc_take(a, 5000, MM_RCLM_EASY), -1);
	/* freeing merges everything back */
	alloc_free(a, 5, 0, 0, false);
	assert_int_equal(z->nr_free[10], 1);
	assert_int_equal(z->free_pages, 1024);
	must_check(&ph);
	alloc_destroy(a);
	mm_phys_fini(&ph);
}

/* One allocation as the kernel does it: the allocator's page, then placement. */
static uint32_t one(struct coloring *c, struct alloc *a, struct coloring_task *ct)
{
	struct zone *z = &a->phys->zones[MM_ZONE_NORMAL];
	int col = coloring_pick(c, NULL, ct);
	uint32_t pfn = alloc_rmqueue(a, z, 0, MM_RCLM_EASY, 0, false);
	assert_int_not_equal(pfn, PFN_NONE);
	unsigned probes;
	return coloring_place(c, a, ct, pfn, col, 0, &probes);
}

static void test_roundrobin(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct mm_vmstat vs = { { 0 } };
	struct alloc *a = setup(&ph, &vs);
	struct coloring *c = make("roundrobin", 8, &vs, a);
	struct coloring_task ct = { 0 };
	uint32_t first = one(c, a, &ct);
	assert_true(ct.init);
	for (uint32_t i = 1; i < 20; i++) {
		uint32_t pfn = one(c, a, &ct);
		assert_int_equal(pfn % 8, (first + i) % 8);
	}
	assert_int_equal(c->hits, 20);
	assert_int_equal(c->misses, 0);
	assert_int_equal(c->placed, 20);
	must_check(&ph);
	/* empty colour 3: take every free page of it, then ask for it */
	for (uint32_t p = 3; p < 1024; p += 8)
		alloc_take(a, p, MM_RCLM_EASY);
	ct.next = 3;
	uint32_t pfn = one(c, a, &ct);
	assert_int_equal(pfn % 8, 4);
	assert_int_equal(c->misses, 1);
	assert_int_equal(c->hits, 20);
	assert_int_equal(ct.next, 5);
	must_check(&ph);
	/* a new process (exec clears init) draws a start colour again */
	ct.init = false;
	one(c, a, &ct);
	assert_true(ct.init);
	coloring_destroy(c);
	cur = NULL;
	alloc_destroy(a);
	mm_phys_fini(&ph);
}

static void test_pagecolor_none(void **state)
{
	(void)state;
	struct mm_phys ph;
	struct mm_vmstat vs = { { 0 } };
	struct alloc *a = setup(&ph, &vs);
	struct coloring *c = make("pagecolor", 8, &vs, a);
	struct coloring_task ct = { 0 };
	for (uint64_t v = 0; v < 24; v++) {
		ct.vpn = v * 5 + 1;
		ct.vpn_valid = true;
		uint32_t pfn = one(c, a, &ct);
		assert_int_equal(pfn % 8, (v * 5 + 1) % 8);
	}
	ct.vpn_valid = false;   /* not a user fault: any page */
	assert_int_equal(coloring_pick(c, NULL, &ct), -1);
	coloring_destroy(c);
	cur = NULL;
	c = make("none", 8, &vs, a);
	ct.vpn_valid = true;
	assert_int_equal(coloring_pick(c, NULL, &ct), -1);
	unsigned probes;
	assert_int_equal(coloring_place(c, a, &ct, 7, -1, 0, &probes), 7);
	assert_int_equal(probes, 0);
	coloring_destroy(c);
	cur = NULL;
	/* one colour: nothing to do */
	c = make("roundrobin", 1, &vs, a);
	assert_int_equal(coloring_pick(c, NULL, &ct), -1);
	coloring_destroy(c);
	cur = NULL;
	struct mm_err e = { "" };
	assert_null(coloring_create("bin-hopping", NULL, 8, &vs, "t.json", "kernels.k.coloring", &e));
	assert_non_null(strstr(e.msg, "roundrobin"));
	must_check(&ph);
	alloc_destroy(a);
	mm_phys_fini(&ph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_split),
		cmocka_unit_test(test_roundrobin),
		cmocka_unit_test(test_pagecolor_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
