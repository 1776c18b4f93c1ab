"""Attacks made by a command card itself, with no unit battling (issue #14 C): Air Power and
Barrage (and their Breakthrough versions). ``/api/v1/battle`` rules one when it gets such a
``card`` and a ``target`` but no ``attacker``.

Everything is read from the card's content: ``fixed_dice`` by the playing side, ``max_targets``
and ``targets_contiguous`` (Air Power: up to 4 units on contiguous hexes), ``stars_hit``, and
``forbids_flag_ignoring`` for the flags. A special rule in effect whose ``fixed_dice_cards`` names
the card replaces its dice (Winter Weather: Air Power rolls 1 die for each side). The target's
terrain never reduces a card's dice (card attacks roll a fixed number: BGA implementation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.battle import unit_json
from adjudicator.engine.core_ids import DICE_RULE, RETREAT
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.flags import FlagAllowance, flags_ignorable
from adjudicator.engine.hits import ALWAYS_HITS, STAR, die_faces
from adjudicator.engine.lookups import is_a, special_rules_in_effect
from adjudicator.engine.odds import Odds, battle_odds
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import RetreatResult, retreat_options
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, say, unit_ref

MAX_TARGETS_GIVEN = 12  # bounded work: no card attacks more units than this


def is_card_attack(rulebook: Rulebook, card: str | None) -> bool:
    """Whether ``card`` (a content id) is a card that attacks by itself (has ``fixed_dice``)."""
    rules = rulebook.card(card)
    return rules is not None and bool(rules.fixed_dice)


@dataclass(frozen=True)
class CardAttack:
    card: str
    side: str  # the side playing the card
    target: Unit
    targets: tuple[Unit, ...]  # the whole group attacked (the target first)
    why_not: tuple[Reason, ...]
    dice: int
    breakdown: tuple[Reason, ...]
    hit_symbols: tuple[str, ...]
    hit_reasons: tuple[Reason, ...]
    odds: Odds | None
    allowance: FlagAllowance
    retreat: RetreatResult | None
    notes: tuple[Reason, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.why_not


def assess_card_attack(situation: Situation, rulebook: Rulebook, card: str, target_id: str,
                       other_targets: tuple[str, ...] = ()) -> CardAttack:
    """Rule on ``card`` attacking ``target_id`` (and the rest of its group, ``other_targets``)."""
    rules = rulebook.card(card)
    if rules is None:
        raise IllegalSituation("card", f"{rulebook.names.get(card, card)} is not a command card")
    target = situation.unit(target_id, "target")
    if len(other_targets) > MAX_TARGETS_GIVEN:
        raise IllegalSituation("targets", f"has {len(other_targets)} units; at most {MAX_TARGETS_GIVEN} are allowed")
    group = [target]
    for i, unit_id in enumerate(other_targets):
        unit = situation.unit(unit_id, f"targets[{i}]")
        if unit not in group:
            group.append(unit)
    side = "allies" if target.side == "axis" else "axis"
    card_ref = entry_ref(rulebook, card)
    why_not: list[Reason] = []
    notes: list[Reason] = []
    if any(u.side != target.side for u in group):
        why_not.append(say("card_attack.enemy_only", card, card=card_ref, side=target.side))
    if len(group) > rules.max_targets:
        why_not.append(say("card_attack.too_many", card, fact="max_targets", card=card_ref, most=rules.max_targets,
                           given=len(group)))
    if rules.targets_contiguous and not _contiguous(situation, group):
        why_not.append(say("card_attack.not_contiguous", card, fact="targets_contiguous", card=card_ref))
    for unit in group:  # ``camouflage``: such a unit may be attacked only in close assault, never by a card
        for badge in unit.badges:
            marker = rulebook.badge(badge)
            if marker is not None and marker.targetable_only_in_close_assault:
                why_not.append(say("card_attack.close_assault_only", badge, fact="targetable_only_in_close_assault",
                                   card=card_ref, target=unit_ref(situation, rulebook, unit),
                                   marker=entry_ref(rulebook, badge)))

    dice, source = rules.fixed_dice.get(side, 0), card
    breakdown = [say("card_attack.dice", card, fact="fixed_dice", dice=dice, card=card_ref, side=side, n=dice)]
    for rule_id, special in special_rules_in_effect(situation, rulebook):
        if special.fixed_dice and any(is_a(rulebook, card, c) for c in special.fixed_dice_cards):
            new = special.fixed_dice.get(side, dice)
            breakdown.append(say("card_attack.rule_dice", rule_id, fact="fixed_dice", dice=new - dice,
                                 entry=entry_ref(rulebook, rule_id), card=card_ref, side=side, n=new))
            dice, source = new, rule_id
    breakdown.append(say("card_attack.no_terrain", card, dice=0))
    if dice <= 0:
        why_not.append(say("card_attack.no_dice", source))

    faces = die_faces(rulebook)
    t_rules = rulebook.unit(target.profile)
    whom = unit_ref(situation, rulebook, target)
    symbols: set[str] = set()
    hit_reasons: list[Reason] = []
    if t_rules.targeted_as in faces:
        symbols.add(t_rules.targeted_as)
        hit_reasons.append(say("hits.own_symbol", target.profile, fact="targeted_as", target=whom,
                               symbol=t_rules.targeted_as))
    if ALWAYS_HITS in faces:
        symbols.add(ALWAYS_HITS)
        hit_reasons.append(say("hits.always", DICE_RULE, face=ALWAYS_HITS))
    if STAR in faces:
        if rules.stars_hit:
            symbols.add(STAR)
        hit_reasons.append(say("hits.card_stars" if rules.stars_hit else "card_attack.stars_miss", card,
                               fact="stars_hit", card=card_ref))
    ordered = tuple(f for f in faces if f in symbols)
    odds = battle_odds(dice, faces, ordered, target.figures) if not why_not else None

    allowance = flags_ignorable(situation, rulebook, target.id, card=card)
    retreat: RetreatResult | None = None
    try:
        retreat = retreat_options(situation, rulebook, target.id, 1, card=card)
    except IllegalSituation as exc:
        notes.append(say("retreat.not_computed", RETREAT, problem=exc.message))
    notes.append(say("card_attack.no_advance", card, card=card_ref))
    return CardAttack(card, side, target, tuple(group), tuple(dict.fromkeys(why_not)), max(dice, 0),
                      tuple(breakdown), ordered, tuple(hit_reasons), odds, allowance, retreat, tuple(notes))


def _contiguous(situation: Situation, group: list[Unit]) -> bool:
    """Whether the hexes of ``group`` form one connected patch."""
    hexes = {u.hex for u in group}
    seen, todo = {group[0].hex}, [group[0].hex]
    while todo:
        for n in situation.board.neighbours(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def card_attack_json(situation: Situation, rulebook: Rulebook, attack: CardAttack) -> dict[str, Any]:
    """The ``/api/v1/battle`` answer for a card attack: the same fields as a unit's battle, with
    ``attacker`` null, ``card_attack`` true and the whole ``targets`` group."""
    board = situation.board
    retreat: dict[str, Any] = {"per_flag": None, "options": []}
    if attack.retreat is not None:
        r = attack.retreat
        retreat = {"per_flag": r.per_flag, "per_flag_min": r.per_flag_min, "flags": 1,
                   "options": [o.to_dict() for o in r.options], "options_total": r.options_total,
                   "min_figures_lost": r.min_figures_lost, "eliminated": r.eliminated,
                   "breakdown": [x.to_dict() for x in r.breakdown]}
    may = attack.allowance.may_ignore
    return {
        "card_attack": True,
        "attacker": None,
        "side": attack.side,
        "target": unit_json(board, attack.target, rulebook),
        "targets": [u.id for u in attack.targets],
        "card": attack.card,
        "combat_card": None,
        "legal": attack.legal,
        "distance": None,
        "close_assault": False,
        "line_of_sight": {"needed": False, "clear": True, "blocked_by": []},
        "why_not": [r.to_dict() for r in attack.why_not],
        "dice": attack.dice,
        "breakdown": [r.to_dict() for r in attack.breakdown],
        "hit_symbols": list(attack.hit_symbols),
        "hit_reasons": [r.to_dict() for r in attack.hit_reasons],
        "probabilities": attack.odds.to_dict() if attack.odds is not None else None,
        "flags_ignored": attack.dice if may is None else may,
        "flag_allowance": attack.allowance.to_dict(),
        "retreat": retreat,
        "take_ground": False,
        "overrun": False,
        "notes": [r.to_dict() for r in attack.notes],
        "follow_ups": [],
    }
