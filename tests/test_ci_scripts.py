"""The CI helper scripts must return: CI that waits for ever is as red as CI that fails."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / ".ci" / "postgres.sh"


def _run_script(name: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Call the script the way the Makefile does, `url=$(bash .ci/postgres.sh)`, with a time limit,
    on a throwaway cluster of the test's own (ADJUDICATOR_PG_CLUSTER)."""
    out, err = tmp_path / "out", tmp_path / "err"
    env = {**os.environ, "ADJUDICATOR_PG_CLUSTER": name}
    quoted = " ".join(args)
    with out.open("w") as stdout, err.open("w") as stderr:
        finished = subprocess.run(
            ["timeout", "150", "bash", "-c", f'url=$(bash "{SCRIPT}" {quoted}) && echo "$url"'],
            stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, timeout=200, env=env,
        )
    return subprocess.CompletedProcess(finished.args, finished.returncode, out.read_text(), err.read_text())


def _listed_port(name: str) -> str:
    rows = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True, timeout=30)
    return "".join(line.split()[2] for line in rows.stdout.splitlines() if line.split()[1:2] == [name])


def test_postgres_script_returns_after_starting_the_server(tmp_path: Path) -> None:
    """`make test` reads the URL through `$(bash .ci/postgres.sh)`. The server that script starts
    must not inherit that pipe, or the command substitution never sees end-of-file and the whole
    test run hangs (it once stalled CI for 90 minutes). The script creates and starts a throwaway
    cluster of this test's own: the run's own server, and every other clone's, is left alone."""
    name = f"adj_citest_{os.getpid()}"
    try:
        run = _run_script(name, tmp_path)
        assert run.returncode == 0, f"exit {run.returncode} (124 is the time limit): {run.stderr}"
        assert run.stdout.startswith("postgresql+psycopg://adjudicator:adjudicator@127.0.0.1:")
        assert run.stdout.strip() != os.environ.get("TEST_DATABASE_URL", ""), "the run's own server was reused"
    finally:
        _run_script(name, tmp_path, "--drop")
    assert _listed_port(name) == ""
    assert not any((version / name).exists() for version in Path("/etc/postgresql").iterdir())


def test_postgres_script_makes_again_a_cluster_whose_drop_was_cut_short(tmp_path: Path) -> None:
    """CI once found no server: a run elsewhere had dropped CI's cluster (its clone was gone there),
    pg_dropcluster left the configuration folder behind because our marker file sat in it, and the
    next run took that empty folder for a cluster, never created one and printed no URL. A folder
    that is no cluster is cleared and the cluster is made again."""
    if not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("TEST_DATABASE_URL is not set (a bare pytest run): PostgreSQL may not be installed")
    name = f"adj_citest_{os.getpid()}_cut"
    version = max((p for p in Path("/etc/postgresql").iterdir() if p.is_dir()), key=lambda p: int(p.name))
    leftover = version / name
    try:
        leftover.mkdir()
        (leftover / "adjudicator-clone").write_text(str(REPO))  # the marker in its old place
        run = _run_script(name, tmp_path)
        assert run.returncode == 0, f"exit {run.returncode}: {run.stderr}"
        port = _listed_port(name)
        assert port and run.stdout.strip().endswith(f"@127.0.0.1:{port}/adjudicator_test")
    finally:
        _run_script(name, tmp_path, "--drop")
    assert not leftover.exists()


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
