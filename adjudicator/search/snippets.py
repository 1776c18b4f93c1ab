"""The text under each hit: the summary with the matched words marked, or the passage of the
explanation that matched best. Only our own ``<mark>`` tags; everything else is escaped."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from markupsafe import Markup

from adjudicator.search.analysis import Span
from adjudicator.search.documents import HTML_SPECIAL, Doc

SNIPPET_CHARS = 180


def highlight(text: str, spans: list[tuple[int, int]], start: int = 0, end: int | None = None) -> Markup:
    """Escaped ``text[start:end]`` with only our own ``<mark>`` tags around matched words."""
    end = len(text) if end is None else end
    marked = [(a, b, "") for a, b in spans]
    return Markup(_marked(text, marked, start, end, not HTML_SPECIAL.search(text, start, end)))


def _marked(text: str, spans: Iterable[Span], start: int, end: int, plain: bool) -> str:
    """``highlight`` as a plain string; ``plain``: the text has nothing to escape (most rules
    text), so its pieces are sliced, not escaped one by one."""
    out: list[str] = []
    cursor = start
    if plain:
        for a, b, _stem in spans:
            if a >= start and b <= end:
                out += (text[cursor:a], "<mark>", text[a:b], "</mark>")
                cursor = b
        out.append(text[cursor:end])
        return "".join(out)
    for a, b, _stem in spans:
        if a >= start and b <= end:
            out += (_escape(text[cursor:a]), "<mark>", _escape(text[a:b]), "</mark>")
            cursor = b
    out.append(_escape(text[cursor:end]))
    return "".join(out)


def _escape(text: str) -> str:
    """What ``markupsafe.escape`` gives, as a plain string: its Python wrapper and the Markup it
    returns cost twice the replacing for the short pieces of a snippet (a test checks they agree)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
            .replace("'", "&#39;"))


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
        if len(matched) == 1:  # one stem: its spans are in text order already
            spans: Iterable[Span] = summary[matched.pop()]
        else:
            spans = sorted(chain.from_iterable(summary[stem] for stem in matched))
        return Markup(_marked(doc.summary, spans, 0, len(doc.summary), doc.summary_plain))
    body = doc.body
    where = doc.body_spans
    found = sorted(chain.from_iterable(where[stem] for stem in where.keys() & stems))  # in text order
    if not found:
        return Markup(_marked(doc.summary, (), 0, len(doc.summary), doc.summary_plain))
    centre = found[_densest(found)][0]
    start = max(0, centre - 40)
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < centre else start
    end = min(len(body), start + SNIPPET_CHARS)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > centre else end
    fragment = _marked(body, found, start, end, doc.body_plain)
    return Markup("".join(("… " if start else "", fragment, " …" if end < len(body) else "")))
