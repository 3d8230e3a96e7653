/*
 * test_serve.c - `mmemu serve`'s request handler on crafted requests.
 *
 * Design: serve_handle() is called directly (no socket) on a server made by
 * serve_new() in the source tree, its runs on a private event base that the
 * tests turn until the runs end.  Replay answers are checked against exact
 * counts (Belady's string: FIFO 9 faults with 3 frames, 10 with 4) and against
 * `mmemu replay --steps --json` itself (the same object, byte for byte after
 * parsing); CLOCK's bits and hand and OPT's next-use distances at hand-computed
 * steps.  Every error path answers its status with a one-line
 * {"error": "PATH: what was expected"}; the path escapes (a trace or a scenario
 * outside the shipped files, a client scenario naming /etc/passwd) are refused.
 * Runs: a two-point sweep runs to the end (results, plot with its points,
 * compare table), a cancelled run and a run past its time limit leave no child
 * process, and a run beyond max_sims gets 503.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>
#include <jansson.h>

#include "emu/serve/serve.h"

static struct event_base *base;
static struct serve *srv;

/* Send one request; Returns: the status, *@body the reply as a NUL-terminated
 * string (free it). */
static int req(const char *method, const char *uri, const char *body, char **out)
{
	struct serve_reply r;
	serve_handle(srv, method, uri, body, body ? strlen(body) : 0, &r);
	char *s = malloc(r.len + 1);
	memcpy(s, r.body ? r.body : "", r.len);
	s[r.len] = '\0';
	free(r.body);
	if (out)
		*out = s;
	else
		free(s);
	return r.status;
}

/* GET @uri, which must answer 200. Returns: the body (free it). */
static char *get200(const char *uri)
{
	char *s;
	int st = req("GET", uri, NULL, &s);
	if (st != 200)
		fprintf(stderr, "GET %s -> %d %s\n", uri, st, s);
	assert_int_equal(st, 200);
	return s;
}

static json_t *req_json(const char *method, const char *uri, const char *body, int want)
{
	char *s;
	int st = req(method, uri, body, &s);
	if (st != want)
		fprintf(stderr, "%s %s -> %d %s\n", method, uri, st, s);
	assert_int_equal(st, want);
	json_t *j = json_loads(s, 0, NULL);
	assert_non_null(j);
	free(s);
	return j;
}

/* The request must fail with @status and an error line starting with @prefix. */
static void fails(const char *method, const char *uri, const char *body, int status, const char *prefix)
{
	json_t *j = req_json(method, uri, body, status);
	const char *e = json_string_value(json_object_get(j, "error"));
	assert_non_null(e);
	if (strncmp(e, prefix, strlen(prefix)) != 0)
		fprintf(stderr, "error \"%s\" does not start with \"%s\"\n", e, prefix);
	assert_true(strncmp(e, prefix, strlen(prefix)) == 0);
	assert_null(strchr(e, '\n'));
	json_decref(j);
}

static int setup(void **state)
{
	base = event_base_new();
	struct serve_cfg c;
	serve_cfg_default(&c);
	c.max_sims = 12;
	c.jobs = 2;
	struct mm_err e = { "" };
	srv = serve_new(base, &c, &e);
	if (!srv)
		fprintf(stderr, "%s\n", e.msg);
	return srv ? 0 : -1;
}

static int teardown(void **state)
{
	serve_free(srv);
	event_base_free(base);
	return 0;
}

/* Turn the loop until no run is active (at most @secs). */
static void wait_runs(double secs)
{
	struct timeval tv = { 0, 20000 };
	for (int i = 0; i < secs * 50 && serve_active_runs(srv) > 0; i++) {
		event_base_loopexit(base, &tv);
		event_base_dispatch(base);
	}
	assert_int_equal(serve_active_runs(srv), 0);
}

static void list(void **state)
{
	json_t *j = req_json("GET", "/api/list", NULL, 200);
	size_t i;
	json_t *m;
	int clock = 0, lru2q = 0, tp = 0;
	json_array_foreach(json_object_get(j, "reclaim"), i, m) {
		const char *n = json_string_value(json_object_get(m, "name"));
		if (!strcmp(n, "clock")) {
			clock = json_is_true(json_object_get(m, "replay"));
			json_t *p = json_array_get(json_object_get(m, "params"), 0);
			assert_string_equal(json_string_value(json_object_get(p, "key")), "new_page_referenced");
		}
		if (!strcmp(n, "lru2q"))
			lru2q = json_is_false(json_object_get(m, "replay"));
	}
	json_array_foreach(json_object_get(j, "scenarios"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "file")), "scenarios/teaching/trace-policies.json")) {
			tp = 1;
			json_t *p = json_object_get(m, "params");
			assert_string_equal(json_string_value(json_array_get(p, 0)), "workload.frames");
			assert_string_equal(json_string_value(json_object_get(json_object_get(m, "primary"), "name")),
					    "runtime");
		}
	assert_true(clock && lru2q && tp);
	/* a machine parameter with its range */
	json_array_foreach(json_object_get(j, "machine"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "key")), "cpus"))
			assert_non_null(json_object_get(m, "range"));
	json_decref(j);
}

#define BELADY "1,2,3,4,1,2,5,1,2,3,4,5"

static void replay_belady(void **state)
{
	json_t *j = req_json("POST", "/api/replay",
			     "{\"refs\": \"" BELADY "\", \"frames\": [3, 4], \"policies\": [\"fifo\"]}", 200);
	json_t *runs = json_object_get(j, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 0), "faults")), 9);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 1), "faults")), 10);
	/* exactly what `mmemu replay --steps --json` prints */
	const char *mmemu = getenv("MMEMU");
	assert_non_null(mmemu);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "%s replay --policy fifo --frames 4 --refs " BELADY " --steps --json", mmemu);
	FILE *p = popen(cmd, "r");
	json_error_t je;
	json_t *cli = json_loadf(p, 0, &je);
	assert_int_equal(pclose(p), 0);
	assert_non_null(cli);
	assert_true(json_equal(cli, json_array_get(runs, 1)));
	json_decref(cli);
	json_decref(j);
}

static void replay_clock_opt(void **state)
{
	json_t *j = req_json("POST", "/api/replay",
			     "{\"refs\": \"" BELADY "\", \"frames\": 3, \"policies\": [\"clock\", \"opt\"],"
			     " \"params\": {\"clock\": {\"new_page_referenced\": true}}}", 200);
	json_t *ck = json_array_get(json_object_get(j, "runs"), 0);
	json_t *op = json_array_get(json_object_get(j, "runs"), 1);
	assert_true(json_is_true(json_object_get(json_object_get(ck, "params"), "new_page_referenced")));
	/* CLOCK, new pages referenced: after 1 2 3 every bit is set, hand at 0; the
	 * fault on 4 clears all three bits in one revolution, evicts frame 0 (page 1)
	 * and leaves the hand at 1 */
	json_t *s = json_array_get(json_object_get(ck, "steps"), 3);
	char *txt = json_dumps(s, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(txt, "{\"fault\":true,\"frames\":[4,2,3],\"hand\":1,\"ref\":4,\"ref_bits\":[1,0,0],\"victim\":1}");
	free(txt);
	/* OPT: 7 faults; after the 4th reference (4 evicts 3) the next uses of 1, 2, 4
	 * are 1, 2 and 7 references ahead; at the end nothing is used again */
	assert_int_equal(json_integer_value(json_object_get(op, "faults")), 7);
	s = json_array_get(json_object_get(op, "steps"), 3);
	txt = json_dumps(json_object_get(s, "next_use"), JSON_COMPACT);
	assert_string_equal(txt, "[1,2,7]");
	free(txt);
	assert_int_equal(json_integer_value(json_object_get(s, "victim")), 3);
	s = json_array_get(json_object_get(op, "steps"), 11);
	txt = json_dumps(json_object_get(s, "next_use"), JSON_COMPACT);
	assert_string_equal(txt, "[null,null,null]");
	free(txt);
	json_decref(j);
	/* a shipped trace by its path */
	j = req_json("POST", "/api/replay", "{\"trace\": \"scenarios/teaching/zipf-20k.trace\", \"frames\": 2,"
		     " \"policies\": [\"lru\"]}", 200);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(j, "runs"), 0), "refs")),
			 20000);
	json_decref(j);
}

static void replay_errors(void **state)
{
	const char *P = "/api/replay";
	fails("POST", P, "{\"refs\": ", 400, "request: line 1: ");
	fails("POST", P, "", 400, "request: ");
	fails("POST", P, "[1]", 400, "request: (top): expected a JSON object");
	fails("POST", P, "{\"refs\": \"1\", \"frame\": 3}", 400, "request: frame: unknown key");
	fails("POST", P, "{\"frames\": 3, \"policies\": [\"lru\"]}", 400, "request: expected exactly one of refs");
	fails("POST", P, "{\"refs\": \"1\", \"trace\": \"x\", \"frames\": 3, \"policies\": [\"lru\"]}", 400,
	      "request: expected exactly one of refs");
	fails("POST", P, "{\"refs\": 1, \"frames\": 3, \"policies\": [\"lru\"]}", 400, "request: refs: expected a reference string");
	fails("POST", P, "{\"refs\": \"1,x\", \"frames\": 3, \"policies\": [\"lru\"]}", 400, "request: refs: position 3: expected");
	fails("POST", P, "{\"trace\": 7, \"frames\": 3, \"policies\": [\"lru\"]}", 400, "request: trace: expected the path");
	fails("POST", P, "{\"trace\": \"scenarios/../../../../etc/passwd\", \"frames\": 3, \"policies\": [\"lru\"]}", 400,
	      "request: trace: scenarios/../../../../etc/passwd: expected a shipped scenario or workload input");
	fails("POST", P, "{\"trace\": \"/etc/passwd\", \"frames\": 3, \"policies\": [\"lru\"]}", 400,
	      "request: trace: /etc/passwd: expected a shipped scenario or workload input");
	fails("POST", P, "{\"trace\": \"scenarios/none.trace\", \"frames\": 3, \"policies\": [\"lru\"]}", 400,
	      "request: trace: scenarios/none.trace: cannot open");
	fails("POST", P, "{\"refs\": \"1\", \"policies\": [\"lru\"]}", 400, "request: frames: missing");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 0, \"policies\": [\"lru\"]}", 400, "request: frames: expected an integer in 1..100000, got 0");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 100001, \"policies\": [\"lru\"]}", 400, "request: frames: expected an integer in 1..100000");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": [3, \"4\"], \"policies\": [\"lru\"]}", 400, "request: frames[1]: expected an integer");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": [], \"policies\": [\"lru\"]}", 400, "request: frames: expected an integer in 1..100000 or an array");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3}", 400, "request: policies: expected a non-empty array");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": []}", 400, "request: policies: expected a non-empty array");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [1]}", 400, "request: policies[0]: expected a reclaim module name");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"lru\", \"nope\"]}", 400,
	      "request: policies[1]: expected a reclaim module replay runs (");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"lru2q\"]}", 400,
	      "request: policies[0]: expected a reclaim module replay runs (");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": [1,2,3,4,5,6,7,8,9], \"policies\": [\"lru\",\"fifo\",\"opt\",\"clock\"]}", 400,
	      "request: policies: expected at most 32 policies x frame counts, got 36");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"lru\"], \"params\": 3}", 400, "request: params: expected an object");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"clock\"], \"params\": {\"clock\": 1}}", 400,
	      "request: params.clock: expected an object of module parameters");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"clock\"], \"params\": {\"clock\": {\"bogus\": 1}}}", 400,
	      "request: params.clock.bogus: ");
	fails("POST", P, "{\"refs\": \"1\", \"frames\": 3, \"policies\": [\"clock\"], \"params\": {\"clock\": {\"new_page_referenced\": 3}}}", 400,
	      "request: params.clock.new_page_referenced: ");
	fails("POST", P, "{\"trace\": \"scenarios/teaching/zipf-20k.trace\", \"frames\": 11, \"policies\": [\"lru\"]}", 400,
	      "request: policies[0]: expected at most 200000 references x frames for a step table, got 20000 x 11");
}

/* Every exercise under scenarios/teaching/exercises: its request answers what its
 * "expect" says ({"POLICY/FRAMES": faults}), so the answers it gives are true. */
static void exercises(void **state)
{
	json_t *j = req_json("GET", "/api/exercises", NULL, 200);
	json_t *ex = json_object_get(j, "exercises");
	assert_true(json_array_size(ex) >= 4);
	size_t i;
	json_t *x;
	json_array_foreach(ex, i, x) {
		assert_non_null(json_string_value(json_object_get(x, "question")));
		assert_non_null(json_string_value(json_object_get(x, "answer")));
		char *body = json_dumps(json_object_get(x, "request"), JSON_COMPACT);
		json_t *a = req_json("POST", "/api/replay", body, 200);
		free(body);
		json_t *expect = json_object_get(x, "expect");
		size_t k;
		json_t *run;
		json_array_foreach(json_object_get(a, "runs"), k, run) {
			char key[64];
			snprintf(key, sizeof key, "%s/%lld", json_string_value(json_object_get(run, "policy")),
				 (long long)json_integer_value(json_object_get(run, "frames")));
			json_t *want = json_object_get(expect, key);
			if (!want)
				fprintf(stderr, "%s: no expected faults for %s\n",
					json_string_value(json_object_get(x, "file")), key);
			assert_non_null(want);
			assert_int_equal(json_integer_value(json_object_get(run, "faults")), json_integer_value(want));
		}
		assert_int_equal(json_array_size(json_object_get(a, "runs")), json_object_size(expect));
		json_decref(a);
	}
	json_decref(j);
}

static void routes(void **state)
{
	fails("GET", "/api/replay", NULL, 405, "/api/replay: only POST");
	fails("POST", "/api/list", "{}", 405, "/api/list: only GET");
	fails("DELETE", "/", NULL, 405, "/: only GET");
	fails("GET", "/nope", NULL, 404, "/nope: no such page");
	fails("GET", "/api", NULL, 404, "/api: no such page");
	fails("GET", "/api/runs/abc", NULL, 404, "/api/runs/abc: no such page");
	fails("GET", "/api/runs/1/other", NULL, 404, "/api/runs/1/other: no such page");
	fails("GET", "/api/runs/999", NULL, 404, "run 999: no such run");
	fails("DELETE", "/api/runs/999", NULL, 404, "run 999: no such run");
	fails("PUT", "/api/runs/999", NULL, 405, "/api/runs/999: only GET and DELETE");
	fails("GET", "/static/../serve.c", NULL, 404, "/static/../serve.c: no such page");
	fails("GET", "/docs/seeds/../../README.md", NULL, 404, "/docs/seeds/../../README.md: no such page");
	fails("GET", "/docs/seeds/x.md", NULL, 404, "x.md: expected a seed report NNN.md");
	fails("GET", "/docs/seeds/999.md", NULL, 404, "docs/seeds/999.md: cannot open");
	char *s;
	assert_int_equal(req("GET", "/docs/seeds/004.md", NULL, &s), 200);
	assert_non_null(strstr(s, "colour"));
	free(s);
	/* the pages and their scripts are compiled in */
	const char *pages[] = { "/", "/replay", "/whatif", "/seeds", "/static/lab.js", "/static/lab.css", "/replay?x=1" };
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		assert_int_equal(req("GET", pages[i], NULL, &s), 200);
		assert_true(strlen(s) > 100);
		free(s);
	}
	assert_int_equal(req("GET", "/api/exercises", NULL, &s), 200);
	free(s);
}

static void run_errors(void **state)
{
	const char *P = "/api/runs";
	fails("GET", P, NULL, 405, "/api/runs: only POST");
	fails("POST", P, "{\"scenario\": 1", 400, "request: line 1: ");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"x\": 1}", 400, "request: x: unknown key");
	fails("POST", P, "{}", 400, "request: expected exactly one of scenario");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"scenario_json\": {}}", 400,
	      "request: expected exactly one of scenario");
	fails("POST", P, "{\"scenario\": \"/etc/passwd\"}", 400, "request: scenario: expected a shipped scenario");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/../../tests/bad/x.json\"}", 400, "request: scenario: expected a shipped scenario");
	fails("POST", P, "{\"scenario\": 3}", 400, "request: scenario: expected a shipped scenario");
	fails("POST", P, "{\"scenario_json\": []}", 400, "request: scenario_json: expected a scenario object");
	/* plugins are shared objects: never loaded by the server */
	fails("POST", P, "{\"scenario_json\": {\"plugins\": [\"/tmp/x.so\"]}}", 400,
	      "request: scenario_json.plugins: this server does not load plugins");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"set\": {\"plugins\": [\"/tmp/x.so\"]}}",
	      400, "request: set.plugins: this server does not load plugins");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"set\": {\"plugins[0]\": \"/tmp/x.so\"}}",
	      400, "request: set.plugins: this server does not load plugins");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"set\": 1}", 400, "request: set: expected an object");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"sweep\": 1}", 400, "request: sweep: expected {");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"sweep\": {\"key\": \"workload.frames\"}}", 400,
	      "request: sweep: expected {");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"sweep\": {\"key\": \"workload.frames\", \"values\": []}}", 400,
	      "request: sweep.values: expected an array of 1 to 64 values");
	/* the scenario loader's own messages, as `mmemu run --set` prints them */
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"sweep\": {\"key\": \"bogus\", \"values\": [1]}}", 400,
	      "scenarios/teaching/trace-policies.json: sweep.bogus: expected a parameter path");
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\", \"set\": {\"machine.cpus\": 0}}", 400,
	      "scenarios/teaching/trace-policies.json: machine.cpus: ");
	/* a client's scenario may only name shipped inputs */
	json_t *sc = json_load_file("scenarios/teaching/trace-policies.json", 0, NULL);
	assert_non_null(sc);
	json_object_set_new(json_object_get(sc, "workload"), "file", json_string("/etc/passwd"));
	json_t *rq = json_pack("{s:o}", "scenario_json", sc);
	char *body = json_dumps(rq, JSON_COMPACT);
	json_decref(rq);
	fails("POST", P, body, 400, "scenario: workload.file: /etc/passwd: expected a shipped scenario or workload input");
	free(body);
	/* more simulations than max_sims (12): 4 kernels x 4 points */
	fails("POST", P, "{\"scenario\": \"scenarios/teaching/trace-policies.json\"}", 503,
	      "request: the run has 16 simulations and 0 are queued or running; this server takes at most 12");
	assert_int_equal(serve_active_runs(srv), 0);
}

/* The primary value of @kernel at frames @x in results @res. */
static double value_at(json_t *res, const char *kernel, int x)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(res, "runs"), i, r)
		if (!strcmp(json_string_value(json_object_get(r, "kernel")), kernel) &&
		    json_integer_value(json_object_get(json_object_get(r, "point"), "workload.frames")) == x)
			return json_number_value(json_object_get(json_object_get(r, "primary"), "value"));
	fail();
	return 0;
}

static void run_sweep(void **state)
{
	json_t *j = req_json("POST", "/api/runs", "{\"scenario\": \"scenarios/teaching/trace-policies.json\","
			     " \"set\": {\"runs\": 1}, \"sweep\": {\"key\": \"workload.frames\", \"values\": [500, 1000]}}", 201);
	int id = (int)json_integer_value(json_object_get(j, "id"));
	assert_int_equal(json_integer_value(json_object_get(j, "total")), 8);
	json_decref(j);
	char uri[64], *s;
	snprintf(uri, sizeof uri, "/api/runs/%d/plot.svg", id);
	fails("GET", uri, NULL, 409, "run ");
	/* over max_sims while it runs: 8 + 8 > 12 */
	fails("POST", "/api/runs", "{\"scenario\": \"scenarios/teaching/trace-policies.json\","
	      " \"sweep\": {\"key\": \"workload.frames\", \"values\": [500, 1000]}}", 503,
	      "request: the run has 8 simulations and 8 are queued or running");
	wait_runs(120);
	snprintf(uri, sizeof uri, "/api/runs/%d", id);
	j = req_json("GET", uri, NULL, 200);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "done");
	assert_int_equal(json_integer_value(json_object_get(j, "done")), 8);
	json_t *res = json_object_get(j, "results");
	assert_int_equal(json_array_size(json_object_get(res, "runs")), 8);
	/* fewer faults with more frames, OPT fewest */
	assert_true(value_at(res, "lru", 1000) < value_at(res, "lru", 500));
	assert_true(value_at(res, "opt", 500) < value_at(res, "fifo", 500));
	/* the plot carries every point's value */
	snprintf(uri, sizeof uri, "/api/runs/%d/plot.svg", id);
	s = get200(uri);
	char want[200];
	snprintf(want, sizeof want, "<title>opt at 1000: %.10g</title>", value_at(res, "opt", 1000));
	assert_non_null(strstr(s, want));
	free(s);
	snprintf(uri, sizeof uri, "/api/runs/%d/compare", id);
	s = get200(uri);
	assert_non_null(strstr(s, "runtime"));
	free(s);
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?format=json", id);
	json_decref(req_json("GET", uri, NULL, 200));
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?format=pdf", id);
	fails("GET", uri, NULL, 400, "request: format: expected text, markdown, csv or json");
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?metric=runtime&monitors=0", id);
	assert_int_equal(req("GET", uri, NULL, &s), 200);
	assert_non_null(strstr(s, "runtime"));
	assert_null(strstr(s, "faults"));
	free(s);
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?metric=nope", id);
	fails("GET", uri, NULL, 400, "mmemu compare: --metric: no metric \"nope\" in the results");
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?metric=a/b", id);
	fails("GET", uri, NULL, 400, "request: metric: expected a metric name");
	snprintf(uri, sizeof uri, "/api/runs/%d/compare?monitors=2", id);
	fails("GET", uri, NULL, 400, "request: monitors: expected 0 or 1");
	json_decref(j);
	snprintf(uri, sizeof uri, "/api/runs/%d", id);
	j = req_json("DELETE", uri, NULL, 200);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "deleted");
	json_decref(j);
	fails("GET", uri, NULL, 404, "run ");
}

/* No child process of this test is left (workers are killed and reaped). */
static void no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void run_cancel(void **state)
{
	/* 2read-small runs for seconds: cancel it while its workers run */
	json_t *j = req_json("POST", "/api/runs", "{\"scenario\": \"scenarios/teaching/2read-small.json\","
			     " \"set\": {\"runs\": 1}}", 201);
	int id = (int)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	char uri[64];
	snprintf(uri, sizeof uri, "/api/runs/%d", id);
	j = req_json("DELETE", uri, NULL, 200);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "cancelled");
	json_decref(j);
	no_children();
	j = req_json("GET", uri, NULL, 200);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "cancelled");
	assert_string_equal(json_string_value(json_object_get(j, "error")), "cancelled (DELETE)");
	json_decref(j);
	snprintf(uri, sizeof uri, "/api/runs/%d/compare", id);
	fails("GET", uri, NULL, 409, "run ");
	assert_int_equal(serve_active_runs(srv), 0);
}

static void run_time_limit(void **state)
{
	struct serve_cfg c;
	serve_cfg_default(&c);
	c.run_limit = 0.2;
	struct serve *keep = srv;
	struct mm_err e = { "" };
	srv = serve_new(base, &c, &e);
	assert_non_null(srv);
	json_t *j = req_json("POST", "/api/runs", "{\"scenario\": \"scenarios/teaching/2read-small.json\","
			     " \"set\": {\"runs\": 1}}", 201);
	int id = (int)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	wait_runs(30);
	no_children();
	char uri[64];
	snprintf(uri, sizeof uri, "/api/runs/%d", id);
	j = req_json("GET", uri, NULL, 200);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "failed");
	assert_string_equal(json_string_value(json_object_get(j, "error")),
			    "time limit of 0.2 s reached (run cancelled, workers killed)");
	json_decref(j);
	serve_free(srv);
	srv = keep;
}

/* `mmemu serve` with bad options, an address it cannot bind, outside the
 * repository: exit 2, one line on stderr, nothing on stdout. */
static void cli_errors(void **state)
{
	const char *mmemu = getenv("MMEMU");
	assert_non_null(mmemu);
	const struct { const char *args, *line; } c[] = {
		{ "--port 70000", "mmemu serve: --port: expected an integer in 0..65535, not \"70000\" (see mmemu serve --help)" },
		{ "--port", "mmemu serve: option --port needs a value (see mmemu serve --help)" },
		{ "--max-sims 0", "mmemu serve: --max-sims: expected an integer in 1..100000, not \"0\" (see mmemu serve --help)" },
		{ "--run-limit x", "mmemu serve: --run-limit: expected seconds in 1..604800, not \"x\" (see mmemu serve --help)" },
		{ "-j 0", "mmemu serve: -j: expected an integer in 1..1024, not \"0\" (see mmemu serve --help)" },
		{ "--bogus", "mmemu serve: unknown option --bogus (see mmemu serve --help)" },
		{ "extra", "mmemu serve: unexpected argument \"extra\" (see mmemu serve --help)" },
		{ "--bind 256.0.0.1 --port 0", "mmemu serve: --bind 256.0.0.1 --port 0: cannot listen there (getaddrinfo: nodename nor servname provided, or not known)" },
		{ "--port 0 -C /", NULL },
	};
	char dir[] = "/tmp/mmemu-serve-test.XXXXXX";
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char cmd[1200], out[300], err[300];
		snprintf(out, sizeof out, "%s/out", dir);
		snprintf(err, sizeof err, "%s/err", dir);
		if (c[i].line)
			snprintf(cmd, sizeof cmd, "%s serve %s >%s 2>%s", mmemu, c[i].args, out, err);
		else   /* outside the repository: no scenarios/ to serve */
			snprintf(cmd, sizeof cmd, "cd / && %s serve --port 0 >%s 2>%s", mmemu, out, err);
		int st = system(cmd);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 2);
		char buf[600] = "";
		FILE *f = fopen(out, "r");
		assert_int_equal(fread(buf, 1, sizeof buf, f), 0);
		fclose(f);
		f = fopen(err, "r");
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		assert_true(n > 0 && buf[n - 1] == '\n');
		buf[n - 1] = '\0';
		assert_null(strchr(buf, '\n'));
		assert_string_equal(buf, c[i].line ? c[i].line
				    : "mmemu serve: scenarios: not found: run mmemu serve in the mmemu repository "
				      "(it serves its scenarios/, workloads/ and results/)");
		unlink(out);
		unlink(err);
	}
	rmdir(dir);
}

int main(void)
{
#ifdef MMEMU_SRCDIR
	if (chdir(MMEMU_SRCDIR) != 0)
		return 1;
#endif
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list),           cmocka_unit_test(replay_belady),
		cmocka_unit_test(replay_clock_opt), cmocka_unit_test(replay_errors),
		cmocka_unit_test(exercises),
		cmocka_unit_test(routes),         cmocka_unit_test(run_errors),
		cmocka_unit_test(run_sweep),      cmocka_unit_test(run_cancel),
		cmocka_unit_test(run_time_limit), cmocka_unit_test(cli_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
