"""Build the database (and the search index) from ``content/`` when missing or stale.

The content hash of the last build is stored in the database, and each extra step (the search
index) says whether its own output matches the content; only what is stale is built, so a new
database (another ``DATABASE_URL``, a deleted file) does not rebuild a current index, nor a
missing index rewrite a current database. A file lock in ``instance/`` makes two workers starting
at once build once, never concurrently."""

from __future__ import annotations

import fcntl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import select

from adjudicator.content.loader import Catalogue
from adjudicator.content.markdown import render
from adjudicator.db import create_tables, new_session
from adjudicator.models import REBUILT_TABLES, BuildMeta, CrossRef, EntryRow

BuildStep = Callable[[Catalogue, Path], None]
"""An extra build step (the search index): writes its output for the catalogue into the instance."""
FreshnessCheck = Callable[[Catalogue, Path], bool]
"""Whether a step's output in the instance already matches the catalogue."""

EXTRA_STEPS: list[tuple[BuildStep, FreshnessCheck]] = []
"""Extra build steps with their freshness checks, run after the database when stale."""


def entry_url(kind: str, entry_id: str) -> str:
    return f"/rules/{kind}/{entry_id}"


@contextmanager
def build_lock(instance_path: Path) -> Iterator[None]:
    instance_path.mkdir(parents=True, exist_ok=True)
    with open(instance_path / "build.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built_hash(engine: Engine) -> str | None:
    """The content hash of the last build, or None when nothing was built yet.

    Creates nothing: several workers call this at once at start-up, outside the build lock."""
    try:
        with new_session(engine) as session:
            row = session.get(BuildMeta, "content_hash")
            return row.value if row else None
    except SQLAlchemyError:  # no tables yet (a fresh database)
        return None


def build_database(catalogue: Catalogue, engine: Engine) -> int:
    """Replace every content-derived row in one transaction; saved situations are untouched."""
    create_tables(engine)

    def resolve(entry_id: str) -> tuple[str, str] | None:
        entry = catalogue.entries.get(entry_id)
        return (entry_url(entry.kind, entry.id), entry.meta.name) if entry else None

    with new_session(engine) as session:
        for table in REBUILT_TABLES:
            session.exec(delete(table))  # type: ignore[call-overload]
        for entry in catalogue.entries.values():
            meta = entry.meta
            session.add(
                EntryRow(
                    id=meta.id, kind=meta.kind, name=meta.name, summary=meta.summary,
                    expansion=meta.expansion, base=meta.base, aliases=list(meta.aliases),
                    sources=[s.model_dump() for s in meta.sources], see_also=list(meta.see_also),
                    facts=entry.facts, body_md=entry.body, body_html=render(entry.body, resolve),
                    path=entry.path,
                )
            )
            for target in meta.see_also:
                session.add(CrossRef(source_id=meta.id, target_id=target, relation="see_also"))
            if meta.base:
                session.add(CrossRef(source_id=meta.id, target_id=meta.base, relation="base"))
        session.add(BuildMeta(key="content_hash", value=catalogue.content_hash))
        session.commit()
        return len(session.exec(select(EntryRow.id)).all())


def ensure_built(catalogue: Catalogue, engine: Engine, instance_path: Path, force: bool = False) -> bool:
    """Build what is stale (everything with ``force``): the database when its stored content hash
    differs, each extra step whose freshness check fails. True when anything was built."""
    instance_path.mkdir(parents=True, exist_ok=True)
    database, steps = _stale(catalogue, engine, instance_path, force)
    if not database and not steps:
        return False
    with build_lock(instance_path):
        database, steps = _stale(catalogue, engine, instance_path, force)  # another worker may have built
        if database:
            build_database(catalogue, engine)
        for step in steps:
            step(catalogue, instance_path)
        return database or bool(steps)


def _stale(catalogue: Catalogue, engine: Engine, instance_path: Path,
           force: bool = False) -> tuple[bool, list[BuildStep]]:
    """Whether the database needs building, and the extra steps that do."""
    database = force or built_hash(engine) != catalogue.content_hash
    steps = [step for step, fresh in EXTRA_STEPS if force or not fresh(catalogue, instance_path)]
    return database, steps
