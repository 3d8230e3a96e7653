/*
 * sweep.c - the libevent process pool (see sweep.h).
 *
 * Design: one struct pool per sweep_run() call, passed to every callback (no
 * global state).  Each busy slot is a struct worker: the child's pid, the read
 * end of its pipe (a persistent EV_READ event accumulates the reply), and an
 * optional time-out event.  A worker is finished when both its pipe reached EOF
 * and the child was reaped (SIGCHLD event, or waitpid(WNOHANG) at EOF); the reply
 * is then parsed by runner_finish(), saved (keep directory), and the slot starts
 * the next pending simulation.  The loop ends when nothing is pending or running.
 * Reused per-simulation files are checked for the scenario hash, the digest of
 * the input files it names (traces, workfiles: emu/core/readfile.h), the tool version,
 * the digest of the mmemu executable and of the plugins loaded that computed them
 * (a rebuilt model or plugin reruns everything) and the (kernel, point, run) they claim, so a stale or foreign file is
 * rerun.
 */
#include "emu/engine/sweep.h"

#include "emu/core/rng.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/util.h>

#include "emu/engine/results.h"
#include "emu/engine/runner.h"
#include "emu/core/version.h"
#include "emu/plugin/plugin.h"

#define SIM_FORMAT "mmemu-sim/1"

struct pool;   /* what sweep.h calls struct sweep_pool */

struct worker {
	struct pool *pool;
	int busy;
	int job, sim;
	pid_t pid;
	int fd;
	struct event *rd, *tmo;
	char *buf;
	size_t len, cap;
	int eof, reaped, status, timed_out;
	double t0;
};

struct task {
	int job, sim;
	double size, est;          /* spec_size(), estimated host seconds */
};

struct pool {
	struct event_base *base;
	struct event *sigchld, *tick, *fin;
	sweep_done_fn done_fn;     /* sweep_start(): called from @fin when all ended */
	void *done_arg;
	struct sweep_job *jobs;
	const struct sweep_opts *o;
	struct worker *w;
	int nw;
	struct task *tasks;
	int ntasks, next, done, failed, running;
	int tty;
	double t0;
};

char *sweep_stem(const char *file, char *buf, size_t len)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	snprintf(buf, len, "%s", base);
	char *dot = strrchr(buf, '.');
	if (dot && strcmp(dot, ".json") == 0)
		*dot = '\0';
	return buf;
}

int sweep_job_init(struct sweep_job *j, const struct scenario *sc, struct mm_err *e)
{
	memset(j, 0, sizeof *j);
	j->sc = sc;
	j->sims = calloc((size_t)(sc->nsims ? sc->nsims : 1), sizeof *j->sims);
	if (!j->sims)
		return mm_errf(e, sc->file, NULL, "out of memory");
	return 0;
}

void sweep_job_free(struct sweep_job *j)
{
	if (!j->sims)
		return;
	for (int k = 0; k < j->sc->nsims; k++) {
		json_decref(j->sims[k].result);
		free(j->sims[k].error);
	}
	free(j->sims);
	j->sims = NULL;
}

static const char *exe_digest(void);

/* The executable's digest, then "+" and the loaded plugins' (emu/plugin) if any.
 * Returns: the digest, in a static buffer. */
static const char *build_digest(void)
{
	static char d[48];
	const char *p = plugin_digest();
	snprintf(d, sizeof d, "%s%s%s", exe_digest(), *p ? "+" : "", p);
	return d;
}

/* FNV-1a 64 of the running executable (/proc/self/exe), 16 hex digits, computed
 * once; "unknown" when it cannot be read.  Returns: the digest. */
static const char *exe_digest(void)
{
	static char d[24];
	if (*d)
		return d;
	FILE *f = fopen("/proc/self/exe", "rb");
	if (!f) {
		snprintf(d, sizeof d, "unknown");
		return d;
	}
	uint64_t h = MM_HASH64_INIT;
	unsigned char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		h = mm_hash64_mem(h, buf, n);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		snprintf(d, sizeof d, "unknown");
	else
		snprintf(d, sizeof d, "%016llx", (unsigned long long)h);
	return d;
}

static const char *str0(const json_t *v)
{
	const char *s = json_string_value(v);
	return s ? s : "";
}

static void sim_path(const struct sweep_job *j, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%04d.json", j->dir, k);
}

/* Load a finished simulation from the keep directory.
 * Returns: 1 reused, 0 no file, -1 a file that does not match (stale or foreign). */
static int load_kept(struct sweep_job *j, int k)
{
	char path[1200];
	sim_path(j, k, path, sizeof path);
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);
	if (!d) {
		struct stat st;
		return stat(path, &st) ? 0 : -1;
	}
	const struct scenario_sim *ss = &j->sc->sims[k];
	json_t *res = json_object_get(d, "result");
	int ok = results_run_measured(res) &&
		 strcmp(str0(json_object_get(d, "format")), SIM_FORMAT) == 0 &&
		 strcmp(str0(json_object_get(d, "scenario_hash")), j->sc->hash) == 0 &&
		 strcmp(str0(json_object_get(d, "inputs_hash")), j->sc->inputs) == 0 &&
		 strcmp(str0(json_object_get(d, "version")), MMEMU_VERSION) == 0 &&
		 strcmp(str0(json_object_get(d, "build")), build_digest()) == 0 &&
		 json_integer_value(json_object_get(d, "index")) == k &&
		 strcmp(str0(json_object_get(d, "kernel")), ss->kernel) == 0 &&
		 json_integer_value(json_object_get(d, "point_index")) == ss->point_index &&
		 json_integer_value(json_object_get(d, "run")) == ss->run;
	if (!ok)   /* not reusable, but how long it took orders the rerun */
		j->sims[k].est = json_number_value(json_object_get(d, "wall"));
	if (ok) {
		j->sims[k].state = SWEEP_REUSED;
		j->sims[k].result = json_incref(res);
		j->sims[k].wall = json_number_value(json_object_get(d, "wall"));
		j->nreused++;
	}
	json_decref(d);
	return ok ? 1 : -1;
}

/* Save a finished simulation atomically. Returns: 0 or -1 (reported, not fatal). */
static int save_kept(const struct sweep_job *j, int k)
{
	const struct scenario_sim *ss = &j->sc->sims[k];
	char path[1200];
	sim_path(j, k, path, sizeof path);
	json_t *d = json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:i,s:i,s:f,s:O}", "format", SIM_FORMAT,
			      "scenario_hash", j->sc->hash, "inputs_hash", j->sc->inputs,
			      "version", MMEMU_VERSION, "build", build_digest(), "index", k,
			      "kernel", ss->kernel, "point_index", ss->point_index, "run", ss->run,
			      "wall", j->sims[k].wall, "result", j->sims[k].result);
	/* 17 significant digits: the values read back are the very doubles received */
	char *text = d ? json_dumps(d, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	json_decref(d);
	struct mm_err e = { "" };
	int rc = text ? out_write_text(path, text, &e) : mm_errf(&e, path, NULL, "out of memory");
	free(text);
	if (rc == 0)
		return 0;
	fprintf(stderr, "mmemu: cannot save simulation result: %s\n", e.msg);
	return -1;
}

static void progress_clear(struct pool *p)
{
	if (p->tty && p->o->progress != SWEEP_PROGRESS_NONE)
		fputs("\r\033[K", stderr);
}

static void progress_bar(struct pool *p)
{
	if (!p->tty || p->o->progress == SWEEP_PROGRESS_NONE || p->ntasks == 0)
		return;
	const int width = 30;
	int fill = p->done * width / p->ntasks;
	char bar[64];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	double el = now_seconds() - p->t0;
	char eta[32] = "";
	if (p->done > 0 && p->done < p->ntasks)
		snprintf(eta, sizeof eta, ", eta %.0fs", el / p->done * (p->ntasks - p->done));
	fprintf(stderr, "\r\033[K[%s] %d/%d done, %d running, %d failed, %.0fs%s", bar, p->done,
		p->ntasks, p->running, p->failed, el, eta);
	fflush(stderr);
}

static void sim_label(const struct sweep_job *j, int k, char *buf, size_t len)
{
	const struct scenario_sim *ss = &j->sc->sims[k];
	char *lbl = results_point_label(ss->point);
	snprintf(buf, len, "kernel %s, point %s, run %d", ss->kernel, lbl ? lbl : "", ss->run);
	free(lbl);
}

static void start_next(struct pool *p, struct worker *w);

static void finish(struct worker *w)
{
	struct pool *p = w->pool;
	struct sweep_job *j = &p->jobs[w->job];
	struct sweep_sim *s = &j->sims[w->sim];
	struct mm_err e = { "" };
	json_t *res = NULL;
	s->wall = now_seconds() - w->t0;
	int rc = runner_finish(w->buf, w->len, w->status, &res, &e);
	char lbl[400];
	sim_label(j, w->sim, lbl, sizeof lbl);
	p->done++;
	p->running--;
	if (rc == RUNNER_OK) {
		s->state = SWEEP_RAN;
		s->result = res;
		j->nran++;
		if (*j->dir)
			save_kept(j, w->sim);
		if (!p->tty && p->o->progress == SWEEP_PROGRESS_AUTO)
			fprintf(stderr, "sweep: [%d/%d] %s: %s: ok (%.2f s)\n", p->done, p->ntasks,
				j->sc->file, lbl, s->wall);
	} else {
		s->state = SWEEP_FAILED;
		if (w->timed_out)
			snprintf(e.msg, sizeof e.msg, "timed out after %g s (worker killed)", p->o->timeout);
		s->error = strdup(e.msg);
		j->nfailed++;
		p->failed++;
		progress_clear(p);
		fprintf(stderr, "mmemu: %s: %s: %s\n", j->sc->file, lbl, e.msg);
	}
	if (w->rd)
		event_free(w->rd);
	if (w->tmo)
		event_free(w->tmo);
	w->rd = w->tmo = NULL;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	free(w->buf);
	w->buf = NULL;
	w->busy = 0;
	start_next(p, w);
	progress_bar(p);
	if (p->running == 0 && p->next >= p->ntasks)
		event_active(p->fin, 0, 0);
}

static void try_reap(struct worker *w)
{
	if (!w->busy)
		return;
	if (!w->reaped) {
		int st;
		pid_t r = waitpid(w->pid, &st, WNOHANG);
		if (r == w->pid) {
			w->reaped = 1;
			w->status = st;
		}
	}
	if (w->reaped && w->eof)
		finish(w);
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	for (;;) {
		if (w->len == w->cap) {
			size_t nc = w->cap ? w->cap * 2 : 1 << 16;
			char *t = realloc(w->buf, nc);
			if (!t) {
				kill(w->pid, SIGKILL);
				break;
			}
			w->buf = t;
			w->cap = nc;
		}
		ssize_t n = read(fd, w->buf + w->len, w->cap - w->len);
		if (n > 0) {
			w->len += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		break; /* EOF or error */
	}
	w->eof = 1;
	event_del(w->rd);
	try_reap(w);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	if (w->busy && !w->reaped) {
		w->timed_out = 1;
		kill(w->pid, SIGKILL);
	}
}

static void on_sigchld(evutil_socket_t sig, short what, void *arg)
{
	struct pool *p = arg;
	for (int i = 0; i < p->nw; i++)
		if (p->w[i].busy)
			try_reap(&p->w[i]);
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
	progress_bar(arg);
}

static void start_next(struct pool *p, struct worker *w)
{
	while (p->next < p->ntasks) {
		struct task t = p->tasks[p->next++];
		struct sweep_job *j = &p->jobs[t.job];
		struct mm_err e = { "" };
		memset(w, 0, sizeof *w);
		w->pool = p;
		w->job = t.job;
		w->sim = t.sim;
		w->fd = -1;
		w->t0 = now_seconds();
		w->pid = runner_spawn(j->sc->sims[t.sim].spec, j->sc->file, &w->fd, &e);
		if (w->pid < 0) {
			char lbl[400];
			sim_label(j, t.sim, lbl, sizeof lbl);
			j->sims[t.sim].state = SWEEP_FAILED;
			j->sims[t.sim].error = strdup(e.msg);
			j->nfailed++;
			p->failed++;
			p->done++;
			progress_clear(p);
			fprintf(stderr, "mmemu: %s: %s: %s\n", j->sc->file, lbl, e.msg);
			continue;
		}
		w->busy = 1;
		p->running++;
		evutil_make_socket_nonblocking(w->fd);
		w->rd = event_new(p->base, w->fd, EV_READ | EV_PERSIST, on_read, w);
		event_add(w->rd, NULL);
		if (p->o->timeout > 0) {
			struct timeval tv;
			tv.tv_sec = (time_t)p->o->timeout;
			tv.tv_usec = (suseconds_t)((p->o->timeout - (double)tv.tv_sec) * 1e6);
			w->tmo = evtimer_new(p->base, on_timeout, w);
			evtimer_add(w->tmo, &tv);
		}
		return;
	}
}

/* The walls of the results file beside @j's keep directory (DIR/STEM.json)
 * as estimates, when it has one wall per simulation. */
static void results_walls(struct sweep_job *j)
{
	char path[1200];
	size_t l = strlen(j->dir);
	if (l < 2 || strcmp(j->dir + l - 2, ".d"))
		return;
	snprintf(path, sizeof path, "%.*s.json", (int)(l - 2), j->dir);
	json_t *d = json_load_file(path, 0, NULL);
	json_t *walls = json_object_get(json_object_get(d, "host"), "runs");
	if (json_array_size(walls) == (size_t)j->sc->nsims)
		for (int k = 0; k < j->sc->nsims; k++)
			j->sims[k].est = json_number_value(json_array_get(walls, k));
	json_decref(d);
}

/* A simulation's size when no timing is kept: simulated CPUs times the
 * workload's population (users, clients or jobs; kernbench's jobs 0, "as many
 * as can run", counted as 4 per CPU).  An ordering key only.  Returns: >= 1. */
static double spec_size(const json_t *spec)
{
	json_int_t cpus = json_integer_value(json_object_get(json_object_get(spec, "machine"), "cpus"));
	const json_t *wl = json_object_get(spec, "workload");
	static const char *const pop[] = { "users", "clients", "jobs" };
	json_int_t n = 1;
	cpus = cpus < 1 ? 1 : cpus;
	for (size_t i = 0; i < sizeof pop / sizeof pop[0]; i++) {
		const json_t *v = json_object_get(wl, pop[i]);
		if (json_is_integer(v))
			n = json_integer_value(v) > 0 ? json_integer_value(v) : 4 * cpus;
	}
	return (double)cpus * (double)(n < 1 ? 1 : n);
}

static int by_est(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	if (x->est != y->est)
		return x->est < y->est ? 1 : -1;
	return x->job != y->job ? x->job - y->job : x->sim - y->sim;
}

/* Estimate every task's host seconds and order them longest first. */
static void longest_first(struct pool *p)
{
	double secs = 0, size = 0;
	for (int i = 0; i < p->ntasks; i++) {
		struct task *t = &p->tasks[i];
		const struct sweep_job *j = &p->jobs[t->job];
		t->size = spec_size(j->sc->sims[t->sim].spec);
		if (j->sims[t->sim].est > 0) {
			secs += j->sims[t->sim].est;
			size += t->size;
		}
	}
	double per = size > 0 ? secs / size : 1;
	for (int i = 0; i < p->ntasks; i++) {
		struct task *t = &p->tasks[i];
		double e = p->jobs[t->job].sims[t->sim].est;
		t->est = e > 0 ? e : t->size * per;
	}
	qsort(p->tasks, (size_t)p->ntasks, sizeof *p->tasks, by_est);
}

int sweep_shard_of(int g, int n)
{
	return g % n + 1;
}

int sweep_reuse(struct sweep_job *jobs, int njobs, const struct sweep_opts *o, int create,
		struct mm_err *e)
{
	for (int i = 0, g = 0; i < njobs; i++) {
		struct sweep_job *j = &jobs[i];
		if (o->keep_dir && !*j->dir) {   /* the caller may have named it (reproduce --seeds) */
			char stem[256];
			sweep_stem(j->sc->file, stem, sizeof stem);
			snprintf(j->dir, sizeof j->dir, "%s/%s.d", o->keep_dir, stem);
		}
		if (*j->dir && create && mkdir_p(j->dir))
			return mm_errf(e, j->dir, NULL, "cannot create directory: %s", strerror(errno));
		if (*j->dir)
			results_walls(j);
		for (int k = 0; k < j->sc->nsims; k++, g++) {
			if (j->sims[k].state == SWEEP_RAN || j->sims[k].state == SWEEP_REUSED ||
			    (o->shard_n > 0 && sweep_shard_of(g, o->shard_n) != o->shard_k))
				continue;
			if (*j->dir && !o->fresh && load_kept(j, k) < 0)
				j->nstale++;
		}
	}
	return 0;
}

/* The last simulation ended: in a pool of its own, stop its loop; else tell the
 * caller (from the loop, never from inside a worker's callback). */
static void on_fin(evutil_socket_t fd, short what, void *arg)
{
	struct pool *p = arg;
	if (p->done_fn)
		p->done_fn((struct sweep_pool *)p, p->done_arg);
	else
		event_base_loopbreak(p->base);
}

/* Stop every running worker (SIGKILL, reaped at once) and drop the pending
 * simulations, recorded as failed with @why. Returns: nothing. */
static void pool_stop(struct pool *p, const char *why)
{
	for (int i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		if (!w->busy)
			continue;
		if (!w->reaped) {
			kill(w->pid, SIGKILL);
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		struct sweep_job *j = &p->jobs[w->job];
		j->sims[w->sim].state = SWEEP_FAILED;
		j->sims[w->sim].error = strdup(why);
		j->nfailed++;
		if (w->rd)
			event_free(w->rd);
		if (w->tmo)
			event_free(w->tmo);
		if (w->fd >= 0)
			close(w->fd);
		free(w->buf);
		memset(w, 0, sizeof *w);
		w->fd = -1;
		p->running--;
	}
	for (; p->next < p->ntasks; p->next++) {
		struct task t = p->tasks[p->next];
		p->jobs[t.job].sims[t.sim].state = SWEEP_FAILED;
		p->jobs[t.job].sims[t.sim].error = strdup(why);
		p->jobs[t.job].nfailed++;
	}
}

static void pool_free(struct pool *p)
{
	if (p->tick)
		event_free(p->tick);
	if (p->sigchld)
		event_free(p->sigchld);
	if (p->fin)
		event_free(p->fin);
	free(p->w);
	free(p->tasks);
	free(p);
}

/* Queue every unfinished simulation of @jobs and start the first workers on
 * @base. Returns: the pool (nothing to run: ntasks 0, no worker), or NULL with
 * @e set. */
static struct pool *pool_start(struct sweep_job *jobs, int njobs, const struct sweep_opts *o,
			       struct event_base *base, struct mm_err *e)
{
	struct pool *pp = calloc(1, sizeof *pp);
	if (!pp) {
		mm_errf(e, NULL, NULL, "out of memory");
		return NULL;
	}
	struct pool *p = pp;
	p->base = base;
	p->jobs = jobs;
	p->o = o;
	p->tty = isatty(2);
	p->t0 = now_seconds();
	int total = 0;
	for (int i = 0; i < njobs; i++)
		total += jobs[i].sc->nsims;
	p->tasks = calloc((size_t)(total ? total : 1), sizeof *p->tasks);
	if (!p->tasks) {
		pool_free(p);
		mm_errf(e, NULL, NULL, "out of memory");
		return NULL;
	}
	if (sweep_reuse(jobs, njobs, o, 1, e)) {
		pool_free(p);
		return NULL;
	}
	for (int i = 0, g = 0; i < njobs; i++)
		for (int k = 0; k < jobs[i].sc->nsims; k++, g++)
			if (jobs[i].sims[k].state != SWEEP_RAN && jobs[i].sims[k].state != SWEEP_REUSED &&
			    (o->shard_n < 1 || sweep_shard_of(g, o->shard_n) == o->shard_k))
				p->tasks[p->ntasks++] = (struct task){ i, k, 0, 0 };
	longest_first(p);
	if (p->ntasks == 0)
		return p;
	p->nw = o->jobs < 1 ? 1 : o->jobs;
	if (p->nw > p->ntasks)
		p->nw = p->ntasks;
	p->w = calloc((size_t)p->nw, sizeof *p->w);
	p->sigchld = evsignal_new(base, SIGCHLD, on_sigchld, p);
	p->fin = event_new(base, -1, 0, on_fin, p);
	if (!p->w || !p->sigchld || !p->fin || event_add(p->sigchld, NULL)) {
		pool_free(p);
		mm_errf(e, NULL, NULL, "cannot create the event loop");
		return NULL;
	}
	if (p->tty && o->progress != SWEEP_PROGRESS_NONE) {
		p->tick = event_new(base, -1, EV_PERSIST, on_tick, p);
		struct timeval tv = { 0, 500000 };
		event_add(p->tick, &tv);
	}
	for (int i = 0; i < p->nw; i++) {
		p->w[i].fd = -1;
		start_next(p, &p->w[i]);
	}
	progress_bar(p);
	if (p->running == 0)   /* every spawn failed */
		event_active(p->fin, 0, 0);
	return p;
}

int sweep_run(struct sweep_job *jobs, int njobs, const struct sweep_opts *o, struct mm_err *e)
{
	struct event_base *base = event_base_new();
	if (!base)
		return mm_errf(e, NULL, NULL, "cannot create the event loop");
	struct pool *p = pool_start(jobs, njobs, o, base, e);
	if (!p) {
		event_base_free(base);
		return -1;
	}
	if (p->ntasks > 0)
		event_base_dispatch(base);
	progress_clear(p);
	pool_free(p);
	event_base_free(base);
	return 0;
}

struct sweep_pool *sweep_start(struct sweep_job *jobs, int njobs, const struct sweep_opts *o,
			       struct event_base *base, sweep_done_fn done, void *arg,
			       struct mm_err *e)
{
	struct pool *p = pool_start(jobs, njobs, o, base, e);
	if (!p)
		return NULL;
	p->done_fn = done;
	p->done_arg = arg;
	if (p->ntasks == 0) {   /* all kept: still report from the loop */
		p->fin = event_new(base, -1, 0, on_fin, p);
		if (!p->fin) {
			pool_free(p);
			mm_errf(e, NULL, NULL, "cannot create the event loop");
			return NULL;
		}
		event_active(p->fin, 0, 0);
	}
	return (struct sweep_pool *)p;
}

void sweep_progress(const struct sweep_pool *sp, int *done, int *total)
{
	const struct pool *p = (const struct pool *)sp;
	*done = p->done;
	*total = p->ntasks;
}

void sweep_pool_free(struct sweep_pool *sp, const char *why)
{
	struct pool *p = (struct pool *)sp;
	if (!p)
		return;
	pool_stop(p, why ? why : "cancelled");
	pool_free(p);
}

json_t *sweep_merge_partial(const struct sweep_job *j)
{
	json_t *res = results_new(j->sc);
	for (int k = 0; k < j->sc->nsims; k++)
		if (j->sims[k].result)
			results_add_run(res, &j->sc->sims[k], json_deep_copy(j->sims[k].result), j->sims[k].wall);
	return res;
}

json_t *sweep_merge(const struct sweep_job *j)
{
	for (int k = 0; k < j->sc->nsims; k++)
		if (!j->sims[k].result)
			return NULL;
	return sweep_merge_partial(j);
}
