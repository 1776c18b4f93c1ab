"""The named entry first: a small deterministic re-rank over BM25F's candidates.

BM25F (name > aliases > summary > facts > body) finds the candidates; this puts first the entry
whose name or alias the query spells out ("forest" -> Forest), preferring, when a query names
several things, the longest name ("armor overrun" -> Armor Overrun) and the most specific entry,
the one the rest of the rules mention least ("tanks in a bunker" -> Bunker, "hedgerow take
ground" -> Hedgerow). offline-search.js runs the same steps on ``offline_tables``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from adjudicator.search.analysis import Analysis
from adjudicator.search.documents import Doc
from adjudicator.search.query import NAMING_WEIGHT, Group, ParsedQuery


class Names(Protocol):
    """What ranking needs of an opened index (``whoosh_index.Generation``)."""

    analysis: Analysis
    docs: dict[int, Doc]
    phrases: dict[str, list[tuple[int, tuple[str, ...]]]]
    """First stem of a name -> (docnum, the name's stems) of every entry with such a name."""


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


def named_entries(parsed: ParsedQuery, index: Names) -> dict[int, NameMatch]:
    """Entries one of whose names the query spells out, with the best (longest) place it does."""
    best: dict[int, NameMatch] = {}
    groups = parsed.groups
    for start, group in enumerate(groups):
        firsts = {a.stems[0] for a in group.alternatives if a.weight >= NAMING_WEIGHT}
        for first in firsts:
            for docnum, phrase in index.phrases.get(first, ()):
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


def rank(parsed: ParsedQuery, index: Names, scores: Mapping[int, float]) -> list[tuple[int, float]]:
    """(docnum, score) best first: exact names, then named entries, then BM25F.

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
    4. everything else.
    Ties, and all of 4, go by BM25F, then name."""
    named = named_entries(parsed, index)
    named = {d: m for d, m in named.items() if d in scores}
    keys = {docnum: _key(docnum, named, parsed, index) for docnum in scores}
    order = sorted(scores, key=lambda d: (keys[d], -scores[d], index.docs[d].name.lower()))
    # A score that falls with the rank: BM25F lifted by the rank of the key, so an API user who
    # sorts by score gets this order.
    lift = max(scores.values(), default=0.0) + 1.0
    levels = {key: n for n, key in enumerate(sorted(set(keys.values()), reverse=True))}
    return [(d, round(scores[d] + lift * levels[keys[d]], 4)) for d in order]


def _key(docnum: int, named: dict[int, NameMatch], parsed: ParsedQuery, index: Names) -> tuple[Any, ...]:
    """The ordering key of one candidate (the levels 1-4 of ``rank``)."""
    match = named.get(docnum)
    if match is None:
        return (3, 0.0, 0.0, 0)
    doc = index.docs[docnum]
    specificity = doc.specificity + LENGTH_BONUS * (match.length - 1)
    weight = round(match.weight, 6)
    if match.start == 0 and match.end == len(parsed.groups):
        word_for_word = index.analysis.literal(parsed.text) in doc.literals
        return (0, -weight, -word_for_word, -specificity, -match.length)
    if any(other.outranks(match) for d, other in named.items() if d != docnum):
        return (2, -specificity, -weight, -match.length)
    return (1, -specificity, -weight, -match.length)
