"""Response hardening and caching, applied to every response.

- Security headers: a Content-Security-Policy that allows scripts only from our own origin (no
  inline scripts), no framing, no MIME sniffing, a same-origin referrer.
- Caching: static files requested with a version query (``?v=<hash>``) are immutable for a year;
  rule pages and rule JSON carry an ETag and answer 304 when unchanged."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, request, url_for

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}

CACHEABLE_PREFIXES = ("/rules/", "/api/v1/rules")
PAGE_MAX_AGE = 300


@cache
def asset_version(static_folder: str, filename: str) -> str:
    """A short hash of a static file, so its URL changes whenever its bytes do."""
    path = Path(static_folder) / filename
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


def close_file_responses(response: Response) -> Response:
    """Read a file-backed response (static files) into memory and close the file.

    The compressor reads such bodies without closing the file it came from; our static files
    are small, so reading them here, before compression, costs nothing and leaks nothing. Must
    run before the compressor: register it after ``Compress(app)``."""
    if response.direct_passthrough and response.status_code == 200:
        body = response.response
        try:
            data = b"".join(body)  # type: ignore[arg-type]
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        response.direct_passthrough = False
        response.set_data(data)
    return response


def register_security(app: Flask) -> None:
    static_folder = app.static_folder or ""

    def asset(filename: str) -> str:
        """URL of a static file with its content hash (cache-busting, immutable caching)."""
        return url_for("static", filename=filename, v=asset_version(static_folder, filename))

    app.jinja_env.globals["asset"] = asset

    @app.after_request
    def harden(response: Response) -> Response:
        for header, value in SECURITY_HEADERS.items():
            response.headers.setdefault(header, value)
        path = request.path
        if path.startswith("/static/"):
            if response.status_code in (200, 304) and versioned(static_folder, path, request.args.get("v")):
                response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
            elif response.status_code in (200, 304):
                response.headers["Cache-Control"] = "public, max-age=0, must-revalidate"
            else:  # a 404 (or a wrong version) must never be cached for a year
                response.headers["Cache-Control"] = "no-store"
        if response.status_code in (301, 302, 303, 307, 308) and response.location:
            response.headers["Location"] = local_location(response.location)
        return response


def versioned(static_folder: str, path: str, version: str | None) -> bool:
    """Whether ``?v=`` is the content hash of the static file the path names (so the URL can
    never serve other bytes, and caching it for a year is safe)."""
    if not version:
        return False
    filename = path.removeprefix("/static/")
    if not filename or not (Path(static_folder) / filename).is_file():
        return False
    return asset_version(static_folder, filename) == version


def local_location(location: str) -> str:
    """A redirect's target as a path on this site: the trailing-slash redirect is built from the
    request's ``Host`` header, which any client can set (``Location: http://evil.example/...``)."""
    parts = urlsplit(location)
    if not parts.scheme and not parts.netloc:
        return location
    return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))


def page_etags(response: Response) -> Response:
    """ETag and 304 for rule pages and rule JSON, computed on the uncompressed body: the gzip
    stream carries a timestamp, so a tag taken after compression would change every second and
    a gzip-only client would never get a 304. Must run before the compressor (register it after
    ``Compress(app)``), which then appends the encoding to the tag and answers conditionals."""
    if (
        request.method == "GET"
        and response.status_code == 200
        and request.path.startswith(CACHEABLE_PREFIXES)
        and not response.direct_passthrough
    ):
        response.headers["Cache-Control"] = f"public, max-age={PAGE_MAX_AGE}"
        response.add_etag()
        response.make_conditional(request)
    return response
