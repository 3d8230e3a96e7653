/*
 * test_golden.c - golden-output tests: whole scenarios run through the mmemu
 * binary and compared byte for byte with results files kept under results/golden/.
 *
 * Design: each case runs `$MMEMU run -q -o TMP SCENARIO` (the working directory is
 * the source root, as tests/meson.build sets it), removes the "host" section (the
 * only part of a results file that may differ between two runs of the same
 * scenario, see docs/results.md "Determinism"), and dumps the rest canonically
 * (JSON_SORT_KEYS | JSON_INDENT(1) | JSON_REAL_PRECISION(12), plus a final
 * newline).  That text must equal results/golden/NAME.json exactly; on a mismatch
 * the test prints the first differing line and the command that regenerates the
 * file.  With MMEMU_UPDATE_GOLDEN=1 in the environment the golden file is
 * (re)written instead, and the test passes.
 *
 * Golden files change legitimately whenever the model changes: regenerating them
 * makes every behavioural change visible as a diff in review.  The scenarios are
 * small (about a second each) and must be deterministic, including under ASan and
 * under SimGrid thread contexts (test golden-threads: MMEMU_SIMGRID_CONTEXTS=thread).
 *
 * Per-scenario extra checks (on the parsed results): 2read-small runs with the
 * invariant checker on, so every run must report metrics.invariants_ok == 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

static char tmpdir[256];
static const char *self = "BUILDDIR/tests/test_golden";   /* argv[0] */

/* Read all of @path. Returns: malloc'd NUL-terminated text, or NULL (errno set). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	while (b) {
		if (n + 1 >= cap) {
			char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
		}
		size_t r = fread(b + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	if (b)
		b[n] = '\0';
	return b;
}

static int spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = strlen(text);
	int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
	if (fclose(f))
		rc = -1;
	return rc;
}

/* Run `$MMEMU run -q -o @out @scenario` with stdout+stderr to @log.
 * Returns: the exit status, or -1 if it did not exit normally. */
static int run_mmemu(const char *scenario, const char *out, const char *log)
{
	const char *mmemu = getenv("MMEMU");
	if (!mmemu || !*mmemu)
		fail_msg("MMEMU is not set (run through `meson test`, or set it to the built binary)");
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		execl(mmemu, mmemu, "run", "-q", "-o", out, scenario, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Print the first line where @want and @got differ (1-based). */
static void print_first_diff(const char *golden, const char *want, const char *got)
{
	unsigned line = 1;
	const char *a = want, *b = got;
	for (;;) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
		size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
		if (la != lb || memcmp(a, b, la) != 0 || !ea != !eb) {
			print_error("%s: first difference at line %u\n  golden: %.*s%s\n  now:    %.*s%s\n",
				    golden, line, (int)(la > 200 ? 200 : la), a, *a ? "" : "(end of file)",
				    (int)(lb > 200 ? 200 : lb), b, *b ? "" : "(end of output)");
			return;
		}
		if (!ea)
			return;
		a = ea + 1;
		b = eb + 1;
		line++;
	}
}

/*
 * Run scenarios/teaching/@name.json, compare with results/golden/@name.json.
 * Returns: the parsed results without host (caller decrefs) for extra checks.
 */
static json_t *golden(const char *name)
{
	char scen[256], out[512], log[512], gold[256];
	snprintf(scen, sizeof scen, "scenarios/teaching/%s.json", name);
	snprintf(out, sizeof out, "%s/%s.json", tmpdir, name);
	snprintf(log, sizeof log, "%s/%s.log", tmpdir, name);
	snprintf(gold, sizeof gold, "results/golden/%s.json", name);

	int rc = run_mmemu(scen, out, log);
	if (rc != 0) {
		char *l = slurp(log);
		print_error("%s run -q -o %s %s: exit %d\n%s", getenv("MMEMU"), out, scen, rc,
			    l ? l : "");
		free(l);
		fail_msg("mmemu failed on %s", scen);
	}
	json_error_t je;
	json_t *r = json_load_file(out, JSON_REJECT_DUPLICATES, &je);
	if (!r)
		fail_msg("%s: %s (line %d)", out, je.text, je.line);
	assert_true(json_is_object(json_object_get(r, "host")));
	assert_int_equal(json_object_del(r, "host"), 0);
	char *dump = json_dumps(r, JSON_SORT_KEYS | JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	assert_non_null(dump);
	size_t n = strlen(dump);
	char *text = malloc(n + 2);
	assert_non_null(text);
	memcpy(text, dump, n);
	text[n] = '\n';
	text[n + 1] = '\0';
	free(dump);
	unlink(out);
	unlink(log);

	const char *upd = getenv("MMEMU_UPDATE_GOLDEN");
	if (upd && *upd && strcmp(upd, "0") != 0) {
		if (spit(gold, text))
			fail_msg("cannot write %s: %s", gold, strerror(errno));
		print_message("wrote %s\n", gold);
		free(text);
		return r;
	}
	char *want = slurp(gold);
	if (!want) {
		print_error("%s: %s\n", gold, strerror(errno));
	} else if (strcmp(want, text) != 0) {
		print_first_diff(gold, want, text);
	}
	if (!want || strcmp(want, text) != 0) {
		print_error("regenerate (then review the diff with git diff results/golden/):\n"
			    "  MMEMU_UPDATE_GOLDEN=1 meson test -C BUILDDIR golden\n"
			    "or, from the source root:\n"
			    "  MMEMU_UPDATE_GOLDEN=1 MMEMU=%s %s\n",
			    getenv("MMEMU"), self);
		free(want);
		free(text);
		json_decref(r);
		fail_msg("%s differs from the output of %s", gold, scen);
	}
	free(want);
	free(text);
	return r;
}

static void golden_trace_policies(void **state)
{
	json_t *r = golden("trace-policies");
	/* 4 kernels x 4 frame counts */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 16);
	json_decref(r);
}

/* Every run of @r has metrics.invariants_ok == 1 (else the test fails). */
static void all_invariants_ok(json_t *r, const char *what)
{
	json_t *runs = json_object_get(r, "runs");
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run) {
		json_t *ok = json_object_get(json_object_get(run, "metrics"), "invariants_ok");
		if (!json_is_number(ok) || json_number_value(ok) != 1) {
			char *p = json_dumps(json_object_get(run, "point"), JSON_COMPACT);
			print_error("run %zu (kernel %s, point %s): invariants_ok %s\n", i,
				    json_string_value(json_object_get(run, "kernel")), p ? p : "?",
				    ok ? "0" : "missing");
			free(p);
			json_decref(r);
			fail_msg("the invariant checker failed in a %s run", what);
		}
	}
}

static void golden_2read_small(void **state)
{
	json_t *r = golden("2read-small");
	/* 2 kernels x 2 patterns x 2 range pairs */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 8);
	all_invariants_ok(r, "2read-small");
	json_decref(r);
}

static void golden_2read_mmap(void **state)
{
	json_t *r = golden("2read-mmap");
	/* 2 kernels x 2 access modes x 2 patterns */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 8);
	all_invariants_ok(r, "2read-mmap");
	json_decref(r);
}

static void golden_reaim_small(void **state)
{
	json_t *r = golden("reaim-small");
	/* 2 kernels x 2 mixes x 2 modes */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 8);
	all_invariants_ok(r, "reaim-small");
	json_decref(r);
}

static void golden_kernbench_small(void **state)
{
	json_t *r = golden("kernbench-small");
	/* 2 kernels x 3 -j values x 2 runs */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 12);
	json_decref(r);
}

static void golden_lmbench_colouring(void **state)
{
	json_t *r = golden("lmbench-colouring");
	/* 3 kernels x 2 sizes, invariant checker on; colouring removes every
	 * conflict at 1 MiB, the LIFO lists after aging do not */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 6);
	all_invariants_ok(r, "lmbench-colouring");
	json_t *runs = json_object_get(r, "runs");
	for (size_t i = 0; i < 6; i++) {
		json_t *m = json_object_get(json_array_get(runs, i), "metrics");
		const char *k = json_string_value(json_object_get(json_array_get(runs, i), "kernel"));
		double conf = json_number_value(json_object_get(m, "colour_conflict_pages"));
		if (strcmp(k, "lifo") != 0)
			assert_true(conf == 0);
	}
	json_decref(r);
}

static void golden_aim9_small(void **state)
{
	json_t *r = golden("aim9-small");
	/* 3 allocator modules x 4 tests, invariant checker on */
	assert_int_equal(json_array_size(json_object_get(r, "runs")), 12);
	all_invariants_ok(r, "aim9-small");
	json_decref(r);
}

static int setup(void **state)
{
#ifdef MMEMU_SRCDIR
	if (chdir(MMEMU_SRCDIR) != 0)
		return -1;
#endif
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/mmemu-golden-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	rmdir(tmpdir);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 0 && argv[0][0] == '/')
		self = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_trace_policies),
		cmocka_unit_test(golden_2read_small),
		cmocka_unit_test(golden_kernbench_small),
		cmocka_unit_test(golden_2read_mmap),
		cmocka_unit_test(golden_reaim_small),
		cmocka_unit_test(golden_lmbench_colouring),
		cmocka_unit_test(golden_aim9_small),
	};
	return cmocka_run_group_tests_name("golden", tests, setup, teardown);
}
