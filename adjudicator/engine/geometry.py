"""Board geometry in the official scenario editor's coordinates (``.m44``: row, doubled column).

Rows count from 0 at the top edge; on even rows ``col`` is even, on odd rows odd; odd rows are
shifted half a hex right, so ``row + col`` is always even. Hexes are pointy-topped. See
``adjudicator/API.md`` "Hex coordinates"."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

BoardKind = Literal["standard", "overlord", "breakthrough"]
Section = Literal["left", "center", "right"]
SECTIONS: tuple[Section, ...] = ("left", "center", "right")

NEIGHBOUR_STEPS: tuple[tuple[int, int], ...] = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True, order=True)
class Hex:
    """A hex by (row, doubled col)."""

    row: int
    col: int

    def neighbours(self) -> tuple[Hex, ...]:
        """The six touching hexes, on or off any board."""
        return tuple(Hex(self.row + dr, self.col + dc) for dr, dc in NEIGHBOUR_STEPS)

    def to_dict(self) -> dict[str, int]:
        return {"row": self.row, "col": self.col}


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: ``dr + max(0, (dc - dr) / 2)`` in doubled coordinates."""
    dr = abs(a.row - b.row)
    dc = abs(a.col - b.col)
    return dr + max(0, (dc - dr) // 2)


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


@dataclass(frozen=True)
class Board:
    """One of the three board sizes."""

    kind: BoardKind
    rows: int
    max_col: int  # largest col on even rows; odd rows run 1..max_col-1
    section_bounds: tuple[int, int, int, int]  # left/center and center/right lines, inclusive

    def contains(self, h: Hex) -> bool:
        if not (0 <= h.row < self.rows) or (h.row + h.col) % 2:
            return False
        if h.row % 2 == 0:
            return 0 <= h.col <= self.max_col
        return 1 <= h.col <= self.max_col - 1

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        return tuple(n for n in h.neighbours() if self.contains(n))

    def hexes(self) -> Iterator[Hex]:
        for row in range(self.rows):
            start = 0 if row % 2 == 0 else 1
            stop = self.max_col if row % 2 == 0 else self.max_col - 1
            for col in range(start, stop + 1, 2):
                yield Hex(row, col)

    def sections(self, h: Hex, bottom_player: bool = True) -> tuple[Section, ...]:
        """Sections of ``h`` as seen by the bottom player (or mirrored for the top player).

        Hexes on a section line (odd rows at the line's ``col``) belong to both sections."""
        lo, left_line, right_line, hi = self.section_bounds
        found: list[Section] = []
        if lo <= h.col <= left_line:
            found.append("left")
        if left_line <= h.col <= right_line:
            found.append("center")
        if right_line <= h.col <= hi:
            found.append("right")
        if not bottom_player:
            mirror: dict[Section, Section] = {"left": "right", "center": "center", "right": "left"}
            found = sorted((mirror[s] for s in found), key=SECTIONS.index)
        return tuple(found)

    def baseline_row(self, bottom: bool) -> int:
        """The row a side retreats toward: the bottom row for the bottom side, row 0 otherwise."""
        return self.rows - 1 if bottom else 0

    def label(self, h: Hex) -> str:
        """Human label: column letter (lowercase on odd rows) and number counted from the bottom."""
        letter = chr(ord("A") + h.col // 2) if h.col % 2 == 0 else chr(ord("a") + (h.col - 1) // 2)
        return f"{letter}{self.rows - h.row}"


def hex_json(board: Board, h: Hex) -> dict[str, Any]:
    """A hex in an answer: its coordinates and, on the board, its label (``on_board: false`` off it)."""
    out: dict[str, Any] = {"row": h.row, "col": h.col}
    if board.contains(h):
        out["label"] = board.label(h)
    else:
        out["on_board"] = False
    return out


BOARDS: dict[str, Board] = {
    "standard": Board("standard", rows=9, max_col=24, section_bounds=(0, 7, 17, 24)),
    "overlord": Board("overlord", rows=9, max_col=50, section_bounds=(0, 17, 33, 50)),
    "breakthrough": Board("breakthrough", rows=17, max_col=24, section_bounds=(0, 7, 17, 24)),
}
