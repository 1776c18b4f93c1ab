"""The site's configuration, read once, when the app is created.

``load_config`` starts from the defaults, applies the environment (README "Configuration"), then
the mapping ``create_app`` was given (what tests pass), and returns a frozen ``Config``. The app
keeps it in ``app.extensions["config"]`` and every module reads it from there (``current``): none
reads ``os.environ`` after start-up, and nothing changes the configuration of a running app.
Flask's own settings (``MAX_CONTENT_LENGTH``, ``TESTING``, …) are copied into ``app.config``,
where Flask reads them."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from adjudicator import REPO_ROOT

MAX_CONTENT_LENGTH = 256 * 1024
"""Largest request body: a fully described Overlord board is ~70 KB."""
DB_POOL_SIZE = DB_MAX_OVERFLOW = 5
"""Database connections per worker (not SQLite): a gevent worker serves many requests at once,
so workers × (pool + overflow) must stay under the server's ``max_connections``."""
DEFAULT_WORK_BUDGET = 50_000
"""Engine work units per API request (``web/budget.py``): ordinary rulings spend a few hundred to a
few thousand; the worst legal battle on a Breakthrough board of frozen rivers spends far less than
this once its retreat is summarised rather than enumerated (``tests/test_hardening_budget.py``)."""
RATE_LIMIT_DEFAULTS: dict[str, Any] = {
    "RATELIMIT_ENABLED": True,
    "RATE_LIMIT_SAVES": "20 per minute; 300 per day",
    "RATE_LIMIT_ENGINE": "300 per minute",
    "RATELIMIT_STORAGE_URI": None,  # None: the site's database; or redis://..., memory:// (one process only)
}
"""Per-client limits (``ratelimit.py``)."""

OFF = ("0", "false", "no", "off")

# The mapping's key for each field (the environment's name where there is one).
KEYS = {
    "instance_path": "INSTANCE_PATH", "database_url": "DATABASE_URL", "content_dir": "CONTENT_DIR",
    "skip_build": "SKIP_BUILD", "read_only_instance": "READ_ONLY_INSTANCE",
    "max_content_length": "MAX_CONTENT_LENGTH", "proxy_hops": "PROXY_HOPS",
    "engine_work_budget": "ENGINE_WORK_BUDGET", "db_pool_size": "DB_POOL_SIZE", "db_max_overflow": "DB_MAX_OVERFLOW",
    "ratelimit_enabled": "RATELIMIT_ENABLED", "rate_limit_saves": "RATE_LIMIT_SAVES",
    "rate_limit_engine": "RATE_LIMIT_ENGINE", "ratelimit_storage_uri": "RATELIMIT_STORAGE_URI",
}


@dataclass(frozen=True)
class Config:
    instance_path: Path
    """Where the database, the search index and the build lock live (``ADJUDICATOR_INSTANCE``)."""
    database_url: str
    content_dir: Path = REPO_ROOT / "content"
    skip_build: bool = False
    """``ADJUDICATOR_SKIP_BUILD``: a ``flask`` command that builds by itself (or not at all)."""
    read_only_instance: bool = False
    """Set by ``create_app`` when the instance folder or the database cannot be written."""
    max_content_length: int = MAX_CONTENT_LENGTH
    proxy_hops: int = 0
    """Proxies in front whose ``X-Forwarded-For`` is trusted for the client address."""
    engine_work_budget: int = DEFAULT_WORK_BUDGET
    db_pool_size: int = DB_POOL_SIZE
    db_max_overflow: int = DB_MAX_OVERFLOW
    ratelimit_enabled: bool = bool(RATE_LIMIT_DEFAULTS["RATELIMIT_ENABLED"])
    rate_limit_saves: str = str(RATE_LIMIT_DEFAULTS["RATE_LIMIT_SAVES"])
    rate_limit_engine: str = str(RATE_LIMIT_DEFAULTS["RATE_LIMIT_ENGINE"])
    ratelimit_storage_uri: str | None = RATE_LIMIT_DEFAULTS["RATELIMIT_STORAGE_URI"]
    """None: the site's database; or redis://…, memory:// (one process only)."""
    flask: Mapping[str, Any] = field(default_factory=dict)
    """Other keys of the mapping (``TESTING``): Flask's own, handed to ``app.config``."""

    def flask_config(self) -> dict[str, Any]:
        """What goes into ``app.config`` for Flask to read."""
        return {"MAX_CONTENT_LENGTH": self.max_content_length, "JSON_SORT_KEYS": False, **self.flask}


def load_config(environ: Mapping[str, str], given: Mapping[str, Any] | None = None) -> Config:
    """Defaults, then ``environ``, then ``given`` (keys as in ``KEYS``; any other key is Flask's)."""
    given = dict(given or {})
    found: dict[str, Any] = _from_environment(environ)
    instance_path = Path(given.pop("INSTANCE_PATH") if "INSTANCE_PATH" in given
                         else environ.get("ADJUDICATOR_INSTANCE", REPO_ROOT / "instance"))
    found.setdefault("database_url", f"sqlite:///{instance_path / 'adjudicator.db'}")
    names = {key: name for name, key in KEYS.items()}
    for key in list(given):
        if key in names:
            found[names[key]] = given.pop(key)
    if "content_dir" in found:
        found["content_dir"] = Path(found["content_dir"])
    return Config(instance_path=instance_path, flask=given, **found)


def _from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if "DATABASE_URL" in environ:
        found["database_url"] = environ["DATABASE_URL"]
    if environ.get("ADJUDICATOR_SKIP_BUILD"):
        found["skip_build"] = True
    for name in ("PROXY_HOPS", "ENGINE_WORK_BUDGET"):
        if environ.get(name, "").isdigit():
            found[name.lower()] = int(environ[name])
    for name in ("DB_POOL_SIZE", "DB_MAX_OVERFLOW"):
        if name in environ:
            if not environ[name].strip().isdigit():
                raise ValueError(f"{name} must be a whole number, not {environ[name]!r}")
            found[name.lower()] = int(environ[name])
    if environ.get("RATELIMIT_ENABLED"):
        found["ratelimit_enabled"] = environ["RATELIMIT_ENABLED"].lower() not in OFF
    for name in ("RATE_LIMIT_SAVES", "RATE_LIMIT_ENGINE", "RATELIMIT_STORAGE_URI"):
        if environ.get(name):
            found[name.lower()] = environ[name]
    if "ratelimit_storage_uri" not in found and environ.get("REDIS_URL"):
        found["ratelimit_storage_uri"] = environ["REDIS_URL"]
    return found


def install(app: Flask, config: Config) -> None:
    """Make ``config`` the app's (at creation, or when ``create_app`` finds the storage read-only)."""
    app.extensions["config"] = config
    app.config.update(config.flask_config())


def replaced(app: Flask, **changes: Any) -> Config:
    config = dataclasses.replace(app_config(app), **changes)
    install(app, config)
    return config


def app_config(app: Flask) -> Config:
    config: Config = app.extensions["config"]
    return config


def current() -> Config:
    """The configuration of the app handling the request (or the command)."""
    return app_config(current_app)
