"""Table-driven battle tests generated from the content itself: for every terrain and obstacle
with ``dice_reductions``, the reduction each attacker class gets; for every unit that battles, its
dice at every range and "out of range" one hex beyond. The expected numbers are read from each
entry's own fields, so a content change is checked the moment it lands."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine.battle import assess_battle
from adjudicator.engine.geometry import BOARDS, Hex
from adjudicator.engine.lookups import is_a
from adjudicator.engine.rulebook import DiceReduction, HexRules, Rulebook, UnitRules
from adjudicator.engine.situation import HexState, Situation, Unit, parse_situation

RULEBOOK = load_catalogue(content_dir()).rulebook()
CLASS_UNITS = {"infantry": "infantry", "armor": "armor", "artillery": "artillery"}
"""A base unit of each attacker class (none of them ignores terrain)."""


def _hex_features() -> list[str]:
    return sorted(i for i, r in RULEBOOK.rules.items()
                  if isinstance(r, HexRules) and RULEBOOK.kinds[i] in ("terrain", "obstacle", "marker")
                  and getattr(r, "placed_on", "hex") == "hex")


REDUCING = [f for f in _hex_features() if RULEBOOK.hex_rules(f).dice_reductions]
BATTLING = sorted(i for i, r in RULEBOOK.rules.items()
                  if isinstance(r, UnitRules) and r.battles and r.dice and r.rules_documented)


def _target_type(feature: str) -> str | None:
    impassable = RULEBOOK.hex_rules(feature).impassable
    return next((CLASS_UNITS[c] for c in ("infantry", "armor", "artillery") if c not in impassable), None)


def test_the_content_has_reducing_features_and_battling_units() -> None:
    assert {"forest", "hill", "town", "bunker", "sandbags"} <= set(REDUCING)
    assert {"infantry", "armor", "artillery", "tank_destroyer", "sniper"} <= set(BATTLING)


def test_every_reducing_feature_can_hold_a_target() -> None:
    assert [f for f in REDUCING if _target_type(f) is None] == []


def _holds(feature: str, reduction: DiceReduction, japanese: bool) -> bool:
    """Whether each ``when`` condition holds in the set-up below: the attacker on open countryside,
    the target on the feature (an obstacle on countryside), its hex owned by the target's side."""
    rules = RULEBOOK.hex_rules(feature)
    truth = {
        "from_below": rules.elevation > 0,
        "owner_only": True,
        "on_countryside_or_beach": RULEBOOK.kinds[feature] != "terrain" or is_a(RULEBOOK, feature, "beach"),
        "target_japanese": japanese,
        "attacker_not_in_same_terrain": True,
        "not_same_plateau": True,
    }
    return all(truth[c] for c in reduction.when)


@pytest.mark.parametrize("japanese", [False, True], ids=["target", "japanese_target"])
@pytest.mark.parametrize("attacker_class", list(CLASS_UNITS))
@pytest.mark.parametrize("feature", REDUCING)
def test_reduction_each_attacker_class_gets(feature: str, attacker_class: str, japanese: bool) -> None:
    rules = RULEBOOK.hex_rules(feature)
    expected = next((r.dice.get(attacker_class, 0) for r in rules.dice_reductions
                     if _holds(feature, r, japanese)), 0)
    key = "terrain" if RULEBOOK.kinds[feature] == "terrain" else "obstacle"
    target: dict[str, Any] = {"id": "B", "side": "axis", "type": _target_type(feature), "row": 4, "col": 12,
                              "figures": 1, **({"nation": "japanese"} if japanese else {})}
    situation = parse_situation({
        "hexes": [{"row": 4, "col": 12, key: feature, "owner": "axis"}],
        "units": [{"id": "A", "side": "allies", "type": CLASS_UNITS[attacker_class], "row": 4, "col": 10,
                   "figures": 1}, target],
    }, RULEBOOK)
    ruling = assess_battle(situation, RULEBOOK, "A", "B")
    base = RULEBOOK.unit(CLASS_UNITS[attacker_class]).dice[0]
    assert ruling.dice == max(0, base - expected)
    steps = [r for r in ruling.breakdown if r.rule == feature]
    assert len(steps) == 1 and steps[0].dice == -expected


def _battle_at(profile: str, distance: int, moved: int) -> Any:
    situation = parse_situation({"units": [
        {"id": "A", "side": "allies", "type": profile, "row": 4, "col": 0, "figures": 1, "moved": moved},
        {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 2 * distance, "figures": 4},
    ]}, RULEBOOK)
    return assess_battle(situation, RULEBOOK, "A", "B")


def _tables(profile: str) -> list[tuple[int, tuple[int, ...]]]:
    """(moved, dice table) pairs to check: unmoved, and moved 1 when the unit may move and battle."""
    rules = RULEBOOK.unit(profile)
    out = [(0, rules.dice_unmoved or rules.dice)]
    if rules.move_and_battle >= 1:
        out.append((1, rules.dice))
    return out


@pytest.mark.parametrize("profile", BATTLING)
def test_dice_at_every_range_and_out_of_range_beyond(profile: str) -> None:
    for moved, table in _tables(profile):
        for distance, dice in enumerate(table, start=1):
            ruling = _battle_at(profile, distance, moved)
            assert ruling.legal, (profile, moved, distance, [r.text for r in ruling.why_not])
            assert ruling.dice == dice, (profile, moved, distance)
            assert ruling.breakdown[0].rule == profile and ruling.breakdown[0].dice == dice
        beyond = _battle_at(profile, len(table) + 1, moved)
        assert not beyond.legal and beyond.dice == 0
        assert [r.rule for r in beyond.why_not] == [profile]
        assert "Out of range" in beyond.why_not[0].text


@pytest.mark.parametrize("profile", [p for p in BATTLING if RULEBOOK.unit(p).dice_on_terrain])
def test_dice_on_their_special_terrain(profile: str) -> None:
    """Built directly (not parsed): the situation parser refuses artillery on a mountain, which
    the scenario may still place there (artillery's ``dice_on_terrain``)."""
    rules = RULEBOOK.unit(profile)
    for terrain, table in rules.dice_on_terrain.items():
        attacker = Unit("A", "allies", profile, profile, Hex(4, 0), 1, 1)
        target = Unit("B", "axis", "infantry", "infantry", Hex(4, 2 * len(table)), 4, 4)
        situation = Situation(BOARDS["standard"], "allies", frozenset(), {Hex(4, 0): HexState(terrain)},
                              (attacker, target))
        ruling = assess_battle(situation, RULEBOOK, "A", "B")
        assert ruling.legal and ruling.dice == table[-1]
        assert ruling.breakdown[0].dice == table[-1] and RULEBOOK.names[terrain] in ruling.breakdown[0].text


def test_never_battling_units_are_refused(rulebook: Rulebook) -> None:
    for profile in sorted(i for i, r in rulebook.rules.items() if isinstance(r, UnitRules) and not r.battles):
        ruling = _battle_at(profile, 1, 0)
        assert not ruling.legal and profile in [r.rule for r in ruling.why_not]
