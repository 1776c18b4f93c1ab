"""The situation builder page, saved situations and scenario import.

- ``GET /builder`` — the builder: an SVG board drawn from the engine's geometry and a palette
  generated from the content (terrain, obstacles, units, badges, nations, cards, special rules).
  Both travel as one content-hashed JSON asset (``GET /builder/data.json?v=<hash>``, cached for a
  year), built once per process with the example gallery; the page itself stays a few KB. Its ES
  modules are imported through an import map of content-hashed URLs, so they are cached
  immutably too.
- ``GET /s/<id>`` — a saved situation, read-only in the builder; ``GET /api/v1/situations/<id>``
  returns it as JSON; ``POST /api/v1/situations`` saves one (validated by the engine's parser,
  size-capped, stored under a fresh 8-character id that is never reused or overwritten).
- ``GET /api/v1/board/<kind>`` — one board's hexes, labels and sections.
- ``POST /api/v1/import/m44`` — a scenario from the official editor, mapped through the content
  (``adjudicator.m44``), with every name that did not map listed."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for
from sqlalchemy.exc import IntegrityError
from sqlmodel import select
from werkzeug.exceptions import RequestEntityTooLarge

from adjudicator.content.loader import Catalogue
from adjudicator.db import get_session
from adjudicator.engine import api
from adjudicator.engine.geometry import BOARDS, Board
from adjudicator.engine.orders import order_summary
from adjudicator.engine.resolve import parse_rolled
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
    HEX_FIELDS,
    MAX_FIGURES,
    MAX_MOVED,
    NATIONS,
    SIDES,
    UNIT_FIELDS,
    board_faces,
    situation_rule_ids,
)
from adjudicator.m44 import M44Error, import_m44, loads, owner_matters
from adjudicator.models import SaveDigest, SavedSituation
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import bool_field, json_body, rulebook, situation_from
from adjudicator.web.security import CSP, asset_version

bp = Blueprint("builder", __name__)

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
SITUATION_FIELDS = ("board", "face", "bottom_side", "rules", "hexes", "units")
SELECTION_FIELDS = ("attacker", "target", "card", "combat_card", "overrun_battle", "flags", "title", "play")
MAX_SAVED_BYTES = 32 * 1024
"""A saved situation's JSON is capped at 32 KB: a full Overlord scenario fits (about 20 KB), a
flood of junk does not."""
MAX_M44_BYTES = 1024 * 1024
"""Scenario files carry long historical texts in several languages; a megabyte is ample."""
M44_TYPES = ("application/json", "multipart/form-data")
MAX_TITLE = 120
MAX_FLAGS = 3
SAVED_ID = re.compile(r"^[A-Za-z0-9_-]{8}$")

COMMON = {
    "terrain": ("forest", "hill", "town", "hedgerow", "river", "beach", "marsh", "mountain", "road"),
    "obstacles": ("sandbags", "wire", "bridge", "bunker", "hedgehog", "road_block"),
    "units": ("infantry", "armor", "artillery"),
}
"""What the hex sheet offers first, in this order, before "More…" (presentation only: the
pieces most disputes at the table are about). An id the content does not have is skipped."""


# -- data the page is built from -------------------------------------------------------------

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


def faces_json(rb: Rulebook) -> dict[str, Any]:
    """The board faces the builder offers (core ``board_faces``), in content order, and the one it
    draws when a situation names none (``default_board_face``: display only, no ruling reads it)."""
    faces = board_faces(rb)
    entry = rb.rules.get(BOARD_ENTRY)
    default = getattr(entry, "default_board_face", None)
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
    terrain, obstacles, units, badges, cards, combat_cards = [], [], [], [], [], []
    nation_names: dict[str, str] = {}
    for kind in ("terrain", "obstacle", "marker", "unit", "badge", "command_card", "combat_card", "nation"):
        for entry in catalogue.by_kind(kind):
            rules = entry.rules
            base = {"id": entry.id, "name": entry.meta.name, "summary": entry.meta.summary}
            if isinstance(rules, HexRules) and getattr(rules, "placed_on", "hex") == "hex":
                item = {**base, "style": hex_style(entry.id, rules), "short": _short(entry.meta.name),
                        "winter": "winter" in entry.id or "snow" in entry.id,
                        "blocks_los": rules.blocks_los, "owner_matters": owner_matters(rules)}
                (terrain if kind == "terrain" else obstacles).append(item)
            if isinstance(rules, BadgeRules) and (kind == "badge" or getattr(rules, "placed_on", "hex") == "unit"):
                badges.append({**base, "applies_to": list(rules.applies_to), "turns_into": rules.turns_into})
            if isinstance(rules, UnitRules):
                units.append({
                    **base, "abbr": _abbreviation(entry.meta.name), "unit_class": rules.unit_class,
                    "base": entry.meta.base, "figures": rules.figures,
                    "figures_by_nation": rules.figures_by_nation,
                    "figures_range": list(rules.figures_range) if rules.figures_range else None,
                    "battles": rules.battles and bool(rules.dice), "can_resupply": rules.can_resupply,
                    "resupply_requires_rule": rules.resupply_requires_rule, "nation": rules.nation,
                })
            if isinstance(rules, CardRules):
                # A card with dice of its own (Air Power, Barrage) attacks with no unit (issue #14 C).
                # What "Play a card" asks before /api/v1/order can answer: a section (the card's, or one
                # chosen), the card Counter-Attack copies, the dice Their Finest Hour rolls.
                cards.append({**base, "card_type": rules.card_type, "attacks_alone": bool(rules.fixed_dice),
                              "section": api.needs_section(rb, entry.id), "copies": rules.copies_last_card,
                              "rolls": bool(rules.roll_orders), "orders": order_summary(rb, entry.id)})
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
        "cite": {e.id: "; ".join(f"{src.document}, {src.section}" for src in e.meta.sources[:2])
                 for e in catalogue.entries.values()},
        "kinds": dict(rb.kinds),
        "names": dict(rb.names),
        "limits": {"max_figures": MAX_FIGURES, "max_moved": MAX_MOVED, "max_flags": MAX_FLAGS,
                   "max_saved_bytes": MAX_SAVED_BYTES},
    }


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
    req = data.get("request") if isinstance(data.get("request"), dict) else {}
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
    catalogue: Catalogue = current_app.extensions["catalogue"]
    return {
        "boards": {kind: board_json(board) for kind, board in BOARDS.items()},
        "sides": list(SIDES),
        "palette": palette(catalogue, rulebook()),
        "faces": faces_json(rulebook()),
        "examples": examples(),
        "api": {
            "battle": "/api/v1/battle", "line_of_sight": "/api/v1/line-of-sight",
            "retreat": "/api/v1/retreat", "resupply": "/api/v1/resupply",
            "move": "/api/v1/move", "resolve": "/api/v1/resolve", "fire_map": "/api/v1/fire-map",
            "order": "/api/v1/order",
            "save": url_for("builder.save"), "import_m44": url_for("builder.import_scenario"),
        },
    }


def builder_data() -> tuple[bytes, str]:
    """The page data as compact JSON and its content hash, built once per process (issue #15:
    the page used to embed 122 KB of JSON and re-read every example file on each request)."""
    cached = current_app.extensions.get("builder_data")
    if cached is None:
        body = json.dumps(page_data(), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        cached = (body, hashlib.sha256(body).hexdigest()[:12])
        current_app.extensions["builder_data"] = cached
    return cached


def import_map() -> tuple[str, str]:
    """An import map sending every module under ``static/js`` to its content-hashed URL, and
    the CSP source that allows exactly this inline map. Modules import each other by plain
    relative paths; the map makes each of those requests a versioned, immutable one."""
    cached = current_app.extensions.get("builder_import_map")
    if cached is None:
        folder = current_app.static_folder or ""
        modules = sorted(p.name for p in (Path(folder) / "js").glob("*.js"))
        imports = {url_for("static", filename=f"js/{name}"):
                   url_for("static", filename=f"js/{name}", v=asset_version(folder, f"js/{name}"))
                   for name in modules}
        text = json.dumps({"imports": imports}, separators=(",", ":"))
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        cached = (text, f"'sha256-{digest}'")
        current_app.extensions["builder_import_map"] = cached
    return cached


def _builder_page(saved: dict[str, Any] | None) -> Response:
    _, digest = builder_data()
    map_text, map_source = import_map()
    html = render_template("builder.html", saved=saved, import_map=map_text, boards=list(BOARDS),
                           data_url=url_for("builder.data", v=digest))
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP.replace("script-src 'self'", f"script-src 'self' {map_source}")
    return response


# -- pages -------------------------------------------------------------------------------------

@bp.get("/builder")
def builder() -> Response:
    return _builder_page(None)


@bp.get("/builder/data.json")
def data() -> Response:
    """The builder's data. Asked for with the current hash (as the page does) it is cached for a
    year; any other request gets it uncached, so a stale link never pins old data."""
    body, digest = builder_data()
    response = Response(body, mimetype="application/json")
    if request.args.get("v") == digest:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/s/<saved_id>")
def saved_page(saved_id: str) -> Response:
    row = _load(saved_id)
    if row is None:
        abort(404, description=f"No saved situation has the id {saved_id!r}. Check the link.")
    return _builder_page(_saved_json(row))


# -- JSON API ----------------------------------------------------------------------------------

@bp.get("/api/v1/board/<kind>")
def board(kind: str) -> Any:
    if kind not in BOARDS:
        raise ApiError(f"unknown board {kind!r}; known: {', '.join(BOARDS)}", field="kind", status=404,
                       code="not_found")
    return jsonify(board_json(BOARDS[kind]))


@bp.post("/api/v1/situations")
def save() -> Any:
    """Store a situation under a new short id. The body is a situation document, optionally with
    the builder's selection (``attacker``, ``target``, ``card``, ``combat_card`` — the very fields
    of a battle request — plus ``flags`` and ``title``)."""
    data = json_body()
    document = validated_document(data)
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size > MAX_SAVED_BYTES:
        raise ApiError(f"the situation is {size} bytes; at most {MAX_SAVED_BYTES} can be saved",
                       field="(body)", status=413, code="too_large")
    session = get_session()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    existing = _already_saved(digest)
    if existing is not None:
        # a retry of a save whose answer was lost gets the answer the first would have had: same
        # content, same id, nothing stored twice
        return _created(existing)
    for _ in range(8):
        # 8 URL-safe characters, 48 random bits: an id already taken fails the insert (its primary
        # key) and the next one is tried, so no lookup is spent on the ~never-taken case
        saved_id = secrets.token_urlsafe(6)
        row = SavedSituation(id=saved_id, data=text, size=size)
        session.add(row)
        session.add(SaveDigest(digest=digest, saved_id=saved_id))
        try:
            session.commit()
        except IntegrityError:  # the same id (or the same content) saved between our check and insert
            session.rollback()
            existing = _already_saved(digest)
            if existing is not None:
                return _created(existing)
            continue
        session.refresh(row)
        return _created(row)
    raise ApiError("could not find a free id; try again", status=503, code="busy")


@bp.get("/api/v1/situations/<saved_id>")
def load(saved_id: str) -> Any:
    row = _load(saved_id)
    if row is None:
        raise ApiError(f"no saved situation with id {saved_id!r}", field="id", status=404, code="not_found")
    return jsonify(_saved_json(row))


@bp.post("/api/v1/import/m44")
def import_scenario() -> Any:
    """A ``.m44`` scenario as the body (JSON), or as the ``file`` field of a form upload."""
    request.max_content_length = MAX_M44_BYTES
    if request.mimetype not in M44_TYPES:
        # text/plain (or a form) is what a page on any other site may post without asking: only a
        # JSON body (which needs a CORS preflight) or a file upload is accepted
        raise ApiError(f"send the .m44 file as {' or '.join(M44_TYPES)}", field="(body)", status=415,
                       code="unsupported_media_type")
    if request.mimetype == "multipart/form-data" and request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise ApiError("a form upload must come from this site", field="(body)", status=403, code="cross_site")
    too_large = ApiError(f"the file is larger than {MAX_M44_BYTES} bytes", field="(body)", status=413,
                         code="too_large")
    if request.content_length is not None and request.content_length > MAX_M44_BYTES:
        raise too_large  # before reading: the framework's own 413 names no field and no limit
    try:
        upload = request.files.get("file") if request.mimetype == "multipart/form-data" else None
        raw = upload.read(MAX_M44_BYTES + 1) if upload is not None else request.get_data(cache=False)
    except RequestEntityTooLarge:  # a chunked body that runs past the limit
        raise too_large from None
    if len(raw) > MAX_M44_BYTES or (upload is None and request.content_length is None and len(raw) >= MAX_M44_BYTES):
        raise too_large
    if not raw.strip():
        raise ApiError("send the .m44 file as the request body", field="(body)", code="empty")
    try:
        result = import_m44(loads(raw), rulebook())
    except M44Error as exc:
        raise ApiError(exc.message, field=exc.field, code="invalid_m44") from None
    return jsonify(result.as_dict())


# -- helpers -----------------------------------------------------------------------------------

def validated_document(data: dict[str, Any]) -> dict[str, Any]:
    """The situation checked by the engine's parser and the selection checked against it; only
    known fields are kept, in a fixed order, so equal situations store equal text."""
    unknown = [k for k in data if k not in SITUATION_FIELDS + SELECTION_FIELDS]
    if unknown:
        raise ApiError(f"unknown field {unknown[0]!r}; a saved situation has "
                       f"{', '.join(SITUATION_FIELDS + SELECTION_FIELDS)}", field=unknown[0])
    situation = situation_from(data)
    # the face as its content id ("WINTER" is stored as "winter"), so equal boards store equal text
    document = {k: situation.face if k == "face" else data[k] for k in SITUATION_FIELDS if k in data}
    if document.get("face") is None:
        document.pop("face", None)
    if "units" in document:
        document["units"] = _known_fields(document["units"], UNIT_FIELDS)
    if "hexes" in document:
        document["hexes"] = _known_fields(document["hexes"], HEX_FIELDS)
    for name in ("attacker", "target"):
        value = data.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not any(u.id == value for u in situation.units):
            raise ApiError(f"`{name}` must be the id of a unit in the situation", field=name, code="unknown_unit")
        document[name] = value
    rb = rulebook()
    for name, kind in (("card", "command_card"), ("combat_card", "combat_card")):
        value = data.get(name)
        if value is None:
            continue
        entry_id = rb.resolve(value, kind) if isinstance(value, str) and len(value) <= 80 else None
        if entry_id is None:
            raise ApiError(f"`{name}` must name a {kind.replace('_', ' ')}", field=name)
        document[name] = entry_id
    if bool_field(data, "overrun_battle"):
        document["overrun_battle"] = True
    if data.get("flags") is not None:
        flags = data["flags"]
        if isinstance(flags, bool) or not isinstance(flags, int) or not 1 <= flags <= MAX_FLAGS:
            raise ApiError(f"`flags` must be a whole number from 1 to {MAX_FLAGS}", field="flags")
        document["flags"] = flags
    if data.get("play") is not None:
        document["play"] = _play(data["play"])
    if data.get("title") is not None:
        title = data["title"]
        if not isinstance(title, str) or len(title) > MAX_TITLE:
            raise ApiError(f"`title` must be text of at most {MAX_TITLE} characters", field="title")
        if title.strip():
            document["title"] = title.strip()
    return document


def _play(value: Any) -> dict[str, Any]:
    """How the card was played ("Play a card"): the side ordering, the section, the card a
    Counter-Attack copies and the dice rolled for Their Finest Hour, each checked as ``/order``
    checks it; the units ordered are marked on the units themselves (``ordered``)."""
    if not isinstance(value, dict) or set(value) - {"side", "section", "copied_card", "rolled"}:
        raise ApiError("`play` must be an object with side, section, copied_card and rolled", field="play")
    play: dict[str, Any] = {}
    if value.get("side") is not None:
        if value["side"] not in SIDES:
            raise ApiError(f"`play.side` must be one of {', '.join(SIDES)}", field="play.side")
        play["side"] = value["side"]
    try:
        section = api.section_of(value.get("section"), "play.section")
        if section:
            play["section"] = section
        copied = value.get("copied_card")
        if copied is not None:
            if not isinstance(copied, dict):
                raise api.RequestError("play.copied_card", "`play.copied_card` must be like {\"card\": \"attack\"}")
            card = api.card_of({"play.copied_card.card": copied.get("card")}, "play.copied_card.card", "command_card",
                               rulebook())
            if card is None:
                raise api.RequestError("play.copied_card.card", "`play.copied_card.card` is required")
            play["copied_card"] = {"card": card}
            copied_section = api.section_of(copied.get("section"), "play.copied_card.section")
            if copied_section:
                play["copied_card"]["section"] = copied_section
        if value.get("rolled") is not None:
            rolled = api.engine_call(lambda: parse_rolled(value["rolled"], rulebook()))
            play["rolled"] = {face: n for face, n in rolled.items() if n}
    except api.RequestError as exc:
        raise ApiError(exc.message, field="play.rolled" if exc.field == "rolled" else exc.field) from None
    return play


def _already_saved(digest: str) -> SavedSituation | None:
    """The situation already stored with this exact text, if any (one query)."""
    found = select(SavedSituation).join(SaveDigest, SaveDigest.saved_id == SavedSituation.id)
    return get_session().exec(found.where(SaveDigest.digest == digest)).first()


def _created(row: SavedSituation) -> Any:
    response = jsonify(_saved_json(row))
    response.status_code = 201
    response.headers["Location"] = url_for("builder.saved_page", saved_id=row.id)
    return response


def _known_fields(items: Any, fields: tuple[str, ...]) -> Any:
    """A list of hexes or units with only the fields the parser reads (it has validated them);
    anything else a client sent is dropped rather than stored."""
    if not isinstance(items, list):
        return items
    kept = []
    for item in items:
        copy = {k: item[k] for k in fields if isinstance(item, dict) and k in item}
        if isinstance(copy.get("moved_from"), dict):
            copy["moved_from"] = _hex_only(copy["moved_from"])
        if isinstance(copy.get("path"), list):
            copy["path"] = [_hex_only(h) if isinstance(h, dict) else h for h in copy["path"]]
        kept.append(copy)
    return kept


def _hex_only(value: dict[str, Any]) -> dict[str, Any]:
    return {k: value[k] for k in ("row", "col") if k in value}


def _load(saved_id: str) -> SavedSituation | None:
    if not SAVED_ID.match(saved_id):
        return None
    return get_session().get(SavedSituation, saved_id)


def _saved_json(row: SavedSituation) -> dict[str, Any]:
    return {
        "id": row.id,
        "url": url_for("builder.saved_page", saved_id=row.id),
        "api_url": url_for("builder.load", saved_id=row.id),
        "created_at": row.created_at.isoformat(),
        "size": row.size,
        "situation": json.loads(row.data),
    }
