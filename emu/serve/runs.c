/*
 * runs.c - POST /api/runs, GET and DELETE /api/runs/ID, the plot and the compare
 * table of a finished run.
 *
 * Design: a run is one loaded scenario (a shipped one with --set-style
 * overrides, or a client's whole scenario JSON; an optional one-parameter sweep
 * becomes the override "sweep": {KEY: VALUES}) in one sweep_job, started with
 * sweep_start() on the server's event loop: the workers are the sweep pool's
 * forked children and the loop keeps answering.  The server admits a run only
 * while the simulations of unfinished runs stay within max_sims, and gives each
 * run a timer: at run_limit seconds the pool is freed (workers killed and
 * reaped) and the run is marked failed.  A finished run's results document (the
 * one `mmemu run` writes, sweep_merge()) is kept in memory and in the server's
 * temporary directory as ID.json, where the plot and the compare table are made
 * by `mmemu plot` and `mmemu compare` themselves: cmd_plot() and cmd_compare()
 * called in a forked child with stdout to a file (their getopt state and exit
 * paths stay out of the server).  At most RUNS_KEPT runs are remembered; the
 * oldest finished one is forgotten first.
 */
#include "emu/serve/serve_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "emu/cli/cli.h"
#include "emu/core/readfile.h"
#include "emu/engine/results.h"
#include "emu/engine/runner.h"
#include "emu/engine/scenario.h"
#include "emu/engine/sweep.h"

#define RUNS_KEPT 200
#define SWEEP_MAX_VALUES 64

enum run_state { RUN_RUNNING, RUN_DONE, RUN_FAILED, RUN_CANCELLED };
static const char *const state_name[] = { "running", "done", "failed", "cancelled" };

struct run {
	struct run *next;
	struct serve *s;
	int id;
	enum run_state state;
	char error[MM_ERR_MAX];
	struct scenario sc;
	struct sweep_job job;
	struct sweep_opts opts;
	struct sweep_pool *pool;
	struct event *limit;
	char *xkey;            /* the swept parameter (plot's --x), or NULL */
	json_t *results;       /* when done */
	double t0, wall;
};

static void run_path(const struct run *u, const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d%s", u->s->dir, u->id, ext);
}

static struct run *run_find(struct serve *s, int id)
{
	for (struct run *u = s->runs; u; u = u->next)
		if (u->id == id)
			return u;
	return NULL;
}

/* Stop @u if it is running (workers killed and reaped) with state @st and @why. */
static void run_stop(struct run *u, enum run_state st, const char *why)
{
	if (u->state != RUN_RUNNING)
		return;
	sweep_pool_free(u->pool, why);
	u->pool = NULL;
	if (u->limit)
		event_free(u->limit);
	u->limit = NULL;
	u->s->sims_active -= u->sc.nsims;
	u->state = st;
	u->wall = now_seconds() - u->t0;
	snprintf(u->error, sizeof u->error, "%s", why);
}

static void run_free(struct run *u)
{
	run_stop(u, RUN_CANCELLED, "server stopped");
	char prefix[32];
	snprintf(prefix, sizeof prefix, "%d.", u->id);
	DIR *d = opendir(u->s->dir);   /* ID.json, ID.svg, ID.compare.*, ID.err */
	for (struct dirent *de; d && (de = readdir(d));)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0) {
			char p[600];
			snprintf(p, sizeof p, "%s/%s", u->s->dir, de->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	json_decref(u->results);
	sweep_job_free(&u->job);
	scenario_free(&u->sc);
	free(u->xkey);
	free(u);
}

void runs_free_all(struct serve *s)
{
	while (s->runs) {
		struct run *u = s->runs;
		s->runs = u->next;
		run_free(u);
	}
}

/* The pool's last simulation ended (sweep_start's callback). */
static void run_done(struct sweep_pool *pool, void *arg)
{
	struct run *u = arg;
	struct mm_err e = { "" };
	if (u->job.nfailed == 0 && (u->results = sweep_merge(&u->job))) {
		char p[400];
		run_path(u, ".json", p, sizeof p);
		if (results_write(u->results, p, &e))
			fprintf(stderr, "mmemu serve: %s\n", e.msg);
	}
	const char *why = NULL;
	for (int k = 0; k < u->sc.nsims && !why; k++)
		why = u->job.sims[k].error;
	sweep_pool_free(u->pool, NULL);
	u->pool = NULL;
	if (u->limit)
		event_free(u->limit);
	u->limit = NULL;
	u->s->sims_active -= u->sc.nsims;
	u->wall = now_seconds() - u->t0;
	u->state = u->results ? RUN_DONE : RUN_FAILED;
	if (!u->results)
		snprintf(u->error, sizeof u->error, "%s", why ? why : "the results could not be merged");
	(void)pool;
}

static void run_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct run *u = arg;
	char why[200];
	snprintf(why, sizeof why, "time limit of %g s reached (run cancelled, workers killed)",
		 u->s->cfg.run_limit);
	run_stop(u, RUN_FAILED, why);
}

/* Forget the oldest finished runs beyond RUNS_KEPT. */
static void runs_trim(struct serve *s)
{
	int n = 0;
	for (struct run *u = s->runs; u; u = u->next)
		n++;
	while (n >= RUNS_KEPT) {
		struct run **pp = NULL;
		for (struct run **q = &s->runs; *q; q = &(*q)->next)
			if ((*q)->state != RUN_RUNNING)
				pp = q;   /* the last finished one is the oldest */
		if (!pp)
			return;
		struct run *u = *pp;
		*pp = u->next;
		run_free(u);
		n--;
	}
}

/* Returns: 1 if an override of @set names the "plugins" key or a path in it. */
static int set_names_plugins(json_t *set)
{
	const char *k;
	json_t *v;
	json_object_foreach(set, k, v)
		if (strncmp(k, "plugins", 7) == 0 && (k[7] == 0 || k[7] == '.' || k[7] == '['))
			return 1;
	return 0;
}

static const char *const run_keys[] = { "scenario", "scenario_json", "set", "sweep", NULL };

/* Check @req and build the overrides. Returns: a new set object, or NULL with @r set. */
static json_t *run_set(json_t *req, char **xkey, struct serve_reply *r)
{
	if (body_keys(req, run_keys, r))
		return NULL;
	json_t *sc = json_object_get(req, "scenario"), *sj = json_object_get(req, "scenario_json");
	if (!!sc == !!sj) {
		reply_error(r, 400, "request: expected exactly one of scenario (a shipped scenario's file) "
			    "and scenario_json (a whole scenario)");
		return NULL;
	}
	if (sc && (!json_is_string(sc) || !serve_scenario_known(json_string_value(sc)))) {
		reply_error(r, 400, "request: scenario: expected a shipped scenario as GET /api/list names it "
			    "(scenarios/teaching/NAME.json)");
		return NULL;
	}
	if (sj && !json_is_object(sj)) {
		reply_error(r, 400, "request: scenario_json: expected a scenario object");
		return NULL;
	}
	json_t *set = json_object_get(req, "set");
	/* A plugin is a shared object run with the server's rights, outside the read
	 * confinement: the lab never loads one (mmemu run --plugin does). */
	if ((sj && json_object_get(sj, "plugins")) || (json_is_object(set) && set_names_plugins(set))) {
		reply_error(r, 400, "request: %s: this server does not load plugins (shared objects run "
			    "with its rights); run them with mmemu run --plugin", sj && json_object_get(sj, "plugins")
			    ? "scenario_json.plugins" : "set.plugins");
		return NULL;
	}
	if (set && !json_is_object(set)) {
		reply_error(r, 400, "request: set: expected an object of parameter paths and values, "
			    "as --set gives them ({\"machine.memory\": \"128MiB\"})");
		return NULL;
	}
	json_t *out = set ? json_deep_copy(set) : json_object();
	json_t *sw = json_object_get(req, "sweep");
	if (sw) {
		json_t *k = json_object_get(sw, "key"), *vals = json_object_get(sw, "values");
		if (!json_is_object(sw) || json_object_size(sw) != 2 || !json_is_string(k) ||
		    !*json_string_value(k)) {
			reply_error(r, 400, "request: sweep: expected {\"key\": PARAMETER PATH, \"values\": [...]}");
			json_decref(out);
			return NULL;
		}
		if (!json_is_array(vals) || json_array_size(vals) == 0 ||
		    json_array_size(vals) > SWEEP_MAX_VALUES) {
			reply_error(r, 400, "request: sweep.values: expected an array of 1 to %d values",
				    SWEEP_MAX_VALUES);
			json_decref(out);
			return NULL;
		}
		json_object_set_new(out, "sweep", json_pack("{s:O}", json_string_value(k), vals));
		*xkey = strdup(json_string_value(k));
	}
	return out;
}

void runs_post(struct serve *s, json_t *req, struct serve_reply *r)
{
	char *xkey = NULL;
	json_t *set = run_set(req, &xkey, r);
	if (!set)
		return;
	struct run *u = calloc(1, sizeof *u);
	struct mm_err e = { "" };
	json_t *sj = json_object_get(req, "scenario_json");
	int rc;
	if (sj) {
		char *txt = json_dumps(sj, JSON_COMPACT);
		/* named "scenario": its relative input files are found from the repository */
		rc = txt ? scenario_parse_set(&u->sc, txt, strlen(txt), "scenario", set, &e)
			 : mm_errf(&e, "scenario", NULL, "out of memory");
		free(txt);
	} else {
		rc = scenario_load_set(&u->sc, json_string_value(json_object_get(req, "scenario")), set, &e);
	}
	json_decref(set);
	if (rc) {
		reply_error(r, 400, "%s", e.msg);
		free(xkey);
		free(u);
		return;
	}
	u->s = s;
	u->xkey = xkey;
	if (s->sims_active + u->sc.nsims > s->cfg.max_sims) {
		reply_error(r, 503, "request: the run has %d simulations and %d are queued or running; "
			    "this server takes at most %d at once (--max-sims): try later or with fewer",
			    u->sc.nsims, s->sims_active, s->cfg.max_sims);
		scenario_free(&u->sc);
		free(xkey);
		free(u);
		return;
	}
	runs_trim(s);
	u->id = s->next_id++;
	u->t0 = now_seconds();
	u->opts = (struct sweep_opts){ .jobs = s->cfg.jobs, .progress = SWEEP_PROGRESS_NONE };
	if (sweep_job_init(&u->job, &u->sc, &e) == 0)
		u->pool = sweep_start(&u->job, 1, &u->opts, s->base, run_done, u, &e);
	if (!u->pool) {
		reply_error(r, 500, "server: %s", e.msg);
		sweep_job_free(&u->job);
		scenario_free(&u->sc);
		free(xkey);
		free(u);
		return;
	}
	s->sims_active += u->sc.nsims;
	u->next = s->runs;
	s->runs = u;
	if (s->cfg.run_limit > 0) {
		struct timeval tv = { (time_t)s->cfg.run_limit,
				      (suseconds_t)((s->cfg.run_limit - (double)(time_t)s->cfg.run_limit) * 1e6) };
		u->limit = evtimer_new(s->base, run_timeout, u);
		evtimer_add(u->limit, &tv);
	}
	reply_json(r, 201, json_pack("{s:i, s:s, s:i}", "id", u->id, "state", "running", "total",
				     u->sc.nsims));
}

/* Run `mmemu plot` or `mmemu compare` (@argv, NULL-terminated) in a child with
 * stdout to @out and stderr to ID.err. Returns: 0, or the command's exit status
 * (-1: no status) with @err set to its one-line message. */
static int run_cli(struct run *u, char **argv, const char *out, char *err, size_t errlen)
{
	char ep[400];
	run_path(u, ".err", ep, sizeof ep);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "server: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int x = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || x < 0)
			_exit(1);
		dup2(o, 1);
		dup2(x, 2);
		int argc = 0;
		while (argv[argc])
			argc++;
		int rc = strcmp(argv[0], "plot") == 0 ? cmd_plot(argc, argv) : cmd_compare(argc, argv);
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char *buf = NULL;
	size_t len = 0;
	struct mm_err e = { "" };
	snprintf(err, errlen, "%s failed", argv[0]);
	mm_read_confine(NULL);   /* the server's own file, not a client's */
	if (mm_read_file(ep, "message", 4096, &buf, &len, &e) == 0 && len > 0) {
		while (len && buf[len - 1] == '\n')
			len--;
		snprintf(err, errlen, "%.*s", (int)len, buf);
	}
	mm_read_confine((const char *const *)u->s->roots);
	free(buf);
	return rc;
}

/* Reply with the file @path (made by run_cli()). */
static void reply_file(struct run *u, const char *path, const char *type, struct serve_reply *r)
{
	char *buf = NULL;
	size_t len = 0;
	struct mm_err e = { "" };
	mm_read_confine(NULL);
	int rc = mm_read_file(path, "file", (size_t)64 << 20, &buf, &len, &e);
	mm_read_confine((const char *const *)u->s->roots);
	if (rc) {
		reply_error(r, 500, "server: %s", e.msg);
		return;
	}
	reply_bytes(r, 200, type, buf, len);
	free(buf);
}

/* GET /api/runs/ID/plot.svg: the primary metric against the swept parameter. */
static void run_plot(struct run *u, struct serve_reply *r)
{
	const char *x = u->xkey;
	const char *k;
	json_t *v;
	if (!x)
		json_object_foreach(json_object_get(u->sc.root, "sweep"), k, v) {
			x = k;
			break;
		}
	if (!x) {
		reply_error(r, 409, "run %d: no sweep: nothing to plot against (give sweep)", u->id);
		return;
	}
	json_t *run0 = json_array_get(json_object_get(u->results, "runs"), 0);
	const char *metric = json_string_value(json_object_get(json_object_get(run0, "primary"), "name"));
	char res[400], svg[400], err[MM_ERR_MAX];
	run_path(u, ".json", res, sizeof res);
	run_path(u, ".svg", svg, sizeof svg);
	if (access(svg, R_OK) != 0) {
		char *argv[] = { "plot", res, "--x", (char *)x, "--y", (char *)(metric ? metric : "sim_time"),
				 "-o", svg, NULL };
		char out[400];
		run_path(u, ".plot.out", out, sizeof out);
		int rc = run_cli(u, argv, out, err, sizeof err);
		unlink(out);
		if (rc) {
			reply_error(r, 500, "%s", err);
			return;
		}
	}
	reply_file(u, svg, "image/svg+xml", r);
}

/* The value of query parameter @key ("format") in @query ("?a=1&format=json"),
 * copied into @buf. Returns: @buf, or NULL when absent. */
static const char *query_get(const char *query, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);
	for (const char *q = query; q && *q; q = strchr(q, '&')) {
		q += *q == '?' || *q == '&';
		if (strncmp(q, key, n) == 0 && q[n] == '=') {
			size_t v = strcspn(q + n + 1, "&#");
			snprintf(buf, len, "%.*s", (int)(v < len ? v : len - 1), q + n + 1);
			return buf;
		}
	}
	return NULL;
}

/* GET /api/runs/ID/compare[?format=text|markdown|csv|json][&metric=NAME][&monitors=0]:
 * `mmemu compare --format F [--metric NAME] [--no-monitor] RESULTS`. */
static void run_compare(struct run *u, const char *query, struct serve_reply *r)
{
	char fmt[16] = "text", metric[128] = "", mon[8] = "1";
	static const char *const fmts[] = { "text", "markdown", "csv", "json", NULL };
	int ok = 0;
	query_get(query, "format", fmt, sizeof fmt);
	for (const char *const *f = fmts; *f; f++)
		ok |= strcmp(fmt, *f) == 0;
	if (!ok) {
		reply_error(r, 400, "request: format: expected text, markdown, csv or json");
		return;
	}
	query_get(query, "metric", metric, sizeof metric);
	if (strspn(metric, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != strlen(metric)) {
		reply_error(r, 400, "request: metric: expected a metric name (letters, digits, _ and .)");
		return;
	}
	query_get(query, "monitors", mon, sizeof mon);
	if (strcmp(mon, "0") && strcmp(mon, "1")) {
		reply_error(r, 400, "request: monitors: expected 0 or 1");
		return;
	}
	char res[400], out[512], ext[180], err[MM_ERR_MAX];
	run_path(u, ".json", res, sizeof res);
	snprintf(ext, sizeof ext, ".compare.%s.%s.%s", fmt, *metric ? metric : "all", mon);
	run_path(u, ext, out, sizeof out);
	if (access(out, R_OK) != 0) {
		char *argv[8] = { "compare", "--format", fmt };
		int n = 3;
		if (*metric) {
			argv[n++] = "--metric";
			argv[n++] = metric;
		}
		if (!strcmp(mon, "0"))
			argv[n++] = "--no-monitor";
		argv[n++] = res;
		argv[n] = NULL;
		int st = run_cli(u, argv, out, err, sizeof err);
		if (st) {
			unlink(out);
			/* compare's usage errors (an unknown metric) are the client's */
			reply_error(r, st == 2 ? 400 : 500, "%s", err);
			return;
		}
	}
	reply_file(u, out, strcmp(fmt, "json") == 0 ? "application/json" : "text/plain; charset=utf-8", r);
}

void runs_get(struct serve *s, int id, const char *what, const char *query, struct serve_reply *r)
{
	struct run *u = run_find(s, id);
	if (!u) {
		reply_error(r, 404, "run %d: no such run", id);
		return;
	}
	if (*what) {
		if (u->state != RUN_DONE)
			reply_error(r, 409, "run %d: %s, not finished: no %s", id, state_name[u->state],
				    strcmp(what, "compare") ? "plot" : "compare table");
		else if (strcmp(what, "compare") == 0)
			run_compare(u, query, r);
		else
			run_plot(u, r);
		return;
	}
	int done = u->sc.nsims, total = u->sc.nsims;
	if (u->pool)
		sweep_progress(u->pool, &done, &total);
	double el = u->state == RUN_RUNNING ? now_seconds() - u->t0 : u->wall;
	json_t *o = json_pack("{s:i, s:s, s:s, s:i, s:i, s:f}", "id", u->id, "state",
			      state_name[u->state], "scenario", u->sc.file, "done", done, "total", total,
			      "elapsed", el);
	if (u->xkey)
		json_object_set_new(o, "x", json_string(u->xkey));
	if (u->state == RUN_FAILED || u->state == RUN_CANCELLED)
		json_object_set_new(o, "error", json_string(u->error));
	if (u->results)
		json_object_set(o, "results", u->results);
	reply_json(r, 200, o);
}

void runs_delete(struct serve *s, int id, struct serve_reply *r)
{
	struct run *u = run_find(s, id);
	if (!u) {
		reply_error(r, 404, "run %d: no such run", id);
		return;
	}
	if (u->state == RUN_RUNNING) {
		run_stop(u, RUN_CANCELLED, "cancelled (DELETE)");
		reply_json(r, 200, json_pack("{s:i, s:s}", "id", id, "state", "cancelled"));
		return;
	}
	for (struct run **pp = &s->runs; *pp; pp = &(*pp)->next)
		if (*pp == u) {
			*pp = u->next;
			break;
		}
	run_free(u);
	reply_json(r, 200, json_pack("{s:i, s:s}", "id", id, "state", "deleted"));
}

int serve_active_runs(const struct serve *s)
{
	int n = 0;
	for (const struct run *u = s->runs; u; u = u->next)
		n += u->state == RUN_RUNNING;
	return n;
}
