"""Who can fire on whom as things stand (``/api/v1/fire-map``; content ``battle``,
``range_and_dice``, ``line_of_sight``).

Every entry is the ``assess_battle`` ruling for that ordered pair of enemy units — the same
function ``/battle`` calls, so the two can never disagree. Work is bounded:

- a pair whose distance is beyond the longest dice table the attacker's unit entry has
  (``dice``, ``dice_unmoved``, ``dice_on_terrain``) is out of range whatever else holds, so
  ``/battle`` would rule it illegal for that reason; such pairs are counted (``beyond_range``),
  not assessed one by one;
- at most ``MAX_PAIRS`` pairs are assessed per map; a bigger map says ``truncated`` and how many
  pairs it holds in all (ask for one ``unit`` to see all of its battles)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.battle import BattleRuling, assess_battle, resolve_entry
from adjudicator.engine.geometry import distance
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit

MAX_PAIRS = 1000
"""Most battles assessed in one map (about 1 ms each today, so a crowded map stays near a second).
One unit's map (as attacker or target) is at most 2 × (MAX_UNITS − 1) pairs, under this cap."""


def reach(rulebook: Rulebook, unit: Unit) -> int:
    """The farthest range at which the unit's entry gives it any battle dice (0: never battles).

    ``assess_battle`` picks one of these tables and rules a target farther than it out of range,
    so nothing beyond the longest can be a legal battle."""
    rules = rulebook.unit(unit.profile)
    tables = (rules.dice, rules.dice_unmoved, *rules.dice_on_terrain.values())
    return max((len(t) for t in tables), default=0) if rules.battles else 0


@dataclass(frozen=True)
class FireMap:
    unit: str | None
    battles: tuple[BattleRuling, ...]  # attacker in situation order, then target in situation order
    pairs: int  # enemy pairs within reach (all of them, even past the cap)
    beyond_range: int  # enemy pairs not assessed because the target is beyond the attacker's reach
    max_pairs: int = MAX_PAIRS

    @property
    def truncated(self) -> bool:
        return self.pairs > len(self.battles)


def fire_map(
    situation: Situation, rulebook: Rulebook, unit_id: str | None = None, card: str | None = None,
    combat_card: str | None = None, max_pairs: int = MAX_PAIRS,
) -> FireMap:
    """Every battle one unit could make against an enemy, for all units or only those involving
    ``unit_id`` (as attacker or target). ``card`` / ``combat_card`` are applied to every pair, as
    ``/battle`` would with the same fields; an unknown one raises IllegalSituation naming it."""
    if unit_id is not None:
        situation.unit(unit_id, "unit")
    # an unknown card is refused as /battle refuses it, even when no pair is in reach
    card = resolve_entry(rulebook, card, "card", "command_card")
    combat_card = resolve_entry(rulebook, combat_card, "combat_card", "combat_card")
    battles: list[BattleRuling] = []
    pairs = beyond = 0
    for attacker in situation.units:
        longest = reach(rulebook, attacker)
        for target in situation.units:
            if target.side == attacker.side or (unit_id is not None and unit_id not in (attacker.id, target.id)):
                continue
            if distance(attacker.hex, target.hex) > longest:
                beyond += 1
                continue
            pairs += 1
            if len(battles) < max_pairs:
                battles.append(assess_battle(situation, rulebook, attacker.id, target.id, card=card,
                                             combat_card=combat_card))
    return FireMap(unit_id, tuple(battles), pairs, beyond, max_pairs)


def fire_entry_json(ruling: BattleRuling) -> dict[str, Any]:
    """One entry of the map: the ``/battle`` fields for that pair, line of sight as a bool."""
    return {
        "attacker": ruling.attacker.id,
        "target": ruling.target.id,
        "legal": ruling.legal,
        "dice": ruling.dice,
        "why_not": [r.to_dict() for r in ruling.why_not],
        "distance": ruling.distance,
        "close_assault": ruling.close_assault,
        "line_of_sight": ruling.los.clear,
        "line_of_sight_needed": ruling.los_needed,
        "hit_symbols": list(ruling.hits.symbols),
    }


def fire_map_json(fm: FireMap) -> dict[str, Any]:
    """The ``/api/v1/fire-map`` answer. Pure and deterministic (also run in the browser)."""
    return {
        "unit": fm.unit,
        "battles": [fire_entry_json(b) for b in fm.battles],
        "pairs": fm.pairs,
        "beyond_range": fm.beyond_range,
        "truncated": fm.truncated,
        "max_pairs": fm.max_pairs,
    }
