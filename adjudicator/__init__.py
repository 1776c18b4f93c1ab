"""adjudicator: Memoir '44 rules reference and adjudication assistant.

The package root imports nothing heavy, so ``import adjudicator.engine`` stays free of Flask and
the database. ``create_app`` (the Flask factory) is loaded on first use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from adjudicator.app import create_app

        return create_app
    raise AttributeError(name)
