"""The scenario half of a ``.m44`` import: medals to win, cards, the first player, medal objectives,
sudden death conditions and exit hexes, as the situation's ``scenario`` (adjudicator/API.md).

What the file says is mapped through the content, as the rest of the import is: a medal tag's
flags (``permanent``, ``turn_start``, ``majority``, ``sole_control``, ``last_to_occupy``) pick the
victory entry whose fields say the same (``temporary``, ``turn_start``, ``control``,
``kept_until_enemy_occupies``); a ``group_sudden_death`` condition is the entry that ``ends_game``;
an ``EXIT_MARKER`` tag is the marker with ``medals_per_exit``. The one table here is file-format
knowledge: which medal token stands for which side. Whatever cannot be mapped is reported (as
``(row, col, what, name, reason)``), never dropped silently; the importer lists it.

Pure: data in, data out."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import Board, Hex
from adjudicator.engine.rulebook import MarkerRules, Rulebook, VictoryRules
from adjudicator.engine.situation import (
    MAX_CARDS,
    MAX_EXITS,
    MAX_GROUP_NAME,
    MAX_MEDALS,
    MAX_OBJECTIVES,
    SIDES,
    parse_scenario,
)

Finding = tuple[int | None, int | None, str, str, str]
"""(row, col, what, name, reason) of something the file holds that did not make it in."""

SIDE_NAMES = {"AXIS": "axis", "ALLIES": "allies"}
ALLIED_MEDALS = ("medal1", "medal4", "medal6")
EITHER_SIDE_MEDALS = ("medal0",)
"""Medal tokens by side (file-format knowledge, as the BGA implementation reads the editor's
files): ``medal0`` either side, ``medal1``/``medal4``/``medal6`` the Allies, any other the Axis."""
MEDAL_FLAGS = ("permanent", "turn_start", "majority", "sole_control", "last_to_occupy")
"""The flags of a medal tag the import reads; others (``any_hex``) are reported in notes."""
STANDARD_CONDITION = "standard"
"""A ``victory_conditions`` item that only says the game is won on medals, as usual."""
SUDDEN_DEATH = "group_sudden_death"
LABEL = re.compile(r"([A-Za-z])([0-9]{1,2})")
MAX_GROUP = 30  # hexes listed in one tag's group
EXIT_WORTH_OPTIONS: dict[str, dict[str, int]] = {"infantry_exit_counts_2": {"infantry": 2}}
"""Scenario options that say what an exiting unit is worth (file-format knowledge: the option's
name says it; the exit marker's own count applies to every other unit)."""


def _on(value: Any) -> bool:
    return value is True or value in (1, "1", "true", "True")


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,4}", value.strip()):
        return int(value.strip())
    return None


def label_hex(board: Board, text: Any) -> Hex | None:
    """The hex a board label names ("F5", "g8": upper case for even columns, lower case for odd,
    rows counted from the bottom), or None when it names none on this board."""
    if not isinstance(text, str):
        return None
    found = LABEL.fullmatch(text.strip())
    if not found:
        return None
    letter, number = found[1], int(found[2])
    col = 2 * (ord(letter) - ord("A")) if letter.isupper() else 2 * (ord(letter) - ord("a")) + 1
    h = Hex(board.rows - number, col)
    return h if board.contains(h) else None


@dataclass
class ScenarioReader:
    rulebook: Rulebook
    board: Board
    top_side: str
    objectives: list[dict[str, Any]] = field(default_factory=list)
    exits: list[dict[str, Any]] = field(default_factory=list)
    unknown: list[Finding] = field(default_factory=list)
    skipped: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    medals_to_win: dict[str, int] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)
    first_player: str | None = None
    exit_worth: dict[str, int] = field(default_factory=dict)
    groups: int = 0

    @property
    def bottom_side(self) -> str:
        return "allies" if self.top_side == "axis" else "axis"

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    # -- game info ---------------------------------------------------------------------------------
    def game_info(self, info: Mapping[str, Any]) -> None:
        """Medals to win and hand sizes per player (player 1 sits at the top), and who starts."""
        for player, side in (("player1", self.top_side), ("player2", self.bottom_side)):
            for key, target, high in (("victory", self.medals_to_win, MAX_MEDALS), ("cards", self.cards, MAX_CARDS)):
                raw = info.get(f"{key}_{player}")
                if raw is None:
                    continue
                number = _whole(raw)
                if number is None or not 1 <= number <= high:
                    self.skipped.append((None, None, "game info", f"{key}_{player}",
                                         f"{str(raw)[:40]!r} is not a whole number from 1 to {high}"))
                else:
                    target[side] = number
        starting = str(info.get("starting") or "").strip().upper()
        if starting in ("PLAYER1", "PLAYER2"):
            self.first_player = self.top_side if starting == "PLAYER1" else self.bottom_side
        self.victory_conditions(info)

    def victory_conditions(self, info: Mapping[str, Any]) -> None:
        """``victory.condition[]``: a ``group_sudden_death`` (a side, a number, the hexes) becomes a
        sudden death objective; any other condition is listed in ``unknown``."""
        conditions: list[Any] = []
        for key in ("victory", "victory_conditions"):
            block = info.get(key)
            if isinstance(block, Mapping):
                block = block.get("condition")
            if isinstance(block, list):
                conditions += block[:20]
        for condition in conditions:
            if not isinstance(condition, Mapping):
                continue
            for name, value in list(condition.items())[:10]:
                if name == STANDARD_CONDITION:
                    continue
                if name == SUDDEN_DEATH and isinstance(value, Mapping):
                    self.sudden_death(value)
                else:
                    self.unknown.append((None, None, "victory condition", str(name)[:60], ""))

    def sudden_death(self, condition: Mapping[str, Any]) -> None:
        kind = self.entry(lambda r: r.ends_game)
        side = SIDE_NAMES.get(str(condition.get("side") or "").strip().upper())
        hexes = self.group_hexes(None, condition.get("group"), "victory condition", SUDDEN_DEATH)
        if kind is None or side is None or not hexes:
            why = ("no victory entry ends the game" if kind is None else
                   "it names no side" if side is None else "it names no hex of the board")
            self.skipped.append((None, None, "victory condition", SUDDEN_DEATH, why))
            return
        self.add_group(kind, side, hexes, 1, _whole(condition.get("number")), SUDDEN_DEATH)

    # -- tags ----------------------------------------------------------------------------------------
    def entry(self, matches: Any) -> str | None:
        """The first victory entry whose rules ``matches`` accepts."""
        for entry_id in self.rulebook.ids_of_kind("victory"):
            rules = self.rulebook.rules[entry_id]
            if isinstance(rules, VictoryRules) and matches(rules):
                return entry_id
        return None

    def medal_tag(self, h: Hex, name: str, tag: Mapping[str, Any]) -> None:
        """A medal token: the victory entry its flags describe, for the side its token stands for,
        on its hex and the hexes of its ``group``."""
        data = tag.get("medal") if isinstance(tag.get("medal"), Mapping) else {}
        assert isinstance(data, Mapping)
        flags = {flag: _on(data.get(flag)) for flag in MEDAL_FLAGS}
        control = ("absolute_majority" if flags["majority"] else "sole_control" if flags["sole_control"]
                   else "occupy")

        def described(rules: VictoryRules) -> bool:
            if rules.ends_game or rules.control != control or rules.turn_start != flags["turn_start"]:
                return False
            if flags["last_to_occupy"]:
                return rules.kept_until_enemy_occupies
            return not rules.kept_until_enemy_occupies and rules.temporary is (not flags["permanent"])

        kind = self.entry(described)
        shown = ", ".join(f for f in MEDAL_FLAGS if flags[f]) or "temporary"
        if kind is None:
            self.unknown.append((h.row, h.col, "medal", name, f"no victory entry is a {shown} medal"))
            return
        for extra in sorted(k for k in data if k not in (*MEDAL_FLAGS, "counts_for", "nbr_hex", "side"))[:5]:
            if _on(data.get(extra)):
                self.notes.append(f"{self.label(h)}: medal flag {str(extra)[:40]!r} has no entry; read as a "
                                  f"{self.rulebook.names[kind]}")
        side = SIDE_NAMES.get(str(data.get("side") or "").strip().upper())
        if side is None and name.lower() not in EITHER_SIDE_MEDALS:
            side = "allies" if name.lower() in ALLIED_MEDALS else "axis"
        if self.victory(kind).either_side:
            side = None  # either side may take it, whatever the token's colour
        worth = _whole(data.get("counts_for"))
        if worth is None or not 1 <= worth <= MAX_MEDALS:
            worth = 1
        hexes = self.group_hexes(h, tag.get("group"), "medal", name)
        self.add_group(kind, side, hexes, worth, _whole(data.get("nbr_hex")), f"{self.label(h)} {name}")

    def victory(self, kind: str) -> VictoryRules:
        rules = self.rulebook.rules[kind]
        assert isinstance(rules, VictoryRules)
        return rules

    def group_hexes(self, h: Hex | None, group: Any, what: str, name: str) -> list[Hex]:
        """The tag's hex and the hexes its ``group`` labels name, each once; labels off the board are
        listed in ``skipped``."""
        hexes = [h] if h is not None else []
        for text in (group if isinstance(group, list) else [])[:MAX_GROUP]:
            found = label_hex(self.board, text)
            if found is None:
                self.skipped.append((h.row if h else None, h.col if h else None, what, name,
                                     f"group hex {str(text)[:12]!r} is not on the {self.board.kind} board"))
            elif found not in hexes:
                hexes.append(found)
        return hexes

    def add_group(self, kind: str, side: str | None, hexes: list[Hex], worth: int, needed: int | None,
                  group: str) -> None:
        """Objectives for ``hexes`` counted together (one hex: an objective of its own)."""
        if len(self.objectives) + len(hexes) > MAX_OBJECTIVES:
            self.skipped.append((hexes[0].row, hexes[0].col, "medal", kind, f"more than {MAX_OBJECTIVES} objectives"))
            return
        if len(hexes) == 1:
            same = next((o for o in self.objectives if (o["row"], o["col"], o["kind"], o["side"]) ==
                         (hexes[0].row, hexes[0].col, kind, side) and o.get("group") is None), None)
            if same is not None:  # two tokens of one objective on a hex: worth both
                same["medals"] = min(MAX_MEDALS, same["medals"] + worth)
                return
            self.objectives.append({"row": hexes[0].row, "col": hexes[0].col, "kind": kind, "side": side,
                                    "medals": worth})
            return
        self.groups += 1
        if needed is not None and not 1 <= needed <= len(hexes):
            self.notes.append(f"{group}: {needed} hexes needed of a group of {len(hexes)}; all of them are needed")
            needed = None
        name = group[:MAX_GROUP_NAME]
        for h in hexes:
            item: dict[str, Any] = {"row": h.row, "col": h.col, "kind": kind, "side": side, "medals": worth,
                                    "group": name}
            if needed is not None:
                item["hexes_needed"] = needed
            self.objectives.append(item)

    def exit_tag(self, h: Hex, name: str, tag: Mapping[str, Any]) -> None:
        """An exit marker: exit hexes (its own and its ``group``'s) for the side the tag names."""
        side = SIDE_NAMES.get(str(tag.get("side") or "").strip().upper())
        if side is None:
            self.skipped.append((h.row, h.col, "tag", name, "the exit marker names no side"))
            return
        for exit_hex in self.group_hexes(h, tag.get("group"), "tag", name):
            if len(self.exits) >= MAX_EXITS:
                self.skipped.append((exit_hex.row, exit_hex.col, "tag", name, f"more than {MAX_EXITS} exit hexes"))
                return
            if not any((e["row"], e["col"], e["side"]) == (exit_hex.row, exit_hex.col, side) for e in self.exits):
                self.exits.append({"row": exit_hex.row, "col": exit_hex.col, "side": side})

    def option(self, key: str) -> bool:
        """An option that says what exiting is worth (``EXIT_WORTH_OPTIONS``): True when it is one."""
        worth = EXIT_WORTH_OPTIONS.get(key)
        if worth is None:
            return False
        self.exit_worth.update(worth)
        return True

    # -- the result ----------------------------------------------------------------------------------
    def scenario(self, options: list[str]) -> dict[str, Any] | None:
        """The situation's ``scenario``, checked by the engine's own parser (an objective it refuses is
        dropped and listed in ``skipped``); None when the file sets nothing of it."""
        exits = [{**e, "medals": dict(self.exit_worth)} if self.exit_worth else e for e in self.exits]
        doc: dict[str, Any] = {}
        for key, value in (("medals_to_win", self.medals_to_win), ("first_player", self.first_player),
                           ("cards", self.cards), ("objectives", self.objectives), ("exits", exits),
                           ("options", options)):
            if value:
                doc[key] = value
        if not doc:
            return None
        for _ in range(len(self.objectives) + len(exits) + 2):
            try:
                parse_scenario(doc, self.board, self.rulebook)
                return doc
            except IllegalSituation as exc:
                found = re.match(r"scenario\.(objectives|exits)\[(\d+)\]", exc.field)
                if not found:
                    self.skipped.append((None, None, "scenario", exc.field, exc.message))
                    return None
                item = doc[found[1]].pop(int(found[2]))
                self.skipped.append((item["row"], item["col"], found[1][:-1], str(item.get("kind", "exit")),
                                     exc.message))
                if not doc[found[1]]:
                    del doc[found[1]]
        return doc


def exit_marker_ids(rulebook: Rulebook) -> set[str]:
    """Marker entries that make a hex an exit (``medals_per_exit``)."""
    return {e for e, r in rulebook.rules.items() if isinstance(r, MarkerRules) and r.medals_per_exit is not None}


__all__ = ["SIDES", "ScenarioReader", "exit_marker_ids", "label_hex"]
