"""Battle legality, dice and hit faces (content ``battle``, ``range_and_dice``, terrain, units,
cards, nations, special rules). Each test is named after the rule it checks."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.battle import BattleRuling, assess_battle
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import parse_situation


def unit(uid: str, side: str, type_: str, row: int, col: int, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": type_, "row": row, "col": col, "figures": extra.pop("figures", 1),
            **extra}


def battle(rulebook: Rulebook, units: list[dict[str, Any]], hexes: list[dict[str, Any]] | None = None,
           rules: list[str] | None = None, attacker: str = "A", target: str = "B", **cards: str) -> BattleRuling:
    situation = parse_situation({"hexes": hexes or [], "units": units, "rules": rules or []}, rulebook)
    return assess_battle(situation, rulebook, attacker, target, **cards)


def why_rules(ruling: BattleRuling) -> list[str]:
    return [r.rule for r in ruling.why_not]


def step(ruling: BattleRuling, rule: str) -> int | None:
    """The dice change the breakdown step citing ``rule`` makes (None if there is none)."""
    found = [r.dice for r in ruling.breakdown if r.rule == rule]
    return found[0] if found else None


def terrain(row: int, col: int, name: str, **extra: Any) -> dict[str, Any]:
    return {"row": row, "col": col, "terrain": name, **extra}


# --- legality ------------------------------------------------------------------------------------

def test_unit_adjacent_to_enemy_must_close_assault(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 16),
             unit("C", "axis", "infantry", 4, 12)]
    far = battle(rulebook, units)
    assert not far.legal and "battle" in why_rules(far)
    assert any("close-assault" in r.text for r in far.why_not)
    assert battle(rulebook, units, target="C").legal


def test_target_beyond_range_is_out_of_range(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 4), unit("B", "axis", "infantry", 4, 12)])
    assert not ruling.legal and why_rules(ruling) == ["infantry"]
    assert "Out of range" in ruling.why_not[0].text and ruling.dice == 0


def test_no_line_of_sight_forbids_the_battle(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 8), unit("B", "axis", "armor", 4, 12)],
                    [terrain(4, 10, "forest")])
    assert why_rules(ruling) == ["line_of_sight"]
    assert not ruling.los.clear and ruling.los_needed


def test_artillery_needs_no_line_of_sight(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "artillery", 4, 8), unit("B", "axis", "armor", 4, 12)],
                    [terrain(4, 10, "forest")])
    assert ruling.legal and not ruling.los_needed and not ruling.los.clear
    assert any(n.rule == "artillery" for n in ruling.notes)


def test_heavy_anti_tank_gun_needs_line_of_sight(rulebook: Rulebook) -> None:
    assert rulebook.unit("heavy_anti_tank_gun").needs_los
    ruling = battle(rulebook, [unit("A", "allies", "heavy_anti_tank_gun", 4, 8), unit("B", "axis", "armor", 4, 12)],
                    [terrain(4, 10, "forest")])
    assert why_rules(ruling) == ["line_of_sight"]


def test_mortar_needs_no_line_of_sight(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "mortar", 4, 8), unit("B", "axis", "infantry", 4, 12)],
                    [terrain(4, 10, "forest")])
    assert ruling.legal == (not rulebook.unit("mortar").needs_los)


def test_infantry_that_moved_two_hexes_may_not_battle(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10, moved=2), unit("B", "axis", "infantry", 4, 12)])
    assert why_rules(ruling) == ["infantry"]
    assert "moved 2" in ruling.why_not[0].text


def test_artillery_may_not_move_and_battle(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "artillery", 4, 8, moved=1), unit("B", "axis", "armor", 4, 12)])
    assert why_rules(ruling) == ["artillery"]


def test_blitz_limits_allied_armor_to_move_two_and_battle(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "armor", 4, 10, moved=3), unit("B", "axis", "armor", 4, 12, moved=3)]
    assert battle(rulebook, units).legal
    limited = battle(rulebook, units, rules=["blitz"])
    assert why_rules(limited) == ["blitz"]
    assert battle(rulebook, units, rules=["blitz"], attacker="B", target="A").legal  # axis armor unaffected


def test_banzai_lets_japanese_infantry_move_two_into_close_assault(rulebook: Rulebook) -> None:
    japanese = unit("A", "allies", "infantry", 4, 10, moved=2, nation="japanese", figures=4)
    assert battle(rulebook, [japanese, unit("B", "axis", "infantry", 4, 12)]).legal
    firing = battle(rulebook, [japanese, unit("B", "axis", "infantry", 4, 14)])
    assert why_rules(firing) == ["infantry"]


def with_rules(rulebook: Rulebook, entry_id: str, **fields: Any) -> Rulebook:
    """The rulebook with some fields of one entry changed (to test how the engine reads them)."""
    rules = dict(rulebook.rules)
    rules[entry_id] = dataclasses.replace(rules[entry_id], **fields)
    return dataclasses.replace(rulebook, rules=rules)


def test_banzai_move_is_for_the_nation_rule_unit_classes_only(rulebook: Rulebook) -> None:
    japanese = with_rules(rulebook, "imperial_japanese_army", close_assault_unit_classes=("infantry",))
    gun = unit("A", "allies", "artillery", 4, 10, moved=1, nation="japanese")
    assert why_rules(battle(japanese, [gun, unit("B", "axis", "infantry", 4, 12)])) == ["artillery"]
    infantry = unit("A", "allies", "infantry", 4, 10, moved=2, nation="japanese")
    assert battle(japanese, [infantry, unit("B", "axis", "infantry", 4, 12)]).legal


def test_behind_enemy_lines_card_raises_the_move_and_battle_limit(rulebook: Rulebook) -> None:
    cards = with_rules(rulebook, "behind_enemy_lines", move_and_battle=3)
    units = [unit("A", "allies", "infantry", 4, 10, moved=3), unit("B", "axis", "infantry", 4, 12)]
    ruling = battle(cards, units, card="behind_enemy_lines")
    assert ruling.legal and ruling.dice == 4
    assert any(n.rule == "behind_enemy_lines" for n in ruling.notes)
    assert not battle(cards, units).legal
    armor = [unit("A", "allies", "armor", 4, 10, moved=4), unit("B", "axis", "infantry", 4, 12)]
    assert not battle(cards, armor, card="behind_enemy_lines").legal  # it orders infantry only


def test_unit_that_moved_into_a_forest_may_not_battle(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "infantry", 4, 10, moved=1), unit("B", "axis", "infantry", 4, 12)]
    ruling = battle(rulebook, units, [terrain(4, 10, "forest")])
    assert why_rules(ruling) == ["forest"]
    units[0]["moved"] = 0
    assert battle(rulebook, units, [terrain(4, 10, "forest")]).legal


def test_jungle_allows_battle_only_when_entered_from_an_adjacent_hex(rulebook: Rulebook) -> None:
    assert rulebook.hex_rules("jungle").battle_after_entering_max_moved == 1
    one = [unit("A", "allies", "armor", 4, 10, moved=1), unit("B", "axis", "infantry", 4, 12)]
    assert battle(rulebook, one, [terrain(4, 10, "jungle")]).legal
    one[0]["moved"] = 2
    assert why_rules(battle(rulebook, one, [terrain(4, 10, "jungle")])) == ["jungle"]


def test_french_resistance_may_battle_after_entering_any_terrain(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "french_resistance", 4, 10, moved=1), unit("B", "axis", "infantry", 4, 12)]
    ruling = battle(rulebook, units, [terrain(4, 10, "town")])
    assert ruling.legal
    assert any(n.rule == "french_resistance" for n in ruling.notes)


def test_a_unit_may_not_target_the_families_its_entry_excludes(rulebook: Rulebook) -> None:
    snipers = with_rules(rulebook, "sniper", cannot_target=("armor",))
    sniper = unit("A", "allies", "sniper", 4, 10)
    ruling = battle(snipers, [sniper, unit("B", "axis", "armor", 4, 14)])
    assert why_rules(ruling) == ["sniper"]
    assert battle(snipers, [sniper, unit("B", "axis", "infantry", 4, 14)]).legal


def test_supply_truck_never_battles(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "supply_truck", 4, 10), unit("B", "axis", "infantry", 4, 12)])
    assert "supply_truck" in why_rules(ruling) and ruling.dice == 0 and ruling.odds is None


def test_armor_in_a_trench_cannot_battle(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [terrain(4, 10, "trench")])
    assert why_rules(ruling) == ["trench"]
    infantry = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                      [terrain(4, 10, "trench")])
    assert infantry.legal


def test_unit_in_the_ocean_cannot_battle(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [terrain(4, 10, "ocean")])
    assert why_rules(ruling) == ["ocean"]


def test_wadi_is_battled_into_or_out_of_only_from_an_adjacent_hex(rulebook: Rulebook) -> None:
    far = [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 14)]
    assert why_rules(battle(rulebook, far, [terrain(4, 14, "wadi")])) == ["wadi"]
    assert why_rules(battle(rulebook, far, [terrain(4, 10, "wadi")])) == ["wadi"]
    assert battle(rulebook, far, [terrain(4, 10, "wadi"), terrain(4, 14, "wadi")]).legal
    near = [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)]
    assert battle(rulebook, near, [terrain(4, 12, "wadi")]).legal


def test_camouflaged_unit_may_be_battled_only_in_close_assault(rulebook: Rulebook) -> None:
    hidden = unit("B", "axis", "infantry", 4, 14, badges=["camouflage"])
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), hidden])
    assert why_rules(ruling) == ["camouflage"]
    hidden["col"] = 12
    assert battle(rulebook, [unit("A", "allies", "infantry", 4, 10), hidden]).legal


def test_camouflaged_attacker_loses_camouflage_by_battling(rulebook: Rulebook) -> None:
    hidden = unit("A", "allies", "infantry", 4, 10, badges=["camouflage"])
    ruling = battle(rulebook, [hidden, unit("B", "axis", "infantry", 4, 12)])
    assert [r.rule for r in ruling.notes if "loses" in r.text] == ["camouflage"]
    moved = battle(rulebook, [{**hidden, "moved": 1}, unit("B", "axis", "infantry", 4, 12)])
    assert [r.rule for r in moved.notes if r.rule == "camouflage"] == ["camouflage", "camouflage"]
    plain = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)])
    assert not [r for r in plain.notes if r.rule == "camouflage"]


def test_unit_in_a_boat_battles_with_one_die_fewer(rulebook: Rulebook) -> None:
    river = [terrain(4, 10, "river")]
    boat = battle(rulebook, [unit("A", "allies", "infantry", 4, 10, badges=["unit_in_boat"]),
                             unit("B", "axis", "infantry", 4, 12)], river)
    ashore = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)])
    assert boat.legal and step(boat, "unit_in_boat") == -1 and boat.dice == ashore.dice - 1


def test_units_battle_enemy_units_only(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "allies", "infantry", 4, 12)])
    assert why_rules(ruling) == ["battle"]


def test_a_unit_cannot_battle_itself(rulebook: Rulebook) -> None:
    with pytest.raises(IllegalSituation) as exc:
        battle(rulebook, [unit("A", "allies", "infantry", 4, 10)], target="A")
    assert exc.value.field == "target"


@pytest.mark.parametrize(("field", "value"), [("card", "no_such_card"), ("combat_card", "armor_assault"),
                                              ("card", 7)])
def test_unknown_card_names_the_field(rulebook: Rulebook, field: str, value: Any) -> None:
    with pytest.raises(IllegalSituation) as exc:
        battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)],
               **{field: value})
    assert exc.value.field == field


def test_a_battle_with_no_dice_left_cannot_be_made(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 16)],
                    [terrain(4, 16, "forest")])
    assert ruling.dice == 0 and why_rules(ruling) == ["range_and_dice"]


def test_every_reason_an_illegal_battle_is_illegal_is_listed(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "infantry", 4, 4, moved=2), unit("B", "axis", "infantry", 4, 12),
             unit("C", "axis", "infantry", 4, 6)]
    ruling = battle(rulebook, units, [terrain(4, 4, "forest")])
    assert set(why_rules(ruling)) == {"infantry", "forest", "battle", "line_of_sight"}


# --- dice ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("attacker", "expected"), [("infantry", -1), ("armor", -2)])
def test_forest_reduces_infantry_by_one_and_armor_by_two(rulebook: Rulebook, attacker: str, expected: int) -> None:
    ruling = battle(rulebook, [unit("A", "allies", attacker, 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [terrain(4, 12, "forest")])
    assert step(ruling, "forest") == expected and ruling.dice == 3 + expected


def test_forest_reduces_armor_by_two(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "armor", 4, 14)],
                    [terrain(4, 14, "forest")])
    assert ruling.dice == 1
    assert [(r.rule, r.dice) for r in ruling.breakdown] == [("armor", 3), ("forest", -2)]


def test_forest_does_not_reduce_artillery(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "artillery", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [terrain(4, 12, "forest")])
    assert ruling.dice == 3 and step(ruling, "forest") == 0


def test_hill_reduces_only_attacks_from_below(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)]
    below = battle(rulebook, units, [terrain(4, 12, "hill")])
    assert below.dice == 2 and step(below, "hill") == -1
    level = battle(rulebook, units, [terrain(4, 12, "hill"), terrain(4, 10, "hill")])
    assert level.dice == 3 and step(level, "hill") == 0
    assert "not below" in next(r.text for r in level.breakdown if r.rule == "hill")


@pytest.mark.parametrize(("owner", "expected"), [("axis", 1), ("allies", 3), (None, 1)])
def test_bunker_protects_only_its_original_owner(rulebook: Rulebook, owner: str | None, expected: int) -> None:
    bunker = {"row": 4, "col": 12, "obstacle": "bunker", **({"owner": owner} if owner else {})}
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "infantry", 4, 12)], [bunker])
    assert ruling.dice == expected
    if owner is None:
        assert "assumed" in next(r.text for r in ruling.breakdown if r.rule == "bunker")


def test_sandbags_count_only_on_countryside_or_beach(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)]
    open_ground = battle(rulebook, units, [{"row": 4, "col": 12, "obstacle": "sandbags"}])
    assert open_ground.dice == 2 and step(open_ground, "sandbags") == -1
    beach = battle(rulebook, units, [{"row": 4, "col": 12, "terrain": "beach", "obstacle": "sandbags"}])
    assert beach.dice == 2
    town = battle(rulebook, units, [{"row": 4, "col": 12, "terrain": "town", "obstacle": "sandbags"}])
    assert town.dice == 2 and step(town, "town") == -1 and step(town, "sandbags") == 0


def test_only_the_best_reduction_counts_when_an_obstacle_is_on_a_terrain(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [{"row": 4, "col": 12, "terrain": "hill", "obstacle": "bunker", "owner": "axis"}])
    assert ruling.dice == 1
    assert step(ruling, "bunker") == -2 and step(ruling, "hill") == 0
    assert "single best reduction" in next(r.text for r in ruling.breakdown if r.rule == "hill")


def test_armor_battling_out_of_a_town_loses_two_dice(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "infantry", 4, 14)],
                    [terrain(4, 10, "town")])
    assert step(ruling, "town") == -2 and ruling.dice == 1


def test_infantry_in_wire_battles_out_at_one_die_less(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                    [{"row": 4, "col": 10, "obstacle": "wire"}])
    assert step(ruling, "wire") == -1 and ruling.dice == 2


def test_unmoved_tank_destroyer_ignores_target_terrain_and_its_own_town(rulebook: Rulebook) -> None:
    hexes = [terrain(4, 10, "town"), terrain(4, 14, "forest")]
    units = [unit("A", "allies", "tank_destroyer", 4, 10), unit("B", "axis", "armor", 4, 14)]
    still = battle(rulebook, hexes=hexes, units=units)
    assert still.dice == 2 and step(still, "forest") is None and step(still, "town") is None
    units[0]["moved"] = 1
    hexes[0] = terrain(4, 10, "hill")
    moved = battle(rulebook, hexes=hexes, units=units)
    assert moved.dice == 0 and step(moved, "forest") == -2


@pytest.mark.parametrize(("own", "exempt"), [
    ("winter_village", True), ("hill_village", True), ("ford", False), ("balka", False), ("castle", False),
])
def test_unmoved_tank_destroyer_ignores_only_a_town_or_villages_battle_out_penalty(
        rulebook: Rulebook, own: str, exempt: bool) -> None:
    """Winter Wars rulebook, Tank Destroyers: the exemption is for battling from inside a Town or
    Village hex; out of a ford, a balka or a castle the usual penalty stays."""
    units = [unit("A", "allies", "tank_destroyer", 4, 10), unit("B", "axis", "armor", 4, 14)]
    ruling = battle(rulebook, hexes=[terrain(4, 10, own)], units=units)
    penalty = rulebook.hex_rules(own).battle_out.get("armor", 0)
    assert penalty > 0
    assert ruling.dice == (2 if exempt else 2 - penalty)
    assert (step(ruling, own) in (None, 0)) is exempt


def test_heavy_anti_tank_gun_ignores_terrain(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "heavy_anti_tank_gun", 4, 10), unit("B", "axis", "armor", 4, 16)],
                    [terrain(4, 16, "town")])
    assert ruling.dice == 2 and ruling.legal


def test_combat_engineer_ignores_terrain_in_close_assault_only(rulebook: Rulebook) -> None:
    close = battle(rulebook, [unit("A", "allies", "combat_engineer", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                   [terrain(4, 12, "forest")])
    assert close.dice == 3
    firing = battle(rulebook, [unit("A", "allies", "combat_engineer", 4, 10), unit("B", "axis", "infantry", 4, 14)],
                    [terrain(4, 14, "forest")])
    assert firing.dice == 1


def test_unmoved_mortar_fires_four_hexes_ignoring_terrain(rulebook: Rulebook) -> None:
    units = [unit("A", "allies", "mortar", 4, 4), unit("B", "axis", "infantry", 4, 12)]
    still = battle(rulebook, units, [terrain(4, 12, "forest")])
    assert still.legal and still.dice == rulebook.unit("mortar").dice_unmoved[3]
    units[0]["moved"] = 1
    moved = battle(rulebook, units, [terrain(4, 12, "forest")])
    assert why_rules(moved) == ["mortar"] and "not moved" in moved.why_not[0].text


def test_armor_assault_adds_a_die_to_armor_in_close_assault(rulebook: Rulebook) -> None:
    close = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "armor", 4, 12)],
                   card="armor_assault")
    assert close.dice == 4 and step(close, "armor_assault") == 1
    firing = battle(rulebook, [unit("A", "allies", "armor", 4, 10), unit("B", "axis", "armor", 4, 14)],
                    card="Armor Assault")
    assert firing.dice == 3 and step(firing, "armor_assault") is None


def test_blazing_sun_and_guns_adds_a_die_when_firing(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "armor", 4, 14)],
                    combat_card="blazing_sun_and_guns")
    assert ruling.dice == 3 and ruling.combat_card == "blazing_sun_and_guns"


def test_japanese_infantry_at_full_strength_adds_a_die_in_close_assault(rulebook: Rulebook) -> None:
    full = unit("A", "allies", "infantry", 4, 10, nation="japanese", figures=4)
    assert battle(rulebook, [full, unit("B", "axis", "infantry", 4, 12)]).dice == 4
    weak = {**full, "figures": 3}
    assert battle(rulebook, [weak, unit("B", "axis", "infantry", 4, 12)]).dice == 3


def test_heroic_leader_adds_a_die_to_infantry(rulebook: Rulebook) -> None:
    led = unit("A", "allies", "infantry", 4, 10, badges=["heroic_leader"])
    ruling = battle(rulebook, [led, unit("B", "axis", "infantry", 4, 14)])
    assert ruling.dice == 3 and step(ruling, "heroic_leader") == 1


def test_dice_never_go_below_zero(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 16)],
                    [{"row": 4, "col": 10, "obstacle": "wire"}, terrain(4, 16, "town")])
    assert ruling.dice == 0
    assert sum(r.dice or 0 for r in ruling.breakdown) == 0
    assert ruling.breakdown[-1].rule == "range_and_dice" and ruling.breakdown[-1].dice == 1


# --- hit faces -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("target", "faces"), [("infantry", ("infantry", "grenade")), ("armor", ("armor", "grenade")),
                                               ("artillery", ("grenade",)), ("supply_truck", ("infantry", "grenade")),
                                               ("half_track", ("armor", "grenade"))])
def test_matching_symbols_and_grenades_hit(rulebook: Rulebook, target: str, faces: tuple[str, ...]) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", target, 4, 12)])
    assert ruling.hits.symbols == faces


def test_tank_destroyer_stars_hit_armor(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "tank_destroyer", 4, 10), unit("B", "axis", "armor", 4, 14)])
    assert ruling.hits.symbols == ("armor", "grenade", "star")
    at_infantry = battle(rulebook, [unit("A", "allies", "tank_destroyer", 4, 10), unit("B", "axis", "infantry", 4, 14)])
    assert "star" not in at_infantry.hits.symbols


def test_stars_hit_a_tank_destroyer_from_non_infantry_attackers(rulebook: Rulebook) -> None:
    target = unit("B", "axis", "tank_destroyer", 4, 14)
    assert "star" in battle(rulebook, [unit("A", "allies", "armor", 4, 10), target]).hits.symbols
    assert "star" not in battle(rulebook, [unit("A", "allies", "infantry", 4, 12), target]).hits.symbols


def test_machine_gun_stars_hit_infantry_only_when_it_did_not_move(rulebook: Rulebook) -> None:
    target = unit("B", "axis", "infantry", 4, 14)
    assert "star" in battle(rulebook, [unit("A", "allies", "machine_gun", 4, 10), target]).hits.symbols
    moved = unit("A", "allies", "machine_gun", 4, 10, moved=1)
    assert "star" not in battle(rulebook, [moved, target]).hits.symbols


def test_reduced_visibility_keeps_unit_symbols_to_close_assault(rulebook: Rulebook) -> None:
    firing = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 14)],
                    rules=["reduced_visibility"])
    assert firing.hits.symbols == ("grenade",)
    assert any(r.rule == "reduced_visibility" for r in firing.hits.reasons)
    close = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 12)],
                   rules=["reduced_visibility"])
    assert close.hits.symbols == ("infantry", "grenade")


def test_reduced_visibility_keeps_star_hits(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "tank_destroyer", 4, 10), unit("B", "axis", "armor", 4, 14)],
                    rules=["reduced_visibility"])
    assert ruling.hits.symbols == ("grenade", "star")


def test_odds_follow_the_dice_and_faces(rulebook: Rulebook) -> None:
    ruling = battle(rulebook, [unit("A", "allies", "infantry", 4, 10), unit("B", "axis", "infantry", 4, 14,
                                                                              figures=1)])
    assert ruling.odds is not None and ruling.odds.dice == 2
    assert ruling.odds.hit_chance == sum(rulebook.rules["range_and_dice"].die_faces[f]
                                         for f in ("infantry", "grenade")) / 6
    assert ruling.odds.eliminate == 1 - ruling.odds.hits[0]


# --- properties ----------------------------------------------------------------------------------

FEATURES = ["forest", "hill", "town", "bunker", "sandbags", "wire", "trench", "wadi", "beach", None]
TYPES = ["infantry", "armor", "artillery", "tank_destroyer", "mortar", "sniper", "combat_engineer",
         "heavy_anti_tank_gun", "half_track", "machine_gun"]


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.sampled_from(TYPES), st.sampled_from(TYPES), st.sampled_from(FEATURES), st.sampled_from(FEATURES),
       st.integers(1, 7), st.integers(0, 3), st.sampled_from([None, "armor_assault", "their_finest_hour"]))
def test_dice_are_never_negative_and_the_breakdown_adds_up(
    rulebook: Rulebook, attacker: str, target: str, own: str | None, theirs: str | None, distance: int, moved: int,
    card: str | None,
) -> None:
    hexes = []
    for col, feature in ((4, own), (4 + 2 * distance, theirs)):
        if feature:
            key = "obstacle" if rulebook.kinds[feature] == "obstacle" else "terrain"
            hexes.append({"row": 4, "col": col, key: feature})
    try:
        situation = parse_situation({"hexes": hexes, "units": [
            unit("A", "allies", attacker, 4, 4, moved=moved), unit("B", "axis", target, 4, 4 + 2 * distance)]},
            rulebook)
    except IllegalSituation:
        return  # a unit on terrain impassable to it: not a board that can exist
    ruling = assess_battle(situation, rulebook, "A", "B", card=card)
    assert ruling.dice >= 0
    if ruling.breakdown:
        assert sum(r.dice or 0 for r in ruling.breakdown) == ruling.dice
    assert (ruling.odds is not None) == ruling.legal
    for reason in (*ruling.breakdown, *ruling.why_not, *ruling.hits.reasons, *ruling.notes):
        assert reason.rule in rulebook.kinds


def _card_battle(rulebook, card, attacker_type="infantry"):
    units = [{"id": "A", "side": "allies", "type": attacker_type, "row": 6, "col": 10, "figures": 2},
             {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 4}]
    situation = parse_situation({"units": units}, rulebook)
    return assess_battle(situation, rulebook, "A", "B", card=card)


@pytest.mark.parametrize("card", ["air_power", "barrage"])
def test_a_card_that_attacks_by_itself_orders_no_unit_to_battle(rulebook, card):
    assert rulebook.rules[card].fixed_dice
    ruling = _card_battle(rulebook, card)
    assert not ruling.legal and [r.rule for r in ruling.why_not] == [card]


def test_behind_enemy_lines_may_not_order_a_half_track(rulebook):
    assert "half_track" in rulebook.rules["behind_enemy_lines"].excludes_units
    ruling = _card_battle(rulebook, "behind_enemy_lines", "half_track")
    assert any(r.rule == "behind_enemy_lines" for r in ruling.why_not)


def test_armor_assault_on_infantry_is_flagged_for_the_referee(rulebook):
    ruling = _card_battle(rulebook, "armor_assault")
    assert ruling.legal and any(n.rule == "armor_assault" for n in ruling.notes)
    assert not any(n.rule == "their_finest_hour" for n in _card_battle(rulebook, "their_finest_hour").notes)


def test_units_ordered_by_dig_in_do_not_battle(rulebook):
    assert rulebook.rules["dig_in"].ordered_units_battle is False
    assert rulebook.rules["dig_in_breakthrough"].ordered_units_battle is False  # inherited: Breakthrough variant
    assert any(r.rule == "dig_in" for r in _card_battle(rulebook, "dig_in").why_not)


def _left_marsh(rulebook, attacker_type, moved_from):
    units = [{"id": "A", "side": "allies", "type": attacker_type, "row": 6, "col": 10, "figures": 3, "moved": 1,
              **({"moved_from": moved_from} if moved_from else {})},
             {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 4}]
    hexes = [{"row": 7, "col": 11, "terrain": "marsh"}]
    return assess_battle(parse_situation({"units": units, "hexes": hexes}, rulebook), rulebook, "A", "B")


def test_armor_that_left_a_marsh_this_turn_may_not_battle(rulebook):
    assert "armor" in rulebook.hex_rules("marsh").no_battle_after_leaving
    ruling = _left_marsh(rulebook, "armor", {"row": 7, "col": 11})
    assert any(r.rule == "marsh" for r in ruling.why_not)


def test_infantry_that_left_a_marsh_may_battle(rulebook):
    assert "infantry" not in rulebook.hex_rules("marsh").no_battle_after_leaving
    assert _left_marsh(rulebook, "infantry", {"row": 7, "col": 11}).legal


def test_armor_near_a_marsh_without_a_start_hex_gets_a_referee_note(rulebook):
    ruling = _left_marsh(rulebook, "armor", None)
    assert ruling.legal and any(n.rule == "marsh" and "moved_from" in n.text for n in ruling.notes)
