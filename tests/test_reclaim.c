/*
 * test_reclaim.c - reclaim modules through the replay loop: textbook fault counts,
 * Belady's anomaly, the stack property, cross-checks against naive reference
 * implementations, the registry's error messages, and the `mmemu replay` command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/cli/cli.h"
#include "emu/core/rng.h"
#include "models/reclaim/reclaim.h"
#include "workloads/replay.h"
#include "workloads/tracefile.h"
#include "workloads/tracegen.h"

static const uint32_t classic[] = { 7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1 };
static const uint32_t belady[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Faults of @policy (with JSON params @pj or NULL) on @refs (ids < npages). */
static uint64_t faults_p(const char *policy, const char *pj, const uint32_t *refs, size_t n,
			 uint32_t npages, uint32_t frames)
{
	struct mm_err e = { { 0 } };
	json_t *params = pj ? json_loads(pj, 0, NULL) : NULL;
	struct mm_vmstat vs = { { 0 } };
	struct reclaim *r = reclaim_create(policy, params, frames, &vs, NULL, NULL, &e);
	json_decref(params);
	if (!r)
		fail_msg("reclaim_create(%s): %s", policy, e.msg);
	struct replay rp;
	assert_int_equal(replay_init(&rp, r, npages, &vs, &e), 0);
	if (replay_run(&rp, refs, n, NULL, NULL, &e) < 0)
		fail_msg("replay_run(%s): %s", policy, e.msg);
	assert_int_equal(rp.refs, n);
	assert_int_equal(rp.faults + rp.hits, n);
	assert_int_equal(vs.ev[MM_PGFAULT], rp.faults);
	assert_int_equal(vs.ev[MM_REF_MISS], rp.faults);
	assert_int_equal(vs.ev[MM_REF_HIT], rp.hits);
	assert_int_equal(vs.ev[MM_POLICY_ADD], rp.faults);
	assert_int_equal(vs.ev[MM_POLICY_ACCESS], rp.hits);
	uint64_t f = rp.faults;
	replay_fini(&rp);
	reclaim_destroy(r);
	return f;
}

static uint64_t faults(const char *policy, const uint32_t *refs, size_t n, uint32_t frames)
{
	uint32_t np = 0;
	for (size_t i = 0; i < n; i++)
		if (refs[i] + 1 > np)
			np = refs[i] + 1;
	return faults_p(policy, NULL, refs, n, np, frames);
}

static void test_classic(void **state)
{
	(void)state;
	assert_int_equal(faults("fifo", classic, N(classic), 3), 15);
	assert_int_equal(faults("lru", classic, N(classic), 3), 12);
	assert_int_equal(faults("opt", classic, N(classic), 3), 9);
	/* 4 frames: FIFO 10, LRU 8, OPT 8 (Silberschatz exercise values) */
	assert_int_equal(faults("fifo", classic, N(classic), 4), 10);
	assert_int_equal(faults("lru", classic, N(classic), 4), 8);
	assert_int_equal(faults("opt", classic, N(classic), 4), 8);
	/* enough frames: only the 6 compulsory misses */
	for (const char *const *p = (const char *const[]){ "fifo", "lru", "clock", "opt", "random", NULL };
	     *p; p++)
		assert_int_equal(faults(*p, classic, N(classic), 6), 6);
}

/*
 * CLOCK on the classic string, 3 frames.  Notation: frame contents page(bit), h =
 * hand; free frames are filled 0,1,2 and the hand starts at frame 0.
 *
 * new_page_referenced = false (a new page starts with bit 0):
 *   7 0 1  F F F     [7(0) 0(0) 1(0)] h0
 *   2  F   7(0) out  [2(0) 0(0) 1(0)] h1                 4
 *   0  hit           0(1)
 *   3  F   0(1)->0, 1(0) out [2(0) 0(0) 3(0)] h0           5
 *   0  hit           0(1)
 *   4  F   2(0) out  [4(0) 0(1) 3(0)] h1                 6
 *   2  F   0(1)->0, 3(0) out [4(0) 0(0) 2(0)] h0           7
 *   3  F   4(0) out  [3(0) 0(0) 2(0)] h1                 8
 *   0 3 2 hits       [3(1) 0(1) 2(1)] h1
 *   1  F   0,2,3 cleared, 0(0) out [3(0) 1(0) 2(0)] h2     9
 *   2  hit           2(1)
 *   0  F   2(1)->0, 3(0) out [0(0) 1(0) 2(0)] h1           10
 *   1  hit           1(1)
 *   7  F   1(1)->0, 2(0) out [0(0) 1(0) 7(0)] h0           11
 *   0 1 hits                                             = 11 faults
 *
 * new_page_referenced = true (a new page starts with bit 1):
 *   7 0 1  F F F     [7(1) 0(1) 1(1)] h0
 *   2  F   clear all, 7 out    [2(1) 0(0) 1(0)] h1         4
 *   0  hit           0(1)
 *   3  F   0(1)->0, 1(0) out [2(1) 0(0) 3(1)] h0           5
 *   0  hit           0(1)
 *   4  F   clear 2,0,3, 2 out  [4(1) 0(0) 3(0)] h1         6
 *   2  F   0(0) out  [4(1) 2(1) 3(0)] h2                 7
 *   3  hit           3(1)
 *   0  F   clear 3,4,2, 3 out  [4(0) 2(0) 0(1)] h0         8
 *   3  F   4(0) out  [3(1) 2(0) 0(1)] h1                 9
 *   2  hit           2(1)
 *   1  F   clear 2,0,3, 2 out  [3(0) 1(1) 0(0)] h2         10
 *   2  F   0(0) out  [3(0) 1(1) 2(1)] h0                 11
 *   0  F   3(0) out  [0(1) 1(1) 2(1)] h1                 12
 *   1  hit
 *   7  F   clear 1,2,0, 1 out  [0(0) 7(1) 2(0)] h2         13
 *   0  hit           0(1)
 *   1  F   2(0) out                                      = 14 faults
 */
/*
 * random (models/reclaim/random.c, the worked example of docs/hacking.md).  Exact
 * counts where the victim choice cannot matter, then the properties that make it
 * the textbook baseline: reproducible per seed, immune to LRU's looping worst case,
 * never better than OPT.
 */
static void test_random(void **state)
{
	(void)state;
	/* enough frames: only the 6 compulsory misses; one frame: every change misses */
	assert_int_equal(faults("random", classic, N(classic), 6), 6);
	assert_int_equal(faults("random", classic, N(classic), 1), 20);
	/* 1 2 3 3 3 1 with 3 frames: 3 misses, whatever is drawn */
	static const uint32_t small[] = { 1, 2, 3, 3, 3, 1 };
	assert_int_equal(faults("random", small, N(small), 3), 3);
	/* a loop of 4 pages through 3 frames, 100 times: LRU and FIFO miss every one */
	uint32_t loop[400];
	for (size_t i = 0; i < N(loop); i++)
		loop[i] = (uint32_t)(i % 4);
	assert_int_equal(faults("lru", loop, N(loop), 3), 400);
	assert_int_equal(faults("fifo", loop, N(loop), 3), 400);
	uint64_t r1 = faults_p("random", "{\"seed\": 1}", loop, N(loop), 4, 3);
	uint64_t opt = faults("opt", loop, N(loop), 3);
	assert_true(r1 < 400);
	assert_true(r1 >= opt);
	/* the same seed gives the same evictions; the default seed is 1 */
	assert_int_equal(faults_p("random", "{\"seed\": 1}", loop, N(loop), 4, 3), r1);
	assert_int_equal(faults("random", loop, N(loop), 3), r1);
	int differs = 0;
	for (int sd = 2; sd < 10; sd++) {
		char pj[32];
		snprintf(pj, sizeof pj, "{\"seed\": %d}", sd);
		uint64_t f = faults_p("random", pj, loop, N(loop), 4, 3);
		assert_true(f >= opt && f < 400);
		differs |= f != r1;
	}
	assert_true(differs);
	/* a bad seed is refused with its path */
	struct mm_err e = { { 0 } };
	json_t *bad = json_loads("{\"seed\": -1}", 0, NULL);
	assert_null(reclaim_create("random", bad, 3, NULL, "s.json", "kernels.k.reclaim", &e));
	json_decref(bad);
	assert_non_null(strstr(e.msg, "s.json: kernels.k.reclaim.seed"));
}

static void test_clock(void **state)
{
	(void)state;
	assert_int_equal(faults_p("clock", NULL, classic, N(classic), 8, 3), 11);
	assert_int_equal(faults_p("clock", "{\"new_page_referenced\": false}", classic,
				  N(classic), 8, 3), 11);
	assert_int_equal(faults_p("clock", "{\"new_page_referenced\": true}", classic,
				  N(classic), 8, 3), 14);
	/* "module" is ignored by the parameter loader */
	assert_int_equal(faults_p("clock", "{\"module\": \"clock\", \"new_page_referenced\": true}",
				  classic, N(classic), 8, 3), 14);
}

/*
 * The policies the field compares against (2q, arc, lirs, s3fifo, sieve), on the
 * classic string with 3 frames, traced by hand (queues written head first; "n" a
 * non-resident entry; G/A1out/B1/B2 hold page ids only).
 *
 * 2q (Kin = floor(0.75) = 0, Kout = floor(1.5) = 1): 7 0 1 fill A1in; every fault
 *   evicts A1in's tail while A1in is not empty (|A1in| > 0), its id to A1out; 0, 2
 *   and 3 fault while in A1out and enter Am; 1 (ref 14) evicts Am's tail 0, 0
 *   (ref 16) evicts A1in's 1, 1 comes back through A1out, 7 evicts Am's 3 and 0
 *   comes back through A1out: 14 faults.
 * arc (c = 3): 7 0 1; 2: |T1| = 3 = c, B1 empty: T1's LRU 7 goes without a ghost;
 *   0 hits (T2); 3: REPLACE 1 -> B1; 4: drop 1, 2 -> B1; 2 (B1 hit): p = 1, 3 ->
 *   B1; 3 (B1 hit): p = 2, T2's 0 -> B2; 0 (B2 hit): p = 1, |T1| = p and 0 in B2:
 *   4 -> B1; 3 2 hit; 1: T1 empty, 0 -> B2; 0 (B2): p = 0, 1 -> B1; 1 (B1): p = 1,
 *   3 -> B2; 7: 2 -> B2; 0 1 hit: 13 faults.
 * lirs (Llirs = 2, Lhirs = 1): 7 0 LIR, 1 HIR; 2 4 3 evict Q's front and leave
 *   non-resident entries in S; 2 (ref 9) finds 2n in S: LIR, 7 demoted, 1n 3n
 *   pruned; 3 evicts 7 (not in S); 0 hits at S's bottom (4n pruned); 3 hits in S:
 *   LIR, 2 demoted; 2 hits outside S; 1 evicts 2 (-> 2n); 2 (2n) LIR, 0 demoted;
 *   0 hits; 1 (1n) evicts 0 and becomes LIR, 3 demoted; 7 evicts 3; 0 (0n) evicts
 *   7 and becomes LIR; 1 hits: 13 faults.
 * s3fifo (|S| share 1, M 2, G 2 ids, move at freq >= 2): nothing reaches freq 2
 *   in S, so every S eviction goes to G; 0 2 3 (G hits) enter M; 1 (G hit)
 *   evicts from M after a round of decrements (0 out); 0 evicts M's 3; 7 evicts
 *   S's 0 (-> G); 0 (G hit) evicts S's 7: 13 faults.
 * sieve: as CLOCK with new pages unreferenced on this string: 11 faults (the
 *   hand passes 0, 3 and 2 at ref 14 and wraps to the tail once).
 */
static void test_field_policies(void **state)
{
	(void)state;
	static const char *const pol[] = { "2q", "arc", "lirs", "s3fifo", "sieve", NULL };
	static const uint64_t three[] = { 14, 13, 13, 13, 11 };
	for (int i = 0; pol[i]; i++) {
		assert_int_equal(faults(pol[i], classic, N(classic), 3), three[i]);
		/* one frame: every reference misses (no two equal neighbours); six: compulsory */
		assert_int_equal(faults(pol[i], classic, N(classic), 1), 20);
		assert_int_equal(faults(pol[i], classic, N(classic), 6), 6);
	}
	/*
	 * A hot pair, a one-time scan of six pages, the pair again, 4 frames.  LRU and
	 * FIFO lose the pair (10 faults).  arc: the pair is in T2, the scan cycles
	 * through T1 (8).  lirs: 1 2 LIR, the scan passes through the one HIR frame
	 * (8).  sieve: the pair's visited bits make the hand pass them (8).  2q: the
	 * re-references are correlated (inside A1in), so the pair is not promoted and
	 * leaves with the scan (10).  s3fifo: freq 1 is below Algorithm 1's threshold
	 * (> 1), so the pair leaves S for G and G forgets it (10); with the text's
	 * "accessed at least once" (threshold 1) the pair moves to M and stays (8).
	 */
	static const uint32_t scan[] = { 1, 2, 1, 2, 10, 11, 12, 13, 14, 15, 1, 2 };
	assert_int_equal(faults("lru", scan, N(scan), 4), 10);
	assert_int_equal(faults("fifo", scan, N(scan), 4), 10);
	assert_int_equal(faults("arc", scan, N(scan), 4), 8);
	assert_int_equal(faults("lirs", scan, N(scan), 4), 8);
	assert_int_equal(faults("sieve", scan, N(scan), 4), 8);
	assert_int_equal(faults("2q", scan, N(scan), 4), 10);
	assert_int_equal(faults("s3fifo", scan, N(scan), 4), 10);
	assert_int_equal(faults_p("s3fifo", "{\"move_to_main_threshold\": 1}", scan, N(scan), 16, 4), 8);
	/* 2q without A1out and with Kin = 0 never fills Am: FIFO's 15 */
	assert_int_equal(faults_p("2q", "{\"kout\": 0}", classic, N(classic), 8, 3), 15);
	/* parameters are checked with their path */
	static const char *const bad[][2] = {
		{ "2q", "{\"kin\": 1.5}" }, { "2q", "{\"kout\": -1}" },
		{ "s3fifo", "{\"move_to_main_threshold\": 0}" }, { "s3fifo", "{\"small_ratio\": 2}" },
		{ "lirs", "{\"hir_ratio\": -0.1}" }, { "lirs", "{\"nonresident_ratio\": 17}" },
		{ "arc", "{\"p\": 1}" }, { "sieve", "{\"hand\": 1}" },
	};
	for (size_t i = 0; i < N(bad); i++) {
		struct mm_err e = { { 0 } };
		json_t *j = json_loads(bad[i][1], 0, NULL);
		assert_null(reclaim_create(bad[i][0], j, 3, NULL, "s.json", "kernels.k.reclaim", &e));
		assert_non_null(strstr(e.msg, "s.json: kernels.k.reclaim."));
		json_decref(j);
	}
}

static void test_belady_anomaly(void **state)
{
	(void)state;
	assert_int_equal(faults("fifo", belady, N(belady), 3), 9);
	assert_int_equal(faults("fifo", belady, N(belady), 4), 10);
	/* stack algorithms do not show it */
	assert_int_equal(faults("lru", belady, N(belady), 3), 10);
	assert_int_equal(faults("lru", belady, N(belady), 4), 8);
	assert_int_equal(faults("opt", belady, N(belady), 3), 7);
	assert_int_equal(faults("opt", belady, N(belady), 4), 6);
}

/* ---- naive reference implementations (O(frames) per reference) ---- */

static uint64_t naive(const char *policy, int nbit, const uint32_t *refs, size_t n, uint32_t fr)
{
	uint32_t *pg = malloc(fr * sizeof *pg);
	uint64_t *t = calloc(fr, sizeof *t);  /* fifo: load time; lru: last use */
	uint8_t *bit = calloc(fr, 1);
	uint32_t used = 0, hand = 0;
	uint64_t nf = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t f;
		for (f = 0; f < used; f++)
			if (pg[f] == refs[i])
				break;
		if (f < used) {
			if (!strcmp(policy, "lru"))
				t[f] = i;
			bit[f] = 1;
			continue;
		}
		nf++;
		if (used < fr) {
			f = used++;
		} else if (!strcmp(policy, "opt")) {
			/* farthest next use; ties (never used again): least recently used */
			uint64_t best = 0;
			f = 0;
			for (uint32_t k = 0; k < fr; k++) {
				size_t j;
				for (j = i + 1; j < n; j++)
					if (refs[j] == pg[k])
						break;
				uint64_t key = j < n ? j : (uint64_t)n + (UINT32_MAX - t[k]);
				if (key > best) {
					best = key;
					f = k;
				}
			}
		} else if (!strcmp(policy, "clock")) {
			while (bit[hand]) {
				bit[hand] = 0;
				hand = (hand + 1) % fr;
			}
			f = hand;
			hand = (hand + 1) % fr;
		} else {
			f = 0;
			for (uint32_t k = 1; k < fr; k++)
				if (t[k] < t[f])
					f = k;
		}
		pg[f] = refs[i];
		t[f] = i;
		bit[f] = (uint8_t)nbit;
	}
	free(pg);
	free(t);
	free(bit);
	return nf;
}

static uint32_t *random_trace(uint64_t seed, size_t n, uint32_t pages)
{
	struct mm_rng r;
	mm_rng_seed(&r, seed, 0, "test_reclaim");
	uint32_t *t = malloc(n * sizeof *t);
	/* a mix of uniform and locality phases */
	for (size_t i = 0; i < n; i++) {
		if (i % 100 < 50)
			t[i] = (uint32_t)mm_rng_below(&r, pages);
		else
			t[i] = (uint32_t)((i / 100 * 7 + mm_rng_below(&r, 8)) % pages);
	}
	return t;
}

/* dense ids for a trace (opt's prepare and replay want 0..npages-1) */
static uint32_t densify(uint32_t *t, size_t n)
{
	uint32_t np = 0;
	for (size_t i = 0; i < n; i++)
		if (t[i] + 1 > np)
			np = t[i] + 1;
	return np;
}

static void check_trace(const uint32_t *t, size_t n, uint32_t np, int cross)
{
	uint64_t prev_lru = UINT64_MAX, prev_opt = UINT64_MAX;
	for (uint32_t fr = 1; fr <= 64; fr++) {
		uint64_t l = faults_p("lru", NULL, t, n, np, fr);
		uint64_t o = faults_p("opt", NULL, t, n, np, fr);
		uint64_t f = faults_p("fifo", NULL, t, n, np, fr);
		uint64_t c0 = faults_p("clock", NULL, t, n, np, fr);
		uint64_t c1 = faults_p("clock", "{\"new_page_referenced\": true}", t, n, np, fr);
		assert_true(l <= prev_lru);
		assert_true(o <= prev_opt);
		assert_true(o <= l);
		assert_true(o <= f);
		assert_true(o <= c0);
		assert_true(o <= c1);
		prev_lru = l;
		prev_opt = o;
		for (const char *const *p = (const char *const[]){ "2q", "arc", "lirs", "s3fifo",
								   "sieve", NULL }; *p; p++)
			assert_true(faults_p(*p, NULL, t, n, np, fr) >= o);
		if (cross && (fr <= 8 || fr % 9 == 0)) {
			assert_int_equal(l, naive("lru", 0, t, n, fr));
			assert_int_equal(f, naive("fifo", 0, t, n, fr));
			assert_int_equal(o, naive("opt", 0, t, n, fr));
			assert_int_equal(c0, naive("clock", 0, t, n, fr));
			assert_int_equal(c1, naive("clock", 1, t, n, fr));
		}
	}
}

static void test_stack_property(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		size_t n = 600;
		uint32_t pages = (uint32_t)(10 + seed * 5);
		uint32_t *t = random_trace(seed, n, pages);
		check_trace(t, n, densify(t, n), 1);
		free(t);
	}
	struct tracegen_cfg c = tracegen_defaults();
	struct mm_err e;
	c.kind = TRACEGEN_ZIPF;
	c.refs = 5000;
	c.pages = 500;
	c.alpha = 0.9;
	c.seed = 7;
	uint32_t *t = malloc(c.refs * sizeof *t);
	assert_int_equal(tracegen_fill(&c, t, &e), 0);
	check_trace(t, c.refs, densify(t, c.refs), 1);
	free(t);
}

/* remove(): a removed frame is never returned by evict(); the rest come back. */
static void test_remove(void **state)
{
	(void)state;
	for (const char *const *p = (const char *const[]){ "fifo", "lru", "clock", "opt", "random",
							   "2q", "arc", "lirs", "s3fifo", "sieve", NULL };
	     *p; p++) {
		struct mm_err e;
		struct reclaim *r = reclaim_create(*p, NULL, 8, NULL, NULL, NULL, &e);
		assert_non_null(r);
		uint32_t refs[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
		assert_int_equal(reclaim_prepare(r, refs, 8, &e), 0);
		for (uint32_t f = 0; f < 8; f++) {
			r->now = f;
			reclaim_add(r, f);
		}
		assert_int_equal(reclaim_remove(r, 3), 0);
		assert_int_equal(reclaim_remove(r, 6), 0);
		unsigned seen = 0;
		for (int k = 0; k < 6; k++) {
			uint32_t v = reclaim_evict(r);
			assert_true(v < 8);
			assert_true(v != 3 && v != 6);
			assert_false(seen & (1u << v));
			seen |= 1u << v;
		}
		assert_int_equal(reclaim_evict(r), RECLAIM_NO_FRAME);
		reclaim_destroy(r);
	}
}

static void test_registry_errors(void **state)
{
	(void)state;
	struct mm_err e = { { 0 } };
	const struct reclaim_ops *const *m = reclaim_modules();
	assert_non_null(reclaim_find("fifo"));
	assert_null(reclaim_find("nope"));
	for (size_t i = 0; m[i]; i++) {
		assert_ptr_equal(reclaim_find(m[i]->name), m[i]);
		assert_true(m[i]->version >= 1 && m[i]->version <= RECLAIM_OPS_VERSION);
	}

	assert_null(reclaim_create("x", NULL, 4, NULL, "s.json", "kernels.k.reclaim", &e));
	assert_non_null(strstr(e.msg, "s.json: kernels.k.reclaim: unknown reclaim module \"x\" "
				      "(expected one of: "));
	for (const char *const *p = (const char *const[]){ "fifo", "lru", "clock", "opt", "random", NULL };
	     *p; p++)
		assert_non_null(strstr(e.msg, *p));

	json_t *bad = json_pack("{s:i}", "new_page_referenced", 3);
	assert_null(reclaim_create("clock", bad, 4, NULL, "s.json", "kernels.k.reclaim", &e));
	assert_non_null(strstr(e.msg, "s.json: kernels.k.reclaim.new_page_referenced: expected"));
	json_decref(bad);

	bad = json_pack("{s:b}", "bogus", 1);
	assert_null(reclaim_create("clock", bad, 4, NULL, "s.json", "kernels.k.reclaim", &e));
	assert_non_null(strstr(e.msg, "kernels.k.reclaim.bogus"));
	assert_null(reclaim_create("lru", bad, 4, NULL, "s.json", "kernels.k.reclaim", &e));
	assert_string_equal(e.msg, "s.json: kernels.k.reclaim.bogus: unknown parameter "
				   "(reclaim module \"lru\" has none)");
	json_decref(bad);

	assert_null(reclaim_create("lru", NULL, 0, NULL, NULL, "x", &e));
	assert_non_null(strstr(e.msg, "frames"));

	/* offline module without a trace */
	struct reclaim *r = reclaim_create("opt", NULL, 4, NULL, NULL, NULL, &e);
	assert_non_null(r);
	assert_int_equal(reclaim_prepare(r, NULL, 0, &e), -1);
	assert_non_null(strstr(e.msg, "\"opt\" is offline"));
	reclaim_destroy(r);

	/* effective parameters */
	r = reclaim_create("clock", NULL, 4, NULL, NULL, NULL, &e);
	json_t *pj = reclaim_params_json(r);
	assert_string_equal(json_string_value(json_object_get(pj, "module")), "clock");
	assert_true(json_is_false(json_object_get(pj, "new_page_referenced")));
	json_decref(pj);
	reclaim_destroy(r);
}

/* ---- the command ---- */

/* Run cmd_replay with stdout (and stderr) captured into @out/@err (may be NULL). */
static int run_cmd(int (*cmd)(int, char **), char *out, size_t outlen, char *err,
		   size_t errlen, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, errlen);
	for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	char fo[] = "/tmp/mmemu_test_outXXXXXX", fe[] = "/tmp/mmemu_test_errXXXXXX";
	int o = mkstemp(fo), e = mkstemp(fe);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(o, 1);
	dup2(e, 2);
	int rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	char *bufs[2] = { out, err };
	size_t lens[2] = { outlen, errlen };
	int fds[2] = { o, e };
	for (int k = 0; k < 2; k++) {
		if (bufs[k]) {
			ssize_t n = pread(fds[k], bufs[k], lens[k] - 1, 0);
			bufs[k][n > 0 ? n : 0] = '\0';
		}
		close(fds[k]);
	}
	unlink(fo);
	unlink(fe);
	return rc;
}

#define CLASSIC "7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1"

static void test_cmd_replay(void **state)
{
	(void)state;
	char out[8192], err[2048];
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "opt", "--frames", "3", "--refs", CLASSIC, NULL), 0);
	assert_non_null(strstr(out, "policy     opt\n"));
	assert_non_null(strstr(out, "faults     9\n"));
	assert_non_null(strstr(out, "hits       11\n"));
	assert_non_null(strstr(out, "miss ratio 0.4500\n"));

	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy=clock", "--frames=3", "--refs", CLASSIC, "--json",
				 "--param", "new_page_referenced=true", NULL), 0);
	json_t *j = json_loads(out, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "policy")), "clock");
	assert_int_equal(json_integer_value(json_object_get(j, "faults")), 14);
	assert_int_equal(json_integer_value(json_object_get(j, "hits")), 6);
	assert_int_equal(json_integer_value(json_object_get(j, "refs")), 20);
	assert_int_equal(json_integer_value(json_object_get(j, "frames")), 3);
	assert_true(json_real_value(json_object_get(j, "miss_ratio")) == 0.7);
	assert_true(json_is_true(json_object_get(json_object_get(j, "params"),
						 "new_page_referenced")));
	json_decref(j);

	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "fifo", "--frames", "3", "--refs", "1,2,3,4,1,2,5,1,2,3,4,5",
				 "--steps", NULL), 0);
	assert_non_null(strstr(out,
		"ref     1 2 3 4 1 2 5 1 2 3 4 5\n"
		"frame 0 1 1 1 4 4 4 5 5 5 5 5 5\n"
		"frame 1   2 2 2 1 1 1 1 1 3 3 3\n"
		"frame 2     3 3 3 2 2 2 2 2 4 4\n"
		"fault   F F F F F F F     F F  \n"));
	assert_non_null(strstr(out, "faults     9\n"));

	/* original page numbers, not dense ids, in the table */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "2", "--refs", "100, 7, 100, 8",
				 "--steps", NULL), 0);
	assert_non_null(strstr(out,
		"ref     100   7 100   8\n"
		"frame 0 100 100 100 100\n"
		"frame 1       7   7   8\n"
		"fault     F   F       F\n"));

	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, NULL, 0, "replay", "--help", NULL),
			 0);
	assert_non_null(strstr(out, "usage: mmemu replay"));

	/* usage and input errors: 2 and one line on stderr */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--frames", "3", "--refs", "1", NULL), 2);
	assert_non_null(strstr(err, "--policy is required"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "0", "--refs", "1", NULL), 2);
	assert_non_null(strstr(err, "--frames"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", "--bogus", NULL), 2);
	assert_non_null(strstr(err, "unknown option \"--bogus\""));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", NULL), 2);
	assert_non_null(strstr(err, "--frames: expected a value"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", NULL), 2);
	assert_non_null(strstr(err, "exactly one of --refs and --trace"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", "--refs", "1,2,x", NULL), 2);
	assert_string_equal(err, "--refs: position 5: expected a page number (decimal integer), "
				 "got \"x\"\n");
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "x", "--frames", "3", "--refs", "1", NULL), 2);
	assert_string_equal(err, "--policy: unknown reclaim module \"x\" (replay runs: fifo, lru, "
				 "clock, opt, random, 2q, arc, lirs, s3fifo, sieve, lru2q, clockpro, mglru)\n");
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay", "--help",
				 NULL), 0);
	assert_non_null(strstr(out, "Policies: fifo, lru, clock, opt, random, 2q, arc, lirs, "
				    "s3fifo, sieve, lru2q, clockpro, mglru.\n"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "clock", "--frames", "3", "--refs", "1",
				 "--param", "new_page_referenced=maybe", NULL), 2);
	assert_string_equal(err, "--param: new_page_referenced: expected true or false\n");
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", "--trace",
				 "/nonexistent/trace.txt", NULL), 2);
	assert_string_equal(err, "/nonexistent/trace.txt: cannot open (No such file or "
				 "directory)\n");
}

/*
 * lru2q on replay's one-zone kernel, classic string, 3 frames.  A page read is
 * added inactive and marked accessed (R); a second reference to an inactive R
 * page activates it (R cleared); a fault with 3 pages cached runs shrink_zone
 * with one-page batches: refill moves the active tail to the inactive head
 * (unmapped page cache, R not looked at), then the inactive tail is freed (R or
 * not: an unmapped page is never "in use").  7 0 1 fill the inactive list; 2
 * frees 7; 0 activates; 3: 0 back to inactive, 1 freed; 0 R; 4 frees 2; 2 frees
 * 0; 3 activates; 0: 3 back, 4 freed; 3 R; 2 activates; 1: 2 back, 3 freed; 2 R;
 * 0 and 1 activate; 7: 0 back, 2 freed; 0, 1 hit: 10 faults, 7 reclaims.
 */
static void test_cmd_replay_kernel(void **state)
{
	(void)state;
	char out[8192], err[2048];
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru2q", "--frames", "3", "--refs", CLASSIC, "--steps",
				 NULL), 0);
	assert_non_null(strstr(out, "  2 F   active:  inactive: 2R 1R 0R\n"
				    "  0     active: 0  inactive: 2R 1R\n"
				    "  3 F   active:  inactive: 3R 0 2R\n"));
	assert_non_null(strstr(out, "  7 F   active: 1  inactive: 7R 0\n"));
	assert_non_null(strstr(out, "faults     10\n"));
	assert_non_null(strstr(out, "hits       10\n"));
	assert_non_null(strstr(out, "reclaims   7 (7 pages freed)\n"));
	/* enough frames: no reclaim, the 6 compulsory faults */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru2q", "--frames", "6", "--refs", CLASSIC, "--json",
				 NULL), 0);
	json_t *j = json_loads(out, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "faults")), 6);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "kernel"),
							     "reclaims")), 0);
	json_decref(j);
	/* CLOCK-Pro: the 2005-12 hot hand runs nr_resident/32 batches, none below 32
	 * pages, so 3 frames of hot pages cannot be reclaimed: the error says so */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "clockpro", "--frames", "3", "--refs", CLASSIC, NULL), 2);
	assert_string_equal(err, "replay: reference 13: reclaim module \"clockpro\" freed no page\n");
	assert_string_equal(out, "");
	/* with the half-revolution limit the hot hand runs; the count is deterministic */
	uint64_t f[2];
	for (int k = 0; k < 2; k++) {
		assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
					 "--policy", "clockpro", "--frames", "3", "--refs", CLASSIC,
					 "--param", "hot_hand_limit=half_revolution", "--steps", NULL), 0);
		const char *fl = strstr(out, "faults     ");
		assert_non_null(fl);
		f[k] = strtoull(fl + 11, NULL, 10);
		assert_non_null(strstr(out, "cold hand:"));
		assert_non_null(strstr(out, "cold_target "));
	}
	/* 14: the module's count, the same on every run; not traced by hand (the
	 * non-resident table hashes its cookies) */
	assert_int_equal(f[0], 14);
	assert_int_equal(f[1], 14);
	/* parameter errors name --param, as for the frame-level modules */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "clockpro", "--frames", "3", "--refs", "1",
				 "--param", "series=1999", NULL), 2);
	assert_non_null(strstr(err, "--param: series: "));
}


/*
 * mglru on replay's one-zone kernel.  Classic string, 3 frames: every page read
 * joins the oldest generation (clean, cold) with one fd access (mark 1); a
 * second access only counts (mark 2).  Reclaim finds only MIN_NR_GENS (1, 2) and
 * ages once (max_seq 3: gen3 appears); the PID controller protects no tier before
 * MIN_LRU_BATCH (64) refaults, so eviction takes the oldest generation's tail:
 * FIFO order, FIFO's 15 faults (12 reclaims).
 * Loop of 200 cycles "1 1 2 2 c c c c" (c: 4 new pages), 4 frames: the hot pages
 * 1 and 2 (2 accesses: tier 1) are evicted like the cold ones (tier 0) and
 * refault into tier 1 until its 64th refault (32 cycles); then tier 1 refaults
 * more than twice tier 0's rate (0) and is protected for good: 800 cold faults +
 * 2 compulsory + 64 refaults = 866 (FIFO and LRU: 1200).
 */
static void test_cmd_replay_mglru(void **state)
{
	(void)state;
	char out[8192], err[2048];
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "mglru", "--frames", "3", "--refs", CLASSIC, "--steps",
				 NULL), 0);
	assert_non_null(strstr(out, "  1 F   gen2:  gen1: 11 01 71\n"
				    "  2 F   gen3:  gen2:  gen1: 21 11 01\n"
				    "  0     gen3:  gen2:  gen1: 21 11 02\n"
				    "  3 F   gen3:  gen2:  gen1: 31 21 11\n"));
	assert_non_null(strstr(out, "faults     15\n"));
	assert_non_null(strstr(out, "reclaims   12 (12 pages freed)\n"));
	static char refs[200 * 8 * 6];
	size_t n = 0;
	unsigned c = 100;
	for (int cyc = 0; cyc < 200; cyc++) {
		n += (size_t)snprintf(refs + n, sizeof refs - n, "%s1,1,2,2", cyc ? "," : "");
		for (int i = 0; i < 4; i++)
			n += (size_t)snprintf(refs + n, sizeof refs - n, ",%u", c++);
	}
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "mglru", "--frames", "4", "--refs", refs, NULL), 0);
	assert_non_null(strstr(out, "faults     866\n"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "fifo", "--frames", "4", "--refs", refs, NULL), 0);
	assert_non_null(strstr(out, "faults     1200\n"));
}

static void test_cmd_tracegen_replay(void **state)
{
	(void)state;
	char path[] = "/tmp/mmemu_test_trXXXXXX";
	int fd = mkstemp(path);
	close(fd);
	char out[4096], err[1024];
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "loop", "--refs", "20", "--pages", "4", "-o", path,
				 NULL), 0);
	/* a loop over 4 pages with 3 frames: LRU misses every time; OPT misses the 4
	 * compulsory references, then once every 3 (refs 6, 9, 12, 15, 18) */
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", "--trace", path, NULL), 0);
	assert_non_null(strstr(out, "faults     20\n"));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "opt", "--frames", "3", "--trace", path,
				 "--format", "plain", "--time", NULL), 0);
	assert_non_null(strstr(out, "faults     9\n"));
	assert_non_null(strstr(err, "Mrefs/s"));
	/* the same trace in the binary layout: the same counts; --json --time adds the
	 * host times to the object */
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "loop", "--refs", "20", "--pages", "4", "--format", "bin",
				 "-o", path, NULL), 0);
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "opt", "--frames", "3", "--trace", path, "--json", "--time",
				 NULL), 0);
	assert_non_null(strstr(out, "\"faults\": 9,"));
	assert_non_null(strstr(out, "\"load_s\": "));
	assert_non_null(strstr(out, "\"prepare_s\": "));
	assert_non_null(strstr(out, "\"replay_s\": "));
	assert_int_equal(run_cmd(cmd_replay, out, sizeof out, err, sizeof err, "replay",
				 "--policy", "lru", "--frames", "3", "--trace", path, "--json", NULL), 0);
	assert_non_null(strstr(out, "\"faults\": 20,"));
	assert_null(strstr(out, "load_s"));
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "loop", "--refs", "20", "--pages", "4", "--format", "xml",
				 NULL), 2);
	assert_non_null(strstr(err, "--format: expected plain or bin"));
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "zipf", "--refs", "10", NULL), 2);
	assert_non_null(strstr(err, "--pages is required"));
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "tworegion", "--refs", "10", "--pages", "10",
				 "--hot-frac", "1.5", NULL), 2);
	assert_non_null(strstr(err, "--hot-frac"));
	assert_int_equal(run_cmd(cmd_tracegen, out, sizeof out, err, sizeof err, "tracegen",
				 "--kind", "loop", "--refs", "5", "--pages", "3", NULL), 0);
	assert_string_equal(out, "0\n1\n2\n0\n1\n");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classic),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_field_policies),
		cmocka_unit_test(test_belady_anomaly),
		cmocka_unit_test(test_stack_property),
		cmocka_unit_test(test_remove),
		cmocka_unit_test(test_registry_errors),
		cmocka_unit_test(test_cmd_replay),
		cmocka_unit_test(test_cmd_replay_kernel),
		cmocka_unit_test(test_cmd_replay_mglru),
		cmocka_unit_test(test_cmd_tracegen_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
