"""Re-supply by Half-Tracks and Supply Trucks (engine/resupply.py)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.engine.errors import IllegalSituation
from adjudicator.engine.lookups import rule_entry
from adjudicator.engine.resupply import resupply_options
from adjudicator.engine.rulebook import Rulebook
from adjudicator.engine.situation import Situation, parse_situation

ON = ["resupply"]  # the Re-Supply rule in effect (the Re-Supply action needs it)


def camp(rulebook: Rulebook, supplier: dict[str, Any], neighbours: list[dict[str, Any]], **doc: Any) -> Situation:
    """Supplier ``S`` (allies, row 4 col 10) and units around it."""
    s = {"id": "S", "side": "allies", "row": 4, "col": 10, "figures": 2, **supplier}
    return parse_situation({"units": [s, *neighbours], **doc}, rulebook)


def unit(uid: str, row: int, col: int, figures: int, type_: str = "infantry", side: str = "allies",
         **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": type_, "row": row, "col": col, "figures": figures, **extra}


def targets(result: Any) -> dict[str, int]:
    return {t.unit: t.max_figures for t in result.targets}


def ineligible(result: Any) -> dict[str, set[str]]:
    return {i.unit: {r.rule for r in i.reasons} for i in result.ineligible}


def test_half_track_resupply_needs_resupply_rule(rulebook: Rulebook):
    needed = rulebook.unit("half_track").resupply_requires_rule
    assert needed
    weak = [unit("I", 5, 9, 2)]
    without = resupply_options(camp(rulebook, {"type": "half_track"}, weak), rulebook, "S")
    assert not without.legal and without.targets == ()
    assert [c.unit for c in without.candidates] == ["I"]
    assert any(r.rule == "half_track" and needed in r.text for r in without.why_not)
    with_rule = resupply_options(camp(rulebook, {"type": "half_track"}, weak, rules=[needed]), rulebook, "S")
    assert with_rule.legal and targets(with_rule) == {"I": 2}


@pytest.mark.parametrize("supplier", ["supply_truck", "half_track"])
def test_supply_vehicle_resupply_needs_resupply_rule_through_the_api(client: FlaskClient, rulebook: Rulebook,
                                                                     supplier: str):
    """Re-Supply action summary (Half-Tracks rules, Actions 24): any vehicle with the ability re-supplies
    only when the re-supply rules are in effect -- the truck as much as the Half-Track."""
    needed = rulebook.unit(supplier).resupply_requires_rule
    assert needed and rule_entry(rulebook, needed) == "resupply"
    units = [{"id": "S", "side": "allies", "type": supplier, "row": 4, "col": 10, "figures": 2},
             unit("I", 5, 9, 3)]
    refused = client.post("/api/v1/resupply", json={"units": units, "supplier": "S"})
    assert refused.status_code == 200
    off = refused.get_json()
    assert off["legal"] is False and off["targets"] == []
    assert [c["unit"] for c in off["candidates"]] == ["I"]
    assert any(r["rule"] == supplier and needed in r["text"] for r in off["why_not"])
    on = client.post("/api/v1/resupply", json={"units": units, "supplier": "S", "rules": [needed]}).get_json()
    assert on["legal"] is True and on["targets"] == [{"unit": "I", "max_figures": 1, "figures": 3,
                                                      "start_figures": 4}]


def test_supply_truck_resupplies_up_to_start_figures(rulebook: Rulebook):
    around = [unit("I", 5, 9, 3), unit("A", 5, 11, 1, "armor"), unit("G", 3, 9, 1, "artillery"),
              unit("W", 3, 11, 2, start_figures=3)]
    truck = {"type": "supply_truck", "figures": 3, "start_figures": 3}
    result = resupply_options(camp(rulebook, truck, around, rules=ON), rulebook, "S")
    assert targets(result) == {"I": 1, "A": 2, "G": 1, "W": 1}
    assert result.supplier_figures == 3
    assert result.total_max_figures == 3  # five figures are missing, the truck has three


def test_resupply_limited_by_supplier_figures(rulebook: Rulebook):
    result = resupply_options(camp(rulebook, {"type": "supply_truck", "figures": 1}, [unit("I", 5, 9, 1)], rules=ON),
                              rulebook, "S")
    assert targets(result) == {"I": 1} and result.total_max_figures == 1


def test_full_strength_and_enemy_units_are_not_resupplied(rulebook: Rulebook):
    around = [unit("F", 5, 9, 4), unit("E", 5, 11, 1, side="axis"), unit("far", 7, 9, 1)]
    result = resupply_options(camp(rulebook, {"type": "supply_truck"}, around, rules=ON), rulebook, "S")
    assert not result.legal and result.targets == ()
    assert set(ineligible(result)) == {"F", "E"}  # "far" is not adjacent at all
    assert result.why_not and result.why_not[0].rule == "resupply"


@pytest.mark.parametrize(("type_", "figures", "extra"), [("sniper", 1, {"start_figures": 2}),
                                                         ("train", 3, {})])
def test_single_figure_units_and_trains_are_never_resupplied(rulebook: Rulebook, type_: str, figures: int,
                                                             extra: dict):
    around = [unit("X", 5, 9, figures, type_, **extra)]
    result = resupply_options(camp(rulebook, {"type": "supply_truck"}, around, rules=ON), rulebook, "S")
    assert not result.legal
    assert type_ in ineligible(result)["X"]
    assert rulebook.unit(type_).resupplyable is False


def test_resupplied_units_and_half_track_may_not_battle(rulebook: Rulebook):
    around = [unit("I", 5, 9, 2), unit("J", 5, 11, 3)]
    ht = resupply_options(camp(rulebook, {"type": "half_track"}, around, rules=["resupply"]), rulebook, "S")
    assert ht.no_battle == ("S", "I", "J")
    truck = resupply_options(camp(rulebook, {"type": "supply_truck"}, around, rules=ON), rulebook, "S")
    assert truck.no_battle == ("I", "J")
    assert any("never battles" in r.text for r in truck.reasons)


def test_several_units_may_be_resupplied_from_one_supplier(rulebook: Rulebook):
    around = [unit("I", 5, 9, 3), unit("J", 5, 11, 3)]
    result = resupply_options(camp(rulebook, {"type": "supply_truck"}, around, rules=ON), rulebook, "S")
    assert targets(result) == {"I": 1, "J": 1} and result.total_max_figures == 2


def test_units_without_the_ability_cannot_resupply(rulebook: Rulebook):
    result = resupply_options(camp(rulebook, {"type": "infantry", "figures": 4}, [unit("I", 5, 9, 1)],
                                   rules=["resupply"]), rulebook, "S")
    assert not result.legal
    assert result.why_not[0].rule == "infantry"


def test_unknown_supplier_names_the_field(rulebook: Rulebook):
    situation = camp(rulebook, {"type": "supply_truck"}, [])
    with pytest.raises(IllegalSituation) as exc:
        resupply_options(situation, rulebook, "nobody")
    assert exc.value.field == "supplier"


def test_resupply_json_has_the_spec_fields(rulebook: Rulebook):
    situation = camp(rulebook, {"type": "supply_truck"}, [unit("I", 5, 9, 2)], rules=ON)
    out = resupply_options(situation, rulebook, "S").to_dict()
    assert {"legal", "why_not", "targets", "supplier_figures", "ineligible"} <= set(out)
    assert out["targets"] == [{"unit": "I", "max_figures": 2, "figures": 2, "start_figures": 4}]
    assert all(r["rule"] in rulebook.kinds for r in out["reasons"])


def test_supply_truck_page_shows_the_resupply_condition_and_both_readings(client: FlaskClient):
    """supply_truck: the page states the engine's condition (the Re-Supply rule) as a structured fact, and
    cites both the Half-Tracks rules' action summary and the Supply Trucks rules, which differ on it."""
    page = client.get("/rules/unit/supply_truck")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Re-supply needs the rule" in html and 'href="/rules/action/resupply"' in html
    assert "Half-Tracks rules" in html and "Supply Trucks rules" in html
    assert "Two readings" in html
