"""Property tests for ``/api/v1/order`` on random armies: it never answers 5xx, and it agrees with
the endpoints the card then drives — every unit it lists as orderable is one ``/move`` and
``/battle`` accept under that card (no refusal of the order), and every unit it lists as not
orderable is one they refuse (core ``ordering``, engine ``orders``)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.geometry import BOARDS, SECTIONS

CARDS = ["probe", "attack_on_the_move", "recon_in_force", "pincer_move", "assault", "armor_assault", "move_out",
         "artillery_bombard", "infantry_assault", "close_assault", "firefight", "dig_in_breakthrough",
         "medics_and_mechanics", "behind_enemy_lines", "counter_attack", "their_finest_hour", "air_power", "ambush",
         "general_advance", "direct_from_hq"]
KINDS = ["infantry", "infantry", "armor", "artillery", "half_track", "supply_truck"]
FIGURES = {"infantry": 4, "armor": 3, "artillery": 2, "half_track": 2, "supply_truck": 2}
REFUSALS = ("order.wrong_class", "order.wrong_section", "order.wrong_face", "order.excluded", "order.needs_",
            "order.no_units", "order.undocumented_unit", "order.only", "turn.")
"""Codes of the reasons that refuse a unit the order (not what the order then lets it do)."""


@st.composite
def orders(draw: Any) -> dict[str, Any]:
    board = draw(st.sampled_from(list(BOARDS)))
    hexes = list(BOARDS[board].hexes())
    spots = draw(st.lists(st.sampled_from(hexes), min_size=2, max_size=9, unique=True))
    units = []
    for i, h in enumerate(spots):
        kind = draw(st.sampled_from(KINDS))
        units.append({"id": f"U{i}", "side": "allies" if i % 3 else "axis", "type": kind, "row": h.row, "col": h.col,
                      "figures": draw(st.integers(1, FIGURES[kind]))})
    body: dict[str, Any] = {"board": board, "bottom_side": draw(st.sampled_from(["allies", "axis"])),
                            "units": units, "side": draw(st.sampled_from(["allies", "axis"])),
                            "card": draw(st.sampled_from(CARDS)), "section": draw(st.sampled_from(SECTIONS))}
    if body["card"] == "counter_attack":
        body["copied_card"] = {"card": draw(st.sampled_from(CARDS[:8])), "section": draw(st.sampled_from(SECTIONS))}
    if body["card"] == "their_finest_hour":
        body["rolled"] = dict(zip(["infantry", "armor", "star", "flag"],
                                  draw(st.lists(st.integers(0, 2), min_size=4, max_size=4)), strict=True))
    if draw(st.booleans()):
        body["scenario"] = {"options": ["us_marine_corps"]}
    return body


def refusals(reasons: list[dict[str, Any]]) -> list[str]:
    return [r["code"] for r in reasons if r.get("code", "").startswith(REFUSALS)]


@given(body=orders())
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_order_agrees_with_move_and_battle_under_the_card(app: Flask, body: dict[str, Any]):
    client = app.test_client()
    response = client.post("/api/v1/order", json=body)
    assert response.status_code in (200, 400), response.get_data(as_text=True)
    if response.status_code == 400:
        assert response.get_json()["error"]["field"] == "rolled"  # a roll of no die at all
        return
    answer = response.get_json()
    play = {k: body[k] for k in ("board", "bottom_side", "units", "card", "section", "copied_card", "scenario")
            if k in body}
    enemy = next((u["id"] for u in body["units"] if u["side"] != body["side"]), None)
    for entry in answer["orderable"]:
        move = client.post("/api/v1/move", json={**play, "unit": entry["unit"]}).get_json()
        assert refusals(move["why_not"]) == [], (entry, move["why_not"])
        if enemy is not None and not any(r["code"] == "order.only_on_the_move" for r in entry["why"]):
            battle = client.post("/api/v1/battle", json={**play, "attacker": entry["unit"], "target": enemy})
            assert battle.status_code == 200 and refusals(battle.get_json()["why_not"]) == []
    if body["card"] == "their_finest_hour":
        return  # /move and /battle do not know the roll: any face may have been rolled
    for entry in answer["not_orderable"]:
        move = client.post("/api/v1/move", json={**play, "unit": entry["unit"]}).get_json()
        assert move["reachable"] == [] and move["why_not"], entry
