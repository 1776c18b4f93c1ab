"""The documentation stays usable: the README is short enough to read at the table, and the
architecture's "Where things live" map sends a newcomer only to places that exist."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README_MAX_WORDS = 1_500
"""The README is for users: what the site does, the two commands, a tour, the API, configuration;
everything else goes to docs/."""
FILE_NAME = re.compile(r"[\w.-]+\.(py|js|md|html|css|yaml|toml|sh|json)|Makefile")


def readme_words() -> int:
    return len((REPO / "README.md").read_text(encoding="utf-8").split())


def map_section() -> str:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("## Where things live")
    end = text.find("\n## ", start + 1)
    return text[start:] if end == -1 else text[start:end]


def named_paths(section: str) -> list[str]:
    """Every code span that names a repository path: one with a slash that is not a URL (those
    start with ``/``) and has no spaces, or a bare file name."""
    spans = re.findall(r"`([^`\s]+)`", section)
    return [s for s in spans if ("/" in s and not s.startswith("/")) or FILE_NAME.fullmatch(s)]


def ignored_prefixes() -> list[str]:
    lines = (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    return [line.rstrip("*") for line in lines if line.endswith("/") or line.endswith("/*")]


def exists(path: str) -> bool:
    """A path exists in the clone; ``<kind>``-style placeholders stand for any one name."""
    pattern = re.sub(r"<[^>]+>", "*", path.rstrip("/"))
    return any(REPO.glob(pattern)) if "*" in pattern else (REPO / pattern).exists()


def test_the_readme_stays_under_1500_words():
    assert readme_words() < README_MAX_WORDS


def test_every_path_in_the_architecture_map_exists():
    """A path the build or the tests make (``instance/artifacts/``, ``adjudicator/static/offline/``)
    is missing from a fresh clone; the map may name it only because git ignores it."""
    paths = named_paths(map_section())
    assert len(paths) > 40, "the map names fewer paths than it did: did the section move?"
    generated = tuple(ignored_prefixes())
    missing = [p for p in paths if not exists(p) and not p.startswith(generated)]
    assert missing == []

