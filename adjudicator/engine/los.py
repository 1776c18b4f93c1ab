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

``sight_map`` answers the same question for many pairs at once from the per-board tables of
``sightlines``, with the same readings.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Board, Hex, distance
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import HexRules, Rulebook
from adjudicator.engine.sightlines import CORNERS as CORNERS  # re-exported: the geometry lives there
from adjudicator.engine.sightlines import SightTable, sight_table
from adjudicator.engine.sightlines import Trace as Trace
from adjudicator.engine.sightlines import trace as trace
from adjudicator.engine.situation import Situation

LOS_RULE = "line_of_sight"
"""The core content entry every line-of-sight ruling cites."""

READINGS: dict[str, str] = {"edge_runs": "per_edge", "corner_touch": "not_crossed"}
"""The two readings of the rule this engine applies (documented on the ``line_of_sight`` page)."""
LAKE_READING = "contiguous_touched"
"""Lake hexes count only as a run of two or more contiguous lake hexes crossed or run along."""

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

    def __init__(self, situation: Situation, rulebook: Rulebook, line: Trace,
                 plateaus: _SightBlockers | None = None) -> None:
        self.situation = situation
        self.rulebook = rulebook
        self.line = line
        self.board: Board = situation.board
        self.notes: list[Reason] = []
        self._groups: dict[str, set[Hex] | frozenset[Hex] | None] = {}
        if plateaus is not None:  # every group's components, already found
            self._groups = {g: found.get(line.start) for g, found in plateaus.component.items()}
            self._groups.update(plateaus.no_groups)
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
    """Rule on the line between the centres of ``origin`` and ``target`` (content ``line_of_sight``).

    On a board's own hexes the precomputed line (``sightlines.SightTable``) says at once whether
    anything that could obstruct lies on it; a line with nothing on it skips the hex-by-hex
    reading, whose answer would be the same."""
    d = distance(origin, target)
    board = situation.board
    if d <= 1:
        text = "the two hexes are the same" if d == 0 else "adjacent units always see each other"
        return LineOfSight(origin, target, d, True, (), (), (), (), (Reason(LOS_RULE, text.capitalize()),),
                           dict(READINGS))
    table = sight_table(board.kind)
    row, j = table.masks.get(origin), table.position.get(target)
    if row is None or j is None:
        line, sight = trace(origin, target), None
    else:
        line, sight = table.trace(origin, target), _blockers(situation, rulebook, table)
        if not table.touched(row[j]) & sight.candidates and not (
                line.corners and sight.candidates & table.bits(line.corners)):
            index = table.index
            return LineOfSight(
                origin, target, d, True, tuple([h for h in line.crossed if h in index]), line.edges,
                tuple([h for h in line.corners if h in index]),
                (), (Reason(LOS_RULE, "Nothing on the line between the two hexes blocks it"),), dict(READINGS))
    obstructions = _Obstructions(situation, rulebook, line, sight)
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


class _SightBlockers:
    """The obstructions of one situation as bit sets of a ``SightTable`` (content
    ``line_of_sight``, ``hill``, ``lake``), read exactly as ``_Obstructions`` reads them.

    A hex obstructs a line when it holds a unit or a feature that ``blocks_los`` under its
    ``los_rule``, except that

    - a ``plateau`` feature is excused when both ends and the hex lie in one contiguous group of
      its plateau (``plateau_group`` from the origin): only targets in the origin's own group
      need a second look, with those hexes taken out;
    - a ``lake_group`` feature counts only inside a run of ``los_min_group`` contiguous such hexes
      the line crosses or runs along: a lake hex whose whole group on the board is smaller never
      counts; lines that touch a larger group get a second look."""

    def __init__(self, situation: Situation, rulebook: Rulebook, table: SightTable) -> None:
        self.table = table
        index = table.index
        always = 0
        self.plateau_hexes: dict[Hex, frozenset[str]] = {}  # groups of its blocking plateau features
        lake_size: dict[Hex, int] = {}  # the run length each lake hex needs
        members: dict[str, set[Hex]] = {}
        for unit in situation.units:
            if unit.hex in index:
                always |= 1 << index[unit.hex]
        for h, state in situation.hexes.items():
            if h not in index:
                continue
            groups: set[str] = set()
            for feature in state.features():
                rules = rulebook.hex_rules(feature)
                plateau = getattr(rulebook.rules.get(feature), "plateau", None)
                if plateau:
                    members.setdefault(plateau, set()).add(h)
                if not rules.blocks_los:
                    continue
                if rules.los_rule == "plateau" and rules.plateau:
                    groups.add(rules.plateau)
                elif rules.los_rule == "lake_group":
                    lake_size[h] = max(lake_size.get(h, 0), rules.los_min_group)
                else:
                    always |= 1 << index[h]
            if groups:
                self.plateau_hexes[h] = frozenset(groups)
        self.always = always
        self.plateau_bits = table.bits(self.plateau_hexes)
        self.obstructing = always | self.plateau_bits  # no plateau excused, no lake run
        self.candidates = self.obstructing | table.bits(lake_size)  # all that may ever obstruct
        self.blocking = table.blocking_bits(self.obstructing)
        self._blocking: dict[int, int] = {self.obstructing: self.blocking}
        self.component: dict[str, dict[Hex, frozenset[Hex]]] = {}  # per plateau group: hex -> its group
        for group, hexes in members.items():
            found: dict[Hex, frozenset[Hex]] = {}
            for h in hexes:
                if h not in found:
                    component = frozenset(_component(h, hexes))
                    found.update(dict.fromkeys(component, component))
            self.component[group] = found
        self.no_groups: dict[str, None] = {  # plateaus the rulebook knows with no hex on this board
            p: None for r in rulebook.rules.values() if (p := getattr(r, "plateau", None)) and p not in members}
        self.on_plateau = frozenset().union(*(found.keys() for found in self.component.values()))
        self.lake_bits = table.bits(lake_size)
        self.lake_needs: dict[int, int] = {}  # run length -> the lake hexes that need it
        for h, size in lake_size.items():
            self.lake_needs[size] = self.lake_needs.get(size, 0) | 1 << index[h]
        possible = self.lake_runs(self.lake_bits)  # lake hexes that may ever count
        self.lake_touch = table.touching_bits(possible) if possible else 0

    def lake_runs(self, lakes: int) -> int:
        """Of the lake hexes ``lakes``, those in a contiguous group of them as large as they need."""
        runs, rest = 0, lakes
        steps = self.table.steps
        while rest:
            group = grown = rest & -rest
            while grown:  # flood fill: neighbours are fixed index offsets
                around = 0
                for step in steps:
                    around |= (group << step) | (group >> step)
                grown = around & lakes & ~group
                group |= grown
            rest &= ~group
            size = group.bit_count()
            for needs, hexes in self.lake_needs.items():
                if size >= needs:
                    runs |= group & hexes
        return runs

    def shared_groups(self, origin: Hex) -> dict[Hex, int]:
        """Targets in a plateau group with ``origin`` -> the obstructions of that line: the
        plateau hexes of the groups both ends share are excused (content ``hill``)."""
        shared: dict[Hex, int] = {}
        groups = [(g, comps[origin]) for g, comps in self.component.items() if origin in comps]
        cache: dict[frozenset[str], int] = {}
        for target in frozenset().union(*(component for _, component in groups)):
            key = frozenset(g for g, component in groups if target in component)
            if key not in cache:
                excused = (h for h, needs in self.plateau_hexes.items()
                           if all(g in key and h in self.component[g][origin] for g in needs))
                cache[key] = self.always | self.plateau_bits & ~self.table.bits(excused)  # a unit still blocks
            shared[target] = cache[key]
        return shared

    def clear(self, mask: int, obstructing: int) -> bool:
        """Whether the line ``mask`` is clear given ``obstructing`` and the lake runs on it."""
        blocking = self._blocking.get(obstructing)
        if blocking is None:
            blocking = self._blocking[obstructing] = self.table.blocking_bits(obstructing)
        if mask & blocking:
            return False
        if not mask & self.lake_touch:
            return True
        runs = self.lake_runs(self.table.touched(mask) & self.lake_bits)
        return not runs or not mask & self.table.blocking_bits(obstructing | runs)


_CACHE_SIZE = 8
_cache: OrderedDict[tuple[int, int], tuple[weakref.ref[Situation], weakref.ref[Rulebook], _SightBlockers]] = (
    OrderedDict())
_cache_lock = threading.Lock()


def _blockers(situation: Situation, rulebook: Rulebook, table: SightTable) -> _SightBlockers:
    """The bit sets of ``situation``, kept for the last few situations (a fire map or a sweep asks
    for many lines of one situation). Situations are frozen; weak references make sure an entry
    is only reused for the very same objects, never for a new one that got a recycled id."""
    key = (id(situation), id(rulebook))
    with _cache_lock:  # threaded servers: one request's eviction must not race another's lookup
        hit = _cache.get(key)
        if hit is not None and hit[0]() is situation and hit[1]() is rulebook and hit[2].table is table:
            _cache.move_to_end(key)
            return hit[2]
    blockers = _SightBlockers(situation, rulebook, table)
    with _cache_lock:
        _cache[key] = (weakref.ref(situation), weakref.ref(rulebook), blockers)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return blockers


def sight_map(situation: Situation, rulebook: Rulebook, origins: Iterable[Hex] | None = None,
              ) -> dict[Hex, frozenset[Hex]]:
    """Every origin (default: every hex of the board) -> the hexes it has clear line of sight to
    (content ``line_of_sight``): exactly those ``t`` for which ``line_of_sight(situation,
    rulebook, origin, t).clear``, the origin itself and adjacent hexes included.

    One ``&`` per pair, run in C by ``map``, against the precomputed lines of
    ``sightlines.SightTable``; only lines from a plateau to the same group, and lines touching a
    lake group large enough to count, take a second look. Raises ``IllegalSituation`` (field
    ``origins[n]``) for a hex off the board."""
    table = sight_table(situation.board.kind)
    blockers = _blockers(situation, rulebook, table)
    hexes, masks, position = table.hexes, table.masks, table.position
    blocking, lake_touch = blockers.blocking, blockers.lake_touch
    quick = blocking | lake_touch
    out: dict[Hex, frozenset[Hex]] = {}
    for n, origin in enumerate(table.hexes if origins is None else origins):
        row = masks.get(origin)
        if row is None:
            where = f"({origin.row}, {origin.col})" if isinstance(origin, Hex) else repr(origin)
            raise IllegalSituation(f"origins[{n}]", f"{where} is not on the {situation.board.kind} board")
        shared = blockers.shared_groups(origin) if origin in blockers.on_plateau else {}
        if not quick and not shared:
            out[origin] = table.everything
            continue
        flags = bytes(map(bool, map(quick.__and__, row)))  # 1: blocked, or a lake to look at
        seen = table.unflagged(flags)
        again: list[int] = []
        if lake_touch:
            touching = int.from_bytes(bytes(map(bool, map(lake_touch.__and__, row))), "big")
            maybe = touching & ~int.from_bytes(bytes(map(bool, map(blocking.__and__, row))), "big")
            while maybe:
                low = maybe & -maybe
                again.append(len(hexes) - 1 - (low.bit_length() - 1) // 8)  # one byte per hex
                maybe ^= low
        again.extend(position[t] for t in shared if flags[position[t]])
        extra = [hexes[j] for j in dict.fromkeys(again)
                 if blockers.clear(row[j], shared.get(hexes[j], blockers.obstructing))]
        out[origin] = seen.union(extra) if extra else seen
    return out
