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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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
PHONE_DEVICE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
"""Browser-context options of a phone: its screen, mobile viewport rules and touch."""
# A fresh browser context installs the service worker on its first page, and the worker then
# precaches the whole reference (every rule page, the search data, the boards: ~230 requests the
# test's server renders and Chromium stores). Tests of something else open their contexts with it
# blocked; tests/test_offline_*.py keep it, since it is what they test.
NO_SERVICE_WORKER = {"service_workers": "block"}


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
    one test database of this clone's cluster (``drop_all`` in one would wipe another's tables), so
    they take turns: an exclusive lock on a file of the run,
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


@contextmanager
def _warm_context(browser: Any, live_server: str, **options: Any) -> Iterator[Any]:
    """A browser context kept for the whole test process, with a page of the site left open in
    it: a new context costs Chromium ~1 s of CPU to set up, and a new page of a site with no page
    open starts a renderer process (~0.6 s more); a new page beside an open one of the same site
    shares its process (~0.5 s in all for a builder test's page instead of ~1.5 s)."""
    context = browser.new_context(**options, **NO_SERVICE_WORKER)
    anchor = context.new_page()
    anchor.goto(live_server + "/offline")
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="session")
def phone_context(browser: Any, live_server: str) -> Iterator[Any]:
    """Phone pages are opened in this one context, one page lent to each test in turn, sent to a
    bare page of the site between them (a new one after a test that set what cannot be undone);
    what a test leaves in the context (cookies, permissions, the site's storage, its pages) is
    cleared after it (``_page_in``). A test that opens a share link in another browser uses ``elsewhere_page``; one
    that needs other settings (no JavaScript, the service worker) makes a context of its own."""
    with _warm_context(browser, live_server, **PHONE_DEVICE, device_scale_factor=2) as context:
        yield context


@pytest.fixture(scope="session")
def desktop_context(browser: Any, live_server: str) -> Iterator[Any]:
    with _warm_context(browser, live_server, viewport=DESKTOP) as context:
        yield context


# A page the tests of a process take in turn, one per warm context. A new page costs Chromium
# ~0.4 s of CPU more than a page left on a small document of the site and sent to the next test's
# address (its first document, about:blank, starts a renderer of its own). What a test sets on
# its page and cannot be taken back (an init script, a route, an event handler, exposed functions,
# extra headers) marks it spent: it is closed after that test, and the next test gets a new one.
_SPENDING = ("add_init_script", "route", "route_from_har", "route_web_socket", "on", "once",
             "expose_function", "expose_binding", "set_extra_http_headers")
_RESET_PATH = "/manifest.webmanifest"  # same site, no script, no style: the cheapest page to leave it on
POLL_MS = 50
"""How often a test page's ``wait_for_function`` checks its condition when the test names no
interval: Playwright's default checks it at every animation frame, which keeps Chromium drawing
frames for as long as the wait lasts (0.12–0.18 CPU-s a second of waiting, against ~0.02 at 50 ms)."""


class _KeptPage:
    """The page one warm context lends to its tests, and whether a test has spent it."""

    def __init__(self, context: Any) -> None:
        self.context, self.page, self.viewport = context, None, None
        self.spent = self.emulated = False

    def take(self) -> Any:
        if self.page is None or self.page.is_closed():
            self.page = self.context.new_page()
            self.viewport = self.page.viewport_size
            for name in _SPENDING:
                setattr(self.page, name, self._noting("spent", getattr(self.page, name)))
            self.page.emulate_media = self._noting("emulated", self.page.emulate_media)
            self.page.wait_for_function = _polled(self.page.wait_for_function)
        self.spent = self.emulated = False
        return self.page

    def _noting(self, flag: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def noted(*args: Any, **kwargs: Any) -> Any:
            setattr(self, flag, True)
            return method(*args, **kwargs)
        return noted

    def give_back(self, site: str) -> None:
        """After a test: a spent page is closed; any other is sent to a bare page of the site, its
        session storage cleared, its viewport and media as a new page's (light: a context's
        default)."""
        page = self.page
        if page is None or page.is_closed():
            return
        if self.spent or not self._reset(site):
            page.close()
            self.page = None

    def _reset(self, site: str) -> bool:
        page = self.page
        try:
            page.goto(site + _RESET_PATH)
            page.evaluate("() => sessionStorage.clear()")
            if page.viewport_size != self.viewport:
                page.set_viewport_size(self.viewport)
            if self.emulated:
                page.emulate_media(media="null", color_scheme="light", reduced_motion="no-preference",
                                   forced_colors="none", contrast="no-preference")
        except Exception:  # left in a state it cannot leave (a dialog, a crash): a new page, then
            return False
        return True


def _polled(wait_for_function: Callable[..., Any]) -> Callable[..., Any]:
    def wait(expression: str, *, polling: Any = None, **kwargs: Any) -> Any:
        return wait_for_function(expression, polling=POLL_MS if polling is None else polling, **kwargs)
    return wait


_KEPT: dict[int, _KeptPage] = {}


def open_afresh(page: Any, url: str) -> None:
    """Open ``url`` in ``page`` as a new document, even where only its fragment differs from the
    page's address (a share link reopened): by way of a bare page of the same site, where
    about:blank would start a renderer of its own (~0.6 s of Chromium's CPU)."""
    site = urlsplit(url)
    page.goto(f"{site.scheme}://{site.netloc}{_RESET_PATH}")
    page.goto(url)


def _page_in(context: Any) -> Iterator[Any]:
    anchor = context.pages[0]
    kept = _KEPT.setdefault(id(context), _KeptPage(context))
    page = kept.take()
    yield page
    for open_page in context.pages[1:]:  # any page the test opened
        if open_page is not page:
            open_page.close()
    site = urlsplit(anchor.url)
    kept.give_back(f"{site.scheme}://{site.netloc}")
    anchor.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    context.clear_cookies()
    context.clear_permissions()


@pytest.fixture(scope="session")
def elsewhere_context(browser: Any, live_server: str) -> Iterator[Any]:
    """Another phone, for a test that opens what its page made (a share link) in a browser apart
    from its own: a context of its own cookies, storage and cache, warm like the others."""
    with _warm_context(browser, live_server, viewport=PHONE) as context:
        yield context


@pytest.fixture()
def elsewhere_page(elsewhere_context: Any) -> Iterator[Any]:
    yield from _page_in(elsewhere_context)


@pytest.fixture()
def phone_page(phone_context: Any) -> Iterator[Any]:
    yield from _page_in(phone_context)


@pytest.fixture()
def desktop_page(desktop_context: Any) -> Iterator[Any]:
    yield from _page_in(desktop_context)


@contextmanager
def shared_phone(browser: Any, first_visit: Callable[[Any], Any]) -> Iterator[Any]:
    """A phone context that ``first_visit(context)`` prepares once (a visit that installs the
    service worker, an opt-in to offline rulings) and that a module's offline tests then share:
    doing that in a fresh context for each test costs seconds of Chromium's CPU every time. The
    page it returns stays open as ``context.pages[0]``: it keeps the site's renderer process alive
    (a test's page beside it starts none, ~0.6 s of CPU less) and, after an opt-in, the engine its
    page warmed. Each test takes its own page from ``page_left_online``."""
    context = browser.new_context(**PHONE_DEVICE)
    try:
        first_visit(context)
        yield context
    finally:
        context.close()


@contextmanager
def page_left_online(context: Any, open_page: Callable[[Any], Any]) -> Iterator[Any]:
    """``open_page(context)``'s page for one test; after it the network is back on (a test may cut
    it with ``context.set_offline``) and the page is closed."""
    page = open_page(context)
    try:
        yield page
    finally:
        context.set_offline(False)
        page.close()


AXE = REPO / "tests" / "js" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core (MPL-2.0), pinned in tests/js/package.json and installed by `make test` with the JS linter."""


def axe_violations(page: Any, context: str = "body") -> list[str]:
    """axe-core's WCAG 2.x A/AA and best-practice rules on the page as it stands (the state a test
    reached): one line per violation, with the elements it names. Evaluated through the DevTools
    protocol, so the page's Content-Security-Policy (no inline scripts) does not stop it."""
    if not page.evaluate("typeof axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + ";0")
    found = page.evaluate("""async (context) => (await axe.run(context, {resultTypes: ['violations']})).violations
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)""",
                          context)
    return list(found)


def save_screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """Screenshots are test artifacts under instance/ (ignored by git): the whole page, or with
    ``full_page=False`` what the player sees (the viewport). One pixel per CSS pixel: a phone's
    at its density (2) costs Chromium ~3 times the CPU to encode (0.12 against 0.04 CPU-s a
    viewport) and shows a reader nothing more about the layout; the page is still drawn at 2."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, scale="css")
    return path


# `make test` hands whole files to its xdist workers (``--dist loadfile``: a file's module
# fixtures, such as a served gunicorn or an opted-in phone, are set up once, not once per worker
# that ran one of its tests), in the order collected. The files that take longest go first, so
# that no worker starts one of them near the end while the others sit idle (measured on the
# 2-core machine, longest first). A file not listed keeps its place after them.
HEAVIEST_FIRST = [
    "test_builder_screens_browser.py", "test_builder_browser.py", "test_hardening_serve.py",
    "test_offline_rulings_browser.py", "test_api_schemathesis.py", "test_accessibility_browser.py",
    "test_builder_play_browser.py", "test_search.py", "test_saved_durability.py", "test_search_browser.py",
    "test_offline_browser.py", "test_los_sight_map.py", "test_storage.py",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file keeps its own order

