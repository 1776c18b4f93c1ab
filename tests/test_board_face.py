"""The board's printed face (core rule ``board_faces``, issue #14 A): an optional situation field,
validated against the faces the content lists, kept by ``.m44`` import and saved situations, and
read by no ruling (the Winter Wars rulebook calls a Winter/Desert board a cosmetic touch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.engine.compiled import rulebook_from_json, rulebook_to_json
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.rulebook import DISPLAY_ONLY, CoreRules
from adjudicator.engine.situation import board_faces, parse_situation
from adjudicator.m44 import import_m44, loads
from tests.test_builder import page_data
from tests.test_dead_fields import is_read

SAMPLES = Path(__file__).parent / "m44"
SITUATION = {
    "board": "standard",
    "hexes": [{"row": 5, "col": 11, "terrain": "hedgerow"}, {"row": 4, "col": 12, "terrain": "forest"}],
    "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
        {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
    ],
}
FACE_FILES = {"winter_face_standard": "winter", "desert_face_standard": "desert", "beach_face_overlord": "beach"}


def import_sample(name: str, rulebook) -> dict:
    return import_m44(loads((SAMPLES / f"{name}.m44").read_bytes()), rulebook).situation


# -- the content ------------------------------------------------------------------------------

def test_board_entry_lists_the_four_editor_faces_and_a_default_among_them(rulebook):
    rules = rulebook.rules["board_faces"]
    assert isinstance(rules, CoreRules)
    faces = board_faces(rulebook)
    assert {f.editor_face for f in faces.values()} == {"COUNTRY", "BEACH", "WINTER", "DESERT"}
    assert rules.default_board_face in faces
    assert faces[rules.default_board_face].editor_face == "COUNTRY"  # the summer countryside


def test_default_face_is_declared_display_only_and_no_ruling_reads_it():
    """No dead field: the default face is drawn by the builder only, and says why."""
    assert "CoreRules.default_board_face" in DISPLAY_ONLY
    assert not is_read("default_board_face")
    assert is_read("board_faces") and is_read("editor_face")  # the parser and the import read these


def test_board_page_shows_the_faces_with_their_editor_names(client):
    html = client.get("/rules/core/board_faces").get_data(as_text=True)
    for text in ("Countryside (COUNTRY)", "Winter (WINTER)", "Desert (DESERT)", "Beach (BEACH)"):
        assert text in html
    assert "Winter Wars rulebook" in html


# -- the situation document -------------------------------------------------------------------

def test_face_is_optional(rulebook):
    assert parse_situation(SITUATION, rulebook).face is None
    assert parse_situation({**SITUATION, "face": None}, rulebook).face is None


@pytest.mark.parametrize("given", ["winter", "Winter", "WINTER", " winter "])
def test_face_accepts_its_id_name_or_editor_spelling(rulebook, given):
    assert parse_situation({**SITUATION, "face": given}, rulebook).face == "winter"


@pytest.mark.parametrize("bad", ["snowy", "", 3, True, ["winter"], {"id": "winter"}, "w" * 500])
def test_unknown_face_is_a_400_naming_face(client, bad):
    response = client.post("/api/v1/battle", json={**SITUATION, "face": bad, "attacker": "A", "target": "B"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["field"] == "face" and error["code"] == "invalid_situation"
    assert "winter" in error["message"] and len(error["message"]) < 300


def test_unknown_face_names_the_field_in_the_engine_too(rulebook):
    with pytest.raises(IllegalSituation) as caught:
        parse_situation({**SITUATION, "face": "moon"}, rulebook)
    assert caught.value.field == "face"


def test_a_face_needs_the_content_to_list_faces(rulebook):
    """Faces come from the content only: without the ``board_faces`` entry no face is accepted."""
    rules = {k: v for k, v in rulebook.rules.items() if k != "board_faces"}
    without = type(rulebook)(rulebook.names, rulebook.kinds, rules, rulebook.aliases, rulebook.bases)
    with pytest.raises(IllegalSituation, match="lists no board faces"):
        parse_situation({**SITUATION, "face": "winter"}, without)


@pytest.mark.parametrize("endpoint,extra", [
    ("battle", {"attacker": "A", "target": "B"}),
    ("line-of-sight", {"from": {"row": 6, "col": 10}, "to": {"row": 4, "col": 12}}),
    ("retreat", {"unit": "B", "flags": 1}),
    ("move", {"unit": "A"}),
    ("fire-map", {"unit": "A"}),
    ("resolve", {"attacker": "A", "target": "B", "rolled": {"armor": 1, "flag": 1}}),
])
def test_the_board_face_changes_no_ruling(client, rulebook, endpoint, extra):
    """The face is a look (core ``board_faces``): every face gives the very same answer."""
    answers = {}
    for face in [None, *board_faces(rulebook)]:
        doc = {**SITUATION, **extra, **({"face": face} if face else {})}
        response = client.post(f"/api/v1/{endpoint}", json=doc)
        assert response.status_code == 200, response.get_json()
        answers[face] = response.get_json()
    first = answers[None]
    assert all(answer == first for answer in answers.values())


def test_offline_rulebook_keeps_the_faces(rulebook):
    """The builder's offline engine parses the same faces from the compiled rulebook."""
    again = rulebook_from_json(rulebook_to_json(rulebook))
    assert board_faces(again) == board_faces(rulebook)
    assert parse_situation({**SITUATION, "face": "DESERT"}, again).face == "desert"


def test_openapi_lists_the_faces(client, rulebook):
    schema = client.get("/api/v1/openapi.json").get_json()
    enums = [p["face"]["enum"] for p in _properties_with(schema, "face") if "bottom_side" in p]
    assert enums and all(set(e) - {None} == set(board_faces(rulebook)) for e in enums)


def _properties_with(node, name):
    """Every ``properties`` object of an OpenAPI document that has ``name``."""
    found = []
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict) and name in props:
            found.append(props)
        for value in node.values():
            found.extend(_properties_with(value, name))
    elif isinstance(node, list):
        for value in node:
            found.extend(_properties_with(value, name))
    return found


# -- .m44 import ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,face", FACE_FILES.items())
def test_m44_import_sets_face_from_board_face(rulebook, name, face):
    doc = import_sample(name, rulebook)
    assert doc["face"] == face
    assert parse_situation(doc, rulebook).face == face


def test_m44_import_of_the_winter_face_over_the_api(client):
    response = client.post("/api/v1/import/m44", data=(SAMPLES / "winter_face_standard.m44").read_bytes(),
                           content_type="application/json")
    assert response.status_code == 200
    body = response.get_json()
    assert body["situation"]["face"] == "winter" and body["unknown"] == []


def test_m44_beach_face_adds_no_rows_the_sources_do_not_give_on_an_overlord_board(rulebook):
    """board_faces: the BGA implementation gives the beach face's rows for standard and Breakthrough
    boards only; an Overlord file keeps the hexes it lists, and the import says the rows were left out."""
    data = json.loads((SAMPLES / "beach_face_overlord.m44").read_text())
    result = import_m44(data, rulebook)
    hexes = {(h["row"], h["col"]): h.get("terrain") for h in result.situation["hexes"]}
    assert hexes.get((5, 1)) is None and hexes.get((8, 50)) is None and hexes[(2, 20)] == "hill"
    assert any("beach face" in note and "overlord" in note for note in result.notes)
    assert result.situation["face"] == "beach"


def test_m44_country_face_and_no_face(rulebook):
    assert import_sample("crossroads_standard", rulebook)["face"] == "country"
    data = json.loads((SAMPLES / "crossroads_standard.m44").read_text())
    del data["board"]["face"]
    assert "face" not in import_m44(data, rulebook).situation


def test_m44_unknown_face_is_listed_not_guessed(rulebook):
    data = json.loads((SAMPLES / "winter_face_standard.m44").read_text())
    data["board"]["face"] = "MOON"
    result = import_m44(data, rulebook)
    assert "face" not in result.situation
    assert [(u.what, u.name) for u in result.unknown] == [("board face", "MOON")]


# -- saved situations -------------------------------------------------------------------------

def save(client, doc) -> dict:
    response = client.post("/api/v1/situations", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_saved_situation_keeps_its_face_as_its_id(client):
    saved = save(client, {**SITUATION, "face": "WINTER", "title": "Snow"})
    situation = client.get(f"/api/v1/situations/{saved['id']}").get_json()["situation"]
    assert situation["face"] == "winter"
    assert save(client, {**SITUATION, "face": "winter", "title": "Snow"})["id"] == saved["id"]


def test_saving_an_unknown_face_is_a_400_naming_face(client):
    response = client.post("/api/v1/situations", json={**SITUATION, "face": "summer-ish"})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == "face"


def test_a_saved_page_carries_the_face_to_the_builder(client):
    saved = save(client, {**SITUATION, "face": "desert"})
    html = client.get(f"/s/{saved['id']}").get_data(as_text=True)
    assert '"face": "desert"' in html or '"face":"desert"' in html


# -- the builder's data -----------------------------------------------------------------------

def test_builder_data_offers_the_content_faces_with_the_default(client, rulebook):
    html = client.get("/builder").get_data(as_text=True)
    data = page_data(html, client)
    assert [f["id"] for f in data["faces"]["list"]] == list(board_faces(rulebook))
    assert data["faces"]["default"] == rulebook.rules["board_faces"].default_board_face
    assert data["faces"]["entry"] == "board_faces"
    frozen = next(e for e in data["examples"] if e["file"] == "retreat_frozen_river")
    assert frozen["state"]["face"] == "winter"
