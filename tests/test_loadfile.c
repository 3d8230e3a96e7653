/*
 * test_loadfile.c - the NBench loadfile parser (workloads/loadfile.c): exact
 * counts on the shipped small loadfile (operations, verbs, paths with their
 * parents, handles, extents, bytes), both layouts (with and without timestamps),
 * the byte limit, and every rejection with its line number.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/loadfile.h"

#define SMALL MMEMU_SRCDIR "/workloads/dbench/client-small.txt"

static int32_t find(const struct loadfile *lf, const char *name)
{
	for (int32_t i = 0; i < lf->npaths; i++)
		if (strcmp(lf->paths[i].name, name) == 0)
			return i;
	return -1;
}

static void test_small(void **state)
{
	(void)state;
	struct loadfile lf;
	struct mm_err e = { "" };
	assert_int_equal(loadfile_load(&lf, SMALL, 0, &e), 0);
	assert_int_equal(lf.nops, 38);
	assert_int_equal(lf.lines, 38);
	assert_int_equal(lf.verbs[LF_READX], 5);
	assert_int_equal(lf.verbs[LF_WRITEX], 4);
	assert_int_equal(lf.verbs[LF_NTCREATEX], 8);
	assert_int_equal(lf.verbs[LF_CLOSE], 7);
	assert_int_equal(lf.verbs[LF_UNLINK], 2);
	assert_int_equal(lf.verbs[LF_RENAME], 1);
	assert_int_equal(lf.read_bytes, 61440 + 61440 + 12288 + 4096 + 8192);
	assert_int_equal(lf.write_bytes, 65536 + 65536 + 4096 + 8192);
	assert_int_equal(lf.npaths, 9);
	assert_int_equal(lf.nhandles, 8);
	assert_int_equal(lf.control, 0);
	int32_t chap1 = find(&lf, "/clients/client1/~dmtmp/WORD/CHAP1.DOC");
	int32_t word = find(&lf, "/clients/client1/~dmtmp/WORD");
	assert_true(chap1 >= 0 && word >= 0);
	assert_int_equal(lf.paths[chap1].parent, word);
	assert_int_equal(lf.paths[chap1].extent, 135168);
	assert_int_equal(lf.paths[chap1].dir, 0);
	assert_int_equal(lf.paths[word].dir, 1);
	assert_int_equal(lf.paths[find(&lf, "/clients/client1/~dmtmp/WORD/CHAP2.DOC")].extent, 8192);
	assert_int_equal(lf.paths[find(&lf, "/clients")].parent, -1);
	/* the expected failures are kept, marked */
	assert_int_equal(lf.ops[6].verb, LF_QPATHINFO);
	assert_int_equal(lf.ops[6].ok, 0);
	assert_int_equal(lf.ops[9].create, 1);
	assert_int_equal(lf.ops[30].verb, LF_RENAME);
	assert_true(lf.ops[30].path2 >= 0);
	loadfile_free(&lf);
	/* the byte limit: stop at the line where ReadX + WriteX reach 100000 bytes */
	assert_int_equal(loadfile_load(&lf, SMALL, 100000, &e), 0);
	assert_int_equal(lf.nops, 13);   /* up to the second WriteX */
	assert_int_equal(lf.write_bytes, 131072);
	loadfile_free(&lf);
}

static void test_layouts(void **state)
{
	(void)state;
	const char *txt = "# a comment\n"
			  "0.010 NTCreateX \"\\clients\\client1\\a\" 0x0 0x2 7 NT_STATUS_OK\n"
			  "\n"
			  "0.020 LOOP\r\n"
			  "0.030 WriteX 7 0 100 100 SUCCESS\n"
			  "ReadX 7 0 100 50 0x0\n"
			  "Close 7 *\n"
			  "Close 8 NT_STATUS_INVALID_HANDLE\n";
	struct loadfile lf;
	struct mm_err e = { "" };
	assert_int_equal(loadfile_parse(&lf, txt, strlen(txt), "t.txt", 0, &e), 0);
	assert_int_equal(lf.nops, 5);
	assert_int_equal(lf.control, 1);
	assert_int_equal(lf.read_bytes, 50);
	assert_int_equal(lf.ops[2].ok, 1);
	assert_int_equal(lf.ops[4].ok, 0);
	assert_int_equal(lf.ops[4].handle, -1);
	assert_int_equal(lf.paths[find(&lf, "/clients/client1/a")].extent, 100);
	loadfile_free(&lf);
}

static void bad(const char *txt, const char *msg)
{
	struct loadfile lf;
	struct mm_err e = { "" };
	assert_int_equal(loadfile_parse(&lf, txt, strlen(txt), "b.txt", 0, &e), -1);
	if (!strstr(e.msg, msg))
		fail_msg("got \"%s\", expected \"%s\"", e.msg, msg);
	assert_null(lf.ops);
	assert_null(lf.paths);
}

static void test_bad(void **state)
{
	(void)state;
	const char *ok = "NTCreateX \"\\a\" 0x0 0x2 1 NT_STATUS_OK\n";
	char buf[256];
	bad("Frobnicate 1 NT_STATUS_OK\n", "b.txt: line 1: unknown operation \"Frobnicate\"");
	snprintf(buf, sizeof buf, "%sReadX 1 0 10 NT_STATUS_OK\n", ok);
	bad(buf, "b.txt: line 2: ReadX: expected 5 fields after the operation (the last a status), found 4");
	snprintf(buf, sizeof buf, "%sReadX 1 0 10 10 DONE\n", ok);
	bad(buf, "line 2: expected a status");
	snprintf(buf, sizeof buf, "%sReadX 1 0 10 10 \"\\x\"\n", ok);
	bad(buf, "line 2: expected a status");
	snprintf(buf, sizeof buf, "%sReadX 1 zero 10 10 NT_STATUS_OK\n", ok);
	bad(buf, "line 2: ReadX: expected a number as field 2, not \"zero\"");
	snprintf(buf, sizeof buf, "%sReadX 1 0 10 20 NT_STATUS_OK\n", ok);
	bad(buf, "line 2: ReadX: returned size 20 larger than the size asked, 10");
	bad("ReadX 5 0 10 10 NT_STATUS_OK\n", "line 1: ReadX: handle 5 was not opened");
	bad("Unlink \"\\a 0x6 NT_STATUS_OK\n", "line 1: expected a closing double quote");
	bad("Unlink a 0x6 NT_STATUS_OK\n", "line 1: Unlink: expected a quoted path as field 1");
	bad("Unlink \"a\" 0x6 NT_STATUS_OK\n", "line 1: expected an absolute path");
	bad("0.5\n", "line 1: expected an operation after the timestamp");
	bad("\n# nothing\n", "b.txt: line 1: expected at least one operation");
	bad("Close 1 2 3 4 5 6 7 8 9 10 11 12 13\n", "expected at most 12 fields");
	bad("Unlink \"\\a\x01\" 0 NT_STATUS_OK\n", "expected a path of printable characters");
	static const char nul[] = "Mkdir \"\\a\" NT_STATUS_OK\nMk\0dir\n";
	struct loadfile lf;
	struct mm_err e = { "" };
	assert_int_equal(loadfile_parse(&lf, nul, sizeof nul - 1, "n.txt", 0, &e), -1);
	assert_non_null(strstr(e.msg, "n.txt: line 2: expected text, found a NUL byte"));
	assert_int_equal(loadfile_load(&lf, "/nonexistent/client.txt", 0, &e), -1);
	assert_non_null(strstr(e.msg, "/nonexistent/client.txt"));
}

/* A path of many components interns every parent; the table grows as they go in
 * (found by fuzz_loadfile: a path of 300 components filled the first table and
 * the insertion's probe never ended). */
static void test_deep_path(void **state)
{
	(void)state;
	char line[1100] = "Mkdir \"";
	size_t n = strlen(line);
	for (int i = 0; i < 300; i++) {
		line[n++] = '\\';
		line[n++] = 'a' + i % 26;
	}
	snprintf(line + n, sizeof line - n, "\" NT_STATUS_OK\n");
	struct loadfile lf;
	struct mm_err e = { "" };
	assert_int_equal(loadfile_parse(&lf, line, strlen(line), "d.txt", 0, &e), 0);
	assert_int_equal(lf.npaths, 300);
	for (int32_t i = 0; i < lf.npaths; i++) {
		assert_int_equal(lf.paths[i].parent, i - 1);   /* parents first */
		assert_int_equal(strlen(lf.paths[i].name), 2 * (size_t)(i + 1));
	}
	loadfile_free(&lf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_deep_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
