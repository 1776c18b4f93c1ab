"""Benchmark: line of sight between every pair of hexes of a standard board with terrain and units.

Prints pairs per second and the total time; run with ``.venv/bin/python bench/los.py``. The
geometry cache (``engine.los.trace``) is cleared first, then a second pass shows the cached speed.
Numbers only: no test asserts timings."""

from __future__ import annotations

import time

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine.los import line_of_sight, trace
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

SITUATION = {
    "board": "standard",
    "hexes": [
        *({"row": 2, "col": c, "terrain": "forest"} for c in (4, 6, 16)),
        *({"row": 4, "col": c, "terrain": "hill"} for c in (8, 10, 12)),
        {"row": 3, "col": 9, "terrain": "hill"},
        *({"row": 6, "col": c, "terrain": "town"} for c in (2, 20)),
        {"row": 5, "col": 15, "terrain": "lake"}, {"row": 5, "col": 17, "terrain": "lake"},
        {"row": 1, "col": 21, "terrain": "forest"},
    ],
    "units": [
        *({"id": f"a{i}", "side": "allies", "type": "infantry", "row": 7, "col": 1 + 4 * i, "figures": 4}
          for i in range(6)),
        *({"id": f"x{i}", "side": "axis", "type": "armor", "row": 1, "col": 1 + 4 * i, "figures": 3}
          for i in range(5)),
    ],
}


def run(label: str, situation: Situation, rulebook: Rulebook) -> None:
    hexes = list(situation.board.hexes())
    start = time.perf_counter()
    pairs = clear = 0
    for a in hexes:
        for b in hexes:
            if a != b:
                pairs += 1
                clear += line_of_sight(situation, rulebook, a, b).clear
    elapsed = time.perf_counter() - start
    print(f"{label}: {pairs} ordered pairs in {elapsed:.3f} s = {pairs / elapsed:,.0f} pairs/s "
          f"({1e6 * elapsed / pairs:.1f} µs each; {clear} clear)")


def main() -> None:
    rulebook = load_catalogue(content_dir()).rulebook()
    situation = parse_situation(SITUATION, rulebook)
    trace.cache_clear()
    run("all pairs, cold geometry cache", situation, rulebook)
    run("all pairs, warm geometry cache", situation, rulebook)


if __name__ == "__main__":
    main()
