"""How much the saved situations may take in all, and what the site keeps.

Retention: a saved situation is kept for as long as the site's database is — it is the target of
links people have shared, so nothing is ever deleted or evicted to make room. What bounds the
storage instead is a cap on the total size of the stored situations (``SAVED_STORAGE_LIMIT_MB``,
the bytes of their stored text): once a save would pass it, the save is refused with 507
``storage_full`` and nothing is stored, while every situation already saved stays readable, and a
situation already stored (same content) is still answered with its id. Share links hold the whole
situation in the URL and need no storage at all. An operator raises the cap (or moves to a larger
disk) to accept saves again. Per address, the saves of a day are capped too (``ratelimit``).

The total is one row (``saved_storage``), read before a save (a read: a full store refuses with no
write) and added to in the save's own transaction by a conditional update, so concurrent saves
never pass the cap together and a save rolled back adds nothing. The row starts from the sizes
already stored when the table is created."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Response, current_app
from sqlalchemy import BigInteger, Column, String, Table, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlmodel import SQLModel

from adjudicator.db import new_session
from adjudicator.models import SavedSituation
from adjudicator.web.errors import error_json

if TYPE_CHECKING:
    from adjudicator.config import Config

TOTAL = "total"

saved_storage = Table(
    "saved_storage", SQLModel.metadata,  # created with the other tables (``db.create_tables``)
    Column("key", String(16), primary_key=True),
    Column("bytes", BigInteger, nullable=False),
)


class StorageCap:
    """The total size of the saved situations, capped at ``limit`` bytes."""

    def __init__(self, engine: Engine, limit: int) -> None:
        self.engine = engine
        self.limit = limit
        try:
            saved_storage.create(engine, checkfirst=True)
            with new_session(engine) as session:
                self._start(session)
                session.commit()
        except SQLAlchemyError:  # no tables yet (they come with the first save), or a read-only database
            pass

    def _start(self, session: Session) -> int:
        """The total, its row made (from the sizes already stored) if there is none yet."""
        found = session.execute(select(saved_storage.c.bytes).where(saved_storage.c.key == TOTAL)).scalar()
        if found is not None:
            return int(found)
        with session.no_autoflush:  # what is stored, not the save being made in this session
            stored = int(session.execute(select(func.coalesce(func.sum(SavedSituation.size), 0))).scalar_one())
        try:
            with session.begin_nested():
                session.execute(insert(saved_storage).values(key=TOTAL, bytes=stored))
        except IntegrityError:  # another worker made it meanwhile
            return int(session.execute(select(saved_storage.c.bytes).where(saved_storage.c.key == TOTAL)).scalar_one())
        return stored

    def used(self, session: Session | None = None) -> int:
        """The bytes stored (a read; in ``session``'s transaction when given, so a request holds
        one connection, not two)."""
        if session is not None:
            return self._start(session)
        with new_session(self.engine) as own:
            found = self._start(own)
            own.commit()  # the row, if this made it
        return found

    def full_for(self, size: int, session: Session | None = None) -> bool:
        """Whether a save of ``size`` bytes would pass the cap (a read)."""
        try:
            return self.used(session) + size > self.limit
        except SQLAlchemyError:
            return False  # cannot read the total: the save meets the storage and says so itself

    def charge(self, session: Session, size: int) -> bool:
        """Add ``size`` to the total in ``session``'s transaction; False (nothing added) when the
        save would pass the cap."""
        for _ in range(2):
            added = session.execute(
                update(saved_storage)
                .where(saved_storage.c.key == TOTAL, saved_storage.c.bytes + size <= self.limit)
                .values(bytes=saved_storage.c.bytes + size)
                .returning(saved_storage.c.bytes)
            ).first()
            if added is not None:
                return True
            if self._start(session) + size > self.limit:  # the row was there: the store is full
                return False
        return False


def register_storage_cap(app: Flask, config: Config, engine: Engine) -> None:
    """The cap ``config`` sets (``SAVED_STORAGE_LIMIT_MB``), counted in ``engine``'s database."""
    with app.app_context():
        app.extensions["storage_cap"] = StorageCap(engine, int(config.saved_storage_limit_mb * 1024 * 1024))


def cap() -> StorageCap | None:
    return current_app.extensions.get("storage_cap")


def storage_full(limit: int) -> tuple[Response, int]:
    return error_json(507, "storage_full", (
        f"the site's storage for saved situations is full ({limit / 1024 / 1024:,.0f} MB); nothing was saved, "
        "and every situation saved before stays available. Share the link instead (Copy link): it holds the "
        "whole situation and needs no storage."), "(storage)")
