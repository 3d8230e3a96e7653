#!/usr/bin/env python3
"""Seed 003's pageblock census (models/mm/census.c) for docs/seeds/003.md: per
kernel, pass and zone, how many order-10 blocks each kind of page pins (the
hardest kind to give back that the block holds), mean over the runs of
RUNS_DIR/003-antifrag.json; the slab blocks by cache; and an SVG of stacked bars
(one bar per kernel, pass and zone).  Usage:
    python3 docs/seeds/003-census.py [RUNS_DIR] [SVG]
"""
import json
import statistics
import sys

runs = sys.argv[1] if len(sys.argv) > 1 else "results/runs"
svg = sys.argv[2] if len(sys.argv) > 2 else None
KINDS = ["reserved", "stack", "pagetable", "kernel", "slab", "slab_rclm", "journal", "anon",
         "metadata", "file_dirty", "file", "free"]
COLOURS = ["#000000", "#7f0000", "#b22222", "#ff4500", "#8b008b", "#da70d6", "#ff8c00",
           "#1e90ff", "#8fbc8f", "#9acd32", "#c0d890", "#ffffff"]
PASSES = [("pass1", "under load"), ("pass2", "pass 2"), ("rest", "at rest")]
with open(f"{runs}/003-antifrag.json") as f:   # HighAlloc's step of the one-boot runs
    rs = [r for r in json.load(f)["runs"] if r["point"].get("workload.type", "highalloc") == "highalloc"]
kernels = []
for r in rs:
    if r["kernel"] not in kernels:
        kernels.append(r["kernel"])


def mean(k, key):
    return statistics.mean(r["metrics"].get(key, 0) for r in rs if r["kernel"] == k)


def cells():
    """Each (kernel, pass, label, zone, blocks) with a census."""
    for k in kernels:
        for p, label in PASSES:
            for z in ["normal", "highmem", "easyrclm"]:
                nb = mean(k, f"census_{p}_{z}_blocks")
                if nb:
                    yield k, p, label, z, nb


rows = []
print("| kernel | pass | zone | blocks | " + " | ".join(KINDS) + " | slab blocks by cache |")
print("|---|---|---|---|" + "---|" * len(KINDS) + "---|")
for k, p, label, z, nb in cells():
    pins = [mean(k, f"census_{p}_{z}_pin_{kind}") for kind in KINDS]
    pre = f"census_{p}_{z}_pin_cache_"
    caches = sorted({m[len(pre):] for r in rs for m in r["metrics"] if m.startswith(pre)})
    cs = ", ".join(f"{c} {mean(k, pre + c):.0f}" for c in caches if mean(k, pre + c) >= 0.5)
    rows.append((f"{k} {label} {z}", nb, pins))
    print(f"| {k} | {label} | {z} | {nb:.0f} | " +
          " | ".join(f"{v:.0f}" if v >= 0.5 else "" for v in pins) + f" | {cs} |")
print()
print("| kernel | pass | zone | blocks holding a dcache/icache/bh/radix slab page + another slab page |"
      " holding an anonymous page |"
      " holding a page table or stack |")
print("|---|---|---|---|---|---|")
for k, p, label, z, nb in cells():
    g = lambda kind: mean(k, f"census_{p}_{z}_in_{kind}")
    print(f"| {k} | {label} | {z} | {g('slab_rclm'):.0f} + {g('slab'):.0f} | {g('anon'):.0f} |"
          f" {max(g('pagetable'), g('stack')):.0f} |")
if svg:
    W, H, L = 900, 22 * len(rows) + 60, 230
    scale = (W - L - 20) / max(nb for _, nb, _ in rows)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           f'font-size="11">']
    for i, (name, nb, pins) in enumerate(rows):
        y = 10 + 22 * i
        out.append(f'<text x="4" y="{y + 13}">{name} ({nb:.0f})</text>')
        x = L
        for kind, v, c in zip(KINDS, pins, COLOURS):
            if v <= 0:
                continue
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{v * scale:.1f}" height="16" fill="{c}" '
                       f'stroke="#555" stroke-width="0.3"><title>{kind} {v:.0f}</title></rect>')
            x += v * scale
    y = H - 40
    for i, (kind, c) in enumerate(zip(KINDS, COLOURS)):
        x = 4 + 74 * i
        out.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{c}" stroke="#555"/>'
                   f'<text x="{x + 13}" y="{y + 9}">{kind}</text>')
    out.append(f'<text x="4" y="{H - 10}">order-10 blocks by the kind that pins them, when each pass '
               'starts (mean of the runs; models/mm/census.c)</text></svg>')
    with open(svg, "w") as f:
        f.write("\n".join(out) + "\n")
