"""Storage has limits and fails politely (docs/limits.md): saves keep only the fields the
parser reads, a retried save stores nothing twice, the SQLite WAL is bounded, a full disk or a
read-only database answers 503 naming the storage with ``Retry-After`` while reads go on, and a
read-only instance folder still serves the reference. The disk and read-only cases use a real
tiny tmpfs and a read-only bind mount (the suite runs as root, which passes file permission
checks, so only a mount makes a file truly read-only)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlmodel import Session, select

from adjudicator.build import build_database
from adjudicator.db import WAL_SIZE_LIMIT, create_tables, engine_for
from adjudicator.models import BuildMeta, SavedSituation
from tests.conftest import REPO, make_app, seed_instance
from tests.test_storage import database_url  # noqa: F401  (fixture: SQLite and PostgreSQL)

SITUATION = {"board": "standard", "units": [
    {"id": "u1", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
    {"id": "u2", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
], "hexes": [{"row": 5, "col": 11, "terrain": "forest"}]}


def mount(*args: str) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True)
    if result.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs as root and must be able to mount: {result.stderr}")
        pytest.skip(f"needs root and mount to make a real read-only or full disk: {result.stderr.strip()}")


def umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], check=False)


@contextmanager
def read_only_view(src: Path, dst: Path) -> Iterator[Path]:
    """``src`` seen read-only at ``dst`` (a read-only bind mount)."""
    dst.mkdir()
    mount("--bind", str(src), str(dst))
    try:
        mount("-o", "remount,ro,bind", str(dst))
        yield dst
    finally:
        umount(dst)


@contextmanager
def tiny_disk(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path))
    try:
        yield path
    finally:
        umount(path)


def fill(filler: Path) -> None:
    """Take every free byte of the disk ``filler`` is on. Unbuffered: a buffered file would
    try to flush the bytes that did not fit once more on closing, and raise there."""
    with open(filler, "wb", buffering=0) as handle:
        try:
            while handle.write(b"\0" * 65536):
                pass
        except OSError:
            pass


def build_instance(instance: Path, url: str | None = None) -> None:
    """Build an instance in another process, so this one holds no file of it open. One whose
    database is its own SQLite file is a copy of the run's built instance (``seed_instance``)."""
    if url is None or url == f"sqlite:///{instance / 'adjudicator.db'}":
        seed_instance(instance, database="test.db" if url is None else "adjudicator.db")
        return
    code = ("import sys; from pathlib import Path; from tests.conftest import make_app; "
            "make_app(Path(sys.argv[1]), **({'DATABASE_URL': sys.argv[2]} if len(sys.argv) > 2 else {}))")
    subprocess.run([sys.executable, "-c", code, str(instance), *([url] if url else [])], check=True, cwd=REPO,
                   capture_output=True)


def quick_app(instance: Path, url: str, with_rules: bool = False, **config: Any) -> Flask:
    """An app on ``url`` without the start-up build (which also rebuilds the search index): the
    tables, and the rule rows only when a test reads rule pages."""
    quick = make_app(instance, DATABASE_URL=url, SKIP_BUILD=True, **config)
    if with_rules:
        build_database(quick.extensions["catalogue"], engine_for(url))
    else:
        create_tables(engine_for(url))
    return quick


# -- what a save stores ---------------------------------------------------------------------------

def test_saves_keep_only_the_fields_the_parser_reads(client):
    junk_unit = {**SITUATION["units"][0], "junk": "x" * 30_000, "moved": 1,
                 "moved_from": {"row": 6, "col": 8, "extra": "y" * 1000}}
    junk_hex = {**SITUATION["hexes"][0], "junk": ["z"] * 100}
    doc = {**SITUATION, "units": [junk_unit, SITUATION["units"][1]], "hexes": [junk_hex]}
    response = client.post("/api/v1/situations", json=doc)
    assert response.status_code == 201
    stored = client.get(response.get_json()["api_url"]).get_json()["situation"]
    assert stored["units"][0] == {**SITUATION["units"][0], "moved": 1, "moved_from": {"row": 6, "col": 8}}
    assert stored["hexes"] == SITUATION["hexes"]
    assert response.get_json()["size"] < 1_000


def test_a_retried_save_returns_the_first_id_and_stores_nothing_twice(app, database_url, tmp_path):  # noqa: F811
    client = quick_app(Path(app.instance_path), database_url).test_client()
    doc = {**SITUATION, "title": f"retry {tmp_path.name}"}
    first = client.post("/api/v1/situations", json=doc)
    again = client.post("/api/v1/situations", json=doc)  # the client never saw the first answer
    assert first.status_code == again.status_code == 201
    assert first.get_json()["id"] == again.get_json()["id"]
    with Session(engine_for(database_url)) as session:
        rows = session.exec(select(SavedSituation)).all()
    assert [r.id for r in rows if "retry" in r.data] == [first.get_json()["id"]]
    other = client.post("/api/v1/situations", json={**doc, "title": "another"})
    assert other.get_json()["id"] != first.get_json()["id"]


def test_sqlite_wal_is_cut_back_after_checkpoints(tmp_path):
    engine = engine_for(f"sqlite:///{tmp_path / 'wal.db'}")
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA journal_size_limit").fetchone()[0] == WAL_SIZE_LIMIT
        assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] > 0
        raw.execute("CREATE TABLE t (x TEXT)")
        for _ in range(30):  # ~30 MB through the WAL, more than its limit
            raw.execute("INSERT INTO t VALUES (?)", ("x" * 1_000_000,))
            raw.commit()
        raw.execute("DELETE FROM t")
        raw.commit()
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert os.path.getsize(tmp_path / "wal.db-wal") <= WAL_SIZE_LIMIT


# -- faults ---------------------------------------------------------------------------------------

def assert_storage_503(response) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    assert int(response.headers["Retry-After"]) > 0
    error = response.get_json()["error"]
    assert error["code"] == "storage_unavailable" and error["field"] == "(storage)"
    assert "SQLite" in error["message"]


def test_full_disk_save_is_503_naming_the_storage_and_reads_go_on(app, tmp_path):
    with tiny_disk(tmp_path / "disk", "3m") as disk:
        url = f"sqlite:///{disk / 'full.db'}"
        client = quick_app(Path(app.instance_path), url, with_rules=True).test_client()
        assert client.post("/api/v1/situations", json=SITUATION).status_code == 201
        filler = disk / "filler"
        fill(filler)
        responses = [client.post("/api/v1/situations", json={**SITUATION, "title": f"t{i}" * 30}) for i in range(20)]
        assert all(r.status_code in (201, 503) for r in responses), [r.status_code for r in responses]
        assert_storage_503(responses[-1])
        assert client.get("/rules/terrain/forest").status_code == 200
        assert client.get("/api/v1/rules/terrain/forest").status_code == 200
        filler.unlink()
        assert client.post("/api/v1/situations", json={**SITUATION, "title": "after"}).status_code == 201


def test_read_only_database_save_is_503_and_the_reference_is_served(tmp_path):
    build_instance(tmp_path / "src")
    with read_only_view(tmp_path / "src", tmp_path / "ro") as ro:
        app = make_app(ro, DATABASE_URL=f"sqlite:///{ro / 'test.db'}")
        client = app.test_client()
        for path in ("/rules/terrain/forest", "/api/v1/rules/terrain/forest", "/api/v1/search?q=woods", "/builder"):
            assert client.get(path).status_code == 200, path
        assert_storage_503(client.post("/api/v1/situations", json=SITUATION))
        page = client.post("/api/v1/situations", json=SITUATION, headers={"Accept": "text/html"})
        assert page.status_code == 503


def test_nul_byte_in_a_rule_path_is_404(app, database_url):  # noqa: F811
    client = quick_app(Path(app.instance_path), database_url, with_rules=True).test_client()
    for path in ("/rules/terrain/fo%00rest", "/api/v1/rules/terrain/%00", "/s/ab%00cdefg", "/api/v1/situations/%00"):
        assert client.get(path).status_code == 404, path


def stale_build(instance: Path) -> None:
    """Mark the instance's database as built from other content, so the next start rebuilds it
    (what a deploy with changed content does)."""
    engine = engine_for(f"sqlite:///{instance / 'test.db'}")
    with Session(engine) as session:
        meta = session.get(BuildMeta, "content_hash")
        assert meta is not None
        meta.value = "content of an older deploy"
        session.add(meta)
        session.commit()
    engine.dispose()  # no connection of this process stays open on the file (a worker starts afresh)


def test_a_start_that_cannot_rebuild_still_serves_the_reference(tmp_path):
    """A read-only database file (in a writable folder) or a full disk, met by a start that must
    rebuild (changed content): the rebuild failed, the worker failed to boot and the whole site was
    down. Now the reference is served as last built and writes answer 503."""
    build_instance(tmp_path / "src")
    stale_build(tmp_path / "src")
    with tiny_disk(tmp_path / "disk", "40m") as disk:
        full = disk / "full"
        shutil.copytree(tmp_path / "src", full)
        fill(disk / "filler")
        read_only = tmp_path / "src" / "test.db"
        mount("--bind", str(read_only), str(read_only))
        try:
            mount("-o", "remount,ro,bind", str(read_only))
            for instance in (tmp_path / "src", full):
                client = make_app(instance).test_client()
                for path in ("/rules/terrain/forest", "/api/v1/rules/terrain/forest", "/builder"):
                    assert client.get(path).status_code == 200, (instance, path)
                assert_storage_503(client.post("/api/v1/situations", json=SITUATION))
        finally:
            umount(read_only)
