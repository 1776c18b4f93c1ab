"""The GETs whose answer depends only on the build, rendered once into files nginx sends itself.

Every rule page (``/rules/<kind>/<id>``), every list of a kind, the index ``/rules/`` and the
offline search data (``/api/v1/search-data``) are the same bytes for every visitor until the
content, the templates or the code change. Rendered by the app itself (its test client, so the
bytes are exactly what a worker would answer) into ``build/pages/<stamp>/`` with a gzip and a
brotli twin each, they are answered by nginx at its own speed, like the static files, and never
reach a worker. Anything else under those paths (a wrong kind, an unknown id, a trailing-slash
redirect) has no file and goes to the app as before.

``stamp`` is a digest of everything the bytes depend on (the content, the templates, the Python
package, the static files' hashes); a build with an unchanged stamp renders nothing, so a restart
costs no app start of its own. Folders of older stamps are kept (a running server may still be
sending them) up to ``KEEP``."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adjudicator import REPO_ROOT
from adjudicator.serving.static import COMPRESSIBLE, _compress, _write

KEEP = 3
RENDERED_BROTLI = 5
"""Brotli quality of the rendered pages: within 12 % of quality 11's size at a tenth of its time
(the pages are rendered again whenever the code or the content changes; 0.4 s instead of 6 s)."""
HEADERS = ".headers.json"
SEARCH_DATA = "/api/v1/search-data"


def stamp(manifest: dict[str, str]) -> str:
    """A digest of every input of the rendered pages."""
    digest = hashlib.sha256()
    for root, pattern in ((REPO_ROOT / "content", "*"), (REPO_ROOT / "templates", "*"),
                          (REPO_ROOT / "adjudicator", "*.py"), (REPO_ROOT / "adjudicator" / "static_templates", "*")):
        for path in sorted(root.rglob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(REPO_ROOT)).encode() + b"\0" + path.read_bytes())
    for name, version in sorted(manifest.items()):
        digest.update(f"{name}={version}\n".encode())
    return digest.hexdigest()[:16]


def urls(app: Any) -> Iterator[str]:
    """Every URL rendered ahead: the rule index, each kind's list, each entry, the search data."""
    from adjudicator.content.documents import KIND_LABELS

    yield "/rules/"
    for kind in KIND_LABELS:
        yield f"/rules/{kind}/"
    for entry in app.extensions["catalogue"].entries.values():
        yield f"/rules/{entry.kind}/{entry.id}"
    yield SEARCH_DATA


def file_for(url: str) -> str:
    """Where a URL's body lives under the stamp's folder (what nginx's ``try_files`` looks for)."""
    if url == SEARCH_DATA:
        return url.lstrip("/") + ".json"
    return url.lstrip("/") + ("index.html" if url.endswith("/") else ".html")


def render(instance: Path, root: Path, manifest: dict[str, str]) -> Path | None:
    """The folder of the current stamp's pages under ``root``, rendered now if missing; None when
    the app cannot render them (content that does not validate, no database yet): nginx then
    passes every such GET to the app."""
    folder = root / stamp(manifest)
    if (folder / ".complete").exists():
        return folder
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / ".complete").exists():
            return folder
        partial = root / f".partial-{os.getpid()}"
        shutil.rmtree(partial, ignore_errors=True)
        try:
            _render_into(instance, partial)
        except Exception as exc:  # any failure: the app serves these pages
            shutil.rmtree(partial, ignore_errors=True)
            print(f"pages not rendered ahead ({type(exc).__name__}: {exc}); the app serves them", flush=True)
            return None
        (partial / ".complete").touch()
        os.replace(partial, folder)
        _prune(root, folder)
    return folder


def _render_into(instance: Path, target: Path) -> None:
    from adjudicator import create_app

    app = create_app({"INSTANCE_PATH": str(instance), "SKIP_BUILD": True, "RATELIMIT_ENABLED": False})
    if "catalogue" not in app.extensions:
        raise RuntimeError("the content does not validate")
    client = app.test_client()
    cache_control: dict[str, str] = {}
    for url in urls(app):
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        group = SEARCH_DATA if url == SEARCH_DATA else "/rules/"
        given = response.headers.get("Cache-Control", "")
        if cache_control.setdefault(group, given) != given:
            raise RuntimeError(f"{url} has Cache-Control {given!r}, other {group} pages {cache_control[group]!r}")
        body = response.get_data()
        path = target / file_for(url)
        _write(path, body, None)
        if path.suffix in COMPRESSIBLE or path.suffix == ".html":
            for suffix in (".gz", ".br"):
                _write(path.with_name(path.name + suffix), _compress(body, suffix, RENDERED_BROTLI), None)
    _write(target / HEADERS, json.dumps(cache_control).encode(), None)


def cache_control(folder: Path) -> dict[str, str]:
    """The ``Cache-Control`` the app gives each group of rendered URLs ("/rules/", the search data),
    so nginx sends the same."""
    headers: dict[str, str] = json.loads((folder / HEADERS).read_text())
    return headers


def _prune(root: Path, current: Path) -> None:
    done = sorted((p for p in root.iterdir() if p.is_dir() and (p / ".complete").exists() and p != current),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for old in done[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)
