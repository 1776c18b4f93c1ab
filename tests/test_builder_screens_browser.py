"""The builder at the table on any screen, in either hand, in the players' own words: the standard
dispute on a 375×812 phone, the same phone turned sideways (812×375), a small 360×640 phone and a
1366×900 desktop, placing either unit first; the keyboard alone; the copied text; the board on a
phone (words readable, Fit, pinch and pan); no jump of the board when a message shows; a side
change that pairs the units; a card that changes no number explained.

The standard dispute: Allied infantry (4 figures) on a hill (F3) and German armor in a forest two
hexes away (F5); a hedgerow (f4) stands beside the line of sight, on one side of the edge the line
runs along, so it does not block (an edge blocks only when the hexes on both of its sides do:
rule `line_of_sight`). The intended ruling is the infantry firing at the armor. Every page is
opened in the warm phone or desktop context of tests/conftest.py (sideways and small are the
phone's context at another size)."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest

from tests.conftest import axe_violations, save_screenshot
from tests.test_builder_browser import SAMPLES

pytestmark = pytest.mark.browser

SCREENS = {"phone": (375, 812), "landscape": (812, 375), "small": (360, 640), "desktop": (1366, 900)}
INFANTRY = (6, 10)  # F3, a hill
ARMOR = (4, 10)  # F5, a forest
HEDGEROW = (5, 11)  # f4
MAX_TAPS = 8
MAX_KEYS = 15


# The standard dispute's two units as a share link (builder-state.js, version 1).
DISPUTE_LINK = {"v": 1, "u": [["u1", "allies", "infantry", 6, 10, 4], ["u2", "axis", "armor", 4, 10, 3]],
                "a": "u1", "t": "u2"}


# Allied infantry; Axis armor three hexes away in the open; Axis infantry two hexes away behind
# woods on both sides of the edge the line of sight would run along; no attacker or target set.
PICK_LINK = {"v": 1, "h": [[5, 9, "forest"], [5, 11, "forest"]],
             "u": [["p1", "allies", "infantry", 6, 10, 4], ["p2", "axis", "armor", 6, 16, 3],
                   ["p3", "axis", "infantry", 4, 10, 4]]}


def share_link(compact: dict) -> str:
    return "/builder#s=" + base64.urlsafe_b64encode(json.dumps(compact).encode()).decode().rstrip("=")


EMPTY_LINK = {"v": 1, "u": []}


def open_here(page: Any, compact: dict) -> None:
    """Open a share link in the tab that holds another situation, as a player opens a second one:
    the builder replaces the whole situation (~0.1 CPU-s of Chromium's, where a new builder page
    costs ~0.4)."""
    page.evaluate("(link) => { location.hash = link.split('#')[1]; }", share_link(compact))
    page.wait_for_function("(n) => document.querySelectorAll('#board .unit-body').length === n"
                           " && !document.querySelector('#b-summary.pending, #verdict.pending')", arg=len(compact["u"]))


def hexagon(page: Any, row: int, col: int) -> Any:
    return page.locator(f'.hex[data-row="{row}"][data-col="{col}"]')


def open_builder(request: Any, screen: str, live_server: str, path: str = "/builder") -> Any:
    width, height = SCREENS[screen]
    page = request.getfixturevalue("desktop_page" if screen == "desktop" else "phone_page")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server + path)
    page.wait_for_selector("#builder.ready")
    return page


SCROLLED = """() => ['board-wrap', 'sheet'].map((id) => document.getElementById(id))
  .map((el) => [el.scrollLeft, el.scrollTop])"""


class Taps:
    """Taps (touch) or clicks (mouse), counted; after each neither the page nor the board's frame
    nor the hex sheet has scrolled (the board may start centred on a phone: what is checked is
    that a tap never moves it under the finger)."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page, self.touch, self.count = page, touch, 0

    def on(self, locator: Any, step: str) -> None:
        before = self.page.evaluate(SCROLLED)
        locator.tap() if self.touch else locator.click()
        self.count += 1
        self.page.wait_for_timeout(60)
        assert self.page.evaluate("[window.scrollX, window.scrollY]") == [0, 0], f"the page scrolled at: {step}"
        assert self.page.evaluate(SCROLLED) == before, f"the board or the hex sheet scrolled at: {step}"


def label(page: Any, at: tuple[int, int]) -> str:
    return hexagon(page, *at).get_attribute("data-label")


def dispute(page: Any, touch: bool, infantry_first: bool) -> Taps:
    taps = Taps(page, touch)
    units = [(INFANTRY, "allies-infantry", "hill"), (ARMOR, "axis-armor", "forest")]
    for at, unit, terrain in units if infantry_first else units[::-1]:
        taps.on(hexagon(page, *at), f"{unit} hex")
        taps.on(page.locator(f'[data-fk="place-{unit}"]'), unit)
        taps.on(page.locator(f'[data-fk="terrain-{terrain}"]'), terrain)
    taps.on(hexagon(page, *HEDGEROW), "hedgerow hex")
    taps.on(page.locator('[data-fk="terrain-hedgerow"]'), "hedgerow")
    return taps


def ruled(app: Any, attacker: tuple[int, int], target: tuple[int, int]) -> dict:
    """The engine's ruling of the dispute, one way round (the API, as the page asks it)."""
    units = {INFANTRY: {"id": "i", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
             ARMOR: {"id": "a", "side": "axis", "type": "armor", "row": 4, "col": 10, "figures": 3}}
    response = app.test_client().post("/api/v1/battle", json={
        "hexes": [{"row": 6, "col": 10, "terrain": "hill"}, {"row": 4, "col": 10, "terrain": "forest"},
                  {"row": 5, "col": 11, "terrain": "hedgerow"}],
        "units": list(units.values()), "attacker": units[attacker]["id"], "target": units[target]["id"]})
    assert response.status_code == 200
    return response.get_json()


def dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('#b-summary.pending')"
                           " && /→/.test(document.getElementById('b-summary').textContent)"
                           " && !document.querySelector('#verdict.pending')")


def inside(box: dict, width: int, height: int) -> bool:
    return box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= width + 0.5 \
        and box["y"] + box["height"] <= height + 0.5


UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  // Each thing the player must see is on screen and on top at its centre: what the browser finds
  // there is the thing itself (a hex's unit and words let taps through to the hex below them).
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(hit && (hit === el || el.contains(hit)));
}).map((el) => el.dataset.label || el.dataset.fk || el.id || el.className)"""


def covered(page: Any, selector: str) -> list[str]:
    return page.evaluate(UNCOVERED, selector)


def apart(a: dict, b: dict) -> bool:
    """Two boxes that do not overlap (the board and the dock of sheet and ruling)."""
    return a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5 \
        or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_standard_dispute_in_eight_taps_either_unit_first(screen, request, live_server, app):
    """On each screen, either unit placed first: ≤ 8 taps and no scroll; the ruling line names both
    units and the direction, the intended direction (infantry firing at the armor) is on the line
    with its dice either way round (the swap under the line shows the other direction); nothing
    the player must see is covered by a control; "Enter roll" brings the roll's faces on screen."""
    touch = screen != "desktop"
    width, height = SCREENS[screen]
    intended, other = ruled(app, INFANTRY, ARMOR), ruled(app, ARMOR, INFANTRY)
    assert intended["legal"] and intended["line_of_sight"]["clear"] and other["legal"]
    page = open_builder(request, screen, live_server)
    for infantry_first in (True, False):
        if not infantry_first:  # the other way round from an empty board, a link opened in this tab
            open_here(page, EMPTY_LINK)
        order = "infantry-first" if infantry_first else "armor-first"
        if infantry_first:
            save_screenshot(page, f"screens-{screen}-0-empty", full_page=False)
        taps = dispute(page, touch, infantry_first)
        assert taps.count <= MAX_TAPS
        settled(page)
        page.wait_for_function("() => !document.getElementById('b-swap').hidden"
                               " && /die|dice|allowed/.test(document.getElementById('b-swap').textContent)")
        f3, f5 = label(page, INFANTRY), label(page, ARMOR)
        forward, backward = f"Infantry {f3} → Armor {f5}", f"Armor {f5} → Infantry {f3}"
        line, swap = page.locator("#b-summary").inner_text(), page.locator("#b-swap").inner_text()
        first, second = (forward, backward) if infantry_first else (backward, forward)
        shown, mirror = (intended, other) if infantry_first else (other, intended)
        assert line.startswith(first) and dice(shown["dice"]) in line and "LOS clear" in line, line
        assert swap.endswith(f"{second}: {dice(mirror['dice'])}"), swap
        assert re.search(rf"{re.escape(forward)}\W+{dice(intended['dice'])}", f"{line}\n{swap}")
        # On screen, the page unscrolled, nothing the player must see under a control.
        assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
        for part in ("#board-wrap", ".b-ruling-bar", "#b-actions"):
            assert inside(page.locator(part).bounding_box(), width, height), part
        assert covered(page, ".hex.is-attacker, .hex.is-target, #b-summary, #b-swap") == []
        for at in (INFANTRY, ARMOR, HEDGEROW):
            assert inside(hexagon(page, *at).bounding_box(), width, height), at
        # The docked sheet and ruling never cover the board.
        assert apart(page.locator("#board-wrap").bounding_box(), page.locator("#b-dock").bounding_box())
        toolbar, board = page.locator(".b-toolbar").bounding_box(), page.locator("#board-wrap").bounding_box()
        assert toolbar["y"] >= board["y"] + board["height"] - 0.5 or toolbar["x"] >= board["x"] + board["width"] - 0.5
        save_screenshot(page, f"screens-{screen}-{order}-1-ruling", full_page=False)
        if infantry_first:
            taps.on(page.locator("#b-roll"), "enter roll")
            faces = page.locator(".roll-faces button")
            assert faces.count() == 5
            for i in range(5):
                assert inside(faces.nth(i).bounding_box(), width, height), f"face {i} off screen"
            assert covered(page, ".roll-faces button") == []
            assert inside(page.locator("#board-wrap").bounding_box(), width, height)
            assert axe_violations(page) == []  # the ruling, its swap and the roll's faces, on this screen
            save_screenshot(page, f"screens-{screen}-{order}-2-roll", full_page=False)
        elif screen == "phone":
            taps.on(page.locator("#b-swap"), "swap")  # the intended ruling, in full, one tap away
            page.wait_for_function("(w) => document.getElementById('b-summary').textContent.startsWith(w)",
                                   arg=forward)
            settled(page)
            assert dice(intended["dice"]) in page.locator("#b-summary").inner_text()
            assert page.locator(".hex.is-attacker").get_attribute("data-label") == f3


TIMING = """window.__taps = []; window.__verdicts = []; window.__asks = []; window.__inTap = false;
  document.addEventListener('pointerdown', () => window.__taps.push(performance.now()), true);
  // A tap's events each run in a task of their own; the flag holds until the next task starts, so
  // a request made in a tap's task (or its microtasks) finds it set and one behind a timer does not.
  for (const type of ['pointerdown', 'pointerup', 'click']) {
    document.addEventListener(type, () => {
      window.__inTap = true;
      setTimeout(() => { window.__inTap = false; }, 0);
    }, true);
  }
  const pageFetch = window.fetch;
  window.fetch = function (url, init) {
    if (String(url).endsWith('/api/v1/battle')) window.__asks.push({at: performance.now(), inTap: window.__inTap});
    return pageFetch.apply(this, arguments);
  };
  new MutationObserver(() => {
    const said = document.querySelector('#b-summary .b-summary-verdict')?.textContent || '';
    if (/✔|✖/.test(said)) window.__verdicts.push(performance.now());
  }).observe(document, {subtree: true, childList: true, characterData: true});"""


def test_on_a_phone_the_verdict_follows_the_tap_and_the_ruling_opens_into_tabs(phone_page, live_server, app):
    """The ruling is asked the moment a tap makes a battle (in the tap's own task, behind no timer; the verdict
    follows as fast as the engine answers); the line unfolds into tabs, each showing its part alone
    with the line of sight still drawn (and no more flags offered than dice); Copy says so on
    screen, where a phone shows it."""
    page = phone_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script(TIMING)
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    dispute(page, True, True)
    settled(page)
    # The 5th tap placed the armor: the first battle of the board, asked at once.
    tap = page.evaluate("window.__taps")[4]
    ask = page.evaluate("(t) => window.__asks.find((a) => a.at >= t)", tap)
    asked = ask["at"]
    verdict = page.evaluate("(t) => window.__verdicts.find((v) => v >= t)", tap)
    print(f"tap to request {asked - tap:.1f} ms, tap to verdict {verdict - tap:.1f} ms")
    # No wait before asking (it was a 220 ms timer): the request leaves in the tap's own task,
    # behind no timer, however busy the machine is.
    assert ask["inTap"], "the ruling was asked behind a timer, not in the tap's own task"
    assert verdict > asked
    page.locator("#b-summary").tap()
    assert page.locator("#sheet").is_hidden()
    for tab, words in (("los", "Clear"), ("retreat", "1 flag"), ("odds", "Expected hits"), ("dice", "in all")):
        page.locator(f'[data-fk="tab-{tab}"]').tap()
        assert words in page.locator("#ruling").inner_text()
        visible = page.evaluate("""() => [...document.querySelectorAll('#ruling .r-section')]
            .filter((el) => el.offsetParent !== null).map((el) => el.dataset.tab)""")
        assert set(visible) == {tab}
        assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
        assert page.locator(".los-line").count() == 2  # the line of sight (and its halo) stays drawn
        save_screenshot(page, f"screens-phone-tab-{tab}", full_page=False)
    flags = page.locator('#ruling [role="radiogroup"][aria-label="Flags rolled"] [role="radio"]')
    assert flags.all_inner_texts() == ["1 flag"]  # one die: at most one flag
    assert axe_violations(page) == []
    page.locator("#copy-ruling").tap()
    page.wait_for_function("() => document.getElementById('copy-ruling').textContent.includes('Copied')")
    note = page.locator("#b-message")
    assert "copied" in note.inner_text() and inside(note.bounding_box(), 375, 812)
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    save_screenshot(page, "screens-phone-copied", full_page=False)


ASKED_BEFORE_DRAWN = """window.__asked = [];
  const pageFetch = window.fetch;
  window.fetch = function (url, init) {
    // What the board shows of the armor's hex (F5) when the battle's ruling is asked.
    if (String(url).endsWith('/api/v1/battle')) {
      window.__asked.push(document.querySelector('.hex[data-row="4"][data-col="10"]')?.getAttribute('aria-label'));
    }
    return pageFetch.apply(this, arguments);
  };"""


def test_the_ruling_is_asked_before_the_tap_is_drawn_and_its_verdict_shown_before_the_rest(phone_page, live_server):
    """The tap that makes a battle asks for its rulings before the page redraws (the requests are
    on their way while the tap's change is drawn), and the battle's verdict is on the ruling line
    as soon as its own answer is in, without waiting for the line of sight and the retreat (the
    rest of the ruling is drawn when they come)."""
    page = phone_page
    page.add_init_script(ASKED_BEFORE_DRAWN)
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    held = []
    page.route("**/api/v1/line-of-sight", lambda route: held.append(route))
    page.route("**/api/v1/retreat", lambda route: held.append(route))
    hexagon(page, *INFANTRY).tap()
    page.locator('[data-fk="place-allies-infantry"]').tap()
    hexagon(page, *ARMOR).tap()
    page.locator('[data-fk="place-axis-armor"]').tap()
    page.wait_for_function("() => /✔/.test(document.getElementById('b-summary').textContent)")
    asked = page.evaluate("window.__asked")
    assert len(asked) == 2 and all("Armor" not in said for said in asked), asked  # both directions, before the redraw
    assert "Axis Armor" in hexagon(page, *ARMOR).get_attribute("aria-label")
    assert len(held) == 2
    assert page.locator(".los-line").count() == 0  # the line of sight is not in yet: the verdict did not wait
    assert "in all" not in page.locator("#ruling").inner_text()  # the Dice tab comes with the rest
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/line-of-sight")
    page.unroute("**/api/v1/retreat")
    settled(page)
    page.wait_for_function("() => document.querySelectorAll('.los-line').length === 2")
    assert "in all" in page.locator("#ruling").inner_text()


def test_the_standard_dispute_by_keyboard_alone_and_the_text_copied(desktop_page, live_server, app, catalogue):
    """≤ 15 key presses from the top of the page, the ruling line read out (a live region), no
    axe-core violation; the copied text a referee pastes into a forum (the same text whatever set
    the dispute up: clicks, taps or keys): the situation, the verdict, each step with its one
    citation (the passage behind its rule and fact), the line of sight with its crux (the hedgerow
    on one side of the edge only), and a short link."""
    page = desktop_page
    page.set_viewport_size({"width": 1366, "height": 900})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    presses = []

    def press(key: str) -> None:
        page.keyboard.press(key)
        presses.append(key)

    def at() -> tuple[int, int]:
        return tuple(page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.col]"
                                   ".map(Number)"))

    press("Tab")  # "Skip to content": on the builder, to the board's hex cursor
    press("Enter")
    assert at() == (4, 12)
    for key in ("ArrowDown", "ArrowDown", "ArrowLeft"):
        press(key)
    assert at() == INFANTRY
    hint = page.locator("#b-hint").inner_text()  # the keys, said while the board has the focus
    keys = {name: key.lower() for key, name in re.findall(r"\b([A-Z1-9]) (Forest|Hill|Hedgerow)", hint)}
    assert set(keys) == {"Forest", "Hill", "Hedgerow"}, hint
    assert re.search(r"1 infantry, 2 armor", hint), hint
    press("1")  # Allied infantry (the bottom player's)
    press(keys["Hill"])
    press("ArrowUp")
    press("ArrowUp")
    assert at() == ARMOR
    press("Shift+2")  # Axis armor (the other side)
    press(keys["Forest"])
    press("ArrowDown")
    press("ArrowRight")
    assert at() == HEDGEROW
    press(keys["Hedgerow"])
    assert len(presses) <= MAX_KEYS, presses
    settled(page)
    expected = ruled(app, INFANTRY, ARMOR)
    line = page.locator("#b-summary .b-summary-text")
    assert line.get_attribute("aria-live") == "polite"
    assert line.inner_text().startswith(f"Infantry F3 → Armor F5 ✔ {dice(expected['dice'])}")
    assert page.evaluate("document.activeElement.dataset.label") == "f4"  # the focus stayed on the board
    assert axe_violations(page) == []
    save_screenshot(page, "screens-keyboard-desktop", full_page=False)

    page.locator("#copy-ruling").click()
    page.wait_for_function("() => document.getElementById('copy-ruling').textContent.includes('Copied')")
    text = page.evaluate("navigator.clipboard.readText()")
    assert text == page.locator("#copy-out textarea").input_value()
    assert "copied" in page.locator("#b-message").inner_text()
    lines = text.splitlines()
    assert lines[0] == ("Allied Infantry (4 figures) on F3 (Hill) battles Axis Armor (3 figures) on F5 (Forest),"
                        " range 2.")
    assert f"Ruling: roll {dice(expected['dice'])}." in lines
    face_names = catalogue.rulebook().core_rules("range_and_dice").face_names
    assert f"Hits on: {', '.join(face_names[f] for f in expected['hit_symbols'])}." in lines  # "Armor, Grenade"
    for step in expected["breakdown"]:
        cited = catalogue.citations.get(step["rule"], {}).get(step.get("fact")) if step.get("fact") else None
        source = cited.source.label if cited else catalogue.entries[step["rule"]].meta.sources[0].label
        [line_of_step] = [x for x in lines if step["text"] in x]
        assert line_of_step.endswith(f"[{catalogue.entries[step['rule']].meta.name} — {source}]"), line_of_step
        assert line_of_step.count("[") == 1  # one citation per step
        # the passage behind the step's own fact, else its entry's first source (contracts §4)
        fact = catalogue.citations.get(step["rule"], {}).get(step.get("fact") or "")
        first = catalogue.entries[step["rule"]].meta.sources[0]
        where = fact.source.label if fact else f"{first.document}, {first.section}"
        assert any(step["text"] in x and where in x for x in lines), (step, where)
    assert "Line of sight: clear" in text
    assert any(x.startswith("Line of sight: clear [") for x in lines)
    edge = next(x for x in lines if "runs along the edge" in x)
    assert "f4 (Hedgerow)" in edge and "e4 (countryside)" in edge, edge
    assert "only one side" in text  # why the hedgerow does not block
    assert any(x.startswith(f"Link: {live_server}/s/") for x in lines)
    assert not re.search(r"\bu\d+\b", text)


# Every layout shift and largest-paint entry of the page, as Lighthouse reads them.
PAINTS_AND_SHIFTS = """window.__shifts = []; window.__lcp = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push(e.value); })
    .observe({type: 'layout-shift', buffered: true});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__lcp.push({at: e.startTime, cls: e.element?.className || ''});
  }).observe({type: 'largest-contentful-paint', buffered: true});"""
# The builder's script (its bundle), held back to see what the page paints by itself.
ENTRY_MODULE = re.compile(r"/static/js/builder\.bundle\.js\?")


def painted_without_script(page: Any, url: str, largest: str = "") -> tuple[list[Any], float]:
    """Open `url` with the builder's entry module held back; returns the held request and the
    page's clock once the page has painted without it (and, given `largest`, once an element of
    that class was a largest paint: the page may paint its header alone first)."""
    page.add_init_script(PAINTS_AND_SHIFTS)
    held: list[Any] = []
    page.route(ENTRY_MODULE, lambda route: held.append(route))
    page.goto(url, wait_until="commit")
    page.locator("#b-summary").wait_for()
    page.wait_for_function("(cls) => window.__lcp.some((e) => !cls || e.cls === cls)", arg=largest)
    while not held:
        page.wait_for_timeout(50)
    return held, page.evaluate("performance.now()")


@pytest.mark.parametrize("screen", ["phone", "landscape", "desktop"])
def test_the_layout_and_a_ruling_line_saying_what_happens_paint_before_the_script_and_nothing_moves(
        screen, request, live_server):
    """Skeleton first: the page paints the board's frame and the dock with the ruling line saying
    that the linked situation is being read, before any of the builder's script runs, at the size
    and place the ruling takes (the room of the swap and Enter roll under it is kept); that line is
    the page's largest paint (Lighthouse's LCP), and the first ruling replaces its words in place:
    no layout shift from the first paint to the verdict."""
    width, height = SCREENS[screen]
    page = request.getfixturevalue("desktop_page" if screen == "desktop" else "phone_page")
    page.set_viewport_size({"width": width, "height": height})
    held, released = painted_without_script(page, live_server + share_link(DISPUTE_LINK),
                                            "" if screen == "desktop" else "b-summary-text")
    line = page.locator("#b-summary")
    assert line.is_visible() and "Reading the situation in the link" in line.inner_text()
    assert not page.locator("#copy-ruling").is_visible()  # nothing to copy yet (its room kept)
    assert page.locator("#board .hex").count() == 0  # nothing of the script has run
    watched = ["#b-summary"] if screen == "desktop" else ["#b-summary", "#board-wrap", ".b-toolbar"]
    before = {sel: page.locator(sel).bounding_box() for sel in watched}
    for route in held:
        route.continue_()
    page.unroute(ENTRY_MODULE)
    page.wait_for_selector("#builder.ready")
    settled(page)
    assert line.inner_text().startswith("Infantry F3 → Armor F5 ✔ 2 dice")
    assert page.locator("#b-swap").is_visible() and page.locator(".b-actions-room").count() == 0
    for sel in watched:  # (the swap's words wrap as the screen's width has them: a pixel either way)
        after = page.locator(sel).bounding_box()
        moved = abs(after["y"] - before[sel]["y"])
        assert moved <= 1 and after["height"] == before[sel]["height"], (sel, before[sel], after)
    assert page.evaluate("window.__shifts") == []
    largest = page.evaluate("window.__lcp")[-1]
    if screen != "desktop":  # (a desktop's largest paint is the page's lede)
        assert largest["cls"] == "b-summary-text" and largest["at"] < released, largest


def test_an_empty_builder_paints_its_line_before_the_script_and_keeps_no_room_for_a_battle(phone_page, live_server):
    """Without a situation the first paint says the board is being set up, with no room for a
    battle's actions; the script then asks for a unit, on the same line, nothing moved."""
    page = phone_page
    held, _ = painted_without_script(page, live_server + "/builder")
    line = page.locator("#b-summary")
    assert line.inner_text().startswith("Setting up the board")
    assert not page.locator(".b-actions-room").is_visible()
    before = line.bounding_box()
    for route in held:
        route.continue_()
    page.unroute(ENTRY_MODULE)
    page.wait_for_selector("#builder.ready")
    assert line.inner_text().startswith("Tap a hex to place a unit")
    after = line.bounding_box()
    assert all(abs(after[k] - before[k]) <= 1 for k in ("x", "y", "height")), (before, after)
    assert page.evaluate("window.__shifts") == []


# Each time the page writes its address (the share link), and whether the player had acted by then.
LINK_WRITES = """window.__writes = []; window.__acted = false;
  document.addEventListener('pointerdown', () => { window.__acted = true; }, true);
  for (const name of ['replaceState', 'pushState']) {
    const write = history[name].bind(history);
    history[name] = (...args) => { window.__writes.push([name, window.__acted]); return write(...args); };
  }"""


def test_the_start_keeps_the_link_it_opened_and_the_first_change_writes_it(phone_page, live_server):
    """The address bar already holds the situation of the link opened: the start does not write it
    again (an encoding and a history entry replaced, in the middle of the start); the player's first
    change does, as before."""
    page = phone_page
    page.add_init_script(LINK_WRITES)
    link = share_link(DISPUTE_LINK)
    page.goto(live_server + link)
    page.wait_for_selector("#builder.ready")
    settled(page)
    assert page.url.endswith(link)
    page.locator("#b-swap").tap()
    page.wait_for_function("() => location.hash.startsWith('#z=')")
    assert page.evaluate("window.__writes") == [["replaceState", True]]
    assert page.locator("#b-summary").inner_text().startswith("Armor F5 → Infantry F3")


def test_a_link_without_a_battle_keeps_its_line_in_place_until_the_player_acts(phone_page, live_server):
    """A link whose units have no attacker and target: the room the page kept under the line for
    a battle's actions stays until the player's next tap (the line never moves by itself), then
    goes."""
    page = phone_page
    page.add_init_script(PAINTS_AND_SHIFTS)
    page.goto(live_server + share_link(PICK_LINK))
    page.wait_for_selector("#builder.ready")
    assert page.locator("#b-summary").inner_text().startswith("Tap a unit, then Attacker")
    assert page.locator(".b-actions-room").is_visible() and not page.locator("#b-actions").is_visible()
    assert page.evaluate("window.__shifts") == []
    hexagon(page, *ARMOR).tap()
    assert page.locator(".b-actions-room").count() == 0


def test_an_example_pairs_roles_by_the_nearest_enemy_and_no_message_moves_the_board(phone_page, live_server, app):
    """After an import (or an example: a link) with both sides on the board the line never asks
    for "a unit of the other side"; Attacker pairs the unit with the nearest enemy it can battle
    (its fire map). A message shows under the board, never above it: the board does not move, and loading
    the builder with a situation shifts no layout (the CLS Lighthouse measures)."""
    page = phone_page
    page.add_init_script("""window.__shifts = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push(e); })
        .observe({type: 'layout-shift', buffered: true});""")
    page.goto(live_server + share_link(DISPUTE_LINK))
    page.wait_for_selector("#builder.ready")
    settled(page)
    page.wait_for_timeout(300)
    shift = page.evaluate("window.__shifts.filter((e) => !e.hadRecentInput).reduce((s, e) => s + e.value, 0)")
    assert shift < 0.01, shift
    board = page.locator("#board-wrap").bounding_box()
    page.locator("#import-box summary").tap()
    page.set_input_files("#m44-file", str(SAMPLES / "crossroads_standard.m44"))
    page.locator("#import-result").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#b-summary").inner_text().startswith("Tap a unit, then Attacker")
    assert page.locator("#board-wrap").bounding_box()["y"] == board["y"]  # a message in the dock, not above
    # Attacker on a unit with enemies about and no roles set: the nearest enemy it can battle (the
    # Axis armor three hexes off in the open), not the nearer infantry behind the woods (no line
    # of sight: a forest on both sides of the edge the line runs along), nor the last in file order.
    page.evaluate("(link) => { location.hash = link.split('#')[1]; }", share_link(PICK_LINK))
    page.wait_for_function("() => document.querySelectorAll('.hex[aria-label*=\"Axis\"]').length === 2")
    assert page.locator("#b-summary").inner_text().startswith("Tap a unit, then Attacker")
    hexagon(page, *INFANTRY).tap()
    page.wait_for_selector("#fire-map .fire-pairs")
    page.locator('[data-fk="role-a"]').tap()
    settled(page)
    assert page.locator(".hex.is-attacker").get_attribute("data-label") == label(page, INFANTRY)
    assert page.locator(".hex.is-target").get_attribute("data-label") == label(page, (6, 16))
    assert page.locator("#b-summary").inner_text().startswith(f"Infantry {label(page, INFANTRY)} → Armor")
    assert "Place a unit of the other side" not in page.locator("#b-summary").inner_text()
    assert axe_violations(page) == []


BOARD_TEXT_SIZES = """() => {
  const svg = document.getElementById('board');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')]
    .filter((t) => getComputedStyle(t).display !== 'none' && t.closest('g[style*="none"]') === null
      && t.textContent.trim())
    .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]);
}"""

OVERLAPPING_WORDS = """() => {
  const boxes = [...document.querySelectorAll('#board text')]
    .filter((t) => getComputedStyle(t).display !== 'none' && t.textContent.trim())
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ta, a] = boxes[i]; const [tb, b] = boxes[j];
    if (a.left + 1 < b.right - 1 && b.left + 1 < a.right - 1 && a.top + 3 < b.bottom - 3 && b.top + 3 < a.bottom - 3) {
      out.push([ta, tb]);
    }
  }
  return out;
}"""


def touches(page: Any, moves: list[list[tuple[float, float]]]) -> None:
    """Fingers on the screen through Chromium's touch input: `moves[i]` is where each finger is at
    step i (the first step puts them down, after the last they are lifted)."""
    cdp = page.context.new_cdp_session(page)
    points = lambda spots: [{"x": x, "y": y, "id": i + 1} for i, (x, y) in enumerate(spots)]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(moves[0])})
    for spots in moves[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(spots)})
        page.wait_for_timeout(20)  # a frame apart, as fingers move: Chromium coalesces moves within a frame
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def pinch(page: Any, box: dict, spread: float) -> None:
    """Two fingers on the board, moved apart (spread > 1) or together."""
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    span = [40 * (1 + (spread - 1) * step / 8) for step in range(9)]
    touches(page, [[(x - d, y), (x + d, y)] for d in span])


def pan(page: Any, box: dict, dx: float) -> None:
    """One finger on the board, moved `dx` pixels sideways."""
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touches(page, [[(x + dx * step / 8, y)] for step in range(9)])


# Real scenarios, imported as a player would (editor .m44 files): 13 columns and 26.
FIT_SCENARIOS = {"standard": "crossroads_standard.m44", "overlord": "french_decorative_overlord.m44"}

BOARD_IN_FRAME = """() => {
  const frame = document.getElementById('board-wrap').getBoundingClientRect();
  const out = [];
  for (const g of document.querySelectorAll('#board .hex')) {
    const b = g.getBoundingClientRect();
    if (b.left < frame.left - 0.5 || b.right > frame.right + 0.5 || b.right > innerWidth + 0.5
        || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5) out.push(g.dataset.label);
  }
  return out;
}"""

UNIT_MARKS = """() => [...document.querySelectorAll('#board .unit-mark')]
  .filter((m) => m.getBoundingClientRect().width > 0)
  .map((m) => [m.closest('.unit').classList.contains('side-axis') ? 'axis' : 'allies', m.getAttribute('class'),
    m.getBoundingClientRect().height])"""

HEX_AT = """([x, y]) => document.elementFromPoint(x, y)?.closest('.hex')?.dataset.label ?? null"""

BOARD_POINT = """([x, y]) => {
  const svg = document.getElementById('board');
  const box = svg.getBoundingClientRect();
  const per = box.width / svg.viewBox.baseVal.width;
  return [(x - box.left) / per, (y - box.top) / per];
}"""


def import_scenario(page: Any, name: str) -> int:
    """Import an editor scenario file through the builder's Import box; the number of its units."""
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SAMPLES / name))
    page.locator("#import-result").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    return page.locator("#board .unit").count()


@pytest.mark.parametrize("kind", ["standard", "overlord", "breakthrough"])
def test_every_word_on_a_phone_board_is_readable_fit_included_and_two_fingers_zoom(kind, phone_page, live_server):
    """Every word on the board ≥ 11 CSS px on a 375-px phone, none overlapping, at the default
    size and after "Fit" (the whole board: on a phone too small for words, so none is drawn); two
    fingers zoom the board about them (spread: bigger; pinched: smaller, the words then left
    off), one finger pans it."""
    page = phone_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    if kind != "standard":
        page.locator("#board-box summary").tap()
        page.select_option("#board-kind", kind)
        page.evaluate("window.scrollTo(0, 0)")
    # Every kind of word: a unit, terrain, an obstacle, a line of sight, retreat numbers, every label.
    for at, fk in (((6, 10), "place-allies-infantry"), ((4, 10), "place-axis-armor"), ((5, 13), "terrain-forest"),
                   (None, "obstacle-sandbags"), ((5, 7), "terrain-hedgerow")):
        if at:
            hexagon(page, *at).tap()
        page.locator(f'[data-fk="{fk}"]').tap()
    page.wait_for_function("() => document.querySelectorAll('#board .retreat-text').length > 0")
    page.locator("#show-labels").tap()
    kinds = page.evaluate("""() => new Set([...document.querySelectorAll('#board text')]
        .filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.getAttribute('class'))).size""")
    assert kinds >= 6  # labels, bands, terrain, obstacle, unit letters, role letters, retreat numbers
    for view in ("default", "fit"):
        if view == "fit":
            page.locator("#zoom-fit").tap()
            assert page.evaluate(BOARD_IN_FRAME) == []  # the whole board
        sizes = page.evaluate(BOARD_TEXT_SIZES)
        if view == "default":
            assert len(sizes) > 50
        else:  # every word would be under 11 px on a phone: none is drawn
            assert page.locator("#board.compact").count() == 1 and sizes == []
        assert [(text, round(px, 2)) for text, px in sizes if px < 11] == []
        assert page.evaluate(OVERLAPPING_WORDS) == []
        save_screenshot(page, f"screens-board-{kind}-{view}", full_page=False)
    wrap = page.locator("#board-wrap")
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    pinch(page, wrap.bounding_box(), 2.5)
    bigger = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert bigger > width * 1.3
    pinch(page, wrap.bounding_box(), 0.3)
    smaller = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert smaller < bigger / 2
    if smaller * 13 / page.evaluate("document.getElementById('board').viewBox.baseVal.width") < 11:
        assert page.locator("#board.compact").count() == 1  # too small to read: the words are left off
    pinch(page, wrap.bounding_box(), 4)
    before = page.evaluate("document.getElementById('board-wrap').scrollLeft")
    pan(page, wrap.bounding_box(), -100 if before < 100 else 100)
    page.wait_for_timeout(100)
    assert page.evaluate("document.getElementById('board-wrap').scrollLeft") != before  # one finger pans
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]


@pytest.mark.parametrize("screen", ["phone", "small", "landscape"])
@pytest.mark.parametrize("kind", list(FIT_SCENARIOS))
def test_fit_shows_every_column_of_an_imported_scenario_with_no_word_too_small(kind, screen, request, live_server):
    """Fit on a phone, upright or sideways: the whole imported board in the frame (every column,
    every row) and no word on it under 11 CSS px. Too small for words, the board leaves them off
    and draws each unit as a mark (its side's colour, its class's symbol), taller than its token."""
    page = open_builder(request, screen, live_server)
    units = import_scenario(page, FIT_SCENARIOS[kind])
    assert units >= 5
    page.locator("#show-labels").tap()  # every hex's label asked for: still none drawn too small
    page.locator("#zoom-fit").tap()
    assert page.evaluate(BOARD_IN_FRAME) == []
    assert [(text, round(px, 2)) for text, px in page.evaluate(BOARD_TEXT_SIZES) if px < 11] == []
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    scale = page.evaluate("(() => { const b = document.getElementById('board');"
                          " return b.getBoundingClientRect().width / b.viewBox.baseVal.width; })()")
    if 13 * scale < 11:  # every word would be under 11 px: none is shown, the units are marks
        assert page.locator("#board.compact").count() == 1
        marks = page.evaluate(UNIT_MARKS)
        assert len(marks) == units
        assert {side for side, _, _ in marks} == {"allies", "axis"}
        assert all(re.search(r"mark-(infantry|armor|artillery)", cls) for _, cls, _ in marks), marks
        assert min(height for _, _, height in marks) >= 34 * scale - 0.5  # the token is 20 units tall
    save_screenshot(page, f"fit-{kind}-{screen}", full_page=False)


def test_on_a_fitted_overlord_board_two_fingers_zoom_about_them_one_pans_and_a_tap_places(phone_page, live_server):
    """On a phone, an imported Overlord scenario after Fit (26 columns in 375 px, units as marks):
    a tap on a unit's hex names it (details by tapping); two fingers spread zoom in about the point
    between them (the board point under them stays under them) and the words come back; one finger
    drags the board with it; and a tap still places a unit where it lands."""
    page = phone_page
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    import_scenario(page, FIT_SCENARIOS["overlord"])
    page.locator("#zoom-fit").tap()
    assert page.locator("#board.compact").count() == 1
    row, col = page.evaluate("""() => { const g = [...document.querySelectorAll('#board .hex')]
      .find((h) => /Allied|Axis/.test(h.getAttribute('aria-label'))); return [+g.dataset.row, +g.dataset.col]; }""")
    described = hexagon(page, row, col).get_attribute("aria-label")
    side_and_unit = re.search(r"(Allied|Axis) [^,]+", described).group(0)
    hexagon(page, row, col).tap()
    page.wait_for_selector("#sheet:not([hidden])")
    assert side_and_unit in page.locator("#sheet").inner_text()
    page.keyboard.press("Escape")
    page.evaluate("window.scrollTo(0, 0)")

    wrap = page.locator("#board-wrap").bounding_box()
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    centre = (wrap["x"] + wrap["width"] * 0.4, wrap["y"] + wrap["height"] / 2)
    under = page.evaluate(BOARD_POINT, list(centre))
    span = [25 + 95 * step / 10 for step in range(11)]  # 50 px apart to 240: about 4.8 times
    touches(page, [[(centre[0] - d, centre[1]), (centre[0] + d, centre[1])] for d in span])
    page.wait_for_timeout(200)
    bigger = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert bigger > width * 3
    after = page.evaluate(BOARD_POINT, list(centre))
    assert abs(after[0] - under[0]) < 8 and abs(after[1] - under[1]) < 8, (under, after)  # about the fingers
    assert page.locator("#board.compact").count() == 0  # big enough: the words are back
    assert [(text, round(px, 2)) for text, px in page.evaluate(BOARD_TEXT_SIZES) if px < 11] == []
    save_screenshot(page, "fit-overlord-pinched-phone", full_page=False)

    wrap = page.locator("#board-wrap").bounding_box()
    start = (wrap["x"] + wrap["width"] * 0.7, wrap["y"] + wrap["height"] / 2)
    grabbed = page.evaluate(BOARD_POINT, list(start))
    scroll = page.evaluate("document.getElementById('board-wrap').scrollLeft")
    touches(page, [[(start[0] - 150 * step / 10, start[1])] for step in range(11)])
    page.wait_for_timeout(300)
    assert page.evaluate("document.getElementById('board-wrap').scrollLeft") > scroll + 100  # the board followed
    dropped = page.evaluate(BOARD_POINT, [start[0] - 150, start[1]])
    assert abs(dropped[0] - grabbed[0]) < 30, (grabbed, dropped)  # within a hex of the finger
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]

    wrap = page.locator("#board-wrap").bounding_box()
    empty = page.evaluate("""([x, y]) => {
      const g = document.elementFromPoint(x, y)?.closest('.hex');
      return g && !/Allied|Axis/.test(g.getAttribute('aria-label')) ? [Number(g.dataset.row), Number(g.dataset.col)]
        : null; }""", [wrap["x"] + wrap["width"] / 2, wrap["y"] + wrap["height"] / 2])
    assert empty is not None
    units = page.locator("#board .unit").count()
    hexagon(page, *empty).tap()
    page.locator('[data-fk="place-allies-infantry"]').tap()
    assert "Allied Infantry" in hexagon(page, *empty).get_attribute("aria-label")
    assert page.locator("#board .unit").count() == units + 1
    save_screenshot(page, "fit-overlord-placed-phone", full_page=False)


def test_hills_and_towns_differ_in_brightness_and_the_colour_switch_holds(desktop_page, live_server):
    """Hills and towns are told apart by brightness, not hue alone (≥ 2:1 in either scheme); the
    colour switch overrides the phone's setting and holds on every page of the site."""
    page = desktop_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    ratio = """() => {
      const lum = (c) => {
        const [r, g, b] = c.match(/\\d+/g).map(Number).map((v) => v / 255)
          .map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const svg = (tag) => document.createElementNS('http://www.w3.org/2000/svg', tag);
      const fill = (cls) => { const g = svg('g'); g.setAttribute('class', `hex ${cls}`); const p = svg('polygon');
        p.setAttribute('class', 'hex-bg'); g.append(p); document.getElementById('board').append(g);
        const c = getComputedStyle(p).fill; g.remove(); return c; };
      const [a, b] = [lum(fill('t-hill')), lum(fill('t-town'))].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }"""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(ratio) >= 2, scheme
    page.emulate_media(color_scheme="light")
    page.locator("#board-box summary").click()
    page.select_option("#theme", "dark")
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate(background)
    assert axe_violations(page) == []  # the dark scheme's contrasts too
    page.goto(live_server + "/rules/terrain/forest")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(background) == dark != "rgb(251, 248, 240)"
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    assert page.locator("#theme").input_value() == "dark"
    page.locator("#board-box summary").click()
    page.select_option("#theme", "")
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert page.evaluate(background) == "rgb(251, 248, 240)"  # the phone's (light) setting again


def compact(state: dict) -> dict:
    """A situation (the API's document plus the builder's selection) as the share link's compact
    form (builder-state.js `compact`, version 1)."""
    out: dict[str, Any] = {"v": 1}
    for field, key in (("board", "b"), ("face", "e"), ("bottom_side", "s"), ("rules", "r"), ("attacker", "a"),
                       ("target", "t"), ("card", "c"), ("combat_card", "k"), ("flags", "f"), ("title", "n")):
        if state.get(field):
            out[key] = state[field]
    if state.get("overrun_battle"):
        out["o"] = 1
    out["h"] = [[x["row"], x["col"], x.get("terrain") or "", x.get("obstacle") or "", x.get("owner") or ""]
                for x in state.get("hexes", [])]
    out["u"] = [[u["id"], u["side"], u["type"], u["row"], u["col"], u.get("figures") or 0, u.get("start_figures") or 0,
                 "+".join(u.get("badges", [])), u.get("nation") or "", u.get("moved") or 0,
                 "_".join(f"{p['row']}.{p['col']}" for p in u.get("path") or [])] for u in state["units"]]
    return out


def renamed(state: dict) -> dict:
    """The same situation with every unit id a token no word contains ("zq3k"), so any id that
    reaches a text is found; a battle is set up when the situation names none (the first unit
    against the first enemy)."""
    ids = {u["id"]: f"zq{i}k" for i, u in enumerate(state["units"])}
    out = {**state, "units": [{**u, "id": ids[u["id"]]} for u in state["units"]]}
    for role in ("attacker", "target"):
        if out.get(role) in ids:
            out[role] = ids[out[role]]
    if not out.get("target") or (not out.get("attacker") and not out.get("card")):
        first = out["units"][0]
        enemy = next((u for u in out["units"] if u["side"] != first["side"]), None)
        if enemy:
            out["attacker"], out["target"] = first["id"], enemy["id"]
    return out


def random_situations(n: int, figures: dict[str, int], seed: int = 26) -> list[dict]:
    """`n` situations drawn the same way every run: two to four units of common and special types
    (at their standard strength, `figures`), a few hexes of terrain, on the middle of the standard
    board."""
    import random

    rng = random.Random(seed)
    types = ["infantry", "armor", "artillery", "elite_armor", "special_forces", "sniper", "mortar", "anti_tank_gun"]
    terrains = ["forest", "hill", "town", "hedgerow", "sandbags"]
    spots = [(r, c) for r in range(2, 7) for c in range(6, 17) if (r + c) % 2 == 0]
    out = []
    for _ in range(n):
        picked = rng.sample(spots, 6)
        count = rng.randint(2, 4)
        kinds = rng.choices(types, k=count)
        units = [{"id": f"u{i}", "side": "allies" if i % 2 == 0 else "axis", "type": kinds[i], "row": r, "col": c,
                  "figures": figures[kinds[i]]} for i, (r, c) in enumerate(picked[:count])]
        hexes = []
        for r, c in picked[4:]:
            feature = rng.choice(terrains)
            hexes.append({"row": r, "col": c, ("obstacle" if feature == "sandbags" else "terrain"): feature})
        out.append({"board": "standard", "hexes": hexes, "units": units, "attacker": "u0", "target": "u1"})
    return out


WORDS = """async () => {
  // What the player reads (the ruling line, its swap, the whole ruling, the unit's sheet) and,
  // where the ruling may be copied, the copied text: the button pressed, its text read once it
  // says "Copied". One call, where a click, a wait and three reads cost Chromium twice the CPU.
  const text = (id) => document.getElementById(id).textContent;
  const out = [text('b-summary'), text('b-swap'), text('ruling'), text('sheet')];
  const button = document.getElementById('copy-ruling');
  if (button.checkVisibility()) {
    button.click();
    const until = Date.now() + 30000;
    while (!button.textContent.includes('Copied')) {
      if (Date.now() > until) throw new Error('the ruling was not copied');
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    out.push(document.querySelector('#copy-out textarea').value);
    button.textContent = 'Copy';
  }
  return out.join('\\n');
}"""


def test_no_ruling_step_or_copied_text_names_a_unit_by_its_id(desktop_page, live_server, app):
    """Over the example gallery and random situations, each unit given an id no word contains:
    the ruling line and its swap, the whole ruling (every tab), the selected unit's sheet (its fire
    map), the copied text and the steps of an entered roll name units as players do, never by id."""
    from adjudicator.web.builder_data import page_data

    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    with app.test_request_context():
        data = page_data()
    figures = {u["id"]: u["figures"] for u in data["palette"]["units"]}
    situations = [renamed(ex["state"]) for ex in data["examples"] if ex["state"].get("units")]
    situations += [renamed(s) for s in random_situations(8, figures)]
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    seen, rolled = 0, 0
    for i, state in enumerate(situations):
        page.evaluate("(link) => { location.hash = link.split('#')[1]; }", share_link(compact(state)))
        page.wait_for_function("() => !document.querySelector('#b-summary.pending, #verdict.pending')"
                               " && document.getElementById('b-summary').textContent.trim()")
        if i >= len(situations) - 8:  # a random situation: its attacker's sheet and fire map too
            attacker = next(u for u in state["units"] if u["id"] == state["attacker"])
            hexagon(page, attacker["row"], attacker["col"]).click()
            page.wait_for_selector("#fire-map .fire-h, #fire-map.r-error")
        texts = page.evaluate(WORDS)
        if page.locator("#b-roll").is_visible() and rolled < 6:
            page.locator("#b-roll").click()
            while page.locator(".roll-faces button:not(:disabled)").count():
                page.locator(".roll-faces button:not(:disabled)").nth(rolled % 5).click()
            page.wait_for_selector("#roll-steps, .roll .r-error")
            texts += "\n" + page.locator(".roll").inner_text()
            rolled += 1
        found = [texts[max(0, m.start() - 60):m.end() + 20] for m in re.finditer(r"zq\d+k", texts)]
        assert found == [], f"{state.get('title') or state['units']}: {found}"
        seen += 1
    assert seen == len(situations) and rolled >= 4


def test_a_side_change_pairs_attacker_and_target_without_another_tap(desktop_page, live_server):
    page = desktop_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    hexagon(page, *INFANTRY).click()
    page.click('[data-fk="place-allies-infantry"]')
    hexagon(page, *ARMOR).click()
    page.click('[data-fk="place-allies-armor"]')  # a friend: no battle yet
    assert page.locator(".hex.is-target").count() == 0
    page.click('[data-fk="edit"]')
    page.click('[data-fk="unit-side-axis"]')  # now an enemy: it becomes the target at once
    assert page.locator(".hex.is-attacker").get_attribute("data-row") == str(INFANTRY[0])
    assert page.locator(".hex.is-target").get_attribute("data-row") == str(ARMOR[0])
    page.wait_for_function("() => /dice?\\b/.test(document.getElementById('b-summary').textContent)")


def test_a_card_that_changes_no_number_still_says_what_it_does(desktop_page, live_server, catalogue):
    """Ambush changes who battles first, not the dice: the ruling says so instead of ignoring it."""
    page = desktop_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    hexagon(page, 6, 10).click()
    page.click('[data-fk="place-allies-infantry"]')
    hexagon(page, 5, 11).click()
    page.click('[data-fk="place-axis-infantry"]')
    page.select_option("#card", "ambush")
    page.wait_for_function("() => /Cards played/i.test(document.getElementById('ruling').textContent)")
    ruling = page.locator("#ruling").inner_text()
    assert catalogue.entries["ambush"].meta.summary in ruling
    assert page.locator('#ruling a[href="/rules/command_card/ambush"]').count() >= 1
