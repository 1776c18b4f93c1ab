"""Typed rule data: the structured part of every content entry the engine computes from.

These frozen dataclasses are the *schema* of the YAML front matter in ``content/`` (the loader
validates each file against them, so a typo in a rule file fails ``flask content check`` with the
file and field named) and, at the same time, the values the engine reads. A page and a
computation therefore read the very same numbers: no rule number is typed twice.

This module imports nothing outside the standard library. Every schema class is declared with
``@rules_schema``: a frozen dataclass whose ``__pydantic_config__`` (a plain dict read by the
loader's validator) forbids unknown fields, so a misspelt key is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeVar, dataclass_transform

UnitClass = Literal["infantry", "armor", "artillery"]
"""The three families the rules speak of ("Infantry -1 die, Armor -2 dice", "Impassable by Armor &
Artillery"). Every unit profile belongs to one of them for terrain purposes."""

Face = Literal["infantry", "armor", "grenade", "star", "flag"]
Side = Literal["allies", "axis"]
R = TypeVar("R")
"""A kind's rules schema (``HexRules``, ``UnitRules``…), for the typed accessors of ``Rulebook``."""

FORBID = {"extra": "forbid"}
S = TypeVar("S")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def rules_schema(cls: type[S]) -> type[S]:
    """One home for what every schema class is: frozen (the engine shares the values it reads) and
    strict when validated (``FORBID``: an unknown key in a content file is refused, naming it)."""
    setattr(cls, "__pydantic_config__", FORBID)  # noqa: B010 (a plain class has no such attribute to assign)
    return dataclass(frozen=True)(cls)


ReductionCondition = Literal[
    "from_below",  # attacker's hex is lower than the target's (hills, mountains, cliffs, ridges)
    "owner_only",  # protects only units of the hex's original owner (bunkers, sea walls)
    "on_countryside_or_beach",  # obstacle counts only on countryside or beach (sandbags)
    "target_japanese",  # target unit is Japanese (caves)
    "attacker_not_in_same_terrain",  # attacker is not itself in this terrain (wadis)
    # attacker's hex is not part of the target's contiguous same-height group of this hex's
    # ``plateau`` (mountains, caves: "from below or not on the same range")
    "not_same_plateau",
]


@rules_schema
class DiceReduction:
    """A battle-dice reduction suffered by attackers of a unit standing in this hex.

    ``dice`` maps attacker class to the number of dice removed. All ``when`` conditions must
    hold. A hex feature may list several; the engine takes the first whose conditions hold
    (so list the most specific first)."""

    dice: dict[UnitClass, int]
    when: tuple[ReductionCondition, ...] = ()


@rules_schema
class FlagRule:
    """Permission (or obligation) to ignore retreat flags."""

    count: int | Literal["all"] = 1
    unit_classes: tuple[UnitClass, ...] = ()  # empty: every class
    nations: tuple[str, ...] = ()  # empty: every nation
    owner_only: bool = False  # only units of the hex's original owner
    mandatory: bool = False  # "must ignore" instead of "may ignore"


@rules_schema
class EntryRisk:
    """Dice rolled when a unit moves or retreats onto the hex (Frozen River)."""

    dice: int
    faces: tuple[Face, ...]
    figures_per_face: int = 1
    on_move: bool = True  # rolled when a unit moves onto it (engine.movement names it as a hazard)
    on_retreat: bool = True


@rules_schema
class TakeGroundLimit:
    """Units of ``unit_classes`` may not take ground into this hex from ``from_terrains``."""

    unit_classes: tuple[UnitClass, ...]
    from_terrains: tuple[str, ...]


@rules_schema
class HexRules:
    """Effects of a terrain, obstacle or marker on the hex it occupies."""

    editor_names: tuple[str, ...] = ()  # official scenario editor (.m44) tile names
    elevation: int = 0  # 1 for hill-height terrain, 2 for mountains ("from below" comparisons)
    plateau: str | None = None  # LOS exception group: same-height contiguous hexes of this group
    is_bridge: bool = False  # makes an otherwise impassable water hex passable
    # movement
    impassable: tuple[UnitClass, ...] = ()
    must_stop: tuple[UnitClass, ...] = ()  # must stop on entering, may move no further
    must_stop_leaving: tuple[UnitClass, ...] = ()  # leaving: may only move to an adjacent hex
    max_move_onto: int | None = None  # beaches 2, oceans 1
    enter_only_from_adjacent: bool = False  # must start its move adjacent (hedgerows, flooded)
    enter_only_from_plateau: tuple[str, ...] = ()  # mountains: only from a hill or mountain
    leave_only_to_plateau: tuple[str, ...] = ()
    # battle
    dice_reductions: tuple[DiceReduction, ...] = ()
    battle_out: dict[UnitClass, int] = field(default_factory=dict)  # own-hex penalty
    no_battle_after_entering: tuple[UnitClass, ...] = ()
    battle_after_entering_max_moved: int | None = None  # jungle: only if it started adjacent
    no_battle_after_leaving: tuple[UnitClass, ...] = ()
    cannot_battle_in: tuple[UnitClass, ...] = ()  # oceans; armor in trenches
    adjacent_only_in_or_out: tuple[UnitClass, ...] = ()  # wadis: battle in/out only adjacent
    # line of sight
    blocks_los: bool = False
    los_rule: Literal["normal", "plateau", "lake_group"] = "normal"
    # flags and retreat
    flags: tuple[FlagRule, ...] = ()
    no_retreat_from: tuple[UnitClass, ...] = ()  # may not retreat, lose a figure per flag
    no_retreat_onto: bool = False  # oceans
    entry_risk: EntryRisk | None = None
    # take ground and armor overrun
    no_take_ground: tuple[UnitClass, ...] = ()
    # may take ground into it only if it started its move next to it (jungle: armor); a unit that did
    # not move stands next to the hex it close-assaulted
    take_ground_requires_started_adjacent: tuple[UnitClass, ...] = ()
    take_ground_limits: tuple[TakeGroundLimit, ...] = ()
    no_overrun: tuple[UnitClass, ...] = ()
    removed_when_occupant_leaves: bool = False  # sandbags
    # movement details stated by the terrain rules (added with the terrain catalogue)
    road_move_bonus: int = 0  # roads: extra hexes for a move that starts, stays and ends on them
    climb_cost: int | None = None  # steep hills: hexes a move up onto it from lower ground counts
    must_stop_climbing: tuple[UnitClass, ...] = ()  # ergs & ridges: stop when moving up onto it
    beach_climb_cost: int | None = None  # cliffs, sea bluffs: hexes a move to/from a beach counts
    beach_climb_forbidden: tuple[UnitClass, ...] = ()  # may not move between it and a beach
    no_entry_from: tuple[str, ...] = ()  # piers: may not be entered from these terrain ids
    # retreat details (added with the retreat engine)
    retreat_sets_off: bool | None = None  # False: a retreat onto or through it sets nothing off (minefields)
    # classes that must stop on entering yet may still take ground from it this turn (fordable streams;
    # railroad tracks for armor); for every other ``must_stop`` class, entering ends all movement
    take_ground_after_stop: tuple[UnitClass, ...] = ()
    # lakes (``los_rule: lake_group``): block only where the line meets this many contiguous ones
    los_min_group: int = 1
    # clearing it (added with the movement engine)
    cleared_instead_of_battle: tuple[UnitClass, ...] = ()  # wire: infantry may remove it in place of battling
    cleared_and_battle: tuple[UnitClass, ...] = ()  # wire: armor removes it and may still battle
    revealed_on_entry: bool = False  # minefields: an enemy unit entering reveals it and rolls its strength
    # terrains this tile replaces when a scenario draws it over them (a ford over a river); read by the
    # .m44 import
    drawn_over: tuple[str, ...] = ()


@rules_schema
class TerrainPair:
    """A move between a hex of ``terrains`` and a hex of ``and_terrains``, either way (terrain ids,
    their variants, or plateau groups)."""

    terrains: tuple[str, ...]
    and_terrains: tuple[str, ...]


@rules_schema
class StarHit:
    """Stars rolled by this unit score hits on targets of these classes."""

    targets: tuple[UnitClass, ...]
    when: Literal["always", "unmoved"] = "always"


@rules_schema
class UnitRules:
    """A unit profile: how it moves, battles, is hit and retreats."""

    unit_class: UnitClass
    targeted_as: UnitClass
    figures: int
    move_and_battle: int  # most hexes it may move and still battle
    max_move: int
    dice: tuple[int, ...] = ()  # battle dice at range 1, 2, 3, ...; empty: never battles
    editor_names: tuple[str, ...] = ()
    badge: str | None = None  # badge id that turns the base unit into this profile
    nation: str | None = None  # nation code that turns the base unit into this profile
    figures_by_nation: dict[str, int] = field(default_factory=dict)
    figures_range: tuple[int, int] | None = None  # "1-3 figures, per scenario"
    battles: bool = True
    dice_unmoved: tuple[int, ...] = ()  # replaces ``dice`` when the unit did not move
    dice_on_terrain: dict[str, tuple[int, ...]] = field(default_factory=dict)
    needs_los: bool = True
    ignores_target_terrain: Literal["never", "always", "unmoved", "close_assault"] = "never"
    ignores_target_terrain_ranges: tuple[int, ...] = ()  # empty: at every range
    ignores_own_terrain: Literal["never", "always", "unmoved"] = "never"
    ignores_own_terrain_in: tuple[str, ...] = ()  # only on these terrains (and variants); empty: on any
    battles_after_entering_any_terrain: bool = False  # French Resistance
    battles_in_any_terrain: bool = False  # ships: a hex's ``cannot_battle_in`` does not stop it (Destroyer)
    close_assault_max_target_reduction: int | None = None  # flame throwers: target terrain takes at most this
    star_hits: tuple[StarHit, ...] = ()
    stars_hit_it_from: tuple[UnitClass, ...] = ()  # tank destroyers: non-infantry attackers
    retreat_per_flag: int = 1  # most hexes per flag (the unit chooses 1..n)
    # Retreats along its rails instead of toward its baseline (trains). Which way the track runs
    # and where the locomotive points is not in a situation, so the engine must not list retreats.
    retreats_along_rails: bool = False
    can_take_ground: bool = True
    can_overrun: bool = False
    can_resupply: bool = False
    resupply_requires_rule: str | None = None
    resupplyable: bool = True
    ground_unit: bool = True
    # False when no source gives this unit's numbers (landing craft, airplanes, patrol cars): the
    # required fields then hold placeholders and the engine must refuse to compute with them.
    rules_documented: bool = True
    # flags this unit may (or must) ignore wherever it stands (trains, destroyers); added with the retreat engine
    flags: tuple[FlagRule, ...] = ()
    cannot_target: tuple[UnitClass, ...] = ()  # target families it may never battle (snipers: armor)
    cannot_target_units: tuple[str, ...] = ()  # unit profiles it may never battle (snipers: destroyers)
    # movement details (added with the movement engine, engine/movement.py)
    road_move_bonus: int | None = None  # replaces the road's own bonus for this unit (supply trucks: 2)
    moves_only_on: tuple[str, ...] = ()  # terrain ids it may move on, nothing else (trains: rails)
    no_stop_on: tuple[str, ...] = ()  # terrain it need not stop on though others must (trains: stations)
    must_clear_instead_of_battle: tuple[str, ...] = ()  # engineers on a minefield clear it, no battle
    clears_instead_of_battle: tuple[str, ...] = ()  # engineers may remove a road block in place of battling
    clears_and_battles: tuple[str, ...] = ()  # engineers may remove wire and still battle
    cannot_clear: tuple[str, ...] = ()  # obstacles it never removes, whatever its class may do (supply trucks: wire)
    # moves it may never make, up or down, in either direction (half-tracks: between a cliff or sea
    # bluff and a beach, ocean or shoreline); a retreat is not a move (``cliff``)
    no_move_between: tuple[TerrainPair, ...] = ()
    # medals (added with the score engine, engine/score.py)
    medals_when_eliminated: int = 1  # medals an eliminated unit gives its enemy (0: snipers give none)
    # destroyed figures count toward a medal this many at a time, whether or not the unit is
    # eliminated (Half-Tracks, Supply Trucks: 3); None: the unit gives its medals when eliminated
    figures_per_medal: int | None = None


@rules_schema
class DiceModifier:
    """A bonus (or penalty) to the attacker's dice from a card, badge, nation or special rule."""

    amount: int
    unit_classes: tuple[UnitClass, ...] = ()  # attacker classes; empty: any
    units: tuple[str, ...] = ()  # attacker unit profile ids; empty: any
    range: Literal["any", "close_assault", "ranged"] = "any"
    full_strength: bool = False  # only while the attacker has all its starting figures
    attacker_terrain: tuple[str, ...] = ()  # only when the attacker stands on one of these
    nations: tuple[str, ...] = ()  # attacker nations; empty: any


@rules_schema
class BadgeRules:
    """A badge or unit marker placed on a unit."""

    applies_to: tuple[str, ...] = ()  # unit type ids it may be placed on
    turns_into: str | None = None  # unit profile id the badged unit uses
    editor_badges: tuple[int, ...] = ()  # ".m44" badge numbers
    dice_modifiers: tuple[DiceModifier, ...] = ()
    flags: tuple[FlagRule, ...] = ()
    targetable_only_in_close_assault: bool = False  # camouflage
    lost_when: tuple[Literal["moves", "retreats", "battles"], ...] = ()  # camouflage: the token comes off
    stands_on: tuple[str, ...] = ()  # terrain the unit may be on though impassable to its class (boat: river)
    no_retreat: bool = False  # loses a figure per retreat move instead of retreating (a unit in a boat)
    must_stop_on: tuple[str, ...] = ()  # terrain the unit must stop on when it moves onto it (a boat: river)
    forbids_flag_ignoring: bool = False  # every flag rolled against the unit counts, none is ignored (a boat)


@rules_schema
class MarkerRules(HexRules, BadgeRules):
    """Markers sit on a hex (minefields, exit markers) or on a unit (camouflage)."""

    placed_on: Literal["hex", "unit"] = "hex"
    # exit markers: medals a unit leaving the board through the hex gives its own side (one of its
    # figures goes on the Victory track); None: the marker is not an exit
    medals_per_exit: int | None = None


@rules_schema
class DeckCount:
    deck: Literal["standard", "breakthrough"]
    count: int
    section: Literal["left", "center", "right"] | None = None


OrderSection = Literal["card", "chosen", "left", "center", "right"]
"""Where an order group's units stand: the section shown on the card, the section the player
chooses (Infantry Assault), or a named section, each named from the ordering player's own side."""


@rules_schema
class OrderGroup:
    """One pool of units a command card orders (core ``ordering``): how many, and from where.

    A unit on a hex straddling two sections may fill a group of either section, and is counted
    once (engine ``orders``)."""

    count: int | Literal["all"]  # how many units; "all": every unit it admits
    section: OrderSection | None = None  # None: anywhere on the board


@rules_schema
class RollOrder:
    """What one die face rolled for the card orders (Their Finest Hour): a unit of these classes or
    profiles (none listed: a unit of any kind)."""

    face: Face
    unit_classes: tuple[UnitClass, ...] = ()
    units: tuple[str, ...] = ()  # unit profile ids it orders besides those classes (Supply Truck: infantry)
    excludes_units: tuple[str, ...] = ()  # unit profile ids of those classes it does not order


@rules_schema
class CardRules:
    """A command card."""

    card_type: Literal["section", "tactic"] | None = None  # None: no bundled source says (Air Sortie)
    deck_counts: tuple[DeckCount, ...] = ()
    # what it orders (engine/orders.py, which also words the card's order in one line from these)
    order_groups: tuple[OrderGroup, ...] = ()  # empty: it orders no unit (Air Power, Barrage, Ambush)
    fallback_units: int = 0  # units of any kind it orders where the side has none it orders by class
    orders_adjacent_to_enemy: bool = False  # only units next to an enemy unit (Close Assault)
    orders_weakened: bool = False  # only units that have lost figures (Medics & Mechanics)
    roll_orders: tuple[RollOrder, ...] = ()  # the dice rolled decide what it orders (Their Finest Hour)
    dice_per_card_in_hand: bool = False  # it rolls 1 die per command card in the player's hand, itself included
    recovers_figures: bool = False  # the dice return lost figures to the unit first (Medics & Mechanics)
    copies_last_card: bool = False  # it issues the order of the opponent's last command card (Counter-Attack)
    mirrors_sections: bool = False  # ...with a flank card's section mirrored to the player's own flank
    places_obstacle: str | None = None  # obstacle id placed on each ordered unit's hex (Dig In: sandbags)
    reaction: bool = False  # played in the opponent's turn: the unit that battles with it is not ordered (Ambush)
    orders_documented: bool = True  # False: no bundled source says what it orders (Air Sortie)
    orders_unit_classes: tuple[UnitClass, ...] = ()
    orders_units: tuple[str, ...] = ()  # unit profile ids it explicitly may order
    excludes_units: tuple[str, ...] = ()  # unit profile ids it may not order
    on_the_move: int = 0  # Breakthrough: extra units that move but may not battle
    dice_modifiers: tuple[DiceModifier, ...] = ()
    forbids_flag_ignoring: bool = False
    fixed_dice: dict[str, int] = field(default_factory=dict)  # e.g. allies: 2, axis: 1
    stars_hit: bool = False
    move_and_battle: int | None = None  # units it orders may move this far and battle (Behind Enemy Lines)
    ordered_units_battle: bool = True  # False: the units it orders do something else instead (Dig In)
    # movement (added with the movement engine)
    max_move: int | None = None  # units it orders may move this far (Infantry Assault: 3 without battling)
    ordered_units_move: bool = True  # False: the units it orders battle where they stand (Close Assault, Firefight)
    ignores_terrain_movement: bool = False  # terrain movement restrictions do not apply (Behind Enemy Lines)
    move_after_battle: int | None = None  # hexes the unit may move again after battling (Behind Enemy Lines)
    # orders of the special battles (Firefight, Ambush, Artillery Bombard, card attacks)
    close_assault_only: bool = False  # its battles are close assaults only (Close Assault, Ambush)
    orders_not_adjacent_to_enemy: bool = False  # only units with no adjacent enemy may battle (Firefight)
    ordered_unit_advances: bool = True  # False: the unit battling with it may not take ground/overrun (Ambush)
    battles_per_unit: int = 1  # Artillery Bombard: each ordered unit may battle twice
    max_targets: int = 1  # card attacks (``fixed_dice``): most enemy units one card attacks (Air Power 4)
    targets_contiguous: bool = False  # card attacks: the targets must stand on contiguous hexes


@rules_schema
class CombatCardRules:
    """A combat card deck, the combat-card rules, or a special action."""

    deck: Literal["urban", "winter", "jungle", "desert"] | None = None
    special_action: bool = False
    deck_size: int | None = None
    dice_modifiers: tuple[DiceModifier, ...] = ()
    flags: tuple[FlagRule, ...] = ()


@rules_schema
class NationRules:
    nation_codes: tuple[str, ...] = ()  # situation ``nation`` values these rules apply to
    country: str | None = None  # nation code of its troops when no code switches its rules on (US Marines: us)
    dice_modifiers: tuple[DiceModifier, ...] = ()
    flags: tuple[FlagRule, ...] = ()
    terrain_flags_mandatory: bool = False  # Japanese: terrain flag becomes "must"
    retreat_per_flag: int | None = None
    retreat_unit_classes: tuple[UnitClass, ...] = ()
    close_assault_move_and_battle: int | None = None  # Banzai: move 2 into close assault
    requires_rule: str | None = None
    close_assault_unit_classes: tuple[UnitClass, ...] = ()  # who gets that move (empty: every class)
    # Stiff Upper Lip: a unit of this nation down to ``battle_back_figures`` after a close assault it
    # did not retreat from (whether or not that assault took figures) may battle the attacker back with this many dice
    battle_back_dice: int | None = None
    battle_back_figures: int = 1
    battle_back_ignores_terrain: bool = False
    battle_back_not_with_cards: tuple[str, ...] = ()  # Ambush: no battle back
    # Furia Francese: after a close assault that eliminates or repulses its target, a unit of
    # ``second_close_assault_units`` may close-assault another adjacent enemy with this many dice
    second_close_assault_dice: int | None = None
    second_close_assault_units: tuple[str, ...] = ()
    second_close_assault_ignores_terrain: bool = False
    not_for_units: tuple[str, ...] = ()  # unit profiles none of these rules apply to (snipers: BGA)
    # Gung-Ho (US Marine Corps): when a scenario option names this entry, ``scenario_side``'s cards order
    # ``extra_ordered_units`` more units: every section card, and the tactic cards that order between the
    # two numbers of ``extra_units_tactic_range``; never the cards of ``extra_units_not_with``
    scenario_side: Side | None = None
    extra_ordered_units: int = 0
    extra_units_tactic_range: tuple[int, int] | None = None
    extra_units_not_with: tuple[str, ...] = ()


@rules_schema
class MoveLimit:
    unit_classes: tuple[UnitClass, ...]
    move_and_battle: int | None = None
    max_move: int | None = None
    sides: tuple[Side, ...] = ()  # empty: both
    road_max_move: int | None = None  # most hexes when the whole move is on road (Winter Weather: 3)


@rules_schema
class SpecialRuleRules:
    situation_id: str | None = None  # id accepted in a situation's ``rules`` list
    matching_symbols_close_assault_only: bool = False  # reduced visibility
    move_limits: tuple[MoveLimit, ...] = ()
    extra_take_ground_move: int = 0  # North African desert
    fixed_dice: dict[str, int] = field(default_factory=dict)
    fixed_dice_cards: tuple[str, ...] = ()  # the card attacks whose dice ``fixed_dice`` replaces (Air Power)


@rules_schema
class ActionRules:
    requires_rule: str | None = None
    situation_id: str | None = None


VictoryControl = Literal["occupy", "absolute_majority", "sole_control"]
"""What a side must do on an objective's hexes to hold its medal: stand on them (``hexes_needed``
of a group, all of them by default), have units on more than half of them, or be the only side
with units there."""


@rules_schema
class VictoryRules:
    """A medal objective's condition (content ``victory``): what holds it, when it is checked, how
    long it is kept. ``engine.score`` reads these fields; a scenario's ``objectives`` name the entry."""

    # True: the medal is held only while the condition holds and lost the moment it fails; False:
    # gained for good once the condition is met; None: neither (last to occupy, sudden death)
    temporary: bool | None = None
    # the condition speaks of a group of hexes: objectives of the entry typed without a group name
    # form one group per side (majority, sole control); otherwise each such hex stands alone
    group: bool = False
    turn_start: bool = False  # checked only at the start of the side's own turn
    control: VictoryControl = "occupy"
    kept_until_enemy_occupies: bool = False  # last to occupy: kept after leaving, until the enemy enters
    either_side: bool = False  # a unit of either side may gain it (the scenario names no side)
    ends_game: bool = False  # sudden death: the side that meets it wins at once, whatever the medals


@rules_schema
class BoardFace:
    """One printed face of the board (core ``board_faces``): what a situation's ``face`` may be."""

    name: str  # what the builder and the page call it ("Winter")
    editor_face: str  # the scenario editor's ``board.face`` value for it ("WINTER")


@rules_schema
class CoreRules:
    die_faces: dict[Face, int] = field(default_factory=dict)
    face_names: dict[Face, str] = field(default_factory=dict)  # what players call each face ("Grenade")
    close_assault_range: int | None = None
    overruns_per_turn: int | None = None
    retreat_hexes_per_flag: int | None = None
    figures_lost_per_retreat_move_not_made: int | None = None
    board_faces: dict[str, BoardFace] = field(default_factory=dict)  # face id -> face
    default_board_face: str | None = None  # the face a situation without ``face`` is drawn in
    # medals (core ``medals``, read by engine/score.py)
    medals_to_win: int | None = None  # the count a side needs when a situation gives no scenario
    game_ends_at_once: bool = False  # the game ends the moment a side has its medals, even mid-turn
    # who wins when both sides are at their count at once and no source decides it: the side
    # whose turn it is (the player who made the last move)
    simultaneous_reach_winner: Literal["side_in_turn"] | None = None


DISPLAY_ONLY: dict[str, str] = {
    # "Class.field": why no ruling reads it. Every other structured field is read by the engine
    # (tests/test_dead_fields.py fails on a field that is neither read nor listed here).
    "DeckCount.deck": "deck make-up is shown on the card page; no ruling depends on how many cards a deck holds",
    # (DeckCount.section is display-only too, but the name-based scan sees OrderGroup.section read)
    "CardRules.deck_counts": "deck make-up is shown on the card page; no ruling depends on it",
    "CombatCardRules.deck": "which deck a combat card belongs to is shown on its page and in the builder",
    "CombatCardRules.special_action": "shown on the page and in the builder; rulings read the card's modifiers",
    "CombatCardRules.deck_size": "deck make-up is shown on the page; no ruling depends on it",
    "CoreRules.default_board_face": "the board's face is cosmetic (Winter Wars rulebook, Foreword): no ruling "
                                    "reads a situation's face, so only the builder needs the face it draws "
                                    "when a situation gives none",
    "CoreRules.face_names": "labels: the builder names the die faces with them (roll buttons, hit symbols, copied "
                            "text); rulings match faces by id",
}
"""Structured fields no ruling computes with, each with the reason (no dead fields: a rule the
engine should apply must not hide in a display-only field)."""


KIND_RULES: dict[str, type] = {
    "core": CoreRules,
    "terrain": HexRules,
    "obstacle": HexRules,
    "marker": MarkerRules,
    "unit": UnitRules,
    "badge": BadgeRules,
    "command_card": CardRules,
    "combat_card": CombatCardRules,
    "action": ActionRules,
    "nation": NationRules,
    "victory": VictoryRules,
    "special_rule": SpecialRuleRules,
}
"""Which structured-fields schema each content kind uses."""


RESOLVE_MEMO_SIZE = 20_000
"""At most this many names are remembered by ``Rulebook.resolve``: misses from hostile requests
must not grow a worker's memory without bound."""


@dataclass(frozen=True)
class Rulebook:
    """Every rule the engine may consult, keyed by content id.

    ``names`` and ``kinds`` cover all entries, so any reason the engine gives can name and link
    the entry it comes from."""

    names: dict[str, str]
    kinds: dict[str, str]
    rules: dict[str, object]
    # lower-cased editor name / name / alias -> ids, most specific first (editor names, then
    # names, then aliases); a key may name entries of different kinds ("radar" is a terrain tile
    # and a Radar Alert alias), so lookups say which kinds they want.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    bases: dict[str, str] = field(default_factory=dict)  # id -> id of the entry it behaves like
    # lookups worked out once per rulebook (``ids_of_kind``, ``situation_ids``): the rulebook never changes
    _kind_ids: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False,
                                                               compare=False)
    _situation_ids: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _resolved: dict[tuple[str, tuple[str, ...]], str | None] = field(default_factory=dict, init=False,
                                                                      repr=False, compare=False)

    # Typed accessors: the engine reads a rule's fields through these, never with getattr. Those
    # that answer None take any id (a card field naming a combat card, a badge that is a marker).
    def _of(self, entry_id: str | None, schema: type[R]) -> R | None:
        rules = self.rules.get(entry_id) if entry_id else None
        return rules if isinstance(rules, schema) else None

    def _must(self, entry_id: str, schema: type[R]) -> R:
        rules = self.rules[entry_id]
        assert isinstance(rules, schema), entry_id
        return rules

    def hex_rules(self, entry_id: str) -> HexRules:
        return self._must(entry_id, HexRules)

    def unit(self, entry_id: str) -> UnitRules:
        return self._must(entry_id, UnitRules)

    def nation(self, entry_id: str) -> NationRules:
        return self._must(entry_id, NationRules)

    def victory(self, entry_id: str) -> VictoryRules:
        return self._must(entry_id, VictoryRules)

    def card(self, entry_id: str | None) -> CardRules | None:
        """The command card ``entry_id``, or None when it is not one (or None)."""
        return self._of(entry_id, CardRules)

    def combat_card(self, entry_id: str | None) -> CombatCardRules | None:
        return self._of(entry_id, CombatCardRules)

    def badge(self, entry_id: str | None) -> BadgeRules | None:
        """A badge, or a marker placed on units (``MarkerRules`` is both), or None."""
        return self._of(entry_id, BadgeRules)

    def marker(self, entry_id: str | None) -> MarkerRules | None:
        return self._of(entry_id, MarkerRules)

    def special_rule(self, entry_id: str | None) -> SpecialRuleRules | None:
        return self._of(entry_id, SpecialRuleRules)

    def core(self, entry_id: str) -> CoreRules | None:
        return self._of(entry_id, CoreRules)

    def feature(self, entry_id: str | None) -> HexRules | None:
        """A terrain, obstacle or hex marker, or None."""
        return self._of(entry_id, HexRules)

    def hex_feature(self, entry_id: str | None) -> HexRules | None:
        """A terrain, obstacle or marker that goes on a hex, or None (a marker placed on units
        is ``HexRules`` too, but never lies on a hex)."""
        marker = self.marker(entry_id)
        return self.feature(entry_id) if marker is None or marker.placed_on == "hex" else None

    def unit_badge(self, entry_id: str | None) -> BadgeRules | None:
        """A badge, or a marker placed on units; None for anything else (a marker placed on hexes
        is ``BadgeRules`` too, but never goes on a unit)."""
        marker = self.marker(entry_id)
        return self.badge(entry_id) if marker is None or marker.placed_on == "unit" else None

    def situation_id(self, entry_id: str) -> str | None:
        """The id a situation's ``rules`` list uses for this special rule or action, if any."""
        rules = self.rules.get(entry_id)
        return rules.situation_id if isinstance(rules, (SpecialRuleRules, ActionRules)) else None

    def core_rules(self, entry_id: str) -> CoreRules:
        """A core entry the engine cannot rule without; LookupError names it when it is missing."""
        rules = self.core(entry_id)
        if rules is None:
            raise LookupError(f"content entry core/{entry_id} is missing")
        return rules

    def ids_of_kind(self, *kinds: str) -> tuple[str, ...]:
        """The ids of the entries of ``kinds``, in the rulebook's order (worked out once per kinds)."""
        found = self._kind_ids.get(kinds)
        if found is None:
            found = self._kind_ids[kinds] = tuple(i for i, k in self.kinds.items() if k in kinds)
        return found

    def situation_ids(self) -> dict[str, str]:
        """Situation ``rules`` ids the content defines -> entry id (worked out once)."""
        if not self._situation_ids:
            self._situation_ids.update({sid: entry_id for entry_id in self.rules
                                        if (sid := self.situation_id(entry_id))})
        return self._situation_ids

    def resolve(self, name: str, *kinds: str) -> str | None:
        """Id for ``name`` (an id, a name or an alias, with ``_`` and spaces interchangeable)
        among ``kinds``, else None. Each answer is kept: a situation names the same few types,
        terrains and badges over and over, and the rulebook never changes. Only short names are kept
        (the parser caps them), so the memo stays bounded by the content's vocabulary plus misses."""
        memo_key = (name, kinds)
        if memo_key in self._resolved:
            return self._resolved[memo_key]
        found = self._resolve(name, kinds)
        if len(self._resolved) < RESOLVE_MEMO_SIZE:
            self._resolved[memo_key] = found
        return found

    def _resolve(self, name: str, kinds: tuple[str, ...]) -> str | None:
        key = name.strip().lower()
        for candidate in dict.fromkeys((key, key.replace("_", " "), key.replace(" ", "_"))):
            ids = ((candidate,) if candidate in self.kinds else ()) + self.aliases.get(candidate, ())
            for entry_id in ids:
                if not kinds or self.kinds[entry_id] in kinds:
                    return entry_id
        return None

    def badges_lost(self, badges: tuple[str, ...], event: str) -> tuple[str, ...]:
        """The badges and unit markers among ``badges`` whose ``lost_when`` lists ``event``
        ("moves", "retreats", "battles"): a Camouflage token comes off when its unit retreats."""
        return tuple(b for b in badges if (rules := self.badge(b)) is not None and event in rules.lost_when)

    def badge_for_unit(self, unit_id: str) -> str | None:
        """The badge whose ``turns_into`` is ``unit_id`` (the badge "tank_destroyer" of a
        situation is the badge that makes a unit a Tank Destroyer)."""
        for entry_id in self.ids_of_kind("badge"):
            rules = self.badge(entry_id)
            if rules is not None and rules.turns_into == unit_id:
                return entry_id
        return None
