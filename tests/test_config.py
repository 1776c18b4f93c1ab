"""Configuration is read once, when the app is created: defaults, then the environment, then the
mapping ``create_app`` is given; no module reads the environment after that. The database engines
and sessions have one owner too (``db.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from adjudicator.config import DEFAULT_WORK_BUDGET, RATE_LIMIT_DEFAULTS, load_config

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"


def test_the_given_mapping_wins_over_the_environment_which_wins_over_the_defaults(tmp_path):
    environ = {"ENGINE_WORK_BUDGET": "900", "RATE_LIMIT_ENGINE": "5 per minute", "REDIS_URL": "redis://cache",
               "ADJUDICATOR_INSTANCE": str(tmp_path), "DB_POOL_SIZE": "2"}
    config = load_config(environ, {"ENGINE_WORK_BUDGET": 70, "TESTING": True})
    assert config.engine_work_budget == 70
    assert config.rate_limit_engine == "5 per minute" and config.ratelimit_storage_uri == "redis://cache"
    assert config.rate_limit_saves == RATE_LIMIT_DEFAULTS["RATE_LIMIT_SAVES"]
    assert config.instance_path == tmp_path and config.database_url == f"sqlite:///{tmp_path / 'adjudicator.db'}"
    assert config.db_pool_size == 2
    assert config.flask_config()["TESTING"] is True
    assert load_config({}).engine_work_budget == DEFAULT_WORK_BUDGET


def test_a_pool_size_that_is_not_a_number_is_refused_naming_the_variable():
    with pytest.raises(ValueError, match="DB_POOL_SIZE"):
        load_config({"DB_POOL_SIZE": "many"})


def test_only_the_app_factory_reads_the_environment():
    readers = set()
    for path in PACKAGE.rglob("*.py"):
        if "static" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv") and \
                    isinstance(node.value, ast.Name) and node.value.id == "os":
                readers.add(str(path.relative_to(PACKAGE)))
    assert readers == {"app.py"}


def test_only_db_creates_database_engines_and_sessions():
    makers = set()
    for path in PACKAGE.rglob("*.py"):
        if "static" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("Session", "create_engine", "sessionmaker"):
                makers.add(str(path.relative_to(PACKAGE)))
    assert makers == {"db.py"}
