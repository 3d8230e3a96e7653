/*
 * serve.c - the request handler of `mmemu serve` (see serve.h): routing, replies,
 * the server's life (temporary directory, input confinement).
 *
 * Design: serve_handle() splits the URI path into segments and dispatches on
 * (method, path) to the handlers of api_*.c and runs.c; pages and their scripts
 * are compiled-in files (pages.c, generated from emu/serve/pages/ by embed.py).
 * Every reply body is built whole in memory; an error is always
 * {"error": "ONE LINE"} with the line the command line would print, e.g.
 * "request: frames: expected an integer in 1..4294967294".  A known path asked
 * with another method gets 405, anything else 404.
 */
#include "emu/serve/serve_int.h"

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/core/readfile.h"

void serve_cfg_default(struct serve_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->bind = "127.0.0.1";
	c->port = 8080;
	c->max_sims = 64;
	c->run_limit = 600;
	c->jobs = 2;
	c->max_body = (size_t)1 << 20;
	c->reproduce = "results/reproduce.json";
}

void reply_bytes(struct serve_reply *r, int status, const char *type, const char *buf, size_t len)
{
	r->status = status;
	r->ctype = type;
	r->body = malloc(len ? len : 1);
	r->len = r->body ? len : 0;
	if (r->body && len)
		memcpy(r->body, buf, len);
}

void reply_json(struct serve_reply *r, int status, json_t *j)
{
	char *txt = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	json_decref(j);
	if (!txt) {
		static const char oom[] = "{\"error\":\"server: out of memory\"}";
		reply_bytes(r, 500, "application/json", oom, sizeof oom - 1);
		return;
	}
	r->status = status;
	r->ctype = "application/json";
	r->body = txt;
	r->len = strlen(txt);
}

void reply_error(struct serve_reply *r, int status, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	reply_json(r, status, json_pack("{s:s}", "error", msg));
}

json_t *body_json(const char *body, size_t len, struct serve_reply *r)
{
	json_error_t je;
	json_t *j = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		if (je.line < 1)   /* the scenario loader's words (json_verdict) */
			reply_error(r, 400, "request: %s", je.text);
		else
			reply_error(r, 400, "request: line %d: %s", je.line, je.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		reply_error(r, 400, "request: (top): expected a JSON object");
		return NULL;
	}
	return j;
}

int body_keys(json_t *req, const char *const *keys, struct serve_reply *r)
{
	const char *key;
	json_t *v;
	json_object_foreach(req, key, v) {
		int known = 0;
		for (const char *const *k = keys; *k; k++)
			known |= strcmp(key, *k) == 0;
		if (!known) {
			char list[300];
			size_t n = 0;
			for (const char *const *k = keys; *k && n < sizeof list; k++)
				n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", *k);
			reply_error(r, 400, "request: %s: unknown key (expected %s)", key, list);
			return -1;
		}
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

struct serve *serve_new(struct event_base *base, const struct serve_cfg *cfg, struct mm_err *e)
{
	struct serve *s = calloc(1, sizeof *s);
	if (!s) {
		mm_errf(e, NULL, NULL, "out of memory");
		return NULL;
	}
	s->base = base;
	s->cfg = *cfg;
	s->next_id = 1;
	if (access("scenarios", R_OK) != 0) {
		mm_errf(e, "scenarios", NULL, "not found: run mmemu serve in the mmemu repository "
			"(it serves its scenarios/, workloads/ and results/)");
		free(s);
		return NULL;
	}
	/* input files: the shipped scenarios and the workload inputs they name */
	const char *roots[] = { "scenarios", "workloads", "/usr/share/dbench" };
	int n = 0;
	for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
		char *real = realpath(roots[i], NULL);
		if (real)
			s->roots[n++] = real;
	}
	s->roots[n] = NULL;
	const char *tmp = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s/mmemu-serve.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		mm_errf(e, s->dir, NULL, "cannot create the run directory (%s)", strerror(errno));
		for (int i = 0; s->roots[i]; i++)
			free(s->roots[i]);
		free(s);
		return NULL;
	}
	mm_read_confine((const char *const *)s->roots);
	return s;
}

void serve_free(struct serve *s)
{
	if (!s)
		return;
	runs_free_all(s);
	mm_read_confine(NULL);
	nftw(s->dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	for (int i = 0; s->roots[i]; i++)
		free(s->roots[i]);
	free(s);
}

/* Returns: the compiled-in file at @path, or NULL. */
static const struct serve_asset *asset(const char *path)
{
	for (const struct serve_asset *a = serve_assets; a->path; a++)
		if (strcmp(a->path, path) == 0)
			return a;
	return NULL;
}

/* Returns: the run id a path segment names (decimal digits, at most 9), or -1. */
static int run_id(const char *seg)
{
	size_t n = strlen(seg);
	if (n == 0 || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)seg[i]))
			return -1;
	return atoi(seg);
}

/* GET /docs/seeds/NNN.md: a seed's report (three digits only: no other file). */
static void seed_report(struct serve *s, const char *name, struct serve_reply *r)
{
	if (strlen(name) != 6 || !isdigit((unsigned char)name[0]) || !isdigit((unsigned char)name[1]) ||
	    !isdigit((unsigned char)name[2]) || strcmp(name + 3, ".md") != 0) {
		reply_error(r, 404, "%s: expected a seed report NNN.md", name);
		return;
	}
	char path[64], *buf = NULL;
	size_t len = 0;
	struct mm_err e = { "" };
	snprintf(path, sizeof path, "docs/seeds/%s", name);
	mm_read_confine(NULL);   /* a fixed path under docs/, not a client's file name */
	int rc = mm_read_file(path, "seed report", (size_t)4 << 20, &buf, &len, &e);
	mm_read_confine((const char *const *)s->roots);
	if (rc) {
		reply_error(r, 404, "%s", e.msg);
	} else {
		reply_bytes(r, 200, "text/plain; charset=utf-8", buf, len);
		free(buf);
	}
}

void serve_handle(struct serve *s, const char *method, const char *uri, const char *body,
		  size_t len, struct serve_reply *r)
{
	memset(r, 0, sizeof *r);
	char path[512];
	size_t n = strcspn(uri, "?#");
	if (n >= sizeof path) {
		reply_error(r, 404, "request: the path is too long");
		return;
	}
	memcpy(path, uri, n);
	path[n] = '\0';
	int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	int post = strcmp(method, "POST") == 0, del = strcmp(method, "DELETE") == 0;
	const struct serve_asset *a = asset(path);
	if (a) {
		if (!get)
			reply_error(r, 405, "%s: only GET", path);
		else
			reply_bytes(r, 200, a->type, (const char *)a->data, a->len);
		return;
	}
	/* split "/api/runs/7/plot.svg" into at most 5 segments */
	char *seg[5] = { 0 };
	int ns = 0;
	for (char *p = path, *tok; ns < 5 && (tok = strsep(&p, "/"));)
		if (*tok)
			seg[ns++] = tok;
	if (ns == 3 && strcmp(seg[0], "docs") == 0 && strcmp(seg[1], "seeds") == 0) {
		if (!get)
			reply_error(r, 405, "%s: only GET", uri);
		else
			seed_report(s, seg[2], r);
		return;
	}
	if (ns < 2 || strcmp(seg[0], "api") != 0) {
		reply_error(r, 404, "%.*s: no such page", (int)n, uri);
		return;
	}
	const char *what = seg[1];
	if (ns == 2 && (!strcmp(what, "list") || !strcmp(what, "seeds") || !strcmp(what, "exercises"))) {
		if (!get)
			reply_error(r, 405, "/api/%s: only GET", what);
		else if (!strcmp(what, "list"))
			api_list(s, r);
		else if (!strcmp(what, "seeds"))
			api_seeds(s, r);
		else
			api_exercises(s, r);
		return;
	}
	if (ns == 2 && (!strcmp(what, "replay") || !strcmp(what, "runs"))) {
		if (!post) {
			reply_error(r, 405, "/api/%s: only POST", what);
			return;
		}
		json_t *req = body_json(body, len, r);
		if (!req)
			return;
		if (!strcmp(what, "replay"))
			api_replay(s, req, r);
		else
			runs_post(s, req, r);
		json_decref(req);
		return;
	}
	if (!strcmp(what, "runs") && (ns == 3 || ns == 4)) {
		int id = run_id(seg[2]);
		const char *sub = ns == 4 ? seg[3] : "";
		if (id < 0 || (ns == 4 && strcmp(sub, "plot.svg") && strcmp(sub, "compare"))) {
			reply_error(r, 404, "%.*s: no such page", (int)n, uri);
		} else if (get) {
			runs_get(s, id, sub, uri + n, r);
		} else if (del && ns == 3) {
			runs_delete(s, id, r);
		} else {
			reply_error(r, 405, "%.*s: only GET%s", (int)n, uri, ns == 3 ? " and DELETE" : "");
		}
		return;
	}
	reply_error(r, 404, "%.*s: no such page", (int)n, uri);
}
