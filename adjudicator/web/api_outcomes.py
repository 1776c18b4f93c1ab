"""JSON API for what follows a battle: ``/api/v1/retreat`` and ``/api/v1/resupply``.

Thin: check the HTTP body, then run the endpoint's pure function in ``engine.api`` (the same one
the builder runs offline in the browser)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from adjudicator.web.requests import engine_answer, json_body

bp = Blueprint("api_outcomes", __name__, url_prefix="/api/v1")



@bp.post("/retreat")
def retreat() -> Any:
    """Every legal retreat of ``unit`` for ``flags`` flags (after ``hits`` hits), with losses."""
    return engine_answer("retreat", json_body())


@bp.post("/resupply")
def resupply() -> Any:
    """Whom ``supplier`` may re-supply this turn and with how many figures."""
    return engine_answer("resupply", json_body())
