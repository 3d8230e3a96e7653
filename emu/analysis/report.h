/*
 * report.h - helpers shared by compare, reproduce, sweep and plot: option
 * parsing, loading results files, reading a metric out of a run, and a small
 * text/markdown table printer.
 */
#ifndef MMEMU_REPORT_H
#define MMEMU_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/core/output.h"

/** report_parse_long() - parse a whole decimal integer in [@lo, @hi]. Returns: 0 or -1. */
int report_parse_long(const char *s, long lo, long hi, long *out);

/** report_parse_double() - parse a whole finite number >= @lo. Returns: 0 or -1. */
int report_parse_double(const char *s, double lo, double *out);

/** report_default_jobs() - Returns: the number of online CPUs (at least 1). */
int report_default_jobs(void);

/**
 * report_load_results() - load and check a results file (format mmemu-results/1).
 * Returns: the document, or NULL with @e set ("FILE: ...").
 */
json_t *report_load_results(const char *path, struct mm_err *e);

/** report_value_fn - look up the number called @name in @ctx. Returns: 0 with *@v set, or -1. */
typedef int report_value_fn(const void *ctx, const char *name, double *v);

/**
 * report_derived() - the number called @name through @get, or, when there is
 * none, a derived one: "A/B" (a share, B != 0) or "A-B" (a gain) of two numbers
 * @get finds ("pass1_easyrclm/pass1_success").
 * Returns: 0 with *@out set, or -1.
 */
int report_derived(const char *name, report_value_fn *get, const void *ctx, double *out);

/**
 * report_run_value() - a number out of one run: the primary metric when @name is
 * its name, else metrics[@name], else vmstat[@name], else "sim_time"; else a
 * derived "A/B" or "A-B" of two of them (report_derived()).
 * Returns: 0 with *@v set, or -1 when the run has no such number.
 */
int report_run_value(const json_t *run, const char *name, double *v);

/**
 * report_add_unique() - append @v to the array @set (taking a new reference)
 * unless an equal value is already in it: the distinct sweep groups, in order of
 * first appearance.  Returns: nothing.
 */
void report_add_unique(json_t *set, json_t *v);

/** report_num() - Returns: a new JSON real for @v, or JSON null when @v is not finite. */
json_t *report_num(double v);

/**
 * report_json_text() - @v as compact one-line JSON (12 significant digits), the
 * way reports name a sweep point ("[100,1000]", "{\"workload.jobs\":4}").
 * Returns: a malloc'ed string, or NULL when out of memory.
 */
char *report_json_text(const json_t *v);

/**
 * struct report_key - which random draws a run had: its base seed and run index.
 * Within one results file, runs of different kernels with the same key shared
 * their draws (disk phase, tick phase, workload streams): they are paired.
 */
struct report_key {
	long long seed, run;
};

/** report_run_key() - @run's "seed" and "run". Returns: 0, or -1 when either is missing. */
int report_run_key(const json_t *run, struct report_key *key);

/**
 * report_pair() - pair values @k (keys @kk) with the baseline's keys @bk: when both
 * sides have the same n >= 2 runs and every baseline key matches exactly one of
 * @kk, reorder @k so that k[i] is the partner of baseline run i.
 * Returns: 1 when paired (and @k reordered), 0 otherwise (@k unchanged).
 */
int report_pair(const struct report_key *bk, size_t nb, const struct report_key *kk, double *k, size_t nk);

/** struct rtable - rows of strings printed with aligned columns. */
struct rtable {
	int ncols;
	int nrows, cap;
	char **cells;      /* nrows * ncols, malloc'ed strings */
	int header;        /* first row is a header (markdown: separator after it) */
	unsigned left;     /* bit i set: column i is left-aligned (default right); columns
			    * from the mask's width on (32: a compare of 30+ kernels) are right */
};

/** rtable_init() - an empty table of @ncols columns. */
void rtable_init(struct rtable *t, int ncols, int header, unsigned left);
/** rtable_add() - append a row of ncols strings (copied; NULL prints empty). */
void rtable_add(struct rtable *t, const char *const *cells);
/** rtable_addf() - set cell @col of the last row with printf formatting. */
void rtable_setf(struct rtable *t, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** rtable_print() - print @t as aligned text (@markdown 0) or a markdown table. */
void rtable_print(const struct rtable *t, FILE *f, const char *indent, int markdown);
/** rtable_free() - release @t. */
void rtable_free(struct rtable *t);

/**
 * report_str_append() - append printf output to a growing malloc'ed string.
 * Returns: nothing; on allocation failure the text is left unchanged.
 */
void report_str_append(char **s, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
