/*
 * tracefile.h - page reference traces loaded into memory.
 *
 * A trace is a dense array of uint32 page ids 0..npages-1, numbered in first-seen
 * order, plus the original ids (which may be 64-bit) for printing.  Sources: a file
 * (plain, libCacheSim txt or csv; a leading UTF-8 byte-order mark is skipped) or a
 * reference string "1,2,3,4".
 */
#ifndef MMEMU_TRACEFILE_H
#define MMEMU_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/core/err.h"

/* The largest trace file trace_load() reads (a larger one, or a device such as
 * /dev/zero, is an error): 1 GiB, about 100 M references of tracegen's output. */
#define TRACE_FILE_MAX ((size_t)1 << 30)

enum trace_format {
	TRACE_AUTO,   /* by extension (.csv) or content (a comma on the first data line) */
	TRACE_PLAIN,  /* one decimal page number per line; blank lines and '#' comments */
	TRACE_TXT,    /* libCacheSim plain text: one object id per line (same syntax) */
	TRACE_CSV,    /* libCacheSim csv: header line, then comma-separated fields */
	TRACE_BIN,    /* mmemu binary: the loaded arrays as they are (below), no parsing */
};

/*
 * The binary layout (`mmemu tracegen --format bin`), little-endian, read without
 * parsing: the 8-byte magic "MMTRACE1", u32 version (1), u32 npages, u64 nrefs,
 * npages u64 original ids (in first-seen order), nrefs u32 dense ids.  The loader
 * checks the sizes against the file's length (at least one page, no more pages
 * than references), the original ids for duplicates, every dense id against
 * npages, and the first-seen order (dense id k first appears after 0..k-1), so a
 * binary trace replays exactly as the text it was made from.  Auto-detected by
 * its magic.
 */
#define TRACE_BIN_MAGIC "MMTRACE1"

struct trace {
	uint32_t *refs;      /* nrefs dense page ids */
	size_t nrefs;
	uint32_t npages;     /* distinct pages: ids are 0..npages-1 */
	uint64_t *orig;      /* dense id -> original id (npages entries) */
};

/**
 * trace_load() - read a trace file.
 * @t: filled on success (free with trace_free())
 * @path: the file
 * @fmt: the format, or TRACE_AUTO
 * @obj_id_col: csv only: 1-based column of the object id, or 0 to find it by its
 *              header name (obj_id, obj-id, objId or key)
 * The file may be a pipe or a device; at most TRACE_FILE_MAX bytes are read.  A
 * UTF-8 byte-order mark at its start is skipped (by trace_parse()).
 * Returns: 0, or -1 with @e set to "FILE: line N: expected ..." (or "FILE: cannot
 * open ...", "FILE: expected a trace file of at most 1 GiB, ...").  @t is left
 * empty on failure.
 */
int trace_load(struct trace *t, const char *path, enum trace_format fmt, int obj_id_col,
	       struct mm_err *e);

/**
 * trace_from_ids() - a trace of the @n page numbers @ids (dense ids in first-seen
 * order, as a text trace of the same numbers would load).
 * Returns: 0, or -1 with @e set (out of memory).
 */
int trace_from_ids(struct trace *t, const uint32_t *ids, size_t n, const char *name,
		   struct mm_err *e);

/**
 * trace_write_bin() - write @t in the binary layout to @f (@name for messages).
 * Returns: 0, or -1 with @e set.
 */
int trace_write_bin(const struct trace *t, FILE *f, const char *name, struct mm_err *e);

/**
 * trace_parse() - parse a trace already in memory (same rules as trace_load()).
 * @buf: the text; only its @len bytes are read (it need not be NUL-terminated)
 * @name: the name used in messages
 * Returns: 0, or -1 with @e set.
 */
int trace_parse(struct trace *t, const char *buf, size_t len, const char *name,
		enum trace_format fmt, int obj_id_col, struct mm_err *e);

/**
 * trace_from_string() - build a trace from a reference string such as "1,2,3,4"
 * (separators: commas and/or blanks).
 * @name: what to call the string in messages (e.g. "--refs")
 * Returns: 0, or -1 with @e set to "NAME: position P: expected ..." (P is the
 * 1-based character position).
 */
int trace_from_string(struct trace *t, const char *s, const char *name, struct mm_err *e);

/**
 * trace_load_shared() - load a trace read-only, sharing the parse with earlier
 * callers: when the last file loaded this way has the same path, layout, csv column
 * and bytes, its trace is handed out again (the file is read and compared each
 * time; only the parse is saved).  Release with trace_release().
 * Returns: 0 with *@out set, or -1 with @e set as by trace_load() (*@out NULL).
 */
int trace_load_shared(const struct trace **out, const char *path, enum trace_format fmt,
		      int obj_id_col, struct mm_err *e);

/** trace_release() - give back a trace of trace_load_shared() (NULL is fine).
 * Returns: nothing. */
void trace_release(const struct trace *t);

/** trace_shared_flush() - free the kept parse if nobody uses it (leak checkers,
 * tests). Returns: nothing. */
void trace_shared_flush(void);

/** trace_free() - release a trace (an empty or NULL one is fine). */
void trace_free(struct trace *t);

/** trace_format_parse() - Returns: 0 with *@out set for "auto|plain|txt|csv", else -1. */
int trace_format_parse(const char *name, enum trace_format *out);

/** trace_format_name() - Returns: the name of @fmt. */
const char *trace_format_name(enum trace_format fmt);

#endif
