"""A saved situation's document: what ``POST /api/v1/situations`` accepts and stores.

The situation is checked by the engine's parser and the builder's selection against it; only
known fields are kept, in a fixed order, so equal situations store equal text. The limits are
defined here, where the request is read."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import api
from adjudicator.engine.api import MAX_CARD_LENGTH
from adjudicator.engine.resolve import parse_rolled
from adjudicator.engine.situation import HEX_FIELDS, SIDES, UNIT_FIELDS, Situation
from adjudicator.web.context import current_rulebook
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import bool_field, situation_from

SITUATION_FIELDS = ("board", "face", "bottom_side", "rules", "hexes", "units", "scenario", "casualties", "exited")
SELECTION_FIELDS = ("attacker", "target", "card", "combat_card", "overrun_battle", "flags", "title", "play")
MAX_SAVED_BYTES = 32 * 1024
"""A saved situation's JSON is capped at 32 KB: a full Overlord scenario fits (about 20 KB), a
flood of junk does not."""
MAX_TITLE = 120
MAX_SAVED_FLAGS = 3
"""The builder saves the retreat it shows for 1 to 3 flags."""


def validated_document(data: dict[str, Any]) -> dict[str, Any]:
    """The situation checked by the engine's parser and the selection checked against it; only
    known fields are kept, in a fixed order, so equal situations store equal text."""
    unknown = [k for k in data if k not in SITUATION_FIELDS + SELECTION_FIELDS]
    if unknown:
        raise ApiError(f"unknown field {unknown[0]!r}; a saved situation has "
                       f"{', '.join(SITUATION_FIELDS + SELECTION_FIELDS)}", field=unknown[0])
    situation = situation_from(data)
    # the face as its content id ("WINTER" is stored as "winter"), so equal boards store equal text
    document = {k: situation.face if k == "face" else data[k] for k in SITUATION_FIELDS if k in data}
    for name in ("face", "scenario", "casualties", "exited"):
        if document.get(name) is None:
            document.pop(name, None)
    if "units" in document:
        document["units"] = _known_fields(document["units"], UNIT_FIELDS)
    if "hexes" in document:
        document["hexes"] = _known_fields(document["hexes"], HEX_FIELDS)
    document.update(_selection(data, situation))
    return document


def _selection(data: dict[str, Any], situation: Situation) -> dict[str, Any]:
    """The builder's selection beside the situation: the battle's units (which must be on the
    board), the cards as content ids, the overrun, the retreat flags shown, the card's play and
    the title."""
    document: dict[str, Any] = {}
    for name in ("attacker", "target"):
        value = data.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not any(u.id == value for u in situation.units):
            raise ApiError(f"`{name}` must be the id of a unit in the situation", field=name, code="unknown_unit")
        document[name] = value
    rb = current_rulebook()
    for name, kind in (("card", "command_card"), ("combat_card", "combat_card")):
        value = data.get(name)
        if value is None:
            continue
        entry_id = rb.resolve(value, kind) if isinstance(value, str) and len(value) <= MAX_CARD_LENGTH else None
        if entry_id is None:
            raise ApiError(f"`{name}` must name a {kind.replace('_', ' ')}", field=name)
        document[name] = entry_id
    if bool_field(data, "overrun_battle"):
        document["overrun_battle"] = True
    if data.get("flags") is not None:
        flags = data["flags"]
        if isinstance(flags, bool) or not isinstance(flags, int) or not 1 <= flags <= MAX_SAVED_FLAGS:
            raise ApiError(f"`flags` must be a whole number from 1 to {MAX_SAVED_FLAGS}", field="flags")
        document["flags"] = flags
    if data.get("play") is not None:
        document["play"] = _play(data["play"])
    if data.get("title") is not None:
        title = data["title"]
        if not isinstance(title, str) or len(title) > MAX_TITLE:
            raise ApiError(f"`title` must be text of at most {MAX_TITLE} characters", field="title")
        if title.strip():
            document["title"] = title.strip()
    return document


def _play(value: Any) -> dict[str, Any]:
    """How the card was played ("Play a card"): the side ordering, the section, the card a
    Counter-Attack copies and the dice rolled for Their Finest Hour, each checked as ``/order``
    checks it; the units ordered are marked on the units themselves (``ordered``)."""
    if not isinstance(value, dict) or set(value) - {"side", "section", "copied_card", "rolled"}:
        raise ApiError("`play` must be an object with side, section, copied_card and rolled", field="play")
    play: dict[str, Any] = {}
    if value.get("side") is not None:
        if value["side"] not in SIDES:
            raise ApiError(f"`play.side` must be one of {', '.join(SIDES)}", field="play.side")
        play["side"] = value["side"]
    try:
        section = api.section_of(value.get("section"), "play.section")
        if section:
            play["section"] = section
        if value.get("copied_card") is not None:
            copied = value["copied_card"]
            if not isinstance(copied, dict):
                raise api.RequestError("play.copied_card", '`play.copied_card` must be like {"card": "attack"}')
            card = api.card_of({"play.copied_card.card": copied.get("card")}, "play.copied_card.card",
                               "command_card", current_rulebook())
            if card is None:
                raise api.RequestError("play.copied_card.card", "`play.copied_card.card` is required")
            play["copied_card"] = {"card": card}
            copied_section = api.section_of(copied.get("section"), "play.copied_card.section")
            if copied_section:
                play["copied_card"]["section"] = copied_section
        if value.get("rolled") is not None:
            rolled = api.engine_call(lambda: parse_rolled(value["rolled"], current_rulebook()))
            play["rolled"] = {face: n for face, n in rolled.items() if n}
    except api.RequestError as exc:
        raise ApiError(exc.message, field="play.rolled" if exc.field == "rolled" else exc.field) from None
    return play


def _known_fields(items: Any, fields: tuple[str, ...]) -> Any:
    """A list of hexes or units with only the fields the parser reads (it has validated them);
    anything else a client sent is dropped rather than stored."""
    if not isinstance(items, list):
        return items
    kept = []
    for item in items:
        copy = {k: item[k] for k in fields if isinstance(item, dict) and k in item}
        if isinstance(copy.get("moved_from"), dict):
            copy["moved_from"] = _hex_only(copy["moved_from"])
        if isinstance(copy.get("path"), list):
            copy["path"] = [_hex_only(h) if isinstance(h, dict) else h for h in copy["path"]]
        kept.append(copy)
    return kept


def _hex_only(value: dict[str, Any]) -> dict[str, Any]:
    return {k: value[k] for k in ("row", "col") if k in value}
