"""The engine's answers do not change when it is made faster: every example of the builder's
gallery and a few hundred seeded random battles, retreats and rolls applied give exactly the JSON
stored in ``tests/stored_answers.json.gz`` (``tests/stored_answers.py`` says what the cases are
and how to rewrite the file when a change means to change answers)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.rulebook import Rulebook
from tests.stored_answers import answers, stored


def first_difference(expected: Any, actual: Any, where: str = "$") -> str | None:
    """Where ``actual`` first differs from ``expected`` (keys, lengths, values, types), or None."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(expected) != set(actual):
            return f"{where}: keys {sorted(set(expected) ^ set(actual))} differ"
        return next((d for k in expected if (d := first_difference(expected[k], actual[k], f"{where}.{k}"))), None)
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items stored, {len(actual)} now"
        return next((d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                     if (d := first_difference(e, a, f"{where}[{i}]"))), None)
    if expected != actual or type(expected) is not type(actual):
        return f"{where}: stored {expected!r}, now {actual!r}"
    return None


def test_every_stored_answer_is_given_again_byte_for_byte(rulebook: Rulebook) -> None:
    expected = stored()
    found = answers(rulebook)
    assert set(found) == set(expected), "the cases changed: rewrite the file (python -m tests.stored_answers --write)"
    problems = [f"{name}: {d}" for name in expected if (d := first_difference(expected[name], found[name]))]
    assert not problems, f"{len(problems)} answers changed:\n" + "\n".join(problems[:10])


def test_the_stored_cases_rule_on_legal_battles_retreats_and_rolls() -> None:
    expected = stored()
    legal = [n for n, a in expected.items() if n.endswith("battle") and a["answer"].get("legal")]
    rolls = [n for n, a in expected.items() if n.endswith("resolve") and a["status"] == 200]
    retreats = [n for n, a in expected.items() if a["status"] == 200 and a["answer"].get("retreat", {}).get("options")]
    assert len(legal) >= 40 and len(rolls) >= 40 and len(retreats) >= 40


def test_first_difference_names_the_path_that_differs() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "$.a[1].b: stored 2, now 3"
    assert first_difference({"a": 1}, {"a": 1.0}) == "$.a: stored 1, now 1.0"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "$.a: 1 items stored, 2 now"
