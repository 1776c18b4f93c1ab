"""The engine's sentences: one English template per reason code, and how parameters are written.

A reason is made with ``say(code, rule, **params)``: the template ``MESSAGES[code]`` is filled
with the parameters, so the text and the ``code``/``params`` a client reads can never disagree,
and a client that words reasons itself (another language, a shorter label) needs only this
table. Codes are stable: a new sentence shape gets a new code; a reworded template keeps its code
when it says the same thing with the same parameters.

Template fields are ``str.format`` fields with two additions:

- ``{n:die|dice}`` writes a count with its noun, singular or plural ("1 die", "3 dice");
- a tuple parameter is written as a list ("forest, hill and town"); ``{xs:or}`` joins with "or".

Units are written by ``UnitRef`` ("Axis Armor at D7"), hexes by ``HexRef`` ("D7"), content
entries by ``EntryRef`` (their name: "Forest")."""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.engine.geometry import Board, Hex
from adjudicator.engine.reasons import EntryRef, HexRef, Params, ParamValue, Reason, UnitRef
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit

MESSAGES: dict[str, str] = {
    # Codes are "<area>.<what>". Keep them sorted within an area; tests/test_wording.py checks
    # that every code the engine uses is here and every field of a template is given.
    # -- entry: may this unit enter this hex (engine.entry), for a move, a retreat or take ground
    "entry.adjacent_only": "{terrain} at {hex} may be entered only by a unit that starts its move next to it",
    "entry.beach_climb_down": "{unit} may not move down from {terrain} onto the beach at {hex}",
    "entry.beach_climb_up": "{unit} may not move up onto {terrain} at {hex} from the beach",
    "entry.from_plateau_only": "{terrain} at {hex} may be entered only from {groups:or}; {frm} is not",
    "entry.impassable": "{terrain} at {hex} is impassable to {unit_class}",
    "entry.leave_plateau_only": "A unit leaving {terrain} at {frm} may go only to {groups:or}; {hex} is not",
    "entry.moves_only_on": "{unit} moves only on {terrains:or}; {hex} is not",
    "entry.no_entry_from": "{terrain} at {hex} may not be entered from {terrains:or}",
    "entry.no_retreat_onto": "No unit may retreat onto {terrain} at {hex}",
    "entry.no_take_ground": "{unit} may not take ground into {terrain} at {hex}",
    "entry.occupied": "{hex} holds {occupant}: no unit enters or passes through a hex another unit holds",
    "entry.off_board": "From {frm} a retreat step toward the baseline would leave the board",
    "entry.scenario_impassable": "The scenario declares {hex} impassable: no unit may enter it",
    "entry.stopped_may_take_ground": "{unit} entered {terrain} this turn and had to stop there, but it may still "
                                     "take ground from it",
    "entry.stopped_no_take_ground": "{unit} entered {terrain} this turn: it had to stop and may move no further, "
                                    "so it may not take ground",
    "entry.take_ground_from": "{unit} may not take ground into {terrain} from {terrains:or}",
    "entry.take_ground_moved": "{unit} may take ground into {terrain} only if it did not move this turn; it moved "
                               "{moved:hex|hexes}",
    "entry.unmoved_may_take_ground": "{terrain} at {hex}: {unit} did not move this turn, so it may take ground "
                                     "into it",
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


def entry_ref(rulebook: Rulebook, entry_id: str) -> EntryRef | str:
    """A content entry as reasons name it (its name); an id the content does not hold (a plateau
    group such as ``hill`` when no entry has that id) stays a plain word."""
    if entry_id not in rulebook.kinds:
        return entry_id.replace("_", " ")
    return EntryRef(entry_id, rulebook.kinds[entry_id], rulebook.names.get(entry_id, entry_id))


def entry_refs(rulebook: Rulebook, entry_ids: Iterable[str]) -> tuple[EntryRef | str, ...]:
    """Several entries, as a list parameter ("Hill or Mountain")."""
    return tuple(entry_ref(rulebook, e) for e in entry_ids)


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """A count with its noun: "1 hex", "2 hexes", "1 die", "3 dice"."""
    if n == 1 or n == -1:
        return f"{n} {singular}"
    return f"{n} {plural_form if plural_form is not None else singular + 's'}"


def join(items: Iterable[Any], word: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    texts = [str(i) for i in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {word} {texts[-1]}"


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec and isinstance(value, int):
            singular, plural_form = format_spec.split("|", 1)
            return plural(value, singular, plural_form)
        if isinstance(value, tuple):
            return join(value, format_spec or "and")
        if isinstance(value, (HexRef, UnitRef, EntryRef)):
            return format(str(value), format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(code: str, params: Params | Mapping[str, ParamValue]) -> str:
    """The English text of ``code`` with ``params`` (KeyError for an unknown code or a missing field)."""
    return _FORMATTER.vformat(MESSAGES[code], (), dict(params))


def say(code: str, rule: str, *, dice: int | None = None, fact: str | None = None, **params: ParamValue) -> Reason:
    """A reason from its code: its text is the code's template filled with ``params`` (rendered
    when first read)."""
    return Reason(rule, render(code, params), dice=dice, code=code, params=tuple(params.items()), fact=fact)
