/*
 * fuzz_workfile.c - libFuzzer target: the reaim workfile parser
 * (workloads/workfile.h, workfile_parse()) on the input's bytes, in place, so a
 * read past the end is an ASan report.
 *
 * Oracles (besides the sanitizers): a rejected workfile is left empty with a
 * one-line error (fuzz.h) whose line number lies inside the input; an accepted
 * one keeps the documented invariants: each test once, a known reaim test,
 * positive hits, cumulative hits that add up to mix_hits, total_hits between
 * mix_hits and WORKFILE_MAX_HITS, sizes at most WORKFILE_MAX_SIZE and not both
 * 0, each test's line inside the input, and workfile_pick() mapping the ends of
 * [0, mix_hits) to the first and the last test.
 */
#include <stdint.h>

#include "tests/fuzz/fuzz.h"
#include "workloads/workfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t lines = fuzz_lines(buf, size);
	struct workfile w;
	struct mm_err e = { { 0 } };
	if (workfile_parse(&w, buf, size, "fuzz.workfile", &e)) {
		FUZZ_CHECK(w.tests == NULL && w.ntests == 0 && w.mix_hits == 0 && w.total_hits == 0);
		fuzz_check_err(&e, "fuzz.workfile", lines);
		return 0;
	}
	FUZZ_CHECK(w.ntests >= 1 && w.ntests <= workfile_known_count());
	uint64_t cum = 0;
	for (int i = 0; i < w.ntests; i++) {
		const struct workfile_test *t = &w.tests[i];
		const struct workfile_known *k = workfile_known(t->id);
		FUZZ_CHECK(k != NULL && strcmp(k->name, t->name) == 0);
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(w.tests[j].id != t->id);
		FUZZ_CHECK(t->hits >= 1);
		cum += t->hits;
		FUZZ_CHECK(t->cum == cum);
		FUZZ_CHECK(t->line >= 1 && (size_t)t->line <= lines);
	}
	FUZZ_CHECK(w.mix_hits == cum);
	FUZZ_CHECK(w.total_hits >= w.mix_hits && w.total_hits <= WORKFILE_MAX_HITS);
	FUZZ_CHECK(w.filesize <= WORKFILE_MAX_SIZE && w.poolsize <= WORKFILE_MAX_SIZE);
	FUZZ_CHECK(w.filesize > 0 || w.poolsize > 0);
	FUZZ_CHECK(workfile_pick(&w, 0) == 0);
	FUZZ_CHECK(workfile_pick(&w, w.mix_hits - 1) == w.ntests - 1);
	FUZZ_CHECK(workfile_pick(&w, w.mix_hits) == -1);
	workfile_free(&w);
	return 0;
}
