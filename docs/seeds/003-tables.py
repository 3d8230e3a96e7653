#!/usr/bin/env python3
"""Seed 003's emulated tables for docs/seeds/003.md, from the results of
`mmemu reproduce 003` (results/runs/003-antifrag.json and
results/runs/003-antifrag-kernelcore.json): per pass the successes (mean and
min-max over runs) with their zones, buddyinfo at the start of pass 1 and of the
at-rest pass (run 0), and the kernelcore= sweep.  Usage:
    python3 docs/seeds/003-tables.py [RUNS_DIR]
"""
import json
import statistics
import sys

runs = sys.argv[1] if len(sys.argv) > 1 else "results/runs"
PASSES = [("pass1", "under load"), ("pass2", "pass 2"), ("rest", "at rest")]
ZONES = [("dma", "DMA"), ("normal", "Normal"), ("highmem", "HighMem"), ("easyrclm", "EasyRclm")]


def load(name):
    with open(f"{runs}/{name}.json") as f:
        return json.load(f)["runs"]


def by(rs, key):
    out = {}
    for r in rs:
        out.setdefault(key(r), []).append(r)
    return out


def cell(vals):
    m = statistics.mean(vals)
    return f"{m:.0f} ({min(vals):.0f}-{max(vals):.0f})" if min(vals) != max(vals) else f"{m:.0f}"


main = by(load("003-antifrag"), lambda r: r["kernel"])
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
kc = by(load("003-antifrag-kernelcore"), lambda r: json.dumps(r["point"]))
print("| kernelcore | under load | pass 2 | at rest | EasyRclm under load | Normal under load |")
print("|---|---|---|---|---|---|")
for pt, rs in kc.items():
    v = list(json.loads(pt).values())[0]
    g = lambda n: cell([r["metrics"][n] for r in rs])
    print(f"| {v} | {g('pass1_success')} | {g('pass2_success')} | {g('rest_success')} |"
          f" {g('pass1_easyrclm')} | {g('pass1_normal')} |")
