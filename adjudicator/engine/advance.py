"""Take ground and armor overrun after a close assault.

After a close assault (range ``close_assault_range`` of core ``range_and_dice``) that eliminated
the target or made it retreat, the attacker may move into the vacated hex (take ground) if its
unit entry says ``can_take_ground``; a unit with ``can_overrun`` that took ground may then battle
again (armor overrun), at most ``overruns_per_turn`` times a turn (core ``armor_overrun``).

Whether the unit may enter the vacated hex is ``engine.entry``'s answer for taking ground (the
terrain's ``impassable``, ``no_take_ground``, ``take_ground_requires_started_adjacent``,
``take_ground_limits``, mountain and pier entry, beach climbs, a must-stop hex entered this turn),
told how the unit moved this turn (``engine.moved``).
The overrun is a battle after entering: ``no_overrun`` (marshes, rice paddies, fish ponds,
flooded fields), a hex where a unit may not battle after entering (forest, town) or may not
battle at all rules it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.core_ids import DICE_RULE, OVERRUN, TAKE_GROUND
from adjudicator.engine.entry import TAKE_GROUND_STEP, EntryCheck
from adjudicator.engine.flags import unit_rules
from adjudicator.engine.geometry import distance
from adjudicator.engine.lookups import special_rules_in_effect
from adjudicator.engine.moved import move_made
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import core_number
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, hex_ref, say, unit_ref


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


def advance_after_close_assault(
    situation: Situation, rulebook: Rulebook, attacker_id: str, target_id: str, *, overruns_this_turn: int = 0,
    card: str | None = None,
) -> AdvanceResult:
    """May the attacker take the target's hex (assumed vacated: eliminated or retreated), and may it
    then make an armor overrun? ``overruns_this_turn`` counts overrun battles it already made;
    ``card`` is the command card that ordered it (how far it may have moved this turn)."""
    attacker = situation.unit(attacker_id, "attacker")
    target = situation.unit(target_id, "target")
    rules = unit_rules(rulebook, attacker)
    who = unit_ref(situation, rulebook, attacker)
    entry = EntryCheck(situation, rulebook, attacker, TAKE_GROUND_STEP,
                       move=move_made(situation, rulebook, attacker, card))
    tg = _take_ground_limits(situation, rulebook, attacker, target, entry)
    take = not tg
    tg = [*entry.allowances(attacker.hex, target.hex), *tg]
    if take:
        tg.append(say("advance.take_ground", TAKE_GROUND, unit=who, hex=hex_ref(situation.board, target.hex)))

    ov: list[Reason] = []
    per_turn = _overruns_per_turn(rulebook)
    if not take:
        ov.append(say("advance.no_overrun_without_ground", OVERRUN))
    if not rules.can_overrun:
        ov.append(say("advance.never_overruns", attacker.profile, fact="can_overrun", unit=who))
    no_overrun = _no_overrun_battle(situation, rulebook, attacker, target) if take and rules.can_overrun else []
    ov.extend(no_overrun)
    if take and rules.can_overrun and per_turn is not None and overruns_this_turn >= per_turn:
        ov.append(say("advance.overruns_used", OVERRUN, fact="overruns_per_turn", per_turn=per_turn,
                      made=overruns_this_turn))
    overrun = take and rules.can_overrun and not no_overrun and (per_turn is None or overruns_this_turn < per_turn)
    if overrun and per_turn is None:
        ov.append(say("advance.overrun", OVERRUN))
    elif overrun:
        ov.append(say("advance.overrun_limited", OVERRUN, fact="overruns_per_turn", per_turn=per_turn))
    extra = _special_rule_notes(situation, rulebook, attacker, take, overrun, tg, ov)
    return AdvanceResult(attacker_id, target_id, take, overrun, tuple(tg), tuple(ov), extra, per_turn)


def _overruns_per_turn(rulebook: Rulebook) -> int | None:
    core = rulebook.core(OVERRUN)
    return core.overruns_per_turn if core is not None else None


def _take_ground_limits(situation: Situation, rulebook: Rulebook, attacker: Unit, target: Unit,
                        entry: EntryCheck) -> list[Reason]:
    """Every reason the attacker may not take the target's hex (empty: it may): only a close
    assault on an enemy takes ground, only a unit that ``can_take_ground``, and only into a hex it
    may enter (``engine.entry``, for take ground)."""
    rules = unit_rules(rulebook, attacker)
    out: list[Reason] = []
    if attacker.side == target.side:
        out.append(say("advance.friendly_target", TAKE_GROUND))
    close_range = core_number(rulebook.core_rules(DICE_RULE).close_assault_range, DICE_RULE, "close_assault_range")
    dist = distance(attacker.hex, target.hex)
    if dist != close_range:
        out.append(say("advance.not_close_assault", TAKE_GROUND, close_range=close_range, distance=dist))
    if not rules.can_take_ground:
        out.append(say("advance.never_takes_ground", attacker.profile, fact="can_take_ground",
                       unit=unit_ref(situation, rulebook, attacker)))
    out.extend(entry.refusals(attacker.hex, target.hex))
    return out


def _no_overrun_battle(situation: Situation, rulebook: Rulebook, attacker: Unit, target: Unit) -> list[Reason]:
    """Why the unit that took the hex may not battle from it (the overrun is a battle after entering)."""
    cls = unit_rules(rulebook, attacker).unit_class
    out: list[Reason] = []
    for feature in situation.hex_state(target.hex).features():
        hex_rules = rulebook.hex_rules(feature)
        terrain = entry_ref(rulebook, feature)
        if cls in hex_rules.no_overrun:
            out.append(say("advance.no_overrun_from", feature, fact="no_overrun", unit_class=cls, terrain=terrain))
        if cls in hex_rules.no_battle_after_entering:
            out.append(say("advance.no_battle_after_entering", feature, fact="no_battle_after_entering",
                           terrain=terrain))
        if cls in hex_rules.cannot_battle_in:
            out.append(say("advance.cannot_battle_in", feature, fact="cannot_battle_in", unit_class=cls,
                           terrain=terrain))
    return out


def _special_rule_notes(situation: Situation, rulebook: Rulebook, attacker: Unit, take: bool, overrun: bool,
                        tg: list[Reason], ov: list[Reason]) -> int:
    """Special rules in effect that touch the advance: move limits that still permit it (Winter
    Weather), extra hexes after taking ground (North African desert). Adds their notes to ``tg``
    and ``ov``; returns the extra hexes."""
    rules = unit_rules(rulebook, attacker)
    cls = rules.unit_class
    extra = 0
    for entry_id, special in special_rules_in_effect(situation, rulebook):
        if take and any((not m.unit_classes or cls in m.unit_classes) and (not m.sides or attacker.side in m.sides)
                        for m in special.move_limits):
            note = say("advance.move_limit_permits_overrun" if rules.can_overrun else "advance.move_limit_permits",
                       entry_id, fact="move_limits", entry=entry_ref(rulebook, entry_id))
            tg.append(note)
            if rules.can_overrun:
                ov.append(note)
        if overrun and special.extra_take_ground_move:
            extra = max(extra, special.extra_take_ground_move)
            ov.append(say("advance.extra_move", entry_id, fact="extra_take_ground_move",
                          entry=entry_ref(rulebook, entry_id), n=special.extra_take_ground_move))
    return extra
