"""Shared fixtures: an app on a throwaway instance folder, its test client, a live server in a
thread, and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
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
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


POSTGRES_GROUP = "postgres"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`make test` runs ``-n`` workers with ``--dist loadgroup``) every test that
    touches PostgreSQL runs on one worker, one after another: they share the one test database
    (``drop_all`` in one would wipe another's tables) and ``test_ci_scripts`` stops and restarts
    the server. A test is in that group when it is marked ``postgres`` or is the ``"postgres"``
    case of a parametrised database fixture (``database_url``, ``database``)."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.get_closest_marker("postgres") or POSTGRES_GROUP in params.values():
            item.add_marker(pytest.mark.xdist_group(POSTGRES_GROUP))


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


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return make_app(tmp_path_factory.mktemp("instance"))


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
