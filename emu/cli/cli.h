/*
 * cli.h - the `mmemu SUBCOMMAND` entry points (argv[0] is the subcommand name).
 * Each returns the process exit status: 0 success, 1 a run failed, 2 usage or
 * input error.
 */
#ifndef MMEMU_CLI_H
#define MMEMU_CLI_H

#include <stdint.h>

#include <jansson.h>

int cmd_replay(int argc, char **argv);
int cmd_tracegen(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_mrc(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/** cli_wants_help() - Returns: 1 if argv has -h or --help. */
int cli_wants_help(int argc, char **argv);

/**
 * cli_usage_error() - print "mmemu CMD: MESSAGE (see mmemu CMD --help)" on stderr,
 * the message formatted from @fmt as printf does.
 * Returns: 2, the exit status of a usage error.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * cli_check_folder() - check that the folder @path given to option @opt of
 * command @cmd is a folder or missing (a regular file or a dangling symlink is
 * refused with a usage error, before anything is run or written).
 * Returns: 0 if usable, 2 after printing the one-line error.
 */
int cli_check_folder(const char *cmd, const char *opt, const char *path);

/**
 * cli_unique_stems() - refuse scenario files @files[0..n) of command @cmd whose
 * names without folders and ".json" coincide (a/x.json and b/x.json): both would
 * write @dir/x.json and @dir/x.d/, the later silently replacing the earlier.
 * Returns: 0 if the names are distinct, 2 after printing the one-line error.
 */
int cli_unique_stems(const char *cmd, char **files, int n, const char *dir);

/**
 * cli_optval() - match option @name at argv[*i], as "--name VALUE" or "--name=VALUE".
 * Returns: 1 with *val set (and *i advanced past a separate value), 0 if argv[*i]
 * is another option, -1 if the value is missing.
 */
int cli_optval(int argc, char **argv, int *i, const char *name, const char **val);

/** cli_parse_uint() - parse decimal @s. Returns: 0 with *out in [lo, hi], or -1. */
int cli_parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

struct scenario;
struct sweep_opts;
struct cluster_opts;

/**
 * cli_cluster_opt() - take option @opt of @cmd: 'k' --shard @arg, 's' --slurm,
 * 'p' --partition, 'm' --max-tasks, 'n' --dry-run (docs/cluster.md).
 * Returns: 0, or 2 after printing a usage error.
 */
int cli_cluster_opt(const char *cmd, int opt, const char *arg, struct sweep_opts *o, struct cluster_opts *co);

/**
 * cli_cluster_check() - after the options: --shard excludes --slurm, the Slurm
 * options need --slurm; sets co->cpus (-j when @jobs_given, else 1).
 * Returns: 0, or 2 after printing a usage error.
 */
int cli_cluster_check(const char *cmd, const struct sweep_opts *o, struct cluster_opts *co, int jobs_given);

/**
 * cli_keyvalue() - parse @arg "KEY=VALUE" of option @opt into @obj[KEY] (VALUE as
 * JSON if it parses, else a string).
 * Returns: 0, or 2 after printing a usage error for @cmd.
 */
int cli_keyvalue(json_t *obj, const char *cmd, const char *opt, const char *arg);

/**
 * cli_check_invariants() - the --check verdict on scenario @sc's results @res:
 * every run must report metrics.invariants_ok = 1.
 * Returns: 0, or 1 after printing one line per run that does not.
 */
int cli_check_invariants(const struct scenario *sc, json_t *res);

#endif
