"""The test suite as `make test` runs it on pytest-xdist workers (``--dist loadfile``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import HEAVIEST_FIRST


def test_unique_node_ids(request: pytest.FixtureRequest) -> None:
    """xdist hands out tests by node id: two tests with one id would run as one, silently (the
    fourteen schemathesis operations, collected as items of one id under pytest 9, did; they are
    now subtests of one test)."""
    counts = Counter(item.nodeid for item in request.session.items)
    assert sorted(nodeid for nodeid, n in counts.items() if n > 1) == []


def test_the_heaviest_files_listed_first_exist() -> None:
    here = Path(__file__).parent
    assert [name for name in HEAVIEST_FIRST if not (here / name).exists()] == []
