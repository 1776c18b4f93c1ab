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

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig

from tests.conftest import make_app

app = make_app(Path(tempfile.mkdtemp(prefix="schemathesis-")))
REJECTIONS = ["400", "404", "405", "406", "413", "415", "422"]  # what our API answers to bad input
config = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_matches_its_openapi_document(case):
    # Identity encoding: the WSGI client does not decompress gzip bodies.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance])
