"""Full-text search over every rule entry, forgiving of typos, slang and half-typed words.

A player at the table types "can tanks enter a bunker", "hedgrow" or "arty range" on a phone and
needs the *one* entry that settles it, first, in milliseconds. The package, by job:

* ``whoosh_index`` — the index on disk through Whoosh (the only module that imports it): the
  analysis, building a generation, opening it once per process, the BM25F query and postings.
* ``service`` — one search start to end (``search``, ``Results``, ``Hit``).
* The pure ranking, which imports no Whoosh and which offline-search.js copies step by step:
  ``query`` (cleaning, corrections, completions, slang, the reading weights and the input limits),
  ``ranking`` (the named entry first), ``snippets``, ``vocabulary`` (typos, completions),
  ``synonyms`` (``content/synonyms.yaml``), ``fields`` (the BM25F weights), ``documents`` (an entry
  as the index holds it, its specificity), ``analysis`` (the interface to the index's analysis)
  and ``offline_tables`` (all of it as JSON for the browser).

Importing the package registers the index build as a step of ``build.ensure_built``."""

from __future__ import annotations

from adjudicator.search.offline_tables import offline_tables
from adjudicator.search.service import Hit, Results, search
from adjudicator.search.whoosh_index import build_index, ensure_index, index_is_fresh, opened, read_meta

__all__ = ["Hit", "Results", "build_index", "ensure_index", "index_is_fresh", "offline_tables", "opened",
           "read_meta", "search"]
