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

import subprocess
import sys
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


def bundle(out: Path) -> None:
    """Write the bundle of ``ENTRY`` and everything it imports to ``out``."""
    if not ESBUILD.exists():
        raise BundlerMissing(f"{ESBUILD} is missing: `make build` installs it (npm ci in {ESBUILD.parents[2]})")
    subprocess.run([str(ESBUILD), str(STATIC / ENTRY), *FLAGS, f"--outfile={out}"], check=True)


if __name__ == "__main__":
    bundle(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC / BUNDLE)
