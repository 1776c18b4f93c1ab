"""The situation document (``adjudicator/API.md``) parsed into frozen, validated objects.

Parsing is strict: every problem raises ``IllegalSituation`` naming the field (``units[1].row``),
so the API can answer 400 with a message the user can act on, and the engine itself only ever
sees boards that could exist on a table."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Board, Hex, distance
from adjudicator.engine.rulebook import BadgeRules, BoardFace, Rulebook, UnitRules, VictoryRules

SIDES = ("allies", "axis")
NATIONS = (
    "us", "british", "german", "italian", "japanese", "soviet", "french", "french_resistance",
    "finnish", "polish",
)
MAX_UNITS = 200
MAX_HEXES = 1400  # an Overlord board has 1,323 hexes
MAX_FIGURES = 6  # no unit in the game starts with more than 4; leave room for house rules
MAX_MOVED = 12
MAX_ID_LENGTH = 40
MAX_OBSTACLES = 4  # a hex of a real scenario stacks at most a bridge, wire and a marker
MAX_NAME_LENGTH = 60  # a terrain, unit type, rule, badge, obstacle, nation or board face as named
MAX_RULES = 50
NOT_BLANK = (r"[^\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
             r"\ufeff]")
"""A character that is not white space: a name or an id must hold one. Spelled out, not ``\\S``,
because the OpenAPI document states it too and the two regex dialects disagree on ``\\S``
(ECMAScript's counts U+001C-U+001F and U+0085 as text, Python's counts U+FEFF): this class reads
the same in both, and every character either calls white space is left out."""
_NOT_BLANK = re.compile(NOT_BLANK)
MAX_BADGES = 10  # badges and unit markers on one unit
# the scenario (``scenario``, ``casualties``, ``exited``): limits of the request, not rules
MAX_OBJECTIVES = 120  # medal hexes of one scenario; real ones hold a few dozen at most
MAX_EXITS = 120  # exit hexes: both baselines of an Overlord board fit
MAX_OPTIONS = 30
MAX_MEDALS = 99  # medals to win, an objective's or an exit's worth, medals given from outside
MAX_CARDS = 20  # command cards in a hand
MAX_GROUP_NAME = 40
MAX_CASUALTIES = 2 * MAX_UNITS
MAX_EXITED = MAX_UNITS
UNIT_CLASSES = ("infantry", "armor", "artillery")
COUNTRY_NAMES = {
    "usa": "us", "united states": "us", "american": "us", "americans": "us",
    "germany": "german", "germans": "german", "wehrmacht": "german", "france": "french",
    "finland": "finnish", "poland": "polish", "ussr": "soviet",
}
"""Country names that no nation entry carries (Germany and the US have no nation rules, so no
entry to hold the alias). Names of nations with rules resolve through their entries' aliases."""


@dataclass(frozen=True)
class HexState:
    """What stands on a hex besides a unit. ``terrain`` None means plain countryside."""

    terrain: str | None = None
    obstacle: str | None = None
    owner: str | None = None  # original owner side of a bunker or sea wall, when given
    impassable: bool = False  # the scenario declares the hex impassable (editor IMPASSABLE behaviour)
    more_obstacles: tuple[str, ...] = ()  # further obstacles stacked on the hex (wire on a bridge)

    def features(self) -> tuple[str, ...]:
        """Terrain first, then every obstacle: battle, line of sight and retreat read them all."""
        return tuple(f for f in (self.terrain, self.obstacle, *self.more_obstacles) if f)


COUNTRYSIDE = HexState()


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    type: str  # the unit type as given (resolved alias), e.g. "armor"
    profile: str  # the unit entry whose numbers apply, e.g. "tank_destroyer" for badged armor
    hex: Hex
    figures: int
    start_figures: int
    badges: tuple[str, ...] = ()
    nation: str | None = None
    moved: int = 0
    moved_from: Hex | None = None  # where it started this turn's move, when the user says
    path: tuple[Hex, ...] = ()  # the hexes it moved through this turn, start first (empty: not given)
    # turn state (core ``ordering``, ``battle``): ordered this turn (None: not said), battled this turn
    ordered: bool | None = None
    battled: bool = False

    @property
    def weakened(self) -> bool:
        return self.figures < self.start_figures

    @property
    def full_strength(self) -> bool:
        return self.figures >= self.start_figures


@dataclass(frozen=True)
class Objective:
    """One medal objective hex of the scenario (``scenario.objectives[]``), by its victory entry."""

    hex: Hex
    kind: str  # victory entry id (``temporary_medal``)
    side: str | None = None  # the side that may gain it; None: either
    medals: int = 1
    group: str | None = None  # hexes sharing a group name count together
    hexes_needed: int | None = None  # how many of the group's hexes must be held (None: the entry's default)
    held_by: str | None = None  # the side that gained it earlier and keeps it now


@dataclass(frozen=True)
class ExitHex:
    """A hex through which units of ``side`` may leave the board (``scenario.exits[]``)."""

    hex: Hex
    side: str
    medals: int | None = None  # what one exiting unit is worth (None: the exit marker's own count)
    # per unit class or unit entry, where the scenario says so; a unit named by neither is worth ``medals``
    medals_by_unit: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """What the scenario sets (``scenario``): medals to win, objectives, exits, options."""

    medals_to_win: Mapping[str, int] = field(default_factory=dict)  # side -> count; a side absent: the default
    first_player: str | None = None
    cards: Mapping[str, int] = field(default_factory=dict)  # side -> command cards in hand
    objectives: tuple[Objective, ...] = ()
    exits: tuple[ExitHex, ...] = ()
    options: tuple[str, ...] = ()  # content ids of rules the scenario switches on (``us_marine_corps``)

    def option(self, entry_id: str) -> bool:
        return entry_id in self.options


@dataclass(frozen=True)
class Casualty:
    """Figures a side has lost so far (``casualties[]``): one unit's losses."""

    side: str  # the side that lost them
    type: str
    profile: str  # the unit entry whose medal rules apply
    figures: int
    eliminated: bool = True
    badges: tuple[str, ...] = ()
    nation: str | None = None


@dataclass(frozen=True)
class ExitedUnit:
    """A unit of ``side`` that left the board through an exit hex (``exited[]``)."""

    side: str
    type: str
    profile: str
    at: Hex


@dataclass(frozen=True)
class Situation:
    board: Board
    bottom_side: str
    rules_in_effect: frozenset[str]
    hexes: Mapping[Hex, HexState]
    units: tuple[Unit, ...]
    # The printed face of the board (core ``board_faces``), None when not given. Kept so a saved or
    # imported situation is drawn as it was set up; no ruling reads it (the face is cosmetic).
    face: str | None = None
    scenario: Scenario | None = None  # None: the situation gives no scenario
    casualties: tuple[Casualty, ...] = ()
    exited: tuple[ExitedUnit, ...] = ()
    _by_id: Mapping[str, Unit] = field(default_factory=dict, repr=False, compare=False)
    _by_hex: Mapping[Hex, Unit] = field(default_factory=dict, repr=False, compare=False)
    # values derived once per situation by the engine (the names reasons give units: engine.wording)
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {u.id: u for u in self.units})
        object.__setattr__(self, "_by_hex", {u.hex: u for u in self.units})

    def unit(self, unit_id: str, field_name: str = "unit") -> Unit:
        try:
            return self._by_id[unit_id]
        except (KeyError, TypeError):
            raise IllegalSituation(field_name, f"no unit with id {unit_id!r} in the situation") from None

    def unit_at(self, h: Hex) -> Unit | None:
        return self._by_hex.get(h)

    def hex_state(self, h: Hex) -> HexState:
        return self.hexes.get(h, COUNTRYSIDE)

    def is_bottom(self, side: str) -> bool:
        return side == self.bottom_side

    def rule(self, rule_id: str) -> bool:
        return rule_id in self.rules_in_effect


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalSituation(where, f"must be a whole number, got {type(value).__name__}")
    if not low <= value <= high:
        raise IllegalSituation(where, f"must be between {low} and {high}, got {value}")
    return value


def _str(value: Any, where: str, max_length: int = MAX_NAME_LENGTH) -> str:
    if not isinstance(value, str) or not _NOT_BLANK.search(value):
        raise IllegalSituation(where, "must be a non-empty string")
    if len(value) > max_length:
        raise IllegalSituation(where, f"must be at most {max_length} characters")
    return value.strip()


def _list(value: Any, where: str, max_items: int) -> list[Any]:
    if not isinstance(value, list):
        raise IllegalSituation(where, "must be a list")
    if len(value) > max_items:
        raise IllegalSituation(where, f"has {len(value)} items; at most {max_items} are allowed")
    return value


def parse_hex(value: Any, where: str, board: Board) -> Hex:
    """A ``{"row", "col"}`` object that must lie on ``board``."""
    if not isinstance(value, Mapping):
        raise IllegalSituation(where, 'must be an object like {"row": 4, "col": 10}')
    for key in ("row", "col"):
        if key not in value:
            raise IllegalSituation(f"{where}.{key}", "is required")
    h = Hex(_int(value["row"], f"{where}.row", -10_000, 10_000), _int(value["col"], f"{where}.col", -10_000, 10_000))
    if not board.contains(h):
        parity = "" if (h.row + h.col) % 2 == 0 else " (row + col must be even)"
        raise IllegalSituation(where, f"({h.row}, {h.col}) is not on the {board.kind} board{parity}")
    return h


def situation_rule_ids(rulebook: Rulebook) -> dict[str, str]:
    """Situation ``rules`` ids the content defines -> entry id."""
    return dict(rulebook.situation_ids())


def resolve_profile(rulebook: Rulebook, unit_type: str, badges: tuple[str, ...], nation: str | None) -> str:
    """The unit entry whose numbers apply: a nation or a badge can turn a base unit into a
    special one (infantry of the French Resistance; armor + tank destroyer badge ->
    tank_destroyer).

    The nation is tried first: French Resistance units carry the Special Forces badge on the
    board but follow their own rules (Game help summary, Special Forces)."""
    if nation:
        for entry_id in rulebook.ids_of_kind("unit"):
            if rulebook.unit(entry_id).nation == nation and rulebook.bases.get(entry_id) == unit_type:
                return entry_id
    for badge in badges:
        rules = rulebook.badge(badge)
        target = rules.turns_into if rules is not None else None
        if target and (rulebook.bases.get(target) in (unit_type, None) or target == unit_type):
            return target
    return unit_type


def may_be_placed_on(rulebook: Rulebook, profile: str, feature: str, badges: tuple[str, ...] = ()) -> bool:
    """Whether a scenario may set a unit up on a hex it could never move into.

    Scenarios place artillery in bunkers and on mountains although those hexes are impassable
    to artillery: the content says so where it gives such units rules there (``no_retreat_from``:
    artillery in a bunker loses figures instead of retreating; ``dice_on_terrain``: artillery
    on a mountain fires farther). A marker's ``stands_on`` does the same for the unit carrying it
    (marker ``unit_in_boat``: infantry in a boat on a river)."""
    unit_rules = rulebook.unit(profile)
    hex_rules = rulebook.hex_rules(feature)
    return (
        unit_rules.unit_class not in hex_rules.impassable
        or unit_rules.unit_class in hex_rules.no_retreat_from
        or feature in unit_rules.dice_on_terrain
        or any((rules := rulebook.badge(b)) is not None and feature in rules.stands_on for b in badges)
    )


def parse_situation(doc: Any, rulebook: Rulebook) -> Situation:
    """Validate a situation document against the rulebook; raise IllegalSituation on any problem."""
    if not isinstance(doc, Mapping):
        raise IllegalSituation("(body)", "the situation must be a JSON object")
    board_name = doc.get("board", "standard")
    if not isinstance(board_name, str) or board_name not in BOARDS:
        raise IllegalSituation("board", f"must be one of {', '.join(BOARDS)}, got {board_name!r}")
    board = BOARDS[board_name]
    bottom_side = doc.get("bottom_side", "allies")
    if not isinstance(bottom_side, str) or bottom_side not in SIDES:
        raise IllegalSituation("bottom_side", f"must be 'allies' or 'axis', got {bottom_side!r}")

    known_rules = situation_rule_ids(rulebook)
    rules_in_effect: set[str] = set()
    for i, rule in enumerate(_list(doc.get("rules", []), "rules", MAX_RULES)):
        name = _str(rule, f"rules[{i}]")
        entry_id = rulebook.resolve(name, "special_rule", "action")
        name = next((sid for sid, e in known_rules.items() if e == entry_id), name)
        if name not in known_rules:
            raise IllegalSituation(f"rules[{i}]", f"unknown rule {name!r}; known: {', '.join(sorted(known_rules))}")
        rules_in_effect.add(name)

    hexes: dict[Hex, HexState] = {}
    for i, item in enumerate(_list(doc.get("hexes", []), "hexes", MAX_HEXES)):
        where = f"hexes[{i}]"
        h = parse_hex(item, where, board)
        if h in hexes:
            raise IllegalSituation(where, f"hex ({h.row}, {h.col}) is listed twice")
        hexes[h] = _parse_hex_state(item, where, rulebook)

    if "units" not in doc:
        raise IllegalSituation("units", "is required")
    units: list[Unit] = []
    seen_ids: set[str] = set()
    occupied: dict[Hex, str] = {}
    for i, item in enumerate(_list(doc["units"], "units", MAX_UNITS)):
        unit = _parse_unit(item, f"units[{i}]", board, rulebook)
        if unit.id in seen_ids:
            raise IllegalSituation(f"units[{i}].id", f"duplicate unit id {unit.id!r}")
        if unit.hex in occupied:
            raise IllegalSituation(
                f"units[{i}]", f"hex ({unit.hex.row}, {unit.hex.col}) already holds unit {occupied[unit.hex]!r}"
            )
        state = hexes.get(unit.hex, COUNTRYSIDE)
        for feature in state.features():
            if not may_be_placed_on(rulebook, unit.profile, feature, unit.badges) and not _bridged(state, rulebook):
                carriers = [m for m in rulebook.rules if (rules := rulebook.badge(m)) is not None
                            and feature in rules.stands_on and _goes_on(rulebook, rules, unit.type)]
                hint = "".join(f" unless it has the badge {m!r} ({rulebook.names[m]})" for m in carriers[:1])
                raise IllegalSituation(
                    f"units[{i}]", f"{rulebook.names[unit.profile]} cannot stand on {rulebook.names[feature]}{hint}"
                )
        seen_ids.add(unit.id)
        occupied[unit.hex] = unit.id
        units.append(unit)
    face = parse_face(doc.get("face"), rulebook)
    scenario = parse_scenario(doc.get("scenario"), board, rulebook)
    casualties = parse_casualties(doc.get("casualties"), rulebook)
    exited = parse_exited(doc.get("exited"), board, rulebook, scenario)
    return Situation(board, bottom_side, frozenset(rules_in_effect), hexes, tuple(units), face,
                     scenario, casualties, exited)


BOARD_ENTRY = "board_faces"
"""The core entry that lists the board's printed faces (``board_faces``)."""


def board_faces(rulebook: Rulebook) -> dict[str, BoardFace]:
    """Face id -> face, from the core ``board_faces`` entry (empty when the content has none)."""
    rules = rulebook.core(BOARD_ENTRY)
    return dict(rules.board_faces) if rules is not None else {}


def parse_face(value: Any, rulebook: Rulebook) -> str | None:
    """A situation's optional ``face``: a face id of core ``board_faces``, its name or the scenario
    editor's spelling (``WINTER``), any case. Absent or null means the default face."""
    if value is None:
        return None
    faces = board_faces(rulebook)
    known = ", ".join(faces) or "none (the content lists no board faces)"
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_LENGTH:
        raise IllegalSituation("face", f"must be one of {known}, got {value!r}"[:200])
    wanted = value.strip().lower()
    for face_id, face in faces.items():
        if wanted in (face_id, face.name.lower(), face.editor_face.lower()):
            return face_id
    raise IllegalSituation("face", f"unknown board face {value.strip()!r}; known: {known}")


def _goes_on(rulebook: Rulebook, rules: BadgeRules, unit_type: str) -> bool:
    """Whether a badge or marker may be on a unit of ``unit_type``: its ``applies_to`` is empty or
    names the type or the entry the type is based on (special forces are infantry)."""
    return not rules.applies_to or bool({unit_type, rulebook.bases.get(unit_type)} & set(rules.applies_to))


def _bridged(state: HexState, rulebook: Rulebook) -> bool:
    return any(rulebook.hex_rules(f).is_bridge for f in state.features())


def _parse_hex_state(item: Mapping[str, Any], where: str, rulebook: Rulebook) -> HexState:
    """Terrain, obstacles and owner of one hex. An obstacle given as ``terrain`` (the game help
    summary lists bunkers and wire among the terrain types) is taken as the hex's obstacle, and
    ``obstacles`` may stack several (a ford over a river, wire on a bridge)."""
    terrain = owner = None
    obstacles: list[str] = []
    if item.get("terrain") is not None:
        name = _str(item["terrain"], f"{where}.terrain")
        terrain = rulebook.resolve(name, "terrain")
        if terrain is None:
            as_obstacle = rulebook.resolve(name, "obstacle", "marker")
            if as_obstacle is None or rulebook.feature(as_obstacle) is None:
                raise IllegalSituation(f"{where}.terrain", f"unknown terrain {name!r}")
            obstacles.append(_obstacle(name, f"{where}.terrain", rulebook))
    if item.get("obstacle") is not None:
        obstacles.append(_obstacle(_str(item["obstacle"], f"{where}.obstacle"), f"{where}.obstacle", rulebook))
    if item.get("obstacles") is not None:
        for j, name in enumerate(_list(item["obstacles"], f"{where}.obstacles", MAX_OBSTACLES)):
            obstacles.append(_obstacle(_str(name, f"{where}.obstacles[{j}]"), f"{where}.obstacles[{j}]", rulebook))
    for j, obstacle in enumerate(obstacles):
        if obstacle in obstacles[:j]:
            raise IllegalSituation(f"{where}.obstacles", f"{rulebook.names[obstacle]} is listed twice")
    if len(obstacles) > MAX_OBSTACLES:
        raise IllegalSituation(f"{where}.obstacles", f"has {len(obstacles)} obstacles; at most {MAX_OBSTACLES}")
    if item.get("owner") is not None:
        owner = item["owner"]
        if not isinstance(owner, str) or owner not in SIDES:
            raise IllegalSituation(f"{where}.owner", f"must be 'allies' or 'axis', got {owner!r}")
    impassable = item.get("impassable", False)
    if impassable is None:
        impassable = False
    if not isinstance(impassable, bool):
        raise IllegalSituation(f"{where}.impassable", f"must be true or false, got {type(impassable).__name__}")
    return HexState(terrain, obstacles[0] if obstacles else None, owner, impassable=impassable,
                    more_obstacles=tuple(obstacles[1:]))


def _obstacle(name: str, where: str, rulebook: Rulebook) -> str:
    obstacle = rulebook.resolve(name, "obstacle", "marker")
    if obstacle is None or rulebook.feature(obstacle) is None:
        terrain = rulebook.resolve(name, "terrain")
        if terrain is not None:  # say where a known name goes rather than "unknown"
            raise IllegalSituation(where, f"{rulebook.names[terrain]} is a terrain, not an obstacle: give it as "
                                          f"{where.rsplit('.', 1)[0]}.terrain")
        raise IllegalSituation(where, f"unknown obstacle {name!r}")
    marker = rulebook.marker(obstacle)
    if marker is not None and marker.placed_on != "hex":
        raise IllegalSituation(where, f"{rulebook.names[obstacle]} is placed on units, not hexes")
    return obstacle


def parse_nation(value: Any, where: str, rulebook: Rulebook) -> str:
    """A nation code from a code (``soviet``), a nation entry's name or alias (``russian``,
    ``red army``, ``japan``, ``us_marine_corps``) or a country name (``usa``, ``germany``)."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_LENGTH:
        raise IllegalSituation(where, f"must be one of {', '.join(NATIONS)}, got {value!r}")
    key = value.strip().lower()
    if key in NATIONS:
        return key
    entry_id = rulebook.resolve(key, "nation")
    nation = rulebook.nation(entry_id) if entry_id else None
    codes = nation.nation_codes if nation is not None else ()
    # a nation entry that switches no rules on by nation (US Marines: not every US unit is one)
    # names the army its troops belong to in ``country``
    code = codes[0] if len(codes) == 1 else nation.country if nation is not None else None
    code = code or COUNTRY_NAMES.get(key.replace("_", " "))
    if code not in NATIONS:
        raise IllegalSituation(where, f"must be one of {', '.join(NATIONS)}, got {value!r}")
    return code


UNIT_FIELDS = ("id", "side", "type", "row", "col", "figures", "start_figures", "nation", "badges", "moved",
               "moved_from", "path", "ordered", "battled")
"""Every field of a unit the API defines; a stored copy keeps these and drops anything else."""
HEX_FIELDS = ("row", "col", "terrain", "obstacle", "obstacles", "impassable", "owner")
"""Every field of a hex the API defines (add a new one here, or saves will drop it)."""


def _parse_unit(item: Any, where: str, board: Board, rulebook: Rulebook) -> Unit:
    if not isinstance(item, Mapping):
        raise IllegalSituation(where, "must be an object")
    for key in ("id", "side", "type", "row", "col", "figures"):
        if key not in item:
            raise IllegalSituation(f"{where}.{key}", "is required")
    unit_id = _str(item["id"], f"{where}.id", MAX_ID_LENGTH)
    side = item["side"]
    if not isinstance(side, str) or side not in SIDES:
        raise IllegalSituation(f"{where}.side", f"must be 'allies' or 'axis', got {side!r}")
    type_name = _str(item["type"], f"{where}.type")
    unit_type = rulebook.resolve(type_name, "unit")
    if unit_type is None:
        raise IllegalSituation(f"{where}.type", f"unknown unit type {type_name!r}")
    h = parse_hex(item, where, board)
    nation = item.get("nation")
    if nation is not None:
        nation = parse_nation(nation, f"{where}.nation", rulebook)
    badges = _parse_badges(item.get("badges", []), f"{where}.badges", unit_type, rulebook)
    profile = resolve_profile(rulebook, unit_type, badges, nation)
    figures, start = _parse_figures(item, where, rulebook.unit(profile), nation)
    moved, moved_from, path = _parse_move(item, where, board, h)
    ordered = _optional_bool(item.get("ordered"), f"{where}.ordered")
    battled = bool(_optional_bool(item.get("battled"), f"{where}.battled"))
    return Unit(unit_id, side, unit_type, profile, h, figures, start, badges, nation, moved, moved_from,
                path=path, ordered=ordered, battled=battled)


def _optional_bool(value: Any, where: str) -> bool | None:
    """A unit's turn-state flag (``ordered``, ``battled``): true, false, or absent/null (not said)."""
    if value is None or isinstance(value, bool):
        return value
    raise IllegalSituation(where, f"must be true or false, got {type(value).__name__}")


def _parse_badges(value: Any, where: str, unit_type: str, rulebook: Rulebook) -> tuple[str, ...]:
    """A unit's ``badges``: badges and unit markers by id, name or alias, each once, each one that
    goes on this type of unit; a unit with no badge of its own stands for the badge of the unit it
    plays like (504th PIR)."""
    badges: list[str] = []
    for j, badge in enumerate(_list(value, where, MAX_BADGES)):
        name = _str(badge, f"{where}[{j}]")
        badge_id = rulebook.resolve(name, "badge", "marker")
        if badge_id is None and (unit_named := rulebook.resolve(name, "unit")) is not None:
            badge_id = (rulebook.badge_for_unit(unit_named)
                        or rulebook.badge_for_unit(rulebook.bases.get(unit_named, "")))
        if badge_id is None or rulebook.badge(badge_id) is None:
            raise IllegalSituation(f"{where}[{j}]", f"unknown badge {name!r}")
        marker = rulebook.marker(badge_id)
        if marker is not None and marker.placed_on != "unit":
            raise IllegalSituation(f"{where}[{j}]", f"{rulebook.names[badge_id]} is placed on hexes, not units")
        if badge_id in badges:
            raise IllegalSituation(f"{where}[{j}]", f"badge {badge_id!r} is listed twice")
        if marker is not None and not _goes_on(rulebook, marker, unit_type):
            raise IllegalSituation(f"{where}[{j}]", f"{rulebook.names[badge_id]} is only for "
                                                    f"{', '.join(rulebook.names[u] for u in marker.applies_to)}")
        badges.append(badge_id)
    return tuple(badges)


def _parse_figures(item: Mapping[str, Any], where: str, rules: UnitRules, nation: str | None) -> tuple[int, int]:
    """(figures, figures at the start): the start is the unit entry's (by nation), or given."""
    start = rules.figures_by_nation.get(nation or "", rules.figures)
    figures = _int(item["figures"], f"{where}.figures", 1, MAX_FIGURES)
    if item.get("start_figures") is not None:
        start = _int(item["start_figures"], f"{where}.start_figures", 1, MAX_FIGURES)
    elif rules.figures_range and rules.figures_range[0] <= figures <= rules.figures_range[1]:
        start = figures  # 1-3 figures per scenario (supply trucks, half-tracks): what is given is the start
    if figures > start:
        raise IllegalSituation(f"{where}.figures", f"{figures} figures is more than the unit's {start} at the start")
    return figures, start


def _parse_move(item: Mapping[str, Any], where: str, board: Board,
                here: Hex) -> tuple[int, Hex | None, tuple[Hex, ...]]:
    """(moved, moved_from, path) of this turn's move; a ``path`` says how it moved, so ``moved``
    and ``moved_from`` follow from it (both ignored if given)."""
    moved = _int(item.get("moved", 0), f"{where}.moved", 0, MAX_MOVED)
    moved_from = None
    path = _parse_path(item.get("path"), f"{where}.path", board, here)
    if item.get("moved_from") is not None:  # checked even when a path supersedes it: bad input is a 400
        given_from = parse_hex(item["moved_from"], f"{where}.moved_from", board)
        moved_from = None if path else given_from
        if moved_from is not None and distance(moved_from, here) > moved:
            raise IllegalSituation(f"{where}.moved_from", f"is {distance(moved_from, here)} hexes from the unit, "
                                                          f"but it moved {moved} this turn")
    if path:
        moved, moved_from = len(path) - 1, (path[0] if len(path) > 1 else None)
    return moved, moved_from, path




def _parse_path(value: Any, where: str, board: Board, here: Hex) -> tuple[Hex, ...]:
    """A unit's ``path`` (adjudicator/API.md): start hex first, each step adjacent to the last, no hex
    twice, ending on the unit's hex. Whether the unit could legally have moved so is the movement
    engine's question (``engine.movement.check_path``), asked by the endpoints that use the path."""
    if value is None:
        return ()
    items = _list(value, where, MAX_MOVED + 1)
    if not items:
        raise IllegalSituation(where, "must list at least the unit's own hex")
    path = tuple(parse_hex(v, f"{where}[{i}]", board) for i, v in enumerate(items))
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        if distance(a, b) != 1:
            raise IllegalSituation(where, f"step {i + 1} goes from ({a.row}, {a.col}) to ({b.row}, {b.col}), "
                                          "which are not adjacent")
    if len(set(path)) != len(path):
        raise IllegalSituation(where, "passes through the same hex twice")
    if path[-1] != here:
        raise IllegalSituation(where, f"must end on the unit's hex ({here.row}, {here.col})")
    return path


# -- the scenario -------------------------------------------------------------------------------

SCENARIO_FIELDS = ("medals_to_win", "first_player", "cards", "objectives", "exits", "options")
OBJECTIVE_FIELDS = ("row", "col", "kind", "side", "medals", "group", "hexes_needed", "held_by")
EXIT_FIELDS = ("row", "col", "side", "medals")
CASUALTY_FIELDS = ("side", "type", "figures", "badges", "nation", "eliminated")
EXITED_FIELDS = ("side", "type", "at", "badges", "nation")
OPTION_KINDS = ("nation", "action", "special_rule", "core")
"""The kinds of entry a scenario option may name (``us_marine_corps``, ``capture_hq``)."""


def _or_empty(value: Any) -> Any:
    """An optional list: absent or null is empty; anything else is checked as given (``{}`` is no list)."""
    return [] if value is None else value


def _side(value: Any, where: str, nullable: bool = False) -> str | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str) or value not in SIDES:
        allowed = "'allies', 'axis' or null" if nullable else "'allies' or 'axis'"
        raise IllegalSituation(where, f"must be {allowed}, got {str(value)[:40]!r}")
    return value


def _object(value: Any, where: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
    """A JSON object with only the keys ``fields`` names (a misspelt key is a 400, not ignored)."""
    if not isinstance(value, Mapping):
        raise IllegalSituation(where, "must be an object")
    for key in value:
        if key not in fields:
            raise IllegalSituation(f"{where}.{str(key)[:40]}", f"unknown field; allowed: {', '.join(fields)}")
    return value


def parse_per_side(value: Any, where: str, low: int, high: int) -> dict[str, int]:
    """``{"allies": n, "axis": n}`` (either side may be left out)."""
    if value is None:
        return {}
    found = _object(value, where, SIDES)
    return {side: _int(found[side], f"{where}.{side}", low, high) for side in SIDES if found.get(side) is not None}


def parse_scenario(value: Any, board: Board, rulebook: Rulebook) -> Scenario | None:
    """A situation's ``scenario`` (adjudicator/API.md): medals to win, first player, cards in hand,
    medal objectives by victory entry, exit hexes and the options the scenario switches on. Every
    problem is an ``IllegalSituation`` naming the field (``scenario.objectives[2].kind``)."""
    if value is None:
        return None
    doc = _object(value, "scenario", SCENARIO_FIELDS)
    objectives = tuple(_parse_objective(item, f"scenario.objectives[{i}]", board, rulebook)
                       for i, item in enumerate(_list(_or_empty(doc.get("objectives")), "scenario.objectives",
                                                      MAX_OBJECTIVES)))
    _check_groups(objectives, rulebook)
    exits: list[ExitHex] = []
    for i, item in enumerate(_list(_or_empty(doc.get("exits")), "scenario.exits", MAX_EXITS)):
        exit_hex = _parse_exit(item, f"scenario.exits[{i}]", board, rulebook)
        if any((e.hex, e.side) == (exit_hex.hex, exit_hex.side) for e in exits):
            raise IllegalSituation(f"scenario.exits[{i}]", f"{board.label(exit_hex.hex)} is listed twice for the "
                                                           f"{exit_hex.side}")
        exits.append(exit_hex)
    return Scenario(
        medals_to_win=parse_per_side(doc.get("medals_to_win"), "scenario.medals_to_win", 1, MAX_MEDALS),
        first_player=_side(doc.get("first_player"), "scenario.first_player", nullable=True),
        cards=parse_per_side(doc.get("cards"), "scenario.cards", 1, MAX_CARDS),
        objectives=objectives,
        exits=tuple(exits),
        options=_parse_options(doc.get("options"), rulebook),
    )


def victory_rules(rulebook: Rulebook, kind: str) -> VictoryRules:
    return rulebook.victory(kind)


def _parse_objective(item: Any, where: str, board: Board, rulebook: Rulebook) -> Objective:
    doc = _object(item, where, OBJECTIVE_FIELDS)
    h = parse_hex(doc, where, board)
    if doc.get("kind") is None:
        raise IllegalSituation(f"{where}.kind", "is required: a victory entry id such as temporary_medal")
    name = _str(doc["kind"], f"{where}.kind")
    kind = rulebook.resolve(name, "victory")
    if kind is None:
        known = ", ".join(sorted(rulebook.ids_of_kind("victory")))
        raise IllegalSituation(f"{where}.kind", f"unknown medal objective {name!r}; known: {known}")
    side = _side(doc.get("side"), f"{where}.side", nullable=True)
    held_by = _side(doc.get("held_by"), f"{where}.held_by", nullable=True)
    if side is not None and held_by is not None and held_by != side and not victory_rules(rulebook, kind).either_side:
        raise IllegalSituation(f"{where}.held_by", f"only the {side} may gain this objective")
    group = None if doc.get("group") is None else _str(doc["group"], f"{where}.group", MAX_GROUP_NAME)
    needed = doc.get("hexes_needed")
    return Objective(
        h, kind, side,
        medals=1 if doc.get("medals") is None else _int(doc["medals"], f"{where}.medals", 1, MAX_MEDALS),
        group=group,
        hexes_needed=None if needed is None else _int(needed, f"{where}.hexes_needed", 1, MAX_OBJECTIVES),
        held_by=held_by,
    )


def objective_group(objective: Objective, index: int, rulebook: Rulebook) -> tuple[str, ...]:
    """The key of the group an objective counts in: its ``group`` name; for an entry whose
    condition speaks of a group (``group``: majority, sole control) and no name, one group per
    entry and side; otherwise the hex stands alone."""
    if objective.group is not None:
        return ("named", objective.group)
    if victory_rules(rulebook, objective.kind).group:
        return ("entry", objective.kind, objective.side or "")
    return ("alone", str(index))


def _check_groups(objectives: tuple[Objective, ...], rulebook: Rulebook) -> None:
    """The hexes of one group agree on what the group is (entry, side, worth, hexes needed, holder),
    hold no hex twice, and need no more hexes than they have."""
    first: dict[tuple[str, ...], int] = {}
    sizes: dict[tuple[str, ...], int] = {}
    seen: set[tuple[tuple[str, ...], Hex]] = set()
    for i, objective in enumerate(objectives):
        key = objective_group(objective, i, rulebook)
        where = f"scenario.objectives[{i}]"
        if (key, objective.hex) in seen or (key[0] == "alone" and any(
                o.hex == objective.hex and (o.kind, o.side) == (objective.kind, objective.side)
                for o in objectives[:i])):
            raise IllegalSituation(where, f"({objective.hex.row}, {objective.hex.col}) is listed twice for this "
                                          "objective")
        seen.add((key, objective.hex))
        sizes[key] = sizes.get(key, 0) + 1
        if key not in first:
            first[key] = i
            continue
        lead = objectives[first[key]]
        for name in ("kind", "side", "medals", "hexes_needed", "held_by"):
            if getattr(objective, name) != getattr(lead, name):
                raise IllegalSituation(f"{where}.{name}", f"differs from scenario.objectives[{first[key]}], "
                                                          "another hex of the same group")
    for key, i in first.items():
        needed = objectives[i].hexes_needed
        if needed is not None and needed > sizes[key]:
            raise IllegalSituation(f"scenario.objectives[{i}].hexes_needed",
                                   f"is {needed}, but its group has {sizes[key]} hex(es)")


def exit_worth_keys(rulebook: Rulebook) -> list[str]:
    """What an exit's per-unit ``medals`` may be keyed by: a unit class or a unit entry id."""
    return [*UNIT_CLASSES, *(u for u in rulebook.ids_of_kind("unit") if u not in UNIT_CLASSES)]


def _parse_exit(item: Any, where: str, board: Board, rulebook: Rulebook) -> ExitHex:
    doc = _object(item, where, EXIT_FIELDS)
    h = parse_hex(doc, where, board)
    side = _side(doc.get("side"), f"{where}.side")
    assert side is not None
    worth = doc.get("medals")
    if worth is None or not isinstance(worth, Mapping):
        return ExitHex(h, side, None if worth is None else _int(worth, f"{where}.medals", 0, MAX_MEDALS))
    by_unit: dict[str, int] = {}
    if len(worth) > len(UNIT_CLASSES) + len(rulebook.ids_of_kind("unit")):
        raise IllegalSituation(f"{where}.medals", "names more unit classes than there are")
    for key, count in worth.items():
        name = str(key)[:60]
        unit = name if name in UNIT_CLASSES else rulebook.resolve(name, "unit")
        if unit is None:
            raise IllegalSituation(f"{where}.medals.{name[:40]}", "is neither a unit class (infantry, armor, "
                                                                  "artillery) nor a unit type")
        by_unit[unit] = _int(count, f"{where}.medals.{name[:40]}", 0, MAX_MEDALS)
    return ExitHex(h, side, None, by_unit)


def _parse_options(value: Any, rulebook: Rulebook) -> tuple[str, ...]:
    """``scenario.options``: ids of the rules a scenario switches on that are not battle rules (those
    go in ``rules``): a nation's rules for the scenario's troops (``us_marine_corps``), an action."""
    situation_rules = situation_rule_ids(rulebook)
    options: list[str] = []
    for i, item in enumerate(_list(_or_empty(value), "scenario.options", MAX_OPTIONS)):
        where = f"scenario.options[{i}]"
        name = _str(item, where)
        entry_id = rulebook.resolve(name, *OPTION_KINDS)
        if entry_id is None:
            raise IllegalSituation(where, f"unknown option {name!r}: give the id of a nation, action or special "
                                          "rule the scenario switches on")
        if entry_id in situation_rules.values():
            rule_id = next(sid for sid, e in situation_rules.items() if e == entry_id)
            raise IllegalSituation(where, f"{rulebook.names[entry_id]} is a rule of battle: give {rule_id!r} in "
                                          "`rules`")
        if entry_id in options:
            raise IllegalSituation(where, f"{entry_id!r} is listed twice")
        options.append(entry_id)
    return tuple(options)


def _unit_of(doc: Mapping[str, Any], where: str, rulebook: Rulebook) -> tuple[str, str, str, tuple[str, ...],
                                                                                str | None]:
    """(side, type, profile, badges, nation) of a unit described off the board."""
    side = _side(doc.get("side"), f"{where}.side")
    assert side is not None
    if doc.get("type") is None:
        raise IllegalSituation(f"{where}.type", "is required")
    type_name = _str(doc["type"], f"{where}.type")
    unit_type = rulebook.resolve(type_name, "unit")
    if unit_type is None:
        raise IllegalSituation(f"{where}.type", f"unknown unit type {type_name!r}")
    nation = None if doc.get("nation") is None else parse_nation(doc["nation"], f"{where}.nation", rulebook)
    badges = _parse_badges(_or_empty(doc.get("badges")), f"{where}.badges", unit_type, rulebook)
    return side, unit_type, resolve_profile(rulebook, unit_type, badges, nation), badges, nation


def parse_casualties(value: Any, rulebook: Rulebook) -> tuple[Casualty, ...]:
    """``casualties``: each unit's losses so far, ``side`` the side that lost them. ``figures``
    defaults to the unit's whole starting strength and ``eliminated`` to true; a unit that lost
    figures without being eliminated must say how many."""
    found: list[Casualty] = []
    for i, item in enumerate(_list(_or_empty(value), "casualties", MAX_CASUALTIES)):
        where = f"casualties[{i}]"
        doc = _object(item, where, CASUALTY_FIELDS)
        side, unit_type, profile, badges, nation = _unit_of(doc, where, rulebook)
        eliminated = True if doc.get("eliminated") is None else doc["eliminated"]
        if not isinstance(eliminated, bool):
            raise IllegalSituation(f"{where}.eliminated", f"must be true or false, got {type(eliminated).__name__}")
        if doc.get("figures") is None:
            if not eliminated:
                raise IllegalSituation(f"{where}.figures", "is required for a unit that was not eliminated")
            rules = rulebook.unit(profile)
            figures = rules.figures_by_nation.get(nation or "", rules.figures)
        else:
            figures = _int(doc["figures"], f"{where}.figures", 1, MAX_FIGURES)
        found.append(Casualty(side, unit_type, profile, figures, eliminated, badges, nation))
    return tuple(found)


def parse_exited(value: Any, board: Board, rulebook: Rulebook, scenario: Scenario | None) -> tuple[ExitedUnit, ...]:
    """``exited``: units that left the board by an exit hex of their side (``scenario.exits``)."""
    found: list[ExitedUnit] = []
    exits = {(e.hex, e.side) for e in scenario.exits} if scenario else set()
    for i, item in enumerate(_list(_or_empty(value), "exited", MAX_EXITED)):
        where = f"exited[{i}]"
        doc = _object(item, where, EXITED_FIELDS)
        side, unit_type, profile, _badges, _nation = _unit_of(doc, where, rulebook)
        if doc.get("at") is None:
            raise IllegalSituation(f"{where}.at", 'is required: the exit hex it left by, like {"row": 0, "col": 4}')
        at = parse_hex(doc["at"], f"{where}.at", board)
        if (at, side) not in exits:
            raise IllegalSituation(f"{where}.at", f"{board.label(at)} is not an exit hex of the {side} "
                                                  "(scenario.exits)")
        found.append(ExitedUnit(side, unit_type, profile, at))
    return tuple(found)
