/*
 * serve_int.h - what the files of emu/serve share (not for other folders).
 */
#ifndef MMEMU_SERVE_INT_H
#define MMEMU_SERVE_INT_H

#include <jansson.h>

#include "emu/serve/serve.h"

struct run;

struct serve {
	struct event_base *base;
	struct serve_cfg cfg;
	char dir[256];          /* temporary directory: finished runs' files */
	char *roots[4];         /* the directories input files may come from */
	struct run *runs;       /* newest first */
	int next_id;
	int sims_active;        /* simulations of queued and running runs */
};

/** reply_json() - @r = @status with @j (stolen) as JSON. Returns: nothing. */
void reply_json(struct serve_reply *r, int status, json_t *j);

/** reply_error() - @r = @status with {"error": MESSAGE}. Returns: nothing. */
void reply_error(struct serve_reply *r, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** reply_bytes() - @r = @status with a copy of @len bytes of @type. Returns: nothing. */
void reply_bytes(struct serve_reply *r, int status, const char *type, const char *buf, size_t len);

/**
 * body_json() - parse a request body as a JSON object.
 * Returns: the object, or NULL with @r set to 400 "request: line L: ..." or
 * "request: (top): expected a JSON object", as the scenario loader words them.
 */
json_t *body_json(const char *body, size_t len, struct serve_reply *r);

/** body_keys() - check that every key of request @req is one of @keys
 * (NULL-terminated). Returns: 0, or -1 with @r set to 400 "request: KEY: unknown
 * key (expected A, B, ...)". */
int body_keys(json_t *req, const char *const *keys, struct serve_reply *r);

/* api_replay.c: POST /api/replay. */
void api_replay(struct serve *s, json_t *req, struct serve_reply *r);

/* api_list.c: GET /api/list, GET /api/seeds, GET /api/exercises. */
void api_list(struct serve *s, struct serve_reply *r);
void api_seeds(struct serve *s, struct serve_reply *r);
void api_exercises(struct serve *s, struct serve_reply *r);
/** serve_scenario_known() - Returns: 1 if @file is a shipped scenario exactly as
 * GET /api/list names it ("scenarios/teaching/x.json"), else 0. */
int serve_scenario_known(const char *file);

/* runs.c: /api/runs and /api/runs/ID[/plot.svg|/compare]. */
void runs_post(struct serve *s, json_t *req, struct serve_reply *r);
void runs_get(struct serve *s, int id, const char *what, const char *query, struct serve_reply *r);
void runs_delete(struct serve *s, int id, struct serve_reply *r);
void runs_free_all(struct serve *s);

/* pages.c (generated from emu/serve/pages/ by embed.py): the compiled-in files. */
struct serve_asset {
	const char *path;      /* "/", "/replay", "/static/lab.js" */
	const char *type;
	const unsigned char *data;
	size_t len;
};
extern const struct serve_asset serve_assets[];

#endif
