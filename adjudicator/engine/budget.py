"""A work budget for one engine call, so no single request can hold a worker for long.

The engine charges abstract *work units* at the points whose cost grows with the situation (a
retreat step examined, a retreat path listed, a hex of a path priced, a term of an exact-odds
convolution). The caller opens a budget around a call (``with work_budget(limit) as spent``); when
the charges pass the limit the engine raises ``WorkBudgetExceeded`` and stops at once, and the
web layer answers a clear 4xx instead of running on. Without an open budget nothing is counted
and nothing is refused (unit tests, the examples, the benchmark).

Pure: a context variable, no clock, no I/O — the same request always costs the same work, so a
test can assert on the count rather than on wall-clock time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass


class WorkBudgetExceeded(RuntimeError):
    """The call needs more work than its budget allows; the answer would be too costly to give."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the ruling needs more than {limit} work units")
        self.limit = limit


@dataclass
class Spent:
    """Work charged so far under one budget (mutable on purpose: the running count)."""

    limit: int
    units: int = 0


_current: ContextVar[Spent | None] = ContextVar("adjudicator_work_budget", default=None)


def charge(units: int = 1) -> None:
    """Charge ``units`` of work to the open budget, if any; raise once it is overspent."""
    spent = _current.get()
    if spent is None:
        return
    spent.units += units
    if spent.units > spent.limit:
        raise WorkBudgetExceeded(spent.limit)


def open_budget(limit: int) -> Token[Spent | None]:
    """Start counting against ``limit`` in the current context (for callers whose start and end
    are two hooks, like a web request); pass the token to ``close_budget``."""
    return _current.set(Spent(limit))


def close_budget(token: Token[Spent | None]) -> None:
    _current.reset(token)


@contextmanager
def work_budget(limit: int) -> Iterator[Spent]:
    """Count (and cap at ``limit``) the work of the engine calls made inside the block."""
    spent = Spent(limit)
    token = _current.set(spent)
    try:
        yield spent
    finally:
        _current.reset(token)
