"""Names a user would send: obstacles given as terrain, several obstacles on one hex,
nation, badge, rule and terrain aliases, and the per-scenario figure count of supply vehicles.
Checked through the API, and through the parser where the answer does not show the name."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine import IllegalSituation, parse_situation


def infantry(uid: str, side: str, row: int, col: int, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": "infantry", "row": row, "col": col, "figures": 4, **extra}


def battle(client: FlaskClient, target_hex: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {"hexes": [{"row": 4, "col": 12, **target_hex}],
            "units": [infantry("A", "allies", 5, 11), infantry("B", "axis", 4, 12, **extra)],
            "attacker": "A", "target": "B"}
    response = client.post("/api/v1/battle", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_bunker_given_as_terrain_protects_like_the_bunker_obstacle(client):
    as_terrain = battle(client, {"terrain": "bunker"})
    as_obstacle = battle(client, {"obstacle": "bunker"})
    assert as_terrain["dice"] == as_obstacle["dice"] == 2
    assert "bunker" in {step["rule"] for step in as_terrain["breakdown"]}


def test_an_unknown_terrain_is_still_refused_naming_the_field(client):
    body = {"hexes": [{"row": 4, "col": 12, "terrain": "lava"}], "units": [], "from": {"row": 4, "col": 12},
            "to": {"row": 4, "col": 14}}
    response = client.post("/api/v1/line-of-sight", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == "hexes[0].terrain"


def test_sandbags_stacked_with_wire_still_protect_the_target(client):
    """Every obstacle of a hex counts (api.md ``obstacles``): sandbags under wire still cut dice."""
    stacked = battle(client, {"obstacles": ["wire", "sandbags"]})
    alone = battle(client, {"obstacle": "sandbags"})
    assert stacked["dice"] == alone["dice"] == 2
    assert "sandbags" in {step["rule"] for step in stacked["breakdown"]}


def test_every_obstacle_of_a_hex_blocks_line_of_sight(client):
    body = {"hexes": [{"row": 4, "col": 12, "obstacles": ["wire", "bunker"]}], "units": [],
            "from": {"row": 4, "col": 10}, "to": {"row": 4, "col": 14}}
    answer = client.post("/api/v1/line-of-sight", json=body).get_json()
    assert answer["clear"] is False


@pytest.mark.parametrize("obstacles", [["wire", "wire"], ["forest"], "wire", ["wire"] * 5])
def test_bad_obstacles_name_the_field(client, obstacles):
    body = {"hexes": [{"row": 4, "col": 12, "obstacles": obstacles}], "units": [],
            "from": {"row": 4, "col": 10}, "to": {"row": 4, "col": 14}}
    response = client.post("/api/v1/line-of-sight", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"].startswith("hexes[0].obstacles")


@pytest.mark.parametrize(("name", "code"), [
    ("russian", "soviet"), ("usa", "us"), ("uk", "british"), ("germany", "german"), ("japan", "japanese"),
    ("us_marine_corps", "us"), ("Italy", "italian"), ("soviet", "soviet"),
])
def test_nation_aliases_resolve_to_nation_codes(rulebook, name, code):
    situation = parse_situation({"units": [infantry("A", "allies", 6, 10, nation=name)]}, rulebook)
    assert situation.units[0].nation == code


def test_japan_named_by_country_gets_the_japanese_flag_rule(client):
    by_country = battle(client, {}, nation="japan")
    by_code = battle(client, {}, nation="japanese")
    plain = battle(client, {})
    assert by_country["flags_ignored"] == by_code["flags_ignored"] != plain["flags_ignored"]


def test_unknown_nation_is_still_refused(rulebook):
    with pytest.raises(IllegalSituation) as info:
        parse_situation({"units": [infantry("A", "allies", 6, 10, nation="atlantis")]}, rulebook)
    assert info.value.field == "units[0].nation"


def test_504th_pir_badge_makes_special_forces(rulebook):
    situation = parse_situation({"units": [infantry("A", "allies", 6, 10, badges=["504th_pir"])]}, rulebook)
    assert situation.units[0].profile == "special_forces"
    assert rulebook.unit("pir_504th").move_and_battle == rulebook.unit("special_forces").move_and_battle


@pytest.mark.parametrize(("name", "entry"), [
    ("town_and_village", "town"), ("cave", "cave_on_hill"), ("rail_track", "railroad_track"),
    ("hedge_hog", "hedgehog"), ("smokescreen", "smoke_screen"),
])
def test_terrain_names_players_use_resolve(rulebook, name, entry):
    situation = parse_situation({"units": [], "hexes": [{"row": 4, "col": 12, "terrain": name}]}, rulebook)
    assert entry in situation.hexes[next(iter(situation.hexes))].features()


def half_track_beside_weakened_infantry(rules: list[str]) -> dict[str, Any]:
    return {"rules": rules, "supplier": "H",
            "units": [{"id": "H", "side": "allies", "type": "half_track", "row": 6, "col": 10, "figures": 3},
                      infantry("I", "allies", 6, 12, figures=2)]}


def test_re_supply_rule_named_with_a_hyphen_lets_a_half_track_re_supply(client):
    """Half-tracks re-supply only when the Re-Supply rules are in effect (rule ``resupply``)."""
    with_rule = client.post("/api/v1/resupply", json=half_track_beside_weakened_infantry(["re-supply"]))
    assert with_rule.status_code == 200, with_rule.get_json()
    without = client.post("/api/v1/resupply", json=half_track_beside_weakened_infantry([])).get_json()
    assert (with_rule.get_json()["legal"], without["legal"]) == (True, False)


@pytest.mark.parametrize("unit_type", ["supply_truck", "half_track"])
def test_supply_vehicle_given_three_figures_starts_with_three(client, rulebook, unit_type):
    """1-3 figures per scenario (Supply Trucks rules; Half-Tracks rules): the figures given are the start."""
    unit = {"id": "T", "side": "allies", "type": unit_type, "row": 6, "col": 10, "figures": 3}
    situation = parse_situation({"units": [unit]}, rulebook)
    assert situation.units[0].start_figures == 3
    response = client.post("/api/v1/resupply", json={"units": [unit], "supplier": "T", "rules": ["resupply"]})
    assert response.status_code == 200
    assert rulebook.unit(unit_type).figures_range == (1, 3)


def rules_named(answer: dict[str, Any], key: str, row: int = 4, col: int = 12) -> set[str]:
    """The rule ids an answer cites for hex (row, col) under ``key`` (``blocked_by``, ``reachable``...)."""
    items = answer[key]
    if key == "blocked_by":
        return {item["rule"] for item in items}
    return {why["rule"] for item in items if (item["row"], item["col"]) == (row, col) for why in item["why"]}


@pytest.mark.parametrize(("name", "entry", "endpoint", "key"), [
    ("town_and_village", "town", "line-of-sight", "blocked_by"),
    ("cave", "cave_on_hill", "line-of-sight", "blocked_by"),
    ("smokescreen", "smoke_screen", "line-of-sight", "blocked_by"),
    ("hedge_hog", "hedgehog", "move", "unreachable"),
    ("rail_track", "railroad_track", "move", "reachable"),
])
def test_terrain_names_players_use_are_ruled_as_their_entry_through_the_api(client, name, entry, endpoint, key):
    """Each name is accepted, and the answer cites the entry it stands for."""
    body = {"hexes": [{"row": 4, "col": 12, "terrain": name}],
            "from": {"row": 4, "col": 10}, "to": {"row": 4, "col": 14},
            "units": [{"id": "A", "side": "allies", "type": "armor", "row": 5, "col": 11, "figures": 3}], "unit": "A"}
    response = client.post(f"/api/v1/{endpoint}", json=body)
    assert response.status_code == 200, response.get_json()
    assert entry in rules_named(response.get_json(), key)


@pytest.mark.parametrize("name", ["uk", "british_commonwealth", "bcf"])
def test_british_named_by_country_gets_the_stiff_upper_lip_battle_back(client, name):
    answer = battle(client, {}, nation=name)
    assert [f["rule"] for f in answer["follow_ups"] if f["kind"] == "battle_back"] == ["british_commonwealth"]
    assert [f for f in battle(client, {}, nation="usa")["follow_ups"] if f["kind"] == "battle_back"] == []


@pytest.mark.parametrize("badge", ["504th_pir", "504th PIR"])
def test_504th_pir_badge_moves_two_and_battles_through_the_api(client, badge):
    """The 504th PIR fight as special forces: infantry that moved 2 may still battle."""
    body = {"units": [infantry("A", "allies", 6, 10, badges=[badge], moved=2), infantry("B", "axis", 4, 10)],
            "attacker": "A", "target": "B"}
    plain = {"units": [infantry("A", "allies", 6, 10, moved=2), infantry("B", "axis", 4, 10)],
             "attacker": "A", "target": "B"}
    assert client.post("/api/v1/battle", json=body).get_json()["legal"] is True
    assert client.post("/api/v1/battle", json=plain).get_json()["legal"] is False


@pytest.mark.parametrize(("hexagon", "field"), [
    ({"obstacle": "ford"}, "hexes[0].obstacle"), ({"terrain": "river", "obstacles": ["bridge", "woods"]},
                                                  "hexes[0].obstacles[1]"),
])
def test_a_terrain_given_as_an_obstacle_is_refused_saying_where_it_goes(client, hexagon, field):
    body = {"hexes": [{"row": 4, "col": 12, **hexagon}], "units": [], "from": {"row": 4, "col": 10},
            "to": {"row": 4, "col": 14}}
    response = client.post("/api/v1/line-of-sight", json=body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["field"] == field and "is a terrain" in error["message"] and "hexes[0].terrain" in error["message"]
