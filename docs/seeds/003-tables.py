#!/usr/bin/env python3
"""Seed 003's emulated tables for docs/seeds/003.md, from the results of
`mmemu reproduce 003` (results/runs/003-antifrag.json and
results/runs/003-antifrag-kernelcore.json): per pass the successes (mean and
min-max over runs) with their zones, buddyinfo at the start of pass 1 and of the
at-rest pass (run 0), the kernelcore= sweep, aim9 beside the published rates
(003-antifrag-aim9.json) and the extract (003-antifrag-extract.json).  Usage:
    python3 docs/seeds/003-tables.py [RUNS_DIR]
"""
import json
import statistics
import sys

runs = sys.argv[1] if len(sys.argv) > 1 else "results/runs"
PASSES = [("pass1", "under load"), ("pass2", "pass 2"), ("rest", "at rest")]
ZONES = [("dma", "DMA"), ("normal", "Normal"), ("highmem", "HighMem"), ("easyrclm", "EasyRclm")]


def load(name, step=None):
    """The runs of results/runs/NAME.json; with @step, only a chained run's
    steps of that workload (003-antifrag and -kernelcore are one boot: untar,
    kernbench, aim9 x 8, then highalloc)."""
    with open(f"{runs}/{name}.json") as f:
        rs = json.load(f)["runs"]
    return [r for r in rs if step is None or r["point"].get("workload.type", step) == step]


def by(rs, key):
    out = {}
    for r in rs:
        out.setdefault(key(r), []).append(r)
    return out


def cell(vals):
    m = statistics.mean(vals)
    return f"{m:.0f} ({min(vals):.0f}-{max(vals):.0f})" if min(vals) != max(vals) else f"{m:.0f}"


main = by(load("003-antifrag", "highalloc"), lambda r: r["kernel"])
kernels = ["clean", "mbuddy", "zbuddy"]
print("| pass | " + " | ".join(kernels) + " |")
print("|---|" + "---|" * len(kernels))
for p, label in PASSES:
    row = []
    for k in kernels:
        rs = main[k]
        s = [r["metrics"][f"{p}_success"] for r in rs]
        pct = statistics.mean(r["metrics"][f"{p}_pct"] for r in rs)
        zs = ", ".join(f"{zn} {cell([r['metrics'][f'{p}_{z}'] for r in rs])}" for z, zn in ZONES
                       if any(r["metrics"][f"{p}_{z}"] for r in rs))
        row.append(f"{cell(s)} ({pct:.0f}%): {zs}")
    print(f"| {label} | " + " | ".join(row) + " |")
print()
print("| kernel | compile jobs | writeback requests | writer throttled | pcp pages at end |"
      " slab pages (dentry+inode) under load / at rest |")
print("|---|---|---|---|---|---|")
for k in kernels:
    rs = main[k]
    g = lambda n: cell([r["metrics"][n] for r in rs])
    print(f"| {k} | {g('compile_jobs')} | {g('writeback_requests')} | {g('writer_throttled')} |"
          f" {g('pcp_pages_end')} | {g('slab_pages_reclaimable_load')} / {g('slab_pages_reclaimable_rest')} |")
print()
print("| kernel | buffer-head + radix-node slab pages under load | metadata pages under load / at rest |"
      " dentries pruned | inodes pruned | dentries made again | objects scanned by shrink_slab |")
print("|---|---|---|---|---|---|---|")
for k in kernels:
    rs = main[k]
    g = lambda n: cell([r["metrics"][n] for r in rs])
    print(f"| {k} | {g('slab_pages_pagecache_load')} |"
          f" {g('metadata_pages_load')} / {g('metadata_pages_rest')} | {g('dentries_pruned')} | {g('inodes_pruned')} |"
          f" {g('dentries_remade')} | {g('slabs_scanned')} |")
print()
print("/proc/buddyinfo (run 0), orders 0..10:")
print()
print("| kernel | zone | start of pass 1 (under load) | start of the at-rest pass |")
print("|---|---|---|---|")
for k in kernels:
    ser = main[k][0]["series"]
    for _, zn in ZONES[1:]:
        a, b = ser.get(f"buddyinfo_load_{zn}"), ser.get(f"buddyinfo_rest_{zn}")
        if a and b:
            fmt = lambda s: " ".join(f"{v:.0f}" for v in s["v"])
            print(f"| {k} | {zn} | {fmt(a)} | {fmt(b)} |")
print()
kc = by(load("003-antifrag-kernelcore", "highalloc"), lambda r: r["point"]["machine.kernelcore"])
print("| kernelcore | under load | pass 2 | at rest | EasyRclm under load | Normal under load |")
print("|---|---|---|---|---|---|")
for v, rs in kc.items():
    g = lambda n: cell([r["metrics"][n] for r in rs])
    print(f"| {v} | {g('pass1_success')} | {g('pass2_success')} | {g('rest_success')} |"
          f" {g('pass1_easyrclm')} | {g('pass1_normal')} |")
print()
# the steps before HighAlloc on its boot (003-antifrag.json), per kernel
print("| kernel | extract s | build s | creat-clo | page_test | brk_test | jmp_test | signal_test | exec_test |"
      " fork_test | link_test | HighAlloc starts at s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
with open(f"{runs}/003-antifrag.json") as f:
    chain = json.load(f)["runs"]
for k in kernels:
    rs = [r for r in chain if r["kernel"] == k]
    st = by(rs, lambda r: r["chain"]["step"])
    cells = [cell([r["primary"]["value"] for r in st[i]]) for i in sorted(st) if i < len(st) - 1]
    cells = [f"{statistics.mean(r['primary']['value'] for r in st[0]):.2f}",
             f"{statistics.mean(r['primary']['value'] for r in st[1]):.1f}"] + \
            [f"{statistics.mean(r['primary']['value'] for r in st[i]):,.0f}" for i in range(2, 10)] + \
            [f"{statistics.mean(r['chain']['sim_time'][0] for r in st[10]):.0f}"]
    print(f"| {k} | " + " | ".join(cells) + " |")
print()
# aim9 (results/runs/003-antifrag-aim9.json) beside the published rates
with open("results/published/003.json") as f:
    pub = {t["id"]: t for t in json.load(f)["tables"]}
a9 = by(load("003-antifrag-aim9"), lambda r: (r["kernel"], r["point"]["workload.test"]))
ks = ["clean-aim9", "mbuddy-aim9", "zbuddy-aim9"]
print("| test | " + " | ".join(f"{k} published / emulated" for k in ks) + " | emulated mbuddy, zbuddy vs clean |")
print("|---|" + "---|" * (len(ks) + 1))
for row in pub["aim9"]["rows"]:
    t = row["test"]
    em = {k: statistics.mean(r["metrics"]["ops_per_s"] for r in a9[(k, t)]) for k in ks}
    cells = [f"{row['values'][k]:,.2f} / {em[k]:,.2f}" for k in ks]
    rel = ", ".join(f"{100 * (em[k] / em[ks[0]] - 1):+.4f}%" for k in ks[1:])
    print(f"| {t} | " + " | ".join(cells) + f" | {rel} |")
print()
# the extract (results/runs/003-antifrag-extract.json)
ex = by(load("003-antifrag-extract"), lambda r: r["kernel"])
print("| kernel | published | extract_s | bzip2 user | tar system | bzip2 I/O wait |")
print("|---|---|---|---|---|---|")
for row in pub["kernbench-time"]["rows"]:
    if row["test"] != "extract":
        continue
    for k, v in row["values"].items():
        rs = ex[k]
        g = lambda n: f"{statistics.mean(r['metrics'][n] for r in rs):.3f}"
        print(f"| {k} | {v['extract_s']} | {g('extract_s')} | {g('bzip2_user_s')} | {g('tar_system_s')} |"
              f" {g('bzip2_io_wait_s')} |")
