"""Line of sight for whole boards (content ``line_of_sight``, ``hill``, ``lake``): the precomputed
geometry tables of ``engine.sightlines`` and ``engine.los.sight_map``.

``sight_map`` must rule exactly as ``line_of_sight`` does, pair by pair, on every board kind; the
tables must hold exactly what the direct classification computes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Hex, distance
from adjudicator.engine.los import line_of_sight, sight_map
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.sightlines import board_sight, classify, relative, trace
from adjudicator.engine.situation import Situation, may_be_placed_on, parse_situation

MIXES: dict[str, list[str]] = {
    "forest_hill_town": ["forest", "hill", "town"],
    "hill_groups": ["hill", "hill", "hill", "mountain", "hill_forest", "cave_on_hill", "steep_hill", "forest"],
    "lakes": ["lake", "lake", "lake", "river", "forest", "hill"],
    "everything": ["lake", "hill", "mountain", "town", "river", "erg", "cliff", "hill_village", "winter_hill"],
}
OBSTACLES = ["smoke_screen", "sandbags", "wire", "field_bunker", "hedgehog"]  # blocking and not


def random_board(rulebook: Rulebook, kind: str, mix: str, seed: int, cover: float = 0.3,
                 units: float = 0.08, obstacles: float = 0.0) -> Situation:
    """A seeded random board: ``cover`` of its hexes get terrain from ``MIXES[mix]``, ``obstacles``
    one or two stacked obstacles, ``units`` an infantry unit where infantry may stand (so units on
    hills and mountains occur)."""
    rnd = random.Random(f"{kind}-{mix}-{seed}")
    hexes: list[dict[str, Any]] = []
    placed: list[dict[str, Any]] = []
    for h in BOARDS[kind].hexes():
        terrain = rnd.choice(MIXES[mix]) if rnd.random() < cover else None
        stacked = rnd.sample(OBSTACLES, rnd.randint(1, 2)) if rnd.random() < obstacles else []
        if terrain or stacked:
            hexes.append({"row": h.row, "col": h.col, **({"terrain": terrain} if terrain else {}),
                          **({"obstacles": stacked} if stacked else {})})
        features = [terrain, *stacked] if terrain else stacked
        if rnd.random() < units and all(may_be_placed_on(rulebook, "infantry", f) for f in features):
            placed.append({"id": f"u{len(placed)}", "side": rnd.choice(["allies", "axis"]), "type": "infantry",
                           "row": h.row, "col": h.col, "figures": 4})
    return parse_situation({"board": kind, "hexes": hexes, "units": placed}, rulebook)


def assert_agrees_with_line_of_sight(rulebook: Rulebook, situation: Situation) -> None:
    """Every ordered pair (a, b): ``b in seen[a]`` equals ``line_of_sight(a, b).clear``.

    A line is the same both ways, and so is its ruling (``test_los.py::
    test_line_of_sight_is_symmetric``): each unordered pair is ruled once and compared with both
    directions of the map, which halves the work. That the reference is symmetric on this very
    board is checked too, on a seeded sample of pairs ruled the other way as well."""
    seen = sight_map(situation, rulebook)
    hexes = list(situation.board.hexes())
    assert set(seen) == set(hexes)
    wrong, ruled = [], {}
    for i, a in enumerate(hexes):
        for b in hexes[i:]:
            clear = ruled[a, b] = line_of_sight(situation, rulebook, a, b).clear
            wrong += [(x, y) for x, y in ((a, b), (b, a)) if (y in seen[x]) != clear]
    assert wrong == []
    sample = random.Random(len(hexes)).sample(sorted(ruled), min(len(ruled), 1000))
    asymmetric = [(a, b) for a, b in sample if line_of_sight(situation, rulebook, b, a).clear != ruled[a, b]]
    assert asymmetric == []


@pytest.mark.parametrize(("kind", "mix", "seed"), [
    ("standard", "forest_hill_town", 1),
    ("standard", "hill_groups", 2),
    ("standard", "lakes", 3),
    ("standard", "everything", 4),
    ("overlord", "lakes", 6),
    ("breakthrough", "everything", 8),
])
def test_sight_map_agrees_with_line_of_sight_on_every_ordered_pair(
        rulebook: Rulebook, kind: str, mix: str, seed: int) -> None:
    assert_agrees_with_line_of_sight(rulebook, random_board(rulebook, kind, mix, seed))


def test_sight_map_agrees_with_stacked_obstacles_on_terrain(rulebook: Rulebook) -> None:
    """Smoke screens and field bunkers block, sandbags, wire and hedgehogs do not, also stacked."""
    assert_agrees_with_line_of_sight(rulebook, random_board(rulebook, "standard", "lakes", 11, obstacles=0.25))


def test_sight_map_agrees_on_dense_hill_ranges_with_units_on_them(rulebook: Rulebook) -> None:
    """Half the board hills and mountains: large plateau groups, many units standing on them."""
    assert_agrees_with_line_of_sight(rulebook, random_board(rulebook, "standard", "hill_groups", 9, 0.5, 0.2))


def test_on_an_empty_board_every_hex_sees_every_hex(rulebook: Rulebook) -> None:
    situation = parse_situation({"board": "overlord", "units": []}, rulebook)
    everything = frozenset(situation.board.hexes())
    assert all(seen == everything for seen in sight_map(situation, rulebook).values())


def test_in_a_forest_everywhere_only_neighbours_and_board_edge_grazes_see(rulebook: Rulebook) -> None:
    """Every line of range 2 or more crosses a forest or runs between two, except a line down the
    board's edge between a forest and an off-board hex (off-board hexes never block); adjacent
    hexes always see each other, and a hex sees itself."""
    board = BOARDS["standard"]
    situation = parse_situation({"units": [], "hexes": [{"row": h.row, "col": h.col, "terrain": "forest"}
                                                        for h in board.hexes()]}, rulebook)
    grazes = 0
    for origin, seen in sight_map(situation, rulebook).items():
        assert {origin, *board.neighbours(origin)} <= seen
        for target in seen - {origin, *board.neighbours(origin)}:
            line = trace(origin, target)
            assert not line.crossed and all(not board.contains(a) or not board.contains(b) for a, b in line.edges)
            grazes += 1
    assert grazes == 4 * 2 * 2  # rows 0-2, 2-4, 4-6, 6-8 down the left and the right edge, each way


def test_units_on_one_hill_group_see_over_it_but_not_over_another(rulebook: Rulebook) -> None:
    hexes = [{"row": 4, "col": c, "terrain": "hill"} for c in (4, 6, 8, 12)]
    situation = parse_situation({"hexes": hexes, "units": []}, rulebook)
    seen = sight_map(situation, rulebook, [Hex(4, 4), Hex(4, 2)])
    assert Hex(4, 8) in seen[Hex(4, 4)]  # same group: the hill at (4, 6) does not block
    assert Hex(4, 8) not in seen[Hex(4, 2)]  # from off the hill it does
    assert Hex(4, 12) not in seen[Hex(4, 4)]  # (4, 12) is another group
    assert seen[Hex(4, 4)] and set(seen) == {Hex(4, 4), Hex(4, 2)}


def test_a_lake_run_counts_a_hex_met_only_along_the_board_edge(rulebook: Rulebook) -> None:
    """Down the left edge the line runs between an off-board hex and b8 (1, 1), then crosses
    A7 (2, 0): two contiguous lake hexes the line meets, so the crossed one blocks."""
    lakes = [{"row": 1, "col": 1, "terrain": "lake"}, {"row": 2, "col": 0, "terrain": "lake"}]
    situation = parse_situation({"hexes": lakes, "units": []}, rulebook)
    assert not line_of_sight(situation, rulebook, Hex(0, 0), Hex(4, 0)).clear
    assert Hex(4, 0) not in sight_map(situation, rulebook, [Hex(0, 0)])[Hex(0, 0)]
    alone = parse_situation({"hexes": lakes[1:], "units": []}, rulebook)
    assert Hex(4, 0) in sight_map(alone, rulebook, [Hex(0, 0)])[Hex(0, 0)]


def test_sight_map_answers_only_the_origins_asked(rulebook: Rulebook) -> None:
    situation = random_board(rulebook, "standard", "forest_hill_town", 10)
    full = sight_map(situation, rulebook)
    some = sight_map(situation, rulebook, [Hex(0, 0), Hex(4, 12), Hex(0, 0)])
    assert some == {Hex(0, 0): full[Hex(0, 0)], Hex(4, 12): full[Hex(4, 12)]}


@pytest.mark.parametrize("origin", [Hex(9, 1), Hex(4, 11), "A1"])
def test_sight_map_rejects_an_origin_off_the_board(rulebook: Rulebook, origin: Any) -> None:
    situation = parse_situation({"units": []}, rulebook)
    with pytest.raises(IllegalSituation) as caught:
        sight_map(situation, rulebook, [Hex(0, 0), origin])
    assert caught.value.field == "origins[1]"


def test_the_displacement_table_matches_direct_classification() -> None:
    """Every displacement between two hexes of any board (1,251; three quarters of them mirrored
    by the table from the fourth) equals the direct whole-number classification."""
    displacements = {(b.row - a.row, b.col - a.col) for board in BOARDS.values()
                     for a in board.hexes() for b in board.hexes()}
    assert len(displacements) == 1251
    for dr, dc in displacements:
        direct = classify(Hex(0, 0), Hex(dr, dc))
        rel = relative(dr, dc)
        assert rel.crossed == tuple((h.row, h.col) for h in direct.crossed), (dr, dc)
        assert rel.edges == tuple(((a.row, a.col), (b.row, b.col)) for a, b in direct.edges), (dr, dc)
        assert rel.corners == tuple((h.row, h.col) for h in direct.corners), (dr, dc)


@pytest.mark.parametrize("kind", list(BOARDS))
def test_trace_moved_onto_any_start_equals_direct_classification(kind: str) -> None:
    rnd = random.Random(kind)
    hexes = list(BOARDS[kind].hexes())
    for _ in range(400):
        a, b = rnd.choice(hexes), rnd.choice(hexes)
        assert trace(a, b) == classify(a, b), (a, b)


@pytest.mark.parametrize("kind", list(BOARDS))
def test_shadow_tables_hold_exactly_the_hexes_each_line_crosses(kind: str) -> None:
    """From a few origins, every target's bit is in the shadow of exactly the on-board hexes its
    line crosses, and in the runs of exactly the on-board edges it runs along."""
    sight = board_sight(BOARDS[kind])
    rnd = random.Random(kind)
    for si in rnd.sample(range(sight.size), 6):
        origin = sight.hexes[si]
        for ei, target in enumerate(sight.hexes):
            line = trace(origin, target)
            crossed = {sight.index[h] for h in line.crossed if h in sight.index}
            assert {h for h in range(sight.size) if sight.cross[si][h] >> ei & 1} == crossed
            along = {(1 << sight.index[a]) | (1 << sight.index[b]) for a, b in line.edges
                     if a in sight.index and b in sight.index}
            assert {both for both, targets in sight.runs[si] if targets >> ei & 1} == along
            if distance(origin, target) <= 1:
                assert not crossed and not along


def test_lines_are_kept_once_per_displacement_never_once_per_pair() -> None:
    """Bounded memory: the old ``trace`` cache kept one line per pair of hexes, bounded by a
    count, not by bytes (~73 MB in an Overlord worker). A line is now the table entry for its
    displacement moved onto its start: sweeping an Overlord board adds no entry per pair."""
    assert not hasattr(trace, "cache_info")
    relative.cache_clear()
    hexes = list(BOARDS["overlord"].hexes())
    pairs = 0
    for a in hexes[::7]:
        for b in hexes:
            trace(a, b)
            pairs += 1
    assert relative.cache_info().currsize <= 1251 < pairs
