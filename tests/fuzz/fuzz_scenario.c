/*
 * fuzz_scenario.c - libFuzzer target: scenario validation as `mmemu validate`
 * does it (emu/engine/scenario.h): the input is the scenario's JSON, given to
 * scenario_parse() in place (libFuzzer's copy ends exactly where the input
 * does), which runs scenario_load()'s whole validation and sweep expansion,
 * every (kernel, point) through sim_prepare().
 *
 * The scenario is named as if it were the file tests/fuzz/scenario.json of the
 * source tree, so the input files it names resolve as they would for a file
 * there: the seed corpus (tests/fuzz/corpus/scenario) names the small traces and
 * workfiles of tests/bad and the shipped reaim workfiles relative to tests/fuzz.
 * (A mutation may name any file; the readers cap what they read, 1 GiB for a
 * trace, so an input naming /dev/zero is slow, not a crash.)
 *
 * Oracles (besides the sanitizers): a rejected scenario leaves @sc empty and
 * gives a one-line error naming the scenario first (fuzz.h; its line number is
 * not checked, since a JSON key may read "line 7"); an accepted one
 * expands to kernels x points x runs simulations, each with its spec and point.
 */
#include <stdint.h>

#include "emu/core/output.h"
#include "emu/engine/scenario.h"
#include "tests/fuzz/fuzz.h"

#define NAME MMEMU_SRCDIR "/tests/fuzz/scenario.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc;
	struct mm_err e = { { 0 } };
	if (scenario_parse(&sc, (const char *)data, size, NAME, &e)) {
		FUZZ_CHECK(sc.root == NULL && sc.sims == NULL && sc.file == NULL);
		/* no line check: a key may be called "line 7" ("NAME: line 7: unknown key") */
		fuzz_check_err(&e, NAME, 0);
		return 0;
	}
	FUZZ_CHECK(sc.nkernels >= 1 && sc.npoints >= 1 && sc.runs >= 1);
	FUZZ_CHECK(sc.nsims == sc.nkernels * sc.npoints * (int)sc.runs);
	FUZZ_CHECK(strlen(sc.hash) == 16 && strlen(sc.inputs) == 16);
	for (int i = 0; i < sc.nsims; i++) {
		FUZZ_CHECK(sc.sims[i].spec != NULL && sc.sims[i].point != NULL);
		FUZZ_CHECK(sc.sims[i].point_index >= 0 && sc.sims[i].point_index < sc.npoints);
		char *label = results_point_label(sc.sims[i].point);
		FUZZ_CHECK(label != NULL);
		free(label);
	}
	scenario_free(&sc);
	return 0;
}
