#!/usr/bin/env python3
"""Seed 002's emulated tables for docs/seeds/002.md, from the results of
`mmemu reproduce 002` (results/runs/002-kmap-dbench.json) and the published
`.data` table (results/published/002.json): throughput per client count
(mean and min-max of the runs) beside the published means with both gains,
run_time_132 per count, and the dentry and inode caches at the end.  Usage:
    python3 docs/seeds/002-tables.py [RUNS_DIR]
"""
import json
import statistics
import sys

runs = sys.argv[1] if len(sys.argv) > 1 else "results/runs"
with open(f"{runs}/002-kmap-dbench.json") as f:
    rs = json.load(f)["runs"]
with open("results/published/002.json") as f:
    pub = json.load(f)
K = ["2.5.25", "akpm-kmap"]
g = {}
for r in rs:
    g.setdefault((r["kernel"], int(r["point"]["workload.clients"])), []).append(r)
counts = sorted({c for _, c in g})
prow = {int(row["point"]): dict(zip(pub["table"]["columns"], row["values"]))
        for row in pub["table"]["rows"]}
inv = {k: k for k in K}


def vals(k, c, m):
    return [r["metrics"][m] for r in g[(k, c)]]


print("| clients | published 2.5.25 | emulated 2.5.25 | published akpm-kmap | emulated akpm-kmap |"
      " published gain | emulated gain |")
print("|---|---|---|---|---|---|---|")
for c in counts:
    cells = []
    for k in K:
        v = vals(k, c, "throughput")
        cells.append((prow[c][inv[k]], f"{statistics.mean(v):.1f} ({min(v):.1f}-{max(v):.1f})",
                      statistics.mean(v)))
    pg = cells[1][0] / cells[0][0] - 1
    eg = cells[1][2] / cells[0][2] - 1
    print(f"| {c} | {cells[0][0]:.1f} | {cells[0][1]} | {cells[1][0]:.1f} | {cells[1][1]} |"
          f" {pg:+.1%} | {eg:+.1%} |")
print()
print("| clients | emulated run_time_132 2.5.25 | akpm-kmap |")
print("|---|---|---|")
for c in counts:
    print(f"| {c} | " + " | ".join(f"{statistics.mean(vals(k, c, 'run_time_132')):.2f}" for k in K)
          + " |")
print()
print("| clients | dentries | inodes | dcache slab pages | system s 2.5.25 | akpm-kmap |")
print("|---|---|---|---|---|---|")
for c in counts:
    m = lambda x, k="2.5.25": statistics.mean(vals(k, c, x))
    print(f"| {c} | {m('dentries'):,.0f} | {m('inodes'):,.0f} | {m('dcache_slab_pages'):,.0f} |"
          f" {m('system_s'):.2f} | {m('system_s', 'akpm-kmap'):.2f} |")
