"""The facet counts beside the hits: how many of the matching entries are of each kind and each
expansion, so the page can offer the other choices with their counts.

Each kind's and each expansion's entries are a set worked out once per opened generation; a
query's counts are set intersections with its candidates (done in C), not a pass in Python over
every candidate."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from adjudicator.search.documents import Doc


def _members(pairs: Iterable[tuple[str, int]]) -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for value, docnum in pairs:
        found.setdefault(value, set()).add(docnum)
    return {value: frozenset(docnums) for value, docnums in sorted(found.items())}


@dataclass(frozen=True)
class Facets:
    kinds: Mapping[str, frozenset[int]]
    """kind -> the docnums of its entries."""
    expansions: Mapping[str, frozenset[int]]
    """expansion -> the docnums of its entries."""

    @classmethod
    def of(cls, docs: Mapping[int, Doc]) -> Facets:
        return cls(_members((doc.kind, n) for n, doc in docs.items()),
                   _members((doc.expansion, n) for n, doc in docs.items()))

    @staticmethod
    def count(members: Mapping[str, frozenset[int]], among: Collection[int]) -> dict[str, int]:
        """How many of ``among`` each value holds (values holding none left out)."""
        candidates = among if isinstance(among, (set, frozenset)) else set(among)
        return {value: n for value, docnums in members.items() if (n := len(docnums & candidates))}

    def narrowed(self, candidates: Collection[int], kind: str | None, expansion: str | None) -> tuple[
            set[int] | frozenset[int], set[int] | frozenset[int]]:
        """The candidates of ``kind`` and those of ``expansion`` (all of them for no filter)."""
        every = candidates if isinstance(candidates, (set, frozenset)) else set(candidates)
        in_kind = every if kind is None else every & self.kinds.get(kind, frozenset())
        in_expansion = every if expansion is None else every & self.expansions.get(expansion, frozenset())
        return in_kind, in_expansion
