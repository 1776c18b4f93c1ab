"""User text is always escaped: unit names, imported scenario strings and search queries can
never run script, in the server's HTML or in what our JavaScript draws."""

from __future__ import annotations

import json

import pytest

PAYLOADS = [
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned=1">',
    "<svg onload=window.__pwned=1>",
    "javascript:window.__pwned=1",
]
MARK = "window.__pwned"


def no_injection(page) -> None:
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src=x], script:not([src]):not([type])").count() == 0


@pytest.mark.parametrize("payload", PAYLOADS)
def test_search_query_is_escaped_in_the_page(client, payload):
    html = client.get("/search", query_string={"q": payload}).get_data(as_text=True)
    for raw in ("<script>window", "<img src=x", "<svg onload", 'href="javascript:', "href='javascript:"):
        assert raw not in html


@pytest.mark.parametrize("payload", PAYLOADS)
def test_error_messages_are_escaped_json(client, payload):
    body = {"units": [{"id": payload, "side": "allies", "type": payload, "row": 6, "col": 10, "figures": 1}]}
    response = client.post("/api/v1/battle", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    # The text is echoed inside JSON, which a browser never renders as a page: the type is JSON
    # and sniffing is off.
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.get_json()["error"]["field"] == "units[0].type"


@pytest.mark.browser
def test_search_query_never_runs_in_the_browser(phone_page, live_server):
    for payload in PAYLOADS:
        phone_page.goto(live_server + "/search?q=" + payload.replace("#", "%23"))
        box = phone_page.locator("header input[name=q]")
        box.fill(payload)  # the as-you-type list draws it too
        phone_page.wait_for_timeout(400)
        no_injection(phone_page)


@pytest.mark.browser
def test_saved_unit_names_never_run_in_the_builder(desktop_page, live_server):
    import urllib.request

    units = [
        {"id": PAYLOADS[1], "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
        {"id": PAYLOADS[2][:40], "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3},
    ]
    body = {"units": units, "attacker": units[0]["id"], "target": units[1]["id"], "title": PAYLOADS[0]}
    request = urllib.request.Request(live_server + "/api/v1/situations", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        saved = json.loads(response.read())
    desktop_page.goto(live_server + saved["url"])
    desktop_page.wait_for_selector("#builder.ready")
    desktop_page.wait_for_timeout(800)  # let the ruling come back and be drawn
    no_injection(desktop_page)
    assert PAYLOADS[0] in desktop_page.locator(".b-head").inner_text()  # shown as text


@pytest.mark.browser
def test_imported_scenario_strings_never_run_in_the_builder(desktop_page, live_server, tmp_path):
    scenario = {
        "game_info": {"side_player1": "AXIS", "side_player2": "ALLIES", "options": {PAYLOADS[1]: True}},
        "board": {"type": "STANDARD", "hexagons": [
            {"row": 4, "col": 10, "terrain": {"name": PAYLOADS[2]}},
            {"row": 5, "col": 11, "unit": {"name": PAYLOADS[1]}},
            {"row": 6, "col": 10, "unit": {"name": "infus"}},
        ]},
        "text": {"en": {"name": PAYLOADS[0]}},
    }
    path = tmp_path / "evil.m44"
    path.write_text(json.dumps(scenario))
    desktop_page.goto(live_server + "/builder")
    desktop_page.wait_for_selector("#builder.ready")
    desktop_page.locator("#import-box summary").click()
    desktop_page.set_input_files("#m44-file", str(path))
    desktop_page.locator("#import-result").wait_for()
    desktop_page.wait_for_timeout(500)
    no_injection(desktop_page)
    assert "onerror" in desktop_page.locator("#import-out").inner_text()  # listed, as text
