"""`make serve` itself — nginx in front of gunicorn sync workers — under the hostile patterns it
exists for (slow request bodies from many addresses, slow readers of the largest file, a flood
of requests over the limits) and the faults it must survive (concurrent saves, a worker killed
mid-save, a read-only instance). Each load is small and bounded; the tests assert behaviour
(answers keep coming, limits hold, nothing acknowledged is lost), never timings.

One stack (``stack``: SQLite, the real limits, with 127.0.0.1 exempt from them so the tests' own
traffic is never refused) serves most tests of this file; an attacker speaks from another
loopback address (the whole of 127.0.0.0/8 is this machine), so its limits are its own. Only a
read-only instance and PostgreSQL need a stack of their own."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import brotli
import pytest
from sqlmodel import SQLModel

from adjudicator.db import engine_for
from adjudicator.serving import settings as limits
from adjudicator.serving.settings import from_env
from bench.load import stop_stack
from tests.conftest import REPO, seed_instance
from tests.test_hardening_storage import build_instance, read_only_view
from tests.test_saved_durability import situation
from tests.test_storage import postgres_url

DB = "adjudicator.db"  # the default database file in an instance folder
PROBE = "/rules/terrain/forest"
APP_PROBE = "/search?q=forest"  # answered by a worker: the stack is up once it is


PORTS = range(20_000, 32_000)
"""Where ``make serve`` listens in these tests: below Linux's ephemeral range (32768-60999), which
the kernel hands to outgoing connections. A port picked there by binding to 0 was once taken by a
client's connection (or another clone's test) before nginx bound it."""


def free_port() -> int:
    while True:
        port = random.choice(PORTS)
        with socket.socket() as s, suppress(OSError):
            s.bind(("127.0.0.1", port))
            return port


@dataclass(frozen=True)
class Served:
    base: str
    port: int
    master: int  # the gunicorn master's pid
    access_log: Path  # gunicorn's: the requests that reached the app, with the client's address
    over_cap_socket: Path  # where nginx keeps its over-cap line


@contextmanager
def make_serve(instance: Path, workers: int = 2, database_url: str | None = None,
               config: dict[str, str] | None = None) -> Iterator[Served]:
    """Run `make serve` (the production command) on ``instance``. ``config``: environment settings
    (README "Configuration" and "Serving") on top of limits off."""
    with suppress(OSError):  # built already (``build_instance``): make goes straight to the stack
        (instance / ".built").touch()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MAKEFLAGS", "MAKELEVEL")}
    env.update({"ADJUDICATOR_INSTANCE": str(instance), "RATELIMIT_ENABLED": "0", **(config or {})})
    if database_url:
        env["DATABASE_URL"] = database_url
    for attempt in range(3):  # a port taken between the pick and nginx's bind: another port
        port = free_port()
        log_path = instance.parent / f"serve-{port}.log"
        access_log = instance.parent / f"access-{port}.log"
        env["GUNICORN_CMD_ARGS"] = (f"--access-logfile {access_log} "
                                    "--access-logformat '%({x-forwarded-for}i)s %(m)s %(U)s %(s)s'")
        log = open(log_path, "wb")  # noqa: SIM115  (closed below)
        process = subprocess.Popen(["make", "-s", "serve", "HOST=127.0.0.1", f"PORT={port}", f"WORKERS={workers}"],
                                   cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            if not _answering(base, process, log_path):
                assert attempt < 2, "make serve found its port taken three times"
                continue  # nginx could not bind the port: the finally stops what started
            over_cap = from_env({**env, "ADJUDICATOR_INSTANCE": str(instance)}).over_cap_socket
            yield Served(base, port, gunicorn_master(process.pid), access_log, over_cap)
            return
        except BaseException:
            log.flush()
            print(log_path.read_text(errors="replace")[-4000:])  # shown on failure
            raise
        finally:
            stop_stack(process)
            log.close()


def _answering(base: str, process: subprocess.Popen[bytes], log_path: Path) -> bool:
    """Wait until the stack answers (nginx sends PROBE; a search is the app's). False when it
    stopped because its port was taken; any other stop or a stack silent for 180 s fails."""
    deadline = time.monotonic() + 180
    while True:
        with suppress(OSError, http.client.HTTPException):
            if get(base, PROBE, timeout=5)[0] == 200 and get(base, APP_PROBE, timeout=30)[0] == 200:
                return True
        if process.poll() is not None:
            said = log_path.read_text(errors="replace")
            if "Address already in use" in said:
                return False
            raise AssertionError(said[-3000:])
        assert time.monotonic() < deadline, "make serve did not answer within 180 s"
        time.sleep(0.3)


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def gunicorn_master(make_pid: int) -> int:
    """make runs ``python -m adjudicator.serving``, which runs gunicorn (and nginx)."""
    todo = [make_pid]
    while todo:
        pid = todo.pop()
        with suppress(OSError):
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        todo += children(pid)
    raise AssertionError("no gunicorn process under make serve")


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status)[1])  # type: ignore[index]


def request(base: str, method: str, path: str, body: bytes | None = None, source: str = "127.0.0.1",
            headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, dict[str, str], bytes]:
    """One request from the loopback address ``source``: (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=timeout,
                                            source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def call(base: str, path: str, body: dict | None = None, source: str = "127.0.0.1",
         timeout: float = 60) -> tuple[int, dict]:
    status, _, data = request(base, "GET" if body is None else "POST", path,
                              None if body is None else json.dumps(body).encode(), source,
                              {"Content-Type": "application/json"}, timeout)
    return status, json.loads(data)


def get(base: str, path: str, source: str = "127.0.0.1", timeout: float = 60) -> tuple[int, bytes]:
    status, _, data = request(base, "GET", path, source=source, timeout=timeout)
    return status, data


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 20) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def reached_app(served: Served, source: str) -> int:
    """Requests from ``source`` that gunicorn's workers answered."""
    if not served.access_log.exists():
        return 0
    return sum(1 for line in served.access_log.read_text().splitlines() if line.split(" ", 1)[0] == source)


def probes_answered(base: str, times: int = 5) -> list[int]:
    """A player's requests while an attack runs: the rule page, a search, a ruling."""
    ruling = {**situation(0), "attacker": "A0", "target": "B"}
    out = []
    for _ in range(times):
        out += [get(base, PROBE, timeout=20)[0], get(base, "/search?q=forest", timeout=20)[0],
                call(base, "/api/v1/battle", ruling, timeout=20)[0]]
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    instance = tmp_path_factory.mktemp("serve") / "instance"
    build_instance(instance, f"sqlite:///{instance / DB}")  # the database `make serve` opens there
    (instance / ".built").touch()  # `make serve` then starts the stack without `flask build` (built above)
    return instance


SERVED_SAVES = 200
"""Concurrent saves through the stack (tests/test_saved_durability.py saves through the app itself)."""
QUOTA_CLIENT = "127.0.0.9"
STORAGE_MB = 2
SAVED_EARLIER: list[tuple[str, dict]] = []  # (id, units) of saves the storage test checks are still there


@pytest.fixture(scope="module")
def stack(built: Path) -> Iterator[Served]:
    """The shared stack: two workers, every limit as shipped but saves per day (4) and the storage
    (2 MB), to test them; 127.0.0.1 exempt."""
    with make_serve(built, workers=2, config={"RATELIMIT_ENABLED": "1", "RATE_LIMIT_EXEMPT": "127.0.0.1",
                                              "RATE_LIMIT_SAVES_PER_DAY": "4",
                                              "SAVED_STORAGE_LIMIT_MB": str(STORAGE_MB)}) as served:
        yield served


# -- faults ----------------------------------------------------------------------------------------

def test_read_only_instance_boots_and_serves_the_reference(built, tmp_path):
    with read_only_view(built, tmp_path / "ro") as ro, make_serve(ro, workers=1) as served:
        assert call(served.base, "/api/v1/rules/terrain/forest")[0] == 200
        assert call(served.base, "/api/v1/search?q=woods")[0] == 200
        status, answer = call(served.base, "/api/v1/situations", situation(1))
        assert status == 503 and answer["error"]["code"] == "storage_unavailable"


def saved_rows(instance: Path, ids: set[str]) -> int:
    """Rows of the SQLite file whose first unit id is one of ``ids``."""
    with sqlite3.connect(instance / DB) as raw:
        rows = raw.execute("SELECT data FROM saved_situation").fetchall()
    return sum(1 for (data,) in rows if json.loads(data)["units"][0]["id"] in ids)


def concurrent_saves(base: str, numbers: range) -> list[tuple[int, str]]:
    """Saves sent 16 at a time; each acknowledged one read back. (number, id) of each."""
    def save(n: int) -> tuple[int, str]:
        status, body = call(base, "/api/v1/situations", situation(n))
        assert status == 201, body
        return n, body["id"]

    with ThreadPoolExecutor(max_workers=16) as pool:
        saved = list(pool.map(save, numbers))
    assert len({i for _, i in saved}) == len(numbers)
    for n, saved_id in saved:
        status, body = call(base, f"/api/v1/situations/{saved_id}")
        assert status == 200, body
        assert body["situation"]["units"] == situation(n)["units"]
    return saved


def test_concurrent_saves_against_two_workers_all_read_back(stack):
    saved = concurrent_saves(stack.base, range(SERVED_SAVES))
    SAVED_EARLIER.extend((saved_id, situation(n)["units"]) for n, saved_id in saved[::25])


def terminate_other_connections(url: str) -> int:
    """What a database restart does to the app: every connection of the app but this one is cut.
    Only client connections of the app's own role: an autovacuum worker on the same database is the
    server's own (a superuser process this role may not end; it ran under load and failed the test)."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        return len(conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                                "AND backend_type = 'client backend' AND usename = current_user").fetchall())


PG_FIRST_SAVES = 48
"""Saves sent 16 at a time and read back before the connections are cut: three batches, both sync
workers busy throughout, each with its connection open for the cuts to end. It was 100; many
concurrent saves on PostgreSQL, on the app's threads and its pool, are
tests/test_saved_durability.py's."""


@pytest.mark.postgres
def test_saves_on_postgresql_survive_its_connections_dropping_mid_request(tmp_path):
    """Concurrent saves read back (``PG_FIRST_SAVES``); then saves stream in while every connection
    of the app to PostgreSQL is cut again and again. Each answer is 201 or 503 (never a 500), every 201 reads
    back, and a 503 — which may have been stored — retried gets an id, the same on a second retry:
    each situation is stored once."""
    url = postgres_url()
    SQLModel.metadata.drop_all(engine_for(url))
    with make_serve(seed_instance(tmp_path / "instance"), workers=2, database_url=url) as served:
        concurrent_saves(served.base, range(PG_FIRST_SAVES))
        numbers = range(3000, 3100)
        told: dict[int, str] = {}
        retry: list[int] = []

        def save(n: int) -> None:
            status, body = call(served.base, "/api/v1/situations", situation(n), timeout=30)
            assert status in (201, 503), (status, body)
            if status == 201:
                told[n] = body["id"]
            else:
                assert body["error"]["code"] in ("storage_unavailable", "unavailable")
                assert "may or may not" in body["error"]["message"]
                retry.append(n)

        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(save, n) for n in numbers]
            cut = 0
            while not all(f.done() for f in futures):
                cut += terminate_other_connections(url)
                time.sleep(0.3)
            for future in futures:
                future.result()
        assert cut and told
        for n, saved_id in told.items():
            assert call(served.base, f"/api/v1/situations/{saved_id}")[1]["situation"]["units"] == situation(n)["units"]
        for n in retry:
            status, body = call(served.base, "/api/v1/situations", situation(n))
            assert status == 201, body
            assert call(served.base, "/api/v1/situations", situation(n))[1]["id"] == body["id"]
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        data = [row[0] for row in conn.execute("SELECT data FROM saved_situation").fetchall()]
    firsts = [json.loads(d)["units"][0]["id"] for d in data]
    assert sorted(firsts) == sorted(f"A{n}" for n in [*range(PG_FIRST_SAVES), *numbers])  # each once


def test_a_worker_killed_mid_save_loses_nothing_a_client_was_told_was_saved(stack, built):
    """Saves stream in while a worker is SIGKILLed (and again, after gunicorn replaced it). Every
    save answered 201 must read back; a save whose client lost the connection (or was told 503)
    is retried, and the retry must not store it twice. The SQLite file passes its integrity check."""
    numbers = range(1000, 1150)
    told: dict[int, str] = {}
    lost: list[int] = []

    def save(n: int) -> None:
        try:
            status, body = call(stack.base, "/api/v1/situations", situation(n), timeout=30)
        except (OSError, http.client.HTTPException, ValueError):  # connection reset, answer cut off
            lost.append(n)
            return
        if status == 201:
            told[n] = body["id"]
        else:
            assert status == 503, body  # the proxy's answer for a worker that died: never a 500
            lost.append(n)

    with ThreadPoolExecutor(max_workers=12) as pool:
        futures = [pool.submit(save, n) for n in numbers]
        for kill in range(2):
            time.sleep(0.4 + kill)
            workers = children(stack.master)
            assert workers, "gunicorn has no workers"
            os.kill(workers[0], signal.SIGKILL)
        for future in futures:
            future.result()
    assert told, "no save succeeded"
    for n, saved_id in told.items():
        status, body = call(stack.base, f"/api/v1/situations/{saved_id}")
        assert status == 200, body
        assert body["situation"]["units"] == situation(n)["units"]
    for n in lost:  # the client retries what it was not told
        status, body = call(stack.base, "/api/v1/situations", situation(n))
        assert status == 201
        assert call(stack.base, "/api/v1/situations", situation(n))[1]["id"] == body["id"]
    with sqlite3.connect(built / DB) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert saved_rows(built, {f"A{n}" for n in numbers}) == len(numbers)  # each once: none lost, none twice
    settled(stack, workers=2)  # the shared stack is left as found: both workers back and answering


def settled(served: Served, workers: int) -> None:
    """Wait (at most 120 s) until gunicorn has ``workers`` workers again and rulings are answered:
    a worker replaced after a kill warms up before it takes requests, which on a loaded machine
    takes many seconds, and the tests after this one are about other things than availability."""
    ruling = {**situation(0), "attacker": "A0", "target": "B"}
    deadline = time.monotonic() + 120
    while True:
        with suppress(OSError, http.client.HTTPException):
            answered = [call(served.base, "/api/v1/battle", ruling, timeout=30)[0] for _ in range(2 * workers)]
            if len(children(served.master)) == workers and answered == [200] * (2 * workers):
                return
        assert time.monotonic() < deadline, "the stack did not settle within 120 s of its workers being killed"
        time.sleep(0.5)


# -- limits ----------------------------------------------------------------------------------------

def saves_from(base: str, source: str, numbers: range) -> list[tuple[int, str | None]]:
    """Saves sent at once on separate connections from ``source``: (status, Retry-After) each."""
    def save(n: int) -> tuple[int, str | None]:
        status, headers, _ = request(base, "POST", "/api/v1/situations", json.dumps(situation(n)).encode(), source,
                                     {"Content-Type": "application/json"})
        return status, headers.get("retry-after")

    with ThreadPoolExecutor(max_workers=len(numbers)) as pool:
        return list(pool.map(save, numbers))


def test_served_saves_per_day_are_one_count_across_workers_and_their_restarts(stack):
    """Counts in each worker's memory would let each of the two workers take 4 saves, and a worker
    gunicorn starts afresh take 4 more; the count in the database allows 4 in all."""
    first = saves_from(stack.base, QUOTA_CLIENT, range(2000, 2010))
    assert sorted(status for status, _ in first) == [201] * 4 + [429] * 6
    assert all(int(retry) > 0 for status, retry in first if status == 429)
    old = set(children(stack.master))
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: len(set(children(stack.master)) - old) == 2
             and get(stack.base, "/api/v1/board/standard")[0] == 200, "gunicorn to replace its workers", 60)
    assert [status for status, _ in saves_from(stack.base, QUOTA_CLIENT, range(2010, 2014))] == [429] * 4
    ruling = {**situation(0), "attacker": "A0", "target": "B"}
    assert call(stack.base, "/api/v1/battle", ruling, source=QUOTA_CLIENT)[0] == 200  # rulings count apart


def test_a_flood_over_the_rate_is_refused_by_the_proxy_and_never_reaches_the_app(stack):
    """120 rulings at once from one address: the proxy lets the burst and the rate through and
    answers the rest 429 (the API's JSON, with Retry-After); the app sees exactly the requests
    that were let through, and other players are answered throughout."""
    flooder = "127.0.0.6"

    def ruled(n: int) -> tuple[int, dict[str, str], bytes]:
        # a question of its own each time (the proxy answers a question asked again itself)
        ruling = json.dumps({**situation(1000 + n), "attacker": f"A{1000 + n}", "target": "B"}).encode()
        return request(stack.base, "POST", "/api/v1/battle", ruling, flooder, {"Content-Type": "application/json"})

    with ThreadPoolExecutor(max_workers=16) as pool:
        flood = pool.map(ruled, range(120))
        probes = probes_answered(stack.base, times=2)
        answers = list(flood)
    assert set(probes) == {200}
    statuses = [status for status, _, _ in answers]
    assert set(statuses) == {200, 429}
    assert statuses.count(200) >= limits.ENGINE.burst  # the burst, at least, is answered
    refused = next((headers, body) for status, headers, body in answers if status == 429)
    assert int(refused[0]["retry-after"]) >= 1 and json.loads(refused[1])["error"]["code"] == "rate_limited"
    assert refused[0]["content-security-policy"].startswith("default-src 'self'")
    time.sleep(0.5)  # gunicorn writes its access log after the answer
    assert reached_app(stack, flooder) == statuses.count(200)


def test_a_ruling_asked_again_is_answered_by_the_proxy_without_a_worker(stack, built):
    """The engine's answers are pure functions of the body and the build, so nginx keeps each
    ``200`` and gives the same bytes to the same question again, in each encoding the app sent,
    without a worker; a question that differs in anything the app reads (a figure, the media
    type) is the app's to answer, a refusal is never kept, and a body too long for the key is
    answered by a worker each time without an error in nginx's log."""
    asker = "127.0.0.12"
    ruling = json.dumps({**situation(7), "attacker": "A7", "target": "B"}).encode()

    def ask(body: bytes, kind: str = "application/json", encoding: str = "br") -> tuple[int, dict[str, str], bytes]:
        return request(stack.base, "POST", "/api/v1/battle", body, asker,
                       {"Content-Type": kind, "Accept-Encoding": encoding})

    first, again = ask(ruling), ask(ruling)
    assert first[0] == again[0] == 200 and first[2] == again[2]
    assert (first[1]["x-answer-cache"], again[1]["x-answer-cache"]) == ("MISS", "HIT")
    plain, plain_again = ask(ruling, encoding=""), ask(ruling, encoding="")
    assert "content-encoding" not in plain[1] and plain[2] == plain_again[2]
    assert json.loads(plain[2]) == json.loads(brotli.decompress(first[2]))
    assert plain_again[1]["x-answer-cache"] == "HIT" and ask(ruling)[1]["x-answer-cache"] == "HIT"
    other = json.dumps({**situation(8), "attacker": "A8", "target": "B"}).encode()
    assert ask(other)[1]["x-answer-cache"] == "MISS" and ask(other)[2] != first[2]
    assert ask(ruling, kind="text/plain")[0] == 415
    refused = json.dumps({"board": "standard", "units": [], "attacker": "nobody"}).encode()
    assert ask(refused)[0] == ask(refused)[0] == 400
    padded = ruling[:-1] + b" " * 2 * limits.ANSWER_BODY_LIMIT + b"}"  # the same question, too long a key
    answers = [ask(padded) for _ in range(2)]
    assert [a[0] for a in answers] == [200, 200] and answers[0][2] == first[2]
    assert [a[1]["x-answer-cache"] for a in answers] == ["BYPASS", "BYPASS"]
    assert "cache key" not in (built / "run" / "nginx-error.log").read_text()
    time.sleep(0.5)  # gunicorn writes its access log after the answer
    # the app saw: the ruling in two encodings, the other ruling, the wrong type, the refusal
    # twice, the padded ruling twice
    assert reached_app(stack, asker) == 8


def test_the_workers_run_on_the_cpu_nginx_leaves(stack):
    """Every gunicorn worker runs under ``WORKER_POLICY`` (``SCHED_IDLE``) and nginx and the
    gunicorn master at the normal policy, so a woken nginx takes the core from a ruling at once:
    rulings that keep the cores busy do not slow the pages and kept answers nginx serves itself."""
    workers = children(stack.master)
    launcher = int(Path(f"/proc/{stack.master}/stat").read_text().rsplit(")", 1)[1].split()[1])
    proxies = [p for p in children(launcher) if b"nginx" in Path(f"/proc/{p}/cmdline").read_bytes()]
    assert len(workers) == 2 and proxies
    assert {os.sched_getscheduler(p) for p in workers} == {limits.WORKER_POLICY} != {os.SCHED_OTHER}
    assert {os.sched_getscheduler(p) for p in [*proxies, stack.master]} == {os.SCHED_OTHER}


def test_saves_over_the_proxy_rate_are_refused_before_the_app(stack):
    """The save rate (20 a minute, a burst of 20) holds at the proxy: invalid saves are used, so
    no count of the app's is involved."""
    source = "127.0.0.7"
    started = time.monotonic()
    statuses = [request(stack.base, "POST", "/api/v1/situations", b"{}", source,
                        {"Content-Type": "application/json"})[0] for _ in range(limits.SAVES.burst + 6)]
    refilled = int((time.monotonic() - started) * limits.SAVES.amount / 60)  # what the rate let in meanwhile
    assert limits.SAVES.burst + 1 <= statuses.count(400) <= limits.SAVES.burst + 1 + refilled
    assert statuses.count(429) == len(statuses) - statuses.count(400) > 0


def slow_body(base: str, source: str) -> socket.socket:
    """A POST that declares a body and sends its first byte only."""
    s = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), source_address=(source, 0))
    s.sendall(b"POST /api/v1/battle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 5000\r\n\r\n{")
    return s


def test_slow_bodies_from_many_addresses_hold_no_worker(stack):
    """200 connections from 20 addresses trickle request bodies (with gunicorn's gevent workers
    alone, thousands of these made every probe time out). nginx holds them; the two sync workers
    never see them, and every probe is answered."""
    trickling = [slow_body(stack.base, f"127.0.1.{a}") for a in range(1, 21) for _ in range(10)]
    try:
        for _ in range(2):
            for s in trickling:
                s.sendall(b" ")
            assert set(probes_answered(stack.base, times=2)) == {200}
        assert all(reached_app(stack, f"127.0.1.{a}") == 0 for a in range(1, 21))
    finally:
        for s in trickling:
            s.close()


OVER_CAP_ASKS = {PROBE: "text/html", "/static/css/builder.css": "text/html", "/": "text/html",
                 "/api/v1/battle": "application/json", "/api/v1/situations": "application/json"}
"""A request over the cap to each kind of location nginx has, and the kind of 429 it gets."""


def test_connections_per_address_are_capped(stack):
    """One address holding more than its connections: one over the cap is answered 429 (at once,
    the over-cap line being empty), in the shape of what it asked for, wherever nginx would have
    answered it; a request whose body finally arrives is answered by the app as usual."""
    source = "127.0.0.8"
    held = [slow_body(stack.base, source) for _ in range(limits.CONNECTIONS_PER_ADDRESS)]
    try:
        time.sleep(0.3)
        for path, kind in OVER_CAP_ASKS.items():
            status, headers, body = request(stack.base, "GET", path, source=source, timeout=20)
            assert (status, headers["content-type"].split(";")[0]) == (429, kind), path
            assert int(headers["retry-after"]) >= 1 and headers["content-security-policy"]
            assert b"Too many requests" in body
        assert get(stack.base, PROBE, source="127.0.0.10")[0] == 200  # another address is not affected
        first = held.pop()
        first.sendall(b" " * 4998 + b"}")  # the body completes: the app rules on it (a 400: no units)
        first.settimeout(20)
        assert first.recv(64).startswith(b"HTTP/1.1 400")
        first.close()
    finally:
        for s in held:
            s.close()


def in_line(served: Served) -> int:
    """Connections nginx holds in its over-cap line (the server ends on the line's socket)."""
    listing = subprocess.run(["ss", "-xH", "state", "established"], capture_output=True, text=True, check=True).stdout
    return sum(1 for line in listing.splitlines() if str(served.over_cap_socket) in line.split())


def test_requests_over_a_limit_wait_in_one_line_and_are_answered_in_turn(tmp_path):
    """The line (``OVER_CAP_LINE``), here one answer a minute and four places, and a page rate of
    one a minute (burst 1). A connection over its address's cap finds the line empty and is
    answered 429 at once; the next two over the cap, and two requests of another address over its
    rate, wait their turn, answered nothing (and the app asked nothing); the next ones over the cap
    find the line full and are answered 429 at once, one over its rate as well. Waiting costs no
    worker: a third address is served meanwhile; nginx leaves a waiting body unread; a client that
    stops waiting takes its connections in nginx with it."""
    config = {"RATELIMIT_ENABLED": "1", "RATE_LIMIT_EXEMPT": "127.0.0.1", "OVER_CAP_LINE": "1 per minute; burst 4",
              "RATE_LIMIT_PAGES": "1 per minute; burst 1"}
    source, flooder = "127.0.7.1", "127.0.7.3"
    instance = tmp_path / "instance"
    build_instance(instance, f"sqlite:///{instance / DB}")
    with make_serve(instance, workers=1, config=config) as served:
        held = [slow_body(served.base, source) for _ in range(limits.CONNECTIONS_PER_ADDRESS)]
        over: list[socket.socket] = []
        try:
            time.sleep(0.3)
            assert request(served.base, "GET", PROBE, source=source, timeout=20)[0] == 429
            for _ in range(2):
                over.append(slow_body(served.base, source))
                wait_for(lambda: in_line(served) == len(over), "a connection over its cap to take its place in line")
            assert [get(served.base, APP_PROBE, source=flooder)[0] for _ in range(2)] == [200, 200]  # its rate
            for _ in range(2):
                over.append(asking(served.base, flooder, APP_PROBE))
                wait_for(lambda: in_line(served) == len(over), "a request over its rate to take its place in line")
            for _ in range(3):  # the third over its rate too: at its cap, it still asks the (full) line
                status, headers, _ = request(served.base, "GET", "/api/v1/rules", source=source, timeout=20)
                assert status == 429 and headers["content-type"] == "application/json"
            assert get(served.base, APP_PROBE, source="127.0.7.2")[0] == 200  # the one worker is free
            for s in over[:2]:
                s.sendall(b" " * 100)  # more of its body: nginx leaves it in the kernel while it waits
            for s in over:
                s.setblocking(False)
                with pytest.raises(BlockingIOError):
                    s.recv(1)  # no answer yet: its turn comes in a minute
            wait_for(lambda: sorted(unread(served.port, source))[-2:] == [100] * 2, "the bodies left unread")
            assert reached_app(served, source) == 0 and reached_app(served, flooder) == 2
        finally:
            for s in held + over:
                s.close()
        wait_for(lambda: in_line(served) == 0, "the line to let go of clients that left")


def asking(base: str, source: str, path: str) -> socket.socket:
    """A connection that has sent a whole GET of ``path`` and reads nothing yet."""
    s = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), source_address=(source, 0))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


def unread(port: int, client: str) -> list[int]:
    """Bytes the kernel holds unread by nginx on each of ``client``'s connections to ``port``."""
    return [int(line.split()[0]) for line in server_sockets(port, client, "state", "established").splitlines()]


def server_sockets(port: int, client: str, *options: str) -> str:
    """``ss``'s lines for the server's ends of ``client``'s TCP connections to ``port``."""
    return subprocess.run(["ss", "-tnH", *options, "sport", f"= :{port}", "dst", client],
                          capture_output=True, text=True, check=True).stdout


def test_a_connection_reaches_nginx_once_its_request_starts(stack):
    """nginx listens with ``deferred`` (the kernel's ``TCP_DEFER_ACCEPT``): a connection that has
    sent nothing stays in the kernel, half-open on the server's side (``SYN-RECV``), and nginx is
    handed it with its first bytes, which it reads in the same turn: a quarter to a third less of
    what refusing a connection over its address's cap costs nginx (docs/measurements.md)."""
    port, client = int(stack.base.rsplit(":", 1)[1]), "127.0.6.1"
    silent = socket.create_connection(("127.0.0.1", port), source_address=(client, 0), timeout=20)
    try:
        time.sleep(0.2)  # well within the kernel's first second
        assert [line.split()[0] for line in server_sockets(port, client, "-a").splitlines()] == ["SYN-RECV"]
        silent.sendall(f"GET {PROBE} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        assert silent.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        silent.close()


def test_slow_readers_of_the_largest_file_cost_the_app_nothing(stack):
    """32 connections ask for the largest static file (Pyodide's 8.6 MB wasm) and read nothing.
    nginx sends it from the file (sendfile) at the readers' pace; the workers, which used to read
    each such file into memory, never see the requests and do not grow, probes are answered, and
    each connection holds at most its fixed kernel send buffer (left to grow, 3 MB each)."""
    source = "127.0.0.5"
    wasm = next((REPO / "build" / "static" / "offline").glob("pyodide-*/pyodide.asm.wasm"))
    path = "/static/" + wasm.relative_to(REPO / "build" / "static").as_posix()
    workers = children(stack.master)
    before = {pid: rss_kb(pid) for pid in workers}
    readers = []
    for _ in range(limits.CONNECTIONS_PER_ADDRESS):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        s.bind((source, 0))
        s.connect(("127.0.0.1", stack.port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        readers.append(s)
    try:
        time.sleep(0.5)
        assert set(probes_answered(stack.base, times=2)) == {200}
        assert reached_app(stack, source) == 0
        grown = {pid: rss_kb(pid) - kb for pid, kb in before.items() if pid in children(stack.master)}
        assert all(kb < 20_000 for kb in grown.values()), grown
        head = readers[0].recv(4096)
        assert head.startswith(b"HTTP/1.1 200") and b"application/wasm" in head
        held = send_buffers(stack.port, source)
        assert len(held) == limits.CONNECTIONS_PER_ADDRESS
        assert max(held) <= 2 * limits.SEND_BUFFER_KB * 1024  # the kernel doubles what nginx asks for
    finally:
        for s in readers:
            s.close()


def send_buffers(port: int, client: str) -> list[int]:
    """The kernel send buffer (``skmem`` ``tb``) of each of nginx's connections to ``client``: what
    a client that stops reading can hold of the machine's memory."""
    out = server_sockets(port, client, "-m", "state", "established")
    return [int(size) for size in re.findall(r"\btb(\d+)", out)]


def over_app_socket(served_instance: Path, body: bytes, marker: str) -> socket.socket:
    """A ruling request written straight to gunicorn's socket, as nginx writes it (whole), with
    ``marker`` where the access log shows the client."""
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(str(limits.from_env({"ADJUDICATOR_INSTANCE": str(served_instance)}).socket))
    sock.sendall(f"POST /api/v1/fire-map HTTP/1.0\r\nHost: x\r\nX-Forwarded-For: {marker}\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    return sock


def access_statuses(served: Served, marker: str) -> list[str]:
    if not served.access_log.exists():
        return []
    return [line.rsplit(" ", 1)[1] for line in served.access_log.read_text().splitlines()
            if line.split(" ", 1)[0] == marker]


def test_requests_nginx_gave_up_on_while_workers_were_busy_are_dropped_not_computed(stack, built):
    """Both workers busy (a large fire map each); meanwhile eight rulings wait on gunicorn's
    socket and their connections are closed, as nginx closes them when its clients leave. The
    workers then drop them unanswered (499 in the access log) instead of ruling for nobody, and
    the busy ones' answers arrive as usual."""
    from bench.hostile import worst_fire_map

    busy_body = json.dumps(worst_fire_map("mountain")).encode()
    ruling = json.dumps({"board": "standard", "units": situation(0)["units"]}).encode()
    busy = [over_app_socket(built, busy_body, "busy") for _ in range(2)]
    try:
        for _ in range(8):
            over_app_socket(built, ruling, "gone").close()
        for sock in busy:
            sock.settimeout(60)
            assert sock.makefile("rb").readline().split()[1] in (b"200", b"422")  # ruled, or over the budget
    finally:
        for sock in busy:
            sock.close()
    wait_for(lambda: len(access_statuses(stack, "gone")) >= 8, "the app to log the 8 requests", 30)
    assert access_statuses(stack, "gone") == ["499"] * 8


# -- HTTP details through the proxy ----------------------------------------------------------------

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
    client refused early sees it."""
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=60) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode() + b'{"pad": "')
        response = http.client.HTTPResponse(sock)
        response.begin()
        with response:
            return response.status, json.loads(response.read())


def test_served_http_answers_bound_bodies_and_never_cache_the_wrong_thing(stack):
    """Against the whole stack (not only the test client): chunked and oversized bodies are the
    API's 413 (the app's limit, or the proxy's for a body past every endpoint's), only the right
    ``?v=`` is immutable, a 404 is never cached, redirects carry no ``Host``, and a gzip client
    gets a stable ETag and its 304."""
    base = stack.base
    pad = b"x" * (256 * 1024 + 1000)
    for path in ("/api/v1/battle", "/api/v1/import/m44"):
        status, answer = chunked(base, path, b'{"units": [], "pad": "' + pad * (1 if "battle" in path else 5) + b'"}')
        assert status == 413 and answer["error"]["field"] == "(body)", (path, answer)
    status, answer = declared_too_large(base, "/api/v1/import/m44", 2_000_000)
    assert status == 413 and answer["error"]["field"] == "(body)", answer

    def head(path: str, **headers: str) -> tuple[int, dict[str, str]]:
        status, answer_headers, _ = request(base, "GET", path, headers=headers)
        return status, answer_headers

    page = get(base, PROBE)[1].decode()
    css = next(part.split('"')[0] for part in page.split('href="')[1:] if part.startswith("/static/css/site.css?v="))
    assert head(css)[1]["cache-control"] == "public, max-age=31536000, immutable"
    assert "immutable" not in head(css.split("?")[0] + "?v=deadbeef00")[1]["cache-control"]
    status, missing = head("/static/css/nope.css?v=0")
    assert status == 404 and "max-age=3" not in missing.get("cache-control", "")
    status, redirect = head("/rules", Host="evil.example")
    assert status in (301, 308) and redirect["location"] == "/rules/"
    status, first = head(PROBE, **{"Accept-Encoding": "gzip"})
    assert first["content-encoding"] == "gzip"
    time.sleep(1.1)  # gzip stamps the second it compressed; the tag must not follow it
    assert head(PROBE, **{"Accept-Encoding": "gzip", "If-None-Match": first["etag"]})[0] == 304


def test_the_worst_fire_map_looped_is_bounded_and_others_are_answered(stack):
    """Six connections of one address loop the costliest legal fire map (200 units on an Overlord
    board of mountains; 2 s of CPU each, once): each is answered (200 within the work budget), or
    refused over its address's rate (429), and never holds the site: probes are answered."""
    from bench.hostile import worst_fire_map

    source = "127.0.0.11"
    body = json.dumps(worst_fire_map("mountain")).encode()

    def loop(_: int) -> list[int]:
        return [request(stack.base, "POST", "/api/v1/fire-map", body, source,
                        {"Content-Type": "application/json"}, timeout=60)[0] for _ in range(4)]

    with ThreadPoolExecutor(max_workers=6) as pool:
        looping = pool.map(loop, range(6))
        probes = probes_answered(stack.base, times=2)
        statuses = [status for answers in looping for status in answers]
    assert set(probes) == {200}
    assert set(statuses) <= {200, 422, 429} and 200 in statuses


def test_fire_maps_past_their_own_rate_are_refused_before_the_app_and_other_rulings_are_not(stack):
    """The costliest ruling has a rate of its own (``settings.FIRE_MAPS``): 30 fire maps at once
    from one address get the burst, and what the rate adds while they are sent, answered, and the
    rest a 429 that never reaches the app; the same address's other rulings are still answered,
    under the rulings' rate."""
    source = "127.0.0.13"
    rate = limits.FIRE_MAPS

    def fire_map(n: int) -> tuple[int, dict[str, str], bytes]:
        body = json.dumps(situation(2000 + n)).encode()  # a question of its own: none answered by the proxy
        return request(stack.base, "POST", "/api/v1/fire-map", body, source, {"Content-Type": "application/json"})

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(fire_map, range(30)))
    elapsed = time.monotonic() - started
    statuses = [status for status, _, _ in answers]
    assert set(statuses) == {200, 429}
    # a leaky bucket: the burst and one at once, then one more each 1/amount of a second
    assert rate.burst <= statuses.count(200) <= rate.burst + 2 + rate.amount * elapsed
    headers, body = next((headers, body) for status, headers, body in answers if status == 429)
    assert json.loads(body)["error"]["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
    battle = json.dumps({**situation(2100), "attacker": "A2100", "target": "B"}).encode()
    assert request(stack.base, "POST", "/api/v1/battle", battle, source, {"Content-Type": "application/json"})[0] == 200
    time.sleep(0.5)  # gunicorn writes its access log after the answer
    assert reached_app(stack, source) == statuses.count(200) + 1


def test_a_storage_flood_from_many_addresses_fills_the_store_and_evicts_nothing(stack, built):
    """Forty addresses each save their four situations of the day, 16 KB each, at once: more than
    the store's cap (2 MB here). Saves are stored until it is full, then refused with 507; the
    total never passes the cap, every save acknowledged reads back, and so do the situations saved
    before (nothing is evicted to make room)."""
    from bench.hostile import worst_fire_map

    big = {k: v for k, v in worst_fire_map("forest", units=100).items() if k in ("board", "hexes", "units")}

    def save(job: tuple[int, int]) -> tuple[int, dict]:
        address, n = job
        status, _, data = request(stack.base, "POST", "/api/v1/situations",
                                  json.dumps({**big, "title": f"flood {address}.{n}"}).encode(), f"127.0.3.{address}",
                                  {"Content-Type": "application/json"})
        return status, json.loads(data)

    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(save, [(a, n) for a in range(1, 41) for n in range(4)]))
    statuses = [status for status, _ in answers]
    assert set(statuses) == {201, 507}, statuses
    assert all(body["error"]["code"] == "storage_full" for status, body in answers if status == 507)
    for status, body in answers:
        if status == 201:
            assert call(stack.base, body["api_url"])[1]["situation"]["title"] == body["situation"]["title"]
    for saved_id, units in SAVED_EARLIER:
        assert call(stack.base, f"/api/v1/situations/{saved_id}")[1]["situation"]["units"] == units
    with sqlite3.connect(built / DB) as raw:
        total = raw.execute("SELECT sum(size) FROM saved_situation").fetchone()[0]
    assert total <= STORAGE_MB * 1024 * 1024
