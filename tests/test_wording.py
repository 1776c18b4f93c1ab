"""The engine's reasons speak one stable format (docs/contracts.md §1; engine/wording.py):
every reason is made with ``say(code, ...)``, every code has its template, every template's
fields are given where the reason is made, and no text the engine returns names a unit by its id —
through the API, over the example gallery and a few hundred random situations."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient

from adjudicator.engine.reasons import EntryRef, HexRef, UnitRef
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.wording import MESSAGES, render, say
from adjudicator.web.openapi import REASON_ENTRY, REASON_HEX, REASON_UNIT

ENGINE = Path(__file__).resolve().parent.parent / "adjudicator" / "engine"
EXAMPLES = Path(__file__).resolve().parent.parent / "adjudicator" / "examples"
FIELD = string.Formatter()


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in FIELD.parse(template) if name}


SAYERS = ("say", "say_params")  # ``say_params(code, rule, {params})`` takes them worked out elsewhere


def given_params(call: ast.Call) -> set[str] | None:
    """The parameter names a call gives, or None when they are unpacked (checked when rendered)."""
    if call.func.id == "say":  # type: ignore[attr-defined]
        if any(k.arg is None for k in call.keywords):
            return None
        return {k.arg for k in call.keywords if k.arg is not None} - {"dice", "fact"}
    params = call.args[2] if len(call.args) > 2 else None
    if isinstance(params, ast.Dict) and all(isinstance(k, ast.Constant) for k in params.keys):
        return {k.value for k in params.keys}  # type: ignore[union-attr]
    return None


def say_calls() -> Iterator[tuple[str, int, ast.Call, dict[str, list[ast.expr]]]]:
    """Every ``say(...)`` call in the engine's modules: (file, line, call, the values each local
    name of its function is given)."""
    for path in sorted(ENGINE.glob("*.py")):
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, (ast.FunctionDef, ast.Lambda)):
                continue
            names: dict[str, list[ast.expr]] = {}
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    names.setdefault(node.targets[0].id, []).append(node.value)
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SAYERS:
                    yield path.name, node.lineno, node, names


def _choices(node: ast.expr, names: dict[str, list[ast.expr]], seen: frozenset[str] = frozenset()) -> str | None:
    """A regular expression for the strings ``node`` can be; None when it cannot tell. A name is
    any value it is given in its function (one it is given from itself adds nothing)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.IfExp):
        a, b = _choices(node.body, names, seen), _choices(node.orelse, names, seen)
        return f"(?:{a}|{b})" if a is not None and b is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [_choices(v.value if isinstance(v, ast.FormattedValue) else v, names, seen) for v in node.values]
        return None if None in parts else "".join(p for p in parts if p is not None)
    if isinstance(node, ast.BoolOp) or (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict)):
        values = node.values if isinstance(node, ast.BoolOp) else node.value.values  # type: ignore[attr-defined]
        options = [_choices(v, names, seen) for v in values]
        return None if None in options else "(?:" + "|".join(o for o in options if o is not None) + ")"
    if isinstance(node, ast.Name) and node.id in seen:
        return ""
    if isinstance(node, ast.Name) and node.id in names:
        options = [_choices(v, names, seen | {node.id}) for v in names[node.id]]
        return None if None in options else "(?:" + "|".join(o for o in options if o is not None) + ")"
    return None


def code_pattern(node: ast.expr, names: dict[str, list[ast.expr]]) -> re.Pattern[str] | None:
    """The codes a call's first argument can name; None for a code taken from another reason
    (``stop.code.replace(...)``: a derived family, checked below)."""
    pattern = _choices(node, names)
    return re.compile(pattern) if pattern is not None else None


DERIVED = {"los.crosses_": "los.", "move.beyond_": "move.", "resolve.hit_": "hits.", "resolve.miss_": "hits."}
"""Codes made from another reason's code: a cause after the hex it blocks, a stop after the hex it
keeps the unit from, a hit reason after the dice it is about."""


def test_the_engine_makes_every_reason_with_say() -> None:
    """No module builds a ``Reason`` by hand (its text would not come from a template)."""
    for path in sorted(ENGINE.glob("*.py")):
        if path.name in ("reasons.py", "wording.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hand_made = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) and n.func.id == "Reason"]
        assert hand_made == [], f"{path.name}: Reason(...) at lines {hand_made}; use wording.say"


def test_every_code_the_engine_says_has_a_template_with_its_fields_given() -> None:
    checked = 0
    for name, line, call, names in say_calls():
        pattern = code_pattern(call.args[0], names)
        if pattern is None:
            continue
        codes = [c for c in MESSAGES if pattern.fullmatch(c)]
        assert codes, f"{name}:{line}: no template for a code matching {pattern.pattern!r}"
        given = given_params(call)
        if given is None:
            continue
        for code in codes:
            missing = fields(MESSAGES[code]) - given
            assert not missing, f"{name}:{line}: {code} needs {sorted(missing)}"
            checked += 1
    assert checked > 200


def test_every_template_is_said_somewhere() -> None:
    """A template no code of the engine can reach is a sentence nobody reads (or a misspelt code)."""
    patterns = [p for _, _, call, names in say_calls() if (p := code_pattern(call.args[0], names)) is not None]
    unsaid = [c for c in MESSAGES if not any(p.fullmatch(c) for p in patterns)]
    derived = [c for c in unsaid if c.startswith(tuple(DERIVED))]
    assert sorted(set(unsaid) - set(derived)) == []
    for code in derived:  # a derived code stands for its base code's sentence
        prefix = next(p for p in DERIVED if code.startswith(p))
        assert DERIVED[prefix] + code[len(prefix):] in MESSAGES, code


def test_codes_are_area_dot_name() -> None:
    assert all(re.fullmatch(r"[a-z_]+\.[a-z_]+", code) for code in MESSAGES)


def test_a_template_writes_counts_lists_and_refs_as_players_read_them() -> None:
    d7 = HexRef(2, 6, "D7")
    armor = UnitRef("u-secret", "axis", "armor", "Armor", d7)
    forest = EntryRef("forest", "terrain", "Forest", d7)
    assert render("move.entry_risk", {"terrain": forest, "rolls": 1, "per": 2, "faces": ("star", "grenade")}) == \
        "Moving onto Forest at D7: roll 1 die, 2 figures lost for each star or grenade"
    assert render("flags.may_ignore", {"source": forest, "unit": armor, "count": "all"}) == \
        "Forest at D7: Axis Armor at D7 may ignore all flags"
    reason = say("entry.occupied", "movement", hex=d7, occupant=armor)
    assert reason.text == "D7 holds Axis Armor at D7: no unit enters or passes through a hex another unit holds"
    assert reason.to_dict()["params"]["occupant"] == {"unit": "u-secret", "side": "axis", "type": "armor",
                                                      "row": 2, "col": 6, "hex": "D7", "name": "Axis Armor at D7"}


def test_a_missing_field_is_an_error_not_a_blank() -> None:
    with pytest.raises(KeyError):
        _ = say("entry.occupied", "movement", hex=HexRef(0, 0, "A9")).text


# -- no unit id in any text, through the API -----------------------------------------------------

def texts(answer: Any, where: str = "$") -> Iterator[tuple[str, str]]:
    """(path, text) of every sentence in an answer: reason texts and line-of-sight blocker reasons."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in ("text", "reason") and isinstance(value, str):
                yield f"{where}.{key}", value
            else:
                yield from texts(value, f"{where}.{key}")
    elif isinstance(answer, list):
        for i, value in enumerate(answer):
            yield from texts(value, f"{where}[{i}]")


def assert_no_id_in_text(answer: Any, ids: list[str]) -> int:
    said = list(texts(answer))
    for where, text in said:
        named = [i for i in ids if i in text]
        assert not named, f"{where} names unit id(s) {named}: {text!r}"
    return len(said)


def reasons(answer: Any) -> Iterator[dict[str, Any]]:
    """Every reason object in an answer (anything with a ``code`` and a ``rule``)."""
    if isinstance(answer, dict):
        if isinstance(answer.get("code"), str) and isinstance(answer.get("rule"), str):
            yield answer
        for value in answer.values():
            yield from reasons(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from reasons(value)


def assert_reasons_cite_real_rules(answer: Any, rulebook: Rulebook) -> None:
    """Each reason cites an entry that exists, with a known code, its ``fact`` is a field of that
    entry's rules (engine/rulebook.py), and each parameter object is a unit, a hex or an entry as
    the OpenAPI document's components describe them."""
    for reason in reasons(answer):
        assert reason["code"] in MESSAGES, reason
        assert reason["rule"] in rulebook.kinds, reason
        if "fact" in reason:
            assert reason["fact"] in {f.name for f in dataclasses.fields(rulebook.rules[reason["rule"]])}, reason
        for value in reason["params"].values():
            for item in value if isinstance(value, list) else [value]:
                assert not isinstance(item, dict) or any(
                    set(shape["required"]) <= set(item) and set(item) <= set(shape["properties"])
                    for shape in (REASON_UNIT, REASON_HEX, REASON_ENTRY)), (reason["code"], item)


def renamed(doc: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """``doc`` with every unit id replaced by a distinctive one (and every reference to it)."""
    ids = {u["id"]: f"Q{rng.randrange(10**6):06d}zx" for u in doc.get("units", [])}

    def swap(value: Any) -> Any:
        if isinstance(value, str) and value in ids:
            return ids[value]
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value
    return swap(doc), list(ids.values())


GALLERY = sorted(EXAMPLES.glob("*.yaml"))


@pytest.mark.parametrize("path", GALLERY, ids=[p.stem for p in GALLERY])
def test_no_text_of_a_gallery_example_names_a_unit_by_its_id(path: Path, client: FlaskClient,
                                                             rulebook: Rulebook) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    body, ids = renamed({**data["situation"], **data["request"]}, random.Random(path.stem))
    response = client.post(f"/api/v1/{data['endpoint']}", json=body)
    assert response.status_code == 200, response.get_json()
    assert assert_no_id_in_text(response.get_json(), ids) > 0
    assert_reasons_cite_real_rules(response.get_json(), rulebook)


TERRAINS = ("forest", "hill", "town", "hedgerow", "river", "marsh", "beach", "bunker", "sandbags", "wire", "bridge",
            "mountain", "ocean", "frozen_river", "minefield", "cliff", "road", "jungle", "fordable_stream", "church")
UNITS = (("infantry", 4, []), ("armor", 3, []), ("artillery", 2, []), ("infantry", 4, ["special_forces"]),
         ("armor", 3, ["tank_destroyer"]), ("half_track", 2, []), ("supply_truck", 2, []),
         ("infantry", 4, ["camouflage"]), ("infantry", 4, ["combat_engineer"]))
NATIONS = (None, None, "japanese", "british", "italian", "french_resistance")
CARDS = (None, None, None, "armor_assault", "close_assault", "behind_enemy_lines", "firefight", "ambush", "air_power")


def random_request(rng: random.Random, rulebook: Rulebook) -> tuple[str, dict[str, Any]]:
    hexes: dict[tuple[int, int], dict[str, Any]] = {}
    for _ in range(rng.randrange(4, 16)):
        row = rng.randrange(9)
        col = rng.randrange(row % 2, 25 - row % 2, 2)
        name = rng.choice(TERRAINS)
        kind = rulebook.kinds[name]
        hexes[(row, col)] = {"row": row, "col": col, ("terrain" if kind == "terrain" else "obstacle"): name}
    spots = [(r, c) for r in range(3, 7) for c in range(r % 2, 25 - r % 2, 2) if (r, c) not in hexes]
    rng.shuffle(spots)
    units = []
    for i, (row, col) in enumerate(spots[:rng.randrange(2, 7)]):
        kind, figures, badges = rng.choice(UNITS)
        unit: dict[str, Any] = {"id": f"u{i}", "side": "allies" if i % 2 else "axis", "type": kind, "row": row,
                                "col": col, "figures": rng.randrange(1, figures + 1), "badges": badges,
                                "moved": rng.choice((0, 0, 1, 2))}
        if (nation := rng.choice(NATIONS)) is not None and kind == "infantry" and not badges:
            unit["nation"] = nation
        units.append(unit)
    doc: dict[str, Any] = {"hexes": list(hexes.values()), "units": units,
                           "rules": rng.choice(([], [], ["winter_weather"], ["resupply"], ["reduced_visibility"]))}
    a, t = rng.sample([u["id"] for u in units], 2)
    endpoint = rng.choice(("battle", "battle", "move", "retreat", "resupply", "fire-map", "line-of-sight", "resolve"))
    card = rng.choice(CARDS)
    extra: dict[str, Any] = {
        "battle": {"attacker": a, "target": t, "card": card},
        "resolve": {"attacker": a, "target": t, "card": card},
        "move": {"unit": a, "card": card, "to": {"row": units[1]["row"], "col": units[1]["col"]}},
        "retreat": {"unit": t, "flags": rng.randrange(1, 4), "hits": rng.randrange(0, 2)},
        "resupply": {"supplier": a},
        "fire-map": {"unit": rng.choice((None, a))},
        "line-of-sight": {"from": {"row": units[0]["row"], "col": units[0]["col"]},
                          "to": {"row": units[1]["row"], "col": units[1]["col"]}},
    }[endpoint]
    return endpoint, {**doc, **{k: v for k, v in extra.items() if v is not None}}


def test_no_text_of_a_random_situation_names_a_unit_by_its_id(client: FlaskClient, rulebook: Rulebook) -> None:
    rng = random.Random(2744)
    answered = said = 0
    for _ in range(240):
        endpoint, request = random_request(rng, rulebook)
        body, ids = renamed(request, rng)
        if endpoint == "resolve":  # roll as many dice as the battle rolls
            battle = client.post("/api/v1/battle", json=body).get_json()
            dice = battle.get("dice") or 0
            body["rolled"] = {"grenade": dice // 2, "flag": dice - dice // 2}
        response = client.post(f"/api/v1/{endpoint}", json=body)
        assert response.status_code in (200, 400), (endpoint, response.get_json())
        if response.status_code == 200:
            answered += 1
            said += assert_no_id_in_text(response.get_json(), ids)
            assert_reasons_cite_real_rules(response.get_json(), rulebook)
    assert answered > 150 and said > 1200
