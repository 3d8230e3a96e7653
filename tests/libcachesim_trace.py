#!/usr/bin/env python3
"""libcachesim_trace.py - write a plain mmemu trace (one page number a line) as
libCacheSim's oracleGeneralBin trace (24-byte records: uint32 time, uint64 object
id, uint32 size, int64 next access), every object of size 1 and no next-access
information (-1), so that `cachesim ... oracleGeneralBin ALGO N --ignore-obj-size`
replays the same references as `mmemu replay` with N frames.

Not part of the test suite: docs/performance.md ("libCacheSim on the same trace")
uses it to compare the two tools' replay throughput and miss ratios.

usage: libcachesim_trace.py IN.trace OUT.oracleGeneral.bin
"""
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: libcachesim_trace.py IN.trace OUT.oracleGeneral.bin")
    rec = struct.Struct("<IQIq")
    n = 0
    with open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
        buf = []
        for line in src:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            buf.append(rec.pack(n // 1000, int(line), 1, -1))
            n += 1
            if len(buf) == 65536:
                dst.write(b"".join(buf))
                buf = []
        dst.write(b"".join(buf))
    print(f"{n} references")


if __name__ == "__main__":
    main()
