"""The rules engine: pure functions from a situation to rulings with reasons.

It imports nothing from Flask, the database or the file system (see
``tests/test_engine_purity.py``). Rule numbers come from a ``Rulebook`` built from ``content/``
by the caller.

Answers are written to JSON in one style: a result that needs nothing else to be written
serialises itself with ``to_dict()`` (a reason, odds, a retreat, a hex's coordinates); a view
that needs the board or the rulebook (labels, names) is a module function ``<view>_json(...)``
taking them first (``ruling_json``, ``move_json``, ``los_json``, ``hex_json``). Every step of a
ruling is a ``Reason`` made with ``wording.say`` (docs/contracts.md §1); whether a unit may enter
a hex is ``entry.EntryCheck`` (§2)."""

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Board, Hex, distance
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit, parse_situation

__all__ = ["BOARDS", "Board", "Hex", "IllegalSituation", "Rulebook", "Situation", "Unit", "distance", "parse_situation"]
