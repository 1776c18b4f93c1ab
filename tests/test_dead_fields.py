"""No dead fields: every structured field of ``engine/rulebook.py`` is read by the engine, or is
declared display-only in ``rulebook.DISPLAY_ONLY`` with the reason. A field the content fills but
nothing computes with is how a rule page and a ruling come to disagree."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from adjudicator.engine import rulebook as schema

ROOT = Path(schema.__file__).resolve().parent.parent
# The engine, the Rulebook class itself (badges_lost reads ``lost_when``), the loader, which turns
# ``editor_names`` into the aliases every situation name is resolved with, and the ``.m44`` import,
# which maps the editor's badge numbers (``editor_badges``) onto units.
RULEBOOK_SOURCE = Path(schema.__file__).read_text()
CONSUMERS = "\n".join(
    [p.read_text() for p in sorted((ROOT / "engine").glob("*.py")) if p.name != "rulebook.py"]
    + [RULEBOOK_SOURCE[RULEBOOK_SOURCE.index("class Rulebook"):], (ROOT / "content" / "loader.py").read_text(),
       (ROOT / "m44.py").read_text()]
)


def schema_fields() -> list[str]:
    """``Class.field`` for every field of every content schema class (those that forbid extras)."""
    classes = [c for c in vars(schema).values()
               if isinstance(c, type) and dataclasses.is_dataclass(c) and getattr(c, "__pydantic_config__", None)]
    return [f"{c.__name__}.{f.name}" for c in classes for f in dataclasses.fields(c)]


def is_read(field_name: str, source: str = CONSUMERS) -> bool:
    """Attribute access ``.name`` (not a method call such as ``match.group(1)``) or a ``"name"``
    string (getattr) in the consumers' source."""
    return re.search(rf"\.{field_name}\b(?!\s*\()|[\"']{field_name}[\"']", source) is not None


def test_every_rulebook_field_is_read_by_the_engine_or_declared_display_only() -> None:
    dead = [f for f in schema_fields() if not is_read(f.split(".")[1]) and f not in schema.DISPLAY_ONLY]
    assert dead == [], f"structured fields nothing reads (use them, or declare them in DISPLAY_ONLY): {dead}"


def test_display_only_fields_exist_are_unread_and_say_why() -> None:
    fields = set(schema_fields())
    for name, reason in schema.DISPLAY_ONLY.items():
        assert name in fields, f"{name} is not a field of the schema"
        assert len(reason.split()) >= 5, f"{name}: give the reason it is display-only"
        assert not is_read(name.split(".")[1]), f"{name} is read by the engine: it is not display-only"


def test_the_scan_finds_an_unread_field() -> None:
    """The check can fail: a field nobody reads is reported, one that is read is not."""
    assert not is_read("no_such_movement_field")
    assert is_read("climb_cost") and is_read("beach_climb_forbidden") and is_read("road_move_bonus")
    assert not is_read("climb_cost", "rules.elevation + rules.must_stop")
    assert not is_read("group", "match.group(1)")
