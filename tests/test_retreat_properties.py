"""Property tests for retreats on random boards: every listed path is legal, losses are bounded,
the minimum loss is the minimum over the options, and nothing legal is left out (checked against a
brute-force enumeration that knows only the retreat rules)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.geometry import BOARDS, Hex
from adjudicator.engine.retreat import retreat_options
from adjudicator.engine.rulebook import HexRules, Rulebook
from adjudicator.engine.situation import Situation, parse_situation

BOARD = BOARDS["standard"]
ALL_HEXES = list(BOARD.hexes())
TERRAINS = ["forest", "town", "hill", "river", "ocean", "frozen_river", "marsh", None, None, None]
UNIT_TYPES = [("infantry", 4), ("armor", 3), ("french_resistance", 3), ("artillery", 2)]


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    target_hex = draw(st.sampled_from(ALL_HEXES))
    unit_type, start = draw(st.sampled_from(UNIT_TYPES))
    side = draw(st.sampled_from(["allies", "axis"]))
    others = draw(st.lists(st.sampled_from(ALL_HEXES), max_size=12, unique=True))
    others = [h for h in others if h != target_hex]
    terrain_hexes = draw(st.lists(st.tuples(st.sampled_from(ALL_HEXES), st.sampled_from(TERRAINS)), max_size=25))
    hexes: dict[Hex, dict[str, Any]] = {}
    for h, terrain in terrain_hexes:
        if terrain and h not in others and h != target_hex:
            hexes[h] = {"row": h.row, "col": h.col, "terrain": terrain}
    if draw(st.booleans()):
        hexes[target_hex] = {"row": target_hex.row, "col": target_hex.col, "obstacle": "sandbags"}
    units = [{"id": "T", "side": side, "type": unit_type, "row": target_hex.row, "col": target_hex.col,
              "figures": draw(st.integers(1, start))}]
    units += [{"id": f"U{i}", "side": draw(st.sampled_from(["allies", "axis"])), "type": "infantry",
               "row": h.row, "col": h.col, "figures": 4} for i, h in enumerate(others)]
    return {
        "bottom_side": draw(st.sampled_from(["allies", "axis"])),
        "hexes": list(hexes.values()),
        "units": units,
        "flags": draw(st.integers(0, 4)),
        "hits": draw(st.integers(0, 3)),
    }


def step_ok(situation: Situation, rulebook: Rulebook, unit_class: str, to: Hex) -> bool:
    """The retreat rules for one step, independently of the engine: on the board, empty, passable
    for the class (or bridged), not a hex no unit may retreat onto."""
    if not situation.board.contains(to) or situation.unit_at(to) is not None:
        return False
    features = [rulebook.hex_rules(f) for f in situation.hex_state(to).features()]
    bridged = any(f.is_bridge for f in features)
    return not any((unit_class in f.impassable and not bridged) or f.no_retreat_onto for f in features)


def brute_force(situation: Situation, rulebook: Rulebook, start: Hex, length: int, dr: int,
                unit_class: str) -> set[tuple[Hex, ...]]:
    if length == 0:
        return {()}
    found: set[tuple[Hex, ...]] = set()
    for dc in (-1, 1):
        to = Hex(start.row + dr, start.col + dc)
        if step_ok(situation, rulebook, unit_class, to):
            found |= {(to, *rest) for rest in brute_force(situation, rulebook, to, length - 1, dr, unit_class)}
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=boards())
def test_every_listed_retreat_is_legal_and_complete(rulebook: Rulebook, doc: dict[str, Any]):
    flags, hits = doc.pop("flags"), doc.pop("hits")
    situation = parse_situation(doc, rulebook)
    unit = situation.unit("T")
    unit_class = rulebook.unit(unit.profile).unit_class
    result = retreat_options(situation, rulebook, "T", flags, hits=hits)
    dr = 1 if situation.is_bottom(unit.side) else -1
    left = unit.figures - hits

    if left <= 0:
        assert result.eliminated and result.options == ()
        return
    assert result.options, "a unit that survives the hits always has at least one outcome"
    assert result.options_total >= len(result.options)
    assert result.min_figures_lost == min(o.figures_lost for o in result.options)
    assert result.eliminated == (hits + result.min_figures_lost >= unit.figures)
    allowed = set(result.allowance.choices(flags))
    for option in result.options:
        assert 0 <= option.figures_lost <= left
        assert option.eliminated == (option.figures_lost >= left)
        assert option.flags_ignored in allowed
        assert len(option.path) <= (flags - option.flags_ignored) * result.per_flag
        previous = unit.hex
        for h in option.path:
            assert h.row == previous.row + dr and abs(h.col - previous.col) == 1
            assert step_ok(situation, rulebook, unit_class, h)
            previous = h
        assert option.end == (option.path[-1] if option.path else unit.hex)
        if option.figures_lost:
            assert option.moves_not_made * rulebook.core_rules("retreat").figures_lost_per_retreat_move_not_made >= \
                option.figures_lost

    pinned = any(unit_class in rulebook.hex_rules(f).no_retreat_from for f in situation.hex_state(unit.hex).features()
                 if isinstance(rulebook.rules[f], HexRules))
    if pinned or result.options_truncated:
        return
    for ignored in allowed:
        required = (flags - ignored) * result.per_flag_min
        most = (flags - ignored) * result.per_flag
        expected = set().union(*(brute_force(situation, rulebook, unit.hex, n, dr, unit_class)
                                 for n in range(required, most + 1)))
        listed = {o.path for o in result.options if o.flags_ignored == ignored}
        if expected:
            assert listed == expected
        else:
            # Blocked short of the required distance: the farthest reachable paths only.
            longest = max(len(p) for p in listed)
            assert all(len(p) == longest for p in listed)
            assert listed == brute_force(situation, rulebook, unit.hex, longest, dr, unit_class)
            assert not brute_force(situation, rulebook, unit.hex, longest + 1, dr, unit_class)
