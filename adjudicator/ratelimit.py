"""The one rate limit the app keeps itself: saves per client address per day.

Request rates (pages, rulings, saves per minute) and connections per address are the proxy's:
nginx counts them in shared memory and refuses a request over a limit before it reaches the app
(``adjudicator.serving``). What nginx cannot keep is a count that must outlive it and hold across
machines: the saves one address stores in a day (``RATE_LIMIT_SAVES_PER_DAY``). That count lives
in the database the saves go to (``save_quota``, one row per address and UTC day), and costs no
write of its own:

- a save of a situation not stored yet first *reads* its address's count (``refused``): an address
  at its limit gets 429 with ``Retry-After`` (the seconds to the next UTC day) and nothing is
  written, so a flood of refused saves never queues behind the database's write lock;
- a save that stores a new situation adds one to the count in the same transaction as the
  situation (``charge``), with a conditional upsert, so concurrent saves from one address on any
  number of workers never pass the limit, and a save that is rolled back is not counted. A retry
  of a situation already stored (same content, same id) stores nothing and counts nothing.

If the count cannot be read (a read-only or broken database) the save goes on to meet the same
storage and its own answer: a broken counter never refuses by itself. Rows of past days are
deleted by the first save of each day in each worker. The key is a hash of the day and the
address, never the address itself."""

from __future__ import annotations

import hashlib
import ipaddress
import time
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, request
from sqlalchemy import Column, Integer, String, Table, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from sqlmodel import SQLModel

from adjudicator.web.errors import error_json

if TYPE_CHECKING:
    from adjudicator.config import Config

DAY = 86_400

save_quota = Table(
    "save_quota", SQLModel.metadata,  # created with the other tables (``db.create_tables``)
    Column("key", String(64), primary_key=True),
    Column("day", Integer, nullable=False, index=True),
    Column("count", Integer, nullable=False),
)


def today(now: float | None = None) -> int:
    """Days since the epoch, UTC: the window each count belongs to."""
    return int((time.time() if now is None else now) // DAY)


def quota_key(day: int, client: str) -> str:
    return hashlib.sha256(f"{day}:{client}".encode()).hexdigest()[:40]


def seconds_to_tomorrow(now: float | None = None) -> int:
    now = time.time() if now is None else now
    return max(1, int(DAY - now % DAY))


class SaveQuota:
    """Saves per address per day, counted in ``engine``'s database (see the module doc)."""

    def __init__(self, engine: Engine, per_day: int, exempt: tuple[str, ...] = ()) -> None:
        self.engine = engine
        self.per_day = per_day
        self.exempt = tuple(ipaddress.ip_network(a, strict=False) for a in exempt)
        self.purged_day = -1
        try:
            save_quota.create(engine, checkfirst=True)
        except SQLAlchemyError:  # a read-only database: nothing is saved there either
            current_app.logger.warning("save_quota table cannot be created; saves per day not counted")

    def is_exempt(self, client: str) -> bool:
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return False
        return any(address in network for network in self.exempt)

    def used(self, client: str, now: float | None = None, session: Session | None = None) -> int:
        """Saves ``client`` stored today (a read; in ``session``'s transaction when given, so a
        request holds one connection, not two)."""
        query = select(save_quota.c.count).where(save_quota.c.key == quota_key(today(now), client))
        if session is not None:
            return int(session.execute(query).scalar() or 0)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def charge(self, session: Session, client: str, now: float | None = None) -> bool:
        """Count one save of ``client`` in ``session``'s transaction; False (nothing counted) when
        the address is at its limit already."""
        if self.is_exempt(client):
            return True
        day = today(now)
        values = {"key": quota_key(day, client), "day": day, "count": 1}
        at_limit = save_quota.c.count < self.per_day
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            statement: Any = pg_insert(save_quota).values(values).on_conflict_do_update(
                index_elements=["key"], set_={"count": save_quota.c.count + 1}, where=at_limit)
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            statement = sqlite_insert(save_quota).values(values).on_conflict_do_update(
                index_elements=["key"], set_={"count": save_quota.c.count + 1}, where=at_limit)
        # RETURNING gives a row when the count was added to, none when the limit's WHERE held it
        # (the row count of an upsert is not reported alike by every driver)
        counted = session.execute(statement.returning(save_quota.c.count)).first() is not None
        if counted and self.purged_day != day:
            session.execute(delete(save_quota).where(save_quota.c.day < day))
            self.purged_day = day
        return counted


def quota() -> SaveQuota | None:
    """This app's save quota, or None when limits are off."""
    return current_app.extensions.get("save_quota")


def client_address() -> str:
    return request.remote_addr or "unknown"


def register_rate_limits(app: Flask, config: Config, engine: Engine | None) -> None:
    """The saves-per-day count ``config`` sets (README "Configuration"), in ``engine``'s database."""
    if not config.ratelimit_enabled or engine is None:
        return
    with app.app_context():
        app.extensions["save_quota"] = SaveQuota(engine, config.rate_limit_saves_per_day, config.rate_limit_exempt)


def refused(client: str, session: Session | None = None) -> tuple[Response, int] | None:
    """The 429 for a save from ``client`` when it is at today's limit (a read; nothing written)."""
    limit = quota()
    if limit is None or limit.is_exempt(client):
        return None
    try:
        used = limit.used(client, session=session)
    except SQLAlchemyError:  # cannot read the count: the save meets the storage and says so itself
        current_app.logger.exception("save quota unreadable; save let through")
        return None
    return too_many_saves(limit.per_day) if used >= limit.per_day else None


def too_many_saves(per_day: int) -> tuple[Response, int]:
    retry_after = seconds_to_tomorrow()
    response, status = error_json(429, "rate_limited", (
        f"this address has saved {per_day} situations today, the most one address may save in a day; "
        f"saving again is possible in {retry_after} s (at midnight UTC). Share links work without saving."))
    response.headers["Retry-After"] = str(retry_after)
    return response, status
