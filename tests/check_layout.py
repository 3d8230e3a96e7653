#!/usr/bin/env python3
"""check_layout.py - the layout rule of docs/architecture.md, checked on the tree.

Every source file belongs to a role by its folder.  A file may include headers of
its own role and of the roles listed for it in ALLOWED; nothing else:

    emu/core         core (the runtime models and workloads see)
    models/hw        core, hw (+ models/mm/zone.h: the memory map a machine declares)
    models/sched     core, hw, sched (+ models/mm/kernel.h: the tasks it charges)
    models/mm        core, hw, sched, mm, the policy folders (+ models/fs/fs.h only)
    models/fs        core, hw, sched, mm, fs, the policy folders
    models/reclaim, models/alloc, models/kmap, models/coloring (the policy folders)
                     core, hw, sched, mm, the policy folders
    workloads        core, every models folder, workloads
    emu/plugin       core, every models folder, plugin (loads modules into the registries)
    emu/engine       core, every models folder, workloads, plugin, engine
    emu/analysis     core, analysis (reads results files, never runs SimGrid)
    emu/cli          every role
    emu/serve        every role (mmemu serve: the web lab, docs/serve.md)

A "(+ header)" is a narrow link (NARROW): that one header and nothing else of its
folder.

On top of that, no include cycle may join two folders: a "module" is a .c file
with its .h (zone.c + zone.h), and no cycle of module dependencies may pass
through modules of two different folders (models/mm and models/alloc, say).
Within one folder modules may depend on each other both ways (vmscan and kernel
do, as mm/vmscan.c and mm/page_alloc.c do in Linux).

Usage: check_layout.py [ROOT]     exit 0 when the tree obeys, 1 with one line per
       check_layout.py --self-test   violation; --self-test builds a small bad tree
                                      and fails unless the checker catches it.
"""
import os
import re
import sys
import tempfile

ROLES = ["emu/core", "emu/engine", "emu/analysis", "emu/cli", "emu/plugin", "emu/serve",
         "models/hw", "models/sched", "models/mm", "models/fs",
         "models/reclaim", "models/alloc", "models/kmap", "models/coloring", "workloads"]
POLICY = {"models/reclaim", "models/alloc", "models/kmap", "models/coloring"}
MODELS = {"models/hw", "models/sched", "models/mm", "models/fs"} | POLICY
ALLOWED = {
    "emu/core": {"emu/core"},
    # the hardware: nothing of the kernel but the memory map it declares (NARROW)
    "models/hw": {"emu/core", "models/hw"},
    # policy modules: the core, the hardware and each other's interfaces; kernel-level
    # policies (lru2q, clockpro, the antifrag allocators) also reach the mm core
    "models/reclaim": {"emu/core", "models/hw", "models/mm", "models/sched"} | POLICY,
    "models/alloc": {"emu/core", "models/hw", "models/mm", "models/sched"} | POLICY,
    "models/kmap": {"emu/core", "models/hw", "models/mm", "models/sched"} | POLICY,
    "models/coloring": {"emu/core", "models/hw", "models/mm", "models/sched"} | POLICY,
    # the scheduler charges tasks of the mm core's kernel (NARROW)
    "models/sched": {"emu/core", "models/hw", "models/sched"},
    # memory management: everything below it, the file system through fs.h only (NARROW)
    "models/mm": {"emu/core", "models/hw", "models/sched", "models/mm"} | POLICY,
    "models/fs": {"emu/core", "models/hw", "models/sched", "models/mm", "models/fs"} | POLICY,
    "workloads": {"emu/core", "workloads"} | MODELS,
    "emu/plugin": {"emu/core", "emu/plugin"} | MODELS,
    "emu/engine": {"emu/core", "emu/engine", "workloads", "emu/plugin"} | MODELS,
    "emu/analysis": {"emu/core", "emu/analysis"},
    "emu/cli": set(ROLES),
    "emu/serve": set(ROLES),
}
# Single headers a role may include from a folder it may not otherwise use: the narrow
# links between subsystems (docs/architecture.md, "Map").
NARROW = {
    "models/hw": {"models/mm/zone.h"},          # struct mm_phys_cfg: the memory map declared
    "models/sched": {"models/mm/kernel.h"},     # struct mm_task, struct mm_kernel
    "models/mm": {"models/fs/fs.h"},            # the address_space operations of a file system
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def role_of(path):
    for r in sorted(ROLES, key=len, reverse=True):
        if path == r or path.startswith(r + "/"):
            return r
    return None


def sources(root):
    out = []
    for top in ("emu", "models", "workloads"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def module(path):
    return os.path.splitext(path)[0]


def check(root):
    errors = []
    deps = {}          # module -> set of modules it includes
    for src in sources(root):
        role = role_of(src)
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            target = role_of(inc)
            if target is None:
                continue                    # tests' or system-style local headers
            if target not in ALLOWED[role] and inc not in NARROW.get(role, ()):
                errors.append("%s:%d: includes %s: role %s may not use %s (docs/architecture.md)"
                              % (src, line, inc, role, target))
            if module(inc) != module(src):
                deps.setdefault(module(src), set()).add(module(inc))
    # cycles through two folders: strongly connected components of the module graph
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        work = [(v, iter(sorted(deps.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    comps.append(comp)
            elif nxt not in index:
                index[nxt] = low[nxt] = counter[0]
                counter[0] += 1
                stack.append(nxt)
                on.add(nxt)
                work.append((nxt, iter(sorted(deps.get(nxt, ())))))
            elif nxt in on:
                low[node] = min(low[node], index[nxt])

    for v in sorted(set(deps) | {w for s in deps.values() for w in s}):
        if v not in index:
            strong(v)
    for comp in comps:
        folders = sorted({os.path.dirname(m) for m in comp})
        if len(folders) > 1:
            errors.append("include cycle between folders %s: modules %s"
                          % (", ".join(folders), ", ".join(sorted(comp))))
    return errors


def self_test():
    bad = {
        "emu/core/a.h": '#include "emu/engine/b.h"\n',          # core may not use engine
        "emu/engine/b.h": "\n",
        "models/mm/z.c": '#include "models/alloc/y.h"\n',
        "models/mm/z.h": "\n",
        "models/alloc/y.c": '#include "models/mm/z.h"\n',      # z <-> y across folders
        "models/alloc/y.h": "\n",
        "models/hw/m.c": '#include "models/mm/kernel.h"\n',    # hw: only mm/zone.h
        "models/mm/f.c": '#include "models/fs/ext3.h"\n',      # mm reaches fs by fs.h only
        "models/mm/g.c": '#include "models/fs/fs.h"\n',        # allowed: the narrow link
        "models/hw/n.c": '#include "models/mm/zone.h"\n',      # allowed: the narrow link
        "emu/analysis/r.c": '#include "emu/core/a.h"\n',       # allowed
        "workloads/w.c": '#include "emu/core/a.h"\n',          # allowed
    }
    with tempfile.TemporaryDirectory() as root:
        for p, text in bad.items():
            os.makedirs(os.path.dirname(os.path.join(root, p)), exist_ok=True)
            with open(os.path.join(root, p), "w") as f:
                f.write(text)
        errs = check(root)
    want = ["emu/core/a.h:1: includes emu/engine/b.h",
            "models/hw/m.c:1: includes models/mm/kernel.h",
            "models/mm/f.c:1: includes models/fs/ext3.h",
            "include cycle between folders models/alloc, models/mm"]
    for w in want:
        if not any(e.startswith(w) for e in errs):
            print("self-test: the checker missed: %s (got %r)" % (w, errs))
            return 1
    if len(errs) != len(want):
        print("self-test: unexpected findings %r" % errs)
        return 1
    print("self-test: bad includes, narrow links and a cross-folder cycle are all caught")
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    errs = check(root)
    for e in errs:
        print(e)
    if not errs:
        print("layout: %d files obey the role rules, no include cycle between folders"
              % len(sources(root)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
