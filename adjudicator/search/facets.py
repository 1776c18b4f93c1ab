"""The facet counts beside the hits: how many of the matching entries are of each kind and each
expansion, so the page can offer the other choices with their counts.

Each entry's kind and expansion are read once per opened generation into lists indexed by
docnum, so a query's counts and filters are passes in C over its candidates (``map`` and
``Counter``), not a Python loop over the entries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress

from adjudicator.search.documents import Doc


@dataclass(frozen=True)
class Facets:
    kind_of: Sequence[str]
    """docnum -> the entry's kind."""
    expansion_of: Sequence[str]
    """docnum -> the entry's expansion."""

    @classmethod
    def of(cls, docs: Mapping[int, Doc]) -> Facets:
        size = max(docs, default=-1) + 1
        kinds, expansions = [""] * size, [""] * size
        for docnum, doc in docs.items():
            kinds[docnum], expansions[docnum] = doc.kind, doc.expansion
        return cls(tuple(kinds), tuple(expansions))

    def narrowed(self, candidates: Collection[int], kind: str | None,
                 expansion: str | None) -> tuple[Collection[int], Collection[int]]:
        """The candidates of ``kind`` and those of ``expansion`` (all of them for no filter)."""
        return (candidates if kind is None else _with(self.kind_of, kind, candidates),
                candidates if expansion is None else _with(self.expansion_of, expansion, candidates))

    def kinds(self, candidates: Collection[int]) -> dict[str, int]:
        return dict(Counter(map(self.kind_of.__getitem__, candidates)))

    def expansions(self, candidates: Collection[int]) -> dict[str, int]:
        return dict(Counter(map(self.expansion_of.__getitem__, candidates)))


def _with(values: Sequence[str], value: str, candidates: Collection[int]) -> list[int]:
    """The candidates whose entry has ``value`` in ``values``."""
    return list(compress(candidates, map(value.__eq__, map(values.__getitem__, candidates))))
