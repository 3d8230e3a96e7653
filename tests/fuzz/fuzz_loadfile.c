/*
 * fuzz_loadfile.c - libFuzzer target: dbench's NBench loadfile parser
 * (workloads/loadfile.h, loadfile_parse()) on the input's bytes, in place, so a
 * read past the end is an ASan report.  The first byte chooses the byte limit
 * (the 1.x stand-in's cut): 0 (the whole file) when it is 0, else byte x 64
 * bytes of ReadX + WriteX; the rest is the loadfile.
 *
 * Oracles (besides the sanitizers): a rejected loadfile is left empty with a
 * one-line error (fuzz.h) whose line number lies inside the input; an accepted
 * one keeps its invariants: at least one operation, each with a known verb, a
 * line inside the input and in order, paths and handles inside their tables;
 * every path's parent comes before it and is a directory; the verb counts add
 * up to the operations; ReadX and WriteX sizes add up to read_bytes and
 * write_bytes, each extent covers the reads and writes that succeeded through
 * it; and parsing stops at the first line that reaches the byte limit.
 */
#include <stdint.h>

#include "tests/fuzz/fuzz.h"
#include "workloads/loadfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint64_t max_bytes = (uint64_t)data[0] * 64;
	const char *buf = (const char *)data + 1;
	size_t len = size - 1;
	size_t lines = fuzz_lines(buf, len);
	struct loadfile lf;
	struct mm_err e = { { 0 } };
	if (loadfile_parse(&lf, buf, len, "fuzz.loadfile", max_bytes, &e)) {
		FUZZ_CHECK(lf.ops == NULL && lf.nops == 0 && lf.paths == NULL && lf.npaths == 0);
		fuzz_check_err(&e, "fuzz.loadfile", lines);
		return 0;
	}
	FUZZ_CHECK(lf.nops >= 1);
	FUZZ_CHECK(lf.lines >= 1 && lf.lines <= lines);
	uint64_t verbs = 0, rd = 0, wr = 0, bytes = 0;
	for (int v = 0; v < LF_NVERBS; v++)
		verbs += lf.verbs[v];
	FUZZ_CHECK(verbs == lf.nops);
	uint32_t prev_line = 0;
	for (uint32_t i = 0; i < lf.nops; i++) {
		const struct lf_op *op = &lf.ops[i];
		FUZZ_CHECK(op->verb < LF_NVERBS);
		FUZZ_CHECK(op->line > prev_line && op->line <= lf.lines);
		prev_line = op->line;
		FUZZ_CHECK(op->path >= -1 && op->path < lf.npaths);
		FUZZ_CHECK(op->path2 >= -1 && op->path2 < lf.npaths);
		FUZZ_CHECK(op->handle >= -1 && op->handle < lf.nhandles);
		/* the limit stops the parse at the line that reaches it */
		FUZZ_CHECK(!max_bytes || bytes < max_bytes);
		if (op->verb == LF_READX || op->verb == LF_WRITEX) {
			*(op->verb == LF_READX ? &rd : &wr) += op->size;
			bytes += op->size;
		}
	}
	FUZZ_CHECK(rd == lf.read_bytes && wr == lf.write_bytes);
	for (int32_t i = 0; i < lf.npaths; i++) {
		const struct lf_path *p = &lf.paths[i];
		FUZZ_CHECK(p->name != NULL);
		FUZZ_CHECK(p->parent >= -1 && p->parent < i);
		if (p->parent >= 0)
			FUZZ_CHECK(lf.paths[p->parent].dir);
	}
	loadfile_free(&lf);
	return 0;
}
