"""The named entry first: a small deterministic re-rank over BM25F's candidates.

BM25F (name > aliases > summary > facts > body) finds the candidates; this puts first the entry
whose name or alias the query spells out ("forest" -> Forest), preferring, when a query names
several things, the longest name ("armor overrun" -> Armor Overrun) and the most specific entry,
the one the rest of the rules mention least ("tanks in a bunker" -> Bunker, "hedgerow take
ground" -> Hedgerow). offline-search.js runs the same steps on ``offline_tables``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import filterfalse
from typing import Any, Protocol

from adjudicator.search.analysis import Analysis
from adjudicator.search.documents import Doc
from adjudicator.search.query import NAMING_WEIGHT, ParsedQuery


class Names(Protocol):
    """What ranking needs of an opened index (``whoosh_index.Generation``)."""

    analysis: Analysis
    docs: dict[int, Doc]
    phrases: dict[str, list[tuple[int, tuple[str, ...]]]]
    """First stem of a name -> (docnum, the name's stems) of every entry with such a name."""
    @property
    def name_order(self) -> Mapping[int, int]:
        """docnum -> where its name comes in alphabetical order, case aside (``name_order``)."""


def name_order(docs: Mapping[int, Doc]) -> dict[int, int]:
    """docnum -> the place of its name among all names, case aside (one place per name): the
    last tie-break of ``rank``, as a number."""
    places = {name: n for n, name in enumerate(sorted({doc.sort_name for doc in docs.values()}))}
    return {docnum: places[doc.sort_name] for docnum, doc in docs.items()}


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


Readings = tuple[tuple[tuple[str, ...], int, float], ...]
"""Of one group, the readings sure enough to name an entry: (stems, how many, weight)."""


def _consume(phrase: tuple[str, ...], groups: list[Readings], at: int, weight: float) -> list[tuple[int, float]]:
    """Where the groups from ``at`` on spell out ``phrase``: (end, the product of the weights)."""
    if at >= len(groups):
        return []
    found = []
    for stems, size, surety in groups[at]:
        if phrase[:size] == stems:
            if size == len(phrase):
                found.append((at + 1, weight * surety))
            else:
                found += _consume(phrase[size:], groups, at + 1, weight * surety)
    return found


def named_entries(parsed: ParsedQuery, index: Names) -> dict[int, NameMatch]:
    """Entries one of whose names the query spells out, with the best (longest) place it does."""
    best: dict[int, NameMatch] = {}
    groups = [tuple((a.stems, len(a.stems), a.weight) for a in group if a.weight >= NAMING_WEIGHT)
              for group in parsed.groups]
    present = frozenset(stem for readings in groups for stems, _size, _weight in readings for stem in stems)
    for start, readings in enumerate(groups):
        one_word: dict[str, float] = {}  # a name of one stem is spelled by the surest reading of it
        for stems, size, weight in readings:
            if size == 1:
                one_word[stems[0]] = max(one_word.get(stems[0], 0.0), weight)
        for first in {stems[0] for stems, _size, _weight in readings}:
            for docnum, phrase in index.phrases.get(first, ()):
                if len(phrase) == 1:
                    found = [(start + 1, one_word[first])] if first in one_word else []
                elif present.issuperset(phrase):  # else some word of the name is nowhere in the query
                    found = _consume(phrase, groups, start, 1.0)
                else:
                    continue
                for end, weight in found:
                    old = best.get(docnum)
                    if old is None or (end - start, weight) > (old.length, old.weight):
                        best[docnum] = NameMatch(start, end, weight)
    return best


LENGTH_BONUS = 0.5
"""Each further query word an entry's name covers counts like being mentioned by ~40% fewer
entries: "attack card" names the Attack card more fully than "section" names Ordering Units, but
"take ground" (two common words) does not outweigh "hedgerow"."""


@dataclass(frozen=True)
class Ranking:
    """The candidates best first (``order``), and the score each is shown with."""

    order: list[int]
    bm25: Mapping[int, float]
    keys: Mapping[int, tuple[Any, ...]]
    """The ordering key of each named candidate; the others' is ``UNNAMED``."""
    levels: Mapping[tuple[Any, ...], int]
    lift: float

    def score(self, docnum: int) -> float:
        """A score that falls with the rank: BM25F lifted by the rank of the key, so an API user
        who sorts by score gets this order."""
        return round(self.bm25[docnum] + self.lift * self.levels[self.keys.get(docnum, UNNAMED)], 4)


def rank(parsed: ParsedQuery, index: Names, scores: Mapping[int, float]) -> Ranking:
    """The candidates best first: exact names, then named entries, then BM25F.

    Ordering key, all deterministic:
    1. the query *is* one of the entry's names (all its words make up the name), surest reading
       first (typed > synonym > correction > completion), then the entry whose name it is word
       for word, small words included ("on the move" is the Breakthrough deck's, "move"
       Movement's, though both stem to "move");
    2. the query names the entry and no other name outranks it there (``NameMatch.outranks``:
       a longer name over the same words, or a surer reading of them), the most specific entry
       first (``documents.specificities``, plus ``LENGTH_BONUS`` per further word its name
       covers: "tanks in a bunker" -> Bunker);
    3. named, but outranked;
    4. everything else (``UNNAMED``).
    Ties, and all of 4, go by BM25F, then name."""
    named = named_entries(parsed, index)
    named = {d: m for d, m in named.items() if d in scores}
    keys = {docnum: _key(docnum, named, parsed, index) for docnum in named}
    # Sorted by (key, -BM25F, name) as three stable sorts, last criterion first, two of them
    # keyed by a dict lookup (no Python call per candidate); every key of a named entry is
    # smaller than ``UNNAMED``.
    order = sorted(scores, key=index.name_order.__getitem__)
    order.sort(key=scores.__getitem__, reverse=True)
    if keys:
        order = sorted(keys, key=lambda d: (keys[d], -scores[d], index.name_order[d])) + list(
            filterfalse(keys.__contains__, order))
    distinct = set(keys.values())
    if len(keys) < len(scores):
        distinct.add(UNNAMED)
    levels = {key: n for n, key in enumerate(sorted(distinct, reverse=True))}
    return Ranking(order, scores, keys, levels, max(scores.values(), default=0.0) + 1.0)


UNNAMED = (3, 0.0, 0.0, 0)
"""The ordering key of a candidate the query does not name (level 4 of ``rank``)."""


def _key(docnum: int, named: dict[int, NameMatch], parsed: ParsedQuery, index: Names) -> tuple[Any, ...]:
    """The ordering key of a named candidate (the levels 1-3 of ``rank``)."""
    match = named[docnum]
    doc = index.docs[docnum]
    specificity = doc.specificity + LENGTH_BONUS * (match.length - 1)
    weight = round(match.weight, 6)
    if match.start == 0 and match.end == len(parsed.groups):
        word_for_word = index.analysis.literal(parsed.text) in doc.literals
        return (0, -weight, -word_for_word, -specificity, -match.length)
    if any(other.outranks(match) for d, other in named.items() if d != docnum):
        return (2, -specificity, -weight, -match.length)
    return (1, -specificity, -weight, -match.length)
