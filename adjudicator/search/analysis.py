"""How text becomes index terms, as the ranking sees it: words, stems, token spans, stop words.

The ranking, the query reader and the snippets need the index's own analysis (the same stems the
index holds), but not the library that implements it. ``whoosh_index.ANALYSIS`` is the one
instance: each opened generation hands it to the pure modules, which never import Whoosh."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

QUESTION_WORDS = frozenset(re.findall(r"\w+", """
    how many much what which who whom whose why where does do did done doing i me my our they them
    their there here he she his her its was were been being am has had would could should shall
    might any some each also about into onto than then just get gets got
"""))
"""Words of a question that never name a rule ("how many dice does artillery roll"): stop words
on top of the analyzer's own."""

Span = tuple[int, int, str]
"""(start, end, stem) of one indexed word of a text."""


@dataclass(frozen=True)
class Analysis:
    words: Callable[[str], list[str]]
    """Lowercased, accent-folded words (no stemming, no stop words): the spelling vocabulary and
    the raw words of a query."""
    stems: Callable[[str], tuple[str, ...]]
    """The analyzed terms of a text exactly as the index holds them."""
    tokens: Callable[[str], tuple[Span, ...]]
    """Every indexed word of a text with where it stands, for the snippets."""
    stoplist: frozenset[str]
    """Words that never name a rule (stop words and question words)."""

    def literal(self, text: str) -> str:
        """``text`` word for word, small words kept: "On the Move" -> "on the move"."""
        return " ".join(self.words(text))
