"""``POST /api/v1/resolve`` (adjudicator/API.md): the faces actually rolled, applied — hits by face
and target type (content ``resolving_hits`` and the units that make stars hit), flags ignored by
every kind of source (``retreat``, terrain, obstacles, badges, nations, combat cards), blocked and
off-board retreats that cost figures, elimination, take ground and overrun, and every bad ``rolled``
answered with a 400 naming it. A property test checks that for any legal battle and any roll that
adds up, the answer agrees with ``/battle`` and is never a server error."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.engine.rulebook import Rulebook
from adjudicator.web import openapi
from tests.test_api_engine import validate

BOTTOM = {"board": "standard", "bottom_side": "allies"}


def unit(uid: str, side: str, kind: str, row: int, col: int, figures: int, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col, "figures": figures, **extra}


def resolve(client: FlaskClient, units: list[dict[str, Any]], rolled: Any, hexes: list[dict[str, Any]] | None = None,
            **fields: Any) -> Any:
    body = {**BOTTOM, "hexes": hexes or [], "units": units, "attacker": "A", "target": "T", "rolled": rolled,
            **fields}
    return client.post("/api/v1/resolve", json=body)


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def face(answer: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in answer["hits_by_face"] if f["face"] == name)


# Allies attack from below (row 5) an axis target at row 4, which retreats up the board (to row 3).
ATTACKER_INF = unit("A", "allies", "infantry", 5, 11, 4)
ATTACKER_ARMOR = unit("A", "allies", "armor", 5, 11, 3)


# --- hits by face and target type ----------------------------------------------------------------

def test_infantry_symbols_hit_infantry_and_armor_symbols_miss_it(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)],
                        {"infantry": 2, "armor": 1}))
    assert answer["dice"] == 3 and answer["hits"] == 2 and answer["figures_lost"] == 2
    assert face(answer, "infantry") == {**face(answer, "infantry"), "count": 2, "hits": 2, "rule": "infantry"}
    assert face(answer, "armor")["hits"] == 0 and face(answer, "armor")["rule"] == "infantry"
    assert answer["figures_left"] == 2 and not answer["eliminated"]


def test_armor_symbol_hits_armor_and_infantry_symbols_miss_it(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "armor", 4, 12, 3)],
                        {"infantry": 2, "armor": 1}))
    assert answer["hits"] == 1 and face(answer, "armor")["rule"] == "armor"
    assert face(answer, "infantry")["hits"] == 0


def test_only_grenades_hit_artillery(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "artillery", 4, 12, 2)],
                        {"infantry": 1, "armor": 1, "grenade": 1}))
    assert answer["hits"] == 1 and face(answer, "grenade")["hits"] == 1
    assert face(answer, "grenade")["rule"] == "resolving_hits"
    assert face(answer, "infantry")["hits"] == 0 and face(answer, "armor")["hits"] == 0


def test_star_misses_when_no_unit_or_card_makes_it_hit(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], {"star": 3}))
    assert answer["hits"] == 0 and face(answer, "star") == {**face(answer, "star"), "hits": 0,
                                                            "rule": "resolving_hits"}


def test_tank_destroyer_badge_makes_stars_hit_armor(client: FlaskClient) -> None:
    destroyer = unit("A", "allies", "armor", 5, 11, 3, badges=["tank_destroyer"])
    answer = ok(resolve(client, [destroyer, unit("T", "axis", "armor", 4, 12, 2)], {"star": 1, "armor": 1}))
    assert answer["dice"] == 2 and answer["hits"] == 2 and answer["eliminated"]
    assert face(answer, "star")["rule"] == "tank_destroyer"


def test_stars_hit_a_tank_destroyer_from_an_armor_attacker(client: FlaskClient) -> None:
    target = unit("T", "axis", "armor", 4, 12, 3, badges=["tank_destroyer"])
    answer = ok(resolve(client, [ATTACKER_ARMOR, target], {"star": 1, "infantry": 2}))
    assert face(answer, "star")["hits"] == 1 and face(answer, "star")["rule"] == "tank_destroyer"


def test_machine_gun_stars_hit_infantry_only_when_it_did_not_move(client: FlaskClient) -> None:
    target = unit("T", "axis", "infantry", 4, 12, 4)
    still = unit("A", "allies", "infantry", 5, 11, 4, badges=["machine_gun"])
    moved = {**still, "moved": 1}
    dice = ok(client.post("/api/v1/battle", json={**BOTTOM, "units": [still, target], "attacker": "A",
                                                   "target": "T"}))["dice"]
    rolled = {"star": 1, "armor": dice - 1}
    assert face(ok(resolve(client, [still, target], rolled)), "star")["hits"] == 1
    dice_moved = ok(client.post("/api/v1/battle", json={**BOTTOM, "units": [moved, target], "attacker": "A",
                                                         "target": "T"}))
    if dice_moved["legal"]:
        answer = ok(resolve(client, [moved, target], {"star": 1, "armor": dice_moved["dice"] - 1}))
        assert face(answer, "star")["hits"] == 0


def test_reduced_visibility_turns_symbols_off_beyond_close_assault_but_grenades_hit(client: FlaskClient) -> None:
    shooter = unit("A", "allies", "armor", 6, 12, 3)
    answer = ok(resolve(client, [shooter, unit("T", "axis", "infantry", 4, 12, 4)], {"infantry": 2, "grenade": 1},
                        rules=["reduced_visibility"]))
    assert answer["hits"] == 1
    assert face(answer, "infantry")["rule"] == "reduced_visibility" and face(answer, "infantry")["hits"] == 0


def test_more_hits_than_figures_lose_only_the_figures_left(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 2)],
                        {"infantry": 2, "grenade": 1}))
    assert answer["hits"] == 3 and answer["figures_lost"] == 2 and answer["eliminated"]
    assert answer["vacated"] == "eliminated"


# --- flags ignored: terrain, obstacles, badges, nations, cards ------------------------------------

@pytest.mark.parametrize(("hexes", "target_extra", "source"), [
    ([{"row": 4, "col": 12, "obstacle": "sandbags"}], {}, "sandbags"),
    ([{"row": 4, "col": 12, "terrain": "church"}], {}, "church"),
    ([], {"badges": ["heroic_leader"]}, "heroic_leader"),
])
def test_one_flag_may_be_ignored(client: FlaskClient, hexes: list[dict[str, Any]], target_extra: dict[str, Any],
                                 source: str) -> None:
    target = unit("T", "axis", "infantry", 4, 12, 4, **target_extra)
    battle = ok(client.post("/api/v1/battle", json={**BOTTOM, "hexes": hexes, "units": [ATTACKER_INF, target],
                                                    "attacker": "A", "target": "T"}))
    answer = ok(resolve(client, [ATTACKER_INF, target], {"flag": 1, "star": battle["dice"] - 1}, hexes))
    assert answer["flags"] == 1 and answer["flags_ignored"] == 1 and answer["flags_must_ignore"] == 0
    assert answer["flags_to_retreat"] == 0 and answer["retreat"]["moves_required"] == 0
    assert answer["vacated"] == "owner_choice" and answer["take_ground"] is False
    assert answer["take_ground_if_vacated"] is True
    assert any(s["rule"] == source for s in answer["steps"])


def test_bitter_resistance_played_on_the_target_lets_it_ignore_a_flag(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], {"flag": 2, "star": 1},
                        combat_card="bitter_resistance"))
    assert answer["flags_ignored"] == 1 and answer["flags_to_retreat"] == 1
    assert answer["retreat"]["moves_required"] == 1
    assert any(s["rule"] == "bitter_resistance" for s in answer["steps"])


def test_japanese_infantry_must_ignore_one_flag(client: FlaskClient) -> None:
    target = unit("T", "axis", "infantry", 4, 12, 4, nation="japanese")
    answer = ok(resolve(client, [ATTACKER_INF, target], {"flag": 2, "star": 1}))
    assert answer["flags_ignored"] == 1 and answer["flags_must_ignore"] == 1
    assert answer["flags_to_retreat"] == 1 and answer["vacated"] == "retreated"
    assert any(s["rule"] == "imperial_japanese_army" and "must" in s["text"] for s in answer["steps"])


def test_italian_artillery_may_ignore_a_flag(client: FlaskClient) -> None:
    target = unit("T", "axis", "artillery", 4, 12, 2, nation="italian")
    answer = ok(resolve(client, [ATTACKER_INF, target], {"flag": 1, "star": 2}))
    assert answer["flags_ignored"] == 1 and answer["flags_must_ignore"] == 0
    assert any(s["rule"] == "italian_royal_army" for s in answer["steps"])


def test_a_fortress_ignores_every_flag(client: FlaskClient) -> None:
    hexes = [{"row": 4, "col": 12, "terrain": "fortress"}]
    target = unit("T", "axis", "infantry", 4, 12, 4)
    battle = ok(client.post("/api/v1/battle", json={**BOTTOM, "hexes": hexes, "units": [ATTACKER_ARMOR, target],
                                                    "attacker": "A", "target": "T"}))
    answer = ok(resolve(client, [ATTACKER_ARMOR, target], {"flag": battle["dice"]}, hexes))
    assert answer["flags_ignored"] == battle["dice"] and answer["flags_to_retreat"] == 0


# --- retreats, eliminations, ground --------------------------------------------------------------

def test_flag_makes_the_target_retreat_and_the_close_assaulting_infantry_take_ground(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)],
                        {"flag": 1, "infantry": 1, "star": 1}))
    assert answer["figures_lost"] == 1 and answer["flags_to_retreat"] == 1
    assert answer["retreat"]["moves_required"] == 1 and answer["retreat"]["min_figures_lost"] == 0
    assert {(o["end"]["row"], o["end"]["col"]) for o in answer["retreat"]["options"]} == {(3, 11), (3, 13)}
    assert answer["vacated"] == "retreated" and answer["take_ground"] is True and answer["overrun"] is False
    rules = [s["rule"] for s in answer["steps"]]
    assert rules.index("resolving_hits") < rules.index("retreat") < rules.index("take_ground")


def test_blocked_retreat_costs_a_figure_per_move_not_made(client: FlaskClient) -> None:
    units = [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4),
             unit("X", "axis", "infantry", 3, 11, 4), unit("Y", "axis", "infantry", 3, 13, 4)]
    answer = ok(resolve(client, units, {"flag": 2, "star": 1}))
    assert answer["retreat"]["moves_required"] == 2 and answer["retreat"]["min_figures_lost"] == 2
    assert answer["figures_lost"] == 2 and answer["figures_left"] == 2 and not answer["eliminated"]
    assert answer["vacated"] == "held" and answer["take_ground"] is False
    assert any("not made" in s["text"] for s in answer["steps"])


def test_retreat_off_the_board_edge_costs_figures_and_can_eliminate(client: FlaskClient) -> None:
    units = [unit("A", "allies", "infantry", 1, 11, 4), unit("T", "axis", "infantry", 0, 12, 2)]
    answer = ok(resolve(client, units, {"flag": 1, "grenade": 1, "star": 1}))
    assert answer["figures_lost_to_hits"] == 1 and answer["retreat"]["min_figures_lost"] == 1
    assert answer["figures_lost"] == 2 and answer["eliminated"] and answer["vacated"] == "eliminated"
    assert answer["take_ground"] is True
    assert any(s["rule"] == "medals" for s in answer["steps"])


def test_artillery_in_a_bunker_loses_a_figure_for_the_flag_it_cannot_ignore(client: FlaskClient) -> None:
    hexes = [{"row": 4, "col": 12, "obstacle": "bunker"}]
    target = unit("T", "axis", "artillery", 4, 12, 2)
    dice = ok(client.post("/api/v1/battle", json={**BOTTOM, "hexes": hexes, "units": [ATTACKER_INF, target],
                                                  "attacker": "A", "target": "T"}))["dice"]
    answer = ok(resolve(client, [ATTACKER_INF, target], {"flag": 2, "star": dice - 2}, hexes))
    assert answer["flags_ignored"] == 1 and answer["flags_to_retreat"] == 1
    assert answer["retreat"]["min_figures_lost"] == 1 and answer["figures_lost"] == 1 and not answer["eliminated"]
    # ignoring the bunker's flag is optional: not ignoring it costs both figures and empties the hex
    assert answer["vacated"] == "owner_choice" and answer["take_ground"] is False


def test_a_retreat_onto_a_frozen_river_says_it_rolls_for_losses(client: FlaskClient) -> None:
    hexes = [{"row": 3, "col": 11, "terrain": "frozen_river"}, {"row": 3, "col": 13, "terrain": "frozen_river"}]
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], {"flag": 1, "star": 2},
                        hexes))
    assert answer["vacated"] == "retreated" and answer["figures_lost"] == 0
    assert all(o["entry_risks"] for o in answer["retreat"]["options"])
    assert any(s["rule"] == "frozen_river" for s in answer["steps"])


def test_flags_do_nothing_once_the_hits_eliminate_the_target(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 1)], {"grenade": 1, "flag": 2}))
    assert answer["eliminated"] and answer["figures_lost"] == 1
    assert any("no effect" in s["text"] for s in answer["steps"])


def test_armor_that_eliminates_in_close_assault_takes_ground_and_overruns(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_ARMOR, unit("T", "axis", "infantry", 4, 12, 2)], {"infantry": 2,
                                                                                             "star": 1}))
    assert answer["eliminated"] and answer["take_ground"] is True and answer["overrun"] is True
    assert any(s["rule"] == "armor_overrun" for s in answer["steps"])


def test_an_overrun_battle_takes_ground_but_makes_no_second_overrun(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_ARMOR, unit("T", "axis", "infantry", 4, 12, 2)], {"infantry": 2,
                                                                                             "star": 1},
                        overrun_battle=True))
    assert answer["take_ground"] is True and answer["overrun"] is False


def test_no_ground_is_taken_after_firing_at_range(client: FlaskClient) -> None:
    shooter = unit("A", "allies", "armor", 6, 12, 3)
    answer = ok(resolve(client, [shooter, unit("T", "axis", "infantry", 4, 12, 1)], {"infantry": 1, "star": 2}))
    assert answer["eliminated"] and answer["take_ground"] is False and answer["take_ground_if_vacated"] is False


def test_a_target_that_keeps_its_hex_gives_no_ground(client: FlaskClient) -> None:
    answer = ok(resolve(client, [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], {"star": 3}))
    assert answer["vacated"] == "held" and answer["take_ground"] is False and answer["advance"] is None


def test_every_step_cites_a_rule_page_that_exists(client: FlaskClient, rulebook: Rulebook) -> None:
    units = [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 2), unit("X", "axis", "armor", 3, 11, 3)]
    answer = ok(resolve(client, units, {"flag": 1, "grenade": 1}, [{"row": 4, "col": 12, "obstacle": "sandbags"}]))
    assert answer["steps"]
    for step in answer["steps"] + answer["hits_by_face"]:
        kind = rulebook.kinds[step["rule"]]
        assert client.get(f"/rules/{kind}/{step['rule']}").status_code == 200


def test_illegal_battle_answers_legal_false_with_why_not(client: FlaskClient) -> None:
    far = unit("A", "allies", "infantry", 8, 0, 4)
    answer = ok(resolve(client, [far, unit("T", "axis", "infantry", 0, 24, 4)], {"grenade": 1}))
    assert answer["legal"] is False and answer["why_not"] and answer["hits"] == 0
    assert answer["take_ground"] is False and answer["hits_by_face"] == []


# --- bad rolls -----------------------------------------------------------------------------------

@pytest.mark.parametrize("rolled", [
    None, [], "grenade", {"skull": 1}, {"grenade": -1}, {"grenade": 1.5}, {"grenade": "1"}, {"grenade": True},
    {"grenade": openapi.MAX_ROLLED + 1}, {"grenade": 1}, {"grenade": 4}, {},
])
def test_a_bad_roll_is_a_400_naming_rolled(client: FlaskClient, rolled: Any) -> None:
    body = {**BOTTOM, "units": [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], "attacker": "A",
            "target": "T"}
    if rolled is not None:
        body["rolled"] = rolled
    response = client.post("/api/v1/resolve", json=body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["field"] == "rolled"


def test_resolve_and_fire_map_are_in_the_openapi_document(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert {"/api/v1/resolve", "/api/v1/fire-map"} <= set(doc["paths"])
    request = doc["components"]["schemas"]["ResolveRequest"]
    assert request["required"] == ["units", "attacker", "target", "rolled"]
    one_roll, group_rolls = request["properties"]["rolled"]["oneOf"]  # one roll, or one per unit of a card's group
    assert set(one_roll["properties"]) == {"infantry", "armor", "grenade", "star", "flag"}
    assert group_rolls["items"] == one_roll


# --- property: consistent with /battle, never a server error -------------------------------------

TYPES = {"infantry": 4, "armor": 3, "artillery": 2, "half_track": 2, "sniper": 1, "cavalry": 2,
         "supply_truck": 2}
BADGES = {"infantry": [None, None, "heroic_leader", "machine_gun", "special_forces"],
          "armor": [None, None, "tank_destroyer", "elite_armor"], "artillery": [None, None, "mobile_artillery"]}
TERRAINS = [None, None, None, "forest", "town", "hill", "church", "fortress", "ravine", "frozen_river"]
OBSTACLES = [None, None, None, "sandbags", "wire", "bunker", "hedgehog"]
CENTRE = [(r, c) for r in range(1, 8) for c in range(4, 21) if (r + c) % 2 == 0]


@st.composite
def battles(draw: Any) -> dict[str, Any]:
    spots = draw(st.lists(st.sampled_from(CENTRE), min_size=2, max_size=7, unique=True))
    units = []
    for i, (row, col) in enumerate(spots):
        kind = draw(st.sampled_from(sorted(TYPES)))
        extra: dict[str, Any] = {}
        if kind in ("infantry", "artillery") and draw(st.booleans()):
            extra["nation"] = draw(st.sampled_from(["japanese", "british", "italian", "french_resistance"]))
        badge = draw(st.sampled_from(BADGES.get(kind, [None])))
        if badge:
            extra["badges"] = [badge]
        units.append(unit("A" if i == 0 else "T" if i == 1 else f"U{i}",
                          "allies" if i == 0 else "axis" if i == 1 else draw(st.sampled_from(["allies", "axis"])),
                          kind, row, col, draw(st.integers(1, TYPES[kind])), moved=draw(st.sampled_from([0, 0, 1])),
                          start_figures=TYPES[kind], **extra))
    hexes = []
    for row, col in draw(st.lists(st.sampled_from(CENTRE), max_size=8, unique=True)):
        terrain, obstacle = draw(st.sampled_from(TERRAINS)), draw(st.sampled_from(OBSTACLES))
        if terrain or obstacle:
            hexes.append({"row": row, "col": col, "terrain": terrain, "obstacle": obstacle})
    return {"board": "standard", "bottom_side": draw(st.sampled_from(["allies", "axis"])), "hexes": hexes,
            "units": units, "attacker": "A", "target": "T",
            "rules": draw(st.sampled_from([[], [], ["reduced_visibility"], ["winter_weather"]])),
            "card": draw(st.sampled_from([None, None, "armor_assault", "close_assault", "their_finest_hour"])),
            "combat_card": draw(st.sampled_from([None, None, "bitter_resistance"])),
            "overrun_battle": draw(st.sampled_from([False, False, True]))}


FACES = ["infantry", "armor", "grenade", "star", "flag"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=battles(), data=st.data())
def test_resolve_agrees_with_battle_for_every_roll_that_adds_up(app: Flask, rulebook: Rulebook, doc: dict[str, Any],
                                                                data: Any) -> None:
    client = app.test_client()
    battle = client.post("/api/v1/battle", json=doc)
    if battle.status_code == 400:  # a unit on a hex it may not stand on: a situation error, not ours
        assert client.post("/api/v1/resolve", json={**doc, "rolled": {}}).status_code == 400
        event("situation refused")
        return
    battle_answer = ok(battle)
    event("legal battle" if battle_answer["legal"] else "illegal battle")
    dice = battle_answer["dice"]
    cuts = sorted(data.draw(st.lists(st.integers(0, dice), min_size=len(FACES) - 1, max_size=len(FACES) - 1)))
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, dice], strict=True)]
    rolled = dict(zip(FACES, counts, strict=True))
    response = client.post("/api/v1/resolve", json={**doc, "rolled": rolled})
    assert response.status_code < 500
    if not battle_answer["legal"]:
        answer = ok(response)
        assert answer["legal"] is False and answer["why_not"] == battle_answer["why_not"]
        return
    answer = ok(response)
    assert answer["legal"] and answer["dice"] == dice and answer["hit_symbols"] == battle_answer["hit_symbols"]
    assert answer["breakdown"] == battle_answer["breakdown"]
    assert answer["hits"] == sum(n for f, n in rolled.items() if f in battle_answer["hit_symbols"])
    assert answer["flags"] == rolled["flag"]
    assert answer["flags_ignored"] == min(answer["flags"], battle_answer["flags_ignored"])
    assert answer["flags_to_retreat"] == answer["flags"] - answer["flags_ignored"]
    figures = battle_answer["target"]["figures"]
    assert answer["figures_lost"] <= figures and answer["eliminated"] == (answer["figures_lost"] == figures)
    assert answer["figures_lost"] >= min(figures, answer["hits"])
    if answer["take_ground"]:
        assert battle_answer["take_ground"] and answer["vacated"] in ("eliminated", "retreated")
    for step in answer["steps"]:
        assert step["rule"] in rulebook.kinds
    # a roll that does not add up is refused, naming the field
    wrong = {**rolled, "grenade": rolled["grenade"] + 1}
    refused = client.post("/api/v1/resolve", json={**doc, "rolled": wrong})
    assert refused.status_code == 400 and refused.get_json()["error"]["field"] == "rolled"


def test_resolve_and_fire_map_answers_match_their_openapi_schemas(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    units = [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 2), unit("X", "axis", "armor", 3, 11, 3)]
    body = {**BOTTOM, "hexes": [{"row": 4, "col": 12, "obstacle": "sandbags"}], "units": units,
            "attacker": "A", "target": "T", "rolled": {"flag": 1, "grenade": 1}}
    validate(body, schemas["ResolveRequest"], doc)
    validate(ok(client.post("/api/v1/resolve", json=body)), schemas["Resolve"], doc)
    illegal = {**body, "units": [unit("A", "allies", "infantry", 8, 0, 4), unit("T", "axis", "infantry", 0, 24, 4)]}
    validate(ok(client.post("/api/v1/resolve", json=illegal)), schemas["Resolve"], doc)
    whole = {**BOTTOM, "units": units}
    validate(whole, schemas["FireMapRequest"], doc)
    validate(ok(client.post("/api/v1/fire-map", json=whole)), schemas["FireMap"], doc)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=False)
                           | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolled=st.dictionaries(st.sampled_from([*FACES, "skull", ""]), JSON_VALUES, max_size=6) | JSON_VALUES)
def test_any_rolled_value_is_answered_or_refused_naming_rolled(app: Flask, rolled: Any) -> None:
    client = app.test_client()
    body = {**BOTTOM, "units": [ATTACKER_INF, unit("T", "axis", "infantry", 4, 12, 4)], "attacker": "A",
            "target": "T", "rolled": rolled}
    response = client.post("/api/v1/resolve", json=body)
    assert response.status_code in (200, 400), response.get_json()
    if response.status_code == 400:
        assert response.get_json()["error"]["field"] == "rolled"
    else:
        assert sum(rolled.values()) == 3 and set(rolled) <= set(FACES)
