"""Which flags a unit may or must ignore (engine/flags.py), each case named after its rule."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.flags import flags_ignorable
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation


def board(rulebook: Rulebook, unit: dict[str, Any], hexes: list[dict[str, Any]] = (), **doc: Any) -> Situation:
    """One defender ``T`` (row 4, col 10 unless given) and an attacker far away."""
    target = {"id": "T", "side": "allies", "row": 4, "col": 10, "figures": 3, **unit}
    units = [target, {"id": "X", "side": "axis" if target["side"] == "allies" else "allies",
                      "type": "infantry", "row": 0, "col": 0, "figures": 4}]
    return parse_situation({"units": units, "hexes": list(hexes), **doc}, rulebook)


def here(terrain: str | None = None, obstacle: str | None = None, **extra: Any) -> list[dict[str, Any]]:
    h: dict[str, Any] = {"row": 4, "col": 10, **extra}
    if terrain:
        h["terrain"] = terrain
    if obstacle:
        h["obstacle"] = obstacle
    return [h]


def rules_cited(allowance: Any) -> set[str]:
    return {r.rule for r in allowance.reasons}


@pytest.mark.parametrize(
    ("unit", "hexes", "may", "must"),
    [
        ({"type": "infantry"}, [], 0, 0),
        ({"type": "infantry"}, here(obstacle="sandbags"), 1, 0),
        ({"type": "armor"}, here(obstacle="sandbags"), 1, 0),
        ({"type": "infantry"}, here(terrain="church"), 1, 0),
        ({"type": "infantry"}, here(obstacle="field_bunker"), 1, 0),
        ({"type": "infantry"}, here(obstacle="hedgehog"), 1, 0),
        ({"type": "infantry"}, here(terrain="fortress"), None, 0),
        ({"type": "infantry"}, here(terrain="forest"), 0, 0),
    ],
    ids=["countryside", "sandbags", "armor_in_sandbags", "church", "field_bunker", "hedgehog", "fortress", "forest"],
)
def test_terrain_and_obstacle_flag_permissions(rulebook: Rulebook, unit: dict, hexes: list, may: Any, must: Any):
    allowance = flags_ignorable(board(rulebook, unit, hexes), rulebook, "T")
    assert (allowance.may_ignore, allowance.must_ignore) == (may, must)
    for h in hexes:
        for feature in (h.get("terrain"), h.get("obstacle")):
            if feature and may != 0:
                assert feature in rules_cited(allowance)


def test_sandbags_let_occupant_ignore_one_flag(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry"}, here(obstacle="sandbags")), rulebook, "T")
    assert allowance.may_ignore == rulebook.hex_rules("sandbags").flags[0].count == 1
    assert allowance.must_ignore == 0
    assert allowance.most_ignored(3) == 1 and allowance.least_ignored(3) == 0
    assert list(allowance.choices(3)) == [0, 1]


def test_bunker_protects_only_original_owner_flags(rulebook: Rulebook):
    owned = flags_ignorable(board(rulebook, {"type": "infantry"}, here(obstacle="bunker", owner="allies")),
                            rulebook, "T")
    captured = flags_ignorable(board(rulebook, {"type": "infantry"}, here(obstacle="bunker", owner="axis")),
                               rulebook, "T")
    assert owned.may_ignore == 1
    assert captured.may_ignore == 0
    assert any("original owner" in r.text and r.rule == "bunker" for r in captured.reasons)


def test_bunker_without_owner_assumes_occupant_is_original_owner(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry"}, here(obstacle="bunker")), rulebook, "T")
    assert allowance.may_ignore == 1
    assert any("assumed" in r.text and r.rule == "bunker" for r in allowance.reasons)


def test_sea_wall_flag_is_for_the_units_behind_it_only(rulebook: Rulebook):
    behind = flags_ignorable(board(rulebook, {"type": "infantry", "side": "axis"},
                                   here(obstacle="sea_wall", owner="axis")), rulebook, "T")
    attacker_on_it = flags_ignorable(board(rulebook, {"type": "infantry"},
                                           here(obstacle="sea_wall", owner="axis")), rulebook, "T")
    assert behind.may_ignore == 1
    assert attacker_on_it.may_ignore == 0


def test_heroic_leader_lets_infantry_ignore_one_flag(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry", "badges": ["heroic_leader"]}), rulebook, "T")
    assert allowance.may_ignore == 1 and allowance.must_ignore == 0
    assert "heroic_leader" in rules_cited(allowance)


def test_flag_permissions_do_not_add_up(rulebook: Rulebook):
    allowance = flags_ignorable(
        board(rulebook, {"type": "infantry", "badges": ["heroic_leader"]}, here(obstacle="sandbags")), rulebook, "T")
    assert allowance.may_ignore == 1
    assert any("do not add up" in r.text for r in allowance.reasons)


def test_japanese_infantry_must_ignore_one_flag(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry", "side": "axis", "nation": "japanese"}),
                                rulebook, "T")
    assert allowance.must_ignore == 1 and allowance.may_ignore == 1
    assert list(allowance.choices(2)) == [1]
    assert any(rulebook.kinds[r.rule] == "nation" for r in allowance.reasons)


def test_japanese_infantry_in_flag_terrain_must_ignore_two(rulebook: Rulebook):
    allowance = flags_ignorable(
        board(rulebook, {"type": "infantry", "side": "axis", "nation": "japanese"}, here(terrain="church")),
        rulebook, "T")
    assert allowance.must_ignore == 2 and allowance.may_ignore == 2
    assert list(allowance.choices(3)) == [2]
    assert list(allowance.choices(1)) == [1]


def test_japanese_armor_has_no_flag_obligation(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "armor", "side": "axis", "nation": "japanese"}),
                                rulebook, "T")
    assert allowance.must_ignore == 0 and allowance.may_ignore == 0


def test_japanese_in_cave_must_ignore_all_flags(rulebook: Rulebook):
    cave = next(i for i in rulebook.ids_of_kind("terrain") if i.startswith("cave"))
    allowance = flags_ignorable(
        board(rulebook, {"type": "infantry", "side": "axis", "nation": "japanese"}, here(terrain=cave)), rulebook, "T")
    assert allowance.must_ignore is None and allowance.may_ignore is None
    assert list(allowance.choices(4)) == [4]


def test_fortress_occupant_may_ignore_all_flags(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry"}, here(terrain="fortress")), rulebook, "T")
    assert allowance.may_ignore is None and allowance.must_ignore == 0
    assert list(allowance.choices(3)) == [0, 1, 2, 3]


@pytest.mark.parametrize("card", ["air_power", "barrage"])
def test_air_power_forbids_ignoring_flags(rulebook: Rulebook, card: str):
    assert rulebook.card(card).forbids_flag_ignoring
    situation = board(rulebook, {"type": "infantry", "badges": ["heroic_leader"]}, here(obstacle="sandbags"))
    allowance = flags_ignorable(situation, rulebook, "T", card=card)
    assert (allowance.may_ignore, allowance.must_ignore) == (0, 0)
    assert allowance.forbidden_by == card
    assert card in rules_cited(allowance)


def test_air_power_cancels_japanese_obligation_too(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry", "side": "axis", "nation": "japanese"})
    assert flags_ignorable(situation, rulebook, "T", card="air_power").must_ignore == 0


def test_card_without_flag_rule_changes_nothing(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry"}, here(obstacle="sandbags"))
    assert flags_ignorable(situation, rulebook, "T", card="attack").may_ignore == 1


def test_bitter_resistance_lets_unit_ignore_one_more_flag(rulebook: Rulebook):
    open_ground = flags_ignorable(board(rulebook, {"type": "infantry"}), rulebook, "T", combat_card="bitter_resistance")
    sandbags = flags_ignorable(board(rulebook, {"type": "infantry"}, here(obstacle="sandbags")), rulebook, "T",
                               combat_card="bitter_resistance")
    assert open_ground.may_ignore == 1 and open_ground.must_ignore == 0
    assert sandbags.may_ignore == 2
    assert "bitter_resistance" in rules_cited(sandbags)


def test_bitter_resistance_is_cancelled_by_barrage(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry"})
    allowance = flags_ignorable(situation, rulebook, "T", card="barrage", combat_card="bitter_resistance")
    assert allowance.may_ignore == 0


def test_italian_artillery_may_ignore_one_flag(rulebook: Rulebook):
    italian = [i for i in rulebook.ids_of_kind("nation") if "italian" in rulebook.nation(i).nation_codes]
    assert italian, "an Italian nation entry is needed"
    rules = [rulebook.nation(i).requires_rule for i in italian if rulebook.nation(i).requires_rule]
    situation = board(rulebook, {"type": "artillery", "side": "axis", "nation": "italian", "figures": 2},
                      rules=[rulebook.rules[r].situation_id if r in rulebook.rules else r for r in rules])
    allowance = flags_ignorable(situation, rulebook, "T")
    assert allowance.may_ignore == 1 and allowance.must_ignore == 0


def test_plain_infantry_ignores_nothing_and_says_so(rulebook: Rulebook):
    allowance = flags_ignorable(board(rulebook, {"type": "infantry"}), rulebook, "T")
    assert allowance.may_ignore == 0
    assert allowance.reasons and allowance.reasons[-1].rule == "retreat"


def test_every_reason_cites_an_existing_entry(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry", "badges": ["heroic_leader"]},
                      here(obstacle="bunker", owner="axis"))
    for card in (None, "air_power"):
        allowance = flags_ignorable(situation, rulebook, "T", card=card, combat_card="bitter_resistance")
        assert allowance.reasons
        assert all(r.rule in rulebook.kinds for r in allowance.reasons)
        assert allowance.to_dict()["reasons"]
