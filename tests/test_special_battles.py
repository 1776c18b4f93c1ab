"""Special battles the engine rules, through ``/api/v1/battle``: the British Stiff Upper
Lip battle back and the French Furia Francese second close assault offered as follow-ups, Artillery
Bombard's second battle, Air Power and Barrage attacks by the card itself (dice by side, Winter
Weather, the Breakthrough versions, flags that may not be ignored), Ambush (no take ground, no
overrun) and Firefight (no unit next to an enemy, no unit that moved). Every expected number is
read from the content entry that states it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import Rulebook


def unit(uid: str, side: str, row: int, col: int, type_: str = "infantry", **extra: Any) -> dict[str, Any]:
    figures = {"infantry": 4, "armor": 3, "artillery": 2}.get(type_, 4)
    return {"id": uid, "side": side, "type": type_, "row": row, "col": col, "figures": figures, **extra}


def battle(client: FlaskClient, units: list[dict[str, Any]], hexes: list[dict[str, Any]] | None = None,
           **fields: Any) -> dict[str, Any]:
    response = client.post("/api/v1/battle", json={"units": units, "hexes": hexes or [], **fields})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def follow_ups(answer: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in answer["follow_ups"] if f["kind"] == kind]


# -- Stiff Upper Lip ----------------------------------------------------------------------------

def test_british_unit_close_assaulted_is_offered_a_one_die_battle_back(client, rulebook: Rulebook):
    bcf = rulebook.rules["british_commonwealth"]
    answer = battle(client, [unit("A", "axis", 5, 11), unit("B", "allies", 4, 12, nation="british")],
                    attacker="A", target="B")
    [back] = follow_ups(answer, "battle_back")
    assert (back["unit"], back["targets"], back["dice"]) == ("B", ["A"], bcf.battle_back_dice)
    assert back["ignores_terrain"] is bcf.battle_back_ignores_terrain is True
    assert back["rule"] == "british_commonwealth"
    # 3 dice must score exactly the 3 hits that leave 1 of 4 figures, and roll no flag: (1/2)^3
    assert back["chance_exact"] == "1/8"
    assert back["probabilities"][0]["dice"] == bcf.battle_back_dice


@pytest.mark.parametrize(("attacker_row", "attacker_col", "card", "nation"), [
    (5, 11, "ambush", "british"),  # not against an Ambush
    (6, 12, None, "british"),  # not after fire at range 2
    (5, 11, None, "us"),  # not for other nations
])
def test_no_battle_back_outside_its_conditions(client, attacker_row, attacker_col, card, nation):
    answer = battle(client, [unit("A", "axis", attacker_row, attacker_col), unit("B", "allies", 4, 12, nation=nation)],
                    attacker="A", target="B", card=card)
    assert follow_ups(answer, "battle_back") == []


def test_british_unit_already_at_one_figure_may_battle_back_if_untouched(client):
    """Game help summary: the unit is "down to a single figure" - it need not lose one in this assault."""
    answer = battle(client, [unit("A", "axis", 5, 11), unit("B", "allies", 4, 12, nation="british", figures=1)],
                    attacker="A", target="B")
    [back] = follow_ups(answer, "battle_back")
    # 3 dice, none hitting (1/2 each) and none a flag (1/6 of all faces): (2/6)^3 = 1/27
    assert back["chance_exact"] == "1/27"


# -- Furia Francese -----------------------------------------------------------------------------

def test_french_infantry_is_offered_a_second_close_assault_on_another_adjacent_enemy(client, rulebook):
    french = rulebook.rules["french_army"]
    answer = battle(client, [unit("A", "allies", 5, 11, nation="french"), unit("B", "axis", 4, 12),
                             unit("C", "axis", 4, 10), unit("D", "axis", 2, 10)], attacker="A", target="B")
    [second] = follow_ups(answer, "second_close_assault")
    assert (second["unit"], second["targets"], second["dice"]) == ("A", ["C"], french.second_close_assault_dice)
    assert second["ignores_terrain"] is True and second["rule"] == "french_army"


@pytest.mark.parametrize("units", [
    [unit("A", "allies", 5, 11, nation="french"), unit("B", "axis", 4, 12)],  # nobody else adjacent
    [unit("A", "allies", 5, 11, "armor", nation="french"), unit("B", "axis", 4, 12), unit("C", "axis", 4, 10)],
    [unit("A", "allies", 5, 11), unit("B", "axis", 4, 12), unit("C", "axis", 4, 10)],  # not French
])
def test_no_second_close_assault_outside_its_conditions(client, units):
    assert follow_ups(battle(client, units, attacker="A", target="B"), "second_close_assault") == []


# -- Artillery Bombard --------------------------------------------------------------------------

def test_artillery_bombard_offers_a_second_battle(client, rulebook):
    units = [unit("A", "allies", 6, 10, "artillery"), unit("B", "axis", 3, 11)]
    with_card = battle(client, units, attacker="A", target="B", card="artillery_bombard")
    assert with_card["legal"] is True
    [second] = follow_ups(with_card, "second_battle")
    assert second["unit"] == "A" and second["rule"] == "artillery_bombard"
    assert str(rulebook.rules["artillery_bombard"].battles_per_unit) in second["text"]
    assert follow_ups(battle(client, units, attacker="A", target="B"), "second_battle") == []


# -- Air Power and Barrage ----------------------------------------------------------------------

AXIS_GROUP = [unit("B", "axis", 4, 12), unit("C", "axis", 4, 14), unit("D", "axis", 3, 13),
              unit("E", "axis", 3, 11), unit("F", "axis", 5, 13), unit("G", "axis", 0, 0),
              unit("H", "allies", 8, 0)]


@pytest.mark.parametrize(("card", "target", "side"), [
    ("air_power", "B", "allies"), ("air_power", "H", "axis"), ("air_power_breakthrough", "B", "allies"),
    ("air_power_breakthrough", "H", "axis"), ("barrage", "B", "allies"), ("barrage", "H", "axis"),
])
def test_card_attack_rolls_the_cards_dice_for_the_side_playing_it(client, rulebook, card, target, side):
    answer = battle(client, AXIS_GROUP, [{"row": 4, "col": 12, "terrain": "forest"}], attacker=None, target=target,
                    card=card)
    assert answer["card_attack"] is True and answer["legal"] is True
    assert answer["side"] == side
    assert answer["dice"] == rulebook.rules[card].fixed_dice[side]
    assert answer["take_ground"] is False and answer["overrun"] is False


def test_winter_weather_makes_air_power_one_die_for_each_side(client, rulebook):
    winter = rulebook.rules["winter_weather"].fixed_dice
    for target, side in (("B", "allies"), ("H", "axis")):
        answer = battle(client, AXIS_GROUP, attacker=None, target=target, card="air_power", rules=["winter_weather"])
        assert answer["dice"] == winter[side] == 1
        assert "winter_weather" in {step["rule"] for step in answer["breakdown"]}
    barrage = battle(client, AXIS_GROUP, attacker=None, target="B", card="barrage", rules=["winter_weather"])
    assert barrage["dice"] == rulebook.rules["barrage"].fixed_dice["allies"]


def test_air_power_attacks_at_most_four_contiguous_units(client, rulebook):
    four = battle(client, AXIS_GROUP, attacker=None, target="B", targets=["C", "D", "F"], card="air_power")
    assert four["legal"] is True and four["targets"] == ["B", "C", "D", "F"]
    five = battle(client, AXIS_GROUP, attacker=None, target="B", targets=["C", "D", "E", "F"], card="air_power")
    assert five["legal"] is False and rulebook.rules["air_power"].max_targets == 4
    apart = battle(client, AXIS_GROUP, attacker=None, target="B", targets=["G"], card="air_power")
    assert apart["legal"] is False and "contiguous" in apart["why_not"][0]["text"]
    barrage = battle(client, AXIS_GROUP, attacker=None, target="B", targets=["C"], card="barrage")
    assert barrage["legal"] is False


def test_stars_hit_on_air_power_and_breakthrough_barrage_but_not_on_barrage(client):
    def symbols(card: str) -> list[str]:
        return battle(client, AXIS_GROUP, attacker=None, target="B", card=card)["hit_symbols"]
    assert "star" in symbols("air_power")
    assert "star" not in symbols("barrage")
    assert "star" in symbols("barrage_breakthrough")


def test_flags_from_a_card_attack_may_not_be_ignored(client):
    sandbags = [{"row": 4, "col": 12, "obstacle": "sandbags"}]
    by_unit = battle(client, [unit("A", "allies", 6, 12), *AXIS_GROUP[:1]], sandbags, attacker="A", target="B")
    by_card = battle(client, AXIS_GROUP, sandbags, attacker=None, target="B", card="barrage")
    assert by_unit["flags_ignored"] == 1
    assert by_card["flags_ignored"] == 0


def test_a_card_that_orders_units_still_needs_an_attacker(client):
    response = client.post("/api/v1/battle", json={"units": AXIS_GROUP, "attacker": None, "target": "B",
                                                   "card": "attack"})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == "attacker"


def resolve(client: FlaskClient, units: list[dict[str, Any]], hexes: list[dict[str, Any]] | None = None,
            status: int = 200, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/v1/resolve", json={"units": units, "hexes": hexes or [], **fields})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_barrage_roll_is_resolved_with_its_flag_retreated_and_no_ground_taken(client):
    """Barrage: 4 dice on one unit, its symbol and grenades hit, a star misses, the flag may not be
    ignored even behind sandbags, and no unit battled so nothing takes ground."""
    rolled = {"infantry": 1, "grenade": 1, "star": 1, "flag": 1}
    answer = resolve(client, AXIS_GROUP, [{"row": 4, "col": 12, "obstacle": "sandbags"}], attacker=None, target="B",
                     card="barrage", rolled=rolled)
    assert (answer["card_attack"], answer["side"], answer["attacker"]) == (True, "allies", None)
    assert {f["face"]: f["hits"] for f in answer["hits_by_face"]} == {"infantry": 1, "grenade": 1, "star": 0, "flag": 0}
    assert (answer["hits"], answer["flags"], answer["flags_ignored"], answer["flags_to_retreat"]) == (2, 1, 0, 1)
    assert answer["take_ground"] is False and answer["overrun"] is False
    assert "barrage" in {step["rule"] for step in answer["steps"]}
    by_unit = resolve(client, [unit("A", "allies", 6, 12), *AXIS_GROUP[:1]], [{"row": 4, "col": 12,
                      "obstacle": "sandbags"}], attacker="A", target="B", rolled={"flag": 1})
    assert by_unit["flags_ignored"] == 1  # the sandbags' flag allowance, which the card takes away


def test_air_power_roll_is_resolved_target_by_target_with_stars_hitting(client, rulebook):
    dice = rulebook.rules["air_power"].fixed_dice["allies"]
    answer = resolve(client, AXIS_GROUP, attacker=None, target="C", targets=["B"], card="air_power",
                     rolled={"star": dice})
    assert answer["targets"] == ["C", "B"] and answer["hits"] == dice
    wrong = resolve(client, AXIS_GROUP, status=400, attacker=None, target="C", card="air_power",
                    rolled={"star": dice + 1})
    assert wrong["error"]["field"] == "rolled"
    too_many = resolve(client, AXIS_GROUP, attacker=None, target="B", targets=["C", "D", "E", "F"], card="air_power",
                       rolled={"star": dice})
    assert too_many["legal"] is False and too_many["hits"] == 0


def test_winter_weather_air_power_roll_is_one_die(client, rulebook):
    one = rulebook.rules["winter_weather"].fixed_dice["allies"]
    answer = resolve(client, AXIS_GROUP, attacker=None, target="B", card="air_power", rules=["winter_weather"],
                     rolled={"grenade": one})
    assert answer["dice"] == one == 1 and answer["hits"] == 1


# -- Ambush and Firefight -----------------------------------------------------------------------

def test_ambushing_unit_may_neither_take_ground_nor_overrun(client):
    units = [unit("A", "allies", 5, 11, "armor"), unit("B", "axis", 4, 12)]
    ordered = battle(client, units, attacker="A", target="B")
    ambush = battle(client, units, attacker="A", target="B", card="ambush")
    assert (ordered["take_ground"], ordered["overrun"]) == (True, True)
    assert (ambush["take_ground"], ambush["overrun"]) == (False, False)
    assert ambush["take_ground_reasons"][0]["rule"] == "ambush"


def test_firefight_refuses_a_unit_next_to_an_enemy(client):
    units = [unit("A", "allies", 5, 11), unit("B", "axis", 4, 12)]
    assert battle(client, units, attacker="A", target="B")["legal"] is True
    answer = battle(client, units, attacker="A", target="B", card="firefight")
    assert answer["legal"] is False and "firefight" in {r["rule"] for r in answer["why_not"]}


def test_firefight_refuses_a_unit_that_moved(client):
    units = [unit("A", "allies", 6, 10, moved=1), unit("B", "axis", 4, 12)]
    assert battle(client, units, attacker="A", target="B")["legal"] is True
    answer = battle(client, units, attacker="A", target="B", card="firefight")
    assert answer["legal"] is False and "firefight" in {r["rule"] for r in answer["why_not"]}
    still = battle(client, [unit("A", "allies", 6, 10), unit("B", "axis", 4, 12)], attacker="A", target="B",
                   card="firefight")
    assert still["legal"] is True and still["dice"] == 2 + 1


@pytest.mark.parametrize(("path", "shown"), [
    ("/rules/nation/british_commonwealth", "Battle back dice"),
    ("/rules/nation/french_army", "Second close assault dice"),
    ("/rules/command_card/firefight", "Only units not adjacent to an enemy"),
    ("/rules/command_card/ambush", "Unit may take ground / overrun"),
    ("/rules/command_card/artillery_bombard", "Battles per ordered unit"),
    ("/rules/command_card/air_power", "Most target units"),
    ("/rules/special_rule/winter_weather", "Replaces the dice of"),
])
def test_rule_pages_show_the_fields_the_engine_reads(client, path, shown):
    page = client.get(path)
    assert page.status_code == 200 and shown in page.get_data(as_text=True)


@pytest.mark.parametrize("card", ["close_assault", "ambush"])
def test_close_assault_cards_rule_only_close_assaults(client, card):
    ranged = battle(client, [unit("A", "allies", 6, 10), unit("B", "axis", 4, 12)], attacker="A", target="B", card=card)
    assert ranged["legal"] is False and card in {r["rule"] for r in ranged["why_not"]}
    close = battle(client, [unit("A", "allies", 5, 11), unit("B", "axis", 4, 12)], attacker="A", target="B", card=card)
    assert close["legal"] is True


def test_close_assault_card_refuses_a_unit_that_moved_but_not_its_overrun(client):
    moved = battle(client, [unit("A", "allies", 5, 11, "armor", moved=1), unit("B", "axis", 4, 12)],
                   attacker="A", target="B", card="close_assault")
    assert moved["legal"] is False
    overrun = battle(client, [unit("A", "allies", 5, 11, "armor", moved=1), unit("B", "axis", 3, 13)],
                     attacker="A", target="B", card="close_assault", overrun_battle=True)
    assert overrun["legal"] is True, overrun["why_not"]


def test_resolving_an_ambush_that_repulses_the_attacker_takes_no_ground(client):
    """The same Ambush rule in ``/resolve``: an eliminated or retreating target leaves the ambusher in place."""
    body = {"units": [unit("A", "allies", 5, 11, "armor"), unit("B", "axis", 4, 12, figures=1)],
            "attacker": "A", "target": "B", "rolled": {"grenade": 1, "star": 2}}
    ordered = client.post("/api/v1/resolve", json=body).get_json()
    ambush = client.post("/api/v1/resolve", json={**body, "card": "ambush"}).get_json()
    assert ordered["eliminated"] is True and ordered["take_ground"] is True
    assert ambush["eliminated"] is True and ambush["take_ground"] is False and ambush["overrun"] is False


def test_no_battle_back_from_a_hex_where_the_unit_may_not_battle(client):
    answer = battle(client, [unit("A", "axis", 5, 11), unit("B", "allies", 4, 12, nation="british")],
                    [{"row": 4, "col": 12, "terrain": "ocean"}], attacker="A", target="B")
    assert answer["legal"] is True and follow_ups(answer, "battle_back") == []


def test_winter_weather_page_gives_air_power_one_die_for_each_side(client, rulebook):
    """The page shows the numbers the ruling uses (Winter Wars rulebook: 1 die each), not the card's 2 and 1."""
    dice = rulebook.rules["winter_weather"].fixed_dice
    page = " ".join(re.sub(r"<[^>]+>", " ", client.get("/rules/special_rule/winter_weather").get_data(as_text=True))
                    .split())
    assert f"Allies: {dice['allies']}, Axis: {dice['axis']}" in page and dice == {"allies": 1, "axis": 1}
    assert "Air Power rolls 1 die for both sides" in page
