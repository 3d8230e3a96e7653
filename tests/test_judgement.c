/*
 * test_judgement.c - judgement paths (emu/engine/judgement.c): the value a
 * dotted path names, with array indices and `*` (every member of an object,
 * one shared value), the override that sets it, and the declaration check's
 * error for a `*` path whose members differ.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "emu/engine/judgement.h"

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je);
	assert_non_null(v);
	return v;
}

/* @got equals the JSON @want (text); both compared as values. */
static void same(json_t *got, const char *want)
{
	json_t *w = parse(want);
	assert_non_null(got);
	if (!json_equal(got, w)) {
		char *g = json_dumps(got, JSON_SORT_KEYS);
		fail_msg("got %s, want %s", g, want);
	}
	json_decref(w);
}

static const char *scn =
	"{ \"kernels\": { \"a\": { \"vm\": { \"swap\": \"1GiB\", \"d\": [1, {\"x\": 2}] } },\n"
	"                 \"b\": { \"vm\": { \"swap\": \"1GiB\", \"d\": [1, {\"x\": 2}] } } },\n"
	"  \"disks\": [ { \"k\": { \"p\": 3 } } ], \"odd\": { \"a\": 1, \"b\": 2 } }";

static void test_value(void **state)
{
	(void)state;
	json_t *r = parse(scn);
	assert_string_equal(json_string_value(judgement_value(r, "kernels.a.vm.swap")), "1GiB");
	assert_string_equal(json_string_value(judgement_value(r, "kernels.*.vm.swap")), "1GiB");
	assert_int_equal(json_integer_value(judgement_value(r, "kernels.*.vm.d.1.x")), 2);
	assert_int_equal(json_integer_value(judgement_value(r, "disks.0.k.p")), 3);
	assert_null(judgement_value(r, "odd.*"));            /* the members differ */
	assert_null(judgement_value(r, "kernels.*.vm.nope"));
	assert_null(judgement_value(r, "disks.*.k.p"));      /* * is for objects */
	json_decref(r);
}

static void test_set(void **state)
{
	(void)state;
	json_t *r = parse(scn), *v = json_string("2GiB"), *n = json_integer(9);
	json_t *s = judgement_set(r, "kernels.*.vm.swap", v);
	same(s, "{ \"kernels.a.vm.swap\": \"2GiB\", \"kernels.b.vm.swap\": \"2GiB\" }");
	json_decref(s);
	s = judgement_set(r, "kernels.*.vm.d.1.x", n);   /* an array inside: each whole */
	same(s, "{ \"kernels.a.vm.d\": [1, {\"x\": 9}], \"kernels.b.vm.d\": [1, {\"x\": 9}] }");
	json_decref(s);
	s = judgement_set(r, "kernels.a.vm.swap", v);
	same(s, "{ \"kernels.a.vm.swap\": \"2GiB\" }");
	json_decref(s);
	assert_null(judgement_set(r, "odd.*", n));
	json_decref(n);
	json_decref(v);
	json_decref(r);
}

static void test_check(void **state)
{
	(void)state;
	json_t *r = parse("{ \"odd\": { \"a\": 1, \"b\": 2 }, \"same\": { \"a\": 1, \"b\": 1 },\n"
			  "  \"judgement\": [ { \"path\": \"same.*\", \"range\": [0, 4], \"source\": \"s\" } ] }");
	struct mm_err e = { "" };
	assert_int_equal(judgement_check(r, "f.json", &e), 0);
	json_object_set_new(json_array_get(json_object_get(r, "judgement"), 0), "path", json_string("odd.*"));
	assert_int_equal(judgement_check(r, "f.json", &e), -1);
	assert_non_null(strstr(e.msg, "judgement.0.path: expected the dotted path of a number or string the "
				      "scenario sets (with *, the same in every member)"));
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
