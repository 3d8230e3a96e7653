/*
 * cmd_reproduce.c - `mmemu reproduce`: published tables beside emulated ones,
 * with a verdict for every headline claim.
 *
 * Design: each results/published/NNN.json names its scenario, the metric, a
 * table (one sweep key, "point_key", by kernel columns) and claims.  Seeds whose
 * scenario exists are run through the sweep pool (or, with --no-run, read from
 * results/runs/STEM.json); the others are listed as "not yet modelled".  The
 * emulated runs are grouped by the values of the sweep axes that the published
 * table does not have (e.g. workload.pattern), one emulated table and one set of
 * verdicts per group.  A cell's value is the mean over runs.  Claims are judged
 * generically by kind: direction, shape, value, relative, series-varies; an
 * unknown kind, or a claim whose kernels, points, metric or series the emulated
 * results lack, is "not checked", never an error.  The several-tables form
 * ("tables", rows named by "test", seed 001 on) has no point_key: a row names its
 * emulated sweep point in an optional "point" object, and its claims (relative,
 * flat, difference) are judged on the rows that have one (judge_tables()).
 * Run-to-run noise (docs/compare.md, "Noise"): every emulated cell carries its
 * runs' mean, standard deviation, min and max; every two-kernel comparison (the
 * direction, relative, flat and difference kinds) also says whether the emulated
 * kernels differ significantly (Welch's t-test, 95%) and whether the published
 * difference lies inside the emulated noise (stats_inside_noise).  This is reported
 * beside the verdict and never changes it.  Everything is built into one
 * JSON model first; the terminal text, results/reproduce.md and
 * results/reproduce.json are printed from it (the last two written atomically).
 */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/results.h"
#include "emu/engine/scenario.h"
#include "emu/analysis/stats.h"
#include "emu/engine/sweep.h"
#include "emu/core/version.h"

static const char reproduce_usage[] =
	"usage: mmemu reproduce [SEED|all] [-j N] [--no-run] [--published DIR] [--runs DIR]\n"
	"                       [--out DIR] [-q]\n"
	"Run the seed scenarios and print, per seed, the published table beside the\n"
	"emulated one (one emulated table per value of sweep axes the publication does\n"
	"not have) and a verdict per claim: reproduced, not reproduced or not checked,\n"
	"with relative errors (emulated/published - 1). Seeds without a scenario are\n"
	"listed as not yet modelled.\n"
	"  SEED             a seed number (\"000\" or \"0\"); default all\n"
	"  -j, --jobs N     parallel simulations (default 2)\n"
	"      --no-run     use the existing results in the runs directory\n"
	"      --published DIR  published tables (default results/published)\n"
	"      --runs DIR   where results files are written/read (default results/runs)\n"
	"      --out DIR    where reproduce.json and reproduce.md go (default results)\n"
	"  -q, --quiet      no tables on stdout (files are still written)\n"
	"Exit: 0 (whatever the verdicts), 1 a simulation failed, 2 bad input or usage.\n";

/* ---- the published file ---------------------------------------------------- */

struct seed {
	char path[1100];
	json_t *pub;
	const char *id;
	const char *scenario;
	struct scenario sc;
	int loaded;
	json_t *res;          /* emulated results */
	char status[512];
	char results_path[1400];
	char note[400];
	int part, nparts;     /* scenario @part of the seed's @nparts (a "scenario" array) */
	int merged;           /* a later part: its runs were merged into part 0 */
};

#define MAX_PARTS 4

/* The seed's scenarios: "scenario" is a path or an array of up to MAX_PARTS paths.
 * Returns: how many, or -1 if @p's "scenario" is neither. */
static int scenario_parts(json_t *p, const char **out)
{
	json_t *v = json_object_get(p, "scenario");
	if (json_is_string(v)) {
		out[0] = json_string_value(v);
		return 1;
	}
	size_t n = json_array_size(v);
	if (!json_is_array(v) || n < 1 || n > MAX_PARTS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!json_is_string(json_array_get(v, i)))
			return -1;
		out[i] = json_string_value(json_array_get(v, i));
	}
	return (int)n;
}

static int check_published(const char *path, json_t *p, struct mm_err *e)
{
	if (!json_is_object(p))
		return mm_errf(e, path, "(top)", "expected a JSON object");
	if (!json_is_string(json_object_get(p, "seed")))
		return mm_errf(e, path, "seed", "expected a string");
	const char *parts[MAX_PARTS];
	if (scenario_parts(p, parts) < 0)
		return mm_errf(e, path, "scenario",
			       "expected a scenario path or an array of 1 to %d paths", MAX_PARTS);
	json_t *pr = json_object_get(p, "published_runs");
	if (pr && (!json_is_integer(pr) || json_integer_value(pr) < 1 || json_integer_value(pr) > 1000000))
		return mm_errf(e, path, "published_runs", "expected an integer in [1, 1000000]");
	json_t *t = json_object_get(p, "table"), *ts = json_object_get(p, "tables");
	if (!t && json_is_array(ts))
		return 0;   /* several tables: shown, claims not checked yet (see evaluate()) */
	if (!json_is_object(t))
		return mm_errf(e, path, "table", "expected an object (or \"tables\": an array)");
	if (!json_is_string(json_object_get(p, "metric")))
		return mm_errf(e, path, "metric", "expected a string");
	if (!json_is_string(json_object_get(t, "point_key")))
		return mm_errf(e, path, "table.point_key", "expected a string");
	json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
	if (!json_is_array(cols) || json_array_size(cols) == 0)
		return mm_errf(e, path, "table.columns", "expected a non-empty array of kernel names");
	size_t i;
	json_t *v;
	json_array_foreach(cols, i, v) if (!json_is_string(v)) {
		char w[64];
		snprintf(w, sizeof w, "table.columns[%zu]", i);
		return mm_errf(e, path, w, "expected a string");
	}
	if (!json_is_array(rows))
		return mm_errf(e, path, "table.rows", "expected an array");
	json_array_foreach(rows, i, v) {
		char w[64];
		snprintf(w, sizeof w, "table.rows[%zu]", i);
		json_t *vals = json_object_get(v, "values");
		if (!json_object_get(v, "point") || !json_is_array(vals) ||
		    json_array_size(vals) != json_array_size(cols))
			return mm_errf(e, path, w, "expected {\"point\": ..., \"values\": [one per column]}");
	}
	json_t *claims = json_object_get(p, "claims");
	if (claims && !json_is_array(claims))
		return mm_errf(e, path, "claims", "expected an array");
	json_array_foreach(claims, i, v) {
		char w[64];
		snprintf(w, sizeof w, "claims[%zu]", i);
		if (!json_is_object(v) || !json_is_string(json_object_get(v, "kind")))
			return mm_errf(e, path, w, "expected an object with a string \"kind\"");
	}
	return 0;
}

static int seed_matches(const char *want, const char *id)
{
	if (strcmp(want, id) == 0)
		return 1;
	long a, b;
	return report_parse_long(want, 0, 1000000, &a) == 0 && report_parse_long(id, 0, 1000000, &b) == 0 &&
	       a == b;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- values ------------------------------------------------------------------ */

struct ctx {
	json_t *pub;
	json_t *runs;          /* emulated runs */
	const char *point_key;
	const char *metric;
	int higher;
	json_t *group;         /* the extra-axes values of this group ({} when none) */
	double pub_runs;       /* runs behind each published number ("published_runs", default 1) */
};

static const char *map_kernel(const struct ctx *c, const char *k)
{
	const char *m = json_string_value(json_object_get(json_object_get(c->pub, "kernel_map"), k));
	return m ? m : k;
}

/* Does run @r belong to the current group and have @pt as point_key value? */
static int run_in(const struct ctx *c, json_t *r, const char *kernel, json_t *pt)
{
	if (strcmp(json_string_value(json_object_get(r, "kernel")), map_kernel(c, kernel)))
		return 0;
	json_t *point = json_object_get(r, "point");
	if (pt && !json_equal(json_object_get(point, c->point_key), pt))
		return 0;
	const char *k;
	json_t *v;
	json_object_foreach(c->group, k, v) if (!json_equal(json_object_get(point, k), v)) return 0;
	return 1;
}

/* Mean over runs of @metric for (@kernel, @pt). Returns: 0, or -1 when missing. */
static int emu_value(const struct ctx *c, const char *kernel, json_t *pt, const char *metric, double *out)
{
	size_t i, n = 0;
	json_t *r;
	double s = 0;
	json_array_foreach(c->runs, i, r) {
		double v;
		if (!run_in(c, r, kernel, pt))
			continue;
		if (report_run_value(r, metric, &v))
			return -1;
		s += v;
		n++;
	}
	if (!n)
		return -1;
	*out = s / (double)n;
	return 0;
}

static int tables_run_value(json_t *r, const char *metric, double *v);
static int run_at(json_t *r, json_t *pt);

/*
 * The emulated values of @metric for (@kernel, @pt), one per run: in the
 * single-table form (c->point_key set) the runs of the group at point_key = @pt,
 * in the several-tables form the runs whose point has every key of @pt.
 * Returns: the number of values in *@out (malloc'ed, freed by the caller; NULL
 * when 0), or 0 when a run lacks the metric.
 */
static size_t samples(const struct ctx *c, const char *kernel, json_t *pt, const char *metric, double **out)
{
	size_t i, n = 0;
	json_t *r;
	double *x = malloc((json_array_size(c->runs) + 1) * sizeof *x);
	*out = NULL;
	if (!x)
		return 0;
	json_array_foreach(c->runs, i, r) {
		double v;
		if (c->point_key) {
			if (!run_in(c, r, kernel, pt))
				continue;
			if (report_run_value(r, metric, &v))
				goto missing;
		} else {
			if (strcmp(json_string_value(json_object_get(r, "kernel")) ?: "", map_kernel(c, kernel)) ||
			    !run_at(r, pt))
				continue;
			if (tables_run_value(r, metric, &v))
				goto missing;
		}
		x[n++] = v;
	}
	if (!n)
		goto missing;
	*out = x;
	return n;
missing:
	free(x);
	return 0;
}

static json_t *num(double v);

/* {"n", "mean", "stddev", "min", "max"} of @s (stddev null below two runs). */
static json_t *summary_json(const struct stats_summary *s)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o}", "n", (json_int_t)s->n, "mean", num(s->mean), "stddev",
			 s->n >= 2 ? num(s->sd) : json_null(), "min", num(s->min), "max", num(s->max));
}

/* The run statistics of (@kernel, @pt, @metric): a JSON summary, or JSON null. */
static json_t *runs_json(const struct ctx *c, const char *kernel, json_t *pt, const char *metric)
{
	double *x;
	size_t n = samples(c, kernel, pt, metric, &x);
	struct stats_summary st;
	json_t *o = n && stats_summarize(x, n, &st) == 0 ? summary_json(&st) : json_null();
	free(x);
	return o;
}

/* A claim's noise account: per-comparison text and the counts. */
struct noise {
	char *text;
	size_t len;
	int sig, notsig, sig_cj;          /* emulated kernels differ significantly / not / cannot judge */
	int inside, outside, cj;          /* published difference inside / outside noise / cannot judge */
	json_t *inside_at, *outside_at;   /* labels of the comparisons */
};

static void fmt_stat(char *b, size_t n, const struct stats_summary *s)
{
	if (s->n >= 2)
		snprintf(b, n, "%.5g ±%.2g [%.5g, %.5g] n=%zu", s->mean, s->sd, s->min, s->max, s->n);
	else
		snprintf(b, n, "%.5g n=%zu", s->mean, s->n);
}

/*
 * One two-kernel comparison at @pt: the runs of baseline @b and kernel @k, Welch's
 * test, and the noise rule for published difference @pd (NAN when there is none),
 * a ratio k/b - 1 when @relative, else k - b.  Appends to @nz (text and counts).
 * Returns: the comparison as a JSON object (or null when the runs are missing).
 */
static json_t *compare_noise(const struct ctx *c, struct noise *nz, const char *label, const char *b,
			     const char *k, json_t *pt, const char *metric, int relative, double pd)
{
	double *xb, *xk;
	size_t nb = samples(c, b, pt, metric, &xb), nk = samples(c, k, pt, metric, &xk);
	if (!nb || !nk) {
		free(xb);
		free(xk);
		return json_null();
	}
	struct stats_summary sb, sk;
	stats_summarize(xb, nb, &sb);
	stats_summarize(xk, nk, &sk);
	struct stats_welch w;
	int have_w = stats_welch(xb, nb, xk, nk, &w) == 0 && isfinite(w.p);
	int sig = have_w ? w.p < 0.05 : -1;
	free(xb);
	free(xk);
	double sigma = stats_noise_sigma(&sb, &sk, relative, c->pub_runs);
	int in = stats_inside_noise(pd, sigma);
	const char *nv = in == 1 ? "inside noise" : in == 0 ? "outside noise" : "cannot judge";
	sig == 1 ? nz->sig++ : sig == 0 ? nz->notsig++ : nz->sig_cj++;
	in == 1 ? nz->inside++ : in == 0 ? nz->outside++ : nz->cj++;
	if (in >= 0)
		json_array_append_new(in ? nz->inside_at : nz->outside_at, json_string(label));

	if (sb.n < 2 || sk.n < 2) {
		report_str_append(&nz->text, &nz->len, "%s%s: %s n=%zu, %s n=%zu: cannot judge (fewer than two runs)",
				  nz->len ? "; " : "", label, b, sb.n, k, sk.n);
		goto out;
	}
	char tb[160], tk[160], sg[80], pub[200];
	fmt_stat(tb, sizeof tb, &sb);
	fmt_stat(tk, sizeof tk, &sk);
	if (have_w)
		snprintf(sg, sizeof sg, "%s (Welch p=%.3g)", sig ? "differ significantly" : "do not differ significantly",
			 w.p);
	else
		snprintf(sg, sizeof sg, "significance cannot be judged (fewer than two runs)");
	double scale = relative ? 100 : 1;
	const char *u = relative ? "%" : "";
	if (!isfinite(pd))
		snprintf(pub, sizeof pub, "no published difference");
	else if (!isfinite(sigma))
		snprintf(pub, sizeof pub, "published %+.3g%s: cannot judge (%s)", scale * pd, u,
			 sb.n < 2 || sk.n < 2 ? "fewer than two runs" : "no spread defined");
	else
		snprintf(pub, sizeof pub, "published %+.3g%s %s (2 sigma = %.3g%s)", scale * pd, u, nv,
			 scale * STATS_NOISE_K * sigma, u);
	report_str_append(&nz->text, &nz->len, "%s%s: %s %s, %s %s: %s; %s", nz->len ? "; " : "", label, b, tb, k,
			  tk, sg, pub);
out:;

	json_t *o = json_pack("{s:o,s:o,s:s}", "baseline", summary_json(&sb), "kernel", summary_json(&sk),
			      "quantity", relative ? "kernel/baseline - 1" : "kernel - baseline");
	json_object_set_new(o, "welch_p", have_w ? num(w.p) : json_null());
	json_object_set_new(o, "significant", sig < 0 ? json_null() : json_boolean(sig));
	json_object_set_new(o, "published", num(pd));
	json_object_set_new(o, "sigma", num(sigma));
	json_object_set_new(o, "band", num(STATS_NOISE_K * sigma));
	json_object_set_new(o, "published_inside_noise", in < 0 ? json_null() : json_boolean(in));
	json_object_set_new(o, "noise_verdict", json_string(nv));
	return o;
}

static void noise_init(struct noise *nz)
{
	memset(nz, 0, sizeof *nz);
	nz->inside_at = json_array();
	nz->outside_at = json_array();
}

/* Move @nz into claim object @o ("noise" text and "noise_summary"); frees @nz. */
static void noise_attach(json_t *o, struct noise *nz)
{
	int any = nz->sig + nz->notsig + nz->sig_cj;
	if (any) {
		json_object_set_new(o, "noise", json_string(nz->text ? nz->text : ""));
		json_object_set_new(o, "noise_summary",
				    json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:O}", "significant", nz->sig,
					      "not_significant", nz->notsig, "significance_cannot_judge", nz->sig_cj,
					      "inside_noise", nz->inside, "outside_noise", nz->outside,
					      "noise_cannot_judge", nz->cj, "inside_at", nz->inside_at, "outside_at",
					      nz->outside_at));
	}
	free(nz->text);
	json_decref(nz->inside_at);
	json_decref(nz->outside_at);
}

static int pub_value(const struct ctx *c, const char *kernel, json_t *pt, double *out)
{
	json_t *t = json_object_get(c->pub, "table");
	size_t ci, ri;
	json_t *col, *row;
	json_array_foreach(json_object_get(t, "columns"), ci, col) {
		if (strcmp(json_string_value(col), kernel))
			continue;
		json_array_foreach(json_object_get(t, "rows"), ri, row) {
			if (!json_equal(json_object_get(row, "point"), pt))
				continue;
			json_t *v = json_array_get(json_object_get(row, "values"), ci);
			if (!json_is_number(v))
				return -1;
			*out = json_number_value(v);
			return 0;
		}
	}
	return -1;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A cell of the table metric: published, emulated and the relative error. */
static json_t *cell(const struct ctx *c, const char *kernel, json_t *pt)
{
	double p = NAN, e = NAN;
	int hp = pub_value(c, kernel, pt, &p) == 0, he = emu_value(c, kernel, pt, c->metric, &e) == 0;
	json_t *o = json_pack("{s:s,s:O}", "kernel", kernel, "point", pt);
	json_object_set_new(o, "published", hp ? num(p) : json_null());
	json_object_set_new(o, "emulated", he ? num(e) : json_null());
	json_object_set_new(o, "rel_err", hp && he && p != 0 ? num(e / p - 1) : json_null());
	json_object_set_new(o, "runs", runs_json(c, kernel, pt, c->metric));
	return o;
}

/* The claim's points: "all" or absent -> every published row's point. */
static json_t *claim_points(const struct ctx *c, json_t *claim, const char *key)
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

static char *pt_text(json_t *pt)
{
	return json_dumps(pt, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(12));
}

struct verdict {
	const char *v;      /* "reproduced", "not reproduced", "not checked" */
	char *detail;
	size_t dlen;
	json_t *cells;
	struct noise nz;    /* two-kernel comparisons: runs, significance, noise rule */
};

#define DETAIL(vd, ...) report_str_append(&(vd)->detail, &(vd)->dlen, __VA_ARGS__)

static void not_checked(struct verdict *vd, const char *why)
{
	vd->v = "not checked";
	free(vd->detail);
	vd->detail = NULL;
	vd->dlen = 0;
	DETAIL(vd, "%s", why);
}

static double better_pct(const struct ctx *c, double base, double v)
{
	return 100.0 * (c->higher ? v / base - 1 : 1 - v / base);
}

static void judge_direction(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	const char *ex = json_string_value(json_object_get(cl, "expect"));
	if (!b || !k || !ex || (strcmp(ex, "better") && strcmp(ex, "worse")))
		return not_checked(vd, "claim lacks baseline, kernel or expect (better|worse)");
	int want_better = strcmp(ex, "better") == 0, ok = 1;
	json_t *pts = claim_points(c, cl, "points");
	size_t i;
	json_t *pt;
	json_array_foreach(pts, i, pt) {
		double eb, ek, pb, pk;
		if (emu_value(c, b, pt, c->metric, &eb) || emu_value(c, k, pt, c->metric, &ek) || eb == 0) {
			char *s = pt_text(pt), why[300];
			snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", c->metric, b, k, s);
			free(s);
			json_decref(pts);
			return not_checked(vd, why);
		}
		double d = better_pct(c, eb, ek);
		int is = want_better ? d > 0 : d < 0;
		ok &= is;
		char *s = pt_text(pt);
		DETAIL(vd, "%s%s: %s %+.1f%% vs %s", i ? "; " : "", s, k, d, b);
		if (pub_value(c, b, pt, &pb) == 0 && pub_value(c, k, pt, &pk) == 0 && pb != 0)
			DETAIL(vd, " (published %+.1f%%)", better_pct(c, pb, pk));
		if (!is)
			DETAIL(vd, " [wrong direction]");
		double pd = NAN;
		if (pub_value(c, b, pt, &pb) == 0 && pub_value(c, k, pt, &pk) == 0 && pb != 0)
			pd = pk / pb - 1;
		json_t *cb = cell(c, b, pt), *ck = cell(c, k, pt);
		json_object_set_new(ck, "noise", compare_noise(c, &vd->nz, s, b, k, pt, c->metric, 1, pd));
		free(s);
		json_array_append_new(vd->cells, cb);
		json_array_append_new(vd->cells, ck);
	}
	json_decref(pts);
	vd->v = ok ? "reproduced" : "not reproduced";
}

static void judge_shape(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	json_t *flat = json_object_get(cl, "flat_points"), *drop = json_object_get(cl, "drop_point");
	if (!k || (!json_is_array(flat) && !drop))
		return not_checked(vd, "claim lacks kernel and flat_points/drop_point");
	int ok = 1;
	double fmin = INFINITY, fmax = -INFINITY, fsum = 0;
	double pmin = INFINITY, pmax = -INFINITY, psum = 0;
	int pub_ok = 1;
	size_t i, nf = json_array_size(flat);
	json_t *pt;
	json_array_foreach(flat, i, pt) {
		double v, p;
		if (emu_value(c, k, pt, c->metric, &v)) {
			char *s = pt_text(pt), why[300];
			snprintf(why, sizeof why, "no emulated %s for %s at %s", c->metric, k, s);
			free(s);
			return not_checked(vd, why);
		}
		fmin = fmin < v ? fmin : v;
		fmax = fmax > v ? fmax : v;
		fsum += v;
		if (pub_value(c, k, pt, &p) == 0) {
			pmin = pmin < p ? pmin : p;
			pmax = pmax > p ? pmax : p;
			psum += p;
		} else {
			pub_ok = 0;
		}
		json_array_append_new(vd->cells, cell(c, k, pt));
	}
	if (nf) {
		double tol = json_number_value(json_object_get(cl, "flat_tolerance"));
		double spread = fmax != 0 ? (fmax - fmin) / fabs(fmax) : 0;
		int is = spread <= tol + 1e-12;
		ok &= is;
		DETAIL(vd, "%s flat: spread %.1f%% (need <= %.1f%%)", k, 100 * spread, 100 * tol);
		if (pub_ok && pmax != 0)
			DETAIL(vd, " (published %.1f%%)", 100 * (pmax - pmin) / fabs(pmax));
	}
	if (drop) {
		double v, p, at_least = json_number_value(json_object_get(cl, "drop_at_least"));
		if (emu_value(c, k, drop, c->metric, &v) || !nf || fsum == 0)
			return not_checked(vd, "no emulated value at the drop point (or no flat points to drop from)");
		double dr = 1 - v / (fsum / (double)nf);
		int is = dr >= at_least - 1e-12;
		ok &= is;
		char *s = pt_text(drop);
		DETAIL(vd, "%sdrop at %s: %.1f%% below the flat mean (need >= %.1f%%)", nf ? "; " : "", s,
		       100 * dr, 100 * at_least);
		free(s);
		if (pub_ok && pub_value(c, k, drop, &p) == 0 && psum != 0)
			DETAIL(vd, " (published %.1f%%)", 100 * (1 - p / (psum / (double)nf)));
		json_array_append_new(vd->cells, cell(c, k, drop));
	}
	vd->v = ok ? "reproduced" : "not reproduced";
}

static void judge_value(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	json_t *ex = json_object_get(cl, "expect");
	if (!metric)
		metric = c->metric;
	if (!json_is_object(ex))
		return not_checked(vd, "claim lacks expect {kernel: [lo, hi]}");
	json_t *pts = claim_points(c, cl, "points");
	int ok = 1, first = 1;
	const char *k;
	json_t *range;
	json_object_foreach(ex, k, range) {
		double lo = json_number_value(json_array_get(range, 0));
		double hi = json_number_value(json_array_get(range, 1));
		size_t i;
		json_t *pt;
		json_array_foreach(pts, i, pt) {
			double v;
			char *s = pt_text(pt);
			if (emu_value(c, k, pt, metric, &v)) {
				char why[300];
				snprintf(why, sizeof why, "no emulated %s for %s at %s", metric, k, s);
				free(s);
				json_decref(pts);
				return not_checked(vd, why);
			}
			int is = v >= lo - 1e-9 && v <= hi + 1e-9;
			ok &= is;
			DETAIL(vd, "%s%s %s at %s = %.4g (need [%g, %g])%s", first ? "" : "; ", k, metric, s, v,
			       lo, hi, is ? "" : " [out of range]");
			first = 0;
			json_array_append_new(vd->cells, json_pack("{s:s,s:O,s:s,s:o,s:[f,f],s:o}", "kernel", k, "point",
								   pt, "metric", metric, "emulated", num(v),
								   "expect", lo, hi, "runs", runs_json(c, k, pt, metric)));
			free(s);
		}
	}
	json_decref(pts);
	vd->v = ok ? "reproduced" : "not reproduced";
}

static void judge_relative(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	json_t *range = json_object_get(cl, "expect_range");
	if (!metric)
		metric = c->metric;
	if (!b || !k || json_array_size(range) != 2)
		return not_checked(vd, "claim lacks baseline, kernel or expect_range [lo, hi]");
	double lo = json_number_value(json_array_get(range, 0)), hi = json_number_value(json_array_get(range, 1));
	json_t *pts = claim_points(c, cl, "points");
	int ok = 1;
	size_t i;
	json_t *pt;
	json_array_foreach(pts, i, pt) {
		double eb, ek;
		char *s = pt_text(pt);
		if (emu_value(c, b, pt, metric, &eb) || emu_value(c, k, pt, metric, &ek) || eb == 0) {
			char why[300];
			snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", metric, b, k, s);
			free(s);
			json_decref(pts);
			return not_checked(vd, why);
		}
		double r = ek / eb - 1;
		int is = r >= lo - 1e-9 && r <= hi + 1e-9;
		ok &= is;
		DETAIL(vd, "%s%s: %s/%s - 1 = %+.1f%% (need %+.1f%% .. %+.1f%%)%s", i ? "; " : "", s, k, b,
		       100 * r, 100 * lo, 100 * hi, is ? "" : " [out of range]");
		double pb, pk, pd = NAN;
		if (!strcmp(metric, c->metric) && pub_value(c, b, pt, &pb) == 0 && pub_value(c, k, pt, &pk) == 0 &&
		    pb != 0)
			pd = pk / pb - 1;
		json_t *cj = json_pack("{s:O,s:s,s:o,s:o,s:o}", "point", pt, "metric", metric, "baseline", num(eb),
				       "emulated", num(ek), "relative", num(r));
		json_object_set_new(cj, "noise", compare_noise(c, &vd->nz, s, b, k, pt, metric, 1, pd));
		json_array_append_new(vd->cells, cj);
		free(s);
	}
	json_decref(pts);
	vd->v = ok ? "reproduced" : "not reproduced";
}

static void judge_series(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *name = json_string_value(json_object_get(cl, "series"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	json_t *mc = json_object_get(cl, "min_changes");
	long need = json_is_integer(mc) ? (long)json_integer_value(mc) : 2;
	if (!name || !k)
		return not_checked(vd, "claim lacks series or kernel");
	json_t *pts = json_object_get(cl, "points");
	size_t i, nruns = 0;
	long least = -1;
	int ok = 1;
	json_t *r;
	json_array_foreach(c->runs, i, r) {
		if (!run_in(c, r, k, NULL))
			continue;
		if (json_is_array(pts)) {
			size_t j;
			json_t *pt;
			int in = 0;
			json_array_foreach(pts, j, pt) in |= json_equal(json_object_get(json_object_get(r, "point"), c->point_key), pt);
			if (!in)
				continue;
		}
		json_t *v = json_object_get(json_object_get(json_object_get(r, "series"), name), "v");
		if (!json_is_array(v)) {
			char why[300];
			snprintf(why, sizeof why, "the emulated runs of %s have no series \"%s\"", k, name);
			return not_checked(vd, why);
		}
		long changes = 0;
		for (size_t j = 1; j < json_array_size(v); j++)
			changes += json_number_value(json_array_get(v, j)) != json_number_value(json_array_get(v, j - 1));
		if (least < 0 || changes < least)
			least = changes;
		ok &= changes >= need;
		nruns++;
	}
	if (!nruns) {
		char why[300];
		snprintf(why, sizeof why, "no emulated runs of %s", k);
		return not_checked(vd, why);
	}
	DETAIL(vd, "%s: series %s changes at least %ld times in each of %zu runs (need >= %ld)", k, name, least,
	       nruns, need);
	vd->v = ok ? "reproduced" : "not reproduced";
}

static json_t *judge(const struct ctx *c, json_t *cl)
{
	struct verdict vd = { "not checked", NULL, 0, json_array(), { 0 } };
	noise_init(&vd.nz);
	const char *kind = json_string_value(json_object_get(cl, "kind"));
	if (!strcmp(kind, "direction"))
		judge_direction(c, cl, &vd);
	else if (!strcmp(kind, "shape"))
		judge_shape(c, cl, &vd);
	else if (!strcmp(kind, "value"))
		judge_value(c, cl, &vd);
	else if (!strcmp(kind, "relative"))
		judge_relative(c, cl, &vd);
	else if (!strcmp(kind, "series-varies"))
		judge_series(c, cl, &vd);
	else
		DETAIL(&vd, "unknown claim kind \"%s\"", kind);
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "id",
			      json_string_value(json_object_get(cl, "id")) ?: "", "kind", kind, "text",
			      json_string_value(json_object_get(cl, "text")) ?: "", "verdict", vd.v, "detail",
			      vd.detail ? vd.detail : "", "cells", vd.cells);
	noise_attach(o, &vd.nz);
	free(vd.detail);
	return o;
}

/* ---- the several-tables form ----------------------------------------------------
 *
 * "tables": [{ "id", "metric"?, "rows": [{ "test", "point"?, "values": {column:
 * number or {metric: number}} }] }].  A row with a "point" (an object of sweep
 * key: value) is compared with the emulated runs whose point has those values;
 * the emulated value of a metric is the mean over those runs.  Kinds: relative,
 * flat, difference (see judge_tables()). */

static json_t *find_table(json_t *pub, const char *id)
{
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(pub, "tables"), i, t) {
		const char *tid = json_string_value(json_object_get(t, "id"));
		if (tid && id && !strcmp(tid, id))
			return t;
	}
	return NULL;
}

/* Does run @r have every key: value of @pt in its point? */
static int run_at(json_t *r, json_t *pt)
{
	json_t *point = json_object_get(r, "point");
	const char *k;
	json_t *v;
	json_object_foreach(pt, k, v) if (!json_equal(json_object_get(point, k), v)) return 0;
	return 1;
}

/* A run's @metric; "elapsed_s" is the primary metric when the run has no metric
 * of that name (kernbench's primary is "elapsed"). */
static int tables_run_value(json_t *r, const char *metric, double *v)
{
	if (report_run_value(r, metric, v) == 0)
		return 0;
	json_t *x = json_object_get(json_object_get(r, "primary"), "value");
	if (!strcmp(metric, "elapsed_s") && json_is_number(x)) {
		*v = json_number_value(x);
		return 0;
	}
	return -1;
}

/* Mean over runs of @metric for published kernel @kernel at @pt: 0, or -1 when missing. */
static int tables_emu(const struct ctx *c, const char *kernel, json_t *pt, const char *metric, double *out)
{
	size_t i, n = 0;
	json_t *r;
	double s = 0;
	json_array_foreach(c->runs, i, r) {
		double v;
		if (strcmp(json_string_value(json_object_get(r, "kernel")) ?: "", map_kernel(c, kernel)) || !run_at(r, pt))
			continue;
		if (tables_run_value(r, metric, &v))
			return -1;
		s += v;
		n++;
	}
	if (!n)
		return -1;
	*out = s / (double)n;
	return 0;
}

/* The published value of @metric in column @kernel of @row: 0, or -1 when missing. */
static int tables_pub(json_t *table, json_t *row, const char *kernel, const char *metric, double *out)
{
	json_t *v = json_object_get(json_object_get(row, "values"), kernel);
	const char *tm = json_string_value(json_object_get(table, "metric"));
	if (json_is_object(v))
		v = json_object_get(v, metric);
	else if (tm && strcmp(tm, metric))
		v = NULL;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* The compared quantity: kernel/baseline - 1, or kernel - baseline for "difference". */
static int tables_quantity(int diff, double b, double k, double *q)
{
	if (!diff && b == 0)
		return -1;
	*q = diff ? k - b : k / b - 1;
	return 0;
}

static void judge_tables(const struct ctx *c, json_t *cl, struct verdict *vd)
{
	const char *kind = json_string_value(json_object_get(cl, "kind")) ?: "";
	const char *tid = json_string_value(json_object_get(cl, "table"));
	const char *b = json_string_value(json_object_get(cl, "baseline"));
	const char *k = json_string_value(json_object_get(cl, "kernel"));
	const char *metric = json_string_value(json_object_get(cl, "metric"));
	int diff = !strcmp(kind, "difference"), flat = !strcmp(kind, "flat");
	char why[400];
	if (!flat && !diff && strcmp(kind, "relative")) {
		snprintf(why, sizeof why, "unknown claim kind \"%s\"", kind);
		return not_checked(vd, why);
	}
	json_t *table = find_table(c->pub, tid);
	if (!table) {
		snprintf(why, sizeof why, "no published table \"%s\"", tid ? tid : "(none)");
		return not_checked(vd, why);
	}
	if (!metric)
		metric = json_string_value(json_object_get(table, "metric"));
	double lo, hi;
	if (flat) {
		json_t *tol = json_object_get(cl, "tolerance");
		if (!b || !k || !metric || !json_is_number(tol))
			return not_checked(vd, "claim lacks baseline, kernel, metric or tolerance");
		hi = json_number_value(tol);
		lo = -hi;
	} else {
		json_t *range = json_object_get(cl, "expect_range");
		if (!b || !k || !metric || json_array_size(range) != 2)
			return not_checked(vd, "claim lacks baseline, kernel, metric or expect_range [lo, hi]");
		lo = json_number_value(json_array_get(range, 0));
		hi = json_number_value(json_array_get(range, 1));
	}
	/* the rows: "row", "rows", or every row of the table */
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
			json_array_foreach(json_object_get(table, "rows"), j, row)
				if (json_equal(json_object_get(row, "test"), w))
					found = row;
			if (!found) {
				snprintf(why, sizeof why, "no row \"%s\" in published table \"%s\"",
					 json_string_value(w) ?: "?", tid);
				json_decref(want);
				json_decref(rows);
				return not_checked(vd, why);
			}
			json_array_append(rows, found);
		}
	} else {
		json_array_extend(rows, json_object_get(table, "rows"));
	}
	json_decref(want);
	json_array_foreach(rows, i, row) {
		if (!json_is_object(json_object_get(row, "point"))) {
			snprintf(why, sizeof why, "no emulated sweep point for row \"%s\" of table \"%s\"",
				 json_string_value(json_object_get(row, "test")) ?: "?", tid);
			json_decref(rows);
			return not_checked(vd, why);
		}
	}
	int ok = 1;
	json_array_foreach(rows, i, row) {
		json_t *pt = json_object_get(row, "point");
		const char *test = json_string_value(json_object_get(row, "test")) ?: "?";
		char *s = pt_text(pt);
		double eb, ek, e, pb, pk, p;
		if (tables_emu(c, b, pt, metric, &eb) || tables_emu(c, k, pt, metric, &ek) ||
		    tables_quantity(diff, eb, ek, &e)) {
			snprintf(why, sizeof why, "no emulated %s for %s and %s at %s", metric, b, k, s);
			free(s);
			json_decref(rows);
			return not_checked(vd, why);
		}
		int hp = tables_pub(table, row, b, metric, &pb) == 0 && tables_pub(table, row, k, metric, &pk) == 0 &&
			 tables_quantity(diff, pb, pk, &p) == 0;
		int is = flat ? fabs(e) <= hi + 1e-9 : e >= lo - 1e-9 && e <= hi + 1e-9;
		ok &= is;
		char pubs[128] = "-";
		if (diff) {
			if (hp)
				snprintf(pubs, sizeof pubs, "%+.4g (%.6g vs %.6g)", p, pk, pb);
			DETAIL(vd, "%s%s %s: %s %s - %s: published %s, emulated %+.4g (%.6g vs %.6g) (need %g .. %g)%s",
			       i ? "; " : "", test, s, metric, k, b, pubs, e, ek, eb, lo, hi, is ? "" : " [out of range]");
		} else {
			if (hp)
				snprintf(pubs, sizeof pubs, "%+.1f%% (%.6g vs %.6g)", 100 * p, pk, pb);
			if (flat)
				DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%.6g vs %.6g) "
					   "(need |.| <= %.1f%%)%s",
				       i ? "; " : "", test, s, metric, k, b, pubs, 100 * e, ek, eb, 100 * hi,
				       is ? "" : " [not flat]");
			else
				DETAIL(vd, "%s%s %s: %s %s/%s - 1: published %s, emulated %+.1f%% (%.6g vs %.6g) "
					   "(need %+.1f%% .. %+.1f%%)%s",
				       i ? "; " : "", test, s, metric, k, b, pubs, 100 * e, ek, eb, 100 * lo, 100 * hi,
				       is ? "" : " [out of range]");
		}
		json_t *cellj = json_pack("{s:s,s:s,s:O,s:s,s:{s:o,s:o,s:o},s:{s:f,s:f,s:f}}", "table", tid, "row", test,
					  "point", pt, "metric", metric, "published", "baseline",
					  hp ? num(pb) : json_null(), "kernel", hp ? num(pk) : json_null(), "value",
					  hp ? num(p) : json_null(), "emulated", "baseline", eb, "kernel", ek, "value", e);
		char label[300];
		snprintf(label, sizeof label, "%s %s", test, s);
		json_object_set_new(cellj, "noise",
				    compare_noise(c, &vd->nz, label, b, k, pt, metric, !diff, hp ? p : NAN));
		json_array_append_new(vd->cells, cellj);
		free(s);
	}
	json_decref(rows);
	vd->v = ok ? "reproduced" : "not reproduced";
}

static json_t *judge_tables_claim(const struct ctx *c, json_t *cl)
{
	struct verdict vd = { "not checked", NULL, 0, json_array(), { 0 } };
	noise_init(&vd.nz);
	const char *kind = json_string_value(json_object_get(cl, "kind")) ?: "";
	judge_tables(c, cl, &vd);
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "id",
			      json_string_value(json_object_get(cl, "id")) ?: "", "kind", kind, "text",
			      json_string_value(json_object_get(cl, "text")) ?: "", "verdict", vd.v, "detail",
			      vd.detail ? vd.detail : "", "cells", vd.cells);
	noise_attach(o, &vd.nz);
	free(vd.detail);
	return o;
}

/* ---- one seed ------------------------------------------------------------------ */

static double pub_runs(json_t *pub)
{
	json_t *pr = json_object_get(pub, "published_runs");
	return json_is_integer(pr) && json_integer_value(pr) >= 1 ? (double)json_integer_value(pr) : 1;
}

/* Add claim @cl's noise comparisons to the seed's lists (@in, @out: "ID: POINT"). */
static void seed_noise_add(json_t *in, json_t *out, int *cj, json_t *cl, const char *group)
{
	json_t *ns = json_object_get(cl, "noise_summary");
	const char *id = json_string_value(json_object_get(cl, "id")) ?: "";
	json_t *lists[2] = { json_object_get(ns, "inside_at"), json_object_get(ns, "outside_at") };
	json_t *to[2] = { in, out };
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *v;
		json_array_foreach(lists[l], i, v) {
			char buf[600];
			snprintf(buf, sizeof buf, "%s%s%s: %s", id, *group ? " with " : "", group, json_string_value(v));
			json_array_append_new(to[l], json_string(buf));
		}
	}
	*cj += (int)json_integer_value(json_object_get(ns, "noise_cannot_judge"));
}

/* The seed's "noise" object: which published differences lie inside the emulated noise. */
static json_t *seed_noise(json_t *o, double m)
{
	json_t *in = json_array(), *out = json_array();
	int cj = 0;
	size_t i, j;
	json_t *cl, *t;
	json_array_foreach(json_object_get(o, "claims"), i, cl)
		seed_noise_add(in, out, &cj, cl, "");
	json_array_foreach(json_object_get(o, "tables"), j, t)
		json_array_foreach(json_object_get(t, "claims"), i, cl)
			seed_noise_add(in, out, &cj, cl, json_string_value(json_object_get(t, "label")) ?: "");
	char rule[300];
	snprintf(rule, sizeof rule,
		 "a published difference d is inside the emulated noise when |d| <= %g sigma, sigma the emulated "
		 "standard deviation of one run's difference%s",
		 STATS_NOISE_K, m > 1 ? " divided by sqrt(published_runs)" : "");
	return json_pack("{s:s,s:f,s:o,s:o,s:i}", "rule", rule, "published_runs", m, "inside", in, "outside", out,
			 "cannot_judge", cj);
}

static json_t *evaluate(struct seed *s)
{
	json_t *pub = s->pub, *t = json_object_get(pub, "table");
	json_t *o = json_pack("{s:s,s:s}", "seed", s->id, "status", s->status);
	const char *fields[] = { "title", "source", "machine", "scenario", "metric", "unit", "better", NULL };
	for (int i = 0; fields[i]; i++)
		if (json_object_get(pub, fields[i]))
			json_object_set(o, fields[i], json_object_get(pub, fields[i]));
	if (*s->note)
		json_object_set_new(o, "note", json_string(s->note));
	json_t *tables = json_array();
	json_object_set_new(o, "tables", tables);
	int counts[3] = { 0, 0, 0 };
	if (!t) {
		/* the several-tables form (seed 001 on): show the published tables and judge
		 * the claims on rows that name an emulated sweep point (judge_tables()) */
		json_object_set(o, "published_tables", json_object_get(pub, "tables"));
		if (s->res) {
			json_object_set_new(o, "results", json_string(s->results_path));
			json_t *claims = json_array();
			size_t i;
			json_t *cl;
			json_t *empty = json_object();
			struct ctx c = { pub, json_object_get(s->res, "runs"), NULL, NULL, 1, empty, pub_runs(pub) };
			json_array_foreach(json_object_get(pub, "claims"), i, cl) {
				json_t *v = judge_tables_claim(&c, cl);
				const char *vs = json_string_value(json_object_get(v, "verdict"));
				counts[!strcmp(vs, "reproduced") ? 0 : !strcmp(vs, "not reproduced") ? 1 : 2]++;
				json_array_append_new(claims, v);
			}
			json_decref(empty);
			json_object_set_new(o, "claims", claims);
			json_object_set_new(o, "noise", seed_noise(o, pub_runs(pub)));
		}
		json_object_set_new(o, "summary", json_pack("{s:i,s:i,s:i}", "reproduced", counts[0],
							    "not_reproduced", counts[1], "not_checked", counts[2]));
		return o;
	}
	if (s->res) {
		if (strncmp(s->status, "run failed", 10))
			json_object_set_new(o, "results", json_string(s->results_path));
		struct ctx c = { pub, json_object_get(s->res, "runs"),
				 json_string_value(json_object_get(t, "point_key")),
				 json_string_value(json_object_get(pub, "metric")), 1, NULL, pub_runs(pub) };
		const char *better = json_string_value(json_object_get(pub, "better"));
		c.higher = !better || strcmp(better, "lower") != 0;
		/* the groups: values of the other sweep axes, in order of first appearance */
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
			char *lbl = scenario_point_label(g);
			json_t *rows = json_array(), *claims = json_array();
			size_t ri;
			json_t *row;
			json_array_foreach(json_object_get(t, "rows"), ri, row) {
				json_t *cells = json_array();
				size_t ci;
				json_t *col;
				json_array_foreach(json_object_get(t, "columns"), ci, col)
					json_array_append_new(cells, cell(&c, json_string_value(col), json_object_get(row, "point")));
				json_array_append_new(rows, json_pack("{s:O,s:o}", "point", json_object_get(row, "point"),
								      "cells", cells));
			}
			json_t *cl;
			json_array_foreach(json_object_get(pub, "claims"), ri, cl) {
				json_t *v = judge(&c, cl);
				const char *vs = json_string_value(json_object_get(v, "verdict"));
				counts[!strcmp(vs, "reproduced") ? 0 : !strcmp(vs, "not reproduced") ? 1 : 2]++;
				json_array_append_new(claims, v);
			}
			json_array_append_new(tables, json_pack("{s:O,s:s,s:o,s:o}", "group", g, "label",
								lbl ? lbl : "", "rows", rows, "claims", claims));
			free(lbl);
		}
		json_decref(groups);
		json_object_set_new(o, "noise", seed_noise(o, pub_runs(pub)));
	}
	json_object_set_new(o, "summary", json_pack("{s:i,s:i,s:i}", "reproduced", counts[0], "not_reproduced",
						    counts[1], "not_checked", counts[2]));
	return o;
}

/* ---- printing ------------------------------------------------------------------- */

static void fmt_num(char *b, size_t n, json_t *v)
{
	if (!json_is_number(v)) {
		snprintf(b, n, "-");
		return;
	}
	double x = json_number_value(v);
	if (fabs(x) >= 1000 || x == floor(x))
		snprintf(b, n, "%.0f", x);
	else
		snprintf(b, n, "%.4g", x);
}

static void print_claim_noise(json_t *cl, FILE *f, int md)
{
	const char *n = json_string_value(json_object_get(cl, "noise"));
	if (n && *n)
		fprintf(f, md ? "  Noise: %s\n" : "      noise: %s\n", n);
}

/* Which published differences lie inside the emulated run-to-run noise. */
static void print_seed_noise(json_t *o, FILE *f, int md)
{
	json_t *nz = json_object_get(o, "noise");
	if (!nz)
		return;
	json_t *lists[2] = { json_object_get(nz, "inside"), json_object_get(nz, "outside") };
	const char *names[2] = { "inside the emulated noise", "outside the emulated noise" };
	fprintf(f, md ? "\nRun-to-run noise (%s):\n\n" : "  run-to-run noise (%s):\n",
		json_string_value(json_object_get(nz, "rule")));
	for (int l = 0; l < 2; l++) {
		fprintf(f, md ? "- published differences %s: " : "    published differences %s: ", names[l]);
		size_t i;
		json_t *v;
		if (json_array_size(lists[l]) == 0)
			fprintf(f, "none");
		json_array_foreach(lists[l], i, v)
			fprintf(f, "%s%s", i ? "; " : "", json_string_value(v));
		fputc('\n', f);
	}
	long long cj = (long long)json_integer_value(json_object_get(nz, "cannot_judge"));
	if (cj)
		fprintf(f, md ? "- cannot judge (fewer than two runs or no published value): %lld comparisons\n"
			      : "    cannot judge (fewer than two runs or no published value): %lld comparisons\n",
			cj);
}

static void print_seed(json_t *pub, json_t *o, FILE *f, int md)
{
	const char *seed = json_string_value(json_object_get(o, "seed"));
	const char *title = json_string_value(json_object_get(o, "title"));
	const char *status = json_string_value(json_object_get(o, "status"));
	fprintf(f, md ? "## Seed %s: %s\n\n" : "seed %s: %s\n", seed, title ? title : "");
	if (json_object_get(o, "source"))
		fprintf(f, md ? "Source: %s  \n" : "  source: %s\n", json_string_value(json_object_get(o, "source")));
	json_t *scn = json_object_get(o, "scenario");
	char names[600] = "";
	if (json_is_array(scn)) {
		size_t i;
		json_t *v;
		json_array_foreach(scn, i, v) {
			size_t l = strlen(names);
			snprintf(names + l, sizeof names - l, "%s%s", i ? (md ? "`, `" : ", ") : "",
				 json_string_value(v));
		}
	} else {
		snprintf(names, sizeof names, "%s", json_string_value(scn) ? json_string_value(scn) : "");
	}
	fprintf(f, md ? "Scenario: `%s` — %s  \n" : "  scenario: %s (%s)\n", names, status);
	if (json_object_get(o, "note"))
		fprintf(f, md ? "Note: %s  \n" : "  note: %s\n", json_string_value(json_object_get(o, "note")));
	json_t *tables = json_object_get(o, "tables");
	json_t *ptabs = json_object_get(o, "published_tables");
	if (ptabs) {
		size_t i, ri;
		json_t *pt, *row;
		json_array_foreach(ptabs, i, pt) {
			const char *m = json_string_value(json_object_get(pt, "metric"));
			fprintf(f, md ? "\nPublished table `%s`%s%s:\n\n" : "  published table %s%s%s:\n",
				json_string_value(json_object_get(pt, "id")) ?: "", m ? ", metric " : "", m ? m : "");
			json_array_foreach(json_object_get(pt, "rows"), ri, row) {
				json_t *lbl = json_object_get(row, "test");
				if (!lbl)
					lbl = json_object_get(row, "point");
				char *l = pt_text(lbl), *v = pt_text(json_object_get(row, "values"));
				json_t *rp = json_object_get(row, "test") ? json_object_get(row, "point") : NULL;
				char *p = rp ? pt_text(rp) : NULL;
				fprintf(f, md ? "- %s%s%s%s: `%s`\n" : "    %s%s%s%s: %s\n", l ? l : "-", p ? " (point " : "",
					p ? p : "", p ? ")" : "", v ? v : "-");
				free(l);
				free(v);
				free(p);
			}
		}
		json_t *cl;
		if (json_array_size(json_object_get(o, "claims")))
			fprintf(f, md ? "\nClaims:\n\n" : "  claims:\n");
		json_array_foreach(json_object_get(o, "claims"), i, cl) {
			fprintf(f, md ? "- **%s** `%s` (%s): %s  \n  %s\n" : "    [%s] %s (%s): %s\n      %s\n",
				json_string_value(json_object_get(cl, "verdict")), json_string_value(json_object_get(cl, "id")),
				json_string_value(json_object_get(cl, "kind")), json_string_value(json_object_get(cl, "text")),
				json_string_value(json_object_get(cl, "detail")));
			print_claim_noise(cl, f, md);
		}
		print_seed_noise(o, f, md);
		json_t *sm = json_object_get(o, "summary");
		if (json_object_get(o, "claims"))
			fprintf(f, md ? "\nSummary: %lld reproduced, %lld not reproduced, %lld not checked.\n"
				      : "  summary: %lld reproduced, %lld not reproduced, %lld not checked\n",
				(long long)json_integer_value(json_object_get(sm, "reproduced")),
				(long long)json_integer_value(json_object_get(sm, "not_reproduced")),
				(long long)json_integer_value(json_object_get(sm, "not_checked")));
		fputc('\n', f);
		return;
	}
	if (json_array_size(tables) == 0) {
		fputc('\n', f);
		return;
	}
	fprintf(f, md ? "Metric: %s (%s), %s is better; cells: published / emulated mean over runs / its sd [min, max] "
			"and runs / error = emulated/published - 1\n\n"
		      : "  metric: %s (%s), %s is better; cells: published, emulated mean over runs, sd [min, max] runs, "
			"error = emulated/published - 1\n",
		json_string_value(json_object_get(pub, "metric")),
		json_string_value(json_object_get(pub, "unit")) ?: "",
		json_string_value(json_object_get(pub, "better")) ?: "higher");
	json_t *t = json_object_get(pub, "table");
	json_t *cols = json_object_get(t, "columns");
	int nk = (int)json_array_size(cols);
	size_t gi;
	json_t *g;
	json_array_foreach(tables, gi, g) {
		const char *lbl = json_string_value(json_object_get(g, "label"));
		fprintf(f, md ? "### Emulated%s%s\n\n" : "\n  emulated%s%s:\n", *lbl ? " with " : "", lbl);
		struct rtable rt;
		rtable_init(&rt, 1 + 4 * nk, 1, 1);
		rtable_add(&rt, NULL);
		rtable_setf(&rt, 0, "%s", json_string_value(json_object_get(t, "point_key")));
		for (int k = 0; k < nk; k++) {
			const char *kn = json_string_value(json_array_get(cols, (size_t)k));
			rtable_setf(&rt, 1 + 4 * k, "%s pub", kn);
			rtable_setf(&rt, 2 + 4 * k, "emulated");
			rtable_setf(&rt, 3 + 4 * k, "sd [min, max] n");
			rtable_setf(&rt, 4 + 4 * k, "error");
		}
		size_t ri;
		json_t *row;
		json_array_foreach(json_object_get(g, "rows"), ri, row) {
			rtable_add(&rt, NULL);
			char *s = pt_text(json_object_get(row, "point"));
			rtable_setf(&rt, 0, "%s", s);
			free(s);
			for (int k = 0; k < nk; k++) {
				json_t *cl = json_array_get(json_object_get(row, "cells"), (size_t)k);
				char b[64];
				fmt_num(b, sizeof b, json_object_get(cl, "published"));
				rtable_setf(&rt, 1 + 4 * k, "%s", b);
				fmt_num(b, sizeof b, json_object_get(cl, "emulated"));
				rtable_setf(&rt, 2 + 4 * k, "%s", b);
				json_t *ru = json_object_get(cl, "runs");
				if (json_is_number(json_object_get(ru, "stddev")))
					rtable_setf(&rt, 3 + 4 * k, "%.3g [%.5g, %.5g] %lld",
						    json_number_value(json_object_get(ru, "stddev")),
						    json_number_value(json_object_get(ru, "min")),
						    json_number_value(json_object_get(ru, "max")),
						    (long long)json_integer_value(json_object_get(ru, "n")));
				else if (json_is_object(ru))
					rtable_setf(&rt, 3 + 4 * k, "- (%lld run)", (long long)json_integer_value(json_object_get(ru, "n")));
				else
					rtable_setf(&rt, 3 + 4 * k, "-");
				json_t *re = json_object_get(cl, "rel_err");
				if (json_is_number(re))
					rtable_setf(&rt, 4 + 4 * k, "%+.1f%%", 100 * json_number_value(re));
				else
					rtable_setf(&rt, 4 + 4 * k, "-");
			}
		}
		rtable_print(&rt, f, md ? "" : "    ", md);
		rtable_free(&rt);
		fprintf(f, md ? "\nClaims:\n\n" : "  claims:\n");
		json_t *cl;
		json_array_foreach(json_object_get(g, "claims"), ri, cl) {
			const char *v = json_string_value(json_object_get(cl, "verdict"));
			if (md)
				fprintf(f, "- **%s** `%s` (%s): %s  \n  %s\n", v,
					json_string_value(json_object_get(cl, "id")),
					json_string_value(json_object_get(cl, "kind")),
					json_string_value(json_object_get(cl, "text")),
					json_string_value(json_object_get(cl, "detail")));
			else
				fprintf(f, "    [%s] %s: %s\n      %s\n", v, json_string_value(json_object_get(cl, "id")),
					json_string_value(json_object_get(cl, "text")),
					json_string_value(json_object_get(cl, "detail")));
			print_claim_noise(cl, f, md);
		}
	}
	print_seed_noise(o, f, md);
	json_t *sm = json_object_get(o, "summary");
	fprintf(f, md ? "\nSummary: %lld reproduced, %lld not reproduced, %lld not checked.\n\n"
		      : "  summary: %lld reproduced, %lld not reproduced, %lld not checked\n\n",
		(long long)json_integer_value(json_object_get(sm, "reproduced")),
		(long long)json_integer_value(json_object_get(sm, "not_reproduced")),
		(long long)json_integer_value(json_object_get(sm, "not_checked")));
}

/* ---- the command -------------------------------------------------------------------- */

int cmd_reproduce(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "jobs", required_argument, NULL, 'j' },     { "no-run", no_argument, NULL, 'n' },
		{ "published", required_argument, NULL, 'p' }, { "runs", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },      { "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(reproduce_usage, stdout);
		return 0;
	}
	const char *pubdir = "results/published", *runsdir = "results/runs", *outdir = "results";
	int jobs = 2, norun = 0, quiet = 0, opt;
	long l;
	char msg[1300];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:q", lopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l)) {
				snprintf(msg, sizeof msg, "-j: expected an integer in [1, 1024], not \"%s\"", optarg);
				return cli_usage_error("reproduce", "%s", msg);
			}
			jobs = (int)l;
			break;
		case 'n': norun = 1; break;
		case 'p': pubdir = optarg; break;
		case 'r': runsdir = optarg; break;
		case 'o': outdir = optarg; break;
		case 'q': quiet = 1; break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error("reproduce", "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error("reproduce", "%s", msg);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("reproduce", "expected at most one SEED");
	const char *want = argc - optind == 1 ? argv[optind] : "all";

	/* the published files, sorted by name */
	DIR *d = opendir(pubdir);
	if (!d) {
		snprintf(msg, sizeof msg, "cannot open the published directory %s", pubdir);
		return cli_usage_error("reproduce", "%s", msg);
	}
	char **names = NULL;
	int nn = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			names = realloc(names, (size_t)(nn + 1) * sizeof *names);
			names[nn++] = strdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, (size_t)nn, sizeof *names, cmp_str);
	struct seed *seeds = calloc((size_t)(nn ? nn : 1) * MAX_PARTS, sizeof *seeds);
	int ns = 0, rc = 0;
	struct mm_err e = { "" };
	char have[400] = "";
	for (int i = 0; i < nn && rc == 0; i++) {
		struct seed *s = &seeds[ns];
		snprintf(s->path, sizeof s->path, "%s/%s", pubdir, names[i]);
		json_error_t je;
		s->pub = json_load_file(s->path, 0, &je);
		if (!s->pub) {
			char w[32];
			snprintf(w, sizeof w, "line %d", je.line);
			mm_errf(&e, s->path, w, "%s", je.text);
			rc = 2;
		} else if (check_published(s->path, s->pub, &e)) {
			json_decref(s->pub);
			rc = 2;
		}
		if (rc) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			break;
		}
		s->id = json_string_value(json_object_get(s->pub, "seed"));
		size_t hl = strlen(have);
		snprintf(have + hl, sizeof have - hl, "%s%s", hl ? ", " : "", s->id);
		if (strcmp(want, "all") && !seed_matches(want, s->id)) {
			json_decref(s->pub);
			continue;
		}
		const char *parts[MAX_PARTS];
		int np = scenario_parts(s->pub, parts);
		for (int k = 0; k < np; k++) {
			struct seed *q = &seeds[ns + k];
			if (k) {
				*q = *s;
				json_incref(q->pub);
			}
			q->scenario = parts[k];
			q->part = k;
			q->nparts = np;
		}
		ns += np;
	}
	for (int i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	if (rc == 0 && ns == 0) {
		fprintf(stderr, "mmemu reproduce: no published seed \"%s\" in %s (have: %s)\n", want, pubdir,
			*have ? have : "none");
		rc = 2;
	}
	/* load the scenarios that exist */
	for (int i = 0; rc == 0 && i < ns; i++) {
		struct seed *s = &seeds[i];
		struct stat st;
		if (stat(s->scenario, &st)) {
			snprintf(s->status, sizeof s->status, "not yet modelled");
			continue;
		}
		if (scenario_load(&s->sc, s->scenario, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 2;
			break;
		}
		s->loaded = 1;
		char stem[256];
		snprintf(s->results_path, sizeof s->results_path, "%s/%s.json", runsdir,
			 sweep_stem(s->scenario, stem, sizeof stem));
	}
	/* run them (one pool for all seeds) or read the existing results */
	if (rc == 0 && !norun) {
		struct sweep_job *sj = calloc((size_t)ns, sizeof *sj);
		int nj = 0;
		int *which = calloc((size_t)ns, sizeof *which);
		for (int i = 0; i < ns; i++)
			if (seeds[i].loaded && sweep_job_init(&sj[nj], &seeds[i].sc, &e) == 0)
				which[nj++] = i;
		struct sweep_opts o = { .jobs = jobs, .progress = quiet ? SWEEP_PROGRESS_NONE : SWEEP_PROGRESS_AUTO };
		if (nj && sweep_run(sj, nj, &o, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		for (int k = 0; k < nj; k++) {
			struct seed *s = &seeds[which[k]];
			json_t *res = sj[k].nfailed ? NULL : sweep_merge(&sj[k]);
			if (!res) {
				snprintf(s->status, sizeof s->status,
					 "run failed (%d of %d simulations); partial results, not saved", sj[k].nfailed,
					 s->sc.nsims);
				s->res = sweep_merge_partial(&sj[k]);
				rc = 1;
			} else if (results_write(res, s->results_path, &e)) {
				fprintf(stderr, "mmemu: %s\n", e.msg);
				snprintf(s->status, sizeof s->status, "results not written");
				json_decref(res);
				rc = 1;
			} else {
				snprintf(s->status, sizeof s->status, "ran %d simulations", s->sc.nsims);
				s->res = res;
			}
			sweep_job_free(&sj[k]);
		}
		free(sj);
		free(which);
	} else if (rc == 0) {
		for (int i = 0; i < ns; i++) {
			struct seed *s = &seeds[i];
			if (!s->loaded)
				continue;
			struct stat st;
			if (stat(s->results_path, &st)) {
				snprintf(s->status, sizeof s->status, "no results (run without --no-run)");
				continue;
			}
			s->res = report_load_results(s->results_path, &e);
			if (!s->res) {
				fprintf(stderr, "mmemu: %s\n", e.msg);
				rc = 2;
				break;
			}
			snprintf(s->status, sizeof s->status, "existing results");
			const char *h = json_string_value(json_object_get(json_object_get(s->res, "scenario"), "hash"));
			if (!h || strcmp(h, s->sc.hash))
				snprintf(s->note, sizeof s->note, "%s was written by a different version of %s (hash %s, now %s)",
					 s->results_path, s->scenario, h ? h : "?", s->sc.hash);
		}
	}
	/* a seed of several scenarios: part 0 gets every part's runs */
	for (int i = 0; rc != 2 && i < ns; i++) {
		struct seed *s = &seeds[i];
		if (s->part != 0 || s->nparts < 2)
			continue;
		for (int k = 1; k < s->nparts; k++) {
			struct seed *q = &seeds[i + k];
			q->merged = 1;
			size_t sl = strlen(s->status);
			snprintf(s->status + sl, sizeof s->status - sl, "; %s: %s", q->scenario,
				 *q->status ? q->status : "?");
			if (*q->note) {
				size_t nl = strlen(s->note);
				snprintf(s->note + nl, sizeof s->note - nl, "%s%s", nl ? "; " : "", q->note);
			}
			if (s->res && q->res) {
				json_t *r = json_object_get(q->res, "runs");
				json_array_extend(json_object_get(s->res, "runs"), r);
			} else if (q->res && !s->res) {
				s->res = json_incref(q->res);
			}
		}
	}
	if (rc != 2) {
		json_t *doc = json_pack("{s:s,s:{s:s,s:s},s:[]}", "format", "mmemu-reproduce/1", "tool", "name",
					"mmemu", "version", MMEMU_VERSION, "seeds");
		char *md = NULL;
		size_t mdlen = 0;
		FILE *mf = open_memstream(&md, &mdlen);
		fprintf(mf, "# mmemu reproduce: published vs emulated\n\n"
			    "Generated by `mmemu reproduce` (mmemu %s). Verdicts: reproduced, not reproduced, "
			    "not checked (the emulated results lack what the claim needs, or the kind is unknown).\n\n",
			    MMEMU_VERSION);
		for (int i = 0; i < ns; i++) {
			if (seeds[i].merged)
				continue;
			json_t *o = evaluate(&seeds[i]);
			if (!quiet)
				print_seed(seeds[i].pub, o, stdout, 0);
			print_seed(seeds[i].pub, o, mf, 1);
			json_array_append_new(json_object_get(doc, "seeds"), o);
		}
		fclose(mf);
		char path[1200];
		snprintf(path, sizeof path, "%s/reproduce.json", outdir);
		if (results_write(doc, path, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		snprintf(path, sizeof path, "%s/reproduce.md", outdir);
		if (out_write_text(path, md ? md : "", &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		if (!quiet)
			printf("wrote %s/reproduce.json and %s/reproduce.md\n", outdir, outdir);
		free(md);
		json_decref(doc);
	}
	for (int i = 0; i < ns; i++) {
		json_decref(seeds[i].pub);
		json_decref(seeds[i].res);
		if (seeds[i].loaded)
			scenario_free(&seeds[i].sc);
	}
	free(seeds);
	return rc;
}
