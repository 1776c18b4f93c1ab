"""Exact battle odds (content ``range_and_dice``: the die's faces)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.hits import die_faces
from adjudicator.engine.odds import battle_odds, binomial, joint
from adjudicator.engine.rulebook import Rulebook

FACES = {"infantry": 2, "armor": 1, "grenade": 1, "star": 1, "flag": 1}


def enumerate_rolls(dice: int, faces: dict[str, int], hit: set[str]) -> dict[tuple[int, int], Fraction]:
    """Brute force over every face sequence: the law of (hits, flags)."""
    total = sum(faces.values())
    law: dict[tuple[int, int], Fraction] = {}
    for roll in product(faces, repeat=dice):
        chance = Fraction(1)
        for face in roll:
            chance *= Fraction(faces[face], total)
        key = (sum(f in hit for f in roll), sum(f == "flag" for f in roll))
        law[key] = law.get(key, Fraction(0)) + chance
    return law


def test_die_faces_come_from_range_and_dice(rulebook: Rulebook) -> None:
    faces = die_faces(rulebook)
    assert faces == rulebook.rules["range_and_dice"].die_faces
    assert sum(faces.values()) == 6


def test_two_dice_against_infantry_hit_half_the_time_each() -> None:
    odds = battle_odds(2, FACES, ["infantry", "grenade"], figures=4)
    assert odds.hits == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert odds.expected_hits == 1
    assert odds.flags == (Fraction(25, 36), Fraction(10, 36), Fraction(1, 36))
    assert odds.eliminate == 0


def test_artillery_target_is_hit_only_by_grenades() -> None:
    odds = battle_odds(3, FACES, ["grenade"], figures=2)
    assert odds.hit_chance == Fraction(1, 6)
    assert odds.eliminate == odds.hits[2] + odds.hits[3] == 3 * Fraction(1, 36) * Fraction(5, 6) + Fraction(1, 216)


def test_zero_dice_never_hit() -> None:
    odds = battle_odds(0, FACES, ["armor", "grenade"], figures=3)
    assert odds.hits == (Fraction(1),) and odds.flags == (Fraction(1),) and odds.eliminate == 0


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("hit", [("infantry", "grenade"), ("armor", "grenade", "star"), ("grenade",)])
def test_closed_form_equals_enumerating_every_roll(dice: int, hit: tuple[str, ...]) -> None:
    law = enumerate_rolls(dice, FACES, set(hit))
    odds = battle_odds(dice, FACES, list(hit), figures=2)
    for k in range(dice + 1):
        assert odds.hits[k] == sum((p for (h, _), p in law.items() if h == k), Fraction(0))
        assert odds.flags[k] == sum((p for (_, f), p in law.items() if f == k), Fraction(0))
    total = sum(FACES.values())
    trinomial = joint(dice, odds.hit_chance, Fraction(FACES["flag"], total))
    assert {k: v for k, v in trinomial.items() if v} == law


@given(st.integers(0, 12), st.integers(0, 6), st.integers(1, 6))
def test_probabilities_sum_to_exactly_one(dice: int, hit_faces: int, figures: int) -> None:
    symbols = ["infantry", "armor", "grenade", "star"][: min(hit_faces, 4)]
    odds = battle_odds(dice, FACES, symbols, figures)
    assert sum(odds.hits) == 1
    assert sum(odds.flags) == 1
    assert sum(joint(dice, odds.hit_chance, odds.flag_chance).values()) == 1
    assert odds.expected_hits == sum(k * p for k, p in enumerate(odds.hits))
    assert 0 <= odds.eliminate <= 1


@given(st.integers(0, 20), st.fractions(min_value=0, max_value=1))
def test_binomial_is_a_distribution(n: int, p: Fraction) -> None:
    law = binomial(n, p)
    assert len(law) == n + 1 and sum(law) == 1 and all(x >= 0 for x in law)


def test_json_gives_rounded_floats_and_exact_fractions() -> None:
    out = battle_odds(2, FACES, ["infantry", "grenade"], figures=2).to_dict()
    assert out["hits"] == [0.25, 0.5, 0.25]
    assert out["hits_exact"] == ["1/4", "1/2", "1/4"]
    assert out["flags"] == [0.6944, 0.2778, 0.0278]
    assert out["flags_exact"] == ["25/36", "5/18", "1/36"]
    assert out["eliminate_exact"] == "1/4" and out["expected_hits"] == 1.0
    assert sum(Fraction(x) for x in out["hits_exact"]) == 1


def test_unknown_face_is_refused() -> None:
    with pytest.raises(ValueError, match="no such die face"):
        battle_odds(1, FACES, ["artillery"], figures=1)
