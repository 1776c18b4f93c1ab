"""Rule pages in headless Chromium at phone size."""

from __future__ import annotations

import pytest

from tests.conftest import save_screenshot

pytestmark = pytest.mark.browser


def test_entry_page_shows_summary_on_a_phone(phone_page, live_server, catalogue):
    forest = catalogue.entries["forest"]
    phone_page.goto(f"{live_server}/rules/terrain/forest")
    summary = phone_page.locator(".summary")
    assert summary.inner_text().strip() == forest.meta.summary
    # Readable on a 375 px phone: nothing wider than the viewport.
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    save_screenshot(phone_page, "entry-forest-phone")


def test_home_search_box_is_reachable_on_a_phone(phone_page, live_server):
    phone_page.goto(live_server + "/")
    box = phone_page.locator("input[name=q]").first
    assert box.is_visible()
    assert box.bounding_box()["height"] >= 44  # a thumb-sized tap target


def test_breadcrumb_and_permalink_links_are_44_px_tap_targets(phone_page, live_server):
    phone_page.goto(f"{live_server}/rules/terrain/forest")
    heights = phone_page.evaluate("""() => [...document.querySelectorAll('.crumbs a, .permalink')]
        .map((a) => [a.textContent.trim(), a.getBoundingClientRect().height])""")
    assert len(heights) == 3
    assert [text for text, height in heights if height < 44] == []


def test_the_expansion_filter_looks_like_a_control(phone_page, live_server):
    phone_page.goto(f"{live_server}/search?q=tank")
    summary = phone_page.locator("details.facets summary")
    style = summary.evaluate("(el) => { const s = getComputedStyle(el); return [s.borderTopStyle, s.borderRadius]; }")
    assert style[0] == "solid" and style[1] != "0px"
    assert summary.bounding_box()["height"] >= 44
