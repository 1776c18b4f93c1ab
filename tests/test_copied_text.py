"""Own words: no entry repeats a run of 12 or more words of a seed document (project principle
"own words"). Tables of numbers are excepted: "infantry 3 2 1" is the same in every source.

The seeds live outside the repository (``../shared/seeds``); where they are absent the test says
so in its skip reason rather than passing silently."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.content.loader import Catalogue

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
RUN = 12  # words in a row that count as copying
WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """Lower-cased words, Markdown emphasis and punctuation dropped, so bold text cannot hide a copy."""
    return WORD.findall(text.lower().replace("\u2019", "'"))


def shared_runs(text: str, grams: set[tuple[str, ...]]) -> list[str]:
    """Maximal runs of ``RUN``+ words of ``text`` that also occur in a seed, except runs that are
    mostly numbers (a dice table)."""
    ws, runs, i = words(text), [], 0
    while i <= len(ws) - RUN:
        if tuple(ws[i:i + RUN]) not in grams:
            i += 1
            continue
        j = i + RUN
        while j < len(ws) and tuple(ws[j - RUN + 1:j + 1]) in grams:
            j += 1
        run = ws[i:j]
        if sum(w.isdigit() for w in run) * 2 < len(run):
            runs.append(" ".join(run))
        i = j
    return runs


def seed_grams() -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("*.txt")):
        ws = words(path.read_text(encoding="utf-8", errors="replace"))
        grams.update(tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1))
    return grams


def test_the_detector_finds_a_copied_run_and_spares_number_tables() -> None:
    grams = {tuple(words("a b c d e f g h i j k l m n"))[i:i + RUN] for i in range(3)}
    assert shared_runs("x y A b c d e f g h i j k l m z", grams) == ["a b c d e f g h i j k l m"]
    numbers = tuple(words("armor 3 3 3 artillery 3 3 2 2 1 1 1"))
    assert shared_runs("armor 3 3 3 artillery 3 3 2 2 1 1 1", {numbers}) == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"seed documents not found at {SEEDS}: copied-text check not run")
def test_no_entry_copies_twelve_words_of_a_seed(catalogue: Catalogue) -> None:
    grams = seed_grams()
    assert grams, f"no seed text read from {SEEDS}"
    copied = [
        f"{entry.path}: {run}"
        for entry in catalogue.entries.values()
        for run in shared_runs(f"{entry.meta.summary}\n{entry.body}", grams)
    ]
    assert copied == [], "runs of 12+ words copied from a seed:\n" + "\n".join(copied)
