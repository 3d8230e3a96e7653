/*
 * noise.c - the noise account of two-kernel comparisons (noise.h).
 *
 * Design: every comparison draws its samples with emulated_samples(), so the
 * statistics match the claim's cells; it adds a text fragment and counts to the
 * claim's account, which noise_attach() turns into the claim's "noise" and
 * "noise_summary"; noise_seed() then gathers every claim's inside/outside lists
 * into the seed's summary.  Significance is the paired t-test when the two
 * kernels' runs pair up (same base seed and run index: shared random draws),
 * Welch's test otherwise.  The noise changes no verdict, except that of a claim
 * typed "evidence": "single run" (claims.c).
 */
#include "emu/analysis/noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/analysis/report.h"
#include "emu/analysis/stats.h"

void noise_init(struct noise *nz)
{
	memset(nz, 0, sizeof *nz);
	nz->inside_at = json_array();
	nz->outside_at = json_array();
}

static void fmt_stat(char *b, size_t n, const struct stats_summary *s)
{
	if (s->n >= 2)
		snprintf(b, n, "%.5g ±%.2g [%.5g, %.5g] n=%zu", s->mean, s->sd, s->min, s->max, s->n);
	else
		snprintf(b, n, "%.5g n=%zu", s->mean, s->n);
}

json_t *noise_compare(const struct claim_ctx *c, struct noise *nz, const char *label, const char *b,
		      const char *k, json_t *pt, const char *metric, int relative, double pd)
{
	double *xb, *xk;
	size_t nb, nk;
	int paired = emulated_pair_samples(c, b, k, pt, metric, &xb, &nb, &xk, &nk);
	if (!nb || !nk) {
		free(xb);
		free(xk);
		return json_null();
	}
	struct stats_summary sb, sk;
	stats_summarize(xb, nb, &sb);
	stats_summarize(xk, nk, &sk);
	struct stats_welch w;
	const char *test = paired ? "paired t-test" : "Welch";
	int have_w = (paired ? stats_paired(xb, xk, nb, &w) : stats_welch(xb, nb, xk, nk, &w)) == 0 && isfinite(w.p);
	int sig = have_w ? w.p < 0.05 : -1;
	free(xb);
	free(xk);
	double sigma = stats_noise_sigma(&sb, &sk, relative, c->pub_runs);
	int in = stats_inside_noise(pd, sigma);
	const char *nv = in == 1 ? "inside noise" : in == 0 ? "outside noise" : "cannot judge";
	sig == 1 ? nz->sig++ : sig == 0 ? nz->notsig++ : nz->sig_cj++;
	in == 1 ? nz->inside++ : in == 0 ? nz->outside++ : nz->cj++;
	if (in >= 0)
		json_array_append_new(in ? nz->inside_at : nz->outside_at, json_string(label));

	if (sb.n < 2 || sk.n < 2) {
		report_str_append(&nz->text, &nz->len, "%s%s: %s n=%zu, %s n=%zu: cannot judge (fewer than two runs)",
				  nz->len ? "; " : "", label, b, sb.n, k, sk.n);
		goto out;
	}
	char tb[160], tk[160], sg[80], pub[200];
	fmt_stat(tb, sizeof tb, &sb);
	fmt_stat(tk, sizeof tk, &sk);
	if (sb.sd == 0 && sk.sd == 0)
		snprintf(sg, sizeof sg, "deterministic in the model (no run differs from another)");
	else if (have_w)
		snprintf(sg, sizeof sg, "%s (%s p=%.3g)", sig ? "differ significantly" : "do not differ significantly",
			 test, w.p);
	else
		snprintf(sg, sizeof sg, "significance cannot be judged (fewer than two runs)");
	double scale = relative ? 100 : 1;
	const char *u = relative ? "%" : "";
	if (!isfinite(pd))
		snprintf(pub, sizeof pub, "no published difference");
	else if (!isfinite(sigma))
		snprintf(pub, sizeof pub, "published %+.3g%s: cannot judge (%s)", scale * pd, u,
			 sb.n < 2 || sk.n < 2 ? "fewer than two runs" : "no spread defined");
	else
		snprintf(pub, sizeof pub, "published %+.3g%s %s (2 sigma = %.3g%s)", scale * pd, u, nv,
			 scale * STATS_NOISE_K * sigma, u);
	report_str_append(&nz->text, &nz->len, "%s%s: %s %s, %s %s: %s; %s", nz->len ? "; " : "", label, b, tb, k,
			  tk, sg, pub);
out:;

	json_t *o = json_pack("{s:o,s:o,s:s}", "baseline", emulated_summary_json(&sb), "kernel",
			      emulated_summary_json(&sk), "quantity", relative ? "kernel/baseline - 1" : "kernel - baseline");
	json_object_set_new(o, "test", json_string(paired ? "paired" : "welch"));
	json_object_set_new(o, "p", have_w ? report_num(w.p) : json_null());
	json_object_set_new(o, "significant", sig < 0 ? json_null() : json_boolean(sig));
	json_object_set_new(o, "published", report_num(pd));
	json_object_set_new(o, "sigma", report_num(sigma));
	json_object_set_new(o, "band", report_num(STATS_NOISE_K * sigma));
	json_object_set_new(o, "published_inside_noise", in < 0 ? json_null() : json_boolean(in));
	json_object_set_new(o, "noise_verdict", json_string(nv));
	return o;
}

void noise_attach(json_t *o, struct noise *nz)
{
	int any = nz->sig + nz->notsig + nz->sig_cj;
	if (o && any) {
		json_object_set_new(o, "noise", json_string(nz->text ? nz->text : ""));
		json_object_set_new(o, "noise_summary",
				    json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:O}", "significant", nz->sig,
					      "not_significant", nz->notsig, "significance_cannot_judge", nz->sig_cj,
					      "inside_noise", nz->inside, "outside_noise", nz->outside,
					      "noise_cannot_judge", nz->cj, "inside_at", nz->inside_at, "outside_at",
					      nz->outside_at));
	}
	free(nz->text);
	json_decref(nz->inside_at);
	json_decref(nz->outside_at);
}

/* Add claim @cl's noise comparisons to the seed's lists (@in, @out: "ID: POINT"). */
static void seed_add(json_t *in, json_t *out, int *cj, json_t *cl, const char *group)
{
	json_t *ns = json_object_get(cl, "noise_summary");
	const char *id = json_string_value(json_object_get(cl, "id")) ?: "";
	json_t *lists[2] = { json_object_get(ns, "inside_at"), json_object_get(ns, "outside_at") };
	json_t *to[2] = { in, out };
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *v;
		json_array_foreach(lists[l], i, v) {
			char buf[600];
			snprintf(buf, sizeof buf, "%s%s%s: %s", id, *group ? " with " : "", group, json_string_value(v));
			json_array_append_new(to[l], json_string(buf));
		}
	}
	*cj += (int)json_integer_value(json_object_get(ns, "noise_cannot_judge"));
}

json_t *noise_seed(json_t *o, double m)
{
	json_t *in = json_array(), *out = json_array();
	int cj = 0;
	size_t i, j;
	json_t *cl, *t;
	json_array_foreach(json_object_get(o, "claims"), i, cl)
		seed_add(in, out, &cj, cl, "");
	json_array_foreach(json_object_get(o, "tables"), j, t)
		json_array_foreach(json_object_get(t, "claims"), i, cl)
			seed_add(in, out, &cj, cl, json_string_value(json_object_get(t, "label")) ?: "");
	char rule[300];
	snprintf(rule, sizeof rule,
		 "a published difference d is inside the emulated noise when |d| <= %g sigma, sigma the emulated "
		 "standard deviation of one run's difference%s",
		 STATS_NOISE_K, m > 1 ? " divided by sqrt(published_runs)" : "");
	return json_pack("{s:s,s:f,s:o,s:o,s:i}", "rule", rule, "published_runs", m, "inside", in, "outside", out,
			 "cannot_judge", cj);
}
