"""Benchmark: Lighthouse scores of the pages a player opens at the table.

Serves the site as `make serve` does (gunicorn with gevent workers, on the built instance folder,
on a free loopback port), then runs Lighthouse (npm `lighthouse`, pinned in bench/js/package.json,
installed by `make lighthouse`) with Debian's Chromium on each page, as a phone (Lighthouse's
default: a mid-range phone, simulated slow 4G and a 4× slower CPU) and as a desktop
(`--preset=desktop`), in the four categories: performance, accessibility, best practices, SEO.

Pages: the home page, a rule page, search results, and the builder with a situation (the
standard dispute as a share link). Prints one line per page and form factor with the four scores
and the metrics behind performance (FCP, LCP, TBT, CLS, speed index), and keeps each report
under instance/artifacts/lighthouse/. Run with `make lighthouse` (or `.venv/bin/python
bench/lighthouse.py` after `make build` and the npm install); it takes a few minutes, so it is not
part of `make test`. Numbers only: the tests assert behaviour (the builder's layout shift is
tested in tests/test_builder_screens_browser.py), never Lighthouse's timings."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIGHTHOUSE = REPO / "bench" / "js" / "node_modules" / ".bin" / "lighthouse"
OUT = REPO / "instance" / "artifacts" / "lighthouse"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
METRICS = {"first-contentful-paint": "FCP", "largest-contentful-paint": "LCP", "total-blocking-time": "TBT",
           "cumulative-layout-shift": "CLS", "speed-index": "SI"}

# The standard dispute (tests/test_builder_screens_browser.py) as a share link (builder-state.js, version 1).
DISPUTE = {"v": 1, "h": [[6, 10, "hill"], [4, 10, "forest"], [5, 11, "hedgerow"]],
           "u": [["u1", "allies", "infantry", 6, 10, 4], ["u2", "axis", "armor", 4, 10, 3]], "a": "u1", "t": "u2"}
PAGES = {
    "home": "/",
    "rule page": "/rules/terrain/forest",
    "search results": "/search?q=tank+in+a+forest",
    "builder with a situation":
        "/builder#s=" + base64.urlsafe_b64encode(json.dumps(DISPUTE).encode()).decode().rstrip("="),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int) -> subprocess.Popen[bytes]:
    """`make serve`'s command on this port (the instance folder must be built: `make build`)."""
    command = [str(REPO / ".venv" / "bin" / "gunicorn"), "--worker-class", "gevent", "--workers", "2",
               "--timeout", "30", "--no-control-socket", "--bind", f"127.0.0.1:{port}", "adjudicator:create_app()"]
    server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(120):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
            return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the server did not start (run `make build` first)")


def audit(url: str, name: str, desktop: bool) -> dict:
    report = OUT / f"{name.replace(' ', '-')}-{'desktop' if desktop else 'phone'}.json"
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               f"--only-categories={','.join(CATEGORIES)}",
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run"]
    if desktop:
        command.append("--preset=desktop")
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    return json.loads(report.read_text())


def main() -> None:
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"{LIGHTHOUSE} is missing: `make lighthouse` installs it")
    OUT.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = serve(port)
    try:
        version = ""
        print(f"{'page':26} {'as':8} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4}   "
              + "  ".join(f"{m:>6}" for m in METRICS.values()))
        for name, path in PAGES.items():
            for desktop in (False, True):
                result = audit(f"http://127.0.0.1:{port}{path}", name, desktop)
                version = result["lighthouseVersion"]
                scores = [round(100 * (result["categories"][c]["score"] or 0)) for c in CATEGORIES]
                metrics = []
                for key in METRICS:
                    value = result["audits"][key]["numericValue"]
                    metrics.append(f"{value:6.3f}" if key == "cumulative-layout-shift" else f"{value / 1000:5.2f}s")
                print(f"{name:26} {'desktop' if desktop else 'phone':8} " + " ".join(f"{s:>4}" for s in scores)
                      + "   " + "  ".join(f"{m:>6}" for m in metrics), flush=True)
                failing = [a["title"] for a in result["audits"].values()
                           if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary"]
                if failing:
                    print(f"{'':26} failing audits: {'; '.join(failing)}")
        print(f"Lighthouse {version}, {Path(CHROMIUM).name} "
              f"{subprocess.run([CHROMIUM, '--version'], capture_output=True, text=True).stdout.split()[1]}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
