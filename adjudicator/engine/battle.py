"""Is a battle legal, and with how many dice? (Game help summary: Battle, Range and hit dice
rolled, Line of sight, Terrain types; Winter Wars rulebook: New Troops.)

Every number comes from the rulebook and every step of the count is a ``Reason`` citing the
entry it comes from, so a referee can read the ruling aloud line by line. The order of the count
follows the game help's battle sequence: base dice for the unit and range, then the target's
terrain protection (only the single best one counts when an obstacle stands on a terrain), then
the attacker's own hex, then cards, badges and nations; dice never go below zero and a battle
with no dice left cannot be made."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from adjudicator.engine.battle_dice import BattleCount
from adjudicator.engine.core_ids import BATTLE_RULES, DICE_RULE, LOS_RULE, OVERRUN
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Board, Hex, distance, hex_json
from adjudicator.engine.hits import HitSymbols, die_faces, hit_symbols
from adjudicator.engine.lookups import card_orders, is_a, special_rules_in_effect
from adjudicator.engine.los import LineOfSight, line_of_sight, los_json
from adjudicator.engine.moved import move_made
from adjudicator.engine.movement import limit_fact
from adjudicator.engine.odds import Odds, battle_odds
from adjudicator.engine.orders import OrderTerms, acting_refusals, order_summary
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import say, unit_ref


@dataclass(frozen=True)
class BattleRuling:
    """Everything the engine can say about one unit battling another.

    ``los_clear`` is the line-of-sight verdict; ``los`` (the whole ruling on the line, with every
    reason) and ``odds`` (exact, in fractions) are worked out on first use, so a caller that needs
    neither (the fire map, which reads the verdict from a ``sight_map``) never walks the line nor
    convolves the dice."""

    attacker: Unit
    target: Unit
    distance: int
    close_assault: bool
    why_not: tuple[Reason, ...]
    los_needed: bool
    los_clear: bool
    line_ruling: Callable[[], LineOfSight] = field(repr=False, compare=False)
    dice: int
    breakdown: tuple[Reason, ...]
    hits: HitSymbols
    odds_of: Callable[[], Odds | None] = field(repr=False, compare=False)
    notes: tuple[Reason, ...] = ()
    card: str | None = None
    combat_card: str | None = None
    overrun_battle: bool = False  # this battle is itself an armor overrun

    @property
    def legal(self) -> bool:
        return not self.why_not

    @cached_property
    def los(self) -> LineOfSight:
        """The ``line_of_sight`` ruling for the pair (content ``line_of_sight``), the same whether
        it was worked out with the battle or is worked out now."""
        return self.line_ruling()

    @cached_property
    def odds(self) -> Odds | None:
        """The exact odds of the battle (``odds.battle_odds``); None when it may not be made."""
        return self.odds_of()


def resolve_entry(rulebook: Rulebook, name: object, field: str, *kinds: str) -> str | None:
    """Content id for a request's optional card field; IllegalSituation naming ``field`` if unknown."""
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip():
        raise IllegalSituation(field, "must be a non-empty string naming a card")
    entry_id = rulebook.resolve(name, *kinds)
    if entry_id is None:
        known = ", ".join(sorted(rulebook.ids_of_kind(*kinds))) or "none in the content yet"
        raise IllegalSituation(field, f"unknown {' or '.join(k.replace('_', ' ') for k in kinds)} {name!r}; "
                                      f"known: {known}")
    return entry_id


def battle_rule(rulebook: Rulebook) -> str:
    """The core entry to cite for general battle rules (``battle`` when the content has it)."""
    return next(r for r in BATTLE_RULES if r in rulebook.kinds)


class _Assessor(BattleCount):
    """Builds one ruling: the dice count (``engine.battle_dice``) and the checks that may make the
    battle illegal, each appending its reasons."""

    # -- legality -------------------------------------------------------------------------
    def check_units(self) -> None:
        for unit, rules in ((self.attacker, self.a_rules), (self.target, self.t_rules)):
            if not rules.rules_documented:
                self.why_not.append(say("battle.undocumented", unit.profile, fact="rules_documented",
                                        unit=unit_ref(self.situation, self.rulebook, unit)))
        if self.attacker.side == self.target.side:
            self.why_not.append(say("battle.friendly", self.battle_rule, target=self.whom))
        if not self.a_rules.battles:
            self.why_not.append(say("battle.never_battles", self.attacker.profile, fact="battles", unit=self.who))
        families = {self.t_rules.unit_class, self.t_rules.targeted_as} & set(self.a_rules.cannot_target)
        if families:
            self.why_not.append(say("battle.cannot_target", self.attacker.profile, fact="cannot_target",
                                    unit=self.who, classes=tuple(sorted(families)), target=self.whom))
        if {self.target.profile, self.target.type} & set(self.a_rules.cannot_target_units):
            self.why_not.append(say("battle.cannot_target_unit", self.attacker.profile, fact="cannot_target_units",
                                    unit=self.who, target=self.whom))

    def check_card(self) -> None:
        """What the played command card says about this unit battling (content of the card).

        A card with ``fixed_dice`` (Air Power, Barrage) is an attack by the card itself: it orders
        no unit to battle, so adding it to a unit's battle would give a wrong count. Whether the card
        may order this unit at all is ``check_turn``'s question (engine ``orders``)."""
        rules = self.rulebook.card(self.card)
        if self.card is None or rules is None:
            return
        card = self.entry(self.card)
        if rules.fixed_dice:
            self.why_not.append(say("battle.card_attacks_itself", self.card, fact="fixed_dice", card=card,
                                    orders=order_summary(self.rulebook, self.card),
                                    fixed=tuple(f"{side.capitalize()} {n}"
                                                                    for side, n in rules.fixed_dice.items())))
        if not rules.ordered_units_battle:
            self.why_not.append(say("battle.card_no_battle", self.card, fact="ordered_units_battle", card=card,
                                    orders=order_summary(self.rulebook, self.card)))
        if rules.close_assault_only and not self.close and not self.overrun_battle:
            self.why_not.append(say("battle.card_close_assault_only", self.card, fact="close_assault_only", card=card,
                                    distance=self.distance))
        if not rules.ordered_units_move and self.attacker.moved > 0 and not self.overrun_battle:
            self.why_not.append(say("battle.card_no_move", self.card, fact="ordered_units_move", card=card,
                                    unit=self.who, moved=self.attacker.moved))
        if rules.orders_not_adjacent_to_enemy:
            enemy = next((u for n in self.situation.board.neighbours(self.attacker.hex)
                          if (u := self.situation.unit_at(n)) is not None and u.side != self.attacker.side), None)
            if enemy is not None:
                self.why_not.append(say("battle.card_adjacent_enemy", self.card, fact="orders_not_adjacent_to_enemy",
                                        card=card, unit=self.who,
                                        enemy=unit_ref(self.situation, self.rulebook, enemy)))

    def check_turn(self, terms: OrderTerms | None) -> None:
        """The turn state and the card's order (engine ``orders``, core ``ordering``): a unit not
        ordered, a second battle no rule allows, a unit the card could not order, or one it orders
        only On the Move."""
        refusals, notes = acting_refusals(self.situation, self.rulebook, self.attacker, terms, "battle",
                                          self.overrun_battle)
        self.why_not.extend(refusals)
        self.notes.extend(notes)

    def check_movement(self) -> None:
        """Moving farther than the unit may and still battle (unit, card, special rules, nation).

        The move is counted along the path the attacker moved (``engine.moved``: given, or found
        from ``moved`` and ``moved_from``), as the movement engine counts it (core ``movement``):
        climb costs (``steep_hill``, ``sea_bluff``), the road bonus and Winter Weather's
        whole-move-on-road third hex; the path itself must be one the unit could move."""
        moved = self.attacker.moved
        made = move_made(self.situation, self.rulebook, self.attacker, self.card)
        if made.note is not None:
            self.notes.append(made.note)
        path = made.check
        limit, source = self.a_rules.move_and_battle, self.attacker.profile
        card = self.rulebook.card(self.card)
        if (self.card is not None and card is not None and card.move_and_battle is not None
                and card.move_and_battle > limit and card_orders(self.rulebook, card, self.attacker)):
            limit, source = card.move_and_battle, self.card
            self.notes.append(say("battle.card_move_and_battle", source, fact="move_and_battle",
                                  card=self.entry(source), n=limit))
        for rule_id, rules in special_rules_in_effect(self.situation, self.rulebook):
            for move_limit in rules.move_limits:
                if (self.a_class in move_limit.unit_classes and move_limit.move_and_battle is not None
                        and (not move_limit.sides or self.attacker.side in move_limit.sides)
                        and move_limit.move_and_battle < limit):
                    limit, source = move_limit.move_and_battle, rule_id
        if path is not None:
            moved = path.hexes_moved
            for why in path.costs:
                self.breakdown.append(say("battle.path_climb", why.rule, fact=why.fact, dice=0,
                                          terrain=why.param_map["terrain"], climb=why.param_map["n"], moved=moved))
            if path.battle_limit > limit:
                limit, source = path.battle_limit, path.battle_rule
                self.breakdown.append(say("battle.path_road", path.road_rule or source, dice=0, n=limit))
        if self.close:
            limit, source = self.close_assault_move(limit, source)
        if moved > limit:
            fact = limit_fact(self.rulebook, source, "move_and_battle")
            if limit == 0:
                self.why_not.append(say("battle.no_move_and_battle", source, fact=fact, unit=self.who,
                                        entry=self.entry(source), moved=moved))
            else:
                self.why_not.append(say("battle.too_far_to_battle", source, fact=fact, unit=self.who, limit=limit,
                                        entry=self.entry(source), moved=moved))
        self.check_must_clear()

    def close_assault_move(self, limit: int, source: str) -> tuple[int, str]:
        """A nation's longer move into a close assault (Banzai: ``close_assault_move_and_battle``)."""
        for nation_id, nation in self.nations():
            value, classes = nation.close_assault_move_and_battle, nation.close_assault_unit_classes
            if value is not None and value > limit and (not classes or self.a_class in classes):
                limit, source = value, nation_id
                self.notes.append(say(f"battle.close_assault_move{'_classes' if classes else ''}", nation_id,
                                      fact="close_assault_move_and_battle", nation=self.entry(nation_id), n=value,
                                      classes=classes))
        return limit, source

    def check_must_clear(self) -> None:
        """A unit that moved onto a hex it must clear does that instead of battling (Combat
        Engineers on a minefield: ``must_clear_instead_of_battle``, Winter Wars rulebook)."""
        if self.attacker.moved == 0:
            return
        for feature in self.a_state.features():
            if feature in self.a_rules.must_clear_instead_of_battle or \
                    self.rulebook.bases.get(feature) in self.a_rules.must_clear_instead_of_battle:
                self.why_not.append(say("battle.must_clear", self.attacker.profile, fact="must_clear_instead_of_battle",
                                        unit=self.who, terrain=self.entry(feature)))

    def check_own_hex(self) -> None:
        """Terrain of the attacker's hex that forbids battling (entering it, being in it)."""
        moved = self.attacker.moved
        for feature in self.a_state.features():
            rules = self.rulebook.hex_rules(feature)
            terrain = self.entry(feature)
            most = rules.battle_after_entering_max_moved
            restricted = self.a_class in rules.no_battle_after_entering or (
                most is not None and not rules.no_battle_after_entering)
            if moved > 0 and restricted:
                if self.a_rules.battles_after_entering_any_terrain:
                    self.notes.append(say("battle.battles_after_entering_any", self.attacker.profile,
                                          fact="battles_after_entering_any_terrain", unit=self.who, terrain=terrain))
                elif most is not None and moved <= most:
                    self.notes.append(say("battle.entered_moving_little", feature,
                                          fact="battle_after_entering_max_moved", terrain=terrain, moved=moved))
                else:
                    self.why_not.append(say("battle.no_battle_after_entering", feature,
                                            fact="no_battle_after_entering" if self.a_class in
                                            rules.no_battle_after_entering else "battle_after_entering_max_moved",
                                            terrain=terrain, moved=moved))
            if self.a_class in rules.cannot_battle_in and not self.a_rules.battles_in_any_terrain:
                self.why_not.append(say("battle.cannot_battle_in", feature, fact="cannot_battle_in", unit=self.who,
                                        terrain=terrain))
        self.check_left_hex()

    def check_left_hex(self) -> None:
        """Terrain the attacker left this turn that forbids battling (armor leaving a marsh).

        Known from the start of the path it moved (``engine.moved``); where the situation gives
        no start (no ``moved_from``, no ``path``), say too that a referee must check it, where the
        unit's class has such a rule within reach on the board."""
        here, moved = self.attacker.hex, self.attacker.moved
        made = move_made(self.situation, self.rulebook, self.attacker, self.card)
        start = made.path[0] if made.path else self.attacker.moved_from
        if not made.start_known and moved > 0:
            for h, state in self.situation.hexes.items():
                if h == here or distance(h, here) > moved:
                    continue
                for feature in state.features():
                    if self.a_class in self.rulebook.hex_rules(feature).no_battle_after_leaving:
                        self.notes.append(say("battle.maybe_left", feature, fact="no_battle_after_leaving",
                                              unit=self.who, terrain=self.entry(feature)))
        if start is None or start == here:
            return
        for feature in self.situation.hex_state(start).features():
            if self.a_class in self.rulebook.hex_rules(feature).no_battle_after_leaving:
                self.why_not.append(say("battle.left_terrain", feature, fact="no_battle_after_leaving", unit=self.who,
                                        terrain=self.entry(feature), unit_class=self.a_class))

    def check_in_or_out(self) -> None:
        """Hexes battled into or out of only from an adjacent hex (wadis, gullies)."""
        for feature in dict.fromkeys((*self.a_state.features(), *self.t_state.features())):
            rules = self.rulebook.hex_rules(feature)
            if self.a_class not in rules.adjacent_only_in_or_out:
                continue
            inside_a = any(is_a(self.rulebook, f, feature) for f in self.a_state.features())
            inside_t = any(is_a(self.rulebook, f, feature) for f in self.t_state.features())
            if inside_a != inside_t and not self.close:
                self.why_not.append(say("battle.in_or_out_adjacent", feature, fact="adjacent_only_in_or_out",
                                        terrain=self.entry(feature)))

    def check_adjacent_enemy(self) -> None:
        if self.close:
            return
        for n in self.situation.board.neighbours(self.attacker.hex):
            other = self.situation.unit_at(n)
            if other is not None and other.side != self.attacker.side:
                self.why_not.append(say("battle.must_close_assault", self.battle_rule, unit=self.who,
                                        enemy=unit_ref(self.situation, self.rulebook, other)))
                return

    def check_target_hidden(self) -> None:
        for badge in self.target.badges:
            rules = self.rulebook.badge(badge)
            if rules is not None and rules.targetable_only_in_close_assault and not self.close:
                self.why_not.append(say("battle.close_assault_only_target", badge,
                                        fact="targetable_only_in_close_assault", target=self.whom,
                                        marker=self.entry(badge)))

    def check_overrun_battle(self) -> None:
        """An overrun battle is made only by a unit whose entry says ``can_overrun`` (core ``armor_overrun``)."""
        if not self.a_rules.can_overrun:
            self.why_not.append(say("battle.never_overruns", self.attacker.profile, fact="can_overrun", unit=self.who))
        else:
            self.notes.append(say("battle.overrun_battle", OVERRUN, unit=self.who))

    def note_badges_lost(self) -> None:
        """Markers the attacker gives up by battling (Camouflage: ``lost_when`` of the marker entry)."""
        for badge in self.rulebook.badges_lost(self.attacker.badges, "battles"):
            self.notes.append(say("battle.loses_marker", badge, fact="lost_when", unit=self.who,
                                  marker=self.entry(badge)))
        if self.attacker.moved:
            for badge in self.rulebook.badges_lost(self.attacker.badges, "moves"):
                self.notes.append(say("battle.moved_lost_marker", badge, fact="lost_when", unit=self.who,
                                      marker=self.entry(badge)))

    def check_line_of_sight(self, clear: bool, los: Callable[[], LineOfSight]) -> None:
        """A blocked line makes the battle illegal for a unit that needs one; the reason names
        every blocker, so only then is the line itself walked (``los``)."""
        if not self.a_rules.needs_los:
            self.notes.append(say("battle.needs_no_los", self.attacker.profile, fact="needs_los", unit=self.who))
            return
        if not clear:
            self.why_not.append(say("battle.no_line_of_sight", LOS_RULE,
                                    blockers=tuple(dict.fromkeys(b.what for b in los().blocked_by))))


def assess_battle(
    situation: Situation,
    rulebook: Rulebook,
    attacker_id: str,
    target_id: str,
    card: str | None = None,
    combat_card: str | None = None,
    overrun_battle: bool = False,
    sight: Mapping[Hex, frozenset[Hex]] | None = None,
    order: OrderTerms | None = None,
) -> BattleRuling:
    """Rule on ``attacker_id`` battling ``target_id``: legality with every reason, dice with a
    cited breakdown, the faces that hit and the exact odds.

    ``card`` / ``combat_card`` are names or ids of a command card and a combat card; an unknown
    one raises IllegalSituation naming the field. ``overrun_battle`` says the battle is itself an
    armor overrun (core ``armor_overrun``): only a unit that may overrun can make it, and what
    follows it counts that overrun against the per-turn limit.

    ``sight`` is ``los.sight_map`` of this very situation (content ``line_of_sight``) for callers
    that rule many pairs (the fire map): when it holds the attacker's hex, the verdict is read
    from it and the line is walked only where the ruling needs its reasons (a blocked line for a
    unit that needs one); the ruling is the same as without it, reason for reason.

    ``order`` says how the card was played (its section, the card Counter-Attack copies, the
    scenario's options: engine ``orders``); without it a ``card`` is checked in any section."""
    attacker = situation.unit(attacker_id, "attacker")
    target = situation.unit(target_id, "target")
    if attacker.id == target.id:
        raise IllegalSituation("target", "a unit cannot battle itself")
    card_id = resolve_entry(rulebook, card, "card", "command_card")
    combat_id = resolve_entry(rulebook, combat_card, "combat_card", "combat_card")
    a = _Assessor(situation, rulebook, attacker, target, card_id, combat_id)
    a.overrun_battle = overrun_battle  # an overrun follows taking ground: the card's no-move rule is met
    a.check_units()
    a.check_card()
    a.check_turn(order if order is not None else OrderTerms(card_id) if card_id is not None else None)
    base = a.base_dice() if a.a_rules.battles else None
    a.check_movement()
    a.check_own_hex()
    a.check_in_or_out()
    a.check_adjacent_enemy()
    a.check_target_hidden()
    a.note_badges_lost()
    if overrun_battle:
        a.check_overrun_battle()

    def line() -> LineOfSight:
        return line_of_sight(situation, rulebook, attacker.hex, target.hex)

    if sight is not None and attacker.hex in sight:
        clear, line_ruling = target.hex in sight[attacker.hex], _once(line)
    else:
        known = line()
        clear, line_ruling = known.clear, lambda: known
    a.check_line_of_sight(clear, line_ruling)

    dice = 0
    if base is not None:
        total = base - a.target_terrain() - a.own_terrain() + a.modifiers()
        if total < 0:
            a.breakdown.append(say("battle.dice_floor", DICE_RULE, dice=-total, n=-total))
        dice = max(0, total)
        if dice == 0:
            a.why_not.append(say("battle.no_dice_left", DICE_RULE))
    hits = hit_symbols(situation, rulebook, attacker, target, a.close, card_id)
    legal = not a.why_not

    def odds() -> Odds | None:
        return battle_odds(dice, die_faces(rulebook), hits.symbols, target.figures) if legal else None

    return BattleRuling(
        attacker=attacker, target=target, distance=a.distance, close_assault=a.close,
        why_not=tuple(dict.fromkeys(a.why_not)), los_needed=a.a_rules.needs_los, los_clear=clear,
        line_ruling=line_ruling, dice=dice,
        breakdown=tuple(a.breakdown), hits=hits, odds_of=odds, notes=tuple(dict.fromkeys(a.notes)),
        card=card_id, combat_card=combat_id, overrun_battle=overrun_battle,
    )


def _once(work: Callable[[], LineOfSight]) -> Callable[[], LineOfSight]:
    """``work`` run at most once: the ruling's reason and its ``los`` share one walk of the line."""
    done: list[LineOfSight] = []

    def run() -> LineOfSight:
        if not done:
            done.append(work())
        return done[0]
    return run


def unit_json(board: Board, rulebook: Rulebook, unit: Unit) -> dict[str, Any]:
    """A unit in an answer: its id, side, type and profile (with the profile's name), hex, figures and moves."""
    return {"id": unit.id, "side": unit.side, "type": unit.type, "profile": unit.profile,
            "profile_name": rulebook.names[unit.profile], **hex_json(board, unit.hex),
            "figures": unit.figures, "moved": unit.moved}


def ruling_json(situation: Situation, rulebook: Rulebook, ruling: BattleRuling) -> dict[str, Any]:
    """The battle-ruling fields of the ``/api/v1/battle`` answer (adjudicator/API.md)."""
    board = situation.board
    los = los_json(board, ruling.los)
    return {
        "attacker": unit_json(board, rulebook, ruling.attacker),
        "target": unit_json(board, rulebook, ruling.target),
        "card": ruling.card,
        "combat_card": ruling.combat_card,
        "overrun_battle": ruling.overrun_battle,
        "legal": ruling.legal,
        "why_not": [r.to_dict() for r in ruling.why_not],
        "distance": ruling.distance,
        "close_assault": ruling.close_assault,
        "line_of_sight": {"needed": ruling.los_needed, **{k: v for k, v in los.items() if k not in ("from", "to")}},
        "dice": ruling.dice,
        "breakdown": [r.to_dict() for r in ruling.breakdown],
        "hit_symbols": list(ruling.hits.symbols),
        "hit_reasons": [r.to_dict() for r in ruling.hits.reasons],
        "notes": [r.to_dict() for r in ruling.notes],
        "probabilities": ruling.odds.to_dict() if ruling.odds is not None else None,
    }
