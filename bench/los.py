"""Benchmark: line of sight between every ordered pair of hexes, ``sight_map`` against per-pair rulings.

Run with ``.venv/bin/python bench/los.py``. Three boards (standard empty, standard with 30 % of its
hexes forest/hill/town, Overlord 30 %, seeded), each timed

- with ``sight_map`` (``engine.los``: bit sets over the precomputed tables);
- with ``line_of_sight`` called for every pair (every reason spelled out), as callers did before;
- with the implementation before the tables (``adjudicator/engine/los.py`` at ``OLD_COMMIT``,
  read with ``git show``; skipped when git or that commit is not available).

"warm" is the best of several runs in this process; "first" is the first call in a fresh process
(a subprocess): for today's code after ``sightlines.warm_up()``, as in a serving worker where
``create_app`` has built the tables (the build itself, all three board kinds, is "start-up").
Every time is given as wall clock / CPU time of this process: on a shared machine the load
average (printed) inflates wall times. Numbers only: no test asserts timings."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine import los
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

OLD_COMMIT = "1141ecc"
"""The last commit whose ``los.py`` ruled pair by pair with an LRU cache of traces."""
CASES = {
    "standard empty": ("standard", 0.0),
    "standard 30% forest/hill/town": ("standard", 0.3),
    "overlord 30% forest/hill/town": ("overlord", 0.3),
}


def situation_doc(case: str) -> dict[str, Any]:
    kind, cover = CASES[case]
    rnd = random.Random(44)
    hexes = [{"row": h.row, "col": h.col, "terrain": rnd.choice(["forest", "hill", "town"])}
             for h in BOARDS[kind].hexes() if rnd.random() < cover]
    return {"board": kind, "hexes": hexes, "units": []}


def all_pairs(module: Any, situation: Situation, rulebook: Rulebook) -> int:
    """Rule every ordered pair with ``module.line_of_sight``; the number of clear ones."""
    hexes = list(situation.board.hexes())
    rule = module.line_of_sight
    return sum(rule(situation, rulebook, a, b).clear for a in hexes for b in hexes if a != b)


def sweep(situation: Situation, rulebook: Rulebook) -> int:
    """All pairs with ``sight_map``; the number of clear ones (a hex seeing itself not counted)."""
    return sum(len(seen) - 1 for seen in los.sight_map(situation, rulebook).values())


def old_module() -> ModuleType | None:
    """The pre-table ``los.py`` as a module of its own, or None when git cannot give it."""
    try:
        source = subprocess.run(["git", "show", f"{OLD_COMMIT}:adjudicator/engine/los.py"], capture_output=True,
                                text=True, check=True, cwd=Path(__file__).resolve().parent).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "los_before_tables.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("los_before_tables", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def best(run: Callable[[], int], repeat: int) -> tuple[tuple[float, float], int]:
    """The best (wall, CPU) seconds of ``repeat`` runs, and the run's result."""
    walls, cpus, result = [], [], 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return (min(walls), min(cpus)), result


def first_call(case: str, how: str) -> dict[str, tuple[float, float]]:
    """Measured in this (fresh) process: what the first call costs, (wall, CPU) seconds."""
    rulebook = load_catalogue(content_dir()).rulebook()
    situation = parse_situation(situation_doc(case), rulebook)
    out: dict[str, tuple[float, float]] = {}
    if how in ("sight_map", "line_of_sight"):  # a serving worker: create_app has warmed the tables
        from adjudicator.engine.sightlines import warm_up

        def start_up() -> int:
            warm_up()
            return 0

        out["startup"], _ = best(start_up, 1)
    if how == "sight_map":
        run: Callable[[], int] = lambda: sweep(situation, rulebook)  # noqa: E731
    elif how == "line_of_sight":
        run = lambda: all_pairs(los, situation, rulebook)  # noqa: E731
    else:
        old = old_module()
        assert old is not None
        run = lambda: all_pairs(old, situation, rulebook)  # noqa: E731
    out["first"], _ = best(run, 1)
    return out


def in_fresh_process(case: str, how: str) -> dict[str, tuple[float, float]]:
    out = subprocess.run([sys.executable, __file__, "--first", case, how], capture_output=True, text=True, check=True)
    return {key: (wall, cpu) for key, (wall, cpu) in json.loads(out.stdout).items()}


def ms(seconds: tuple[float, float] | None) -> str:
    """``wall/CPU`` milliseconds."""
    if seconds is None:
        return "—"
    wall, cpu = seconds
    return f"{1000 * wall:,.1f}/{1000 * cpu:,.1f}"


def main() -> None:
    rulebook = load_catalogue(content_dir()).rulebook()
    old = old_module()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          "times in ms, wall/CPU (CPU: this process only)")
    print(f"{'board':30} {'pairs':>6} | {'sight_map warm':>14} {'first':>11} {'start-up':>13} | "
          f"{'per pair warm':>15} {'first':>15} | {'before tables':>15} {'first':>15}")
    for case in CASES:
        situation = parse_situation(situation_doc(case), rulebook)
        n = len(list(situation.board.hexes()))
        sweep(situation, rulebook)
        fast, clear = best(lambda: sweep(situation, rulebook), 30)  # noqa: B023
        per_pair, clear_pairs = best(lambda: all_pairs(los, situation, rulebook), 2)  # noqa: B023
        assert clear == clear_pairs, (case, clear, clear_pairs)
        first = in_fresh_process(case, "sight_map")
        first_pairs = in_fresh_process(case, "line_of_sight")
        before: tuple[float, float] | None = None
        first_before: tuple[float, float] | None = None
        if old is not None:
            before, clear_old = best(lambda: all_pairs(old, situation, rulebook), 2)  # noqa: B023
            assert clear == clear_old, (case, clear, clear_old)
            first_before = in_fresh_process(case, "before")["first"]
        print(f"{case:30} {n * (n - 1):>6,} | {ms(fast):>14} {ms(first['first']):>11} {ms(first['startup']):>13} | "
              f"{ms(per_pair):>15} {ms(first_pairs['first']):>15} | {ms(before):>15} {ms(first_before):>15}",
              flush=True)
    if old is None:
        print(f"(the implementation before the tables needs git and commit {OLD_COMMIT}: not available here)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--first":
        print(json.dumps(first_call(sys.argv[2], sys.argv[3])))
    else:
        main()
