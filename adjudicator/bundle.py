"""The builder's ES modules bundled into one minified file, by esbuild (npm, pinned in
``adjudicator/bundler/package-lock.json``; the Makefile installs it into
``adjudicator/bundler/node_modules/`` and runs ``python -m adjudicator.bundle`` whenever a module
changes).

Why: the builder page used to load ``builder.js`` and the 22 modules it imports as 23 requests
(86 KB gzipped, comments and all). Over HTTP/1.1 a browser asks six at a time, so on a slow phone
network that was four round trips or more before the first ruling could be asked for; the bundle
is one request of 41 KB. Lighthouse's phone counted those requests into the builder's largest
paint (2.0-2.1 s, score 99; with the bundle 1.4-1.6 s, score 100: docs/measurements.md).

The sources under ``static/js/`` stay as they are, readable and linted; the page loads only the
bundle (``BUNDLE``), generated beside them and never in git. esbuild keeps ``import.meta.url``,
and the bundle sits in the same folder as the modules, so the URLs they make from it (the
offline engine's worker) are unchanged. Run as ``python -m adjudicator.bundle [OUT]``."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STATIC = PACKAGE / "static"
ENTRY = "js/builder.js"
"""The builder's entry module, under ``STATIC``."""
BUNDLE = "js/builder.bundle.js"
"""The bundle, under ``STATIC`` (the page's one script of the builder's own)."""
ESBUILD = PACKAGE / "bundler" / "node_modules" / ".bin" / "esbuild"
FLAGS = ("--bundle", "--format=esm", "--minify", "--charset=utf8", "--log-level=warning")
"""ES module out (the page loads it as one), minified, non-ASCII text (→, ✔) kept as UTF-8."""


class BundlerMissing(RuntimeError):
    """esbuild is not installed: ``make build`` installs it."""


def bundle(out: Path, metafile: Path | None = None) -> None:
    """Write the bundle of ``ENTRY`` and everything it imports to ``out`` (and, given
    ``metafile``, esbuild's account of its inputs there)."""
    if not ESBUILD.exists():
        raise BundlerMissing(f"{ESBUILD} is missing: `make build` installs it (npm ci in {ESBUILD.parents[2]})")
    meta = [f"--metafile={metafile}"] if metafile else []
    subprocess.run([str(ESBUILD), str(STATIC / ENTRY), *FLAGS, *meta, f"--outfile={out}"], check=True)


IMPORTED = re.compile(r"""\b(?:import|export)\b[^'";]*?\bfrom\s*['"](\.\.?/[^'"]+)['"]"""
                      r"""|\bimport\s*\(?\s*['"](\.\.?/[^'"]+)['"]""")
"""A static ``import … from './x.js'`` / ``export … from``, a bare ``import './x.js'`` or a
dynamic ``import('./x.js')``: what esbuild follows from ``ENTRY`` into the bundle."""


@cache
def sources(static: Path = STATIC) -> frozenset[str]:
    """The modules the bundle is made of (``ENTRY`` and every module it imports, under
    ``static``), as paths relative to ``static``: the pages load none of them on their own, so
    the service worker need not keep them (``web.offline.precache_urls``). A test checks this
    list against the inputs esbuild itself reports. Read once per process."""
    found: set[str] = set()
    waiting = [ENTRY]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        text = (static / name).read_text(encoding="utf-8")
        for match in IMPORTED.finditer(text):
            target = (static / name).parent / (match[1] or match[2])
            waiting.append(target.resolve().relative_to(static.resolve()).as_posix())
    return frozenset(found)


if __name__ == "__main__":
    bundle(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC / BUNDLE)
