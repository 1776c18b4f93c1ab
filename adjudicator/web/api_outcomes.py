"""JSON API for what follows a battle: ``/api/v1/retreat`` and ``/api/v1/resupply``.

Thin: check the HTTP body, then run the endpoint's pure function in ``engine.api`` (the same one
the builder runs offline in the browser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint

from adjudicator.engine import api
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import engine_answer, json_body, rulebook

bp = Blueprint("api_outcomes", __name__, url_prefix="/api/v1")
T = TypeVar("T")

MAX_FLAGS = api.MAX_FLAGS  # input limit: more dice than any battle rolls


def _checked(call: Callable[[], T]) -> T:
    try:
        return api.engine_call(call)
    except api.RequestError as exc:
        raise ApiError(exc.message, field=exc.field, code=exc.code) from None


def int_field(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    """A whole-number field within ``low..high``; required when ``default`` is None."""
    return _checked(lambda: api.int_of(data, name, low, high, default))


def card_field(data: dict[str, Any], name: str, kind: str) -> str | None:
    """An optional card named by id, name or alias, resolved among entries of ``kind``."""
    return _checked(lambda: api.card_of(data, name, kind, rulebook()))


def _engine(call: Any) -> Any:
    return _checked(call)


@bp.post("/retreat")
def retreat() -> Any:
    """Every legal retreat of ``unit`` for ``flags`` flags (after ``hits`` hits), with losses."""
    return engine_answer("retreat", json_body())


@bp.post("/resupply")
def resupply() -> Any:
    """Whom ``supplier`` may re-supply this turn and with how many figures."""
    return engine_answer("resupply", json_body())
