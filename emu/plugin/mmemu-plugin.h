/*
 * mmemu-plugin.h - the one header a policy plugin includes (docs/plugins.md).
 *
 * A plugin is a shared object that exports one function, mmemu_plugin_init(),
 * defined with the MMEMU_PLUGIN() macro below.  mmemu calls it once, right after
 * loading the file and before any simulation; the macro first hands the plugin's
 * MMEMU_PLUGIN_ABI to mmemu_plugin_abi() (a plugin built against other headers
 * is refused before any of its structures is read), then runs the plugin's own
 * function, which registers its modules of any of the four kinds with
 * mmemu_plugin_reclaim(), _alloc(), _kmap() and _coloring().  Registered ops
 * structs must live as long as the process: mmemu never unloads a plugin.
 *
 * What a module may call besides its C library: the functions declared in the
 * headers included here that mmemu exports (emu/plugin/exports.list: errors,
 * random streams, big host arrays, module configuration, the allocator helpers).
 *
 * MMEMU_PLUGIN_ABI changes whenever a structure shared with plugins changes its
 * layout (the ops structs, struct reclaim, struct alloc, struct kmap, struct
 * coloring, struct mm_param, struct mm_err).  Methods appended to an ops struct do
 * not change it: each ops struct carries its own interface version.
 */
#ifndef MMEMU_PLUGIN_H
#define MMEMU_PLUGIN_H

#include "emu/core/err.h"
#include "emu/core/hostmem.h"
#include "emu/core/module.h"
#include "emu/core/params.h"
#include "emu/core/rng.h"
#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/reclaim/reclaim.h"

#define MMEMU_PLUGIN_ABI 1

/* The load in progress (opaque to plugins). */
struct mmemu_plugin;

/**
 * mmemu_plugin_abi() - check that the plugin was built for this mmemu's ABI.
 * Returns: 0, or -1 (mmemu then reports the mismatch and exits with status 2).
 */
int mmemu_plugin_abi(struct mmemu_plugin *p, int abi);

/**
 * mmemu_plugin_reclaim() - register a reclaim module (likewise _alloc, _kmap,
 * _coloring for the other kinds); its name must not be taken.
 * Returns: 0, or -1 (mmemu reports why and exits with status 2).
 */
int mmemu_plugin_reclaim(struct mmemu_plugin *p, const struct reclaim_ops *ops);
int mmemu_plugin_alloc(struct mmemu_plugin *p, const struct alloc_ops *ops);
int mmemu_plugin_kmap(struct mmemu_plugin *p, const struct kmap_ops *ops);
int mmemu_plugin_coloring(struct mmemu_plugin *p, const struct coloring_ops *ops);

/* The entry point's name, as mmemu looks it up. */
#define MMEMU_PLUGIN_ENTRY "mmemu_plugin_init"

/*
 * MMEMU_PLUGIN(fn) - define the entry point; follow it with fn's body:
 *     MMEMU_PLUGIN(my_init) { return mmemu_plugin_reclaim(p, &my_ops); }
 * The body sees the load as `p` and returns 0 or -1.
 */
#define MMEMU_PLUGIN(fn)                                                          \
	static int fn(struct mmemu_plugin *p);                                    \
	__attribute__((visibility("default"))) int mmemu_plugin_init(struct mmemu_plugin *p); \
	int mmemu_plugin_init(struct mmemu_plugin *p)                             \
	{                                                                         \
		return mmemu_plugin_abi(p, MMEMU_PLUGIN_ABI) ? -1 : fn(p);        \
	}                                                                         \
	static int fn(struct mmemu_plugin *p)

#endif
