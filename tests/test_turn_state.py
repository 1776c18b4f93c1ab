"""The card played and the turn state drive ``/move``, ``/battle``, ``/resolve`` and ``/fire-map``
(core ``ordering``: only ordered units move or battle; core ``battle``: once a turn; each card's
order fields), through the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.test_orders import unit

TARGET = unit("Z", "axis", 4, 12)


def post(client: FlaskClient, name: str, units: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    response = client.post(f"/api/v1/{name}", json={"units": units, **fields})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def codes(reasons: list[dict[str, Any]]) -> list[str]:
    return [r.get("code", "") for r in reasons]


# -- ordered / battled --------------------------------------------------------------------------

def test_a_unit_not_ordered_may_neither_move_nor_battle(client):
    units = [unit("A", "allies", 5, 11, ordered=False), TARGET]
    move = post(client, "move", units, unit="A")
    assert move["reachable"] == [] and move["why_not"][0]["rule"] == "ordering"
    battle = post(client, "battle", units, attacker="A", target="Z")
    assert battle["legal"] is False and "turn.not_ordered" in codes(battle["why_not"])
    ordered = [unit("A", "allies", 5, 11, ordered=True), TARGET]
    assert post(client, "battle", ordered, attacker="A", target="Z")["legal"] is True


def test_a_unit_battles_once_a_turn(client):
    units = [unit("A", "allies", 5, 11, "armor", battled=True), TARGET]
    battle = post(client, "battle", units, attacker="A", target="Z")
    assert battle["legal"] is False
    reason = next(r for r in battle["why_not"] if r["code"] == "turn.battled")
    assert reason["rule"] == "battle" and "Allied Armor at" in reason["text"]
    resolved = post(client, "resolve", units, attacker="A", target="Z", rolled={"grenade": 3})
    assert resolved["legal"] is False and resolved["figures_lost"] == 0


def test_the_armor_overrun_is_the_second_battle_the_rules_give(client):
    units = [unit("A", "allies", 5, 11, "armor", battled=True), TARGET]
    assert post(client, "battle", units, attacker="A", target="Z", overrun_battle=True)["legal"] is True


def test_artillery_bombard_gives_a_second_battle(client):
    units = [unit("G", "allies", 7, 11, "artillery", battled=True), TARGET]
    battle = post(client, "battle", units, attacker="G", target="Z", card="artillery_bombard")
    assert battle["legal"] is True and "turn.battles_again" in codes(battle["notes"])
    first = post(client, "battle", [unit("G", "allies", 7, 11, "artillery"), TARGET], attacker="G", target="Z",
                 card="artillery_bombard")
    assert [f["kind"] for f in first["follow_ups"]] == ["second_battle"]
    assert post(client, "battle", units, attacker="G", target="Z", card="probe")["legal"] is False


def test_artillery_bombard_lets_artillery_move_three_hexes(client):
    units = [unit("G", "allies", 8, 12, "artillery"), unit("Z", "axis", 0, 12)]
    assert post(client, "move", units, unit="G", card="artillery_bombard")["allowance"] == 3
    assert post(client, "move", units, unit="G")["allowance"] == 1


def test_an_ambushing_unit_battles_though_it_was_not_ordered(client):
    units = [unit("A", "allies", 5, 11, ordered=False), TARGET]
    assert post(client, "battle", units, attacker="A", target="Z", card="ambush")["legal"] is True


@pytest.mark.parametrize(("field", "value"), [("ordered", "yes"), ("battled", 1)])
def test_turn_state_must_be_true_or_false(client, field, value):
    response = client.post("/api/v1/move", json={"units": [unit("A", "allies", 5, 11, **{field: value})],
                                                 "unit": "A"})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == f"units[0].{field}"


def test_a_saved_situation_keeps_the_turn_state(client):
    doc = {"units": [unit("A", "allies", 5, 11, ordered=True, battled=True), TARGET]}
    saved = client.post("/api/v1/situations", json=doc).get_json()
    kept = client.get(f"/api/v1/situations/{saved['id']}").get_json()["situation"]["units"][0]
    assert kept["ordered"] is True and kept["battled"] is True


# -- the card's class --------------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "wrong", "right"), [
    ("armor_assault", "infantry", "armor"), ("move_out", "armor", "infantry"), ("dig_in", "armor", "infantry"),
])
def test_a_class_card_refuses_a_unit_of_another_class_when_the_side_has_that_class(client, card, wrong, right):
    units = [unit("W", "allies", 5, 11, wrong), unit("R", "allies", 8, 20, right), TARGET]
    move = post(client, "move", units, unit="W", card=card)
    assert move["reachable"] == [] and move["why_not"][0]["code"] == "order.wrong_class"
    assert move["why_not"][0]["rule"] == card
    battle = post(client, "battle", units, attacker="W", target="Z", card=card)
    assert battle["legal"] is False and "order.wrong_class" in codes(battle["why_not"])
    fire = post(client, "fire-map", units, unit="W", card=card)
    assert all(not b["legal"] for b in fire["battles"] if b["attacker"] == "W")
    alone = [unit("W", "allies", 5, 11, wrong), TARGET]  # no unit of the card's class: 1 unit of your choice
    if card != "dig_in":
        assert post(client, "battle", alone, attacker="W", target="Z", card=card)["legal"] is True


def test_the_unit_of_your_choice_gets_none_of_the_cards_numbers(client):
    """Move Out with no infantry orders the tank as a tank; Infantry Assault's 3-hex move is for infantry."""
    units = [unit("T", "allies", 8, 10, "armor"), unit("Z", "axis", 0, 10)]
    assert post(client, "move", units, unit="T", card="move_out")["allowance"] == 3
    tank = post(client, "move", units, unit="T", card="infantry_assault", section="center")
    assert tank["allowance"] == 3 and tank["allowance_rule"] == "armor"
    assert any(n["code"] == "order.of_your_choice" for n in tank["notes"])


def test_dig_in_units_neither_move_nor_battle(client):
    units = [unit("A", "allies", 5, 11), TARGET]
    move = post(client, "move", units, unit="A", card="dig_in")
    assert move["reachable"] == [] and move["why_not"][0]["fact"] == "ordered_units_move"
    assert post(client, "battle", units, attacker="A", target="Z", card="dig_in")["legal"] is False


def test_a_unit_leaving_sandbags_removes_them(client):
    units = [unit("A", "allies", 6, 10), unit("Z", "axis", 1, 11)]
    move = post(client, "move", units, unit="A", hexes=[{"row": 6, "col": 10, "obstacle": "sandbags"}])
    note = next(n for n in move["notes"] if n["code"] == "move.removes_obstacle")
    assert note["rule"] == "sandbags" and note["fact"] == "removed_when_occupant_leaves"
    assert move["removed_on_leaving"] == [{"row": 6, "col": 10, "hex": "F3", "obstacle": "sandbags"}]
    assert post(client, "move", units, unit="A")["removed_on_leaving"] == []


# -- sections ------------------------------------------------------------------------------------------

def test_a_section_card_refuses_a_unit_outside_its_section(client):
    units = [unit("R", "allies", 5, 21), unit("Z", "axis", 4, 22)]
    battle = post(client, "battle", units, attacker="R", target="Z", card="probe", section="center")
    assert battle["legal"] is False and "order.wrong_section" in codes(battle["why_not"])
    assert post(client, "battle", units, attacker="R", target="Z", card="probe")["legal"] is True  # any section
    assert post(client, "battle", units, attacker="R", target="Z", card="probe", section="right")["legal"] is True


def test_a_unit_is_checked_in_the_section_it_was_ordered_in(client):
    moved = unit("R", "allies", 5, 17, path=[{"row": 6, "col": 16}, {"row": 5, "col": 17}])
    units = [moved, unit("Z", "axis", 4, 18)]
    assert post(client, "battle", units, attacker="R", target="Z", card="recon", section="center")["legal"] is True
    wandered = unit("R", "allies", 5, 19, path=[{"row": 6, "col": 18}, {"row": 5, "col": 19}])
    assert post(client, "battle", [wandered, unit("Z", "axis", 4, 20)], attacker="R", target="Z", card="recon",
                section="center")["legal"] is False


def test_a_unit_on_the_move_moves_but_may_not_battle(client):
    units = [unit("R", "allies", 5, 21), unit("Z", "axis", 4, 22)]
    fields = {"card": "probe_on_the_move", "section": "center"}
    move = post(client, "move", units, unit="R", **fields)
    assert move["reachable"] and "order.only_on_the_move" in codes(move["notes"])
    battle = post(client, "battle", units, attacker="R", target="Z", **fields)
    assert battle["legal"] is False and "turn.on_the_move" in codes(battle["why_not"])


def test_marines_extra_unit_may_act_outside_the_cards_section(client):
    units = [unit("R", "allies", 5, 21), unit("Z", "axis", 4, 22)]
    fields = {"card": "probe", "section": "center"}
    assert post(client, "battle", units, attacker="R", target="Z", **fields)["legal"] is False
    marines = post(client, "battle", units, attacker="R", target="Z", scenario={"options": ["us_marine_corps"]},
                   **fields)
    assert marines["legal"] is True and "order.extra_unit" in codes(marines["notes"])


def test_counter_attack_refuses_a_unit_outside_the_mirrored_section(client):
    units = [unit("R", "allies", 5, 21), unit("Z", "axis", 4, 22)]
    fields = {"card": "counter_attack"}
    mirrored = post(client, "battle", units, attacker="R", target="Z", copied_card={"card": "recon", "section": "left"},
                    **fields)
    assert mirrored["legal"] is True
    unmirrored = post(client, "battle", units, attacker="R", target="Z",
                      copied_card={"card": "recon", "section": "right"}, **fields)
    assert unmirrored["legal"] is False


def test_the_fire_map_shows_which_units_the_card_lets_battle(client):
    units = [unit("A", "allies", 5, 11, "armor"), unit("I", "allies", 5, 13), TARGET]
    fire = post(client, "fire-map", units, card="armor_assault")
    legal = {b["attacker"]: b["legal"] for b in fire["battles"] if b["target"] == "Z"}
    assert legal == {"A": True, "I": False}


# -- Air Power's group, rolled unit by unit ---------------------------------------------------------------

GROUP = [unit("A", "allies", 8, 10), unit("X", "axis", 3, 11), unit("Y", "axis", 2, 10)]


def test_air_power_rolls_its_group_unit_by_unit_applying_each_retreat_first(client):
    alone = post(client, "retreat", GROUP, unit="Y", flags=1)
    assert {(o["end"]["row"], o["end"]["col"]) for o in alone["options"]} == {(1, 9), (1, 11)}
    body = {"card": "air_power", "target": "X", "targets": ["Y"], "retreat_to": [{"row": 1, "col": 11}],
            "rolled": [{"flag": 2}, {"flag": 1, "grenade": 1}]}
    answer = post(client, "resolve", GROUP, hexes=[{"row": 3, "col": 11, "obstacle": "sandbags"}], **body)
    first, second = answer["sequence"]
    assert first["moved_to"] == {"row": 1, "col": 11, "hex": "f8"}
    assert first["applied"][0]["code"] == "group.retreat_applied" and first["applied"][0]["rule"] == "air_power"
    # X now stands on f8, so Y's only way back is e8
    assert [(o["end"]["row"], o["end"]["col"]) for o in second["retreat"]["options"]] == [(1, 9)]
    assert second["figures_lost"] == 1 and answer["target"]["id"] == "X"


def test_air_power_group_rolls_must_match_the_group(client):
    body = {"units": GROUP, "card": "air_power", "target": "X", "targets": ["Y"]}
    wrong_count = client.post("/api/v1/resolve", json={**body, "rolled": [{"flag": 2}]})
    assert wrong_count.status_code == 400 and wrong_count.get_json()["error"]["field"] == "rolled"
    wrong_dice = client.post("/api/v1/resolve", json={**body, "rolled": [{"flag": 2}, {"flag": 3}]})
    assert wrong_dice.status_code == 400 and wrong_dice.get_json()["error"]["field"] == "rolled[1]"
    nowhere = client.post("/api/v1/resolve", json={**body, "rolled": [{"flag": 2}, {"flag": 2}],
                                                   "retreat_to": [{"row": 8, "col": 0}]})
    assert nowhere.status_code == 400 and nowhere.get_json()["error"]["field"] == "retreat_to[0]"


# -- "Play a card" in saves and the gallery ----------------------------------------------------------------

def test_a_saved_situation_keeps_how_the_card_was_played(client):
    doc = {"units": [unit("A", "allies", 5, 11, ordered=True), TARGET], "card": "counter_attack",
           "play": {"side": "allies", "copied_card": {"card": "attack", "section": "left"}}}
    saved = client.post("/api/v1/situations", json=doc)
    assert saved.status_code == 201, saved.get_json()
    kept = client.get(f"/api/v1/situations/{saved.get_json()['id']}").get_json()["situation"]
    assert kept["play"] == {"side": "allies", "copied_card": {"card": "attack", "section": "left"}}
    assert kept["card"] == "counter_attack" and kept["units"][0]["ordered"] is True


@pytest.mark.parametrize(("play", "field"), [
    ({"side": "nobody"}, "play.side"), ({"section": "middle"}, "play.section"),
    ({"copied_card": {"card": "no_such_card"}}, "play.copied_card.card"), ({"rolled": {"skull": 1}}, "play.rolled"),
    ({"hand": 5}, "play"),
])
def test_a_bad_play_is_refused_naming_the_field(client, play, field):
    response = client.post("/api/v1/situations", json={"units": [TARGET], "play": play})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == field


def test_an_order_example_opens_with_its_card_played(client):
    data = client.get(re.search(r'href="(/builder/data\.json\?v=\w+)"', client.get("/builder").get_data(
        as_text=True)).group(1)).get_json()
    example = next(e for e in data["examples"] if e["file"] == "order_probe_straddling_unit")
    state = example["state"]
    assert state["card"] == "probe" and state["play"] == {"side": "allies", "section": "center"}
    assert [u["id"] for u in state["units"] if u.get("ordered")] == ["A", "B", "C"]
    probe = next(c for c in data["palette"]["command_cards"] if c["id"] == "probe")
    assert probe["section"] is True and probe["orders"] == "2 units in the card's section"


def test_the_fire_map_rules_the_other_sides_battles_without_the_card(client):
    units = [unit("A", "allies", 5, 11, "armor"), unit("I", "allies", 5, 13), unit("Z", "axis", 4, 12),
             unit("K", "axis", 0, 2, "armor")]
    both = post(client, "fire-map", units, card="armor_assault")
    # without the side, the card binds every attacker: the Axis have armor, so their infantry may not battle
    assert {b["target"]: b["legal"] for b in both["battles"] if b["attacker"] == "Z"} == {"A": False, "I": False}
    played = post(client, "fire-map", units, card="armor_assault", side="allies")
    legal = {(b["attacker"], b["target"]): b["legal"] for b in played["battles"]}
    assert legal[("A", "Z")] is True and legal[("I", "Z")] is False  # the card binds the side playing it
    assert legal[("Z", "A")] is True  # the Axis infantry's battle is its own turn's, without Armor Assault
    bad = client.post("/api/v1/fire-map", json={"units": units, "card": "probe", "side": "nobody"})
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "side"
