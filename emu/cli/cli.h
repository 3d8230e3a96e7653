/*
 * cli.h - the `mmemu SUBCOMMAND` entry points (argv[0] is the subcommand name).
 * Each returns the process exit status: 0 success, 1 a run failed, 2 usage or
 * input error.
 */
#ifndef MMEMU_CLI_H
#define MMEMU_CLI_H

int cmd_replay(int argc, char **argv);
int cmd_tracegen(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/** cli_wants_help() - Returns: 1 if argv has -h or --help. */
int cli_wants_help(int argc, char **argv);

/**
 * cli_usage_error() - print "mmemu CMD: MESSAGE (see mmemu CMD --help)" on stderr,
 * the message formatted from @fmt as printf does.
 * Returns: 2, the exit status of a usage error.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
