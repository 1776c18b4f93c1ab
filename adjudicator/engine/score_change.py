"""What a roll changes on the score: ``/api/v1/resolve`` with a situation that has a ``scenario``.

"Does this roll win the game?" is answered with the roll: the score is counted (``engine.score``)
before the battle, after the roll is applied (the target's figures lost, the unit eliminated and
listed among the casualties, or moved to the end of its retreat when every choice empties its hex),
and, when the attacker may take the emptied hex, after it takes ground. Each medal gained or lost
is said with the rule it comes from; a win says why, and that the game ends at once (core ``medals``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.engine.geometry import Hex
from adjudicator.engine.reasons import Reason
from adjudicator.engine.resolve import Resolution
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.score import MEDALS_ENTRY, SIDE_NAMES, Score, score
from adjudicator.engine.situation import Casualty, Situation, Unit
from adjudicator.engine.wording import hex_ref, say


@dataclass(frozen=True)
class ScoreAfter:
    """The score after one outcome of the battle (``roll``, or ``take_ground`` after it)."""

    after: str
    score: Score
    changes: tuple[Reason, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "medals": dict(self.score.medals), "winner": self.score.winner,
                "game_over": self.score.game_over, "changes": [r.to_dict() for r in self.changes]}


def _after_roll(situation: Situation, res: Resolution) -> tuple[Situation, Unit | None]:
    """The situation once the roll is applied: the target loses its figures (eliminated: off the
    board and among the casualties), or ends its retreat where the fewest figures are lost when
    every choice empties its hex. Also the target as it then stands (None when eliminated)."""
    target = situation.unit(res.ruling.target.id)
    lost = Casualty(target.side, target.type, target.profile, max(res.figures_lost, 1), res.eliminated,
                    target.badges, target.nation)
    casualties = situation.casualties + ((lost,) if res.figures_lost or res.eliminated else ())
    if res.eliminated:
        units = tuple(u for u in situation.units if u.id != target.id)
        return replace(situation, units=units, casualties=casualties), None
    moved = replace(target, figures=target.figures - res.figures_lost, hex=_retreat_end(res, target.hex))
    units = tuple(moved if u.id == target.id else u for u in situation.units)
    return replace(situation, units=units, casualties=casualties), moved


def _retreat_end(res: Resolution, start: Hex) -> Hex:
    if res.vacated != "retreated" or res.retreat is None or not res.retreat.options:
        return start
    best = min(res.retreat.options, key=lambda o: o.figures_lost)
    return best.path[-1] if best.path else best.start


def _changes(before: Score, after: Score, outcome: str, params: dict[str, Any]) -> tuple[Reason, ...]:
    """Each medal source gained or lost between two scores, and a win the change brings, worded for
    the ``outcome`` (``roll`` or ``take_ground``, whose reasons also name the hex taken)."""
    old, new = Counter(before.sources), Counter(after.sources)
    reasons: list[Reason] = []
    for source in (new - old).elements():
        reasons.append(say({"roll": "score.roll_gains", "take_ground": "score.take_ground_gains"}[outcome],
                           source.reason.rule, fact=source.reason.fact, side_name=SIDE_NAMES[source.side],
                           n=source.medals, why=source.reason.text, **params))
    for source in (old - new).elements():
        reasons.append(say({"roll": "score.roll_loses", "take_ground": "score.take_ground_loses"}[outcome],
                           source.reason.rule, fact=source.reason.fact, side_name=SIDE_NAMES[source.side],
                           n=source.medals, why=source.reason.text, **params))
    if after.winner is not None and before.winner != after.winner and after.decided_by is not None:
        decided = after.decided_by
        reasons.append(say({"roll": "score.roll_wins", "take_ground": "score.take_ground_wins"}[outcome],
                           decided.rule, fact=decided.fact, why=decided.text, **params))
        if after.game_over and any(n.code == "score.ends_at_once" for n in after.notes):
            reasons.append(say("score.ends_at_once", MEDALS_ENTRY, fact="game_ends_at_once"))
    return tuple(reasons)


def roll_on_score(situation: Situation, rulebook: Rulebook, res: Resolution, side: str) -> dict[str, Any] | None:
    """The ``score`` part of a ``/resolve`` answer (None without a scenario): the score before, after
    the roll and, when the attacker may take ground into the emptied hex, after that. ``side`` is the
    side whose turn it is (the attacker's)."""
    if situation.scenario is None:
        return None
    before = score(situation, rulebook, "now", side)
    rolled, target = _after_roll(situation, res)
    after = score(rolled, rulebook, "now", side)
    outcomes = [ScoreAfter("roll", after, _changes(before, after, "roll", {}))]
    attacker = res.ruling.attacker if hasattr(res.ruling, "attacker") else None
    emptied = target is None or target.hex != res.ruling.target.hex
    if res.take_ground and attacker is not None and emptied and not after.game_over:  # a won game ends at once
        mover = rolled.unit(attacker.id)
        into = res.ruling.target.hex
        advanced = replace(rolled, units=tuple(replace(u, hex=into) if u.id == mover.id else u for u in rolled.units))
        taken = score(advanced, rulebook, "now", side)
        outcomes.append(ScoreAfter("take_ground", taken, _changes(
            after, taken, "take_ground", {"at": hex_ref(situation.board, into)})))
    return {"before": {"medals": dict(before.medals), "needed": dict(before.needed), "winner": before.winner},
            "outcomes": [o.to_dict() for o in outcomes]}


def roll_steps(answer: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The changes the roll itself makes, to close the resolution's ``steps``."""
    if not answer:
        return []
    return [c for o in answer["outcomes"] if o["after"] == "roll" for c in o["changes"]]
