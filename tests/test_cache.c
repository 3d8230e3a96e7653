/*
 * test_cache.c - the cache hierarchy and TLB (models/hw/cache.c): exact hit and miss
 * counts of small reference patterns worked out by hand, conflict misses of two
 * pages of the same colour and none for different colours, virtual indexing,
 * the TLB's LRU, the time of dependent and independent references, and every
 * error of machine.caches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "models/hw/cache.h"

/* translation table for the tests: vpn -> pfn */
static uint32_t map[64];

static uint32_t xlate(void *ctx, uint64_t vpn)
{
	(void)ctx;
	return vpn < 64 ? map[vpn] : CACHE_NO_PFN;
}

static void identity(void)
{
	for (uint32_t i = 0; i < 64; i++)
		map[i] = i;
}

static void load(struct cache_cfg *c, const char *json)
{
	json_error_t je;
	json_t *o = json_loads(json, 0, &je);
	assert_non_null(o);
	struct mm_err e = { 0 };
	c->mem_latency = 100e-9;
	int rc = cache_cfg_load(c, o, "t.json", "machine.caches", &e);
	if (rc)
		fprintf(stderr, "%s\n", e.msg);
	assert_int_equal(rc, 0);
	json_decref(o);
}

static void sim(struct cache_sim *s, const char *json, uint64_t page)
{
	struct cache_cfg c;
	load(&c, json);
	struct mm_err e = { 0 };
	assert_int_equal(cache_sim_init(s, &c, 1e9, page, &e), 0);
}

/* Direct-mapped, 4 lines of 64 B: 0 m, 64 m, 0 h, 256 m (evicts 0), 0 m. */
static void test_direct_mapped(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 256, \"line\": 64, \"assoc\": 1}]}", 4096);
	uint64_t va[] = { 0, 64, 0, 256, 0 };
	cache_run(&s, va, 5, 0, xlate, NULL);
	assert_int_equal(s.st.refs, 5);
	assert_int_equal(s.st.hits[0], 1);
	assert_int_equal(s.st.mem, 4);
	cache_sim_fini(&s);
}

/* 2-way, 4 sets: 0 m, 256 m, 0 h, 512 m (evicts 256, the LRU), 0 h, 256 m. */
static void test_two_way(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 512, \"line\": 64, \"assoc\": 2}]}", 4096);
	uint64_t va[] = { 0, 256, 0, 512, 0, 256 };
	cache_run(&s, va, 6, 0, xlate, NULL);
	assert_int_equal(s.st.hits[0], 2);
	assert_int_equal(s.st.mem, 4);
	/* one more: 512 was evicted by 256 (LRU after 0 was used) */
	uint64_t v2[] = { 0, 512 };
	cache_run(&s, v2, 2, 0, xlate, NULL);
	assert_int_equal(s.st.hits[0], 3);
	assert_int_equal(s.st.mem, 5);
	cache_sim_fini(&s);
}

/* Two pages swept twice through a 64 KiB direct-mapped physically indexed cache
 * of 8 KiB pages (8 colours): the same colour misses every line of both passes,
 * different colours miss only the first pass. */
static void sweep_two_pages(uint32_t pfn1, uint64_t *hits, uint64_t *mem)
{
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": \"64KiB\", \"line\": 64, \"assoc\": 1}]}", 8192);
	map[0] = 0;
	map[1] = pfn1;
	uint64_t va[2 * 8192 / 64];
	for (size_t i = 0; i < 256; i++)
		va[i] = i * 64;
	cache_run(&s, va, 256, 0, xlate, NULL);
	cache_run(&s, va, 256, 0, xlate, NULL);
	*hits = s.st.hits[0];
	*mem = s.st.mem;
	cache_sim_fini(&s);
}

static void test_colour_conflict(void **state)
{
	(void)state;
	uint64_t h, m;
	sweep_two_pages(8, &h, &m);    /* pfn 8: colour 0, as pfn 0 */
	assert_int_equal(h, 0);
	assert_int_equal(m, 512);
	sweep_two_pages(9, &h, &m);    /* colour 1 */
	assert_int_equal(h, 256);
	assert_int_equal(m, 256);
	sweep_two_pages(15, &h, &m);   /* colour 7 */
	assert_int_equal(h, 256);
	assert_int_equal(m, 256);
	struct cache_cfg c;
	load(&c, "{\"levels\": [{\"size\": \"64KiB\", \"line\": 64, \"assoc\": 1}]}");
	assert_int_equal(cache_colors(&c, 8192), 8);
	/* the DS10: a virtually indexed 64 KiB 2-way L1 has no colours, the 2 MiB
	 * direct-mapped L2 has 256 */
	load(&c, "{\"levels\": [{\"size\": \"64KiB\", \"line\": 64, \"assoc\": 2, \"indexing\": \"virtual\"},"
		 "{\"size\": \"2MiB\", \"line\": 64, \"assoc\": 1}]}");
	assert_int_equal(cache_colors(&c, 8192), 256);
	load(&c, "{\"levels\": [{\"size\": \"64KiB\", \"line\": 64, \"assoc\": 2, \"indexing\": \"virtual\"}]}");
	assert_int_equal(cache_colors(&c, 8192), 1);
}

/* A virtually indexed 16 KiB direct-mapped cache: virtual pages 0 and 2 share
 * sets whatever their frames' colours are; virtual pages 0 and 1 do not, even
 * on frames of one physical colour. */
static void test_virtual_index(void **state)
{
	(void)state;
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": \"16KiB\", \"line\": 64, \"assoc\": 1, \"indexing\": \"virtual\"}]}",
	    8192);
	map[0] = 0;
	map[1] = 2;
	map[2] = 1;
	uint64_t va[] = { 0, 16384, 0, 8192, 0 };
	cache_run(&s, va, 5, 0, xlate, NULL);
	assert_int_equal(s.st.hits[0], 1);   /* only the last 0 */
	assert_int_equal(s.st.mem, 4);
	cache_sim_fini(&s);
}

/* A 2-entry fully associative TLB: pages 0 m, 1 m, 0 h, 2 m (evicts 1), 1 m. */
static void test_tlb(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 256, \"line\": 64}], \"tlb\": {\"entries\": 2, \"refill\": \"10ns\"}}",
	    4096);
	uint64_t va[] = { 0, 4096, 4100, 0, 8192, 4096 };
	double t = cache_run(&s, va, 6, CACHE_DEPENDENT, xlate, NULL);
	assert_int_equal(s.st.tlb_misses, 4);
	/* six loads: 4100 hits the line of 4096, the rest miss: 5 x 100 ns + 1 x 5 ns
	 * (the default L1 latency) + 4 refills of 10 ns */
	assert_int_equal(s.st.hits[0], 1);
	assert_true(t > 544.9e-9 && t < 545.1e-9);
	cache_sim_fini(&s);
}

/* A 16-entry fully associative TLB (the hashed LRU list) against a plain LRU
 * array on 20000 pseudo-random pages of 40: the same misses, one by one. */
static void test_tlb_fully_associative(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 256, \"line\": 64}], \"tlb\": {\"entries\": 16}}", 4096);
	assert_non_null(s.tlb_fa);
	uint64_t ref[16];
	int nref = 0;
	uint64_t misses = 0, x = 12345;
	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t vpn = (x >> 33) % 40;
		/* reference: MRU-first array */
		int j = 0;
		while (j < nref && ref[j] != vpn)
			j++;
		if (j == nref) {
			misses++;
			if (nref < 16)
				nref++;
			j = nref - 1;
		}
		memmove(ref + 1, ref, (size_t)j * sizeof *ref);
		ref[0] = vpn;
		uint64_t va = vpn * 4096;
		cache_run(&s, &va, 1, 0, xlate, NULL);
		assert_int_equal(s.st.tlb_misses, misses);
	}
	assert_true(misses > 1000 && misses < 20000);
	cache_flush(&s);
	uint64_t va = 0;
	cache_run(&s, &va, 1, 0, xlate, NULL);
	assert_int_equal(s.st.tlb_misses, misses + 1);
	cache_sim_fini(&s);
}

/* Independent references: one cycle each (1 GHz) plus the line fill of the level
 * that served it (64 B at 1 GB/s from memory = 64 ns, at 4 GB/s from L2 = 16 ns). */
static void test_stream_time(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 256, \"line\": 64, \"latency\": \"2ns\"},"
		"{\"size\": 1024, \"line\": 64, \"bandwidth\": \"4GB/s\", \"latency\": \"10ns\"}],"
		"\"memory_bandwidth\": \"1GB/s\"}", 4096);
	uint64_t va[] = { 0, 8, 256, 512, 0 };   /* m(mem), h1, m(mem), m(mem), L2 hit */
	double t = cache_run(&s, va, 5, 0, xlate, NULL);
	assert_int_equal(s.st.mem, 3);
	assert_int_equal(s.st.hits[0], 1);
	assert_int_equal(s.st.hits[1], 1);
	assert_true(t > 5e-9 + 3 * 64e-9 + 16e-9 - 1e-12 && t < 5e-9 + 3 * 64e-9 + 16e-9 + 1e-12);
	/* the same pattern as dependent loads: 3 x 100 + 2 + 10 ns */
	cache_flush(&s);
	t = cache_run(&s, va, 5, CACHE_DEPENDENT, xlate, NULL);
	assert_true(t > 311.9e-9 && t < 312.1e-9);
	/* an unmapped page drops its references */
	uint64_t far[] = { 64ull * 4096, 0 };
	cache_run(&s, far, 2, 0, xlate, NULL);
	assert_int_equal(s.st.refs, 11);
	json_t *j = cache_stats_json(&s);
	assert_int_equal(json_integer_value(json_object_get(j, "refs")), 11);
	json_decref(j);
	cache_sim_fini(&s);
}

/* Write-back: a store dirties its line in the last level (a direct-mapped L2 of
 * 4 lines here); evicting a dirty line costs one line written to memory (64 B at
 * 1 GB/s = 64 ns), a clean one nothing; a load of a dirty line keeps it dirty. */
static void test_writeback(void **state)
{
	(void)state;
	identity();
	struct cache_sim s;
	sim(&s, "{\"levels\": [{\"size\": 128, \"line\": 64, \"assoc\": 1, \"latency\": \"2ns\"},"
		"{\"size\": 256, \"line\": 64, \"assoc\": 1, \"bandwidth\": \"4GB/s\","
		" \"latency\": \"10ns\"}], \"memory_bandwidth\": \"1GB/s\"}", 4096);
	const uint64_t W = CACHE_WRITE;
	/* store 0, load 0 (L1 hit), load 256 (evicts dirty 0 from L2 set 0),
	 * load 0 (clean miss, evicts clean 256), store 64, load 320 (evicts dirty 64) */
	uint64_t va[] = { 0 | W, 0, 256, 0, 64 | W, 320 };
	double t = cache_run(&s, va, 6, 0, xlate, NULL);
	assert_int_equal(s.st.refs, 6);
	assert_int_equal(s.st.mem, 5);
	assert_int_equal(s.st.hits[0], 1);
	assert_int_equal(s.st.writebacks, 2);
	double want = 6e-9 + 5 * 64e-9 + 2 * 64e-9;   /* issue + fills + write-backs */
	assert_true(t > want - 1e-12 && t < want + 1e-12);
	/* the same loads without stores: no write-back */
	cache_flush(&s);
	uint64_t rd[] = { 0, 0, 256, 0, 64, 320 };
	t = cache_run(&s, rd, 6, 0, xlate, NULL);
	assert_int_equal(s.st.writebacks, 2);
	want = 6e-9 + 5 * 64e-9;
	assert_true(t > want - 1e-12 && t < want + 1e-12);
	/* a load hit keeps the line dirty: store 0, load 0 twice, then 256 evicts it */
	cache_flush(&s);
	uint64_t keep[] = { 0 | W, 0, 0, 256 };
	cache_run(&s, keep, 4, 0, xlate, NULL);
	assert_int_equal(s.st.writebacks, 3);
	json_t *j = cache_stats_json(&s);
	assert_int_equal(json_integer_value(json_object_get(j, "writebacks")), 3);
	json_decref(j);
	cache_sim_fini(&s);
}

/* cache_copy(): a 4 KiB copy from a kernel page (physical, no TLB) to a user page,
 * 64-byte lines, a 1 KiB physically indexed L1 and an 8 KiB direct-mapped L2 of two
 * 4 KiB colours.  Source frame 0 is colour 0.  A destination of colour 0 shares
 * every L2 set with the source: the first copy misses 64 + 64 lines with no
 * write-back; the second finds each source line's set holding the dirty
 * destination line (64 write-backs) and misses all 128 again.  A destination of
 * colour 1 misses 128 the first time, then every line hits in the L2.  The other
 * 7 words of each line cost an issue cycle per load and store (2 x 448 cycles). */
static void test_copy_colours(void **state)
{
	(void)state;
	const char *cfg = "{\"levels\": [{\"size\": 1024, \"line\": 64, \"assoc\": 1, \"latency\": \"2ns\"},"
			  "{\"size\": 8192, \"line\": 64, \"assoc\": 1, \"bandwidth\": \"4GB/s\","
			  " \"latency\": \"10ns\"}], \"memory_bandwidth\": \"1GB/s\","
			  " \"tlb\": {\"entries\": 4}}";
	const uint64_t src = 0 | CACHE_PHYS, dst = 5 * 4096;
	struct cache_sim s;
	/* same colour: user page 5 -> frame 2 */
	identity();
	map[5] = 2;
	sim(&s, cfg, 4096);
	double t = cache_copy(&s, dst, src, 4096, xlate, NULL);
	assert_int_equal(s.st.refs, 128);
	assert_int_equal(s.st.mem, 128);
	assert_int_equal(s.st.writebacks, 0);
	assert_int_equal(s.st.tlb_misses, 1);   /* the user page only */
	double want = 128 * (64e-9 + 1e-9) + 896e-9 + s.tlb_refill; /* one TLB refill */
	assert_true(t > want - 1e-12 && t < want + 1e-12);
	t = cache_copy(&s, dst, src, 4096, xlate, NULL);
	assert_int_equal(s.st.mem, 256);
	assert_int_equal(s.st.hits[1], 0);
	assert_int_equal(s.st.writebacks, 64);
	assert_int_equal(s.st.tlb_misses, 1);
	want = 128 * (64e-9 + 1e-9) + 64 * 64e-9 + 896e-9;
	assert_true(t > want - 1e-12 && t < want + 1e-12);
	cache_sim_fini(&s);
	/* different colours: user page 5 -> frame 1 */
	map[5] = 1;
	sim(&s, cfg, 4096);
	cache_copy(&s, dst, src, 4096, xlate, NULL);
	assert_int_equal(s.st.mem, 128);
	t = cache_copy(&s, dst, src, 4096, xlate, NULL);
	assert_int_equal(s.st.mem, 128);
	assert_int_equal(s.st.hits[0], 0);     /* the L1 is 1 KiB: source and destination collide */
	assert_int_equal(s.st.hits[1], 128);
	assert_int_equal(s.st.writebacks, 0);
	want = 128 * (16e-9 + 1e-9) + 896e-9;   /* an L2 fill: 64 B at 4 GB/s */
	assert_true(t > want - 1e-12 && t < want + 1e-12);
	/* a copy of a partial line still books its line and its words */
	cache_flush(&s);
	uint64_t r0 = s.st.refs;
	cache_copy(&s, dst, src, 24, xlate, NULL);
	assert_int_equal(s.st.refs - r0, 2);
	cache_sim_fini(&s);
}

static void bad(const char *json, const char *want)
{
	json_error_t je;
	json_t *o = json_loads(json, JSON_DECODE_ANY, &je);
	assert_non_null(o);
	struct cache_cfg c = { 0 };
	struct mm_err e = { 0 };
	assert_int_equal(cache_cfg_load(&c, o, "t.json", "machine.caches", &e), -1);
	if (!strstr(e.msg, want))
		fprintf(stderr, "got: %s\nwant: %s\n", e.msg, want);
	assert_non_null(strstr(e.msg, want));
	json_decref(o);
}

static void test_errors(void **state)
{
	(void)state;
	bad("[]", "t.json: machine.caches: expected an object");
	bad("{}", "machine.caches.levels: expected a non-empty array");
	bad("{\"levels\": []}", "machine.caches.levels: expected a non-empty array");
	bad("{\"levels\": [1]}", "machine.caches.levels[0]: expected an object");
	bad("{\"levels\": [{\"size\": 3000}]}", "machine.caches.levels[0].size: expected a power of two");
	bad("{\"levels\": [{\"size\": 1024, \"line\": 48}]}", "levels[0].line: expected a power of two");
	bad("{\"levels\": [{\"size\": 1024, \"line\": 2048}]}", "levels[0].line");
	bad("{\"levels\": [{\"size\": 1024, \"line\": 64, \"assoc\": 32}]}", "levels[0].assoc");
	bad("{\"levels\": [{\"size\": 1024, \"line\": 64, \"assoc\": 3}]}", "levels[0].assoc");
	bad("{\"levels\": [{\"size\": 1024, \"line\": 64}, {\"size\": 4096, \"line\": 32}]}",
	    "levels[1].line: expected at least the L1 line");
	bad("{\"levels\": [{\"size\": 1024, \"colour\": 1}]}", "levels[0].colour");
	bad("{\"levels\": [{\"size\": 1024, \"indexing\": \"both\"}]}", "levels[0].indexing");
	bad("{\"levels\": [{}, {}, {}, {}, {}]}", "expected at most 4 levels");
	bad("{\"levels\": [{}], \"tlb\": 3}", "machine.caches.tlb: expected an object");
	bad("{\"levels\": [{}], \"tlb\": {\"entries\": 12, \"assoc\": 8}}", "machine.caches.tlb.assoc");
	bad("{\"levels\": [{}], \"tlb\": {\"page_size\": 3000}}", "machine.caches.tlb.page_size");
	bad("{\"levels\": [{}], \"l3\": {}}", "machine.caches.l3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_mapped),
		cmocka_unit_test(test_two_way),
		cmocka_unit_test(test_colour_conflict),
		cmocka_unit_test(test_virtual_index),
		cmocka_unit_test(test_tlb),
		cmocka_unit_test(test_tlb_fully_associative),
		cmocka_unit_test(test_stream_time),
		cmocka_unit_test(test_writeback),
		cmocka_unit_test(test_copy_colours),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
