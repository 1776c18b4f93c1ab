"""The served stack's parts that need no server: the static tree and its twins, the proxy's
configuration (checked by nginx itself), the settings, the cache of compressed bodies, the
workers' frozen start-up heap and their dropping of requests nginx gave up on. The stack under
load is tests/test_hardening_serve.py."""

from __future__ import annotations

import gc
import gzip
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import brotli
import pytest

from adjudicator.serving import nginx, static
from adjudicator.serving import settings as limits
from adjudicator.serving.abandoned import CLIENT_CLOSED, drop_abandoned
from adjudicator.serving.settings import ENGINE, FIRE_MAPS, OVER_CAP_LINE, PAGES, SAVES, Rate, from_env
from adjudicator.web.compression import CompressedBodies
from adjudicator.web.security import asset_version
from tests.conftest import REPO


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_static_files_get_compressed_twins_once_and_hashes_as_the_app_computes_them(tmp_path):
    script = b"export const rule = 'forest';\n" * 100
    source = tree(tmp_path / "src", {"js/a.js": script, "icons/tiny.svg": b"<svg/>", "offline/x.zip": b"PK" * 600,
                                     "offline/p/big.wasm": b"\0asm" * 300, "offline/p/big.wasm.gz": b"given twin"})
    target = tmp_path / "out"
    first = static.sync(source, target)
    assert first.files == 4 and first.copied == 4  # the given .gz is a twin, not a file to serve
    assert gzip.decompress((target / "js/a.js.gz").read_bytes()) == script
    assert brotli.decompress((target / "js/a.js.br").read_bytes()) == script
    assert (target / "offline/p/big.wasm.gz").read_bytes() == b"given twin"  # the build's own twin is kept
    assert not (target / "icons/tiny.svg.gz").exists() and not (target / "offline/x.zip.gz").exists()
    manifest = static.manifest(target)
    assert manifest == {name: asset_version(str(source), name) for name in manifest}
    again = static.sync(source, target)
    assert (again.copied, again.twins, again.removed) == (0, 0, 0)
    (source / "js/a.js").unlink()
    assert static.sync(source, target).removed == 3 and not (target / "js").exists()


def rendered(tmp_path: Path, **env: str) -> str:
    settings = from_env(env, instance=tmp_path / "instance", port=5999)
    return nginx.render(settings, {"css/site.css": "0123456789"}, None, tmp_path / "pages",
                        {"/rules/": "public, max-age=300", "/api/v1/search-data": "public, max-age=300"})


def test_nginx_accepts_the_generated_configuration(tmp_path):
    """``python -m adjudicator.serving --check`` writes the configuration and runs ``nginx -t`` on it."""
    result = subprocess.run([sys.executable, "-m", "adjudicator.serving", "--check", "--port", "5999"], cwd=REPO,
                            env={"ADJUDICATOR_INSTANCE": str(tmp_path / "instance"), "PATH": "/usr/sbin:/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr and "test is successful" in result.stderr
    conf = (tmp_path / "instance" / "run" / "nginx.conf").read_text()
    assert "proxy_request_buffering on" in (tmp_path / "instance" / "run" / "proxy.conf").read_text()
    for setting in ("client_header_timeout 10s", "client_body_timeout 10s", "send_timeout 10s", "sendfile on",
                    "gzip_static on", "limit_conn per_address 32", f"rate={ENGINE.nginx()}", f"rate={SAVES.nginx()}",
                    f"rate={PAGES.nginx()}"):
        assert setting in conf, setting
    # gunicorn's socket: in the instance's run/ folder, or under /tmp where that path is too long
    # for a socket address (as under `make test`'s temporary root)
    settings = from_env({}, instance=tmp_path / "instance", port=5999)
    for socket_path in (settings.socket, settings.over_cap_socket):
        assert socket_path.name.endswith(".sock") and f"unix:{socket_path}" in conf, socket_path
    line = settings.over_cap
    assert f"rate={line.nginx()}" in conf and f"limit_req zone=over_cap burst={line.burst};" in conf
    assert f"proxy_read_timeout {line.longest_wait() + 5}s;" in conf
    assert f"listen unix:{settings.over_cap_socket} backlog={line.burst};" in conf  # a full line at once


def test_proxy_answers_have_the_apis_error_shape(tmp_path):
    conf = rendered(tmp_path)
    bodies = dict(re.findall(r"location @(\w+) \{(?:[^{}]|\{ \})*?return \d+ '(.*?)';", conf, re.S))
    for name in ("too_many_api", "too_large", "unavailable_api"):
        error = json.loads(bodies[name].replace("\\'", "'"))["error"]
        assert set(error) == {"code", "message", "field"} and error["message"]
    assert json.loads(bodies["too_large"].replace("\\'", "'"))["error"]["field"] == "(body)"
    assert "may or may not have been done" in bodies["unavailable_api"]  # never "nothing was saved"


def test_static_urls_are_immutable_only_under_their_content_hash(tmp_path):
    conf = rendered(tmp_path)
    assert "'/static/css/site.css?0123456789' 1;" in conf
    assert '"~^(200|206|304):1$" "public, max-age=31536000, immutable"' in conf
    assert 'default "no-store";' in conf  # a 404 (any status but a success) is never cached


def test_engine_answers_are_kept_under_the_build_the_work_budget_and_the_whole_question(tmp_path):
    """nginx keeps only the engine's answers, each under a key naming everything the answer
    depends on (the build, the work budget, the endpoint, the media type and the body itself),
    never for a body it could not hold in memory or whose key would not fit in its proxy buffer,
    and a new start drops every answer kept."""
    from adjudicator.engine.api import ENDPOINTS

    settings = from_env({"ENGINE_WORK_BUDGET": "1234"}, instance=tmp_path / "instance", port=5999)
    conf = nginx.render(settings, {}, build="b1d")
    assert f"worker_processes {len(os.sched_getaffinity(0))};" in conf  # one per core it may use
    assert "multi_accept on;" in conf  # every waiting connection taken at once under a flood of them
    assert 'proxy_cache_key "b1d/1234|$uri|$content_type|$content_length|$answer_body";' in conf
    body = re.search(r'map \$content_length \$answer_body \{\s*"~([^"]*)" \$request_body;\s*default "";', conf)[1]
    assert "proxy_cache_valid 200 " in conf and "proxy_cache_valid any" not in conf
    assert "proxy_cache_bypass $request_body_file $answer_body_too_long;" in conf
    assert "proxy_no_cache $request_body_file $answer_body_too_long;" in conf
    short = re.search(r'map \$content_length \$answer_body_too_long \{\s*"~([^"]*)" "";\s*default 1;', conf)[1]
    assert body == short and re.match(short, str(limits.ANSWER_BODY_LIMIT - 1))
    assert not re.match(short, str(limits.ANSWER_BODY_LIMIT)) and not re.match(short, "")
    key_room = int(re.search(r"proxy_buffer_size (\d+)k;", nginx.proxy_conf(settings))[1]) * 1024
    assert key_room >= limits.ANSWER_BODY_LIMIT + 1024  # the whole key fits in nginx's proxy buffer
    pattern = re.search(r"location ~ '(\^/api/v1/[^']*)'", conf)[1]
    for name in ENDPOINTS:
        assert re.match(pattern, f"/api/v1/{name}"), name
    for other in ("/api/v1/situations", "/api/v1/search-data", "/api/v1/battle/x", "/api/v1/openapi.json"):
        assert not re.match(pattern, other), other
    kept = settings.run_dir / nginx.ANSWERS / "bc" / "an-answer-of-an-earlier-start"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"kept")
    nginx.write(settings, {}, build="b1e")
    assert not kept.exists()  # dropped at start
    # every folder nginx may keep an answer in is made at start (nginx would fail, make it and retry)
    folders = sorted(p.name for p in (settings.run_dir / nginx.ANSWERS).iterdir())
    assert folders == [f"{n:02x}" for n in range(256)] and nginx.ANSWER_LEVELS == (2,)
    assert f"proxy_cache_path {settings.run_dir / nginx.ANSWERS} levels=2 " in conf
    assert not any(list((settings.run_dir / nginx.ANSWERS / name).iterdir()) for name in folders)


def test_the_fire_map_has_a_rate_of_its_own_counted_for_it_alone(tmp_path):
    """The costliest ruling is under its own rate on top of the rulings' one, keyed by the
    address for ``/api/v1/fire-map`` only (an empty key is counted by no zone)."""
    conf = rendered(tmp_path, RATE_LIMIT_FIRE_MAP="3 per second; burst 7")
    assert "limit_req_zone $fire_map_key zone=fire_maps:10m rate=3r/s;" in conf
    fire_map_key = re.search(r"map \$uri \$fire_map_key \{(.*?)\}", conf, re.S)[1].split()
    assert fire_map_key == ["/api/v1/fire-map", "$write_key;", "default", '"";']
    rulings = re.search(r"location ~ '\^/api/v1/\(.*?\n        \}", conf, re.S)[0]
    assert "limit_req zone=engine burst=40 nodelay;" in rulings
    assert "limit_req zone=fire_maps burst=7 nodelay;" in rulings
    assert re.search(r"^\s*/api/v1/fire-map 1;$", conf, re.M)  # Retry-After
    # what an address may make the workers spend a second, looping the costliest legal request:
    # a fire map (up to 100 ms of CPU) no more than any other ruling (under 20 ms)
    assert FIRE_MAPS.amount * 100 <= ENGINE.amount * 20 and FIRE_MAPS.per == ENGINE.per == "second"


def test_limits_off_leave_no_limit_in_the_proxy(tmp_path):
    conf = rendered(tmp_path, RATELIMIT_ENABLED="0")
    assert "limit_req zone=" not in conf and "limit_conn per_address" not in conf
    assert "over_cap" not in conf and "limit_conn_status 429;" in conf


def test_rates_are_read_from_the_environment_and_a_bad_one_names_its_variable():
    settings = from_env({"RATE_LIMIT_ENGINE": "4 per second; burst 9", "RATE_LIMIT_EXEMPT": "127.0.0.1, 10.0.0.0/8"})
    assert settings.engine == Rate(4, "second", 9) and settings.engine.nginx() == "4r/s"
    assert settings.exempt == ("127.0.0.1", "10.0.0.0/8")
    assert SAVES.retry_after() == 3 and ENGINE.retry_after() == 1
    line = from_env({"OVER_CAP_LINE": "2 per minute; burst 5"}).over_cap
    assert line.nginx() == "2r/m" and line.longest_wait() == 150  # the fifth waits 5 × 30 s
    assert OVER_CAP_LINE.longest_wait() == 41  # 4,096 at 100 a second
    with pytest.raises(SystemExit, match="RATE_LIMIT_SAVES"):
        from_env({"RATE_LIMIT_SAVES": "lots"})
    with pytest.raises(SystemExit, match="REAL_IP_FROM"):
        from_env({"REAL_IP_FROM": "not an address"})


def test_a_compressed_body_is_kept_once_and_the_least_recently_used_goes_first():
    cache = CompressedBodies(limit=100)
    cache.set("br;a", b"x" * 40)
    cache.set("br;b", b"y" * 40)
    assert cache.get("br;a") == b"x" * 40  # a is now the most recently used
    cache.set("br;c", b"z" * 40)
    assert cache.get("br;b") is None and cache.get("br;a") is not None and cache.size == 80
    cache.set("br;huge", b"h" * 101)
    assert cache.get("br;huge") is None


def test_a_page_is_compressed_once_per_body_not_per_request(app):
    """The second request for a page finds its compressed bytes in the cache (keyed by the body's
    digest and the encoding): the same bytes come back, and nothing new is stored."""
    client = app.test_client()
    cache = app.config["COMPRESS_CACHE_BACKEND"]()
    first = client.get("/builder", headers={"Accept-Encoding": "br"})
    kept = dict(cache.items)
    second = client.get("/builder", headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br" and first.data == second.data
    assert dict(cache.items) == kept and any(key.startswith("br;") for key in kept)
    assert b"<!doctype html>" in brotli.decompress(second.data).lower()[:200]
    gz = client.get("/builder", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(gz.data) == brotli.decompress(second.data)  # another encoding, its own entry


def test_a_worker_answers_its_warm_up_pages_then_freezes_its_start_up_heap():
    from adjudicator.serving import gunicorn_conf

    asked: list[str] = []

    def app(environ, start_response):
        asked.append(environ["PATH_INFO"] + "?" * bool(environ["QUERY_STRING"]) + environ["QUERY_STRING"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    assert gunicorn_conf.worker_class == "sync"
    beats: list[int] = []
    worker = SimpleNamespace(wsgi=app, notify=lambda: beats.append(len(asked)))
    gunicorn_conf.post_worker_init(worker)
    try:
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert asked == list(gunicorn_conf.WARM_UP)
    assert beats == list(range(len(asked)))  # a heartbeat before each page: the master sees it alive
    assert worker.wsgi is not app  # wrapped: abandoned requests are dropped


def answered_by(app, sock) -> list[str]:
    """The status ``drop_abandoned(app)`` answers a request arriving on ``sock`` with."""
    statuses: list[str] = []
    drop_abandoned(app)({"gunicorn.socket": sock}, lambda status, headers: statuses.append(status))
    return statuses


def test_a_request_whose_connection_nginx_closed_is_dropped_before_the_app_computes_it():
    computed = []

    def app(environ, start_response):
        computed.append(1)
        start_response("200 OK", [])
        return [b"ruling"]

    ours, nginx_side = socket.socketpair()
    with ours, nginx_side:
        assert answered_by(app, ours) == ["200 OK"] and computed == [1]  # nginx waits for the answer
        nginx_side.sendall(b"rest of a large body")
        nginx_side.close()
        assert answered_by(app, ours) == ["200 OK"] and computed == [1, 1]  # unread body: never dropped
        ours.recv(100)
        assert answered_by(app, ours) == [CLIENT_CLOSED] and computed == [1, 1]  # nginx gone: not computed


def test_a_request_without_gunicorns_socket_goes_to_the_app():
    statuses: list[str] = []
    body = drop_abandoned(lambda e, start: start("200 OK", []) or [b"x"])({}, lambda s, h: statuses.append(s))
    assert statuses == ["200 OK"] and list(body) == [b"x"]
