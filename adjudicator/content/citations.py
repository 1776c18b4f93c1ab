"""A citation: one ``sources[]`` item of an entry, and where each structured field is decided.

Kept apart from the loader, which validates whole entries with it (docs/contracts.md, section 4)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from adjudicator.content.documents import DOCUMENTS, SOURCES


class Source(BaseModel):
    """One citation: a document of ``DOCUMENTS``, the section in it, the page the section starts on
    (for a document that prints page numbers) and ``facts``: the structured fields of the entry this
    section decides. Each field an entry sets is listed by exactly one of its sources, so a ruling
    that applies the field cites that one passage (checked by ``_check_citations``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    document: str
    section: str
    page: int | None = None
    facts: tuple[str, ...] = ()

    @field_validator("document")
    @classmethod
    def known_document(cls, value: str) -> str:
        if value not in DOCUMENTS:
            raise ValueError(f"unknown document {value!r}; use one of {sorted(DOCUMENTS)}")
        return value

    @field_validator("section")
    @classmethod
    def section_given(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("name the section of the document")
        return value.strip()

    @model_validator(mode="after")
    def page_where_the_document_has_pages(self) -> Source:
        document = SOURCES[self.document]
        if self.page is None and document.needs_page(self.section):
            raise ValueError(f"the {self.document} prints page numbers: give the page the section starts on")
        if self.page is not None and not document.paged:
            raise ValueError(f"the {self.document} has no page numbers: leave page out")
        if self.page is not None and not 1 <= self.page <= document.last_page:
            raise ValueError(f"page {self.page} is not a page of the {self.document} (1-{document.last_page})")
        return self

    @property
    def label(self) -> str:
        """How a ruling quotes it: "Winter Wars rulebook, V. New troops — Half-Tracks, p. 10"."""
        return f"{self.document}, {self.section}" + (f", p. {self.page}" if self.page else "")


@dataclass(frozen=True)
class Citation:
    """Where the value of one structured field of an entry is decided: ``source`` of entry
    ``entry``, which is the entry itself, or the entry it behaves like (``base``) when the field is
    inherited."""

    entry: str
    source: Source
