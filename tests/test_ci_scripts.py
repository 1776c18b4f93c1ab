"""The CI helper scripts must return: CI that waits for ever is as red as CI that fails."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / ".ci" / "postgres.sh"


def test_postgres_script_returns_after_starting_the_server(tmp_path: Path) -> None:
    """`make test` reads the URL through `$(bash .ci/postgres.sh)`. The server that script starts
    must not inherit that pipe, or the command substitution never sees end-of-file and the whole
    test run hangs (it once stalled CI for 90 minutes). The script is called the way the Makefile
    calls it, with a time limit, on a throwaway cluster of this test's own (it creates and starts
    it): the run's own server, and every other clone's, is left alone."""
    name = f"adj_citest_{os.getpid()}"
    out, err = tmp_path / "out", tmp_path / "err"
    env = {**os.environ, "ADJUDICATOR_PG_CLUSTER": name}
    try:
        with out.open("w") as stdout, err.open("w") as stderr:
            finished = subprocess.run(
                ["timeout", "90", "bash", "-c", f'url=$(bash "{SCRIPT}") && echo "$url"'],
                stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, timeout=150, env=env,
            )
        assert finished.returncode == 0, f"exit {finished.returncode} (124 is the time limit): {err.read_text()}"
        url = out.read_text()
        assert url.startswith("postgresql+psycopg://adjudicator:adjudicator@127.0.0.1:")
        assert url.strip() != os.environ.get("TEST_DATABASE_URL", ""), "the run's own server was reused"
    finally:
        versions = [p.name for p in Path("/etc/postgresql").iterdir() if (p / name).is_dir()]
        for version in versions:
            subprocess.run(["pg_dropcluster", "--stop", version, name], timeout=60, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_each_clone_gets_a_postgres_cluster_of_its_own() -> None:
    """Two clones running `make test` at once must not share (and drop) one test database, and the
    suite must never stop a server it did not start: the script names the cluster after the clone's
    path and never touches Debian's ``main`` cluster."""
    script = SCRIPT.read_text()
    assert 'adj_$(printf' in script and "sha1sum" in script
    commands = [line for line in script.splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in commands if "main" in line.split()], "the script names Debian's main cluster"
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set (a bare pytest run): no cluster to look at")
    port = url.rsplit(":", 1)[1].split("/", 1)[0]
    rows = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True, timeout=30)
    names = [line.split()[1] for line in rows.stdout.splitlines() if line.split()[2:3] == [port]]
    expected = "adj_" + hashlib.sha1(str(REPO.resolve()).encode()).hexdigest()[:12]
    assert names == [expected]


def test_the_venv_setuptools_has_no_known_advisories() -> None:
    """``python -m venv`` bundles setuptools 65.5.0 (path traversal and code injection advisories,
    fixed by 78.1.1): the Makefile makes the venv without it and installs a fixed one."""
    from importlib.metadata import version

    major, minor, patch = (int(part) for part in version("setuptools").split(".")[:3])
    assert (major, minor, patch) >= (78, 1, 1)
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    assert "--without-pip" in makefile
    assert '"setuptools>=78.1.1"' in makefile


def test_make_serve_runs_the_build_only_when_a_source_is_newer_than_its_stamp(tmp_path: Path) -> None:
    """`make serve` on an instance folder builds first (`flask build`: database, index, engine
    bundle) and leaves a stamp there; a restart on unchanged files goes straight to the stack
    (``python -m adjudicator.serving``: nginx and gunicorn), and a source newer than the stamp (an
    edited content file) builds again. Dry runs (`make -n`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
    env["ADJUDICATOR_INSTANCE"] = str(tmp_path)

    def planned() -> str:
        run = subprocess.run(["make", "-n", "serve", "PORT=1"], cwd=REPO, env=env, capture_output=True, text=True,
                             timeout=60, check=True)
        assert "-m adjudicator.serving" in run.stdout
        return run.stdout

    assert "adjudicator build" in planned()  # a new instance folder
    stamp = tmp_path / ".built"
    assert f"touch {stamp}" in planned()
    stamp.touch()
    assert "adjudicator build" not in planned()
    content = min((REPO / "content").rglob("*.md"))
    os.utime(stamp, (content.stat().st_mtime - 60,) * 2)  # as if that content file was edited since
    assert "adjudicator build" in planned()
