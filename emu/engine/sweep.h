/*
 * sweep.h - run many simulations in parallel worker processes (libevent pool).
 *
 * A pool takes one or more loaded scenarios and runs every (kernel, point, run)
 * that is not already finished, at most @jobs at a time.  Each worker is a
 * runner_spawn() child; a libevent loop watches the workers' pipes, SIGCHLD and
 * per-simulation time-outs (SIGKILL on expiry).  When a keep directory is given,
 * each finished simulation is written at once to DIR/STEM.d/NNNN.json (NNNN = its
 * index in scenario expansion; temp file + rename), and simulations whose file is
 * already there (same scenario hash and tool version) are reused, not rerun: a
 * killed sweep resumes where it stopped.  sweep_merge() builds the same results
 * document a serial `mmemu run` builds, runs ordered by expansion index.
 * The pool starts the longest simulations first: by the host seconds a stale
 * kept file or the previous results file recorded, else by the simulation's
 * size (CPUs times users, clients or jobs) scaled by the timed ones; the order
 * only changes when each result arrives, never a result.
 * A pool may run one shard K of N (a cluster array task): the simulations whose
 * index in the pool (counted over every job, in order) is K-1 modulo N, so N
 * independent processes given the same scenarios split them exactly.
 */
#ifndef MMEMU_SWEEP_H
#define MMEMU_SWEEP_H

#include <jansson.h>

#include "emu/core/err.h"
#include "emu/engine/scenario.h"

enum sweep_progress {
	SWEEP_PROGRESS_NONE = 0,   /* nothing but failures */
	SWEEP_PROGRESS_AUTO,       /* a bar on a terminal (isatty(2)), plain lines otherwise */
	SWEEP_PROGRESS_BAR,        /* a bar on a terminal, nothing otherwise */
};

struct sweep_opts {
	int jobs;                  /* worker processes, >= 1 */
	double timeout;            /* seconds per simulation; 0 = none */
	const char *keep_dir;      /* per-simulation files under DIR/STEM.d/, or NULL */
	enum sweep_progress progress;
	int fresh;                 /* rerun even simulations already kept */
	int shard_k, shard_n;      /* run only shard K (1..N) of N; N = 0: everything */
};

enum sweep_state { SWEEP_PENDING = 0, SWEEP_RAN, SWEEP_REUSED, SWEEP_FAILED };

struct sweep_sim {
	enum sweep_state state;
	json_t *result;            /* the simulation's result object (owned) */
	double wall;               /* host seconds it took */
	char *error;               /* when failed (malloc'ed) */
	double est;                /* host seconds a stale kept file or results file says it took, or 0 */
};

/** struct sweep_job - one scenario in a pool. */
struct sweep_job {
	const struct scenario *sc;
	char dir[1100];            /* DIR/STEM.d or "" (set before sweep_run: that directory) */
	struct sweep_sim *sims;    /* sc->nsims entries */
	int nran, nreused, nfailed;
	int nstale;                /* kept files not reused (another build, version or scenario) */
};

/**
 * sweep_job_init() - prepare @j for scenario @sc.
 * Returns: 0, or -1 with @e set (out of memory).
 */
int sweep_job_init(struct sweep_job *j, const struct scenario *sc, struct mm_err *e);

/** sweep_job_free() - release the results @j holds. */
void sweep_job_free(struct sweep_job *j);

/**
 * sweep_run() - run every unfinished simulation of @jobs in a worker pool.
 * Failures are printed on stderr as they happen ("mmemu: FILE: kernel K, point P,
 * run R: why") and recorded; the other simulations still run.
 * Returns: 0 when the pool ran (check each job's nfailed), -1 with @e set when it
 * could not (no event base, cannot create the keep directory).
 */
int sweep_run(struct sweep_job *jobs, int njobs, const struct sweep_opts *o, struct mm_err *e);

struct event_base;
struct sweep_pool;
/* Called from the event loop once every simulation of a started pool ended. */
typedef void (*sweep_done_fn)(struct sweep_pool *pool, void *arg);

/**
 * sweep_start() - sweep_run() on the caller's event loop @base: queue the
 * unfinished simulations, start the first workers and return at once; @done is
 * called from the loop when the last one ended (ran, failed or timed out), and
 * never after sweep_pool_free().  @o and @jobs must outlive the pool.  The
 * server (mmemu serve) runs its simulations this way and answers meanwhile.
 * Returns: the pool, or NULL with @e set.
 */
struct sweep_pool *sweep_start(struct sweep_job *jobs, int njobs, const struct sweep_opts *o,
			       struct event_base *base, sweep_done_fn done, void *arg,
			       struct mm_err *e);

/** sweep_progress() - simulations finished and queued of a started pool in
 * *@done and *@total. Returns: nothing. */
void sweep_progress(const struct sweep_pool *pool, int *done, int *total);

/**
 * sweep_pool_free() - stop a started pool: running workers are killed (SIGKILL)
 * and reaped before this returns, they and the pending simulations are recorded
 * as failed with @why (NULL: "cancelled"); then free the pool (NULL is fine).
 * Returns: nothing.
 */
void sweep_pool_free(struct sweep_pool *pool, const char *why);

/**
 * sweep_reuse() - name each job's keep directory (o->keep_dir/STEM.d unless set)
 * and take every kept simulation (of shard o->shard_k when sharded) that matches
 * the scenario, its inputs and this mmemu executable; @create: create the
 * directories.  Called by sweep_run(); alone, it reads a finished sweep.
 * Returns: 0, or -1 with @e set (a directory cannot be created).
 */
int sweep_reuse(struct sweep_job *jobs, int njobs, const struct sweep_opts *o, int create,
		struct mm_err *e);

/**
 * sweep_shard_of() - the shard (1..@n) of the simulation with pool index @g
 * (counted over every job of the pool, in order).
 * Returns: the shard number.
 */
int sweep_shard_of(int g, int n);

/**
 * sweep_merge() - the results document of a job whose simulations all finished.
 * Returns: a new document (runs in expansion order, "host" from the walls), or
 * NULL when a simulation failed or is missing.
 */
json_t *sweep_merge(const struct sweep_job *j);

/**
 * sweep_merge_partial() - like sweep_merge(), with only the simulations that have
 * a result (for reports on an incomplete sweep; never written as a results file).
 * Returns: a new document.
 */
json_t *sweep_merge_partial(const struct sweep_job *j);

/**
 * sweep_stem() - the scenario file's name without directories and ".json".
 * Returns: @buf.
 */
char *sweep_stem(const char *file, char *buf, size_t len);

#endif
