"""The fire map reads line of sight from ``los.sight_map`` (issue #13, section 3; content
``line_of_sight``, ``battle``): one sweep for every attacker's hex instead of one line walked per
pair, and still the very ruling ``/battle`` gives for each pair, reason for reason. With ``unit``
it also answers the hexes that unit sees (``in_sight``), which the builder shades."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.config import DEFAULT_WORK_BUDGET, app_config
from adjudicator.engine import api, battle
from adjudicator.engine.battle import assess_battle, ruling_json
from adjudicator.engine.budget import WorkBudgetExceeded, work_budget
from adjudicator.engine.fire_map import fire_map
from adjudicator.engine.geometry import BOARDS, Hex
from adjudicator.engine.los import line_of_sight, sight_map
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import may_be_placed_on, parse_situation
from tests.test_api_engine import validate

TERRAINS = ["forest", "hill", "town", "hill", "lake", "mountain", "hedgerow"]
TYPES = ["infantry", "armor", "infantry", "armor", "artillery", "mortar"]  # artillery and mortars need no line


def random_doc(rulebook: Rulebook, kind: str, seed: int, cover: float = 0.3, units: float = 0.15) -> dict[str, Any]:
    """A seeded board: ``cover`` of the hexes get terrain (blocking or not, hill groups, lakes),
    ``units`` of the hexes a unit of either side and a mix of types, where its type may stand."""
    rnd = random.Random(f"fire-{kind}-{seed}")
    hexes: list[dict[str, Any]] = []
    placed: list[dict[str, Any]] = []
    for h in BOARDS[kind].hexes():
        terrain = rnd.choice(TERRAINS) if rnd.random() < cover else None
        if terrain:
            hexes.append({"row": h.row, "col": h.col, "terrain": terrain})
        kind_of = rnd.choice(TYPES)
        if rnd.random() < units and (terrain is None or may_be_placed_on(rulebook, kind_of, terrain)):
            placed.append({"id": f"u{len(placed)}", "side": rnd.choice(["allies", "axis"]), "type": kind_of,
                           "row": h.row, "col": h.col, "figures": 2, "moved": rnd.choice([0, 0, 1])})
    return {"board": kind, "hexes": hexes, "units": placed}


BOARD_CASES = [("standard", 1), ("standard", 2), ("overlord", 3), ("breakthrough", 4)]


@pytest.mark.parametrize(("kind", "seed"), BOARD_CASES)
def test_fire_map_rulings_equal_battle_rulings_on_random_boards_with_terrain(
        rulebook: Rulebook, kind: str, seed: int) -> None:
    """Every ruling of the map, line of sight included (read from the sweep, the line walked
    only on demand), is the ``/battle`` ruling for that pair, field for field."""
    situation = parse_situation(random_doc(rulebook, kind, seed), rulebook)
    fm = fire_map(situation, rulebook)
    assert fm.battles and not fm.truncated
    seen = Counter((b.los_needed, b.los_clear) for b in fm.battles)
    assert seen[(True, True)] and seen[(True, False)], seen  # clear and blocked lines, both ruled
    assert seen[(False, True)] + seen[(False, False)], seen  # and units that need no line
    for ruling in fm.battles:
        alone = assess_battle(situation, rulebook, ruling.attacker.id, ruling.target.id)
        assert ruling.los_clear is alone.los.clear
        assert ruling_json(situation, rulebook, ruling) == ruling_json(situation, rulebook, alone)


@pytest.mark.parametrize(("kind", "seed"), BOARD_CASES[1:])
def test_every_fire_map_entry_equals_battle_through_the_api(client: FlaskClient, rulebook: Rulebook,
                                                             kind: str, seed: int) -> None:
    doc = random_doc(rulebook, kind, seed)
    answer = client.post("/api/v1/fire-map", json=doc).get_json()
    assert {b["line_of_sight"] for b in answer["battles"] if b["line_of_sight_needed"]} == {True, False}
    for entry in answer["battles"]:
        response = client.post("/api/v1/battle", json={**doc, "attacker": entry["attacker"],
                                                       "target": entry["target"]})
        ruling = response.get_json()
        for name in ("legal", "dice", "why_not", "distance", "close_assault", "hit_symbols"):
            assert entry[name] == ruling[name], (entry["attacker"], entry["target"], name)
        assert entry["line_of_sight"] is ruling["line_of_sight"]["clear"]
        assert entry["line_of_sight_needed"] is ruling["line_of_sight"]["needed"]


def test_fire_map_walks_a_line_only_where_the_ruling_names_its_blockers_and_convolves_no_dice(
        rulebook: Rulebook, monkeypatch: pytest.MonkeyPatch) -> None:
    """One sweep answers every pair; ``line_of_sight`` runs only for a blocked line of a unit that
    needs one (the reason must name each blocker), never for a clear line or an artillery shot;
    the exact odds, which the map does not show, are left for a caller that reads them."""
    situation = parse_situation(random_doc(rulebook, "overlord", 3), rulebook)
    walked: list[tuple[Hex, Hex]] = []

    def counted(situation: Any, rulebook: Rulebook, origin: Hex, target: Hex) -> Any:
        walked.append((origin, target))
        return line_of_sight(situation, rulebook, origin, target)

    monkeypatch.setattr(battle, "line_of_sight", counted)
    convolved: list[int] = []
    real_odds = battle.battle_odds
    monkeypatch.setattr(battle, "battle_odds", lambda *args: convolved.append(1) or real_odds(*args))
    fm = fire_map(situation, rulebook)
    assert convolved == [] and any(b.legal for b in fm.battles)  # the map shows no odds: none worked out
    needed = sorted((b.attacker.hex, b.target.hex) for b in fm.battles if b.los_needed and not b.los_clear)
    assert needed and sorted(walked) == needed
    assert len(walked) < len(fm.battles)
    clear = next(b for b in fm.battles if b.los_clear)
    assert clear.los.clear and len(walked) == len(needed) + 1  # the whole line, worked out when asked


def test_in_sight_is_every_hex_the_unit_has_a_clear_line_to(rulebook: Rulebook) -> None:
    situation = parse_situation(random_doc(rulebook, "standard", 2), rulebook)
    unit = situation.units[0]
    fm = fire_map(situation, rulebook, unit.id)
    assert fm.in_sight is not None
    expected = {h for h in situation.board.hexes()
                if h != unit.hex and line_of_sight(situation, rulebook, unit.hex, h).clear}
    assert set(fm.in_sight) == expected == sight_map(situation, rulebook, [unit.hex])[unit.hex] - {unit.hex}
    assert list(fm.in_sight) == sorted(expected)  # board order: row, then column
    assert len(expected) < len(list(situation.board.hexes())) - 1  # the terrain hides some hexes
    assert fire_map(situation, rulebook).in_sight is None


def test_in_sight_is_answered_with_labels_only_for_one_unit(client: FlaskClient, rulebook: Rulebook) -> None:
    doc = {"hexes": [{"row": 4, "col": 10, "terrain": "forest"}], "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 4, "col": 6, "figures": 4},
        {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 4}]}
    whole = client.post("/api/v1/fire-map", json=doc).get_json()
    assert "in_sight" not in whole
    mine = client.post("/api/v1/fire-map", json={**doc, "unit": "A"}).get_json()
    seen = {(x["row"], x["col"]): x["label"] for x in mine["in_sight"]}
    assert (4, 8) in seen and (4, 10) in seen  # next to it; the forest itself is seen
    assert (4, 12) not in seen and (4, 14) not in seen  # behind the forest, on the same row
    assert (4, 6) not in seen  # its own hex is left out
    assert all(label for label in seen.values())
    assert mine["battles"][0]["line_of_sight"] is False
    status, offline = api.answer("fire-map", {**doc, "unit": "A"}, rulebook)
    assert (status, offline) == (200, mine)  # the offline engine answers the same
    openapi = client.get("/api/v1/openapi.json").get_json()
    assert "in_sight" in openapi["components"]["schemas"]["FireMap"]["properties"]
    validate(mine, openapi["components"]["schemas"]["FireMap"], openapi)


def test_the_work_budget_bounds_the_fire_map(rulebook: Rulebook, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each origin swept and each pair ruled is charged (``engine.budget``): a crowded map fits
    the default budget, a tiny budget stops it before any pair is ruled, and the API says 422."""
    doc = random_doc(rulebook, "overlord", 3, units=0.3)
    situation = parse_situation(doc, rulebook)
    with work_budget(10**9) as spent:
        fm = fire_map(situation, rulebook)
    origins = {b.attacker.hex for b in fm.battles}
    assert spent.units >= len(fm.battles) + len(origins)
    assert spent.units < DEFAULT_WORK_BUDGET
    with pytest.raises(WorkBudgetExceeded), work_budget(len(fm.battles)):
        fire_map(situation, rulebook)
    tight = dataclasses.replace(app_config(app), engine_work_budget=len(fm.battles))
    monkeypatch.setitem(app.extensions, "config", tight)  # read at each request
    response = app.test_client().post("/api/v1/fire-map", json=doc)
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "too_complex"
    assert fm.to_dict()["pairs"] == fm.pairs
