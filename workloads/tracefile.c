/*
 * tracefile.c - trace loading (see tracefile.h).
 *
 * Design: a regular file is mapped (mm_map_file(): no copy, no buffer for the
 * host to clear), anything else (pipes, devices) read whole into one buffer, and
 * parsed by hand: a line counter, a digit loop with overflow check, no stdio per
 * line.  Every scan is bounded by the buffer's end (it is not NUL-terminated),
 * never by a terminator.  The refs array is sized once from the file's length
 * (every reference takes two bytes or more) and shrunk at the end.  The plain
 * layout's commonest line, 1 to 7 digits, is converted eight bytes at a time and
 * looked up in batches with prefetches (plain_fast()).  Original ids are mapped to
 * dense ids in first-seen order by an id map: ids below 2^22 go through a direct
 * table (grown on demand, in huge pages; these are most real page numbers),
 * larger ones through an open-addressing hash table (linear probing, Fibonacci
 * hashing, grown at half load).  Every malformed line yields one "FILE: line N: expected ..."
 * error quoting the line escaped (mm_err_quote()) and -1; nothing is kept on
 * failure.
 */
#include "workloads/tracefile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/hostmem.h"
#include "emu/core/readfile.h"
#include <strings.h>
#include <sys/stat.h>

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

static void idmap_free(struct idmap *m)
{
	free(m->direct);
	free(m->hkeys);
	free(m->hvals);
	free(m->orig);
	memset(m, 0, sizeof *m);
}

static inline uint64_t hash_slot(uint64_t id, uint64_t cap)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> (64 - __builtin_ctzll(cap));
}

static int hash_grow(struct idmap *m)
{
	uint64_t ncap = m->hcap ? m->hcap * 2 : 1024;
	uint64_t *k = malloc(ncap * sizeof *k);
	uint32_t *v = calloc(ncap, sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (uint64_t i = 0; i < m->hcap; i++) {
		if (!m->hvals[i])
			continue;
		uint64_t s = hash_slot(m->hkeys[i], ncap);
		while (v[s])
			s = (s + 1) & (ncap - 1);
		k[s] = m->hkeys[i];
		v[s] = m->hvals[i];
	}
	free(m->hkeys);
	free(m->hvals);
	m->hkeys = k;
	m->hvals = v;
	m->hcap = ncap;
	return 0;
}

/* A new dense id for @id. Returns: 0, or -1 (out of memory / too many pages). */
static int idmap_new(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (m->n == UINT32_MAX - 1)
		return -1;
	if (m->n == m->ocap) {
		uint64_t nc = m->ocap ? m->ocap * 2 : 1024;
		uint64_t *o = realloc(m->orig, nc * sizeof *o);
		if (!o)
			return -1;
		m->orig = o;
		m->ocap = nc;
	}
	m->orig[m->n] = id;
	*out = m->n++;
	return 0;
}

/* idmap_get() past its look-up in the direct table: the rarer cases, kept out
 * of the parse loops. Returns: 0, or -1 (no memory). */
/* Grow the direct table to hold @id (< DIRECT_LIMIT), doubling its size.
 * Returns: 0, or -1 (out of memory). */
static int idmap_reserve(struct idmap *m, uint64_t id)
{
	if (id < m->dcap)
		return 0;
	uint64_t nc = m->dcap ? m->dcap : 4096;
	while (nc <= id)
		nc *= 2;
	/* huge pages: the table is read at random, a TLB miss per look-up
	 * with 4 KiB pages once it spans megabytes */
	uint32_t *d = mm_calloc_huge(nc, sizeof *d);
	if (!d)
		return -1;
	if (m->dcap)
		memcpy(d, m->direct, m->dcap * sizeof *d);
	free(m->direct);
	m->direct = d;
	m->dcap = nc;
	return 0;
}

static __attribute__((noinline)) int idmap_get_new(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (id < DIRECT_LIMIT) {
		if (idmap_reserve(m, id) < 0)
			return -1;
		uint32_t v = m->direct[id];
		if (v) {
			*out = v - 1;
			return 0;
		}
		if (idmap_new(m, id, out) < 0)
			return -1;
		m->direct[id] = *out + 1;
		return 0;
	}
	if (2 * (m->hcount + 1) > m->hcap && hash_grow(m) < 0)
		return -1;
	uint64_t mask = m->hcap - 1, s = hash_slot(id, m->hcap);
	while (m->hvals[s]) {
		if (m->hkeys[s] == id) {
			*out = m->hvals[s] - 1;
			return 0;
		}
		s = (s + 1) & mask;
	}
	if (idmap_new(m, id, out) < 0)
		return -1;
	m->hkeys[s] = id;
	m->hvals[s] = *out + 1;
	m->hcount++;
	return 0;
}

/* Dense id of @id (assigning the next one if new). Returns: 0, or -1 (no memory). */
static inline int idmap_get(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (id < m->dcap && m->direct[id]) {
		*out = m->direct[id] - 1;
		return 0;
	}
	return idmap_get_new(m, id, out);
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	free(t->refs);
	free(t->orig);
	memset(t, 0, sizeof *t);
}

int trace_format_parse(const char *name, enum trace_format *out)
{
	static const char *const names[] = { "auto", "plain", "txt", "csv", "bin" };
	for (int i = 0; i < 5; i++)
		if (name && strcmp(name, names[i]) == 0) {
			*out = (enum trace_format)i;
			return 0;
		}
	return -1;
}

const char *trace_format_name(enum trace_format fmt)
{
	switch (fmt) {
	case TRACE_AUTO: return "auto";
	case TRACE_PLAIN: return "plain";
	case TRACE_TXT: return "txt";
	case TRACE_CSV: return "csv";
	case TRACE_BIN: return "bin";
	}
	return "?";
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Quote the rest of the line at @p (without its line end) into @buf of
 * MM_ERR_QUOTE_SIZE bytes: escaped, cut with "..." (mm_err_quote()). */
static const char *token(const char *p, const char *end, char *buf, size_t size)
{
	if (p >= end || *p == '\n')
		return "end of line";
	const char *le = memchr(p, '\n', (size_t)(end - p));
	if (!le)
		le = end;
	if (le - p > 1 && le[-1] == '\r')
		le--;
	return mm_err_quote(buf, size, p, (size_t)(le - p));
}

/*
 * Parse a decimal uint64 at *pp.  Returns: 1 on success (advancing *pp), 0 if no
 * digits, -1 on overflow.
 */
static inline int parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	if (p >= end || (unsigned)(*p - '0') > 9)
		return 0;
	do {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		p++;
	} while (p < end && (unsigned)(*p - '0') <= 9);
	*pp = p;
	*out = v;
	return 1;
}

/*
 * The decimal digits at the start of the 8 bytes at @p, converted without a loop
 * (SWAR: each byte's digit test and the base-10 reduction done on all eight at
 * once).  Loading the plain layout is a digit scan per line, and the loop over
 * digits, one dependent multiply per digit, was most of its cost.
 * Returns: the number of leading digits, 1 to 7, with *@out their value; 0 when
 * there are none or all 8 bytes are digits (the caller's byte loop takes those).
 */
static inline int digits8(const char *p, uint64_t *out)
{
	uint64_t x;
	memcpy(&x, p, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	uint64_t y = x ^ 0x3030303030303030ULL;   /* a digit byte becomes 0..9 */
	/* high bit of a byte set when it is not a digit (>= 10 after the xor); a carry
	 * out of a byte reaches only later bytes, so the first such byte is exact */
	uint64_t bad = ((y + 0x7676767676767676ULL) | y) & 0x8080808080808080ULL;
	if (!bad)
		return 0;
	int nd = __builtin_ctzll(bad) >> 3;
	if (nd == 0)
		return 0;
	y <<= 8 * (8 - nd);   /* the digits in the top bytes, zeros (leading 0 digits) below */
	y = (y * 10 + (y >> 8)) & 0x00FF00FF00FF00FFULL;
	y = (y * 100 + (y >> 16)) & 0x0000FFFF0000FFFFULL;
	y = (y * 10000 + (y >> 32)) & 0xFFFFFFFFULL;
	*out = y;
	return nd;
}

static int oom(struct mm_err *e, const char *name)
{
	return mm_errf(e, name, NULL, "out of memory while loading the trace");
}

static int line_err(struct mm_err *e, const char *name, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int line_err(struct mm_err *e, const char *name, size_t line, const char *fmt, ...)
{
	char path[32];
	va_list ap;
	snprintf(path, sizeof path, "line %zu", line);
	va_start(ap, fmt);
	mm_verrf(e, name, path, fmt, ap);
	va_end(ap);
	return -1;
}

/* Lines of the plain layout's fast path per batch (parse, then look up). */
#define PLAIN_BATCH 256
/* Lines the line-at-a-time path takes after the fast path stopped at one it does
 * not take (a comment, a blank line, a \r\n line end, 8 digits or more), before
 * the fast path is tried again: a file of such lines pays for one failed try
 * (and one batch flush) per this many. */
#define PLAIN_SLOW_LINES 16

/* The dense ids of the @k page numbers @ids into @out, in order (as idmap_get()
 * each).  The direct table's pointer and size are kept in locals: the stores to
 * @out could alias the map's fields, which would otherwise be loaded again per id.
 * Returns: 0, or -1 (out of memory). */
static int idmap_batch(struct idmap *m, const uint64_t *ids, int k, uint32_t *out)
{
	const uint32_t *dir = m->direct;
	uint64_t dcap = m->dcap;
	for (int i = 0; i < k; i++) {
		uint64_t v = ids[i];
		uint32_t d;
		if (v < dcap && (d = dir[v]) != 0) {
			out[i] = d - 1;
			continue;
		}
		if (idmap_get_new(m, v, &out[i]) < 0)
			return -1;
		dir = m->direct;
		dcap = m->dcap;
	}
	return 0;
}

/*
 * The plain layout's fast path, from the line start @p: lines of 1 to 7 digits
 * and a newline (with 8 bytes readable), each converted eight bytes at a time
 * (digits8()) and appended to @refs[*@n...] in batches of PLAIN_BATCH: the
 * batch's numbers first, then their look-ups in the id map (idmap_batch()).  The
 * look-ups are the cost of a large trace: a million pages make a 4 MiB direct
 * table read at random, mostly cache misses.  Each look-up's line is prefetched
 * as soon as its number is known, so the batch's misses overlap instead of
 * each waiting behind the next line's scan.
 * Returns: the start of the first line it did not take (*@n and *@line advanced
 * past the lines taken), or NULL when out of memory.
 */
static const char *plain_fast(const char *p, const char *end, struct idmap *m,
			      uint32_t *refs, size_t *n, size_t *line)
{
	uint64_t batch[PLAIN_BATCH];
	int k = 0;
	const char *ls = p;
	const uint32_t *dir = m->direct;
	uint64_t dcap = m->dcap;
	while (end - ls >= 8) {
		uint64_t v;
		int nd = digits8(ls, &v);
		if (!nd || ls[nd] != '\n')
			goto stop;
		batch[k++] = v;
		if (v < dcap)
			__builtin_prefetch(dir + v);
		ls += nd + 1;
		if (k == PLAIN_BATCH) {
			if (idmap_batch(m, batch, k, refs + *n) < 0)
				return NULL;
			dir = m->direct;
			dcap = m->dcap;
			*n += (size_t)k;
			*line += (size_t)k;
			k = 0;
		}
	}
stop:
	if (idmap_batch(m, batch, k, refs + *n) < 0)
		return NULL;
	*n += (size_t)k;
	*line += (size_t)k;
	return ls;
}

/* plain / txt: one id per line. */
static int parse_plain(const char *buf, size_t len, const char *name, struct idmap *m,
		       uint32_t *refs, size_t *nrefs, size_t *nlines, struct mm_err *e)
{
	const char *p = buf, *end = buf + len;
	size_t line = 1, n = 0;
	int slow = 0;   /* line-at-a-time steps left before plain_fast() is tried again */
	char tb[MM_ERR_QUOTE_SIZE];
	while (p < end) {
		if (!slow) {
			p = plain_fast(p, end, m, refs, &n, &line);
			if (!p)
				return oom(e, name);
			if (p >= end)
				break;
			slow = PLAIN_SLOW_LINES;
		}
		slow--;
		/* the common line, 1 to 19 digits and a newline: no overflow possible */
		if ((unsigned)(*p - '0') <= 9) {
			const char *q = p, *lim = end - p > 19 ? p + 19 : end;
			uint64_t v = 0;
			while (q < lim && (unsigned)(*q - '0') <= 9)
				v = v * 10 + (unsigned)(*q++ - '0');
			if (q < end && *q == '\n') {
				if (idmap_get(m, v, &refs[n]) < 0)
					return oom(e, name);
				n++;
				line++;
				p = q + 1;
				continue;
			}
		}
		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p == '#')
			while (p < end && *p != '\n')
				p++;
		if (p >= end)
			break;
		if (*p == '\n') {
			p++;
			line++;
			continue;
		}
		uint64_t id;
		const char *start = p;
		int rc = parse_u64(&p, end, &id);
		if (rc == 0)
			return line_err(e, name, line, "expected a page number (decimal integer), got %s",
					token(start, end, tb, sizeof tb));
		if (rc < 0)
			return line_err(e, name, line, "expected a page number below 2^64, got %s",
					token(start, end, tb, sizeof tb));
		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p != '\n' && *p != '#')
			return line_err(e, name, line, "expected one page number per line, got %s",
					token(start, end, tb, sizeof tb));
		if (idmap_get(m, id, &refs[n]) < 0)
			return oom(e, name);
		n++;
	}
	*nrefs = n;
	*nlines = line;
	return 0;
}

/* Field @col (0-based) of the line at @p: sets *fs, *fe (trimmed, unquoted). Returns: 0/-1. */
static int csv_field(const char *p, const char *end, int col, const char **fs, const char **fe)
{
	for (int c = 0; c < col; c++) {
		while (p < end && *p != ',' && *p != '\n')
			p++;
		if (p >= end || *p != ',')
			return -1;
		p++;
	}
	const char *q = p;
	while (q < end && *q != ',' && *q != '\n')
		q++;
	while (p < q && is_blank(*p))
		p++;
	while (q > p && is_blank(q[-1]))
		q--;
	if (q - p >= 2 && *p == '"' && q[-1] == '"')
		p++, q--;
	*fs = p;
	*fe = q;
	return 0;
}

/* Whether [s, e) is non-empty and all decimal digits (looks only inside it). */
static bool all_digits(const char *s, const char *e)
{
	if (s == e)
		return false;
	for (; s < e; s++)
		if ((unsigned)(*s - '0') > 9)
			return false;
	return true;
}

static bool is_id_column(const char *s, const char *e)
{
	static const char *const names[] = { "obj_id", "obj-id", "objId", "key" };
	size_t n = (size_t)(e - s);
	for (int i = 0; i < 4; i++)
		if (strlen(names[i]) == n && strncasecmp(names[i], s, n) == 0)
			return true;
	return false;
}

static int parse_csv(const char *buf, size_t len, const char *name, int obj_id_col,
		     struct idmap *m, uint32_t *refs, size_t *nrefs, size_t *nlines,
		     struct mm_err *e)
{
	const char *p = buf, *end = buf + len;
	size_t line = 1, n = 0;
	int col = obj_id_col - 1;
	bool header = true;
	char tb[MM_ERR_QUOTE_SIZE];
	while (p < end) {
		const char *ls = p;
		const char *le = memchr(p, '\n', (size_t)(end - p));
		if (!le)
			le = end;
		const char *next = le < end ? le + 1 : end;
		size_t nl = le < end;   /* the line count moves past a newline only: the
					 * end of a file without one is on its last line */
		while (ls < le && is_blank(*ls))
			ls++;
		if (ls == le || *ls == '#') {
			p = next;
			line += nl;
			continue;
		}
		const char *fs, *fe;
		if (header) {
			header = false;
			if (col < 0) {
				int c = 0;
				for (;; c++) {
					if (csv_field(ls, le, c, &fs, &fe) < 0)
						return line_err(e, name, line, "expected a csv header with a "
								"column named obj_id, obj-id, objId or key "
								"(or give --obj-id-col N)");
					if (is_id_column(fs, fe))
						break;
				}
				col = c;
				p = next;
				line += nl;
				continue;
			}
			/* explicit column: the first line is a header unless that field is a number */
			if (csv_field(ls, le, col, &fs, &fe) < 0 || !all_digits(fs, fe)) {
				p = next;
				line += nl;
				continue;
			}
		}
		if (csv_field(ls, le, col, &fs, &fe) < 0)
			return line_err(e, name, line, "expected at least %d comma-separated fields",
					col + 1);
		uint64_t id;
		const char *q = fs;
		int rc = parse_u64(&q, fe, &id);
		if (rc <= 0 || q != fe)
			return line_err(e, name, line, "expected an object id (decimal integer%s) "
					"in column %d, got %s", rc < 0 ? " below 2^64" : "", col + 1,
					fs == fe ? "an empty field" : token(fs, fe, tb, sizeof tb));
		if (idmap_get(m, id, &refs[n]) < 0)
			return oom(e, name);
		n++;
		p = next;
		line += nl;
	}
	if (header)
		return line_err(e, name, line, "expected a csv header line, got an empty file");
	*nrefs = n;
	*nlines = line;
	return 0;
}

static enum trace_format detect(const char *buf, size_t len, const char *name)
{
	size_t nl = name ? strlen(name) : 0;
	if (nl >= 4 && strcasecmp(name + nl - 4, ".csv") == 0)
		return TRACE_CSV;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *le = memchr(p, '\n', (size_t)(end - p));
		if (!le)
			le = end;
		const char *s = p;
		while (s < le && is_blank(*s))
			s++;
		if (s < le && *s != '#')
			return memchr(s, ',', (size_t)(le - s)) ? TRACE_CSV : TRACE_PLAIN;
		p = le < end ? le + 1 : end;
	}
	return TRACE_PLAIN;
}

/* The binary layout's fixed header: magic, version, npages, nrefs. */
#define BIN_HEADER 24

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static bool host_le(void)
{
	const uint16_t one = 1;
	return *(const unsigned char *)&one == 1;
}

/* Whether the @np original ids of @t are distinct: each inserted into an id map
 * gets the next dense id unless it was there.  A million pages in first-seen
 * order are a million random writes to the direct table: it is sized once, and
 * the ids go through idmap_batch() in batches whose lines are prefetched.
 * Returns: 0, or -1 with @e set ("pages: ..." or out of memory). */
static int bin_distinct(const struct trace *t, uint64_t np, const char *name, struct mm_err *e)
{
	struct idmap m = { 0 };
	uint64_t top = 0;
	for (uint64_t i = 0; i < np; i++)
		if (t->orig[i] < DIRECT_LIMIT && t->orig[i] > top)
			top = t->orig[i];
	if (idmap_reserve(&m, top) < 0)
		return oom(e, name);
	for (uint64_t i = 0; i < np; i += PLAIN_BATCH) {
		int k = np - i < PLAIN_BATCH ? (int)(np - i) : PLAIN_BATCH;
		uint32_t dense[PLAIN_BATCH];
		for (int j = 0; j < k; j++)
			if (t->orig[i + j] < m.dcap)
				__builtin_prefetch(m.direct + t->orig[i + j]);
		if (idmap_batch(&m, t->orig + i, k, dense) < 0) {
			idmap_free(&m);
			return oom(e, name);
		}
		for (int j = 0; j < k; j++)
			if (dense[j] != i + (uint64_t)j) {
				idmap_free(&m);
				return mm_errf(e, name, "pages",
					       "expected distinct original page ids, got %llu for pages %u and %llu",
					       (unsigned long long)t->orig[i + j], dense[j],
					       (unsigned long long)(i + (uint64_t)j));
			}
	}
	idmap_free(&m);
	return 0;
}

/* The binary layout (tracefile.h): sizes, ids and first-seen order checked. */
static int parse_bin(struct trace *t, const char *buf, size_t len, const char *name,
		     struct mm_err *e)
{
	const unsigned char *b = (const unsigned char *)buf;
	if (len < BIN_HEADER || memcmp(buf, TRACE_BIN_MAGIC, 8) != 0)
		return mm_errf(e, name, "header", "expected the binary trace magic \"" TRACE_BIN_MAGIC
			       "\" and a %d-byte header", BIN_HEADER);
	uint32_t version = get_u32(b + 8);
	if (version != 1)
		return mm_errf(e, name, "header", "expected binary trace version 1, got %u%s", version,
			       version == 0x01000000 ? " (version 1 big-endian: the layout is little-endian)"
						     : "");
	uint64_t np = get_u32(b + 12), nr = get_u64(b + 16);
	if (np == 0 || nr == 0)
		return mm_errf(e, name, "header",
			       "expected at least one page and one reference, got %llu and %llu",
			       (unsigned long long)np, (unsigned long long)nr);
	if (np > nr)
		return mm_errf(e, name, "header",
			       "expected no more pages than references, got %llu pages and %llu references",
			       (unsigned long long)np, (unsigned long long)nr);
	if (nr > (len - BIN_HEADER) / 4 || np * 8 + nr * 4 != len - BIN_HEADER)
		return mm_errf(e, name, "header",
			       "expected %llu pages and %llu references to fill the file's %zu bytes",
			       (unsigned long long)np, (unsigned long long)nr, len);
	t->orig = malloc(np * sizeof *t->orig);
	t->refs = mm_calloc_huge(nr, sizeof *t->refs);
	if (!t->orig || !t->refs) {
		trace_free(t);
		return oom(e, name);
	}
	const unsigned char *ob = b + BIN_HEADER, *rb = ob + np * 8;
	if (host_le()) {
		memcpy(t->orig, ob, np * 8);
		memcpy(t->refs, rb, nr * 4);
	} else {
		for (uint64_t i = 0; i < np; i++)
			t->orig[i] = get_u64(ob + 8 * i);
		for (uint64_t i = 0; i < nr; i++)
			t->refs[i] = get_u32(rb + 4 * i);
	}
	/* distinct original ids, as a text trace maps them (the id map's dense id of
	 * the i-th page is i unless an earlier page had the same original id) */
	if (bin_distinct(t, np, name, e) < 0) {
		trace_free(t);
		return -1;
	}
	/* dense ids in first-seen order: each is at most one above the largest so far */
	uint32_t next = 0;
	for (uint64_t i = 0; i < nr; i++) {
		uint32_t r = t->refs[i];
		if (r > next || r >= np) {
			trace_free(t);
			return mm_errf(e, name, "references",
				       "expected dense page ids in first-seen order below %llu, got %u at reference %llu",
				       (unsigned long long)np, r, (unsigned long long)i);
		}
		next += r == next;
	}
	if (next != np) {
		trace_free(t);
		return mm_errf(e, name, "references", "expected all %llu pages to be referenced, got %u",
			       (unsigned long long)np, next);
	}
	t->nrefs = nr;
	t->npages = (uint32_t)np;
	return 0;
}

int trace_from_ids(struct trace *t, const uint32_t *ids, size_t n, const char *name,
		   struct mm_err *e)
{
	struct idmap m = { 0 };
	memset(t, 0, sizeof *t);
	t->refs = malloc((n ? n : 1) * sizeof *t->refs);
	if (!t->refs)
		return oom(e, name);
	for (size_t i = 0; i < n; i++)
		if (idmap_get(&m, ids[i], &t->refs[i]) < 0) {
			idmap_free(&m);
			trace_free(t);
			return oom(e, name);
		}
	t->nrefs = n;
	t->npages = m.n;
	t->orig = m.orig;
	m.orig = NULL;
	idmap_free(&m);
	return 0;
}

int trace_write_bin(const struct trace *t, FILE *f, const char *name, struct mm_err *e)
{
	unsigned char h[BIN_HEADER];
	memcpy(h, TRACE_BIN_MAGIC, 8);
	uint64_t fields[3] = { 1, t->npages, t->nrefs };
	for (int i = 0; i < 8; i++) {
		h[8 + i] = (unsigned char)(((i < 4 ? fields[0] : fields[1]) >> (8 * (i % 4))) & 0xff);
		h[16 + i] = (unsigned char)((fields[2] >> (8 * i)) & 0xff);
	}
	int bad = fwrite(h, 1, sizeof h, f) != sizeof h;
	for (uint32_t i = 0; !bad && i < t->npages; i++) {
		unsigned char o[8];
		for (int k = 0; k < 8; k++)
			o[k] = (unsigned char)((t->orig[i] >> (8 * k)) & 0xff);
		bad = fwrite(o, 1, 8, f) != 8;
	}
	if (!bad && host_le())
		bad = fwrite(t->refs, 4, t->nrefs, f) != t->nrefs;
	for (size_t i = 0; !bad && !host_le() && i < t->nrefs; i++) {
		unsigned char r[4] = { (unsigned char)t->refs[i], (unsigned char)(t->refs[i] >> 8),
				       (unsigned char)(t->refs[i] >> 16), (unsigned char)(t->refs[i] >> 24) };
		bad = fwrite(r, 1, 4, f) != 4;
	}
	if (bad || fflush(f) != 0)
		return mm_errf(e, name, NULL, "cannot write (%s)", strerror(errno));
	return 0;
}

int trace_parse(struct trace *t, const char *buf, size_t len, const char *name,
		enum trace_format fmt, int obj_id_col, struct mm_err *e)
{
	struct idmap m = { 0 };
	memset(t, 0, sizeof *t);
	if (obj_id_col < 0)
		return mm_errf(e, name, NULL, "expected a csv obj-id column >= 1, got %d", obj_id_col);
	if (fmt == TRACE_BIN || (fmt == TRACE_AUTO && len >= 8 && !memcmp(buf, TRACE_BIN_MAGIC, 8)))
		return parse_bin(t, buf, len, name, e);
	size_t bom = mm_bom_len(buf, len);   /* an editor's UTF-8 mark, not data */
	buf += bom;
	len -= bom;
	if (fmt == TRACE_AUTO)
		fmt = detect(buf, len, name);
	/* every reference but the last takes at least two bytes ("7\n"): no counting
	 * pass; pages never touched cost nothing, and the array is shrunk below */
	size_t cap = len / 2 + 1;
	uint32_t *refs = mm_calloc_huge(cap, sizeof *refs);
	if (!refs)
		return oom(e, name);
	size_t n = 0, nlines = 0;
	int rc = fmt == TRACE_CSV
		? parse_csv(buf, len, name, obj_id_col, &m, refs, &n, &nlines, e)
		: parse_plain(buf, len, name, &m, refs, &n, &nlines, e);
	if (rc == 0 && n == 0)
		rc = line_err(e, name, nlines, "expected at least one %s, got end of file",
			      fmt == TRACE_CSV ? "data line" : "page number");
	if (rc < 0) {
		free(refs);
		idmap_free(&m);
		return -1;
	}
	if (n < cap) {
		uint32_t *r2 = realloc(refs, n * sizeof *refs);
		if (r2)
			refs = r2;
	}
	t->refs = refs;
	t->nrefs = n;
	t->npages = m.n;
	t->orig = m.orig;
	m.orig = NULL;
	idmap_free(&m);
	return 0;
}

int trace_load(struct trace *t, const char *path, enum trace_format fmt, int obj_id_col,
	       struct mm_err *e)
{
	memset(t, 0, sizeof *t);
	struct mm_filebuf fb;
	if (mm_map_file(&fb, path, "trace file", TRACE_FILE_MAX, e))
		return -1;
	int rc = trace_parse(t, fb.buf, fb.len, path, fmt, obj_id_col, e);
	mm_unmap_file(&fb);
	return rc;
}

/*
 * The last trace loaded through trace_load_shared(), kept for the next caller that
 * names the same file in the same layout with the same bytes.  Validation prepares
 * every sweep point, and a trace parsed once per point made validating a sweep cost
 * points x trace length (9,000 points of a 20,000-reference trace: 10 s, three
 * quarters of it parsing and unmapping the parser's tables).  The file is still read
 * once per scenario (mm_inputs_epoch(): the inputs digest of readfile.h sees its
 * bytes once) and compared with the kept bytes; within the epoch the other points
 * only stat it (same inode, size and modification time).
 */
static struct {
	char *path;
	enum trace_format fmt;
	int col;
	char *buf;           /* the bytes the trace was parsed from */
	size_t len;
	struct stat st;      /* the file when it was read */
	unsigned epoch;      /* mm_inputs_epoch() when it was read */
	struct trace tr;
	unsigned users;      /* trace_load_shared() calls not yet released */
} shared;

/* The same regular file, unchanged since it was read in this inputs epoch. */
static bool shared_unchanged(const char *path, enum trace_format fmt, int col)
{
	struct stat st;
	if (!shared.path || strcmp(shared.path, path) || shared.fmt != fmt || shared.col != col ||
	    shared.epoch != mm_inputs_epoch() || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	return st.st_dev == shared.st.st_dev && st.st_ino == shared.st.st_ino &&
	       st.st_size == shared.st.st_size && st.st_mtim.tv_sec == shared.st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == shared.st.st_mtim.tv_nsec;
}

static void shared_drop(void)
{
	free(shared.path);
	free(shared.buf);
	trace_free(&shared.tr);
	memset(&shared, 0, sizeof shared);
}

int trace_load_shared(const struct trace **out, const char *path, enum trace_format fmt,
		      int obj_id_col, struct mm_err *e)
{
	*out = NULL;
	/* read once per scenario (inputs epoch): the other points of a sweep only stat */
	if (shared_unchanged(path, fmt, obj_id_col)) {
		shared.users++;
		*out = &shared.tr;
		return 0;
	}
	char *buf;
	size_t len;
	struct stat st;
	if (stat(path, &st))
		memset(&st, 0, sizeof st);
	if (mm_read_file(path, "trace file", TRACE_FILE_MAX, &buf, &len, e))
		return -1;
	if (shared.path && !strcmp(shared.path, path) && shared.fmt == fmt &&
	    shared.col == obj_id_col && shared.len == len && !memcmp(shared.buf, buf, len)) {
		free(buf);
		shared.st = st;
		shared.epoch = mm_inputs_epoch();
		shared.users++;
		*out = &shared.tr;
		return 0;
	}
	if (shared.users) {   /* in use with other bytes: this caller gets its own */
		struct trace *t = malloc(sizeof *t);
		int rc = t ? trace_parse(t, buf, len, path, fmt, obj_id_col, e) : oom(e, path);
		free(buf);
		if (rc) {
			free(t);
			return -1;
		}
		*out = t;
		return 0;
	}
	shared_drop();
	if (trace_parse(&shared.tr, buf, len, path, fmt, obj_id_col, e)) {
		free(buf);
		return -1;
	}
	shared.path = strdup(path);
	if (!shared.path) {
		free(buf);
		shared_drop();
		return oom(e, path);
	}
	shared.fmt = fmt;
	shared.col = obj_id_col;
	shared.buf = buf;
	shared.len = len;
	shared.st = st;
	shared.epoch = mm_inputs_epoch();
	shared.users = 1;
	*out = &shared.tr;
	return 0;
}

void trace_release(const struct trace *t)
{
	if (!t)
		return;
	if (t == &shared.tr) {
		shared.users--;
		return;
	}
	struct trace *own = (struct trace *)t;
	trace_free(own);
	free(own);
}

void trace_shared_flush(void)
{
	if (!shared.users)
		shared_drop();
}

int trace_from_string(struct trace *t, const char *s, const char *name, struct mm_err *e)
{
	struct idmap m = { 0 };
	memset(t, 0, sizeof *t);
	if (!s)
		s = "";
	size_t len = strlen(s), cap = len / 2 + 1, n = 0;  /* numbers need separators */
	uint32_t *refs = malloc(cap * sizeof *refs);
	if (!refs)
		return oom(e, name);
	const char *p = s, *end = s + len;
	char pos[48], tb[MM_ERR_QUOTE_SIZE];
	bool need = true;  /* a number must come next (start, or after a comma) */
	while (p < end) {
		if (is_blank(*p) || *p == '\n') {
			p++;
			continue;
		}
		if (*p == ',') {
			if (need)
				goto bad;
			need = true;
			p++;
			continue;
		}
		uint64_t id;
		const char *start = p;
		int rc = parse_u64(&p, end, &id);
		if (rc <= 0 || n == cap) {
			p = start;
			goto bad;
		}
		if (idmap_get(&m, id, &refs[n]) < 0) {
			free(refs);
			idmap_free(&m);
			return oom(e, name);
		}
		n++;
		need = false;
	}
	if (n == 0 || need)
		goto bad;
	t->refs = refs;
	t->nrefs = n;
	t->npages = m.n;
	t->orig = m.orig;
	m.orig = NULL;
	idmap_free(&m);
	return 0;
bad:
	snprintf(pos, sizeof pos, "position %zu", (size_t)(p - s) + 1);
	if (p < end && (unsigned)(*p - '0') <= 9)
		mm_errf(e, name, pos, "expected a page number below 2^64");
	else
		mm_errf(e, name, pos, "expected a page number (decimal integer), got %s",
			p >= end ? "end of string" : token(p, end, tb, sizeof tb));
	free(refs);
	idmap_free(&m);
	return -1;
}
