"""What the offline rulings are built from, checked without a browser: the compiled rulebook is the
server's rulebook, ``engine.api`` is the very function behind the API views, the bundle holds the
engine and changes with it, Pyodide is sent compressed, and the service worker precaches each
static file once and never the ~12 MB of offline files."""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.bundle import BUNDLE, STATIC, bundle, sources
from adjudicator.engine import api
from adjudicator.engine.compiled import rulebook_from_json, rulebook_to_json
from adjudicator.engine.rulebook import Rulebook
from adjudicator.offline_engine import PYODIDE_FILES, bundle_name, offline_assets, pack_engine
from adjudicator.web.offline import static_files
from tests.test_offline_rulings_browser import gallery_requests

ENGINE = Path(__file__).resolve().parent.parent / "adjudicator" / "engine"


def test_the_compiled_rulebook_reads_back_as_the_servers_rulebook(rulebook: Rulebook) -> None:
    again = rulebook_from_json(rulebook_to_json(rulebook))
    assert again == rulebook
    assert list(again.rules) == list(rulebook.rules)  # lookups that take the first match agree
    assert type(again.rules["forest"]) is type(rulebook.rules["forest"])


def test_the_compiled_rulebook_carries_a_changed_number(rulebook: Rulebook) -> None:
    forest = rulebook.hex_rules("forest")
    changed = replace(rulebook, rules={**rulebook.rules, "forest": replace(forest, blocks_los=not forest.blocks_los)})
    assert rulebook_from_json(rulebook_to_json(changed)).hex_rules("forest").blocks_los != forest.blocks_los
    assert rulebook_to_json(changed) != rulebook_to_json(rulebook)


GALLERY = gallery_requests()


@pytest.mark.parametrize(("name", "body"), GALLERY, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GALLERY)])
def test_engine_api_answers_each_gallery_example_as_the_api_view(name, body, client: FlaskClient, rulebook: Rulebook):
    response = client.post(f"/api/v1/{name}", json=body)
    status, answer = api.answer(name, json.loads(json.dumps(body)), rulebook)
    assert (status, answer) == (response.status_code, response.get_json())


@pytest.mark.parametrize(("name", "body", "field", "code"), [
    ("battle", {"units": []}, "attacker", "bad_request"),
    ("battle", {"units": [{"id": "A", "side": "allies", "type": "infantry", "row": 0, "col": 0, "figures": 4}],
                "attacker": "A", "target": "Z"}, "target", "unknown_unit"),
    ("line-of-sight", {"units": [], "from": {"row": 4, "col": 12}}, "to", "bad_request"),
    ("retreat", {"units": [{"id": "T", "side": "axis", "type": "infantry", "row": 0, "col": 0, "figures": 4}],
                 "unit": "T", "flags": 99}, "flags", "bad_request"),
    ("retreat", {"units": [{"id": "T", "side": "axis", "type": "infantry", "row": 0, "col": 0, "figures": 4}],
                 "unit": "T", "flags": 1, "card": "no such card"}, "card", "unknown_card"),
    ("resupply", {"units": [{"id": "T", "side": "axis", "type": "tank", "row": 0, "col": 1, "figures": 4}],
                  "supplier": "T"}, "units[0]", "invalid_situation"),
])
def test_a_bad_field_gets_the_same_error_from_both_sides(name, body, field, code, client: FlaskClient,
                                                        rulebook: Rulebook) -> None:
    response = client.post(f"/api/v1/{name}", json=body)
    status, answer = api.answer(name, body, rulebook)
    assert response.status_code == status == 400
    assert response.get_json() == answer
    assert answer["error"]["field"] == field and answer["error"]["code"] == code


def test_an_endpoint_without_a_local_engine_is_not_found(rulebook: Rulebook) -> None:
    status, answer = api.answer("fire-control", {}, rulebook)
    assert status == 404 and answer["error"]["code"] == "not_found"


def test_the_bundle_holds_the_engine_and_the_rulebook_and_its_name_follows_them(rulebook: Rulebook) -> None:
    data = pack_engine(rulebook)
    assert pack_engine(rulebook) == data  # same sources, same bytes, same URL
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {f"adjudicator/engine/{p.name}" for p in ENGINE.glob("*.py")} <= set(names)
    assert "rulebook.json" in names and "adjudicator/__init__.py" in names
    changed = replace(rulebook, names={**rulebook.names, "forest": "Woods"})
    assert bundle_name(pack_engine(changed)) != bundle_name(data)


def test_the_bundle_runs_the_engine_without_the_web_layer(tmp_path: Path, rulebook: Rulebook) -> None:
    """What the browser does with the bundle, in a clean interpreter: no Flask, no content."""
    import subprocess
    import sys

    zipfile.ZipFile(io.BytesIO(pack_engine(rulebook))).extractall(tmp_path)
    body = gallery_requests()[0]
    script = (
        "import json, sys; sys.path.insert(0, '.'); sys.modules['flask'] = None; sys.modules['yaml'] = None\n"
        "from adjudicator.engine.api import answer\nfrom adjudicator.engine.compiled import rulebook_from_json\n"
        "rb = rulebook_from_json(open('rulebook.json').read())\n"
        f"print(json.dumps(answer({body[0]!r}, json.loads({json.dumps(body[1])!r}), rb)))"
    )
    out = subprocess.run([sys.executable, "-I", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == list(api.answer(body[0], body[1], rulebook))


def test_offline_engine_describes_what_the_opt_in_downloads(app: Flask, client: FlaskClient) -> None:
    info = client.get("/api/v1/offline-engine").get_json()
    if offline_assets(app.static_folder or "", app.extensions["rulebook"]) is None:
        pytest.fail("Pyodide is not under the static files: run `make build`")
    assert info["available"] and info["endpoints"] == sorted(api.ENDPOINTS)
    assert [f.rsplit("/", 1)[1] for f in info["files"]] == list(PYODIDE_FILES)
    assert all(f.startswith(info["index_url"]) for f in info["files"])
    sent = 0
    for url in [*info["files"], info["bundle"]]:
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200, url
        sent += len(response.data)
    assert sent == info["bytes"]
    assert sent < 7_000_000


def test_pyodide_is_sent_gzipped_to_clients_that_accept_it(client: FlaskClient) -> None:
    wasm = next(f for f in client.get("/api/v1/offline-engine").get_json()["files"] if f.endswith(".wasm"))
    packed = client.get(wasm, headers={"Accept-Encoding": "gzip, br"})
    plain = client.get(wasm)
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["Content-Type"] == "application/wasm"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) // 2


def test_only_the_engine_worker_may_compile_webassembly(client: FlaskClient) -> None:
    worker = client.get("/static/js/engine-worker.js").headers["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in worker
    for page in ("/", "/builder", "/static/js/builder.js"):
        assert "wasm-unsafe-eval" not in client.get(page).headers["Content-Security-Policy"]


def _precache(client: FlaskClient) -> list[str]:
    script = client.get("/sw.js").get_data(as_text=True)
    return json.loads(script.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])


def test_the_precache_holds_each_static_file_once_and_no_offline_engine_file(client: FlaskClient) -> None:
    urls = _precache(client)
    static = [u.split("?", 1)[0] for u in urls if u.startswith("/static/")]
    assert len(static) == len(set(static)), "a static file is downloaded twice"
    assert all("?v=" in u for u in urls if u.startswith("/static/"))
    assert "/static/js/engine-worker.js" in static and f"/static/{BUNDLE}" in static
    assert not [u for u in urls if u.startswith("/static/offline/")]
    assert "/api/v1/offline-engine" in urls


def test_the_modules_left_out_of_the_offline_copy_are_exactly_those_in_the_bundle(
        tmp_path: Path, client: FlaskClient) -> None:
    """The service worker keeps the bundle, not the modules it is made of (the pages load none of
    them alone): the list ``sources`` finds by following the imports is the one esbuild reports,
    and the precache holds the bundle and every other static file."""
    meta = tmp_path / "meta.json"
    bundle(tmp_path / "bundle.js", meta)
    inputs = {Path(name).resolve().relative_to(STATIC).as_posix() for name in json.loads(meta.read_text())["inputs"]}
    assert sources() == inputs and len(inputs) > 20
    kept = {url.split("?", 1)[0] for url in _precache(client) if url.startswith("/static/")}
    assert kept == {f"/static/{name}" for name in set(static_files(str(STATIC))) - inputs}
    assert {f"/static/{BUNDLE}", "/static/js/engine-worker.js", "/static/js/search.js"} <= kept


def test_the_service_worker_caches_no_query_urls_and_bounds_what_it_remembers(client: FlaskClient) -> None:
    script = client.get("/sw.js").get_data(as_text=True)
    assert re.search(r"const VISITED_MAX = \d+;", script)
    # the only runtime cache.put is the bounded one for saved situations without a query string
    assert script.count("cache.put(") == 1 and "!url.search" in script


def test_the_service_worker_version_follows_the_engine(app: Flask, tmp_path: Path) -> None:
    from adjudicator.web import offline

    before = offline.site_version.__wrapped__("c", app.static_folder or "")
    original = offline.ENGINE_DIR
    copy = tmp_path / "engine"
    copy.mkdir()
    for source in original.glob("*.py"):
        (copy / source.name).write_bytes(source.read_bytes())
    (copy / "battle.py").write_text((copy / "battle.py").read_text() + "\n# changed\n")
    offline.ENGINE_DIR = copy
    try:
        after = offline.site_version.__wrapped__("c", app.static_folder or "")
    finally:
        offline.ENGINE_DIR = original
    assert before != after


def test_the_offline_engine_refuses_what_the_server_refuses_as_too_complex(tmp_path: Path, rulebook: Rulebook):
    """The worker runs ``api.answer`` under the server's work budget (``/api/v1/offline-engine``
    says which), so a pathological situation gets the same 422 on the phone, not minutes of work."""
    from bench.hostile import frozen_breakthrough
    from tests.conftest import make_app, seed_instance

    app = make_app(seed_instance(tmp_path / "instance"), ENGINE_WORK_BUDGET=1_000)
    client = app.test_client()
    body = {**frozen_breakthrough(), "unit": "T", "flags": 12}
    server = client.post("/api/v1/retreat", json=body)
    assert client.get("/api/v1/offline-engine").get_json()["work_budget"] == 1_000
    assert (server.status_code, server.get_json()) == api.answer("retreat", body, rulebook, work_budget=1_000)
    assert server.status_code == 422
    assert api.answer("retreat", body, rulebook)[0] == 200  # no budget given: the engine runs on
