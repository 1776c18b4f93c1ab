"""May this unit enter this hex? One answer for every purpose that puts a unit on a hex.

A unit enters a hex when it moves (core ``movement``), when it retreats (core ``retreat``) and
when it takes the ground a close assault emptied (core ``take_ground``, then ``armor_overrun``).
The same terrain fields decide all three; where the rules treat the purposes differently, the
difference is one explicit branch below, naming the entry that makes it:

- **other units**: no move or retreat enters a hex another unit holds (``movement``, ``retreat``);
  taking ground enters the very hex its target has just left (``take_ground``), so the target
  does not count. A path already moved is checked against the terrain only (``movement``: the
  units may have moved onto it since): ``other_units=False``.
- **off the board**: only a retreat is pushed toward an edge (``retreat``: a move not made).
- **retreating onto** a hex with ``no_retreat_onto`` (``ocean``): retreats only.
- **start next to it** (``enter_only_from_adjacent``, ``hedgerow``): moves only. A retreat is not
  slowed by terrain (``retreat``: terrain has no effect on a retreat move), and a unit taking
  ground always stands next to the hex it takes (``hedgerow``: taking ground is allowed).
- **beach climbs** (``beach_climb_forbidden``, ``cliff``) and a unit's own climbs
  (``no_move_between``: a Half-Track between a cliff or sea bluff and a beach, ocean or
  shoreline): moves and take ground, not retreats (``cliff``: "the beach climb limits do not
  apply to retreats").
- **take ground only**: ``no_take_ground``, ``take_ground_requires_started_adjacent`` (where the
  unit started its move: ``engine.moved``), ``take_ground_limits``, and a unit that had to stop on
  its hex this turn moving no further (``must_stop`` or ``must_stop_climbing`` on the step that
  ended its move, unless ``take_ground_after_stop``).
- **bridges** (``is_bridge``, ``bridge``: "no movement restrictions"): a bridge carries the unit
  over the terrain it spans, so that terrain's impassability, must-stop and entry risk do not
  apply on the bridged hex; an obstacle's own rules (a railroad bridge's stop, wire) still do.
- **terrain lifted**: a card with ``ignores_terrain_movement`` (``behind_enemy_lines``) lifts the
  terrain entry limits of the moves it orders, never impassable hexes, rails or other units.

Everything else binds every purpose alike: a hex the scenario declares impassable, terrain
``impassable`` to the unit's class (a bridge makes water passable; a marker's ``stands_on`` lets
its unit be there: ``unit_in_boat``), rails only (``moves_only_on``: ``train``), mountain entry
and exit (``enter_only_from_plateau``, ``leave_only_to_plateau``) and pier entry
(``no_entry_from``).

Pure: no I/O. ``EntryCheck`` memoises per hex and answers a step between open hexes at once, so
a move's search asks it cheaply."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from adjudicator.engine.core_ids import BEACH, MOVEMENT, RETREAT
from adjudicator.engine.geometry import Hex, distance
from adjudicator.engine.lookups import counts_as, hex_features
from adjudicator.engine.reasons import HexRef, Reason, UnitRef
from adjudicator.engine.rulebook import HexRules, Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, entry_refs, hex_ref, say, unit_ref

if TYPE_CHECKING:  # engine.moved builds on engine.movement, which asks this module
    from adjudicator.engine.moved import MoveMade

Purpose = Literal["move", "retreat", "take_ground"]
MOVE: Purpose = "move"
RETREAT_STEP: Purpose = "retreat"
TAKE_GROUND_STEP: Purpose = "take_ground"
PURPOSES: tuple[Purpose, ...] = (MOVE, RETREAT_STEP, TAKE_GROUND_STEP)


class EntryCheck:
    """The entry rules for one unit and one purpose over one situation, memoised per hex.

    ``refusal(frm, to)`` is the first reason the unit may not step from ``frm`` onto ``to`` (None:
    it may); ``refusals`` lists every such reason (take ground says them all); ``allowances``
    names the limits that were checked and met (take ground: "it did not move, so it may")."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit: Unit, purpose: Purpose, *,
                 other_units: bool = True, terrain_lifted_by: str | None = None,
                 move: MoveMade | None = None) -> None:
        if purpose not in PURPOSES:
            raise ValueError(f"unknown entry purpose {purpose!r}")
        self.s, self.rb, self.unit, self.purpose = situation, rulebook, unit, purpose
        self.rules = rulebook.unit(unit.profile)
        self.unit_class = self.rules.unit_class
        self.other_units = other_units
        self.terrain_lifted_by = terrain_lifted_by
        self.stands_on = frozenset(t for b in unit.badges if (badge := rulebook.badge(b)) for t in badge.stands_on)
        self._features: dict[Hex, tuple[tuple[str, HexRules], ...]] = {}
        self._beach: dict[Hex, bool] = {}
        # the hexes where an entry rule may apply: any terrain, obstacle or impassable mark
        self._closed = closed_hexes(situation)
        self._rails = bool(self.rules.moves_only_on)
        self._units = other_units and purpose != TAKE_GROUND_STEP
        self._unit_ref: UnitRef | None = None
        self.move = move  # take ground: how the unit moved this turn (engine.moved), when known

    # -- what a hex holds (memoised: the movement search asks again and again) -----------------
    def features(self, h: Hex) -> tuple[tuple[str, HexRules], ...]:
        found = self._features.get(h)
        if found is None:
            found = self._features[h] = hex_features(self.s, self.rb, h)
        return found

    def is_beach(self, h: Hex) -> bool:
        found = self._beach.get(h)
        if found is None:
            found = self._beach[h] = counts_as(self.s, self.rb, h, (BEACH,))
        return found

    def hex(self, h: Hex) -> HexRef:
        return hex_ref(self.s.board, h)

    def spanned(self, h: Hex, feature: str) -> bool:
        """``feature`` is the terrain a bridge on ``h`` carries units over (``bridge``: no
        movement restrictions while it stands): its movement limits do not apply on that hex."""
        features = self.features(h)
        return (self.s.hex_state(h).terrain == feature and any(rules.is_bridge for _, rules in features)
                and not any(rules.is_bridge for f, rules in features if f == feature))

    @property
    def who(self) -> UnitRef:
        if self._unit_ref is None:
            self._unit_ref = unit_ref(self.s, self.rb, self.unit)
        return self._unit_ref

    # -- the answers -------------------------------------------------------------------------
    def refusal(self, frm: Hex, to: Hex, first_step: bool = True) -> Reason | None:
        """Why the unit may not step from ``frm`` onto ``to``, or None. ``first_step``: the step
        is the first of its move (``enter_only_from_adjacent``)."""
        if not self._rails and to not in self._closed and frm not in self._closed and self.s.board.contains(to):
            # open ground (no terrain, obstacle or impassable mark on either hex): only a unit bars it
            occupant = self.s.unit_at(to) if self._units else None
            if occupant is None or occupant.id == self.unit.id:
                return None
        return next(self._refusals(frm, to, first_step), None)

    def refusals(self, frm: Hex, to: Hex, first_step: bool = True) -> tuple[Reason, ...]:
        """Every reason the unit may not step from ``frm`` onto ``to`` (empty: it may)."""
        return tuple(self._refusals(frm, to, first_step))

    def allowances(self, frm: Hex, to: Hex) -> tuple[Reason, ...]:
        """Limits of the two hexes that bind this purpose and were met (take ground only: the
        player sees why a hex that could have barred it does not)."""
        if self.purpose != TAKE_GROUND_STEP:
            return ()
        out: list[Reason] = []
        cls = self.unit_class
        for feature, rules in self.features(frm):
            if (cls in rules.must_stop and self.unit.moved > 0 and cls in rules.take_ground_after_stop
                    and not self.spanned(frm, feature)):
                out.append(say("entry.stopped_may_take_ground", feature, fact="take_ground_after_stop",
                               unit=self.who, terrain=entry_ref(self.rb, feature)))
        for feature, rules in self.features(to):
            if cls in rules.take_ground_requires_started_adjacent:
                near, start = self.started_next_to(to)
                if near:
                    out.append(self._started_next_to(feature, to, start))
        return tuple(out)

    def started_next_to(self, h: Hex) -> tuple[bool | None, Hex | None]:
        """Whether the unit started this turn's move next to ``h`` (``engine.moved``; a unit that
        did not move stands next to the hex it close-assaulted), and the start it rests on."""
        if self.unit.moved == 0:
            return True, None
        if self.move is None:
            return (distance(self.unit.moved_from, h) <= 1 if self.unit.moved_from is not None else None,
                    self.unit.moved_from)
        return self.move.started_next_to(self.unit, h)

    def _started_next_to(self, feature: str, to: Hex, start: Hex | None) -> Reason:
        """Why the unit meets ``take_ground_requires_started_adjacent`` (jungle)."""
        terrain, hexref = entry_ref(self.rb, feature), self.hex(to)
        fact = "take_ground_requires_started_adjacent"
        if start is None:
            return say("entry.unmoved_may_take_ground", feature, fact=fact, unit=self.who, terrain=terrain, hex=hexref)
        if self.move is not None and self.move.how == "assumed" and start not in self.move.path[:1]:
            return say("entry.started_next_to_assumed", feature, fact=fact, unit=self.who, terrain=terrain,
                       hex=hexref, start=self.hex(start))
        return say("entry.started_next_to", feature, fact=fact, unit=self.who, terrain=terrain, hex=hexref,
                   start=self.hex(start))

    def _refusals(self, frm: Hex, to: Hex, first_step: bool) -> Iterator[Reason]:
        s, rb, cls, purpose = self.s, self.rb, self.unit_class, self.purpose
        if not s.board.contains(to):
            # core ``retreat``: only a retreat is pushed toward an edge; the step is a move not made
            yield say("entry.off_board", RETREAT, frm=self.hex(frm))
            return
        if self._units:
            # core ``take_ground``: the unit enters the hex its target has just emptied
            occupant = s.unit_at(to)
            if occupant is not None and occupant.id != self.unit.id:
                yield say("entry.occupied", RETREAT if purpose == RETREAT_STEP else MOVEMENT, hex=self.hex(to),
                          occupant=unit_ref(s, rb, occupant))
                return
        if s.hex_state(to).impassable:
            yield say("entry.scenario_impassable", MOVEMENT, hex=self.hex(to))
        to_features = self.features(to)
        bridged = any(rules.is_bridge for _, rules in to_features)
        for feature, rules in to_features:
            if cls in rules.impassable and not bridged and feature not in self.stands_on:
                yield say("entry.impassable", feature, fact="impassable", terrain=entry_ref(rb, feature),
                          hex=self.hex(to), unit_class=cls)
        if self.rules.moves_only_on and not counts_as(s, rb, to, self.rules.moves_only_on):
            yield say("entry.moves_only_on", self.unit.profile, fact="moves_only_on", unit=self.who,
                      terrains=entry_refs(rb, self.rules.moves_only_on), hex=self.hex(to))
        if purpose == RETREAT_STEP:  # ``ocean``: no unit may retreat onto it
            for feature, rules in to_features:
                if rules.no_retreat_onto:
                    yield say("entry.no_retreat_onto", feature, fact="no_retreat_onto",
                              terrain=entry_ref(rb, feature), hex=self.hex(to))
        if self.terrain_lifted_by is not None and purpose == MOVE:
            return  # ``behind_enemy_lines``: terrain movement restrictions do not apply to this move
        yield from self._terrain_limits(frm, to, first_step)
        if purpose == TAKE_GROUND_STEP:
            yield from self._take_ground_limits(frm, to)

    def _terrain_limits(self, frm: Hex, to: Hex, first_step: bool) -> Iterator[Reason]:
        """The terrain's limits on entering ``to`` from ``frm`` and on leaving ``frm``."""
        s, rb, cls, purpose = self.s, self.rb, self.unit_class, self.purpose
        # ``cliff``: the beach climb limits do not apply to retreats
        beach_limits = purpose != RETREAT_STEP
        for feature, rules in self.features(to):
            terrain = entry_ref(rb, feature)
            # ``hedgerow``: only a move can start away from it; take ground starts next to it
            if purpose == MOVE and rules.enter_only_from_adjacent and not first_step:
                yield say("entry.adjacent_only", feature, fact="enter_only_from_adjacent", terrain=terrain,
                          hex=self.hex(to))
            if rules.enter_only_from_plateau and not counts_as(s, rb, frm, rules.enter_only_from_plateau):
                yield say("entry.from_plateau_only", feature, fact="enter_only_from_plateau", terrain=terrain,
                          hex=self.hex(to), groups=entry_refs(rb, rules.enter_only_from_plateau), frm=self.hex(frm))
            if rules.no_entry_from and counts_as(s, rb, frm, rules.no_entry_from):
                yield say("entry.no_entry_from", feature, fact="no_entry_from", terrain=terrain, hex=self.hex(to),
                          terrains=entry_refs(rb, rules.no_entry_from))
            if beach_limits and cls in rules.beach_climb_forbidden and self.is_beach(frm):
                yield say("entry.beach_climb_up", feature, fact="beach_climb_forbidden", unit=self.who,
                          terrain=terrain, hex=self.hex(to))
        if beach_limits:
            yield from self._unit_climbs(frm, to)
        for feature, rules in self.features(frm):
            terrain = entry_ref(rb, feature)
            if beach_limits and cls in rules.beach_climb_forbidden and self.is_beach(to):
                yield say("entry.beach_climb_down", feature, fact="beach_climb_forbidden", unit=self.who,
                          terrain=terrain, hex=self.hex(to))
            if rules.leave_only_to_plateau and not counts_as(s, rb, to, rules.leave_only_to_plateau):
                yield say("entry.leave_plateau_only", feature, fact="leave_only_to_plateau", terrain=terrain,
                          frm=self.hex(frm), groups=entry_refs(rb, rules.leave_only_to_plateau), hex=self.hex(to))

    def _unit_climbs(self, frm: Hex, to: Hex) -> Iterator[Reason]:
        """The unit's own ``no_move_between`` (Half-Tracks: not up or down between a cliff or sea
        bluff and a beach, ocean or shoreline), either way."""
        s, rb = self.s, self.rb
        for pair in self.rules.no_move_between:
            for a, b in ((frm, to), (to, frm)):
                if counts_as(s, rb, a, pair.terrains) and counts_as(s, rb, b, pair.and_terrains):
                    yield say("entry.no_move_between", self.unit.profile, fact="no_move_between", unit=self.who,
                              frm=self.hex(frm), hex=self.hex(to), terrains=entry_refs(rb, pair.terrains),
                              others=entry_refs(rb, pair.and_terrains))
                    return

    def _take_ground_limits(self, frm: Hex, to: Hex) -> Iterator[Reason]:
        """What only taking ground must respect (core ``take_ground`` and the terrain entries)."""
        s, rb, cls, moved = self.s, self.rb, self.unit_class, self.unit.moved
        for feature, rules in self.features(frm):
            # a unit that had to stop where it stands may move no further (``must_stop``), unless
            # the terrain still lets it take ground (``take_ground_after_stop``: fordable streams)
            # or a bridge carried it over that terrain (``bridge``)
            if (cls in rules.must_stop and moved > 0 and cls not in rules.take_ground_after_stop
                    and not self.spanned(frm, feature)):
                yield say("entry.stopped_no_take_ground", feature, fact="must_stop", unit=self.who,
                          terrain=entry_ref(rb, feature))
        stop = self.move.check.stop if self.move is not None and self.move.check is not None else None
        if stop is not None and stop.fact == "must_stop_climbing":
            # ``erg``: the unit moved up onto its hex this turn, had to stop and may move no further
            yield say("entry.climbed_no_take_ground", stop.rule, fact="must_stop_climbing", unit=self.who,
                      terrain=entry_ref(rb, stop.rule))
        for feature, rules in self.features(to):
            terrain = entry_ref(rb, feature)
            if cls in rules.no_take_ground:
                yield say("entry.no_take_ground", feature, fact="no_take_ground", unit=self.who, terrain=terrain,
                          hex=self.hex(to))
            if cls in rules.take_ground_requires_started_adjacent:
                near, start = self.started_next_to(to)
                fact = "take_ground_requires_started_adjacent"
                if near is None:
                    yield say("entry.take_ground_start_unknown", feature, fact=fact, unit=self.who, terrain=terrain,
                              hex=self.hex(to), moved=moved)
                elif not near and self.move is not None and self.move.how == "assumed":
                    yield say("entry.take_ground_no_way_next_to", feature, fact=fact, unit=self.who, terrain=terrain,
                              hex=self.hex(to), ways=self.move.ways)
                elif not near:
                    yield say("entry.take_ground_started_away", feature, fact=fact, unit=self.who, terrain=terrain,
                              hex=self.hex(to), start=self.hex(start) if start is not None else self.hex(frm))
            for limit in rules.take_ground_limits:
                if cls in limit.unit_classes and counts_as(s, rb, frm, limit.from_terrains):
                    yield say("entry.take_ground_from", feature, fact="take_ground_limits", unit=self.who,
                              terrain=terrain, terrains=entry_refs(rb, limit.from_terrains))


def closed_hexes(situation: Situation) -> frozenset[Hex]:
    """The hexes of a situation where an entry rule may apply (terrain, an obstacle or an
    impassable mark), worked out once per situation."""
    found = situation.memo.get("closed_hexes")
    if not isinstance(found, frozenset):
        found = situation.memo["closed_hexes"] = frozenset(
            h for h, state in situation.hexes.items() if state.impassable or state.features())
    return found


def may_enter(situation: Situation, rulebook: Rulebook, unit: Unit, frm: Hex, to: Hex, purpose: Purpose, *,
              first_step: bool = True) -> Reason | None:
    """Why ``unit`` may not step from ``frm`` onto ``to`` for ``purpose`` (``move``, ``retreat``,
    ``take_ground``), or None when it may. For many questions about one unit, build one
    ``EntryCheck`` and ask it (it memoises)."""
    return EntryCheck(situation, rulebook, unit, purpose).refusal(frm, to, first_step)
