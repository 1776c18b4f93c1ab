"""Importing official scenario-editor files (``.m44``): every name maps through the content
(``editor_names``, ``editor_badges``), whatever does not map is listed, and the result is a
situation the engine accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.situation import parse_situation
from adjudicator.m44 import M44Error, import_m44, loads

SAMPLES = Path(__file__).parent / "m44"


def scenario(*hexagons: dict[str, Any], board: str = "STANDARD", top: str = "AXIS", **extra: Any) -> dict[str, Any]:
    info = {"side_player1": top, **extra.pop("game_info", {})}
    return {"game_info": info, "board": {"type": board, "hexagons": list(hexagons), **extra}}


def hex_at(doc: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    return next((h for h in doc["hexes"] if (h["row"], h["col"]) == (row, col)), {})


def unit_at(doc: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    return next(u for u in doc["units"] if (u["row"], u["col"]) == (row, col))


def sample(name: str, rulebook):
    return import_m44(loads((SAMPLES / f"{name}.m44").read_bytes()), rulebook)


@pytest.mark.parametrize(("tile", "entry"), [
    ("woods", "forest"), ("hills", "hill"), ("buildings", "town"), ("riverFL", "river"), ("wforest", "winter_forest"),
])
def test_terrain_tiles_map_through_editor_names(rulebook, tile, entry):
    doc = import_m44(scenario({"row": 4, "col": 10, "terrain": {"name": tile}}), rulebook).situation
    assert hex_at(doc, 4, 10)["terrain"] == entry
    assert tile in rulebook.aliases or tile.lower() in rulebook.aliases  # the mapping is the content's


@pytest.mark.parametrize(("tile", "entry"), [("sand", "sandbags"), ("wire", "wire"), ("hedgehog", "hedgehog")])
def test_obstacle_tiles_go_to_the_obstacle_slot(rulebook, tile, entry):
    doc = import_m44(scenario({"row": 4, "col": 10, "terrain": {"name": "hills"}, "obstacle": {"name": tile}}),
                     rulebook).situation
    assert hex_at(doc, 4, 10) == {"row": 4, "col": 10, "terrain": "hill", "obstacle": entry}


def test_bunker_drawn_as_rect_terrain_is_an_obstacle_entry(rulebook):
    doc = import_m44(scenario({"row": 2, "col": 6, "rect_terrain": {"name": "bunker", "original_owner": "AXIS"}}),
                     rulebook).situation
    assert hex_at(doc, 2, 6) == {"row": 2, "col": 6, "obstacle": "bunker", "owner": "axis"}


@pytest.mark.parametrize(("name", "unit_type", "side", "nation"), [
    ("infus", "infantry", "allies", "us"),
    ("tankger", "armor", "axis", "german"),
    ("inf2ger", "special_forces", "axis", "german"),
    ("tank2brit", "elite_armor", "allies", "british"),
    ("gunbrit", "artillery", "allies", "british"),
    ("infgb", "infantry", "allies", "british"),
    ("infru", "infantry", "allies", "soviet"),
    ("infjp", "infantry", "axis", "japanese"),
    ("TANKIT", "armor", "axis", "italian"),
])
def test_unit_name_is_type_prefix_plus_nation_suffix(rulebook, name, unit_type, side, nation):
    doc = import_m44(scenario({"row": 6, "col": 10, "unit": {"name": name}}), rulebook).situation
    unit = unit_at(doc, 6, 10)
    assert (unit["type"], unit["side"], unit["nation"]) == (unit_type, side, nation)


def test_unit_without_nbr_units_has_its_standard_figures(rulebook):
    doc = import_m44(scenario({"row": 6, "col": 10, "unit": {"name": "tankus"}},
                              {"row": 6, "col": 14, "unit": {"name": "tank2ger"}}), rulebook).situation
    assert unit_at(doc, 6, 10)["figures"] == rulebook.unit("armor").figures
    assert unit_at(doc, 6, 14)["figures"] == rulebook.unit("elite_armor").figures
    assert "start_figures" not in unit_at(doc, 6, 10)


def test_nbr_units_sets_current_and_starting_figures(rulebook):
    doc = import_m44(scenario({"row": 6, "col": 10, "unit": {"name": "tankger", "nbr_units": 2}}), rulebook).situation
    unit = unit_at(doc, 6, 10)
    assert (unit["figures"], unit["start_figures"]) == (2, 2)
    situation = parse_situation(doc, rulebook)
    assert not situation.units[0].weakened  # a two-tank unit in the scenario starts at full strength


def test_badge_number_maps_through_editor_badges(rulebook):
    engineer = {"row": 6, "col": 10, "unit": {"name": "infus", "badge": "badge6"}}
    gun = {"row": 6, "col": 14, "unit": {"name": "gunger", "badge": "badge46"}}
    doc = import_m44(scenario(engineer, gun), rulebook).situation
    assert unit_at(doc, 6, 10)["badges"] == ["combat_engineer_badge"]
    assert 6 in rulebook.rules["combat_engineer_badge"].editor_badges
    units = {u.id: u for u in parse_situation(doc, rulebook).units}
    assert units[unit_at(doc, 6, 14)["id"]].profile == "heavy_anti_tank_gun"


@pytest.mark.parametrize(("top", "bottom"), [("AXIS", "allies"), ("ALLIES", "axis"), ("allies", "axis")])
def test_side_player1_is_the_top_of_the_board(rulebook, top, bottom):
    assert import_m44(scenario(top=top), rulebook).situation["bottom_side"] == bottom


@pytest.mark.parametrize(("board_type", "kind"), [
    ("STANDARD", "standard"), ("OVERLORD", "overlord"), ("BRKTHRU", "breakthrough"), ("brkthru", "breakthrough"),
])
def test_board_type_picks_the_board(rulebook, board_type, kind):
    assert import_m44(scenario(board=board_type), rulebook).situation["board"] == kind


def test_unknown_names_are_listed_not_dropped(rulebook):
    result = sample("unknown_names_overlord", rulebook)
    unknown = {(u.row, u.col, u.what, u.name) for u in result.unknown}
    assert unknown == {
        (None, None, "option", "made_up_rules"),
        (4, 30, "terrain", "zeppelinfield"),
        (5, 31, "unit", "zeppelinus"),
        (6, 32, "badge", "badge99"),
    }
    # What did map is still there: the infantry whose badge is unknown, the forest, the tank.
    doc = result.situation
    assert unit_at(doc, 6, 32)["type"] == "infantry"
    assert "badges" not in unit_at(doc, 6, 32)
    assert hex_at(doc, 3, 41)["terrain"] == "forest"
    assert [s.reason for s in result.skipped] == ["not on the overlord board"]
    assert result.as_dict()["unknown"][1] == {"row": 4, "col": 30, "what": "terrain", "name": "zeppelinfield"}


def test_second_terrain_on_a_hex_is_skipped_with_the_reason(rulebook):
    tiles = {"row": 1, "col": 11, "terrain": {"name": "woods"}, "rect_terrain": {"name": "wruins"}}
    result = import_m44(scenario(tiles), rulebook)
    assert hex_at(result.situation, 1, 11)["terrain"] == "forest"
    assert [(s.name, "already has Forest" in s.reason) for s in result.skipped] == [("wruins", True)]


def test_tile_behaviour_without_an_entry_is_mentioned(rulebook):
    tile = {"name": "hills", "behavior": "MADE_UP_SLOPE"}
    result = import_m44(scenario({"row": 3, "col": 5, "terrain": tile}), rulebook)
    assert hex_at(result.situation, 3, 5)["terrain"] == "hill"
    assert any("MADE_UP_SLOPE" in note for note in result.notes)


def test_bunker_without_owner_belongs_to_the_side_that_starts_on_it(rulebook):
    result = import_m44(scenario({"row": 2, "col": 6, "rect_terrain": {"name": "bunker"}, "unit": {"name": "infger"}}),
                        rulebook)
    assert hex_at(result.situation, 2, 6)["owner"] == "axis"
    assert any("no owner" in note for note in result.notes)


def test_beach_face_fills_the_blank_bottom_rows_with_beach_and_ocean(rulebook):
    result = sample("beach_bunkers_breakthrough", rulebook)
    doc = result.situation
    terrain = {(h["row"], h["col"]): h.get("terrain") for h in doc["hexes"]}
    assert {terrain.get((r, 1 if r % 2 else 0)) for r in (11, 12, 13)} == {"beach"}
    assert {terrain.get((r, 1 if r % 2 else 0)) for r in (14, 15, 16)} == {"ocean"}
    assert terrain.get((10, 0)) is None
    assert hex_at(doc, 11, 11) == {"row": 11, "col": 11, "terrain": "beach", "obstacle": "hedgehog"}


def test_scenario_options_switch_on_the_special_rules_they_name(rulebook):
    assert sample("crossroads_standard", rulebook).situation["rules"] == ["blitz"]
    assert sample("beach_bunkers_breakthrough", rulebook).situation["rules"] == ["night_attacks"]


def test_medal_tags_are_mentioned_not_imported(rulebook):
    result = sample("crossroads_standard", rulebook)
    assert result.unknown == ()
    assert any("1 medal" in note for note in result.notes)


def test_unit_the_engine_rejects_is_skipped_with_the_engine_reason(rulebook):
    result = import_m44(scenario({"row": 4, "col": 10, "terrain": {"name": "river"}, "unit": {"name": "tankus"}},
                                 {"row": 6, "col": 10, "unit": {"name": "infger"}}), rulebook)
    assert [u["type"] for u in result.situation["units"]] == ["infantry"]
    assert len(result.skipped) == 1 and "cannot stand on" in result.skipped[0].reason
    parse_situation(result.situation, rulebook)


@pytest.mark.parametrize("name", ["crossroads_standard", "beach_bunkers_breakthrough", "unknown_names_overlord"])
def test_every_sample_imports_to_a_situation_the_engine_accepts(rulebook, name):
    result = sample(name, rulebook)
    situation = parse_situation(result.situation, rulebook)
    assert situation.units
    assert result.title and result.title.endswith("(test)")


def test_title_comes_from_the_english_text(rulebook):
    assert sample("crossroads_standard", rulebook).title == "Crossroads (test)"


@pytest.mark.parametrize(("data", "field"), [
    ([], "(file)"),
    ({"game_info": {}}, "board"),
    ({"board": {"type": "HEXAGONAL"}}, "board.type"),
    ({"board": {"type": False}}, "board.type"),
    ({"board": {}, "game_info": {"side_player1": 1}}, "game_info.side_player1"),
    ({"board": {"hexagons": {"row": 1}}}, "board.hexagons"),
    ({"board": {"hexagons": [{"row": "x", "col": 1}]}}, "board.hexagons[0].row"),
    ({"board": {}, "game_info": {"side_player1": "NEUTRAL"}}, "game_info.side_player1"),
])
def test_unreadable_scenarios_name_the_field(rulebook, data, field):
    with pytest.raises(M44Error) as err:
        import_m44(data, rulebook)
    assert err.value.field == field


def test_text_that_is_not_json_is_an_error():
    with pytest.raises(M44Error, match="not valid JSON"):
        loads(b"<scenario/>")


def test_byte_order_mark_is_accepted():
    assert loads("\ufeff{\"board\": {}}".encode()) == {"board": {}}


NAMES = st.sampled_from(["woods", "hills", "river", "sand", "bunker", "wire", "buildings", "zzz", "", "inf", "tank"])
UNIT_NAMES = st.sampled_from(["infus", "tankger", "inf2ger", "gunbrit", "vehus", "ger", "tank2it", "infch", "x"])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
HEXAGON = st.fixed_dictionaries(
    {"row": st.integers(-2, 18) | st.text(max_size=2), "col": st.integers(-2, 52)},
    optional={
        "terrain": st.fixed_dictionaries({"name": NAMES}, optional={"original_owner": st.sampled_from(["AXIS", "x"])}),
        "rect_terrain": st.fixed_dictionaries({"name": NAMES}) | JSON,
        "obstacle": st.fixed_dictionaries({"name": NAMES}),
        "unit": st.fixed_dictionaries({"name": UNIT_NAMES}, optional={
            "badge": st.sampled_from(["badge6", "badge46", "badge", "badgeX", "badge3"]) | JSON,
            "nbr_units": st.integers(-1, 9) | JSON}),
        "tags": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["medal1", "tag14", "EXIT_MARKER"])}) | JSON,
                         max_size=3) | JSON,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hexagons=st.lists(HEXAGON, max_size=12), board=st.sampled_from(["STANDARD", "OVERLORD", "BRKTHRU", "x"]),
       face=st.sampled_from(["BEACH", "COUNTRY", None]))
def test_any_scenario_imports_to_a_valid_situation_or_fails_with_a_named_field(rulebook, hexagons, board, face):
    data = {"board": {"type": board, "face": face, "hexagons": hexagons}, "game_info": {"side_player1": "AXIS"}}
    try:
        result = import_m44(data, rulebook)
    except M44Error as exc:
        assert exc.field
        return
    parse_situation(result.situation, rulebook)


@settings(max_examples=150, deadline=None)
@given(data=JSON)
def test_arbitrary_json_never_crashes_the_import(rulebook, data):
    try:
        parse_situation(import_m44(data, rulebook).situation, rulebook)
    except M44Error as exc:
        assert exc.field


def test_a_file_that_is_not_json_is_explained_without_the_parsers_own_words():
    with pytest.raises(M44Error) as err:
        loads(b"{not json")
    message = err.value.message
    assert "line 1, column 2" in message and "Expecting" not in message and "char 1" not in message


# -- issue #14 A: every piece of a real scenario -------------------------------------------------

def test_every_editor_name_added_for_real_scenarios_imports_with_nothing_unknown(rulebook):
    result = sample("winter_pieces_standard", rulebook)
    assert result.unknown == () and result.skipped == ()
    doc = result.situation
    assert unit_at(doc, 1, 3)["badges"] == ["ski_troops_badge"]  # badge30
    assert unit_at(doc, 1, 5)["badges"] == ["camouflage"]  # tag15
    assert unit_at(doc, 2, 8)["badges"] == ["flame_thrower_badge"]  # badge33
    assert (unit_at(doc, 6, 12)["type"], unit_at(doc, 6, 12)["side"], unit_at(doc, 6, 12)["figures"]) == (
        "supply_truck", "allies", 3)  # vehus with nbr_units
    assert (unit_at(doc, 6, 14)["type"], unit_at(doc, 6, 14)["side"]) == ("supply_truck", "axis")  # vehger
    situation = parse_situation(doc, rulebook)
    profiles = {(u.hex.row, u.hex.col): u.profile for u in situation.units}
    assert profiles[(1, 3)] == "ski_troops" and profiles[(2, 8)] == "flame_thrower_tank"


def test_units_drawn_as_tiles_become_units(rulebook):
    trains = sample("winter_pieces_standard", rulebook).situation
    assert (unit_at(trains, 5, 1)["type"], unit_at(trains, 5, 1)["side"]) == ("train", "axis")  # loco, owner given
    assert unit_at(trains, 5, 3)["type"] == "train"  # wagon
    result = sample("destroyer_beach_standard", rulebook)
    ship = unit_at(result.situation, 8, 6)
    assert (ship["type"], ship["side"]) == ("destroyer", "allies")  # pdestroyer on the allied half
    assert any("names no side" in note for note in result.notes)


def test_stacked_tiles_keep_every_obstacle_and_a_ford_replaces_its_river(rulebook):
    doc = sample("winter_pieces_standard", rulebook).situation
    assert hex_at(doc, 4, 16)["terrain"] == "ford"
    assert sorted(hex_at(doc, 4, 18)["obstacles"]) == ["bridge", "wire"]
    assert sorted(hex_at(doc, 4, 20)["obstacles"]) == ["bridge", "exit_marker"]
    state = parse_situation(doc, rulebook).hexes
    assert set(next(s for h, s in state.items() if (h.row, h.col) == (4, 18)).features()) == {"river", "bridge", "wire"}


def test_impassable_behaviours_mark_the_hex_impassable(rulebook):
    result = sample("winter_pieces_standard", rulebook)
    assert hex_at(result.situation, 3, 21) == {"row": 3, "col": 21, "terrain": "forest", "impassable": True}
    assert hex_at(result.situation, 5, 21)["impassable"] is True
    assert not any("IMPASSABLE" in note for note in result.notes)  # not "no entry of its own" any more


def test_nation_options_are_notes_not_unknown_names(rulebook):
    result = sample("winter_pieces_standard", rulebook)
    assert not [u for u in result.unknown if u.what == "option"]
    for option in ("british_commonwealth", "italy_royal_army", "gung_ho"):
        assert any(f"option {option!r}" in note for note in result.notes)


def test_decorative_pieces_are_listed_apart_from_unknown_names(rulebook):
    result = sample("winter_pieces_standard", rulebook)
    decorative = {(d.row, d.col, d.name) for d in result.decorative}
    assert decorative == {(2, 10, "badge1"), (7, 9, "badge3"), (3, 13, "tag1"), (3, 13, "tag4")}
    assert "badges" not in unit_at(result.situation, 7, 9)  # the French Resistance badge on a tank is a picture
    beach = sample("destroyer_beach_standard", rulebook)
    assert {(d.what, d.name) for d in beach.decorative} == {("rect_terrain", "barge"), ("badge", "badge2")}
    assert beach.unknown == ()
    assert result.as_dict()["decorative"][0]["reason"]


@pytest.mark.parametrize("digits", ["²", "³5"])
def test_superscript_digits_are_not_numbers(rulebook, digits):
    """``"²".isdigit()`` is true but ``int("²")`` fails: such a row is a named 400, never a crash."""
    with pytest.raises(M44Error) as info:
        import_m44(scenario({"row": digits, "col": 4}), rulebook)
    assert info.value.field == "board.hexagons[0].row"
    unit = {"name": "infus", "nbr_units": digits, "badge": f"badge{digits}"}
    result = import_m44(scenario({"row": 4, "col": 4, "unit": unit}), rulebook)
    assert unit_at(result.situation, 4, 4)["figures"] == 4
