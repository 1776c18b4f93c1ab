"""Where may a unit move, by which path, and may it still battle? (core ``movement``; every unit,
terrain, card and special rule entry's movement fields.)

The search is a Dijkstra over (hex, whole-move-on-road so far, cap, stopped) states, so each end
hex is reached with the fewest hexes moved for every way of getting there that matters to the
rules: a path wholly on road earns the road bonus (``road_move_bonus`` of the road, or the unit's
own, Supply Trucks 2), a beach caps the whole move (``max_move_onto``), must-stop hexes end the
move. Of the paths to an end hex the one reported keeps the battle if any does, then has the
fewest hexes moved, then the fewest entry hazards (adjudicator/API.md ``/move``).

Step costs: 1, or ``climb_cost`` moving up onto a steep hill from lower ground, or
``beach_climb_cost`` between a cliff / sea bluff and a beach. Readings where the sources leave
room (stated on the rule pages too):

- the road bonus hex is on the same terms as the unit's normal move: a unit that may move and
  battle may battle after using it (infantry: 2 on road and battle), a unit that may not battle
  after moving gains no battle (``road``);
- a beach caps a move that *enters* one at 2 hexes in all (``beach``, game help summary);
- Behind Enemy Lines lifts terrain *movement* restrictions (stops, climb costs, entry limits) but
  not impassable hexes, other units, or the terrain *battle* restrictions (``behind_enemy_lines``);
- a unit's ``path`` is checked against the terrain, not against other units, which may have moved
  onto its path after it (core ``movement``).

Pure: no I/O. ``move_json`` builds the ``/api/v1/move`` answer so the browser (Pyodide) and the
server give the same one."""

from __future__ import annotations

import copy
import heapq
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.engine.budget import charge
from adjudicator.engine.core_ids import MOVEMENT
from adjudicator.engine.entry import MOVE, EntryCheck
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Hex, distance, hex_json
from adjudicator.engine.lookups import card_orders, counts_as, nations_in_effect, special_rules_in_effect
from adjudicator.engine.orders import OrderTerms, acting_refusals
from adjudicator.engine.reasons import EntryRef, HexRef, Reason, UnitRef
from adjudicator.engine.rulebook import CardRules, Rulebook, UnitClass
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, hex_ref, plural, say, say_params, unit_ref

INF = 99


def limit_fact(rulebook: Rulebook, rule: str, field_name: str) -> str:
    """The field of ``rule`` that sets a move limit: the unit's or the card's own ``field_name``
    (``max_move``, ``move_and_battle``), a special rule's ``move_limits``, a nation's
    ``close_assault_move_and_battle``."""
    kind = rulebook.kinds.get(rule)
    if kind == "special_rule":
        return "move_limits"
    if kind == "nation":
        return "close_assault_move_and_battle"
    return field_name


@dataclass(frozen=True)
class MoveProfile:
    """How far this unit may move this turn under the card and rules given, each limit with the
    entry it comes from."""

    unit_class: UnitClass
    allowance: int
    allowance_rule: str
    battle_limit: int  # most hexes it may move and battle; -1: it may not battle after this move
    battle_rule: str
    road_bonus: int
    road_bonus_rule: str | None
    road_max: int | None
    road_max_rule: str | None
    ignores_terrain: str | None  # the card that lifts terrain movement restrictions
    close_assault_limit: int | None
    close_assault_rule: str | None
    why_not: tuple[Reason, ...] = ()
    notes: tuple[Reason, ...] = ()

    def allowance_for(self, road_only: bool) -> int:
        if not road_only or not self.road_bonus:
            return self.allowance
        total = self.allowance + self.road_bonus
        return min(total, self.road_max) if self.road_max is not None else total

    def battle_limit_for(self, road_only: bool) -> int:
        if not road_only or not self.road_bonus or self.battle_limit <= 0:
            return self.battle_limit
        total = self.battle_limit + self.road_bonus
        return min(total, self.road_max) if self.road_max is not None else total


@dataclass(frozen=True)
class MoveOption:
    end: Hex
    path: tuple[Hex, ...]
    hexes_moved: int
    may_battle: bool
    battle_dice_change: int
    why: tuple[Reason, ...]
    instead: tuple[Reason, ...] = ()
    hazards: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class MoveRuling:
    unit: Unit
    profile: MoveProfile
    reachable: tuple[MoveOption, ...]
    unreachable: tuple[tuple[Hex, tuple[Reason, ...]], ...]
    why_not: tuple[Reason, ...]
    notes: tuple[Reason, ...]
    card: str | None = None
    combat_card: str | None = None
    after_battle: bool = False


@dataclass
class _Limits:
    """The allowance and move-and-battle limit being worked out, each with the entry that sets it."""

    allowance: int
    allowance_rule: str
    battle: int
    battle_rule: str
    ignores: str | None = None
    why_not: list[Reason] = field(default_factory=list)
    notes: list[Reason] = field(default_factory=list)


def move_profile(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None = None,
                 after_battle: bool = False, start: Hex | None = None,
                 order: OrderTerms | None = None) -> MoveProfile:
    """The unit's allowance and move-and-battle limit: its entry, raised by a card that orders it,
    lowered by special rules (Winter Weather, Blitz), with the road bonus and its cap. A unit the
    card could not order, or that the situation says was not ordered, may not move (engine
    ``orders``); ``order`` says how the card was played."""
    rules = rulebook.unit(unit.profile)
    who = unit_ref(situation, rulebook, unit)
    limits = _Limits(rules.max_move, unit.profile, rules.move_and_battle if rules.battles else -1, unit.profile)
    if not rules.rules_documented:
        limits.why_not.append(say("move.undocumented", unit.profile, fact="rules_documented", unit=who))
    if rules.max_move <= 0:
        limits.why_not.append(say("move.never_moves", unit.profile, fact="max_move", unit=who))
    card_rules = rulebook.card(card)
    refusals, turn_notes = acting_refusals(situation, rulebook, unit, order if order is not None else (
        OrderTerms(card) if card is not None and card_rules is not None else None), "move")
    limits.why_not.extend(refusals)
    limits.notes.extend(turn_notes)
    if card is not None and card_rules is not None:
        _card_limits(rulebook, unit, who, card, card_rules, after_battle, limits)
    elif after_battle:
        limits.why_not.append(say("move.once_a_turn", MOVEMENT))
    road_max, road_max_rule = _special_rule_limits(situation, rulebook, unit, limits)
    close_limit, close_rule = _close_assault_limit(situation, rulebook, unit, limits.battle)
    road_bonus, road_rule = _road_bonus(situation, rulebook, unit, start or unit.hex)
    if limits.ignores is None and rules.moves_only_on:
        road_bonus, road_rule = 0, None  # rails only: a train never follows a road
    return MoveProfile(rules.unit_class, limits.allowance, limits.allowance_rule, limits.battle, limits.battle_rule,
                       road_bonus, road_rule, road_max, road_max_rule, limits.ignores, close_limit, close_rule,
                       tuple(limits.why_not), tuple(limits.notes))


def _card_limits(rulebook: Rulebook, unit: Unit, who: UnitRef, card: str, card_rules: CardRules, after_battle: bool,
                 limits: _Limits) -> None:
    """What the command card that orders the unit does to its move (and its move after battling).
    Whether the card may order the unit at all is ``orders.acting_refusals``'s question; its
    numbers are for the units it orders by kind, not the unit of your choice it falls back to."""
    rules = rulebook.unit(unit.profile)
    named = entry_ref(rulebook, card)
    orders = card_orders(rulebook, card_rules, unit)
    if not card_rules.ordered_units_move and not after_battle:
        limits.why_not.append(say("move.card_no_move", card, fact="ordered_units_move", card=named))
    if orders:
        if card_rules.max_move is not None and card_rules.max_move > limits.allowance:
            limits.allowance, limits.allowance_rule = card_rules.max_move, card
        if card_rules.move_and_battle is not None and rules.battles and card_rules.move_and_battle > limits.battle:
            limits.battle, limits.battle_rule = card_rules.move_and_battle, card
        if not card_rules.ordered_units_battle:
            limits.battle, limits.battle_rule = -1, card
        if card_rules.ignores_terrain_movement:
            limits.ignores = card
            limits.notes.append(say("move.card_lifts_terrain", card, fact="ignores_terrain_movement", card=named))
    if not after_battle:
        return
    if not orders:
        limits.why_not.append(say("move.card_not_ordered_after_battle", card, card=named, unit=who))
    elif card_rules.move_after_battle is None:
        limits.why_not.append(say("move.card_no_move_after_battle", card, card=named))
    else:
        limits.allowance, limits.allowance_rule = card_rules.move_after_battle, card
        limits.battle, limits.battle_rule = -1, card
        limits.notes.append(say("move.card_move_after_battle", card, fact="move_after_battle", card=named,
                                n=card_rules.move_after_battle))


def _special_rule_limits(situation: Situation, rulebook: Rulebook, unit: Unit,
                         limits: _Limits) -> tuple[int | None, str | None]:
    """Special rules in effect that lower the limits (``move_limits``); the road cap they set."""
    cls = rulebook.unit(unit.profile).unit_class
    road_max: int | None = None
    road_max_rule: str | None = None
    for rule_id, special in special_rules_in_effect(situation, rulebook):
        for limit in special.move_limits:
            if cls not in limit.unit_classes or (limit.sides and unit.side not in limit.sides):
                continue
            if limit.max_move is not None and limit.max_move < limits.allowance:
                limits.allowance, limits.allowance_rule = limit.max_move, rule_id
            if limit.move_and_battle is not None and 0 <= limit.move_and_battle < limits.battle:
                limits.battle, limits.battle_rule = limit.move_and_battle, rule_id
            if limit.road_max_move is not None:
                road_max, road_max_rule = limit.road_max_move, rule_id
    return road_max, road_max_rule


def _close_assault_limit(situation: Situation, rulebook: Rulebook, unit: Unit,
                         battle: int) -> tuple[int | None, str | None]:
    """A nation's longer move into a close assault (Banzai: ``close_assault_move_and_battle``)."""
    rules = rulebook.unit(unit.profile)
    limit: int | None = None
    rule: str | None = None
    if rules.battles:
        for entry_id, nation in nations_in_effect(situation, rulebook, unit)[0]:
            value, classes = nation.close_assault_move_and_battle, nation.close_assault_unit_classes
            if value is not None and value > battle and (not classes or rules.unit_class in classes):
                limit, rule = value, entry_id
    return limit, rule


def _road_bonus(situation: Situation, rulebook: Rulebook, unit: Unit, start: Hex) -> tuple[int, str | None]:
    """The unit's own road bonus (Supply Trucks), else the road's it starts on (a road over a hill is a road too)."""
    own = rulebook.unit(unit.profile).road_move_bonus
    if own is not None:
        return own, unit.profile
    bonus, rule = 0, None
    for entry_id in situation.hex_state(start).features():
        entry = rulebook.hex_rules(entry_id)
        if entry.road_move_bonus > bonus:
            bonus, rule = entry.road_move_bonus, entry_id
    return bonus, rule


class Mover:
    """The step rules of one unit's move over one situation (memoised per hex)."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit: Unit, profile: MoveProfile,
                 start: Hex, check_units: bool = True) -> None:
        self.s, self.rb, self.unit, self.p = situation, rulebook, unit, profile
        self.rules = rulebook.unit(unit.profile)
        self.cls = profile.unit_class
        self.start = start
        self.check_units = check_units
        self.who = unit_ref(situation, rulebook, unit)
        self.entry = EntryCheck(situation, rulebook, unit, MOVE, other_units=check_units,
                                terrain_lifted_by=profile.ignores_terrain)
        self.features = self.entry.features
        self.block = self.entry.refusal  # why the unit may not step from a hex onto another (engine.entry)
        self._elev: dict[Hex, int] = {}
        self._road: dict[Hex, bool] = {}
        self._hazards: dict[Hex, tuple[Reason, ...]] = {}

    def terrain(self, feature: str, h: Hex | None = None) -> EntryRef | str:
        return entry_ref(self.rb, feature, hex_ref(self.s.board, h) if h is not None else None)

    def from_start(self, profile: MoveProfile, start: Hex) -> Mover:
        """The same step rules for a move that started on ``start`` under ``profile`` (its road
        bonus depends on where it starts): the hex memos are shared, they do not depend on either."""
        other = copy.copy(self)
        other.p, other.start = profile, start
        return other

    def elevation(self, h: Hex) -> int:
        if h not in self._elev:
            self._elev[h] = max((r.elevation for _, r in self.features(h)), default=0)
        return self._elev[h]

    def on_road(self, h: Hex) -> bool:
        if h not in self._road:
            self._road[h] = any(r.road_move_bonus > 0 for _, r in self.features(h))
        return self._road[h]

    def cost(self, frm: Hex, to: Hex) -> tuple[int, Reason | None]:
        """Hexes this step counts: 1, or a climb cost (steep hill; cliff or sea bluff to/from a beach)."""
        if self.p.ignores_terrain:
            return 1, None
        best, why = 1, None
        up = self.elevation(to) > self.elevation(frm)
        for feature, rules in self.features(to):
            if up and rules.climb_cost is not None and rules.climb_cost > best:
                best, why = rules.climb_cost, say("move.climb", feature, fact="climb_cost",
                                                  terrain=self.terrain(feature, to), n=rules.climb_cost)
            if rules.beach_climb_cost is not None and rules.beach_climb_cost > best and self.entry.is_beach(frm):
                best, why = rules.beach_climb_cost, say("move.beach_climb_up", feature, fact="beach_climb_cost",
                                                        terrain=self.terrain(feature, to), n=rules.beach_climb_cost)
        for feature, rules in self.features(frm):
            if rules.beach_climb_cost is not None and rules.beach_climb_cost > best and self.entry.is_beach(to):
                best, why = rules.beach_climb_cost, say("move.beach_climb_down", feature, fact="beach_climb_cost",
                                                        terrain=self.terrain(feature, frm), n=rules.beach_climb_cost)
        return best, why

    def stops(self, frm: Hex, to: Hex, first: bool) -> Reason | None:
        """Why the unit must stop on entering ``to`` (and move no further), or None."""
        if self.p.ignores_terrain:
            return None
        rb, cls = self.rb, self.cls
        for feature, rules in self.features(to):
            if cls in rules.must_stop:
                if self.rules.no_stop_on and counts_as(self.s, rb, to, self.rules.no_stop_on):
                    continue
                if self.entry.spanned(to, feature):
                    continue  # ``bridge``: the bridge carries the unit over the water it spans
                return say("move.must_stop", feature, fact="must_stop", terrain=self.terrain(feature, to))
            if cls in rules.must_stop_climbing and self.elevation(to) > self.elevation(frm):
                return say("move.must_stop_climbing", feature, fact="must_stop_climbing",
                           terrain=self.terrain(feature, to))
        for badge in self.unit.badges:
            marker = rb.badge(badge)
            if marker is not None and marker.must_stop_on and counts_as(self.s, rb, to, marker.must_stop_on):
                return say("move.marker_must_stop", badge, fact="must_stop_on", marker=entry_ref(rb, badge),
                           at=hex_ref(self.s.board, to))
        if first:
            for feature, rules in self.features(frm):
                if cls in rules.must_stop_leaving and not self.entry.spanned(frm, feature):
                    return say("move.must_stop_leaving", feature, fact="must_stop_leaving",
                               terrain=self.terrain(feature, frm))
        return None

    def cap(self, to: Hex) -> tuple[int | None, str | None]:
        best: tuple[int | None, str | None] = (None, None)
        if self.p.ignores_terrain:
            return best
        for feature, rules in self.features(to):
            if rules.max_move_onto is not None and (best[0] is None or rules.max_move_onto < best[0]):
                best = (rules.max_move_onto, feature)
        return best

    def hazards(self, to: Hex) -> tuple[Reason, ...]:
        """What entering ``to`` sets off (Frozen River's dice, a minefield turned over)."""
        found = self._hazards.get(to)
        if found is not None:
            return found
        out: list[Reason] = []
        bridged = any(r.is_bridge for _, r in self.features(to))
        for feature, rules in self.features(to):
            risk = rules.entry_risk
            if risk is not None and risk.on_move and not bridged:
                out.append(say("move.entry_risk", feature, fact="entry_risk", terrain=self.terrain(feature, to),
                               rolls=risk.dice, per=risk.figures_per_face, faces=risk.faces))
            if rules.revealed_on_entry:
                out.append(say("move.revealed", feature, fact="revealed_on_entry", terrain=self.terrain(feature, to)))
        found = self._hazards[to] = tuple(out)
        return found


@dataclass(order=True)
class _State:
    cost: int
    hazards: int
    hexes: int
    key: tuple[Hex, bool, int, bool] = field(compare=False)
    path: tuple[Hex, ...] = field(compare=False)
    costs: tuple[Reason, ...] = field(compare=False, default=())
    stop: Reason | None = field(compare=False, default=None)
    cap_rule: str | None = field(compare=False, default=None)


def _search(m: Mover) -> tuple[dict[Hex, list[_State]], dict[Hex, list[Reason]]]:
    """Every cheapest state per (hex, road-only, cap, stopped), and why hexes could not be entered."""
    p = m.p
    start = m.start
    first = _State(0, 0, 0, (start, m.on_road(start), INF, False), (start,))
    best: dict[tuple[Hex, bool, int, bool], tuple[int, int]] = {first.key: (0, 0)}
    queue = [first]
    found: dict[Hex, list[_State]] = {}
    blocked: dict[Hex, list[Reason]] = {}
    board = m.s.board

    def note(h: Hex, why: Reason) -> None:
        reasons = blocked.setdefault(h, [])
        if why not in reasons:
            reasons.append(why)

    while queue:
        state = heapq.heappop(queue)
        here, road, cap, stopped = state.key
        if best.get(state.key, (INF, INF)) < (state.cost, state.hazards):
            continue
        if here != start:
            found.setdefault(here, []).append(state)
        if stopped:
            continue
        charge(6)  # six neighbours examined (engine.budget: bounded work per request)
        is_first = here == start
        for to in board.neighbours(here):
            if to == start or to in state.path:
                continue
            why = m.block(here, to, is_first)
            if why is not None:
                note(to, why)
                continue
            step, cost_why = m.cost(here, to)
            cost = state.cost + step
            new_road = road and m.on_road(to)
            onto, onto_rule = m.cap(to)
            new_cap = min(cap, onto) if onto is not None else cap
            cap_rule = onto_rule if onto is not None and onto <= cap else state.cap_rule
            limit = min(p.allowance_for(new_road), new_cap)
            if cost > limit:
                too_far = _too_far(m, cap_rule, new_cap, cost, limit, cost_why, p.allowance_for(new_road))
                if too_far is not None:
                    note(to, too_far)
                continue
            stop = m.stops(here, to, is_first)
            key = (to, new_road, new_cap, stop is not None)
            hazards = state.hazards + len(m.hazards(to))
            if best.get(key, (INF, INF)) <= (cost, hazards):
                continue
            best[key] = (cost, hazards)
            costs = state.costs + ((cost_why,) if cost_why is not None else ())
            heapq.heappush(queue, _State(cost, hazards, state.hexes + 1, key, (*state.path, to), costs, stop,
                                         cap_rule))
    return found, blocked


def _too_far(m: Mover, cap_rule: str | None, cap: int, cost: int, limit: int, cost_why: Reason | None,
             allowance: int) -> Reason | None:
    """Why a step that takes the move past its limit cannot be made: a beach's cap, or a climb."""
    if cap < allowance and cost > cap:
        if cap_rule is None:
            return say("move.over_cap", MOVEMENT, cap=cap, cost=cost)
        return say("move.over_terrain_cap", cap_rule, fact="max_move_onto", terrain=entry_ref(m.rb, cap_rule),
                   cap=cap, cost=cost)
    if cost_why is not None:
        return say("move.climb_too_far", cost_why.rule, fact=cost_why.fact, terrain=cost_why.param_map["terrain"],
                   climb=cost_why.param_map["n"], cost=cost, limit=limit)
    return None


@dataclass
class _Battle:
    """May the unit battle after this move: what forbids it, what else is said, what it may or
    must do instead, and its dice change out of its new hex."""

    forbid: list[Reason] = field(default_factory=list)
    why: list[Reason] = field(default_factory=list)
    instead: list[Reason] = field(default_factory=list)
    change: int = 0

    @property
    def ok(self) -> bool:
        return not self.forbid


def _battle_after(m: Mover, end: Hex, cost: int, road: bool, path: tuple[Hex, ...]) -> _Battle:
    """May the unit battle after this move, and why (unit, card, special rules, the terrain it
    entered, left and stands on)."""
    out = _Battle()
    if not m.rules.battles:
        out.forbid.append(say("move.never_battles", m.unit.profile, fact="battles", unit=m.who))
        _cannot_clear(m, end, out)
        return out
    _battle_limit(m, end, cost, road, out)
    if cost > 0:
        _entered_terrain(m, end, cost, out)
    _in_terrain(m, end, out)
    if cost > 0 and path[0] != end:
        for feature, hex_rules in m.features(path[0]):
            if m.cls in hex_rules.no_battle_after_leaving:
                out.forbid.append(say("move.no_battle_after_leaving", feature, fact="no_battle_after_leaving",
                                      unit=m.who, terrain=m.terrain(feature, path[0]), unit_class=m.cls))
    if m.rules.ignores_own_terrain != "always":
        penalties = [(hr.battle_out.get(m.cls, 0), f) for f, hr in m.features(end)]
        worst, feature = max(penalties, default=(0, ""))
        if worst:
            out.change = -worst
            out.why.append(say("move.battle_out", feature, fact="battle_out", dice=out.change,
                               terrain=m.terrain(feature, end), n=worst))
    return out


def _battle_limit(m: Mover, end: Hex, cost: int, road: bool, out: _Battle) -> None:
    """The move-and-battle limit of the unit, card or special rule (road bonus included), or a
    nation's longer move into a close assault."""
    p, rb = m.p, m.rb
    limit = p.battle_limit_for(road)
    rule = entry_ref(rb, p.battle_rule)
    fact = limit_fact(rb, p.battle_rule, "move_and_battle")
    if limit < 0:
        out.forbid.append(say("move.no_battle_this_move", p.battle_rule, unit=m.who, entry=rule))
        return
    if cost <= limit:
        bonus = road and limit > p.battle_limit
        out.why.append(say("move.may_battle_road" if bonus else "move.may_battle", p.battle_rule, fact=fact,
                           unit=m.who, limit=limit, entry=rule))
        return
    close_rule = p.close_assault_rule
    if (p.close_assault_limit is not None and close_rule is not None and cost <= p.close_assault_limit
            and any((u := m.s.unit_at(n)) is not None and u.side != m.unit.side for n in m.s.board.neighbours(end))):
        out.why.append(say("move.close_assault_move", close_rule, fact="close_assault_move_and_battle",
                           nation=entry_ref(rb, close_rule), n=p.close_assault_limit))
    elif limit == 0:
        out.forbid.append(say("move.no_move_and_battle", p.battle_rule, fact=fact, unit=m.who, entry=rule, cost=cost))
    else:
        out.forbid.append(say("move.too_far_to_battle", p.battle_rule, fact=fact, unit=m.who, limit=limit, entry=rule,
                              cost=cost))


def _entered_terrain(m: Mover, end: Hex, cost: int, out: _Battle) -> None:
    """Terrain a unit may not battle from on the turn it enters it (forest, town, hedgerow:
    ``no_battle_after_entering``; jungle: unless it moved at most ``battle_after_entering_max_moved``)."""
    for feature, hex_rules in m.features(end):
        most = hex_rules.battle_after_entering_max_moved
        barred = m.cls in hex_rules.no_battle_after_entering
        if not barred and (most is None or hex_rules.no_battle_after_entering):
            continue
        terrain = m.terrain(feature, end)
        if m.rules.battles_after_entering_any_terrain:
            out.why.append(say("move.battles_after_entering_any", m.unit.profile,
                               fact="battles_after_entering_any_terrain", unit=m.who, terrain=terrain))
        elif most is not None and cost <= most:
            out.why.append(say("move.entered_moving_little", feature, fact="battle_after_entering_max_moved",
                               terrain=terrain, cost=cost))
        elif barred:
            out.forbid.append(say("move.no_battle_after_entering", feature, fact="no_battle_after_entering",
                                  terrain=terrain))
        else:
            out.forbid.append(say("move.no_battle_after_entering_far", feature, fact="battle_after_entering_max_moved",
                                  terrain=terrain, n=most or 0))


def _in_terrain(m: Mover, end: Hex, out: _Battle) -> None:
    """Terrain the unit may not battle in, and what it may (or must) clear there instead."""
    rb, rules, cls = m.rb, m.rules, m.cls
    kept = _cannot_clear(m, end, out)
    for feature, hex_rules in m.features(end):
        terrain = m.terrain(feature, end)
        family = (feature, rb.bases.get(feature))
        if cls in hex_rules.cannot_battle_in:
            out.forbid.append(say("move.cannot_battle_in", feature, fact="cannot_battle_in", unit=m.who,
                                  terrain=terrain))
        if feature in kept:
            continue
        if cls in hex_rules.cleared_and_battle:
            out.why.append(say("move.cleared_and_battle", feature, fact="cleared_and_battle", unit=m.who,
                               terrain=terrain))
        if any(t in family for t in rules.must_clear_instead_of_battle):
            out.forbid.append(say("move.must_clear", m.unit.profile, fact="must_clear_instead_of_battle", unit=m.who,
                                  terrain=terrain))
            out.instead.append(out.forbid[-1])
            continue
        if any(t in family for t in rules.clears_and_battles):
            out.instead.append(say("move.may_clear_and_battle", m.unit.profile, fact="clears_and_battles",
                                   unit=m.who, terrain=terrain))
        elif cls in hex_rules.cleared_instead_of_battle:
            out.instead.append(say("move.may_clear_instead", feature, fact="cleared_instead_of_battle", unit=m.who,
                                   terrain=terrain))
        if any(t in family for t in rules.clears_instead_of_battle):
            out.instead.append(say("move.may_clear_instead", m.unit.profile, fact="clears_instead_of_battle",
                                   unit=m.who, terrain=terrain))


def _cannot_clear(m: Mover, end: Hex, out: _Battle) -> set[str]:
    """Obstacles the unit's class would remove that the unit itself never may (``cannot_clear``:
    a Supply Truck and wire, though it moves as armor); says so and returns them."""
    kept: set[str] = set()
    for feature, hex_rules in m.features(end):
        clears = m.cls in hex_rules.cleared_and_battle or m.cls in hex_rules.cleared_instead_of_battle
        if clears and {feature, m.rb.bases.get(feature)} & set(m.rules.cannot_clear):
            kept.add(feature)
            out.why.append(say("move.cannot_clear", m.unit.profile, fact="cannot_clear", unit=m.who,
                               terrain=m.terrain(feature, end)))
    return kept


def legal_moves(situation: Situation, rulebook: Rulebook, unit_id: str, card: str | None = None,
                combat_card: str | None = None, after_battle: bool = False,
                order: OrderTerms | None = None) -> MoveRuling:
    """Every hex ``unit_id`` may end its move on from where it stands, with one best path each
    (adjudicator/API.md ``/move``). ``card`` / ``combat_card`` are resolved content ids; ``order``
    says how the card was played (engine ``orders``)."""
    unit = situation.unit(unit_id, "unit")
    profile = move_profile(situation, rulebook, unit, card, after_battle, order=order)
    leaving = _leaving_notes(situation, rulebook, unit)
    if leaving:
        profile = replace(profile, notes=(*profile.notes, *leaving))
    if profile.why_not:
        return MoveRuling(unit, profile, (), (), profile.why_not, profile.notes, card, combat_card, after_battle)
    m = Mover(situation, rulebook, unit, profile, unit.hex)
    found, blocked = _search(m)
    options = sorted((_best_option(m, end, states) for end, states in found.items()),
                     key=lambda o: (o.end.row, o.end.col))
    unreachable = _unreachable(m, found, blocked, {o.end for o in options})
    return MoveRuling(unit, profile, tuple(options), tuple(unreachable), (), profile.notes, card, combat_card,
                      after_battle)


def _best_option(m: Mover, end: Hex, states: list[_State]) -> MoveOption:
    """Of the ways to ``end``, the one that keeps the battle if any does, then the fewest hexes
    moved, then the fewest hazards; its reasons, those forbidding the battle first."""
    p = m.p
    ranked = sorted(((state, _battle_after(m, end, state.cost, state.key[1], state.path)) for state in states),
                    key=lambda r: (not r[1].ok, r[0].cost, r[0].hazards))
    state, battle = ranked[0]
    reasons: list[Reason] = [*battle.forbid, *state.costs]
    if state.key[1] and state.cost > p.allowance and p.road_bonus_rule:
        reasons.append(say("move.road_bonus", p.road_bonus_rule, fact="road_move_bonus", n=p.road_bonus))
        if p.road_max is not None and p.road_max_rule:
            reasons.append(say("move.road_max", p.road_max_rule, fact="move_limits",
                               entry=entry_ref(m.rb, p.road_max_rule), n=p.road_max))
    if state.stop is not None:
        reasons.append(state.stop)
    reasons.extend(battle.why)
    hazards = tuple(r for h in state.path[1:] for r in m.hazards(h))
    return MoveOption(end, state.path, state.cost, battle.ok, battle.change, tuple(dict.fromkeys(reasons)),
                      tuple(dict.fromkeys(battle.instead)), hazards)


def _unreachable(m: Mover, found: dict[Hex, list[_State]], blocked: dict[Hex, list[Reason]],
                 reached: set[Hex]) -> list[tuple[Hex, tuple[Reason, ...]]]:
    """Every hex within the unit's reach it cannot end on, with why: what bars entering it, a
    must-stop hex on the only ways there, a climb that uses the whole move, or no way at all."""
    s, unit, p = m.s, m.unit, m.p
    reach = p.allowance_for(m.on_road(unit.hex))
    out: dict[Hex, list[Reason]] = {h: list(blocked.get(h, ())) for h in _within(s, unit.hex, reach)
                                    if h != unit.hex and h not in reached}
    stopped = sorted((st for states in found.values() for st in states if st.stop is not None),
                     key=lambda st: st.cost)
    for h, reasons in out.items():
        if not reasons:  # a hex the move could reach from a must-stop hex, had it not had to stop there
            way = next((st for st in stopped if st.cost + distance(st.key[0], h) <= p.allowance_for(st.key[1])),
                       None)
            if way is not None and way.stop is not None:
                reasons.append(_beyond_stop(way.stop, hex_ref(s.board, h)))
        if not reasons:
            for n in s.board.neighbours(h):
                climbs = [c for st in found.get(n, ()) if st.cost >= reach for c in st.costs]
                reasons.extend(say("move.climb_uses_all", c.rule, fact=c.fact, via=hex_ref(s.board, n), n=reach,
                                   terrain=c.param_map["terrain"], climb=c.param_map["n"]) for c in climbs[:1])
        if not reasons:
            reasons.append(say("move.no_way", MOVEMENT, hex=hex_ref(s.board, h), n=p.allowance))
    return [(h, tuple(dict.fromkeys(reasons))) for h, reasons in out.items()]


def _beyond_stop(stop: Reason, h: HexRef) -> Reason:
    """Why ``h`` is out of reach: every way there goes through a hex where the move must end
    (``move.beyond_*``: the stop's own sentence, after the hex it keeps the unit from)."""
    return say_params(stop.code.replace("move.", "move.beyond_", 1), stop.rule, {**stop.param_map, "hex": h},
                      fact=stop.fact)


@dataclass(frozen=True)
class PathCheck:
    """How a unit's path moved it: counted hexes, whether wholly on road, the reasons."""

    path: tuple[Hex, ...]
    hexes_moved: int
    road_only: bool
    battle_limit: int  # road bonus and special-rule caps included
    battle_rule: str
    road_rule: str | None  # the entry that gave the road bonus, when the whole move was on road
    costs: tuple[Reason, ...]  # climb costs met on the way
    may_battle: bool
    why: tuple[Reason, ...]
    instead: tuple[Reason, ...]
    stop: Reason | None = None  # why the move had to end on its last hex, if it had to


def mover(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None, start: Hex,
          where: str) -> Mover:
    """The step rules of ``unit``'s move this turn from ``start`` under ``card``, checked against
    the terrain only (other units may have moved onto its way since: core ``movement``).
    IllegalSituation naming ``where`` when no source gives the unit's rules."""
    profile = move_profile(situation, rulebook, unit, card, start=start)
    if profile.why_not and not rulebook.unit(unit.profile).rules_documented:
        raise IllegalSituation(where, profile.why_not[0].text)
    return Mover(situation, rulebook, unit, profile, start, check_units=False)


def walk_path(m: Mover, path: tuple[Hex, ...]) -> PathCheck | str:
    """How ``path`` (start first) moved the unit under ``m``'s profile, or why it could not have
    (the sentence to report): each step entered legally, no must-stop hex before the last, no
    more hexes counted than the move allows (climbs, road bonus, a beach's cap)."""
    board = m.s.board
    cost, cap = 0, INF
    road = m.on_road(path[0])
    costs: list[Reason] = []
    stop: Reason | None = None
    for i, (frm, to) in enumerate(itertools.pairwise(path)):
        first = i == 0
        why = m.block(frm, to, first)
        if why is not None:
            return why.text
        step, cost_why = m.cost(frm, to)
        if cost_why is not None:
            costs.append(cost_why)
        cost += step
        road = road and m.on_road(to)
        onto, _ = m.cap(to)
        cap = min(cap, onto) if onto is not None else cap
        stop = m.stops(frm, to, first)
        if stop is not None and to != path[-1]:
            return f"{stop.text}, yet the path goes on from {board.label(to)}"
    profile = m.p
    limit = min(profile.allowance_for(road), cap)
    if cost > limit:
        return (f"the path counts {plural(cost, 'hex', 'hexes')}, more than the {plural(limit, 'hex', 'hexes')} "
                f"{m.rb.names[m.unit.profile]} may move here")
    battle = _battle_after(m, path[-1], cost, road, path)
    road_rule = (profile.road_max_rule or profile.road_bonus_rule) if road and profile.road_bonus else None
    return PathCheck(path, cost, road, profile.battle_limit_for(road), profile.battle_rule, road_rule, tuple(costs),
                     battle.ok, tuple([*battle.forbid, *battle.why]), tuple(dict.fromkeys(battle.instead)), stop)


def unit_field(situation: Situation, unit: Unit, name: str) -> str:
    """The request field of one of ``unit``'s own fields (``units[2].path``), for an error to name."""
    index = next(i for i, u in enumerate(situation.units) if u.id == unit.id)
    return f"units[{index}].{name}"


def check_path(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None = None) -> PathCheck | None:
    """Validate the unit's ``path`` against the movement rules; IllegalSituation naming
    ``units[i].path`` when the unit could not have moved so. None when it gave no path."""
    if len(unit.path) < 2:
        return None
    where = unit_field(situation, unit, "path")
    walked = walk_path(mover(situation, rulebook, unit, card, unit.path[0], where), unit.path)
    if isinstance(walked, str):
        raise IllegalSituation(where, walked)
    return walked


def _within(situation: Situation, centre: Hex, reach: int) -> list[Hex]:
    """The board's hexes at most ``reach`` from ``centre``, row by row (no walk over the board)."""
    out: list[Hex] = []
    for dr in range(-reach, reach + 1):
        span = 2 * reach - abs(dr)  # distance = |dr| + max(0, (|dc| - |dr|) / 2) <= reach
        for dc in range(-span, span + 1, 2):
            h = Hex(centre.row + dr, centre.col + dc)
            if situation.board.contains(h):
                out.append(h)
    return out


def option_json(situation: Situation, option: MoveOption) -> dict[str, Any]:
    """One reachable end hex: its label, the best path, hexes moved, the battle after it, why."""
    return {
        **hex_json(situation.board, option.end),
        "path": [h.to_dict() for h in option.path],
        "hexes_moved": option.hexes_moved,
        "may_battle": option.may_battle,
        "battle_dice_change": option.battle_dice_change,
        "why": [r.to_dict() for r in option.why],
        "instead": [r.to_dict() for r in option.instead],
        "hazards": [r.to_dict() for r in option.hazards],
    }


def destination_json(situation: Situation, rulebook: Rulebook, ruling: MoveRuling, to: Hex) -> dict[str, Any]:
    """"May it go *there*?": the reachable entry for ``to`` (``reachable: true``), or why not."""
    for o in ruling.reachable:
        if o.end == to:
            return {"reachable": True, **option_json(situation, o)}
    for h, said in ruling.unreachable:
        if h == to:
            return {"reachable": False, **hex_json(situation.board, h), "why": [r.to_dict() for r in said]}
    why: list[Reason]
    if to == ruling.unit.hex:
        why = [say("move.already_there", MOVEMENT)]
    elif ruling.why_not:
        why = list(ruling.why_not)
    else:
        p = ruling.profile
        why = [say("move.too_far", p.allowance_rule, fact=limit_fact(rulebook, p.allowance_rule, "max_move"),
                   hex=hex_ref(situation.board, to), distance=distance(ruling.unit.hex, to), n=p.allowance)]
    return {"reachable": False, **hex_json(situation.board, to), "why": [r.to_dict() for r in why]}


def _leaving_notes(situation: Situation, rulebook: Rulebook, unit: Unit) -> tuple[Reason, ...]:
    """What the unit takes off the board by leaving its hex: sandbags (``removed_when_occupant_leaves``)."""
    return tuple(say("move.removes_obstacle", feature, fact="removed_when_occupant_leaves",
                     unit=unit_ref(situation, rulebook, unit), obstacle=entry_ref(rulebook, feature),
                     at=hex_ref(situation.board, unit.hex))
                 for feature in situation.hex_state(unit.hex).features()
                 if rulebook.hex_rules(feature).removed_when_occupant_leaves)


def removed_on_leaving(situation: Situation, rulebook: Rulebook, unit: Unit) -> list[dict[str, Any]]:
    """The obstacles taken off the unit's hex if it moves away (``/move``'s ``removed_on_leaving``)."""
    return [{**hex_ref(situation.board, unit.hex).to_dict(), "obstacle": feature}
            for feature in situation.hex_state(unit.hex).features()
            if rulebook.hex_rules(feature).removed_when_occupant_leaves]


def move_json(situation: Situation, rulebook: Rulebook, ruling: MoveRuling, to: Hex | None = None) -> dict[str, Any]:
    """The ``/api/v1/move`` answer (adjudicator/API.md); with ``to``, also the ruling for that hex."""
    p = ruling.profile
    extra = {"to": destination_json(situation, rulebook, ruling, to)} if to is not None else {}
    return {
        "unit": ruling.unit.id,
        "card": ruling.card,
        "combat_card": ruling.combat_card,
        "after_battle": ruling.after_battle,
        "from": hex_json(situation.board, ruling.unit.hex),
        "allowance": p.allowance if not ruling.why_not else 0,
        "allowance_rule": p.allowance_rule,
        "move_and_battle": max(p.battle_limit, 0) if not ruling.why_not else 0,
        "road_allowance": p.allowance_for(True) if p.road_bonus else p.allowance,
        "why_not": [r.to_dict() for r in ruling.why_not],
        "notes": [r.to_dict() for r in ruling.notes],
        "reachable": [option_json(situation, o) for o in ruling.reachable],
        "removed_on_leaving": removed_on_leaving(situation, rulebook, ruling.unit) if ruling.reachable else [],
        "unreachable": [{**hex_json(situation.board, h), "why": [r.to_dict() for r in why]}
                        for h, why in ruling.unreachable],
        **extra,
    }
