"""Benchmark: Lighthouse scores of the pages a player opens at the table.

Serves the site with `make serve` (nginx in front of gunicorn, on the built instance folder, on a
free loopback port), then runs Lighthouse (npm `lighthouse`, pinned in bench/js/package.json,
installed by `make lighthouse`) with Debian's Chromium on each page, as a phone (Lighthouse's
default: a mid-range phone, simulated slow 4G and a 4× slower CPU) and as a desktop
(`--preset=desktop`), in the four categories: performance, accessibility, best practices, SEO.

Pages: the home page, a rule page, search results, and the builder with a situation (the
standard dispute as a share link). Prints one line per page and form factor with the four scores
and the metrics behind performance (FCP, LCP, TBT, CLS, speed index), and keeps each report
under instance/artifacts/lighthouse/. Run with `make lighthouse` (or `.venv/bin/python
bench/lighthouse.py` after `make build` and the npm install); it takes a few minutes, so it is not
part of `make test`. Numbers only: the tests assert behaviour (the builder's layout shift is
tested in tests/test_builder_screens_browser.py), never Lighthouse's timings.

On a shared machine the simulated throttling multiplies the CPU time the page's tasks really
took, so other people's load inflates TBT. To compare a change, audit only the page it touches
(`--page builder --as phone`) several times (`--runs 5`), alternating with a copy of the old code
served the same way (`--against DIR`, a checkout with its own built `instance/`): each run then
audits both, one after the other, and the lines say which is which."""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.load import free_port, make_serve  # noqa: E402

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


def audit(url: str, name: str, desktop: bool, label: str = "", trace: bool = False) -> dict:
    """Lighthouse's report on `url` (kept as `<page>-<form factor>[-<label>].json` under OUT; with
    `trace`, its trace beside it as `….trace.json`)."""
    tag = f"-{label.strip()}" if label.strip() else ""
    report = OUT / f"{name.replace(' ', '-')}-{'desktop' if desktop else 'phone'}{tag}.json"
    report.unlink(missing_ok=True)
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               f"--only-categories={','.join(CATEGORIES)}",
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run"]
    if desktop:
        command.append("--preset=desktop")
    if trace:
        command.append("--save-assets")  # writes <report minus .json>-0.trace.json
    # On a loaded machine Lighthouse now and then loses its trace (NO_NAVSTART): once more, then give up.
    for attempt in (1, 2):
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM})
        if done.returncode == 0:
            break
        if attempt == 2:
            done.check_returncode()
    return json.loads(report.read_text())


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="append", default=[],
                        help="audit only the pages whose name holds this word (repeatable): " + ", ".join(PAGES))
    parser.add_argument("--as", dest="forms", action="append", choices=["phone", "desktop"], default=[],
                        help="audit only as a phone or as a desktop (repeatable; both by default)")
    parser.add_argument("--runs", type=int, default=1, help="audit each page this many times")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="also serve the checkout DIR (built) and audit it after this one in each run")
    parser.add_argument("--trace", action="store_true",
                        help="keep each audit's trace beside its report (bench/builder_start.py --trace reads one)")
    return parser.parse_args(argv)


def report_line(label: str, name: str, desktop: bool, result: dict) -> str:
    """One page's line: its four scores, the metrics behind performance, any failing audit."""
    scores = [round(100 * (result["categories"][c]["score"] or 0)) for c in CATEGORIES]
    metrics = []
    for key in METRICS:
        value = result["audits"][key]["numericValue"]
        metrics.append(f"{value:6.3f}" if key == "cumulative-layout-shift" else f"{value / 1000:5.2f}s")
    line = (f"{label}{name:26} {'desktop' if desktop else 'phone':8} " + " ".join(f"{s:>4}" for s in scores)
            + "   " + "  ".join(f"{m:>6}" for m in metrics))
    failing = [a["title"] for a in result["audits"].values()
               if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary"]
    if failing:
        line += f"\n{'':{len(label) + 26}} failing audits: {'; '.join(failing)}"
    return line


def main(argv: list[str] | None = None) -> None:
    args = options(argv)
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"{LIGHTHOUSE} is missing: `make lighthouse` installs it")
    pages = {name: path for name, path in PAGES.items() if not args.page or any(w in name for w in args.page)}
    forms = [form == "desktop" for form in (args.forms or ["phone", "desktop"])]
    OUT.mkdir(parents=True, exist_ok=True)
    servers = {"": REPO} if args.against is None else {"now    ": REPO, "before ": args.against.resolve()}
    ports = {}
    with ExitStack() as stack:
        for label, repo in servers.items():
            ports[label] = free_port()
            stack.enter_context(make_serve(ports[label], workers=2, repo=repo))
        version = ""
        print(f"{'':{len(next(iter(servers)))}}{'page':26} {'as':8} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4}   "
              + "  ".join(f"{m:>6}" for m in METRICS.values()))
        for _ in range(args.runs):
            for name, path in pages.items():
                for desktop in forms:
                    for label, port in ports.items():
                        result = audit(f"http://127.0.0.1:{port}{path}", name, desktop, label, args.trace)
                        version = result["lighthouseVersion"]
                        print(report_line(label, name, desktop, result), flush=True)
        print(f"Lighthouse {version}, {Path(CHROMIUM).name} "
              f"{subprocess.run([CHROMIUM, '--version'], capture_output=True, text=True).stdout.split()[1]}")


if __name__ == "__main__":
    sys.exit(main())
