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
from typing import Any, TypeVar

from adjudicator.engine.budget import charge
from adjudicator.engine.core_ids import RETREAT
from adjudicator.engine.entry import RETREAT_STEP, EntryCheck
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import FlagAllowance, flags_ignorable, nation_entries, unit_rules
from adjudicator.engine.geometry import Hex
from adjudicator.engine.hits import die_faces
from adjudicator.engine.odds import binomial, exact
from adjudicator.engine.reasons import Reason, UnitRef
from adjudicator.engine.rulebook import EntryRisk, Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, hex_ref, plural, say, unit_ref

T = TypeVar("T")
# Listing cap over all choices: ``options_total`` and the per-choice summaries always count every
# legal path, but only this many are spelled out (each with its hexes and exact risk odds), so
# one answer stays small (a 12-flag French Resistance retreat has thousands of paths).
MAX_OPTIONS = 32
MIN_OPTIONS_PER_CHOICE = 4  # each choice of ignored flags lists at least this many, if it has them


def core_number(value: T | None, entry_id: str, name: str) -> T:
    """A number a core entry must set; a missing one is a content error, never a guess."""
    if value is None or value == {}:
        raise LookupError(f"content entry core/{entry_id} must set {name}")
    return value


def face_probability(rulebook: Rulebook, faces: tuple[str, ...]) -> Fraction:
    """Chance that one battle die shows one of ``faces`` (core ``range_and_dice`` ``die_faces``)."""
    faces_on_die = die_faces(rulebook)
    return Fraction(sum(faces_on_die.get(f, 0) for f in set(faces)), sum(faces_on_die.values()))


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
            **self.hex.to_dict(), "rule": self.rule, "dice": self.risk.dice, "faces": list(self.risk.faces),
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
            "path": [h.to_dict() for h in self.path],
            "end": self.end.to_dict(),
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
    least = core_number(rulebook.core_rules(RETREAT).retreat_hexes_per_flag, RETREAT, "retreat_hexes_per_flag")
    rules = unit_rules(rulebook, unit)
    most = max(least, rules.retreat_per_flag)
    reasons: list[Reason] = []
    if rules.retreat_per_flag > least:
        reasons.append(say("retreat.per_flag_unit", unit.profile, fact="retreat_per_flag",
                           unit=unit_ref(situation, rulebook, unit), least=least, most=rules.retreat_per_flag))
    nations, _ = nation_entries(situation, rulebook, unit)
    for nation in nations:
        nation_rules = rulebook.nation(nation)
        if nation_rules.retreat_per_flag is None:
            continue
        classes = nation_rules.retreat_unit_classes
        if classes and rules.unit_class not in classes:
            continue
        if nation_rules.retreat_per_flag > most:
            most = nation_rules.retreat_per_flag
            reasons.append(say("retreat.per_flag_nation", nation, fact="retreat_per_flag",
                               nation=entry_ref(rulebook, nation), unit_class=rules.unit_class, least=least,
                               most=nation_rules.retreat_per_flag))
    if not reasons:
        reasons.append(say("retreat.per_flag", RETREAT, fact="retreat_hexes_per_flag", n=least))
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
            rules = rulebook.hex_rules(feature)
            terrain = entry_ref(rulebook, feature, hex_ref(situation.board, h))
            if rules.retreat_sets_off is False:
                notes.setdefault((feature, h), say("retreat.not_set_off", feature, fact="retreat_sets_off",
                                                   terrain=terrain))
                continue
            risk = rules.entry_risk
            if risk is None:
                continue
            if not risk.on_retreat:
                notes.setdefault((feature, h), say("retreat.risk_not_on_retreat", feature, fact="entry_risk",
                                                   terrain=terrain))
                continue
            p = face_probability(rulebook, risk.faces)
            odds = binomial(risk.dice, p)
            per = risk.figures_per_face
            losses = [Fraction(0)] * (risk.dice * per + 1)
            for k, q in enumerate(odds):
                losses[k * per] += q
            rolls.append(RiskRoll(h, feature, risk, tuple(losses)))
            notes.setdefault((feature, h), say(
                "retreat.risk_roll", feature, fact="entry_risk", terrain=terrain, rolls=risk.dice, faces=risk.faces,
                per=per, chance=exact(p),
                odds=tuple(f"{plural(k * per, 'figure')} {exact(q)}" for k, q in enumerate(odds))))
    return tuple(rolls)


def _no_stop_notes(situation: Situation, rulebook: Rulebook, unit_class: str, path: tuple[Hex, ...],
                   notes: dict[tuple[str, Hex], Reason]) -> None:
    for h in path[:-1]:
        for feature in situation.hex_state(h).features():
            if unit_class in rulebook.hex_rules(feature).must_stop:
                notes.setdefault((feature, h), say("retreat.passes_through", RETREAT,
                                                   terrain=entry_ref(rulebook, feature, hex_ref(situation.board, h))))


def _check_request(situation: Situation, rulebook: Rulebook, unit: Unit, flags: int, hits: int) -> None:
    """The retreat can be computed for this unit and these numbers, or IllegalSituation says why."""
    rules = unit_rules(rulebook, unit)
    name = rulebook.names[unit.profile]
    if not rules.rules_documented:
        raise IllegalSituation("unit", f"no bundled source gives the rules of {name}, so its retreat cannot be "
                                       f"computed")
    if isinstance(flags, bool) or not isinstance(flags, int) or flags < 0:
        raise IllegalSituation("flags", "must be a whole number of flags, 0 or more")
    if rules.retreats_along_rails and flags:
        raise IllegalSituation("unit", f"{name} retreats along its rails, never into the locomotive's forward arc, "
                                       f"not toward its baseline; a situation does not record the track or the "
                                       f"locomotive's facing, so the retreat is not computed")
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        raise IllegalSituation("hits", "must be a whole number of hits, 0 or more")


class _Listing:
    """The retreat paths listed for one unit, with the rolls their hexes make and the notes said.

    Listed paths come depth first, so they share their first hexes: each hex's rolls and the loss
    odds of each path prefix are worked out once (exact fractions along a 36-hex retreat on Frozen
    River were most of a flags-12 answer's cost)."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit_class: str) -> None:
        self.situation, self.rulebook, self.unit_class = situation, rulebook, unit_class
        self.notes: dict[tuple[str, Hex], Reason] = {}
        self.hex_rolls: dict[Hex, tuple[RiskRoll, ...]] = {}
        self.prefix_losses: dict[tuple[Hex, ...], tuple[Fraction, ...]] = {(): (Fraction(1),)}

    def rolls_at(self, h: Hex) -> tuple[RiskRoll, ...]:
        if h not in self.hex_rolls:
            self.hex_rolls[h] = _risks(self.situation, self.rulebook, (h,), self.notes)
        return self.hex_rolls[h]

    def losses_along(self, path: tuple[Hex, ...]) -> tuple[Fraction, ...]:
        known = len(path)
        while path[:known] not in self.prefix_losses:
            known -= 1
        losses = self.prefix_losses[path[:known]]
        for i in range(known, len(path)):
            for roll in self.rolls_at(path[i]):
                losses = convolve(losses, roll.loss_odds)
            self.prefix_losses[path[:i + 1]] = losses
        return losses

    def option(self, start: Hex, path: tuple[Hex, ...], ignored: int, required: int, lost: int,
               left_after: int) -> RetreatOption:
        """One listed way to retreat: ``left_after`` figures remain once ``lost`` are gone."""
        charge(1 + len(path))
        risks = tuple(roll for h in path for roll in self.rolls_at(h))
        _no_stop_notes(self.situation, self.rulebook, self.unit_class, path, self.notes)
        risk_losses = self.losses_along(path)
        chance = Fraction(1) if left_after <= 0 else sum(
            (p for k, p in enumerate(risk_losses) if k >= left_after), Fraction(0))
        return RetreatOption(start, path, ignored, required, lost, left_after <= 0, risks, risk_losses, chance)


def _pinned(situation: Situation, rulebook: Rulebook, unit: Unit) -> list[str]:
    """The terrain (``no_retreat_from``) and markers (``no_retreat``) that keep the unit from retreating."""
    unit_class = unit_rules(rulebook, unit).unit_class
    pinned = [f for f in situation.hex_state(unit.hex).features()
              if unit_class in rulebook.hex_rules(f).no_retreat_from]
    return pinned + [b for b in unit.badges if (badge := rulebook.badge(b)) is not None and badge.no_retreat]


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
    planner = RetreatPlanner(situation, rulebook, unit_id, card=card, combat_card=combat_card)
    return planner.options(flags, hits=hits, list_paths=list_paths)


class RetreatPlanner:
    """The retreats of one unit after one attack, for any number of flags and hits.

    What does not depend on the flags (the flags the unit may ignore, the hexes per flag, what
    pins it, its graph of legal steps) is worked out once, so a battle answer that asks for the
    retreat of every flag count the roll can show walks each step once, not once per count."""

    def __init__(self, situation: Situation, rulebook: Rulebook, unit_id: str, *, card: str | None = None,
                 combat_card: str | None = None) -> None:
        self.situation, self.rulebook = situation, rulebook
        self.unit = unit = situation.unit(unit_id)
        self.card, self.combat_card = card, combat_card
        self.loss_per_move = core_number(rulebook.core_rules(RETREAT).figures_lost_per_retreat_move_not_made,
                                         RETREAT, "figures_lost_per_retreat_move_not_made")
        self._per_flag: tuple[int, int, list[Reason]] | None = None
        self._allowance: FlagAllowance | None = None
        self._graph: _Graph | None = None
        self.who = unit_ref(situation, rulebook, unit)

    @property
    def allowance(self) -> FlagAllowance:
        if self._allowance is None:
            self._allowance = flags_ignorable(self.situation, self.rulebook, self.unit.id, card=self.card,
                                              combat_card=self.combat_card)
        return self._allowance

    def per_flag(self) -> tuple[int, int, list[Reason]]:
        if self._per_flag is None:
            self._per_flag = hexes_per_flag(self.situation, self.rulebook, self.unit)
        return self._per_flag

    def graph(self) -> _Graph:
        """The unit's legal steps, shared by every flag count (the steps a count explored are
        remembered for the next; which steps were refused is reported from a fresh graph only,
        see ``options``)."""
        if self._graph is None:
            self._graph = _Graph(self.situation, self.rulebook, self.unit)
        return self._graph

    def options(self, flags: int, *, hits: int = 0, list_paths: bool = True) -> RetreatResult:
        """``retreat_options`` for ``flags`` flags after ``hits`` hits. Listing paths walks a
        graph of its own unless nothing walked the planner's yet, so the refused steps its
        breakdown names are exactly those its walk examined; a summary (``list_paths=False``)
        shares the graph, and its breakdown may also name steps refused to another count's walk
        (the battle answer reads only its choices and fewest figures lost)."""
        situation, rulebook, unit = self.situation, self.rulebook, self.unit
        _check_request(situation, rulebook, unit, flags, hits)
        least, most, per_flag_reasons = self.per_flag()
        allowance = self.allowance
        if list_paths and self._graph is not None:
            self._graph = None
        return _plan(self, flags, hits, list_paths, least, most, per_flag_reasons, allowance)

    def summary(self, flags: int) -> tuple[tuple[ChoiceSummary, ...], int]:
        """(the choices, the fewest figures lost) of ``options(flags, list_paths=False)`` without
        its breakdown: all a battle answer reads of each flag count past the first."""
        unit = self.unit
        _check_request(self.situation, self.rulebook, unit, flags, 0)
        least, most, _ = self.per_flag()
        graph, pinned = self.graph(), bool(_pinned(self.situation, self.rulebook, unit))
        choices = tuple(_choice(graph, unit.hex, pinned, flags, ignored, least, most, unit.figures,
                                self.loss_per_move)[0] for ignored in self.allowance.choices(flags))
        return choices, min((c.figures_lost for c in choices), default=0)


def _plan(planner: RetreatPlanner, flags: int, hits: int, list_paths: bool, least: int, most: int,
          per_flag_reasons: list[Reason], allowance: FlagAllowance) -> RetreatResult:
    situation, rulebook, unit, who = planner.situation, planner.rulebook, planner.unit, planner.who
    loss_per_move = planner.loss_per_move
    remaining_figures = unit.figures - hits
    breakdown: list[Reason] = []
    most_ignored = allowance.most_ignored(flags)
    least_ignored = allowance.least_ignored(flags)
    moves_required = (flags - most_ignored) * least

    def result(options: list[RetreatOption], total: int, choices: list[ChoiceSummary], min_lost: int,
               eliminated: bool) -> RetreatResult:
        return RetreatResult(
            unit.id, flags, hits, unit.figures, allowance, most, least, most_ignored, least_ignored,
            moves_required, tuple(options), total, tuple(choices), min_lost, eliminated, tuple(breakdown),
        )

    if remaining_figures <= 0:
        breakdown.append(say("retreat.eliminated_by_hits", RETREAT, unit=who, hits=hits, figures=unit.figures))
        return result([], 0, [], 0, True)
    if flags == 0:
        breakdown.append(say("retreat.no_flag", RETREAT, unit=who))
    else:
        breakdown.extend(allowance.reasons)
        breakdown.extend(per_flag_reasons)
        bottom = situation.is_bottom(unit.side)
        breakdown.append(say("retreat.toward_bottom" if bottom else "retreat.toward_top", RETREAT, unit=who,
                             row=situation.board.baseline_row(bottom)))

    graph = planner.graph()
    pinned = _pinned(situation, rulebook, unit)
    listing = _Listing(situation, rulebook, graph.unit_class)
    options: list[RetreatOption] = []
    choices: list[ChoiceSummary] = []
    per_choice = max(MIN_OPTIONS_PER_CHOICE, MAX_OPTIONS // len(allowance.choices(flags)))
    for ignored in allowance.choices(flags):
        choice, lengths = _choice(graph, unit.hex, bool(pinned), flags, ignored, least, most, remaining_figures,
                                  loss_per_move)
        choices.append(choice)
        lost, required = choice.figures_lost, choice.moves_required
        if list_paths:
            paths = [()] if pinned else (p for n in lengths for p in graph.paths(unit.hex, n))
            for _, path in zip(range(per_choice), paths, strict=False):
                options.append(listing.option(unit.hex, path, ignored, required, lost, remaining_figures - lost))
    total = sum(c.options_total for c in choices)

    breakdown.extend(_outcome_notes(rulebook, unit, who, pinned, loss_per_move, choices, graph, remaining_figures))
    breakdown.extend(listing.notes[k] for k in sorted(listing.notes, key=lambda k: (k[1], k[0])))
    breakdown.extend(_leaving_notes(situation, rulebook, unit, options))
    if len(allowance.choices(flags)) > 1:
        breakdown.append(say("retreat.optional_ignore", RETREAT))
    min_lost = min((c.figures_lost for c in choices), default=0)
    eliminated = hits + min_lost >= unit.figures
    if hits:
        breakdown.append(say("retreat.after_hits", RETREAT, unit=who, figures=unit.figures, hits=hits,
                             left=remaining_figures))
    if eliminated:
        breakdown.append(say("retreat.eliminated", RETREAT, unit=who))
    return result(options, total, choices, min_lost, eliminated)


def _choice(graph: _Graph, start: Hex, pinned: bool, flags: int, ignored: int, least: int, most: int,
            remaining: int, loss_per_move: int) -> tuple[ChoiceSummary, range]:
    """The outcome of ignoring ``ignored`` of ``flags`` flags, and the path lengths it allows."""
    required = (flags - ignored) * least
    allowed = (flags - ignored) * most
    reachable = 0 if required == 0 or pinned else graph.longest(start, allowed)
    lost = min(remaining, max(0, required - reachable) * loss_per_move)
    lengths = range(required, allowed + 1) if reachable >= required else range(reachable, reachable + 1)
    count = sum(graph.count(start, n) for n in lengths) if not pinned else 1
    return ChoiceSummary(ignored, required, allowed, reachable, lost, count), lengths


def _outcome_notes(rulebook: Rulebook, unit: Unit, who: UnitRef, pinned: list[str], loss_per_move: int,
                   choices: list[ChoiceSummary], graph: _Graph, remaining: int) -> list[Reason]:
    """Why the retreat is short: what pins the unit, each blocked step, each choice's shortfall."""
    out: list[Reason] = []
    if pinned and any(c.moves_required for c in choices):
        for entry_id in pinned:
            if entry_id in unit.badges:
                out.append(say("retreat.pinned_marker", entry_id, fact="no_retreat", unit=who,
                               marker=entry_ref(rulebook, entry_id), n=loss_per_move))
            else:
                out.append(say("retreat.pinned_terrain", entry_id, fact="no_retreat_from", unit=who,
                               terrain=entry_ref(rulebook, entry_id), n=loss_per_move))
    out.extend(dict.fromkeys(graph.blocked[k] for k in sorted(graph.blocked)))
    for choice in choices:
        if choice.reachable >= choice.moves_required:
            continue
        not_made = choice.moves_required - choice.reachable
        out.append(say("retreat.shortfall_all" if choice.figures_lost >= remaining else "retreat.shortfall",
                       RETREAT, fact="figures_lost_per_retreat_move_not_made", ignored=choice.flags_ignored,
                       required=choice.moves_required, reachable=choice.reachable, not_made=not_made,
                       lost=not_made * loss_per_move))
    return out


def _leaving_notes(situation: Situation, rulebook: Rulebook, unit: Unit, options: list[RetreatOption]) -> list[Reason]:
    """What a retreat out of the hex leaves behind (sandbags removed, a Camouflage token lost)."""
    if not any(o.path for o in options):
        return []
    out: list[Reason] = []
    for feature in situation.hex_state(unit.hex).features():
        if rulebook.hex_rules(feature).removed_when_occupant_leaves:
            out.append(say("retreat.leaves_obstacle", feature, fact="removed_when_occupant_leaves",
                           obstacle=entry_ref(rulebook, feature)))
    for badge in rulebook.badges_lost(unit.badges, "retreats"):
        out.append(say("retreat.loses_marker", badge, fact="lost_when", marker=entry_ref(rulebook, badge)))
    return out
