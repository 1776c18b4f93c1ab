"""SQLModel tables: rule entries and their cross-references (rebuilt from ``content/``), and the
situations users save (never touched by a rebuild)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Text
from sqlmodel import Field, SQLModel


class EntryRow(SQLModel, table=True):
    """One rule entry as the pages and search read it."""

    __tablename__ = "entry"
    id: str = Field(primary_key=True, max_length=80)
    kind: str = Field(index=True, max_length=32)
    name: str = Field(max_length=200)
    summary: str = Field(sa_column=Column(Text, nullable=False))
    expansion: str = Field(max_length=40)
    base: str | None = Field(default=None, max_length=80)
    aliases: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    sources: list[dict[str, str]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    see_also: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    facts: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    body_md: str = Field(sa_column=Column(Text, nullable=False))
    body_html: str = Field(sa_column=Column(Text, nullable=False))
    path: str = Field(max_length=200)


class CrossRef(SQLModel, table=True):
    """A link between two entries: ``see_also`` or ``base`` ("behaves like")."""

    __tablename__ = "cross_ref"
    id: int | None = Field(default=None, primary_key=True)
    source_id: str = Field(index=True, max_length=80)
    target_id: str = Field(index=True, max_length=80)
    relation: str = Field(max_length=20)


class BuildMeta(SQLModel, table=True):
    """Key/value facts about the last build (the content hash it was built from)."""

    __tablename__ = "build_meta"
    key: str = Field(primary_key=True, max_length=40)
    value: str = Field(max_length=200)


class SavedSituation(SQLModel, table=True):
    """A situation a user saved from the builder, addressed by a short public id."""

    __tablename__ = "saved_situation"
    id: str = Field(primary_key=True, max_length=16)
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    data: str = Field(sa_column=Column(Text, nullable=False))  # the situation document as JSON
    size: int = 0


class SaveDigest(SQLModel, table=True):
    """The SHA-256 of a saved situation's stored text -> its id, so a save retried after a lost
    answer (same content) returns the id of the first instead of storing a duplicate."""

    __tablename__ = "save_digest"
    digest: str = Field(primary_key=True, max_length=64)
    saved_id: str = Field(max_length=16)


REBUILT_TABLES = (EntryRow, CrossRef, BuildMeta)
"""Tables derived from content; a rebuild replaces their rows and nothing else."""
