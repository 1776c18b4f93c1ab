"""Benchmark: the builder's start and a tap's verdict, task by task, from Chromium's own trace.

Lighthouse (bench/lighthouse.py) scores the builder as a phone by running the page at full speed
and multiplying each main-thread task's time by 4 (its "4× slower CPU"); a task then blocks for
whatever of that passes 50 ms (Total Blocking Time). On a shared machine the wall time of a task
is inflated by other people's work, so this reports each task's wall time *and* the CPU time the
page's main thread spent in it, and what the CPU went to (script, style, layout, paint, parsing),
with the layouts a script forced (and which function forced each).

It serves the site with `make serve` and opens, in headless Debian Chromium as a 375×812 phone:

- **start**: `/builder` with the standard dispute in its link, until the verdict is on the ruling
  line and the page has settled; every task of 12.5 ms or more (50 ms at 4×), and the blocking
  time the tasks after the first paint make at 4×, counted on wall and on CPU time;
- **tap**: on an empty builder, the standard dispute's taps; from the tap that places the second
  unit (the first battle) to the verdict on the line, and to the frame after it is drawn, with the
  tasks in between.

`--slow` opens the start on a phone slowed down for real (DevTools' slow 4G and 4× slower CPU,
Lighthouse's phone): when the page paints and when its verdict is drawn there.
`--against DIR` serves a second checkout (built) and measures it right after this one in each
run, so both see the same machine load. `--trace FILE` measures nothing: it reads a trace
Lighthouse kept (`bench/lighthouse.py --trace`) and lists its tasks after the first paint as
Lighthouse's simulation counts them (wall time × 4, × 2 for a task that laid the page out).
Numbers only: nothing here is asserted."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.lighthouse import CHROMIUM, PAGES  # noqa: E402
from bench.load import free_port, make_serve  # noqa: E402

PHONE = {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SLOWDOWN = 4  # Lighthouse's phone: each task takes 4× its time
LONG = 50.0  # ms: a longer task (at the phone's speed) blocks
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
              "disabled-by-default-devtools.timeline.stack", "v8.execute", "loading", "blink.user_timing"]
KINDS = {"UpdateLayoutTree": "style", "Layout": "layout", "Paint": "paint", "PrePaint": "paint", "Layerize": "paint",
         "Commit": "paint", "ParseHTML": "parse", "ParseAuthorStyleSheet": "parse"}
SCRIPT = {"FunctionCall", "EvaluateScript", "v8.evaluateModule", "TimerFire", "EventDispatch", "RunMicrotasks",
          "FireAnimationFrame", "v8.compileModule", "v8.compile"}

OBSERVE = """window.__m = {fcp: null, lcp: [], taps: [], verdicts: []};
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      const el = e.element;
      const cls = el?.className?.baseVal ?? el?.className;
      const name = el ? `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${cls}` : '?';
      window.__m.lcp.push([e.startTime, e.size, name]);
    }
  }).observe({type: 'largest-contentful-paint', buffered: true});
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__m.fcp = e.startTime;
  }).observe({type: 'paint', buffered: true});
  document.addEventListener('pointerdown', () => window.__m.taps.push(performance.now()), true);
  let said = '';
  new MutationObserver(() => {
    const now = document.querySelector('#b-summary .b-summary-verdict')?.textContent || '';
    if (now === said || !/✔|✖/.test(now)) return;
    said = now;
    const at = performance.now();
    requestAnimationFrame(() => setTimeout(() => window.__m.verdicts.push([at, performance.now()]), 0));
  }).observe(document, {subtree: true, childList: true, characterData: true});"""


def wait_for(page: Any, script: str, timeout: float = 60.0) -> None:
    """Poll from Python (Playwright's own waiting runs scripts in the page, whose time would count)."""
    for _ in range(int(timeout / 0.25)):
        if page.evaluate(script):
            return
        page.wait_for_timeout(250)
    raise TimeoutError(script)


def main_thread(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The complete events of the builder's renderer main thread (the one that parsed its page;
    a trace also holds other renderers, such as the browser's own pages)."""
    names = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    threads = defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) in names and e.get("ph") == "X" and "dur" in e:
            threads[(e["pid"], e["tid"])].append(e)

    def builder(thread: list[dict[str, Any]]) -> bool:
        return any("/builder" in str(e.get("args", {}).get("beginData", {}).get("url", ""))
                   or "builder" in str(e.get("args", {}).get("data", {}).get("url", "")) for e in thread)

    ours = [t for t in threads.values() if builder(t)] or list(threads.values())
    return sorted(max(ours, key=len), key=lambda e: (e["ts"], -e["dur"]))


def forcer(layout: dict[str, Any]) -> str:
    stack = layout.get("args", {}).get("beginData", {}).get("stackTrace") or []
    top = next((f for f in stack if f.get("functionName")), None)
    return f"{top['functionName']} {top['url'].rsplit('/', 1)[-1].split('?')[0]}" if top else ""


def tasks(events: list[dict[str, Any]], since: float, until: float, shortest: float) -> list[dict[str, Any]]:
    """The main thread's tasks (`RunTask`) between two trace times (µs), each with its wall and CPU
    ms, the CPU ms by kind and the layouts forced by a script; those under `shortest` ms are left out."""
    out = []
    runs = [e for e in events if e["name"] == "RunTask" and since <= e["ts"] <= until]
    for task in runs:
        if task["dur"] / 1000 < shortest:
            continue
        end = task["ts"] + task["dur"]
        inside = [e for e in events if task["ts"] <= e["ts"] and e["ts"] + e["dur"] <= end and e is not task]
        kinds = defaultdict(float)
        for e in inside:
            if e["name"] in KINDS:
                kinds[KINDS[e["name"]]] += e.get("tdur", e["dur"]) / 1000
        cpu = task.get("tdur", task["dur"]) / 1000
        kinds["script and other"] = max(0.0, cpu - sum(kinds.values()))
        scripts = [e for e in inside if e["name"] in SCRIPT]
        forced = [forcer(e) or "?" for e in inside if e["name"] in ("Layout", "UpdateLayoutTree")
                  and any(s["ts"] <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"] for s in scripts)]
        out.append({"at": task["ts"], "wall": task["dur"] / 1000, "cpu": cpu, "kinds": dict(kinds), "forced": forced})
    return out


def lantern_ms(t: dict[str, Any]) -> float:
    """A task as Lighthouse's phone simulation counts it: its wall time × 4, or × 2 when it laid the
    page out (Lantern's layout multiplier); under 10 ms of wall time it is left out of its graph."""
    return 0.0 if t["wall"] < 10 else t["wall"] * (SLOWDOWN / 2 if t["kinds"].get("layout") else SLOWDOWN)


def read_lighthouse(path: Path) -> None:
    """The tasks of a Lighthouse trace (bench/lighthouse.py --trace) from its first paint on, each
    with what Lighthouse's simulation makes of it, and the blocking time that adds up to."""
    data = json.loads(path.read_text())
    everything = data["traceEvents"] if isinstance(data, dict) else data
    events = main_thread(everything)
    fcp = min((e["ts"] for e in everything if e.get("name") == "firstContentfulPaint"), default=events[0]["ts"])
    start = next(e["ts"] for e in events if e["name"] in ("ParseHTML", "RunTask"))
    found = tasks(events, fcp, events[-1]["ts"], 5.0)
    print(f"{path.name}: first paint {(fcp - start) / 1000:.0f} ms into the trace; tasks of 5 ms or more after it:")
    total = 0.0
    for t in found:
        simulated = lantern_ms(t)
        total += max(0.0, simulated - LONG)
        print(f"  +{(t['at'] - fcp) / 1000:6.0f} ms  simulated {simulated:5.0f}  {task_line(t)}{top_script(events, t)}")
    print(f"blocking (simulated, every task after the first paint): {total:.0f} ms")


def top_script(events: list[dict[str, Any]], t: dict[str, Any]) -> str:
    """The first script a task ran: its function and file (where the task's time went)."""
    for e in events:
        if e["ts"] >= t["at"] and e["name"] in ("FunctionCall", "EvaluateScript", "v8.evaluateModule"):
            if e["ts"] > t["at"] + t["wall"] * 1000:
                return ""
            data = e.get("args", {}).get("data", {})
            url = str(data.get("url", "")).rsplit("/", 1)[-1].split("?")[0]
            return f"; runs {data.get('functionName') or e['name']} {url}".rstrip()
    return ""


def blocking(found: list[dict[str, Any]], key: str) -> float:
    return sum(max(0.0, SLOWDOWN * t[key] - LONG) for t in found)


def traced(browser: Any, page: Any, out: Path, run: Any) -> list[dict[str, Any]]:
    browser.start_tracing(page=page, path=str(out), categories=CATEGORIES)
    try:
        run()
    finally:
        browser.stop_tracing()
    data = json.loads(out.read_text())
    return main_thread(data["traceEvents"] if isinstance(data, dict) else data)


# Lighthouse's phone as DevTools applies it for real ("slow 4G": its request latency, its
# throughputs in kbit/s) and its 4× slower CPU.
SLOW_NETWORK = {"offline": False, "latency": 562.5, "downloadThroughput": 1474.56 * 1024 / 8,
                "uploadThroughput": 675 * 1024 / 8}


def slow_down(context: Any, page: Any) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})


def measure_start(browser: Any, base: str, folder: Path, slow: bool = False) -> dict[str, Any]:
    """The builder opened on the standard dispute's link; `slow`: on a throttled phone (the
    network and the CPU slowed down as Lighthouse's phone is, for real: its times are a slow
    phone's, its tasks' CPU is 4× too)."""
    with browser.new_context(**PHONE, service_workers="block") as context:
        page = context.new_page()
        page.add_init_script(OBSERVE)
        if slow:
            slow_down(context, page)

        def run() -> None:
            page.goto(base + PAGES["builder with a situation"])
            wait_for(page, "window.__m.verdicts.length > 0")
            page.wait_for_timeout(1500)  # what the page does after the verdict counts too

        events = traced(browser, page, folder / "start.json", run)
        m = page.evaluate("window.__m")
    nav = next(e["ts"] for e in events if e["name"] in ("ParseHTML", "RunTask"))
    start = nav + (m["fcp"] or 0) * 1000 - 50_000  # tasks from about the first paint on
    found = tasks(events, start, events[-1]["ts"], LONG / SLOWDOWN)
    return {**m, "tasks": found, "tbt_wall": blocking(found, "wall"), "tbt_cpu": blocking(found, "cpu")}


def measure_tap(browser: Any, base: str, folder: Path) -> dict[str, Any]:
    """The standard dispute tapped on an empty builder: the last tap is the one that makes the battle."""
    with browser.new_context(**PHONE, service_workers="block") as context:
        page = context.new_page()
        page.add_init_script(OBSERVE)
        page.goto(base + "/builder")
        wait_for(page, "document.getElementById('builder').classList.contains('ready')")
        page.locator('.hex[data-row="6"][data-col="10"]').tap()
        page.locator('[data-fk="place-allies-infantry"]').tap()
        page.locator('.hex[data-row="4"][data-col="10"]').tap()
        page.wait_for_timeout(600)

        def run() -> None:
            page.locator('[data-fk="place-axis-armor"]').tap()
            wait_for(page, "window.__m.verdicts.length > 0")
            page.wait_for_timeout(300)

        events = traced(browser, page, folder / "tap.json", run)
        m = page.evaluate("window.__m")
    tap, (shown, painted) = m["taps"][-1], m["verdicts"][0]
    found = tasks(events, events[0]["ts"], events[-1]["ts"], 0.0)
    dispatch = next(e["ts"] for e in events if e["name"] == "EventDispatch"
                    and e.get("args", {}).get("data", {}).get("type") == "pointerdown")
    upto = dispatch + (painted - tap) * 1000
    between = [t for t in found if dispatch - 5000 <= t["at"] <= upto]
    return {"shown": shown - tap, "painted": painted - tap, "tasks": between,
            "cpu": sum(t["cpu"] for t in between)}


def task_line(t: dict[str, Any]) -> str:
    kinds = ", ".join(f"{k} {v:.1f}" for k, v in sorted(t["kinds"].items(), key=lambda kv: -kv[1]) if v >= 0.5)
    forced = defaultdict(int)
    for f in t["forced"]:
        forced[f] += 1
    said = "; forced by " + ", ".join(f"{f} ×{n}" for f, n in forced.items()) if forced else ""
    return f"wall {t['wall']:5.1f} ms, CPU {t['cpu']:5.1f} ms ({kinds}){said}"


def report_start(label: str, m: dict[str, Any]) -> None:
    lcp_at, size, element = m["lcp"][-1] if m["lcp"] else (0, 0, "none")
    print(f"{label}start: FCP {m['fcp']:.0f} ms, LCP {lcp_at:.0f} ms ({element}, {size} px²), verdict drawn "
          f"{m['verdicts'][0][1]:.0f} ms; tasks ≥ {LONG / SLOWDOWN:.1f} ms: {len(m['tasks'])}, "
          f"blocking at {SLOWDOWN}× {m['tbt_wall']:.0f} ms (wall), {m['tbt_cpu']:.0f} ms (CPU)")
    for t in m["tasks"]:
        print(f"{label}   {task_line(t)}")


def report_tap(label: str, m: dict[str, Any]) -> None:
    print(f"{label}tap: verdict on the line {m['shown']:.1f} ms after the tap, drawn {m['painted']:.1f} ms; "
          f"main-thread CPU in between {m['cpu']:.1f} ms")
    for t in m["tasks"]:
        if t["cpu"] >= 1:
            print(f"{label}   {task_line(t)}")


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="a second checkout (built), measured right after this one in each run")
    parser.add_argument("--only", choices=["start", "tap"], help="measure only the start or only the tap")
    parser.add_argument("--slow", action="store_true",
                        help="the start on a throttled phone (slow 4G, 4× slower CPU): when it paints and rules")
    parser.add_argument("--trace", type=Path, metavar="FILE",
                        help="measure nothing: read a trace Lighthouse kept (bench/lighthouse.py --trace)")
    return parser.parse_args(argv)


def summary(label: str, name: str, values: list[float]) -> None:
    if values:
        print(f"{label}{name}: median {statistics.median(values):.1f}, "
              f"{min(values):.1f}–{max(values):.1f} over {len(values)} runs")


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    args = options(argv)
    if args.trace:
        read_lighthouse(args.trace)
        return
    servers = {"": REPO} if args.against is None else {"now    ": REPO, "before ": args.against.resolve()}
    seen: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        bases = {}
        for label, repo in servers.items():
            port = free_port()
            stack.enter_context(make_serve(port, workers=2, repo=repo))
            bases[label] = f"http://127.0.0.1:{port}"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        for _ in range(args.runs):
            for label, base in bases.items():
                if args.only != "tap":
                    m = measure_start(browser, base, folder, args.slow)
                    report_start(label, m)
                    seen[label]["start: first paint (ms)"].append(m["fcp"] or 0)
                    seen[label]["start: verdict drawn (ms)"].append(m["verdicts"][0][1])
                    seen[label]["start: blocking at 4× on CPU time (ms)"].append(m["tbt_cpu"])
                    seen[label]["start: longest task, CPU ms"].append(max((t["cpu"] for t in m["tasks"]), default=0))
                    seen[label]["start: every task's CPU, summed (ms)"].append(sum(t["cpu"] for t in m["tasks"]))
                if args.only != "start":
                    t = measure_tap(browser, base, folder)
                    report_tap(label, t)
                    seen[label]["tap to verdict drawn (ms)"].append(t["painted"])
                    seen[label]["tap to verdict: main-thread CPU (ms)"].append(t["cpu"])
            sys.stdout.flush()
        browser.close()
    for label, named in seen.items():
        for name, values in named.items():
            summary(label, name, values)


if __name__ == "__main__":
    sys.exit(main())
