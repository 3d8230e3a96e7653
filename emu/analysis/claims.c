/*
 * claims.c - the claim kind registry and claim_judge() (claims.h).
 *
 * Design: the registry is one static array of (kind, form, evaluator) lines, in
 * the order the kinds were introduced; claim_judge() looks the kind up, runs the
 * evaluator on a fresh "not checked" verdict and turns the outcome into the
 * claim's JSON object.  A kind the registry lacks is "not checked", never an
 * error, so a published file may carry claims a later version will judge.
 */
#include "emu/analysis/claims.h"

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
	if (pct)
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

json_t *claim_judge(const struct claim_ctx *c, json_t *cl)
{
	struct verdict vd = { "not checked", NULL, 0, json_array(), { 0 } };
	noise_init(&vd.nz);
	const char *kind = json_string_value(json_object_get(cl, "kind")) ?: "";
	const struct claim_kind *ck = claim_kind_find(kind, c->point_key == NULL);
	if (ck)
		ck->judge(c, cl, &vd);
	else
		VERDICT_DETAIL(&vd, "unknown claim kind \"%s\"", kind);
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "id",
			      json_string_value(json_object_get(cl, "id")) ?: "", "kind", kind, "text",
			      json_string_value(json_object_get(cl, "text")) ?: "", "verdict", vd.v, "detail",
			      vd.detail ? vd.detail : "", "cells", vd.cells);
	noise_attach(o, &vd.nz);
	free(vd.detail);
	return o;
}
