"""Shared fixtures: an app on a throwaway instance folder, its test client, a live server in a
thread, and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from werkzeug.serving import make_server

from adjudicator import create_app
from adjudicator.content.loader import Catalogue, content_dir, load_catalogue
from adjudicator.engine.rulebook import Rulebook

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "instance" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
if os.environ.get("PYTEST_XDIST_WORKER"):
    # `make test` runs more xdist workers than the machine has cores, so an example takes up to
    # twice its time alone: hypothesis' per-example deadline (200 ms by default, a guard against
    # slow examples rather than a check of the rules) gets 1 s there. Tests that set their own
    # deadline keep it; a run in one process keeps 200 ms.
    settings.register_profile("xdist", deadline=1000)
    settings.load_profile("xdist")
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue(content_dir())


@pytest.fixture(scope="session")
def rulebook(catalogue: Catalogue) -> Rulebook:
    return catalogue.rulebook()


def make_app(instance: Path, **config: Any) -> Flask:
    # Rate limits are off unless a test turns them on (tests/test_hardening_limits.py): a test
    # session posts thousands of rulings from one address.
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance),
                       "DATABASE_URL": config.pop("DATABASE_URL", f"sqlite:///{instance / 'test.db'}"),
                       "RATELIMIT_ENABLED": config.pop("RATELIMIT_ENABLED", False),
                       **config})


_TEMPLATE_ROOT: list[Path] = []  # set once per process by the ``_built_template_root`` fixture


@pytest.fixture(autouse=True)
def _one_postgres_test_at_a_time(request: pytest.FixtureRequest) -> Iterator[None]:
    """`make test` runs the suite on pytest-xdist workers. The tests that touch PostgreSQL share the
    one test database (``drop_all`` in one would wipe another's tables) and ``test_ci_scripts``
    stops and restarts the server, so they take turns: an exclusive lock on a file of the run,
    held for the whole test. A test takes it when it is marked ``postgres`` or is the
    ``"postgres"`` case of a parametrised database fixture (``database_url``, ``database``).
    Autouse, so it is set up before the test's own function-scoped fixtures (``drop_all``)."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    if not (request.node.get_closest_marker("postgres") or "postgres" in params.values()) or not _TEMPLATE_ROOT:
        yield
        return
    with open(_TEMPLATE_ROOT[0] / "postgres.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session", autouse=True)
def _built_template_root(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Where this run keeps its one built instance: the run's temporary root, shared by the xdist
    workers (``basetemp/popen-gwN`` each), or this process's own when run without xdist."""
    base = tmp_path_factory.getbasetemp()
    _TEMPLATE_ROOT[:] = [base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base]


def seed_instance(instance: Path, database: str = "test.db") -> Path:
    """Fill ``instance`` with a copy of a built instance (database of every entry and search index,
    both stamped with the content hash), so ``create_app`` on it finds them up to date instead of
    building them again: a build is ~3 s of CPU, and each xdist worker and many tests made one.
    The instance is built once per run, by the first process that asks (``make_app`` in a
    subprocess, so no process holds its files open while they are copied); the database file is
    named ``database`` (``adjudicator.db`` is what `make serve` opens)."""
    if not _TEMPLATE_ROOT:  # called outside a test session (at import): a template of its own
        _TEMPLATE_ROOT.append(Path(tempfile.mkdtemp(prefix="adjudicator-instance-")))
    root = _TEMPLATE_ROOT[0]
    template = root / "built-instance"
    with open(root / "built-instance.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (template / ".complete").exists():
            shutil.rmtree(template, ignore_errors=True)
            code = "import sys; from pathlib import Path; from tests.conftest import make_app; make_app(Path(sys.argv[1]))"  # noqa: E501
            subprocess.run([sys.executable, "-c", code, str(template)], check=True, cwd=REPO, capture_output=True)
            (template / ".complete").touch()
    shutil.copytree(template, instance, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".complete", "build.lock"))
    if database != "test.db":
        for path in instance.glob("test.db*"):  # with its -wal and -shm files, if any
            path.rename(instance / path.name.replace("test.db", database, 1))
    return instance


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return make_app(seed_instance(tmp_path_factory.mktemp("instance")))


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(app: Flask) -> Iterator[str]:
    with serving(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"Chromium not found at {CHROMIUM}; `make test` installs Debian's chromium package")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture()
def phone_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture()
def desktop_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    yield page
    context.close()


def save_screenshot(page: Any, name: str) -> Path:
    """Screenshots are test artifacts under instance/ (ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
