/*
 * serve.h - `mmemu serve`: the web lab (docs/serve.md).
 *
 * The server is a request handler, serve_handle(), that knows nothing of HTTP
 * connections: it takes a method, a URI and a body and fills a reply (status,
 * content type, body).  http.c puts it behind libevent's evhttp; the unit tests
 * (tests/test_serve.c) call it directly with crafted requests.  Runs (POST
 * /api/runs) execute in the sweep pool (emu/engine/sweep.h) on the server's own
 * event loop, so the loop keeps answering while simulations run.
 */
#ifndef MMEMU_SERVE_H
#define MMEMU_SERVE_H

#include <stddef.h>

#include "emu/core/err.h"

struct event_base;

struct serve_cfg {
	const char *bind;     /* address to listen on (default 127.0.0.1) */
	int port;             /* default 8080; 0: any free port */
	int max_sims;         /* simulations queued and running over all runs at once */
	double run_limit;     /* seconds a run may take before it is cancelled */
	int jobs;             /* worker processes per run */
	size_t max_body;      /* largest request body in bytes */
	int quiet;            /* no request log lines */
	const char *reproduce;/* the seeds page's file (default results/reproduce.json) */
};

/** serve_cfg_default() - fill @c with the defaults (127.0.0.1:8080, 64
 * simulations, 600 s per run, 2 workers per run, 1 MiB bodies, results/reproduce.json). Returns: nothing. */
void serve_cfg_default(struct serve_cfg *c);

struct serve_reply {
	int status;           /* HTTP status */
	const char *ctype;    /* content type (static string) */
	char *body;           /* malloc'ed, len bytes (may be NULL when len is 0) */
	size_t len;
};

struct serve;

/**
 * serve_new() - a server working in the current directory (the repository: its
 * scenarios/, workloads/ and results/), its runs on @base.  It confines input
 * files to the shipped scenarios and workload inputs (mm_read_confine()) and keeps
 * finished runs' results in a temporary directory it removes in serve_free().
 * Returns: the server, or NULL with @e set.
 */
struct serve *serve_new(struct event_base *base, const struct serve_cfg *cfg, struct mm_err *e);

/**
 * serve_handle() - answer one request.
 * @method: "GET", "POST", "DELETE", ...
 * @uri: the request target ("/api/runs/3?x=1"); the query is ignored
 * @body: the request body, @len bytes (need not be NUL-terminated)
 * Returns: nothing; @r is filled (free r->body).
 */
void serve_handle(struct serve *s, const char *method, const char *uri, const char *body,
		  size_t len, struct serve_reply *r);

/** serve_active_runs() - Returns: runs queued or running (not finished). */
int serve_active_runs(const struct serve *s);

/** serve_free() - cancel every run (its workers killed and reaped), remove the
 * temporary directory, lift the file confinement. Returns: nothing. */
void serve_free(struct serve *s);

/**
 * serve_http() - listen on cfg->bind:cfg->port with evhttp and serve @s until
 * SIGINT or SIGTERM; prints "mmemu serve: listening on http://ADDR:PORT/ ..." as
 * its first line on stdout, then one log line per request on stderr.
 * Returns: 0 after a clean stop, or 2 with a message printed (cannot listen).
 */
int serve_http(struct serve *s, struct event_base *base, const struct serve_cfg *cfg);

#endif
