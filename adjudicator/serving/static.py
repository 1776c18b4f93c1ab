"""The static files as nginx sends them: copied once per build, each compressible one with a gzip
and a brotli twin made here, never per request, and a manifest of every file's content hash.

The tree (``build/static/`` of the clone, shared by every instance folder served from it) mirrors
``adjudicator/static/``. nginx answers ``/static/<path>`` from it with ``sendfile`` (the kernel
copies the file to the socket: no worker reads it into memory, so a slow reader of the 8.6 MB
wasm costs a file descriptor, not megabytes) and ``gzip_static`` / ``brotli_static`` (the twin
when the client accepts it). The manifest gives each file's hash as the app computes it
(``web.security.asset_version``), so the proxy marks a URL immutable exactly when its ``?v=`` is
that hash, as the app does when it serves the files itself (``make run``).

The sync is incremental (a file whose size and modification time match its copy is left alone)
and safe under a running server and a concurrent sync (each file is written aside and renamed
into place; one sync at a time holds a lock), so every `make serve` start runs it."""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import brotli  # flask-compress's dependency

MANIFEST = ".manifest.json"
COMPRESSIBLE = (".css", ".js", ".mjs", ".json", ".svg", ".html", ".txt", ".map", ".wasm", ".webmanifest",
                ".xml", ".ico")
"""Suffixes worth a compressed twin (zip, png and woff2 are compressed already)."""
MIN_SIZE = 512
"""Below this a twin saves less than its headers cost."""
BROTLI_QUALITY = 11
BROTLI_QUALITY_LARGE = 6
LARGE = 1024 * 1024
"""Quality 11 takes seconds per megabyte: files above a megabyte (Pyodide's) get quality 6,
still smaller than their gzip twin."""
HASH_LENGTH = 10
"""As ``web.security.asset_version``: the first 10 hex digits of the SHA-256."""


@dataclass(frozen=True)
class Synced:
    """What a sync did: files copied, twins written, stale files removed, files in the tree."""

    copied: int
    twins: int
    removed: int
    files: int


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_LENGTH]


def sources(source: Path) -> list[Path]:
    """The files to serve: every file under ``source`` except the ``.gz`` twins a build already
    made there (Pyodide's), which are reused as this tree's twins."""
    return sorted(p for p in source.rglob("*") if p.is_file() and not _is_twin(p, source))


def _is_twin(path: Path, root: Path) -> bool:
    return path.suffix in (".gz", ".br") and path.with_suffix("").is_file() and root in path.parents


def sync(source: Path, target: Path) -> Synced:
    """Bring ``target`` in line with ``source`` (see the module docstring); returns what it did."""
    target.mkdir(parents=True, exist_ok=True)
    with open(target / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _sync(source, target)


def _sync(source: Path, target: Path) -> Synced:
    old_manifest = _read_manifest(target)
    manifest: dict[str, str] = {}
    copied = twins = 0
    keep: set[Path] = set()
    for path in sources(source):
        rel = path.relative_to(source).as_posix()
        copy = target / rel
        keep.add(copy)
        stat = path.stat()
        current = copy.is_file() and _same(stat, copy.stat()) and rel in old_manifest
        if current:
            manifest[rel] = old_manifest[rel]
        else:
            data = path.read_bytes()
            manifest[rel] = content_hash(data)
            _write(copy, data, stat.st_mtime_ns)
            copied += 1
        if path.suffix in COMPRESSIBLE and stat.st_size >= MIN_SIZE:
            for suffix in (".gz", ".br"):
                twin = copy.with_name(copy.name + suffix)
                keep.add(twin)
                if current and twin.is_file():
                    continue
                given = path.with_name(path.name + suffix)
                data = path.read_bytes()
                packed = given.read_bytes() if given.is_file() else _compress(data, suffix)
                _write(twin, packed, stat.st_mtime_ns)
                twins += 1
    removed = 0
    for stale in [p for p in target.rglob("*") if p.is_file() and p not in keep and p.parent != target]:
        stale.unlink()
        removed += 1
    for folder in sorted((p for p in target.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(folder.iterdir()):
            folder.rmdir()
    _write(target / MANIFEST, json.dumps(manifest, indent=0, sort_keys=True).encode(), None)
    return Synced(copied=copied, twins=twins, removed=removed, files=len(manifest))


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


def _compress(data: bytes, suffix: str, quality: int | None = None) -> bytes:
    if suffix == ".gz":
        return gzip.compress(data, compresslevel=9, mtime=0)
    if quality is None:
        quality = BROTLI_QUALITY if len(data) <= LARGE else BROTLI_QUALITY_LARGE
    compressed: bytes = brotli.compress(data, quality=quality)
    return compressed


def _write(path: Path, data: bytes, mtime_ns: int | None) -> None:
    """Whole or not at all: nginx may be sending the file being replaced."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    if mtime_ns is not None:
        os.utime(partial, ns=(mtime_ns, mtime_ns))
    os.replace(partial, path)


def _read_manifest(target: Path) -> dict[str, str]:
    try:
        data = json.loads((target / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def manifest(target: Path) -> dict[str, str]:
    """``{path under /static/: content hash}`` of the last sync."""
    return _read_manifest(target)


def clear(target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
