"""Benchmark: line of sight between every ordered pair of hexes, side by side with the old engine.

Run with ``.venv/bin/python bench/los.py``. For each board (standard empty, standard 30 %
forest/hill/town, Overlord 30 %) it prints, in milliseconds for all ordered pairs:

- ``sight_map`` warm (best of several runs) and its first call in a fresh process, both as a
  serving worker sees it (the app built the tables at start-up: ``warm_up``, timed too) and with
  nothing built beforehand;
- ``line_of_sight`` called pair by pair (with all its reasons), warm;
- the baseline: the per-pair engine as it was before the tables (commit ``BASELINE``, read with
  ``git show``), warm and first call in a fresh process.

First calls run in child processes (``--child``). Numbers only: no test asserts timings."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

BASELINE = "1141ecc"  # the last commit with the per-pair engine (trace cached per absolute pair)
REPO = Path(__file__).resolve().parent.parent
BOARD_CASES = {"standard empty": ("standard", 0.0), "standard 30%": ("standard", 0.3),
               "overlord 30%": ("overlord", 0.3)}


def board(rulebook: Rulebook, name: str) -> Situation:
    """The board of case ``name``: each hex forest, hill or town with the case's probability (seeded)."""
    kind, cover = BOARD_CASES[name]
    rng = random.Random(44)
    hexes = [{"row": h.row, "col": h.col, "terrain": rng.choice(["forest", "hill", "town"])}
             for h in BOARDS[kind].hexes() if rng.random() < cover]
    return parse_situation({"board": kind, "hexes": hexes, "units": []}, rulebook)


def baseline_module() -> types.ModuleType | None:
    """The old ``engine/los.py``, loaded from git under another name; None without git history."""
    try:
        source = subprocess.run(["git", "show", f"{BASELINE}:adjudicator/engine/los.py"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("baseline_los")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{BASELINE}:adjudicator/engine/los.py", "exec"), module.__dict__)
    return module


def all_pairs(line_of_sight: Callable[..., Any], situation: Situation, rulebook: Rulebook) -> int:
    hexes = list(situation.board.hexes())
    return sum(line_of_sight(situation, rulebook, a, b).clear for a in hexes for b in hexes if a != b)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return 1000 * (time.perf_counter() - start), result


def child(case: str, mode: str) -> None:
    """One first call in this fresh process; prints ``{"ms": ..., ...}`` as JSON."""
    rulebook = load_catalogue(content_dir()).rulebook()
    situation = board(rulebook, case)
    out: dict[str, float] = {}
    if mode == "baseline":
        old = baseline_module()
        assert old is not None
        out["ms"], _ = timed(lambda: all_pairs(old.line_of_sight, situation, rulebook))
    else:
        from adjudicator.engine.los import sight_map
        from adjudicator.engine.sightlines import warm_up

        if mode == "worker":
            out["warm_up_ms"], _ = timed(warm_up)
        out["ms"], _ = timed(lambda: sight_map(situation, rulebook))
    print(json.dumps(out))


def fresh(case: str, mode: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, "--child", case, mode], cwd=REPO, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def runs(fn: Callable[[], Any], n: int) -> tuple[float, float]:
    """Best and median of ``n`` timed runs, in milliseconds."""
    times = [timed(fn)[0] for _ in range(n)]
    return min(times), statistics.median(times)


def measure(case: str, rulebook: Rulebook, old: types.ModuleType | None) -> None:
    """One line of the table for board ``case``."""
    from adjudicator.engine.los import line_of_sight, sight_map

    situation = board(rulebook, case)
    n = len(list(situation.board.hexes()))
    seen = sight_map(situation, rulebook)
    clear = sum(len(v) - 1 for v in seen.values())
    warm, warm_median = runs(lambda: sight_map(situation, rulebook), 15)
    worker, cold = fresh(case, "worker"), fresh(case, "cold")
    per_pair, _ = runs(lambda: all_pairs(line_of_sight, situation, rulebook), 2)
    old_warm = old_first = float("nan")
    if old is not None:
        old_first = fresh(case, "baseline")["ms"]
        assert all_pairs(old.line_of_sight, situation, rulebook) == clear, "the old engine disagrees"
        old_warm, _ = runs(lambda: all_pairs(old.line_of_sight, situation, rulebook), 2)
    print(f"{case:15} {n * (n - 1):>6} {warm:>8.2f} ({warm_median:.2f}) {worker['ms']:>12.2f} {cold['ms']:>13.0f} "
          f"{per_pair:>14.0f} {old_warm:>9.0f} {old_first:>8.0f}   "
          f"({clear} clear; worker start-up warm_up {worker['warm_up_ms']:.0f} ms)")


def main() -> None:
    from adjudicator.engine.sightlines import warm_up

    rulebook = load_catalogue(content_dir()).rulebook()
    build_ms, _ = timed(warm_up)
    old = baseline_module()
    print(f"tables of all three boards built in {build_ms:.0f} ms (in this process); all times in ms "
          "for every ordered pair")
    if old is None:
        print(f"baseline: commit {BASELINE} not available (no git history); old engine columns left out")
    print(f"{'board':15} {'pairs':>6} {'sight_map best (median)':>23} {'1st, worker':>12} {'1st, no tables':>14} "
          f"{'line_of_sight':>14} {'old warm':>9} {'old 1st':>8}")
    for case in BOARD_CASES:
        measure(case, rulebook, old)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
