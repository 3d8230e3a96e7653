/*
 * cmd_run.c - `mmemu run` and `mmemu validate`.
 *
 * run: load and validate every scenario first (bad input exits 2 before any
 * simulation starts and before any output is written), then run every
 * (kernel, point, run) in a child process, print a summary table and write one
 * results file per scenario.  With -j N (N > 1) the simulations run in the
 * sweep pool (emu/engine/sweep.c); the results file is the same, byte for byte, apart
 * from "host".
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/results.h"
#include "emu/engine/runner.h"
#include "emu/engine/scenario.h"
#include "emu/engine/sweep.h"

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return 1;
	return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "mmemu %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see mmemu %s --help)\n", cmd);
	return 2;
}

int cli_check_folder(const char *cmd, const char *opt, const char *path)
{
	struct stat st;
	if (!path || lstat(path, &st) != 0)
		return 0;   /* missing: created when written */
	if (stat(path, &st) != 0)
		return cli_usage_error(cmd, "%s: %s is a dangling symlink, expected a folder", opt, path);
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "%s: %s is not a folder", opt, path);
	return 0;
}

int cli_optval(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

int cli_parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static const char run_usage[] =
	"usage: mmemu run [-o OUT] [-q] [-j N] [--set KEY=VALUE]... [--check] SCENARIO.json...\n"
	"Run every (kernel, sweep point, run) of each scenario and write its results.\n"
	"  -o OUT   results file (one scenario) or directory (several);\n"
	"           default results/runs/NAME.json where NAME is the scenario file's name\n"
	"           (two scenarios of the same NAME are refused)\n"
	"  -q       no summary table\n"
	"  -j N     run N simulations at a time in worker processes (default 1);\n"
	"           a progress bar on a terminal (see also `mmemu sweep`)\n"
	"  --set KEY=VALUE  override a scenario value before validation (KEY a dotted\n"
	"           path such as workload.duration or runs; VALUE as JSON if it parses,\n"
	"           else a string), e.g. --set runs=1 --set workload.duration=20s\n"
	"  --check  run the mm invariant checker in every simulation (workload.check)\n"
	"           and fail (exit 1) when any run reports a violation\n"
	"Exit: 0 all runs succeeded, 1 a run failed, 2 bad input or usage.\n";

static const char validate_usage[] =
	"usage: mmemu validate SCENARIO.json...\n"
	"Check scenarios without running them: every (kernel, sweep point) is loaded with\n"
	"the same code a run uses. Prints one line per scenario.\n"
	"Exit: 0 all valid, 2 the first error, as FILE: JSON.PATH: what was expected.\n";

int cli_keyvalue(json_t *obj, const char *cmd, const char *opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return cli_usage_error(cmd, "%s: expected KEY=VALUE, got \"%s\"", opt, arg);
	char key[512];
	if (snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg) >= (int)sizeof key)
		return cli_usage_error(cmd, "%s: key longer than %zu characters", opt, sizeof key - 1);
	json_t *jv = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
	json_object_set_new(obj, key, jv ? jv : json_string(eq + 1));
	return 0;
}

int cli_check_invariants(const struct scenario *sc, json_t *res)
{
	size_t i;
	json_t *r;
	int bad = 0;
	json_array_foreach(json_object_get(res, "runs"), i, r) {
		json_t *ok = json_object_get(json_object_get(r, "metrics"), "invariants_ok");
		if (json_is_number(ok) && json_number_value(ok) == 1)
			continue;
		char *lbl = results_point_label(json_object_get(r, "point"));
		const char *why = json_string_value(json_object_get(r, "invariant_error"));
		char clean[MM_ERR_MAX];
		if (why)
			mm_err_clean(clean, sizeof clean, why, sizeof clean - 1);
		fprintf(stderr, "mmemu: %s: kernel %s, point %s, run %lld: %s%s%s\n", sc->file,
			json_string_value(json_object_get(r, "kernel")) ?: "?", lbl ? lbl : "",
			(long long)json_integer_value(json_object_get(r, "run")),
			ok ? "the mm invariant checker found a violation (metrics.invariants_ok = 0)"
			   : "no invariant check was run (metrics.invariants_ok missing)",
			why ? ": " : "", why ? clean : "");
		free(lbl);
		bad = 1;
	}
	return bad;
}

static void default_out(const char *file, const char *outopt, int many, char *buf, size_t len)
{
	char stem[256];
	if (outopt && !many)
		snprintf(buf, len, "%s", outopt);
	else
		snprintf(buf, len, "%s/%s.json", outopt ? outopt : "results/runs", sweep_stem(file, stem, sizeof stem));
}

int cli_unique_stems(const char *cmd, char **files, int n, const char *dir)
{
	char a[256], b[256];
	for (int i = 1; i < n; i++) {
		sweep_stem(files[i], a, sizeof a);
		for (int j = 0; j < i; j++)
			if (strcmp(a, sweep_stem(files[j], b, sizeof b)) == 0)
				return cli_usage_error(cmd, "%s and %s would both write %s/%s.json: "
						       "expected scenario files of different names, or separate runs "
						       "with their own -o", files[j], files[i], dir, a);
	}
	return 0;
}

static void print_summary(const struct scenario *sc, json_t *res)
{
	printf("%s  (%s)\n", sc->name, sc->file);
	printf("  %-18s %-32s %4s  %s\n", "kernel", "point", "run", "primary metric");
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		char *lbl = results_point_label(json_object_get(run, "point"));
		json_t *p = json_object_get(run, "primary");
		printf("  %-18s %-32s %4lld  %s = %.6g %s (%s is better)\n",
		       json_string_value(json_object_get(run, "kernel")), lbl && *lbl ? lbl : "-",
		       (long long)json_integer_value(json_object_get(run, "run")),
		       json_string_value(json_object_get(p, "name")),
		       json_number_value(json_object_get(p, "value")),
		       json_string_value(json_object_get(p, "unit")),
		       json_string_value(json_object_get(p, "better")));
		free(lbl);
	}
}

/* run -j N: every scenario's simulations in one pool, then write as the serial path does. */
/* Write scenario @sc's results @res (NULL: a simulation failed) where -o says and
 * print its summary.  Returns: 0, or 1 if there was nothing or it could not be written. */
static int write_results(const struct scenario *sc, json_t *res, const char *out, int many,
			 int quiet)
{
	struct mm_err e = { "" };
	char path[1200];
	if (!res)
		return 1;
	default_out(sc->file, out, many, path, sizeof path);
	if (results_write(res, path, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		return 1;
	}
	if (!quiet) {
		print_summary(sc, res);
		printf("  results: %s\n", path);
	}
	return 0;
}

static int run_parallel(struct scenario *sc, int n, int jobs, const char *out, int quiet, int check)
{
	struct sweep_job *sj = calloc((size_t)n, sizeof *sj);
	struct sweep_opts o = { .jobs = jobs, .progress = SWEEP_PROGRESS_BAR };
	struct mm_err e = { "" };
	int rc = 0;
	for (int i = 0; i < n; i++)
		if (sweep_job_init(&sj[i], &sc[i], &e))
			rc = 1;
	if (rc == 0 && sweep_run(sj, n, &o, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	for (int i = 0; rc == 0 && i < n; i++)
		if (sj[i].nfailed)
			rc = 1;
	for (int i = 0; i < n; i++) {
		json_t *res = sj[i].nfailed ? NULL : sweep_merge(&sj[i]);
		rc |= write_results(&sc[i], res, out, n > 1, quiet);
		if (res && check)
			rc |= cli_check_invariants(&sc[i], res);
		json_decref(res);
		sweep_job_free(&sj[i]);
	}
	free(sj);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	const char *out = NULL;
	int quiet = 0, opt, jobs = 1, check = 0;
	long l;
	if (cli_wants_help(argc, argv)) {
		fputs(run_usage, stdout);
		return 0;
	}
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 'S' },
		{ "check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	json_t *set = json_object();
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:qj:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'q': quiet = 1; break;
		case 'S':
			if (cli_keyvalue(set, "run", "--set", optarg)) {
				json_decref(set);
				return 2;
			}
			break;
		case 'C':
			check = 1;
			json_object_set_new(set, "workload.check", json_true());
			break;
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l)) {
				fprintf(stderr, "mmemu run: -j: expected an integer in [1, 1024], not \"%s\"\n", optarg);
				json_decref(set);
				return 2;
			}
			jobs = (int)l;
			break;
		default: fputs(run_usage, stderr); json_decref(set); return 2;
		}
	}
	int n = argc - optind;
	if (n < 1) {
		fputs(run_usage, stderr);
		json_decref(set);
		return 2;
	}
	if (n > 1 && cli_unique_stems("run", argv + optind, n, out ? out : "results/runs")) {
		json_decref(set);
		return 2;
	}
	struct scenario *sc = calloc((size_t)n, sizeof *sc);
	struct mm_err e = { "" };
	for (int i = 0; i < n; i++) {
		if (scenario_load_set(&sc[i], argv[optind + i], set, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			for (int j = 0; j < i; j++)
				scenario_free(&sc[j]);
			free(sc);
			json_decref(set);
			return 2;
		}
	}
	json_decref(set);
	if (jobs > 1) {
		int rc = run_parallel(sc, n, jobs, out, quiet, check);
		for (int i = 0; i < n; i++)
			scenario_free(&sc[i]);
		free(sc);
		return rc;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		json_t *res = results_new(&sc[i]);
		int failed = 0;
		for (int k = 0; k < sc[i].nsims; k++) {
			struct scenario_sim *ss = &sc[i].sims[k];
			json_t *r;
			double t0 = now_seconds();
			if (runner_run(ss->spec, sc[i].file, &r, &e) != RUNNER_OK) {
				char *lbl = results_point_label(ss->point);
				fprintf(stderr, "mmemu: %s: kernel %s, point %s, run %d: %s\n", sc[i].file,
					ss->kernel, lbl ? lbl : "", ss->run, e.msg);
				free(lbl);
				failed = 1;
				continue;
			}
			results_add_run(res, ss, r, now_seconds() - t0);
		}
		rc |= write_results(&sc[i], failed ? NULL : res, out, n > 1, quiet);
		if (!failed && check)
			rc |= cli_check_invariants(&sc[i], res);
		json_decref(res);
	}
	for (int i = 0; i < n; i++)
		scenario_free(&sc[i]);
	free(sc);
	return rc;
}

int cmd_validate(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(validate_usage, stdout);
		return 0;
	}
	if (argc < 2) {
		fputs(validate_usage, stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct scenario sc;
		struct mm_err e = { "" };
		if (scenario_load(&sc, argv[i], &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			return 2;
		}
		printf("%s: ok: \"%s\", %d kernels x %d points x %lld runs = %d simulations\n", argv[i],
		       sc.name, sc.nkernels, sc.npoints, (long long)sc.runs, sc.nsims);
		scenario_free(&sc);
	}
	return 0;
}
