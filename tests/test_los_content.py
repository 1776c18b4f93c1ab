"""Every terrain and obstacle's ``blocks_los`` / ``los_rule``, read from the content, decides
whether it blocks a line crossing it (content ``line_of_sight``)."""

from __future__ import annotations

import pytest

from adjudicator.content.loader import content_dir, load_catalogue
from adjudicator.engine.geometry import Hex
from adjudicator.engine.los import line_of_sight
from adjudicator.engine.rulebook import HexRules
from adjudicator.engine.situation import parse_situation

RULEBOOK = load_catalogue(content_dir()).rulebook()
FEATURES = sorted(i for i, r in RULEBOOK.rules.items()
                  if isinstance(r, HexRules) and RULEBOOK.kinds[i] in ("terrain", "obstacle", "marker")
                  and getattr(r, "placed_on", "hex") == "hex")


@pytest.mark.parametrize("feature", FEATURES)
def test_feature_alone_between_two_units_blocks_as_its_entry_says(feature: str) -> None:
    rules = RULEBOOK.hex_rules(feature)
    key = "terrain" if RULEBOOK.kinds[feature] == "terrain" else "obstacle"
    situation = parse_situation({"hexes": [{"row": 4, "col": 8, key: feature}], "units": []}, RULEBOOK)
    los = line_of_sight(situation, RULEBOOK, Hex(4, 4), Hex(4, 12))
    # a lone lake hex is not a group of two; a plateau hex blocks units that are not on it
    expected = rules.blocks_los and rules.los_rule != "lake_group"
    assert los.clear is not expected
    if expected:
        assert [b.why.rule for b in los.blocked_by] == [feature]


@pytest.mark.parametrize("feature", [f for f in FEATURES if RULEBOOK.hex_rules(f).los_rule == "plateau"])
def test_plateau_feature_does_not_block_across_its_own_group(feature: str) -> None:
    hexes = [{"row": 4, "col": c, "terrain": feature} for c in (4, 6, 8)]
    situation = parse_situation({"hexes": hexes, "units": []}, RULEBOOK)
    assert line_of_sight(situation, RULEBOOK, Hex(4, 4), Hex(4, 8)).clear


@pytest.mark.parametrize("feature", [f for f in FEATURES if RULEBOOK.hex_rules(f).los_rule == "lake_group"])
def test_lake_group_feature_blocks_as_a_pair(feature: str) -> None:
    hexes = [{"row": 4, "col": c, "terrain": feature} for c in (6, 8)]
    situation = parse_situation({"hexes": hexes, "units": []}, RULEBOOK)
    assert not line_of_sight(situation, RULEBOOK, Hex(4, 4), Hex(4, 12)).clear
