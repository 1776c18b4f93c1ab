"""The score in the builder, in headless Chromium on a 375×812 touch phone: importing a scenario
shows its medal count and objectives at once; an armor unit eliminates the town's defender, takes
ground onto the town objective (rules `take_ground`, `temporary_medal`) and the strip under the
board counts each medal, a tap listing where each comes from with its rule."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import open_afresh, save_screenshot
from tests.test_builder_browser import hexagon, open_builder, settled, verdict

pytestmark = pytest.mark.browser

SCENARIO = Path(__file__).parent / "m44" / "town_assault_standard.m44"


def strip(page: Any) -> dict[str, Any]:
    """The strip's numbers, once its answer is in."""
    page.wait_for_selector("#score-strip")
    page.wait_for_timeout(350)  # the score is asked 200 ms after a change
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#score-strip .score-side')]
        .map((el) => [el.dataset.side, el.querySelector('.score-medals').textContent
                      + el.querySelector('.score-of').textContent]))""")


def test_the_score_strip_follows_a_take_ground_onto_an_objective(phone_page: Any, live_server: str, app: Any) -> None:
    page = phone_page
    data = json.loads(SCENARIO.read_text())
    needed = data["game_info"]["victory_player2"]  # the Allies sit at the bottom (player 2)
    open_builder(page, live_server)
    page.locator("#import-box summary").click()
    page.set_input_files("#m44-file", str(SCENARIO))
    page.locator("#import-result").wait_for()
    assert "1 objective hex" in page.locator("#import-scenario").inner_text()
    assert strip(page) == {"allies": f"0/{needed}", "axis": f"0/{data['game_info']['victory_player1']}"}
    town = page.locator('.objective-mark[data-kind="temporary_medal"]')
    assert town.count() == 1 and town.get_attribute("data-holder") == ""
    assert page.locator("text.exit-text").count() == 1
    page.evaluate("window.scrollTo(0, 0)")
    save_screenshot(page, "score-imported-phone", full_page=False)

    hexagon(page, 5, 11).click()  # the British tank
    page.click('[data-fk="role-a"]')
    hexagon(page, 4, 12).click()  # the German infantry in the town
    page.click('[data-fk="role-t"]')
    dice = int(re.search(r"Roll (\d+) di", verdict(page))[1])  # 1: armor attacking a town loses two dice
    page.click('[data-fk="enter-roll"]')
    for face in ("grenade", *["star"] * (dice - 1)):  # the grenade eliminates the lone infantry figure
        page.click(f'[data-fk="roll-{face}"]')
    page.wait_for_selector("#roll-steps")
    steps = page.locator("#roll-steps").inner_text()
    assert "This roll gives the Allies 1 medal" in steps  # /resolve says what the roll changes
    page.click('[data-fk="roll-board"]')
    page.wait_for_selector('[data-fk="take-ground"]')
    assert strip(page)["allies"] == f"1/{needed}"
    page.click('[data-fk="take-ground"]')
    settled(page)
    after = strip(page)
    situation = page_situation_doc(page)
    expected = app.test_client().post("/api/v1/score", json=situation).get_json()
    assert after["allies"] == f"{expected['medals']['allies']}/{needed}" == f"2/{needed}"
    assert town.get_attribute("data-holder") == "allies"
    page.click("#score-strip")
    details = page.locator("#score-details").inner_text()
    for source in expected["sources"]:
        assert source["text"] in details
    assert page.locator('#score-details a[href="/rules/victory/temporary_medal"]').count() == 1
    assert page.locator('#score-details a[href="/rules/core/medals"]').count() >= 1
    assert page.evaluate("[window.scrollX]") == [0]
    save_screenshot(page, "score-after-take-ground-phone", full_page=False)
    save_screenshot(page, "score-after-take-ground-phone-full")
    # the share link carries the scenario and the casualty: opened afresh, the same score
    link = page.url
    open_afresh(page, link)
    page.wait_for_selector("#builder.ready")
    assert strip(page) == after


def page_situation_doc(page: Any) -> dict[str, Any]:
    """The situation the page holds, read back from its share link as the API takes it."""
    return page.evaluate("""async () => {
        const m = await import('/static/js/builder-state.js');
        return m.situationDoc(m.newState(await m.decodeFragment(location.hash)));
    }""")
