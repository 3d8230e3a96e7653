/*
 * cmd_reproduce.c - `mmemu reproduce`: run the seed scenarios, then print the
 * published tables beside the emulated ones with a verdict for every claim.
 *
 * Design: this file only finds the seeds and obtains their emulated runs; the
 * judging and the printing live in emu/analysis (published.c reads
 * results/published/NNN.json, claims*.c hold one evaluator per claim kind,
 * noise.c the run-to-run noise, verdict.c the report model, verdict_print.c the
 * text and markdown).  Seeds whose scenario exists are run through one sweep
 * pool (or, with --no-run, read from results/runs/STEM.json); the others are
 * listed as "not yet modelled".  A seed whose "scenario" is an array of parts
 * runs every part, and with --seeds K every part with K base seeds (the
 * scenario's and the next K-1, scenario_reseed()); all these runs are merged
 * into the first entry before judging, where the claims see the base seeds.  The
 * terminal text, results/reproduce.md and results/reproduce.json are printed
 * from one JSON model per seed (the last two written atomically).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "emu/cli/cli.h"
#include "emu/cli/reproduce.h"
#include "emu/analysis/published.h"
#include "emu/analysis/report.h"
#include "emu/analysis/verdict.h"
#include "emu/engine/cluster.h"
#include "emu/engine/results.h"
#include "emu/engine/scenario.h"
#include "emu/engine/sweep.h"
#include "emu/core/version.h"

static const char reproduce_usage[] =
	"usage: mmemu reproduce [SEED|all] [-j N] [--seeds K] [--no-run] [--published DIR]\n"
	"                       [--runs DIR] [--out DIR] [--fresh] [--sensitivity]\n"
	"                       [--sensitivity-only PATH] [-v] [-q]\n"
	"                       [--shard K/N | --slurm [--partition P] [--max-tasks M] [--dry-run]]\n"
	"Run the seed scenarios and print, per seed, one line per published claim: its\n"
	"verdict (reproduced, not reproduced, inconclusive, not checked), its basis\n"
	"(mechanism, by construction, calibrated), the emulated value with its 95%\n"
	"interval, the published value and its robustness (from the last sensitivity\n"
	"run kept in the runs directory); then, for several seeds, one table across\n"
	"them.  The published and emulated tables and the noise are in --verbose and in\n"
	"reproduce.md.  Seeds without a scenario are listed as not yet modelled.\n"
	"  SEED             a seed number (\"000\" or \"0\"); default all\n"
	"  -j, --jobs N     parallel simulations (default: the number of CPUs)\n"
	"      --seeds K    run every seed scenario with K base seeds (its own and the\n"
	"                   next K-1; results/runs/STEM.seedN.json) and pool the runs; a\n"
	"                   verdict that flips between base seeds is inconclusive (default 1)\n"
	"      --no-run     use the existing results in the runs directory (with\n"
	"                   --sensitivity: judge the kept reruns again, e.g. after a\n"
	"                   claim changed, without simulating)\n"
	"      --published DIR  published tables (default results/published)\n"
	"      --runs DIR   where results files are written/read (default results/runs);\n"
	"                   each simulation is also kept in DIR/STEM.d/ and a rerun by the\n"
	"                   same mmemu executable reuses it (mmemu sweep's kept results)\n"
	"      --fresh      rerun every simulation, even those kept\n"
	"      --out DIR    where reproduce.json and reproduce.md go (default results)\n"
	"      --sensitivity  also rerun each seed with each judgement constant its\n"
	"                   scenarios declare at each end of its range, one at a time,\n"
	"                   and record which verdicts flip (DIR/sensitivity.json)\n"
	"      --sensitivity-only PATH  the same for the judgement constant PATH only,\n"
	"                   keeping the other constants' earlier reruns\n"
	"  -v, --verbose    the tables, each claim's detail and noise on stdout too\n"
	"  -q, --quiet      nothing on stdout (files are still written)\n"
	"      --shard K/N  run only slice K (1..N) of the simulations, keeping them in\n"
	"                   the runs directory; no tables (a later plain run judges)\n"
	"      --slurm      submit a Slurm job array, one task per shard that still\n"
	"                   misses a simulation (--partition P, --max-tasks M, --dry-run\n"
	"                   and -j as for `mmemu sweep --slurm`; docs/cluster.md)\n"
	"Exit: 0 (whatever the verdicts), 1 a simulation failed, 2 bad input or usage.\n";

/*
 * The published seeds that @o->want names, one struct seed per scenario part, in
 * file name order, into *@out (calloc'ed; *@n of them).
 * Returns: 0, or -1 after a message on stderr (exit 2).
 */
static int find_seeds(const struct opts *o, struct seed **out, int *n)
{
	char **names;
	int nn = published_list(o->pubdir, &names);
	*out = NULL;
	*n = 0;
	if (nn < 0) {
		char msg[1300];
		snprintf(msg, sizeof msg, "cannot open the published directory %s", o->pubdir);
		cli_usage_error("reproduce", "%s", msg);
		return -1;
	}
	struct seed *seeds = calloc((size_t)(nn ? nn : 1) * PUBLISHED_MAX_PARTS * (size_t)o->nseeds, sizeof *seeds);
	int ns = 0, rc = 0;
	struct mm_err e = { "" };
	char have[400] = "";
	for (int i = 0; i < nn; i++) {
		struct seed *s = &seeds[ns];
		snprintf(s->path, sizeof s->path, "%s/%s", o->pubdir, names[i]);
		if (!(s->pub = published_load(s->path, &e))) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			rc = -1;
			break;
		}
		s->id = json_string_value(json_object_get(s->pub, "seed"));
		size_t hl = strlen(have);
		snprintf(have + hl, sizeof have - hl, "%s%s", hl ? ", " : "", s->id);
		if (strcmp(o->want, "all") && !published_seed_matches(o->want, s->id)) {
			json_decref(s->pub);
			s->pub = NULL;
			continue;
		}
		/* a seed whose full run does not fit `all` (published "in_all": false)
		 * runs only when it is asked for by number */
		json_t *ia = json_object_get(s->pub, "in_all");
		if (!strcmp(o->want, "all") && ia && !json_is_true(ia)) {
			printf("seed %s: left out of `reproduce all` (%s): run `mmemu reproduce %s`\n",
			       s->id, json_string_value(json_object_get(s->pub, "in_all_reason")), s->id);
			json_decref(s->pub);
			s->pub = NULL;
			continue;
		}
		const char *parts[PUBLISHED_MAX_PARTS];
		int np = published_scenarios(s->pub, parts) * o->nseeds;
		for (int k = 0; k < np; k++) {
			struct seed *q = &seeds[ns + k];
			if (k) {
				*q = *s;
				json_incref(q->pub);
			}
			q->scenario = parts[k / o->nseeds];
			q->rep = k % o->nseeds;
			q->part = k;
			q->nparts = np;
		}
		ns += np;
	}
	published_list_free(names, nn);
	if (rc == 0 && ns == 0) {
		fprintf(stderr, "mmemu reproduce: no published seed \"%s\" in %s (have: %s)\n", o->want, o->pubdir,
			*have ? have : "none");
		rc = -1;
	}
	*out = seeds;
	*n = ns;
	return rc;
}

/* Load the scenarios that exist; the others are "not yet modelled".  Returns: 0, or 2. */
static int load_scenarios(const struct opts *o, struct seed *seeds, int ns)
{
	struct mm_err e = { "" };
	for (int i = 0; i < ns; i++) {
		struct seed *s = &seeds[i];
		struct stat st;
		if (stat(s->scenario, &st)) {
			snprintf(s->status, sizeof s->status, "not yet modelled");
			continue;
		}
		if (scenario_load(&s->sc, s->scenario, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			return 2;
		}
		s->loaded = 1;
		char stem[256];
		sweep_stem(s->scenario, stem, sizeof stem);
		if (s->rep && scenario_reseed(&s->sc, s->sc.seed + s->rep)) {
			fprintf(stderr, "mmemu: %s: cannot use base seed %lld\n", s->scenario,
				(long long)(s->sc.seed + s->rep));
			return 2;
		}
		if (s->rep)
			snprintf(s->results_path, sizeof s->results_path, "%s/%s.seed%lld.json", o->runsdir, stem,
				 (long long)s->sc.seed);
		else
			snprintf(s->results_path, sizeof s->results_path, "%s/%s.json", o->runsdir, stem);
	}
	return 0;
}

/* What one invocation ran, for its cost line. */
struct tally {
	int sims, ran, reused, failed;
};

/* The sweep jobs of the loaded scenarios into @sj (their seeds' indices into
 * @which), kept simulations beside the results file: STEM.d, STEM.seedN.d.
 * Returns: how many. */
static int make_jobs(struct seed *seeds, int ns, struct sweep_job *sj, int *which)
{
	struct mm_err e = { "" };
	int nj = 0;
	for (int i = 0; i < ns; i++)
		if (seeds[i].loaded && sweep_job_init(&sj[nj], &seeds[i].sc, &e) == 0) {
			size_t l = strlen(seeds[i].results_path);
			snprintf(sj[nj].dir, sizeof sj[nj].dir, "%.*s.d", (int)(l > 5 ? l - 5 : l),
				 seeds[i].results_path);
			which[nj++] = i;
		}
	return nj;
}

/* Returns: the sweep options of @o and its shard @sw. */
static struct sweep_opts sweep_opts_of(const struct opts *o, const struct sweep_opts *sw)
{
	struct sweep_opts so = { .jobs = o->jobs, .keep_dir = o->runsdir, .fresh = o->fresh,
				 .progress = o->quiet ? SWEEP_PROGRESS_NONE : SWEEP_PROGRESS_AUTO,
				 .shard_k = sw->shard_k, .shard_n = sw->shard_n };
	return so;
}

/* --slurm: submit the seeds' simulations as an array.  Returns: the exit status. */
static int submit_seeds(const struct opts *o, const struct sweep_opts *sw, const struct cluster_opts *co,
			struct seed *seeds, int ns)
{
	struct sweep_job *sj = calloc((size_t)ns, sizeof *sj);
	int *which = calloc((size_t)ns, sizeof *which);
	int nj = make_jobs(seeds, ns, sj, which);
	struct sweep_opts so = sweep_opts_of(o, sw);
	char jobs_s[16], nseeds_s[16], name[64], then[3000];
	snprintf(jobs_s, sizeof jobs_s, "%d", co->cpus);
	snprintf(nseeds_s, sizeof nseeds_s, "%d", o->nseeds);
	snprintf(name, sizeof name, "reproduce-%s", o->want);
	char *targv[] = { "reproduce", (char *)o->want, "-q", "-j", jobs_s, "--seeds", nseeds_s,
			  "--published", (char *)o->pubdir, "--runs", (char *)o->runsdir, "--fresh" };
	snprintf(then, sizeof then, "mmemu reproduce %s --seeds %d --published %s --runs %s --out %s", o->want,
		 o->nseeds, o->pubdir, o->runsdir, o->outdir);
	int rc = cluster_submit(sj, nj, &so, co, o->runsdir, name, targv,
				(int)(sizeof targv / sizeof targv[0]) - !o->fresh, then);
	for (int k = 0; k < nj; k++)
		sweep_job_free(&sj[k]);
	free(sj);
	free(which);
	return rc;
}

/* Run the loaded scenarios in one sweep pool and save their results (with a
 * shard in @sw: only keep the shard's simulations), counting them into @t.
 * Returns: 0, or 1 when a run failed. */
static int run_seeds(const struct opts *o, const struct sweep_opts *sw, struct seed *seeds, int ns,
		     struct tally *t)
{
	struct mm_err e = { "" };
	int rc = 0;
	struct sweep_job *sj = calloc((size_t)ns, sizeof *sj);
	int *which = calloc((size_t)ns, sizeof *which);
	int nj = make_jobs(seeds, ns, sj, which);
	struct sweep_opts so = sweep_opts_of(o, sw);
	if (nj && sweep_run(sj, nj, &so, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	for (int k = 0; k < nj; k++) {
		t->sims += sj[k].sc->nsims;
		t->ran += sj[k].nran;
		t->reused += sj[k].nreused;
		t->failed += sj[k].nfailed;
	}
	for (int k = 0; sw->shard_n && k < nj; k++) {
		rc |= sj[k].nfailed > 0;
		printf("%s: shard %d/%d: %d simulations: %d ran, %d reused, %d failed\n", seeds[which[k]].scenario,
		       sw->shard_k, sw->shard_n, sj[k].nran + sj[k].nreused + sj[k].nfailed, sj[k].nran,
		       sj[k].nreused, sj[k].nfailed);
		sweep_job_free(&sj[k]);
	}
	if (sw->shard_n)
		nj = 0;
	for (int k = 0; k < nj; k++) {
		struct seed *s = &seeds[which[k]];
		json_t *res = sj[k].nfailed ? NULL : sweep_merge(&sj[k]);
		if (!res) {
			snprintf(s->status, sizeof s->status,
				 "run failed (%d of %d simulations); partial results, not saved", sj[k].nfailed,
				 s->sc.nsims);
			s->res = sweep_merge_partial(&sj[k]);
			rc = 1;
		} else if (results_write(res, s->results_path, &e)) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			snprintf(s->status, sizeof s->status, "results not written");
			json_decref(res);
			rc = 1;
		} else {
			if (sj[k].nreused)
				snprintf(s->status, sizeof s->status, "ran %d simulations, reused %d kept",
					 sj[k].nran, sj[k].nreused);
			else
				snprintf(s->status, sizeof s->status, "ran %d simulations", s->sc.nsims);
			s->res = res;
		}
		sweep_job_free(&sj[k]);
	}
	free(sj);
	free(which);
	return rc;
}

/* --no-run: read the existing results of the loaded scenarios.  Returns: 0, or 2. */
static int read_seeds(struct seed *seeds, int ns)
{
	struct mm_err e = { "" };
	for (int i = 0; i < ns; i++) {
		struct seed *s = &seeds[i];
		if (!s->loaded)
			continue;
		struct stat st;
		if (stat(s->results_path, &st)) {
			snprintf(s->status, sizeof s->status, "no results (run without --no-run)");
			continue;
		}
		s->res = report_load_results(s->results_path, &e);
		if (!s->res) {
			fprintf(stderr, "mmemu: %s\n", e.msg);
			return 2;
		}
		snprintf(s->status, sizeof s->status, "existing results");
		const char *h = json_string_value(json_object_get(json_object_get(s->res, "scenario"), "hash"));
		if (!h || strcmp(h, s->sc.hash))
			snprintf(s->note, sizeof s->note, "%s was written by a different version of %s (hash %s, now %s)",
				 s->results_path, s->scenario, h ? h : "?", s->sc.hash);
	}
	return 0;
}

/* A seed of several scenarios: part 0 gets every part's runs, statuses and notes. */
static void merge_parts(struct seed *seeds, int ns)
{
	for (int i = 0; i < ns; i++) {
		json_t *runs = json_object_get(seeds[i].res, "runs");
		seeds[i].own = json_is_array(runs) ? json_copy(runs) : NULL;
		seeds[i].wall = json_number_value(json_object_get(json_object_get(seeds[i].res, "host"), "wall_seconds"));
	}
	for (int i = 0; i < ns; i++) {
		struct seed *s = &seeds[i];
		if (s->part != 0 || s->nparts < 2)
			continue;
		for (int k = 1; k < s->nparts; k++) {
			struct seed *q = &seeds[i + k];
			q->merged = 1;
			s->wall += q->wall;
			size_t sl = strlen(s->status);
			char seedtxt[48] = "";
			if (q->rep && q->loaded)
				snprintf(seedtxt, sizeof seedtxt, " (base seed %lld)", (long long)q->sc.seed);
			snprintf(s->status + sl, sizeof s->status - sl, "; %s%s: %s", q->scenario, seedtxt,
				 *q->status ? q->status : "?");
			if (*q->note) {
				size_t nl = strlen(s->note);
				snprintf(s->note + nl, sizeof s->note - nl, "%s%s", nl ? "; " : "", q->note);
			}
			if (s->res && q->res) {
				json_t *r = json_object_get(q->res, "runs");
				json_array_extend(json_object_get(s->res, "runs"), r);
			} else if (q->res && !s->res) {
				s->res = json_incref(q->res);
			}
		}
	}
}

/* Append @text to the array @srcs unless it is already there. */
static void add_src(json_t *srcs, const char *text)
{
	json_t *v = json_string(text);
	report_add_unique(srcs, v);
	json_decref(v);
}

/* Add "@what +-@v (per run)" for a machine.variation amount @v (a string such as
 * "0.5%" or a number), when there is one. */
static void add_amount(json_t *srcs, const char *what, json_t *v)
{
	char b[200];
	if (json_is_string(v))
		snprintf(b, sizeof b, "%s +-%s (per run)", what, json_string_value(v));
	else if (json_is_number(v) && json_number_value(v) != 0)
		snprintf(b, sizeof b, "%s +-%g (per run)", what, json_number_value(v));
	else
		return;
	add_src(srcs, b);
}

/*
 * The run-to-run noise sources the scenario of @s models, added to @srcs: the
 * disk's starting angle and the workload's random streams always (both drawn
 * from the base seed and the run index), and what its machine.variation declares.
 */
static void model_noise(const struct seed *s, json_t *srcs)
{
	json_t *var = json_object_get(json_object_get(s->sc.root, "machine"), "variation");
	add_src(srcs, "disk starting angle (per run)");
	add_src(srcs, "workload random streams (per run)");
	add_amount(srcs, "CPU clock", json_object_get(var, "clock"));
	add_amount(srcs, "disk media rate and seek", json_object_get(var, "disk"));
	if (json_is_true(json_object_get(var, "sched")))
		add_src(srcs, "scheduler tick phase (per run)");
}

/* Returns: the wall clock in seconds (the cross-seed table's wall time). */
static double now_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Judge every seed, rerun it for --sensitivity, mark every verdict robust or
 * fragile, print the text (unless quiet) and the cross-seed table, write
 * reproduce.json and reproduce.md.  @t0: when the command started.
 * Returns: 0, 1 when a file could not be written or a rerun failed, 2 on bad input. */
static int report(const struct opts *o, struct seed *seeds, int ns, double t0)
{
	double elapsed = now_wall() - t0;
	struct mm_err e = { "" };
	int rc = 0;
	json_t *doc = json_pack("{s:s,s:{s:s,s:s},s:[]}", "format", "mmemu-reproduce/1", "tool", "name", "mmemu",
				"version", MMEMU_VERSION, "seeds");
	char *md = NULL;
	size_t mdlen = 0;
	FILE *mf = open_memstream(&md, &mdlen);
	verdict_print_header(mf);
	json_t *objs = json_object_get(doc, "seeds");
	for (int i = 0; i < ns; i++) {
		struct seed *s = &seeds[i];
		if (s->merged)
			continue;
		json_t *srcs = json_array();
		for (int k = 0; k < s->nparts; k++)
			if (s[k].loaded)
				model_noise(&s[k], srcs);
		struct verdict_seed_in in = { s->pub, s->id, s->status, s->note, s->res, s->results_path,
					      strncmp(s->status, "run failed", 10) == 0, srcs };
		json_t *v = verdict_seed(&in);
		json_decref(srcs);
		json_object_set_new(v, "host_seconds", json_real(s->wall));
		json_array_append_new(objs, v);
	}
	if (o->sensitivity) {
		int src = sens_run(o, seeds, ns, objs);
		if (src == 2) {   /* bad input: no partial output */
			fclose(mf);
			free(md);
			json_decref(doc);
			return 2;
		}
		if (src)
			rc = src;
	}
	sens_mark(o, objs);
	size_t oi = 0;
	for (int i = 0; i < ns; i++) {
		struct seed *s = &seeds[i];
		if (s->merged)
			continue;
		json_t *v = json_array_get(objs, oi++);
		if (!o->quiet)
			verdict_print(s->pub, v, stdout, 0, o->verbose);
		verdict_print(s->pub, v, mf, 1, 1);
	}
	json_object_set_new(doc, "totals", verdict_totals(objs, elapsed));
	if (!o->quiet && json_array_size(objs) > 1)
		verdict_print_totals(json_object_get(doc, "totals"), stdout, 0);
	if (json_array_size(objs) > 1)
		verdict_print_totals(json_object_get(doc, "totals"), mf, 1);
	fclose(mf);
	char path[1200];
	snprintf(path, sizeof path, "%s/reproduce.json", o->outdir);
	if (results_write(doc, path, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	snprintf(path, sizeof path, "%s/reproduce.md", o->outdir);
	if (out_write_text(path, md ? md : "", &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	if (!o->quiet)
		printf("wrote %s/reproduce.json and %s/reproduce.md\n", o->outdir, o->outdir);
	free(md);
	json_decref(doc);
	return rc;
}

/* The cost line: simulations, CPU seconds of this process and its reaped
 * children (the simulations), wall seconds. */
static void print_cost(const struct tally *t, int jobs, double wall)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	double cpu = (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
			      kids.ru_stime.tv_sec) +
		     (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
			      kids.ru_stime.tv_usec) * 1e-6;
	printf("reproduce: %d simulations (%d ran, %d reused, %d failed): %.0f s of CPU, %.0f s wall, -j %d\n",
	       t->sims, t->ran, t->reused, t->failed, cpu, wall, jobs);
}

int cmd_reproduce(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "jobs", required_argument, NULL, 'j' },     { "no-run", no_argument, NULL, 'N' },
		{ "published", required_argument, NULL, 'P' }, { "runs", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },      { "quiet", no_argument, NULL, 'q' },
		{ "seeds", required_argument, NULL, 's' },    { "fresh", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },        { "sensitivity", no_argument, NULL, 'S' },
		{ "sensitivity-only", required_argument, NULL, 'O' },
		{ "shard", required_argument, NULL, 'k' },    { "slurm", no_argument, NULL, 'L' },
		{ "partition", required_argument, NULL, 'p' }, { "max-tasks", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, 'D' },        { NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(reproduce_usage, stdout);
		return 0;
	}
	struct opts o = { "results/published", "results/runs", "results", "all", report_default_jobs(), 0, 0, 1, 0, 0, 0, NULL };
	struct sweep_opts sw = { 0 };
	struct cluster_opts co = { .max_tasks = CLUSTER_MAX_TASKS };
	int jobs_given = 0;
	int opt;
	long l;
	char msg[1300];
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:qv", lopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l)) {
				snprintf(msg, sizeof msg, "-j: expected an integer in [1, 1024], not \"%s\"", optarg);
				return cli_usage_error("reproduce", "%s", msg);
			}
			o.jobs = (int)l;
			jobs_given = 1;
			break;
		case 'k': case 'L': case 'p': case 'm': case 'D':
			if (cli_cluster_opt("reproduce", opt == 'L' ? 's' : opt == 'D' ? 'n' : opt, optarg, &sw, &co))
				return 2;
			break;
		case 's':
			if (report_parse_long(optarg, 1, 20, &l)) {
				snprintf(msg, sizeof msg, "--seeds: expected an integer in [1, 20], not \"%s\"", optarg);
				return cli_usage_error("reproduce", "%s", msg);
			}
			o.nseeds = (int)l;
			break;
		case 'N': o.norun = 1; break;
		case 'f': o.fresh = 1; break;
		case 'P': o.pubdir = optarg; break;
		case 'r': o.runsdir = optarg; break;
		case 'o': o.outdir = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'v': o.verbose = 1; break;
		case 'S': o.sensitivity = 1; break;
		case 'O': o.sensitivity = 1; o.sens_only = optarg; break;
		case ':':
			snprintf(msg, sizeof msg, "option %s needs a value", argv[optind - 1]);
			return cli_usage_error("reproduce", "%s", msg);
		default:
			snprintf(msg, sizeof msg, "unknown option %s", argv[optind - 1]);
			return cli_usage_error("reproduce", "%s", msg);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("reproduce", "expected at most one SEED");
	/* The seed, results and report names built from these folders live in
	 * fixed buffers (reproduce.h): refuse a folder that could not fit. */
	const char *dirs[3][2] = { { "--published", o.pubdir }, { "--runs", o.runsdir }, { "--out", o.outdir } };
	for (int i = 0; i < 3; i++)
		if (dirs[i][1] && strlen(dirs[i][1]) > REPRODUCE_DIR_MAX)
			return cli_usage_error("reproduce", "%s: expected a folder name of at most %d characters, not %zu",
					       dirs[i][0], REPRODUCE_DIR_MAX, strlen(dirs[i][1]));
	if (cli_check_folder("reproduce", "--runs", o.runsdir) || cli_check_folder("reproduce", "--out", o.outdir))
		return 2;
	sw.jobs = o.jobs;
	if (cli_cluster_check("reproduce", &sw, &co, jobs_given))
		return 2;
	if (o.norun && (co.slurm || sw.shard_n))
		return cli_usage_error("reproduce", "--no-run excludes --shard and --slurm");
	if (o.sensitivity && (co.slurm || sw.shard_n))
		return cli_usage_error("reproduce", "--sensitivity excludes --shard and --slurm");
	if (argc - optind == 1)
		o.want = argv[optind];

	if (o.sensitivity && o.nseeds > 1)
		return cli_usage_error("reproduce", "--sensitivity runs one base seed: drop --seeds");
	double t0 = now_wall();
	struct seed *seeds;
	struct tally tally = { 0 };
	int ns, rc = find_seeds(&o, &seeds, &ns) ? 2 : 0;
	if (rc == 0)
		rc = load_scenarios(&o, seeds, ns);
	int judge = !co.slurm && !sw.shard_n;
	if (rc == 0 && co.slurm)
		rc = submit_seeds(&o, &sw, &co, seeds, ns);
	else if (rc == 0)
		rc = o.norun ? read_seeds(seeds, ns) : run_seeds(&o, &sw, seeds, ns, &tally);
	if (rc != 2 && judge) {
		merge_parts(seeds, ns);
		int r2 = report(&o, seeds, ns, t0);
		if (r2)
			rc = r2;
	}
	if (rc != 2 && !o.quiet && !co.slurm && !o.norun)
		print_cost(&tally, o.jobs, now_wall() - t0);
	for (int i = 0; i < ns; i++) {
		json_decref(seeds[i].pub);
		json_decref(seeds[i].res);
		json_decref(seeds[i].own);
		if (seeds[i].loaded)
			scenario_free(&seeds[i].sc);
	}
	free(seeds);
	return rc;
}
