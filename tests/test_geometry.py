"""Board geometry (adjudicator/API.md "Hex coordinates"): on-board checks, neighbours, the hex
distance formula, sections with their straddling hexes, baselines and human labels."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.geometry import BOARDS, Board, Hex, distance

# (board, hexes on even rows, hexes on odd rows, rows)
SIZES = [("standard", 13, 12, 9), ("overlord", 26, 25, 9), ("breakthrough", 13, 12, 17)]


@pytest.mark.parametrize(("name", "even", "odd", "rows"), SIZES)
def test_board_sizes_match_the_spec(name: str, even: int, odd: int, rows: int) -> None:
    board = BOARDS[name]
    hexes = list(board.hexes())
    assert board.rows == rows
    for row in range(rows):
        in_row = [h for h in hexes if h.row == row]
        assert len(in_row) == (even if row % 2 == 0 else odd)
    assert len(hexes) == len(set(hexes)) == (rows + 1) // 2 * even + rows // 2 * odd


def test_hex_counts_of_the_three_boards() -> None:
    assert len(list(BOARDS["standard"].hexes())) == 113
    assert len(list(BOARDS["overlord"].hexes())) == 230
    assert len(list(BOARDS["breakthrough"].hexes())) == 213


@pytest.mark.parametrize(("name", "even", "odd", "rows"), SIZES)
def test_contains_agrees_with_the_hex_list(name: str, even: int, odd: int, rows: int) -> None:
    board = BOARDS[name]
    listed = set(board.hexes())
    for row in range(-2, rows + 2):
        for col in range(-3, board.max_col + 4):
            assert board.contains(Hex(row, col)) == (Hex(row, col) in listed), (row, col)


@pytest.mark.parametrize(
    ("row", "col", "on_board"),
    [
        (0, 0, True), (0, 24, True), (8, 0, True), (8, 24, True),  # the four corners
        (1, 1, True), (1, 23, True),  # odd rows are inset by half a hex at both ends
        (1, 0, False), (0, 1, False),  # row + col must be even
        (1, 25, False), (0, 26, False), (-1, 1, False), (9, 1, False), (9, 0, False),
    ],
)
def test_standard_board_edges(row: int, col: int, on_board: bool) -> None:
    assert BOARDS["standard"].contains(Hex(row, col)) is on_board


def test_neighbours_are_the_six_spec_steps() -> None:
    assert set(Hex(4, 10).neighbours()) == {
        Hex(4, 8), Hex(4, 12), Hex(3, 9), Hex(3, 11), Hex(5, 9), Hex(5, 11),
    }


@pytest.mark.parametrize(
    ("h", "count"),
    [(Hex(0, 0), 2), (Hex(8, 24), 2), (Hex(1, 1), 5), (Hex(0, 12), 4), (Hex(4, 12), 6), (Hex(3, 23), 5)],
)
def test_board_neighbours_stay_on_the_board(h: Hex, count: int) -> None:
    board = BOARDS["standard"]
    found = board.neighbours(h)
    assert len(found) == count
    assert all(board.contains(n) and distance(h, n) == 1 for n in found)


def _bfs_distances(board: Board, start: Hex) -> dict[Hex, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for n in board.neighbours(current):
            if n not in seen:
                seen[n] = seen[current] + 1
                queue.append(n)
    return seen


@pytest.mark.parametrize("name", list(BOARDS))
def test_distance_formula_equals_breadth_first_steps(name: str) -> None:
    board = BOARDS[name]
    hexes = list(board.hexes())
    for start in hexes[:: max(1, len(hexes) // 15)]:
        walked = _bfs_distances(board, start)
        assert len(walked) == len(hexes)
        for h, steps in walked.items():
            assert distance(start, h) == distance(h, start) == steps


@given(st.integers(0, 8), st.integers(0, 24), st.integers(0, 8), st.integers(0, 24))
def test_distance_is_a_metric_on_hexes(r1: int, c1: int, r2: int, c2: int) -> None:
    a, b = Hex(r1, c1 - (r1 + c1) % 2), Hex(r2, c2 - (r2 + c2) % 2)
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    for n in a.neighbours():
        assert abs(distance(n, b) - distance(a, b)) <= 1


def test_distance_examples() -> None:
    assert distance(Hex(6, 10), Hex(4, 10)) == 2
    assert distance(Hex(6, 10), Hex(4, 12)) == 2
    assert distance(Hex(6, 10), Hex(6, 16)) == 3
    assert distance(Hex(8, 0), Hex(0, 24)) == 8 + (24 - 8) // 2


@pytest.mark.parametrize("name", ["standard", "breakthrough"])
def test_standard_sections_by_column(name: str) -> None:
    board = BOARDS[name]
    for h in board.hexes():
        expected = {s for s, ok in (("left", h.col <= 7), ("center", 7 <= h.col <= 17), ("right", h.col >= 17)) if ok}
        assert set(board.sections(h)) == expected


def test_even_row_sections_hold_four_five_four_hexes() -> None:
    board = BOARDS["standard"]
    row = [h for h in board.hexes() if h.row == 0]
    counts = {s: sum(1 for h in row if board.sections(h) == (s,)) for s in ("left", "center", "right")}
    assert counts == {"left": 4, "center": 5, "right": 4}


@pytest.mark.parametrize("row", [1, 3, 5, 7])
def test_hexes_on_the_section_lines_straddle_two_sections(row: int) -> None:
    board = BOARDS["standard"]
    assert board.sections(Hex(row, 7)) == ("left", "center")
    assert board.sections(Hex(row, 17)) == ("center", "right")
    assert board.sections(Hex(row, 5)) == ("left",)
    assert board.sections(Hex(row, 19)) == ("right",)


def test_top_player_sections_are_mirrored() -> None:
    board = BOARDS["standard"]
    assert board.sections(Hex(0, 0), bottom_player=False) == ("right",)
    assert board.sections(Hex(0, 24), bottom_player=False) == ("left",)
    assert board.sections(Hex(4, 12), bottom_player=False) == ("center",)
    assert board.sections(Hex(1, 7), bottom_player=False) == ("center", "right")
    assert board.sections(Hex(1, 17), bottom_player=False) == ("left", "center")


def test_overlord_sections_use_its_own_bounds() -> None:
    board = BOARDS["overlord"]
    assert board.sections(Hex(0, 16)) == ("left",)
    assert board.sections(Hex(1, 17)) == ("left", "center")
    assert board.sections(Hex(1, 33)) == ("center", "right")
    assert board.sections(Hex(0, 50)) == ("right",)
    assert board.sections(Hex(0, 50), bottom_player=False) == ("left",)


def test_every_hex_is_in_one_or_two_sections() -> None:
    for board in BOARDS.values():
        for h in board.hexes():
            assert 1 <= len(board.sections(h)) <= 2


def test_baseline_rows() -> None:
    assert BOARDS["standard"].baseline_row(bottom=True) == 8
    assert BOARDS["standard"].baseline_row(bottom=False) == 0
    assert BOARDS["breakthrough"].baseline_row(bottom=True) == 16


@pytest.mark.parametrize(
    ("name", "h", "label"),
    [
        ("standard", Hex(8, 0), "A1"), ("standard", Hex(0, 24), "M9"), ("standard", Hex(7, 1), "a2"),
        ("standard", Hex(4, 12), "G5"), ("standard", Hex(1, 23), "l8"),
        ("breakthrough", Hex(16, 0), "A1"), ("breakthrough", Hex(0, 24), "M17"),
        ("overlord", Hex(0, 50), "Z9"), ("overlord", Hex(1, 49), "y8"),
    ],
)
def test_human_labels(name: str, h: Hex, label: str) -> None:
    assert BOARDS[name].label(h) == label


def test_labels_are_unique_per_board() -> None:
    for board in BOARDS.values():
        labels = [board.label(h) for h in board.hexes()]
        assert len(labels) == len(set(labels))
