/*
 * verdict.c - a seed's report model (verdict.h).
 *
 * Design: the published fields are copied, then the claims are judged by
 * claim_judge() once per group of emulated runs (single-table form: runs grouped
 * by the values of the sweep axes the published table lacks, e.g.
 * workload.pattern, in order of first appearance; the group's table holds a cell
 * per published row and column) or once (several-tables form, whose rows name
 * their own sweep points).  The summary counts the verdicts; the seed's "noise"
 * gathers the claims' noise comparisons, "noise_sources" what the model varies
 * from run to run (from the scenarios) and what it lacks (the published file's
 * "noise_missing"), "published_noise" what the thread says of its own runs.
 * Claims with a "what_if" (a configuration the verdicts do not assume, e.g. a
 * machine size the thread does not confirm) are counted in the summary's
 * "what_if" only; tables with "report_metrics" get the emulated values of those
 * metrics per row and column ("table_metrics").  Nothing is printed here.
 */
#include "emu/analysis/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/basis.h"
#include "emu/analysis/claims.h"
#include "emu/analysis/published.h"
#include "emu/analysis/report.h"
#include "emu/core/output.h"

/* The verdict counts of one set of claims: [0..3] reproduced, not reproduced,
 * inconclusive, not checked; the reproduced ones by basis (basis_index()). */
struct tally {
	int v[4];
	int reproduced_by[3];
};

/* Count claim object @v into @t. */
static void count(struct tally *t, json_t *v)
{
	const char *vs = json_string_value(json_object_get(v, "verdict"));
	int i = !strcmp(vs, "reproduced") ? 0 : !strcmp(vs, "not reproduced") ? 1 : !strcmp(vs, "inconclusive") ? 2 : 3;
	t->v[i]++;
	int b = basis_index(json_string_value(json_object_get(v, "basis")));
	if (i == 0 && b >= 0)
		t->reproduced_by[b]++;
}

/* Every claim of the published file judged in @c, appended to a new array and
 * counted into t[0], or t[1] when the claim is a what-if ("what_if": a
 * configuration other than the one the verdicts assume, judged but counted
 * apart from them), or t[2] when a later message of the thread withdrew it
 * ("withdrawn": judged, shown, counted apart). */
static json_t *judge_all(const struct claim_ctx *c, struct tally *t)
{
	json_t *claims = json_array();
	size_t i;
	json_t *cl;
	json_array_foreach(json_object_get(c->pub, "claims"), i, cl) {
		json_t *v = claim_judge(c, cl);
		json_t *wi = json_object_get(cl, "what_if"), *wd = json_object_get(cl, "withdrawn");
		if (json_is_string(wi))
			json_object_set(v, "what_if", wi);
		if (json_is_string(wd))
			json_object_set(v, "withdrawn", wd);
		count(json_is_string(wd) ? t + 2 : json_is_string(wi) ? t + 1 : t, v);
		json_array_append_new(claims, v);
	}
	return claims;
}

/* A tally as the summary's JSON: the four counts and the reproduced ones by basis. */
static json_t *tally_json(const struct tally *t)
{
	return json_pack("{s:i,s:i,s:i,s:i,s:{s:i,s:i,s:i}}", "reproduced", t->v[0], "not_reproduced", t->v[1],
			 "inconclusive", t->v[2], "not_checked", t->v[3], "reproduced_by_basis", BASIS_MECHANISM,
			 t->reproduced_by[0], BASIS_CONSTRUCTION, t->reproduced_by[1], BASIS_CALIBRATED,
			 t->reproduced_by[2]);
}

/*
 * The several-tables form's "report_metrics": for each table that names some,
 * per row with a sweep point and per published column, the emulated runs'
 * summary of each metric (emulated_runs_json(): n, mean, sd, min, max; null
 * when the runs lack it).  Returns: a new array (empty when no table names any).
 */
static json_t *table_metrics(const struct claim_ctx *c)
{
	json_t *out = json_array();
	size_t ti, ri, mi;
	json_t *tb, *row, *m;
	json_array_foreach(json_object_get(c->pub, "tables"), ti, tb) {
		json_t *ms = json_object_get(tb, "report_metrics");
		if (!json_array_size(ms))
			continue;
		json_t *rows = json_array();
		json_array_foreach(json_object_get(tb, "rows"), ri, row) {
			json_t *pt = json_object_get(row, "point");
			if (!json_is_object(pt))
				continue;
			json_t *cols = json_array();
			const char *col;
			json_t *pv;
			json_object_foreach(json_object_get(row, "values"), col, pv) {
				json_t *vals = json_object();
				json_array_foreach(ms, mi, m) {
					const char *mn = json_string_value(m);
					json_object_set_new(vals, mn, emulated_runs_json(c, col, pt, mn));
				}
				json_array_append_new(cols, json_pack("{s:s,s:o}", "column", col, "metrics", vals));
			}
			json_array_append_new(rows, json_pack("{s:O,s:O,s:o}", "test", json_object_get(row, "test"),
							      "point", pt, "columns", cols));
		}
		json_array_append_new(out, json_pack("{s:O,s:O,s:o}", "table", json_object_get(tb, "id"), "metrics", ms,
						     "rows", rows));
	}
	return out;
}

/* Is @col one of the stock kernel's columns: the published "stock" (a name or
 * an array of names), else @first? */
static int is_stock(json_t *pub, const char *col, const char *first)
{
	json_t *st = json_object_get(pub, "stock");
	if (json_is_string(st))
		return !strcmp(json_string_value(st), col);
	if (json_is_array(st)) {
		size_t i;
		json_t *v;
		json_array_foreach(st, i, v) if (json_is_string(v) && !strcmp(json_string_value(v), col)) return 1;
		return 0;
	}
	return first && !strcmp(first, col);
}

/* Append emulated/published of @col's @metric at @pt to @ratios when both exist. */
static void add_ratio(const struct claim_ctx *c, const char *col, json_t *pt, const char *metric, double p,
		      double *ratios, size_t *n, size_t max)
{
	double e;
	if (*n < max && p != 0 && emulated_mean(c, col, pt, metric, &e) == 0 && isfinite(e / p))
		ratios[(*n)++] = e / p;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/*
 * The stock kernel's absolute level: emulated/published of every published
 * number of its columns that has emulated runs (single-table form: the metric
 * at each row, in every group; several tables: each row with a sweep point, each
 * metric).  Returns: {"kernel", "n", "median_ratio", "min_ratio", "max_ratio",
 * "off": the median is more than 50% away from 1}, or NULL when there is none.
 */
static json_t *stock_level(const struct claim_ctx *c, json_t *groups)
{
	double r[512];
	size_t n = 0, ti, ri, gi;
	json_t *tb, *row, *g;
	const char *first = NULL, *col;
	json_t *t = json_object_get(c->pub, "table");
	if (t) {
		first = json_string_value(json_array_get(json_object_get(t, "columns"), 0));
		struct claim_ctx gc = *c;
		json_array_foreach(groups, gi, g) {
			gc.group = json_object_get(g, "group");
			size_t ci;
			json_t *cv;
			json_array_foreach(json_object_get(t, "columns"), ci, cv) {
				if (!is_stock(c->pub, json_string_value(cv), first))
					continue;
				json_array_foreach(json_object_get(t, "rows"), ri, row) {
					double p;
					if (published_cell(c->pub, json_string_value(cv), json_object_get(row, "point"), &p) == 0)
						add_ratio(&gc, json_string_value(cv), json_object_get(row, "point"), c->metric,
							  p, r, &n, 512);
				}
				first = json_string_value(cv);
			}
		}
	} else {
		const char *k;
		json_t *kv;
		json_object_foreach(json_object_get(c->pub, "kernels"), k, kv) {
			first = k;
			break;
		}
		json_array_foreach(json_object_get(c->pub, "tables"), ti, tb) {
			const char *metric = json_string_value(json_object_get(tb, "metric"));
			json_array_foreach(json_object_get(tb, "rows"), ri, row) {
				json_t *pt = json_object_get(row, "point"), *v;
				if (!json_is_object(pt))
					continue;
				json_object_foreach(json_object_get(row, "values"), col, v) {
					if (!is_stock(c->pub, col, first))
						continue;
					if (json_is_number(v) && metric)
						add_ratio(c, col, pt, metric, json_number_value(v), r, &n, 512);
					/* a row of several metrics: the table's own metric, else every one */
					const char *m;
					json_t *mv;
					json_object_foreach(json_is_object(v) ? v : NULL, m, mv) if (json_is_number(mv) &&
												 (!metric || !strcmp(m, metric)))
						add_ratio(c, col, pt, m, json_number_value(mv), r, &n, 512);
				}
			}
		}
	}
	if (!n)
		return NULL;
	qsort(r, n, sizeof *r, cmp_dbl);
	double med = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
	json_t *st = json_object_get(c->pub, "stock");
	const char *name = json_is_string(st) ? json_string_value(st) : json_is_array(st) ? json_string_value(json_array_get(st, 0)) : first;
	return json_pack("{s:s,s:I,s:f,s:f,s:f,s:b}", "kernel", name ? name : "?", "n", (json_int_t)n, "median_ratio",
			 med, "min_ratio", r[0], "max_ratio", r[n - 1], "off", med > 1.5 || med < 0.5);
}

/* The single-table form: one emulated table and one set of verdicts per group. */
static void judge_groups(const struct verdict_seed_in *in, json_t *o, struct tally *counts)
{
	json_t *pub = in->pub, *t = json_object_get(pub, "table");
	json_t *tables = json_object_get(o, "tables");
	struct claim_ctx c = { pub, json_object_get(in->res, "runs"), json_string_value(json_object_get(t, "point_key")),
			       json_string_value(json_object_get(pub, "metric")), 1, NULL, published_runs(pub) };
	const char *better = json_string_value(json_object_get(pub, "better"));
	c.higher = !better || strcmp(better, "lower") != 0;
	json_t *groups = json_array();
	size_t i;
	json_t *r;
	json_array_foreach(c.runs, i, r) {
		json_t *g = json_deep_copy(json_object_get(r, "point"));
		json_object_del(g, c.point_key);
		report_add_unique(groups, g);
		json_decref(g);
	}
	if (json_array_size(groups) == 0)
		json_array_append_new(groups, json_object());
	json_t *g;
	json_array_foreach(groups, i, g) {
		c.group = g;
		char *lbl = results_point_label(g);
		json_t *rows = json_array();
		size_t ri;
		json_t *row;
		json_array_foreach(json_object_get(t, "rows"), ri, row) {
			json_t *cells = json_array();
			size_t ci;
			json_t *col;
			json_array_foreach(json_object_get(t, "columns"), ci, col)
				json_array_append_new(cells, claim_table_cell(&c, json_string_value(col),
									      json_object_get(row, "point")));
			json_array_append_new(rows, json_pack("{s:O,s:o}", "point", json_object_get(row, "point"), "cells",
							      cells));
		}
		json_t *claims = judge_all(&c, counts);
		json_array_append_new(tables, json_pack("{s:O,s:s,s:o,s:o}", "group", g, "label", lbl ? lbl : "", "rows",
							rows, "claims", claims));
		free(lbl);
	}
	json_decref(groups);
}

json_t *verdict_seed(const struct verdict_seed_in *in)
{
	json_t *pub = in->pub;
	json_t *o = json_pack("{s:s,s:s}", "seed", in->id, "status", in->status);
	const char *fields[] = { "title", "source", "machine", "scenario", "metric", "unit", "better", NULL };
	for (int i = 0; fields[i]; i++)
		if (json_object_get(pub, fields[i]))
			json_object_set(o, fields[i], json_object_get(pub, fields[i]));
	if (*in->note)
		json_object_set_new(o, "note", json_string(in->note));
	json_object_set_new(o, "tables", json_array());
	struct tally counts[3];   /* [1]: what-if claims, [2]: withdrawn claims */
	memset(counts, 0, sizeof counts);
	if (!json_object_get(pub, "table")) {
		/* the several-tables form: the published tables, claims on rows with a sweep point */
		json_object_set(o, "published_tables", json_object_get(pub, "tables"));
		if (in->res) {
			json_object_set_new(o, "results", json_string(in->results_path));
			json_t *empty = json_object();
			struct claim_ctx c = { pub, json_object_get(in->res, "runs"), NULL, NULL, 1, empty,
					       published_runs(pub) };
			json_object_set_new(o, "claims", judge_all(&c, counts));
			json_t *sl = stock_level(&c, NULL);
			if (sl)
				json_object_set_new(o, "stock_level", sl);
			json_t *tm = table_metrics(&c);
			if (json_array_size(tm))
				json_object_set(o, "table_metrics", tm);
			json_decref(tm);
			json_decref(empty);
			json_object_set_new(o, "noise", noise_seed(o, published_runs(pub)));
		}
	} else if (in->res) {
		if (!in->run_failed)
			json_object_set_new(o, "results", json_string(in->results_path));
		judge_groups(in, o, counts);
		struct claim_ctx c = { pub, json_object_get(in->res, "runs"), json_string_value(json_object_get(json_object_get(pub, "table"), "point_key")),
				       json_string_value(json_object_get(pub, "metric")), 1, NULL, published_runs(pub) };
		json_t *sl = stock_level(&c, json_object_get(o, "tables"));
		if (sl)
			json_object_set_new(o, "stock_level", sl);
		json_object_set_new(o, "noise", noise_seed(o, published_runs(pub)));
	}
	if (json_object_get(o, "noise")) {
		json_t *missing = json_object_get(pub, "noise_missing");
		json_object_set_new(o, "noise_sources",
				    json_pack("{s:o,s:o}", "model", in->model_noise ? json_incref(in->model_noise) : json_array(),
					      "missing", json_is_array(missing) ? json_incref(missing) : json_null()));
		char *pn = published_noise_text(pub);
		json_object_set_new(o, "published_noise", json_string(pn));
		free(pn);
	}
	json_object_set_new(o, "summary", tally_json(&counts[0]));
	if (counts[1].v[0] + counts[1].v[1] + counts[1].v[2] + counts[1].v[3])
		json_object_set_new(json_object_get(o, "summary"), "what_if", tally_json(&counts[1]));
	if (counts[2].v[0] + counts[2].v[1] + counts[2].v[2] + counts[2].v[3])
		json_object_set_new(json_object_get(o, "summary"), "withdrawn", tally_json(&counts[2]));
	return o;
}
