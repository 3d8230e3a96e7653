/*
 * cluster.h - a sweep split into shards and run as a Slurm job array.
 *
 * A pool of simulations (emu/engine/sweep.h) is cut into N shards by pool index
 * (sweep_shard_of()); each array task runs `mmemu SUBCOMMAND --shard K/N ...`
 * into the shared kept-results folder, and `mmemu collect` (or a plain rerun of
 * the command) merges what the tasks kept.  Resume is per simulation, as for a
 * local sweep: only shards with a simulation still missing are submitted again.
 */
#ifndef MMEMU_CLUSTER_H
#define MMEMU_CLUSTER_H

#include "emu/core/err.h"
#include "emu/engine/sweep.h"

/* The largest task id Slurm accepts by default (MaxArraySize=1001). */
#define CLUSTER_MAX_TASKS 1000

/** struct cluster_opts - the --slurm options of sweep and reproduce. */
struct cluster_opts {
	int slurm;                 /* --slurm given */
	const char *partition;     /* --partition, or NULL (the cluster's default) */
	int max_tasks;             /* --max-tasks: at most this many shards (array tasks) */
	int dry_run;               /* print the script instead of writing and submitting it */
	int cpus;                  /* worker processes per task (-j), also --cpus-per-task */
	int slurm_only;            /* an option that needs --slurm was given */
};

/**
 * cluster_parse_shard() - parse @s, "K/N" with 1 <= K <= N <= 1000000.
 * Returns: 0 with *@k and *@n set, or -1.
 */
int cluster_parse_shard(const char *s, int *k, int *n);

/**
 * cluster_submit() - write and submit (or print, co->dry_run) the sbatch array
 * script of the pool @jobs (not run: their kept results are read here, from
 * so->keep_dir).  N = min(co->max_tasks, simulations); only the shards with a
 * simulation not yet kept are in the array.  Each task runs, in the current
 * directory, this mmemu executable with @targv[0] (the subcommand), then
 * "--shard $SLURM_ARRAY_TASK_ID/N", then @targv[1..@targc-1].  The script is
 * @dir/@name.sbatch, task logs @dir/slurm-JOB_TASK.out; @then is the command
 * to run once the job has finished (printed).
 * Returns: 0 (submitted, printed, or nothing left to run), or 1 after a message
 * on stderr (cannot write the script, sbatch missing or failing).
 */
int cluster_submit(struct sweep_job *jobs, int njobs, const struct sweep_opts *so,
		   const struct cluster_opts *co, const char *dir, const char *name,
		   char *const *targv, int targc, const char *then);

#endif
