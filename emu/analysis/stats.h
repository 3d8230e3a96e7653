/*
 * stats.h - descriptive statistics, Welch's and the paired t-test, confidence
 * intervals of a two-kernel difference and the equivalence test (TOST).
 *
 * Small, exact and dependency-free (no GSL): the t distribution's CDF is computed
 * from the regularized incomplete beta function (continued fraction, Lentz's
 * method) and lgamma() from libm.  Sample standard deviation uses n - 1, like
 * mmtests; CoeffVar is a percentage (100 * stddev / mean).
 */
#ifndef MMEMU_STATS_H
#define MMEMU_STATS_H

#include <stddef.h>

/** stats_min() - Returns: the smallest of @n >= 1 values (NAN if n == 0). */
double stats_min(const double *x, size_t n);
/** stats_max() - Returns: the largest of @n >= 1 values (NAN if n == 0). */
double stats_max(const double *x, size_t n);
/** stats_amean() - Returns: the arithmetic mean (NAN if n == 0). */
double stats_amean(const double *x, size_t n);
/**
 * stats_hmean() - harmonic mean, n / sum(1/x).
 * Returns: the harmonic mean; NAN if n == 0 or any value is <= 0 (undefined).
 */
double stats_hmean(const double *x, size_t n);
/** stats_stddev() - Returns: the sample standard deviation (n - 1); 0 when n < 2. */
double stats_stddev(const double *x, size_t n);
/** stats_coeffvar() - Returns: 100 * stddev / |mean|; 0 when the mean is 0. */
double stats_coeffvar(const double *x, size_t n);

/**
 * stats_betai() - regularized incomplete beta function I_x(a, b).
 * Returns: I_x(a, b) for a, b > 0 and 0 <= x <= 1, NAN otherwise.
 */
double stats_betai(double a, double b, double x);

/**
 * stats_t_cdf() - cumulative distribution function of Student's t.
 * @t: the value
 * @df: degrees of freedom (> 0, need not be an integer)
 * Returns: P(T <= t), or NAN when df <= 0.
 */
double stats_t_cdf(double t, double df);

/** struct stats_welch - the outcome of a Welch's t-test. */
struct stats_welch {
	double t;   /* (mean_a - mean_b) / sqrt(va/na + vb/nb) */
	double df;  /* Welch-Satterthwaite degrees of freedom */
	double p;   /* two-sided p-value */
};

/**
 * stats_welch() - Welch's unequal-variances t-test of samples @a and @b.
 * Both variances zero: p = 1 when the means are equal, 0 otherwise (t = +-inf).
 * Returns: 0, or -1 when a sample has fewer than two values.
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w);

/**
 * stats_t_quantile() - the inverse of stats_t_cdf(): the t with P(T <= t) = @p.
 * Returns: the quantile (bisection to 1e-12), or NAN when df <= 0 or p is not in (0, 1).
 */
double stats_t_quantile(double p, double df);

/**
 * stats_paired() - the paired t-test: one-sample t-test of the @n differences
 * b[i] - a[i] against 0 (t = mean / (sd / sqrt(n)), df = n - 1), filled into the
 * struct stats_welch layout (t's sign: positive when @a is larger, as Welch's).
 * All differences equal: p = 1 when they are 0, else 0 (t = +-inf).
 * Returns: 0, or -1 when n < 2.
 */
int stats_paired(const double *a, const double *b, size_t n, struct stats_welch *w);

/**
 * struct stats_ci - a two-kernel difference and its confidence interval.
 * @est:    kernel - baseline, or mean_k / mean_b - 1 for a relative quantity
 * @se:     its standard error
 * @df:     degrees of freedom of the t distribution used
 * @lo, @hi: the interval est -+ t(df) x se at the requested level
 * @paired: 1 when computed from paired runs, 0 for independent samples
 */
struct stats_ci {
	double est, se, df, lo, hi;
	int paired;
};

/**
 * stats_diff_ci() - confidence interval at @level (0.95) of the difference
 * between kernel runs @k and baseline runs @b: k - b, or k/b - 1 when @relative
 * (a ratio of means; its standard error by the delta method, from the
 * linearised values k - R b over mean_b, R = mean_k / mean_b).  @paired: b[i]
 * and k[i] are runs that shared their random draws (nb == nk): the standard error
 * comes from the per-run differences, df = n - 1; otherwise Welch's standard
 * error and Welch-Satterthwaite df.  A zero standard error gives lo = hi = est.
 * Returns: 0, or -1 when a side has fewer than two runs, @paired with nb != nk,
 * or a relative quantity over a zero baseline mean.
 */
int stats_diff_ci(const double *b, size_t nb, const double *k, size_t nk, int relative, int paired, double level,
		  struct stats_ci *ci);

/**
 * stats_tost() - two one-sided tests of equivalence: is the difference of @ci
 * inside (-@margin, @margin)?  The two t-tests of H0: d <= -margin and H0: d >=
 * margin with @ci's se and df; equivalence at level a when the returned p < a,
 * the same as the (1 - 2a) interval lying inside the margin.
 * Returns: the larger of the two one-sided p-values (0 or 1 when se is 0), NAN
 * when @ci's se is not finite.
 */
double stats_tost(const struct stats_ci *ci, double margin);

/**
 * stats_significant() - mmtests' significance mark: Welch's t-test at @level
 * (0.95 for 95%).
 * Returns: 1 if the means differ significantly, 0 if not or if a side has < 2 values.
 */
int stats_significant(const double *a, size_t na, const double *b, size_t nb, double level);

/**
 * stats_pct_better() - mmtests' percent change, positive = better.
 * @higher_better: 1 for higher-is-better (new/base - 1), 0 for lower (1 - new/base)
 * Returns: the change in percent; 0 when both are 0; NAN when only @base is 0.
 */
double stats_pct_better(double base, double new_value, int higher_better);

/** struct stats_summary - one sample: size, mean, spread. */
struct stats_summary {
	size_t n;
	double mean;
	double sd;     /* sample standard deviation (n - 1); 0 when n < 2 */
	double min, max;
};

/**
 * stats_summarize() - fill @s from the @n values of @x.
 * Returns: 0, or -1 when n == 0 (then @s has n = 0 and NAN fields).
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);

/*
 * The run-to-run noise rule (docs/compare.md, "Noise"): a published difference d
 * between a kernel k and a baseline b lies inside the emulated noise when
 * |d| <= STATS_NOISE_K x sigma, where sigma is the emulated standard deviation of
 * that difference between one run of each kernel (divided by sqrt(m) when the
 * published numbers are means of m runs).  K = 2 is the two-sided 95% band of a
 * normal difference.
 */
#define STATS_NOISE_K 2.0

/**
 * stats_noise_sigma() - the emulated standard deviation of a one-run comparison.
 * @b, @k: the baseline's and the kernel's emulated runs
 * @relative: 1 for the quantity k/b - 1 (delta method: sqrt((sd_b/mean_b)^2 +
 *            (sd_k/mean_k)^2)), 0 for k - b (sqrt(sd_b^2 + sd_k^2))
 * @m: runs behind each published number (>= 1; sigma / sqrt(m))
 * Returns: sigma (>= 0), or NAN when a side has fewer than two runs, or a mean is 0
 * for @relative, or m < 1.
 */
double stats_noise_sigma(const struct stats_summary *b, const struct stats_summary *k, int relative,
			 double m);

/**
 * stats_inside_noise() - the noise rule for published difference @d.
 * Returns: 1 if |d| <= STATS_NOISE_K x @sigma, 0 if not, -1 (cannot judge) when
 * @d or @sigma is not a finite number.
 */
int stats_inside_noise(double d, double sigma);

#endif
