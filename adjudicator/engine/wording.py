"""The engine's sentences: one English template per reason code, and how parameters are written.

A reason is made with ``say(code, rule, **params)``: the template ``MESSAGES[code]`` is filled
with the parameters, so the text and the ``code``/``params`` a client reads can never disagree,
and a client that words reasons itself (another language, a shorter label) needs only this
table. Codes are stable: a new sentence shape gets a new code; a reworded template keeps its code
when it says the same thing with the same parameters.

Template fields are ``str.format`` fields with two additions:

- ``{n:die|dice}`` writes a count with its noun, singular or plural ("1 die", "3 dice"); the
  count ``"all"`` is written "all dice";
- a tuple parameter is written as a list ("forest, hill and town"); ``{xs:or}`` joins with "or".

Units are written by ``UnitRef`` ("Axis Armor at D7"), hexes by ``HexRef`` ("D7"), content
entries by ``EntryRef`` (their name: "Forest")."""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.engine.geometry import Board, Hex
from adjudicator.engine.reasons import EntryRef, HexRef, Params, ParamValue, Reason, UnitRef
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, Unit

MESSAGES: dict[str, str] = {
    # Codes are "<area>.<what>". Keep them sorted within an area; tests/test_wording.py checks
    # that every code the engine uses is here and every field of a template is given.
    # -- entry: may this unit enter this hex (engine.entry), for a move, a retreat or take ground
    "entry.adjacent_only": "{terrain} at {hex} may be entered only by a unit that starts its move next to it",
    "entry.climbed_no_take_ground": "{unit} moved up onto {terrain} this turn: it had to stop and may move no "
                                    "further, so it may not take ground",
    "entry.beach_climb_down": "{unit} may not move down from {terrain} onto the beach at {hex}",
    "entry.beach_climb_up": "{unit} may not move up onto {terrain} at {hex} from the beach",
    "entry.from_plateau_only": "{terrain} at {hex} may be entered only from {groups:or}; {frm} is not",
    "entry.impassable": "{terrain} at {hex} is impassable to {unit_class}",
    "entry.leave_plateau_only": "A unit leaving {terrain} at {frm} may go only to {groups:or}; {hex} is not",
    "entry.moves_only_on": "{unit} moves only on {terrains:or}; {hex} is not",
    "entry.no_move_between": "{unit} may not move between {terrains:or} and {others:or}: not from {frm} to {hex}",
    "entry.no_entry_from": "{terrain} at {hex} may not be entered from {terrains:or}",
    "entry.no_retreat_onto": "No unit may retreat onto {terrain} at {hex}",
    "entry.no_take_ground": "{unit} may not take ground into {terrain} at {hex}",
    "entry.occupied": "{hex} holds {occupant}: no unit enters or passes through a hex another unit holds",
    "entry.off_board": "From {frm} a retreat step toward the baseline would leave the board",
    "entry.scenario_impassable": "The scenario declares {hex} impassable: no unit may enter it",
    "entry.started_next_to": "{terrain} at {hex}: {unit} started its move at {start}, next to it, so it may take "
                             "ground into it",
    "entry.started_next_to_assumed": "{terrain} at {hex}: {unit} could have started its move at {start}, next to it, "
                                     "so it may take ground into it (the most favourable of its legal ways; give "
                                     "its path to rule on another)",
    "entry.stopped_may_take_ground": "{unit} entered {terrain} this turn and had to stop there, but it may still "
                                     "take ground from it",
    "entry.stopped_no_take_ground": "{unit} entered {terrain} this turn: it had to stop and may move no further, so "
                                    "it may not take ground",
    "entry.take_ground_from": "{unit} may not take ground into {terrain} from {terrains:or}",
    "entry.take_ground_no_way_next_to": "{unit} may take ground into {terrain} at {hex} only if it started its move "
                                        "next to it; none of its {ways} legal ways to its hex did",
    "entry.take_ground_start_unknown": "{unit} may take ground into {terrain} at {hex} only if it started its move "
                                       "next to it; it moved {moved:hex|hexes} from a hex the situation does not "
                                       "give (give its moved_from or path)",
    "entry.take_ground_started_away": "{unit} may take ground into {terrain} at {hex} only if it started its move "
                                      "next to it; it started at {start}",
    "entry.unmoved_may_take_ground": "{terrain} at {hex}: {unit} did not move this turn, so it may take ground into it",
    # -- move: where a unit may move and whether it may still battle (engine.movement); each
    # move.beyond_* is a stop's sentence after the hex it keeps the unit from
    "move.already_there": "The unit already stands there: an ordered unit need not move",
    "move.battle_out": "Battling out of {terrain}: -{n:die|dice}",
    "move.battles_after_entering_any": "{unit} may battle on the turn it enters {terrain}",
    "move.beach_climb_down": "Moving down from {terrain} onto the beach counts as {n:hex|hexes}",
    "move.beach_climb_up": "Moving up onto {terrain} from the beach counts as {n:hex|hexes}",
    "move.beyond_marker_must_stop": "The way to {hex} goes through {at}, where a unit with {marker} must stop",
    "move.beyond_must_stop": "The way to {hex} goes through {terrain}, and a unit entering it must stop and may move "
                             "no further",
    "move.beyond_must_stop_climbing": "The way to {hex} climbs onto {terrain}, and a unit moving up onto it must "
                                      "stop there",
    "move.beyond_must_stop_leaving": "The way to {hex} leaves {terrain}, and a unit leaving it may move only to an "
                                     "adjacent hex",
    "move.cannot_battle_in": "{unit} cannot battle while in {terrain}",
    "move.card_lifts_terrain": "{card}: terrain movement restrictions do not apply to this move; impassable hexes, "
                               "other units and terrain battle restrictions still do",
    "move.card_move_after_battle": "{card}: after its battle the unit may move up to {n:hex|hexes} again, without "
                                   "battling",
    "move.card_no_move": "The units {card} orders battle where they stand: they may not move",
    "move.card_no_move_after_battle": "{card} gives no move after the battle",
    "move.card_not_ordered_after_battle": "{card} does not order {unit}, so it gives it no move after battling",
    "move.cannot_clear": "{unit} may not remove {terrain}",
    "move.cleared_and_battle": "{unit} entering {terrain} removes it and may still battle",
    "move.made_assumed": "{unit} could have moved {n:hex|hexes} from {frm} in {ways} legal ways; the ruling takes "
                         "the one most favourable to it, {path} (give its path to rule on another)",
    "move.made_assumed_start": "{unit} moved {n:hex|hexes} from a hex the situation does not give; of its {ways} "
                               "legal ways the ruling takes the one most favourable to it, {path} (give its "
                               "moved_from or path to rule on another)",
    "move.made_no_way": "No legal move of {n:hex|hexes} by {unit} ends on {hex} ({why}); the ruling counts the "
                        "hexes as given",
    "move.made_only_way": "{unit} has one legal way to have moved {n:hex|hexes} from {frm}: {path}; the ruling "
                          "counts that move",
    "move.climb": "Moving up onto {terrain} from lower ground counts as {n:hex|hexes}",
    "move.climb_too_far": "Moving onto {terrain} counts as {climb:hex|hexes}: that makes {cost:hex|hexes}, more than "
                          "the {limit:hex|hexes} it may move",
    "move.climb_uses_all": "The way through {via} uses the whole {n:hex|hexes}: moving onto {terrain} counts as "
                           "{climb:hex|hexes}",
    "move.close_assault_move": "{nation}: it may move {n:hex|hexes} and still close-assault an adjacent enemy",
    "move.entered_moving_little": "It entered {terrain} moving only {cost:hex|hexes}, so it may still battle",
    "move.entry_risk": "Moving onto {terrain}: roll {rolls:die|dice}, {per:figure|figures} lost for each {faces:or}",
    "move.marker_must_stop": "A unit with {marker} entering {at} must stop there",
    "move.may_battle": "{unit} may move {limit:hex|hexes} and battle ({entry})",
    "move.may_battle_road": "{unit} may move {limit:hex|hexes} and battle, road bonus included ({entry})",
    "move.may_clear_and_battle": "{unit} may remove the {terrain} and still battle",
    "move.may_clear_instead": "{unit} may remove the {terrain} instead of battling",
    "move.must_clear": "{unit} on {terrain} must clear it instead of battling (if it cannot, it goes off)",
    "move.must_stop": "A unit entering {terrain} must stop and may move no further",
    "move.must_stop_climbing": "A unit moving up onto {terrain} must stop there",
    "move.must_stop_leaving": "A unit leaving {terrain} may move only to an adjacent hex",
    "move.never_battles": "{unit} never battles",
    "move.never_moves": "{unit} does not move on the board",
    "move.no_battle_after_entering": "A unit entering {terrain} may not battle that turn",
    "move.no_battle_after_entering_far": "A unit entering {terrain} may not battle that turn unless it moved at most "
                                         "{n:hex|hexes}",
    "move.no_battle_after_leaving": "{unit} left {terrain}: {unit_class} leaving it may not battle that turn",
    "move.no_battle_this_move": "{unit} may not battle after this move ({entry})",
    "move.no_move_and_battle": "{unit} may not move and battle in the same turn ({entry}); this move is "
                               "{cost:hex|hexes}",
    "move.no_way": "No legal way to {hex} within {n:hex|hexes}: every way is blocked, ends on a must-stop hex or "
                   "costs more than the unit may move",
    "move.once_a_turn": "A unit moves once a turn; only a card such as Behind Enemy Lines moves it again after its "
                        "battle",
    "move.over_cap": "The move may total at most {cap:hex|hexes}; this way it would be {cost:hex|hexes}",
    "move.over_terrain_cap": "A move onto {terrain} may total at most {cap:hex|hexes}; this way it would be "
                             "{cost:hex|hexes}",
    "move.revealed": "Entering {terrain}: if the enemy laid it, turn it over and roll its strength in dice",
    "move.road_bonus": "Starting on a road, following it and ending on it: {n:hex|hexes} more",
    "move.road_max": "{entry}: a move wholly on road may reach {n:hex|hexes}",
    "move.too_far": "{hex} is {distance:hex|hexes} away, farther than it may move ({n:hex|hexes})",
    "move.too_far_to_battle": "{unit} may move at most {limit:hex|hexes} and still battle ({entry}); this move is "
                              "{cost:hex|hexes}",
    "move.undocumented": "No rules document gives the numbers of {unit}: the engine cannot rule on its move",
    # -- retreat: every legal retreat and what it costs (engine.retreat)
    "retreat.after_hits": "{unit} had {figures:figure|figures} and took {hits:hit|hits} before the flags: {left} left",
    "retreat.eliminated": "Every option removes the last figure of {unit}: it is eliminated",
    "retreat.eliminated_by_hits": "The {hits:hit|hits} remove all {figures:figure|figures} of {unit}: it is "
                                  "eliminated before any flag is resolved, so there is no retreat",
    "retreat.leaves_obstacle": "If the unit retreats out of its hex, the {obstacle} there are removed",
    "retreat.loses_marker": "If the unit retreats, its {marker} token is removed",
    "retreat.no_flag": "No flag was rolled: {unit} stays where it is",
    "retreat.not_computed": "The retreat cannot be computed: {problem}",
    "retreat.not_set_off": "Retreating onto or through {terrain} does not set it off: no dice are rolled and the "
                           "unit does not stop",
    "retreat.optional_ignore": "Ignoring a flag is optional here, so the options list the outcomes both with and "
                               "without ignoring",
    "retreat.passes_through": "Terrain has no effect on a retreat: the unit passes through {terrain} without stopping",
    "retreat.per_flag": "Each flag moves the unit {n:hex|hexes} toward its own baseline",
    "retreat.per_flag_nation": "{nation}: its {unit_class} units may retreat {least} to {most:hex|hexes} per flag",
    "retreat.per_flag_unit": "{unit} may retreat {least} to {most:hex|hexes} per flag",
    "retreat.pinned_marker": "{unit} with the {marker} marker may not retreat: it loses {n:figure|figures} for each "
                             "retreat move instead",
    "retreat.pinned_terrain": "{unit} may not retreat out of {terrain}: it loses {n:figure|figures} for each retreat "
                              "move instead",
    "retreat.risk_not_on_retreat": "Retreating onto or through {terrain} does not trigger it: no dice are rolled",
    "retreat.risk_roll": "Retreating onto {terrain} rolls {rolls:die|dice}; each {faces:or} costs "
                         "{per:figure|figures} (each die shows one with chance {chance}). Chance of losing {odds}",
    "retreat.shortfall": "Ignoring {ignored:flag|flags}, the unit must retreat {required:hex|hexes} but can make "
                         "only {reachable}: {not_made:move|moves} not made cost {lost:figure|figures}",
    "retreat.shortfall_all": "Ignoring {ignored:flag|flags}, the unit must retreat {required:hex|hexes} but can make "
                             "only {reachable}: {not_made:move|moves} not made cost {lost:figure|figures} (all it "
                             "has left)",
    "retreat.toward_bottom": "{unit} retreats toward its baseline, the bottom edge (row {row}): each step goes down "
                             "the board, to one of the two hexes behind it",
    "retreat.toward_top": "{unit} retreats toward its baseline, the top edge (row {row}): each step goes up the "
                          "board, to one of the two hexes behind it",
    # -- flags: which flags a unit may or must ignore (engine.flags)
    "flags.class_only": "{source}: only {classes:or} units may ignore {count:flag|flags}; {unit} is {unit_class}",
    "flags.combat_card_adds": "{card} played on {unit}: it may ignore {count:flag|flags} more, on top of any other "
                              "permission",
    "flags.combat_card_none": "{card} does not let a unit ignore flags",
    "flags.do_not_add_up": "Several permissions to ignore a flag do not add up: the unit ignores at most the largest "
                           "of them (the Japanese nation rule and a combat card are the exceptions that add)",
    "flags.forbidden_by_marker": "{marker}: every flag rolled against {unit} counts; none may be ignored",
    "flags.forbidden_by_card": "{card}: flags it rolls may not be ignored; terrain, badges, nations and combat cards "
                               "give no flag ignoring against it",
    "flags.may_ignore": "{source}: {unit} may ignore {count:flag|flags}",
    "flags.must_ignore": "{source}: {unit} must ignore {count:flag|flags}",
    "flags.nation_needs_rule": "{nation} rules apply only when the special rule {entry} is in effect; the "
                               "situation's rules do not list it",
    "flags.nation_not_for_unit": "{nation} rules do not apply to {unit}",
    "flags.nation_only": "{source}: only {nations:or} units ignore {count:flag|flags} here; the nation of {unit} is "
                         "{nation}",
    "flags.none": "Nothing lets this unit ignore a flag: every flag rolled makes it retreat",
    "flags.owner_assumed": "{source} protects only its original owner's units. The situation does not give the hex's "
                           "owner, so the occupant ({side}) is assumed to be the original owner; give \"owner\" on "
                           "the hex if it was captured",
    "flags.owner_captured": "{source}: only the original owner's units ({owner}) may ignore a flag here; {unit} is "
                            "{side}, so the captured {source} gives it no flag",
    "flags.terrain_makes_must": "{nation}: in terrain that lets a unit ignore a flag ({terrains}) it must ignore "
                                "{count:flag|flags} instead",
    # -- advance: take ground and armor overrun after a close assault (engine.advance)
    "advance.cannot_battle_in": "{terrain}: {unit_class} units in it cannot battle, so no overrun",
    "advance.extra_move": "{entry}: after taking ground the unit may move {n:hex|hexes} more before battling again",
    "advance.friendly_target": "The target is a friendly unit: there is no ground to take",
    "advance.move_limit_permits": "{entry} limits movement but still permits taking ground",
    "advance.move_limit_permits_overrun": "{entry} limits movement but still permits taking ground and armor overrun",
    "advance.never_overruns": "{unit} never makes an armor overrun",
    "advance.never_takes_ground": "{unit} may never take ground",
    "advance.no_battle_after_entering": "Taking ground into {terrain} is entering it, and a unit entering {terrain} "
                                        "may not battle that turn: no overrun",
    "advance.no_overrun_from": "{terrain}: {unit_class} that takes ground into it may not make an armor overrun",
    "advance.no_overrun_without_ground": "No armor overrun without taking ground first",
    "advance.not_close_assault": "Ground is taken only after a close assault (range {close_range}); the target is "
                                 "{distance:hex|hexes} away",
    "advance.overrun": "After taking ground it may battle again (armor overrun): if its new hex is next to an enemy "
                       "it must close-assault; otherwise it may fire",
    "advance.overrun_limited": "After taking ground it may battle again (armor overrun) at most "
                               "{per_turn:time|times} a turn: if its new hex is next to an enemy it must "
                               "close-assault; otherwise it may fire",
    "advance.overruns_used": "A unit makes at most {per_turn:overrun battle|overrun battles} a turn; this one has "
                             "made {made}. It may still take ground",
    "advance.take_ground": "{unit} close-assaulted and the target's hex {hex} is vacated (eliminated or retreated): "
                           "it may move into it",
    # -- battle: whether a unit may battle another, and with how many dice (engine.battle, engine.battle_dice)
    "battle.battle_out": "{unit} battling out of {terrain}: -{n:die|dice}",
    "battle.battles_after_entering_any": "{unit} may battle on the turn it enters {terrain}",
    "battle.bonus": "{source}: +{n:die|dice}",
    "battle.bonus_when": "{source} ({when}): +{n:die|dice}",
    "battle.cannot_battle_in": "{unit} cannot battle while in {terrain}",
    "battle.cannot_target": "{unit} may not battle {classes:or} units such as {target}",
    "battle.cannot_target_unit": "{unit} may not battle {target}",
    "battle.card_adjacent_enemy": "{card} orders only units with no adjacent enemy; {unit} is next to {enemy}",
    "battle.card_attacks_itself": "{card} orders no unit to battle: the card makes its own attack ({orders}; dice: "
                                  "{fixed})",
    "battle.card_close_assault_only": "{card} is played for close assaults only; the target is {distance:hex|hexes} "
                                      "away",
    "battle.card_move_and_battle": "{card}: the unit it orders may move up to {n:hex|hexes} and still battle",
    "battle.card_no_battle": "{card} orders {orders}: the units it orders do not battle",
    "battle.card_no_move": "{card}: the units it orders may not move, and {unit} moved {moved:hex|hexes}",
    "battle.close_assault_cap": "In close assault {unit} loses at most {n:die|dice} to its target's terrain",
    "battle.close_assault_dice": "{unit} in close assault (range {distance}): {n:die|dice}",
    "battle.close_assault_dice_on_terrain": "{unit} on {terrain} in close assault (range {distance}): {n:die|dice}",
    "battle.close_assault_dice_unmoved": "{unit}, which did not move this turn, in close assault (range {distance}): "
                                         "{n:die|dice}",
    "battle.close_assault_move": "{nation}: its units may move {n:hex|hexes} and still close-assault",
    "battle.close_assault_move_classes": "{nation}: {classes:or} units may move {n:hex|hexes} and still close-assault",
    "battle.close_assault_only_target": "{target} is under {marker}: it may be battled only in close assault",
    "battle.dice_floor": "Battle dice never go below zero (+{n} to reach 0)",
    "battle.entered_moving_little": "It entered {terrain} moving only {moved:hex|hexes}, so it may still battle",
    "battle.firing_dice": "{unit} firing at range {distance}: {n:die|dice}",
    "battle.firing_dice_on_terrain": "{unit} on {terrain} firing at range {distance}: {n:die|dice}",
    "battle.firing_dice_unmoved": "{unit}, which did not move this turn, firing at range {distance}: {n:die|dice}",
    "battle.friendly": "{target} is a friendly unit: units battle enemy units only",
    "battle.ignores_own_terrain": "{unit} ignores the battle restrictions of its own hex",
    "battle.ignores_own_terrain_unmoved": "{unit} did not move, so it ignores the battle restrictions of its own hex",
    "battle.ignores_target_terrain_always": "{unit} ignores the terrain protection of its target",
    "battle.ignores_target_terrain_always_at": "{unit} ignores the terrain protection of its target at range "
                                               "{distance}",
    "battle.ignores_target_terrain_close_assault": "In close assault {unit} ignores the terrain protection of its "
                                                   "target",
    "battle.ignores_target_terrain_close_assault_at": "In close assault {unit} ignores the terrain protection of its "
                                                      "target at range {distance}",
    "battle.ignores_target_terrain_unmoved": "{unit} did not move, so it ignores the terrain protection of its target",
    "battle.ignores_target_terrain_unmoved_at": "{unit} did not move, so it ignores the terrain protection of its "
                                                "target at range {distance}",
    "battle.in_or_out_adjacent": "Units battle into or out of {terrain} only from an adjacent hex",
    "battle.left_terrain": "{unit} left {terrain} this turn, and {unit_class} leaving it may not battle that turn",
    "battle.loses_marker": "By battling, {unit} loses its {marker}: remove the token",
    "battle.maybe_left": "If {unit} left {terrain} this turn it may not battle; give its moved_from hex to check",
    "battle.moved_lost_marker": "{unit} moved this turn, which already removed its {marker}",
    "battle.must_clear": "{unit} moved onto {terrain} this turn: it must clear it instead of battling (if it cannot, "
                         "it goes off)",
    "battle.must_close_assault": "{unit} is adjacent to {enemy}: a unit next to an enemy that battles must "
                                 "close-assault an adjacent enemy, not fire farther",
    "battle.needs_no_los": "{unit} needs no line of sight",
    "battle.never_battles": "{unit} never battles",
    "battle.never_overruns": "{unit} never makes an armor overrun, so this battle cannot be one",
    "battle.no_battle_after_entering": "A unit that moved into {terrain} this turn may not battle (it moved "
                                       "{moved:hex|hexes})",
    "battle.no_dice": "{unit} has no battle dice",
    "battle.no_dice_left": "No battle dice are left after the reductions, so the battle cannot be made",
    "battle.no_line_of_sight": "No line of sight: the line is blocked by {blockers}",
    "battle.no_move_and_battle": "{unit} may not move and battle in the same turn ({entry}); it moved "
                                 "{moved:hex|hexes}",
    "battle.not_best_reduction": "{terrain} would remove {n:die|dice}, but only the single best reduction counts "
                                 "when an obstacle is on a terrain ({best} gives {best_n:die|dice})",
    "battle.out_of_range": "Out of range: {unit} battles at most {reach:hex|hexes} away; the target is "
                           "{distance:hex|hexes} away",
    "battle.out_of_range_moved": "Out of range: {unit} battles at most {reach:hex|hexes} away (farther only when it "
                                 "has not moved); the target is {distance:hex|hexes} away",
    "battle.out_of_range_on_terrain": "Out of range: {unit} on {terrain} battles at most {reach:hex|hexes} away; the "
                                      "target is {distance:hex|hexes} away",
    "battle.out_of_range_unmoved": "Out of range: {unit}, which did not move this turn, battles at most "
                                   "{reach:hex|hexes} away; the target is {distance:hex|hexes} away",
    "battle.overrun_battle": "{unit} battles as an armor overrun, after taking ground",
    "battle.path_climb": "Its path climbs onto {terrain}, which counts as {climb:hex|hexes}: it moved "
                         "{moved:hex|hexes}",
    "battle.path_road": "Its whole move was on road: it may move {n:hex|hexes} and still battle",
    "battle.penalty": "{source}: -{n:die|dice}",
    "battle.penalty_when": "{source} ({when}): -{n:die|dice}",
    "battle.target_obstacle": "Target protected by {terrain}: {unit_class} attackers -{n:die|dice}",
    "battle.target_obstacle_no_loss": "Target protected by {terrain}: {unit_class} attackers lose no dice",
    "battle.target_obstacle_no_loss_when": "Target protected by {terrain} ({when}): {unit_class} attackers lose no "
                                           "dice",
    "battle.target_obstacle_none": "Target protected by {terrain}, but no reduction applies: {failed}",
    "battle.target_obstacle_when": "Target protected by {terrain} ({when}): {unit_class} attackers -{n:die|dice}",
    "battle.target_terrain": "Target in {terrain}: {unit_class} attackers -{n:die|dice}",
    "battle.target_terrain_no_loss": "Target in {terrain}: {unit_class} attackers lose no dice",
    "battle.target_terrain_no_loss_when": "Target in {terrain} ({when}): {unit_class} attackers lose no dice",
    "battle.target_terrain_none": "Target in {terrain}, but no reduction applies: {failed}",
    "battle.target_terrain_when": "Target in {terrain} ({when}): {unit_class} attackers -{n:die|dice}",
    "battle.too_far_to_battle": "{unit} may move at most {limit:hex|hexes} and still battle ({entry}); it moved "
                                "{moved:hex|hexes}",
    "battle.undocumented": "No rules document gives the numbers of {unit}: the engine cannot rule on it",
    # -- hits: which faces score a hit (engine.hits)
    "hits.always": "A {face} scores a hit on any unit",
    "hits.card_stars": "{card}: stars score hits",
    "hits.close_assault_only": "{entry}: {symbol} symbols score hits only in close assault, and this battle is not one",
    "hits.no_own_symbol": "{target} is targeted as {symbol}: no die face shows that symbol, so only other faces can "
                          "hit it",
    "hits.own_symbol": "{target} is hit by {symbol} symbols",
    "hits.stars": "Stars rolled by {unit} score hits on {classes:or} targets",
    "hits.stars_hit_it": "Stars rolled by {unit_class} attackers score hits on {target}",
    "hits.stars_unmoved": "Stars rolled by {unit} score hits on {classes:or} targets because it did not move this turn",
    # -- los: line of sight (engine.los); each los.crosses_* is its cause after "The line crosses D5: "
    "los.adjacent": "Adjacent units always see each other",
    "los.clear": "Nothing on the line between the two hexes blocks it",
    "los.corner": "The line only touches a corner of {hex}, so that hex does not block",
    "los.crosses_lake_run_blocks": "The line crosses {hex}: {terrain} is one of {n} or more contiguous ones the line "
                                   "passes",
    "los.crosses_terrain_blocks": "The line crosses {hex}: {terrain} blocks line of sight",
    "los.crosses_unit_blocks": "The line crosses {hex}: {unit} stands in the way: any unit, friend or foe, blocks "
                               "line of sight",
    "los.edge_blocked": "Blocked: the line runs along the edge between {a} and {b}, and both sides hold obstructions",
    "los.edge_one_side": "Not blocked there: the line runs along the edge between {a} and {b}, and only one side "
                         "holds an obstruction",
    "los.lake_run_blocks": "{terrain} is one of {n} or more contiguous ones the line passes",
    "los.lone_lake": "{terrain} does not block on its own: only {n} or more contiguous ones on the line do",
    "los.same_hex": "The two hexes are the same",
    "los.same_plateau": "{terrain} does not block: both units stand on the same contiguous group of it, at the same "
                        "height",
    "los.terrain_blocks": "{terrain} blocks line of sight",
    "los.unit_blocks": "{unit} stands in the way: any unit, friend or foe, blocks line of sight",
    # -- resolve: the dice as rolled, applied (engine.resolve); each resolve.hit_* / resolve.miss_* is a
    # hits.* reason after the dice it is about
    "resolve.card_medal": "The last figure of {target} goes to the {side} as a medal",
    "resolve.card_no_ground": "{card} is an attack by the card: no unit battled, so no ground is taken and no "
                              "overrun follows",
    "resolve.card_not_made": "{card} cannot attack as given, so no dice are rolled",
    "resolve.card_rolls": "{card} played by the {side} rolls {total:die|dice} against {target}: {shown}",
    "resolve.eliminated": "{hits:hit|hits} remove all {figures:figure|figures} of {target}: it is eliminated",
    "resolve.eliminated_before_flags": "{target} is eliminated before its {flags:flag|flags} are resolved: they have "
                                       "no effect",
    "resolve.eliminated_extra": "{hits:hit|hits} remove all {figures:figure|figures} of {target}: it is eliminated "
                                "({extra:hit|hits} more than it had are lost)",
    "resolve.flag_face": "{count:die|dice} showing {face}: no hit; flags make the target retreat once the hits are "
                         "taken",
    "resolve.battle_back_eliminated": "{nation}: {attacker} eliminated {unit}, so there is no battle back",
    "resolve.battle_back_figures_left": "{nation}: {unit} has {left:figure|figures} left, not "
                                        "{figures:figure|figures}: it may not battle {attacker} back",
    "resolve.battle_back_open": "{nation}: {unit} is down to {figures:figure|figures} and did not retreat: it may "
                                "battle {attacker} back now with {n:die|dice}",
    "resolve.battle_back_retreats": "{nation}: {unit} must retreat, so it may not battle {attacker} back",
    "resolve.battle_back_unknown": "{nation}: the retreat of {unit} cannot be computed, so whether it may battle "
                                   "{attacker} back is not known",
    "resolve.flags_forbidden": "{card}: its flags may not be ignored",
    "resolve.flags_forbidden_marker": "{marker}: every flag rolled against {unit} counts; none may be ignored",
    "resolve.hit_always": "{count:die|dice} showing {face}: {hits:hit|hits}. A {face} scores a hit on any unit",
    "resolve.hit_card_stars": "{count:die|dice} showing {face}: {hits:hit|hits}. {card}: stars score hits",
    "resolve.hit_close_assault_only": "{count:die|dice} showing {face}: {hits:hit|hits}. {entry}: {symbol} symbols "
                                      "score hits only in close assault, and this battle is not one",
    "resolve.hit_default": "{count:die|dice} showing {face}: {hits:hit|hits}. A {face} scores a hit on {target}",
    "resolve.hit_no_own_symbol": "{count:die|dice} showing {face}: {hits:hit|hits}. {target} is targeted as "
                                 "{symbol}: no die face shows that symbol, so only other faces can hit it",
    "resolve.hit_own_symbol": "{count:die|dice} showing {face}: {hits:hit|hits}. {target} is hit by {symbol} symbols",
    "resolve.hit_removes": "{hits:hit|hits} removes {lost:figure|figures} from {target}: {left} left",
    "resolve.hit_stars": "{count:die|dice} showing {face}: {hits:hit|hits}. Stars rolled by {unit} score hits on "
                         "{classes:or} targets",
    "resolve.hit_stars_hit_it": "{count:die|dice} showing {face}: {hits:hit|hits}. Stars rolled by {unit_class} "
                                "attackers score hits on {target}",
    "resolve.hit_stars_unmoved": "{count:die|dice} showing {face}: {hits:hit|hits}. Stars rolled by {unit} score "
                                 "hits on {classes:or} targets because it did not move this turn",
    "resolve.hits_remove": "{hits:hit|hits} remove {lost:figure|figures} from {target}: {left} left",
    "resolve.holds": "{unit} holds its hex: there is no ground to take and no overrun",
    "resolve.ignore_none": "{flags:flag|flags}: {unit} may ignore none",
    "resolve.ignores": "{flags:flag|flags}: {unit} ignores {most}, {left} left to retreat",
    "resolve.may_ignore": "{source}: {unit} may ignore {count:flag|flags}",
    "resolve.may_ignore_must": "{flags:flag|flags}: {unit} may ignore up to {most} and must ignore {least}; ignoring "
                               "all it may leaves {left} to retreat",
    "resolve.may_ignore_up_to": "{flags:flag|flags}: {unit} may ignore up to {most}; ignoring all it may leaves "
                                "{left} to retreat",
    "resolve.medal": "The last figure of {target} goes to the attacker's side as a medal",
    "resolve.miss_always": "{count:die|dice} showing {face}: no hit. A {face} scores a hit on any unit",
    "resolve.miss_card_stars": "{count:die|dice} showing {face}: no hit. {card}: stars do not score hits",
    "resolve.miss_close_assault_only": "{count:die|dice} showing {face}: no hit. {entry}: {symbol} symbols score "
                                       "hits only in close assault, and this battle is not one",
    "resolve.miss_no_own_symbol": "{count:die|dice} showing {face}: no hit. {target} is targeted as {symbol}: no die "
                                  "face shows that symbol, so only other faces can hit it",
    "resolve.miss_own_symbol": "{count:die|dice} showing {face}: no hit. {target} is hit by {symbol} symbols",
    "resolve.miss_star": "{count:die|dice} showing {face}: no hit. A star misses unless the attacking unit, the "
                         "target or the card makes stars hit, and none does in this battle",
    "resolve.miss_stars": "{count:die|dice} showing {face}: no hit. Stars rolled by {unit} score hits on "
                          "{classes:or} targets",
    "resolve.miss_stars_hit_it": "{count:die|dice} showing {face}: no hit. Stars rolled by {unit_class} attackers "
                                 "score hits on {target}",
    "resolve.miss_stars_unmoved": "{count:die|dice} showing {face}: no hit. Stars rolled by {unit} score hits on "
                                  "{classes:or} targets because it did not move this turn",
    "resolve.miss_symbol": "{count:die|dice} showing {face}: no hit. {target} is hit as {targeted_as}, not by {face} "
                           "symbols",
    "resolve.must_ignore": "{source}: {unit} must ignore {count:flag|flags}",
    "resolve.no_hit": "No hit: {target} keeps its {figures:figure|figures}",
    "resolve.no_retreat": "No retreat: {unit} stays on its hex",
    "resolve.not_made": "The battle cannot be made, so no dice are rolled",
    "resolve.owner_choice": "The owner of {unit} chooses whether to ignore the optional flag: its hex is emptied "
                            "only if it retreats, and what follows applies only then",
    "resolve.retreat_eliminates": "{unit} loses its last figure to the blocked retreat: it is eliminated",
    "resolve.retreat_short": "{unit} must retreat {n:hex|hexes} but can move only {reachable:hex|hexes}: "
                             "{not_made:move|moves} not made cost {lost:figure|figures} (the retreat breakdown says "
                             "what blocks each step)",
    "resolve.retreat_stuck": "{unit} must retreat {n:hex|hexes} but cannot move at all: {not_made:move|moves} not "
                             "made cost {lost:figure|figures} (the retreat breakdown says what blocks each step)",
    "resolve.retreats": "{unit} retreats {n:hex|hexes} toward its own baseline: {paths:legal path|legal paths}",
    "resolve.retreats_farther": "{unit} retreats {n:hex|hexes} toward its own baseline (up to {most:hex|hexes} as it "
                                "chooses): {paths:legal path|legal paths}",
    "resolve.risky_retreat": "A retreat path crosses a hex that makes the unit roll for losses: see the options' "
                             "entry risks",
    "resolve.rolls": "{unit} rolls {total:die|dice} against {target}: {shown}",
    "resolve.vacated_unknown": "Whether {unit} leaves its hex is not known, so take ground is not ruled on",
    # -- card_attack: attacks made by a command card itself (engine.card_attack)
    "card_attack.close_assault_only": "{card} may not attack {target}: a unit with {marker} may be attacked only in "
                                      "close assault, from an adjacent hex",
    "card_attack.dice": "{card} played by the {side}: {n:die|dice} on each target",
    "card_attack.enemy_only": "{card} attacks enemy units only: every target must be on the {side} side",
    "card_attack.no_advance": "{card} is an attack by the card: no unit battles, so nothing takes ground or overruns",
    "card_attack.no_dice": "No dice are rolled, so there is no attack",
    "card_attack.no_terrain": "A card's dice are not reduced by the target's terrain",
    "card_attack.not_contiguous": "{card}: the units it attacks must stand on contiguous hexes",
    "card_attack.rule_dice": "{entry}: {card} rolls {n:die|dice} for the {side}",
    "card_attack.stars_miss": "{card}: stars do not score hits",
    "card_attack.too_many": "{card} attacks at most {most:unit|units}; {given} are given",
    # -- aftermath: what may follow a battle roll (engine.aftermath)
    "aftermath.card_no_advance": "{card}: the unit that battles with it was not ordered, so it may neither take "
                                 "ground nor overrun",
    "aftermath.elimination_chance": "The chance to eliminate after retreat counts hits, then the figures a blocked "
                                    "retreat costs when the target's owner retreats to lose the fewest; dice rolled "
                                    "when retreating onto a hazard are not included",
    "aftermath.no_battle": "The battle cannot be made, so there is no ground to take and no overrun",
    # -- follow_up: battles a ruling offers next (engine.follow_ups)
    "follow_up.battle_back": "{nation}: if {unit} comes out of this close assault down to {figures:figure|figures} "
                             "without retreating, it may battle {attacker} back with {n:die|dice}",
    "follow_up.battle_back_ignoring_terrain": "{nation}: if {unit} comes out of this close assault down to "
                                              "{figures:figure|figures} without retreating, it may battle {attacker} "
                                              "back with {n:die|dice}, ignoring terrain",
    "follow_up.second_battle": "{card}: {unit} may battle {n:time|times} this turn; the next battle is ruled like "
                               "this one, at any target in range",
    "follow_up.second_close_assault": "{nation}: if this close assault eliminates {target} or makes it retreat, "
                                      "{unit} may instead of taking ground close-assault another adjacent enemy "
                                      "({others:or}) with {n:die|dice}",
    "follow_up.second_close_assault_ignoring_terrain": "{nation}: if this close assault eliminates {target} or makes "
                                                       "it retreat, {unit} may instead of taking ground "
                                                       "close-assault another adjacent enemy ({others:or}) with "
                                                       "{n:die|dice}, ignoring terrain",
    # -- resupply: whom a supply vehicle may re-supply (engine.resupply)
    "resupply.cannot": "{unit} cannot re-supply other units",
    "resupply.enemy": "{unit} is an enemy unit",
    "resupply.how": "Each figure taken off {unit} puts one figure back on an adjacent weakened unit, never above its "
                    "starting count: at most {total:figure|figures} in all from its {figures}, shared among "
                    "{units:unit|units} as the owner likes. Figures used this way never count as medals for the "
                    "opponent; giving the last one removes the supplier from the board",
    "resupply.instead_of_battle": "{unit} re-supplies instead of battling: no battle this turn",
    "resupply.never_battles": "{unit} never battles anyway",
    "resupply.never_resupplied": "{unit} can never be re-supplied",
    "resupply.no_battle": "A unit that is re-supplied may not battle this turn",
    "resupply.no_rule_needed": "{unit} may re-supply without any special rule in effect",
    "resupply.nobody": "No weakened friendly ground unit that can be re-supplied is adjacent",
    "resupply.not_ground_unit": "{unit} is not a ground unit: it cannot be re-supplied",
    "resupply.not_weakened": "{unit} has all {figures:figure|figures} it started with: it is not weakened",
    "resupply.rule_in_effect": "{unit} may re-supply only when the {entry} rule is in effect; it is",
    "resupply.rule_needed": "{unit} may re-supply only when the {entry} rule is in effect (add '{rule_id}' to the "
                            "situation's rules); it is not",
    # -- score: the medal count (engine.score, engine.score_change)
    "score.both_at_count": "Both sides are at their count at once; no source decides it: the winner is the side "
                           "whose turn it is (give `side`)",
    "score.checked_at_turn_start": "The {objective} at {hexes} is checked only at the start of a side's turn",
    "score.ends_at_once": "The game ends the moment a side has its medals, even in the middle of a turn",
    "score.ends_at_turn_end": "{army} have their medals; the game ends at the end of the turn",
    "score.exited": "{unit_name} left the board at {at}",
    "score.figures_on_stand": "{unit_name} figures on the medal stand: {figures}; {more} more make a medal",
    "score.figures_to_medals": "{figures} {unit_name} figures destroyed, {per} to a medal",
    "score.given": "{army} won {n:medal|medals} the board does not show (given with the request)",
    "score.heroic_leader": "{unit_name} carried a Heroic Leader: if the two dice rolled for him showed a star, he "
                           "is one more medal (add it in `medals`)",
    "score.no_medal": "{unit_name} eliminated: it gives no medal",
    "score.nothing_at_turn_end": "No medal objective is counted only at the end of a turn: this is the score at "
                                 "any moment",
    "score.objective_gained": "{army} gained the {objective} at {hexes} for good",
    "score.objective_held": "{army} hold the {objective} at {hexes}",
    "score.objective_kept": "{army} occupied {hexes} last: the {objective} stays theirs",
    "score.objective_open": "Nobody holds the {objective} at {hexes} now: it needs units on {needed:hex|hexes}",
    "score.objective_turn_start": "{army} held {hexes} at the start of their turn: the {objective} is theirs "
                                  "through it",
    "score.roll_gains": "This roll gives {side_name} {n:medal|medals}: {why}",
    "score.roll_loses": "This roll costs {side_name} {n:medal|medals}, as this no longer stands: {why}",
    "score.roll_wins": "This roll wins the game: {why}",
    "score.sudden_death": "{army} stand on {count} of {hexes}: the {objective} ends the game",
    "score.take_ground_gains": "Taking ground into {at} gives {side_name} {n:medal|medals}: {why}",
    "score.take_ground_loses": "Taking ground into {at} costs {side_name} {n:medal|medals}, as this no longer "
                               "stands: {why}",
    "score.take_ground_wins": "Taking ground into {at} wins the game: {why}",
    "score.unit_eliminated": "{unit_name} eliminated",
    "score.usual_count": "No scenario gives the count: a side needs {n:medal|medals}, the count the engine "
                         "assumes",
    "score.won": "{army} have {n:medal|medals} of the {needed} they need and win",
    "score.won_both_at_count": "Both sides are at their count at once: {army} win, as it is their turn",
    "score.won_sudden_death": "{army} win at once by sudden death",
    # -- a card's attack on a group (engine/card_group.py) --
    "group.eliminated": "{unit} is eliminated before the next unit is rolled for",
    "group.retreat_applied": "{unit} retreats to {to} before the next unit is rolled for",
    "group.retreat_chosen": "{unit} may retreat to other hexes; the engine applied the retreat to {to} (give "
                            "`retreat_to` for another)",
    # -- movement (engine/movement.py) --
    "move.removes_obstacle": "If {unit} leaves {at}, the {obstacle} there are removed",
    # -- ordering (engine/orders.py) --
    "order.already_placed": "{obstacle} already stand at {at}: none is added there",
    "order.copies": "{card} issues the same order as {copied}, the opponent's last card",
    "order.effect_as_usual": "Ordered units move and battle as their own rules say",
    "order.effect_battles": "{card}: each ordered {kinds:or} unit may battle {n} times",
    "order.effect_card_attack": "{card} orders no unit: the card itself attacks up to {n} enemy units",
    "order.effect_close_assault_only": "{card}: ordered units battle only in close assault",
    "order.effect_dice": "{card}: ordered units battle with {n:more die|more dice}{when}",
    "order.effect_dice_fewer": "{card}: ordered units battle with {n:die|dice} fewer{when}",
    "order.effect_dice_per_card": "{card}: roll 1 die for each command card in your hand, this one included",
    "order.effect_ignores_terrain": "{card}: terrain movement restrictions do not apply to the ordered unit",
    "order.effect_max_move": "{card}: ordered {kinds:or} units may move up to {n:hex|hexes}",
    "order.effect_move_after_battle": "{card}: after its battle the unit may move again, up to {n:hex|hexes}",
    "order.effect_move_and_battle": "{card}: ordered {kinds:or} units may move {n:hex|hexes} and still battle",
    "order.effect_no_battle": "{card}: the ordered units do not battle",
    "order.effect_no_move": "{card}: the ordered units do not move",
    "order.effect_on_the_move": "{card}: {n:unit|units} On the Move from any section, which move as usual "
                                "but may not battle this turn",
    "order.effect_places": "{card}: {obstacle} go on each ordered unit's hex, except where some already stand",
    "order.effect_reaction": "{card} is played in the opponent's turn, when he announces a close assault on "
                             "one of your units: that unit battles first",
    "order.effect_recovers": "{card}: each die showing the unit's symbol or a star returns 1 lost figure; "
                             "the unit is then ordered",
    "order.effect_undocumented": "What {card} orders is not in the bundled rules documents: the engine "
                                 "cannot rule on it",
    "order.enemy_unit": "{unit} is an enemy unit: a player orders only his own units",
    "order.excluded": "{card} may never order a {kind}, so not {unit}",
    "order.extra_unit": "{unit} may be ordered only as the extra unit of {nation}",
    "order.fallback": "The {side} have no {kinds:or} unit{where}: {card} orders {n:unit|units} of their "
                      "choice instead",
    "order.gung_ho": "{nation}: {card} orders {n:unit|units} more, from any section",
    "order.gung_ho_none": "{nation}: Gung-Ho adds no unit to {card}",
    "order.mirrored": "{copied} was played on the opponent's {theirs} flank, which is your {ours}",
    "order.needs_adjacent_enemy": "{card} orders only units next to an enemy unit; {unit} has none next to it",
    "order.needs_no_adjacent_enemy": "{card} orders only units with no enemy next to them; {unit} is next to "
                                     "{enemy}",
    "order.needs_weakened": "{card} orders only a unit that has lost figures; {unit} has all its {n} figures",
    "order.no_room": "{unit} would be one unit too many: {card} orders {pools} there",
    "order.no_units": "{card} orders no unit",
    "order.of_your_choice": "{unit} may be ordered only as the unit of your choice {card} gives",
    "order.only_on_the_move": "{unit} is outside the card's section: {card} may order it only On the Move "
                              "(it may not battle)",
    "order.straddling": "{unit} is on a hex straddling the {sections} sections: it may be ordered from either",
    "order.too_many": "{card} orders at most {n:unit|units} here; {chosen} were chosen",
    "order.twice": "{unit} is chosen twice: a unit is ordered once",
    "order.undocumented_unit": "No rules document gives the numbers of {unit}: the engine cannot order it",
    "order.unknown_unit": "No unit {id} is on the board",
    "order.wrong_class": "{card} orders {kinds:or} units, and you have some ({example}): it may not order {unit}",
    "order.wrong_face": "A {face} rolled orders a {kinds:or} unit; {unit} is not one",
    "order.wrong_section": "{unit} is in the {where} section: {card} orders units in the {section}",
    # -- turn state (engine/orders.py) --
    "turn.battled": "{unit} has already battled this turn: a unit battles once a turn",
    "turn.battles_again": "{unit} may battle {n} times this turn with this card",
    "turn.not_ordered": "{unit} was not ordered this turn: only ordered units move or battle",
    "turn.on_the_move": "{unit} is outside the card's section, so {card} orders it only On the Move: it may "
                        "move but not battle",
}
"""Reason code -> English template."""


_HEX_REFS: dict[tuple[str, int, int], HexRef] = {}
"""The hexes of the three boards as reasons name them, each made once."""


def hex_ref(board: Board, h: Hex) -> HexRef:
    """A hex as reasons name it: the board's printed label ("D7"), or "off the board"."""
    key = (board.kind, h.row, h.col)
    found = _HEX_REFS.get(key)
    if found is None:
        if not board.contains(h):
            return HexRef(h.row, h.col, "off the board")
        found = _HEX_REFS[key] = HexRef(h.row, h.col, board.label(h))
    return found


def unit_ref(situation: Situation, rulebook: Rulebook, unit: Unit) -> UnitRef:
    """A unit as players name it: side, the name of the unit entry whose rules apply, and its hex
    ("Axis Tank Destroyer at D7")."""
    key = ("unit_ref", unit.id, unit.profile, unit.hex.row, unit.hex.col)
    found = situation.memo.get(key)
    if not isinstance(found, UnitRef):
        found = situation.memo[key] = UnitRef(unit.id, unit.side, unit.profile,
                                              rulebook.names.get(unit.profile, unit.type),
                                              hex_ref(situation.board, unit.hex))
    return found


def entry_ref(rulebook: Rulebook, entry_id: str, at: HexRef | None = None) -> EntryRef | str:
    """A content entry as reasons name it (its name; "Forest at E4" with ``at``); an id the content
    does not hold (a situation rule id, a plateau group) stays a plain word."""
    if entry_id not in rulebook.kinds:
        return entry_id.replace("_", " ")
    return EntryRef(entry_id, rulebook.kinds[entry_id], rulebook.names.get(entry_id, entry_id), at)


def entry_refs(rulebook: Rulebook, entry_ids: Iterable[str]) -> tuple[EntryRef | str, ...]:
    """Several entries, as a list parameter ("Hill or Mountain")."""
    return tuple(entry_ref(rulebook, e) for e in entry_ids)


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """A count with its noun: "1 hex", "2 hexes", "1 die", "3 dice"."""
    if n == 1 or n == -1:
        return f"{n} {singular}"
    return f"{n} {plural_form if plural_form is not None else singular + 's'}"


def join(items: Iterable[Any], word: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    texts = [str(i) for i in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {word} {texts[-1]}"


def write(value: Any, spec: str = "") -> str:
    """One parameter as a template writes it (see the module docstring for the two additions)."""
    if not spec and type(value) is str:
        return value
    if "|" in spec and (isinstance(value, int) or value == "all"):
        singular, plural_form = spec.split("|", 1)
        return f"all {plural_form}" if value == "all" else plural(int(value), singular, plural_form)
    if isinstance(value, tuple):
        return join(value, spec or "and")
    if isinstance(value, (HexRef, UnitRef, EntryRef)):
        return format(str(value), spec)
    return format(value, spec)


_Parts = tuple[tuple[str, str | None, str], ...]
_COMPILED: dict[str, _Parts] = {}


def _compiled(code: str) -> _Parts:
    """``MESSAGES[code]`` cut once into (literal, field, spec) parts: filling a template is then a
    join, not a parse (a ruling renders dozens of reasons)."""
    found = _COMPILED.get(code)
    if found is None:
        found = _COMPILED[code] = tuple((literal, field, spec or "") for literal, field, spec, _
                                        in string.Formatter().parse(MESSAGES[code]))
    return found


def render(code: str, params: Params | Mapping[str, ParamValue]) -> str:
    """The English text of ``code`` with ``params`` (KeyError for an unknown code or a missing field)."""
    given = dict(params)
    return "".join([literal if field is None else literal + write(given[field], spec)
                    for literal, field, spec in _compiled(code)])


def say(code: str, rule: str, *, dice: int | None = None, fact: str | None = None, **params: ParamValue) -> Reason:
    """A reason from its code: its text is the code's template filled with ``params`` (rendered
    when first read)."""
    return Reason(rule, code, tuple(params.items()), fact, dice)


def say_params(code: str, rule: str, params: Mapping[str, ParamValue], *, dice: int | None = None,
               fact: str | None = None) -> Reason:
    """``say`` with parameters worked out elsewhere (another reason's, with one more): a reason
    that repeats a cause after what it caused ("The line crosses D5: ...")."""
    return Reason(rule, code, tuple(params.items()), fact, dice)
