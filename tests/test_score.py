"""``POST /api/v1/score`` (adjudicator/API.md): each side's medals with the rule each comes from.

Every victory entry of the content (temporary, permanent, at turn start, majority, last to occupy,
sole control, sudden death), every unit entry's medal exception (figures counted a few to a medal,
units that give none), exits, the count without a scenario, the game's end the moment a side has its
medals and both sides at their count at once, all through the API; the numbers the tests expect are
read from the content, not typed here. A property test checks that no situation makes it answer 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.rulebook import CoreRules, MarkerRules, Rulebook, UnitRules, VictoryRules
from adjudicator.engine.situation import MAX_MEDALS, SIDES

ALLIED_INF = {"id": "A", "side": "allies", "type": "infantry", "row": 4, "col": 10, "figures": 4}


def unit(uid: str, side: str, row: int, col: int, kind: str = "infantry", figures: int = 4) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col, "figures": figures}


def objective(row: int, col: int, kind: str, side: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"row": row, "col": col, "kind": kind, "side": side, **extra}


def score(client: FlaskClient, units: list[dict[str, Any]], scenario: dict[str, Any] | None = None,
          **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"units": units, **fields}
    if scenario is not None:
        body["scenario"] = scenario
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    for side in SIDES:  # every medal is listed with its rule, and a side's sources add up to its medals
        assert sum(s["medals"] for s in answer["sources"] if s["side"] == side) == answer["medals"][side]
    return answer


def sources(answer: dict[str, Any], side: str, rule: str | None = None) -> list[dict[str, Any]]:
    return [s for s in answer["sources"] if s["side"] == side and (rule is None or s["rule"] == rule)]


def usual_count(rulebook: Rulebook) -> int:
    medals = rulebook.rules["medals"]
    assert isinstance(medals, CoreRules) and medals.medals_to_win
    return medals.medals_to_win


def victory(rulebook: Rulebook, kind: str) -> VictoryRules:
    rules = rulebook.rules[kind]
    assert isinstance(rules, VictoryRules)
    return rules


# -- the count -------------------------------------------------------------------------------------

def test_without_a_scenario_each_side_needs_the_usual_count_and_the_answer_says_so(client, rulebook):
    answer = score(client, [ALLIED_INF])
    assert answer["needed"] == {"allies": usual_count(rulebook), "axis": usual_count(rulebook)}
    assert answer["medals"] == {"allies": 0, "axis": 0} and answer["winner"] is None
    note = next(n for n in answer["notes"] if n["code"] == "score.usual_count")
    assert note["rule"] == "medals" and note["fact"] == "medals_to_win" and str(usual_count(rulebook)) in note["text"]


def test_the_scenario_sets_the_medals_each_side_needs(client):
    answer = score(client, [ALLIED_INF], {"medals_to_win": {"allies": 4, "axis": 7}})
    assert answer["needed"] == {"allies": 4, "axis": 7}
    assert not any(n["code"] == "score.usual_count" for n in answer["notes"])


def test_an_eliminated_unit_gives_the_enemy_one_medal(client):
    answer = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": "infantry"},
                                                     {"side": "axis", "type": "armor"}])
    assert answer["medals"] == {"allies": 2, "axis": 0}
    assert {s["text"] for s in sources(answer, "allies", "medals")} == {"Axis Infantry eliminated",
                                                                        "Axis Armor eliminated"}


def test_figures_lost_by_a_unit_still_on_the_board_give_no_medal(client):
    answer = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": "infantry", "figures": 3,
                                                      "eliminated": False}])
    assert answer["medals"] == {"allies": 0, "axis": 0}


def test_medals_given_from_outside_are_counted_with_their_own_source(client):
    answer = score(client, [ALLIED_INF], medals={"allies": 2})
    assert answer["medals"]["allies"] == 2
    assert sources(answer, "allies")[0]["code"] == "score.given"


def test_the_game_ends_mid_turn_the_moment_a_side_has_its_medals(client, rulebook):
    """Core ``medals`` ``game_ends_at_once``: the count reached in the middle of a turn (``when: now``)
    ends the game there, before the player's next battle."""
    assert rulebook.rules["medals"].game_ends_at_once  # type: ignore[attr-defined]
    answer = score(client, [ALLIED_INF], {"medals_to_win": {"allies": 2, "axis": 6}}, side="allies",
                   casualties=[{"side": "axis", "type": "infantry"}, {"side": "axis", "type": "armor"}])
    assert answer["winner"] == "allies" and answer["game_over"] is True
    assert answer["decided_by"]["code"] == "score.won" and answer["decided_by"]["rule"] == "medals"
    ends = next(n for n in answer["notes"] if n["code"] == "score.ends_at_once")
    assert ends["fact"] == "game_ends_at_once" and "middle of a turn" in ends["text"]


def test_a_side_one_medal_short_has_not_won(client):
    answer = score(client, [ALLIED_INF], {"medals_to_win": {"allies": 3, "axis": 6}},
                   casualties=[{"side": "axis", "type": "infantry"}, {"side": "axis", "type": "armor"}])
    assert answer["winner"] is None and answer["game_over"] is False


def test_simultaneous_reach_goes_to_the_side_whose_turn_it_is(client, rulebook):
    """No source decides both sides reaching their count at once: core ``medals``
    ``simultaneous_reach_winner`` gives it to the side whose turn it is."""
    assert rulebook.rules["medals"].simultaneous_reach_winner == "side_in_turn"  # type: ignore[attr-defined]
    situation = {"units": [ALLIED_INF], "scenario": {"medals_to_win": {"allies": 1, "axis": 1}},
                 "casualties": [{"side": "axis", "type": "infantry"}, {"side": "allies", "type": "armor"}]}
    for side in SIDES:
        answer = score(client, **{**situation, "side": side})
        assert answer["medals"] == {"allies": 1, "axis": 1}
        assert answer["winner"] == side
        assert answer["decided_by"]["fact"] == "simultaneous_reach_winner"


def test_simultaneous_reach_without_the_side_in_turn_names_no_winner(client):
    answer = score(client, [ALLIED_INF], {"medals_to_win": {"allies": 1, "axis": 1}},
                   casualties=[{"side": "axis", "type": "infantry"}, {"side": "allies", "type": "armor"}])
    assert answer["winner"] is None
    assert any(n["code"] == "score.both_at_count" and "side" in n["text"] for n in answer["notes"])


# -- unit medal exceptions -------------------------------------------------------------------------

def figure_units(rulebook: Rulebook) -> list[str]:
    return [u for u in rulebook.ids_of_kind("unit") if rulebook.unit(u).figures_per_medal]


def test_half_track_and_supply_truck_figures_count_three_to_a_medal_eliminated_or_not(client, rulebook):
    """Half-Tracks rules / Supply Trucks rules, Medals: each destroyed figure goes on a stand until
    there are enough for a medal (``figures_per_medal``), whether or not its unit was wiped out."""
    kinds = figure_units(rulebook)
    assert {"half_track", "supply_truck"} <= set(kinds)
    for kind in kinds:
        per = rulebook.unit(kind).figures_per_medal
        assert per and per > 1
        short = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": kind, "figures": per - 1,
                                                         "eliminated": False}])
        assert short["medals"]["allies"] == 0
        stand = next(n for n in short["notes"] if n["code"] == "score.figures_on_stand")
        assert stand["rule"] == kind and stand["params"]["more"] == 1
        full = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": kind, "figures": per - 1,
                                                        "eliminated": False},
                                                       {"side": "axis", "type": kind, "figures": 1}])
        assert full["medals"]["allies"] == 1
        source = sources(full, "allies", kind)[0]
        assert source["fact"] == "figures_per_medal" and source["params"]["figures"] == per


def test_half_track_figures_are_gathered_apart_from_supply_truck_figures(client, rulebook):
    kinds = figure_units(rulebook)
    casualties = [{"side": "axis", "type": k, "figures": rulebook.unit(k).figures_per_medal - 1,  # type: ignore[operator]
                   "eliminated": False} for k in kinds]
    assert score(client, [ALLIED_INF], casualties=casualties)["medals"]["allies"] == 0


def test_every_unit_whose_entry_gives_no_medal_gives_none(client, rulebook):
    """Unit entries with ``medals_when_eliminated: 0`` (the Sniper) give the enemy nothing, and the
    answer says so with the entry's rule."""
    silent = [u for u in rulebook.ids_of_kind("unit") if rulebook.unit(u).medals_when_eliminated == 0]
    assert "sniper" in silent
    for kind in silent:
        answer = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": kind}])
        assert answer["medals"]["allies"] == 0
        note = next(n for n in answer["notes"] if n["code"] == "score.no_medal")
        assert note["rule"] == kind and note["fact"] == "medals_when_eliminated"


def test_every_unit_entry_gives_the_medals_its_entry_states(client, rulebook):
    """Each unit entry, eliminated whole: ``medals_when_eliminated`` medals, or its figures counted
    ``figures_per_medal`` to a medal."""
    for kind in rulebook.ids_of_kind("unit"):
        rules = rulebook.unit(kind)
        answer = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": kind}])
        expected = rules.figures // rules.figures_per_medal if rules.figures_per_medal else rules.medals_when_eliminated
        assert answer["medals"]["allies"] == expected, kind


def test_a_heroic_leaders_medal_is_left_to_the_roll_and_the_answer_says_so(client):
    answer = score(client, [ALLIED_INF], casualties=[{"side": "axis", "type": "infantry", "badges": ["heroic_leader"]}])
    assert answer["medals"]["allies"] == 1
    assert any(n["code"] == "score.heroic_leader" and n["rule"] == "heroic_leader" for n in answer["notes"])


# -- exits -------------------------------------------------------------------------------------------

def exit_medals(rulebook: Rulebook) -> int:
    marker = rulebook.rules["exit_marker"]
    assert isinstance(marker, MarkerRules) and marker.medals_per_exit is not None
    return marker.medals_per_exit


def test_a_unit_leaving_by_an_exit_gives_its_own_side_the_exit_markers_medal(client, rulebook):
    scenario = {"exits": [{"row": 0, "col": 10, "side": "allies"}]}
    answer = score(client, [ALLIED_INF], scenario, exited=[{"side": "allies", "type": "infantry",
                                                           "at": {"row": 0, "col": 10}}])
    assert answer["medals"] == {"allies": exit_medals(rulebook), "axis": 0}
    source = sources(answer, "allies", "exit_marker")[0]
    assert source["fact"] == "medals_per_exit" and source["params"]["at"]["hex"] == "F9"


def test_an_exit_worth_per_unit_class_follows_the_scenario(client):
    scenario = {"exits": [{"row": 0, "col": 10, "side": "allies", "medals": {"infantry": 2, "armor": 0}}]}
    left = [{"side": "allies", "type": t, "at": {"row": 0, "col": 10}} for t in ("infantry", "special_forces", "armor")]
    answer = score(client, [ALLIED_INF], scenario, exited=left)
    assert answer["medals"]["allies"] == 4  # infantry 2, special forces (infantry) 2, armor nothing
    assert [s["params"]["type"]["entry"] for s in sources(answer, "allies")] == ["infantry", "special_forces"]


def test_a_unit_must_have_left_by_an_exit_of_its_own_side(client):
    body = {"units": [ALLIED_INF], "scenario": {"exits": [{"row": 0, "col": 10, "side": "axis"}]},
            "exited": [{"side": "allies", "type": "infantry", "at": {"row": 0, "col": 10}}]}
    refused = client.post("/api/v1/score", json=body)
    assert refused.status_code == 400 and refused.get_json()["error"]["field"] == "exited[0].at"


# -- objectives ------------------------------------------------------------------------------------

def test_temporary_medal_is_held_while_a_unit_of_its_side_stands_on_the_hex(client, rulebook):
    assert victory(rulebook, "temporary_medal").temporary is True
    held = score(client, [ALLIED_INF], {"objectives": [objective(4, 10, "temporary_medal", "allies")]})
    assert held["medals"]["allies"] == 1
    source = sources(held, "allies", "temporary_medal")[0]
    assert source["text"] == "The Allies hold the Temporary Medal Objective at F5"
    assert held["objectives"][0]["holder"] == "allies" and held["objectives"][0]["held_by"] is None


def test_temporary_medal_is_lost_the_moment_its_unit_leaves(client):
    """Winter Wars, Temporary Medal Objective: vacating the hex for any reason loses the medal, whatever
    ``held_by`` says."""
    moved = {**ALLIED_INF, "row": 5, "col": 11}
    answer = score(client, [moved], {"objectives": [objective(4, 10, "temporary_medal", "allies", held_by="allies")]})
    assert answer["medals"]["allies"] == 0 and answer["objectives"][0]["holder"] is None


def test_temporary_medal_is_not_the_enemys_to_take(client):
    axis = unit("X", "axis", 4, 10)
    answer = score(client, [axis], {"objectives": [objective(4, 10, "temporary_medal", "allies")]})
    assert answer["medals"] == {"allies": 0, "axis": 0}


def test_an_objective_group_needs_the_hexes_the_scenario_names(client):
    hexes = [objective(4, c, "temporary_medal", "allies", group="town", hexes_needed=2) for c in (10, 12, 14)]
    one = score(client, [ALLIED_INF], {"objectives": hexes})
    two = score(client, [ALLIED_INF, unit("B", "allies", 4, 14)], {"objectives": hexes})
    assert one["medals"]["allies"] == 0 and two["medals"]["allies"] == 1
    assert two["objectives"][0]["occupied"] == {"allies": 2, "axis": 0}
    assert [h["hex"] for h in two["objectives"][0]["hexes"]] == ["F5", "G5", "H5"]


def test_permanent_medal_is_gained_when_a_unit_enters_and_kept_after_it_leaves(client, rulebook):
    """Winter Wars, Permanent Medal Objective: captured for good the moment a unit enters. The answer's
    ``held_by`` carried into the next situation keeps it after the unit moves on."""
    assert victory(rulebook, "permanent_medal").temporary is False
    scenario = {"objectives": [objective(4, 10, "permanent_medal", "allies")]}
    entered = score(client, [ALLIED_INF], scenario)
    assert entered["medals"]["allies"] == 1 and entered["objectives"][0]["held_by"] == "allies"
    scenario["objectives"][0]["held_by"] = entered["objectives"][0]["held_by"]
    left = score(client, [{**ALLIED_INF, "row": 5, "col": 11}, unit("X", "axis", 4, 10)], scenario)
    assert left["medals"]["allies"] == 1
    assert sources(left, "allies", "permanent_medal")[0]["code"] == "score.objective_gained"


def test_permanent_medal_turn_start_counts_only_at_the_start_of_its_sides_turn(client, rulebook):
    assert victory(rulebook, "permanent_medal_turn_start").turn_start
    scenario = {"objectives": [objective(4, 10, "permanent_medal_turn_start", "allies")]}
    during = score(client, [ALLIED_INF], scenario)
    assert during["medals"]["allies"] == 0
    assert any(n["code"] == "score.checked_at_turn_start" for n in during["notes"])
    axis_turn = score(client, [ALLIED_INF], scenario, when="turn_start", side="axis")
    assert axis_turn["medals"]["allies"] == 0
    own_turn = score(client, [ALLIED_INF], scenario, when="turn_start", side="allies")
    assert own_turn["medals"]["allies"] == 1 and own_turn["objectives"][0]["held_by"] == "allies"
    scenario["objectives"][0]["held_by"] = "allies"
    gone = score(client, [{**ALLIED_INF, "row": 5, "col": 11}], scenario, when="turn_start", side="allies")
    assert gone["medals"]["allies"] == 1  # gained for good


def test_temporary_majority_medal_needs_units_on_more_than_half_of_the_group(client, rulebook):
    """Winter Wars, Temporary Majority Medal Objective: an absolute majority of the group's hexes (read
    as more than half of them, whatever the enemy holds)."""
    assert victory(rulebook, "temporary_majority_medal").control == "absolute_majority"
    group = [objective(4, c, "temporary_majority_medal", None) for c in (10, 12, 14, 16)]  # no group name: one group
    two = score(client, [ALLIED_INF, unit("B", "allies", 4, 12)], {"objectives": group})
    three = score(client, [ALLIED_INF, unit("B", "allies", 4, 12), unit("C", "allies", 4, 14),
                           unit("X", "axis", 4, 16)], {"objectives": group})
    assert two["medals"]["allies"] == 0 and two["objectives"][0]["hexes_needed"] == 3
    assert three["medals"]["allies"] == 1 and len(three["objectives"]) == 1


def test_temporary_majority_medal_turn_start_is_held_through_the_turn_and_lost_at_a_turn_start_without_it(client):
    group = [objective(4, c, "temporary_majority_medal_turn_start", "allies", group="ridge") for c in (10, 12, 14)]
    majority = [ALLIED_INF, unit("B", "allies", 4, 12)]
    start = score(client, majority, {"objectives": group}, when="turn_start", side="allies")
    assert start["medals"]["allies"] == 1 and start["objectives"][0]["held_by"] == "allies"
    held = [{**o, "held_by": "allies"} for o in group]
    during = score(client, [ALLIED_INF], {"objectives": held})  # lost a hex during the turn: still held
    assert during["medals"]["allies"] == 1
    next_start = score(client, [ALLIED_INF], {"objectives": held}, when="turn_start", side="allies")
    assert next_start["medals"]["allies"] == 0 and next_start["objectives"][0]["held_by"] is None


def test_last_to_occupy_medal_stays_after_leaving_until_an_enemy_occupies(client, rulebook):
    """Winter Wars, Last to Occupy Medal Objective: either side (whatever side the scenario's token
    shows), kept after the unit leaves, taken by an enemy unit entering."""
    assert victory(rulebook, "last_to_occupy_medal").either_side
    scenario = {"objectives": [objective(4, 10, "last_to_occupy_medal", "axis")]}
    taken = score(client, [ALLIED_INF], scenario)
    assert taken["medals"]["allies"] == 1 and taken["objectives"][0]["held_by"] == "allies"
    scenario["objectives"][0]["held_by"] = "allies"
    left = score(client, [{**ALLIED_INF, "row": 5, "col": 11}], scenario)
    assert left["medals"]["allies"] == 1 and sources(left, "allies")[0]["code"] == "score.objective_kept"
    retaken = score(client, [unit("X", "axis", 4, 10)], scenario)
    assert retaken["medals"] == {"allies": 0, "axis": 1} and retaken["objectives"][0]["held_by"] == "axis"


def test_sole_control_medal_is_lost_when_an_enemy_unit_enters_the_group(client, rulebook):
    assert victory(rulebook, "sole_control_medal").control == "sole_control"
    group = [objective(4, c, "sole_control_medal", "allies", group="woods") for c in (10, 12, 14)]
    alone = score(client, [ALLIED_INF], {"objectives": group})
    shared = score(client, [ALLIED_INF, unit("X", "axis", 4, 14)], {"objectives": group})
    assert alone["medals"]["allies"] == 1 and shared["medals"]["allies"] == 0


def test_sudden_death_ends_the_game_at_once_whatever_the_medals(client, rulebook):
    assert victory(rulebook, "sudden_death").ends_game
    group = [objective(4, c, "sudden_death", "allies", group="bridges", hexes_needed=2) for c in (10, 12, 14)]
    one = score(client, [ALLIED_INF], {"objectives": group}, medals={"axis": 5})
    assert one["winner"] is None
    two = score(client, [ALLIED_INF, unit("B", "allies", 4, 14)], {"objectives": group}, medals={"axis": 5})
    assert two["winner"] == "allies" and two["game_over"] is True and two["medals"]["allies"] == 0
    assert two["decided_by"]["rule"] == "sudden_death" and two["decided_by"]["fact"] == "ends_game"


def test_every_victory_entry_is_counted_by_the_engine(client, rulebook):
    """Each victory entry of the content, as a one-hex objective with a unit of its side on it at the
    start of that side's turn: it gives its medal, or (sudden death) the game."""
    for kind in rulebook.ids_of_kind("victory"):
        answer = score(client, [ALLIED_INF], {"objectives": [objective(4, 10, kind, "allies")]},
                       when="turn_start", side="allies")
        if victory(rulebook, kind).ends_game:
            assert answer["winner"] == "allies", kind
        else:
            assert sources(answer, "allies", kind), kind


def test_every_reason_names_a_content_entry_whose_page_exists(client):
    answer = score(client, [ALLIED_INF, unit("X", "axis", 4, 12)],
                   {"medals_to_win": {"allies": 3}, "exits": [{"row": 0, "col": 10, "side": "allies"}],
                    "objectives": [objective(4, 10, k, "allies") for k in ("temporary_medal",)]
                    + [objective(4, 12, "sudden_death", "axis")]},
                   casualties=[{"side": "axis", "type": t} for t in ("half_track", "sniper", "infantry")]
                   + [{"side": "axis", "type": "infantry", "badges": ["heroic_leader"]}],
                   exited=[{"side": "allies", "type": "armor", "at": {"row": 0, "col": 10}}], medals={"axis": 1})
    reasons = [*answer["sources"], *answer["notes"], answer["decided_by"]]
    entries = {e["id"]: e["kind"] for e in client.get("/api/v1/rules").get_json()["entries"]}
    assert len({r["code"] for r in reasons}) >= 7
    for reason in reasons:
        assert reason["rule"] in entries, reason
        page = client.get(f"/rules/{entries[reason['rule']]}/{reason['rule']}")
        assert page.status_code == 200
        if "fact" in reason:
            assert reason["fact"] in client.get(f"/api/v1/rules/{entries[reason['rule']]}/{reason['rule']}").get_json()


# -- bad requests --------------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "field"), [
    ({"when": "dawn"}, "when"),
    ({"when": "turn_start"}, "side"),
    ({"side": "neutral"}, "side"),
    ({"medals": {"allies": -1}}, "medals.allies"),
    ({"medals": {"allies": MAX_MEDALS + 1}}, "medals.allies"),
    ({"medals": {"germans": 1}}, "medals.germans"),
    ({"scenario": {"objectives": [{"row": 4, "col": 10, "kind": "golden_medal"}]}}, "scenario.objectives[0].kind"),
    ({"scenario": {"objectives": [{"row": 4, "col": 11, "kind": "temporary_medal"}]}}, "scenario.objectives[0]"),
    ({"scenario": {"objectives": [objective(4, 10, "temporary_medal", "allies", held_by="axis")]}},
     "scenario.objectives[0].held_by"),
    ({"scenario": {"objectives": [objective(4, 10, "temporary_medal", group="g"),
                                  objective(4, 12, "permanent_medal", group="g")]}}, "scenario.objectives[1].kind"),
    ({"scenario": {"objectives": [objective(4, 10, "temporary_medal", group="g", hexes_needed=2)]}},
     "scenario.objectives[0].hexes_needed"),
    ({"scenario": {"objectives": [objective(4, 10, "temporary_medal"), objective(4, 10, "temporary_medal")]}},
     "scenario.objectives[1]"),
    ({"scenario": {"medals_to_win": {"allies": 0}}}, "scenario.medals_to_win.allies"),
    ({"scenario": {"medal_to_win": 6}}, "scenario.medal_to_win"),
    ({"scenario": {"options": ["night_attacks"]}}, "scenario.options[0]"),
    ({"scenario": {"options": ["free_beer"]}}, "scenario.options[0]"),
    ({"scenario": {"exits": [{"row": 0, "col": 10, "side": "allies", "medals": {"cavalry_horse": 1}}]}},
     "scenario.exits[0].medals.cavalry_horse"),
    ({"scenario": {"objectives": [objective(0, 0, "temporary_medal")] * 121}}, "scenario.objectives"),
    ({"casualties": [{"side": "axis", "type": "infantry", "figures": 2, "eliminated": False, "hexes": 1}]},
     "casualties[0].hexes"),
    ({"casualties": [{"side": "axis", "type": "infantry", "eliminated": False}]}, "casualties[0].figures"),
    ({"casualties": [{"side": "axis", "type": "dragon"}]}, "casualties[0].type"),
    ({"exited": [{"side": "axis", "type": "infantry"}]}, "exited[0].at"),
])
def test_a_bad_score_request_is_a_400_naming_the_field(client, fields, field):
    response = client.post("/api/v1/score", json={"units": [ALLIED_INF], **fields})
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["field"] == field


def test_a_saved_situation_keeps_its_scenario_casualties_and_exits(client):
    body = {"units": [ALLIED_INF], "scenario": {"medals_to_win": {"allies": 4, "axis": 5}, "first_player": "axis",
                                                "objectives": [objective(4, 10, "permanent_medal", "allies",
                                                                         held_by="allies")],
                                                "exits": [{"row": 0, "col": 10, "side": "allies"}],
                                                "options": ["us_marine_corps"]},
            "casualties": [{"side": "axis", "type": "infantry"}],
            "exited": [{"side": "allies", "type": "armor", "at": {"row": 0, "col": 10}}]}
    saved = client.post("/api/v1/situations", json=body)
    assert saved.status_code == 201, saved.get_json()
    again = client.get(saved.get_json()["api_url"]).get_json()["situation"]
    assert {k: again[k] for k in ("scenario", "casualties", "exited")} == {k: body[k] for k in
                                                                           ("scenario", "casualties", "exited")}
    assert score(client, **{k: again[k] for k in ("units", "scenario", "casualties", "exited")})["medals"] == \
        {"allies": 3, "axis": 0}


def test_the_openapi_document_states_the_parsers_limits(client):
    from adjudicator.engine import situation as limits
    doc = client.get("/api/v1/openapi.json").get_json()
    props = doc["components"]["schemas"]["ScoreRequest"]["properties"]
    scenario = props["scenario"]["properties"]
    assert scenario["objectives"]["maxItems"] == limits.MAX_OBJECTIVES
    assert scenario["exits"]["maxItems"] == limits.MAX_EXITS
    assert scenario["options"]["maxItems"] == limits.MAX_OPTIONS
    assert scenario["medals_to_win"]["properties"]["allies"]["maximum"] == limits.MAX_MEDALS
    assert scenario["cards"]["properties"]["axis"]["maximum"] == limits.MAX_CARDS
    assert scenario["objectives"]["items"]["properties"]["group"]["maxLength"] == limits.MAX_GROUP_NAME
    assert props["casualties"]["maxItems"] == limits.MAX_CASUALTIES
    assert props["exited"]["maxItems"] == limits.MAX_EXITED
    request = doc["components"]["schemas"]["ScoreRequest"]["properties"]
    assert request["medals"]["properties"]["allies"]["maximum"] == limits.MAX_MEDALS


# -- never a server error -------------------------------------------------------------------------

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=6),
                 st.lists(st.integers(), max_size=2))


def mostly(good: Any) -> Any:
    """``good`` most of the time, junk now and then: most bodies are counted, some are refused."""
    return st.integers(0, 39).flatmap(lambda roll: JUNK if roll == 0 else good)


SIDE = mostly(st.sampled_from(["allies", "axis", None]))
ARMY = mostly(st.sampled_from(SIDES))
SPOTS = st.sampled_from([(r, c) for r in (3, 4, 5) for c in range(8, 15) if (r + c) % 2 == 0])


@st.composite
def score_bodies(draw: Any, kinds: list[str], units: list[str]) -> dict[str, Any]:
    """A ``/score`` request: a few units, objectives, exits, casualties and exited units around the
    centre of the board, each field right most of the time."""
    objectives = []
    for number in range(draw(st.integers(0, 3))):  # a few objectives, each one hex or a group of them
        kind, side = draw(mostly(st.sampled_from(kinds))), draw(SIDE)
        shared = {"kind": kind, "side": side, "medals": draw(mostly(st.integers(1, 2))),
                  "held_by": draw(st.sampled_from([None, side])), "group": f"g{number}"}
        spots = draw(st.lists(SPOTS, min_size=1, max_size=3, unique=True))
        shared["hexes_needed"] = draw(st.one_of(st.none(), mostly(st.integers(1, len(spots)))))
        objectives += [{"row": row, "col": col, **shared} for row, col in spots]
    worth = st.one_of(st.integers(0, 3), st.dictionaries(st.sampled_from(["infantry", "armor", "tank"]),
                                                         st.integers(0, 3), max_size=2))
    exits = draw(st.lists(st.fixed_dictionaries({"row": st.just(0), "col": st.sampled_from([8, 10, 12]), "side": ARMY},
                                                optional={"medals": mostly(worth)}), max_size=3))
    listed = {"objectives": st.just(objectives), "exits": st.just(exits)}
    scenario = draw(mostly(st.fixed_dictionaries(listed, optional={
        "medals_to_win": mostly(st.fixed_dictionaries({}, optional={"allies": st.integers(1, 9),
                                                                    "axis": st.integers(1, 9)})),
        "options": st.lists(mostly(st.sampled_from(["us_marine_corps", "capture_hq"])), max_size=2, unique_by=str)})))
    lost = st.fixed_dictionaries({"side": ARMY, "type": mostly(st.sampled_from(units))}, optional={
        "figures": mostly(st.integers(1, 4)), "eliminated": mostly(st.booleans()),
        "badges": st.lists(st.sampled_from(["heroic_leader", "camouflage"]), max_size=1)})
    gates = [e for e in exits if e["side"] in SIDES]
    left = st.tuples(st.sampled_from(gates), mostly(st.sampled_from(units))).map(
        lambda pair: {"side": pair[0]["side"], "type": pair[1], "at": {"row": pair[0]["row"], "col": pair[0]["col"]}})
    units_on_board = [{"id": f"u{i}", "side": draw(st.sampled_from(SIDES)),
                       "type": draw(st.sampled_from(["infantry", "armor"])), "row": row, "col": col,
                       "figures": draw(st.integers(1, 3))}
                      for i, (row, col) in enumerate(draw(st.lists(SPOTS, max_size=3, unique=True)))]
    return {"units": units_on_board, "scenario": scenario, "casualties": draw(st.lists(lost, max_size=3)),
            "exited": draw(st.lists(left, max_size=2)) if gates else [],
            "when": draw(mostly(st.sampled_from(["now", "turn_start", "turn_end"]))), "side": draw(SIDE),
            "medals": draw(mostly(st.fixed_dictionaries({}, optional={"allies": st.integers(0, 3)})))}


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_score_never_answers_a_server_error(app, rulebook, data):
    body = data.draw(score_bodies(rulebook.ids_of_kind("victory"), ["infantry", "half_track", "sniper", "armor"]))
    with app.test_client() as client:
        response = client.post("/api/v1/score", json=body)
    assert response.status_code in (200, 400), (body, response.get_json())
    answer = response.get_json()
    if response.status_code == 200:
        for side in SIDES:
            assert sum(s["medals"] for s in answer["sources"] if s["side"] == side) == answer["medals"][side]
        assert answer["winner"] in (None, *SIDES)
    else:
        assert answer["error"]["field"]


def test_the_content_sets_each_unit_medal_field(rulebook):
    """The fields the count reads exist in the content as the tests above expect (a guard against
    testing defaults): at least one unit entry sets each medal field."""
    units = [rulebook.unit(u) for u in rulebook.ids_of_kind("unit")]
    assert all(isinstance(u, UnitRules) for u in units)
    assert any(u.medals_when_eliminated != 1 for u in units) and any(u.figures_per_medal for u in units)


# -- what a roll changes (/resolve) -----------------------------------------------------------------

ATTACKER = {"id": "A", "side": "allies", "type": "infantry", "row": 5, "col": 11, "figures": 4}


def resolve(client: FlaskClient, target: dict[str, Any], rolled: dict[str, int], scenario: dict[str, Any] | None,
            units: tuple[dict[str, Any], ...] = (), **fields: Any) -> dict[str, Any]:
    body = {"units": [ATTACKER, target, *units], "attacker": "A", "target": target["id"], "rolled": rolled, **fields}
    if scenario is not None:
        body["scenario"] = scenario
    response = client.post("/api/v1/resolve", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def outcome(answer: dict[str, Any], after: str) -> dict[str, Any]:
    return next(o for o in answer["score"]["outcomes"] if o["after"] == after)


def test_a_roll_that_eliminates_the_last_unit_needed_wins_the_game_at_once(client):
    target = unit("T", "axis", 4, 10, figures=1)
    answer = resolve(client, target, {"infantry": 1, "grenade": 1, "star": 1},
                     {"medals_to_win": {"allies": 2}}, casualties=[{"side": "axis", "type": "armor"}])
    assert answer["score"]["before"]["medals"]["allies"] == 1
    roll = outcome(answer, "roll")
    assert roll["medals"]["allies"] == 2 and roll["winner"] == "allies" and roll["game_over"] is True
    codes = [c["code"] for c in roll["changes"]]
    assert codes == ["score.roll_gains", "score.roll_wins", "score.ends_at_once"]
    assert all(c in answer["steps"] for c in roll["changes"])  # told at the end of the resolution
    assert not any(o["after"] == "take_ground" for o in answer["score"]["outcomes"])  # the game is over


def test_a_retreat_off_a_temporary_objective_loses_its_medal(client):
    target = unit("T", "axis", 4, 10)
    scenario = {"objectives": [objective(4, 10, "temporary_medal", "axis")]}
    answer = resolve(client, target, {"star": 2, "flag": 1}, scenario)
    assert answer["vacated"] == "retreated"
    assert answer["score"]["before"]["medals"]["axis"] == 1
    roll = outcome(answer, "roll")
    assert roll["medals"]["axis"] == 0
    lost = next(c for c in roll["changes"] if c["code"] == "score.roll_loses")
    assert lost["rule"] == "temporary_medal" and "F5" in lost["text"]


def test_taking_ground_onto_an_objective_gains_it_and_leaving_ones_own_loses_it(client):
    """The classic: the attacker takes ground off the town objective it held."""
    target = unit("T", "axis", 4, 10)
    scenario = {"objectives": [objective(4, 10, "temporary_medal", "allies"),
                               objective(5, 11, "temporary_medal", "allies")]}
    answer = resolve(client, target, {"star": 2, "flag": 1}, scenario)
    assert answer["take_ground"] is True
    ground = outcome(answer, "take_ground")
    codes = sorted(c["code"] for c in ground["changes"])
    assert codes == ["score.take_ground_gains", "score.take_ground_loses"]
    assert ground["medals"]["allies"] == outcome(answer, "roll")["medals"]["allies"] == 1
    assert all(c["params"]["at"]["hex"] == "F5" for c in ground["changes"])


def test_half_track_figures_lost_to_a_roll_count_toward_a_medal(client, rulebook):
    per = rulebook.unit("half_track").figures_per_medal
    target = {"id": "T", "side": "axis", "type": "half_track", "row": 4, "col": 10, "figures": 3}
    answer = resolve(client, target, {"armor": 1, "grenade": 1, "star": 1}, {},
                     casualties=[{"side": "axis", "type": "half_track", "figures": per - 2, "eliminated": False}])
    assert answer["figures_lost"] == 2 and not answer["eliminated"]
    roll = outcome(answer, "roll")
    assert roll["medals"]["allies"] == 1
    assert roll["changes"][0]["rule"] == "half_track" and roll["changes"][0]["fact"] == "figures_per_medal"


def test_without_a_scenario_resolve_says_nothing_of_the_score(client):
    answer = resolve(client, unit("T", "axis", 4, 10, figures=1), {"infantry": 1, "grenade": 1, "star": 1}, None)
    assert "score" not in answer
    assert not any(s["code"].startswith("score.") for s in answer["steps"])
