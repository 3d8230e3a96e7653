/*
 * test_coherence.c - line ownership (models/hw/coherence.c) with exact counts:
 * alternating writers pay one transfer each, readers share without paying again,
 * a write invalidates every other copy, an upgrade costs one transfer time, and
 * the distance follows the buses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "models/hw/coherence.h"

#define US 1e-6

static struct machine_costs costs(void)
{
	struct machine_costs c = { 0 };
	c.mem_latency = 0.2 * US;
	c.line_transfer = 0.5 * US;
	c.cpus_per_bus = 4;
	c.cross_bus_transfer = 1.0 * US;
	return c;
}

static void test_alternating_writers(void **state)
{
	(void)state;
	struct machine_costs c = costs();
	struct coh_line l = { 0 };
	struct coh_stats st = { 0 };
	assert_float_equal(coh_write(&l, 0, &c, &st), 0.2 * US, 1e-15);   /* from memory */
	for (int i = 1; i <= 10; i++)
		assert_float_equal(coh_write(&l, i & 1, &c, &st), 0.5 * US, 1e-15);
	assert_int_equal(st.writes, 11);
	assert_int_equal(st.fills, 1);
	assert_int_equal(st.transfers, 10);
	assert_int_equal(st.invalidations, 10);
	assert_int_equal(coh_holders(&l), 1);
	/* the owner writes again for free */
	assert_float_equal(coh_write(&l, 0, &c, &st), 0, 0);
	assert_int_equal(st.transfers, 10);
}

static void test_readers_share(void **state)
{
	(void)state;
	struct machine_costs c = costs();
	struct coh_line l = { 0 };
	struct coh_stats st = { 0 };
	coh_write(&l, 0, &c, &st);
	for (int r = 0; r < 5; r++)
		for (int cpu = 1; cpu <= 3; cpu++)
			assert_float_equal(coh_read(&l, cpu, &c, &st), r == 0 ? 0.5 * US : 0, 1e-15);
	assert_int_equal(st.reads, 15);
	assert_int_equal(st.transfers, 3);   /* one per reader, the re-reads are hits */
	assert_int_equal(coh_holders(&l), 4);   /* the writer kept a shared copy */
	assert_int_equal(st.invalidations, 0);
}

static void test_write_after_three_readers(void **state)
{
	(void)state;
	struct machine_costs c = costs();
	struct coh_line l = { 0 };
	struct coh_stats st = { 0 };
	for (int cpu = 1; cpu <= 3; cpu++)
		coh_read(&l, cpu, &c, &st);
	assert_int_equal(st.fills, 1);       /* the first from memory */
	assert_int_equal(st.transfers, 2);   /* the others from a sharer */
	assert_float_equal(coh_write(&l, 0, &c, &st), 0.5 * US, 1e-15);
	assert_int_equal(st.invalidations, 3);
	assert_int_equal(coh_holders(&l), 1);
	/* the three readers miss again */
	for (int cpu = 1; cpu <= 3; cpu++)
		assert_float_equal(coh_read(&l, cpu, &c, &st), 0.5 * US, 1e-15);
	assert_int_equal(st.transfers, 6);
}

static void test_upgrade_and_exclusive(void **state)
{
	(void)state;
	struct machine_costs c = costs();
	struct coh_line l = { 0 };
	struct coh_stats st = { 0 };
	coh_read(&l, 2, &c, &st);
	assert_float_equal(coh_write(&l, 2, &c, &st), 0, 0);   /* alone and clean: no transaction */
	coh_read(&l, 1, &c, &st);
	assert_float_equal(coh_write(&l, 2, &c, &st), 0.5 * US, 1e-15);   /* upgrade */
	assert_int_equal(st.upgrades, 1);
	assert_int_equal(st.invalidations, 1);
}

static void test_distance(void **state)
{
	(void)state;
	struct machine_costs c = costs();
	struct coh_line l = { 0 };
	struct coh_stats st = { 0 };
	coh_write(&l, 1, &c, &st);
	assert_float_equal(coh_read(&l, 5, &c, &st), 1.0 * US, 1e-15);   /* across the link */
	/* cpu 6 (bus 1) gets it from cpu 5 on its own bus */
	assert_float_equal(coh_read(&l, 6, &c, &st), 0.5 * US, 1e-15);
	assert_float_equal(coh_write(&l, 2, &c, &st), 0.5 * US, 1e-15);   /* from cpu 1, bus 0 */
	assert_int_equal(st.invalidations, 3);
	assert_float_equal(st.transfer_s, 0.2 * US + 1.0 * US + 0.5 * US + 0.5 * US, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alternating_writers),
		cmocka_unit_test(test_readers_share),
		cmocka_unit_test(test_write_after_three_readers),
		cmocka_unit_test(test_upgrade_and_exclusive),
		cmocka_unit_test(test_distance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
