"""Reading API request bodies safely: JSON objects only, size- and depth-limited, parsed into a
``Situation`` with every problem turned into a 4xx naming the field."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, jsonify, request

from adjudicator.config import current
from adjudicator.engine import api
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation
from adjudicator.web.errors import ApiError

MAX_DEPTH = 8


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def json_body() -> dict[str, Any]:
    """The request's JSON object, or an ApiError (415 wrong type, 413 too big, 400 malformed)."""
    if not request.mimetype or request.mimetype != "application/json":
        raise ApiError("send the situation as JSON with Content-Type: application/json",
                       field="(body)", status=415, code="unsupported_media_type")
    limit = current().max_content_length or 64 * 1024
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(f"the body is larger than {limit} bytes", field="(body)", status=413, code="too_large")
    raw = request.get_data(cache=True)
    # A chunked body has no Content-Length: the server stops reading at the limit and hands over
    # the first ``limit`` bytes, so a body that fills the limit was cut off, not complete.
    if len(raw) > limit or (request.content_length is None and len(raw) >= limit):
        raise ApiError(f"the body is larger than {limit} bytes", field="(body)", status=413, code="too_large")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ApiError(f"the body is not valid JSON: {exc}", field="(body)", code="invalid_json") from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", field="(body)", code="invalid_json")
    if _depth(data) > MAX_DEPTH:
        raise ApiError(f"the JSON is nested more than {MAX_DEPTH} levels deep", field="(body)", code="too_deep")
    return data


def rulebook() -> Rulebook:
    return current_app.extensions["rulebook"]


def _checked(call: Any) -> Any:
    try:
        return call()
    except api.RequestError as exc:
        raise ApiError(exc.message, field=exc.field, code=exc.code) from None


def situation_from(data: dict[str, Any]) -> Situation:
    return _checked(lambda: api.situation_of(data, rulebook()))


def bool_field(data: dict[str, Any], name: str) -> bool:
    """An optional true/false field (absent or null is false); anything else is a 400 naming it."""
    return _checked(lambda: api.bool_of(data, name))


def engine_answer(name: str, data: dict[str, Any]) -> Response:
    """The JSON answer of the engine endpoint ``/api/v1/<name>`` (``engine.api.ENDPOINTS``): the
    same function the builder runs offline in the browser, so both give the same JSON."""
    try:
        return jsonify(api.engine_call(lambda: api.ENDPOINTS[name](data, rulebook())))
    except api.RequestError as exc:
        raise ApiError(exc.message, field=exc.field, code=exc.code) from None
