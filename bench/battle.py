"""Benchmark: one full ``/api/v1/battle`` answer (legality, dice, line of sight, odds, flags,
retreat, take ground), in-process and through the Flask test client; one ``/api/v1/resolve``; and
``/api/v1/fire-map`` on this small board and on crowded standard and Overlord boards (the worst
case its pair cap allows).

Prints mean, p50 and p95 in milliseconds; run with ``.venv/bin/python bench/battle.py``. Numbers
only: no test asserts timings."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

from adjudicator import create_app
from adjudicator.engine.aftermath import battle_aftermath
from adjudicator.engine.battle import assess_battle, ruling_json
from adjudicator.engine.fire_map import fire_map
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.sightlines import relative
from adjudicator.engine.situation import parse_situation

REQUEST: dict[str, Any] = {
    "board": "standard",
    "hexes": [
        {"row": 4, "col": 16, "terrain": "town", "obstacle": "sandbags"},
        {"row": 5, "col": 13, "terrain": "forest"},
        {"row": 3, "col": 13, "terrain": "hill"},
        {"row": 6, "col": 10, "terrain": "hill"},
        {"row": 2, "col": 16, "terrain": "forest"},
    ],
    "units": [
        {"id": "A", "side": "allies", "type": "armor", "row": 4, "col": 14, "figures": 3, "moved": 2},
        {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 16, "figures": 3, "start_figures": 4},
        {"id": "C", "side": "axis", "type": "infantry", "row": 3, "col": 17, "figures": 4},
        {"id": "D", "side": "allies", "type": "infantry", "row": 6, "col": 12, "figures": 4},
        {"id": "E", "side": "axis", "type": "artillery", "row": 1, "col": 19, "figures": 2},
    ],
    "attacker": "A",
    "target": "B",
    "card": "armor_assault",
}


def measure(label: str, call: Callable[[], Any], runs: int = 300) -> None:
    call()  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{label}: mean {statistics.fmean(times):.2f} ms, p50 {statistics.median(times):.2f} ms, "
          f"p95 {p95:.2f} ms ({runs} runs)")


def main() -> None:
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-battle-"), "TESTING": True,
                      "RATELIMIT_ENABLED": False})  # the bench posts far more than one client may
    rulebook = app.extensions["rulebook"]

    def in_process() -> dict[str, Any]:
        situation = parse_situation(REQUEST, rulebook)
        ruling = assess_battle(situation, rulebook, "A", "B", card="armor_assault")
        after = battle_aftermath(situation, rulebook, ruling, card=ruling.card)
        return {**ruling_json(situation, rulebook, ruling), **after.to_dict()}

    def cold_geometry() -> dict[str, Any]:
        relative.cache_clear()  # as if create_app had not built the line-of-sight tables
        return in_process()

    client = app.test_client()

    def over_http() -> Any:
        response = client.post("/api/v1/battle", json=REQUEST)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    answer = over_http()
    odds = answer["probabilities"] or {}
    print(f"battle: legal={answer['legal']} dice={answer['dice']} eliminate={odds.get('eliminate')} "
          f"eliminate_after_retreat={odds.get('eliminate_after_retreat')} "
          f"retreat options={len(answer['retreat']['options'])}")
    measure("in-process (geometry tables built)", in_process)
    measure("in-process (cold displacement table)", cold_geometry)
    measure("test client POST /api/v1/battle", over_http)

    rolled = {**REQUEST, "rolled": {"grenade": 1, "flag": 1}}

    def resolve_over_http() -> Any:
        response = client.post("/api/v1/resolve", json=rolled)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    measure("test client POST /api/v1/resolve", resolve_over_http)
    situation = parse_situation(REQUEST, rulebook)
    measure("fire map, 5 units (all pairs)", lambda: fire_map(situation, rulebook))
    for kind in ("standard", "overlord"):
        crowded = parse_situation(crowded_board(kind), rulebook)
        answer = fire_map(crowded, rulebook)
        print(f"fire map, {len(crowded.units)} units on {kind}: {answer.pairs} pairs in reach, "
              f"{len(answer.battles)} assessed, {answer.beyond_range} beyond range")
        measure(f"fire map, crowded {kind}", lambda c=crowded: fire_map(c, rulebook), runs=5)


def crowded_board(kind: str) -> dict[str, Any]:
    """As many units as a situation may hold (200, or every hex of a standard board), two rows of
    no man's land excepted: the most pairs a fire map can face."""
    board = BOARDS[kind]
    middle = board.rows // 2
    spots = [h for h in board.hexes() if h.row != middle][:200]
    kinds = ("infantry", "armor", "artillery")
    return {"board": kind, "units": [
        {"id": f"u{i}", "side": "allies" if h.row > middle else "axis", "type": kinds[i % 3], "row": h.row,
         "col": h.col, "figures": 2} for i, h in enumerate(spots)]}


if __name__ == "__main__":
    main()
