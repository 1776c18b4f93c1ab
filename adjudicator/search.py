"""Full-text search over every rule entry; the only module that imports Whoosh.

A player at the table types "can tanks enter a bunker", "hedgrow" or "arty range" on a phone and
needs the *one* entry that settles it, first, in milliseconds. Hence:

* **Built once per content change.** ``build_index`` is registered in ``build.EXTRA_STEPS`` with
  ``index_is_fresh``, so ``flask content build`` and ``create_app`` build it under the build
  lock only when the index's own content hash differs (a new database alone does not rebuild
  it). Each build writes a new generation folder under ``instance/index/`` and then atomically
  replaces the ``CURRENT`` pointer file, so a worker never sees a half-written index.
* **Opened read-only, once per process.** Workers keep the opened generation (and a small pool of
  searchers, one per concurrent request) and reopen only when ``CURRENT`` changes on disk.
* **No query syntax.** User text is never handed to Whoosh's query parser: it is tokenized,
  typos are corrected against the index's own vocabulary, player slang is expanded from
  ``content/synonyms.yaml``, and the Whoosh query is assembled from plain terms, so no string a
  user can type raises.
* **The named entry first.** BM25F (name > aliases > summary > facts > body) finds candidates;
  a small deterministic re-rank then puts first the entry whose name or alias the query spells
  out ("forest" -> Forest), preferring, when a query names several things, the longest name
  ("armor overrun" -> Armor Overrun) and the most specific entry, the one the rest of the rules
  mention least ("tanks in a bunker" -> Bunker, "hedgerow take ground" -> Hedgerow).
"""

from __future__ import annotations

import bisect
import json
import math
import os
import queue
import re
import shutil
import threading
import time
import unicodedata
import uuid
from collections import Counter, OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup, escape
from whoosh import index as whoosh_index
from whoosh.analysis import STOP_WORDS, CharsetFilter, LowercaseFilter, RegexTokenizer, StemmingAnalyzer
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, Or, Query, Term
from whoosh.support.charset import accent_map

from adjudicator import build
from adjudicator.content.facts import describe
from adjudicator.content.loader import Catalogue, Entry, content_dir
from adjudicator.content.markdown import render

SCHEMA_VERSION = "3"
"""Bump when the schema or the analysis changes: an index of another version counts as stale."""

INDEX_DIR = "index"
POINTER = "CURRENT"
META_FILE = "meta.json"
SYNONYMS_FILE = "synonyms.yaml"

MAX_QUERY_CHARS = 200
"""Longer input is cut here: no rule question needs more, and it bounds the work per request."""
MAX_WORDS = 16

TEXT_FIELDS = ("name", "aliases", "summary", "facts", "body")

QUESTION_WORDS = frozenset(re.findall(r"\w+", """
    how many much what which who whom whose why where does do did done doing i me my our they them
    their there here he she his her its was were been being am has had would could should shall
    might any some each also about into onto than then just get gets got
"""))
"""Words of a question that never name a rule ("how many dice does artillery roll")."""

STOPLIST = (frozenset(STOP_WORDS) - {"us"}) | QUESTION_WORDS
"""Whoosh's English stop words plus question words; "us" stays searchable (the US Army)."""

ANALYZER = StemmingAnalyzer(stoplist=STOPLIST, minsize=2) | CharsetFilter(accent_map)
"""Index and query analysis: lowercase, stop words out, Porter stems ("retreating" -> "retreat"),
accents folded. Queries and names go through the very same analyzer, so they always agree."""

WORDS = RegexTokenizer(r"\w+") | LowercaseFilter() | CharsetFilter(accent_map)
"""Unstemmed words: the spelling vocabulary and the raw words of a query."""


# --------------------------------------------------------------------------------------------
# Synonyms (content/synonyms.yaml)
# --------------------------------------------------------------------------------------------


def words_of(text: str) -> list[str]:
    """Lowercased, accent-folded words of ``text`` (no stemming, no stop words)."""
    return [t.text for t in WORDS(text)]


def stems_of(text: str) -> tuple[str, ...]:
    """The analyzed terms of ``text`` exactly as the index holds them."""
    return tuple(t.text for t in ANALYZER(text))


@dataclass(frozen=True)
class Synonyms:
    """Player words -> what the rules call them, as word tuples ("ht" -> "half track")."""

    table: Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]

    @property
    def longest(self) -> int:
        return max((len(k) for k in self.table), default=0)

    @classmethod
    def parse(cls, data: Any, origin: str = SYNONYMS_FILE) -> Synonyms:
        """Validate the YAML document; a mistake names the file and the key."""
        if data is None:
            return cls({})
        if not isinstance(data, dict) or not isinstance(data.get("synonyms"), dict):
            raise ValueError(f"{origin}: (file): must be a mapping with a 'synonyms' mapping")
        table: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
        for key, values in data["synonyms"].items():
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise ValueError(f"{origin}: {key!r}: quote the key (YAML read it as {type(key).__name__})")
            if isinstance(values, str):
                values = [values]
            if not isinstance(values, list) or not values or not all(isinstance(v, str | int) for v in values):
                raise ValueError(f"{origin}: {key}: must be a non-empty list of words or phrases")
            words = tuple(words_of(str(key)))
            if not words:
                raise ValueError(f"{origin}: {key!r}: has no words")
            targets = tuple(dict.fromkeys(tuple(words_of(str(v))) for v in values if words_of(str(v))))
            table[words] = tuple(t for t in targets if t != words)
        return cls(table)

    @classmethod
    def load(cls, path: Path) -> Synonyms:
        if not path.exists():
            return cls({})
        return cls.parse(yaml.safe_load(path.read_text(encoding="utf-8")), str(path))

    def to_json(self) -> list[list[Any]]:
        return [[list(k), [list(v) for v in vs]] for k, vs in self.table.items()]

    @classmethod
    def from_json(cls, data: list[list[Any]]) -> Synonyms:
        return cls({tuple(k): tuple(tuple(v) for v in vs) for k, vs in data})


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


def _names(entry: Entry) -> list[str]:
    """Every name a player may use for the entry: name, aliases, id words, editor names, and the
    terms it defines (a player typing "spare figures" looks for the page that says what they are)."""
    editor = getattr(entry.rules, "editor_names", ()) or ()
    return list(dict.fromkeys([entry.meta.name, *entry.meta.aliases, entry.id.replace("_", " "), *editor,
                               *entry.meta.terms]))


def facts_text(entry: Entry, catalogue: Catalogue) -> str:
    """The structured fields as the readable rows of the entry page, in plain text."""

    def link(entry_id: str) -> Markup | None:
        other = catalogue.entries.get(entry_id)
        return Markup(escape(other.meta.name)) if other else None

    return "\n".join(f"{row.label}: {Markup(row.value).striptags()}" for row in describe(entry.facts, link))


def body_text(entry: Entry, catalogue: Catalogue) -> str:
    """The explanation as plain text (links read as the linked entry's name)."""

    def resolve(entry_id: str) -> tuple[str, str] | None:
        other = catalogue.entries.get(entry_id)
        return (build.entry_url(other.kind, other.id), other.meta.name) if other else None

    return Markup(render(entry.body, resolve)).striptags()


def _phrases(entry: Entry) -> list[tuple[str, ...]]:
    return sorted({stems for stems in (stems_of(n) for n in _names(entry)) if stems})


def literal(text: str) -> str:
    """``text`` word for word, small words kept: "On the Move" -> "on the move"."""
    return " ".join(words_of(text))


def _literals(entry: Entry) -> list[str]:
    """Each name word for word. Stems drop the small words, so "on the move" (the Breakthrough
    deck's orders) and "move" (Movement) are the same phrase; the words typed tell them apart."""
    return sorted({w for w in (literal(n) for n in _names(entry)) if w})


def _document(entry: Entry, catalogue: Catalogue) -> dict[str, Any]:
    """The fields Whoosh indexes and stores for one entry (``specificity`` is added after)."""
    meta = entry.meta
    names = _names(entry)
    facts = facts_text(entry, catalogue)
    body = body_text(entry, catalogue)
    return {
        "id": meta.id,
        "kind": meta.kind,
        "expansion": meta.expansion,
        "name": meta.name,
        "aliases": "\n".join(names[1:]),
        "summary": meta.summary,
        "facts": facts,
        "body": body,
        "spell": "\n".join([*names, meta.summary, facts, body]),
        "url": build.entry_url(meta.kind, meta.id),
        "phrases": [list(p) for p in _phrases(entry)],
        "name_words": sorted({w for n in names for w in words_of(n)}),
        "literals": _literals(entry),
    }


def specificities(catalogue: Catalogue, texts: dict[str, str]) -> dict[str, float]:
    """How specific each entry is: log((N + 1) / (1 + entries that mention it by a name)).

    "Armor", "retreat" and "range" are mentioned all over the rules; "hedgerow", "sniper" or
    "Imperial Japanese Army" in a few entries. When a query names two things, the rarer one is
    what the question is about ("tanks in a bunker", "hedgerow take ground")."""
    phrases = {entry_id: _phrases(entry) for entry_id, entry in catalogue.entries.items()}
    longest = max((len(p) for ps in phrases.values() for p in ps), default=1)
    grams: dict[str, set[tuple[str, ...]]] = {}
    for entry_id, text in texts.items():
        stems = stems_of(text)
        grams[entry_id] = {
            tuple(stems[i:i + n]) for n in range(1, longest + 1) for i in range(len(stems) - n + 1)
        }
    total = len(catalogue.entries)
    result = {}
    for entry_id, own in phrases.items():
        mentions = sum(
            1 for other, seen in grams.items() if other != entry_id and any(p in seen for p in own)
        )
        result[entry_id] = round(math.log((total + 1) / (1 + mentions)), 4)
    return result


def index_root(instance_path: Path) -> Path:
    return Path(instance_path) / INDEX_DIR


def build_index(catalogue: Catalogue, instance_path: Path, synonyms_path: Path | None = None) -> Path:
    """Write a new index generation and switch ``CURRENT`` to it atomically; return its folder.

    Run by ``build.ensure_built`` under the build lock. Even without the lock two builders could
    not corrupt anything: each writes its own temporary folder and the pointer swap is one
    ``os.replace``."""
    root = index_root(instance_path)
    root.mkdir(parents=True, exist_ok=True)
    synonyms = Synonyms.load(synonyms_path or content_dir() / SYNONYMS_FILE)
    generation = f"{catalogue.content_hash[:12]}-{uuid.uuid4().hex[:8]}"
    tmp = root / f".tmp-{generation}"
    tmp.mkdir()
    try:
        ix = whoosh_index.create_in(str(tmp), _schema())
        writer = ix.writer()
        documents = [_document(entry, catalogue) for entry in catalogue.entries.values()]
        specific = specificities(catalogue, {doc["id"]: doc["spell"] for doc in documents})
        for doc in documents:
            writer.add_document(**doc, specificity=specific[doc["id"]])
        writer.commit()
        ix.close()
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
        return json.loads((root / generation / META_FILE).read_text(encoding="utf-8"))
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


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a transposition counts 1), or ``limit + 1`` if larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


class Vocabulary:
    """The index's own words, for typo correction and completing the word being typed."""

    def __init__(self, frequencies: dict[str, int], name_words: set[str], stems: set[str]) -> None:
        self.frequencies = frequencies
        self.name_words = name_words
        self.stems = stems
        self.sorted_words = sorted(frequencies)
        self._by_delete: dict[str, set[str]] = {}
        for word in frequencies:
            if len(word) >= 3:
                for key in (word, *_deletes(word)):
                    self._by_delete.setdefault(key, set()).add(word)

    def _rank(self, word: str) -> tuple[int, int, str]:
        return (0 if word in self.name_words else 1, -self.frequencies.get(word, 0), word)

    def is_known(self, word: str) -> bool:
        if word in self.frequencies:
            return True
        stems = stems_of(word)
        return bool(stems) and all(s in self.stems for s in stems)

    def correct(self, word: str) -> str | None:
        """The likeliest intended word: 1 edit for words up to 5 letters, 2 for longer ones."""
        if len(word) < 4 or not word.isalpha():
            return None
        limit = 1 if len(word) <= 5 else 2
        candidates: set[str] = set()
        for key in (word, *_deletes(word)):
            candidates |= self._by_delete.get(key, set())
        scored = []
        for candidate in candidates:
            distance = edit_distance(word, candidate, limit)
            if distance <= limit:
                scored.append((distance, *self._rank(candidate)))
        return min(scored)[-1] if scored else None

    def complete(self, prefix: str, limit: int = 6) -> list[str]:
        """Words starting with ``prefix`` (the word still being typed), names first."""
        if len(prefix) < 2:
            return []
        start = bisect.bisect_left(self.sorted_words, prefix)
        found = []
        for word in self.sorted_words[start:]:
            if not word.startswith(prefix):
                break
            if word != prefix and word not in STOPLIST:
                found.append(word)
        return sorted(found, key=self._rank)[:limit]


@dataclass(frozen=True)
class Doc:
    """What the re-rank and the result list need of one entry, read once per process."""

    docnum: int
    id: str
    kind: str
    expansion: str
    name: str
    url: str
    summary: str
    body: str
    specificity: float
    literals: frozenset[str] = frozenset()  # every name word for word (``_literals``)

    @cached_property
    def summary_tokens(self) -> tuple[tuple[int, int, str], ...]:
        return tokens(self.summary)

    @cached_property
    def body_tokens(self) -> tuple[tuple[int, int, str], ...]:
        """Analyzed once per process, on first use, for the snippets."""
        return tokens(self.body)


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
                stored["summary"], stored["body"], stored["specificity"], frozenset(stored["literals"]),
            )
            for phrase in stored["phrases"]:
                self.phrases.setdefault(phrase[0], []).append((docnum, tuple(phrase)))
            name_words.update(stored["name_words"])
        frequencies = {word: int(reader.frequency("spell", word)) for word in reader.field_terms("spell")}
        stems = {term for f in TEXT_FIELDS for term in reader.field_terms(f)}
        self.vocabulary = Vocabulary(frequencies, name_words, stems)
        self._pool.put(searcher)
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
        """A searcher for this thread's request; Whoosh readers are not shared between threads."""
        try:
            searcher = self._pool.get_nowait()
        except queue.Empty:
            searcher = self.ix.searcher()
        try:
            yield searcher
        finally:
            self._pool.put(searcher)

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


RESULTS_CACHE_SIZE = 1024
RESULTS_CACHE_MAX_QUERY = 200  # long pasted texts are not worth keeping

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


# --------------------------------------------------------------------------------------------
# Understanding a query
# --------------------------------------------------------------------------------------------

WEIGHT_TYPED, WEIGHT_SYNONYM, WEIGHT_FUZZY, WEIGHT_PREFIX, WEIGHT_PREFIX_OTHER = 1.0, 0.9, 0.8, 0.7, 0.5
"""How sure a reading is. A synonym of a corrected word is as sure as both (0.8 x 0.9)."""
NAMING_WEIGHT = 0.65
"""Readings at least this sure may *name* an entry (see ``named_entries``): every reading feeds
BM25F, but of the completions of an unfinished word only the likeliest may name one, or "hil"
would name every entry with an obscure word starting "hil"."""


@dataclass(frozen=True)
class Alternative:
    """One reading of a group of typed words: as typed, a synonym, a correction, a completion."""

    words: tuple[str, ...]
    stems: tuple[str, ...]
    weight: float
    source: str


@dataclass(frozen=True)
class Group:
    typed: tuple[str, ...]
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    groups: tuple[Group, ...]
    suggestion: str | None

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(s for g in self.groups for a in g.alternatives for s in a.stems)


def clean(text: str) -> str:
    """Normalize anything a user can send (NFKC, no control characters), cut to a sane length."""
    text = unicodedata.normalize("NFKC", text[: MAX_QUERY_CHARS * 4])
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return re.sub(r"\s+", " ", text).strip()[:MAX_QUERY_CHARS]


def parse_query(raw: str, generation: Generation, typing: bool | None = None) -> ParsedQuery:
    """Words -> corrected words -> synonym groups -> alternatives with index stems.

    ``typing``: the last word may be unfinished (as-you-type), so it is also completed. By default
    it is when the text does not end with a space."""
    text = clean(raw)
    if typing is None:
        typing = bool(raw) and not raw[-1:].isspace()
    vocabulary = generation.vocabulary
    synonyms = generation.synonyms
    single_keys = {k[0] for k in synonyms.table if len(k) == 1}
    words = words_of(text)[:MAX_WORDS]
    corrected: list[str] = []
    completions: dict[int, list[str]] = {}
    any_correction = False
    for i, word in enumerate(words):
        last = typing and i == len(words) - 1
        known = word in STOPLIST or word in single_keys or len(word) < 2 or vocabulary.is_known(word)
        fix = None if known else vocabulary.correct(word)
        if last and word not in vocabulary.name_words and word not in STOPLIST:
            completions[i] = vocabulary.complete(word)  # an unfinished word: "hedg", "fores"
        elif not known and fix is None:
            completions[i] = vocabulary.complete(word)  # a short form: "hil", "arti"
        if fix is not None and not completions.get(i):
            any_correction = True
            corrected.append(fix)
        else:
            corrected.append(word)

    groups: list[Group] = []
    i = 0
    while i < len(corrected):
        span = 1
        replacements: tuple[tuple[str, ...], ...] = ()
        for length in range(min(synonyms.longest, len(corrected) - i), 0, -1):
            key = tuple(corrected[i:i + length])
            if key in synonyms.table:
                span, replacements = length, synonyms.table[key]
                break
        typed = tuple(words[i:i + span])
        readings = tuple(corrected[i:i + span])
        weight = WEIGHT_TYPED if readings == typed else WEIGHT_FUZZY
        alternatives = [Alternative(readings, stems_of(" ".join(readings)), weight, "typed")]
        alternatives += [
            Alternative(r, stems_of(" ".join(r)), weight * WEIGHT_SYNONYM, "synonym") for r in replacements
        ]
        if span == 1:
            alternatives += [
                Alternative((c,), stems_of(c), WEIGHT_PREFIX if n == 0 else WEIGHT_PREFIX_OTHER, "prefix")
                for n, c in enumerate(completions.get(i, ()))
            ]
        unique: dict[tuple[str, ...], Alternative] = {}
        for alternative in alternatives:
            if alternative.stems and alternative.stems not in unique:
                unique[alternative.stems] = alternative
        if unique:
            groups.append(Group(typed, tuple(unique.values())))
        i += span
    suggestion = " ".join(corrected) if any_correction else None
    return ParsedQuery(text, tuple(groups), suggestion)


def whoosh_query(parsed: ParsedQuery) -> Query | None:
    """Any reading of any group may match; a multi-word reading needs all its words.

    Built flat (one ``Or`` of field terms, each boosted by its reading's weight) rather than one
    nested ``Or`` per group and field: it scores the same sum and builds a third as many
    matchers, which is most of the time a search takes."""
    weights: dict[tuple[str, str], float] = {}
    phrases: list[Query] = []
    for group in parsed.groups:
        for alternative in group.alternatives:
            if len(alternative.stems) == 1:
                for field_name in TEXT_FIELDS:
                    key = (field_name, alternative.stems[0])
                    weights[key] = max(weights.get(key, 0.0), alternative.weight)
            else:
                words = [Or([Term(f, stem) for f in TEXT_FIELDS]) for stem in alternative.stems]
                phrases.append(And(words, boost=alternative.weight))
    terms: list[Query] = [Term(f, stem, boost=weight) for (f, stem), weight in weights.items()]
    return Or(terms + phrases) if terms or phrases else None


# --------------------------------------------------------------------------------------------
# Ranking
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameMatch:
    """Where the query spells out one of an entry's names: groups [start, end)."""

    start: int
    end: int
    weight: float

    @property
    def length(self) -> int:
        return self.end - self.start

    def contains(self, other: NameMatch) -> bool:
        return self.start <= other.start and other.end <= self.end and self.length > other.length

    def outranks(self, other: NameMatch) -> bool:
        """A longer name over the words of a shorter one ("armor overrun" over "armor"), or the
        same words read more surely ("attack" as typed names the Attack card; its synonym
        "close assault" must not put Close Assault first)."""
        overlap = self.start < other.end and other.start < self.end
        return self.contains(other) or (overlap and self.weight > other.weight)


def _consume(phrase: tuple[str, ...], groups: tuple[Group, ...], at: int, weight: float) -> list[tuple[int, float]]:
    if not phrase:
        return [(at, weight)]
    if at >= len(groups):
        return []
    found = []
    for alternative in groups[at].alternatives:
        if alternative.weight < NAMING_WEIGHT:
            continue
        size = len(alternative.stems)
        if phrase[:size] == alternative.stems:
            found += _consume(phrase[size:], groups, at + 1, weight * alternative.weight)
    return found


def named_entries(parsed: ParsedQuery, generation: Generation) -> dict[int, NameMatch]:
    """Entries one of whose names the query spells out, with the best (longest) place it does."""
    best: dict[int, NameMatch] = {}
    groups = parsed.groups
    for start, group in enumerate(groups):
        firsts = {a.stems[0] for a in group.alternatives if a.weight >= NAMING_WEIGHT}
        for first in firsts:
            for docnum, phrase in generation.phrases.get(first, ()):
                for end, weight in _consume(phrase, groups, start, 1.0):
                    match = NameMatch(start, end, weight)
                    old = best.get(docnum)
                    if old is None or (match.length, match.weight) > (old.length, old.weight):
                        best[docnum] = match
    return best


LENGTH_BONUS = 0.5
"""Each further query word an entry's name covers counts like being mentioned by ~40% fewer
entries: "attack card" names the Attack card more fully than "section" names Ordering Units, but
"take ground" (two common words) does not outweigh "hedgerow"."""


def rank(parsed: ParsedQuery, generation: Generation, scores: dict[int, float]) -> list[tuple[int, float]]:
    """(docnum, score) best first: exact names, then named entries, then BM25F.

    Ordering key, all deterministic:
    1. the query *is* one of the entry's names (all its words make up the name), surest reading
       first (typed > synonym > correction > completion), then the entry whose name it is word
       for word, small words included ("on the move" is the Breakthrough deck's, "move"
       Movement's, though both stem to "move");
    2. the query names the entry and no other name outranks it there (``NameMatch.outranks``:
       a longer name over the same words, or a surer reading of them), the most specific entry
       first (``specificities``, plus ``LENGTH_BONUS`` per further word its name covers:
       "tanks in a bunker" -> Bunker);
    3. named, but outranked;
    4. everything else.
    Ties, and all of 4, go by BM25F, then name."""
    named = named_entries(parsed, generation)
    named = {d: m for d, m in named.items() if d in scores}
    total = len(parsed.groups)
    typed = literal(parsed.text)
    keys: dict[int, tuple[Any, ...]] = {}
    for docnum in scores:
        match = named.get(docnum)
        if match is None:
            keys[docnum] = (3, 0.0, 0.0, 0)
            continue
        specificity = generation.docs[docnum].specificity + LENGTH_BONUS * (match.length - 1)
        weight = round(match.weight, 6)
        if match.start == 0 and match.end == total:
            word_for_word = typed in generation.docs[docnum].literals
            keys[docnum] = (0, -weight, -word_for_word, -specificity, -match.length)
        elif any(other.outranks(match) for d, other in named.items() if d != docnum):
            keys[docnum] = (2, -specificity, -weight, -match.length)
        else:
            keys[docnum] = (1, -specificity, -weight, -match.length)
    order = sorted(scores, key=lambda d: (keys[d], -scores[d], generation.docs[d].name.lower()))
    # A score that falls with the rank: BM25F lifted by the rank of the key, so an API user who
    # sorts by score gets this order.
    lift = max(scores.values(), default=0.0) + 1.0
    levels = {key: n for n, key in enumerate(sorted(set(keys.values()), reverse=True))}
    return [(d, round(scores[d] + lift * levels[keys[d]], 4)) for d in order]


# --------------------------------------------------------------------------------------------
# Snippets
# --------------------------------------------------------------------------------------------

SNIPPET_CHARS = 180


def tokens(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, stem) of every indexed word of ``text``."""
    return tuple((t.startchar, t.endchar, t.text) for t in ANALYZER(text, chars=True))


def highlight(text: str, spans: list[tuple[int, int]], start: int = 0, end: int | None = None) -> Markup:
    """Escaped ``text[start:end]`` with only our own ``<mark>`` tags around matched words."""
    end = len(text) if end is None else end
    out = Markup("")
    cursor = start
    for a, b in spans:
        if a < start or b > end:
            continue
        out += escape(text[cursor:a]) + Markup("<mark>") + escape(text[a:b]) + Markup("</mark>")
        cursor = b
    return out + escape(text[cursor:end])


def snippet(doc: Doc, stems: frozenset[str]) -> Markup:
    """The summary with matched words marked; if only the explanation matched, the passage of
    the explanation with the most distinct matched words."""
    spans = [(a, b) for (a, b, stem) in doc.summary_tokens if stem in stems]
    if spans or not doc.body:
        return highlight(doc.summary, spans)
    body = doc.body
    found = [(a, b, stem) for (a, b, stem) in doc.body_tokens if stem in stems]
    if not found:
        return highlight(doc.summary, [])
    best, best_count = 0, -1
    for i, (a, _b, _s) in enumerate(found):
        count = len({stem for (x, _y, stem) in found[i:] if x < a + SNIPPET_CHARS})
        if count > best_count:
            best, best_count = i, count
    centre = found[best][0]
    start = max(0, centre - 40)
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < centre else start
    end = min(len(body), start + SNIPPET_CHARS)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > centre else end
    fragment = highlight(body, [(a, b) for (a, b, _s) in found], start, end)
    return (Markup("… ") if start else Markup("")) + fragment + (Markup(" …") if end < len(body) else Markup(""))


# --------------------------------------------------------------------------------------------
# Searching
# --------------------------------------------------------------------------------------------


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
    results = _search(generation, raw, kind=kind, expansion=expansion, limit=limit, typing=typing)
    if len(raw) <= RESULTS_CACHE_MAX_QUERY:
        generation.remember(key, results)
    return results


def _search(
    generation: Generation, raw: str, *, kind: str | None, expansion: str | None, limit: int, typing: bool | None
) -> Results:
    parsed = parse_query(raw, generation, typing)
    query = whoosh_query(parsed)
    if query is None:
        return Results(parsed.text, (), 0, {}, {}, None)
    with generation.searcher() as searcher:
        scores = {hit.docnum: hit.score for hit in searcher.search(query, limit=None)}
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


# --------------------------------------------------------------------------------------------
# The tables offline search reads (one ranking definition, run by offline-search.js)
# --------------------------------------------------------------------------------------------

FIELD_BOOSTS = {"name": 6.0, "aliases": 4.0, "summary": 2.0, "facts": 1.0, "body": 1.0}
"""As in ``_schema``; exported so the browser weighs the fields the same way."""
BM25_B, BM25_K1 = 0.75, 1.2
"""Whoosh's BM25F defaults, which ``searcher.search`` uses."""


def offline_tables(generation: Generation) -> dict[str, Any]:
    """Everything ``_search`` reads, as plain JSON for offline-search.js to run the same steps:
    the analysis (stop words, every known word's stems, the synonym table), the vocabulary for
    typo correction and completion, the reading weights, each entry's name phrases and
    specificity, and the BM25F postings (per field: stem -> [doc, term frequency, ...], plus each
    document's field length and the field averages). The browser copies ``parse_query``,
    ``whoosh_query``'s scoring, ``named_entries`` and ``rank`` step by step; only words absent
    from the whole index are stemmed by its own small fallback. Built once per generation."""
    cached = generation.__dict__.get("_offline_tables")
    if cached is not None:
        return cached
    vocabulary = generation.vocabulary
    words = set(vocabulary.frequencies) | {w for k, vs in generation.synonyms.table.items()
                                           for part in (k, *vs) for w in part}
    stems = {w: " ".join(stems_of(w)) for w in sorted(words)}
    postings: dict[str, dict[str, list[float]]] = {}
    lengths: dict[str, list[int]] = {}
    averages: dict[str, float] = {}
    order = sorted(generation.docs)
    position = {docnum: i for i, docnum in enumerate(order)}
    with generation.searcher() as searcher:
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
        doc_count = searcher.doc_count_all()
    phrases: dict[int, list[list[str]]] = {}
    for found in generation.phrases.values():
        for docnum, phrase in found:
            phrases.setdefault(position[docnum], []).append(list(phrase))
    docs = [generation.docs[d] for d in order]
    tables = {
        "stoplist": sorted(STOPLIST),
        "stems": {w: s for w, s in stems.items() if s != w},
        "frequencies": vocabulary.frequencies,
        "name_words": sorted(vocabulary.name_words),
        "synonyms": [[list(k), [list(v) for v in vs]] for k, vs in generation.synonyms.table.items()],
        "weights": {"typed": WEIGHT_TYPED, "synonym": WEIGHT_SYNONYM, "fuzzy": WEIGHT_FUZZY, "prefix": WEIGHT_PREFIX,
                    "prefix_other": WEIGHT_PREFIX_OTHER, "naming": NAMING_WEIGHT, "length_bonus": LENGTH_BONUS},
        "limits": {"max_query_chars": MAX_QUERY_CHARS, "max_words": MAX_WORDS},
        "bm25": {"B": BM25_B, "K1": BM25_K1, "boosts": FIELD_BOOSTS, "doc_count": doc_count,
                 "averages": averages, "lengths": lengths, "postings": postings},
        "docs": [[d.id, d.kind, d.expansion, d.name, d.url, d.summary, d.specificity, phrases.get(i, []),
                  sorted(d.literals)] for i, d in enumerate(docs)],
    }
    generation.__dict__["_offline_tables"] = tables
    return tables
