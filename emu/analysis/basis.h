/*
 * basis.h - what a verdict rests on (docs/compare.md, "Basis"): the kernels'
 * own mechanisms, the model's construction, or a calibrated constant.
 */
#ifndef MMEMU_BASIS_H
#define MMEMU_BASIS_H

#include <jansson.h>

#include "emu/analysis/emulated.h"

/* The three bases, in the order the summaries count them. */
#define BASIS_MECHANISM "mechanism"
#define BASIS_CONSTRUCTION "by construction"
#define BASIS_CALIBRATED "calibrated"

/**
 * basis_index() - Returns: 0 for "mechanism", 1 for "by construction", 2 for
 * "calibrated", -1 for anything else.
 */
int basis_index(const char *basis);

/**
 * basis_claim() - decide the basis of claim object @o (claim_judge() of the
 * published claim @cl on @c) and set its "basis", "basis_reason" and
 * "basis_source" ("detected", "declared" or "default").  Detected first: when
 * every two-kernel comparison the claim makes has bit-identical values of its
 * metric for both kernels in every paired run, the claim holds by construction.
 * Then the claim's own "basis" and "basis_reason", then the published file's
 * "inputs" ({metric: reason}: the metric is an input or a constant of the
 * model), else "mechanism".  Returns: nothing.
 */
void basis_claim(const struct claim_ctx *c, json_t *cl, json_t *o);

#endif
