#!/usr/bin/env python3
"""Seed 001's emulated tables for docs/seeds/001.md, from the results of
`mmemu reproduce 001` (results/runs/001-pagevec-*.json) and the published
numbers (results/published/001.json): reaim's max JPM, kernbench's elapsed,
user, system, CPU% and context switches, system time, switches and sleeps per
-j, the batched kernel's extra system time, lru_lock by caller, and the
dentry and inode caches at the end of a build.  Usage:
    python3 docs/seeds/001-tables.py [RUNS_DIR]
"""
import json
import statistics
import sys

runs = sys.argv[1] if len(sys.argv) > 1 else "results/runs"
with open("results/published/001.json") as f:
    pub = json.load(f)
KMAP = pub["kernel_map"]            # published name -> scenario kernel name
NAMES = {v: k for k, v in KMAP.items()}


def load(name):
    with open(f"{runs}/{name}.json") as f:
        return json.load(f)["runs"]


def group(rs):
    """{(kernel, point as sorted items): [runs]}"""
    out = {}
    for r in rs:
        out.setdefault((NAMES.get(r["kernel"], r["kernel"]), tuple(sorted(r["point"].items()))),
                       []).append(r)
    return out


def pick(g, kernel, point):
    return g[(kernel, tuple(sorted(point.items())))]


def mean(rs, m):
    return statistics.mean(r["metrics"][m] for r in rs)


def span(rs, m):
    v = [r["metrics"][m] for r in rs]
    return f"{statistics.mean(v):,.0f} [{min(v):,.0f}-{max(v):,.0f}]"


table = {t["id"]: t for t in pub["tables"]}

print("**reaim** (max JPM, mean [min-max] of the runs):\n")
print("| table | row | published stock | published batched | emulated stock | emulated batched |")
print("|---|---|---|---|---|---|")
for tid, name, f in [("reaim-database", "database", "001-pagevec-reaim"),
                     ("reaim-compute", "compute", "001-pagevec-reaim"),
                     ("reaim-database-pressure", "database, what-if: 48 MiB",
                      "001-pagevec-reaim-pressure")]:
    g = group(load(f))
    for row in table[tid]["rows"]:
        ps, pb = row["values"]["stock"], row["values"]["batched"]
        s, b = pick(g, "stock", row["point"]), pick(g, "batched", row["point"])
        d = mean(b, "max_jpm") / mean(s, "max_jpm") - 1
        paren = "(%s)" if "pressure" in tid else "%s"
        print(f"| {name} | {row['test']} | {paren % f'{ps:,.1f}'} | "
              f"{paren % f'{pb:,.1f} ({pb / ps - 1:+.1%})'} | {span(s, 'max_jpm')} | "
              f"{span(b, 'max_jpm')} ({d:+.1%}) |")

kb = group(load("001-pagevec-kernbench"))
print("\n**kernbench** (means of the runs; published / emulated):\n")
print("| row | kernel | elapsed s | user s | system s | CPU % | context switches | sleeps |")
print("|---|---|---|---|---|---|---|---|")
COLS = [("elapsed_s", "elapsed", "{:.1f}"), ("user_s", "user_s", "{:.1f}"),
        ("system_s", "system_s", "{:.2f}"), ("cpu_percent", "cpu_percent", "{:.1f}"),
        ("context_switches", "context_switches", "{:,.0f}"), ("sleeps", "sleeps", "{:,.0f}")]
for row in table["kernbench"]["rows"]:
    for k in ("stock", "batched"):
        rs = pick(kb, k, row["point"])
        pv = row["values"][k]
        print(f"| {row['test']} | {k} | " +
              " | ".join(f"{fmt.format(pv[pk])} / {fmt.format(mean(rs, m))}" for pk, m, fmt in COLS)
              + " |")

JS = [("half load -j 4", {"workload.jobs": 4}), ("optimal -j 32", {"workload.jobs": 32}),
      ("maximal -j", {"workload.jobs": 0})]
print("\n**System time, context switches and sleeps per -j** (means of the runs):\n")
print("| -j | kernel | system s | context switches | fork child-first | wake-up preemptions |"
      " affine wake-ups | sleeps | make system s |")
print("|---|---|---|---|---|---|---|---|---|")
for label, pt in JS:
    for k in ("stock", "batched"):
        rs = pick(kb, k, pt)
        print(f"| {label} | {k} | {mean(rs, 'system_s'):.2f} | {mean(rs, 'context_switches'):,.0f} | "
              f"{mean(rs, 'fork_preempts'):,.0f} | {mean(rs, 'preempt_wakeups'):,.0f} | "
              f"{mean(rs, 'affine_wakeups'):,.0f} | {mean(rs, 'sleeps'):,.0f} | "
              f"{mean(rs, 'make_system_s'):.4f} |")

print("\n**The batched kernel's extra system time** (batched minus stock, means; min .. max of the"
      " pairwise differences by run):\n")
print("| row | emulated | per-run pairs |")
print("|---|---|---|")
for label, pt in JS:
    s = sorted(pick(kb, "stock", pt), key=lambda r: r["run"])
    b = sorted(pick(kb, "batched", pt), key=lambda r: r["run"])
    d = [y["metrics"]["system_s"] - x["metrics"]["system_s"] for x, y in zip(s, b)]
    print(f"| {label} | {statistics.mean(d):+.2f} s | {min(d):+.2f} .. {max(d):+.2f} |")

print("\n**lru_lock by caller** (acquisitions / contended, means):\n")
SITES = ["lru_add", "accessed", "release", "activate"]
print("| -j | kernel | " + " | ".join(SITES) + " | all |")
print("|---|---|" + "---|" * (len(SITES) + 1))
for label, pt in JS:
    for k in ("stock", "batched"):
        rs = pick(kb, k, pt)
        cells = []
        for site in SITES:
            a = f"lru_lock_acquisitions_by_{site}"
            if a not in rs[0]["metrics"]:
                cells.append("-")
                continue
            cells.append(f"{mean(rs, a):,.0f} / {mean(rs, f'lru_lock_contended_by_{site}'):,.0f}")
        cells.append(f"{mean(rs, 'lru_lock_acquisitions'):,.0f} / {mean(rs, 'lru_lock_contended'):,.0f}")
        print(f"| {label} | {k} | " + " | ".join(cells) + " |")

print("\n**The dentry and inode caches at the end of a build** (means):\n")
print("| -j | kernel | dentries | inodes | slab pages | dcache opens |")
print("|---|---|---|---|---|---|")
for label, pt in JS:
    for k in ("stock", "batched"):
        rs = pick(kb, k, pt)
        print(f"| {label} | {k} | {mean(rs, 'dentries'):,.0f} | {mean(rs, 'inodes'):,.0f} | "
              f"{mean(rs, 'dcache_slab_pages'):,.0f} | {mean(rs, 'dcache_opens'):,.0f} |")
