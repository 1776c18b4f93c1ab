"""Benchmark: ``/api/v1/move`` for every unit on a full Overlord board with 80 units and varied
terrain (roads, forests, hills, steep hills, rivers with bridges, beaches with a bluff, marshes,
wire, minefields), in-process (parse + search + answer) and through the Flask test client.

Prints mean, p50 and p95 in milliseconds over every unit; run with ``.venv/bin/python
bench/move.py``. Target: p95 under 5 ms in-process. Numbers only: no test asserts timings."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

from adjudicator import create_app
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.movement import legal_moves, move_json
from adjudicator.engine.situation import parse_situation

UNIT_MIX = [("infantry", 4, []), ("infantry", 4, ["special_forces"]), ("armor", 3, []), ("artillery", 2, []),
            ("half_track", 2, []), ("supply_truck", 2, []), ("infantry", 4, ["combat_engineer"]),
            ("armor", 3, ["tank_destroyer"]), ("infantry", 4, ["cavalry"])]


def river_col(row: int) -> int:
    """A river running down the middle of the board (odd rows have odd columns)."""
    return 25 if row % 2 else 24


def overlord_request(seed: int = 44) -> dict[str, Any]:
    """A reproducible full Overlord board: 80 units, over half of the hexes with terrain or obstacles."""
    rng = random.Random(seed)
    board = BOARDS["overlord"]
    hexes: dict[tuple[int, int], dict[str, Any]] = {}
    for h in board.hexes():
        if h.row == 8:
            hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "terrain": "beach"}
        elif h.row == 7 and h.col % 6 == 1:
            hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "terrain": "sea_bluff"}
        elif h.row == 4:
            hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "terrain": "road"}
        elif h.col == river_col(h.row):
            hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "terrain": "river"}
        else:
            roll = rng.random()
            terrain = ("forest" if roll < .12 else "hill" if roll < .2 else "steep_hill" if roll < .23
                       else "marsh" if roll < .26 else "town" if roll < .3 else None)
            if terrain:
                hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "terrain": terrain}
            elif roll < .33:
                hexes[(h.row, h.col)] = {"row": h.row, "col": h.col, "obstacle": rng.choice(["wire", "minefield"])}
    for row in range(board.rows):  # bridges over the river
        if row % 3 == 1:
            col = river_col(row)
            hexes[(row, col)] = {"row": row, "col": col, "terrain": "river", "obstacle": "bridge"}
    free = [h for h in board.hexes() if hexes.get((h.row, h.col), {}).get("terrain") not in ("river", "marsh")]
    rng.shuffle(free)
    units = []
    for i, h in enumerate(free[:80]):
        kind, figures, badges = UNIT_MIX[i % len(UNIT_MIX)]
        units.append({"id": f"U{i}", "side": "allies" if h.row >= 4 else "axis", "type": kind, "row": h.row,
                      "col": h.col, "figures": figures, "badges": badges})
    return {"board": "overlord", "hexes": list(hexes.values()), "units": units}


def summary(label: str, times: list[float]) -> float:
    times = sorted(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{label}: mean {statistics.fmean(times):.2f} ms, p50 {statistics.median(times):.2f} ms, "
          f"p95 {p95:.2f} ms ({len(times)} calls)")
    return p95


def per_unit(call: Callable[[str], Any], ids: list[str], rounds: int = 3,
             clock: Callable[[], float] = time.perf_counter) -> list[float]:
    times = []
    for _ in range(rounds):
        for uid in ids:
            start = clock()
            call(uid)
            times.append((clock() - start) * 1000)
    return times


def main() -> None:
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-move-"), "TESTING": True})
    rulebook = app.extensions["rulebook"]
    request = overlord_request()
    ids = [u["id"] for u in request["units"]]
    situation = parse_situation(request, rulebook)

    def engine_only(uid: str) -> dict[str, Any]:
        return move_json(situation, rulebook, legal_moves(situation, rulebook, uid))

    def in_process(uid: str) -> dict[str, Any]:
        parsed = parse_situation(request, rulebook)
        return move_json(parsed, rulebook, legal_moves(parsed, rulebook, uid))

    client = app.test_client()

    def over_http(uid: str) -> Any:
        response = client.post("/api/v1/move", json={**request, "unit": uid})
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    reach = [len(engine_only(uid)["reachable"]) for uid in ids]
    print(f"overlord board: {len(request['hexes'])} terrain hexes, {len(ids)} units, reachable hexes per unit: "
          f"mean {statistics.fmean(reach):.1f}, max {max(reach)}")
    # Wall-clock times swing with other processes on a shared machine; CPU time does not.
    summary("engine (search + answer), wall", per_unit(engine_only, ids))
    summary("engine (search + answer), CPU", per_unit(engine_only, ids, clock=time.process_time))
    summary("in-process (parse + search + answer), wall", per_unit(in_process, ids))
    p95 = summary("in-process (parse + search + answer), CPU", per_unit(in_process, ids, clock=time.process_time))
    summary("test client POST /api/v1/move, wall", per_unit(over_http, ids, rounds=1))
    print(f"target p95 < 5 ms in-process (CPU): {'met' if p95 < 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
