"""An entry as the index holds it: the fields written for it (``document``), how specific it is
(``specificities``), and what is read back once per process (``Doc``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from adjudicator import build
from adjudicator.content.facts import describe
from adjudicator.content.loader import Catalogue, Entry
from adjudicator.content.markdown import render
from adjudicator.search.analysis import Analysis, Span


def names(entry: Entry) -> list[str]:
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


def phrases(entry: Entry, analysis: Analysis) -> list[tuple[str, ...]]:
    """Each name as index stems: what ``ranking.named_entries`` looks for in a query."""
    return sorted({stems for stems in (analysis.stems(n) for n in names(entry)) if stems})


def literals(entry: Entry, analysis: Analysis) -> list[str]:
    """Each name word for word. Stems drop the small words, so "on the move" (the Breakthrough
    deck's orders) and "move" (Movement) are the same phrase; the words typed tell them apart."""
    return sorted({w for w in (analysis.literal(n) for n in names(entry)) if w})


def document(entry: Entry, catalogue: Catalogue, analysis: Analysis) -> dict[str, Any]:
    """The fields the index holds and stores for one entry (``specificity`` is added after)."""
    meta = entry.meta
    all_names = names(entry)
    facts = facts_text(entry, catalogue)
    body = body_text(entry, catalogue)
    return {
        "id": meta.id,
        "kind": meta.kind,
        "expansion": meta.expansion,
        "name": meta.name,
        "aliases": "\n".join(all_names[1:]),
        "summary": meta.summary,
        "facts": facts,
        "body": body,
        "spell": "\n".join([*all_names, meta.summary, facts, body]),
        "url": build.entry_url(meta.kind, meta.id),
        "phrases": [list(p) for p in phrases(entry, analysis)],
        "name_words": sorted({w for n in all_names for w in analysis.words(n)}),
        "literals": literals(entry, analysis),
    }


def specificities(catalogue: Catalogue, texts: dict[str, str], analysis: Analysis) -> dict[str, float]:
    """How specific each entry is: log((N + 1) / (1 + entries that mention it by a name)).

    "Armor", "retreat" and "range" are mentioned all over the rules; "hedgerow", "sniper" or
    "Imperial Japanese Army" in a few entries. When a query names two things, the rarer one is
    what the question is about ("tanks in a bunker", "hedgerow take ground")."""
    own_phrases = {entry_id: phrases(entry, analysis) for entry_id, entry in catalogue.entries.items()}
    longest = max((len(p) for ps in own_phrases.values() for p in ps), default=1)
    grams: dict[str, set[tuple[str, ...]]] = {}
    for entry_id, text in texts.items():
        stems = analysis.stems(text)
        grams[entry_id] = {
            tuple(stems[i:i + n]) for n in range(1, longest + 1) for i in range(len(stems) - n + 1)
        }
    total = len(catalogue.entries)
    result = {}
    for entry_id, own in own_phrases.items():
        mentions = sum(
            1 for other, seen in grams.items() if other != entry_id and any(p in seen for p in own)
        )
        result[entry_id] = round(math.log((total + 1) / (1 + mentions)), 4)
    return result


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
    literals: frozenset[str]  # every name word for word (``literals``)
    tokenize: Callable[[str], tuple[Span, ...]] = field(compare=False, repr=False)

    @cached_property
    def summary_tokens(self) -> tuple[Span, ...]:
        return self.tokenize(self.summary)

    @cached_property
    def body_tokens(self) -> tuple[Span, ...]:
        """Analyzed once per process, on first use, for the snippets."""
        return self.tokenize(self.body)
