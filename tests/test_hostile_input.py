"""Every API rejects malformed or hostile input with a 4xx naming the field — never a 5xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ENGINE_ENDPOINTS = ["/api/v1/line-of-sight", "/api/v1/battle", "/api/v1/retreat", "/api/v1/resupply",
                    "/api/v1/resolve", "/api/v1/fire-map", "/api/v1/score"]
POST_ENDPOINTS = [*ENGINE_ENDPOINTS, "/api/v1/situations"]

VALID = {
    "board": "standard",
    "hexes": [{"row": 5, "col": 11, "terrain": "forest"}],
    "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
        {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
        {"id": "T", "side": "allies", "type": "supply_truck", "row": 7, "col": 11, "figures": 2},
    ],
    "from": {"row": 6, "col": 10}, "to": {"row": 4, "col": 12},
    "attacker": "A", "target": "B", "unit": "B", "flags": 1, "supplier": "T",
    "rolled": {"infantry": 1, "flag": 1},
}
ENGINE_ONLY = ("from", "to", "unit", "supplier", "rolled")  # saved situations keep only the builder's fields


def post(client, url, body, content_type="application/json"):
    if isinstance(body, dict) and url.endswith("/situations"):
        body = {k: v for k, v in body.items() if k not in ENGINE_ONLY}
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type=content_type)


def assert_client_error(response, field=None):
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:300]
    error = response.get_json()["error"]
    assert error["message"]
    if field is not None:
        assert error["field"] == field, error


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_valid_situation_is_accepted(client, url):
    assert post(client, url, VALID).status_code in (200, 201)


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_non_json_content_type_is_415(client, url):
    response = post(client, url, json.dumps(VALID), content_type="text/plain")
    assert response.status_code == 415
    assert_client_error(response, "(body)")


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_malformed_json_is_400(client, url):
    assert_client_error(post(client, url, '{"units": [}'), "(body)")


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_body_over_the_size_limit_is_413(client, app, url):
    limit = app.config["MAX_CONTENT_LENGTH"]
    response = post(client, url, json.dumps({**VALID, "pad": "x" * limit}))
    assert response.status_code == 413
    assert response.get_json()["error"]["code"]


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_deeply_nested_json_is_rejected(client, url):
    deep = "[" * 5000 + "1" + "]" * 5000  # deeper than Python's own recursion limit
    response = post(client, url, json.dumps(VALID)[:-1] + f', "deep": {deep}}}')
    assert_client_error(response, "(body)")


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_json_that_is_not_an_object_is_400(client, url):
    assert_client_error(post(client, url, "[1, 2, 3]"), "(body)")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["units"].append({**d["units"][0], "col": 14}), "units[3].id"),  # duplicate id
        (lambda d: d["units"].append({**d["units"][0], "id": "Z"}), "units[3]"),  # two units, one hex
        (lambda d: d["units"][0].update(row=40), "units[0]"),  # off the board
        (lambda d: d["units"][0].update(figures=10_000), "units[0].figures"),  # absurd figures
        (lambda d: d["units"][0].update(figures="four"), "units[0].figures"),  # wrong type
        (lambda d: d["units"][0].update(type="mecha"), "units[0].type"),  # unknown id
        (lambda d: d["hexes"][0].update(terrain="lava"), "hexes[0].terrain"),
        (lambda d: d.update(rules=["gravity"]), "rules[0]"),
        (lambda d: d.update(units="A"), "units"),
    ],
)
@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_bad_situation_is_400_naming_the_field(client, url, change, field):
    body = json.loads(json.dumps(VALID))
    change(body)
    assert_client_error(post(client, url, body), field)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
UNIT_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "id": JSONISH | st.sampled_from(["A", "B", "T"]),
        "side": JSONISH | st.sampled_from(["allies", "axis"]),
        "type": JSONISH | st.sampled_from(["infantry", "armor", "artillery", "half_track", "tank"]),
        "row": JSONISH | st.integers(-2, 20),
        "col": JSONISH | st.integers(-2, 55),
        "figures": JSONISH | st.integers(-1, 8),
        "start_figures": JSONISH | st.integers(-1, 8),
        "badges": JSONISH | st.lists(st.sampled_from(["tank_destroyer", "heroic_leader", "camouflage", "x"])),
        "nation": JSONISH | st.sampled_from(["japanese", "italian", "french_resistance"]),
        "moved": JSONISH | st.integers(-1, 15),
    },
)
SITUATIONS = st.fixed_dictionaries(
    {},
    optional={
        "board": JSONISH | st.sampled_from(["standard", "overlord", "breakthrough"]),
        "bottom_side": JSONISH | st.sampled_from(["allies", "axis"]),
        "rules": JSONISH | st.lists(st.sampled_from(["reduced_visibility", "resupply", "blitz", "nope"])),
        "hexes": JSONISH | st.lists(st.fixed_dictionaries(
            {"row": st.integers(-1, 17), "col": st.integers(-1, 51)},
            optional={"terrain": JSONISH | st.sampled_from(["forest", "hill", "river", "woods"]),
                      "obstacle": JSONISH | st.sampled_from(["sandbags", "bunker", "wire"]),
                      "owner": JSONISH | st.sampled_from(["allies", "axis"])}), max_size=6),
        "units": JSONISH | st.lists(UNIT_FIELDS, max_size=4),
        "from": JSONISH | st.fixed_dictionaries({"row": st.integers(-1, 9), "col": st.integers(-1, 25)}),
        "to": JSONISH | st.fixed_dictionaries({"row": st.integers(-1, 9), "col": st.integers(-1, 25)}),
        "attacker": JSONISH | st.sampled_from(["A", "B", "T"]),
        "target": JSONISH | st.sampled_from(["A", "B", "T"]),
        "unit": JSONISH | st.sampled_from(["A", "B", "T"]),
        "supplier": JSONISH | st.sampled_from(["A", "B", "T"]),
        "flags": JSONISH | st.integers(-1, 14),
        "rolled": JSONISH | st.dictionaries(st.sampled_from(["infantry", "armor", "grenade", "star", "flag"]),
                                            st.integers(-1, 4), max_size=5),
        "card": JSONISH | st.sampled_from(["armor_assault", "ambush", "air_power", "recon"]),
        "combat_card": JSONISH | st.sampled_from(["bitter_resistance", "jungle_warfare"]),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(POST_ENDPOINTS), body=SITUATIONS)
def test_generated_situations_never_cause_a_server_error(client, url, body):
    response = post(client, url, body)
    assert response.status_code < 500, (url, body, response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        assert response.get_json()["error"]["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(POST_ENDPOINTS), raw=st.binary(max_size=200) | st.text(max_size=200))
def test_arbitrary_bytes_never_cause_a_server_error(client, url, raw):
    assert post(client, url, raw).status_code < 500


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=st.text(max_size=300), kind=st.none() | st.text(max_size=20))
def test_any_search_text_never_causes_a_server_error(client, q, kind):
    params = {"q": q} if kind is None else {"q": q, "kind": kind}
    assert client.get("/api/v1/search", query_string=params).status_code < 500
    assert client.get("/search", query_string=params).status_code < 500
