"""A worker gives the same bytes again to a ruling it has made (``web.answer_cache``): rulings are
pure functions of the body, the content version and the work budget, so the cache may answer only
when all three are the same, never keeps a refusal, and stays within its size."""

from __future__ import annotations

import dataclasses
import json

import pytest
from flask import Flask

from adjudicator.config import app_config
from adjudicator.web.answer_cache import AnswerCache

BATTLE = {"board": "standard",
          "hexes": [{"row": 4, "col": 12, "terrain": "town"}, {"row": 5, "col": 9, "terrain": "forest"}],
          "units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                    {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 2},
                    {"id": "C", "side": "axis", "type": "infantry", "row": 2, "col": 12, "figures": 3}],
          "attacker": "A", "target": "B", "card": "their_finest_hour"}


def cache_of(app: Flask) -> AnswerCache:
    cache: AnswerCache = app.extensions["answer_cache"]
    return cache


def post(app: Flask, body: bytes, path: str = "/api/v1/battle") -> tuple[int, bytes, dict[str, str]]:
    response = app.test_client().post(path, data=body, headers={"Content-Type": "application/json"})
    return response.status_code, response.get_data(), dict(response.headers)


def test_a_repeated_ruling_is_answered_from_the_cache_with_the_same_bytes_and_headers(app: Flask) -> None:
    body = json.dumps({**BATTLE, "combat_card": None, "repeat": 1}).encode()
    first = post(app, body)
    hits = cache_of(app).hits
    again = post(app, body)
    assert cache_of(app).hits == hits + 1
    assert first[0] == again[0] == 200 and first[1] == again[1] and first[2] == again[2]
    assert json.loads(again[1])["legal"] is True


def test_the_same_json_written_otherwise_is_the_same_entry_but_another_key_order_is_not(app: Flask) -> None:
    doc = {**BATTLE, "repeat": 2}
    post(app, json.dumps(doc).encode())
    cache = cache_of(app)
    hits, misses = cache.hits, cache.misses
    assert post(app, json.dumps(doc, indent=3).encode())[0] == 200
    assert (cache.hits, cache.misses) == (hits + 1, misses)
    post(app, json.dumps(dict(reversed(list(doc.items())))).encode())
    assert cache.misses == misses + 1


def test_a_smaller_work_budget_is_never_answered_with_a_ruling_made_under_a_larger(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    body = json.dumps({**BATTLE, "repeat": 3}).encode()
    assert post(app, body)[0] == 200
    monkeypatch.setitem(app.extensions, "config", dataclasses.replace(app_config(app), engine_work_budget=1))
    status, answer, _ = post(app, body)
    assert status == 422 and json.loads(answer)["error"]["code"] == "too_complex"


def test_refusals_are_not_kept(app: Flask) -> None:
    body = json.dumps({**BATTLE, "target": "nobody"}).encode()
    cache = cache_of(app)
    assert post(app, body)[0] == 400
    size, stored = cache.size, len(cache.items)
    assert post(app, body)[0] == 400
    assert (cache.size, len(cache.items)) == (size, stored)


def test_another_content_version_never_finds_an_answer() -> None:
    cache = AnswerCache("content-1")
    cache.put(cache.key("battle", BATTLE, 100), b"{}")
    assert cache.get(cache.key("battle", BATTLE, 100)) == b"{}"
    other = AnswerCache("content-2")
    assert other.key("battle", BATTLE, 100) != cache.key("battle", BATTLE, 100)
    assert cache.get(other.key("battle", BATTLE, 100)) is None
    assert cache.get(cache.key("line-of-sight", BATTLE, 100)) is None


def test_the_cache_keeps_within_its_size_forgetting_the_least_recently_used() -> None:
    cache = AnswerCache("v", limit=10_000)
    for i in range(100):
        cache.put(cache.key("battle", {"n": i}, 1), b"x" * 500)
        if i >= 1:
            cache.get(cache.key("battle", {"n": 0}, 1))  # kept in use: never the one forgotten
    assert cache.size <= 10_000 and len(cache.items) < 100
    assert cache.get(cache.key("battle", {"n": 0}, 1)) is not None
    assert cache.get(cache.key("battle", {"n": 1}, 1)) is None
    cache.put(cache.key("battle", {"n": "big"}, 1), b"x" * 20_000)
    assert cache.get(cache.key("battle", {"n": "big"}, 1)) is None


def test_the_same_bytes_sent_again_are_answered_before_they_are_parsed(app: Flask, monkeypatch) -> None:
    """The raw-bytes key: the second request of identical bytes never reaches the JSON parser, and
    gets the very bytes of the first answer; other bytes of the same JSON are still parsed."""
    from adjudicator.web import requests as web_requests

    body = json.dumps({**BATTLE, "repeat": "raw"}).encode()
    first = post(app, body)
    assert first[0] == 200

    parsed: list[bytes] = []
    parse = web_requests.parsed_body

    def counted(raw: bytes) -> dict:
        parsed.append(raw)
        return parse(raw)

    monkeypatch.setattr(web_requests, "parsed_body", counted)
    assert post(app, body) == first
    assert parsed == []
    other = json.dumps({**BATTLE, "repeat": "raw"}, indent=1).encode()
    assert post(app, other)[:2] == first[:2]
    assert parsed == [other]


def test_bytes_over_the_size_limit_are_refused_before_the_cache_is_asked(app: Flask) -> None:
    """The body's type and size are checked first: a cached answer never skips a 413 or a 415."""
    body = json.dumps({**BATTLE, "repeat": "limits"}).encode()
    assert post(app, body)[0] == 200
    response = app.test_client().post("/api/v1/battle", data=body, headers={"Content-Type": "text/plain"})
    assert response.status_code == 415
    huge = body[:-1] + b', "pad": "' + b"x" * (app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024) + b'"}'
    assert post(app, huge)[0] == 413
