"""Readable in sunlight, usable with a screen reader: every page a player opens at the table is
checked in Chromium for text contrast (WCAG AA: 4.5:1, 3:1 for large text), named controls,
labelled images, a language and one main heading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGES = ["/", "/rules/terrain/forest", "/rules/", "/rules/unit/", "/search?q=hedgrow", "/builder",
         "/rules/marker/unit_in_boat", "/no-such-page"]

AUDIT = (Path(__file__).parent / "a11y_audit.js").read_text()


def audit(page: Any) -> list[str]:
    return page.evaluate(AUDIT)


SCHEMES = ("light", "dark")
"""The site styles both colour schemes in CSS alone (each colour is ``light-dark(…)``; no script
reads the phone's setting), so one page load is audited in each: switching the emulated scheme
redraws the page as a load in that scheme would."""


def in_each_scheme(page: Any, check: Any) -> None:
    """``check()`` on the page as it stands, in the light and then in the dark scheme."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        check(scheme)


@pytest.mark.parametrize("path", PAGES)
def test_page_text_has_enough_contrast_and_every_control_a_name_in_light_and_dark(phone_page, live_server, path):
    phone_page.goto(live_server + path)
    if path == "/builder":
        phone_page.wait_for_selector("#builder.ready")

    def audited(scheme: str) -> None:
        assert audit(phone_page) == [], scheme

    in_each_scheme(phone_page, audited)


def test_builder_on_a_winter_board_passes_the_audit_in_light_and_dark(phone_page, live_server):
    """Core rule ``board_faces``: a board drawn in the winter face, with its face picker and legend open, keeps
    AA contrast and named controls, and the words on the snowy board stay readable, in either scheme."""
    from tests.test_board_face_browser import BOARD_TEXT_CONTRAST, SAMPLES

    page = phone_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SAMPLES / "winter_face_standard.m44"))
    page.wait_for_function("() => document.querySelector('#board').dataset.face === 'winter'")
    page.locator("#board-box summary").click()
    page.locator("#legend-box summary").click()
    assert page.locator("#legend-face").is_visible()

    def audited(scheme: str) -> None:
        assert audit(page) == [], scheme

    def words_readable(scheme: str) -> None:
        words = page.evaluate(BOARD_TEXT_CONTRAST)
        assert words["checked"] > 100 and words["failures"] == [], (scheme, words)

    in_each_scheme(page, audited)
    page.click("#show-labels")
    in_each_scheme(page, words_readable)


def test_builder_ruling_is_readable(desktop_page, live_server):
    """The ruling panel, with its breakdown, odds and reasons, after a real battle is set up."""
    page = desktop_page
    page.goto(live_server + "/builder")
    page.wait_for_selector("#builder.ready")
    page.locator('.hex[data-row="6"][data-col="10"]').click()
    page.click('[data-fk="place-allies-infantry"]')
    page.locator('.hex[data-row="4"][data-col="12"]').click()
    page.click('[data-fk="place-axis-infantry"]')
    page.wait_for_function("() => document.querySelector('#verdict:not(.pending)')")
    page.wait_for_timeout(100)
    assert "Roll" in page.locator("#verdict").inner_text()
    assert audit(page) == []  # the hex sheet, open, and the first tab of the ruling
    tabs = page.locator('#ruling-tabs [role="tab"]')
    assert tabs.count() == 6  # dice, roll (enter the roll), line of sight, retreat, odds, after
    for i in range(tabs.count()):  # every part of the ruling, each under its own tab
        tabs.nth(i).click()
        assert audit(page) == []


def test_the_audit_catches_faint_text_and_unnamed_controls(phone_page, live_server):
    """The checker itself can fail: pale grey text and a bare input are reported."""
    phone_page.goto(live_server + "/rules/terrain/forest")
    phone_page.evaluate("""() => {
      const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#bbb';
      p.style.background = '#fff'; document.querySelector('main').append(p, document.createElement('input'));
    }""")
    found = audit(phone_page)
    assert any("faint" in line for line in found) and any("unnamed control" in line for line in found)
