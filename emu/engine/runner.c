/*
 * runner.c - one simulation per child process (see runner.h).
 */
#include "emu/engine/runner.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu/engine/engine.h"

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

pid_t runner_spawn(json_t *spec, const char *file, int *fd_out, struct mm_err *e)
{
	int p[2];
	if (pipe(p))
		return mm_errf(e, file, NULL, "pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return mm_errf(e, file, NULL, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* a killed parent takes its simulations with it (they would run on for
		 * nothing, possibly forever on a bad input); the check closes the race
		 * with a parent that died before the prctl */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		close(p[0]);
		struct mm_err ce = { "" };
		json_t *res = sim_run(spec, file, &ce);
		json_t *reply = res ? json_pack("{s:b,s:o}", "ok", 1, "result", res)
				    : json_pack("{s:b,s:s}", "ok", 0, "error", ce.msg);
		char *txt = json_dumps(reply, JSON_COMPACT | JSON_REAL_PRECISION(17));
		if (txt)
			write_all(p[1], txt, strlen(txt));
		close(p[1]);
		/* _exit skips every atexit handler (SimGrid's clean-up among them), so
		 * what the child allocated is freed here: memcheck sees no leak */
		free(txt);
		json_decref(reply);
		_exit(res ? 0 : 1);
	}
	close(p[1]);
	*fd_out = p[0];
	return pid;
}

int runner_finish(const char *reply, size_t len, int status, json_t **result, struct mm_err *e)
{
	*result = NULL;
	json_error_t je;
	json_t *r = len ? json_loadb(reply, len, 0, &je) : NULL;
	if (!r) {
		if (WIFSIGNALED(status))
			mm_errf(e, NULL, NULL, "simulation killed by signal %d (%s)", WTERMSIG(status),
				strsignal(WTERMSIG(status)));
		else
			mm_errf(e, NULL, NULL, "simulation exited with status %d and no result",
				WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return RUNNER_FAILED;
	}
	if (!json_is_true(json_object_get(r, "ok"))) {
		mm_errf(e, NULL, NULL, "%s", json_string_value(json_object_get(r, "error")));
		json_decref(r);
		return RUNNER_FAILED;
	}
	*result = json_incref(json_object_get(r, "result"));
	json_decref(r);
	return RUNNER_OK;
}

int runner_run(json_t *spec, const char *file, json_t **result, struct mm_err *e)
{
	int fd;
	pid_t pid = runner_spawn(spec, file, &fd, e);
	if (pid < 0)
		return RUNNER_FAILED;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			char *t = realloc(buf, cap);
			if (!t)
				break;
			buf = t;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = runner_finish(buf, len, status, result, e);
	free(buf);
	return rc;
}
