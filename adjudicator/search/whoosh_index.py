"""The search index on disk, through Whoosh: the only module that imports it.

* **The analysis.** Lowercase, stop words out, Porter stems ("retreating" -> "retreat"), accents
  folded: ``ANALYSIS`` hands the index's own analysis to the pure modules (``query``,
  ``ranking``, ``snippets``), so queries and names always agree with what the index holds.
* **Built once per content change.** ``build_index`` is registered in ``build.EXTRA_STEPS`` with
  ``index_is_fresh``, so ``flask content build`` and ``create_app`` build it under the build
  lock only when the index's own content hash differs (a new database alone does not rebuild
  it). Each build writes a new generation folder under ``instance/index/`` and then atomically
  replaces the ``CURRENT`` pointer file, so a worker never sees a half-written index.
* **Opened read-only, once per process.** Workers keep the opened generation and reopen only when
  ``CURRENT`` changes on disk.
* **Scored in memory.** Whoosh builds the index and computes, at build time, what BM25F reads (the
  postings, field lengths and averages, ``bm25.json`` in the generation); queries are scored from
  it by ``bm25.Scorer``, the steps offline-search.js runs, not by Whoosh's pure-Python matchers,
  which took ten times as long for the same numbers. ``whoosh_query`` is Whoosh's own reading of
  the same query, the reference the tests hold the in-memory scores to.
* **No query syntax.** Queries are assembled from the readings ``query.parse_query`` found (plain
  terms), never from user text, so no string a user can type raises.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index
from whoosh.analysis import STOP_WORDS, CharsetFilter, LowercaseFilter, RegexTokenizer, StemmingAnalyzer
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.lang.porter import stem as porter_stem
from whoosh.query import And, Or, Query, Term
from whoosh.support.charset import accent_map

from adjudicator import build
from adjudicator.content.loader import Catalogue, content_dir
from adjudicator.search.analysis import QUESTION_WORDS, Analysis, Span
from adjudicator.search.bm25 import Scorer, Table
from adjudicator.search.documents import Doc, document, specificities
from adjudicator.search.facets import Facets
from adjudicator.search.fields import FIELD_BOOSTS, TEXT_FIELDS
from adjudicator.search.query import ParsedQuery
from adjudicator.search.ranking import name_order
from adjudicator.search.synonyms import SYNONYMS_FILE, Synonyms
from adjudicator.search.vocabulary import Vocabulary

if TYPE_CHECKING:
    from adjudicator.search.service import Results

SCHEMA_VERSION = "4"
"""Bump when the schema or the analysis changes: an index of another version counts as stale."""

INDEX_DIR = "index"
POINTER = "CURRENT"
META_FILE = "meta.json"
BM25_FILE = "bm25.json"


# --------------------------------------------------------------------------------------------
# The analysis
# --------------------------------------------------------------------------------------------

STOPLIST = (frozenset(STOP_WORDS) - {"us"}) | QUESTION_WORDS
"""Whoosh's English stop words plus question words; "us" stays searchable (the US Army)."""

ANALYZER = StemmingAnalyzer(stoplist=STOPLIST, minsize=2) | CharsetFilter(accent_map)
"""Index and query analysis: lowercase, stop words out, Porter stems ("retreating" -> "retreat"),
accents folded. Queries and names go through the very same analyzer, so they always agree."""

WORDS = RegexTokenizer(r"\w+") | LowercaseFilter() | CharsetFilter(accent_map)
"""Unstemmed words: the spelling vocabulary and the raw words of a query."""


WORD = re.compile(r"\w+")


def words_of(text: str) -> list[str]:
    """Lowercased, accent-folded words of ``text`` (no stemming, no stop words): what ``WORDS``
    gives, its three steps run directly (read for every query, its token objects and generators
    cost more than the work; a test checks the two agree on the whole content)."""
    if text.isascii():  # nothing to fold (``accent_map`` maps lowercase ASCII to itself), and
        return WORD.findall(text.lower())  # str.translate with a table costs microseconds a word
    return [word.lower().translate(accent_map) for word in WORD.findall(text)]


_stem = lru_cache(maxsize=50_000)(porter_stem)
"""The analyzer's stemmer (``StemmingAnalyzer``'s default), cached as the analyzer caches it."""


def stems_of(text: str) -> tuple[str, ...]:
    """The analyzed terms of ``text`` exactly as the index holds them.

    One plain ASCII word (a word being typed, a typo: what the generation's table of known words
    lacks) runs the analyzer's steps directly, without its token objects and generators (lower
    case, too short or a stop word is dropped, Porter stem; accent folding leaves ASCII as it
    is); a test checks the two agree on every word of the index and every beginning of one."""
    if text.isascii() and text.isalnum():
        word = text.lower()
        return () if len(word) < 2 or word in STOPLIST else (_stem(word),)
    return tuple(t.text for t in ANALYZER(text))


def tokens(text: str) -> tuple[Span, ...]:
    """(start, end, stem) of every indexed word of ``text``."""
    return tuple((t.startchar, t.endchar, t.text) for t in ANALYZER(text, chars=True))


ANALYSIS = Analysis(words=words_of, stems=stems_of, tokens=tokens, stoplist=STOPLIST)


def load_synonyms(path: Path) -> Synonyms:
    """``content/synonyms.yaml`` read with the index's words."""
    return Synonyms.load(path, words_of)


def parse_synonyms(data: Any, origin: str = SYNONYMS_FILE) -> Synonyms:
    return Synonyms.parse(data, words_of, origin)


# --------------------------------------------------------------------------------------------
# Building the index
# --------------------------------------------------------------------------------------------


def _schema() -> Schema:
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        expansion=ID(stored=True),
        name=TEXT(analyzer=ANALYZER, stored=True, field_boost=FIELD_BOOSTS["name"]),
        aliases=TEXT(analyzer=ANALYZER, field_boost=FIELD_BOOSTS["aliases"]),
        summary=TEXT(analyzer=ANALYZER, stored=True, field_boost=FIELD_BOOSTS["summary"]),
        facts=TEXT(analyzer=ANALYZER, field_boost=FIELD_BOOSTS["facts"]),
        body=TEXT(analyzer=ANALYZER, stored=True, field_boost=FIELD_BOOSTS["body"]),
        spell=TEXT(analyzer=WORDS),
        url=STORED,
        phrases=STORED,
        name_words=STORED,
        literals=STORED,
        specificity=STORED,
    )


def index_root(instance_path: Path) -> Path:
    return Path(instance_path) / INDEX_DIR


def build_index(catalogue: Catalogue, instance_path: Path, synonyms_path: Path | None = None) -> Path:
    """Write a new index generation and switch ``CURRENT`` to it atomically; return its folder.

    Run by ``build.ensure_built`` under the build lock. Even without the lock two builders could
    not corrupt anything: each writes its own temporary folder and the pointer swap is one
    ``os.replace``."""
    root = index_root(instance_path)
    root.mkdir(parents=True, exist_ok=True)
    synonyms = load_synonyms(synonyms_path or content_dir() / SYNONYMS_FILE)
    generation = f"{catalogue.content_hash[:12]}-{uuid.uuid4().hex[:8]}"
    tmp = root / f".tmp-{generation}"
    tmp.mkdir()
    try:
        ix = whoosh_index.create_in(str(tmp), _schema())
        writer = ix.writer()
        documents = [document(entry, catalogue, ANALYSIS) for entry in catalogue.entries.values()]
        specific = specificities(catalogue, {doc["id"]: doc["spell"] for doc in documents}, ANALYSIS)
        for doc in documents:
            writer.add_document(**doc, specificity=specific[doc["id"]])
        writer.commit()
        with ix.searcher() as searcher:
            table = bm25_table(searcher)
        ix.close()
        (tmp / BM25_FILE).write_text(json.dumps(table.to_json(), separators=(",", ":")), encoding="utf-8")
        meta = {
            "schema": SCHEMA_VERSION,
            "content_hash": catalogue.content_hash,
            "entries": len(catalogue.entries),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "synonyms": synonyms.to_json(),
        }
        (tmp / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
        os.rename(tmp, root / generation)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    pointer_tmp = root / f".{POINTER}-{uuid.uuid4().hex[:8]}"
    with open(pointer_tmp, "w", encoding="utf-8") as handle:
        handle.write(generation)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(pointer_tmp, root / POINTER)
    _remove_old_generations(root, keep=generation)
    return root / generation


def bm25_table(searcher: Any) -> Table:
    """What BM25F reads, over the documents in docnum order: per field the postings (stem ->
    [document position, term frequency, ...]), each document's field length as Whoosh stores it
    and the field's average length, and the number of documents. Written once per build."""
    order = sorted(docnum for docnum, _ in searcher.reader().iter_docs())
    position = {docnum: i for i, docnum in enumerate(order)}
    postings: dict[str, dict[str, list[float]]] = {}
    lengths: dict[str, list[int]] = {}
    averages: dict[str, float] = {}
    reader = searcher.reader()
    for field in TEXT_FIELDS:
        boost = FIELD_BOOSTS[field]
        table: dict[str, list[float]] = {}
        for term in reader.field_terms(field):
            flat: list[float] = []
            matcher = reader.postings(field, term)
            while matcher.is_active():
                tf = matcher.weight() / boost
                flat += [position[matcher.id()], int(tf) if tf == int(tf) else round(tf, 4)]
                matcher.next()
            table[term] = flat
        postings[field] = table
        lengths[field] = [reader.doc_field_length(d, field, 0) for d in order]
        averages[field] = searcher.avg_field_length(field) or 1.0
    return Table(searcher.doc_count_all(), averages, lengths, postings)


def _remove_old_generations(root: Path, keep: str) -> None:
    """Keep the current and the previous generation (a worker may still be reading it)."""
    generations = sorted(
        (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name != keep),
        key=lambda p: p.stat().st_mtime, reverse=True,
    )
    for old in generations[1:]:
        shutil.rmtree(old, ignore_errors=True)
    for stale in root.glob(".tmp-*"):  # left by a build that was killed; a live one is minutes younger
        if time.time() - stale.stat().st_mtime > 3600:
            shutil.rmtree(stale, ignore_errors=True)


def read_meta(instance_path: Path) -> dict[str, Any] | None:
    """The current generation's metadata, or None when there is no readable index."""
    root = index_root(instance_path)
    try:
        generation = (root / POINTER).read_text(encoding="utf-8").strip()
        meta: dict[str, Any] = json.loads((root / generation / META_FILE).read_text(encoding="utf-8"))
        return meta
    except (OSError, ValueError):
        return None


def index_is_fresh(catalogue: Catalogue, instance_path: Path) -> bool:
    meta = read_meta(instance_path)
    return _readable(meta) and meta is not None and meta.get("content_hash") == catalogue.content_hash


def _readable(meta: dict[str, Any] | None) -> bool:
    return meta is not None and meta.get("schema") == SCHEMA_VERSION


def ensure_index(catalogue: Catalogue, instance_path: Path) -> None:
    """Build the index if this instance has none this code can read (a safety net for when the
    build step did not run, e.g. an app created without importing this module first).

    An index of other *content* is left alone: the process that loaded the newer content
    rebuilds it through ``build.ensure_built``; an older worker must not overwrite it."""
    if _readable(read_meta(instance_path)):
        return
    with build.build_lock(Path(instance_path)):
        if not _readable(read_meta(instance_path)):
            build_index(catalogue, instance_path)


if (build_index, index_is_fresh) not in build.EXTRA_STEPS:
    build.EXTRA_STEPS.append((build_index, index_is_fresh))


# --------------------------------------------------------------------------------------------
# The opened index, one per process
# --------------------------------------------------------------------------------------------

RESULTS_CACHE_SIZE = 1024


class Generation:
    """One opened index generation: searchers, entries, vocabulary and synonyms."""

    def __init__(self, folder: Path, stamp: tuple[int, ...]) -> None:
        self.folder = folder
        self.stamp = stamp
        self.meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        if not _readable(self.meta):
            raise ValueError(f"{folder}: index schema {self.meta.get('schema')!r}, this code reads {SCHEMA_VERSION!r}")
        self.ix = whoosh_index.open_dir(str(folder), readonly=True)
        self.synonyms = Synonyms.from_json(self.meta.get("synonyms", []))
        self._pool: queue.SimpleQueue[Any] = queue.SimpleQueue()
        searcher = self.ix.searcher()
        reader = searcher.reader()
        self.docs: dict[int, Doc] = {}
        self.phrases: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        name_words: set[str] = set()
        for docnum, stored in reader.iter_docs():
            self.docs[docnum] = Doc(
                docnum, stored["id"], stored["kind"], stored["expansion"], stored["name"], stored["url"],
                stored["summary"], stored["body"], stored["specificity"], frozenset(stored["literals"]), tokens,
            )
            for phrase in stored["phrases"]:
                self.phrases.setdefault(phrase[0], []).append((docnum, tuple(phrase)))
            name_words.update(stored["name_words"])
        frequencies = {word: int(reader.frequency("spell", word)) for word in reader.field_terms("spell")}
        stems = {term for f in TEXT_FIELDS for term in reader.field_terms(f)}
        synonym_words = {w for k, vs in self.synonyms.table.items() for part in (k, *vs) for w in part}
        self.analysis = ANALYSIS.knowing(sorted(frequencies.keys() | synonym_words))
        self.vocabulary = Vocabulary(frequencies, name_words, stems, self.analysis)
        self._pool.put(searcher)
        self.name_order = name_order(self.docs)
        self.facets = Facets.of(self.docs)
        self.bm25 = Table.from_json(json.loads((folder / BM25_FILE).read_text(encoding="utf-8")))
        self.scorer = Scorer(self.bm25, sorted(self.docs))
        # Answers are fixed for a generation and players repeat questions ("forest", "arty range"),
        # so each process keeps the latest answers; a rebuild opens a new generation and cache.
        self._results: OrderedDict[tuple[Any, ...], Results] = OrderedDict()
        self._results_lock = threading.Lock()

    def cached(self, key: tuple[Any, ...]) -> Results | None:
        with self._results_lock:
            found = self._results.get(key)
            if found is not None:
                self._results.move_to_end(key)
            return found

    def remember(self, key: tuple[Any, ...], results: Results) -> None:
        with self._results_lock:
            self._results[key] = results
            if len(self._results) > RESULTS_CACHE_SIZE:
                self._results.popitem(last=False)

    @contextmanager
    def searcher(self) -> Iterator[Any]:
        """A searcher for this thread (Whoosh readers are not shared between threads): queries
        score in memory, so this serves what reads the index itself (tests, tools)."""
        try:
            searcher = self._pool.get_nowait()
        except queue.Empty:
            searcher = self.ix.searcher()
        try:
            yield searcher
        finally:
            self._pool.put(searcher)

    def scores(self, parsed: ParsedQuery) -> dict[int, float] | None:
        """BM25F score of every entry any reading matches (docnum -> score); None when the query
        has nothing to look for (``bm25.Scorer.scores``)."""
        return self.scorer.scores(parsed)

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


_OPENED: dict[str, Generation] = {}
_OPEN_LOCK = threading.Lock()


def opened(instance_path: Path) -> Generation | None:
    """This process's opened index for ``instance_path``, reopened when ``CURRENT`` changed.

    One ``stat`` per call; a changed pointer (a rebuild by any process) is picked up by the next
    request. None when no index has been built."""
    root = index_root(instance_path)
    pointer = root / POINTER
    try:
        st = os.stat(pointer)
    except OSError:
        return None
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    key = str(root)
    current = _OPENED.get(key)
    if current is not None and current.stamp == stamp:
        return current
    with _OPEN_LOCK:
        current = _OPENED.get(key)
        if current is not None and current.stamp == stamp:
            return current
        try:
            generation = Generation(root / pointer.read_text(encoding="utf-8").strip(), stamp)
        except (OSError, ValueError, whoosh_index.EmptyIndexError):
            return current  # mid-swap or removed: keep serving what we have
        _OPENED[key] = generation
        if current is not None:
            current.close()
        return generation


def whoosh_query(parsed: ParsedQuery) -> Query | None:
    """The query as Whoosh reads it: any reading of any group may match; a multi-word reading
    needs all its words. Searches score with ``bm25.Scorer`` instead, ten times faster; this is
    the reference the tests hold its scores to, Whoosh's BM25F over the same readings.

    Built flat (one ``Or`` of field terms, each boosted by its reading's weight) rather than one
    nested ``Or`` per group and field: it scores the same sum and builds a third as many
    matchers."""
    weights: dict[tuple[str, str], float] = {}
    phrases: list[Query] = []
    for group in parsed.groups:
        for alternative in group:
            if len(alternative.stems) == 1:
                for field_name in TEXT_FIELDS:
                    key = (field_name, alternative.stems[0])
                    weights[key] = max(weights.get(key, 0.0), alternative.weight)
            else:
                words = [Or([Term(f, stem) for f in TEXT_FIELDS]) for stem in alternative.stems]
                phrases.append(And(words, boost=alternative.weight))
    terms: list[Query] = [Term(f, stem, boost=weight) for (f, stem), weight in weights.items()]
    return Or(terms + phrases) if terms or phrases else None
