/*
 * claims_table.c - the claim kinds of the single-table published form: one
 * "table" of a sweep key (point_key) by kernel columns, one metric (claims.h).
 *
 * Design: one evaluator per kind, each judging the current group's runs at the
 * claim's points ("points": a list, or "all"/absent for every published row),
 * three-valued (claims.h):
 *   direction      the 95% interval of the kernel's change against the baseline
 *                  on the claimed side of 0 at every point
 *   shape          a kernel flat over flat_points, then dropping at drop_point:
 *                  on the means, and in how many runs on their own
 *   value          a metric of given kernels inside [lo, hi] (e.g. a residency),
 *                  run by run
 *   relative       the 95% interval of kernel/baseline - 1 inside expect_range
 *                  (at every point; with "any" at one point at least)
 *   series-varies  a time series changes at least min_changes times, run by run
 * Per-run checks are reproduced when every run passes, not reproduced when none
 * does, inconclusive otherwise.  Two-kernel kinds also record the noise of each
 * comparison (noise.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/claims.h"
#include "emu/analysis/published.h"

json_t *claim_table_cell(const struct claim_ctx *c, const char *kernel, json_t *pt)
{
	double p = NAN, e = NAN;
	int hp = published_cell(c->pub, kernel, pt, &p) == 0;
	int he = emulated_mean(c, kernel, pt, c->metric, &e) == 0;
	json_t *o = json_pack("{s:s,s:O}", "kernel", kernel, "point", pt);
	json_object_set_new(o, "published", hp ? report_num(p) : json_null());
	json_object_set_new(o, "emulated", he ? report_num(e) : json_null());
	json_object_set_new(o, "rel_err", hp && he && p != 0 ? report_num(e / p - 1) : json_null());
	json_object_set_new(o, "runs", emulated_runs_json(c, kernel, pt, c->metric));
	return o;
}

json_t *claim_points(const struct claim_ctx *c, json_t *claim, const char *key)
{
	json_t *pts = json_object_get(claim, key);
	if (json_is_array(pts))
		return json_incref(pts);
	json_t *all = json_array();
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(json_object_get(c->pub, "table"), "rows"), i, row)
		json_array_append(all, json_object_get(row, "point"));
	return all;
}

/* The change from @base to @v in percent, positive = better. */
static double better_pct(const struct claim_ctx *c, double base, double v)
{
	return 100.0 * (c->higher ? v / base - 1 : 1 - v / base);
}

void claim_direction(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	const char *ex = json_string_value(json_object_get(cl, "expect"));
	if (!b || !k || !ex || (strcmp(ex, "better") && strcmp(ex, "worse")))
		return verdict_not_checked(vd, "claim lacks baseline, kernel or expect (better|worse)");
	int want_better = strcmp(ex, "better") == 0, all = CLAIM_YES;
	json_t *pts = claim_points(c, cl, "points");
	size_t i;
	json_t *pt;
	json_array_foreach(pts, i, pt) {
		double eb, ek, pb, pk;
		if (emulated_mean(c, b, pt, c->metric, &eb) || emulated_mean(c, k, pt, c->metric, &ek) || eb == 0) {
			char *s = report_json_text(pt), why[300];
			snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", c->metric, b, k, s);
			free(s);
			json_decref(pts);
			return verdict_not_checked(vd, why);
		}
		double d = better_pct(c, eb, ek);
		/* the interval of the change in percent, positive = better */
		struct stats_ci ci;
		int o = CLAIM_UNSURE, hci = emulated_diff_ci(c, b, k, pt, c->metric, 1, CLAIM_LEVEL, &ci) == 0;
		char cit[96] = "fewer than two runs: no interval";
		if (hci) {
			double lo = 100 * (c->higher ? ci.lo : -ci.hi), hi = 100 * (c->higher ? ci.hi : -ci.lo);
			if (want_better)
				o = lo > 0 ? CLAIM_YES : hi <= 0 ? CLAIM_NO : CLAIM_UNSURE;
			else
				o = hi < 0 ? CLAIM_YES : lo >= 0 ? CLAIM_NO : CLAIM_UNSURE;
			if (lo == hi)
				claim_ci_text(cit, sizeof cit, &ci, CLAIM_LEVEL, 1);
			else
				snprintf(cit, sizeof cit, "%.0f%% CI %+.1f%% .. %+.1f%%", 100 * CLAIM_LEVEL, lo, hi);
		}
		all = o < all ? o : all;
		char *s = report_json_text(pt);
		VERDICT_DETAIL(vd, "%s%s: %s %+.1f%% vs %s (%s)", i ? "; " : "", s, k, d, b, cit);
		double pd = NAN;
		if (published_cell(c->pub, b, pt, &pb) == 0 && published_cell(c->pub, k, pt, &pk) == 0 && pb != 0) {
			VERDICT_DETAIL(vd, " (published %+.1f%%)", better_pct(c, pb, pk));
			pd = pk / pb - 1;
		}
		VERDICT_DETAIL(vd, "%s", claim_outcome_tag(o, " [wrong direction]"));
		json_t *cb = claim_table_cell(c, b, pt), *ck = claim_table_cell(c, k, pt);
		json_object_set_new(ck, "ci", hci ? emulated_ci_json(&ci, CLAIM_LEVEL) : json_null());
		json_object_set_new(ck, "outcome", json_string(claim_outcome_name(o)));
		json_object_set_new(ck, "noise", noise_compare(c, &vd->nz, s, b, k, pt, c->metric, 1, pd));
		free(s);
		json_array_append_new(vd->cells, cb);
		json_array_append_new(vd->cells, ck);
	}
	json_decref(pts);
	vd->v = claim_outcome_name(all);
}

/*
 * The shape of @nf flat values @v and the drop value *@drop (NULL: none): the
 * spread (max - min)/|max| of the flat values and the drop 1 - *@drop/mean(@v)
 * (NAN when there is none or the mean is 0).
 * Returns: 1 when spread <= @tol and drop >= @at_least (for the parts present).
 */
static int shape_holds(const double *v, size_t nf, const double *drop, double tol, double at_least,
		       double *spread, double *dr)
{
	double mn = INFINITY, mx = -INFINITY, sum = 0;
	for (size_t i = 0; i < nf; i++) {
		mn = mn < v[i] ? mn : v[i];
		mx = mx > v[i] ? mx : v[i];
		sum += v[i];
	}
	*spread = nf && mx != 0 ? (mx - mn) / fabs(mx) : 0;
	*dr = drop && nf && sum != 0 ? 1 - *drop / (sum / (double)nf) : NAN;
	return (!nf || *spread <= tol + 1e-12) && (!drop || *dr >= at_least - 1e-12);
}

/* How many runs show the shape on their own (run r at every point): *@yes of the returned count. */
static size_t shape_runs(const struct claim_ctx *c, const char *k, json_t *flat, json_t *drop, double tol,
			 double at_least, size_t *yes)
{
	size_t nf = json_array_size(flat), np = nf + (drop ? 1 : 0), nr = SIZE_MAX;
	double **x = calloc(np, sizeof *x), *v = calloc(np, sizeof *v);
	for (size_t p = 0; p < np; p++) {
		size_t n = emulated_samples(c, k, p < nf ? json_array_get(flat, p) : drop, c->metric, &x[p]);
		nr = n < nr ? n : nr;
	}
	*yes = 0;
	for (size_t r = 0; r < nr; r++) {
		double spread, dr;
		for (size_t p = 0; p < np; p++)
			v[p] = x[p][r];
		*yes += (size_t)shape_holds(v, nf, drop ? &v[nf] : NULL, tol, at_least, &spread, &dr);
	}
	for (size_t p = 0; p < np; p++)
		free(x[p]);
	free(x);
	free(v);
	return nr;
}

void claim_shape(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	json_t *flat = json_object_get(cl, "flat_points"), *drop = json_object_get(cl, "drop_point");
	if (!k || (!json_is_array(flat) && !drop))
		return verdict_not_checked(vd, "claim lacks kernel and flat_points/drop_point");
	double tol = json_number_value(json_object_get(cl, "flat_tolerance"));
	double at_least = json_number_value(json_object_get(cl, "drop_at_least"));
	size_t i, nf = json_array_size(flat);
	double *ev = calloc(nf + 1, sizeof *ev), *pv = calloc(nf + 1, sizeof *pv);
	int pub_ok = 1;
	json_t *pt;
	json_array_foreach(flat, i, pt) {
		if (emulated_mean(c, k, pt, c->metric, &ev[i])) {
			char *s = report_json_text(pt), why[300];
			snprintf(why, sizeof why, "no emulated %s for %s at %s", c->metric, k, s);
			free(s);
			free(ev);
			free(pv);
			return verdict_not_checked(vd, why);
		}
		pub_ok &= published_cell(c->pub, k, pt, &pv[i]) == 0;
		json_array_append_new(vd->cells, claim_table_cell(c, k, pt));
	}
	double spread, dr, pspread, pdr;
	int hd = drop && emulated_mean(c, k, drop, c->metric, &ev[nf]) == 0;
	int pub_drop = hd && published_cell(c->pub, k, drop, &pv[nf]) == 0;
	int ok = shape_holds(ev, nf, drop ? &ev[nf] : NULL, tol, at_least, &spread, &dr);
	shape_holds(pv, nf, pub_drop ? &pv[nf] : NULL, tol, at_least, &pspread, &pdr);
	if (drop && (!hd || !isfinite(dr))) {
		free(ev);
		free(pv);
		return verdict_not_checked(vd, "no emulated value at the drop point (or no flat points to drop from)");
	}
	if (nf) {
		VERDICT_DETAIL(vd, "%s flat: spread %.1f%% (need <= %.1f%%)", k, 100 * spread, 100 * tol);
		if (pub_ok)
			VERDICT_DETAIL(vd, " (published %.1f%%)", 100 * pspread);
	}
	if (drop) {
		char *s = report_json_text(drop);
		VERDICT_DETAIL(vd, "%sdrop at %s: %.1f%% below the flat mean (need >= %.1f%%)", nf ? "; " : "", s,
			       100 * dr, 100 * at_least);
		free(s);
		if (pub_ok && pub_drop && isfinite(pdr))
			VERDICT_DETAIL(vd, " (published %.1f%%)", 100 * pdr);
		json_array_append_new(vd->cells, claim_table_cell(c, k, drop));
	}
	size_t yes, nr = shape_runs(c, k, flat, drop, tol, at_least, &yes);
	int o = ok ? (yes == nr ? CLAIM_YES : CLAIM_UNSURE) : (yes == 0 ? CLAIM_NO : CLAIM_UNSURE);
	VERDICT_DETAIL(vd, "; %zu of %zu runs show the shape on their own%s", yes, nr, o == CLAIM_UNSURE ? " [inconclusive]" : "");
	free(ev);
	free(pv);
	vd->v = claim_outcome_name(o);
}

void claim_value(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *ex = json_object_get(cl, "expect");
	if (!metric)
		metric = c->metric;
	if (!json_is_object(ex))
		return verdict_not_checked(vd, "claim lacks expect {kernel: [lo, hi]}");
	json_t *pts = claim_points(c, cl, "points");
	int all = CLAIM_YES, first = 1;
	const char *k;
	json_t *range;
	json_object_foreach(ex, k, range) {
		double lo = json_number_value(json_array_get(range, 0));
		double hi = json_number_value(json_array_get(range, 1));
		size_t i;
		json_t *pt;
		json_array_foreach(pts, i, pt) {
			double v, *x;
			char *s = report_json_text(pt);
			if (emulated_mean(c, k, pt, metric, &v)) {
				char why[300];
				snprintf(why, sizeof why, "no emulated %s for %s at %s", metric, k, s);
				free(s);
				json_decref(pts);
				return verdict_not_checked(vd, why);
			}
			/* every run judged on its own: the claim holds where all runs agree */
			size_t n = emulated_samples(c, k, pt, metric, &x), yes = 0;
			for (size_t r = 0; r < n; r++)
				yes += x[r] >= lo - 1e-9 && x[r] <= hi + 1e-9;
			free(x);
			int o = claim_support_outcome(yes, n);
			all = o < all ? o : all;
			VERDICT_DETAIL(vd, "%s%s %s at %s = %.4g (need [%g, %g]; %zu of %zu runs)%s", first ? "" : "; ", k,
				       metric, s, v, lo, hi, yes, n, claim_outcome_tag(o, " [out of range]"));
			first = 0;
			json_array_append_new(vd->cells,
					      json_pack("{s:s,s:O,s:s,s:o,s:[f,f],s:o,s:I,s:s}", "kernel", k, "point",
							pt, "metric", metric, "emulated", report_num(v), "expect", lo,
							hi, "runs", emulated_runs_json(c, k, pt, metric), "runs_in_range",
							(json_int_t)yes, "outcome", claim_outcome_name(o)));
			free(s);
		}
	}
	json_decref(pts);
	vd->v = claim_outcome_name(all);
}

/*
 * One kernel of a relative claim against @b at every point of @pts into @vd,
 * folding each point's outcome into *@all (best of with @any, else worst of).
 * @tag names the kernel in the details when the claim lists several.
 * Returns: 0, or -1 when a point lacks runs (@vd is then not checked).
 */
static int relative_kernel(const struct claim_ctx *c, json_t *pts, const char *metric, const char *b,
			   const char *k, double lo, double hi, int any, int tag, int *all, struct verdict *vd)
{
	size_t i;
	json_t *pt;
	json_array_foreach(pts, i, pt) {
		double eb, ek;
		char *s = report_json_text(pt);
		if (emulated_mean(c, b, pt, metric, &eb) || emulated_mean(c, k, pt, metric, &ek) || eb == 0) {
			char why[300];
			snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", metric, b, k, s);
			free(s);
			verdict_not_checked(vd, why);
			return -1;
		}
		double r = ek / eb - 1;
		struct stats_ci ci;
		char cit[96] = "fewer than two runs: no interval";
		int o = CLAIM_UNSURE, hci = emulated_diff_ci(c, b, k, pt, metric, 1, CLAIM_LEVEL, &ci) == 0;
		if (hci) {
			o = claim_range_outcome(ci.lo, ci.hi, lo, hi);
			claim_ci_text(cit, sizeof cit, &ci, CLAIM_LEVEL, 1);
		}
		*all = any ? (o > *all ? o : *all) : (o < *all ? o : *all);
		VERDICT_DETAIL(vd, "%s%s: %s/%s - 1 = %+.1f%% (%s) (need %+.1f%% .. %+.1f%%)%s",
			       json_array_size(vd->cells) ? "; " : "", s, k, b, 100 * r, cit, 100 * lo, 100 * hi,
			       claim_outcome_tag(o, " [out of range]"));
		double pb, pk, pd = NAN;
		if (!strcmp(metric, c->metric) && published_cell(c->pub, b, pt, &pb) == 0 &&
		    published_cell(c->pub, k, pt, &pk) == 0 && pb != 0)
			pd = pk / pb - 1;
		json_t *cj = json_pack("{s:O,s:s,s:o,s:o,s:o,s:o,s:s}", "point", pt, "metric", metric, "baseline",
				       report_num(eb), "emulated", report_num(ek), "relative", report_num(r), "ci",
				       hci ? emulated_ci_json(&ci, CLAIM_LEVEL) : json_null(), "outcome",
				       claim_outcome_name(o));
		if (tag)
			json_object_set_new(cj, "kernel", json_string(k));
		json_object_set_new(cj, "noise", noise_compare(c, &vd->nz, s, b, k, pt, metric, 1, pd));
		json_array_append_new(vd->cells, cj);
		free(s);
	}
	return 0;
}

void claim_relative(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	json_t *kj = json_object_get(cl, "kernel");
	json_t *range = json_object_get(cl, "expect_range");
	/* "kernel" may list several kernels (e.g. values of a constant the thread
	 * does not give): with "any" one of them at one point reproduces it */
	size_t nk = json_is_array(kj) ? json_array_size(kj) : json_is_string(kj), j;
	for (j = 0; json_is_array(kj) && j < nk; j++)
		if (!json_is_string(json_array_get(kj, j)))
			nk = 0;
	if (!metric)
		metric = c->metric;
	if (!b || !nk || json_array_size(range) != 2)
		return verdict_not_checked(vd, "claim lacks baseline, kernel (a name or a list of names) or "
					       "expect_range [lo, hi]");
	double lo = json_number_value(json_array_get(range, 0)), hi = json_number_value(json_array_get(range, 1));
	json_t *pts = claim_points(c, cl, "points");
	/* "any": one point inside the range reproduces it (a sighting, or an end of a span) */
	int any = json_is_true(json_object_get(cl, "any")), all = any ? CLAIM_NO : CLAIM_YES, bad = 0;
	for (j = 0; j < nk && !bad; j++) {
		const char *k = json_string_value(json_is_array(kj) ? json_array_get(kj, j) : kj);
		bad = relative_kernel(c, pts, metric, b, k, lo, hi, any, json_is_array(kj), &all, vd);
	}
	json_decref(pts);
	if (!bad)
		vd->v = claim_outcome_name(all);
}

void claim_series_varies(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	const char *name = json_string_value(json_object_get(cl, "series"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	json_t *mc = json_object_get(cl, "min_changes");
	long need = json_is_integer(mc) ? (long)json_integer_value(mc) : 2;
	if (!name || !k)
		return verdict_not_checked(vd, "claim lacks series or kernel");
	json_t *pts = json_object_get(cl, "points");
	size_t i, nruns = 0, yes = 0;
	long least = -1;
	json_t *r;
	json_array_foreach(c->runs, i, r) {
		if (!emulated_run_in(c, r, k, NULL))
			continue;
		if (json_is_array(pts)) {
			size_t j;
			json_t *pt;
			int in = 0;
			json_array_foreach(pts, j, pt)
				in |= json_equal(json_object_get(json_object_get(r, "point"), c->point_key), pt);
			if (!in)
				continue;
		}
		json_t *v = json_object_get(json_object_get(json_object_get(r, "series"), name), "v");
		if (!json_is_array(v)) {
			char why[300];
			snprintf(why, sizeof why, "the emulated runs of %s have no series \"%s\"", k, name);
			return verdict_not_checked(vd, why);
		}
		long changes = 0;
		for (size_t j = 1; j < json_array_size(v); j++)
			changes += json_number_value(json_array_get(v, j)) != json_number_value(json_array_get(v, j - 1));
		if (least < 0 || changes < least)
			least = changes;
		yes += changes >= need;
		nruns++;
	}
	if (!nruns) {
		char why[300];
		snprintf(why, sizeof why, "no emulated runs of %s", k);
		return verdict_not_checked(vd, why);
	}
	int o = claim_support_outcome(yes, nruns);
	VERDICT_DETAIL(vd, "%s: series %s changes at least %ld times in %zu of %zu runs (fewest changes in a run: %ld)%s",
		       k, name, need, yes, nruns, least, claim_outcome_tag(o, ""));
	vd->v = claim_outcome_name(o);
}
