/*
 * cmd_plot.c - `mmemu plot`: SVG line plots of a results file.
 *
 * Design: SVG is written as text by hand.  A line plot with axes, ticks, error
 * bars and a legend is ~200 lines of printf; a drawing library (cairo) would add
 * a build and run-time dependency and font configuration for no gain in what the
 * plot shows, and its SVG output would be less readable and less stable between
 * versions (the SVG here is deterministic: same results, same bytes).
 *
 * Two modes.  Sweep mode (--x PARAM --y METRIC): x positions are the indices of
 * PARAM's values in the sweep (ticks labelled with the values, so [100,1000] or
 * "random" work as well as numbers); one line per kernel (per kernel and value of
 * the other sweep axes when there are several), at the mean over runs, with a
 * min/max bar.  Series mode (--series NAME [--point I] [--run R]): x is simulated
 * time, one line per kernel for one sweep point and run.  Curve mode (files of
 * `mmemu mrc --json`): x is frames, one line per file, bars at the stated error.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/scenario.h"

static const char plot_usage[] =
	"usage: mmemu plot RESULTS.json --x PARAM --y METRIC -o FILE.svg [--title TEXT]\n"
	"       mmemu plot RESULTS.json --series NAME [--point INDEX] [--run R] -o FILE.svg\n"
	"       mmemu plot CURVE.json... -o FILE.svg [--title TEXT]\n"
	"Line plots, one line per kernel, written as SVG; or miss-ratio curves (mmemu mrc\n"
	"--json), one line per file, miss ratio over frames, bars at the stated error.\n"
	"  --x PARAM      a sweep key of the results (e.g. workload.range_mb); x ticks are its\n"
	"                 values in sweep order; other sweep axes give one line per value\n"
	"  --y METRIC     the primary metric, a secondary metric, a vmstat counter or sim_time;\n"
	"                 the line is the mean over runs, the bars span min..max\n"
	"  --series NAME  plot a time series (x = simulated time) instead, for sweep point\n"
	"                 --point INDEX (default 0) and run --run R (default 0)\n"
	"  -o FILE.svg    output file (written atomically)\n"
	"  --title TEXT   title (default: the scenario's name)\n"
	"Exit: 0, or 2 for bad input or usage.\n";

struct line {
	char label[300];
	int n;
	double *x, *y, *lo, *hi;
};

struct plot {
	char *svg;
	size_t len;
	const char *note;   /* under the legend of a numeric x axis, or NULL */
};

#define OUT(p, ...) report_str_append(&(p)->svg, &(p)->len, __VA_ARGS__)

static void esc(struct plot *p, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': OUT(p, "&lt;"); break;
		case '>': OUT(p, "&gt;"); break;
		case '&': OUT(p, "&amp;"); break;
		case '"': OUT(p, "&quot;"); break;
		default: OUT(p, "%c", *s);
		}
	}
}

static double nice_step(double range)
{
	if (!(range > 0))
		return 1;
	double raw = range / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void fmt_tick(char *b, size_t n, double v, double step)
{
	if (fabs(v) < step * 1e-9)
		v = 0;
	if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(b, n, "%.3g", v);
	else {
		int dec = step >= 1 ? 0 : (int)ceil(-log10(step));
		snprintf(b, n, "%.*f", dec, v);
	}
}

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				       "#9467bd", "#8c564b", "#e377c2", "#17becf" };

/*
 * Draw @lines.  @xlabels: tick labels for categorical x (x = 0..nx-1), or NULL for
 * a numeric x axis.
 */
static void draw(struct plot *p, const char *title, const char *xlab, const char *ylab, struct line *lines,
		 int nl, char **xlabels, int nx)
{
	const double W = 760, H = 460, L = 90, R = 200, T = 50, B = 70;
	const double pw = W - L - R, ph = H - T - B;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = -INFINITY;
	for (int i = 0; i < nl; i++)
		for (int k = 0; k < lines[i].n; k++) {
			if (isnan(lines[i].y[k]))
				continue;
			xmin = fmin(xmin, lines[i].x[k]);
			xmax = fmax(xmax, lines[i].x[k]);
			ymin = fmin(ymin, lines[i].lo[k]);
			ymax = fmax(ymax, lines[i].hi[k]);
		}
	if (!isfinite(ymax))
		ymax = 1;
	if (ymax <= ymin)
		ymax = ymin + 1;
	double ystep = nice_step(ymax - ymin);
	double y0 = floor(ymin / ystep) * ystep, y1 = ceil(ymax / ystep) * ystep;
	double xstep = 1, x0, x1;
	if (xlabels) {
		x0 = -0.5;
		x1 = nx - 0.5;
	} else {
		if (!isfinite(xmin)) {
			xmin = 0;
			xmax = 1;
		}
		xmin = fmin(xmin, 0);
		if (xmax <= xmin)
			xmax = xmin + 1;
		xstep = nice_step(xmax - xmin);
		x0 = floor(xmin / xstep) * xstep;
		x1 = ceil(xmax / xstep) * xstep;
	}
#define SX(v) (L + ((v) - x0) / (x1 - x0) * pw)
#define SY(v) (T + ph - ((v) - y0) / (y1 - y0) * ph)
	OUT(p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	       "font-family=\"sans-serif\" font-size=\"12\">\n"
	       "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
	OUT(p, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">", L + pw / 2);
	esc(p, title);
	OUT(p, "</text>\n");
	/* grid and y ticks */
	for (double v = y0; v <= y1 + ystep * 1e-6; v += ystep) {
		char b[64];
		fmt_tick(b, sizeof b, v, ystep);
		OUT(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, SY(v), L + pw, SY(v));
		OUT(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 6, SY(v) + 4, b);
	}
	/* x ticks */
	if (xlabels) {
		for (int i = 0; i < nx; i++) {
			OUT(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", SX(i), T + ph,
			    SX(i), T + ph + 5);
			OUT(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", SX(i), T + ph + 19);
			esc(p, xlabels[i]);
			OUT(p, "</text>\n");
		}
	} else {
		for (double v = x0; v <= x1 + xstep * 1e-6; v += xstep) {
			char b[64];
			fmt_tick(b, sizeof b, v, xstep);
			OUT(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", SX(v), T + ph,
			    SX(v), T + ph + 5);
			OUT(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", SX(v), T + ph + 19, b);
		}
	}
	OUT(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n", L, T,
	    pw, ph);
	OUT(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", L + pw / 2, H - 22);
	esc(p, xlab);
	OUT(p, "</text>\n<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">", 22.0,
	    T + ph / 2);
	esc(p, ylab);
	OUT(p, "</text>\n");
	/* lines, bars, markers, legend */
	for (int i = 0; i < nl; i++) {
		const char *col = palette[i % 8];
		struct line *ln = &lines[i];
		OUT(p, "<g stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" stroke-width=\"2\" points=\"", col, col);
		for (int k = 0; k < ln->n; k++)
			if (!isnan(ln->y[k]))
				OUT(p, "%s%.1f,%.1f", k ? " " : "", SX(ln->x[k]), SY(ln->y[k]));
		OUT(p, "\"/>\n");
		for (int k = 0; k < ln->n && xlabels; k++) {
			if (isnan(ln->y[k]))
				continue;
			double x = SX(ln->x[k]);
			if (ln->hi[k] > ln->lo[k])
				OUT(p, "<path fill=\"none\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fH%.1f\"/>\n", x - 4,
				    SY(ln->lo[k]), x + 4, x, SY(ln->lo[k]), SY(ln->hi[k]), x - 4, SY(ln->hi[k]), x + 4);
			/* the value as a tooltip (and for readers of the SVG: mmemu serve's test) */
			OUT(p, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", x, SY(ln->y[k]));
			esc(p, ln->label);
			OUT(p, " at ");
			esc(p, xlabels[(int)ln->x[k]]);
			OUT(p, ": %.10g</title></circle>\n", ln->y[k]);
		}
		double ly = T + 10 + i * 20;
		OUT(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"2\"/>\n", L + pw + 15, ly,
		    L + pw + 40, ly);
		OUT(p, "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" fill=\"black\">", L + pw + 46, ly + 4);
		esc(p, ln->label);
		OUT(p, "</text>\n</g>\n");
	}
	if (xlabels)
		OUT(p, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">line: mean over runs</text>\n"
		       "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">bars: min..max</text>\n",
		    L + pw + 15, T + 10 + nl * 20 + 6, L + pw + 15, T + 10 + nl * 20 + 20);
	else if (p->note)
		OUT(p, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">%s</text>\n",
		    L + pw + 15, T + 10 + nl * 20 + 6, p->note);
	OUT(p, "</svg>\n");
#undef SX
#undef SY
}

static void free_lines(struct line *l, int n)
{
	for (int i = 0; i < n; i++) {
		free(l[i].x);
		free(l[i].y);
		free(l[i].lo);
		free(l[i].hi);
	}
	free(l);
}

static struct line *add_line(struct line **lines, int *nl, const char *label, int cap)
{
	*lines = realloc(*lines, (size_t)(*nl + 1) * sizeof **lines);
	struct line *l = &(*lines)[(*nl)++];
	memset(l, 0, sizeof *l);
	snprintf(l->label, sizeof l->label, "%s", label);
	l->x = calloc((size_t)cap + 1, sizeof(double));
	l->y = calloc((size_t)cap + 1, sizeof(double));
	l->lo = calloc((size_t)cap + 1, sizeof(double));
	l->hi = calloc((size_t)cap + 1, sizeof(double));
	return l;
}

static int sweep_mode(json_t *res, const char *file, const char *xk, const char *metric, struct plot *p,
		      const char *title)
{
	json_t *sweep = json_object_get(res, "sweep");
	json_t *xs = json_object_get(sweep, xk);
	if (!json_is_array(xs)) {
		char keys[400] = "";
		const char *k;
		json_t *v;
		json_object_foreach(sweep, k, v) {
			size_t n = strlen(keys);
			snprintf(keys + n, sizeof keys - n, "%s%s", n ? ", " : "", k);
		}
		fprintf(stderr, "mmemu plot: --x: \"%s\" is not a sweep key of %s (sweep keys: %s)\n", xk, file,
			*keys ? keys : "none");
		return 2;
	}
	json_t *runs = json_object_get(res, "runs");
	int nx = (int)json_array_size(xs);
	/* line keys: kernel + the other axes */
	json_t *keys = json_array();
	size_t i;
	json_t *r;
	int found = 0;
	json_array_foreach(runs, i, r) {
		double v;
		found |= report_run_value(r, metric, &v) == 0;
		json_t *g = json_deep_copy(json_object_get(r, "point"));
		json_object_del(g, xk);
		json_object_set(g, "\001kernel", json_object_get(r, "kernel"));
		report_add_unique(keys, g);
		json_decref(g);
	}
	if (!found) {
		fprintf(stderr, "mmemu plot: --y: no metric \"%s\" in %s\n", metric, file);
		json_decref(keys);
		return 2;
	}
	struct line *lines = NULL;
	int nl = 0;
	json_t *g;
	json_array_foreach(keys, i, g) {
		const char *kern = json_string_value(json_object_get(g, "\001kernel"));
		json_t *other = json_deep_copy(g);
		json_object_del(other, "\001kernel");
		char *ol = results_point_label(other);
		char label[300];
		snprintf(label, sizeof label, "%s%s%s", kern, ol && *ol ? " " : "", ol ? ol : "");
		free(ol);
		struct line *l = add_line(&lines, &nl, label, nx);
		for (int x = 0; x < nx; x++) {
			double s = 0, lo = INFINITY, hi = -INFINITY;
			int n = 0;
			size_t ri;
			json_t *run;
			json_array_foreach(runs, ri, run) {
				json_t *pt = json_object_get(run, "point");
				if (strcmp(json_string_value(json_object_get(run, "kernel")), kern) ||
				    !json_equal(json_object_get(pt, xk), json_array_get(xs, (size_t)x)))
					continue;
				const char *k;
				json_t *v;
				int match = 1;
				json_object_foreach(other, k, v) match &= json_equal(json_object_get(pt, k), v);
				double y;
				if (!match || report_run_value(run, metric, &y))
					continue;
				s += y;
				lo = fmin(lo, y);
				hi = fmax(hi, y);
				n++;
			}
			l->x[l->n] = x;
			l->y[l->n] = n ? s / n : NAN;
			l->lo[l->n] = n ? lo : NAN;
			l->hi[l->n] = n ? hi : NAN;
			l->n++;
		}
		json_decref(other);
	}
	char **xl = calloc((size_t)nx + 1, sizeof *xl);
	for (int x = 0; x < nx; x++) {
		json_t *v = json_array_get(xs, (size_t)x);
		xl[x] = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	}
	char ylab[300];
	json_t *prim = json_object_get(json_array_get(runs, 0), "primary");
	const char *pn = json_string_value(json_object_get(prim, "name"));
	const char *unit = json_string_value(json_object_get(prim, "unit"));
	if (pn && unit && strcmp(pn, metric) == 0)
		snprintf(ylab, sizeof ylab, "%s (%s, %s is better)", metric, unit,
			 json_string_value(json_object_get(prim, "better")));
	else
		snprintf(ylab, sizeof ylab, "%s", metric);
	draw(p, title, xk, ylab, lines, nl, xl, nx);
	for (int x = 0; x < nx; x++)
		free(xl[x]);
	free(xl);
	free_lines(lines, nl);
	json_decref(keys);
	return 0;
}

static int series_mode(json_t *res, const char *file, const char *name, long point, long runi, struct plot *p,
		       const char *title)
{
	json_t *runs = json_object_get(res, "runs");
	struct line *lines = NULL;
	int nl = 0, anypoint = 0;
	size_t i;
	json_t *r;
	char plabel[300] = "";
	json_array_foreach(runs, i, r) {
		if (json_integer_value(json_object_get(r, "point_index")) != point ||
		    json_integer_value(json_object_get(r, "run")) != runi)
			continue;
		anypoint = 1;
		char *pl = results_point_label(json_object_get(r, "point"));
		snprintf(plabel, sizeof plabel, "%s", pl ? pl : "");
		free(pl);
		json_t *s = json_object_get(json_object_get(r, "series"), name);
		json_t *t = json_object_get(s, "t"), *v = json_object_get(s, "v");
		if (!json_is_array(t) || !json_is_array(v))
			continue;
		int n = (int)json_array_size(t);
		struct line *l = add_line(&lines, &nl, json_string_value(json_object_get(r, "kernel")), n);
		for (int k = 0; k < n && k < (int)json_array_size(v); k++) {
			l->x[k] = json_number_value(json_array_get(t, (size_t)k));
			l->y[k] = l->lo[k] = l->hi[k] = json_number_value(json_array_get(v, (size_t)k));
			l->n++;
		}
	}
	if (!anypoint) {
		fprintf(stderr, "mmemu plot: --point %ld --run %ld: no such simulation in %s\n", point, runi, file);
		return 2;
	}
	if (!nl) {
		/* a chained run's steps are points of their own: name one that has it */
		long at = -1;
		json_array_foreach(runs, i, r) if (at < 0 && json_object_get(json_object_get(r, "series"), name))
			at = (long)json_integer_value(json_object_get(r, "point_index"));
		if (at >= 0)
			fprintf(stderr, "mmemu plot: --series: no series \"%s\" at --point %ld in %s (it is at --point %ld)\n",
				name, point, file, at);
		else
			fprintf(stderr, "mmemu plot: --series: no series \"%s\" in %s\n", name, file);
		return 2;
	}
	char ttl[700];
	snprintf(ttl, sizeof ttl, "%s%s%s%s", title, *plabel ? " (" : "", plabel, *plabel ? ")" : "");
	draw(p, ttl, "simulated time (s)", name, lines, nl, NULL, 0);
	free_lines(lines, nl);
	return 0;
}

#define MRC_PLOT_MAX 400   /* points drawn per curve; longer curves are thinned evenly */

/* Curve mode: one line per mmemu-mrc/1 file (`mmemu mrc --json`), miss ratio over
 * frames, bars at the stated error. Returns: 0, or 2 after printing the error. */
static int mrc_mode(char **files, int n, struct plot *p, const char *title)
{
	struct line *lines = NULL;
	int nl = 0, rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		json_error_t je;
		json_t *m = json_load_file(files[i], 0, &je);
		json_t *pts = json_object_get(m, "points");
		const char *fmt = json_string_value(json_object_get(m, "format"));
		if (!m || !fmt || strcmp(fmt, "mmemu-mrc/1") || !json_is_array(pts) ||
		    !json_array_size(pts)) {
			fprintf(stderr, "%s: %s\n", files[i], !m ? je.text :
				"format: expected an mmemu-mrc/1 curve with points (mmemu mrc --json)");
			rc = 2;
		} else {
			char label[300];
			snprintf(label, sizeof label, "%s (%s)",
				 json_string_value(json_object_get(m, "policy")) ?: "?",
				 json_string_value(json_object_get(m, "method")) ?: "?");
			size_t np = json_array_size(pts), k = np < MRC_PLOT_MAX ? np : MRC_PLOT_MAX;
			struct line *l = add_line(&lines, &nl, label, (int)k);
			for (size_t j = 0; j < k && rc == 0; j++) {
				json_t *pt = json_array_get(pts, k > 1 ? j * (np - 1) / (k - 1) : 0);
				json_t *f = json_object_get(pt, "frames"), *y = json_object_get(pt, "miss_ratio");
				double err = json_number_value(json_object_get(pt, "error"));
				if (!json_is_number(f) || !json_is_number(y)) {
					fprintf(stderr, "%s: points[%zu]: expected frames and miss_ratio numbers\n",
						files[i], k > 1 ? j * (np - 1) / (k - 1) : 0);
					rc = 2;
				}
				l->x[l->n] = json_number_value(f);
				l->y[l->n] = json_number_value(y);
				l->lo[l->n] = l->y[l->n] - err;
				l->hi[l->n] = l->y[l->n] + err;
				l->n++;
			}
		}
		json_decref(m);
	}
	if (rc == 0) {
		p->note = "bars: stated error";
		draw(p, title ? title : "miss-ratio curve", "memory (frames)", "miss ratio", lines, nl,
		     NULL, 0);
	}
	free_lines(lines, nl);
	return rc;
}

/* Returns: 1 if @file is a miss-ratio curve (its text names format mmemu-mrc/1). */
static int is_mrc(const char *file)
{
	json_t *m = json_load_file(file, 0, NULL);
	const char *f = json_string_value(json_object_get(m, "format"));
	int yes = f && strcmp(f, "mmemu-mrc/1") == 0;
	json_decref(m);
	return yes;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "x", required_argument, NULL, 'x' },      { "y", required_argument, NULL, 'y' },
		{ "out", required_argument, NULL, 'o' },    { "series", required_argument, NULL, 's' },
		{ "point", required_argument, NULL, 'p' },  { "run", required_argument, NULL, 'r' },
		{ "title", required_argument, NULL, 't' },  { NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(plot_usage, stdout);
		return 0;
	}
	const char *xk = NULL, *metric = NULL, *out = NULL, *series = NULL, *title = NULL;
	long point = 0, runi = 0;
	int opt;
	char msg[400];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", lopts, NULL)) != -1) {
		switch (opt) {
		case 'x': xk = optarg; break;
		case 'y': metric = optarg; break;
		case 'o': out = optarg; break;
		case 's': series = optarg; break;
		case 't': title = optarg; break;
		case 'p':
		case 'r':
			if (report_parse_long(optarg, 0, 100000000, opt == 'p' ? &point : &runi)) {
				snprintf(msg, sizeof msg, "--%s: expected a non-negative integer, not \"%s\"",
					 opt == 'p' ? "point" : "run", optarg);
				return cli_usage_error("plot", "%s", msg);
			}
			break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error("plot", "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error("plot", "%s", msg);
		}
	}
	if (!out)
		return cli_usage_error("plot", "missing -o FILE.svg");
	struct mm_err e = { "" };
	if (argc - optind >= 1 && is_mrc(argv[optind])) {
		if (xk || metric || series)
			return cli_usage_error("plot", "a miss-ratio curve plots frames on x: no --x, --y or --series");
		struct plot p = { NULL, 0, NULL };
		int rc = mrc_mode(argv + optind, argc - optind, &p, title);
		if (rc == 0 && out_write_text(out, p.svg, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		free(p.svg);
		return rc;
	}
	if (argc - optind != 1)
		return cli_usage_error("plot", "expected one RESULTS.json");
	if (series && (xk || metric))
		return cli_usage_error("plot", "--series plots time on x: do not give --x or --y with it");
	if (!series && (!xk || !metric))
		return cli_usage_error("plot", "expected --x PARAM and --y METRIC (or --series NAME)");
	const char *file = argv[optind];
	json_t *res = report_load_results(file, &e);
	if (!res) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		return 2;
	}
	if (!title)
		title = json_string_value(json_object_get(json_object_get(res, "scenario"), "name"));
	struct plot p = { NULL, 0, NULL };
	int rc = series ? series_mode(res, file, series, point, runi, &p, title ? title : "")
			: sweep_mode(res, file, xk, metric, &p, title ? title : "");
	if (rc == 0 && out_write_text(out, p.svg ? p.svg : "", &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	free(p.svg);
	json_decref(res);
	return rc;
}
