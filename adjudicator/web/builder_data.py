"""What the situation builder is drawn from: the boards as the engine knows them, a palette
generated from the content (terrain, obstacles, units, badges, nations, cards, special rules) and
the example gallery. ``builder_data`` serves it all as one compact JSON, built once per process
and named by its content hash (``web/builder.py`` links it from the page)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import yaml
from flask import current_app, url_for

from adjudicator.config import current
from adjudicator.content.loader import Catalogue
from adjudicator.engine.api import needs_section
from adjudicator.engine.core_ids import DICE_RULE
from adjudicator.engine.geometry import BOARDS, Board
from adjudicator.engine.orders import order_summary
from adjudicator.engine.rulebook import (
    BadgeRules,
    CardRules,
    CombatCardRules,
    HexRules,
    NationRules,
    Rulebook,
    UnitRules,
)
from adjudicator.engine.situation import (
    BOARD_ENTRY,
    MAX_FIGURES,
    MAX_MOVED,
    NATIONS,
    SIDES,
    board_faces,
    situation_rule_ids,
)
from adjudicator.m44 import owner_matters
from adjudicator.web.context import current_catalogue, current_rulebook
from adjudicator.web.saved_document import MAX_SAVED_BYTES, MAX_SAVED_FLAGS, SITUATION_FIELDS

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"

COMMON = {
    "terrain": ("forest", "hill", "town", "hedgerow", "river", "beach", "marsh", "mountain", "road"),
    "obstacles": ("sandbags", "wire", "bridge", "bunker", "hedgehog", "road_block"),
    "units": ("infantry", "armor", "artillery"),
}
"""What the hex sheet offers first, in this order, before "More…" (presentation only: the
pieces most disputes at the table are about). An id the content does not have is skipped."""


def board_json(board: Board) -> dict[str, Any]:
    """A board as the engine knows it. ``centre`` is the exact lattice point (3·col, 3·row) of
    ``adjudicator/API.md``; the page maps it affinely to screen pixels."""
    bottom = board.baseline_row(True)
    return {
        "kind": board.kind,
        "rows": board.rows,
        "max_col": board.max_col,
        "section_bounds": list(board.section_bounds),
        "baseline_rows": {"bottom": bottom, "top": board.baseline_row(False)},
        "hexes": [
            {"row": h.row, "col": h.col, "label": board.label(h), "centre": [3 * h.col, 3 * h.row],
             "sections": list(board.sections(h))}
            for h in board.hexes()
        ],
    }


def face_names(rb: Rulebook) -> dict[str, str]:
    """What players call each battle-die face (core ``range_and_dice`` ``face_names``): the one
    table the builder labels faces from (roll buttons, hit symbols, Their Finest Hour, copied text)."""
    core = rb.core(DICE_RULE)
    return {str(face): name for face, name in core.face_names.items()} if core is not None else {}


def faces_json(rb: Rulebook) -> dict[str, Any]:
    """The board faces the builder offers (core ``board_faces``), in content order, and the one it
    draws when a situation names none (``default_board_face``: display only, no ruling reads it)."""
    faces = board_faces(rb)
    core = rb.core(BOARD_ENTRY)
    default = core.default_board_face if core is not None else None
    return {
        "entry": BOARD_ENTRY if BOARD_ENTRY in rb.kinds else None,
        "default": default if default in faces else next(iter(faces), None),
        "list": [{"id": face_id, "name": face.name} for face_id, face in faces.items()],
    }


def _abbreviation(name: str) -> str:
    """A token label for a unit: initials of a multi-word name ("Half-Track" -> "HT"), else the
    first three letters ("Infantry" -> "INF")."""
    words = [w for w in re.split(r"[\s\-&/]+", name) if w and w[0].isalnum()]
    if len(words) > 1:
        return "".join(w[0] for w in words[:3]).upper()
    return name[:3].upper()


def _short(name: str) -> str:
    """A hex label: the name up to its first separator, at most 8 letters. A leading "Winter" is
    dropped (the winter look already says it), so a winter forest reads "Forest", not "Winter"."""
    words = re.split(r"\s*[&/(,]\s*|\s+", name.strip())
    if len(words) > 1 and words[0].lower() == "winter":
        words = words[1:]
    return words[0][:8]


def hex_style(entry_id: str, rules: HexRules) -> str:
    """A drawing category for a terrain or obstacle, read from its rules so a new entry gets a
    sensible look without anyone listing it (presentation only; no rule depends on it)."""
    if rules.is_bridge:
        return "bridge"
    if set(rules.impassable) >= {"infantry", "armor", "artillery"} or rules.no_retreat_onto or rules.entry_risk:
        return "water"
    if rules.elevation >= 2:
        return "mountain"
    if rules.battle_out.get("armor"):
        return "town"
    if rules.blocks_los and rules.must_stop and rules.no_battle_after_entering:
        return "woods"
    if rules.elevation == 1:
        return "hill"
    if rules.blocks_los:
        return "fort"
    if rules.dice_reductions or rules.flags:
        return "cover"
    if rules.must_stop or rules.impassable:
        return "rough"
    return "open"


def palette(catalogue: Catalogue, rb: Rulebook) -> dict[str, Any]:
    """Everything the palette offers, generated from the content."""
    terrain: list[dict[str, Any]] = []
    obstacles: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    badges: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    combat_cards: list[dict[str, Any]] = []
    nation_names: dict[str, str] = {}
    for kind in ("terrain", "obstacle", "marker", "unit", "badge", "command_card", "combat_card", "nation"):
        for entry in catalogue.by_kind(kind):
            rules = entry.rules
            base = {"id": entry.id, "name": entry.meta.name, "summary": entry.meta.summary}
            if isinstance(rules, HexRules) and rb.hex_feature(entry.id) is not None:
                item = {**base, "style": hex_style(entry.id, rules), "short": _short(entry.meta.name),
                        "winter": "winter" in entry.id or "snow" in entry.id,
                        "blocks_los": rules.blocks_los, "owner_matters": owner_matters(rules)}
                (terrain if kind == "terrain" else obstacles).append(item)
            if isinstance(rules, BadgeRules) and rb.unit_badge(entry.id) is not None:
                badges.append({**base, "applies_to": list(rules.applies_to), "turns_into": rules.turns_into})
            if isinstance(rules, UnitRules):
                units.append({
                    **base, "abbr": _abbreviation(entry.meta.name), "unit_class": rules.unit_class,
                    "base": entry.meta.base, "figures": rules.figures,
                    "figures_by_nation": rules.figures_by_nation,
                    "figures_range": list(rules.figures_range) if rules.figures_range else None,
                    "battles": rules.battles and bool(rules.dice), "reach": len(rules.dice),
                    "can_resupply": rules.can_resupply,
                    "resupply_requires_rule": rules.resupply_requires_rule, "nation": rules.nation,
                })
            if isinstance(rules, CardRules):
                # A card with dice of its own (Air Power, Barrage) attacks with no unit
                # (``fixed_dice``: rules air_power, barrage).
                # What "Play a card" asks before /api/v1/order can answer: a section (the card's, or one
                # chosen), the card Counter-Attack copies, the faces whose dice order units (Their
                # Finest Hour: ``rolls``, empty for every other card).
                cards.append({**base, "card_type": rules.card_type, "attacks_alone": bool(rules.fixed_dice),
                              "section": needs_section(rb, entry.id), "copies": rules.copies_last_card,
                              "rolls": list(dict.fromkeys(o.face for o in rules.roll_orders)),
                              "orders": order_summary(rb, entry.id)})
            if isinstance(rules, CombatCardRules):
                combat_cards.append({**base, "deck": rules.deck, "special_action": rules.special_action})
            if isinstance(rules, NationRules):
                for code in rules.nation_codes:
                    nation_names.setdefault(code, entry.meta.name)
    special = [
        {"situation_id": sid, "id": entry_id, "name": rb.names[entry_id], "kind": rb.kinds[entry_id],
         "summary": catalogue.entries[entry_id].meta.summary}
        for sid, entry_id in sorted(situation_rule_ids(rb).items(), key=lambda item: rb.names[item[1]].lower())
    ]
    return {
        "terrain": terrain,
        "obstacles": obstacles,
        "units": units,
        "badges": badges,
        "nations": [{"code": c, "name": nation_names.get(c, _nation_label(c))} for c in NATIONS],
        "command_cards": cards,
        "combat_cards": combat_cards,
        "special_rules": special,
        "common": {kind: [i for i in ids if i in {x["id"] for x in {"terrain": terrain, "obstacles": obstacles,
                                                                              "units": units}[kind]}]
                   for kind, ids in COMMON.items()},
        # the one section an entry's rule is cited to (its first source) where no fact narrows it
        "cite": {e.id: e.meta.sources[0].label for e in catalogue.entries.values() if e.meta.sources},
        # the passage of each structured field, inherited ones too: a reason's rule + fact (contracts §4),
        # as an index into ``cite_labels`` (each passage's text once: ~2.5 times smaller)
        **_fact_citations(catalogue),
        "kinds": dict(rb.kinds),
        "names": dict(rb.names),
        "face_names": face_names(rb),
        "limits": {"max_figures": MAX_FIGURES, "max_moved": MAX_MOVED, "max_flags": MAX_SAVED_FLAGS,
                   "max_saved_bytes": MAX_SAVED_BYTES,
                   # a share link unpacks to at most the largest body the API takes: no situation
                   # it can rule on is bigger, and a link that inflates past it is refused unread
                   "max_link_bytes": current().max_content_length},
    }


def _fact_citations(catalogue: Catalogue) -> dict[str, Any]:
    labels: dict[str, int] = {}
    fact_cite = {entry_id: {fact: labels.setdefault(c.source.label, len(labels)) for fact, c in cites.items()}
                 for entry_id, cites in catalogue.citations.items() if cites}
    return {"cite_labels": list(labels), "fact_cite": fact_cite}


def _nation_label(code: str) -> str:
    return code.upper() if len(code) <= 2 else code.replace("_", " ").title()


def examples() -> list[dict[str, Any]]:
    """The example gallery: every ``examples/*.yaml`` with what the builder needs to load it.
    A file that does not read is left out and logged (its own test reports it). Read once per
    process by ``builder_data`` (the files ship with the code and change only with it)."""
    found = []
    for path in sorted(EXAMPLES_DIR.glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            current_app.logger.warning("example %s does not load: %s", path.name, exc)
            continue
        if not isinstance(data, dict) or not isinstance(data.get("situation"), dict):
            current_app.logger.warning("example %s has no situation", path.name)
            continue
        found.append({
            "file": path.stem,
            "title": str(data.get("title") or path.stem),
            "rule": str(data.get("rule") or ""),
            "endpoint": str(data.get("endpoint") or ""),
            "state": _example_state(data),
        })
    return found


def _example_state(data: dict[str, Any]) -> dict[str, Any]:
    """The situation plus the builder's selection implied by the example's request."""
    situation = data["situation"]
    request = data.get("request")
    req: dict[str, Any] = request if isinstance(request, dict) else {}
    state: dict[str, Any] = {k: situation[k] for k in SITUATION_FIELDS if k in situation}
    units = situation.get("units") if isinstance(situation.get("units"), list) else []

    def unit_at(point: Any) -> str | None:
        if isinstance(point, dict):
            spot = (point.get("row"), point.get("col"))
            for unit in units:
                if isinstance(unit, dict) and (unit.get("row"), unit.get("col")) == spot:
                    return unit.get("id")
        return None

    endpoint = data.get("endpoint")
    if endpoint in ("battle", "resolve"):
        state.update({k: req[k] for k in ("attacker", "target", "card", "combat_card", "overrun_battle") if k in req})
    elif endpoint == "line-of-sight":
        state.update({"attacker": unit_at(req.get("from")), "target": unit_at(req.get("to"))})
    elif endpoint == "retreat":
        state.update({"target": req.get("unit"), "flags": req.get("flags")})
        state.update({k: req[k] for k in ("card", "combat_card") if k in req})
    elif endpoint == "resupply":
        state["select"] = req.get("supplier")
    elif endpoint == "fire-map":
        state["select"] = req.get("unit")
    elif endpoint == "move":
        state["select"] = req.get("unit")
        state.update({k: req[k] for k in ("card", "combat_card") if k in req})
    elif endpoint == "order":  # the card played, and the units of the selection marked ordered
        state["card"] = req.get("card")
        state["play"] = {k: req[k] for k in ("side", "section", "copied_card", "rolled") if k in req}
        chosen = set(req.get("selection") or [])
        state["units"] = [{**u, "ordered": True} if isinstance(u, dict) and u.get("id") in chosen else u
                          for u in units]
    state["title"] = str(data.get("title") or "")
    return {k: v for k, v in state.items() if v is not None}


def page_data() -> dict[str, Any]:
    """Everything the builder's script needs that is the same for every visitor."""
    catalogue = current_catalogue()
    return {
        "boards": {kind: board_json(board) for kind, board in BOARDS.items()},
        "sides": list(SIDES),
        "palette": palette(catalogue, current_rulebook()),
        "faces": faces_json(current_rulebook()),
        "examples": examples(),
        "api": {
            "battle": "/api/v1/battle", "line_of_sight": "/api/v1/line-of-sight",
            "retreat": "/api/v1/retreat", "resupply": "/api/v1/resupply",
            "move": "/api/v1/move", "resolve": "/api/v1/resolve", "fire_map": "/api/v1/fire-map",
            "score": "/api/v1/score",
            "order": "/api/v1/order",
            "save": url_for("situations.save"), "import_m44": url_for("m44.import_scenario"),
        },
    }


def builder_data() -> tuple[bytes, str]:
    """The page data as compact JSON and its content hash, built once per process (the
    page used to embed 122 KB of JSON and re-read every example file on each request)."""
    cached = current_app.extensions.get("builder_data")
    if cached is None:
        body = json.dumps(page_data(), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        cached = (body, hashlib.sha256(body).hexdigest()[:12])
        current_app.extensions["builder_data"] = cached
    return cached
