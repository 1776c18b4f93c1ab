"""Every structured field an entry page shows has its label, and every label names a field of the
schema (``engine/rulebook.py``): a field added, renamed or removed in the schema without its label
fails here, so the page never shows a raw field name or keeps a label for a field that is gone."""

from __future__ import annotations

import dataclasses

from adjudicator.content.facts import LABELS, describe
from adjudicator.engine.rulebook import KIND_RULES


def schema_fields() -> set[str]:
    return {f.name for rules in KIND_RULES.values() for f in dataclasses.fields(rules)}


def test_every_field_of_every_kind_has_a_label_and_every_label_a_field() -> None:
    fields = schema_fields()
    assert len(fields) > 100
    assert sorted(fields - set(LABELS)) == [], "fields without a label"
    assert sorted(set(LABELS) - fields) == [], "labels of no field"


def test_a_page_row_shows_the_fields_label_not_its_name() -> None:
    rows = describe({"blocks_los": True, "dice_reductions": [{"dice": {"infantry": 1}}]}, lambda _id: None)
    assert [(r.key, r.label) for r in rows] == [("dice_reductions", LABELS["dice_reductions"]),
                                                ("blocks_los", LABELS["blocks_los"])]
    assert all(r.label != r.key for r in rows)
