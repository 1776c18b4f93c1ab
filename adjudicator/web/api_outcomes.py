"""JSON API for what follows a battle: ``/api/v1/retreat`` and ``/api/v1/resupply``.

Thin: parse and check every field (a bad one is a 400 naming it), call the pure engine
(``engine.retreat``, ``engine.resupply``), return its ``to_dict()``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.resupply import resupply_options
from adjudicator.engine.retreat import retreat_options
from adjudicator.engine.situation import MAX_FIGURES
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import json_body, rulebook, situation_from, unit_id_field

bp = Blueprint("api_outcomes", __name__, url_prefix="/api/v1")

MAX_FLAGS = 12  # input limit: more dice than any battle rolls


def int_field(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    """A whole-number field within ``low..high``; required when ``default`` is None."""
    value = data.get(name)
    if value is None:
        if default is None:
            raise ApiError(f"`{name}` is required (a whole number from {low} to {high})", field=name)
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"`{name}` must be a whole number, got {type(value).__name__}", field=name)
    if not low <= value <= high:
        raise ApiError(f"`{name}` must be between {low} and {high}, got {value}", field=name)
    return value


def card_field(data: dict[str, Any], name: str, kind: str) -> str | None:
    """An optional card named by id, name or alias, resolved among entries of ``kind``."""
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise ApiError(f"`{name}` must be the id of a {kind.replace('_', ' ')}", field=name)
    entry = rulebook().resolve(value, kind)
    if entry is None:
        raise ApiError(f"unknown {kind.replace('_', ' ')} {value!r}", field=name, code="unknown_card")
    return entry


def _engine(call: Any) -> Any:
    try:
        return call()
    except IllegalSituation as exc:
        raise ApiError(exc.message, field=exc.field, code="invalid_request") from None


@bp.post("/retreat")
def retreat() -> Any:
    """Every legal retreat of ``unit`` for ``flags`` flags (after ``hits`` hits), with losses."""
    data = json_body()
    situation = situation_from(data)
    unit = unit_id_field(data, "unit", situation)
    flags = int_field(data, "flags", 0, MAX_FLAGS)
    hits = int_field(data, "hits", 0, MAX_FIGURES, default=0)
    card = card_field(data, "card", "command_card")
    combat_card = card_field(data, "combat_card", "combat_card")
    result = _engine(lambda: retreat_options(situation, rulebook(), unit, flags, card=card,
                                             combat_card=combat_card, hits=hits))
    return jsonify(result.to_dict())


@bp.post("/resupply")
def resupply() -> Any:
    """Whom ``supplier`` may re-supply this turn and with how many figures."""
    data = json_body()
    situation = situation_from(data)
    supplier = unit_id_field(data, "supplier", situation)
    result = _engine(lambda: resupply_options(situation, rulebook(), supplier))
    return jsonify(result.to_dict())
