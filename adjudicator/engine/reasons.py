"""One step of a ruling, citing the content entry it comes from.

Every number the engine returns is explained by a list of these. A reason carries:

- ``rule``: the content id whose page (``/rules/<kind>/<rule>``) states the rule;
- ``code``: a stable name for the *shape* of the sentence (``battle.out_of_range``), listed with
  its English template in ``engine/wording.py``, so a client can word it (other languages, shorter
  labels) without parsing sentences;
- ``params``: what the sentence speaks of — units (``UnitRef``), hexes (``HexRef``), content
  entries (``EntryRef``), numbers, plain words — as JSON-ready values;
- ``text``: the English sentence a referee reads aloud, made from the template and ``params``.
  It names units as players see them ("Axis Armor at D7"), never by their ids;
- ``fact``: the structured field of ``rule`` that decides the step (``dice_reductions``), when one
  does, so the citation can point at the one passage that holds it;
- ``dice``: the change in dice this step makes (battle breakdowns).

Reasons are made with ``engine.wording.say``. They are frozen and hashable (the engine
de-duplicates them), so ``params`` is a tuple of ``(name, value)`` pairs. The text is rendered
when first read: a ruling builds many reasons its answer never shows (a fire map's breakdowns),
and filling a template costs several times more than building the reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeAlias

SIDE_ADJECTIVES = {"allies": "Allied", "axis": "Axis"}
"""How players name a side's units: "Allied Infantry", "Axis Armor"."""


@dataclass(frozen=True)
class HexRef:
    """A hex as a reason names it: its editor coordinates and the label printed on the board."""

    row: int
    col: int
    label: str  # "D7"; "off the board" for a hex beyond the edge

    def __str__(self) -> str:
        return self.label

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "col": self.col, "hex": self.label}


@dataclass(frozen=True)
class UnitRef:
    """A unit as a reason names it: "Axis Armor at D7" in the text, with its id for clients that
    want to point at it on their own board."""

    id: str
    side: str
    type: str  # the unit entry whose rules apply (``tank_destroyer`` for badged armor)
    type_name: str  # that entry's name ("Tank Destroyer")
    at: HexRef

    @cached_property
    def name(self) -> str:
        return f"{SIDE_ADJECTIVES.get(self.side, self.side)} {self.type_name} at {self.at.label}"

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        return dict(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:
        """Worked out once: the same unit is named by many reasons of one ruling."""
        return {"unit": self.id, "side": self.side, "type": self.type, **self.at.to_dict(), "name": self.name}


@dataclass(frozen=True)
class EntryRef:
    """A content entry a reason speaks of (a terrain, a card, a nation): its name in the text,
    its id (``/rules/<kind>/<id>``) for clients that word the reason themselves; ``at`` when the
    reason speaks of the one on a given hex ("Forest at E4")."""

    id: str
    kind: str
    name: str
    at: HexRef | None = None

    def __str__(self) -> str:
        return self.name if self.at is None else f"{self.name} at {self.at.label}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entry": self.id, "kind": self.kind, "name": self.name}
        if self.at is not None:
            out.update(self.at.to_dict())
        return out


ParamValue: TypeAlias = str | int | bool | HexRef | UnitRef | EntryRef | tuple["ParamValue", ...] | None
Params = tuple[tuple[str, ParamValue], ...]


def param_json(value: ParamValue) -> Any:
    """The JSON form of one parameter: refs as objects, tuples as lists, scalars as they are."""
    if isinstance(value, (HexRef, UnitRef, EntryRef)):
        return value.to_dict()
    if isinstance(value, tuple):
        return [param_json(v) for v in value]
    return value


@dataclass(frozen=True)
class Reason:
    rule: str
    code: str
    params: Params = field(default=())
    fact: str | None = None
    dice: int | None = None  # the change in dice this step makes (battle breakdowns)

    @property
    def param_map(self) -> Mapping[str, ParamValue]:
        return dict(self.params)

    @cached_property
    def text(self) -> str:
        """The code's English template filled with the parameters (``engine.wording.render``)."""
        from adjudicator.engine.wording import render  # wording builds on this module

        return render(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "code": self.code,
                               "params": {k: param_json(v) for k, v in self.params} if self.params else {},
                               "text": self.text}
        if self.fact is not None:
            out["fact"] = self.fact
        if self.dice is not None:
            out["dice"] = self.dice
        return out
