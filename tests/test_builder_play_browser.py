"""The builder's play tools in headless Chromium on a 375×812 touch phone, against the real
engine: move mode (core ``movement``: two-tone shading from /move, the move made along the engine's path,
the battle ruling then honouring it), entering the roll (/resolve steps drawn and told)
and the fire map (/fire-map drawn for a selected unit)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.engine.geometry import Hex, distance
from tests.conftest import open_afresh, save_screenshot
from tests.test_builder_browser import hexagon, lay, open_builder, place, settled, verdict

pytestmark = pytest.mark.browser

START = (6, 10)
ENEMY = (3, 13)
ENEMY_INF = ("u2", "axis", "infantry", *ENEMY, 4)


def post(app: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = app.test_client().post(path, json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


Unit = tuple[str, str, str, int, int, int]


def situation(units: list[Unit], hexes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"hexes": hexes or [], "units": [
        {"id": i, "side": side, "type": kind, "row": r, "col": c, "figures": f} for i, side, kind, r, c, f in units]}


def start_move(page: Any, row: int, col: int) -> None:
    hexagon(page, row, col).click()
    page.click('[data-fk="move"]')
    page.wait_for_selector("#move-status.move-status")


def test_infantry_moving_two_may_not_battle_and_the_board_shows_both_tones(
        phone_page: Any, live_server: str, app: Any) -> None:
    """Infantry: move 1 and battle, or 2 and not (rule `infantry`) — the two tones, then the ruling."""
    page = phone_page
    open_builder(page, live_server)
    place(page, *START, "allies", "infantry")
    place(page, *ENEMY, "axis", "infantry")
    before = post(app, "/api/v1/battle", {**situation([("u1", "allies", "infantry", *START, 4), ENEMY_INF]),
                                          "attacker": "u1", "target": "u2"})
    assert before["legal"]
    assert f"Roll {before['dice']} di" in verdict(page)
    start_move(page, *START)
    mover = ("u1", "allies", "infantry", *START, 4)
    expected = post(app, "/api/v1/move", {**situation([mover, ENEMY_INF]), "unit": "u1"})
    battle_ends = [x for x in expected["reachable"] if x["may_battle"] and (x["row"], x["col"]) != START]
    stop_ends = [x for x in expected["reachable"] if not x["may_battle"]]
    assert battle_ends and stop_ends
    assert page.locator("polygon.move-battle").count() == len(battle_ends)
    assert page.locator("polygon.move-stop").count() == len(stop_ends)
    save_screenshot(page, "play-move-shading-phone")
    two = next(x for x in stop_ends if (x["row"], x["col"]) == (4, 12))
    hexagon(page, two["row"], two["col"]).click()
    text = verdict(page)
    assert "Battle not allowed" in text
    why = page.locator("#ruling").inner_text()
    assert "may move at most 1 hex and still battle" in why
    # The path is on the unit: the share link and the situation keep it.
    assert page.locator("polyline.move-trail").count() == 1
    ruling = post(app, "/api/v1/battle", {**situation([("u1", "allies", "infantry", 4, 12, 4), ENEMY_INF]),
                                          "attacker": "u1", "target": "u2"})
    assert ruling["legal"], "the same hex without the move is a legal battle: the path made the difference"
    save_screenshot(page, "play-move-made-phone")
    # The share link keeps the path: opened afresh, the same ruling and the same trail.
    page.wait_for_timeout(400)
    link = page.url
    open_afresh(page, link)
    page.wait_for_selector("#builder.ready")
    assert "Battle not allowed" in verdict(page)
    assert page.locator("polyline.move-trail").count() == 1


def test_tapping_a_hex_it_cannot_enter_says_why_with_the_rule(phone_page: Any, live_server: str, app: Any) -> None:
    """Armor may not enter a mountain (unreachable with why); the tap explains, linking the rule."""
    page = phone_page
    open_builder(page, live_server)
    place(page, *START, "allies", "armor")
    hexagon(page, 5, 11).click()
    page.select_option('select[data-fk="sel-terrain"]', "mountain")
    mountain = [{"row": 5, "col": 11, "terrain": "mountain"}]
    body = {**situation([("u1", "allies", "armor", *START, 3)], mountain), "unit": "u1"}
    expected = post(app, "/api/v1/move", body)
    blocked = next(x for x in expected["unreachable"] if (x["row"], x["col"]) == (5, 11))
    start_move(page, *START)
    hexagon(page, 5, 11).click()
    why = page.locator("#move-why").inner_text()
    assert blocked["why"][0]["text"] in why
    assert page.locator(f'#move-why a[href="/rules/{blocked["why"][0]["rule"]}"], #move-why a.rule-link').count() >= 1
    save_screenshot(page, "play-move-why-phone")


def test_entering_the_roll_shows_the_outcome_steps_and_applies_it(phone_page: Any, live_server: str, app: Any) -> None:
    """Armor close assault on infantry: a grenade and a flag -> one figure lost and a retreat
    (rules `resolving_hits`, `retreat`), then take ground (rule `take_ground`)."""
    page = phone_page
    open_builder(page, live_server)
    place(page, 5, 11, "allies", "armor")
    place(page, 4, 12, "axis", "infantry")
    text = verdict(page)
    assert "Roll 3 dice" in text
    page.click('[data-fk="enter-roll"]')
    assert "0 of 3" in page.locator("#roll-count").inner_text()
    page.click('[data-fk="roll-grenade"]')
    page.click('[data-fk="roll-star"]')
    page.click('[data-fk="roll-undo"]')
    assert "1 of 3" in page.locator("#roll-count").inner_text()
    page.click('[data-fk="roll-star"]')
    page.click('[data-fk="roll-flag"]')
    page.wait_for_selector("#roll-steps")
    units = [("u1", "allies", "armor", 5, 11, 3), ("u2", "axis", "infantry", 4, 12, 4)]
    expected = post(app, "/api/v1/resolve", {**situation(units), "attacker": "u1", "target": "u2",
                                              "rolled": {"grenade": 1, "star": 1, "flag": 1}})
    steps = page.locator("#roll-steps").inner_text()
    for step in expected["steps"]:
        assert step["text"] in steps
    assert page.locator("#roll-steps a.rule-link").count() >= len(expected["steps"]) - 1
    assert page.locator("text.loss-text").text_content() == f"−{expected['figures_lost']}"
    assert page.locator("polyline.retreat-path").count() == len(expected["retreat"]["options"])
    save_screenshot(page, "play-roll-outcome-phone")
    page.click('[data-fk="roll-retreat-0"]')
    page.click('[data-fk="roll-board"]')
    page.wait_for_selector('[data-fk="take-ground"]')
    save_screenshot(page, "play-roll-after-phone")
    page.click('[data-fk="take-ground"]')
    settled(page)
    end = expected["retreat"]["options"][0]["end"]
    labels = page.evaluate("() => [...document.querySelectorAll('.hex')]"
                           ".map((g) => [g.dataset.row, g.dataset.col, g.getAttribute('aria-label')])"
                           ".filter(([, , l]) => /Allied|Axis/.test(l))")
    where = {(int(r), int(c)): label for r, c, label in labels}
    assert "Allied Armor" in where[(4, 12)], "the attacker took ground"
    left = 4 - expected["figures_lost"]
    assert f"{left} of 4" in where[(end["row"], end["col"])], "the target lost its figure and retreated"


def test_the_roll_buttons_and_the_dice_tab_name_every_face_alike(phone_page: Any, live_server: str, app: Any,
                                                                  rulebook: Any) -> None:
    """The faces are named as players do and all alike, from core ``range_and_dice``
    ``face_names``: the five roll buttons in the die's order, and the faces that hit in the Dice tab
    (armor close assault on infantry hits on its symbol and grenades: rule `resolving_hits`)."""
    dice = rulebook.core_rules("range_and_dice")
    page = phone_page
    open_builder(page, live_server)
    place(page, 5, 11, "allies", "armor")
    place(page, 4, 12, "axis", "infantry")
    verdict(page)
    expected = post(app, "/api/v1/battle", {**situation([("u1", "allies", "armor", 5, 11, 3),
                                                         ("u2", "axis", "infantry", 4, 12, 4)]),
                                            "attacker": "u1", "target": "u2"})
    page.click('[data-fk="enter-roll"]')
    buttons = [t.strip() for t in page.locator(".roll-faces .roll-face-name").all_inner_texts()]
    assert buttons == [dice.face_names[f] for f in dice.die_faces] == ["Infantry", "Armor", "Grenade", "Star", "Flag"]
    page.click('[data-fk="tab-dice"]')
    chips = [t.strip() for t in page.locator("#ruling .face-chip").all_inner_texts()]
    assert chips == [dice.face_names[f] for f in expected["hit_symbols"]] and "Grenade" in chips
    save_screenshot(page, "play-roll-face-names-phone")


def test_selecting_a_unit_draws_its_fire_map(phone_page: Any, live_server: str, app: Any) -> None:
    """Fire map: whom the unit can battle with how many dice, and who can battle it back."""
    page = phone_page
    open_builder(page, live_server)
    place(page, 6, 10, "allies", "artillery")
    place(page, 4, 12, "axis", "infantry")
    place(page, 5, 5, "axis", "armor")
    lay(page, 5, 7, "forest")
    settled(page)
    hexagon(page, 6, 10).click()
    page.wait_for_selector("#fire-map .fire-pairs")
    units = [("u1", "allies", "artillery", 6, 10, 2), ("u2", "axis", "infantry", 4, 12, 4),
             ("u3", "axis", "armor", 5, 5, 3)]
    body = {**situation(units, [{"row": 5, "col": 7, "terrain": "forest"}]), "unit": "u1"}
    expected = post(app, "/api/v1/fire-map", body)
    out = [b for b in expected["battles"] if b["attacker"] == "u1"]
    legal_out = [b for b in out if b["legal"]]
    assert legal_out
    # A "3 dice" tag on each enemy it can battle, "2 back" on each that can battle it.
    texts = page.locator("g.fire-tag.out text.fire-text").all_text_contents()
    assert sorted(texts) == sorted(f"{b['dice']} {'die' if b['dice'] == 1 else 'dice'}" for b in legal_out)
    incoming = [b for b in expected["battles"] if b["target"] == "u1" and b["legal"]]
    assert sorted(page.locator("g.fire-tag.in text.fire-text").all_text_contents()) \
        == sorted(f"{b['dice']} back" for b in incoming)
    illegal = [b for b in expected["battles"] if not b["legal"]]
    assert page.locator("polygon.no").count() == len(illegal)
    listed = page.locator("#fire-map").inner_text()
    for b in illegal:
        assert b["why_not"][0]["text"] in listed
    # the light wash: exactly the hexes the API says the unit sees (the forest hides some) within
    # its range (the artillery's dice by range: the whole board is never washed)
    shaded = [tuple(x) for x in page.evaluate("() => [...document.querySelectorAll('polygon.fire-sight')]"
                                              ".map((p) => [Number(p.dataset.row), Number(p.dataset.col)])")]
    reach = len(app.extensions["catalogue"].entries["artillery"].rules.dice)
    in_sight = [(x["row"], x["col"]) for x in expected["in_sight"]]
    in_reach = [(r, c) for r, c in in_sight if distance(Hex(6, 10), Hex(r, c)) <= reach]
    assert sorted(shaded) == sorted(in_reach) and len(shaded) == len(set(shaded))
    assert (5, 7) in in_reach and (4, 4) not in in_sight  # the forest is seen, the hex behind it is not
    assert f"clear line of sight to {len(in_reach)} hexes within its range" in listed
    save_screenshot(page, "play-fire-map-phone")


def test_on_a_desktop_the_roll_sits_beside_the_board(desktop_page: Any, live_server: str, app: Any) -> None:
    """The same roll entry in the side column of a wide screen: all dice faces at once
    (rule `range_and_dice`: armor close assault on infantry rolls 3)."""
    page = desktop_page
    open_builder(page, live_server)
    place(page, 5, 11, "allies", "armor")
    place(page, 4, 12, "axis", "infantry")
    settled(page)
    page.click('[data-fk="enter-roll"]')
    for face in ("infantry", "grenade", "flag"):
        page.click(f'[data-fk="roll-{face}"]')
    page.wait_for_selector("#roll-steps")
    units = [("u1", "allies", "armor", 5, 11, 3), ("u2", "axis", "infantry", 4, 12, 4)]
    expected = post(app, "/api/v1/resolve", {**situation(units), "attacker": "u1", "target": "u2",
                                              "rolled": {"infantry": 1, "grenade": 1, "flag": 1}})
    assert page.locator("#roll-steps li").count() == len(expected["steps"])
    assert page.locator("text.loss-text").text_content() == f"−{expected['figures_lost']}"
    save_screenshot(page, "play-roll-desktop")


def test_the_steep_hill_example_opens_in_move_mode_and_the_climb_costs_two(
        phone_page: Any, live_server: str, app: Any) -> None:
    """Steep hill (rule `steep_hill`): moving up costs 2 hexes, so the infantry may not battle —
    the gallery example opens with the shading, the hill in the "may not battle" tone, marked 2."""
    page = phone_page
    open_builder(page, live_server)
    if page.locator("#examples-box:not([open])").count():
        page.locator("#examples-box summary").click()
    page.locator("#examples .example", has_text="steep hill").first.click()
    page.wait_for_selector("#move-status.move-status")
    units = [("A", "allies", "infantry", 6, 10, 4), ("B", "axis", "infantry", 4, 12, 4)]
    body = {**situation(units, [{"row": 5, "col": 11, "terrain": "steep_hill"}]), "unit": "A"}
    expected = post(app, "/api/v1/move", body)
    hill = next(x for x in expected["reachable"] if (x["row"], x["col"]) == (5, 11))
    assert (hill["hexes_moved"], hill["may_battle"]) == (2, False)
    assert page.locator("polygon.move-stop").count() == sum(not x["may_battle"] for x in expected["reachable"])
    assert page.locator("polygon.move-battle").count() == sum(
        x["may_battle"] and (x["row"], x["col"]) != (6, 10) for x in expected["reachable"])
    hexagon(page, 5, 11).click()
    said = page.locator("#b-message").inner_text()
    assert "Moved 2 hexes" in said and "may not battle" in said and hill["why"][0]["text"] in said
    assert page.locator("polyline.move-trail").count() == 1


def test_barrage_card_attacks_the_target_by_itself_and_its_roll_is_applied(desktop_page: Any, live_server: str,
                                                                             app: Any) -> None:
    """Command card ``barrage``: with Barrage chosen the builder rules the card's own 4 dice on the target (no
    unit battles, no line of sight), and the roll entered is resolved as the card's (`barrage`)."""
    page = desktop_page
    open_builder(page, live_server)
    place(page, 8, 2, "allies", "infantry")  # far out of any unit's range: only the card can reach
    place(page, 0, 20, "axis", "infantry")
    page.select_option("#card", "barrage")
    units = [("u1", "allies", "infantry", 8, 2, 4), ("u2", "axis", "infantry", 0, 20, 4)]
    ruling = post(app, "/api/v1/battle", {**situation(units), "attacker": None, "target": "u2", "card": "barrage"})
    assert ruling["legal"] and ruling["card_attack"]
    text = verdict(page)
    assert f"Roll {ruling['dice']} dice" in text and "Barrage →" in text
    page.click('[data-fk="enter-roll"]')
    for face in ("grenade", "grenade", "star", "flag"):
        page.click(f'[data-fk="roll-{face}"]')
    page.wait_for_selector("#roll-steps")
    expected = post(app, "/api/v1/resolve", {**situation(units), "attacker": None, "target": "u2", "card": "barrage",
                                              "rolled": {"grenade": 2, "star": 1, "flag": 1}})
    steps = page.locator("#roll-steps").inner_text()
    for step in expected["steps"]:
        assert step["text"] in steps
    assert expected["take_ground"] is False and expected["hits"] == 2
