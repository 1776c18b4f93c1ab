"""The installable, offline web app: manifest, service worker, offline page, offline search data.

The service worker script is generated: it carries a version (a hash of the content and of
every static file and template) and the list of every URL the reference needs — every rule page,
the lists, the search page and its offline index, the builder and the static files. Any change to
the content or the site changes the version, so browsers install the new worker, which fills a
new cache and deletes the old one."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_file, url_for

from adjudicator import REPO_ROOT
from adjudicator.bundle import sources
from adjudicator.config import current
from adjudicator.content.documents import KIND_LABELS, SOURCES
from adjudicator.content.loader import Catalogue
from adjudicator.offline_engine import ENGINE_DIR, OFFLINE_DIR, PYODIDE_VERSION, offline_assets
from adjudicator.web.builder_data import builder_data
from adjudicator.web.context import current_catalogue, current_rulebook
from adjudicator.web.security import CSP, asset_version

bp = Blueprint("offline", __name__)

SHELL_PAGES = ("/", "/rules/", "/search", "/builder", "/offline")
BOARD_KINDS = ("standard", "overlord", "breakthrough")


def static_files(static_folder: str) -> list[str]:
    """The site's own static files. ``offline/`` (Pyodide and the engine bundle, ~12 MB) is left
    out: only a builder user who opts in to offline rulings downloads it."""
    root = Path(static_folder)
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*")
        if p.is_file() and p.relative_to(root).parts[0] != OFFLINE_DIR
    )


@cache
def site_version(content_hash: str, static_folder: str) -> str:
    """Changes whenever the content, a static file, a template, the engine or the Pyodide version
    changes (the precached ``/api/v1/offline-engine`` names the bundle and the Pyodide folder)."""
    digest = hashlib.sha256(content_hash.encode() + PYODIDE_VERSION.encode())
    for source in sorted(ENGINE_DIR.glob("*.py")):
        digest.update(source.name.encode() + source.read_bytes())
    for name in static_files(static_folder):
        digest.update(name.encode() + asset_version(static_folder, name).encode())
    for template in sorted((REPO_ROOT / "templates").glob("*.html")):
        digest.update(template.name.encode() + template.read_bytes())
    digest.update((Path(__file__).parent.parent / "static_templates" / "sw.js").read_bytes())
    return digest.hexdigest()[:12]


def precache_urls(catalogue: Catalogue) -> list[str]:
    """Every URL the reference needs offline."""
    static_folder = current_app.static_folder or ""
    urls: list[str] = [*SHELL_PAGES]
    urls += [url_for("pages.kind_list", kind=kind) for kind in KIND_LABELS]
    urls += [url_for("pages.entry", kind=e.kind, entry_id=e.id) for e in catalogue.entries.values()]
    urls += [url_for("sources.index"), *(url_for("sources.document", slug=d.slug) for d in SOURCES.values())]
    urls += [url_for("offline.search_data"), url_for("offline.manifest")]
    urls += [f"/api/v1/board/{kind}" for kind in BOARD_KINDS]
    urls.append(url_for("builder.data", v=builder_data()[1]))  # the builder's palette, boards, examples
    urls.append(url_for("offline.offline_engine"))
    # Each static file once, under the URL pages use (with its content hash); the worker answers
    # a request for the same file without the hash from that entry. The builder's modules are
    # left out: the page loads them as one bundle (``adjudicator.bundle``), and only the bundle
    # is kept (85 KB gzipped, 24 requests fewer on a first visit).
    bundled = sources(Path(static_folder))
    for name in static_files(static_folder):
        if name not in bundled:
            urls.append(url_for("static", filename=name, v=asset_version(static_folder, name)))
    return list(dict.fromkeys(urls))


@bp.get("/sw.js")
def service_worker() -> Response:
    catalogue = current_catalogue()
    version = site_version(catalogue.content_hash, current_app.static_folder or "")
    source = (Path(__file__).parent.parent / "static_templates" / "sw.js").read_text()
    script = source.replace("__VERSION__", json.dumps(version)).replace(
        "__PRECACHE__", json.dumps(precache_urls(catalogue), separators=(",", ":"))
    )
    response = Response(script, mimetype="application/javascript")
    response.headers["Cache-Control"] = "no-cache"  # browsers must see a new version at once
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    data = {
        "name": "adjudicator — Memoir '44 rules",
        "short_name": "adjudicator",
        "description": "Memoir '44 rules reference and situation builder that works offline.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf8f0",
        "theme_color": "#2f4a2a",
        "icons": [
            {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml",
             "purpose": "any"},
            {"src": url_for("static", filename="icons/maskable.svg"), "sizes": "any", "type": "image/svg+xml",
             "purpose": "maskable"},
        ],
    }
    response = Response(json.dumps(data), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/offline")
def offline_page() -> str:
    return render_template("offline.html")


@bp.get("/api/v1/search-data")
def search_data() -> Any:
    """A compact copy of what search needs, for searching in the browser when offline. The same
    bytes until the content or the index changes: built once per worker and kept (behind
    `make serve`'s proxy the file rendered ahead is sent instead, ``serving.pages``)."""
    from adjudicator import search

    catalogue = current_catalogue()
    generation = search.opened(Path(current_app.instance_path))
    key = (catalogue.content_hash, id(generation))
    kept = current_app.extensions.get("search_data")
    if kept is None or kept[0] != key:
        kept = current_app.extensions["search_data"] = (key, _search_data(catalogue))
    response = current_app.response_class(kept[1], mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


def _search_data(catalogue: Catalogue) -> bytes:
    entries = [
        [e.id, e.kind, e.meta.name, [*e.meta.aliases, *e.meta.terms], e.meta.summary,
         url_for("pages.entry", kind=e.kind, entry_id=e.id)]
        for e in catalogue.entries.values()
    ]
    synonyms_path = current().content_dir / "synonyms.yaml"
    return jsonify({
        "version": catalogue.content_hash[:12],
        "fields": ["id", "kind", "name", "aliases", "summary", "url"],
        "entries": entries,
        "synonyms": _synonyms(str(synonyms_path)),
        "ranking": _ranking(),
    }).get_data()


def _ranking() -> dict[str, Any]:
    """The server's search tables (``search.offline_tables``): offline search runs the same
    ranking on them, so answers match online ones."""
    from adjudicator import search

    instance = Path(current_app.instance_path)
    generation = search.opened(instance)
    if generation is None:
        search.ensure_index(current_catalogue(), instance)
        generation = search.opened(instance)
    if generation is None:
        raise LookupError("no search index")
    return search.offline_tables(generation)


@bp.get("/api/v1/offline-engine")
def offline_engine() -> Any:
    """Where the builder finds Pyodide and the engine bundle for offline rulings, the bytes the
    opt-in downloads, and the endpoints the local engine answers (``engine.api.ENDPOINTS``).
    ``available`` is false when ``make build`` has not fetched Pyodide."""
    from adjudicator.engine.api import ENDPOINTS

    assets = offline_assets(current_app.static_folder or "", current_rulebook())
    if assets is None:
        body: dict[str, Any] = {"available": False}
    else:
        body = {
            "available": True,
            "pyodide_version": assets["pyodide_version"],
            "index_url": url_for("static", filename=assets["index"]),
            "files": [url_for("static", filename=f) for f in assets["files"]],
            "bundle": url_for("static", filename=assets["bundle"]),
            "bytes": assets["bytes"],
            "endpoints": sorted(ENDPOINTS),
            "work_budget": current().engine_work_budget or None,
        }
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.before_app_request
def serve_precompressed() -> Response | None:
    """Pyodide's files have a ``.gz`` twin made at build time: send it to clients that accept
    gzip rather than compressing 8 MB of wasm on every request (or sending it raw)."""
    prefix = f"/static/{OFFLINE_DIR}/"
    if (request.method not in ("GET", "HEAD") or not request.path.startswith(prefix)
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return None
    root = Path(current_app.static_folder or "").resolve()
    path = (root / request.path[len("/static/"):]).resolve()
    twin = path.with_name(path.name + ".gz")
    if root not in path.parents or not path.is_file() or not twin.is_file():
        return None
    import mimetypes

    response = send_file(twin, mimetype=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
                         conditional=True, etag=True)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers.pop("Content-Disposition", None)
    return response


WORKER_PATH = "/static/js/engine-worker.js"
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")


@bp.after_app_request
def worker_policy(response: Response) -> Response:
    """The offline engine's worker compiles Pyodide's WebAssembly: only its own script gets
    ``'wasm-unsafe-eval'`` (a worker follows the policy of its script's response); every page
    keeps the strict policy."""
    if request.path == WORKER_PATH:
        response.headers["Content-Security-Policy"] = WORKER_CSP
    return response


@cache
def _synonyms(path: str) -> dict[str, list[str]]:
    """Slang -> what it means ("ht" -> ["half track"]), from the file the server search uses."""
    from adjudicator.search.whoosh_index import load_synonyms

    table = load_synonyms(Path(path)).table
    return {" ".join(key): [" ".join(v) for v in values] for key, values in table.items()}
