"""Schemathesis generates requests from ``/api/v1/openapi.json`` and checks every response.

It catches server errors, responses that do not match the documented schemas, malformed input
that is accepted, and missing ``Allow`` headers. One check is left out on purpose:
``positive_data_acceptance`` — a schema cannot say that a hex must lie on the board or that a
unit may not battle itself, so schema-valid requests are rightly refused with a 400 naming the
field. And a body over the size limit is rightly refused with 413, which schemathesis does not
count as a rejection by default."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig

from tests.conftest import make_app, seed_instance

# The schema is read at import, so every xdist worker builds this app to collect: without the
# database and index, which only the workers that run the test build (``built`` below).
app = make_app(Path(tempfile.mkdtemp(prefix="schemathesis-")), SKIP_BUILD=True)
REJECTIONS = ["400", "404", "405", "406", "413", "415", "422"]  # what our API answers to bad input
config = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)


@pytest.fixture(scope="module", autouse=True)
def built() -> None:
    """What ``create_app`` builds at start (the database and search index): the run's built
    instance, copied in by the worker that runs these tests."""
    seed_instance(Path(app.instance_path))


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_matches_its_openapi_document(case):
    # Identity encoding: the WSGI client does not decompress gzip bodies.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance])
