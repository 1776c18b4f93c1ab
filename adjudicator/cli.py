"""``flask --app adjudicator content check|build``, ``offline build`` and ``build`` (both builds)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from adjudicator.config import current
from adjudicator.content.documents import KIND_LABELS
from adjudicator.content.loader import ContentError, load_catalogue


@click.group("content")
def content_cli() -> None:
    """Validate and build the rule content."""


@content_cli.command("check")
@with_appcontext
def check() -> None:
    """Validate every entry; exit 1 listing each problem as ``file: field: message``."""
    try:
        catalogue = load_catalogue(current().content_dir)
    except ContentError as exc:
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        raise SystemExit(1) from None
    counts = Counter(entry.kind for entry in catalogue.entries.values())
    click.echo(f"content OK: {len(catalogue.entries)} entries")
    for kind in KIND_LABELS:
        click.echo(f"  {kind:13} {counts.get(kind, 0)}")


@content_cli.command("build")
@click.option("--force", is_flag=True, help="Rebuild even if the content did not change.")
@with_appcontext
def build(force: bool) -> None:
    """Build the database and search index into instance/ (only when content changed)."""
    from adjudicator import db
    from adjudicator.build import ensure_built

    if "content_error" in current_app.extensions:
        for problem in current_app.extensions["content_error"].problems:
            click.echo(str(problem), err=True)
        raise SystemExit(1)
    catalogue = current_app.extensions["catalogue"]
    from adjudicator.app import read_only_instance

    if read_only_instance(Path(current_app.instance_path)):
        # `make serve` on a read-only volume: serve what was built there (``create_app``)
        click.echo(f"instance {current_app.instance_path} is read-only: not rebuilt, served as it is")
        return
    ran = ensure_built(catalogue, db.get_engine(), Path(current_app.instance_path), force=force)
    click.echo("built" if ran else "up to date", nl=False)
    click.echo(f": {len(catalogue.entries)} entries, content {catalogue.content_hash[:12]}")


@click.group("offline")
def offline_cli() -> None:
    """Files for offline rulings in the browser (Pyodide and the engine bundle)."""


@offline_cli.command("build")
@click.option("--pyodide-from", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="An unpacked `pyodide` npm package to copy the core files from.")
@with_appcontext
def offline_build(pyodide_from: Path | None) -> None:
    """Place Pyodide under the static files (when given) and write the engine bundle."""
    from adjudicator.offline_engine import install_pyodide, write_bundle

    if "content_error" in current_app.extensions:
        raise SystemExit("the content does not validate: run `make check`")
    static = current_app.static_folder or ""
    if pyodide_from is not None:
        click.echo(f"pyodide: {install_pyodide(pyodide_from, static)}")
    click.echo(f"engine bundle: {write_bundle(static, current_app.extensions['rulebook'])}")


@click.command("build")
@click.pass_context
def build_all(ctx: click.Context) -> None:
    """``content build`` then ``offline build`` in one process: what `make build` (and so every
    `make serve` start) runs. Two ``flask`` processes loaded the app and the content twice."""
    ctx.invoke(build, force=False)
    ctx.invoke(offline_build, pyodide_from=None)
