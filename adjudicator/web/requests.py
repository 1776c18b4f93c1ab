"""Reading API request bodies safely: JSON objects only, size- and depth-limited, parsed into a
``Situation`` with every problem turned into a 4xx naming the field."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, jsonify, request

from adjudicator.config import current
from adjudicator.engine import api
from adjudicator.engine.situation import Situation
from adjudicator.web.answer_cache import answer_cache, cached_response
from adjudicator.web.context import current_rulebook
from adjudicator.web.errors import ApiError

T = TypeVar("T")

MAX_DEPTH = 8
ESCAPED_SURROGATE = re.compile(rb"\\[uU][dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate: the only way a lone one can reach a parsed string (raw
bytes must be valid UTF-8, which has none)."""


def lone_surrogate(value: Any, path: str = "") -> str | None:
    """The field (``units[1].id``, ``title``) of the first string in ``value`` holding a lone
    surrogate (``"\\ud800"``): valid JSON, but not text — it cannot be written as UTF-8 (a page, a
    save, PostgreSQL), which used to end in a 500. A key holding one is named by its object."""
    if isinstance(value, str):
        return path or "(body)" if not _is_text(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if not _is_text(key):
                return path or "(body)"
            found = lone_surrogate(item, f"{path}.{key}" if path else key)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = lone_surrogate(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def no_lone_surrogates(data: Any, raw: bytes, prefix: str = "") -> None:
    """A 400 naming the field when a string of ``data`` (parsed from ``raw``) holds a lone surrogate."""
    if ESCAPED_SURROGATE.search(raw) is None:
        return  # no surrogate escape at all: nothing to walk
    field = lone_surrogate(data, prefix)
    if field is not None:
        raise ApiError(f"`{field}` holds a lone UTF-16 surrogate (a \\ud800–\\udfff escape without its pair), "
                       "which is not text; send the text itself", field=field, code="invalid_text")


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


DRAIN_AT_MOST = 2 * 1024 * 1024
"""The most of a refused body read and dropped: past the proxy's own limit (the ``.m44`` upload's
1 MB and its envelope), which refuses larger bodies before they reach the app."""


def _drain(length: int) -> None:
    """Read and drop a refused body before answering: a worker that answers 413 and closes with the
    body unread resets the connection while the proxy is still sending it, and the proxy then
    reports the app unreachable (503) instead of passing the 413 on. Bounded: at most
    ``DRAIN_AT_MOST`` bytes, in 64 KB reads."""
    stream = request.environ.get("wsgi.input")
    left = min(length, DRAIN_AT_MOST)
    while stream is not None and left > 0:
        chunk = stream.read(min(left, 64 * 1024))
        if not chunk:
            return
        left -= len(chunk)


def raw_body() -> bytes:
    """The request's bytes once its type and size are checked (415 wrong type, 413 too big)."""
    if not request.mimetype or request.mimetype != "application/json":
        raise ApiError("send the situation as JSON with Content-Type: application/json",
                       field="(body)", status=415, code="unsupported_media_type")
    limit = current().max_content_length or 64 * 1024
    if request.content_length is not None and request.content_length > limit:
        _drain(request.content_length)
        raise ApiError(f"the body is larger than {limit} bytes", field="(body)", status=413, code="too_large")
    raw = request.get_data(cache=True)
    # A chunked body has no Content-Length: the server stops reading at the limit and hands over
    # the first ``limit`` bytes, so a body that fills the limit was cut off, not complete.
    if len(raw) > limit or (request.content_length is None and len(raw) >= limit):
        raise ApiError(f"the body is larger than {limit} bytes", field="(body)", status=413, code="too_large")
    return raw


def json_body() -> dict[str, Any]:
    """The request's JSON object, or an ApiError (415 wrong type, 413 too big, 400 malformed)."""
    return parsed_body(raw_body())


def parsed_body(raw: bytes) -> dict[str, Any]:
    """``raw`` as a JSON object, or an ApiError (400 malformed, too deep, a lone surrogate)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ApiError(f"the body is not valid JSON: {exc}", field="(body)", code="invalid_json") from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", field="(body)", code="invalid_json")
    if _depth(data) > MAX_DEPTH:
        raise ApiError(f"the JSON is nested more than {MAX_DEPTH} levels deep", field="(body)", code="too_deep")
    no_lone_surrogates(data, raw)
    return data


def _checked(call: Callable[[], T]) -> T:
    """``call()``, with a request field the engine refuses turned into a 400 naming it."""
    try:
        return call()
    except api.RequestError as exc:
        raise ApiError(exc.message, field=exc.field, code=exc.code) from None


def situation_from(data: dict[str, Any]) -> Situation:
    return _checked(lambda: api.situation_of(data, current_rulebook()))


def bool_field(data: dict[str, Any], name: str) -> bool:
    """An optional true/false field (absent or null is false); anything else is a 400 naming it."""
    return _checked(lambda: api.bool_of(data, name))


def engine_answer(name: str) -> Response:
    """The JSON answer of the engine endpoint ``/api/v1/<name>`` (``engine.api.ENDPOINTS``) to the
    request's body: the same function the builder runs offline in the browser, so both give the
    same JSON. A body this worker has ruled on already gets the same bytes again
    (``web.answer_cache``): the very same bytes are found before they are parsed (they were
    checked when first ruled: the same bytes parse alike), the same JSON written otherwise after."""
    raw = raw_body()
    cache = answer_cache()
    if cache is None:
        return _ruled(name, parsed_body(raw))
    budget = current().engine_work_budget
    sent = cache.raw_key(name, raw, budget)
    body = cache.get_sent(sent)
    if body is None:
        data = parsed_body(raw)
        key = cache.key(name, data, budget)
        body = cache.get(key)
        if body is None:
            response = _ruled(name, data)
            body = response.get_data()
            cache.put(key, body)
            cache.put(sent, body)
            return response
        cache.put(sent, body)
    return cached_response(body)


def _ruled(name: str, data: dict[str, Any]) -> Response:
    return jsonify(_checked(lambda: api.engine_call(lambda: api.ENDPOINTS[name](data, current_rulebook()))))
