"""The dice as rolled, applied (``/api/v1/resolve``; content ``resolving_hits``, ``retreat``,
``take_ground``, ``armor_overrun``).

After the dice land, a referee needs the outcome, not the odds: which of the faces rolled hit this
target, how many figures go, which flags it may or must ignore, the retreat the others force (with
every legal path and the figures a blocked one costs), whether the unit is gone, and whether the
attacker may then take the vacated hex and overrun.

Nothing here re-states a rule: the faces that hit come from ``engine.hits`` (through the battle
ruling), flag ignoring from ``engine.flags``, the retreat from ``engine.retreat`` and take ground /
overrun from ``engine.advance``; this module only applies a given roll to them, in the order of the
game help's battle sequence (hits first, then flags, then the retreat, then ground), and tells that
order as cited ``steps``. Everything is pure and deterministic, so the same ``resolution_json``
can run in the browser.

A card that attacks by itself (Air Power, Barrage: ``engine.card_attack``) is resolved the same
way against one target at a time, with the card's dice and hit symbols; no unit battles, so
nothing takes ground or overruns (issue #14 C)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.advance import AdvanceResult
from adjudicator.engine.aftermath import advance_with_card
from adjudicator.engine.battle import BattleRuling, battle_rule, ruling_json
from adjudicator.engine.card_attack import CardAttack, card_attack_json
from adjudicator.engine.core_ids import DICE_RULE, HIT_RULES, MEDALS, OVERRUN, RETREAT, TAKE_GROUND
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import FlagAllowance, flags_ignorable
from adjudicator.engine.follow_ups import battle_back_opens, battle_back_rules
from adjudicator.engine.hits import ALWAYS_HITS, STAR, die_faces
from adjudicator.engine.odds import FLAG_FACE
from adjudicator.engine.reasons import ParamValue, Reason, UnitRef
from adjudicator.engine.retreat import RetreatResult, retreat_options
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, plural, say, say_params, unit_ref

ROLLED = "rolled"  # the request field every problem with the roll is reported on
MAX_ROLLED = 12  # most dice of one face accepted: more than any battle rolls

VACATED = ("eliminated", "retreated", "owner_choice", "held", "unknown")
"""What happens to the target's hex: emptied by elimination or by a retreat every choice makes;
emptied only if the owner chooses to retreat rather than ignore an optional flag; kept; or not
computable (a retreat the engine cannot compute, such as a train's)."""


def parse_rolled(value: object, rulebook: Rulebook) -> dict[str, int]:
    """The faces rolled, face -> count in the die's face order (faces not given count 0).

    The faces are those of ``die_faces`` of core ``range_and_dice``; anything else, a count that is
    not a whole number from 0 to ``MAX_ROLLED``, or a value that is not an object raises
    IllegalSituation naming ``rolled``."""
    faces = die_faces(rulebook)
    known = ", ".join(faces)
    if value is None:
        raise IllegalSituation(ROLLED, f'is required: the faces rolled, like {{"grenade": 1, "flag": 1}}; the '
                                       f'faces are {known}')
    if not isinstance(value, Mapping):
        raise IllegalSituation(ROLLED, f'must be an object counting each face rolled, like {{"grenade": 1, '
                                       f'"flag": 1}}; the faces are {known}')
    for face, count in value.items():
        if face not in faces:
            raise IllegalSituation(ROLLED, f"unknown die face {str(face)[:40]!r}; the faces are {known}")
        if isinstance(count, bool) or not isinstance(count, int):
            raise IllegalSituation(ROLLED, f"the count of {face} must be a whole number, got {type(count).__name__}")
        if not 0 <= count <= MAX_ROLLED:
            raise IllegalSituation(ROLLED, f"the count of {face} must be between 0 and {MAX_ROLLED}, got {count}")
    return {face: int(value.get(face, 0)) for face in faces}


@dataclass(frozen=True)
class FaceResult:
    """The dice that showed one face, and what they did to this target."""

    face: str
    count: int
    hits: int
    reason: Reason  # why this face hits this target, or why it does not

    def to_dict(self) -> dict[str, Any]:
        return {"face": self.face, "count": self.count, "hits": self.hits, **self.reason.to_dict()}


@dataclass(frozen=True)
class BattleBack:
    """Whether the roll as made lets the close-assaulted unit battle back (Stiff Upper Lip):
    ``open`` is None when its retreat could not be computed."""

    unit: str
    attacker: str
    dice: int
    ignores_terrain: bool
    open: bool | None
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "targets": [self.attacker], "dice": self.dice,
                "ignores_terrain": self.ignores_terrain, "open": self.open, **self.reason.to_dict()}


@dataclass(frozen=True)
class Resolution:
    """One battle's roll, applied (a unit's battle, or a card's own attack)."""

    ruling: BattleRuling | CardAttack
    rolled: tuple[tuple[str, int], ...]
    faces: tuple[FaceResult, ...]
    hits: int
    figures_lost_to_hits: int
    flags: int
    allowance: FlagAllowance | None
    flags_ignored: int
    flags_must_ignore: int
    retreat: RetreatResult | None
    retreat_problem: Reason | None
    figures_lost: int
    eliminated: bool
    vacated: str
    advance: AdvanceResult | None
    steps: tuple[Reason, ...]
    battle_back: BattleBack | None = None

    @property
    def flags_to_retreat(self) -> int:
        return self.flags - self.flags_ignored

    @property
    def take_ground(self) -> bool:
        """Ground is taken only when the hex is certainly emptied and the attacker may enter it."""
        return self.vacated in ("eliminated", "retreated") and bool(self.advance and self.advance.take_ground)

    @property
    def overrun(self) -> bool:
        return self.vacated in ("eliminated", "retreated") and bool(self.advance and self.advance.overrun)


def _face_result(situation: Situation, rulebook: Rulebook, ruling: BattleRuling, face: str,
                 count: int) -> FaceResult:
    """Whether ``count`` dice showing ``face`` hit the target, with the rule that says so: the
    battle's own hit reason for that face (``resolve.hit_*`` / ``resolve.miss_*`` after the count)."""
    target = ruling.target
    whom = unit_ref(situation, rulebook, target)
    said = ruling.hits.reason_for(face)
    if face in ruling.hits.symbols:
        if said is None:
            hit_rule = next(r for r in HIT_RULES if r in rulebook.kinds)
            return FaceResult(face, count, count, say("resolve.hit_default", hit_rule, target=whom, hits=count,
                                                      count=count, face=face))
        return FaceResult(face, count, count, _after_count(said, "resolve.hit_", hits=count, count=count, face=face))
    if face == FLAG_FACE:
        return FaceResult(face, count, 0, say("resolve.flag_face", RETREAT, count=count, face=face))
    if said is not None:  # the target's own symbol, turned off by a special rule
        return FaceResult(face, count, 0, _after_count(said, "resolve.miss_", count=count, face=face))
    if face == STAR:
        hit_rule = next(r for r in HIT_RULES if r in rulebook.kinds)
        return FaceResult(face, count, 0, say("resolve.miss_star", hit_rule, count=count, face=face))
    return FaceResult(face, count, 0, say("resolve.miss_symbol", target.profile, fact="targeted_as", target=whom,
                                          targeted_as=rulebook.unit(target.profile).targeted_as, count=count,
                                          face=face))


def _after_count(said: Reason, prefix: str, **params: ParamValue) -> Reason:
    """The hit reason ``said`` after the dice it is about ("2 dice showing grenade: 2 hits. ...")."""
    return say_params(prefix + said.code.split(".", 1)[1], said.rule, {**said.param_map, **params}, fact=said.fact)


def _card_face_result(situation: Situation, rulebook: Rulebook, attack: CardAttack, face: str,
                      count: int) -> FaceResult:
    """Whether ``count`` dice showing ``face`` hit the card's target: its own symbol and grenades
    always, stars only when the card says so (``stars_hit``)."""
    target, card = attack.target, attack.card
    whom = unit_ref(situation, rulebook, target)
    if face == FLAG_FACE:
        return FaceResult(face, count, 0, say("resolve.flag_face", RETREAT, count=count, face=face))
    hits = count if face in attack.hit_symbols else 0
    if face == STAR:
        code = "resolve.hit_card_stars" if hits else "resolve.miss_card_stars"
        return FaceResult(face, count, hits, say(code, card, fact="stars_hit", card=entry_ref(rulebook, card),
                                                 hits=hits, count=count, face=face))
    if face == ALWAYS_HITS:
        return FaceResult(face, count, hits, say("resolve.hit_always", DICE_RULE, hits=hits, count=count, face=face))
    if hits:
        return FaceResult(face, count, hits, say("resolve.hit_own_symbol", target.profile, fact="targeted_as",
                                                 target=whom, symbol=face, hits=hits, count=count, face=face))
    return FaceResult(face, count, 0, say("resolve.miss_symbol", target.profile, fact="targeted_as", target=whom,
                                          targeted_as=rulebook.unit(target.profile).targeted_as, count=count,
                                          face=face))


def _shown(rolled: dict[str, int]) -> tuple[str, ...]:
    """The faces rolled, as words ("1 grenade")."""
    return tuple(f"{n} {face}" for face, n in rolled.items() if n)


def _vacated(result: RetreatResult | None, flags_to_retreat: int, eliminated: bool, remaining: int) -> str:
    """Whether the target's hex is emptied, from the outcome of every choice the owner may make
    (the choice summaries count every path, even where the listing is capped)."""
    if eliminated:
        return "eliminated"
    if result is None:
        return "unknown" if flags_to_retreat else "held"
    empties = [(c.moves_required > 0 and c.reachable > 0) or c.figures_lost >= remaining for c in result.choices]
    if empties and all(empties):
        return "retreated"
    return "owner_choice" if any(empties) else "held"


def resolve_battle(situation: Situation, rulebook: Rulebook, ruling: BattleRuling,
                   rolled: Mapping[str, int]) -> Resolution:
    """Apply the faces ``rolled`` (as ``parse_rolled`` returns them) to the battle ``ruling``.

    The card and combat card are the ruling's own: a command card can forbid ignoring flags (Air
    Power, Barrage) and a combat card can grant one (Bitter Resistance), as in ``/battle``. A roll
    whose faces do not add up to the battle's dice raises IllegalSituation naming ``rolled``; an
    illegal battle is answered with nothing applied."""
    rolled = dict(rolled)
    total = sum(rolled.values())
    target = ruling.target
    steps: list[Reason] = []
    if not ruling.legal:
        return _not_rolled(ruling, rolled, say("resolve.not_made", battle_rule(rulebook)))
    if total != ruling.dice:
        raise IllegalSituation(ROLLED, f"the faces add up to {_dice(total)}, but this battle rolls "
                                       f"{_dice(ruling.dice)}")
    whom = unit_ref(situation, rulebook, target)
    steps.append(say("resolve.rolls", DICE_RULE, unit=unit_ref(situation, rulebook, ruling.attacker), total=total,
                     target=whom, shown=_shown(rolled)))
    faces = tuple(_face_result(situation, rulebook, ruling, face, n) for face, n in rolled.items() if n)
    flags = 0 if FLAG_FACE in ruling.hits.symbols else rolled.get(FLAG_FACE, 0)
    applied = _apply(situation, rulebook, target, faces, flags, ruling.card, ruling.combat_card, steps)
    vacated = applied.vacated
    advance: AdvanceResult | None = None
    if vacated in ("eliminated", "retreated", "owner_choice"):
        advance = advance_with_card(situation, rulebook, ruling)  # Ambush: no take ground, no overrun
    if applied.eliminated and MEDALS in rulebook.kinds:
        steps.append(say("resolve.medal", MEDALS, target=whom))
    steps.extend(_ground_steps(vacated, advance, whom))
    back = _battle_back(situation, rulebook, ruling, applied)
    if back is not None:
        steps.append(back.reason)
    return Resolution(ruling, tuple(rolled.items()), faces, applied.hits, applied.lost_to_hits, flags,
                      applied.allowance, applied.flags_ignored, applied.must, applied.retreat, applied.problem,
                      applied.figures_lost, applied.eliminated, vacated, advance, tuple(steps), back)


def _battle_back(situation: Situation, rulebook: Rulebook, ruling: BattleRuling,
                 applied: _Applied) -> BattleBack | None:
    """Whether this roll opens the target's battle back (``engine.follow_ups``: down to
    ``battle_back_figures`` without retreating; a figure lost to a retreat it could not make is
    no retreat), and why; None when no nation rule offers the target one."""
    target, attacker = ruling.target, ruling.attacker
    for nation_id, rules in battle_back_rules(situation, rulebook, ruling):
        dice, keep = rules.battle_back_dice or 0, rules.battle_back_figures
        left = target.figures - applied.figures_lost
        params: dict[str, ParamValue] = {
            "nation": entry_ref(rulebook, nation_id), "unit": unit_ref(situation, rulebook, target),
            "attacker": unit_ref(situation, rulebook, attacker), "figures": keep, "left": left, "n": dice}
        opened: bool | None = False
        if applied.eliminated:
            code = "resolve.battle_back_eliminated"
        elif applied.retreat is None and applied.problem is not None:
            opened = None
            code = "resolve.battle_back_unknown"
        else:
            choices = applied.retreat.choices if applied.retreat is not None else ()
            opened = battle_back_opens(choices, target.figures, applied.lost_to_hits, keep)
            moves = bool(choices) and not any(c.reachable == 0 for c in choices)
            code = ("resolve.battle_back_open" if opened else "resolve.battle_back_retreats" if moves
                    else "resolve.battle_back_figures_left")
        why = say_params(code, nation_id, params, fact="battle_back_dice")
        return BattleBack(target.id, attacker.id, dice, rules.battle_back_ignores_terrain, opened, why)
    return None


def _dice(n: int) -> str:
    return plural(n, "die", "dice")


def _not_rolled(ruling: BattleRuling | CardAttack, rolled: dict[str, int], why: Reason) -> Resolution:
    """The answer for a battle or card attack that may not be made: nothing rolled, nothing lost,
    the hex held; the steps say why (the ruling's own ``why_not``)."""
    return Resolution(ruling, tuple(rolled.items()), (), 0, 0, 0, None, 0, 0, None, None, 0, False, "held",
                      None, (why, *ruling.why_not))


def resolve_card_attack(situation: Situation, rulebook: Rulebook, attack: CardAttack,
                        rolled: Mapping[str, int]) -> Resolution:
    """Apply the faces ``rolled`` against the target of a card's own attack (``engine.card_attack``):
    the card's dice and hit symbols, its flags (which Air Power and Barrage forbid ignoring), the
    retreat they force. An Air Power group is rolled target by target: the roll is ``target``'s.
    No unit battles, so no ground is taken and no overrun follows (issue #14 C)."""
    rolled = dict(rolled)
    total = sum(rolled.values())
    target, card = attack.target, attack.card
    name = rulebook.names[card]
    steps: list[Reason] = []
    named = entry_ref(rulebook, card)
    if not attack.legal:
        return _not_rolled(attack, rolled, say("resolve.card_not_made", card, card=named))
    whom = unit_ref(situation, rulebook, target)
    if total != attack.dice:
        raise IllegalSituation(ROLLED, f"the faces add up to {_dice(total)}, but {name} rolls {_dice(attack.dice)} "
                                       f"on {whom}")
    steps.append(say("resolve.card_rolls", card, fact="fixed_dice", card=named, side=attack.side, total=total,
                     target=whom, shown=_shown(rolled)))
    faces = tuple(_card_face_result(situation, rulebook, attack, face, n) for face, n in rolled.items() if n)
    flags = rolled.get(FLAG_FACE, 0)
    applied = _apply(situation, rulebook, target, faces, flags, card, None, steps)
    if applied.eliminated and MEDALS in rulebook.kinds:
        steps.append(say("resolve.card_medal", MEDALS, target=whom, side=attack.side))
    if applied.vacated != "held":
        steps.append(say("resolve.card_no_ground", card, card=named))
    return Resolution(attack, tuple(rolled.items()), faces, applied.hits, applied.lost_to_hits, flags,
                      applied.allowance, applied.flags_ignored, applied.must, applied.retreat, applied.problem,
                      applied.figures_lost, applied.eliminated, applied.vacated, None, tuple(steps))


@dataclass(frozen=True)
class _Applied:
    """Hits, flags and the retreat of one roll: the part a unit's battle and a card's attack share."""

    hits: int
    lost_to_hits: int
    allowance: FlagAllowance
    flags_ignored: int
    must: int
    retreat: RetreatResult | None
    problem: Reason | None
    figures_lost: int
    eliminated: bool
    vacated: str


def _apply(situation: Situation, rulebook: Rulebook, target: Unit, faces: tuple[FaceResult, ...], flags: int,
           card: str | None, combat_card: str | None, steps: list[Reason]) -> _Applied:
    """Hits first, then flags, then the retreat (game help summary, battle sequence); appends the
    cited steps to ``steps``."""
    steps.extend(f.reason for f in faces)
    hits = sum(f.hits for f in faces)
    lost_to_hits = min(hits, target.figures)
    left = target.figures - lost_to_hits
    hit_rule = next(r for r in HIT_RULES if r in rulebook.kinds)
    whom = unit_ref(situation, rulebook, target)
    if hits == 0:
        steps.append(say("resolve.no_hit", hit_rule, target=whom, figures=target.figures))
    elif left == 0 and hits > target.figures:
        steps.append(say("resolve.eliminated_extra", hit_rule, hits=hits, figures=target.figures, target=whom,
                         extra=hits - target.figures))
    elif left == 0:
        steps.append(say("resolve.eliminated", hit_rule, hits=hits, figures=target.figures, target=whom))
    else:
        steps.append(say("resolve.hit_removes" if hits == 1 else "resolve.hits_remove", hit_rule, hits=hits,
                         lost=lost_to_hits, target=whom, left=left))

    allowance = flags_ignorable(situation, rulebook, target.id, card=card, combat_card=combat_card)
    flags_ignored, must = allowance.most_ignored(flags), allowance.least_ignored(flags)
    retreat: RetreatResult | None = None
    problem: Reason | None = None
    try:
        retreat = retreat_options(situation, rulebook, target.id, flags, card=card, combat_card=combat_card,
                                  hits=lost_to_hits)
    except IllegalSituation as exc:
        problem = say("retreat.not_computed", target.profile, problem=exc.message)
    retreat_lost = retreat.min_figures_lost if retreat is not None and left > 0 else 0
    figures_lost = min(target.figures, lost_to_hits + retreat_lost)
    eliminated = figures_lost >= target.figures

    if flags and left == 0:
        steps.append(say("resolve.eliminated_before_flags", RETREAT, target=whom, flags=flags))
    elif flags:
        steps.extend(_flag_steps(rulebook, allowance, whom, flags, flags_ignored, must))
        steps.extend(_retreat_steps(whom, flags - flags_ignored, retreat, problem, left))

    vacated = _vacated(retreat, flags - flags_ignored, eliminated, left)
    return _Applied(hits, lost_to_hits, allowance, flags_ignored, must, retreat, problem, figures_lost, eliminated,
                    vacated)


def _flag_steps(rulebook: Rulebook, allowance: FlagAllowance, unit: UnitRef, flags: int, most: int,
                least: int) -> list[Reason]:
    """The flags rolled and each permission or obligation to ignore some (``engine.flags``)."""
    steps: list[Reason] = []
    if allowance.forbidden_by and rulebook.card(allowance.forbidden_by) is None:
        steps.append(say("resolve.flags_forbidden_marker", allowance.forbidden_by, fact="forbids_flag_ignoring",
                         marker=entry_ref(rulebook, allowance.forbidden_by), unit=unit))
    elif allowance.forbidden_by:
        steps.append(say("resolve.flags_forbidden", allowance.forbidden_by, fact="forbids_flag_ignoring",
                         card=entry_ref(rulebook, allowance.forbidden_by)))
    for source in allowance.sources:
        steps.append(say("resolve.must_ignore" if source.mandatory else "resolve.may_ignore", source.rule,
                         fact="flags", source=entry_ref(rulebook, source.rule), unit=unit,
                         count="all" if source.count is None else source.count))
    if most == 0:
        steps.append(say("resolve.ignore_none", RETREAT, flags=flags, unit=unit))
    elif least == most:
        steps.append(say("resolve.ignores", RETREAT, flags=flags, unit=unit, most=most, left=flags - most))
    elif least:
        steps.append(say("resolve.may_ignore_must", RETREAT, flags=flags, unit=unit, most=most, least=least,
                         left=flags - most))
    else:
        steps.append(say("resolve.may_ignore_up_to", RETREAT, flags=flags, unit=unit, most=most, left=flags - most))
    return steps


def _retreat_steps(unit: UnitRef, to_retreat: int, retreat: RetreatResult | None, problem: Reason | None,
                   left: int) -> list[Reason]:
    """The retreat the remaining flags force, from the choice that ignores every flag it may."""
    if problem is not None:
        return [problem]
    if retreat is None or to_retreat == 0:
        return [say("resolve.no_retreat", RETREAT, unit=unit)]
    choice = next((c for c in retreat.choices if c.flags_ignored == retreat.flags_ignored), None)
    if choice is None:  # pragma: no cover - retreat_options lists every choice it allows
        return []
    steps: list[Reason] = []
    if choice.reachable >= choice.moves_required:
        farther = choice.moves_allowed > choice.moves_required
        steps.append(say("resolve.retreats_farther" if farther else "resolve.retreats", RETREAT, unit=unit,
                         n=choice.moves_required, paths=choice.options_total, most=choice.moves_allowed))
    else:
        not_made = choice.moves_required - choice.reachable
        steps.append(say("resolve.retreat_short" if choice.reachable else "resolve.retreat_stuck", RETREAT,
                         fact="figures_lost_per_retreat_move_not_made", unit=unit, n=choice.moves_required,
                         not_made=not_made, lost=choice.figures_lost, reachable=choice.reachable))
        if choice.figures_lost >= left:
            steps.append(say("resolve.retreat_eliminates", RETREAT, unit=unit))
    if any(o.risks for o in retreat.options):
        risky = next(o for o in retreat.options if o.risks)
        steps.append(say("resolve.risky_retreat", risky.risks[0].rule, fact="entry_risk"))
    return steps


def _ground_steps(vacated: str, advance: AdvanceResult | None, unit: UnitRef) -> list[Reason]:
    """Take ground and overrun, only once the hex is (or may be) emptied (``engine.advance``)."""
    if vacated == "held":
        return [say("resolve.holds", TAKE_GROUND, unit=unit)]
    if vacated == "unknown":
        return [say("resolve.vacated_unknown", TAKE_GROUND, unit=unit)]
    steps: list[Reason] = []
    if vacated == "owner_choice":
        steps.append(say("resolve.owner_choice", RETREAT, unit=unit))
    if advance is not None:
        steps.extend(advance.take_ground_reasons)
        if advance.take_ground:
            steps.extend(advance.overrun_reasons)
        elif OVERRUN not in {r.rule for r in steps}:
            steps.append(say("advance.no_overrun_without_ground", OVERRUN))
    return steps


def resolution_json(situation: Situation, rulebook: Rulebook, res: Resolution) -> dict[str, Any]:
    """The ``/api/v1/resolve`` answer (adjudicator/API.md): the battle ruling's identity fields,
    then the roll applied. Pure and deterministic (also run in the browser). A card's own attack
    also carries ``card_attack``, ``side`` and its ``targets`` group, as ``/battle`` does."""
    identity = ("attacker", "target", "card", "combat_card", "legal", "why_not", "distance", "close_assault", "dice",
                "breakdown", "hit_symbols")
    out: dict[str, Any]
    if isinstance(res.ruling, CardAttack):
        ruling = card_attack_json(situation, rulebook, res.ruling)
        out = {k: ruling[k] for k in (*identity, "card_attack", "side", "targets")}
        out["overrun_battle"] = False
    else:
        ruling = ruling_json(situation, rulebook, res.ruling)
        out = {k: ruling[k] for k in (*identity, "overrun_battle")}
    retreat: dict[str, Any]
    if res.retreat is not None:
        retreat = res.retreat.to_dict()
    else:
        retreat = {"moves_required": 0, "options": [], "min_figures_lost": 0,
                   "problem": res.retreat_problem.to_dict() if res.retreat_problem else None}
    target = res.ruling.target
    out.update({
        "rolled": dict(res.rolled),
        "hits": res.hits,
        "hits_by_face": [f.to_dict() for f in res.faces],
        "figures": target.figures,
        "figures_lost_to_hits": res.figures_lost_to_hits,
        "figures_lost": res.figures_lost,
        "figures_left": target.figures - res.figures_lost,
        "flags": res.flags,
        "flags_ignored": res.flags_ignored,
        "flags_must_ignore": res.flags_must_ignore,
        "flags_to_retreat": res.flags_to_retreat,
        "flag_allowance": res.allowance.to_dict() if res.allowance is not None else None,
        "retreat": retreat,
        "eliminated": res.eliminated,
        "vacated": res.vacated,
        "take_ground": res.take_ground,
        "overrun": res.overrun,
        "take_ground_if_vacated": bool(res.advance and res.advance.take_ground),
        "overrun_if_vacated": bool(res.advance and res.advance.overrun),
        "advance": res.advance.to_dict() if res.advance is not None else None,
        "steps": [s.to_dict() for s in res.steps],
        "battle_back": res.battle_back.to_dict() if res.battle_back is not None else None,
    })
    return out
