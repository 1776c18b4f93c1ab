"""Benchmark: offline rulings in Debian's Chromium on a phone-sized page (375×812).

Prints, for a cold cache (a fresh browser profile) at 1× and at 4× CPU slowdown (CDP
``Emulation.setCPUThrottlingRate``):

- the bytes the opt-in downloads, as sent by the server (compressed), counted at the server;
- the time from tapping "Make rulings work offline" to the first ruling shown offline ("ruled on
  this device"): download, start of Pyodide and the engine, one builder ruling;
- the p50 / p90 of a warm offline ruling per endpoint (one request to the local engine, measured
  in the page), and of a builder update (battle + line of sight + retreat, as the builder asks).

Also the home page's first load (bytes, service worker blocked) and the bytes the builder loads
when the offer is declined, to show declining costs nothing. Targets: ≤ 7 MB,
≤ 5 s, ≤ 150 ms. Run with ``.venv/bin/python bench/offline.py``; needs ``make build``.
Numbers only: no test asserts timings."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, make_app, serving
from tests.test_offline_rulings_browser import controlled_builder, gallery_requests

WARM_RUNS = 30


class ByteCounter:
    """WSGI middleware counting response body bytes per path (what went over the wire)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.sent: list[tuple[str, int]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        size = 0
        for chunk in self.app(environ, start_response):
            size += len(chunk)
            yield chunk
        with self.lock:
            self.sent.append((path, size))

    def since(self, mark: int, prefix: str = "") -> int:
        with self.lock:
            return sum(n for p, n in self.sent[mark:] if p.startswith(prefix))


def browser_cpu_seconds() -> float:
    """CPU time (user + system) used so far by every process this bench started (the Playwright
    driver and Chromium with its renderer): on a shared, busy machine the wall clock measures
    the other load as much as ours, this does not."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / ticks
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return sum(times.get(pid, 0.0) for pid in mine - {os.getpid()})


def offered_builder(context: Any, base: str) -> Any:
    """The builder under its service worker (as the offline tests open it), with the offer shown."""
    page = controlled_builder(context, base)
    page.wait_for_selector("#offline-offer button")
    return page


def throttle(context: Any, page: Any, rate: float) -> None:
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


WARM = """async ([requests, runs]) => {
  const engine = await import('/static/js/offline-engine.js');
  const info = await engine.engineInfo();
  const times = {};
  for (let i = 0; i < runs; i++) {
    for (const [name, body] of requests) {
      const text = JSON.stringify(body);
      const t0 = performance.now();
      const reply = await engine.askEngine(info, name, text);
      if (reply.status !== 200) throw new Error(name + ': ' + (reply.error || reply.body));
      (times[name] ||= []).push(performance.now() - t0);
    }
  }
  return times;
}"""


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cold_run(browser: Any, base: str, counter: ByteCounter, rate: float) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = offered_builder(context, base)
        throttle(context, page, rate)
        mark = len(counter.sent)
        start, cpu = time.perf_counter(), browser_cpu_seconds()
        page.locator("#offline-offer").get_by_role("button", name="Make rulings work offline").click()
        page.wait_for_selector("#offline-offer:has-text('saved')", timeout=300_000)
        downloaded = time.perf_counter() - start
        sent = counter.since(mark)
        context.set_offline(True)
        if page.locator("#examples-box:not([open])").count():
            page.locator("#examples-box summary").click()
        page.locator("#examples .example").filter(has_text="forest").first.click()
        page.locator("#ruled-locally").wait_for(state="visible", timeout=300_000)
        page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')", timeout=300_000)
        first, cpu = time.perf_counter() - start, browser_cpu_seconds() - cpu
        print(f"[{rate:g}x CPU] opt-in downloaded {sent:,} bytes ({sent / 1e6:.2f} MB) in {downloaded:.2f} s; "
              f"first offline ruling {first:.2f} s after the tap (browser CPU used: {cpu:.2f} s; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        examples = gallery_requests()
        pick = {name: body for name, body in examples}  # one per endpoint (the last of each)
        times = page.evaluate(WARM, [[[n, b] for n, b in pick.items()], WARM_RUNS])
        for name, values in sorted(times.items()):
            print(f"[{rate:g}x CPU] warm {name:14} p50 {statistics.median(values):6.1f} ms  "
                  f"p90 {quantile(values, 0.9):6.1f} ms  ({len(values)} runs)")
        update = [a + b + c for a, b, c in zip(times["battle"], times["line-of-sight"], times["retreat"], strict=True)]
        print(f"[{rate:g}x CPU] warm builder update (battle + line of sight + retreat) "
              f"p50 {statistics.median(update):6.1f} ms  p90 {quantile(update, 0.9):6.1f} ms")
        # Later, still offline: the builder opened afresh starts Python again (files now cached).
        start, cpu = time.perf_counter(), browser_cpu_seconds()
        page.reload()
        throttle(context, page, rate)
        page.wait_for_selector("#builder.ready")
        if page.locator("#examples-box:not([open])").count():
            page.locator("#examples-box summary").click()
        page.locator("#examples .example").filter(has_text="forest").first.click()
        page.locator("#ruled-locally").wait_for(state="visible", timeout=300_000)
        page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')", timeout=300_000)
        print(f"[{rate:g}x CPU] builder reopened offline: first ruling {time.perf_counter() - start:.2f} s "
              f"(browser CPU used: {browser_cpu_seconds() - cpu:.2f} s)")
    finally:
        context.close()


def first_loads(browser: Any, base: str, counter: ByteCounter) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        mark = len(counter.sent)
        page = context.new_page()
        page.goto(base + "/", wait_until="load")
        page.wait_for_load_state("networkidle")
        print(f"home first load (service worker blocked): {counter.since(mark):,} bytes of bodies")
    finally:
        context.close()
    context = browser.new_context(viewport=PHONE)
    try:
        page = offered_builder(context, base)
        mark = len(counter.sent)
        page.locator("#offline-offer").get_by_role("button", name="No thanks").click()
        page.reload()
        page.wait_for_selector("#builder.ready")
        page.wait_for_timeout(500)
        print(f"declined: {counter.since(mark, '/static/offline/'):,} bytes of offline files downloaded")
    finally:
        context.close()


def main() -> None:
    import logging

    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = make_app(Path(tempfile.mkdtemp()))
    counter = ByteCounter(app.wsgi_app)
    app.wsgi_app = counter  # type: ignore[method-assign]
    with serving(app) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            first_loads(browser, base, counter)
            for rate in (1, 4):
                cold_run(browser, base, counter, rate)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
