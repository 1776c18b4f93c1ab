"""Take ground and armor overrun after a close assault (engine/advance.py)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.advance import advance_after_close_assault
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation


def duel(rulebook: Rulebook, attacker: dict[str, Any], target: dict[str, Any] | None = None,
         hexes: list[dict[str, Any]] = (), **doc: Any) -> Situation:
    """Attacker ``A`` (allies, row 5 col 11) against target ``T`` (axis infantry, row 4 col 10)."""
    a = {"id": "A", "side": "allies", "row": 5, "col": 11, "figures": 1, **attacker}
    t = {"id": "T", "side": "axis", "type": "infantry", "row": 4, "col": 10, "figures": 1, **(target or {})}
    return parse_situation({"units": [a, t], "hexes": list(hexes), **doc}, rulebook)


def advance(rulebook: Rulebook, situation: Situation, **kw: Any) -> Any:
    return advance_after_close_assault(situation, rulebook, "A", "T", **kw)


def cited(reasons: Any) -> set[str]:
    return {r.rule for r in reasons}


@pytest.mark.parametrize(
    ("unit", "take_ground", "overrun"),
    [
        ({"type": "infantry"}, True, False),
        ({"type": "armor"}, True, True),
        ({"type": "artillery"}, False, False),
        ({"type": "half_track"}, True, False),
        ({"type": "armor", "badges": ["tank_destroyer"]}, True, False),
        ({"type": "supply_truck"}, False, False),
    ],
    ids=["infantry", "armor", "artillery", "half_track", "tank_destroyer", "supply_truck"],
)
def test_who_may_take_ground_and_overrun(rulebook: Rulebook, unit: dict, take_ground: bool, overrun: bool):
    situation = duel(rulebook, unit)
    result = advance(rulebook, situation)
    assert (result.take_ground, result.overrun) == (take_ground, overrun)
    profile = situation.unit("A").profile
    assert rulebook.unit(profile).can_take_ground == take_ground
    if not take_ground:
        assert profile in cited(result.take_ground_reasons)


def test_infantry_takes_ground_after_close_assault(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "infantry"}))
    assert result.take_ground and not result.overrun
    assert "take_ground" in cited(result.take_ground_reasons)
    assert "infantry" in cited(result.overrun_reasons)


def test_armor_takes_ground_and_overruns(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor"}))
    assert result.take_ground and result.overrun
    assert "armor_overrun" in cited(result.overrun_reasons)
    assert result.overruns_per_turn == rulebook.core_rules("armor_overrun").overruns_per_turn


def test_no_take_ground_after_firing_at_range(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor", "row": 6, "col": 12}))
    assert not result.take_ground and not result.overrun
    assert any("close assault" in r.text for r in result.take_ground_reasons)


def test_artillery_never_takes_ground(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "artillery"}))
    assert not result.take_ground
    assert "artillery" in cited(result.take_ground_reasons)


def test_half_track_takes_ground_but_never_overruns(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "half_track"}))
    assert result.take_ground and not result.overrun
    assert "half_track" in cited(result.overrun_reasons)


def test_tank_destroyer_takes_ground_but_never_overruns(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor", "badges": ["tank_destroyer"]}))
    assert result.take_ground and not result.overrun
    assert "tank_destroyer" in cited(result.overrun_reasons)


def test_hedgerow_take_ground_allowed_after_stopping_adjacent(rulebook: Rulebook):
    """Game help summary, Hedgerows: to enter or take ground the unit must stop on an adjacent hex,
    and it may still take ground; a close assault is always made from an adjacent hex (issue #14 B)."""
    hedge = [{"row": 4, "col": 10, "terrain": "hedgerow"}]
    still = advance(rulebook, duel(rulebook, {"type": "infantry"}, hexes=hedge))
    moved = advance(rulebook, duel(rulebook, {"type": "infantry", "moved": 1}, hexes=hedge))
    assert still.take_ground
    assert moved.take_ground
    assert not rulebook.hex_rules("hedgerow").take_ground_requires_started_adjacent


def test_infantry_may_not_take_ground_onto_cliff_from_beach(rulebook: Rulebook):
    from_beach = advance(rulebook, duel(rulebook, {"type": "infantry"}, hexes=[
        {"row": 4, "col": 10, "terrain": "cliff"}, {"row": 5, "col": 11, "terrain": "beach"}]))
    inland = advance(rulebook, duel(rulebook, {"type": "infantry"}, hexes=[{"row": 4, "col": 10, "terrain": "cliff"}]))
    assert not from_beach.take_ground and "cliff" in cited(from_beach.take_ground_reasons)
    assert inland.take_ground


@pytest.mark.parametrize("terrain", ["marsh", "flooded_field"])
def test_armor_takes_ground_into_marsh_but_may_not_overrun(rulebook: Rulebook, terrain: str):
    result = advance(rulebook, duel(rulebook, {"type": "armor"}, hexes=[{"row": 4, "col": 10, "terrain": terrain}]))
    assert result.take_ground and not result.overrun
    assert terrain in cited(result.overrun_reasons)


def test_unit_that_entered_forest_this_turn_may_not_take_ground(rulebook: Rulebook):
    forest = [{"row": 5, "col": 11, "terrain": "forest"}]
    entered = advance(rulebook, duel(rulebook, {"type": "infantry", "moved": 1}, hexes=forest))
    stayed = advance(rulebook, duel(rulebook, {"type": "infantry", "moved": 0}, hexes=forest))
    assert not entered.take_ground and "forest" in cited(entered.take_ground_reasons)
    assert stayed.take_ground


def test_taking_ground_into_town_rules_out_the_overrun_battle(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor"}, hexes=[{"row": 4, "col": 10, "terrain": "town"}]))
    assert result.take_ground and not result.overrun
    assert "town" in cited(result.overrun_reasons)


def test_armor_cannot_take_ground_into_impassable_hex(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor"}, hexes=[{"row": 4, "col": 10, "obstacle": "bunker"}]))
    assert not result.take_ground and not result.overrun
    assert "bunker" in cited(result.take_ground_reasons)


def test_only_one_overrun_per_turn(rulebook: Rulebook):
    per_turn = rulebook.core_rules("armor_overrun").overruns_per_turn
    result = advance(rulebook, duel(rulebook, {"type": "armor"}), overruns_this_turn=per_turn)
    assert result.take_ground and not result.overrun
    assert "armor_overrun" in cited(result.overrun_reasons)


def test_winter_weather_keeps_take_ground_and_overrun(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "armor"}, rules=["winter_weather"]))
    assert result.take_ground and result.overrun
    assert "winter_weather" in cited(result.take_ground_reasons)
    assert "winter_weather" in cited(result.overrun_reasons)


def test_north_african_desert_adds_a_move_after_taking_ground(rulebook: Rulebook):
    desert = advance(rulebook, duel(rulebook, {"type": "armor"}, rules=["north_african_desert"]))
    assert desert.extra_take_ground_move == rulebook.special_rule("north_african_desert").extra_take_ground_move == 1
    assert "north_african_desert" in cited(desert.overrun_reasons)
    infantry = advance(rulebook, duel(rulebook, {"type": "infantry"}, rules=["north_african_desert"]))
    assert infantry.extra_take_ground_move == 0


def test_friendly_target_gives_no_ground(rulebook: Rulebook):
    result = advance(rulebook, duel(rulebook, {"type": "infantry"}, {"side": "allies"}))
    assert not result.take_ground


def test_advance_json_names_the_spec_fields(rulebook: Rulebook):
    out = advance(rulebook, duel(rulebook, {"type": "armor"})).to_dict()
    assert out["take_ground"] is True and out["overrun"] is True
    assert all(r["rule"] in rulebook.kinds for r in out["take_ground_reasons"] + out["overrun_reasons"])


def test_must_stop_terrain_that_allows_take_ground_after_stopping(rulebook: Rulebook):
    """Fordable streams stop a unit entering them, yet it may still take ground (Game help summary)."""
    stream = rulebook.hex_rules("fordable_stream")
    assert "infantry" in stream.must_stop and "infantry" in stream.take_ground_after_stop
    result = advance(rulebook, duel(rulebook, {"type": "armor", "moved": 1},
                                    hexes=[{"row": 5, "col": 11, "terrain": "fordable_stream"}]))
    assert result.take_ground and result.overrun
    assert "fordable_stream" in cited(result.take_ground_reasons)


def test_unit_that_entered_a_jungle_may_still_take_ground_out_of_it(rulebook: Rulebook):
    """Jungle ``take_ground_after_stop`` (BGA implementation; issue #14 B): the stop ends the move,
    not the take ground after a won battle."""
    situation = duel(rulebook, {"type": "infantry", "moved": 1}, hexes=[{"row": 5, "col": 11, "terrain": "jungle"}])
    assert advance(rulebook, situation).take_ground
    forest = duel(rulebook, {"type": "infantry", "moved": 1}, hexes=[{"row": 5, "col": 11, "terrain": "forest"}])
    assert not advance(rulebook, forest).take_ground
