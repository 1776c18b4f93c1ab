"""Storage works the same on SQLite and on a real PostgreSQL server (``DATABASE_URL``).

`make test` and CI start Debian's PostgreSQL on loopback (``.ci/postgres.sh``) and pass its URL
as ``TEST_DATABASE_URL``; without it (a bare `pytest` run) the PostgreSQL cases are skipped,
except in CI where that would hide a gap and fails instead."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, SQLModel, select

from adjudicator.build import build_database, built_hash
from adjudicator.db import engine_for
from adjudicator.models import CrossRef, EntryRow, SavedSituation
from tests.conftest import make_app, seed_instance


def postgres_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI must run the storage tests on PostgreSQL: TEST_DATABASE_URL is not set")
        pytest.skip("no PostgreSQL server: run `make test`, which starts one")
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'storage.db'}"
        return
    url = postgres_url()
    engine = engine_for(url)
    SQLModel.metadata.drop_all(engine)
    yield url
    SQLModel.metadata.drop_all(engine)


def test_database_is_built_from_every_content_entry(database_url, catalogue):
    engine = engine_for(database_url)
    count = build_database(catalogue, engine)
    assert count == len(catalogue.entries)
    assert built_hash(engine) == catalogue.content_hash
    with Session(engine) as session:
        forest = session.get(EntryRow, "forest")
        assert forest is not None and forest.facts["blocks_los"] is True
        links = session.exec(select(CrossRef).where(CrossRef.source_id == "forest")).all()
        assert {c.target_id for c in links} >= set(catalogue.entries["forest"].meta.see_also)


def test_rebuild_keeps_saved_situations(database_url, catalogue):
    engine = engine_for(database_url)
    build_database(catalogue, engine)
    with Session(engine) as session:
        session.add(SavedSituation(id="keepme01", data=json.dumps({"units": []}), size=12))
        session.commit()
    build_database(catalogue, engine)
    with Session(engine) as session:
        saved = session.get(SavedSituation, "keepme01")
        assert saved is not None and json.loads(saved.data) == {"units": []}


def test_site_serves_rule_pages_from_the_configured_database(database_url, tmp_path):
    app = make_app(seed_instance(tmp_path / "instance"), DATABASE_URL=database_url)  # built into database_url
    client = app.test_client()
    assert client.get("/rules/terrain/forest").status_code == 200
    assert client.get("/api/v1/rules/unit/armor").get_json()["dice"] == [3, 3, 3]
