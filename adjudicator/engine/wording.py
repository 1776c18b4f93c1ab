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
