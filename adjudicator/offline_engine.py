"""The files behind offline rulings: Pyodide and the engine bundle, under ``static/offline/``.

The builder can run the rules engine on the phone (``static/js/engine-worker.js``) with
Pyodide, CPython compiled to WebAssembly. Two kinds of file make that work, both generated (never
in git, see ``.gitignore``):

- ``static/offline/pyodide-<version>/``: the pinned Pyodide core, fetched by ``make build`` with
  the system's ``npm`` and copied here by ``flask offline build --pyodide-from <package dir>``.
  Only the five files the loader needs are kept; each also gets a ``.gz`` twin so the server sends
  ~5.5 MB instead of ~12 MB (see ``serve_precompressed``).
- ``static/offline/engine-<hash>.zip``: the package ``adjudicator/engine/`` plus
  ``rulebook.json`` (``engine.compiled``: every structured field the engine reads). The hash of
  the zip is in its name, so a change to the engine or the content gives a new URL that phones
  fetch again, and an old bundle can be cached forever.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

from adjudicator.engine.compiled import rulebook_to_json
from adjudicator.engine.rulebook import Rulebook

PYODIDE_VERSION = "0.29.3"  # npm package ``pyodide``, MPL-2.0; Makefile PYODIDE_VERSION must match
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
OFFLINE_DIR = "offline"
ENGINE_DIR = Path(__file__).resolve().parent / "engine"
ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so the same sources give the same bytes and hash
PACKAGE_INIT = b'"""The adjudicator rules engine, packed for the browser (offline rulings)."""\n'


def pyodide_dir(static_folder: str | Path) -> Path:
    return Path(static_folder) / OFFLINE_DIR / f"pyodide-{PYODIDE_VERSION}"


def install_pyodide(package_dir: Path, static_folder: str | Path) -> Path:
    """Copy the loader, wasm, stdlib and lock file of an unpacked ``pyodide`` npm package into the
    static files (with ``.gz`` twins); older Pyodide versions there are removed."""
    target = pyodide_dir(static_folder)
    for old in target.parent.glob("pyodide-*"):
        if old != target:
            shutil.rmtree(old)
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        data = (package_dir / name).read_bytes()
        (target / name).write_bytes(data)
        (target / f"{name}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    return target


def pack_engine(rulebook: Rulebook) -> bytes:
    """A zip holding ``adjudicator/engine/*.py`` and ``rulebook.json``; same input, same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        def add(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)

        add("adjudicator/__init__.py", PACKAGE_INIT)
        for path in sorted(ENGINE_DIR.glob("*.py")):
            add(f"adjudicator/engine/{path.name}", path.read_bytes())
        add("rulebook.json", rulebook_to_json(rulebook).encode())
    return buffer.getvalue()


def bundle_name(data: bytes) -> str:
    return f"engine-{hashlib.sha256(data).hexdigest()[:12]}.zip"


def write_bundle(static_folder: str | Path, rulebook: Rulebook) -> str:
    """Write the current engine bundle (removing older ones); its path under the static folder."""
    data = pack_engine(rulebook)
    name = bundle_name(data)
    folder = Path(static_folder) / OFFLINE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("engine-*.zip"):
        if old.name != name:
            old.unlink()
    path = folder / name
    if not path.exists() or path.read_bytes() != data:
        # Whole or not at all: another server process may be serving this very file.
        partial = path.with_name(f".{name}.{os.getpid()}")
        partial.write_bytes(data)
        os.replace(partial, path)
    return f"{OFFLINE_DIR}/{name}"


_BUNDLES: dict[tuple[str, int], str | None] = {}


def _bundle(static_folder: str, rulebook: Rulebook) -> str | None:
    """The bundle of this rulebook, written once per process."""
    key = (static_folder, id(rulebook))
    if key not in _BUNDLES:
        try:
            _BUNDLES[key] = write_bundle(static_folder, rulebook)
        except OSError:
            _BUNDLES[key] = None  # a read-only static folder that lacks this bundle: no offline rulings
    return _BUNDLES[key]


def offline_assets(static_folder: str, rulebook: Rulebook) -> dict[str, Any] | None:
    """What the builder needs to make rulings work offline, or None when Pyodide is not installed
    (``make build`` not run) — the builder then simply does not offer it.

    The bundle is (re)written when missing, so a content edit never serves a stale engine."""
    base = pyodide_dir(static_folder)
    if not all((base / name).is_file() for name in PYODIDE_FILES):
        return None
    bundle = _bundle(static_folder, rulebook)
    if bundle is None:
        return None
    root = Path(static_folder)
    sent = sum(_sent_size(root / f"{OFFLINE_DIR}/{base.name}/{name}") for name in PYODIDE_FILES)
    sent += (root / bundle).stat().st_size
    return {
        "pyodide_version": PYODIDE_VERSION,
        "index": f"{OFFLINE_DIR}/{base.name}/",
        "files": [f"{OFFLINE_DIR}/{base.name}/{name}" for name in PYODIDE_FILES],
        "bundle": bundle,
        "bytes": sent,
    }


def _sent_size(path: Path) -> int:
    """Bytes on the wire for a static file: its ``.gz`` twin when there is one."""
    twin = path.with_name(path.name + ".gz")
    return (twin if twin.is_file() else path).stat().st_size
