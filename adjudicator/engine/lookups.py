"""Which entries apply here: the special rules in effect, a unit's nations, the card that may
order it, and what a hex counts as.

Every module that asks these questions asks them here, so each is answered one way."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.engine.geometry import Hex
from adjudicator.engine.rulebook import CardRules, HexRules, NationRules, Rulebook, SpecialRuleRules
from adjudicator.engine.situation import Situation, Unit


def rule_in_effect(situation: Situation, rulebook: Rulebook, rule: str) -> bool:
    """``rule`` may be a situation ``rules`` id or the content id of the entry that defines it."""
    if situation.rule(rule):
        return True
    situation_id = rulebook.situation_id(rule)
    return bool(situation_id) and situation.rule(situation_id or "")


def rule_entry(rulebook: Rulebook, rule: str) -> str:
    """The content id to cite for a situation rule id (or the id itself when it is one)."""
    if rule in rulebook.kinds:
        return rule
    return rulebook.situation_ids().get(rule, rule)


def special_rules_in_effect(situation: Situation, rulebook: Rulebook) -> list[tuple[str, SpecialRuleRules]]:
    """(entry id, rules) of the special rules the situation's ``rules`` list switches on."""
    if not situation.rules_in_effect:  # the common case; spares a scan of every entry per battle
        return []
    ids = rulebook.situation_ids()
    out: list[tuple[str, SpecialRuleRules]] = []
    for situation_id in sorted(situation.rules_in_effect):
        entry_id = ids.get(situation_id)
        rules = rulebook.special_rule(entry_id)
        if entry_id is not None and rules is not None:
            out.append((entry_id, rules))
    return out


def nations_of(rulebook: Rulebook, unit: Unit) -> list[tuple[str, NationRules]]:
    """Nation entries whose ``nation_codes`` name the unit's nation, whatever rule they require,
    but not those whose ``not_for_units`` names the unit (snipers)."""
    return [(entry_id, rules) for entry_id, rules in _nation_entries(rulebook, unit)
            if not {unit.profile, unit.type} & set(rules.not_for_units)]


def nations_not_for(rulebook: Rulebook, unit: Unit) -> list[tuple[str, NationRules]]:
    """The unit's nation entries that do not apply to it (``not_for_units``: snipers)."""
    return [(entry_id, rules) for entry_id, rules in _nation_entries(rulebook, unit)
            if {unit.profile, unit.type} & set(rules.not_for_units)]


def _nation_entries(rulebook: Rulebook, unit: Unit) -> list[tuple[str, NationRules]]:
    if not unit.nation:
        return []
    return [(entry_id, rules) for entry_id in rulebook.ids_of_kind("nation")
            if unit.nation in (rules := rulebook.nation(entry_id)).nation_codes]


def nations_in_effect(situation: Situation, rulebook: Rulebook,
                      unit: Unit) -> tuple[list[tuple[str, NationRules]], list[tuple[str, NationRules]]]:
    """The unit's nation entries whose required special rule (``requires_rule``), if any, is in
    effect; and those left out because it is not."""
    found: list[tuple[str, NationRules]] = []
    skipped: list[tuple[str, NationRules]] = []
    for entry_id, rules in nations_of(rulebook, unit):
        if rules.requires_rule and not rule_in_effect(situation, rulebook, rules.requires_rule):
            skipped.append((entry_id, rules))
        else:
            found.append((entry_id, rules))
    return found, skipped


def admits_unit(rulebook: Rulebook, unit: Unit, excludes: Collection[str], names: Collection[str],
                classes: Collection[str]) -> bool:
    """Whether an order admits the unit: the units it excludes, then the units it names, then its
    classes (named units only add to the classes; no class: any unit). A command card's order
    (``card_orders``) and a face of Their Finest Hour's roll (``orders.RollOrder``) read alike."""
    ids = {unit.profile, unit.type}
    if ids & set(excludes):
        return False
    if ids & set(names):
        return True
    return not classes or rulebook.unit(unit.profile).unit_class in classes


def card_orders(rulebook: Rulebook, card: CardRules, unit: Unit) -> bool:
    """Whether the command card may order the unit (its ``excludes_units``, ``orders_units`` and
    ``orders_unit_classes``)."""
    return admits_unit(rulebook, unit, card.excludes_units, card.orders_units, card.orders_unit_classes)


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


def hex_features(situation: Situation, rulebook: Rulebook, h: Hex) -> tuple[tuple[str, HexRules], ...]:
    """(id, rules) of the terrain and obstacles on ``h``, terrain first."""
    return tuple((f, r) for f in situation.hex_state(h).features() if (r := rulebook.feature(f)) is not None)


def counts_as(situation: Situation, rulebook: Rulebook, h: Hex, allowed: tuple[str, ...]) -> bool:
    """Whether hex ``h`` counts as one of ``allowed`` (terrain ids, their base, or plateau groups)."""
    for feature in situation.hex_state(h).features():
        if feature in allowed or rulebook.bases.get(feature) in allowed:
            return True
        rules = rulebook.feature(feature)
        if rules is not None and rules.plateau in allowed:
            return True
    return False


def bridged(situation: Situation, rulebook: Rulebook, h: Hex) -> bool:
    """A bridge on ``h`` makes water passable (``is_bridge``)."""
    return any(rules.is_bridge for _, rules in hex_features(situation, rulebook, h))


def elevation(situation: Situation, rulebook: Rulebook, h: Hex) -> int:
    """The height of ``h`` (``elevation``: 1 hill, 2 mountain), for "from below" and climbs."""
    return max((rules.elevation for _, rules in hex_features(situation, rulebook, h)), default=0)
