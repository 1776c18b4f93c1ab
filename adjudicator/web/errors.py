"""Error responses: JSON ``{"error": {"code", "message", "field"}}`` under ``/api/``, site-styled
pages elsewhere. A 5xx is always a bug; its page says so without leaking internals."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, NotFound

from adjudicator.config import app_config

STORAGE_RETRY_AFTER = 60  # seconds a client is asked to wait after a storage failure


def database_kind(app: Flask) -> str:
    """The storage named for users without its address or password: "SQLite", "PostgreSQL"."""
    url = app_config(app).database_url
    return "PostgreSQL" if url.startswith("postgres") else "SQLite" if url.startswith("sqlite") else "database"


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

    @app.before_request
    def no_nul_in_paths() -> Any:
        """A NUL byte in a path names nothing: 404 here, before PostgreSQL refuses the text
        (SQLite simply found no row; PostgreSQL raised, which was a 500)."""
        if "\x00" in request.path:
            return http_error(NotFound())
        return None

    @app.errorhandler(OperationalError)
    def storage_unavailable(exc: OperationalError) -> Any:
        """Disk full, a read-only database file, the database server gone: the storage failed,
        not the code. 503 naming it, with Retry-After; reads that need no write keep working."""
        app.logger.error("storage unavailable on %s: %s", request.path, exc.orig)
        message = (f"The database ({database_kind(app)}) cannot be used right now (disk full, read-only or "
                   f"unreachable); nothing was saved. Try again later.")
        if wants_json():
            response, status = error_json(503, "storage_unavailable", message, "(storage)")
        else:
            response = app.make_response((render_template("error.html", status=503, title="Storage unavailable",
                                                          message=message), 503))
            status = 503
        response.headers["Retry-After"] = str(STORAGE_RETRY_AFTER)
        return response, status

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
