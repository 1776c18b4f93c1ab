"""The costliest legal requests known for each engine endpoint, as JSON bodies, and their cost.

``.venv/bin/python bench/hostile.py`` rules each through ``engine.api.ENDPOINTS`` (what the server
and the browser run) under the default work budget and prints, per request, the answer (200, or
422 ``too_complex``), the work units charged and the best CPU time of five runs. The target (issue
28): every one stays at or under 100 ms of CPU, or is refused with 422.
``tests/test_costliest_requests.py`` checks the answers (never the times). ``bench/load.py``'s
attacker loops ``worst_fire_map``.

They are the worst found by hand for each endpoint's cost drivers, not by a search:

- ``worst_fire_map``: an Overlord board with every hex a mountain (one plateau: whether two units
  on it see each other depends on the whole group) and 200 units, 100 a side, 500 pairs ruled
  (the cap), 4,568 in reach: a 28 KB request that cost 2.1–2.3 s of CPU (1,000 pairs then) before
  the plateau groups were worked out once per situation; on hills and forests for comparison;
- ``frozen_breakthrough``: a 6-figure French Resistance unit (1–3 hexes a flag) on a Breakthrough
  board of frozen rivers (each retreat step rolls dice), for ``/battle``, ``/retreat`` (12 flags)
  and ``/resolve`` (every face rolled);
- ``crowded_move``: Behind Enemy Lines (3 hexes ignoring terrain, then 3 again) for infantry in
  the middle of an Overlord board of roads among 199 other units;
- ``lake_line``: corner to corner of an Overlord board every other hex of which is a lake (lake
  runs are ruled line by line);
- ``resupply_ring``: a supply truck among eleven damaged units."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.engine.geometry import BOARDS

LIMIT_MS = 100.0


def worst_fire_map(terrain: str = "mountain", units: int = 200) -> dict[str, Any]:
    board = BOARDS["overlord"]
    hexes = list(board.hexes())
    placed = []
    for h in hexes:
        if len(placed) == units:
            break
        side = "allies" if h.row >= board.rows // 2 else "axis"
        placed.append({"id": f"u{len(placed)}", "side": side, "type": ("infantry", "artillery")[len(placed) % 2],
                       "row": h.row, "col": h.col, "figures": 2})
    return {"board": "overlord", "hexes": [{"row": h.row, "col": h.col, "terrain": terrain} for h in hexes],
            "units": placed}


def frozen_breakthrough() -> dict[str, Any]:
    """The pathological battle: every hex of a Breakthrough board a frozen river (each retreat step
    rolls dice), a 6-figure French Resistance target (1-3 hexes per flag) on the top row, an attacker
    with a Heroic Leader and Close Assault (``tests/test_hardening_budget.py`` bounds its cost)."""
    hexes = [{"row": h.row, "col": h.col, "terrain": "frozen_river"} for h in BOARDS["breakthrough"].hexes()]
    return {"board": "breakthrough", "hexes": hexes, "units": [
        {"id": "T", "side": "allies", "type": "french_resistance", "row": 0, "col": 12, "figures": 6,
         "start_figures": 6},
        {"id": "A", "side": "axis", "type": "infantry", "row": 1, "col": 13, "figures": 4,
         "badges": ["heroic_leader"]},
    ], "attacker": "A", "target": "T", "card": "close_assault"}


def crowded_move() -> dict[str, Any]:
    board = BOARDS["overlord"]
    middle = next(h for h in board.hexes() if h.row == board.rows // 2 and abs(h.col - board.max_col // 2) <= 1)
    units = [{"id": "M", "side": "allies", "type": "infantry", "row": middle.row, "col": middle.col, "figures": 4}]
    for h in board.hexes():
        if len(units) == 200:
            break
        if h != middle and (h.row + h.col // 2) % 3 == 0:
            units.append({"id": f"u{len(units)}", "side": "axis" if h.row < middle.row else "allies",
                          "type": "infantry", "row": h.row, "col": h.col, "figures": 4})
    hexes = [{"row": h.row, "col": h.col, "terrain": "road"} for h in board.hexes()]
    return {"board": "overlord", "hexes": hexes, "units": units, "unit": "M", "card": "behind_enemy_lines"}


def lake_line() -> dict[str, Any]:
    board = BOARDS["overlord"]
    hexes = list(board.hexes())
    first, last = hexes[0], hexes[-1]
    lakes = [{"row": h.row, "col": h.col, "terrain": "lake"} for i, h in enumerate(hexes)
             if i % 2 and h not in (first, last)]
    return {"board": "overlord", "hexes": lakes, "units": [],
            "from": {"row": first.row, "col": first.col}, "to": {"row": last.row, "col": last.col}}


def resupply_ring() -> dict[str, Any]:
    units = [{"id": "S", "side": "allies", "type": "supply_truck", "row": 4, "col": 12, "figures": 1}]
    for i, (dr, dc) in enumerate(((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1), (2, 0), (2, 2), (2, -2),
                                  (-2, 0), (-2, 2))):
        units.append({"id": f"u{i}", "side": "allies", "type": "infantry", "row": 4 + dr, "col": 12 + dc,
                      "figures": 1})
    return {"board": "standard", "units": units, "supplier": "S"}


def cases() -> dict[str, tuple[str, dict[str, Any]]]:
    """Name -> (endpoint, body) of every costliest request known."""
    frozen = frozen_breakthrough()
    return {
        "fire-map, 200 units, all mountain": ("fire-map", worst_fire_map("mountain")),
        "fire-map, 200 units, all hill": ("fire-map", worst_fire_map("hill")),
        "fire-map, 200 units, all forest": ("fire-map", worst_fire_map("forest")),
        "battle, frozen Breakthrough": ("battle", frozen),
        "retreat, frozen Breakthrough, 12 flags": ("retreat", {**frozen, "unit": "T", "flags": 12}),
        "resolve, frozen Breakthrough, every face": ("resolve", {**frozen, "rolled": {
            "infantry": 1, "grenade": 1, "star": 1, "flag": 2}}),
        "move, Behind Enemy Lines among 200": ("move", crowded_move()),
        "line of sight, lakes corner to corner": ("line-of-sight", lake_line()),
        "resupply, truck among 11": ("resupply", resupply_ring()),
    }


def main() -> None:
    from adjudicator.config import DEFAULT_WORK_BUDGET
    from adjudicator.content.loader import content_dir, load_catalogue
    from adjudicator.engine.api import ENDPOINTS, RequestError
    from adjudicator.engine.budget import WorkBudgetExceeded, work_budget
    from adjudicator.engine.sightlines import warm_up

    rulebook = load_catalogue(content_dir()).rulebook()
    warm_up()
    import os

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; best CPU of 5 runs; budget "
          f"{DEFAULT_WORK_BUDGET:,} units; target <= {LIMIT_MS:g} ms or 422")
    for name, (endpoint, body) in cases().items():
        best, answer, units = float("inf"), "", 0
        for _ in range(5):
            started = time.process_time()
            with work_budget(DEFAULT_WORK_BUDGET) as spent:
                try:
                    ENDPOINTS[endpoint](body, rulebook)
                    answer = "200"
                except WorkBudgetExceeded:
                    answer = "422 too_complex"
                except RequestError as exc:
                    answer = f"400 {exc.field}: {exc.message}"
            best = min(best, time.process_time() - started)
            units = spent.units
        verdict = "ok" if answer.startswith("422") or best * 1000 <= LIMIT_MS else "OVER"
        print(f"{name:44} {answer:16} {units:>7,} units {best * 1000:8.1f} ms  {verdict}", flush=True)


if __name__ == "__main__":
    main()
