"""``POST /api/v1/fire-map`` (adjudicator/API.md; content ``battle``, ``range_and_dice``): every
battle between enemy units as things stand. Every entry must be what ``/battle`` says for that pair
(a property test on random boards), pairs left out must be ones ``/battle`` rules out of range, one
unit's map is exactly the pairs that involve it, and the work is capped."""

from __future__ import annotations

import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.fire_map import fire_map, reach
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import parse_situation

SITUATION: dict[str, Any] = {
    "board": "standard",
    "hexes": [{"row": 5, "col": 13, "terrain": "forest"}],
    "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 12, "figures": 4},
        {"id": "B", "side": "allies", "type": "artillery", "row": 8, "col": 12, "figures": 2},
        {"id": "C", "side": "axis", "type": "armor", "row": 4, "col": 14, "figures": 3},
        {"id": "D", "side": "axis", "type": "infantry", "row": 0, "col": 0, "figures": 4},
    ],
}
ENTRY_FIELDS = ("legal", "dice", "why_not", "distance", "close_assault", "hit_symbols")


def battle(client: FlaskClient, doc: dict[str, Any], attacker: str, target: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/battle", json={**doc, "attacker": attacker, "target": target, **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def same_as_battle(entry: dict[str, Any], ruling: dict[str, Any]) -> None:
    for name in ENTRY_FIELDS:
        assert entry[name] == ruling[name], (entry["attacker"], entry["target"], name)
    assert entry["line_of_sight"] is ruling["line_of_sight"]["clear"]
    assert entry["line_of_sight_needed"] is ruling["line_of_sight"]["needed"]


def test_fire_map_lists_enemy_pairs_in_reach_as_battle_rules_them(client: FlaskClient) -> None:
    answer = client.post("/api/v1/fire-map", json=SITUATION).get_json()
    pairs = [(b["attacker"], b["target"]) for b in answer["battles"]]
    # D (infantry, range 3) in the far corner is beyond everyone's reach and reaches no one; the
    # artillery B reaches C 4 hexes away, but C (armor, range 3) cannot reach B
    assert pairs == [("A", "C"), ("B", "C"), ("C", "A")]
    assert answer["beyond_range"] == 5 and answer["pairs"] == 3 and answer["truncated"] is False
    for entry in answer["battles"]:
        same_as_battle(entry, battle(client, SITUATION, entry["attacker"], entry["target"]))


def test_pairs_left_out_are_out_of_range_for_battle(client: FlaskClient) -> None:
    for attacker, target in (("A", "D"), ("B", "D"), ("C", "B"), ("D", "A"), ("D", "B")):
        ruling = battle(client, SITUATION, attacker, target)
        assert not ruling["legal"] and any(r["text"].startswith("Out of range") for r in ruling["why_not"])


def test_one_units_map_holds_every_battle_it_makes_or_suffers(client: FlaskClient) -> None:
    whole = client.post("/api/v1/fire-map", json=SITUATION).get_json()["battles"]
    mine = client.post("/api/v1/fire-map", json={**SITUATION, "unit": "C"}).get_json()
    assert mine["unit"] == "C"
    assert mine["battles"] == [b for b in whole if "C" in (b["attacker"], b["target"])]


def test_a_card_applies_to_every_pair_as_in_battle(client: FlaskClient) -> None:
    answer = client.post("/api/v1/fire-map", json={**SITUATION, "card": "armor_assault"}).get_json()
    for entry in answer["battles"]:
        same_as_battle(entry, battle(client, SITUATION, entry["attacker"], entry["target"], card="armor_assault"))


def test_fire_map_bad_fields_are_400s_naming_them(client: FlaskClient) -> None:
    for fields, name in (({"unit": "Z"}, "unit"), ({"unit": 3}, "unit"), ({"card": "no_such_card"}, "card"),
                         ({"combat_card": 7}, "combat_card")):
        response = client.post("/api/v1/fire-map", json={**SITUATION, **fields})
        assert response.status_code == 400 and response.get_json()["error"]["field"] == name


def test_the_map_is_capped_and_says_so(rulebook: Rulebook) -> None:
    situation = parse_situation(SITUATION, rulebook)
    capped = fire_map(situation, rulebook, max_pairs=2)
    assert len(capped.battles) == 2 and capped.pairs == 3 and capped.truncated
    assert capped.to_dict()["truncated"] is True


def test_reach_is_the_longest_dice_table(rulebook: Rulebook) -> None:
    """Infantry fires 3 hexes; artillery 6, or 7 from a mountain (its ``dice_on_terrain``)."""
    situation = parse_situation(SITUATION, rulebook)
    assert reach(rulebook, situation.unit("A")) == 3 and reach(rulebook, situation.unit("B")) == 7


def test_a_crowded_overlord_map_stays_bounded(client: FlaskClient) -> None:
    """200 units (the most a situation may hold) on an Overlord board: the all-pairs map answers
    within the pair cap and in bounded time."""
    hexes = [h for h in BOARDS["overlord"].hexes() if 1 <= h.row <= 8][:200]
    units = [{"id": f"u{i}", "side": "allies" if h.row >= 5 else "axis", "type": "infantry" if i % 3 else "armor",
              "row": h.row, "col": h.col, "figures": 2} for i, h in enumerate(hexes)]
    start = time.perf_counter()
    response = client.post("/api/v1/fire-map", json={"board": "overlord", "units": units})
    elapsed = time.perf_counter() - start
    answer = response.get_json()
    assert response.status_code == 200 and len(answer["battles"]) <= answer["max_pairs"]
    assert answer["truncated"] == (answer["pairs"] > answer["max_pairs"])
    assert elapsed < 30, elapsed  # generous: a shared 2-core machine; the cap is what bounds it


CENTRE = [(r, c) for r in range(9) for c in range(25) if (r + c) % 2 == 0]
TYPES = ["infantry", "armor", "artillery", "infantry", "armor"]
TERRAINS = [None, None, "forest", "town", "hill", "wire"]


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    spots = draw(st.lists(st.sampled_from(CENTRE), min_size=2, max_size=7, unique=True))
    units = []
    for i, (row, col) in enumerate(spots):
        kind = draw(st.sampled_from(TYPES))
        units.append({"id": f"U{i}", "side": draw(st.sampled_from(["allies", "axis"])), "type": kind, "row": row,
                      "col": col, "figures": 1, "moved": draw(st.sampled_from([0, 0, 1, 2]))})
    hexes = []
    for row, col in draw(st.lists(st.sampled_from(CENTRE), max_size=15, unique=True)):
        terrain = draw(st.sampled_from(TERRAINS))
        if terrain == "wire":
            hexes.append({"row": row, "col": col, "obstacle": "wire"})
        elif terrain:
            hexes.append({"row": row, "col": col, "terrain": terrain})
    return {"board": "standard", "hexes": hexes, "units": units}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=boards())
def test_every_fire_map_entry_equals_the_battle_answer(app: Flask, doc: dict[str, Any]) -> None:
    client = app.test_client()
    response = client.post("/api/v1/fire-map", json=doc)
    assert response.status_code < 500
    if response.status_code == 400:
        return
    answer = response.get_json()
    listed = {(b["attacker"], b["target"]) for b in answer["battles"]}
    for entry in answer["battles"]:
        same_as_battle(entry, battle(client, doc, entry["attacker"], entry["target"]))
    sides = {u["id"]: u["side"] for u in doc["units"]}
    enemies = [(a, t) for a in sides for t in sides if sides[a] != sides[t]]
    assert answer["pairs"] + answer["beyond_range"] == len(enemies)
    for attacker, target in enemies:
        if (attacker, target) not in listed:
            ruling = battle(client, doc, attacker, target)
            assert not ruling["legal"] and any(r["text"].startswith("Out of range") for r in ruling["why_not"])
