"""Which die faces score a hit on a target (content ``range_and_dice``; Game help summary,
Resolving battles; Winter Wars rulebook, Reduced Visibility and New Troops).

The faces and how many of the six each covers come from the ``die_faces`` field of the core
entry ``range_and_dice``: nothing about the die is typed here."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.core_ids import DICE_RULE, HIT_RULES
from adjudicator.engine.lookups import special_rules_in_effect
from adjudicator.engine.reasons import Reason
from adjudicator.engine.rulebook import Rulebook, UnitRules
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, say, unit_ref

ALWAYS_HITS = "grenade"
STAR = "star"


def die_faces(rulebook: Rulebook) -> dict[str, int]:
    """Face name -> how many of the die's sides show it, from ``range_and_dice``."""
    rules = rulebook.core(DICE_RULE)
    if rules is None or not rules.die_faces:
        raise LookupError(f"the core entry {DICE_RULE!r} must define die_faces")
    return {str(face): n for face, n in rules.die_faces.items()}


@dataclass(frozen=True)
class HitSymbols:
    symbols: tuple[str, ...]  # in the die's face order
    reasons: tuple[Reason, ...]
    faces: tuple[str, ...] = ()  # the die face each of ``reasons`` is about, in the same order

    def reason_for(self, face: str) -> Reason | None:
        """The reason given about ``face`` (why it hits, or why it does not), if any."""
        return next((r for f, r in zip(self.faces, self.reasons, strict=False) if f == face), None)


def hit_symbols(
    situation: Situation,
    rulebook: Rulebook,
    attacker: Unit,
    target: Unit,
    close_assault: bool,
    card: str | None = None,
) -> HitSymbols:
    """The faces that score a hit when ``attacker`` battles ``target``, each with its reason.

    - the target's own symbol (``targeted_as``: infantry, armor; artillery has none on the die),
      except beyond close-assault range under a special rule with
      ``matching_symbols_close_assault_only`` (Reduced Visibility);
    - grenades, always;
    - stars, when the attacker's ``star_hits`` cover the target (respecting ``when: unmoved``),
      when the target's ``stars_hit_it_from`` names the attacker's class, or when the command card
      says ``stars_hit``. Star hits survive Reduced Visibility (Winter Wars rulebook)."""
    faces = die_faces(rulebook)
    attacker_rules = rulebook.unit(attacker.profile)
    target_rules = rulebook.unit(target.profile)
    target_ref = unit_ref(situation, rulebook, target)
    hits: set[str] = set()
    reasons: list[Reason] = []
    faces_said: list[str] = []

    symbol = target_rules.targeted_as
    if symbol in faces:
        blinding = [(i, r) for i, r in special_rules_in_effect(situation, rulebook)
                    if r.matching_symbols_close_assault_only]
        if blinding and not close_assault:
            rule_id = blinding[0][0]
            reasons.append(say("hits.close_assault_only", rule_id, fact="matching_symbols_close_assault_only",
                               entry=entry_ref(rulebook, rule_id), symbol=symbol))
        else:
            hits.add(symbol)
            reasons.append(say("hits.own_symbol", target.profile, fact="targeted_as", target=target_ref,
                               symbol=symbol))
        faces_said.append(symbol)
    else:
        faces_said.append("")
        reasons.append(say("hits.no_own_symbol", target.profile, fact="targeted_as", target=target_ref,
                           symbol=symbol))

    if ALWAYS_HITS in faces:
        hits.add(ALWAYS_HITS)
        cite = next(r for r in HIT_RULES if r in rulebook.kinds)
        reasons.append(say("hits.always", cite, face=ALWAYS_HITS))
        faces_said.append(ALWAYS_HITS)

    if STAR in faces:
        star = _star_reason(situation, rulebook, attacker, attacker_rules, target, target_rules, card)
        if star is not None:
            hits.add(STAR)
            reasons.append(star)
            faces_said.append(STAR)
    return HitSymbols(tuple(face for face in faces if face in hits), tuple(reasons), tuple(faces_said))


def _star_reason(
    situation: Situation, rulebook: Rulebook, attacker: Unit, attacker_rules: UnitRules, target: Unit,
    target_rules: UnitRules, card: str | None,
) -> Reason | None:
    """Why stars hit this target, or None. "Armor or vehicle" targets are matched on the target's
    family (``unit_class``) as well as on what it is targeted as, so a truck counts as a vehicle."""
    target_classes = {target_rules.unit_class, target_rules.targeted_as}
    for star_hit in attacker_rules.star_hits:
        if not target_classes & set(star_hit.targets):
            continue
        if star_hit.when == "unmoved" and attacker.moved > 0:
            continue
        return say("hits.stars_unmoved" if star_hit.when == "unmoved" else "hits.stars", attacker.profile,
                   fact="star_hits", unit=unit_ref(situation, rulebook, attacker), classes=star_hit.targets)
    if attacker_rules.unit_class in target_rules.stars_hit_it_from:
        return say("hits.stars_hit_it", target.profile, fact="stars_hit_it_from",
                   unit_class=attacker_rules.unit_class, target=unit_ref(situation, rulebook, target))
    card_rules = rulebook.card(card)
    if card is not None and card_rules is not None and card_rules.stars_hit:
        return say("hits.card_stars", card, fact="stars_hit", card=entry_ref(rulebook, card))
    return None
