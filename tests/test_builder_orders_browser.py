"""'Play a card' in headless Chromium on a 375×812 touch phone, against the real engine (core
``ordering``, ``/api/v1/order``): Probe in the centre with a unit on the section line, units
ordered by tapping them, a pick from the wrong section and a pick too many refused with the
rule, and the battle then ruled under the card."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from tests.conftest import open_afresh, save_screenshot
from tests.test_builder_browser import hexagon, verdict

pytestmark = pytest.mark.browser

STRADDLER = ("S", "allies", "infantry", 7, 7, 4)  # on the left/centre line
CENTRE = [("C1", "allies", "infantry", 8, 10, 4), ("C2", "allies", "armor", 8, 12, 3)]
RIGHT = ("R", "allies", "infantry", 7, 19, 4)
ENEMY = ("X", "axis", "infantry", 5, 9, 4)


def link(units: list[tuple[str, str, str, int, int, int]], attacker: str, target: str, **more: Any) -> str:
    """A builder share link (builder-state.js, format 1) holding these units and the battle (and
    ``more`` of its fields: "c" the card, "p" how it is played)."""
    compact = {"v": 1, "u": [list(u) for u in units], "a": attacker, "t": target, **more}
    return "/builder#s=" + base64.urlsafe_b64encode(json.dumps(compact).encode()).decode().rstrip("=")


def count_text(page: Any) -> str:
    return page.locator("#play-count").inner_text()


def probe_played(page: Any, live_server: str) -> Any:
    """The builder with units in the centre, on the line and on the right, and the Allies playing
    Probe in the centre."""
    page.goto(live_server + link([STRADDLER, *CENTRE, RIGHT, ENEMY], "S", "X"))
    page.wait_for_selector("#builder.ready")
    page.select_option("#play-side", "allies")
    page.select_option("#play-card", "probe@center")
    return page


def test_probe_in_the_centre_orders_by_taps_and_refuses_with_the_rule(phone_page: Any, live_server: str) -> None:
    page = probe_played(phone_page, live_server)
    page.wait_for_selector("#play-count")
    # The straddling unit and the two in the centre may be ordered; the one on the right may not.
    page.wait_for_function("() => document.querySelectorAll('#board .order-can').length === 3")
    assert "0 of 2 units ordered" in count_text(page)
    assert page.locator("#board .order-count").first.inner_html()
    save_screenshot(page, "orders-probe-centre-phone", full_page=False)

    page.click("#play-order")
    hexagon(page, 7, 7).click()
    page.wait_for_function("() => document.querySelector('#play-count').textContent.includes('1 of 2')")
    hexagon(page, 8, 10).click()
    page.wait_for_function("() => document.querySelector('#play-count').textContent.includes('2 of 2')")
    assert page.locator("#board .order-on").count() == 2
    # A third pick from the right section: refused for its section, with the card's rule.
    hexagon(page, 7, 19).click()
    page.wait_for_selector("#play-refusal")
    refusal = page.locator("#play-refusal").inner_text()
    assert "is in the right section: Probe orders units in the center" in refusal
    assert page.locator("#play-refusal a.rule-link").first.get_attribute("href") == "/rules/command_card/probe"
    # The fourth, in the centre: refused because Probe orders 2.
    hexagon(page, 8, 12).click()
    page.wait_for_function("() => document.querySelector('#play-refusal')?.textContent.includes('at most 2')")
    assert "Probe orders at most 2 units here; 3 were chosen" in page.locator("#play-refusal").inner_text()
    assert "2 of 2" in count_text(page)
    save_screenshot(page, "orders-fourth-refused-phone", full_page=False)

    # The battle is ruled under the card: the ordered unit on the line may battle.
    page.click("#play-order")
    text = verdict(page)
    assert "Roll 2 dice" in text or "2 dice" in text
    save_screenshot(page, "orders-battle-under-probe-phone", full_page=False)
    # A unit the card ordered not: its battle is refused, citing the ordering rule.
    hexagon(page, 8, 12).click()
    page.click('[data-fk="role-a"]')
    assert "Battle not allowed" in verdict(page)
    assert "was not ordered this turn" in page.locator("#ruling").inner_text()
    save_screenshot(page, "orders-unordered-refused-phone", full_page=False)
    # The share link keeps the card played and the orders: opened afresh, the same count.
    page.wait_for_timeout(400)
    again = page.url
    open_afresh(page, again)
    page.wait_for_selector("#builder.ready")
    page.wait_for_function("() => document.querySelector('#play-count')?.textContent.includes('2 of 2')")
    assert page.locator("#play-card").input_value() == "probe@center"


def test_their_finest_hour_asks_for_each_ordering_face_by_its_name(phone_page: Any, live_server: str,
                                                                     rulebook: Any) -> None:
    """Their Finest Hour orders a unit for each die showing its symbol or a star (card
    ``roll_orders``): "Play a card" asks how many of those faces were rolled, each named as the
    die-face table of core ``range_and_dice`` names it, in the card's order."""
    page = phone_page
    page.goto(live_server + link([*CENTRE, ENEMY], "C1", "X"))
    page.wait_for_selector("#builder.ready")
    page.select_option("#play-side", "allies")
    page.select_option("#play-card", "their_finest_hour")
    page.wait_for_selector(".play-face")
    card = rulebook.rules["their_finest_hour"]
    names = rulebook.core_rules("range_and_dice").face_names
    labels = [t.strip() for t in page.locator(".play-face").all_inner_texts()]
    assert labels == [names[o.face] for o in card.roll_orders] == ["Infantry", "Armor", "Star"]
    assert page.locator('[data-fk="play-die-star"]').get_attribute("aria-label") == "Star symbols rolled"


def test_another_share_link_opened_in_the_same_tab_ends_the_ordering_and_its_message(phone_page: Any,
                                                                                      live_server: str) -> None:
    """A link opened in the tab that holds another situation replaces it whole, as in a new tab:
    the ordering under way (taps that order units) and what the page said about it end with it."""
    page = probe_played(phone_page, live_server)
    page.wait_for_function("() => document.querySelector('#play-count')?.textContent.includes('0 of 2')")
    page.click("#play-order")
    hexagon(page, 7, 7).click()
    page.wait_for_function("() => document.querySelector('#play-count').textContent.includes('1 of 2')")
    page.click("#play-order")
    page.click("#play-order")  # ordering again: the page says how
    assert page.locator("#play-order").get_attribute("aria-pressed") == "true"
    assert page.locator("#b-message").is_visible()
    played = link([STRADDLER, *CENTRE, RIGHT, ENEMY], "S", "X", c="probe", p={"d": "allies", "x": "center"})
    page.evaluate("(link) => { location.hash = link.split('#')[1]; }", played)  # the card played, none ordered
    page.wait_for_function("() => document.querySelector('#play-count')?.textContent.includes('0 of 2')")
    assert page.locator("#play-order").get_attribute("aria-pressed") == "false"
    assert page.locator("#b-message").is_hidden()
    hexagon(page, 8, 10).click()  # a tap now opens the hex's sheet, it orders nothing
    page.wait_for_selector("#sheet-body [data-fk]")
    assert "0 of 2" in count_text(page)
