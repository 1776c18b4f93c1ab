"""The compiled rulebook: a ``Rulebook`` as plain JSON and back, with the standard library only.

The server builds its ``Rulebook`` from ``content/`` (YAML, validated by pydantic). The builder's
offline mode runs the same engine in the browser (Pyodide), where neither the content files nor
pydantic are available: ``make build`` writes the rulebook with ``rulebook_to_json`` into the
offline bundle, and the browser rebuilds the identical ``Rulebook`` with ``rulebook_from_json``.
Every structured field the engine reads is carried, so the phone computes from the same numbers.

Encoding: a rule dataclass becomes an object tagged ``"$": <class name>`` holding its fields that
differ from their defaults; tuples become lists. Every sequence in the schema is a tuple, so
decoding turns every list back into a tuple.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from adjudicator.engine import rulebook as schema
from adjudicator.engine.rulebook import Rulebook

FORMAT = 1
CLASSES: dict[str, type] = {
    name: value for name, value in vars(schema).items()
    if isinstance(value, type) and dataclasses.is_dataclass(value) and value is not Rulebook
}
"""Every rule dataclass of the schema, by name (the ``$`` tag)."""


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if CLASSES.get(name) is not type(value):
            raise TypeError(f"{name} is not a rule class of engine.rulebook")
        out: dict[str, Any] = {"$": name}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            default = f.default if f.default is not dataclasses.MISSING else (
                f.default_factory() if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING)
            if default is dataclasses.MISSING or item != default:
                out[f.name] = _encode(item)
        return out
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot compile a {type(value).__name__} into the rulebook JSON")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        if "$" in value:
            cls = CLASSES[value["$"]]
            return cls(**{k: _decode(v) for k, v in value.items() if k != "$"})
        return {k: _decode(v) for k, v in value.items()}
    return value


def rulebook_to_dict(rulebook: Rulebook) -> dict[str, Any]:
    """The rulebook as JSON-ready data (see the module docstring for the encoding)."""
    return {
        "format": FORMAT,
        "names": rulebook.names,
        "kinds": rulebook.kinds,
        "rules": {k: _encode(v) for k, v in rulebook.rules.items()},
        "aliases": {k: list(v) for k, v in rulebook.aliases.items()},
        "bases": rulebook.bases,
    }


def rulebook_to_json(rulebook: Rulebook) -> str:
    """Compact JSON. Keys keep the rulebook's order (lookups such as ``badge_for_unit`` take the
    first match), and the content loads in a fixed order, so the same content gives the same bytes."""
    return json.dumps(rulebook_to_dict(rulebook), separators=(",", ":"), ensure_ascii=False)


def rulebook_from_json(text: str) -> Rulebook:
    """The ``Rulebook`` that ``rulebook_to_json`` wrote."""
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"compiled rulebook format {data.get('format')!r}, expected {FORMAT}")
    return Rulebook(
        names=dict(data["names"]),
        kinds=dict(data["kinds"]),
        rules={k: _decode(v) for k, v in data["rules"].items()},
        aliases={k: tuple(v) for k, v in data["aliases"].items()},
        bases=dict(data["bases"]),
    )
