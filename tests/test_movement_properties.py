"""Property tests for movement on random boards: every reported path is a legal move the path
checker accepts with the same count and the same battle verdict, the hexes it lists are exactly the
ones a brute-force walk of the simple rules can reach (on open ground), and unreachable hexes within
reach each carry a reason."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.geometry import BOARDS, Hex, distance
from adjudicator.engine.movement import check_path, legal_moves
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

BOARD = BOARDS["standard"]
ALL_HEXES = list(BOARD.hexes())
TERRAINS = ["forest", "hill", "steep_hill", "river", "road", "road", "marsh", "beach", "sea_bluff", "ford",
            "hedgerow", "frozen_river", "town", None, None]
UNITS = [("infantry", []), ("armor", []), ("artillery", []), ("half_track", []), ("supply_truck", []),
         ("infantry", ["special_forces"]), ("infantry", ["combat_engineer"])]
CARDS = [None, None, "infantry_assault", "behind_enemy_lines", "armor_assault"]


@st.composite
def boards(draw: Any) -> tuple[dict[str, Any], str | None]:
    here = draw(st.sampled_from(ALL_HEXES))
    kind, badges = draw(st.sampled_from(UNITS))
    near = [h for h in ALL_HEXES if 0 < distance(h, here) <= 4]
    others = draw(st.lists(st.sampled_from(near), max_size=6, unique=True))
    terrain = draw(st.lists(st.tuples(st.sampled_from([*near, here]), st.sampled_from(TERRAINS)), max_size=30))
    hexes: dict[Hex, dict[str, Any]] = {}
    for h, name in terrain:
        if name and h not in others and not (h == here and name in ("river", "marsh", "sea_bluff")):
            hexes[h] = {"row": h.row, "col": h.col, "terrain": name}
    if draw(st.booleans()) and near:
        h = draw(st.sampled_from(near))
        if h not in others:
            hexes[h] = {"row": h.row, "col": h.col, "impassable": True}
    units = [{"id": "A", "side": "allies", "type": kind, "row": here.row, "col": here.col, "figures": 1,
              "badges": badges}]
    units += [{"id": f"U{i}", "side": draw(st.sampled_from(["allies", "axis"])), "type": "infantry",
               "row": h.row, "col": h.col, "figures": 4} for i, h in enumerate(others)]
    rules = draw(st.sampled_from([[], [], ["winter_weather"], ["blitz"]]))
    return {"hexes": list(hexes.values()), "units": units, "rules": rules}, draw(st.sampled_from(CARDS))


def moved_there(situation: Situation, path: tuple[Hex, ...]) -> Situation:
    """The same situation with unit A standing at the path's end, carrying the path."""
    units = tuple(replace(u, hex=path[-1], path=path, moved=len(path) - 1, moved_from=path[0]) if u.id == "A" else u
                  for u in situation.units)
    return Situation(situation.board, situation.bottom_side, situation.rules_in_effect, situation.hexes, units)


@given(case=boards())
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_reported_path_is_a_legal_move_with_the_same_verdict(rulebook: Rulebook, case: Any) -> None:
    doc, card = case
    situation = parse_situation(doc, rulebook)
    ruling = legal_moves(situation, rulebook, "A", card)
    start = situation.unit("A").hex
    for option in ruling.reachable:
        path = option.path
        assert path[0] == start and path[-1] == option.end
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(path))
        assert len(set(path)) == len(path)
        assert all(situation.unit_at(h) is None for h in path[1:]), "a path never crosses another unit"
        assert all(not situation.hex_state(h).impassable for h in path[1:])
        assert len(path) - 1 <= option.hexes_moved <= ruling.profile.allowance_for(True)
        checked = check_path(moved_there(situation, path), rulebook, moved_there(situation, path).unit("A"), card)
        assert checked is not None
        assert checked.hexes_moved == option.hexes_moved
        assert checked.may_battle == option.may_battle or ruling.profile.close_assault_limit is not None
    reached = {o.end for o in ruling.reachable}
    for h, why in ruling.unreachable:
        assert h not in reached and why and distance(h, start) <= ruling.profile.allowance_for(True)


@given(here=st.sampled_from(ALL_HEXES), walls=st.lists(st.sampled_from(ALL_HEXES), max_size=20, unique=True),
       kind=st.sampled_from(["infantry", "armor", "artillery"]))
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_open_ground_reach_matches_a_brute_force_walk(rulebook: Rulebook, here: Hex, walls: list[Hex],
                                                     kind: str) -> None:
    """On countryside only other units limit a move: the reachable hexes are those a plain
    breadth-first walk of at most the unit's ``max_move`` steps through empty hexes reaches."""
    walls = [h for h in walls if h != here]
    units = [{"id": "A", "side": "allies", "type": kind, "row": here.row, "col": here.col, "figures": 1}]
    units += [{"id": f"W{i}", "side": "axis", "type": "infantry", "row": h.row, "col": h.col, "figures": 1}
              for i, h in enumerate(walls)]
    situation = parse_situation({"units": units}, rulebook)
    ruling = legal_moves(situation, rulebook, "A")
    frontier, seen = {here}, {here}
    for _ in range(rulebook.unit(kind).max_move):
        frontier = {n for h in frontier for n in BOARD.neighbours(h) if n not in seen and n not in walls}
        seen |= frontier
    assert {o.end for o in ruling.reachable} == seen - {here}
    assert all(o.hexes_moved == len(o.path) - 1 for o in ruling.reachable)
