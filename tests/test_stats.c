/*
 * test_stats.c - emu/analysis/stats.c against hand-computed and published values.
 *
 * Descriptive statistics on {1, 2, 3, 4} are exact fractions; the t CDF is checked
 * against the closed forms for 1, 2 and 4 degrees of freedom and the tabulated
 * 97.5% quantile for 10; Welch's test against the two worked examples of the
 * Wikipedia article "Welch's t-test" (t, df and p; p computed independently by
 * Simpson integration of the t density to 1e-12) and a df = 2 case whose p is
 * exactly 1 - 3/sqrt(13).  mmtests' percent convention in both directions.
 * The noise rule: sigma of a one-run difference (absolute and relative), a
 * published difference inside and outside 2 sigma, exactly on the band, the
 * published-runs divisor, and the cases that cannot be judged (one run, NAN).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu/analysis/stats.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void descriptive(void **state)
{
	const double x[] = { 1, 2, 3, 4 };
	NEAR(stats_min(x, 4), 1, 0);
	NEAR(stats_max(x, 4), 4, 0);
	NEAR(stats_amean(x, 4), 2.5, 1e-15);
	NEAR(stats_hmean(x, 4), 48.0 / 25.0, 1e-15);           /* 4 / (25/12) */
	NEAR(stats_stddev(x, 4), sqrt(5.0 / 3.0), 1e-15);      /* sum sq dev 5, n-1 = 3 */
	NEAR(stats_coeffvar(x, 4), 100 * sqrt(5.0 / 3.0) / 2.5, 1e-12);
	const double one[] = { 7 };
	NEAR(stats_stddev(one, 1), 0, 0);
	NEAR(stats_coeffvar(one, 1), 0, 0);
	const double withzero[] = { 0, 1 };
	assert_true(isnan(stats_hmean(withzero, 2)));
	assert_true(isnan(stats_amean(x, 0)));
}

static void summary(void **state)
{
	(void)state;
	const double x[] = { 4, 1, 3, 2 };
	struct stats_summary s;
	assert_int_equal(stats_summarize(x, 4, &s), 0);
	assert_int_equal(s.n, 4);
	NEAR(s.mean, 2.5, 1e-15);
	NEAR(s.sd, sqrt(5.0 / 3.0), 1e-15);
	NEAR(s.min, 1, 0);
	NEAR(s.max, 4, 0);
	assert_int_equal(stats_summarize(x, 0, &s), -1);
	assert_true(isnan(s.mean) && isnan(s.sd));
}

static void noise_rule(void **state)
{
	(void)state;
	/* b: mean 100, sd 3; k: mean 110, sd 4 */
	struct stats_summary b = { 5, 100, 3, 96, 104 }, k = { 5, 110, 4, 105, 115 };
	NEAR(stats_noise_sigma(&b, &k, 0, 1), 5, 1e-12);                 /* sqrt(9 + 16) */
	NEAR(stats_noise_sigma(&b, &k, 0, 4), 2.5, 1e-12);               /* / sqrt(4) */
	NEAR(stats_noise_sigma(&b, &k, 1, 1), sqrt(0.03 * 0.03 + (4.0 / 110) * (4.0 / 110)), 1e-15);
	/* inside: |d| <= 2 sigma, on the band included; outside beyond it */
	assert_int_equal(stats_inside_noise(9.9, 5), 1);
	assert_int_equal(stats_inside_noise(-10, 5), 1);
	assert_int_equal(stats_inside_noise(10.01, 5), 0);
	assert_int_equal(stats_inside_noise(-12, 5), 0);
	/* no emulated noise: only a zero difference is inside */
	assert_int_equal(stats_inside_noise(0, 0), 1);
	assert_int_equal(stats_inside_noise(0.001, 0), 0);
	/* cannot judge: a single run, a zero mean for a ratio, no published value */
	struct stats_summary one = { 1, 100, 0, 100, 100 }, zero = { 3, 0, 1, -1, 1 };
	assert_true(isnan(stats_noise_sigma(&one, &k, 0, 1)));
	assert_true(isnan(stats_noise_sigma(&b, &one, 1, 1)));
	assert_true(isnan(stats_noise_sigma(&zero, &k, 1, 1)));
	NEAR(stats_noise_sigma(&zero, &k, 0, 1), sqrt(17.0), 1e-12);
	assert_true(isnan(stats_noise_sigma(&b, &k, 0, 0)));
	assert_int_equal(stats_inside_noise(1, NAN), -1);
	assert_int_equal(stats_inside_noise(NAN, 1), -1);
	assert_int_equal(stats_inside_noise(INFINITY, 1), -1);
}

static void t_cdf(void **state)
{
	for (double t = -6; t <= 6; t += 0.25) {
		NEAR(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		NEAR(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
		double u = 1 + t * t / 4;
		NEAR(stats_t_cdf(t, 4), 0.5 + 0.375 * (t / sqrt(u)) * (1 - t * t / (12 * u)), 1e-12);
	}
	NEAR(stats_t_cdf(2.228138852, 10), 0.975, 1e-9);
	NEAR(stats_t_cdf(-2.228138852, 10), 0.025, 1e-9);
	NEAR(stats_t_cdf(1.5, 7.3), 0.9122184535984632, 1e-10);   /* non-integer df */
	NEAR(stats_t_cdf(0, 3), 0.5, 1e-15);
	NEAR(stats_betai(2, 3, 0.4), 0.5248, 1e-12);              /* I_.4(2,3) = 1 - .6^4 - 4*.4*.6^3 */
	assert_true(isnan(stats_t_cdf(1, 0)));
}

static void welch(void **state)
{
	const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct stats_welch w;
	assert_int_equal(stats_welch(a1, 15, a2, 15, &w), 0);
	NEAR(w.t, -2.45535639828601, 1e-9);
	NEAR(w.df, 24.98852929023142, 1e-9);
	NEAR(w.p, 0.02137800146286184, 1e-9);
	assert_int_equal(stats_significant(a1, 15, a2, 15, 0.95), 1);
	assert_int_equal(stats_significant(a1, 15, a2, 15, 0.99), 0);

	const double b1[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8 };
	const double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8,
			      20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8 };
	assert_int_equal(stats_welch(b1, 10, b2, 20, &w), 0);
	NEAR(w.t, -1.5654335235985073, 1e-9);
	NEAR(w.df, 9.904741248650831, 1e-9);
	NEAR(w.p, 0.14884169660532554, 1e-9);
	assert_int_equal(stats_significant(b1, 10, b2, 20, 0.95), 0);

	/* equal variances, n = 2 each: df = 2 exactly, t = -3/sqrt(2), p = 1 - 3/sqrt(13) */
	const double c1[] = { 1, 3 }, c2[] = { 4, 6 };
	assert_int_equal(stats_welch(c1, 2, c2, 2, &w), 0);
	NEAR(w.df, 2, 1e-12);
	NEAR(w.t, -3 / sqrt(2), 1e-12);
	NEAR(w.p, 1 - 3 / sqrt(13), 1e-12);

	/* fewer than two runs: no test, never significant */
	assert_int_equal(stats_welch(c1, 1, c2, 2, &w), -1);
	assert_int_equal(stats_significant(c1, 1, c2, 2, 0.95), 0);
	/* zero variance on both sides */
	const double z1[] = { 5, 5, 5 }, z2[] = { 6, 6, 6 };
	assert_int_equal(stats_welch(z1, 3, z2, 3, &w), 0);
	NEAR(w.p, 0, 0);
	assert_int_equal(stats_significant(z1, 3, z1, 3, 0.95), 0);
	assert_int_equal(stats_significant(z1, 3, z2, 3, 0.95), 1);
}

static void pct_better(void **state)
{
	/* higher is better: new/base - 1 */
	NEAR(stats_pct_better(100, 110, 1), 10, 1e-12);
	NEAR(stats_pct_better(100, 90, 1), -10, 1e-12);
	/* lower is better: 1 - new/base, so positive still means better */
	NEAR(stats_pct_better(100, 90, 0), 10, 1e-12);
	NEAR(stats_pct_better(100, 110, 0), -10, 1e-12);
	/* the mmtests example: Hmean 32419.12 -> 24696.23 is -23.82% */
	NEAR(stats_pct_better(32419.12, 24696.23, 1), -23.82, 0.005);
	NEAR(stats_pct_better(0, 0, 1), 0, 0);
	assert_true(isnan(stats_pct_better(0, 1, 1)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(descriptive),
		cmocka_unit_test(summary),
		cmocka_unit_test(noise_rule),
		cmocka_unit_test(t_cdf),
		cmocka_unit_test(welch),
		cmocka_unit_test(pct_better),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
