/*
 * fuzz_trace.c - libFuzzer target: the trace parser (workloads/tracefile.h) in
 * every layout, on the bytes after the first.
 *
 * The first byte chooses the layout (low 3 bits) and a csv object-id column
 * (the other 5 bits), so one corpus covers them all and a mutation can move an
 * input from one layout to another:
 *   0 plain   1 txt   2 csv, the column found by its header name
 *   3 csv, column 1 + (byte >> 3) given (as --obj-id-col / workload.obj_id_col)
 *   4 auto, named "fuzz.trace"   5 auto, named "fuzz.csv" (detection by name;
 *     an input starting with the magic "MMTRACE1" is read in the binary layout)
 *   6 auto with the column 1 + (byte >> 3)
 *   7 a reference string (mmemu replay --refs: trace_from_string())
 * trace_parse() gets the rest of the input in place: libFuzzer's copy ends
 * exactly there, so a read past the end is an ASan report.
 *
 * Oracles (besides the sanitizers): a rejected input leaves the trace empty and
 * gives a one-line error (fuzz.h) whose line number or position lies inside the
 * input; an accepted one has dense ids in first-seen order, distinct original
 * ids, and writing the original ids back as a plain trace parses to the same
 * trace (which checks the id map's direct table and hash table against each other).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "workloads/tracefile.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void check_empty(const struct trace *t)
{
	FUZZ_CHECK(t->refs == NULL && t->nrefs == 0 && t->npages == 0 && t->orig == NULL);
}

/* An accepted trace: shape, and the round trip through a plain trace. */
static void check_trace(const struct trace *t)
{
	FUZZ_CHECK(t->nrefs >= 1 && t->npages >= 1 && t->npages <= t->nrefs);
	FUZZ_CHECK(t->refs != NULL && t->orig != NULL);
	uint32_t next = 0;
	for (size_t i = 0; i < t->nrefs; i++) {
		FUZZ_CHECK(t->refs[i] <= next);   /* first-seen order */
		if (t->refs[i] == next)
			next++;
	}
	FUZZ_CHECK(next == t->npages);

	uint64_t *ids = malloc(t->npages * sizeof *ids);
	FUZZ_CHECK(ids != NULL);
	memcpy(ids, t->orig, t->npages * sizeof *ids);
	qsort(ids, t->npages, sizeof *ids, cmp_u64);
	for (uint32_t i = 1; i < t->npages; i++)
		FUZZ_CHECK(ids[i - 1] != ids[i]);
	free(ids);

	char *text = malloc(t->nrefs * 21);
	FUZZ_CHECK(text != NULL);
	size_t len = 0;
	for (size_t i = 0; i < t->nrefs; i++) {
		uint64_t v = t->orig[t->refs[i]];
		char digits[20];
		int k = 0;
		do {
			digits[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k)
			text[len++] = digits[--k];
		text[len++] = '\n';
	}
	struct trace u;
	struct mm_err e = { { 0 } };
	if (trace_parse(&u, text, len, "round-trip", TRACE_PLAIN, 0, &e))
		fuzz_fail(__FILE__, __LINE__, "the written-back trace parses", e.msg);
	FUZZ_CHECK(u.nrefs == t->nrefs && u.npages == t->npages);
	FUZZ_CHECK(memcmp(u.refs, t->refs, t->nrefs * sizeof *t->refs) == 0);
	FUZZ_CHECK(memcmp(u.orig, t->orig, t->npages * sizeof *t->orig) == 0);
	trace_free(&u);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static const enum trace_format fmts[] = { TRACE_PLAIN, TRACE_TXT, TRACE_CSV, TRACE_CSV,
						  TRACE_AUTO, TRACE_AUTO, TRACE_AUTO };
	unsigned layout = data[0] & 7, col = 1 + (data[0] >> 3);
	const char *buf = (const char *)data + 1;
	size_t len = size - 1;
	struct trace t;
	struct mm_err e = { { 0 } };

	if (layout == 7) {
		char *s = malloc(len + 1);
		FUZZ_CHECK(s != NULL);
		memcpy(s, buf, len);
		s[len] = '\0';
		if (trace_from_string(&t, s, "--refs", &e) == 0) {
			check_trace(&t);
		} else {
			check_empty(&t);
			fuzz_check_err(&e, "--refs", 0);
			const char *p = strstr(e.msg, "--refs: position ");
			FUZZ_CHECK(p == e.msg);
			FUZZ_CHECK(strtoull(p + 17, NULL, 10) <= strlen(s) + 1);
		}
		free(s);
	} else {
		const char *name = layout == 5 ? "fuzz.csv" : "fuzz.trace";
		int c = layout == 3 || layout == 6 ? (int)col : 0;
		if (trace_parse(&t, buf, len, name, fmts[layout], c, &e) == 0) {
			check_trace(&t);
		} else {
			check_empty(&t);
			fuzz_check_err(&e, name, fuzz_lines(buf, len));
		}
	}
	trace_free(&t);
	return 0;
}
