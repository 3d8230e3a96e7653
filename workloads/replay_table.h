/*
 * replay_table.h - a replay recorded step by step as one JSON object: what
 * `mmemu replay --steps --json` prints and what `mmemu serve`'s POST /api/replay
 * returns for each policy.
 */
#ifndef MMEMU_REPLAY_TABLE_H
#define MMEMU_REPLAY_TABLE_H

#include <stdint.h>

#include <jansson.h>

#include "emu/core/err.h"
#include "workloads/tracefile.h"

/**
 * replay_table() - replay @t through a new instance of reclaim module @policy over
 * @frames frames, recording the frames after every reference.
 * @params: module parameters (JSON object, may be NULL); @ppath names them in messages
 * @max_cells: refuse a replay of more than this many references x frames
 * The object: {"policy", "frames", "pages", "refs", "faults", "hits", "miss_ratio",
 * "params", "steps": [{"ref": page, "fault": bool, "victim": page or null,
 * "frames": [page or null per frame], plus the module's own state (CLOCK's
 * "ref_bits" and "hand", OPT's "next_use")}]}, pages by their original numbers.
 * Returns: a new object, or NULL with @e set ("POLICYPATH: ..." for an unknown or
 * zone-level module, "PPATH.KEY: ..." for a bad parameter, too many cells).
 */
json_t *replay_table(const struct trace *t, const char *policy, const char *policy_path,
		     uint32_t frames, json_t *params, const char *ppath, uint64_t max_cells,
		     struct mm_err *e);

#endif
