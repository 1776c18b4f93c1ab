"""The catalogue covers what the rules documents list, with the numbers they state.

Everything expected here is parsed from the seed documents in ``../shared/seeds`` and from the
original API contract in ``../shared/spec`` where they are present (CI; skipped, saying so, in a
public clone, where ``tests/test_source_manifest.py`` checks the same facts from the repository's
own manifest): the game help summary's ACTIONS and NATIONS headings, the Winter Wars
Breakthrough deck counts, the ranges and dice each document gives a unit, and the rule, badge,
unit and card ids the contract names. Nothing is copied into this file but the handful of
headings that are, on purpose, another kind of entry (a badge, a marker, a special rule...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest

from adjudicator.content.documents import DOCUMENTS
from adjudicator.engine.rulebook import CardRules, Rulebook, UnitRules
from adjudicator.engine.situation import parse_situation, situation_rule_ids
from tests.sources import SEEDS, SEEDS_PRESENT, SPEC, needs_seeds

# Headings of the game help summary whose subject is an entry of another kind than the section
# they sit in, or whose id is not the heading's words. Value: (entry id, kind).
ELSEWHERE: dict[str, tuple[str, str]] = {
    "Heroic Leader": ("heroic_leader", "badge"),
    "Camouflage": ("camouflage", "marker"),
    "Smoke Screen": ("smoke_screen", "obstacle"),
    "Blitz Rules": ("blitz", "special_rule"),
    "North African Desert Rules": ("north_african_desert", "special_rule"),
    "Night Attacks": ("night_attacks", "special_rule"),
    "French Resistance": ("french_resistance", "unit"),
    "British Commonwealth Forces (BCF)": ("british_commonwealth", "nation"),
}

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
SECTIONS = {"left": "left", "center": "center", "right": "right"}


@cache
def seed(document: str) -> str:
    return (SEEDS / DOCUMENTS[document]).read_text(encoding="utf-8")


def section_lines(text: str, start: str, end: str | None) -> list[str]:
    """Lines between the line ``start`` and the line ``end`` (exclusive), as printed."""
    lines = text.splitlines()
    first = lines.index(start) + 1
    last = lines.index(end, first) if end else len(lines)
    return lines[first:last]


def headings(lines: list[str]) -> list[str]:
    """Unindented, non-bullet lines: the entry headings of a game help section."""
    return [
        line.strip() for line in lines
        if line.strip() and not line[0].isspace() and not line.startswith(("•", "-"))
    ]


def derived_id(heading: str) -> str:
    """The snake_case id a heading names: no parenthesis, no trailing "Rules", the part before
    "&" or "/" ("Air Strikes & Blitz" -> air_strikes, "Capture HQ/Supply Tent" -> capture_hq)."""
    words = re.sub(r"\(.*?\)", "", heading)
    words = re.split(r"[&/]", words)[0]
    words = re.sub(r"\bRules\s*$", "", words.strip())
    return re.sub(r"[^a-z0-9]+", "_", words.lower()).strip("_")


def resolves_to(rulebook: Rulebook, heading: str) -> str | None:
    """The entry a reader finds by typing the heading (with or without its parenthesis)."""
    return rulebook.resolve(heading) or rulebook.resolve(re.sub(r"\s*\(.*?\)", "", heading))


def game_help_headings(start: str, end: str | None) -> list[str]:
    found = headings(section_lines(seed("Game help summary"), start, end))
    assert len(found) >= 5, f"could not parse the {start} headings of the game help summary"
    return found


def check_headings(rulebook: Rulebook, found: list[str], kind: str) -> None:
    for heading in found:
        entry_id, entry_kind = ELSEWHERE.get(heading, (derived_id(heading), kind))
        assert entry_id in rulebook.kinds, f"{heading!r}: no entry {entry_id!r}"
        assert rulebook.kinds[entry_id] == entry_kind, f"{heading!r}: {entry_id} is a {rulebook.kinds[entry_id]}"
        assert resolves_to(rulebook, heading) == entry_id, f"searching {heading!r} does not find {entry_id}"


@needs_seeds
def test_every_game_help_action_has_an_entry(rulebook):
    check_headings(rulebook, game_help_headings("ACTIONS", "NATIONS"), "action")


@needs_seeds
def test_every_game_help_nation_has_an_entry(rulebook):
    check_headings(rulebook, game_help_headings("NATIONS", None), "nation")


@needs_seeds
def test_headings_mapped_elsewhere_are_real_headings():
    """The explicit mapping names only headings the summary has (so it cannot go stale)."""
    found = set(game_help_headings("ACTIONS", "NATIONS")) | set(game_help_headings("NATIONS", None))
    assert set(ELSEWHERE) <= found


# -- Breakthrough deck (Winter Wars) ------------------------------------------------------------

CARD_LINE = re.compile(r"^(?:- )?(?:◆ )?(?P<name>.+?)(?: -)? \((?P<count>\d+) cards?\)$")
SECTION_NAME = re.compile(
    r"^(?P<card>.+?) (?:on the (?P<flank>Left|Right) Flank|in the (?P<center>Center))"
    r"(?: \+ (?P<move>\d+) On the Move)?$"
)


@dataclass(frozen=True)
class PrintedCount:
    name: str
    card: str  # the card's own name, without section
    section: str | None
    on_the_move: int
    count: int


def breakthrough_counts() -> list[PrintedCount]:
    text = seed("Winter Wars rulebook")
    start = text.index("Your new Breakthrough Command card deck")
    rows = []
    for line in text[start:].splitlines():
        match = CARD_LINE.match(line.strip())
        if not match:
            continue
        name, count = match["name"], int(match["count"])
        section = SECTION_NAME.match(name)
        if section:
            where = (section["flank"] or section["center"]).lower()
            rows.append(PrintedCount(name, section["card"], SECTIONS[where], int(section["move"] or 0), count))
        else:
            rows.append(PrintedCount(name, name, None, 0, count))
    assert len(rows) >= 20, "could not parse the Breakthrough card list"
    return rows


def family(rulebook: Rulebook, card_id: str) -> list[str]:
    """A card and its deck variants (entries whose ``base`` is the card)."""
    return [card_id, *(i for i, b in rulebook.bases.items() if b == card_id and rulebook.kinds[i] == "command_card")]


def breakthrough_count(rulebook: Rulebook, row: PrintedCount) -> int:
    card_id = rulebook.resolve(row.card, "command_card")
    assert card_id is not None, f"no command card named {row.card!r}"
    total = 0
    for entry_id in family(rulebook, card_id):
        rules = rulebook.rules[entry_id]
        assert isinstance(rules, CardRules)
        if rules.on_the_move != row.on_the_move:
            continue
        total += sum(d.count for d in rules.deck_counts if d.deck == "breakthrough" and d.section == row.section)
    return total


@needs_seeds
@pytest.mark.parametrize("row", breakthrough_counts() if SEEDS_PRESENT else [], ids=lambda r: r.name)
def test_breakthrough_deck_counts_match_winter_wars(rulebook, row):
    assert breakthrough_count(rulebook, row) == row.count


def printed_total(pattern: str) -> int:
    match = re.search(pattern, seed("Winter Wars rulebook"))
    assert match, pattern
    return int(match[1])


@needs_seeds
def test_breakthrough_deck_totals_match_winter_wars(rulebook):
    """80 cards: 28 tactic, 52 section - so no entry claims Breakthrough cards the book lacks, and
    Barrage and Dig In (printed under the section heading) are counted as the tactic cards they are."""
    totals = {"tactic": 0, "section": 0}
    for entry_id in rulebook.ids_of_kind("command_card"):
        rules = rulebook.rules[entry_id]
        assert isinstance(rules, CardRules)
        counted = sum(d.count for d in rules.deck_counts if d.deck == "breakthrough")
        assert counted == 0 or rules.card_type is not None, entry_id  # a card with no stated type (Air Sortie)
        if rules.card_type is not None:
            totals[rules.card_type] += counted
    assert sum(totals.values()) == printed_total(r"Breakthrough Command card deck has (\d+) cards")
    assert sum(r.count for r in breakthrough_counts()) == sum(totals.values())
    assert totals["tactic"] == printed_total(r"number of Tactic cards has increased to (\d+)")
    assert totals["section"] == printed_total(r"number of Section cards has increased to (\d+)")


def test_section_cards_are_counted_per_section(rulebook):
    for entry_id in rulebook.ids_of_kind("command_card"):
        rules = rulebook.rules[entry_id]
        assert isinstance(rules, CardRules)
        by_deck: dict[str, set[str | None]] = {}
        for d in rules.deck_counts:
            by_deck.setdefault(d.deck, set()).add(d.section)
        for deck, sections in by_deck.items():
            assert sections in ({None}, {"left", "center", "right"}), f"{entry_id} {deck}: {sections}"


# -- ranges and dice the documents state ----------------------------------------------------------

def unit_rules(rulebook: Rulebook, name: str) -> tuple[str, UnitRules]:
    unit_id = rulebook.resolve(name, "unit")
    assert unit_id is not None, f"no unit named {name!r}"
    return unit_id, rulebook.unit(unit_id)


@needs_seeds
def test_standard_units_roll_the_game_help_dice_table(rulebook):
    lines = section_lines(seed("Game help summary"), "Range and hit dice rolled", "Line of sight")
    rows = [re.match(r"^(\D+?)((?: \d)+)$", line.strip()) for line in lines if line.strip()]
    assert len([r for r in rows if r]) >= 3
    for row in filter(None, rows):
        _, rules = unit_rules(rulebook, row[1])
        assert list(rules.dice) == [int(n) for n in row[2].split()], row[0]


def x_dice(pattern: str) -> list[int]:
    """Dice printed as "X321" (X is the unit's own hex) in the game help summary."""
    match = re.search(pattern + r"\s*X(\d+)", seed("Game help summary"))
    assert match, pattern
    return [int(n) for n in match[1]]


@needs_seeds
def test_french_resistance_fires_as_printed(rulebook):
    _, rules = unit_rules(rulebook, "French Resistance")
    assert list(rules.dice) == x_dice(r"Fire at")


@needs_seeds
def test_artillery_on_a_mountain_fires_as_printed(rulebook):
    _, rules = unit_rules(rulebook, "Artillery")
    mountain = rulebook.resolve("Mountains", "terrain")
    assert mountain is not None
    assert list(rules.dice_on_terrain[mountain]) == x_dice(r"Artillery set on mountain fires at:")


RANGE = re.compile(r"battle any enemy (?:target |ground )?unit (\w+) or fewer hexes away")


def heading_unit(rulebook: Rulebook, line: str) -> str | None:
    """The unit a short heading line introduces ("Infantry unit with Mortars", "Half-Tracks -
    Movement & Battle", "Tank Destroyers"), else None."""
    text = line.strip().lstrip("#").strip()
    if not text or len(text) > 60 or text.endswith(".") or "**" in text:
        return None
    text = re.sub(r"^Infantry unit with ", "", text)
    text = re.split(r" - ", text)[0]
    return rulebook.resolve(text, "unit")


@dataclass(frozen=True)
class StatedRange:
    document: str
    unit: str
    line: str


def stated_ranges(rulebook: Rulebook) -> list[StatedRange]:
    found = []
    for document in ("Winter Wars rulebook", "Half-Tracks rules"):
        current = None
        for line in seed(document).splitlines():
            current = heading_unit(rulebook, line) or current
            if RANGE.search(line) or "same range and with the same firepower" in line:
                assert current is not None, line
                found.append(StatedRange(document, current, line.strip()))
    return found


def number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


@needs_seeds
def test_unit_dice_match_the_ranges_the_documents_state(rulebook):
    found = stated_ranges(rulebook)
    units = {s.unit for s in found}
    assert len(units) >= 6, f"parsed too few ranges: {sorted(units)}"
    _, infantry = unit_rules(rulebook, "Infantry")
    _, artillery = unit_rules(rulebook, "Artillery")
    for stated in found:
        rules = rulebook.unit(stated.unit)
        where = f"{stated.unit} ({stated.document}): {stated.line}"
        if "same firepower as normal artillery" in stated.line:
            assert rules.dice == artillery.dice, where
            continue
        hexes = number(RANGE.search(stated.line)[1])
        assert len(rules.dice) == hexes, where
        dice = re.search(r"with (\d+) dice", stated.line)
        if dice:
            assert set(rules.dice) == {int(dice[1])}, where
        if "same number of dice a standard Infantry" in stated.line:
            assert rules.dice == infantry.dice, where


@needs_seeds
def test_mortar_unmoved_reaches_the_printed_extra_range(rulebook):
    text = seed("Winter Wars rulebook")
    match = re.search(r"fire on a target (\d+) hexes away, rolling (\d+) die", text)
    assert match
    mortar_id = next(s.unit for s in stated_ranges(rulebook)
                     if text.find(s.line) < match.start() and "Mortar" in s.line)
    rules = rulebook.unit(mortar_id)
    assert len(rules.dice_unmoved) == int(match[1])
    assert rules.dice_unmoved[int(match[1]) - 1] == int(match[2])
    assert rules.dice_unmoved[: len(rules.dice)] == rules.dice
    assert rules.ignores_target_terrain_ranges == (int(match[1]),)


# -- ids the API contract names --------------------------------------------------------------------

def spec_ids(marker: str) -> list[str]:
    """Backticked ids in the contract's sentence that starts at ``marker``, up to its closing
    parenthesis."""
    text = SPEC.read_text(encoding="utf-8")
    start = text.index(marker) + len(marker)
    end = text.index(")", start)
    ids = re.findall(r"`([a-z_]+)`", text[start:end])
    assert ids, marker
    return ids


@needs_seeds
def test_spec_special_rule_ids_are_situation_rules(rulebook):
    ids = spec_ids("`rules`: special rules in effect")
    known = situation_rule_ids(rulebook)
    for rule_id in ids:
        assert rule_id in known, rule_id
        assert rulebook.kinds[known[rule_id]] in ("special_rule", "action")
    assert parse_situation({"rules": ids, "units": []}, rulebook).rules_in_effect == frozenset(ids)


@needs_seeds
def test_spec_badges_turn_units_into_their_profile(rulebook):
    for name in spec_ids("`badges` (e.g."):
        badge_id = rulebook.resolve(name, "badge", "marker")
        if badge_id is None:
            unit_named = rulebook.resolve(name, "unit")
            assert unit_named is not None, name
            badge_id = rulebook.badge_for_unit(unit_named)
        assert badge_id is not None, name
        badge = rulebook.rules[badge_id]
        unit_type = (getattr(badge, "applies_to", ()) or ("infantry",))[0]
        situation = parse_situation({"units": [{"id": "u", "side": "allies", "type": unit_type, "row": 8, "col": 0,
                                                "figures": 1, "badges": [name]}]}, rulebook)
        unit = situation.units[0]
        assert unit.badges == (badge_id,)
        assert unit.profile == (getattr(badge, "turns_into", None) or unit_type), name


@needs_seeds
def test_spec_unit_types_exist(rulebook):
    text = SPEC.read_text(encoding="utf-8")
    start = text.index("Unit `type` ids") + len("Unit `type` ids")
    ids = re.findall(r"`([a-z_]+)`", text[start:text.index("\n- ", start)])
    assert len(ids) >= 5
    for unit_id in ids:
        assert rulebook.kinds.get(unit_id) == "unit", unit_id


@needs_seeds
@pytest.mark.parametrize(("marker", "kind"), [
    ('`"card"` (command card', "command_card"),
    ('`"combat_card"` (e.g.', "combat_card"),
])
def test_spec_card_ids_exist(rulebook, marker, kind):
    for card_id in spec_ids(marker):
        assert rulebook.kinds.get(card_id) == kind, card_id


def test_french_resistance_nation_gives_its_unit_profile(rulebook):
    situation = parse_situation({"units": [{"id": "r", "side": "allies", "type": "infantry", "row": 8, "col": 0,
                                            "figures": 3, "nation": "french_resistance"}]}, rulebook)
    unit = situation.units[0]
    assert unit.profile == rulebook.resolve("French Resistance", "unit")
    assert unit.start_figures == rulebook.unit(unit.profile).figures < rulebook.unit("infantry").figures


def test_editor_names_belong_to_one_entry(catalogue):
    owners: dict[str, str] = {}
    for entry in catalogue.entries.values():
        for name in getattr(entry.rules, "editor_names", ()):
            assert owners.setdefault(name.lower(), entry.id) == entry.id, f"{name}: {owners[name.lower()]}, {entry.id}"
