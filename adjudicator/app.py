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
    if os.environ.get("PROXY_HOPS", "").isdigit() and int(os.environ["PROXY_HOPS"]) > 0:
        # behind that many proxies, the client address (rate limits count per address) is read
        # from X-Forwarded-For; without a proxy the header is ignored, since anyone can send it
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(os.environ["PROXY_HOPS"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    if os.environ.get("ENGINE_WORK_BUDGET", "").isdigit():
        app.config["ENGINE_WORK_BUDGET"] = int(os.environ["ENGINE_WORK_BUDGET"])
    from adjudicator.ratelimit import config_from_env

    app.config.update(config_from_env())
    from adjudicator.storage_cap import config_from_env as storage_from_env

    app.config.update(storage_from_env(os.environ))
    if test_config:
        app.config.update(test_config)

    from adjudicator import (
        db,
        search,
    )
    from adjudicator.build import ensure_built
    from adjudicator.cli import build_all, content_cli, offline_cli
    from adjudicator.content.loader import ContentError, load_catalogue
    from adjudicator.web import register, register_broken_content

    app.cli.add_command(content_cli)
    app.cli.add_command(offline_cli)
    app.cli.add_command(build_all)
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
    from adjudicator.engine.sightlines import warm_up

    if not app.config.get("SKIP_BUILD"):
        # line-of-sight tables of every board kind now, not on some user's first map; a `flask`
        # command (SKIP_BUILD) serves no map, and the tables are built on first use anyway
        warm_up()
    if not app.config.get("SKIP_BUILD") and read_only_instance(instance_path):
        # A read-only instance folder (a read-only volume, a full disk remounted read-only): no
        # build lock, no rebuild, no WAL; serve the reference from the database as it is and let
        # every write answer 503 (``web.errors``).
        app.config["DATABASE_URL"] = read_only_url(app.config["DATABASE_URL"])
        app.config["READ_ONLY_INSTANCE"] = True
        app.logger.warning("instance folder %s is read-only: serving without rebuilding", instance_path)
    elif not app.config.get("SKIP_BUILD"):
        from sqlalchemy.exc import OperationalError

        try:
            ensure_built(catalogue, db.engine_for(app.config["DATABASE_URL"]), instance_path)
        except (OperationalError, OSError) as exc:
            # The storage refused the rebuild (a read-only database file, a full disk): the build
            # rolled back, so serve the reference as last built rather than fail to boot; every
            # write answers 503 (``web.errors``) until the storage is fixed.
            app.logger.error("could not rebuild the database and index, serving them as last built: %s", exc)
            if not readable(app.config["DATABASE_URL"]):  # a full disk has no room for SQLite's -shm
                app.config["DATABASE_URL"] = read_only_url(app.config["DATABASE_URL"])
                app.config["READ_ONLY_INSTANCE"] = True
        search.opened(instance_path)  # open the index now, not on some user's first search
    register(app)
    from adjudicator.ratelimit import register_rate_limits

    register_rate_limits(app, db.engine_for(app.config["DATABASE_URL"]))
    from adjudicator.storage_cap import register_storage_cap

    register_storage_cap(app, db.engine_for(app.config["DATABASE_URL"]))
    return app


def read_only_instance(instance_path: Path) -> bool:
    """Whether the instance folder exists but cannot be written (checked by writing, since root
    passes every permission check but not a read-only mount)."""
    if not instance_path.is_dir():
        return False
    probe = instance_path / f".write-probe-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return True
    return False


def readable(url: str) -> bool:
    """Whether the rule entries can be read from ``url`` as it is configured."""
    from sqlalchemy.exc import SQLAlchemyError
    from sqlmodel import Session, select

    from adjudicator.db import engine_for
    from adjudicator.models import EntryRow

    try:
        with Session(engine_for(url)) as session:
            session.exec(select(EntryRow).limit(1)).first()
    except SQLAlchemyError:
        return False
    return True


def read_only_url(url: str) -> str:
    """An SQLite URL opened read-only and immutable (a WAL database cannot otherwise be read from a
    folder where its -shm file cannot be created); other databases are left as they are."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return url
    return f"sqlite:///file:{parsed.database}?mode=ro&immutable=1&uri=true"
