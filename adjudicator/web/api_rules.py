"""``GET /api/v1/rules`` and ``GET /api/v1/rules/<kind>/<id>``: entries as JSON."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, url_for
from sqlmodel import select

from adjudicator.content.documents import KIND_LABELS
from adjudicator.db import get_session
from adjudicator.models import EntryRow
from adjudicator.web.errors import ApiError
from adjudicator.web.sources import citation_json, source_json

bp = Blueprint("api_rules", __name__, url_prefix="/api/v1/rules")


def entry_json(row: EntryRow) -> dict[str, Any]:
    """An entry as the API gives it. ``sources`` lists each citation with the facts it decides and
    the page of its document; ``citations`` maps every structured field (inherited ones too) to the
    one passage that decides it, so a reason's ``rule`` + ``fact`` finds its section."""
    catalogue = current_app.extensions["catalogue"]
    entry = catalogue.entries[row.id]
    return {
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "summary": row.summary,
        "expansion": row.expansion,
        "aliases": row.aliases,
        "terms": list(entry.meta.terms),
        "base": row.base,
        "sources": [source_json(s) for s in entry.meta.sources],
        "citations": {fact: citation_json(c) for fact, c in catalogue.citations[row.id].items()},
        "see_also": row.see_also,
        "url": url_for("pages.entry", kind=row.kind, entry_id=row.id),
        "facts": row.facts,
        "body": row.body_md,
        **row.facts,
    }


@bp.get("")
def index() -> Any:
    rows = get_session().exec(select(EntryRow).order_by(EntryRow.kind, EntryRow.name)).all()
    return jsonify(
        {"entries": [{"id": r.id, "kind": r.kind, "name": r.name, "summary": r.summary,
                      "url": url_for("pages.entry", kind=r.kind, entry_id=r.id)} for r in rows]}
    )


@bp.get("/<kind>/<entry_id>")
def entry(kind: str, entry_id: str) -> Any:
    if kind not in KIND_LABELS:
        raise ApiError(f"unknown kind {kind!r}", field="kind", status=404, code="not_found")
    row = get_session().get(EntryRow, entry_id)
    if row is None or row.kind != kind:
        raise ApiError(f"no {kind} entry with id {entry_id!r}", field="id", status=404, code="not_found")
    return jsonify(entry_json(row))
