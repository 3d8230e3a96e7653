/*
 * cmd_sweep.c - `mmemu sweep`: run scenarios in a parallel, resumable worker
 * pool, one shard of it, or as a Slurm job array; `mmemu collect`: merge what
 * the shards kept.
 *
 * Every scenario is loaded and validated first (exit 2 before anything runs).
 * The pool (emu/engine/sweep.c) keeps each finished simulation as DIR/STEM.d/NNNN.json,
 * so a rerun after a failure, a time-out or a killed sweep runs only what is
 * missing.  When every simulation of a scenario has a result, the merged file
 * DIR/STEM.json is written: byte-identical to `mmemu run`'s apart from "host".
 * With --shard K/N only slice K is run and kept (no merged file: other shards
 * run elsewhere); --slurm submits one array task per shard (emu/engine/cluster.c);
 * collect writes the merged files from the kept results alone, as sweep would.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/analysis/report.h"
#include "emu/engine/results.h"
#include "emu/engine/cluster.h"
#include "emu/engine/runner.h"
#include "emu/engine/scenario.h"
#include "emu/engine/sweep.h"

static const char sweep_usage[] =
	"usage: mmemu sweep [-j N] [--out DIR] [--timeout SECONDS] [--fresh] [-q]\n"
	"                   [--shard K/N | --slurm [--partition P] [--max-tasks M] [--dry-run]]\n"
	"                   SCENARIO.json...\n"
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
	"      --shard K/N      run only slice K (1..N) of the simulations, keeping them\n"
	"                       in DIR/NAME.d/ (no merged file; `mmemu collect` merges)\n"
	"      --slurm          write DIR/NAME.sbatch, a Slurm job array with one task per\n"
	"                       shard that still misses a simulation, each running\n"
	"                       `mmemu sweep --shard $SLURM_ARRAY_TASK_ID/N -j N ...`, and\n"
	"                       submit it with sbatch (docs/cluster.md)\n"
	"      --partition P    the Slurm partition (default: the cluster's)\n"
	"      --max-tasks M    at most M shards (default: one per simulation, at most 1000)\n"
	"      --dry-run        print the script instead of writing and submitting it\n"
	"  With --slurm, -j is the worker processes (and CPUs) per task, default 1.\n"
	"Progress goes to stderr: a bar on a terminal, one line per simulation otherwise.\n"
	"Exit: 0 all simulations succeeded, 1 some failed, 2 bad input or usage.\n";

/* The options of one sweep or collect. */
struct sweep_cli {
	struct sweep_opts o;
	struct cluster_opts co;
	int quiet, jobs_given;
	const char *timeout_arg;
};

int cli_cluster_opt(const char *cmd, int opt, const char *arg, struct sweep_opts *o, struct cluster_opts *co)
{
	char msg[300];
	long l;
	switch (opt) {
	case 'k':
		if (cluster_parse_shard(arg, &o->shard_k, &o->shard_n)) {
			snprintf(msg, sizeof msg, "--shard: expected K/N with 1 <= K <= N <= 1000000, not \"%s\"", arg);
			return cli_usage_error(cmd, "%s", msg);
		}
		return 0;
	case 's': co->slurm = 1; return 0;
	case 'p': co->partition = arg; break;
	case 'm':
		if (report_parse_long(arg, 1, CLUSTER_MAX_TASKS, &l)) {
			snprintf(msg, sizeof msg, "--max-tasks: expected an integer in [1, %d], not \"%s\"",
				 CLUSTER_MAX_TASKS, arg);
			return cli_usage_error(cmd, "%s", msg);
		}
		co->max_tasks = (int)l;
		break;
	default: co->dry_run = 1; break;
	}
	co->slurm_only = 1;
	return 0;
}

int cli_cluster_check(const char *cmd, const struct sweep_opts *o, struct cluster_opts *co, int jobs_given)
{
	if (co->slurm && o->shard_n)
		return cli_usage_error(cmd, "--shard and --slurm exclude each other (the array tasks get --shard)");
	if (co->slurm_only && !co->slurm)
		return cli_usage_error(cmd, "--partition, --max-tasks and --dry-run go with --slurm");
	co->cpus = jobs_given ? o->jobs : 1;
	return 0;
}

/* Parse the options of `mmemu @cmd` (collect takes only -o and -q).
 * Returns: 0, or 2 after a usage error. */
static int parse_opts(const char *cmd, int argc, char **argv, struct sweep_cli *c)
{
	static const struct option lopts[] = {
		{ "jobs", required_argument, NULL, 'j' },  { "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' }, { "fresh", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },       { "shard", required_argument, NULL, 'k' },
		{ "slurm", no_argument, NULL, 's' },       { "partition", required_argument, NULL, 'p' },
		{ "max-tasks", required_argument, NULL, 'm' }, { "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option collect_lopts[] = {
		{ "out", required_argument, NULL, 'o' }, { "quiet", no_argument, NULL, 'q' }, { NULL, 0, NULL, 0 },
	};
	int collect = strcmp(cmd, "collect") == 0, opt;
	long l;
	char msg[300];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, collect ? ":o:q" : ":j:o:q", collect ? collect_lopts : lopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l)) {
				snprintf(msg, sizeof msg, "-j: expected an integer in [1, 1024], not \"%s\"", optarg);
				return cli_usage_error(cmd, "%s", msg);
			}
			c->o.jobs = (int)l;
			c->jobs_given = 1;
			break;
		case 'o': c->o.keep_dir = optarg; break;
		case 't':
			if (report_parse_double(optarg, 0, &c->o.timeout) || c->o.timeout <= 0) {
				snprintf(msg, sizeof msg, "--timeout: expected a positive number of seconds, not \"%s\"", optarg);
				return cli_usage_error(cmd, "%s", msg);
			}
			c->timeout_arg = optarg;
			break;
		case 'f': c->o.fresh = 1; break;
		case 'q': c->quiet = 1; c->o.progress = SWEEP_PROGRESS_NONE; break;
		case 'k': case 's': case 'p': case 'm': case 'n':
			if (cli_cluster_opt(cmd, opt, optarg, &c->o, &c->co))
				return 2;
			break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error(cmd, "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error(cmd, "%s", msg);
		}
	}
	if (cli_cluster_check(cmd, &c->o, &c->co, c->jobs_given))
		return 2;
	if (cli_check_folder(cmd, "--out", c->o.keep_dir))
		return 2;
	if (argc - optind < 1)
		return cli_usage_error(cmd, "expected at least one SCENARIO.json");
	return cli_unique_stems(cmd, argv + optind, argc - optind, c->o.keep_dir);
}

/* Write DIR/STEM.json for every job whose simulations all have a result and
 * print a line per scenario (unless @quiet).  Returns: 0, or 1 when one is
 * incomplete or cannot be written. */
static int write_merged(const struct scenario *sc, const struct sweep_job *jobs, int n, const char *dir,
			int quiet, const char *retry)
{
	int rc = 0;
	struct mm_err e = { "" };
	for (int i = 0; i < n; i++) {
		char stem[256], path[1400];
		snprintf(path, sizeof path, "%s/%s.json", dir, sweep_stem(sc[i].file, stem, sizeof stem));
		json_t *res = jobs[i].nfailed ? NULL : sweep_merge(&jobs[i]);
		if (!res) {
			rc = 1;
			int have = jobs[i].nran + jobs[i].nreused;
			if (!quiet && jobs[i].nstale)
				printf("%s: %d simulations: %d ran, %d reused, %d failed, %d missing (%d kept by another "
				       "mmemu build or scenario version); no merged results (%s)\n", sc[i].file,
				       sc[i].nsims, jobs[i].nran, jobs[i].nreused, jobs[i].nfailed,
				       sc[i].nsims - have - jobs[i].nfailed, jobs[i].nstale, retry);
			else if (!quiet)
				printf("%s: %d simulations: %d ran, %d reused, %d failed, %d missing; no merged results "
				       "(%s)\n", sc[i].file, sc[i].nsims, jobs[i].nran, jobs[i].nreused, jobs[i].nfailed,
				       sc[i].nsims - have - jobs[i].nfailed, retry);
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
	return rc;
}

/* Submit @n scenarios (argv @files) as a Slurm array.  Returns: the exit status. */
static int submit(const struct sweep_cli *c, struct sweep_job *jobs, int n, char **files)
{
	char **targv = calloc((size_t)n + 8, sizeof *targv);
	char jobs_s[16], stem[256];
	char *then = NULL;
	size_t thenlen = 0;
	FILE *tf = open_memstream(&then, &thenlen);
	if (!targv || !tf) {
		free(targv);
		if (tf)
			fclose(tf);
		free(then);
		fprintf(stderr, "mmemu: out of memory\n");
		return 1;
	}
	int t = 0;
	snprintf(jobs_s, sizeof jobs_s, "%d", c->co.cpus);
	targv[t++] = "sweep";
	targv[t++] = "-j";
	targv[t++] = jobs_s;
	targv[t++] = "--out";
	targv[t++] = (char *)c->o.keep_dir;
	if (c->timeout_arg) {
		targv[t++] = "--timeout";
		targv[t++] = (char *)c->timeout_arg;
	}
	if (c->o.fresh)
		targv[t++] = "--fresh";
	fprintf(tf, "mmemu collect --out %s", c->o.keep_dir);
	for (int i = 0; i < n; i++) {
		targv[t++] = files[i];
		fprintf(tf, " %s", files[i]);
	}
	fclose(tf);
	int rc = cluster_submit(jobs, n, &c->o, &c->co, c->o.keep_dir, sweep_stem(files[0], stem, sizeof stem),
				targv, t, then);
	free(then);
	free(targv);
	return rc;
}

/* sweep (@collect 0) or collect (1).  Returns: the exit status. */
static int sweep_main(int collect, int argc, char **argv)
{
	const char *cmd = collect ? "collect" : "sweep";
	struct sweep_cli c = { .o = { .jobs = report_default_jobs(), .keep_dir = "results/runs",
				      .progress = SWEEP_PROGRESS_AUTO },
			       .co = { .max_tasks = CLUSTER_MAX_TASKS } };
	int rc = parse_opts(cmd, argc, argv, &c);
	if (rc)
		return rc;
	int n = argc - optind;
	char **files = argv + optind;
	struct scenario *sc = calloc((size_t)n, sizeof *sc);
	struct sweep_job *jobs = calloc((size_t)n, sizeof *jobs);
	struct mm_err e = { "" };
	int loaded = 0;
	for (; loaded < n; loaded++) {
		if (scenario_load(&sc[loaded], files[loaded], &e) || sweep_job_init(&jobs[loaded], &sc[loaded], &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 2;
			break;
		}
	}
	double t0 = now_seconds();
	if (rc == 0 && c.co.slurm) {
		rc = submit(&c, jobs, n, files);
	} else if (rc == 0 && collect) {
		if (sweep_reuse(jobs, n, &c.o, 0, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		rc |= write_merged(sc, jobs, n, c.o.keep_dir, c.quiet, "rerun the sweep or its missing shards");
	} else if (rc == 0) {
		if (sweep_run(jobs, n, &c.o, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = 1;
		}
		if (c.o.shard_n) {
			for (int i = 0; i < n; i++) {
				rc |= jobs[i].nfailed > 0;
				if (!c.quiet)
					printf("%s: shard %d/%d: %d simulations: %d ran, %d reused, %d failed\n", sc[i].file,
					       c.o.shard_k, c.o.shard_n, jobs[i].nran + jobs[i].nreused + jobs[i].nfailed,
					       jobs[i].nran, jobs[i].nreused, jobs[i].nfailed);
			}
		} else {
			rc |= write_merged(sc, jobs, n, c.o.keep_dir, c.quiet, "rerun to retry the failed ones");
		}
		if (!c.quiet)
			printf("sweep: %.2f s wall, %d jobs\n", now_seconds() - t0, c.o.jobs);
	}
	for (int i = 0; i < loaded; i++) {
		sweep_job_free(&jobs[i]);
		scenario_free(&sc[i]);
	}
	free(jobs);
	free(sc);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(sweep_usage, stdout);
		return 0;
	}
	return sweep_main(0, argc, argv);
}

static const char collect_usage[] =
	"usage: mmemu collect [--out DIR] [-q] SCENARIO.json...\n"
	"Merge the simulations a sweep kept in DIR/NAME.d/ (by `mmemu sweep --shard`,\n"
	"the tasks of `mmemu sweep --slurm`, or a local sweep) into DIR/NAME.json, the\n"
	"file `mmemu sweep` writes (byte-identical apart from \"host\").  Only results of\n"
	"this scenario, its input files and this mmemu executable count; nothing runs.\n"
	"  -o, --out DIR   the sweep's directory (default results/runs)\n"
	"  -q, --quiet     no summary\n"
	"Exit: 0 every scenario merged, 1 a simulation is missing (rerun the sweep or\n"
	"its shards: only the missing simulations run), 2 bad input or usage.\n";

int cmd_collect(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(collect_usage, stdout);
		return 0;
	}
	return sweep_main(1, argc, argv);
}
