"""Rule pages: home, one list per kind, one page per entry (``/rules/<kind>/<id>``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from markupsafe import Markup, escape
from sqlmodel import col, select

from adjudicator.content.documents import KIND_LABELS
from adjudicator.content.facts import FactRow, describe
from adjudicator.db import get_session
from adjudicator.engine.orders import order_summary
from adjudicator.models import CrossRef, EntryRow
from adjudicator.web.context import current_catalogue, current_rulebook

bp = Blueprint("pages", __name__)


def entry_link(entry_id: str) -> Markup | None:
    entry = current_catalogue().entries.get(entry_id)
    if entry is None:
        return None
    url = url_for("pages.entry", kind=entry.kind, entry_id=entry.id)
    return Markup(f'<a href="{escape(url)}">{escape(entry.meta.name)}</a>')


@bp.get("/")
def home() -> str:
    counts = Counter(get_session().exec(select(EntryRow.kind)).all())
    featured = ["line_of_sight", "range_and_dice", "retreat", "forest", "hill", "town", "armor", "artillery"]
    entries = {row.id: row for row in get_session().exec(select(EntryRow).where(col(EntryRow.id).in_(featured))).all()}
    return render_template(
        "home.html", counts=counts, featured=[entries[i] for i in featured if i in entries]
    )


@bp.get("/rules/")
def index() -> str:
    return _kept("/rules/", _render_index)


def _render_index() -> str:
    rows = get_session().exec(select(EntryRow).order_by(EntryRow.name)).all()
    by_kind: dict[str, list[EntryRow]] = {kind: [] for kind in KIND_LABELS}
    for row in rows:
        by_kind[row.kind].append(row)
    return render_template("rules_index.html", by_kind=by_kind)


def _kept(key: str, render: Any) -> str:
    """A page that changes only with a content build, rendered once per worker and kept."""
    catalogue = current_app.extensions["catalogue"]
    cache: dict[tuple[str, str], str] = current_app.extensions.setdefault("list_pages", {})
    found = cache.get((key, catalogue.content_hash))
    if found is None:
        found = cache[(key, catalogue.content_hash)] = render()
    return found


@bp.get("/rules/<kind>/")
def kind_list(kind: str) -> str:
    if kind not in KIND_LABELS:
        abort(404, description=f"There is no kind of rule called {kind!r}.")
    def render() -> str:
        rows = get_session().exec(select(EntryRow).where(EntryRow.kind == kind).order_by(EntryRow.name)).all()
        return render_template("kind_list.html", kind=kind, rows=rows)

    return _kept(f"/rules/{kind}/", render)


PAGE_CACHE_SIZE = 512


@bp.get("/rules/<kind>/<entry_id>")
def entry(kind: str, entry_id: str) -> Any:
    catalogue = current_catalogue()
    known = catalogue.entries.get(entry_id)
    if known is not None and known.kind != kind:  # permalinks stay valid if the kind is guessed wrong
        return redirect(url_for("pages.entry", kind=known.kind, entry_id=entry_id), 301)
    # A rule page changes only with a content build, so each process keeps what it rendered.
    cache: dict[tuple[str, str], str] = current_app.extensions.setdefault("entry_pages", {})
    key = (entry_id, catalogue.content_hash)
    if key not in cache:
        if len(cache) >= PAGE_CACHE_SIZE:
            cache.clear()
        cache[key] = render_entry(kind, entry_id)
    return cache[key]


ORDER_FIELDS = ("order_groups", "roll_orders", "copies_last_card", "reaction", "fixed_dice", "orders_documented")
"""The fields that say what a command card orders, in the order the one-line summary leans on them."""


def order_row(kind: str, entry_id: str, facts: dict[str, Any]) -> list[FactRow]:
    """A command card's order in one line, worded by the engine from its fields (``order_summary``),
    cited as the field it rests on."""
    key = next((f for f in ORDER_FIELDS if f in facts and facts[f] not in (None, [], {})), None)
    if kind != "command_card" or key is None or entry_id not in current_rulebook().kinds:
        return []
    return [FactRow(key, "Orders", escape(order_summary(current_rulebook(), entry_id)))]


def render_entry(kind: str, entry_id: str) -> str:
    session = get_session()
    row = session.get(EntryRow, entry_id)
    if row is None:
        abort(404, description=f"No rule entry has the id {entry_id!r}.")
    linked = session.exec(select(CrossRef).where(CrossRef.target_id == entry_id)).all()
    variants = list(dict.fromkeys(c.source_id for c in linked if c.relation == "base"))
    # One link per entry: a variant is listed as a variant only, never again under "see also".
    see_also = [i for i in dict.fromkeys([*row.see_also, *(c.source_id for c in linked if c.relation == "see_also")])
                if i not in variants and i != entry_id]
    names = {
        r.id: r for r in session.exec(select(EntryRow).where(col(EntryRow.id).in_([*see_also, *variants]))).all()
    }
    base = session.get(EntryRow, row.base) if row.base else None
    catalogue = current_catalogue()
    return render_template(
        "entry.html",
        row=row,
        facts=[*order_row(row.kind, entry_id, row.facts), *describe(row.facts, entry_link)],
        sources=catalogue.entries[entry_id].meta.sources,
        terms=catalogue.entries[entry_id].meta.terms,
        citations=catalogue.citations[entry_id],
        origins={c.entry: catalogue.entries[c.entry] for c in catalogue.citations[entry_id].values()
                 if c.entry != entry_id},
        see_also=[names[i] for i in see_also if i in names],
        variants=[names[i] for i in variants if i in names],
        base=base,
    )
