/*
 * published.h - the published side of a seed: the files results/published/NNN.json
 * (docs/compare.md), checked when loaded, the scenarios they name and the
 * published numbers in their tables.
 *
 * Two forms: one "table" (a sweep key "point_key", kernels as columns, a row per
 * point, one "metric"), or several "tables" whose rows are named by "test" and may
 * name their emulated sweep point in "point" (seed 001 on).
 */
#ifndef MMEMU_PUBLISHED_H
#define MMEMU_PUBLISHED_H

#include <jansson.h>

#include "emu/core/err.h"

/* A seed's "scenario" is one path or an array of up to this many. */
#define PUBLISHED_MAX_PARTS 8

/**
 * published_list() - the published files of @dir: the names ending in ".json",
 * sorted.  Returns: how many (*@names malloc'ed, free with published_list_free()),
 * or -1 when @dir cannot be opened.
 */
int published_list(const char *dir, char ***names);

/** published_list_free() - free the @n names of published_list(). Returns: nothing. */
void published_list_free(char **names, int n);

/**
 * published_load() - read and check the published file @path.
 * Returns: the document, or NULL with @e set ("FILE: PATH: what is wrong").
 */
json_t *published_load(const char *path, struct mm_err *e);

/**
 * published_scenarios() - the scenario paths of @pub ("scenario": a path or an
 * array of 1 to PUBLISHED_MAX_PARTS paths), pointers into @pub.
 * Returns: how many, or -1 when "scenario" is neither.
 */
int published_scenarios(json_t *pub, const char **out);

/**
 * published_seed_matches() - does the command line's @want name seed @id?  Equal
 * strings, or equal numbers ("0" names "000").  Returns: 1 or 0.
 */
int published_seed_matches(const char *want, const char *id);

/** published_runs() - Returns: the runs behind each published number ("published_runs", default 1). */
double published_runs(json_t *pub);

/**
 * published_table_runs() - the runs behind each number of @table of the
 * several-tables form: its "published_runs", else the seed's.
 * Returns: the count (default 1).
 */
double published_table_runs(json_t *pub, json_t *table);

/**
 * published_row_spread() - the published spread of @metric in column @kernel of
 * @row: "spread": {column: [lo, hi]} or {column: {metric: [lo, hi]}}, the lowest
 * and highest of the published runs.
 * Returns: 0 with *@lo, *@hi set, or -1 when the thread gives none.
 */
int published_row_spread(json_t *row, const char *kernel, const char *metric, double *lo, double *hi);

/**
 * published_noise_text() - what the published file says about its own noise:
 * the runs behind each number and whether spreads are given, per table (e.g.
 * "reaim-database: mean of 3 runs, no spread given; ...").
 * Returns: a malloc'ed string.
 */
char *published_noise_text(json_t *pub);

/**
 * published_cell() - the single-table form's number for @kernel at point @pt.
 * Returns: 0 with *@out set, or -1 when the table has no number there.
 */
int published_cell(json_t *pub, const char *kernel, json_t *pt, double *out);

/** published_table() - Returns: the table "id" = @id of the several-tables form, or NULL. */
json_t *published_table(json_t *pub, const char *id);

/**
 * published_row_value() - the number of @metric in column @kernel of @row of
 * @table: a column holds a number (the table's "metric") or {metric: number}.
 * Returns: 0 with *@out set, or -1 when missing.
 */
int published_row_value(json_t *table, json_t *row, const char *kernel, const char *metric, double *out);

#endif
