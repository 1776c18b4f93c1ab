"""The index's own words, for typo correction ("hedgrow" -> "hedgerow") and for completing the
word still being typed ("fores" -> "forest")."""

from __future__ import annotations

import bisect

from adjudicator.search.analysis import Analysis


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

    def __init__(self, frequencies: dict[str, int], name_words: set[str], stems: set[str],
                 analysis: Analysis) -> None:
        self.frequencies = frequencies
        self.name_words = name_words
        self.stems = stems
        self.analysis = analysis
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
        stems = self.analysis.stems(word)
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
            if word != prefix and word not in self.analysis.stoplist:
                found.append(word)
        return sorted(found, key=self._rank)[:limit]
