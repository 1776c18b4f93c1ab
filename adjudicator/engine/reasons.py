"""One step of a ruling, citing the content entry it comes from.

Every number the engine returns is explained by a list of these; ``rule`` is a content id whose
page is ``/rules/<kind>/<rule>``, and ``text`` is a sentence a referee can read aloud."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reason:
    rule: str
    text: str
    dice: int | None = None  # the change in dice this step makes (battle breakdowns)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "text": self.text}
        if self.dice is not None:
            out["dice"] = self.dice
        return out
