"""Player words -> what the rules call them (``content/synonyms.yaml``): "ht" -> "half track"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

SYNONYMS_FILE = "synonyms.yaml"

Words = Callable[[str], list[str]]


@dataclass(frozen=True)
class Synonyms:
    """Player words -> what the rules call them, as word tuples ("ht" -> "half track")."""

    table: Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]

    @property
    def longest(self) -> int:
        return max((len(k) for k in self.table), default=0)

    @classmethod
    def parse(cls, data: Any, words_of: Words, origin: str = SYNONYMS_FILE) -> Synonyms:
        """Validate the YAML document; a mistake names the file and the key. Keys and values are
        read as ``words_of`` reads them (the index's words), so they match what players type."""
        if data is None:
            return cls({})
        if not isinstance(data, dict) or not isinstance(data.get("synonyms"), dict):
            raise ValueError(f"{origin}: (file): must be a mapping with a 'synonyms' mapping")
        table: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
        for key, values in data["synonyms"].items():
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise ValueError(f"{origin}: {key!r}: quote the key (YAML read it as {type(key).__name__})")
            if isinstance(values, str):
                values = [values]
            if not isinstance(values, list) or not values or not all(isinstance(v, str | int) for v in values):
                raise ValueError(f"{origin}: {key}: must be a non-empty list of words or phrases")
            words = tuple(words_of(str(key)))
            if not words:
                raise ValueError(f"{origin}: {key!r}: has no words")
            targets = tuple(dict.fromkeys(tuple(words_of(str(v))) for v in values if words_of(str(v))))
            table[words] = tuple(t for t in targets if t != words)
        return cls(table)

    @classmethod
    def load(cls, path: Path, words_of: Words) -> Synonyms:
        if not path.exists():
            return cls({})
        return cls.parse(yaml.safe_load(path.read_text(encoding="utf-8")), words_of, str(path))

    def to_json(self) -> list[list[Any]]:
        return [[list(k), [list(v) for v in vs]] for k, vs in self.table.items()]

    @classmethod
    def from_json(cls, data: list[list[Any]]) -> Synonyms:
        return cls({tuple(k): tuple(tuple(v) for v in vs) for k, vs in data})
