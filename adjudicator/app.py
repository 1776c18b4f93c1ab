"""The Flask application factory (flaskr style).

``create_app`` loads and validates the content once, makes sure the database and search index
match it, and registers the blueprints. The rules engine (``adjudicator.engine``) does not depend
on any of this."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

from adjudicator import REPO_ROOT


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    instance_path = Path(os.environ.get("ADJUDICATOR_INSTANCE", REPO_ROOT / "instance"))
    if test_config and "INSTANCE_PATH" in test_config:
        instance_path = Path(test_config["INSTANCE_PATH"])
    app = Flask(
        __name__,
        instance_path=str(instance_path),
        template_folder=str(REPO_ROOT / "templates"),
        static_folder="static",
    )
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL", f"sqlite:///{instance_path / 'adjudicator.db'}"),
        CONTENT_DIR=str(REPO_ROOT / "content"),
        SKIP_BUILD=bool(os.environ.get("ADJUDICATOR_SKIP_BUILD")),  # `flask content build` builds itself
        MAX_CONTENT_LENGTH=256 * 1024,  # a fully described Overlord board is ~70 KB
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)

    from adjudicator import (
        db,
        search,
    )
    from adjudicator.build import ensure_built
    from adjudicator.cli import content_cli, offline_cli
    from adjudicator.content.loader import ContentError, load_catalogue
    from adjudicator.web import register, register_broken_content

    app.cli.add_command(content_cli)
    app.cli.add_command(offline_cli)
    db.init_app(app)
    try:
        catalogue = load_catalogue(Path(app.config["CONTENT_DIR"]))
    except ContentError as exc:
        # Still create the app so `flask content check` can list the problems; every page
        # answers 503 naming them rather than serving rules that failed validation.
        app.logger.error("content does not validate:\n%s", exc)
        app.extensions["content_error"] = exc
        register_broken_content(app, exc)
        return app
    app.extensions["catalogue"] = catalogue
    app.extensions["rulebook"] = catalogue.rulebook()
    if not app.config.get("SKIP_BUILD"):
        ensure_built(catalogue, db.engine_for(app.config["DATABASE_URL"]), instance_path)
        search.opened(instance_path)  # open the index now, not on some user's first search
    register(app)
    return app
