"""JSON API for what follows a battle: ``/api/v1/retreat`` and ``/api/v1/resupply``."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api_outcomes", __name__, url_prefix="/api/v1")
