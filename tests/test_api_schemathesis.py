"""Schemathesis generates requests from ``/api/v1/openapi.json`` and checks every response.

It catches server errors, responses that do not match the documented schemas, malformed input
that is accepted, schema-valid input that is refused, and missing ``Allow`` headers. Each API
operation is a subtest, reported by its method and path.

Two phases run for every operation:

- **coverage**: the schema's boundary cases, one field at a time (each enum value, each limit and
  one past it, each wrong type, each required field left out). Every engine endpoint takes the
  same situation document, read by one parser, so the cases that vary the situation's own fields
  run on one operation (``SITUATION_OPERATION``, whose other fields a minimal document satisfies,
  so its positive cases reach the engine); on the others only the cases that vary their own
  fields run. The same parser reads ``scenario`` (``parse_situation``), which every request that
  takes a card describes whole: its cases run on one of those (``SCENARIO_OPERATION``). That
  keeps every check and every field while the phase sends ~2,900 requests instead of ~10,000
  (~5,500 with the scenario's ~650 cases sent to each of the five operations that describe it).
  ``/score`` skips this phase (``SCORE_PATH``).
- **fuzzing**: ``FUZZ_EXAMPLES`` random requests per operation, valid and invalid; generating a
  random situation document is what costs here (~0.1 s of CPU each).

Positive data (``positive_data_acceptance``): a request the schema allows must be accepted,
except when the server refuses it for one of the ``CROSS_FIELD_RULES`` — rules that relate one
field to another (a hex must lie on the chosen board, a unit named by ``attacker`` must be in
``units``), which an OpenAPI 3.0 schema cannot state. Any other refusal of a schema-valid request
fails: the schema promises more than the server accepts.

The schema is read when the test runs (``from_fixture``), so only the xdist worker that runs it
builds the app and generates the cases."""

from __future__ import annotations

import re
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.schemas import BaseSchema

from tests.conftest import make_app, seed_instance

REJECTIONS = ["400", "404", "405", "406", "413", "415", "422"]  # what our API answers to bad input
ACCEPTANCES = ["2xx", "404"]  # valid requests: 404 for a well-formed id that names nothing
FUZZ_EXAMPLES = 10
SITUATION_OPERATION = "POST /api/v1/line-of-sight"
SCENARIO_OPERATION = "POST /api/v1/order"
"""Where the coverage cases of ``scenario`` run: ordering reads its ``options`` and ``cards``, and
it is the one operation of the five that describe it whose minimal document lets those cases reach
the engine (measured: 246 of its 646 answered 200; on ``/battle``, ``/fire-map``, ``/move`` and
``/resolve`` all 646 were refused with a 400, the same parser's refusals sent again)."""
SCORE_PATH = "/api/v1/score"
"""Fuzzed only: the coverage cases of its own ``scenario``, ``casualties`` and ``exited`` add ~6
CPU-s to the file (51.6 against 45.3, measured one run after the other on the shared machine); its
fuzzing here, ``tests/test_score.py``'s property test over scenarios and its 400 tests cover them."""

CROSS_FIELD_RULES: dict[str, str] = {
    "a hex lies on the situation's board (its rows and columns; row + col even)": r"is not on the \w+ board",
    "a unit named by another field is one of `units`": r"no unit with id|must be the id of a unit in the situation",
    "unit ids are unique, one unit per hex, each hex listed once": r"duplicate unit id|already holds unit|hex \(",
    "a badge or obstacle given under two of its names counts once": r"is listed twice",
    "a hex's obstacles under `terrain`, `obstacle` and `obstacles` together are at most 4": r"obstacles; at most \d",
    "a badge fits its unit's type": r" is only for ",
    "a unit has no more figures than it started with": r"figures is more than the unit's",
    "a unit's path and moved_from follow each other and end on its hex": (
        r"not adjacent|passes through the same hex twice|must end on the unit's hex|hexes from the unit"),
    "a card attacks alone only if it is a card that attacks": r"give the id of a unit in `attacker`",
    "the hexes of one objective group agree, and it needs no more hexes than it has": (
        r"another hex of the same group|but its group has"),
    "an objective is held only by a side that may gain it": r"may gain this objective",
    "an exited unit left by an exit hex of its own side": r"is not an exit hex of the",
    "a unit still on the board says how many figures it lost": r"is required for a unit that was not eliminated",
    "the start of a turn is someone's turn": r"`side` is required with when=turn_start",
    "a card that needs them is given its section, the card it copies or the dice it rolled (`/order`)": (
        r"is played in a section: give `(?:copied_card\.)?section`|copies the opponent's last card: give"
        r"|orders by the dice rolled: give `rolled`|roll at least 1 die: 1 per command card"),
    "Their Finest Hour rolls 1 die per card in the side's hand (`scenario.cards`)": (
        r"command cards: 1 die is rolled per card"),
    "a card's group gets one roll and one retreat per unit of the group (`/resolve`)": (
        r"give one roll per unit of the group|has no legal retreat ending at"),
}
"""Refusals of a schema-valid request that the schema cannot prevent: each relates two fields (or
a field and the board the document chose). Keyed by the rule, valued by the refusal's message."""
CROSS_FIELD = re.compile("|".join(f"(?:{pattern})" for pattern in CROSS_FIELD_RULES.values()))


def _varied_field(description: str) -> str | None:
    """The top-level body field a coverage case varies ("Object with valid 'hexes' value: ...",
    "units -> Array with invalid items: ...", "board: Incorrect type"), if its description names one."""
    found = re.match(r"Object with valid '(\w+)' value|(\w+)(?: ->|:)", description)
    return (found.group(1) or found.group(2)) if found else None


def _situation_case_elsewhere(context: Any, case: Any) -> bool:
    """``filter_case``: False for a coverage case varying a field of the situation document (the
    ``Situation`` schema's properties) on an operation other than ``SITUATION_OPERATION``, or
    varying ``scenario`` on one other than ``SCENARIO_OPERATION``: the same parser reads the field
    there."""
    meta = case.meta
    if meta is None or meta.phase.name.value != "coverage":
        return True
    field = _varied_field(getattr(meta.phase.data, "description", "") or "")
    if field == "scenario":
        return case.operation.label == SCENARIO_OPERATION
    situation_fields = case.operation.schema.raw_schema["components"]["schemas"]["Situation"]["properties"]
    return case.operation.label == SITUATION_OPERATION or field not in situation_fields


def _not_a_cross_field_refusal(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """``filter_failure``: keep every failure but a positive case refused with a 400 that states
    one of the ``CROSS_FIELD_RULES``."""
    if type(failure).__name__ != "RejectedPositiveData" or response.status_code != 400:
        return True
    error = (response.json() or {}).get("error") or {}
    return not CROSS_FIELD.search(str(error.get("message", "")))


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> BaseSchema:
    app = make_app(seed_instance(tmp_path_factory.mktemp("schemathesis")))
    config = SchemathesisConfig.from_dict({"checks": {
        "negative_data_rejection": {"expected-statuses": REJECTIONS},
        "positive_data_acceptance": {"expected-statuses": ACCEPTANCES},
    }, "operations": [{"include-path": SCORE_PATH, "phases": {"coverage": {"enabled": False}}}]})
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)
    schema.hook("filter_case")(_situation_case_elsewhere)
    schema.hook("filter_failure")(_not_a_cross_field_refusal)
    return schema


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    """Schemathesis' lazy test names each operation's subtest after ``node._nodeid``, an attribute
    pytest 9 no longer has (it keeps the id elsewhere): give it the id it reads."""
    request.node._nodeid = request.node.nodeid


schema = schemathesis.pytest.from_fixture("api_schema")


# One test item runs every operation (schemathesis' subtests): 38 s alone on this machine, 87 s
# beside the rest of the suite, past the suite's 300 s hang guard when two clones run the suite at
# once on its two cores. The guard is for hangs; this item's own is longer.
@pytest.mark.timeout(900)
@schema.parametrize()
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_matches_its_openapi_document(case):
    # Identity encoding: the WSGI client does not decompress gzip bodies.
    case.call_and_validate(headers={"Accept-Encoding": "identity"})
