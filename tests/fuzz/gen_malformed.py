#!/usr/bin/env python3
"""gen_malformed.py - write the malformed-input corpus tests/malformed/ (docs/fuzzing.md).

Run once from the source root after a build; the files it writes are committed:

    python3 tests/fuzz/gen_malformed.py [build/mmemu]
    python3 tests/fuzz/gen_malformed.py --traces-only   # trace/ and its expect.json entries

(A `mmemu list --params` section it does not know stops the run before anything is
removed, so the committed corpus stays as it was: add the section to params() and
its base to BASES.  --traces-only rewrites the trace cases alone and keeps every
other entry of expect.json.)

Every file is one malformed input with one thing wrong, and tests/malformed/expect.json
says, for each, where the one-line error must point (PATH: a JSON path, "line N", or ""
for a whole-file error) and a substring of what it must say (MSG).  tests/test_malformed.c
runs each through the command line (exit 2, one line on stderr, nothing on stdout, no
results file) and checks PATH and MSG.  The expectations are written here from the
parsers' rules, not recorded from a run: a case the binary disagrees with is a bug in
one of the two.

* scenario/  one file per parameter of every section and module (read from
  `mmemu list --params`): a value of the wrong type, one above the range's maximum,
  a negative number for sizes, rates, times and frequencies, an unknown key in every
  section, each required key missing; and JSON syntax errors.  Each mutates a small
  valid scenario of the workload the parameter belongs to.
* trace/     plain, txt and csv traces (header-named and numbered object-id column,
  auto-detected by name or content) and binary traces (tracegen --format bin:
  header, sizes, ids), with their layout in expect.json ("format", "obj_id_col").
* workfile/  reaim workfiles.
* loadfile/  dbench NBench loadfiles (both layouts: with and without timestamps).
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "malformed")

# ---- scenarios --------------------------------------------------------------------

MACHINE = {"arch": "flat", "cpus": 1, "clock": "1GHz", "memory": "64MiB",
           "disks": [{"name": "sda", "read": "60MB/s", "write": "50MB/s"}]}
# one valid scenario per workload, with the kernels it needs (paths from scenario/)
BASES = {
    "trace": {"kernels": {"k": {"reclaim": "lru"}},
              "workload": {"type": "trace", "file": "../../bad/ok.trace", "frames": 4}},
    "2read": {"kernels": {"k": {"reclaim": "lru2q"}},
              "workload": {"type": "2read", "zero_size": "8MiB", "zero2_size": "8MiB",
                           "range_mb": [4, 4], "duration": "1s"}},
    "kernbench": {"kernels": {"k": {"reclaim": "lru2q"}},
                  "workload": {"type": "kernbench", "files": 4}},
    "reaim": {"kernels": {"k": {"reclaim": "lru2q"}},
              "workload": {"type": "reaim", "workfile": "../../bad/ok.workfile",
                           "mode": "fixed", "users": 2}},
    "lmbench": {"kernels": {"k": {"reclaim": "lru2q"}},
                "workload": {"type": "lmbench", "aging": False, "size": "64KiB"}},
    "fft": {"kernels": {"k": {"reclaim": "lru2q"}},
            "workload": {"type": "fft", "aging": False, "size": "64KiB"}},
    "dbench": {"kernels": {"k": {"reclaim": "lru2q"}},
               "workload": {"type": "dbench", "clients": 1,
                            "loadfile": "../../../workloads/dbench/client-small.txt"}},
    "highalloc": {"kernels": {"k": {"reclaim": "lru2q"}},
                  "workload": {"type": "highalloc"}},
    "aim9": {"kernels": {"k": {"reclaim": "lru2q"}}, "workload": {"type": "aim9"}},
    "untar": {"machine": {"cpus": 2}, "kernels": {"k": {"reclaim": "lru2q"}},
              "workload": {"type": "untar"}},
    # the kmap modules' parameters, on the trace base with a kmap object
    "kmap": {"kernels": {"k": {"reclaim": "lru", "kmap": {"module": "pkmap"}}},
             "workload": {"type": "trace", "file": "../../bad/ok.trace", "frames": 4}},
}
# the cache hierarchy the lmbench and fft bases add to MACHINE
CACHES = {"levels": [{"size": "16KiB", "assoc": 2, "indexing": "virtual"}, {"size": "256KiB"}],
          "tlb": {"entries": 16}}

# the message for a value of the wrong type, by kind (`mmemu list --params`), and
# the wrong value given
WRONG = {
    "an integer": ("12", "expected an integer"),
    "a number": ("fast", "expected a number"),
    "a boolean": ("yes", "expected true or false"),
    "a string": (42, "expected a string"),
    "one of the listed names": ("nosuch", "expected one of \""),
    "a size": ("12 parsecs", "expected a size such as \"1008MiB\" or a number of bytes"),
    "a rate": ("60MB/h", "expected a rate such as \"60MB/s\" or a number of bytes/s"),
    "a time": ("soon", "expected a time such as \"8ms\" or a number of seconds"),
    "a frequency": ("1GHzz", "expected a frequency such as \"700MHz\" or a number of Hz"),
    "an array of integers": (5, "expected an array of integers"),
    "a percentage": (0.5, "expected a percentage such as \"0.5%\""),
    '"shared" or "per_kernel"': ("nosuch", 'expected "shared" or "per_kernel"'),
}
UNIT = {"a size": 1, "a rate": 1, "a time": 1, "a frequency": 1}
SIZE_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
              "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
FREQ_UNITS = {"Hz": 1, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9}


def number(text, kind):
    """A range bound of `mmemu list --params` ("64GiB", "1e+06s", "100kB/s") as a number."""
    text = text.strip()
    if kind == "a rate":
        text = text[:-2]
    units = {"a size": SIZE_UNITS, "a rate": SIZE_UNITS, "a time": TIME_UNITS,
             "a frequency": FREQ_UNITS, "a percentage": {"%": 1}}.get(kind, {})
    for u in sorted(units, key=len, reverse=True):
        if text.endswith(u) and re.fullmatch(r"[0-9.e+-]+", text[:-len(u)]):
            return float(text[:-len(u)]) * units[u]
    return float(text)


def params(mmemu):
    """Parameter tables of `mmemu list --params`: [(where, key, kind, hi, span, required)]
    with the range's maximum as a number (or None) and the range as an error writes it
    ("1MiB, 64GiB")."""
    out = subprocess.run([mmemu, "list", "--params"], check=True, capture_output=True,
                         text=True).stdout
    section, rows = None, []
    for line in out.splitlines():
        m = re.match(r"^  (\S+)\s{2,}", line)
        if not line.startswith("|") and not line.startswith("  "):
            section = line.rstrip(":")
            continue
        if m:
            module = m.group(1)
            continue
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        key = cells[0].strip("`")
        kind = next((k for k in WRONG if cells[1].startswith(k)), None)
        if kind is None:
            raise SystemExit("unknown kind %r of %s" % (cells[1], key))
        hi = span = None
        if " .. " in cells[2]:
            hi = number(cells[2].split(" .. ")[1], kind)
            span = cells[2].replace(" .. ", ", ")
        where = {"machine section": "machine", "machine.costs": "machine.costs",
                 "machine.bus (shared front-side buses, docs/membus.md)": "machine.bus",
                 "machine.disks[]": "machine.disks[0]",
                 "machine.disks[].controller (a write-back RAID controller, models/hw/raid.h)":
                     "machine.disks[0].controller",
                 "machine.variation (run-to-run variance, docs/scenario.md)": "machine.variation",
                 "machine.caches (the cache hierarchy and TLB, models/hw/cache.h)": "machine.caches",
                 "machine.caches.levels[] (from L1 outwards)": "machine.caches.levels[0]",
                 "machine.caches.tlb": "machine.caches.tlb",
                 "kernel vm knobs (kernels.NAME.vm)": "kernels.k.vm",
                 "engine section": "engine"}.get(section)
        if where is None:
            where = {"workloads": "workload:" + module,
                     "reclaim modules": "reclaim:" + module,
                     "alloc modules": "alloc:" + module,
                     "kmap modules": "kmap:" + module,
                     "coloring modules": "coloring:" + module}.get(section)
        if where is None:
            raise SystemExit("unknown section %r" % section)
        row = (where, key, kind, hi, span, cells[3] == "(required)")
        if row not in rows:
            rows.append(row)
    return rows


def base_for(where):
    """(workload of the base scenario, JSON path prefix of the parameter)."""
    if where.startswith("workload:"):
        return where.split(":")[1], "workload"
    if where == "reclaim:clockpro":
        return "2read", "kernels.k.reclaim"
    if where.startswith("kmap:"):
        return "kmap", "kernels.k.kmap"
    if where.startswith(("reclaim:", "alloc:", "coloring:")):
        return "trace", "kernels.k." + where.split(":")[0]
    if where.startswith("machine.caches"):
        return "lmbench", where
    return "trace", where


def scenario(workload):
    b = BASES[workload]
    doc = {"name": "malformed", "machine": dict(json.loads(json.dumps(MACHINE)),
                                                **b.get("machine", {})),
           "kernels": json.loads(json.dumps(b["kernels"])),
           "workload": json.loads(json.dumps(b["workload"]))}
    if workload in ("lmbench", "fft"):
        doc["machine"]["caches"] = json.loads(json.dumps(CACHES))
    return doc


def node(doc, path, create=True):
    """The object at dotted @path ("machine.disks[0]"), created when absent."""
    o = doc
    for part in path.split("."):
        m = re.fullmatch(r"(.+)\[(\d+)\]", part)
        if m:
            o = o[m.group(1)][int(m.group(2))]
        else:
            if part not in o or not isinstance(o[part], dict):
                o[part] = {}
            o = o[part]
    return o


def scenario_cases(mmemu):
    cases = []   # (file name, document or text, path, msg)

    def mutate(where, name, fn, path, msg):
        wl, prefix = base_for(where)
        doc = scenario(wl)
        target = node(doc, prefix)
        if where.startswith(("reclaim:", "alloc:", "kmap:", "coloring:")):
            target["module"] = where.split(":")[1]
        fn(target)
        cases.append((name + ".json", doc, path, msg))

    for where, key, kind, hi, span, required in params(mmemu):
        wl, prefix = base_for(where)
        tag = (where.replace("workload:", "").replace("reclaim:", "").replace("alloc:", "")
               .replace("kmap:", "kmap-").replace("coloring:", "coloring-")
               .replace("machine.disks[0]", "disk").replace("kernels.k.vm", "vm"))
        stem = "%s.%s" % (tag, key)
        path = "%s.%s" % (prefix, key)
        bad, msg = WRONG[kind]
        mutate(where, stem + "-type", lambda t, k=key, v=bad: t.__setitem__(k, v), path, msg)
        if hi is not None and kind != "a percentage" and math.isfinite(hi) and hi < 2 ** 53:
            above = hi + 1 if kind in ("an integer", "an array of integers") else hi * 2
            if kind == "an array of integers":
                val, p = [int(above)], path + "[0]"
            else:
                val, p = (int(above) if float(above).is_integer() else above), path
            mutate(where, stem + "-above", lambda t, k=key, v=val: t.__setitem__(k, v), p,
                   "expected a value in [%s]" % span)
        if kind == "a percentage":
            mutate(where, stem + "-above", lambda t, k=key: t.__setitem__(k, "51%"), path,
                   "expected a percentage in [0%, 50%]")
        if kind in UNIT:
            mutate(where, stem + "-negative", lambda t, k=key: t.__setitem__(k, -1), path,
                   "not a negative number")
        if required:
            mutate(where, stem + "-missing", lambda t, k=key: t.pop(k, None), path,
                   "missing (expected")

    # an unknown key in every section
    for where, prefix in (("trace", "machine"), ("trace", "machine.costs"),
                          ("trace", "machine.disks[0]"), ("trace", "machine.disks[0].controller"),
                          ("trace", "machine.variation"), ("trace", "machine.bus"),
                          ("trace", "kernels.k"), ("trace", "kernels.k.vm"), ("trace", "engine"),
                          ("trace", "workload"), ("2read", "workload"),
                          ("kernbench", "workload"), ("reaim", "workload"),
                          ("lmbench", "workload"), ("fft", "workload"),
                          ("dbench", "workload"), ("highalloc", "workload"),
                          ("aim9", "workload"), ("untar", "workload"),
                          ("kmap", "kernels.k.kmap"),
                          ("lmbench", "machine.caches"), ("lmbench", "machine.caches.levels[0]"),
                          ("lmbench", "machine.caches.tlb")):
        doc = scenario(where)
        node(doc, prefix)["colour"] = 1
        tag = prefix.replace("machine.disks[0]", "disk").replace("kernels.k", "kernel")
        name = "%s%s.unknown-key.json" % (tag, "-" + where if prefix == "workload" else "")
        cases.append((name, doc, prefix + ".colour", "unknown key (expected one of: "))
    doc = scenario("trace")
    doc["colour"] = 1
    cases.append(("top.unknown-key.json", doc, "colour", "unknown key (expected one of: name"))

    # JSON syntax: jansson's message, at the line of the change (+ delta where jansson
    # sees the error only at the next token)
    good = json.dumps(scenario("trace"), indent=2)
    syntax = [
        ("json-unterminated-string.json", '"1GHz",', '"1GHz,', 0, "unexpected newline"),
        ("json-single-quotes.json", '"lru"', "'lru'", 0, "invalid token"),
        ("json-comment.json", '"name"', '// a comment\n  "name"', 0,
         "string or '}' expected near '/'"),
        ("json-missing-colon.json", '"cpus": 1', '"cpus" 1', 0, "':' expected"),
        ("json-missing-comma.json", '"cpus": 1,', '"cpus": 1', 1, "'}' expected"),
        ("json-nan.json", '"cpus": 1', '"cpus": NaN', 0, "invalid token"),
        ("json-control-char.json", '"malformed"', '"mal\x01formed"', 0, "control character 0x1"),
        ("json-bad-escape.json", '"malformed"', '"mal\\qformed"', 0, "invalid escape"),
        ("json-nul-escape.json", '"malformed"', '"mal\\u0000formed"', 0,
         "\\u0000 is not allowed"),
        ("json-invalid-utf8.json", '"malformed"', '"mal\udcffformed"', 0,
         "unable to decode byte 0xff"),
        ("json-duplicate-in-kernel.json", '"reclaim": "lru"', '"reclaim": "lru", "reclaim": "fifo"',
         0, "duplicate object key"),
        ("json-trailing-comma-array.json", '"write": "50MB/s"\n      }',
         '"write": "50MB/s"\n      },', 2, "unexpected token near ']'"),
    ]
    for name, old, new, delta, msg in syntax:
        line = good[:good.index(old)].count("\n") + 1 + delta
        cases.append((name, good.replace(old, new, 1), "line %d" % line, msg))
    cases += [
        ("json-two-documents.json", good + "\n{}\n", "line %d" % (good.count("\n") + 2),
         "end of file expected"),
        ("json-bare-value.json", "42\n", "line 1", "'[' or '{' expected"),
        ("json-deep.json", "[" * 2049 + "]" * 2049, "line 1", "maximum parsing depth"),
        ("json-bom.json", "\ufeff" + good, "line 1", "'[' or '{' expected"),
    ]
    # the wrong structure where an object or array belongs
    for name, fn, path, msg in (
            ("machine.disks-string.json", lambda d: d["machine"].__setitem__("disks", "sda"),
             "machine.disks", "expected an array of disk objects"),
            ("machine.disks-empty-object.json", lambda d: d["machine"]["disks"].__setitem__(0, {}),
             "machine.disks[0].name", "missing (expected a string)"),
            ("kernels.k-null.json", lambda d: d["kernels"].__setitem__("k", None),
             "kernels.k", "expected an object"),
            ("kernels.k.vm-array.json", lambda d: d["kernels"]["k"].__setitem__("vm", []),
             "kernels.k.vm", "expected an object"),
            ("workload-array.json", lambda d: d.__setitem__("workload", []),
             "workload", "expected an object"),
            ("name-null.json", lambda d: d.__setitem__("name", None),
             "name", "expected a non-empty string"),
            ("runs-real.json", lambda d: d.__setitem__("runs", 1.5),
             "runs", "expected an integer in [1, 1000]"),
            ("seed-string.json", lambda d: d.__setitem__("seed", "1"),
             "seed", "expected a non-negative integer"),
            ("sweep-string.json", lambda d: d.__setitem__("sweep", "frames"),
             "sweep", "expected an object"),
            ("sweep-trailing-dot.json", lambda d: d.__setitem__("sweep", {"workload.": [1]}),
             "sweep.workload.", "expected a parameter path starting with"),
            ("sweep-double-dot.json",
             lambda d: d.__setitem__("sweep", {"machine..cpus": [1]}),
             "sweep.machine..cpus", "expected a parameter path starting with"),
            ("sweep-too-many-points.json",   # 47^3 > 100000, in 1 KiB (a fuzz seed)
             lambda d: d.__setitem__("sweep", {"workload.frames": list(range(1, 48)),
                                               "workload.loops": list(range(1, 48)),
                                               "workload.ref_cycles": list(range(1, 48))}),
             "sweep.workload.ref_cycles", "the sweep has too many points (limit 100000)"),
            ("sweep-point-out-of-range.json",
             lambda d: d.__setitem__("sweep", {"machine.cpus": [1, 65]}),
             "machine.cpus", "(sweep point 1: cpus=65)"),
            ("runs-too-many-sims.json",
             lambda d: (d.__setitem__("runs", 1000),
                        d.__setitem__("sweep", {"workload.frames": list(range(1, 102))})),
             "runs", "too many simulations (101000; limit 100000)"),
            ("kernel-name-empty.json",
             lambda d: d["kernels"].__setitem__("", {"reclaim": "lru"}),
             "kernels.", "expected a non-empty kernel name not ending in a dot"),
            ("kernel-name-trailing-dot.json",
             lambda d: d["kernels"].__setitem__("a.", {"reclaim": "lru"}),
             "kernels.a.", "expected a non-empty kernel name not ending in a dot"),
            # sanity floors between a field's range and the machine (issue 27)
            ("machine.bus.bandwidth-tiny.json",
             lambda d: d["machine"].__setitem__("bus", {"bandwidth": "1B/s"}),
             "machine.bus.bandwidth", "expected 0 (no bus model) or at least \"1MB/s\""),
            ("machine.bus.bandwidth-below-floor.json",
             lambda d: d["machine"].__setitem__("bus", {"bandwidth": "999KB/s"}),
             "machine.bus.bandwidth", "expected 0 (no bus model) or at least \"1MB/s\""),
            # rules between a disk's fields, checked after each field's range
            ("disk.cache-segment-small.json",
             lambda d: d["machine"]["disks"][0].update(cache="32KiB", cache_segments=16),
             "machine.disks[0]", "cache / cache_segments must be at least 4 KiB"),
            ("disk.cache_lookahead-segment.json",
             lambda d: d["machine"]["disks"][0].update(cache="8MiB", cache_segments=16,
                                                         cache_lookahead="1MiB"),
             "machine.disks[0]", "cache_lookahead must not exceed a segment"),
            ("machine.min_free_kbytes-above-memory.json",   # validated, then livelocked (issue 27)
             lambda d: d["machine"].update(arch="i386", min_free_kbytes=4194304),
             "machine.min_free_kbytes", "expected less than machine.memory minus kernel_reserved, in KiB"),
            # declared judgement constants (docs/compare.md, "Fragility")
            ("judgement.not-array.json",
             lambda d: d.__setitem__("judgement", {"path": "workload.frames"}),
             "judgement", "expected an array of {path, range, source}"),
            ("judgement.no-source.json",
             lambda d: d.__setitem__("judgement", [{"path": "workload.frames", "range": [1, 8]}]),
             "judgement.0", "expected an object with exactly path, range and source"),
            ("judgement.empty-source.json",
             lambda d: d.__setitem__("judgement", [{"path": "workload.frames", "range": [1, 8], "source": ""}]),
             "judgement.0.source", "expected a non-empty string: where the range comes from"),
            ("judgement.path-missing.json",
             lambda d: d.__setitem__("judgement", [{"path": "workload.nope", "range": [1, 8], "source": "s"}]),
             "judgement.0.path", "expected the dotted path of a number or string the scenario sets"),
            ("judgement.range-excludes.json",
             lambda d: d.__setitem__("judgement", [{"path": "workload.frames", "range": [8, 16], "source": "s"}]),
             "judgement.0.range", "expected lo <= the scenario's value <= hi"),
            ("judgement.range-type.json",
             lambda d: d.__setitem__("judgement", [{"path": "machine.memory", "range": [32, 128], "source": "s"}]),
             "judgement.0.range", "expected [lo, hi] of the constant's type (strings)"),
    ):
        doc = scenario("trace")
        fn(doc)
        cases.append((name, doc, path, msg))
    # chained steps on one boot (a workload that can run as a step)
    for name, steps, path, msg in (
            ("steps-not-array.json", {"range_mb": [4, 4]}, "steps", "expected a non-empty array of steps"),
            ("steps-element-number.json", [{"range_mb": [4, 4]}, 7], "steps[1]", "expected an object"),
            ("steps-bad-override.json", [{"range_mb": [4, 4]}, {"range_mb": [4, 64]}],
             "steps[1].range_mb", "range 1 (64 MiB) exceeds the file size"),
            ("steps-not-chainable.json", [{"type": "trace"}],
             "steps[0].type", "the trace workload cannot run as a step yet"),
    ):
        doc = scenario("2read")
        doc["steps"] = steps
        cases.append((name, doc, path, msg))
    return cases


# ---- traces -------------------------------------------------------------------------

NUM = "expected a page number (decimal integer), got "
ONE = "expected one page number per line, got "
BIG = "expected a page number below 2^64, got "
HDR = ("expected a csv header with a column named obj_id, obj-id, objId or key "
       "(or give --obj-id-col N)")
OBJ = "expected an object id (decimal integer) in column %d, got "


def bin_trace(orig, refs, magic=b"MMTRACE1", version=1, npages=None, nrefs=None, extra=b""):
    """A binary trace (workloads/tracefile.h): magic, u32 version, u32 npages, u64 nrefs,
    npages u64 original ids, nrefs u32 dense ids, little-endian; the header fields
    may be given apart from the arrays to make them disagree."""
    np_ = len(orig) if npages is None else npages
    nr = len(refs) if nrefs is None else nrefs
    return (magic + struct.pack("<IIQ", version, np_, nr) + struct.pack("<%dQ" % len(orig), *orig)
            + struct.pack("<%dI" % len(refs), *refs) + extra)


BH = "expected the binary trace magic \"MMTRACE1\" and a 24-byte header"


def bin_cases():
    """binary traces: (file, bytes, format, obj_id_col, path, msg)"""
    orig, refs = [70, 5, 900000, 12], [0, 1, 0, 2, 1, 1, 3]
    return [
        ("bin-short-header.bin", bin_trace(orig, refs)[:20], "bin", 0, "header", BH),
        ("bin-magic.bin", bin_trace(orig, refs, magic=b"MMTRACE2"), "bin", 0, "header", BH),
        ("bin-text.bin", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "bin", 0, "header", BH),
        ("bin-empty.bin", "", "bin", 0, "header", BH),
        ("bin-version-2.bin", bin_trace(orig, refs, version=2), "bin", 0, "header",
         "expected binary trace version 1, got 2"),
        ("bin-big-endian.bin", bin_trace(orig, refs, version=0x01000000), "bin", 0, "header",
         "got 16777216 (version 1 big-endian: the layout is little-endian)"),
        ("bin-no-pages.bin", bin_trace([], [], npages=0, nrefs=0), "bin", 0, "header",
         "expected at least one page and one reference, got 0 and 0"),
        ("bin-more-pages.bin", bin_trace(orig, refs, npages=8), "bin", 0, "header",
         "expected no more pages than references, got 8 pages and 7 references"),
        ("bin-truncated.bin", bin_trace(orig, refs)[:-3], "bin", 0, "header",
         "expected 4 pages and 7 references to fill the file's 81 bytes"),
        ("bin-trailing.bin", bin_trace(orig, refs, extra=b"\n"), "bin", 0, "header",
         "expected 4 pages and 7 references to fill the file's 85 bytes"),
        ("bin-huge-nrefs.bin", bin_trace(orig, refs, nrefs=2 ** 62), "bin", 0, "header",
         "expected 4 pages and 4611686018427387904 references to fill the file's 84 bytes"),
        ("bin-npages-refs-swapped.bin", bin_trace(orig, refs, npages=5, nrefs=6), "bin", 0,
         "header", "expected 5 pages and 6 references to fill the file's 84 bytes"),
        ("bin-duplicate-id.bin", bin_trace([70, 5, 70, 12], refs), "bin", 0, "pages",
         "expected distinct original page ids, got 70 for pages 0 and 2"),
        ("bin-order.bin", bin_trace(orig, [0, 2, 1, 3, 1, 1, 0]), "bin", 0, "references",
         "expected dense page ids in first-seen order below 4, got 2 at reference 1"),
        ("bin-id-range.bin", bin_trace(orig, [0, 1, 2, 3, 4, 1, 1]), "bin", 0, "references",
         "expected dense page ids in first-seen order below 4, got 4 at reference 4"),
        ("bin-unreferenced.bin", bin_trace(orig, [0, 1, 0, 2, 1, 1, 2]), "bin", 0, "references",
         "expected all 4 pages to be referenced, got 3"),
        ("auto-bin-truncated.trace", bin_trace(orig, refs)[:60], "auto", 0, "header",
         "expected 4 pages and 7 references to fill the file's 60 bytes"),
        ("auto-bin-order.trace", bin_trace(orig, [1, 0, 1, 2, 3, 3, 3]), "auto", 0, "references",
         "got 1 at reference 0"),
        ("plain-binary.trace", bin_trace(orig, refs), "plain", 0, "line 1",
         NUM + '"MMTRACE1\\u0001\\u0000'),
    ]


def trace_cases():
    """(file, bytes, format, obj_id_col, path, msg)"""
    many = "".join("%d\n" % (i % 97) for i in range(999))
    c = []
    for fmt, ext in (("plain", "trace"), ("txt", "txt")):
        c += [
            ("%s-letter.%s" % (fmt, ext), "1\n2\nx3\n", fmt, 0, "line 3", NUM + '"x3"'),
            ("%s-two-per-line.%s" % (fmt, ext), "1\n2 3\n", fmt, 0, "line 2", ONE + '"2 3"'),
            ("%s-negative.%s" % (fmt, ext), "1\n-1\n", fmt, 0, "line 2", NUM + '"-1"'),
            ("%s-plus.%s" % (fmt, ext), "+1\n", fmt, 0, "line 1", NUM + '"+1"'),
            ("%s-hex.%s" % (fmt, ext), "0x10\n", fmt, 0, "line 1", ONE + '"0x10"'),
            ("%s-real.%s" % (fmt, ext), "1.5\n", fmt, 0, "line 1", ONE + '"1.5"'),
            ("%s-2p64.%s" % (fmt, ext), "18446744073709551616\n", fmt, 0, "line 1",
             BIG + '"18446744073709551616"'),
            ("%s-empty.%s" % (fmt, ext), "", fmt, 0, "line 1",
             "expected at least one page number, got end of file"),
            ("%s-comments-only.%s" % (fmt, ext), "# a\n# b\n", fmt, 0, "line 3",
             "expected at least one page number, got end of file"),
            ("%s-line-1000.%s" % (fmt, ext), many + "1O\n", fmt, 0, "line 1000", ONE + '"1O"'),
        ]
    c += [
        ("plain-comma.trace", "1\n2,3\n", "plain", 0, "line 2", ONE + '"2,3"'),
        ("plain-escape-seq.trace", "1\n\x1b[2J\x1b[31m7\n", "plain", 0, "line 2",
         NUM + '"\\u001b[2J\\u001b[31m7"'),
        ("plain-nul.trace", "1\n2\x003\n", "plain", 0, "line 2", ONE + '"2\\u00003"'),
        ("plain-utf8.trace", "1\n\u00e9t\u00e9\n", "plain", 0, "line 2",
         NUM + '"\\u00c3\\u00a9t\\u00c3\\u00a9"'),
        ("plain-long-line.trace", "1\n" + "9" * 40 + "\n", "plain", 0, "line 2",
         BIG + '"' + "9" * 24 + '..."'),
        ("plain-crlf-garbage.trace", "1\r\n2\r\n3 x\r\n", "plain", 0, "line 3", ONE + '"3 x"'),
        ("plain-cr-only.trace", "1\r2\r", "plain", 0, "line 1", ONE + '"1\\r2"'),
        ("plain-bom-then-letter.trace", "\ufeffx\n", "plain", 0, "line 1", NUM + '"x"'),
        ("plain-half-bom.trace", "\udcef\udcbb1\n", "plain", 0, "line 1",
         NUM + '"\\u00ef\\u00bb1"'),
        ("plain-no-newline.trace", "1\n2\n3z", "plain", 0, "line 3", ONE + '"3z"'),
        ("plain-truncated.trace", "1\n2\n3\n12", "plain", 0, "line 4",
         "expected a newline at the end of the last line (a truncated trace?), got end of file"),
        ("csv-truncated.csv", "t,obj_id\n1,5\n2,7", "csv", 0, "line 3",
         "expected a newline at the end of the last line (a truncated trace?), got end of file"),
        ("plain-comment-glued.trace", "5#x\n6 7 # c\n", "plain", 0, "line 2", ONE + '"6 7 # c"'),
        ("plain-quoted.trace", "1\n\"5\"\n", "plain", 0, "line 2", NUM + '"\\"5\\""'),
        ("plain-only-blanks.trace", " \t\n\r\n\n", "plain", 0, "line 4",
         "expected at least one page number, got end of file"),
        ("auto-csv-content.trace", "1,2\n", "auto", 0, "line 1", HDR),
        ("auto-csv-no-data.trace", "# c\nt,obj_id\n", "auto", 0, "line 3",
         "expected at least one data line, got end of file"),
        ("auto-plain-letter.trace", "7\nseven\n", "auto", 0, "line 2", NUM + '"seven"'),
        ("auto-by-name.csv", "5\n6\n", "auto", 0, "line 1", HDR),
        ("auto-by-name-upper.CSV", "obj\n6\n", "auto", 0, "line 1", HDR),
        ("auto-col-beyond.csv", "a,b\n1,2\n", "auto", 3, "line 2",
         "expected at least 3 comma-separated fields"),
        ("csv-empty.csv", "", "csv", 0, "line 1", "expected a csv header line, got an empty file"),
        ("csv-comments-only.csv", "# a\n\n", "csv", 0, "line 3",
         "expected a csv header line, got an empty file"),
        ("csv-no-id-column.csv", "time,size\n1,2\n", "csv", 0, "line 1", HDR),
        ("csv-id-column-prefix.csv", "t,obj_idx\n1,2\n", "csv", 0, "line 1", HDR),
        ("csv-header-only.csv", "t,obj_id\n", "csv", 0, "line 2",
         "expected at least one data line, got end of file"),
        ("csv-header-only-no-newline.csv", "t,obj_id", "csv", 0, "line 1",
         "expected at least one data line, got end of file"),
        ("csv-letters.csv", "t,obj_id\n1,5\n2,abc\n", "csv", 0, "line 3", OBJ % 2 + '"abc"'),
        ("csv-short-line.csv", "t,obj_id\n1,5\n2\n", "csv", 0, "line 3",
         "expected at least 2 comma-separated fields"),
        ("csv-empty-field.csv", "t,obj_id\n1,\n", "csv", 0, "line 2", OBJ % 2 + "an empty field"),
        ("csv-negative.csv", "t,key\n1,-5\n", "csv", 0, "line 2", OBJ % 2 + '"-5"'),
        ("csv-2p64.csv", "obj_id\n18446744073709551616\n", "csv", 0, "line 2",
         "expected an object id (decimal integer below 2^64) in column 1"),
        ("csv-space-inside.csv", "t,objId\n1,1 2\n", "csv", 0, "line 2", OBJ % 2 + '"1 2"'),
        ("csv-quoted-letters.csv", "t,obj-id\n1,\"x\"\n", "csv", 0, "line 2", OBJ % 2 + '"x"'),
        ("csv-half-quoted.csv", "t,obj_id\n1,\"5\n", "csv", 0, "line 2", OBJ % 2 + '"\\"5"'),
        ("csv-tab-separated.csv", "t\tobj_id\n1\t5\n", "csv", 0, "line 1", HDR),
        ("csv-semicolons.csv", "t;obj_id\n1;5\n", "csv", 0, "line 1", HDR),
        ("csv-control-byte.csv", "t,obj_id\n1,a\x7f\\b\n", "csv", 0, "line 2",
         OBJ % 2 + '"a\\u007f\\\\b"'),
        ("csv-col-beyond.csv", "1,2\n3,4\n", "csv", 3, "line 2",
         "expected at least 3 comma-separated fields"),
        ("csv-col-letters.csv", "a,b\n1,x\n", "csv", 2, "line 2", OBJ % 2 + '"x"'),
        ("csv-col-header-only.csv", "a,b\n", "csv", 2, "line 2",
         "expected at least one data line, got end of file"),
        ("csv-col-no-newline.csv", "1,5x", "csv", 2, "line 1",
         "expected at least one data line, got end of file"),
        ("csv-col-64.csv", "1,2\n", "csv", 64, "line 2",
         "expected at least one data line, got end of file"),
        ("csv-col-later-line.csv", "1,5\n2,6\n3\n", "csv", 2, "line 3",
         "expected at least 2 comma-separated fields"),
        ("csv-bom-no-id.csv", "\ufefftime,size\n1,2\n", "csv", 0, "line 1", HDR),
        ("csv-crlf-letters.csv", "t,obj_id\r\n1,5\r\n2,x\r\n", "csv", 0, "line 3", OBJ % 2 + '"x"'),
    ]
    c += bin_cases()
    return c


# ---- workfiles ------------------------------------------------------------------------

HITS = 'expected "<hits> <test_name>", FILESIZE: or POOLSIZE:, got '


def workfile_cases():
    """(file, bytes, path, msg)"""
    big = "".join("%d add_double\n" % (i + 1) for i in range(300))
    c = [
        ("empty.workfile", "", "", 'expected at least one "<hits> <test_name>" line, found none'),
        ("comments-only.workfile", "# a\n\n# FILESIZE: 1M\n", "",
         'expected at least one "<hits> <test_name>" line, found none'),
        ("sizes-only.workfile", "FILESIZE: 10K\nPOOLSIZE: 1M\n", "",
         'expected at least one "<hits> <test_name>" line, found none'),
        ("word-first.workfile", "10 sieve\nten add_double\n", "line 2", HITS + '"ten"'),
        ("name-first.workfile", "add_double 50\n", "line 1",
         HITS + '"add_double" (a test line needs its hit count first)'),
        ("hits-negative.workfile", "-5 add_double\n", "line 1",
         'expected a positive hit count, got "-5"'),
        ("hits-plus.workfile", "+5 add_double\n", "line 1",
         'expected a hit count (a positive integer), got "+5"'),
        ("hits-minus-alone.workfile", "- add_double\n", "line 1",
         'expected a hit count (a positive integer), got "-"'),
        ("hits-zero.workfile", "10 sieve\n0 add_int\n", "line 2",
         'expected a positive hit count, got "0"'),
        ("hits-real.workfile", "1.5 add_int\n", "line 1",
         'expected a hit count (a positive integer), got "1.5"'),
        ("hits-2p32.workfile", "4294967296 add_int\n", "line 1",
         'expected a hit count below 2^32, got "4294967296"'),
        ("hits-total.workfile", "16777216 add_int\n1 sieve\n", "line 2",
         "expected at most 16777216 (2^24) hits in all, got 16777217 with this line"),
        ("hits-total-repeated.workfile", "10000000 add_int\n10000000 add_int\n", "line 2",
         "expected at most 16777216 (2^24) hits in all, got 20000000 with this line"),
        ("hits-glued.workfile", "10add_int\n", "line 1",
         'expected a hit count (a positive integer), got "10add_int"'),
        ("name-missing.workfile", "10 sieve\n20\n", "line 2",
         'expected a test name after the hit count "20"'),
        ("name-comment.workfile", "20 # add_int\n", "line 1",
         'expected a test name after the hit count "20"'),
        ("name-typo.workfile", "50 add_dubble\n", "line 1",
         'expected a reaim test name, got "add_dubble" (unknown; did you mean "add_double"?)'),
        ("name-case.workfile", "50 ADD_DOUBLE\n", "line 1",
         'got "ADD_DOUBLE" (unknown; did you mean "add_double"?)'),
        ("name-unknown.workfile", "50 quicksort\n", "line 1",
         'expected a reaim test name, got "quicksort" (unknown: not one of the'),
        ("name-long.workfile", "5 " + "x" * 100 + "\n", "line 1",
         'got "' + "x" * 24 + '..." (unknown: not one of the'),
        ("name-control.workfile", "5 add\x1b[31m\n", "line 1",
         'got "add\\u001b[31m" (unknown'),
        ("trailing-garbage.workfile", "10 add_int 30 add_long\n", "line 1",
         'expected end of line after the test name "add_int", got "30"'),
        ("trailing-garbage-tab.workfile", "10\tadd_int\tx\n", "line 1",
         'expected end of line after the test name "add_int", got "x"'),
        ("line-300.workfile", big + "10 sieve\n10 sieve x\n", "line 302",
         'expected end of line after the test name "sieve", got "x"'),
        ("filesize-no-number.workfile", "FILESIZE:\n10 sieve\n", "line 1",
         "expected a size such as 10K or 1M after FILESIZE, got end of line"),
        ("filesize-word.workfile", "FILESIZE: big\n10 sieve\n", "line 1",
         'expected a size such as 10K or 1M after FILESIZE, got "big"'),
        ("filesize-no-suffix.workfile", "FILESIZE: 100\n10 sieve\n", "line 1",
         'expected a size suffix K, M or G right after the number of FILESIZE, got "100"'),
        ("filesize-bad-suffix.workfile", "FILESIZE: 10X\n10 sieve\n", "line 1",
         'expected a size suffix K, M or G right after the number of FILESIZE, got "10X"'),
        ("filesize-kb.workfile", "FILESIZE: 10KB\n10 sieve\n", "line 1",
         'expected a size suffix K, M or G right after the number of FILESIZE, got "10KB"'),
        ("filesize-space-suffix.workfile", "FILESIZE: 10 K\n10 sieve\n", "line 1",
         'expected a size suffix K, M or G right after the number of FILESIZE, got "10"'),
        ("filesize-negative.workfile", "FILESIZE: -1K\n10 sieve\n", "line 1",
         'expected a size such as 10K or 1M after FILESIZE, got "-1K"'),
        ("filesize-huge.workfile", "FILESIZE: 2G\n10 sieve\n", "line 1",
         'expected a FILESIZE of at most 1G (1048576K), got "2G"'),
        ("filesize-huge-digits.workfile", "FILESIZE: 99999999999999999999999K\n10 sieve\n",
         "line 1", "expected a FILESIZE of at most 1G (1048576K)"),
        ("filesize-garbage.workfile", "FILESIZE: 10K more\n10 sieve\n", "line 1",
         'expected end of line after FILESIZE "10K", got "more"'),
        ("filesize-twice.workfile", "FILESIZE: 10K\n10 sieve\nFILESIZE: 1M\n", "line 3",
         "duplicate FILESIZE (first given on line 1)"),
        ("filesize-lower.workfile", "filesize: 10K\n10 sieve\n", "line 1",
         HITS + '"filesize:"'),
        ("filesize-glued.workfile", "FILESIZE:10K\n10 sieve\n", "line 1",
         HITS + '"FILESIZE:10K"'),
        ("poolsize-huge.workfile", "POOLSIZE: 1025M\n10 sieve\n", "line 1",
         'expected a POOLSIZE of at most 1G (1048576K), got "1025M"'),
        ("poolsize-letter-o.workfile", "POOLSIZE: 25O\n10 sieve\n", "line 1",
         'expected a size suffix K, M or G right after the number of POOLSIZE, got "25O"'),
        ("poolsize-twice.workfile", "POOLSIZE 1M\nPOOLSIZE: 2M\n10 sieve\n", "line 2",
         "duplicate POOLSIZE (first given on line 1)"),
        ("sizes-both-zero.workfile", "FILESIZE: 0K\n10 sieve\nPOOLSIZE: 0M\n", "line 3",
         "expected FILESIZE or POOLSIZE above 0 (reaim refuses both 0)"),
        ("bom-then-word.workfile", "\ufeffhello\n", "line 1", HITS + '"hello"'),
        ("crlf-typo.workfile", "FILESIZE: 10K\r\n10 sieve\r\n10 sieveX\r\n", "line 3",
         'got "sieveX" (unknown; did you mean "sieve"?)'),
        ("nul-in-name.workfile", "10 sie\x00ve\n", "line 1", 'got "sie\\u0000ve"'),
        ("utf8-name.workfile", "10 s\u00efeve\n", "line 1", 'got "s\\u00c3\\u00afeve"'),
    ]
    return c


# ---- dbench loadfiles ------------------------------------------------------------------

LF_HEAD = ('Mkdir "\\clients" NT_STATUS_OK\n'
           'NTCreateX "\\clients\\f" 0x0 0x2 9941 NT_STATUS_OK\n')   # handle 9941, lines 1-2


def loadfile_cases():
    """(name, text, path, msg): NBench loadfiles (workloads/loadfile.c), each with one
    thing wrong, read by a dbench scenario."""
    c = [
        ("empty.txt", "", "line 1", "expected at least one operation"),
        ("comments-only.txt", "# a comment\n\n# another\n", "line 1",
         "expected at least one operation"),
        ("control-only.txt", "LOOP 3\nSLEEP 10\n", "line 1", "expected at least one operation"),
        ("unknown-verb.txt", LF_HEAD + "Frobnicate 9941 NT_STATUS_OK\n", "line 3",
         'unknown operation "Frobnicate"'),
        ("verb-lower-case.txt", 'mkdir "\\clients" NT_STATUS_OK\n', "line 1",
         'unknown operation "mkdir"'),
        ("verb-control-bytes.txt", "Clo\x1bse 9941 NT_STATUS_OK\n", "line 1",
         'unknown operation "Clo\\u001bse"'),
        ("timestamp-only.txt", LF_HEAD + "0.125\n", "line 3",
         "expected an operation after the timestamp"),
        ("close-no-status.txt", LF_HEAD + "Close 9941\n", "line 3",
         "Close: expected 2 fields after the operation (the last a status), found 1"),
        ("readx-short.txt", LF_HEAD + "ReadX 9941 0 4096 NT_STATUS_OK\n", "line 3",
         "ReadX: expected 5 fields after the operation (the last a status), found 4"),
        ("bad-status.txt", LF_HEAD + "Close 9941 OK\n", "line 3",
         'expected a status (NT_STATUS_..., 0x..., SUCCESS, ERROR or *), not "OK"'),
        ("too-many-fields.txt", LF_HEAD + "Close" + " 1" * 12 + " NT_STATUS_OK\n", "line 3",
         "expected at most 12 fields"),
        ("unquoted-path.txt", "Mkdir \\clients NT_STATUS_OK\n", "line 1",
         "Mkdir: expected a quoted path as field 1"),
        ("relative-path.txt", 'Mkdir "clients" NT_STATUS_OK\n', "line 1",
         "expected an absolute path (starting with \\)"),
        ("unclosed-quote.txt", 'Mkdir "\\clients NT_STATUS_OK\n', "line 1",
         "expected a closing double quote"),
        ("empty-path.txt", 'Mkdir "" NT_STATUS_OK\n', "line 1", "expected a path of 1 to 1023 bytes"),
        ("long-path.txt", 'Mkdir "\\' + "a" * 1100 + '" NT_STATUS_OK\n', "line 1",
         "expected a path of 1 to 1023 bytes"),
        ("tab-in-path.txt", 'Mkdir "\\cli\tents" NT_STATUS_OK\n', "line 1",
         'expected a path of printable characters, not "\\\\cli\\tents"'),
        ("handle-word.txt", LF_HEAD + "Close h9941 NT_STATUS_OK\n", "line 3",
         'Close: expected a number as field 1, not "h9941"'),
        ("size-negative.txt", LF_HEAD + "ReadX 9941 0 -5 0 NT_STATUS_OK\n", "line 3",
         'ReadX: expected a number as field 3, not "-5"'),
        ("handle-not-opened.txt", LF_HEAD + "Close 77 NT_STATUS_OK\n", "line 3",
         "Close: handle 77 was not opened by an earlier NTCreateX"),
        ("returned-larger.txt", LF_HEAD + "ReadX 9941 0 10 20 NT_STATUS_OK\n", "line 3",
         "ReadX: returned size 20 larger than the size asked, 10"),
        ("offset-2tib.txt", LF_HEAD + "WriteX 9941 2199023255552 10 10 NT_STATUS_OK\n", "line 3",
         "WriteX: expected an offset below 1 TiB and a size below 1 GiB"),
        ("size-2gib.txt", LF_HEAD + "WriteX 9941 0 2147483648 2147483648 NT_STATUS_OK\n", "line 3",
         "WriteX: expected an offset below 1 TiB and a size below 1 GiB"),
        ("nul-byte.txt", LF_HEAD + "Close 99\x0041 NT_STATUS_OK\n", "line 3",
         "expected text, found a NUL byte"),
        ("error-on-line-1000.txt",
         LF_HEAD + "WriteX 9941 0 4096 4096 NT_STATUS_OK\n" * 997 + "Closed 9941 NT_STATUS_OK\n",
         "line 1000", 'unknown operation "Closed"'),
        ("timestamps-bad-status.txt", '0.000 Mkdir "\\clients" NT_STATUS_OK\n'
         '0.010 Mkdir "\\clients\\a" OKAY\n', "line 2",
         'expected a status (NT_STATUS_..., 0x..., SUCCESS, ERROR or *), not "OKAY"'),
    ]
    return c


# ---- writing --------------------------------------------------------------------------

def write(rel, data):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    with open(path, "wb") as f:
        f.write(data)


def main():
    traces_only = sys.argv[1:] == ["--traces-only"]
    mmemu = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "mmemu")
    expect = {}
    if traces_only:
        with open(os.path.join(OUT, "expect.json")) as f:
            expect = {k: v for k, v in json.load(f).items() if not k.startswith("trace/")}
    # every case is built before anything is removed: a generator that stops (an
    # unknown parameter section, two cases of one name) leaves the corpus as it was
    files = []

    def add(kind, name, data, entry):
        rel = kind + "/" + name
        if rel in expect:
            raise SystemExit("two cases named " + rel)
        files.append((rel, data if isinstance(data, (str, bytes)) else
                      json.dumps(data, indent=2) + "\n"))
        expect[rel] = entry

    for name, doc, path, msg in [] if traces_only else scenario_cases(mmemu):
        add("scenario", name, doc, {"path": path, "msg": msg})
    for name, text, fmt, col, path, msg in trace_cases():
        add("trace", name, text, {"format": fmt, "obj_id_col": col, "path": path, "msg": msg})
    for kind, cases in (() if traces_only else
                        (("workfile", workfile_cases()), ("loadfile", loadfile_cases()))):
        for name, text, path, msg in cases:
            add(kind, name, text, {"path": path, "msg": msg})
    for d in ("trace",) if traces_only else ("scenario", "trace", "workfile", "loadfile"):
        shutil.rmtree(os.path.join(OUT, d), ignore_errors=True)
    for rel, data in files:
        write(rel, data)
    with open(os.path.join(OUT, "expect.json"), "w") as f:
        f.write("{\n" + ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(expect[k]))
                                   for k in sorted(expect)) + "\n}\n")
    print("%d cases: %d scenarios, %d traces, %d workfiles, %d loadfiles" % (
        len(expect), sum(k.startswith("scenario/") for k in expect),
        sum(k.startswith("trace/") for k in expect),
        sum(k.startswith("workfile/") for k in expect),
        sum(k.startswith("loadfile/") for k in expect)))


if __name__ == "__main__":
    main()
