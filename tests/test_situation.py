"""Parsing the situation document: strict, field-named errors, and profile resolution."""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalSituation, parse_situation


def unit(uid="A", side="allies", type_="infantry", row=6, col=10, figures=None, **extra):
    data = {"id": uid, "side": side, "type": type_, "row": row, "col": col, **extra}
    data["figures"] = figures if figures is not None else 1
    return data


def parse(rulebook, units, hexes=(), **doc):
    return parse_situation({"units": list(units), "hexes": list(hexes), **doc}, rulebook)


def error_of(rulebook, units, hexes=(), **doc) -> IllegalSituation:
    with pytest.raises(IllegalSituation) as info:
        parse(rulebook, units, hexes, **doc)
    return info.value


def test_editor_and_slang_names_resolve_to_content_ids(rulebook):
    situation = parse(rulebook, [unit(type_="tank")], [{"row": 4, "col": 10, "terrain": "woods"},
                                                       {"row": 4, "col": 12, "terrain": "radar"}])
    assert situation.units[0].type == "armor"
    assert situation.hex_state(situation.units[0].hex).terrain is None
    terrains = {h.col: s.terrain for h, s in situation.hexes.items()}
    assert terrains == {10: "forest", 12: "radar_station"}


def test_badge_named_by_its_unit_turns_armor_into_tank_destroyer(rulebook):
    situation = parse(rulebook, [unit(type_="armor", badges=["tank_destroyer"])])
    assert situation.units[0].profile == "tank_destroyer"
    assert situation.units[0].start_figures == rulebook.unit("tank_destroyer").figures


def test_german_tank_destroyer_starts_with_its_nations_figures(rulebook):
    td = rulebook.unit("tank_destroyer")
    assert td.figures_by_nation.get("german")
    situation = parse(rulebook, [unit(type_="armor", badges=["tank_destroyer"], nation="german")])
    assert situation.units[0].start_figures == td.figures_by_nation["german"]


def test_french_resistance_nation_wins_over_special_forces_badge(rulebook):
    situation = parse(rulebook, [unit(badges=["special_forces"], nation="french_resistance")])
    assert situation.units[0].profile == "french_resistance"


def test_artillery_may_be_set_up_in_a_bunker_it_could_not_enter(rulebook):
    assert "artillery" in rulebook.hex_rules("bunker").impassable
    situation = parse(rulebook, [unit(type_="artillery")], [{"row": 6, "col": 10, "obstacle": "bunker"}])
    assert situation.units[0].profile == "artillery"


def test_artillery_may_be_set_up_on_a_mountain(rulebook):
    assert "mountain" in rulebook.unit("artillery").dice_on_terrain
    parse(rulebook, [unit(type_="artillery")], [{"row": 6, "col": 10, "terrain": "mountain"}])


def test_armor_cannot_stand_in_a_river(rulebook):
    err = error_of(rulebook, [unit(type_="armor")], [{"row": 6, "col": 10, "terrain": "river"}])
    assert err.field == "units[0]" and "cannot stand on" in err.message


def test_armor_may_stand_on_a_bridge_over_a_river(rulebook):
    parse(rulebook, [unit(type_="armor")], [{"row": 6, "col": 10, "terrain": "river", "obstacle": "bridge"}])


def test_infantry_in_a_boat_may_be_on_a_river(rulebook):
    river = [{"row": 6, "col": 10, "terrain": "river"}]
    assert parse(rulebook, [unit(badges=["unit_in_boat"])], river).units[0].badges == ("unit_in_boat",)
    special_forces = unit(type_="special_forces", badges=["unit_in_boat"])  # infantry by its base entry
    assert parse(rulebook, [special_forces], river).units[0].profile == "special_forces"
    assert "cannot stand on" in error_of(rulebook, [unit()], river).message
    assert "unit_in_boat" in error_of(rulebook, [unit()], river).message  # says how it could


def test_only_infantry_may_be_in_a_boat(rulebook):
    err = error_of(rulebook, [unit(type_="half_track", badges=["unit_in_boat"])])
    assert err.field == "units[0].badges[0]" and "only for" in err.message


def test_hex_marker_is_not_a_unit_badge(rulebook):
    err = error_of(rulebook, [unit(badges=["minefield"])])
    assert err.field == "units[0].badges[0]"


@pytest.mark.parametrize(
    ("units", "hexes", "doc", "field"),
    [
        ([unit(row=6, col=11)], [], {}, "units[0]"),
        ([unit(row=60)], [], {}, "units[0]"),
        ([unit(), unit(uid="B")], [], {}, "units[1]"),
        ([unit(), unit(col=12)], [], {}, "units[1].id"),
        ([unit(figures=9)], [], {}, "units[0].figures"),
        ([unit(figures=4, start_figures=3)], [], {}, "units[0].figures"),
        ([unit(figures="4")], [], {}, "units[0].figures"),
        ([unit(figures=True)], [], {}, "units[0].figures"),
        ([unit(type_="dragon")], [], {}, "units[0].type"),
        ([unit(side="neutral")], [], {}, "units[0].side"),
        ([unit(nation="atlantis")], [], {}, "units[0].nation"),
        ([unit(badges=["jetpack"])], [], {}, "units[0].badges[0]"),
        ([unit(moved=-1)], [], {}, "units[0].moved"),
        ([unit()], [{"row": 1, "col": 1, "terrain": "lava"}], {}, "hexes[0].terrain"),
        ([unit()], [{"row": 1, "col": 1, "obstacle": "forest"}], {}, "hexes[0].obstacle"),
        ([unit()], [{"row": 1, "col": 1}, {"row": 1, "col": 1}], {}, "hexes[1]"),
        ([unit()], [{"row": 1, "col": 1, "owner": "nobody"}], {}, "hexes[0].owner"),
        ([unit()], [], {"board": "chess"}, "board"),
        ([unit()], [], {"bottom_side": "up"}, "bottom_side"),
        ([unit()], [], {"rules": ["moon_gravity"]}, "rules[0]"),
    ],
)
def test_bad_situation_names_the_field(rulebook, units, hexes, doc, field):
    assert error_of(rulebook, units, hexes, **doc).field == field


def test_missing_units_is_an_error(rulebook):
    with pytest.raises(IllegalSituation) as info:
        parse_situation({}, rulebook)
    assert info.value.field == "units"


def test_overlord_board_accepts_its_wide_columns(rulebook):
    situation = parse(rulebook, [unit(row=0, col=50)], board="overlord")
    assert situation.board.kind == "overlord"
    assert error_of(rulebook, [unit(row=0, col=50)]).field == "units[0]"


def test_moved_from_must_be_within_the_hexes_moved(rulebook):
    assert parse(rulebook, [unit(moved=1, moved_from={"row": 7, "col": 11})]).units[0].moved_from.row == 7
    assert error_of(rulebook, [unit(moved=1, moved_from={"row": 8, "col": 12})]).field == "units[0].moved_from"
    assert error_of(rulebook, [unit(moved=1, moved_from={"row": 7, "col": 12})]).field == "units[0].moved_from"
