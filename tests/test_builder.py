"""The builder page's data and its endpoints: saved situations (save, load, never overwritten,
surviving a restart), boards, and ``.m44`` import, including every 4xx."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from adjudicator.bundle import BUNDLE, STATIC, bundle
from adjudicator.engine.geometry import BOARDS
from adjudicator.web import builder_data, m44_upload, saved_document, situations
from tests.conftest import make_app, seed_instance

SAMPLES = Path(__file__).parent / "m44"
SITUATION = {
    "board": "standard",
    "hexes": [{"row": 5, "col": 11, "terrain": "forest"}],
    "units": [
        {"id": "u1", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
        {"id": "u2", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
    ],
}


def page_data(html: str, client) -> dict:
    """The data the builder's script reads: the content-hashed JSON asset the page links, plus
    the saved situation the page itself carries."""
    match = re.search(r'<link rel="preload" href="(/builder/data\.json\?v=\w+)"', html)
    assert match, "the builder page links its data as a versioned JSON asset"
    response = client.get(match.group(1))
    assert response.status_code == 200
    data = response.get_json()
    saved = re.search(r'<script type="application/json" id="builder-saved">(.*?)</script>', html, re.S)
    data["saved"] = json.loads(saved.group(1)) if saved else None
    return data


def save(client, doc) -> dict:
    response = client.post("/api/v1/situations", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# -- the page --------------------------------------------------------------------------------

def test_builder_page_has_board_palette_and_noscript(client):
    response = client.get("/builder")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<noscript>" in html and "/api/v1/openapi.json" in html
    assert re.search(r'<script type="module" src="/static/js/builder\.bundle\.js\?v=\w+"', html)
    data = page_data(html, client)
    assert set(data["boards"]) == set(BOARDS)
    assert data["saved"] is None


def test_board_data_comes_from_the_engine_geometry(client):
    data = page_data(client.get("/builder").get_data(as_text=True), client)
    standard = data["boards"]["standard"]
    assert len(standard["hexes"]) == len(list(BOARDS["standard"].hexes())) == 13 * 5 + 12 * 4
    by_pos = {(h["row"], h["col"]): h for h in standard["hexes"]}
    assert by_pos[(8, 0)]["label"] == "A1"
    assert by_pos[(7, 7)]["sections"] == ["left", "center"]  # straddles the dotted line
    assert by_pos[(4, 12)]["centre"] == [36, 12]
    assert standard["baseline_rows"] == {"bottom": 8, "top": 0}
    assert len(data["boards"]["breakthrough"]["hexes"]) == 13 * 9 + 12 * 8


def test_palette_is_generated_from_the_content(client, catalogue, rulebook):
    palette = page_data(client.get("/builder").get_data(as_text=True), client)["palette"]
    assert [t["id"] for t in palette["terrain"]] == [e.id for e in catalogue.by_kind("terrain")]
    assert [u["id"] for u in palette["units"]] == [e.id for e in catalogue.by_kind("unit")]
    hex_markers = [e.id for e in catalogue.by_kind("marker") if getattr(e.rules, "placed_on", "hex") == "hex"]
    assert [o["id"] for o in palette["obstacles"]] == [e.id for e in catalogue.by_kind("obstacle")] + hex_markers
    assert {b["id"] for b in palette["badges"]} >= {e.id for e in catalogue.by_kind("badge")}
    assert [c["id"] for c in palette["command_cards"]] == [e.id for e in catalogue.by_kind("command_card")]
    assert [c["id"] for c in palette["combat_cards"]] == [e.id for e in catalogue.by_kind("combat_card")]
    special = {r["situation_id"] for r in palette["special_rules"]}
    assert special == {getattr(r, "situation_id", None) for r in rulebook.rules.values()} - {None}
    assert palette["kinds"]["forest"] == "terrain" and palette["kinds"]["line_of_sight"] == "core"


def test_every_die_face_has_one_name_in_players_words_from_the_content(client, rulebook):
    """The builder labels the battle-die faces from core ``range_and_dice`` ``face_names``: one
    name for each face of ``die_faces``, all written alike ("Grenade" beside "Armor", not
    "grenade"), and Their Finest Hour asks for the faces whose dice order units."""
    palette = page_data(client.get("/builder").get_data(as_text=True), client)["palette"]
    dice = rulebook.core_rules("range_and_dice")
    assert set(palette["face_names"]) == set(dice.die_faces)
    assert palette["face_names"] == {"infantry": "Infantry", "armor": "Armor", "grenade": "Grenade",
                                     "star": "Star", "flag": "Flag"}
    finest = next(c for c in palette["command_cards"] if c["id"] == "their_finest_hour")
    assert finest["rolls"] == ["infantry", "armor", "star"]
    assert all(c["rolls"] == [] for c in palette["command_cards"] if c["id"] != "their_finest_hour")


def test_winter_hexes_are_labelled_by_their_terrain_not_winter(client, catalogue):
    """Winter tiles: every winter tile read "Winter" on the board; the winter look already says it."""
    palette = page_data(client.get("/builder").get_data(as_text=True), client)["palette"]
    short = {t["id"]: t["short"] for t in [*palette["terrain"], *palette["obstacles"]]}
    assert (short["winter_forest"], short["winter_village"], short["winter_hill"]) == ("Forest", "Village", "Hill")
    winter = [e.id for kind in ("terrain", "obstacle") for e in catalogue.by_kind(kind) if e.id.startswith("winter_")]
    assert winter and all(short[i] != "Winter" for i in winter)


def test_every_example_is_in_the_gallery(client):
    examples = page_data(client.get("/builder").get_data(as_text=True), client)["examples"]
    files = sorted(p.stem for p in builder_data.EXAMPLES_DIR.glob("*.yaml"))
    assert [e["file"] for e in examples] == files
    for example in examples:
        assert example["title"] and "units" in example["state"]


def test_builder_data_is_a_cached_content_hashed_asset_and_the_page_stays_small(client):
    response = client.get("/builder")
    html = response.get_data(as_text=True)
    assert len(html.encode()) < 24 * 1024  # the data no longer travels inside the page
    url = re.search(r'href="(/builder/data\.json\?v=(\w+))"', html)
    asset = client.get(url.group(1))
    assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert hashlib.sha256(asset.get_data()).hexdigest()[:12] == url.group(2)
    assert client.get("/builder/data.json?v=stale").headers["Cache-Control"] == "no-cache"


def test_examples_are_read_once_per_process(app, monkeypatch):
    client = app.test_client()
    client.get("/builder")
    reads = []
    monkeypatch.setattr(builder_data.yaml, "safe_load", lambda text: reads.append(text))
    for _ in range(3):
        assert client.get("/builder").status_code == 200
    assert reads == []


def test_the_builder_page_loads_its_modules_as_one_content_hashed_bundle(client):
    """One script of the builder's own, the bundle, by its content-hashed URL (cached immutably),
    at low priority; no module of the sources is asked for by the page itself."""
    html = client.get("/builder").get_data(as_text=True)
    scripts = re.findall(r'<script type="module" src="([^"]+)" fetchpriority="low"></script>', html)
    assert len(scripts) == 1 and re.fullmatch(r"/static/js/builder\.bundle\.js\?v=\w{10}", scripts[0])
    assert "modulepreload" not in html and "importmap" not in html
    assert not re.search(r'src="/static/js/builder[\w-]*\.js', html)
    served = client.get(scripts[0])
    assert served.headers["Cache-Control"].endswith("immutable")
    assert served.data == (STATIC / BUNDLE).read_bytes()


def test_the_bundle_is_built_from_the_modules_as_they_are_now(tmp_path):
    """The bundle the site serves is what esbuild makes of the sources today: a module edited
    without `make build` would otherwise leave players on the old code."""
    out = tmp_path / "bundle.js"
    bundle(out)
    assert out.read_bytes() == (STATIC / BUNDLE).read_bytes()


def test_board_endpoint(client):
    response = client.get("/api/v1/board/overlord")
    assert response.status_code == 200
    body = response.get_json()
    assert body["kind"] == "overlord" and body["section_bounds"] == [0, 17, 33, 50]
    missing = client.get("/api/v1/board/hexagonal")
    assert missing.status_code == 404 and missing.get_json()["error"]["field"] == "kind"


# -- saving and loading ----------------------------------------------------------------------

def test_save_returns_a_short_id_and_load_returns_the_situation(client):
    doc = {**SITUATION, "attacker": "u1", "target": "u2", "card": "armor_assault", "flags": 2, "title": "Forest"}
    saved = save(client, doc)
    assert re.fullmatch(r"[A-Za-z0-9_-]{8}", saved["id"])
    assert saved["url"] == f"/s/{saved['id']}"
    loaded = client.get(f"/api/v1/situations/{saved['id']}")
    assert loaded.status_code == 200
    assert loaded.get_json()["situation"] == doc


def test_save_keeps_an_overrun_battle_and_rejects_a_non_boolean(client):
    saved = save(client, {**SITUATION, "attacker": "u1", "target": "u2", "overrun_battle": True})
    situation = client.get(f"/api/v1/situations/{saved['id']}").get_json()["situation"]
    assert situation["overrun_battle"] is True
    response = client.post("/api/v1/situations", json={**SITUATION, "overrun_battle": "yes"})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == "overrun_battle"


def test_saved_situation_is_stored_as_sent_with_only_known_fields(client):
    saved = save(client, {**SITUATION, "attacker": "u1", "card": "Armor Assault"})
    situation = client.get(f"/api/v1/situations/{saved['id']}").get_json()["situation"]
    assert situation == {**SITUATION, "attacker": "u1", "card": "armor_assault"}


def test_saved_page_opens_the_builder_read_only(client):
    saved = save(client, {**SITUATION, "title": "Across the woods"})
    response = client.get(f"/s/{saved['id']}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-mode="readonly"' in html and "Copy to edit" in html and "Across the woods" in html
    assert page_data(html, client)["saved"]["situation"]["units"] == SITUATION["units"]


def test_saving_twice_never_overwrites(client):
    first = save(client, SITUATION)
    second = save(client, {**SITUATION, "units": SITUATION["units"][:1]})
    assert first["id"] != second["id"]
    assert len(client.get(f"/api/v1/situations/{first['id']}").get_json()["situation"]["units"]) == 2
    assert len(client.get(f"/api/v1/situations/{second['id']}").get_json()["situation"]["units"]) == 1


def test_an_id_already_taken_is_never_reused(client, monkeypatch):
    first = save(client, SITUATION)
    ids = iter([first["id"], "fresh_id"])
    monkeypatch.setattr(situations.secrets, "token_urlsafe", lambda _n: next(ids))
    second = save(client, {**SITUATION, "title": "another"})
    assert second["id"] == "fresh_id"
    assert "title" not in client.get(f"/api/v1/situations/{first['id']}").get_json()["situation"]


def test_saved_situations_survive_a_restart(app, tmp_path):
    instance = seed_instance(tmp_path / "instance")  # its search index; the saves' database is built here
    url = f"sqlite:///{tmp_path / 'saved.db'}"
    first = make_app(instance, DATABASE_URL=url)
    saved = save(first.test_client(), SITUATION)
    restarted = make_app(instance, DATABASE_URL=url)
    response = restarted.test_client().get(f"/api/v1/situations/{saved['id']}")
    assert response.status_code == 200 and response.get_json()["situation"] == SITUATION


@pytest.mark.parametrize("saved_id", ["nope1234", "short", "../../etc", "x" * 40])
def test_unknown_saved_id_is_404(client, saved_id):
    response = client.get(f"/api/v1/situations/{saved_id}")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"
    page = client.get(f"/s/{saved_id}")
    assert page.status_code == 404 and "text/html" in page.content_type


@pytest.mark.parametrize(("doc", "field"), [
    ({"units": [{**SITUATION["units"][0], "figures": 9}]}, "units[0].figures"),
    ({"units": [{**SITUATION["units"][0], "col": 11}]}, "units[0]"),
    ({"hexes": [], "units": []} | {"board": "huge"}, "board"),
    ({"hexes": []}, "units"),
    ({**SITUATION, "attacker": "ghost"}, "attacker"),
    ({**SITUATION, "card": "no_such_card"}, "card"),
    ({**SITUATION, "combat_card": 7}, "combat_card"),
    ({**SITUATION, "flags": 4}, "flags"),
    ({**SITUATION, "title": "t" * 121}, "title"),
    ({**SITUATION, "script": "<b>"}, "script"),
])
def test_invalid_situations_are_400_naming_the_field(client, doc, field):
    response = client.post("/api/v1/situations", json=doc)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["field"] == field


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/situations", data="{units: [", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"


def test_wrong_content_type_is_415(client):
    response = client.post("/api/v1/situations", data=json.dumps(SITUATION), content_type="text/plain")
    assert response.status_code == 415


def test_too_big_a_situation_is_413(client):
    board = list(BOARDS["overlord"].hexes())
    hexes = [{"row": h.row, "col": h.col, "terrain": "winter_forest", "obstacle": "sandbags"} for h in board]
    units = [{"id": f"{i:03d}".ljust(40, "x"), "side": "axis", "type": "infantry", "row": h.row, "col": h.col,
              "figures": 4} for i, h in enumerate(board[:200])]
    doc = {"board": "overlord", "hexes": hexes, "units": units}
    assert len(json.dumps(doc)) > saved_document.MAX_SAVED_BYTES
    response = client.post("/api/v1/situations", json=doc)
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"


# -- .m44 import -----------------------------------------------------------------------------

def test_import_m44_returns_situation_and_unknown_names(client):
    body = (SAMPLES / "unknown_names_overlord.m44").read_bytes()
    response = client.post("/api/v1/import/m44", data=body, content_type="application/json")
    assert response.status_code == 200
    result = response.get_json()
    assert result["situation"]["board"] == "overlord"
    assert {"row": 5, "col": 31, "what": "unit", "name": "zeppelinus"} in result["unknown"]
    assert result["title"] == "Unknown names (test)"


def test_import_m44_accepts_a_form_upload(client):
    with open(SAMPLES / "crossroads_standard.m44", "rb") as handle:
        response = client.post("/api/v1/import/m44", data={"file": (handle, "crossroads.m44")},
                               content_type="multipart/form-data", headers={"Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 200
    assert len(response.get_json()["situation"]["units"]) == 5


@pytest.mark.parametrize(("body", "field"), [
    (b"this is not json", "(file)"),
    (b"", "(body)"),
    (b'{"board": {"type": "ROUND"}}', "board.type"),
    (b'["a list"]', "(file)"),
])
def test_import_m44_rejects_unreadable_files_with_400(client, body, field):
    response = client.post("/api/v1/import/m44", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == field


def test_import_m44_caps_the_size(client):
    body = b'{"text": "' + b"x" * (m44_upload.MAX_M44_BYTES + 10) + b'"}'
    response = client.post("/api/v1/import/m44", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] in ("too_large", "request_entity_too_large")


def test_the_builder_paints_only_once_its_dock_is_parsed(client):
    """The first paint waits (``<link rel=expect blocking=render>``) for the dock's last element:
    a page painted half-read on a slow phone had its dock grow up over the board afterwards (a
    layout shift of 0.011–0.021 in one load in four at 8× CPU slowdown, none in 40 with it)."""
    html = client.get("/builder").get_data(as_text=True)
    expect = re.search(r'<link rel="expect" href="#([\w-]+)" blocking="render">', html)
    assert expect and html.index(expect[0]) < html.index("</head>")
    dock = html[html.index('id="b-dock"'):]
    dock = dock[:dock.index('<div class="b-extras">')]
    last_id = re.findall(r'id="([\w-]+)"', dock)[-1]
    assert expect[1] == last_id
