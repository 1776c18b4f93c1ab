"""The costliest legal requests found for the engine endpoints, as JSON bodies: what the load
bench's attacker sends (``bench/load.py``) and what tests/test_hardening_budget.py holds to the
work budget.

``worst_fire_map``: an Overlord board with every hex a mountain (one plateau, so the line of sight
between two units on it depends on the whole group) and 200 units, 100 a side, on every other hex:
a legal 28 KB request that cost 2.1–2.3 s of CPU before the fire map computed its plateau groups
once per situation."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.geometry import BOARDS


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
