"""The engine's sentences: one English template per reason code, and how parameters are written.

A reason is made with ``say(code, rule, **params)``: the template ``MESSAGES[code]`` is filled
with the parameters, so the text and the ``code``/``params`` a client reads can never disagree,
and a client that words reasons itself (another language, a shorter label) needs only this
table. Codes are stable: a new sentence shape gets a new code; a reworded template keeps its code
when it says the same thing with the same parameters.

Template fields are ``str.format`` fields with two additions:

- ``{n:die|dice}`` writes a count with its noun, singular or plural ("1 die", "3 dice");
- a tuple parameter is written as a list ("forest, hill and town"); ``{xs:or}`` joins with "or".

Units are written by ``UnitRef`` ("Axis Armor at D7"), hexes by ``HexRef`` ("D7")."""

from __future__ import annotations

import string
from typing import Any

from adjudicator.engine.geometry import Board, Hex
from adjudicator.engine.reasons import HexRef, ParamValue, Reason, UnitRef
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit

MESSAGES: dict[str, str] = {
    # Codes are "<area>.<what>". Keep them sorted within an area; tests/test_wording.py checks
    # that every code the engine uses is here and every field of a template is given.
    # score (engine/score.py): the medal count
    "score.both_at_count": "Both sides are at their count at once; no source decides it: the winner is the side "
                           "whose turn it is (give `side`)",
    "score.checked_at_turn_start": "The {objective} at {hexes} is checked only at the start of a side's turn",
    "score.ends_at_once": "The game ends the moment a side has its medals, even in the middle of a turn",
    "score.ends_at_turn_end": "{army} have their medals; the game ends at the end of the turn",
    "score.exited": "{unit_name} left the board at {at}",
    "score.figures_on_stand": "{unit_name} figures on the medal stand: {figures}; {more} more make a medal",
    "score.figures_to_medals": "{figures} {unit_name} figures destroyed, {per} to a medal",
    "score.given": "{army} won {n:medal|medals} the board does not show (given with the request)",
    "score.heroic_leader": "{unit_name} carried a Heroic Leader: if the two dice rolled for him showed a star, he "
                           "is one more medal (add it in `medals`)",
    "score.no_medal": "{unit_name} eliminated: it gives no medal",
    "score.nothing_at_turn_end": "No medal objective is counted only at the end of a turn: this is the score at "
                                 "any moment",
    "score.objective_gained": "{army} gained the {objective} at {hexes} for good",
    "score.objective_held": "{army} hold the {objective} at {hexes}",
    "score.objective_kept": "{army} occupied {hexes} last: the {objective} stays theirs",
    "score.objective_turn_start": "{army} held {hexes} at the start of their turn: the {objective} is theirs "
                                  "through it",
    "score.roll_gains": "This roll gives {side_name} {n:medal|medals}: {why}",
    "score.roll_loses": "This roll costs {side_name} {n:medal|medals}, as this no longer stands: {why}",
    "score.roll_wins": "This roll wins the game: {why}",
    "score.sudden_death": "{army} stand on {count} of {hexes}: the {objective} ends the game",
    "score.take_ground_gains": "Taking ground into {at} gives {side_name} {n:medal|medals}: {why}",
    "score.take_ground_loses": "Taking ground into {at} costs {side_name} {n:medal|medals}, as this no longer "
                               "stands: {why}",
    "score.take_ground_wins": "Taking ground into {at} wins the game: {why}",
    "score.unit_eliminated": "{unit_name} eliminated",
    "score.usual_count": "No scenario gives the count: a side needs {n:medal|medals}, the count the engine "
                         "assumes",
    "score.won": "{army} have {n:medal|medals} of the {needed} they need and win",
    "score.won_both_at_count": "Both sides are at their count at once: {army} win, as it is their turn",
    "score.won_sudden_death": "{army} win at once by sudden death",
}
"""Reason code -> English template."""


def hex_ref(board: Board, h: Hex) -> HexRef:
    """A hex as reasons name it: the board's printed label ("D7"), or "off the board"."""
    return HexRef(h.row, h.col, board.label(h) if board.contains(h) else "off the board")


def unit_ref(situation: Situation, rulebook: Rulebook, unit: Unit) -> UnitRef:
    """A unit as players name it: side, the name of the unit entry whose rules apply, and its hex
    ("Axis Tank Destroyer at D7")."""
    return UnitRef(unit.id, unit.side, unit.profile, rulebook.names.get(unit.profile, unit.type),
                   hex_ref(situation.board, unit.hex))


def join(items: tuple[Any, ...], word: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    texts = [str(i) for i in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {word} {texts[-1]}"


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec and isinstance(value, int):
            singular, plural = format_spec.split("|", 1)
            return f"{value} {singular if value == 1 else plural}"
        if isinstance(value, tuple):
            return join(value, format_spec or "and")
        if isinstance(value, (HexRef, UnitRef)):
            return format(str(value), format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(code: str, params: dict[str, ParamValue]) -> str:
    """The English text of ``code`` with ``params`` (KeyError for an unknown code or a missing field)."""
    return _FORMATTER.vformat(MESSAGES[code], (), params)


def say(code: str, rule: str, *, dice: int | None = None, fact: str | None = None, **params: ParamValue) -> Reason:
    """A reason from its code: the text is the code's template filled with ``params``."""
    return Reason(rule, render(code, params), dice=dice, code=code, params=tuple(params.items()), fact=fact)
