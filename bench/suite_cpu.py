"""Where the test suite's CPU goes, per test and per file, Chromium included.

``/usr/bin/time`` around pytest misses most of the browser's CPU: Playwright's driver and the
Chromium processes under it end without being waited for by the xdist worker, so their CPU never
reaches the worker's, nor pytest's, resource usage. This plugin reads instead, before and after
each test, the CPU of the worker's whole process tree from ``/proc`` (every live descendant, plus
what the processes of the tree have reaped): a browser test's Chromium, a ``make serve`` stack's
gunicorn and nginx, a subprocess, each counted in the test that ran them.

    .venv/bin/python -m pytest -n 3 --dist loadfile -p bench.suite_cpu   # writes instance/suite-cpu/
    .venv/bin/python -m bench.suite_cpu                                  # per file, then per test

A negative figure is CPU that left the tree unreaped (the browser closed at a worker's end): it is
reported apart, as what ``/usr/bin/time`` did not see."""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

OUT = Path(__file__).resolve().parent.parent / "instance" / "suite-cpu"
TICKS = os.sysconf("SC_CLK_TCK")
_MEASURED: list[tuple[str, float]] = []


def _processes() -> Iterator[tuple[int, int, float]]:
    """(pid, parent pid, CPU seconds of the process and of the children it reaped) of each process."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:  # ended while we read
            continue
        yield int(entry), int(fields[1]), sum(int(f) for f in fields[11:15]) / TICKS


def tree_cpu(root: int | None = None) -> float:
    """CPU seconds of ``root`` (this process) and all its descendants, live or reaped."""
    root = root or os.getpid()
    parents, cpu = {}, {}
    for pid, parent, seconds in _processes():
        parents[pid], cpu[pid] = parent, seconds
    total = 0.0
    for pid, seconds in cpu.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        total += seconds if ancestor == root else 0.0
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    before = tree_cpu()
    yield
    _MEASURED.append((item.nodeid, tree_cpu() - before))


def pytest_sessionfinish(session: pytest.Session) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    (OUT / f"{worker}.json").write_text(json.dumps({"tests": _MEASURED, "at_end": tree_cpu()}))


def report(folder: Path = OUT, top: int = 25) -> str:
    tests: list[tuple[float, str]] = []
    for path in sorted(folder.glob("*.json")):
        tests += [(seconds, node) for node, seconds in json.loads(path.read_text())["tests"]]
    per_file: defaultdict[str, float] = defaultdict(float)
    for seconds, node in tests:
        per_file[node.split("::")[0]] += max(seconds, 0.0)
    lines = [f"{sum(max(s, 0.0) for s, _ in tests):.1f} CPU-s in tests; "
             f"{abs(sum(min(s, 0.0) for s, _ in tests)):.1f} of it left unreaped (missed by /usr/bin/time)"]
    lines += [f"{seconds:8.1f}  {name}" for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[:top]]
    lines += [f"{seconds:8.2f}  {node}" for seconds, node in sorted(tests, reverse=True)[:top]]
    return "\n".join(lines)


def main(argv: list[str]) -> Any:
    print(report(Path(argv[0]) if argv else OUT))


if __name__ == "__main__":
    main(sys.argv[1:])
