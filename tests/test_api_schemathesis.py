"""Schemathesis generates requests from ``/api/v1/openapi.json`` and checks every response.

It catches server errors, responses that do not match the documented schemas, malformed input
that is accepted, and missing ``Allow`` headers. One check is left out on purpose:
``positive_data_acceptance`` — a schema cannot say that a hex must lie on the board or that a
unit may not battle itself, so schema-valid requests are rightly refused with a 400 naming the
field. And a body over the size limit is rightly refused with 413, which schemathesis does not
count as a rejection by default.

The schema is read when the test runs (``from_fixture``), so only the xdist worker that runs it
builds the app and generates the cases; each API operation is a subtest, reported by its method
and path."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig
from schemathesis.schemas import BaseSchema

from tests.conftest import make_app, seed_instance

REJECTIONS = ["400", "404", "405", "406", "413", "415", "422"]  # what our API answers to bad input


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> BaseSchema:
    app = make_app(seed_instance(tmp_path_factory.mktemp("schemathesis")))
    config = SchemathesisConfig.from_dict({
        "checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}},
        # /score's scenario (objectives, exits, casualties) would more than double the coverage
        # phase's cases for it (every case its schema defines, ~1,100 against ~600 for the other
        # situation endpoints: ~20 s of CPU); its fuzzing here and tests/test_score.py's property
        # test over scenarios cover it instead.
        "operations": [{"include-path": "/api/v1/score", "phases": {"coverage": {"enabled": False}}}],
    })
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    """Schemathesis' lazy test names each operation's subtest after ``node._nodeid``, an attribute
    pytest 9 no longer has (it keeps the id elsewhere): give it the id it reads."""
    request.node._nodeid = request.node.nodeid


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_matches_its_openapi_document(case):
    # Identity encoding: the WSGI client does not decompress gzip bodies.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance])
