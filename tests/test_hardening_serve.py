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
def make_serve(instance: Path, workers: int = 2, database_url: str | None = None,
               config: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """Run `make serve` (the production command) on ``instance``; yields (base URL, pid of the
    gunicorn master). ``config``: environment settings (README "Configuration") on top."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MAKEFLAGS", "MAKELEVEL")}
    env.update({"ADJUDICATOR_INSTANCE": str(instance), "RATELIMIT_ENABLED": "0", **(config or {})})
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
                with urllib.request.urlopen(base + "/rules/terrain/forest", timeout=5) as response:
                    response.read()
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
        with exc:  # closes the connection it holds (an unclosed socket is a ResourceWarning, an error here)
            return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    instance = tmp_path_factory.mktemp("serve") / "instance"
    build_instance(instance, f"sqlite:///{instance / DB}")  # the database `make serve` opens there
    return instance


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
    with make_serve(built, workers=2, database_url=database) as (base, _):
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


@pytest.fixture(scope="module")
def limited(built: Path) -> Iterator[tuple[str, int]]:
    """`make serve` with two workers and the rate limits on (4 saves an hour per client); fresh
    saves and counts."""
    for path in (built / DB, built / f"{DB}-wal", built / f"{DB}-shm"):
        path.unlink(missing_ok=True)
    with make_serve(built, workers=2, config={"RATELIMIT_ENABLED": "1", "RATE_LIMIT_SAVES": "4 per hour"}) as served:
        yield served


def saves_answered(base: str, numbers: range) -> list[tuple[int, str | None]]:
    """Saves sent at once on separate connections: (status, Retry-After) of each."""
    def save(n: int) -> tuple[int, str | None]:
        request = urllib.request.Request(base + "/api/v1/situations", data=json.dumps(situation(n)).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.headers["Retry-After"]
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, exc.headers["Retry-After"]

    with ThreadPoolExecutor(max_workers=len(numbers)) as pool:
        return list(pool.map(save, numbers))


def test_slow_clients_do_not_hold_up_other_requests(limited):
    """Three (then a dozen) connections trickle a request body a byte at a time; with one sync
    worker per slow body the GET waited 31 s. Here, a dozen slow bodies on the two workers, the
    site must answer it at once."""
    base, _ = limited
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


def test_served_save_limit_is_one_count_across_workers_and_their_restarts(limited):
    """Issue #15 item 3: counts in each worker's memory would let each of the two workers take
    4 saves, and a worker gunicorn starts afresh take 4 more; the shared store allows 4 in all."""
    base, master = limited
    first = saves_answered(base, range(10))
    assert sorted(status for status, _ in first) == [201] * 4 + [429] * 6
    assert all(int(retry) > 0 for status, retry in first if status == 429)
    old = set(children(master))
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while not (len(set(children(master)) - old) == 2 and call(base, "/api/v1/rules/terrain/forest")[0] == 200):
        assert time.monotonic() < deadline, "gunicorn did not replace its workers"
        time.sleep(0.3)
    assert [status for status, _ in saves_answered(base, range(10, 14))] == [429] * 4
    ruling = {**situation(0), "attacker": "A0", "target": "B"}
    assert call(base, "/api/v1/battle", ruling)[0] == 200  # rulings have their own count


def chunked(base: str, path: str, body: bytes) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=60)
    try:
        with suppress(BrokenPipeError, ConnectionResetError):  # refused past the limit: the answer is sent
            connection.request("POST", path, body=(body[i:i + 16384] for i in range(0, len(body), 16384)),
                               headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def declared_too_large(base: str, path: str, length: int) -> tuple[int, dict]:
    """POST that declares a ``length``-byte body and waits for the answer before sending it, as a
    client refused early sees it. Sending the whole body would race the server: it answers the 413
    from the declared length, closes, and the rest of the upload meets a broken pipe."""
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=60) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode() + b'{"pad": "')
        response = http.client.HTTPResponse(sock)
        response.begin()
        with response:
            return response.status, json.loads(response.read())


def test_served_http_answers_bound_bodies_and_never_cache_the_wrong_thing(limited):
    """Issue #15 item 7 against gunicorn itself (not only the test client): chunked and oversized
    bodies are the API's 413, only the right ``?v=`` is immutable, a 404 is never cached,
    redirects carry no ``Host``, and a gzip client gets a stable ETag and its 304."""
    base, _ = limited
    pad = b"x" * (256 * 1024 + 1000)
    for path in ("/api/v1/battle", "/api/v1/import/m44"):
        status, answer = chunked(base, path, b'{"units": [], "pad": "' + pad * (1 if "battle" in path else 5) + b'"}')
        assert status == 413 and answer["error"]["field"] == "(body)", (path, answer)
    status, answer = declared_too_large(base, "/api/v1/import/m44", 1_100_000)
    assert status == 413 and answer["error"]["field"] == "(body)", answer

    def head(path: str, **headers: str) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=60)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        return response

    page = urllib.request.urlopen(base + "/rules/terrain/forest", timeout=30).read().decode()
    css = next(part.split('"')[0] for part in page.split('href="')[1:] if part.startswith("/static/css/site.css?v="))
    assert head(css).getheader("Cache-Control") == "public, max-age=31536000, immutable"
    assert "immutable" not in head(css.split("?")[0] + "?v=deadbeef00").getheader("Cache-Control")
    missing = head("/static/css/nope.css?v=0")
    assert missing.status == 404 and "max-age=3" not in (missing.getheader("Cache-Control") or "")
    redirect = head("/rules", Host="evil.example")
    assert redirect.status in (301, 308) and redirect.getheader("Location") == "/rules/"
    first = head("/rules/terrain/forest", **{"Accept-Encoding": "gzip"})
    assert first.getheader("Content-Encoding") == "gzip"
    time.sleep(1.1)  # gzip stamps the second it compressed; the tag must not follow it
    again = head("/rules/terrain/forest", **{"Accept-Encoding": "gzip", "If-None-Match": first.getheader("ETag")})
    assert again.status == 304
