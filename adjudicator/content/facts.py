"""Turn an entry's structured fields into rows a player can read ("Infantry −1 die, Armor −2").

The entry page shows these rows from the very data the engine computes with, so a page and a
ruling cannot disagree."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

Link = Callable[[str], Markup | None]
"""Gives an HTML link to an entry id, or None if no such entry."""

LABELS: dict[str, str] = {
    # One label per structured field name of engine/rulebook.py, in the order the page shows them
    # (what settles disputes first); tests/test_fact_labels.py holds the two to each other.
    "dice_reductions": "Attacker dice reduction",
    "battle_out": "Battling out of this hex",
    "blocks_los": "Blocks line of sight",
    "no_battle_after_entering": "Cannot battle the turn it enters",
    "cannot_battle_in": "Cannot battle while here",
    "flags": "Retreat flags",
    "impassable": "Impassable for",
    "must_stop": "Must stop on entering",
    "editor_names": "Scenario editor names",
    "elevation": "Height",
    "plateau": "Same-height group",
    "is_bridge": "Crossing",
    "must_stop_leaving": "Leaving: only to an adjacent hex",
    "max_move_onto": "Most hexes moved when entering",
    "enter_only_from_adjacent": "Must start its move adjacent to enter",
    "enter_only_from_plateau": "May only be entered from",
    "leave_only_to_plateau": "May only be left to",
    "battle_after_entering_max_moved": "May battle after entering only if it moved at most",
    "no_battle_after_leaving": "Cannot battle the turn it leaves",
    "adjacent_only_in_or_out": "Battles in or out only against adjacent targets",
    "los_rule": "Line-of-sight rule",
    "no_retreat_from": "May not retreat (loses a figure per flag)",
    "no_retreat_onto": "Units may not retreat onto it",
    "entry_risk": "Risk on entering",
    "no_take_ground": "May not take ground into it",
    "take_ground_requires_started_adjacent": "Take ground into it only if the attacker started its move next to it",
    "take_ground_limits": "Take ground limits",
    "no_overrun": "No armor overrun for",
    "removed_when_occupant_leaves": "Removed when its occupant leaves",
    "drawn_over": "Scenario tile replaces",
    "unit_class": "Unit class",
    "targeted_as": "Hit as",
    "figures": "Figures",
    "figures_by_nation": "Figures by nation",
    "figures_range": "Figures (per scenario)",
    "move_and_battle": "Move and still battle",
    "max_move": "Most hexes moved",
    "battles": "May battle",
    "dice": "Battle dice by range",
    "dice_unmoved": "Battle dice if it did not move",
    "dice_on_terrain": "Battle dice when on",
    "needs_los": "Needs line of sight",
    "ignores_target_terrain": "Ignores the target's terrain protection",
    "ignores_target_terrain_ranges": "…at ranges",
    "ignores_own_terrain": "Ignores its own hex's battle penalty",
    "ignores_own_terrain_in": "…only when in",
    "battles_after_entering_any_terrain": "May battle after entering any terrain",
    "battles_in_any_terrain": "May battle in any terrain (even at sea)",
    "close_assault_max_target_reduction": "Close assault: target terrain removes at most",
    "star_hits": "Stars score hits",
    "stars_hit_it_from": "Stars hit it when fired on by",
    "retreat_per_flag": "Retreat per flag (hexes)",
    "can_take_ground": "May take ground",
    "can_overrun": "May armor overrun",
    "can_resupply": "May re-supply",
    "resupply_requires_rule": "Re-supply needs the rule",
    "resupplyable": "May be re-supplied",
    "ground_unit": "Ground unit",
    "badge": "Badge",
    "nation": "Nation",
    "applies_to": "Placed on",
    "turns_into": "Unit profile",
    "editor_badges": "Scenario editor badge numbers",
    "dice_modifiers": "Battle dice",
    "targetable_only_in_close_assault": "Only targetable in close assault",
    "lost_when": "Removed when the unit",
    "stands_on": "Lets the unit be on",
    "no_retreat": "Never retreats (loses a figure per flag)",
    "placed_on": "Placed on",
    "card_type": "Card type",
    "deck_counts": "Cards in deck",
    "order_groups": "Units ordered",
    "fallback_units": "Units of your choice if you have none of its kind",
    "orders_adjacent_to_enemy": "Only units next to an enemy",
    "orders_weakened": "Only units that have lost figures",
    "roll_orders": "Each die rolled orders",
    "dice_per_card_in_hand": "Dice rolled: 1 per command card in hand",
    "recovers_figures": "Returns lost figures first",
    "copies_last_card": "Issues the opponent's last card",
    "mirrors_sections": "Flank cards mirrored",
    "places_obstacle": "Placed on each ordered unit's hex",
    "reaction": "Played in the opponent's turn",
    "orders_documented": "Orders given by the sources",
    "scenario_side": "Side a scenario option makes these troops",
    "extra_ordered_units": "Extra units ordered",
    "extra_units_tactic_range": "Tactic cards that get them (units ordered)",
    "extra_units_not_with": "No extra unit with",
    "orders_unit_classes": "Orders unit classes",
    "orders_units": "May order",
    "excludes_units": "May not order",
    "on_the_move": "Units on the move",
    "forbids_flag_ignoring": "Flags may not be ignored",
    "fixed_dice": "Dice rolled",
    "stars_hit": "Stars score hits",
    "deck": "Deck",
    "special_action": "Special action",
    "deck_size": "Cards in deck",
    "nation_codes": "Applies to",
    "country": "Nation code of its troops",
    "ordered_units_move": "Ordered units may move",
    "close_assault_only": "Close assaults only",
    "orders_not_adjacent_to_enemy": "Only units not adjacent to an enemy",
    "ordered_unit_advances": "Unit may take ground / overrun",
    "battles_per_unit": "Battles per ordered unit",
    "max_targets": "Most target units",
    "targets_contiguous": "Targets on contiguous hexes",
    "fixed_dice_cards": "Replaces the dice of",
    "battle_back_dice": "Battle back dice",
    "battle_back_figures": "Battle back when down to (figures)",
    "battle_back_ignores_terrain": "Battle back ignores terrain",
    "battle_back_not_with_cards": "No battle back against",
    "second_close_assault_dice": "Second close assault dice",
    "second_close_assault_units": "Second close assault by",
    "second_close_assault_ignores_terrain": "Second close assault ignores terrain",
    "terrain_flags_mandatory": "Terrain flag becomes mandatory",
    "retreat_unit_classes": "Retreat rule applies to",
    "close_assault_move_and_battle": "May move and close assault",
    "requires_rule": "Needs the rule",
    "situation_id": "Situation rule id",
    "matching_symbols_close_assault_only": "Unit symbols hit only in close assault",
    "move_limits": "Movement limits",
    "extra_take_ground_move": "Extra move after taking ground",
    "temporary": "Temporary",
    "group": "Group of hexes",
    "turn_start": "Checked at turn start",
    "control": "Held by",
    "kept_until_enemy_occupies": "Kept after leaving, until an enemy unit occupies it",
    "either_side": "Either side may gain it",
    "ends_game": "Ends the game at once (sudden death)",
    "medals_when_eliminated": "Medals when eliminated",
    "figures_per_medal": "Destroyed figures per medal",
    "medals_per_exit": "Medals for a unit that exits through it",
    "medals_to_win": "Medals to win without a scenario",
    "game_ends_at_once": "The game ends the moment a side has its medals",
    "simultaneous_reach_winner": "Both sides at the count at once: the winner is",
    "die_faces": "Battle die faces",
    "face_names": "Names of the die faces",
    "close_assault_range": "Close assault range",
    "overruns_per_turn": "Armor overruns per turn",
    "retreat_hexes_per_flag": "Retreat hexes per flag",
    "figures_lost_per_retreat_move_not_made": "Figures lost per retreat move not made",
    "road_move_bonus": "Extra hexes along a road",
    "climb_cost": "Hexes counted for climbing onto it",
    "must_stop_climbing": "Must stop when climbing onto it",
    "beach_climb_cost": "Hexes counted for moving to or from a beach",
    "beach_climb_forbidden": "May not move to or from a beach",
    "no_entry_from": "May not be entered from",
    "take_ground_after_stop": "May still take ground after stopping",
    "retreat_sets_off": "A retreat onto it sets it off",
    "rules_documented": "Numbers given by the sources",
    "retreats_along_rails": "Retreats along the rails, not toward its baseline",
    "cannot_target": "May not target",
    "cannot_target_units": "May not target units",
    "cannot_clear": "May not remove",
    "no_move_between": "May not move between",
    "not_for_units": "Does not apply to",
    "close_assault_unit_classes": "Close assault move applies to",
    "ordered_units_battle": "Units it orders may battle",
    "los_min_group": "Blocks line of sight only in contiguous groups of at least",
    "cleared_instead_of_battle": "May remove it instead of battling",
    "cleared_and_battle": "Removes it on entering and may still battle",
    "revealed_on_entry": "Revealed and rolled when an enemy enters",
    "moves_only_on": "Moves only on",
    "must_stop_on": "Must stop on entering",
    "no_stop_on": "Need not stop on",
    "must_clear_instead_of_battle": "Must clear instead of battling",
    "clears_instead_of_battle": "May clear instead of battling",
    "clears_and_battles": "May clear and still battle",
    "ignores_terrain_movement": "Terrain movement restrictions do not apply",
    "move_after_battle": "Move again after battling (hexes)",
    "board_faces": "Board faces (scenario editor name)",
    "default_board_face": "Face when a situation names none",
}

CONDITIONS = {
    "from_below": "only from below",
    "owner_only": "only for the original owner's units",
    "on_countryside_or_beach": "only on countryside or beach",
    "target_japanese": "only against Japanese units",
    "attacker_not_in_same_terrain": "not when the attacker is in the same terrain",
    "not_same_plateau": "only from below or from another hill/mountain group",
}

CONTROLS = {
    "occupy": "units of the side standing on it",
    "absolute_majority": "the side with units on more than half of the group's hexes",
    "sole_control": "the side with a unit in the group while the enemy has none there",
}

READINGS = {"side_in_turn": "the side whose turn it is"}

CLASS_ORDER = ("infantry", "armor", "artillery")


@dataclass(frozen=True)
class FactRow:
    key: str  # the structured field: its citation is looked up by it
    label: str
    value: Markup


PLACEHOLDERS = frozenset({"unit_class", "targeted_as", "figures", "move_and_battle", "max_move", "dice", "battles"})
"""Required unit fields that hold placeholders where no source gives the unit's numbers
(``rules_documented: false``): the page does not show them as facts."""


def _classes(values: Any) -> str:
    return ", ".join(str(v).replace("_", " ").capitalize() for v in values) or "all units"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{abs(n)}" if n < 0 else "0"


def _reduction(red: dict[str, Any]) -> str:
    dice = red.get("dice", {})
    parts = [f"{c.capitalize()} −{dice[c]}" if dice[c] else f"{c.capitalize()} not reduced"
             for c in CLASS_ORDER if c in dice]
    text = ", ".join(parts) or "none"
    conditions = [CONDITIONS.get(w, w) for w in red.get("when", ())]
    return text + (f" ({'; '.join(conditions)})" if conditions else "")


def _flag(rule: dict[str, Any]) -> str:
    count = rule.get("count", 1)
    verb = "Must" if rule.get("mandatory") else "May"
    what = "all flags" if count == "all" else ("1 flag" if count == 1 else f"{count} flags")
    who = []
    if rule.get("unit_classes"):
        who.append(_classes(rule["unit_classes"]).lower() + " only")
    if rule.get("nations"):
        who.append(", ".join(n.replace("_", " ").title() for n in rule["nations"]) + " units only")
    if rule.get("owner_only"):
        who.append("original owner's units only")
    return f"{verb} ignore {what}" + (f" ({'; '.join(who)})" if who else "")


def _modifier(mod: dict[str, Any], link: Link) -> Markup:
    amount = int(mod.get("amount", 0))
    bits = [f"{_signed(amount)} {'die' if abs(amount) == 1 else 'dice'}"]
    if mod.get("unit_classes"):
        bits.append("for " + _classes(mod["unit_classes"]).lower())
    if mod.get("nations"):
        bits.append("(" + ", ".join(n.replace("_", " ").title() for n in mod["nations"]) + ")")
    rng = mod.get("range", "any")
    if rng == "close_assault":
        bits.append("in close assault")
    elif rng == "ranged":
        bits.append("when firing (not close assault)")
    if mod.get("full_strength"):
        bits.append("at full strength")
    out = Markup(escape(" ".join(bits)))
    if mod.get("units"):
        out += Markup(", units: ") + _ids(mod["units"], link)
    if mod.get("attacker_terrain"):
        out += Markup(", when on ") + _ids(mod["attacker_terrain"], link)
    return out


def _ids(values: Any, link: Link) -> Markup:
    parts = [link(v) or escape(v) for v in values]
    return Markup(", ").join(parts)


def _dice_list(values: Any) -> str:
    return " · ".join(str(v) for v in values) + "  (range " + ", ".join(
        str(i + 1) for i in range(len(values))
    ) + ")"


def _lines(rows: Any) -> Markup:
    return Markup("<br>").join(rows)


def _dice_field(value: Any, _link: Link) -> Markup:
    return escape(_dice_list(value)) if value else escape("never battles")


def _dice_on_terrain(value: Any, link: Link) -> Markup:
    return _lines((link(t) or escape(t)) + escape(": " + _dice_list(d)) for t, d in value.items())


def _battle_out(value: Any, _link: Link) -> Markup:
    return escape(", ".join(f"{c.capitalize()} −{value[c]}" for c in CLASS_ORDER if c in value))


def _star_hits(value: Any, _link: Link) -> Markup:
    return escape("; ".join(
        f"vs {_classes(s['targets']).lower()}"
        + (" (only if it did not move)" if s.get("when") == "unmoved" else "")
        for s in value
    ))


def _deck_counts(value: Any, _link: Link) -> Markup:
    return escape(", ".join(
        f"{d['deck'].capitalize()}{' ' + d['section'] if d.get('section') else ''}: {d['count']}" for d in value
    ))


def _entry_risk(value: Any, _link: Link) -> Markup:
    faces = ", ".join(value.get("faces", ()))
    return escape(f"roll {value['dice']} dice, lose {value.get('figures_per_face', 1)} figure per {faces}")


def _take_ground_limits(value: Any, link: Link) -> Markup:
    return _lines(
        escape(_classes(t["unit_classes"]) + " may not take ground from ") + _ids(t["from_terrains"], link)
        for t in value
    )


def _no_move_between(value: Any, link: Link) -> Markup:
    return _lines(_ids(p["terrains"], link) + escape(" and ") + _ids(p["and_terrains"], link) for p in value)


def _move_limits(value: Any, _link: Link) -> Markup:
    return escape("; ".join(
        f"{_classes(m['unit_classes'])}"
        + (f" of {', '.join(m['sides'])}" if m.get("sides") else "")
        + (f": move and battle {m['move_and_battle']}" if m.get("move_and_battle") is not None else "")
        + (f", move at most {m['max_move']}" if m.get("max_move") is not None else "")
        + (f", {m['road_max_move']} when the whole move is on road" if m.get("road_max_move") is not None else "")
        for m in value
    ))


def _board_faces(value: Any, _link: Link) -> Markup:
    return escape(", ".join(f"{f.get('name', k)} ({f.get('editor_face', '')})" for k, f in value.items()))


def _lost_when(value: Any, _link: Link) -> Markup:
    return escape(", ".join(value[:-1]) + " or " + value[-1] if len(value) > 1 else ", ".join(value))


def _order_groups(value: Any, _link: Link) -> Markup:
    where = {None: "anywhere", "card": "in the card's section", "chosen": "in the section chosen"}
    return escape("; ".join(f"{g['count']} {where.get(g.get('section'), 'in the ' + str(g.get('section')))}"
                            for g in value))


def _roll_orders(value: Any, link: Link) -> Markup:
    return _lines(
        escape(f"{r['face'].capitalize()}: ")
        + (escape(_classes(r.get("unit_classes", ())).lower() if r.get("unit_classes") or r.get("units")
                  else "any unit")
           + (Markup(", ") + _ids(r["units"], link) if r.get("units") else Markup(""))
           + (Markup(", not ") + _ids(r["excludes_units"], link) if r.get("excludes_units") else Markup("")))
        for r in value)


def _tactic_range(value: Any, _link: Link) -> Markup:
    return escape(f"those ordering {value[0]} to {value[1]} units")


FORMATTERS: dict[str, Callable[[Any, Link], Markup]] = {
    "dice_reductions": lambda value, _link: _lines(escape(_reduction(r)) for r in value),
    "flags": lambda value, _link: _lines(escape(_flag(r)) for r in value),
    "dice_modifiers": lambda value, link: _lines(_modifier(m, link) for m in value),
    "dice": _dice_field,
    "dice_unmoved": _dice_field,
    "dice_on_terrain": _dice_on_terrain,
    "battle_out": _battle_out,
    "star_hits": _star_hits,
    "deck_counts": _deck_counts,
    "entry_risk": _entry_risk,
    "take_ground_limits": _take_ground_limits,
    "no_move_between": _no_move_between,
    "move_limits": _move_limits,
    "board_faces": _board_faces,
    "lost_when": _lost_when,
    "control": lambda value, _link: escape(CONTROLS.get(value, str(value).replace("_", " "))),
    "simultaneous_reach_winner": lambda value, _link: escape(READINGS.get(value, str(value).replace("_", " "))),
    "order_groups": _order_groups,
    "roll_orders": _roll_orders,
    "extra_units_tactic_range": _tactic_range,
    "face_names": lambda value, _link: escape(", ".join(value.values())),  # "Infantry, Armor, Grenade…"
}
"""The fields with a shape of their own, each with its formatter."""

ID_LISTS = frozenset({"units", "orders_units", "excludes_units", "applies_to", "stands_on", "moves_only_on",
                      "no_stop_on", "must_stop_on", "must_clear_instead_of_battle", "clears_instead_of_battle",
                      "clears_and_battles", "extra_units_not_with", "cannot_target_units", "cannot_clear",
                      "not_for_units"})
"""Fields listing content ids: each is linked to its entry."""
LINKED_IDS = frozenset({"turns_into", "badge", "requires_rule", "resupply_requires_rule", "places_obstacle"})
"""Fields naming one content id: linked to its entry."""


def format_value(key: str, value: Any, link: Link) -> Markup:
    """HTML for one structured field: its own formatter, else its ids linked, else as its type
    reads (yes/no, a list, a mapping, words)."""
    formatter = FORMATTERS.get(key)
    if formatter is not None:
        return formatter(value, link)
    if key == "editor_names" and isinstance(value, list):
        return escape(", ".join(value))
    if key in ID_LISTS and isinstance(value, list):
        return _ids(value, link)
    if key in LINKED_IDS and isinstance(value, str):
        return link(value) or escape(value)
    return _plain(value)


def _plain(value: Any) -> Markup:
    if isinstance(value, bool):
        return escape("Yes" if value else "No")
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return escape(_classes(value))
        return escape(", ".join(str(v) for v in value))
    if isinstance(value, dict):
        return escape(", ".join(f"{str(k).replace('_', ' ').capitalize()}: {v}" for k, v in value.items()))
    if isinstance(value, str):
        return escape(value.replace("_", " "))
    return escape(str(value))


LAST = ("editor_names", "elevation", "plateau", "editor_badges", "los_rule")
"""Fields a player rarely needs at the table: shown after the rest."""


def _order(key: str) -> tuple[int, int]:
    keys = list(LABELS)
    return (1 if key in LAST else 0, keys.index(key) if key in keys else len(keys))


def describe(facts: dict[str, Any], link: Link) -> list[FactRow]:
    """Readable rows for every structured field that is set, what settles disputes first."""
    rows = []
    for key in sorted(facts, key=_order):
        value = facts[key]
        if value in (None, "", [], {}, ()) or (key == "placed_on" and (value == "hex" or facts.get("applies_to"))):
            continue  # "placed on: unit" says nothing the "Placed on: Infantry" row does not
        if facts.get("rules_documented") is False and key in PLACEHOLDERS:
            continue
        rows.append(FactRow(key, LABELS[key], format_value(key, value, link)))
    return rows
