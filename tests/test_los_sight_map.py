"""``sight_map`` and the precomputed sight-line tables (content ``line_of_sight``, ``hill``,
``lake``): the tables hold exactly the lines ``trace`` computes, and ``sight_map`` agrees with
``line_of_sight(...).clear`` on every ordered pair of every board kind."""

from __future__ import annotations

import gc
import random

import pytest

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.geometry import BOARDS, Hex
from adjudicator.engine.los import _cache, line_of_sight, sight_map
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.sightlines import EDGE_STEPS, sight_table, trace
from adjudicator.engine.situation import Situation, parse_situation

MIXES: dict[str, list[str]] = {
    # hills in groups (some with forest: same group, always blocking), towns, units on anything
    "hills_forest_town": ["forest", "hill", "hill", "town", "hill_forest", "unit"],
    # two plateaus side by side, steep hills and cliffs in the hill group, rivers that never block
    "plateaus": ["hill", "mountain", "mountain", "steep_hill", "river", "cliff", "unit"],
    # lakes in groups of one, two or more, among forests and units
    "lakes": ["lake", "lake", "lake", "forest", "unit", "hill"],
}
CASES = [("standard", mix) for mix in MIXES] + [("overlord", "hills_forest_town"), ("overlord", "lakes"),
                                                ("breakthrough", "plateaus"), ("breakthrough", "lakes")]


def random_board(rulebook: Rulebook, kind: str, mix: str, seed: int, cover: float = 0.3) -> Situation:
    """A board of ``kind`` with about ``cover`` of its hexes holding something from ``mix``."""
    rng = random.Random(f"{kind}-{mix}-{seed}")
    hexes, units = [], []
    for n, h in enumerate(BOARDS[kind].hexes()):
        if rng.random() >= cover:
            continue
        what = rng.choice(MIXES[mix])
        if what == "unit":
            units.append({"id": f"u{n}", "side": rng.choice(["allies", "axis"]), "type": "infantry",
                          "row": h.row, "col": h.col, "figures": 4})
            if rng.random() < 0.5:  # a unit on a hill still blocks; one on a lake cannot stand there
                hexes.append({"row": h.row, "col": h.col, "terrain": rng.choice(["hill", "forest", "town"])})
        else:
            hexes.append({"row": h.row, "col": h.col, "terrain": what})
    return parse_situation({"board": kind, "hexes": hexes, "units": units}, rulebook)


@pytest.mark.parametrize(("kind", "mix"), CASES)
def test_sight_map_agrees_with_line_of_sight_on_every_ordered_pair(rulebook: Rulebook, kind: str, mix: str) -> None:
    situation = random_board(rulebook, kind, mix, seed=1)
    seen = sight_map(situation, rulebook)
    hexes = list(BOARDS[kind].hexes())
    assert set(seen) == set(hexes)
    wrong = [(a, b) for a in hexes for b in hexes
             if (b in seen[a]) != line_of_sight(situation, rulebook, a, b).clear]
    assert wrong == []
    assert all(seen[a] <= set(hexes) for a in hexes)


def test_random_boards_exercise_every_reading(rulebook: Rulebook) -> None:
    """The agreement test above is only worth something if its boards hit every rule: blocked and
    clear lines, hills excused within their group, lake runs that block and lone lakes that do
    not."""
    readings: set[str] = set()
    for kind, mix in CASES:
        situation = random_board(rulebook, kind, mix, seed=1)
        ends = list(situation.hexes)  # plateau and lake readings need both ends on such hexes
        for a in ends:
            for b in ends:
                los = line_of_sight(situation, rulebook, a, b)
                readings.add("clear" if los.clear else "blocked")
                readings.update("excused " + r.rule for r in los.reasons if "does not block" in r.text)
                readings.update("counted " + x.rule for x in los.blocked_by if x.rule in ("lake", "hill"))
                readings.update("edge" for x in los.blocked_by if x.via == "edge")
    assert {"clear", "blocked", "excused hill", "excused mountain", "excused lake", "counted lake",
            "counted hill", "edge"} <= readings


def test_sight_map_of_some_origins(rulebook: Rulebook) -> None:
    s = parse_situation({"hexes": [{"row": 4, "col": c, "terrain": "hill"} for c in (4, 6, 8)]
                         + [{"row": 4, "col": 12, "terrain": "lake"}, {"row": 4, "col": 14, "terrain": "lake"}],
                         "units": []}, rulebook)
    seen = sight_map(s, rulebook, [Hex(4, 4), Hex(4, 2)])
    assert set(seen) == {Hex(4, 4), Hex(4, 2)}
    assert Hex(4, 8) in seen[Hex(4, 4)]  # hills of one group do not block units on that group
    assert Hex(4, 8) not in seen[Hex(4, 2)]  # but they block a unit beside them
    assert Hex(4, 10) not in seen[Hex(4, 4)]  # off the group, the hills between block again
    assert Hex(4, 16) not in sight_map(s, rulebook, [Hex(4, 10)])[Hex(4, 10)]  # two contiguous lakes block
    assert Hex(4, 4) in seen[Hex(4, 4)] and Hex(4, 6) in seen[Hex(4, 4)]  # itself and its neighbours


def test_sight_map_refuses_an_origin_off_the_board(rulebook: Rulebook) -> None:
    s = parse_situation({"hexes": [], "units": []}, rulebook)
    with pytest.raises(IllegalSituation) as error:
        sight_map(s, rulebook, [Hex(4, 4), Hex(4, 5)])
    assert error.value.field == "origins[1]"


@pytest.mark.parametrize("kind", list(BOARDS))
def test_tables_hold_exactly_the_traced_lines(kind: str) -> None:
    """Each mask is built by shifting one relative line; it must equal the bits of ``trace``:
    on-board crossed hexes, and edges with at least one side on the board."""
    table = sight_table(kind)
    steps = dict(zip(EDGE_STEPS, table.steps, strict=True))
    seg = table.stride
    for a in table.hexes:
        row = table.masks[a]
        for j, b in enumerate(table.hexes):
            line = trace(a, b)
            expected = table.bits(line.crossed)
            for x, y in line.edges:
                if x in table.index or y in table.index:
                    k = EDGE_STEPS.index((y.row - x.row, y.col - x.col))
                    assert table.idx(y) - table.idx(x) == steps[EDGE_STEPS[k]]
                    expected |= 1 << ((1 + k) * seg + table.idx(x))
            assert row[j] == expected, (a, b)
            assert table.trace(a, b) == line


def test_line_of_sight_never_reuses_another_situations_obstructions(rulebook: Rulebook) -> None:
    """The per-situation bit sets are cached; a new situation (even one given a recycled id)
    must get its own."""
    for _ in range(4):
        forest = parse_situation({"hexes": [{"row": 4, "col": 6, "terrain": "forest"}], "units": []}, rulebook)
        assert not line_of_sight(forest, rulebook, Hex(4, 4), Hex(4, 8)).clear
        del forest
        gc.collect()
        empty = parse_situation({"hexes": [], "units": []}, rulebook)
        assert line_of_sight(empty, rulebook, Hex(4, 4), Hex(4, 8)).clear
        assert Hex(4, 8) in sight_map(empty, rulebook, [Hex(4, 4)])[Hex(4, 4)]
    assert len(_cache) <= 8
