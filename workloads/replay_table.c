/*
 * replay_table.c - a replay recorded step by step as JSON (see replay_table.h).
 *
 * Design: the ordinary replay loop (replay_run) with a step callback that appends
 * one object per reference: the frame contents by original page number, the
 * fault mark, the victim (replay keeps the page the last fault evicted) and
 * whatever the module's describe() method adds (reclaim.h, version 2).  One
 * builder for the command line and the web server, so both print the same
 * objects.
 */
#include "workloads/replay_table.h"

#include <stdio.h>
#include <string.h>

#include "models/reclaim/reclaim.h"
#include "workloads/replay.h"

struct table_rec {
	const struct trace *t;
	struct replay *rp;
	json_t *steps;
};

static json_t *page_json(const struct trace *t, uint32_t p)
{
	return p == RECLAIM_NO_FRAME ? json_null() : json_integer((json_int_t)t->orig[p]);
}

static void record(void *arg, uint64_t i, uint32_t page, int fault, const uint32_t *page_of,
		   uint32_t nframes)
{
	struct table_rec *tr = arg;
	json_t *fr = json_array();
	for (uint32_t f = 0; f < nframes; f++)
		json_array_append_new(fr, page_json(tr->t, page_of[f]));
	json_t *s = json_pack("{s:o, s:b, s:o, s:o}", "ref", page_json(tr->t, page), "fault", fault,
			      "victim", page_json(tr->t, fault ? tr->rp->last_victim : RECLAIM_NO_FRAME),
			      "frames", fr);
	if (s)
		reclaim_describe(tr->rp->r, s);
	json_array_append_new(tr->steps, s);
	(void)i;
}

/* "a, b, c": the reclaim modules replay runs. Returns: @buf. */
static char *frame_policies(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const struct reclaim_ops *const *m = reclaim_modules(); *m && n < len; m++)
		if (reclaim_has_frames(*m))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", (*m)->name);
	return buf;
}

json_t *replay_table(const struct trace *t, const char *policy, const char *policy_path,
		     uint32_t frames, json_t *params, const char *ppath, uint64_t max_cells,
		     struct mm_err *e)
{
	const struct reclaim_ops *ro = reclaim_find(policy);
	if (!ro || !reclaim_has_frames(ro)) {
		char names[256];
		mm_errf(e, NULL, policy_path, "expected a reclaim module replay runs (%s), got %s\"%s\"",
			frame_policies(names, sizeof names), ro ? "the zone-level module " : "", policy);
		return NULL;
	}
	if ((uint64_t)t->nrefs * frames > max_cells) {
		mm_errf(e, NULL, policy_path, "expected at most %llu references x frames for a step "
			"table, got %zu x %u", (unsigned long long)max_cells, t->nrefs, frames);
		return NULL;
	}
	struct reclaim *r = reclaim_create(policy, params, frames, NULL, NULL, ppath, e);
	if (!r)
		return NULL;
	struct replay rp;
	json_t *o = NULL;
	if (replay_init(&rp, r, t->npages, NULL, e) < 0) {
		reclaim_destroy(r);
		return NULL;
	}
	struct table_rec tr = { t, &rp, json_array() };
	if (tr.steps && replay_run(&rp, t->refs, t->nrefs, record, &tr, e) == 0) {
		json_t *eff = reclaim_params_json(r);
		if (eff)
			json_object_del(eff, "module");
		double ratio = rp.refs ? (double)rp.faults / (double)rp.refs : 0;
		o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:o, s:O}", "policy", r->ops->name,
			      "frames", (json_int_t)frames, "pages", (json_int_t)t->npages,
			      "refs", (json_int_t)rp.refs, "faults", (json_int_t)rp.faults,
			      "hits", (json_int_t)rp.hits, "miss_ratio", ratio,
			      "params", eff ? eff : json_object(), "steps", tr.steps);
		if (!o)
			mm_errf(e, NULL, NULL, "replay: out of memory");
	}
	json_decref(tr.steps);
	replay_fini(&rp);
	reclaim_destroy(r);
	return o;
}
