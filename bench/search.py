"""Search latency: p50/p95/p99 of 1,000 queries, in-process and through the Flask test client.

    .venv/bin/python bench/search.py [--queries 1000] [--instance DIR]

The queries are the realistic ones of tests/search_queries.yaml plus what a phone sends while
someone types them (every prefix of three letters or more), cycled to the requested count.
The target is p95 < 10 ms in-process."""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from adjudicator import create_app, search  # noqa: E402
from adjudicator.search import service  # noqa: E402


def workload(count: int) -> list[str]:
    cases = yaml.safe_load((REPO / "tests" / "search_queries.yaml").read_text(encoding="utf-8"))
    full = [str(case["q"]) for case in cases]
    typing = [q[:n] for q in full for n in range(3, len(q), 4)]
    mixed = [q for pair in itertools.zip_longest(full, typing) for q in pair if q]
    return list(itertools.islice(itertools.cycle(mixed), count))


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return (f"p50 {cuts[49]:6.2f} ms   p95 {cuts[94]:6.2f} ms   p99 {cuts[98]:6.2f} ms   "
            f"max {max(samples):6.2f} ms")


def timed(run, queries: list[str]) -> list[float]:
    samples = []
    for query in queries:
        start = time.perf_counter()
        run(query)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--instance", type=Path, default=None, help="instance folder (default: a temporary one)")
    args = parser.parse_args()
    instance = args.instance or Path(tempfile.mkdtemp(prefix="bench-search-"))
    start = time.perf_counter()
    app = create_app({"INSTANCE_PATH": str(instance)})
    print(f"app + database + index ready in {time.perf_counter() - start:.2f} s ({instance})")
    queries = workload(args.queries)
    client = app.test_client()
    for query in queries[:50]:  # warm caches (stemmer, opened index, templates)
        search.search(instance, query)
        client.get("/api/v1/search", query_string={"q": query})

    generation = search.opened(instance)
    assert generation is not None

    def uncached(query: str) -> object:
        # The search work itself, bypassing the per-generation answer cache.
        return service.search_generation(generation, query, kind=None, expansion=None, limit=10, typing=None)

    cold = timed(uncached, queries)
    direct = timed(lambda q: search.search(instance, q, limit=10), queries)
    api = timed(lambda q: client.get("/api/v1/search", query_string={"q": q}), queries)
    page = timed(lambda q: client.get("/search", query_string={"q": q}), queries)
    print(f"{len(queries)} queries ({len(set(queries))} distinct)")
    print(f"in-process, no cache       {percentiles(cold)}")
    print(f"in-process search()        {percentiles(direct)}  (repeated questions answered from cache)")
    print(f"test client /api/v1/search {percentiles(api)}")
    print(f"test client /search page   {percentiles(page)}")


if __name__ == "__main__":
    main()
