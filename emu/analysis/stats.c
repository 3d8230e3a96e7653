/*
 * stats.c - descriptive statistics, t-tests, intervals and TOST (see stats.h).
 *
 * The incomplete beta function follows the classic continued fraction
 * (Numerical Recipes' betacf, evaluated with the modified Lentz method), using
 * the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges slowly.
 * Accuracy is ~1e-14 relative for the arguments a t-test needs.
 *
 * The noise rule (stats_noise_sigma, stats_inside_noise) answers "could the
 * emulated run-to-run variance alone have produced this published difference?"
 * It compares with the spread of a single comparison, not with the standard error
 * of the emulated means: a published table is usually one run (or a few) per
 * kernel, so its differences carry the noise of one run each.
 */
#include "emu/analysis/stats.h"

#include <math.h>

double stats_min(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

double stats_amean(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_hmean(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += 1.0 / x[i];
	}
	return (double)n / s;
}

double stats_stddev(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	double m = stats_amean(x, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

double stats_coeffvar(const double *x, size_t n)
{
	double m = stats_amean(x, n);
	if (n == 0 || m == 0)
		return 0;
	return 100.0 * stats_stddev(x, n) / fabs(m);
}

/* Continued fraction for I_x(a, b) (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 10000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	double tail = 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w)
{
	if (na < 2 || nb < 2)
		return -1;
	double ma = stats_amean(a, na), mb = stats_amean(b, nb);
	double sa = stats_stddev(a, na), sb = stats_stddev(b, nb);
	double qa = sa * sa / (double)na, qb = sb * sb / (double)nb;
	double se2 = qa + qb;
	if (se2 == 0) {
		w->df = (double)(na + nb - 2);
		if (ma == mb) {
			w->t = 0;
			w->p = 1;
		} else {
			w->t = ma > mb ? INFINITY : -INFINITY;
			w->p = 0;
		}
		return 0;
	}
	w->t = (ma - mb) / sqrt(se2);
	w->df = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	w->p = stats_betai(w->df / 2, 0.5, w->df / (w->df + w->t * w->t));
	return 0;
}

double stats_t_quantile(double p, double df)
{
	if (!(df > 0) || !(p > 0) || !(p < 1))
		return NAN;
	double lo = -1, hi = 1;
	while (stats_t_cdf(lo, df) > p)
		lo *= 2;
	while (stats_t_cdf(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int stats_paired(const double *a, const double *b, size_t n, struct stats_welch *w)
{
	if (n < 2)
		return -1;
	double md = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		md += a[i] - b[i];
	md /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (a[i] - b[i] - md) * (a[i] - b[i] - md);
	double se = sqrt(ss / (double)(n - 1) / (double)n);
	w->df = (double)(n - 1);
	if (se == 0) {
		w->t = md == 0 ? 0 : md > 0 ? INFINITY : -INFINITY;
		w->p = md == 0 ? 1 : 0;
		return 0;
	}
	w->t = md / se;
	w->p = stats_betai(w->df / 2, 0.5, w->df / (w->df + w->t * w->t));
	return 0;
}

int stats_diff_ci(const double *b, size_t nb, const double *k, size_t nk, int relative, int paired, double level,
		  struct stats_ci *ci)
{
	if (nb < 2 || nk < 2 || (paired && nb != nk))
		return -1;
	double mb = stats_amean(b, nb), mk = stats_amean(k, nk);
	if (relative && mb == 0)
		return -1;
	double r = relative ? mk / mb : 1, scale = relative ? 1 / fabs(mb) : 1;
	ci->est = relative ? r - 1 : mk - mb;
	ci->paired = paired;
	if (paired) {
		/* z_i = k_i - R b_i (R = 1 for a plain difference): mean 0 for a ratio */
		double mz = 0, ss = 0;
		for (size_t i = 0; i < nb; i++)
			mz += k[i] - r * b[i];
		mz /= (double)nb;
		for (size_t i = 0; i < nb; i++)
			ss += (k[i] - r * b[i] - mz) * (k[i] - r * b[i] - mz);
		ci->se = scale * sqrt(ss / (double)(nb - 1) / (double)nb);
		ci->df = (double)(nb - 1);
	} else {
		double sb = stats_stddev(b, nb), sk = stats_stddev(k, nk);
		double qb = r * r * sb * sb / (double)nb, qk = sk * sk / (double)nk;
		ci->se = scale * sqrt(qb + qk);
		ci->df = qb + qk > 0 ? (qb + qk) * (qb + qk) / (qb * qb / (double)(nb - 1) + qk * qk / (double)(nk - 1))
				     : (double)(nb + nk - 2);
	}
	double t = ci->se > 0 ? stats_t_quantile((1 + level) / 2, ci->df) : 0;
	ci->lo = ci->est - t * ci->se;
	ci->hi = ci->est + t * ci->se;
	return 0;
}

double stats_tost(const struct stats_ci *ci, double margin)
{
	if (!isfinite(ci->se))
		return NAN;
	if (ci->se == 0)
		return fabs(ci->est) < margin ? 0 : 1;
	double p_low = 1 - stats_t_cdf((ci->est + margin) / ci->se, ci->df);   /* H0: d <= -margin */
	double p_high = stats_t_cdf((ci->est - margin) / ci->se, ci->df);      /* H0: d >= margin */
	return p_low > p_high ? p_low : p_high;
}

int stats_significant(const double *a, size_t na, const double *b, size_t nb, double level)
{
	struct stats_welch w;
	if (stats_welch(a, na, b, nb, &w))
		return 0;
	return w.p < 1 - level;
}

double stats_pct_better(double base, double new_value, int higher_better)
{
	if (base == 0)
		return new_value == 0 ? 0 : NAN;
	return 100.0 * (higher_better ? new_value / base - 1 : 1 - new_value / base);
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	s->n = n;
	s->mean = stats_amean(x, n);
	s->sd = n ? stats_stddev(x, n) : NAN;
	s->min = stats_min(x, n);
	s->max = stats_max(x, n);
	return n ? 0 : -1;
}

double stats_noise_sigma(const struct stats_summary *b, const struct stats_summary *k, int relative,
			 double m)
{
	if (b->n < 2 || k->n < 2 || !(m >= 1))
		return NAN;
	double vb = b->sd * b->sd, vk = k->sd * k->sd;
	if (relative) {
		if (b->mean == 0 || k->mean == 0)
			return NAN;
		vb /= b->mean * b->mean;
		vk /= k->mean * k->mean;
	}
	double s = sqrt((vb + vk) / m);
	return isfinite(s) ? s : NAN;
}

int stats_inside_noise(double d, double sigma)
{
	if (!isfinite(d) || !isfinite(sigma))
		return -1;
	return fabs(d) <= STATS_NOISE_K * sigma;
}
