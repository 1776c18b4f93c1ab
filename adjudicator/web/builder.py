"""The situation builder page, saved situations and scenario import."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("builder", __name__)
