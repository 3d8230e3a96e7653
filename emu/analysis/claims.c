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
