/*
 * output.h - how every file mmemu writes reaches the disk: the results format
 * tag and JSON layout shared by the writer (emu/engine) and the readers
 * (emu/analysis), directory creation, and one atomic writer.
 */
#ifndef MMEMU_OUTPUT_H
#define MMEMU_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "emu/core/err.h"

#define RESULTS_FORMAT "mmemu-results/1"

/** results_dump_flags() - Returns: the jansson flags every mmemu JSON file uses. */
size_t results_dump_flags(void);

/**
 * results_point_label() - the short text of a sweep point: the last part of each
 * key, "=", the compact JSON value ("pattern=\"random\" range_mb=[100,1000]").
 * Returns: a malloc'ed string, or NULL when out of memory.
 */
char *results_point_label(const json_t *point);

/**
 * results_run_measured() - whether @r (a run of a results file, or a kept
 * simulation's "result") carries a measurement: an object whose "primary" has a
 * numeric "value".  The one check shared by results readers and the sweep resume.
 * Returns: 1 if so, 0 if not (e.g. an empty "result": {}).
 */
int results_run_measured(const json_t *r);

/** mkdir_p() - create @dir and its parents. Returns: 0 or -1 (errno set). */
int mkdir_p(const char *dir);

/**
 * out_write_text() - write @text to @path, creating its directory.  A regular
 * file (or a missing one) is replaced atomically: written to a fresh
 * PATH.tmp.XXXXXX (mkstemp: O_EXCL, never through a planted symlink) and renamed
 * over it, so readers never see half a file.  No length limit below PATH_MAX.  Anything else that exists
 * at @path (a device such as /dev/stdout, a FIFO) is written in place, never
 * replaced by a rename.
 * Returns: 0, or -1 with @e naming @path.
 */
int out_write_text(const char *path, const char *text, struct mm_err *e);

/* An output file being written: out_open_atomic(), writes to @f, then
 * out_commit_atomic() or out_abort_atomic(). */
struct out_atomic {
	FILE *f;            /* write here */
	const char *path;   /* the file it becomes */
	char *tmp;          /* the temporary (malloc'ed), NULL when written in place */
};

/**
 * out_open_atomic() - start writing @path as out_write_text() does: a regular or
 * missing file through a fresh PATH.tmp.XXXXXX renamed over it at the commit, so
 * a failed or killed writer never leaves @path half written; anything else
 * (a device, a FIFO) in place.  Creates @path's directory.
 * Returns: 0 with @a->f open, or -1 with @e naming @path.
 */
int out_open_atomic(struct out_atomic *a, const char *path, struct mm_err *e);

/**
 * out_commit_atomic() - flush and close @a->f and rename the temporary over the
 * path; on any failure the temporary is removed and the old file stays.
 * Returns: 0, or -1 with @e naming the path.
 */
int out_commit_atomic(struct out_atomic *a, struct mm_err *e);

/** out_abort_atomic() - close @a->f and remove the temporary: the old file stays. */
void out_abort_atomic(struct out_atomic *a);

#endif
