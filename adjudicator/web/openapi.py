"""The OpenAPI 3 document of the JSON API (adjudicator/API.md), served at
``GET /api/v1/openapi.json``.

Request schemas are as strict as the server: required fields, types, enums of the content ids
the rulebook knows, and the same numeric and length limits the parsers enforce (imported from
them, not retyped), so a generated request that the schema allows is one the server accepts
unless it breaks a rule no schema can state (two units on one hex, a hex off the board). Names
and aliases are also accepted where an id is; the enums list the canonical ids."""

from __future__ import annotations

from typing import Any

from adjudicator.content.documents import EXPANSIONS, KIND_LABELS
from adjudicator.engine.api import MAX_CARD_LENGTH, MAX_FLAGS, MAX_GROUP
from adjudicator.engine.card_attack import MAX_TARGETS_GIVEN
from adjudicator.engine.fire_map import MAX_PAIRS
from adjudicator.engine.geometry import BOARDS, SECTIONS
from adjudicator.engine.hits import die_faces
from adjudicator.engine.orders import card_rules
from adjudicator.engine.resolve import MAX_ROLLED, VACATED
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.score import WHEN
from adjudicator.engine.situation import (
    MAX_BADGES,
    MAX_CARDS,
    MAX_CASUALTIES,
    MAX_EXITED,
    MAX_EXITS,
    MAX_FIGURES,
    MAX_GROUP_NAME,
    MAX_HEXES,
    MAX_ID_LENGTH,
    MAX_MEDALS,
    MAX_MOVED,
    MAX_NAME_LENGTH,
    MAX_OBJECTIVES,
    MAX_OBSTACLES,
    MAX_OPTIONS,
    MAX_RULES,
    MAX_UNITS,
    NATIONS,
    NOT_BLANK,
    OPTION_KINDS,
    SIDES,
    board_faces,
    exit_worth_keys,
    situation_rule_ids,
)
from adjudicator.m44 import BOARD_TYPES, MAX_HEXAGONS, SIDE_NAMES, WHOLE_NUMBER
from adjudicator.web.saved_document import MAX_SAVED_FLAGS, MAX_TITLE
from adjudicator.web.search_views import API_LIMIT_MAX
from adjudicator.web.situations import SAVED_ID

MAX_ROW = max(b.rows for b in BOARDS.values()) - 1
MAX_COL = max(b.max_col for b in BOARDS.values())

Schema = dict[str, Any]
"""A JSON schema (or a part of one) as the document writes it."""
NULLABLE: Schema = {"nullable": True}
M44_NUMBER: Schema = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": f"^{WHOLE_NUMBER.pattern}$"}],
              "description": "a whole number, or a short string of its digits"}


def _ids(rulebook: Rulebook, *kinds: str) -> list[str]:
    return sorted(rulebook.ids_of_kind(*kinds))


def _enum(values: list[str], description: str, nullable: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "description": description}
    if values:
        schema["enum"] = [*values, None] if nullable else values
    else:
        schema["minLength"] = 1
    if nullable:
        schema.update(NULLABLE)
    return schema


def _hex_request() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["row", "col"],
        "properties": {
            "row": {"type": "integer", "minimum": 0, "maximum": MAX_ROW, "description": "0 at the top edge"},
            "col": {"type": "integer", "minimum": 0, "maximum": MAX_COL,
                    "description": "doubled column: row + col is even"},
        },
    }


def situation_schema(rulebook: Rulebook) -> dict[str, Any]:
    """The situation document every engine endpoint takes."""
    hex_features = [i for i in _ids(rulebook, "obstacle", "marker") if rulebook.hex_feature(i) is not None]
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": NOT_BLANK}
    return {
        "type": "object",
        "required": ["units"],
        "properties": {
            "board": {"type": "string", "enum": list(BOARDS), "default": "standard"},
            "face": _enum(list(board_faces(rulebook)), "the board's printed face (core `board_faces`; its name "
                          "or editor spelling too): drawn by the builder, no ruling reads it; absent: the "
                          "countryside", nullable=True),
            "bottom_side": {"type": "string", "enum": list(SIDES), "default": "allies"},
            "rules": {"type": "array", "maxItems": MAX_RULES,
                      "items": {**name, "enum": sorted(situation_rule_ids(rulebook))} if situation_rule_ids(rulebook)
                      else name},
            "hexes": {
                "type": "array", "maxItems": MAX_HEXES,
                "items": {
                    "type": "object", "required": ["row", "col"],
                    "properties": {
                        **_hex_request()["properties"],
                        "terrain": _enum(_ids(rulebook, "terrain") + hex_features,
                                         "terrain id (or name, alias); an obstacle given here is the hex's obstacle",
                                         nullable=True),
                        "obstacle": _enum(hex_features, "obstacle or hex marker id", nullable=True),
                        "obstacles": {"type": "array", "maxItems": MAX_OBSTACLES, "uniqueItems": True, **NULLABLE,
                                      "items": _enum(hex_features, "obstacle or hex marker id"),
                                      "description": "several obstacles stacked on the hex (wire on a bridge)"},
                        "owner": {"type": "string", "enum": [*SIDES, None], **NULLABLE,
                                  "description": "original owner of a bunker or sea wall"},
                        "impassable": {"type": "boolean", **NULLABLE,
                                       "description": "the scenario declares the hex impassable"},
                    },
                },
            },
            "units": {
                "type": "array", "maxItems": MAX_UNITS,
                "items": {
                    "type": "object",
                    "required": ["id", "side", "type", "row", "col", "figures"],
                    "properties": {
                        "id": {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH, "pattern": NOT_BLANK},
                        "side": {"type": "string", "enum": list(SIDES)},
                        "type": _enum(_ids(rulebook, "unit"), "unit type id (or name, alias)"),
                        **_hex_request()["properties"],
                        "figures": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES},
                        "start_figures": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES, **NULLABLE},
                        "badges": {"type": "array", "maxItems": MAX_BADGES, "uniqueItems": True,
                                   "items": _enum(unit_badges(rulebook), "badge or unit marker id")},
                        "nation": {"type": "string", "enum": [*NATIONS, None], **NULLABLE},
                        "moved": {"type": "integer", "minimum": 0, "maximum": MAX_MOVED, "default": 0},
                        "moved_from": {**_hex_request(), **NULLABLE,
                                       "description": "the hex it started this turn's move on (optional)"},
                        "path": {"type": "array", "minItems": 1, "maxItems": MAX_MOVED + 1, "items": _hex_request(),
                                 **NULLABLE, "description": "hexes it moved through this turn, start first, ending "
                                                            "on its hex; `moved` is derived from it"},
                        "ordered": {"type": "boolean", **NULLABLE, "description": "ordered this turn (absent: not "
                                    "said); a unit not ordered may not move or battle"},
                        "battled": {"type": "boolean", **NULLABLE, "description": "battled this turn: a second "
                                    "battle needs a rule that gives one"},
                    },
                },
            },
        },
    }


def unit_badges(rulebook: Rulebook) -> list[str]:
    """What a unit's ``badges`` may hold: badges and unit markers, and the units a badge turns a unit into."""
    badge_ids = [i for i in _ids(rulebook, "badge", "marker") if rulebook.unit_badge(i) is not None]
    return badge_ids + sorted({u for u in _ids(rulebook, "unit") if rulebook.badge_for_unit(u)} - set(badge_ids))


def scenario_properties(rulebook: Rulebook) -> dict[str, Any]:
    """``scenario``, ``casualties`` and ``exited``: where the game stands (engine.situation), with the
    parser's own limits. Every endpoint's parser reads them, but only the requests that use them
    describe them (``/score``): each property of a request multiplies the cases the API's schema test
    generates (``tests/test_api_schemathesis.py``) for every endpoint that takes it."""
    badges = unit_badges(rulebook)
    side = {"type": "string", "enum": list(SIDES)}
    maybe_side = {"type": "string", "enum": [*SIDES, None], **NULLABLE}

    def per_side(low: int, high: int, description: str) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, **NULLABLE, "description": description,
                "properties": {s: {"type": "integer", "minimum": low, "maximum": high, **NULLABLE} for s in SIDES}}

    situation_rules = set(situation_rule_ids(rulebook).values())
    options = [i for i in _ids(rulebook, *OPTION_KINDS) if i not in situation_rules]
    off_board = {
        "side": side,
        "type": _enum(_ids(rulebook, "unit"), "unit type id (or name, alias)"),
        "badges": {"type": "array", "maxItems": MAX_BADGES, "uniqueItems": True, **NULLABLE,
                   "items": _enum(badges, "badge or unit marker id")},
        "nation": {"type": "string", "enum": [*NATIONS, None], **NULLABLE},
    }
    worth = {"type": "integer", "minimum": 0, "maximum": MAX_MEDALS}
    objective = {
        "type": "object", "additionalProperties": False, "required": ["row", "col", "kind"],
        "properties": {
            **_hex_request()["properties"],
            "kind": _enum(_ids(rulebook, "victory"), "victory entry id: how the medal is held"),
            "side": {**maybe_side, "description": "the side that may gain it; null: either"},
            "medals": {"type": "integer", "minimum": 1, "maximum": MAX_MEDALS, **NULLABLE, "default": 1},
            "group": {"type": "string", "minLength": 1, "maxLength": MAX_GROUP_NAME, "pattern": r"\S", **NULLABLE,
                      "description": "hexes sharing a group name count together"},
            "hexes_needed": {"type": "integer", "minimum": 1, "maximum": MAX_OBJECTIVES, **NULLABLE,
                             "description": "how many of the group's hexes must be held (default: the entry's)"},
            "held_by": {**maybe_side, "description": "the side that gained it earlier and keeps it now"},
        },
    }
    exit_hex = {
        "type": "object", "additionalProperties": False, "required": ["row", "col", "side"],
        "properties": {
            **_hex_request()["properties"], "side": {**side, "description": "the side whose units may exit here"},
            "medals": {"description": "what one exiting unit is worth: a number (null: the exit marker's), or one "
                                      "per unit class or unit type id (others: the exit marker's count)",
                       "anyOf": [{**worth, **NULLABLE}, {"type": "object", "additionalProperties": False,
                                         "properties": {k: worth for k in exit_worth_keys(rulebook)}}]},
        },
    }
    return {
        "scenario": {
            "type": "object", "additionalProperties": False, **NULLABLE,
            "description": "what the scenario sets: medals to win, objectives, exits, options",
            "properties": {
                "medals_to_win": per_side(1, MAX_MEDALS, "medals each side needs (absent: the usual count)"),
                "first_player": maybe_side,
                "cards": per_side(1, MAX_CARDS, "command cards in each side's hand"),
                "objectives": {"type": "array", "maxItems": MAX_OBJECTIVES, "items": objective, **NULLABLE},
                "exits": {"type": "array", "maxItems": MAX_EXITS, "items": exit_hex, **NULLABLE},
                "options": {"type": "array", "maxItems": MAX_OPTIONS, "uniqueItems": True, **NULLABLE,
                            "items": _enum(options, "a nation, action or special rule the scenario switches on "
                                                    "(battle rules go in `rules`)"),
                            "description": "e.g. us_marine_corps (the Allies are US Marines: Gung-Ho)"},
            },
        },
        "casualties": {
            "type": "array", "maxItems": MAX_CASUALTIES, **NULLABLE,
            "description": "units and figures lost so far; `side` is the side that lost them",
            "items": {"type": "object", "additionalProperties": False, "required": ["side", "type"],
                      "properties": {**off_board,
                                     "figures": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES, **NULLABLE,
                                                 "description": "figures lost (default: the whole unit)"},
                                     "eliminated": {"type": "boolean", **NULLABLE, "default": True}}},
        },
        "exited": {
            "type": "array", "maxItems": MAX_EXITED, **NULLABLE,
            "description": "units that left the board by an exit hex of their side",
            "items": {"type": "object", "additionalProperties": False, "required": ["side", "type", "at"],
                      "properties": {**off_board, "at": _hex_request()}},
        },
    }


def _with(base: dict[str, Any], required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {**base, "required": [*base["required"], *required],
            "properties": {**base["properties"], **properties}}


REASON_HEX: Schema = {"type": "object", "required": ["row", "col", "hex"],
              "properties": {"row": {"type": "integer"}, "col": {"type": "integer"},
                             "hex": {"type": "string", "description": "the board's label (D7), or \"off the board\""}}}
REASON_UNIT: Schema = {"type": "object", "required": ["unit", "side", "type", "row", "col", "hex", "name"],
               "properties": {"unit": {"type": "string", "description": "the unit's id"},
                              "side": {"type": "string", "enum": list(SIDES)},
                              "type": {"type": "string", "description": "the unit entry whose rules apply"},
                              **REASON_HEX["properties"],
                              "name": {"type": "string", "description": "as players name it: Axis Armor at D7"}}}
REASON_ENTRY: Schema = {"type": "object", "required": ["entry", "kind", "name"],
                "properties": {"entry": {"type": "string", "description": "content id (/rules/<kind>/<entry>)"},
                               "kind": {"type": "string"}, "name": {"type": "string"},
                               **REASON_HEX["properties"]},
                "description": "a content entry (a terrain, card, nation…), with the hex when it names the one there"}
REASON_PARAM: Schema = {"nullable": True,
                "description": "a number, a word, a unit (ReasonUnit), a hex (ReasonHex), a content entry "
                               "(ReasonEntry), or a list of these"}
"""Untyped on purpose (a schema without ``type`` takes any value; OpenAPI 3.0 has no list of
types): a ruling holds dozens of reasons, and checking each parameter against every shape it may
take would cost schemathesis that on every answer; the shapes are the components ``ReasonUnit``,
``ReasonHex`` and ``ReasonEntry``, and tests/test_wording.py checks every parameter object of the
gallery's answers against them."""
REASON: Schema = {
    "type": "object", "required": ["rule", "code", "params", "text"],
    "description": "one step of a ruling (adjudicator/API.md, Reasons): its text is the English template of "
                   "`code` filled with `params`",
    "properties": {"rule": {"type": "string", "description": "content id of the entry that states the rule"},
                   "code": {"type": "string", "pattern": r"^[a-z_]+\.[a-z_]+$",
                            "description": "the stable name of the sentence's shape"},
                   "params": {"type": "object", "additionalProperties": REASON_PARAM},
                   "text": {"type": "string"},
                   "fact": {"type": "string", "description": "the structured field of `rule` the step applies"},
                   "dice": {"type": "integer", "description": "the change in dice the step makes"}},
}
HEX: Schema = {"type": "object", "required": ["row", "col"],
       "properties": {"row": {"type": "integer"}, "col": {"type": "integer"}, "label": {"type": "string"},
                      "on_board": {"type": "boolean"}}}
ERROR: Schema = {
    "type": "object", "required": ["error"],
    "properties": {"error": {
        "type": "object", "required": ["code", "message", "field"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                       "field": {"type": "string", **NULLABLE}},
    }},
}
NUMBERS: Schema = {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}}
EXACTS: Schema = {"type": "array", "items": {"type": "string", "pattern": r"^\d+/\d+$"}}

BLOCKER: Schema = {
    "type": "object", "required": ["row", "col", "reason", "rule", "code", "params", "via"],
    "properties": {**HEX["properties"], "reason": {"type": "string"}, "rule": {"type": "string"},
                   "code": REASON["properties"]["code"], "params": REASON["properties"]["params"],
                   "via": {"type": "string", "enum": ["crossed", "edge"]}, "edge_with": HEX},
}
LOS_FIELDS: Schema = {
    "distance": {"type": "integer", "minimum": 0},
    "clear": {"type": "boolean"},
    "blocked_by": {"type": "array", "items": BLOCKER},
    "crossed": {"type": "array", "items": HEX},
    "edges": {"type": "array", "items": {"type": "array", "items": HEX, "minItems": 2, "maxItems": 2}},
    "corner_touches": {"type": "array", "items": HEX},
    "readings": {"type": "object", "additionalProperties": {"type": "string"}},
    "reasons": {"type": "array", "items": REASON},
}
LOS_RESPONSE: Schema = {
    "type": "object",
    "required": ["from", "to", *LOS_FIELDS],
    "properties": {"from": HEX, "to": HEX, **LOS_FIELDS},
}
PROBABILITIES: Schema = {
    "type": "object",
    "required": ["hits", "hits_exact", "expected_hits", "eliminate", "flags", "flags_exact"],
    "properties": {
        "dice": {"type": "integer", "minimum": 0},
        "hits": NUMBERS, "hits_exact": EXACTS, "flags": NUMBERS, "flags_exact": EXACTS,
        "expected_hits": {"type": "number", "minimum": 0},
        "expected_hits_exact": {"type": "string"},
        "eliminate": {"type": "number", "minimum": 0, "maximum": 1},
        "eliminate_exact": {"type": "string"},
        "eliminate_after_retreat": {"type": "number", "minimum": 0, "maximum": 1},
        "eliminate_after_retreat_exact": {"type": "string"},
    },
}
UNIT_REF: Schema = {"type": "object", "required": ["id", "side", "type", "profile", "row", "col"],
            "properties": {"id": {"type": "string"}, "side": {"type": "string"}, "type": {"type": "string"},
                           "profile": {"type": "string"}, "row": {"type": "integer"}, "col": {"type": "integer"},
                           "figures": {"type": "integer"}, "moved": {"type": "integer"}}}
RETREAT_OPTION: Schema = {
    "type": "object", "required": ["path", "end", "figures_lost"],
    "properties": {"path": {"type": "array", "items": HEX}, "end": HEX,
                   "figures_lost": {"type": "integer", "minimum": 0}},
}
BATTLE_RESPONSE: Schema = {
    "type": "object",
    "required": ["legal", "why_not", "distance", "close_assault", "line_of_sight", "dice", "breakdown",
                 "hit_symbols", "flags_ignored", "probabilities", "retreat", "take_ground", "overrun"],
    "properties": {
        "attacker": {**UNIT_REF, **NULLABLE, "description": "null when the card attacks by itself"},
        "target": UNIT_REF,
        "card": {"type": "string", **NULLABLE}, "combat_card": {"type": "string", **NULLABLE},
        "overrun_battle": {"type": "boolean"},
        "card_attack": {"type": "boolean", "description": "Air Power, Barrage: the card itself attacks"},
        "side": {"type": "string", "description": "card attacks: the side playing the card"},
        "targets": {"type": "array", "items": {"type": "string"}, "description": "card attacks: the group"},
        "legal": {"type": "boolean"},
        "why_not": {"type": "array", "items": REASON},
        "distance": {"type": "integer", "minimum": 0, **NULLABLE, "description": "null for a card attack"},
        "close_assault": {"type": "boolean"},
        "line_of_sight": {"type": "object", "required": ["needed", "clear", "blocked_by"],
                          "properties": {"needed": {"type": "boolean"}, **LOS_FIELDS}},
        "dice": {"type": "integer", "minimum": 0},
        "breakdown": {"type": "array", "items": REASON},
        "hit_symbols": {"type": "array", "items": {"type": "string"}},
        "hit_reasons": {"type": "array", "items": REASON},
        "notes": {"type": "array", "items": REASON},
        "flags_ignored": {"type": "integer", "minimum": 0},
        "probabilities": {**PROBABILITIES, **NULLABLE},
        "retreat": {"type": "object", "required": ["per_flag", "options"],
                    "properties": {"per_flag": {"type": "integer", **NULLABLE},
                                   "options": {"type": "array", "items": RETREAT_OPTION}}},
        "take_ground": {"type": "boolean"},
        "overrun": {"type": "boolean"},
        "follow_ups": {"type": "array", "items": {
            "type": "object", "required": ["kind", "unit", "targets", "dice", "rule", "code", "params", "text"],
            "properties": {"kind": {"type": "string", "enum": ["battle_back", "second_close_assault", "second_battle"]},
                           "unit": {"type": "string"}, "targets": {"type": "array", "items": {"type": "string"}},
                           "dice": {"type": "integer", **NULLABLE}, "ignores_terrain": {"type": "boolean"},
                           "rule": {"type": "string"}, "text": {"type": "string"},
                           "code": REASON["properties"]["code"], "params": REASON["properties"]["params"],
                           "fact": {"type": "string"}, "chance": {"type": "number"},
                           "probabilities": {"type": "array", "items": PROBABILITIES}},
        }, "description": "battles the ruling offers next (Stiff Upper Lip, Furia Francese, a card's second battle)"},
    },
}
RETREAT_RESPONSE: Schema = {
    "type": "object",
    "required": ["flags_ignored", "moves_required", "options", "min_figures_lost", "eliminated"],
    "properties": {
        "flags_ignored": {"type": "integer", "minimum": 0},
        "moves_required": {"type": "integer", "minimum": 0},
        "options": {"type": "array", "items": RETREAT_OPTION},
        "min_figures_lost": {"type": "integer", "minimum": 0},
        "eliminated": {"type": "boolean"},
    },
}
RESOLVE_RESPONSE: Schema = {
    "type": "object",
    "required": ["legal", "why_not", "dice", "rolled", "hits", "hits_by_face", "figures_lost", "flags",
                 "flags_ignored", "flags_to_retreat", "retreat", "eliminated", "take_ground", "overrun", "steps"],
    "properties": {
        "attacker": {**UNIT_REF, **NULLABLE, "description": "null when the card attacks by itself"},
        "target": UNIT_REF,
        "card_attack": {"type": "boolean", "description": "Air Power, Barrage: the card itself attacks"},
        "side": {"type": "string", "description": "card attacks: the side playing the card"},
        "targets": {"type": "array", "items": {"type": "string"}, "description": "card attacks: the whole group"},
        "legal": {"type": "boolean"},
        "why_not": {"type": "array", "items": REASON},
        "dice": {"type": "integer", "minimum": 0},
        "breakdown": {"type": "array", "items": REASON},
        "hit_symbols": {"type": "array", "items": {"type": "string"}},
        "rolled": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        "hits": {"type": "integer", "minimum": 0},
        "hits_by_face": {"type": "array", "items": {
            "type": "object", "required": ["face", "count", "hits", "rule", "code", "params", "text"],
            "properties": {"face": {"type": "string"}, "count": {"type": "integer", "minimum": 1},
                           "hits": {"type": "integer", "minimum": 0}, **REASON["properties"]}}},
        "figures": {"type": "integer", "minimum": 1},
        "figures_lost_to_hits": {"type": "integer", "minimum": 0},
        "figures_lost": {"type": "integer", "minimum": 0},
        "figures_left": {"type": "integer", "minimum": 0},
        "flags": {"type": "integer", "minimum": 0},
        "flags_ignored": {"type": "integer", "minimum": 0},
        "flags_must_ignore": {"type": "integer", "minimum": 0},
        "flags_to_retreat": {"type": "integer", "minimum": 0},
        "flag_allowance": {"type": "object", **NULLABLE},
        "retreat": {"type": "object", "required": ["moves_required", "options", "min_figures_lost"],
                    "properties": {"moves_required": {"type": "integer", "minimum": 0},
                                   "options": {"type": "array", "items": RETREAT_OPTION},
                                   "min_figures_lost": {"type": "integer", "minimum": 0}}},
        "eliminated": {"type": "boolean"},
        "vacated": {"type": "string", "enum": list(VACATED)},
        "take_ground": {"type": "boolean"},
        "overrun": {"type": "boolean"},
        "take_ground_if_vacated": {"type": "boolean"},
        "overrun_if_vacated": {"type": "boolean"},
        "advance": {"type": "object", **NULLABLE},
        "steps": {"type": "array", "items": REASON},
        "score": {"type": "object", "required": ["before", "outcomes"],
                  "description": "only when the situation has a `scenario`: the score before the battle, after "
                                 "the roll and, when the attacker may take the emptied hex, after taking ground",
                  "properties": {
                      "before": {"type": "object", "required": ["medals", "needed", "winner"]},
                      "outcomes": {"type": "array", "items": {
                          "type": "object", "required": ["after", "medals", "winner", "game_over", "changes"],
                          "properties": {"after": {"type": "string", "enum": ["roll", "take_ground"]},
                                         "medals": {"type": "object"},
                                         "winner": {"type": "string", **NULLABLE},
                                         "game_over": {"type": "boolean"},
                                         "changes": {"type": "array", "items": REASON}}}}}},
        "sequence": {"type": "array", "items": {"type": "object"}, "description": (
            "a card's group rolled unit by unit: each unit's resolution on the board the earlier ones left, with "
            "`applied` (what was put on the board before the next roll) and `moved_to`")},
        "battle_back": {"type": "object", **NULLABLE, "required": ["unit", "targets", "dice", "open", "rule", "code",
                                                                    "params", "text"],
                        "properties": {"unit": {"type": "string"}, "targets": {"type": "array",
                                                                               "items": {"type": "string"}},
                                       "dice": {"type": "integer", "minimum": 0},
                                       "ignores_terrain": {"type": "boolean"},
                                       "open": {"type": "boolean", **NULLABLE}, "rule": {"type": "string"},
                                       "text": {"type": "string"}, "code": REASON["properties"]["code"],
                                       "params": REASON["properties"]["params"], "fact": {"type": "string"}},
                        "description": "whether the roll as made lets the close-assaulted unit battle back "
                                       "(Stiff Upper Lip; open null: its retreat cannot be computed); null when no "
                                       "nation rule offers one"},
    },
}
FIRE_MAP_RESPONSE: Schema = {
    "type": "object",
    "required": ["battles", "pairs", "beyond_range", "truncated"],
    "properties": {
        "unit": {"type": "string", **NULLABLE},
        "battles": {"type": "array", "maxItems": MAX_PAIRS, "items": {
            "type": "object",
            "required": ["attacker", "target", "legal", "dice", "why_not", "distance", "line_of_sight"],
            "properties": {"attacker": {"type": "string"}, "target": {"type": "string"},
                           "legal": {"type": "boolean"}, "dice": {"type": "integer", "minimum": 0},
                           "why_not": {"type": "array", "items": REASON},
                           "distance": {"type": "integer", "minimum": 1},
                           "close_assault": {"type": "boolean"}, "line_of_sight": {"type": "boolean"},
                           "line_of_sight_needed": {"type": "boolean"},
                           "hit_symbols": {"type": "array", "items": {"type": "string"}}}}},
        "pairs": {"type": "integer", "minimum": 0},
        "beyond_range": {"type": "integer", "minimum": 0},
        "truncated": {"type": "boolean"},
        "max_pairs": {"type": "integer", "minimum": 1},
        "in_sight": {"type": "array", "items": HEX, "description": (
            "only with `unit`: every hex it has a clear line of sight to, in board order, its own hex left out")},
    },
}
MOVE_OPTION: Schema = {
    "type": "object", "required": ["row", "col", "path", "hexes_moved", "may_battle", "battle_dice_change", "why"],
    "properties": {**HEX["properties"], "path": {"type": "array", "items": HEX, "minItems": 2},
                   "hexes_moved": {"type": "integer", "minimum": 1}, "may_battle": {"type": "boolean"},
                   "battle_dice_change": {"type": "integer", "maximum": 0},
                   "why": {"type": "array", "items": REASON}, "instead": {"type": "array", "items": REASON},
                   "hazards": {"type": "array", "items": REASON}},
}
MOVE_RESPONSE: Schema = {
    "type": "object", "required": ["unit", "allowance", "reachable", "unreachable", "why_not"],
    "properties": {
        "unit": {"type": "string"}, "from": HEX, "allowance": {"type": "integer", "minimum": 0},
        "allowance_rule": {"type": "string"}, "move_and_battle": {"type": "integer", "minimum": 0},
        "road_allowance": {"type": "integer", "minimum": 0},
        "card": {"type": "string", **NULLABLE}, "combat_card": {"type": "string", **NULLABLE},
        "after_battle": {"type": "boolean"},
        "reachable": {"type": "array", "items": MOVE_OPTION},
        "unreachable": {"type": "array", "items": {
            "type": "object", "required": ["row", "col", "why"],
            "properties": {**HEX["properties"], "why": {"type": "array", "items": REASON, "minItems": 1}}}},
        "why_not": {"type": "array", "items": REASON}, "notes": {"type": "array", "items": REASON},
        "removed_on_leaving": {"type": "array", "items": {
            "type": "object", "required": ["row", "col", "obstacle"],
            "properties": {**HEX["properties"], "hex": {"type": "string"}, "obstacle": {"type": "string"}}},
            "description": "obstacles taken off the unit's hex when it moves away (sandbags)"},
        "to": {"type": "object", "required": ["reachable", "row", "col", "why"],
               "properties": {**MOVE_OPTION["properties"], "reachable": {"type": "boolean"},
                              "path": {"type": "array", "items": HEX}}},
    },
}
ORDER_UNIT: Schema = {"type": "object", "required": ["unit", "sections", "why"],
              "properties": {"unit": {"type": "string"},
                             "sections": {"type": "array", "items": {"type": "string", "enum": list(SECTIONS)}},
                             "why": {"type": "array", "items": REASON}}}
ORDER_RESPONSE: Schema = {
    "type": "object",
    "required": ["card", "side", "section", "max_units", "groups", "orderable", "not_orderable", "effects"],
    "properties": {
        "card": {"type": "string"}, "side": {"type": "string", "enum": list(SIDES)},
        "section": {"type": "string", "enum": [*SECTIONS, None], **NULLABLE},
        "orders": {"type": "string", "description": "the card's order in one line"},
        "copied_card": {"type": "object", "properties": {"card": {"type": "string"},
                                                         "section": {"type": "string", **NULLABLE}}},
        "rolled": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        "max_units": {"type": "integer", "minimum": 0},
        "groups": {"type": "array", "items": {
            "type": "object", "required": ["section", "max", "units", "rule"],
            "properties": {"section": {"type": "string", "enum": [*SECTIONS, None], **NULLABLE},
                           "max": {"type": "integer", "minimum": 0},
                           "units": {"type": "array", "items": {"type": "string"}},
                           "rule": {"type": "string"}, "label": {"type": "string"},
                           "on_the_move": {"type": "boolean"}, "face": {"type": "string"},
                           "fallback": {"type": "boolean"}, "all": {"type": "boolean"}}}},
        "orderable": {"type": "array", "items": ORDER_UNIT},
        "not_orderable": {"type": "array", "items": {**ORDER_UNIT, "properties": {
            **ORDER_UNIT["properties"], "why": {"type": "array", "items": REASON, "minItems": 1}}}},
        "effects": {"type": "array", "items": REASON},
        "selection": {"type": "object", "required": ["legal", "why_not"],
                      "properties": {"units": {"type": "array", "items": {"type": "string"}},
                                     "legal": {"type": "boolean"}, "why_not": {"type": "array", "items": REASON},
                                     "groups": {"type": "object", "additionalProperties": {"type": "string"}},
                                     "notes": {"type": "array", "items": REASON}}},
        "obstacles_placed": {"type": "array", "items": {
            "type": "object", "required": ["unit", "row", "col", "obstacle", "owner"],
            "properties": {"unit": {"type": "string"}, "row": {"type": "integer"}, "col": {"type": "integer"},
                           "hex": {"type": "string"}, "obstacle": {"type": "string"},
                           "owner": {"type": "string", "enum": list(SIDES)}}}},
    },
}
RESUPPLY_RESPONSE: Schema = {
    "type": "object",
    "required": ["legal", "why_not", "targets", "supplier_figures"],
    "properties": {
        "legal": {"type": "boolean"},
        "why_not": {"type": "array", "items": REASON},
        "targets": {"type": "array", "items": {
            "type": "object", "required": ["unit", "max_figures"],
            "properties": {"unit": {"type": "string"}, "max_figures": {"type": "integer", "minimum": 0}}}},
        "supplier_figures": {"type": "integer", "minimum": 0},
    },
}
PER_SIDE: Schema = {"type": "object", "required": list(SIDES),
            "properties": {side: {"type": "integer", "minimum": 0} for side in SIDES}}
SCORE_RESPONSE: Schema = {
    "type": "object",
    "required": ["medals", "needed", "winner", "game_over", "sources", "notes", "objectives", "when"],
    "properties": {
        "medals": PER_SIDE, "needed": PER_SIDE,
        "winner": {"type": "string", "enum": [*SIDES, None], **NULLABLE},
        "game_over": {"type": "boolean", "description": "the winner has won now (the game ends at once, even "
                                                        "mid-turn)"},
        "decided_by": {**REASON, **NULLABLE, "description": "why the winner won"},
        "when": {"type": "string", "enum": list(WHEN)},
        "side": {"type": "string", "enum": [*SIDES, None], **NULLABLE},
        "sources": {"type": "array", "description": "every medal with its rule; a side's sources add up to its "
                                                   "medals", "items": {
            **REASON, "required": ["side", "medals", *REASON["required"]],
            "properties": {**REASON["properties"], "side": {"type": "string", "enum": list(SIDES)},
                           "medals": {"type": "integer", "minimum": 1}}}},
        "notes": {"type": "array", "items": REASON},
        "objectives": {"type": "array", "description": "each objective (hex or group) as things stand", "items": {
            "type": "object", "required": ["kind", "hexes", "holder", "held_by", "medals", "occupied"],
            "properties": {"kind": {"type": "string"}, "side": {"type": "string", **NULLABLE},
                           "group": {"type": "string", **NULLABLE}, "medals": {"type": "integer"},
                           "hexes": {"type": "array", "items": HEX}, "hexes_needed": {"type": "integer"},
                           "occupied": PER_SIDE,
                           "holder": {"type": "string", **NULLABLE},
                           "held_by": {"type": "string", **NULLABLE,
                                       "description": "the objective's `held_by` for the next situation"}}}},
    },
}
SOURCE: Schema = {
    "type": "object",
    "description": "A citation: the document (its page at `url`), the section, the page the section starts on "
                   "(documents that print page numbers), and the structured fields that section decides.",
    "required": ["document", "section", "page", "facts", "url", "secondary"],
    "properties": {"document": {"type": "string"}, "section": {"type": "string"},
                   "page": {"type": ["integer", "null"], "minimum": 1},
                   "facts": {"type": "array", "items": {"type": "string"}},
                   "url": {"type": "string"}, "secondary": {"type": "boolean"}},
}
CITATION: Schema = {
    "type": "object",
    "description": "The one passage that decides a structured field: a source, the entry whose sources list it "
                   "(the entry's `base` for an inherited field) and the citation as a referee quotes it.",
    "required": [*SOURCE["required"], "entry", "label"],
    "properties": {**SOURCE["properties"], "entry": {"type": "string"}, "label": {"type": "string"}},
}
ENTRY_RESPONSE: Schema = {
    "type": "object",
    "required": ["id", "kind", "name", "summary", "body", "sources", "citations"],
    "properties": {"id": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"},
                   "summary": {"type": "string"}, "body": {"type": "string"},
                   "terms": {"type": "array", "items": {"type": "string"},
                             "description": "Words the rules use that this entry defines."},
                   "sources": {"type": "array", "items": SOURCE},
                   "citations": {"type": "object", "additionalProperties": CITATION,
                                 "description": "Structured field -> its citation (a reason's `fact`)."}},
}
INDEX_RESPONSE: Schema = {
    "type": "object", "required": ["entries"],
    "properties": {"entries": {"type": "array", "items": {
        "type": "object", "required": ["id", "kind", "name", "url"],
        "properties": {"id": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"},
                       "summary": {"type": "string"}, "url": {"type": "string"}}}}},
}
SEARCH_RESPONSE: Schema = {
    "type": "object", "required": ["query", "results", "suggestion"],
    "properties": {
        "query": {"type": "string"},
        "results": {"type": "array", "items": {
            "type": "object", "required": ["id", "kind", "name", "url", "snippet", "score"],
            "properties": {"id": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"},
                           "url": {"type": "string"}, "snippet": {"type": "string"}, "score": {"type": "number"}}}},
        "suggestion": {"type": "string", **NULLABLE},
    },
}


def _errors(*statuses: int) -> dict[str, Any]:
    text = {400: "a field is missing or invalid; `error.field` names it", 403: "a form upload from another site",
            404: "no such entry", 413: "the body is too large", 415: "the body is not JSON",
            422: "the ruling needs more engine work than one request may spend (`too_complex`)",
            429: "too many requests from this client; see `Retry-After`",
            503: "the storage is full, read-only or unreachable, or the server cannot answer; see `Retry-After`",
            507: "the store of saved situations is full (`storage_full`); nothing was saved"}
    return {str(s): {"description": text[s], "content": {"application/json": {"schema": {"$ref": "#/components/"
                                                                                                  "schemas/Error"}}}}
            for s in statuses}


ENGINE_ERRORS = (400, 413, 415, 422, 429)


def _post(summary: str, request: str, response: str, description: str, *, answer: str = "the ruling",
          status: int = 200, errors: tuple[int, ...] = ENGINE_ERRORS) -> dict[str, Any]:
    return {"post": {
        "summary": summary, "description": description,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{request}"}}}},
        "responses": {str(status): {"description": answer, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{response}"}}}}, **_errors(*errors)},
    }}


def _get(summary: str, response: str, parameters: list[dict[str, Any]], errors: tuple[int, ...]) -> dict[str, Any]:
    return {"get": {
        "summary": summary, "parameters": parameters,
        "responses": {"200": {"description": "OK", "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{response}"}}}}, **_errors(*errors)},
    }}


def openapi_document(rulebook: Rulebook) -> dict[str, Any]:
    """The whole API as OpenAPI 3.0, with enums from the loaded content."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "adjudicator: Memoir '44 rules API", "version": "1",
                 "description": "Rulings that cite the rule entry they come from. Board coordinates are those "
                                "of the official scenario editor (row, doubled column)."},
        "servers": [{"url": "/"}],
        "paths": _paths(),
        "components": {"schemas": {**_request_schemas(rulebook), **_response_schemas()}},
    }


def _paths() -> dict[str, Any]:
    """Every endpoint: what it is for, its request and its answers (schemas by reference)."""
    return {
        "/api/v1/line-of-sight": _post(
            "Line of sight between two hexes", "LineOfSightRequest", "LineOfSight",
            "Exact whole-number geometry; says which readings of the rule were applied."),
        "/api/v1/battle": _post(
            "Legality, dice, hits and exact odds of one battle", "BattleRequest", "Battle",
            "Every step of the dice count cites its content entry."),
        "/api/v1/move": _post(
            "Where a unit may move, by which path, and whether it may still battle", "MoveRequest", "Move",
            "One best path per end hex; unreachable hexes within its allowance say why."),
        "/api/v1/retreat": _post(
            "Every legal retreat of a unit for a number of flags", "RetreatRequest", "Retreat",
            "Counts the figures lost for moves that cannot be made."),
        "/api/v1/resolve": _post(
            "The faces actually rolled, applied", "ResolveRequest", "Resolve",
            "Hits by face, figures lost, flags ignored, the retreat with every legal path, elimination, take "
            "ground and overrun, and the whole resolution as cited steps."),
        "/api/v1/fire-map": _post(
            "Every battle between enemy units as things stand", "FireMapRequest", "FireMap",
            "Each entry is the /battle ruling for that pair; pairs beyond the attacker's longest range are "
            "only counted."),
        "/api/v1/order": _post(
            "Which units a command card may order, and what the order lets them do", "OrderRequest", "Order",
            "Pools by section (straddling hexes in both), the most units, why each other unit may not be "
            "ordered, the order's effects, and whether a proposed selection is legal."),
        "/api/v1/resupply": _post(
            "Whom a supply vehicle may re-supply", "ResupplyRequest", "Resupply",
            "Half-Tracks and Supply Trucks hand figures to adjacent weakened units when the situation's rules "
            "include resupply."),
        "/api/v1/score": _post(
            "Each side's medals with their rules, what each needs, and the winner", "ScoreRequest", "Score",
            "Counts eliminated units (with the units' medal exceptions), objectives, exits, sudden death and "
            "medals given from outside, at the moment `when` names."),
        "/api/v1/rules": _get("Every rule entry", "RuleIndex", [], ()),
        "/api/v1/rules/{kind}/{id}": _get("One rule entry", "RuleEntry", [
            {"name": "kind", "in": "path", "required": True, "schema": {"type": "string",
                                                                         "enum": list(KIND_LABELS)}},
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string",
                                                                       "pattern": "^[a-z][a-z0-9_]*$"}},
        ], (404,)),
        "/api/v1/search": _get("Search the rules", "SearchResults", [
            {"name": "q", "in": "query", "required": False, "schema": {"type": "string"}},
            {"name": "kind", "in": "query", "required": False, "description": "empty: any kind",
             "schema": {"type": "string", "enum": ["", *KIND_LABELS]}},
            {"name": "expansion", "in": "query", "required": False, "description": "empty: any expansion",
             "schema": {"type": "string", "enum": ["", *EXPANSIONS]}},
            {"name": "limit", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 1, "maximum": API_LIMIT_MAX}},
        ], (400,)),
        "/api/v1/situations": _post(
            "Save a situation under a short id", "SaveRequest", "SavedSituation",
            "A situation plus the builder's selection; stored read-only, never overwritten.",
            answer="saved", status=201, errors=(400, 413, 415, 429, 503, 507)),
        "/api/v1/situations/{id}": _get("A saved situation", "SavedSituation", [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "pattern": SAVED_ID.pattern}},
        ], (404,)),
        "/api/v1/import/m44": _post(
            "Turn an official editor .m44 scenario into a situation", "M44Scenario", "ImportResult",
            "Every name that could not be mapped is listed in `unknown`, never dropped.",
            answer="the imported situation", errors=(400, 403, 413, 415, 422, 429)),
        "/api/v1/board/{kind}": _get("Board geometry: hexes, centres, labels, sections", "Board", [
            {"name": "kind", "in": "path", "required": True,
             "schema": {"type": "string", "enum": ["standard", "overlord", "breakthrough"]}},
        ], (404,)),
    }


def _card_fields(rulebook: Rulebook) -> dict[str, Any]:
    """``card`` and ``combat_card`` as every ruling request takes them: a card's id, or null."""
    card = {"type": "string", "maxLength": MAX_CARD_LENGTH, **NULLABLE}
    commands, combats = _ids(rulebook, "command_card"), _ids(rulebook, "combat_card")
    return {
        "card": {**card, "enum": [*commands, None]} if commands else card,
        "combat_card": {**card, "enum": [*combats, None]} if combats else card,
    }


def _play_fields(rulebook: Rulebook) -> dict[str, Any]:
    """How the card was played, as ``/order`` and the endpoints the card drives take it: its
    ``section``, the card Counter-Attack copies, and the scenario's options and hand sizes."""
    # the card copied is any but one that copies a card itself (Counter-Attack copies a card, not a copy)
    copyable = [c for c in _ids(rulebook, "command_card") if not card_rules(rulebook, c).copies_last_card]
    section = {"type": "string", "enum": [*SECTIONS, None], **NULLABLE}
    return {
        "section": {**section, "description": "the card's section (or the one chosen), named from the ordering "
                                              "player's own side"},
        "copied_card": {"type": "object", **NULLABLE, "required": ["card"],
                        "description": "Counter-Attack: the opponent's last card, with its section as he played it",
                        "properties": {"card": {"type": "string", "maxLength": MAX_CARD_LENGTH,
                                                **({"enum": copyable} if copyable else {})},
                                       "section": section}},
        # ordering reads the scenario's `options` (`us_marine_corps`) and `cards` (hand sizes), but
        # the parser checks all of it and refuses an unknown field: the whole scenario is described,
        # as for /score (an object left open to other fields promised what the server refuses)
        "scenario": scenario_properties(rulebook)["scenario"],
    }


def _roll(rulebook: Rulebook) -> dict[str, Any]:
    """The faces rolled, as ``/resolve`` and ``/order`` (Their Finest Hour) take them."""
    return {"type": "object", "additionalProperties": False,
            "properties": {face: {"type": "integer", "minimum": 0, "maximum": MAX_ROLLED}
                           for face in die_faces(rulebook)}}


def _request_schemas(rulebook: Rulebook) -> dict[str, Any]:
    """What each request accepts: the situation plus the fields of its endpoint."""
    situation = situation_schema(rulebook)
    cards = _card_fields(rulebook)
    play = _play_fields(rulebook)
    roll = _roll(rulebook)
    commands = _ids(rulebook, "command_card")
    unit_ref = {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH,
                "description": "the id of a unit of the situation"}
    return {
        "M44Scenario": _m44_scenario(),
        "SaveRequest": {"additionalProperties": False, **_with(situation, [], {
            "attacker": {**unit_ref, **NULLABLE}, "target": {**unit_ref, **NULLABLE},
            **cards,
            "overrun_battle": {"type": "boolean", **NULLABLE},
            "flags": {"type": "integer", "minimum": 1, "maximum": MAX_SAVED_FLAGS, **NULLABLE},
            "title": {"type": "string", "maxLength": MAX_TITLE, **NULLABLE},
        })},
        "Situation": situation,
        "Hex": _hex_request(),
        "LineOfSightRequest": _with(situation, ["from", "to"], {"from": _hex_request(), "to": _hex_request()}),
        "BattleRequest": _with(situation, ["attacker", "target"], {
            "attacker": {**unit_ref, **NULLABLE,
                         "description": "null when `card` attacks by itself (Air Power, Barrage)"},
            "target": unit_ref,
            "targets": {"type": "array", "maxItems": MAX_TARGETS_GIVEN, "items": unit_ref,
                        "description": "card attacks: the other units of the group (Air Power)"},
            **cards, **play,
            "overrun_battle": {"type": "boolean", **NULLABLE,
                               "description": "the battle is itself an armor overrun"},
        }),
        "RetreatRequest": _with(situation, ["unit", "flags"], {
            "unit": unit_ref,
            "flags": {"type": "integer", "minimum": 0, "maximum": MAX_FLAGS},
            "hits": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES, **NULLABLE},
            **cards,
        }),
        "ResolveRequest": _with(situation, ["attacker", "target", "rolled"], {
            "attacker": {**unit_ref, **NULLABLE,
                         "description": "null when `card` attacks by itself (Air Power, Barrage): the roll is "
                                        "the card's on `target`"},
            "target": unit_ref,
            "targets": {"type": "array", "maxItems": MAX_TARGETS_GIVEN, "items": unit_ref,
                        "description": "card attacks: the other units of the group (Air Power)"},
            **cards, **play,
            "overrun_battle": {"type": "boolean", **NULLABLE,
                               "description": "the battle is itself an armor overrun"},
            "rolled": {"oneOf": [roll, {"type": "array", "minItems": 1, "maxItems": MAX_GROUP, "items": roll,
                                        "description": "a card's group (Air Power): one roll per unit, in the "
                                                       "order `target`, `targets`"}],
                       "description": "how many dice showed each face; they must add up to the battle's dice"},
            "retreat_to": {"type": "array", "maxItems": MAX_GROUP, **NULLABLE, "items": {**_hex_request(), **NULLABLE},
                           "description": "a card's group: where each unit's retreat ends (the owner's choice)"},
        }),
        "FireMapRequest": _with(situation, [], {
            "unit": {**unit_ref, **NULLABLE, "description": "only the battles this unit makes or suffers"},
            **cards, **play,
            "side": {"type": "string", "enum": [*SIDES, None], **NULLABLE,
                     "description": "the side playing the card: the other side's battles are ruled without it"},
        }),
        "ResupplyRequest": _with(situation, ["supplier"], {"supplier": unit_ref}),
        "ScoreRequest": _with(situation, [], {
            **scenario_properties(rulebook),
            "when": {"type": "string", "enum": [*WHEN, None], **NULLABLE, "default": "now",
                     "description": "now: objectives that count at any moment; turn_start, turn_end: at the "
                                    "start or end of `side`'s turn"},
            "side": {"type": "string", "enum": [*SIDES, None], **NULLABLE,
                     "description": "whose turn it is (required with turn_start)"},
            "medals": {"type": "object", "additionalProperties": False, **NULLABLE,
                       "description": "medals already won by means the engine cannot see",
                       "properties": {side: {"type": "integer", "minimum": 0, "maximum": MAX_MEDALS, **NULLABLE}
                                      for side in SIDES}},
        }),
        "OrderRequest": _with(situation, ["side", "card"], {
            "side": {"type": "string", "enum": list(SIDES), "description": "the player ordering"},
            "card": {"type": "string", "maxLength": MAX_CARD_LENGTH, **({"enum": commands} if commands else {})},
            **play,
            "rolled": {**roll, **NULLABLE,
                       "description": "Their Finest Hour: the faces rolled (1 die per card in hand)"},
            "selection": {"type": "array", "maxItems": MAX_UNITS, "items": unit_ref, **NULLABLE,
                          "description": "the units the player proposes to order"},
        }),
        "MoveRequest": _with(situation, ["unit"], {
            "unit": unit_ref,
            **cards, **play,
            "after_battle": {"type": "boolean", **NULLABLE,
                             "description": "the second move a card such as Behind Enemy Lines gives"},
            "to": {**_hex_request(), **NULLABLE, "description": "also rule on this one destination"},
        }),
    }


def _m44_scenario() -> dict[str, Any]:
    """The parts of an editor ``.m44`` file the import reads (``adjudicator.m44``). The import is
    forgiving: a board face or tile it cannot map is listed in the answer, not refused, so only
    what it refuses is constrained here."""
    def word(values: Any, default: str) -> dict[str, Any]:
        return {"type": "string", "enum": [*values, "", None], **NULLABLE,
                "description": f"the editor's word, in any case; absent or empty: {default}"}
    return {
        "type": "object", "required": ["board"],
        "properties": {
            "board": {"type": "object", "properties": {
                "type": word(BOARD_TYPES, "STANDARD"),
                "face": {"description": "the editor's board face (WINTER, BEACH...); one it does not know is "
                                        "listed in `unknown`"},
                "hexagons": {"type": "array", "maxItems": MAX_HEXAGONS, "items": {
                    "type": "object", "required": ["row", "col"],
                    "properties": {"row": M44_NUMBER, "col": M44_NUMBER},
                    "description": "a hex of the file: its terrain, obstacle, unit and tags by the editor's names",
                }},
            }},
            "game_info": {"description": "read when it is an object",
                          "properties": {"side_player1": word(SIDE_NAMES, "AXIS")}},
        },
    }


def _response_schemas() -> dict[str, Any]:
    """What each endpoint answers."""
    return {
        "SavedSituation": {
            "type": "object", "required": ["id", "url", "api_url", "created_at", "size", "situation"],
            "properties": {"id": {"type": "string"}, "url": {"type": "string"}, "api_url": {"type": "string"},
                           "created_at": {"type": "string"}, "size": {"type": "integer"},
                           "situation": {"type": "object"}},
        },
        "ImportResult": {
            "type": "object", "required": ["situation", "unknown"],
            "properties": {"situation": {"type": "object"}, "title": {"type": "string", **NULLABLE},
                           "unknown": {"type": "array", "items": {"type": "object"}},
                           "skipped": {"type": "array", "items": {"type": "object"}},
                           "notes": {"type": "array", "items": {"type": "string"}},
                           "decorative": {"type": "array", "items": {"type": "object"},
                                          "description": "pieces with no rules: insignia, battle stars"},
                           "unknown_total": {"type": "integer"}, "skipped_total": {"type": "integer"},
                           "notes_total": {"type": "integer"}, "decorative_total": {"type": "integer"}},
        },
        "Board": {
            "type": "object", "required": ["kind", "rows", "hexes"],
            "properties": {"kind": {"type": "string"}, "rows": {"type": "integer"},
                           "max_col": {"type": "integer"}, "hexes": {"type": "array"},
                           "section_bounds": {"type": "array"}, "baseline_rows": {"type": "object"}},
        },
        "LineOfSight": LOS_RESPONSE,
        "Battle": BATTLE_RESPONSE,
        "Order": ORDER_RESPONSE,
        "Retreat": RETREAT_RESPONSE,
        "Resupply": RESUPPLY_RESPONSE,
        "Resolve": RESOLVE_RESPONSE,
        "FireMap": FIRE_MAP_RESPONSE,
        "Move": MOVE_RESPONSE,
        "Score": SCORE_RESPONSE,
        "RuleEntry": ENTRY_RESPONSE,
        "RuleIndex": INDEX_RESPONSE,
        "SearchResults": SEARCH_RESPONSE,
        "Reason": REASON,
        "ReasonUnit": REASON_UNIT,
        "ReasonHex": REASON_HEX,
        "ReasonEntry": REASON_ENTRY,
        "Error": ERROR,
    }
