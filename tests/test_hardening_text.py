"""Text a request carries must be text: a lone UTF-16 surrogate (``"\\ud800"``, valid JSON) in any
string field of any JSON body is a 400 naming the field — it cannot be written as UTF-8 (a page,
a saved situation, PostgreSQL), which used to end in a 500. And a ``.m44`` form upload says where
it comes from (``Sec-Fetch-Site``, else ``Origin`` or ``Referer``), since any site may post a form."""

from __future__ import annotations

import json
from io import BytesIO

import pytest

UNITS = [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
         {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3}]
SURROGATE = "\\ud800"  # as the JSON text carries it


def raw_post(client, path: str, body: str, **kwargs):
    return client.post(path, data=body.encode(), content_type="application/json", **kwargs)


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/v1/situations", '{"units": [], "title": "Tank \\ud800"}', "title"),
    ("/api/v1/situations", json.dumps({"units": UNITS}).replace('"A"', '"A\\udfff"', 1), "units[0].id"),
    ("/api/v1/battle", json.dumps({"units": UNITS, "attacker": "A", "target": "B"}).replace(
        '"target": "B"', '"target": "\\ud800"'), "target"),
    ("/api/v1/line-of-sight", '{"units": [], "from": {"row": 6, "col": 10}, "to": {"row": 4, "col": 12}, '
                              '"hexes": [{"row": 5, "col": 11, "terrain": "\\udc00"}]}', "hexes[0].terrain"),
    ("/api/v1/retreat", json.dumps({"units": UNITS, "unit": "B", "flags": 1, "card": "x"}).replace(
        '"card": "x"', '"card": "\\ud801x"'), "card"),
    ("/api/v1/resupply", '{"units": [], "supplier": "\\udbff"}', "supplier"),
    ("/api/v1/resolve", '{"units": [], "rules": ["\\ud800"]}', "rules[0]"),
    ("/api/v1/fire-map", '{"units": [], "unit": "\\ud800"}', "unit"),
    ("/api/v1/move", '{"units": [], "unit": "a", "combat_card": "\\udead"}', "combat_card"),
    ("/api/v1/import/m44", '{"board": {"type": "STANDARD", "hexagons": [{"row": 0, "col": 0, '
                           '"terrain": {"name": "\\ud800"}}]}}', "board.hexagons[0].terrain.name"),
    ("/api/v1/battle", '{"\\ud800": 1, "units": []}', "(body)"),
])
def test_a_lone_surrogate_in_any_string_field_is_a_400_naming_it(client, path, body, field):
    response = raw_post(client, path, body)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_text", field)


def test_a_surrogate_pair_is_text_and_is_saved_as_it_came(client):
    response = raw_post(client, "/api/v1/situations", json.dumps({"units": UNITS, "title": "Tiger \U0001F405"}))
    assert response.status_code == 201
    saved = client.get(response.get_json()["api_url"]).get_json()
    assert saved["situation"]["title"] == "Tiger \U0001F405"


def upload(client, **headers: str):
    scenario = json.dumps({"board": {"type": "STANDARD", "hexagons": []}}).encode()
    return client.post("/api/v1/import/m44", data={"file": (BytesIO(scenario), "x.m44")},
                       content_type="multipart/form-data", headers=headers)


@pytest.mark.parametrize(("headers", "status"), [
    ({"Sec-Fetch-Site": "same-origin"}, 200),
    ({"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}, 403),
    ({"Origin": "http://localhost"}, 200),  # an older browser: the Origin names this host
    ({"Origin": "https://evil.example"}, 403),
    ({"Origin": "null"}, 403),  # a sandboxed frame or a file: page
    ({"Referer": "http://localhost/builder"}, 200),
    ({"Referer": "https://evil.example/builder"}, 403),
    ({}, 403),  # says nothing of where it comes from
])
def test_a_form_upload_without_sec_fetch_site_must_name_this_site(client, headers, status):
    response = upload(client, **headers)
    assert response.status_code == status, response.get_json()
    if status == 403:
        assert response.get_json()["error"]["code"] == "cross_site"
