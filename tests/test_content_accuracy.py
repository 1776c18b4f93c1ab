"""Entries corrected or added by issues #14 B and #25, checked through the API and the pages: names
that meant another rule, missing entries players look for, expansion tags, the readings a page must
show where the sources differ, wrong or unsourced statements, and the citation of every fact."""

from __future__ import annotations

import html
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


def test_victory_entries_are_tagged_with_the_rulebook_that_defines_them(client, catalogue: Catalogue):
    """Winter Wars, Victory Conditions: "new and some common" conditions, each marked with an icon
    the bundled copy lost; no source says which came first, so no page claims an older expansion."""
    for entry in catalogue.by_kind("victory"):
        assert entry.meta.expansion == "winter_wars", entry.id
        assert {s.document for s in entry.meta.sources} >= {"Winter Wars rulebook"}
        text = page_text(client, f"/rules/victory/{entry.id}")
        assert "new conditions and some common ones" in text and "icon" in text, entry.id


def test_minefield_expansion_tag_cites_its_source(catalogue: Catalogue):
    minefield = catalogue.entries["minefield"]
    assert minefield.meta.expansion == "terrain_pack"
    assert any("origin Terrain Pack" in s.section for s in minefield.meta.sources if s.document == "BGA implementation")


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
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split()))


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


def test_minefield_page_is_not_tagged_winter_wars(client):
    assert client.get("/api/v1/rules/marker/minefield").get_json()["expansion"] == "terrain_pack"


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


# -- issue #25: every fact traceable to its passage ---------------------------------------------------

def test_every_structured_fact_of_every_entry_cites_its_own_passage(client, catalogue: Catalogue):
    """docs/contracts.md section 4: each field an entry sets (and ``base``) is decided by exactly one
    of its sources; inherited fields cite the entry they come from. The API gives the same map."""
    bases = catalogue.rulebook().bases
    for entry in catalogue.entries.values():
        expected = set(entry.facts) | ({"base"} if entry.meta.base else set())
        cited = catalogue.citations[entry.id]
        assert set(cited) == expected, entry.id
        chain, current = [], entry.id
        while current:
            chain.append(current)
            current = bases.get(current)
        for fact, citation in cited.items():
            assert citation.entry in chain, (entry.id, fact)
            owner = catalogue.entries[citation.entry]
            assert [s for s in owner.meta.sources if fact in s.facts] == [citation.source], (entry.id, fact)
    api = client.get("/api/v1/rules/terrain/winter_church").get_json()
    assert api["citations"]["base"]["section"] == "I. New terrain tiles — Winter Church"
    assert api["citations"]["base"]["page"] == 3 and api["citations"]["base"]["entry"] == "winter_church"
    assert api["citations"]["must_stop"]["entry"] == "church"
    assert api["citations"]["must_stop"]["section"] == "Terrain types — Churches"


def test_entries_that_cited_many_sections_for_the_whole_page_now_split_them(catalogue: Catalogue):
    """No citation stands for a whole page: where an entry's facts come from several passages, each
    passage is a source of its own with the facts it decides (unit pages cite move, dice, line of
    sight and hits each to their own section)."""
    armor = {s.section: set(s.facts) for s in catalogue.entries["armor"].meta.sources}
    assert armor["Battle — Range and hit dice rolled"] == {"dice"}
    assert armor["Line of sight"] == {"needs_los"}
    half_track = catalogue.entries["half_track"].meta.sources
    assert {s.document for s in half_track if "resupply_requires_rule" in s.facts} == {"Winter Wars rulebook"}
    assert len({s.section for s in half_track if s.facts}) >= 5


def test_the_entry_api_gives_each_sources_facts_page_and_source_page(client):
    entry = client.get("/api/v1/rules/unit/tank_destroyer").get_json()
    winter = next(s for s in entry["sources"] if s["document"] == "Winter Wars rulebook")
    assert winter["page"] == 8 and "dice" in winter["facts"] and winter["url"] == "/sources/winter-wars-rulebook"
    assert entry["citations"]["dice"]["label"] == "Winter Wars rulebook, V. New troops — Tank Destroyers, p. 8"
    bga = next(s for s in entry["sources"] if s["document"] == "BGA implementation")
    assert bga["secondary"] is True and bga["page"] is None


def test_rule_page_shows_each_fact_with_its_own_citation(client):
    html = client.get("/rules/terrain/winter_village").get_data(as_text=True)
    rows = dict(re.findall(r'<tr data-fact="(\w+)">(.*?)</tr>', html, flags=re.DOTALL))
    assert "Terrain types — Towns &amp; Villages" in rows["dice_reductions"]
    assert "on the <a href=\"/rules/terrain/town\">Towns &amp; Villages</a> page" in rows["dice_reductions"]
    assert 'href="/sources/game-help-summary"' in rows["dice_reductions"]
    html = client.get("/rules/unit/sniper").get_data(as_text=True)
    rows = dict(re.findall(r'<tr data-fact="(\w+)">(.*?)</tr>', html, flags=re.DOTALL))
    assert "secondary" in rows["dice"] and "BGA implementation" in rows["dice"]


def test_every_citation_links_to_an_existing_source_page(app, client, catalogue: Catalogue):
    from adjudicator.web.sources import source_json

    with app.test_request_context():
        urls = {source_json(s)["url"] for e in catalogue.entries.values() for s in e.meta.sources}
    assert len(urls) == 7
    for url in sorted(urls):
        page = page_text(client, url)
        assert "How to get it" in page and "Edition" in page, url
    listed = client.get("/sources/").get_data(as_text=True)
    assert all(f'href="{url}"' in listed for url in urls)
    html = client.get("/rules/unit/half_track").get_data(as_text=True)
    assert set(re.findall(r'href="(/sources/[^"]+)"', html)) == {"/sources/half-tracks-rules",
                                                               "/sources/winter-wars-rulebook"}
    assert client.get("/sources/no-such-document").status_code == 404


def test_game_help_summary_source_page_says_it_is_board_game_arenas_help_page_and_primary(client):
    text = page_text(client, "/sources/game-help-summary")
    assert "Board Game Arena's help page" in text and "primary source" in text.lower()
    assert "BGA implementation" in text  # told apart from the secondary source
    bga = page_text(client, "/sources/bga-implementation")
    assert "Secondary source" in bga and "bga-memoir" in bga


def test_winter_wars_source_page_lists_its_contents_with_pages(client):
    text = page_text(client, "/sources/winter-wars-rulebook")
    assert "Tank Destroyers p. 8" in text and "Half-Tracks p. 10" in text and "Primary source" in text


def test_source_pages_are_cached_for_offline_use(client):
    script = client.get("/sw.js").get_data(as_text=True)
    assert '"/sources/"' in script and '"/sources/winter-wars-rulebook"' in script


def test_builder_data_carries_the_citation_of_each_fact(client):
    data = client.get("/builder/data.json").get_json()["palette"]

    def cite(entry_id: str, fact: str) -> str:
        return data["cite_labels"][data["fact_cite"][entry_id][fact]]

    assert cite("forest", "dice_reductions") == "Game help summary, Terrain types — Forests"
    assert cite("winter_forest", "dice_reductions") == "Game help summary, Terrain types — Forests"
    assert cite("castle", "battle_out") == "Winter Wars rulebook, I. New terrain tiles — Castle, p. 3"
    assert sum(len(facts) for facts in data["fact_cite"].values()) > 1000


# -- issue #25: wrong pages ----------------------------------------------------------------------------

def test_battle_star_tokens_prisoners_are_lost_with_the_unit_that_freed_them(client):
    """Game help summary, Freeing Prisoners: the prisoners go with the eliminated unit; only captured
    equipment stays on the hex (Capturing Equipment)."""
    body = client.get("/api/v1/rules/core/battle_star_tokens").get_json()["body"]
    prisoners = body.split("**Prisoners:**", 1)[1].split("- **", 1)[0]
    assert "lost with it" in prisoners and "stays on the hex" not in prisoners
    equipment = body.split("**Equipment:**", 1)[1].split("- **", 1)[0]
    assert "stays on the hex" in equipment


def test_minefield_is_placed_picture_side_up_with_its_number_hidden(client):
    """Winter Wars, Minefields: each piece goes face up, number side hidden."""
    body = client.get("/api/v1/rules/marker/minefield").get_json()["body"]
    assert "face down" not in body and "picture side up, its number hidden" in body


# -- issue #25: unsourced claims ------------------------------------------------------------------------

def test_close_assault_overrun_combat_shows_the_reading_applied_and_the_other(client, catalogue: Catalogue):
    text = page_text(client, "/rules/command_card/close_assault")
    assert "The engine applies the general rule" in text and "The other reading" in text
    assert "exempt from both" not in text
    cited = {(s.document, s.section) for s in catalogue.entries["close_assault"].meta.sources}
    assert ("Game help summary", "Taking ground & armor overrun") in cited


def test_close_assault_overrun_may_fire_at_range_as_the_page_says(client):
    """The reading the Close Assault page says the engine applies: the overrun combat follows the
    general overrun rule, so a distant target is legal; the card's first battle is not."""
    units = [fighter("A", "allies", 5, 11, "armor"), fighter("B", "axis", 3, 11, "armor")]
    first = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                                 "card": "close_assault"}).get_json()
    assert first["legal"] is False
    overrun = client.post("/api/v1/battle", json={"units": units, "attacker": "A", "target": "B",
                                                   "card": "close_assault", "overrun_battle": True}).get_json()
    assert overrun["legal"] is True


def test_air_sortie_card_type_is_not_stated(client):
    entry = client.get("/api/v1/rules/command_card/air_sortie").get_json()
    assert "card_type" not in entry["facts"] and "section or a tactic card" in entry["body"]


def test_board_faces_gives_beach_rows_only_for_boards_a_source_names(client):
    body = client.get("/api/v1/rules/core/board_faces").get_json()["body"]
    assert "standard and Overlord" not in body and "No source gives them for an Overlord board" in body


def test_shoreline_is_not_defined_beyond_what_its_sources_say(client):
    entry = client.get("/api/v1/rules/terrain/shoreline").get_json()
    assert "water's edge" not in entry["summary"] and "coastline" not in entry["aliases"]
    assert "The engine gives a shoreline hex no effect" in entry["body"] and "coastcurve" in entry["body"]


def test_dig_in_sandbag_limits_are_sourced(client):
    entry = client.get("/api/v1/rules/command_card/dig_in").get_json()
    assert "(where sandbags may go)" not in entry["body"] and "ocean or a ford" in entry["body"]
    assert any("no sandbags" in s["section"] for s in entry["sources"] if s["document"] == "BGA implementation")


def test_overlord_aliases_are_names_its_sources_use(client):
    aliases = client.get("/api/v1/rules/core/overlord").get_json()["aliases"]
    assert "commander in chief" not in aliases and "field general" in aliases


# -- issue #25: facts the entries' own sources give -----------------------------------------------------

@pytest.mark.parametrize("unit", ["half_track", "supply_truck"])
def test_vehicle_pages_give_their_additional_terrain_considerations(client, unit):
    body = client.get(f"/api/v1/rules/unit/{unit}").get_json()["body"]
    section = body.split("Additional terrain considerations", 1)[1].split("- **Command cards", 1)[0]
    for word in ("[[ocean]]", "landing craft", "[[cliff]]", "[[wire]]", "[[railroad_track]]", "must stop"):
        assert word in section, (unit, word)
    assert ("may remove wire" in section) == (unit == "half_track")


def test_ocean_page_says_what_a_unit_starting_in_the_ocean_may_do(client):
    body = client.get("/api/v1/rules/terrain/ocean").get_json()["body"]
    assert "starts its move in the ocean" in body and "The engine applies the limit" in body
    assert "The other reading" in body and "[[pier]]" in body


def test_a_unit_starting_in_the_ocean_moves_as_the_ocean_page_says(client):
    """The reading the Ocean page states: only the hexes it enters limit it, a beach at 2 hexes."""
    hexes = [{"row": 8, "col": 4, "terrain": "ocean"}, {"row": 7, "col": 3, "terrain": "beach"},
             {"row": 6, "col": 2, "terrain": "beach"}, {"row": 5, "col": 1, "terrain": "beach"}]
    answer = client.post("/api/v1/move", json={"units": [fighter("A", "allies", 8, 4, "armor")], "hexes": hexes,
                                               "unit": "A"}).get_json()
    moved = {(r["row"], r["col"]): r["hexes_moved"] for r in answer["reachable"]}
    assert moved[(6, 2)] == 2 and (5, 1) not in moved


def test_combat_card_decks_may_be_used_by_agreement(client):
    body = client.get("/api/v1/rules/combat_card/combat_cards").get_json()["body"]
    assert "agree to use a Combat card deck" in body


@pytest.mark.parametrize(("path", "words"), [
    ("/api/v1/rules/unit/destroyer", ("zeroes in",)),
    ("/api/v1/rules/core/range_and_dice", ("[[destroyer]]", "zeroed in", "BGA implementation")),
    ("/api/v1/rules/core/retreat", ("[[sniper]]s and\n  [[ski_troops]] 1 to 3", "BGA implementation")),
    ("/api/v1/rules/core/line_of_sight", ("[[destroyer]]", "secondary source")),
    ("/api/v1/rules/core/resolving_hits", ("[[sniper]]", "secondary")),
])
def test_summary_pages_give_the_bga_facts_flagged_secondary(client, path, words):
    entry = client.get(path).get_json()
    assert all(w in entry["body"] for w in words), path
    assert any(s["document"] == "BGA implementation" and s["secondary"] for s in entry["sources"])


# -- issue #25: terms players search --------------------------------------------------------------------

@pytest.mark.parametrize(("query", "entry"), [
    ("vacant hex", "combat_cards"), ("spare figures", "combat_cards"), ("full strength", "combat_cards"),
    ("empty hex", "combat_cards"), ("buildings", "winter_combat_deck"), ("air check", "airplane"),
    ("breakthrough", "breakthrough"), ("breakthrough format", "breakthrough"),
])
def test_terms_the_sources_define_find_the_entry_that_defines_them(client, rulebook: Rulebook, query, entry):
    assert top_results(client, query) == [entry]
    found = client.get(f"/api/v1/rules/{rulebook.kinds[entry]}/{entry}").get_json()
    assert query in [*found["terms"], *found["aliases"], found["name"].lower()]


def test_buildings_still_lead_to_towns(client):
    assert "town" in top_results(client, "buildings", 3)


def test_breakthrough_entry_describes_the_format_from_its_sources(client):
    entry = client.get("/api/v1/rules/core/breakthrough").get_json()
    assert "17 rows" in entry["body"] and "[[breakthrough_deck]]" in entry["body"]
    assert {s["document"] for s in entry["sources"]} == {"Winter Wars rulebook", "BGA implementation"}


def reasons_in(answer: object) -> list[dict]:
    """Every reason an answer holds, however deep (breakdowns, why_not, notes, nested rulings)."""
    found: list[dict] = []
    if isinstance(answer, dict):
        if isinstance(answer.get("rule"), str) and isinstance(answer.get("text"), str):
            found.append(answer)
        for value in answer.values():
            found += reasons_in(value)
    elif isinstance(answer, list):
        for value in answer:
            found += reasons_in(value)
    return found


def test_every_reason_of_the_example_rulings_cites_a_page_and_its_facts_passage(client, catalogue: Catalogue):
    """A ruling's reason names an entry whose page exists; a reason that applies a structured field
    (``fact``) finds that field's one passage in the entry's citations (contracts sections 1 and 4)."""
    from tests.test_examples import FILES, load

    reasons = []
    for path in FILES:
        data = load(path)
        answer = client.post(f"/api/v1/{data['endpoint']}", json={**data["situation"], **data["request"]})
        reasons += reasons_in(answer.get_json())
    assert len(reasons) >= 20
    for reason in reasons:
        entry = catalogue.entries.get(reason["rule"])
        assert entry is not None, reason
        if reason.get("fact"):
            citation = catalogue.citation(entry.id, reason["fact"])
            assert citation is not None, reason
            api = client.get(f"/api/v1/rules/{entry.kind}/{entry.id}").get_json()
            assert api["citations"][reason["fact"]]["section"] == citation.source.section


@pytest.mark.parametrize("unit", ["long_range_patrol_car", "landing_craft", "airplane"])
def test_a_unit_no_source_gives_numbers_for_shows_no_placeholder_as_a_fact(client, unit):
    """Placeholders (class, dice, movement) are no source's facts: the page shows only what is given."""
    html = client.get(f"/rules/unit/{unit}").get_data(as_text=True)
    shown = set(re.findall(r'<tr data-fact="(\w+)">', html))
    assert "rules_documented" in shown
    assert not shown & {"unit_class", "targeted_as", "move_and_battle", "max_move", "dice", "battles"}
