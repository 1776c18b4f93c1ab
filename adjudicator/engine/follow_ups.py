"""Battles a ruling offers after the one asked about, each with its own dice, hits
and odds, so a referee sees at once what the roll may lead to:

- **Stiff Upper Lip** (nation ``british_commonwealth``): a British unit a close assault leaves with
  ``battle_back_figures`` figures, and that does not retreat, may battle the attacker back with
  ``battle_back_dice`` dice, ignoring terrain; never against the cards in
  ``battle_back_not_with_cards`` (Ambush). A unit that cannot retreat and loses figures instead
  (core ``retreat``: ``figures_lost_per_retreat_move_not_made``) has not retreated: the figures
  it loses so count toward the one it is left with (``battle_back_opens``).
- **Furia Francese** (nation ``french_army``): a unit of ``second_close_assault_units`` whose close
  assault eliminates its target or makes it retreat may instead of taking ground close-assault
  another adjacent enemy with ``second_close_assault_dice`` dice, ignoring terrain.
- **A second battle** ordered by the card (``battles_per_unit``: Artillery Bombard).

Every number comes from those content fields; nothing is typed here."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from adjudicator.engine.battle import BattleRuling
from adjudicator.engine.hits import die_faces, hit_symbols
from adjudicator.engine.lookups import card_orders, nations_of
from adjudicator.engine.odds import battle_odds, exact, joint
from adjudicator.engine.reasons import Reason
from adjudicator.engine.retreat import ChoiceSummary
from adjudicator.engine.rulebook import NationRules, Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, say, unit_ref


@dataclass(frozen=True)
class FollowUp:
    """One battle the ruling offers next: who battles whom, with how many dice, and when."""

    kind: str  # battle_back | second_close_assault | second_battle
    unit: str  # the unit that may battle
    targets: tuple[str, ...]  # whom it may battle (empty: any target in range, as usual)
    dice: int | None  # None: counted as a normal battle of that unit
    ignores_terrain: bool
    reason: Reason  # what allows it, and when
    hit_symbols: tuple[str, ...] = ()
    odds: tuple[dict[str, Any], ...] = ()  # one per target
    chance: Fraction | None = None  # chance the first roll opens it, where the engine can tell

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind, "unit": self.unit, "targets": list(self.targets), "dice": self.dice,
            "ignores_terrain": self.ignores_terrain, **self.reason.to_dict(),
        }
        if self.hit_symbols:
            out["hit_symbols"] = list(self.hit_symbols)
        if self.odds:
            out["probabilities"] = list(self.odds)
        if self.chance is not None:
            out["chance"] = round(float(self.chance), 4)
            out["chance_exact"] = exact(self.chance)
        return out


def _odds(situation: Situation, rulebook: Rulebook, attacker: Unit, target: Unit, dice: int,
          card: str | None = None) -> tuple[tuple[str, ...], dict[str, Any]]:
    hits = hit_symbols(situation, rulebook, attacker, target, True, card)
    return hits.symbols, battle_odds(dice, die_faces(rulebook), hits.symbols, target.figures).to_dict()


def follow_up_battles(situation: Situation, rulebook: Rulebook, ruling: BattleRuling,
                      choices_by_flags: tuple[tuple[ChoiceSummary, ...], ...] = ()) -> tuple[FollowUp, ...]:
    """The follow-up battles ``ruling`` offers (none when the battle cannot be made);
    ``choices_by_flags`` are the target's retreat choices for 0, 1, ... flags (``engine.aftermath``),
    without which the chance a battle back opens is not given."""
    if not ruling.legal:
        return ()
    out: list[FollowUp] = []
    out.extend(_battle_back(situation, rulebook, ruling, choices_by_flags))
    out.extend(_second_close_assault(situation, rulebook, ruling))
    card = rulebook.card(ruling.card)
    # the card's second battle is for the kind of unit it orders, and once (engine ``orders``)
    if (ruling.card is not None and card is not None and card.battles_per_unit > 1 and not ruling.attacker.battled
            and card_orders(rulebook, card, ruling.attacker)):
        out.append(FollowUp("second_battle", ruling.attacker.id, (), None, False, say(
            "follow_up.second_battle", ruling.card, fact="battles_per_unit", card=entry_ref(rulebook, ruling.card),
            unit=unit_ref(situation, rulebook, ruling.attacker), n=card.battles_per_unit)))
    return tuple(out)


def battle_back_opens(choices: tuple[ChoiceSummary, ...], figures: int, hits: int, keep: int) -> bool:
    """Whether a unit of ``figures`` figures that takes ``hits`` hits ends the close assault with
    exactly ``keep`` figures without retreating, for some choice its owner may make of the flags
    (``choices``: empty when no flag was rolled). A choice that moves it nowhere is no retreat:
    every flag ignored, or a retreat blocked from its first hex (each hex not made costs figures)."""
    left = figures - hits
    if not choices:
        return left == keep
    return any(c.reachable == 0 and left - c.figures_lost == keep for c in choices)


def battle_back_rules(situation: Situation, rulebook: Rulebook, ruling: BattleRuling) -> list[tuple[str, NationRules]]:
    """The nation entries that offer the target of ``ruling`` a battle back (Stiff Upper Lip):
    a close assault, not with a card in ``battle_back_not_with_cards``, on a unit that battles and
    may battle where it stands (not in the ocean)."""
    target = ruling.target
    if not ruling.close_assault:
        return []
    t_rules = rulebook.unit(target.profile)
    if not t_rules.battles or any(t_rules.unit_class in rulebook.hex_rules(f).cannot_battle_in
                                  for f in situation.hex_state(target.hex).features()):
        return []  # a unit that never battles, or may not battle where it stands (ocean), cannot battle back
    return [(nation_id, rules) for nation_id, rules in nations_of(rulebook, target)
            if rules.battle_back_dice is not None and target.figures >= rules.battle_back_figures
            and ruling.card not in rules.battle_back_not_with_cards]


def _battle_back(situation: Situation, rulebook: Rulebook, ruling: BattleRuling,
                 choices_by_flags: tuple[tuple[ChoiceSummary, ...], ...]) -> list[FollowUp]:
    target, attacker = ruling.target, ruling.attacker
    out: list[FollowUp] = []
    for nation_id, rules in battle_back_rules(situation, rulebook, ruling):
        dice = rules.battle_back_dice or 0  # battle_back_rules keeps only entries that give dice
        symbols, odds = _odds(situation, rulebook, target, attacker, dice)
        chance = None
        if ruling.odds is not None and len(choices_by_flags) > ruling.odds.dice:
            # the roll must leave exactly battle_back_figures, the unit not having retreated
            chance = sum((p for (hits, flags), p in joint(ruling.odds.dice, ruling.odds.hit_chance,
                                                          ruling.odds.flag_chance).items()
                          if battle_back_opens(choices_by_flags[flags], target.figures, hits,
                                               rules.battle_back_figures)),
                         Fraction(0))
        terrain = "_ignoring_terrain" if rules.battle_back_ignores_terrain else ""
        why = say(f"follow_up.battle_back{terrain}", nation_id, fact="battle_back_dice",
                  nation=entry_ref(rulebook, nation_id), unit=unit_ref(situation, rulebook, target),
                  figures=rules.battle_back_figures, attacker=unit_ref(situation, rulebook, attacker),
                  n=dice)
        out.append(FollowUp("battle_back", target.id, (attacker.id,), dice,
                            rules.battle_back_ignores_terrain, why, symbols, (odds,), chance))
    return out


def _second_close_assault(situation: Situation, rulebook: Rulebook, ruling: BattleRuling) -> list[FollowUp]:
    attacker, target = ruling.attacker, ruling.target
    if not ruling.close_assault or ruling.overrun_battle:
        return []
    out: list[FollowUp] = []
    for nation_id, rules in nations_of(rulebook, attacker):
        dice = rules.second_close_assault_dice
        units = rules.second_close_assault_units
        if dice is None or (units and attacker.profile not in units):
            continue
        others = [u for n in situation.board.neighbours(attacker.hex)
                  if (u := situation.unit_at(n)) is not None and u.side != attacker.side and u.id != target.id]
        if not others:
            continue
        results = [_odds(situation, rulebook, attacker, other, dice) for other in others]
        terrain = "_ignoring_terrain" if rules.second_close_assault_ignores_terrain else ""
        why = say(f"follow_up.second_close_assault{terrain}", nation_id, fact="second_close_assault_dice",
                  nation=entry_ref(rulebook, nation_id), target=unit_ref(situation, rulebook, target),
                  unit=unit_ref(situation, rulebook, attacker),
                  others=tuple(unit_ref(situation, rulebook, u) for u in others), n=dice)
        out.append(FollowUp(
            "second_close_assault", attacker.id, tuple(u.id for u in others), dice,
            rules.second_close_assault_ignores_terrain, why,
            results[0][0] if len(results) == 1 else (), tuple(odds for _, odds in results)))
    return out
