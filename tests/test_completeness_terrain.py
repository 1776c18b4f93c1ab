"""Every terrain and obstacle of the rules documents has an entry, and the facts the game help
summary states mechanically match the structured fields the engine computes from.

The headings and bullets are parsed from the seed documents themselves (``../shared/seeds``,
beside the repository in CI; in a public clone these tests are skipped, saying so, and
``tests/test_source_manifest.py`` checks the card -> entry facts from the repository's
manifest), so a terrain card without an entry, or an entry whose numbers drift from its card,
fails here. Only headings whose id cannot be derived from their wording are mapped by
hand (the two misprinted "Road Blocks" headings, plural ids, "X with Y" names).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from adjudicator.content.documents import DOCUMENTS
from adjudicator.content.loader import Catalogue
from adjudicator.engine.rulebook import HexRules, Rulebook
from tests.sources import SEEDS, SEEDS_PRESENT, needs_seeds

SUMMARY = SEEDS / DOCUMENTS["Game help summary"]
WINTER_WARS = SEEDS / DOCUMENTS["Winter Wars rulebook"]
SEED_DOCUMENTS = {name for name, seed in DOCUMENTS.items() if seed}

CLASSES = ("infantry", "armor", "artillery")
HEX_KINDS = ("terrain", "obstacle", "marker")

IRREGULAR_IDS: dict[str, tuple[str, ...]] = {
    "Barracks": ("barracks",),
    "Sandbags": ("sandbags",),
    "Cliffs & Sea Bluffs": ("cliff", "sea_bluff"),
    "Factory Complex": ("factory",),
    "City Ruins": ("city_ruins",),
    "Dragon's Teeth": ("dragons_teeth",),
    "Hills with Forests": ("hill_forest",),
    "Hills with Villages": ("hill_village",),
    "Caves on Hills": ("cave_on_hill",),
    "Caves on Mountains": ("cave_on_mountain",),
    "HQs & Supply Tents": ("hq_supply_tent",),
}
"""Headings whose entry id is not the singular of their first name."""

MISPRINTED = {("Road Blocks", 1): ("ravine", "Ravine"), ("Road Blocks", 2): ("trench", "Trenches")}
"""(heading, occurrence) -> (entry id, word its text uses): the summary prints "Road Blocks" over
the Ravine and Trench cards."""

ALREADY_SINGULAR = {"oasis", "abatis"}


# --- parsing the seeds -----------------------------------------------------------------------


@dataclass
class Card:
    heading: str
    occurrence: int  # 0 for the first card with this heading, 1 for the second, ...
    bullets: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.heading if not self.occurrence else f"{self.heading} ({self.occurrence + 1})"


def _clean(text: str) -> str:
    return re.sub(r"</?\w*>?", "", text).strip()


def summary_cards() -> list[Card]:
    """The terrain cards between "TERRAIN TYPES" and "ACTIONS" of the game help summary."""
    text = SUMMARY.read_text(encoding="utf-8")
    section = text.split("\nTERRAIN TYPES\n", 1)[1].split("\nACTIONS\n", 1)[0]
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for line in section.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("•"):
            cards[-1].bullets.append(_clean(stripped[1:]))
        elif line == stripped and len(stripped.split()) <= 5 and not stripped.endswith("."):
            cards.append(Card(stripped, seen.get(stripped, 0)))
            seen[stripped] = seen.get(stripped, 0) + 1
        elif cards and cards[-1].bullets:  # a wrapped bullet (the mountain artillery dice)
            cards[-1].bullets[-1] += " " + stripped
    return cards


def winter_wars_headings() -> list[str]:
    """Terrain and obstacle names of the Winter Wars rulebook: its table of contents for
    chapters I and IV, plus the headings of chapter I itself (the Castle is not in the contents)."""
    text = WINTER_WARS.read_text(encoding="utf-8")
    names: list[str] = []
    toc = text.split("TABLE OF CONTENTS", 1)[1].split("V. NEW TROOPS", 1)[0]
    chapter = None
    for line in toc.splitlines():
        if re.match(r"^[IV]+\. ", line):
            chapter = line.split(".", 1)[0]
        elif chapter in {"I", "IV"} and "\t" in line:
            names.extend(part.strip() for part in line.split("\t")[0].split(" / "))
    body = text.split("I. NEW TERRAIN TILES", 1)[1].split("This icon indicates", 1)[0]
    for line in body.splitlines():
        if re.fullmatch(r"[A-Z][a-z]+( [A-Z][a-z]+)*( - [A-Z][a-z]+( [A-Z][a-z]+)*)?", line.strip()):
            names.extend(part.strip() for part in line.split(" - "))
    return list(dict.fromkeys(names))


def _singular(word: str) -> str:
    if word in ALREADY_SINGULAR:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def derived_id(heading: str) -> str:
    """"Palm Forests" -> palm_forest, "Fords & Fordable Rivers" -> ford."""
    words = heading.split(" & ")[0].lower().replace("'", "").split()
    return "_".join([*words[:-1], _singular(words[-1])])


def ids_for(card: Card) -> tuple[str, ...]:
    if (card.heading, card.occurrence) in MISPRINTED:
        return (MISPRINTED[card.heading, card.occurrence][0],)
    return IRREGULAR_IDS.get(card.heading, (derived_id(card.heading),))


CARDS = summary_cards() if SEEDS_PRESENT else []
CARD_ENTRIES = [(card, entry_id) for card in CARDS for entry_id in ids_for(card)]
WINTER_NAMES = winter_wars_headings() if SEEDS_PRESENT else []


# --- completeness ----------------------------------------------------------------------------


@needs_seeds
def test_summary_parser_finds_every_terrain_card():
    """About 65 cards, from Beaches to Castle: guards the parser that the tests below rely on."""
    headings = [c.heading for c in CARDS]
    assert len(CARDS) >= 60
    assert headings[0] == "Beaches" and headings[-1] == "Castle"
    assert all(card.bullets for card in CARDS)


@needs_seeds
def test_misprinted_road_blocks_headings_describe_ravine_and_trench():
    for (heading, occurrence), (_entry_id, word) in MISPRINTED.items():
        [card] = [c for c in CARDS if c.heading == heading and c.occurrence == occurrence]
        assert any(word in bullet for bullet in card.bullets), card.bullets


@needs_seeds
@pytest.mark.parametrize(("card", "entry_id"), CARD_ENTRIES, ids=[f"{c.label}->{i}" for c, i in CARD_ENTRIES])
def test_every_summary_terrain_card_has_an_entry(catalogue: Catalogue, card: Card, entry_id: str):
    assert entry_id in catalogue.entries, f"no entry {entry_id!r} for the card {card.label!r}"
    assert catalogue.entries[entry_id].kind in HEX_KINDS


@needs_seeds
def test_winter_wars_parser_finds_terrains_and_obstacles():
    assert {"Castle", "Frozen River", "Winter Village", "Winter Field Bunker"} <= set(WINTER_NAMES)
    assert len(WINTER_NAMES) >= 13


@needs_seeds
@pytest.mark.parametrize("heading", WINTER_NAMES)
def test_every_winter_wars_terrain_has_an_entry(catalogue: Catalogue, heading: str):
    entry_id = derived_id(heading)
    assert entry_id in catalogue.entries, f"no entry {entry_id!r} for {heading!r}"
    assert catalogue.entries[entry_id].kind in HEX_KINDS


@needs_seeds
@pytest.mark.parametrize("heading", [h for h in WINTER_NAMES if h.startswith("Winter ")])
def test_winter_variant_plays_exactly_like_its_base(catalogue: Catalogue, rulebook: Rulebook, heading: str):
    """A winter tile is cosmetic: it names its base and restates no number of its own."""
    entry = catalogue.entries[derived_id(heading)]
    base_id = rulebook.resolve(entry.id.removeprefix("winter_"), "terrain", "obstacle")
    assert base_id is not None and entry.meta.base == base_id
    front = yaml.safe_load(Path(__file__).resolve().parents[1].joinpath(entry.path).read_text().split("---")[1])
    own_facts = set(front) - {"id", "kind", "name", "aliases", "summary", "expansion", "sources", "see_also", "base"}
    assert own_facts <= {"editor_names"}
    base = catalogue.entries[base_id].rules
    assert dataclasses.replace(entry.rules, editor_names=()) == dataclasses.replace(base, editor_names=())


def test_every_terrain_and_obstacle_cites_a_rules_document(catalogue: Catalogue):
    uncited = [
        e.id for e in catalogue.entries.values()
        if e.kind in ("terrain", "obstacle") and not {s.document for s in e.meta.sources} & SEED_DOCUMENTS
    ]
    assert uncited == []


def test_editor_names_import_to_their_entry(catalogue: Catalogue, rulebook: Rulebook):
    """Scenario files name tiles by editor name; each must lead to the one entry that lists it."""
    wrong = {
        name: (entry.id, rulebook.resolve(name, *HEX_KINDS))
        for entry in catalogue.entries.values() if entry.kind in HEX_KINDS
        for name in entry.rules.editor_names
        if rulebook.resolve(name, *HEX_KINDS) != entry.id
    }
    assert wrong == {}


# --- facts stated by the summary's bullets ---------------------------------------------------

Check = Callable[[HexRules, str], list[str]]
"""Given the rules and the bullet, the list of mismatches (empty: agrees)."""


def named_classes(subject: str, rules: HexRules) -> set[str]:
    """Classes a bullet's subject names; "Unit"/"Occupant" means every class that may be there."""
    named = {c for c in CLASSES if c in subject.lower()}
    return named or set(CLASSES) - set(rules.impassable)


def _subset(what: str, expected: set[str], actual: tuple[str, ...] | dict[str, int]) -> list[str]:
    missing = expected - set(actual)
    return [f"{what} lacks {sorted(missing)}"] if missing else []


def check_los(rules: HexRules, bullet: str) -> list[str]:
    blocks = not bullet.lower().startswith(("do not", "does not"))
    problems = [] if rules.blocks_los == blocks else [f"blocks_los should be {blocks}"]
    if "(except" in bullet and rules.los_rule != "plateau":
        problems.append("los_rule should be plateau")
    if rules.los_rule == "plateau" and (rules.plateau, rules.elevation) not in {("hill", 1), ("mountain", 2)}:
        problems.append("a plateau group needs plateau hill at height 1 or mountain at height 2")
    return problems


def check_impassable(rules: HexRules, bullet: str) -> list[str]:
    subject = bullet.split(",")[0]
    named = {c for c in CLASSES if c in subject.lower()} or set(CLASSES)
    return _subset("impassable", named, rules.impassable)


def check_reduction(rules: HexRules, bullet: str) -> list[str]:
    found = re.findall(r"(Infantry|Armor|Artillery) -(\d)\*?(?:/-(\d))?", bullet)
    alternatives = [{c.lower(): int(n) for c, n, _ in found}]
    if any(alt for _, _, alt in found):
        alternatives.append({c.lower(): int(alt or n) for c, n, alt in found})
    problems = [
        f"no reduction {alt}" for alt in alternatives
        if not any(all(r.dice.get(c) == n for c, n in alt.items()) for r in rules.dice_reductions)
    ]
    if "artillery" not in alternatives[0]:
        problems += ["artillery must not be reduced" for r in rules.dice_reductions if r.dice.get("artillery", 0)]
        problems += ["write artillery: 0 explicitly" for r in rules.dice_reductions if "artillery" not in r.dice]
    return problems


def check_footnote(rules: HexRules, bullet: str) -> list[str]:
    text = bullet.lower()
    problems = []
    for r in rules.dice_reductions:
        if "from below" in text and not {"from_below", "not_same_plateau"} & set(r.when):
            problems.append(f"{r} should apply only from below")
        if ("original owner" in text or "behind sea wall" in text) and "owner_only" not in r.when:
            problems.append(f"{r} should protect the owner only")
        if "countryside or beach" in text and "on_countryside_or_beach" not in r.when:
            problems.append(f"{r} should count on countryside or beach only")
    first = rules.dice_reductions[0].when if rules.dice_reductions else ()
    if "against japanese" in text and "target_japanese" not in first:
        problems.append("the first reduction should be the one against Japanese units")
    return problems


def check_must_stop(rules: HexRules, bullet: str) -> list[str]:
    subject = re.split(r" (?:moving|entering|leaving)", bullet)[0]
    classes = named_classes(subject, rules)
    problems = []
    if re.search(r"moving in|moving onto|entering", bullet):
        problems += _subset("must_stop", classes, rules.must_stop)
    if re.search(r"in/out|exiting", bullet):
        problems += _subset("must_stop_leaving", classes, rules.must_stop_leaving)
    return problems


def check_leaving(rules: HexRules, bullet: str) -> list[str]:
    return _subset("must_stop_leaving", named_classes(bullet.split(" leaving")[0].split(" moving")[0], rules),
                   rules.must_stop_leaving)


def check_cannot_battle(rules: HexRules, bullet: str) -> list[str]:
    subject = re.split(r" (?:moving|cannot)", bullet)[0]
    classes = named_classes(subject, rules)
    if "when in" in bullet:
        return _subset("cannot_battle_in", classes, rules.cannot_battle_in)
    problems = _subset("no_battle_after_entering", classes, rules.no_battle_after_entering)
    if "in/out" in bullet:
        problems += _subset("no_battle_after_leaving", classes, rules.no_battle_after_leaving)
    return problems


def check_may_battle(rules: HexRules, bullet: str) -> list[str]:
    problems = [] if not rules.no_battle_after_entering else ["entering units may battle here"]
    if "starts its move in adjacent hex" in bullet and rules.battle_after_entering_max_moved != 1:
        problems.append("battle_after_entering_max_moved should be 1")
    return problems


def check_battle_out(rules: HexRules, bullet: str) -> list[str]:
    dice = int(re.search(r"battles out at -(\d)", bullet).group(1))
    classes = named_classes(bullet.split("battles out")[0], rules)
    return [f"battle_out {c} should be {dice}" for c in sorted(classes) if rules.battle_out.get(c) != dice]


def check_flags(rules: HexRules, bullet: str) -> list[str]:
    count: int | str = "all" if "all flags" in bullet else int(re.search(r"ignore (\d)", bullet).group(1))
    subject = bullet.split(" may ignore")[0].split(" must ignore")[0]
    infantry_only = subject.startswith("Infantry")
    owner_only = "original owner" in subject.lower() or "behind sea wall" in subject.lower()
    japanese = "Japanese" in subject
    for flag in rules.flags:
        if (flag.count == count and (flag.unit_classes == ("infantry",)) == infantry_only
                and flag.owner_only == owner_only and (flag.nations == ("japanese",)) == japanese
                and flag.mandatory == ("must ignore" in bullet)):
            return []
    return [f"no flag rule for {bullet!r} among {rules.flags}"]


def check_no_overrun(rules: HexRules, bullet: str) -> list[str]:
    return _subset("no_overrun", {"armor"}, rules.no_overrun)


def check_max_move(rules: HexRules, bullet: str) -> list[str]:
    hexes = int(re.search(r"is (\d) hex", bullet).group(1))
    return [] if rules.max_move_onto == hexes else [f"max_move_onto should be {hexes}"]


def check_no_retreat(rules: HexRules, bullet: str) -> list[str]:
    return _subset("no_retreat_from", named_classes(bullet.split(" in ")[0], rules), rules.no_retreat_from)


def check_no_retreat_onto(rules: HexRules, bullet: str) -> list[str]:
    return [] if rules.no_retreat_onto else ["no_retreat_onto should be true"]


def check_entry_risk(rules: HexRules, bullet: str) -> list[str]:
    dice = int(re.search(r"roll (\d) Battle dice", bullet).group(1))
    risk = rules.entry_risk
    ok = risk and risk.dice == dice and risk.faces == ("star",) and risk.on_move and risk.on_retreat
    return [] if ok else [f"entry_risk should be {dice} dice, stars, on move and retreat"]


def check_adjacent_entry(rules: HexRules, bullet: str) -> list[str]:
    return [] if rules.enter_only_from_adjacent else ["enter_only_from_adjacent should be true"]


def check_take_ground_started_adjacent(rules: HexRules, bullet: str) -> list[str]:
    classes = {"armor"} if bullet.startswith("If Armor") else {"infantry", "armor"}
    return _subset("take_ground_requires_started_adjacent", classes, rules.take_ground_requires_started_adjacent)


def check_adjacent_then_take_ground(rules: HexRules, bullet: str) -> list[str]:
    """Hedgerows: stopping next to the hex is the condition; the unit "may still" take ground."""
    problems = [] if rules.enter_only_from_adjacent else ["enter_only_from_adjacent should be true"]
    if rules.take_ground_requires_started_adjacent:
        problems.append("take_ground_requires_started_adjacent should be empty: a unit that stopped adjacent may "
                        "take ground")
    return problems


def check_sandbags_removed(rules: HexRules, bullet: str) -> list[str]:
    removed = "do not remove" not in bullet.lower()
    if rules.removed_when_occupant_leaves == removed:
        return []
    return [f"removed_when_occupant_leaves should be {removed}"]


def check_climb(rules: HexRules, bullet: str) -> list[str]:
    return [] if rules.climb_cost == 2 else ["climb_cost should be 2"]


def check_climb_stop(rules: HexRules, bullet: str) -> list[str]:
    return _subset("must_stop_climbing", named_classes(bullet.split(" moving")[0], rules), rules.must_stop_climbing)


def check_beach_climb(rules: HexRules, bullet: str) -> list[str]:
    return [] if rules.beach_climb_cost == 2 else ["beach_climb_cost should be 2"]


def check_beach_forbidden(rules: HexRules, bullet: str) -> list[str]:
    return _subset("beach_climb_forbidden", {"armor", "artillery"}, rules.beach_climb_forbidden)


def check_road(rules: HexRules, bullet: str) -> list[str]:
    bonus = int(re.search(r"move (\d) additional", bullet).group(1))
    return [] if rules.road_move_bonus == bonus else [f"road_move_bonus should be {bonus}"]


def check_pier(rules: HexRules, bullet: str) -> list[str]:
    return [] if "ocean" in rules.no_entry_from else ["no_entry_from should name ocean"]


def check_wadi(rules: HexRules, bullet: str) -> list[str]:
    return _subset("adjacent_only_in_or_out", {"infantry", "armor"}, rules.adjacent_only_in_or_out)


def check_lake(rules: HexRules, bullet: str) -> list[str]:
    return [] if rules.los_rule == "lake_group" and rules.blocks_los else ["lake group line of sight"]


def check_take_ground_after_stop(rules: HexRules, bullet: str) -> list[str]:
    classes = named_classes(bullet.split(" may")[0], rules) & {"infantry", "armor"} & set(rules.must_stop)
    return _subset("take_ground_after_stop", classes, rules.take_ground_after_stop)


def check_mountain_moves(rules: HexRules, bullet: str) -> list[str]:
    return (_subset("enter_only_from_plateau", {"hill", "mountain"}, rules.enter_only_from_plateau)
            + _subset("leave_only_to_plateau", {"hill", "mountain"}, rules.leave_only_to_plateau))


FACTS: list[tuple[str, Check]] = [
    (r"^(Block|Blocks|Do not block|Does not block) line of sight", check_los),
    (r"^Impassable", check_impassable),
    (r"^Attacker:", check_reduction),
    (r"^\*", check_footnote),
    (r"^(Unit|Infantry|Armor)[^.]*(moving in|moving onto|entering)[^.]*must stop", check_must_stop),
    (r"^(Infantry|Unit)[^.]*(leaving hex must stop|moving out may only move onto an adjacent)", check_leaving),
    (r"^(Unit|Infantry|Armor)[^.]*cannot battle", check_cannot_battle),
    (r"^Unit moving in(to)? may (still )?battle", check_may_battle),
    (r"battles out at -\d", check_battle_out),
    (r"(may|must) ignore (\d|all) flags?", check_flags),
    (r"not Armor Overrun", check_no_overrun),
    (r"^Maximum movement", check_max_move),
    (r"may not retreat, must take loss", check_no_retreat),
    (r"cannot retreat onto", check_no_retreat_onto),
    (r"roll \d Battle dice; for each star", check_entry_risk),
    (r"must start its move from adjacent hex|unit must stop on adjacent hex", check_adjacent_entry),
    (r"If Armor unit starts its move in adjacent hex", check_take_ground_started_adjacent),
    (r"To enter or take ground, unit must stop on adjacent hex, may still", check_adjacent_then_take_ground),
    (r"remove sandbags", check_sandbags_removed),
    (r"^Movement up onto .* is a 2 hex move", check_climb),
    (r"^Unit moving up .* must stop", check_climb_stop),
    (r"beach hex is a 2 hex move", check_beach_climb),
    (r"may not move up/down from the beach", check_beach_forbidden),
    (r"additional hex", check_road),
    (r"not from Ocean hex", check_pier),
    (r"battling in or out of .* must be adjacent", check_wadi),
    (r"contiguous adjacent Lake hexes block", check_lake),
    (r"may only move up or retreat onto a mountain", check_mountain_moves),
    (r"^(Unit|Armor) may (still )?Take Ground", check_take_ground_after_stop),
]
"""(pattern a bullet matches, what the entry must then say)."""


def checks_for(card: Card) -> list[tuple[str, Check]]:
    return [(bullet, check) for bullet in card.bullets for pattern, check in FACTS if re.search(pattern, bullet)]


@needs_seeds
def test_fact_patterns_recognise_most_bullets():
    """If the seed's wording or the parser changed, far fewer bullets would be checked."""
    checked = sum(len(checks_for(card)) for card in CARDS)
    assert checked >= 240
    assert all(any(re.search(p, b) for card in CARDS for b in card.bullets) for p, _ in FACTS)


@needs_seeds
@pytest.mark.parametrize(("card", "entry_id"), CARD_ENTRIES, ids=[f"{c.label}->{i}" for c, i in CARD_ENTRIES])
def test_entry_matches_its_summary_card(rulebook: Rulebook, card: Card, entry_id: str):
    rules = rulebook.hex_rules(entry_id)
    problems = [f"{bullet!r}: {p}" for bullet, check in checks_for(card) for p in check(rules, bullet)]
    if card.heading == "Cliffs & Sea Bluffs":
        cliff_only = [b for b in card.bullets if b.startswith("Cliffs only")]
        assert cliff_only
        limited = any(
            t.unit_classes == ("infantry",) and t.from_terrains == ("beach",) for t in rules.take_ground_limits
        )
        if limited != (entry_id == "cliff"):
            problems.append("only the cliff stops infantry taking ground from the beach")
    assert problems == []


@needs_seeds
def test_a_terrain_that_card_says_is_open_has_no_hidden_effect(rulebook: Rulebook):
    """Cards that say "No movement restrictions" and "No combat restrictions" with nothing else
    but line of sight (airfields, hospitals, ...) must have no movement or battle field set."""
    open_cards = [
        (card, entry_id) for card, entry_id in CARD_ENTRIES
        if {"No movement restrictions", "No combat restrictions"} <= set(card.bullets)
        and all(b.startswith(("No ", "Do", "Block", "When ", "Does")) for b in card.bullets)
    ]
    assert len(open_cards) >= 4
    for card, entry_id in open_cards:
        rules = rulebook.hex_rules(entry_id)
        plain = dataclasses.replace(
            HexRules(), editor_names=rules.editor_names, blocks_los=rules.blocks_los, is_bridge=rules.is_bridge
        )
        assert rules == plain, card.heading
