"""Read ``content/<kind>/<id>.md`` files into validated entries.

Each file is YAML front matter (common fields plus the kind's structured fields, see
``adjudicator.engine.rulebook``) followed by a Markdown explanation. Every problem is reported
as ``file: field: message`` and all problems of a run are reported together, so an author fixes
them in one pass.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from threading import Lock
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, field_validator

from adjudicator.content.checks import not_blank, one_of
from adjudicator.content.citations import Citation, Source
from adjudicator.content.documents import EXPANSIONS, KIND_LABELS
from adjudicator.content.markdown import linked_ids
from adjudicator.engine.rulebook import KIND_RULES, Rulebook

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
# libyaml's parser with the same safe constructors: a third of every start-up (each gunicorn worker,
# each `flask` command) went to parsing 219 front matters in pure Python. Same documents, same values.
YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n?(.*)\Z", re.DOTALL)
COMMON_FIELDS = (
    "id", "kind", "name", "aliases", "terms", "summary", "expansion", "sources", "see_also", "base",
)


class EntryMeta(BaseModel):
    """The fields every entry has, whatever its kind."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    kind: Annotated[str, one_of(KIND_LABELS, "kind")]
    name: Annotated[str, not_blank("must not be empty")]
    aliases: tuple[str, ...] = ()
    # words the rules use that this entry defines ("spare figures" on the Combat cards page): search
    # finds the entry by them as by a name, but they are not other names of the thing itself
    terms: tuple[str, ...] = ()
    summary: Annotated[str, not_blank("must not be empty")]
    expansion: Annotated[str, one_of(EXPANSIONS, "expansion")]
    sources: tuple[Source, ...]
    see_also: tuple[str, ...] = ()
    base: str | None = None

    @field_validator("id")
    @classmethod
    def snake_case_id(cls, value: str) -> str:
        if not ID_PATTERN.match(value):
            raise ValueError("must be snake_case: lowercase letters, digits and underscores")
        return value

    @field_validator("sources")
    @classmethod
    def at_least_one_source(cls, value: tuple[Source, ...]) -> tuple[Source, ...]:
        if not value:
            raise ValueError("cite at least one source")
        return value


@dataclass(frozen=True)
class ContentProblem:
    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}"


class ContentError(ValueError):
    """Raised when the content does not validate; carries every problem found."""

    def __init__(self, problems: list[ContentProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Entry:
    """One validated rule entry."""

    meta: EntryMeta
    facts: dict[str, Any]  # structured fields as written (after ``base`` inheritance)
    rules: Any  # the kind's typed rules object (rulebook dataclass)
    body: str
    path: str

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def kind(self) -> str:
        return self.meta.kind


@dataclass
class Catalogue:
    """All entries, in a stable order (kind order, then name)."""

    entries: dict[str, Entry]
    content_hash: str
    backlinks: dict[str, list[str]] = field(default_factory=dict)
    citations: dict[str, dict[str, Citation]] = field(default_factory=dict)
    """entry id -> structured field (``base`` included) -> its citation, inherited fields too."""

    def citation(self, entry_id: str, fact: str) -> Citation | None:
        """The one passage that decides ``fact`` of ``entry_id`` (a reason's ``rule`` and ``fact``)."""
        return self.citations.get(entry_id, {}).get(fact)

    def by_kind(self, kind: str) -> list[Entry]:
        return sorted(
            (e for e in self.entries.values() if e.kind == kind), key=lambda e: e.meta.name.lower()
        )

    def rulebook(self) -> Rulebook:
        tiers: tuple[dict[str, list[str]], ...] = ({}, {}, {})  # editor names, names, aliases
        for entry in self.entries.values():
            named = (getattr(entry.rules, "editor_names", ()), (entry.meta.name,), entry.meta.aliases)
            for tier, names in zip(tiers, named, strict=True):
                for name in names:
                    tier.setdefault(name.strip().lower(), []).append(entry.id)
        aliases: dict[str, tuple[str, ...]] = {}
        for tier in tiers:
            for key, ids in tier.items():
                aliases[key] = tuple(dict.fromkeys((*aliases.get(key, ()), *ids)))
        return Rulebook(
            names={i: e.meta.name for i, e in self.entries.items()},
            kinds={i: e.kind for i, e in self.entries.items()},
            rules={i: e.rules for i, e in self.entries.items()},
            aliases=aliases,
            bases={i: e.meta.base for i, e in self.entries.items() if e.meta.base},
        )


def content_dir() -> Path:
    """The repository's ``content/`` folder."""
    return Path(__file__).resolve().parents[2] / "content"


def content_files(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*/*.md") if p.is_file())


def content_hash(root: Path) -> str:
    """Hash of every content file's path and bytes: the build cache key for db and index."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _loc(loc: Iterable[Any]) -> str:
    parts = [str(p) for p in loc if not str(p).startswith(("function-", "tagged-union"))]
    return ".".join(parts) or "(front matter)"


def _parse_file(path: Path, root: Path) -> tuple[dict[str, Any], str] | ContentProblem:
    rel = str(path.relative_to(root.parent))
    text = path.read_text(encoding="utf-8")
    match = FRONT_MATTER.match(text)
    if not match:
        return ContentProblem(rel, "(file)", "must start with YAML front matter between '---' lines")
    try:
        data = yaml.load(match.group(1), Loader=YAML_LOADER)  # a safe loader
    except yaml.YAMLError as exc:
        return ContentProblem(rel, "(front matter)", f"invalid YAML: {exc}".replace("\n", " "))
    if not isinstance(data, dict):
        return ContentProblem(rel, "(front matter)", "must be a mapping of fields")
    return data, match.group(2).strip()


@cache
def _adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(KIND_RULES[kind])


def _validate_meta(data: dict[str, Any], rel: str) -> EntryMeta | list[ContentProblem]:
    common = {k: v for k, v in data.items() if k in COMMON_FIELDS}
    try:
        return EntryMeta.model_validate(common)
    except ValidationError as exc:
        return [ContentProblem(rel, _loc(err["loc"]), err["msg"]) for err in exc.errors()]


_PARSED: dict[tuple[Path, str], Catalogue] = {}
"""Catalogues kept by ``load_catalogue`` under (folder, content hash): the current content's and
a few others, oldest dropped first (tests load changed copies of ``content/``)."""
_PARSED_KEPT = 4
_PARSED_LOCK = Lock()


def load_catalogue(root: Path | None = None) -> Catalogue:
    """Load and validate every entry under ``root``; raise ContentError listing all problems.

    Parsing and validating every file is most of an app's start (~0.2 s); a process that makes
    several apps from the same content (the test suite makes dozens, `flask build` then the
    server's own app) does it once: the catalogue is kept under the content's hash, so changed
    bytes are parsed afresh. Nothing changes a catalogue once loaded."""
    root = (root or content_dir()).resolve()
    key = (root, content_hash(root))
    found = _PARSED.get(key)
    if found is None:
        found = _parse_catalogue(root, key[1])
        with _PARSED_LOCK:
            while len(_PARSED) >= _PARSED_KEPT:
                del _PARSED[next(iter(_PARSED))]  # the oldest
            _PARSED[key] = found
    return found


def _parse_catalogue(root: Path, digest: str) -> Catalogue:
    problems: list[ContentProblem] = []
    raw: dict[str, tuple[EntryMeta, dict[str, Any], str, str]] = {}
    for path in content_files(root):
        rel = str(path.relative_to(root.parent))
        parsed = _parse_file(path, root)
        if isinstance(parsed, ContentProblem):
            problems.append(parsed)
            continue
        data, body = parsed
        meta = _validate_meta(data, rel)
        if isinstance(meta, list):
            problems.extend(meta)
            continue
        if path.parent.name != meta.kind:
            problems.append(ContentProblem(rel, "kind", f"is {meta.kind!r} but the file is in {path.parent.name}/"))
        if path.stem != meta.id:
            problems.append(ContentProblem(rel, "id", f"is {meta.id!r} but the file is named {path.stem}.md"))
        if meta.id in raw:
            problems.append(ContentProblem(rel, "id", f"{meta.id!r} is already used by {raw[meta.id][3]}"))
            continue
        if not body:
            problems.append(ContentProblem(rel, "(body)", "the explanation after the front matter is empty"))
        facts = {k: v for k, v in data.items() if k not in COMMON_FIELDS}
        raw[meta.id] = (meta, facts, body, rel)

    entries: dict[str, Entry] = {}
    for entry_id, (meta, _facts, body, rel) in raw.items():
        merged = _inherit(entry_id, raw, rel, problems)
        if merged is None:
            continue
        try:
            rules = _adapter(meta.kind).validate_python(merged)
        except ValidationError as exc:
            problems.extend(ContentProblem(rel, _loc(e["loc"]), e["msg"]) for e in exc.errors())
            continue
        entries[entry_id] = Entry(meta=meta, facts=merged, rules=rules, body=body, path=rel)

    problems.extend(_check_references(entries, raw))
    problems.extend(_check_citations(raw))
    if problems:
        raise ContentError(problems)
    catalogue = Catalogue(entries=dict(sorted(entries.items())), content_hash=digest,
                          citations={i: _citations(i, e, raw) for i, e in sorted(entries.items())})
    for entry in entries.values():
        for target in entry.meta.see_also:
            catalogue.backlinks.setdefault(target, []).append(entry.id)
    return catalogue


def _inherit(
    entry_id: str,
    raw: dict[str, tuple[EntryMeta, dict[str, Any], str, str]],
    rel: str,
    problems: list[ContentProblem],
) -> dict[str, Any] | None:
    """Structured fields of ``entry_id`` with those of its ``base`` chain filled in.

    Winter variants and special units name the entry they behave like; they state only what
    differs, so the base's numbers are written once."""
    chain: list[str] = []
    current: str | None = entry_id
    while current is not None:
        if current in chain:
            problems.append(ContentProblem(rel, "base", f"cycle through {' -> '.join([*chain, current])}"))
            return None
        if current not in raw:
            problems.append(ContentProblem(rel, "base", f"unknown entry {current!r}"))
            return None
        chain.append(current)
        current = raw[current][0].base
    kind = raw[entry_id][0].kind
    merged: dict[str, Any] = {}
    for ancestor in reversed(chain):
        ancestor_kind = raw[ancestor][0].kind
        if ancestor_kind != kind and not {ancestor_kind, kind} <= {"terrain", "obstacle", "marker"}:
            problems.append(ContentProblem(rel, "base", f"{ancestor!r} is a {ancestor_kind}, not a {kind}"))
            return None
        merged.update(raw[ancestor][1])
    if kind != "marker":
        merged.pop("placed_on", None)
    return merged


def _referenced_ids(rules: Any) -> Iterable[tuple[str, str]]:
    """(field, id) pairs for every content id named inside a rules object."""
    id_fields = {
        "turns_into", "units", "orders_units", "excludes_units", "attacker_terrain",
        "from_terrains", "applies_to", "places_obstacle", "extra_units_not_with", "cannot_target_units",
        "cannot_clear", "not_for_units", "terrains", "and_terrains",
    }

    def walk(value: Any, name: str, path: str) -> Iterable[tuple[str, str]]:
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                yield from walk(getattr(value, f.name), f.name, f"{path}.{f.name}" if path else f.name)
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                yield from walk(item, name, f"{path}.{i}")
        elif isinstance(value, str) and name in id_fields:
            yield path, value

    yield from walk(rules, "", "")
    if hasattr(rules, "dice_on_terrain"):
        for terrain in rules.dice_on_terrain:
            yield f"dice_on_terrain.{terrain}", terrain


def _check_references(
    entries: dict[str, Entry], raw: dict[str, tuple[EntryMeta, dict[str, Any], str, str]]
) -> list[ContentProblem]:
    problems: list[ContentProblem] = []
    seen_names: dict[str, str] = {}
    for entry in entries.values():
        for i, target in enumerate(entry.meta.see_also):
            if target not in raw:
                problems.append(ContentProblem(entry.path, f"see_also.{i}", f"unknown entry id {target!r}"))
            elif target == entry.id:
                problems.append(ContentProblem(entry.path, f"see_also.{i}", "an entry cannot see-also itself"))
        for target in linked_ids(entry.body):
            if target not in raw:
                problems.append(ContentProblem(entry.path, "(body)", f"link [[{target}]] names no entry"))
        for field_path, target in _referenced_ids(entry.rules):
            if target not in raw:
                problems.append(ContentProblem(entry.path, field_path, f"unknown entry id {target!r}"))
        named = [("name", entry.meta.name), *((f"aliases.{i}", a) for i, a in enumerate(entry.meta.aliases)),
                 *((f"terms.{i}", t) for i, t in enumerate(entry.meta.terms))]
        for field_name, alias in named:
            key = alias.strip().lower()
            other = seen_names.get(key)
            if key in raw and key != entry.id:
                problems.append(ContentProblem(entry.path, field_name, f"{alias!r} is the id of {raw[key][3]}"))
            elif other is not None and other != entry.id:
                problems.append(
                    ContentProblem(entry.path, field_name, f"{alias!r} is also a name or alias of {other}")
                )
            seen_names[key] = entry.id
    return problems


def _cited_fields(meta: EntryMeta, own: dict[str, Any]) -> set[str]:
    """The fields an entry must cite: each structured field it sets, and ``base`` (which entry it
    behaves like is a ruling too: "a Winter Church has the same effect as a Town")."""
    return set(own) | ({"base"} if meta.base else set())


def _check_citations(raw: dict[str, tuple[EntryMeta, dict[str, Any], str, str]]) -> list[ContentProblem]:
    """Each field an entry sets is listed in the ``facts`` of exactly one of its sources, and a
    source lists only fields the entry sets."""
    problems: list[ContentProblem] = []
    for meta, own, _body, rel in raw.values():
        required = _cited_fields(meta, own)
        rules_type = KIND_RULES[meta.kind]
        assert dataclasses.is_dataclass(rules_type)  # every kind's rules are a dataclass
        schema = {f.name for f in dataclasses.fields(rules_type)} | {"base"}
        cited_by: dict[str, int] = {}
        for i, source in enumerate(meta.sources):
            for j, fact in enumerate(source.facts):
                where = f"sources.{i}.facts.{j}"
                if fact in cited_by:
                    twice = f"{fact!r} is already cited by sources.{cited_by[fact]}: one passage decides a field"
                    problems.append(ContentProblem(rel, where, twice))
                elif fact not in schema:
                    problems.append(ContentProblem(rel, where, f"unknown field {fact!r} for a {meta.kind}"))
                elif fact not in required:
                    inherited = f" (it comes from base {meta.base!r}: its page cites it)" if meta.base else ""
                    problems.append(ContentProblem(rel, where, f"{fact!r} is not set by this entry{inherited}"))
                cited_by.setdefault(fact, i)
        for fact in sorted(required - set(cited_by)):
            problems.append(ContentProblem(rel, fact, "no source cites it: list it in the facts of the source "
                                                      "whose section decides it"))
    return problems


def _citations(entry_id: str, entry: Entry,
               raw: dict[str, tuple[EntryMeta, dict[str, Any], str, str]]) -> dict[str, Citation]:
    """Every field of ``entry`` (inherited ones too) with the source that decides it: the nearest
    entry of the ``base`` chain that sets the field."""
    found: dict[str, Citation] = {}
    current: str | None = entry_id
    while current is not None:
        meta = raw[current][0]
        for source in meta.sources:
            for fact in source.facts:
                if fact in entry.facts or (fact == "base" and current == entry_id):
                    found.setdefault(fact, Citation(current, source))
        current = meta.base
    return found
