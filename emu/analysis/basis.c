/*
 * basis.c - what a verdict rests on (basis.h).
 *
 * Design: a claim is a set of comparisons, each a kernel at a point against
 * another kernel (or the same kernel at another point) on one metric: the
 * claim's baseline and kernel at each of its points or rows, or each adjacent
 * pair of a rank's order.  Single-kernel claims (shape, value, within,
 * series-varies) make none.  The one rule the runs can decide: when both sides
 * of every comparison have the same number of runs and each run's value equals
 * its partner's (same base seed and run index; sorted values when the runs
 * carry no keys) to the last bit, the kernels ran the same code on the measured
 * path, or the figure is an input, and the claim holds by construction whatever
 * its verdict.  Everything else is declared in the published file, with a
 * reason naming the code path or the constant: a claim's "basis" and
 * "basis_reason", or the file's "inputs" for a metric that is a constant of the
 * model.  An undeclared claim defaults to "mechanism" and says so.
 */
#include "emu/analysis/basis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/claims.h"
#include "emu/analysis/published.h"

int basis_index(const char *basis)
{
	if (!basis)
		return -1;
	return !strcmp(basis, BASIS_MECHANISM) ? 0 : !strcmp(basis, BASIS_CONSTRUCTION) ? 1
	       : !strcmp(basis, BASIS_CALIBRATED)                             ? 2
									      : -1;
}

/* One comparison: kernel @a at @pa against kernel @b at @pb. */
struct cmp {
	const char *a, *b;
	json_t *pa, *pb;
};

/* Append a comparison to @m (at most @max). */
static void add_cmp(struct cmp *m, size_t *n, size_t max, const char *a, json_t *pa, const char *b, json_t *pb)
{
	if (*n < max && a && b)
		m[(*n)++] = (struct cmp){ a, b, pa, pb };
}

/*
 * The comparisons claim @cl makes, into @m (at most @max), and its metric.
 * References the comparisons' points need are kept in @hold.
 * Returns: how many (0 for a single-kernel claim or one that cannot be read).
 */
static size_t claim_cmps(const struct claim_ctx *c, json_t *cl, struct cmp *m, size_t max, const char **metric,
			 json_t *hold)
{
	const char *kind = json_string_value(json_object_get(cl, "kind")) ?: "";
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	size_t n = 0, i;
	json_t *pt, *row;
	*metric = json_string_value(json_object_get(cl, "metric"));
	if (c->point_key) {
		if (!*metric)
			*metric = c->metric;
		if (strcmp(kind, "direction") && strcmp(kind, "relative"))
			return 0;
		json_t *pts = claim_points(c, cl, "points"), *kj = json_object_get(cl, "kernel"), *ks;
		json_array_append_new(hold, pts);
		size_t j;
		/* a relative claim may list several kernels: each is compared */
		json_array_foreach(pts, i, pt) {
			add_cmp(m, &n, max, b, pt, k, pt);
			json_array_foreach(kj, j, ks)
				add_cmp(m, &n, max, b, pt, json_string_value(ks), pt);
		}
		return n;
	}
	json_t *table = published_table(c->pub, json_string_value(json_object_get(cl, "table")));
	if (!table)
		return 0;
	if (!*metric)
		*metric = json_string_value(json_object_get(table, "metric"));
	if (!strcmp(kind, "rank")) {
		json_t *order = json_object_get(cl, "order"), *rowpt = NULL;
		const char *want = json_string_value(json_object_get(cl, "row"));
		json_array_foreach(json_object_get(table, "rows"), i, row)
			if (want && json_equal(json_object_get(row, "test"), json_object_get(cl, "row")))
				rowpt = json_object_get(row, "point");
		for (i = 0; i + 1 < json_array_size(order); i++) {
			json_t *pa, *pb;
			const char *ka = claim_rank_entry(json_array_get(order, i), rowpt, &pa);
			const char *kb = claim_rank_entry(json_array_get(order, i + 1), rowpt, &pb);
			if (json_is_object(pa) && json_is_object(pb))
				add_cmp(m, &n, max, kb, pb, ka, pa);
		}
		return n;
	}
	if (strcmp(kind, "relative") && strcmp(kind, "flat") && strcmp(kind, "difference") && strcmp(kind, "stays"))
		return 0;
	const char *missing;
	json_t *rows = claim_table_rows(table, cl, &missing);
	if (!rows)
		return 0;
	json_array_append_new(hold, rows);
	json_array_foreach(rows, i, row)
		if (json_is_object(json_object_get(row, "point")))
			add_cmp(m, &n, max, b, json_object_get(row, "point"), k, json_object_get(row, "point"));
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/*
 * Are the runs of the two sides of @m bit-identical in @metric: the same count,
 * and each run's value equal to its partner's (paired by base seed and run
 * index; by sorted value when a side lacks keys)?  *@nruns gets the count.
 * Returns: 1 or 0 (0 also when a side has no runs).
 */
static int identical(const struct claim_ctx *c, const struct cmp *m, const char *metric, size_t *nruns)
{
	double *xa = NULL, *xb = NULL;
	struct report_key *ka = NULL, *kb = NULL;
	size_t na = emulated_keyed_samples(c, m->a, m->pa, metric, &xa, &ka);
	size_t nb = emulated_keyed_samples(c, m->b, m->pb, metric, &xb, &kb);
	int same = na > 0 && na == nb;
	if (same && ka && kb) {
		for (size_t i = 0; same && i < na; i++) {
			size_t j = 0;
			while (j < nb && (kb[j].seed != ka[i].seed || kb[j].run != ka[i].run))
				j++;
			same = j < nb && xa[i] == xb[j];
		}
	} else if (same) {
		qsort(xa, na, sizeof *xa, cmp_double);
		qsort(xb, nb, sizeof *xb, cmp_double);
		for (size_t i = 0; same && i < na; i++)
			same = xa[i] == xb[i];
	}
	*nruns = na;
	free(xa);
	free(xb);
	free(ka);
	free(kb);
	return same;
}

/* Set @o's basis fields. */
static void set_basis(json_t *o, const char *basis, const char *reason, const char *source)
{
	json_object_set_new(o, "basis", json_string(basis));
	json_object_set_new(o, "basis_reason", json_string(reason));
	json_object_set_new(o, "basis_source", json_string(source));
}

void basis_claim(const struct claim_ctx *c, json_t *cl, json_t *o)
{
	struct cmp m[64];
	const char *metric;
	json_t *hold = json_array();
	size_t n = claim_cmps(c, cl, m, sizeof m / sizeof m[0], &metric, hold), runs = 0, each;
	int all = n > 0 && metric;
	for (size_t i = 0; all && i < n; i++) {
		all = identical(c, &m[i], metric, &each);
		runs += each;
	}
	const char *declared = json_string_value(json_object_get(cl, "basis"));
	const char *why = json_string_value(json_object_get(cl, "basis_reason"));
	const char *input = metric ? json_string_value(json_object_get(json_object_get(c->pub, "inputs"), metric)) : NULL;
	char b[700];
	if (all) {
		snprintf(b, sizeof b, "%s is bit-identical for %s and %s in every paired run (%zu run%s, %zu comparison%s): "
				      "the same code on the measured path%s%s",
			 metric, m[0].a, m[0].b, runs, runs == 1 ? "" : "s", n, n == 1 ? "" : "s", why ? "; " : "",
			 why ? why : "");
		set_basis(o, BASIS_CONSTRUCTION, b, "detected");
	} else if (basis_index(declared) >= 0 && why) {
		set_basis(o, declared, why, "declared");
	} else if (input) {
		snprintf(b, sizeof b, "%s is an input of the model: %s", metric, input);
		set_basis(o, BASIS_CONSTRUCTION, b, "declared");
	} else {
		set_basis(o, BASIS_MECHANISM,
			  n ? "not declared; the kernels' runs differ, taken as emerging from the modelled mechanisms"
			    : "not declared; taken as emerging from the modelled mechanisms",
			  "default");
	}
	json_decref(hold);
}
