"""The documents an entry may cite, and the expansions an entry may belong to.

A closed list, so a citation always names a document a referee can find: each has a page of its
own (``/sources/<slug>``) saying what it is, which edition, how to get it and whether it is a
primary source. The keys are what authors write in ``sources[].document``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Document:
    """One citable document.

    ``seed`` names its file in ``shared/seeds`` (empty for a secondary source, which is flagged on
    every page that cites it). ``contents`` is the document's own table of contents, heading and
    page, where it prints page numbers: a citation of such a document gives the page its section
    starts on (``sources[].page``)."""

    name: str
    slug: str
    seed: str
    what: str
    edition: str
    how_to_get: str
    address: str = ""
    contents: tuple[tuple[str, int], ...] = ()
    unpaged: tuple[str, ...] = ()  # sections printed before the first numbered page (a foreword)

    @property
    def primary(self) -> bool:
        return bool(self.seed)

    @property
    def paged(self) -> bool:
        return bool(self.contents)

    @property
    def last_page(self) -> int:
        return max((page for _, page in self.contents), default=0)

    def needs_page(self, section: str) -> bool:
        """A citation of this document must give a page: it prints them, and the section is not
        one of those before its first numbered page."""
        return self.paged and not section.lower().startswith(tuple(s.lower() for s in self.unpaged))


SOURCES: dict[str, Document] = {d.name: d for d in (
    Document(
        name="Game help summary",
        slug="game-help-summary",
        seed="004_60f10eb4684a2568.txt",
        what=(
            "Board Game Arena's help page for Memoir '44 (the wiki page \"Gamehelpmemoir\"): a summary of the "
            "base game turn, movement, battle (range and dice, line of sight, hits, retreats, taking ground and "
            "overrun), Special Forces, the terrain summary cards (about 65 terrains and obstacles), the actions "
            "and the nation rules. It is one of the documents this site is built from, so it is a primary source "
            "here, even though Board Game Arena wrote it. It is not the Board Game Arena program itself: facts "
            "read from that program are cited as \"BGA implementation\", a secondary source."
        ),
        edition=(
            "The version of the page this site was built from. It has no page numbers: citations name its "
            "headings (\"Terrain types — Forests\", \"Actions — Sabotage\"). A quirk of that version: the two "
            "terrain cards after \"Hills with Villages\" are both headed \"Road Blocks\" though they describe "
            "Ravines and Trenches."
        ),
        how_to_get="Open the Memoir '44 game page on Board Game Arena and its help; the wiki address is below.",
        address="https://en.doc.boardgamearena.com/Gamehelpmemoir",
    ),
    Document(
        name="Winter Wars rulebook",
        slug="winter-wars-rulebook",
        seed="002_3cc5f2417ec370f4.txt",
        what=(
            "The rulebook of Days of Wonder's Winter Wars expansion for Memoir '44 (rules by Richard Borg): "
            "winter terrains and the Castle, the victory-medal objective types, Winter Weather and Reduced "
            "Visibility, the Winter Combat cards, the 80-card Breakthrough command deck, Exit markers, "
            "Camouflage and Minefields, winter obstacles, and new troops (Tank Destroyers, Heavy Anti-Tank Guns, "
            "late-war special weapons, Combat Engineers, Half-Tracks, Mobile Artillery, the 504th PIR, Long-Range "
            "Patrol Cars)."
        ),
        edition=(
            "The English rulebook whose table of contents runs from page 3 (terrain tiles) to page 11 (new troops), "
            "followed by the ten scenarios. Citations give the page the section starts on, from that table."
        ),
        how_to_get=(
            "In the box of the Winter Wars expansion. Days of Wonder's Memoir '44 site, which the rulebook itself "
            "names, carries the game's rules and summary cards."
        ),
        address="https://www.memoir44.com",
        contents=(
            ("I. Terrain tiles", 3), ("Frozen River", 3), ("Winter Church", 3), ("Winter Forest", 3),
            ("Winter Hill", 3), ("Winter Village", 3), ("Winter Railroad Tracks", 3), ("Winter Roads", 3),
            ("II. New rules", 4), ("Victory Conditions", 4), ("Winter Rules", 4), ("Winter Weather", 4),
            ("Reduced Visibility", 4), ("Winter Combat Cards", 5), ("Breakthrough Command Cards", 6),
            ("III. New medals & markers", 7), ("Exit tokens", 7), ("Camouflage", 7), ("Minefields", 7),
            ("IV. New obstacles & tokens", 8), ("Winter Road Block", 8), ("Winter Railroad Bridge", 8),
            ("Winter Pontoon Bridge", 8), ("Winter Bridge / Winter Field Bunker", 8), ("V. New troops", 8),
            ("Tank Destroyers", 8), ("Heavy Anti-Tank Guns", 8), ("Late War SWAs", 9),
            ("Anti-Tank Gun / Machine Gun / Mortar", 9), ("Combat Engineers", 9), ("Half-Tracks", 10),
            ("Mobile Artillery", 11), ("504th PIR", 11), ("Long-Range Patrol Cars", 11),
        ),
        unpaged=("Foreword",),
    ),
    Document(
        name="Half-Tracks rules",
        slug="half-tracks-rules",
        seed="000_321c614be2c02877.txt",
        what=(
            "Days of Wonder's detailed rules for the Half-Track unit (troop summary card 18) and the Re-supply "
            "action (action summary card 24): figures, targeting, medals, movement and battle, re-supply, and "
            "the terrain, command-card and action considerations."
        ),
        edition=(
            "The detailed-rules sheet this site was built from; it has no page numbers. The Winter Wars rulebook "
            "reprints the same rules (pages 10–11), adding that re-supply needs Re-Supply rules in effect."
        ),
        how_to_get="Published by Days of Wonder with the Half-Track figures; see the Memoir '44 site.",
        address="https://www.memoir44.com",
    ),
    Document(
        name="Supply Trucks rules",
        slug="supply-trucks-rules",
        seed="001_34158f3aa3611b1a.txt",
        what=(
            "Days of Wonder's detailed rules for the Supply Truck unit (Dodge WC-63): figures, targeting as "
            "infantry, medals, road movement, never battling, re-supply, and the terrain, command-card and "
            "action considerations."
        ),
        edition="The detailed-rules sheet this site was built from; it has no page numbers.",
        how_to_get="Published by Days of Wonder with the Supply Truck figures; see the Memoir '44 site.",
        address="https://www.memoir44.com",
    ),
    Document(
        name="Combat Cards rules",
        slug="combat-cards-rules",
        seed="003_53ec534dd00cf04b.txt",
        what=(
            "The Combat card rules of the Battle Map volume that introduced the Jungle and Desert Combat decks: "
            "how any Combat deck is dealt, played, drawn and reshuffled (they replace the earlier Urban and "
            "Winter Combat rules), the words cards use (spare figures, full strength, vacant and empty hexes), "
            "and the Jungle Warfare, Blazing Sun & Guns, Street Combat and Bitter Resistance special actions."
        ),
        edition="The rules pages this site was built from; its copy keeps no page numbers.",
        how_to_get="In the Battle Map volume with the Jungle and Desert Combat decks (Days of Wonder).",
        address="https://www.memoir44.com",
    ),
    Document(
        name="BGA implementation",
        slug="bga-implementation",
        seed="",
        what=(
            "The program Board Game Arena runs for Memoir '44 (its public source code), read for facts the "
            "bundled documents do not give: scenario-editor tile names and badge numbers, base-game command "
            "card effects and deck counts, some unit numbers. A secondary source: where it differs from the "
            "documents above, the rulings follow the documents and the page shows both readings. It is not "
            "Board Game Arena's help page, which is the primary \"Game help summary\"."
        ),
        edition="The repository bga-devs/bga-memoir as read for this site (commit 828e756).",
        how_to_get="The source code is public on GitHub; the game is played on Board Game Arena.",
        address="https://github.com/bga-devs/bga-memoir",
    ),
    Document(
        name="Base game card text (not in the bundled documents)",
        slug="base-game-card-text",
        seed="",
        what=(
            "The text printed on the Command cards of the Memoir '44 base game. It is not among the documents "
            "this site is built from and the site holds no copy: what a page says a card does is cited to the "
            "BGA implementation, whose reading of the card it follows, and this document is listed beside it "
            "as the printed text to check at the table. Flagged as secondary, since nothing here was read "
            "from it."
        ),
        edition="The base game's Command cards (Days of Wonder); not bundled here, so not checked against a copy.",
        how_to_get="The Command cards in the Memoir '44 base game box.",
    ),
)}
"""Citable document name -> its description."""

DOCUMENTS: dict[str, str] = {name: doc.seed for name, doc in SOURCES.items()}
"""Citable document name -> seed file in ``shared/seeds`` (empty for secondary sources)."""

SECONDARY_DOCUMENTS = frozenset(name for name, seed in DOCUMENTS.items() if not seed)

EXPANSIONS: dict[str, str] = {
    "base": "Base game",
    "terrain_pack": "Terrain Pack",
    "eastern_front": "Eastern Front",
    "pacific_theater": "Pacific Theater",
    "mediterranean_theater": "Mediterranean Theater",
    "air_pack": "Air Pack",
    "battle_maps": "Battle Maps",
    "winter_wars": "Winter Wars",
    "breakthrough": "Breakthrough",
    "desert_winter": "Winter/Desert Board Map",
}
"""Expansion id -> display name."""

KIND_LABELS: dict[str, tuple[str, str]] = {
    "core": ("Core rule", "Core rules"),
    "terrain": ("Terrain", "Terrain"),
    "obstacle": ("Obstacle", "Obstacles"),
    "unit": ("Unit", "Units"),
    "badge": ("Badge", "Badges"),
    "command_card": ("Command card", "Command cards"),
    "combat_card": ("Combat card", "Combat cards"),
    "action": ("Action", "Actions"),
    "nation": ("Nation", "Nations"),
    "victory": ("Victory condition", "Victory conditions"),
    "special_rule": ("Special rule", "Special rules"),
    "marker": ("Marker", "Markers"),
}
"""Kind id -> (singular, plural) label, in the order the site lists them."""
