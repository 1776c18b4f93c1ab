"""The documents an entry may cite, and the expansions an entry may belong to.

A closed list, so a citation always names a document a referee can find. The keys are what
authors write in ``sources[].document``."""

from __future__ import annotations

DOCUMENTS: dict[str, str] = {
    "Game help summary": "004_60f10eb4684a2568.txt",
    "Winter Wars rulebook": "002_3cc5f2417ec370f4.txt",
    "Half-Tracks rules": "000_321c614be2c02877.txt",
    "Supply Trucks rules": "001_34158f3aa3611b1a.txt",
    "Combat Cards rules": "003_53ec534dd00cf04b.txt",
    # Secondary sources, named as such on every page that uses them.
    "BGA implementation": "",
    "Base game card text (not in the bundled documents)": "",
}
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
