"""How many dice a battle rolls, step by cited step (Game help summary: Battle, Range and hit dice
rolled, Terrain types; Winter Wars rulebook: New Troops).

The count follows the game help's battle sequence: base dice for the unit and range, then the
target's terrain protection (only the single best one counts when an obstacle stands on a
terrain), then the attacker's own hex, then cards, badges and nations. Each step is a reason whose
``dice`` is the change it makes; ``engine.battle`` adds the legality checks and the floor at zero.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from adjudicator.engine.core_ids import BATTLE_RULES, BEACH, DICE_RULE, JAPANESE
from adjudicator.engine.geometry import distance
from adjudicator.engine.lookups import elevation, is_a, nations_in_effect
from adjudicator.engine.los import plateau_group
from adjudicator.engine.reasons import EntryRef, ParamValue, Reason
from adjudicator.engine.rulebook import DiceModifier, DiceReduction, HexRules, NationRules, Rulebook
from adjudicator.engine.situation import Situation, Unit
from adjudicator.engine.wording import entry_ref, say, say_params, unit_ref


class BattleCount:
    """One battle being ruled: who, where, with which cards, and the reasons said so far."""

    def __init__(self, situation: Situation, rulebook: Rulebook, attacker: Unit, target: Unit,
                 card: str | None, combat_card: str | None) -> None:
        self.situation, self.rulebook = situation, rulebook
        self.attacker, self.target = attacker, target
        self.card, self.combat_card = card, combat_card
        self.a_rules = rulebook.unit(attacker.profile)
        self.t_rules = rulebook.unit(target.profile)
        self.a_class = self.a_rules.unit_class
        self.a_state = situation.hex_state(attacker.hex)
        self.t_state = situation.hex_state(target.hex)
        self.distance = distance(attacker.hex, target.hex)
        core = rulebook.core(DICE_RULE)
        close_range = core.close_assault_range if core is not None else None
        if close_range is None:
            raise LookupError(f"the core entry {DICE_RULE!r} must define close_assault_range")
        self.close_range = close_range
        self.close = self.distance <= close_range
        self.battle_rule = next(r for r in BATTLE_RULES if r in rulebook.kinds)  # the general battle rules
        self.who = unit_ref(situation, rulebook, attacker)
        self.whom = unit_ref(situation, rulebook, target)
        self.why_not: list[Reason] = []
        self.breakdown: list[Reason] = []
        self.notes: list[Reason] = []
        self.overrun_battle = False

    def entry(self, entry_id: str) -> EntryRef | str:
        return entry_ref(self.rulebook, entry_id)

    def nations(self) -> list[tuple[str, NationRules]]:
        return nations_in_effect(self.situation, self.rulebook, self.attacker)[0]

    # -- base dice ------------------------------------------------------------------------------
    def base_dice(self) -> int | None:
        """Dice by profile and range; None (with a reason) when out of range or never battling."""
        rules, profile = self.a_rules, self.attacker.profile
        table, fact, on = rules.dice, "dice", None
        for terrain, terrain_table in rules.dice_on_terrain.items():
            if any(is_a(self.rulebook, f, terrain) for f in self.a_state.features()):
                table, fact, on = terrain_table, "dice_on_terrain", terrain
                break
        else:
            if self.attacker.moved == 0 and rules.dice_unmoved:
                table, fact = rules.dice_unmoved, "dice_unmoved"
        if not table:
            if rules.battles:
                self.why_not.append(say("battle.no_dice", profile, fact="dice", unit=self.who))
            return None
        variant = "_on_terrain" if on is not None else "_unmoved" if fact == "dice_unmoved" else ""
        on_terrain: dict[str, ParamValue] = {"terrain": self.entry(on)} if on is not None else {}
        if self.distance > len(table):
            farther = bool(rules.dice_unmoved and len(rules.dice_unmoved) >= self.distance and self.attacker.moved)
            variant = variant or ("_moved" if farther else "")
            self.why_not.append(say_params(f"battle.out_of_range{variant}", profile,
                                           {"unit": self.who, "reach": len(table), "distance": self.distance,
                                            **on_terrain}, fact="dice_unmoved" if farther else fact))
            return None
        dice = table[self.distance - 1]
        mode = "battle.close_assault_dice" if self.close else "battle.firing_dice"
        self.breakdown.append(say_params(f"{mode}{variant}", profile, {"unit": self.who, "distance": self.distance,
                                                                      "n": dice, **on_terrain}, fact=fact, dice=dice))
        return dice

    # -- the target's terrain -------------------------------------------------------------------
    def ignores_target_terrain(self) -> Reason | None:
        """Why the attacker ignores its target's terrain protection, or None."""
        mode, ranges = self.a_rules.ignores_target_terrain, self.a_rules.ignores_target_terrain_ranges
        if mode == "never" or (ranges and self.distance not in ranges):
            return None
        if (mode == "unmoved" and self.attacker.moved != 0) or (mode == "close_assault" and not self.close):
            return None
        code = {"always": "battle.ignores_target_terrain_always", "unmoved": "battle.ignores_target_terrain_unmoved",
                "close_assault": "battle.ignores_target_terrain_close_assault"}[mode]
        return say(f"{code}{'_at' if ranges else ''}", self.attacker.profile,
                   fact="ignores_target_terrain", dice=0, unit=self.who, distance=self.distance)

    def target_terrain(self) -> int:
        """The single best reduction among the target hex's terrain and obstacle."""
        offers = [offer for feature in self.t_state.features() if (offer := self.reduction(feature)) is not None]
        if not offers:
            return 0
        ignoring = self.ignores_target_terrain()
        if ignoring is not None and any(amount for amount, _ in offers):
            self.breakdown.append(ignoring)
            return 0
        best, said = max(offers, key=lambda o: o[0])
        cap = self.a_rules.close_assault_max_target_reduction
        self.breakdown.append(said)
        if self.close and cap is not None and best > cap:
            self.breakdown.append(say("battle.close_assault_cap", self.attacker.profile,
                                      fact="close_assault_max_target_reduction", dice=best - cap, unit=self.who, n=cap))
            best = cap
        for amount, other in offers:
            if other is said:
                continue
            if amount and best:
                other = say("battle.not_best_reduction", other.rule, fact="dice_reductions", dice=0,
                            terrain=self.entry(other.rule), n=amount, best=self.entry(said.rule), best_n=best)
            self.breakdown.append(other if other.dice == 0 else _no_dice(other))
        return best

    def reduction(self, feature: str) -> tuple[int, Reason] | None:
        """The dice ``feature`` takes from this attacker (its first ``dice_reductions`` entry whose
        conditions hold), with the reason; None when it reduces nothing at all."""
        rules = self.rulebook.hex_rules(feature)
        if not rules.dice_reductions:
            return None
        kind = "terrain" if self.rulebook.kinds.get(feature) == "terrain" else "obstacle"
        terrain = self.entry(feature)
        failed: list[str] = []
        for reduction in rules.dice_reductions:
            holds, explained = self.conditions(feature, rules, reduction)
            if not holds:
                failed.extend(explained)
                continue
            amount = reduction.dice.get(self.a_class, 0)
            code = f"battle.target_{kind}{'' if amount else '_no_loss'}{'_when' if explained else ''}"
            return amount, say(code, feature, fact="dice_reductions", dice=-amount, terrain=terrain,
                               unit_class=self.a_class, n=amount, when=tuple(explained))
        return 0, say(f"battle.target_{kind}_none", feature, fact="dice_reductions", dice=0, terrain=terrain,
                      failed=tuple(failed))

    def conditions(self, feature: str, rules: HexRules, reduction: DiceReduction) -> tuple[bool, list[str]]:
        """Whether every ``when`` condition of a reduction holds, with what was said of each."""
        said: list[str] = []
        for condition in reduction.when:
            holds, text = self.condition(feature, rules, condition)
            if not holds:
                return False, [text]
            if text:
                said.append(text)
        return True, said

    def condition(self, feature: str, rules: HexRules, condition: str) -> tuple[bool, str]:
        """Whether one ``when`` condition holds, with the words that say so (a phrase of the reason)."""
        name = self.rulebook.names.get(feature, feature)
        if condition == "from_below":
            below = elevation(self.situation, self.rulebook, self.attacker.hex) < elevation(
                self.situation, self.rulebook, self.target.hex)
            return below, "the attacker battles from below" if below else "the attacker is not below the target"
        if condition == "owner_only":
            owner, side = self.t_state.owner, self.target.side
            if owner is None:
                return True, (f"no original owner is given for the {name}, so the occupant ({side}) is assumed to "
                              f"be its owner")
            if owner == side:
                return True, f"the occupant belongs to its original owner ({owner})"
            return False, f"it protects only its original owner ({owner}), not {side}"
        if condition == "on_countryside_or_beach":
            terrain = self.t_state.terrain
            if terrain is None or is_a(self.rulebook, terrain, BEACH):
                return True, ""
            return False, f"it counts only on countryside or beach, not on {self.rulebook.names.get(terrain)}"
        if condition == "target_japanese":
            if self.target.nation == JAPANESE:
                return True, "the target is Japanese"
            return False, "it protects Japanese units only"
        if condition == "attacker_not_in_same_terrain":
            if any(is_a(self.rulebook, f, feature) or is_a(self.rulebook, feature, f) for f in self.a_state.features()):
                return False, f"the attacker is itself in {name}"
            return True, ""
        if condition == "not_same_plateau":
            group = (plateau_group(self.situation, self.rulebook, self.target.hex, rules.plateau)
                     if rules.plateau else None)
            if group is not None and self.attacker.hex in group:
                return False, f"the attacker stands on the same {name} group at the same height"
            return True, "the attacker is not on the same group at the same height"
        raise LookupError(f"unknown reduction condition {condition!r} on {feature!r}")

    # -- the attacker's own hex -----------------------------------------------------------------
    def own_terrain(self) -> int:
        """The attacker's own hex penalty (``battle_out``), best one only."""
        penalties = [(amount, f) for f in self.a_state.features()
                     if (amount := self.rulebook.hex_rules(f).battle_out.get(self.a_class, 0))]
        if not penalties:
            return 0
        mode = self.a_rules.ignores_own_terrain
        where = self.a_rules.ignores_own_terrain_in
        if where and not any(is_a(self.rulebook, f, w) for _, f in penalties for w in where):
            mode = "never"  # Tank Destroyer: only inside a town or village, not out of a ford or balka
        if mode == "always" or (mode == "unmoved" and self.attacker.moved == 0):
            self.breakdown.append(say(f"battle.ignores_own_terrain{'_unmoved' if mode == 'unmoved' else ''}",
                                      self.attacker.profile, fact="ignores_own_terrain", dice=0, unit=self.who))
            return 0
        amount, feature = max(penalties)
        self.breakdown.append(say("battle.battle_out", feature, fact="battle_out", dice=-amount, unit=self.who,
                                  terrain=self.entry(feature), n=amount))
        return amount

    # -- cards, badges and nations --------------------------------------------------------------
    def modifier_sources(self) -> Iterable[tuple[str, tuple[DiceModifier, ...]]]:
        card, combat = self.rulebook.card(self.card), self.rulebook.combat_card(self.combat_card)
        if self.card is not None and card is not None:
            yield self.card, card.dice_modifiers
        if self.combat_card is not None and combat is not None:
            yield self.combat_card, combat.dice_modifiers
        for badge in self.attacker.badges:
            badge_rules = self.rulebook.badge(badge)
            if badge_rules is not None:
                yield badge, badge_rules.dice_modifiers
        for nation_id, rules in self.nations():
            yield nation_id, rules.dice_modifiers

    def modifier_applies(self, m: DiceModifier) -> tuple[bool, list[str]]:
        """Whether the modifier applies to this attacker here, with the conditions it met."""
        said: list[str] = []
        names = self.rulebook.names
        checks: list[tuple[bool, bool, str]] = [
            (bool(m.unit_classes), self.a_class in m.unit_classes, "/".join(m.unit_classes)),
            (bool(m.units), self.attacker.profile in m.units or self.attacker.type in m.units,
             "/".join(names.get(u, u) for u in m.units)),
            (m.range == "close_assault", self.close, "in close assault"),
            (m.range == "ranged", not self.close, "when firing"),
            (m.full_strength, self.attacker.full_strength, "at full strength"),
            (bool(m.attacker_terrain), any(is_a(self.rulebook, f, t) for f in self.a_state.features()
                                           for t in m.attacker_terrain),
             "on " + "/".join(names.get(t, t) for t in m.attacker_terrain)),
            (bool(m.nations), self.attacker.nation in m.nations, "/".join(m.nations)),
        ]
        for asked, holds, words in checks:
            if not asked:
                continue
            if not holds:
                return False, []
            said.append(words)
        return True, said

    def modifiers(self) -> int:
        total = 0
        for source, modifiers in self.modifier_sources():
            for m in modifiers:
                applies, when = self.modifier_applies(m)
                if not applies:
                    continue
                code = f"battle.{'bonus' if m.amount >= 0 else 'penalty'}{'_when' if when else ''}"
                self.breakdown.append(say(code, source, fact="dice_modifiers", dice=m.amount,
                                          source=self.entry(source), n=abs(m.amount), when=tuple(when)))
                total += m.amount
        return total


def _no_dice(reason: Reason) -> Reason:
    """``reason`` as a step that changes no dice (a reduction that did not count)."""
    return replace(reason, dice=0)
