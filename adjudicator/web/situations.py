"""Saved situations: a situation stored under a short id, to share as a link.

- ``POST /api/v1/situations`` saves one (validated by ``web/saved_document.py``, size-capped,
  stored under a fresh 8-character id that is never reused or overwritten; the same content saved
  again answers the first id).
- ``GET /api/v1/situations/<id>`` returns it as JSON; ``GET /s/<id>`` opens it read-only in the
  builder."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import Any

from flask import Blueprint, Response, abort, jsonify, url_for
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from adjudicator.db import get_session
from adjudicator.models import SaveDigest, SavedSituation
from adjudicator.web.builder import builder_page
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import json_body
from adjudicator.web.saved_document import MAX_SAVED_BYTES, validated_document

bp = Blueprint("situations", __name__)

SAVED_ID = re.compile(r"^[A-Za-z0-9_-]{8}$")


@bp.get("/s/<saved_id>")
def saved_page(saved_id: str) -> Response:
    row = _load(saved_id)
    if row is None:
        abort(404, description=f"No saved situation has the id {saved_id!r}. Check the link.")
    return builder_page(_saved_json(row))


@bp.post("/api/v1/situations")
def save() -> Any:
    """Store a situation under a new short id. The body is a situation document, optionally with
    the builder's selection (``attacker``, ``target``, ``card``, ``combat_card`` — the very fields
    of a battle request — plus ``flags`` and ``title``)."""
    data = json_body()
    document = validated_document(data)
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size > MAX_SAVED_BYTES:
        raise ApiError(f"the situation is {size} bytes; at most {MAX_SAVED_BYTES} can be saved",
                       field="(body)", status=413, code="too_large")
    session = get_session()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    existing = _already_saved(digest)
    if existing is not None:
        # a retry of a save whose answer was lost gets the answer the first would have had: same
        # content, same id, nothing stored twice
        return _created(existing)
    for _ in range(8):
        # 8 URL-safe characters, 48 random bits: an id already taken fails the insert (its primary
        # key) and the next one is tried, so no lookup is spent on the ~never-taken case
        saved_id = secrets.token_urlsafe(6)
        row = SavedSituation(id=saved_id, data=text, size=size)
        session.add(row)
        session.add(SaveDigest(digest=digest, saved_id=saved_id))
        try:
            session.commit()
        except IntegrityError:  # the same id (or the same content) saved between our check and insert
            session.rollback()
            existing = _already_saved(digest)
            if existing is not None:
                return _created(existing)
            continue
        session.refresh(row)
        return _created(row)
    raise ApiError("could not find a free id; try again", status=503, code="busy")


@bp.get("/api/v1/situations/<saved_id>")
def load(saved_id: str) -> Any:
    row = _load(saved_id)
    if row is None:
        raise ApiError(f"no saved situation with id {saved_id!r}", field="id", status=404, code="not_found")
    return jsonify(_saved_json(row))


def _already_saved(digest: str) -> SavedSituation | None:
    """The situation already stored with this exact text, if any (one query)."""
    found = select(SavedSituation).join(SaveDigest, SaveDigest.saved_id == SavedSituation.id)
    return get_session().exec(found.where(SaveDigest.digest == digest)).first()


def _created(row: SavedSituation) -> Any:
    response = jsonify(_saved_json(row))
    response.status_code = 201
    response.headers["Location"] = url_for("situations.saved_page", saved_id=row.id)
    return response


def _load(saved_id: str) -> SavedSituation | None:
    if not SAVED_ID.match(saved_id):
        return None
    return get_session().get(SavedSituation, saved_id)


def _saved_json(row: SavedSituation) -> dict[str, Any]:
    return {
        "id": row.id,
        "url": url_for("situations.saved_page", saved_id=row.id),
        "api_url": url_for("situations.load", saved_id=row.id),
        "created_at": row.created_at.isoformat(),
        "size": row.size,
        "situation": json.loads(row.data),
    }
