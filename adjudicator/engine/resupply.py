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
from adjudicator.engine.flags import hex_text, unit_rules
from adjudicator.engine.lookups import rule_entry, rule_in_effect
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation


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
    name = rulebook.names[supplier.profile]
    why_not: list[Reason] = []
    reasons: list[Reason] = []

    if not rules.can_resupply:
        why_not.append(Reason(supplier.profile, f"{name} cannot re-supply other units."))
    elif rules.resupply_requires_rule:
        needed = rules.resupply_requires_rule
        entry = rule_entry(rulebook, needed)
        if rule_in_effect(situation, rulebook, needed):
            reasons.append(Reason(supplier.profile, (
                f"{name} may re-supply only when the {rulebook.names.get(entry, needed)} rule is in effect; it is."
            )))
        else:
            why_not.append(Reason(supplier.profile, (
                f"{name} may re-supply only when the {rulebook.names.get(entry, needed)} rule is in effect "
                f"(add '{needed}' to the situation's rules); it is not."
            )))
    else:
        reasons.append(Reason(supplier.profile, f"{name} may re-supply without any special rule in effect."))

    targets: list[ResupplyTarget] = []
    ineligible: list[Ineligible] = []
    for h in situation.board.neighbours(supplier.hex):
        other = situation.unit_at(h)
        if other is None:
            continue
        other_rules = unit_rules(rulebook, other)
        other_name = rulebook.names[other.profile]
        problems: list[Reason] = []
        if other.side != supplier.side:
            problems.append(Reason(RESUPPLY, f"{other.id} at {hex_text(situation, h)} is an enemy unit."))
        if not other_rules.ground_unit:
            problems.append(Reason(other.profile, f"{other_name} is not a ground unit: it cannot be re-supplied."))
        if not other_rules.resupplyable:
            problems.append(Reason(other.profile, f"{other_name} can never be re-supplied."))
        if not other.weakened:
            problems.append(Reason(RESUPPLY, (
                f"{other.id} has all {other.start_figures} figure(s) it started with: it is not weakened."
            )))
        if problems:
            ineligible.append(Ineligible(other.id, tuple(problems)))
            continue
        missing = other.start_figures - other.figures
        targets.append(ResupplyTarget(other.id, other.figures, other.start_figures, min(missing, supplier.figures)))

    if not targets and not why_not:
        why_not.append(Reason(RESUPPLY, "No weakened friendly ground unit that can be re-supplied is adjacent."))
    legal = not why_not
    total = min(supplier.figures, sum(t.max_figures for t in targets)) if legal else 0
    no_battle: list[str] = []
    if legal:
        reasons.append(Reason(RESUPPLY, (
            f"Each figure taken off {supplier.id} puts one figure back on an adjacent weakened unit, never above its "
            f"starting count: at most {total} figure(s) in all from {supplier.id}'s {supplier.figures}, shared among "
            f"{len(targets)} unit(s) as the owner likes. Figures used this way never count as medals for the "
            f"opponent; giving the last one removes {supplier.id} from the board."
        )))
        no_battle = [t.unit for t in targets]
        reasons.append(Reason(RESUPPLY, "A unit that is re-supplied may not battle this turn."))
        if rules.battles:
            no_battle.insert(0, supplier.id)
            reasons.append(Reason(supplier.profile, f"{name} re-supplies instead of battling: no battle this turn."))
        else:
            reasons.append(Reason(supplier.profile, f"{name} never battles anyway."))
    return ResupplyResult(supplier_id, legal, tuple(why_not), tuple(targets) if legal else (), tuple(ineligible),
                          supplier.figures, total, tuple(no_battle), tuple(reasons), tuple(targets))
