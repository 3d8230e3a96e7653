/*
 * runner.h - run one simulation in a child process and collect its JSON.
 *
 * SimGrid's engine can run once per process, so every simulation is a fork()ed
 * child that runs sim_run() and writes {"ok":true,"result":{...}} or
 * {"ok":false,"error":"..."} on a pipe.  A child that dies without a reply is
 * a run failure with its signal or status named.
 */
#ifndef MMEMU_RUNNER_H
#define MMEMU_RUNNER_H

#include <jansson.h>
#include <sys/types.h>

#include "emu/core/err.h"

enum runner_status { RUNNER_OK = 0, RUNNER_BAD_INPUT = 2, RUNNER_FAILED = 1 };

/**
 * runner_spawn() - fork a child that runs @spec and writes its reply on a pipe.
 * @fd_out: the read end of the pipe
 * Returns: the child's pid, or -1 with @e set.
 */
pid_t runner_spawn(json_t *spec, const char *file, int *fd_out, struct mm_err *e);

/**
 * runner_finish() - parse a child's reply and reap it.
 * @reply: everything the child wrote (may be empty)
 * @status: the child's wait status
 * @result: on success, the new result object
 * Returns: RUNNER_OK, or RUNNER_FAILED / RUNNER_BAD_INPUT with @e set.
 */
int runner_finish(const char *reply, size_t len, int status, json_t **result, struct mm_err *e);

/** runner_run() - spawn, read and reap one simulation. Returns: as runner_finish(). */
int runner_run(json_t *spec, const char *file, json_t **result, struct mm_err *e);

/** now_seconds() - Returns: host monotonic time in seconds (never in results proper). */
double now_seconds(void);

#endif
