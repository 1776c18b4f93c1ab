"""Benchmark: the fire map with one ``sight_map`` sweep against the fire map ruled pair by pair.

Run with ``.venv/bin/python bench/fire_map.py``. Seeded boards, 30 % of the hexes forest/hill/
town, units of three types on both sides: a crowded Overlord board (80 units) and a standard board
(30 units); each timed for the whole map and for one unit's map (what the builder asks), side by
side in one run, warm (best of several runs in this process):

- "now" is ``engine.fire_map.fire_map`` as it is: one sweep over the attackers' hexes, each
  pair's verdict read from it, a line walked only to name a blocked line's blockers;
- "before" rules the same pairs as the fire map did before: ``assess_battle`` with no sight map,
  so ``line_of_sight`` walks every pair's line, and the exact odds (which the map does not show)
  worked out for every legal pair; for one unit, the hexes it sees found the same way, a line
  from it to every hex of the board;
- "lines/pair" is "before" without the odds: the line-of-sight part of the gain alone.

All give the same entries (checked); "walked" counts the lines the map still walks (blocked lines
whose blockers a ruling names). Times are wall / CPU of this process in ms; on a shared
machine the load average (printed) inflates wall times, so compare the CPU ratio. Numbers only: no
test asserts timings."""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine.battle import assess_battle
from adjudicator.engine.fire_map import FireMap, fire_entry_json, fire_map
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.los import line_of_sight
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.sightlines import warm_up
from adjudicator.engine.situation import Situation, may_be_placed_on, parse_situation

CASES = {"overlord, 80 units, 30 % cover": ("overlord", 80), "standard, 30 units, 30 % cover": ("standard", 30)}
TERRAINS = ("forest", "hill", "town")
TYPES = ("infantry", "armor", "artillery")


def crowded(rulebook: Rulebook, kind: str, units: int, cover: float = 0.3, seed: int = 44) -> Situation:
    """``units`` units on distinct hexes where their type may stand, Allies in the bottom half."""
    rnd = random.Random(f"{kind}-{units}-{seed}")
    board = BOARDS[kind]
    terrain = {h: rnd.choice(TERRAINS) for h in board.hexes() if rnd.random() < cover}
    spots = rnd.sample(list(board.hexes()), len(list(board.hexes())))
    placed: list[dict[str, Any]] = []
    for h in spots:
        kind_of = TYPES[len(placed) % len(TYPES)]
        if len(placed) < units and (h not in terrain or may_be_placed_on(rulebook, kind_of, terrain[h])):
            placed.append({"id": f"u{len(placed)}", "side": "allies" if h.row >= board.rows // 2 else "axis",
                           "type": kind_of, "row": h.row, "col": h.col, "figures": 2})
    hexes = [{"row": h.row, "col": h.col, "terrain": t} for h, t in terrain.items()]
    return parse_situation({"board": kind, "hexes": hexes, "units": placed}, rulebook)


def per_pair(situation: Situation, rulebook: Rulebook, fm: FireMap, odds: bool = True) -> list[dict[str, Any]]:
    """The same pairs ruled pair by pair: ``line_of_sight`` for each; with ``odds``, the exact odds
    worked out with each ruling, as the fire map did before; for one unit, its shading the same
    way (a line from it to every hex)."""
    entries = []
    for b in fm.battles:
        ruling = assess_battle(situation, rulebook, b.attacker.id, b.target.id)
        if odds:
            assert ruling.odds is not None or not ruling.legal
        entries.append(fire_entry_json(ruling))
    if fm.unit is not None:
        origin = situation.unit(fm.unit).hex
        seen = [h for h in situation.board.hexes()
                if h != origin and line_of_sight(situation, rulebook, origin, h).clear]
        assert tuple(seen) == fm.in_sight
    return entries


def best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The best wall and CPU seconds of ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def ms(seconds: tuple[float, float]) -> str:
    return f"{1000 * seconds[0]:,.1f}/{1000 * seconds[1]:,.1f}"


def main() -> None:
    rulebook = load_catalogue(content_dir()).rulebook()
    warm_up()  # as create_app does in a serving worker
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"best of {repeat}; times in ms, wall/CPU")
    print(f"{'board':32} {'map':9} {'pairs':>5} {'walked':>6} | {'now':>11} {'lines/pair':>11} {'before':>11} | "
          f"{'CPU before/now':>14} {'lines/pair/now':>14}")
    for case, (kind, units) in CASES.items():
        situation = crowded(rulebook, kind, units)
        for label, unit in (("all units", None), ("one unit", situation.units[0].id)):
            fm = fire_map(situation, rulebook, unit)
            after = [fire_entry_json(b) for b in fm.battles]
            assert after == per_pair(situation, rulebook, fm), case  # the same entries, pair for pair
            walked = sum(b.los_needed and not b.los_clear for b in fm.battles)
            now = best(lambda u=unit, s=situation: fire_map(s, rulebook, u), repeat)  # type: ignore[misc]
            lines = best(lambda f=fm, s=situation: per_pair(s, rulebook, f, odds=False), repeat)  # type: ignore[misc]
            before = best(lambda f=fm, s=situation: per_pair(s, rulebook, f), repeat)  # type: ignore[misc]
            print(f"{case:32} {label:9} {len(fm.battles):>5} {walked:>6} | {ms(now):>11} {ms(lines):>11} "
                  f"{ms(before):>11} | {before[1] / now[1]:>13.1f}x {lines[1] / now[1]:>13.1f}x", flush=True)


if __name__ == "__main__":
    main()
