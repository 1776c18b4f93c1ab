"""Citations point somewhere real (project principle "every answer cites", issue #14 B).

Each ``sources[]`` item of an entry names a document of ``adjudicator.content.documents.DOCUMENTS``
and a ``section`` in it. For a seed document the section must be a heading the document actually
has, so a referee who opens the document finds the place: a section such as
``"Terrain types — Forests; Actions — Sabotage (the dam)"`` is read as parts (``;``), each a path of
headings (``—``), the last of which may list several headings (``,``); words in parentheses are
our own qualifiers and are not matched. Every heading of a path must exist in the document; their
nesting is not checked (the extracted text keeps too little layout for that). Matching ignores
case, punctuation, dashes and "&"/"and", since the documents' text extraction is not faithful to
their layout.

Where ``../shared/seeds`` is present the headings are parsed from the documents themselves; the
headings the catalogue cites are also kept as facts in ``tests/source_manifest.yaml``
(``section_headings``), so a clone without the documents still fails on a citation nobody has
checked against them, and ``tests/test_source_manifest.py`` re-derives that list from the
documents where they are."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

import yaml

from adjudicator.content.documents import DOCUMENTS, SOURCES
from adjudicator.content.loader import Catalogue
from tests.sources import MANIFEST, SEEDS, needs_seeds

SEED_DOCUMENTS = {name: seed for name, seed in DOCUMENTS.items() if seed}

# Extraction quirks of the documents (seeds README: "text extraction lost some characters and
# layout"), each checked against the document below, never taken on trust.
LABELS_WITHOUT_SEPARATOR: dict[str, tuple[str, ...]] = {
    # The Supply Trucks rules' considerations lists lost the " - " after each bold label
    # ("Wire Supply Trucks may not remove wire"): the label starts its bullet line.
    "Supply Trucks rules": (
        "Oceans", "Cliffs & Sea Bluffs", "Wire", "Railroad Bridges & Railroad Tracks", "Infantry Assault",
        "Move Out", "Ambush, Close Assault, Firefight", "Behind Enemy Lines, Dig-in, Medics & Mechanics",
        "Their Finest Hour", "Collapsible Rafts and Boats", "Heroic Leader", "Hospital Recovery, Oasis Recovery",
        "Reinforcements",
    ),
}

BULLET = re.compile(r"^(?:[-*•◆]+\s*)+")


def normalise(text: str) -> str:
    """Case, punctuation, dashes and "&" versus "and" do not matter: the extraction mangles them."""
    text = text.lower().replace("&", " and ").replace("\u2019", "'")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def seed_text(document: str) -> str:
    return (SEEDS / SEED_DOCUMENTS[document]).read_text(encoding="utf-8", errors="replace")


def bullet_lines(text: str) -> Iterator[str]:
    for raw in text.splitlines():
        line = raw.replace("*", "").strip()
        if BULLET.match(line):
            yield normalise(BULLET.sub("", line))


def document_headings(document: str, text: str) -> set[str]:
    """Every heading of a document, normalised: short lines that stand alone (titles, table of
    contents, terrain and action names), the label of a bullet or paragraph ("Flag - RETREAT: …",
    "**Movement:** …"), a title split over two lines by the extraction ("ACTIONS" then "24"), and
    each name of a combined heading ("Winter Hill - Winter Village", "Red Army (RKKA)")."""
    found: set[str] = set()
    lines = [re.sub(r"^#+\s*", "", raw.replace("*", "").strip()) for raw in text.splitlines()]
    for index, line in enumerate(lines):
        is_bullet = bool(BULLET.match(line))
        body = BULLET.sub("", line).strip()
        if not body:
            continue
        label = re.match(r"^(.{1,60}?)\s+-\s+", body) or re.match(r"^(.{1,60}?):", body)
        if label and len(label[1].split()) <= 6:
            found.add(label[1])
        if not is_bullet and len(body.split()) <= 8 and not body.endswith((".", ",")):
            title = re.sub(r"\s+\d+$", "", body)  # a page number in the table of contents
            found.add(title)
            following = next((n for n in lines[index + 1:] if n), "")
            if following.isdigit():
                found.add(f"{title} {following}")
    for heading in list(found):
        found.add(re.sub(r"\s*\([^)]*\)", "", heading))
        found.update(re.split(r"\s+[-/]\s+", heading))
    bullets = list(bullet_lines(text))
    for label in LABELS_WITHOUT_SEPARATOR.get(document, ()):
        if any(line.startswith(normalise(label) + " ") for line in bullets):
            found.add(label)
    return {normalise(h) for h in found} - {""}


def cited_headings(section: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(what was cited, the normalised forms any of which the document must have) for each heading
    a ``section`` names. A later heading of a path may also be found joined to an earlier one
    ("Half-tracks — Medals" is the document's "Half-tracks - Medals")."""
    for part in re.sub(r"\([^)]*\)", "", section).split(";"):
        path = [c.strip() for c in re.split(r"\s+[—–]\s+", part) if c.strip()]
        for depth, component in enumerate(path):
            names = [component]
            if depth == len(path) - 1 and "," in component:
                names = [n.strip() for n in component.split(",") if n.strip()]
            for name in names:
                forms = [name, *(f"{earlier} {name}" for earlier in path[:depth])]
                whole = [component, *(f"{earlier} {component}" for earlier in path[:depth])]
                yield name, tuple(dict.fromkeys(normalise(f) for f in forms + whole))


def missing_headings(catalogue: Catalogue, headings: dict[str, Iterable[str]]) -> list[str]:
    """Every cited heading of a seed document that the document (as ``headings`` has it) lacks."""
    known = {document: set(names) for document, names in headings.items()}
    missing = []
    for entry in catalogue.entries.values():
        for source in entry.meta.sources:
            if source.document not in SEED_DOCUMENTS:
                continue
            for name, forms in cited_headings(source.section):
                if not known.get(source.document, set()) & set(forms):
                    missing.append(f"{entry.id}: {source.document} has no heading {name!r} ({source.section})")
    return missing


def cited_document_headings(catalogue: Catalogue, headings: dict[str, set[str]]) -> dict[str, list[str]]:
    """The headings the catalogue cites that the documents have, per document: the manifest's
    ``section_headings``."""
    out: dict[str, set[str]] = {document: set() for document in SEED_DOCUMENTS}
    for entry in catalogue.entries.values():
        for source in entry.meta.sources:
            if source.document in SEED_DOCUMENTS:
                for _, forms in cited_headings(source.section):
                    out[source.document].update(set(forms) & headings[source.document])
    return {document: sorted(names) for document, names in out.items()}


def headings_from_documents() -> dict[str, set[str]]:
    return {document: document_headings(document, seed_text(document)) for document in SEED_DOCUMENTS}


def recorded_headings() -> dict[str, list[str]]:
    facts = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return facts["section_headings"]


# -- the matcher itself ------------------------------------------------------------------------------

def test_heading_match_ignores_case_punctuation_dashes_and_ampersands() -> None:
    text = "TERRAIN TYPES\n\nCliffs & Sea Bluffs\n\n  • Flag - RETREAT: after hits\n\nRed Army (RKKA)\n"
    headings = document_headings("any", text)
    assert {"terrain types", "cliffs and sea bluffs", "flag", "red army", "red army rkka"} <= headings
    assert [name for name, forms in cited_headings("Terrain types — Cliffs and Sea-Bluffs (our note; its)")
            if not set(forms) & headings] == []
    assert [name for name, forms in cited_headings("Terrain types — Forests, Cliffs & Sea Bluffs")
            if not set(forms) & headings] == ["Forests"]
    assert [name for name, forms in cited_headings("Terain types") if not set(forms) & headings] == ["Terain types"]


# -- against the documents (where they are) ----------------------------------------------------------

@needs_seeds
def test_every_cited_document_is_a_known_seed_or_a_flagged_secondary_source(catalogue: Catalogue) -> None:
    readme = (SEEDS / "README.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([^`]+\.txt)` \|.*\| ([^|]+?) \|$", readme, flags=re.MULTILINE))
    assert {name: seed for name, seed in listed.items()} == {seed: name for name, seed in SEED_DOCUMENTS.items()}
    for seed in SEED_DOCUMENTS.values():
        assert (SEEDS / seed).is_file(), seed
    cited = {source.document for entry in catalogue.entries.values() for source in entry.meta.sources}
    assert cited <= set(DOCUMENTS), cited - set(DOCUMENTS)
    assert set(SEED_DOCUMENTS) <= cited


@needs_seeds
def test_extraction_quirks_are_real() -> None:
    for document, labels in LABELS_WITHOUT_SEPARATOR.items():
        bullets = list(bullet_lines(seed_text(document)))
        for label in labels:
            assert any(line.startswith(normalise(label) + " ") for line in bullets), (document, label)


@needs_seeds
def test_every_cited_section_is_a_heading_of_its_document(catalogue: Catalogue) -> None:
    assert missing_headings(catalogue, headings_from_documents()) == []


# -- against the manifest (everywhere) ---------------------------------------------------------------

def test_every_cited_section_is_a_recorded_heading_of_its_document(catalogue: Catalogue) -> None:
    recorded = recorded_headings()
    assert set(recorded) == set(SEED_DOCUMENTS)
    assert missing_headings(catalogue, recorded) == []


def test_recorded_headings_are_names_not_sentences() -> None:
    """The manifest keeps facts, never prose of a source."""
    for document, names in recorded_headings().items():
        assert names and all(len(name.split()) <= 8 for name in names), document
        assert names == sorted(set(names)), document



def named_documents(text: str) -> list[str]:
    """The seed documents a text names, whatever its line breaks and capitals."""
    flat = " ".join(text.split()).lower()
    return [name for name in SEED_DOCUMENTS if name.lower() in flat]


def test_a_page_that_names_a_source_document_cites_it(catalogue: Catalogue) -> None:
    """A body or summary that attributes a fact to a document ("the Half-Tracks rules say…") lists
    that document in ``sources``, so the page shows where to read it (BGA is checked in
    tests/test_content_accuracy.py)."""
    uncited = []
    for entry in catalogue.entries.values():
        cited = {source.document for source in entry.meta.sources}
        uncited += [f"{entry.id}: {name}" for name in named_documents(f"{entry.meta.summary} {entry.body}")
                    if name not in cited]
    assert uncited == []


def test_a_document_named_across_a_line_break_is_seen() -> None:
    assert named_documents("as the Winter Wars\nrulebook and the half-tracks RULES say") == [
        "Winter Wars rulebook", "Half-Tracks rules"]
    assert named_documents("the winter rules") == []


# -- pages: a document that prints page numbers is cited with the page its section starts on -------

TOC_SPELLINGS = {"504th parachute infantry regiment": "504th pir", "exit markers": "exit tokens"}
"""Headings the Winter Wars contents list spells otherwise than the text does (checked below)."""

CHAPTER = re.compile(r"^(i|ii|iii|iv|v|vi|vii|viii|ix|x)\.\s")


def toc_key(text: str) -> str:
    """Spacing, case and a plural "s" do not matter ("504 th PIR", "Winter Road Blocks")."""
    key = normalise(text)
    return TOC_SPELLINGS.get(key, key).replace(" ", "").removesuffix("s")


def section_page(document: str, section: str) -> int | None:
    """The page a section starts on, from the document's contents: the deepest heading of the
    section's path that the contents list, a chapter by its number ("V. New troops" is V)."""
    contents = SOURCES[document].contents
    chapters = {m[1]: page for heading, page in contents if (m := CHAPTER.match(heading.lower()))}
    pages = {toc_key(heading): page for heading, page in contents}
    found = None
    for component in re.split(r"\s+[—–]\s+", re.sub(r"\([^)]*\)", "", section)):
        component = component.strip()
        chapter = CHAPTER.match(component.lower())
        if chapter:
            found = chapters.get(chapter[1], found)
            continue
        for name in [component, *re.split(r"\s*[,/]\s*", component)]:
            if toc_key(name) in pages:
                found = pages[toc_key(name)]
                break
    return found


def wrong_pages(catalogue: Catalogue) -> list[str]:
    wrong = []
    for entry in catalogue.entries.values():
        for source in entry.meta.sources:
            if not SOURCES[source.document].paged or source.page is None:
                continue
            expected = section_page(source.document, source.section)
            if expected != source.page:
                wrong.append(f"{entry.id}: {source.section!r} starts on page {expected}, not {source.page}")
    return wrong


def test_the_page_matcher_reads_the_contents_list() -> None:
    ww = "Winter Wars rulebook"
    assert section_page(ww, "V. New troops — Half-Tracks — Half-Tracks Re-supply") == 10
    assert section_page(ww, "V. New troops — 504th Parachute Infantry Regiment") == 11
    assert section_page(ww, "I. New terrain tiles — Castle (air check 2)") == 3
    assert section_page(ww, "IV. New obstacles & tokens — Winter Road Blocks") == 8
    assert section_page(ww, "II. New rules — Breakthrough Command Cards — Tactic Cards (Air Power)") == 6
    assert section_page(ww, "Foreword") is None


def test_every_page_given_is_the_page_its_section_starts_on(catalogue: Catalogue) -> None:
    """Winter Wars citations give the page of the contents list (issue: a referee finds the passage)."""
    cited = [s for e in catalogue.entries.values() for s in e.meta.sources if s.page is not None]
    assert len(cited) >= 60
    assert wrong_pages(catalogue) == []


def test_a_wrong_page_is_reported(catalogue: Catalogue) -> None:
    entry = catalogue.entries["tank_destroyer"]
    source = next(s for s in entry.meta.sources if s.page)
    moved = source.model_copy(update={"page": 10})
    broken = Catalogue(entries={"tank_destroyer": replace(entry, meta=entry.meta.model_copy(
        update={"sources": (moved,)}))}, content_hash="x")
    assert wrong_pages(broken) == ["tank_destroyer: 'V. New troops — Tank Destroyers' starts on page 8, not 10"]


def test_a_citation_names_one_passage(catalogue: Catalogue) -> None:
    """Each sources[] item is one passage: several sections are several items, each with the facts
    it decides (words in parentheses are qualifiers)."""
    several = [f"{e.id}: {s.section}" for e in catalogue.entries.values() for s in e.meta.sources
               if ";" in re.sub(r"\([^)]*\)", "", s.section)]
    assert several == []


@needs_seeds
def test_the_recorded_contents_list_is_the_documents() -> None:
    """documents.py keeps the Winter Wars contents list (headings and pages) for its source page and
    these checks; it is the one the document prints."""
    text = seed_text("Winter Wars rulebook")
    block = text[text.index("TABLE OF CONTENTS"):text.index("I. NEW TERRAIN TILES")]
    printed = [(toc_key(m[1]), int(m[2])) for m in re.finditer(r"^(.+?)\s+(\d+)\s*$", block, flags=re.MULTILINE)]
    assert len(printed) >= 30
    assert printed == [(toc_key(h), p) for h, p in SOURCES["Winter Wars rulebook"].contents]
    for spelled, listed in TOC_SPELLINGS.items():
        assert normalise(spelled) in normalise(text) and listed.replace(" ", "") in normalise(block).replace(" ", "")


if __name__ == "__main__":  # pragma: no cover - run by hand: python -m tests.test_citations
    # Rewrites the manifest's ``section_headings`` from the documents (after a citation to a new
    # heading is added); every other fact of the manifest is left as it is.
    from adjudicator.content.loader import load_catalogue
    from tests.sources import REPO

    headings = cited_document_headings(load_catalogue(REPO / "content"), headings_from_documents())
    text = MANIFEST.read_text(encoding="utf-8")
    start = text.index("section_headings:")
    MANIFEST.write_text(text[:start] + yaml.safe_dump({"section_headings": headings}, allow_unicode=True,
                                                      sort_keys=False), encoding="utf-8")
