/*
 * headline.c - a claim's one-line figures for the short report (headline.h).
 *
 * Design: read back from the claim object the evaluator built (claims.h), never
 * from the runs: the cell the verdict rests on most (the first with the worst
 * outcome: not reproduced, then inconclusive, then reproduced), its emulated
 * value with its interval and the published value.  A cell with an interval
 * ("ci": direction, relative, flat, difference, rank) shows the estimate and
 * the 95% interval, in percent for ratios; a value cell the runs' mean and
 * [min, max] beside the claimed range; a within cell the mean and how many runs
 * lie within the tolerance.  An interval of zero width (every run gives the
 * same value for both kernels) is "deterministic in the model", not a
 * significance.  Claims without such cells (shape, series-varies, not checked)
 * show the first fragment of their detail.
 */
#include "emu/analysis/headline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/report.h"

/* The rank of a cell's outcome: 0 not reproduced, 1 inconclusive, 2 reproduced, 3 none. */
static int outcome_rank(json_t *cell)
{
	const char *o = json_string_value(json_object_get(cell, "outcome"));
	if (!o)
		return 3;
	return !strcmp(o, "not reproduced") ? 0 : !strcmp(o, "inconclusive") ? 1 : 2;
}

/* The label of @cell: its row, else its point, else its kernel. */
static void cell_label(json_t *cell, char *b, size_t n)
{
	const char *row = json_string_value(json_object_get(cell, "row"));
	json_t *pt = json_object_get(cell, "point");
	if (row) {
		snprintf(b, n, "%s", row);
	} else if (pt) {
		char *s = report_json_text(pt);
		/* a relative cell names its kernel only when the claim lists several */
		const char *k = json_object_get(cell, "relative") ? json_string_value(json_object_get(cell, "kernel")) : NULL;
		snprintf(b, n, "%s%s%s", s ? s : "?", k ? " " : "", k ? k : "");
		free(s);
	} else {
		snprintf(b, n, "%s", json_string_value(json_object_get(cell, "kernel")) ?: "");
	}
}

/* "%+.1f%%" (more decimals when @w, the width it must show, is small) or "%.4g" of @v. */
static void fmt_val_w(char *b, size_t n, double v, int pct, double w)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (pct)
		snprintf(b, n, "%+.*f%%", w < 0.002 ? 3 : 1, 100 * v);
	else
		snprintf(b, n, "%.*g", w != 0 && w < fabs(v) * 1e-3 ? 8 : 4, v);
}

static void fmt_val(char *b, size_t n, double v, int pct)
{
	fmt_val_w(b, n, v, pct, 1);
}

/* The emulated and published texts of a cell with an interval. */
static void ci_cell(json_t *cell, int pct, char *em, size_t ne, char *pub, size_t np)
{
	json_t *ci = json_object_get(cell, "ci");
	double est = json_number_value(json_object_get(ci, "estimate"));
	double lo = json_number_value(json_object_get(ci, "lo")), hi = json_number_value(json_object_get(ci, "hi"));
	char e[48], l[48], h[48];
	fmt_val(e, sizeof e, est, pct);
	if (lo == hi)
		snprintf(em, ne, "%s (deterministic in the model)", e);
	else {
		fmt_val_w(l, sizeof l, lo, pct, hi - lo);
		fmt_val_w(h, sizeof h, hi, pct, hi - lo);
		snprintf(em, ne, "%s [%s, %s]", e, l, h);
	}
	json_t *pv = json_object_get(json_object_get(cell, "noise"), "published");
	if (!json_is_number(pv))
		pv = json_object_get(json_object_get(cell, "published"), "value");
	double p = json_is_number(pv) ? json_number_value(pv) : NAN;
	if (!isfinite(p) && json_is_number(json_object_get(cell, "published_higher")))
		p = json_number_value(json_object_get(cell, "published_higher")) -
		    json_number_value(json_object_get(cell, "published_lower"));
	fmt_val(pub, np, p, pct);
}

/* The claim's own range when the cell has no published value: "+100% .. +200%",
 * "worse", "|x| <= 1%". */
static void claimed(json_t *cl, int pct, char *b, size_t n)
{
	json_t *r = json_object_get(cl, "expect_range"), *tol = json_object_get(cl, "tolerance");
	const char *ex = json_string_value(json_object_get(cl, "expect"));
	char l[48], h[48];
	if (json_array_size(r) == 2) {
		fmt_val(l, sizeof l, json_number_value(json_array_get(r, 0)), pct);
		fmt_val(h, sizeof h, json_number_value(json_array_get(r, 1)), pct);
		snprintf(b, n, "claimed %s .. %s", l, h);
	} else if (ex) {
		snprintf(b, n, "claimed %s", ex);
	} else if (json_is_number(tol)) {
		snprintf(b, n, pct ? "claimed |x| <= %g%%" : "claimed |x| <= %g", pct ? 100 * json_number_value(tol) : json_number_value(tol));
	}
}

void headline_claim(json_t *o, json_t *cl)
{
	const char *kind = json_string_value(json_object_get(o, "kind")) ?: "";
	json_t *cells = json_object_get(o, "cells"), *cell, *best = NULL;
	size_t i, n = 0;
	int any = json_is_true(json_object_get(o, "any")), br = any ? -1 : 4;
	json_array_foreach(cells, i, cell) {
		int r = outcome_rank(cell);
		if (r == 3)
			continue;
		n++;
		if (any ? r > br : r < br) {
			br = r;
			best = cell;
		}
	}
	char at[200] = "", em[200] = "-", pub[200] = "-";
	int pct = !strcmp(kind, "direction") || !strcmp(kind, "relative") || !strcmp(kind, "flat");
	if (best && json_is_object(json_object_get(best, "ci"))) {
		cell_label(best, at, sizeof at);
		ci_cell(best, pct, em, sizeof em, pub, sizeof pub);
	} else if (best && json_is_array(json_object_get(best, "expect"))) {
		cell_label(best, at, sizeof at);
		json_t *ru = json_object_get(best, "runs");
		double mn = json_number_value(json_object_get(ru, "min")), mx = json_number_value(json_object_get(ru, "max"));
		char e[48], l[48], h[48];
		fmt_val(e, sizeof e, json_number_value(json_object_get(best, "emulated")), 0);
		fmt_val(l, sizeof l, mn, 0);
		fmt_val(h, sizeof h, mx, 0);
		if (mn == mx)
			snprintf(em, sizeof em, "%s (deterministic in the model)", e);
		else
			snprintf(em, sizeof em, "%s [runs %s, %s]", e, l, h);
		snprintf(pub, sizeof pub, "[%g, %g]", json_number_value(json_array_get(json_object_get(best, "expect"), 0)),
			 json_number_value(json_array_get(json_object_get(best, "expect"), 1)));
		size_t pl = strlen(at);
		snprintf(at + pl, sizeof at - pl, " %s", json_string_value(json_object_get(best, "kernel")) ?: "");
	} else if (best && json_is_number(json_object_get(best, "runs_within"))) {
		snprintf(at, sizeof at, "%s %s", json_string_value(json_object_get(best, "row")) ?: "",
			 json_string_value(json_object_get(best, "kernel")) ?: "");
		snprintf(em, sizeof em, "%.4g (%lld of %lld runs within %g)",
			 json_number_value(json_object_get(best, "emulated")),
			 (long long)json_integer_value(json_object_get(best, "runs_within")),
			 (long long)json_integer_value(json_object_get(best, "runs")),
			 json_number_value(json_object_get(best, "tolerance")));
		fmt_val(pub, sizeof pub, json_number_value(json_object_get(best, "published")), 0);
	} else {
		const char *d = json_string_value(json_object_get(o, "detail")) ?: "";
		size_t l = strcspn(d, ";");
		snprintf(em, sizeof em, "%.*s%s", (int)(l > 70 ? 70 : l), d, l > 70 || d[l] ? " ..." : "");
		n = 0;
	}
	if (!strcmp(pub, "-"))
		claimed(cl, pct, pub, sizeof pub);
	json_t *h = json_pack("{s:s,s:s,s:s}", "at", at, "emulated", em, "published", pub);
	if (n > 1)
		json_object_set_new(h, "of", json_integer((json_int_t)n));
	json_object_set_new(o, "headline", h);
}
