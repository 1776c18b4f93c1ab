"""Error responses: JSON ``{"error": {"code", "message", "field"}}`` under ``/api/``, site-styled
pages elsewhere. A 5xx is always a bug; its page says so without leaking internals."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """A client error to report as JSON, naming the offending field."""

    def __init__(self, message: str, field: str | None = None, status: int = 400, code: str = "bad_request"):
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status
        self.code = code


def error_json(status: int, code: str, message: str, field: str | None = None) -> tuple[Response, int]:
    body: dict[str, Any] = {"error": {"code": code, "message": message, "field": field}}
    return jsonify(body), status


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> tuple[Response, int]:
        return error_json(exc.status, exc.code, exc.message, exc.field)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        status = exc.code or 500
        # Keep the exception's own headers (``Allow`` on a 405, as RFC 9110 requires).
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
        if wants_json():
            code = (exc.name or "error").lower().replace(" ", "_")
            response, _ = error_json(status, code, exc.description or exc.name or "error")
            response.headers.extend(headers)
            return response, status
        page = render_template("error.html", status=status, title=exc.name, message=exc.description)
        return page, status, headers

    @app.errorhandler(Exception)
    def server_error(exc: Exception) -> Any:
        app.logger.exception("unhandled error on %s", request.path)
        if wants_json():
            return error_json(500, "internal_error", "The server hit a bug; it has been logged.")
        return (
            render_template(
                "error.html", status=500, title="Something broke",
                message="This is a bug in the site, not something you did. It has been logged.",
            ),
            500,
        )
