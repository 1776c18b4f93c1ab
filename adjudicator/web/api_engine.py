"""JSON API over the rules engine: ``/api/v1/line-of-sight``, ``/api/v1/battle``, ``/api/v1/resolve``,
``/api/v1/fire-map`` and the OpenAPI document of the whole API (adjudicator/API.md).

Thin: parse and check every field (a bad one is a 4xx naming it), call the pure engine, return
its answer. ``/retreat`` and ``/resupply`` live in ``api_outcomes``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, jsonify

from adjudicator.engine.aftermath import aftermath_json, battle_aftermath
from adjudicator.engine.battle import assess_battle, resolve_entry, ruling_json
from adjudicator.engine.card_attack import assess_card_attack, card_attack_json, is_card_attack
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.fire_map import fire_map, fire_map_json
from adjudicator.engine.follow_ups import follow_up_battles
from adjudicator.engine.geometry import Hex
from adjudicator.engine.los import line_of_sight, los_json
from adjudicator.engine.movement import legal_moves, move_json
from adjudicator.engine.resolve import parse_rolled, resolution_json, resolve_battle
from adjudicator.engine.situation import Situation, parse_hex
from adjudicator.web.errors import ApiError
from adjudicator.web.openapi import openapi_document
from adjudicator.web.requests import bool_field, json_body, rulebook, situation_from, unit_id_field

bp = Blueprint("api_engine", __name__, url_prefix="/api/v1")

MAX_CARD_LENGTH = 80
T = TypeVar("T")


def _engine(call: Callable[[], T]) -> T:
    """Run an engine call, turning a field-named IllegalSituation into a 400."""
    try:
        return call()
    except IllegalSituation as exc:
        raise ApiError(exc.message, field=exc.field, code="invalid_request") from None


def hex_field(data: dict[str, Any], name: str, situation: Situation) -> Hex:
    """A required ``{"row", "col"}`` field that must lie on the situation's board."""
    if name not in data:
        raise ApiError(f'`{name}` is required: a hex like {{"row": 4, "col": 10}}', field=name)
    return _engine(lambda: parse_hex(data[name], name, situation.board))


def card_name(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_CARD_LENGTH:
        raise ApiError(f"`{name}` must be a card id (a string of at most {MAX_CARD_LENGTH} characters)", field=name)
    return value


@bp.post("/line-of-sight")
def line_of_sight_view() -> Any:
    """Line of sight between the centres of ``from`` and ``to`` (content ``line_of_sight``)."""
    data = json_body()
    situation = situation_from(data)
    origin = hex_field(data, "from", situation)
    target = hex_field(data, "to", situation)
    ruling = line_of_sight(situation, rulebook(), origin, target)
    return jsonify(los_json(situation.board, ruling))


@bp.post("/battle")
def battle_view() -> Any:
    """Legality, dice with their reasons, hits, exact odds and what may follow the roll."""
    data = json_body()
    situation = situation_from(data)
    card = card_name(data, "card")
    if data.get("attacker") is None and card is not None:
        return card_attack_view(data, situation, card)
    attacker = unit_id_field(data, "attacker", situation)
    target = unit_id_field(data, "target", situation)
    combat_card = card_name(data, "combat_card")
    overrun_battle = bool_field(data, "overrun_battle")
    rules = rulebook()
    ruling = _engine(lambda: assess_battle(situation, rules, attacker, target, card=card, combat_card=combat_card,
                                           overrun_battle=overrun_battle))
    after = _engine(lambda: battle_aftermath(situation, rules, ruling, card=ruling.card,
                                             combat_card=ruling.combat_card))
    answer = ruling_json(situation, rules, ruling)
    outcome = aftermath_json(after)
    if answer["probabilities"] is not None:
        for key in ("eliminate_after_retreat", "eliminate_after_retreat_exact"):
            if key in outcome:
                answer["probabilities"][key] = outcome.pop(key)
    answer.update(outcome)
    answer["follow_ups"] = [f.to_dict() for f in follow_up_battles(situation, rules, ruling, after.allowance)]
    return jsonify(answer)


def card_attack_view(data: dict[str, Any], situation: Situation, card: str) -> Any:
    """A card that attacks by itself (Air Power, Barrage): ``card`` and ``target`` (plus, for a
    group, ``targets``) and no ``attacker``."""
    rules = rulebook()
    card_id = _engine(lambda: resolve_entry(rules, card, "card", "command_card"))
    if not is_card_attack(rules, card_id):
        raise ApiError(f"give the id of a unit in `attacker`: {rules.names[str(card_id)]} orders units, it does not "
                       "attack by itself", field="attacker")
    target = unit_id_field(data, "target", situation)
    others = data.get("targets", [])
    if not isinstance(others, list) or not all(isinstance(x, str) for x in others):
        raise ApiError("`targets` must be a list of unit ids", field="targets")
    attack = _engine(lambda: assess_card_attack(situation, rules, str(card_id), target, tuple(others)))
    return jsonify(card_attack_json(situation, rules, attack))


@bp.post("/resolve")
def resolve_view() -> Any:
    """The faces actually rolled, applied: hits, losses, flags, retreat, ground (``engine.resolve``)."""
    data = json_body()
    situation = situation_from(data)
    attacker = unit_id_field(data, "attacker", situation)
    target = unit_id_field(data, "target", situation)
    card, combat_card = card_name(data, "card"), card_name(data, "combat_card")
    overrun_battle = bool_field(data, "overrun_battle")
    rules = rulebook()
    rolled = _engine(lambda: parse_rolled(data.get("rolled"), rules))
    ruling = _engine(lambda: assess_battle(situation, rules, attacker, target, card=card, combat_card=combat_card,
                                           overrun_battle=overrun_battle))
    resolution = _engine(lambda: resolve_battle(situation, rules, ruling, rolled))
    return jsonify(resolution_json(situation, rules, resolution))


@bp.post("/fire-map")
def fire_map_view() -> Any:
    """Every battle between enemy units as things stand, each as ``/battle`` rules it (``engine.fire_map``)."""
    data = json_body()
    situation = situation_from(data)
    unit = unit_id_field(data, "unit", situation) if data.get("unit") is not None else None
    card, combat_card = card_name(data, "card"), card_name(data, "combat_card")
    rules = rulebook()
    answer = _engine(lambda: fire_map(situation, rules, unit, card=card, combat_card=combat_card))
    return jsonify(fire_map_json(answer))
@bp.post("/move")
def move_view() -> Any:
    """Every hex the unit may end its move on, with one best path each, whether it may still
    battle there, and why other hexes within its allowance cannot be reached (core ``movement``)."""
    data = json_body()
    situation = situation_from(data)
    unit = unit_id_field(data, "unit", situation)
    card, combat_card = card_name(data, "card"), card_name(data, "combat_card")
    after_battle = bool_field(data, "after_battle")
    to = hex_field(data, "to", situation) if data.get("to") is not None else None
    rules = rulebook()
    card_id = _engine(lambda: resolve_entry(rules, card, "card", "command_card"))
    combat_id = _engine(lambda: resolve_entry(rules, combat_card, "combat_card", "combat_card"))
    ruling = _engine(lambda: legal_moves(situation, rules, unit, card_id, combat_id, after_battle))
    return jsonify(move_json(situation, rules, ruling, to))


@bp.get("/openapi.json")
def openapi_view() -> Any:
    """The OpenAPI 3 description of every endpoint of adjudicator/API.md."""
    return jsonify(openapi_document(rulebook()))
