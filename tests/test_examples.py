"""Every situation example (``adjudicator/examples/*.yaml``, format in its README) is posted to
its endpoint and must produce what it expects: ``expect`` is a recursive subset of the answer
(objects: every expected key matches; lists: the same length, element by element). The same
files are the builder's example gallery, so a wrong example fails here before anyone sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient

from adjudicator.engine.rulebook import Rulebook

EXAMPLES = Path(__file__).resolve().parent.parent / "adjudicator" / "examples"
FILES = sorted(EXAMPLES.glob("*.yaml"))
ENDPOINTS = {"line-of-sight", "battle", "retreat", "resupply", "move", "resolve", "fire-map", "score", "order"}
KEYS = {"title", "rule", "endpoint", "situation", "request", "expect"}


def load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name}: must be a mapping"
    return data


def mismatch(expected: Any, actual: Any, where: str = "$") -> str | None:
    """Where ``expected`` is not a recursive subset of ``actual``, or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key}: missing from the answer"
            found = mismatch(value, actual[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where}: expected {len(expected)} items, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = mismatch(e, a, f"{where}[{i}]")
            if found:
                return found
        return None
    if expected != actual or (type(expected) is bool and type(actual) is not bool):
        return f"{where}: expected {expected!r}, got {actual!r}"
    return None


def test_there_are_line_of_sight_and_battle_examples() -> None:
    endpoints = [load(f)["endpoint"] for f in FILES]
    assert endpoints.count("line-of-sight") >= 3 and endpoints.count("battle") >= 3


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_is_well_formed(path: Path, rulebook: Rulebook) -> None:
    data = load(path)
    assert set(data) == KEYS, f"{path.name}: keys must be exactly {sorted(KEYS)}"
    assert isinstance(data["title"], str) and data["title"].strip() and "\n" not in data["title"]
    assert data["rule"] in rulebook.kinds, f"{path.name}: rule {data['rule']!r} names no entry"
    assert data["endpoint"] in ENDPOINTS
    assert isinstance(data["situation"], dict) and isinstance(data["request"], dict)
    assert isinstance(data["expect"], dict) and data["expect"]
    assert not set(data["request"]) & set(data["situation"]), "request fields must not shadow the situation"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_gives_the_expected_ruling(path: Path, client: FlaskClient) -> None:
    data = load(path)
    response = client.post(f"/api/v1/{data['endpoint']}", json={**data["situation"], **data["request"]})
    assert response.status_code == 200, response.get_json()
    problem = mismatch(data["expect"], response.get_json())
    assert problem is None, f"{path.name}: {problem}"


@pytest.mark.parametrize(("expected", "actual", "ok"), [
    ({"a": 1}, {"a": 1, "b": 2}, True),
    ({"a": {"b": [1, {"c": 2}]}}, {"a": {"b": [1, {"c": 2, "d": 3}]}}, True),
    ({"a": [1]}, {"a": [1, 2]}, False),
    ({"a": 1}, {"a": 2}, False),
    ({"a": 1}, {}, False),
    ({"a": True}, {"a": 1}, False),
    ({"a": None}, {"a": None}, True),
    ({"a": [{"b": 1}]}, {"a": [{"b": 2}]}, False),
])
def test_subset_matching(expected: Any, actual: Any, ok: bool) -> None:
    assert (mismatch(expected, actual) is None) is ok
