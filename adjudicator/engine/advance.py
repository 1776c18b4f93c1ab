"""Take ground and armor overrun after a close assault.

After a close assault (range ``close_assault_range`` of core ``range_and_dice``) that eliminated
the target or made it retreat, the attacker may move into the vacated hex (take ground) if its
unit entry says ``can_take_ground``; a unit with ``can_overrun`` that took ground may then battle
again (armor overrun), at most ``overruns_per_turn`` times a turn (core ``armor_overrun``).

Limits, all from the content: the vacated hex's ``impassable``, ``no_take_ground``,
``take_ground_requires_unmoved`` (hedgerows), ``take_ground_limits`` (cliffs from the beach),
mountain plateau entry, pier ``no_entry_from`` and ``no_overrun`` (marshes, rice paddies, fish
ponds, flooded fields); a unit that entered a "must stop, may move no further" hex this turn may
not take ground, unless the hex lists its class in ``take_ground_after_stop`` (fordable streams);
taking ground is entering the hex, so a hex where a unit may not battle after entering (forest,
town) or may not battle at all rules out the overrun battle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.flags import bridged, hex_text, rule_entry, unit_rules
from adjudicator.engine.geometry import distance
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import DICE, core_number, counts_as
from adjudicator.engine.rulebook import CoreRules, HexRules, Rulebook, SpecialRuleRules
from adjudicator.engine.situation import Situation

MOVEMENT = "movement"  # core entry citing a hex the scenario declares impassable
BEACH = "beach"  # cliffs and sea bluffs limit moves between them and this terrain
TAKE_GROUND = "take_ground"  # core entry explaining take ground
OVERRUN = "armor_overrun"  # core entry: overruns_per_turn


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
    close_range = int(core_number(rulebook, DICE, "close_assault_range"))
    dist = distance(attacker.hex, target.hex)
    if dist != close_range:
        tg.append(Reason(TAKE_GROUND, (
            f"Ground is taken only after a close assault (range {close_range}); the target is {dist} hexes away."
        )))
        blocked = True
    if not rules.can_take_ground:
        tg.append(Reason(attacker.profile, f"{name} may never take ground."))
        blocked = True

    here = s.hex_state(attacker.hex)
    there = s.hex_state(target.hex)
    for feature in here.features():
        hex_rules = rb.rules.get(feature)
        if not isinstance(hex_rules, HexRules):
            continue
        if cls in hex_rules.must_stop and attacker.moved > 0:
            if cls in hex_rules.take_ground_after_stop:
                tg.append(Reason(feature, (
                    f"The unit entered {rb.names[feature]} this turn and had to stop there, but it may still take "
                    f"ground from it."
                )))
            else:
                tg.append(Reason(feature, (
                    f"The unit entered {rb.names[feature]} this turn: it had to stop and may move no further, so it "
                    f"may not take ground."
                )))
                blocked = True
        if hex_rules.leave_only_to_plateau and not counts_as(s, rb, target.hex, hex_rules.leave_only_to_plateau):
            tg.append(Reason(feature, (
                f"A unit leaving {rb.names[feature]} may go only to {', '.join(hex_rules.leave_only_to_plateau)}."
            )))
            blocked = True

    if there.impassable:
        tg.append(Reason(MOVEMENT, f"The scenario declares {hex_text(s, target.hex)} impassable: no unit may take "
                                   "ground there."))
        blocked = True
    beach_from, beach_to = counts_as(s, rb, attacker.hex, (BEACH,)), counts_as(s, rb, target.hex, (BEACH,))
    for feature in (*(there.features() if beach_from else ()), *(here.features() if beach_to else ())):
        hex_rules = rb.rules.get(feature)
        if isinstance(hex_rules, HexRules) and cls in hex_rules.beach_climb_forbidden:
            tg.append(Reason(feature, (
                f"{cls.capitalize()} may not move between {rb.names[feature]} and the beach, so it may not take "
                "ground there.")))
            blocked = True
    no_overrun: list[Reason] = []
    for feature in there.features():
        hex_rules = rb.rules.get(feature)
        if not isinstance(hex_rules, HexRules):
            continue
        fname = rb.names[feature]
        if cls in hex_rules.impassable and not bridged(s, rb, target.hex):
            tg.append(Reason(feature, f"{fname} is impassable to {cls}: the unit may not take ground there."))
            blocked = True
        if cls in hex_rules.no_take_ground:
            tg.append(Reason(feature, f"{cls.capitalize()} may not take ground into {fname}."))
            blocked = True
        if cls in hex_rules.take_ground_requires_unmoved and attacker.moved > 0:
            tg.append(Reason(feature, (
                f"{cls.capitalize()} may take ground into {fname} only if it did not move this turn; it moved "
                f"{attacker.moved}."
            )))
            blocked = True
        elif cls in hex_rules.take_ground_requires_unmoved:
            tg.append(Reason(feature, f"{fname}: the unit did not move this turn, so it may take ground."))
        for limit in hex_rules.take_ground_limits:
            if cls in limit.unit_classes and counts_as(s, rb, attacker.hex, limit.from_terrains):
                tg.append(Reason(feature, (
                    f"{cls.capitalize()} may not take ground into {fname} from {', '.join(limit.from_terrains)}."
                )))
                blocked = True
        if hex_rules.enter_only_from_plateau and not counts_as(s, rb, attacker.hex, hex_rules.enter_only_from_plateau):
            tg.append(Reason(feature, (
                f"{fname} may be entered only from {', '.join(hex_rules.enter_only_from_plateau)}."
            )))
            blocked = True
        if hex_rules.no_entry_from and counts_as(s, rb, attacker.hex, hex_rules.no_entry_from):
            tg.append(Reason(feature, f"{fname} may not be entered from {', '.join(hex_rules.no_entry_from)}."))
            blocked = True
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
