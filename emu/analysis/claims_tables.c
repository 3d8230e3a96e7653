/*
 * claims_tables.c - the claim kinds of the several-tables published form
 * (seed 001 on; claims.h).
 *
 * "tables": [{ "id", "metric"?, "rows": [{ "test", "point"?, "values": {column:
 * number or {metric: number}} }] }].  A claim names a table, its rows ("row",
 * "rows", or every row), a metric, a baseline and a kernel; a row with a "point"
 * (sweep key: value) is compared with the emulated runs whose point has those
 * values, the emulated value being the mean over those runs.  One evaluator per
 * kind, on a shared row walk (rows_open(), rows_select(), row_compare(),
 * row_cell()):
 *   relative    the 95% interval of kernel/baseline - 1 inside expect_range at
 *               every row (outside it at one row: not reproduced); with "any"
 *               (a sighting, not a ceiling) at one row at least
 *   flat        kernel/baseline - 1 equivalent to 0 within tolerance (TOST, 5%)
 *   difference  the 95% interval of kernel - baseline inside expect_range
 * Anything between is "inconclusive", as is a row with fewer than two runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/claims.h"
#include "emu/analysis/published.h"

/* A claim's table, kernels, metric and rows. */
struct rows {
	json_t *table;
	const char *tid, *b, *k, *metric;
	json_t *list;      /* the rows to judge (a new reference) */
};

/* One row's comparison: kernel/baseline - 1, or kernel - baseline when @diff. */
struct row_cmp {
	json_t *row, *pt;
	const char *test;
	char *s;           /* the point as text (malloc'ed) */
	double eb, ek, e;  /* emulated baseline, kernel, quantity */
	int hp;            /* the published values exist */
	double pb, pk, p;  /* published baseline, kernel, quantity */
	char pubs[128];    /* the published quantity as text, "-" when missing */
	int hci;           /* @ci exists (two runs or more per kernel) */
	struct stats_ci ci;  /* the emulated quantity's CLAIM_LEVEL interval */
	char cit[96];      /* @ci as text */
};

/* The table and the metric of claim @cl.  Returns: 0, or -1 when @vd is "not checked". */
static int rows_open(const struct claim_ctx *c, json_t *cl, struct rows *r, struct verdict *vd)
{
	char why[400];
	r->tid = json_string_value(json_object_get(cl, "table"));
	r->b = json_string_value(json_object_get(cl, "baseline"));
	r->k = json_string_value(json_object_get(cl, "kernel"));
	r->metric = json_string_value(json_object_get(cl, "metric"));
	r->list = NULL;
	r->table = published_table(c->pub, r->tid);
	if (!r->table) {
		snprintf(why, sizeof why, "no published table \"%s\"", r->tid ? r->tid : "(none)");
		verdict_not_checked(vd, why);
		return -1;
	}
	if (!r->metric)
		r->metric = json_string_value(json_object_get(r->table, "metric"));
	return 0;
}

json_t *claim_table_rows(json_t *table, json_t *cl, const char **missing)
{
	json_t *want = json_object_get(cl, "rows"), *rows = json_array();
	*missing = NULL;
	if (json_is_string(json_object_get(cl, "row")))
		want = json_pack("[O]", json_object_get(cl, "row"));
	else
		json_incref(want);
	size_t i, j;
	json_t *row, *w;
	if (!json_is_array(want)) {
		json_array_extend(rows, json_object_get(table, "rows"));
		return rows;
	}
	json_array_foreach(want, i, w) {
		json_t *found = NULL;
		json_array_foreach(json_object_get(table, "rows"), j, row)
			if (json_equal(json_object_get(row, "test"), w))
				found = row;
		if (!found) {
			*missing = json_string_value(w) ?: "?";
			json_decref(want);
			json_decref(rows);
			return NULL;
		}
		json_array_append(rows, found);
	}
	json_decref(want);
	return rows;
}

/* The rows of claim @cl (claim_table_rows()); each must name its sweep point.
 * Returns: 0, or -1 when @vd is "not checked". */
static int rows_select(json_t *cl, struct rows *r, struct verdict *vd)
{
	char why[400];
	const char *missing;
	json_t *rows = claim_table_rows(r->table, cl, &missing), *row;
	size_t i;
	if (!rows) {
		snprintf(why, sizeof why, "no row \"%s\" in published table \"%s\"", missing, r->tid);
		verdict_not_checked(vd, why);
		return -1;
	}
	json_array_foreach(rows, i, row) {
		if (!json_is_object(json_object_get(row, "point"))) {
			snprintf(why, sizeof why, "no emulated sweep point for row \"%s\" of table \"%s\"",
				 json_string_value(json_object_get(row, "test")) ?: "?", r->tid);
			json_decref(rows);
			verdict_not_checked(vd, why);
			return -1;
		}
	}
	r->list = rows;
	return 0;
}

/* The compared quantity: kernel/baseline - 1, or kernel - baseline when @diff.
 * Returns: 0, or -1 for a ratio over a zero baseline. */
static int quantity(int diff, double b, double k, double *q)
{
	if (!diff && b == 0)
		return -1;
	*q = diff ? k - b : k / b - 1;
	return 0;
}

/* Row @i of @r: emulated and published values and quantities.
 * Returns: 0 (free x->s with row_cell()), or -1 when @vd is "not checked". */
static int row_compare(const struct claim_ctx *c, struct rows *r, size_t i, int diff, struct row_cmp *x,
		       struct verdict *vd)
{
	x->row = json_array_get(r->list, i);
	x->pt = json_object_get(x->row, "point");
	x->test = json_string_value(json_object_get(x->row, "test")) ?: "?";
	x->s = report_json_text(x->pt);
	if (emulated_mean(c, r->b, x->pt, r->metric, &x->eb) || emulated_mean(c, r->k, x->pt, r->metric, &x->ek) ||
	    quantity(diff, x->eb, x->ek, &x->e)) {
		char why[400];
		snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", r->metric, r->b, r->k, x->s);
		free(x->s);
		verdict_not_checked(vd, why);
		return -1;
	}
	x->hp = published_row_value(r->table, x->row, r->b, r->metric, &x->pb) == 0 &&
		published_row_value(r->table, x->row, r->k, r->metric, &x->pk) == 0 &&
		quantity(diff, x->pb, x->pk, &x->p) == 0;
	x->hci = emulated_diff_ci(c, r->b, r->k, x->pt, r->metric, !diff, CLAIM_LEVEL, &x->ci) == 0;
	if (x->hci)
		claim_ci_text(x->cit, sizeof x->cit, &x->ci, CLAIM_LEVEL, !diff);
	else
		snprintf(x->cit, sizeof x->cit, "fewer than two runs: no interval");
	snprintf(x->pubs, sizeof x->pubs, "-");
	if (x->hp && diff)
		snprintf(x->pubs, sizeof x->pubs, "%+.4g (%.6g vs %.6g)", x->p, x->pk, x->pb);
	else if (x->hp)
		snprintf(x->pubs, sizeof x->pubs, "%+.1f%% (%.6g vs %.6g)", 100 * x->p, x->pk, x->pb);
	return 0;
}

/* Append row @x's cell (published, emulated, interval, outcome @o, noise) to @vd; frees x->s. */
static void row_cell(const struct claim_ctx *c, struct rows *r, struct row_cmp *x, int diff, int o,
		     struct verdict *vd)
{
	json_t *cellj = json_pack("{s:s,s:s,s:O,s:s,s:{s:o,s:o,s:o},s:{s:f,s:f,s:f}}", "table", r->tid, "row",
				  x->test, "point", x->pt, "metric", r->metric, "published", "baseline",
				  x->hp ? report_num(x->pb) : json_null(), "kernel",
				  x->hp ? report_num(x->pk) : json_null(), "value", x->hp ? report_num(x->p) : json_null(),
				  "emulated", "baseline", x->eb, "kernel", x->ek, "value", x->e);
	json_object_set_new(cellj, "ci", x->hci ? emulated_ci_json(&x->ci, CLAIM_LEVEL) : json_null());
	json_object_set_new(cellj, "outcome", json_string(claim_outcome_name(o)));
	char label[300];
	snprintf(label, sizeof label, "%s %s", x->test, x->s);
	struct claim_ctx tc = *c;   /* the table's published runs (reaim: means of 3) */
	tc.pub_runs = published_table_runs(c->pub, r->table);
	json_object_set_new(cellj, "noise", noise_compare(&tc, &vd->nz, label, r->b, r->k, x->pt, r->metric, !diff,
							  x->hp ? x->p : NAN));
	/* the published spread: do the kernels' published ranges overlap? */
	double bl, bh, kl, kh;
	if (published_row_spread(x->row, r->b, r->metric, &bl, &bh) == 0 &&
	    published_row_spread(x->row, r->k, r->metric, &kl, &kh) == 0) {
		int exceeds = kl > bh || kh < bl;
		json_object_set_new(cellj, "published_spread",
				    json_pack("{s:[f,f],s:[f,f],s:b}", "baseline", bl, bh, "kernel", kl, kh,
					      "difference_exceeds_spread", exceeds));
		report_str_append(&vd->nz.text, &vd->nz.len,
				  "; published spread: %s [%.6g, %.6g], %s [%.6g, %.6g]: the published difference %s it",
				  r->b, bl, bh, r->k, kl, kh, exceeds ? "exceeds" : "lies within");
	} else {
		json_object_set_new(cellj, "published_spread", json_null());
		report_str_append(&vd->nz.text, &vd->nz.len,
				  "; no published spread (mean of %g run%s): whether the published difference exceeds "
				  "the real runs' noise is unknown",
				  tc.pub_runs, tc.pub_runs == 1 ? "" : "s");
	}
	json_array_append_new(vd->cells, cellj);
	free(x->s);
}

/* "expect_range": [lo, hi] of relative and difference claims.  Returns: 0, or -1 when @vd is "not checked". */
static int expect_range(json_t *cl, const struct rows *r, double *lo, double *hi, struct verdict *vd)
{
	json_t *range = json_object_get(cl, "expect_range");
	if (!r->b || !r->k || !r->metric || json_array_size(range) != 2) {
		verdict_not_checked(vd, "claim lacks baseline, kernel, metric or expect_range [lo, hi]");
		return -1;
	}
	*lo = json_number_value(json_array_get(range, 0));
	*hi = json_number_value(json_array_get(range, 1));
	return 0;
}

void claim_rows_relative(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	struct rows r;
	double lo, hi;
	if (rows_open(c, cl, &r, vd) || expect_range(cl, &r, &lo, &hi, vd) || rows_select(cl, &r, vd))
		return;
	/* "any": a sighting ("I've seen 30%"): one row inside the range reproduces it */
	int any = json_is_true(json_object_get(cl, "any")), all = any ? CLAIM_NO : CLAIM_YES;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 0, &x, vd))
			goto out;
		int o = x.hci ? claim_range_outcome(x.ci.lo, x.ci.hi, lo, hi) : CLAIM_UNSURE;
		all = any ? (o > all ? o : all) : (o < all ? o : all);
		VERDICT_DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%s) (%.6g vs %.6g) "
				   "(need %+.1f%% .. %+.1f%%)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, 100 * x.e, x.cit, x.ek, x.eb,
			       100 * lo, 100 * hi, claim_outcome_tag(o, " [out of range]"));
		row_cell(c, &r, &x, 0, o, vd);
	}
	vd->v = claim_outcome_name(all);
out:
	json_decref(r.list);
}

/*
 * Equivalence: two one-sided tests at 5% against the margin, i.e. the 90%
 * interval inside (-tolerance, tolerance), reproduce "flat"; a 95% interval
 * entirely outside the margin refutes it; anything else is inconclusive.
 */
void claim_rows_flat(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	struct rows r;
	if (rows_open(c, cl, &r, vd))
		return;
	json_t *tol = json_object_get(cl, "tolerance");
	if (!r.b || !r.k || !r.metric || !json_is_number(tol))
		return verdict_not_checked(vd, "claim lacks baseline, kernel, metric or tolerance");
	if (rows_select(cl, &r, vd))
		return;
	double m = json_number_value(tol);
	int all = CLAIM_YES;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 0, &x, vd))
			goto out;
		double p = x.hci ? stats_tost(&x.ci, m) : NAN;
		int o = !x.hci ? CLAIM_UNSURE : p < 0.05 ? CLAIM_YES
				 : x.ci.lo > m + 1e-9 || x.ci.hi < -m - 1e-9 ? CLAIM_NO : CLAIM_UNSURE;
		all = o < all ? o : all;
		char tost[64] = "";
		if (x.hci && x.ci.lo != x.ci.hi)
			snprintf(tost, sizeof tost, ", equivalence (TOST) p=%.3g", p);
		VERDICT_DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%s%s) (%.6g vs %.6g) "
				   "(need |.| <= %.1f%%)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, 100 * x.e, x.cit, tost, x.ek, x.eb,
			       100 * m, claim_outcome_tag(o, " [not flat]"));
		row_cell(c, &r, &x, 0, o, vd);
		json_t *cellj = json_array_get(vd->cells, json_array_size(vd->cells) - 1);
		json_object_set_new(cellj, "tost_p", report_num(p));
	}
	vd->v = claim_outcome_name(all);
out:
	json_decref(r.list);
}

void claim_rows_difference(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	struct rows r;
	double lo, hi;
	if (rows_open(c, cl, &r, vd) || expect_range(cl, &r, &lo, &hi, vd) || rows_select(cl, &r, vd))
		return;
	int all = CLAIM_YES;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 1, &x, vd))
			goto out;
		int o = x.hci ? claim_range_outcome(x.ci.lo, x.ci.hi, lo, hi) : CLAIM_UNSURE;
		all = o < all ? o : all;
		VERDICT_DETAIL(vd, "%s%s %s: %s %s - %s: published %s, emulated %+.4g (%s) (%.6g vs %.6g) "
				   "(need %g .. %g)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, x.e, x.cit, x.ek, x.eb, lo, hi,
			       claim_outcome_tag(o, " [out of range]"));
		row_cell(c, &r, &x, 1, o, vd);
	}
	vd->v = claim_outcome_name(all);
out:
	json_decref(r.list);
}
