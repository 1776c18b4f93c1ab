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
from adjudicator.config import Config, install, load_config, replaced


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app, configured once from the defaults, the environment and ``test_config``
    (``config.load_config``)."""
    config = load_config(os.environ, test_config)
    instance_path = config.instance_path
    app = Flask(
        __name__,
        instance_path=str(instance_path),
        template_folder=str(REPO_ROOT / "templates"),
        static_folder="static",
    )
    install(app, config)
    if config.proxy_hops > 0:
        # behind that many proxies, the client address (rate limits count per address) is read
        # from X-Forwarded-For; without a proxy the header is ignored, since anyone can send it
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = config.proxy_hops
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]

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
        catalogue = load_catalogue(config.content_dir)
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

    if not config.skip_build:
        # line-of-sight tables of every board kind now, not on some user's first map; a `flask`
        # command (SKIP_BUILD) serves no map, and the tables are built on first use anyway
        warm_up()
    if not config.skip_build and read_only_instance(instance_path):
        # A read-only instance folder (a read-only volume, a full disk remounted read-only): no
        # build lock, no rebuild, no WAL; serve the reference from the database as it is and let
        # every write answer 503 (``web.errors``).
        config = replaced(app, database_url=read_only_url(config.database_url), read_only_instance=True)
        app.logger.warning("instance folder %s is read-only: serving without rebuilding", instance_path)
    elif not config.skip_build:
        from sqlalchemy.exc import OperationalError

        try:
            ensure_built(catalogue, db.engine_of(config), instance_path)
        except (OperationalError, OSError) as exc:
            # The storage refused the rebuild (a read-only database file, a full disk): the build
            # rolled back, so serve the reference as last built rather than fail to boot; every
            # write answers 503 (``web.errors``) until the storage is fixed.
            app.logger.error("could not rebuild the database and index, serving them as last built: %s", exc)
            if not readable(config):  # a full disk has no room for SQLite's -shm
                config = replaced(app, database_url=read_only_url(config.database_url), read_only_instance=True)
        search.opened(instance_path)  # open the index now, not on some user's first search
    register(app)
    from adjudicator.ratelimit import register_rate_limits

    register_rate_limits(app, config, db.engine_of(config))
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


def readable(config: Config) -> bool:
    """Whether the rule entries can be read from the database as it is configured."""
    from sqlalchemy.exc import SQLAlchemyError
    from sqlmodel import select

    from adjudicator.db import engine_of, new_session
    from adjudicator.models import EntryRow

    try:
        with new_session(engine_of(config)) as session:
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
