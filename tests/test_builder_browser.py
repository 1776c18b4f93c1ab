"""The situation builder in headless Chromium, at phone (375 px) and desktop sizes, against the
real engine endpoints: place units and terrain by tapping, read the ruling, share, save, import."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tests.conftest import PHONE, save_screenshot

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).parent / "m44"
ATTACKER = (6, 10)
TARGET = (4, 12)
FOREST = (5, 11)  # on the line between them
TOWN = (4, 8)  # in the open from the attacker: the line to it crosses (5, 9), plain countryside


@pytest.fixture(params=["phone", "desktop"])
def page(request):
    return request.getfixturevalue(f"{request.param}_page")


def hexagon(page, row, col):
    return page.locator(f'.hex[data-row="{row}"][data-col="{col}"]')


def open_builder(page, live_server, path="/builder"):
    page.goto(live_server + path)
    page.wait_for_selector("#builder.ready")


def settled(page):
    """Wait until the debounced API calls have answered."""
    page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")
    page.wait_for_timeout(50)


def verdict(page):
    """The verdict at the top of the ruling, opened as a player would on a phone."""
    settled(page)
    summary = page.locator("#b-summary")
    if summary.get_attribute("aria-expanded") == "false":
        summary.click()
    return page.locator("#verdict").inner_text()


def ruling_tab(page, tab):
    """The text of one part of the ruling, opened by its tab."""
    verdict(page)
    page.click(f'[data-fk="tab-{tab}"]')
    return page.locator("#ruling").inner_text()


def place(page, row, col, side, unit_type):
    """Tap a hex, then a unit of that side and type in the hex's sheet."""
    hexagon(page, row, col).click()
    if page.locator(f'[data-fk="place-{side}-{unit_type}"]').count():
        page.click(f'[data-fk="place-{side}-{unit_type}"]')
    else:
        page.select_option('select[data-fk="place-more"]', f"{side}:{unit_type}")


def lay(page, row, col, terrain):
    hexagon(page, row, col).click()
    page.click(f'[data-fk="terrain-{terrain}"]')


def place_infantry_armor_and_forest(page):
    place(page, *ATTACKER, "allies", "infantry")
    place(page, *TARGET, "axis", "armor")
    lay(page, *FOREST, "forest")


def battle_of(app, doc, attacker="u1", target="u2"):
    response = app.test_client().post("/api/v1/battle", json={**doc, "attacker": attacker, "target": target})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def page_situation(page):
    return page.evaluate("""() => {
      const units = [...document.querySelectorAll('.hex')].map((g) => g.getAttribute('aria-label'))
        .filter((label) => /Allied|Axis/.test(label));
      return units.sort();
    }""")


def test_forest_between_blocks_line_of_sight_and_the_builder_asks_only_our_own_site(page, live_server):
    """The line is drawn, blocked by the forest; every request the builder made, from its start to
    the line-of-sight tab, went to our own site."""
    urls = []
    page.on("request", lambda request: urls.append(request.url))
    open_builder(page, live_server)
    place_infantry_armor_and_forest(page)
    text = verdict(page)
    assert "Battle not allowed" in text and "no line of sight" in text
    assert page.locator('.los-line[data-los="blocked"]').count() == 1
    assert page.locator(".los-blocked").count() == 1
    assert "Forest" in ruling_tab(page, "los")
    forest_link = page.locator('#ruling a[href="/rules/terrain/forest"]').first
    assert forest_link.is_visible()
    assert urls and all(url.startswith(live_server + "/") for url in urls), urls


def move_target_into_a_town(page) -> None:
    """Lay a town, then move the target onto it with the unit's Move button (taps only)."""
    lay(page, *TOWN, "town")
    hexagon(page, *TARGET).click()
    page.click('[data-fk="move"]')
    page.wait_for_selector("#move-status.move-status")  # the move answer is in: a tap before it moves nothing
    hexagon(page, *TOWN).click()


def test_an_api_error_is_shown_then_moving_the_target_into_a_town_changes_the_dice_and_breakdown(
        page, live_server, app):
    """One situation: a terrain no unit may stand on gives an error on the board, not a broken
    page, and taking it off brings the ruling back; then the target moved into a town is ruled
    with the town's dice and its breakdown."""
    open_builder(page, live_server)
    place_infantry_armor_and_forest(page)
    assert "Battle not allowed" in verdict(page)
    hexagon(page, *TARGET).click()
    page.select_option('select[data-fk="sel-terrain"]', "river")
    text = verdict(page)
    assert "No ruling for this board" in text and "cannot stand on" in text
    assert page.locator(".error-hex").count() == 1
    hexagon(page, *TARGET).click()
    page.select_option('select[data-fk="sel-terrain"]', "")
    assert "Battle not allowed" in verdict(page)
    move_target_into_a_town(page)
    text = verdict(page)
    expected = battle_of(app, {
        "hexes": [{"row": 5, "col": 11, "terrain": "forest"}, {"row": 4, "col": 8, "terrain": "town"}],
        "units": [{"id": "u1", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                  {"id": "u2", "side": "axis", "type": "armor", "row": 4, "col": 8, "figures": 3}],
    })
    assert expected["legal"]
    dice = expected["dice"]
    assert f"Roll {dice} {'die' if dice == 1 else 'dice'}" in text
    breakdown = page.locator("table.breakdown").inner_text()
    for step in expected["breakdown"]:
        assert step["text"] in breakdown
    assert page.locator('table.breakdown a[href="/rules/terrain/town"]').count() == 1
    assert page.locator('.los-line[data-los="clear"]').count() == 1
    assert page.locator("svg.chart").count() >= 1  # the odds, drawn by our own JS
    if page.viewport_size["width"] > PHONE["width"]:
        save_screenshot(page, "builder-desktop")  # the whole page, the ruling of the town open


def test_a_share_link_and_a_saved_short_link_reproduce_the_situation(page, live_server, elsewhere_page):
    """The situation set up once: its share link opened in another browser, then saved with a title
    and its short link reopened (read-only, then copied to edit)."""
    open_builder(page, live_server)
    place_infantry_armor_and_forest(page)
    before = verdict(page)
    page.wait_for_function("() => location.hash.length > 3")
    page.wait_for_timeout(400)  # the address bar follows the last change
    link = page.url
    assert "#z=" in link or "#s=" in link
    other = elsewhere_page
    open_builder(other, "", link)
    assert verdict(other) == before
    assert page_situation(other) == page_situation(page)
    assert other.locator(".los-line").count() == 2  # the line and its halo

    page.fill("#title", "Woods in the way")
    page.click("#save")
    saved = page.locator("#saved-link")
    saved.wait_for()
    href = saved.get_attribute("href")
    assert href.startswith("/s/") and len(href) == len("/s/") + 8
    open_builder(page, live_server, href)
    assert verdict(page) == before
    assert "Woods in the way" in page.locator(".b-head").inner_text()
    hexagon(page, *FOREST).click()  # read-only: the sheet tells what is there, offers no change
    assert "Forest" in page.locator("#sheet").inner_text()
    assert page.locator('#sheet button[data-fk^="place-"], #sheet [data-fk^="terrain-"], #sheet select').count() == 0
    page.click("#copy-to-edit")
    page.wait_for_url("**/builder#*")
    page.wait_for_selector("#builder.ready")
    assert verdict(page) == before
    hexagon(page, *FOREST).click()
    assert page.locator('#sheet [data-fk="terrain-forest"][aria-pressed="true"]').is_visible()


def test_importing_scenario_files_loads_the_board_and_lists_unknown_names_and_decorative_pieces_apart(
        page, live_server):
    """A file with names we do not know: the board and its units load, the unknown names are
    listed. Then a file with decorative pieces (insignia, battle stars and barges have no rules):
    they are listed apart, not as "unknown", and nothing of the first file's list is left."""
    open_builder(page, live_server)
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SAMPLES / "unknown_names_overlord.m44"))
    page.locator("#import-result").wait_for()
    assert page.locator("#board-kind").input_value() == "overlord"
    assert page.locator(".hex").count() == 26 * 5 + 25 * 4
    unknown = page.locator("#import-unknown").inner_text()
    for name in ("zeppelinfield", "zeppelinus", "badge99", "made_up_rules"):
        assert name in unknown
    assert len(page_situation(page)) == 2

    page.set_input_files("#m44-file", str(SAMPLES / "french_decorative_overlord.m44"))
    page.locator("#import-decorative").wait_for()
    assert page.locator("#import-unknown").count() == 0
    decorative = page.locator("#import-decorative")
    assert "8 decorative pieces" in decorative.locator("summary").inner_text()
    decorative.locator("summary").click()
    listed = decorative.inner_text()
    for name in ("badge3", "badge25", "tag5", "pcarrier", "barge"):
        assert f"“{name}”" in listed


def test_importing_a_standard_scenario_then_picking_a_fight(phone_page, live_server):
    page = phone_page
    open_builder(page, live_server)
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SAMPLES / "crossroads_standard.m44"))
    page.locator("#import-result").wait_for()
    assert len(page_situation(page)) == 5
    assert page.locator('#special-rules input[value="blitz"]').is_checked()
    assert "Pick an attacker" in verdict(page)
    hexagon(page, 6, 10).click()  # the US infantry behind sandbags
    page.click('[data-fk="role-a"]')
    hexagon(page, 4, 12).click()  # the two German tanks beyond the woods
    page.click('[data-fk="role-t"]')
    save_screenshot(page, "import-pick-a-fight-phone", full_page=False)
    text = verdict(page)
    assert "Allied Infantry" in text and "Axis Armor" in text and "no line of sight" in text


def test_keyboard_alone_places_and_selects_units(desktop_page, live_server):
    page = desktop_page
    open_builder(page, live_server)
    hexagon(page, 4, 12).focus()
    page.keyboard.press("Enter")  # opens the hex's sheet, focus on its first choice
    assert page.evaluate("document.activeElement.dataset.fk") == "place-allies-infantry"
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")  # closes the sheet, back on the board
    assert page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.col]") == ["4", "12"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")
    focused = page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.col]")
    assert focused == ["6", "10"]
    page.keyboard.press("Enter")
    for _ in range(3):  # past the three Allied choices to the first Axis one
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.fk") == "place-axis-infantry"
    page.keyboard.press("Enter")
    assert len(page_situation(page)) == 2
    assert "Roll" in verdict(page)


def test_selecting_a_supply_truck_shows_what_it_may_resupply(page, live_server, app):
    """Re-Supply (Half-Tracks rules, Actions 24): with the re-supply rules in effect a truck serves a weakened unit."""
    rules_on = base64.urlsafe_b64encode(json.dumps({"v": 1, "r": ["resupply"]}).encode()).decode().rstrip("=")
    open_builder(page, live_server, f"/builder#s={rules_on}")  # a share link with the Re-Supply rule on
    assert page.locator('#special-rules input[value="resupply"]').is_checked()
    place(page, 6, 10, "allies", "supply_truck")
    place(page, 6, 12, "allies", "infantry")  # placed and selected: take two figures off it
    page.click('[data-fk="edit"]')
    page.click('[data-fk="unit-figures-dec"]')
    page.click('[data-fk="unit-figures-dec"]')
    hexagon(page, 6, 10).click()
    settled(page)
    expected = app.test_client().post("/api/v1/resupply", json={
        "units": [{"id": "u1", "side": "allies", "type": "supply_truck", "row": 6, "col": 10, "figures": 2},
                  {"id": "u2", "side": "allies", "type": "infantry", "row": 6, "col": 12, "figures": 2}],
        "supplier": "u1", "rules": ["resupply"]}).get_json()
    assert [t["unit"] for t in expected["targets"]] == ["u2"]
    ruling = ruling_tab(page, "after")
    assert "Re-supply" in ruling or "RE-SUPPLY" in ruling
    assert f"up to +{expected['targets'][0]['max_figures']}" in ruling
    assert page.locator(".resupply-hex").count() == 1


def test_marking_the_battle_as_an_overrun_rules_out_a_second_overrun(desktop_page, live_server, elsewhere_page):
    page = desktop_page
    open_builder(page, live_server)
    place(page, 4, 10, "allies", "armor")
    place(page, 4, 12, "axis", "infantry")
    settled(page)
    assert "Armor overrun: yes" in ruling_tab(page, "after")
    page.check("#overrun-battle")
    settled(page)
    ruling = ruling_tab(page, "after")
    assert "Armor overrun: no" in ruling and "Take ground: yes" in ruling
    assert "at most 1 overrun battle" in ruling
    page.wait_for_function("() => location.hash.length > 3")
    page.wait_for_timeout(400)  # the address bar follows the last change
    other = elsewhere_page
    open_builder(other, "", page.url)
    assert other.is_checked("#overrun-battle")
    settled(other)
    assert "Armor overrun: no" in ruling_tab(other, "after")


def test_without_javascript_the_page_says_so_and_links_the_api(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server + "/builder")
        notice = page.locator(".b-noscript")
        assert notice.is_visible() and "needs JavaScript" in notice.inner_text()
        assert notice.locator('a[href="/api/v1/openapi.json"]').count() == 1
        assert not page.locator("#b-layout").is_visible()
    finally:
        context.close()


def test_example_gallery_loads_an_example(page, live_server):
    open_builder(page, live_server)
    if page.locator("#examples-box:not([open])").count():  # folded on a phone
        page.locator("#examples-box summary").click()
    first = page.locator("#examples .example").first
    title = first.inner_text()
    first.click()
    assert title in page.locator("#b-message").inner_text()
    assert len(page_situation(page)) >= 1


def test_builder_fits_a_phone_with_thumb_sized_controls(phone_page, live_server):
    page = phone_page
    open_builder(page, live_server)
    place_infantry_armor_and_forest(page)
    hexagon(page, *ATTACKER).click()
    verdict(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    small = page.evaluate("""() => [...document.querySelectorAll(
        '#b-layout button, #b-layout select, #b-layout .check-chip, #b-layout summary')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect().height])
      .filter(([, height]) => height < 44)""")
    assert small == []
    hex_width = hexagon(page, *ATTACKER).bounding_box()["width"]
    assert hex_width >= 44
    page.evaluate("window.scrollTo(0, 0)")
    save_screenshot(page, "builder-phone")


def test_a_damaged_share_link_says_so_and_leaves_a_working_board(phone_page, live_server):
    page = phone_page
    open_builder(page, live_server, "/builder#z=not-a-real-link")
    assert "damaged" in page.locator("#b-message").inner_text()
    place(page, *ATTACKER, "allies", "infantry")
    assert len(page_situation(page)) == 1


def test_a_share_link_that_would_inflate_past_any_board_is_refused_with_a_message(phone_page, live_server):
    """A deflate bomb: a 20 KB link that unpacks to 20 MB (a 136 KB one unpacked to 100 MB and took
    the tab down). The builder stops reading at the API's largest body, says why, and stays usable."""
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, as the builder's links are
    bomb = packer.compress(b'{"v": 1, "n": "' + b"a" * 20_000_000 + b'"}') + packer.flush()
    link = base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(link) < 40_000
    page = phone_page
    open_builder(page, live_server, f"/builder#z={link}")
    shown = page.locator("#b-message").inner_text()
    assert "was not opened" in shown and "256 KB" in shown
    save_screenshot(page, "builder-link-too-large", full_page=False)
    place(page, *ATTACKER, "allies", "infantry")
    assert len(page_situation(page)) == 1


def test_british_battle_back_is_offered_after_the_battle(desktop_page, live_server, app):
    """The follow-up battles of /battle (Stiff Upper Lip) are shown, citing their rule."""
    page = desktop_page
    link = {"v": 1, "u": [["A", "axis", "infantry", 5, 11, 4], ["B", "allies", "infantry", 4, 12, 4, 0, "", "british"]],
            "a": "A", "t": "B"}
    encoded = base64.urlsafe_b64encode(json.dumps(link).encode()).decode().rstrip("=")
    open_builder(page, live_server, f"/builder#s={encoded}")
    expected = battle_of(app, {"units": [
        {"id": "A", "side": "axis", "type": "infantry", "row": 5, "col": 11, "figures": 4},
        {"id": "B", "side": "allies", "type": "infantry", "row": 4, "col": 12, "figures": 4, "nation": "british"}]},
        attacker="A", target="B")
    [back] = expected["follow_ups"]
    ruling = ruling_tab(page, "after")
    assert "Battle back:" in ruling and back["text"] in ruling
    assert page.locator('#ruling li.follow-up a[href="/rules/nation/british_commonwealth"]').count() == 1
