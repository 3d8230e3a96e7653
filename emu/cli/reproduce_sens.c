/*
 * reproduce_sens.c - `mmemu reproduce --sensitivity` and the robustness marks
 * every `reproduce` prints (reproduce.h; docs/compare.md, "Fragility").
 *
 * Design: a seed's judgement constants are the union of its scenarios'
 * "judgement" declarations (emu/engine/judgement.h), by path.  For each constant
 * and each end of its range that differs from the scenario's value, one
 * variant: every part of the seed that declares the constant is reloaded with
 * the end set (scenario_load_set(), so the rerun is validated like any --set and
 * has its own hash), the other parts keep their base runs.  All variants of all
 * seeds run in one sweep pool, their simulations kept under
 * RUNS/sensitivity/STEM.SLUG.d so a second --sensitivity by the same executable
 * costs nothing.  Each variant is judged exactly as the base (verdict_seed())
 * and its verdicts compared claim by claim (keyed by group label and id) with
 * the base's.  RUNS/sensitivity.json keeps, per seed, the constants, each
 * variant's flips and host seconds, and the base verdicts the flips were
 * measured against; sens_mark() reads it on every `reproduce`: a claim is
 * fragile when some variant flips it, robust when none does and every end was
 * rerun, untested when the claim is not checked (nothing to flip), the seed has
 * no record, declares no constants, not every
 * end was rerun yet (--sensitivity-only reruns one constant and keeps the
 * others' reruns), or its verdict changed since.  A seed with no record in
 * the runs directory takes the one shipped beside the published directory
 * (results/sensitivity.json, copied from a full --sensitivity run), so a fresh
 * clone shows the marks; the verdict check keeps them honest when a model
 * changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu/analysis/published.h"
#include "emu/analysis/report.h"
#include "emu/analysis/verdict.h"
#include "emu/cli/reproduce.h"
#include "emu/engine/judgement.h"
#include "emu/engine/results.h"
#include "emu/engine/sweep.h"

/* One variant: a seed rerun with one constant at one end. */
struct variant {
	struct seed *base;          /* part 0 of the seed */
	const char *path;
	json_t *value, *current, *source;
	struct scenario sc[PUBLISHED_MAX_PARTS];
	int loaded[PUBLISHED_MAX_PARTS];
	char results[PUBLISHED_MAX_PARTS][1500];
	json_t *res[PUBLISHED_MAX_PARTS];   /* the rerun parts' results */
	int failed;
};

/* Every claim's verdict of seed object @o, keyed "label/id" (single-table
 * groups) or "id".  Returns: a new object. */
static json_t *verdicts_of(json_t *o)
{
	json_t *out = json_object();
	size_t i, gi;
	json_t *cl, *g;
	char key[400];
	json_array_foreach(json_object_get(o, "claims"), i, cl)
		json_object_set(out, json_string_value(json_object_get(cl, "id")), json_object_get(cl, "verdict"));
	json_t *tables = json_object_get(o, "tables");
	json_array_foreach(tables, gi, g) {
		const char *lbl = json_string_value(json_object_get(g, "label")) ?: "";
		json_array_foreach(json_object_get(g, "claims"), i, cl) {
			snprintf(key, sizeof key, "%s%s%s", json_array_size(tables) > 1 ? lbl : "",
				 json_array_size(tables) > 1 ? "/" : "", json_string_value(json_object_get(cl, "id")));
			json_object_set(out, key, json_object_get(cl, "verdict"));
		}
	}
	return out;
}

/* "PATH=VALUE" with every character but [A-Za-z0-9.=-] as '_': a file name part. */
static void slug(char *b, size_t n, const char *path, json_t *v)
{
	char *vt = report_json_text(v);
	snprintf(b, n, "%s=%s", path, vt ? vt : "?");
	free(vt);
	for (char *p = b; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '=' || *p == '-'))
			*p = '_';
}

/* The seed's judgement constants: {path: {current, range, source}} over its loaded parts. */
static json_t *constants_of(struct seed *s)
{
	json_t *out = json_object();
	for (int k = 0; k < s->nparts; k++) {
		if (!s[k].loaded)
			continue;
		size_t i;
		json_t *d;
		json_array_foreach(json_object_get(s[k].sc.root, "judgement"), i, d) {
			const char *p = json_string_value(json_object_get(d, "path"));
			if (json_object_get(out, p))
				continue;
			json_object_set_new(out, p, json_pack("{s:O,s:O,s:O}", "current",
							      judgement_value(s[k].sc.root, p), "range",
							      json_object_get(d, "range"), "source",
							      json_object_get(d, "source")));
		}
	}
	return out;
}

/* Does part @q declare @path among its judgement constants? */
static int declares(const struct seed *q, const char *path)
{
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(q->sc.root, "judgement"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "path")), path))
			return 1;
	return 0;
}

/* Load variant @v's parts.  Returns: 0, or 2 after a message on stderr. */
static int load_variant(const struct opts *o, struct variant *v)
{
	struct seed *s = v->base;
	struct mm_err e = { "" };
	char sl[300], stem[256];
	slug(sl, sizeof sl, v->path, v->value);
	for (int k = 0; k < s->nparts; k++) {
		struct seed *q = &s[k];
		if (!q->loaded || !declares(q, v->path))
			continue;
		json_t *set = judgement_set(q->sc.root, v->path, v->value);
		int rc = set ? scenario_load_set(&v->sc[k], q->scenario, set, &e) : -1;
		json_decref(set);
		if (rc) {
			fprintf(stderr, "mmemu: %s\n", set ? e.msg : "judgement path not found");
			return 2;
		}
		v->loaded[k] = 1;
		sweep_stem(q->scenario, stem, sizeof stem);
		snprintf(v->results[k], sizeof v->results[k], "%s/sensitivity/%s.%s.json", o->runsdir, stem, sl);
	}
	return 0;
}

/* Judge variant @v and record it into @runs against the base verdicts @base. */
static void judge_variant(struct variant *v, json_t *base, json_t *runs)
{
	struct seed *s = v->base;
	json_t *res = json_pack("{s:s,s:[]}", "format", "mmemu-results/1", "runs");
	double wall = 0;
	for (int k = 0; k < s->nparts; k++) {
		json_t *r = v->loaded[k] ? json_object_get(v->res[k], "runs") : s[k].own;
		if (r)
			json_array_extend(json_object_get(res, "runs"), r);
		if (v->loaded[k])
			wall += json_number_value(json_object_get(json_object_get(v->res[k], "host"), "wall_seconds"));
	}
	json_t *rec = json_pack("{s:s,s:O,s:O,s:O,s:f,s:[]}", "path", v->path, "current", v->current, "value", v->value,
				"source", v->source, "host_seconds", wall, "flips");
	if (v->failed) {
		json_object_set_new(rec, "error", json_string("a rerun failed: no verdicts"));
	} else {
		struct verdict_seed_in in = { s->pub, s->id, "sensitivity rerun", "", res, "", 0, NULL };
		json_t *o = verdict_seed(&in), *now = verdicts_of(o);
		const char *key;
		json_t *bv;
		json_object_foreach(base, key, bv) {
			json_t *nv = json_object_get(now, key);
			if (nv && !json_equal(nv, bv))
				json_array_append_new(json_object_get(rec, "flips"),
						      json_pack("{s:s,s:O,s:O}", "claim", key, "from", bv, "to", nv));
		}
		json_decref(now);
		json_decref(o);
	}
	json_decref(res);
	json_array_append_new(runs, rec);
}

/* The sensitivity file of @o: its document, or a new empty one. */
static json_t *sens_load(const struct opts *o, char *path, size_t n)
{
	snprintf(path, n, "%s/sensitivity.json", o->runsdir);
	json_t *d = json_load_file(path, 0, NULL);
	if (!json_is_object(json_object_get(d, "seeds"))) {
		json_decref(d);
		d = json_pack("{s:s,s:{}}", "format", "mmemu-sensitivity/1", "seeds");
	}
	return d;
}

int sens_run(const struct opts *o, struct seed *seeds, int ns, json_t *objs)
{
	struct variant *vs = calloc(256, sizeof *vs);
	int nv = 0, rc = 0, oi = 0, found = 0;
	json_t *consts = json_array();
	for (int i = 0; i < ns && rc == 0; i++) {
		struct seed *s = &seeds[i];
		if (s->merged)
			continue;
		json_t *c = constants_of(s);
		json_array_append_new(consts, c);
		const char *p;
		json_t *d;
		json_object_foreach(c, p, d) {
			if (o->sens_only && strcmp(o->sens_only, p))
				continue;
			found = 1;
			for (int end = 0; end < 2 && rc == 0; end++) {
				json_t *val = json_array_get(json_object_get(d, "range"), (size_t)end);
				if (json_equal(val, json_object_get(d, "current")) || nv == 256 || !s->res)
					continue;
				struct variant *v = &vs[nv++];
				*v = (struct variant){ .base = s, .path = p, .value = val,
						       .current = json_object_get(d, "current"),
						       .source = json_object_get(d, "source") };
				rc = load_variant(o, v);
			}
		}
	}
	if (rc == 0 && o->sens_only && !found) {
		fprintf(stderr, "mmemu reproduce: --sensitivity-only: no selected seed declares the judgement constant %s\n",
			o->sens_only);
		rc = 2;
	}
	/* one pool for every rerun part */
	struct sweep_job *sj = calloc((size_t)nv * PUBLISHED_MAX_PARTS + 1, sizeof *sj);
	int nj = 0;
	struct mm_err e = { "" };
	char dir[1400];
	snprintf(dir, sizeof dir, "%s/sensitivity", o->runsdir);
	mkdir(o->runsdir, 0777);
	mkdir(dir, 0777);
	for (int i = 0; rc == 0 && i < nv; i++)
		for (int k = 0; k < PUBLISHED_MAX_PARTS; k++)
			if (vs[i].loaded[k] && sweep_job_init(&sj[nj], &vs[i].sc[k], &e) == 0) {
				size_t l = strlen(vs[i].results[k]);
				snprintf(sj[nj].dir, sizeof sj[nj].dir, "%.*s.d", (int)(l - 5), vs[i].results[k]);
				nj++;
			}
	struct sweep_opts so = { .jobs = o->jobs, .keep_dir = o->runsdir, .fresh = o->fresh,
				 .progress = o->quiet ? SWEEP_PROGRESS_NONE : SWEEP_PROGRESS_AUTO };
	if (rc == 0 && nj && !o->norun && sweep_run(sj, nj, &so, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	/* --no-run: the reruns' results files kept from an earlier run are judged
	 * again (a changed claim, the same simulations); a missing one is an error */
	for (int i = 0, j = 0; rc != 2 && i < nv; i++)
		for (int k = 0; k < PUBLISHED_MAX_PARTS; k++) {
			if (!vs[i].loaded[k])
				continue;
			json_t *res = NULL;
			if (o->norun) {
				res = report_load_results(vs[i].results[k], &e);
				if (!res) {
					fprintf(stderr, "mmemu: %s (--sensitivity --no-run judges kept reruns: run without "
						"--no-run first)\n", e.msg);
					rc = 2;
				}
			} else {
				res = sj[j].nfailed ? NULL : sweep_merge(&sj[j]);
				if (!res || results_write(res, vs[i].results[k], &e)) {
					vs[i].failed = 1;
					rc = 1;
				}
			}
			vs[i].res[k] = res;
			j++;
		}
	/* judge and record, seed by seed */
	char path[1300];
	json_t *doc = sens_load(o, path, sizeof path);
	for (int i = 0, si = 0; rc != 2 && i < ns; i++) {
		struct seed *s = &seeds[i];
		if (s->merged)
			continue;
		json_t *obj = json_array_get(objs, (size_t)oi++), *base = verdicts_of(obj), *runs = json_array();
		double host = 0;
		/* --sensitivity-only: the other constants' reruns of the last record stay,
		 * when they were measured against the same verdicts */
		json_t *old = json_object_get(json_object_get(doc, "seeds"), s->id), *r;
		size_t ri;
		if (o->sens_only && json_equal(json_object_get(old, "base"), base))
			json_array_foreach(json_object_get(old, "runs"), ri, r)
				if (strcmp(json_string_value(json_object_get(r, "path")) ?: "", o->sens_only))
					json_array_append(runs, r);
		for (int k = 0; k < nv; k++)
			if (vs[k].base == s)
				judge_variant(&vs[k], base, runs);
		json_array_foreach(runs, ri, r)
			host += json_number_value(json_object_get(r, "host_seconds"));
		json_t *rec = json_pack("{s:O,s:o,s:o,s:f}", "constants", json_array_get(consts, (size_t)si++), "base",
					base, "runs", runs, "host_seconds", host);
		json_object_set_new(json_object_get(doc, "seeds"), s->id, rec);
	}
	if (rc != 2 && results_write(doc, path, &e)) {
		fprintf(stderr, "mmemu: %s\n", e.msg);
		rc = 1;
	}
	json_decref(doc);
	for (int i = 0; i < nj; i++)
		sweep_job_free(&sj[i]);
	free(sj);
	for (int i = 0; i < nv; i++)
		for (int k = 0; k < PUBLISHED_MAX_PARTS; k++) {
			json_decref(vs[i].res[k]);
			if (vs[i].loaded[k])
				scenario_free(&vs[i].sc[k]);
		}
	free(vs);
	json_decref(consts);
	return rc;
}

/* Mark claim @cl (key @key) from seed record @rec; count into @cnt (robust, fragile, untested). */
static void mark(json_t *cl, const char *key, json_t *rec, int *cnt)
{
	const char *why = NULL;
	char b[1500] = "";
	size_t bl = 0;
	const char *verdict = json_string_value(json_object_get(cl, "verdict"));
	if (verdict && !strcmp(verdict, "not checked"))
		why = "not checked, so nothing for a rerun to flip";
	else if (!rec)
		why = "no sensitivity run: reproduce --sensitivity";
	else if (!json_object_size(json_object_get(rec, "constants")))
		why = "no judgement constants declared";
	else if (!json_equal(json_object_get(json_object_get(rec, "base"), key), json_object_get(cl, "verdict")))
		why = "the verdict changed since the sensitivity run";
	if (why) {
		json_object_set_new(cl, "robustness", json_string("untested"));
		json_object_set_new(cl, "robustness_detail", json_string(why));
		cnt[2]++;
		return;
	}
	size_t i, j;
	json_t *r, *fl;
	/* the reruns a complete record has: each end of each constant that differs from the scenario's value */
	size_t want = 0, have = json_array_size(json_object_get(rec, "runs"));
	const char *p;
	json_t *d;
	json_object_foreach(json_object_get(rec, "constants"), p, d)
		for (size_t e = 0; e < 2; e++)
			want += !json_equal(json_array_get(json_object_get(d, "range"), e), json_object_get(d, "current"));
	json_array_foreach(json_object_get(rec, "runs"), i, r) json_array_foreach(json_object_get(r, "flips"), j, fl)
	{
		if (strcmp(json_string_value(json_object_get(fl, "claim")), key))
			continue;
		char *v = report_json_text(json_object_get(r, "value"));
		bl += (size_t)snprintf(b + bl, bl < sizeof b ? sizeof b - bl : 0, "%sflips to %s when %s = %s",
				       bl ? "; " : "", json_string_value(json_object_get(fl, "to")),
				       json_string_value(json_object_get(r, "path")), v ? v : "?");
		free(v);
	}
	if (!bl && have < want) {
		/* no flip yet, but not every end was rerun (--sensitivity-only) */
		snprintf(b, sizeof b, "%zu of %zu reruns made, none flips it", have, want);
		json_object_set_new(cl, "robustness", json_string("untested"));
		json_object_set_new(cl, "robustness_detail", json_string(b));
		cnt[2]++;
		return;
	}
	json_object_set_new(cl, "robustness", json_string(bl ? "fragile" : "robust"));
	json_object_set_new(cl, "robustness_detail", json_string(b));
	cnt[bl ? 1 : 0]++;
}

/* The shipped record beside the published directory (results/sensitivity.json
 * for results/published) into @path: its document, or NULL. */
static json_t *sens_shipped(const struct opts *o, char *path, size_t n)
{
	size_t len = strlen(o->pubdir);
	while (len > 1 && o->pubdir[len - 1] == '/')
		len--;
	size_t cut = len;
	while (cut > 0 && o->pubdir[cut - 1] != '/')
		cut--;
	if (cut == 0)
		snprintf(path, n, "sensitivity.json");
	else
		snprintf(path, n, "%.*ssensitivity.json", (int)cut, o->pubdir);
	json_t *d = json_load_file(path, 0, NULL);
	if (!json_is_object(json_object_get(d, "seeds"))) {
		json_decref(d);
		return NULL;
	}
	return d;
}

void sens_mark(const struct opts *o, json_t *objs)
{
	char path[1300], spath[1300];
	json_t *doc = sens_load(o, path, sizeof path), *shipped = sens_shipped(o, spath, sizeof spath);
	size_t si, i, gi;
	json_t *obj, *cl, *g;
	json_array_foreach(objs, si, obj) {
		const char *id = json_string_value(json_object_get(obj, "seed"));
		json_t *rec = json_object_get(json_object_get(doc, "seeds"), id);
		const char *from = path;
		if (!rec && shipped) {
			/* no rerun of this seed in the runs directory: the record shipped
			 * with the published tables, valid while the verdicts are the same */
			rec = json_object_get(json_object_get(shipped, "seeds"), id);
			from = spath;
		}
		int cnt[3] = { 0, 0, 0 };
		char key[400];
		json_array_foreach(json_object_get(obj, "claims"), i, cl)
			if (!json_object_get(cl, "what_if") && !json_object_get(cl, "withdrawn"))
				mark(cl, json_string_value(json_object_get(cl, "id")), rec, cnt);
		json_t *tables = json_object_get(obj, "tables");
		json_array_foreach(tables, gi, g) {
			const char *lbl = json_string_value(json_object_get(g, "label")) ?: "";
			json_array_foreach(json_object_get(g, "claims"), i, cl) {
				snprintf(key, sizeof key, "%s%s%s", json_array_size(tables) > 1 ? lbl : "",
					 json_array_size(tables) > 1 ? "/" : "", json_string_value(json_object_get(cl, "id")));
				mark(cl, key, rec, cnt);
			}
		}
		json_t *sm = json_object_get(obj, "summary");
		if (!sm)
			continue;
		json_object_set_new(sm, "robust", json_integer(cnt[0]));
		json_object_set_new(sm, "fragile", json_integer(cnt[1]));
		json_object_set_new(sm, "untested", json_integer(cnt[2]));
		if (rec) {
			json_t *copy = json_deep_copy(rec);
			json_object_set_new(copy, "from", json_string(from));
			json_object_set_new(obj, "sensitivity", copy);
		}
	}
	json_decref(doc);
	json_decref(shipped);
}
