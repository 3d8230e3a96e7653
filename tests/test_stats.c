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
 * The t quantile, the paired t-test, confidence intervals of a difference and
 * TOST against hand computations (each test's comment), with a crafted pair of
 * samples where the paired test finds a difference Welch's test cannot.
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

/*
 * The t quantile against closed forms: df = 1 is Cauchy, t = tan(pi (p - 1/2));
 * df = 3 at 97.5% is the tabulated 3.182446305284263.
 */
static void t_quantile(void **state)
{
	(void)state;
	NEAR(stats_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-9);
	NEAR(stats_t_quantile(0.9, 1), tan(M_PI * 0.4), 1e-9);
	NEAR(stats_t_quantile(0.975, 3), 3.182446305284263, 1e-9);
	NEAR(stats_t_quantile(0.5, 7), 0, 1e-7);   /* the CDF is 1/2 to double precision for |t| < 1e-8 */
	NEAR(stats_t_quantile(0.025, 3), -3.182446305284263, 1e-9);
	assert_true(isnan(stats_t_quantile(1, 3)));
	assert_true(isnan(stats_t_quantile(0.5, 0)));
}

/*
 * Paired against unpaired on the same samples, by hand:
 *   a = {10, 20, 30, 40}, b = {11, 22, 31, 42}; differences a - b = {-1, -2, -1, -2}:
 *   mean -1.5, sd sqrt((4 x 0.25) / 3) = 1/sqrt(3), se = sd / 2 = 0.288675,
 *   t = -1.5 / 0.288675 = -3 sqrt(3) = -5.196152, df = 3.  For df = 3,
 *   P(|T| > |t|) = 1 - (2/pi) (u / (1 + u^2) + atan u), u = |t| / sqrt(3) = 3:
 *   p = 1 - (2/pi) (0.3 + atan 3) = 0.013846 -- the runs differ.
 *   Welch on the same numbers: var(a) = 500/3, var(b) = 521/3, se^2 = (500 + 521)
 *   / 12 = 85.083, t = -1.5 / 9.2241 = -0.16262, df = 85.083^2 / ((41.667^2 +
 *   43.417^2) / 3) = 5.9975: p = 0.876 -- they do not.  The spread between the
 *   runs (10 .. 40, shared by both kernels) hides a steady difference of 1.5 that
 *   the paired test sees.
 */
static void paired_vs_welch(void **state)
{
	(void)state;
	const double a[] = { 10, 20, 30, 40 }, b[] = { 11, 22, 31, 42 };
	struct stats_welch w, u;
	assert_int_equal(stats_paired(a, b, 4, &w), 0);
	NEAR(w.t, -3 * sqrt(3.0), 1e-12);
	NEAR(w.df, 3, 0);
	NEAR(w.p, 1 - 2 / M_PI * (0.3 + atan(3.0)), 1e-10);
	assert_int_equal(stats_welch(a, 4, b, 4, &u), 0);
	NEAR(u.t, -1.5 / sqrt(1021.0 / 12), 1e-12);
	NEAR(u.df, (1021.0 / 12) * (1021.0 / 12) / ((500.0 / 12) * (500.0 / 12) / 3 + (521.0 / 12) * (521.0 / 12) / 3),
	     1e-9);
	assert_true(u.p > 0.87 && u.p < 0.88);
	assert_true(w.p < 0.05 && u.p > 0.05);   /* the two tests disagree */
	/* all differences equal */
	const double c[] = { 1, 2, 3 }, d[] = { 2, 3, 4 };
	assert_int_equal(stats_paired(c, d, 3, &w), 0);
	assert_true(w.p == 0 && isinf(w.t) && w.t < 0);
	assert_int_equal(stats_paired(c, c, 3, &w), 0);
	assert_true(w.p == 1 && w.t == 0);
	assert_int_equal(stats_paired(c, d, 1, &w), -1);
}

/*
 * Intervals of k - b and k/b - 1, paired and not (k = b above, b = a above):
 *   paired difference: 1.5 -+ 3.182446 x 0.288675 = [0.581307, 2.418693];
 *   unpaired: se 9.2241, df 5.9975: the interval holds 0.
 *   Ratio, b = {100, 200}, k = {110, 220}: R = 1.1, k - R b = {0, 0}: paired se 0,
 *   interval [0.1, 0.1]; unpaired: se = sqrt(sd_k^2/2 + R^2 sd_b^2/2) / 150 =
 *   sqrt(2 x 1.21 x 5000 / 2) / 150 = 0.51854, df = 2 (equal terms): wide.
 */
static void diff_ci(void **state)
{
	(void)state;
	const double a[] = { 10, 20, 30, 40 }, b[] = { 11, 22, 31, 42 };
	struct stats_ci ci;
	assert_int_equal(stats_diff_ci(a, 4, b, 4, 0, 1, 0.95, &ci), 0);
	NEAR(ci.est, 1.5, 1e-12);
	NEAR(ci.se, 1 / sqrt(12.0), 1e-12);
	NEAR(ci.df, 3, 0);
	NEAR(ci.lo, 1.5 - 3.182446305284263 / sqrt(12.0), 1e-8);
	NEAR(ci.hi, 1.5 + 3.182446305284263 / sqrt(12.0), 1e-8);
	assert_int_equal(ci.paired, 1);
	assert_int_equal(stats_diff_ci(a, 4, b, 4, 0, 0, 0.95, &ci), 0);
	NEAR(ci.se, sqrt(1021.0 / 12), 1e-9);
	assert_true(ci.lo < 0 && ci.hi > 0);
	const double rb[] = { 100, 200 }, rk[] = { 110, 220 };
	assert_int_equal(stats_diff_ci(rb, 2, rk, 2, 1, 1, 0.95, &ci), 0);
	NEAR(ci.est, 0.1, 1e-12);
	NEAR(ci.lo, 0.1, 1e-12);
	NEAR(ci.hi, 0.1, 1e-12);
	assert_int_equal(stats_diff_ci(rb, 2, rk, 2, 1, 0, 0.95, &ci), 0);
	NEAR(ci.se, sqrt(1.21 * 5000) / 150, 1e-12);
	NEAR(ci.df, 2, 1e-12);
	assert_true(ci.lo < 0);
	assert_int_equal(stats_diff_ci(rb, 1, rk, 2, 0, 0, 0.95, &ci), -1);
	assert_int_equal(stats_diff_ci(rb, 2, rk, 1, 0, 1, 0.95, &ci), -1);
	const double z[] = { 0, 0 };
	assert_int_equal(stats_diff_ci(z, 2, rk, 2, 1, 0, 0.95, &ci), -1);
}

/*
 * TOST: est 0, se 1/sqrt(30000) (= 0.005774, test_reproduce.c's flat case), df 3,
 * margin 0.01: t = 0.01 sqrt(30000) = sqrt(3); P(T3 > sqrt 3) = 1/4 - 1/(2 pi) = 0.0908451
 * (u = 1: (1/pi)(1/2 + pi/4) above 1/2).  Margin 0.05: t = 5 sqrt 3 = 8.660,
 * p = 1/2 - (1/pi)(5/26 + atan 5) = 0.0016.
 */
static void tost(void **state)
{
	(void)state;
	struct stats_ci ci = { .est = 0, .se = 1 / sqrt(30000.0), .df = 3 };
	NEAR(stats_tost(&ci, 0.01), 0.25 - 1 / (2 * M_PI), 1e-10);
	NEAR(stats_tost(&ci, 0.05), 0.5 - (5.0 / 26 + atan(5.0)) / M_PI, 1e-10);
	ci.est = 0.02;   /* beyond the margin: the upper test fails */
	assert_true(stats_tost(&ci, 0.01) > 0.5);
	ci.se = 0;
	assert_true(stats_tost(&ci, 0.05) == 0 && stats_tost(&ci, 0.01) == 1);
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
		cmocka_unit_test(t_quantile),
		cmocka_unit_test(paired_vs_welch),
		cmocka_unit_test(diff_ci),
		cmocka_unit_test(tost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
