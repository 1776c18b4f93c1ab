"""Importing a ``.m44`` file fills the situation's ``scenario``: the game info's victory and card
counts, the first player, every medal tag (with its group) as objectives of the victory entry its
flags describe, sudden death conditions, and every exit marker (with its group) as exit hexes.

Each test reads what it expects from the file itself (its ``game_info`` and its tags), for every
file under ``tests/m44/``; none types the answer in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import Rulebook, VictoryRules
from adjudicator.m44 import import_m44

SAMPLES = sorted((Path(__file__).parent / "m44").glob("*.m44"))
ROWS = {"STANDARD": 9, "OVERLORD": 9, "BRKTHRU": 17}
SIDE = {"AXIS": "axis", "ALLIES": "allies"}


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8-sig"))


def hex_of(label: str, rows: int) -> tuple[int, int]:
    """A board label as the editor writes group hexes: "F5" (even column), "g8" (odd); rows from the bottom."""
    letter, number = label[0], int(label[1:])
    col = 2 * (ord(letter.upper()) - ord("A")) + (1 if letter.islower() else 0)
    return rows - number, col


def sides(data: dict[str, Any]) -> tuple[str, str]:
    top = SIDE[data["game_info"].get("side_player1", "AXIS")]
    return top, "allies" if top == "axis" else "axis"


def tags(data: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(h, t) for h in data["board"]["hexagons"] for t in h.get("tags", [])]


def entry_for(rulebook: Rulebook, medal: dict[str, Any]) -> str | None:
    """The victory entry whose fields say what the medal tag's flags say."""
    control = ("absolute_majority" if medal.get("majority") else "sole_control" if medal.get("sole_control")
               else "occupy")
    for kind in rulebook.ids_of_kind("victory"):
        rules = rulebook.rules[kind]
        assert isinstance(rules, VictoryRules)
        if rules.ends_game or rules.control != control or rules.turn_start != bool(medal.get("turn_start")):
            continue
        if medal.get("last_to_occupy"):
            if rules.kept_until_enemy_occupies:
                return kind
        elif not rules.kept_until_enemy_occupies and rules.temporary is not bool(medal.get("permanent")):
            return kind
    return None


def groups(scenario: dict[str, Any]) -> list[tuple[str, str | None, int, frozenset[tuple[int, int]], int | None]]:
    """The imported objectives as (kind, side, worth, hexes, hexes needed), one per group or lone hex."""
    found: dict[Any, list[dict[str, Any]]] = {}
    for i, o in enumerate(scenario.get("objectives", [])):
        found.setdefault(o.get("group") or i, []).append(o)
    return [(m[0]["kind"], m[0]["side"], m[0]["medals"], frozenset((o["row"], o["col"]) for o in m),
             m[0].get("hexes_needed")) for m in found.values()]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_the_game_info_gives_the_medals_to_win_the_cards_and_the_first_player(path, rulebook):
    data = read(path)
    info, (top, bottom) = data["game_info"], sides(data)
    scenario = import_m44(data, rulebook).situation.get("scenario") or {}
    expected_medals = {s: info[f"victory_{p}"] for s, p in ((top, "player1"), (bottom, "player2"))
                       if f"victory_{p}" in info}
    expected_cards = {s: info[f"cards_{p}"] for s, p in ((top, "player1"), (bottom, "player2")) if f"cards_{p}" in info}
    assert scenario.get("medals_to_win", {}) == expected_medals
    assert scenario.get("cards", {}) == expected_cards
    starting = {"PLAYER1": top, "PLAYER2": bottom}.get(info.get("starting", ""))
    assert scenario.get("first_player") == starting


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_medal_tag_becomes_the_objective_its_flags_describe(path, rulebook):
    data = read(path)
    rows = ROWS[data["board"].get("type", "STANDARD").upper()]
    result = import_m44(data, rulebook)
    imported = groups(result.situation.get("scenario") or {})
    expected = []
    for h, tag in tags(data):
        if not tag["name"].startswith("medal"):
            continue
        medal = tag.get("medal", {})
        kind = entry_for(rulebook, medal)
        if kind is None:  # flags no victory entry describes: listed, never dropped
            assert any(u.what == "medal" and u.name == tag["name"] and (u.row, u.col) == (h["row"], h["col"])
                       for u in result.unknown)
            continue
        hexes = frozenset([(h["row"], h["col"]), *(hex_of(label, rows) for label in tag.get("group", []))])
        allied = tag["name"] in ("medal1", "medal4", "medal6")
        side = None if tag["name"] == "medal0" else "allies" if allied else "axis"
        rules = rulebook.rules[kind]
        assert isinstance(rules, VictoryRules)
        needed = medal.get("nbr_hex") if len(hexes) > 1 else None
        expected.append((kind, None if rules.either_side else side, medal.get("counts_for", 1), hexes, needed))
    for condition in data["game_info"].get("victory", {}).get("condition", []):
        sudden = condition.get("group_sudden_death")
        if sudden:
            kind = next(k for k in rulebook.ids_of_kind("victory") if rulebook.rules[k].ends_game)  # type: ignore[attr-defined]
            expected.append((kind, SIDE[sudden["side"]], 1, frozenset(hex_of(x, rows) for x in sudden["group"]),
                             sudden["number"]))
    assert sorted(imported, key=repr) == sorted(expected, key=repr)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_exit_marker_gives_its_hexes_to_the_side_it_names(path, rulebook):
    data = read(path)
    rows = ROWS[data["board"].get("type", "STANDARD").upper()]
    scenario = import_m44(data, rulebook).situation.get("scenario") or {}
    expected = set()
    for h, tag in tags(data):
        if tag.get("behavior") == "EXIT_MARKER":
            for row, col in [(h["row"], h["col"]), *(hex_of(label, rows) for label in tag.get("group", []))]:
                expected.add((row, col, SIDE[tag["side"]]))
    assert {(e["row"], e["col"], e["side"]) for e in scenario.get("exits", [])} == expected
    worth = {"infantry": 2} if data["game_info"].get("options", {}).get("infantry_exit_counts_2") else None
    assert all(e.get("medals") == worth for e in scenario.get("exits", []))


def test_the_sample_files_hold_every_victory_entry_and_exits(rulebook):
    """The samples above cover every kind of objective the content has, so the tests check them all."""
    kinds: set[str] = set()
    exits = 0
    for path in SAMPLES:
        scenario = import_m44(read(path), rulebook).situation.get("scenario") or {}
        kinds |= {o["kind"] for o in scenario.get("objectives", [])}
        exits += len(scenario.get("exits", []))
    assert kinds == set(rulebook.ids_of_kind("victory")) and exits


def test_scenario_options_become_rules_or_scenario_options_and_only_unknown_ones_are_listed(rulebook):
    result = import_m44(read(Path(__file__).parent / "m44" / "objectives_standard.m44"), rulebook)
    assert result.situation["scenario"]["options"] == ["us_marine_corps"]  # from gung_ho
    assert not [u for u in result.unknown if u.what == "option"]
    other = import_m44(read(Path(__file__).parent / "m44" / "exits_breakthrough.m44"), rulebook)
    assert other.situation["rules"] == ["night_attacks"]
    assert [u.name for u in other.unknown if u.what == "option"] == ["must_have_unit_exit"]


def test_a_group_hex_off_the_board_is_skipped_and_the_rest_imported(rulebook):
    data = {"game_info": {"side_player1": "AXIS"}, "board": {"type": "STANDARD", "hexagons": [
        {"row": 4, "col": 10, "tags": [{"name": "medal1", "group": ["G5", "Z9", "Q"], "medal": {"nbr_hex": 2}}]}]}}
    result = import_m44(data, rulebook)
    assert {(o["row"], o["col"]) for o in result.situation["scenario"]["objectives"]} == {(4, 10), (4, 12)}
    assert len([s for s in result.skipped if s.what == "medal"]) == 2


def test_an_imported_scenario_is_scored_at_once(client: FlaskClient):
    """The import's situation goes straight to ``/score``: the objectives a unit stands on count."""
    path = Path(__file__).parent / "m44" / "objectives_standard.m44"
    imported = client.post("/api/v1/import/m44", data=path.read_bytes(), content_type="application/json").get_json()
    situation = imported["situation"]
    answer = client.post("/api/v1/score", json=situation).get_json()
    assert answer["needed"] == situation["scenario"]["medals_to_win"]
    held = {(s["rule"], s["side"]) for s in answer["sources"]}
    # the file sets an Axis unit on its own permanent medal (D7) and on the Allied town group (no medal)
    assert ("permanent_medal", "axis") in held and not any(r == "temporary_medal" for r, _ in held)
    assert {o["kind"] for o in answer["objectives"]} == {o["kind"] for o in situation["scenario"]["objectives"]}
