"""A body refused as too large is read (up to a bound) before the 413 is sent: a worker that
answers and closes with the body unread resets the connection while the proxy is still sending
it, and the proxy then answers 503 (app unreachable) instead of passing the 413 on; `make serve`'s
body-limit test saw it once in a few runs."""

from __future__ import annotations

import io
import json

from flask import Flask

from adjudicator.web.requests import DRAIN_AT_MOST


def _post_declared(app: Flask, body: bytes) -> tuple[int, dict, io.BytesIO]:
    stream = io.BytesIO(body)
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/battle", "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": stream}
    response = app.test_client().open(environ_base=environ, path="/api/v1/battle", method="POST",
                                      input_stream=stream, content_type="application/json",
                                      headers={"Content-Length": str(len(body))})
    return response.status_code, json.loads(response.get_data()), stream


def test_a_body_over_the_limit_is_read_before_the_413_is_sent(app: Flask) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = b'{"pad": "' + b"x" * (limit + 1000) + b'"}'
    status, answer, stream = _post_declared(app, body)
    assert status == 413 and answer["error"]["field"] == "(body)"
    assert stream.tell() == len(body)


def test_a_refused_body_is_read_only_up_to_the_bound(app: Flask) -> None:
    body = b'{"pad": "' + b"x" * (DRAIN_AT_MOST + 100_000) + b'"}'
    status, _, stream = _post_declared(app, body)
    assert status == 413
    assert stream.tell() == DRAIN_AT_MOST
