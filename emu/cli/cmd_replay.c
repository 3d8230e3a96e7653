/*
 * cmd_replay.c - `mmemu replay`: replay a reference string or trace file against a
 * reclaim policy and report faults (plain text, a textbook steps table, or JSON).
 *
 * Design: hand-rolled option parsing (no getopt state, so the command can be run
 * many times in one process, e.g. from tests); --param key=value pairs become a
 * JSON object handed to reclaim_create(), so modules see exactly what a scenario
 * file would give them.  --steps records the frame contents after every reference
 * (dense ids, nrefs x nframes cells, capped) and prints them with the original page
 * numbers, wrapped into blocks of at most ~100 columns.
 */
#include "emu/cli/cli.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "emu/engine/kreplay.h"
#include "models/reclaim/reclaim.h"
#include "workloads/replay.h"
#include "workloads/replay_table.h"
#include "workloads/tracefile.h"

#define STEPS_MAX_CELLS ((uint64_t)10 * 1000 * 1000)

/* The reclaim modules replay runs, as "a, b, c": those on frames, then the
 * zone-level ones (on a one-zone kernel, emu/engine/kreplay.c). */
static void policies(char *buf, size_t len)
{
	const struct reclaim_ops *const *m = reclaim_modules();
	size_t n = 0;
	buf[0] = '\0';
	for (int zoned = 0; zoned < 2; zoned++)
		for (size_t i = 0; m[i] && n < len; i++)
			if ((!reclaim_has_frames(m[i])) == zoned)
				n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", m[i]->name);
}

static void usage(FILE *f)
{
	char names[256];
	policies(names, sizeof names);
	fputs("usage: mmemu replay --policy NAME --frames N (--refs 1,2,3,... | --trace FILE)\n"
	      "                    [--format auto|plain|txt|csv|bin] [--obj-id-col N]\n"
	      "                    [--param key=value ...] [--steps] [--json] [--time]\n"
	      "Replay a page reference string against a reclaim policy (untimed) and count\n"
	      "faults.  Policies: ", f);
	fputs(names, f);
	fputs(".\nlru2q and clockpro run on a one-zone kernel that replay builds (the page\n"
	      "cache held to N frames; --steps shows their lists).\n"
	      "  --policy NAME      reclaim module\n"
	      "  --frames N         number of page frames (>= 1)\n"
	      "  --refs LIST        reference string, e.g. 7,0,1,2,0,3\n"
	      "  --trace FILE       trace file (one page per line, or libCacheSim txt/csv)\n"
	      "  --format F         trace format (default auto: .csv or commas -> csv)\n"
	      "  --obj-id-col N     csv: 1-based column of the object id (default: header\n"
	      "                     column obj_id, obj-id, objId or key)\n"
	      "  --param KEY=VALUE  module parameter (VALUE as JSON if it parses, else string)\n"
	      "  --steps            print the frame contents after each reference\n"
	      "  --json             print one JSON object (with --steps: the step table as\n"
	      "                     JSON, also what `mmemu serve` answers POST /api/replay)\n"
	      "  --time             print load and replay times on stderr (with --json:\n"
	      "                     load_s, prepare_s, replay_s in the object)\n"
	      "  --help             this text\n", f);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct steps {
	uint32_t *cells;   /* nrefs x nframes dense page ids */
	uint8_t *fault;
	uint32_t nframes;
};

static void record(void *arg, uint64_t i, uint32_t page, int fault, const uint32_t *page_of,
		   uint32_t nframes)
{
	struct steps *s = arg;
	(void)page;
	memcpy(s->cells + i * nframes, page_of, nframes * sizeof *page_of);
	s->fault[i] = (uint8_t)fault;
}

static int digits(uint64_t v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static void print_steps(const struct steps *s, const struct trace *t)
{
	int w = 1;
	for (uint32_t p = 0; p < t->npages; p++)
		if (digits(t->orig[p]) > w)
			w = digits(t->orig[p]);
	char lab[32];
	int lw = snprintf(lab, sizeof lab, "frame %u", s->nframes - 1);
	if (lw < 5)
		lw = 5;
	size_t per = (size_t)((100 - lw) / (w + 1));
	if (per < 1)
		per = 1;
	for (size_t b = 0; b < t->nrefs; b += per) {
		size_t e = b + per < t->nrefs ? b + per : t->nrefs;
		if (b)
			putchar('\n');
		printf("%-*s", lw, "ref");
		for (size_t i = b; i < e; i++)
			printf(" %*llu", w, (unsigned long long)t->orig[t->refs[i]]);
		putchar('\n');
		for (uint32_t f = 0; f < s->nframes; f++) {
			snprintf(lab, sizeof lab, "frame %u", f);
			printf("%-*s", lw, lab);
			for (size_t i = b; i < e; i++) {
				uint32_t p = s->cells[i * s->nframes + f];
				if (p == RECLAIM_NO_FRAME)
					printf(" %*s", w, "");
				else
					printf(" %*llu", w, (unsigned long long)t->orig[p]);
			}
			putchar('\n');
		}
		printf("%-*s", lw, "fault");
		for (size_t i = b; i < e; i++)
			printf(" %*s", w, s->fault[i] ? "F" : "");
		putchar('\n');
	}
	putchar('\n');
}

/* The common summary of a replay (plain text), after the steps if any. */
static void summary(const char *policy, json_t *eff, uint64_t frames, uint32_t pages,
		    uint64_t refs, uint64_t faults, uint64_t hits)
{
	printf("policy     %s\n", policy);
	if (eff && json_object_size(eff)) {
		char *s = json_dumps(eff, JSON_COMPACT);
		if (s)
			printf("params     %s\n", s);
		free(s);
	}
	printf("frames     %llu\n", (unsigned long long)frames);
	printf("pages      %u\n", pages);
	printf("refs       %llu\n", (unsigned long long)refs);
	printf("faults     %llu\n", (unsigned long long)faults);
	printf("hits       %llu\n", (unsigned long long)hits);
	printf("miss ratio %.4f\n", refs ? (double)faults / (double)refs : 0);
}

/* A zone-level module on replay's one-zone kernel. Returns: the exit status. */
static int kernel_replay(const char *policy, json_t *params, uint32_t frames,
			 const struct trace *t, bool steps, bool json)
{
	struct mm_err e = { { 0 } };
	struct kreplay_result res;
	if (kreplay_run(policy, params, frames, t->refs, t->nrefs, t->npages, t->orig, steps,
			&res, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	/* effective parameters, defaults included, as the frame-level replay prints */
	struct reclaim *r = reclaim_create(policy, params, frames, NULL, "--param", NULL, &e);
	json_t *eff = r ? reclaim_params_json(r) : NULL;
	reclaim_destroy(r);
	if (eff)
		json_object_del(eff, "module");
	double ratio = res.refs ? (double)res.faults / (double)res.refs : 0;
	int rc = 0;
	if (json) {
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:o, s:{s:I, s:I}}",
				      "policy", policy, "frames", (json_int_t)frames,
				      "pages", (json_int_t)t->npages, "refs", (json_int_t)res.refs,
				      "faults", (json_int_t)res.faults, "hits", (json_int_t)res.hits,
				      "miss_ratio", ratio, "params", eff ? eff : json_object(),
				      "kernel", "reclaims", (json_int_t)res.reclaims,
				      "freed", (json_int_t)res.freed);
		eff = NULL;
		char *s = o ? json_dumps(o, JSON_REAL_PRECISION(10)) : NULL;
		if (s)
			printf("%s\n", s);
		else
			rc = 2;
		free(s);
		json_decref(o);
	} else {
		if (res.steps)
			printf("%s\n", res.steps);
		summary(policy, eff, frames, t->npages, res.refs, res.faults, res.hits);
		printf("reclaims   %llu (%llu pages freed)\n", (unsigned long long)res.reclaims,
		       (unsigned long long)res.freed);
	}
	json_decref(eff);
	kreplay_free(&res);
	fflush(stdout);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	const char *policy = NULL, *refs = NULL, *tracef = NULL, *fmtname = "auto";
	uint64_t frames = 0, col = 0;
	bool steps = false, json = false, timing = false, have_frames = false;
	enum trace_format fmt = TRACE_AUTO;
	json_t *params = json_object();
	int rc = 2;
	struct trace t = { 0 };
	struct reclaim *r = NULL;
	struct replay rp = { 0 };
	struct steps st = { 0 };
	struct mm_err e = { { 0 } };
	bool rp_init = false;

	if (!params)
		return cli_usage_error("replay", "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int m;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (strcmp(a, "--steps") == 0) {
			steps = true;
		} else if (strcmp(a, "--json") == 0) {
			json = true;
		} else if (strcmp(a, "--time") == 0) {
			timing = true;
		} else if ((m = cli_optval(argc, argv, &i, "--policy", &v)) != 0) {
			if (m < 0)
				goto missing;
			policy = v;
		} else if ((m = cli_optval(argc, argv, &i, "--frames", &v)) != 0) {
			if (m < 0)
				goto missing;
			if (cli_parse_uint(v, 1, RECLAIM_NO_FRAME - 1, &frames) < 0) {
				cli_usage_error("replay", "--frames: expected a number of frames in 1..%u, got \"%s\"",
				     RECLAIM_NO_FRAME - 1, v);
				goto out;
			}
			have_frames = true;
		} else if ((m = cli_optval(argc, argv, &i, "--refs", &v)) != 0) {
			if (m < 0)
				goto missing;
			refs = v;
		} else if ((m = cli_optval(argc, argv, &i, "--trace", &v)) != 0) {
			if (m < 0)
				goto missing;
			tracef = v;
		} else if ((m = cli_optval(argc, argv, &i, "--format", &v)) != 0) {
			if (m < 0)
				goto missing;
			if (trace_format_parse(v, &fmt) < 0) {
				cli_usage_error("replay", "--format: expected auto, plain, txt or csv, got \"%s\"", v);
				goto out;
			}
			fmtname = v;
		} else if ((m = cli_optval(argc, argv, &i, "--obj-id-col", &v)) != 0) {
			if (m < 0)
				goto missing;
			if (cli_parse_uint(v, 1, 1000000, &col) < 0) {
				cli_usage_error("replay", "--obj-id-col: expected a 1-based column number, got \"%s\"", v);
				goto out;
			}
		} else if ((m = cli_optval(argc, argv, &i, "--param", &v)) != 0) {
			if (m < 0)
				goto missing;
			if (cli_keyvalue(params, "replay", "--param", v))
				goto out;
		} else {
			cli_usage_error("replay", "unknown option \"%s\"", a);
			goto out;
		}
		continue;
missing:
		cli_usage_error("replay", "%s: expected a value", a);
		goto out;
	}
	(void)fmtname;
	if (!policy) {
		cli_usage_error("replay", "--policy is required");
		goto out;
	}
	if (!have_frames) {
		cli_usage_error("replay", "--frames is required");
		goto out;
	}
	if (!!refs == !!tracef) {
		cli_usage_error("replay", "give exactly one of --refs and --trace");
		goto out;
	}
	if (steps && json && timing) {
		cli_usage_error("replay", "--time cannot be combined with --steps --json");
		goto out;
	}
	if (refs && (fmt != TRACE_AUTO || col)) {
		cli_usage_error("replay", "--format and --obj-id-col apply to --trace only");
		goto out;
	}

	double t0 = now_s();
	int lrc = refs ? trace_from_string(&t, refs, "--refs", &e)
		       : trace_load(&t, tracef, fmt, (int)col, &e);
	double t1 = now_s();
	if (lrc < 0) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	const struct reclaim_ops *ro = reclaim_find(policy);
	if (!ro) {
		char names[256];
		policies(names, sizeof names);
		fprintf(stderr, "--policy: unknown reclaim module \"%s\" (replay runs: %s)\n", policy,
			names);
		goto out;
	}
	if (!reclaim_has_frames(ro)) {
		rc = kernel_replay(policy, params, (uint32_t)frames, &t, steps, json);
		goto out;
	}
	if (steps && json) {   /* the step table as JSON (workloads/replay_table.h) */
		json_t *o = replay_table(&t, policy, "--policy", (uint32_t)frames, params, "--param",
					 STEPS_MAX_CELLS, &e);
		char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
		json_decref(o);
		if (!s) {
			fprintf(stderr, "%s\n", o ? "mmemu replay: out of memory" : e.msg);
			goto out;
		}
		printf("%s\n", s);
		free(s);
		rc = 0;
		goto out;
	}
	r = reclaim_create(policy, params, (uint32_t)frames, NULL, "--param", NULL, &e);
	if (!r) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	if (replay_init(&rp, r, t.npages, NULL, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	rp_init = true;
	if (steps) {
		if ((uint64_t)t.nrefs * frames > STEPS_MAX_CELLS) {
			cli_usage_error("replay", "--steps is for small strings: %zu references x %llu frames is more "
			     "than %llu cells", t.nrefs, (unsigned long long)frames,
			     (unsigned long long)STEPS_MAX_CELLS);
			goto out;
		}
		st.nframes = (uint32_t)frames;
		st.cells = malloc(t.nrefs * frames * sizeof *st.cells);
		st.fault = malloc(t.nrefs);
		if (!st.cells || !st.fault) {
			fprintf(stderr, "mmemu replay: out of memory\n");
			goto out;
		}
	}
	double t2 = now_s();
	if (replay_prepare(&rp, t.refs, t.nrefs, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	double t3 = now_s();
	if (replay_run(&rp, t.refs, t.nrefs, steps ? record : NULL, &st, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		goto out;
	}
	double t4 = now_s();

	double ratio = rp.refs ? (double)rp.faults / (double)rp.refs : 0;
	json_t *eff = reclaim_params_json(r);
	if (eff)
		json_object_del(eff, "module");
	if (json) {
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:o}",
				      "policy", r->ops->name, "frames", (json_int_t)frames,
				      "pages", (json_int_t)t.npages,
				      "refs", (json_int_t)rp.refs, "faults", (json_int_t)rp.faults,
				      "hits", (json_int_t)rp.hits, "miss_ratio", ratio,
				      "params", eff ? eff : json_object());
		if (o && timing) {   /* host times: only on request, so --json stays deterministic */
			json_object_set_new(o, "load_s", json_real(t1 - t0));
			if (r->ops->prepare)
				json_object_set_new(o, "prepare_s", json_real(t3 - t2));
			json_object_set_new(o, "replay_s", json_real(t4 - t3));
		}
		char *s = o ? json_dumps(o, JSON_REAL_PRECISION(10)) : NULL;
		if (!s) {
			json_decref(o);
			fprintf(stderr, "mmemu replay: out of memory\n");
			goto out;
		}
		printf("%s\n", s);
		free(s);
		json_decref(o);
	} else {
		if (steps)
			print_steps(&st, &t);
		summary(r->ops->name, eff, frames, t.npages, rp.refs, rp.faults, rp.hits);
		json_decref(eff);
	}
	fflush(stdout);
	if (timing && !json) {
		double n = rp.refs ? (double)rp.refs : 1;
		fprintf(stderr, "load       %.3f ms (%zu refs, %.1f ns/ref)\n", (t1 - t0) * 1e3,
			t.nrefs, (t1 - t0) * 1e9 / n);
		if (r->ops->prepare)
			fprintf(stderr, "prepare    %.3f ms (%.1f ns/ref)\n", (t3 - t2) * 1e3,
				(t3 - t2) * 1e9 / n);
		fprintf(stderr, "replay     %.3f ms (%.1f ns/ref, %.2f Mrefs/s)\n", (t4 - t3) * 1e3,
			(t4 - t3) * 1e9 / n, n / (t4 - t3) / 1e6);
	}
	rc = 0;
out:
	free(st.cells);
	free(st.fault);
	if (rp_init)
		replay_fini(&rp);
	reclaim_destroy(r);
	trace_free(&t);
	json_decref(params);
	return rc;
}
