"""What may follow a battle roll, for the ``/api/v1/battle`` answer: the flags the target may
ignore, its retreat, take ground and armor overrun, and the exact chance the target is gone once
hits *and* blocked retreats are counted.

This module only joins the battle ruling (``engine.battle``) to the outcome engine
(``engine.flags.flags_ignorable``, ``engine.retreat.RetreatPlanner``,
``engine.advance.advance_after_close_assault``); every rule it reports is computed and cited
there."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from adjudicator.engine.advance import AdvanceResult, advance_after_close_assault
from adjudicator.engine.battle import BattleRuling, battle_rule
from adjudicator.engine.core_ids import RETREAT
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import FlagAllowance
from adjudicator.engine.odds import exact, joint
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import ChoiceSummary, RetreatPlanner, RetreatResult
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation
from adjudicator.engine.wording import entry_ref, say


@dataclass(frozen=True)
class Aftermath:
    allowance: FlagAllowance
    flags_ignored: int  # most flags the target may ignore, capped by the dice rolled
    retreat: RetreatResult | None  # for one flag not ignored; None when it cannot be computed
    retreat_problem: Reason | None
    fewest_lost_by_flags: tuple[int, ...]  # figures lost retreating from k flags, k = 0..dice
    advance: AdvanceResult | None
    eliminate_after_retreat: Fraction | None
    notes: tuple[Reason, ...] = ()
    # every choice the owner has for k flags, k = 0..dice (empty: not computed)
    choices_by_flags: tuple[tuple[ChoiceSummary, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The ``flags_ignored``, ``retreat``, ``take_ground`` and ``overrun`` fields of ``/battle``."""
        retreat: dict[str, Any]
        if self.retreat is not None:
            r = self.retreat
            retreat = {
                "per_flag": r.per_flag,
                "per_flag_min": r.per_flag_min,
                "flags": 1,
                "options": [o.to_dict() for o in r.options],
                "options_total": r.options_total,
                "min_figures_lost": r.min_figures_lost,
                "eliminated": r.eliminated,
                "fewest_figures_lost_by_flags": list(self.fewest_lost_by_flags),
                "breakdown": [x.to_dict() for x in r.breakdown],
            }
        else:
            retreat = {"per_flag": None, "options": [], "problem": self.retreat_problem.to_dict()
                       if self.retreat_problem else None}
        out: dict[str, Any] = {
            "flags_ignored": self.flags_ignored,
            "flag_allowance": self.allowance.to_dict(),
            "retreat": retreat,
            "take_ground": bool(self.advance and self.advance.take_ground),
            "overrun": bool(self.advance and self.advance.overrun),
        }
        if self.advance is not None:
            out["take_ground_reasons"] = [x.to_dict() for x in self.advance.take_ground_reasons]
            out["overrun_reasons"] = [x.to_dict() for x in self.advance.overrun_reasons]
        if self.eliminate_after_retreat is not None:
            out["eliminate_after_retreat"] = round(float(self.eliminate_after_retreat), 4)
            out["eliminate_after_retreat_exact"] = exact(self.eliminate_after_retreat)
        out["aftermath_notes"] = [n.to_dict() for n in self.notes]
        return out



def battle_aftermath(
    situation: Situation, rulebook: Rulebook, ruling: BattleRuling, card: str | None = None,
    combat_card: str | None = None,
) -> Aftermath:
    """Flags, retreat and advance for ``ruling``. The command ``card`` matters to flags (Air Power
    and Barrage forbid ignoring them); a ``combat_card`` is passed on as played on the target
    (Bitter Resistance), since a card played by the attacker carries no flag permission."""
    target = ruling.target
    planner = RetreatPlanner(situation, rulebook, target.id, card=card, combat_card=combat_card)
    allowance = planner.allowance
    dice = ruling.dice if ruling.legal else 0
    # "all flags" is reported as every flag the roll can show: one per die
    flags_ignored = dice if allowance.may_ignore is None else allowance.may_ignore

    retreat: RetreatResult | None = None
    problem: Reason | None = None
    lost: list[int] = [0]
    choices: list[tuple[ChoiceSummary, ...]] = [()]
    try:
        retreat = planner.options(1)
        for flags in range(1, dice + 1):
            # only the choice summaries are read (fewest figures lost, whether the unit moves): no
            # path listed, and the steps the graph walked for fewer flags are not walked again
            summary = (retreat.choices, retreat.min_figures_lost) if flags == 1 else planner.summary(flags)
            choices.append(summary[0])
            lost.append(summary[1])
    except IllegalSituation as exc:
        problem = say("retreat.not_computed", target.profile, problem=exc.message)
        lost, choices = [], []

    advance: AdvanceResult | None = None
    notes: list[Reason] = []
    if ruling.legal:
        advance = advance_with_card(situation, rulebook, ruling)
    else:
        notes.append(say("aftermath.no_battle", battle_rule(rulebook)))

    eliminate: Fraction | None = None
    if ruling.odds is not None and lost:
        odds = ruling.odds
        eliminate = Fraction(0)
        for (hits, flags), chance in joint(odds.dice, odds.hit_chance, odds.flag_chance).items():
            if hits >= target.figures or lost[flags] >= target.figures - hits:
                eliminate += chance
        notes.append(say("aftermath.elimination_chance", RETREAT))
    return Aftermath(allowance, flags_ignored, retreat, problem, tuple(lost), advance, eliminate, tuple(notes),
                     tuple(choices))


def advance_with_card(situation: Situation, rulebook: Rulebook, ruling: BattleRuling) -> AdvanceResult:
    """Take ground and overrun after ``ruling``'s battle; a card whose battling unit was not ordered
    (``ordered_unit_advances: false``, Ambush) allows neither."""
    card = ruling.card
    card_rules = rulebook.card(card)
    if card is not None and card_rules is not None and not card_rules.ordered_unit_advances:
        why = say("aftermath.card_no_advance", card, fact="ordered_unit_advances", card=entry_ref(rulebook, card))
        return AdvanceResult(ruling.attacker.id, ruling.target.id, False, False, (why,), (why,))
    return advance_after_close_assault(situation, rulebook, ruling.attacker.id, ruling.target.id,
                                       overruns_this_turn=int(ruling.overrun_battle), card=card)
