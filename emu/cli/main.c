/*
 * main.c - the mmemu command line: dispatch to a subcommand (emu/cli/cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/core/version.h"
#include "emu/plugin/plugin.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} cmds[] = {
	{ "run", cmd_run, "run scenarios and write results JSON" },
	{ "validate", cmd_validate, "check scenarios without running them" },
	{ "list", cmd_list, "list policy modules, workloads and shipped scenarios" },
	{ "replay", cmd_replay, "run a reference string or trace through one reclaim policy" },
	{ "tracegen", cmd_tracegen, "write a seeded synthetic trace (zipf, tworegion, loop)" },
	{ "sweep", cmd_sweep, "run scenarios in parallel worker processes, resumably" },
	{ "collect", cmd_collect, "merge the simulations a sharded (Slurm) sweep kept" },
	{ "compare", cmd_compare, "mmtests-style comparison table of results files" },
	{ "reproduce", cmd_reproduce, "run the seed scenarios and check the published claims" },
	{ "plot", cmd_plot, "SVG line plot of a results file" },
	{ "mrc", cmd_mrc, "miss-ratio curve of a trace: misses at every memory size" },
	{ "serve", cmd_serve, "web lab: replay, what-if and seeds pages with a JSON API" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmemu COMMAND [ARGS]   (mmemu COMMAND --help for details)\n\ncommands:\n");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n  --version  print the version\n"
		   "  --plugin FILE  (with any command, repeatable) load policy modules from a\n"
		   "             shared object first (docs/plugins.md)\n"
		   "exit status: 0 success, 1 a run failed, 2 bad input or usage\n");
}

/* Take every "--plugin FILE" / "--plugin=FILE" out of argv (before a "--") and
 * load those plugins, in sorted order, before the command runs (and so before it
 * forks any worker).  Returns: 0, or 2 after printing the error line. */
static int load_plugins(int *argc, char **argv)
{
	const char *files[64];
	int n = 0, out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *f = NULL;
		if (strcmp(argv[i], "--") == 0) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--plugin") == 0) {
			if (i + 1 == *argc) {
				fprintf(stderr, "mmemu: --plugin: expected a shared object file\n");
				return 2;
			}
			f = argv[++i];
		} else if (strncmp(argv[i], "--plugin=", 9) == 0) {
			f = argv[i] + 9;
		}
		if (!f) {
			argv[out++] = argv[i];
			continue;
		}
		if (n == (int)(sizeof files / sizeof files[0])) {
			fprintf(stderr, "mmemu: --plugin: too many plugins (limit %d)\n", n);
			return 2;
		}
		files[n++] = f;
	}
	argv[out] = NULL;
	*argc = out;
	struct mm_err e = { "" };
	if (n && plugin_load_all(files, n, NULL, NULL, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	return 0;
}

/* A command's table or JSON lost on a full disk or closed pipe must not exit 0:
 * flush stdout and check it (issue 27).  Returns: @rc, or 1 when stdout failed
 * and @rc was 0. */
static int check_stdout(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "mmemu: cannot write standard output: %s\n", errno ? strerror(errno) : "write error");
	return rc ? rc : 1;
}

int main(int argc, char **argv)
{
	if (load_plugins(&argc, argv))
		return 2;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("mmemu %s\n", MMEMU_VERSION);
		return check_stdout(0);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return check_stdout(0);
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return check_stdout(cmds[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "mmemu: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return 2;
}
