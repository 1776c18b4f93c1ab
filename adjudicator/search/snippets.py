"""The text under each hit: the summary with the matched words marked, or the passage of the
explanation that matched best. Only our own ``<mark>`` tags; everything else is escaped."""

from __future__ import annotations

from markupsafe import Markup, escape

from adjudicator.search.documents import Doc

SNIPPET_CHARS = 180


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
