/*
 * cmd_compare.c - `mmemu compare`: mmtests-style comparison of results files.
 *
 * Design: load every file (exit 2 on the first bad one), then build three index
 * lists: columns (each file's kernels, in order of first appearance; a kernel
 * name that occurs in several files is shown as STEM/KERNEL), points (matched by
 * their label, "range_mb=[100,1000]", union in order of first appearance) and
 * metrics (the primary metric, then the numeric secondary metrics, then the vm
 * event counters as monitor rows and sim_time).  For every (metric, point,
 * column) the values over runs give Min, Amean or Hmean, Stddev, CoeffVar, Max;
 * percentages are against the first column with positive = better (the
 * metric's direction for Min/mean/Max, lower-is-better for Stddev/CoeffVar, raw
 * change new/base-1 for secondary metrics whose direction is unknown), and the
 * mean row is starred when a t-test at 95% says the means differ (two or more
 * runs on both sides): the paired t-test on per-run differences when both
 * columns are kernels of one results file whose runs have the same base seeds
 * and run indices (the engine gave such runs the same random draws), Welch's
 * test otherwise; the text says how many of each, csv and json per cell.  One model, four printers (text, markdown, csv,
 * json), so the formats always agree.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/results.h"
#include "emu/engine/scenario.h"
#include "emu/analysis/stats.h"
#include "emu/engine/sweep.h"

enum mkind { MK_PRIMARY, MK_METRIC, MK_VMSTAT };

struct col {
	int file;
	const char *kernel;
	char label[300];
	size_t *runs;      /* indices of the file's runs of this kernel, in order */
	size_t nruns;
};

struct metric {
	const char *name;
	enum mkind kind;
	int better;        /* 1 higher, 0 lower, -1 unknown */
	const char *unit;
};

struct point {
	char *label;
	json_t *point;
};

struct cmp {
	int nfiles;
	json_t **docs;
	char ***run_labels;  /* per file, per run: point label */
	int **run_pt;        /* per file, per run: index into pts */
	struct col *cols;
	int ncols;
	struct point *pts;
	int npts;
	struct metric *ms;
	int nms;
	int npaired, nwelch;   /* significance marks printed, by test */
};

struct cell {
	size_t n;
	double min, amean, hmean, mean, stddev, cv, max;
	double pct[5];       /* min, mean, stddev, cv, max vs column 0 */
	int sig;             /* 1 significant, 0 not, -1 not tested */
	double p;
	int paired;          /* the test was the paired t-test (else Welch's) */
};

static const char compare_usage[] =
	"usage: mmemu compare [--format text|markdown|csv|json] [--metric NAME] [--no-monitor]\n"
	"                     RESULTS.json...\n"
	"mmtests-style table: for every metric and sweep point, Min, Amean (Hmean when\n"
	"higher is better), Stddev, CoeffVar and Max over runs, one column per kernel\n"
	"(each file's kernels, in order). Percentages are against the first column,\n"
	"positive = better; a starred mean (* -3.10%*) differs significantly (95%, needs\n"
	">= 2 runs per side): paired t-test when both columns are kernels of one results\n"
	"file with the same base seeds and run indices, Welch's t-test otherwise (the\n"
	"text says which). Secondary metrics' direction is unknown: their percentage is\n"
	"the plain change new/base-1. Then vm event counters that are not zero, as\n"
	"monitor rows (mean over runs).\n"
	"  --format F     text (default), markdown, csv or json\n"
	"  --metric NAME  only this metric (primary, secondary or vmstat name)\n"
	"  --no-monitor   leave out the vm event counters and sim_time\n"
	"Exit: 0, or 2 for bad input or usage.\n";

static int find_metric(struct cmp *c, const char *name)
{
	for (int i = 0; i < c->nms; i++)
		if (strcmp(c->ms[i].name, name) == 0)
			return i;
	return -1;
}

static void add_metric(struct cmp *c, const char *name, enum mkind k, int better, const char *unit)
{
	if (find_metric(c, name) >= 0)
		return;
	c->ms = realloc(c->ms, (size_t)(c->nms + 1) * sizeof *c->ms);
	c->ms[c->nms++] = (struct metric){ name, k, better, unit };
}

/* Returns: the index under @key in @index (a JSON object of integers), adding
 * @next there when absent (*@added = 1). */
static int index_of(json_t *index, const char *key, int next, int *added)
{
	json_t *v = json_object_get(index, key);
	*added = !v;
	if (v)
		return (int)json_integer_value(v);
	json_object_set_new(index, key, json_integer(next));
	return next;
}

/*
 * Columns (one per file and kernel, in first-seen order), points (by label) and
 * metrics, with each run's column and point found once through hashed indexes,
 * so that values() walks only its column's runs: compare is linear in the runs
 * (a file of 3,000 kernels took over a minute when every cell rescanned them).
 * Returns: 0, or -1 with @e set when two runs' primary metrics differ in name or
 * unit (they would be mixed in one row).
 */
static int build(struct cmp *c, char **files, struct mm_err *e)
{
	c->run_labels = calloc(c->nfiles > 0 ? (size_t)c->nfiles : 1, sizeof *c->run_labels);
	c->run_pt = calloc(c->nfiles > 0 ? (size_t)c->nfiles : 1, sizeof *c->run_pt);
	json_t *pidx = json_object();
	const char *pname = NULL, *punit = NULL, *pfile = NULL;
	int rc = 0;
	/* columns and points */
	for (int f = 0; f < c->nfiles; f++) {
		json_t *runs = json_object_get(c->docs[f], "runs"), *kidx = json_object(), *r;
		size_t i, nr = json_array_size(runs);
		c->run_labels[f] = calloc(nr + 1, sizeof(char *));
		c->run_pt[f] = calloc(nr + 1, sizeof(int));
		json_array_foreach(runs, i, r) {
			const char *k = json_string_value(json_object_get(r, "kernel"));
			int added, j = index_of(kidx, k, c->ncols, &added);
			if (added) {
				c->cols = realloc(c->cols, (size_t)(c->ncols + 1) * sizeof *c->cols);
				struct col *cl = &c->cols[c->ncols++];
				*cl = (struct col){ .file = f, .kernel = k };
				snprintf(cl->label, sizeof cl->label, "%s", k);
			}
			struct col *cl = &c->cols[j];
			cl->runs = realloc(cl->runs, (cl->nruns + 1) * sizeof *cl->runs);
			cl->runs[cl->nruns++] = i;
			json_t *pt = json_object_get(r, "point");
			char *lbl = results_point_label(pt);
			c->run_labels[f][i] = lbl ? lbl : strdup("");
			int p = index_of(pidx, c->run_labels[f][i], c->npts, &added);
			if (added) {
				c->pts = realloc(c->pts, (size_t)(c->npts + 1) * sizeof *c->pts);
				c->pts[c->npts++] = (struct point){ strdup(c->run_labels[f][i]), pt };
			}
			c->run_pt[f][i] = p;
			json_t *pr = json_object_get(r, "primary");
			const char *nm = json_string_value(json_object_get(pr, "name")) ?: "primary";
			const char *un = json_string_value(json_object_get(pr, "unit")) ?: "";
			if (!pname) {
				pname = nm;
				punit = un;
				pfile = files[f];
			} else if (rc == 0 && (strcmp(nm, pname) || strcmp(un, punit))) {
				char where[64];
				snprintf(where, sizeof where, "runs[%zu].primary", i);
				rc = mm_errf(e, files[f], where, "expected the primary metric of %s's runs, %s (%s), "
					     "got %s (%s): runs of different primary metrics are not compared",
					     pfile, pname, punit, nm, un);
			}
		}
		json_decref(kidx);
	}
	json_decref(pidx);
	if (rc)
		return rc;
	/* a kernel name in two files: its columns are named FILE-STEM/KERNEL */
	json_t *count = json_object();
	for (int j = 0; j < c->ncols; j++)
		json_object_set_new(count, c->cols[j].kernel,
				    json_integer(json_integer_value(json_object_get(count, c->cols[j].kernel)) + 1));
	for (int j = 0; j < c->ncols; j++)
		if (json_integer_value(json_object_get(count, c->cols[j].kernel)) > 1) {
			char stem[256];
			sweep_stem(files[c->cols[j].file], stem, sizeof stem);
			snprintf(c->cols[j].label, sizeof c->cols[j].label, "%s/%s", stem, c->cols[j].kernel);
		}
	json_decref(count);
	/* metrics: the primary, then the secondary metrics, then the vm counters */
	for (int pass = 0; pass < 3; pass++)
		for (int f = 0; f < c->nfiles; f++) {
			size_t i;
			json_t *r;
			json_array_foreach(json_object_get(c->docs[f], "runs"), i, r) {
				if (pass == 0) {
					json_t *pr = json_object_get(r, "primary");
					const char *b = json_string_value(json_object_get(pr, "better"));
					const char *nm = json_string_value(json_object_get(pr, "name"));
					add_metric(c, nm ? nm : "primary", MK_PRIMARY,
						   b && strcmp(b, "higher") == 0, json_string_value(json_object_get(pr, "unit")));
				} else {
					const char *key;
					json_t *v;
					json_object_foreach(json_object_get(r, pass == 1 ? "metrics" : "vmstat"), key, v)
						if (json_is_number(v))
							add_metric(c, key, pass == 1 ? MK_METRIC : MK_VMSTAT, pass == 1 ? -1 : 0, NULL);
				}
			}
		}
	add_metric(c, "sim_time", MK_VMSTAT, 0, "s");
	return 0;
}

/* The values of metric @m at point @p in column @j, and each run's key (*@keys,
 * NULL when a run lacks one). Returns: count (malloc'ed *out and *keys). */
static size_t values(struct cmp *c, int j, int p, int m, double **out, struct report_key **keys)
{
	const struct col *cl = &c->cols[j];
	json_t *runs = json_object_get(c->docs[cl->file], "runs");
	double *v = malloc((cl->nruns + 1) * sizeof *v);
	struct report_key *kv = malloc((cl->nruns + 1) * sizeof *kv);
	size_t n = 0;
	int have_keys = 1;
	for (size_t q = 0; q < cl->nruns; q++) {
		size_t i = cl->runs[q];
		if (c->run_pt[cl->file][i] != p)
			continue;
		json_t *r = json_array_get(runs, i);
		double x;
		if (report_run_value(r, c->ms[m].name, &x) == 0) {
			if (report_run_key(r, &kv[n]))
				have_keys = 0;
			v[n++] = x;
		}
	}
	*out = v;
	if (!have_keys) {
		free(kv);
		kv = NULL;
	}
	*keys = kv;
	return n;
}

/* Compute the cells of one (metric, point) row; cells[j].n == 0 means no data. */
static int row(struct cmp *c, int m, int p, struct cell *cells, int *use_hmean)
{
	double **vals = calloc((size_t)c->ncols, sizeof *vals);
	struct report_key **keys = calloc((size_t)c->ncols, sizeof *keys);
	int any = 0;
	*use_hmean = c->ms[m].better == 1;
	for (int j = 0; j < c->ncols; j++) {
		struct cell *x = &cells[j];
		memset(x, 0, sizeof *x);
		x->n = values(c, j, p, m, &vals[j], &keys[j]);
		if (!x->n)
			continue;
		x->min = stats_min(vals[j], x->n);
		x->max = stats_max(vals[j], x->n);
		x->amean = stats_amean(vals[j], x->n);
		x->hmean = stats_hmean(vals[j], x->n);
		x->stddev = stats_stddev(vals[j], x->n);
		x->cv = stats_coeffvar(vals[j], x->n);
		if (isnan(x->hmean))
			*use_hmean = 0;   /* undefined for values <= 0: fall back to Amean */
		if (x->amean != 0 || x->max != 0 || x->min != 0)
			any = 1;
	}
	int hb = c->ms[m].better;
	for (int j = 0; j < c->ncols; j++) {
		struct cell *x = &cells[j], *b = &cells[0];
		x->mean = *use_hmean ? x->hmean : x->amean;
		x->sig = -1;
		x->p = NAN;
		if (!x->n || !b->n) {
			for (int k = 0; k < 5; k++)
				x->pct[k] = NAN;
			continue;
		}
		if (hb < 0) {
			double bs[5] = { b->min, b->amean, b->stddev, b->cv, b->max };
			double xs[5] = { x->min, x->amean, x->stddev, x->cv, x->max };
			for (int k = 0; k < 5; k++)
				x->pct[k] = k == 2 || k == 3 ? stats_pct_better(bs[k], xs[k], 0)
							     : stats_pct_better(bs[k], xs[k], 1);
		} else {
			x->pct[0] = stats_pct_better(b->min, x->min, hb);
			x->pct[1] = stats_pct_better(b->mean, x->mean, hb);
			x->pct[4] = stats_pct_better(b->max, x->max, hb);
			x->pct[2] = stats_pct_better(b->stddev, x->stddev, 0);
			x->pct[3] = stats_pct_better(b->cv, x->cv, 0);
		}
		/* kernels of one results file with the same base seeds and run indices
		 * shared their random draws: paired t-test; anything else: Welch */
		struct stats_welch w;
		x->paired = j > 0 && c->cols[j].file == c->cols[0].file &&
			    report_pair(keys[0], b->n, keys[j], vals[j], x->n);
		if (j > 0 && (x->paired ? stats_paired(vals[0], vals[j], x->n, &w)
					: stats_welch(vals[0], b->n, vals[j], x->n, &w)) == 0) {
			x->p = w.p;
			x->sig = w.p < 0.05;
		}
	}
	for (int j = 0; j < c->ncols; j++) {
		free(vals[j]);
		free(keys[j]);
	}
	free(vals);
	free(keys);
	return any;
}

static int decimals(const struct cell *cells, int ncols)
{
	double mx = 0;
	int integral = 1;
	for (int j = 0; j < ncols; j++) {
		if (!cells[j].n)
			continue;
		double v[] = { cells[j].min, cells[j].max, cells[j].mean };
		for (int k = 0; k < 3; k++) {
			if (fabs(v[k]) > mx)
				mx = fabs(v[k]);
			if (v[k] != floor(v[k]))
				integral = 0;
		}
	}
	if (integral)
		return 0;
	return mx >= 100 ? 2 : mx >= 1 ? 4 : 6;
}

static const char *stat_names[5] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };

static double stat_value(const struct cell *x, int k)
{
	switch (k) {
	case 0: return x->min;
	case 1: return x->mean;
	case 2: return x->stddev;
	case 3: return x->cv;
	default: return x->max;
	}
}

static void fmt_cell(char *buf, size_t len, const struct cell *x, int k, int dec, int md, int pct)
{
	if (!x->n) {
		snprintf(buf, len, "-");
		return;
	}
	double v = stat_value(x, k);
	int d = k == 3 ? 2 : dec;
	if (!pct) {
		snprintf(buf, len, "%.*f", d, v);
		return;
	}
	char p[32];
	if (isnan(x->pct[k]))
		snprintf(p, sizeof p, "(    n/a)");
	else if (k == 1 && x->sig == 1)
		snprintf(p, md ? sizeof p : sizeof p, md ? "\\*%6.2f%%\\*" : "*%7.2f%%*", x->pct[k]);
	else
		snprintf(p, sizeof p, "(%7.2f%%)", x->pct[k]);
	snprintf(buf, len, "%.*f %s", d, v, p);
}

static const char *kind_name(enum mkind k)
{
	return k == MK_PRIMARY ? "primary" : k == MK_METRIC ? "metric" : "monitor";
}

static const char *better_name(int b)
{
	return b == 1 ? "higher" : b == 0 ? "lower" : "unknown";
}

static void print_tables(struct cmp *c, const char *only, int monitors, int md, FILE *f)
{
	struct cell *cells = calloc((size_t)c->ncols, sizeof *cells);
	char **hdr = calloc((size_t)c->ncols + 2, sizeof *hdr);
	hdr[0] = md ? "Stat" : "";
	hdr[1] = md ? "Metric" : "";
	for (int j = 0; j < c->ncols; j++)
		hdr[j + 2] = c->cols[j].label;
	for (int f2 = 0; f2 < c->nfiles; f2++) {
		json_t *s = json_object_get(c->docs[f2], "scenario");
		fprintf(f, "%s%s: %s\n", md ? "- " : "", json_string_value(json_object_get(s, "file")),
			json_string_value(json_object_get(s, "name")));
	}
	c->npaired = c->nwelch = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct rtable t;
		rtable_init(&t, c->ncols + 2, 1, 3);
		rtable_add(&t, (const char *const *)hdr);
		int rows = 0;
		for (int m = 0; m < c->nms; m++) {
			struct metric *mt = &c->ms[m];
			if (only && strcmp(only, mt->name))
				continue;
			if ((mt->kind == MK_VMSTAT) != pass || (pass && !monitors && !only))
				continue;
			for (int p = 0; p < c->npts; p++) {
				int hm;
				if (!row(c, m, p, cells, &hm))
					if (mt->kind == MK_VMSTAT)
						continue;
				int dec = decimals(cells, c->ncols);
				for (int j = 1; j < c->ncols && mt->kind != MK_VMSTAT; j++)
					if (cells[j].sig >= 0)
						cells[j].paired ? c->npaired++ : c->nwelch++;
				char op[600];
				snprintf(op, sizeof op, "%s%s%s", mt->name, *c->pts[p].label ? " " : "",
					 c->pts[p].label);
				int nst = mt->kind == MK_VMSTAT ? 1 : 5;
				for (int k = 0; k < 5 && nst > 0; k++) {
					if (mt->kind == MK_VMSTAT && k != 1)
						continue;
					const char *sn = mt->kind == MK_VMSTAT ? "Amean" : k == 1 && hm ? "Hmean" : stat_names[k];
					rtable_add(&t, NULL);
					rtable_setf(&t, 0, "%s", sn);
					rtable_setf(&t, 1, "%s", op);
					for (int j = 0; j < c->ncols; j++) {
						char b[128];
						fmt_cell(b, sizeof b, &cells[j], k, dec, md, mt->kind != MK_VMSTAT);
						rtable_setf(&t, j + 2, "%s", b);
					}
					rows++;
				}
			}
		}
		if (rows) {
			fputc('\n', f);
			if (pass == 0)
				fprintf(f, "%s\n", md ? "**Metrics** (percent vs the first column, positive = better; "
							"secondary metrics: plain change)"
						      : "Metrics (percent vs the first column, positive = better; "
							"secondary metrics: plain change new/base-1)");
			else
				fprintf(f, "%s\n", md ? "**Monitors** (mean over runs)" : "Monitors (mean over runs)");
			if (md)
				fputc('\n', f);
			rtable_print(&t, f, "", md);
		}
		rtable_free(&t);
	}
	if (c->npaired + c->nwelch)
		fprintf(f, "\nsignificance (starred mean, 95%%): %d paired t-test%s (kernels of one results file, runs "
			   "paired by base seed and run index), %d Welch's t-test%s (unpaired samples)\n",
			c->npaired, c->npaired == 1 ? "" : "s", c->nwelch, c->nwelch == 1 ? "" : "s");
	for (int m = 0; m < c->nms; m++)
		if (c->ms[m].kind == MK_PRIMARY && (!only || !strcmp(only, c->ms[m].name)))
			fprintf(f, "\n%s: %s%s%s, %s is better\n", c->ms[m].name, c->ms[m].unit ? "unit " : "",
				c->ms[m].unit ? c->ms[m].unit : "", "", better_name(c->ms[m].better));
	free(hdr);
	free(cells);
}

static void print_csv(struct cmp *c, const char *only, int monitors, FILE *f)
{
	struct cell *cells = calloc((size_t)c->ncols, sizeof *cells);
	fprintf(f, "metric,kind,better,point,stat,column,runs,value,pct,significant,p,test\n");
	for (int m = 0; m < c->nms; m++) {
		struct metric *mt = &c->ms[m];
		if ((only && strcmp(only, mt->name)) || (mt->kind == MK_VMSTAT && !monitors && !only))
			continue;
		for (int p = 0; p < c->npts; p++) {
			int hm;
			if (!row(c, m, p, cells, &hm) && mt->kind == MK_VMSTAT)
				continue;
			for (int k = 0; k < 5; k++) {
				if (mt->kind == MK_VMSTAT && k != 1)
					continue;
				const char *sn = mt->kind == MK_VMSTAT ? "Amean" : k == 1 && hm ? "Hmean" : stat_names[k];
				for (int j = 0; j < c->ncols; j++) {
					struct cell *x = &cells[j];
					if (!x->n)
						continue;
					char pl[700];
					snprintf(pl, sizeof pl, "%s", c->pts[p].label);
					for (char *q = pl; *q; q++)
						if (*q == '"')
							*q = '\'';
					fprintf(f, "%s,%s,%s,\"%s\",%s,\"%s\",%zu,%.12g,", mt->name, kind_name(mt->kind),
						better_name(mt->better), pl, sn, c->cols[j].label, x->n, stat_value(x, k));
					if (mt->kind != MK_VMSTAT && !isnan(x->pct[k]))
						fprintf(f, "%.6f", x->pct[k]);
					fprintf(f, ",%s,", k == 1 && x->sig == 1 ? "yes" : k == 1 && x->sig == 0 ? "no" : "");
					if (k == 1 && !isnan(x->p))
						fprintf(f, "%.6g", x->p);
					fprintf(f, ",%s\n", k == 1 && x->sig >= 0 ? (x->paired ? "paired" : "welch") : "");
				}
			}
		}
	}
	free(cells);
}

static void print_json(struct cmp *c, const char *only, int monitors, FILE *f)
{
	struct cell *cells = calloc((size_t)c->ncols, sizeof *cells);
	json_t *doc = json_object(), *cols = json_array(), *files = json_array(), *mets = json_array();
	for (int f2 = 0; f2 < c->nfiles; f2++)
		json_array_append(files, json_object_get(c->docs[f2], "scenario"));
	for (int j = 0; j < c->ncols; j++)
		json_array_append_new(cols, json_pack("{s:s,s:i,s:s}", "label", c->cols[j].label, "file",
						      c->cols[j].file, "kernel", c->cols[j].kernel));
	for (int m = 0; m < c->nms; m++) {
		struct metric *mt = &c->ms[m];
		if ((only && strcmp(only, mt->name)) || (mt->kind == MK_VMSTAT && !monitors && !only))
			continue;
		json_t *pts = json_array();
		for (int p = 0; p < c->npts; p++) {
			int hm;
			if (!row(c, m, p, cells, &hm) && mt->kind == MK_VMSTAT)
				continue;
			json_t *cs = json_array();
			for (int j = 0; j < c->ncols; j++) {
				struct cell *x = &cells[j];
				if (!x->n) {
					json_array_append_new(cs, json_null());
					continue;
				}
				json_t *o = json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "runs", (int)x->n, "min",
						      report_num(x->min), "amean", report_num(x->amean), "hmean",
						      report_num(x->hmean), "stddev", report_num(x->stddev),
						      "coeffvar", report_num(x->cv), "max", report_num(x->max),
						      "mean", report_num(x->mean));
				json_object_set_new(o, "pct", json_pack("{s:o,s:o,s:o,s:o,s:o}", "min",
									report_num(x->pct[0]), "mean",
									report_num(x->pct[1]), "stddev",
									report_num(x->pct[2]), "coeffvar",
									report_num(x->pct[3]), "max",
									report_num(x->pct[4])));
				json_object_set_new(o, "significant", x->sig < 0 ? json_null() : json_boolean(x->sig));
				json_object_set_new(o, "p", report_num(x->p));
				json_object_set_new(o, "test", x->sig < 0 ? json_null()
									  : json_string(x->paired ? "paired" : "welch"));
				json_array_append_new(cs, o);
			}
			json_array_append_new(pts, json_pack("{s:s,s:O,s:s,s:o}", "label", c->pts[p].label,
							     "point", c->pts[p].point, "mean_stat",
							     hm ? "hmean" : "amean", "columns", cs));
		}
		if (mt->kind == MK_VMSTAT && json_array_size(pts) == 0) {
			json_decref(pts);
			continue;   /* monitors: only counters that are not zero */
		}
		json_t *mo = json_pack("{s:s,s:s,s:s,s:o}", "name", mt->name, "kind", kind_name(mt->kind),
				       "better", better_name(mt->better), "points", pts);
		if (mt->unit)
			json_object_set_new(mo, "unit", json_string(mt->unit));
		json_array_append_new(mets, mo);
	}
	json_object_set_new(doc, "format", json_string("mmemu-compare/1"));
	json_object_set_new(doc, "files", files);
	json_object_set_new(doc, "columns", cols);
	json_object_set_new(doc, "metrics", mets);
	json_dumpf(doc, f, results_dump_flags());
	fputc('\n', f);
	json_decref(doc);
	free(cells);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "metric", required_argument, NULL, 'm' },
		{ "no-monitor", no_argument, NULL, 'n' },  { NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(compare_usage, stdout);
		return 0;
	}
	const char *format = "text", *only = NULL;
	int monitors = 1, opt;
	char msg[300];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f': format = optarg; break;
		case 'm': only = optarg; break;
		case 'n': monitors = 0; break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error("compare", "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error("compare", "%s", msg);
		}
	}
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "csv") &&
	    strcmp(format, "json")) {
		snprintf(msg, sizeof msg, "--format: expected text, markdown, csv or json, not \"%s\"", format);
		return cli_usage_error("compare", "%s", msg);
	}
	struct cmp c;
	memset(&c, 0, sizeof c);
	c.nfiles = argc - optind;
	if (c.nfiles < 1)
		return cli_usage_error("compare", "expected at least one RESULTS.json");
	c.docs = calloc((size_t)c.nfiles, sizeof *c.docs);
	struct mm_err e = { "" };
	int rc = 0;
	for (int f = 0; f < c.nfiles && rc == 0; f++)
		if (!(c.docs[f] = report_load_results(argv[optind + f], &e))) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 2;
		}
	if (rc == 0 && build(&c, argv + optind, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 2;
	} else if (rc == 0) {
		if (only && find_metric(&c, only) < 0) {
			fprintf(stderr, "mmemu compare: --metric: no metric \"%s\" in the results\n", only);
			rc = 2;
		} else if (!strcmp(format, "csv")) {
			print_csv(&c, only, monitors, stdout);
		} else if (!strcmp(format, "json")) {
			print_json(&c, only, monitors, stdout);
		} else {
			print_tables(&c, only, monitors, !strcmp(format, "markdown"), stdout);
		}
	}
	for (int f = 0; f < c.nfiles; f++) {
		if (c.run_labels && c.run_labels[f]) {
			for (char **l = c.run_labels[f]; *l; l++)
				free(*l);
			free(c.run_labels[f]);
		}
		if (c.run_pt)
			free(c.run_pt[f]);
		json_decref(c.docs[f]);
	}
	for (int j = 0; j < c.ncols; j++)
		free(c.cols[j].runs);
	free(c.run_pt);
	for (int p = 0; p < c.npts; p++)
		free(c.pts[p].label);
	free(c.run_labels);
	free(c.docs);
	free(c.cols);
	free(c.pts);
	free(c.ms);
	return rc;
}
