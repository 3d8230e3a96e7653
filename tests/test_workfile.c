/*
 * test_workfile.c - reaim workfiles: the shipped mixes, sizes, proportional picking,
 * the known-test table, and one exact message for every kind of malformed input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/workfile.h"

#ifndef MMEMU_SRCDIR
#define MMEMU_SRCDIR "."
#endif

struct want {
	const char *name;
	uint32_t hits;
};

/* Path of a file under the source tree (static buffer). */
static const char *src(const char *rel)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", MMEMU_SRCDIR, rel);
	return path;
}

/* Load @rel and compare with @want (n tests, in order) and @total. */
static void expect_mix(const char *rel, const struct want *want, int n, uint64_t total)
{
	struct workfile w;
	struct mm_err e = { { 0 } };
	if (workfile_load(&w, src(rel), &e) < 0)
		fail_msg("%s", e.msg);
	assert_int_equal(w.ntests, n);
	uint64_t sum = 0;
	for (int i = 0; i < n; i++) {
		assert_string_equal(w.tests[i].name, want[i].name);
		assert_int_equal(w.tests[i].hits, want[i].hits);
		assert_int_equal(w.tests[i].id, workfile_known_id(want[i].name));
		sum += want[i].hits;
		assert_true(w.tests[i].cum == sum);
	}
	assert_true(w.total_hits == total);
	assert_true(w.mix_hits == total);   /* no test is repeated */
	assert_true(sum == total);
	/* the shipped files leave the sizes to the config, as the real ones do */
	assert_int_equal(w.has_filesize, 0);
	assert_int_equal(w.has_poolsize, 0);
	assert_true(w.filesize == WORKFILE_DEFAULT_FILESIZE);
	assert_true(w.poolsize == WORKFILE_DEFAULT_POOLSIZE);
	workfile_free(&w);
}

static void test_compute(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ "add_double", 50 }, { "add_int", 30 }, { "add_long", 30 },
		{ "array_rtns", 10 }, { "disk_cp", 10 }, { "disk_rd", 30 },
		{ "disk_src", 10 }, { "disk_wrt", 20 }, { "div_double", 40 },
		{ "div_int", 30 }, { "matrix_rtns", 50 }, { "mem_rtns_1", 40 },
		{ "mem_rtns_2", 40 }, { "mul_double", 50 }, { "mul_int", 30 },
		{ "mul_long", 30 }, { "new_raph", 40 }, { "num_rtns_1", 40 },
		{ "page_test", 50 }, { "series_1", 40 }, { "shared_memory", 10 },
		{ "sieve", 30 }, { "stream_pipe", 20 }, { "string_rtns", 30 },
		{ "trig_rtns", 40 }, { "udp_test", 20 },
	};
	/* workloads.md's list: 4 x 50 + 7 x 40 + 8 x 30 + 3 x 20 + 4 x 10 = 26 tests, 820 hits */
	expect_mix("workloads/reaim/workfile.compute", w, 26, 820);
}

static void test_new_dbase(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ "add_int", 20 }, { "add_long", 20 }, { "add_short", 20 },
		{ "disk_rd", 40 }, { "disk_rr", 40 }, { "div_int", 10 },
		{ "div_long", 10 }, { "div_short", 10 }, { "jmp_test", 10 },
		{ "mem_rtns_1", 40 }, { "mem_rtns_2", 40 }, { "mul_int", 10 },
		{ "mul_long", 10 }, { "mul_short", 10 }, { "page_test", 40 },
		{ "ram_copy", 20 }, { "shared_memory", 40 }, { "sieve", 30 },
		{ "sort_rtns_1", 30 }, { "stream_pipe", 10 }, { "string_rtns", 30 },
		{ "sync_disk_rw", 10 }, { "sync_disk_update", 10 }, { "disk_brw", 30 },
		{ "disk_bcp", 30 },
	};
	expect_mix("workloads/reaim/workfile.new_dbase", w, 25, 570);
}

static void test_dbase(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ "add_int", 20 }, { "add_long", 20 }, { "add_short", 20 },
		{ "disk_rd", 40 }, { "disk_rr", 40 }, { "div_int", 10 },
		{ "div_long", 10 }, { "div_short", 10 }, { "jmp_test", 10 },
		{ "mem_rtns_1", 40 }, { "mem_rtns_2", 40 }, { "mul_int", 10 },
		{ "mul_long", 10 }, { "mul_short", 10 }, { "page_test", 40 },
		{ "ram_copy", 20 }, { "shared_memory", 40 }, { "sieve", 30 },
		{ "sort_rtns_1", 30 }, { "stream_pipe", 10 }, { "string_rtns", 30 },
		{ "sync_disk_rw", 30 }, { "sync_disk_update", 30 },
	};
	expect_mix("workloads/reaim/workfile.dbase", w, 23, 550);
}

/* Parse @text; it must succeed. */
static void parse_ok(struct workfile *w, const char *text)
{
	struct mm_err e = { { 0 } };
	if (workfile_parse(w, text, strlen(text), "t.wf", &e) < 0)
		fail_msg("%s", e.msg);
}

static void test_sizes(void **state)
{
	(void)state;
	struct workfile w;
	parse_ok(&w, "# header\nFILESIZE: 100K\nPOOLSIZE: 250M\n1 sieve\n");
	assert_true(w.filesize == 100 * 1024);
	assert_true(w.poolsize == 250ULL << 20);
	assert_int_equal(w.has_filesize, 1);
	assert_int_equal(w.has_poolsize, 1);
	workfile_free(&w);
	/* reaim.config style: no colon, lower-case suffix; G is an mmemu extension */
	parse_ok(&w, "FILESIZE 10k\nPOOLSIZE\t1g\n1 sieve");
	assert_true(w.filesize == 10 * 1024);
	assert_true(w.poolsize == 1ULL << 30);
	workfile_free(&w);
	parse_ok(&w, "1 sieve\nPOOLSIZE: 1024m   # STP\n");
	assert_int_equal(w.has_filesize, 0);
	assert_true(w.filesize == WORKFILE_DEFAULT_FILESIZE);
	assert_true(w.poolsize == 1ULL << 30);
	workfile_free(&w);
	/* one of them may be 0 (reaim: POOLSIZE 0 = fixed file size) */
	parse_ok(&w, "FILESIZE: 80K\nPOOLSIZE: 0K\n1 sieve\n");
	assert_true(w.filesize == 80 * 1024);
	assert_true(w.poolsize == 0);
	workfile_free(&w);
	/* the largest sizes: WORKFILE_MAX_SIZE in each unit */
	parse_ok(&w, "FILESIZE: 1048576K\nPOOLSIZE: 1024M\n1 sieve\n");
	assert_true(w.filesize == WORKFILE_MAX_SIZE);
	assert_true(w.poolsize == WORKFILE_MAX_SIZE);
	workfile_free(&w);
	parse_ok(&w, "FILESIZE: 1G\n1 sieve\n");
	assert_true(w.filesize == 1ULL << 30);
	workfile_free(&w);
}

static void test_syntax_ok(void **state)
{
	(void)state;
	struct workfile w;
	/* CRLF, tabs, leading blanks, trailing comments, no final newline, max hits */
	parse_ok(&w, "\r\n  # c\r\n\t10\tsieve\t# ten\r\n16777204 add_int\r\n  \r\n2 fun_cal15");
	assert_int_equal(w.ntests, 3);
	assert_int_equal(w.tests[0].line, 3);
	assert_int_equal(w.tests[1].hits, 16777204);
	assert_int_equal(w.tests[2].line, 6);
	assert_string_equal(w.tests[2].name, "fun_cal15");
	assert_true(w.total_hits == WORKFILE_MAX_HITS);
	workfile_free(&w);
	workfile_free(&w);   /* twice is fine */
	workfile_free(NULL);
}

/* A repeated test, as reaim reads it: the later hit count replaces the earlier,
 * the total counts both lines, the test keeps its first place. */
static void test_repeated(void **state)
{
	(void)state;
	struct workfile w;
	parse_ok(&w, "1 sieve\n# c\n2 add_int\n3 sieve\n");
	assert_int_equal(w.ntests, 2);
	assert_string_equal(w.tests[0].name, "sieve");
	assert_int_equal(w.tests[0].hits, 3);
	assert_int_equal(w.tests[0].line, 4);
	assert_true(w.tests[0].cum == 3);
	assert_string_equal(w.tests[1].name, "add_int");
	assert_true(w.tests[1].cum == 5);
	assert_true(w.mix_hits == 5);
	assert_true(w.total_hits == 6);
	assert_int_equal(workfile_pick(&w, 2), 0);
	assert_int_equal(workfile_pick(&w, 4), 1);
	assert_int_equal(workfile_pick(&w, 5), -1);
	workfile_free(&w);

	/* reaim's own workfile.alltests lists string_rtns twice (20, then 30) */
	struct mm_err e = { { 0 } };
	if (workfile_load(&w, src("workloads/reaim/workfile.alltests"), &e) < 0)
		fail_msg("%s", e.msg);
	assert_int_equal(w.ntests, 62);
	assert_true(w.total_hits == 1000);
	assert_true(w.mix_hits == 980);
	assert_true(w.tests[w.ntests - 1].cum == 980);
	assert_string_equal(w.tests[38].name, "string_rtns");
	assert_int_equal(w.tests[38].hits, 30);
	assert_int_equal(w.tests[38].line, 9 + 43);   /* 9 comment lines, then data line 43 */
	assert_string_equal(w.tests[39].name, "fifo_test");
	workfile_free(&w);
}

static void test_pick(void **state)
{
	(void)state;
	struct workfile w;
	parse_ok(&w, "3 sieve\n1 add_int\n5 page_test\n1 disk_rd\n");
	assert_true(w.mix_hits == 10);
	assert_int_equal(workfile_pick(&w, 0), 0);
	assert_int_equal(workfile_pick(&w, 2), 0);
	assert_int_equal(workfile_pick(&w, 3), 1);
	assert_int_equal(workfile_pick(&w, 4), 2);
	assert_int_equal(workfile_pick(&w, 8), 2);
	assert_int_equal(workfile_pick(&w, 9), 3);
	assert_int_equal(workfile_pick(&w, 10), -1);
	assert_int_equal(workfile_pick(&w, UINT64_MAX), -1);
	assert_int_equal(workfile_pick(NULL, 0), -1);
	workfile_free(&w);
	assert_int_equal(workfile_pick(&w, 0), -1);

	/* over every r of the shipped mixes, each test gets exactly its hits */
	const char *mixes[] = { "workloads/reaim/workfile.compute",
				"workloads/reaim/workfile.new_dbase",
				"workloads/reaim/workfile.dbase",
				"workloads/reaim/workfile.alltests" };
	for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; m++) {
		struct mm_err e = { { 0 } };
		if (workfile_load(&w, src(mixes[m]), &e) < 0)
			fail_msg("%s", e.msg);
		uint64_t count[80] = { 0 };
		assert_true(w.ntests <= 80);
		for (uint64_t r = 0; r < w.mix_hits; r++) {
			int i = workfile_pick(&w, r);
			assert_true(i >= 0 && i < w.ntests);
			count[i]++;
		}
		for (int i = 0; i < w.ntests; i++)
			assert_true(count[i] == w.tests[i].hits);
		assert_int_equal(workfile_pick(&w, 0), 0);
		assert_int_equal(workfile_pick(&w, w.mix_hits - 1), w.ntests - 1);
		assert_int_equal(workfile_pick(&w, w.mix_hits), -1);
		workfile_free(&w);
	}
}

static void test_known(void **state)
{
	(void)state;
	int n = workfile_known_count();
	assert_int_equal(n, 71);
	for (int i = 0; i < n; i++) {
		const struct workfile_known *k = workfile_known(i);
		assert_non_null(k);
		assert_true(strlen(k->name) > 0 && strlen(k->name) < WORKFILE_NAME_MAX);
		assert_non_null(k->desc);
		assert_non_null(k->source);
		assert_int_equal(workfile_known_id(k->name), i);   /* unique */
		assert_string_not_equal(workfile_category_name(k->cat), "?");
	}
	assert_null(workfile_known(-1));
	assert_null(workfile_known(n));
	assert_int_equal(workfile_known_id("Sieve"), -1);
	assert_int_equal(workfile_known_id("creat-clo"), -1);   /* AIM9 spelling */
	assert_int_equal(workfile_known_id(NULL), -1);
	assert_string_equal(workfile_category_name(WF_CAT_CPU), "cpu");
	assert_string_equal(workfile_category_name(WF_CAT_NETWORK), "network");
	assert_int_equal(workfile_known(workfile_known_id("page_test"))->cat, WF_CAT_MEMORY);
	assert_int_equal(workfile_known(workfile_known_id("disk_bcp"))->cat, WF_CAT_DISK);
	assert_int_equal(workfile_known(workfile_known_id("udp_test"))->cat, WF_CAT_NETWORK);
	assert_int_equal(workfile_known(workfile_known_id("stream_pipe"))->cat, WF_CAT_IPC);
	assert_int_equal(workfile_known(workfile_known_id("fork_test"))->cat, WF_CAT_PROCESS);
}

/* Parse @text and expect exactly "t.wf: @msg". */
static void expect_err(const char *text, const char *msg)
{
	struct workfile w;
	struct mm_err e = { { 0 } };
	char want[600];
	assert_int_equal(workfile_parse(&w, text, strlen(text), "t.wf", &e), -1);
	assert_null(w.tests);
	assert_int_equal(w.ntests, 0);
	snprintf(want, sizeof want, "t.wf: %s", msg);
	assert_string_equal(e.msg, want);
}

static void test_errors(void **state)
{
	(void)state;
	/* unknown test names, with and without a likely intended one */
	expect_err("50 add_dubble\n",
		   "line 1: expected a reaim test name, got \"add_dubble\" (unknown; did you "
		   "mean \"add_double\"?)");
	expect_err("# c\n\n10 SIEVE\n",
		   "line 3: expected a reaim test name, got \"SIEVE\" (unknown; did you mean "
		   "\"sieve\"?)");
	expect_err("10 creat-clo\n",
		   "line 1: expected a reaim test name, got \"creat-clo\" (unknown; did you "
		   "mean \"creat_clo\"?)");
	expect_err("5 frobnicate\n",
		   "line 1: expected a reaim test name, got \"frobnicate\" (unknown: not one of "
		   "the 71 tests reaim 7 registers)");
	expect_err("5 a_very_long_test_name_that_goes_on_and_on\n",
		   "line 1: expected a reaim test name, got \"a_very_long_test_name_th...\" "
		   "(unknown: not one of the 71 tests reaim 7 registers)");
	/* missing or bad hit counts */
	expect_err("1 sieve\nadd_double\n",
		   "line 2: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
		   "\"add_double\" (a test line needs its hit count first)");
	expect_err("hello world\n",
		   "line 1: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
		   "\"hello\"");
	expect_err("# c\n50\n", "line 2: expected a test name after the hit count \"50\"");
	expect_err("50   # sieve\n", "line 1: expected a test name after the hit count \"50\"");
	expect_err("5x sieve\n", "line 1: expected a hit count (a positive integer), got \"5x\"");
	expect_err("2.5 sieve\n",
		   "line 1: expected a hit count (a positive integer), got \"2.5\"");
	expect_err("+5 sieve\n", "line 1: expected a hit count (a positive integer), got \"+5\"");
	expect_err("- sieve\n", "line 1: expected a hit count (a positive integer), got \"-\"");
	expect_err("0 sieve\n", "line 1: expected a positive hit count, got \"0\"");
	expect_err("000 sieve\n", "line 1: expected a positive hit count, got \"000\"");
	expect_err("-3 sieve\n", "line 1: expected a positive hit count, got \"-3\"");
	expect_err("4294967296 sieve\n",
		   "line 1: expected a hit count below 2^32, got \"4294967296\"");
	expect_err("99999999999999999999999 sieve\n",
		   "line 1: expected a hit count below 2^32, got \"99999999999999999999999\"");
	/* at most 2^24 hits in all (fuzzing: more validated, then the run failed with
	 * "workload: out of memory") */
	expect_err("16777216 sieve\n# c\n1 add_int\n",
		   "line 3: expected at most 16777216 (2^24) hits in all, got 16777217 with this line");
	expect_err("4294967295 add_int\n",
		   "line 1: expected at most 16777216 (2^24) hits in all, got 4294967295 with this line");
	/* trailing garbage */
	expect_err("50 sieve extra\n",
		   "line 1: expected end of line after the test name \"sieve\", got \"extra\"");
	expect_err("50 sieve 30 add_int\n",
		   "line 1: expected end of line after the test name \"sieve\", got \"30\"");
	expect_err("FILESIZE: 1K junk\n1 sieve\n",
		   "line 1: expected end of line after FILESIZE \"1K\", got \"junk\"");
	/* sizes */
	expect_err("FILESIZE: 1K\nFILESIZE: 2K\n1 sieve\n",
		   "line 2: duplicate FILESIZE (first given on line 1)");
	expect_err("POOLSIZE: 1M\n1 sieve\nPOOLSIZE 1M\n",
		   "line 3: duplicate POOLSIZE (first given on line 1)");
	expect_err("FILESIZE: 10X\n",
		   "line 1: expected a size suffix K, M or G right after the number of "
		   "FILESIZE, got \"10X\"");
	expect_err("FILESIZE: 10\n1 sieve\n",
		   "line 1: expected a size suffix K, M or G right after the number of "
		   "FILESIZE, got \"10\"");
	expect_err("FILESIZE: 10 K\n",
		   "line 1: expected a size suffix K, M or G right after the number of "
		   "FILESIZE, got \"10\"");
	expect_err("POOLSIZE: 10KB\n",
		   "line 1: expected a size suffix K, M or G right after the number of "
		   "POOLSIZE, got \"10KB\"");
	expect_err("FILESIZE: abc\n",
		   "line 1: expected a size such as 10K or 1M after FILESIZE, got \"abc\"");
	expect_err("FILESIZE: -1K\n",
		   "line 1: expected a size such as 10K or 1M after FILESIZE, got \"-1K\"");
	expect_err("FILESIZE:\n",
		   "line 1: expected a size such as 10K or 1M after FILESIZE, got end of line");
	expect_err("FILESIZE:10K\n",
		   "line 1: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
		   "\"FILESIZE:10K\"");
	expect_err("filesize: 10K\n",
		   "line 1: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
		   "\"filesize:\"");
	/* sizes are range-checked (fuzzing: 18014398509481983K overflowed the reaim
	 * workload's disk-fit check and the run hung; 4096G validated) */
	expect_err("FILESIZE: 18014398509481983K\n1 sieve\n",
		   "line 1: expected a FILESIZE of at most 1G (1048576K), got "
		   "\"18014398509481983K\"");
	expect_err("1 sieve\nPOOLSIZE: 4096G\n",
		   "line 2: expected a POOLSIZE of at most 1G (1048576K), got \"4096G\"");
	expect_err("FILESIZE: 1048577K\n1 sieve\n",
		   "line 1: expected a FILESIZE of at most 1G (1048576K), got \"1048577K\"");
	expect_err("POOLSIZE: 1025m\n1 sieve\n",
		   "line 1: expected a POOLSIZE of at most 1G (1048576K), got \"1025m\"");
	expect_err("FILESIZE: 2G\n1 sieve\n",
		   "line 1: expected a FILESIZE of at most 1G (1048576K), got \"2G\"");
	expect_err("FILESIZE: 17179869184G\n",
		   "line 1: expected a FILESIZE of at most 1G (1048576K), got \"17179869184G\"");
	expect_err("FILESIZE: 99999999999999999999999K\n",
		   "line 1: expected a FILESIZE of at most 1G (1048576K), got "
		   "\"99999999999999999999999K\"");
	expect_err("FILESIZE: 99999999999999999999999\n",
		   "line 1: expected a size suffix K, M or G right after the number of "
		   "FILESIZE, got \"99999999999999999999999\"");
	expect_err("FILESIZE: 0K\nPOOLSIZE: 0M\n1 sieve\n",
		   "line 2: expected FILESIZE or POOLSIZE above 0 (reaim refuses both 0)");
	/* the total counts a repeated test's every line */
	expect_err("16777216 sieve\n1 sieve\n",
		   "line 2: expected at most 16777216 (2^24) hits in all, got 16777217 with this line");
	/* no tests */
	expect_err("", "expected at least one \"<hits> <test_name>\" line, found none");
	expect_err("# only\n\n  \n# comments\nFILESIZE: 1K\n",
		   "expected at least one \"<hits> <test_name>\" line, found none");
	/* the first error wins, with its own line number */
	expect_err("1 sieve\n\n\n# x\n  7 sieve_x\n0 add_int\n",
		   "line 5: expected a reaim test name, got \"sieve_x\" (unknown; did you mean "
		   "\"sieve\"?)");
	/* non-printable bytes are shown escaped (mm_err_quote()) */
	expect_err("1 si\001eve\n",
		   "line 1: expected a reaim test name, got \"si\\u0001eve\" (unknown; did you "
		   "mean \"sieve\"?)");
}

/* A UTF-8 byte-order mark at the start is skipped (it made line 1 an error). */
static void test_bom(void **state)
{
	(void)state;
	struct workfile w;
	parse_ok(&w, "\xEF\xBB\xBF# mix\n3 sieve\n");
	assert_int_equal(w.ntests, 1);
	assert_int_equal(w.tests[0].line, 2);
	workfile_free(&w);
	parse_ok(&w, "\xEF\xBB\xBF" "FILESIZE: 20K\n1 sieve\n");
	assert_true(w.filesize == 20 * 1024);
	workfile_free(&w);
	parse_ok(&w, "\xEF\xBB\xBF" "5 add_int");
	assert_int_equal(w.tests[0].hits, 5);
	workfile_free(&w);
	/* only at the very start */
	expect_err("1 sieve\n\xEF\xBB\xBF" "2 add_int\n",
		   "line 2: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
		   "\"\\u00ef\\u00bb\\u00bf2\"");
}

/* Load tests/workfiles/@file and expect "<its path>: @msg". */
static void expect_file_err(const char *file, const char *msg)
{
	char rel[256], want[1200];
	snprintf(rel, sizeof rel, "tests/workfiles/%s", file);
	const char *path = src(rel);
	struct workfile w;
	struct mm_err e = { { 0 } };
	assert_int_equal(workfile_load(&w, path, &e), -1);
	assert_null(w.tests);
	snprintf(want, sizeof want, "%s: %s", path, msg);
	assert_string_equal(e.msg, want);
}

static void test_error_files(void **state)
{
	(void)state;
	expect_file_err("unknown-test.txt",
			"line 4: expected a reaim test name, got \"add_dubble\" (unknown; did you "
			"mean \"add_double\"?)");
	expect_file_err("duplicate-filesize.txt",
			"line 4: duplicate FILESIZE (first given on line 2)");
	expect_file_err("empty.txt",
			"expected at least one \"<hits> <test_name>\" line, found none");
	expect_file_err("bad-suffix.txt",
			"line 2: expected a size suffix K, M or G right after the number of "
			"POOLSIZE, got \"25O\"");
	expect_file_err("trailing-garbage.txt",
			"line 2: expected end of line after the test name \"add_int\", got \"30\"");
	expect_file_err("missing-hits.txt",
			"line 2: expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got "
			"\"add_double\" (a test line needs its hit count first)");
	expect_file_err("zero-hits.txt", "line 2: expected a positive hit count, got \"0\"");

	/* a device that never ends is refused at the size limit (it was read until
	 * memory ran out) */
	struct workfile w0;
	struct mm_err e0 = { { 0 } };
	assert_int_equal(workfile_load(&w0, "/dev/zero", &e0), -1);
	assert_string_equal(e0.msg, "/dev/zero: expected a workfile of at most 1 MiB, got more");
	assert_null(w0.tests);

	/* a missing file and a directory are named in the message */
	struct workfile w;
	struct mm_err e = { { 0 } };
	const char *missing = src("tests/workfiles/no-such-workfile");
	char want[1200];
	assert_int_equal(workfile_load(&w, missing, &e), -1);
	snprintf(want, sizeof want, "%s: cannot open (No such file or directory)", missing);
	assert_string_equal(e.msg, want);
	assert_null(w.tests);
	const char *dir = src("tests/workfiles");
	assert_int_equal(workfile_load(&w, dir, &e), -1);
	snprintf(want, sizeof want, "%s: expected a workfile, got a directory", dir);
	assert_string_equal(e.msg, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_new_dbase),
		cmocka_unit_test(test_dbase),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_syntax_ok),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_repeated),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
