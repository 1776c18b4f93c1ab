"""Search page ``GET /search`` and ``GET /api/v1/search`` (contract: ``adjudicator/API.md``).

Both are thin: validate the filters, ask ``adjudicator.search``, render. The page works without
JavaScript; ``static/js/search.js`` calls the API for the as-you-type list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from adjudicator import search
from adjudicator.content.documents import EXPANSIONS, KIND_LABELS
from adjudicator.web.context import current_catalogue
from adjudicator.web.errors import ApiError

bp = Blueprint("search", __name__)

PAGE_LIMIT = 30
API_LIMIT = 10
API_LIMIT_MAX = 50


def _filter(name: str, allowed: dict[str, Any]) -> str | None:
    """A facet filter: absent or empty (a form's "any" choice) means no filter; anything else
    must be a known id."""
    value = request.args.get(name, "")
    if value == "":
        return None
    if value not in allowed:
        raise ApiError(f"unknown {name} {value[:60]!r}; use one of: {', '.join(allowed)}", field=name)
    return value


def _limit() -> int:
    raw = request.args.get("limit")
    if raw is None:
        return API_LIMIT
    # ASCII digits only, and few of them: ``"²".isdigit()`` is true and a 5000-digit number
    # makes ``int`` raise, both of which used to end in a 500.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or not 1 <= int(raw) <= API_LIMIT_MAX:
        raise ApiError(f"limit must be a whole number from 1 to {API_LIMIT_MAX}", field="limit")
    return int(raw)


def run(query: str, **options: Any) -> search.Results:
    """Search this app's index; build it first if this instance has none (the build step
    normally did that in ``create_app``)."""
    instance = Path(current_app.instance_path)
    try:
        return search.search(instance, query, **options)
    except LookupError:
        search.ensure_index(current_catalogue(), instance)
        return search.search(instance, query, **options)


@bp.get("/search")
def page() -> str:
    try:
        kind = _filter("kind", KIND_LABELS)
        expansion = _filter("expansion", EXPANSIONS)
    except ApiError as exc:
        abort(400, description=exc.message)
    query = request.args.get("q", "")
    results = run(query, kind=kind, expansion=expansion, limit=PAGE_LIMIT, typing=False)
    return render_template(
        "search.html", query=results.query, results=results, kind=kind, expansion=expansion,
    )


@bp.get("/api/v1/search")
def api() -> Response:
    kind = _filter("kind", KIND_LABELS)
    expansion = _filter("expansion", EXPANSIONS)
    limit = _limit()
    results = run(request.args.get("q", ""), kind=kind, expansion=expansion, limit=limit)
    response = jsonify({
        "query": results.query,
        "results": [
            {
                "id": hit.id, "kind": hit.kind, "name": hit.name, "url": hit.url,
                "snippet": str(hit.snippet), "score": hit.score,
                "kind_label": KIND_LABELS[hit.kind][0], "expansion": hit.expansion,
            }
            for hit in results.hits
        ],
        "suggestion": results.suggestion,
        "total": results.total,
        "facets": {"kind": results.kinds, "expansion": results.expansions},
    })
    response.headers["Cache-Control"] = "public, max-age=60"
    return response
