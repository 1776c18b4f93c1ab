"""Render entry explanations: CommonMark without raw HTML, plus ``[[id]]`` links to entries.

Raw HTML is disabled so nothing in a content file can inject markup into a page."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from markdown_it import MarkdownIt

ENTRY_LINK = re.compile(r"\[\[([a-z][a-z0-9_]*)(?:\|([^\]]+))?\]\]")
"""``[[forest]]`` or ``[[forest|woods]]``: a link to another entry, by id."""


@cache
def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def linked_ids(text: str) -> list[str]:
    return [m.group(1) for m in ENTRY_LINK.finditer(text)]


def render(text: str, resolve: Callable[[str], tuple[str, str] | None]) -> str:
    """HTML for ``text``; ``resolve(id)`` gives (url, name) of an entry, or None if unknown."""

    def replace(match: re.Match[str]) -> str:
        target = resolve(match.group(1))
        if target is None:
            return match.group(0)
        url, name = target
        label = (match.group(2) or name).replace("[", "").replace("]", "")
        return f"[{label}]({url})"

    html: str = _renderer().render(ENTRY_LINK.sub(replace, text))
    return html
