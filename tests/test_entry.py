"""May this unit enter this hex? (engine/entry.py): one check for moves, retreats and take ground.

Each case is one rule, with the purposes it binds: the intended differences between the purposes
(the rule entries that make them are cited in engine/entry.py) and, for contrast, rules that bind
all three alike. Moves, retreats and take ground all ask ``engine.entry``, so these are the
differences the movement, retreat and advance engines show."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.entry import MOVE, PURPOSES, EntryCheck, Purpose, may_enter
from adjudicator.engine.geometry import Hex
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

FRM, TO = Hex(5, 11), Hex(4, 10)


def situation(rulebook: Rulebook, unit: dict[str, Any], hexes: list[dict[str, Any]] = (),
              occupant: bool = False) -> Situation:
    units = [{"id": "A", "side": "allies", "row": FRM.row, "col": FRM.col, "figures": 1, **unit}]
    if occupant:
        units.append({"id": "B", "side": "axis", "type": "infantry", "row": TO.row, "col": TO.col, "figures": 1})
    return parse_situation({"units": units, "hexes": list(hexes)}, rulebook)


def bound(rulebook: Rulebook, s: Situation, first_step: bool = True) -> dict[Purpose, str | None]:
    """purpose -> the rule cited for refusing the step (None: the unit may enter)."""
    out: dict[Purpose, str | None] = {}
    for purpose in PURPOSES:
        why = may_enter(s, rulebook, s.unit("A"), FRM, TO, purpose, first_step=first_step)
        out[purpose] = why.rule if why is not None else None
    return out


def at(h: Hex, **fields: Any) -> dict[str, Any]:
    return {"row": h.row, "col": h.col, **fields}


# rule, unit, hexes, a unit on the target hex, first step of its move, rule cited by purpose
CASES: dict[str, tuple[dict[str, Any], list[dict[str, Any]], bool, bool, dict[Purpose, str | None]]] = {
    # intended differences
    "cliff_beach_climb_binds_moves_and_take_ground_not_retreats": (
        {"type": "armor"}, [at(FRM, terrain="beach"), at(TO, terrain="cliff")], False, True,
        {"move": "cliff", "retreat": None, "take_ground": "cliff"}),
    "cliff_take_ground_limit_binds_only_take_ground_from_the_beach": (
        {"type": "infantry"}, [at(FRM, terrain="beach"), at(TO, terrain="cliff")], False, True,
        {"move": None, "retreat": None, "take_ground": "cliff"}),
    "hedgerow_entry_from_an_adjacent_start_binds_only_moves": (
        {"type": "infantry"}, [at(TO, terrain="hedgerow")], False, False,
        {"move": "hedgerow", "retreat": None, "take_ground": None}),
    "ocean_forbids_only_retreating_onto_it": (
        {"type": "infantry"}, [at(TO, terrain="ocean")], False, True,
        {"move": None, "retreat": "ocean", "take_ground": None}),
    "take_ground_enters_the_hex_its_target_vacated": (
        {"type": "infantry"}, [], True, True,
        {"move": "movement", "retreat": "retreat", "take_ground": None}),
    "jungle_take_ground_requires_armor_that_started_next_to_it": (
        {"type": "armor", "moved": 1}, [at(TO, terrain="jungle")], False, True,
        {"move": None, "retreat": None, "take_ground": "jungle"}),
    "forest_stop_after_entering_bars_taking_ground_out_of_it": (
        {"type": "infantry", "moved": 1}, [at(FRM, terrain="forest")], False, True,
        {"move": None, "retreat": None, "take_ground": "forest"}),
    # the same for every purpose
    "river_is_impassable_to_every_purpose": (
        {"type": "infantry"}, [at(TO, terrain="river")], False, True,
        {"move": "river", "retreat": "river", "take_ground": "river"}),
    "mountain_is_entered_only_from_a_hill_or_mountain_for_every_purpose": (
        {"type": "infantry"}, [at(TO, terrain="mountain")], False, True,
        {"move": "mountain", "retreat": "mountain", "take_ground": "mountain"}),
    "pier_is_never_entered_from_the_ocean": (
        {"type": "infantry"}, [at(FRM, terrain="ocean"), at(TO, terrain="pier")], False, True,
        {"move": "pier", "retreat": "pier", "take_ground": "pier"}),
    "scenario_impassable_hex_binds_every_purpose": (
        {"type": "infantry"}, [at(TO, impassable=True)], False, True,
        {"move": "movement", "retreat": "movement", "take_ground": "movement"}),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_entry_rule_binds_the_purposes_it_names(rulebook: Rulebook, case: str) -> None:
    unit, hexes, occupant, first_step, expected = CASES[case]
    assert bound(rulebook, situation(rulebook, unit, hexes, occupant), first_step) == expected


def test_behind_enemy_lines_lifts_terrain_entry_limits_for_its_moves_only(rulebook: Rulebook) -> None:
    s = situation(rulebook, {"type": "infantry"}, [at(TO, terrain="hedgerow"), at(FRM, terrain="mountain")])
    lifted = EntryCheck(s, rulebook, s.unit("A"), MOVE, terrain_lifted_by="behind_enemy_lines")
    assert lifted.refusal(FRM, TO, first_step=False) is None
    river = situation(rulebook, {"type": "infantry"}, [at(TO, terrain="river")])
    still = EntryCheck(river, rulebook, river.unit("A"), MOVE, terrain_lifted_by="behind_enemy_lines")
    assert still.refusal(FRM, TO).rule == "river"  # impassable stays impassable


def test_take_ground_lists_every_limit_that_bars_it(rulebook: Rulebook) -> None:
    """Take ground says all that bars it, where a move only needs the first reason."""
    s = situation(rulebook, {"type": "armor", "moved": 1}, [at(FRM, terrain="forest"), at(TO, terrain="jungle")])
    check = EntryCheck(s, rulebook, s.unit("A"), "take_ground")
    assert [r.rule for r in check.refusals(FRM, TO)] == ["forest", "jungle"]
    assert {r.fact for r in check.refusals(FRM, TO)} == {"must_stop", "take_ground_requires_started_adjacent"}


def test_an_unknown_purpose_is_refused(rulebook: Rulebook) -> None:
    s = situation(rulebook, {"type": "infantry"})
    with pytest.raises(ValueError, match="purpose"):
        EntryCheck(s, rulebook, s.unit("A"), "swim")  # type: ignore[arg-type]


def test_entry_refusal_names_units_as_players_do(client: FlaskClient) -> None:
    """Through ``/api/v1/move``: a hex another unit holds is refused naming that unit by side,
    type and hex, never by its id."""
    units = [{"id": "mover-7f3", "side": "allies", "type": "armor", "row": 6, "col": 10, "figures": 3},
             {"id": "blocker-9q2", "side": "axis", "type": "infantry", "row": 5, "col": 11, "figures": 4}]
    answer = client.post("/api/v1/move", json={"units": units, "unit": "mover-7f3", "to": {"row": 5, "col": 11}}).json
    why = answer["to"]["why"][0]
    assert why["code"] == "entry.occupied" and why["params"]["occupant"]["unit"] == "blocker-9q2"
    assert why["text"].startswith(f"{why['params']['hex']['hex']} holds Axis Infantry at ")
    assert "blocker-9q2" not in why["text"]
