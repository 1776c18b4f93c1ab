"""Take ground and armor overrun after a close assault.

After a close assault (range ``close_assault_range`` of core ``range_and_dice``) that eliminated
the target or made it retreat, the attacker may move into the vacated hex (take ground) if its
unit entry says ``can_take_ground``; a unit with ``can_overrun`` that took ground may then battle
again (armor overrun), at most ``overruns_per_turn`` times a turn (core ``armor_overrun``).

Whether the unit may enter the vacated hex is ``engine.entry``'s answer for taking ground (the
terrain's ``impassable``, ``no_take_ground``, ``take_ground_requires_unmoved``,
``take_ground_limits``, mountain and pier entry, beach climbs, a must-stop hex entered this turn).
The overrun is a battle after entering: ``no_overrun`` (marshes, rice paddies, fish ponds,
flooded fields), a hex where a unit may not battle after entering (forest, town) or may not
battle at all rules it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.core_ids import DICE_RULE, OVERRUN, TAKE_GROUND
from adjudicator.engine.entry import TAKE_GROUND_STEP, EntryCheck
from adjudicator.engine.flags import hex_text, unit_rules
from adjudicator.engine.geometry import distance
from adjudicator.engine.lookups import rule_entry
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import core_number
from adjudicator.engine.rulebook import CoreRules, Rulebook, SpecialRuleRules
from adjudicator.engine.situation import Situation


@dataclass(frozen=True)
class AdvanceResult:
    attacker: str
    target: str
    take_ground: bool
    overrun: bool
    take_ground_reasons: tuple[Reason, ...]
    overrun_reasons: tuple[Reason, ...]
    extra_take_ground_move: int = 0  # North African desert: hexes more after taking ground
    overruns_per_turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "take_ground": self.take_ground,
            "overrun": self.overrun,
            "take_ground_reasons": [r.to_dict() for r in self.take_ground_reasons],
            "overrun_reasons": [r.to_dict() for r in self.overrun_reasons],
            "extra_take_ground_move": self.extra_take_ground_move,
            "overruns_per_turn": self.overruns_per_turn,
        }


def _overruns_per_turn(rulebook: Rulebook) -> int | None:
    rules = rulebook.rules.get(OVERRUN)
    return rules.overruns_per_turn if isinstance(rules, CoreRules) else None


def advance_after_close_assault(
    situation: Situation, rulebook: Rulebook, attacker_id: str, target_id: str, *, overruns_this_turn: int = 0,
) -> AdvanceResult:
    """May the attacker take the target's hex (assumed vacated: eliminated or retreated), and may it
    then make an armor overrun? ``overruns_this_turn`` counts overrun battles it already made."""
    attacker = situation.unit(attacker_id, "attacker")
    target = situation.unit(target_id, "target")
    rules = unit_rules(rulebook, attacker)
    cls = rules.unit_class
    name = rulebook.names[attacker.profile]
    s, rb = situation, rulebook
    tg: list[Reason] = []
    blocked = False

    if attacker.side == target.side:
        tg.append(Reason(TAKE_GROUND, "The target is a friendly unit: there is no ground to take."))
        blocked = True
    close_range = int(core_number(rulebook, DICE_RULE, "close_assault_range"))
    dist = distance(attacker.hex, target.hex)
    if dist != close_range:
        tg.append(Reason(TAKE_GROUND, (
            f"Ground is taken only after a close assault (range {close_range}); the target is {dist} hexes away."
        )))
        blocked = True
    if not rules.can_take_ground:
        tg.append(Reason(attacker.profile, f"{name} may never take ground."))
        blocked = True

    entry = EntryCheck(s, rb, attacker, TAKE_GROUND_STEP)
    refusals = entry.refusals(attacker.hex, target.hex)
    tg.extend(entry.allowances(attacker.hex, target.hex))
    tg.extend(refusals)
    blocked = blocked or bool(refusals)
    no_overrun: list[Reason] = []
    for feature, hex_rules in entry.features(target.hex):
        fname = rb.names[feature]
        if cls in hex_rules.no_overrun:
            no_overrun.append(Reason(feature, (
                f"{cls.capitalize()} that takes ground into {fname} may not make an armor overrun."
            )))
        if cls in hex_rules.no_battle_after_entering:
            no_overrun.append(Reason(feature, (
                f"Taking ground into {fname} is entering it, and a unit entering {fname} may not battle that turn: "
                f"no overrun."
            )))
        if cls in hex_rules.cannot_battle_in:
            no_overrun.append(Reason(feature, f"A {cls} unit in {fname} cannot battle: no overrun."))

    take = not blocked
    if take:
        tg.append(Reason(TAKE_GROUND, (
            f"{name} close-assaulted and the target's hex {hex_text(s, target.hex)} is vacated (eliminated or "
            f"retreated): it may move into it."
        )))

    ov: list[Reason] = []
    per_turn = _overruns_per_turn(rulebook)
    if not take:
        ov.append(Reason(OVERRUN, "No armor overrun without taking ground first."))
    if not rules.can_overrun:
        ov.append(Reason(attacker.profile, f"{name} never makes an armor overrun."))
    if take and rules.can_overrun:
        ov.extend(no_overrun)
        if per_turn is not None and overruns_this_turn >= per_turn:
            ov.append(Reason(OVERRUN, (
                f"A unit makes at most {per_turn} overrun battle(s) a turn; this one has made {overruns_this_turn}. "
                f"It may still take ground."
            )))
    overrun = take and rules.can_overrun and not no_overrun and (per_turn is None or overruns_this_turn < per_turn)
    extra = 0
    if overrun:
        limit_text = f" at most {per_turn} time(s) a turn" if per_turn is not None else ""
        ov.append(Reason(OVERRUN, (
            f"After taking ground it may battle again (armor overrun){limit_text}: if its new hex is next to an "
            f"enemy it must close-assault; otherwise it may fire."
        )))

    for rule in sorted(s.rules_in_effect):
        entry = rule_entry(rb, rule)
        special = rb.rules.get(entry)
        if not isinstance(special, SpecialRuleRules):
            continue
        if take and any((not m.unit_classes or cls in m.unit_classes) and (not m.sides or attacker.side in m.sides)
                        for m in special.move_limits):
            note = Reason(entry, (
                f"{rb.names[entry]} limits movement but still permits taking ground"
                f"{' and armor overrun' if rules.can_overrun else ''}."
            ))
            tg.append(note)
            if rules.can_overrun:
                ov.append(note)
        if overrun and special.extra_take_ground_move:
            extra = max(extra, special.extra_take_ground_move)
            ov.append(Reason(entry, (
                f"{rb.names[entry]}: after taking ground the unit may move {special.extra_take_ground_move} "
                f"more hex(es) before battling again."
            )))
    return AdvanceResult(attacker_id, target_id, take, overrun, tuple(tg), tuple(ov), extra, per_turn)
