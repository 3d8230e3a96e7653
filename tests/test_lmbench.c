/*
 * test_lmbench.c - the lmbench workload (workloads/lmbench.c) on a tiny machine
 * with round numbers (1 GHz, 4 KiB 2-way virtually indexed L1 of 2 ns, 64 KiB
 * direct-mapped physically indexed L2 of 10 ns and 64 B per 10 ns, memory 100 ns
 * and 64 B per 100 ns, 8 KiB pages: 8 colours): exact latencies on each plateau,
 * exact stream bandwidth in L1, the FFT's exact time, no colour conflicts on
 * boot-fresh memory or with round-robin colouring, the /proc/page_color counts,
 * and the error for a machine without caches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tests/runmmemu.h"

#define MACHINE(caches) \
	"\"machine\": { \"arch\": \"alpha\", \"cpus\": 1, \"clock\": \"1GHz\", \"memory\": \"16MiB\"," \
	" \"watermark_style\": \"2.4\", \"costs\": { \"mem_latency\": \"100ns\" }" caches " }"
#define CACHES \
	", \"caches\": { \"levels\": [" \
	" { \"size\": \"4KiB\", \"line\": 64, \"assoc\": 2, \"indexing\": \"virtual\", \"latency\": \"2ns\" }," \
	" { \"size\": \"64KiB\", \"line\": 64, \"assoc\": 1, \"latency\": \"10ns\", \"bandwidth\": \"6.4GB/s\" } ]," \
	" \"memory_bandwidth\": \"640MB/s\" }"

static char scn[128];

static const char *write_scn(const char *machine, const char *coloring, const char *wl)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-lmb-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f, "{ \"name\": \"lmbench test\", %s,\n"
		   "  \"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"coloring\": \"%s\",\n"
		   "     \"alloc\": { \"module\": \"buddy\", \"max_order\": 10, \"pcp\": false } } },\n"
		   "  \"workload\": { \"type\": \"lmbench\", %s },\n"
		   "  \"runs\": 1, \"seed\": 1 }\n", machine, coloring, wl);
	fclose(f);
	return scn;
}

/* A scenario named @name on the test machine with the rest of its keys @rest. */
static const char *write_doc(const char *name, const char *rest)
{
	snprintf(scn, sizeof scn, "/tmp/mmemu-test-lmb-%d.json", (int)getpid());
	FILE *f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f, "{ \"name\": \"%s\", %s,\n  %s }\n", name, MACHINE(CACHES), rest);
	fclose(f);
	return scn;
}

static json_t *run(const char *coloring, const char *wl)
{
	char w[512];
	snprintf(w, sizeof w, "\"aging\": false, %s", wl);
	return run_results(write_scn(MACHINE(CACHES), coloring, w), 1);
}

/* 4 KiB fits the L1: every load 2 ns; a read every 32 bytes, one a cycle =
 * 32 bytes/ns; the FFT of 256 points: 8 stages of 128 butterflies at 10 cycles,
 * 120 bit-reversal swaps and 1024 butterflies of 4 references, one a cycle. */
static void test_l1(void **state)
{
	(void)state;
	json_t *r = run("none", "\"size\": \"4KiB\", \"stride\": 64");
	near(metric(r, "lat_ns"), 2.0, 1e-9);
	near(metric(r, "bw_rd_MBps"), 32000, 1e-6);
	near(metric(r, "bw_wr_MBps"), 32000, 1e-6);
	near(metric(r, "fft_ms"), (1024 * 10 + 120 * 4 + 1024 * 4) * 1e-6, 1e-12);
	near(metric(r, "lat_memory_loads"), 0, 0);
	json_decref(r);
}

/* 32 KiB (4 pages): beyond the L1, inside the L2.  Boot-fresh buddy lists hand
 * out contiguous frames, four different colours: every load 10 ns. */
static void test_l2_fresh(void **state)
{
	(void)state;
	json_t *r = run("none", "\"size\": \"32KiB\", \"stride\": 64, \"fft\": false");
	near(metric(r, "lat_ns"), 10.0, 1e-9);
	near(metric(r, "colour_conflict_pages"), 0, 0);
	near(metric(r, "colours"), 8, 0);
	near(metric(r, "page_color_placed"), 0, 0);
	/* bw_rd: per 64-byte line two reads (2 cycles) and one fill of 10 ns */
	near(metric(r, "bw_rd_MBps"), 64.0 / 12e-9 / 1e6, 1e-6);
	json_decref(r);
}

/* Round-robin: consecutive colours, whatever the free lists; every allocation
 * found its colour at once on fresh memory. */
static void test_roundrobin(void **state)
{
	(void)state;
	json_t *r = run("roundrobin", "\"size\": \"64KiB\", \"stride\": 64, \"bw_mem\": false, \"fft\": false");
	near(metric(r, "lat_ns"), 10.0, 1e-9);
	near(metric(r, "colour_conflict_pages"), 0, 0);
	assert_true(metric(r, "page_color_placed") >= 8);
	near(metric(r, "page_color_misses"), 0, 0);
	near(metric(r, "page_color_hits"), metric(r, "page_color_placed"), 0);
	json_decref(r);
}

/* 256 KiB, four times the L2: a cyclic sweep misses everywhere, 100 ns a load,
 * and every measured load came from memory. */
static void test_memory(void **state)
{
	(void)state;
	json_t *r = run("none", "\"size\": \"256KiB\", \"stride\": 64, \"bw_mem\": false, \"fft\": false, "
			"\"min_refs\": 8192");
	near(metric(r, "lat_ns"), 100.0, 1e-9);
	near(metric(r, "lat_memory_loads"), 8192, 0);
	json_decref(r);
}

/* bw_mem at 256 KiB (4x the L2), one pass: per 64-byte line a fill from memory
 * (1 ns issue + 64 B / 640 MB/s = 100 ns) and one L1 hit (1 ns).  wr's lines are
 * dirty: each one the L2 evicts costs another 100 ns write to memory (the warm-up
 * pass dirtied them all); cp reads a source line and writes a destination line. */
static void test_bw_writeback(void **state)
{
	(void)state;
	json_t *r = run("none", "\"size\": \"256KiB\", \"lat_mem_rd\": false, \"fft\": false, "
			"\"min_refs\": 8192");
	double lines = 4096, bytes = 262144;
	near(metric(r, "bw_rd_MBps"), bytes / (lines * 102e-9) / 1e6, 1e-6);
	near(metric(r, "bw_wr_MBps"), bytes / (lines * 202e-9) / 1e6, 1e-6);
	near(metric(r, "bw_cp_MBps"), bytes / (lines * 304e-9) / 1e6, 1e-6);
	json_decref(r);
}

/* The communication benchmarks (workloads/lmb_comm.c): every byte bw_unix and
 * bw_pipe move is copied twice (copy_from_user into the kernel buffer, copy_to_user
 * out of it), 2 x comm_bytes each; bw_file_rd io_only writes the file once, reads
 * it once to warm up and then ceil(comm_bytes / file_size) times: with 128 KiB and
 * 256 KiB, 8 x 128 + 3 x 256 KiB pass through cache_copy; bw_mmap_rd reads the
 * cached file through a mapping, a warm-up pass and one timed pass. */
static void comm_case(const char *coloring)
{
	json_t *r = run_results(write_scn(MACHINE(CACHES ", \"disks\": [{ \"name\": \"sda\", \"size\": \"1GB\","
					  " \"read\": \"20MB/s\", \"write\": \"20MB/s\" }]"),
					  coloring,
					  "\"aging\": false, \"size\": \"64KiB\", \"lat_mem_rd\": false, "
					  "\"bw_mem\": false, \"fft\": false, \"comm\": true, "
					  "\"comm_bytes\": \"128KiB\", \"file_size\": \"256KiB\", \"check\": true"),
				1);
	near(metric(r, "copied_bytes"), 8 * 131072.0 + 3 * 262144.0, 0);
	assert_true(metric(r, "bw_unix_MBps") > 0);
	assert_true(metric(r, "bw_pipe_MBps") > 0);
	assert_true(metric(r, "bw_file_rd_MBps") > 0);
	/* bw_mmap_rd: the 32 pages (8 KiB) of the cached file mapped by 32 minor
	 * faults in the warm-up pass, then one timed pass: 4,096 lines, each a load
	 * from memory (1 ns issue + 100 ns fill) and 7 more words hitting the L1
	 * (1 ns each): 108 ns a line, nothing copied */
	near(metric(r, "mmap_rd_faults"), 32, 0);
	near(metric(r, "bw_mmap_rd_MBps"), 262144.0 / (4096 * 108e-9) / 1e6, 1e-6);
	near(metric(r, "invariants_ok"), 1, 0);
	json_decref(r);
	/* bw_file_rd writes a file: without a disk the scenario is refused */
	assert_bad_scenario(write_scn(MACHINE(CACHES), "none",
				      "\"aging\": false, \"size\": \"64KiB\", \"comm\": true"),
			    "machine.disks: bw_file_rd (comm) writes a file: expected a disk");
}

/* With round-robin colouring too: the skb areas are order-3 blocks, which the
 * colour lists (single pages) must leave to the allocator; the invariant checker
 * caught a block freed twice when a page of it was swapped for a coloured one. */
static void test_comm(void **state)
{
	(void)state;
	comm_case("none");
	comm_case("roundrobin");
}

/* The fft workload: the same transform alone, MFLOPS as its primary metric. */
static void test_fft_workload(void **state)
{
	(void)state;
	json_t *r = run_results(write_doc("fft test", "\"kernels\": { \"k\": { \"reclaim\": \"lru2q\" } },\n"
							"  \"workload\": { \"type\": \"fft\", \"aging\": false, \"size\": \"4KiB\", \"check\": true },\n"
							"  \"runs\": 1, \"seed\": 1"),
				1);
	double t = (1024 * 10 + 120 * 4 + 1024 * 4) * 1e-9;
	near(metric(r, "fft_ms"), t * 1e3, 1e-12);
	near(metric(r, "fft_mflops"), 5.0 * 256 * 8 / t / 1e6, 1e-6);
	near(metric(r, "invariants_ok"), 1, 0);
	json_t *m = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	assert_null(json_object_get(m, "lat_ns"));
	assert_null(json_object_get(m, "bw_rd_MBps"));
	json_decref(r);
}

/* lmbench is chainable: two steps on one boot share the booted kernel, so the
 * colouring counters (the kernel's, counted from boot) of the second step are
 * the first's plus its own, and with round-robin colouring the second run
 * finds its colours on the free lists the first left: 10 ns a load both times. */
static void test_chained_boot(void **state)
{
	(void)state;
	json_t *r = run_results(
		write_doc("lmbench chain",
			  "\"kernels\": { \"k\": { \"reclaim\": \"lru2q\", \"coloring\": \"roundrobin\",\n"
			  "     \"alloc\": { \"module\": \"buddy\", \"max_order\": 10, \"pcp\": false } } },\n"
			  "  \"workload\": { \"type\": \"lmbench\", \"aging\": false, \"size\": \"64KiB\", \"stride\": 64,\n"
			  "     \"bw_mem\": false, \"fft\": false, \"check\": true },\n"
			  "  \"steps\": [ {}, {} ], \"runs\": 1, \"seed\": 1"),
		2);
	json_t *m1 = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "metrics");
	json_t *m2 = json_object_get(json_array_get(json_object_get(r, "runs"), 1), "metrics");
	double p1 = json_number_value(json_object_get(m1, "page_color_placed"));
	double p2 = json_number_value(json_object_get(m2, "page_color_placed"));
	near(json_number_value(json_object_get(m1, "lat_ns")), 10.0, 1e-9);
	near(json_number_value(json_object_get(m2, "lat_ns")), 10.0, 1e-9);
	near(json_number_value(json_object_get(m2, "invariants_ok")), 1, 0);
	assert_true(p1 >= 8);
	near(p2, 2 * p1, 0);
	json_decref(r);
}

static void test_errors(void **state)
{
	(void)state;
	char out[200];
	snprintf(out, sizeof out, "%s.out.json", write_scn(MACHINE(""), "none", "\"size\": \"64KiB\""));
	assert_int_equal(run_mmemu(scn, out), 2);
	write_scn(MACHINE(CACHES), "none", "\"size\": \"24KiB\"");
	assert_int_equal(run_mmemu(scn, out), 2);   /* the FFT needs a power of two */
	write_scn(MACHINE(CACHES), "none", "\"size\": \"64KiB\", \"stride\": 48");
	assert_int_equal(run_mmemu(scn, out), 2);
	write_scn(MACHINE(CACHES), "none", "\"size\": \"64KiB\", \"stride\": \"128KiB\"");
	assert_int_equal(run_mmemu(scn, out), 2);
	write_scn(MACHINE(CACHES), "none", "\"size\": \"64KiB\", \"aging\": true");
	assert_int_equal(run_mmemu(scn, out), 2);   /* aging reads a file: no disk */
	unlink(scn);
	unlink(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l1),
		cmocka_unit_test(test_l2_fresh),
		cmocka_unit_test(test_roundrobin),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_bw_writeback),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_fft_workload),
		cmocka_unit_test(test_chained_boot),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
