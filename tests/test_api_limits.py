"""Every input limit the OpenAPI document states is the one its parser enforces.

A limit is defined once, in the module that parses the field (docs/contracts.md §5), and the
document imports it. This test reads every ``maxLength``, ``maxItems``, ``minLength``,
``minItems``, ``minimum`` and ``maximum`` of the request schemas and parameters and compares it
with the parser's constant, imported here from the parser, not from the document: a limit changed
in one place only, or a limit the document gains without its parser's, fails here."""

from __future__ import annotations

import re
from typing import Any

import pytest

from adjudicator import m44
from adjudicator.engine import api, card_attack, resolve, situation
from adjudicator.engine.geometry import BOARDS
from adjudicator.engine.hits import die_faces
from adjudicator.engine.rulebook import Rulebook
from adjudicator.web import saved_document, search_views
from adjudicator.web.openapi import openapi_document

BOUNDS = ("minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum")
LAST_ROW = max(board.rows for board in BOARDS.values()) - 1  # parse_hex: on the situation's board
LAST_COL = max(board.max_col for board in BOARDS.values())


def _hex(at: str) -> dict[str, int]:
    return {f"{at}.row.minimum": 0, f"{at}.row.maximum": LAST_ROW,
            f"{at}.col.minimum": 0, f"{at}.col.maximum": LAST_COL}


def _unit_ref(at: str) -> dict[str, int]:
    return {f"{at}.minLength": 1, f"{at}.maxLength": situation.MAX_ID_LENGTH}


def _per_side(at: str, low: int, high: int) -> dict[str, int]:
    return {f"{at}.{side}.{bound}": value for side in situation.SIDES
            for bound, value in (("minimum", low), ("maximum", high))}


def parser_limits(rulebook: Rulebook) -> dict[str, int]:
    """Each limit by where the document states it (``Situation`` for the fields every engine
    request shares) -> what the parser that reads the field allows."""
    cards = {"card.maxLength": api.MAX_CARD_LENGTH, "combat_card.maxLength": api.MAX_CARD_LENGTH}
    situation_limits = {
        "rules.maxItems": situation.MAX_RULES,
        "rules[].minLength": 1, "rules[].maxLength": situation.MAX_NAME_LENGTH,
        "hexes.maxItems": situation.MAX_HEXES, **_hex("hexes[]"),
        "hexes[].obstacles.maxItems": situation.MAX_OBSTACLES,
        "units.maxItems": situation.MAX_UNITS, **_hex("units[]"),
        "units[].id.minLength": 1, "units[].id.maxLength": situation.MAX_ID_LENGTH,
        "units[].figures.minimum": 1, "units[].figures.maximum": situation.MAX_FIGURES,
        "units[].start_figures.minimum": 1, "units[].start_figures.maximum": situation.MAX_FIGURES,
        "units[].badges.maxItems": situation.MAX_BADGES,
        "units[].moved.minimum": 0, "units[].moved.maximum": situation.MAX_MOVED,
        **_hex("units[].moved_from"),
        "units[].path.minItems": 1, "units[].path.maxItems": situation.MAX_MOVED + 1, **_hex("units[].path[]"),
    }
    card_attack_limits = {"targets.maxItems": card_attack.MAX_TARGETS_GIVEN, **_unit_ref("targets[]")}
    medals = {"minimum": 0, "maximum": situation.MAX_MEDALS}
    scenario_limits = {
        **_per_side("scenario.medals_to_win", 1, situation.MAX_MEDALS),
        **_per_side("scenario.cards", 1, situation.MAX_CARDS),
        "scenario.objectives.maxItems": situation.MAX_OBJECTIVES, **_hex("scenario.objectives[]"),
        "scenario.objectives[].group.minLength": 1, "scenario.objectives[].group.maxLength": situation.MAX_GROUP_NAME,
        "scenario.objectives[].medals.minimum": 1, "scenario.objectives[].medals.maximum": situation.MAX_MEDALS,
        "scenario.objectives[].hexes_needed.minimum": 1,
        "scenario.objectives[].hexes_needed.maximum": situation.MAX_OBJECTIVES,
        "scenario.exits.maxItems": situation.MAX_EXITS, **_hex("scenario.exits[]"),
        **{f"scenario.exits[].medals.{bound}": value for bound, value in medals.items()},
        **{f"scenario.exits[].medals.{unit}.{bound}": value for unit in situation.exit_worth_keys(rulebook)
           for bound, value in medals.items()},
        "scenario.options.maxItems": situation.MAX_OPTIONS,
    }
    score_limits = {
        **scenario_limits,
        **_per_side("medals", 0, situation.MAX_MEDALS),
        "casualties.maxItems": situation.MAX_CASUALTIES, "casualties[].badges.maxItems": situation.MAX_BADGES,
        "casualties[].figures.minimum": 1, "casualties[].figures.maximum": situation.MAX_FIGURES,
        "exited.maxItems": situation.MAX_EXITED, "exited[].badges.maxItems": situation.MAX_BADGES,
        **_hex("exited[].at"),
    }
    # how a card was played (``section``, ``copied_card``) and the scenario, which the parser reads
    # whole (its options and hands are what ordering uses): every request that takes a card
    play = {"copied_card.card.maxLength": api.MAX_CARD_LENGTH, **scenario_limits}

    def rolled(at: str) -> dict[str, int]:
        return {f"{at}.{face}.{bound}": value for face in die_faces(rulebook)
                for bound, value in (("minimum", 0), ("maximum", resolve.MAX_ROLLED))}

    by_schema = {
        "Situation": situation_limits,
        "ScoreRequest": score_limits,
        "OrderRequest": {"card.maxLength": api.MAX_CARD_LENGTH, **play, **rolled("rolled"),
                         "selection.maxItems": situation.MAX_UNITS, **_unit_ref("selection[]")},
        "LineOfSightRequest": {**_hex("from"), **_hex("to")},
        "BattleRequest": {**_unit_ref("attacker"), **_unit_ref("target"), **card_attack_limits, **cards, **play},
        "ResolveRequest": {**_unit_ref("attacker"), **_unit_ref("target"), **card_attack_limits, **cards, **play,
                           **rolled("rolled"), **rolled("rolled[]"),
                           "rolled.minItems": 1, "rolled.maxItems": api.MAX_GROUP,
                           "retreat_to.maxItems": api.MAX_GROUP, **_hex("retreat_to[]")},
        "RetreatRequest": {**_unit_ref("unit"), "flags.minimum": 0, "flags.maximum": api.MAX_FLAGS,
                           "hits.minimum": 0, "hits.maximum": situation.MAX_FIGURES, **cards},
        "MoveRequest": {**_unit_ref("unit"), **_hex("to"), **cards, **play},
        "FireMapRequest": {**_unit_ref("unit"), **cards, **play},
        "ResupplyRequest": _unit_ref("supplier"),
        "SaveRequest": {**_unit_ref("attacker"), **_unit_ref("target"), **cards,
                        "flags.minimum": 1, "flags.maximum": saved_document.MAX_SAVED_FLAGS,
                        "title.maxLength": saved_document.MAX_TITLE},
        "M44Scenario": {"board.hexagons.maxItems": m44.MAX_HEXAGONS},
        "GET /api/v1/search": {"limit.minimum": 1, "limit.maximum": search_views.API_LIMIT_MAX},
    }
    return {f"{schema}.{where}": value for schema, limits in by_schema.items() for where, value in limits.items()}


def document_limits(doc: dict[str, Any]) -> dict[str, set[int]]:
    """Every bound of every request schema and parameter, by where it is stated; a field of the
    situation document is reported once, under ``Situation``, for all the requests that share it."""
    shared = doc["components"]["schemas"]["Situation"]["properties"]
    found: dict[str, set[int]] = {}

    def walk(node: Any, where: str) -> None:
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            return walk_schema(name, doc["components"]["schemas"][name])
        for bound in BOUNDS:
            if bound in node:
                found.setdefault(f"{where}.{bound}", set()).add(node[bound])
        for field, schema in node.get("properties", {}).items():
            walk(schema, f"{where}.{field}")
        walk(node.get("items"), f"{where}[]")
        for schema in [*node.get("anyOf", []), *node.get("oneOf", [])]:
            walk(schema, where)

    def walk_schema(name: str, schema: dict[str, Any]) -> None:
        for field, part in schema.get("properties", {}).items():
            walk(part, f"{'Situation' if shared.get(field) == part else name}.{field}")

    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                walk(parameter["schema"], f"{method.upper()} {path}.{parameter['name']}")
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            walk(body.get("schema"), f"{method.upper()} {path}")
    return found


@pytest.fixture(scope="module")
def doc(rulebook: Rulebook) -> dict[str, Any]:
    return openapi_document(rulebook)


def test_every_limit_of_the_openapi_document_is_its_parsers(doc: dict[str, Any], rulebook: Rulebook) -> None:
    stated = document_limits(doc)
    expected = parser_limits(rulebook)
    assert set(stated) == set(expected), (sorted(set(stated) - set(expected)), sorted(set(expected) - set(stated)))
    for where, values in stated.items():
        assert values == {expected[where]}, (where, values, expected[where])


def test_the_situation_limits_bind_every_engine_request(doc: dict[str, Any]) -> None:
    """The ``Situation`` limits above are read from each request that carries the situation: every
    engine request and the save repeat the situation's fields with the same bounds."""
    schemas = doc["components"]["schemas"]
    situation_fields = schemas["Situation"]["properties"]
    requests = [name for name in schemas if name.endswith("Request")]
    assert len(requests) >= 8
    for name in requests:
        for field, schema in situation_fields.items():
            assert schemas[name]["properties"][field] == schema, (name, field)


def test_every_request_describes_the_whole_scenario_its_parser_reads(doc: dict[str, Any]) -> None:
    """The situation parser reads every request's ``scenario`` alike and refuses a field it does not
    know (core ``victory``): so every request states the same closed scenario. A scenario left open
    to other fields promised what the server refuses (schemathesis found it: a generated unknown
    field, refused 400)."""
    schemas = doc["components"]["schemas"]
    with_scenario = {name: schema["properties"]["scenario"] for name, schema in schemas.items()
                     if name.endswith("Request") and "scenario" in schema.get("properties", {})}
    assert len(with_scenario) >= 6, sorted(with_scenario)
    whole = with_scenario["ScoreRequest"]
    assert whole["additionalProperties"] is False
    assert {"medals_to_win", "objectives", "exits", "options", "cards"} <= set(whole["properties"])
    for name, scenario in with_scenario.items():
        assert scenario == whole, name


BLANK_IN_ONE_DIALECT = ("\x1e", "\x85", "\ufeff", " \u3000\t")
"""White space to Python's ``str.strip`` but text to ECMAScript's ``\\S`` (U+001E, U+0085), or the
other way round (U+FEFF), and plain white space."""


def test_the_document_states_the_parsers_pattern_for_names_and_ids(doc: dict[str, Any]) -> None:
    situation_fields = doc["components"]["schemas"]["Situation"]["properties"]
    assert situation_fields["units"]["items"]["properties"]["id"]["pattern"] == situation.NOT_BLANK
    assert situation_fields["rules"]["items"].get("pattern") == situation.NOT_BLANK
    assert not [text for text in BLANK_IN_ONE_DIALECT if re.search(situation.NOT_BLANK, text)]


def test_a_unit_id_that_either_dialect_calls_blank_is_refused_naming_the_field(client: Any) -> None:
    for blank in BLANK_IN_ONE_DIALECT:
        unit = {"id": blank, "side": "allies", "type": "infantry", "row": 4, "col": 4, "figures": 4}
        response = client.post("/api/v1/line-of-sight", json={
            "units": [unit], "from": {"row": 4, "col": 4}, "to": {"row": 4, "col": 8}})
        assert response.status_code == 400, repr(blank)
        assert response.get_json()["error"]["field"] == "units[0].id", repr(blank)
