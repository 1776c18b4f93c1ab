"""Every legal retreat of a unit after a battle, with the figures each one costs.

The rules (core entry ``retreat`` and the terrain entries):

- each flag not ignored moves the unit toward its own baseline: every step goes to one of the two
  neighbours one row nearer that baseline (``Situation.bottom_side`` retreats to higher rows);
- most units move ``retreat_hexes_per_flag`` hexes per flag; some choose 1..n per flag (unit
  ``retreat_per_flag``: tank destroyers 2, French Resistance 3; nation ``retreat_per_flag`` for
  its ``retreat_unit_classes``: the Italian Royal Army);
- terrain does not slow a retreat, but a unit never retreats onto or through a hex that is
  ``impassable`` to it (a bridge makes a river passable), holds any other unit, has
  ``no_retreat_onto`` (ocean), or breaks a mountain's ``enter_only_from_plateau`` /
  ``leave_only_to_plateau``;
- every move that cannot be made (blocked, off the board edge, into the sea) costs
  ``figures_lost_per_retreat_move_not_made`` figures, and a unit in a hex with
  ``no_retreat_from`` for its class may not retreat at all and loses figures instead;
- a hex with an ``entry_risk`` that applies on retreat (Frozen River) makes the unit roll dice
  when it retreats onto it; the exact odds are given.

A path that runs into a dead end while another path retreats farther is not offered: a unit
loses figures only for moves it *cannot* make (the BGA implementation computes losses the same
way: shortfall from the best reachable distance).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

from adjudicator.engine.budget import charge
from adjudicator.engine.core_ids import DICE_RULE, RETREAT
from adjudicator.engine.entry import RETREAT_STEP, EntryCheck
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import FlagAllowance, flags_ignorable, hex_text, nation_entries, unit_rules
from adjudicator.engine.geometry import Hex
from adjudicator.engine.odds import binomial, exact
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import CoreRules, EntryRisk, HexRules, NationRules, Rulebook
from adjudicator.engine.situation import Situation, Unit

# Listing cap over all choices: ``options_total`` and the per-choice summaries always count every
# legal path, but only this many are spelled out (each with its hexes and exact risk odds), so
# one answer stays small (a 12-flag French Resistance retreat has thousands of paths).
MAX_OPTIONS = 32
MIN_OPTIONS_PER_CHOICE = 4  # each choice of ignored flags lists at least this many, if it has them


def core_number(rulebook: Rulebook, entry_id: str, name: str) -> Any:
    """A number of a core entry; a missing entry or field is a content error, never a guess."""
    rules = rulebook.rules.get(entry_id)
    value = getattr(rules, name, None) if isinstance(rules, CoreRules) else None
    if value is None or value == {}:
        raise LookupError(f"content entry core/{entry_id} must set {name}")
    return value


def face_probability(rulebook: Rulebook, faces: tuple[str, ...]) -> Fraction:
    """Chance that one battle die shows one of ``faces`` (core ``range_and_dice`` ``die_faces``)."""
    die_faces: dict[str, int] = core_number(rulebook, DICE_RULE, "die_faces")
    total = sum(die_faces.values())
    return Fraction(sum(die_faces.get(f, 0) for f in set(faces)), total)


def convolve(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """The distribution of the sum of two independent losses. Worked in whole numbers over one
    common denominator per side, reduced once per entry: a Fraction sum reduces at every step,
    which along a long Frozen River retreat was most of its cost."""
    from math import lcm

    charge(len(a) * len(b))
    da, db = lcm(*(x.denominator for x in a)), lcm(*(y.denominator for y in b))
    na = [x.numerator * (da // x.denominator) for x in a]
    nb = [y.numerator * (db // y.denominator) for y in b]
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(na):
        if x:
            for j, y in enumerate(nb):
                out[i + j] += x * y
    return tuple(Fraction(n, da * db) for n in out)


def fraction_dict(p: Fraction) -> dict[str, Any]:
    return {"fraction": exact(p), "probability": float(p)}


@dataclass(frozen=True)
class RiskRoll:
    """Dice a unit rolls on retreating onto a hex with an ``entry_risk`` (Frozen River)."""

    hex: Hex
    rule: str
    risk: EntryRisk
    loss_odds: tuple[Fraction, ...]  # chance of losing 0, 1, 2, ... figures from this roll

    @cached_property
    def _losses(self) -> tuple[dict[str, Any], ...]:
        """Written out once: listed retreats share the rolls of the hexes they have in common."""
        return tuple({"figures": i, **fraction_dict(p)} for i, p in enumerate(self.loss_odds) if p)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.hex.as_dict(), "rule": self.rule, "dice": self.risk.dice, "faces": list(self.risk.faces),
            "figures_per_face": self.risk.figures_per_face, "losses": [dict(loss) for loss in self._losses],
        }


@dataclass(frozen=True)
class RetreatOption:
    """One legal way to resolve the flags: the hexes entered in order (``path``, empty when the
    unit stays), the figures certainly lost, and the rolls it risks on the way."""

    start: Hex
    path: tuple[Hex, ...]
    flags_ignored: int
    moves_required: int
    figures_lost: int
    eliminated: bool
    risks: tuple[RiskRoll, ...] = ()
    risk_losses: tuple[Fraction, ...] = (Fraction(1),)  # chance of 0, 1, ... more figures lost
    elimination_chance: Fraction = Fraction(0)

    @property
    def end(self) -> Hex:
        return self.path[-1] if self.path else self.start

    @property
    def moves_not_made(self) -> int:
        return max(0, self.moves_required - len(self.path))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": [h.as_dict() for h in self.path],
            "end": self.end.as_dict(),
            "figures_lost": self.figures_lost,
            "flags_ignored": self.flags_ignored,
            "moves": len(self.path),
            "moves_not_made": self.moves_not_made,
            "eliminated": self.eliminated,
        }
        if self.risks:
            out["entry_risks"] = [r.to_dict() for r in self.risks]
            out["risk_losses"] = [{"figures": i, **fraction_dict(p)} for i, p in enumerate(self.risk_losses) if p]
            out["elimination_chance"] = fraction_dict(self.elimination_chance)
        return out


@dataclass(frozen=True)
class ChoiceSummary:
    """The outcome of one choice of how many flags to ignore."""

    flags_ignored: int
    moves_required: int
    moves_allowed: int
    reachable: int  # most hexes the unit can actually retreat (capped at moves_allowed)
    figures_lost: int
    options_total: int

    def to_dict(self) -> dict[str, Any]:
        return {"flags_ignored": self.flags_ignored, "moves_required": self.moves_required,
                "moves_allowed": self.moves_allowed, "reachable": self.reachable,
                "figures_lost": self.figures_lost, "options": self.options_total}


@dataclass(frozen=True)
class RetreatResult:
    unit: str
    flags: int
    hits: int
    figures: int
    allowance: FlagAllowance
    per_flag: int  # most hexes per flag
    per_flag_min: int
    flags_ignored: int  # most flags the unit may ignore here
    flags_ignored_min: int  # flags it must ignore
    moves_required: int  # hexes it must retreat after ignoring ``flags_ignored`` flags
    options: tuple[RetreatOption, ...]
    options_total: int
    choices: tuple[ChoiceSummary, ...]
    min_figures_lost: int
    eliminated: bool
    breakdown: tuple[Reason, ...] = field(default=())

    @property
    def options_truncated(self) -> bool:
        return self.options_total > len(self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "flags": self.flags,
            "hits": self.hits,
            "figures": self.figures,
            "flags_ignored": self.flags_ignored,
            "flags_ignored_min": self.flags_ignored_min,
            "moves_required": self.moves_required,
            "per_flag": self.per_flag,
            "per_flag_min": self.per_flag_min,
            "options": [o.to_dict() for o in self.options],
            "options_total": self.options_total,
            "options_truncated": self.options_truncated,
            "choices": [c.to_dict() for c in self.choices],
            "min_figures_lost": self.min_figures_lost,
            "eliminated": self.eliminated,
            "flag_allowance": self.allowance.to_dict(),
            "breakdown": [r.to_dict() for r in self.breakdown],
        }


def hexes_per_flag(situation: Situation, rulebook: Rulebook, unit: Unit) -> tuple[int, int, list[Reason]]:
    """(fewest, most) hexes the unit retreats per flag, with reasons."""
    least = int(core_number(rulebook, RETREAT, "retreat_hexes_per_flag"))
    rules = unit_rules(rulebook, unit)
    most = max(least, rules.retreat_per_flag)
    reasons: list[Reason] = []
    if rules.retreat_per_flag > least:
        reasons.append(Reason(unit.profile, (
            f"{rulebook.names[unit.profile]} may retreat {least} to {rules.retreat_per_flag} hexes per flag."
        )))
    nations, _ = nation_entries(situation, rulebook, unit)
    for nation in nations:
        nation_rules = rulebook.rules[nation]
        assert isinstance(nation_rules, NationRules)
        if nation_rules.retreat_per_flag is None:
            continue
        classes = nation_rules.retreat_unit_classes
        if classes and rules.unit_class not in classes:
            continue
        if nation_rules.retreat_per_flag > most:
            most = nation_rules.retreat_per_flag
            reasons.append(Reason(nation, (
                f"{rulebook.names[nation]}: its {rules.unit_class} units may retreat {least} to "
                f"{nation_rules.retreat_per_flag} hexes per flag."
            )))
    if not reasons:
        reasons.append(Reason(RETREAT, f"Each flag moves the unit {least} hex toward its own baseline."))
    return least, most, reasons


class _Graph:
    """Legal retreat steps of one unit, memoised (the step graph is acyclic: rows only advance)."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit: Unit) -> None:
        self.situation = situation
        self.rulebook = rulebook
        self.unit = unit
        self.unit_class = unit_rules(rulebook, unit).unit_class
        self.dr = 1 if situation.is_bottom(unit.side) else -1
        self.entry = EntryCheck(situation, rulebook, unit, RETREAT_STEP)
        self.blocked: dict[tuple[Hex, Hex], Reason] = {}
        self.steps = cache(self._steps)
        self.count = cache(self._count)
        self.longest = cache(self._longest)

    def _steps(self, h: Hex) -> tuple[Hex, ...]:
        charge(2)  # two candidate hexes examined
        legal: list[Hex] = []
        for dc in (-1, 1):
            to = Hex(h.row + self.dr, h.col + dc)
            why = self.entry.refusal(h, to)
            if why is None:
                legal.append(to)
            else:
                self.blocked.setdefault((h, to), why)
        return tuple(legal)

    def _count(self, h: Hex, length: int) -> int:
        if length == 0:
            return 1
        return sum(self.count(n, length - 1) for n in self.steps(h))

    def _longest(self, h: Hex, cap: int) -> int:
        if cap == 0:
            return 0
        return max((1 + self.longest(n, cap - 1) for n in self.steps(h)), default=0)

    def paths(self, h: Hex, length: int) -> Iterator[tuple[Hex, ...]]:
        """Every legal path of exactly ``length`` steps from ``h``, left before right."""
        if length == 0:
            yield ()
            return
        for n in self.steps(h):
            if self.count(n, length - 1):
                for rest in self.paths(n, length - 1):
                    yield (n, *rest)


def _risks(
    situation: Situation, rulebook: Rulebook, path: tuple[Hex, ...], notes: dict[tuple[str, Hex], Reason],
) -> tuple[RiskRoll, ...]:
    rolls: list[RiskRoll] = []
    for h in path:
        for feature in situation.hex_state(h).features():
            rules = rulebook.rules.get(feature)
            if not isinstance(rules, HexRules):
                continue
            if rules.retreat_sets_off is False:
                notes.setdefault((feature, h), Reason(feature, (
                    f"Retreating onto or through {rulebook.names[feature]} ({hex_text(situation, h)}) does not set "
                    f"it off: no dice are rolled and the unit does not stop."
                )))
                continue
            if rules.entry_risk is None:
                continue
            risk = rules.entry_risk
            name = rulebook.names[feature]
            if not risk.on_retreat:
                notes.setdefault((feature, h), Reason(feature, (
                    f"Retreating onto or through {name} ({hex_text(situation, h)}) does not trigger it: "
                    f"no dice are rolled."
                )))
                continue
            p = face_probability(rulebook, risk.faces)
            odds = binomial(risk.dice, p)
            per = risk.figures_per_face
            losses = [Fraction(0)] * (risk.dice * per + 1)
            for k, q in enumerate(odds):
                losses[k * per] += q
            rolls.append(RiskRoll(h, feature, risk, tuple(losses)))
            faces = " or ".join(risk.faces)
            odds_text = ", ".join(f"{k * per} figure{'s' if k * per != 1 else ''}: {q.numerator}/{q.denominator}"
                                  for k, q in enumerate(odds))
            notes.setdefault((feature, h), Reason(feature, (
                f"Retreating onto {name} ({hex_text(situation, h)}) rolls {risk.dice} battle dice; each {faces} "
                f"costs {per} figure (each die shows it with chance {p.numerator}/{p.denominator}). "
                f"Chance of losing {odds_text}."
            )))
    return tuple(rolls)


def _no_stop_notes(situation: Situation, rulebook: Rulebook, unit_class: str, path: tuple[Hex, ...],
                   notes: dict[tuple[str, Hex], Reason]) -> None:
    for h in path[:-1]:
        for feature in situation.hex_state(h).features():
            rules = rulebook.rules.get(feature)
            if isinstance(rules, HexRules) and unit_class in rules.must_stop:
                notes.setdefault((feature, h), Reason(RETREAT, (
                    f"Terrain has no effect on a retreat: the unit passes through {rulebook.names[feature]} "
                    f"({hex_text(situation, h)}) without stopping."
                )))


def retreat_options(
    situation: Situation, rulebook: Rulebook, unit_id: str, flags: int, *, card: str | None = None,
    combat_card: str | None = None, hits: int = 0, list_paths: bool = True,
) -> RetreatResult:
    """Every legal way for ``unit_id`` to resolve ``flags`` flags after taking ``hits`` hits.

    ``card`` is the command card of the attack (Air Power, Barrage forbid ignoring flags) and
    ``combat_card`` a combat card played on the retreating unit (Bitter Resistance). With
    ``list_paths=False`` only the per-choice summaries (and so ``min_figures_lost``) are computed:
    the fewest figures lost follows from the farthest reachable distance, with no path listed
    (what the battle answer needs for every flag count)."""
    unit = situation.unit(unit_id)
    if not getattr(unit_rules(rulebook, unit), "rules_documented", True):
        raise IllegalSituation("unit", f"no bundled source gives the rules of {rulebook.names[unit.profile]}, "
                                       f"so its retreat cannot be computed")
    if isinstance(flags, bool) or not isinstance(flags, int) or flags < 0:
        raise IllegalSituation("flags", "must be a whole number of flags, 0 or more")
    if unit_rules(rulebook, unit).retreats_along_rails and flags:
        raise IllegalSituation("unit", f"{rulebook.names[unit.profile]} retreats along its rails, never into the "
                                       f"locomotive's forward arc, not toward its baseline; a situation does not "
                                       f"record the track or the locomotive's facing, so the retreat is not computed")
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        raise IllegalSituation("hits", "must be a whole number of hits, 0 or more")
    loss_per_move = int(core_number(rulebook, RETREAT, "figures_lost_per_retreat_move_not_made"))
    least, most, per_flag_reasons = hexes_per_flag(situation, rulebook, unit)
    allowance = flags_ignorable(situation, rulebook, unit_id, card=card, combat_card=combat_card)
    remaining_figures = unit.figures - hits
    breakdown: list[Reason] = []
    most_ignored = allowance.most_ignored(flags)
    least_ignored = allowance.least_ignored(flags)
    moves_required = (flags - most_ignored) * least

    def result(options: list[RetreatOption], total: int, choices: list[ChoiceSummary], min_lost: int,
               eliminated: bool) -> RetreatResult:
        return RetreatResult(
            unit_id, flags, hits, unit.figures, allowance, most, least, most_ignored, least_ignored,
            moves_required, tuple(options), total, tuple(choices), min_lost, eliminated, tuple(breakdown),
        )

    if remaining_figures <= 0:
        breakdown.append(Reason(RETREAT, (
            f"The {hits} hit(s) remove all {unit.figures} figure(s): the unit is eliminated before any flag "
            f"is resolved, so there is no retreat."
        )))
        return result([], 0, [], 0, True)

    if flags == 0:
        breakdown.append(Reason(RETREAT, "No flag was rolled: the unit stays where it is."))
    else:
        breakdown.extend(allowance.reasons)
        breakdown.extend(per_flag_reasons)
    direction = "down the board (to higher rows)" if situation.is_bottom(unit.side) else "up the board (to lower rows)"
    if flags:
        breakdown.append(Reason(RETREAT, (
            f"The {unit.side} baseline is row {situation.board.baseline_row(situation.is_bottom(unit.side))}: "
            f"each retreat step goes {direction}, to one of the two hexes behind the unit."
        )))

    rules = unit_rules(rulebook, unit)
    graph = _Graph(situation, rulebook, unit)
    pinned = [f for f in situation.hex_state(unit.hex).features()
              if isinstance(rulebook.rules.get(f), HexRules)
              and rules.unit_class in rulebook.hex_rules(f).no_retreat_from]
    pinned += [b for b in unit.badges if getattr(rulebook.rules.get(b), "no_retreat", False)]
    options: list[RetreatOption] = []
    choices: list[ChoiceSummary] = []
    total = 0
    notes: dict[tuple[str, Hex], Reason] = {}
    per_choice = max(MIN_OPTIONS_PER_CHOICE, MAX_OPTIONS // len(allowance.choices(flags)))
    # Listed paths come depth first, so they share their first hexes: each hex's rolls and the
    # loss odds of each path prefix are worked out once (exact fractions along a 36-hex retreat
    # on Frozen River were most of a flags-12 answer's cost).
    hex_rolls: dict[Hex, tuple[RiskRoll, ...]] = {}
    prefix_losses: dict[tuple[Hex, ...], tuple[Fraction, ...]] = {(): (Fraction(1),)}

    def rolls_at(h: Hex) -> tuple[RiskRoll, ...]:
        if h not in hex_rolls:
            hex_rolls[h] = _risks(situation, rulebook, (h,), notes)
        return hex_rolls[h]

    def losses_along(path: tuple[Hex, ...]) -> tuple[Fraction, ...]:
        known = len(path)
        while path[:known] not in prefix_losses:
            known -= 1
        losses = prefix_losses[path[:known]]
        for i in range(known, len(path)):
            for roll in rolls_at(path[i]):
                losses = convolve(losses, roll.loss_odds)
            prefix_losses[path[:i + 1]] = losses
        return losses

    for ignored in allowance.choices(flags):
        required = (flags - ignored) * least
        allowed = (flags - ignored) * most
        reachable = 0 if required == 0 or pinned else graph.longest(unit.hex, allowed)
        shortfall = max(0, required - reachable)
        lost = min(remaining_figures, shortfall * loss_per_move)
        lengths = range(required, allowed + 1) if reachable >= required else range(reachable, reachable + 1)
        count = sum(graph.count(unit.hex, n) for n in lengths) if not pinned else 1
        choices.append(ChoiceSummary(ignored, required, allowed, reachable, lost, count))
        total += count
        listed = 0
        for length in lengths if list_paths else ():
            paths = [()] if pinned else graph.paths(unit.hex, length)
            for path in paths:
                if listed >= per_choice:
                    break
                listed += 1
                charge(1 + len(path))
                risks = tuple(roll for h in path for roll in rolls_at(h))
                _no_stop_notes(situation, rulebook, rules.unit_class, path, notes)
                risk_losses = losses_along(path)
                left = remaining_figures - lost
                chance = Fraction(1) if left <= 0 else sum((p for k, p in enumerate(risk_losses) if k >= left),
                                                           Fraction(0))
                options.append(RetreatOption(unit.hex, path, ignored, required, lost, left <= 0, risks,
                                             risk_losses, chance))
            if pinned:
                break

    if pinned and any(c.moves_required for c in choices):
        for feature in pinned:
            where = (f"{rules.unit_class.capitalize()} in {rulebook.names[feature]}" if feature not in unit.badges
                     else f"A unit with the {rulebook.names[feature]} marker")
            breakdown.append(Reason(feature, (
                f"{where} may not retreat: it loses {loss_per_move} figure for each retreat move instead."
            )))
    for why in dict.fromkeys(graph.blocked[k] for k in sorted(graph.blocked)):
        breakdown.append(why)
    shortfalls = [c for c in choices if c.reachable < c.moves_required]
    for choice in shortfalls:
        not_made = choice.moves_required - choice.reachable
        breakdown.append(Reason(RETREAT, (
            f"Ignoring {choice.flags_ignored} flag(s), the unit must retreat {choice.moves_required} hex(es) but can "
            f"make only {choice.reachable}: {not_made} move(s) not made cost {not_made * loss_per_move} figure(s)"
            f"{' (all it has left)' if choice.figures_lost >= remaining_figures else ''}."
        )))
    breakdown.extend(notes[k] for k in sorted(notes, key=lambda k: (k[1], k[0])))
    if any(o.path for o in options):
        for feature in situation.hex_state(unit.hex).features():
            feature_rules = rulebook.rules.get(feature)
            if isinstance(feature_rules, HexRules) and feature_rules.removed_when_occupant_leaves:
                breakdown.append(Reason(feature, (
                    f"If the unit retreats out of its hex, the {rulebook.names[feature]} there are removed."
                )))
        for badge in rulebook.badges_lost(unit.badges, "retreats"):
            breakdown.append(Reason(badge, (
                f"If the unit retreats, its {rulebook.names[badge]} token is removed."
            )))
    if allowance.choices(flags).start != allowance.choices(flags).stop - 1:
        breakdown.append(Reason(RETREAT, (
            "Ignoring a flag is optional here, so the options list the outcomes both with and without ignoring."
        )))
    min_lost = min((c.figures_lost for c in choices), default=0)
    eliminated = hits + min_lost >= unit.figures
    if hits:
        breakdown.append(Reason(RETREAT, (
            f"The unit had {unit.figures} figure(s) and took {hits} hit(s) before the flags: {remaining_figures} left."
        )))
    if eliminated:
        breakdown.append(Reason(RETREAT, "Every option removes the unit's last figure: it is eliminated."))
    return result(options, total, choices, min_lost, eliminated)
