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
 *   relative    kernel/baseline - 1 inside expect_range at every row
 *   flat        |kernel/baseline - 1| <= tolerance at every row
 *   difference  kernel - baseline inside expect_range at every row
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

/* The rows of claim @cl: "row", "rows", or every row of the table; each must name
 * its sweep point.  Returns: 0, or -1 when @vd is "not checked". */
static int rows_select(json_t *cl, struct rows *r, struct verdict *vd)
{
	char why[400];
	json_t *want = json_object_get(cl, "rows"), *rows = json_array();
	if (json_is_string(json_object_get(cl, "row")))
		want = json_pack("[O]", json_object_get(cl, "row"));
	else
		json_incref(want);
	size_t i, j;
	json_t *row, *w;
	if (json_is_array(want)) {
		json_array_foreach(want, i, w) {
			json_t *found = NULL;
			json_array_foreach(json_object_get(r->table, "rows"), j, row)
				if (json_equal(json_object_get(row, "test"), w))
					found = row;
			if (!found) {
				snprintf(why, sizeof why, "no row \"%s\" in published table \"%s\"",
					 json_string_value(w) ?: "?", r->tid);
				json_decref(want);
				json_decref(rows);
				verdict_not_checked(vd, why);
				return -1;
			}
			json_array_append(rows, found);
		}
	} else {
		json_array_extend(rows, json_object_get(r->table, "rows"));
	}
	json_decref(want);
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
	snprintf(x->pubs, sizeof x->pubs, "-");
	if (x->hp && diff)
		snprintf(x->pubs, sizeof x->pubs, "%+.4g (%.6g vs %.6g)", x->p, x->pk, x->pb);
	else if (x->hp)
		snprintf(x->pubs, sizeof x->pubs, "%+.1f%% (%.6g vs %.6g)", 100 * x->p, x->pk, x->pb);
	return 0;
}

/* Append row @x's cell (published, emulated, noise) to @vd; frees x->s. */
static void row_cell(const struct claim_ctx *c, struct rows *r, struct row_cmp *x, int diff, struct verdict *vd)
{
	json_t *cellj = json_pack("{s:s,s:s,s:O,s:s,s:{s:o,s:o,s:o},s:{s:f,s:f,s:f}}", "table", r->tid, "row",
				  x->test, "point", x->pt, "metric", r->metric, "published", "baseline",
				  x->hp ? report_num(x->pb) : json_null(), "kernel",
				  x->hp ? report_num(x->pk) : json_null(), "value", x->hp ? report_num(x->p) : json_null(),
				  "emulated", "baseline", x->eb, "kernel", x->ek, "value", x->e);
	char label[300];
	snprintf(label, sizeof label, "%s %s", x->test, x->s);
	json_object_set_new(cellj, "noise", noise_compare(c, &vd->nz, label, r->b, r->k, x->pt, r->metric, !diff,
							  x->hp ? x->p : NAN));
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
	int ok = 1;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 0, &x, vd))
			goto out;
		int is = x.e >= lo - 1e-9 && x.e <= hi + 1e-9;
		ok &= is;
		VERDICT_DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%.6g vs %.6g) "
				   "(need %+.1f%% .. %+.1f%%)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, 100 * x.e, x.ek, x.eb, 100 * lo,
			       100 * hi, is ? "" : " [out of range]");
		row_cell(c, &r, &x, 0, vd);
	}
	vd->v = ok ? "reproduced" : "not reproduced";
out:
	json_decref(r.list);
}

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
	int ok = 1;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 0, &x, vd))
			goto out;
		int is = fabs(x.e) <= m + 1e-9;
		ok &= is;
		VERDICT_DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%.6g vs %.6g) "
				   "(need |.| <= %.1f%%)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, 100 * x.e, x.ek, x.eb, 100 * m,
			       is ? "" : " [not flat]");
		row_cell(c, &r, &x, 0, vd);
	}
	vd->v = ok ? "reproduced" : "not reproduced";
out:
	json_decref(r.list);
}

void claim_rows_difference(const struct claim_ctx *c, json_t *cl, struct verdict *vd)
{
	struct rows r;
	double lo, hi;
	if (rows_open(c, cl, &r, vd) || expect_range(cl, &r, &lo, &hi, vd) || rows_select(cl, &r, vd))
		return;
	int ok = 1;
	for (size_t i = 0; i < json_array_size(r.list); i++) {
		struct row_cmp x;
		if (row_compare(c, &r, i, 1, &x, vd))
			goto out;
		int is = x.e >= lo - 1e-9 && x.e <= hi + 1e-9;
		ok &= is;
		VERDICT_DETAIL(vd, "%s%s %s: %s %s - %s: published %s, emulated %+.4g (%.6g vs %.6g) (need %g .. %g)%s",
			       i ? "; " : "", x.test, x.s, r.metric, r.k, r.b, x.pubs, x.e, x.ek, x.eb, lo, hi,
			       is ? "" : " [out of range]");
		row_cell(c, &r, &x, 1, vd);
	}
	vd->v = ok ? "reproduced" : "not reproduced";
out:
	json_decref(r.list);
}
