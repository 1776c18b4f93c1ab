"""How did a unit move this turn? (core ``movement``.)

What a unit may do after its move (battle, take ground) depends on *how* it moved, not only how
far: a climb onto a steep hill or up a sea bluff counts 2 hexes, a move wholly on road earns a
hex more (and Winter Weather's third), a unit leaving a marsh may not battle, armor takes ground
into a jungle only if it started its move next to it. A situation says how a unit moved in one of
three ways, and this module turns each into the path the rulings use:

- ``path``: the hexes moved through; checked step by step (``movement.check_path``);
- ``moved`` and ``moved_from``: the path is every legal way of exactly ``moved`` steps from
  ``moved_from`` to the unit's hex. When there is one, it is the path; when there are several, the
  ruling takes the one most favourable to the unit (one after which it may battle, then the fewest
  hexes counted, then one that did not end on a hex that stopped it) and says which it took;
- ``moved`` alone: the same, from any start.

When no legal way exists (a ``moved`` greater than the unit may move this turn), the hexes are
counted as given, with no path, and the battle says it moved too far. Pure: no I/O; the search
is bounded by the unit's allowance and charged to the work budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from adjudicator.engine.budget import charge
from adjudicator.engine.core_ids import MOVEMENT
from adjudicator.engine.geometry import Hex, distance
from adjudicator.engine.movement import Mover, PathCheck, check_path, move_profile, mover, unit_field, walk_path
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import hex_ref, say, unit_ref

How = Literal["unmoved", "given", "only", "assumed", "unknown"]


@dataclass(frozen=True)
class MoveMade:
    """The move a unit made this turn, as far as the situation tells.

    ``check`` is the path the rulings use (given, the only legal one, or the most favourable;
    None when the unit did not move or the path cannot be known); ``battle_starts`` the start hexes
    of every legal way after which it may battle (what take ground asks: did it start next to the
    hex?); ``note`` says how the path was found when the situation did not give it."""

    how: How
    check: PathCheck | None = None
    ways: int = 0
    start_known: bool = False
    battle_starts: frozenset[Hex] = frozenset()
    note: Reason | None = None

    @property
    def path(self) -> tuple[Hex, ...]:
        return self.check.path if self.check is not None else ()

    def started_next_to(self, unit: Unit, h: Hex) -> tuple[bool | None, Hex | None]:
        """Whether the unit started its move this turn next to ``h`` (jungle: armor takes ground
        into it only then), and the start the answer rests on: True with no start when it did not
        move (it stands next to the hex it close-assaulted); for a path found among several, True
        when any way after which it may battle started next to ``h`` (the most favourable reading);
        None when the start cannot be known."""
        if self.how == "unmoved":
            return True, None
        if self.how in ("given", "only"):
            start = self.path[0]
            return distance(start, h) <= 1, start
        if self.how == "assumed":
            if distance(self.path[0], h) <= 1:
                return True, self.path[0]
            near = sorted((s for s in self.battle_starts if distance(s, h) <= 1), key=lambda s: (s.row, s.col))
            return (True, near[0]) if near else (False, self.path[0])
        if unit.moved_from is not None:
            return distance(unit.moved_from, h) <= 1, unit.moved_from
        return None, None


def move_made(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None = None) -> MoveMade:
    """The unit's move this turn under ``card`` (memoised per situation): see the module docstring."""
    key = ("move_made", unit.id, card)
    found = situation.memo.get(key)
    if not isinstance(found, MoveMade):
        found = situation.memo[key] = _move_made(situation, rulebook, unit, card)
    return found


def _move_made(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None) -> MoveMade:
    if unit.moved == 0:
        return MoveMade("unmoved")
    given = check_path(situation, rulebook, unit, card)
    if given is not None:
        return MoveMade("given", given, 1, True, frozenset({given.path[0]}) if given.may_battle else frozenset())
    if not rulebook.unit(unit.profile).rules_documented:
        return MoveMade("unknown")  # no source gives how it moves: the battle says so
    start = unit.moved_from
    where = unit_field(situation, unit, "moved_from" if start is not None else "moved")
    base = mover(situation, rulebook, unit, card, start or unit.hex, where)
    if unit.moved > _most_hexes(rulebook, base):  # more than it could ever move: counted as given
        return MoveMade("unknown", start_known=start is not None)
    ways = _Ways(situation, rulebook, unit, card, base)
    for path in ways.paths(unit.moved, start):
        ways.judge(path)
    who = unit_ref(situation, rulebook, unit)
    if ways.best is None:  # the unit moved more than it could have: counted as given
        return MoveMade("unknown", start_known=start is not None, note=say(
            "move.made_no_way", MOVEMENT, unit=who, n=unit.moved, hex=hex_ref(situation.board, unit.hex),
            why=ways.failure or "no hex is that far"))
    best = ways.best
    steps = tuple(hex_ref(situation.board, h) for h in best.path)
    if ways.count == 1:
        note = say("move.made_only_way", MOVEMENT, unit=who, n=unit.moved, frm=steps[0], path=steps)
        how: How = "only"
    elif start is not None:
        note = say("move.made_assumed", MOVEMENT, unit=who, n=unit.moved, frm=steps[0], ways=ways.count, path=steps)
        how = "assumed"
    else:
        note = say("move.made_assumed_start", MOVEMENT, unit=who, n=unit.moved, ways=ways.count, path=steps)
        how = "assumed"
    return MoveMade(how, best, ways.count, start is not None, frozenset(ways.battle_starts), note)


def _most_hexes(rulebook: Rulebook, base: Mover) -> int:
    """The most steps the unit could move this turn from anywhere: its allowance, with the
    largest road bonus any road gives (or its own) as if the whole move were on road."""
    p = base.p
    own = rulebook.unit(base.unit.profile).road_move_bonus
    bonus = own if own is not None else max(
        (rules.road_move_bonus for i in rulebook.ids_of_kind("terrain", "obstacle")
         if (rules := rulebook.feature(i)) is not None), default=0)
    total = p.allowance + (bonus if not rulebook.unit(base.unit.profile).moves_only_on else 0)
    return min(total, p.road_max) if p.road_max is not None and bonus else total


class _Ways:
    """Every legal way of a given number of steps to the unit's hex, ranked as they are found."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None, base: Mover) -> None:
        self.s, self.rb, self.unit, self.card, self.base = situation, rulebook, unit, card, base
        self.movers: dict[Hex, Mover] = {base.start: base}
        self.best: PathCheck | None = None
        self.count = 0
        self.battle_starts: set[Hex] = set()
        self.failure: str | None = None

    def mover_from(self, start: Hex) -> Mover:
        found = self.movers.get(start)
        if found is None:
            profile = move_profile(self.s, self.rb, self.unit, self.card, start=start)
            found = self.movers[start] = self.base.from_start(profile, start)
        return found

    def paths(self, steps: int, start: Hex | None) -> list[tuple[Hex, ...]]:
        """The simple paths of ``steps`` steps that end on the unit's hex (from ``start`` when
        given) whose every step may be entered in some position and whose hexes before the last
        do not stop the unit: walked back from the end, so only hexes near it are visited."""
        end = self.unit.hex
        board = self.s.board
        m = self.base
        found: list[tuple[Hex, ...]] = []

        def back(path: list[Hex], left: int) -> None:
            head = path[-1]
            if left == 0:
                if start is None or head == start:
                    found.append(tuple(reversed(path)))
                return
            charge(6)  # six neighbours examined (engine.budget)
            for prev in board.neighbours(head):
                if prev in path or (start is not None and distance(prev, start) > left - 1):
                    continue
                if m.block(prev, head, True) is not None:  # barred even as a first step: barred anywhere
                    continue
                if head != end and m.stops(prev, head, False) is not None:
                    continue  # the unit would have had to stop on ``head``
                path.append(prev)
                back(path, left - 1)
                path.pop()

        back([end], steps)
        return found

    def judge(self, path: tuple[Hex, ...]) -> None:
        """Walk ``path`` from its start (its own road bonus) and keep it if it is the most
        favourable so far: it may battle after it, counts the fewest hexes, did not have to stop."""
        charge(len(path))
        walked = walk_path(self.mover_from(path[0]), path)
        if isinstance(walked, str):
            self.failure = self.failure or walked
            return
        self.count += 1
        if walked.may_battle:
            self.battle_starts.add(path[0])
        if self.best is None or _rank(walked) < _rank(self.best):
            self.best = walked


def _rank(check: PathCheck) -> tuple[bool, int, bool]:
    """Most favourable first: the unit may battle, fewest hexes counted, no stop on its last hex."""
    return (not check.may_battle, check.hexes_moved, check.stop is not None)
