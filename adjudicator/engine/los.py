"""Exact line of sight (content ``line_of_sight``; Game help summary, Battle — Line of sight).

Geometry is done on whole numbers only. In the coordinates ``x = 3*col``, ``y = 3*row`` (an
affine image of the real board, which keeps straight lines straight and incidences intact) a hex
centre is ``(3c, 3r)`` and its six corners are the integer points ``(3c±3, 3r±1)`` and
``(3c, 3r±2)``. For the centre-to-centre segment every nearby hex is classified as

- *crossed*: the segment meets the hex's interior;
- *edge*: the segment runs along one of its edges for a positive length (the pair of hexes on
  both sides of that edge is reported);
- *corner touch*: the segment meets it at a single corner; such a hex never blocks
  (reading 2 of ``line_of_sight``).

Blocking: an intermediate crossed hex holding an obstruction (any unit, or a feature with
``blocks_los`` under its ``los_rule``) blocks; an edge blocks only when the hexes on *both* of its
sides are obstructions, each edge judged on its own (reading 1); the two end hexes never block;
adjacent hexes always see each other; off-board hexes never block.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from adjudicator.engine.geometry import Board, Hex, distance
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import HexRules, Rulebook
from adjudicator.engine.situation import Situation

LOS_RULE = "line_of_sight"
"""The core content entry every line-of-sight ruling cites."""

READINGS: dict[str, str] = {"edge_runs": "per_edge", "corner_touch": "not_crossed"}
"""The two readings of the rule this engine applies (documented on the ``line_of_sight`` page)."""
LAKE_READING = "contiguous_touched"
"""Lake hexes count only as a run of two or more contiguous lake hexes crossed or run along."""

# Corner offsets of a hex, clockwise on screen (y grows downward) from the top corner, and the
# (row, col) step to the neighbour across the edge from corner i to corner i+1.
CORNERS: tuple[tuple[int, int], ...] = ((0, -2), (3, -1), (3, 1), (0, 2), (-3, 1), (-3, -1))
ACROSS_EDGE: tuple[tuple[int, int], ...] = ((-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1))


@dataclass(frozen=True)
class Trace:
    """Which hexes a centre-to-centre segment crosses, runs along, or touches at a corner.

    Pure geometry, independent of any board: ``crossed`` excludes the two end hexes and is
    ordered from ``start`` to ``end``; ``edges`` holds each shared edge once as the pair of hexes
    on its two sides (which may lie off the board), also in order along the line."""

    start: Hex
    end: Hex
    crossed: tuple[Hex, ...]
    edges: tuple[tuple[Hex, Hex], ...]
    corners: tuple[Hex, ...]


@lru_cache(maxsize=65536)
def trace(start: Hex, end: Hex) -> Trace:
    """Classify every hex near the segment between the centres of ``start`` and ``end``.

    Only hexes in the segment's bounding box (widened by one column for edges) can meet it, so
    only those are tested. For a hex with corners ``v``, ``s = cross(d, v - P0)`` says on which
    side of the line each corner lies and ``p = dot(v - P0, d)`` where along it; the segment is
    ``0 <= p <= |d|^2``. Neither end centre lies on another hex, so a hex met by the line is
    either wholly between the ends or wholly beyond them, and one point decides which."""
    ax, ay = 3 * start.col, 3 * start.row
    dx, dy = 3 * (end.col - start.col), 3 * (end.row - start.row)
    length2 = dx * dx + dy * dy
    crossed: list[tuple[int, Hex]] = []
    edges: dict[tuple[Hex, Hex], int] = {}
    corners: list[tuple[int, Hex]] = []
    if length2 == 0:
        return Trace(start, end, (), (), ())
    row_lo, row_hi = sorted((start.row, end.row))
    col_lo, col_hi = sorted((start.col, end.col))
    for row in range(row_lo, row_hi + 1):
        first = col_lo - 1 if (row + col_lo - 1) % 2 == 0 else col_lo
        for col in range(first, col_hi + 2, 2):
            h = Hex(row, col)
            if h in (start, end):
                continue
            cx, cy = 3 * col - ax, 3 * row - ay
            s = [dx * (cy + oy) - dy * (cx + ox) for ox, oy in CORNERS]
            positive = any(v > 0 for v in s)
            negative = any(v < 0 for v in s)
            if positive and negative:
                if _crosses_between(s, [dx * (cx + ox) + dy * (cy + oy) for ox, oy in CORNERS], length2):
                    crossed.append((dx * cx + dy * cy, h))
                continue
            zeros = [i for i, v in enumerate(s) if v == 0]
            if not zeros:
                continue
            p = [dx * (cx + ox) + dy * (cy + oy) for ox, oy in CORNERS]
            if len(zeros) == 1:
                if 0 < p[zeros[0]] < length2:
                    corners.append((p[zeros[0]], h))
                continue
            i = zeros[0] if (zeros[0] + 1) % 6 == zeros[1] else zeros[1]  # edge from corner i to i+1
            if 0 < p[i] + p[(i + 1) % 6] < 2 * length2:
                dr, dc = ACROSS_EDGE[i]
                other = Hex(row + dr, col + dc)
                pair = (h, other) if h < other else (other, h)
                edges[pair] = p[i] + p[(i + 1) % 6]
    return Trace(
        start,
        end,
        tuple(h for _, h in sorted(crossed)),
        tuple(pair for pair, _ in sorted(edges.items(), key=lambda item: (item[1], item[0]))),
        tuple(h for _, h in sorted(corners)),
    )


def _crosses_between(s: list[int], p: list[int], length2: int) -> bool:
    """True when the chord of a hex the line passes through lies between the segment's ends.

    Any one point of the chord decides (see ``trace``): a corner on the line, or the crossing
    point on an edge whose corners lie on opposite sides, at ``p = (s_i p_j - s_j p_i) / (s_i -
    s_j)``, compared without division."""
    for i in range(6):
        j = (i + 1) % 6
        if s[i] == 0:
            return 0 < p[i] < length2
        if (s[i] > 0) != (s[j] > 0) and s[j] != 0:
            num, den = s[i] * p[j] - s[j] * p[i], s[i] - s[j]
            if den < 0:
                num, den = -num, -den
            return 0 < num < length2 * den
    return False  # unreachable: a line with corners on both sides crosses some edge


@dataclass(frozen=True)
class Blocker:
    """One obstruction that blocks the line: a crossed hex, or one side of a blocked edge."""

    hex: Hex
    rule: str
    reason: str
    via: Literal["crossed", "edge"] = "crossed"
    edge_with: Hex | None = None


@dataclass(frozen=True)
class LineOfSight:
    """A line-of-sight ruling between two hexes of a situation."""

    origin: Hex
    target: Hex
    distance: int
    clear: bool
    crossed: tuple[Hex, ...]
    edges: tuple[tuple[Hex, Hex], ...]
    corner_touches: tuple[Hex, ...]
    blocked_by: tuple[Blocker, ...]
    reasons: tuple[Reason, ...]
    readings: dict[str, str] = field(default_factory=dict)


class _Obstructions:
    """Decides, hex by hex, whether a hex holds an obstruction for one particular line."""

    def __init__(self, situation: Situation, rulebook: Rulebook, line: Trace) -> None:
        self.situation = situation
        self.rulebook = rulebook
        self.line = line
        self.board: Board = situation.board
        self.notes: list[Reason] = []
        self._groups: dict[str, set[Hex] | None] = {}
        self._lakes: set[Hex] | None = None
        self.used_lake_rule = False

    def label(self, h: Hex) -> str:
        return hex_label(self.board, h)

    def causes(self, h: Hex, note: bool = True) -> list[tuple[str, str]]:
        """(rule id, sentence) for every reason ``h`` obstructs this line; empty if it does not.

        With ``note``, features that would block but are excused here (same hill group, a lone
        lake hex) are recorded in ``notes`` so the ruling can say why they did not block."""
        if not self.board.contains(h):
            return []
        found: list[tuple[str, str]] = []
        unit = self.situation.unit_at(h)
        if unit is not None:
            name = self.rulebook.names.get(unit.profile, unit.profile)
            found.append((LOS_RULE, f"unit {unit.id} ({name}, {unit.side}) stands on {self.label(h)}; "
                                    "any unit, friend or foe, blocks"))
        for feature in self.situation.hex_state(h).features():
            rules = self.rulebook.hex_rules(feature)
            if not rules.blocks_los:
                continue
            name = self.rulebook.names.get(feature, feature)
            if rules.los_rule == "plateau" and rules.plateau and self._same_plateau(h, rules.plateau):
                if note:
                    self.notes.append(Reason(feature, f"{name} on {self.label(h)} does not block: both units stand on "
                                                      "the same contiguous group of it, at the same height"))
                continue
            if rules.los_rule == "lake_group":
                self.used_lake_rule = True
                if h not in self._lake_runs():
                    if note:
                        self.notes.append(Reason(feature, (
                            f"{name} on {self.label(h)} does not block on its own: only "
                            f"{rules.los_min_group} or more contiguous ones on the line do")))
                    continue
                found.append((feature, f"{name} on {self.label(h)} is one of {rules.los_min_group} or more contiguous "
                                       "ones the line passes"))
                continue
            found.append((feature, f"{name} on {self.label(h)} blocks line of sight"))
        return found

    def _same_plateau(self, h: Hex, group: str) -> bool:
        """Both ends stand in the same contiguous group of ``group`` hexes as ``h`` (content ``hill``)."""
        if group not in self._groups:
            self._groups[group] = plateau_group(self.situation, self.rulebook, self.line.start, group)
        component = self._groups[group]
        return component is not None and self.line.end in component and h in component

    def _lake_group_size(self, h: Hex) -> int | None:
        """How many contiguous lake hexes must be on the line for ``h`` to block (content ``lake``)."""
        sizes = [rules.los_min_group for f in self.situation.hex_state(h).features()
                 if isinstance(rules := self.rulebook.rules.get(f), HexRules)
                 and rules.los_rule == "lake_group" and rules.blocks_los]
        return max(sizes) if sizes else None

    def _lake_runs(self) -> set[Hex]:
        """Lake hexes the line crosses or runs along that touch another such lake hex."""
        if self._lakes is None:
            touched = {*self.line.crossed, *(h for pair in self.line.edges for h in pair)}
            sizes = {h: size for h in touched if (size := self._lake_group_size(h)) is not None}
            lakes = set(sizes)
            self._lakes = {h for h in lakes if len(_component(h, lakes)) >= sizes[h]}
        return self._lakes


def plateau_group(situation: Situation, rulebook: Rulebook, start: Hex, group: str) -> set[Hex] | None:
    """The contiguous hexes of plateau ``group`` (same height: hills, or mountains) that hold
    ``start``; None when ``start`` is not such a hex."""
    members = {h for h, state in situation.hexes.items()
               if any(getattr(rulebook.rules.get(f), "plateau", None) == group for f in state.features())}
    return _component(start, members) if start in members else None


def _component(start: Hex, members: set[Hex]) -> set[Hex]:
    seen = {start}
    queue = deque([start])
    while queue:
        for n in queue.popleft().neighbours():
            if n in members and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def hex_label(board: Board, h: Hex) -> str:
    """``F5 (row 4, col 10)``: the human label players use, with the file coordinates."""
    if board.contains(h):
        return f"{board.label(h)} (row {h.row}, col {h.col})"
    return f"off-board (row {h.row}, col {h.col})"


def line_of_sight(situation: Situation, rulebook: Rulebook, origin: Hex, target: Hex) -> LineOfSight:
    """Rule on the line between the centres of ``origin`` and ``target`` (content ``line_of_sight``)."""
    d = distance(origin, target)
    line = trace(origin, target)
    board = situation.board
    if d <= 1:
        text = "the two hexes are the same" if d == 0 else "adjacent units always see each other"
        return LineOfSight(origin, target, d, True, (), (), (), (), (Reason(LOS_RULE, text.capitalize()),),
                           dict(READINGS))
    obstructions = _Obstructions(situation, rulebook, line)
    blockers: list[Blocker] = []
    reasons: list[Reason] = []
    for h in line.crossed:
        for rule, text in obstructions.causes(h):
            blockers.append(Blocker(h, rule, text, "crossed"))
            reasons.append(Reason(rule, f"The line crosses {hex_label(board, h)}: {text}"))
    for a, b in line.edges:
        causes_a, causes_b = obstructions.causes(a), obstructions.causes(b)
        edge = f"the line runs along the edge between {hex_label(board, a)} and {hex_label(board, b)}"
        if causes_a and causes_b:
            for h, other, causes in ((a, b, causes_a), (b, a, causes_b)):
                blockers.extend(Blocker(h, rule, text, "edge", other) for rule, text in causes)
            reasons.append(Reason(LOS_RULE, f"Blocked: {edge}, and both sides hold obstructions"))
        elif causes_a or causes_b:
            reasons.append(Reason(LOS_RULE, f"Not blocked there: {edge}, and only one side holds an obstruction"))
    for h in line.corners:
        if obstructions.causes(h, note=False):
            reasons.append(Reason(LOS_RULE, f"The line only touches a corner of {hex_label(board, h)}, "
                                            "so that hex does not block"))
    reasons.extend(_dedupe(obstructions.notes))
    readings = dict(READINGS)
    if obstructions.used_lake_rule:
        readings["lake_group"] = LAKE_READING
    clear = not blockers
    if clear and not reasons:
        reasons.append(Reason(LOS_RULE, "Nothing on the line between the two hexes blocks it"))
    return LineOfSight(
        origin, target, d, clear,
        tuple(h for h in line.crossed if board.contains(h)),
        line.edges,
        tuple(h for h in line.corners if board.contains(h)),
        tuple(blockers), tuple(reasons), readings,
    )


def _dedupe(reasons: Iterable[Reason]) -> list[Reason]:
    return list(dict.fromkeys(reasons))


def hex_json(board: Board, h: Hex) -> dict[str, Any]:
    out: dict[str, Any] = {"row": h.row, "col": h.col}
    if board.contains(h):
        out["label"] = board.label(h)
    else:
        out["on_board"] = False
    return out


def los_json(board: Board, los: LineOfSight) -> dict[str, Any]:
    """The ``/api/v1/line-of-sight`` answer (adjudicator/API.md)."""
    return {
        "from": hex_json(board, los.origin),
        "to": hex_json(board, los.target),
        "distance": los.distance,
        "clear": los.clear,
        "blocked_by": [
            {**hex_json(board, b.hex), "reason": b.reason, "rule": b.rule, "via": b.via,
             **({"edge_with": hex_json(board, b.edge_with)} if b.edge_with is not None else {})}
            for b in los.blocked_by
        ],
        "crossed": [hex_json(board, h) for h in los.crossed],
        "edges": [[hex_json(board, a), hex_json(board, b)] for a, b in los.edges],
        "corner_touches": [hex_json(board, h) for h in los.corner_touches],
        "readings": los.readings,
        "reasons": [r.to_dict() for r in los.reasons],
    }
