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


def snippet(doc: Doc, stems: frozenset[str]) -> Markup:
    """The summary with matched words marked; if only the explanation matched, the passage of
    the explanation with the most distinct matched words."""
    summary = doc.summary_spans
    spans = sorted(span for stem in stems if stem in summary for span in summary[stem])
    if spans or not doc.body:
        return highlight(doc.summary, spans)
    body = doc.body
    where = doc.body_spans
    found = sorted((a, b, stem) for stem in stems if stem in where for (a, b) in where[stem])  # in text order
    if not found:
        return highlight(doc.summary, [])
    best, best_count = 0, -1
    for i, (a, _b, _s) in enumerate(found):
        window = set()
        for x, _y, stem in found[i:]:  # in text order: the window ends at the first word past it
            if x >= a + SNIPPET_CHARS:
                break
            window.add(stem)
        if len(window) > best_count:
            best, best_count = i, len(window)
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
