"""BM25F from postings held in memory: the scores of Whoosh's BM25F, without its matchers.

The index is small (a few hundred entries, a few thousand stems), so every stem's score in every
entry is computed once per generation, when it is opened, and a query only adds up the scores of
its readings: a tenth of the time Whoosh's pure-Python matchers took to find the same numbers.
The table read here (``Table``) is the one ``offline_tables`` sends the browser, and
offline-search.js's ``scoreAll`` runs these same steps on it, in the same order of additions, so
the server and the browser rank on identical numbers; a test checks them against Whoosh's own
``searcher.search``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.search.fields import BM25_B, BM25_K1, FIELD_BOOSTS, TEXT_FIELDS
from adjudicator.search.query import ParsedQuery


@dataclass(frozen=True)
class Table:
    """What BM25F reads, over the entries in index order (positions, not Whoosh docnums)."""

    doc_count: int
    averages: Mapping[str, float]
    """Each field's average length (Whoosh's, from the lengths it stores)."""
    lengths: Mapping[str, Sequence[int]]
    """Each field's length in each entry, as Whoosh stores it (one byte, so rounded)."""
    postings: Mapping[str, Mapping[str, Sequence[float]]]
    """Field -> stem -> [entry position, term frequency, entry position, ...]."""

    def to_json(self) -> dict[str, Any]:
        return {"doc_count": self.doc_count, "averages": dict(self.averages), "lengths": dict(self.lengths),
                "postings": dict(self.postings)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        return cls(data["doc_count"], data["averages"], data["lengths"], data["postings"])


def field_scores(table: Table, field: str, stem: str) -> dict[int, float]:
    """BM25 of ``stem`` in ``field`` for each entry position that holds it: Whoosh's BM25F with
    the field's boost applied to the term frequency, as the index weighs it."""
    flat = table.postings[field].get(stem)
    if not flat:
        return {}
    idf = math.log(table.doc_count / (len(flat) // 2 + 1)) + 1
    boost = FIELD_BOOSTS[field]
    lengths = table.lengths[field]
    average = table.averages[field]
    out: dict[int, float] = {}
    for k in range(0, len(flat), 2):
        doc = int(flat[k])
        tf = flat[k + 1] * boost
        out[doc] = idf * ((tf * (BM25_K1 + 1)) / (tf + BM25_K1 * ((1 - BM25_B) + (BM25_B * lengths[doc]) / average)))
    return out


class Scorer:
    """Every stem's BM25F score per entry (summed over the fields), computed once per generation."""

    def __init__(self, table: Table, docnums: Sequence[int]) -> None:
        stems = dict.fromkeys(stem for field in TEXT_FIELDS for stem in table.postings[field])
        self._by_stem: dict[str, dict[int, float]] = {}
        for stem in stems:
            total: dict[int, float] = {}
            for field in TEXT_FIELDS:
                for position, value in field_scores(table, field, stem).items():
                    doc = docnums[position]
                    total[doc] = total.get(doc, 0.0) + value
            self._by_stem[stem] = total

    def stem_scores(self, stem: str) -> Mapping[int, float]:
        """docnum -> the stem's score summed over the fields, name first."""
        return self._by_stem.get(stem, {})

    def scores(self, parsed: ParsedQuery) -> dict[int, float] | None:
        """BM25F score of every entry any reading matches (docnum -> score); None when the query
        has nothing to look for.

        Any reading of any group may match, weighed by how sure it is; a stem read several ways
        counts once, at its surest; a multi-word reading counts only where all its words are,
        once per word. Additions run in offline-search.js's order: single stems in the order
        read, then the multi-word readings."""
        weights: dict[str, float] = {}
        phrases: list[tuple[float, tuple[str, ...]]] = []
        for group in parsed.groups:
            for alternative in group:
                if len(alternative.stems) == 1:
                    stem = alternative.stems[0]
                    weights[stem] = max(weights.get(stem, 0.0), alternative.weight)
                else:
                    phrases.append((alternative.weight, alternative.stems))
        if not weights and not phrases:
            return None
        scores: dict[int, float] = {}
        get = scores.get
        for stem, weight in weights.items():
            if not scores:  # the first stem: each sum starts at 0, and 0 + x is x
                scores = {doc: weight * value for doc, value in self.stem_scores(stem).items()}
                get = scores.get
                continue
            for doc, value in self.stem_scores(stem).items():
                scores[doc] = get(doc, 0.0) + weight * value
        for weight, stems in phrases:
            maps = [self.stem_scores(stem) for stem in stems]
            everywhere = set(maps[0]).intersection(*maps[1:])
            for doc in maps[0]:
                if doc in everywhere:
                    total = 0.0
                    for m in maps:
                        total += m[doc]
                    scores[doc] = get(doc, 0.0) + weight * total
        return scores
