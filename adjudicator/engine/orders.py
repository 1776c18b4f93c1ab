"""Which units a command card may order, in which section, and what the order lets them do
(core ``ordering``; every command card's order fields; nation Gung-Ho).

Everything is read from the content: a card's ``order_groups`` (how many units, from which
section), its unit classes with the ``fallback_units`` of "1 unit of your choice" where the side
has none of them, ``orders_adjacent_to_enemy`` / ``orders_not_adjacent_to_enemy``,
``orders_weakened``, ``roll_orders`` (Their Finest Hour), ``on_the_move`` (the Breakthrough deck),
``copies_last_card`` / ``mirrors_sections`` (Counter-Attack) and a nation's ``extra_ordered_units``
(US Marines). An order is a set of *groups*, each a pool with a size; a unit may fill any group
that admits it and counts once, so a unit on a straddling hex may fill either section's group and
the legality of a selection is a matching of units to groups (``_match``).

Readings where the sources leave room (each also stated on the entry's page):

- sections are named from the ordering player's own side; the top player's are mirrored (core
  ``ordering``), and Counter-Attack mirrors a flank card to the flank facing it;
- "1 unit of your choice if none" applies where the side has no unit the card orders by class in
  the group's own reach: on the whole board for Armor Assault, Artillery Bombard and Move Out, in
  the chosen section for Infantry Assault; the unit so ordered acts as its own rules say (the
  card's move and battle numbers are for the class it names);
- the US Marines' extra unit may come from any section, and is of the kind the card orders;
  Counter-Attack gets it as the card it copies would;
- a unit a card may order only "On the Move" (outside the card's section) may not battle.

Pure: no I/O; the same code answers ``/api/v1/order`` on the server and in the browser."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.engine.geometry import SECTIONS, Section
from adjudicator.engine.lookups import admits_unit, card_orders, is_a
from adjudicator.engine.reasons import EntryRef, Reason
from adjudicator.engine.rulebook import CardRules, OrderGroup, RollOrder, Rulebook, UnitRules
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, hex_ref, join, say, unit_ref

ORDERING = "ordering"  # core entry: play a card, order units, straddling hexes, only ordered units act
BATTLE = "battle"  # core entry: each unit battles once a turn
MIRROR: dict[Section, Section] = {"left": "right", "center": "center", "right": "left"}
CARD_SECTIONS = ("card", "chosen")  # group sections the request's ``section`` gives


def mirrored(section: Section) -> Section:
    """The opponent's flank named from the other side of the table (Counter-Attack, core ``ordering``)."""
    return MIRROR[section]


@dataclass(frozen=True)
class OrderTerms:
    """The command card played and how: its section (named from the ordering player's side), the
    card Counter-Attack copies with its section as the opponent played it, the dice rolled for it
    (Their Finest Hour) and the scenario options in effect (``us_marine_corps``)."""

    card: str
    section: Section | None = None
    copied_card: str | None = None
    copied_section: Section | None = None
    rolled: tuple[tuple[str, int], ...] | None = None
    options: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Group:
    """One pool the order is counted in."""

    section: Section | None  # None: anywhere
    max: int
    rule: str  # the entry that gives the pool
    fact: str  # the field of ``rule`` that decides it
    on_the_move: bool = False
    face: str | None = None  # Their Finest Hour: the die face that gives it
    fallback: bool = False  # "1 unit of your choice": any kind of unit
    roll: RollOrder | None = None
    all_units: bool = False  # the card orders every such unit ("all")

    def label(self, rulebook: Rulebook) -> str:
        """How the pool reads in a sentence: "2 in the center", "1 On the Move"."""
        where = f" in the {self.section}" if self.section else " in any section"
        if self.on_the_move:
            return f"{self.max} On the Move"
        if self.face:
            return f"{self.max} for the {self.face} {'die' if self.max == 1 else 'dice'} rolled"
        if self.rule != ORDERING and self.rule in rulebook.kinds and rulebook.kinds[self.rule] == "nation":
            return f"{self.max} more ({rulebook.names[self.rule]})"
        return f"{self.max}{where}"


@dataclass(frozen=True)
class UnitOrder:
    """One unit of the ordering side: the sections it stands in and the pools it may fill."""

    unit: Unit
    sections: tuple[Section, ...]
    groups: tuple[int, ...]  # indices into ``OrderPlan.groups``
    why: tuple[Reason, ...]
    why_not: tuple[Reason, ...]

    @property
    def orderable(self) -> bool:
        return bool(self.groups)


@dataclass(frozen=True)
class OrderPlan:
    """What the card orders on this board for ``side``."""

    side: str
    played: str  # the card played
    card: str  # the card whose order is issued (the copied card for Counter-Attack)
    section: Section | None  # the card's section, named from ``side``
    groups: tuple[Group, ...]
    units: tuple[UnitOrder, ...]
    max_units: int
    effects: tuple[Reason, ...]
    terms: OrderTerms

    def of(self, unit_id: str) -> UnitOrder | None:
        return next((u for u in self.units if u.unit.id == unit_id), None)


def card_rules(rulebook: Rulebook, card: str) -> CardRules:
    """The rules of a command card id the request parsers have resolved."""
    rules = rulebook.card(card)
    assert rules is not None, card
    return rules


def _kinds(rulebook: Rulebook, classes: Iterable[str], units: Iterable[str] = ()) -> tuple[str, ...]:
    """The kinds of unit a card or die face names, as words: ("armor", "Half-Track")."""
    return (*classes, *(rulebook.names.get(u, u) for u in units))


def order_summary(rulebook: Rulebook, card: str) -> str:
    """The card's order in one line, made from its fields (the page shows it; reasons quote it)."""
    rules = card_rules(rulebook, card)
    name = rulebook.names[card]
    if not rules.orders_documented:
        return "not in the bundled rules documents"
    if rules.copies_last_card:
        mirror = ", a flank card mirrored to the flank facing it" if rules.mirrors_sections else ""
        return f"the order of the opponent's last command card{mirror}"
    if rules.reaction:
        return "no unit: played in the opponent's turn"
    if rules.roll_orders:
        parts = [f"{r.face}: " + (join(_kinds(rulebook, r.unit_classes, r.units), "or") + " unit"
                                  if r.unit_classes or r.units else "any unit") for r in rules.roll_orders]
        return f"1 unit per die rolled that matches ({'; '.join(parts)})"
    if not rules.order_groups:
        return f"no unit: {name} attacks by itself" if rules.fixed_dice else "no unit"
    kinds = join(_kinds(rulebook, rules.orders_unit_classes, rules.orders_units), "or") \
        if rules.orders_unit_classes else ""
    parts = []
    for i, g in enumerate(rules.order_groups):
        many = g.count == "all" or g.count > 1
        count = "all" if g.count == "all" else ("up to " if g.section is None and many else "") + str(g.count)
        where = {None: "", "card": " in the card's section", "chosen": " in one section of your choice"}.get(
            g.section, f" in the {g.section} section")
        noun = f" {kinds}{' ' if kinds else ''}{'units' if many else 'unit'}" if i == 0 else ""
        parts.append(f"{count}{noun}{where}")
    return join(tuple(parts)) + _order_conditions(rulebook, rules)


def _order_conditions(rulebook: Rulebook, rules: CardRules) -> str:
    """What ``order_summary`` adds after the pools: the conditions on the units, On the Move, the
    fallback and the units the card never orders."""
    text = ""
    single = len(rules.order_groups) == 1 and rules.order_groups[0].count == 1
    extra = []
    if rules.orders_adjacent_to_enemy:
        extra.append("next to an enemy unit")
    if rules.orders_not_adjacent_to_enemy:
        extra.append(f"with no enemy next to {'it' if single else 'them'}")
    if rules.orders_weakened:
        extra.append("that has lost figures" if single else "that have lost figures")
    if extra:
        text += " " + " and ".join(extra)
    if rules.on_the_move:
        text += f", plus {rules.on_the_move} On the Move from any section"
    if rules.fallback_units:
        text += f" ({rules.fallback_units} of your choice if you have none)"
    if rules.excludes_units:
        text += "; never a " + join(tuple(rulebook.names.get(u, u) for u in rules.excludes_units), "or")
    return text


# -- building the plan -------------------------------------------------------------------------

def _sections(situation: Situation, unit: Unit, side: str) -> tuple[Section, ...]:
    return situation.board.sections(unit.hex, situation.is_bottom(side))


def _region(group: OrderGroup, section: Section | None) -> Section | None:
    if group.section is None:
        return None
    if group.section in CARD_SECTIONS:
        return section
    assert group.section in SECTIONS
    return group.section


def _enemy_next_to(situation: Situation, unit: Unit) -> Unit | None:
    return next((u for n in situation.board.neighbours(unit.hex)
                 if (u := situation.unit_at(n)) is not None and u.side != unit.side), None)


def _card_level(situation: Situation, rulebook: Rulebook, card: str, played: str, unit: Unit,
                positioned: bool = True) -> list[Reason]:
    """Why the card may not order ``unit`` whatever the pool: units it never orders, units whose
    numbers no source gives, the enemy-adjacency and weakened conditions (adjacency only where the
    unit's hex when it was ordered is known: ``positioned``)."""
    rules = card_rules(rulebook, card)
    who = unit_ref(situation, rulebook, unit)
    out: list[Reason] = []
    u_rules: UnitRules = rulebook.unit(unit.profile)
    for entry in dict.fromkeys((card, played)):
        excluded = card_rules(rulebook, entry).excludes_units
        if {unit.profile, unit.type} & set(excluded):
            out.append(say("order.excluded", entry, fact="excludes_units", card=entry_ref(rulebook, entry), unit=who,
                           kind=entry_ref(rulebook, unit.profile)))
    if not u_rules.rules_documented:
        out.append(say("order.undocumented_unit", unit.profile, fact="rules_documented", unit=who))
    enemy = _enemy_next_to(situation, unit) if (rules.orders_adjacent_to_enemy
                                                or rules.orders_not_adjacent_to_enemy) else None
    if not positioned:
        pass
    elif rules.orders_adjacent_to_enemy and enemy is None:
        out.append(say("order.needs_adjacent_enemy", card, fact="orders_adjacent_to_enemy",
                       card=entry_ref(rulebook, card), unit=who))
    elif rules.orders_not_adjacent_to_enemy and enemy is not None:
        out.append(say("order.needs_no_adjacent_enemy", card, fact="orders_not_adjacent_to_enemy",
                       card=entry_ref(rulebook, card), unit=who, enemy=unit_ref(situation, rulebook, enemy)))
    if rules.orders_weakened and not unit.weakened:
        out.append(say("order.needs_weakened", card, fact="orders_weakened", card=entry_ref(rulebook, card), unit=who,
                       n=unit.figures))
    return out


def _roll_admits(rulebook: Rulebook, roll: RollOrder, unit: Unit) -> bool:
    return admits_unit(rulebook, unit, roll.excludes_units, roll.units, roll.unit_classes)


class _Planner:
    """Builds one ``OrderPlan``."""

    def __init__(self, situation: Situation, rulebook: Rulebook, side: str, terms: OrderTerms) -> None:
        self.situation, self.rulebook, self.side, self.terms = situation, rulebook, side, terms
        self.played = terms.card
        played_rules = card_rules(rulebook, terms.card)
        self.card = terms.copied_card if played_rules.copies_last_card and terms.copied_card else terms.card
        self.rules = card_rules(rulebook, self.card)
        self.section: Section | None = terms.section
        if self.card != self.played and terms.copied_section is not None:
            self.section = mirrored(terms.copied_section) if played_rules.mirrors_sections else terms.copied_section
        self.own = [u for u in situation.units if u.side == side]
        self.effects: list[Reason] = []
        self.pools = self.groups()
        self.ruled: dict[tuple[str, int, int, bool], UnitOrder] = {}  # one ruling per unit, hex and check

    def name(self, entry: str) -> EntryRef | str:
        """An entry as a reason names it (``wording.entry_ref``)."""
        return entry_ref(self.rulebook, entry)

    def in_region(self, unit: Unit, region: Section | None) -> bool:
        return region is None or region in _sections(self.situation, unit, self.side)

    def has_class(self, region: Section | None) -> bool:
        """Whether the side has a unit the card orders by class where the group reaches."""
        return any(self.in_region(u, region) and card_orders(self.rulebook, self.rules, u) for u in self.own)

    def groups(self) -> list[Group]:
        rules, card = self.rules, self.card
        out: list[Group] = []
        if not rules.orders_documented:
            return out
        names_class = bool(rules.orders_unit_classes)
        for g in rules.order_groups:
            region = _region(g, self.section)
            if names_class and rules.fallback_units and not self.has_class(region):
                out.append(Group(region, rules.fallback_units, card, "fallback_units", fallback=True))
                kinds = _kinds(self.rulebook, rules.orders_unit_classes, rules.orders_units)
                where = f" in the {region}" if region else ""
                self.effects.append(say("order.fallback", card, fact="fallback_units", card=self.name(card),
                                        side=self.side, kinds=kinds, where=where, n=rules.fallback_units))
            elif g.count == "all":
                out.append(Group(region, 0, card, "order_groups", all_units=True))
            else:
                out.append(Group(region, g.count, card, "order_groups"))
        if self.terms.rolled is not None:
            counts = dict(self.terms.rolled)
            for roll in rules.roll_orders:
                if counts.get(roll.face, 0) > 0:
                    out.append(Group(None, counts[roll.face], card, "roll_orders", face=roll.face, roll=roll))
        if rules.on_the_move:
            out.append(Group(None, rules.on_the_move, card, "on_the_move", on_the_move=True))
        out.extend(self.gung_ho(out))
        return out

    def gung_ho(self, groups: list[Group]) -> list[Group]:
        """The extra unit of a nation's order rule (US Marines' Gung-Ho) switched on by the scenario."""
        extra: list[Group] = []
        for entry in self.rulebook.ids_of_kind("nation"):
            nation = self.rulebook.nation(entry)
            if (not nation.extra_ordered_units
                    or entry not in self.terms.options or nation.scenario_side != self.side):
                continue
            exempt = next((c for c in nation.extra_units_not_with
                           if is_a(self.rulebook, self.card, c) or is_a(self.rulebook, self.played, c)), None)
            counted = [g for g in self.rules.order_groups]
            if exempt is not None:
                self.effects.append(say("order.gung_ho_none", entry, fact="extra_units_not_with",
                                        nation=self.name(entry), card=self.name(exempt)))
                continue
            if not counted and not self.rules.roll_orders:
                continue  # a card that orders no unit gets none more
            if self.rules.card_type == "tactic":
                low, high = nation.extra_units_tactic_range or (0, -1)
                total = sum(g.count for g in counted if isinstance(g.count, int))
                if any(g.count == "all" for g in counted) or not low <= total <= high:
                    self.effects.append(say("order.gung_ho_none", entry, fact="extra_units_tactic_range",
                                            nation=self.name(entry), card=self.name(self.card)))
                    continue
            fallback = any(g.fallback for g in groups) and not self.has_class(None)
            extra.append(Group(None, nation.extra_ordered_units, entry, "extra_ordered_units", fallback=fallback))
            self.effects.append(say("order.gung_ho", entry, fact="extra_ordered_units", nation=self.name(entry),
                                    n=nation.extra_ordered_units, card=self.name(self.card)))
        return extra

    def admits(self, group: Group, unit: Unit, positioned: bool = True) -> Reason | None:
        """None when ``group`` may take ``unit``, else why not (its section only when ``positioned``)."""
        who = unit_ref(self.situation, self.rulebook, unit)
        if positioned and group.section is not None and not self.in_region(unit, group.section):
            where = _sections(self.situation, unit, self.side)
            return say("order.wrong_section", self.card, fact="order_groups", card=self.name(self.card), unit=who,
                       where=where, section=group.section)
        if group.roll is not None:
            if _roll_admits(self.rulebook, group.roll, unit):
                return None
            kinds = _kinds(self.rulebook, group.roll.unit_classes, group.roll.units)
            return say("order.wrong_face", self.card, fact="roll_orders", face=group.roll.face, kinds=kinds,
                       unit=who)
        if group.fallback or card_orders(self.rulebook, self.rules, unit):
            return None
        example = next((u for u in self.own if self.in_region(u, group.section)
                        and card_orders(self.rulebook, self.rules, u)), None)
        kinds = _kinds(self.rulebook, self.rules.orders_unit_classes, self.rules.orders_units)
        return say("order.wrong_class", self.card, fact="orders_unit_classes", card=self.name(self.card), kinds=kinds,
                   unit=who, example=unit_ref(self.situation, self.rulebook, example) if example else "none")

    def unit_order(self, groups: list[Group], unit: Unit, positioned: bool = True) -> UnitOrder:
        """Which pools take ``unit``; ``positioned`` False: where it stood when ordered is not known
        (it moved from an unknown hex, or battles as an armor overrun), so sections and adjacency
        are not checked."""
        sections = _sections(self.situation, unit, self.side)
        refusals = _card_level(self.situation, self.rulebook, self.card, self.played, unit, positioned)
        if refusals:
            return UnitOrder(unit, sections, (), (), tuple(dict.fromkeys(refusals)))
        fits: list[int] = []
        why_not: list[Reason] = []
        for i, group in enumerate(groups):
            refusal = self.admits(group, unit, positioned)
            if refusal is None:
                fits.append(i)
            else:
                why_not.append(refusal)
        why: list[Reason] = []
        who = unit_ref(self.situation, self.rulebook, unit)
        if not groups:
            why_not = [say("order.no_units", self.card, card=self.name(self.card))]
        if fits and len(sections) > 1 and any(groups[i].section for i in fits):
            why.append(say("order.straddling", ORDERING, unit=who, sections=sections))
        if fits and all(groups[i].on_the_move for i in fits):
            why.append(say("order.only_on_the_move", self.card, fact="on_the_move", unit=who,
                           card=self.name(self.card)))
        if fits and all(groups[i].fallback for i in fits):
            why.append(say("order.of_your_choice", self.card, fact="fallback_units", unit=who,
                           card=self.name(self.card)))
        if fits and all(self.rulebook.kinds.get(groups[i].rule) == "nation" for i in fits):
            rule = groups[fits[0]].rule
            why.append(say("order.extra_unit", rule, fact="extra_ordered_units", unit=who, nation=self.name(rule)))
        return UnitOrder(unit, sections, tuple(fits), tuple(why), () if fits else tuple(dict.fromkeys(why_not)))

    def plan(self) -> OrderPlan:
        groups = self.pools
        units = [self.unit_order(groups, u) for u in self.own]
        # "all" pools hold every unit they admit
        groups = [g if not g.all_units else Group(g.section, sum(1 for u in units if i in u.groups), g.rule, g.fact,
                                                   all_units=True)
                  for i, g in enumerate(groups)]
        max_units = len(_match({u.unit.id: u.groups for u in units if u.groups}, [g.max for g in groups]))
        effects = [*self.copy_effects(), *self.effects, *card_effects(self.situation, self.rulebook, self.card)]
        return OrderPlan(self.side, self.played, self.card, self.section, tuple(groups), tuple(units), max_units,
                         tuple(dict.fromkeys(effects)), self.terms)

    def copy_effects(self) -> list[Reason]:
        if self.card == self.played:
            return []
        out = [say("order.copies", self.played, fact="copies_last_card", card=self.name(self.played),
                   copied=self.name(self.card))]
        played = card_rules(self.rulebook, self.played)
        if (self.terms.copied_section is not None and self.section is not None and played.mirrors_sections
                and self.section != self.terms.copied_section):
            out.append(say("order.mirrored", self.played, fact="mirrors_sections", copied=self.name(self.card),
                           theirs=self.terms.copied_section, ours=self.section))
        return out


def card_effects(situation: Situation, rulebook: Rulebook, card: str) -> list[Reason]:
    """What the order lets or makes the ordered units do, each from a field of the card."""
    rules = card_rules(rulebook, card)
    name = entry_ref(rulebook, card)
    kinds = _kinds(rulebook, rules.orders_unit_classes, rules.orders_units) or ("ordered",)
    out: list[Reason] = []
    if not rules.orders_documented:
        return [say("order.effect_undocumented", card, fact="orders_documented", card=name)]
    if rules.reaction:
        out.append(say("order.effect_reaction", card, fact="reaction", card=name))
    if rules.fixed_dice:
        out.append(say("order.effect_card_attack", card, fact="fixed_dice", card=name, n=rules.max_targets))
    if rules.recovers_figures:
        out.append(say("order.effect_recovers", card, fact="recovers_figures", card=name))
    if rules.dice_per_card_in_hand:
        out.append(say("order.effect_dice_per_card", card, fact="dice_per_card_in_hand", card=name))
    if not (rules.order_groups or rules.roll_orders):
        return out
    if not rules.ordered_units_move:
        out.append(say("order.effect_no_move", card, fact="ordered_units_move", card=name))
    if rules.max_move is not None:
        out.append(say("order.effect_max_move", card, fact="max_move", card=name, kinds=kinds, n=rules.max_move))
    if rules.move_and_battle is not None:
        out.append(say("order.effect_move_and_battle", card, fact="move_and_battle", card=name, kinds=kinds,
                       n=rules.move_and_battle))
    if rules.ignores_terrain_movement:
        out.append(say("order.effect_ignores_terrain", card, fact="ignores_terrain_movement", card=name))
    if not rules.ordered_units_battle:
        out.append(say("order.effect_no_battle", card, fact="ordered_units_battle", card=name))
    if rules.close_assault_only:
        out.append(say("order.effect_close_assault_only", card, fact="close_assault_only", card=name))
    for m in rules.dice_modifiers:
        when = ", ".join(w for w in (
            "/".join(m.unit_classes), {"close_assault": "in close assault", "ranged": "when firing"}.get(m.range, ""))
            if w)
        out.append(say("order.effect_dice" if m.amount > 0 else "order.effect_dice_fewer", card,
                       fact="dice_modifiers", card=name, n=abs(m.amount), when=f" ({when})" if when else ""))
    if rules.battles_per_unit > 1:
        out.append(say("order.effect_battles", card, fact="battles_per_unit", card=name, kinds=kinds,
                       n=rules.battles_per_unit))
    if rules.move_after_battle is not None:
        out.append(say("order.effect_move_after_battle", card, fact="move_after_battle", card=name,
                       n=rules.move_after_battle))
    if rules.on_the_move:
        out.append(say("order.effect_on_the_move", card, fact="on_the_move", card=name, n=rules.on_the_move))
    if rules.places_obstacle:
        out.append(say("order.effect_places", card, fact="places_obstacle", card=name,
                       obstacle=entry_ref(rulebook, rules.places_obstacle)))
    if not out:
        out.append(say("order.effect_as_usual", ORDERING))
    return out


def _match(options: Mapping[str, tuple[int, ...]], caps: list[int]) -> dict[str, int]:
    """The largest assignment of units to pools: unit id -> pool index, no pool over its size.

    Augmenting paths (each unit tries its pools, moving units already placed when they have
    room elsewhere), so a straddling unit is put where it leaves the most room."""
    slots: list[list[str]] = [[] for _ in caps]
    assigned: dict[str, int] = {}

    def place(unit: str, seen: set[int]) -> bool:
        for g in options[unit]:
            if g in seen or caps[g] <= 0:
                continue
            seen.add(g)
            if len(slots[g]) < caps[g]:
                slots[g].append(unit)
                assigned[unit] = g
                return True
            for other in list(slots[g]):
                if place(other, seen):
                    slots[g].remove(other)
                    slots[g].append(unit)
                    assigned[unit] = g
                    return True
        return False

    for unit in options:
        place(unit, set())
    return assigned


def plan_order(situation: Situation, rulebook: Rulebook, side: str, terms: OrderTerms) -> OrderPlan:
    """Which of ``side``'s units ``terms.card`` may order, in which pools, and what it lets them do."""
    return _Planner(situation, rulebook, side, terms).plan()


def _cached_planner(situation: Situation, rulebook: Rulebook, side: str, terms: OrderTerms) -> _Planner:
    """The planner for ``side`` and ``terms``, made once per situation (``Situation.memo``): the
    fire map asks about every pair's attacker."""
    key = ("order_planner", side, terms)
    planner = situation.memo.get(key)
    if not isinstance(planner, _Planner):
        planner = situation.memo[key] = _Planner(situation, rulebook, side, terms)
    return planner


# -- the selection -----------------------------------------------------------------------------

@dataclass(frozen=True)
class SelectionRuling:
    legal: bool
    why_not: tuple[Reason, ...]
    assignment: Mapping[str, int] = field(default_factory=dict)


def rule_selection(situation: Situation, rulebook: Rulebook, plan: OrderPlan,
                   selection: tuple[str, ...]) -> SelectionRuling:
    """Whether the units the player proposes may all be ordered together, and every reason not."""
    why_not: list[Reason] = []
    seen: set[str] = set()
    chosen: dict[str, tuple[int, ...]] = {}
    name = entry_ref(rulebook, plan.card)
    counted = "roll_orders" if card_rules(rulebook, plan.card).roll_orders else "order_groups"  # the field counted
    for unit_id in selection:
        if unit_id in seen:
            unit = situation.unit(unit_id) if unit_id in {u.id for u in situation.units} else None
            why_not.append(say("order.twice", ORDERING, unit=unit_ref(situation, rulebook, unit) if unit else unit_id))
            continue
        seen.add(unit_id)
        unit = next((u for u in situation.units if u.id == unit_id), None)
        if unit is None:
            why_not.append(say("order.unknown_unit", ORDERING, id=unit_id))
            continue
        if unit.side != plan.side:
            why_not.append(say("order.enemy_unit", ORDERING, unit=unit_ref(situation, rulebook, unit)))
            continue
        order = plan.of(unit_id)
        assert order is not None
        if not order.orderable:
            why_not.extend(order.why_not)
            continue
        chosen[unit_id] = order.groups
    assignment = _match(chosen, [g.max for g in plan.groups])
    if len(chosen) > plan.max_units:
        why_not.append(say("order.too_many", plan.card, fact=counted, card=name, n=plan.max_units,
                           chosen=len(chosen)))
    elif len(assignment) < len(chosen):
        for unit_id in chosen:
            if unit_id not in assignment:
                unit = situation.unit(unit_id)
                pools = tuple(plan.groups[g].label(rulebook) for g in chosen[unit_id])
                why_not.append(say("order.no_room", plan.card, fact=counted, card=name,
                                   unit=unit_ref(situation, rulebook, unit), pools=pools))
    return SelectionRuling(not why_not, tuple(dict.fromkeys(why_not)), assignment)


def placed_obstacles(situation: Situation, rulebook: Rulebook, plan: OrderPlan,
                     units: Iterable[str]) -> tuple[list[dict[str, Any]], list[Reason]]:
    """The obstacles the order puts on the ordered units' hexes (Dig In: sandbags, owned by the
    ordering side), and why none goes where one already stands."""
    obstacle = card_rules(rulebook, plan.card).places_obstacle
    placed: list[dict[str, Any]] = []
    skipped: list[Reason] = []
    if obstacle is None:
        return placed, skipped
    for unit_id in units:
        unit = situation.unit(unit_id)
        if obstacle in situation.hex_state(unit.hex).features():
            skipped.append(say("order.already_placed", plan.card, fact="places_obstacle",
                               obstacle=entry_ref(rulebook, obstacle), at=hex_ref(situation.board, unit.hex)))
            continue
        placed.append({"unit": unit.id, **hex_ref(situation.board, unit.hex).to_dict(), "obstacle": obstacle,
                       "owner": plan.side})
    return placed, skipped


# -- what the card says about one unit acting ------------------------------------------------------

def acting_refusals(situation: Situation, rulebook: Rulebook, unit: Unit, terms: OrderTerms | None,
                    action: str, overrun_battle: bool = False) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    """(refusals, notes) for ``unit`` moving (``action`` "move") or battling ("battle") this turn:
    a unit the situation says was not ordered; a second battle no rule allows; with a card, a unit
    the card could not order (any section when none is given), and a battle by a unit the card can
    order only On the Move."""
    refusals: list[Reason] = []
    notes: list[Reason] = []
    who = unit_ref(situation, rulebook, unit)
    card = card_rules(rulebook, terms.card) if terms is not None else None
    if card is not None and card.reaction:
        return (), ()  # the ambushing unit was not ordered: it battles in the opponent's turn
    if unit.ordered is False:
        refusals.append(say("turn.not_ordered", ORDERING, unit=who))
    if action == "battle" and unit.battled and not overrun_battle:
        rules = card_rules(rulebook, _issued(rulebook, terms)) if terms is not None else None
        if rules is not None and rules.battles_per_unit > 1 and card_orders(rulebook, rules, unit):
            notes.append(say("turn.battles_again", _issued(rulebook, terms), fact="battles_per_unit", unit=who,
                             n=rules.battles_per_unit))
        else:
            refusals.append(say("turn.battled", BATTLE, unit=who))
    if terms is None or not _knows_orders(rulebook, terms):
        return tuple(refusals), tuple(notes)
    if action == "battle" and card_rules(rulebook, _issued(rulebook, terms)).fixed_dice:
        return tuple(refusals), tuple(notes)  # the card attacks by itself: the battle ruling says so
    planner = _cached_planner(situation, rulebook, unit.side, _loose(rulebook, terms))
    start = unit.path[0] if unit.path else unit.moved_from
    positioned = not overrun_battle and (unit.moved == 0 or start is not None)
    at = start if positioned and start else unit.hex
    held = (unit.id, at.row, at.col, positioned)
    if held not in planner.ruled:
        planner.ruled[held] = planner.unit_order(planner.pools, replace(unit, hex=at), positioned)
    order = planner.ruled[held]
    if not order.orderable:
        refusals.extend(order.why_not)
    elif action == "battle" and all(planner.pools[g].on_the_move for g in order.groups):
        refusals.append(say("turn.on_the_move", planner.card, fact="on_the_move", unit=who,
                            card=entry_ref(rulebook, planner.card)))
    else:
        notes.extend(r for r in order.why if r.code != "order.straddling")
    return tuple(dict.fromkeys(refusals)), tuple(dict.fromkeys(notes))


def _issued(rulebook: Rulebook, terms: OrderTerms | None) -> str:
    assert terms is not None
    rules = card_rules(rulebook, terms.card)
    return terms.copied_card if rules.copies_last_card and terms.copied_card else terms.card


def _knows_orders(rulebook: Rulebook, terms: OrderTerms) -> bool:
    """Whether the card's order can be checked for one unit: not a copy of an unknown card, not
    a card whose order the sources leave out."""
    played = card_rules(rulebook, terms.card)
    if played.copies_last_card and terms.copied_card is None:
        return False
    return card_rules(rulebook, _issued(rulebook, terms)).orders_documented


def _loose(rulebook: Rulebook, terms: OrderTerms) -> OrderTerms:
    """Terms for "could the card order this unit at all?": every die face rolled for a card that
    orders by the roll (a star orders any unit) when no roll is given."""
    rules = card_rules(rulebook, _issued(rulebook, terms))
    if rules.roll_orders and terms.rolled is None:
        return OrderTerms(terms.card, terms.section, terms.copied_card, terms.copied_section,
                          tuple((r.face, 1) for r in rules.roll_orders), terms.options)
    return terms


# -- JSON ------------------------------------------------------------------------------------------

def plan_json(situation: Situation, rulebook: Rulebook, plan: OrderPlan,
              selection: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The ``/api/v1/order`` answer (adjudicator/API.md)."""
    out: dict[str, Any] = {
        "card": plan.played,
        "side": plan.side,
        "section": plan.section,
        "orders": order_summary(rulebook, plan.card),
        "max_units": plan.max_units,
        "groups": [_group_json(rulebook, plan, i, g) for i, g in enumerate(plan.groups)],
        "orderable": [{"unit": u.unit.id, "sections": list(u.sections), "why": [r.to_dict() for r in u.why]}
                      for u in plan.units if u.orderable],
        "not_orderable": [{"unit": u.unit.id, "sections": list(u.sections), "why": [r.to_dict() for r in u.why_not]}
                          for u in plan.units if not u.orderable],
        "effects": [r.to_dict() for r in plan.effects],
    }
    if plan.card != plan.played:
        out["copied_card"] = {"card": plan.card, "section": plan.terms.copied_section}
    if plan.terms.rolled is not None:
        out["rolled"] = dict(plan.terms.rolled)
    if selection is not None:
        ruling = rule_selection(situation, rulebook, plan, selection)
        out["selection"] = {"units": list(selection), "legal": ruling.legal,
                            "why_not": [r.to_dict() for r in ruling.why_not],
                            "groups": {unit: plan.groups[g].label(rulebook) for unit, g in ruling.assignment.items()}}
        if card_rules(rulebook, plan.card).places_obstacle and ruling.legal:
            placed, skipped = placed_obstacles(situation, rulebook, plan, selection)
            out["obstacles_placed"] = placed
            out["selection"]["notes"] = [r.to_dict() for r in skipped]
    return out


def _group_json(rulebook: Rulebook, plan: OrderPlan, index: int, group: Group) -> dict[str, Any]:
    out: dict[str, Any] = {"section": group.section, "max": group.max,
                           "units": [u.unit.id for u in plan.units if index in u.groups], "rule": group.rule,
                           "label": group.label(rulebook)}
    if group.on_the_move:
        out["on_the_move"] = True
    if group.face:
        out["face"] = group.face
    if group.fallback:
        out["fallback"] = True
    if group.all_units:
        out["all"] = True
    return out
