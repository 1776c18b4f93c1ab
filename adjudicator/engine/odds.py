"""Exact battle odds from the dice count and the faces that score (content ``range_and_dice``).

Everything is a ``fractions.Fraction``: each die is independent, so hits and flags follow
binomial laws (and their joint law a trinomial one), computed in closed form, never sampled.
Serialised answers carry both rounded floats (for display) and the exact fractions as strings
(for referees and tests: they sum to exactly 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb
from typing import Any

FLAG_FACE = "flag"
"""The die face that makes the target retreat (never a hit)."""
LAWS_KEPT = 512
"""Laws remembered per process (each a few fractions): a roll's law depends only on the dice, the
chances and the figures, and a few dozen of them cover nearly every battle, so each is worked
out once, not once per request."""


@lru_cache(maxsize=LAWS_KEPT)
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes) for k = 0..n of n independent trials of chance ``p``."""
    if n < 0:
        raise ValueError("a negative number of dice")
    q = 1 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def joint(n: int, p_hit: Fraction, p_flag: Fraction) -> dict[tuple[int, int], Fraction]:
    """P(h hits and f flags) for n dice: the trinomial law (a die is a hit, a flag, or neither)."""
    return dict(_joint(n, p_hit, p_flag))


@lru_cache(maxsize=LAWS_KEPT)
def _joint(n: int, p_hit: Fraction, p_flag: Fraction) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    p_other = 1 - p_hit - p_flag
    if p_other < 0:
        raise ValueError("hit and flag chances exceed 1")
    out: dict[tuple[int, int], Fraction] = {}
    for h in range(n + 1):
        for f in range(n - h + 1):
            ways = comb(n, h) * comb(n - h, f)
            out[(h, f)] = ways * p_hit**h * p_flag**f * p_other ** (n - h - f)
    return tuple(out.items())


@dataclass(frozen=True)
class Odds:
    """The exact outcome laws of one roll of ``dice`` battle dice."""

    dice: int
    hit_chance: Fraction  # of one die
    flag_chance: Fraction  # of one die
    hits: tuple[Fraction, ...]  # P(k hits), k = 0..dice
    flags: tuple[Fraction, ...]  # P(k flags), k = 0..dice
    expected_hits: Fraction
    expected_flags: Fraction
    eliminate: Fraction  # P(hits >= the target's figures)
    figures: int

    def to_dict(self) -> dict[str, Any]:
        """Floats rounded to 4 decimals for display, plus exact fractions as ``"n/d"`` strings
        (a new dict and new lists each time: an answer may add to its copy)."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self._written.items()}

    @cached_property
    def _written(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "hit_chance_per_die": round(float(self.hit_chance), 4),
            "hit_chance_per_die_exact": exact(self.hit_chance),
            "flag_chance_per_die": round(float(self.flag_chance), 4),
            "flag_chance_per_die_exact": exact(self.flag_chance),
            "hits": [round(float(p), 4) for p in self.hits],
            "hits_exact": [exact(p) for p in self.hits],
            "expected_hits": round(float(self.expected_hits), 4),
            "expected_hits_exact": exact(self.expected_hits),
            "eliminate": round(float(self.eliminate), 4),
            "eliminate_exact": exact(self.eliminate),
            "target_figures": self.figures,
            "flags": [round(float(p), 4) for p in self.flags],
            "flags_exact": [exact(p) for p in self.flags],
            "expected_flags": round(float(self.expected_flags), 4),
            "expected_flags_exact": exact(self.expected_flags),
        }


def battle_odds(dice: int, faces: Mapping[str, int], hit_symbols: Sequence[str], figures: int) -> Odds:
    """Odds for ``dice`` dice whose faces (name -> how many of the six) are ``faces``.

    ``hit_symbols`` are the faces that score a hit on this target; ``figures`` its current
    figures, for the chance to eliminate it outright. The same numbers give the same (frozen)
    ``Odds``, worked out once per process."""
    return _battle_odds(dice, tuple(faces.items()), tuple(hit_symbols), figures)


@lru_cache(maxsize=LAWS_KEPT)
def _battle_odds(dice: int, face_counts: tuple[tuple[str, int], ...], hit_symbols: tuple[str, ...],
                 figures: int) -> Odds:
    faces = dict(face_counts)
    total = sum(faces.values())
    if total <= 0:
        raise ValueError("a die needs faces")
    unknown = [s for s in hit_symbols if s not in faces]
    if unknown:
        raise ValueError(f"no such die face: {unknown}")
    dice = max(0, dice)
    p_hit = Fraction(sum(faces[s] for s in set(hit_symbols)), total)
    p_flag = Fraction(0 if FLAG_FACE in hit_symbols else faces.get(FLAG_FACE, 0), total)
    hits = binomial(dice, p_hit)
    return Odds(
        dice=dice,
        hit_chance=p_hit,
        flag_chance=p_flag,
        hits=hits,
        flags=binomial(dice, p_flag),
        expected_hits=dice * p_hit,
        expected_flags=dice * p_flag,
        eliminate=sum(hits[max(0, figures):], Fraction(0)),
        figures=figures,
    )


def exact(value: Fraction) -> str:
    """A probability as the exact fraction ``"n/d"`` answers carry beside the rounded float."""
    return f"{value.numerator}/{value.denominator}"
