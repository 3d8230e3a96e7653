/*
 * claims_rank.c - two claim kinds of the several-tables form added for seed 003
 * (HighAlloc: which kernel gets most huge pages, and how many of them):
 *
 *   rank    `table`, `row`, `metric`, `order`: entries from the highest value to
 *           the lowest, each a kernel name (at the row's point) or an object
 *           {"kernel", "point"} (at that point: compares sweep points, e.g. the
 *           kernelcore= values of one kernel).  Each adjacent pair is judged on
 *           the 95% interval of (earlier - later) over their runs (Welch): above 0
 *           reproduced, below 0 not reproduced, else (or fewer than two runs per
 *           entry) inconclusive; the claim is the worst pair.
 *   within  `table`, `row`/`rows`, `metric`, `kernels`, `tolerance`: every run of
 *           each kernel is within tolerance (in the metric's unit, e.g. 10
 *           percentage points) of the published value: reproduced; every run
 *           of one kernel outside: not reproduced; otherwise inconclusive.
 *   value   `table`, `row`/`rows`, `metric`, `expect` {kernel: [lo, hi]}: every
 *           run of each kernel inside its range (a bound the thread states,
 *           "at most 8"; a derived metric "A-B" for a gain): reproduced; no run
 *           inside for some kernel: not reproduced; otherwise inconclusive.
 *   spread  `table`, `row`/`rows`, `metric`, `kernels`, `tolerance`: each
 *           kernel's runs spread (max - min) by at most tolerance x their mean
 *           ("fairly repeatable"): reproduced, else not reproduced; fewer than
 *           two runs: inconclusive.  With `"per_boot": true` the spread is taken
 *           within each boot (the runs of one seed and run index: a chain's
 *           back-to-back steps at the row's point, "repeatable on careful
 *           re-runs"), and the claim holds when more than half of the boots are
 *           within the tolerance, fails when more than half are not (exactly
 *           half, or no boot with two runs: inconclusive).
 *   stays   `table`, `row`, `metric`, `baseline`, `kernel`, `expect`
 *           ("higher"/"lower"): "stays better on careful re-runs".  Boots are
 *           paired by seed and run index (the same draws).  A pair holds when
 *           the mean of the kernel's back-to-back runs at the row's point is on
 *           the expected side of the baseline's (a careful re-run averages its
 *           runs); the claim holds when more than half the pairs hold, fails
 *           when more than half do not (else inconclusive).  The detail also
 *           counts the pairs where every run is on the expected side of the
 *           baseline run at the same place (the stricter reading).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/claims.h"
#include "emu/analysis/published.h"

/* The row named "row" of claim @cl's table.  Returns: the row, or NULL with @vd
 * "not checked". */
static json_t *one_row(const struct claim_ctx *c, json_t *cl, json_t **table, struct verdict *vd)
{
	const char *tid = json_string_value(json_object_get(cl, "table"));
	const char *want = json_string_value(json_object_get(cl, "row"));
	char why[300];
	*table = published_table(c->pub, tid);
	size_t i;
	json_t *row;
	if (*table)
		json_array_foreach(json_object_get(*table, "rows"), i, row)
			if (want && json_is_string(json_object_get(row, "test")) &&
			    !strcmp(json_string_value(json_object_get(row, "test")), want))
				return row;
	snprintf(why, sizeof why, "no row \"%s\" in published table \"%s\"", want ? want : "(none)",
		 tid ? tid : "(none)");
	verdict_not_checked(vd, why);
	return NULL;
}

const char *claim_rank_entry(json_t *e, json_t *rowpt, json_t **pt)
{
	*pt = rowpt;
	if (json_is_string(e))
		return json_string_value(e);
	if (json_is_object(json_object_get(e, "point")))
		*pt = json_object_get(e, "point");
	return json_string_value(json_object_get(e, "kernel"));
}

void claim_rows_rank(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	json_t *table, *row = one_row(c, cl, &table, vd);
	if (!row)
		return;
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *order = json_object_get(cl, "order"), *rowpt = json_object_get(row, "point");
	if (!metric || json_array_size(order) < 2)
		return verdict_not_checked(vd, "claim lacks metric or an order of two entries or more");
	if (!json_is_object(rowpt))
		rowpt = NULL;
	int all = CLAIM_YES;
	for (size_t i = 0; i + 1 < json_array_size(order); i++) {
		json_t *pa, *pb;
		const char *ka = claim_rank_entry(json_array_get(order, i), rowpt, &pa);
		const char *kb = claim_rank_entry(json_array_get(order, i + 1), rowpt, &pb);
		double *xa = NULL, *xb = NULL;
		size_t na = ka ? emulated_samples(c, ka, pa, metric, &xa) : 0;
		size_t nb = kb ? emulated_samples(c, kb, pb, metric, &xb) : 0;
		if (!na || !nb) {
			char why[300];
			snprintf(why, sizeof why, "no emulated %s for %s or %s", metric, ka ? ka : "?",
				 kb ? kb : "?");
			free(xa);
			free(xb);
			return verdict_not_checked(vd, why);
		}
		struct stats_ci ci;
		int hci = stats_diff_ci(xb, nb, xa, na, 0, 0, CLAIM_LEVEL, &ci) == 0;
		double ma = stats_amean(xa, na), mb = stats_amean(xb, nb);
		int o = !hci ? CLAIM_UNSURE : ci.lo > 1e-9 ? CLAIM_YES : ci.hi < -1e-9 ? CLAIM_NO : CLAIM_UNSURE;
		all = o < all ? o : all;
		char cit[96], *sa = report_json_text(pa), *sb = report_json_text(pb);
		if (hci)
			claim_ci_text(cit, sizeof cit, &ci, CLAIM_LEVEL, 0);
		else
			snprintf(cit, sizeof cit, "fewer than two runs: no interval");
		double pva, pvb;
		char pubs[96] = "-";
		if (published_row_value(table, row, ka, metric, &pva) == 0 &&
		    published_row_value(table, row, kb, metric, &pvb) == 0)
			snprintf(pubs, sizeof pubs, "%.6g > %.6g", pva, pvb);
		VERDICT_DETAIL(vd, "%s%s %s %s > %s %s: published %s, emulated %.6g vs %.6g (%s)%s", i ? "; " : "",
			       metric, ka, sa, kb, sb, pubs, ma, mb, cit, claim_outcome_tag(o, " [out of order]"));
		json_t *cell = json_pack("{s:s,s:s,s:O,s:s,s:O,s:f,s:f}", "metric", metric, "higher", ka,
					 "higher_point", pa ? pa : json_null(), "lower", kb, "lower_point",
					 pb ? pb : json_null(), "emulated_higher", ma, "emulated_lower", mb);
		json_object_set_new(cell, "ci", hci ? emulated_ci_json(&ci, CLAIM_LEVEL) : json_null());
		json_object_set_new(cell, "outcome", json_string(claim_outcome_name(o)));
		if (strcmp(pubs, "-")) {
			json_object_set_new(cell, "published_higher", json_real(pva));
			json_object_set_new(cell, "published_lower", json_real(pvb));
		}
		json_array_append_new(vd->cells, cell);
		free(sa);
		free(sb);
		free(xa);
		free(xb);
	}
	vd->v = claim_outcome_name(all);
}

void claim_rows_within(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *tid = json_string_value(json_object_get(cl, "table"));
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *table = published_table(c->pub, tid), *kernels = json_object_get(cl, "kernels");
	json_t *tol = json_object_get(cl, "tolerance"), *rows = json_object_get(cl, "rows");
	if (!table || !metric || !json_array_size(kernels) || !json_is_number(tol))
		return verdict_not_checked(vd, "claim lacks table, metric, kernels or tolerance");
	json_t *want = json_is_string(json_object_get(cl, "row")) ? json_pack("[O]", json_object_get(cl, "row"))
								   : json_incref(rows);
	double m = json_number_value(tol);
	size_t n = 0, i, j, ki;
	int all = CLAIM_YES;
	json_t *row, *k;
	int first = 1;
	json_array_foreach(json_object_get(table, "rows"), i, row) {
		int picked = !json_is_array(want);
		json_t *w;
		json_array_foreach(want, j, w) picked |= json_equal(w, json_object_get(row, "test"));
		json_t *pt = json_object_get(row, "point");
		if (!picked || !json_is_object(pt))
			continue;
		json_array_foreach(kernels, ki, k) {
			const char *kn = json_string_value(k);
			double pv, *x = NULL;
			size_t nx = kn ? emulated_samples(c, kn, pt, metric, &x) : 0;
			if (!kn || published_row_value(table, row, kn, metric, &pv) || !nx) {
				free(x);
				json_decref(want);
				return verdict_not_checked(vd, "a kernel lacks its published or emulated value");
			}
			size_t in = 0;
			for (size_t r = 0; r < nx; r++)
				in += fabs(x[r] - pv) <= m + 1e-9;
			int o = claim_support_outcome(in, nx);
			all = o < all ? o : all;
			n += nx;
			double mean = stats_amean(x, nx);
			VERDICT_DETAIL(vd, "%s%s %s %s: published %.6g, emulated %.6g (%zu of %zu runs within %g)",
				       first ? "" : "; ", json_string_value(json_object_get(row, "test")) ?: "?", kn,
				       metric, pv, mean, in, nx, m);
			first = 0;
			json_t *cell = json_pack("{s:s,s:s,s:s,s:f,s:f,s:f,s:I,s:I}", "row",
						 json_string_value(json_object_get(row, "test")) ?: "?", "kernel", kn,
						 "metric", metric, "published", pv, "emulated", mean, "tolerance", m,
						 "runs_within", (json_int_t)in, "runs", (json_int_t)nx);
			json_object_set_new(cell, "outcome", json_string(claim_outcome_name(o)));
			json_array_append_new(vd->cells, cell);
			free(x);
		}
	}
	json_decref(want);
	if (!n)
		return verdict_not_checked(vd, "no row with an emulated point");
	vd->v = claim_outcome_name(all);
}

void claim_rows_value(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *tid = json_string_value(json_object_get(cl, "table"));
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *table = published_table(c->pub, tid), *ex = json_object_get(cl, "expect");
	if (!table || !metric || !json_object_size(ex))
		return verdict_not_checked(vd, "claim lacks table, metric or expect {kernel: [lo, hi]}");
	const char *missing;
	json_t *rows = claim_table_rows(table, cl, &missing), *row, *range;
	if (!rows)
		return verdict_not_checked(vd, "a row the claim names is not in its table");
	int all = CLAIM_YES, first = 1;
	size_t i;
	const char *k;
	json_array_foreach(rows, i, row) {
		json_t *pt = json_object_get(row, "point");
		json_object_foreach(ex, k, range) {
			double lo = json_number_value(json_array_get(range, 0)), hi = json_number_value(json_array_get(range, 1)), *x = NULL;
			size_t n = json_is_object(pt) ? emulated_samples(c, k, pt, metric, &x) : 0, in = 0;
			if (!n) {
				json_decref(rows);
				return verdict_not_checked(vd, "a kernel lacks its emulated runs at the row's point");
			}
			for (size_t r = 0; r < n; r++)
				in += x[r] >= lo - 1e-9 && x[r] <= hi + 1e-9;
			int o = claim_support_outcome(in, n);
			all = o < all ? o : all;
			struct stats_summary st;
			stats_summarize(x, n, &st);
			VERDICT_DETAIL(vd, "%s%s %s %s = %.4g (need [%g, %g]; %zu of %zu runs)%s", first ? "" : "; ",
				       json_string_value(json_object_get(row, "test")) ?: "?", k, metric, st.mean, lo, hi, in,
				       n, claim_outcome_tag(o, " [out of range]"));
			first = 0;
			json_array_append_new(vd->cells,
					      json_pack("{s:s,s:s,s:s,s:f,s:[f,f],s:o,s:I,s:s}", "row",
							json_string_value(json_object_get(row, "test")) ?: "?", "kernel", k,
							"metric", metric, "emulated", st.mean, "expect", lo, hi, "runs",
							emulated_summary_json(&st), "runs_in_range", (json_int_t)in,
							"outcome", claim_outcome_name(o)));
			free(x);
		}
	}
	json_decref(rows);
	vd->v = claim_outcome_name(all);
}

/* Do keys @a and @b name one boot (the same seed and run index)? */
static int same_boot(const struct report_key *a, const struct report_key *b)
{
	return a->seed == b->seed && a->run == b->run;
}

/* The per-boot spread of @n values @x with keys @kv (groups of equal seed and
 * run): into *@in and *@out, the boots within @tol and beyond it, and *@worst,
 * the largest spread.  Boots with one value count in neither. */
static void boot_spreads(const double *x, const struct report_key *kv, size_t n, double tol, int *in, int *out,
			 double *worst)
{
	*in = *out = 0;
	*worst = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j, m = 0;
		for (j = 0; j < i; j++)
			if (same_boot(&kv[j], &kv[i]))
				break;
		if (j < i)
			continue;   /* this boot was measured at its first value */
		double mn = INFINITY, mx = -INFINITY, sum = 0;
		for (j = i; j < n; j++)
			if (same_boot(&kv[j], &kv[i])) {
				mn = fmin(mn, x[j]);
				mx = fmax(mx, x[j]);
				sum += x[j];
				m++;
			}
		if (m < 2)
			continue;
		double rel = sum != 0 ? (mx - mn) / (sum / (double)m) : INFINITY;
		*worst = fmax(*worst, rel);
		if (rel <= tol + 1e-12)
			(*in)++;
		else
			(*out)++;
	}
}

/* The per_boot form of claim_rows_spread for kernel @k at row @row's point @pt.
 * Returns: the claim outcome, or -2 when the kernel has no keyed runs there. */
static int spread_per_boot(const struct claim_ctx *c, json_t *row, json_t *pt, const char *k, const char *metric,
			   double tol, int first, struct verdict *vd)
{
	double *x = NULL;
	struct report_key *kv = NULL;
	size_t n = emulated_keyed_samples(c, k, pt, metric, &x, &kv);
	if (!n || !kv) {
		free(x);
		free(kv);
		return -2;
	}
	int in, out;
	double worst;
	boot_spreads(x, kv, n, tol, &in, &out, &worst);
	int o = 2 * in > in + out ? CLAIM_YES : 2 * out > in + out ? CLAIM_NO : CLAIM_UNSURE;
	VERDICT_DETAIL(vd, "%s%s %s %s: %d of %d boots' back-to-back runs within %g%% of their mean (worst %.2f%%)%s",
		       first ? "" : "; ", json_string_value(json_object_get(row, "test")) ?: "?", k, metric, in,
		       in + out, 100 * tol, 100 * worst, claim_outcome_tag(o, " [too spread]"));
	free(x);
	free(kv);
	return o;
}

void claim_rows_spread(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	json_t *table = published_table(c->pub, json_string_value(json_object_get(cl, "table")));
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *kernels = json_object_get(cl, "kernels"), *tol = json_object_get(cl, "tolerance"), *row, *k;
	const char *missing;
	json_t *rows = table && metric && json_array_size(kernels) && json_is_number(tol)
			       ? claim_table_rows(table, cl, &missing)
			       : NULL;
	if (!rows)
		return verdict_not_checked(vd, "claim lacks table, rows, metric, kernels or tolerance");
	int all = CLAIM_YES, first = 1;
	size_t i, ki;
	json_array_foreach(rows, i, row) {
		json_t *pt = json_object_get(row, "point");
		json_array_foreach(kernels, ki, k) {
			if (json_is_true(json_object_get(cl, "per_boot"))) {
				int o = json_is_object(pt) ? spread_per_boot(c, row, pt, json_string_value(k), metric,
									   json_number_value(tol), first, vd)
							   : -2;
				if (o == -2) {
					json_decref(rows);
					return verdict_not_checked(vd, "a kernel lacks its emulated runs at the row's point");
				}
				all = o < all ? o : all;
				first = 0;
				continue;
			}
			double *x = NULL;
			size_t n = json_is_object(pt) ? emulated_samples(c, json_string_value(k), pt, metric, &x) : 0;
			if (!n) {
				json_decref(rows);
				return verdict_not_checked(vd, "a kernel lacks its emulated runs at the row's point");
			}
			struct stats_summary st;
			stats_summarize(x, n, &st);
			double rel = st.mean != 0 ? (st.max - st.min) / st.mean : INFINITY;
			int o = n < 2 ? CLAIM_UNSURE : rel <= json_number_value(tol) + 1e-12 ? CLAIM_YES : CLAIM_NO;
			all = o < all ? o : all;
			VERDICT_DETAIL(vd, "%s%s %s %s: %zu runs spread %.2f%% of their mean (need <= %g%%)%s", first ? "" : "; ",
				       json_string_value(json_object_get(row, "test")) ?: "?", json_string_value(k), metric, n,
				       100 * rel, 100 * json_number_value(tol), claim_outcome_tag(o, " [too spread]"));
			first = 0;
			free(x);
		}
	}
	json_decref(rows);
	vd->v = claim_outcome_name(all);
}

/*
 * One boot pair of claim_rows_stays: the baseline's values @xb (keys @kb, @nb)
 * and the kernel's @xk (@kk, @nk) of the boot of kb[@i], matched in order.
 * *@strict is set when every run is on the side @sign (+1 higher, -1 lower) of
 * its match; the smallest such margin, kernel/baseline - 1 toward @sign, goes
 * into *@worst.  Returns: 1 the kernel's mean is on that side of the baseline's,
 * 0 not, -1 the pair is not judged (unequal or fewer than two runs each).
 */
static int boot_stays(const double *xb, const struct report_key *kb, size_t nb, const double *xk,
		      const struct report_key *kk, size_t nk, size_t i, int sign, int *strict, double *worst)
{
	size_t j, q = 0, m = 0;
	double sb = 0, sk = 0;
	*strict = 1;
	for (j = i; j < nb; j++) {
		if (!same_boot(&kb[j], &kb[i]))
			continue;
		while (q < nk && !same_boot(&kk[q], &kb[i]))
			q++;
		if (q == nk || xb[j] == 0)
			return -1;
		double margin = sign * (xk[q] / xb[j] - 1);
		*worst = fmin(*worst, margin);
		*strict &= margin > 0;
		sb += xb[j];
		sk += xk[q];
		q++;
		m++;
	}
	while (q < nk && !same_boot(&kk[q], &kb[i]))
		q++;
	if (q < nk || m < 2)
		return -1;
	return sign * (sk - sb) > 0;
}

void claim_rows_stays(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	json_t *table, *row = one_row(c, cl, &table, vd);
	if (!row)
		return;
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	const char *ex = json_string_value(json_object_get(cl, "expect"));
	json_t *pt = json_object_get(row, "point");
	if (!metric || !b || !k || !ex || (strcmp(ex, "higher") && strcmp(ex, "lower")) || !json_is_object(pt))
		return verdict_not_checked(vd, "claim lacks metric, baseline, kernel or expect (higher|lower), "
					       "or its row a point");
	double *xb = NULL, *xk = NULL;
	struct report_key *kb = NULL, *kk = NULL;
	size_t nb = emulated_keyed_samples(c, b, pt, metric, &xb, &kb);
	size_t nk = emulated_keyed_samples(c, k, pt, metric, &xk, &kk);
	int sign = strcmp(ex, "higher") ? -1 : 1, in = 0, out = 0, strict_in = 0;
	double worst = INFINITY;
	for (size_t i = 0; nb && nk && kb && kk && i < nb; i++) {
		size_t j;
		for (j = 0; j < i && !same_boot(&kb[j], &kb[i]); j++)
			;
		if (j < i)
			continue;   /* this boot was judged at its first value */
		int strict, r = boot_stays(xb, kb, nb, xk, kk, nk, i, sign, &strict, &worst);
		in += r == 1;
		out += r == 0;
		strict_in += r >= 0 && strict;
	}
	free(xb);
	free(xk);
	free(kb);
	free(kk);
	if (!in && !out)
		return verdict_not_checked(vd, "no pair of boots with the same number (two or more) of runs at the "
					       "row's point");
	int o = 2 * in > in + out ? CLAIM_YES : 2 * out > in + out ? CLAIM_NO : CLAIM_UNSURE;
	VERDICT_DETAIL(vd,
		       "%s %s %s vs %s: %s on average over the back-to-back runs in %d of %d boot pairs; every run %s "
		       "than the baseline's at the same place in %d (worst run %+.1f%%)%s",
		       json_string_value(json_object_get(row, "test")) ?: "?", k, metric, b, ex, in, in + out, ex,
		       strict_in, 100 * sign * worst, claim_outcome_tag(o, " [not in most boot pairs]"));
	json_array_append_new(vd->cells,
			      json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:o,s:s}", "row",
					json_string_value(json_object_get(row, "test")) ?: "?", "kernel", k, "baseline", b,
					"metric", metric, "boots_holding", in, "boots", in + out, "boots_every_run",
					strict_in, "worst_run", report_num(sign * worst), "outcome", claim_outcome_name(o)));
	vd->v = claim_outcome_name(o);
}
