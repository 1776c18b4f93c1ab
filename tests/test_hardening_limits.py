"""The app's own rate limit: saves per address per day (``adjudicator.ratelimit``), counted in the
database every worker and machine shares, read before a save and written only with the save it
counts. Request rates per address are the proxy's (``adjudicator.serving``; tested through the
real stack in tests/test_hardening_serve.py)."""

from __future__ import annotations

import time
from pathlib import Path

from adjudicator.config import Config
from adjudicator.db import new_session
from adjudicator.ratelimit import DAY, SaveQuota, quota_key, save_quota
from adjudicator.serving import settings as proxy
from tests.test_hardening_storage import quick_app
from tests.test_storage import database_url  # noqa: F401  (fixture: SQLite and PostgreSQL)

SITUATION = {"units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                       {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3}]}


def limited_app(instance: Path, url: str, **config):
    return quick_app(instance, url, RATELIMIT_ENABLED=True, **config)


def save(client, n: int, address: str = "10.1.2.3", **headers: str):
    return client.post("/api/v1/situations", json={**SITUATION, "title": f"n{n}"},
                       environ_base={"REMOTE_ADDR": address}, headers=headers)


def test_limits_are_on_by_default_with_stated_numbers(tmp_path):
    defaults = Config(instance_path=tmp_path, database_url="sqlite://")
    assert defaults.ratelimit_enabled is True and defaults.rate_limit_saves_per_day == 300
    assert (proxy.PAGES.text(), proxy.ENGINE.text(), proxy.FIRE_MAPS.text(), proxy.SAVES.text()) == (
        "30 per second; burst 300", "10 per second; burst 40", "2 per second; burst 10", "20 per minute; burst 20")


def test_saves_over_the_daily_limit_get_429_until_the_next_day(app, database_url, tmp_path):  # noqa: F811
    client = limited_app(Path(app.instance_path), database_url, RATE_LIMIT_SAVES_PER_DAY=3).test_client()
    statuses = [save(client, n).status_code for n in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = save(client, 9)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= DAY
    assert save(client, 10, address="10.9.9.9").status_code == 201  # another address has its own count
    assert client.get("/api/v1/board/standard", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200


def test_a_retry_of_a_stored_save_is_answered_at_the_limit_and_not_counted(app, database_url):  # noqa: F811
    """Same content, same id: a client whose answer was lost may always retry, even when the save
    it retries was its last of the day."""
    limited = limited_app(Path(app.instance_path), database_url, RATE_LIMIT_SAVES_PER_DAY=2)
    client = limited.test_client()
    first, second = save(client, 1), save(client, 2)
    assert (first.status_code, second.status_code) == (201, 201)
    again = save(client, 2)
    assert again.status_code == 201 and again.get_json()["id"] == second.get_json()["id"]
    assert limited.extensions["save_quota"].used("10.1.2.3") == 2
    assert save(client, 3).status_code == 429


def test_two_workers_on_one_database_share_one_count(app, database_url):  # noqa: F811
    """Two app instances are two workers (or machines): only the database is common to them."""
    instance = Path(app.instance_path)
    first = limited_app(instance, database_url, RATE_LIMIT_SAVES_PER_DAY=4).test_client()
    second = limited_app(instance, database_url, RATE_LIMIT_SAVES_PER_DAY=4).test_client()
    statuses = [save(first if n % 2 else second, n, address="10.2.3.4").status_code for n in range(6)]
    assert statuses == [201, 201, 201, 201, 429, 429]


def test_the_count_is_kept_per_day_and_past_days_are_deleted(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    limited = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=2)
    limit: SaveQuota = limited.extensions["save_quota"]
    yesterday = time.time() - DAY
    with new_session(limit.engine) as session:
        assert limit.charge(session, "10.3.3.3", now=yesterday) and limit.charge(session, "10.3.3.3", now=yesterday)
        assert not limit.charge(session, "10.3.3.3", now=yesterday)  # at yesterday's limit
        session.commit()
    assert limit.used("10.3.3.3", now=yesterday) == 2 and limit.used("10.3.3.3") == 0
    client = limited.test_client()
    assert save(client, 1, address="10.3.3.3").status_code == 201  # a new day, a new count
    with limit.engine.connect() as conn:
        keys = set(conn.execute(save_quota.select().with_only_columns(save_quota.c.key)).scalars())
    assert keys == {quota_key(int(time.time() // DAY), "10.3.3.3")}  # yesterday's row deleted, no address kept


def test_a_save_rolled_back_is_not_counted(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    limit: SaveQuota = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=2).extensions["save_quota"]
    with new_session(limit.engine) as session:
        assert limit.charge(session, "10.4.4.4")
        session.rollback()
    assert limit.used("10.4.4.4") == 0


def test_an_unreadable_count_lets_the_save_through_and_the_count_still_holds(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    limited = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=2)
    limit = limited.extensions["save_quota"]

    def broken(*_args, **_kwargs):
        from sqlalchemy.exc import OperationalError

        raise OperationalError("SELECT", {}, Exception("disk gone"))

    limit.used = broken
    client = limited.test_client()
    # no read refuses, the saves are stored, and the conditional count in their transaction stops the third
    assert [save(client, n).status_code for n in range(3)] == [201, 201, 429]


def test_exempt_addresses_are_not_counted(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=1,
                         RATE_LIMIT_EXEMPT=("10.5.0.0/16",)).test_client()
    assert [save(client, n, address="10.5.1.1").status_code for n in range(3)] == [201] * 3
    assert [save(client, n, address="10.6.1.1").status_code for n in range(3, 5)] == [201, 429]


def test_behind_a_proxy_each_forwarded_client_has_its_own_count(app, tmp_path, monkeypatch):
    monkeypatch.setenv("PROXY_HOPS", "1")
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=1).test_client()
    first = {"X-Forwarded-For": "203.0.113.1"}
    assert save(client, 1, **first).status_code == 201
    assert save(client, 2, **first).status_code == 429
    assert save(client, 3, **{"X-Forwarded-For": "203.0.113.2"}).status_code == 201


def test_without_a_proxy_a_forged_forwarded_header_is_ignored(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'quota.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_SAVES_PER_DAY=1).test_client()
    assert save(client, 1, **{"X-Forwarded-For": "198.51.100.1"}).status_code == 201
    assert save(client, 2, **{"X-Forwarded-For": "198.51.100.2"}).status_code == 429


# (module, constant, its value, how README's configuration section states it)
STATED_LIMITS = [
    ("adjudicator.web.requests", "MAX_DEPTH", 8, "8 levels"),
    ("adjudicator.config", "DEFAULT_WORK_BUDGET", 50_000, "| `ENGINE_WORK_BUDGET` | `50000` |"),
    ("adjudicator.config", "SAVES_PER_DAY", 300, "| `RATE_LIMIT_SAVES_PER_DAY` | `300` |"),
    ("adjudicator.config", "SAVED_STORAGE_LIMIT_MB", 1024, "| `SAVED_STORAGE_LIMIT_MB` | `1024` |"),
    ("adjudicator.web.m44_upload", "MAX_M44_BYTES", 1024 * 1024, "1 MB → 413"),
    ("adjudicator.m44", "MAX_HEXAGONS", 2_800, "2,800 hexagons"),
    ("adjudicator.m44", "MAX_NAME", 60, "names cut to 60 characters"),
    ("adjudicator.m44", "MAX_BADGES", 10, "10 badges and markers per unit"),
    ("adjudicator.m44", "MAX_LISTED", 500, "at most 500 each"),
    ("adjudicator.web.saved_document", "MAX_SAVED_BYTES", 32 * 1024, "32 KB of known fields"),
    ("adjudicator.web.saved_document", "MAX_TITLE", 120, "`title` 120 characters"),
    ("adjudicator.engine.situation", "MAX_UNITS", 200, "200 units"),
    ("adjudicator.engine.situation", "MAX_HEXES", 1_400, "1,400 hexes"),
    ("adjudicator.engine.situation", "MAX_OBSTACLES", 4, "4 obstacles per hex"),
    ("adjudicator.engine.situation", "MAX_FIGURES", 6, "6 figures"),
    ("adjudicator.engine.situation", "MAX_ID_LENGTH", 40, "ids 40"),
    ("adjudicator.engine.situation", "MAX_NAME_LENGTH", 60, "names 60 characters"),
    ("adjudicator.engine.situation", "MAX_BADGES", 10, "10 badges per unit"),
    ("adjudicator.engine.situation", "MAX_RULES", 50, "50 rules"),
    ("adjudicator.web.saved_document", "MAX_SAVED_FLAGS", 3, "`flags` 1–3"),
    ("adjudicator.engine.api", "MAX_FLAGS", 12, "`flags` ≤ 12"),
    ("adjudicator.engine.resolve", "MAX_ROLLED", 12, "`rolled` ≤ 12"),
    ("adjudicator.engine.card_attack", "MAX_TARGETS_GIVEN", 12, "≤ 12 `targets`"),
    ("adjudicator.engine.retreat", "MAX_OPTIONS", 32, "| retreat options listed | 32"),
    ("adjudicator.engine.retreat", "MIN_OPTIONS_PER_CHOICE", 4, "at least 4 per choice"),
    ("adjudicator.engine.fire_map", "MAX_PAIRS", 500, "500 pairs assessed"),
    ("adjudicator.web.search_views", "API_LIMIT_MAX", 50, "`limit` 1–50"),
    ("adjudicator.web.search_views", "API_LIMIT", 10, "(default 10)"),
    ("adjudicator.search.query", "MAX_QUERY_CHARS", 200, "200 characters and 16 words"),
    ("adjudicator.search.query", "MAX_WORDS", 16, "200 characters and 16 words"),
    ("adjudicator.web.errors", "STORAGE_RETRY_AFTER", 60, "`Retry-After: 60`"),
    ("adjudicator.db", "WAL_AUTOCHECKPOINT_PAGES", 1_000, "every 1,000 pages"),
    ("adjudicator.db", "WAL_SIZE_LIMIT", 16 * 1024 * 1024, "16 MB"),
]


def test_the_docs_state_every_limit_as_the_code_sets_it(app):
    """Every limit is stated with the name that sets it and its default (README "Configuration" and
    docs/limits.md). A limit changed in the code without the docs (or the reverse) fails here."""
    import importlib

    from tests.conftest import REPO

    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Configuration"):] + (REPO / "docs" / "limits.md").read_text()
    for module, name, value, stated in STATED_LIMITS:
        assert stated in section, stated
        if value is not None:
            assert getattr(importlib.import_module(module), name) == value, name
            assert f"`{name}`" in section or name == "DEFAULT_WORK_BUDGET", name
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024 and "256 KB (chunked bodies too)" in section
    for rate in (proxy.PAGES, proxy.ENGINE, proxy.FIRE_MAPS, proxy.SAVES):
        assert f"`{rate.text()}`" in section, rate
    assert "const VISITED_MAX = 40;" in (REPO / "adjudicator" / "static_templates" / "sw.js").read_text()
    assert "last 40 saved situations" in section
