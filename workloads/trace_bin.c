/*
 * trace_bin.c - the binary layout of a trace (tracefile.h: magic, version,
 * npages, nrefs, the original ids, then 32-bit dense references), read with its
 * sizes, ids and first-seen order checked, and written by tracegen.
 */
#include "workloads/traceparse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/hostmem.h"

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
		return trace_oom(e, name);
	for (uint64_t i = 0; i < np; i += PLAIN_BATCH) {
		int k = np - i < PLAIN_BATCH ? (int)(np - i) : PLAIN_BATCH;
		uint32_t dense[PLAIN_BATCH];
		for (int j = 0; j < k; j++)
			if (t->orig[i + j] < m.dcap)
				__builtin_prefetch(m.direct + t->orig[i + j]);
		if (idmap_batch(&m, t->orig + i, k, dense) < 0) {
			idmap_free(&m);
			return trace_oom(e, name);
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
int trace_parse_bin(struct trace *t, const char *buf, size_t len, const char *name,
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
		return trace_oom(e, name);
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
