"""The one owner of the database engines and of every session.

SQLite in ``instance/`` by default; any SQLAlchemy URL through ``DATABASE_URL``. One engine per
URL per process (``engine_for``; ``engine_of`` for the app's configuration). A request's session
follows flaskr's ``get_db``/``close_db`` shape: opened on first use in a request, closed on
teardown (``get_session``); work outside a request (the build, start-up checks) opens its own
with ``new_session``. No other module creates an engine or a session."""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, g
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, SQLModel, create_engine

from adjudicator import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from adjudicator.config import DB_MAX_OVERFLOW, DB_POOL_SIZE, Config, current


@cache
def engine_for(url: str, pool_size: int = DB_POOL_SIZE, max_overflow: int = DB_MAX_OVERFLOW) -> Engine:
    """One engine per database URL (and pool size) per process."""
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    database = make_url(url).database
    if url.startswith("sqlite") and database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)  # a fresh machine has no folder yet
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        # A gevent worker serves many requests at once: cap its connections (others wait for a
        # free one) so workers × connections stays under the server's max_connections.
        kwargs["pool_size"] = pool_size
        kwargs["max_overflow"] = max_overflow
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


WAL_AUTOCHECKPOINT_PAGES = 1000
"""Checkpoint the WAL into the database every 1000 pages (about 4 MB), SQLite's own default."""
WAL_SIZE_LIMIT = 16 * 1024 * 1024
"""After a checkpoint the WAL file is cut back to at most 16 MB: without a limit it keeps the size
of its largest burst for ever (76 MB after a save flood)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL so readers never wait on a writer and a crash mid-write leaves a readable file; a
    bounded WAL so a burst of writes does not leave a huge file behind."""
    cursor = dbapi_connection.cursor()
    with contextlib.suppress(Exception):  # a read-only database cannot switch mode: read it as it is
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
    cursor.close()


def engine_of(config: Config) -> Engine:
    """The engine of the database ``config`` names, with its pool size."""
    return engine_for(config.database_url, config.db_pool_size, config.db_max_overflow)


def get_engine() -> Engine:
    """The engine of the app handling the request (or the command)."""
    return engine_of(current())


def create_tables(engine: Engine) -> None:
    SQLModel.metadata.create_all(engine)


def new_session(engine: Engine) -> Session:
    """A session of its own, outside any request; the caller closes it (``with new_session(…)``)."""
    return Session(engine)


def get_session() -> Session:
    """The request's session, opened on first use."""
    if "db_session" not in g:
        g.db_session = Session(get_engine())
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_session)
