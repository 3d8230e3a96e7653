/*
 * test_timeline.c - emu/core/timeline.c: the busy intervals that shared resources
 * keep with engine.slack > 0.  Exact answers on small hand-made timelines:
 * where a late request finds the resource free, which gap a hold fits in,
 * merging, tags and pruning; and the
 * front-side bus's booking queue (models/hw/membus.c), whose late bookings take
 * the stall they add to later ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emu/core/timeline.h"
#include "models/mm/kernel.h"

/* [10, 20) cpu 1, [30, 40) cpu 2, [40, 45) cpu 3 (touching, different tags) */
static void three(struct timeline *tl)
{
	tl_init(tl);
	tl_book(tl, 30, 40, 2);
	tl_book(tl, 10, 20, 1);   /* out of order: goes first */
	tl_book(tl, 40, 45, 3);
}

static void free_at_and_fit(void **state)
{
	(void)state;
	struct timeline tl;
	three(&tl);
	assert_int_equal(tl.n, 3);
	assert_true(tl_free_at(&tl, 5) == 5);
	assert_true(tl_free_at(&tl, 10) == 20);   /* the start is busy */
	assert_true(tl_free_at(&tl, 15) == 20);
	assert_true(tl_free_at(&tl, 20) == 20);   /* the end is free */
	assert_true(tl_free_at(&tl, 35) == 45);   /* through the touching pair */
	/* a hold of 10 from 5 fits [5, 15)? no: [10, 20) is in the way; the gap
	 * [20, 30) takes it */
	assert_true(tl_fit(&tl, 5, 5) == 5);
	assert_true(tl_fit(&tl, 5, 10) == 20);
	assert_true(tl_fit(&tl, 5, 11) == 45);    /* no gap of 11 before the end */
	assert_true(tl_fit(&tl, 50, 100) == 50);
	tl_destroy(&tl);
	assert_int_equal(tl.n, 0);
}

static void book_merges(void **state)
{
	(void)state;
	struct timeline tl;
	three(&tl);
	/* same tag and touching: one interval */
	tl_book(&tl, 45, 50, 3);
	assert_int_equal(tl.n, 3);
	assert_true(tl.iv[tl.h + 2].s == 40 && tl.iv[tl.h + 2].e == 50);
	/* overlapping two: merged into one, with the new tag */
	tl_book(&tl, 15, 35, 7);
	assert_int_equal(tl.n, 2);
	assert_true(tl.iv[tl.h].s == 10 && tl.iv[tl.h].e == 40);
	assert_int_equal(tl.iv[tl.h].tag, 7);
	/* empty or reversed intervals are ignored */
	tl_book(&tl, 60, 60, 1);
	tl_book(&tl, 70, 65, 1);
	assert_int_equal(tl.n, 2);
	tl_destroy(&tl);
}

static void tags_and_next(void **state)
{
	(void)state;
	struct timeline tl;
	three(&tl);
	assert_int_equal(tl_tag_before(&tl, 5, -1), -1);   /* nothing before */
	assert_int_equal(tl_tag_before(&tl, 15, -1), 1);   /* inside */
	assert_int_equal(tl_tag_before(&tl, 25, -1), 1);   /* after it */
	assert_int_equal(tl_tag_before(&tl, 40, -1), 3);   /* the second of a touching pair */
	assert_int_equal(tl_tag_before(&tl, 99, -1), 3);
	const struct tl_iv *n = tl_next(&tl, 20);
	assert_non_null(n);
	assert_true(n->s == 30);
	assert_int_equal(n->tag, 2);
	n = tl_next(&tl, 10);
	assert_true(n && n->s == 10);
	assert_null(tl_next(&tl, 41));
	tl_destroy(&tl);
}

static void prune_and_grow(void **state)
{
	(void)state;
	struct timeline tl;
	three(&tl);
	tl_prune(&tl, 20);           /* [10, 20) ends at 20: gone */
	assert_int_equal(tl.n, 2);
	assert_true(tl_free_at(&tl, 12) == 12);
	tl_prune(&tl, 41);           /* [30, 40) gone, [40, 45) kept */
	assert_int_equal(tl.n, 1);
	tl_prune(&tl, 1000);
	assert_int_equal(tl.n, 0);
	/* 1,000 bookings in time order with pruning behind them: stays small */
	for (int i = 0; i < 1000; i++) {
		tl_book(&tl, 2.0 * i, 2.0 * i + 1, i & 1);
		tl_prune(&tl, 2.0 * i - 10);
	}
	assert_true(tl.n <= 6);
	assert_true(tl.cap <= 32);
	assert_int_equal(tl.oom, 0);
	tl_destroy(&tl);
}

static void bus_late_booking(void **state)
{
	(void)state;
	struct mm_busq q;
	memset(&q, 0, sizeof q);
	double end;
	/* X: copied 0..10, needs 8: served [0, 8), no stall */
	assert_true(mm_busq_book(&q, 0, 10, 0, 8, &end) == 0);
	assert_true(end == 8);
	/* Y: copied 5..20, needs 10: after X, [8, 18), no stall */
	assert_true(mm_busq_book(&q, 0, 20, 5, 10, &end) == 0);
	assert_true(end == 18);
	/* Z, booked late: copied 9..15, needs 6.  In time order it comes before
	 * Y: [9, 15) and no stall of its own, but Y moves to [15, 25) and stalls
	 * 5: Z pays those 5, the total stall of time order */
	assert_true(mm_busq_book(&q, 0, 15, 9, 6, &end) == 5);
	assert_true(end == 15);
	assert_int_equal(q.n, 3);
	assert_true(q.b[2].bt == 20 && q.b[2].end == 25);
	/* with the clock at 16, X and Z are folded into the base (15); W after Y */
	assert_true(mm_busq_book(&q, 16, 30, 12, 2, &end) == 0);
	assert_true(end == 27);
	assert_int_equal(q.n, 2);
	assert_true(q.base == 15);
	mm_busq_destroy(&q);
	assert_int_equal(q.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(free_at_and_fit),
		cmocka_unit_test(book_merges),
		cmocka_unit_test(tags_and_next),
		cmocka_unit_test(prune_and_grow),
		cmocka_unit_test(bus_late_booking),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
