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

import heapq
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.engine.budget import charge
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import bridged, hex_text
from adjudicator.engine.geometry import Hex, distance
from adjudicator.engine.hits import special_rules_in_effect
from adjudicator.engine.orders import OrderTerms, acting_refusals, ordered_by_class
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import counts_as
from adjudicator.engine.rulebook import CardRules, HexRules, NationRules, Rulebook, UnitRules
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import hex_ref, say, unit_ref

MOVEMENT = "movement"  # core entry: one unit per hex, never through another unit
BEACH = "beach"  # the terrain a cliff or sea bluff's beach climb is measured against
INF = 99


def _plural(n: int, word: str = "hex") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word == "hex" else f"{n} {word}s"


@dataclass(frozen=True)
class MoveProfile:
    """How far this unit may move this turn under the card and rules given, each limit with the
    entry it comes from."""

    unit_class: str
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


def move_profile(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None = None,
                 after_battle: bool = False, start: Hex | None = None,
                 order: OrderTerms | None = None) -> MoveProfile:
    """The unit's allowance and move-and-battle limit: its entry, raised by a card that orders it,
    lowered by special rules (Winter Weather, Blitz), with the road bonus and its cap. A unit the
    card could not order, or that the situation says was not ordered, may not move (engine
    ``orders``); ``order`` says how the card was played."""
    rules: UnitRules = rulebook.unit(unit.profile)
    name = rulebook.names[unit.profile]
    cls = rules.unit_class
    why_not: list[Reason] = []
    notes: list[Reason] = []
    allowance, allowance_rule = rules.max_move, unit.profile
    battle, battle_rule = (rules.move_and_battle, unit.profile) if rules.battles else (-1, unit.profile)
    ignores: str | None = None
    if not rules.rules_documented:
        why_not.append(Reason(unit.profile, f"No rules document gives the numbers of {name}: the engine cannot "
                                            "rule on its move"))
    if rules.max_move <= 0:
        why_not.append(Reason(unit.profile, f"{name} does not move on the board"))
    card_rules = rulebook.rules.get(card) if card else None
    refusals, turn_notes = acting_refusals(situation, rulebook, unit, order if order is not None else (
        OrderTerms(card) if card and isinstance(card_rules, CardRules) else None), "move")
    why_not.extend(refusals)
    notes.extend(turn_notes)
    if card and isinstance(card_rules, CardRules):
        cname = rulebook.names[card]
        if not card_rules.ordered_units_move and not after_battle:
            why_not.append(say("order.effect_no_move", card, fact="ordered_units_move", card=cname))
        if ordered_by_class(rulebook, card_rules, unit):
            if card_rules.max_move is not None and card_rules.max_move > allowance:
                allowance, allowance_rule = card_rules.max_move, card
            if (card_rules.move_and_battle is not None and rules.battles
                    and card_rules.move_and_battle > battle):
                battle, battle_rule = card_rules.move_and_battle, card
            if not card_rules.ordered_units_battle:
                battle, battle_rule = -1, card
            if card_rules.ignores_terrain_movement:
                ignores = card
                notes.append(Reason(card, f"{cname}: terrain movement restrictions do not apply to this move; "
                                          "impassable hexes, other units and terrain battle restrictions still do"))
        if after_battle:
            if not ordered_by_class(rulebook, card_rules, unit):
                why_not.append(Reason(card, f"{cname} does not order {name}, so it gives it no move after battling"))
            elif card_rules.move_after_battle is None:
                why_not.append(Reason(card, f"{cname} gives no move after the battle"))
            else:
                allowance, allowance_rule = card_rules.move_after_battle, card
                battle, battle_rule = -1, card
                notes.append(Reason(card, f"{cname}: after its battle the unit may move up to "
                                          f"{_plural(card_rules.move_after_battle)} again, without battling"))
    elif after_battle:
        why_not.append(Reason(MOVEMENT, "A unit moves once a turn; only a card such as Behind Enemy Lines moves it "
                                        "again after its battle"))
    road_max: int | None = None
    road_max_rule: str | None = None
    for rule_id, special in special_rules_in_effect(situation, rulebook) if situation.rules_in_effect else ():
        for limit in special.move_limits:
            if cls not in limit.unit_classes or (limit.sides and unit.side not in limit.sides):
                continue
            if limit.max_move is not None and limit.max_move < allowance:
                allowance, allowance_rule = limit.max_move, rule_id
            if limit.move_and_battle is not None and 0 <= limit.move_and_battle < battle:
                battle, battle_rule = limit.move_and_battle, rule_id
            if limit.road_max_move is not None:
                road_max, road_max_rule = limit.road_max_move, rule_id
    close_limit: int | None = None
    close_rule: str | None = None
    if unit.nation and rules.battles:
        for entry_id in rulebook.ids_of_kind("nation"):
            nation = rulebook.rules[entry_id]
            if not isinstance(nation, NationRules) or unit.nation not in nation.nation_codes:
                continue
            if nation.requires_rule and not (situation.rule(nation.requires_rule) or situation.rule(
                    getattr(rulebook.rules.get(nation.requires_rule), "situation_id", None) or "")):
                continue
            value, classes = nation.close_assault_move_and_battle, nation.close_assault_unit_classes
            if value is not None and value > battle and (not classes or cls in classes):
                close_limit, close_rule = value, entry_id
    road_bonus = rules.road_move_bonus if rules.road_move_bonus is not None else 0
    road_rule = unit.profile if rules.road_move_bonus is not None else None
    if rules.road_move_bonus is None:  # the road the move starts on (a road over a hill is a road too)
        for entry_id in situation.hex_state(start or unit.hex).features():
            entry = rulebook.rules.get(entry_id)
            if isinstance(entry, HexRules) and entry.road_move_bonus > road_bonus:
                road_bonus, road_rule = entry.road_move_bonus, entry_id
    if ignores is None and rules.moves_only_on:
        road_bonus, road_rule = 0, None  # rails only: a train never follows a road
    return MoveProfile(cls, allowance, allowance_rule, battle, battle_rule, road_bonus, road_rule, road_max,
                       road_max_rule, ignores, close_limit, close_rule, tuple(why_not), tuple(notes))


class _Mover:
    """The step rules of one unit's move over one situation (memoised per hex)."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit: Unit, profile: MoveProfile,
                 start: Hex, check_units: bool = True) -> None:
        self.s, self.rb, self.unit, self.p = situation, rulebook, unit, profile
        self.rules = rulebook.unit(unit.profile)
        self.cls = profile.unit_class
        self.start = start
        self.check_units = check_units
        self.name = rulebook.names[unit.profile]
        self._features: dict[Hex, tuple[tuple[str, HexRules], ...]] = {}
        self._elev: dict[Hex, int] = {}
        self._road: dict[Hex, bool] = {}

    def features(self, h: Hex) -> tuple[tuple[str, HexRules], ...]:
        found = self._features.get(h)
        if found is None:
            found = tuple((f, r) for f in self.s.hex_state(h).features()
                          if isinstance(r := self.rb.rules.get(f), HexRules))
            self._features[h] = found
        return found

    def elevation(self, h: Hex) -> int:
        if h not in self._elev:
            self._elev[h] = max((r.elevation for _, r in self.features(h)), default=0)
        return self._elev[h]

    def on_road(self, h: Hex) -> bool:
        if h not in self._road:
            self._road[h] = any(r.road_move_bonus > 0 for _, r in self.features(h))
        return self._road[h]

    def is_beach(self, h: Hex) -> bool:
        return counts_as(self.s, self.rb, h, (BEACH,))

    def block(self, frm: Hex, to: Hex, first: bool) -> Reason | None:
        """Why the unit may not step from ``frm`` onto ``to``, or None."""
        s, rb, cls = self.s, self.rb, self.cls
        where = hex_text(s, to)
        if self.check_units:
            occupant = s.unit_at(to)
            if occupant is not None and occupant.id != self.unit.id:
                return Reason(MOVEMENT, f"{where} holds unit {occupant.id}: no unit moves onto or through another")
        if s.hex_state(to).impassable:
            return Reason(MOVEMENT, f"The scenario declares {where} impassable: no unit may enter it")
        for feature, rules in self.features(to):
            if cls in rules.impassable and not bridged(s, rb, to) and not any(
                    feature in getattr(rb.rules.get(b), "stands_on", ()) for b in self.unit.badges):
                return Reason(feature, f"{rb.names[feature]} at {where} is impassable to {cls}")
        if self.rules.moves_only_on and not counts_as(s, rb, to, self.rules.moves_only_on):
            return Reason(self.unit.profile, f"{self.name} moves only on "
                                             f"{', '.join(rb.names.get(t, t) for t in self.rules.moves_only_on)}; "
                                             f"{where} is not one")
        if self.p.ignores_terrain:
            return None
        for feature, rules in self.features(to):
            fname = rb.names[feature]
            if rules.enter_only_from_adjacent and not first:
                return Reason(feature, f"{fname} ({where}) may be entered only by a unit that starts its move next "
                                       "to it")
            if rules.enter_only_from_plateau and not counts_as(s, rb, frm, rules.enter_only_from_plateau):
                return Reason(feature, f"{fname} ({where}) may be entered only from "
                                       f"{', '.join(rules.enter_only_from_plateau)}; {hex_text(s, frm)} is not")
            if rules.no_entry_from and counts_as(s, rb, frm, rules.no_entry_from):
                return Reason(feature, f"{fname} ({where}) may not be entered from "
                                       f"{', '.join(rules.no_entry_from)}")
            if cls in rules.beach_climb_forbidden and self.is_beach(frm):
                return Reason(feature, f"{cls.capitalize()} may not move up onto {fname} from the beach")
        for feature, rules in self.features(frm):
            fname = rb.names[feature]
            if cls in rules.beach_climb_forbidden and self.is_beach(to):
                return Reason(feature, f"{cls.capitalize()} may not move down from {fname} onto the beach")
            if rules.leave_only_to_plateau and not counts_as(s, rb, to, rules.leave_only_to_plateau):
                return Reason(feature, f"A unit leaving {fname} may go only to "
                                       f"{', '.join(rules.leave_only_to_plateau)}; {where} is not")
        return None

    def cost(self, frm: Hex, to: Hex) -> tuple[int, Reason | None]:
        """Hexes this step counts: 1, or a climb cost (steep hill; cliff or sea bluff to/from a beach)."""
        if self.p.ignores_terrain:
            return 1, None
        best, why = 1, None
        up = self.elevation(to) > self.elevation(frm)
        for feature, rules in self.features(to):
            if up and rules.climb_cost is not None and rules.climb_cost > best:
                best, why = rules.climb_cost, Reason(feature, f"Moving up onto {self.rb.names[feature]} from lower "
                                                              f"ground counts as {_plural(rules.climb_cost)}")
            if rules.beach_climb_cost is not None and rules.beach_climb_cost > best and self.is_beach(frm):
                best, why = rules.beach_climb_cost, Reason(feature, (
                    f"Moving up onto {self.rb.names[feature]} from the beach counts as "
                    f"{_plural(rules.beach_climb_cost)}"))
        for feature, rules in self.features(frm):
            if rules.beach_climb_cost is not None and rules.beach_climb_cost > best and self.is_beach(to):
                best, why = rules.beach_climb_cost, Reason(feature, (
                    f"Moving down from {self.rb.names[feature]} onto the beach counts as "
                    f"{_plural(rules.beach_climb_cost)}"))
        return best, why

    def stops(self, frm: Hex, to: Hex, first: bool) -> Reason | None:
        """Why the unit must stop on entering ``to`` (and move no further), or None."""
        if self.p.ignores_terrain:
            return None
        rb, cls = self.rb, self.cls
        for feature, rules in self.features(to):
            fname = rb.names[feature]
            if cls in rules.must_stop:
                if self.rules.no_stop_on and counts_as(self.s, rb, to, self.rules.no_stop_on):
                    continue
                return Reason(feature, f"A unit entering {fname} must stop and may move no further")
            if cls in rules.must_stop_climbing and self.elevation(to) > self.elevation(frm):
                return Reason(feature, f"A unit moving up onto {fname} must stop there")
        for badge in self.unit.badges:
            marker = rb.rules.get(badge)
            on = getattr(marker, "must_stop_on", ())
            if on and counts_as(self.s, rb, to, on):
                return Reason(badge, f"A unit with {rb.names[badge]} entering {hex_text(self.s, to)} must stop there")
        if first:
            for feature, rules in self.features(frm):
                if cls in rules.must_stop_leaving:
                    return Reason(feature, f"A unit leaving {rb.names[feature]} may move only to an adjacent hex")
        return None

    def cap(self, to: Hex) -> tuple[int | None, str | None]:
        best: tuple[int | None, str | None] = (None, None)
        if self.p.ignores_terrain:
            return best
        for feature, rules in self.features(to):
            if rules.max_move_onto is not None and (best[0] is None or rules.max_move_onto < best[0]):
                best = (rules.max_move_onto, feature)
        return best

    def hazards(self, to: Hex) -> list[Reason]:
        out: list[Reason] = []
        for feature, rules in self.features(to):
            fname = self.rb.names[feature]
            risk = rules.entry_risk
            if risk is not None and risk.on_move and not bridged(self.s, self.rb, to):
                out.append(Reason(feature, f"Moving onto {fname} ({hex_text(self.s, to)}): roll {risk.dice} dice, "
                                           f"{risk.figures_per_face} figure lost for each "
                                           f"{' or '.join(risk.faces)}"))
            if rules.revealed_on_entry:
                out.append(Reason(feature, f"Entering {fname} ({hex_text(self.s, to)}): if the enemy laid it, turn "
                                           "it over and roll its strength in dice"))
        return out


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


def _search(m: _Mover) -> tuple[dict[Hex, list[_State]], dict[Hex, list[Reason]]]:
    """Every cheapest state per (hex, road-only, cap, stopped), and why hexes could not be entered."""
    p = m.p
    start = m.start
    road0 = m.on_road(start)
    first = _State(0, 0, 0, (start, road0, INF, False), (start,))
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
                if new_cap < p.allowance_for(new_road) and cost > new_cap:
                    note(to, Reason(cap_rule or MOVEMENT, f"A move onto {m.rb.names.get(cap_rule or '', 'it')} may "
                                                          f"total at most {_plural(new_cap)}; this way it would be "
                                                          f"{_plural(cost)}"))
                elif cost_why is not None:
                    note(to, Reason(cost_why.rule, f"{cost_why.text}: that makes {_plural(cost)}, more than the "
                                                   f"{_plural(limit)} it may move"))
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


def _battle_after(m: _Mover, end: Hex, cost: int, road: bool,
                  path: tuple[Hex, ...]) -> tuple[bool, list[Reason], list[Reason], int]:
    """May the unit battle after this move; why; what it may or must do instead; its dice change."""
    rb, p, rules, cls, name = m.rb, m.p, m.rules, m.cls, m.name
    why: list[Reason] = []
    instead: list[Reason] = []
    ok = True
    if not rules.battles:
        return False, [Reason(m.unit.profile, f"{name} never battles")], [], 0
    limit = p.battle_limit_for(road)
    if limit < 0:
        ok = False
        why.append(Reason(p.battle_rule, f"The unit may not battle after this move ({rb.names[p.battle_rule]})"))
    elif cost > limit:
        close_ok = (p.close_assault_limit is not None and p.close_assault_rule is not None
                    and cost <= p.close_assault_limit and any(
                        (u := m.s.unit_at(n)) is not None and u.side != m.unit.side for n in m.s.board.neighbours(end)))
        if close_ok and p.close_assault_rule is not None:
            why.append(Reason(p.close_assault_rule, f"{rb.names[p.close_assault_rule]}: it may move "
                                                    f"{_plural(p.close_assault_limit or 0)} and still close-assault "
                                                    "an adjacent enemy"))
        else:
            ok = False
            how = ("may not move and battle in the same turn" if limit == 0
                   else f"may move at most {_plural(limit)} and still battle")
            why.append(Reason(p.battle_rule, f"{name} {how} ({rb.names[p.battle_rule]}); this move is "
                                             f"{_plural(cost)}"))
    else:
        bonus = " (road bonus included)" if road and limit > p.battle_limit else ""
        why.append(Reason(p.battle_rule, f"{name} may move {_plural(limit)} and battle{bonus} "
                                         f"({rb.names[p.battle_rule]})"))
    moved = cost > 0
    for feature, hex_rules in m.features(end):
        fname = rb.names[feature]
        restricted = cls in hex_rules.no_battle_after_entering or (
            hex_rules.battle_after_entering_max_moved is not None and not hex_rules.no_battle_after_entering)
        if moved and restricted:
            if rules.battles_after_entering_any_terrain:
                why.append(Reason(m.unit.profile, f"{name} may battle on the turn it enters {fname}"))
            elif hex_rules.battle_after_entering_max_moved is not None and cost <= \
                    hex_rules.battle_after_entering_max_moved:
                why.append(Reason(feature, f"It entered {fname} moving only {_plural(cost)}, so it may still battle"))
            else:
                ok = False
                why.append(Reason(feature, f"A unit entering {fname} may not battle that turn"))
        if cls in hex_rules.cannot_battle_in:
            ok = False
            why.append(Reason(feature, f"{name} cannot battle while in {fname}"))
        if cls in hex_rules.cleared_and_battle:
            why.append(Reason(feature, f"{cls.capitalize()} entering {fname} removes it and may still battle"))
        if any(t in (feature, rb.bases.get(feature)) for t in rules.must_clear_instead_of_battle):
            ok = False
            instead.append(Reason(m.unit.profile, f"{name} on {fname} must clear it instead of battling (if it "
                                                  "cannot, it goes off)"))
            continue
        if any(t in (feature, rb.bases.get(feature)) for t in rules.clears_and_battles):
            instead.append(Reason(m.unit.profile, f"{name} may remove the {fname} and still battle"))
        elif cls in hex_rules.cleared_instead_of_battle:
            instead.append(Reason(feature, f"{cls.capitalize()} may remove the {fname} instead of battling"))
        if any(t in (feature, rb.bases.get(feature)) for t in rules.clears_instead_of_battle):
            instead.append(Reason(m.unit.profile, f"{name} may remove the {fname} instead of battling"))
    if moved and path[0] != end:
        for feature, hex_rules in m.features(path[0]):
            if cls in hex_rules.no_battle_after_leaving:
                ok = False
                why.append(Reason(feature, f"{cls.capitalize()} leaving {rb.names[feature]} may not battle that turn"))
    change = 0
    if rules.ignores_own_terrain != "always":
        penalties = [(hr.battle_out.get(cls, 0), f) for f, hr in m.features(end)]
        worst = max(penalties, default=(0, ""))
        if worst[0]:
            change = -worst[0]
            why.append(Reason(worst[1], f"Battling out of {rb.names[worst[1]]}: -{worst[0]} "
                                        f"{'die' if worst[0] == 1 else 'dice'}", change))
    return ok, why, instead, change


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
    m = _Mover(situation, rulebook, unit, profile, unit.hex)
    found, blocked = _search(m)
    options: list[MoveOption] = []
    for end, states in found.items():
        ranked = []
        for state in states:
            road = state.key[1]
            ok, why, instead, change = _battle_after(m, end, state.cost, road, state.path)
            ranked.append(((not ok, state.cost, state.hazards), state, ok, why, instead, change))
        ranked.sort(key=lambda r: r[0])
        _, state, ok, why, instead, change = ranked[0]
        reasons: list[Reason] = list(state.costs)
        if state.key[1] and state.cost > profile.allowance and profile.road_bonus_rule:
            reasons.append(Reason(profile.road_bonus_rule, (
                f"Starting on a road, following it and ending on it: {_plural(profile.road_bonus)} more")))
            if profile.road_max is not None and profile.road_max_rule:
                reasons.append(Reason(profile.road_max_rule, f"{rulebook.names[profile.road_max_rule]}: a move wholly "
                                                             f"on road may reach {_plural(profile.road_max)}"))
        if state.stop is not None:
            reasons.append(state.stop)
        reasons.extend(why)
        hazards = tuple(r for h in state.path[1:] for r in m.hazards(h))
        options.append(MoveOption(end, state.path, state.cost, ok, change, tuple(dict.fromkeys(reasons)),
                                  tuple(instead), hazards))
    options.sort(key=lambda o: (o.end.row, o.end.col))
    reach = profile.allowance_for(m.on_road(unit.hex))
    reached = {o.end: o for o in options}
    unreachable: list[tuple[Hex, tuple[Reason, ...]]] = []
    for h in _within(situation, unit.hex, reach):
        if h == unit.hex or h in reached:
            continue
        reasons = list(blocked.get(h, ()))
        if not reasons:
            for n in situation.board.neighbours(h):
                via = reached.get(n)
                stop = next((st.stop for st in found.get(n, ()) if st.stop is not None), None)
                if via is not None and stop is not None and all(st.stop is not None for st in found[n]):
                    reasons.append(Reason(stop.rule, f"The way through {hex_text(situation, n)} ends there: "
                                                     f"{stop.text}"))
        if not reasons:
            for n in situation.board.neighbours(h):
                climbs = [c for st in found.get(n, ()) if st.cost >= reach for c in st.costs]
                reasons.extend(Reason(c.rule, f"{c.text}, so the way through {hex_text(situation, n)} uses the whole "
                                              f"{_plural(reach)}") for c in climbs[:1])
        if not reasons:
            reasons.append(Reason(MOVEMENT, (
                f"No legal way to {hex_text(situation, h)} within {_plural(profile.allowance)}: every way is "
                "blocked, ends on a must-stop hex or costs more than the unit may move")))
        unreachable.append((h, tuple(dict.fromkeys(reasons))))
    return MoveRuling(unit, profile, tuple(options), tuple(unreachable), (), profile.notes, card, combat_card,
                      after_battle)


def _leaving_notes(situation: Situation, rulebook: Rulebook, unit: Unit) -> tuple[Reason, ...]:
    """What the unit takes off the board by leaving its hex: sandbags (``removed_when_occupant_leaves``)."""
    out: list[Reason] = []
    for feature in situation.hex_state(unit.hex).features():
        entry = rulebook.rules.get(feature)
        if isinstance(entry, HexRules) and entry.removed_when_occupant_leaves:
            out.append(say("move.removes_obstacle", feature, fact="removed_when_occupant_leaves",
                           unit=unit_ref(situation, rulebook, unit), obstacle=rulebook.names[feature],
                           at=hex_ref(situation.board, unit.hex)))
    return tuple(out)


def removed_on_leaving(situation: Situation, rulebook: Rulebook, unit: Unit) -> list[dict[str, Any]]:
    """The obstacles taken off the unit's hex if it moves away (``/move``'s ``removed_on_leaving``)."""
    return [{**hex_ref(situation.board, unit.hex).to_json(), "obstacle": feature}
            for feature in situation.hex_state(unit.hex).features()
            if getattr(rulebook.rules.get(feature), "removed_when_occupant_leaves", False)]


@dataclass(frozen=True)
class PathCheck:
    """How a unit's given ``path`` moved it: counted hexes, whether wholly on road, the reasons."""

    hexes_moved: int
    road_only: bool
    battle_limit: int  # road bonus and special-rule caps included
    battle_rule: str
    road_rule: str | None  # the entry that gave the road bonus, when the whole move was on road
    costs: tuple[Reason, ...]  # climb costs met on the way
    may_battle: bool
    why: tuple[Reason, ...]
    instead: tuple[Reason, ...]


def check_path(situation: Situation, rulebook: Rulebook, unit: Unit, card: str | None = None) -> PathCheck | None:
    """Validate the unit's ``path`` against the movement rules; IllegalSituation naming
    ``units[i].path`` when the unit could not have moved so. None when it gave no path."""
    if len(unit.path) < 2:
        return None
    index = next(i for i, u in enumerate(situation.units) if u.id == unit.id)
    where = f"units[{index}].path"
    profile = move_profile(situation, rulebook, unit, card, start=unit.path[0])
    if profile.why_not and not rulebook.unit(unit.profile).rules_documented:
        raise IllegalSituation(where, profile.why_not[0].text)
    m = _Mover(situation, rulebook, unit, profile, unit.path[0], check_units=False)
    cost, cap = 0, INF
    road = m.on_road(unit.path[0])
    costs: list[Reason] = []
    for i, (frm, to) in enumerate(zip(unit.path, unit.path[1:], strict=False)):
        first = i == 0
        why = m.block(frm, to, first)
        if why is not None:
            raise IllegalSituation(where, why.text)
        step, cost_why = m.cost(frm, to)
        if cost_why is not None:
            costs.append(cost_why)
        cost += step
        road = road and m.on_road(to)
        onto, _ = m.cap(to)
        cap = min(cap, onto) if onto is not None else cap
        stop = m.stops(frm, to, first)
        if stop is not None and to != unit.path[-1]:
            raise IllegalSituation(where, f"{stop.text}, yet the path goes on from {hex_text(situation, to)}")
    limit = min(profile.allowance_for(road), cap)
    if cost > limit:
        raise IllegalSituation(where, f"the path counts {_plural(cost)}, more than the {_plural(limit)} "
                                      f"{rulebook.names[unit.profile]} may move here")
    ok, why_list, instead, _ = _battle_after(m, unit.hex, cost, road, unit.path)
    road_rule = (profile.road_max_rule or profile.road_bonus_rule) if road and profile.road_bonus else None
    return PathCheck(cost, road, profile.battle_limit_for(road), profile.battle_rule, road_rule, tuple(costs), ok,
                     tuple(why_list), tuple(instead))


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


def _hex(situation: Situation, h: Hex) -> dict[str, Any]:
    return {"row": h.row, "col": h.col, "label": situation.board.label(h)}


def _option_json(situation: Situation, o: MoveOption) -> dict[str, Any]:
    return {
        **_hex(situation, o.end),
        "path": [{"row": h.row, "col": h.col} for h in o.path],
        "hexes_moved": o.hexes_moved,
        "may_battle": o.may_battle,
        "battle_dice_change": o.battle_dice_change,
        "why": [r.to_dict() for r in o.why],
        "instead": [r.to_dict() for r in o.instead],
        "hazards": [r.to_dict() for r in o.hazards],
    }


def destination_json(situation: Situation, ruling: MoveRuling, to: Hex) -> dict[str, Any]:
    """"May it go *there*?": the reachable entry for ``to`` (``reachable: true``), or why not."""
    for o in ruling.reachable:
        if o.end == to:
            return {"reachable": True, **_option_json(situation, o)}
    for h, why in ruling.unreachable:
        if h == to:
            return {"reachable": False, **_hex(situation, h), "why": [r.to_dict() for r in why]}
    if to == ruling.unit.hex:
        why = [Reason(MOVEMENT, "The unit already stands there: an ordered unit need not move")]
    elif ruling.why_not:
        why = list(ruling.why_not)
    else:
        p = ruling.profile
        why = [Reason(p.allowance_rule, f"{hex_text(situation, to)} is {_plural(distance(ruling.unit.hex, to))} "
                                        f"away, farther than it may move ({_plural(p.allowance)})")]
    return {"reachable": False, **_hex(situation, to), "why": [r.to_dict() for r in why]}


def move_json(situation: Situation, rulebook: Rulebook, ruling: MoveRuling, to: Hex | None = None) -> dict[str, Any]:
    """The ``/api/v1/move`` answer (adjudicator/API.md); with ``to``, also the ruling for that hex."""
    p = ruling.profile
    extra = {"to": destination_json(situation, ruling, to)} if to is not None else {}
    return {
        "unit": ruling.unit.id,
        "card": ruling.card,
        "combat_card": ruling.combat_card,
        "after_battle": ruling.after_battle,
        "from": _hex(situation, ruling.unit.hex),
        "allowance": p.allowance if not ruling.why_not else 0,
        "allowance_rule": p.allowance_rule,
        "move_and_battle": max(p.battle_limit, 0) if not ruling.why_not else 0,
        "road_allowance": p.allowance_for(True) if p.road_bonus else p.allowance,
        "why_not": [r.to_dict() for r in ruling.why_not],
        "notes": [r.to_dict() for r in ruling.notes],
        "reachable": [_option_json(situation, o) for o in ruling.reachable],
        "removed_on_leaving": removed_on_leaving(situation, rulebook, ruling.unit) if ruling.reachable else [],
        "unreachable": [{**_hex(situation, h), "why": [r.to_dict() for r in why]} for h, why in ruling.unreachable],
        **extra,
    }
