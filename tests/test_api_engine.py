"""``POST /api/v1/line-of-sight``, ``POST /api/v1/battle`` and ``GET /api/v1/openapi.json``
(adjudicator/API.md): the happy paths, every 4xx naming its field, and responses that match the
OpenAPI document's own schemas."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine import situation as situation_module
from adjudicator.web import api_outcomes, openapi, search_views

SITUATION: dict[str, Any] = {
    "board": "standard",
    "hexes": [{"row": 5, "col": 11, "terrain": "forest"}, {"row": 6, "col": 14, "terrain": "hill"}],
    "units": [
        {"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
        {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
        {"id": "C", "side": "axis", "type": "infantry", "row": 6, "col": 14, "figures": 2},
    ],
}


def post(client: FlaskClient, endpoint: str, **fields: Any) -> Any:
    return client.post(f"/api/v1/{endpoint}", json={**SITUATION, **fields})


def error_field(response: Any) -> str:
    body = response.get_json()
    assert set(body["error"]) == {"code", "message", "field"} and body["error"]["message"]
    return body["error"]["field"]


# --- a tiny validator for the JSON-schema subset the OpenAPI document uses ------------------------

def validate(value: Any, schema: dict[str, Any], doc: dict[str, Any], where: str = "$") -> None:
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if value is None:
        assert schema.get("nullable"), f"{where}: null not allowed"
        return
    kind = schema.get("type")
    checks = {"object": dict, "array": list, "string": str, "boolean": bool}
    if kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r} is not an integer"
    elif kind == "number":
        assert isinstance(value, int | float) and not isinstance(value, bool), f"{where}: not a number"
    elif kind:
        assert isinstance(value, checks[kind]), f"{where}: {value!r} is not {kind}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in enum"
    if "minimum" in schema:
        assert value >= schema["minimum"], where
    if "maximum" in schema:
        assert value <= schema["maximum"], where
    if "pattern" in schema:
        assert re.search(schema["pattern"], value), where
    if kind == "object":
        for name in schema.get("required", []):
            assert name in value, f"{where}: missing {name}"
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                validate(value[name], sub, doc, f"{where}.{name}")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for name, item in value.items():
                if name not in schema.get("properties", {}):
                    validate(item, extra, doc, f"{where}.{name}")
    if kind == "array":
        assert len(value) >= schema.get("minItems", 0) and len(value) <= schema.get("maxItems", len(value)), where
        for i, item in enumerate(value):
            validate(item, schema.get("items", {}), doc, f"{where}[{i}]")


@pytest.fixture(scope="module")
def doc(app: Any) -> dict[str, Any]:
    return app.test_client().get("/api/v1/openapi.json").get_json()


def response_schema(doc: dict[str, Any], path: str, status: str = "200") -> dict[str, Any]:
    operation = next(iter(doc["paths"][path].values()))
    return operation["responses"][status]["content"]["application/json"]["schema"]


# --- line of sight -------------------------------------------------------------------------------

def test_line_of_sight_through_a_forest_is_blocked(client: FlaskClient, doc: dict[str, Any]) -> None:
    response = post(client, "line-of-sight", **{"from": {"row": 6, "col": 10}, "to": {"row": 4, "col": 12}})
    assert response.status_code == 200
    body = response.get_json()
    assert body["clear"] is False and body["distance"] == 2
    assert body["crossed"] == [{"row": 5, "col": 11, "label": "f4"}]
    blocker = body["blocked_by"][0]
    assert blocker | {"reason": "", "params": {}} == {"row": 5, "col": 11, "label": "f4", "rule": "forest",
                                                      "via": "crossed", "reason": "", "code": "los.terrain_blocks",
                                                      "params": {}}
    assert blocker["params"]["terrain"]["entry"] == "forest" and blocker["reason"].startswith("Forest at f4")
    assert body["readings"] == {"edge_runs": "per_edge", "corner_touch": "not_crossed"}
    validate(body, response_schema(doc, "/api/v1/line-of-sight"), doc)


def test_line_of_sight_reports_edges(client: FlaskClient, doc: dict[str, Any]) -> None:
    response = post(client, "line-of-sight", **{"from": {"row": 3, "col": 11}, "to": {"row": 5, "col": 11}})
    body = response.get_json()
    assert body["clear"] is True
    assert body["edges"] == [[{"row": 4, "col": 10, "label": "F5"}, {"row": 4, "col": 12, "label": "G5"}]]
    validate(body, response_schema(doc, "/api/v1/line-of-sight"), doc)


@pytest.mark.parametrize(("fields", "field"), [
    ({"to": {"row": 4, "col": 12}}, "from"),
    ({"from": {"row": 6, "col": 10}}, "to"),
    ({"from": {"row": 6, "col": 11}, "to": {"row": 4, "col": 12}}, "from"),
    ({"from": {"row": 6, "col": 10}, "to": {"row": 9, "col": 12}}, "to"),
    ({"from": {"row": 6}, "to": {"row": 4, "col": 12}}, "from.col"),
    ({"from": [6, 10], "to": {"row": 4, "col": 12}}, "from"),
    ({"from": {"row": "6", "col": 10}, "to": {"row": 4, "col": 12}}, "from.row"),
])
def test_line_of_sight_bad_hex_is_a_400_naming_the_field(client: FlaskClient, fields: dict[str, Any],
                                                          field: str) -> None:
    response = post(client, "line-of-sight", **fields)
    assert response.status_code == 400 and error_field(response) == field


# --- battle --------------------------------------------------------------------------------------

SPEC_FIELDS = {"legal", "why_not", "distance", "close_assault", "line_of_sight", "dice", "breakdown", "hit_symbols",
               "flags_ignored", "probabilities", "retreat", "take_ground", "overrun"}


def test_battle_answer_has_every_spec_field(client: FlaskClient, doc: dict[str, Any]) -> None:
    response = post(client, "battle", attacker="A", target="C")
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) >= SPEC_FIELDS
    assert body["legal"] is True and body["distance"] == 2 and body["close_assault"] is False
    assert body["line_of_sight"]["needed"] is True and body["line_of_sight"]["clear"] is True
    assert [(s["rule"], s["dice"]) for s in body["breakdown"]] == [("infantry", 2), ("hill", -1)]
    assert body["dice"] == 1 and body["hit_symbols"] == ["infantry", "grenade"]
    assert body["probabilities"]["hits"] == [0.5, 0.5]
    assert body["probabilities"]["hits_exact"] == ["1/2", "1/2"]
    assert body["retreat"]["per_flag"] == 1 and isinstance(body["retreat"]["options"], list)
    assert body["take_ground"] is False and body["overrun"] is False
    validate(body, response_schema(doc, "/api/v1/battle"), doc)


def test_battle_breakdown_cites_pages_that_exist(client: FlaskClient) -> None:
    body = post(client, "battle", attacker="B", target="A", card="armor_assault").get_json()
    cited = {r["rule"] for key in ("breakdown", "why_not", "hit_reasons", "notes") for r in body[key]}
    assert cited
    for rule in cited:
        kind = client.get(f"/api/v1/rules/{_kind(client, rule)}/{rule}")
        assert kind.status_code == 200, rule


def _kind(client: FlaskClient, entry_id: str) -> str:
    entries = client.get("/api/v1/rules").get_json()["entries"]
    return next(e["kind"] for e in entries if e["id"] == entry_id)


def test_illegal_battle_lists_why_and_has_no_odds(client: FlaskClient, doc: dict[str, Any]) -> None:
    body = post(client, "battle", attacker="A", target="B").get_json()
    assert body["legal"] is False and body["probabilities"] is None
    assert [r["rule"] for r in body["why_not"]] == ["line_of_sight"]
    assert body["take_ground"] is False
    validate(body, response_schema(doc, "/api/v1/battle"), doc)


def test_close_assault_answer_includes_take_ground_and_retreat(client: FlaskClient, doc: dict[str, Any]) -> None:
    units = [{"id": "A", "side": "allies", "type": "armor", "row": 4, "col": 10, "figures": 3},
             {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 1}]
    response = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B"})
    body = response.get_json()
    assert body["close_assault"] is True and body["take_ground"] is True and body["overrun"] is True
    assert body["probabilities"]["eliminate"] == body["probabilities"]["eliminate_after_retreat"]
    assert body["retreat"]["options"][0]["end"]["row"] == 3
    validate(body, response_schema(doc, "/api/v1/battle"), doc)


def test_armor_overrun_is_made_once_a_turn(client: FlaskClient, doc: dict[str, Any]) -> None:
    """An overrun battle may be followed by taking ground again, not by a second overrun."""
    units = [{"id": "A", "side": "allies", "type": "armor", "row": 4, "col": 10, "figures": 3},
             {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 1}]
    body = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                               "overrun_battle": True}).get_json()
    assert body["legal"] is True and body["overrun_battle"] is True
    assert body["take_ground"] is True and body["overrun"] is False
    assert "armor_overrun" in {r["rule"] for r in body["overrun_reasons"]}
    validate(body, response_schema(doc, "/api/v1/battle"), doc)


def test_only_a_unit_that_may_overrun_makes_an_overrun_battle(client: FlaskClient) -> None:
    units = [{"id": "A", "side": "allies", "type": "infantry", "row": 4, "col": 10, "figures": 3},
             {"id": "B", "side": "axis", "type": "infantry", "row": 4, "col": 12, "figures": 1}]
    body = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                               "overrun_battle": True}).get_json()
    assert body["legal"] is False and [r["rule"] for r in body["why_not"]] == ["infantry"]


def test_blocked_retreat_raises_the_chance_to_eliminate(client: FlaskClient) -> None:
    units = [{"id": "A", "side": "allies", "type": "armor", "row": 4, "col": 10, "figures": 3},
             {"id": "B", "side": "axis", "type": "infantry", "row": 0, "col": 12, "figures": 1}]
    units[0]["row"], units[0]["col"] = 1, 11
    body = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B"}).get_json()
    odds = body["probabilities"]
    assert odds["eliminate_after_retreat"] > odds["eliminate"]
    assert body["retreat"]["fewest_figures_lost_by_flags"][1] == 1


@pytest.mark.parametrize(("fields", "field"), [
    ({"target": "C"}, "attacker"),
    ({"attacker": "A"}, "target"),
    ({"attacker": "Z", "target": "C"}, "attacker"),
    ({"attacker": "A", "target": 5}, "target"),
    ({"attacker": "A", "target": "A"}, "target"),
    ({"attacker": "A", "target": "C", "card": "no_such_card"}, "card"),
    ({"attacker": "A", "target": "C", "card": ["armor_assault"]}, "card"),
    ({"attacker": "A", "target": "C", "combat_card": "armor_assault"}, "combat_card"),
    ({"attacker": "A", "target": "C", "combat_card": "x" * 200}, "combat_card"),
    ({"attacker": "A", "target": "C", "overrun_battle": "yes"}, "overrun_battle"),
    ({"attacker": "A", "target": "C", "overrun_battle": 1}, "overrun_battle"),
])
def test_battle_bad_field_is_a_400_naming_it(client: FlaskClient, fields: dict[str, Any], field: str) -> None:
    response = post(client, "battle", **fields)
    assert response.status_code == 400 and error_field(response) == field


def test_situation_errors_name_the_situation_field(client: FlaskClient) -> None:
    bad = {**SITUATION, "units": [*SITUATION["units"], {"id": "D", "side": "axis", "type": "tank", "row": 4,
                                                         "col": 12, "figures": 3}]}
    response = client.post("/api/v1/battle", json={**bad, "attacker": "A", "target": "C"})
    assert response.status_code == 400 and error_field(response) == "units[3]"
    response = client.post("/api/v1/line-of-sight", json={"units": [], "rules": ["no_such_rule"],
                                                          "from": {"row": 0, "col": 0}, "to": {"row": 0, "col": 2}})
    assert response.status_code == 400 and error_field(response) == "rules[0]"


@pytest.mark.parametrize("endpoint", ["line-of-sight", "battle"])
def test_non_json_body_is_a_415(client: FlaskClient, endpoint: str) -> None:
    response = client.post(f"/api/v1/{endpoint}", data="units=[]", content_type="text/plain")
    assert response.status_code == 415 and error_field(response) == "(body)"


@pytest.mark.parametrize("endpoint", ["line-of-sight", "battle"])
@pytest.mark.parametrize("body", ["{not json", "[1, 2]", '"units"'])
def test_malformed_json_is_a_400(client: FlaskClient, endpoint: str, body: str) -> None:
    response = client.post(f"/api/v1/{endpoint}", data=body, content_type="application/json")
    assert response.status_code == 400 and error_field(response) == "(body)"


def test_oversized_body_is_a_413(client: FlaskClient) -> None:
    limit = client.application.config["MAX_CONTENT_LENGTH"]
    response = client.post("/api/v1/battle", data='{"units": [' + " " * limit + "]}",
                           content_type="application/json")
    assert response.status_code == 413


def test_get_on_a_post_endpoint_is_a_json_405(client: FlaskClient) -> None:
    response = client.get("/api/v1/battle")
    assert response.status_code == 405 and "error" in response.get_json()


# --- OpenAPI -------------------------------------------------------------------------------------

def test_openapi_lists_every_endpoint_of_the_spec(doc: dict[str, Any]) -> None:
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) >= {"/api/v1/line-of-sight", "/api/v1/battle", "/api/v1/retreat", "/api/v1/resupply",
                                 "/api/v1/rules/{kind}/{id}", "/api/v1/search"}
    for path, item in doc["paths"].items():
        for operation in item.values():
            assert any(code.startswith("2") for code in operation["responses"]), path  # 200, or 201 on save


def test_openapi_refs_all_resolve(doc: dict[str, Any]) -> None:
    refs: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "$ref" in value:
                refs.append(value["$ref"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(doc)
    assert refs
    for ref in refs:
        assert ref.rsplit("/", 1)[1] in doc["components"]["schemas"], ref


def test_openapi_request_schemas_state_required_fields_and_limits(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert schemas["LineOfSightRequest"]["required"] == ["units", "from", "to"]
    assert schemas["BattleRequest"]["required"] == ["units", "attacker", "target"]
    assert schemas["RetreatRequest"]["required"] == ["units", "unit", "flags"]
    unit = schemas["Situation"]["properties"]["units"]["items"]
    assert unit["required"] == ["id", "side", "type", "row", "col", "figures"]
    assert unit["properties"]["figures"]["maximum"] == situation_module.MAX_FIGURES
    assert "forest" in schemas["Situation"]["properties"]["hexes"]["items"]["properties"]["terrain"]["enum"]
    assert "armor_assault" in schemas["BattleRequest"]["properties"]["card"]["enum"]
    assert "tank_destroyer" in unit["properties"]["badges"]["items"]["enum"]


def test_openapi_limits_match_the_parsers() -> None:
    assert openapi.MAX_FLAGS == api_outcomes.MAX_FLAGS
    assert openapi.SEARCH_LIMIT_MAX == search_views.API_LIMIT_MAX


def test_example_requests_validate_against_the_request_schemas(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    validate({**SITUATION, "from": {"row": 6, "col": 10}, "to": {"row": 4, "col": 12}},
             schemas["LineOfSightRequest"], doc)
    validate({**SITUATION, "attacker": "A", "target": "C", "card": "armor_assault"}, schemas["BattleRequest"], doc)
    with pytest.raises(AssertionError):
        validate({**SITUATION, "attacker": "A"}, schemas["BattleRequest"], doc)
