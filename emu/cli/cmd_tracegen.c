/*
 * cmd_tracegen.c - `mmemu tracegen`: write a synthetic page reference trace (plain
 * format, one page per line) to a file or stdout.
 *
 * Design: options fill a struct tracegen_cfg (see workloads/tracegen.h), the
 * library checks ranges and writes; the output is fully determined by the options
 * (seeded stream "tracegen").
 */
#include "emu/cli/cli.h"
#include "emu/core/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/tracefile.h"
#include "workloads/tracegen.h"

static void usage(FILE *f)
{
	fputs("usage: mmemu tracegen --kind zipf|tworegion|loop --refs N --pages P\n"
	      "                      [--alpha A] [--hot-frac F --hot-prob Q] [--seed S]\n"
	      "                      [--format plain|bin] [-o FILE]\n"
	      "Write a synthetic trace, one page number (0..P-1) per line, or in mmemu's\n"
	      "binary layout (loaded without parsing; docs/replay.md).\n"
	      "  --kind K       zipf: page k-1 with probability ~ 1/k^A (page 0 hottest)\n"
	      "                 tworegion: with probability Q a uniform page among the first\n"
	      "                 F*P pages, else a uniform page among the rest\n"
	      "                 loop: 0, 1, ..., P-1, 0, 1, ...\n"
	      "  --refs N       number of references\n"
	      "  --pages P      number of distinct pages (1..4294967295)\n"
	      "  --alpha A      zipf exponent (default 0.9; 0 = uniform)\n"
	      "  --hot-frac F   tworegion hot fraction of pages (default 0.2)\n"
	      "  --hot-prob Q   tworegion probability of a hot reference (default 0.8)\n"
	      "  --seed S       random seed (default 1)\n"
	      "  --format F     plain (default) or bin\n"
	      "  -o FILE        output file (default stdout)\n", f);
}

/* The trace of @c in the binary layout (workloads/tracefile.h) on @f.
 * Returns: 0 or -1 with @e set. */
static int write_bin(const struct tracegen_cfg *c, FILE *f, const char *name, struct mm_err *e)
{
	if (c->refs > SIZE_MAX / sizeof(uint32_t))
		return mm_errf(e, name, NULL, "too many references for this host");
	uint32_t *ids = malloc((size_t)c->refs * sizeof *ids);
	if (!ids)
		return mm_errf(e, name, NULL, "out of memory for %llu references",
			       (unsigned long long)c->refs);
	struct trace t;
	int rc = tracegen_fill(c, ids, e);
	if (rc == 0)
		rc = trace_from_ids(&t, ids, (size_t)c->refs, name, e);
	free(ids);
	if (rc == 0) {
		rc = trace_write_bin(&t, f, name, e);
		trace_free(&t);
	}
	return rc;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cmd_tracegen(int argc, char **argv)
{
	struct tracegen_cfg c = tracegen_defaults();
	const char *out = NULL;
	int have_kind = 0, have_refs = 0, have_pages = 0, bin = 0;
	struct mm_err e = { { 0 } };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		}
		char name[32];
		const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		if (eq) {
			snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
			v = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
			if (i + 1 >= argc) {
				if (strcmp(name, "--kind") && strcmp(name, "--refs") &&
				    strcmp(name, "--pages") && strcmp(name, "--alpha") &&
				    strcmp(name, "--hot-frac") && strcmp(name, "--hot-prob") &&
				    strcmp(name, "--seed") && strcmp(name, "--format") && strcmp(name, "-o"))
					return cli_usage_error("tracegen", "unknown option \"%s\"", a);
				return cli_usage_error("tracegen", "%s: expected a value", a);
			}
			v = argv[++i];
		}
		if (strcmp(name, "--kind") == 0) {
			if (tracegen_kind_parse(v, &c.kind) < 0)
				return cli_usage_error("tracegen", "--kind: expected zipf, tworegion or loop, got \"%s\"", v);
			have_kind = 1;
		} else if (strcmp(name, "--refs") == 0) {
			if (parse_u64(v, &c.refs) < 0 || c.refs < 1)
				return cli_usage_error("tracegen", "--refs: expected a number of references >= 1, got \"%s\"", v);
			have_refs = 1;
		} else if (strcmp(name, "--pages") == 0) {
			if (parse_u64(v, &c.pages) < 0 || c.pages < 1 || c.pages > UINT32_MAX)
				return cli_usage_error("tracegen", "--pages: expected a number of pages in 1..%u, got \"%s\"",
					    UINT32_MAX, v);
			have_pages = 1;
		} else if (strcmp(name, "--alpha") == 0) {
			if (parse_double(v, &c.alpha) < 0)
				return cli_usage_error("tracegen", "--alpha: expected a number, got \"%s\"", v);
		} else if (strcmp(name, "--hot-frac") == 0) {
			if (parse_double(v, &c.hot_frac) < 0)
				return cli_usage_error("tracegen", "--hot-frac: expected a number, got \"%s\"", v);
		} else if (strcmp(name, "--hot-prob") == 0) {
			if (parse_double(v, &c.hot_prob) < 0)
				return cli_usage_error("tracegen", "--hot-prob: expected a number, got \"%s\"", v);
		} else if (strcmp(name, "--seed") == 0) {
			if (parse_u64(v, &c.seed) < 0)
				return cli_usage_error("tracegen", "--seed: expected a non-negative integer, got \"%s\"", v);
		} else if (strcmp(name, "--format") == 0) {
			if (strcmp(v, "plain") && strcmp(v, "bin"))
				return cli_usage_error("tracegen", "--format: expected plain or bin, got \"%s\"", v);
			bin = !strcmp(v, "bin");
		} else if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) {
			out = v;
		} else {
			return cli_usage_error("tracegen", "unknown option \"%s\"", a);
		}
	}
	if (!have_kind)
		return cli_usage_error("tracegen", "--kind is required");
	if (!have_refs)
		return cli_usage_error("tracegen", "--refs is required");
	if (!have_pages)
		return cli_usage_error("tracegen", "--pages is required");
	struct tracegen g;
	if (tracegen_init(&g, &c, &e) < 0) {
		fprintf(stderr, "mmemu tracegen: %s\n", e.msg);
		return 2;
	}
	/* a file is written atomically (out_open_atomic): a full disk or a kill
	 * leaves the old trace, never a truncated one */
	struct out_atomic a = { .f = stdout };
	bool to_file = out && strcmp(out, "-") != 0;
	if (to_file && out_open_atomic(&a, out, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	int rc = bin ? write_bin(&c, a.f, to_file ? out : "stdout", &e)
		     : tracegen_write(&c, a.f, to_file ? out : "stdout", &e);
	if (to_file) {
		if (rc < 0)
			out_abort_atomic(&a);
		else
			rc = out_commit_atomic(&a, &e);
	}
	if (rc < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	return 0;
}
