/*
 * api_replay.c - POST /api/replay: a reference string or a shipped trace through
 * one or more reclaim policies at one or more frame counts, every step recorded.
 *
 * Design: the request is checked key by key (every error names its JSON path in
 * the request), the trace is built once (trace_from_string() for "refs", the
 * confined trace_load() for "trace": only shipped files), then every (policy,
 * frames) pair is one replay_table() - the very object `mmemu replay --steps
 * --json` prints.  Limits keep one request small: frames up to 100000, at most
 * 32 tables, at most 200000 references x frames per table.
 */
#include "emu/serve/serve_int.h"

#include <stdio.h>
#include <string.h>

#include "workloads/replay_table.h"
#include "workloads/tracefile.h"

#define REPLAY_MAX_FRAMES 100000
#define REPLAY_MAX_TABLES 32
#define REPLAY_MAX_CELLS 200000

static const char *const replay_keys[] = { "refs", "trace", "frames", "policies", "params", NULL };


/* Returns: 0 with @out[0..*n) the frame counts of @v (an integer or an array of
 * them), or -1 with @r set. */
static int frames_of(json_t *v, json_int_t *out, int *n, struct serve_reply *r)
{
	*n = 0;
	if (json_is_integer(v)) {
		out[(*n)++] = json_integer_value(v);
	} else if (json_is_array(v) && json_array_size(v) > 0 && json_array_size(v) <= REPLAY_MAX_TABLES) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			if (!json_is_integer(x)) {
				reply_error(r, 400, "request: frames[%zu]: expected an integer in 1..%d", i,
					    REPLAY_MAX_FRAMES);
				return -1;
			}
			out[(*n)++] = json_integer_value(x);
		}
	} else {
		reply_error(r, 400, "request: frames: expected an integer in 1..%d or an array of 1 to %d of them",
			    REPLAY_MAX_FRAMES, REPLAY_MAX_TABLES);
		return -1;
	}
	for (int i = 0; i < *n; i++)
		if (out[i] < 1 || out[i] > REPLAY_MAX_FRAMES) {
			reply_error(r, 400, "request: frames: expected an integer in 1..%d, got %lld",
				    REPLAY_MAX_FRAMES, (long long)out[i]);
			return -1;
		}
	return 0;
}

void api_replay(struct serve *s, json_t *req, struct serve_reply *r)
{
	if (body_keys(req, replay_keys, r))
		return;
	json_t *refs = json_object_get(req, "refs"), *tracef = json_object_get(req, "trace");
	json_t *pols = json_object_get(req, "policies"), *params = json_object_get(req, "params");
	if (!!refs == !!tracef) {
		reply_error(r, 400, "request: expected exactly one of refs (a reference string) and trace (a shipped trace file)");
		return;
	}
	if (refs && !json_is_string(refs)) {
		reply_error(r, 400, "request: refs: expected a reference string such as \"7,0,1,2,0,3\"");
		return;
	}
	if (tracef && !json_is_string(tracef)) {
		reply_error(r, 400, "request: trace: expected the path of a shipped trace file");
		return;
	}
	json_t *fr = json_object_get(req, "frames");
	json_int_t frames[REPLAY_MAX_TABLES];
	int nf;
	if (!fr) {
		reply_error(r, 400, "request: frames: missing (expected an integer in 1..%d)", REPLAY_MAX_FRAMES);
		return;
	}
	if (frames_of(fr, frames, &nf, r))
		return;
	if (!json_is_array(pols) || json_array_size(pols) == 0) {
		reply_error(r, 400, "request: policies: expected a non-empty array of reclaim module names");
		return;
	}
	if ((size_t)nf * json_array_size(pols) > REPLAY_MAX_TABLES) {
		reply_error(r, 400, "request: policies: expected at most %d policies x frame counts, got %zu",
			    REPLAY_MAX_TABLES, (size_t)nf * json_array_size(pols));
		return;
	}
	size_t i;
	json_t *p;
	json_array_foreach(pols, i, p)
		if (!json_is_string(p)) {
			reply_error(r, 400, "request: policies[%zu]: expected a reclaim module name", i);
			return;
		}
	if (params && !json_is_object(params)) {
		reply_error(r, 400, "request: params: expected an object mapping policy names to parameter objects");
		return;
	}
	struct trace t = { 0 };
	struct mm_err e = { "" };
	int lrc = refs ? trace_from_string(&t, json_string_value(refs), "refs", &e)
		       : trace_load(&t, json_string_value(tracef), TRACE_AUTO, 0, &e);
	if (lrc < 0) {
		reply_error(r, 400, "request: %s%s", tracef ? "trace: " : "", e.msg);
		return;
	}
	json_t *runs = json_array();
	json_array_foreach(pols, i, p) {
		const char *name = json_string_value(p);
		json_t *pp = params ? json_object_get(params, name) : NULL;
		char ppath[160], polpath[64];
		snprintf(ppath, sizeof ppath, "params.%s", name);
		snprintf(polpath, sizeof polpath, "policies[%zu]", i);
		if (pp && !json_is_object(pp)) {
			reply_error(r, 400, "request: %s: expected an object of module parameters", ppath);
			goto fail;
		}
		for (int k = 0; k < nf; k++) {
			json_t *o = replay_table(&t, name, polpath, (uint32_t)frames[k], pp, ppath,
						 REPLAY_MAX_CELLS, &e);
			if (!o) {
				reply_error(r, 400, "request: %s", e.msg);
				goto fail;
			}
			json_array_append_new(runs, o);
		}
	}
	trace_free(&t);
	/* the precision `mmemu replay --json` prints with: the very same numbers */
	json_t *o = json_pack("{s:o}", "runs", runs);
	char *txt = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(o);
	if (txt) {
		r->status = 200;
		r->ctype = "application/json";
		r->body = txt;
		r->len = strlen(txt);
	} else {
		reply_error(r, 500, "server: out of memory");
	}
	(void)s;
	return;
fail:
	json_decref(runs);
	trace_free(&t);
}
