"""Every piece of a real scenario through ``POST /api/v1/import/m44``, the way the builder's Import button sends a file:
real-format scenario files (``tests/m44/*.m44``, written by hand in the editor's format) for every
editor name added, and the imported situation handed back to the rulings it feeds (an impassable
hex is never entered, a wire stacked on a bridge still counts)."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import Rulebook

from .test_m44 import SAMPLES


def imported(client: FlaskClient, name: str, upload: bool = False) -> dict[str, Any]:
    """The endpoint's answer for ``tests/m44/<name>.m44``, sent as a JSON body or a form upload."""
    data = (SAMPLES / f"{name}.m44").read_bytes()
    if upload:
        response = client.post("/api/v1/import/m44", data={"file": (BytesIO(data), f"{name}.m44")},
                               content_type="multipart/form-data", headers={"Sec-Fetch-Site": "same-origin"})
    else:
        response = client.post("/api/v1/import/m44", data=data, content_type="application/json")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def unit_at(answer: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    return next(u for u in answer["situation"]["units"] if (u["row"], u["col"]) == (row, col))


def hex_at(answer: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    return next(h for h in answer["situation"]["hexes"] if (h["row"], h["col"]) == (row, col))


def pieces(answer: dict[str, Any], key: str) -> set[tuple[Any, ...]]:
    return {(p["row"], p["col"], p["what"], p["name"]) for p in answer[key]}


@pytest.mark.parametrize("name", ["winter_pieces_standard", "destroyer_beach_standard", "crossroads_standard",
                                  "french_decorative_overlord"])
@pytest.mark.parametrize("upload", [False, True])
def test_real_scenario_files_import_whole_with_no_unknown_name(client, name, upload):
    answer = imported(client, name, upload)
    assert answer["unknown"] == [] and answer["unknown_total"] == 0
    assert answer["skipped"] == []
    assert answer["title"].endswith("(test)")
    battle = client.post("/api/v1/fire-map", json=answer["situation"])
    assert battle.status_code == 200, battle.get_json()  # the engine takes the document as it is


@pytest.mark.parametrize(("row", "col", "editor_name", "unit_type", "badge"), [
    (1, 3, "badge30", "infantry", "ski_troops_badge"),
    (1, 5, "tag15", "special_forces", "camouflage"),
    (2, 8, "badge33", "armor", "flame_thrower_badge"),
])
def test_camouflage_ski_troops_and_flame_thrower_editor_names_give_their_entries(client, rulebook: Rulebook, row, col,
                                                                                  editor_name, unit_type, badge):
    unit = unit_at(imported(client, "winter_pieces_standard"), row, col)
    assert (unit["type"], unit["badges"]) == (unit_type, [badge])
    entry = client.get(f"/api/v1/rules/{rulebook.kinds[badge]}/{badge}").get_json()  # the mapping is the content's
    assert editor_name in entry.get("editor_names", []) or int(editor_name.removeprefix("badge")) in entry.get(
        "editor_badges", [])


def test_supply_trucks_vehus_and_vehger_import_for_each_side(client):
    answer = imported(client, "winter_pieces_standard")
    allied, german = unit_at(answer, 6, 12), unit_at(answer, 6, 14)
    assert (allied["type"], allied["side"], allied["figures"], allied["start_figures"]) == (
        "supply_truck", "allies", 3, 3)  # nbr_units 3: the scenario's own count (Supply Trucks rules: 1 to 3)
    assert (german["type"], german["side"], german["nation"]) == ("supply_truck", "axis", "german")


def test_train_and_destroyer_drawn_as_tiles_become_units(client):
    trains = imported(client, "winter_pieces_standard")
    assert (unit_at(trains, 5, 1)["type"], unit_at(trains, 5, 1)["side"]) == ("train", "axis")  # loco, owner given
    assert unit_at(trains, 5, 3)["type"] == "train"  # wagon
    ships = imported(client, "destroyer_beach_standard")
    assert (unit_at(ships, 8, 6)["type"], unit_at(ships, 8, 6)["side"]) == ("destroyer", "allies")  # pdestroyer
    assert any("names no side" in note for note in ships["notes"])


def test_stacked_tiles_keep_the_ford_the_wire_on_the_bridge_and_the_exit_marker(client):
    answer = imported(client, "winter_pieces_standard")
    assert hex_at(answer, 4, 16)["terrain"] == "ford"  # a ford drawn over a river replaces it
    assert sorted(hex_at(answer, 4, 18)["obstacles"]) == ["bridge", "wire"]
    assert sorted(hex_at(answer, 4, 20)["obstacles"]) == ["bridge", "exit_marker"]
    # The wire on the bridge still rules the hex: a unit entering must stop and battles out at a die fewer.
    situation = {**answer["situation"], "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 5, "col": 19, "figures": 4}]}
    move = client.post("/api/v1/move", json={**situation, "unit": "A", "to": {"row": 4, "col": 18}}).get_json()
    reach = {(r["row"], r["col"]): r for r in move["reachable"]}
    assert "wire" in {step["rule"] for step in reach[(4, 18)]["why"]}
    assert reach[(4, 18)]["battle_dice_change"] == -1


def test_impassable_forest_from_a_scenario_is_never_entered(client):
    """api.md ``impassable``: the editor's IMPASSABLE behaviours keep the tile's look, and no unit may enter."""
    answer = imported(client, "french_decorative_overlord")
    assert hex_at(answer, 4, 40) == {"row": 4, "col": 40, "terrain": "forest", "impassable": True}
    infantry = unit_at(answer, 5, 41)
    move = client.post("/api/v1/move", json={**answer["situation"], "unit": infantry["id"]}).get_json()
    assert (4, 40) not in {(r["row"], r["col"]) for r in move["reachable"]}
    assert (4, 42) in {(r["row"], r["col"]) for r in move["reachable"]}  # its plain neighbour is open


def test_nation_options_switch_on_notes_not_unknown_names(client):
    answer = imported(client, "winter_pieces_standard")
    assert not [u for u in answer["unknown"] if u["what"] == "option"]
    for option in ("british_commonwealth", "italy_royal_army", "gung_ho"):
        assert any(f"option {option!r}" in note for note in answer["notes"])


def test_insignia_battle_stars_markers_barges_and_carriers_are_listed_as_decorative(client):
    winter = imported(client, "winter_pieces_standard")
    assert pieces(winter, "decorative") >= {(2, 10, "badge", "badge1"), (3, 13, "tag", "tag1"), (3, 13, "tag", "tag4")}
    beach = imported(client, "destroyer_beach_standard")
    assert {(p["what"], p["name"]) for p in beach["decorative"]} == {("rect_terrain", "barge"), ("badge", "badge2")}
    french = imported(client, "french_decorative_overlord")
    assert pieces(french, "decorative") == {
        (7, 9, "badge", "badge3"), (2, 4, "badge", "badge4"), (2, 6, "badge", "badge25"), (6, 20, "badge", "badge38"),
        (3, 13, "tag", "tag3"), (3, 13, "tag", "tag5"), (8, 30, "rect_terrain", "pcarrier"),
        (8, 34, "rect_terrain", "barge"),
    }
    assert french["decorative_total"] == len(french["decorative"])
    assert all(p["reason"] for p in french["decorative"])
    assert "badges" not in unit_at(french, 2, 4)  # an insignia gives the unit no rules


def test_french_tank_with_the_resistance_badge_keeps_its_tank_rules(client):
    """French Resistance: its rules are for infantry; on a French tank2us the badge is only a picture."""
    answer = imported(client, "french_decorative_overlord")
    tank, infantry = unit_at(answer, 7, 9), unit_at(answer, 7, 11)
    assert tank["type"] == "elite_armor" and "badges" not in tank
    assert infantry["badges"] == ["french_resistance_badge"]
    [picture] = [p for p in answer["decorative"] if p["name"] == "badge3"]
    assert "French Resistance" in picture["reason"]
