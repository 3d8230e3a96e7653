/*
 * test_mrc.c - miss-ratio curves (workloads/mrc.c) against the replay loop:
 * stack distances of a hand-computed string, the exact LRU curve equal to replay
 * at every size (across many renumberings of the Fenwick tree), SHARDS within its
 * stated error of replay at several sizes for lru, fifo and clock, simulation
 * equal to replay, and every error message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "models/reclaim/reclaim.h"
#include "workloads/mrc.h"
#include "workloads/replay.h"
#include "workloads/tracegen.h"

/* Faults of @policy with @frames frames on @refs (pages < npages). */
static uint64_t replay_faults(const char *policy, const uint32_t *refs, size_t n, uint32_t npages,
			      uint32_t frames)
{
	struct mm_err e = { "" };
	struct reclaim *r = reclaim_create(policy, NULL, frames, NULL, NULL, NULL, &e);
	assert_non_null(r);
	struct replay rp;
	assert_int_equal(replay_init(&rp, r, npages, NULL, &e), 0);
	assert_int_equal(replay_run(&rp, refs, n, NULL, NULL, &e), 0);
	uint64_t f = rp.faults;
	replay_fini(&rp);
	reclaim_destroy(r);
	return f;
}

/* a b c a b d a e b c: distances 0 0 0 3 3 0 3 0 4 5 (0: first use) */
static void test_hand_string(void **state)
{
	(void)state;
	static const uint32_t refs[] = { 0, 1, 2, 0, 1, 3, 0, 4, 1, 2 };
	static const uint32_t want[] = { 0, 0, 0, 3, 3, 0, 3, 0, 4, 5 };
	uint64_t hist[6] = { 0 };
	uint32_t dist[10];
	struct mm_err e = { "" };
	assert_int_equal(mrc_stack_distances(refs, 10, 5, NULL, hist, dist, &e), 0);
	assert_memory_equal(dist, want, sizeof want);
	assert_int_equal(hist[0], 5);
	assert_int_equal(hist[3], 3);
	assert_int_equal(hist[4], 1);
	assert_int_equal(hist[5], 1);
	struct mrc m;
	assert_int_equal(mrc_compute(refs, 10, 5, NULL, "lru", NULL, MRC_EXACT, 0, NULL, 0, &m, &e), 0);
	assert_int_equal(m.npoints, 5);
	static const uint64_t misses[] = { 10, 10, 7, 6, 5 };
	for (int c = 0; c < 5; c++) {
		assert_int_equal(m.pts[c].frames, c + 1);
		assert_int_equal(m.pts[c].misses, misses[c]);
		assert_true(m.pts[c].error == 0);
	}
	mrc_free(&m);
	/* only pages a and b kept: a b a b a b -> 0 0 2 2 2 2 */
	static const uint8_t keep[] = { 1, 1, 0, 0, 0 };
	memset(hist, 0, sizeof hist);
	assert_int_equal(mrc_stack_distances(refs, 10, 5, keep, hist, dist, &e), 0);
	assert_int_equal(dist[2], UINT32_MAX);
	assert_int_equal(dist[3], 2);
	assert_int_equal(dist[8], 2);
	assert_int_equal(hist[0], 2);
	assert_int_equal(hist[2], 4);
}

/* 40,000 zipf references over 300 pages: the tree (601 slots) is renumbered
 * more than 60 times; the curve equals replay's lru at every size 1..npages. */
static void test_exact_every_size(void **state)
{
	(void)state;
	struct tracegen_cfg c = tracegen_defaults();
	c.refs = 40000;
	c.pages = 300;
	c.seed = 11;
	uint32_t *refs = malloc(c.refs * sizeof *refs);
	struct mm_err e = { "" };
	assert_int_equal(tracegen_fill(&c, refs, &e), 0);
	struct mrc m;
	assert_int_equal(mrc_compute(refs, c.refs, 300, NULL, "lru", NULL, MRC_EXACT, 0, NULL, 0, &m,
				     &e), 0);
	assert_int_equal(m.npoints, 300);
	for (uint32_t f = 1; f <= 300; f++)
		assert_int_equal(m.pts[f - 1].misses, replay_faults("lru", refs, c.refs, 300, f));
	mrc_free(&m);
	/* chosen sizes, one beyond the page count */
	static const uint32_t sizes[] = { 7, 150, 299, 1000 };
	assert_int_equal(mrc_compute(refs, c.refs, 300, NULL, "lru", NULL, MRC_EXACT, 0, sizes, 4,
				     &m, &e), 0);
	for (int k = 0; k < 4; k++)
		assert_int_equal(m.pts[k].misses, replay_faults("lru", refs, c.refs, 300, sizes[k]));
	assert_int_equal(m.pts[3].misses, 300);
	mrc_free(&m);
	free(refs);
}

/* SHARDS at rate 0.1 on 300,000 zipf references over 30,000 pages: each point
 * within its stated error of a full replay, for lru (scaled stack distances) and
 * fifo and clock (miniature simulations); simulation equals replay exactly. */
static void test_shards_within_error(void **state)
{
	(void)state;
	struct tracegen_cfg c = tracegen_defaults();
	c.refs = 300000;
	c.pages = 30000;
	c.seed = 5;
	uint32_t *refs = malloc(c.refs * sizeof *refs);
	struct mm_err e = { "" };
	assert_int_equal(tracegen_fill(&c, refs, &e), 0);
	uint32_t np = 0;   /* dense ids (first-seen order), as a loaded trace has */
	uint32_t *id = malloc(c.pages * sizeof *id);
	uint64_t *orig = malloc(c.pages * sizeof *orig);
	for (uint32_t p = 0; p < c.pages; p++)
		id[p] = UINT32_MAX;
	for (size_t i = 0; i < c.refs; i++) {
		if (id[refs[i]] == UINT32_MAX) {
			orig[np] = refs[i];
			id[refs[i]] = np++;
		}
		refs[i] = id[refs[i]];
	}
	static const uint32_t sizes[] = { 100, 1000, 5000, 15000 };
	static const char *const pols[] = { "lru", "fifo", "clock" };
	for (int k = 0; k < 3; k++) {
		struct mrc s, x;
		assert_int_equal(mrc_compute(refs, c.refs, np, orig, pols[k], NULL, MRC_SHARDS, 0.1,
					     sizes, 4, &s, &e), 0);
		assert_int_equal(mrc_compute(refs, c.refs, np, orig, pols[k], NULL, MRC_SIMULATE, 0,
					     sizes, 4, &x, &e), 0);
		assert_true(s.sampled_pages > 0 && s.sampled_pages < np);
		for (int j = 0; j < 4; j++) {
			uint64_t f = replay_faults(pols[k], refs, c.refs, np, sizes[j]);
			assert_int_equal(x.pts[j].misses, f);
			double exact = (double)f / (double)c.refs, d = s.pts[j].miss_ratio - exact;
			if (!(s.pts[j].error > 0 && (d < 0 ? -d : d) <= s.pts[j].error))
				fail_msg("%s at %u frames: shards %.5f +- %.5f, replay %.5f", pols[k],
					 sizes[j], s.pts[j].miss_ratio, s.pts[j].error, exact);
		}
		mrc_free(&s);
		mrc_free(&x);
	}
	free(refs);
	free(id);
	free(orig);
}

static void expect_error(const char *policy, enum mrc_method m, double rate, const uint32_t *sizes,
			 size_t n, const char *msg)
{
	static const uint32_t refs[] = { 0, 1, 2, 0, 1, 3 };
	struct mrc out;
	struct mm_err e = { "" };
	assert_int_equal(mrc_compute(refs, 6, 4, NULL, policy, NULL, m, rate, sizes, n, &out, &e), -1);
	if (!strstr(e.msg, msg))
		fail_msg("\"%s\" lacks \"%s\"", e.msg, msg);
	assert_null(out.pts);
}

static void test_errors(void **state)
{
	(void)state;
	static const uint32_t two[] = { 2, 3 }, down[] = { 3, 2 }, zero[] = { 0 }, big[] = { 40 };
	expect_error("nosuch", MRC_EXACT, 0, NULL, 0, "--policy: unknown reclaim module \"nosuch\"");
	expect_error("lru2q", MRC_SIMULATE, 0, two, 2, "--policy: zone-level reclaim module");
	expect_error("fifo", MRC_EXACT, 0, NULL, 0, "--method: exact: one pass gives every size only for lru");
	expect_error("fifo", MRC_SIMULATE, 0, NULL, 0, "--sizes: expected the sizes to estimate");
	expect_error("lru", MRC_SHARDS, 1.5, two, 2, "--rate: expected a sampling rate in (0, 1)");
	expect_error("lru", MRC_EXACT, 0, down, 2, "--sizes: expected increasing frame counts");
	expect_error("lru", MRC_EXACT, 0, zero, 1, "--sizes: expected increasing frame counts");
	expect_error("lru", MRC_SHARDS, 0.01, two, 2, "2 frames at rate 0.01 samples less than one frame: use sizes of at least 100 frames");
	expect_error("lru", MRC_SHARDS, 0.05, big, 1, "--rate: 0.05 sampled none of the 4 pages");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_string),
		cmocka_unit_test(test_exact_every_size),
		cmocka_unit_test(test_shards_within_error),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
