"""Understanding a query: what the player typed -> groups of readings, each with the index's stems.

No query syntax: user text is never handed to a query parser. It is cleaned and cut to a bounded
length, each word is checked against the index's own vocabulary (a typo is corrected, a word
being typed is completed), runs of words are replaced by what the rules call them
(``content/synonyms.yaml``), and every reading carries how sure it is. ``whoosh_index`` turns the
readings into a Whoosh query; ``ranking`` finds the entries they name; offline-search.js runs these
same steps on ``offline_tables``."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Protocol

from adjudicator.search.analysis import Analysis
from adjudicator.search.synonyms import Synonyms
from adjudicator.search.vocabulary import Vocabulary

MAX_QUERY_CHARS = 200
"""Longer input is cut here: no rule question needs more, and it bounds the work per request."""
MAX_WORDS = 16

WEIGHT_TYPED, WEIGHT_SYNONYM, WEIGHT_FUZZY, WEIGHT_PREFIX, WEIGHT_PREFIX_OTHER = 1.0, 0.9, 0.8, 0.7, 0.5
"""How sure a reading is. A synonym of a corrected word is as sure as both (0.8 x 0.9)."""
NAMING_WEIGHT = 0.65
"""Readings at least this sure may *name* an entry (see ``ranking.named_entries``): every reading
feeds BM25F, but of the completions of an unfinished word only the likeliest may name one, or
"hil" would name every entry with an obscure word starting "hil"."""


class Lexicon(Protocol):
    """What reading a query needs of an opened index (``whoosh_index.Generation``)."""

    analysis: Analysis
    vocabulary: Vocabulary
    synonyms: Synonyms


@dataclass(frozen=True)
class Alternative:
    """One reading of a run of typed words (as typed, a synonym, a correction, a completion): the
    index's stems for it and how sure it is."""

    stems: tuple[str, ...]
    weight: float


Group = tuple[Alternative, ...]
"""The readings of one run of typed words; a query is a sequence of groups, one reading of each
is meant."""


@dataclass(frozen=True)
class ParsedQuery:
    """What the player typed, cleaned (``text``), its groups of readings, and the corrected
    words as a "did you mean" (``suggestion``, None when nothing was corrected)."""

    text: str
    groups: tuple[Group, ...]
    suggestion: str | None

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(s for group in self.groups for reading in group for s in reading.stems)


def clean(text: str) -> str:
    """Normalize anything a user can send (NFKC, no control characters), cut to a sane length."""
    text = unicodedata.normalize("NFKC", text[: MAX_QUERY_CHARS * 4])
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    return re.sub(r"\s+", " ", text).strip()[:MAX_QUERY_CHARS]


def parse_query(raw: str, lexicon: Lexicon, typing: bool | None = None) -> ParsedQuery:
    """Words -> corrected words -> synonym groups -> alternatives with index stems.

    ``typing``: the last word may be unfinished (as-you-type), so it is also completed. By default
    it is when the text does not end with a space."""
    text = clean(raw)
    if typing is None:
        typing = bool(raw) and not raw[-1:].isspace()
    words = lexicon.analysis.words(text)[:MAX_WORDS]
    corrected, completions, any_correction = _read_words(words, lexicon, typing)
    groups = _groups(words, corrected, completions, lexicon)
    suggestion = " ".join(corrected) if any_correction else None
    return ParsedQuery(text, groups, suggestion)


def _read_words(words: list[str], lexicon: Lexicon,
                typing: bool) -> tuple[list[str], dict[int, list[str]], bool]:
    """Each word as meant: a typo corrected ("hedgrow" -> "hedgerow"), and the completions of a
    word that is unfinished ("hedg", the last word while typing) or a short form ("hil", "arti").
    A word that has completions is kept as typed. Also says whether any word was corrected."""
    vocabulary = lexicon.vocabulary
    stoplist = lexicon.analysis.stoplist
    single_keys = lexicon.synonyms.single_words
    corrected: list[str] = []
    completions: dict[int, list[str]] = {}
    any_correction = False
    for i, word in enumerate(words):
        last = typing and i == len(words) - 1
        known = word in stoplist or word in single_keys or len(word) < 2 or vocabulary.is_known(word)
        if last and word not in vocabulary.name_words and word not in stoplist:
            completions[i] = vocabulary.complete(word)  # an unfinished word: "hedg", "fores"
            fix = None if known or completions[i] else vocabulary.correct(word)  # kept as typed if completed
        else:
            fix = None if known else vocabulary.correct(word)
            if not known and fix is None:
                completions[i] = vocabulary.complete(word)  # a short form: "hil", "arti"
        if fix is not None and not completions.get(i):
            any_correction = True
            corrected.append(fix)
        else:
            corrected.append(word)
    return corrected, completions, any_correction


def _groups(words: list[str], corrected: list[str], completions: dict[int, list[str]],
            lexicon: Lexicon) -> tuple[Group, ...]:
    """The corrected words in groups, the longest run a synonym replaces first ("half track"),
    each group with its readings: as typed (or corrected), its synonyms, its completions."""
    synonyms = lexicon.synonyms
    stems_of = lexicon.analysis.stems
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
        alternatives = [Alternative(stems_of(" ".join(readings)), weight)]  # as typed, or corrected
        alternatives += [Alternative(stems_of(" ".join(r)), weight * WEIGHT_SYNONYM) for r in replacements]
        if span == 1:
            alternatives += [
                Alternative(stems_of(c), WEIGHT_PREFIX if n == 0 else WEIGHT_PREFIX_OTHER)
                for n, c in enumerate(completions.get(i, ()))
            ]
        unique: dict[tuple[str, ...], Alternative] = {}
        for alternative in alternatives:
            if alternative.stems and alternative.stems not in unique:
                unique[alternative.stems] = alternative
        if unique:
            groups.append(tuple(unique.values()))
        i += span
    return tuple(groups)
