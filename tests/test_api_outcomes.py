"""``POST /api/v1/retreat`` and ``POST /api/v1/resupply``: rulings as JSON, bad fields as 4xx naming
the field."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

UNITS = [
    {"id": "T", "side": "allies", "type": "infantry", "row": 4, "col": 10, "figures": 3},
    {"id": "E", "side": "axis", "type": "armor", "row": 3, "col": 11, "figures": 3},
]


def post(client: FlaskClient, endpoint: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/{endpoint}", json=body)


def error_field(response: Any) -> str:
    body = response.get_json()
    assert set(body) == {"error"} and {"code", "message", "field"} <= set(body["error"])
    return body["error"]["field"]


def test_retreat_lists_every_path(client: FlaskClient):
    response = post(client, "retreat", {"units": UNITS, "unit": "T", "flags": 2})
    assert response.status_code == 200
    body = response.get_json()
    assert body["flags_ignored"] == 0 and body["moves_required"] == 2
    assert body["min_figures_lost"] == 0 and body["eliminated"] is False
    assert {(o["end"]["row"], o["end"]["col"]) for o in body["options"]} == {(6, 8), (6, 10), (6, 12)}
    assert len(body["options"]) == 4
    assert all(len(o["path"]) == 2 and o["figures_lost"] == 0 for o in body["options"])
    assert body["breakdown"] and all({"rule", "text"} <= set(r) for r in body["breakdown"])


def test_retreat_off_board_counts_losses(client: FlaskClient):
    units = [{**UNITS[0], "row": 8, "col": 10}, UNITS[1]]
    body = post(client, "retreat", {"units": units, "unit": "T", "flags": 2, "hits": 1}).get_json()
    assert body["min_figures_lost"] == 2 and body["eliminated"] is True
    assert body["options"] == [{"path": [], "end": {"row": 8, "col": 10}, "figures_lost": 2, "flags_ignored": 0,
                                "moves": 0, "moves_not_made": 2, "eliminated": True}]


def test_retreat_with_sandbags_and_air_power_card(client: FlaskClient):
    hexes = [{"row": 4, "col": 10, "obstacle": "sandbags"}]
    free = post(client, "retreat", {"units": UNITS, "hexes": hexes, "unit": "T", "flags": 1}).get_json()
    assert free["flags_ignored"] == 1 and free["moves_required"] == 0
    assert {o["flags_ignored"] for o in free["options"]} == {0, 1}
    forced = post(client, "retreat", {"units": UNITS, "hexes": hexes, "unit": "T", "flags": 1,
                                      "card": "Air Power"}).get_json()
    assert forced["flags_ignored"] == 0 and forced["moves_required"] == 1
    assert forced["flag_allowance"]["forbidden_by"] == "air_power"


def test_retreat_with_bitter_resistance(client: FlaskClient):
    body = post(client, "retreat", {"units": UNITS, "unit": "T", "flags": 1,
                                    "combat_card": "bitter_resistance"}).get_json()
    assert body["flags_ignored"] == 1


def test_resupply_lists_targets(client: FlaskClient):
    units = [{"id": "S", "side": "allies", "type": "half_track", "row": 4, "col": 10, "figures": 2},
             {"id": "I", "side": "allies", "type": "infantry", "row": 5, "col": 9, "figures": 1},
             {"id": "E", "side": "axis", "type": "infantry", "row": 3, "col": 9, "figures": 1}]
    body = post(client, "resupply", {"units": units, "supplier": "S", "rules": ["resupply"]}).get_json()
    assert body["legal"] is True and body["why_not"] == []
    assert body["targets"] == [{"unit": "I", "max_figures": 2, "figures": 1, "start_figures": 4}]
    assert body["supplier_figures"] == 2
    assert [i["unit"] for i in body["ineligible"]] == ["E"]
    refused = post(client, "resupply", {"units": units, "supplier": "S"}).get_json()
    assert refused["legal"] is False and refused["why_not"][0]["rule"] == "half_track"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"units": UNITS, "flags": 1}, "unit"),
        ({"units": UNITS, "unit": "nobody", "flags": 1}, "unit"),
        ({"units": UNITS, "unit": 7, "flags": 1}, "unit"),
        ({"units": UNITS, "unit": "T"}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": 13}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": -1}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": "2"}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": True}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": 1.5}, "flags"),
        ({"units": UNITS, "unit": "T", "flags": 1, "hits": -1}, "hits"),
        ({"units": UNITS, "unit": "T", "flags": 1, "hits": "x"}, "hits"),
        ({"units": UNITS, "unit": "T", "flags": 1, "card": "no_such_card"}, "card"),
        ({"units": UNITS, "unit": "T", "flags": 1, "card": "bitter_resistance"}, "card"),
        ({"units": UNITS, "unit": "T", "flags": 1, "card": ["air_power"]}, "card"),
        ({"units": UNITS, "unit": "T", "flags": 1, "combat_card": "air_power"}, "combat_card"),
        ({"units": UNITS, "unit": "T", "flags": 1, "combat_card": "zz"}, "combat_card"),
        ({"unit": "T", "flags": 1}, "units"),
        ({"units": [{**UNITS[0], "row": 4, "col": 11}], "unit": "T", "flags": 1}, "units[0]"),
        ({"units": UNITS, "unit": "T", "flags": 1, "rules": ["no_rule"]}, "rules[0]"),
    ],
)
def test_retreat_bad_fields_are_400_naming_the_field(client: FlaskClient, body: dict, field: str):
    response = post(client, "retreat", body)
    assert response.status_code == 400
    assert error_field(response) == field


def test_a_train_battle_gives_its_flags_but_not_a_guessed_retreat(client: FlaskClient):
    units = [{"id": "A", "side": "allies", "type": "infantry", "row": 4, "col": 10, "figures": 4},
             {"id": "W", "side": "axis", "type": "train", "row": 4, "col": 12, "figures": 4}]
    body = post(client, "battle", {"units": units, "attacker": "A", "target": "W"}).get_json()
    assert body["legal"] is True and body["flags_ignored"] == 1
    assert body["retreat"]["options"] == [] and "rails" in body["retreat"]["problem"]["text"]
    response = post(client, "retreat", {"units": units, "unit": "W", "flags": 1})
    assert response.status_code == 400 and error_field(response) == "unit"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"units": UNITS}, "supplier"),
        ({"units": UNITS, "supplier": "ghost"}, "supplier"),
        ({"units": UNITS, "supplier": ""}, "supplier"),
        ({"units": "none", "supplier": "T"}, "units"),
    ],
)
def test_resupply_bad_fields_are_400_naming_the_field(client: FlaskClient, body: dict, field: str):
    response = post(client, "resupply", body)
    assert response.status_code == 400
    assert error_field(response) == field


@pytest.mark.parametrize("endpoint", ["retreat", "resupply"])
def test_outcome_endpoints_refuse_non_json(client: FlaskClient, endpoint: str):
    form = client.post(f"/api/v1/{endpoint}", data="unit=T")
    assert form.status_code == 415 and error_field(form) == "(body)"
    broken = client.post(f"/api/v1/{endpoint}", data="{", content_type="application/json")
    assert broken.status_code == 400 and error_field(broken) == "(body)"
    listed = client.post(f"/api/v1/{endpoint}", json=[1, 2])
    assert listed.status_code == 400


@pytest.mark.parametrize("endpoint", ["retreat", "resupply"])
def test_outcome_endpoints_are_post_only(client: FlaskClient, endpoint: str):
    response = client.get(f"/api/v1/{endpoint}")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"]
