/*
 * tracegen.c - synthetic traces (see tracegen.h).
 *
 * Design: one deterministic stream, mm_rng_seed(seed, 0, "tracegen"), so the same
 * config always yields the same trace.  Zipf uses Hörmann & Derflinger's
 * rejection-inversion sampler (as in Apache Commons RNG): O(1) expected time and
 * no table, whatever the number of pages; rank k maps to page k-1.  Two-region
 * draws one uniform to choose the region and one for the page.  Writing formats
 * numbers by hand into a 64 KiB buffer (no printf per line).
 */
#include "workloads/tracegen.h"

#include <errno.h>
#include <math.h>
#include <string.h>

struct tracegen_cfg tracegen_defaults(void)
{
	struct tracegen_cfg c = {
		.kind = TRACEGEN_ZIPF,
		.refs = 0,
		.pages = 0,
		.alpha = 0.9,
		.hot_frac = 0.2,
		.hot_prob = 0.8,
		.seed = 1,
	};
	return c;
}

int tracegen_kind_parse(const char *name, enum tracegen_kind *out)
{
	static const char *const names[] = { "zipf", "tworegion", "loop" };
	for (int i = 0; i < 3; i++)
		if (name && strcmp(name, names[i]) == 0) {
			*out = (enum tracegen_kind)i;
			return 0;
		}
	return -1;
}

/* (exp(x) - 1) / x, accurate near 0 */
static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + x * 0.25));
}

/* log(1 + x) / x, accurate near 0 */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - x * 0.25));
}

static double zh(double s, double x)
{
	return exp(-s * log(x));
}

static double zh_integral(double s, double x)
{
	double lx = log(x);
	return helper2((1 - s) * lx) * lx;
}

static double zh_integral_inv(double s, double x)
{
	double t = x * (1 - s);
	if (t < -1)
		t = -1;
	return exp(helper1(t) * x);
}

int tracegen_init(struct tracegen *g, const struct tracegen_cfg *c, struct mm_err *e)
{
	memset(g, 0, sizeof *g);
	if (c->pages < 1 || c->pages > UINT32_MAX)
		return mm_errf(e, NULL, "--pages", "expected a number of pages in 1..%u", UINT32_MAX);
	if (c->refs < 1)
		return mm_errf(e, NULL, "--refs", "expected a number of references >= 1");
	if (!(c->alpha >= 0 && c->alpha <= 100))
		return mm_errf(e, NULL, "--alpha", "expected a zipf exponent in 0..100");
	if (!(c->hot_frac > 0 && c->hot_frac <= 1))
		return mm_errf(e, NULL, "--hot-frac", "expected a fraction in (0, 1]");
	if (!(c->hot_prob >= 0 && c->hot_prob <= 1))
		return mm_errf(e, NULL, "--hot-prob", "expected a probability in [0, 1]");
	g->c = *c;
	mm_rng_seed(&g->rng, c->seed, 0, "tracegen");
	double hot = floor(c->hot_frac * (double)c->pages + 0.5);
	g->hot = hot < 1 ? 1 : hot > (double)c->pages ? c->pages : (uint64_t)hot;
	g->s = c->alpha;
	g->hx1 = zh_integral(g->s, 1.5) - 1;
	g->hxn = zh_integral(g->s, (double)c->pages + 0.5);
	g->sdiv = 2 - zh_integral_inv(g->s, zh_integral(g->s, 2.5) - zh(g->s, 2));
	return 0;
}

static uint32_t zipf_next(struct tracegen *g)
{
	double n = (double)g->c.pages, s = g->s;
	for (;;) {
		double u = g->hxn + mm_rng_double(&g->rng) * (g->hx1 - g->hxn);
		double x = zh_integral_inv(s, u);
		double kd = floor(x + 0.5);
		if (kd < 1)
			kd = 1;
		else if (kd > n)
			kd = n;
		if (kd - x <= g->sdiv || u >= zh_integral(s, kd + 0.5) - zh(s, kd))
			return (uint32_t)(kd - 1);
	}
}

uint32_t tracegen_next(struct tracegen *g)
{
	uint64_t i = g->i++;
	switch (g->c.kind) {
	case TRACEGEN_ZIPF:
		if (g->s == 0)
			return (uint32_t)mm_rng_below(&g->rng, g->c.pages);
		return zipf_next(g);
	case TRACEGEN_TWOREGION:
		if (g->hot == g->c.pages || mm_rng_double(&g->rng) < g->c.hot_prob)
			return (uint32_t)mm_rng_below(&g->rng, g->hot);
		return (uint32_t)(g->hot + mm_rng_below(&g->rng, g->c.pages - g->hot));
	case TRACEGEN_LOOP:
		return (uint32_t)(i % g->c.pages);
	}
	return 0;
}

int tracegen_fill(const struct tracegen_cfg *c, uint32_t *out, struct mm_err *e)
{
	struct tracegen g;
	if (tracegen_init(&g, c, e) < 0)
		return -1;
	for (uint64_t i = 0; i < c->refs; i++)
		out[i] = tracegen_next(&g);
	return 0;
}

int tracegen_write(const struct tracegen_cfg *c, FILE *f, const char *name, struct mm_err *e)
{
	struct tracegen g;
	if (tracegen_init(&g, c, e) < 0)
		return -1;
	char buf[1 << 16];
	size_t n = 0;
	for (uint64_t i = 0; i < c->refs; i++) {
		if (n > sizeof buf - 16) {
			if (fwrite(buf, 1, n, f) != n)
				goto werr;
			n = 0;
		}
		char tmp[12];
		int k = 0;
		uint32_t v = tracegen_next(&g);
		do {
			tmp[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k)
			buf[n++] = tmp[--k];
		buf[n++] = '\n';
	}
	if (n && fwrite(buf, 1, n, f) != n)
		goto werr;
	if (fflush(f) != 0)
		goto werr;
	return 0;
werr:
	return mm_errf(e, name, NULL, "cannot write (%s)", strerror(errno));
}
