"""Responses compressed once per worker, not once per request.

Compressing the same rule page again for every visitor was a quarter of a worker's time on the
rule and builder pages. flask-compress still chooses the encoding (zstd, brotli, gzip, from the
client's ``Accept-Encoding``) and sets the headers, but looks the compressed bytes up first, in
a cache keyed by the encoding and a digest of the uncompressed body: the same bytes give the same
key whatever URL or visitor asked for them, and different bytes never share one. The cache is
per process, holds at most ``CACHE_BYTES`` of compressed bodies and forgets the least recently
used first; a hit costs a SHA-1 of the body (~0.1 ms for a 100 KB page) instead of compressing
it (2–30 ms)."""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from typing import Any

from flask import Flask, Request, Response, g
from flask_compress import Compress

CACHE_BYTES = 16 * 1024 * 1024
"""Compressed bodies kept per worker: every rule page, list and builder asset in each encoding
takes about 3 MB; the rest is for search answers, which repeat."""


class CompressedBodies:
    """A least-recently-used map of compressed bodies, bounded by their total size
    (flask-compress's cache backend interface: ``get`` and ``set``)."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def set(self, key: str, value: bytes) -> None:
        if key in self.items:
            self.items.move_to_end(key)
            return
        if len(value) > self.limit:
            return
        self.items[key] = value
        self.size += len(value)
        while self.size > self.limit:
            _, dropped = self.items.popitem(last=False)
            self.size -= len(dropped)


def body_key(_request: Request) -> str:
    """The cache key of this response's body (set by ``digest_body`` before the compressor runs;
    a key of its own, never shared, should a body have escaped it)."""
    return g.get("body_digest") or secrets.token_hex(16)


def digest_body(response: Response) -> Response:
    """Record a digest of every body the compressor may compress (one held in memory)."""
    if not response.is_streamed:
        g.body_digest = hashlib.sha1(response.get_data(), usedforsecurity=False).hexdigest()
    return response


def register_compression(app: Flask) -> None:
    """flask-compress with the cache. Call it where ``Compress(app)`` was: ``digest_body`` is
    registered right after it, so it runs right before it (after-request hooks run in reverse)."""
    cache = CompressedBodies()
    app.config.setdefault("COMPRESS_CACHE_BACKEND", lambda: cache)
    app.config.setdefault("COMPRESS_CACHE_KEY", body_key)
    Compress(app)
    app.after_request(digest_body)


def cached(app: Flask) -> Any:
    """The app's cache (for tests and the bench)."""
    return app.config["COMPRESS_CACHE_BACKEND"]()
