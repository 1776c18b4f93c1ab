"""The situation builder page: ``GET /builder`` and the data it is drawn from.

- ``GET /builder`` — the builder: an SVG board drawn from the engine's geometry and a palette
  generated from the content (``web/builder_data.py``). Both travel as one content-hashed JSON
  asset (``GET /builder/data.json?v=<hash>``, cached for a year), built once per process with the
  example gallery; the page itself stays a few KB. Its ES modules are loaded as one bundle
  (``adjudicator/bundle.py``) by its content-hashed URL, so it is cached immutably too.
  ``GET /s/<id>`` opens the same page on a saved situation (``web/situations.py``).
- ``GET /api/v1/board/<kind>`` — one board's hexes, labels and sections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from adjudicator.bundle import BUNDLE, BundlerMissing
from adjudicator.engine.geometry import BOARDS
from adjudicator.web.builder_data import board_json, builder_data
from adjudicator.web.errors import ApiError
from adjudicator.web.security import asset_version

bp = Blueprint("builder", __name__)


def bundle_url() -> str:
    """The content-hashed URL of the builder's bundle (``adjudicator/bundle.py``). Low priority on
    the page: the stylesheets and the first paint come first (at high priority Lighthouse's phone
    counted the script as blocking the first paint)."""
    cached = current_app.extensions.get("builder_bundle_url")
    if cached is None:
        folder = current_app.static_folder or ""
        if not (Path(folder) / BUNDLE).is_file():
            raise BundlerMissing(f"{BUNDLE} is not built: `make build` bundles the builder's modules")
        cached = url_for("static", filename=BUNDLE, v=asset_version(folder, BUNDLE))
        current_app.extensions["builder_bundle_url"] = cached
    return cached


def builder_page(saved: dict[str, Any] | None) -> Response:
    _, digest = builder_data()
    html = render_template("builder.html", saved=saved, boards=list(BOARDS), bundle=bundle_url(),
                           data_url=url_for("builder.data", v=digest))
    return Response(html, mimetype="text/html")


# -- pages -------------------------------------------------------------------------------------

@bp.get("/builder")
def builder() -> Response:
    return builder_page(None)


@bp.get("/builder/data.json")
def data() -> Response:
    """The builder's data. Asked for with the current hash (as the page does) it is cached for a
    year; any other request gets it uncached, so a stale link never pins old data."""
    body, digest = builder_data()
    response = Response(body, mimetype="application/json")
    if request.args.get("v") == digest:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/v1/board/<kind>")
def board(kind: str) -> Any:
    if kind not in BOARDS:
        raise ApiError(f"unknown board {kind!r}; known: {', '.join(BOARDS)}", field="kind", status=404,
                       code="not_found")
    return jsonify(board_json(BOARDS[kind]))
