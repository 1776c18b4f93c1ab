"""Retake the README's screenshot: the builder mid-dispute on a phone (375x812, touch).

Run against a server the caller started (``make run``, or any URL):

    .venv/bin/python docs/img/take_screenshots.py http://127.0.0.1:5000

It sets up the standard dispute of ``tests/test_builder_flow_browser.py`` by taps (Allied infantry
on a hill, Axis armor in a forest two hexes away, a hedgerow beside the line), waits for the
one-line ruling, opens the Dice tab and saves ``docs/img/builder-phone.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
STEPS = [((6, 10), "place-allies-infantry", "terrain-hill"),
         ((4, 10), "place-axis-armor", "terrain-forest"),
         ((5, 11), None, "terrain-hedgerow")]


def main(base: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True,
                                      has_touch=True, device_scale_factor=1, service_workers="block")
        page = context.new_page()
        page.goto(base.rstrip("/") + "/builder")
        page.wait_for_selector("#builder.ready")
        for (row, col), unit, terrain in STEPS:
            page.locator(f'.hex[data-row="{row}"][data-col="{col}"]').tap()
            for control in (unit, terrain):
                if control:
                    page.locator(f'[data-fk="{control}"]').tap()
                    page.wait_for_timeout(80)
        page.wait_for_function("() => /die|dice/.test(document.getElementById('b-summary').textContent)"
                               " && !document.querySelector('#b-summary.pending')")
        page.locator("#b-summary").tap()
        page.locator('[data-fk="tab-dice"]').tap()
        page.wait_for_timeout(300)
        page.screenshot(path=str(HERE / "builder-phone.png"))
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5000")
