"""Search in headless Chromium on a phone: as you type, by keyboard, and without JavaScript."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PHONE, PHONE_DEVICE, save_screenshot

pytestmark = pytest.mark.browser


def header_box(page):
    return page.locator("header input[name=q]")


def first_suggestion(page, box, text):
    """Type ``text`` key by key into ``box`` and wait for the first as-you-type suggestion."""
    box.click()
    box.press_sequentially(text, delay=30)
    answered = "(q) => [...document.querySelectorAll('.suggest')].some((l) => l.dataset.query === q)"
    page.wait_for_function(answered, arg=text)
    first = page.locator(".suggest [role=option]").first
    first.wait_for(state="visible")
    return first


def test_typo_in_the_header_box_shows_the_right_entry_first_and_enter_opens_it(phone_page, live_server):
    phone_page.goto(f"{live_server}/rules/terrain/forest")
    box = header_box(phone_page)
    first = first_suggestion(phone_page, box, "hedgrow")
    assert "Hedgerow" in first.inner_text()
    assert box.get_attribute("aria-expanded") == "true"
    assert "matching rule" in phone_page.locator("header [role=status]").inner_text()
    save_screenshot(phone_page, "search-as-you-type-phone")
    box.press("ArrowDown")
    assert first.get_attribute("aria-selected") == "true"
    assert box.get_attribute("aria-activedescendant") == first.get_attribute("id")
    box.press("Enter")
    phone_page.wait_for_url("**/rules/terrain/hedgerow")
    assert phone_page.locator("h1").inner_text().strip() == "Hedgerow"


def test_arrow_keys_move_through_matches_and_escape_closes(phone_page, live_server):
    phone_page.goto(f"{live_server}/rules/")
    phone_page.keyboard.press("/")  # "/" focuses the search box from anywhere on the page
    box = header_box(phone_page)
    assert phone_page.evaluate("document.activeElement.name") == "q"
    phone_page.keyboard.type("can tanks enter a bunker", delay=10)
    options = phone_page.locator(".suggest [role=option]")
    options.first.wait_for(state="visible")
    phone_page.wait_for_function(
        # a function, not an expression: polling an expression needs eval, which the CSP refuses
        "() => document.querySelector('.suggest [role=option] .suggest-name')?.textContent === 'Bunker'"
    )
    box.press("ArrowDown")
    box.press("ArrowDown")
    assert options.nth(1).get_attribute("aria-selected") == "true"
    assert options.nth(0).get_attribute("aria-selected") == "false"
    box.press("ArrowUp")
    assert options.nth(0).get_attribute("aria-selected") == "true"
    box.press("Escape")
    assert phone_page.locator(".suggest").first.is_hidden()
    assert box.get_attribute("aria-expanded") == "false"
    # Enter with nothing highlighted submits the form: the full results page.
    box.press("Enter")
    phone_page.wait_for_url("**/search?q=can+tanks+enter+a+bunker")
    assert phone_page.locator(".result-link").first.inner_text() == "Bunker"


def test_suggestions_fit_a_phone_screen(phone_page, live_server):
    phone_page.goto(f"{live_server}/")
    first = first_suggestion(phone_page, phone_page.locator("input[name=q]").first, "artilery")
    assert "Artillery" in first.inner_text()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    save_screenshot(phone_page, "search-home-typo-phone")


def test_search_works_without_javascript(browser, live_server):
    context = browser.new_context(**PHONE_DEVICE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/rules/terrain/forest")
        box = header_box(page)
        box.fill("bunkr")
        box.press("Enter")
        page.wait_for_url("**/search?q=bunkr")
        assert page.locator(".result-link").first.inner_text() == "Bunker"
        assert "Did you mean" in page.locator(".did-you-mean").inner_text()
        assert page.locator(".suggest").count() == 0  # no script ran
        box = header_box(page)
        assert box.input_value() == "bunkr"
        box.fill("tanks")
        box.press("Enter")
        page.wait_for_url("**/search?q=tanks")
        assert page.locator(".result-link").first.inner_text() == "Armor"
        page.locator(".facets a", has_text="Obstacles").first.click()
        # the address changes before the new page is parsed: wait for it whole (on a loaded
        # machine the list was read once before any result was there)
        page.wait_for_url(re.compile(r"[?&]kind=obstacle\b"), wait_until="load")
        assert "kind=obstacle" in page.url
        badges = page.locator(".result .badge").all_inner_texts()
        assert badges and set(badges) == {"Obstacle"}
        save_screenshot(page, "search-results-no-js-phone")
    finally:
        context.close()


def test_as_you_type_falls_back_to_the_copy_on_the_phone_when_the_server_is_unreachable(phone_page, live_server):
    phone_page.goto(f"{live_server}/rules/")
    phone_page.route(lambda url: "/api/v1/search?" in url, lambda route: route.abort())
    first = first_suggestion(phone_page, header_box(phone_page), "sandbag")
    assert "Sandbags" in first.inner_text()


def test_as_you_type_falls_back_to_the_copy_on_the_phone_when_the_server_answers_503(phone_page, live_server):
    """The service worker answers a search with 503 offline: that too falls back to the copy."""
    phone_page.goto(f"{live_server}/rules/")
    phone_page.route(lambda url: "/api/v1/search?" in url, lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"error": {"code": "offline", "message": "offline"}}'))
    first = first_suggestion(phone_page, header_box(phone_page), "sandbag")
    assert "Sandbags" in first.inner_text()
