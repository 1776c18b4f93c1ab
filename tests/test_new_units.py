"""Units that real scenarios use and the catalogue lacked: Ski Troops, Flame Thrower
tanks and the Destroyer, ruled through the battle API from their content numbers."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def battle(client: FlaskClient, attacker: dict[str, Any], target: dict[str, Any],
           hexes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = {"hexes": hexes or [], "units": [{"id": "A", "side": "allies", **attacker},
                                            {"id": "B", "side": "axis", **target}],
            "attacker": "A", "target": "B"}
    response = client.post("/api/v1/battle", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_flame_thrower_tank_loses_at_most_one_die_to_a_town_in_close_assault(client, rulebook):
    town = [{"row": 4, "col": 12, "terrain": "town"}]
    target = {"type": "infantry", "row": 4, "col": 12, "figures": 4}
    tank = {"type": "armor", "row": 5, "col": 11, "figures": 3}
    flame = battle(client, {**tank, "badges": ["flame_thrower_badge"]}, target, town)
    plain = battle(client, tank, target, town)
    cap = rulebook.unit("flame_thrower_tank").close_assault_max_target_reduction
    assert plain["dice"] == 3 - 2
    assert flame["dice"] == 3 - cap
    assert "flame_thrower_tank" in {step["rule"] for step in flame["breakdown"]}


def test_flame_thrower_tank_at_range_two_takes_the_full_town_reduction(client):
    town = [{"row": 4, "col": 12, "terrain": "town"}]
    flame = battle(client, {"type": "armor", "row": 6, "col": 12, "figures": 3, "badges": ["flame_thrower_badge"]},
                   {"type": "infantry", "row": 4, "col": 12, "figures": 4}, town)
    assert flame["dice"] == 3 - 2


def test_destroyer_at_sea_battles_eight_hexes_inland_ignoring_terrain(client, rulebook):
    hexes = [{"row": 8, "col": 6, "terrain": "ocean"}, {"row": 0, "col": 6, "terrain": "forest"}]
    answer = battle(client, {"type": "destroyer", "row": 8, "col": 6, "figures": 3},
                    {"type": "infantry", "row": 0, "col": 6, "figures": 4}, hexes)
    assert answer["legal"] is True, answer["why_not"]
    assert answer["dice"] == rulebook.unit("destroyer").dice[7]


def test_infantry_in_the_ocean_still_cannot_battle(client):
    answer = battle(client, {"type": "infantry", "row": 7, "col": 7, "figures": 4},
                    {"type": "infantry", "row": 6, "col": 8, "figures": 4}, [{"row": 7, "col": 7, "terrain": "ocean"}])
    assert answer["legal"] is False


def test_ski_troops_battle_after_moving_three_into_a_forest(client, rulebook):
    ski = rulebook.unit("ski_troops")
    answer = battle(client, {"type": "infantry", "badges": ["ski_troops_badge"], "row": 5, "col": 11,
                             "figures": ski.figures, "moved": 3},
                    {"type": "infantry", "row": 4, "col": 12, "figures": 4},
                    [{"row": 5, "col": 11, "terrain": "forest"}])
    assert answer["legal"] is True, answer["why_not"]
    assert answer["dice"] == ski.dice[0]


def test_ski_troops_have_no_range_three(client):
    answer = battle(client, {"type": "ski_troops", "row": 6, "col": 10, "figures": 3},
                    {"type": "infantry", "row": 3, "col": 11, "figures": 4})
    assert answer["legal"] is False
