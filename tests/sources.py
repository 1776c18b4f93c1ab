"""Where the source documents are, and whether this checkout has them.

The seed documents (``../shared/seeds``) and the original API contract sit beside the repository
in CI, not in a public clone. What the tests need from them is kept inside the repository as
facts, in ``tests/source_manifest.yaml`` (checked by ``tests/test_source_manifest.py``); the
tests that parse the documents themselves, including the cross-check of that manifest, run where
the documents are and say so when they are skipped, in CI as anywhere (a clone with ``CI=true``
and no ``shared/`` beside it is still a public clone); the skip reason, shown in the summary,
names the folder that is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
SPEC = SHARED / "spec" / "api.md"
MANIFEST = Path(__file__).resolve().parent / "source_manifest.yaml"

SEEDS_PRESENT = SEEDS.is_dir() and SPEC.is_file()

needs_seeds = pytest.mark.skipif(
    not SEEDS_PRESENT,
    reason=f"the source documents are not beside this clone ({SEEDS} missing): the parse of the documents and "
           f"the cross-check of tests/source_manifest.yaml run where they are (CI); the manifest's own "
           f"checks still ran",
)
