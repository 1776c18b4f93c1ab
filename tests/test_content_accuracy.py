"""Entries corrected or added by issue #14 B, checked through the API and the pages: names that
meant another rule, missing entries players look for, expansion tags, and the readings a page
must show where the sources differ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from adjudicator.content.loader import Catalogue
from adjudicator.engine.rulebook import Rulebook


def top_results(client: FlaskClient, query: str, n: int = 1) -> list[str]:
    return [r["id"] for r in client.get("/api/v1/search", query_string={"q": query}).get_json()["results"][:n]]


@pytest.mark.parametrize(("query", "entry"), [
    ("breakthrough deck", "breakthrough_deck"), ("air sortie", "air_sortie"), ("stream", "fordable_stream"),
    ("shoreline", "shoreline"), ("vehicle", "unit_classes"), ("field generals", "overlord"),
    ("battle star", "battle_star_tokens"), ("overlord", "overlord"),
])
def test_missing_entries_are_found_first(client, rulebook: Rulebook, query, entry):
    assert top_results(client, query) == [entry]
    assert client.get(f"/api/v1/rules/{rulebook.kinds[entry]}/{entry}").status_code == 200


def test_on_the_move_finds_the_breakthrough_deck_not_only_single_cards(client):
    assert "breakthrough_deck" in top_results(client, "on the move", 3)


@pytest.mark.parametrize(("name", "wrong"), [("stream", "river"), ("shoreline", "beach"), ("air sortie", "air_power")])
def test_a_name_of_another_thing_is_no_alias(rulebook: Rulebook, name, wrong):
    assert rulebook.resolve(name) != wrong


def test_breakthrough_deck_counts_its_cards_as_the_rulebook_does(client):
    entry = client.get("/api/v1/rules/core/breakthrough_deck").get_json()
    assert all(number in entry["body"] for number in ("80", "28", "52"))
    assert entry["sources"][0]["document"] == "Winter Wars rulebook"


def test_victory_conditions_are_not_all_winter_wars(catalogue: Catalogue):
    tags = {e.id: e.meta.expansion for e in catalogue.by_kind("victory")}
    assert tags["temporary_medal"] == tags["permanent_medal"] == tags["sudden_death"] == "base"
    assert tags["last_to_occupy_medal"] == "winter_wars"
    assert catalogue.entries["minefield"].meta.expansion != "winter_wars"


def test_hedgerow_page_shows_both_readings(client):
    page = client.get("/rules/terrain/hedgerow").get_data(as_text=True)
    assert "may still take ground" in page
    assert "BGA implementation" in page and "has not moved" in page


def test_bcf_summary_says_down_to_a_single_figure(catalogue: Catalogue):
    summary = catalogue.entries["british_commonwealth"].meta.summary
    assert "single figure" in summary and "reduced to 1 figure" not in summary


def test_tank_destroyer_page_decides_the_castle(client):
    page = client.get("/rules/unit/tank_destroyer").get_data(as_text=True)
    assert "castle" in page.lower() and "ford" in page.lower()


def test_entries_built_on_bga_numbers_list_bga_as_a_source(catalogue: Catalogue):
    """A page whose numbers come from the BGA implementation flags it as a (secondary) source."""
    for entry_id in ("ski_troops", "ski_troops_badge", "flame_thrower_tank", "flame_thrower_badge", "destroyer",
                     "supply_truck", "camouflage", "hedgerow", "jungle"):
        documents = {s.document for s in catalogue.entries[entry_id].meta.sources}
        assert "BGA implementation" in documents, entry_id


def test_new_unit_pages_show_their_numbers(client, rulebook: Rulebook):
    for unit_id in ("ski_troops", "flame_thrower_tank", "destroyer"):
        response = client.get(f"/rules/unit/{unit_id}")
        assert response.status_code == 200
    destroyer = client.get("/rules/unit/destroyer").get_data(as_text=True)
    assert "pdestroyer" in destroyer
    assert rulebook.unit("destroyer").dice == (3, 3, 2, 2, 1, 1, 1, 1)


def test_every_entry_with_editor_names_or_bga_facts_cites_bga(catalogue: Catalogue):
    """Editor tile names and badge numbers come from the BGA implementation's scenario format, so
    does any fact a body attributes to BGA: the page must list it (flagged as secondary)."""
    missing = []
    for entry in catalogue.entries.values():
        documents = {s.document for s in entry.meta.sources}
        uses_bga = (getattr(entry.rules, "editor_names", ()) or getattr(entry.rules, "editor_badges", ())
                    or "BGA" in entry.body)
        if uses_bga and "BGA implementation" not in documents:
            missing.append(entry.id)
    assert missing == []


README_KINDS = {
    "terrains": "terrain", "obstacles": "obstacle", "units": "unit", "badges": "badge", "command cards": "command_card",
    "combat cards": "combat_card", "actions": "action", "nations": "nation", "victory conditions": "victory",
    "special rules": "special_rule", "markers": "marker", "core rules": "core",
}


def test_readme_entry_counts_match_the_catalogue(catalogue: Catalogue):
    """The tour's "N entries: 62 terrains, ..." is the catalogue's count, kind by kind (issue #14: counts current)."""
    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"(\d+) entries: ([^.]+)\.", readme)
    assert found, "README.md no longer states the entry counts"
    stated = {README_KINDS[label]: int(n) for n, label in re.findall(r"(\d+) ([a-z ]+?)(?:,|$| and)", found[2])}
    actual = {kind: len(catalogue.by_kind(kind)) for kind in README_KINDS.values()}
    assert (int(found[1]), stated) == (len(catalogue.entries), actual)


def page_text(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


@pytest.mark.parametrize(("path", "name"), [
    ("/api/v1/rules/terrain/river", "stream"), ("/api/v1/rules/terrain/beach", "shoreline"),
    ("/api/v1/rules/command_card/air_power", "air sortie"),
])
def test_pages_do_not_list_another_things_name_as_theirs(client, path, name):
    """Fordable Stream, Shoreline and Air Sortie are entries of their own (issue #14 B)."""
    entry = client.get(path).get_json()
    assert name not in [alias.lower() for alias in entry["aliases"]]
    assert name not in page_text(client, path.removeprefix("/api/v1")).split("Also called", 1)[-1].lower()


def test_british_commonwealth_page_says_down_to_a_single_figure(client):
    text = page_text(client, "/rules/nation/british_commonwealth")
    assert "single figure" in text and "reduced to 1 figure by a close assault" not in text


def test_cliff_page_says_a_supply_truck_is_hit_as_infantry(client):
    """Supply Trucks rules, Targeting: a truck is treated as infantry, whatever the hex."""
    text = page_text(client, "/rules/terrain/cliff")
    assert "hit as infantry" in text and "count as armor" not in text


def test_cave_on_a_hill_page_says_the_card_leaves_the_minus_one_open(client):
    text = page_text(client, "/rules/terrain/cave_on_hill")
    assert "-2 only" in text and "leaves open" in text


def test_minefield_and_common_victory_pages_are_not_tagged_winter_wars(client):
    for path in ("/api/v1/rules/marker/minefield", "/api/v1/rules/victory/temporary_medal",
                 "/api/v1/rules/victory/sudden_death"):
        assert client.get(path).get_json()["expansion"] != "winter_wars", path
    assert client.get("/api/v1/rules/victory/last_to_occupy_medal").get_json()["expansion"] == "winter_wars"


def test_breakthrough_deck_page_counts_barrage_and_dig_in_as_tactics_like_their_cards(client):
    """Winter Wars prints Barrage and Dig In among the section cards; the 28/52 split holds only with
    them as tactics, which their own pages (``card_type``) say: the deck page must agree."""
    cards = [client.get(f"/api/v1/rules/command_card/{c}").get_json() for c in ("barrage_breakthrough",
                                                                                "dig_in_breakthrough")]
    assert {card["card_type"] for card in cards} == {"tactic"}
    text = page_text(client, "/rules/core/breakthrough_deck")
    section = text.split("Section cards: 52", 1)[1].split("Barrage and Dig In", 1)[0]
    assert "Barrage" not in section and "Dig In" not in section
    assert "tactic cards as in the standard deck" in text


def battle(client: FlaskClient, units: list[dict], hexes: list[dict]) -> dict:
    response = client.post("/api/v1/battle", json={"units": units, "hexes": hexes, "attacker": "A", "target": "B"})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def fighter(uid: str, side: str, row: int, col: int, kind: str = "infantry", **extra) -> dict:
    return {"id": uid, "side": side, "type": kind, "row": row, "col": col,
            "figures": {"infantry": 4}.get(kind, 3), **extra}


def test_unit_that_moved_next_to_a_hedgerow_may_still_take_ground_into_it(client):
    """Game help summary, Hedgerows: stop on an adjacent hex, and it may still take ground (the
    primary source wins over the BGA reading, which wants an unmoved unit)."""
    answer = battle(client, [fighter("A", "allies", 5, 11, moved=1), fighter("B", "axis", 4, 12)],
                    [{"row": 4, "col": 12, "terrain": "hedgerow"}])
    assert answer["legal"] is True and answer["take_ground"] is True


def test_unit_that_entered_a_jungle_may_still_take_ground_out_of_it(client, rulebook: Rulebook):
    """Jungle ``take_ground_after_stop``: entering stopped the move, not what follows a won close assault."""
    assert "infantry" in rulebook.hex_rules("jungle").take_ground_after_stop
    answer = battle(client, [fighter("A", "allies", 5, 11, moved=1), fighter("B", "axis", 4, 12)],
                    [{"row": 5, "col": 11, "terrain": "jungle"}])
    assert answer["take_ground"] is True


@pytest.mark.parametrize(("terrain", "reduced"), [("town", False), ("hill_village", False), ("ford", True),
                                                  ("balka", True), ("castle", True)])
def test_unmoved_tank_destroyer_ignores_only_a_town_or_villages_battle_out_penalty(client, terrain, reduced):
    """Winter Wars, Tank Destroyers: the exemption is for battling from inside a town or village."""
    answer = battle(client, [fighter("A", "allies", 5, 11, "tank_destroyer"), fighter("B", "axis", 3, 11, "armor")],
                    [{"row": 5, "col": 11, "terrain": terrain}])
    steps = {step["rule"]: step.get("dice") for step in answer["breakdown"]}
    assert (terrain in steps and steps[terrain] < 0) is reduced


def test_supply_truck_on_a_cliff_is_hit_as_infantry(client):
    """Supply Trucks rules, Targeting: treated as infantry when targeted, on a cliff as anywhere."""
    truck = fighter("B", "axis", 4, 12, "supply_truck", figures=2)
    cliff = [{"row": 4, "col": 12, "terrain": "cliff"}]
    answer = battle(client, [fighter("A", "allies", 5, 11, "armor"), truck], cliff)
    assert "infantry" in answer["hit_symbols"] and "armor" not in answer["hit_symbols"]
