/*
 * main.c - the mmemu command line: dispatch to a subcommand (emu/cli/cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/core/version.h"

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
	{ "compare", cmd_compare, "mmtests-style comparison table of results files" },
	{ "reproduce", cmd_reproduce, "run the seed scenarios and check the published claims" },
	{ "plot", cmd_plot, "SVG line plot of a results file" },
	{ "serve", cmd_serve, "web lab: replay, what-if and seeds pages with a JSON API" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmemu COMMAND [ARGS]   (mmemu COMMAND --help for details)\n\ncommands:\n");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n  --version  print the version\n"
		   "exit status: 0 success, 1 a run failed, 2 bad input or usage\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("mmemu %s\n", MMEMU_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "mmemu: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return 2;
}
