"""Field checks the content models share (``EntryMeta``, ``Source``): each an ``Annotated``
validator, so a field states its check where it is declared and the message names the field."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import AfterValidator


def one_of(known: Collection[str], what: str) -> AfterValidator:
    """The value must be one of ``known`` (a kind, an expansion, a document)."""

    def check(value: str) -> str:
        if value not in known:
            raise ValueError(f"unknown {what} {value!r}; use one of {list(known)}")
        return value

    return AfterValidator(check)


def not_blank(message: str) -> AfterValidator:
    """The value, stripped, must not be empty; stored stripped."""

    def check(value: str) -> str:
        if not value.strip():
            raise ValueError(message)
        return value.strip()

    return AfterValidator(check)
