/*
 * traceparse.h - what the trace parsers share (tracefile.c, trace_text.c,
 * trace_bin.c, trace_idmap.c); not for use outside workloads/trace*.c.
 *
 * The id map gives each original page number a dense id in first-seen order
 * (trace_idmap.c has the design); idmap_get() is inline because it is the
 * per-reference cost of loading a trace.  The error helpers make the one-line
 * "FILE: line N: expected ..." errors of every format.
 */
#ifndef MMEMU_TRACEPARSE_H
#define MMEMU_TRACEPARSE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/tracefile.h"

#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define DIRECT_LIMIT ((uint64_t)1 << 22)
#else
/* fuzz builds (docs/fuzzing.md): the same two paths, but an input with a page
 * number of a few millions costs a 256 KiB table, not 16 MiB (250 inputs/s) */
#define DIRECT_LIMIT ((uint64_t)1 << 16)
#endif

struct idmap {
	uint32_t *direct;   /* id -> dense + 1 (0: unseen), for id < dcap */
	uint64_t dcap;
	uint64_t *hkeys;    /* hash table for ids >= DIRECT_LIMIT */
	uint32_t *hvals;    /* dense + 1, 0: empty slot */
	uint64_t hcap, hcount;
	uint64_t *orig;     /* dense -> original id */
	uint64_t ocap;
	uint32_t n;
};

/* Lines of the plain layout's fast path per batch (parse, then look up);
 * also the batch of trace_bin.c's distinctness check. */
#define PLAIN_BATCH 256

/** idmap_free() - free @m's tables and zero it.  Returns: nothing. */
void idmap_free(struct idmap *m);
/** idmap_get_new() - idmap_get() past its direct-table hit: grow the table or use
 * the hash for @id.  Returns: 0 with *@out set, or -1 (out of memory). */
int idmap_get_new(struct idmap *m, uint64_t id, uint32_t *out);
/** idmap_batch() - the dense ids of the @k page numbers @ids into @out, in order.
 * Returns: 0, or -1 (out of memory). */
int idmap_batch(struct idmap *m, const uint64_t *ids, int k, uint32_t *out);
/** idmap_reserve() - grow the direct table to hold @id (< DIRECT_LIMIT).
 * Returns: 0, or -1 (out of memory). */
int idmap_reserve(struct idmap *m, uint64_t id);

/* Dense id of @id (assigning the next one if new). Returns: 0, or -1 (no memory). */
static inline int idmap_get(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (id < m->dcap && m->direct[id]) {
		*out = m->direct[id] - 1;
		return 0;
	}
	return idmap_get_new(m, id, out);
}

/** trace_oom() - set @e to the out-of-memory error of trace @name.  Returns: -1. */
int trace_oom(struct mm_err *e, const char *name);
/** trace_line_err() - set @e to "@name: line @line: ...".  Returns: -1. */
int trace_line_err(struct mm_err *e, const char *name, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The text layouts (trace_text.c); each returns 0, or -1 with @e set. */
int trace_parse_plain(const char *buf, size_t len, const char *name, struct idmap *m,
		      uint32_t *refs, size_t *n, size_t *nlines, struct mm_err *e);
int trace_parse_csv(const char *buf, size_t len, const char *name, int obj_id_col,
		    struct idmap *m, uint32_t *refs, size_t *n, size_t *nlines, struct mm_err *e);
/** trace_detect() - plain or csv, from @name's extension or the first data line.
 * Returns: TRACE_PLAIN or TRACE_CSV. */
enum trace_format trace_detect(const char *buf, size_t len, const char *name);

/* The binary layout (trace_bin.c): sizes, ids and first-seen order checked.
 * Returns: 0, or -1 with @e set (@t freed). */
int trace_parse_bin(struct trace *t, const char *buf, size_t len, const char *name,
		    struct mm_err *e);

#endif
