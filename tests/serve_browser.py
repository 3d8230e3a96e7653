#!/usr/bin/env python3
"""serve_browser.py MMEMU ARTIFACT_DIR - the three pages of `mmemu serve` in a
real browser: Debian's headless Chromium driven by Selenium (chromium-driver).

Replay lab: Belady's string typed in, FIFO with 3 and 4 frames: the page must
show 9 and 10 faults (and the Belady button the same); CLOCK's bits and hand and
OPT's next-use distances must be drawn; the CSV export must hold the table.
What-if lab: a two-point run (trace-policies.json, workload.frames 500 and
1000, one run) until the plot appears; every point of the plot (its circles'
titles) must equal the primary metric `mmemu run` gives for the same scenario.
Seeds page: one row per claim of the reproduce results it is given.
Screenshots of the three pages go to ARTIFACT_DIR (kept as test artifacts).
Exit 77 (skipped) when Chromium, chromedriver or Selenium is missing:
.ci/quickstart test installs them.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    # Debian's python3-selenium is in the system python, not in another one on PATH
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("serve_browser: python3-selenium is not installed: skipped")
    sys.exit(77)

from serve_util import Server, subreaper  # noqa: E402

BELADY = "1,2,3,4,1,2,5,1,2,3,4,5"
SCENARIO = "scenarios/teaching/trace-policies.json"


def browser(profile):
    chromium = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        print("serve_browser: chromium or chromedriver is not installed: skipped")
        sys.exit(77)
    o = webdriver.ChromeOptions()
    o.binary_location = chromium
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-proxy-server", "--window-size=1400,1000", "--user-data-dir=" + profile):
        o.add_argument(a)
    return webdriver.Chrome(service=Service(driver), options=o)


def shot(d, path):
    """A screenshot of the whole page (the window grown to its height)."""
    h = d.execute_script("return document.documentElement.scrollHeight")
    d.set_window_size(1400, min(h + 20, 3000))
    d.save_screenshot(path)
    d.set_window_size(1400, 1000)


def check(cond, what):
    if not cond:
        raise SystemExit("serve_browser: FAILED: " + what)
    print("ok:", what)


def replay_lab(d, srv, wait, shots):
    d.get(srv.base + "/replay")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#policies input"))
    refs = d.find_element(By.ID, "refs")
    refs.clear()
    refs.send_keys(BELADY)
    frames = d.find_element(By.ID, "frames")
    frames.clear()
    frames.send_keys("3,4")
    for box in d.find_elements(By.CSS_SELECTOR, "#policies input"):
        if box.is_selected() != (box.get_attribute("value") == "fifo"):
            box.click()
    d.find_element(By.ID, "run").click()

    def faults(d):   # one round trip: {(policy, frames): faults shown}
        rows = d.execute_script("return [...document.querySelectorAll('#totals tr.row')].map(r => "
                                "[r.dataset.policy, r.dataset.frames, r.querySelector('.faults').textContent])")
        got = {(p, f): n for p, f, n in rows}
        return got if set(got) == {("fifo", "3"), ("fifo", "4")} else None
    got = wait.until(faults)
    check(got[("fifo", "3")] == "9" and got[("fifo", "4")] == "10",
          "Belady's string typed in: FIFO 9 faults with 3 frames, 10 with 4 (page shows %s)" % got)
    heads = [h.text for h in d.find_elements(By.CSS_SELECTOR, ".panel h3")]
    check(heads == ["FIFO, 3 frames: 9 faults, 3 hits", "FIFO, 4 frames: 10 faults, 2 hits"],
          "side-by-side tables headed %s" % heads)
    d.find_element(By.ID, "csv").click()
    csv = d.find_element(By.ID, "export").get_attribute("value")
    check(csv.startswith("fifo 3 frames,1,2,3,4,1,2,5,1,2,3,4,5\nframe 0,1,1,1,4,4,4,5,5,5,5,5,5\n"),
          "CSV export of the table")
    # CLOCK's bits and hand, OPT's next-use distances (Silberschatz's string)
    d.find_element(By.ID, "c-silberschatz").click()
    frames.clear()
    frames.send_keys("3")
    for box in d.find_elements(By.CSS_SELECTOR, "#policies input"):
        if box.is_selected() != (box.get_attribute("value") in ("clock", "opt", "fifo", "lru")):
            box.click()
    d.find_element(By.ID, "run").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#totals tr.row")) == 4 and
               d.find_elements(By.CSS_SELECTOR, ".panel[data-policy=opt] sub"))
    tot = dict(d.execute_script("return [...document.querySelectorAll('#totals tr.row')].map(r => "
                                "[r.dataset.policy, r.querySelector('.faults').textContent])"))
    check(tot == {"fifo": "15", "lru": "12", "clock": "11", "opt": "9"}, "Silberschatz, 3 frames: %s" % tot)
    check(len(d.find_elements(By.CSS_SELECTOR, ".panel[data-policy=clock] td.hand")) == 20,
          "CLOCK's hand drawn at every step")
    check(len(d.find_elements(By.CSS_SELECTOR, ".panel[data-policy=opt] sub")) > 20,
          "OPT's next-use distances drawn")
    shot(d, os.path.join(shots, "replay-lab.png"))
    # the Belady button
    d.find_element(By.ID, "belady").click()
    got = wait.until(faults)
    check(got[("fifo", "3")] == "9" and got[("fifo", "4")] == "10", "the Belady button: 9 and 10 faults")
    shot(d, os.path.join(shots, "replay-belady.png"))


def run_values(mmemu, frames):
    """The primary metric `mmemu run` gives, {(kernel, "frames"): mean}."""
    out = tempfile.mktemp(suffix=".json")
    subprocess.run([mmemu, "run", "-q", "--set", "runs=1", "--set",
                    "sweep=" + json.dumps({"workload.frames": frames}), "-o", out, SCENARIO], check=True)
    res = json.load(open(out))
    os.unlink(out)
    vals = {}
    for r in res["runs"]:
        vals.setdefault((r["kernel"], str(r["point"]["workload.frames"])), []).append(r["primary"]["value"])
    return {k: sum(v) / len(v) for k, v in vals.items()}


def whatif_lab(d, srv, mmemu, wait, shots):
    d.get(srv.base + "/whatif")
    wait.until(lambda d: d.find_element(By.ID, "scenario").get_attribute("value") == SCENARIO)
    p = d.find_element(By.ID, "param")
    p.clear()
    p.send_keys("workload.frames")
    v = d.find_element(By.ID, "values")
    v.clear()
    v.send_keys("500, 1000")
    r = d.find_element(By.ID, "runs")
    r.clear()
    r.send_keys("1")
    t0 = time.time()
    d.find_element(By.ID, "run").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#plot svg circle title") and
               "done" in d.find_element(By.ID, "status").text)
    print("what-if run: plot after %.1f s" % (time.time() - t0))
    titles = d.execute_script(
        "return [...document.querySelectorAll('#plot svg circle title')].map(t => t.textContent)")
    plot = {}
    for t in titles:   # "KERNEL at X: VALUE"
        head, val = t.rsplit(": ", 1)
        kernel, x = head.rsplit(" at ", 1)
        plot[(kernel, x)] = float(val)
    want = run_values(mmemu, [500, 1000])
    check(set(plot) == set(want) and len(want) == 8, "the plot has the 8 points of `mmemu run` (%d)" % len(plot))
    bad = [k for k in want if abs(plot[k] - want[k]) > 1e-9 * max(1.0, abs(want[k]))]
    check(not bad, "every plotted point equals mmemu run's primary metric (e.g. opt at 500: %g)" % want[("opt", "500")])
    check("runtime" in d.find_element(By.ID, "compare").text, "the compare table is shown")
    shot(d, os.path.join(shots, "whatif-lab.png"))


def seeds_page(d, srv, wait, shots, nclaims):
    d.get(srv.base + "/seeds")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#claims tr.claim"))
    rows = d.find_elements(By.CSS_SELECTOR, "#claims tr.claim")
    check(len(rows) == nclaims, "the seeds page has one row per claim (%d)" % len(rows))
    first = rows[0]
    check(first.get_attribute("data-verdict") == "reproduced" and "32 vs 75" in first.text,
          "published beside emulated with the verdict: %s" % first.text[:120])
    link = first.find_element(By.TAG_NAME, "a").get_attribute("href")
    check(link.endswith("/docs/seeds/004.md"), "the row links to the seed report")
    shot(d, os.path.join(shots, "seeds.png"))
    d.get(link)
    check("colour" in d.find_element(By.TAG_NAME, "body").text, "the seed report opens")


def main():
    mmemu, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    subreaper()
    fixture = os.path.join(HERE, "serve", "reproduce-004.json")
    nclaims = sum(len(s["claims"]) for s in json.load(open(fixture))["seeds"])
    srv = Server(mmemu, "--reproduce", fixture, "-q")
    profile = tempfile.mkdtemp(prefix="mmemu-chromium.")
    d = None
    t0 = time.time()
    try:
        d = browser(profile)
        print("chromium started in %.1f s" % (time.time() - t0))
        wait = WebDriverWait(d, 120, poll_frequency=0.1)
        for name, step in (("replay lab", lambda: replay_lab(d, srv, wait, shots)),
                           ("what-if lab", lambda: whatif_lab(d, srv, mmemu, wait, shots)),
                           ("seeds page", lambda: seeds_page(d, srv, wait, shots, nclaims))):
            t = time.time()
            step()
            print("%s: %.1f s" % (name, time.time() - t))
    finally:
        if d:
            d.quit()
        shutil.rmtree(profile, ignore_errors=True)
        rc, err = srv.stop()
    check(rc == 0, "serve stopped cleanly on SIGTERM")
    print("browser test: %.1f s, screenshots in %s" % (time.time() - t0, shots))


if __name__ == "__main__":
    main()
