"""What every view reads from the app: the content it loaded at start-up (``create_app`` keeps the
catalogue and its rulebook in ``app.extensions``), and the template globals shared by every page
(kind labels, expansion names, documents)."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app

from adjudicator.content.documents import DOCUMENTS, EXPANSIONS, KIND_LABELS, SECONDARY_DOCUMENTS, SOURCES
from adjudicator.content.loader import Catalogue
from adjudicator.engine.rulebook import Rulebook


def current_catalogue() -> Catalogue:
    """The content entries the app handling the request loaded."""
    loaded: Catalogue = current_app.extensions["catalogue"]
    return loaded


def current_rulebook() -> Rulebook:
    """The rulebook the engine rules with, built from ``current_catalogue()``."""
    loaded: Rulebook = current_app.extensions["rulebook"]
    return loaded


def register_context(app: Flask) -> None:
    @app.context_processor
    def globals_() -> dict[str, Any]:
        return {
            "KIND_LABELS": KIND_LABELS,
            "EXPANSIONS": EXPANSIONS,
            "DOCUMENTS": DOCUMENTS,
            "SECONDARY_DOCUMENTS": SECONDARY_DOCUMENTS,
            "SOURCES": SOURCES,
        }
