"""Terrain-independent geometry of centre-to-centre lines, precomputed per board kind (content
``line_of_sight``).

Which hexes a line crosses, which edges it runs along and which corners it touches depend only on
the two end hexes, never on what stands on the board. Two facts make that cheap to tabulate:

- *Translation*: moving both ends by the same lattice step moves the whole trace by that step, so
  a trace is computed once per difference vector (``relative_trace``): a few hundred per board.
- *Bit sets*: hexes get a padded index ``idx = (row + 1) * width + (col + row) // 2 + 1`` that is
  linear on the lattice, so a neighbour is always the same index offset away (``+1`` east,
  ``+width`` south-west, ``+width + 1`` south-east). A line becomes one Python int
  (``SightTable.masks``): the crossed hexes in the first segment, then one segment per edge
  direction holding the edges it runs along, each keyed by its first hex. Whether a set of
  obstructions blocks a line is then one ``&`` (see ``SightTable.blocking_bits``): an edge blocks
  when both its hexes obstruct, i.e. ``O & (O >> step)`` in the segment of that direction.

The exact whole-number classification of ``trace`` (x = 3·col, y = 3·row) is unchanged; the tables
are built from it. Pure: no I/O; the tables are built in-process (``sight_table``), about 0.2 s of
CPU for all three boards (~8 MB), which the app does at start-up (``warm_up``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from adjudicator.engine.geometry import BOARDS, Board, Hex

# Corner offsets of a hex, clockwise on screen (y grows downward) from the top corner, and the
# (row, col) step to the neighbour across the edge from corner i to corner i+1.
CORNERS: tuple[tuple[int, int], ...] = ((0, -2), (3, -1), (3, 1), (0, 2), (-3, 1), (-3, -1))
ACROSS_EDGE: tuple[tuple[int, int], ...] = ((-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1))
EDGE_STEPS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1))
"""The three edge directions, as the (row, col) step from an edge's first hex (in ``Hex`` order)
to its second; segment ``1 + k`` of a line mask holds the edges of direction ``k``."""

Offset = tuple[int, int]
CHUNK = 8
"""Hexes per cached piece of a ``sight_map`` answer: 2**8 patterns per piece at most."""


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


@dataclass(frozen=True)
class RelativeTrace:
    """A ``Trace`` from ``(0, 0)`` to ``(drow, dcol)``, as (row, col) offsets from the start."""

    crossed: tuple[Offset, ...]
    edges: tuple[tuple[Offset, Offset], ...]
    corners: tuple[Offset, ...]


@lru_cache(maxsize=4096)  # the three boards need < 2,000 vectors; bounded for any other input
def relative_trace(drow: int, dcol: int) -> RelativeTrace:
    """Classify every hex near the segment from the centre of ``(0, 0)`` to that of ``(drow, dcol)``.

    Only hexes in the segment's bounding box (widened by one column for edges) can meet it, so
    only those are tested. For a hex with corners ``v``, ``s = cross(d, v - P0)`` says on which
    side of the line each corner lies and ``p = dot(v - P0, d)`` where along it; the segment is
    ``0 <= p <= |d|^2``. Neither end centre lies on another hex, so a hex met by the line is
    either wholly between the ends or wholly beyond them, and one point decides which."""
    dx, dy = 3 * dcol, 3 * drow
    length2 = dx * dx + dy * dy
    crossed: list[tuple[int, Offset]] = []
    edges: dict[tuple[Offset, Offset], int] = {}
    corners: list[tuple[int, Offset]] = []
    if length2 == 0:
        return RelativeTrace((), (), ())
    if drow < 0 or (drow == 0 and dcol < 0):
        return _reversed(relative_trace(-drow, -dcol), drow, dcol)
    reach = max(abs(dx * oy - dy * ox) for ox, oy in CORNERS)  # |s| of a corner minus that of the centre
    row_lo, row_hi = sorted((0, drow))
    col_lo, col_hi = sorted((0, dcol))
    for row in range(row_lo, row_hi + 1):
        lo, hi = col_lo - 1, col_hi + 1
        if dy:  # a hex spans y = 3·row ± 2 and x = 3·col ± 3: skip those far from the segment
            sign, den = (1, dy) if dy > 0 else (-1, -dy)
            y_lo, y_hi = max(min(0, dy), 3 * row - 2), min(max(0, dy), 3 * row + 2)
            x_a, x_b = sorted((sign * dx * y_lo, sign * dx * y_hi))  # x = dx·y/dy, times den
            lo = max(lo, (x_a // den - 3) // 3 - 1)
            hi = min(hi, -(-(-(-x_b // den) + 3) // 3) + 1)
        first = lo if (row + lo) % 2 == 0 else lo + 1
        for col in range(first, hi + 1, 2):
            if (row, col) in ((0, 0), (drow, dcol)):
                continue
            cx, cy = 3 * col, 3 * row
            if abs(dx * cy - dy * cx) > reach:  # every corner strictly on one side of the line
                continue
            s = [dx * (cy + oy) - dy * (cx + ox) for ox, oy in CORNERS]
            positive = any(v > 0 for v in s)
            negative = any(v < 0 for v in s)
            if positive and negative:
                if _crosses_between(s, [dx * (cx + ox) + dy * (cy + oy) for ox, oy in CORNERS], length2):
                    crossed.append((dx * cx + dy * cy, (row, col)))
                continue
            zeros = [i for i, v in enumerate(s) if v == 0]
            if not zeros:
                continue
            p = [dx * (cx + ox) + dy * (cy + oy) for ox, oy in CORNERS]
            if len(zeros) == 1:
                if 0 < p[zeros[0]] < length2:
                    corners.append((p[zeros[0]], (row, col)))
                continue
            i = zeros[0] if (zeros[0] + 1) % 6 == zeros[1] else zeros[1]  # edge from corner i to i+1
            if 0 < p[i] + p[(i + 1) % 6] < 2 * length2:
                dr, dc = ACROSS_EDGE[i]
                other = (row + dr, col + dc)
                pair = ((row, col), other) if (row, col) < other else (other, (row, col))
                edges[pair] = p[i] + p[(i + 1) % 6]
    return RelativeTrace(
        tuple(h for _, h in sorted(crossed)),
        tuple(pair for pair, _ in sorted(edges.items(), key=lambda item: (item[1], item[0]))),
        tuple(h for _, h in sorted(corners)),
    )


def _reversed(rel: RelativeTrace, drow: int, dcol: int) -> RelativeTrace:
    """The trace to ``(drow, dcol)`` from the one to ``(-drow, -dcol)``.

    The segment from 0 to ``w`` is the one from 0 to ``-w`` moved by ``w`` and run backwards, so
    it meets the same hexes moved by ``w``; only the order along the line is recomputed, with the
    same keys as ``relative_trace`` (position along the line, then the hex)."""
    dx, dy = 3 * dcol, 3 * drow

    def along(r: int, c: int) -> int:  # dot(d, centre) in the x = 3·col, y = 3·row coordinates
        return dx * 3 * c + dy * 3 * r

    def corner_along(h: Offset) -> int:  # dot(d, the corner of h that lies on the line)
        for ox, oy in CORNERS:
            x, y = 3 * h[1] + ox, 3 * h[0] + oy
            if dx * y - dy * x == 0:
                return dx * x + dy * y
        raise AssertionError("a corner touch has a corner on the line")

    crossed = [(r + drow, c + dcol) for r, c in rel.crossed]
    edges = [((a[0] + drow, a[1] + dcol), (b[0] + drow, b[1] + dcol)) for a, b in rel.edges]
    corners = [(r + drow, c + dcol) for r, c in rel.corners]
    return RelativeTrace(
        tuple(sorted(crossed, key=lambda h: (along(*h), h))),
        tuple(sorted(edges, key=lambda e: (along(*e[0]) + along(*e[1]), e))),
        tuple(sorted(corners, key=lambda h: (corner_along(h), h))),
    )


def _crosses_between(s: list[int], p: list[int], length2: int) -> bool:
    """True when the chord of a hex the line passes through lies between the segment's ends.

    Any one point of the chord decides (see ``relative_trace``): a corner on the line, or the
    crossing point on an edge whose corners lie on opposite sides, at ``p = (s_i p_j - s_j p_i) /
    (s_i - s_j)``, compared without division."""
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


def trace(start: Hex, end: Hex) -> Trace:
    """The trace between two hexes: the one of their difference vector, moved to ``start``.

    Moving a line by a lattice step moves every hex it meets by that step and keeps the order
    along it (the sort keys are differences), so this is exactly the classification of the
    segment itself."""
    rel = relative_trace(end.row - start.row, end.col - start.col)
    r0, c0 = start.row, start.col
    return Trace(
        start,
        end,
        tuple(_hex(r0 + r, c0 + c) for r, c in rel.crossed),
        tuple((_hex(r0 + a[0], c0 + a[1]), _hex(r0 + b[0], c0 + b[1])) for a, b in rel.edges),
        tuple(_hex(r0 + r, c0 + c) for r, c in rel.corners),
    )


_HEXES: dict[tuple[int, int], Hex] = {}


def _hex(row: int, col: int) -> Hex:
    """A ``Hex``, shared for the hexes of the boards and their rings (building a frozen
    dataclass costs more than the rest of a short trace)."""
    h = _HEXES.get((row, col))
    return h if h is not None else Hex(row, col)


@dataclass(frozen=True, eq=False)
class SightTable:
    """Every centre-to-centre line of one board kind as a bit mask (see the module docstring).

    ``masks[origin][j]`` is the line from ``origin`` to ``hexes[j]``: bit ``idx`` of segment 0
    for each on-board hex it crosses, bit ``idx(first hex)`` of segment ``1 + k`` for each edge
    of direction ``k`` it runs along that has at least one side on the board. The same int
    object serves both directions of a pair (a line meets the same hexes either way). Adjacent
    pairs and the origin itself have mask 0: nothing can block them."""

    board: Board
    width: int
    stride: int  # bits per segment
    hexes: tuple[Hex, ...]  # the board's hexes, in ``Board.hexes`` order
    index: dict[Hex, int]  # padded index of each board hex
    at: dict[int, Hex]  # padded index -> board hex
    steps: tuple[int, int, int]  # index offset of each edge direction
    on_board: int  # segment-0 bits of the board's hexes
    masks: dict[Hex, tuple[int, ...]]
    ring: tuple[Hex | None, ...]  # padded index -> hex of the board or its ring of neighbours
    lines: dict[Offset, tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]]
    # ^ difference vector -> its ``RelativeTrace`` as index offsets (crossed, edges, corners)
    position: dict[Hex, int] = field(init=False)  # hex -> its place in ``hexes``
    everything: frozenset[Hex] = field(init=False)
    _chunks: tuple[dict[bytes, frozenset[Hex]], ...] = field(init=False)
    _slices: tuple[slice, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", {h: j for j, h in enumerate(self.hexes)})
        object.__setattr__(self, "everything", frozenset(self.hexes))
        object.__setattr__(self, "_slices", tuple(slice(k, k + CHUNK) for k in range(0, len(self.hexes), CHUNK)))
        object.__setattr__(self, "_chunks", tuple({} for _ in self._slices))

    def unflagged(self, flags: bytes) -> frozenset[Hex]:
        """The hexes whose byte in ``flags`` (one per hex of ``hexes``, 0 or 1) is 0.

        Built as a union of cached frozensets, one per run of ``CHUNK`` hexes and pattern of
        flags, so no ``Hex`` is hashed again: hashing a dataclass runs Python code, and it
        would cost more than the whole sweep."""
        parts = list(map(dict.get, self._chunks, map(flags.__getitem__, self._slices)))
        if None in parts:
            for k, (cache, piece) in enumerate(zip(self._chunks, self._slices, strict=True)):
                if parts[k] is None:
                    key = flags[piece]
                    parts[k] = cache[key] = frozenset(h for h, f in zip(self.hexes[piece], key, strict=True) if not f)
        return frozenset().union(*parts)

    def trace(self, start: Hex, end: Hex) -> Trace:
        """``trace(start, end)`` for two hexes of this board, from the table: the same hex
        objects every time, no arithmetic beyond one addition per hex."""
        crossed, edges, corners = self.lines[(end.row - start.row, end.col - start.col)]
        at, i = self.ring, self.index[start]
        return Trace(start, end, tuple([at[i + k] for k in crossed]),
                     tuple([(at[i + a], at[i + b]) for a, b in edges]),
                     tuple([at[i + k] for k in corners]))

    def idx(self, h: Hex) -> int:
        return (h.row + 1) * self.width + (h.col + h.row) // 2 + 1

    def bits(self, hexes: Iterable[Hex]) -> int:
        """The segment-0 bit set of the board hexes in ``hexes`` (others are ignored)."""
        out = 0
        for h in hexes:
            i = self.index.get(h)
            if i is not None:
                out |= 1 << i
        return out

    def blocking_bits(self, obstructing: int) -> int:
        """The mask a line blocked by the obstructions ``obstructing`` (segment-0 bits) meets.

        Segment 0: the obstructions themselves (a crossed one blocks); segment ``1 + k``: the
        edges of direction ``k`` with an obstruction on both sides (reading 1 of
        ``line_of_sight``: each edge judged on its own). A line is blocked iff
        ``mask & blocking_bits(O)`` is non-zero."""
        out = obstructing
        for k, step in enumerate(self.steps):
            out |= (obstructing & (obstructing >> step)) << ((1 + k) * self.stride)
        return out

    def touching_bits(self, hexes: int) -> int:
        """The mask a line meets when it crosses or runs along any of ``hexes`` (segment 0)."""
        out = hexes
        for k, step in enumerate(self.steps):
            out |= (hexes | (hexes >> step)) << ((1 + k) * self.stride)
        return out

    def touched(self, mask: int) -> int:
        """Segment-0 bits of the on-board hexes a line crosses or runs along (either side)."""
        seg = (1 << self.stride) - 1
        out = mask & seg
        for k, step in enumerate(self.steps):
            edges = (mask >> ((1 + k) * self.stride)) & seg
            out |= edges | (edges << step)
        return out & self.on_board


def _build(board: Board) -> SightTable:
    """Tabulate every ordered pair of ``board`` from one relative trace per difference vector."""
    width = (board.max_col + 2 + board.rows) // 2 + 2
    hexes = tuple(board.hexes())

    def idx(r: int, c: int) -> int:
        return (r + 1) * width + (c + r) // 2 + 1

    def lin(r: int, c: int) -> int:  # idx(o + (r, c)) == idx(o) + lin(r, c) on the lattice
        return r * width + (c + r) // 2

    size = (board.rows + 2) * width  # every on-board hex and its ring of neighbours
    steps = tuple(lin(*s) for s in EDGE_STEPS)
    index = {h: idx(h.row, h.col) for h in hexes}
    for h in hexes:  # the board and its ring: every hex a line between two of its hexes meets
        _HEXES[(h.row, h.col)] = h
        for n in h.neighbours():
            _HEXES.setdefault((n.row, n.col), n)
    on_board = 0
    for i in index.values():
        on_board |= 1 << i
    keep = on_board  # crossed: only on-board hexes can obstruct
    vectors = [(dr, dc) for dr in range(1 - board.rows, board.rows)  # every step between two of its hexes
               for dc in range(-board.max_col, board.max_col + 1) if (dr + dc) % 2 == 0]
    traces = {v: relative_trace(*v) for v in vectors}
    low = min((lin(*u) for rel in traces.values() for u in (*rel.crossed, *(e[0] for e in rel.edges))), default=0)
    high = max((lin(*u) for rel in traces.values() for u in (*rel.crossed, *(e[0] for e in rel.edges))), default=0)
    base = -min(low, 0)
    stride = max(size, base + high + 1)
    for k, step in enumerate(steps):  # edges with at least one side on the board
        keep |= (on_board | (on_board >> step)) << ((1 + k) * stride)
    relative: dict[Offset, int] = {}
    for v, rel in traces.items():
        mask = 0
        for u in rel.crossed:
            mask |= 1 << (base + lin(*u))
        for a, b in rel.edges:
            k = EDGE_STEPS.index((b[0] - a[0], b[1] - a[1]))
            mask |= 1 << ((1 + k) * stride + base + lin(*a))
        relative[v] = mask
    rows: list[list[int]] = [[0] * len(hexes) for _ in hexes]
    for i, o in enumerate(hexes):
        io, row_i = index[o], rows[i]
        for j in range(i + 1, len(hexes)):
            t = hexes[j]
            rel_mask = relative[(t.row - o.row, t.col - o.col)]
            if rel_mask:
                row_i[j] = rows[j][i] = ((rel_mask << io) >> base) & keep
    ring: list[Hex | None] = [None] * size
    for h in hexes:
        for n in (h, *h.neighbours()):
            ring[idx(n.row, n.col)] = _HEXES[(n.row, n.col)]
    lines = {v: (tuple(lin(*u) for u in rel.crossed), tuple((lin(*a), lin(*b)) for a, b in rel.edges),
                 tuple(lin(*u) for u in rel.corners)) for v, rel in traces.items()}
    return SightTable(board, width, stride, hexes, index, {i: h for h, i in index.items()},
                      (steps[0], steps[1], steps[2]), on_board, {o: tuple(rows[i]) for i, o in enumerate(hexes)},
                      tuple(ring), lines)


_TABLES: dict[str, SightTable] = {}


def sight_table(kind: str) -> SightTable:
    """The table of board ``kind``, built on first use and kept for the life of the process."""
    table = _TABLES.get(kind)
    if table is None:
        table = _TABLES[kind] = _build(BOARDS[kind])
    return table


def warm_up() -> None:
    """Build the tables of every board kind now (the app calls this at start-up), so that no
    user's request pays for it."""
    for kind in BOARDS:
        sight_table(kind)
