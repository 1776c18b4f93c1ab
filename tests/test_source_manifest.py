"""The rule elements the source documents name, checked from the repository's own manifest.

``tests/source_manifest.yaml`` records, as facts (names, ids, numbers — no sentence of any
source), what the completeness tests parse out of the seed documents and the original API
contract: the game help summary's action, nation and terrain headings and the entries they map
to, its dice table, the Winter Wars terrains and Breakthrough deck counts, the ranges and dice
the documents state per unit, and the ids the API names. The checks below run everywhere, a
public clone included. ``test_manifest_matches_the_source_documents`` re-derives the manifest
from the documents where they are present (CI) and fails if the two ever differ; elsewhere it is
skipped and says so."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from adjudicator.content.loader import YAML_LOADER, Catalogue
from adjudicator.engine.rulebook import CardRules, Rulebook
from adjudicator.engine.situation import parse_situation, situation_rule_ids
from tests.sources import MANIFEST, needs_seeds

HEX_KINDS = ("terrain", "obstacle", "marker")
FACTS: dict[str, Any] = yaml.load(MANIFEST.read_text(encoding="utf-8"), Loader=YAML_LOADER)  # libyaml


# -- deriving the manifest from the documents (where they are) -----------------------------------

def range_fact(line: str, hexes_pattern: re.Pattern[str]) -> dict[str, Any]:
    match = hexes_pattern.search(line)
    dice = re.search(r"with (\d+) dice", line)
    same_as = ("artillery" if "same firepower as normal artillery" in line
               else "infantry" if "same number of dice a standard Infantry" in line else None)
    from tests.test_completeness_rules import number

    return {"hexes": number(match[1]) if match else None, "dice": int(dice[1]) if dice else None,
            "same_dice_as": same_as}


def manifest_from_documents(rulebook: Rulebook, catalogue: Catalogue) -> dict[str, Any]:
    from tests import test_citations as citations
    from tests import test_completeness_rules as rules_doc
    from tests import test_completeness_terrain as terrain_doc

    def headings(start: str, end: str | None, kind: str) -> list[dict[str, str]]:
        out = []
        for heading in rules_doc.game_help_headings(start, end):
            entry_id, entry_kind = rules_doc.ELSEWHERE.get(heading, (rules_doc.derived_id(heading), kind))
            out.append({"heading": heading, "id": entry_id, "kind": entry_kind})
        return out

    dice_lines = rules_doc.section_lines(rules_doc.seed("Game help summary"), "Range and hit dice rolled",
                                         "Line of sight")
    dice_rows = [re.match(r"^(\D+?)((?: \d)+)$", line.strip()) for line in dice_lines if line.strip()]
    mortar = re.search(r"fire on a target (\d+) hexes away, rolling (\d+) die", rules_doc.seed("Winter Wars rulebook"))
    assert mortar
    return {
        "game_help_summary": {
            "actions": headings("ACTIONS", "NATIONS", "action"),
            "nations": headings("NATIONS", None, "nation"),
            "terrain_cards": [{"heading": card.heading, "occurrence": card.occurrence,
                               "entries": list(terrain_doc.ids_for(card))} for card in terrain_doc.CARDS],
            "dice_by_range": {row[1]: [int(n) for n in row[2].split()] for row in dice_rows if row},
            "french_resistance_dice": rules_doc.x_dice(r"Fire at"),
            "artillery_on_mountain_dice": rules_doc.x_dice(r"Artillery set on mountain fires at:"),
        },
        "winter_wars_rulebook": {
            "terrains": [{"heading": h, "id": terrain_doc.derived_id(h)} for h in terrain_doc.WINTER_NAMES],
            "breakthrough_deck": [{"card": r.card, "section": r.section, "on_the_move": r.on_the_move,
                                   "count": r.count} for r in rules_doc.breakthrough_counts()],
            "breakthrough_totals": {
                "cards": rules_doc.printed_total(r"Breakthrough Command card deck has (\d+) cards"),
                "tactic": rules_doc.printed_total(r"number of Tactic cards has increased to (\d+)"),
                "section": rules_doc.printed_total(r"number of Section cards has increased to (\d+)"),
            },
            "mortar_unmoved": {"hexes": int(mortar[1]), "dice": int(mortar[2])},
        },
        "unit_ranges": [{"document": s.document, "unit": s.unit, **range_fact(s.line, rules_doc.RANGE)}
                        for s in rules_doc.stated_ranges(rulebook)],
        "api": {
            "special_rules": rules_doc.spec_ids("`rules`: special rules in effect"),
            "badges": rules_doc.spec_ids("`badges` (e.g."),
            "unit_types": unit_type_ids(rules_doc.SPEC.read_text(encoding="utf-8")),
            "command_cards": rules_doc.spec_ids('`"card"` (command card'),
            "combat_cards": rules_doc.spec_ids('`"combat_card"` (e.g.'),
        },
        "section_headings": citations.cited_document_headings(catalogue, citations.headings_from_documents()),
    }


def unit_type_ids(text: str) -> list[str]:
    start = text.index("Unit `type` ids") + len("Unit `type` ids")
    return re.findall(r"`([a-z_]+)`", text[start:text.index("\n- ", start)])


@needs_seeds
def test_manifest_matches_the_source_documents(rulebook, catalogue):
    assert manifest_from_documents(rulebook, catalogue) == FACTS


# -- the catalogue against the manifest (everywhere) -------------------------------------------------

def resolves_to(rulebook: Rulebook, heading: str) -> str | None:
    return rulebook.resolve(heading) or rulebook.resolve(re.sub(r"\s*\(.*?\)", "", heading))


@pytest.mark.parametrize("section", ["actions", "nations"])
def test_every_game_help_heading_has_its_entry(rulebook, section):
    headings = FACTS["game_help_summary"][section]
    assert len(headings) >= 5
    for item in headings:
        assert rulebook.kinds.get(item["id"]) == item["kind"], item
        assert resolves_to(rulebook, item["heading"]) == item["id"], item


def test_every_terrain_card_and_winter_terrain_has_an_entry(catalogue):
    cards = FACTS["game_help_summary"]["terrain_cards"]
    winter = FACTS["winter_wars_rulebook"]["terrains"]
    assert len(cards) >= 60 and len(winter) >= 13
    for entry_id in [e for card in cards for e in card["entries"]] + [t["id"] for t in winter]:
        assert entry_id in catalogue.entries, entry_id
        assert catalogue.entries[entry_id].kind in HEX_KINDS, entry_id


def test_breakthrough_deck_matches_the_counted_cards(rulebook):
    from tests.test_completeness_rules import PrintedCount, breakthrough_count

    rows = FACTS["winter_wars_rulebook"]["breakthrough_deck"]
    for row in rows:
        printed = PrintedCount(row["card"], row["card"], row["section"], row["on_the_move"], row["count"])
        assert breakthrough_count(rulebook, printed) == row["count"], row
    totals = {"tactic": 0, "section": 0}
    for entry_id in rulebook.ids_of_kind("command_card"):
        rules = rulebook.rules[entry_id]
        assert isinstance(rules, CardRules)
        counted = sum(d.count for d in rules.deck_counts if d.deck == "breakthrough")
        assert counted == 0 or rules.card_type is not None, entry_id
        if rules.card_type is not None:
            totals[rules.card_type] += counted
    printed_totals = FACTS["winter_wars_rulebook"]["breakthrough_totals"]
    assert sum(totals.values()) == printed_totals["cards"] == sum(r["count"] for r in rows)
    assert totals["tactic"] == printed_totals["tactic"] and totals["section"] == printed_totals["section"]


def test_units_roll_the_dice_the_documents_state(rulebook):
    summary = FACTS["game_help_summary"]
    assert len(summary["dice_by_range"]) >= 3
    for name, dice in summary["dice_by_range"].items():
        assert list(rulebook.unit(rulebook.resolve(name, "unit")).dice) == dice, name
    assert list(rulebook.unit(rulebook.resolve("French Resistance", "unit")).dice) == summary["french_resistance_dice"]
    artillery = rulebook.unit(rulebook.resolve("Artillery", "unit"))
    mountain = rulebook.resolve("Mountains", "terrain")
    assert list(artillery.dice_on_terrain[mountain]) == summary["artillery_on_mountain_dice"]


def test_unit_ranges_match_the_stated_facts(rulebook):
    ranges = FACTS["unit_ranges"]
    assert len({r["unit"] for r in ranges}) >= 6
    same = {"artillery": rulebook.unit("artillery").dice, "infantry": rulebook.unit("infantry").dice}
    for stated in ranges:
        rules = rulebook.unit(stated["unit"])
        if stated["same_dice_as"] == "artillery":
            assert rules.dice == same["artillery"], stated
            continue
        assert len(rules.dice) == stated["hexes"], stated
        if stated["dice"] is not None:
            assert set(rules.dice) == {stated["dice"]}, stated
        if stated["same_dice_as"] == "infantry":
            assert rules.dice == same["infantry"], stated
    mortar = FACTS["winter_wars_rulebook"]["mortar_unmoved"]
    mortar_id = rulebook.resolve("Mortar", "unit")
    assert mortar_id is not None
    mortar_rules = rulebook.unit(mortar_id)
    assert len(mortar_rules.dice_unmoved) == mortar["hexes"]
    assert mortar_rules.dice_unmoved[mortar["hexes"] - 1] == mortar["dice"]


def test_ids_the_api_names_exist(rulebook):
    api = FACTS["api"]
    known = situation_rule_ids(rulebook)
    assert all(rule_id in known for rule_id in api["special_rules"])
    assert parse_situation({"rules": api["special_rules"], "units": []}, rulebook).rules_in_effect == frozenset(
        api["special_rules"])
    assert all(rulebook.kinds.get(u) == "unit" for u in api["unit_types"]) and len(api["unit_types"]) >= 5
    assert all(rulebook.kinds.get(c) == "command_card" for c in api["command_cards"])
    assert all(rulebook.kinds.get(c) == "combat_card" for c in api["combat_cards"])
    for name in api["badges"]:
        badge_id = rulebook.resolve(name, "badge", "marker")
        if badge_id is None:
            unit_named = rulebook.resolve(name, "unit")
            badge_id = rulebook.badge_for_unit(unit_named) if unit_named else None
        assert badge_id is not None, name


def test_no_file_of_the_project_sends_readers_to_the_shared_folder():
    """A user of a public clone has no ``../shared``: the API is described in adjudicator/API.md."""
    from tests.sources import REPO

    allowed = {"tests/sources.py", "tests/test_completeness_rules.py", "tests/test_completeness_terrain.py",
               "tests/test_source_manifest.py"}
    pointing = [
        str(path.relative_to(REPO)) for folder in ("adjudicator", "tests", "bench", "templates")
        for path in (REPO / folder).rglob("*") if path.is_file() and path.suffix in (".py", ".js", ".md", ".html")
        and str(path.relative_to(REPO)) not in allowed and "shared/spec" in path.read_text(encoding="utf-8")
    ]
    assert pointing == []
    assert "shared/spec" not in (REPO / "README.md").read_text(encoding="utf-8")
    assert (REPO / "adjudicator" / "API.md").is_file()
