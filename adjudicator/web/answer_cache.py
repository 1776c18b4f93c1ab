"""Engine answers remembered per worker, so the same request is not ruled twice.

A ruling is a pure function of the request body and the rules (``engine.api``: request dict +
rulebook -> answer dict; no clock, no randomness, no storage), so the JSON bytes of a ``200``
answer can be given again to the same request. The key is the endpoint, the content version the
worker loaded (``Catalogue.content_hash``: another content is another key, so an answer of one
version is never served under another, even should a process ever rule with two), the work
budget the request rules under (``ENGINE_WORK_BUDGET``: a smaller one may refuse) and the body in
canonical form (the parsed JSON written compactly, keys in the order sent: whitespace and
escapes do not matter, but everything the engine reads does); the very bytes sent are a key of
their own too, looked up before the body is parsed, so a request sent again costs no JSON
decoding either (the same bytes were checked and parsed alike the first time). Only ``200`` answers are kept (a
refusal is cheap, and a ``422`` depends on the work budget); the map is bounded by the total size
of the bodies (``CACHE_BYTES``) and forgets the least recently used first.

What it saves is the ruling itself (most of a ``/battle`` request's CPU) and, for the same bytes,
the JSON decoding; the HTTP parsing and the compression (cached by its own digest in
``web.compression``) remain."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from flask import Flask, Response, current_app

CACHE_BYTES = 8 * 1024 * 1024
"""Answer bodies kept per worker: a ``/battle`` answer is ~5 KB, so about 1,600 of them."""
LARGEST = 256 * 1024
"""An answer larger than this (a crowded fire map) is not kept: it would push out hundreds."""


Key = tuple[str, str, str | bytes]
"""(endpoint, content version and work budget, the body): canonical JSON text, or the bytes sent."""


class AnswerCache:
    """A least-recently-used map of answer bodies, bounded by their total size."""

    def __init__(self, version: str, limit: int = CACHE_BYTES) -> None:
        self.version = version
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[Key, bytes] = OrderedDict()
        self.hits = self.misses = 0

    def key(self, name: str, data: dict[str, Any], work_budget: int) -> Key:
        """(endpoint, content version and work budget, canonical body): the budget is in the key
        since the same body may be ruled under one budget and refused (``422``) under a smaller."""
        return name, f"{self.version}/{work_budget}", json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    def raw_key(self, name: str, raw: bytes, work_budget: int) -> Key:
        """The key of the very bytes sent: found before they are parsed (a client sending the same
        request again sends the same bytes); never equal to a canonical key (bytes, not text)."""
        return name, f"{self.version}/{work_budget}", raw

    def get_sent(self, key: Key) -> bytes | None:
        """``get`` for a raw-bytes key: a hit counts, a miss does not (the canonical key is asked
        next, and a ruling is made, and counted a miss, only when that one misses too)."""
        found = self.items.get(key)
        if found is not None:
            self.hits += 1
            self.items.move_to_end(key)
        return found

    def get(self, key: Key) -> bytes | None:
        found = self.items.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self.items.move_to_end(key)
        return found

    def clear(self) -> None:
        """Forget every answer (a test that swaps a piece of the engine rules with another engine)."""
        self.items.clear()
        self.size = 0

    def put(self, key: Key, body: bytes) -> None:
        if len(body) > min(LARGEST, self.limit) or key in self.items:
            return
        self.items[key] = body
        self.size += len(body) + len(key[2])
        while self.size > self.limit:
            (_, _, dropped_key), dropped = self.items.popitem(last=False)
            self.size -= len(dropped) + len(dropped_key)


def register_answer_cache(app: Flask, content_version: str) -> None:
    app.extensions["answer_cache"] = AnswerCache(content_version)


def answer_cache() -> AnswerCache | None:
    """The cache of the app handling the request (None for an app registered without one)."""
    found: AnswerCache | None = current_app.extensions.get("answer_cache")
    return found


def cached_response(body: bytes) -> Response:
    """A response carrying ``body`` exactly as ``jsonify`` sent it the first time."""
    return current_app.response_class(body, mimetype=current_app.json.mimetype)  # type: ignore[attr-defined]
