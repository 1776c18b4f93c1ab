"""Rulings held against other implementations and the disputes players report: how a unit moved
when the situation gives no path, hedgerows, bridges, Half-Track climbs, jungle take ground,
camouflage, Stiff Upper Lip, snipers, Tank Destroyers in a church and units in a boat.

Every test goes through the API and is named after the rule it checks; the numbers it expects
come from the content entries the engine reads."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import Rulebook


def unit(uid: str, kind: str, row: int, col: int, side: str = "allies", **extra: Any) -> dict[str, Any]:
    figures = {"armor": 3, "artillery": 2, "half_track": 2, "supply_truck": 2, "sniper": 1}.get(kind, 4)
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col, "figures": figures, **extra}


def post(client: FlaskClient, endpoint: str, units: list[dict[str, Any]], hexes: list[dict[str, Any]] = (),
         **extra: Any) -> dict[str, Any]:
    response = client.post(f"/api/v1/{endpoint}", json={"units": units, "hexes": list(hexes), **extra})
    assert response.status_code == 200, response.json
    return response.json


def codes(reasons: list[dict[str, Any]]) -> set[str]:
    return {r["code"] for r in reasons}


def hexes_of(answer: dict[str, Any]) -> set[tuple[int, int]]:
    return {(o["row"], o["col"]) for o in answer["reachable"]}


def place(row: int, col: int, **what: str) -> dict[str, Any]:
    return {"row": row, "col": col, **what}


# -- how a unit moved, when the situation gives no path (core movement) -------------------------

def test_climb_onto_steep_hill_counts_when_only_moved_and_moved_from_are_given(
        client: FlaskClient, rulebook: Rulebook) -> None:
    """Infantry that moved 1 hex up onto a steep hill counted 2: it may not battle."""
    climb = rulebook.hex_rules("steep_hill").climb_cost
    assert climb is not None and climb > rulebook.unit("infantry").move_and_battle
    infantry = unit("A", "infantry", 5, 11, moved=1, moved_from={"row": 6, "col": 10})
    answer = post(client, "battle", [infantry, unit("T", "infantry", 4, 12, "axis")],
                  [place(5, 11, terrain="steep_hill")], attacker="A", target="T")
    assert not answer["legal"]
    assert "move.made_only_way" in codes(answer["notes"])
    flat = post(client, "battle", [infantry, unit("T", "infantry", 4, 12, "axis")], attacker="A", target="T")
    assert flat["legal"], flat["why_not"]


def test_climb_up_a_sea_bluff_from_the_beach_counts_without_a_path(client: FlaskClient) -> None:
    infantry = unit("A", "infantry", 5, 11, moved=1, moved_from={"row": 6, "col": 10})
    hexes = [place(6, 10, terrain="beach"), place(5, 11, terrain="sea_bluff")]
    answer = post(client, "battle", [infantry, unit("T", "infantry", 4, 12, "axis")], hexes,
                  attacker="A", target="T")
    assert not answer["legal"]
    too_far = next(r for r in answer["why_not"] if r["code"] == "battle.too_far_to_battle")
    assert too_far["params"]["moved"] == 2  # 1 hex, counted as the climb's 2


def test_winter_weather_armor_three_hexes_by_road_without_a_path(client: FlaskClient) -> None:
    """Armor that moved 3 under Winter Weather may battle when a road way of 3 exists; the ruling
    says which way it assumed."""
    road = [place(6, c, terrain="road") for c in (10, 12, 14, 16)]
    tank = unit("A", "armor", 6, 16, moved=3, moved_from={"row": 6, "col": 10})
    answer = post(client, "battle", [tank, unit("T", "infantry", 5, 17, "axis")], road, attacker="A", target="T",
                  rules=["winter_weather"])
    assert answer["legal"], answer["why_not"]
    assert codes(answer["notes"]) & {"move.made_only_way", "move.made_assumed"}
    bare = post(client, "battle", [tank, unit("T", "infantry", 5, 17, "axis")], attacker="A", target="T",
                rules=["winter_weather"])
    assert not bare["legal"]


def test_most_favourable_way_is_assumed_and_said(client: FlaskClient) -> None:
    """Infantry moved 2 hexes, by one of two ways: the one wholly on road earns the road bonus, so
    it may still battle; the ruling assumes that way and says so. Given the other way, it may not."""
    road = [place(r, c, terrain="road") for r, c in ((6, 10), (6, 12), (5, 13))]
    target = unit("T", "infantry", 4, 14, "axis")
    infantry = unit("A", "infantry", 5, 13, moved=2, moved_from={"row": 6, "col": 10})
    answer = post(client, "battle", [infantry, target], road, attacker="A", target="T")
    assert answer["legal"], answer["why_not"]
    note = next(n for n in answer["notes"] if n["code"] == "move.made_assumed")
    assert note["params"]["ways"] == 2
    assert [(h["row"], h["col"]) for h in note["params"]["path"]] == [(6, 10), (6, 12), (5, 13)]
    other = [{"row": 6, "col": 10}, {"row": 5, "col": 11}, {"row": 5, "col": 13}]
    given = post(client, "battle", [unit("A", "infantry", 5, 13, path=other), target], road, attacker="A",
                 target="T")
    assert not given["legal"]


# -- terrain ----------------------------------------------------------------------------------

def test_hedgerow_a_unit_leaving_it_moves_only_to_an_adjacent_hex(client: FlaskClient, rulebook: Rulebook) -> None:
    assert "infantry" in rulebook.hex_rules("hedgerow").must_stop_leaving
    answer = post(client, "move", [unit("A", "infantry", 6, 10)], [place(6, 10, terrain="hedgerow")], unit="A")
    assert answer["reachable"] and all(o["hexes_moved"] <= 1 for o in answer["reachable"])
    assert "hedgerow" in {r["rule"] for o in answer["unreachable"] for r in o["why"]}


def test_bridge_over_a_fordable_stream_does_not_stop_the_unit(client: FlaskClient) -> None:
    stream = place(6, 12, terrain="fordable_stream")
    wading = post(client, "move", [unit("A", "infantry", 6, 10)], [stream], unit="A")
    assert (6, 14) not in hexes_of(wading)
    bridged = post(client, "move", [unit("A", "infantry", 6, 10)], [{**stream, "obstacle": "bridge"}], unit="A")
    assert (6, 14) in hexes_of(bridged)


def test_bridge_over_a_frozen_river_carries_the_unit_over_the_ice(client: FlaskClient) -> None:
    ice = place(6, 12, terrain="frozen_river")

    def hazards(hexes: list[dict[str, Any]]) -> set[str]:
        answer = post(client, "move", [unit("A", "infantry", 6, 10)], hexes, unit="A")
        return {h["rule"] for o in answer["reachable"] if (o["row"], o["col"]) == (6, 12) for h in o["hazards"]}

    assert hazards([ice]) == {"frozen_river"}
    assert hazards([{**ice, "obstacle": "bridge"}]) == set()


def test_supply_truck_may_not_remove_wire_though_armor_does(client: FlaskClient, rulebook: Rulebook) -> None:
    assert "wire" in rulebook.unit("supply_truck").cannot_clear
    wire = [place(6, 12, obstacle="wire")]

    def why(kind: str) -> set[str]:
        answer = post(client, "move", [unit("A", kind, 6, 10)], wire, unit="A")
        return codes(next(o["why"] for o in answer["reachable"] if (o["row"], o["col"]) == (6, 12)))

    assert "move.cannot_clear" in why("supply_truck") and "move.cleared_and_battle" not in why("supply_truck")
    assert "move.cleared_and_battle" in why("armor")


@pytest.mark.parametrize("low", ["ocean", "shoreline", "beach"])
@pytest.mark.parametrize("high", ["cliff", "sea_bluff"])
def test_half_track_may_not_climb_a_cliff_or_sea_bluff_from_ocean_shoreline_or_beach(
        client: FlaskClient, low: str, high: str) -> None:
    hexes = [place(6, 10, terrain=low), place(5, 11, terrain=high)]
    path = [{"row": 6, "col": 10}, {"row": 5, "col": 11}]
    target = unit("T", "infantry", 4, 12, "axis")
    response = client.post("/api/v1/battle", json={"units": [unit("A", "half_track", 5, 11, path=path), target],
                                                    "hexes": hexes, "attacker": "A", "target": "T"})
    assert response.status_code == 400 and response.json["error"]["field"] == "units[0].path"
    answer = post(client, "move", [unit("A", "half_track", 6, 10)], hexes, unit="A")
    climb = next((o for o in answer["reachable"] if (o["row"], o["col"]) == (5, 11)), None)
    assert climb is None or climb["path"][1] != {"row": 5, "col": 11}  # only by way of another hex
    if low != "beach":  # armor may climb from the ocean or a shoreline: the limit is the Half-Track's own
        armor = post(client, "battle", [unit("A", "armor", 5, 11, path=path), target], hexes, attacker="A",
                     target="T")
        assert armor["legal"], armor["why_not"]


def test_jungle_armor_takes_ground_when_it_started_its_move_next_to_the_jungle(client: FlaskClient) -> None:
    """Armor moved along the jungle's edge: it started next to the jungle hex, so it may take ground."""
    jungle = [place(4, 12, terrain="jungle")]
    target = unit("T", "infantry", 4, 12, "axis", figures=1)
    near = unit("A", "armor", 5, 13, moved=1, moved_from={"row": 5, "col": 11})
    answer = post(client, "battle", [near, target], jungle, attacker="A", target="T")
    assert answer["take_ground"], answer["take_ground_reasons"]
    assert "entry.started_next_to" in codes(answer["take_ground_reasons"])
    far = unit("A", "armor", 5, 13, moved=1, moved_from={"row": 6, "col": 14})
    answer = post(client, "battle", [far, target], jungle, attacker="A", target="T")
    assert not answer["take_ground"]
    assert "entry.take_ground_started_away" in codes(answer["take_ground_reasons"])


# -- battles and cards ------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["barrage", "air_power", "barrage_breakthrough", "air_power_breakthrough"])
def test_camouflaged_unit_may_not_be_attacked_by_a_card(client: FlaskClient, card: str) -> None:
    hidden = unit("T", "infantry", 4, 10, "axis", badges=["camouflage"])
    answer = post(client, "battle", [hidden], card=card, attacker=None, target="T")
    assert not answer["legal"]
    assert "card_attack.close_assault_only" in codes(answer["why_not"])
    seen = post(client, "battle", [unit("T", "infantry", 4, 10, "axis")], card=card, attacker=None, target="T")
    assert seen["legal"], seen["why_not"]


def _british(row: int, kind: str = "infantry", **extra: Any) -> list[dict[str, Any]]:
    """A British unit of 2 figures close-assaulted by German infantry from its top side."""
    return [unit("B", kind, row, 10, nation="british", figures=2, **extra),
            unit("G", "infantry", row - 1, 9, "axis")]


def _battle_back(answer: dict[str, Any]) -> dict[str, Any] | None:
    return next((f for f in answer["follow_ups"] if f["kind"] == "battle_back"), None)


def test_stiff_upper_lip_chance_counts_the_figure_lost_to_a_blocked_retreat(client: FlaskClient) -> None:
    """On its baseline the unit cannot retreat: a flag costs a figure and it stays, so 0 hits and 1
    flag leave it on 1 figure and open the battle back, as 1 hit and no flag does."""
    free = _battle_back(post(client, "battle", _british(4), attacker="G", target="B"))
    pinned = _battle_back(post(client, "battle", _british(8), attacker="G", target="B"))
    assert free is not None and pinned is not None
    assert free["chance_exact"] == "1/6"  # 3 dice: exactly 1 hit (1/2), no flag (no 1/6), the rest neither
    assert pinned["chance_exact"] == "2/9"  # ... plus no hit and exactly 1 flag


def test_resolve_says_whether_the_battle_back_is_open(client: FlaskClient) -> None:
    flag = {"flag": 1, "star": 2}
    pinned = post(client, "resolve", _british(8), attacker="G", target="B", rolled=flag)
    assert pinned["figures_left"] == 1 and pinned["battle_back"]["open"] is True
    assert pinned["battle_back"]["code"] == "resolve.battle_back_open"
    assert "resolve.battle_back_open" in codes(pinned["steps"])
    free = post(client, "resolve", _british(4), attacker="G", target="B", rolled=flag)
    assert free["battle_back"]["open"] is False and free["battle_back"]["code"] == "resolve.battle_back_retreats"
    hit = post(client, "resolve", _british(4), attacker="G", target="B", rolled={"infantry": 1, "star": 2})
    assert hit["battle_back"]["open"] is True
    german = post(client, "resolve", [unit("B", "infantry", 4, 10, figures=2), unit("G", "infantry", 3, 9, "axis")],
                  attacker="G", target="B", rolled={"infantry": 1, "star": 2})
    assert german["battle_back"] is None


def test_british_sniper_does_not_battle_back(client: FlaskClient, rulebook: Rulebook) -> None:
    assert "sniper" in rulebook.nation("british_commonwealth").not_for_units
    sniper = [unit("B", "sniper", 8, 10, nation="british"), unit("G", "infantry", 7, 9, "axis")]
    answer = post(client, "battle", sniper, attacker="G", target="B")
    assert answer["legal"] and _battle_back(answer) is None
    assert _battle_back(post(client, "battle", _british(8), attacker="G", target="B")) is not None


def test_japanese_sniper_gets_no_japanese_flag_rule(client: FlaskClient) -> None:
    japanese = post(client, "retreat", [unit("S", "infantry", 4, 10, nation="japanese")], unit="S", flags=1)
    sniper = post(client, "retreat", [unit("S", "sniper", 4, 10, nation="japanese")], unit="S", flags=1)
    assert japanese["flags_ignored_min"] == 1
    assert sniper["flags_ignored"] == 0 and sniper["moves_required"] >= 1


def test_sniper_may_not_fire_at_a_destroyer(client: FlaskClient) -> None:
    ship = unit("T", "destroyer", 2, 10, "axis", figures=1)
    answer = post(client, "battle", [unit("A", "sniper", 4, 10), ship], [place(2, 10, terrain="ocean")],
                  attacker="A", target="T")
    assert not answer["legal"] and "battle.cannot_target_unit" in codes(answer["why_not"])


@pytest.mark.parametrize("terrain", ["church", "winter_church", "town"])
def test_tank_destroyer_unmoved_in_a_church_ignores_the_battle_out_penalty_as_in_a_town(
        client: FlaskClient, terrain: str) -> None:
    td = unit("A", "armor", 6, 10, badges=["tank_destroyer"])
    answer = post(client, "battle", [td, unit("T", "infantry", 4, 10, "axis")], [place(6, 10, terrain=terrain)],
                  attacker="A", target="T")
    plain = post(client, "battle", [td, unit("T", "infantry", 4, 10, "axis")], attacker="A", target="T")
    assert answer["legal"] and answer["dice"] == plain["dice"] > 0


def test_boat_pages_agree_that_every_flag_costs_a_figure(client: FlaskClient, rulebook: Rulebook) -> None:
    assert rulebook.badge("unit_in_boat").forbids_flag_ignoring
    for path in ("/rules/marker/unit_in_boat", "/rules/action/collapsible_rafts"):
        page = client.get(path).get_data(as_text=True)
        assert "none may be ignored" in page or "each flag</strong> rolled" in page, path


def test_unit_in_a_boat_ignores_no_flag(client: FlaskClient) -> None:
    """Japanese infantry must ignore one flag, but in a boat every flag costs a figure."""
    boat = unit("S", "infantry", 4, 10, nation="japanese", badges=["unit_in_boat"])
    answer = post(client, "retreat", [boat], [place(4, 10, terrain="river")], unit="S", flags=1)
    assert answer["flags_ignored"] == 0 and answer["min_figures_lost"] == 1
    assert answer["flag_allowance"]["may_ignore"] == 0
