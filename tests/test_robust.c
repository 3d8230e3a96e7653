/*
 * test_robust.c - regressions of the failures an attack found (issue 27), black box.
 *
 * Design: each test reproduces one failure through the mmemu binary ($MMEMU) on a
 * shipped scenario, shortened, and asserts the exit status, the one-line error and
 * the files left behind (what must exist, what must not have changed).  The
 * simulation bugs (the crash at engine.max_time, the invariant violations under
 * memory pressure) are run with --check so that the model's invariant checker
 * judges them, not only the exit status.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/clitest.h"

/* Returns: the number of times @needle occurs in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* engine.max_time ends a reaim run with disk requests queued and in service:
 * the children used to segfault in disk_destroy() (requests on killed actors'
 * stacks).  Every simulation must end, pass the checker and report its I/O. */
static void max_time_with_io_in_flight(void **state)
{
	(void)state;
	int rc = sh("run -q -j 2 --check --set runs=1 --set engine.max_time=0.2s "
		    "scenarios/teaching/reaim-small.json -o %s/r.json", dir);
	char *e = slurp("err");
	if (rc != 0)
		fail_msg("exit %d: %s", rc, e);
	assert_string_equal(e, "");
	char *r = slurp("r.json");
	assert_int_equal(count(r, "\"max_time\": 0.2"), 8);   /* 2 kernels x 4 points */
	assert_int_equal(count(r, "\"complete\": 0.0"), 8);   /* every run stopped early */
	assert_int_equal(count(r, "\"disk_writes\": 0.0"), 0);   /* ... with I/O done */
	free(r);
	free(e);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir("robust");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(max_time_with_io_in_flight),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
