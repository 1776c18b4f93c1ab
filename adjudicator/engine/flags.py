"""Which retreat flags a unit may (or must) ignore, and why.

Sources of flag ignoring, all read from the content through the ``Rulebook``:

- the hex's terrain and obstacle ``flags`` (sandbags, bunker for its original owner, church,
  hedgehog, fortress "all", caves "all" for the Japanese, ...);
- the unit itself (``UnitRules.flags``: trains) and its badges and unit markers (heroic leader);
- the unit's nation (Japanese infantry *must* ignore one; with ``terrain_flags_mandatory`` a
  terrain that lets a unit ignore a flag makes it ignore one more, *must*; Italian artillery may
  ignore one);
- a combat card played as a Bitter Resistance action;
- and, against all of them, a command card with ``forbids_flag_ignoring`` (Air Power, Barrage) or
  a marker on the unit with it (a unit in a boat loses a figure for every flag).

A nation's rules do not apply to the units its entry lists in ``not_for_units`` (snipers).

How several permissions combine (this is a reading, and every ruling says so): permissions to
ignore one flag from terrain, obstacles, badges and nations do not add up — the largest applies,
as in the BGA implementation; the Japanese nation rule adds its own flag to the terrain's,
because its text says "2 flags instead"; a combat card played on the unit adds one more flag,
since the card is played precisely to ignore a flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.core_ids import RETREAT
from adjudicator.engine.lookups import nations_in_effect, nations_not_for
from adjudicator.engine.reasons import Reason, UnitRef
from adjudicator.engine.rulebook import FlagRule, Rulebook, UnitRules
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, entry_refs, say, unit_ref


def unit_rules(rulebook: Rulebook, unit: Unit) -> UnitRules:
    return rulebook.unit(unit.profile)


def nation_entries(situation: Situation, rulebook: Rulebook, unit: Unit) -> tuple[list[str], list[Reason]]:
    """Nation entries whose ``nation_codes`` name the unit's nation and whose required special rule
    (if any) is in effect. Entries skipped for a missing rule are reported."""
    found, skipped = nations_in_effect(situation, rulebook, unit)
    return [entry_id for entry_id, _ in found], [
        say("flags.nation_needs_rule", entry_id, fact="requires_rule", nation=entry_ref(rulebook, entry_id),
            entry=entry_ref(rulebook, rules.requires_rule or "")) for entry_id, rules in skipped] + [
        say("flags.nation_not_for_unit", entry_id, fact="not_for_units", nation=entry_ref(rulebook, entry_id),
            unit=unit_ref(situation, rulebook, unit)) for entry_id, _ in nations_not_for(rulebook, unit)]


def _count(rule: FlagRule) -> int | None:
    return None if rule.count == "all" else int(rule.count)


def _said(count: int | None) -> int | str:
    """A flag count as a reason parameter: a number, or "all"."""
    return "all" if count is None else count


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
    forbidden_by: str | None = None  # command card (or marker on the unit) that cancels all flag ignoring

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


@dataclass
class _Gathered:
    """The permissions and obligations found so far for one unit, with the reasons said."""

    situation: Situation
    rulebook: Rulebook
    unit: Unit
    who: UnitRef
    reasons: list[Reason] = field(default_factory=list)
    optional: list[FlagSource] = field(default_factory=list)
    mandatory: list[FlagSource] = field(default_factory=list)

    def applies(self, source: str, rule: FlagRule) -> bool:
        """Whether ``rule`` (a flag permission of entry ``source``) applies to the unit; explains a miss."""
        s, rb, unit = self.situation, self.rulebook, self.unit
        entry = entry_ref(rb, source)
        count = _said(_count(rule))
        unit_class = unit_rules(rb, unit).unit_class
        if rule.unit_classes and unit_class not in rule.unit_classes:
            self.reasons.append(say("flags.class_only", source, fact="flags", source=entry, classes=rule.unit_classes,
                                    count=count, unit=self.who, unit_class=unit_class))
            return False
        if rule.nations and unit.nation not in rule.nations:
            self.reasons.append(say("flags.nation_only", source, fact="flags", source=entry, nations=rule.nations,
                                    count=count, unit=self.who, nation=unit.nation or "not given"))
            return False
        if rule.owner_only:
            owner = s.hex_state(unit.hex).owner
            if owner is None:
                self.reasons.append(say("flags.owner_assumed", source, fact="flags", source=entry, side=unit.side))
            elif owner != unit.side:
                self.reasons.append(say("flags.owner_captured", source, fact="flags", source=entry, owner=owner,
                                        unit=self.who, side=unit.side))
                return False
        return True

    def add(self, source: FlagSource) -> None:
        (self.mandatory if source.mandatory else self.optional).append(source)
        self.reasons.append(say("flags.must_ignore" if source.mandatory else "flags.may_ignore", source.rule,
                                fact="flags", source=entry_ref(self.rulebook, source.rule), unit=self.who,
                                count=_said(source.count)))

    def grant(self, entry_id: str, rules: tuple[FlagRule, ...], kind: str) -> list[FlagSource]:
        """Add each flag rule of ``entry_id`` that applies; the sources added."""
        added: list[FlagSource] = []
        for rule in rules:
            if self.applies(entry_id, rule):
                source = FlagSource(entry_id, _count(rule), rule.mandatory, kind)
                self.add(source)
                added.append(source)
        return added


def flags_ignorable(
    situation: Situation, rulebook: Rulebook, unit_id: str, *, card: str | None = None,
    combat_card: str | None = None,
) -> FlagAllowance:
    """How many flags the unit may and must ignore, with a reason for every source considered.

    ``card`` is the command card the *attacker* played (Air Power and Barrage forbid ignoring
    flags: ``forbids_flag_ignoring``); ``combat_card`` is a combat card played on the target (a
    Bitter Resistance action lets it ignore a flag)."""
    unit = situation.unit(unit_id)
    card_rules = rulebook.card(card)
    if card is not None and card_rules is not None and card_rules.forbids_flag_ignoring:
        return FlagAllowance(0, 0, (say("flags.forbidden_by_card", card, fact="forbids_flag_ignoring",
                                        card=entry_ref(rulebook, card)),), (), card)
    for badge in unit.badges:
        marker = rulebook.badge(badge)
        if marker is not None and marker.forbids_flag_ignoring:
            return FlagAllowance(0, 0, (say("flags.forbidden_by_marker", badge, fact="forbids_flag_ignoring",
                                            marker=entry_ref(rulebook, badge),
                                            unit=unit_ref(situation, rulebook, unit)),), (), badge)
    found = _Gathered(situation, rulebook, unit, unit_ref(situation, rulebook, unit))
    terrain_grants: list[FlagSource] = []
    for feature in situation.hex_state(unit.hex).features():
        terrain_grants += found.grant(feature, rulebook.hex_rules(feature).flags, "hex")
    found.grant(unit.profile, unit_rules(rulebook, unit).flags, "unit")
    for badge in unit.badges:
        badge_rules = rulebook.badge(badge)
        if badge_rules is not None:
            found.grant(badge, badge_rules.flags, "badge")
    _nation_flags(found, terrain_grants)
    combat_extra, combat_all = _combat_card_flags(found, combat_card)

    optional, mandatory = found.optional, found.mandatory
    must = _largest(mandatory) if mandatory else 0
    base_optional = [s for s in optional if s.kind != "combat_card"]
    may_base: int | None = _largest(base_optional) if base_optional else 0
    unlimited = must is None or may_base is None or combat_all
    may = None if unlimited else max(must or 0, may_base or 0) + combat_extra
    if len([s for s in optional + mandatory if s.kind != "combat_card" and s.count == 1]) > 1:
        found.reasons.append(say("flags.do_not_add_up", RETREAT))
    if not optional and not mandatory:
        found.reasons.append(say("flags.none", RETREAT))
    return FlagAllowance(may, must, tuple(found.reasons), tuple(mandatory + optional))


def _nation_flags(found: _Gathered, terrain_grants: list[FlagSource]) -> None:
    """The unit's nations' flags; with ``terrain_flags_mandatory`` (Japanese) a terrain that lets
    it ignore a flag makes it ignore one more, "must"."""
    rb = found.rulebook
    nations, skipped = nation_entries(found.situation, rb, found.unit)
    found.reasons.extend(skipped)
    extra_must: list[FlagSource] = []
    for nation in nations:
        nation_rules = rb.nation(nation)
        applied = found.grant(nation, nation_rules.flags, "nation")
        if not (nation_rules.terrain_flags_mandatory and applied and terrain_grants):
            continue
        for source in applied:
            if not source.mandatory or source.count is None:
                continue
            best = _largest(terrain_grants)
            total = None if best is None else source.count + best
            extra_must.append(FlagSource(nation, total, True, "nation"))
            found.reasons.append(say("flags.terrain_makes_must", nation, fact="terrain_flags_mandatory",
                                     nation=entry_ref(rb, nation),
                                     terrains=entry_refs(rb, (t.rule for t in terrain_grants)), count=_said(total)))
    found.mandatory.extend(extra_must)


def _combat_card_flags(found: _Gathered, combat_card: str | None) -> tuple[int, bool]:
    """A combat card played on the unit (Bitter Resistance) adds its flags to any other
    permission: (flags added, whether it lets the unit ignore all)."""
    rules = found.rulebook.combat_card(combat_card) if combat_card is not None else None
    if combat_card is None or rules is None:
        return 0, False
    extra, every = 0, False
    card = entry_ref(found.rulebook, combat_card)
    for rule in rules.flags:
        if not found.applies(combat_card, rule):
            continue
        count = _count(rule)
        every = every or count is None
        extra += count or 0
        source = FlagSource(combat_card, count, rule.mandatory, "combat_card")
        (found.mandatory if rule.mandatory else found.optional).append(source)
        found.reasons.append(say("flags.combat_card_adds", combat_card, fact="flags", card=card, unit=found.who,
                                 count=_said(count)))
    if not rules.flags:
        found.reasons.append(say("flags.combat_card_none", combat_card, card=card))
    return extra, every


def _largest(sources: list[FlagSource]) -> int | None:
    if any(s.count is None for s in sources):
        return None
    return max((s.count or 0) for s in sources) if sources else 0
