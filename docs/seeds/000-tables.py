#!/usr/bin/env python3
"""000-tables.py - regenerate the evidence tables of docs/seeds/000.md.

Runs the seed-000 scenario and variants of it (cold cache, fixed nr_cold_target,
five runs per cell, three time-model quanta, read sizes, mlock) through
`mmemu run -j 2` and prints the Markdown tables.  The main and residency tables
are means over the scenario's runs; the reclaim-activity table shows run 0; the
variants run once per cell.  The variants are derived from
scenarios/seeds/000-clockpro-2read.json at run time, so they cannot drift from it.
When results/runs/000-clockpro-2read.json and 000-clockpro-2read-mlock.json
exist (written by `mmemu reproduce 000`), the main and mlock tables use them.

    python3 docs/seeds/000-tables.py [BUILD_DIR] [SECTION...]   # default: build, all
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
MMEMU = os.path.join(ROOT, BUILD, "mmemu")
SEED = json.load(open(os.path.join(ROOT, "scenarios/seeds/000-clockpro-2read.json")))
KERNELS = ["2.6.15-rc5", "clockpro", "clockpro-nodma"]
TMP = tempfile.mkdtemp(prefix="mmemu-000-")


def run(name, scn):
    """Run scenario @scn; return its runs as a list (or those of NAME.json in the
    directory $MMEMU_000_REUSE, results of an earlier run of the same variant)."""
    reuse = os.environ.get("MMEMU_000_REUSE")
    if reuse and os.path.exists(os.path.join(reuse, name + ".json")):
        return json.load(open(os.path.join(reuse, name + ".json")))["runs"]
    path = os.path.join(TMP, name + ".json")
    out = os.path.join(TMP, name + ".out.json")
    json.dump(scn, open(path, "w"))
    subprocess.run([MMEMU, "run", "-q", "-j", "2", "-o", out, path], check=True)
    return json.load(open(out))["runs"]


def variant(**changes):
    s = copy.deepcopy(SEED)
    for path, value in changes.items():
        node = s
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    return s


def saved_or_run(name, scn):
    """The runs `mmemu reproduce` saved for scenario file @name, else run @scn."""
    path = os.path.join(ROOT, "results/runs", name + ".json")
    if os.path.exists(path):
        return json.load(open(path))["runs"]
    return run(name, scn)


def n_of(r):
    return r["point"]["workload.range_mb"][0]


def pick(runs, kernel, pattern, n):
    return [r for r in runs if r["kernel"] == kernel and
            r["point"]["workload.pattern"] == pattern and n_of(r) == n]


def mean(runs, kernel, pattern, n, get):
    """Mean over the runs of (kernel, pattern, n) of get(run)."""
    v = [get(r) for r in pick(runs, kernel, pattern, n)]
    return sum(v) / len(v)


def pct(a, b):
    return "%+.1f%%" % (100.0 * (a / b - 1))


def main_tables(runs):
    for pattern in ["sequential", "random"]:
        print("**%s pattern** (reads/2 in 300 s, mean of the scenario's runs; in brackets: change against 2.6.15-rc5)\n" % pattern)
        print("| n | emulated 2.6.15-rc5 | emulated clockpro | emulated clockpro-nodma |")
        print("|---|---|---|---|")
        for n in [100, 200, 300, 400, 500]:
            v = [mean(runs, k, pattern, n, lambda r: r["primary"]["value"]) for k in KERNELS]
            print("| %d | %.0f | %.0f (%s) | %.0f (%s) |" % (n, v[0], v[1], pct(v[1], v[0]), v[2], pct(v[2], v[0])))
        print()


def residency(runs):
    print("| pattern | n | 2.6.15-rc5 zero | clockpro-nodma zero | 2.6.15-rc5 zero2 pages | clockpro-nodma zero2 pages | change |")
    print("|---|---|---|---|---|---|---|")
    for pattern in ["sequential", "random"]:
        for n in [300, 400]:
            a = {m: mean(runs, "2.6.15-rc5", pattern, n, lambda r: r["metrics"][m])
                 for m in ["zero_resident_fraction", "zero2_cached_pages"]}
            b = {m: mean(runs, "clockpro-nodma", pattern, n, lambda r: r["metrics"][m])
                 for m in ["zero_resident_fraction", "zero2_cached_pages"]}
            print("| %s | %d | %.3f | %.3f | %.0f | %.0f | %s |" % (
                pattern, n, a["zero_resident_fraction"], b["zero_resident_fraction"],
                a["zero2_cached_pages"], b["zero2_cached_pages"],
                pct(b["zero2_cached_pages"], a["zero2_cached_pages"])))
    print()


def reclaim(runs):
    print("| kernel | pattern | n | disk reads | pgscan | pgsteal | kswapd congestion naps (s) | reader naps (s) | direct reclaims | nr_cold_target min..max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in KERNELS:
        for pattern in ["sequential", "random"]:
            for n in [100, 300, 500]:
                r = pick(runs, k, pattern, n)[0]
                m, vs = r["metrics"], r["vmstat"]
                ct = r["series"].get("nr_cold_target")
                rng = "%.0f..%.0f" % (min(ct["v"]), max(ct["v"])) if ct else "-"
                print("| %s | %s | %d | %.0f | %d | %d | %.1f | %.1f | %.0f | %s |" % (
                    k, pattern, n, m["disk_reads"], vs["pgscan_kswapd"] + vs["pgscan_direct"],
                    vs["pgsteal"], m["kswapd_congestion_wait_s"],
                    m["reader_congestion_wait_s"] + m["reader_retry_nap_s"],
                    m["reader_direct_reclaims"], rng))
    print()


def cold():
    runs = run("cold", variant(workload__warmup_passes=0, runs=1,
                               sweep={"workload.pattern": ["sequential", "random"],
                                      "workload.range_mb": [[100, 1000], [300, 800], [500, 600]]}))
    print("| pattern | n | 2.6.15-rc5 | clockpro | clockpro-nodma |")
    print("|---|---|---|---|---|")
    for pattern in ["sequential", "random"]:
        for n in [100, 300, 500]:
            v = [pick(runs, k, pattern, n)[0]["primary"]["value"] for k in KERNELS]
            print("| %s | %d | %.0f | %.0f | %.0f |" % (pattern, n, v[0], v[1], v[2]))
    print()


def fixed(runs):
    scn = variant(runs=1, sweep={"workload.pattern": ["sequential", "random"],
                         "workload.range_mb": [[100, 1000], [300, 800]]})
    base = scn["kernels"]["clockpro"]
    scn["kernels"] = {}
    for v in [3000, 30000, 100000]:
        k = copy.deepcopy(base)
        k["reclaim"]["fixed_cold_target"] = v
        scn["kernels"]["fixed-%d" % v] = k
    fr = run("fixed", scn)
    print("| pattern | n | adaptive | fixed 3000 | fixed 30000 | fixed 100000 |")
    print("|---|---|---|---|---|---|")
    for pattern in ["sequential", "random"]:
        for n in [100, 300]:
            a = pick(runs, "clockpro", pattern, n)[0]["primary"]["value"]
            cells = ["%.0f (%s)" % (f, pct(f, a)) for f in
                     [pick(fr, "fixed-%d" % v, pattern, n)[0]["primary"]["value"] for v in [3000, 30000, 100000]]]
            print("| %s | %d | %.0f | %s |" % (pattern, n, a, " | ".join(cells)))
    print()
    ct = pick(runs, "clockpro", "sequential", 300)[0]["series"]["nr_cold_target"]["v"]
    print("nr_cold_target, clockpro, sequential, n = 300, every 5 s: " + ", ".join("%.0f" % x for x in ct))
    print()


def quanta():
    pts = {"workload.pattern": ["sequential", "random"], "workload.range_mb": [[300, 800]]}
    res = {q: run("q" + q, variant(engine={"quantum": q}, runs=1, sweep=pts)) for q in ["1ms", "10us", "0"]}
    print("| kernel | pattern | 1 ms | 10 us (scenario) | 0 (exact) | 10 us against 0 |")
    print("|---|---|---|---|---|---|")
    for k in KERNELS:
        for pattern in ["sequential", "random"]:
            v = [pick(res[q], k, pattern, 300)[0]["primary"]["value"] for q in ["1ms", "10us", "0"]]
            print("| %s | %s | %.0f | %.0f | %.0f | %s |" % (k, pattern, v[0], v[1], v[2], pct(v[1], v[2])))
    print()


def variance():
    runs = run("var", variant(runs=5, sweep={"workload.pattern": ["sequential", "random"],
                                             "workload.range_mb": [[300, 800]]}))
    print("| kernel | pattern | mean of 5 runs | sd | min | max |")
    print("|---|---|---|---|---|---|")
    for k in KERNELS:
        for pattern in ["sequential", "random"]:
            v = [r["primary"]["value"] for r in pick(runs, k, pattern, 300)]
            mean = sum(v) / len(v)
            sd = (sum((x - mean) ** 2 for x in v) / (len(v) - 1)) ** 0.5
            print("| %s | %s | %.0f | %.0f (%.2f%%) | %.0f | %.0f |" % (k, pattern, mean, sd, 100 * sd / mean, min(v), max(v)))
    print()


def read_sizes():
    """Read sizes 4..128 KiB: every kernel, sequential; the stock kernel, random."""
    sizes = ["4KiB", "16KiB", "32KiB", "64KiB", "128KiB"]
    pts = [[100, 1000], [300, 800], [500, 600]]
    rs = {}
    for pattern, kernels in [("sequential", KERNELS), ("random", KERNELS[:1])]:
        scn = variant(runs=1, sweep={"workload.read_size": sizes, "workload.range_mb": pts})
        scn["workload"]["pattern"] = pattern
        scn["kernels"] = {k: scn["kernels"][k] for k in kernels}
        rs[pattern] = run("rs-" + pattern, scn)
    print("| read size | pattern | n | published 2.6.15-rc5 | emulated 2.6.15-rc5 | clockpro | clockpro-nodma | disk MB/s (2.6.15-rc5) |")
    print("|---|---|---|---|---|---|---|---|")
    pubv = {100: 373600, 300: 371047, 500: 147130}
    for size in sizes:
        for pattern in ["sequential", "random"]:
            for n in [100, 300, 500]:
                def get(k):
                    r = [x for x in rs[pattern] if x["kernel"] == k and x["point"]["workload.read_size"] == size
                         and n_of(x) == n]
                    return r[0] if r else None
                st = get("2.6.15-rc5")
                cells = []
                for k in KERNELS[1:]:
                    r = get(k)
                    cells.append("%.0f (%s)" % (r["primary"]["value"], pct(r["primary"]["value"], st["primary"]["value"]))
                                 if r else "-")
                mbs = st["vmstat"]["pgpgin"] * 1024 / 1e6 / 300
                print("| %s | %s | %d | %d | %.0f | %s | %.1f |" % (
                    size, pattern, n, pubv[n], st["primary"]["value"], " | ".join(cells), mbs))
    print()


def mlock(runs):
    ml = saved_or_run("000-clockpro-2read-mlock",
                      json.load(open(os.path.join(ROOT, "scenarios/seeds/000-clockpro-2read-mlock.json"))))
    print("| n | 2.6.15-rc5 | + mlock | change (published) | clockpro-nodma | + mlock | change (published) | zero hit ratio, 2.6.15-rc5 without / with |")
    print("|---|---|---|---|---|---|---|---|")
    for n in [100, 200, 300, 400, 500]:
        a = mean(runs, "2.6.15-rc5", "sequential", n, lambda r: r["primary"]["value"])
        b = mean(ml, "2.6.15-rc5+mlock", "sequential", n, lambda r: r["primary"]["value"])
        c = mean(runs, "clockpro-nodma", "sequential", n, lambda r: r["primary"]["value"])
        d = mean(ml, "clockpro-nodma+mlock", "sequential", n, lambda r: r["primary"]["value"])
        ha = mean(runs, "2.6.15-rc5", "sequential", n, lambda r: r["metrics"]["zero_hit_ratio"])
        hb = mean(ml, "2.6.15-rc5+mlock", "sequential", n, lambda r: r["metrics"]["zero_hit_ratio"])
        print("| %d | %.0f | %.0f | %s (%s) | %.0f | %.0f | %s (-20%% .. +132%%) | %.3f / %.3f |" % (
            n, a, b, pct(b, a), "+150%" if n == 500 else "no significant change", c, d, pct(d, c), ha, hb))
    print()


if __name__ == "__main__":
    want = set(sys.argv[2:]) or {"main", "cold", "fixed", "quanta", "variance", "readsize", "mlock"}
    runs = saved_or_run("000-clockpro-2read", SEED)
    if "main" in want:
        print("## Main tables\n")
        main_tables(runs)
        print("## Residency\n")
        residency(runs)
        print("## Reclaim activity\n")
        reclaim(runs)
    if "mlock" in want:
        print("## mlock\n")
        mlock(runs)
    if "readsize" in want:
        print("## Read size\n")
        read_sizes()
    if "cold" in want:
        print("## Cold cache\n")
        cold()
    if "fixed" in want:
        print("## Fixed nr_cold_target\n")
        fixed(runs)
    if "quanta" in want:
        print("## Quantum\n")
        quanta()
    if "variance" in want:
        print("## Run-to-run variance\n")
        variance()
