"""The requests whose whole JSON answers ``tests/test_stored_answers.py`` compares with the answers
stored in ``tests/stored_answers.json.gz``: every example of the builder's gallery, and seeded
random battles (with their ``/retreat`` and ``/resolve``) on boards of terrain, obstacles, units of
many kinds and cards. The engine's speed-ups must not change one byte of any of them.

When a change *means* to change answers (new wording, a new field), rewrite the file and read its
diff: ``.venv/bin/python -m tests.stored_answers --write``."""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path
from typing import Any

import yaml

from adjudicator.engine import api
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import parse_situation

HERE = Path(__file__).resolve().parent
STORED = HERE / "stored_answers.json.gz"
EXAMPLES = HERE.parent / "adjudicator" / "examples"
RANDOM_CASES = 200
WORK_BUDGET = 50_000

TERRAINS = ["forest", "town", "hill", "hedgerow", "river", "frozen_river", "marsh", "beach", "mountain",
            "winter_forest", "bunker", "sandbags", "wire", "hedgehog", "ocean", "road", "ford"]
UNITS = ["infantry", "infantry", "armor", "armor", "artillery", "elite_armor", "tank_destroyer", "french_resistance",
         "combat_engineer", "special_forces", "half_track", "anti_tank_gun"]
NATIONS = [None, None, None, "british", "french", "italian", "japanese", "soviet"]
CARDS = [None, None, None, "armor_assault", "their_finest_hour", "close_assault", "ambush", "firefight",
         "infantry_assault", "attack", "behind_enemy_lines", "air_power"]
FACES = ["infantry", "armor", "grenade", "star", "flag"]
COMBAT = [None, None, None, None, "bitter_resistance", "street_combat"]


def gallery() -> list[tuple[str, str, dict[str, Any]]]:
    """(name, endpoint, request) of every example of the gallery."""
    cases = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cases.append((f"example {path.stem}", data["endpoint"], {**data["situation"], **data["request"]}))
    return cases


def random_situation(rnd: random.Random) -> dict[str, Any]:
    """A standard board with a few terrain hexes and 3–8 units of 1 or 2 figures, packed into the
    middle rows so that most battles are in reach (each has something to rule on)."""
    spots = [(r, c) for r in range(2, 8) for c in range(5, 20) if (r + c) % 2 == 0]
    placed = rnd.sample(spots, rnd.randint(3, 8))
    units = []
    for i, (row, col) in enumerate(placed):
        unit: dict[str, Any] = {"id": f"U{i}", "side": "allies" if i % 2 else "axis", "type": rnd.choice(UNITS),
                                "row": row, "col": col, "figures": rnd.randint(1, 2)}
        nation = rnd.choice(NATIONS)
        if nation:
            unit["nation"] = nation
        if rnd.random() < 0.3:
            unit["moved"] = rnd.randint(0, 2)
        units.append(unit)
    hexes = [{"row": r, "col": c, "terrain": rnd.choice(TERRAINS)} for r, c in rnd.sample(spots, rnd.randint(0, 12))]
    return {"board": "standard", "hexes": hexes, "units": units}


def valid_situation(rnd: random.Random, rulebook: Rulebook) -> dict[str, Any]:
    """The first random situation the engine accepts (no unit on a hex it may not stand on)."""
    while True:
        situation = random_situation(rnd)
        try:
            parse_situation(situation, rulebook)
        except IllegalSituation:
            continue
        return situation


def random_cases(rulebook: Rulebook, count: int = RANDOM_CASES) -> list[tuple[str, str, dict[str, Any]]]:
    """Seeded random battles of a unit on an enemy, each also asked as ``/retreat`` of its target
    and ``/resolve`` of a roll."""
    rnd = random.Random("stored-answers-1")
    cases = []
    for n in range(count):
        situation = valid_situation(rnd, rulebook)
        units = situation["units"]
        attacker = rnd.choice(units)
        target = rnd.choice([u for u in units if u["side"] != attacker["side"]])
        request = {**situation, "attacker": attacker["id"], "target": target["id"]}
        for field, choices in (("card", CARDS), ("combat_card", COMBAT)):
            chosen = rnd.choice(choices)
            if chosen:
                request[field] = chosen
        cases.append((f"random {n} battle", "battle", request))
        if n % 3 == 0:
            cases.append((f"random {n} retreat", "retreat", {**situation, "unit": target["id"],
                                                             "flags": rnd.randint(1, 3), "hits": rnd.randint(0, 1)}))
        status, ruling = api.answer("battle", json.loads(json.dumps(request)), rulebook)
        if status == 200 and ruling.get("legal"):
            faces = [rnd.choice(FACES) for _ in range(ruling["dice"])]
            rolled = {face: faces.count(face) for face in set(faces)}
            cases.append((f"random {n} resolve", "resolve", {**request, "rolled": rolled}))
    return cases


def cases(rulebook: Rulebook) -> list[tuple[str, str, dict[str, Any]]]:
    return gallery() + random_cases(rulebook)


def answers(rulebook: Rulebook) -> dict[str, Any]:
    """Every case's (status, answer), through the engine's API function under the default budget."""
    out = {}
    for name, endpoint, request in cases(rulebook):
        status, body = api.answer(endpoint, json.loads(json.dumps(request)), rulebook, WORK_BUDGET)
        out[name] = {"status": status, "answer": body}
    return out


def stored() -> dict[str, Any]:
    with gzip.open(STORED, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite tests/stored_answers.json.gz")
    args = parser.parse_args()
    from adjudicator.content.loader import content_dir, load_catalogue

    found = answers(load_catalogue(content_dir()).rulebook())
    if args.write:
        text = json.dumps(found, sort_keys=True, indent=0, ensure_ascii=False)
        with gzip.GzipFile(STORED, "wb", mtime=0) as f:  # the same answers give the same bytes
            f.write(text.encode("utf-8"))
        statuses = [a["status"] for a in found.values()]
        print(f"{len(found)} answers written ({statuses.count(200)} rulings, {len(statuses) - statuses.count(200)} "
              f"refusals)")


if __name__ == "__main__":
    main()
