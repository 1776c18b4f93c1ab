"""Which retreat flags a unit may (or must) ignore, and why.

Sources of flag ignoring, all read from the content through the ``Rulebook``:

- the hex's terrain and obstacle ``flags`` (sandbags, bunker for its original owner, church,
  hedgehog, fortress "all", caves "all" for the Japanese, ...);
- the unit itself (``UnitRules.flags``: trains) and its badges and unit markers (heroic leader);
- the unit's nation (Japanese infantry *must* ignore one; with ``terrain_flags_mandatory`` a
  terrain that lets a unit ignore a flag makes it ignore one more, *must*; Italian artillery may
  ignore one);
- a combat card played as a Bitter Resistance action;
- and, against all of them, a command card with ``forbids_flag_ignoring`` (Air Power, Barrage).

How several permissions combine (this is a reading, and every ruling says so): permissions to
ignore one flag from terrain, obstacles, badges and nations do not add up — the largest applies,
as in the BGA implementation; the Japanese nation rule adds its own flag to the terrain's,
because its text says "2 flags instead"; a combat card played on the unit adds one more flag,
since the card is played precisely to ignore a flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.lookups import nations_in_effect
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import (
    BadgeRules,
    CardRules,
    CombatCardRules,
    FlagRule,
    HexRules,
    NationRules,
    Rulebook,
    UnitRules,
)
from adjudicator.engine.situation import Situation, Unit


def hex_text(situation: Situation, unit_or_hex: Any) -> str:
    """A hex as a player reads it on the board, with the editor coordinates: ``F4 (row 5, col 10)``."""
    h = getattr(unit_or_hex, "hex", unit_or_hex)
    return f"{situation.board.label(h)} (row {h.row}, col {h.col})"


def unit_rules(rulebook: Rulebook, unit: Unit) -> UnitRules:
    return rulebook.unit(unit.profile)


def nation_entries(situation: Situation, rulebook: Rulebook, unit: Unit) -> tuple[list[str], list[Reason]]:
    """Nation entries whose ``nation_codes`` name the unit's nation and whose required special rule
    (if any) is in effect. Entries skipped for a missing rule are reported."""
    found, skipped = nations_in_effect(situation, rulebook, unit)
    return [entry_id for entry_id, _ in found], [Reason(entry_id, (
        f"{rulebook.names[entry_id]} rules apply only when the special rule "
        f"'{rules.requires_rule}' is in effect; it is not listed in the situation's rules."
    )) for entry_id, rules in skipped]


def _count_text(count: int | None) -> str:
    if count is None:
        return "all flags"
    return "1 flag" if count == 1 else f"{count} flags"


def _count(rule: FlagRule) -> int | None:
    return None if rule.count == "all" else int(rule.count)


@dataclass(frozen=True)
class FlagSource:
    """One permission or obligation that applies to the unit."""

    rule: str  # content id
    count: int | None  # None: all flags
    mandatory: bool
    kind: str  # "hex", "unit", "badge", "nation", "combat_card"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "count": "all" if self.count is None else self.count,
                "mandatory": self.mandatory, "from": self.kind}


@dataclass(frozen=True)
class FlagAllowance:
    """How many flags rolled against a unit it may ignore (``may_ignore``, which includes the
    ones it must ignore) and must ignore (``must_ignore``); ``None`` means all flags."""

    may_ignore: int | None
    must_ignore: int | None
    reasons: tuple[Reason, ...]
    sources: tuple[FlagSource, ...] = ()
    forbidden_by: str | None = None  # command card that cancels all flag ignoring

    def most_ignored(self, flags: int) -> int:
        """Most of ``flags`` the unit may ignore."""
        return flags if self.may_ignore is None else min(flags, self.may_ignore)

    def least_ignored(self, flags: int) -> int:
        """Fewest of ``flags`` the unit may ignore (those it must ignore)."""
        return flags if self.must_ignore is None else min(flags, self.must_ignore)

    def choices(self, flags: int) -> range:
        """Every number of ignored flags the unit's owner may choose among."""
        return range(self.least_ignored(flags), self.most_ignored(flags) + 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "may_ignore": self.may_ignore,
            "must_ignore": self.must_ignore,
            "may_ignore_all": self.may_ignore is None,
            "must_ignore_all": self.must_ignore is None,
            "forbidden_by": self.forbidden_by,
            "sources": [s.to_dict() for s in self.sources],
            "reasons": [r.to_dict() for r in self.reasons],
        }


def _check_rule(
    situation: Situation, rulebook: Rulebook, unit: Unit, source: str, rule: FlagRule, reasons: list[Reason],
) -> bool:
    """Whether ``rule`` (a flag permission of entry ``source``) applies to ``unit``; explains a miss."""
    name = rulebook.names[source]
    unit_class = unit_rules(rulebook, unit).unit_class
    if rule.unit_classes and unit_class not in rule.unit_classes:
        classes = ", ".join(rule.unit_classes)
        reasons.append(Reason(source, f"{name}: only {classes} may ignore {_count_text(_count(rule))}; "
                                      f"this unit is {unit_class}."))
        return False
    if rule.nations and unit.nation not in rule.nations:
        nations = ", ".join(rule.nations)
        reasons.append(Reason(source, f"{name}: only {nations} units ignore {_count_text(_count(rule))} here; "
                                      f"this unit's nation is {unit.nation or 'not given'}."))
        return False
    if rule.owner_only:
        owner = situation.hex_state(unit.hex).owner
        if owner is None:
            reasons.append(Reason(source, (
                f"{name} protects only its original owner's units. The situation does not give the hex's "
                f"owner, so the occupant ({unit.side}) is assumed to be the original owner — give "
                f"\"owner\" on the hex if it was captured."
            )))
        elif owner != unit.side:
            reasons.append(Reason(source, (
                f"{name}: only the original owner's units ({owner}) may ignore a flag here; this unit is "
                f"{unit.side}, so the captured {name} gives it no flag."
            )))
            return False
    return True


def flags_ignorable(
    situation: Situation, rulebook: Rulebook, unit_id: str, *, card: str | None = None,
    combat_card: str | None = None,
) -> FlagAllowance:
    """How many flags the unit may and must ignore, with a reason for every source considered.

    ``card`` is the command card the *attacker* played (Air Power and Barrage forbid ignoring
    flags: ``forbids_flag_ignoring``); ``combat_card`` is a combat card played on the target (a
    Bitter Resistance action lets it ignore a flag)."""
    unit = situation.unit(unit_id)
    reasons: list[Reason] = []

    if card is not None:
        card_rules = rulebook.rules.get(card)
        if isinstance(card_rules, CardRules) and card_rules.forbids_flag_ignoring:
            reasons.append(Reason(card, (
                f"{rulebook.names[card]}: flags it rolls may not be ignored — terrain, badges, nations "
                f"and combat cards give no flag ignoring against it."
            )))
            return FlagAllowance(0, 0, tuple(reasons), (), card)

    optional: list[FlagSource] = []
    mandatory: list[FlagSource] = []
    terrain_grants: list[FlagSource] = []

    def add(source: FlagSource) -> None:
        (mandatory if source.mandatory else optional).append(source)
        verb = "must" if source.mandatory else "may"
        reasons.append(Reason(source.rule, f"{rulebook.names[source.rule]}: the unit {verb} ignore "
                                           f"{_count_text(source.count)}."))

    state = situation.hex_state(unit.hex)
    for feature in state.features():
        hex_rules = rulebook.rules.get(feature)
        if not isinstance(hex_rules, HexRules):
            continue
        for rule in hex_rules.flags:
            if _check_rule(situation, rulebook, unit, feature, rule, reasons):
                source = FlagSource(feature, _count(rule), rule.mandatory, "hex")
                add(source)
                terrain_grants.append(source)

    for rule in unit_rules(rulebook, unit).flags:
        if _check_rule(situation, rulebook, unit, unit.profile, rule, reasons):
            add(FlagSource(unit.profile, _count(rule), rule.mandatory, "unit"))

    for badge in unit.badges:
        badge_rules = rulebook.rules.get(badge)
        if isinstance(badge_rules, BadgeRules):
            for rule in badge_rules.flags:
                if _check_rule(situation, rulebook, unit, badge, rule, reasons):
                    add(FlagSource(badge, _count(rule), rule.mandatory, "badge"))

    nations, skipped = nation_entries(situation, rulebook, unit)
    reasons.extend(skipped)
    extra_must: list[FlagSource] = []
    for nation in nations:
        nation_rules = rulebook.rules[nation]
        assert isinstance(nation_rules, NationRules)
        applied: list[FlagSource] = []
        for rule in nation_rules.flags:
            if _check_rule(situation, rulebook, unit, nation, rule, reasons):
                source = FlagSource(nation, _count(rule), rule.mandatory, "nation")
                add(source)
                applied.append(source)
        if nation_rules.terrain_flags_mandatory and applied and terrain_grants:
            for source in applied:
                if not source.mandatory or source.count is None:
                    continue
                best = _largest(terrain_grants)
                total = None if best is None else source.count + best
                extra_must.append(FlagSource(nation, total, True, "nation"))
                terrain_names = ", ".join(rulebook.names[t.rule] for t in terrain_grants)
                reasons.append(Reason(nation, (
                    f"{rulebook.names[nation]}: in terrain that lets a unit ignore a flag ({terrain_names}) "
                    f"it must ignore {_count_text(total)} instead."
                )))
    mandatory.extend(extra_must)

    combat_extra = 0
    combat_all = False
    if combat_card is not None:
        combat_rules = rulebook.rules.get(combat_card)
        if isinstance(combat_rules, CombatCardRules):
            granted = False
            for rule in combat_rules.flags:
                if _check_rule(situation, rulebook, unit, combat_card, rule, reasons):
                    granted = True
                    count = _count(rule)
                    combat_all = combat_all or count is None
                    combat_extra += count or 0
                    source = FlagSource(combat_card, count, rule.mandatory, "combat_card")
                    (mandatory if rule.mandatory else optional).append(source)
                    reasons.append(Reason(combat_card, (
                        f"{rulebook.names[combat_card]} played on the unit: it may ignore "
                        f"{_count_text(count)} more, on top of any other permission."
                    )))
            if not granted and not combat_rules.flags:
                reasons.append(Reason(combat_card, f"{rulebook.names[combat_card]} does not let a unit ignore flags."))

    must = _largest(mandatory) if mandatory else 0
    base_optional = [s for s in optional if s.kind != "combat_card"]
    may_base: int | None = _largest(base_optional) if base_optional else 0
    unlimited = must is None or may_base is None or combat_all
    may = None if unlimited else max(must or 0, may_base or 0) + combat_extra
    if len([s for s in optional + mandatory if s.kind != "combat_card" and s.count == 1]) > 1:
        reasons.append(Reason("retreat", (
            "Several permissions to ignore a flag do not add up: the unit ignores at most the largest "
            "of them (the Japanese nation rule and a combat card are the exceptions that add)."
        )))
    if not optional and not mandatory:
        reasons.append(Reason("retreat", "Nothing lets this unit ignore a flag: every flag rolled makes it retreat."))
    return FlagAllowance(may, must, tuple(reasons), tuple(mandatory + optional))


def _largest(sources: list[FlagSource]) -> int | None:
    if any(s.count is None for s in sources):
        return None
    return max((s.count or 0) for s in sources) if sources else 0
