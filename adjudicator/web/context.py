"""Template globals shared by every page: kind labels, expansion names, documents."""

from __future__ import annotations

from typing import Any

from flask import Flask

from adjudicator.content.documents import DOCUMENTS, EXPANSIONS, KIND_LABELS, SECONDARY_DOCUMENTS, SOURCES


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
