"""Retreat options (engine/retreat.py): direction, blocking, losses, per-flag distances, ignored
flags, entry risks. Each test is named after the rule it checks."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Hex
from adjudicator.engine.retreat import retreat_options
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import HexState, Situation, parse_situation


def board(rulebook: Rulebook, unit: dict[str, Any], others: list[dict[str, Any]] = (),
          hexes: list[dict[str, Any]] = (), **doc: Any) -> Situation:
    """The retreating unit ``T`` (allies at row 4, col 10 unless given) plus ``others``."""
    target = {"id": "T", "side": "allies", "row": 4, "col": 10, "figures": 3, **unit}
    units = [target, *others]
    if not any(u["side"] != target["side"] for u in others):
        units.append({"id": "X", "side": "axis" if target["side"] == "allies" else "allies",
                      "type": "infantry", "row": 0 if target["row"] > 2 else 8, "col": 24, "figures": 4})
    return parse_situation({"units": units, "hexes": list(hexes), **doc}, rulebook)


def blocker(uid: str, row: int, col: int, side: str = "allies") -> dict[str, Any]:
    return {"id": uid, "side": side, "type": "infantry", "row": row, "col": col, "figures": 4}


def ends(result: Any, ignored: int | None = None) -> set[tuple[int, int]]:
    return {(o.end.row, o.end.col) for o in result.options if ignored is None or o.flags_ignored == ignored}


def paths(result: Any) -> set[tuple[tuple[int, int], ...]]:
    return {tuple((h.row, h.col) for h in o.path) for o in result.options}


def with_feature(situation: Situation, row: int, col: int, **state: Any) -> Situation:
    """Put a feature under a unit the scenario placed there even though units cannot move in
    (artillery in a bunker), which ``parse_situation`` does not accept."""
    hexes = dict(situation.hexes)
    hexes[Hex(row, col)] = HexState(**state)
    return dataclasses.replace(situation, hexes=hexes)


def test_each_flag_moves_one_hex_toward_own_baseline(rulebook: Rulebook):
    one = retreat_options(board(rulebook, {"type": "infantry"}), rulebook, "T", 1)
    assert ends(one) == {(5, 9), (5, 11)}
    assert one.moves_required == 1 and one.per_flag == 1 and one.min_figures_lost == 0
    two = retreat_options(board(rulebook, {"type": "infantry"}), rulebook, "T", 2)
    assert paths(two) == {((5, 9), (6, 8)), ((5, 9), (6, 10)), ((5, 11), (6, 10)), ((5, 11), (6, 12))}
    assert all(o.figures_lost == 0 for o in two.options)


@pytest.mark.parametrize(("side", "bottom", "row"), [("axis", "allies", 3), ("allies", "axis", 3),
                                                      ("axis", "axis", 5), ("allies", "allies", 5)])
def test_retreat_direction_follows_bottom_side(rulebook: Rulebook, side: str, bottom: str, row: int):
    result = retreat_options(board(rulebook, {"type": "armor", "side": side}, bottom_side=bottom), rulebook, "T", 1)
    assert {r for r, _ in ends(result)} == {row}


def test_no_flag_means_no_retreat(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry"}), rulebook, "T", 0)
    assert [(o.path, o.figures_lost) for o in result.options] == [((), 0)]
    assert result.moves_required == 0 and not result.eliminated


def test_retreat_off_board_costs_one_figure_per_move(rulebook: Rulebook):
    on_baseline = retreat_options(board(rulebook, {"type": "infantry", "row": 8, "col": 10}), rulebook, "T", 2)
    assert [(o.path, o.figures_lost) for o in on_baseline.options] == [((), 2)]
    assert on_baseline.min_figures_lost == 2 * rulebook.core_rules("retreat").figures_lost_per_retreat_move_not_made
    near = retreat_options(board(rulebook, {"type": "infantry", "row": 7, "col": 9}), rulebook, "T", 3)
    assert ends(near) == {(8, 8), (8, 10)}
    assert {o.figures_lost for o in near.options} == {2}
    assert any("leave the board" in r.text for r in near.breakdown)


def test_board_side_edge_leaves_one_retreat_hex(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry", "row": 4, "col": 0}), rulebook, "T", 1)
    assert ends(result) == {(5, 1)}


def test_retreat_never_enters_occupied_hex(rulebook: Rulebook):
    friend_only = retreat_options(board(rulebook, {"type": "infantry"}, [blocker("F", 5, 9)]), rulebook, "T", 1)
    assert ends(friend_only) == {(5, 11)}
    both = retreat_options(board(rulebook, {"type": "infantry"}, [blocker("F", 5, 9), blocker("E", 5, 11, "axis")]),
                           rulebook, "T", 1)
    assert [(o.path, o.figures_lost) for o in both.options] == [((), 1)]
    assert {r.rule for r in both.breakdown} >= {"retreat"}
    occupied = [r for r in both.breakdown if r.code == "entry.occupied"]
    assert [r.param_map["occupant"].id for r in occupied] == ["F", "E"]  # a friend blocks as an enemy does
    assert "Axis Infantry at" in occupied[1].text and "E" not in occupied[1].text.split()


def test_retreat_may_not_pass_through_occupied_hex(rulebook: Rulebook):
    # Two flags: the only way on is through (5, 11); (5, 9) is held.
    result = retreat_options(board(rulebook, {"type": "infantry"}, [blocker("F", 5, 9)]), rulebook, "T", 2)
    assert all(o.path[0] == Hex(5, 11) for o in result.options)


def test_dead_end_path_not_offered_when_a_full_retreat_exists(rulebook: Rulebook):
    others = [blocker("F", 6, 8), blocker("G", 6, 10)]
    result = retreat_options(board(rulebook, {"type": "infantry"}, others), rulebook, "T", 2)
    assert paths(result) == {((5, 11), (6, 12))}
    assert result.min_figures_lost == 0


def test_river_blocks_retreat_but_bridge_lets_it_through(rulebook: Rulebook):
    river = [{"row": 5, "col": 9, "terrain": "river"}, {"row": 5, "col": 11, "terrain": "river"}]
    blocked = retreat_options(board(rulebook, {"type": "armor"}, hexes=river), rulebook, "T", 1)
    assert blocked.min_figures_lost == 1 and paths(blocked) == {()}
    assert any(r.rule == "river" for r in blocked.breakdown)
    bridged = [*river[:1], {"row": 5, "col": 11, "terrain": "river", "obstacle": "bridge"}]
    crossing = retreat_options(board(rulebook, {"type": "armor"}, hexes=bridged), rulebook, "T", 1)
    assert ends(crossing) == {(5, 11)} and crossing.min_figures_lost == 0


def test_unit_cannot_retreat_onto_ocean(rulebook: Rulebook):
    sea = [{"row": 5, "col": 9, "terrain": "ocean"}, {"row": 5, "col": 11, "terrain": "ocean"}]
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=sea), rulebook, "T", 1)
    assert result.min_figures_lost == 1
    assert any(r.rule == "ocean" for r in result.breakdown)


def test_terrain_does_not_stop_a_retreat(rulebook: Rulebook):
    forest = [{"row": 5, "col": 9, "terrain": "forest"}, {"row": 5, "col": 11, "terrain": "town"}]
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=forest), rulebook, "T", 2)
    assert len(result.options) == 4 and result.min_figures_lost == 0
    assert any("without stopping" in r.text for r in result.breakdown)


def test_impassable_terrain_blocks_only_the_classes_it_names(rulebook: Rulebook):
    hedgehogs = [{"row": 5, "col": 9, "obstacle": "hedgehog"}]
    infantry = retreat_options(board(rulebook, {"type": "infantry"}, hexes=hedgehogs), rulebook, "T", 1)
    armor = retreat_options(board(rulebook, {"type": "armor"}, hexes=hedgehogs), rulebook, "T", 1)
    assert ends(infantry) == {(5, 9), (5, 11)}
    assert ends(armor) == {(5, 11)}


def test_artillery_in_bunker_loses_figure_instead_of_retreating(rulebook: Rulebook):
    situation = with_feature(board(rulebook, {"type": "artillery", "figures": 2}), 4, 10, obstacle="bunker",
                             owner="axis")
    result = retreat_options(situation, rulebook, "T", 1)
    assert [(o.path, o.figures_lost) for o in result.options] == [((), 1)]
    assert any(r.rule == "bunker" and "may not retreat" in r.text for r in result.breakdown)
    owned = with_feature(situation, 4, 10, obstacle="bunker", owner="allies")
    two = retreat_options(owned, rulebook, "T", 2)
    # The owner's artillery may ignore one flag: losing 2 (eliminated) or 1.
    assert {(o.flags_ignored, o.figures_lost, o.eliminated) for o in two.options} == {(0, 2, True), (1, 1, False)}
    assert two.min_figures_lost == 1 and not two.eliminated


def test_armor_in_field_bunker_may_not_retreat(rulebook: Rulebook):
    situation = with_feature(board(rulebook, {"type": "armor"}), 4, 10, obstacle="field_bunker")
    result = retreat_options(situation, rulebook, "T", 2)
    assert {(o.flags_ignored, o.figures_lost) for o in result.options} == {(0, 2), (1, 1)}
    assert all(o.path == () for o in result.options)


def test_infantry_in_field_bunker_retreats_normally(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=[{"row": 4, "col": 10,
                                                                           "obstacle": "field_bunker"}]),
                             rulebook, "T", 1)
    assert ends(result, ignored=0) == {(5, 9), (5, 11)}


def test_french_resistance_may_retreat_one_to_three_per_flag(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "french_resistance"}), rulebook, "T", 1)
    assert result.per_flag == 3 and result.per_flag_min == 1
    assert {len(o.path) for o in result.options} == {1, 2, 3}
    assert len(result.options) == 2 + 4 + 8
    assert any(r.rule == "french_resistance" for r in result.breakdown)
    two = retreat_options(board(rulebook, {"type": "infantry", "nation": "french_resistance"}), rulebook, "T", 2)
    assert {len(o.path) for o in two.options} == {2, 3, 4}  # 4 rows to the baseline


def test_french_resistance_short_of_room_loses_figures(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "french_resistance", "row": 7, "col": 9}), rulebook, "T", 2)
    assert {len(o.path) for o in result.options} == {1}
    assert result.min_figures_lost == 1


def test_tank_destroyer_may_retreat_up_to_two_per_flag(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "armor", "badges": ["tank_destroyer"]}), rulebook, "T", 1)
    assert result.per_flag == 2
    assert {len(o.path) for o in result.options} == {1, 2}


def test_italian_units_retreat_one_to_three_per_flag(rulebook: Rulebook):
    italian = [i for i in rulebook.ids_of_kind("nation") if "italian" in rulebook.nation(i).nation_codes]
    assert italian, "an Italian nation entry is needed"
    needed = [rulebook.nation(i).requires_rule for i in italian if rulebook.nation(i).requires_rule]
    rules = [getattr(rulebook.rules.get(r), "situation_id", None) or r for r in needed]
    result = retreat_options(board(rulebook, {"type": "armor", "side": "axis", "nation": "italian"}, rules=rules),
                             rulebook, "T", 1)
    assert result.per_flag == 3
    assert {len(o.path) for o in result.options} == {1, 2, 3}


def test_optional_flag_ignoring_lists_both_outcomes(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=[{"row": 4, "col": 10,
                                                                           "obstacle": "sandbags"}]),
                             rulebook, "T", 1)
    assert ends(result, ignored=0) == {(5, 9), (5, 11)}
    assert [o.path for o in result.options if o.flags_ignored == 1] == [()]
    assert result.flags_ignored == 1 and result.flags_ignored_min == 0 and result.moves_required == 0
    assert any(r.rule == "sandbags" and "removed" in r.text for r in result.breakdown)


def test_mandatory_flag_ignoring_lists_only_ignored_outcomes(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry", "side": "axis", "nation": "japanese"}),
                             rulebook, "T", 2)
    assert {o.flags_ignored for o in result.options} == {1}
    assert result.moves_required == 1 and ends(result) == {(3, 9), (3, 11)}


def test_air_power_flags_cannot_be_ignored_in_retreat(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry"}, hexes=[{"row": 4, "col": 10, "obstacle": "sandbags"}])
    result = retreat_options(situation, rulebook, "T", 1, card="air_power")
    assert {o.flags_ignored for o in result.options} == {0}
    assert result.moves_required == 1


def test_frozen_river_retreat_gives_star_odds(rulebook: Rulebook):
    ice = [{"row": 5, "col": 9, "terrain": "frozen_river"}, {"row": 5, "col": 11, "terrain": "frozen_river"}]
    result = retreat_options(board(rulebook, {"type": "infantry", "figures": 1}, hexes=ice), rulebook, "T", 1)
    faces = rulebook.core_rules("range_and_dice").die_faces
    p = Fraction(faces["star"], sum(faces.values()))
    risk = rulebook.hex_rules("frozen_river").entry_risk
    assert risk.dice == 2 and risk.on_retreat
    for option in result.options:
        assert option.figures_lost == 0
        assert [r.rule for r in option.risks] == ["frozen_river"]
        assert option.risk_losses == ((1 - p) ** 2, 2 * p * (1 - p), p**2)
        assert option.elimination_chance == 1 - (1 - p) ** 2  # one figure left: any star eliminates it
    assert p == Fraction(1, 6)
    assert any(r.rule == "frozen_river" and "25/36" in r.text for r in result.breakdown)
    odds = result.to_dict()["options"][0]["risk_losses"]
    assert [o["fraction"] for o in odds] == ["25/36", "5/18", "1/36"]


def test_frozen_river_crossed_twice_rolls_twice(rulebook: Rulebook):
    ice = [{"row": 5, "col": 9, "terrain": "frozen_river"}, {"row": 6, "col": 8, "terrain": "frozen_river"}]
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=ice), rulebook, "T", 2)
    both = next(o for o in result.options if o.path == (Hex(5, 9), Hex(6, 8)))
    assert len(both.risks) == 2 and len(both.risk_losses) == 5
    assert sum(both.risk_losses) == 1
    dry = next(o for o in result.options if o.path == (Hex(5, 11), Hex(6, 12)))
    assert dry.risks == () and dry.elimination_chance == 0


def test_minefield_not_triggered_by_retreat(rulebook: Rulebook):
    assert rulebook.hex_rules("minefield").retreat_sets_off is False
    mines = [{"row": 5, "col": 9, "obstacle": "minefield"}]
    result = retreat_options(board(rulebook, {"type": "infantry"}, hexes=mines), rulebook, "T", 2)
    through = [o for o in result.options if Hex(5, 9) in o.path]
    assert len(through) == 2 and all(o.risks == () and o.figures_lost == 0 for o in through)
    assert any(r.rule == "minefield" and "does not set it off" in r.text for r in result.breakdown)


def test_mountain_retreat_only_from_hill_or_mountain(rulebook: Rulebook):
    plain = retreat_options(board(rulebook, {"type": "infantry"}, hexes=[{"row": 5, "col": 9, "terrain": "mountain"}]),
                            rulebook, "T", 1)
    assert ends(plain) == {(5, 11)}
    from_hill = retreat_options(board(rulebook, {"type": "infantry"}, hexes=[
        {"row": 4, "col": 10, "terrain": "hill"}, {"row": 5, "col": 9, "terrain": "mountain"}]), rulebook, "T", 1)
    assert ends(from_hill) == {(5, 9), (5, 11)}
    down = retreat_options(board(rulebook, {"type": "infantry"}, hexes=[
        {"row": 4, "col": 10, "terrain": "mountain"}, {"row": 5, "col": 9, "terrain": "hill"}]), rulebook, "T", 1)
    assert ends(down) == {(5, 9)}
    assert any(r.rule == "mountain" for r in down.breakdown)


def test_hits_before_flags_count_toward_elimination(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry", "figures": 4, "row": 8, "col": 10})
    result = retreat_options(situation, rulebook, "T", 2, hits=3)
    assert result.min_figures_lost == 1  # only one figure left to lose
    assert result.eliminated
    survived = retreat_options(situation, rulebook, "T", 2, hits=1)
    assert survived.min_figures_lost == 2 and not survived.eliminated


def test_unit_eliminated_by_hits_does_not_retreat(rulebook: Rulebook):
    result = retreat_options(board(rulebook, {"type": "infantry", "figures": 2}), rulebook, "T", 1, hits=2)
    assert result.eliminated and result.options == () and result.min_figures_lost == 0


def test_losses_and_distances_read_from_core_retreat_entry(rulebook: Rulebook):
    core = rulebook.core_rules("retreat")
    doubled = dataclasses.replace(core, figures_lost_per_retreat_move_not_made=2)
    changed = dataclasses.replace(rulebook, rules={**rulebook.rules, "retreat": doubled})
    situation = board(changed, {"type": "infantry", "figures": 4, "row": 8, "col": 10})
    assert retreat_options(situation, changed, "T", 1).min_figures_lost == 2
    assert retreat_options(situation, rulebook, "T", 1).min_figures_lost == 1


def test_bad_flag_and_hit_counts_are_rejected(rulebook: Rulebook):
    situation = board(rulebook, {"type": "infantry"})
    with pytest.raises(IllegalSituation) as exc:
        retreat_options(situation, rulebook, "T", -1)
    assert exc.value.field == "flags"
    with pytest.raises(IllegalSituation) as exc:
        retreat_options(situation, rulebook, "T", 1, hits=-2)
    assert exc.value.field == "hits"


def test_result_json_has_the_spec_fields(rulebook: Rulebook):
    out = retreat_options(board(rulebook, {"type": "infantry"}), rulebook, "T", 1).to_dict()
    assert {"flags_ignored", "moves_required", "options", "min_figures_lost", "eliminated", "per_flag"} <= set(out)
    assert {"path", "end", "figures_lost"} <= set(out["options"][0])
    assert out["options"][0]["path"][-1] == out["options"][0]["end"]
    assert all(r["rule"] in rulebook.kinds for r in out["breakdown"])


def test_pier_may_not_be_retreated_onto_from_the_ocean(rulebook: Rulebook):
    hexes = [{"row": 4, "col": 10, "terrain": "ocean"}, {"row": 5, "col": 9, "terrain": "pier"}]
    from_sea = retreat_options(board(rulebook, {"type": "infantry"}, hexes=hexes), rulebook, "T", 1)
    assert ends(from_sea) == {(5, 11)}
    assert any(r.rule == "pier" for r in from_sea.breakdown)
    from_land = retreat_options(board(rulebook, {"type": "infantry"}, hexes=hexes[1:]), rulebook, "T", 1)
    assert ends(from_land) == {(5, 9), (5, 11)}


def test_huge_retreat_lists_are_capped_but_counted_exactly(rulebook: Rulebook):
    situation = board(rulebook, {"type": "french_resistance", "row": 0, "col": 12}, board="breakthrough")
    result = retreat_options(situation, rulebook, "T", 4)
    # 4 flags of 1-3 hexes: 4 to 12 hexes; from the middle column nothing reaches a side edge within
    # 12 steps, so there are 2**n paths of each length n.
    assert result.options_total == sum(2**n for n in range(4, 13))
    assert result.options_truncated and 0 < len(result.options) < result.options_total
    assert result.to_dict()["options_truncated"] is True


def test_camouflage_is_removed_when_the_unit_retreats(rulebook: Rulebook):
    hidden = retreat_options(board(rulebook, {"type": "infantry", "badges": ["camouflage"]}), rulebook, "T", 1)
    assert [r.rule for r in hidden.breakdown if r.rule == "camouflage"] == ["camouflage"]
    stays = retreat_options(board(rulebook, {"type": "infantry", "badges": ["camouflage"]}), rulebook, "T", 0)
    assert not [r for r in stays.breakdown if r.rule == "camouflage"]


def test_train_retreat_along_rails_is_refused_not_guessed(rulebook: Rulebook):
    """Trains retreat along their rails (content ``train``): the engine has no track or facing, so
    it names the unit field instead of listing baseline retreats that would be wrong."""
    train = board(rulebook, {"type": "train", "figures": 4})
    with pytest.raises(IllegalSituation) as refused:
        retreat_options(train, rulebook, "T", 1)
    assert refused.value.field == "unit" and "rails" in refused.value.message
    stays = retreat_options(train, rulebook, "T", 0)
    assert [o.path for o in stays.options] == [()] and stays.min_figures_lost == 0


def test_unit_in_a_boat_loses_a_figure_per_flag_instead_of_retreating(rulebook: Rulebook):
    river = [{"row": 4, "col": 10, "terrain": "river"}]
    boat = board(rulebook, {"type": "infantry", "badges": ["unit_in_boat"]}, hexes=river)
    result = retreat_options(boat, rulebook, "T", 2)
    assert [o.path for o in result.options] == [()]
    assert result.min_figures_lost == 2 and not result.eliminated
    assert "unit_in_boat" in {r.rule for r in result.breakdown}
