"""Line of sight (content ``line_of_sight``, ``hill``, ``lake``): exact geometry and blocking.

The geometry is checked against an independent oracle that clips the segment to each hexagon
with ``Fraction`` arithmetic; the blocking cases are each named after the rule they check."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.geometry import BOARDS, Hex, distance
from adjudicator.engine.los import CORNERS, READINGS, line_of_sight, trace
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.sightlines import Trace
from adjudicator.engine.situation import Situation, parse_situation

STANDARD = BOARDS["standard"]


def situation(rulebook: Rulebook, hexes: list[dict[str, Any]] | None = None,
              units: list[tuple[str, int, int]] | None = None, board: str = "standard") -> Situation:
    """A situation with terrain ``hexes`` and infantry at ``(id, row, col)`` (side by id: a* allies)."""
    docs = [{"id": uid, "side": "allies" if uid.lower().startswith("a") else "axis", "type": "infantry",
             "row": row, "col": col, "figures": 4} for uid, row, col in units or []]
    return parse_situation({"board": board, "hexes": hexes or [], "units": docs}, rulebook)


def clip(a: Hex, b: Hex, h: Hex) -> str | None:
    """Oracle: how segment a-b meets hex h, by clipping it against the six edge half-planes."""
    p0 = (3 * a.col, 3 * a.row)
    d = (3 * (b.col - a.col), 3 * (b.row - a.row))
    centre = (3 * h.col, 3 * h.row)
    corners = [(centre[0] + ox, centre[1] + oy) for ox, oy in CORNERS]
    t0, t1 = Fraction(0), Fraction(1)
    edges = []
    for i in range(6):
        v, w = corners[i], corners[(i + 1) % 6]
        e = (w[0] - v[0], w[1] - v[1])
        sign = 1 if e[0] * (centre[1] - v[1]) - e[1] * (centre[0] - v[0]) > 0 else -1
        f0 = sign * (e[0] * (p0[1] - v[1]) - e[1] * (p0[0] - v[0]))
        fd = sign * (e[0] * d[1] - e[1] * d[0])
        edges.append((v, e, sign))
        if fd == 0:
            if f0 < 0:
                return None
        elif fd > 0:
            t0 = max(t0, Fraction(-f0, fd))
        else:
            t1 = min(t1, Fraction(-f0, fd))
        if t0 > t1:
            return None
    if t0 == t1:
        return "corner"
    tm = (t0 + t1) / 2
    mid = (p0[0] + tm * d[0], p0[1] + tm * d[1])
    on_edge = any(e[0] * (mid[1] - v[1]) - e[1] * (mid[0] - v[0]) == 0 for v, e, _ in edges)
    return "edge" if on_edge else "crossed"


def oracle(a: Hex, b: Hex) -> tuple[set[Hex], set[Hex], set[Hex]]:
    crossed, edge, corner = set(), set(), set()
    for row in range(min(a.row, b.row) - 2, max(a.row, b.row) + 3):
        for col in range(min(a.col, b.col) - 4, max(a.col, b.col) + 5):
            h = Hex(row, col)
            if (row + col) % 2 or h in (a, b):
                continue
            kind = clip(a, b, h)
            {"crossed": crossed, "edge": edge, "corner": corner}.get(kind, set()).add(h)
    return crossed, edge, corner


def assert_trace_matches_oracle(origin: Hex, target: Hex) -> Trace:
    """The hexes ``trace`` says the line crosses, runs along and touches at a corner are those the
    fraction-clipping oracle finds; returns the trace."""
    line = trace(origin, target)
    crossed, edge, corner = oracle(origin, target)
    assert set(line.crossed) == crossed, target
    assert {h for pair in line.edges for h in pair} == edge, target
    assert set(line.corners) == corner, target
    return line


@pytest.mark.parametrize("origin", [Hex(4, 12), Hex(0, 0), Hex(8, 24), Hex(3, 5), Hex(7, 19)])
def test_trace_matches_fraction_clipping_oracle(origin: Hex) -> None:
    for target in STANDARD.hexes():
        if target == origin:
            continue
        assert_trace_matches_oracle(origin, target)


@pytest.mark.parametrize(("kind", "origin"), [("breakthrough", Hex(0, 0)), ("breakthrough", Hex(16, 24)),
                                              ("overlord", Hex(8, 50))])
def test_trace_matches_fraction_clipping_oracle_on_tall_and_wide_boards(kind: str, origin: Hex) -> None:
    """Steps longer than the standard board's (16 rows, 50 columns), both ways: traces are
    computed once per step and moved, and a step and its opposite share one computation."""
    for target in list(BOARDS[kind].hexes())[::3]:
        if target == origin:
            continue
        line = assert_trace_matches_oracle(origin, target)
        assert line.crossed == tuple(reversed(trace(target, origin).crossed)), target


def test_crossed_hexes_are_in_order_along_the_line() -> None:
    line = trace(Hex(4, 2), Hex(4, 10))
    assert line.crossed == (Hex(4, 4), Hex(4, 6), Hex(4, 8))
    assert trace(Hex(4, 10), Hex(4, 2)).crossed == (Hex(4, 8), Hex(4, 6), Hex(4, 4))


def test_edge_pairs_are_the_hexes_on_both_sides() -> None:
    assert trace(Hex(3, 11), Hex(5, 11)).edges == ((Hex(4, 10), Hex(4, 12)),)
    assert trace(Hex(4, 10), Hex(5, 13)).edges == ((Hex(4, 12), Hex(5, 11)),)
    assert trace(Hex(3, 11), Hex(7, 11)).edges == ((Hex(4, 10), Hex(4, 12)), (Hex(6, 10), Hex(6, 12)))


def test_corner_touches_need_range_five_or_more() -> None:
    """A centre-to-centre line first passes exactly through a hex corner at range 5, so reading 2
    of ``line_of_sight`` (a corner touch does not cross) matters only from range 5 on."""
    ranges = {distance(a, b) for a in STANDARD.hexes() for b in STANDARD.hexes() if trace(a, b).corners}
    assert min(ranges) == 5
    assert trace(Hex(4, 4), Hex(5, 13)).corners == (Hex(5, 7), Hex(4, 10))


def test_edge_runs_start_at_range_two() -> None:
    pairs = {(distance(a, b), len(trace(a, b).edges)) for a in STANDARD.hexes() for b in STANDARD.hexes()
             if trace(a, b).edges}
    assert min(pairs) == (2, 1)
    assert all(n == d // 2 for d, n in pairs)


def test_forest_between_blocks_line_of_sight(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 5, "col": 11, "terrain": "forest"}])
    los = line_of_sight(s, rulebook, Hex(6, 10), Hex(4, 12))
    assert not los.clear
    assert [(b.hex, b.why.rule, b.via) for b in los.blocked_by] == [(Hex(5, 11), "forest", "crossed")]


def test_river_does_not_block_line_of_sight(rulebook: Rulebook) -> None:
    assert not rulebook.hex_rules("river").blocks_los
    s = situation(rulebook, [{"row": 5, "col": 11, "terrain": "river"}])
    assert line_of_sight(s, rulebook, Hex(6, 10), Hex(4, 12)).clear


@pytest.mark.parametrize("blocker_id", ["a2", "b2"])
def test_any_unit_friend_or_foe_between_blocks(rulebook: Rulebook, blocker_id: str) -> None:
    s = situation(rulebook, units=[("A", 4, 4), (blocker_id, 4, 6), ("B", 4, 8)])
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8))
    assert not los.clear
    assert los.blocked_by[0].hex == Hex(4, 6) and los.blocked_by[0].why.rule == "line_of_sight"


def test_the_two_end_hexes_never_block(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 4, "terrain": "forest"}, {"row": 4, "col": 8, "terrain": "town"}],
                  [("A", 4, 4), ("B", 4, 8)])
    assert line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8)).clear


def test_adjacent_units_always_see_each_other(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 4, "terrain": "forest"}, {"row": 4, "col": 6, "terrain": "forest"}])
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 6))
    assert los.clear and los.crossed == () and los.reasons[0].rule == "line_of_sight"


def test_edge_graze_with_one_side_blocked_is_clear(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 10, "terrain": "forest"}])
    los = line_of_sight(s, rulebook, Hex(3, 11), Hex(5, 11))
    assert los.clear
    assert los.edges == ((Hex(4, 10), Hex(4, 12)),)
    assert any("only one side" in r.text for r in los.reasons)


def test_edge_graze_with_both_sides_blocked_is_blocked(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 10, "terrain": "forest"}], [("A", 3, 11), ("b1", 4, 12), ("B", 5, 11)])
    los = line_of_sight(s, rulebook, Hex(3, 11), Hex(5, 11))
    assert not los.clear
    assert {(b.hex, b.via, b.edge_with) for b in los.blocked_by} == {
        (Hex(4, 10), "edge", Hex(4, 12)), (Hex(4, 12), "edge", Hex(4, 10))}


def test_diagonal_edge_graze_needs_both_sides(rulebook: Rulebook) -> None:
    one = situation(rulebook, [{"row": 4, "col": 12, "terrain": "town"}])
    both = situation(rulebook, [{"row": 4, "col": 12, "terrain": "town"}, {"row": 5, "col": 11, "terrain": "forest"}])
    assert line_of_sight(one, rulebook, Hex(4, 10), Hex(5, 13)).clear
    assert not line_of_sight(both, rulebook, Hex(4, 10), Hex(5, 13)).clear


def test_each_edge_of_a_run_is_judged_on_its_own(rulebook: Rulebook) -> None:
    """Reading 1: obstructions on the left of one edge and the right of the next do not pool."""
    s = situation(rulebook, [{"row": 4, "col": 10, "terrain": "forest"}, {"row": 6, "col": 12, "terrain": "forest"}])
    los = line_of_sight(s, rulebook, Hex(3, 11), Hex(7, 11))
    assert los.clear
    assert los.readings == READINGS == {"edge_runs": "per_edge", "corner_touch": "not_crossed"}


def test_corner_touch_never_blocks(rulebook: Rulebook) -> None:
    """Reading 2: at range 5 the line passes exactly through a corner of f4 and of E5."""
    s = situation(rulebook, [{"row": 5, "col": 7, "terrain": "forest"}, {"row": 4, "col": 10, "terrain": "town"}])
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(5, 13))
    assert los.clear
    assert los.corner_touches == (Hex(5, 7), Hex(4, 10))
    assert sum("corner" in r.text for r in los.reasons) == 2


def test_corner_touch_with_crossed_blocker_still_blocks(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 5, "col": 7, "terrain": "forest"}, {"row": 4, "col": 8, "terrain": "forest"}])
    assert not line_of_sight(s, rulebook, Hex(4, 4), Hex(5, 13)).clear


def test_off_board_hexes_never_block(rulebook: Rulebook) -> None:
    """Along the left board edge the line grazes the edge between an off-board hex and b8."""
    s = situation(rulebook, [{"row": 1, "col": 1, "terrain": "forest"}])
    los = line_of_sight(s, rulebook, Hex(0, 0), Hex(2, 0))
    assert los.edges == ((Hex(1, -1), Hex(1, 1)),)
    assert los.clear


HILLS_SAME_GROUP = [{"row": 4, "col": c, "terrain": "hill"} for c in (4, 6, 8)]


def test_hill_between_blocks_units_off_the_hill(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 6, "terrain": "hill"}])
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8))
    assert not los.clear and los.blocked_by[0].why.rule == "hill"


def test_hills_of_the_same_group_do_not_block_units_on_that_group(rulebook: Rulebook) -> None:
    s = situation(rulebook, HILLS_SAME_GROUP)
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8))
    assert los.clear
    assert any(r.rule == "hill" and "same contiguous group" in r.text for r in los.reasons)


def test_a_hill_of_another_group_still_blocks(rulebook: Rulebook) -> None:
    hexes = [{"row": 4, "col": 2, "terrain": "hill"}, {"row": 4, "col": 6, "terrain": "hill"},
             {"row": 4, "col": 10, "terrain": "hill"}]
    s = situation(rulebook, hexes)
    assert not line_of_sight(s, rulebook, Hex(4, 2), Hex(4, 10)).clear


def test_a_unit_on_the_same_hill_group_still_blocks(rulebook: Rulebook) -> None:
    s = situation(rulebook, HILLS_SAME_GROUP, [("A", 4, 4), ("a2", 4, 6), ("B", 4, 8)])
    los = line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8))
    assert not los.clear and [b.why.rule for b in los.blocked_by] == ["line_of_sight"]


def test_only_one_end_on_the_hill_group_is_blocked(rulebook: Rulebook) -> None:
    s = situation(rulebook, HILLS_SAME_GROUP[:2])
    assert not line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8)).clear


def test_hill_variants_of_one_plateau_form_one_group(rulebook: Rulebook) -> None:
    plateau_kin = sorted(i for i in rulebook.ids_of_kind("terrain")
                         if rulebook.hex_rules(i).plateau == "hill" and rulebook.hex_rules(i).los_rule == "plateau")
    assert "hill" in plateau_kin
    for other in plateau_kin:
        s = situation(rulebook, [{"row": 4, "col": 4, "terrain": "hill"}, {"row": 4, "col": 6, "terrain": other},
                                 {"row": 4, "col": 8, "terrain": "hill"}])
        assert line_of_sight(s, rulebook, Hex(4, 4), Hex(4, 8)).clear, other


def test_a_single_lake_hex_does_not_block(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 6, "terrain": "lake"}])
    los = line_of_sight(s, rulebook, Hex(4, 2), Hex(4, 10))
    assert los.clear and los.readings.get("lake_group")


def test_two_contiguous_lake_hexes_block(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 6, "terrain": "lake"}, {"row": 4, "col": 8, "terrain": "lake"}])
    los = line_of_sight(s, rulebook, Hex(4, 2), Hex(4, 10))
    assert not los.clear and {b.hex for b in los.blocked_by} == {Hex(4, 6), Hex(4, 8)}


def test_two_separate_lake_hexes_do_not_block(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 4, "terrain": "lake"}, {"row": 4, "col": 8, "terrain": "lake"}])
    assert line_of_sight(s, rulebook, Hex(4, 2), Hex(4, 10)).clear


def test_lake_next_to_the_line_does_not_make_a_group(rulebook: Rulebook) -> None:
    s = situation(rulebook, [{"row": 4, "col": 6, "terrain": "lake"}, {"row": 3, "col": 7, "terrain": "lake"}])
    assert line_of_sight(s, rulebook, Hex(4, 2), Hex(4, 10)).clear


def test_every_blocker_and_reason_cites_an_existing_entry(rulebook: Rulebook) -> None:
    s = situation(rulebook, [*HILLS_SAME_GROUP, {"row": 5, "col": 11, "terrain": "forest"}],
                  [("A", 4, 4), ("b1", 4, 12), ("B", 6, 10)])
    for target in STANDARD.hexes():
        los = line_of_sight(s, rulebook, Hex(4, 4), target)
        assert all(b.why.rule in rulebook.kinds for b in los.blocked_by)
        assert all(r.rule in rulebook.kinds for r in los.reasons)


def _random_situation(rulebook: Rulebook, cells: list[tuple[int, int, int]]) -> Situation:
    blocking = ["forest", "hill", "town", "lake", "river"]
    hexes, units, seen = [], [], set()
    for index, (row, col_half, what) in enumerate(cells):
        col = 2 * col_half + row % 2
        if not STANDARD.contains(Hex(row, col)) or (row, col) in seen:
            continue
        seen.add((row, col))
        if what < len(blocking):
            hexes.append({"row": row, "col": col, "terrain": blocking[what]})
        else:
            units.append({"id": f"u{index}", "side": "axis", "type": "armor", "row": row, "col": col, "figures": 3})
    return parse_situation({"hexes": hexes, "units": units}, rulebook)


hex_strategy = st.builds(lambda r, c: Hex(r, 2 * c + r % 2), st.integers(0, 8), st.integers(0, 11))


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 11), st.integers(0, 5)), max_size=30),
       hex_strategy, hex_strategy)
def test_line_of_sight_is_symmetric(rulebook: Rulebook, cells: list[tuple[int, int, int]], a: Hex, b: Hex) -> None:
    s = _random_situation(rulebook, cells)
    there, back = line_of_sight(s, rulebook, a, b), line_of_sight(s, rulebook, b, a)
    assert there.clear == back.clear
    assert set(there.crossed) == set(back.crossed)
    assert set(there.edges) == set(back.edges)
    assert {(x.hex, x.why.rule) for x in there.blocked_by} == {(x.hex, x.why.rule) for x in back.blocked_by}


def test_lake_group_size_is_read_from_the_lake_entry(rulebook: Rulebook) -> None:
    """The "two or more" of the Lake entry is content, not code: change it and the ruling follows."""
    from dataclasses import replace

    lake = rulebook.hex_rules("lake")
    assert lake.los_min_group == 2
    bigger = replace(rulebook, rules={**rulebook.rules, "lake": replace(lake, los_min_group=3)})
    hexes = [{"row": 4, "col": 6, "terrain": "lake"}, {"row": 4, "col": 8, "terrain": "lake"}]
    assert not line_of_sight(situation(rulebook, hexes), rulebook, Hex(4, 2), Hex(4, 12)).clear
    assert line_of_sight(situation(bigger, hexes), bigger, Hex(4, 2), Hex(4, 12)).clear
