/*
 * cmd_serve.c - `mmemu serve`: the web lab (docs/serve.md): options, then the
 * server of emu/serve on one libevent loop until SIGINT or SIGTERM.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "emu/analysis/report.h"
#include "emu/cli/cli.h"
#include "emu/serve/serve.h"

static const char serve_usage[] =
	"usage: mmemu serve [--bind ADDR] [--port N] [--max-sims N] [--run-limit SECONDS]\n"
	"                   [--reproduce FILE] [-j N] [-q]\n"
	"Serve the replay lab, the what-if lab and the seeds page, and their JSON API\n"
	"under /api (docs/serve.md).  Run it in the mmemu repository: it serves the\n"
	"shipped scenarios/ and results/.  The first line says where it listens.\n"
	"  --bind ADDR        address to listen on (default 127.0.0.1: this host only)\n"
	"  --port N           TCP port (default 8080; 0: any free port)\n"
	"  --max-sims N       simulations queued and running at once, over all runs\n"
	"                     (default 64); a run that would exceed it gets 503\n"
	"  --run-limit S      seconds a run may take before it is cancelled (default 600)\n"
	"  --reproduce FILE   the seeds page's reproduce results (default\n"
	"                     results/reproduce.json, what mmemu reproduce writes)\n"
	"  -j, --jobs N       worker processes per run (default 2)\n"
	"  -q, --quiet        no log line per request\n"
	"SIGINT or SIGTERM stops it: runs are cancelled, their workers killed and reaped.\n"
	"Exit: 0 after a clean stop, 2 usage or cannot listen.\n";

int cmd_serve(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bind", required_argument, NULL, 'b' },   { "port", required_argument, NULL, 'p' },
		{ "max-sims", required_argument, NULL, 'm' }, { "run-limit", required_argument, NULL, 'l' },
		{ "jobs", required_argument, NULL, 'j' },   { "quiet", no_argument, NULL, 'q' },
		{ "reproduce", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	if (cli_wants_help(argc, argv)) {
		fputs(serve_usage, stdout);
		return 0;
	}
	struct serve_cfg cfg;
	serve_cfg_default(&cfg);
	int opt;
	long l;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:q", lopts, NULL)) != -1) {
		switch (opt) {
		case 'b': cfg.bind = optarg; break;
		case 'q': cfg.quiet = 1; break;
		case 'r': cfg.reproduce = optarg; break;
		case 'p':
			if (report_parse_long(optarg, 0, 65535, &l))
				return cli_usage_error("serve", "--port: expected an integer in 0..65535, not \"%s\"", optarg);
			cfg.port = (int)l;
			break;
		case 'm':
			if (report_parse_long(optarg, 1, 100000, &l))
				return cli_usage_error("serve", "--max-sims: expected an integer in 1..100000, not \"%s\"", optarg);
			cfg.max_sims = (int)l;
			break;
		case 'l':
			if (report_parse_long(optarg, 1, 86400 * 7, &l))
				return cli_usage_error("serve", "--run-limit: expected seconds in 1..604800, not \"%s\"", optarg);
			cfg.run_limit = (double)l;
			break;
		case 'j':
			if (report_parse_long(optarg, 1, 1024, &l))
				return cli_usage_error("serve", "-j: expected an integer in 1..1024, not \"%s\"", optarg);
			cfg.jobs = (int)l;
			break;
		case ':':
			return cli_usage_error("serve", "option %s needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("serve", "unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("serve", "unexpected argument \"%s\"", argv[optind]);
	struct event_base *base = event_base_new();
	if (!base) {
		fprintf(stderr, "mmemu serve: cannot create the event loop\n");
		return 2;
	}
	struct mm_err e = { "" };
	struct serve *s = serve_new(base, &cfg, &e);
	if (!s) {
		fprintf(stderr, "mmemu serve: %s\n", e.msg);
		event_base_free(base);
		return 2;
	}
	int rc = serve_http(s, base, &cfg);
	serve_free(s);
	event_base_free(base);
	return rc;
}
