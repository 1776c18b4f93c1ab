"""`make serve` itself (gunicorn, gevent workers) under slow clients, killed workers, concurrent
saves and a read-only instance (issue #15 items 2, 5 and "the test suite must test what it
claims"). Each test starts the real `make serve` command on a free loopback port."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from sqlmodel import SQLModel

from adjudicator.db import engine_for
from tests.conftest import REPO
from tests.test_hardening_storage import build_instance, read_only_view
from tests.test_saved_durability import SAVES, situation
from tests.test_storage import postgres_url

DB = "adjudicator.db"  # the default database file in an instance folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def make_serve(instance: Path, workers: int = 2, database_url: str | None = None) -> Iterator[tuple[str, int]]:
    """Run `make serve` (the production command) on ``instance``; yields (base URL, pid of the
    gunicorn master)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MAKEFLAGS", "MAKELEVEL")}
    env.update(ADJUDICATOR_INSTANCE=str(instance), RATELIMIT_ENABLED="0")
    if database_url:
        env["DATABASE_URL"] = database_url
    log = open(instance.parent / f"serve-{port}.log", "wb")  # noqa: SIM115  (closed below)
    process = subprocess.Popen(["make", "-s", "serve", "HOST=127.0.0.1", f"PORT={port}", f"WORKERS={workers}"],
                               cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with suppress(OSError):
                urllib.request.urlopen(base + "/rules/terrain/forest", timeout=5).read()
                break
            assert process.poll() is None, (instance.parent / f"serve-{port}.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "make serve did not answer within 120 s"
            time.sleep(0.3)
        yield base, gunicorn_master(process.pid)
    except BaseException:
        log.flush()
        print((instance.parent / f"serve-{port}.log").read_text(errors="replace")[-4000:])  # shown on failure
        raise
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def gunicorn_master(make_pid: int) -> int:
    """make runs gunicorn as its child (or execs it through a shell)."""
    for pid in [make_pid, *children(make_pid)]:
        with suppress(OSError):
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    raise AssertionError("no gunicorn process under make serve")


def call(base: str, path: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"},
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    instance = tmp_path_factory.mktemp("serve") / "instance"
    build_instance(instance, f"sqlite:///{instance / DB}")  # the database `make serve` opens there
    return instance


def test_slow_clients_do_not_hold_up_other_requests(built):
    """Three (then a dozen) connections trickle a request body a byte at a time; with one sync
    worker per slow body the GET waited 31 s. Here the site must answer it at once."""
    with make_serve(built, workers=1) as (base, _):
        port = int(base.rsplit(":", 1)[1])
        slow = []
        for _ in range(12):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /api/v1/battle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 5000\r\n\r\n{")
            slow.append(s)
        try:
            for _ in range(3):
                for s in slow:
                    s.sendall(b" ")
                started = time.monotonic()
                with urllib.request.urlopen(base + "/rules/terrain/forest", timeout=20) as response:
                    assert response.status == 200
                assert time.monotonic() - started < 5  # generous: it takes milliseconds
                time.sleep(0.5)
        finally:
            for s in slow:
                s.close()


def test_read_only_instance_boots_and_serves_the_reference(built, tmp_path):
    with read_only_view(built, tmp_path / "ro") as ro, make_serve(ro, workers=1) as (base, _):
        assert call(base, "/api/v1/rules/terrain/forest")[0] == 200
        assert call(base, "/api/v1/search?q=woods")[0] == 200
        status, answer = call(base, "/api/v1/situations", situation(1))
        assert status == 503 and answer["error"]["code"] == "storage_unavailable"


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, built: Path) -> str | None:
    if request.param == "sqlite":
        for path in (built / DB, built / f"{DB}-wal", built / f"{DB}-shm"):
            path.unlink(missing_ok=True)  # fresh saves; the reference is rebuilt at start
        return None
    url = postgres_url()
    SQLModel.metadata.drop_all(engine_for(url))
    return url


def test_500_concurrent_saves_against_multi_worker_gunicorn_all_read_back(built, database):
    with make_serve(built, workers=3, database_url=database) as (base, _):
        def save(n: int) -> tuple[int, str]:
            status, body = call(base, "/api/v1/situations", situation(n))
            assert status == 201, body
            return n, body["id"]

        with ThreadPoolExecutor(max_workers=16) as pool:
            saved = list(pool.map(save, range(SAVES)))
        assert len({i for _, i in saved}) == SAVES
        for n, saved_id in saved:
            status, body = call(base, f"/api/v1/situations/{saved_id}")
            assert status == 200, body
            assert body["situation"]["units"] == situation(n)["units"]


def test_a_worker_killed_mid_save_loses_nothing_a_client_was_told_was_saved(built):
    """Saves stream in while a worker is SIGKILLed (and again, after gunicorn replaced it). Every
    save answered 201 must read back; a save whose client lost the connection is retried, and the
    retry must not store it twice. The SQLite file must pass its integrity check."""
    for path in (built / DB, built / f"{DB}-wal", built / f"{DB}-shm"):
        path.unlink(missing_ok=True)
    with make_serve(built, workers=2) as (base, master):
        told: dict[int, str] = {}
        lost: list[int] = []

        def save(n: int) -> None:
            try:
                status, body = call(base, "/api/v1/situations", situation(n), timeout=30)
            except (OSError, http.client.HTTPException):  # connection reset, answer cut off
                lost.append(n)
                return
            if status == 201:
                told[n] = body["id"]
            else:
                lost.append(n)

        with ThreadPoolExecutor(max_workers=12) as pool:
            futures = [pool.submit(save, n) for n in range(300)]
            for kill in range(2):
                time.sleep(0.4 + kill)
                workers = children(master)
                assert workers, "gunicorn has no workers"
                os.kill(workers[0], signal.SIGKILL)
            for future in futures:
                future.result()
        assert told, "no save succeeded"
        for n, saved_id in told.items():
            status, body = call(base, f"/api/v1/situations/{saved_id}")
            assert status == 200, body
            assert body["situation"]["units"] == situation(n)["units"]
        for n in lost:  # the client retries what it was not told
            status, body = call(base, "/api/v1/situations", situation(n))
            assert status == 201
            again = call(base, "/api/v1/situations", situation(n))[1]
            assert again["id"] == body["id"]
    with sqlite3.connect(built / DB) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        count = raw.execute("SELECT count(*) FROM saved_situation").fetchone()[0]
    assert count == 300  # every situation once: none lost, none duplicated by a retry
