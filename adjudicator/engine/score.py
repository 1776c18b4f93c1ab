"""The score: each side's medals with the rule each comes from, what each side needs, the winner.

Pure: a ``Situation`` (its ``scenario``, ``casualties`` and ``exited``) and the ``Rulebook`` in, a
``Score`` out. Every number comes from the content:

- core ``medals``: the count without a scenario (``medals_to_win``), whether the game ends the
  moment a side has its medals (``game_ends_at_once``) and who wins when both sides get there at
  once (``simultaneous_reach_winner``);
- unit entries: medals an eliminated unit gives (``medals_when_eliminated``: none for a Sniper) and
  destroyed figures counted a few to a medal (``figures_per_medal``: Half-Tracks, Supply Trucks);
- victory entries: how an objective is held (``control``), whether it is kept (``temporary``,
  ``kept_until_enemy_occupies``), when it is checked (``turn_start``), whether either side may
  gain it (``either_side``) and whether it ends the game (``ends_game``, sudden death);
- the exit marker: what a unit leaving the board is worth (``medals_per_exit``) unless the
  scenario says otherwise.

``when`` names the moment counted: ``now`` (objectives that count at any moment, plus what
``held_by`` records), ``turn_start`` (also the turn-start objectives, checked for ``side``) or
``turn_end`` (no content entry is checked only then: as ``now``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.reasons import SIDE_ADJECTIVES, HexRef, Reason
from adjudicator.engine.rulebook import CoreRules, Rulebook, VictoryRules
from adjudicator.engine.situation import (
    SIDES,
    UNIT_CLASSES,
    Casualty,
    ExitedUnit,
    Objective,
    Situation,
    objective_group,
    victory_rules,
)
from adjudicator.engine.wording import entry_ref, hex_ref, say

When = Literal["now", "turn_start", "turn_end"]
WHEN: tuple[When, ...] = ("now", "turn_start", "turn_end")
MEDALS_ENTRY = "medals"
"""The core entry of the medal count (``content/core/medals.md``)."""
ARMIES = {"allies": "The Allies", "axis": "The Axis"}
"""How a sentence that starts with a side names it."""
SIDE_NAMES = {"allies": "the Allies", "axis": "the Axis"}
"""How a side is named within a sentence."""


@dataclass(frozen=True)
class MedalSource:
    """Medals one side has from one cause, with the reason that gives them."""

    side: str
    medals: int
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "medals": self.medals, **self.reason.to_dict()}


@dataclass(frozen=True)
class ObjectiveState:
    """One objective (a hex, or a group of hexes counted together) as things stand."""

    kind: str
    hexes: tuple[HexRef, ...]  # as a player names them: every answer shows them, none computes with them
    side: str | None
    group: str | None
    medals: int
    hexes_needed: int  # hexes the holder needs (after the entry's default and the scenario's number)
    occupied: Mapping[str, int]  # side -> hexes of the objective it has a unit on
    holder: str | None  # the side that has its medal now
    held_by: str | None  # what the objectives' ``held_by`` becomes: the side that keeps it from here on

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "side": self.side, "group": self.group, "medals": self.medals,
            "hexes": [h.to_dict() for h in self.hexes],
            "hexes_needed": self.hexes_needed, "occupied": dict(self.occupied),
            "holder": self.holder, "held_by": self.held_by,
        }


@dataclass(frozen=True)
class Score:
    medals: Mapping[str, int]
    needed: Mapping[str, int]
    winner: str | None
    game_over: bool
    decided_by: Reason | None  # why ``winner`` won (medal count, sudden death, the turn's side)
    sources: tuple[MedalSource, ...]
    notes: tuple[Reason, ...]
    objectives: tuple[ObjectiveState, ...]
    when: When
    side: str | None

    def source_total(self, side: str) -> int:
        return sum(s.medals for s in self.sources if s.side == side)


def other(side: str) -> str:
    return "axis" if side == "allies" else "allies"


def medal_rules(rulebook: Rulebook) -> CoreRules:
    """The core ``medals`` entry: the engine cannot count a score without it."""
    rules = rulebook.core(MEDALS_ENTRY)
    if rules is None or rules.medals_to_win is None:
        raise IllegalSituation("scenario", "the content has no medal count (core entry `medals`)")
    return rules


def _unit_name(side: str, profile: str, rulebook: Rulebook) -> str:
    """"Axis Half-Track": a unit off the board, named by its side and the entry whose rules apply."""
    return f"{SIDE_ADJECTIVES.get(side, side)} {rulebook.names.get(profile, profile)}"


def score(situation: Situation, rulebook: Rulebook, when: When = "now", side: str | None = None,
          given: Mapping[str, int] | None = None) -> Score:
    """Count both sides' medals as things stand at ``when`` (``side``: whose turn it is)."""
    core = medal_rules(rulebook)
    default_count = core.medals_to_win
    assert default_count is not None
    counts = situation.scenario.medals_to_win if situation.scenario else {}
    needed = {s: counts.get(s, default_count) for s in SIDES}
    notes: list[Reason] = []
    if any(s not in counts for s in SIDES):
        notes.append(say("score.usual_count", MEDALS_ENTRY, fact="medals_to_win", n=default_count))
    sources: list[MedalSource] = []
    for s in SIDES:
        if given and given.get(s):
            sources.append(MedalSource(s, given[s], say("score.given", MEDALS_ENTRY, army=ARMIES[s], n=given[s])))
    sources += _casualty_medals(situation.casualties, rulebook, notes)
    sources += _exit_medals(situation, rulebook)
    states, sudden = _objectives(situation, rulebook, when, side, sources, notes)
    if when == "turn_end":
        notes.append(say("score.nothing_at_turn_end", MEDALS_ENTRY))
    medals = {s: sum(m.medals for m in sources if m.side == s) for s in SIDES}
    winner, decided_by = _winner(medals, needed, sudden, side, core, notes)
    game_over = winner is not None and (core.game_ends_at_once or when == "turn_end" or sudden is not None)
    if winner is not None and game_over and core.game_ends_at_once:
        notes.append(say("score.ends_at_once", MEDALS_ENTRY, fact="game_ends_at_once"))
    elif winner is not None and not game_over:
        notes.append(say("score.ends_at_turn_end", MEDALS_ENTRY, fact="game_ends_at_once", army=ARMIES[winner]))
    return Score(medals, needed, winner, game_over, decided_by, tuple(sources), tuple(notes), states, when, side)


def _casualty_medals(casualties: tuple[Casualty, ...], rulebook: Rulebook, notes: list[Reason]) -> list[MedalSource]:
    """A medal per eliminated unit (core ``medals``), but none for units whose entry gives none
    (``medals_when_eliminated``), and destroyed figures a few to a medal for those counted so
    (``figures_per_medal``: every figure lost counts, eliminated or not, each entry on its own stand)."""
    found: list[MedalSource] = []
    stands: dict[tuple[str, str], int] = {}
    for casualty in casualties:
        rules = rulebook.unit(casualty.profile)
        gainer = other(casualty.side)
        name = _unit_name(casualty.side, casualty.profile, rulebook)
        entry = entry_ref(rulebook, casualty.profile)
        if rules.figures_per_medal:
            key = (casualty.side, casualty.profile)
            stands[key] = stands.get(key, 0) + casualty.figures
        elif casualty.eliminated and rules.medals_when_eliminated > 0:
            rule, fact = ((MEDALS_ENTRY, None) if rules.medals_when_eliminated == 1
                          else (casualty.profile, "medals_when_eliminated"))
            found.append(MedalSource(gainer, rules.medals_when_eliminated, say(
                "score.unit_eliminated", rule, fact=fact, unit_name=name, type=entry, side=casualty.side,
                n=rules.medals_when_eliminated)))
        elif casualty.eliminated:
            notes.append(say("score.no_medal", casualty.profile, fact="medals_when_eliminated", unit_name=name,
                             type=entry, side=casualty.side))
        if casualty.eliminated:
            for badge in casualty.badges:
                if badge == HEROIC_LEADER:
                    notes.append(say("score.heroic_leader", badge, unit_name=name, side=casualty.side))
    for (side, profile), figures in stands.items():
        per = rulebook.unit(profile).figures_per_medal
        assert per
        name = _unit_name(side, profile, rulebook)
        entry = entry_ref(rulebook, profile)
        if figures >= per:
            found.append(MedalSource(other(side), figures // per, say(
                "score.figures_to_medals", profile, fact="figures_per_medal", unit_name=name, type=entry, side=side,
                figures=figures - figures % per, per=per, n=figures // per)))
        if figures % per:
            notes.append(say("score.figures_on_stand", profile, fact="figures_per_medal", unit_name=name, type=entry,
                             side=side, figures=figures % per, more=per - figures % per))
    return found


HEROIC_LEADER = "heroic_leader"
"""The badge whose medal needs a roll the situation does not hold (Game help summary, Heroic Leader)."""


def exit_marker(rulebook: Rulebook) -> tuple[str, int]:
    """The marker entry that makes a hex an exit, and what one exiting unit is worth by default."""
    for entry_id in rulebook.ids_of_kind("marker"):
        rules = rulebook.marker(entry_id)
        if rules is not None and rules.medals_per_exit is not None:
            return entry_id, rules.medals_per_exit
    raise IllegalSituation("exited", "the content has no exit marker (a marker with `medals_per_exit`)")


def _exit_medals(situation: Situation, rulebook: Rulebook) -> list[MedalSource]:
    """One figure of each unit that left by an exit goes on its side's Victory track (``exit_marker``),
    or what the scenario says a unit of its class is worth there."""
    if not situation.exited:
        return []
    marker, default = exit_marker(rulebook)
    exits = {(e.hex, e.side): e for e in situation.scenario.exits} if situation.scenario else {}
    found = []
    for unit in situation.exited:
        exit_hex = exits[(unit.at, unit.side)]
        worth, fact = _exit_worth(unit, exit_hex.medals, exit_hex.medals_by_unit, default, rulebook)
        if worth:
            found.append(MedalSource(unit.side, worth, say(
                "score.exited", marker, fact=fact, unit_name=_unit_name(unit.side, unit.profile, rulebook),
                type=entry_ref(rulebook, unit.profile), side=unit.side, at=hex_ref(situation.board, unit.at), n=worth)))
    return found


def _exit_worth(unit: ExitedUnit, flat: int | None, by_unit: Mapping[str, int], default: int,
                rulebook: Rulebook) -> tuple[int, str | None]:
    """(medals, the marker's fact when its own count applies): the scenario's number for the unit's
    entry, its type, the entry it is based on or its class, in that order; else the scenario's flat
    number; else the exit marker's ``medals_per_exit``."""
    unit_class = rulebook.unit(unit.profile).unit_class
    for key in (unit.profile, unit.type, rulebook.bases.get(unit.profile), unit_class):
        if key is not None and key in by_unit:
            return by_unit[key], None
    if flat is not None:
        return flat, None
    return default, "medals_per_exit"


# -- objectives -----------------------------------------------------------------------------------

def _objectives(situation: Situation, rulebook: Rulebook, when: When, side: str | None,
                sources: list[MedalSource], notes: list[Reason]) -> tuple[tuple[ObjectiveState, ...], str | None]:
    """Each objective's holder (adding its medals to ``sources``) and the side a sudden death
    objective makes the winner, if any."""
    if situation.scenario is None:
        return (), None
    groups: dict[tuple[str, ...], list[Objective]] = {}
    for i, objective in enumerate(situation.scenario.objectives):
        groups.setdefault(objective_group(objective, i, rulebook), []).append(objective)
    states: list[ObjectiveState] = []
    sudden: str | None = None
    for members in groups.values():
        lead = members[0]
        rules = victory_rules(rulebook, lead.kind)
        hexes = tuple(o.hex for o in members)
        occupied = {s: sum(1 for h in hexes if (u := situation.unit_at(h)) is not None and u.side == s)
                    for s in SIDES}
        needed = _hexes_needed(rules, len(hexes), lead.hexes_needed)
        meeting = [s for s in SIDES if _meets(rules, lead, s, occupied, needed)]
        refs = tuple(hex_ref(situation.board, h) for h in hexes)
        if rules.ends_game:
            if meeting and sudden is None:
                sudden = side if side in meeting else meeting[0]
                notes.append(say("score.sudden_death", lead.kind, fact="ends_game", army=ARMIES[sudden],
                                 objective=entry_ref(rulebook, lead.kind), hexes=refs, count=occupied[sudden]))
            states.append(ObjectiveState(lead.kind, refs, lead.side, lead.group, lead.medals, needed, occupied,
                                         sudden if meeting else None, None))
            continue
        holder, held_by, how, fact = _holder(rules, lead, meeting, when, side)
        named = entry_ref(rulebook, lead.kind)
        if holder is not None:
            sources.append(MedalSource(holder, lead.medals, say(
                {"held": "score.objective_held", "gained": "score.objective_gained", "kept": "score.objective_kept",
                 "turn_start": "score.objective_turn_start"}[how],
                lead.kind, fact=fact, army=ARMIES[holder], objective=named, hexes=refs)))
        elif rules.turn_start and when != "turn_start" and meeting:
            notes.append(say("score.checked_at_turn_start", lead.kind, fact="turn_start", objective=named,
                             hexes=refs))
        else:
            notes.append(say("score.objective_open", lead.kind, fact="control", objective=named, hexes=refs,
                             needed=needed))
        states.append(ObjectiveState(lead.kind, refs, lead.side, lead.group, lead.medals, needed, occupied,
                                     holder, held_by))
    return tuple(states), sudden


def _hexes_needed(rules: VictoryRules, size: int, given: int | None) -> int:
    """Hexes of the objective the holder needs: all of them unless the scenario gives a number;
    an absolute majority is more than half (the scenario's number when it asks for more); sole
    control needs one."""
    if rules.control == "absolute_majority":
        return max(size // 2 + 1, given or 0)
    if rules.control == "sole_control":
        return max(1, given or 1)
    return given or size


def _meets(rules: VictoryRules, objective: Objective, side: str, occupied: Mapping[str, int], needed: int) -> bool:
    """Whether ``side`` meets the objective's condition now (``control``), if it may gain it."""
    if objective.side not in (None, side) and not rules.either_side:
        return False  # a last-to-occupy hex is either side's whatever colour the scenario gives it
    if occupied[side] < needed:
        return False
    return rules.control != "sole_control" or occupied[other(side)] == 0


HOW = ("held", "gained", "kept", "turn_start")
"""How a holder has an objective's medal: standing there now, gained for good, kept after leaving
(last to occupy), held through the turn since its start."""


def _holder(rules: VictoryRules, lead: Objective, meeting: list[str], when: When,
            side: str | None) -> tuple[str | None, str | None, str, str]:
    """(holder now, ``held_by`` to carry into the next situation, how it holds it (``HOW``), the
    field of the victory entry that decides it)."""
    alone = meeting[0] if len(meeting) == 1 else None
    if rules.turn_start:
        holder = lead.held_by
        checked = when == "turn_start" and side is not None
        if checked and side in meeting:
            holder = side
        elif checked and rules.temporary and holder == side:
            holder = None  # its turn starts without the condition: the medal goes back into play
        return holder, holder, "turn_start" if rules.temporary else "gained", "turn_start"
    if rules.temporary is False:  # gained for good the moment the condition is met
        holder = lead.held_by or alone
        return holder, holder, "gained", "temporary"
    if rules.kept_until_enemy_occupies:
        if alone is not None:
            return alone, alone, "held", "kept_until_enemy_occupies"
        return lead.held_by, lead.held_by, "kept", "kept_until_enemy_occupies"
    holder = alone if alone is not None else (lead.held_by if lead.held_by in meeting else None)
    return holder, None, "held", "control"


def _winner(medals: Mapping[str, int], needed: Mapping[str, int], sudden: str | None, side: str | None,
            core: CoreRules, notes: list[Reason]) -> tuple[str | None, Reason | None]:
    """The side that won and why: sudden death first, then the medal count; both at their count at
    once goes to the side whose turn it is (``simultaneous_reach_winner``), or to nobody without ``side``."""
    if sudden is not None:
        return sudden, say("score.won_sudden_death", "sudden_death", fact="ends_game", army=ARMIES[sudden])
    reached = [s for s in SIDES if medals[s] >= needed[s]]
    if len(reached) == 1:
        s = reached[0]
        return s, say("score.won", MEDALS_ENTRY, army=ARMIES[s], n=medals[s], needed=needed[s])
    if len(reached) == 2:
        if core.simultaneous_reach_winner == "side_in_turn" and side in SIDES:
            assert side is not None
            return side, say("score.won_both_at_count", MEDALS_ENTRY, fact="simultaneous_reach_winner",
                             army=ARMIES[side])
        notes.append(say("score.both_at_count", MEDALS_ENTRY, fact="simultaneous_reach_winner"))
    return None, None


def score_json(situation: Situation, result: Score) -> dict[str, Any]:
    """The ``/api/v1/score`` answer (adjudicator/API.md)."""
    return {
        "medals": dict(result.medals),
        "needed": dict(result.needed),
        "winner": result.winner,
        "game_over": result.game_over,
        "decided_by": result.decided_by.to_dict() if result.decided_by else None,
        "when": result.when,
        "side": result.side,
        "sources": [s.to_dict() for s in result.sources],
        "notes": [n.to_dict() for n in result.notes],
        "objectives": [o.to_dict() for o in result.objectives],
    }


__all__ = ["MEDALS_ENTRY", "UNIT_CLASSES", "WHEN", "MedalSource", "ObjectiveState", "Score", "When", "score",
           "score_json"]
