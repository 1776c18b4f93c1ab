"""The terrain-free geometry of every centre-to-centre line, exact and precomputed (content
``line_of_sight``; Game help summary, Battle — Line of sight).

Geometry is done on whole numbers only. In the coordinates ``x = 3*col``, ``y = 3*row`` (an
affine image of the real board, which keeps straight lines straight and incidences intact) a hex
centre is ``(3c, 3r)`` and its six corners are the integer points ``(3c±3, 3r±1)`` and
``(3c, 3r±2)``. For the centre-to-centre segment every nearby hex is classified as

- *crossed*: the segment meets the hex's interior;
- *edge*: the segment runs along one of its edges for a positive length (the pair of hexes on
  both sides of that edge is reported);
- *corner touch*: the segment meets it at a single corner.

Which hexes a line meets depends only on the displacement between its ends (the lattice of hex
centres is invariant under translation by any ``(dr, dc)`` with ``dr + dc`` even), so each
displacement is classified once (``relative``) and moved onto its start (``trace``). For the
sweeps of ``los.sight_map`` every board kind gets ``BoardSight``: for every origin, the *shadow*
of each hex (the targets whose line crosses it) and of each edge (the targets whose line runs
along it), as Python ``int`` bit sets indexed by hex number — a whole sweep is then a few bit
operations per obstruction instead of a walk along every line. Pure: no I/O; the tables are built
in-process, once per board kind (``board_sight``; ``adjudicator.create_app`` warms them)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from threading import Lock

from adjudicator.engine.geometry import BOARDS, Board, Hex

# Corner offsets of a hex, clockwise on screen (y grows downward) from the top corner, and the
# (row, col) step to the neighbour across the edge from corner i to corner i+1.
CORNERS: tuple[tuple[int, int], ...] = ((0, -2), (3, -1), (3, 1), (0, 2), (-3, 1), (-3, -1))
ACROSS_EDGE: tuple[tuple[int, int], ...] = ((-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1))

Offset = tuple[int, int]


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


def classify(start: Hex, end: Hex) -> Trace:
    """Classify every hex near the segment between the centres of ``start`` and ``end``.

    Only hexes in the segment's bounding box (widened by one column for edges) can meet it, so
    only those are tested. For a hex with corners ``v``, ``s = cross(d, v - P0)`` says on which
    side of the line each corner lies and ``p = dot(v - P0, d)`` where along it; the segment is
    ``0 <= p <= |d|^2``. Neither end centre lies on another hex, so a hex met by the line is
    either wholly between the ends or wholly beyond them, and one point decides which.

    This is the reference computation; ``trace`` gives the same answer from the table."""
    ax, ay = 3 * start.col, 3 * start.row
    dx, dy = 3 * (end.col - start.col), 3 * (end.row - start.row)
    length2 = dx * dx + dy * dy
    crossed: list[tuple[int, Hex]] = []
    edges: dict[tuple[Hex, Hex], int] = {}
    corners: list[tuple[int, Hex]] = []
    if length2 == 0:
        return Trace(start, end, (), (), ())
    side = [dx * oy - dy * ox for ox, oy in CORNERS]  # cross(d, corner offset), per corner
    along = [dx * ox + dy * oy for ox, oy in CORNERS]  # dot(corner offset, d), per corner
    side_lo, side_hi = min(side), max(side)
    row_lo, row_hi = sorted((start.row, end.row))
    col_lo, col_hi = sorted((start.col, end.col))
    for row in range(row_lo, row_hi + 1):
        low, high = _window(ax, ay, dx, dy, row)
        low, high = max(low, col_lo - 1), min(high, col_hi + 1)
        first = low if (row + low) % 2 == 0 else low + 1
        for col in range(first, high + 1, 2):
            cx, cy = 3 * col - ax, 3 * row - ay
            base = dx * cy - dy * cx
            if base + side_lo > 0 or base + side_hi < 0:
                continue  # every corner strictly on one side: the line misses this hex
            h = Hex(row, col)
            if h in (start, end):
                continue
            s = [base + k for k in side]
            at = dx * cx + dy * cy
            p = [at + k for k in along]
            positive = any(v > 0 for v in s)
            negative = any(v < 0 for v in s)
            if positive and negative:
                if _crosses_between(s, p, length2):
                    crossed.append((at, h))
                continue
            zeros = [i for i, v in enumerate(s) if v == 0]
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


def _window(ax: int, ay: int, dx: int, dy: int, row: int) -> tuple[int, int]:
    """Columns of the hexes of ``row`` whose box can meet the segment, a little generously.

    A hex of ``row`` spans ``y`` in ``[3row-2, 3row+2]`` and ``x`` in ``[3col-3, 3col+3]``; the
    segment's ``x`` over that band (whole-number floor and ceiling of its ends) bounds ``col``.
    Only hexes that meet the segment are ever reported, so skipping the others changes nothing;
    it makes the cost grow with the length of the line instead of the area of its box."""
    if dy == 0:
        x_lo, x_hi = min(ax, ax + dx), max(ax, ax + dx)
    else:
        y_lo = max(3 * row - 2, min(ay, ay + dy))
        y_hi = min(3 * row + 2, max(ay, ay + dy))
        ends = [dx * (y - ay) for y in (y_lo, y_hi)]
        x_lo = ax + min(num // dy for num in ends)
        x_hi = ax + max(-(-num // dy) for num in ends)
    return (x_lo - 3) // 3, -(-(x_hi + 3) // 3)


def _crosses_between(s: list[int], p: list[int], length2: int) -> bool:
    """True when the chord of a hex the line passes through lies between the segment's ends.

    Any one point of the chord decides (see ``classify``): a corner on the line, or the crossing
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
class Offsets:
    """A ``Trace`` from ``Hex(0, 0)``, as (row, col) offsets: the same for every start; and the
    same offsets as steps in ``_GRID`` (``_at``), to move them onto a start with one addition."""

    crossed: tuple[Offset, ...]
    edges: tuple[tuple[Offset, Offset], ...]
    corners: tuple[Offset, ...]
    crossed_at: tuple[int, ...] = field(init=False, repr=False, compare=False)
    sides_at: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    corners_at: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        at = _GRID_WIDTH
        object.__setattr__(self, "crossed_at", tuple(r * at + c for r, c in self.crossed))
        object.__setattr__(self, "sides_at", (tuple(a * at + b for (a, b), _ in self.edges),
                                              tuple(c * at + d for _, (c, d) in self.edges)))
        object.__setattr__(self, "corners_at", tuple(r * at + c for r, c in self.corners))


@lru_cache(maxsize=4096)
def relative(dr: int, dc: int) -> Offsets:
    """The line from ``Hex(0, 0)`` to ``Hex(dr, dc)`` (``dr + dc`` even), classified once.

    Only one quadrant is computed: the hexagon and the lattice are symmetric under ``col -> -col``
    and ``row -> -row``, and no two hexes met by one line tie in order along it, so the mirror
    image of a line meets the mirrored hexes in the same order (``test_los_tables`` checks every
    displacement of the three boards against ``classify``). Bounded: the boards have 1,251
    displacements; each entry is a few dozen small tuples."""
    if dr >= 0 and dc >= 0:
        line = classify(Hex(0, 0), Hex(dr, dc))
        return Offsets(
            tuple((h.row, h.col) for h in line.crossed),
            tuple(((a.row, a.col), (b.row, b.col)) for a, b in line.edges),
            tuple((h.row, h.col) for h in line.corners),
        )
    base = relative(abs(dr), abs(dc))
    fr, fc = (-1 if dr < 0 else 1), (-1 if dc < 0 else 1)
    return Offsets(
        tuple((fr * r, fc * c) for r, c in base.crossed),
        tuple((a, b) if a < b else (b, a)
              for a, b in (((fr * r1, fc * c1), (fr * r2, fc * c2)) for (r1, c1), (r2, c2) in base.edges)),
        tuple((fr * r, fc * c) for r, c in base.corners),
    )


_hex = lru_cache(maxsize=8192)(Hex)
"""Hexes met by lines are shared objects rather than rebuilt (a frozen dataclass is slow to make)."""


_GRID_ROWS, _GRID_COLS = max(b.rows for b in BOARDS.values()), max(b.max_col for b in BOARDS.values()) + 1
_GRID_WIDTH = _GRID_COLS + 6
_GRID: tuple[Hex | None, ...] = tuple(
    _hex(row, col) if (row + col) % 2 == 0 else None
    for row in range(-2, _GRID_ROWS + 2) for col in range(-3, _GRID_COLS + 3))
"""Every hex of the boards' extent and two rows / three columns around it (a line never leaves
its ends' box by more than the far side of an edge), row by row: moving an offset is an addition."""


def trace(start: Hex, end: Hex) -> Trace:
    """``classify(start, end)``, read from the table of displacements and moved onto ``start``."""
    r0, c0 = start.row, start.col
    if (r0 + c0) % 2 or (end.row + end.col) % 2:  # not hex centres of a real board: compute directly
        return classify(start, end)
    rel = relative(end.row - r0, end.col - c0)
    if 0 <= r0 < _GRID_ROWS and 0 <= end.row < _GRID_ROWS and 0 <= c0 < _GRID_COLS and 0 <= end.col < _GRID_COLS:
        at, grid = ((r0 + 2) * _GRID_WIDTH + c0 + 3).__add__, _GRID.__getitem__
        side_a, side_b = rel.sides_at
        return Trace(start, end, tuple(map(grid, map(at, rel.crossed_at))),  # type: ignore[arg-type]
                     tuple(zip(map(grid, map(at, side_a)), map(grid, map(at, side_b)), strict=True)),  # type: ignore[arg-type]
                     tuple(map(grid, map(at, rel.corners_at))))  # type: ignore[arg-type]
    return Trace(
        start,
        end,
        tuple(_hex(r0 + a, c0 + b) for a, b in rel.crossed),
        tuple((_hex(r0 + a, c0 + b), _hex(r0 + c, c0 + d)) for (a, b), (c, d) in rel.edges),
        tuple(_hex(r0 + a, c0 + b) for a, b in rel.corners),
    )


class BoardSight:
    """The shadows of every hex and edge of one board kind, seen from every hex of it.

    Hexes are numbered in ``Board.hexes()`` order (row by row, which is also ``Hex`` order); a
    set of hexes is an ``int`` with bit ``i`` for hex ``i``. ``cross[o][h]`` holds the targets
    whose line from origin ``o`` crosses hex ``h``; ``runs[o]`` lists, for each edge some line from
    ``o`` runs along, the bits of its two hexes and those lines' targets (an edge with a side off
    the board never blocks, so it is not listed); ``side[o].get(h, 0)`` the targets whose line
    from ``o`` runs along any edge of hex ``h``, on or off the board (lakes count such hexes). Adjacent
    targets and the origin itself are in no shadow: nothing ever blocks them."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.hexes: tuple[Hex, ...] = tuple(_hex(h.row, h.col) for h in board.hexes())
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        n = self.size = len(self.hexes)
        self.full = (1 << n) - 1
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[other] for other in board.neighbours(h)) for h in self.hexes)
        self.cross, edge, self.side = self._shadows()
        self.runs: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(((1 << a) | (1 << b), targets) for (a, b), targets in row.items()) for row in edge)
        """Per origin: (both sides of an edge, targets whose line runs along it), for the few edges
        some line from that origin runs along (lines in the six edge directions only)."""
        self._chunk_bytes = (n + 7) // 8
        single = [frozenset((h,)) for h in self.hexes] + [frozenset()] * 8
        chunks = []
        for k in range(self._chunk_bytes):
            sets: list[frozenset[Hex]] = [frozenset()] * 256
            for value in range(1, 256):  # each set is a smaller one plus its lowest hex
                low = (value & -value).bit_length() - 1
                sets[value] = sets[value & (value - 1)] | single[8 * k + low]
            chunks.append(tuple(sets))
        self._chunks = tuple(chunks)
        self._all = frozenset(self.hexes)

    def _shadows(self) -> tuple[list[list[int]], list[dict[tuple[int, int], int]], list[dict[int, int]]]:
        """Walk every unordered pair once, through the displacement table, into the shadows.

        A padded grid numbers every hex within two rows and three columns of the board, so that
        moving a displacement's offsets onto an origin is one addition and one list lookup (a
        line never leaves its ends' bounding box by more than the far side of an edge)."""
        board, hexes, n = self.board, self.hexes, self.size
        width = board.max_col + 7
        lookup = [-1] * ((board.rows + 4) * width)
        for i, h in enumerate(hexes):
            lookup[(h.row + 2) * width + h.col + 3] = i
        deltas: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}
        for dr in range(board.rows):  # hexes are numbered row by row: a later hex is never higher
            for dc in range(-board.max_col, board.max_col + 1):
                if (dr + dc) % 2:
                    continue
                rel = relative(dr, dc)
                if rel.crossed or rel.edges:
                    deltas[(dr, dc)] = (tuple(a * width + b for a, b in rel.crossed),
                                        tuple((a * width + b, c * width + d) for (a, b), (c, d) in rel.edges))
        cross = [[0] * n for _ in range(n)]
        side: list[dict[int, int]] = [{} for _ in range(n)]
        edge: list[dict[tuple[int, int], int]] = [{} for _ in range(n)]
        spots = [(h.row + 2) * width + h.col + 3 for h in hexes]
        for si, s in enumerate(hexes):  # each unordered pair once: a line is the same both ways
            base, row, sbit = spots[si], cross[si], 1 << si
            for ei in range(si + 1, n):
                e = hexes[ei]
                found = deltas.get((e.row - s.row, e.col - s.col))
                if found is None:
                    continue
                ebit, back = 1 << ei, cross[ei]
                for x in found[0]:
                    i = lookup[base + x]
                    if i >= 0:
                        row[i] |= ebit
                        back[i] |= sbit
                for x, y in found[1]:
                    a, b = lookup[base + x], lookup[base + y]
                    for i in (a, b):
                        if i >= 0:
                            side[si][i] = side[si].get(i, 0) | ebit
                            side[ei][i] = side[ei].get(i, 0) | sbit
                    if a >= 0 and b >= 0:
                        edge[si][(a, b)] = edge[si].get((a, b), 0) | ebit
                        edge[ei][(a, b)] = edge[ei].get((a, b), 0) | sbit
        return cross, edge, side

    def mask(self, hexes: Iterator[Hex] | tuple[Hex, ...] | set[Hex] | frozenset[Hex]) -> int:
        """The bit set of the on-board hexes among ``hexes`` (others are ignored)."""
        index, out = self.index, 0
        for h in hexes:
            i = index.get(h)
            if i is not None:
                out |= 1 << i
        return out

    def bits(self, mask: int) -> list[int]:
        """The hex numbers in ``mask``, ascending."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def hexset(self, mask: int) -> frozenset[Hex]:
        """The hexes of ``mask`` as a frozenset, joined from prebuilt ones of eight hexes each
        (joining sets reuses their stored hashes; hashing ``Hex`` afresh would dominate)."""
        if mask == self.full:
            return self._all
        return frozenset().union(*map(tuple.__getitem__, self._chunks, mask.to_bytes(self._chunk_bytes, "little")))


_TABLES: dict[Board, BoardSight] = {}
_LOCK = Lock()


def board_sight(board: Board) -> BoardSight:
    """The tables of ``board``, built on first use and kept (one per board kind)."""
    found = _TABLES.get(board)
    if found is None:
        with _LOCK:  # two threads of one worker must not both pay for the build
            found = _TABLES.get(board)
            if found is None:
                found = _TABLES[board] = BoardSight(board)
    return found


def warm_up() -> None:
    """Build the tables of every board kind now, so no user's first request pays for them."""
    for board in BOARDS.values():
        board_sight(board)
