"""Source documents: ``/sources/`` lists them, ``/sources/<slug>`` says what one is, which edition,
how to get it and whether it is a primary source; every citation on the site links here.

``citation_json`` is the one way a citation is written for the API and the builder, so a
reason's ``rule`` + ``fact`` (docs/contracts.md, sections 1 and 4) reads the same everywhere."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, url_for

from adjudicator.content.documents import SOURCES, Document
from adjudicator.content.loader import Catalogue, Citation, Source

bp = Blueprint("sources", __name__, url_prefix="/sources")

BY_SLUG: dict[str, Document] = {d.slug: d for d in SOURCES.values()}


def source_url(document: str) -> str:
    """The page of a citable document."""
    return url_for("sources.document", slug=SOURCES[document].slug)


def source_json(source: Source) -> dict[str, Any]:
    """One ``sources[]`` item of an entry, as the API gives it: the page of its document too."""
    return {"document": source.document, "section": source.section, "page": source.page,
            "facts": list(source.facts), "url": source_url(source.document),
            "secondary": not SOURCES[source.document].primary}


def citation_json(citation: Citation) -> dict[str, Any]:
    """Where one structured field is decided; ``entry`` names the entry whose sources list it
    (its ``base`` when the field is inherited)."""
    return {**source_json(citation.source), "entry": citation.entry, "label": citation.source.label}


def _catalogue() -> Catalogue:
    return current_app.extensions["catalogue"]


def cited_by(document: str) -> list[tuple[str, str, str]]:
    """(kind, id, name) of every entry citing ``document``, by name."""
    entries = _catalogue().entries.values()
    return sorted(((e.kind, e.id, e.meta.name) for e in entries
                   if any(s.document == document for s in e.meta.sources)), key=lambda t: t[2].lower())


@bp.get("/")
def index() -> str:
    return render_template("sources_index.html", documents=list(SOURCES.values()),
                           counts={d.name: len(cited_by(d.name)) for d in SOURCES.values()})


@bp.get("/<slug>")
def document(slug: str) -> str:
    found = BY_SLUG.get(slug)
    if found is None:
        abort(404, description=f"No source document is called {slug!r}.")
    return render_template("source.html", doc=found, cited=cited_by(found.name))
