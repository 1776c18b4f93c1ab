"""Engine exceptions. Each names the offending field of the situation document so the API can
answer with a 4xx that tells the user exactly what to fix."""

from __future__ import annotations


class IllegalSituation(ValueError):
    """The situation document is malformed or describes an impossible board position."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
