"""The rulebook's lookups are worked out once: the engine asks ``ids_of_kind`` on every request
(the unit types of a situation, the badges, the nations), and the rulebook never changes."""

from __future__ import annotations

from adjudicator.engine.rulebook import Rulebook


def test_ids_of_kind_lists_the_entries_of_those_kinds_in_rulebook_order(rulebook: Rulebook) -> None:
    expected = tuple(entry_id for entry_id, kind in rulebook.kinds.items() if kind in ("badge", "marker"))
    assert expected and rulebook.ids_of_kind("badge", "marker") == expected
    assert rulebook.ids_of_kind("no such kind") == ()


def test_ids_of_kind_is_worked_out_once_per_kinds(rulebook: Rulebook) -> None:
    first = rulebook.ids_of_kind("unit")
    assert rulebook.ids_of_kind("unit") is first  # the same tuple, not a list built again
    assert rulebook.ids_of_kind("terrain", "obstacle") is rulebook.ids_of_kind("terrain", "obstacle")
