"""JSON API over the rules engine: ``POST /api/v1/<name>`` for every endpoint of
``engine.api.ENDPOINTS`` (line of sight, battle, resolve, retreat, resupply, fire map, move, score, order) and
the OpenAPI document of the whole API (adjudicator/API.md).

Thin: check the HTTP body, then run the endpoint's pure function in ``engine.api``, the same one
the builder runs offline in the browser. One loop registers them all, so an endpoint added to
``ENDPOINTS`` is served here and offline alike; each one's contract is in API.md and the OpenAPI
document."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify

from adjudicator.engine.api import ENDPOINTS
from adjudicator.web.context import current_rulebook
from adjudicator.web.openapi import openapi_document
from adjudicator.web.requests import engine_answer

bp = Blueprint("api_engine", __name__, url_prefix="/api/v1")


def _engine_view(name: str) -> Callable[[], Response]:
    def view() -> Response:
        return engine_answer(name)

    return view


for _name in ENDPOINTS:
    bp.add_url_rule(f"/{_name}", endpoint=_name.replace("-", "_"), view_func=_engine_view(_name), methods=["POST"])


@bp.post("/score")
def score_view() -> Any:
    """Each side's medals with their rules, what each needs, and the winner (``engine.score``)."""
    return engine_answer("score")


@bp.post("/order")
def order_view() -> Any:
    """Which units a command card may order, in which section, and what the order lets them do
    (engine ``orders``, core ``ordering``)."""
    return engine_answer("order")


@bp.get("/openapi.json")
def openapi_view() -> Any:
    """The OpenAPI 3 description of every endpoint of adjudicator/API.md."""
    return jsonify(openapi_document(current_rulebook()))
