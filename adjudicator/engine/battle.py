"""Is a battle legal, and with how many dice? (Game help summary: Battle, Range and hit dice
rolled, Line of sight, Terrain types; Winter Wars rulebook: New Troops.)

Every number comes from the rulebook and every step of the count is a ``Reason`` citing the
entry it comes from, so a referee can read the ruling aloud line by line. The order of the count
follows the game help's battle sequence: base dice for the unit and range, then the target's
terrain protection (only the single best one counts when an obstacle stands on a terrain), then
the attacker's own hex, then cards, badges and nations; dice never go below zero and a battle
with no dice left cannot be made."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from adjudicator.engine.advance import OVERRUN
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Board, Hex, distance
from adjudicator.engine.hits import DICE_RULE, HitSymbols, die_faces, hit_symbols, special_rules_in_effect
from adjudicator.engine.los import LOS_RULE, LineOfSight, hex_json, line_of_sight, los_json, plateau_group
from adjudicator.engine.movement import check_path
from adjudicator.engine.odds import Odds, battle_odds, odds_json
from adjudicator.engine.orders import OrderTerms, acting_refusals, order_summary, ordered_by_class
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import (
    CardRules,
    CombatCardRules,
    CoreRules,
    DiceModifier,
    DiceReduction,
    HexRules,
    NationRules,
    Rulebook,
    UnitRules,
)
from adjudicator.engine.situation import HexState, Situation, Unit

BATTLE_RULES = ("battle", DICE_RULE)
"""Core entries for the general battle rules, most specific first (the first that exists is cited)."""
BEACH = "beach"  # the terrain that, with open countryside, lets sandbags count
JAPANESE = "japanese"  # the nation code a ``target_japanese`` reduction protects


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


def is_a(rulebook: Rulebook, entry_id: str, family: str) -> bool:
    """``entry_id`` is ``family`` or a variant of it (``winter_forest`` is a ``forest``)."""
    seen: set[str] = set()
    current: str | None = entry_id
    while current is not None and current not in seen:
        if current == family:
            return True
        seen.add(current)
        current = rulebook.bases.get(current)
    return False


def _plural(n: int, word: str = "die") -> str:
    plurals = {"die": "dice", "hex": "hexes"}
    return f"{n} {word if abs(n) == 1 else plurals.get(word, word + 's')}"


def _elevation(rulebook: Rulebook, state: HexState) -> int:
    return max((rulebook.hex_rules(f).elevation for f in state.features()), default=0)


class _Assessor:
    """Builds one ruling; split into small steps that each append reasons."""

    def __init__(self, situation: Situation, rulebook: Rulebook, attacker: Unit, target: Unit,
                 card: str | None, combat_card: str | None) -> None:
        self.situation, self.rulebook = situation, rulebook
        self.attacker, self.target = attacker, target
        self.card, self.combat_card = card, combat_card
        self.a_rules: UnitRules = rulebook.unit(attacker.profile)
        self.t_rules: UnitRules = rulebook.unit(target.profile)
        self.a_name = rulebook.names[attacker.profile]
        self.t_name = rulebook.names[target.profile]
        self.a_class = self.a_rules.unit_class
        self.a_state = situation.hex_state(attacker.hex)
        self.t_state = situation.hex_state(target.hex)
        self.distance = distance(attacker.hex, target.hex)
        core = rulebook.rules.get(DICE_RULE)
        close_range = core.close_assault_range if isinstance(core, CoreRules) else None
        if close_range is None:
            raise LookupError(f"the core entry {DICE_RULE!r} must define close_assault_range")
        self.close_range = close_range
        self.close = self.distance <= close_range
        self.battle_rule = battle_rule(rulebook)
        self.why_not: list[Reason] = []
        self.breakdown: list[Reason] = []
        self.notes: list[Reason] = []
        self.overrun_battle = False

    def name(self, entry_id: str) -> str:
        return self.rulebook.names.get(entry_id, entry_id)

    # -- legality -------------------------------------------------------------------------
    def check_units(self) -> None:
        for unit, rules in ((self.attacker, self.a_rules), (self.target, self.t_rules)):
            if not rules.rules_documented:
                self.why_not.append(Reason(unit.profile, f"No rules document gives the numbers of "
                                                         f"{self.name(unit.profile)}: the engine cannot rule on it"))
        if self.attacker.side == self.target.side:
            self.why_not.append(Reason(self.battle_rule, f"{self.target.id} is a friendly unit ({self.target.side}); "
                                                         "units battle enemy units only"))
        if not self.a_rules.battles:
            self.why_not.append(Reason(self.attacker.profile, f"{self.a_name} never battles"))
        families = {self.t_rules.unit_class, self.t_rules.targeted_as} & set(self.a_rules.cannot_target)
        if families:
            kinds = "/".join(sorted(families))
            self.why_not.append(Reason(self.attacker.profile, f"{self.a_name} may not battle {kinds} units such as "
                                                              f"{self.t_name}"))

    def check_card(self) -> None:
        """What the played command card says about this unit battling (content of the card).

        A card with ``fixed_dice`` (Air Power, Barrage) is an attack by the card itself: it orders
        no unit to battle, so adding it to a unit's battle would give a wrong count. Whether the card
        may order this unit at all is ``check_turn``'s question (engine ``orders``)."""
        if not self.card:
            return
        rules = self.rulebook.rules.get(self.card)
        if not isinstance(rules, CardRules):
            return
        name = self.name(self.card)
        if rules.fixed_dice:
            dice = ", ".join(f"{side.capitalize()} {n}" for side, n in rules.fixed_dice.items())
            self.why_not.append(Reason(self.card, f"{name} orders no unit to battle: the card makes its own attack "
                                                  f"({order_summary(self.rulebook, self.card)}; dice: {dice})"))
        if not rules.ordered_units_battle:
            self.why_not.append(Reason(self.card, f"{name} orders {order_summary(self.rulebook, self.card)}: the "
                                                  "units it orders do not battle"))
        if rules.close_assault_only and not self.close and not self.overrun_battle:
            self.why_not.append(Reason(self.card, f"{name} is played for close assaults only; the target is "
                                                  f"{_plural(self.distance, 'hex')} away"))
        if not rules.ordered_units_move and self.attacker.moved > 0 and not self.overrun_battle:
            self.why_not.append(Reason(self.card, f"{name}: the units it orders may not move, and {self.attacker.id} "
                                                  f"moved {_plural(self.attacker.moved, 'hex')}"))
        if rules.orders_not_adjacent_to_enemy:
            enemy = next((u for n in self.situation.board.neighbours(self.attacker.hex)
                          if (u := self.situation.unit_at(n)) is not None and u.side != self.attacker.side), None)
            if enemy is not None:
                self.why_not.append(Reason(self.card, f"{name} orders only units with no adjacent enemy; "
                                                      f"{self.attacker.id} is next to {enemy.id}"))

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

        With the attacker's ``path`` the move is counted as the movement engine counts it (core
        ``movement``): climb costs (``steep_hill``, ``sea_bluff``), the road bonus and Winter
        Weather's whole-move-on-road third hex; the path itself must be one the unit could move."""
        moved = self.attacker.moved
        path = check_path(self.situation, self.rulebook, self.attacker, self.card)
        limit, source = self.a_rules.move_and_battle, self.attacker.profile
        card = self.rulebook.rules.get(self.card) if self.card else None
        if (isinstance(card, CardRules) and card.move_and_battle is not None and card.move_and_battle > limit
                and self.card_orders(card)):
            limit, source = card.move_and_battle, str(self.card)
            self.notes.append(Reason(source, f"{self.name(source)}: the unit it orders may move up to "
                                             f"{_plural(limit, 'hex')} and still battle"))
        for rule_id, rules in special_rules_in_effect(self.situation, self.rulebook):
            for move_limit in rules.move_limits:
                if (self.a_class in move_limit.unit_classes and move_limit.move_and_battle is not None
                        and (not move_limit.sides or self.attacker.side in move_limit.sides)
                        and move_limit.move_and_battle < limit):
                    limit, source = move_limit.move_and_battle, rule_id
        if path is not None:
            moved = path.hexes_moved
            for why in path.costs:
                self.breakdown.append(Reason(why.rule, f"{why.text} (its path): it moved {_plural(moved, 'hex')}", 0))
            if path.battle_limit > limit:
                limit, source = path.battle_limit, path.battle_rule
                self.breakdown.append(Reason(path.road_rule or source, (
                    f"Its whole move was on road: it may move {_plural(limit, 'hex')} and still battle"), 0))
        if self.close:
            for nation_id, nation in self.nations():
                value, classes = nation.close_assault_move_and_battle, nation.close_assault_unit_classes
                if value is not None and value > limit and (not classes or self.a_class in classes):
                    limit, source = value, nation_id
                    who = "/".join(classes) if classes else "its units"
                    self.notes.append(Reason(nation_id, f"{self.name(nation_id)}: {who} may move {value} hexes "
                                                        "and still close-assault"))
        if moved > limit:
            how = ("may not move and battle in the same turn" if limit == 0
                   else f"may move at most {_plural(limit, 'hex')} and still battle")
            self.why_not.append(Reason(source, f"{self.a_name} {how} ({self.name(source)}); "
                                               f"it moved {_plural(moved, 'hex')}"))
        self.check_must_clear()

    def check_must_clear(self) -> None:
        """A unit that moved onto a hex it must clear does that instead of battling (Combat
        Engineers on a minefield: ``must_clear_instead_of_battle``, Winter Wars rulebook)."""
        if self.attacker.moved == 0:
            return
        for feature in self.a_state.features():
            if feature in self.a_rules.must_clear_instead_of_battle or \
                    self.rulebook.bases.get(feature) in self.a_rules.must_clear_instead_of_battle:
                self.why_not.append(Reason(self.attacker.profile, (
                    f"{self.a_name} moved onto {self.name(feature)} this turn: it must clear it instead of battling "
                    "(if it cannot, it goes off)")))

    def card_orders(self, card: CardRules) -> bool:
        """Whether the command card's own numbers apply to the attacker (engine ``orders``)."""
        return ordered_by_class(self.rulebook, card, self.attacker)

    def check_own_hex(self) -> None:
        """Terrain of the attacker's hex that forbids battling (entering it, being in it)."""
        moved = self.attacker.moved
        for feature in self.a_state.features():
            rules = self.rulebook.hex_rules(feature)
            fname = self.name(feature)
            restricted = self.a_class in rules.no_battle_after_entering or (
                rules.battle_after_entering_max_moved is not None and not rules.no_battle_after_entering)
            if moved > 0 and restricted:
                if self.a_rules.battles_after_entering_any_terrain:
                    self.notes.append(Reason(self.attacker.profile, f"{self.a_name} may battle on the turn it "
                                                                    f"enters {fname}"))
                elif moved <= (rules.battle_after_entering_max_moved if rules.battle_after_entering_max_moved
                               is not None else -1):
                    self.notes.append(Reason(feature, f"It entered {fname} moving only "
                                                      f"{_plural(moved, 'hex')}, so it may still battle"))
                else:
                    self.why_not.append(Reason(feature, f"A unit that moved into {fname} this turn may not battle "
                                                        f"(it moved {_plural(moved, 'hex')})"))
            if self.a_class in rules.cannot_battle_in and not self.a_rules.battles_in_any_terrain:
                self.why_not.append(Reason(feature, f"{self.a_name} cannot battle while in {fname}"))
        self.check_left_hex()

    def check_left_hex(self) -> None:
        """Terrain the attacker left this turn that forbids battling (armor leaving a marsh).

        Known only when the situation gives the unit's ``moved_from`` hex; otherwise say that a
        referee must check it, where the unit's class has such a rule somewhere on the board."""
        start, here, moved = self.attacker.moved_from, self.attacker.hex, self.attacker.moved
        if start is None:
            if moved == 0:
                return
            for h, state in self.situation.hexes.items():
                if h == here or distance(h, here) > moved:
                    continue
                for feature in state.features():
                    if self.a_class in self.rulebook.hex_rules(feature).no_battle_after_leaving:
                        self.notes.append(Reason(feature, (
                            f"If {self.attacker.id} left {self.name(feature)} this turn it may not battle; give "
                            f"its moved_from hex to check")))
            return
        if start == here:
            return
        for feature in self.situation.hex_state(start).features():
            rules = self.rulebook.hex_rules(feature)
            if self.a_class in rules.no_battle_after_leaving:
                self.why_not.append(Reason(feature, f"{self.a_name} left {self.name(feature)} this turn, and "
                                                    f"{self.a_class} leaving it may not battle that turn"))

    def check_in_or_out(self) -> None:
        """Hexes battled into or out of only from an adjacent hex (wadis, gullies)."""
        for feature in dict.fromkeys((*self.a_state.features(), *self.t_state.features())):
            rules = self.rulebook.hex_rules(feature)
            if self.a_class not in rules.adjacent_only_in_or_out:
                continue
            inside_a = any(is_a(self.rulebook, f, feature) for f in self.a_state.features())
            inside_t = any(is_a(self.rulebook, f, feature) for f in self.t_state.features())
            if inside_a != inside_t and not self.close:
                self.why_not.append(Reason(feature, f"Units battle into or out of {self.name(feature)} only from an "
                                                    "adjacent hex"))

    def check_adjacent_enemy(self) -> None:
        if self.close:
            return
        for n in self.situation.board.neighbours(self.attacker.hex):
            other = self.situation.unit_at(n)
            if other is not None and other.side != self.attacker.side:
                self.why_not.append(Reason(self.battle_rule, f"{self.attacker.id} is adjacent to enemy unit "
                                                             f"{other.id}: a unit next to an enemy that battles must "
                                                             "close-assault an adjacent enemy, not fire farther"))
                return

    def check_target_hidden(self) -> None:
        for badge in self.target.badges:
            if getattr(self.rulebook.rules.get(badge), "targetable_only_in_close_assault", False) and not self.close:
                self.why_not.append(Reason(badge, f"{self.target.id} is under {self.name(badge)}: it may be "
                                                  "battled only in close assault"))

    def check_overrun_battle(self) -> None:
        """An overrun battle is made only by a unit whose entry says ``can_overrun`` (core ``armor_overrun``)."""
        if not self.a_rules.can_overrun:
            self.why_not.append(Reason(self.attacker.profile, f"{self.a_name} never makes an armor overrun, so this "
                                                              "battle cannot be one"))
        else:
            self.notes.append(Reason(OVERRUN, f"{self.attacker.id} battles as an armor overrun, after taking ground"))

    def note_badges_lost(self) -> None:
        """Markers the attacker gives up by battling (Camouflage: ``lost_when`` of the marker entry)."""
        for badge in self.rulebook.badges_lost(self.attacker.badges, "battles"):
            self.notes.append(Reason(badge, f"By battling, {self.attacker.id} loses its {self.name(badge)}: "
                                            "remove the token"))
        if self.attacker.moved:
            for badge in self.rulebook.badges_lost(self.attacker.badges, "moves"):
                self.notes.append(Reason(badge, f"{self.attacker.id} moved this turn, which already removed its "
                                                f"{self.name(badge)}"))

    def check_line_of_sight(self, clear: bool, los: Callable[[], LineOfSight]) -> None:
        """A blocked line makes the battle illegal for a unit that needs one; the reason names
        every blocker, so only then is the line itself walked (``los``)."""
        if not self.a_rules.needs_los:
            self.notes.append(Reason(self.attacker.profile, f"{self.a_name} needs no line of sight"))
            return
        if not clear:
            where = "; ".join(dict.fromkeys(b.reason for b in los().blocked_by))
            self.why_not.append(Reason(LOS_RULE, f"No line of sight: {where}"))

    # -- dice -----------------------------------------------------------------------------
    def base_dice(self) -> int | None:
        """Dice by profile and range; None (with a reason) when out of range or never battling."""
        table, how = self.a_rules.dice, ""
        for terrain, terrain_table in self.a_rules.dice_on_terrain.items():
            if any(is_a(self.rulebook, f, terrain) for f in self.a_state.features()):
                table, how = terrain_table, f" on {self.name(terrain)}"
                break
        else:
            if self.attacker.moved == 0 and self.a_rules.dice_unmoved:
                table, how = self.a_rules.dice_unmoved, " that did not move this turn"
        if not table:
            if self.a_rules.battles:
                self.why_not.append(Reason(self.attacker.profile, f"{self.a_name} has no battle dice"))
            return None
        if self.distance > len(table):
            extra = ""
            if self.a_rules.dice_unmoved and len(self.a_rules.dice_unmoved) >= self.distance and self.attacker.moved:
                extra = " (farther only when it has not moved)"
            self.why_not.append(Reason(self.attacker.profile, f"Out of range: {self.a_name}{how} battles at most "
                                                              f"{_plural(len(table), 'hex')} away{extra}; the target "
                                                              f"is {_plural(self.distance, 'hex')} away"))
            return None
        dice = table[self.distance - 1]
        mode = (f"in close assault (range {self.distance})" if self.close
                else f"firing at range {self.distance}")
        self.breakdown.append(Reason(self.attacker.profile, f"{self.a_name}{how} {mode}: {_plural(dice)}", dice))
        return dice

    def ignores_target_terrain(self) -> str | None:
        """Why the attacker ignores its target's terrain protection, or None."""
        mode, ranges = self.a_rules.ignores_target_terrain, self.a_rules.ignores_target_terrain_ranges
        if mode == "never" or (ranges and self.distance not in ranges):
            return None
        at = f" at range {self.distance}" if ranges else ""
        if mode == "always":
            return f"{self.a_name} ignores the terrain protection of its target{at}"
        if mode == "unmoved" and self.attacker.moved == 0:
            return f"{self.a_name} did not move, so it ignores the terrain protection of its target{at}"
        if mode == "close_assault" and self.close:
            return f"In close assault {self.a_name} ignores the terrain protection of its target{at}"
        return None

    def target_terrain(self) -> int:
        """The single best reduction among the target hex's terrain and obstacle."""
        offers: list[tuple[int, str, str]] = []  # (dice removed, feature, sentence)
        for feature in self.t_state.features():
            offer = self.reduction(feature)
            if offer is not None:
                offers.append(offer)
        if not offers:
            return 0
        ignoring = self.ignores_target_terrain()
        if ignoring is not None and any(amount for amount, _, _ in offers):
            self.breakdown.append(Reason(self.attacker.profile, ignoring, 0))
            return 0
        best = max(offers, key=lambda o: o[0])
        cap = self.a_rules.close_assault_max_target_reduction
        if self.close and cap is not None and best[0] > cap:
            self.breakdown.append(Reason(best[1], best[2], -best[0]))
            self.breakdown.append(Reason(self.attacker.profile, (
                f"In close assault {self.a_name} loses at most {_plural(cap)} to its target's terrain"), best[0] - cap))
            best = (cap, best[1], best[2])
        else:
            self.breakdown.append(Reason(best[1], best[2], -best[0]))
        for amount, feature, text in offers:
            if feature == best[1]:
                continue
            if amount and best[0]:
                text = (f"{self.name(feature)} would remove {_plural(amount)}, but only the single best reduction "
                        f"counts when an obstacle is on a terrain ({self.name(best[1])} gives {_plural(best[0])})")
            self.breakdown.append(Reason(feature, text, 0))
        return best[0]

    def reduction(self, feature: str) -> tuple[int, str, str] | None:
        rules = self.rulebook.hex_rules(feature)
        if not rules.dice_reductions:
            return None
        fname = self.name(feature)
        terrain = self.rulebook.kinds.get(feature) == "terrain"
        where = f"Target in {fname}" if terrain else f"Target protected by {fname}"
        failed: list[str] = []
        for reduction in rules.dice_reductions:
            holds, explained = self.conditions(feature, rules, reduction)
            if not holds:
                failed.append(explained)
                continue
            amount = reduction.dice.get(self.a_class, 0)
            condition = f" ({explained})" if explained else ""
            if amount:
                text = f"{where}{condition}: {self.a_class} attackers -{_plural(amount)}"
            else:
                text = f"{where}{condition}: {self.a_class} attackers lose no dice"
            return amount, feature, text
        return 0, feature, f"{where}, but no reduction applies: {'; '.join(failed)}"

    def conditions(self, feature: str, rules: HexRules, reduction: DiceReduction) -> tuple[bool, str]:
        """Whether every ``when`` condition of a reduction holds, with the explanation."""
        said: list[str] = []
        for condition in reduction.when:
            holds, text = self.condition(feature, rules, condition)
            if not holds:
                return False, text
            said.append(text)
        return True, "; ".join(t for t in said if t)

    def condition(self, feature: str, rules: HexRules, condition: str) -> tuple[bool, str]:
        a_elev, t_elev = _elevation(self.rulebook, self.a_state), _elevation(self.rulebook, self.t_state)
        if condition == "from_below":
            if a_elev < t_elev:
                return True, "the attacker battles from below"
            return False, "the attacker is not below the target"
        if condition == "owner_only":
            owner = self.t_state.owner
            if owner is None:
                return True, (f"no original owner is given for the {self.name(feature)}, so the occupant "
                              f"({self.target.side}) is assumed to be its owner")
            if owner == self.target.side:
                return True, f"the occupant belongs to its original owner ({owner})"
            return False, f"it protects only its original owner ({owner}), not {self.target.side}"
        if condition == "on_countryside_or_beach":
            terrain = self.t_state.terrain
            if terrain is None or is_a(self.rulebook, terrain, BEACH):
                return True, ""
            return False, f"it counts only on countryside or beach, not on {self.name(terrain)}"
        if condition == "target_japanese":
            if self.target.nation == JAPANESE:
                return True, "the target is Japanese"
            return False, "it protects Japanese units only"
        if condition == "attacker_not_in_same_terrain":
            if any(is_a(self.rulebook, f, feature) or is_a(self.rulebook, feature, f) for f in self.a_state.features()):
                return False, f"the attacker is itself in {self.name(feature)}"
            return True, ""
        if condition == "not_same_plateau":
            group = (plateau_group(self.situation, self.rulebook, self.target.hex, rules.plateau)
                     if rules.plateau else None)
            if group is not None and self.attacker.hex in group:
                return False, f"the attacker stands on the same {self.name(feature)} group at the same height"
            return True, "the attacker is not on the same group at the same height"
        raise LookupError(f"unknown reduction condition {condition!r} on {feature!r}")

    def own_terrain(self) -> int:
        """The attacker's own hex penalty (``battle_out``), best one only."""
        penalties = [(self.rulebook.hex_rules(f).battle_out.get(self.a_class, 0), f) for f in self.a_state.features()]
        penalties = [(amount, f) for amount, f in penalties if amount]
        if not penalties:
            return 0
        mode = self.a_rules.ignores_own_terrain
        where = self.a_rules.ignores_own_terrain_in
        if where and not any(is_a(self.rulebook, f, w) for _, f in penalties for w in where):
            mode = "never"  # Tank Destroyer: only inside a town or village, not out of a ford or balka
        if mode == "always" or (mode == "unmoved" and self.attacker.moved == 0):
            why = "did not move, so it " if mode == "unmoved" else ""
            self.breakdown.append(Reason(self.attacker.profile, f"{self.a_name} {why}ignores the battle restrictions "
                                                                "of its own hex", 0))
            return 0
        amount, feature = max(penalties)
        self.breakdown.append(Reason(feature, f"{self.a_name} battling out of {self.name(feature)}: "
                                              f"-{_plural(amount)}", -amount))
        return amount

    def rule_in_effect(self, rule: str) -> bool:
        """``rule`` is a situation ``rules`` id, or the content id of the entry that defines one."""
        situation_id = getattr(self.rulebook.rules.get(rule), "situation_id", None)
        return self.situation.rule(rule) or (bool(situation_id) and self.situation.rule(situation_id))

    def nations(self) -> list[tuple[str, NationRules]]:
        nation = self.attacker.nation
        if not nation:
            return []
        found: list[tuple[str, NationRules]] = []
        for entry_id in self.rulebook.ids_of_kind("nation"):
            rules = self.rulebook.rules[entry_id]
            if not isinstance(rules, NationRules) or nation not in rules.nation_codes:
                continue
            if rules.requires_rule and not self.rule_in_effect(rules.requires_rule):
                continue
            found.append((entry_id, rules))
        return found

    def modifier_sources(self) -> Iterable[tuple[str, tuple[DiceModifier, ...]]]:
        for entry_id, kind in ((self.card, CardRules), (self.combat_card, CombatCardRules)):
            rules = self.rulebook.rules.get(entry_id) if entry_id else None
            if entry_id and isinstance(rules, kind):
                yield entry_id, rules.dice_modifiers
        for badge in self.attacker.badges:
            yield badge, getattr(self.rulebook.rules.get(badge), "dice_modifiers", ())
        for nation_id, rules in self.nations():
            yield nation_id, rules.dice_modifiers

    def modifier_applies(self, m: DiceModifier) -> tuple[bool, str]:
        said: list[str] = []
        if m.unit_classes:
            if self.a_class not in m.unit_classes:
                return False, ""
            said.append("/".join(m.unit_classes))
        if m.units:
            if self.attacker.profile not in m.units and self.attacker.type not in m.units:
                return False, ""
            said.append("/".join(self.name(u) for u in m.units))
        if m.range == "close_assault":
            if not self.close:
                return False, ""
            said.append("in close assault")
        elif m.range == "ranged":
            if self.close:
                return False, ""
            said.append("when firing")
        if m.full_strength:
            if not self.attacker.full_strength:
                return False, ""
            said.append("at full strength")
        if m.attacker_terrain:
            if not any(is_a(self.rulebook, f, t) for f in self.a_state.features() for t in m.attacker_terrain):
                return False, ""
            said.append("on " + "/".join(self.name(t) for t in m.attacker_terrain))
        if m.nations:
            if self.attacker.nation not in m.nations:
                return False, ""
            said.append("/".join(m.nations))
        return True, ", ".join(said)

    def modifiers(self) -> int:
        total = 0
        for source, modifiers in self.modifier_sources():
            for m in modifiers:
                applies, when = self.modifier_applies(m)
                if not applies:
                    continue
                sign = "+" if m.amount >= 0 else "-"
                when = f" ({when})" if when else ""
                self.breakdown.append(Reason(source, f"{self.name(source)}{when}: {sign}{_plural(abs(m.amount))}",
                                             m.amount))
                total += m.amount
        return total


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
            a.breakdown.append(Reason(DICE_RULE, f"Battle dice never go below zero (+{-total} to reach 0)", -total))
        dice = max(0, total)
        if dice == 0:
            a.why_not.append(Reason(DICE_RULE, "No battle dice are left after the reductions, so the battle cannot "
                                               "be made"))
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


def unit_json(board: Board, unit: Unit, rulebook: Rulebook) -> dict[str, Any]:
    return {"id": unit.id, "side": unit.side, "type": unit.type, "profile": unit.profile,
            "profile_name": rulebook.names[unit.profile], **hex_json(board, unit.hex),
            "figures": unit.figures, "moved": unit.moved}


def ruling_json(situation: Situation, rulebook: Rulebook, ruling: BattleRuling) -> dict[str, Any]:
    """The battle-ruling fields of the ``/api/v1/battle`` answer (adjudicator/API.md)."""
    board = situation.board
    los = los_json(board, ruling.los)
    return {
        "attacker": unit_json(board, ruling.attacker, rulebook),
        "target": unit_json(board, ruling.target, rulebook),
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
        "probabilities": odds_json(ruling.odds) if ruling.odds is not None else None,
    }
