"""Re-supply: which adjacent units a supply vehicle may hand figures to, and how many.

Rules (action ``resupply``, units ``half_track`` and ``supply_truck``): a unit with
``can_resupply`` gives its own figures one for one to adjacent friendly ground units that are
weakened (fewer figures than at the start), never beyond their starting count and never more than
it has; units with ``resupplyable: false`` (single-figure units, trains, landing craft) never
receive figures. A supplier with ``resupply_requires_rule`` (Half-Tracks and Supply Trucks: the
Re-Supply rule, from the Re-Supply action summary that covers any vehicle with the ability) needs
that rule in effect; which suppliers need it is content data, never an id here. The re-supplied units
may not battle that turn, nor may a supplier that could otherwise battle (the Half-Track).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.core_ids import RESUPPLY
from adjudicator.engine.flags import unit_rules
from adjudicator.engine.lookups import rule_entry, rule_in_effect
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, say, unit_ref


@dataclass(frozen=True)
class ResupplyTarget:
    unit: str
    figures: int
    start_figures: int
    max_figures: int  # most figures it may receive from this supplier

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "max_figures": self.max_figures, "figures": self.figures,
                "start_figures": self.start_figures}


@dataclass(frozen=True)
class Ineligible:
    unit: str
    reasons: tuple[Reason, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "reasons": [r.to_dict() for r in self.reasons]}


@dataclass(frozen=True)
class ResupplyResult:
    supplier: str
    legal: bool
    why_not: tuple[Reason, ...]
    targets: tuple[ResupplyTarget, ...]  # empty unless the re-supply is legal
    ineligible: tuple[Ineligible, ...]
    supplier_figures: int
    total_max_figures: int
    no_battle: tuple[str, ...]  # units that may not battle this turn if the re-supply is made
    reasons: tuple[Reason, ...]
    candidates: tuple[ResupplyTarget, ...] = ()  # adjacent units it could re-supply if it were allowed

    def to_dict(self) -> dict[str, Any]:
        return {
            "supplier": self.supplier,
            "candidates": [t.to_dict() for t in self.candidates],
            "legal": self.legal,
            "why_not": [r.to_dict() for r in self.why_not],
            "targets": [t.to_dict() for t in self.targets],
            "ineligible": [i.to_dict() for i in self.ineligible],
            "supplier_figures": self.supplier_figures,
            "total_max_figures": self.total_max_figures,
            "no_battle": list(self.no_battle),
            "reasons": [r.to_dict() for r in self.reasons],
        }


def resupply_options(situation: Situation, rulebook: Rulebook, supplier_id: str) -> ResupplyResult:
    """Whether ``supplier_id`` may re-supply this turn, whom, and how many figures each."""
    supplier = situation.unit(supplier_id, "supplier")
    rules = unit_rules(rulebook, supplier)
    who = unit_ref(situation, rulebook, supplier)
    why_not: list[Reason] = []
    reasons: list[Reason] = []

    if not rules.can_resupply:
        why_not.append(say("resupply.cannot", supplier.profile, fact="can_resupply", unit=who))
    elif rules.resupply_requires_rule:
        needed = rules.resupply_requires_rule
        rule = entry_ref(rulebook, rule_entry(rulebook, needed))
        if rule_in_effect(situation, rulebook, needed):
            reasons.append(say("resupply.rule_in_effect", supplier.profile, fact="resupply_requires_rule", unit=who,
                               entry=rule))
        else:
            why_not.append(say("resupply.rule_needed", supplier.profile, fact="resupply_requires_rule", unit=who,
                               entry=rule, rule_id=needed))
    else:
        reasons.append(say("resupply.no_rule_needed", supplier.profile, unit=who))

    targets: list[ResupplyTarget] = []
    ineligible: list[Ineligible] = []
    for h in situation.board.neighbours(supplier.hex):
        other = situation.unit_at(h)
        if other is None:
            continue
        problems = _problems(situation, rulebook, supplier, other)
        if problems:
            ineligible.append(Ineligible(other.id, tuple(problems)))
            continue
        missing = other.start_figures - other.figures
        targets.append(ResupplyTarget(other.id, other.figures, other.start_figures, min(missing, supplier.figures)))

    if not targets and not why_not:
        why_not.append(say("resupply.nobody", RESUPPLY))
    legal = not why_not
    total = min(supplier.figures, sum(t.max_figures for t in targets)) if legal else 0
    no_battle: list[str] = []
    if legal:
        reasons.append(say("resupply.how", RESUPPLY, unit=who, total=total, figures=supplier.figures,
                           units=len(targets)))
        no_battle = [t.unit for t in targets]
        reasons.append(say("resupply.no_battle", RESUPPLY))
        if rules.battles:
            no_battle.insert(0, supplier.id)
            reasons.append(say("resupply.instead_of_battle", supplier.profile, unit=who))
        else:
            reasons.append(say("resupply.never_battles", supplier.profile, fact="battles", unit=who))
    return ResupplyResult(supplier_id, legal, tuple(why_not), tuple(targets) if legal else (), tuple(ineligible),
                          supplier.figures, total, tuple(no_battle), tuple(reasons), tuple(targets))


def _problems(situation: Situation, rulebook: Rulebook, supplier: Unit, other: Unit) -> list[Reason]:
    """Why ``other``, next to the supplier, may not be re-supplied (empty: it may)."""
    rules = unit_rules(rulebook, other)
    whom = unit_ref(situation, rulebook, other)
    problems: list[Reason] = []
    if other.side != supplier.side:
        problems.append(say("resupply.enemy", RESUPPLY, unit=whom))
    if not rules.ground_unit:
        problems.append(say("resupply.not_ground_unit", other.profile, fact="ground_unit", unit=whom))
    if not rules.resupplyable:
        problems.append(say("resupply.never_resupplied", other.profile, fact="resupplyable", unit=whom))
    if not other.weakened:
        problems.append(say("resupply.not_weakened", RESUPPLY, unit=whom, figures=other.start_figures))
    return problems
