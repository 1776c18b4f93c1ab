"""Ranking: the entry that settles a player's question comes first (tests/search_queries.yaml).

Each query is its own test case (so a failure names it), and one summary test reports top-1 and
top-3 accuracy over the whole set, on the terminal even when pytest captures output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator import search
from adjudicator.content.loader import YAML_LOADER, Catalogue

QUERIES_FILE = Path(__file__).with_name("search_queries.yaml")
QUERIES: list[dict[str, Any]] = yaml.load(QUERIES_FILE.read_text(encoding="utf-8"), Loader=YAML_LOADER)


@pytest.fixture(scope="module")
def index(catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import seed_instance

    return seed_instance(tmp_path_factory.mktemp("search-ranking"))  # the index as ``search.build_index`` built it


def top_ids(index: Path, query: str, n: int = 3) -> list[str]:
    return [hit.id for hit in search.search(index, query, limit=n).hits]


def test_query_file_is_large_enough_and_names_real_entries(catalogue):
    assert len(QUERIES) >= 60
    assert len({q["q"].lower() for q in QUERIES}) == len(QUERIES), "duplicate query"
    unknown = [q["first"] for q in QUERIES if q["first"] not in catalogue.entries]
    assert not unknown, f"search_queries.yaml names entries that do not exist: {unknown}"


@pytest.mark.parametrize("case", QUERIES, ids=[q["q"] for q in QUERIES])
def test_the_entry_that_settles_the_question_ranks_first(index, case):
    ranked = top_ids(index, str(case["q"]), 5)
    assert ranked and ranked[0] == case["first"], f"{case['q']!r}: expected {case['first']}, got {ranked}"


def test_search_accuracy_summary(index, capsys):
    top1 = top3 = 0
    misses = []
    for case in QUERIES:
        ranked = top_ids(index, str(case["q"]), 3)
        top1 += bool(ranked) and ranked[0] == case["first"]
        top3 += case["first"] in ranked
        if not ranked or ranked[0] != case["first"]:
            misses.append(f"  {case['q']!r}: expected {case['first']}, got {ranked}")
    n = len(QUERIES)
    report = f"search accuracy over {n} queries: top-1 {top1}/{n} ({top1 / n:.0%}), top-3 {top3}/{n} ({top3 / n:.0%})"
    with capsys.disabled():
        print("\n" + report)
    assert top1 == n, report + "\n" + "\n".join(misses)
