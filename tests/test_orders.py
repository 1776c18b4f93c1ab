"""Which units a command card may order (``/api/v1/order``, engine ``orders``, core ``ordering``),
through the API: every command card of the content, sections and straddling hexes on the three
boards for both players, class cards and their "1 unit of your choice" fallback, Counter-Attack,
Their Finest Hour, the US Marines' Gung-Ho, Dig In, and the selection a player proposes."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import CardRules, Rulebook


def unit(uid: str, side: str, row: int, col: int, kind: str = "infantry", **extra: Any) -> dict[str, Any]:
    figures = {"infantry": 4, "armor": 3, "artillery": 2, "half_track": 2, "supply_truck": 2}.get(kind, 3)
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col, "figures": figures, **extra}


ARMY = [
    unit("L1", "allies", 8, 2), unit("L2", "allies", 7, 5, "armor"),
    unit("S1", "allies", 7, 7),  # straddles left and centre
    unit("C1", "allies", 8, 10), unit("C2", "allies", 8, 12, "armor"), unit("C3", "allies", 8, 14, "artillery"),
    unit("S2", "allies", 7, 17, "armor"),  # straddles centre and right
    unit("R1", "allies", 8, 20), {**unit("R2", "allies", 8, 22), "figures": 2},  # R2 has lost figures
    unit("X1", "axis", 7, 11), unit("X2", "axis", 1, 11, "armor"),  # X1 is next to C1 and C2
]
"""A bottom (Allied) army with a unit in every section, one on each section line, and an enemy unit
next to two of them."""


def order(client: FlaskClient, card: str, units: list[dict[str, Any]] | None = None, side: str = "allies",
          status: int = 200, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/v1/order", json={"units": ARMY if units is None else units, "side": side,
                                                  "card": card, **fields})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def orderable(answer: dict[str, Any]) -> set[str]:
    return {u["unit"] for u in answer["orderable"]}


def why_not(answer: dict[str, Any], unit_id: str) -> list[dict[str, Any]]:
    return next(u["why"] for u in answer["not_orderable"] if u["unit"] == unit_id)


# Every command card of the content: (card, request fields, most units ordered, units it may order).
EVERY_CARD: list[tuple[str, dict[str, Any], int, set[str]]] = [
    ("probe", {"section": "center"}, 2, {"S1", "C1", "C2", "C3", "S2"}),
    ("probe_on_the_move", {"section": "center"}, 4, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("attack", {"section": "left"}, 3, {"L1", "L2", "S1"}),
    ("attack_on_the_move", {"section": "left"}, 4, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("recon", {"section": "right"}, 1, {"S2", "R1", "R2"}),
    ("recon_on_the_move", {"section": "right"}, 3, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("assault", {"section": "center"}, 5, {"S1", "C1", "C2", "C3", "S2"}),
    ("general_advance", {}, 6, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("pincer_move", {}, 4, {"L1", "L2", "S1", "S2", "R1", "R2"}),
    ("recon_in_force", {}, 3, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("armor_assault", {}, 3, {"L2", "C2", "S2"}),
    ("artillery_bombard", {}, 1, {"C3"}),
    ("behind_enemy_lines", {}, 1, {"L1", "S1", "C1", "R1", "R2"}),
    ("behind_enemy_lines_breakthrough", {}, 1, {"L1", "S1", "C1", "R1", "R2"}),
    ("close_assault", {}, 2, {"C1", "C2"}),
    ("counter_attack", {"copied_card": {"card": "probe", "section": "left"}}, 2, {"S2", "R1", "R2"}),
    ("dig_in", {}, 4, {"L1", "S1", "C1", "R1", "R2"}),
    ("dig_in_breakthrough", {}, 4, {"L1", "S1", "C1", "C3", "R1", "R2"}),
    ("direct_from_hq", {}, 4, {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("firefight", {}, 4, {"L1", "L2", "S1", "C3", "S2", "R1", "R2"}),
    ("infantry_assault", {"section": "center"}, 2, {"S1", "C1"}),
    ("medics_and_mechanics", {}, 1, {"R2"}),
    ("medics_and_mechanics_breakthrough", {}, 0, set()),
    ("move_out", {}, 4, {"L1", "S1", "C1", "R1", "R2"}),
    ("their_finest_hour", {"rolled": {"infantry": 1, "armor": 1, "star": 1, "flag": 1, "grenade": 1}}, 3,
     {"L1", "L2", "S1", "C1", "C2", "C3", "S2", "R1", "R2"}),
    ("air_power", {}, 0, set()),
    ("air_power_breakthrough", {}, 0, set()),
    ("barrage", {}, 0, set()),
    ("barrage_breakthrough", {}, 0, set()),
    ("ambush", {}, 0, set()),
    ("air_sortie", {}, 0, set()),
]


def test_every_command_card_of_the_content_is_ruled_here(rulebook: Rulebook):
    assert {card for card, *_ in EVERY_CARD} == set(rulebook.ids_of_kind("command_card"))


@pytest.mark.parametrize(("card", "fields", "most", "units"), EVERY_CARD, ids=[c for c, *_ in EVERY_CARD])
def test_each_command_card_orders_what_its_content_says(client, card, fields, most, units):
    answer = order(client, card, **fields)
    assert answer["max_units"] == most
    assert orderable(answer) == units
    assert {u["unit"] for u in answer["not_orderable"]} == {u["id"] for u in ARMY if u["side"] == "allies"} - units
    assert all(u["why"] for u in answer["not_orderable"])
    assert answer["effects"], "every order says what it lets the units do, or what the card does instead"


def test_cards_that_order_no_unit_say_what_they_do_instead(client):
    for card, rule in (("air_power", "air_power"), ("barrage", "barrage"), ("ambush", "ambush"),
                       ("air_sortie", "air_sortie")):
        answer = order(client, card)
        assert answer["max_units"] == 0 and answer["groups"] == []
        assert rule in {e["rule"] for e in answer["effects"]}


def test_every_reason_names_a_content_entry_whose_page_exists(client, rulebook: Rulebook):
    seen: set[str] = set()
    for card, fields, _, _ in EVERY_CARD:
        answer = order(client, card, selection=["L1", "X1", "L1", "nobody"], **fields)
        for reasons in ([u["why"] for u in answer["orderable"] + answer["not_orderable"]]
                        + [answer["effects"], answer["selection"]["why_not"]]):
            seen.update(r["rule"] for r in reasons)
            assert all(r["code"] and r["text"] for r in reasons)
    for rule in seen:
        assert client.get(f"/rules/{rulebook.kinds[rule]}/{rule}").status_code == 200, rule


# -- sections and straddling hexes ---------------------------------------------------------------

BOARD_LINES = {"standard": (9, 7, 17), "breakthrough": (17, 7, 17), "overlord": (9, 17, 33)}
"""Rows, and the left/centre and centre/right section lines (``col``) of each board."""


@pytest.mark.parametrize("board", list(BOARD_LINES))
@pytest.mark.parametrize("bottom", [True, False])
def test_a_unit_on_a_straddling_hex_may_be_ordered_from_either_section(client, board, bottom):
    rows, left_line, right_line = BOARD_LINES[board]
    side = "allies" if bottom else "axis"
    row = rows - 2 if bottom else 1  # odd rows: the line's column is a hex there
    units = [unit("S", side, row, left_line), unit("E", "axis" if bottom else "allies", 4, left_line + 5)]
    body = {"board": board, "bottom_side": "allies"}
    # the line at the low columns is the bottom player's left/centre line and the top player's right/centre one
    near, far = ("left", "right") if bottom else ("right", "left")
    for section in (near, "center"):
        answer = order(client, "probe", units, side, section=section, **body)
        entry = next(u for u in answer["orderable"] if u["unit"] == "S")
        assert entry["sections"] == sorted({near, "center"}, key=["left", "center", "right"].index)
        assert any(r["code"] == "order.straddling" and r["rule"] == "ordering" for r in entry["why"])
    assert why_not(order(client, "probe", units, side, section=far, **body), "S")[0]["rule"] == "probe"
    other = [unit("S", side, row, right_line)]
    answer = order(client, "probe", other, side, section=far, **body)
    assert orderable(answer) == {"S"} and answer["orderable"][0]["sections"] == sorted(
        {far, "center"}, key=["left", "center", "right"].index)


def test_a_straddling_unit_is_counted_once_where_it_leaves_room(client):
    units = [unit("A", "allies", 8, 0), unit("B", "allies", 8, 2), unit("S", "allies", 7, 7),
             unit("C", "allies", 8, 10)]
    answer = order(client, "pincer_move", units, selection=["A", "B", "S"])
    assert answer["max_units"] == 2  # A, B and S may all fill only the left: S is in the left and centre
    assert answer["selection"]["legal"] is False
    answer = order(client, "general_advance", units, selection=["A", "B", "S", "C"])
    assert answer["max_units"] == 4 and answer["selection"]["legal"] is True
    assert answer["selection"]["groups"]["S"].endswith("in the center")


def test_the_top_players_sections_are_mirrored(client):
    units = [unit("T", "axis", 1, 3), unit("B", "allies", 7, 3)]
    assert orderable(order(client, "recon", units, "axis", section="right")) == {"T"}
    assert orderable(order(client, "recon", units, "allies", section="left")) == {"B"}
    axis_left = order(client, "recon", units, "axis", section="left")
    assert why_not(axis_left, "T")[0]["params"]["where"] == ["right"]


def test_general_advance_orders_two_in_each_section_and_recon_in_force_one(client):
    answer = order(client, "general_advance")
    assert [(g["section"], g["max"]) for g in answer["groups"]] == [("left", 2), ("center", 2), ("right", 2)]
    answer = order(client, "recon_in_force", selection=["L1", "L2"])
    assert [(g["section"], g["max"]) for g in answer["groups"]] == [("left", 1), ("center", 1), ("right", 1)]
    # L1 and L2 are both only in the left: one too many there
    assert answer["selection"]["legal"] is False
    assert answer["selection"]["why_not"][0]["code"] == "order.no_room"
    assert order(client, "recon_in_force", selection=["L1", "S1", "S2"])["selection"]["legal"] is True


def test_pincer_move_orders_nobody_from_the_centre(client):
    answer = order(client, "pincer_move")
    assert [g["section"] for g in answer["groups"]] == ["left", "right"]
    assert why_not(answer, "C1")[0]["code"] == "order.wrong_section"


def test_on_the_move_units_come_from_any_section(client):
    answer = order(client, "probe_on_the_move", section="center", selection=["C1", "C2", "L1", "R1"])
    assert answer["groups"][-1] == {**answer["groups"][-1], "section": None, "on_the_move": True, "max": 2}
    assert answer["selection"]["legal"] is True
    entry = next(u for u in answer["orderable"] if u["unit"] == "L1")
    assert entry["why"][0]["code"] == "order.only_on_the_move"
    assert "on_the_move" in {e.get("fact") for e in answer["effects"]}


# -- class cards and their fallback ----------------------------------------------------------------

FALLBACK_CARDS = {"armor_assault": ("armor", {}), "artillery_bombard": ("artillery", {}),
                  "move_out": ("infantry", {}), "infantry_assault": ("infantry", {"section": "center"})}


@pytest.mark.parametrize("card", list(FALLBACK_CARDS))
def test_a_class_card_orders_one_unit_of_your_choice_when_you_have_none_of_that_class(client, rulebook, card):
    kind, fields = FALLBACK_CARDS[card]
    other = "armor" if kind != "armor" else "infantry"
    units = [unit("A", "allies", 8, 10, other), unit("B", "allies", 8, 12, other), unit("Z", "axis", 1, 11)]
    answer = order(client, card, units, **fields)
    assert answer["max_units"] == rulebook.rules[card].fallback_units == 1
    assert orderable(answer) == {"A", "B"}
    assert answer["groups"][0]["fallback"] is True
    assert any(e["code"] == "order.fallback" and e["fact"] == "fallback_units" for e in answer["effects"])
    assert order(client, card, units, selection=["A", "B"], **fields)["selection"]["legal"] is False


@pytest.mark.parametrize("card", list(FALLBACK_CARDS))
def test_a_class_card_orders_only_that_class_when_you_have_some(client, card):
    kind, fields = FALLBACK_CARDS[card]
    other = "armor" if kind != "armor" else "infantry"
    units = [unit("A", "allies", 8, 10, other), unit("K", "allies", 8, 12, kind), unit("Z", "axis", 1, 11)]
    answer = order(client, card, units, **fields)
    assert orderable(answer) == {"K"}
    reason = why_not(answer, "A")[0]
    assert reason["code"] == "order.wrong_class" and reason["rule"] == card
    assert reason["params"]["example"]["unit"] == "K"


def test_infantry_assault_falls_back_only_where_the_chosen_section_has_no_infantry(client):
    units = [unit("I", "allies", 8, 2), unit("K", "allies", 8, 12, "armor"), unit("Z", "axis", 1, 11)]
    answer = order(client, "infantry_assault", units, section="center")
    assert orderable(answer) == {"K"} and answer["groups"][0].get("fallback") is True
    assert orderable(order(client, "infantry_assault", units, section="left")) == {"I"}


def test_half_tracks_and_supply_trucks_follow_their_rules_cards(client):
    units = [unit("H", "allies", 8, 10, "half_track"), unit("T", "allies", 8, 12, "supply_truck"),
             unit("I", "allies", 8, 14), unit("Z", "axis", 1, 11)]
    assert orderable(order(client, "armor_assault", units)) == {"H"}
    assert orderable(order(client, "move_out", units)) == {"T", "I"}
    assert orderable(order(client, "dig_in", units)) == {"I"}
    assert why_not(order(client, "dig_in", units), "H")[0]["code"] == "order.excluded"
    assert orderable(order(client, "firefight", units)) == {"H", "I"}


def test_close_assault_orders_units_next_to_an_enemy_and_firefight_the_others(client):
    answer = order(client, "close_assault")
    assert why_not(answer, "L2")[0]["code"] == "order.needs_adjacent_enemy"
    answer = order(client, "firefight")
    assert why_not(answer, "C1")[0]["params"]["enemy"]["unit"] == "X1"


def test_medics_and_mechanics_orders_a_unit_that_has_lost_figures(client):
    answer = order(client, "medics_and_mechanics")
    assert orderable(answer) == {"R2"} and why_not(answer, "R1")[0]["code"] == "order.needs_weakened"
    assert {"recovers_figures", "dice_per_card_in_hand"} <= {e.get("fact") for e in answer["effects"]}


# -- Counter-Attack ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("theirs", "ours"), [("left", "right"), ("right", "left"), ("center", "center")])
def test_counter_attack_mirrors_the_opponents_flank(client, theirs, ours):
    answer = order(client, "counter_attack", copied_card={"card": "attack", "section": theirs})
    assert answer["section"] == ours and answer["groups"][0]["section"] == ours
    assert answer["copied_card"] == {"card": "attack", "section": theirs}
    assert answer["card"] == "counter_attack" and answer["max_units"] == 3
    codes = [e["code"] for e in answer["effects"]]
    assert codes[0] == "order.copies" and (theirs == "center") == ("order.mirrored" not in codes)


def test_counter_attack_for_the_top_player_is_mirrored_the_same_way(client):
    units = [unit("T", "axis", 1, 3), unit("U", "axis", 1, 21)]  # axis on top: col 3 is his right, col 21 his left
    answer = order(client, "counter_attack", units, "axis", copied_card={"card": "recon", "section": "left"})
    assert answer["section"] == "right" and orderable(answer) == {"T"}


def test_counter_attack_copies_a_tactic_card_whole(client):
    answer = order(client, "counter_attack", copied_card={"card": "armor_assault"})
    assert answer["max_units"] == 3 and orderable(answer) == {"L2", "C2", "S2"}
    assert "armor_assault" in {e["rule"] for e in answer["effects"]}


def test_counter_attack_copies_the_copied_cards_dice_in_battle(client):
    units = [unit("A", "allies", 5, 11, "armor"), unit("B", "axis", 4, 12)]
    plain = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                                "card": "counter_attack"}).get_json()
    copied = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                                 "card": "counter_attack",
                                                 "copied_card": {"card": "armor_assault"}}).get_json()
    assert copied["dice"] == plain["dice"] + 1
    assert "armor_assault" in {r["rule"] for r in copied["breakdown"]}


@pytest.mark.parametrize(("fields", "field"), [
    ({}, "copied_card"), ({"copied_card": "probe"}, "copied_card"),
    ({"copied_card": {"card": "no_such_card"}}, "copied_card.card"),
    ({"copied_card": {"card": "probe"}}, "copied_card.section"),
    ({"copied_card": {"card": "probe", "section": "middle"}}, "copied_card.section"),
    ({"copied_card": {"card": "counter_attack"}}, "copied_card.card"),
])
def test_counter_attack_needs_the_card_it_copies(client, fields, field):
    assert order(client, "counter_attack", status=400, **fields)["error"]["field"] == field


# -- Their Finest Hour ----------------------------------------------------------------------------------

def test_their_finest_hour_orders_by_the_faces_rolled(client):
    units = [unit("I", "allies", 8, 10), unit("J", "allies", 8, 12), unit("H", "allies", 8, 14, "half_track"),
             unit("T", "allies", 8, 16, "supply_truck"), unit("Z", "axis", 1, 11)]
    answer = order(client, "their_finest_hour", units, rolled={"infantry": 1, "star": 1, "flag": 2})
    assert [(g["face"], g["max"]) for g in answer["groups"]] == [("infantry", 1), ("star", 1)]
    assert answer["max_units"] == 2
    infantry = answer["groups"][0]["units"]
    assert set(infantry) == {"I", "J", "T"}  # a supply truck answers an infantry symbol, a half-track does not
    legal = order(client, "their_finest_hour", units, rolled={"infantry": 1, "star": 1}, selection=["I", "J"])
    assert legal["selection"]["legal"] is True
    armor = order(client, "their_finest_hour", units, rolled={"infantry": 1, "star": 1}, selection=["H", "H"])
    assert armor["selection"]["legal"] is False
    two_tracks = order(client, "their_finest_hour", units, rolled={"armor": 1, "grenade": 2}, selection=["H", "T"])
    assert two_tracks["selection"]["legal"] is False and two_tracks["max_units"] == 1
    assert "+1" not in str(answer["effects"]) and any(e["fact"] == "dice_modifiers" for e in answer["effects"])


@pytest.mark.parametrize(("fields", "message"), [
    ({}, "Their Finest Hour orders by the dice rolled: give `rolled`"), ({"rolled": {"skull": 1}}, "unknown die face"),
    ({"rolled": {"flag": 0}}, "at least 1"),
    ({"rolled": {"star": 2}, "scenario": {"cards": {"allies": 5}}}, "5 command cards"),
])
def test_their_finest_hour_needs_a_roll_that_matches_the_hand(client, fields, message):
    error = order(client, "their_finest_hour", status=400, **fields)["error"]
    assert error["field"] == "rolled" and message in error["message"]


def test_their_finest_hour_roll_may_match_the_hand_size(client):
    answer = order(client, "their_finest_hour", rolled={"star": 4, "flag": 1}, scenario={"cards": {"allies": 5}})
    assert answer["max_units"] == 4


# -- US Marine Corps: Gung-Ho ----------------------------------------------------------------------------

MARINES = {"scenario": {"options": ["us_marine_corps"]}}


def test_marines_order_one_more_unit_from_any_section_with_a_section_card(client):
    answer = order(client, "probe", section="center", selection=["C1", "C2", "R1"], **MARINES)
    assert answer["max_units"] == 3 and answer["selection"]["legal"] is True
    assert answer["groups"][-1] == {**answer["groups"][-1], "section": None, "max": 1, "rule": "us_marine_corps"}
    entry = next(u for u in answer["orderable"] if u["unit"] == "R1")
    assert entry["why"][0]["code"] == "order.extra_unit" and entry["why"][0]["rule"] == "us_marine_corps"
    assert order(client, "assault", section="center", **MARINES)["max_units"] == 6


@pytest.mark.parametrize(("card", "plain"), [("direct_from_hq", 4), ("move_out", 4), ("behind_enemy_lines", 1),
                                             ("firefight", 4), ("dig_in", 4)])
def test_marines_tactic_cards_ordering_one_to_four_order_one_more(client, card, plain):
    assert order(client, card)["max_units"] == plain
    assert order(client, card, **MARINES)["max_units"] == plain + 1


@pytest.mark.parametrize("card", ["air_power", "artillery_bombard", "barrage", "close_assault", "infantry_assault",
                                  "their_finest_hour", "air_power_breakthrough", "air_sortie"])
def test_marines_get_no_extra_unit_with_the_cards_their_entry_names(client, rulebook, card):
    fields: dict[str, Any] = {"section": "center"} if card == "infantry_assault" else {}
    if card == "their_finest_hour":
        fields["rolled"] = {"star": 2}
    plain = order(client, card, **fields)
    marines = order(client, card, **fields, **MARINES)
    assert marines["max_units"] == plain["max_units"]
    assert not any(g["rule"] == "us_marine_corps" for g in marines["groups"])
    if card != "air_sortie":
        assert any(e["code"] == "order.gung_ho_none" for e in marines["effects"])


def test_marines_counter_attack_gets_the_extra_unit_of_the_copied_card(client):
    copied = {"card": "probe", "section": "center"}
    assert order(client, "counter_attack", copied_card=copied)["max_units"] == 2
    assert order(client, "counter_attack", copied_card=copied, **MARINES)["max_units"] == 3
    barrage = order(client, "counter_attack", copied_card={"card": "barrage"}, **MARINES)
    assert barrage["max_units"] == 0


def test_gung_ho_is_the_allied_sides_only_and_needs_the_scenario_option(client):
    axis = [unit("T", "axis", 1, 11), unit("U", "axis", 1, 13), unit("V", "axis", 1, 15), unit("A", "allies", 8, 2)]
    assert order(client, "probe", axis, "axis", section="center", **MARINES)["max_units"] == 2
    us = [{**u, "nation": "us"} for u in ARMY]
    assert order(client, "probe", us, section="center")["max_units"] == 2


# -- Dig In ------------------------------------------------------------------------------------------------

def test_dig_in_places_sandbags_owned_by_the_side_except_where_they_stand(client):
    hexes = [{"row": 8, "col": 10, "obstacle": "sandbags"}]
    answer = order(client, "dig_in", hexes=hexes, selection=["L1", "C1", "R1"])
    assert answer["selection"]["legal"] is True
    assert [(p["unit"], p["row"], p["col"], p["obstacle"], p["owner"]) for p in answer["obstacles_placed"]] == [
        ("L1", 8, 2, "sandbags", "allies"), ("R1", 8, 20, "sandbags", "allies")]
    assert answer["selection"]["notes"][0]["code"] == "order.already_placed"
    assert {"places_obstacle", "ordered_units_move", "ordered_units_battle"} <= {e.get("fact")
                                                                                 for e in answer["effects"]}


def test_dig_in_breakthrough_lets_artillery_dig_in(client):
    answer = order(client, "dig_in_breakthrough", selection=["C3"])
    assert answer["selection"]["legal"] and answer["obstacles_placed"][0]["unit"] == "C3"


# -- the selection ---------------------------------------------------------------------------------------

def test_probe_refuses_a_third_unit_with_the_rule(client):
    answer = order(client, "probe", section="center", selection=["S1", "C1", "C2"])
    reason = answer["selection"]["why_not"][0]
    assert answer["selection"]["legal"] is False
    assert reason["rule"] == "probe" and reason["code"] == "order.too_many"
    assert reason["text"] == "Probe orders at most 2 units here; 3 were chosen"


def test_a_selection_names_every_problem(client):
    answer = order(client, "armor_assault", selection=["L2", "L2", "X1", "nobody", "L1"])
    codes = [r["code"] for r in answer["selection"]["why_not"]]
    assert codes == ["order.twice", "order.enemy_unit", "order.unknown_unit", "order.wrong_class"]
    assert order(client, "armor_assault", selection=["L2", "C2"])["selection"]["legal"] is True


# -- bad requests --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "field"), [
    ({"card": "probe", "section": "center"}, "side"),
    ({"side": "allies"}, "card"),
    ({"side": "allies", "card": "no_such_card"}, "card"),
    ({"side": "allies", "card": "probe"}, "section"),
    ({"side": "allies", "card": "probe", "section": "middle"}, "section"),
    ({"side": "allies", "card": "infantry_assault"}, "section"),
    ({"side": "allies", "card": "probe", "section": "left", "selection": "A"}, "selection"),
    ({"side": "allies", "card": "probe", "section": "left", "scenario": {"options": "x"}}, "scenario.options"),
    ({"side": "allies", "card": "probe", "section": "left", "scenario": {"cards": {"allies": -1}}},
     "scenario.cards.allies"),
])
def test_a_bad_order_request_is_a_400_naming_the_field(client, body, field):
    response = client.post("/api/v1/order", json={"units": ARMY, **body})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == field


def test_an_unknown_card_is_reported_as_such(client):
    error = order(client, "no_such_card", status=400)["error"]
    assert error["code"] == "unknown_card"


def test_card_rules_state_what_they_order(rulebook: Rulebook):
    """No command card is silent about its order: it has pools, orders by the dice, copies a card, is
    played in the opponent's turn, attacks by itself, or says no source gives its order."""
    for card in rulebook.ids_of_kind("command_card"):
        rules = rulebook.rules[card]
        assert isinstance(rules, CardRules)
        assert (rules.order_groups or rules.roll_orders or rules.copies_last_card or rules.reaction
                or rules.fixed_dice or not rules.orders_documented), card
