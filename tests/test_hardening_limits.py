"""Rate limits on saves and engine calls (issue #15 item 3), counted in the database every worker
and machine shares: two independent app instances (two workers, or two machines) on one database
share one count; over the limit a client gets 429 with ``Retry-After``; reads are never limited."""

from __future__ import annotations

from pathlib import Path

from adjudicator.config import RATE_LIMIT_DEFAULTS as DEFAULTS
from tests.test_hardening_storage import quick_app
from tests.test_storage import database_url  # noqa: F401  (fixture: SQLite and PostgreSQL)

SITUATION = {"units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                       {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3}]}
BATTLE = {**SITUATION, "attacker": "A", "target": "B"}


def limited_app(instance: Path, url: str, reset: bool = True, **config):
    """An app with limits on; ``reset`` forgets counts a previous run left in a shared database."""
    limited = quick_app(instance, url, RATELIMIT_ENABLED=True, **config)
    if reset:
        limited.extensions["rate_limiter"].storage.reset()
    return limited


def test_limits_are_on_by_default_with_stated_numbers():
    assert DEFAULTS["RATELIMIT_ENABLED"] is True
    assert "per minute" in DEFAULTS["RATE_LIMIT_SAVES"] and "per minute" in DEFAULTS["RATE_LIMIT_ENGINE"]


def test_saves_over_the_limit_get_429_with_retry_after(app, database_url, tmp_path):  # noqa: F811
    client = limited_app(Path(app.instance_path), database_url, RATE_LIMIT_SAVES="3 per minute").test_client()
    address = {"REMOTE_ADDR": f"10.1.{len(tmp_path.name) % 200}.7"}
    statuses = [client.post("/api/v1/situations", json={**SITUATION, "title": f"n{i}"}, environ_base=address)
                .status_code for i in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/v1/situations", json=SITUATION, environ_base=address)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json()["error"]["code"] == "rate_limited"
    # another client, and reads, are not affected
    assert client.post("/api/v1/situations", json={**SITUATION, "title": "other"},
                       environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 201
    assert client.get("/api/v1/board/standard", environ_base=address).status_code == 200


def test_two_workers_on_one_database_share_one_count(app, database_url):  # noqa: F811
    """Two app instances are two workers (or machines): each has its own limiter object and only
    the database in common; per-process counting would let each take the full limit."""
    instance = Path(app.instance_path)
    first = limited_app(instance, database_url, RATE_LIMIT_ENGINE="4 per minute").test_client()
    second = limited_app(instance, database_url, reset=False, RATE_LIMIT_ENGINE="4 per minute").test_client()
    address = {"REMOTE_ADDR": "10.2.3.4"}
    statuses = [(first if i % 2 else second).post("/api/v1/battle", json=BATTLE, environ_base=address).status_code
                for i in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]


def test_engine_calls_and_saves_are_counted_apart(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_ENGINE="1 per minute",
                         RATE_LIMIT_SAVES="1 per minute").test_client()
    assert client.post("/api/v1/battle", json=BATTLE).status_code == 200
    assert client.post("/api/v1/battle", json=BATTLE).status_code == 429
    assert client.post("/api/v1/situations", json=SITUATION).status_code == 201
    assert client.post("/api/v1/import/m44", json={"board": {"hexagons": []}}).status_code == 429


def test_a_broken_counter_store_lets_requests_through(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    limited = limited_app(Path(app.instance_path), url, RATE_LIMIT_ENGINE="1 per minute")
    storage = limited.extensions["rate_limiter"].storage

    def broken(*_args, **_kwargs):
        raise OSError("disk gone")

    storage.incr = broken
    client = limited.test_client()
    assert [client.post("/api/v1/battle", json=BATTLE).status_code for _ in range(3)] == [200, 200, 200]


def test_behind_a_proxy_each_forwarded_client_has_its_own_count(app, tmp_path, monkeypatch):
    monkeypatch.setenv("PROXY_HOPS", "1")
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_ENGINE="1 per minute").test_client()
    first = {"X-Forwarded-For": "203.0.113.1"}
    assert client.post("/api/v1/battle", json=BATTLE, headers=first).status_code == 200
    assert client.post("/api/v1/battle", json=BATTLE, headers=first).status_code == 429
    assert client.post("/api/v1/battle", json=BATTLE, headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 200


def test_without_a_proxy_a_forged_forwarded_header_is_ignored(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    client = limited_app(Path(app.instance_path), url, RATE_LIMIT_ENGINE="1 per minute").test_client()
    assert client.post("/api/v1/battle", json=BATTLE, headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 200
    assert client.post("/api/v1/battle", json=BATTLE, headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 429


# (module, constant, its value, how README's configuration section states it)
STATED_LIMITS = [
    ("adjudicator.web.requests", "MAX_DEPTH", 8, "8 levels"),
    ("adjudicator.config", "DEFAULT_WORK_BUDGET", 50_000, "| `ENGINE_WORK_BUDGET` | `50000` |"),
    ("adjudicator.config", "RATE_LIMIT_DEFAULTS", None,
     "saves 20 a minute and 300 a day, other `POST /api/…` 300 a minute"),
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
    ("adjudicator.engine.api", "MAX_FLAGS", 12, "`flags` ≤ 12"),
    ("adjudicator.engine.resolve", "MAX_ROLLED", 12, "`rolled` ≤ 12"),
    ("adjudicator.engine.card_attack", "MAX_TARGETS_GIVEN", 12, "≤ 12 `targets`"),
    ("adjudicator.engine.retreat", "MAX_OPTIONS", 32, "| retreat options listed | 32"),
    ("adjudicator.engine.retreat", "MIN_OPTIONS_PER_CHOICE", 4, "at least 4 per choice"),
    ("adjudicator.engine.fire_map", "MAX_PAIRS", 1_000, "1,000 pairs assessed"),
    ("adjudicator.web.search_views", "API_LIMIT_MAX", 50, "`limit` 1–50"),
    ("adjudicator.web.search_views", "API_LIMIT", 10, "(default 10)"),
    ("adjudicator.search.query", "MAX_QUERY_CHARS", 200, "200 characters and 16 words"),
    ("adjudicator.search.query", "MAX_WORDS", 16, "200 characters and 16 words"),
    ("adjudicator.web.errors", "STORAGE_RETRY_AFTER", 60, "`Retry-After: 60`"),
    ("adjudicator.db", "WAL_AUTOCHECKPOINT_PAGES", 1_000, "every 1,000 pages"),
    ("adjudicator.db", "WAL_SIZE_LIMIT", 16 * 1024 * 1024, "16 MB"),
]


def test_readme_states_every_limit_as_the_code_sets_it(app):
    """Issue #15: the configuration section lists every limit with the name that sets it and its
    default. A limit changed in the code without the README (or the reverse) fails here."""
    import importlib

    from tests.conftest import REPO

    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Configuration"):]
    for module, name, value, stated in STATED_LIMITS:
        assert stated in section, stated
        if value is not None:
            assert getattr(importlib.import_module(module), name) == value, name
            assert f"`{name}`" in section or name == "DEFAULT_WORK_BUDGET", name
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024 and "256 KB (chunked bodies too)" in section
    assert (DEFAULTS["RATE_LIMIT_SAVES"], DEFAULTS["RATE_LIMIT_ENGINE"]) == ("20 per minute; 300 per day",
                                                                             "300 per minute")
    assert "const VISITED_MAX = 40;" in (REPO / "adjudicator" / "static_templates" / "sw.js").read_text()
    assert "last 40 saved situations" in section
