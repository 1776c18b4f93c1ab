"""JSON API over the rules engine: line of sight, battle, retreat, re-supply (see shared spec)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api_engine", __name__, url_prefix="/api/v1")
