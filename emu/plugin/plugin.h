/*
 * plugin.h - loading policy plugins (the host side of mmemu-plugin.h).
 *
 * Plugins come from `--plugin FILE` on any command (loaded by main() before the
 * command runs) and from a scenario's "plugins" array (loaded while the scenario
 * is validated, before its kernels are built).  Either way they are loaded in the
 * parent process, before any worker is forked, in sorted order, and never
 * unloaded.  Loading the same file twice (by real path) is a no-op.
 */
#ifndef MMEMU_PLUGIN_LOADER_H
#define MMEMU_PLUGIN_LOADER_H

#include "emu/core/err.h"

/**
 * plugin_load_all() - load the plugin files @paths[0..n-1] in the sorted order of
 * their names (the array is sorted in place).
 * @file, @path: where the list came from, for messages (NULL, NULL: the command
 * line; then each message starts with the plugin's file name)
 * Returns: 0, or -1 with @e set to one line: the file could not be read or
 * loaded (a missing symbol), has no entry point, was built for another ABI
 * version, registered no module, or a module it registered was refused (name
 * taken, unsupported interface version).
 */
int plugin_load_all(const char **paths, int n, const char *file, const char *path,
		    struct mm_err *e);

/**
 * plugin_digest() - the FNV-1a 64 digest of the loaded plugins' contents, in
 * load order, as 16 hex digits.
 * Returns: the digest, or "" when no plugin is loaded.
 */
const char *plugin_digest(void);

/** plugin_count() - Returns: the number of plugins loaded. */
int plugin_count(void);

/** plugin_file() - Returns: the real path of loaded plugin @i (0-based). */
const char *plugin_file(int i);

#endif
