"""Search against SQLite FTS5, side by side: latency (p50/p95) and quality (top-1/top-3).

    .venv/bin/python bench/search.py [--queries 2000] [--instance DIR]

Both search the same entries: FTS5 gets an in-memory table of the fields our index holds (name,
every other name, summary, facts, explanation; porter stems, accents folded; BM25 with our field
weights), queried the plain ways: "any word" (every word typed, any of them: what ours matches)
and FTS5's default "all words" (fewer matches, so faster and worse); the last word is a prefix
while it is being typed, as ours reads it. FTS5 returns ten ids (no snippets, facets, total or
spelling suggestion, which ours computes); "any word+snippet" adds FTS5's own snippets.

Two workloads, each run on every search one query at a time, the order rotating, so a busy
machine slows all alike: what a phone sends (the questions of tests/search_queries.yaml and every
fourth prefix of three letters or more typed on the way) and the questions alone, as submitted
(the last word whole). Every search has answered the workload once before the clock starts (warm
processes); ours bypasses its per-generation answer cache. The CPU time of the thread is the
measure (a busy machine inflates wall time, not that); wall time is shown too. Quality: how often
the entry tests/search_queries.yaml names comes first, and in the first three.

The target: our CPU p50 at most 3x FTS5's, at our quality. Then the cached and HTTP paths."""

from __future__ import annotations

import argparse
import itertools
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from adjudicator import create_app, search  # noqa: E402
from adjudicator.search import service  # noqa: E402
from adjudicator.search.documents import document  # noqa: E402
from adjudicator.search.fields import FIELD_BOOSTS, TEXT_FIELDS  # noqa: E402
from adjudicator.search.query import MAX_WORDS, clean  # noqa: E402
from adjudicator.search.whoosh_index import ANALYSIS  # noqa: E402

TARGET_RATIO = 3.0
CASES: list[dict[str, Any]] = yaml.safe_load((REPO / "tests" / "search_queries.yaml").read_text(encoding="utf-8"))


def workload(count: int) -> list[str]:
    full = [str(case["q"]) for case in CASES]
    typing = [q[:n] for q in full for n in range(3, len(q), 4)]
    mixed = [q for pair in itertools.zip_longest(full, typing) for q in pair if q]
    return list(itertools.islice(itertools.cycle(mixed), count))


# --------------------------------------------------------------------------------------------
# FTS5 over the same entries
# --------------------------------------------------------------------------------------------

def fts5_index(catalogue: Any) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    columns = ", ".join(TEXT_FIELDS)
    db.execute(f"CREATE VIRTUAL TABLE entries USING fts5(id UNINDEXED, {columns}, "
               "tokenize = 'porter unicode61 remove_diacritics 2')")
    rows = [document(entry, catalogue, ANALYSIS) for entry in catalogue.entries.values()]
    db.executemany(f"INSERT INTO entries VALUES (?, {', '.join('?' for _ in TEXT_FIELDS)})",
                   [(row["id"], *(row[f] for f in TEXT_FIELDS)) for row in rows])
    db.execute("INSERT INTO entries(entries) VALUES ('optimize')")
    return db


WEIGHTS = ", ".join(str(FIELD_BOOSTS[f]) for f in TEXT_FIELDS)
FTS5_IDS = f"SELECT id FROM entries WHERE entries MATCH ? ORDER BY bm25(entries, 0, {WEIGHTS}) LIMIT ?"
FTS5_SNIPPETS = (f"SELECT id, snippet(entries, -1, '<mark>', '</mark>', '…', 24) FROM entries WHERE entries MATCH ? "
                 f"ORDER BY bm25(entries, 0, {WEIGHTS}) LIMIT ?")


def fts5_query(raw: str, joiner: str) -> str | None:
    """The words typed, joined by ``joiner`` (" OR ": any of them; " ": all of them); the last
    one a prefix while it is being typed (as ours reads it)."""
    words = ANALYSIS.words(clean(raw))[:MAX_WORDS]
    if not words:
        return None
    terms = [f'"{w}"' for w in words]
    if raw and not raw[-1].isspace():
        terms[-1] += "*"
    return joiner.join(terms)


def fts5_search(db: sqlite3.Connection, sql: str, joiner: str = " OR ") -> Callable[[str, int], list[str]]:
    def run(raw: str, limit: int) -> list[str]:
        match = fts5_query(raw, joiner)
        return [row[0] for row in db.execute(sql, (match, limit))] if match else []
    return run


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------

def cuts(samples: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return q[49], q[94]


def percentiles(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return (f"p50 {q[49]:6.3f} ms   p95 {q[94]:6.3f} ms   p99 {q[98]:6.3f} ms   "
            f"max {max(samples):6.2f} ms")


def side_by_side(runs: dict[str, Callable[[str], object]],
                 queries: list[str]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each query on every run in turn, the order rotating, so load hits all alike: the wall
    time of each (latency) and this thread's CPU time (what a busy machine does not inflate)."""
    wall: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for i, query in enumerate(queries):
        for name in names[i % len(names):] + names[:i % len(names)]:
            start, start_cpu = time.perf_counter(), time.thread_time()
            runs[name](query)
            end_cpu, end = time.thread_time(), time.perf_counter()
            wall[name].append((end - start) * 1000)
            cpu[name].append((end_cpu - start_cpu) * 1000)
    return wall, cpu


def timed(run: Callable[[str], object], queries: list[str]) -> list[float]:
    samples = []
    for query in queries:
        start = time.perf_counter()
        run(query)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def quality(top: Callable[[str, int], list[str]]) -> tuple[int, int]:
    top1 = top3 = 0
    for case in CASES:
        ids = top(str(case["q"]), 3)
        top1 += bool(ids) and ids[0] == case["first"]
        top3 += case["first"] in ids
    return top1, top3


def compare(title: str, runs: dict[str, Callable[[str], object]], queries: list[str],
            scores: dict[str, tuple[int, int]]) -> None:
    """One workload on every search side by side (each has answered it once before the clock
    starts), then ours against each FTS5 query form."""
    for query in dict.fromkeys(queries):
        for run in runs.values():
            run(query)
    wall, cpu = side_by_side(runs, queries)
    n = len(CASES)
    print(f"\n{title}: {len(queries)} queries ({len(set(queries))} distinct), top 10 each; quality over the {n} "
          "of tests/search_queries.yaml")
    print(f"  {'':22} {'wall p50':>9} {'p95':>8} {'p99':>8}   {'CPU p50':>8} {'p95':>8}   {'top-1':>7} {'top-3':>7}")
    for name in runs:
        w, c = statistics.quantiles(wall[name], n=100, method="inclusive"), cuts(cpu[name])
        top1, top3 = scores[name]
        print(f"  {name:22} {w[49]:6.3f} ms {w[94]:5.3f} ms {w[98]:5.3f} ms   {c[0]:5.3f} ms {c[1]:5.3f} ms   "
              f"{top1:3}/{n} {top3:3}/{n}")
    for baseline in ("FTS5 any word", "FTS5 all words"):
        ours_p50, ours_p95 = cuts(cpu[OURS])
        fts_p50, fts_p95 = cuts(cpu[baseline])
        wall_ratio = cuts(wall[OURS])[0] / cuts(wall[baseline])[0]
        ratio = ours_p50 / fts_p50
        verdict = ("within" if ratio <= TARGET_RATIO else "OVER") + f" the {TARGET_RATIO:g}x target"
        print(f"  ours / {baseline:14}: CPU p50 {ratio:5.2f}x ({verdict}), p95 {ours_p95 / fts_p95:5.2f}x; "
              f"wall p50 {wall_ratio:5.2f}x")


OURS = "ours, uncached"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--instance", type=Path, default=None, help="instance folder (default: a temporary one)")
    args = parser.parse_args()
    instance = args.instance or Path(tempfile.mkdtemp(prefix="bench-search-"))
    start = time.perf_counter()
    app = create_app({"INSTANCE_PATH": str(instance)})
    print(f"app + database + index ready in {time.perf_counter() - start:.2f} s ({instance})")
    generation = search.opened(instance)
    assert generation is not None
    db = fts5_index(app.extensions["catalogue"])

    def ours(raw: str, limit: int = 10) -> list[str]:
        # The search work itself, bypassing the per-generation answer cache.
        results = service.search_generation(generation, raw, kind=None, expansion=None, limit=limit, typing=None)
        return [hit.id for hit in results.hits]

    fts5: dict[str, Callable[[str, int], list[str]]] = {
        "FTS5 any word": fts5_search(db, FTS5_IDS),
        "FTS5 all words": fts5_search(db, FTS5_IDS, " "),
        "FTS5 any word+snippet": fts5_search(db, FTS5_SNIPPETS),
    }
    runs: dict[str, Callable[[str], object]] = {OURS: ours}
    runs.update({name: (lambda q, top=top: top(q, 10)) for name, top in fts5.items()})
    scores = {OURS: quality(ours), **{name: quality(top) for name, top in fts5.items()}}
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    compare("What a phone sends (questions and the prefixes typed on the way)", runs, workload(args.queries), scores)
    questions = [f"{case['q']} " for case in CASES]  # submitted: the last word is whole, not a prefix
    compare("Questions only, as submitted", runs,
            list(itertools.islice(itertools.cycle(questions), args.queries // 2)), scores)

    queries = workload(args.queries)
    client = app.test_client()
    direct = timed(lambda q: search.search(instance, q, limit=10), queries)
    api = timed(lambda q: client.get("/api/v1/search", query_string={"q": q}), queries)
    page = timed(lambda q: client.get("/search", query_string={"q": q}), queries)
    print()
    print(f"in-process search()          {percentiles(direct)}  (repeated questions answered from cache)")
    print(f"test client /api/v1/search   {percentiles(api)}")
    print(f"test client /search page     {percentiles(page)}")


if __name__ == "__main__":
    main()
