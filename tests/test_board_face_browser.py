"""The builder draws the board in its printed face (core rule ``board_faces``) on a phone:
an imported winter scenario turns the countryside snowy, the face can be picked, and it survives
edits, a reload, a share link and a save, without changing the ruling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import save_screenshot

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).parent / "m44"
OPEN_FILL = "() => getComputedStyle(document.querySelector('#board .hex.t-open .hex-bg')).fill"

BOARD_TEXT_CONTRAST = """() => {
  // The page audit (a11y_audit.js) skips SVG; the board's own words are checked here: each
  // coordinate or terrain name against the colour of the hex it is drawn on (with a winter tile's
  // snow wash), WCAG AA for 13 px bold text (4.5:1). On the countryside, whose colour is the
  // face's, the words must pass on the bare colour; on a terrain tile (the same colour on every
  // face) they are seen through their halo (a stroke of at least 2 px drawn under the letters, so
  // what borders every letter is the halo over the tile).
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const over = (fg, bg) => ({r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a),
    b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1});
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ({r, g, b}) => {
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const hexes = [...document.querySelectorAll('#board .hexes > .hex')];
  const tops = [...document.querySelectorAll('#board .tops > .hex-top')];
  const failures = [];
  let checked = 0;
  hexes.forEach((g, i) => {
    if (g.querySelector('.hex-obstacle')) return;  // obstacle names sit on the obstacle's own ring
    let bg = parse(getComputedStyle(g.querySelector('.hex-bg')).fill);
    const snow = g.querySelector('.hex-snow');
    if (snow) bg = over(parse(getComputedStyle(snow).fill), bg);
    for (const text of tops[i].querySelectorAll(':scope > .hex-label, :scope > .hex-terrain')) {
      if (getComputedStyle(text).display === 'none' || !text.textContent.trim()) continue;
      const style = getComputedStyle(text);
      const haloed = !g.classList.contains('t-open') && parse(style.stroke) && parseFloat(style.strokeWidth) >= 2;
      const halo = haloed ? over(parse(style.stroke), bg) : bg;
      const [hi, lo] = [lum(over(parse(style.fill), halo)), lum(halo)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      checked += 1;
      if (ratio < 4.5) failures.push(`${ratio.toFixed(2)} < 4.5: ${text.textContent} on ${g.getAttribute('class')}`);
    }
  });
  return {checked, failures};
}"""


def open_builder(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#builder.ready")


def import_file(page: Any, name: str) -> None:
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SAMPLES / name))
    page.locator("#import-result").wait_for()


def board_face(page: Any) -> str:
    return page.evaluate("() => document.querySelector('#board').dataset.face")


def rgb(fill: str) -> tuple[int, ...]:
    return tuple(int(float(v)) for v in fill[fill.index("(") + 1:fill.index(")")].split(",")[:3])


def settled_verdict(page: Any) -> str:
    page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")
    page.wait_for_timeout(50)
    return page.locator("#b-summary").inner_text()


def test_importing_a_winter_scenario_draws_a_snowy_countryside(phone_page, live_server):
    page = phone_page
    open_builder(page, live_server + "/builder")
    summer = page.evaluate(OPEN_FILL)
    assert board_face(page) == "country"
    import_file(page, "winter_face_standard.m44")
    page.wait_for_function("() => document.querySelector('#board').dataset.face === 'winter'")
    winter = page.evaluate(OPEN_FILL)
    assert winter != summer
    r, g, b = rgb(winter)
    assert min(r, g, b) >= 225 and b >= r  # snowy white with a cold (blue-grey) cast
    assert "Winter" in (page.locator("#legend-face").text_content() or "")
    assert page.locator("#board-face").input_value() == "winter"
    assert "winter face" in (page.locator("#board").get_attribute("aria-label") or "")
    page.evaluate("() => window.scrollTo(0, 0)")
    save_screenshot(page, "board-face-winter-phone")
    # the address bar holds the face: a reload draws the same board
    page.wait_for_function("() => location.hash.length > 3")
    page.wait_for_timeout(400)
    page.reload()
    page.wait_for_selector("#builder.ready")
    assert board_face(page) == "winter" and page.evaluate(OPEN_FILL) == winter


def test_picked_face_survives_edits_a_share_link_and_a_save_and_changes_no_ruling(phone_page, live_server,
                                                                                  elsewhere_page):
    page = phone_page
    open_builder(page, live_server + "/builder")
    steps = (((6, 10), "place-allies-infantry"), ((4, 12), "place-axis-armor"), ((5, 11), "terrain-forest"))
    for (row, col), fk in steps:
        page.locator(f'.hex[data-row="{row}"][data-col="{col}"]').click()
        page.click(f'[data-fk="{fk}"]')
    summer_ruling = settled_verdict(page)
    page.locator("#board-box summary").click()
    control = page.locator("#board-face")
    box = control.bounding_box()
    assert box and box["height"] >= 44  # a thumb-sized target
    assert page.locator("label:has(#board-face)").inner_text().startswith("Board face")
    control.select_option("desert")
    assert board_face(page) == "desert"
    page.locator('.hex[data-row="1"][data-col="1"]').click()  # an edit far from the battle
    page.click('[data-fk="terrain-hedgerow"]')
    assert board_face(page) == "desert"
    page.wait_for_timeout(400)  # the address bar follows the last change
    link = page.url
    other = elsewhere_page  # a browser apart: a fresh ruling, asked with "face": "desert"
    open_builder(other, link)
    assert board_face(other) == "desert" and other.locator("#board-face").input_value() == "desert"
    assert settled_verdict(other) == summer_ruling
    page.locator("#share-box summary").scroll_into_view_if_needed()
    page.click("#save")
    saved = page.locator("#saved-link")
    saved.wait_for()
    open_builder(page, live_server + saved.get_attribute("href"))
    assert board_face(page) == "desert"
    assert page.locator("#board-face").is_disabled()
    assert settled_verdict(page) == summer_ruling


def test_the_board_contrast_check_can_fail(phone_page, live_server):
    """The board-words check (run on a winter board by test_accessibility_browser.py) reports
    dark words on a countryside made dark."""
    page = phone_page
    open_builder(page, live_server + "/builder")
    page.click("#show-labels")
    page.add_style_tag(content="#board { --t-open: #333; }")  # dark countryside under dark words
    result = page.evaluate(BOARD_TEXT_CONTRAST)
    assert result["failures"]
