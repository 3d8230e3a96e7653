/*
 * cluster.c - shards and the Slurm array script (see cluster.h).
 *
 * Design: the login node knows everything a task will do.  It reads the kept
 * results (sweep_reuse(), with this executable's digest, so a node running
 * another build cannot slip its results in: they are rerun), lists the shards
 * that still miss a simulation in the script's "#SBATCH --array=" line (ranges
 * compressed, "1-3,7"), and submits the script with `sbatch --parsable`.  The
 * script changes to the submitting directory and execs the very executable that
 * wrote it (/proc/self/exe), so relative scenario paths and the digest hold on
 * every node of a shared file system.  Arguments are single-quoted for sh.
 */
#include "emu/engine/cluster.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/core/output.h"

int cluster_parse_shard(const char *s, int *k, int *n)
{
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (end == s || *end != '/' || errno)
		return -1;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || errno || b < 1 || b > 1000000 || a < 1 || a > b)
		return -1;
	*k = (int)a;
	*n = (int)b;
	return 0;
}

/* @s single-quoted for sh on @f. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The shards in @need[1..@n] as a Slurm array list ("1-3,7") on @f. */
static void put_array(FILE *f, const unsigned char *need, int n)
{
	int first = 1;
	for (int a = 1; a <= n; a++) {
		if (!need[a])
			continue;
		int b = a;
		while (b < n && need[b + 1])
			b++;
		fprintf(f, first ? "%d" : ",%d", a);
		if (b > a)
			fprintf(f, "-%d", b);
		first = 0;
		a = b;
	}
}

/* The script text (malloc'ed) for shards @need of @n.  Returns: it, or NULL. */
static char *script_text(const struct cluster_opts *co, const unsigned char *need, int n, const char *dir,
			 const char *name, char *const *targv, int targc, const char *then)
{
	char exe[PATH_MAX], cwd[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (l <= 0 || !getcwd(cwd, sizeof cwd))
		return NULL;
	exe[l] = '\0';
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "#!/bin/sh\n# mmemu %s as a Slurm job array of %d shards (written by mmemu %s --slurm).\n"
		   "# Each task runs its shard and keeps every finished simulation under %s;\n"
		   "# a resubmission runs only what is missing.  When the job has finished:\n#   %s\n",
		targv[0], n, targv[0], dir, then);
	fprintf(f, "#SBATCH --job-name=mmemu-%s\n#SBATCH --array=", name);
	put_array(f, need, n);
	fprintf(f, "\n");
	if (co->partition)
		fprintf(f, "#SBATCH --partition=%s\n", co->partition);
	fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n", co->cpus);
	fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", dir);
	fputs("cd ", f);
	put_quoted(f, cwd);
	fputs(" || exit 1\nexec ", f);
	put_quoted(f, exe);
	fputc(' ', f);
	put_quoted(f, targv[0]);
	fprintf(f, " --shard \"$SLURM_ARRAY_TASK_ID/%d\"", n);
	for (int i = 1; i < targc; i++) {
		fputc(' ', f);
		put_quoted(f, targv[i]);
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Run `sbatch --parsable @path`; its job id into @id.  Returns: 0, or 1 after a message. */
static int sbatch(const char *path, char *id, size_t idlen)
{
	int p[2];
	if (pipe(p)) {
		fprintf(stderr, "mmemu: pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "mmemu: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return 1;
	}
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 1);
		close(p[1]);
		execlp("sbatch", "sbatch", "--parsable", path, (char *)NULL);
		fprintf(stderr, "mmemu: cannot run sbatch: %s (Slurm's client commands must be on PATH; "
				"--dry-run prints the script)\n", strerror(errno));
		_exit(127);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < idlen && ((r = read(p[0], id + n, idlen - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			n += (size_t)r;
	id[n] = '\0';
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	id[strcspn(id, ";\n")] = '\0';   /* --parsable: "JOBID" or "JOBID;CLUSTER" */
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !*id) {
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 127)
			fprintf(stderr, "mmemu: %s: sbatch did not submit the job\n", path);
		return 1;
	}
	return 0;
}

int cluster_submit(struct sweep_job *jobs, int njobs, const struct sweep_opts *so,
		   const struct cluster_opts *co, const char *dir, const char *name,
		   char *const *targv, int targc, const char *then)
{
	struct mm_err e = { "" };
	struct sweep_opts all = *so;
	all.shard_k = all.shard_n = 0;
	if (!co->dry_run && mkdir_p(dir)) {
		fprintf(stderr, "mmemu: %s: cannot create directory: %s\n", dir, strerror(errno));
		return 1;
	}
	if (sweep_reuse(jobs, njobs, &all, 0, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		return 1;
	}
	int total = 0;
	for (int i = 0; i < njobs; i++)
		total += jobs[i].sc->nsims;
	int n = total < co->max_tasks ? total : co->max_tasks;
	if (n < 1)
		n = 1;
	unsigned char *need = calloc((size_t)n + 1, 1);
	if (!need) {
		fprintf(stderr, "mmemu: out of memory\n");
		return 1;
	}
	int missing = 0, shards = 0;
	for (int i = 0, g = 0; i < njobs; i++)
		for (int k = 0; k < jobs[i].sc->nsims; k++, g++)
			if (jobs[i].sims[k].state != SWEEP_REUSED) {
				int s = sweep_shard_of(g, n);
				shards += !need[s];
				need[s] = 1;
				missing++;
			}
	if (missing == 0) {
		printf("%s: all %d simulations are kept in %s; nothing to submit. Then: %s\n", name, total, dir, then);
		free(need);
		return 0;
	}
	char *text = script_text(co, need, n, dir, name, targv, targc, then);
	free(need);
	if (!text) {
		fprintf(stderr, "mmemu: cannot build the Slurm script: %s\n", strerror(errno));
		return 1;
	}
	if (co->dry_run) {
		fputs(text, stdout);
		free(text);
		return 0;
	}
	char path[1400], id[64];
	snprintf(path, sizeof path, "%s/%s.sbatch", dir, name);
	int rc = out_write_text(path, text, &e);
	free(text);
	if (rc) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		return 1;
	}
	if (sbatch(path, id, sizeof id))
		return 1;
	printf("submitted Slurm job %s: %d of %d shards (%d of %d simulations to run); script %s\n"
	       "when it has finished: %s\n", id, shards, n, missing, total, path, then);
	return 0;
}
