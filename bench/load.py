"""Load bench of the served stack: `make serve` (nginx in front of gunicorn sync workers) with
wrk, with and without an attacker.

``.venv/bin/python bench/load.py [--duration 5] [--repeat 1] [--cores split] [--workers N]``
starts two stacks with `make serve`: a bare Flask hello-world (``bench/hello.py``,
``SERVE_APP=bench.hello:app``) and the site.
It measures, at 16 and 64 connections (wrk: 2 threads, ``Accept-Encoding: br, gzip``, each run
``--duration`` seconds):

- the hello-world (what the stack itself costs), unattacked;
- the site's rule page (``/rules/terrain/forest``), search (``bench/search.lua``: 100 player
  questions in turn), ``POST /api/v1/battle`` with one body again and again (``bench/battle.lua``:
  after a worker's first, answered from its answer cache, ``web/answer_cache.py``) and with a
  different situation every request (``battle distinct``, ``bench/battle_distinct.lua``: each one
  ruled), and ``POST /api/v1/fire-map`` on a standard board set as a scenario is (30 units, 30 %
  forest, hill and town; the whole map), unattacked and while ``bench/attack.py`` runs each
  hostile pattern: slow bodies from many addresses, slow readers of the largest file, the worst
  ``/fire-map``, a 429 flood.

``--targets`` and ``--connections`` run a part (``--targets "battle,battle distinct" --connections
64 --attacks ""``: the two battle rows at 64 connections, unattacked, in about a minute).

The measuring client speaks from 127.0.0.1, which the bench exempts from the proxy's limits
(``RATE_LIMIT_EXEMPT``: it sends thousands of requests a second); the attackers speak from other
loopback addresses, under the limits as shipped. An attacker is another machine: with
``--cores split`` (the default on 2 cores or more) the stack and wrk run on the first core, in
every run, attacked or not, and the attacker on the others, so what an attack costs the stack
(nginx reading, refusing and timing out its connections, the workers ruling its requests) is
measured and the attacker's own Python is not (at ``nice 10`` on shared cores it still took half
a core from the stack during the slow bodies). ``--cores shared`` runs everything on every core
with the attacker at ``nice 10``, as the bench did before. After each run it reads the RSS of
every gunicorn worker of the site, and the CPU time the workers spent over the run divided by the
requests wrk counted ("CPU ms": the one number here the other load on a shared machine barely
moves; under an attack it includes the work the attacker's requests cost the workers). Each run
starts once the workers are idle. It prints a table (and writes it to
``instance/bench-load.json``) with, at the end, the targets of issue 28: ``/battle`` p99 < 50 ms
and the rule page's < 20 ms at 64 connections unattacked, and each under 2× its unattacked p99
under every attack. Traffic stays on loopback; every run is bounded in time."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager, suppress
from itertools import count
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ATTACKS = ("slow_bodies", "slow_readers", "worst_fire_map", "flood")
CONNECTIONS = (16, 64)
TARGETS = ("hello-world", "rule page", "search", "battle", "battle distinct", "fire-map")
RAMP = {"slow_bodies": 6.0, "slow_readers": 3.0, "worst_fire_map": 2.0, "flood": 2.0}
"""Seconds an attack runs before the measuring starts (5,400 slow connections take a while)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_wrk() -> None:
    if shutil.which("wrk") is None:
        print("installing Debian's wrk", flush=True)
        subprocess.run("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null",
                       shell=True, check=True)


@contextmanager
def make_serve(port: int, workers: int, app: str | None = None, instance: Path | None = None,
               repo: Path = REPO) -> Any:
    """`make serve` in the checkout `repo` on this port, until the block ends."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
    env["RATE_LIMIT_EXEMPT"] = "127.0.0.1"
    if instance is not None:
        env["ADJUDICATOR_INSTANCE"] = str(instance)
    args = ["make", "-s", "serve", "HOST=127.0.0.1", f"PORT={port}", f"WORKERS={workers}"]
    if app:
        args.append(f"SERVE_APP={app}")
    with tempfile.TemporaryFile() as log:
        yield from _served(args, env, port, log, repo)


def _served(args: list[str], env: dict[str, str], port: int, log: Any, repo: Path = REPO) -> Any:
    process = subprocess.Popen(args, cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            with suppress(OSError):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    response.read()
                break
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"make serve did not start:\n{log.read().decode(errors='replace')[-3000:]}")
            time.sleep(0.3)
        yield process
    finally:
        stop_stack(process)


def stop_stack(process: subprocess.Popen[bytes]) -> None:
    """Stop a `make serve` started in a session of its own: the whole group (make, the serving
    module, nginx, gunicorn), SIGTERM first, SIGKILL after 30 s."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        found = subprocess.run(["pgrep", "-P", str(todo.pop())], capture_output=True, text=True).stdout.split()
        out += [int(p) for p in found]
        todo += [int(p) for p in found]
    return out


def gunicorn_workers(make_pid: int) -> list[int]:
    """The workers: gunicorn processes whose parent is the gunicorn master."""
    pids = descendants(make_pid)
    gunicorn = {p for p in pids if b"gunicorn" in _cmdline(p)}
    return [p for p in gunicorn if _parent(p) in gunicorn]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes ``pids`` have spent so far (``/proc/<pid>/stat``)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def settled(pids: list[int], most: float = 20.0) -> float:
    """Wait (at most ``most`` seconds) until the workers ``pids`` are idle: a run's requests still
    being ruled when wrk stops would otherwise be counted in the next run; their CPU time then."""
    deadline = time.monotonic() + most
    spent = cpu_seconds(pids)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = cpu_seconds(pids)
        if now - spent < 0.02:
            return now
        spent = now
    return spent


def rss_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    found = re.search(r"VmRSS:\s+(\d+)", status)
    return int(found[1]) / 1024 if found else 0.0


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)([a-z]+)", text).groups()  # type: ignore[union-attr]
    return float(value) * UNITS[unit]


RUNS = (f"r{os.getpid()}x{n}" for n in count())
"""A token per wrk run, unique to this bench."""


def wrk(url: str, connections: int, seconds: float, script: Path | None) -> dict[str, Any]:
    args = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "10s", "--latency",
            "-H", "Accept-Encoding: br, gzip"]
    if script is not None:
        args += ["-s", str(script)]
    # a token of this run for the script's ``init`` (``battle_distinct.lua`` puts it in every body,
    # so no run asks what an earlier run of the same stack asked, which nginx would answer itself)
    out = subprocess.run([*args, url, "--", next(RUNS)], capture_output=True, text=True, check=True).stdout
    lines = {m[0]: m[1] for m in re.findall(r"^\s+(50|90|99)%\s+(\S+)", out, re.M)}
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),  # type: ignore[index]
            "requests": int(re.search(r"(\d+) requests in", out)[1]),  # type: ignore[index]
            "p50": _ms(lines["50"]), "p90": _ms(lines["90"]), "p99": _ms(lines["99"]),
            "non_2xx": int(non_2xx[1]) if non_2xx else 0,
            "errors": sum(int(n) for n in errors.groups()) if errors else 0}


def paced(script: Path | None, pace_ms: float, work: Path) -> Path | None:
    """``script`` with wrk's ``delay()`` hook added: each connection waits ``pace_ms`` after an
    answer, so the load stays below what the stack can answer and the p99 measures what an attack
    adds rather than the length of a saturated core's queue (docs/measurements.md)."""
    if not pace_ms:
        return script
    wrapper = work / f"paced-{script.stem if script else 'get'}.lua"
    wrapper.write_text((f"dofile({json.dumps(str(script))})\n" if script else "")
                       + f"function delay() return {pace_ms:g} end\n")
    return wrapper


def lua_post(path: Path, body: dict[str, Any]) -> Path:
    path.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                    f"wrk.body = [==[{json.dumps(body, separators=(',', ':'))}]==]\n")
    return path


def scenario_fire_map() -> dict[str, Any]:
    """A standard board set as a scenario is: 30 units on hexes they may stand on, Allies in the
    bottom half, 30 % of the hexes forest, hill or town (seeded)."""
    from adjudicator.content.loader import content_dir, load_catalogue
    from adjudicator.engine.geometry import BOARDS
    from adjudicator.engine.situation import may_be_placed_on

    rulebook = load_catalogue(content_dir()).rulebook()
    rnd = random.Random("standard-30-44")
    board = BOARDS["standard"]
    terrain = {h: rnd.choice(("forest", "hill", "town")) for h in board.hexes() if rnd.random() < 0.3}
    units: list[dict[str, Any]] = []
    for h in rnd.sample(list(board.hexes()), len(list(board.hexes()))):
        kind = ("infantry", "armor", "artillery")[len(units) % 3]
        if len(units) < 30 and (h not in terrain or may_be_placed_on(rulebook, kind, terrain[h])):
            units.append({"id": f"u{len(units)}", "side": "allies" if h.row >= board.rows // 2 else "axis",
                          "type": kind, "row": h.row, "col": h.col, "figures": 2})
    return {"board": "standard", "units": units,
            "hexes": [{"row": h.row, "col": h.col, "terrain": t} for h, t in terrain.items()]}


def split_cores() -> tuple[set[int], set[int]]:
    """(the stack's and wrk's core, the attackers' cores): the first core this process may use,
    and the rest."""
    cores = sorted(os.sched_getaffinity(0))
    return {cores[0]}, set(cores[1:])


@contextmanager
def attacker(pattern: str | None, port: int, cores: set[int] | None = None) -> Any:
    """``bench/attack.py`` running ``pattern`` (nothing for None) on ``cores``, or at nice 10 on
    every core when ``cores`` is None; its summary is put into the yielded dict when it stops."""
    seen: dict[str, Any] = {}
    if pattern is None:
        yield seen
        return
    command = [sys.executable, str(REPO / "bench" / "attack.py"), pattern, str(port), "3600"]
    if cores is None:
        process = subprocess.Popen(["nice", "-n", "10", *command], stdout=subprocess.PIPE, text=True)
    else:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True,
                                   preexec_fn=lambda: os.sched_setaffinity(0, cores))
    try:
        time.sleep(RAMP[pattern])
        yield seen
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
        with suppress(ValueError):
            seen.update(json.loads(out.strip().splitlines()[-1]))


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per wrk run (default 5)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="wrk runs per row, the one with the median p99 shown (default 1)")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated subset of " + ", ".join(ATTACKS))
    parser.add_argument("--targets", default=",".join(TARGETS), help="comma-separated subset of " + ", ".join(TARGETS))
    parser.add_argument("--connections", default=",".join(map(str, CONNECTIONS)),
                        help="comma-separated wrk connection counts (default 16,64)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="ms each wrk connection waits after an answer before its next request (default 0: "
                             "as fast as the stack answers, which saturates the stack's core; 2 at 64 connections "
                             "is about half of what the rule page's core gives)")
    parser.add_argument("--cores", choices=("split", "shared"),
                        default="split" if len(os.sched_getaffinity(0)) > 1 else "shared",
                        help="split: the stack and wrk on one core, the attacker on the others (default); "
                             "shared: everything on every core, the attacker at nice 10")
    return parser.parse_args()


def print_targets(rows: list[dict[str, Any]], attacks: list[str]) -> None:
    """Issue 28's targets at 64 connections: p99 under its limit unattacked, under 2x attacked."""
    print("\ntargets at 64 connections (p99 ms; attacked: ratio to unattacked):")
    for target, limit in (("battle", 50.0), ("battle distinct", 50.0), ("rule page", 20.0)):
        base = next((r for r in rows if r["target"] == target and r["c"] == 64 and r["attack"] == "-"), None)
        if base is None:
            continue
        met = "met" if base["p99"] < limit else "NOT met"
        runs = " of " + "/".join(f"{p:.1f}" for p in base["p99_runs"]) if len(base["p99_runs"]) > 1 else ""
        line = f"  {target:15} unattacked {base['p99']:.1f}{runs} (< {limit:g}: {met})"
        for attack in attacks:
            hit = next(r for r in rows if r["target"] == target and r["c"] == 64 and r["attack"] == attack)
            if not (hit["rps"] and base["rps"]):
                line += f"; {attack}: no answer within the run"
                continue
            ratio = hit["p99"] / base["p99"]
            line += f"; {attack} {hit['p99']:.1f} ({ratio:.1f}x{'' if ratio < 2 else ' NOT < 2x'})"
            if len(hit["p99_runs"]) > 1:
                line += " of " + "/".join(f"{p:.1f}" for p in hit["p99_runs"])
        print(line)


def main() -> None:
    args = arguments()
    ensure_wrk()
    attacks = [a for a in args.attacks.split(",") if a]
    targets = [t for t in args.targets.split(",") if t]
    connections = [int(c) for c in args.connections.split(",") if c]
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    scripts = {"rule page": None, "search": REPO / "bench" / "search.lua", "battle": REPO / "bench" / "battle.lua",
               "battle distinct": REPO / "bench" / "battle_distinct.lua",
               "fire-map": lua_post(work / "fire_map.lua", scenario_fire_map()) if "fire-map" in targets else None}
    paths = {"rule page": "/rules/terrain/forest", "search": "/search", "battle": "/api/v1/battle",
             "battle distinct": "/api/v1/battle", "fire-map": "/api/v1/fire-map"}
    paths = {t: p for t, p in paths.items() if t in targets}
    rows: list[dict[str, Any]] = []
    attackers: list[dict[str, Any]] = []

    def measured(pid: int, url: str, c: int, script: Path | None) -> dict[str, Any]:
        """wrk's answer (of ``--repeat`` runs, the one with the median p99; every run's p99 in
        ``p99_runs``), the workers' CPU time per request over the runs and the largest worker;
        each run starts once the workers have finished what the previous run left them."""
        workers = gunicorn_workers(pid)
        runs, spent, requests = [], 0.0, 0
        for _ in range(args.repeat):
            before = settled(workers)
            runs.append(wrk(url, c, args.duration, paced(script, args.pace, work)))
            spent += cpu_seconds(workers) - before
            requests += runs[-1]["requests"]
        result = sorted(runs, key=lambda run: run["p99"])[len(runs) // 2]
        return {**result, "p99_runs": [run["p99"] for run in runs],
                "worker_cpu_ms": round(1000 * spent / max(1, requests), 2),
                "worker_rss_mb": max(rss_mb(p) for p in workers)}

    def show(row: dict[str, Any]) -> None:
        rows.append(row)
        print(f"{row['target']:15} {row['c']:>3} {row['attack']:15} {row['rps']:>9,.0f} {row['p50']:>8.1f} "
              f"{row['p90']:>8.1f} {row['p99']:>8.1f} {row['non_2xx']:>8} {row['errors']:>6} "
              f"{row['worker_cpu_ms']:>7.2f} {row['worker_rss_mb']:>9.0f}", flush=True)

    attacker_cores = None
    if args.cores == "split":
        stack_cores, attacker_cores = split_cores()
        os.sched_setaffinity(0, stack_cores)  # make serve, nginx, gunicorn and wrk inherit it
        placed = f"the stack and wrk on core {min(stack_cores)}, attackers on {sorted(attacker_cores)}"
    else:
        placed = "everything on every core, attackers at nice 10"
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; {args.workers} gunicorn sync "
          f"workers behind nginx; wrk 2 threads, {args.duration:g} s a run, median p99 of {args.repeat}; {placed}"
          + (f"; each connection {args.pace:g} ms between an answer and its next request" if args.pace else ""))
    print(f"{'target':15} {'c':>3} {'attack':15} {'req/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
          f"{'non-2xx':>8} {'errors':>6} {'CPU ms':>7} {'RSS MB':>9}")
    hello_instance = REPO / "instance" / "bench-hello"
    port = free_port()
    if "hello-world" in targets:
        with make_serve(port, args.workers, app="bench.hello:app", instance=hello_instance) as hello:
            for c in connections:
                show({"target": "hello-world", "c": c, "attack": "-",
                      **measured(hello.pid, f"http://127.0.0.1:{port}/", c, None)})
    port = free_port()
    with make_serve(port, args.workers) as site:
        for target, path in paths.items():  # one request each first: workers warm, compressed bodies cached
            wrk(f"http://127.0.0.1:{port}{path}", 1, 1, scripts[target])
        for attack in [None, *attacks]:
            with attacker(attack, port, attacker_cores) as seen:
                for c in connections:
                    for target, path in paths.items():
                        show({"target": target, "c": c, "attack": attack or "-",
                              **measured(site.pid, f"http://127.0.0.1:{port}{path}", c, scripts[target])})
            if attack:
                attackers.append(seen)
        workers = gunicorn_workers(site.pid)
        memory = {"workers": len(workers), "worker_rss_mb": [round(rss_mb(p)) for p in workers]}
    print("\nattackers (what each saw):")
    for seen in attackers:
        print(f"  {json.dumps(seen)}")
    print(f"site workers at the end: {memory}")
    print_targets(rows, attacks)
    (REPO / "instance" / "bench-load.json").write_text(json.dumps(
        {"rows": rows, "attackers": attackers, "memory": memory, "duration": args.duration,
         "workers": args.workers, "cores": placed}, indent=1))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
