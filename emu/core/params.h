/*
 * params.h - declarative parameter tables for scenario sections and modules.
 *
 * A module (policy, workload) or a scenario section describes its parameters as a
 * static table of struct mm_param, each naming a field of a plain C config struct
 * by offset.  mm_params_load() fills the struct from defaults, then from a JSON
 * object, rejecting unknown keys, wrong types and out-of-range values with the
 * JSON path; mm_params_dump() writes the effective values back as JSON for the
 * results file.  One loader for every table: modules never touch jansson to read
 * their configuration.
 *
 * Storage type per kind:
 *   MM_P_BOOL   bool          MM_P_INT  int64_t     MM_P_DOUBLE double
 *   MM_P_STRING char[MM_PSTR] MM_P_ENUM int (index into choices)
 *   MM_P_SIZE   uint64_t bytes ("1008MiB", "4KiB", "1.5GiB", or a plain number of bytes)
 *   MM_P_RATE   double bytes/s ("60MB/s", "1GiB/s")
 *   MM_P_TIME   double seconds ("8ms", "300s", "5min")
 *   MM_P_FREQ   double Hz     ("700MHz", "3.2GHz")
 *   MM_P_INTLIST struct mm_intlist (array of integers, up to MM_INTLIST_MAX)
 * Ranges (min/max) are inclusive and in the stored base unit.
 */
#ifndef MMEMU_PARAMS_H
#define MMEMU_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "emu/core/err.h"

#define MM_PSTR 128
#define MM_INTLIST_MAX 16

enum mm_ptype {
	MM_P_BOOL,
	MM_P_INT,
	MM_P_DOUBLE,
	MM_P_STRING,
	MM_P_ENUM,
	MM_P_SIZE,
	MM_P_RATE,
	MM_P_TIME,
	MM_P_FREQ,
	MM_P_INTLIST,
};

struct mm_intlist {
	int n;
	int64_t v[MM_INTLIST_MAX];
};

struct mm_param {
	const char *key;              /* JSON key; NULL ends the table */
	enum mm_ptype type;
	size_t offset;                /* offsetof(config struct, field) */
	double min, max;              /* inclusive range for numeric kinds (min > max: unchecked) */
	const char *def;              /* default as JSON text ("12", "\"8ms\"", "true"); NULL = required */
	const char *help;             /* one line: meaning, unit, source or "calibration" */
	const char *const *choices;   /* MM_P_ENUM: NULL-terminated names */
};

/* Convenience for tables: MM_PARAM(struct cfg, field, "key", type, min, max, def, help) */
#define MM_PARAM(T, field, key, type, lo, hi, def, help) \
	{ key, type, offsetof(T, field), lo, hi, def, help, NULL }
#define MM_PARAM_ENUM(T, field, key, choices, def, help) \
	{ key, MM_P_ENUM, offsetof(T, field), 1, 0, def, help, choices }
#define MM_PARAM_END { NULL, 0, 0, 0, 0, NULL, NULL, NULL }

/**
 * mm_params_load() - fill @cfg from defaults, then from @obj.
 * @spec: the parameter table
 * @cfg: the config struct the table describes
 * @obj: a JSON object, or NULL for defaults only
 * @file, @path: where @obj came from, for error messages ("kernels.lru.reclaim")
 * @skip: NULL-terminated keys of @obj that the caller handles itself (e.g. "module"),
 *        or NULL
 * Returns: 0, or -1 with @e set (unknown key, wrong type, out of range, missing).
 */
int mm_params_load(const struct mm_param *spec, void *cfg, json_t *obj, const char *file,
		   const char *path, const char *const *skip, struct mm_err *e);

/** mm_params_dump() - Returns: a new JSON object with the effective values of @cfg. */
json_t *mm_params_dump(const struct mm_param *spec, const void *cfg);

/**
 * mm_parse_unit() - parse a quantity with a unit for a numeric parameter kind.
 * @type: MM_P_SIZE, MM_P_RATE, MM_P_TIME or MM_P_FREQ
 * @s: text such as "1008MiB", "60MB/s", "8ms", "700MHz"
 * @out: the value in bytes, bytes/s, seconds or Hz
 * Returns: 0, or -1 if @s is not a number followed by a unit of that kind.
 */
int mm_parse_unit(enum mm_ptype type, const char *s, double *out);

/** mm_ptype_name() - Returns: what a value of @type looks like, for messages and docs. */
const char *mm_ptype_name(enum mm_ptype type);

/** mm_params_doc() - print @spec as a markdown table (for docs and --help). */
void mm_params_doc(const struct mm_param *spec, FILE *out);

/**
 * mm_params_json() - @spec as JSON, the rows mm_params_doc() prints.
 * Returns: a new array of {"key", "kind", "default", "help", and "range": [lo, hi]
 * or "choices": [...] when the parameter has them}.
 */
json_t *mm_params_json(const struct mm_param *spec);

#endif
