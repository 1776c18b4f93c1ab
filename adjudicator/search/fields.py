"""The indexed text fields and their BM25F weights: the Whoosh schema and offline-search.js weigh
the fields with these same numbers."""

from __future__ import annotations

TEXT_FIELDS = ("name", "aliases", "summary", "facts", "body")

FIELD_BOOSTS = {"name": 6.0, "aliases": 4.0, "summary": 2.0, "facts": 1.0, "body": 1.0}
"""Name > aliases > summary > facts = body: a word in an entry's name counts six times one in its
explanation."""
BM25_B, BM25_K1 = 0.75, 1.2
"""Whoosh's BM25F defaults, which ``searcher.search`` uses; exported so the browser scores alike."""
