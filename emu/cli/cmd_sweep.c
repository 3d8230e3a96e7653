/*
 * cmd_sweep.c - `mmemu sweep`: run scenarios in a parallel, resumable worker pool.
 *
 * Every scenario is loaded and validated first (exit 2 before anything runs).
 * The pool (emu/engine/sweep.c) keeps each finished simulation as DIR/STEM.d/NNNN.json,
 * so a rerun after a failure, a time-out or a killed sweep runs only what is
 * missing.  When every simulation of a scenario has a result, the merged file
 * DIR/STEM.json is written: byte-identical to `mmemu run`'s apart from "host".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/results.h"
#include "emu/engine/runner.h"
#include "emu/engine/scenario.h"
#include "emu/engine/sweep.h"

static const char sweep_usage[] =
	"usage: mmemu sweep [-j N] [--out DIR] [--timeout SECONDS] [--fresh] [-q] SCENARIO.json...\n"
	"Run every (kernel, sweep point, run) of each scenario in N parallel worker\n"
	"processes. Each finished simulation is kept as DIR/NAME.d/NNNN.json; a rerun\n"
	"skips those, so an interrupted sweep resumes. When all of a scenario's\n"
	"simulations have finished, DIR/NAME.json is written (the same file `mmemu run`\n"
	"writes, apart from \"host\").\n"
	"  -j, --jobs N         worker processes (default: the number of CPUs)\n"
	"  -o, --out DIR        directory for results (default results/runs)\n"
	"      --timeout SECS   kill a simulation after SECS host seconds (counts as failed)\n"
	"      --fresh          rerun simulations even if their result is kept\n"
	"  -q, --quiet          no progress and no summary\n"
	"Progress goes to stderr: a bar on a terminal, one line per simulation otherwise.\n"
	"Exit: 0 all simulations succeeded, 1 some failed, 2 bad input or usage.\n";

int cmd_sweep(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "jobs", required_argument, NULL, 'j' },  { "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' }, { "fresh", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },       { NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(sweep_usage, stdout);
		return 0;
	}
	struct sweep_opts o = { .jobs = report_default_jobs(), .keep_dir = "results/runs",
				.progress = SWEEP_PROGRESS_AUTO };
	int quiet = 0, opt;
	long l;
	char msg[300];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:o:q", lopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l)) {
				snprintf(msg, sizeof msg, "-j: expected an integer in [1, 1024], not \"%s\"", optarg);
				return cli_usage_error("sweep", "%s", msg);
			}
			o.jobs = (int)l;
			break;
		case 'o': o.keep_dir = optarg; break;
		case 't':
			if (report_parse_double(optarg, 0, &o.timeout) || o.timeout <= 0) {
				snprintf(msg, sizeof msg, "--timeout: expected a positive number of seconds, not \"%s\"", optarg);
				return cli_usage_error("sweep", "%s", msg);
			}
			break;
		case 'f': o.fresh = 1; break;
		case 'q': quiet = 1; o.progress = SWEEP_PROGRESS_NONE; break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error("sweep", "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error("sweep", "%s", msg);
		}
	}
	int n = argc - optind;
	if (n < 1)
		return cli_usage_error("sweep", "expected at least one SCENARIO.json");
	struct scenario *sc = calloc((size_t)n, sizeof *sc);
	struct sweep_job *jobs = calloc((size_t)n, sizeof *jobs);
	struct mm_err e = { "" };
	int loaded = 0, rc = 0;
	for (; loaded < n; loaded++) {
		if (scenario_load(&sc[loaded], argv[optind + loaded], &e) ||
		    sweep_job_init(&jobs[loaded], &sc[loaded], &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 2;
			break;
		}
	}
	double t0 = now_seconds();
	if (rc == 0 && sweep_run(jobs, n, &o, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	for (int i = 0; rc != 2 && i < n; i++) {
		char stem[256], path[1400];
		snprintf(path, sizeof path, "%s/%s.json", o.keep_dir, sweep_stem(sc[i].file, stem, sizeof stem));
		json_t *res = jobs[i].nfailed ? NULL : sweep_merge(&jobs[i]);
		if (!res) {
			rc = 1;
			if (!quiet)
				printf("%s: %d simulations: %d ran, %d reused, %d failed; no merged results "
				       "(rerun to retry the failed ones)\n", sc[i].file, sc[i].nsims,
				       jobs[i].nran, jobs[i].nreused, jobs[i].nfailed);
			continue;
		}
		if (results_write(res, path, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		} else if (!quiet) {
			printf("%s: %d simulations: %d ran, %d reused, 0 failed; results: %s\n", sc[i].file,
			       sc[i].nsims, jobs[i].nran, jobs[i].nreused, path);
		}
		json_decref(res);
	}
	if (!quiet && rc != 2)
		printf("sweep: %.2f s wall, %d jobs\n", now_seconds() - t0, o.jobs);
	for (int i = 0; i < loaded; i++) {
		sweep_job_free(&jobs[i]);
		scenario_free(&sc[i]);
	}
	free(jobs);
	free(sc);
	return rc;
}
