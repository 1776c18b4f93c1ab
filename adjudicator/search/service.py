"""One search, start to end: read the query, score with the index, re-rank, count the facets,
cut the snippets, and keep the answer for the next player who asks the same."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from adjudicator.search.query import parse_query
from adjudicator.search.ranking import rank
from adjudicator.search.snippets import snippet
from adjudicator.search.whoosh_index import Generation, index_root, opened

RESULTS_CACHE_MAX_QUERY = 200  # long pasted texts are not worth keeping


@dataclass(frozen=True)
class Hit:
    id: str
    kind: str
    name: str
    url: str
    expansion: str
    snippet: Markup
    score: float


@dataclass(frozen=True)
class Results:
    query: str
    hits: tuple[Hit, ...]
    total: int
    kinds: dict[str, int]
    expansions: dict[str, int]
    suggestion: str | None


def search(
    instance_path: Path,
    raw: str,
    *,
    kind: str | None = None,
    expansion: str | None = None,
    limit: int = 20,
    typing: bool | None = None,
) -> Results:
    """Search the index built for ``instance_path``; raises ``LookupError`` if there is none.

    ``kind`` / ``expansion`` filter the hits (callers validate them); the facet counts per kind
    ignore the kind filter, those per expansion ignore the expansion filter, so the page can offer
    the other choices with their counts."""
    generation = opened(instance_path)
    if generation is None:
        raise LookupError(f"no search index in {index_root(instance_path)}")
    key = (raw, kind, expansion, limit, typing)
    cached = generation.cached(key)
    if cached is not None:
        return cached
    results = search_generation(generation, raw, kind=kind, expansion=expansion, limit=limit, typing=typing)
    if len(raw) <= RESULTS_CACHE_MAX_QUERY:
        generation.remember(key, results)
    return results


def search_generation(
    generation: Generation, raw: str, *, kind: str | None, expansion: str | None, limit: int, typing: bool | None
) -> Results:
    """``search`` on an opened generation, without the cache (the benchmark times this)."""
    parsed = parse_query(raw, generation, typing)
    scores = generation.scores(parsed)
    if scores is None:
        return Results(parsed.text, (), 0, {}, {}, None)
    ranked = rank(parsed, generation, scores)
    docs = generation.docs
    kinds = Counter(docs[d].kind for d, _ in ranked if expansion in (None, docs[d].expansion))
    expansions = Counter(docs[d].expansion for d, _ in ranked if kind in (None, docs[d].kind))
    chosen = [
        (d, s) for d, s in ranked
        if kind in (None, docs[d].kind) and expansion in (None, docs[d].expansion)
    ]
    stems = parsed.stems
    hits = tuple(
        Hit(docs[d].id, docs[d].kind, docs[d].name, docs[d].url, docs[d].expansion, snippet(docs[d], stems), s)
        for d, s in chosen[:limit]
    )
    suggestion = parsed.suggestion
    if suggestion is not None and suggestion == parsed.text.lower():
        suggestion = None
    return Results(parsed.text, hits, len(chosen), dict(kinds), dict(expansions), suggestion)
