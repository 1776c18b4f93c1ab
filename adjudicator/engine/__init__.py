"""The rules engine: pure functions from a situation to rulings with reasons.

It imports nothing from Flask, the database or the file system (see
``tests/test_engine_purity.py``). Rule numbers come from a ``Rulebook`` built from ``content/``
by the caller."""

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Board, Hex, distance
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit, parse_situation

__all__ = ["BOARDS", "Board", "Hex", "IllegalSituation", "Rulebook", "Situation", "Unit", "distance", "parse_situation"]
