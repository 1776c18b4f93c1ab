"""The text under each hit: the summary with the matched words marked, or the passage of the
explanation that matched best. Only our own ``<mark>`` tags; everything else is escaped."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from adjudicator.search.documents import Doc

SNIPPET_CHARS = 180
HTML_SPECIAL = re.compile("[&<>\"']")
"""The characters ``escape`` replaces: text without them is its own escaped form."""


def highlight(text: str, spans: list[tuple[int, int]], start: int = 0, end: int | None = None) -> Markup:
    """Escaped ``text[start:end]`` with only our own ``<mark>`` tags around matched words."""
    end = len(text) if end is None else end
    safe = escape if HTML_SPECIAL.search(text, start, end) else str  # most rules text has none
    out: list[str] = []
    cursor = start
    for a, b in spans:
        if a < start or b > end:
            continue
        out += (safe(text[cursor:a]), "<mark>", safe(text[a:b]), "</mark>")
        cursor = b
    out.append(safe(text[cursor:end]))
    return Markup("".join(out))


def _densest(found: list[tuple[int, int, str]]) -> int:
    """The first matched word (of ``found``, in text order) that starts the window of
    ``SNIPPET_CHARS`` holding the most distinct matched stems: one pass, the window's end
    moving on as its start does."""
    best, best_count = 0, -1
    counts: dict[str, int] = {}
    end = 0
    for i, (a, _b, _s) in enumerate(found):
        while end < len(found) and found[end][0] < a + SNIPPET_CHARS:
            stem = found[end][2]
            counts[stem] = counts.get(stem, 0) + 1
            end += 1
        if len(counts) > best_count:
            best, best_count = i, len(counts)
        stem = found[i][2]
        counts[stem] -= 1
        if not counts[stem]:
            del counts[stem]
    return best


def snippet(doc: Doc, stems: frozenset[str]) -> Markup:
    """The summary with matched words marked; if only the explanation matched, the passage of
    the explanation with the most distinct matched words."""
    summary = doc.summary_spans
    matched = summary.keys() & stems
    if matched or not doc.body:
        return highlight(doc.summary, sorted(span for stem in matched for span in summary[stem]))
    body = doc.body
    where = doc.body_spans
    found = sorted((a, b, stem) for stem in where.keys() & stems for (a, b) in where[stem])  # in text order
    if not found:
        return highlight(doc.summary, [])
    centre = found[_densest(found)][0]
    start = max(0, centre - 40)
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < centre else start
    end = min(len(body), start + SNIPPET_CHARS)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > centre else end
    fragment = highlight(body, [(a, b) for (a, b, _s) in found], start, end)
    return Markup("".join(("… " if start else "", fragment, " …" if end < len(body) else "")))
