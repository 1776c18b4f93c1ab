"""Search page and ``GET /api/v1/search``."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("search", __name__)
