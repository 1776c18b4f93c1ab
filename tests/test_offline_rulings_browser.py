"""Offline rulings in Chromium on a phone: the player opts in, the connection goes, and the engine
running on the device (Pyodide in a Web Worker, ``engine.api`` in the browser) gives exactly
the server's JSON — for every gallery example and for random situations drawn from the
property-test strategies of battle, line of sight, retreat and re-supply. Declining downloads
nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.content.loader import YAML_LOADER
from adjudicator.engine.geometry import BOARDS, Hex
from tests.conftest import save_screenshot, shared_phone
from tests.test_battle import FEATURES, TYPES, unit
from tests.test_los import hex_strategy
from tests.test_retreat_properties import boards

pytestmark = pytest.mark.browser

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "adjudicator" / "examples").glob("*.yaml"))
PER_ENDPOINT = 50  # x 4 endpoints = 200 random situations
LOS_BLOCKERS = ["forest", "town", "hill", "hedgerow", "lake", "river"]
SUPPLIERS = ["half_track", "supply_truck", "infantry"]


def gallery_requests() -> list[tuple[str, dict[str, Any]]]:
    """Each example of the builder's gallery as the request it makes (``test_examples`` too)."""
    found = []
    for path in EXAMPLES:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)  # libyaml: read at collection
        found.append((data["endpoint"], {**data["situation"], **data["request"]}))
    return found


def _draw(strategy: st.SearchStrategy[Any]) -> list[Any]:
    """PER_ENDPOINT distinct values of ``strategy``, the same ones every run (derandomized)."""
    drawn: list[Any] = []

    @settings(max_examples=3 * PER_ENDPOINT, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        if value not in drawn and len(drawn) < PER_ENDPOINT:
            drawn.append(value)

    collect()
    return drawn[:PER_ENDPOINT]


@st.composite
def battles(draw: Any) -> dict[str, Any]:
    """The battle property test's space (``test_battle``): types, own and target hex features,
    range, moves and card, as a request."""
    attacker, target = draw(st.sampled_from(TYPES)), draw(st.sampled_from(TYPES))
    own, theirs = draw(st.sampled_from(FEATURES)), draw(st.sampled_from(FEATURES))
    distance, moved = draw(st.integers(1, 7)), draw(st.integers(0, 3))
    card = draw(st.sampled_from([None, "armor_assault", "their_finest_hour"]))
    hexes = []
    for col, feature in ((4, own), (4 + 2 * distance, theirs)):
        if feature:
            key = "obstacle" if feature in ("bunker", "sandbags", "wire") else "terrain"
            hexes.append({"row": 4, "col": col, key: feature})
    units = [unit("A", "allies", attacker, 4, 4, moved=moved), unit("B", "axis", target, 4, 4 + 2 * distance)]
    request = {"hexes": hexes, "units": units, "attacker": "A", "target": "B"}
    if card:
        request["card"] = card
    return request


@st.composite
def sightlines(draw: Any) -> dict[str, Any]:
    """The line-of-sight property test's space (``test_los``): up to 30 cells of blocking terrain
    or units on the standard board, and two hexes."""
    cells = draw(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 11), st.integers(0, 6)), max_size=30))
    board = BOARDS["standard"]
    hexes, units, seen = [], [], set()
    for index, (row, c, what) in enumerate(cells):
        col = 2 * c + row % 2
        if not board.contains(Hex(row, col)) or (row, col) in seen:
            continue
        seen.add((row, col))
        if what < len(LOS_BLOCKERS):
            hexes.append({"row": row, "col": col, "terrain": LOS_BLOCKERS[what]})
        else:
            units.append({"id": f"u{index}", "side": "axis", "type": "armor", "row": row, "col": col, "figures": 3})
    a, b = draw(hex_strategy), draw(hex_strategy)
    return {"hexes": hexes, "units": units, "from": {"row": a.row, "col": a.col}, "to": {"row": b.row, "col": b.col}}


def retreats(doc: dict[str, Any]) -> dict[str, Any]:
    """``test_retreat_properties.boards()`` as a retreat request for its unit T."""
    return {**doc, "unit": "T"}


@st.composite
def resupplies(draw: Any) -> dict[str, Any]:
    """A ``boards()`` situation whose unit T is a would-be supplier among the others."""
    doc = draw(boards())
    doc.pop("flags"), doc.pop("hits")
    supplier = draw(st.sampled_from(SUPPLIERS))
    doc["units"][0] = {**doc["units"][0], "type": supplier, "figures": 1}
    return {**doc, "supplier": "T"}


def random_requests() -> list[tuple[str, dict[str, Any]]]:
    return ([("battle", r) for r in _draw(battles())] + [("line-of-sight", r) for r in _draw(sightlines())]
            + [("retreat", retreats(d)) for d in _draw(boards())] + [("resupply", r) for r in _draw(resupplies())])


SERVER_ANSWERS = """async (requests) => {
  const out = [];
  for (const [name, body] of requests) {
    const r = await fetch('/api/v1/' + name, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                             body: JSON.stringify(body)});
    out.push([r.status, await r.text()]);
  }
  return out;
}"""

ENGINE_MODULE = "import('/static/js/offline-engine.js').then(() => true)"

LOCAL_ANSWERS = """async (requests) => {
  const engine = await import('/static/js/offline-engine.js');
  const info = await engine.engineInfo();
  const out = [];
  for (const [name, body] of requests) {
    const reply = await engine.askEngine(info, name, JSON.stringify(body));
    out.push([reply.status, reply.body || reply.error]);
  }
  return out;
}"""


def controlled_builder(context: Any, live_server: str) -> Any:
    page = context.new_page()
    page.goto(live_server + "/builder")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("#builder.ready")
    return page


def opt_in(page: Any) -> None:
    offer = page.locator("#offline-offer")
    offer.get_by_role("button", name="Make rulings work offline").click()
    page.wait_for_selector("#offline-offer:has-text('saved')", timeout=120_000)


@pytest.fixture(scope="module")
def visitor(browser: Any, live_server: str) -> Iterator[Any]:
    """A phone whose builder (its first page) the service worker controls, and that has not opted
    in: the tests that need it so come first in this file. The declining test then opts this same
    phone in on that page (``opted_in``), and the last test turns it off again."""
    with shared_phone(browser, lambda context: controlled_builder(context, live_server)) as context:
        yield context


def is_opted_in(page: Any) -> bool:
    return page.locator("#offline-offer:has-text('saved')").count() > 0


@pytest.fixture(scope="module")
def opted_in(visitor: Any) -> Any:
    """The visitor's phone opted in to offline rulings on its first page, shared by the tests that
    rule on the device (each opt-in downloads 5.6 MB and starts the engine). The same phone as the
    visitor's, and the opt-in the declining test makes there (after declining), when it ran: a
    second phone cost a context, a service worker's precache of the whole reference and two builder
    starts, and a second opt-in another download and another start of Python."""
    if not is_opted_in(visitor.pages[0]):
        opt_in(visitor.pages[0])
    return visitor


@contextmanager
def warm_page(context: Any) -> Iterator[Any]:
    """The builder page that opted in (``opted_in``'s first page), whose engine the opt-in
    started: the tests that ask the engine on an open page share it rather than each start
    Python in a page of their own (~4 s of Chromium's CPU every time); the test that reloads it
    offline starts it again, for the tests after it. The network is back on after each."""
    try:
        yield context.pages[0]
    finally:
        context.set_offline(False)


CACHED_URLS = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) out.push([name, request.url]);
  }
  return out;
}"""


def test_the_service_worker_keeps_no_query_url_and_each_static_file_once(visitor, live_server):
    """The offline cache (``VISITED_MAX``): any GET with a query string was cached for ever, and the precache
    fetched every static file twice (with and without its hash)."""
    page = visitor.pages[0]  # the builder page the service worker controls
    asked = ["/rules/terrain/forest?junk=1", "/api/v1/rules?x=2", "/static/css/site.css?v=bogus", "/builder?s=x"]
    statuses = page.evaluate("(urls) => Promise.all(urls.map((u) => fetch(u).then((r) => r.status)))", asked)
    assert statuses == [200, 200, 200, 200]
    cached = page.evaluate(CACHED_URLS)
    urls = [url.removeprefix(live_server) for _, url in cached]
    assert not set(asked) & set(urls), "a URL with a query string was kept"
    assert {name for name, _ in cached} == {next(n for n, _ in cached if n.startswith("adjudicator-"))}
    static = [u.split("?", 1)[0] for u in urls if u.startswith("/static/")]
    assert static and len(static) == len(set(static)), "a static file is cached twice"


def test_declining_downloads_nothing_and_accepting_later_downloads_the_engine(visitor, live_server):
    """Declined, nothing of the engine is fetched or kept, and the offer stays one small button;
    accepting it later downloads the engine. The phone is left opted in (``opted_in``: its first
    page, whose engine the opt-in started, is the one the tests below rule on)."""
    fetched: list[str] = []

    def record(request: Any) -> None:
        fetched.append(request.url)

    page = visitor.pages[0]  # the builder page the service worker controls, not opted in
    visitor.on("request", record)
    try:
        page.locator("#offline-offer").get_by_role("button", name="No thanks").click()
        page.reload()
        page.wait_for_selector("#builder.ready")
        page.wait_for_timeout(300)
        assert not [u for u in fetched if "/static/offline/" in u], "declining must not download the engine"
        assert "offline-engine" not in page.evaluate("caches.keys()")
        assert not page.locator("#offline-offer").get_by_role("button", name="No thanks").count()
        opt_in(page)
        assert [u for u in fetched if u.endswith(".wasm")]
    finally:
        visitor.remove_listener("request", record)


def test_the_local_engine_gives_the_servers_answer_for_the_gallery_and_200_random_situations(opted_in, live_server):
    requests = gallery_requests() + random_requests()
    assert len(requests) == len(EXAMPLES) + 4 * PER_ENDPOINT
    with warm_page(opted_in) as page:
        server = page.evaluate(SERVER_ANSWERS, requests)
        page.evaluate(ENGINE_MODULE)  # loaded online: the offline copy keeps the bundle, not its modules
        opted_in.set_offline(True)
        local = page.evaluate(LOCAL_ANSWERS, requests)
    assert {status for status, _ in server[:len(EXAMPLES)]} == {200}, "a gallery example failed on the server"
    ruled = {name for (name, _), (status, _) in zip(requests, server, strict=True) if status == 200}
    assert ruled == {name for name, _ in requests} >= {"battle", "line-of-sight", "retreat", "resupply"}, \
        "every endpoint asked must give rulings"
    assert sum(status == 200 for status, _ in server) > len(requests) * 3 // 4, "most requests should rule"
    mismatches = []
    for (name, body), (s_status, s_text), (l_status, l_text) in zip(requests, server, local, strict=True):
        if s_status != l_status or json.loads(s_text) != json.loads(l_text):
            mismatches.append(f"{name} {json.dumps(body)[:200]}: server {s_status}, local {l_status} {l_text[:200]}")
    assert not mismatches, f"{len(mismatches)} answers differ:\n" + "\n".join(mismatches[:5])


def test_offline_the_builder_rules_on_the_device_and_says_so(opted_in, live_server):
    with warm_page(opted_in) as page:  # its engine has answered already: this start is the page's own
        opted_in.set_offline(True)
        page.reload()  # the builder page itself now comes from the cache
        page.wait_for_selector("#builder.ready")
        if page.locator("#examples-box:not([open])").count():
            page.locator("#examples-box summary").click()
        example = page.locator("#examples .example").filter(has_text="forest").first
        example.click()
        note = page.locator("#ruled-locally")
        note.wait_for(state="visible", timeout=120_000)
        assert "Ruled on this device" in note.inner_text()
        page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")
        assert "Could not reach the server" not in page.locator("#ruling").inner_text()
        save_screenshot(page, "builder-ruled-offline-phone")


def test_a_failing_server_is_ruled_on_the_device_and_a_working_one_takes_over_again(opted_in, live_server):
    """A 5xx is treated like no connection (the local engine answers); once the server answers
    again, its ruling is shown and the "ruled on this device" note goes away."""
    with warm_page(opted_in) as page:
        page.route("**/api/v1/*", lambda route: route.fulfill(status=503, content_type="application/json",
                                                               body='{"error": {"code": "down", "message": "down"}}')
                   if route.request.method == "POST" else route.continue_())
        if page.locator("#examples-box:not([open])").count():
            page.locator("#examples-box summary").click()
        examples = page.locator("#examples .example")
        examples.filter(has_text="forest").first.click()
        note = page.locator("#ruled-locally")
        note.wait_for(state="visible", timeout=120_000)
        page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")
        assert "server hit a bug" not in page.locator("#ruling").inner_text()
        page.unroute("**/api/v1/*")
        examples.filter(has_text="bunker").first.click()
        note.wait_for(state="hidden", timeout=60_000)
        page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")


def test_turning_off_rulings_on_the_device_empties_their_cache(opted_in):
    """Last in this file (the tests above rule on the opted-in phone): Turn off deletes the
    download, and the offer to make rulings work offline is back."""
    page = opted_in.pages[0]
    assert "offline-engine" in page.evaluate("caches.keys()")
    page.locator("#offline-offer").get_by_role("button", name="Turn off").click()
    page.wait_for_function("() => caches.keys().then((k) => !k.includes('offline-engine'))")
    page.wait_for_selector("#offline-offer:has-text('Make rulings work offline')")
