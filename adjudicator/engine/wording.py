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
    # -- a card's attack on a group (engine/card_group.py) --
    "group.eliminated": "{unit} is eliminated before the next unit is rolled for",
    "group.retreat_applied": "{unit} retreats to {to} before the next unit is rolled for",
    "group.retreat_chosen": "{unit} may retreat to other hexes; the engine applied the retreat to {to} (give "
                            "`retreat_to` for another)",
    # -- movement (engine/movement.py) --
    "move.removes_obstacle": "If {unit} leaves {at}, the {obstacle} there are removed",
    # -- ordering (engine/orders.py) --
    "order.already_placed": "{obstacle} already stand at {at}: none is added there",
    "order.copies": "{card} issues the same order as {copied}, the opponent's last card",
    "order.effect_as_usual": "Ordered units move and battle as their own rules say",
    "order.effect_battles": "{card}: each ordered {kinds:or} unit may battle {n} times",
    "order.effect_card_attack": "{card} orders no unit: the card itself attacks up to {n} enemy units",
    "order.effect_close_assault_only": "{card}: ordered units battle only in close assault",
    "order.effect_dice": "{card}: ordered units battle with {n:more die|more dice}{when}",
    "order.effect_dice_fewer": "{card}: ordered units battle with {n:die|dice} fewer{when}",
    "order.effect_dice_per_card": "{card}: roll 1 die for each command card in your hand, this one included",
    "order.effect_ignores_terrain": "{card}: terrain movement restrictions do not apply to the ordered unit",
    "order.effect_max_move": "{card}: ordered {kinds:or} units may move up to {n:hex|hexes}",
    "order.effect_move_after_battle": "{card}: after its battle the unit may move again, up to {n:hex|hexes}",
    "order.effect_move_and_battle": "{card}: ordered {kinds:or} units may move {n:hex|hexes} and still battle",
    "order.effect_no_battle": "{card}: the ordered units do not battle",
    "order.effect_no_move": "{card}: the ordered units do not move",
    "order.effect_on_the_move": "{card}: {n:unit|units} On the Move from any section, which move as usual "
                                "but may not battle this turn",
    "order.effect_places": "{card}: {obstacle} go on each ordered unit's hex, except where some already stand",
    "order.effect_reaction": "{card} is played in the opponent's turn, when he announces a close assault on "
                             "one of your units: that unit battles first",
    "order.effect_recovers": "{card}: each die showing the unit's symbol or a star returns 1 lost figure; "
                             "the unit is then ordered",
    "order.effect_undocumented": "What {card} orders is not in the bundled rules documents: the engine "
                                 "cannot rule on it",
    "order.enemy_unit": "{unit} is an enemy unit: a player orders only his own units",
    "order.excluded": "{card} may never order a {kind}, so not {unit}",
    "order.extra_unit": "{unit} may be ordered only as the extra unit of {nation}",
    "order.fallback": "The {side} have no {kinds:or} unit{where}: {card} orders {n:unit|units} of their "
                      "choice instead",
    "order.gung_ho": "{nation}: {card} orders {n:unit|units} more, from any section",
    "order.gung_ho_none": "{nation}: Gung-Ho adds no unit to {card}",
    "order.mirrored": "{copied} was played on the opponent's {theirs} flank, which is your {ours}",
    "order.needs_adjacent_enemy": "{card} orders only units next to an enemy unit; {unit} has none next to it",
    "order.needs_no_adjacent_enemy": "{card} orders only units with no enemy next to them; {unit} is next to "
                                     "{enemy}",
    "order.needs_weakened": "{card} orders only a unit that has lost figures; {unit} has all its {n} figures",
    "order.no_room": "{unit} would be one unit too many: {card} orders {pools} there",
    "order.no_units": "{card} orders no unit",
    "order.of_your_choice": "{unit} may be ordered only as the unit of your choice {card} gives",
    "order.only_on_the_move": "{unit} is outside the card's section: {card} may order it only On the Move "
                              "(it may not battle)",
    "order.straddling": "{unit} is on a hex straddling the {sections} sections: it may be ordered from either",
    "order.too_many": "{card} orders at most {n:unit|units} here; {chosen} were chosen",
    "order.twice": "{unit} is chosen twice: a unit is ordered once",
    "order.undocumented_unit": "No rules document gives the numbers of {unit}: the engine cannot order it",
    "order.unknown_unit": "No unit {id} is on the board",
    "order.wrong_class": "{card} orders {kinds:or} units, and you have some ({example}): it may not order {unit}",
    "order.wrong_face": "A {face} rolled orders a {kinds:or} unit; {unit} is not one",
    "order.wrong_section": "{unit} is in the {where} section: {card} orders units in the {section}",
    # -- turn state (engine/orders.py) --
    "turn.battled": "{unit} has already battled this turn: a unit battles once a turn",
    "turn.battles_again": "{unit} may battle {n} times this turn with this card",
    "turn.not_ordered": "{unit} was not ordered this turn: only ordered units move or battle",
    "turn.on_the_move": "{unit} is outside the card's section, so {card} orders it only On the Move: it may "
                        "move but not battle",
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
