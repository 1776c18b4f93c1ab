"""Who can fire on whom as things stand (``/api/v1/fire-map``; content ``battle``,
``range_and_dice``, ``line_of_sight``).

Every entry is the ``assess_battle`` ruling for that ordered pair of enemy units — the same
function ``/battle`` calls, so the two can never disagree. Line of sight is not ruled pair by pair:
``los.sight_map`` answers once for every attacker's hex (bit sets over the precomputed
``sightlines`` tables) and ``assess_battle`` reads each verdict from it, walking a line only where
the ruling must name its blockers (a blocked line for a unit that needs one). With ``unit`` the map
also gives the hexes that unit sees (``in_sight``), from the same sweep. Work is bounded:

- a pair whose distance is beyond the longest dice table the attacker's unit entry has
  (``dice``, ``dice_unmoved``, ``dice_on_terrain``) is out of range whatever else holds, so
  ``/battle`` would rule it illegal for that reason; such pairs are counted (``beyond_range``),
  not assessed one by one;
- at most ``MAX_PAIRS`` pairs are assessed per map; a bigger map says ``truncated`` and how many
  pairs it holds in all (ask for one ``unit`` to see all of its battles);
- the sweep is at most one origin per unit (``MAX_UNITS``) on a fixed board; the work actually
  done is charged to the request's work budget (``engine.budget``): each pair ruled
  (``PAIR_WORK``, before any is), each origin swept by the shadows it joins, each line walked by
  its length, each plateau group once per situation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.battle import BattleRuling, assess_battle, resolve_entry
from adjudicator.engine.budget import charge
from adjudicator.engine.geometry import Board, Hex, hex_json
from adjudicator.engine.los import sight_map
from adjudicator.engine.orders import OrderTerms
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit

PAIR_WORK = 12
"""Work units one pair's ruling is charged (``assess_battle``: about a tenth of a millisecond, as
much as a dozen retreat steps); the sweep and each line walked are charged where they are done
(``los.sight_map``, ``los.line_of_sight``), and the plateau groups once per situation."""
MAX_PAIRS = 500
"""Most battles assessed in one map: each is a whole ``/battle`` ruling (about 0.1 ms of CPU), and
the costliest map must stay well under 100 ms (``bench/hostile.py``). One unit's map (as attacker
or target) is at most 2 × (MAX_UNITS − 1) = 398 pairs, under this cap: the builder's maps are
never cut."""


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
    in_sight: tuple[Hex, ...] | None = None  # with ``unit``: the hexes it sees, its own left out
    board: Board | None = None  # for the labels of ``in_sight``

    @property
    def truncated(self) -> bool:
        return self.pairs > len(self.battles)

    def to_dict(self) -> dict[str, Any]:
        """The ``/api/v1/fire-map`` answer. Pure and deterministic (also run in the browser)."""
        out: dict[str, Any] = {
            "unit": self.unit,
            "battles": [fire_entry_json(b) for b in self.battles],
            "pairs": self.pairs,
            "beyond_range": self.beyond_range,
            "truncated": self.truncated,
            "max_pairs": self.max_pairs,
        }
        if self.in_sight is not None and self.board is not None:
            out["in_sight"] = [hex_json(self.board, h) for h in self.in_sight]
        return out



def fire_map(
    situation: Situation, rulebook: Rulebook, unit_id: str | None = None, card: str | None = None,
    combat_card: str | None = None, max_pairs: int = MAX_PAIRS, order: OrderTerms | None = None,
    card_side: str | None = None,
) -> FireMap:
    """Every battle one unit could make against an enemy, for all units or only those involving
    ``unit_id`` (as attacker or target). ``card`` / ``combat_card`` are applied to every pair, as
    ``/battle`` would with the same fields; an unknown one raises IllegalSituation naming it.
    ``order`` says how the card was played (engine ``orders``); with ``card_side`` (the side playing
    the card) the card and its order apply to that side's attackers only: the other side's battles
    are ruled as on its own turn, without the card."""
    unit = situation.unit(unit_id, "unit") if unit_id is not None else None
    # an unknown card is refused as /battle refuses it, even when no pair is in reach
    card = resolve_entry(rulebook, card, "card", "command_card")
    combat_card = resolve_entry(rulebook, combat_card, "combat_card", "combat_card")
    chosen: list[tuple[Unit, Unit]] = []
    pairs = beyond = 0
    # every unit's place read once, enemies listed once per side (in situation order): 200 units
    # are 20,000 attacker-target pairs to sort by distance
    placed = [(u, u.hex.row, u.hex.col) for u in situation.units]
    enemies = {side: [p for p in placed if p[0].side != side] for side in {u.side for u in situation.units}}
    alone = [] if unit is None else [(unit, unit.hex.row, unit.hex.col)]
    for attacker in situation.units:
        # with ``unit``: all of its targets when it attacks, else only itself as the target
        if unit is None or attacker.id == unit.id:
            targets = enemies[attacker.side]
        elif attacker.side != unit.side:
            targets = alone
        else:
            continue
        longest = reach(rulebook, attacker)
        row, col = attacker.hex.row, attacker.hex.col
        for target, target_row, target_col in targets:
            dr, dc = abs(row - target_row), abs(col - target_col)
            if (dr + (dc - dr) // 2 if dc > dr else dr) > longest:  # geometry.distance, inline
                beyond += 1
                continue
            pairs += 1
            if len(chosen) < max_pairs:
                chosen.append((attacker, target))
    board = situation.board
    origins = dict.fromkeys(a.hex for a, _ in chosen if board.contains(a.hex))
    if unit is not None and board.contains(unit.hex):
        origins[unit.hex] = None
    charge(PAIR_WORK * len(chosen))  # before any is ruled: a map over the budget is refused at once
    sight = sight_map(situation, rulebook, origins) if origins else {}
    def played(attacker: Unit) -> bool:
        return card_side is None or attacker.side == card_side

    battles = tuple(assess_battle(situation, rulebook, attacker.id, target.id, card=card if played(attacker) else None,
                                  combat_card=combat_card, sight=sight, order=order if played(attacker) else None)
                    for attacker, target in chosen)
    in_sight = None
    if unit is not None:
        in_sight = tuple(sorted(sight.get(unit.hex, frozenset()) - {unit.hex}))
    return FireMap(unit_id, battles, pairs, beyond, max_pairs, in_sight, board)


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
        "line_of_sight": ruling.los_clear,
        "line_of_sight_needed": ruling.los_needed,
        "hit_symbols": list(ruling.hits.symbols),
    }
