"""Per-client rate limits on saves and engine calls, counted in a store every worker shares.

The counting is the ``limits`` library's fixed-window strategy. Its store is, by default, the
database the site already uses (``DatabaseStorage`` below: one row per client and window in the
``rate_limit`` table), so the counts hold across gunicorn workers and across machines that share
the database; when ``REDIS_URL`` (or ``RATELIMIT_STORAGE_URI``) is set, ``limits``' own Redis
store is used instead. Over the limit a request gets 429 with ``Retry-After``. If the store
itself fails (a read-only or full disk) the request is let through and the failure logged: a
broken counter must not take the reference down with it.

Which requests count: every ``POST`` under ``/api/`` — saves (``POST /api/v1/situations``)
against ``RATE_LIMIT_SAVES``, every other call (the engine, ``.m44`` import) against
``RATE_LIMIT_ENGINE``. Reads are never limited here."""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING, Any, ClassVar

from flask import Flask, Response, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy import Column, Float, Integer, MetaData, String, Table, case, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from adjudicator.web.errors import error_json

if TYPE_CHECKING:
    from adjudicator.config import Config

SAVE_PATH = "/api/v1/situations"

metadata = MetaData()
rate_limit_table = Table(
    "rate_limit", metadata,
    Column("key", String(255), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)


class DatabaseStorage(Storage):
    """A ``limits`` store on an SQLAlchemy database (SQLite or PostgreSQL): an atomic upsert per
    hit, so concurrent workers and machines never lose a count."""

    STORAGE_SCHEME: ClassVar[list[str]] = ["adjudicator+db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.engine: Engine = options["engine"]
        try:
            metadata.create_all(self.engine)
        except SQLAlchemyError:  # a read-only database: every hit fails and is let through
            logging.getLogger(__name__).warning("rate-limit table cannot be created; limits not counted")
        self.hits = 0

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def _upsert(self, key: str, expiry: int, amount: int, now: float) -> Any:
        values = {"key": key, "count": amount, "expires_at": now + expiry}
        expired = rate_limit_table.c.expires_at <= now
        update = {
            "count": case((expired, amount), else_=rate_limit_table.c.count + amount),
            "expires_at": case((expired, now + expiry), else_=rate_limit_table.c.expires_at),
        }
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            pg = pg_insert(rate_limit_table).values(values)
            return pg.on_conflict_do_update(index_elements=["key"], set_=update)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        lite = sqlite_insert(rate_limit_table).values(values)
        return lite.on_conflict_do_update(index_elements=["key"], set_=update)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(self._upsert(key, int(expiry), amount, now))
            count = conn.execute(select(rate_limit_table.c.count).where(rate_limit_table.c.key == key)).scalar_one()
            self.hits += 1
            if self.hits % 200 == 0:  # now and then, forget windows that have ended
                conn.execute(delete(rate_limit_table).where(rate_limit_table.c.expires_at <= now))
        return int(count)

    def _row(self, key: str) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(select(rate_limit_table).where(
                rate_limit_table.c.key == key, rate_limit_table.c.expires_at > time.time())).first()

    def get(self, key: str) -> int:
        row = self._row(key)
        return 0 if row is None else int(row.count)

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return time.time() if row is None else float(row.expires_at)

    def check(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with self.engine.begin() as conn:
            return conn.execute(delete(rate_limit_table)).rowcount

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(rate_limit_table).where(rate_limit_table.c.key == key))


def register_rate_limits(app: Flask, config: Config, engine: Engine | None) -> None:
    """The limits ``config`` sets (README "Configuration"), counted in ``engine``'s database unless
    it names another store."""
    if not config.ratelimit_enabled:
        return
    saves: list[RateLimitItem] = parse_many(config.rate_limit_saves)
    calls: list[RateLimitItem] = parse_many(config.rate_limit_engine)
    uri = config.ratelimit_storage_uri
    storage: Storage = (storage_from_string(uri) if uri
                        else DatabaseStorage("adjudicator+db://", engine=engine))
    limiter = FixedWindowRateLimiter(storage)
    app.extensions["rate_limiter"] = limiter

    @app.before_request
    def rate_limited() -> Any:
        if request.method != "POST" or not request.path.startswith("/api/"):
            return None
        scope, items = ("saves", saves) if request.path == SAVE_PATH else ("engine", calls)
        client = request.remote_addr or "unknown"
        try:
            for item in items:
                if not limiter.hit(item, scope, client):
                    reset = limiter.get_window_stats(item, scope, client).reset_time
                    return too_many(scope, item, max(1, math.ceil(reset - time.time())))
        except Exception:  # the store failed: count nothing rather than refuse everything
            current_app.logger.exception("rate-limit store unavailable; request let through")
        return None


def too_many(scope: str, item: RateLimitItem, retry_after: int) -> tuple[Response, int]:
    what = "saves" if scope == "saves" else "rulings and imports"
    response, status = error_json(429, "rate_limited", (
        f"too many {what} from this address: at most {item.amount} per {item.multiples} "
        f"{item.GRANULARITY.name}(s); try again in {retry_after} s"))
    response.headers["Retry-After"] = str(retry_after)
    return response, status
