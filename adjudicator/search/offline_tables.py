"""The tables offline search reads: one ranking definition, run by offline-search.js.

Everything ``service.search`` reads, as plain JSON, so the browser runs the same steps: the
analysis (stop words, every known word's stems, the synonym table), the vocabulary for typo
correction and completion, the reading weights and limits, each entry's name phrases and
specificity, and the BM25F postings (``Generation.bm25``). The browser copies
``query.parse_query``, ``whoosh_index.whoosh_query``'s scoring, ``ranking.named_entries`` and
``ranking.rank`` step by step; only words absent from the whole index are stemmed by its own small
fallback."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.search.fields import BM25_B, BM25_K1, FIELD_BOOSTS
from adjudicator.search.query import (
    MAX_QUERY_CHARS,
    MAX_WORDS,
    NAMING_WEIGHT,
    WEIGHT_FUZZY,
    WEIGHT_PREFIX,
    WEIGHT_PREFIX_OTHER,
    WEIGHT_SYNONYM,
    WEIGHT_TYPED,
)
from adjudicator.search.ranking import LENGTH_BONUS

if TYPE_CHECKING:
    from adjudicator.search.whoosh_index import Generation


def offline_tables(generation: Generation) -> dict[str, Any]:
    """The tables of one opened generation, built once per generation."""
    cached = generation.__dict__.get("_offline_tables")
    if cached is not None:
        return cached
    analysis = generation.analysis
    vocabulary = generation.vocabulary
    words = set(vocabulary.frequencies) | {w for k, vs in generation.synonyms.table.items()
                                           for part in (k, *vs) for w in part}
    stems = {w: " ".join(analysis.stems(w)) for w in sorted(words)}
    order = sorted(generation.docs)
    position = {docnum: i for i, docnum in enumerate(order)}
    bm25 = generation.bm25(order)
    phrases: dict[int, list[list[str]]] = {}
    for found in generation.phrases.values():
        for docnum, phrase in found:
            phrases.setdefault(position[docnum], []).append(list(phrase))
    docs = [generation.docs[d] for d in order]
    tables = {
        "stoplist": sorted(analysis.stoplist),
        "stems": {w: s for w, s in stems.items() if s != w},
        "frequencies": vocabulary.frequencies,
        "name_words": sorted(vocabulary.name_words),
        "synonyms": [[list(k), [list(v) for v in vs]] for k, vs in generation.synonyms.table.items()],
        "weights": {"typed": WEIGHT_TYPED, "synonym": WEIGHT_SYNONYM, "fuzzy": WEIGHT_FUZZY, "prefix": WEIGHT_PREFIX,
                    "prefix_other": WEIGHT_PREFIX_OTHER, "naming": NAMING_WEIGHT, "length_bonus": LENGTH_BONUS},
        "limits": {"max_query_chars": MAX_QUERY_CHARS, "max_words": MAX_WORDS},
        "bm25": {"B": BM25_B, "K1": BM25_K1, "boosts": FIELD_BOOSTS, "doc_count": bm25["doc_count"],
                 "averages": bm25["averages"], "lengths": bm25["lengths"], "postings": bm25["postings"]},
        "docs": [[d.id, d.kind, d.expansion, d.name, d.url, d.summary, d.specificity, phrases.get(i, []),
                  sorted(d.literals)] for i, d in enumerate(docs)],
    }
    generation.__dict__["_offline_tables"] = tables
    return tables
