#!/usr/bin/env python3
"""serve_load.py MMEMU - `mmemu serve` under load on loopback.

1,200 requests from 50 concurrent clients: pages, scripts, /api/list, Belady's
replay, bad requests (malformed JSON, unknown keys, a path escape, an unknown
page, a wrong method, a body over 1 MiB), while two what-if runs execute in the
worker pool.  Every good request must succeed with the right content, every bad
one must get its 4xx with a one-line JSON error, and the runs must finish.
Then a run is started and the server is stopped by SIGTERM in its middle: it
must exit 0 at once and leave no worker behind (this process is a child
subreaper: an orphaned worker would become its child).  The same for SIGINT.
Prints the figures (requests, seconds, requests/s, slowest request).
"""
import concurrent.futures
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server, no_orphans, subreaper  # noqa: E402

BELADY = {"refs": "1,2,3,4,1,2,5,1,2,3,4,5", "frames": [3, 4], "policies": ["fifo"]}

GOOD = [
    ("GET", "/", None, lambda b: b"Replay lab" in b),
    ("GET", "/replay", None, lambda b: b"replay.js" in b),
    ("GET", "/static/lab.js", None, lambda b: b"function api" in b),
    ("GET", "/api/list", None, lambda b: b"trace-policies.json" in b),
    ("POST", "/api/replay", BELADY,
     lambda b: [r["faults"] for r in json.loads(b)["runs"]] == [9, 10]),
]
BAD = [
    ("POST", "/api/replay", b'{"refs": ', 400, "request: line 1: "),
    ("POST", "/api/replay", {"refs": "1", "frames": 3, "policies": ["lru"], "x": 1}, 400, "request: x: unknown key"),
    ("POST", "/api/replay", {"trace": "/etc/passwd", "frames": 3, "policies": ["lru"]}, 400,
     "request: trace: /etc/passwd: expected a shipped scenario or workload input"),
    ("POST", "/api/runs", {"scenario": "../../etc/passwd"}, 400, "request: scenario: expected a shipped scenario"),
    ("GET", "/nope", None, 404, "/nope: no such page"),
    ("DELETE", "/api/list", None, 405, "/api/list: only GET"),
    ("POST", "/api/replay", b"[" + b" " * (1 << 20) + b"]", 413, "request: expected a body of at most 1048576 bytes"),
]


def one(srv, i):
    """Request number @i. Returns: None, or what went wrong."""
    t0 = time.time()
    if i % 4 == 3:
        m, p, body, status, prefix = BAD[(i // 4) % len(BAD)]
        st, ct, b = srv.request(m, p, body)
        try:
            err = json.loads(b)["error"]
        except (ValueError, KeyError):
            return "%s %s: %d, not a JSON error: %r" % (m, p, st, b[:100])
        if st != status or not err.startswith(prefix) or "\n" in err:
            return "%s %s: %d %r, expected %d %r" % (m, p, st, err, status, prefix)
    else:
        m, p, body, ok = GOOD[i % len(GOOD)]
        st, ct, b = srv.request(m, p, body)
        if st != 200 or not ok(b):
            return "%s %s: %d %r" % (m, p, st, b[:200])
    return time.time() - t0


def main():
    mmemu = sys.argv[1]
    subreaper()
    srv = Server(mmemu, "-q", "-j", "2")
    runs = []
    for frames in ([500, 1000], [250, 2000]):
        st, d = srv.json("POST", "/api/runs", {"scenario": "scenarios/teaching/trace-policies.json",
                                               "set": {"runs": 1},
                                               "sweep": {"key": "workload.frames", "values": frames}})
        assert st == 201, d
        runs.append(d["id"])
    n = 1200
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=50) as ex:
        res = list(ex.map(lambda i: one(srv, i), range(n)))
    wall = time.time() - t0
    errors = [r for r in res if isinstance(r, str)]
    good = sorted(r for i, r in enumerate(res) if not isinstance(r, str) and i % 4 != 3)
    times = sorted(r for r in res if not isinstance(r, str))
    for e in errors[:10]:
        print("FAIL:", e)
    print("load: %d requests (%d bad on purpose) from 50 clients in %.2f s: %.0f requests/s, %d failed; "
          "good requests: median %.3f s, 99th percentile %.3f s; slowest of all %.3f s (the 1 MiB bodies)"
          % (n, n // 4, wall, n / wall, len(errors), good[len(good) // 2] if good else 0,
             good[int(len(good) * 0.99)] if good else 0, times[-1] if times else 0))
    for rid in runs:
        d = srv.wait_run(rid)
        if d["state"] != "done" or d["done"] != 8:
            errors.append("run %d: %s" % (rid, d))
    print("runs during the load: %s done" % runs)
    # stop by SIGTERM in the middle of a run: no worker may survive the server
    for sig in (signal.SIGTERM, signal.SIGINT):
        st, d = srv.json("POST", "/api/runs", {"scenario": "scenarios/teaching/2read-small.json", "set": {"runs": 1}})
        assert st == 201, d
        time.sleep(0.5)
        t = time.time()
        rc, err = srv.stop(sig)
        time.sleep(0.3)
        left = no_orphans()
        print("signal %d: exit %d after %.2f s, %d processes left" % (sig, rc, time.time() - t, len(left)))
        if rc != 0 or left:
            errors.append("signal %d: exit status %d, processes left %s; stderr %s" % (sig, rc, left, err[-300:]))
        for p in left:
            os.kill(p, signal.SIGKILL)
        if sig == signal.SIGTERM:
            srv = Server(mmemu, "-q")
    if errors:
        sys.exit("serve_load: %d failures" % len(errors))


if __name__ == "__main__":
    main()
