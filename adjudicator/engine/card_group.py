"""A card's attack on a group, rolled target after target (Air Power: up to ``max_targets``
enemy units on contiguous hexes; ``/api/v1/resolve`` with ``targets`` and one roll per unit).

The group is judged as played (``engine.card_attack``: its size, its contiguity, the dice), then
each unit's roll is applied in the order given, and its outcome — figures lost, elimination, the
retreat its flags force — is put on the board before the next unit is rolled for, so a later
target's retreat meets the board as the earlier ones left it. Where a retreat has several legal
ends the owner chooses (``retreat_to``); without a choice the engine takes the first option that
loses the fewest figures and says so. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.engine.card_attack import assess_card_attack
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Hex
from adjudicator.engine.reasons import Reason, UnitRef
from adjudicator.engine.resolve import Resolution, resolution_json, resolve_card_attack
from adjudicator.engine.retreat import RetreatOption
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import HexState, Situation, Unit
from adjudicator.engine.wording import hex_ref, say, unit_ref


@dataclass(frozen=True)
class GroupStep:
    """One unit of the group: its roll applied, and the board it left for the next."""

    resolution: Resolution
    before: Situation
    applied: tuple[Reason, ...]
    moved_to: Hex | None  # where its retreat took it (None: it stayed, or is gone)


def resolve_group(situation: Situation, rulebook: Rulebook, card: str, group: Sequence[str],
                  rolls: Sequence[Mapping[str, int]], retreat_to: Sequence[Hex | None]) -> tuple[GroupStep, ...]:
    """Roll for each unit of ``group`` in turn, applying each outcome before the next roll."""
    first = assess_card_attack(situation, rulebook, card, group[0], tuple(group[1:]))
    if not first.legal:
        return (GroupStep(resolve_card_attack(situation, rulebook, first, rolls[0]), situation, (), None),)
    if len(rolls) != len(first.targets):
        raise IllegalSituation("rolled", f"give one roll per unit of the group, in its order: {len(first.targets)} "
                                         f"rolls, got {len(rolls)}")
    steps: list[GroupStep] = []
    board = situation
    for i, target in enumerate(first.targets):
        attack = assess_card_attack(board, rulebook, card, target.id)
        try:
            resolution = resolve_card_attack(board, rulebook, attack, rolls[i])
        except IllegalSituation as exc:
            raise IllegalSituation(f"rolled[{i}]", exc.message) from None
        after, applied, moved_to = _apply(board, rulebook, card, resolution, retreat_to[i] if i < len(retreat_to)
                                          else None, i)
        steps.append(GroupStep(resolution, board, applied, moved_to))
        board = after
    return tuple(steps)


def _apply(situation: Situation, rulebook: Rulebook, card: str, res: Resolution, end: Hex | None,
           index: int) -> tuple[Situation, tuple[Reason, ...], Hex | None]:
    """The board after one unit's roll: its figures, its retreat (the one chosen, else the first
    that loses the fewest figures), the sandbags it leaves behind."""
    unit = res.ruling.target
    who = unit_ref(situation, rulebook, unit)
    left = unit.figures - res.figures_lost_to_hits
    reasons: list[Reason] = []
    option: RetreatOption | None = None
    if left > 0 and res.flags_to_retreat and res.retreat is not None and res.retreat.options:
        option, said = _chosen_retreat(situation, card, res.retreat.options, res.flags_ignored, end, index, who)
        reasons += said
        left -= option.figures_lost
    elif left > 0 and res.flags_to_retreat:
        left = unit.figures - res.figures_lost  # no way back: the moves not made cost figures
    if left <= 0:
        reasons.append(say("group.eliminated", card, unit=who))
        units = tuple(u for u in situation.units if u.id != unit.id)
        return replace(situation, units=units, hexes=_left(situation, rulebook, unit)), tuple(reasons), None
    moved = option is not None and option.end != unit.hex
    new = replace(unit, figures=left, hex=option.end if moved and option else unit.hex)
    if moved and option is not None:
        reasons.append(say("group.retreat_applied", card, unit=who, to=hex_ref(situation.board, option.end)))
    units = tuple(new if u.id == unit.id else u for u in situation.units)
    hexes = _left(situation, rulebook, unit) if moved else situation.hexes
    return replace(situation, units=units, hexes=hexes), tuple(reasons), new.hex if moved else None


def _chosen_retreat(situation: Situation, card: str, all_options: Sequence[RetreatOption], flags_ignored: int,
                    end: Hex | None, index: int, who: UnitRef) -> tuple[RetreatOption, tuple[Reason, ...]]:
    """The retreat applied for one unit of the group: the one ``retreat_to`` names, else the first
    that loses the fewest figures (said when the owner had others to choose from)."""
    options = [o for o in all_options if o.flags_ignored == flags_ignored] or list(all_options)
    if end is not None:
        named = next((o for o in options if o.end == end), None)
        if named is None:
            raise IllegalSituation(f"retreat_to[{index}]", f"{who} has no legal retreat ending at "
                                                           f"{hex_ref(situation.board, end)}")
        return named, ()
    option = next(o for o in options if o.figures_lost == min(x.figures_lost for x in options))
    if len({o.end for o in options}) > 1:
        return option, (say("group.retreat_chosen", card, unit=who, to=hex_ref(situation.board, option.end)),)
    return option, ()


def _left(situation: Situation, rulebook: Rulebook, unit: Unit) -> Mapping[Hex, HexState]:
    """The hexes once ``unit`` has left its own: obstacles removed when their occupant leaves go."""
    state = situation.hex_state(unit.hex)
    kept = tuple(f for f in (state.obstacle, *state.more_obstacles)
                 if f and not ((r := rulebook.feature(f)) is not None and r.removed_when_occupant_leaves))
    if kept == tuple(f for f in (state.obstacle, *state.more_obstacles) if f):
        return situation.hexes
    hexes = dict(situation.hexes)
    hexes[unit.hex] = replace(state, obstacle=kept[0] if kept else None, more_obstacles=kept[1:])
    return hexes


def group_json(situation: Situation, rulebook: Rulebook, steps: Sequence[GroupStep]) -> dict[str, Any]:
    """The ``/api/v1/resolve`` answer for a group: the first unit's resolution as the top-level
    fields (as for one target), then ``sequence``: each unit's, with what was applied before the next."""
    out = resolution_json(situation, rulebook, steps[0].resolution)
    out["sequence"] = [{**resolution_json(step.before, rulebook, step.resolution),
                     "applied": [r.to_dict() for r in step.applied],
                     "moved_to": hex_ref(step.before.board, step.moved_to).to_dict() if step.moved_to else None}
                    for step in steps]
    return out
