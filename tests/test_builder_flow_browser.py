"""The builder's table-side flow (issue #11): the standard dispute set up by taps alone on a
phone and on a desktop, with the board and the one-line ruling on the first screen throughout,
and every word on the board legible on a 375-px phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import save_screenshot

pytestmark = pytest.mark.browser

# The standard dispute: Allied infantry (4 figures) on a hill attacks German armor in a forest two
# hexes away; a hedgerow stands beside the line of sight (on one side of the edge it runs along,
# so it does not block: an edge blocks only when both of its hexes do).
ATTACKER = (6, 10)
TARGET = (4, 10)
HEDGEROW = (5, 11)
MAX_TAPS = 8


class Taps:
    """Taps (touch) or clicks (mouse), counted, each followed by a check that the page did not
    scroll, and a screenshot of the step."""

    def __init__(self, page: Any, touch: bool, name: str) -> None:
        self.page, self.touch, self.name, self.count = page, touch, name, 0

    def on(self, locator: Any, step: str) -> None:
        if self.touch:
            locator.tap()
        else:
            locator.click()
        self.count += 1
        self.page.wait_for_timeout(60)
        assert self.page.evaluate("[window.scrollX, window.scrollY]") == [0, 0], f"the page scrolled at: {step}"
        scrolled = self.page.evaluate("['board-wrap', 'sheet'].map((id) => document.getElementById(id))"
                                      ".map((el) => el.scrollLeft + el.scrollTop)")
        assert scrolled == [0, 0], f"the board or the hex sheet scrolled at: {step}"
        save_screenshot(self.page, f"{self.name}-{self.count}-{step}", full_page=False)


def hexagon(page: Any, row: int, col: int) -> Any:
    return page.locator(f'.hex[data-row="{row}"][data-col="{col}"]')


def inside(box: dict, width: int, height: int) -> bool:
    right, bottom = box["x"] + box["width"], box["y"] + box["height"]
    return box["x"] >= 0 and box["y"] >= 0 and right <= width + 0.5 and bottom <= height + 0.5


def standard_dispute(page: Any, touch: bool, name: str) -> Taps:
    taps = Taps(page, touch, name)
    taps.on(hexagon(page, *ATTACKER), "attacker-hex")
    taps.on(page.locator('[data-fk="place-allies-infantry"]'), "allied-infantry")
    taps.on(page.locator('[data-fk="terrain-hill"]'), "hill")
    taps.on(hexagon(page, *TARGET), "target-hex")
    taps.on(page.locator('[data-fk="place-axis-armor"]'), "axis-armor")
    taps.on(page.locator('[data-fk="terrain-forest"]'), "forest")
    taps.on(hexagon(page, *HEDGEROW), "hedgerow-hex")
    taps.on(page.locator('[data-fk="terrain-hedgerow"]'), "hedgerow")
    return taps


def expected_ruling(app: Any) -> dict:
    response = app.test_client().post("/api/v1/battle", json={
        "hexes": [{"row": 6, "col": 10, "terrain": "hill"}, {"row": 4, "col": 10, "terrain": "forest"},
                  {"row": 5, "col": 11, "terrain": "hedgerow"}],
        "units": [{"id": "u1", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                  {"id": "u2", "side": "axis", "type": "armor", "row": 4, "col": 10, "figures": 3}],
        "attacker": "u1", "target": "u2"})
    assert response.status_code == 200
    return response.get_json()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_standard_dispute_takes_at_most_eight_taps_and_no_scroll(device, request, live_server, app):
    page = request.getfixturevalue(f"{device}_page")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    save_screenshot(page, f"flow-{device}-0-empty", full_page=False)
    taps = standard_dispute(page, device == "phone", f"flow-{device}")
    expected = expected_ruling(app)
    assert expected["legal"] and expected["line_of_sight"]["clear"]
    dice = expected["dice"]
    words = f"{dice} {'die' if dice == 1 else 'dice'}"
    page.wait_for_function("(w) => document.getElementById('b-summary').textContent.includes(w)", arg=words)
    page.wait_for_function("() => !document.querySelector('#b-summary.pending')")
    summary = page.locator("#b-summary").inner_text()
    assert words in summary and "LOS clear" in summary
    assert taps.count <= MAX_TAPS
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    bar = page.locator(".b-ruling-bar").bounding_box()
    frame = page.locator("#board-wrap").bounding_box()
    assert inside(bar, width, height), bar
    assert inside(frame, width, height), frame
    dock_top = page.locator("#b-dock").bounding_box()["y"]
    if device == "phone":  # the docked sheet and ruling never cover the board
        assert frame["y"] + frame["height"] <= dock_top + 0.5
    for hexes in (ATTACKER, TARGET, HEDGEROW):
        assert inside(hexagon(page, *hexes).bounding_box(), width, height)
    save_screenshot(page, f"flow-{device}-9-ruling", full_page=False)


def test_the_ruling_opens_into_tabs_with_the_board_in_view(phone_page, live_server):
    page = phone_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    standard_dispute(page, True, "tabs-phone")
    page.wait_for_function("() => /die|dice/.test(document.getElementById('b-summary').textContent)")
    page.locator("#b-summary").tap()
    assert page.locator("#sheet").is_hidden()
    for tab, words in (("los", "Clear"), ("retreat", "flag"), ("odds", "Expected hits"), ("dice", "in all")):
        page.locator(f'[data-fk="tab-{tab}"]').tap()
        panel = page.locator("#ruling")
        assert words in panel.inner_text()
        visible = page.evaluate("""() => [...document.querySelectorAll('#ruling .r-section')]
            .filter((el) => el.offsetParent !== null).map((el) => el.dataset.tab)""")
        assert set(visible) == {tab}
        assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
        assert page.locator(".los-line").count() == 2  # the line of sight stays drawn
        save_screenshot(page, f"tabs-phone-{tab}", full_page=False)


BOARD_TEXT_SIZES = """() => {
  const svg = document.getElementById('board');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')]
    .filter((t) => getComputedStyle(t).display !== 'none' && t.textContent.trim())
    .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]);
}"""


OVERLAPPING_WORDS = """() => {
  const boxes = [...document.querySelectorAll('#board text')]
    .filter((t) => getComputedStyle(t).display !== 'none' && t.textContent.trim())
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  const shrink = 1;  // glyph boxes include line spacing: words that only touch do not count
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ta, a] = boxes[i]; const [tb, b] = boxes[j];
    if (a.left + shrink < b.right - shrink && b.left + shrink < a.right - shrink
        && a.top + 3 < b.bottom - 3 && b.top + 3 < a.bottom - 3) out.push([ta, tb]);
  }
  return out;
}"""


@pytest.mark.parametrize("kind", ["standard", "overlord", "breakthrough"])
def test_every_word_on_the_board_is_at_least_11_css_px_on_a_phone_and_none_overlap(kind, phone_page, live_server):
    page = phone_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    if kind != "standard":
        page.locator("#board-box summary").tap()
        page.select_option("#board-kind", kind)
    # Put every kind of word on the board: a unit with a badge, terrain, an obstacle, a line of
    # sight, retreat numbers, and every hex label.
    hexagon(page, 6, 10).tap()
    page.locator('[data-fk="place-allies-infantry"]').tap()
    hexagon(page, 4, 10).tap()
    page.locator('[data-fk="place-axis-armor"]').tap()
    hexagon(page, 5, 13).tap()
    page.locator('[data-fk="terrain-forest"]').tap()
    page.locator('[data-fk="obstacle-sandbags"]').tap()
    hexagon(page, 5, 7).tap()
    page.locator('[data-fk="terrain-hedgerow"]').tap()
    page.wait_for_function("() => document.querySelectorAll('#board .retreat-text').length > 0")
    page.locator("#show-labels").tap()
    sizes = page.evaluate(BOARD_TEXT_SIZES)
    kinds = page.evaluate("""() => new Set([...document.querySelectorAll('#board text')]
        .filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.getAttribute('class'))).size""")
    assert kinds >= 6  # labels, bands, terrain, obstacle, unit letters, role letters, retreat numbers
    assert len(sizes) > 50
    small = [(text, round(px, 2)) for text, px in sizes if px < 11]
    assert small == []
    overlaps = page.evaluate(OVERLAPPING_WORDS)
    assert overlaps == []
    save_screenshot(page, f"board-text-{kind}", full_page=False)


def test_a_side_change_pairs_attacker_and_target_without_another_tap(desktop_page, live_server):
    page = desktop_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    hexagon(page, *ATTACKER).click()
    page.click('[data-fk="place-allies-infantry"]')
    hexagon(page, *TARGET).click()
    page.click('[data-fk="place-allies-armor"]')  # a friend: no battle yet
    assert page.locator(".hex.is-target").count() == 0
    page.click('[data-fk="edit"]')
    page.click('[data-fk="unit-side-axis"]')  # now an enemy: it becomes the target at once
    assert page.locator(".hex.is-attacker").get_attribute("data-row") == str(ATTACKER[0])
    assert page.locator(".hex.is-target").get_attribute("data-row") == str(TARGET[0])
    page.wait_for_function("() => /dice?\\b/.test(document.getElementById('b-summary').textContent)")


def test_copy_puts_the_whole_ruling_as_plain_text_with_sources_and_a_short_link(desktop_page, live_server, app):
    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    standard_dispute(page, False, "copy-desktop")
    page.wait_for_function("() => !document.querySelector('#b-summary.pending')"
                           " && /die/.test(document.getElementById('b-summary').textContent)")
    page.click("#copy-ruling")
    page.locator("#copy-out textarea").wait_for()
    text = page.evaluate("navigator.clipboard.readText()")
    assert text == page.locator("#copy-out textarea").input_value()
    expected = expected_ruling(app)
    lines = text.splitlines()
    assert lines[0] == ("Allied Infantry (4 figures) on F3 (Hill) battles Axis Armor (3 figures) on F5 (Forest),"
                        " range 2.")
    assert f"Ruling: roll {expected['dice']} die." in lines
    catalogue = app.extensions["catalogue"]
    for step in expected["breakdown"]:
        # each step cites the passage behind its own fact, else its entry's first source (contracts §4)
        fact = catalogue.citations.get(step["rule"], {}).get(step.get("fact") or "")
        first = catalogue.entries[step["rule"]].meta.sources[0]
        where = fact.source.label if fact else f"{first.document}, {first.section}"
        assert any(step["text"] in line and where in line for line in lines), (step, where)
    assert "Line of sight: clear" in text
    assert any(line.startswith(f"Link: {live_server}/s/") for line in lines)


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


def test_retreat_offers_no_more_flags_than_dice_rolled(phone_page, live_server):
    page = phone_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    standard_dispute(page, True, "flags-phone")  # one die
    page.wait_for_function("() => /1 die/.test(document.getElementById('b-summary').textContent)")
    page.locator("#b-summary").tap()
    page.locator('[data-fk="tab-retreat"]').tap()
    choices = page.locator('#ruling [role="radiogroup"][aria-label="Flags rolled"] [role="radio"]')
    assert choices.all_inner_texts() == ["1 flag"]
