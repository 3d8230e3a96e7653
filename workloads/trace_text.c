/*
 * trace_text.c - the text layouts of a trace: plain (one page number per line),
 * csv (libCacheSim's, an obj-id column) and the comma-separated string of
 * replay --refs.
 *
 * Parsed by hand: a line counter, a digit loop with overflow check, no stdio per
 * line; every scan is bounded by the buffer's end (it is not NUL-terminated),
 * never by a terminator.  The plain layout's commonest line, 1 to 7 digits, is
 * converted eight bytes at a time and looked up in batches with prefetches
 * (plain_fast()).  Every malformed line yields one "FILE: line N: expected ..."
 * error quoting the line escaped (mm_err_quote()) and -1.
 */
#include "workloads/traceparse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emu/core/hostmem.h"

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

/* Lines the line-at-a-time path takes after the fast path stopped at one it does
 * not take (a comment, a blank line, a \r\n line end, 8 digits or more), before
 * the fast path is tried again: a file of such lines pays for one failed try
 * (and one batch flush) per this many. */
#define PLAIN_SLOW_LINES 16

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
int trace_parse_plain(const char *buf, size_t len, const char *name, struct idmap *m,
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
				return trace_oom(e, name);
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
					return trace_oom(e, name);
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
			return trace_line_err(e, name, line, "expected a page number (decimal integer), got %s",
					token(start, end, tb, sizeof tb));
		if (rc < 0)
			return trace_line_err(e, name, line, "expected a page number below 2^64, got %s",
					token(start, end, tb, sizeof tb));
		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p != '\n' && *p != '#')
			return trace_line_err(e, name, line, "expected one page number per line, got %s",
					token(start, end, tb, sizeof tb));
		if (idmap_get(m, id, &refs[n]) < 0)
			return trace_oom(e, name);
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

int trace_parse_csv(const char *buf, size_t len, const char *name, int obj_id_col,
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
						return trace_line_err(e, name, line, "expected a csv header with a "
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
			return trace_line_err(e, name, line, "expected at least %d comma-separated fields",
					col + 1);
		uint64_t id;
		const char *q = fs;
		int rc = parse_u64(&q, fe, &id);
		if (rc <= 0 || q != fe)
			return trace_line_err(e, name, line, "expected an object id (decimal integer%s) "
					"in column %d, got %s", rc < 0 ? " below 2^64" : "", col + 1,
					fs == fe ? "an empty field" : token(fs, fe, tb, sizeof tb));
		if (idmap_get(m, id, &refs[n]) < 0)
			return trace_oom(e, name);
		n++;
		p = next;
		line += nl;
	}
	if (header)
		return trace_line_err(e, name, line, "expected a csv header line, got an empty file");
	*nrefs = n;
	*nlines = line;
	return 0;
}

enum trace_format trace_detect(const char *buf, size_t len, const char *name)
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

int trace_from_string(struct trace *t, const char *s, const char *name, struct mm_err *e)
{
	struct idmap m = { 0 };
	memset(t, 0, sizeof *t);
	if (!s)
		s = "";
	size_t len = strlen(s), cap = len / 2 + 1, n = 0;  /* numbers need separators */
	uint32_t *refs = malloc(cap * sizeof *refs);
	if (!refs)
		return trace_oom(e, name);
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
			return trace_oom(e, name);
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
