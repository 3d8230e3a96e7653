/*
 * test_tracefile.c - trace loading (every format, every error message) and
 * synthetic trace generation (determinism, shape).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/core/err.h"
#include "emu/core/readfile.h"
#include "workloads/tracefile.h"
#include "workloads/tracegen.h"

/* Write @text to a fresh temp file whose name ends in @suffix; returns its path (static). */
static const char *tmpfile_with(const char *text, const char *suffix)
{
	static char path[128];
	snprintf(path, sizeof path, "/tmp/mmemu_tf_XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	return path;
}

/* Load @text as format @fmt and compare with original ids @want (n of them). */
static void expect_ids(const char *text, const char *suffix, enum trace_format fmt, int col,
		       const uint64_t *want, size_t n, uint32_t npages)
{
	const char *p = tmpfile_with(text, suffix);
	struct trace t;
	struct mm_err e = { { 0 } };
	if (trace_load(&t, p, fmt, col, &e) < 0)
		fail_msg("%s", e.msg);
	assert_int_equal(t.nrefs, n);
	assert_int_equal(t.npages, npages);
	uint32_t next = 0;
	for (size_t i = 0; i < n; i++) {
		assert_true(t.refs[i] < t.npages);
		assert_true(t.orig[t.refs[i]] == want[i]);
		/* dense ids in first-seen order */
		if (t.refs[i] == next)
			next++;
		else
			assert_true(t.refs[i] < next);
	}
	trace_free(&t);
	unlink(p);
}

/* Load @text and expect the error "<path>: @msg". */
static void expect_err(const char *text, const char *suffix, enum trace_format fmt, int col,
		       const char *msg)
{
	const char *p = tmpfile_with(text, suffix);
	struct trace t;
	struct mm_err e = { { 0 } };
	char want[600];
	assert_int_equal(trace_load(&t, p, fmt, col, &e), -1);
	assert_null(t.refs);
	snprintf(want, sizeof want, "%s: %s", p, msg);
	assert_string_equal(e.msg, want);
	unlink(p);
}

static void test_plain(void **state)
{
	(void)state;
	static const uint64_t w[] = { 5, 7, 5, 9, 18446744073709551615ULL, 0, 7 };
	const char *text = "# a comment\n5\n\n7\n5   # trailing comment\n  9  \n"
			   "18446744073709551615\n0\n7\n";
	expect_ids(text, ".txt", TRACE_PLAIN, 0, w, 7, 5);
	expect_ids(text, "", TRACE_AUTO, 0, w, 7, 5);
	expect_ids(text, ".trace", TRACE_TXT, 0, w, 7, 5);
	/* CRLF */
	static const uint64_t w2[] = { 1, 2, 1 };
	expect_ids("1\r\n2\r\n1\r\n", "", TRACE_AUTO, 0, w2, 3, 2);
	/* large ids go through the hash map, small through the direct table */
	static const uint64_t w3[] = { 1ULL << 40, 3, 1ULL << 40, (1ULL << 40) + 1, 3 };
	expect_ids("1099511627776\n3\n1099511627776\n1099511627777\n3\n", "", TRACE_AUTO, 0,
		   w3, 5, 3);
}

static void test_csv(void **state)
{
	(void)state;
	static const uint64_t w[] = { 100, 200, 100, 300 };
	expect_ids("timestamp,obj_id,size\n1,100,4096\n2,200,4096\n3,100,4096\n4,300,1\n",
		   ".csv", TRACE_AUTO, 0, w, 4, 3);
	expect_ids("time, Key ,size\n1, 100 ,4096\n2,200,4096\n\n3,100,4096\n4,\"300\",1\n",
		   ".dat", TRACE_AUTO, 0, w, 4, 3);
	expect_ids("t,objId\n1,100\n2,200\n3,100\n4,300\n", "", TRACE_CSV, 0, w, 4, 3);
	expect_ids("t,obj-id\r\n1,100\r\n2,200\r\n3,100\r\n4,300\r\n", "", TRACE_CSV, 0, w, 4, 3);
	/* explicit 1-based column; header names irrelevant */
	expect_ids("a,b,c\n1,2,100\n1,2,200\n1,2,100\n1,2,300\n", ".csv", TRACE_CSV, 3, w, 4, 3);
	/* explicit column and no header: the first line is data */
	expect_ids("1,100\n2,200\n3,100\n4,300\n", ".csv", TRACE_CSV, 2, w, 4, 3);
}

static void test_errors(void **state)
{
	(void)state;
	expect_err("1\n2\nx3\n", "", TRACE_PLAIN, 0,
		   "line 3: expected a page number (decimal integer), got \"x3\"");
	expect_err("1\n2 3\n", "", TRACE_PLAIN, 0,
		   "line 2: expected one page number per line, got \"2 3\"");
	expect_err("1\n-1\n", "", TRACE_PLAIN, 0,
		   "line 2: expected a page number (decimal integer), got \"-1\"");
	expect_err("18446744073709551616\n", "", TRACE_PLAIN, 0,
		   "line 1: expected a page number below 2^64, got \"18446744073709551616\"");
	expect_err("12abc\n", "", TRACE_TXT, 0,
		   "line 1: expected one page number per line, got \"12abc\"");
	expect_err("", "", TRACE_AUTO, 0, "line 1: expected at least one page number, got end of file");
	expect_err("# only\n# comments\n", "", TRACE_PLAIN, 0,
		   "line 3: expected at least one page number, got end of file");
	expect_err("time,size\n1,2\n", ".csv", TRACE_AUTO, 0,
		   "line 1: expected a csv header with a column named obj_id, obj-id, objId or key "
		   "(or give --obj-id-col N)");
	expect_err("t,obj_id\n1,5\n2,abc\n", ".csv", TRACE_AUTO, 0,
		   "line 3: expected an object id (decimal integer) in column 2, got \"abc\"");
	expect_err("t,obj_id\n1,5\n2\n", ".csv", TRACE_AUTO, 0,
		   "line 3: expected at least 2 comma-separated fields");
	expect_err("t,obj_id\n1,\n", ".csv", TRACE_AUTO, 0,
		   "line 2: expected an object id (decimal integer) in column 2, got an empty field");
	expect_err("t,obj_id\n", ".csv", TRACE_AUTO, 0,
		   "line 2: expected at least one data line, got end of file");
	expect_err("", ".csv", TRACE_CSV, 0, "line 1: expected a csv header line, got an empty file");

	/* the bad line is quoted escaped (no raw control bytes reach the terminal),
	 * and cut with "..." after 24 characters */
	expect_err("1\n\033[2J\033[31m7\n", "", TRACE_PLAIN, 0,
		   "line 2: expected a page number (decimal integer), got \"\\u001b[2J\\u001b[31m7\"");
	expect_err("1\n2\t\001\r\n", "", TRACE_PLAIN, 0,
		   "line 2: expected one page number per line, got \"2\\t\\u0001\"");
	expect_err("1\n\"5\"\n", "", TRACE_PLAIN, 0,
		   "line 2: expected a page number (decimal integer), got \"\\\"5\\\"\"");
	expect_err("\xc3\xa9\n", "", TRACE_PLAIN, 0,
		   "line 1: expected a page number (decimal integer), got \"\\u00c3\\u00a9\"");
	expect_err("123456789012345678901234567890\n", "", TRACE_PLAIN, 0,
		   "line 1: expected a page number below 2^64, got \"123456789012345678901234...\"");
	expect_err("t,obj_id\n1,a\177\\b\n", ".csv", TRACE_AUTO, 0,
		   "line 2: expected an object id (decimal integer) in column 2, got "
		   "\"a\\u007f\\\\b\"");

	struct trace t;
	struct mm_err e;
	assert_int_equal(trace_from_string(&t, "1,\n\033x", "--refs", &e), -1);
	assert_string_equal(e.msg, "--refs: position 4: expected a page number (decimal integer), "
			    "got \"\\u001bx\"");
	assert_int_equal(trace_load(&t, "/nonexistent/x.trace", TRACE_AUTO, 0, &e), -1);
	assert_string_equal(e.msg, "/nonexistent/x.trace: cannot open (No such file or directory)");
	assert_int_equal(trace_load(&t, "/tmp", TRACE_AUTO, 0, &e), -1);
	assert_string_equal(e.msg, "/tmp: expected a trace file, got a directory");
}

/* Parse @text from an exactly-sized heap copy: no terminating NUL, as
 * mm_read_file() returns a file.  The ASan build catches any read past it. */
static int parse_unterminated(struct trace *t, const char *text, enum trace_format fmt, int col,
			      struct mm_err *e)
{
	size_t n = strlen(text);
	char *b = malloc(n);
	assert_non_null(b);
	memcpy(b, text, n);
	int rc = trace_parse(t, b, n, "t", fmt, col, e);
	free(b);
	return rc;
}

/* The parser reads only the bytes it is given (fuzzing: a one-byte csv "5" with
 * --obj-id-col 1 sent strspn() past the end of the buffer), and a text trace
 * whose last line has no newline is refused as truncated (issue 27: a trace cut
 * by a full disk was accepted); with the newline the same text parses. */
static void test_unterminated(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		enum trace_format fmt;
		int col;
		uint64_t last;
		int line;
	} ok[] = {
		{ "5", TRACE_CSV, 1, 5, 1 },
		{ "1,5", TRACE_CSV, 2, 5, 1 },
		{ "a,b\n1,5", TRACE_CSV, 2, 5, 2 },
		{ "t,obj_id\n1,5", TRACE_AUTO, 0, 5, 2 },
		{ "5", TRACE_PLAIN, 0, 5, 1 },
		{ "3\n5  ", TRACE_AUTO, 0, 5, 2 },
		{ "1\n2\n3\n1234", TRACE_PLAIN, 0, 1234, 4 },
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct trace t;
		struct mm_err e = { { 0 } };
		char msg[200], text[64];
		snprintf(msg, sizeof msg,
			 "t: line %d: expected a newline at the end of the last line (a truncated trace?), got end of file",
			 ok[i].line);
		assert_int_equal(parse_unterminated(&t, ok[i].text, ok[i].fmt, ok[i].col, &e), -1);
		if (strcmp(e.msg, msg))
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, e.msg, msg);
		snprintf(text, sizeof text, "%s\n", ok[i].text);
		if (parse_unterminated(&t, text, ok[i].fmt, ok[i].col, &e) < 0)
			fail_msg("case %zu with its newline: %s", i, e.msg);
		assert_true(t.orig[t.refs[t.nrefs - 1]] == ok[i].last);
		trace_free(&t);
	}
	static const struct {
		const char *text;
		enum trace_format fmt;
		int col;
		const char *msg;
	} bad[] = {
		{ "5x", TRACE_PLAIN, 0, "t: line 1: expected one page number per line, got \"5x\"" },
		/* the end of a file without a final newline is on its last line (fuzzing:
		 * csv said "line 2" of a one-line file; plain said "line 1") */
		{ "1,5x", TRACE_CSV, 2, "t: line 1: expected at least one data line, got end of file" },
		{ "t,obj_id", TRACE_AUTO, 0, "t: line 1: expected at least one data line, got end of file" },
		{ "t,obj_id\n#", TRACE_CSV, 0, "t: line 2: expected at least one data line, got end of file" },
		{ "#", TRACE_PLAIN, 0, "t: line 1: expected at least one page number, got end of file" },
		{ "t,obj_id\n1,5x", TRACE_CSV, 0,
		  "t: line 2: expected an object id (decimal integer) in column 2, got \"5x\"" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct trace t;
		struct mm_err e = { { 0 } };
		assert_int_equal(parse_unterminated(&t, bad[i].text, bad[i].fmt, bad[i].col, &e), -1);
		assert_string_equal(e.msg, bad[i].msg);
	}
}

/* A UTF-8 byte-order mark at the start is not data (it made a plain trace invalid). */
static void test_bom(void **state)
{
	(void)state;
	static const uint64_t w[] = { 1, 2, 1 };
	expect_ids("\xEF\xBB\xBF" "1\n2\n1\n", ".txt", TRACE_AUTO, 0, w, 3, 2);
	expect_ids("\xEF\xBB\xBF" "obj_id,size\n1,4\n2,4\n1,4\n", ".csv", TRACE_AUTO, 0, w, 3, 2);
	expect_ids("\xEF\xBB\xBF" "t,obj_id\n5,1\n6,2\n7,1\n", "", TRACE_AUTO, 0, w, 3, 2);
	expect_err("\xEF\xBB\xBF", "", TRACE_PLAIN, 0,
		   "line 1: expected at least one page number, got end of file");
	/* only a whole mark at the very start is skipped */
	expect_err("\xEF\xBB" "1\n", "", TRACE_PLAIN, 0,
		   "line 1: expected a page number (decimal integer), got \"\\u00ef\\u00bb1\"");
	expect_err("1\n\xEF\xBB\xBF" "2\n", "", TRACE_PLAIN, 0,
		   "line 2: expected a page number (decimal integer), got "
		   "\"\\u00ef\\u00bb\\u00bf2\"");
}

/* A pipe holding @text (its write end closed), named /dev/fd/N in @path.
 * Returns: the read end (close it). */
static int pipe_with(const char *text, char *path, size_t size)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
	close(fds[1]);
	snprintf(path, size, "/dev/fd/%d", fds[0]);
	return fds[0];
}

/* Input files are read with a size limit, also when they are not regular files. */
static void test_file_limits(void **state)
{
	(void)state;
	struct mm_err e = { { 0 } };
	char *buf;
	size_t len;
	/* a device that never ends: refused after max + 1 bytes */
	assert_int_equal(mm_read_file("/dev/zero", "trace file", 100000, &buf, &len, &e), -1);
	assert_null(buf);
	assert_string_equal(e.msg, "/dev/zero: expected a trace file of at most 100000 bytes, got more");
	assert_int_equal(mm_read_file("/dev/zero", "trace file", 3 << 20, &buf, &len, &e), -1);
	assert_string_equal(e.msg, "/dev/zero: expected a trace file of at most 3 MiB, got more");
	/* a pipe is read to its end */
	char path[64];
	int fd = pipe_with("1\n2\n", path, sizeof path);
	assert_int_equal(mm_read_file(path, "trace file", 4, &buf, &len, &e), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "1\n2\n", 4);
	free(buf);
	close(fd);
	/* a regular file: exactly max is fine, one byte more is refused unread */
	char p[128];
	snprintf(p, sizeof p, "%s", tmpfile_with("1\n2\n", ""));
	assert_int_equal(mm_read_file(p, "trace file", 4, &buf, &len, &e), 0);
	assert_int_equal(len, 4);
	free(buf);
	assert_int_equal(mm_read_file(p, "trace file", 3, &buf, &len, &e), -1);
	char want[600];
	snprintf(want, sizeof want, "%s: expected a trace file of at most 3 bytes, got 4 bytes", p);
	assert_string_equal(e.msg, want);
	/* trace_load's limit, on a sparse file one byte larger */
	assert_int_equal(truncate(p, (off_t)TRACE_FILE_MAX + 1), 0);
	struct trace t;
	assert_int_equal(trace_load(&t, p, TRACE_AUTO, 0, &e), -1);
	snprintf(want, sizeof want, "%s: expected a trace file of at most 1 GiB, got %zu bytes", p,
		 TRACE_FILE_MAX + 1);
	assert_string_equal(e.msg, want);
	unlink(p);
}

/* mm_err_quote(): JSON-style escapes, cut after a whole character to fit. */
static void test_err_quote(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t len, size;
		const char *out;
	} c[] = {
		{ "", 0, MM_ERR_QUOTE_SIZE, "\"\"" },
		{ "abc", 3, MM_ERR_QUOTE_SIZE, "\"abc\"" },
		{ "a\0b", 3, MM_ERR_QUOTE_SIZE, "\"a\\u0000b\"" },
		{ "\"\\\n\r\t\x7f\xff ~", 9, MM_ERR_QUOTE_SIZE,
		  "\"\\\"\\\\\\n\\r\\t\\u007f\\u00ff ~\"" },
		/* MM_ERR_QUOTE_SIZE: 27 characters whole, more cut to 24 and "..." */
		{ "abcdefghijklmnopqrstuvwxyz0", 27, MM_ERR_QUOTE_SIZE,
		  "\"abcdefghijklmnopqrstuvwxyz0\"" },
		{ "abcdefghijklmnopqrstuvwxyz01", 28, MM_ERR_QUOTE_SIZE,
		  "\"abcdefghijklmnopqrstuvwx...\"" },
		{ "abcdefghijklmnopqrstuvwxyz01", 24, MM_ERR_QUOTE_SIZE, "\"abcdefghijklmnopqrstuvwx\"" },
		/* the cut never splits an escape */
		{ "abc\001def", 7, 12, "\"abc...\"" },
		{ "abcdef", 6, 8, "\"ab...\"" },
		{ "abcde", 5, 8, "\"abcde\"" },
		{ "abc", 3, 8, "\"abc\"" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char buf[64];
		memset(buf, 'Z', sizeof buf);
		assert_ptr_equal(mm_err_quote(buf, c[i].size, c[i].in, c[i].len), buf);
		assert_string_equal(buf, c[i].out);
		assert_true(strlen(buf) < c[i].size);
		assert_true(buf[c[i].size - 1] == 'Z' || strlen(buf) == c[i].size - 1);
	}
}

static void test_refs_string(void **state)
{
	(void)state;
	struct trace t;
	struct mm_err e;
	assert_int_equal(trace_from_string(&t, "7, 0,1 2,7", "--refs", &e), 0);
	assert_int_equal(t.nrefs, 5);
	assert_int_equal(t.npages, 4);
	static const uint32_t dense[] = { 0, 1, 2, 3, 0 };
	assert_memory_equal(t.refs, dense, sizeof dense);
	assert_true(t.orig[3] == 2);
	trace_free(&t);

	static const struct {
		const char *s, *msg;
	} bad[] = {
		{ "1,2,x", "--refs: position 5: expected a page number (decimal integer), got \"x\"" },
		{ "1,,2", "--refs: position 3: expected a page number (decimal integer), got \",2\"" },
		{ "", "--refs: position 1: expected a page number (decimal integer), got end of string" },
		{ "1,2,", "--refs: position 5: expected a page number (decimal integer), got end of string" },
		{ ",1", "--refs: position 1: expected a page number (decimal integer), got \",1\"" },
		{ "1,-2", "--refs: position 3: expected a page number (decimal integer), got \"-2\"" },
		{ "99999999999999999999", "--refs: position 1: expected a page number below 2^64" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(trace_from_string(&t, bad[i].s, "--refs", &e), -1);
		assert_string_equal(e.msg, bad[i].msg);
		assert_null(t.refs);
	}
}

static void test_formats_names(void **state)
{
	(void)state;
	enum trace_format f;
	assert_int_equal(trace_format_parse("csv", &f), 0);
	assert_int_equal(f, TRACE_CSV);
	assert_string_equal(trace_format_name(TRACE_TXT), "txt");
	assert_int_equal(trace_format_parse("xml", &f), -1);
}

static void test_tracegen(void **state)
{
	(void)state;
	struct mm_err e;
	enum tracegen_kind kinds[] = { TRACEGEN_ZIPF, TRACEGEN_TWOREGION, TRACEGEN_LOOP };
	for (int k = 0; k < 3; k++) {
		struct tracegen_cfg c = tracegen_defaults();
		c.kind = kinds[k];
		c.refs = 20000;
		c.pages = 1000;
		uint32_t *a = malloc(c.refs * 4), *b = malloc(c.refs * 4), *d = malloc(c.refs * 4);
		assert_int_equal(tracegen_fill(&c, a, &e), 0);
		assert_int_equal(tracegen_fill(&c, b, &e), 0);
		assert_memory_equal(a, b, c.refs * 4);
		c.seed = 2;
		assert_int_equal(tracegen_fill(&c, d, &e), 0);
		if (c.kind == TRACEGEN_LOOP)
			assert_memory_equal(a, d, c.refs * 4);  /* no randomness */
		else
			assert_memory_not_equal(a, d, c.refs * 4);
		uint64_t cnt[1000] = { 0 };
		for (uint64_t i = 0; i < c.refs; i++) {
			assert_true(a[i] < c.pages);
			cnt[a[i]]++;
		}
		if (c.kind == TRACEGEN_ZIPF) {
			/* p(0)/p(1) = 2^0.9 = 1.87; page 0 gets ~ 1/H(1000,0.9) = 11% */
			assert_true(cnt[0] > cnt[1] && cnt[1] > cnt[9]);
			double r = (double)cnt[0] / (double)cnt[1];
			assert_true(r > 1.6 && r < 2.2);
			assert_true(cnt[0] > 1600 && cnt[0] < 2800);
		} else if (c.kind == TRACEGEN_TWOREGION) {
			uint64_t hot = 0;
			for (int p = 0; p < 200; p++)
				hot += cnt[p];
			assert_true(hot > 15500 && hot < 16500);  /* 80% of 20000 */
		} else {
			for (uint64_t i = 0; i < c.refs; i++)
				assert_int_equal(a[i], i % 1000);
		}
		/* the written file loads back to the same page numbers */
		char path[] = "/tmp/mmemu_tg_XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");
		c.seed = 1;
		assert_int_equal(tracegen_write(&c, f, path, &e), 0);
		fclose(f);
		struct trace t;
		assert_int_equal(trace_load(&t, path, TRACE_AUTO, 0, &e), 0);
		assert_int_equal(t.nrefs, c.refs);
		for (uint64_t i = 0; i < c.refs; i++)
			assert_true(t.orig[t.refs[i]] == a[i]);
		trace_free(&t);
		unlink(path);
		free(a);
		free(b);
		free(d);
	}
	/* uniform zipf (alpha 0) and exponent 1 work too */
	struct tracegen_cfg c = tracegen_defaults();
	c.refs = 1000;
	c.pages = 10;
	uint32_t buf[1000];
	c.alpha = 0;
	assert_int_equal(tracegen_fill(&c, buf, &e), 0);
	c.alpha = 1;
	assert_int_equal(tracegen_fill(&c, buf, &e), 0);
	c.pages = 0;
	assert_int_equal(tracegen_fill(&c, buf, &e), -1);
	assert_non_null(strstr(e.msg, "--pages"));
}

/* The binary layout (tracefile.h): written from ids, read back without parsing,
 * identical to the text trace of the same numbers; every inconsistency refused. */
static void test_binary(void **state)
{
	(void)state;
	static const uint32_t ids[] = { 70, 5, 70, 900000, 5, 5, 12 };
	const char text[] = "70\n5\n70\n900000\n5\n5\n12\n";
	struct trace a, b, c;
	struct mm_err e = { "" };
	assert_int_equal(trace_from_ids(&a, ids, 7, "ids", &e), 0);
	assert_int_equal(trace_parse(&c, text, sizeof text - 1, "t.txt", TRACE_AUTO, 0, &e), 0);
	char *bin = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&bin, &blen);
	assert_int_equal(trace_write_bin(&a, f, "mem", &e), 0);
	fclose(f);
	assert_int_equal(blen, 24 + 4 * 8 + 7 * 4);   /* header, 4 pages, 7 references */
	assert_memory_equal(bin, "MMTRACE1\1\0\0\0\4\0\0\0\7\0\0\0\0\0\0\0", 24);
	assert_int_equal(trace_parse(&b, bin, blen, "t.bin", TRACE_AUTO, 0, &e), 0);
	assert_int_equal(b.nrefs, 7);
	assert_int_equal(b.npages, 4);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(b.refs[i], c.refs[i]);
		assert_int_equal(a.refs[i], c.refs[i]);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(b.orig[i], c.orig[i]);
	assert_int_equal(b.orig[2], 900000);
	trace_free(&b);
	/* corruptions: each a one-line error naming the part */
	static const struct {
		size_t off;
		unsigned char byte;
		const char *msg;
	} bad[] = {
		{ 0, 'X', "t.bin: header: expected the binary trace magic" },
		{ 8, 2, "t.bin: header: expected binary trace version 1, got 2" },
		{ 12, 5, "t.bin: header: expected 5 pages and 7 references to fill the file's 84 bytes" },
		{ 16, 9, "t.bin: header: expected 4 pages and 9 references" },
		{ 12, 0, "t.bin: header: expected at least one page and one reference, got 0 and 7" },
		{ 16, 0, "t.bin: header: expected at least one page and one reference, got 4 and 0" },
		{ 12, 8, "t.bin: header: expected no more pages than references, got 8 pages and 7 references" },
		{ 24 + 8, 70, "t.bin: pages: expected distinct original page ids, got 70 for pages 0 and 1" },
		{ 24 + 32 + 4, 3, "t.bin: references: expected dense page ids in first-seen order below 4, got 3 at reference 1" },
		{ 24 + 32 + 12, 7, "t.bin: references: expected dense page ids in first-seen order below 4, got 7 at reference 3" },
		{ 24 + 32 + 24, 0, "t.bin: references: expected all 4 pages to be referenced, got 3" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *copy = malloc(blen);
		memcpy(copy, bin, blen);
		copy[bad[i].off] = (char)bad[i].byte;
		assert_int_equal(trace_parse(&b, copy, blen, "t.bin", TRACE_BIN, 0, &e), -1);
		if (!strstr(e.msg, bad[i].msg))
			fail_msg("case %zu: got \"%s\"", i, e.msg);
		assert_null(b.refs);
		free(copy);
	}
	/* the version written big-endian: the message says the layout's byte order */
	bin[8] = 0;
	bin[11] = 1;
	assert_int_equal(trace_parse(&b, bin, blen, "t.bin", TRACE_BIN, 0, &e), -1);
	assert_string_equal(e.msg, "t.bin: header: expected binary trace version 1, got 16777216 "
			    "(version 1 big-endian: the layout is little-endian)");
	bin[8] = 1;
	bin[11] = 0;
	assert_int_equal(trace_parse(&b, bin, 20, "t.bin", TRACE_BIN, 0, &e), -1);   /* truncated */
	assert_non_null(strstr(e.msg, "t.bin: header:"));
	free(bin);
	trace_free(&a);
	trace_free(&c);
}

/* trace_load_shared(): one parse per file, layout and content; a changed file is
 * parsed again, and a caller still holding the old one keeps it intact */
static void test_shared(void **state)
{
	(void)state;
	struct mm_err e = { { 0 } };
	char path[128];
	snprintf(path, sizeof path, "%s", tmpfile_with("5\n7\n5\n", ""));
	const struct trace *a, *b, *c, *d;
	assert_int_equal(trace_load_shared(&a, path, TRACE_AUTO, 0, &e), 0);
	assert_int_equal(trace_load_shared(&b, path, TRACE_AUTO, 0, &e), 0);
	assert_ptr_equal(a, b);                      /* same bytes: the same parse */
	assert_int_equal(trace_load_shared(&c, path, TRACE_PLAIN, 0, &e), 0);
	assert_ptr_not_equal(a, c);                  /* another layout: its own parse */
	trace_release(c);
	/* the file changes while a and b are held: a new caller gets the new trace */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("1\n2\n3\n4\n", f);
	fclose(f);
	assert_int_equal(trace_load_shared(&d, path, TRACE_AUTO, 0, &e), 0);
	assert_ptr_not_equal(d, a);
	assert_int_equal(d->nrefs, 4);
	assert_int_equal(a->nrefs, 3);               /* the held one is untouched */
	assert_true(a->orig[a->refs[1]] == 7);
	trace_release(d);
	trace_release(b);
	trace_release(a);
	/* released: the next load of the new bytes replaces the kept parse */
	assert_int_equal(trace_load_shared(&a, path, TRACE_AUTO, 0, &e), 0);
	assert_int_equal(a->nrefs, 4);
	assert_int_equal(trace_load_shared(&b, path, TRACE_AUTO, 0, &e), 0);
	assert_ptr_equal(a, b);
	trace_release(a);
	trace_release(b);
	/* errors as trace_load() gives them */
	unlink(path);
	assert_int_equal(trace_load_shared(&a, path, TRACE_AUTO, 0, &e), -1);
	assert_null(a);
	assert_non_null(strstr(e.msg, "cannot open"));
	trace_shared_flush();
}

/* every line length the plain loader's eight-byte scan meets (1 to 20 digits,
 * leading zeros, CRLF, the last bytes of the file), against the byte loop's values */
static void test_digit_lengths(void **state)
{
	(void)state;
	static const uint64_t w[] = { 7, 12, 305, 4096, 65537, 999999, 1234567, 12345678,
				      123456789, 1000000000000ULL, 18446744073709551615ULL,
				      7, 0, 42, 9999999, 10, 3 };
	const char *text = "7\n12\n305\n4096\n65537\n999999\n1234567\n12345678\n123456789\n"
			   "1000000000000\n18446744073709551615\n0000007\n0\n042\r\n"
			   "9999999\n10\n3\n";
	expect_ids(text, "", TRACE_PLAIN, 0, w, 17, 16);
	/* a number glued to a letter is still an error on its own line */
	expect_err("1\n2\n1234567x\n", "", TRACE_PLAIN, 0,
		   "line 3: expected one page number per line, got \"1234567x\"");
}

/* Rewrite @path with @text (a new modification time, the same inode). */
static void rewrite(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 1, 0 } };   /* an mtime surely new */
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* A file read again after the inputs digest was made (a sweep's simulation child
 * re-reading the dbench loadfile or the reaim workfile) must be what was
 * digested: the digest keys the kept results (issue 27 item 5: a loadfile cut
 * during a sweep gave results from the cut file under the old key).  Same
 * identity, or the same bytes with a new time: read; other bytes: refused, one
 * line; a new digest takes the new bytes. */
static void test_inputs_changed(void **state)
{
	(void)state;
	char p[128], msg[300];
	snprintf(p, sizeof p, "%s", tmpfile_with("1\n2\n", ""));
	struct mm_filebuf fb;
	struct mm_err e = { { 0 } };
	char d[32], *buf;
	size_t len;
	mm_inputs_reset();
	assert_int_equal(mm_map_file(&fb, p, "trace file", 1 << 20, &e), 0);
	mm_unmap_file(&fb);
	assert_int_equal(mm_inputs_digest(d, sizeof d), 1);
	assert_int_equal(mm_map_file(&fb, p, "trace file", 1 << 20, &e), 0);   /* unchanged */
	mm_unmap_file(&fb);
	rewrite(p, "1\n2\n");   /* touched, same bytes */
	assert_int_equal(mm_read_file(p, "trace file", 1 << 20, &buf, &len, &e), 0);
	free(buf);
	rewrite(p, "1\n3\n");
	snprintf(msg, sizeof msg, "%s: expected the bytes the scenario was loaded with, got a file changed "
		 "since (its digest keys the kept results: load the scenario again)", p);
	assert_int_equal(mm_map_file(&fb, p, "trace file", 1 << 20, &e), -1);
	assert_string_equal(e.msg, msg);
	assert_null(fb.buf);
	assert_int_equal(mm_read_file(p, "trace file", 1 << 20, &buf, &len, &e), -1);
	assert_string_equal(e.msg, msg);
	assert_null(buf);
	mm_inputs_reset();   /* a new load digests the new bytes */
	assert_int_equal(mm_map_file(&fb, p, "trace file", 1 << 20, &e), 0);
	mm_unmap_file(&fb);
	assert_int_equal(mm_inputs_digest(d, sizeof d), 1);
	unlink(p);
}

/* mm_map_file(): a regular file is mapped, a pipe and an empty file are read;
 * the same errors as mm_read_file(). */
static void test_map_file(void **state)
{
	(void)state;
	struct mm_err e = { { 0 } };
	struct mm_filebuf fb;
	char p[128];
	snprintf(p, sizeof p, "%s", tmpfile_with("1\n2\n", ""));
	assert_int_equal(mm_map_file(&fb, p, "trace file", 4, &e), 0);
	assert_true(fb.mapped);
	assert_int_equal(fb.len, 4);
	assert_memory_equal(fb.buf, "1\n2\n", 4);
	mm_unmap_file(&fb);
	assert_null(fb.buf);
	assert_int_equal(mm_map_file(&fb, p, "trace file", 3, &e), -1);
	assert_null(fb.buf);
	char want[600];
	snprintf(want, sizeof want, "%s: expected a trace file of at most 3 bytes, got 4 bytes", p);
	assert_string_equal(e.msg, want);
	assert_int_equal(truncate(p, 0), 0);
	assert_int_equal(mm_map_file(&fb, p, "trace file", 4, &e), 0);
	assert_false(fb.mapped);
	assert_int_equal(fb.len, 0);
	mm_unmap_file(&fb);
	unlink(p);

	char path[64];
	int fd = pipe_with("7\n", path, sizeof path);
	assert_int_equal(mm_map_file(&fb, path, "trace file", 4, &e), 0);
	assert_false(fb.mapped);
	assert_int_equal(fb.len, 2);
	assert_memory_equal(fb.buf, "7\n", 2);
	mm_unmap_file(&fb);
	close(fd);

	assert_int_equal(mm_map_file(&fb, "/tmp", "trace file", 4, &e), -1);
	assert_string_equal(e.msg, "/tmp: expected a trace file, got a directory");
	assert_int_equal(mm_map_file(&fb, "/nonexistent/x", "trace file", 4, &e), -1);
	assert_string_equal(e.msg, "/nonexistent/x: cannot open (No such file or directory)");
	assert_int_equal(mm_map_file(&fb, "/dev/zero", "trace file", 100, &e), -1);
	assert_string_equal(e.msg, "/dev/zero: expected a trace file of at most 100 bytes, got more");
}

/* Digest of reading @p @times times in a fresh epoch; @n gets the file count. */
static void digest_of(const char *p, int times, char *out, int *n)
{
	struct mm_err e = { { 0 } };
	struct mm_filebuf fb;
	mm_inputs_reset();
	for (int i = 0; i < times; i++) {
		assert_int_equal(mm_map_file(&fb, p, "trace file", 64, &e), 0);
		mm_unmap_file(&fb);
	}
	*n = mm_inputs_digest(out, 17);
}

/* The inputs digest folds a regular file's bytes once per epoch: a repeat read
 * (validation maps a loadfile once per kernel and sweep point) adds its path and
 * first-read index, so reading twice still differs from reading once, the same
 * reads give the same digest in every epoch, and changed content changes it. */
static void test_inputs_repeat(void **state)
{
	(void)state;
	char p[128], once[17], twice[17], again[17], changed[17];
	int n;
	snprintf(p, sizeof p, "%s", tmpfile_with("1\n2\n", ""));
	digest_of(p, 1, once, &n);
	assert_int_equal(n, 1);
	digest_of(p, 2, twice, &n);
	assert_int_equal(n, 2);
	assert_string_not_equal(once, twice);
	digest_of(p, 2, again, &n);
	assert_string_equal(twice, again);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("3\n4\n5\n", f);
	fclose(f);
	digest_of(p, 2, changed, &n);
	assert_string_not_equal(twice, changed);
	unlink(p);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The plain layout's fast path (plain_fast(): batches of 256 lines of 1-7 digits)
 * and the line-at-a-time path it hands other lines to, on a long trace mixing
 * them: ids growing past the direct table in mid-batch and past 2^22 (the hash
 * table), comments, blank lines, \r\n, padded lines and 8-20 digit numbers.
 * Loaded from a file (mapped) and parsed from an exactly-sized heap copy (the
 * ASan build catches a read past it), both give the ids written. */
static void test_fast_path(void **state)
{
	(void)state;
	enum { LINES = 20000 };
	static const char *const odd[] = { "# a comment", "", "  12  ", "34\r", "12345678",
					   "18446744073709551615", "000000000000000000042",
					   "5 # five", "\t9", "4194304" };
	char *text = malloc(LINES * 24);
	uint64_t *want = malloc(LINES * sizeof *want);
	assert_non_null(text);
	assert_non_null(want);
	size_t len = 0, n = 0;
	uint64_t x = 1;
	for (int i = 0; i < LINES; i++) {
		if (i % 997 == 500 || (i > 9000 && i < 9040)) {   /* single ones and a run */
			const char *o = odd[i % 10];
			len += (size_t)sprintf(text + len, "%s\n", o);
			if (o[0] && o[0] != '#')
				want[n++] = strtoull(o, NULL, 10);
			continue;
		}
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* small ids, then ever larger ones: new pages and table growth mid-batch */
		uint64_t limit = i < 5000 ? 300 : i < 10000 ? 70000 : i < 15000 ? 2000000 : 9999999;
		uint64_t id = (x >> 33) % limit;
		want[n++] = id;
		len += (size_t)sprintf(text + len, "%llu\n", (unsigned long long)id);
	}
	text[len] = '\0';
	uint32_t npages = 0;
	{
		/* distinct ids, by sorting a copy */
		uint64_t *s = malloc(n * sizeof *s);
		assert_non_null(s);
		memcpy(s, want, n * sizeof *s);
		qsort(s, n, sizeof *s, cmp_u64);
		for (size_t i = 0; i < n; i++)
			npages += !i || s[i] != s[i - 1];
		free(s);
	}
	expect_ids(text, "", TRACE_PLAIN, 0, want, n, npages);
	struct trace t;
	struct mm_err e = { { 0 } };
	if (parse_unterminated(&t, text, TRACE_PLAIN, 0, &e) < 0)
		fail_msg("%s", e.msg);
	assert_int_equal(t.nrefs, n);
	for (size_t i = 0; i < n; i++)
		assert_true(t.orig[t.refs[i]] == want[i]);
	trace_free(&t);

	/* an error after thousands of fast lines names its line, counted through
	 * the batches and the odd lines */
	size_t line = 1, off = 0;
	while (line < 12345)
		line += text[off++] == '\n';
	memcpy(text + off, "x", 1);
	char msg[200];
	const char *le = strchr(text + off, '\n');
	snprintf(msg, sizeof msg, "t: line 12345: expected a page number (decimal integer), got \"%.*s\"",
		 (int)(le - text - off), text + off);
	assert_int_equal(parse_unterminated(&t, text, TRACE_PLAIN, 0, &e), -1);
	assert_string_equal(e.msg, msg);
	free(text);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unterminated),
		cmocka_unit_test(test_inputs_changed),
		cmocka_unit_test(test_err_quote),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_file_limits),
		cmocka_unit_test(test_refs_string),
		cmocka_unit_test(test_formats_names),
		cmocka_unit_test(test_tracegen),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_digit_lengths),
		cmocka_unit_test(test_map_file),
		cmocka_unit_test(test_inputs_repeat),
		cmocka_unit_test(test_fast_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
