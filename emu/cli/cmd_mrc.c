/*
 * cmd_mrc.c - `mmemu mrc`: the miss-ratio curve of a trace under a reclaim policy
 * (workloads/mrc.h: exact LRU stack distances, SHARDS sampling, or simulation at
 * each size), as a table or as JSON (format mmemu-mrc/1, which `mmemu plot` draws).
 *
 * Design: options parsed by hand like `mmemu replay` (cli_optval); the default
 * method is the exact one for lru and simulation for other policies, --rate
 * selects SHARDS.  Sizes: --sizes LIST, or --points K sizes spaced evenly on a log
 * scale from the smallest size the method can estimate to the trace's page count
 * (exact LRU without either: every size).
 */
#include "emu/cli/cli.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "models/reclaim/reclaim.h"
#include "workloads/mrc.h"
#include "workloads/tracefile.h"

static const char mrc_usage[] =
	"usage: mmemu mrc (--trace FILE | --refs LIST) [--policy NAME] [--param KEY=VALUE ...]\n"
	"                 [--method exact|shards|simulate] [--rate R]\n"
	"                 [--sizes N,N,... | --points K] [--json]\n"
	"The miss-ratio curve of a page reference trace: the miss ratio of a reclaim policy\n"
	"at each memory size, in frames (docs/mrc.md).\n"
	"  --trace FILE     trace file (formats as mmemu replay; --format, --obj-id-col)\n"
	"  --refs LIST      reference string, e.g. 1,2,3,1,2,4\n"
	"  --policy NAME    reclaim module (default lru)\n"
	"  --param K=V      module parameter\n"
	"  --method M       exact: LRU stack distances, every size in one pass, no error\n"
	"                   (the default for lru); simulate: replay at each size, no error\n"
	"                   (the default for other policies); shards: spatially hashed\n"
	"                   sampling at --rate, with a stated error (2 standard errors)\n"
	"  --rate R         SHARDS sampling rate in (0, 1), e.g. 0.01 (implies shards)\n"
	"  --sizes LIST     increasing frame counts\n"
	"  --points K       K sizes log-spaced up to the page count (default: every size\n"
	"                   for exact, 32 otherwise)\n"
	"  --json           one JSON object (format mmemu-mrc/1; mmemu plot draws it)\n"
	"Exit: 0, or 2 for bad input or usage.\n";

/* Parse "N,N,..." into a new array. Returns: the count, or -1. */
static long parse_sizes(const char *s, uint32_t **out)
{
	long n = 1;
	for (const char *c = s; *c; c++)
		n += *c == ',';
	*out = malloc((size_t)n * sizeof **out);
	char *dup = strdup(s);
	if (!*out || !dup) {
		free(dup);
		return -1;
	}
	long k = 0;
	for (char *save = NULL, *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (k == n || cli_parse_uint(tok, 1, RECLAIM_NO_FRAME - 1, &v)) {
			k = -1;
			break;
		}
		(*out)[k++] = (uint32_t)v;
	}
	free(dup);
	return k == n ? n : -1;
}

/* @k sizes from @lo to @hi, evenly spaced on a log scale, duplicates dropped.
 * Returns: the count (at least 1). */
static size_t log_sizes(uint32_t lo, uint32_t hi, size_t k, uint32_t *out)
{
	size_t n = 0;
	if (hi < lo)
		hi = lo;
	for (size_t i = 0; i < k; i++) {
		double f = k > 1 ? (double)i / (double)(k - 1) : 1;
		uint32_t v = (uint32_t)llround(exp(log(lo) + f * (log(hi) - log(lo))));
		if (n == 0 || v > out[n - 1])
			out[n++] = v;
	}
	return n;
}

static json_t *to_json(const struct mrc *m, const char *src, const char *policy, json_t *params)
{
	json_t *pts = json_array();
	for (size_t k = 0; k < m->npoints; k++)
		json_array_append_new(pts, json_pack("{s:I, s:I, s:f, s:f}",
			"frames", (json_int_t)m->pts[k].frames, "misses", (json_int_t)m->pts[k].misses,
			"miss_ratio", m->pts[k].miss_ratio, "error", m->pts[k].error));
	return json_pack("{s:s, s:s, s:s, s:O, s:s, s:s, s:f, s:I, s:I, s:I, s:I, s:o}",
		"format", "mmemu-mrc/1", "trace", src, "policy", policy, "params", params,
		"method", mrc_method_name(m->method),
		"error", m->method == MRC_SHARDS ? "2 standard errors of the sampled estimate "
			 "(page sampling only)" : "none: exact",
		"rate", m->rate, "refs", (json_int_t)m->refs, "pages", (json_int_t)m->pages,
		"sampled_refs", (json_int_t)m->sampled_refs,
		"sampled_pages", (json_int_t)m->sampled_pages, "points", pts);
}

int cmd_mrc(int argc, char **argv)
{
	const char *policy = "lru", *refs = NULL, *tracef = NULL, *meth = NULL, *v;
	uint64_t col = 0, points = 0;
	double rate = 0;
	bool json = false;
	enum trace_format fmt = TRACE_AUTO;
	uint32_t *sizes = NULL;
	long nsizes = 0;
	int rc = 2, m;
	json_t *params = json_object();
	struct trace t = { 0 };
	struct mrc curve = { 0 };
	struct mm_err e = { "" };

	if (cli_wants_help(argc, argv)) {
		fputs(mrc_usage, stdout);
		json_decref(params);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0) {
			json = true;
		} else if ((m = cli_optval(argc, argv, &i, "--trace", &v)) > 0) {
			tracef = v;
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--refs", &v)) > 0) {
			refs = v;
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--policy", &v)) > 0) {
			policy = v;
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--method", &v)) > 0) {
			if (strcmp(v, "exact") && strcmp(v, "shards") && strcmp(v, "simulate")) {
				cli_usage_error("mrc", "--method: expected exact, shards or simulate, got \"%s\"", v);
				goto out;
			}
			meth = v;
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--rate", &v)) > 0) {
			char *end;
			rate = strtod(v, &end);
			if (*end || !(rate > 0 && rate < 1)) {
				cli_usage_error("mrc", "--rate: expected a sampling rate in (0, 1), got \"%s\"", v);
				goto out;
			}
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--sizes", &v)) > 0) {
			free(sizes);
			nsizes = parse_sizes(v, &sizes);
			if (nsizes < 0) {
				cli_usage_error("mrc", "--sizes: expected frame counts N,N,... in 1..%u, got \"%s\"",
						RECLAIM_NO_FRAME - 1, v);
				goto out;
			}
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--points", &v)) > 0) {
			if (cli_parse_uint(v, 1, 100000, &points)) {
				cli_usage_error("mrc", "--points: expected a count in 1..100000, got \"%s\"", v);
				goto out;
			}
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--format", &v)) > 0) {
			if (trace_format_parse(v, &fmt) < 0) {
				cli_usage_error("mrc", "--format: expected auto, plain, txt, csv or bin, got \"%s\"", v);
				goto out;
			}
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--obj-id-col", &v)) > 0) {
			if (cli_parse_uint(v, 1, 1000000, &col)) {
				cli_usage_error("mrc", "--obj-id-col: expected a 1-based column number, got \"%s\"", v);
				goto out;
			}
		} else if (m == 0 && (m = cli_optval(argc, argv, &i, "--param", &v)) > 0) {
			if (cli_keyvalue(params, "mrc", "--param", v))
				goto out;
		} else if (m < 0) {
			cli_usage_error("mrc", "%s: expected a value", a);
			goto out;
		} else {
			cli_usage_error("mrc", "unknown option \"%s\"", a);
			goto out;
		}
	}
	if (!!refs == !!tracef) {
		cli_usage_error("mrc", "give exactly one of --trace and --refs");
		goto out;
	}
	if (refs && (fmt != TRACE_AUTO || col)) {
		cli_usage_error("mrc", "--format and --obj-id-col apply to --trace only");
		goto out;
	}
	if (sizes && points) {
		cli_usage_error("mrc", "give --sizes or --points, not both");
		goto out;
	}
	enum mrc_method method = rate > 0 ? MRC_SHARDS : strcmp(policy, "lru") == 0 ? MRC_EXACT : MRC_SIMULATE;
	if (meth)
		method = strcmp(meth, "exact") == 0 ? MRC_EXACT : strcmp(meth, "shards") == 0 ? MRC_SHARDS : MRC_SIMULATE;
	if ((method == MRC_SHARDS) != (rate > 0)) {
		cli_usage_error("mrc", method == MRC_SHARDS ? "--method shards needs --rate"
				: "--rate applies to --method shards only");
		goto out;
	}
	if ((refs ? trace_from_string(&t, refs, "--refs", &e)
		  : trace_load(&t, tracef, fmt, (int)col, &e)) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	if (!sizes && (points || method != MRC_EXACT)) {
		size_t k = points ? points : 32;
		sizes = malloc(k * sizeof *sizes);
		if (!sizes) {
			fprintf(stderr, "mmemu mrc: out of memory\n");
			goto out;
		}
		uint32_t lo = method == MRC_SHARDS ? (uint32_t)ceil(1 / rate) : 1;
		nsizes = (long)log_sizes(lo, t.npages, k, sizes);
	}
	if (mrc_compute(t.refs, t.nrefs, t.npages, t.orig, policy, params, method, rate, sizes,
			(size_t)nsizes, &curve, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	if (json) {
		json_t *o = to_json(&curve, tracef ? tracef : "--refs", policy, params);
		char *s = o ? json_dumps(o, JSON_REAL_PRECISION(10)) : NULL;
		json_decref(o);
		if (!s) {
			fprintf(stderr, "mmemu mrc: out of memory\n");
			goto out;
		}
		printf("%s\n", s);
		free(s);
	} else {
		printf("policy   %s\nmethod   %s", policy, mrc_method_name(curve.method));
		if (curve.method == MRC_SHARDS)
			printf(" (rate %g: %llu of %llu references, %u of %u pages; error: 2 standard "
			       "errors)", curve.rate, (unsigned long long)curve.sampled_refs,
			       (unsigned long long)curve.refs, curve.sampled_pages, curve.pages);
		else
			printf(" (error: none)");
		printf("\nrefs     %llu\npages    %u\n%10s %10s %10s\n", (unsigned long long)curve.refs,
		       curve.pages, "frames", "miss_ratio", "error");
		for (size_t k = 0; k < curve.npoints; k++)
			printf("%10u %10.6f %10.6f\n", curve.pts[k].frames, curve.pts[k].miss_ratio,
			       curve.pts[k].error);
	}
	rc = 0;
out:
	mrc_free(&curve);
	trace_free(&t);
	free(sizes);
	json_decref(params);
	return rc;
}
