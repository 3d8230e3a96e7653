/*
 * judgement.h - a scenario's judgement constants (docs/scenario.md, "judgement"):
 * the constants set by the scenario's author, not read from a data sheet or a
 * kernel source, each with its plausible range and where that range comes from.
 * `mmemu reproduce --sensitivity` reruns the seed with each at both ends.
 */
#ifndef MMEMU_JUDGEMENT_H
#define MMEMU_JUDGEMENT_H

#include <jansson.h>

#include "emu/core/err.h"

/**
 * judgement_value() - the value at dotted @path in @root (object keys, or array
 * indices written as numbers: "machine.disks.0.cache_segments").
 * Returns: it (borrowed), or NULL when the path names nothing.
 */
json_t *judgement_value(json_t *root, const char *path);

/**
 * judgement_check() - check @root's "judgement" (absent is fine): an array of
 * {"path": a dotted path to a number or string the scenario sets, "range": [lo,
 * hi] of the same JSON type (numbers: lo <= value <= hi), "source": where the
 * range comes from, non-empty}.  Returns: 0, or -1 with @e set ("FILE:
 * judgement.I.KEY: what was expected").
 */
int judgement_check(json_t *root, const char *file, struct mm_err *e);

/**
 * judgement_set() - the override that sets @path of @root to @v, in the form
 * scenario_load_set() takes: {path: v} when the path crosses no array, else
 * {the path up to the first array: a copy of that array with the element set}.
 * Returns: a new object, or NULL when @path names nothing in @root.
 */
json_t *judgement_set(json_t *root, const char *path, json_t *v);

#endif
