"""The one owner of the SQLModel engine and the per-request session.

SQLite in ``instance/`` by default; any SQLAlchemy URL through ``DATABASE_URL``. The session
follows flaskr's ``get_db``/``close_db`` shape: opened on first use in a request, closed on
teardown."""

from __future__ import annotations

import contextlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, SQLModel, create_engine

from adjudicator import models  # noqa: F401  (registers the tables on SQLModel.metadata)


@cache
def engine_for(url: str) -> Engine:
    """One engine per database URL per process."""
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    database = make_url(url).database
    if url.startswith("sqlite") and database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)  # a fresh machine has no folder yet
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        # A gevent worker serves many requests at once: cap its connections (others wait for a
        # free one) so workers × connections stays under the server's max_connections.
        kwargs["pool_size"] = int(os.environ.get("DB_POOL_SIZE", "5"))
        kwargs["max_overflow"] = int(os.environ.get("DB_MAX_OVERFLOW", "5"))
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


def get_engine() -> Engine:
    return engine_for(current_app.config["DATABASE_URL"])


def create_tables(engine: Engine) -> None:
    SQLModel.metadata.create_all(engine)


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
