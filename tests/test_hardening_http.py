"""HTTP details that could be abused or that cost clients: only a static URL
whose ``?v=`` is the file's content hash is immutable (never a 404), redirects never reflect the
``Host`` header, gzip answers keep a stable ETag (so gzip-only clients get 304), and a chunked
body over the size limit is 413."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from adjudicator.web.security import asset_version
from tests.conftest import serving

IMMUTABLE = "public, max-age=31536000, immutable"


def test_static_file_with_its_content_hash_is_immutable(client, app):
    version = asset_version(app.static_folder, "css/site.css")
    response = client.get(f"/static/css/site.css?v={version}")
    assert response.status_code == 200 and response.headers["Cache-Control"] == IMMUTABLE


@pytest.mark.parametrize("version", ["0", "deadbeef00", "x", "1" * 10])
def test_static_file_with_another_version_is_not_cached_for_a_year(client, version):
    response = client.get(f"/static/css/site.css?v={version}")
    assert response.status_code == 200
    assert "immutable" not in response.headers["Cache-Control"]


@pytest.mark.parametrize("path", ["/static/css/nope.css?v=0", "/static/nope.js?v=abc", "/static/?v=1"])
def test_missing_static_file_is_never_cached(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "immutable" not in response.headers["Cache-Control"] and "max-age=3" not in response.headers["Cache-Control"]


@pytest.mark.parametrize("path", ["/rules", "/rules/terrain"])
def test_trailing_slash_redirect_does_not_reflect_the_host_header(client, path):
    response = client.get(path, headers={"Host": "evil.example"})
    assert response.status_code in (301, 308)
    location = response.headers["Location"]
    assert "evil.example" not in location and location.startswith("/")
    assert location.rstrip("/") == path


def test_gzip_etag_is_stable_and_a_gzip_only_client_gets_304(client):
    headers = {"Accept-Encoding": "gzip"}
    first = client.get("/rules/terrain/forest", headers=headers)
    assert first.headers["Content-Encoding"] == "gzip"
    time.sleep(1.1)  # gzip stamps the second it compressed; the tag must not follow it
    second = client.get("/rules/terrain/forest", headers=headers)
    assert first.headers["ETag"] == second.headers["ETag"]
    again = client.get("/rules/terrain/forest", headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    plain = client.get("/rules/terrain/forest", headers={"Accept-Encoding": "identity"})
    assert plain.headers["ETag"] != first.headers["ETag"]  # a different representation, a different tag
    assert client.get("/rules/terrain/forest", headers={"If-None-Match": plain.headers["ETag"],
                                                         "Accept-Encoding": "identity"}).status_code == 304


def chunked_post(base: str, path: str, body: bytes, content_type: str = "application/json") -> tuple[int, dict]:
    port = int(base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def chunks():
        for i in range(0, len(body), 16384):
            yield body[i:i + 16384]

    connection.request("POST", path, body=chunks(), headers={"Content-Type": content_type}, encode_chunked=True)
    response = connection.getresponse()
    status, data = response.status, response.read()
    connection.close()
    return status, json.loads(data)


def test_chunked_body_over_the_limit_is_413_not_bad_json(app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = json.dumps({"units": [], "pad": "x" * (limit + 1000)}).encode()
    small = json.dumps({"units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10,
                                   "figures": 4}], "unit": "A", "flags": 0}).encode()
    with serving(app) as base:
        status, answer = chunked_post(base, "/api/v1/battle", body)
        assert status == 413, answer
        assert answer["error"]["field"] == "(body)"
        assert chunked_post(base, "/api/v1/retreat", small)[0] == 200  # a small chunked body still works
