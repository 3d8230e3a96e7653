/*
 * test_err.c - emu/core/err.c: every message is one printable line that keeps its
 * "what was expected" part, whatever names and paths it quotes (issue 17).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "emu/core/err.h"

static void quote_escapes_control_bytes(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(mm_err_clean(out, sizeof out, "a\nb\tc\x1b[31m\x7f", 60), 23);
	assert_string_equal(out, "a\\nb\\tc\\u001b[31m\\u007f");
	assert_int_equal(mm_err_clean(out, sizeof out, "kernels.lru", 60), 11);
	assert_string_equal(out, "kernels.lru");
	/* UTF-8 passes through */
	mm_err_clean(out, sizeof out, "caf\xc3\xa9", 60);
	assert_string_equal(out, "caf\xc3\xa9");
}

static void quote_cuts_in_the_middle(void **state)
{
	(void)state;
	char out[64];
	/* 26 letters into 14: (14 - 3) / 3 = 3 from the end, 8 from the start */
	assert_int_equal(mm_err_clean(out, sizeof out, "abcdefghijklmnopqrstuvwxyz", 14), 14);
	assert_string_equal(out, "abcdefgh...xyz");
	/* an escape is never split */
	assert_int_equal(mm_err_clean(out, sizeof out, "abcdefg\n1234567890xyz", 14), 13);
	assert_string_equal(out, "abcdefg...xyz");
	/* the capacity wins over max */
	assert_int_equal(mm_err_clean(out, 5, "abcdefgh", 60), 4);
	assert_string_equal(out, "abcd");
}

static void message_keeps_what_was_expected(void **state)
{
	(void)state;
	struct mm_err e;
	char key[4000];
	memset(key, 'k', sizeof key - 1);
	key[sizeof key - 1] = '\0';
	char path[4100];
	snprintf(path, sizeof path, "machine.%s", key);
	mm_errf(&e, "s.json", path, "unknown key (expected one of: %s)", "cpus, clock");
	assert_true(strlen(e.msg) < MM_ERR_MAX);
	assert_non_null(strstr(e.msg, "s.json: machine.kkk"));
	assert_non_null(strstr(e.msg, "kkk...kkk"));
	assert_non_null(strstr(e.msg, "kkk: unknown key (expected one of: cpus, clock)"));
	assert_null(strchr(e.msg, '\n'));
	/* a newline in a name is shown escaped, on one line */
	mm_errf(&e, "s.json", "kernels.a\nb.machine.mem", "unknown key");
	assert_string_equal(e.msg, "s.json: kernels.a\\nb.machine.mem: unknown key");
	/* a long message keeps its end */
	char what[2000];
	memset(what, 'w', sizeof what - 1);
	what[sizeof what - 1] = '\0';
	mm_errf(&e, "s.json", "p", "%s: expected a string", what);
	assert_true(strlen(e.msg) < MM_ERR_MAX);
	assert_non_null(strstr(e.msg, "s.json: p: www"));
	size_t n = strlen(e.msg);
	assert_string_equal(e.msg + n - 8, "a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quote_escapes_control_bytes),
		cmocka_unit_test(quote_cuts_in_the_middle),
		cmocka_unit_test(message_keeps_what_was_expected),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
