"""The JSON API's engine half: request dict + rulebook -> answer dict, with no Flask.

Each ``/api/v1/<name>`` engine endpoint is ``parse request -> pure engine -> dict``. The Flask
view (``web/api_engine.py``) checks the HTTP body (type, size, depth) and then calls the function
registered here under the endpoint's name; the builder's offline mode runs *this same module* in
the browser (Pyodide, ``static/js/engine-worker.js``) so a ruling made on the phone is the JSON the
server would have sent. Adding an endpoint to both is one line in ``ENDPOINTS`` (and its contract
in API.md and the OpenAPI document).

Answers are written by serialisers of one style: a value that can name everything it holds by
itself has a ``to_dict()`` method (a reason, a retreat option, the odds); one that needs the board,
the situation or the rulebook to name its hexes and units as players do is a module function
``<thing>_json(context..., value)``, context first and the value last (``hex_json(board, h)``,
``ruling_json(situation, rulebook, ruling)``). tests/test_house_style.py holds them to it.

A bad field raises ``RequestError`` (an ``IllegalSituation``) carrying the API error ``code``;
both callers turn it into the same ``{"error": {"code", "message", "field"}}`` with status 400.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from adjudicator.engine import budget
from adjudicator.engine.aftermath import battle_aftermath
from adjudicator.engine.battle import assess_battle, resolve_entry, ruling_json
from adjudicator.engine.card_attack import (
    MAX_TARGETS_GIVEN,
    CardAttack,
    assess_card_attack,
    card_attack_json,
    is_card_attack,
)
from adjudicator.engine.card_group import group_json, resolve_group
from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.fire_map import fire_map
from adjudicator.engine.follow_ups import follow_up_battles
from adjudicator.engine.geometry import SECTIONS, Hex, Section
from adjudicator.engine.los import line_of_sight, los_json
from adjudicator.engine.movement import legal_moves, move_json
from adjudicator.engine.orders import OrderTerms, card_rules, plan_json, plan_order
from adjudicator.engine.resolve import (
    Resolution,
    parse_rolled,
    resolution_json,
    resolve_battle,
    resolve_card_attack,
)
from adjudicator.engine.resupply import resupply_options
from adjudicator.engine.retreat import retreat_options
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.score import WHEN, score, score_json
from adjudicator.engine.score_change import roll_on_score, roll_steps
from adjudicator.engine.situation import (
    MAX_FIGURES,
    MAX_ID_LENGTH,
    MAX_MEDALS,
    MAX_UNITS,
    SIDES,
    Situation,
    parse_hex,
    parse_per_side,
    parse_situation,
)

MAX_CARD_LENGTH = 80
MAX_FLAGS = 12  # input limit: more dice than any battle rolls
MAX_GROUP = MAX_TARGETS_GIVEN + 1  # input limit: rolls for a card's group (its target and ``targets``)
T = TypeVar("T")


class RequestError(IllegalSituation):
    """A request field the API rejects with a 400; ``code`` is the API error code."""

    def __init__(self, field: str, message: str, code: str = "bad_request") -> None:
        super().__init__(field, message)
        self.code = code


def engine_call(call: Callable[[], T]) -> T:
    """Run an engine call, marking a field-named IllegalSituation as an invalid request."""
    try:
        return call()
    except RequestError:
        raise
    except IllegalSituation as exc:
        raise RequestError(exc.field, exc.message, "invalid_request") from None


def situation_of(data: dict[str, Any], rulebook: Rulebook) -> Situation:
    """The request's situation (board, hexes, units, rules); a bad one is ``invalid_situation``."""
    try:
        return parse_situation(data, rulebook)
    except IllegalSituation as exc:
        raise RequestError(exc.field, exc.message, "invalid_situation") from None


def hex_of(data: dict[str, Any], name: str, situation: Situation) -> Hex:
    """A required ``{"row", "col"}`` field that must lie on the situation's board."""
    if name not in data:
        raise RequestError(name, f'`{name}` is required: a hex like {{"row": 4, "col": 10}}')
    return engine_call(lambda: parse_hex(data[name], name, situation.board))


def unit_id_of(data: dict[str, Any], name: str, situation: Situation) -> str:
    """A required field naming a unit of the situation."""
    value = data.get(name)
    if not isinstance(value, str) or not value:
        raise RequestError(name, f"give the id of a unit in `{name}`")
    try:
        situation.unit(value, name)
    except IllegalSituation as exc:
        raise RequestError(exc.field, exc.message, "unknown_unit") from None
    return value


def bool_of(data: dict[str, Any], name: str) -> bool:
    """An optional true/false field (absent or null is false)."""
    value = data.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RequestError(name, f"`{name}` must be true or false, got {type(value).__name__}")
    return value


def int_of(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    """A whole-number field within ``low..high``; required when ``default`` is None."""
    value = data.get(name)
    if value is None:
        if default is None:
            raise RequestError(name, f"`{name}` is required (a whole number from {low} to {high})")
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"`{name}` must be a whole number, got {type(value).__name__}")
    if not low <= value <= high:
        raise RequestError(name, f"`{name}` must be between {low} and {high}, got {value}")
    return value


def card_name_of(data: dict[str, Any], name: str) -> str | None:
    """An optional card as given (the battle engine resolves and judges it)."""
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_CARD_LENGTH:
        raise RequestError(name, f"`{name}` must be a card id (a string of at most {MAX_CARD_LENGTH} characters)")
    return value


def card_of(data: dict[str, Any], name: str, kind: str, rulebook: Rulebook) -> str | None:
    """An optional card named by id, name or alias, resolved among entries of ``kind``."""
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_CARD_LENGTH:
        raise RequestError(name, f"`{name}` must be the id of a {kind.replace('_', ' ')}")
    entry = rulebook.resolve(value, kind)
    if entry is None:
        raise RequestError(name, f"unknown {kind.replace('_', ' ')} {value!r}", "unknown_card")
    return entry


def line_of_sight_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Line of sight between the centres of ``from`` and ``to`` (content ``line_of_sight``)."""
    situation = situation_of(data, rulebook)
    origin = hex_of(data, "from", situation)
    target = hex_of(data, "to", situation)
    ruling = line_of_sight(situation, rulebook, origin, target)
    return los_json(situation.board, ruling)


def battle_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Legality, dice with their reasons, hits, exact odds and what may follow the roll; a card
    that attacks by itself (``card`` without ``attacker``) goes to ``card_attack_answer``."""
    situation = situation_of(data, rulebook)
    card = card_name_of(data, "card")
    if data.get("attacker") is None and card is not None:
        return card_attack_answer(data, situation, card, rulebook)
    attacker = unit_id_of(data, "attacker", situation)
    target = unit_id_of(data, "target", situation)
    combat_card = card_name_of(data, "combat_card")
    overrun_battle = bool_of(data, "overrun_battle")
    card, order = played_card_of(data, situation, card, rulebook)
    ruling = engine_call(lambda: assess_battle(situation, rulebook, attacker, target, card=card,
                                               combat_card=combat_card, overrun_battle=overrun_battle,
                                               order=order))
    after = engine_call(lambda: battle_aftermath(situation, rulebook, ruling, card=ruling.card,
                                                 combat_card=ruling.combat_card))
    answer = ruling_json(situation, rulebook, ruling)
    outcome = after.to_dict()
    if answer["probabilities"] is not None:
        for key in ("eliminate_after_retreat", "eliminate_after_retreat_exact"):
            if key in outcome:
                answer["probabilities"][key] = outcome.pop(key)
    answer.update(outcome)
    follow_ups = follow_up_battles(situation, rulebook, ruling, after.choices_by_flags)
    answer["follow_ups"] = [f.to_dict() for f in follow_ups]
    return answer


def card_attack_answer(data: dict[str, Any], situation: Situation, card: str, rulebook: Rulebook) -> dict[str, Any]:
    """A card that attacks by itself (Air Power, Barrage): ``card`` and ``target`` (plus, for a
    group, ``targets``) and no ``attacker``."""
    return card_attack_json(situation, rulebook, card_attack_of(data, situation, card, rulebook))


def card_attack_of(data: dict[str, Any], situation: Situation, card: str, rulebook: Rulebook) -> CardAttack:
    """The card's attack on ``target`` (and ``targets``), for ``/battle`` and ``/resolve`` alike."""
    card_id = engine_call(lambda: resolve_entry(rulebook, card, "card", "command_card"))
    if not is_card_attack(rulebook, card_id):
        raise RequestError("attacker", f"give the id of a unit in `attacker`: {rulebook.names[str(card_id)]} orders "
                           "units, it does not attack by itself")
    target = unit_id_of(data, "target", situation)
    others = data.get("targets", [])
    if not isinstance(others, list) or not all(isinstance(x, str) for x in others):
        raise RequestError("targets", "`targets` must be a list of unit ids")
    return engine_call(lambda: assess_card_attack(situation, rulebook, str(card_id), target, tuple(others)))


def retreat_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Every legal retreat of ``unit`` for ``flags`` flags (after ``hits`` hits), with losses."""
    situation = situation_of(data, rulebook)
    unit = unit_id_of(data, "unit", situation)
    flags = int_of(data, "flags", 0, MAX_FLAGS)
    hits = int_of(data, "hits", 0, MAX_FIGURES, default=0)
    card = card_of(data, "card", "command_card", rulebook)
    combat_card = card_of(data, "combat_card", "combat_card", rulebook)
    result = engine_call(lambda: retreat_options(situation, rulebook, unit, flags, card=card,
                                                 combat_card=combat_card, hits=hits))
    return result.to_dict()


def resupply_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Whom ``supplier`` may re-supply this turn and with how many figures."""
    situation = situation_of(data, rulebook)
    supplier = unit_id_of(data, "supplier", situation)
    return engine_call(lambda: resupply_options(situation, rulebook, supplier)).to_dict()


def resolve_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """The faces actually rolled, applied: hits, losses, flags, retreat, ground (``engine.resolve``);
    with no ``attacker`` and a card that attacks by itself, the card's roll on ``target``."""
    situation = situation_of(data, rulebook)
    card, combat_card = card_name_of(data, "card"), card_name_of(data, "combat_card")
    if data.get("attacker") is None and card is not None and isinstance(data.get("rolled"), list):
        return group_answer(data, situation, card, rulebook)
    if data.get("attacker") is None and card is not None:
        attack = card_attack_of(data, situation, card, rulebook)
        rolled = engine_call(lambda: parse_rolled(data.get("rolled"), rulebook))
        applied = engine_call(lambda: resolve_card_attack(situation, rulebook, attack, rolled))
        return with_score(resolution_json(situation, rulebook, applied), situation, rulebook, applied, attack.side)
    attacker = unit_id_of(data, "attacker", situation)
    target = unit_id_of(data, "target", situation)
    overrun_battle = bool_of(data, "overrun_battle")
    card, order = played_card_of(data, situation, card, rulebook)
    rolled = engine_call(lambda: parse_rolled(data.get("rolled"), rulebook))
    ruling = engine_call(lambda: assess_battle(situation, rulebook, attacker, target, card=card,
                                               combat_card=combat_card, overrun_battle=overrun_battle,
                                               order=order))
    resolution = engine_call(lambda: resolve_battle(situation, rulebook, ruling, rolled))
    return with_score(resolution_json(situation, rulebook, resolution), situation, rulebook, resolution,
                      ruling.attacker.side)


def with_score(answer: dict[str, Any], situation: Situation, rulebook: Rulebook, resolution: Resolution,
               side: str) -> dict[str, Any]:
    """A ``/resolve`` answer for a situation with a ``scenario`` also says what the roll changes on
    the score (``engine.score_change``): ``score``, and its changes closing ``steps``."""
    change = roll_on_score(situation, rulebook, resolution, side) if resolution.ruling.legal else None
    if change is not None:
        answer["score"] = change
        answer["steps"] = [*answer["steps"], *roll_steps(change)]
    return answer


def group_answer(data: dict[str, Any], situation: Situation, card: str, rulebook: Rulebook) -> dict[str, Any]:
    """A card's attack on a group with one roll per unit (``rolled`` a list, in the order ``target``,
    ``targets``): each outcome is applied before the next roll (``engine.card_group``);
    ``retreat_to`` may pick each unit's retreat end."""
    attack = card_attack_of(data, situation, card, rulebook)
    rolls = data["rolled"]
    if len(rolls) > MAX_GROUP:
        raise RequestError("rolled", f"`rolled` lists at most {MAX_GROUP} rolls")
    parsed = [engine_call(lambda: parse_rolled(r, rulebook)) for r in rolls]  # noqa: B023 (called at once)
    ends_given = data.get("retreat_to") or []
    if not isinstance(ends_given, list) or len(ends_given) > MAX_GROUP:
        raise RequestError("retreat_to", f"`retreat_to` must be a list of at most {MAX_GROUP} hexes (or nulls)")
    ends: list[Hex | None] = []
    for i, end in enumerate(ends_given):
        ends.append(None if end is None else engine_call(
            lambda: parse_hex(end, f"retreat_to[{i}]", situation.board)))  # noqa: B023 (called at once)
    group = tuple(u.id for u in attack.targets)
    steps = engine_call(lambda: resolve_group(situation, rulebook, attack.card, group, parsed, ends))
    return group_json(situation, rulebook, steps)


def fire_map_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Every battle between enemy units as things stand, each as ``/battle`` rules it (``engine.fire_map``)."""
    situation = situation_of(data, rulebook)
    unit = unit_id_of(data, "unit", situation) if data.get("unit") is not None else None
    card, combat_card = card_name_of(data, "card"), card_name_of(data, "combat_card")
    card, order = played_card_of(data, situation, card, rulebook)
    side = data.get("side")
    if side is not None and side not in SIDES:
        raise RequestError("side", f"`side` must be one of {', '.join(SIDES)}: the side playing the card")
    shots = engine_call(lambda: fire_map(situation, rulebook, unit, card=card, combat_card=combat_card, order=order,
                                         card_side=side))
    return shots.to_dict()


def move_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Every hex the unit may end its move on, with one best path each, whether it may still
    battle there, and why other hexes within its allowance cannot be reached (core ``movement``)."""
    situation = situation_of(data, rulebook)
    unit = unit_id_of(data, "unit", situation)
    card, combat_card = card_name_of(data, "card"), card_name_of(data, "combat_card")
    after_battle = bool_of(data, "after_battle")
    to = hex_of(data, "to", situation) if data.get("to") is not None else None
    card_id, order = played_card_of(data, situation, card, rulebook)
    combat_id = engine_call(lambda: resolve_entry(rulebook, combat_card, "combat_card", "combat_card"))
    ruling = engine_call(lambda: legal_moves(situation, rulebook, unit, card_id, combat_id, after_battle, order))
    return move_json(situation, rulebook, ruling, to)


def score_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Each side's medals with the rule each comes from, what each needs and the winner, at the
    moment ``when`` names (``side``: whose turn it is), plus ``medals`` won by means the engine
    cannot see (core ``medals``, ``engine.score``)."""
    situation = situation_of(data, rulebook)
    when = "now" if data.get("when") is None else data["when"]
    if when not in WHEN:
        raise RequestError("when", f"`when` must be one of {', '.join(WHEN)}, got {str(when)[:40]!r}")
    side = data.get("side")
    if side is not None and side not in SIDES:
        raise RequestError("side", f"`side` (whose turn it is) must be 'allies' or 'axis', got {str(side)[:40]!r}")
    if when == "turn_start" and side is None:
        raise RequestError("side", "`side` is required with when=turn_start: whose turn starts")
    given = engine_call(lambda: parse_per_side(data.get("medals"), "medals", 0, MAX_MEDALS))
    result = engine_call(lambda: score(situation, rulebook, when, side, given))
    return score_json(situation, result)


# -- ordering (engine/orders.py) -----------------------------------------------------------------

def scenario_of(situation: Situation) -> tuple[frozenset[str], Mapping[str, int]]:
    """The two things ordering reads from the situation's ``scenario`` (parsed and checked with the
    rest of the situation, ``engine.situation.parse_scenario``): the options it switches on (content
    ids such as ``us_marine_corps``) and the command cards in each side's hand."""
    scenario = situation.scenario
    if scenario is None:
        return frozenset(), {}
    return frozenset(scenario.options), scenario.cards


def section_of(value: Any, name: str) -> Section | None:
    """An optional section: ``left``, ``center`` or ``right``."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in SECTIONS:
        raise RequestError(name, f"`{name}` must be one of {', '.join(SECTIONS)}, got {str(value)[:40]!r}")
    return value


def needs_section(rulebook: Rulebook, card: str) -> bool:
    """Whether the card is played in a section the player names (a section card, Infantry Assault)."""
    return any(g.section in ("card", "chosen") for g in card_rules(rulebook, card).order_groups)


def copied_card_of(value: Any, rulebook: Rulebook) -> tuple[str | None, Section | None]:
    """An optional ``copied_card``: ``{"card", "section"}``, the opponent's last card as he played it."""
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise RequestError("copied_card", '`copied_card` must be an object like {"card": "attack", "section": "left"}')
    copied = card_of({"copied_card.card": value.get("card")}, "copied_card.card", "command_card", rulebook)
    if copied is None:
        raise RequestError("copied_card.card", "`copied_card.card` is required: the opponent's last card")
    if card_rules(rulebook, copied).copies_last_card:
        raise RequestError("copied_card.card", f"{rulebook.names[copied]} copies a card itself: give the card it "
                                               "copied")
    return copied, section_of(value.get("section"), "copied_card.section")


def order_terms_of(data: dict[str, Any], situation: Situation, card: str, rulebook: Rulebook,
                   strict: bool) -> OrderTerms:
    """How ``card`` is played: ``section``, ``copied_card`` (Counter-Attack) and the scenario's options.

    ``strict`` (``/order``) makes a section or copied card the card needs required; the other
    endpoints take them when given and otherwise check the unit in any section."""
    options, _ = scenario_of(situation)
    section = section_of(data.get("section"), "section")
    copied, copied_section = copied_card_of(data.get("copied_card"), rulebook)
    rules = card_rules(rulebook, card)
    if not rules.copies_last_card:
        copied, copied_section = None, None  # checked above, but only Counter-Attack copies a card
    elif copied is None and strict:
        raise RequestError("copied_card", f"{rulebook.names[card]} copies the opponent's last card: give "
                                          '`copied_card` like {"card": "attack", "section": "left"}')
    elif copied is not None and copied_section is None and needs_section(rulebook, copied) and strict:
        raise RequestError("copied_card.section", f"{rulebook.names[copied]} is played in a section: give "
                                                  "`copied_card.section` as the opponent played it")
    issued = copied or card
    if strict and section is None and copied is None and needs_section(rulebook, issued):
        raise RequestError("section", f"{rulebook.names[issued]} is played in a section: give `section` (left, "
                                      "center or right, from the ordering player's side)")
    return OrderTerms(card, section, copied, copied_section, None, options)


def played_card_of(data: dict[str, Any], situation: Situation, card: str | None,
                   rulebook: Rulebook) -> tuple[str | None, OrderTerms | None]:
    """(the card whose order and numbers apply, how it was played) for ``/move``, ``/battle``,
    ``/resolve`` and ``/fire-map``: Counter-Attack with ``copied_card`` acts as the copied card."""
    card_id = engine_call(lambda: resolve_entry(rulebook, card, "card", "command_card"))
    if card_id is None or rulebook.kinds.get(card_id) != "command_card":
        # how a card was played is checked even with no card: bad input is a 400 wherever it is
        section_of(data.get("section"), "section")
        copied_card_of(data.get("copied_card"), rulebook)
        return card_id, None
    terms = order_terms_of(data, situation, card_id, rulebook, strict=False)
    return terms.copied_card or card_id, terms


def rolled_of(data: dict[str, Any], situation: Situation, side: str, card: str,
              rulebook: Rulebook) -> tuple[tuple[str, int], ...]:
    """The dice rolled for a card that orders by the roll (Their Finest Hour): faces as in
    ``/resolve``, at least one die, and as many as the side's hand when ``scenario.cards`` says it."""
    if data.get("rolled") is None:
        raise RequestError("rolled", f"{rulebook.names[card]} orders by the dice rolled: give `rolled`, like "
                                     '{"infantry": 2, "star": 1}')
    rolled = engine_call(lambda: parse_rolled(data.get("rolled"), rulebook))
    total = sum(rolled.values())
    _, hands = scenario_of(situation)
    if side in hands and total != hands[side]:
        raise RequestError("rolled", f"the faces add up to {total} dice, but the {side} hold {hands[side]} command "
                                     "cards: 1 die is rolled per card, this one included")
    if total < 1:
        raise RequestError("rolled", "roll at least 1 die: 1 per command card in hand, this one included")
    return tuple((face, n) for face, n in rolled.items())


def selection_of(data: dict[str, Any]) -> tuple[str, ...] | None:
    value = data.get("selection")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_UNITS or not all(
            isinstance(v, str) and 0 < len(v) <= MAX_ID_LENGTH for v in value):
        raise RequestError("selection", f"`selection` must be a list of at most {MAX_UNITS} unit ids")
    return tuple(value)


def order_answer(data: dict[str, Any], rulebook: Rulebook) -> dict[str, Any]:
    """Which units the card may order for ``side``, in which pools, what the order lets them do,
    and whether the player's ``selection`` is legal (engine ``orders``, core ``ordering``)."""
    situation = situation_of(data, rulebook)
    side = data.get("side")
    if not isinstance(side, str) or side not in SIDES:
        raise RequestError("side", f"`side` is required: the player ordering, {' or '.join(SIDES)}")
    if data.get("card") is None:
        raise RequestError("card", "`card` is required: the command card played")
    card = card_of(data, "card", "command_card", rulebook)
    assert card is not None
    terms = order_terms_of(data, situation, card, rulebook, strict=True)
    issued = card_rules(rulebook, terms.copied_card or card)
    if issued.roll_orders:
        terms = OrderTerms(terms.card, terms.section, terms.copied_card, terms.copied_section,
                           rolled_of(data, situation, side, terms.copied_card or card, rulebook), terms.options)
    elif data.get("rolled") is not None:  # a roll no card reads: its faces are still checked
        engine_call(lambda: parse_rolled(data["rolled"], rulebook))
    selection = selection_of(data)
    plan = plan_order(situation, rulebook, side, terms)
    return plan_json(situation, rulebook, plan, selection)


Endpoint = Callable[[dict[str, Any], Rulebook], dict[str, Any]]

ENDPOINTS: dict[str, Endpoint] = {
    "line-of-sight": line_of_sight_answer,
    "battle": battle_answer,
    "retreat": retreat_answer,
    "resupply": resupply_answer,
    "resolve": resolve_answer,
    "fire-map": fire_map_answer,
    "move": move_answer,
    "score": score_answer,
    "order": order_answer,
}
"""``/api/v1/<name>`` -> its engine function: what the server and the offline builder both run."""


def too_complex_error(limit: int) -> dict[str, Any]:
    """The 422 answer to a request whose ruling needs more than ``limit`` work units (``budget``)."""
    return {"error": {"code": "too_complex", "message": (
        f"this situation needs more work than one request may spend ({limit} units): "
        f"fewer flags, a smaller board or fewer hazards will answer"), "field": "(body)"}}


def answer(name: str, data: Any, rulebook: Rulebook, work_budget: int | None = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) for a request to ``/api/v1/<name>``, as the API would answer it.

    The offline worker calls this with the decoded body and the server's work budget (so a
    situation the server refuses as too complex is refused on the phone too, not computed for
    minutes); errors become the API's error JSON."""
    if name not in ENDPOINTS:
        return 404, {"error": {"code": "not_found", "message": f"no offline engine for /api/v1/{name}",
                               "field": None}}
    if not isinstance(data, dict):
        return 400, {"error": {"code": "invalid_json", "message": "the body must be a JSON object", "field": "(body)"}}
    try:
        if work_budget is None:
            return 200, ENDPOINTS[name](data, rulebook)
        with budget.work_budget(work_budget):
            return 200, ENDPOINTS[name](data, rulebook)
    except budget.WorkBudgetExceeded as exc:
        return 422, too_complex_error(exc.limit)
    except RequestError as exc:
        return 400, {"error": {"code": exc.code, "message": exc.message, "field": exc.field}}
    except IllegalSituation as exc:
        return 400, {"error": {"code": "invalid_request", "message": exc.message, "field": exc.field}}
