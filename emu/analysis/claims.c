/*
 * claims.c - the claim kind registry and claim_judge() (claims.h).
 *
 * Design: the registry is one static array of (kind, form, evaluator) lines, in
 * the order the kinds were introduced; claim_judge() looks the kind up, runs the
 * evaluator on a fresh "not checked" verdict and turns the outcome into the
 * claim's JSON object.  A kind the registry lacks is "not checked", never an
 * error, so a published file may carry claims a later version will judge.  When
 * the runs come from several base seeds (`reproduce --seeds K`), the claim is
 * also judged on each seed's runs alone; a verdict that is reproduced with one
 * seed and not reproduced with another (or pooled) is "inconclusive".
 */
#include "emu/analysis/claims.h"

#include "emu/analysis/basis.h"
#include "emu/analysis/headline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct claim_kind registry[] = {
	{ "direction", 0, claim_direction },
	{ "shape", 0, claim_shape },
	{ "value", 0, claim_value },
	{ "relative", 0, claim_relative },
	{ "series-varies", 0, claim_series_varies },
	{ "relative", 1, claim_rows_relative },
	{ "flat", 1, claim_rows_flat },
	{ "difference", 1, claim_rows_difference },
	{ "rank", 1, claim_rows_rank },
	{ "within", 1, claim_rows_within },
	{ "value", 1, claim_rows_value },
	{ "spread", 1, claim_rows_spread },
	{ "stays", 1, claim_rows_stays },
	{ NULL, 0, NULL },
};

const struct claim_kind *claim_kind_find(const char *name, int tables)
{
	for (size_t i = 0; name && registry[i].name; i++)
		if (registry[i].tables == tables && !strcmp(registry[i].name, name))
			return &registry[i];
	return NULL;
}

const char *claim_outcome_name(int outcome)
{
	return outcome == CLAIM_YES ? "reproduced" : outcome == CLAIM_NO ? "not reproduced" : "inconclusive";
}

const char *claim_outcome_tag(int outcome, const char *no)
{
	return outcome == CLAIM_YES ? "" : outcome == CLAIM_NO ? no : " [inconclusive]";
}

int claim_range_outcome(double lo, double hi, double want_lo, double want_hi)
{
	if (lo >= want_lo - 1e-9 && hi <= want_hi + 1e-9)
		return CLAIM_YES;
	if (hi < want_lo - 1e-9 || lo > want_hi + 1e-9)
		return CLAIM_NO;
	return CLAIM_UNSURE;
}

int claim_support_outcome(size_t yes, size_t n)
{
	return n && yes == n ? CLAIM_YES : n && yes == 0 ? CLAIM_NO : CLAIM_UNSURE;
}

char *claim_ci_text(char *b, size_t n, const struct stats_ci *ci, double level, int pct)
{
	if (ci->lo == ci->hi)
		snprintf(b, n, "deterministic in the model: the same in every paired run");
	else if (pct)
		snprintf(b, n, "%.0f%% CI %+.1f%% .. %+.1f%%", 100 * level, 100 * ci->lo, 100 * ci->hi);
	else
		snprintf(b, n, "%.0f%% CI %+.4g .. %+.4g", 100 * level, ci->lo, ci->hi);
	return b;
}

void verdict_not_checked(struct verdict *vd, const char *why)
{
	vd->v = "not checked";
	free(vd->detail);
	vd->detail = NULL;
	vd->dlen = 0;
	VERDICT_DETAIL(vd, "%s", why);
}

/* Run kind @ck (or the unknown-kind verdict) on @c: a fresh verdict in @vd;
 * "not checked" with the claim's reason when it is "not_modelled". */
static void judge_into(const struct claim_ctx *c, const struct claim_kind *ck, const char *kind, json_t *cl,
		       struct verdict *vd)
{
	vd->v = "not checked";
	vd->detail = NULL;
	vd->dlen = 0;
	vd->cells = json_array();
	noise_init(&vd->nz);
	const char *nm = json_string_value(json_object_get(cl, "not_modelled"));
	if (nm)   /* the claim's mechanism or benchmark is absent from the model, said why */
		VERDICT_DETAIL(vd, "not modelled: %s", nm);
	else if (ck)
		ck->judge(c, cl, vd);
	else
		VERDICT_DETAIL(vd, "unknown claim kind \"%s\"", kind);
}

/* The distinct base seeds ("seed") of @runs, in order of first appearance. */
static json_t *base_seeds(json_t *runs)
{
	json_t *seeds = json_array();
	size_t i;
	json_t *r;
	json_array_foreach(runs, i, r)
		if (json_is_integer(json_object_get(r, "seed")))
			report_add_unique(seeds, json_object_get(r, "seed"));
	return seeds;
}

/*
 * Judge @cl on the runs of each base seed alone.  Returns: a new object {seed:
 * verdict}; *@flips is 1 when two seeds, or a seed and the pooled verdict
 * @pooled, reach opposite decided verdicts (reproduced vs not reproduced).
 */
static json_t *per_seed(const struct claim_ctx *c, const struct claim_kind *ck, const char *kind, json_t *cl,
			json_t *seeds, const char *pooled, int *flips)
{
	json_t *out = json_object();
	int yes = !strcmp(pooled, "reproduced"), no = !strcmp(pooled, "not reproduced");
	size_t i, j;
	json_t *sd, *r;
	json_array_foreach(seeds, i, sd) {
		struct claim_ctx one = *c;
		one.runs = json_array();
		json_array_foreach(c->runs, j, r)
			if (json_equal(json_object_get(r, "seed"), sd))
				json_array_append(one.runs, r);
		struct verdict vd;
		judge_into(&one, ck, kind, cl, &vd);
		yes |= !strcmp(vd.v, "reproduced");
		no |= !strcmp(vd.v, "not reproduced");
		char key[32];
		snprintf(key, sizeof key, "%lld", (long long)json_integer_value(sd));
		json_object_set_new(out, key, json_string(vd.v));
		free(vd.detail);
		json_decref(vd.cells);
		noise_attach(NULL, &vd.nz);
		json_decref(one.runs);
	}
	*flips = yes && no;
	return out;
}

json_t *claim_judge(const struct claim_ctx *c, json_t *cl)
{
	struct verdict vd;
	const char *kind = json_string_value(json_object_get(cl, "kind")) ?: "";
	const struct claim_kind *ck = claim_kind_find(kind, c->point_key == NULL);
	judge_into(c, ck, kind, cl, &vd);
	/* several base seeds: a verdict that flips between them is inconclusive */
	json_t *seeds = base_seeds(c->runs), *by_seed = NULL;
	if (json_array_size(seeds) > 1 && strcmp(vd.v, "not checked")) {
		int flips;
		by_seed = per_seed(c, ck, kind, cl, seeds, vd.v, &flips);
		char *pooled = vd.detail;
		size_t plen = vd.dlen;
		vd.detail = NULL;
		vd.dlen = 0;
		VERDICT_DETAIL(&vd, "%s", flips ? "verdict flips between base seeds (" : "base seeds (");
		const char *key;
		json_t *v;
		int first = 1;
		json_object_foreach(by_seed, key, v) {
			VERDICT_DETAIL(&vd, "%s%s: %s", first ? "" : ", ", key, json_string_value(v));
			first = 0;
		}
		VERDICT_DETAIL(&vd, "); pooled %s: %.*s", vd.v, (int)plen, pooled ? pooled : "");
		free(pooled);
		if (flips)
			vd.v = "inconclusive";
	}
	json_decref(seeds);
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "id",
			      json_string_value(json_object_get(cl, "id")) ?: "", "kind", kind, "text",
			      json_string_value(json_object_get(cl, "text")) ?: "", "verdict", vd.v, "detail",
			      vd.detail ? vd.detail : "", "cells", vd.cells);
	if (by_seed)
		json_object_set_new(o, "base_seeds", by_seed);
	noise_attach(o, &vd.nz);
	free(vd.detail);
	/* one published run inside the model's run-to-run noise can neither be
	 * confirmed nor refuted by the emulated direction */
	const char *ev = json_string_value(json_object_get(cl, "evidence"));
	json_t *ns = json_object_get(o, "noise_summary");
	if (ev && !strcmp(ev, "single run") && !strcmp(vd.v, "not reproduced") &&
	    json_integer_value(json_object_get(ns, "inside_noise")) > 0) {
		json_object_set_new(o, "verdict", json_string("inconclusive"));
		size_t dl = strlen(json_string_value(json_object_get(o, "detail")));
		char *d = malloc(dl + 200);
		snprintf(d, dl + 200, "%s; a single published run, inside the model's run-to-run noise: not a band, "
				      "so not refuted [inconclusive]",
			 json_string_value(json_object_get(o, "detail")));
		json_object_set_new(o, "detail", json_string(d));
		free(d);
	}
	if (json_is_true(json_object_get(cl, "any")))
		json_object_set_new(o, "any", json_true());
	if (ev)
		json_object_set_new(o, "evidence", json_string(ev));
	basis_claim(c, cl, o);
	headline_claim(o, cl);
	return o;
}
