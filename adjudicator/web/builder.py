"""The situation builder page: ``GET /builder`` and the data it is drawn from.

- ``GET /builder`` — the builder: an SVG board drawn from the engine's geometry and a palette
  generated from the content (``web/builder_data.py``). Both travel as one content-hashed JSON
  asset (``GET /builder/data.json?v=<hash>``, cached for a year), built once per process with the
  example gallery; the page itself stays a few KB. Its ES modules are imported through an import
  map of content-hashed URLs, so they are cached immutably too. ``GET /s/<id>`` opens the same
  page on a saved situation (``web/situations.py``).
- ``GET /api/v1/board/<kind>`` — one board's hexes, labels and sections."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from adjudicator.engine.geometry import BOARDS
from adjudicator.web.builder_data import board_json, builder_data
from adjudicator.web.errors import ApiError
from adjudicator.web.security import CSP, asset_version

bp = Blueprint("builder", __name__)


def import_map() -> tuple[str, str]:
    """An import map sending every module under ``static/js`` to its content-hashed URL, and
    the CSP source that allows exactly this inline map. Modules import each other by plain
    relative paths; the map makes each of those requests a versioned, immutable one."""
    cached = current_app.extensions.get("builder_import_map")
    if cached is None:
        folder = current_app.static_folder or ""
        modules = sorted(p.name for p in (Path(folder) / "js").glob("*.js"))
        imports = {url_for("static", filename=f"js/{name}"):
                   url_for("static", filename=f"js/{name}", v=asset_version(folder, f"js/{name}"))
                   for name in modules}
        text = json.dumps({"imports": imports}, separators=(",", ":"))
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        cached = (text, f"'sha256-{digest}'")
        current_app.extensions["builder_import_map"] = cached
    return cached


IMPORT = re.compile(r"""^(?:import|export)\b[^'"]*?from\s+['"]\./([\w-]+\.js)['"]""", re.MULTILINE)


def module_graph(entry: str = "builder.js") -> list[str]:
    """The content-hashed URLs of ``entry`` and of every module it imports, directly or not, in
    the order they are found. The page names them all as ``modulepreload`` links, so the browser
    fetches the whole graph at once instead of one level of imports after another (on a phone on
    a slow network each level was a round trip before the builder could start). The links are of
    low priority: the stylesheets and the first paint come first (at high priority Lighthouse's
    phone counted them as blocking the first paint: 2.1 s instead of 1.2)."""
    cached = current_app.extensions.get("builder_module_graph")
    if cached is None:
        folder = Path(current_app.static_folder or "") / "js"
        found = [entry]
        for name in found:
            for child in IMPORT.findall((folder / name).read_text(encoding="utf-8")):
                if child not in found:
                    found.append(child)
        root = current_app.static_folder or ""
        cached = [url_for("static", filename=f"js/{n}", v=asset_version(root, f"js/{n}")) for n in found]
        current_app.extensions["builder_module_graph"] = cached
    return cached


def builder_page(saved: dict[str, Any] | None) -> Response:
    _, digest = builder_data()
    map_text, map_source = import_map()
    html = render_template("builder.html", saved=saved, import_map=map_text, boards=list(BOARDS),
                           modules=module_graph(), data_url=url_for("builder.data", v=digest))
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP.replace("script-src 'self'", f"script-src 'self' {map_source}")
    return response


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
