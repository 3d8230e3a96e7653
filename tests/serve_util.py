"""serve_util.py - start `mmemu serve` on a free loopback port for the tests.

Used by serve_load.py and serve_browser.py.  The test process becomes a child
subreaper (prctl PR_SET_CHILD_SUBREAPER), so a worker that outlived the server
would become its child: no_orphans() then finds it.
"""
import ctypes
import http.client
import json
import os
import signal
import subprocess
import time

PR_SET_CHILD_SUBREAPER = 36


def subreaper():
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


class Server:
    def __init__(self, mmemu, *args):
        self.proc = subprocess.Popen([mmemu, "serve", "--port", "0"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.first = self.proc.stdout.readline()
        if "listening on http://127.0.0.1:" not in self.first:
            raise SystemExit("serve did not start: %r %s" % (self.first, self.proc.stderr.read()))
        self.port = int(self.first.split("127.0.0.1:")[1].split("/")[0])
        self.base = "http://127.0.0.1:%d" % self.port

    def request(self, method, path, body=None, timeout=60):
        """Returns: (status, content type, body bytes)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
        c.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        r = c.getresponse()
        out = (r.status, r.getheader("Content-Type"), r.read())
        c.close()
        return out

    def json(self, method, path, body=None):
        st, _, b = self.request(method, path, body)
        return st, json.loads(b)

    def wait_run(self, rid, limit=300):
        t0 = time.time()
        while time.time() - t0 < limit:
            st, d = self.json("GET", "/api/runs/%d" % rid)
            if d.get("state") != "running":
                return d
            time.sleep(0.2)
        raise SystemExit("run %d did not finish in %d s" % (rid, limit))

    def stop(self, sig=signal.SIGTERM, limit=30):
        """Signal the server; Returns: (exit status, its stderr)."""
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(limit)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise SystemExit("serve did not stop within %d s of signal %d" % (limit, sig))
        return rc, self.proc.stderr.read()


def no_orphans():
    """Returns: the pids of processes left as this (subreaper) process's children."""
    left = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        ppid = int(st.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid():
            left.append(int(p))
    return left
