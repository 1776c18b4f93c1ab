"""Exact line of sight (content ``line_of_sight``; Game help summary, Battle — Line of sight).

The geometry (which hexes a centre-to-centre line crosses, runs along at an edge, or touches at a
corner, in whole numbers) lives in ``sightlines``, precomputed per board kind. Here are the rules.

Blocking: an intermediate crossed hex holding an obstruction (any unit, or a feature with
``blocks_los`` under its ``los_rule``) blocks; an edge blocks only when the hexes on *both* of its
sides are obstructions, each edge judged on its own (reading 1); a corner touch never blocks
(reading 2); the two end hexes never block; adjacent hexes always see each other; off-board hexes
never block.

``line_of_sight`` rules on one pair with every reason; ``sight_map`` answers "who sees whom" for
many origins at once with bit sets over the precomputed shadows, and agrees with it on every pair.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Any, Literal

from adjudicator.engine.budget import charge
from adjudicator.engine.core_ids import LOS_RULE
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Board, Hex, distance, hex_json
from adjudicator.engine.reasons import EntryRef, Reason, UnitRef
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.sightlines import ACROSS_EDGE, CORNERS, BoardSight, Trace, board_sight, classify, trace
from adjudicator.engine.situation import Situation
from adjudicator.engine.wording import entry_ref, hex_ref, say, say_params, unit_ref

__all__ = ["ACROSS_EDGE", "CORNERS", "LOS_RULE", "READINGS", "Blocker", "LineOfSight", "Trace", "classify",
           "line_of_sight", "los_json", "plateau_group", "sight_map", "trace"]

READINGS: dict[str, str] = {"edge_runs": "per_edge", "corner_touch": "not_crossed"}
"""The two readings of the rule this engine applies (documented on the ``line_of_sight`` page)."""
SHADOWS_PER_UNIT = 32
"""Shadows (bit sets of a board's size) joined in a sweep per work unit charged."""
LAKE_READING = "contiguous_touched"
"""Lake hexes count only as a run of two or more contiguous lake hexes crossed or run along."""


@dataclass(frozen=True)
class Blocker:
    """One obstruction that blocks the line: a crossed hex, or one side of a blocked edge."""

    hex: Hex
    why: Reason  # what obstructs the hex (``los.unit_blocks``, ``los.terrain_blocks``, ``los.lake_run_blocks``)
    via: Literal["crossed", "edge"] = "crossed"
    edge_with: Hex | None = None

    @property
    def what(self) -> UnitRef | EntryRef:
        """The unit or the terrain that obstructs, as the reason names it."""
        found = self.why.param_map.get("unit") or self.why.param_map.get("terrain")
        assert isinstance(found, (UnitRef, EntryRef))
        return found


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

    def causes(self, h: Hex, note: bool = True) -> list[Reason]:
        """Every reason ``h`` obstructs this line; empty if it does not.

        With ``note``, features that would block but are excused here (same hill group, a lone
        lake hex) are recorded in ``notes`` so the ruling can say why they did not block."""
        if not self.board.contains(h):
            return []
        found: list[Reason] = []
        unit = self.situation.unit_at(h)
        if unit is not None:
            found.append(say("los.unit_blocks", LOS_RULE, unit=unit_ref(self.situation, self.rulebook, unit)))
        for feature in self.situation.hex_state(h).features():
            rules = self.rulebook.hex_rules(feature)
            if not rules.blocks_los:
                continue
            terrain = entry_ref(self.rulebook, feature, hex_ref(self.board, h))
            if rules.los_rule == "plateau" and rules.plateau and self._same_plateau(h, rules.plateau):
                if note:
                    self.notes.append(say("los.same_plateau", feature, fact="los_rule", terrain=terrain))
                continue
            if rules.los_rule == "lake_group":
                self.used_lake_rule = True
                if h not in self._lake_runs():
                    if note:
                        self.notes.append(say("los.lone_lake", feature, fact="los_min_group", terrain=terrain,
                                              n=rules.los_min_group))
                    continue
                found.append(say("los.lake_run_blocks", feature, fact="los_min_group", terrain=terrain,
                                 n=rules.los_min_group))
                continue
            found.append(say("los.terrain_blocks", feature, fact="blocks_los", terrain=terrain))
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
                 if (rules := self.rulebook.feature(f)) is not None
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
    ``start``; None when ``start`` is not such a hex (known without looking at the others)."""
    component = plateau_components(situation, rulebook, group).get(start)
    return None if component is None else set(component)


def plateau_components(situation: Situation, rulebook: Rulebook, group: str) -> dict[Hex, frozenset[Hex]]:
    """Every hex of plateau ``group`` -> the contiguous group holding it (content ``hill``).

    Worked out once per situation and group, then kept with the situation: a battle's terrain
    reduction, each line walked across the group and the sight sweep all ask, and a board that is
    one plateau (every hex a mountain) made each of them walk the whole board again (1,334 times
    for one fire map). The walk is charged to the work budget, hex by hex."""
    key = f"plateau:{group}"
    found = situation.memo.get(key)
    if not isinstance(found, dict):
        members = {h for h, state in situation.hexes.items()
                   if any((rules := rulebook.feature(f)) is not None and rules.plateau == group
                          for f in state.features())}
        charge(len(members) + 1)
        found = {}
        for h in members:
            if h not in found:
                component = frozenset(_component(h, members))
                found.update(dict.fromkeys(component, component))
        situation.memo[key] = found
    return found


def _component(start: Hex, members: set[Hex]) -> set[Hex]:
    seen = {start}
    queue = deque([start])
    while queue:
        for n in queue.popleft().neighbours():
            if n in members and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def line_of_sight(situation: Situation, rulebook: Rulebook, origin: Hex, target: Hex) -> LineOfSight:
    """Rule on the line between the centres of ``origin`` and ``target`` (content ``line_of_sight``)."""
    d = distance(origin, target)
    line = trace(origin, target)
    board = situation.board
    charge(1 + len(line.crossed) + len(line.edges))  # the hexes this walk looks at (engine.budget)
    if d <= 1:
        said = say("los.same_hex" if d == 0 else "los.adjacent", LOS_RULE)
        return LineOfSight(origin, target, d, True, (), (), (), (), (said,), dict(READINGS))
    obstructions = _Obstructions(situation, rulebook, line)
    blockers: list[Blocker] = []
    reasons: list[Reason] = []
    for h in line.crossed:
        for why in obstructions.causes(h):
            blockers.append(Blocker(h, why, "crossed"))
            # the cause's own sentence after "The line crosses D5: " (its code ``los.crosses_*``)
            reasons.append(say_params(why.code.replace("los.", "los.crosses_", 1), why.rule,
                                      {**why.param_map, "hex": hex_ref(board, h)}, fact=why.fact))
    for a, b in line.edges:
        causes_a, causes_b = obstructions.causes(a), obstructions.causes(b)
        if causes_a and causes_b:
            for h, other, causes in ((a, b, causes_a), (b, a, causes_b)):
                blockers.extend(Blocker(h, why, "edge", other) for why in causes)
            reasons.append(say("los.edge_blocked", LOS_RULE, a=hex_ref(board, a), b=hex_ref(board, b)))
        elif causes_a or causes_b:
            reasons.append(say("los.edge_one_side", LOS_RULE, a=hex_ref(board, a), b=hex_ref(board, b)))
    for h in line.corners:
        if obstructions.causes(h, note=False):
            reasons.append(say("los.corner", LOS_RULE, hex=hex_ref(board, h)))
    reasons.extend(_dedupe(obstructions.notes))
    readings = dict(READINGS)
    if obstructions.used_lake_rule:
        readings["lake_group"] = LAKE_READING
    clear = not blockers
    if clear and not reasons:
        reasons.append(say("los.clear", LOS_RULE))
    return LineOfSight(
        origin, target, d, clear,
        tuple(h for h in line.crossed if board.contains(h)),
        line.edges,
        tuple(h for h in line.corners if board.contains(h)),
        tuple(blockers), tuple(reasons), readings,
    )


def sight_map(situation: Situation, rulebook: Rulebook,
              origins: Iterable[Hex] | None = None) -> dict[Hex, frozenset[Hex]]:
    """Every origin (default: every hex of the board) -> the hexes it has clear line of sight to.

    The same ruling as ``line_of_sight(...).clear`` for every pair (content ``line_of_sight``,
    ``hill``, ``lake``), the origin itself and its neighbours included, but for a whole board in
    a few milliseconds: the obstructions become one bit set, and the targets an origin cannot see
    are the union of the precomputed shadows (``sightlines.BoardSight``) of its obstructed hexes
    and of its edges with obstructions on both sides. An origin off the board is an
    ``IllegalSituation`` naming ``origins[i]``."""
    sight = board_sight(situation.board)
    if origins is None:
        chosen: Iterable[Hex] = sight.hexes
    else:
        chosen = dict.fromkeys(origins)
        for i, h in enumerate(chosen):
            if not isinstance(h, Hex) or h not in sight.index:
                raise IllegalSituation(f"origins[{i}]", f"{h!r} is not a hex of the {situation.board.kind} board")
    sweep = _Sweep(situation, rulebook, sight)
    full, index, hexset = sight.full, sight.index, sight.hexset
    if origins is None:  # by number: hashing a Hex costs more than the sweep's bit operations
        return {h: hexset(full & ~sweep.blocked(i, h)) for i, h in enumerate(sight.hexes)}
    return {h: hexset(full & ~sweep.blocked(index[h], h)) for h in chosen}


class _Sweep:
    """The obstructions of one situation as bit sets over one board's hexes, and the sweep.

    What obstructs a line depends on the line only through two rules, handled here exactly as
    ``_Obstructions`` does for one line:

    - plateau (content ``hill``): a feature of group ``g`` is excused when both ends and the hex
      stand in one contiguous group of ``g``; so the targets of an origin on such a group fall
      into classes (inside or outside each of its groups), each with its own obstruction set;
    - lake groups (content ``lake``): a lake hex obstructs only as part of a run of contiguous
      lake hexes the line meets. Lakes only ever add obstructions, so a target already blocked
      without them stays blocked; the few others whose line meets a possible run are ruled pair
      by pair with ``_Obstructions`` itself."""

    def __init__(self, situation: Situation, rulebook: Rulebook, sight: BoardSight) -> None:
        self.situation, self.rulebook, self.sight = situation, rulebook, sight
        index = sight.index
        always = 0
        plateaus: dict[str, int] = {}
        lake_sizes: dict[int, int] = {}
        self.offboard_lakes = False
        for h, state in situation.hexes.items():
            i = index.get(h)
            for feature in state.features():
                rules = rulebook.hex_rules(feature)
                if not rules.blocks_los:
                    continue
                if rules.los_rule == "lake_group":
                    if i is None:
                        self.offboard_lakes = True  # not from parse_situation; rule every lake pair
                    else:
                        lake_sizes[i] = max(lake_sizes.get(i, 0), rules.los_min_group)
                elif i is None:
                    continue  # off the board: never obstructs
                elif rules.los_rule == "plateau" and rules.plateau:
                    plateaus[rules.plateau] = plateaus.get(rules.plateau, 0) | 1 << i
                else:
                    always |= 1 << i
        for unit in situation.units:
            i = index.get(unit.hex)
            if i is not None:
                always |= 1 << i
        self.always = always
        self.lake_sizes = lake_sizes
        # Per plateau group with obstructing hexes: those hexes, and each member's component.
        self.groups: list[tuple[int, dict[int, int]]] = []
        for group, obstructing in plateaus.items():
            component_of: dict[int, int] = {}  # on-board member's number -> its component's bits
            bits_of: dict[int, int] = {}  # a component (by id) -> its bits, worked out once
            for h, component in plateau_components(situation, rulebook, group).items():
                if index.get(h) is not None:
                    bits = bits_of.get(id(component))
                    if bits is None:
                        bits = bits_of[id(component)] = sight.mask(component)
                    component_of[index[h]] = bits
            self.groups.append((obstructing, component_of))
        self._lists: dict[int, list[int]] = {}
        self.on_plateau = {i for _, component_of in self.groups for i in component_of}
        self.off_plateau = [(sight.full, reduce(or_, (obstructing for obstructing, _ in self.groups), always))]
        """The one class of an origin on no plateau group: every plateau hex obstructs."""

    def classes(self, origin: int) -> list[tuple[int, int]]:
        """(targets, obstructions) for the targets of hex ``origin`` sharing one obstruction set."""
        if origin not in self.on_plateau:
            return self.off_plateau
        full = self.sight.full
        mine = [(obstructing, component_of[origin]) for obstructing, component_of in self.groups
                if origin in component_of]
        base = self.always
        for obstructing, component_of in self.groups:
            if origin not in component_of:
                base |= obstructing
        found = [(full, base)]
        for obstructing, component in mine:  # split every class into inside / outside the group
            found = [part for targets, obstruct in found for part in (
                (targets & component, obstruct | (obstructing & ~component)),
                (targets & ~component, obstruct | obstructing)) if part[0]]
        return found

    def obstructed(self, obstruct: int) -> list[int]:
        """The numbers of the hexes in ``obstruct`` (a few distinct sets per situation, kept)."""
        found = self._lists.get(obstruct)
        if found is None:
            found = self._lists[obstruct] = self.sight.bits(obstruct)
        return found

    def blocked(self, si: int, origin: Hex) -> int:
        """The targets ``origin`` (hex number ``si``) has no line of sight to."""
        cross, runs = self.sight.cross[si], self.sight.runs[si]
        out = 0
        for targets, obstruct in self.classes(si):
            obstructed = self.obstructed(obstruct)
            charge(1 + (len(obstructed) + len(runs)) // SHADOWS_PER_UNIT)  # the shadows joined (engine.budget)
            shadow = reduce(or_, map(cross.__getitem__, obstructed), 0)
            for both, targets_along in runs:
                if obstruct & both == both:  # reading 1: an edge blocks when both its sides do
                    shadow |= targets_along
            if self.lake_sizes or self.offboard_lakes:
                shadow |= self._lake_blocked(si, origin, targets & ~shadow, obstruct)
            out |= shadow & targets
        return out

    def _lake_candidates(self, si: int) -> int:
        """Targets whose line from hex ``si`` meets a lake hex that could block: one that counts
        on its own, or two touching lake hexes (every run of two or more holds such a pair)."""
        sight = self.sight
        cross, side = sight.cross[si], sight.side[si]
        touch = {i: cross[i] | side.get(i, 0) for i in self.lake_sizes}
        out = 0
        for i, size in self.lake_sizes.items():
            if size <= 1:
                out |= touch[i]
            for j in sight.neighbours[i]:
                if j > i and j in touch:
                    out |= touch[i] & touch[j]
        return out

    def _lake_blocked(self, si: int, origin: Hex, open_targets: int, obstruct: int) -> int:
        """Of ``open_targets``, those a run of lake hexes blocks, ruled line by line."""
        sight = self.sight
        if not self.offboard_lakes:
            open_targets &= self._lake_candidates(si)
        out = 0
        for ei in sight.bits(open_targets):
            line = trace(origin, sight.hexes[ei])
            lakes = _Obstructions(self.situation, self.rulebook, line)._lake_runs()
            if lakes and _line_blocked(sight, line, obstruct | sight.mask(lakes)):
                out |= 1 << ei
        return out


def _line_blocked(sight: BoardSight, line: Trace, obstruct: int) -> bool:
    """A crossed hex obstructed, or an edge obstructed on both sides (off-board hexes never are)."""
    index = sight.index
    for h in line.crossed:
        i = index.get(h)
        if i is not None and obstruct >> i & 1:
            return True
    for a, b in line.edges:
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and obstruct >> i & 1 and obstruct >> j & 1:
            return True
    return False


def _dedupe(reasons: Iterable[Reason]) -> list[Reason]:
    return list(dict.fromkeys(reasons))


def los_json(board: Board, los: LineOfSight) -> dict[str, Any]:
    """The ``/api/v1/line-of-sight`` answer (adjudicator/API.md)."""
    return {
        "from": hex_json(board, los.origin),
        "to": hex_json(board, los.target),
        "distance": los.distance,
        "clear": los.clear,
        "blocked_by": [
            {**hex_json(board, b.hex), "reason": b.why.text, "rule": b.why.rule, "code": b.why.code,
             "params": b.why.to_dict()["params"], "via": b.via,
             **({"edge_with": hex_json(board, b.edge_with)} if b.edge_with is not None else {})}
            for b in los.blocked_by
        ],
        "crossed": [hex_json(board, h) for h in los.crossed],
        "edges": [[hex_json(board, a), hex_json(board, b)] for a, b in los.edges],
        "corner_touches": [hex_json(board, h) for h in los.corner_touches],
        "readings": los.readings,
        "reasons": [r.to_dict() for r in los.reasons],
    }
