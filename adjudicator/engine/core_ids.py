"""The content ids the engine names in code, each once.

The engine reads every number from the content; these are the few entries it must find by id:
the core entries it cites for general rules, and terrain it measures other rules against. Each is
an entry of ``content/`` (``tests/test_engine_purity.py`` and the content tests check they exist)."""

from __future__ import annotations

MOVEMENT = "movement"
"""Core entry: one unit per hex, never through another; a hex the scenario declares impassable."""
RETREAT = "retreat"
"""Core entry: hexes per flag, figures lost per retreat move not made, flag ignoring."""
DICE_RULE = "range_and_dice"
"""Core entry: the battle die (``die_faces``) and close-assault range."""
BATTLE_RULES = ("battle", DICE_RULE)
"""Core entries for the general battle rules, most specific first (the first that exists is cited)."""
HIT_RULES = ("resolving_hits", DICE_RULE)
"""Core entries on which faces hit what, most specific first (the first that exists is cited)."""
LOS_RULE = "line_of_sight"
"""Core entry every line-of-sight ruling cites."""
TAKE_GROUND = "take_ground"
"""Core entry: moving into the hex a close assault emptied."""
OVERRUN = "armor_overrun"
"""Core entry: ``overruns_per_turn``."""
MEDALS = "medals"
"""Core entry: the last figure of a unit is a medal."""
RESUPPLY = "resupply"
"""Action entry: re-supply."""
BEACH = "beach"
"""The terrain cliffs and sea bluffs limit moves to and from (``beach_climb_*``), and that, with
open countryside, lets sandbags count (``on_countryside_or_beach``)."""
JAPANESE = "japanese"
"""The nation code a ``target_japanese`` dice reduction protects (caves)."""
