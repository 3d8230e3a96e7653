#!/usr/bin/env python3
"""gen_seeds.py - write the fuzz targets' seed corpora tests/fuzz/corpus/<target>/
(docs/fuzzing.md).  Run from anywhere after gen_malformed.py; the files are committed:

    python3 tests/fuzz/gen_seeds.py

Sources: the shipped scenarios (scenarios/**/*.json), traces and reaim workfiles
(workloads/reaim/workfile.*), the inputs of tests/bad and tests/workfiles, and the
malformed corpus tests/malformed.  Each seed is its source, made to mean to the
target what the source means to mmemu:

* scenario: the JSON with the input files it names ("file", "workfile") renamed
  relative to tests/fuzz, where fuzz_scenario.c pretends the scenario lives; a file
  over 4 KiB is replaced by tests/bad/ok.trace, so that no seed parses a large trace
  for every sweep point of every input derived from it.
* trace: one byte choosing the layout (fuzz_trace.c) and the text; a valid trace in
  every layout that accepts it, a malformed one in the layout tests/malformed
  expects it in; texts cut to their first 200 lines.
* workfile: the text.
Seeds are named SOURCE-NAME (bad-, shipped-, malformed-, workfiles-); the corpus is
rewritten whole.
"""
import glob
import json
import os
import re
import shutil
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ = os.path.join(ROOT, "tests", "fuzz")
CORPUS = os.path.join(FUZZ, "corpus")
OK_TRACE = os.path.join(ROOT, "tests", "bad", "ok.trace")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def rel(path):
    return os.path.relpath(path, ROOT)


def tag(path):
    """The seed name of source @path: its folder's role and its name."""
    r = rel(path)
    for prefix, t in (("tests/malformed/", "malformed-"), ("tests/bad/", "bad-"),
                      ("tests/workfiles/", "workfiles-"), ("scenarios/", "shipped-"),
                      ("workloads/reaim/", "shipped-"), ("workloads/dbench/", "shipped-")):
        if r.startswith(prefix):
            return t + r[len(prefix):].replace("/", "-")
    raise SystemExit("no tag for " + r)


def scenario_seed(path):
    text = read(path)

    def rename(m):
        target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(2).decode()))
        if os.path.isfile(target) and os.path.getsize(target) > 4096:
            target = OK_TRACE
        return m.group(1) + os.path.relpath(target, FUZZ).encode() + m.group(3)

    return re.sub(rb'("(?:file|workfile|loadfile)"\s*:\s*")([^"\\]*)(")', rename, text)


# fuzz_trace.c's first byte: layout in the low 3 bits, csv column - 1 above them
def layout(fmt, col, name=""):
    c = min(max(col, 1), 32) - 1
    if fmt == "plain":
        return 0
    if fmt == "txt":
        return 1
    if fmt == "csv":
        return 2 if col == 0 else 3 | c << 3
    if fmt == "refs":
        return 7
    if col:
        return 6 | c << 3
    return 5 if name.lower().endswith(".csv") else 4


def head(data, lines=200):
    return b"".join(data.splitlines(keepends=True)[:lines])


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    seeds = {"scenario": {}, "trace": {}, "workfile": {}, "loadfile": {}}

    for p in sorted(glob.glob(os.path.join(ROOT, "scenarios", "**", "*.json"), recursive=True)
                    + glob.glob(os.path.join(ROOT, "tests", "bad", "*.json"))
                    + glob.glob(os.path.join(ROOT, "tests", "malformed", "scenario", "*"))):
        seeds["scenario"][tag(p)] = scenario_seed(p)

    # valid traces in every layout that reads them
    ids = [l.strip() for l in read(OK_TRACE).decode().splitlines()
           if l.strip() and not l.startswith("#")]
    plain = read(OK_TRACE)
    for name, fmt, col, data in (
            ("plain", "plain", 0, plain), ("txt", "txt", 0, plain), ("auto", "auto", 0, plain),
            ("refs", "refs", 0, ",".join(ids).encode()),
            ("csv", "csv", 0, ("time,obj_id,size\n" + "".join(
                "%d,%s,4096\n" % (i, x) for i, x in enumerate(ids))).encode()),
            ("csv-col2", "csv", 2, "".join("%d,%s\n" % (i, x) for i, x in enumerate(ids)).encode()),
            ("auto-csv", "auto", 0, ("t,key\n" + "".join(
                "%d,\"%s\"\r\n" % (i, x) for i, x in enumerate(ids))).encode())):
        seeds["trace"]["bad-ok.trace-" + name] = bytes([layout(fmt, col, "x.csv" if
                                                               name == "auto-csv" else "")]) + data
    # the same trace in the binary layout (tracegen --format bin), found by its magic
    dense, orig = {}, []
    for x in ids:
        if int(x) not in dense:
            dense[int(x)] = len(orig)
            orig.append(int(x))
    refs = [dense[int(x)] for x in ids]
    seeds["trace"]["bad-ok.trace-bin"] = bytes([layout("auto", 0)]) + (
        b"MMTRACE1" + struct.pack("<IIQ", 1, len(orig), len(refs))
        + struct.pack("<%dQ" % len(orig), *orig) + struct.pack("<%dI" % len(refs), *refs))
    for p in sorted(glob.glob(os.path.join(ROOT, "scenarios", "**", "*.trace"), recursive=True)
                    + glob.glob(os.path.join(ROOT, "tests", "bad", "*.trace"))):
        if p != OK_TRACE:
            seeds["trace"][tag(p)] = bytes([layout("auto", 0)]) + head(read(p))
    with open(os.path.join(ROOT, "tests", "malformed", "expect.json")) as f:
        expect = json.load(f)
    for r, e in sorted(expect.items()):
        if r.startswith("trace/"):
            p = os.path.join(ROOT, "tests", "malformed", r)
            seeds["trace"][tag(p)] = bytes([layout(e["format"], e["obj_id_col"], r)]) + head(read(p))

    for p in sorted(glob.glob(os.path.join(ROOT, "workloads", "reaim", "workfile.*"))
                    + glob.glob(os.path.join(ROOT, "tests", "workfiles", "*"))
                    + glob.glob(os.path.join(ROOT, "tests", "bad", "*.workfile"))
                    + glob.glob(os.path.join(ROOT, "tests", "malformed", "workfile", "*"))):
        seeds["workfile"][tag(p)] = read(p)

    # loadfiles (fuzz_loadfile.c's first byte: the byte limit / 64, 0 = none): the
    # shipped one whole and cut after 4 KiB, and one line of each kind the parser
    # rejects or counts (Debian's client.txt is never copied into the repository)
    for p in sorted(glob.glob(os.path.join(ROOT, "workloads", "dbench", "*.txt"))):
        seeds["loadfile"][tag(p)] = b"\0" + read(p)
        seeds["loadfile"][tag(p) + "-cut4k"] = b"\x40" + read(p)
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "malformed", "loadfile", "*"))):
        seeds["loadfile"][tag(p)] = b"\0" + read(p)
    for name, text in (
            ("timestamped", b'0.000 NTCreateX "/clients/client1/a.doc" 0x0 0x2 1 NT_STATUS_OK\n'
                            b'0.010 WriteX 1 0 4096 4096 NT_STATUS_OK\n0.020 Close 1 NT_STATUS_OK\n'),
            ("control-lines", b"LOOP\nSLEEP 10\nDeltree \"/clients/client1\" NT_STATUS_OK\n"),
            ("bad-verb", b"Frobnicate \"/x\" NT_STATUS_OK\n"),
            ("bad-handle", b"ReadX 7 0 10 10 NT_STATUS_OK\n"),
            ("bad-size", b'NTCreateX "/a" 0x0 0x2 1 NT_STATUS_OK\nReadX 1 0 10 20 NT_STATUS_OK\n'),
            ("rename", b'Rename "/a/b" "/a/c" NT_STATUS_OK\nFIND_FIRST "/a/*" 0x16 1366 0 NT_STATUS_OK\n')):
        seeds["loadfile"]["hand-" + name] = b"\0" + text

    for target, files in seeds.items():
        os.makedirs(os.path.join(CORPUS, target))
        for name, data in files.items():
            with open(os.path.join(CORPUS, target, name), "wb") as f:
                f.write(data)
        print("%s: %d seeds, %d bytes" % (target, len(files), sum(map(len, files.values()))))


if __name__ == "__main__":
    main()
