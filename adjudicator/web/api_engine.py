"""JSON API over the rules engine: ``/api/v1/line-of-sight``, ``/api/v1/battle``, ``/api/v1/resolve``,
``/api/v1/fire-map``, ``/api/v1/move``, ``/api/v1/order`` and the OpenAPI document of the whole API
(adjudicator/API.md).

Thin: check the HTTP body, then run the endpoint's pure function in ``engine.api`` (the same
one the builder runs offline in the browser). ``/retreat`` and ``/resupply`` live in
``api_outcomes``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from adjudicator.web.openapi import openapi_document
from adjudicator.web.requests import engine_answer, json_body, rulebook

bp = Blueprint("api_engine", __name__, url_prefix="/api/v1")

@bp.post("/line-of-sight")
def line_of_sight_view() -> Any:
    """Line of sight between the centres of ``from`` and ``to`` (content ``line_of_sight``)."""
    return engine_answer("line-of-sight", json_body())


@bp.post("/battle")
def battle_view() -> Any:
    """Legality, dice with their reasons, hits, exact odds and what may follow the roll."""
    return engine_answer("battle", json_body())


@bp.post("/resolve")
def resolve_view() -> Any:
    """The faces actually rolled, applied: hits, losses, flags, retreat, ground (``engine.resolve``)."""
    return engine_answer("resolve", json_body())


@bp.post("/fire-map")
def fire_map_view() -> Any:
    """Every battle between enemy units as things stand, each as ``/battle`` rules it (``engine.fire_map``)."""
    return engine_answer("fire-map", json_body())


@bp.post("/move")
def move_view() -> Any:
    """Every hex the unit may end its move on, with one best path each, whether it may still
    battle there, and why other hexes within its allowance cannot be reached (core ``movement``)."""
    return engine_answer("move", json_body())


@bp.post("/order")
def order_view() -> Any:
    """Which units a command card may order, in which section, and what the order lets them do
    (engine ``orders``, core ``ordering``)."""
    return engine_answer("order", json_body())


@bp.get("/openapi.json")
def openapi_view() -> Any:
    """The OpenAPI 3 description of every endpoint of adjudicator/API.md."""
    return jsonify(openapi_document(rulebook()))
