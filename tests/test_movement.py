"""Movement (engine/movement.py, ``POST /api/v1/move``) and the unit ``path`` in ``/battle``.

Each test is named after the rule it checks; the numbers come from the content entries, so a
test fails when the engine stops reading them."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.budget import WorkBudgetExceeded, work_budget
from adjudicator.engine.movement import legal_moves
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import parse_situation

A = {"row": 6, "col": 10}  # the mover's hex in most tests


def unit(uid: str = "A", kind: str = "infantry", row: int = 6, col: int = 10, side: str = "allies",
         **extra: Any) -> dict[str, Any]:
    figures = {"armor": 3, "artillery": 2, "supply_truck": 2, "half_track": 2}.get(kind, 4)
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col, "figures": figures, **extra}


def move(client: FlaskClient, units: list[dict[str, Any]], hexes: list[dict[str, Any]] = (), *,
         who: str = "A", status: int = 200, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/move", json={"units": units, "hexes": list(hexes), "unit": who, **extra})
    assert response.status_code == status, response.json
    return response.json


def battle(client: FlaskClient, units: list[dict[str, Any]], hexes: list[dict[str, Any]] = (), *,
           status: int = 200, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/battle", json={"units": units, "hexes": list(hexes), "attacker": "A",
                                                    "target": "T", **extra})
    assert response.status_code == status, response.json
    return response.json


def at(answer: dict[str, Any], row: int, col: int) -> dict[str, Any] | None:
    return next((o for o in answer["reachable"] if (o["row"], o["col"]) == (row, col)), None)


def blocked(answer: dict[str, Any], row: int, col: int) -> dict[str, Any] | None:
    return next((o for o in answer["unreachable"] if (o["row"], o["col"]) == (row, col)), None)


def rules_of(reasons: list[dict[str, Any]]) -> set[str]:
    return {r["rule"] for r in reasons}


def farthest(answer: dict[str, Any]) -> int:
    return max(o["hexes_moved"] for o in answer["reachable"])


def line(row: int, cols: range, terrain: str) -> list[dict[str, Any]]:
    return [{"row": row, "col": c, "terrain": terrain} for c in cols]


# -- units -------------------------------------------------------------------------------------

def test_infantry_moves_one_and_battles_or_two_without_battling(client: FlaskClient) -> None:
    answer = move(client, [unit()])
    assert answer["allowance"] == 2
    assert farthest(answer) == 2
    one, two = at(answer, 5, 11), at(answer, 4, 10)
    assert one["may_battle"] and one["hexes_moved"] == 1
    assert not two["may_battle"] and two["hexes_moved"] == 2 and "infantry" in rules_of(two["why"])
    assert one["path"] == [A, {"row": 5, "col": 11}]


@pytest.mark.parametrize(("kind", "badges", "allowance", "battle_after"), [
    ("armor", [], 3, 3),
    ("artillery", [], 1, None),
    ("infantry", ["special_forces"], 2, 2),
    ("half_track", [], 2, 2),
    ("supply_truck", [], 2, None),
    ("armor", ["tank_destroyer"], 2, 2),
    ("artillery", ["mobile_artillery"], 2, 1),
    ("infantry", ["sniper"], 2, 2),
    ("infantry", ["cavalry"], 3, 3),
    ("armor", ["elite_armor"], 3, 3),
    ("artillery", ["big_gun"], 1, None),
    ("artillery", ["heavy_anti_tank_gun"], 1, None),
    ("infantry", ["anti_tank_gun"], 2, 1),
    ("infantry", ["mortar"], 2, 1),
    ("infantry", ["machine_gun"], 2, 1),
    ("infantry", ["combat_engineer"], 2, 1),
    ("pir_504th", [], 2, 2),
], ids=["armor", "artillery", "special_forces", "half_track", "supply_truck", "tank_destroyer",
        "mobile_artillery", "sniper", "cavalry", "elite_armor", "big_gun", "heavy_anti_tank_gun",
        "anti_tank_gun", "mortar", "machine_gun", "combat_engineer", "pir_504th"])
def test_each_unit_moves_its_allowance_and_battles_within_its_limit(
        client: FlaskClient, rulebook: Rulebook, kind: str, badges: list[str], allowance: int,
        battle_after: int | None) -> None:
    answer = move(client, [unit(kind=kind, badges=badges, figures=1)])
    assert answer["allowance"] == allowance == farthest(answer)
    battling = [o["hexes_moved"] for o in answer["reachable"] if o["may_battle"]]
    assert (max(battling) if battling else None) == battle_after


def test_french_resistance_moves_one_and_battles_after_entering_any_terrain(client: FlaskClient) -> None:
    answer = move(client, [unit(nation="french_resistance", figures=3)], [{"row": 5, "col": 11, "terrain": "forest"}])
    assert answer["allowance"] == 2 and answer["move_and_battle"] == 1
    assert at(answer, 5, 11)["may_battle"] and "french_resistance" in rules_of(at(answer, 5, 11)["why"])


def test_every_documented_unit_moves_as_its_entry_says(client: FlaskClient, rulebook: Rulebook) -> None:
    """The engine reads each unit entry's ``max_move`` and ``move_and_battle`` (no typed-twice numbers)."""
    for profile in rulebook.ids_of_kind("unit"):
        rules = rulebook.unit(profile)
        if not rules.rules_documented or rulebook.bases.get(profile) not in (None, "infantry", "armor", "artillery"):
            continue
        answer = move(client, [unit(kind=profile, figures=1)])
        if rules.moves_only_on:  # trains: no rails here, no move
            assert answer["reachable"] == []
            continue
        assert answer["allowance"] == rules.max_move == farthest(answer), profile
        battling = [o["hexes_moved"] for o in answer["reachable"] if o["may_battle"]]
        assert max(battling, default=0) == (min(rules.move_and_battle, rules.max_move) if rules.battles else 0), profile


def test_artillery_moves_one_or_battles(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="artillery")])
    assert all(not o["may_battle"] for o in answer["reachable"])
    assert "artillery" in rules_of(answer["reachable"][0]["why"])


def test_other_units_block_the_way(client: FlaskClient) -> None:
    """Core movement: never onto or through a hex holding another unit, friend or foe."""
    wall = [unit(f"W{c}", row=5, col=c) for c in (9, 11)] + [unit(f"X{c}", row=6, col=c) for c in (8, 12)]
    answer = move(client, [unit(), *wall])
    assert at(answer, 5, 11) is None and at(answer, 4, 10) is None
    assert "movement" in rules_of(blocked(answer, 5, 11)["why"])
    assert all(o["row"] >= 6 for o in answer["reachable"])


def test_unit_that_never_moves_answers_why_not(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="airplane", figures=1)])
    assert answer["reachable"] == [] and answer["why_not"]


# -- terrain -----------------------------------------------------------------------------------

def test_forest_entering_stops_and_forbids_battle(client: FlaskClient) -> None:
    answer = move(client, [unit()], [{"row": 5, "col": 11, "terrain": "forest"}])
    forest = at(answer, 5, 11)
    assert not forest["may_battle"] and "forest" in rules_of(forest["why"])
    assert "forest" in rules_of(blocked(answer, 4, 12)["why"])  # beyond the forest only through it


def test_no_battle_after_entering_a_forest_is_the_reason_it_may_not_battle(client: FlaskClient,
                                                                             rulebook: Rulebook) -> None:
    """Forest ``no_battle_after_entering``, not its ``must_stop``, is why a unit that entered it may
    not battle: that reason comes first (the one a one-line summary quotes) and cites that fact."""
    assert "infantry" in rulebook.hex_rules("forest").no_battle_after_entering
    answer = move(client, [unit()], [{"row": 5, "col": 11, "terrain": "forest"}], to={"row": 5, "col": 11})
    forest = answer["to"]
    assert forest["reachable"] and not forest["may_battle"]
    first = forest["why"][0]
    assert (first["code"], first["rule"], first["fact"]) == ("move.no_battle_after_entering", "forest",
                                                             "no_battle_after_entering")
    assert "may not battle" in first["text"] and "Forest" in first["text"]
    stop = next(r for r in forest["why"] if r["code"] == "move.must_stop")
    assert stop["fact"] == "must_stop" and "must stop" in stop["text"]


@pytest.mark.parametrize("terrain", ["forest", "hedgerow", "town"])
def test_hex_beyond_a_must_stop_terrain_is_refused_naming_it(client: FlaskClient, terrain: str) -> None:
    """Armor ringed by a forest (or hedgerows, towns) cannot reach a hex beyond it: the refusal
    names the terrain and its hex, and says a unit entering it must stop there."""
    ring = [{"row": r, "col": c, "terrain": terrain} for r, c in ((5, 7), (5, 9), (5, 11), (5, 13), (6, 8), (6, 12),
                                                                  (7, 7), (7, 9), (7, 11), (7, 13))]
    answer = move(client, [unit(kind="armor")], ring, to={"row": 3, "col": 11})
    beyond = answer["to"]
    assert not beyond["reachable"]
    why = beyond["why"][0]
    assert (why["code"], why["rule"], why["fact"]) == ("move.beyond_must_stop", terrain, "must_stop")
    named = why["params"]["terrain"]
    assert named["entry"] == terrain and (named["row"], named["col"]) in {(5, 9), (5, 11), (5, 13)}
    assert why["text"].startswith(f"The way to {why['params']['hex']['hex']} goes through {named['name']} at "
                                  f"{named['hex']}") and "must stop" in why["text"]


def test_steep_hill_climb_counts_two_hexes(client: FlaskClient) -> None:
    answer = move(client, [unit()], [{"row": 5, "col": 11, "terrain": "steep_hill"}])
    hill = at(answer, 5, 11)
    assert hill["hexes_moved"] == 2 and not hill["may_battle"] and "steep_hill" in rules_of(hill["why"])
    down = move(client, [unit(row=5, col=11)], [{"row": 5, "col": 11, "terrain": "steep_hill"}])
    assert at(down, 6, 10)["hexes_moved"] == 1 and at(down, 6, 10)["may_battle"]


def test_steep_hill_climb_in_the_path_forbids_infantry_battle(client: FlaskClient) -> None:
    """Defect 1: infantry that moved 1 hex up a steep hill spent 2 hexes and may not battle."""
    climbed = unit(row=5, col=11, path=[A, {"row": 5, "col": 11}])
    answer = battle(client, [climbed, unit("T", row=4, col=12, side="axis")],
                    [{"row": 5, "col": 11, "terrain": "steep_hill"}])
    assert not answer["legal"]
    assert "steep_hill" in rules_of(answer["breakdown"])
    flat = battle(client, [climbed, unit("T", row=4, col=12, side="axis")])
    assert flat["legal"]


def test_sea_bluff_beach_climb_counts_two_for_infantry(client: FlaskClient) -> None:
    hexes = [{"row": 6, "col": 10, "terrain": "beach"}, {"row": 5, "col": 11, "terrain": "sea_bluff"}]
    answer = move(client, [unit()], hexes)
    assert at(answer, 5, 11)["hexes_moved"] == 2 and not at(answer, 5, 11)["may_battle"]
    climbed = unit(row=5, col=11, path=[A, {"row": 5, "col": 11}])
    assert not battle(client, [climbed, unit("T", row=4, col=12, side="axis")], hexes)["legal"]


@pytest.mark.parametrize("kind", ["armor", "half_track", "artillery", "supply_truck"])
def test_sea_bluff_forbids_vehicles_and_guns_from_the_beach(client: FlaskClient, kind: str) -> None:
    hexes = [*line(6, range(0, 26, 2), "beach"), *line(5, range(1, 25, 2), "sea_bluff")]
    answer = move(client, [unit(kind=kind)], hexes)
    assert answer["reachable"] and all(o["row"] >= 6 for o in answer["reachable"])
    assert "sea_bluff" in rules_of(blocked(answer, 5, 11)["why"])
    infantry = move(client, [unit()], hexes)
    assert at(infantry, 5, 11)["hexes_moved"] == 2


@pytest.mark.parametrize("kind", ["armor", "half_track"])
def test_cliff_and_sea_bluff_forbid_take_ground_from_the_beach(client: FlaskClient, kind: str) -> None:
    """Defect 2: armor and half-tracks may not take ground up a bluff from the beach."""
    for bluff in ("sea_bluff", "cliff"):
        hexes = [{"row": 6, "col": 10, "terrain": "beach"}, {"row": 5, "col": 11, "terrain": bluff}]
        answer = battle(client, [unit(kind=kind), unit("T", row=5, col=11, side="axis")], hexes)
        assert answer["take_ground"] is False
        assert bluff in {r["rule"] for r in answer["take_ground_reasons"]}


def test_road_bonus_one_extra_hex(client: FlaskClient) -> None:
    road = line(6, range(4, 18, 2), "road")
    answer = move(client, [unit()], road)
    assert at(answer, 6, 16)["hexes_moved"] == 3 and "road" in rules_of(at(answer, 6, 16)["why"])
    assert at(answer, 6, 14)["may_battle"]  # the bonus hex is on the unit's own terms (road page)
    assert not at(answer, 6, 16)["may_battle"]
    off_road = move(client, [unit()], road[:3] + road[4:])  # the move does not start on road: no bonus
    assert off_road["road_allowance"] == 2 and farthest(off_road) == 2
    leaves = move(client, [unit()], line(6, range(10, 14, 2), "road"))  # the road ends after 1 hex
    assert leaves["road_allowance"] == 3 and farthest(leaves) == 2


def test_supply_truck_road_bonus_is_two(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="supply_truck")], line(6, range(0, 26, 2), "road"))
    assert answer["road_allowance"] == 4 and at(answer, 6, 18)["hexes_moved"] == 4
    assert "supply_truck" in rules_of(at(answer, 6, 18)["why"])
    assert at(answer, 6, 20) is None


def test_winter_weather_limits_armor_to_two_or_three_on_road(client: FlaskClient) -> None:
    plain = move(client, [unit(kind="armor")], rules=["winter_weather"])
    assert plain["allowance"] == 2 and farthest(plain) == 2
    road = move(client, [unit(kind="armor")], line(6, range(0, 26, 2), "road"), rules=["winter_weather"])
    assert farthest(road) == 3 and at(road, 6, 16)["may_battle"]
    assert "winter_weather" in rules_of(at(road, 6, 16)["why"])


def test_winter_weather_road_move_of_three_may_battle(client: FlaskClient) -> None:
    """Defect 3: armor that moved 3 hexes wholly on a road under Winter Weather may battle."""
    path = [{"row": 6, "col": c} for c in (10, 12, 14, 16)]
    hexes = line(6, range(10, 18, 2), "road")
    tank = unit(kind="armor", col=16, path=path)
    answer = battle(client, [tank, unit("T", row=5, col=17, side="axis")], hexes, rules=["winter_weather"])
    assert answer["legal"], answer["why_not"]
    off = battle(client, [tank, unit("T", row=5, col=17, side="axis")], hexes[:3], rules=["winter_weather"],
                 status=400)
    assert off["error"]["field"] == "units[0].path"


def test_combat_engineer_must_clear_a_minefield_instead_of_battling(client: FlaskClient) -> None:
    """Defect 4: an engineer that moved onto a minefield clears it instead of battling."""
    hexes = [{"row": 5, "col": 11, "obstacle": "minefield"}]
    engineer = unit(row=5, col=11, badges=["combat_engineer"], path=[A, {"row": 5, "col": 11}])
    answer = battle(client, [engineer, unit("T", row=4, col=12, side="axis")], hexes)
    assert not answer["legal"] and "combat_engineer" in rules_of(answer["why_not"])
    moves = move(client, [unit(badges=["combat_engineer"])], hexes)
    mine = at(moves, 5, 11)
    assert not mine["may_battle"] and "combat_engineer" in rules_of(mine["instead"])
    assert "minefield" in rules_of(mine["hazards"])
    plain = move(client, [unit()], hexes)
    assert at(plain, 5, 11)["may_battle"] and not at(plain, 5, 11)["instead"]


def test_infantry_assault_moves_two_and_battles(client: FlaskClient) -> None:
    """Defect 5: Infantry Assault lets infantry move 2 and still battle, or 3 without."""
    answer = move(client, [unit()], card="infantry_assault")
    assert answer["allowance"] == 3 and answer["move_and_battle"] == 2
    assert at(answer, 4, 10)["may_battle"] and "infantry_assault" in rules_of(at(answer, 4, 10)["why"])
    assert not at(answer, 3, 11)["may_battle"]
    walked = unit(row=4, col=10, path=[A, {"row": 5, "col": 11}, {"row": 4, "col": 10}])
    target = unit("T", row=3, col=11, side="axis")
    assert battle(client, [walked, target], card="infantry_assault")["legal"]
    assert not battle(client, [walked, target])["legal"]


def test_infantry_assault_moves_supply_trucks_three_without_battle(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="supply_truck")], card="infantry_assault")
    assert farthest(answer) == 3 and not any(o["may_battle"] for o in answer["reachable"])


def test_behind_enemy_lines_ignores_terrain_movement_but_not_battle_restrictions(client: FlaskClient) -> None:
    hexes = [{"row": 5, "col": 11, "terrain": "forest"}, {"row": 4, "col": 12, "terrain": "forest"},
             {"row": 3, "col": 13, "terrain": "river"}]
    answer = move(client, [unit()], hexes, card="behind_enemy_lines")
    assert answer["allowance"] == 3
    through = at(answer, 4, 12)
    assert through["hexes_moved"] == 2 and not through["may_battle"]  # entering a forest: no battle
    assert at(answer, 3, 11)["may_battle"]
    assert at(answer, 3, 13) is None  # impassable stays impassable
    again = move(client, [unit()], card="behind_enemy_lines", after_battle=True)
    assert farthest(again) == 3 and not any(o["may_battle"] for o in again["reachable"])
    refused = move(client, [unit()], after_battle=True)
    assert refused["reachable"] == [] and refused["why_not"]
    not_ordered = move(client, [unit(kind="armor")], card="behind_enemy_lines", after_battle=True)
    assert not_ordered["reachable"] == [] and "behind_enemy_lines" in rules_of(not_ordered["why_not"])


def test_close_assault_card_orders_units_that_may_not_move(client: FlaskClient) -> None:
    answer = move(client, [unit(), unit("T", row=5, col=11, side="axis")], card="close_assault")
    assert answer["reachable"] == [] and "close_assault" in rules_of(answer["why_not"])


def test_move_out_never_orders_half_tracks(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="half_track")], card="move_out")
    assert answer["reachable"] == [] and "move_out" in rules_of(answer["why_not"])


def test_their_finest_hour_keeps_the_units_own_movement(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="armor")], card="their_finest_hour")
    assert answer["allowance"] == 3 and answer["move_and_battle"] == 3


def test_armor_assault_keeps_armor_movement(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="armor")], card="armor_assault")
    assert farthest(answer) == 3 and all(o["may_battle"] for o in answer["reachable"])


def test_blitz_limits_allied_armor_to_two(client: FlaskClient) -> None:
    assert move(client, [unit(kind="armor")], rules=["blitz"])["allowance"] == 2
    assert move(client, [unit(kind="armor", side="axis")], rules=["blitz"])["allowance"] == 3


def test_beach_caps_a_move_onto_it_at_two_hexes(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="armor")], [{"row": 4, "col": 10, "terrain": "beach"},
                                                 {"row": 3, "col": 9, "terrain": "beach"}])
    assert at(answer, 4, 10)["hexes_moved"] == 2
    assert at(answer, 3, 9) is None and "beach" in rules_of(blocked(answer, 3, 9)["why"])


def test_hedgerow_may_be_entered_only_from_an_adjacent_start(client: FlaskClient) -> None:
    hexes = [{"row": 5, "col": 11, "terrain": "hedgerow"}, {"row": 4, "col": 12, "terrain": "hedgerow"}]
    answer = move(client, [unit()], hexes)
    assert at(answer, 5, 11) is not None
    assert at(answer, 4, 12) is None and "hedgerow" in rules_of(blocked(answer, 4, 12)["why"])


def test_marsh_leaving_moves_only_one_hex(client: FlaskClient) -> None:
    answer = move(client, [unit(kind="armor")], [{"row": 6, "col": 10, "terrain": "marsh"}])
    assert farthest(answer) == 1
    assert not any(o["may_battle"] for o in answer["reachable"])  # armor leaving a marsh


def test_mountain_is_entered_only_from_a_hill(client: FlaskClient) -> None:
    mountain = [{"row": 5, "col": 11, "terrain": "mountain"}]
    answer = move(client, [unit()], mountain)
    assert at(answer, 5, 11) is None and "mountain" in rules_of(blocked(answer, 5, 11)["why"])
    via_hill = move(client, [unit()], [*mountain, {"row": 6, "col": 12, "terrain": "hill"}])
    assert at(via_hill, 5, 11)["path"][1] == {"row": 6, "col": 12}


def test_river_is_impassable_unless_bridged(client: FlaskClient) -> None:
    river = [{"row": 5, "col": 11, "terrain": "river"}]
    assert at(move(client, [unit()], river), 5, 11) is None
    bridged = [{"row": 5, "col": 11, "terrain": "river", "obstacle": "bridge"}]
    assert at(move(client, [unit()], bridged), 5, 11) is not None


def test_ford_stops_and_battles_out_at_one_die_fewer(client: FlaskClient) -> None:
    answer = move(client, [unit()], [{"row": 5, "col": 11, "terrain": "ford"}])
    ford = at(answer, 5, 11)
    assert ford["battle_dice_change"] == -1 and ford["may_battle"] and "ford" in rules_of(ford["why"])
    assert blocked(answer, 4, 12) is not None


@pytest.mark.parametrize("frozen", [(5, 11), (5, 9)])
def test_frozen_river_entry_is_a_hazard(client: FlaskClient, frozen: tuple[int, int]) -> None:
    answer = move(client, [unit()], [{"row": frozen[0], "col": frozen[1], "terrain": "frozen_river"}])
    assert "frozen_river" in rules_of(at(answer, *frozen)["hazards"])
    assert at(answer, 4, 10)["hazards"] == []  # of two equal paths the one reported avoids the ice


def test_wire_infantry_may_remove_it_instead_of_battling(client: FlaskClient) -> None:
    wire = [{"row": 5, "col": 11, "obstacle": "wire"}]
    infantry = at(move(client, [unit()], wire), 5, 11)
    assert "wire" in rules_of(infantry["instead"]) and infantry["battle_dice_change"] == -1
    armor = at(move(client, [unit(kind="armor")], wire), 5, 11)
    assert armor["may_battle"] and not armor["instead"] and "wire" in rules_of(armor["why"])


def test_train_moves_only_on_rails_and_runs_through_stations(client: FlaskClient) -> None:
    rails = [*line(6, range(10, 16, 2), "railroad_track"), {"row": 6, "col": 16, "terrain": "railroad_station"},
             {"row": 6, "col": 18, "terrain": "railroad_track"}]
    answer = move(client, [unit(kind="train", figures=4)], rails)
    assert {(o["row"], o["col"]) for o in answer["reachable"]} == {(6, 12), (6, 14), (6, 16)}
    assert "train" in rules_of(blocked(answer, 5, 11)["why"])


def test_japanese_banzai_moves_two_into_close_assault(client: FlaskClient) -> None:
    japanese = unit(nation="japanese")
    enemy = unit("T", row=3, col=11, side="axis")
    answer = move(client, [japanese, enemy])
    assert at(answer, 4, 10)["may_battle"] and "imperial_japanese_army" in rules_of(at(answer, 4, 10)["why"])
    assert not at(answer, 4, 8)["may_battle"]  # two hexes but no adjacent enemy


# -- the scenario's impassable hexes -----------------------------------------------------------

def test_impassable_hex_is_never_entered_retreated_onto_or_taken(client: FlaskClient) -> None:
    hexes = [{"row": 5, "col": 11, "impassable": True}]
    assert at(move(client, [unit()], hexes), 5, 11) is None
    retreat = client.post("/api/v1/retreat", json={
        "units": [unit(row=4, col=10)], "hexes": [{"row": 5, "col": 11, "impassable": True},
                                                  {"row": 5, "col": 9, "impassable": True}],
        "unit": "A", "flags": 1}).json
    assert retreat["min_figures_lost"] == 1
    taken = battle(client, [unit(kind="armor"), unit("T", row=5, col=11, side="axis")], hexes)
    assert taken["take_ground"] is False and "movement" in {r["rule"] for r in taken["take_ground_reasons"]}


def test_impassable_must_be_true_or_false(client: FlaskClient) -> None:
    error = move(client, [unit()], [{"row": 5, "col": 11, "impassable": "yes"}], status=400)
    assert error["error"]["field"] == "hexes[0].impassable"


# -- the unit's path ---------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "field"), [
    ([{"row": 8, "col": 10}, {"row": 5, "col": 11}], "units[0].path"),  # not adjacent
    ([A, {"row": 5, "col": 9}], "units[0].path"),  # does not end on the unit
    ([A, {"row": 5, "col": 11}, A, {"row": 5, "col": 11}], "units[0].path"),  # repeats a hex
    ([A, {"row": 5, "col": 12}], "units[0].path[1]"),  # off the board's grid
    ("north", "units[0].path"),
])
def test_path_must_be_an_adjacent_chain_ending_on_the_unit(client: FlaskClient, path: Any, field: str) -> None:
    error = battle(client, [unit(row=5, col=11, path=path), unit("T", row=4, col=12, side="axis")], status=400)
    assert error["error"]["field"] == field


def test_path_the_unit_could_not_move_is_refused(client: FlaskClient) -> None:
    far = [A, {"row": 5, "col": 11}, {"row": 4, "col": 12}, {"row": 3, "col": 13}]
    error = battle(client, [unit(row=3, col=13, path=far), unit("T", row=2, col=14, side="axis")], status=400)
    assert error["error"]["field"] == "units[0].path"
    through_forest = battle(client, [unit(row=4, col=12, path=far[:3]), unit("T", row=3, col=13, side="axis")],
                            [{"row": 5, "col": 11, "terrain": "forest"}], status=400)
    assert "Forest" in through_forest["error"]["message"]


def test_path_sets_moved_and_the_terrain_left(client: FlaskClient) -> None:
    """Armor leaving a marsh may not battle: the path says where it started."""
    answer = battle(client, [unit(kind="armor", row=5, col=11, path=[A, {"row": 5, "col": 11}]),
                             unit("T", row=4, col=12, side="axis")], [{"row": 6, "col": 10, "terrain": "marsh"}])
    assert answer["attacker"]["moved"] == 1 and "marsh" in rules_of(answer["why_not"])


# -- the answer --------------------------------------------------------------------------------

def test_best_path_keeps_the_battle(client: FlaskClient) -> None:
    """Where two equal paths lead to a hex, the reported one avoids a must-stop hex on the way."""
    answer = move(client, [unit(kind="armor")], [{"row": 5, "col": 11, "terrain": "ford"}])
    assert {"row": 5, "col": 11} not in at(answer, 4, 12)["path"]
    assert at(answer, 4, 12)["may_battle"]


def test_every_reason_cites_an_existing_rule_page(client: FlaskClient, rulebook: Rulebook) -> None:
    hexes = [{"row": 5, "col": 11, "terrain": "forest"}, {"row": 5, "col": 9, "terrain": "steep_hill"},
             {"row": 6, "col": 12, "obstacle": "wire"}, {"row": 7, "col": 9, "terrain": "river"},
             {"row": 7, "col": 11, "impassable": True}, *line(6, range(0, 8, 2), "road")]
    for kind in ("infantry", "armor", "artillery", "supply_truck"):
        answer = move(client, [unit(kind=kind), unit("B", row=4, col=10, side="axis")], hexes)
        reasons = [r for o in answer["reachable"] for key in ("why", "instead", "hazards") for r in o[key]]
        reasons += [r for o in answer["unreachable"] for r in o["why"]]
        assert reasons
        for rule in rules_of(reasons):
            kind_of = rulebook.kinds[rule]
            assert client.get(f"/rules/{kind_of}/{rule}").status_code == 200


def test_move_needs_a_known_unit_and_card(client: FlaskClient) -> None:
    assert move(client, [unit()], who="Z", status=400)["error"]["field"] == "unit"
    assert move(client, [unit()], card="no_such_card", status=400)["error"]["field"] == "card"
    assert move(client, [unit()], after_battle="yes", status=400)["error"]["field"] == "after_battle"


def test_move_to_one_destination_says_whether_and_why(client: FlaskClient) -> None:
    hexes = [{"row": 5, "col": 11, "terrain": "forest"}]
    there = move(client, [unit()], hexes, to={"row": 5, "col": 11})["to"]
    assert there["reachable"] and there["hexes_moved"] == 1 and not there["may_battle"]
    far = move(client, [unit()], hexes, to={"row": 0, "col": 10})["to"]
    assert not far["reachable"] and "infantry" in rules_of(far["why"])
    assert move(client, [unit()], to={"row": 0, "col": 11}, status=400)["error"]["field"] == "to"


def test_unit_in_a_boat_moves_onto_a_river_and_must_stop(client: FlaskClient) -> None:
    river = line(5, range(1, 25, 2), "river")
    boat = move(client, [unit(badges=["unit_in_boat"])], river)
    assert at(boat, 5, 11) is not None and "unit_in_boat" in rules_of(at(boat, 5, 11)["why"])
    assert all(o["row"] >= 5 for o in boat["reachable"])  # it stops on the river
    assert all(o["row"] >= 6 for o in move(client, [unit()], river)["reachable"])


def test_path_replaces_moved_and_moved_from(client: FlaskClient) -> None:
    """``moved`` is derived from the path (adjudicator/API.md): stale ``moved``/``moved_from`` do not count."""
    stale = unit(row=5, col=11, moved=0, moved_from={"row": 7, "col": 11}, path=[A, {"row": 5, "col": 11}])
    answer = battle(client, [stale, unit("T", row=4, col=12, side="axis")])
    assert answer["legal"] and answer["attacker"]["moved"] == 1


def test_a_malformed_moved_from_is_refused_even_with_a_path(client: FlaskClient) -> None:
    bad = unit(row=5, col=11, moved_from={}, path=[A, {"row": 5, "col": 11}])
    assert move(client, [bad], status=400)["error"]["field"].startswith("units[0].moved_from")


def test_the_move_search_is_charged_to_the_work_budget(rulebook: Rulebook) -> None:
    """Bounded work per request: the search charges the open budget, and a tiny budget stops it."""
    situation = parse_situation({"units": [unit(kind="armor")]}, rulebook)
    with work_budget(10_000) as spent:
        legal_moves(situation, rulebook, "A")
    assert spent.units > 0
    with pytest.raises(WorkBudgetExceeded), work_budget(5):
        legal_moves(situation, rulebook, "A")
