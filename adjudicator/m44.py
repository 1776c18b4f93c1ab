"""Import a scenario written by the official Memoir '44 editor (a ``.m44`` file) as a situation.

A ``.m44`` file is JSON: ``board.type`` (STANDARD, OVERLORD or BRKTHRU), ``board.hexagons[]``
with ``row``/``col`` in the very coordinates of our situation documents, tile names under
``terrain``/``rect_terrain``/``obstacle``, and units named ``<type><nation>`` (``inf2ger``,
``tankus``, ``gunbrit``) with an optional ``badge`` ("badge26") and ``nbr_units`` (figure count).
``game_info.side_player1`` is the side at the top of the board.

Every name is mapped through the content, never through a table here: terrain and obstacle
entries list their ``editor_names``, unit entries theirs (``inf``, ``tank2``), badge entries their
``editor_badges`` numbers, all reachable with ``Rulebook.resolve``. The one table in this module
is file-format knowledge: which nation a unit-name suffix stands for. Whatever cannot be mapped is
reported in ``unknown`` (and whatever was understood but cannot go on the board in ``skipped``),
never dropped silently.

The module is pure: it takes parsed JSON (or text) and a ``Rulebook`` and returns data."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Board, Hex
from adjudicator.engine.rulebook import BadgeRules, HexRules, Rulebook
from adjudicator.engine.situation import (
    MAX_FIGURES,
    MAX_HEXES,
    NATIONS,
    board_faces,
    parse_situation,
    resolve_profile,
    situation_rule_ids,
)

BOARD_TYPES = {"STANDARD": "standard", "OVERLORD": "overlord", "BRKTHRU": "breakthrough"}
"""``board.type`` values of the editor -> our board kinds."""

SIDE_NAMES = {"AXIS": "axis", "ALLIES": "allies"}

NATION_SUFFIXES: dict[str, tuple[str, str | None]] = {
    "brit": ("allies", "british"),
    "ger": ("axis", "german"),
    "us": ("allies", "us"),
    "gb": ("allies", "british"),
    "ru": ("allies", "soviet"),
    "jp": ("axis", "japanese"),
    "it": ("axis", "italian"),
    "fr": ("allies", "french"),
    "ch": ("allies", None),  # Chinese units: allied, no nation rules of their own in the game
}
"""Unit-name suffix -> (side, nation code). File-format knowledge, not a rule: the editor spells a
unit as type + nation, and the nation decides the side."""

BEACH_FACE_ROWS: dict[str, dict[str, tuple[int, ...]]] = {
    "standard": {"beach": (4, 5, 6), "ocean": (7, 8)},
    "breakthrough": {"beach": (11, 12, 13), "ocean": (14, 15, 16)},
}
"""A board printed with the beach face has beach and ocean rows under the hexes the file leaves
blank (file-format knowledge: the editor draws them from the face, the file does not list them).
The BGA implementation gives the rows of the standard and Breakthrough boards only (``board_faces``);
for another board no rows are added and the import says so."""

DECORATIVE_BADGES: dict[int, str] = {
    1: "nation insignia", 2: "nation insignia", 4: "nation insignia", 25: "nation insignia",
    38: "nation insignia",
}
"""Editor badge numbers that only decorate a unit (file-format knowledge: the BGA implementation
gives a unit class only to the numbers our badge entries list; these insignia have none)."""

DECORATIVE_TAGS: dict[str, str] = {
    "tag1": "battle star token", "tag3": "generic marker", "tag4": "generic marker", "tag5": "generic marker",
}
"""Editor tags with no rules of their own (a battle star marks a scenario-specific objective)."""

DECORATIVE_PIECES: dict[str, str] = {
    "barge": "landing barge", "pbarge": "landing barge", "landingbarge": "landing barge",
    "carrier": "aircraft carrier", "pcarrier": "aircraft carrier",
}
"""Editor tiles and unit prefixes drawn for atmosphere, with no rules in any source."""

IMPASSABLE_PREFIX = "IMPASSABLE"
"""Tile behaviours (``IMPASSABLE_HILL``, ``IMPASSABLE_BLOCKING_HILL``...) that make a hex impassable."""

MAX_HEXAGONS = MAX_HEXES * 2
MAX_NAME = 60
MAX_LISTED = 500
"""At most this many ``unknown`` / ``skipped`` items are listed one by one (their totals are always
given): an 890 KB file of junk names must not turn into a multi-megabyte answer."""
MAX_BADGES = 10  # as many badges as a situation's unit may carry (``engine.situation``)
WHOLE_NUMBER = re.compile(r"[ \t\r\n]*-?[0-9]{1,6}[ \t\r\n]*")
"""A number as the editor writes it, in ASCII digits (maybe padded with ASCII spaces): ``"²".isdigit()``
is true and a 5000-digit string makes ``int`` raise, so neither may reach ``int``."""


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is one (or a short string of ASCII digits), else None."""
    if isinstance(value, str) and WHOLE_NUMBER.fullmatch(value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


class M44Error(ValueError):
    """The file is not a scenario we can read at all (not JSON, no board, unknown board type)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Unmapped:
    """Something on hex (row, col) of the file that did not make it onto the board."""

    row: int | None
    col: int | None
    what: str  # terrain | rect_terrain | obstacle | unit | badge | tag | option | hex
    name: str
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"row": self.row, "col": self.col, "what": self.what, "name": self.name}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class M44Import:
    situation: dict[str, Any]
    title: str | None = None
    unknown: tuple[Unmapped, ...] = ()  # names the content does not know
    skipped: tuple[Unmapped, ...] = ()  # known names that cannot be placed as the file asks
    notes: tuple[str, ...] = ()  # assumptions made while importing
    decorative: tuple[Unmapped, ...] = ()  # pieces with no rules (insignia, battle stars, barges)

    def as_dict(self) -> dict[str, Any]:
        return {
            "situation": self.situation,
            "title": self.title,
            "unknown": [u.as_dict() for u in self.unknown[:MAX_LISTED]],
            "unknown_total": len(self.unknown),
            "skipped": [s.as_dict() for s in self.skipped[:MAX_LISTED]],
            "skipped_total": len(self.skipped),
            "notes": list(self.notes[:MAX_LISTED]),
            "notes_total": len(self.notes),
            "decorative": [d.as_dict() for d in self.decorative[:MAX_LISTED]],
            "decorative_total": len(self.decorative),
        }


def loads(text: str | bytes) -> Any:
    """Parse the file's text; the editor sometimes writes a byte-order mark."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = text.decode("latin-1")
    try:
        return json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError) as exc:
        # Say where, in words a player can act on, not the parser's own message.
        where = ""
        if isinstance(exc, json.JSONDecodeError):
            where = f": it stops making sense at line {exc.lineno}, column {exc.colno}"
        raise M44Error("(file)", f"this file is not a .m44 scenario (not valid JSON{where}). Export the scenario "
                       "again from the official editor and load that file.") from None


@dataclass
class _Hex:
    terrain: str | None = None
    obstacles: list[str] = field(default_factory=list)  # stacked tiles: wire on a bridge
    owner: str | None = None
    impassable: bool = False  # an IMPASSABLE behaviour of the scenario


@dataclass
class _Importer:
    rulebook: Rulebook
    board: Board
    hexes: dict[Hex, _Hex] = field(default_factory=dict)
    units: list[dict[str, Any]] = field(default_factory=list)
    unknown: list[Unmapped] = field(default_factory=list)
    skipped: list[Unmapped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    decorative: list[Unmapped] = field(default_factory=list)
    pending_unit_markers: list[tuple[Hex, str, str]] = field(default_factory=list)  # camouflage etc.
    top_side: str = "axis"
    medals: int = 0

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    # -- tiles -------------------------------------------------------------------------------
    def tile(self, h: Hex, what: str, tile: Any) -> None:
        """A terrain, rect_terrain or obstacle tile: goes to the hex's terrain or obstacle slot
        according to the kind of the entry its name resolves to (a ``bunker`` tile is an
        obstacle entry in our content even when the file calls it terrain)."""
        if not isinstance(tile, Mapping):
            self.skipped.append(Unmapped(h.row, h.col, what, str(tile)[:MAX_NAME], "not a tile object"))
            return
        name = str(tile.get("name") or "").strip()[:MAX_NAME]
        if not name:
            self.skipped.append(Unmapped(h.row, h.col, what, "", "tile without a name"))
            return
        behavior = tile.get("behavior")
        impassable = isinstance(behavior, str) and behavior.strip().upper().startswith(IMPASSABLE_PREFIX)
        if impassable:
            behavior = None  # the tile is still what it shows; the hex gets the impassable flag
        entry_id = self.resolve_tile(name, behavior)
        if entry_id is None:
            if self.tile_unit(h, name, tile):
                return
            if name.lower() in DECORATIVE_PIECES:
                self.decorative.append(Unmapped(h.row, h.col, what, name, DECORATIVE_PIECES[name.lower()]))
            else:
                self.unknown.append(Unmapped(h.row, h.col, what, name))
            return
        if isinstance(behavior, str) and behavior.strip() and self.resolve_tile(behavior, None) is None:
            shown, played = behavior.strip()[:MAX_NAME], self.rulebook.names[entry_id]
            self.notes.append(f"{self.label(h)}: tile behaviour {shown!r} has no entry of its own; played as {played}")
        state = self.hexes.setdefault(h, _Hex())
        if impassable and not state.impassable:
            state.impassable = True
            self.notes.append(f"{self.label(h)}: the scenario makes this {self.rulebook.names[entry_id]} impassable")
        if self.rulebook.kinds[entry_id] == "terrain":
            current = state.terrain
            if current is not None and current != entry_id:
                if current in self.rulebook.hex_rules(entry_id).drawn_over:
                    state.terrain = entry_id  # a ford drawn over a river replaces it
                elif entry_id not in self.rulebook.hex_rules(current).drawn_over:
                    self.skipped.append(Unmapped(
                        h.row, h.col, what, name,
                        f"{self.label(h)} already has {self.rulebook.names[current]}; a hex holds one terrain",
                    ))
                    return
            else:
                state.terrain = entry_id
        elif entry_id not in state.obstacles:
            state.obstacles.append(entry_id)
        owner = tile.get("original_owner")
        if isinstance(owner, str) and owner.upper() in SIDE_NAMES:
            state.owner = SIDE_NAMES[owner.upper()]

    def resolve_tile(self, name: str, behavior: Any) -> str | None:
        """The entry for a tile; a ``behavior`` that names an entry of its own (a hill tile with
        behaviour SEAWALL or CLIFF) wins over the tile's picture."""
        candidates = []
        if isinstance(behavior, str) and behavior.strip():
            candidates.append(behavior.strip()[:MAX_NAME])
        candidates.append(name)
        for candidate in candidates:
            entry_id = self.rulebook.resolve(candidate, "terrain", "obstacle", "marker")
            if entry_id is None:
                continue
            rules = self.rulebook.rules[entry_id]
            if isinstance(rules, HexRules) and getattr(rules, "placed_on", "hex") == "hex":
                return entry_id
        return None

    def tile_unit(self, h: Hex, name: str, tile: Mapping[str, Any]) -> bool:
        """A unit the editor draws as a tile (``pdestroyer``, ``loco``, ``wagon``): it becomes a unit
        of the tile's ``original_owner`` or, without one, of the side whose half of the board it is on."""
        unit_type = self.rulebook.resolve(name, "unit")
        if unit_type is None:
            return False
        owner = tile.get("original_owner")
        if isinstance(owner, str) and owner.upper() in SIDE_NAMES:
            side = SIDE_NAMES[owner.upper()]
        else:
            side = self.top_side if h.row < self.board.rows / 2 else ("axis" if self.top_side == "allies" else "allies")
            self.notes.append(f"{self.label(h)}: {self.rulebook.names[unit_type]} drawn as a tile names no side; "
                              f"taken to be the {side}, on whose half of the board it stands")
        if any((u["row"], u["col"]) == (h.row, h.col) for u in self.units):
            self.skipped.append(Unmapped(h.row, h.col, "unit", name, "a second unit on the same hex"))
            return True
        profile = self.rulebook.unit(unit_type)
        self.units.append({"id": f"u{len(self.units) + 1}", "side": side, "type": unit_type,
                           "row": h.row, "col": h.col, "figures": profile.figures})
        return True

    # -- units -------------------------------------------------------------------------------
    def unit(self, h: Hex, data: Any) -> None:
        if not isinstance(data, Mapping):
            self.skipped.append(Unmapped(h.row, h.col, "unit", str(data)[:MAX_NAME], "not a unit object"))
            return
        name = str(data.get("name") or "").strip()[:MAX_NAME]
        parsed = self.parse_unit_name(name)
        if parsed is None:
            piece = next((DECORATIVE_PIECES[p] for p in DECORATIVE_PIECES if name.lower().startswith(p)), None)
            if piece is not None:
                self.decorative.append(Unmapped(h.row, h.col, "unit", name, piece))
            else:
                self.unknown.append(Unmapped(h.row, h.col, "unit", name))
            return
        unit_type, side, nation = parsed
        unit: dict[str, Any] = {
            "id": f"u{len(self.units) + 1}", "side": side, "type": unit_type, "row": h.row, "col": h.col,
        }
        if nation is not None:
            unit["nation"] = nation
        badges = [b for b in self.badges(h, data.get("badge")) if self.badge_fits(h, b, unit_type, data.get("badge"))]
        if badges:
            unit["badges"] = badges
        profile = self.rulebook.unit(resolve_profile(self.rulebook, unit_type, tuple(badges), nation))
        unit["figures"] = profile.figures_by_nation.get(nation or "", profile.figures)
        raw_count = data.get("nbr_units")
        count = whole_number(raw_count)
        if raw_count is not None and count is None:
            self.skipped.append(Unmapped(h.row, h.col, "unit", name,
                                         f"nbr_units {str(raw_count)[:MAX_NAME]!r} is not a whole number"))
        if count is not None:
            if 1 <= count <= MAX_FIGURES:
                unit["figures"] = unit["start_figures"] = count
            else:
                self.skipped.append(Unmapped(h.row, h.col, "unit", name, f"nbr_units {count} is not 1..{MAX_FIGURES}"))
        self.units.append(unit)

    def parse_unit_name(self, name: str) -> tuple[str, str, str | None] | None:
        """(unit type id, side, nation) for ``inf2ger``-style names, or None."""
        lowered = name.lower()
        for suffix in sorted(NATION_SUFFIXES, key=len, reverse=True):
            if lowered.endswith(suffix) and len(lowered) > len(suffix):
                unit_type = self.rulebook.resolve(lowered[: -len(suffix)], "unit")
                if unit_type is not None:
                    side, nation = NATION_SUFFIXES[suffix]
                    return unit_type, side, nation if nation in NATIONS else None
        return None

    def badge_fits(self, h: Hex, badge_id: str, unit_type: str, shown: Any) -> bool:
        """A badge drawn on a unit it has no rules for (the French Resistance badge on a French tank)
        only decorates it: listed as decorative, not applied."""
        applies_to = getattr(self.rulebook.rules[badge_id], "applies_to", ())
        if not applies_to or unit_type in applies_to or self.rulebook.bases.get(unit_type) in applies_to:
            return True
        self.decorative.append(Unmapped(
            h.row, h.col, "badge", str(shown)[:MAX_NAME],
            f"{self.rulebook.names[badge_id]} has rules only for "
            f"{', '.join(self.rulebook.names.get(u, u) for u in applies_to)}; on {self.rulebook.names[unit_type]} "
            "it is a picture"))
        return False

    def badges(self, h: Hex, badge: Any) -> list[str]:
        """Badge entries whose ``editor_badges`` list the file's ``badgeNN`` number."""
        if badge in (None, ""):
            return []
        text = str(badge).strip()[:MAX_NAME]
        number = whole_number(text.lower().removeprefix("badge"))
        if number is None:
            self.unknown.append(Unmapped(h.row, h.col, "badge", text))
            return []
        found = [
            entry_id for entry_id, rules in self.rulebook.rules.items()
            if isinstance(rules, BadgeRules) and number in rules.editor_badges
        ]
        if not found and number in DECORATIVE_BADGES:
            self.decorative.append(Unmapped(h.row, h.col, "badge", text, DECORATIVE_BADGES[number]))
        elif not found:
            self.unknown.append(Unmapped(h.row, h.col, "badge", text))
        return found[:1]

    # -- tags ----------------------------------------------------------------------------------
    def tags(self, h: Hex, tags: Any) -> None:
        """Tags carry medals and a few markers. Markers the content names (by their editor
        name) go on the hex or the unit; medals are victory objectives, outside a situation."""
        if not isinstance(tags, list):
            return
        for tag in tags[:20]:
            if not isinstance(tag, Mapping):
                continue
            name = str(tag.get("name") or "").strip()[:MAX_NAME]
            behavior = tag.get("behavior")
            entry_id = None
            for candidate in (behavior, name):
                if isinstance(candidate, str) and candidate:
                    entry_id = self.rulebook.resolve(candidate, "marker", "badge", "obstacle")
                    if entry_id:
                        break
            if entry_id is None:
                if name.lower().startswith("medal"):
                    self.medals += 1
                elif name.lower() in DECORATIVE_TAGS:
                    self.decorative.append(Unmapped(h.row, h.col, "tag", name, DECORATIVE_TAGS[name.lower()]))
                else:
                    self.unknown.append(Unmapped(h.row, h.col, "tag", name))
                continue
            rules = self.rulebook.rules[entry_id]
            if getattr(rules, "placed_on", "hex") == "unit" or self.rulebook.kinds[entry_id] == "badge":
                self.pending_unit_markers.append((h, entry_id, name))
            else:
                self.tile(h, "tag", {"name": entry_id, "original_owner": tag.get("side")})

    def place_unit_markers(self) -> None:
        by_hex = {(u["row"], u["col"]): u for u in self.units}
        for h, entry_id, name in self.pending_unit_markers:
            unit = by_hex.get((h.row, h.col))
            if unit is None:
                self.skipped.append(Unmapped(h.row, h.col, "tag", name,
                                             f"{self.rulebook.names[entry_id]} goes on a unit; no unit here"))
            elif entry_id not in unit.setdefault("badges", []):
                if len(unit["badges"]) >= MAX_BADGES:
                    self.skipped.append(Unmapped(h.row, h.col, "tag", name,
                                                 f"a unit carries at most {MAX_BADGES} badges and markers"))
                    continue
                unit["badges"].append(entry_id)

    # -- whole file ----------------------------------------------------------------------------
    def infer_owners(self) -> None:
        """A feature that protects only its original owner (a bunker) with no owner in the file
        belongs to the side of the unit standing on it at the start."""
        occupants = {(u["row"], u["col"]): u["side"] for u in self.units}
        for h, state in self.hexes.items():
            if state.owner is not None or (h.row, h.col) not in occupants:
                continue
            if any(owner_matters(self.rulebook.hex_rules(f)) for f in (state.terrain, *state.obstacles) if f):
                state.owner = occupants[(h.row, h.col)]
                self.notes.append(
                    f"{self.label(h)}: the file names no owner; taken to be the {state.owner}, whose unit starts there"
                )

    def beach_face(self) -> None:
        rows = BEACH_FACE_ROWS.get(self.board.kind, {})
        if not rows:
            self.notes.append(f"the beach face's beach and ocean rows of a {self.board.kind} board are in no source: "
                              "none were added; place the beach and ocean hexes by hand")
        for terrain_name, row_numbers in rows.items():
            entry_id = self.rulebook.resolve(terrain_name, "terrain")
            if entry_id is None:
                self.unknown.append(Unmapped(None, None, "terrain", terrain_name, "the beach face's background"))
                continue
            for h in self.board.hexes():
                if h.row in row_numbers:
                    state = self.hexes.setdefault(h, _Hex())
                    if state.terrain is None:
                        state.terrain = entry_id

    def document(self, bottom_side: str, rules: list[str], face: str | None = None) -> dict[str, Any]:
        hexes = []
        for h in sorted(self.hexes):
            state = self.hexes[h]
            if state.terrain is None and not state.obstacles and not state.impassable:
                continue
            item: dict[str, Any] = {"row": h.row, "col": h.col}
            if state.terrain:
                item["terrain"] = state.terrain
            if len(state.obstacles) == 1:
                item["obstacle"] = state.obstacles[0]
            elif state.obstacles:
                item["obstacles"] = list(state.obstacles)
            if state.owner:
                item["owner"] = state.owner
            if state.impassable:
                item["impassable"] = True  # api.md: units may neither enter nor retreat onto it
            hexes.append(item)
        doc: dict[str, Any] = {"board": self.board.kind, "bottom_side": bottom_side}
        if face:
            doc["face"] = face
        if rules:
            doc["rules"] = rules
        doc["hexes"] = hexes
        doc["units"] = self.units
        return doc


def owner_matters(rules: HexRules) -> bool:
    """Whether a feature's protection or flag ignoring depends on who originally owned it."""
    return any("owner_only" in r.when for r in rules.dice_reductions) or any(f.owner_only for f in rules.flags)


def _face(value: Any, rulebook: Rulebook, importer: _Importer) -> str | None:
    """The situation ``face`` for the file's ``board.face``, through the ``editor_face`` of each
    face the core ``board_faces`` entry lists; a face the content does not know is listed in ``unknown``
    (the board is then drawn in the default face)."""
    if value is None or value == "":
        return None
    name = str(value).strip()[:MAX_NAME]
    for face_id, face in board_faces(rulebook).items():
        if name.upper() == face.editor_face.upper():
            return face_id
    importer.unknown.append(Unmapped(None, None, "board face", name))
    return None


def _editor_word(value: Any, where: str, known: Mapping[str, str], default: str) -> str:
    """One of the editor's upper-case words (``known``), in any case; absent, null or empty: ``default``."""
    word = value.strip().upper() if isinstance(value, str) else default if value is None else None
    if word == "":
        word = default
    if word not in known:
        raise M44Error(where, f"must be one of {', '.join(known)}, got {value!r}"[:200])
    return word


def _int_field(value: Any, where: str) -> int:
    number = whole_number(value)
    if number is None:
        raise M44Error(where, "must be a whole number")
    return number


def _options(info: Mapping[str, Any], rulebook: Rulebook, importer: _Importer) -> list[str]:
    """Scenario options that switch on a special rule the content models (its ``situation_id``)."""
    options = info.get("options")
    if not isinstance(options, Mapping):
        return []
    known = situation_rule_ids(rulebook)
    by_entry = {entry_id: sid for sid, entry_id in known.items()}
    rules: list[str] = []
    for key, value in list(options.items())[:60]:
        if value is not True and value not in (1, "1", "true", "True"):
            continue  # deck names, counts: settings, not rules
        key = str(key)[:MAX_NAME]
        found = None
        for candidate in (key, key.removesuffix("_rules"), key.removesuffix("_rule")):
            if candidate in known:
                found = candidate
                break
            entry_id = rulebook.resolve(candidate, "special_rule", "action", "nation")
            if entry_id in by_entry:
                found = by_entry[entry_id]
                break
        nation = next(filter(None, (rulebook.resolve(k, "nation") for k in
                                    (key, key.removesuffix("_rules"), key.removesuffix("_rule")))), None)
        if found is None and nation is not None:
            codes = ", ".join(getattr(rulebook.rules[nation], "nation_codes", ()))
            whom = (f"units of nation {codes}" if codes
                    else "the units the scenario names (no nation code switches them on)")
            importer.notes.append(f"option {key!r}: the {rulebook.names[nation]} rules apply to {whom}")
        elif found is None:
            importer.unknown.append(Unmapped(None, None, "option", key))
        elif found not in rules:
            rules.append(found)
    return rules


def import_m44(data: Any, rulebook: Rulebook) -> M44Import:
    """Map a parsed ``.m44`` scenario to a situation document, listing what did not map."""
    if not isinstance(data, Mapping):
        raise M44Error("(file)", "not a .m44 scenario: expected a JSON object")
    board_data = data.get("board")
    if not isinstance(board_data, Mapping):
        raise M44Error("board", "is missing: a .m44 scenario has a board object")
    board = BOARDS[BOARD_TYPES[_editor_word(board_data.get("type"), "board.type", BOARD_TYPES, "STANDARD")]]
    info = data.get("game_info") if isinstance(data.get("game_info"), Mapping) else {}
    top = _editor_word(info.get("side_player1"), "game_info.side_player1", SIDE_NAMES, "AXIS")
    bottom_side = "allies" if SIDE_NAMES[top] == "axis" else "axis"

    hexagons = board_data.get("hexagons", [])
    if not isinstance(hexagons, list):
        raise M44Error("board.hexagons", "must be a list")
    if len(hexagons) > MAX_HEXAGONS:
        raise M44Error("board.hexagons", f"has {len(hexagons)} items; at most {MAX_HEXAGONS} are allowed")

    importer = _Importer(rulebook, board, top_side=SIDE_NAMES[top])
    rules = _options(info, rulebook, importer)
    occupied: set[Hex] = set()
    for i, item in enumerate(hexagons):
        where = f"board.hexagons[{i}]"
        if not isinstance(item, Mapping):
            raise M44Error(where, "must be an object with row and col")
        h = Hex(_int_field(item.get("row"), f"{where}.row"), _int_field(item.get("col"), f"{where}.col"))
        if not board.contains(h):
            importer.skipped.append(Unmapped(h.row, h.col, "hex", "", f"not on the {board.kind} board"))
            continue
        for what in ("terrain", "rect_terrain", "obstacle"):
            if item.get(what) is not None:
                importer.tile(h, what, item[what])
        if item.get("unit") is not None:
            if h in occupied:
                importer.skipped.append(Unmapped(h.row, h.col, "unit", str(item["unit"])[:MAX_NAME],
                                                 "a second unit on the same hex"))
            else:
                before = len(importer.units)
                importer.unit(h, item["unit"])
                if len(importer.units) > before:
                    occupied.add(h)
        importer.tags(h, item.get("tags"))
    importer.place_unit_markers()
    face = _face(board_data.get("face"), rulebook, importer)
    if str(board_data.get("face") or "").strip().upper() == "BEACH":
        importer.beach_face()
    importer.infer_owners()
    if importer.medals:
        importer.notes.append(
            f"{importer.medals} medal tag(s) left out: victory objectives are not part of a situation")
    doc = _validated(importer.document(bottom_side, rules, face), rulebook, importer)
    return M44Import(
        situation=doc,
        title=_title(data),
        unknown=tuple(importer.unknown),
        skipped=tuple(importer.skipped),
        notes=tuple(importer.notes),
        decorative=tuple(importer.decorative),
    )


def _validated(doc: dict[str, Any], rulebook: Rulebook, importer: _Importer) -> dict[str, Any]:
    """Drop every unit or badge the engine rejects (an armor drawn on a river tile), saying why,
    until the document parses.

    Linear: each unit is first checked alone, on a document holding only its own hex (a unit's
    legality depends on its hex, never on another unit's), so the whole document is parsed a
    bounded number of times rather than once per dropped unit."""
    by_hex = {(item["row"], item["col"]): item for item in doc["hexes"]}
    kept = []
    for unit in doc["units"]:
        own_hex = by_hex.get((unit["row"], unit["col"]))
        alone = {**doc, "hexes": [own_hex] if own_hex else [], "units": [unit]}
        if _check_alone(alone, rulebook, importer):
            kept.append(unit)
    doc["units"] = kept
    for _ in range(len(doc["units"]) * 2 + len(doc["hexes"]) + 2):
        try:
            parse_situation(doc, rulebook)
            return doc
        except IllegalSituation as exc:
            index, rest = _unit_index(exc.field)
            if index is None:
                raise M44Error(exc.field, exc.message) from None
            unit = doc["units"][index]
            if not _drop_rejected_badge(unit, rest, exc.message, importer):
                del doc["units"][index]
                importer.skipped.append(Unmapped(unit["row"], unit["col"], "unit", unit["type"], exc.message))
    try:
        parse_situation(doc, rulebook)
    except IllegalSituation as exc:
        raise M44Error(exc.field, exc.message) from None
    return doc


def _check_alone(alone: dict[str, Any], rulebook: Rulebook, importer: _Importer) -> bool:
    """Drop the badges the engine rejects from the one unit of ``alone``; False when the unit
    itself cannot stand (it is then listed in ``skipped``)."""
    unit = alone["units"][0]
    for _ in range(MAX_BADGES + 2):
        try:
            parse_situation(alone, rulebook)
            return True
        except IllegalSituation as exc:
            index, rest = _unit_index(exc.field)
            if index is None:
                return True  # a problem of the hexes: reported by the whole-document parse
            if _drop_rejected_badge(unit, rest, exc.message, importer):
                continue
            importer.skipped.append(Unmapped(unit["row"], unit["col"], "unit", unit["type"], exc.message))
            return False
    return False


def _drop_rejected_badge(unit: dict[str, Any], rest: str, message: str, importer: _Importer) -> bool:
    """When the engine rejected one of the unit's badges (``rest`` is ``.badges[i]``), drop that
    badge and list it in ``skipped``; False when the problem lies with the unit itself."""
    badge = re.fullmatch(r"\.badges\[(\d+)\]", rest)
    if not badge or int(badge[1]) >= len(unit.get("badges", [])):
        return False
    dropped = unit["badges"].pop(int(badge[1]))
    importer.skipped.append(Unmapped(unit["row"], unit["col"], "badge", dropped, message))
    if not unit["badges"]:
        del unit["badges"]
    return True


def _unit_index(field_name: str) -> tuple[int | None, str]:
    if not field_name.startswith("units["):
        return None, ""
    closing = field_name.index("]")
    return int(field_name[6:closing]), field_name[closing + 1:]


def _title(data: Mapping[str, Any]) -> str | None:
    text = data.get("text")
    if isinstance(text, Mapping):
        for language in ("en", *text.keys()):
            block = text.get(language)
            if isinstance(block, Mapping) and isinstance(block.get("name"), str) and block["name"].strip():
                return block["name"].strip()[:120]
    return None
